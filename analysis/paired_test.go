package analysis

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// sleepDiffs are the differences extra[group == 1] − extra[group == 2] of R's
// sleep data set (Student 1908; Cushny & Peebles 1905), printed by R 4.2.2:
//
//	with(sleep, extra[group == 1] - extra[group == 2])
var sleepDiffs = []float64{-1.2, -2.4, -1.3, -1.3, 0.0, -1.0, -1.8, -0.8, -4.6, -1.4}

func TestPairedSleep(t *testing.T) {
	// R 4.2.2:
	//   d <- with(sleep, extra[group == 1] - extra[group == 2])
	//   tt <- t.test(d)    # identical to t.test(..., paired = TRUE)
	//   t = -4.0621276833820366, df = 9, p-value = 0.00283289019738427,
	//   95% CI -2.45988576327698238 -0.70011423672301754, mean -1.58,
	//   sd(d) = 1.22999548327987318, sd(d)/sqrt(10) = 0.38895872388839520
	//   t.test(d, conf.level = 0.99)$conf.int: -2.844051885104825 -0.315948114895175
	// The inputs are decimal fractions, not exact in binary, hence 1e-12.
	var p Paired
	for _, d := range sleepDiffs {
		p.Add(d)
	}
	r := p.Test(0.95)
	if r.N != 10 {
		t.Errorf("N = %d, want 10", r.N)
	}
	checkNear(t, "Mean", r.Mean, -1.58, 1e-12)
	checkNear(t, "SD", r.SD, 1.22999548327987318, 1e-12)
	checkNear(t, "SE", r.SE, 0.38895872388839520, 1e-12)
	checkNear(t, "T", r.T, -4.0621276833820366, 1e-12)
	checkNear(t, "P", r.P, 0.00283289019738427, 1e-10)
	checkNear(t, "Lo", r.Lo, -2.45988576327698238, 1e-12)
	checkNear(t, "Hi", r.Hi, -0.70011423672301754, 1e-12)
	// The values as published in R's printout of t.test.
	checkAbs(t, "T (printed)", r.T, -4.0621, 5e-5)
	checkAbs(t, "P (printed)", r.P, 0.002833, 5e-7)
	checkAbs(t, "Lo (printed)", r.Lo, -2.4598858, 5e-8)
	checkAbs(t, "Hi (printed)", r.Hi, -0.7001142, 5e-8)

	r99 := p.Test(0.99)
	checkNear(t, "Lo 99%", r99.Lo, -2.844051885104825, 1e-12)
	checkNear(t, "Hi 99%", r99.Hi, -0.315948114895175, 1e-12)
	if r99.T != r.T || r99.P != r.P {
		t.Error("the confidence level changed the test")
	}
}

func TestPairedMergeOrderIndependent(t *testing.T) {
	// Integer differences: the sums are exact, so any split into shards and
	// any merge order gives bit-identical totals and results.
	rng := rand.New(rand.NewPCG(1, 2))
	diffs := make([]float64, 10000)
	for i := range diffs {
		diffs[i] = float64(rng.IntN(401) - 200)
	}
	var whole Paired
	for _, d := range diffs {
		whole.Add(d)
	}
	shards := make([]Paired, 7)
	for _, d := range diffs {
		shards[rng.IntN(len(shards))].Add(d)
	}
	var fwd, rev Paired
	for i := range shards {
		fwd.Merge(shards[i])
		rev.Merge(shards[len(shards)-1-i])
	}
	if fwd != whole || rev != whole {
		t.Fatalf("merged %+v / %+v, want %+v", fwd, rev, whole)
	}
	if a, b := fwd.Test(0.95), whole.Test(0.95); a != b {
		t.Errorf("Test after merge %+v, want %+v", a, b)
	}
}

func TestPairedNoCancellation(t *testing.T) {
	// Differences 1e6+1, 1e6+2, 1e6+3: the exact sample variance is 1. The
	// textbook float formula (SumSq − Sum²/N)/(N−1) loses it (an ulp of SumSq
	// ≈ 3e12 is 4.9e-4); the exact rational evaluation gives SD == 1.
	var p Paired
	for _, d := range []float64{1e6 + 1, 1e6 + 2, 1e6 + 3} {
		p.Add(d)
	}
	r := p.Test(0.95)
	if r.SD != 1 || r.Mean != 1e6+2 {
		t.Errorf("SD = %v, Mean = %v; want exactly 1 and 1000002", r.SD, r.Mean)
	}
}

func TestPairedEdges(t *testing.T) {
	// N == 0: everything NaN.
	var p Paired
	r := p.Test(0.95)
	if r.N != 0 {
		t.Errorf("N = %d", r.N)
	}
	checkNaN(t, "empty", r.Mean, r.SD, r.SE, r.Lo, r.Hi, r.T, r.P)

	// N == 1: the mean only.
	p.Add(3)
	r = p.Test(0.95)
	if r.Mean != 3 {
		t.Errorf("N=1 Mean = %v, want 3", r.Mean)
	}
	checkNaN(t, "N=1", r.SD, r.SE, r.Lo, r.Hi, r.T, r.P)

	// All differences 0 (identical configurations): T = 0, P = 1, interval [0, 0].
	p = Paired{}
	for range 5 {
		p.Add(0)
	}
	r = p.Test(0.95)
	if r.SD != 0 || r.SE != 0 || r.T != 0 || r.P != 1 || r.Lo != 0 || r.Hi != 0 {
		t.Errorf("all zero: %+v", r)
	}

	// All differences equal and non-zero: T = ±Inf, P = 0, interval a point.
	for _, d := range []float64{2, -2} {
		p = Paired{}
		for range 4 {
			p.Add(d)
		}
		r = p.Test(0.95)
		if r.T != math.Inf(int(d)) || r.P != 0 || r.Lo != d || r.Hi != d {
			t.Errorf("all %v: %+v", d, r)
		}
	}

	// An invalid confidence level spoils only the interval.
	p = Paired{}
	for _, d := range sleepDiffs {
		p.Add(d)
	}
	for _, conf := range badConfidences {
		r := p.Test(conf)
		checkNaN(t, fmt.Sprintf("conf=%v interval", conf), r.Lo, r.Hi)
		checkNear(t, "T", r.T, -4.0621276833820366, 1e-12)
	}

	// A NaN or infinite difference makes the results NaN, without panicking.
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		q := p
		q.Add(bad)
		r := q.Test(0.95)
		checkNaN(t, fmt.Sprintf("with %v", bad), r.SD, r.SE, r.Lo, r.Hi, r.T, r.P)
	}
}

