package analysis

import (
	"math"
	"math/big"
)

// Paired accumulates paired differences of a numeric outcome, for example the
// game length of a deal under configuration A minus its length under
// configuration B on the same deal (common random numbers). Its zero value is
// empty and ready to use; it can be copied with =.
//
// The sums are float64. When every difference is an integer (turns, cards,
// points), every partial sum is an integer and float64 holds it exactly as
// long as |SumSq| <= 2^53 ≈ 9.0e15 (for example 9e9 pairs with |d| <= 1000).
// Then N, Sum and SumSq, and so [Paired.Test], are exact and do not depend
// on the order of Add and Merge calls. For non-integer differences the sums
// are rounded and their last bits may depend on that order.
type Paired struct {
	N     int64   // number of differences
	Sum   float64 // Σ d
	SumSq float64 // Σ d²
}

// Add records one difference d. It does not check d: a NaN or infinite d
// makes the results of Test NaN.
func (p *Paired) Add(d float64) {
	p.N++
	p.Sum += d
	p.SumSq += d * d
}

// Merge adds the differences accumulated in o to p.
func (p *Paired) Merge(o Paired) {
	p.N += o.N
	p.Sum += o.Sum
	p.SumSq += o.SumSq
}

// Mean returns the mean difference Sum/N, or NaN when N == 0.
func (p Paired) Mean() float64 {
	if p.N <= 0 {
		return math.NaN()
	}
	return p.Sum / float64(p.N)
}

// Test returns the one-sample t test of the hypothesis that the mean
// difference is 0 (two-sided, Student t with N−1 degrees of freedom) and
// the t confidence interval for the mean difference at the given level: the
// paired t test, as R t.test(a, b, paired=TRUE) or t.test(a − b).
//
// The sample variance (N·SumSq − Sum²)/(N(N−1)) is evaluated in exact
// rational arithmetic from the stored sums, so there is no cancellation even
// when the mean is large compared with the standard deviation. See [MeanCI]
// for the edge cases (N < 2, zero variance).
func (p Paired) Test(confidence float64) MeanCI {
	if p.N <= 0 {
		return meanCI(p.N, math.NaN(), math.NaN(), confidence)
	}
	return meanCI(p.N, p.Mean(), sampleVariance(p.N, p.Sum, p.SumSq), confidence)
}

// sampleVariance returns (n·s2 − s1²)/(n(n−1)) computed exactly from float64
// sums and correctly rounded, clamped at 0 (a negative value can only come
// from rounding in sums of non-integer data). It returns NaN for n < 2 or
// non-finite sums.
func sampleVariance(n int64, s1, s2 float64) float64 {
	if n < 2 || math.IsNaN(s1) || math.IsInf(s1, 0) || math.IsNaN(s2) || math.IsInf(s2, 0) {
		return math.NaN()
	}
	nr := new(big.Rat).SetInt64(n)
	a := new(big.Rat).SetFloat64(s2)
	a.Mul(a, nr)
	b := new(big.Rat).SetFloat64(s1)
	b.Mul(b, b)
	a.Sub(a, b)
	nr.Mul(nr, new(big.Rat).SetInt64(n-1))
	a.Quo(a, nr)
	v, _ := a.Float64()
	return math.Max(0, v)
}

// MeanCI is a Student t confidence interval for a mean together with the t
// test of the hypothesis that the mean is 0 (two-sided, N−1 degrees of
// freedom). It is the result of [Paired.Test] and [IntHist.MeanCI].
//
// Edge cases: N == 0 makes every float field NaN. N == 1 gives the Mean and
// NaN for the rest. When the sample standard deviation is 0 (all values
// equal) the interval is the point [Mean, Mean], and the test reports the
// limit: T = 0 and P = 1 if Mean == 0, T = ±Inf and P = 0 otherwise (R
// t.test stops with "data are essentially constant" instead). A confidence
// level outside (0, 1) makes only Lo and Hi NaN.
type MeanCI struct {
	N    int64   // number of observations
	Mean float64 // sample mean
	SD   float64 // sample standard deviation (divisor N−1)
	SE   float64 // standard error of the mean, SD/√N
	Lo   float64 // lower bound of the confidence interval for the mean
	Hi   float64 // upper bound of the confidence interval for the mean
	T    float64 // t statistic Mean/SE
	P    float64 // two-sided p-value of T, Student t with N−1 df
}

// meanCI builds a MeanCI from n, the sample mean and the sample variance.
func meanCI(n int64, mean, variance, confidence float64) MeanCI {
	nan := math.NaN()
	r := MeanCI{N: n, Mean: mean, SD: nan, SE: nan, Lo: nan, Hi: nan, T: nan, P: nan}
	if n < 2 || math.IsNaN(mean) || math.IsNaN(variance) || math.IsInf(mean, 0) {
		return r
	}
	df := float64(n - 1)
	r.SD = math.Sqrt(variance)
	r.SE = r.SD / math.Sqrt(float64(n))
	switch {
	case r.SE > 0:
		r.T = mean / r.SE
		r.P = tTwoSided(r.T, df)
	case mean == 0:
		r.T, r.P = 0, 1
	default:
		r.T, r.P = math.Copysign(math.Inf(1), mean), 0
	}
	if validConfidence(confidence) {
		if r.SE == 0 {
			r.Lo, r.Hi = mean, mean
		} else {
			half := tCritical(confidence, df) * r.SE
			r.Lo, r.Hi = mean-half, mean+half
		}
	}
	return r
}
