package experiments

import (
	"math"
	"strings"
	"testing"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// agrees reports whether a one-sample test and its interval agree: the
// interval excludes 0 exactly when p < alpha.
func agrees(t *Test) bool {
	return (t.P < alpha) == (t.EffectLo > 0 || t.EffectHi < 0)
}

// The one-sample score test and its Wilson interval agree to the last bit
// (the test decides, dualToScore), also for a p0 on the boundary: a
// file's against: may be a Wilson limit.
//
// The cases are from a search of x of n against the floats next to the
// Wilson limits of x/n (n from 10). Python (math only), p =
// math.erfc(abs(z)/math.sqrt(2)), z = (x/n - p0)/math.sqrt(p0*(1-p0)/n):
//
//	3 of 10 against 0.10779126740630103 (the Wilson lower limit of 3/10;
//	  Newcombe 1998, Table I: 0.1078): z = 1.9599639845400543, p = 0.05.
//	  Before: p = 0.050000000000000044 (not rejected), lower limit
//	  1.4e-17 above p0 (excludes it).
//	1 of 11 against 0.016232172885884827: z = 1.9599639845400558,
//	  p = 0.04999999999999982. Before: rejected, lower limit exactly p0
//	  (the closed interval holds it).
//	3 of 10 against 0.6032218525388546 (the upper limit): p =
//	  0.05000000000000008.
//
// Against the fair share 1/k (k = 2 to 16) or 0.01, 0.05, 0.3, 0.4, 0.6,
// 0.7, 0.9, a search of every n up to 10^7 (the two x on either side of
// each boundary) found 630 (x, n) with |z| within 1e-9 of the critical
// value 1.959963984540054, and no disagreement even before: only a p0
// picked near a limit reaches one. The last loop repeats that search for
// the fair shares up to n = 20,000.
func TestOneSampleDualAtTheBoundary(t *testing.T) {
	for _, c := range []struct {
		x, n int64
		p0   float64
		p    float64 // Python, to 1e-15
	}{
		{3, 10, 0.10779126740630103, 0.05},
		{1, 11, 0.016232172885884827, 0.04999999999999982},
		{3, 10, 0.6032218525388546, 0.05000000000000008},
	} {
		r := oneSampleTest(c.x, c.n, c.p0)
		if math.Abs(r.P-c.p) > 1e-15 {
			t.Errorf("%d of %d against %v: p %.17g, want %.17g", c.x, c.n, c.p0, r.P, c.p)
		}
		if !agrees(&r) {
			t.Errorf("%d of %d against %v: p %.17g, interval [%g, %g] (the effect's): the test and the interval disagree", c.x, c.n, c.p0, r.P, r.EffectLo, r.EffectHi)
		}
	}
	// Every float next to a Wilson limit, n from 10 to 120.
	bad := 0
	for n := int64(10); n <= 120; n++ {
		for x := int64(1); x < n; x++ {
			lo, hi := analysis.Wilson(x, n, sim.Confidence)
			for _, b := range []float64{lo, hi} {
				for _, p0 := range []float64{math.Nextafter(b, 0), b, math.Nextafter(b, 1)} {
					if r := oneSampleTest(x, n, p0); !agrees(&r) {
						if bad++; bad <= 5 {
							t.Errorf("%d of %d against %.17g: p %.17g, interval [%g, %g]: disagree", x, n, p0, r.P, r.EffectLo, r.EffectHi)
						}
					}
				}
			}
		}
	}
	// The fair shares, every n to 20,000, the x next to either boundary
	// n·p0 ± z·√(n·p0·(1−p0)).
	const z = 1.959963984540054
	for k := 2; k <= 16; k++ {
		p0 := 1 / float64(k)
		for n := int64(1); n <= 20000; n++ {
			sd := math.Sqrt(float64(n) * p0 * (1 - p0))
			for _, b := range []float64{float64(n)*p0 - z*sd, float64(n)*p0 + z*sd} {
				for x := int64(math.Floor(b)) - 1; x <= int64(math.Floor(b))+2; x++ {
					if x < 0 || x > n {
						continue
					}
					if r := oneSampleTest(x, n, p0); !agrees(&r) {
						if bad++; bad <= 5 {
							t.Errorf("%d of %d against 1/%d: p %.17g, interval [%g, %g]: disagree", x, n, k, r.P, r.EffectLo, r.EffectHi)
						}
					}
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d disagreements in all", bad)
	}
}

// The first-player table gives the advantage over the fair share with the
// interval and p_holm of the one-sample test against the fair share, not
// of a test of the same metric against another value.
//
// Expected values (Python, math only; p as above): 2 players, 1,000 games,
// the first player won 560: against 1/2 p = 0.00014780231033445227,
// against 0.3 p = 5.571942744305116e-72; 3 players, 1,200 games, 420:
// against 1/3 p = 0.22067136191984693, against 0.3 p =
// 0.00015705228423075205. Holm over the 4: 4·5.57e-72, 3·0.000147802 =
// 0.00044341 (the cumulative maximum also for 2·0.000157052), 0.2207. The
// Wilson interval of 560/1000 minus 1/2: [+2.91, +9.05] pp (the seat
// table's test above).
func TestFirstPlayerTableAgainstFairShare(t *testing.T) {
	e := mustParse(t, `name: first
games: 100
grids:
  - players: [2, 3]
compare:
  - metric: first-player
    against: 0.3
  - metric: first-player
    against: fair
`)
	r := emptyResult(e)
	for i := range r.Cells {
		st := sim.NewStats(&e.Cells[i].Config)
		switch e.Cells[i].Config.Players {
		case 2:
			st.Games, st.Finished, st.FirstToActWins = 1000, 1000, 560
		case 3:
			st.Games, st.Finished, st.FirstToActWins = 1200, 1200, 420
		}
		r.Cells[i].Stats = st
	}
	s := r.Findings(r.Tests())
	for _, want := range []string{"| +6.00 pp [+2.91, +9.05] | 0.0004 |", "| +1.67 pp [-0.98, +4.41] | 0.2207 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first-player table lacks %q:\n%s", want, s)
		}
	}
}
