package analysis

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestWilsonStatsmodels(t *testing.T) {
	// Expected values: statsmodels 0.13.5,
	//   proportion_confint(x, n, alpha=1-confidence, method='wilson')
	// printed with '%.15g'. The first row is also R 4.2.2
	//   prop.test(81, 263, correct=FALSE)$conf.int.
	cases := []struct {
		x, n   int64
		conf   float64
		lo, hi float64
	}{
		{81, 263, 0.95, 0.255288519878274, 0.3662095769828},
		{0, 10, 0.95, 0, 0.277532799862889},
		{10, 10, 0.95, 0.722467200137111, 1},
		{1, 1, 0.95, 0.206549314377237, 1},
		{5, 20, 0.99, 0.087363908401074, 0.537188792148303},
		{5, 20, 0.90, 0.127377168520358, 0.432201750160125},
		{999999, 1000000, 0.95, 0.999994335088196, 0.999999823475423},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.x, c.n, c.conf)
		what := fmt.Sprintf("Wilson(%d, %d, %g)", c.x, c.n, c.conf)
		checkNear(t, what+" lo", lo, c.lo, 1e-12)
		checkNear(t, what+" hi", hi, c.hi, 1e-12)
	}
}

func TestWilsonPublishedRounded(t *testing.T) {
	// [0.2553, 0.3662] for 81 of 263 at 95%: statsmodels
	// proportion_confint(81, 263, method='wilson'), rounded to 4 decimals.
	lo, hi := Wilson(81, 263, 0.95)
	checkAbs(t, "lo", lo, 0.2553, 5e-5)
	checkAbs(t, "hi", hi, 0.3662, 5e-5)
}

func TestWilsonEdges(t *testing.T) {
	// n == 0: no information, the whole parameter space.
	if lo, hi := Wilson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = (%v, %v), want (0, 1)", lo, hi)
	}
	// x == 0 and x == n: the bounds are exactly 0 and 1, for any n.
	for _, n := range []int64{1, 2, 7, 1000, 1 << 40} {
		if lo, _ := Wilson(0, n, 0.95); lo != 0 {
			t.Errorf("Wilson(0, %d) lo = %v, want exactly 0", n, lo)
		}
		if _, hi := Wilson(n, n, 0.95); hi != 1 {
			t.Errorf("Wilson(%d, %d) hi = %v, want exactly 1", n, n, hi)
		}
		// Symmetry: the interval for n−x failures is the mirror image.
		x := n / 3
		lo1, hi1 := Wilson(x, n, 0.9)
		lo2, hi2 := Wilson(n-x, n, 0.9)
		checkAbs(t, fmt.Sprintf("mirror lo n=%d", n), lo1, 1-hi2, 1e-15)
		checkAbs(t, fmt.Sprintf("mirror hi n=%d", n), hi1, 1-lo2, 1e-15)
	}
	// Invalid counts and confidence levels give NaN.
	for _, c := range [][2]int64{{-1, 10}, {11, 10}, {0, -1}, {-5, -1}} {
		lo, hi := Wilson(c[0], c[1], 0.95)
		checkNaN(t, fmt.Sprintf("Wilson(%d, %d)", c[0], c[1]), lo, hi)
	}
	for _, conf := range badConfidences {
		lo, hi := Wilson(3, 10, conf)
		checkNaN(t, fmt.Sprintf("Wilson(3, 10, %v)", conf), lo, hi)
	}
}

func TestWilsonProperties(t *testing.T) {
	// Every interval lies in [0, 1], contains x/n, and widens with the
	// confidence level.
	for n := int64(1); n <= 40; n++ {
		for x := int64(0); x <= n; x++ {
			prevW := 0.0
			for _, conf := range []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999} {
				lo, hi := Wilson(x, n, conf)
				p := float64(x) / float64(n)
				if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
					t.Fatalf("Wilson(%d, %d, %g) = (%v, %v) does not contain %v within [0, 1]", x, n, conf, lo, hi, p)
				}
				if w := hi - lo; w <= prevW {
					t.Fatalf("Wilson(%d, %d, %g) width %v not above %v", x, n, conf, w, prevW)
				} else {
					prevW = w
				}
			}
		}
	}
}

// newcombeCases are the eight examples of Newcombe (1998b), Table II, with the
// limits of method 10 (hybrid score) as published to 4 decimals, and the same
// limits from statsmodels 0.13.5
//
//	confint_proportions_2indep(x1, n1, x2, n2, method='newcomb', compare='diff')
//
// printed with '%.15g'.
var newcombeCases = []struct {
	x1, n1, x2, n2 int64
	pubLo, pubHi   float64 // Newcombe 1998b, Table II, method 10
	smLo, smHi     float64 // statsmodels
}{
	{56, 70, 48, 80, 0.0524, 0.3339, 0.052431472402365, 0.333872654036906},
	{9, 10, 3, 10, 0.1705, 0.8090, 0.170522723934503, 0.809017973535488},
	{6, 7, 2, 7, 0.0582, 0.8062, 0.0582279274823121, 0.806249637524228},
	{5, 56, 0, 29, -0.0381, 0.1926, -0.0381371479035369, 0.192560013855112},
	{0, 10, 0, 20, -0.1611, 0.2775, -0.161125158052819, 0.277532799862889},
	{0, 10, 0, 10, -0.2775, 0.2775, -0.277532799862889, 0.277532799862889},
	{10, 10, 0, 20, 0.6791, 1.0000, 0.679086037141915, 1},
	{10, 10, 0, 10, 0.6075, 1.0000, 0.607509350430524, 1},
}

