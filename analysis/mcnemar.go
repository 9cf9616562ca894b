package analysis

import (
	"math"
)

// McNemarMidPBelow is the number of discordant pairs b+c below which
// [McNemar] uses the mid-p conditional test and its inverted interval; from
// it on, the asymptotic score test with Tango's score interval. Fagerland,
// Lydersen & Laake (2013) recommend the mid-p test for small and moderate
// counts (it kept the nominal level in all of their 9,595 scenarios) and
// the asymptotic test when small violations of the level are acceptable;
// at b+c = 25 the two p-values are close (see the tests), so the switch is
// not a jump of the kind the exact/continuity-corrected pair had.
const McNemarMidPBelow = 25

// McNemarResult is the result of [McNemar].
type McNemarResult struct {
	// B and C are the discordant counts as passed in.
	B, C int64
	// Z is the score statistic (B−C)/√(B+C), the square root of the
	// uncorrected McNemar chi-square with its sign; 0 when B+C == 0.
	Z float64
	// P is the two-sided p-value: the mid-p conditional one when MidP,
	// otherwise 2·Φ(−|Z|).
	P float64
	// MidP reports whether P and the interval come from the mid-p
	// conditional test (B+C < McNemarMidPBelow).
	MidP bool
	// MinP is the smallest P that B+C discordant pairs can give, reached
	// when they all go one way (B = 0 or C = 0): 2^-(B+C) for the mid-p
	// test, 2·Φ(−√(B+C)) for the score test, 1 when B+C == 0. Whatever
	// the split, the test cannot reject at a level α <= MinP: with fewer
	// than 5 discordant pairs it cannot reject at 5% (2^-4 = 0.0625), so
	// such a test does not belong in a multiple-testing family.
	MinP float64
	// Diff is the paired difference in proportions p_A − p_B = (B−C)/n.
	Diff float64
	// DiffLo and DiffHi bound the interval for Diff dual to the test: it
	// excludes 0 exactly when P < 1 − confidence.
	DiffLo, DiffHi float64
}

// McNemar tests whether two paired binary outcomes have the same success
// probability, for example whether strategy A and strategy B win equally
// often when each deal is played once by each (common random numbers).
// b counts the pairs where only A succeeded, c those where only B succeeded,
// and n is the total number of pairs, concordant ones included. The test
// and the interval are a dual pair: the interval excludes 0 exactly when
// P < 1 − confidence, for every count (tested over a grid).
//
// Large counts (b+c >= [McNemarMidPBelow]): the asymptotic score test,
// z = (b−c)/√(b+c) against the standard normal (McNemar's test without
// continuity correction), and Tango's (1998) score interval for
// Δ = p_A − p_B: the Δ0 with |T(Δ0)| <= z_{α/2}, where
//
//	T(Δ0) = (b − c − nΔ0) / √(n(2q̂ + Δ0(1−Δ0)))
//
// and q̂ is the maximum likelihood estimate of P(only B succeeds) under
// Δ = Δ0 (closed form, Tango 1998, eq. 4). T(0) is exactly z, so the interval
// excludes 0 exactly when the test rejects.
//
// Small counts (b+c < McNemarMidPBelow): given m = b+c, b is
// Binomial(m, π) with π = P(only A | discordant), and Δ = δ(2π − 1) with δ
// the probability of a discordant pair. P is the two-sided mid-p value of
// H0: π = 1/2 (Fagerland, Lydersen & Laake 2013): twice the smaller of
// P(X < k) + P(X = k)/2 over the two tails, capped at 1. The interval
// inverts the same test: [πL, πU] is the equal-tailed mid-p interval for π
// (the π0 that the one-sided mid-p tests at level α/2 do not reject; Berry &
// Armitage 1995), and the interval for Δ is the range of δ(2π − 1) over π in
// [πL, πU] and δ in the Wilson interval for (b+c)/n. Its sign is that of
// 2πL − 1 (or 2πU − 1), so it excludes 0 exactly when 1/2 is outside
// [πL, πU], that is when the mid-p test rejects. Taking δ's uncertainty into
// account keeps the interval from collapsing to [0, 0] when no pair
// disagrees (it is then ±δU) and keeps its coverage near or above the
// nominal level (checked by exact enumeration in the tests).
//
// MinP is the smallest P any split of the b+c discordant pairs could give,
// so that a caller can leave a test that cannot reject out of a
// multiple-testing family.
//
// Edge cases: b+c == 0 gives Z 0, P 1, MinP 1 and MidP true. n == 0 (which implies
// b == c == 0) makes Diff and its interval NaN. Negative counts or b+c > n
// make every float field NaN. A confidence level outside (0, 1) makes only
// DiffLo and DiffHi NaN.
func McNemar(b, c, n int64, confidence float64) McNemarResult {
	nan := math.NaN()
	r := McNemarResult{B: b, C: c, Z: nan, P: nan, MinP: nan, Diff: nan, DiffLo: nan, DiffHi: nan}
	if b < 0 || c < 0 || n < 0 || b > n || c > n-b {
		return r
	}
	m := b + c
	r.Z = 0
	if m > 0 {
		r.Z = (float64(b) - float64(c)) / math.Sqrt(float64(m))
	}
	if m < McNemarMidPBelow {
		r.MidP = true
		r.P = midPHalf(b, m)
		r.MinP = midPHalf(0, m)
	} else {
		r.P = NormalTwoSided(r.Z)
		r.MinP = NormalTwoSided(math.Sqrt(float64(m)))
	}
	if n == 0 {
		return r
	}
	r.Diff = (float64(b) - float64(c)) / float64(n)
	if !validConfidence(confidence) {
		return r
	}
	alpha := 1 - confidence
	reject := r.P < alpha
	if r.MidP {
		r.DiffLo, r.DiffHi = midPInterval(b, c, n, confidence, reject)
	} else {
		r.DiffLo, r.DiffHi = tangoInterval(b, c, n, zCritical(confidence), reject)
	}
	// The bisections search on the side of 0 the test chose; when the root
	// is within rounding of 0 they can return 0 itself. Duality is the
	// contract, so such a limit is moved off 0 by the smallest step.
	tiny := math.SmallestNonzeroFloat64
	switch {
	case reject && b > c:
		r.DiffLo = math.Max(r.DiffLo, tiny)
	case reject && c > b:
		r.DiffHi = math.Min(r.DiffHi, -tiny)
	}
	return r
}

