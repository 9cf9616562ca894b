package strategy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// heuristicOf is the heuristic a specification makes.
func heuristicOf(t *testing.T, s strategy.Spec) strategy.Heuristic {
	t.Helper()
	h, ok := s.New().(*strategy.Heuristic)
	if !ok {
		t.Fatalf("%s made a %T, want *strategy.Heuristic", s, s.New())
	}
	return *h
}

// Every valid form parses to the parameters it names, and its canonical
// string lists the parameters that differ from their defaults in the
// documented order, lower case, numbers in their shortest form.
func TestParseValid(t *testing.T) {
	def := strategy.DefaultHeuristic()
	with := func(f func(h *strategy.Heuristic)) strategy.Heuristic {
		h := def
		f(&h)
		return h
	}
	for _, tc := range []struct {
		in, canon string
		want      strategy.Heuristic // for the heuristic
	}{
		{"random", "random", strategy.Heuristic{}},
		{"  Random ", "random", strategy.Heuristic{}},
		{"random:", "random", strategy.Heuristic{}},
		{"heuristic", "heuristic", def},
		{"heuristic:", "heuristic", def},
		{"HEURISTIC", "heuristic", def},
		{"heuristic:bluff=0.3,challenge=sound", "heuristic:bluff=0.3", with(func(h *strategy.Heuristic) { h.Bluff = 0.3 })},
		{"heuristic:bluff=0.3,challenge=seen", "heuristic:bluff=0.3,challenge=seen", with(func(h *strategy.Heuristic) { h.Bluff, h.Challenge = 0.3, strategy.ChallengeSeen })},
		{"heuristic:bluff=sound,bluff-rate=0.2,challenge-bias=-1.5,bluff-bias=2", "heuristic:bluff=sound,bluff-rate=0.2,challenge-bias=-1.5,bluff-bias=2",
			with(func(h *strategy.Heuristic) {
				h.BluffSound, h.BluffRate, h.ChallengeBias, h.BluffBias = true, 0.2, -1.5, 2
			})},
		{"heuristic: Bluff = 0.30 , FORGET=.5", "heuristic:bluff=0.3,forget=0.5", with(func(h *strategy.Heuristic) { h.Bluff, h.Forget = 0.3, 0.5 })},
		{"heuristic:challenge=Never", "heuristic:challenge=never", with(func(h *strategy.Heuristic) { h.Challenge = strategy.ChallengeNever })},
		{"heuristic:challenge=never", "heuristic:challenge=never", with(func(h *strategy.Heuristic) { h.Challenge = strategy.ChallengeNever })},
		{"heuristic:challenge=always", "heuristic:challenge=always", with(func(h *strategy.Heuristic) { h.Challenge = strategy.ChallengeAlways })},
		{"heuristic:challenge=0.5", "heuristic:challenge=0.5", with(func(h *strategy.Heuristic) { h.Challenge, h.ChallengeP = strategy.ChallengeRandom, 0.5 })},
		{"heuristic:challenge=0", "heuristic:challenge=0", with(func(h *strategy.Heuristic) { h.Challenge, h.ChallengeP = strategy.ChallengeRandom, 0 })},
		{"heuristic:challenge=sound,threshold=0.3,bluff-rate=0.01", "heuristic", def},
		{"heuristic:threshold=0.45", "heuristic:threshold=0.45", with(func(h *strategy.Heuristic) { h.Threshold = 0.45 })},
		{"heuristic:speed=2,bluff=1", "heuristic:bluff=1,speed=2", with(func(h *strategy.Heuristic) { h.Speed, h.Bluff = 2, 1 })},
		{"heuristic:speed=1e9", "heuristic:speed=1e+09", with(func(h *strategy.Heuristic) { h.Speed = 1e9 })},
		{"heuristic:catch=0,jump=0.25,forget=1,bluff=1e-1", "heuristic:bluff=0.1,forget=1,catch=0,jump=0.25",
			with(func(h *strategy.Heuristic) { h.Catch, h.Jump, h.Forget, h.Bluff = 0, 0.25, 1, 0.1 })},
		{"heuristic:bluff=0,forget=0,catch=1,jump=1,speed=1", "heuristic", def},
		{"heuristic:bluff=0.3,challenge=0.7,threshold=0.2,forget=0.1,catch=0.9,jump=0.5,speed=3",
			"heuristic:bluff=0.3,challenge=0.7,threshold=0.2,forget=0.1,catch=0.9,jump=0.5,speed=3",
			strategy.Heuristic{Bluff: 0.3, Challenge: strategy.ChallengeRandom, ChallengeP: 0.7, Threshold: 0.2, Forget: 0.1, Catch: 0.9, Jump: 0.5, Speed: 3, BluffRate: strategy.DefaultBluffRate}},
	} {
		s, err := strategy.Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != tc.canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.canon)
		}
		name, _, _ := strings.Cut(tc.canon, ":")
		if s.Name() != name {
			t.Errorf("Parse(%q).Name() = %q, want %q", tc.in, s.Name(), name)
		}
		if name == "heuristic" {
			if got := heuristicOf(t, s); got != tc.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		} else if _, ok := s.New().(*strategy.Random); !ok {
			t.Errorf("Parse(%q) made a %T, want *strategy.Random", tc.in, s.New())
		}
		// The canonical form is a fixed point that means the same.
		back, err := strategy.Parse(s.String())
		if err != nil {
			t.Errorf("Parse(%q) of the canonical form: %v", s.String(), err)
			continue
		}
		if back.String() != s.String() || back.Name() != s.Name() {
			t.Errorf("Parse(%q) = %v, not the same as %v", s.String(), back, s)
		}
	}
}

