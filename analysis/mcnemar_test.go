package analysis

import (
	"fmt"
	"math"
	"testing"
)

// waldPaired is the Wald interval the project printed before Tango's:
// (b−c)/n ± z·√((b+c) − (b−c)²/n)/n (Agresti 2002, §10.1.1).
func waldPaired(b, c, n int64) (lo, hi float64) {
	nf := float64(n)
	d := float64(b-c) / nf
	v := math.Max(0, (float64(b+c)-float64(b-c)*float64(b-c)/nf)/(nf*nf))
	h := 1.959963984540054 * math.Sqrt(v)
	return d - h, d + h
}

func mcnemarInterval(b, c, n int64) (lo, hi float64) {
	r := McNemar(b, c, n, 0.95)
	return r.DiffLo, r.DiffHi
}

// coverage is the exact coverage probability of an interval for the true
// Δ = p12 − p21, summed over every outcome (b, c, rest) of n pairs, whose
// probability is trinomial.
func coverage(n int64, p12, p21 float64, interval func(b, c, n int64) (lo, hi float64)) float64 {
	delta := p12 - p21
	lf := func(k int64) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	xlogy := func(x int64, y float64) float64 {
		if x == 0 {
			return 0
		}
		return float64(x) * math.Log(y)
	}
	cov := 0.0
	for b := int64(0); b <= n; b++ {
		for c := int64(0); b+c <= n; c++ {
			if p21 == 0 && c > 0 {
				break
			}
			r := n - b - c
			lp := lf(n) - lf(b) - lf(c) - lf(r) + xlogy(b, p12) + xlogy(c, p21) + xlogy(r, 1-p12-p21)
			if lo, hi := interval(b, c, n); lo <= delta && delta <= hi {
				cov += math.Exp(lp)
			}
		}
	}
	return cov
}

func TestMcNemarCoverage(t *testing.T) {
	// Exact coverage by enumeration. The old Wald interval's coverage is
	// given for contrast: it reproduces the review's 39%, 63% and 80% at
	// 0.5, 1 and 3 expected discordant pairs, all going one way.
	cases := []struct {
		n        int64
		p12, p21 float64
		lo, hi   float64 // bounds on our coverage
	}{
		// Small counts (mid-p side): conservative, never below 95%.
		{50, 0.01, 0, 0.95, 1},      // E[b+c] = 0.5; Wald 0.395
		{50, 0.02, 0, 0.95, 1},      // 1; Wald 0.635
		{100, 0.03, 0, 0.95, 1},     // 3; Wald 0.802
		{100, 0.05, 0.001, 0.95, 1}, // 5.1; Wald 0.878
		{30, 0.05, 0.3, 0.95, 1},    // 10.5
		// Large counts (Tango side): close to 95%.
		{100, 0.2, 0.15, 0.94, 0.96}, // 35
		{200, 0.1, 0.08, 0.94, 0.96}, // 36
		{150, 0.3, 0.1, 0.94, 0.96},  // 60
	}
	for _, c := range cases {
		got := coverage(c.n, c.p12, c.p21, mcnemarInterval)
		wald := coverage(c.n, c.p12, c.p21, waldPaired)
		if !(got >= c.lo && got <= c.hi) {
			t.Errorf("n=%d p12=%v p21=%v: coverage %.4f, want in [%v, %v] (Wald %.4f)", c.n, c.p12, c.p21, got, c.lo, c.hi, wald)
		}
	}
}

func TestMcNemarDuality(t *testing.T) {
	// The interval excludes 0 exactly when P < 1 − confidence, for every
	// table of up to 50 pairs, and for large tables around the boundary.
	check := func(b, c, n int64, conf float64) {
		r := McNemar(b, c, n, conf)
		excludes := r.DiffLo > 0 || r.DiffHi < 0
		if excludes != (r.P < 1-conf) {
			t.Fatalf("McNemar(%d, %d, %d, %v): P = %v but interval [%v, %v]", b, c, n, conf, r.P, r.DiffLo, r.DiffHi)
		}
		if !(r.DiffLo <= r.Diff && r.Diff <= r.DiffHi && r.DiffLo >= -1 && r.DiffHi <= 1) {
			t.Fatalf("McNemar(%d, %d, %d, %v): Diff %v outside [%v, %v]", b, c, n, conf, r.Diff, r.DiffLo, r.DiffHi)
		}
	}
	for _, conf := range []float64{0.95, 0.9, 0.99} {
		for n := int64(1); n <= 50; n++ {
			for b := int64(0); b <= n; b++ {
				for c := int64(0); b+c <= n; c++ {
					check(b, c, n, conf)
				}
			}
		}
		for _, n := range []int64{1000, 100000, 1 << 40} {
			for m := int64(25); m <= 300; m += 11 {
				for b := int64(0); b <= m; b++ {
					check(b, m-b, n, conf)
				}
			}
		}
	}
}

