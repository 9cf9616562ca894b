package paired

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// record is a sink that writes down every deal's turns and winners.
type record struct {
	turns map[[3]int64]int
	wins  map[[3]int64]uint32
}

func newRecord() *record { return &record{turns: map[[3]int64]int{}, wins: map[[3]int64]uint32{}} }

func (r *record) Deal(i int64, res [][]*engine.Result) {
	for k, rs := range res {
		for c, g := range rs {
			r.turns[[3]int64{i, int64(k), int64(c)}] = g.Turns
			r.wins[[3]int64{i, int64(k), int64(c)}] = g.Winners
		}
	}
}

func configs(t *testing.T) [][]sim.Config {
	t.Helper()
	mk := func(players int, seats sim.Seats, s ...string) sim.Config {
		var lu []strategy.Spec
		for _, x := range s {
			lu = append(lu, strategy.MustParse(x))
		}
		c := sim.Config{Options: engine.DefaultOptions(engine.Classic), Players: players, LineUp: lu, Seats: seats, Games: 1, Seed: 7, Workers: 1}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	return [][]sim.Config{
		{mk(3, sim.FixedSeats, "heuristic", "random", "random"), mk(3, sim.FixedSeats, "random", "heuristic", "random")},
		{mk(3, sim.RotateSeats, "random", "heuristic", "random")},
	}
}

// TestRunnerPlaysEveryDealOnce: every deal of the range, in every
// configuration, exactly as a table of its own plays it (the slow obvious
// twin), for one and three workers.
func TestRunnerPlaysEveryDealOnce(t *testing.T) {
	cf := configs(t)
	want := newRecord()
	for k := range cf {
		for c := range cf[k] {
			tab, err := sim.NewTable(&cf[k][c])
			if err != nil {
				t.Fatal(err)
			}
			for i := int64(10); i < 150; i++ {
				g := tab.Play(i)
				want.turns[[3]int64{i, int64(k), int64(c)}] = g.Turns
				want.wins[[3]int64{i, int64(k), int64(c)}] = g.Winners
			}
		}
	}
	for _, workers := range []int{1, 3} {
		r, err := New(cf, workers, 16)
		if err != nil {
			t.Fatal(err)
		}
		sinks := make([]Sink, workers)
		recs := make([]*record, workers)
		for w := range sinks {
			recs[w] = newRecord()
			sinks[w] = recs[w]
		}
		var done atomic.Int64
		x, err := r.Play(context.Background(), 10, 150, Options{Sinks: sinks, Done: &done})
		r.Close()
		if err != nil || x != 150 {
			t.Fatalf("workers %d: played to %d, %v", workers, x, err)
		}
		if done.Load() != 140*3 {
			t.Errorf("workers %d: %d games counted, want %d", workers, done.Load(), 140*3)
		}
		got := newRecord()
		for _, rc := range recs {
			for key, v := range rc.turns {
				if _, dup := got.turns[key]; dup {
					t.Fatalf("workers %d: deal %v given twice", workers, key)
				}
				got.turns[key], got.wins[key] = v, rc.wins[key]
			}
		}
		if len(got.turns) != len(want.turns) {
			t.Fatalf("workers %d: %d games, want %d", workers, len(got.turns), len(want.turns))
		}
		for key, v := range want.turns {
			if got.turns[key] != v || got.wins[key] != want.wins[key] {
				t.Errorf("workers %d: game %v: %d turns winners %b, want %d, %b", workers, key, got.turns[key], got.wins[key], v, want.wins[key])
			}
		}
	}
}

// TestRunnerActiveAndPause: an inactive entry gets nil and plays nothing; a
// pause stops at a chunk's end with a prefix played.
func TestRunnerActiveAndPause(t *testing.T) {
	r, err := New(configs(t), 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec := &pauser{}
	rec.pause.Store(false)
	x, err := r.Play(context.Background(), 0, 100, Options{Sinks: []Sink{rec}, Active: []bool{false, true}, Pause: &rec.pause})
	if err != nil {
		t.Fatal(err)
	}
	if x != 8 || rec.deals != 8 || rec.nilFirst != 8 {
		t.Errorf("played to %d, %d deals, %d with entry 0 nil; want a pause after one chunk of 8", x, rec.deals, rec.nilFirst)
	}
	if _, err := r.Play(context.Background(), 0, 10, Options{}); err == nil {
		t.Error("no sinks accepted")
	}
	if _, err := New(nil, 1, 8); err == nil {
		t.Error("no entries accepted")
	}
}

type pauser struct {
	pause           atomic.Bool
	deals, nilFirst int
}

func (p *pauser) Deal(i int64, res [][]*engine.Result) {
	p.deals++
	if res[0] == nil {
		p.nilFirst++
	}
	if len(res[1]) != 1 || res[1][0] == nil {
		panic("entry 1 missing")
	}
	p.pause.Store(true)
}
