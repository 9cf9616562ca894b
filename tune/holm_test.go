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
// adjusts them by Holm's method, leaves out a test that cannot be made
// (fewer than 2 deals, or no variance: every deal gave the same result),
// and with 2 players counts a pair once when every game had a winner (the
// reverse rate is then 1 minus the other, t' = -t: the same test).
//
// The p-values are those of the t test with 2 degrees of freedom (3
// deals), whose two-sided p is 1 - |t|/√(2 + t²) (Python, math):
//
//	d = W - 1 = (2, 1, 1): t = 4, p = 0.05719095841793653
//	d = (-1, 0, -1) or (1, 0, 1) or (1, 1, 0): |t| = 2, p = 0.18350341907227385
//	d = (2, 2, 1): t = 5, p = 0.037749551350623745
//	all d equal: no test (R's t.test gives p = NA for d = 0 and stops,
//	"data are essentially constant", otherwise).
//
// 3 players, family of 3 (the 1-deal match and the two constant ones left
// out), R p.adjust(c(p4, p2, p5), "holm"): 0.11438191683587307,
// 0.18350341907227385, 0.11324865405187123. 2 players, family of 2 (a
// mirror merged, three constant rates left out), p.adjust(c(p2, p2),
// "holm"): 0.36700683814454771 for both.
func TestAloneHolmFamily(t *testing.T) {
	const p2, p4, p5 = 0.18350341907227385, 0.05719095841793653, 0.037749551350623745
	three := []Match{
		{Alone: 0, Table: 1, Wins: scores(3, 3, 2, 2)},
		{Alone: 1, Table: 0, Wins: scores(3, 0, 1, 0)},
		{Alone: 0, Table: 2, Wins: scores(3, 3, 3, 2)},
		{Alone: 2, Table: 0, Wins: scores(3, 1, 1, 1)}, // d = 0 every deal
		{Alone: 1, Table: 2, Wins: scores(3, 2, 2, 2)}, // d = 1 every deal
		{Alone: 2, Table: 1, Wins: scores(3, 3)},       // 1 deal
	}
	two := []Match{
		{Alone: 0, Table: 1, Wins: scores(2, 2, 1, 2), Lost: scores(2, 0, 1, 0)}, // every game won: a mirror
		{Alone: 0, Table: 2, Wins: scores(2, 2, 2, 1), Lost: scores(2, 0, 0, 0)}, // one game without a winner; the table won none
		{Alone: 1, Table: 2, Wins: scores(2, 1, 1, 1), Lost: scores(2, 1, 1, 1)}, // a mirror, 1 of 2 every deal
	}
	nan := math.NaN()
	const few, same = "fewer than 2 deals", "every deal gave the same result: with no variance the t test is undefined"
	for _, c := range []struct {
		players int
		ms      []Match
		p, holm []float64
		why     []string
	}{
		{3, three, []float64{p4, p2, p5, nan, nan, nan}, []float64{0.11438191683587307, 0.18350341907227385, 0.11324865405187123, nan, nan, nan},
			[]string{"", "", "", same, same, few}},
		{2, two, []float64{p2, p2, p2, nan, nan, nan}, []float64{0.36700683814454771, 0.36700683814454771, 0.36700683814454771, nan, nan, nan},
			[]string{"", "", "", same, same, same}},
	} {
		rates := Alone(c.players, c.ms)
		if len(rates) != len(c.p) {
			t.Fatalf("%d players: %d rates, want %d", c.players, len(rates), len(c.p))
		}
		for i, r := range rates {
			name := fmt.Sprintf("%d players, %d alone against %d", c.players, r.Alone, r.Table)
			if !near(r.P, c.p[i]) || !near(r.PHolm, c.holm[i]) || r.NotTestable != c.why[i] {
				t.Errorf("%s: p %v, p_holm %v, not testable %q; want %v, %v and %q", name, r.P, r.PHolm, r.NotTestable, c.p[i], c.holm[i], c.why[i])
			}
		}
	}
}

// Two strategies that play identically: every deal gives the alone one
// its fair share exactly, 50.00% [50.00%, 50.00%]; that is no test (it
// used to be printed as p = 1 and counted in Holm's family).
func TestAloneIdentical(t *testing.T) {
	for _, players := range []int{2, 4} {
		per := int64(players)
		m := Match{Alone: 0, Table: 1, Wins: scores(per, 1, 1, 1, 1, 1), Lost: scores(per, per-1, per-1, per-1, per-1, per-1)}
		for _, r := range Alone(players, []Match{m}) {
			if r.NotTestable == "" || !math.IsNaN(r.P) || !math.IsNaN(r.PHolm) || r.CI[0] != r.CI[1] {
				t.Errorf("%d players, %d against %d: %+v, want not testable", players, r.Alone, r.Table, r)
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