func TestMcNemarMidPFagerland(t *testing.T) {
	// Fagerland, Lydersen & Laake (2013), Table 1 and the worked example
	// of their supplement: airway hyper-responsiveness before and after
	// stem cell transplantation in 21 children (Bentur et al. 2009),
	// n12 = 1, n21 = 7. Published two-sided p-values: mid-p 0.039 (exactly
	// 2·(P(X=0) + P(X=1)/2) = 10/256 for X ~ Bin(8, 1/2)), exact
	// conditional 0.070 (18/256), asymptotic 0.034.
	r := McNemar(1, 7, 21, 0.95)
	if !r.MidP {
		t.Fatalf("McNemar(1, 7, 21) = %+v, want the mid-p test", r)
	}
	checkNear(t, "mid-p", r.P, 10.0/256, 1e-15)
	checkAbs(t, "mid-p (published)", r.P, 0.039, 5e-4)
	checkAbs(t, "asymptotic (published)", NormalTwoSided(r.Z), 0.034, 5e-4)
	checkNear(t, "Z", r.Z, -6/math.Sqrt(8), 1e-15)
	checkNear(t, "Diff", r.Diff, -6.0/21, 1e-15)
	if !(r.DiffHi < 0) {
		t.Errorf("P = %v < 0.05 but the interval [%v, %v] holds 0", r.P, r.DiffLo, r.DiffHi)
	}
	// Mid-p limits for π = P(only A | discordant), checked by their
	// definition: P(X >= 1) − P(X=1)/2 = 0.025 at πL and P(X <= 1) −
	// P(X=1)/2 = 0.025 at πU, X ~ Bin(8, π). The interval's ends are these
	// times the Wilson limits for the discordance rate 8/21.
	dLo, dHi := Wilson(8, 21, 0.95)
	piL := (r.DiffLo/dHi + 1) / 2
	piU := (r.DiffHi/dLo + 1) / 2
	pmf1 := func(p float64) float64 { return 8 * p * math.Pow(1-p, 7) }
	checkAbs(t, "upper tail at πL", 1-math.Pow(1-piL, 8)-pmf1(piL)/2, 0.025, 1e-12)
	checkAbs(t, "lower tail at πU", math.Pow(1-piU, 8)+pmf1(piU)/2, 0.025, 1e-12)

	// Symmetric tables: the mid-p value is 1 (twice a tail that holds half
	// the middle mass). Fagerland et al. give 1 − P(X=k)/2 instead, from
	// capping the exact p at 1 before subtracting; both are far from any
	// level, and ours is the one the inverted interval is dual to.
	if r := McNemar(3, 3, 20, 0.95); r.P != 1 {
		t.Errorf("McNemar(3, 3) P = %v, want 1", r.P)
	}
	// b = 0 of 10: mid-p = 2·P(X=0)/2 = 2^-10.
	checkNear(t, "McNemar(0, 10) P", McNemar(0, 10, 100, 0.95).P, 1.0/1024, 1e-15)
}

func TestMcNemarNoJumpAtSwitch(t *testing.T) {
	// Around the 5% level the mid-p value at 24 discordant pairs and the
	// asymptotic one at 25 agree closely (the old exact test and the
	// continuity-corrected chi-square differed by up to a factor 1.6 there).
	for b := int64(12); b <= 24; b++ {
		mid := McNemar(b, 24-b, 100, 0.95).P
		asy := NormalTwoSided(float64(2*b-24) / math.Sqrt(24))
		if mid > 1e-3 && math.Abs(mid-asy) > 0.15*asy+0.01 {
			t.Errorf("b=%d of 24: mid-p %v, asymptotic %v", b, mid, asy)
		}
	}
	if r := McNemar(13, 12, 100, 0.95); r.MidP || r.P != NormalTwoSided(1/5.0) {
		t.Errorf("McNemar(13, 12) = %+v, want the asymptotic test", r)
	}
}