func TestPairedAddDoesNotAllocate(t *testing.T) {
	var p Paired
	if n := testing.AllocsPerRun(100, func() { p.Add(3) }); n != 0 {
		t.Errorf("Paired.Add allocates %v times", n)
	}
}

func TestPairedNoFalseZeroVariance(t *testing.T) {
	// Differences 2^27 and 2^27+1: Σd² = 2^55 + 2^28 + 1 is not a float64
	// (its ulp is 8), and from the rounded sums N·Σd² − (Σd)² comes out as
	// −1, which used to be clamped to a variance of 0: SD 0, T = Inf, P = 0.
	// Exactly, the sample variance is ((1/2)²·2)/1 = 1/2.
	var p Paired
	p.Add(1 << 27)
	p.Add(1<<27 + 1)
	r := p.Test(0.95)
	checkNear(t, "SD", r.SD, math.Sqrt(0.5), 1e-15)
	checkNear(t, "Mean", r.Mean, 1<<27+0.5, 0)
	if !(r.P > 0 && r.P < 1) || math.IsInf(r.T, 0) {
		t.Errorf("P = %v, T = %v: want a finite test", r.P, r.T)
	}
	// Stored sums passed exactly give the same.
	q := PairedSums(2, 1<<28+1, 1<<55+1<<28+1)
	if q.Test(0.95) != r {
		t.Errorf("PairedSums: %+v, want %+v", q.Test(0.95), r)
	}
	// Many large differences: sums past 2^64 stay exact. 2^20 copies of
	// 2^40 and 2^20 of 2^40+2: mean 2^40+1, every |d − mean| = 1, so the
	// sample variance is N/(N−1) with N = 2^21.
	var big Paired
	for range 1 << 20 {
		big.Add(1 << 40)
	}
	var other Paired
	for range 1 << 20 {
		other.Add(1<<40 + 2)
	}
	big.Merge(other)
	n := float64(1 << 21)
	checkNear(t, "SD of large sums", big.Test(0.95).SD, math.Sqrt(n/(n-1)), 1e-15)
	// A non-integer difference falls back to the float sums (and says so
	// only by its precision): the sleep data still match R.
	var s Paired
	for _, d := range sleepDiffs {
		s.Add(d)
	}
	checkNear(t, "sleep SD", s.Test(0.95).SD, 1.22999548327987318, 1e-12)
}

// The t test and its interval are a dual pair: the 95% interval excludes 0
// exactly when P < 1 − 0.95, also for a t statistic within rounding of the
// critical value, where the p-value (gonum's t survival function) and the
// quantile (gonum's, or the Cornish–Fisher expansion past 1000 degrees of
// freedom) need not agree to the last bits.
//
// The sums are chosen so that T = S·√(N−1)/√(N·Q − S²) falls between the two
// numerical critical values at df = 2000 (computed in Python with
// fractions.Fraction: T = 1.961150826099591, while qt(0.975, 2000) =
// 1.96115082609959…: the test's and the interval's critical values differ
// by 3e-13 there, and T lies between them). Duality, not the last digit of
// the critical value, is what this checks; the other cases sweep the same
// boundary at other degrees of freedom.
func TestPairedDualAtTheBoundary(t *testing.T) {
	check := func(n, s int64, q uint64) {
		t.Helper()
		conf := 0.95
		r := PairedSums(n, s, q).Test(conf)
		if (r.P < 1-conf) != (r.Lo > 0 || r.Hi < 0) { // the float64 1−0.95, the level McNemar uses too
			t.Errorf("N %d, Σd %d, Σd² %d: T %.17g, P %.17g, interval [%.17g, %.17g]: the test and the interval disagree", n, s, q, r.T, r.P, r.Lo, r.Hi)
		}
	}
	check(2001, 1_000_000_000, 260372604488440386)
	// A sweep: for each df, the sums whose T is closest to the interval's
	// critical value from either side.
	const s = 1_000_000_000
	for _, n := range []int64{3, 11, 101, 1000, 1001, 1002, 2001, 5001, 10001, 100001, 400001, 410001} {
		qc := tCritical(0.95, float64(n-1))
		for _, k := range []float64{-2e-10, -2e-11, -2e-12, -2e-13, 0, 2e-13, 2e-12, 2e-11, 2e-10} {
			T := qc * (1 + k)
			// Q = S²(N−1+T²)/(N·T²), rounded to an integer.
			num := new(big.Float).SetPrec(200).SetInt64(s)
			num.Mul(num, num)
			f := new(big.Float).SetPrec(200).SetFloat64(float64(n-1) + T*T)
			num.Mul(num, f)
			den := new(big.Float).SetPrec(200).SetFloat64(float64(n) * T * T)
			num.Quo(num, den)
			qi, _ := num.Int(nil)
			if !qi.IsUint64() {
				continue
			}
			check(n, s, qi.Uint64())
		}
	}
}