func TestTwoProportionNewcombe(t *testing.T) {
	for _, c := range newcombeCases {
		r := TwoProportion(c.x1, c.n1, c.x2, c.n2, 0.95)
		what := fmt.Sprintf("TwoProportion(%d/%d vs %d/%d)", c.x1, c.n1, c.x2, c.n2)
		checkAbs(t, what+" DiffLo vs Newcombe", r.DiffLo, c.pubLo, 5e-5)
		checkAbs(t, what+" DiffHi vs Newcombe", r.DiffHi, c.pubHi, 5e-5)
		checkNear(t, what+" DiffLo vs statsmodels", r.DiffLo, c.smLo, 1e-12)
		checkNear(t, what+" DiffHi vs statsmodels", r.DiffHi, c.smHi, 1e-12)
		checkNear(t, what+" Diff", r.Diff, float64(c.x1)/float64(c.n1)-float64(c.x2)/float64(c.n2), 1e-15)

		// Swapping the groups negates everything and mirrors the interval.
		s := TwoProportion(c.x2, c.n2, c.x1, c.n1, 0.95)
		checkAbs(t, what+" swapped Diff", s.Diff, -r.Diff, 1e-15)
		checkAbs(t, what+" swapped Z", s.Z, -r.Z, 1e-12)
		checkAbs(t, what+" swapped P", s.P, r.P, 1e-15)
		checkAbs(t, what+" swapped DiffLo", s.DiffLo, -r.DiffHi, 1e-15)
		checkAbs(t, what+" swapped DiffHi", s.DiffHi, -r.DiffLo, 1e-15)
	}
}

func TestTwoProportionZ(t *testing.T) {
	// Newcombe's example (a), 56/70 vs 48/80. R 4.2.2:
	//   p <- prop.test(c(56, 48), c(70, 80), correct=FALSE)
	//   sqrt(p$statistic) = 2.65017195125853311, p$p.value = 0.00804508136819656
	// statsmodels proportions_ztest([56, 48], [70, 80]) gives the same
	// (2.6501719512585336, 0.00804508136819656).
	r := TwoProportion(56, 70, 48, 80, 0.95)
	checkNear(t, "Z", r.Z, 2.6501719512585336, 1e-13)
	checkNear(t, "P", r.P, 0.00804508136819656, 1e-12)
	checkNear(t, "Diff", r.Diff, 0.2, 1e-14) // 0.8 − 0.6
}

func TestTwoProportionEdges(t *testing.T) {
	// Pooled proportion 0 or 1: the samples agree exactly; Z = 0 and P = 1,
	// and the interval is still Newcombe's (cases (e) and (f) above).
	for _, c := range [][4]int64{{0, 10, 0, 20}, {10, 10, 20, 20}, {0, 1, 0, 1}} {
		r := TwoProportion(c[0], c[1], c[2], c[3], 0.95)
		if r.Z != 0 || r.P != 1 || r.Diff != 0 {
			t.Errorf("TwoProportion%v = %+v, want Diff 0, Z 0, P 1", c, r)
		}
		if !(r.DiffLo < 0 && r.DiffHi > 0) {
			t.Errorf("TwoProportion%v interval (%v, %v) does not contain 0", c, r.DiffLo, r.DiffHi)
		}
	}
	// Empty samples and invalid counts: every field NaN.
	for _, c := range [][4]int64{{0, 0, 1, 2}, {1, 2, 0, 0}, {-1, 2, 1, 2}, {3, 2, 1, 2}, {1, 2, 1, -2}} {
		r := TwoProportion(c[0], c[1], c[2], c[3], 0.95)
		checkNaN(t, fmt.Sprintf("TwoProportion%v", c), r.Diff, r.Z, r.P, r.DiffLo, r.DiffHi)
	}
	// An invalid confidence level spoils only the interval.
	for _, conf := range badConfidences {
		r := TwoProportion(56, 70, 48, 80, conf)
		checkNaN(t, fmt.Sprintf("TwoProportion(conf=%v) interval", conf), r.DiffLo, r.DiffHi)
		checkNear(t, "Z", r.Z, 2.6501719512585336, 1e-13)
	}
	// Far in the tail P keeps its relative precision: z = 20 has two-sided
	// p = erfc(20/√2); R 4.2.2: 2*pnorm(-20) = 5.5072482372124675e-89.
	checkNear(t, "normalTwoSided(20)", normalTwoSided(20), 5.5072482372124675e-89, 1e-12)
}

func TestBinomHalfCDFMatchesGonum(t *testing.T) {
	// The exact integer sum against gonum's regularized incomplete beta.
	for n := int64(0); n <= 50; n++ {
		d := distuv.Binomial{N: float64(n), P: 0.5}
		for k := int64(0); k <= n; k++ {
			checkNear(t, fmt.Sprintf("binomHalfCDF(%d, %d)", k, n), binomHalfCDF(k, n), d.CDF(float64(k)), 1e-12)
		}
	}
	// Exact: P(X <= 0) = 2^-n and P(X <= n) = 1.
	for n := int64(0); n <= 50; n++ {
		if got := binomHalfCDF(0, n); got != math.Ldexp(1, -int(n)) {
			t.Errorf("binomHalfCDF(0, %d) = %v", n, got)
		}
		if got := binomHalfCDF(n, n); got != 1 {
			t.Errorf("binomHalfCDF(%d, %d) = %v", n, n, got)
		}
	}
}