// Bad specifications are errors that name what is wrong and list the
// valid choices.
func TestParseErrors(t *testing.T) {
	const params = "bluff, challenge, threshold, forget, catch, jump, speed, bluff-rate, challenge-bias, bluff-bias"
	for _, tc := range []struct {
		in   string
		want []string // substrings of the message
	}{
		{"", []string{`unknown strategy ""`, "random, heuristic"}},
		{"smart", []string{`unknown strategy "smart"`, "random, heuristic"}},
		{"heuristics:bluff=1", []string{`unknown strategy "heuristics"`, "random, heuristic"}},
		{"heuristic:speedy=1", []string{`unknown parameter "speedy"`, params}},
		{"Heuristics:bluff=1", []string{`unknown strategy "Heuristics"`, "random, heuristic"}},
		{"heuristic:Speedy=1", []string{`unknown parameter "Speedy"`, params}},
		{"heuristic:bluff=2", []string{"bluff", `"2"`, "a number from 0 to 1"}},
		{"heuristic:bluff=-0.1", []string{"bluff", `"-0.1"`, "a number from 0 to 1"}},
		{"heuristic:bluff=NaN", []string{"bluff", `"NaN"`, "a number from 0 to 1"}},
		{"heuristic:challenge=Maybe", []string{"challenge", `"Maybe"`}},
		{"heuristic:speed=Inf", []string{"speed", `"Inf"`}},
		{"heuristic:bluff=lots", []string{"bluff", `"lots"`, "a number from 0 to 1"}},
		{"heuristic:forget=1.5", []string{"forget", "a number from 0 to 1"}},
		{"heuristic:catch=-1", []string{"catch", "a number from 0 to 1"}},
		{"heuristic:jump=x", []string{"jump", "a number from 0 to 1"}},
		{"heuristic:threshold=3", []string{"threshold", "a number from 0 to 1"}},
		{"heuristic:challenge=maybe", []string{"challenge", `"maybe"`, "never, always, seen, sound, or a number from 0 to 1"}},
		{"heuristic:challenge=1.5", []string{"challenge", "never, always, seen, sound, or a number from 0 to 1"}},
		{"heuristic:bluff=often", []string{"bluff", `"often"`, "sound, or a number from 0 to 1"}},
		{"counter:void=-1", []string{"void", "a number from 0 to 100"}},
		{"counter:trust=2", []string{"trust", "a number from 0 to 1"}},
		{"random:bluff=1.5", []string{"bluff", "a number from 0 to 1"}},
		{"ismcts:iterations=2000000", []string{"iterations", `"2000000"`, "a number from 1 to 1,000,000)"}},
		{"counter:stuck=-1", []string{"stuck", "a number from 0 to 10,000)"}},
		{"heuristic:challenge-bias=21", []string{"challenge-bias", "a number from -20 to 20)"}},
		{"heuristic:speed=0", []string{"speed", `"0"`, "a number from 1e-09 to 1,000,000,000"}},
		{"heuristic:speed=-2", []string{"speed", "a number from 1e-09 to 1,000,000,000"}},
		{"heuristic:speed=Inf", []string{"speed", "a number from 1e-09 to 1,000,000,000"}},
		{"heuristic:speed=NaN", []string{"speed", "a number from 1e-09 to 1,000,000,000"}},
		{"heuristic:bluff", []string{`"bluff"`, "KEY=VALUE"}},
		{"heuristic:bluff=", []string{"KEY=VALUE"}},
		{"heuristic:=0.5", []string{"KEY=VALUE"}},
		{"heuristic:bluff=0.1,", []string{"KEY=VALUE"}},
		{"heuristic:bluff=0.1,bluff=0.2", []string{"bluff", "twice"}},
		{"heuristic:bluff=0.1,BLUFF=0.1", []string{"bluff", "twice"}},
		{"random:speed=1", []string{`"speed"`, "bluff, challenge, forget, catch"}},
	} {
		s, err := strategy.Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tc.in, s)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%q): error %q does not mention %q", tc.in, err, w)
			}
		}
	}
}

