package strategy

import "testing"

// Parse never panics; what it accepts it writes canonically (String), and
// the canonical form reads back to itself and makes a strategy.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"random", "random:bluff=1,challenge=0.5,forget=0.25,catch=0", "heuristic",
		"heuristic:bluff=0.3,challenge=seen", "Heuristic:BLUFF=0.1", "heuristic:challenge=sound,bias=-2",
		"counter:trust=0.5,void=3", "ismcts:iterations=100,rollout=counter,objective=place",
		"exec:python3 bot.py", "exec:", "heuristic:", ":", "heuristic:bluff=", "heuristic:bluff=NaN",
		"heuristic:bluff=1e400", "heuristic:bluff=0x1p-2", "heuristic:bluff=0.1,bluff=0.2", "counter:trust=2",
		" heuristic : bluff = 0.5 ", "ismcts:iterations=-1", "ismcts:iterations=1e3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := Parse(spec)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an error without a message", spec)
			}
			return
		}
		c := s.String()
		again, err := Parse(c)
		if err != nil {
			t.Fatalf("%q was accepted, its canonical form %q is not: %v", spec, c, err)
		}
		if again.String() != c {
			t.Fatalf("%q: canonical %q reads back as %q", spec, c, again.String())
		}
		if s.Name() != "exec" && s.New() == nil { // (an exec bot would start a process)
			t.Fatalf("%q: no strategy made", spec)
		}
	})
}
