package analysis

import (
	"math"
)

// Wilson returns the Wilson score interval for a binomial proportion
// estimated from successes out of n trials, at the given two-sided confidence
// level (for example 0.95).
//
// With p̂ = x/n and z the normal critical value, the interval is
//
//	(p̂ + z²/(2n) ± z·√(p̂(1−p̂)/n + z²/(4n²))) / (1 + z²/n)
//
// (Wilson 1927; Agresti & Coull 1998; Newcombe 1998a, method 3). It
// matches statsmodels proportion_confint(x, n, method='wilson') and R
// prop.test(x, n, correct=FALSE)$conf.int.
//
// Edge cases: n == 0 gives (0, 1), the whole parameter space. The bounds are
// exactly 0 when successes == 0 and exactly 1 when successes == n, and are
// always within [0, 1]. Negative counts, successes > n, or a confidence level
// outside (0, 1) give (NaN, NaN).
func Wilson(successes, n int64, confidence float64) (lo, hi float64) {
	if successes < 0 || n < 0 || successes > n || !validConfidence(confidence) {
		return math.NaN(), math.NaN()
	}
	if n == 0 {
		return 0, 1
	}
	return wilson(successes, n, zCritical(confidence))
}

// wilson is Wilson for valid arguments with n > 0 and a precomputed critical
// value z.
func wilson(x, n int64, z float64) (lo, hi float64) {
	nf := float64(n)
	p := float64(x) / nf
	z2 := z * z
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo = math.Max(0, center-half)
	hi = math.Min(1, center+half)
	if x == 0 {
		lo = 0
	}
	if x == n {
		hi = 1
	}
	return lo, hi
}

// ProportionTest is the result of [TwoProportion]: a comparison of two
// independent binomial proportions p1 = x1/n1 and p2 = x2/n2.
type ProportionTest struct {
	// Diff is the estimated difference p1 − p2.
	Diff float64
	// Z is the pooled two-sample z statistic; it is positive when p1 > p2.
	Z float64
	// P is the two-sided p-value of Z under the standard normal.
	P float64
	// DiffLo and DiffHi bound Newcombe's hybrid score interval for p1 − p2.
	DiffLo, DiffHi float64
}

// TwoProportion compares two independent binomial proportions, x1 successes
// out of n1 against x2 successes out of n2.
//
// The test is the two-sided pooled z test,
//
//	z = (p1 − p2) / √(p̄(1−p̄)(1/n1 + 1/n2)),  p̄ = (x1+x2)/(n1+n2),
//
// whose square is the Pearson chi-square of R prop.test(c(x1, x2), c(n1, n2),
// correct=FALSE), and which equals statsmodels proportions_ztest([x1, x2],
// [n1, n2]).
//
// The confidence interval for p1 − p2 is Newcombe's hybrid score interval
// (Newcombe 1998b, method 10), built from the Wilson intervals (l1, u1) and
// (l2, u2) of the two proportions:
//
//	(p1−p2 − √((p1−l1)² + (u2−p2)²),  p1−p2 + √((u1−p1)² + (p2−l2)²)).
//
// We use it rather than the Wald interval because it keeps its coverage for
// proportions near 0 or 1 and stays inside [−1, 1]; the Wald interval
// collapses to a point when both counts are 0 or n. It matches statsmodels
// confint_proportions_2indep(x1, n1, x2, n2, method='newcomb', compare='diff').
//
// Edge cases: when the pooled proportion is 0 or 1 (no successes at all, or
// only successes) the two samples agree exactly, the z statistic is 0/0, and
// TwoProportion reports Z = 0 and P = 1; the interval is still defined. If
// n1 or n2 is 0, a count is negative, or x > n, every field is NaN. A
// confidence level outside (0, 1) makes only DiffLo and DiffHi NaN.
func TwoProportion(x1, n1, x2, n2 int64, confidence float64) ProportionTest {
	nan := math.NaN()
	if x1 < 0 || x2 < 0 || n1 <= 0 || n2 <= 0 || x1 > n1 || x2 > n2 {
		return ProportionTest{Diff: nan, Z: nan, P: nan, DiffLo: nan, DiffHi: nan}
	}
	p1 := float64(x1) / float64(n1)
	p2 := float64(x2) / float64(n2)
	r := ProportionTest{Diff: p1 - p2, DiffLo: nan, DiffHi: nan}

	pooled := (float64(x1) + float64(x2)) / (float64(n1) + float64(n2))
	se := math.Sqrt(pooled * (1 - pooled) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		r.Z, r.P = 0, 1
	} else {
		r.Z = r.Diff / se
		r.P = normalTwoSided(r.Z)
	}

	if validConfidence(confidence) {
		z := zCritical(confidence)
		l1, u1 := wilson(x1, n1, z)
		l2, u2 := wilson(x2, n2, z)
		r.DiffLo = math.Max(-1, r.Diff-math.Hypot(p1-l1, u2-p2))
		r.DiffHi = math.Min(1, r.Diff+math.Hypot(u1-p1, p2-l2))
	}
	return r
}

// binomHalfCDF returns P(X <= k) for X ~ Binomial(n, 1/2), exactly, for
// 0 <= k <= n <= 50: every intermediate C(n, i)·(n−i) is an integer below
// 2^53, so the coefficients and their sum are exact in float64, and the
// division by 2^n is exact.
func binomHalfCDF(k, n int64) float64 {
	sum, coef := 0.0, 1.0 // coef = C(n, i)
	for i := int64(0); i <= k; i++ {
		sum += coef
		coef = coef * float64(n-i) / float64(i+1)
	}
	return math.Ldexp(sum, -int(n))
}
