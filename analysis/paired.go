package analysis

import (
	"math"
	"math/big"
	"math/bits"
)

// Paired accumulates paired differences of a numeric outcome, for example the
// game length of a deal under configuration A minus its length under
// configuration B on the same deal (common random numbers). Its zero value is
// empty and ready to use; it can be copied with =.
//
// Besides the float64 sums it keeps exact 128-bit integer sums of the
// differences that are integers of magnitude at most 2^53 (turns, cards,
// points), so for integer data [Paired.Test] is exact whatever the size of
// the sums: float64 alone holds Σd² exactly only up to 2^53, and past it
// the rounded sums could give a variance of 0 (a point interval and p = 0)
// for data that vary. The exact sums do not depend on the order of Add and
// Merge calls. Once a non-integer difference is added (or a sum would pass
// 2^127), Test falls back to the float64 sums, whose last bits may then
// depend on that order.
//
// N, Sum and SumSq may be set directly (a Paired built from stored sums);
// such a value has no exact sums and Test uses the float64 ones. Use
// [PairedSums] for stored integer sums.
type Paired struct {
	N     int64   // number of differences
	Sum   float64 // Σ d
	SumSq float64 // Σ d²

	exact    int64 // how many of the N differences the exact sums hold
	overflow bool  // an exact sum passed its range
	isum     i128  // Σ d over the exact differences
	isumsqHi uint64
	isumsqLo uint64 // Σ d² over the exact differences, 128 bits
}

// i128 is a two's complement 128-bit integer.
type i128 struct {
	hi int64
	lo uint64
}

func (x *i128) add(y i128) (overflow bool) {
	lo, carry := bits.Add64(x.lo, y.lo, 0)
	hi := x.hi + y.hi + int64(carry)
	// Signed overflow: both operands' high words of one sign, the result's of the other.
	overflow = (x.hi >= 0) == (y.hi >= 0) && (hi >= 0) != (x.hi >= 0)
	x.hi, x.lo = hi, lo
	return overflow
}

func (x i128) big() *big.Int {
	v := new(big.Int).SetInt64(x.hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(x.lo))
}

// maxExact is the largest magnitude of a difference kept in the exact sums:
// every integer up to it is a float64.
const maxExact = 1 << 53

// PairedSums returns the Paired holding n integer differences with the
// given exact sums (for example sums stored by a run), so that Test is exact.
func PairedSums(n, sum int64, sumSq uint64) Paired {
	p := Paired{N: n, Sum: float64(sum), SumSq: float64(sumSq), exact: n}
	p.isum = i128{hi: sum >> 63, lo: uint64(sum)}
	p.isumsqLo = sumSq
	return p
}

// Add records one difference d. It does not check d: a NaN or infinite d
// makes the results of Test NaN.
func (p *Paired) Add(d float64) {
	p.N++
	p.Sum += d
	p.SumSq += d * d
	if d == math.Trunc(d) && math.Abs(d) <= maxExact {
		i := int64(d)
		p.exact++
		if p.isum.add(i128{hi: i >> 63, lo: uint64(i)}) {
			p.overflow = true
		}
		a := uint64(i)
		if i < 0 {
			a = uint64(-i)
		}
		h, l := bits.Mul64(a, a)
		var carry uint64
		p.isumsqLo, carry = bits.Add64(p.isumsqLo, l, 0)
		p.isumsqHi, carry = bits.Add64(p.isumsqHi, h, carry)
		if carry != 0 {
			p.overflow = true
		}
	}
}

// Merge adds the differences accumulated in o to p.
func (p *Paired) Merge(o Paired) {
	p.N += o.N
	p.Sum += o.Sum
	p.SumSq += o.SumSq
	p.exact += o.exact
	p.overflow = p.overflow || o.overflow
	if p.isum.add(o.isum) {
		p.overflow = true
	}
	var carry uint64
	p.isumsqLo, carry = bits.Add64(p.isumsqLo, o.isumsqLo, 0)
	p.isumsqHi, carry = bits.Add64(p.isumsqHi, o.isumsqHi, carry)
	if carry != 0 {
		p.overflow = true
	}
}

