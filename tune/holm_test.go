package tune

import (
	"fmt"
	"math"
	"testing"
)

// scores are the per-deal wins ws of Per games each.
func scores(per int64, ws ...int64) Scores {
	s := Scores{Per: per}
	for _, w := range ws {
		s.Add(w)
	}
	return s
}

// The alone-against-a-table tests of a tournament are one family: Alone
// adjusts them by Holm's method, leaves out a test that cannot reject
// (fewer than 2 deals), and with 2 players counts a pair once when every
// game had a winner (the reverse rate is then 1 minus the other, t' = -t:
// the same test).
//
// The p-values are those of the t test with 2 degrees of freedom (3
// deals), whose two-sided p is 1 - |t|/√(2 + t²) (Python, math):
//
//	d = W - 1 = (2, 1, 1): t = 4, p = 0.05719095841793653
//	d = (-1, 0, -1) or (1, 0, 1) or (1, 1, 0): |t| = 2, p = 0.18350341907227385
//	d = (2, 2, 1): t = 5, p = 0.037749551350623745
//	all d equal: p = 0 (d ≠ 0) or 1 (d = 0), the t test's limits.
//
// 3 players, family of 5 (the 1-deal match left out): Holm gives 0,
// 4·0.0377… = 0.15099820540249498, 3·0.0571… = 0.1715728752538096,
// 2·0.1835… = 0.3670068381445477 and 1. 2 players, family of 4 (two
// mirrors merged): 0, 3·0.1835… = 0.5505102572168216 (and the cumulative
// maximum for the second 0.1835…), 1.
func TestAloneHolmFamily(t *testing.T) {
	const p2, p4, p5 = 0.18350341907227385, 0.05719095841793653, 0.037749551350623745
	three := []Match{
		{Alone: 0, Table: 1, Wins: scores(3, 3, 2, 2)},
		{Alone: 1, Table: 0, Wins: scores(3, 0, 1, 0)},
		{Alone: 0, Table: 2, Wins: scores(3, 3, 3, 2)},
		{Alone: 2, Table: 0, Wins: scores(3, 1, 1, 1)},
		{Alone: 1, Table: 2, Wins: scores(3, 2, 2, 2)},
		{Alone: 2, Table: 1, Wins: scores(3, 3)},
	}
	two := []Match{
		{Alone: 0, Table: 1, Wins: scores(2, 2, 1, 2), Lost: scores(2, 0, 1, 0)}, // every game won: a mirror
		{Alone: 0, Table: 2, Wins: scores(2, 2, 2, 1), Lost: scores(2, 0, 0, 0)}, // one game without a winner
		{Alone: 1, Table: 2, Wins: scores(2, 1, 1, 1), Lost: scores(2, 1, 1, 1)}, // a mirror
	}
	nan := math.NaN()
	for _, c := range []struct {
		players int
		ms      []Match
		p, holm []float64
	}{
		{3, three, []float64{p4, p2, p5, 1, 0, nan}, []float64{0.1715728752538096, 0.3670068381445477, 0.15099820540249498, 1, 0, nan}},
		{2, two, []float64{p2, p2, p2, 0, 1, 1}, []float64{0.5505102572168216, 0.5505102572168216, 0.5505102572168216, 0, 1, 1}},
	} {
		rates := Alone(c.players, c.ms)
		if len(rates) != len(c.p) {
			t.Fatalf("%d players: %d rates, want %d", c.players, len(rates), len(c.p))
		}
		for i, r := range rates {
			name := fmt.Sprintf("%d players, %d alone against %d", c.players, r.Alone, r.Table)
			if !near(r.P, c.p[i]) || !near(r.PHolm, c.holm[i]) {
				t.Errorf("%s: p %v, p_holm %v; want %v and %v", name, r.P, r.PHolm, c.p[i], c.holm[i])
			}
		}
	}
}

// near compares p-values to 1e-10 (relative), NaN with NaN.
func near(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= 1e-10*math.Max(want, 1e-300)
}
