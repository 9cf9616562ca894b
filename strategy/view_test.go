package strategy_test

import (
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// blind wraps a strategy and checks at each decision that it sees only its
// seat's view: before the strategy answers, a copy of it answers the same
// decision on a copy of the position whose hidden cards (the other hands,
// the draw pile) and hidden streams are resampled (View.Determinize); the
// two answers must be the same.
type blind struct {
	observed
	t       *testing.T
	dst     engine.State
	rng     engine.Rand
	buf     []engine.Move
	checked int
}

// clone is an independent copy of a built-in strategy, its memory included.
func clone(t *testing.T, s engine.Strategy) engine.Strategy {
	switch x := s.(type) {
	case *strategy.Counter:
		c := *x
		return &c
	case *strategy.Heuristic:
		h := *x
		return &h
	case *strategy.Random:
		r := *x
		return &r
	}
	t.Fatalf("no clone for %T", s)
	return nil
}

func (b *blind) Decide(v *engine.View, moves []engine.Move) int {
	v.Determinize(&b.dst, &b.rng, nil)
	b.buf = b.dst.Moves(b.buf[:0])
	if len(b.buf) != len(moves) {
		b.t.Fatalf("game %d, seat %d, %s: %d moves in the resampled position, %d in the game", v.Game(), v.Seat(), v.Decision(), len(b.buf), len(moves))
	}
	for i := range moves {
		if b.buf[i] != moves[i] {
			b.t.Fatalf("game %d, seat %d: move %d is %s in the resampled position, %s in the game", v.Game(), v.Seat(), i, b.buf[i], moves[i])
		}
	}
	vd := b.dst.View(v.Seat())
	want := clone(b.t, b.s).Decide(&vd, b.buf)
	got := b.observed.Decide(v, moves)
	if got != want {
		b.t.Fatalf("game %d, turn %d, seat %d, %s: %s in the game but %s with the hidden cards resampled: the strategy reads what its seat cannot see",
			v.Game(), v.Turns(), v.Seat(), v.Decision(), moves[got], moves[want])
	}
	b.checked++
	return got
}

// No built-in strategy reads what its seat cannot see: its every decision,
// in games of every rule set, is the same when everything hidden from its
// seat is resampled.
func TestStrategiesSeeOnlyTheirView(t *testing.T) {
	specs := []string{"random", "random:bluff=0.5,challenge=0.5,forget=0.5,catch=0.5", "heuristic", "heuristic:bluff=sound,challenge=seen",
		"heuristic:bluff=0.5", "counter", "counter:bluff=sound,bluff-rate=0.5", "counter:challenge=always"}
	for _, tc := range []struct {
		rules engine.RuleSet
		sets  []string
		seats []int // indices into specs
	}{
		{engine.Classic, nil, []int{0, 2, 5, 6}},
		{engine.Classic, []string{"seven-zero=true", "stack-draw-two=true", "jump-in=any", "guilty-takes-back=true"}, []int{1, 3, 5, 7, 4}},
		{engine.Party, nil, []int{5, 1, 2, 6, 4, 0}},
		{engine.Encanto, nil, []int{7, 3, 5}},
	} {
		ss := make([]engine.Strategy, len(tc.seats))
		bs := make([]*blind, len(tc.seats))
		for i, x := range tc.seats {
			bs[i] = &blind{observed: observed{watched{s: strategy.MustParse(specs[x]).New()}}, t: t}
			bs[i].rng.Seed(1, uint64(i), engine.PurposeSeat)
			ss[i] = bs[i]
		}
		g, err := engine.NewGame(options(t, tc.rules, tc.sets...), ss)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(40) {
			g.Play(21, i)
		}
		for i, b := range bs {
			if b.checked < 100 {
				t.Errorf("%s, seat %d (%s): only %d decisions checked", tc.rules, i, specs[tc.seats[i]], b.checked)
			}
		}
	}
}