func TestMustParse(t *testing.T) {
	if s := strategy.MustParse("heuristic:bluff=0.2"); s.String() != "heuristic:bluff=0.2" {
		t.Errorf("MustParse = %v", s)
	}
	for _, in := range []string{"smart", "heuristic:bluff=2", "random:speed=1"} {
		func() {
			defer func() {
				r := recover()
				err, ok := r.(error)
				if !ok {
					t.Errorf("MustParse(%q) panicked with %v, want an error", in, r)
					return
				}
				if _, want := strategy.Parse(in); want == nil || err.Error() != want.Error() {
					t.Errorf("MustParse(%q) panicked with %v, want Parse's error %v", in, err, want)
				}
			}()
			strategy.MustParse(in)
		}()
	}
}

// New makes a fresh, independent instance each call: changing one changes
// neither the specification nor the next instance.
func TestSpecNewIsFresh(t *testing.T) {
	s := strategy.MustParse("heuristic:bluff=0.3")
	a := s.New().(*strategy.Heuristic)
	b := s.New().(*strategy.Heuristic)
	if a == b {
		t.Fatal("New returned the same heuristic twice")
	}
	a.Bluff, a.Forget = 0.9, 1
	if b.Bluff != 0.3 || b.Forget != 0 {
		t.Errorf("changing one instance changed another: %+v", *b)
	}
	if c := s.New().(*strategy.Heuristic); c.Bluff != 0.3 || c.Forget != 0 {
		t.Errorf("changing an instance changed the specification: %+v", *c)
	}
	if s.String() != "heuristic:bluff=0.3" {
		t.Errorf("the specification became %v", s)
	}
	if _, ok := strategy.MustParse("random").New().(*strategy.Random); !ok {
		t.Error("random's New is not a *strategy.Random")
	}
}

// Available lists the built-in strategies first (random, heuristic,
// counter, in that order) and documents every parameter, whose documented
// default is the default Parse applies.
func TestAvailable(t *testing.T) {
	infos := strategy.Available()
	if len(infos) < 3 || infos[0].Name != "random" || infos[1].Name != "heuristic" || infos[2].Name != "counter" {
		t.Fatalf("Available() = %+v, want random, heuristic and counter first", infos)
	}
	want := map[string]string{
		"random":    "bluff, challenge, forget, catch",
		"heuristic": "bluff, challenge, threshold, forget, catch, jump, speed, bluff-rate, challenge-bias, bluff-bias",
		"counter":   "bluff, challenge, threshold, forget, catch, jump, speed, bluff-rate, challenge-bias, bluff-bias, trust, void, stuck",
	}
	for _, in := range infos[:3] {
		var names []string
		for _, p := range in.Params {
			names = append(names, p.Name)
			if p.Values() == "" || p.Doc == "" || p.Default == "" {
				t.Errorf("%s: parameter %s is not fully documented: %+v", in.Name, p.Name, p)
			}
			spec := fmt.Sprintf("%s:%s=%s", in.Name, p.Name, p.Default)
			if s, err := strategy.Parse(spec); err != nil || s.String() != in.Name {
				t.Errorf("Parse(%q) = %v, %v: the documented default is not the default", spec, s, err)
			}
		}
		if got := strings.Join(names, ", "); got != want[in.Name] {
			t.Errorf("%s parameters %s, want %s", in.Name, got, want[in.Name])
		}
	}
	for _, in := range infos {
		if in.Description == "" {
			t.Errorf("%s has no documentation", in.Name)
		}
	}
}

// The same (seed, game) with the same strategies plays the same game,
// whatever the table played before and whether the instances are new.
func TestReproducible(t *testing.T) {
	for _, tc := range []struct {
		rules engine.RuleSet
		specs []string
		sets  []string
	}{
		{engine.Classic, []string{"random", "heuristic", "heuristic:bluff=0.4,challenge=0.5,forget=0.3,catch=0.5", "random"}, nil},
		{engine.Classic, []string{"heuristic:jump=0.5,speed=2", "random", "heuristic"}, []string{"jump-in=any", "stack-draw-two=true", "seven-zero=true"}},
		{engine.Encanto, []string{"heuristic", "random", "heuristic:challenge=always"}, nil},
		{engine.Party, []string{"random", "heuristic", "random", "heuristic:bluff=1", "heuristic"}, nil},
	} {
		o := options(t, tc.rules, tc.sets...)
		g1 := table(t, o, tc.specs, nil)
		differ := false
		var first engine.Result
		for i := range uint64(300) {
			g1.Play(7, i+5000) // disturb g1's history
			r1 := *g1.Play(7, i)
			r2 := *table(t, o, tc.specs, nil).Play(7, i)
			if r1 != r2 {
				t.Fatalf("%s %v, game %d: %+v != %+v", tc.rules, tc.specs, i, r1, r2)
			}
			if i == 0 {
				first = r1
			} else if r1 != first {
				differ = true
			}
		}
		if !differ {
			t.Errorf("%s %v: every game gave the same result", tc.rules, tc.specs)
		}
	}
}
