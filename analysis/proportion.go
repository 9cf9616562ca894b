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
// (Wilson 1927; Agresti & Coull 1998; Newcombe 1998, method 3). It
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
