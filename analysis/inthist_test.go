package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// rData is a small integer sample used for the R reference values below.
var rData = []int{3, 3, 5, 7, 7, 7, 8, 12, 12, 20}

func histOf(vals []int) *IntHist {
	var h IntHist
	for _, v := range vals {
		h.Add(v)
	}
	return &h
}

// expand returns the sorted observations of h as float64s.
func expand(h *IntHist) []float64 {
	var x []float64
	for v, c := range h.Counts {
		for range c {
			x = append(x, float64(v))
		}
	}
	return x
}

func TestIntHistR(t *testing.T) {
	// R 4.2.2:
	//   x <- c(3,3,5,7,7,7,8,12,12,20); tt <- t.test(x)
	//   mean(x) = 8.4, sd(x) = 5.12510162500869, tt$statistic = 5.18294743967528,
	//   tt$p.value = 5.77068135340843e-04, tt$conf.int = 4.73372315874856 12.0662768412514
	//   quantile(x, c(0, .1, .25, .5, .7, .75, .9, 1), type = 1) = 3 3 5 7 8 12 12 20
	h := histOf(rData)
	if h.N() != 10 || h.Min() != 3 || h.Max() != 20 || h.OutOfRange != 0 {
		t.Errorf("N, Min, Max, OutOfRange = %d, %d, %d, %d", h.N(), h.Min(), h.Max(), h.OutOfRange)
	}
	checkNear(t, "Mean", h.Mean(), 8.4, 1e-15)
	checkNear(t, "SD", h.SD(), 5.12510162500869, 1e-14)
	r := h.MeanCI(0.95)
	checkNear(t, "MeanCI.T", r.T, 5.18294743967528, 1e-13)
	checkNear(t, "MeanCI.P", r.P, 5.77068135340843e-04, 1e-10)
	checkNear(t, "MeanCI.Lo", r.Lo, 4.73372315874856, 1e-13)
	checkNear(t, "MeanCI.Hi", r.Hi, 12.0662768412514, 1e-13)
	ps := []float64{0, 0.1, 0.25, 0.5, 0.7, 0.75, 0.9, 1}
	want := []float64{3, 3, 5, 7, 8, 12, 12, 20}
	for i, p := range ps {
		if got := h.Quantile(p); got != want[i] {
			t.Errorf("Quantile(%v) = %v, want %v", p, got, want[i])
		}
	}
}

func TestIntHistMeanCILarge(t *testing.T) {
	// A million observations, df = 999999 > 4e5: the asymptotic t branch.
	// R 4.2.2:
	//   x <- rep(c(7,8,9,10,30), c(100000,250000,400000,249999,1)); tt <- t.test(x)
	//   sd(x) = 0.92760382709908018, tt$conf.int = 8.7982019277064367 8.8018380722935756,
	//   tt$p.value = 0 (t = 9486.8301993972364)
	// The exact mean is 8800020/1000000 = 8.80002; R's mean() prints
	// 8.8000200000000053, one ulp-scale rounding away (tolerance 1e-15).
	var h IntHist
	h.Reserve(30)
	for _, vc := range [][2]int{{7, 100000}, {8, 250000}, {9, 400000}, {10, 249999}, {30, 1}} {
		for range vc[1] {
			h.Add(vc[0])
		}
	}
	if h.Mean() != 8.80002 {
		t.Errorf("Mean = %.17g, want exactly the double nearest 8.80002", h.Mean())
	}
	r := h.MeanCI(0.95)
	checkNear(t, "SD", r.SD, 0.92760382709908018, 1e-14)
	checkNear(t, "Lo", r.Lo, 8.7982019277064367, 1e-14)
	checkNear(t, "Hi", r.Hi, 8.8018380722935756, 1e-14)
	checkNear(t, "T", r.T, 9486.8301993972364, 1e-12)
	if r.P != 0 {
		t.Errorf("P = %v, want 0", r.P)
	}
}

func TestIntHistExactMoments(t *testing.T) {
	// Counts so large that Σ v·c and Σ v²·c overflow int64: half of 2^51
	// observations at 0 and half at 2^20. The mean is exactly 2^19 and the
	// sample SD is 2^19·√(N/(N−1)) with N = 2^51, which rounds to 2^19·(1+2^-52).
	h := &IntHist{Counts: make([]int64, 1<<20+1)}
	h.Counts[0] = 1 << 50
	h.Counts[1<<20] = 1 << 50
	if h.Mean() != 1<<19 {
		t.Errorf("Mean = %v, want 2^19", h.Mean())
	}
	checkNear(t, "SD", h.SD(), 1<<19, 1e-15)
	if h.Quantile(0.5) != 0 || h.Quantile(math.Nextafter(0.5, 1)) != 1<<20 {
		t.Errorf("median = %v, just above = %v", h.Quantile(0.5), h.Quantile(math.Nextafter(0.5, 1)))
	}
}

func TestIntHistQuantileMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 50 {
		var h IntHist
		n := 1 + rng.IntN(200)
		spread := 1 + rng.IntN(60)
		for range n {
			h.Add(20 + rng.IntN(spread)) // leading zero counts below 20
		}
		x := expand(&h)
		ps := []float64{0, 1, 0.5, 0.25, 0.75, 0.1, 0.9, 0.01, 0.99, math.Nextafter(1, 0), math.SmallestNonzeroFloat64}
		for k := 0; k <= n; k++ { // exact hits p = k/N and their neighbours
			p := float64(k) / float64(n)
			ps = append(ps, p, math.Nextafter(p, 0), math.Nextafter(p, 1))
		}
		for range 20 {
			ps = append(ps, rng.Float64())
		}
		for _, p := range ps {
			if !(p >= 0 && p <= 1) {
				continue
			}
			got, want := h.Quantile(p), stat.Quantile(p, stat.Empirical, x, nil)
			if got != want {
				t.Fatalf("trial %d: Quantile(%v) = %v, gonum %v (N = %d)", trial, p, got, want, n)
			}
		}
		checkNear(t, "Mean vs gonum", h.Mean(), stat.Mean(x, nil), 1e-13)
		checkNear(t, "SD vs gonum", h.SD(), stat.StdDev(x, nil), 1e-12)
	}
}

// FuzzIntHistQuantile checks Quantile against gonum's stat.Quantile on the
// expanded data (the slow twin) for arbitrary small histograms.
func FuzzIntHistQuantile(f *testing.F) {
	f.Add([]byte{3, 3, 5, 7, 7, 7, 8, 12, 12, 20}, 0.7)
	f.Add([]byte{0}, 0.0)
	f.Add([]byte{255, 0}, 0.5)
	f.Fuzz(func(t *testing.T, vals []byte, p float64) {
		var h IntHist
		for _, v := range vals {
			h.Add(int(v))
		}
		got := h.Quantile(p)
		if len(vals) == 0 || !(p >= 0 && p <= 1) {
			if !math.IsNaN(got) {
				t.Fatalf("Quantile(%v) of %d values = %v, want NaN", p, len(vals), got)
			}
			return
		}
		if want := stat.Quantile(p, stat.Empirical, expand(&h), nil); got != want {
			t.Fatalf("Quantile(%v) = %v, gonum %v", p, got, want)
		}
	})
}

func TestIntHistMergeOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vals := make([]int, 20000)
	for i := range vals {
		vals[i] = rng.IntN(50) + rng.IntN(50)*rng.IntN(8)
	}
	whole := histOf(vals)
	shards := make([]IntHist, 5)
	for _, v := range vals {
		shards[rng.IntN(len(shards))].Add(v)
	}
	var fwd, rev IntHist
	for i := range shards {
		fwd.Merge(&shards[i])
		rev.Merge(&shards[len(shards)-1-i])
	}
	for _, m := range []*IntHist{&fwd, &rev} {
		if !m.Equal(whole) || !whole.Equal(m) {
			t.Fatal("merged histogram differs from the whole")
		}
		if m.Mean() != whole.Mean() || m.SD() != whole.SD() || m.N() != whole.N() ||
			m.Quantile(0.9) != whole.Quantile(0.9) || m.MeanCI(0.95) != whole.MeanCI(0.95) {
			t.Fatal("statistics depend on merge order")
		}
	}
	// The merged histogram agrees with a direct computation.
	x := make([]float64, len(vals))
	for i, v := range vals {
		x[i] = float64(v)
	}
	checkNear(t, "Mean", whole.Mean(), stat.Mean(x, nil), 1e-13)
}

func TestIntHistAddDoesNotAllocate(t *testing.T) {
	var h IntHist
	h.Reserve(500)
	v := 0
	if n := testing.AllocsPerRun(100, func() {
		h.Add(v % 501)
		v += 37
	}); n != 0 {
		t.Errorf("Add after Reserve allocates %v times", n)
	}
	// Out-of-range values do not allocate either.
	if n := testing.AllocsPerRun(100, func() { h.Add(-1); h.Add(IntHistMaxValue + 1) }); n != 0 {
		t.Errorf("Add(out of range) allocates %v times", n)
	}
	// Growing past the capacity keeps what was counted.
	before := h.Clone()
	h.Add(10000)
	if h.Counts[10000] != 1 || h.N() != before.N()+1 || !slices.Equal(h.Counts[:501], before.Counts[:501]) {
		t.Error("growing lost counts")
	}
}

