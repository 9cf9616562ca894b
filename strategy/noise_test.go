package strategy_test

import (
	"math"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// random's noise: each probability is a uniform coin at its decision and
// nothing else changes. Seats 0 and 2 play noisy random; 1 and 3 bluff at
// every chance, never challenge, forget every call and never catch, so that
// every decision the noise concerns comes up. Expected rates: challenge 0.4
// of the challenges offered, 0.2 of the UNO calls forgotten, 0.6 of the
// catches offered taken, 0.3 of illegal drawn Wild Draw Fours played (a
// chance random never meets: it draws only with nothing playable, which
// makes a drawn Wild Draw Four legal), and at a turn with an illegal Wild Draw Four playable the card is chosen with
// probability 0.3 n/N (n its instances, N every playable instance).
func TestRandomNoiseRates(t *testing.T) {
	specs := []string{"random:bluff=0.3,challenge=0.4,forget=0.2,catch=0.6", "heuristic:bluff=1,challenge=never,forget=1,catch=0",
		"random:bluff=0.3,challenge=0.4,forget=0.2,catch=0.6", "heuristic:bluff=1,challenge=never,forget=1,catch=0"}
	var challenge, forget, catch, turn poissonBinomial
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if seat%2 != 0 {
			return
		}
		m := moves[choice]
		switch v.Decision() {
		case engine.DecideRespond:
			if hasKind(moves, engine.MoveChallenge) {
				challenge.add(0.4, m.Kind() == engine.MoveChallenge)
			}
		case engine.DecideCallUNO:
			forget.add(0.2, m.Kind() == engine.MovePass)
		case engine.DecideCatch:
			catch.add(0.6, m.Kind() == engine.MoveCatch)
		case engine.DecideTurn:
			if v.WD4Legal() || !hasPlay(moves, wd4) {
				return
			}
			all, _ := v.Hand().Instances(v.Plays())
			turn.add(0.3*float64(v.Hand().Count(wd4))/float64(all), m.Kind() == engine.MovePlay && m.Card() == wd4)
		}
	}
	g := table(t, options(t, engine.Classic), specs, obs)
	c := counts(g, 600, 4000)
	for _, tc := range []struct {
		name string
		pb   *poissonBinomial
	}{{"challenge", &challenge}, {"forget", &forget}, {"catch", &catch}, {"bluff turn", &turn}} {
		if tc.pb.trials < 300 {
			t.Errorf("%s: only %d chances", tc.name, tc.pb.trials)
			continue
		}
		if z := tc.pb.z(); math.Abs(z) > zMax {
			t.Errorf("%s: %d of %d, expected %.1f: z = %.2f", tc.name, tc.pb.observed, tc.pb.trials, tc.pb.mean, z)
		}
	}
	if c[engine.CountUnoPenalty] == 0 || c[engine.CountChallengeWon] == 0 {
		t.Errorf("no UNO penalty (%d) or won challenge (%d): the noise paths were not exercised", c[engine.CountUnoPenalty], c[engine.CountChallengeWon])
	}
}

// random with every noise probability 0 plays the very game of the
// baseline: its coins are drawn only when they could come up.
func TestRandomZeroNoiseIsBaseline(t *testing.T) {
	for _, r := range []engine.RuleSet{engine.Classic, engine.Party} {
		o := options(t, r)
		a := table(t, o, same("random", 4), nil)
		b := table(t, o, same("random:bluff=0,challenge=0,forget=0,catch=0", 4), nil)
		for i := range uint64(300) {
			if ra, rb := *a.Play(5, i), *b.Play(5, i); ra != rb {
				t.Fatalf("%s game %d: %+v != %+v", r, i, ra, rb)
			}
		}
		if s := strategy.MustParse("random:bluff=0,challenge=0,forget=0,catch=0"); s.String() != "random" {
			t.Errorf("canonical %q, want random", s)
		}
	}
}

// Every built-in strategy plays every rule set, with house rules on, to the
// end of every game: no panic, no move out of range, and the table's
// invariants (every card in exactly one place) after every step.
func TestEveryStrategyEveryRuleSet(t *testing.T) {
	strategies := []string{
		"random", "random:bluff=0.5,challenge=0.5,forget=0.5,catch=0.5",
		"heuristic", "heuristic:bluff=sound,challenge=seen", "heuristic:bluff=0.5,challenge=always",
		"counter", "counter:bluff=sound,challenge=0.5,void=50,trust=1",
	}
	rules := []struct {
		rules engine.RuleSet
		sets  []string
	}{
		{engine.Classic, nil},
		{engine.Classic, []string{"wd4-legal=no-playable", "guilty-takes-back=true", "forced-play=true", "must-play-drawn=true", "no-finish-on-action=true"}},
		{engine.Classic, []string{"seven-zero=true", "jump-in=any", "stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "draw=until-playable"}},
		{engine.Classic, []string{"deflect-draw-two=true", "deflect-draw-four=true", "deflect-skip=true", "jump-in=numbers"}},
		{engine.Classic, []string{"play-for-places=true"}},
		{engine.Classic, []string{"scoring=winner-takes", "target=200"}},
		{engine.Encanto, nil},
		{engine.Party, nil},
	}
	for _, spec := range strategies {
		for ri, rc := range rules {
			o := options(t, rc.rules)
			for _, s := range rc.sets {
				name, value, _ := cut(s)
				if err := o.Set(name, value); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			for _, n := range []int{2, 5} {
				g, _ := countingTable(t, o, []string{spec, "random:bluff=0.3,challenge=0.3,forget=0.3,catch=0.3", spec, "heuristic", spec}[:n], nil)
				for i := range uint64(20) {
					g.Reset(11, i)
					for {
						g.StartRound()
						for !g.RoundOver() {
							g.Step()
							if err := g.Check(); err != nil {
								t.Fatalf("%s, rules %d (%s %v), %dp, game %d: %v", spec, ri, rc.rules, rc.sets, n, i, err)
							}
						}
						if !g.EndRound() {
							break
						}
					}
					if err := g.Err(); err != nil {
						t.Fatalf("%s, rules %d, %dp, game %d: %v", spec, ri, n, i, err)
					}
				}
			}
		}
	}
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
