package sim

import "testing"

// ParseShard never panics; a shard it accepts writes itself back, and its
// range of any number of games lies within them.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "0/4", "3/4", "4/4", "-1/2", "1/0", "x/y", "/", "9223372036854775807/9223372036854775807"} {
		f.Add(s, int64(1000))
	}
	f.Fuzz(func(t *testing.T, s string, games int64) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if again, err := ParseShard(sh.String()); err != nil || again != sh && sh.Count > 1 {
			t.Fatalf("%q: written as %q, read back as %v (%v)", s, sh.String(), again, err)
		}
		if games < 0 {
			return
		}
		if lo, hi := sh.Range(games); lo < 0 || hi > games || lo > hi {
			t.Fatalf("%q of %d games: range [%d, %d)", s, games, lo, hi)
		}
	})
}
