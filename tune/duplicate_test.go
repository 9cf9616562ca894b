package tune

import (
	"context"
	"math"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

func testField(players int, opp string) Field {
	f := Field{Options: engine.DefaultOptions(engine.Classic), Players: players}
	for range players - 1 {
		f.Opponents = append(f.Opponents, strategy.MustParse(opp))
	}
	return f
}

// TestRunnerAgainstSimulate: the focus wins of each entry equal, rotation
// by rotation, the seat wins of sim.Simulate playing the same deals with
// the rotated line-up in fixed seats: an independent path through the
// simulator. The mirror entry (heuristic against heuristic) plays each
// deal once; its total is checked the same way.
func TestRunnerAgainstSimulate(t *testing.T) {
	const players, deals, seed = 3, 300, 5
	f := testField(players, "heuristic")
	entries := []strategy.Spec{strategy.MustParse("heuristic:threshold=0.9"), strategy.MustParse("random"), strategy.MustParse("heuristic")}
	r, err := NewRunner(f, entries, seed, 2)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Play(context.Background(), deals, 2*deals, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !r.mirror[2] || r.mirror[0] || r.mirror[1] {
		t.Fatalf("mirrors %v", r.mirror)
	}
	for k, e := range entries {
		want, lost := int64(0), int64(0)
		for rot := range players {
			lineUp := make([]strategy.Spec, players)
			lineUp[rot] = e
			for j, o := range f.Opponents {
				lineUp[(rot+1+j)%players] = o
			}
			// Deals 300..599 are the games of shard 1/2 of a run of 600.
			cfg := &sim.Config{Options: f.Options, Players: players, LineUp: lineUp, Games: 2 * deals, Seed: seed, Shard: sim.Shard{Index: 1, Count: 2}}
			run, err := sim.Simulate(context.Background(), cfg, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			want += run.Stats.WinsBySeat[rot]
			// Games another seat won: classic single games have no shared
			// wins, so finished games with a winner less the focus's wins.
			lost += run.Stats.Finished - run.Stats.NoWinner - run.Stats.WinsBySeat[rot]
		}
		if out.Wins[k] != want || out.Lost[k] != lost {
			t.Errorf("entry %s: %d wins, %d lost; simulate %d, %d", e, out.Wins[k], out.Lost[k], want, lost)
		}
		// The per-deal sums are the entry's own (under Win, scores are wins).
		if out.Units[k].Sum != want || out.LostUnits[k].Sum != lost || out.Units[k].N != deals || out.LostUnits[k].N != deals {
			t.Errorf("entry %s: per-deal sums %+v, lost %+v; simulate %d wins, %d lost over %d deals", e, out.Units[k], out.LostUnits[k], want, lost, deals)
		}
	}
	if out.Deals != deals || out.Games != deals*players || out.Units[0].N != deals || out.Total.N != deals {
		t.Errorf("counts: %d deals, %d games, %d units, %d totals", out.Deals, out.Games, out.Units[0].N, out.Total.N)
	}
	if out.Diff[1].Sum != out.Wins[1]-out.Wins[0] || out.Diff[0] != (Paired{N: deals}) {
		t.Errorf("paired sums %+v for wins %v", out.Diff, out.Wins)
	}
}

// TestRunnerSeatsOfDistinctOpponents: with opponents that differ, the
// focus in seat r has Opponents[j] in seat (r+1+j) mod 3, the line-ups
// written out here by hand; each rotation's focus wins equal sim.Simulate's
// seat wins of that line-up in fixed seats, on the same deals.
func TestRunnerSeatsOfDistinctOpponents(t *testing.T) {
	const deals, seed = 200, 8
	e, o0, o1 := strategy.MustParse("heuristic"), strategy.MustParse("random"), strategy.MustParse("counter")
	f := Field{Options: engine.DefaultOptions(engine.Classic), Players: 3, Opponents: []strategy.Spec{o0, o1}}
	lineUps := [3][]strategy.Spec{{e, o0, o1}, {o1, e, o0}, {o0, o1, e}}
	want := int64(0)
	for rot, lu := range lineUps {
		cfg := &sim.Config{Options: f.Options, Players: 3, LineUp: lu, Seats: sim.FixedSeats, Games: deals, Seed: seed}
		run, err := sim.Simulate(context.Background(), cfg, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		want += run.Stats.WinsBySeat[rot]
	}
	r, err := NewRunner(f, []strategy.Spec{e}, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out, err := r.Play(context.Background(), 0, deals, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if out.Wins[0] != want {
		t.Errorf("focus wins %d, simulate of the line-ups %d", out.Wins[0], want)
	}
}

// TestRunnerWorkers: the outcome is the same for any worker count.
func TestRunnerWorkers(t *testing.T) {
	f := testField(2, "heuristic")
	entries := []strategy.Spec{strategy.MustParse("heuristic:bluff=0.5"), strategy.MustParse("random")}
	var first *Outcome
	for _, w := range []int{1, 3} {
		r, err := NewRunner(f, entries, 9, w)
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Play(context.Background(), 0, 500, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = out
			continue
		}
		if out.Wins[0] != first.Wins[0] || out.Wins[1] != first.Wins[1] || out.Units[0] != first.Units[0] || out.Diff[1] != first.Diff[1] || out.Total != first.Total {
			t.Errorf("workers %d: %+v, workers 1: %+v", w, out, first)
		}
	}
}

// TestRunnerNoAllocs: playing deals allocates nothing per game (a fixed
// amount per call: the workers' goroutines and the result).
func TestRunnerNoAllocs(t *testing.T) {
	f := testField(4, "heuristic")
	r, err := NewRunner(f, []strategy.Spec{strategy.MustParse("heuristic:threshold=0.5")}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	lo := int64(0)
	measure := func(deals int64) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := r.Play(context.Background(), lo, lo+deals, nil, 0); err != nil {
				t.Fatal(err)
			}
			lo += deals
		})
	}
	small, large := measure(64), measure(640)
	if large > small {
		t.Errorf("allocations grow with the games: %v for 64 deals, %v for 640", small, large)
	}
}

func TestRunnerBadInput(t *testing.T) {
	f := testField(3, "heuristic")
	if _, err := NewRunner(f, nil, 1, 1); err == nil {
		t.Error("no entries: no error")
	}
	f.Opponents = f.Opponents[:1]
	if _, err := NewRunner(f, []strategy.Spec{strategy.MustParse("random")}, 1, 1); err == nil {
		t.Error("too few opponents: no error")
	}
}

func TestWithParams(t *testing.T) {
	s, err := WithParams("heuristic:threshold=0.2,bluff=0.1", []string{"threshold"}, []float64{0.35})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "heuristic:bluff=0.1,threshold=0.35"; got != want {
		t.Errorf("spec %q, want %q", got, want)
	}
	if _, err := WithParams("heuristic", []string{"nosuch"}, []float64{1}); err == nil {
		t.Error("unknown parameter: no error")
	}
}

// TestConfirmSame: a strategy confirmed against itself has effect 0
// exactly and the point interval [0, 0]: every deal gave the same
// difference, so there is no test (not p = 1); against random the
// heuristic's effect is positive and significant.
func TestConfirmSame(t *testing.T) {
	f := testField(2, "heuristic")
	h := strategy.MustParse("heuristic:bluff=0.2")
	c, err := Confirm(context.Background(), f, h, h, 200, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Effect != 0 || c.CI != [2]float64{0, 0} || c.P != nil || c.NotTestable != NotTestableSame || c.Games != 400 {
		t.Errorf("same strategy: %+v", c)
	}
	c, err = Confirm(context.Background(), f, strategy.MustParse("random"), h, 200, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(c.Effect > 0 && c.CI[0] > 0 && c.Significant() && c.NotTestable == "" && math.Abs(c.WinRate-c.BaselineWinRate-c.Effect) < 1e-12) {
		t.Errorf("heuristic against random: %+v", c)
	}
}