func TestIntHistEdges(t *testing.T) {
	// Empty (zero value and nil): defined values, no panic.
	for _, h := range []*IntHist{{}, nil} {
		if h.N() != 0 || h.Min() != -1 || h.Max() != -1 || h.Bins(1) != nil {
			t.Errorf("empty %v: N %d Min %d Max %d", h, h.N(), h.Min(), h.Max())
		}
		checkNaN(t, "empty", h.Mean(), h.SD(), h.Quantile(0.5))
		r := h.MeanCI(0.95)
		checkNaN(t, "empty MeanCI", r.Mean, r.SD, r.SE, r.Lo, r.Hi, r.T, r.P)
		if !h.Equal(&IntHist{}) || !h.Equal(nil) {
			t.Error("empty histograms not Equal")
		}
	}

	// One observation: mean and quantiles defined, spread not.
	h := histOf([]int{42})
	if h.Mean() != 42 || h.Quantile(0) != 42 || h.Quantile(1) != 42 {
		t.Errorf("single: Mean %v", h.Mean())
	}
	checkNaN(t, "single SD", h.SD())

	// Values outside [0, IntHistMaxValue] are counted apart.
	h = histOf([]int{1, -1, 2, -1000, IntHistMaxValue + 1, math.MaxInt, math.MinInt})
	if h.N() != 2 || h.OutOfRange != 5 || h.Max() != 2 || h.Mean() != 1.5 {
		t.Errorf("out of range: N %d OutOfRange %d Max %d", h.N(), h.OutOfRange, h.Max())
	}
	if h.Equal(histOf([]int{1, 2})) {
		t.Error("Equal ignores OutOfRange")
	}

	// Quantile with p outside [0, 1].
	for _, p := range []float64{-0.1, 1.1, math.NaN(), math.Inf(1)} {
		checkNaN(t, fmt.Sprintf("Quantile(%v)", p), h.Quantile(p))
	}

	// All observations equal: SD 0, interval a point, T = Inf.
	h = histOf([]int{5, 5, 5, 5})
	r := h.MeanCI(0.95)
	if h.SD() != 0 || r.Lo != 5 || r.Hi != 5 || !math.IsInf(r.T, 1) || r.P != 0 {
		t.Errorf("constant: SD %v, MeanCI %+v", h.SD(), r)
	}

	// Equal ignores capacity and trailing zeros; Merge(nil) does nothing;
	// merging into itself doubles.
	a := histOf([]int{1, 2, 3})
	b := &IntHist{Counts: []int64{0, 1, 1, 1, 0, 0, 0}}
	b.Reserve(1000)
	if !a.Equal(b) || !b.Equal(a) {
		t.Error("Equal depends on trailing zeros or capacity")
	}
	a.Merge(nil)
	a.Merge(a)
	if !a.Equal(histOf([]int{1, 1, 2, 2, 3, 3})) {
		t.Errorf("self-merge: %v", a.Counts)
	}
	if a.Equal(histOf([]int{1, 1, 2, 2, 3})) {
		t.Error("Equal misses a difference")
	}

	// Reserve with a negative value is a no-op; Clone is independent.
	a.Reserve(-5)
	c := a.Clone()
	c.Add(7)
	if a.Equal(c) {
		t.Error("Clone shares Counts")
	}
}

func TestIntHistBins(t *testing.T) {
	h := histOf(rData) // 3 3 5 7 7 7 8 12 12 20
	cases := []struct {
		width int
		want  []Bin
	}{
		{5, []Bin{{0, 4, 2}, {5, 9, 5}, {10, 14, 2}, {15, 19, 0}, {20, 24, 1}}},
		{10, []Bin{{0, 9, 7}, {10, 19, 2}, {20, 29, 1}}},
		{100, []Bin{{0, 99, 10}}},
		{4, []Bin{{0, 3, 2}, {4, 7, 4}, {8, 11, 1}, {12, 15, 2}, {16, 19, 0}, {20, 23, 1}}},
		{0, nil},
		{-3, nil},
	}
	for _, c := range cases {
		if got := h.Bins(c.width); !slices.Equal(got, c.want) {
			t.Errorf("Bins(%d) = %v, want %v", c.width, got, c.want)
		}
	}
	// Width 1: one bin per value from Min to Max, equal to Counts.
	b := h.Bins(1)
	if len(b) != 18 || b[0] != (Bin{3, 3, 2}) || b[17] != (Bin{20, 20, 1}) {
		t.Errorf("Bins(1) = %v", b)
	}
	var total int64
	for _, x := range b {
		total += x.Count
		if x.Count != h.Counts[x.Lo] {
			t.Errorf("Bins(1) %v, Counts %d", x, h.Counts[x.Lo])
		}
	}
	if total != h.N() {
		t.Errorf("Bins(1) total %d, N %d", total, h.N())
	}
	// A huge width does not overflow.
	if got := h.Bins(math.MaxInt); len(got) != 1 || got[0] != (Bin{0, math.MaxInt - 1, 10}) {
		t.Errorf("Bins(MaxInt) = %v", got)
	}
}