// tangoSlow computes Tango's interval from its definition with nothing of
// tangoT: the restricted MLE of p21 under Δ = d by golden-section search on
// the multinomial log-likelihood, and each limit by bisection on a fine scan.
func tangoSlow(b, c, n int64, z float64) (lo, hi float64) {
	r := n - b - c
	ll := func(d, q float64) float64 {
		s := 0.0
		for _, t := range []struct {
			k int64
			p float64
		}{{b, q + d}, {c, q}, {r, 1 - 2*q - d}} {
			if t.k > 0 {
				s += float64(t.k) * math.Log(t.p)
			}
		}
		return s
	}
	T := func(d float64) float64 {
		a, e := math.Max(0, -d), (1-d)/2
		g := (math.Sqrt(5) - 1) / 2
		for range 200 {
			x1, x2 := e-g*(e-a), a+g*(e-a)
			if ll(d, x1) < ll(d, x2) {
				a = x1
			} else {
				e = x2
			}
		}
		q := (a + e) / 2
		return (float64(b-c) - float64(n)*d) / math.Sqrt(float64(n)*(2*q+d*(1-d)))
	}
	root := func(target float64) float64 {
		// T decreases; scan for the sign change, then bisect.
		prev := -1 + 1e-9
		for x := -1 + 1e-3; x < 1; x += 1e-3 {
			if T(x) < target {
				a, e := prev, x
				for range 100 {
					m := (a + e) / 2
					if T(m) < target {
						e = m
					} else {
						a = m
					}
				}
				return (a + e) / 2
			}
			prev = x
		}
		return 1
	}
	return root(z), root(-z)
}

func TestMcNemarTangoMatchesDefinition(t *testing.T) {
	z := zCritical(0.95)
	for _, c := range [][3]int64{{150, 86, 1600}, {20, 40, 100}, {40, 20, 160}, {6, 16, 161}, {30, 0, 40}, {25, 25, 60}, {100, 1, 200}, {13, 12, 25}} {
		reject := math.Abs(tangoT(c[0], c[1], c[2], 0)) > z
		lo, hi := tangoInterval(c[0], c[1], c[2], z, reject)
		r := McNemar(c[0], c[1], c[2], 0.95)
		if c[0]+c[1] >= McNemarMidPBelow {
			lo, hi = r.DiffLo, r.DiffHi
		}
		slo, shi := tangoSlow(c[0], c[1], c[2], z)
		checkAbs(t, fmt.Sprintf("Tango%v lo", c), lo, slo, 1e-8)
		checkAbs(t, fmt.Sprintf("Tango%v hi", c), hi, shi, 1e-8)
	}
	// No discordant pair: T(d) = −√(nd/(1−d)) for d > 0, so the limits are
	// ±z²/(n + z²) in closed form (the paired analogue of Wilson's interval
	// at 0 successes).
	for _, n := range []int64{10, 100, 12345} {
		lo, hi := tangoInterval(0, 0, n, z, false)
		want := z * z / (float64(n) + z*z)
		checkNear(t, fmt.Sprintf("Tango(0, 0, %d) hi", n), hi, want, 1e-13)
		checkNear(t, fmt.Sprintf("Tango(0, 0, %d) lo", n), lo, -want, 1e-13)
	}
	// At d = 0 the score statistic is McNemar's uncorrected z.
	checkNear(t, "T(0)", tangoT(150, 86, 1600, 0), 64/math.Sqrt(236), 1e-14)
}

func TestMcNemarAgresti(t *testing.T) {
	// Agresti (2002), Categorical Data Analysis, Table 10.1: approval in two
	// surveys of the same 1600 people: 794 approve both times, 150 approve
	// then disapprove, 86 disapprove then approve, 570 disapprove both.
	// Agresti §10.1.1: z² = (86−150)²/(86+150) = 17.36 (uncorrected), so
	// z = 4.17, P < 0.0001; difference 0.59 − 0.55 = 0.04.
	r := McNemar(150, 86, 1600, 0.95)
	if r.MidP || r.B != 150 || r.C != 86 {
		t.Errorf("McNemar(150, 86) = %+v, want the asymptotic test", r)
	}
	checkAbs(t, "z² (published)", r.Z*r.Z, 17.36, 5e-3)
	checkNear(t, "Z", r.Z, 64/math.Sqrt(236), 1e-15)
	checkNear(t, "P", r.P, math.Erfc(64/math.Sqrt(236)/math.Sqrt2), 1e-15)
	checkNear(t, "Diff", r.Diff, 0.04, 1e-15)
	// Agresti's Wald interval is (0.021, 0.059); the score interval is
	// close to it for counts this large.
	checkAbs(t, "DiffLo", r.DiffLo, 0.021, 1e-3)
	checkAbs(t, "DiffHi", r.DiffHi, 0.059, 1e-3)
}

