package tune

import (
	"context"
	"strings"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// directCount plays deals [lo, hi) of seed with engine.Game, entry e in
// every seat in turn against f's opponents, and scores the focus seat from
// the engine's Result by the objective's definition (Place: Result.Places,
// a game without places counting as last; Points: Result.Scores, negated
// under losers-accumulate): an independent path to the Runner's sums.
func directCount(t *testing.T, f Field, e strategy.Spec, seed uint64, lo, hi int64) (score, wins int64, units Scores, perDeal []int64, unplaced int) {
	t.Helper()
	n := f.Players
	units.Per = int64(n)
	var games []*engine.Game
	for rot := range n {
		ss := make([]engine.Strategy, n)
		ss[rot] = e.New()
		for j, o := range f.Opponents {
			ss[(rot+1+j)%n] = o.New()
		}
		g, err := engine.NewGame(f.Options, ss)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	for d := lo; d < hi; d++ {
		u := int64(0)
		for rot, g := range games {
			r := g.Play(seed, uint64(d))
			if r.Won(rot) {
				wins++
			}
			var s int64
			switch f.Objective {
			case Place:
				s = -int64(n)
				if r.Places[0] < 0 {
					unplaced++
				}
				for k := 0; k < n; k++ {
					if int(r.Places[k]) == rot {
						s = -int64(k + 1)
					}
				}
			case Points:
				s = int64(r.Scores[rot])
				if f.Options.Scoring == engine.ScoreLosersAccumulate {
					s = -s
				}
			default:
				if r.Won(rot) {
					s = 1
				}
			}
			u += s
		}
		score += u
		units.Add(u)
		perDeal = append(perDeal, u)
	}
	return score, wins, units, perDeal, unplaced
}

// TestRunnerObjectivesAgainstEngine: under Place and both Points scorings
// the Runner's scores, per-deal units and paired differences equal a
// direct count over engine games, for a tuned entry and a mirror (whose
// shortcut plays each deal once), with 1 and 3 workers. max-turns is low
// enough that some games end without places or matches are cut short, so
// those rules are exercised too.
func TestRunnerObjectivesAgainstEngine(t *testing.T) {
	cases := []struct {
		name  string
		obj   Objective
		set   []string
		deals int64
	}{
		{"place", Place, []string{"play-for-places=true", "max-turns=60"}, 150},
		{"points winner-takes", Points, []string{"scoring=winner-takes", "target=150", "max-turns=80"}, 40},
		{"points losers-accumulate", Points, []string{"scoring=losers-accumulate", "target=150", "max-turns=80"}, 40},
	}
	for _, c := range cases {
		f := testField(3, "heuristic")
		for _, kv := range c.set {
			k, v, _ := strings.Cut(kv, "=")
			if err := f.Options.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		f.Objective = c.obj
		entries := []strategy.Spec{strategy.MustParse("heuristic"), strategy.MustParse("heuristic:threshold=0.9,bluff=0.4")}
		const seed, lo = 11, 1000
		var first *Outcome
		for _, workers := range []int{1, 3} {
			r, err := NewRunner(f, entries, seed, workers)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !r.mirror[0] || r.mirror[1] {
				t.Fatalf("%s: mirrors %v", c.name, r.mirror)
			}
			out, err := r.Play(context.Background(), lo, lo+c.deals, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = out
			} else if out.Score[0] != first.Score[0] || out.Score[1] != first.Score[1] || out.Units[1] != first.Units[1] || out.Diff[1] != first.Diff[1] || out.Total != first.Total {
				t.Errorf("%s: workers %d differ from workers 1", c.name, workers)
			}
		}
		var per [][]int64
		unplaced := 0
		for k, e := range entries {
			score, wins, units, perDeal, un := directCount(t, f, e, seed, lo, lo+c.deals)
			unplaced += un
			per = append(per, perDeal)
			if first.Score[k] != score || first.Wins[k] != wins || first.Units[k] != units {
				t.Errorf("%s, entry %s: runner score %d, wins %d, units %+v; direct count %d, %d, %+v", c.name, e, first.Score[k], first.Wins[k], first.Units[k], score, wins, units)
			}
		}
		var diff Paired
		for d := range per[0] {
			x := per[1][d] - per[0][d]
			diff.N, diff.Sum, diff.SumSq = diff.N+1, diff.Sum+x, diff.SumSq+x*x
		}
		if first.Diff[1] != diff {
			t.Errorf("%s: paired %+v, direct %+v", c.name, first.Diff[1], diff)
		}
		cmp := Compare(first, 1)
		if want := float64(diff.Sum) / float64(diff.N) / 3; cmp.Effect != want || cmp.Score != first.Mean(1) {
			t.Errorf("%s: effect %v, want %v", c.name, cmp.Effect, want)
		}
		// The mirror's seats share out each game's places: 1+2+3 per finished
		// game, 3×3 per game without places.
		if c.obj == Place {
			games := 3 * c.deals
			if unplaced == 0 || unplaced == int(2*games) {
				t.Errorf("place: %d of %d games without places: the case does not exercise the rule", unplaced, 2*games)
			}
			if s := -first.Score[0]; s < 6*c.deals || s > 9*c.deals {
				t.Errorf("place: the mirror's places sum to %d over %d deals", s, c.deals)
			}
		}
	}
}

// TestObjectiveBadInput: the objectives refuse options they cannot measure.
func TestObjectiveBadInput(t *testing.T) {
	if _, err := ParseObjective("elo"); err == nil || !strings.Contains(err.Error(), "valid: win, place, points") {
		t.Errorf("unknown objective: %v", err)
	}
	for _, name := range ObjectiveNames {
		if o, err := ParseObjective(name); err != nil || o.String() != name {
			t.Errorf("%s: %v, %v", name, o, err)
		}
	}
	f := testField(3, "heuristic")
	f.Objective = Place
	if _, err := NewRunner(f, []strategy.Spec{strategy.MustParse("random")}, 1, 1); err == nil || !strings.Contains(err.Error(), "play-for-places=true") {
		t.Errorf("place without play-for-places: %v", err)
	}
	f.Objective = Points
	if _, err := NewRunner(f, []strategy.Spec{strategy.MustParse("random")}, 1, 1); err == nil || !strings.Contains(err.Error(), "scoring=winner-takes") {
		t.Errorf("points with single games: %v", err)
	}
	f.Objective = 7
	if err := f.Validate(); err == nil {
		t.Error("objective 7: no error")
	}
}