// isExact reports whether the exact sums hold every difference.
func (p *Paired) isExact() bool { return p.exact == p.N && !p.overflow }

// Mean returns the mean difference Sum/N, or NaN when N == 0.
func (p Paired) Mean() float64 {
	if p.N <= 0 {
		return math.NaN()
	}
	if p.isExact() {
		m, _ := new(big.Rat).SetFrac(p.isum.big(), big.NewInt(p.N)).Float64()
		return m
	}
	return p.Sum / float64(p.N)
}

// Test returns the one-sample t test of the hypothesis that the mean
// difference is 0 (two-sided, Student t with N−1 degrees of freedom) and
// the t confidence interval for the mean difference at the given level: the
// paired t test, as R t.test(a, b, paired=TRUE) or t.test(a − b).
//
// The sample variance (N·SumSq − Sum²)/(N(N−1)) is evaluated in exact
// rational arithmetic, from the exact integer sums when they hold every
// difference and from the stored float64 sums otherwise, so there is no
// cancellation even when the mean is large compared with the standard
// deviation. See [MeanCI] for the edge cases (N < 2, zero variance).
func (p Paired) Test(confidence float64) MeanCI {
	if p.N <= 0 {
		return meanCI(p.N, math.NaN(), math.NaN(), confidence)
	}
	if p.isExact() {
		s2 := new(big.Int).Lsh(new(big.Int).SetUint64(p.isumsqHi), 64)
		s2.Or(s2, new(big.Int).SetUint64(p.isumsqLo))
		return meanCI(p.N, p.Mean(), exactVariance(p.N, p.isum.big(), s2), confidence)
	}
	return meanCI(p.N, p.Mean(), sampleVariance(p.N, p.Sum, p.SumSq), confidence)
}

// exactVariance is (n·s2 − s1²)/(n(n−1)) for exact integer sums, correctly
// rounded; NaN for n < 2.
func exactVariance(n int64, s1, s2 *big.Int) float64 {
	if n < 2 {
		return math.NaN()
	}
	num := new(big.Int).Mul(s2, big.NewInt(n))
	num.Sub(num, new(big.Int).Mul(s1, s1))
	den := new(big.Int).Mul(big.NewInt(n), big.NewInt(n-1))
	v, _ := new(big.Rat).SetFrac(num, den).Float64()
	return v
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
// The interval and the test are a dual pair: the interval excludes 0
// exactly when P < 1 − confidence, to the last bit (see dualToTest).
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
			dualToTest(&r, confidence)
		}
	}
	return r
}

// dualToTest makes the interval agree with the test: it excludes 0 exactly
// when P < 1 − confidence. The p-value (gonum's t survival function, or
// A&S 26.7.8) and the critical value (gonum's quantile, or the
// Cornish–Fisher expansion) are separate approximations that differ in
// their last bits, by up to 2e-10 (relative) near df = 4e5, so a T within
// that of the critical value could be rejected by the test and not by the
// interval, or the reverse. The test decides, as in [McNemar]; the limit
// next to 0 then moves to 0 (the test does not reject) or off it by the
// smallest step (it rejects), a change far below the interval's precision.
func dualToTest(r *MeanCI, confidence float64) {
	r.Lo, r.Hi = DualLimits(r.P < 1-confidence, r.Mean, r.Lo, r.Hi)
}

// DualLimits is the interval [lo, hi] around the estimate est made to
// agree with its test of the null 0, whose decision is reject: a test that
// rejects gets an interval off 0 (its limit next to 0 moved off it by the
// smallest step, if need be), one that does not an interval holding 0.
// For a test and an interval computed by separate approximations, which
// may disagree in their last bits at the boundary.
func DualLimits(reject bool, est, lo, hi float64) (float64, float64) {
	tiny := math.SmallestNonzeroFloat64
	switch {
	case reject && est > 0:
		lo = math.Max(lo, tiny)
	case reject && est < 0:
		hi = math.Min(hi, -tiny)
	case !reject:
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	return lo, hi
}