// midPHalf is the two-sided mid-p value of b successes in m trials against
// π = 1/2: min(1, 2·(P(X < k) + P(X = k)/2)) with k = min(b, m−b), from the
// exact binomial sums of binomHalfCDF (m < 50).
func midPHalf(b, m int64) float64 {
	if m == 0 {
		return 1
	}
	k := min(b, m-b)
	below := 0.0
	if k > 0 {
		below = binomHalfCDF(k-1, m)
	}
	at := binomHalfCDF(k, m) - below
	return math.Min(1, 2*below+at)
}

// binomPMF returns P(X = k) for X ~ Binomial(m, p), for small m.
func binomPMF(k, m int64, p float64) float64 {
	coef := 1.0
	for i := int64(0); i < k; i++ {
		coef = coef * float64(m-i) / float64(i+1)
	}
	return coef * math.Pow(p, float64(k)) * math.Pow(1-p, float64(m-k))
}

// upperMid is P(X > b) + P(X = b)/2 for X ~ Binomial(m, p): increasing in p.
func upperMid(b, m int64, p float64) float64 {
	s := 0.5 * binomPMF(b, m, p)
	for k := b + 1; k <= m; k++ {
		s += binomPMF(k, m, p)
	}
	return s
}

// bisect returns the root in [lo, hi] of an increasing f, given f(lo) <= 0 <=
// f(hi), to the last bit: it halves until the midpoint is one of the ends.
// Its result lies in [lo, hi], so a bracket on one side of a point keeps the
// root there.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// midPInterval is the small-count interval of McNemar (see there). reject
// is the test's verdict, which fixes on which side of 1/2 the bisections
// search, so that duality holds to the last bit.
func midPInterval(b, c, n int64, confidence float64, reject bool) (lo, hi float64) {
	m := b + c
	half := (1 - confidence) / 2
	dLo, dHi := wilson(m, n, zCritical(confidence))
	if m == 0 {
		return -dHi, dHi
	}
	// πL: upperMid(πL) = α/2 (πL = 0 when b = 0); πU: the mirror image,
	// 1 − πU is the lower limit for c successes.
	limit := func(x int64, above bool) float64 {
		if x == 0 {
			return 0
		}
		f := func(p float64) float64 { return upperMid(x, m, p) - half }
		// The limit exceeds 1/2 exactly when this side's test rejects.
		if above {
			return bisect(f, 0.5, 1)
		}
		return bisect(f, 0, 0.5)
	}
	piL := limit(b, reject && b > c)
	piU := 1 - limit(c, reject && c > b)
	scale := func(p float64) float64 {
		if p < 0.5 {
			return (2*p - 1) * dHi
		}
		return (2*p - 1) * dLo
	}
	lo = scale(piL)
	if piU > 0.5 {
		hi = (2*piU - 1) * dHi
	} else {
		hi = (2*piU - 1) * dLo
	}
	return lo, hi
}

// tangoT is Tango's score statistic T(d) for H0: Δ = d (see McNemar), with
// the restricted maximum likelihood estimate of P(only B) in closed form.
func tangoT(b, c, n int64, d float64) float64 {
	nf, bf, cf := float64(n), float64(b), float64(c)
	num := bf - cf - nf*d
	A := 2 * nf
	B := -bf - cf + (2*nf-bf+cf)*d
	C := -cf * d * (1 - d)
	disc := math.Sqrt(math.Max(0, B*B-4*A*C))
	var q float64
	if B > 0 {
		q = -2 * C / (disc + B) // the same root without cancellation
	} else {
		q = (disc - B) / (2 * A)
	}
	v := nf * (2*q + d*(1-d))
	if !(v > 0) {
		switch {
		case num > 0:
			return math.Inf(1)
		case num < 0:
			return math.Inf(-1)
		}
		return 0
	}
	return num / math.Sqrt(v)
}

// tangoInterval is Tango's score interval {d : |T(d)| <= z}; T decreases in
// d and T(0) is the score statistic, so reject (|T(0)| > z, as decided by
// the test) fixes on which side of 0 the bisection searches.
func tangoInterval(b, c, n int64, z float64, reject bool) (lo, hi float64) {
	// lo: T(lo) = z, with −T increasing; hi: T(hi) = −z.
	fl := func(d float64) float64 { return z - tangoT(b, c, n, d) }
	fh := func(d float64) float64 { return -z - tangoT(b, c, n, d) }
	switch {
	case b == n:
		lo = bisect(fl, 0, 1)
	case reject && b > c:
		lo = bisect(fl, 0, 1)
	default:
		lo = bisect(fl, -1, 0)
	}
	switch {
	case c == n:
		hi = bisect(fh, -1, 0)
	case reject && c > b:
		hi = bisect(fh, -1, 0)
	default:
		hi = bisect(fh, 0, 1)
	}
	if b == n {
		hi = 1
	}
	if c == n {
		lo = -1
	}
	return lo, hi
}