func TestMcNemarEdges(t *testing.T) {
	// No discordant pair: P = 1 and a non-degenerate interval ±δU, δU the
	// Wilson upper limit of 0 discordant pairs of 50: z²/(50 + z²).
	r := McNemar(0, 0, 50, 0.95)
	z := zCritical(0.95)
	if !r.MidP || r.Z != 0 || r.P != 1 || r.Diff != 0 {
		t.Errorf("McNemar(0, 0, 50) = %+v", r)
	}
	checkNear(t, "McNemar(0, 0, 50) hi", r.DiffHi, z*z/(50+z*z), 1e-13)
	checkNear(t, "McNemar(0, 0, 50) lo", r.DiffLo, -z*z/(50+z*z), 1e-13)
	// Every pair discordant in A's favour: the interval reaches 1.
	for _, n := range []int64{10, 30} {
		r = McNemar(n, 0, n, 0.95)
		if r.Diff != 1 || r.DiffHi != 1 || !(r.DiffLo > 0 && r.DiffLo < 1) {
			t.Errorf("McNemar(%d, 0, %d) = %+v, want Diff 1 and an interval (lo, 1]", n, n, r)
		}
		r = McNemar(0, n, n, 0.95)
		if r.Diff != -1 || r.DiffLo != -1 || !(r.DiffHi < 0 && r.DiffHi > -1) {
			t.Errorf("McNemar(0, %d, %d) = %+v", n, n, r)
		}
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
		checkNaN(t, fmt.Sprintf("McNemar%v", c), r.Z, r.P, r.Diff, r.DiffLo, r.DiffHi)
	}
	// An invalid confidence level spoils only the interval.
	for _, conf := range badConfidences {
		r := McNemar(150, 86, 1600, conf)
		checkNaN(t, fmt.Sprintf("McNemar(conf=%v) interval", conf), r.DiffLo, r.DiffHi)
		checkNear(t, "Diff", r.Diff, 0.04, 1e-15)
	}
	// Huge counts neither overflow nor lose the test.
	r = McNemar(1<<40+1000000, 1<<40, 1<<45, 0.95)
	if r.MidP || !(r.P > 0 && r.P < 1) || !(r.DiffLo < r.Diff && r.Diff < r.DiffHi) {
		t.Errorf("McNemar(huge) = %+v", r)
	}
	// The sign: A better than B gives a positive effect (b counts A-only).
	if r := McNemar(30, 10, 100, 0.95); !(r.Diff > 0 && r.Z > 0 && r.DiffLo > 0) {
		t.Errorf("McNemar(30, 10) = %+v, want a positive effect", r)
	}
}

// MinP is the smallest p-value any split of the b+c discordant pairs can
// give: all of them one way. Expected values, exact or from Python:
//
//	mid-p, m discordant pairs all one way: 2·(P(X = 0)/2) = 2^-m
//	  (fractions.Fraction(1, 2**m)); m = 4: 0.0625, m = 5: 0.03125.
//	score test, m >= 25: math.erfc(math.sqrt(m)/math.sqrt(2));
//	  m = 25: math.erfc(5/math.sqrt(2)) = 5.733031437583892e-07.
//
// So below 5 discordant pairs the mid-p test cannot reject at 5%.
func TestMcNemarMinP(t *testing.T) {
	for _, c := range []struct {
		b, c, n int64
		minP    float64
	}{
		{0, 0, 100, 1},
		{1, 0, 100, 0.5},
		{2, 1, 100, 0.125},
		{3, 1, 100, 0.0625},
		{4, 1, 100, 0.03125},
		{12, 12, 100, 1.0 / (1 << 24)},
		{13, 12, 100, 5.733031437583892e-07},
	} {
		r := McNemar(c.b, c.c, c.n, 0.95)
		if math.Abs(r.MinP-c.minP) > 1e-15*c.minP {
			t.Errorf("McNemar(%d, %d, %d).MinP = %v, want %v", c.b, c.c, c.n, r.MinP, c.minP)
		}
		if r.P < r.MinP {
			t.Errorf("McNemar(%d, %d, %d): P %v below MinP %v", c.b, c.c, c.n, r.P, r.MinP)
		}
	}
	if r := McNemar(-1, 0, 10, 0.95); !math.IsNaN(r.MinP) {
		t.Errorf("invalid counts: MinP %v, want NaN", r.MinP)
	}
}
