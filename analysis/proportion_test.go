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

func TestMcNemarAgresti(t *testing.T) {
	// Agresti (2002), Categorical Data Analysis, Table 10.1: approval in two
	// surveys of the same 1600 people: 794 approve both times, 150 approve
	// then disapprove, 86 disapprove then approve, 570 disapprove both.
	r := McNemar(150, 86, 1600, 0.95)
	if r.Exact || r.B != 150 || r.C != 86 {
		t.Errorf("McNemar(150, 86) = %+v, want the chi-square version", r)
	}
	// Agresti: z² = (86−150)²/(86+150) = 17.36 without continuity
	// correction. R 4.2.2 mcnemar.test(matrix(c(794,86,150,570),2)) with the
	// correction: McNemar's chi-squared = 16.8177966101695,
	// p-value = 4.11456228134594e-05.
	checkAbs(t, "uncorrected z²", float64((r.B-r.C)*(r.B-r.C))/float64(r.B+r.C), 17.36, 5e-3)
	checkNear(t, "Statistic", r.Statistic, 16.8177966101695, 1e-13)
	checkNear(t, "P", r.P, 4.11456228134594e-05, 1e-12)
	// Agresti §10.1.1: difference 0.59 − 0.55 = 0.04 with standard error
	// 0.0095 and 95% interval 0.04 ± 1.96·0.0095 = (0.021, 0.059). Full
	// precision from R:
	//   se <- sqrt((236 - 64^2/1600)/1600^2)          # 0.00954921462739214
	//   0.04 + c(-1, 1) * qnorm(0.975) * se   # 0.0212838832496683 0.0587161167503317
	checkNear(t, "Diff", r.Diff, 0.04, 1e-15)
	checkAbs(t, "DiffLo (published)", r.DiffLo, 0.021, 5e-4)
	checkAbs(t, "DiffHi (published)", r.DiffHi, 0.059, 5e-4)
	checkNear(t, "DiffLo", r.DiffLo, 0.0212838832496683, 1e-12)
	checkNear(t, "DiffHi", r.DiffHi, 0.0587161167503317, 1e-12)
}

func TestMcNemarR(t *testing.T) {
	// R 4.2.2: m <- mcnemar.test(matrix(c(10, 40, 20, 30), 2)); here
	// b = x[1,2] = 20, c = x[2,1] = 40, n = 100:
	// McNemar's chi-squared = 6.0166666666666666, p-value = 0.0141713882540124.
	// Wald interval from R:
	//   se <- sqrt((60 - 20^2/100)/100^2)
	//   -0.2 + c(-1, 1) * qnorm(0.975) * se   # -0.346670274411304 -0.0533297255886964
	r := McNemar(20, 40, 100, 0.95)
	checkNear(t, "Statistic", r.Statistic, 6.0166666666666666, 1e-14)
	checkNear(t, "P", r.P, 0.0141713882540124, 1e-12)
	checkNear(t, "Diff", r.Diff, -0.2, 1e-15)
	checkNear(t, "DiffLo", r.DiffLo, -0.346670274411304, 1e-12)
	checkNear(t, "DiffHi", r.DiffHi, -0.0533297255886964, 1e-12)
}

