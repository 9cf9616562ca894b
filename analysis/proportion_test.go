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

func TestNormalTwoSidedTail(t *testing.T) {
	// Far in the tail the p-value keeps its relative precision: z = 20 has
	// two-sided p = erfc(20/√2); R 4.2.2: 2*pnorm(-20) = 5.5072482372124675e-89.
	checkNear(t, "NormalTwoSided(20)", NormalTwoSided(20), 5.5072482372124675e-89, 1e-12)
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
