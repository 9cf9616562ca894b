package engine

import "testing"

// ParseDeck never panics, and a deck it accepts writes (String) a
// specification that reads back to the same deck.
func FuzzParseDeck(f *testing.F) {
	for _, s := range []string{"classic", "party", "encanto", "classic,wild-swap-hands=4", "classic,red-0=0",
		"party,wild-pile-up=20", "classic,", ",", "classic,red-0=-1", "classic,red-0=1e9", "nope", "classic,blue-skip=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		d, err := ParseDeck(spec)
		if err != nil {
			return
		}
		again, err := ParseDeck(d.String())
		if err != nil || again != d {
			t.Fatalf("%q: its deck written as %q reads back as another (%v)", spec, d.String(), err)
		}
	})
}

// Options.Set never panics; a value it accepts is read back by Get as a
// value Set accepts to the same options.
func FuzzOptionsSet(f *testing.F) {
	for _, c := range [][2]string{{"stack-draw-two", "true"}, {"max-turns", "60"}, {"max-turns", "0"}, {"deck", "classic,wild-swap-hands=4"},
		{"challenge-penalty", "2"}, {"jump-in", "any"}, {"scoring", "winner-takes"}, {"nope", "1"}, {"max-turns", "1e3"}, {"stack-draw-two", "yes"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		for _, r := range []RuleSet{Classic, Party, Encanto} {
			o := DefaultOptions(r)
			if err := o.Set(name, value); err != nil {
				continue
			}
			got, err := o.Get(name)
			if err != nil {
				// Set trims the name; Get is asked the trimmed one below.
				continue
			}
			p := DefaultOptions(r)
			if err := p.Set(name, got); err != nil || p != o {
				t.Fatalf("%s: %s=%q accepted, read back as %q, which gives other options (%v)", r, name, value, got, err)
			}
			_ = o.Validate(4) // an error or not, never a panic
		}
	})
}