func TestMcNemarExact(t *testing.T) {
	// P: R 4.2.2 binom.test(min(b, c), b + c)$p.value, and statsmodels
	// mcnemar([[0, b], [c, 0]], exact=True) whose statistic is min(b, c).
	cases := []struct {
		b, c      int64
		statistic float64
		p         float64
	}{
		{12, 5, 5, 0.143463134765625},      // binom.test(5, 17)
		{0, 10, 0, 0.001953125},            // binom.test(0, 10) = 2/2^10
		{20, 4, 4, 0.00154387950897217},    // binom.test(4, 24)
		{3, 3, 3, 1},                       // symmetric: capped at 1
		{12, 12, 12, 1},                    // b+c = 24, still exact
		{1, 0, 0, 1},                       // binom.test(0, 1)
		{0, 0, 0, 1},                       // no discordant pair
		{0, 24, 0, 1.1920928955078125e-07}, // 2/2^24 exactly; binom.test(0, 24) = 1.1920928955078138e-07
	}
	for _, c := range cases {
		r := McNemar(c.b, c.c, 100, 0.95)
		what := fmt.Sprintf("McNemar(%d, %d)", c.b, c.c)
		if !r.Exact {
			t.Errorf("%s not exact", what)
		}
		checkNear(t, what+" Statistic", r.Statistic, c.statistic, 0)
		checkNear(t, what+" P", r.P, c.p, 1e-14)
	}
	// From b+c = 25 on, the chi-square version; statsmodels
	// mcnemar([[0, 13], [12, 0]], exact=False) gives statistic 0, p-value 1.
	r := McNemar(13, 12, 100, 0.95)
	if r.Exact || r.Statistic != 0 || r.P != 1 {
		t.Errorf("McNemar(13, 12) = %+v, want chi-square 0 and P 1", r)
	}
	// R mcnemar.test does not clamp |b−c|−1 at 0: b == c gives 1/(b+c).
	r = McNemar(20, 20, 100, 0.95)
	checkNear(t, "McNemar(20, 20) Statistic", r.Statistic, 1.0/40, 1e-15)
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

func TestChiSquare1SurvivalMatchesGonum(t *testing.T) {
	d := distuv.ChiSquared{K: 1}
	for _, x := range []float64{1e-6, 0.01, 0.5, 1, 3.841458820694124, 6.0166666666666666, 16.8177966101695, 50, 200} {
		checkNear(t, fmt.Sprintf("chiSquare1Survival(%v)", x), chiSquare1Survival(x), d.Survival(x), 1e-12)
	}
	// 3.841458820694124 = qchisq(0.95, 1) in R: the 5% point.
	checkNear(t, "5% point", chiSquare1Survival(3.841458820694124), 0.05, 1e-14)
	if chiSquare1Survival(0) != 1 || chiSquare1Survival(-1) != 1 {
		t.Error("chiSquare1Survival(<= 0) != 1")
	}
}

func TestMcNemarEdges(t *testing.T) {
	// No discordant pair: P = 1 and a degenerate interval at 0.
	r := McNemar(0, 0, 50, 0.95)
	if !r.Exact || r.Statistic != 0 || r.P != 1 || r.Diff != 0 || r.DiffLo != 0 || r.DiffHi != 0 {
		t.Errorf("McNemar(0, 0, 50) = %+v", r)
	}
	// Every pair discordant in A's favour: the interval is clipped at 1.
	r = McNemar(30, 0, 30, 0.95)
	if r.Diff != 1 || r.DiffHi != 1 || r.DiffLo != 1 {
		t.Errorf("McNemar(30, 0, 30) = %+v, want Diff and interval at 1", r)
	}
	// n == 0: the test is defined (P = 1), the difference is not.
	r = McNemar(0, 0, 0, 0.95)
	if r.P != 1 {
		t.Errorf("McNemar(0, 0, 0) P = %v, want 1", r.P)
	}
	checkNaN(t, "McNemar(0, 0, 0) diff", r.Diff, r.DiffLo, r.DiffHi)
	// Invalid counts: every float field NaN.
	for _, c := range [][3]int64{{-1, 0, 10}, {0, -1, 10}, {6, 5, 10}, {1, 1, -1}, {11, 0, 10}} {
		r := McNemar(c[0], c[1], c[2], 0.95)
		checkNaN(t, fmt.Sprintf("McNemar%v", c), r.Statistic, r.P, r.Diff, r.DiffLo, r.DiffHi)
	}
	// An invalid confidence level spoils only the interval.
	for _, conf := range badConfidences {
		r := McNemar(150, 86, 1600, conf)
		checkNaN(t, fmt.Sprintf("McNemar(conf=%v) interval", conf), r.DiffLo, r.DiffHi)
		checkNear(t, "P", r.P, 4.11456228134594e-05, 1e-12)
		checkNear(t, "Diff", r.Diff, 0.04, 1e-15)
	}
	// Huge counts neither overflow nor lose the test.
	r = McNemar(1<<40+1000, 1<<40, 1<<45, 0.95)
	if r.Exact || !(r.P > 0 && r.P < 1) || !(r.DiffLo < r.Diff && r.Diff < r.DiffHi) {
		t.Errorf("McNemar(huge) = %+v", r)
	}
}
