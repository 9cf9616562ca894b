package engine

import (
	"slices"
	"testing"
)

func TestScenarioDealAndFirstTurn(t *testing.T) {
	tb := newTable(t, Classic, 3, "hand-size=2")
	tb.deal([]string{"r1 r2", "b1 b3", "g1 g2"}, "r5", "y7 y8")
	g := tb.g
	if g.Dealer() != 2 || g.Current() != 0 || g.Top() != card(t, "r5") || g.Color() != Red {
		t.Fatalf("dealer %d current %d top %s color %s", g.Dealer(), g.Current(), g.Top(), g.Color())
	}
	tb.expect(want{0, DecideTurn, play(t, "r2")})
	tb.step()
	if g.Current() != 1 || g.Top() != card(t, "r2") || !slices.Equal(tb.sizes(), []int{1, 2, 2}) || !g.CalledUNO(0) {
		t.Fatalf("after play: current %d top %s sizes %v called %v", g.Current(), g.Top(), tb.sizes(), g.CalledUNO(0))
	}
	// Seat 1 has no red and no 2: it must draw, gets y7 (unplayable), turn ends.
	tb.step()
	if got := tb.offered(1, DecideTurn); got != nil {
		t.Fatalf("seat 1 was asked with only a draw possible: %v", got)
	}
	if g.Current() != 2 || !slices.Equal(tb.sizes(), []int{1, 3, 2}) || !slices.Contains(tb.handOf(1), card(t, "y7")) {
		t.Fatalf("after draw: current %d sizes %v", g.Current(), tb.sizes())
	}
	tb.done()
}

// A match that cannot reach its target (every card scores 0) ends
// unfinished after MaxRounds rounds instead of running forever.
func TestMatchWithoutPointsEnds(t *testing.T) {
	for _, scoring := range []string{"winner-takes", "losers-accumulate"} {
		tb := newTable(t, Classic, 2, "deck=0=25", "scoring="+scoring)
		r := tb.g.Play(1, 0)
		if r.Outcome != Unfinished || r.Rounds != MaxRounds || r.Winners != 0 {
			t.Fatalf("%s: outcome %s after %d rounds, winners %b", scoring, r.Outcome, r.Rounds, r.Winners)
		}
	}
}
