package analysis

import (
	"math"
	"math/big"
)

// IntHist is an exact histogram of non-negative integer outcomes (game
// length in turns, cards drawn, points). Workers each fill their own and
// merge them: since it holds only integer counts, the merged histogram, and
// every statistic computed from it, is the same for any split of the data and
// any merge order.
//
// The zero value is an empty histogram ready to use. Counts grows as needed;
// once it has the capacity for the largest value (see [IntHist.Reserve]),
// Add does not allocate. Copying an IntHist with = shares Counts: use
// [IntHist.Clone] for an independent copy. Add, Reserve and Merge need a
// non-nil receiver; the read-only methods treat a nil *IntHist as empty.
type IntHist struct {
	// Counts[v] is the number of observations equal to v. Its length is
	// at least 1 + the largest value observed; trailing zeros carry no
	// meaning (Equal ignores them).
	Counts []int64
	// OutOfRange counts the calls of Add with a value outside
	// [0, IntHistMaxValue]. Such values are outside the histogram's domain:
	// they are counted here, so that a caller can assert OutOfRange == 0,
	// and are excluded from N and every statistic.
	OutOfRange int64
}

// IntHistMaxValue is the largest value an [IntHist] records. It bounds the
// memory a histogram can take (8 bytes per value up to the largest one seen,
// here at most 128 MiB) so that a wild value is counted in OutOfRange rather
// than exhausting memory.
const IntHistMaxValue = 1<<24 - 1

// Reserve makes room for values up to maxValue, so that Add(v) for any
// 0 <= v <= maxValue will not allocate. It does not change the counts.
// A negative maxValue does nothing; one above IntHistMaxValue reserves
// room up to IntHistMaxValue.
func (h *IntHist) Reserve(maxValue int) {
	maxValue = min(maxValue, IntHistMaxValue)
	if maxValue < 0 || maxValue < cap(h.Counts) {
		return
	}
	s := make([]int64, len(h.Counts), maxValue+1)
	copy(s, h.Counts)
	h.Counts = s
}

// Add records one observation of v. A v outside [0, IntHistMaxValue] is not
// recorded in Counts but counted in OutOfRange. Add allocates only when
// v >= cap(Counts).
func (h *IntHist) Add(v int) {
	if uint(v) > IntHistMaxValue {
		h.OutOfRange++
		return
	}
	if v >= len(h.Counts) {
		h.grow(v)
	}
	h.Counts[v]++
}

// grow extends Counts so that v is a valid index, with zero counts for the
// new values, reallocating (with at least doubled capacity) only when v is
// beyond the capacity.
func (h *IntHist) grow(v int) {
	old := len(h.Counts)
	if v < cap(h.Counts) {
		h.Counts = h.Counts[:v+1]
		clear(h.Counts[old:])
		return
	}
	s := make([]int64, v+1, max(v+1, min(2*cap(h.Counts), IntHistMaxValue+1)))
	copy(s, h.Counts)
	h.Counts = s
}

// Merge adds the observations of o to h. Merging a nil o does nothing.
func (h *IntHist) Merge(o *IntHist) {
	if o == nil {
		return
	}
	h.OutOfRange += o.OutOfRange
	m := o.Max()
	if m < 0 {
		return
	}
	if m >= len(h.Counts) {
		h.grow(m)
	}
	for v, c := range o.Counts[:m+1] {
		h.Counts[v] += c
	}
}

// Clone returns an independent copy of h.
func (h *IntHist) Clone() *IntHist {
	if h == nil {
		return &IntHist{}
	}
	return &IntHist{Counts: append([]int64(nil), h.Counts...), OutOfRange: h.OutOfRange}
}

// N returns the number of observations recorded in Counts (OutOfRange not
// included).
func (h *IntHist) N() int64 {
	if h == nil {
		return 0
	}
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Min returns the smallest observed value, or -1 if h is empty.
func (h *IntHist) Min() int {
	if h == nil {
		return -1
	}
	for v, c := range h.Counts {
		if c != 0 {
			return v
		}
	}
	return -1
}

// Max returns the largest observed value, or -1 if h is empty.
func (h *IntHist) Max() int {
	if h == nil {
		return -1
	}
	for v := len(h.Counts) - 1; v >= 0; v-- {
		if h.Counts[v] != 0 {
			return v
		}
	}
	return -1
}

// moments returns n = Σ c_v, s1 = Σ v·c_v and s2 = Σ v²·c_v as exact
// integers, iterating the values in increasing order.
func (h *IntHist) moments() (n int64, s1, s2 *big.Int) {
	s1, s2 = new(big.Int), new(big.Int)
	if h == nil {
		return 0, s1, s2
	}
	var t, bv big.Int
	for v, c := range h.Counts {
		if c == 0 {
			continue
		}
		n += c
		bv.SetInt64(int64(v))
		t.SetInt64(c)
		t.Mul(&t, &bv)
		s1.Add(s1, &t)
		t.Mul(&t, &bv)
		s2.Add(s2, &t)
	}
	return n, s1, s2
}

// Mean returns the mean of the observations: the exact rational mean
// Σ v·c_v / N correctly rounded to float64. It is NaN if h is empty.
func (h *IntHist) Mean() float64 {
	n, s1, _ := h.moments()
	if n == 0 {
		return math.NaN()
	}
	m, _ := new(big.Rat).SetFrac(s1, big.NewInt(n)).Float64()
	return m
}

// variance returns the sample variance (divisor N−1), computed exactly as
// (N·Σv²c − (Σvc)²) / (N(N−1)) and correctly rounded; NaN for N < 2.
func (h *IntHist) variance() float64 {
	n, s1, s2 := h.moments()
	if n < 2 {
		return math.NaN()
	}
	bn := big.NewInt(n)
	num := new(big.Int).Mul(bn, s2)
	num.Sub(num, s1.Mul(s1, s1))
	den := new(big.Int).Mul(bn, big.NewInt(n-1))
	v, _ := new(big.Rat).SetFrac(num, den).Float64()
	return v
}

// SD returns the sample standard deviation (divisor N−1): the square root of
// the exact sample variance correctly rounded to float64. It is NaN if
// N < 2.
func (h *IntHist) SD() float64 {
	return math.Sqrt(h.variance())
}

// MeanCI returns the Student t confidence interval for the mean (N−1
// degrees of freedom; for the large N of a simulation it coincides with the
// normal interval), with the t test of mean == 0 in T and P. See [MeanCI] for
// the edge cases.
func (h *IntHist) MeanCI(confidence float64) MeanCI {
	return meanCI(h.N(), h.Mean(), h.variance(), confidence)
}

// Quantile returns the p-quantile of the observations under the inverse of
// the empirical distribution function (Hyndman & Fan 1996, definition 1):
// the smallest observed value v such that at least p·N observations are
// <= v. Quantile(0) is Min and Quantile(1) is Max; there is no
// interpolation, so the result is always an observed value.
//
// It is identical to gonum stat.Quantile(p, stat.Empirical, x, nil) on the
// expanded sorted data x, including its floating-point comparison
// cumulative count >= p·N, and agrees with R quantile(x, p, type=1).
// It is NaN if h is empty or p is outside [0, 1] (or NaN).
func (h *IntHist) Quantile(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	n := h.N()
	if n == 0 {
		return math.NaN()
	}
	target := p * float64(n)
	var cum int64
	for v, c := range h.Counts {
		if c == 0 {
			continue
		}
		cum += c
		if float64(cum) >= target {
			return float64(v)
		}
	}
	return float64(h.Max()) // unreachable: cum reaches n >= p·n
}

// Equal reports whether h and o hold the same observations: equal counts for
// every value (trailing zeros and capacity do not matter) and equal
// OutOfRange.
// A nil *IntHist equals an empty one.
func (h *IntHist) Equal(o *IntHist) bool {
	var a, b []int64
	var na, nb int64
	if h != nil {
		a, na = h.Counts, h.OutOfRange
	}
	if o != nil {
		b, nb = o.Counts, o.OutOfRange
	}
	if na != nb {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	for v, c := range a {
		var d int64
		if v < len(b) {
			d = b[v]
		}
		if c != d {
			return false
		}
	}
	return true
}

// Bin is one bar of an aggregated histogram: Count observations with values
// in [Lo, Hi], both bounds inclusive.
type Bin struct {
	Lo    int   `json:"lo"`
	Hi    int   `json:"hi"`
	Count int64 `json:"count"`
}

// Bins aggregates the histogram into bins of width consecutive values,
// aligned to multiples of width: [0, width−1], [width, 2·width−1], …. The
// result runs from the bin holding Min to the bin holding Max, including
// empty bins in between, so it can be plotted as is. Bins(1) gives one bin
// per value from Min to Max. It returns nil if h is empty or width < 1.
func (h *IntHist) Bins(width int) []Bin {
	lo, hi := h.Min(), h.Max()
	if lo < 0 || width < 1 {
		return nil
	}
	first, last := lo/width, hi/width
	bins := make([]Bin, last-first+1)
	for i := range bins {
		start := (first + i) * width
		bins[i] = Bin{Lo: start, Hi: start + (width - 1)}
	}
	for v := lo; v <= hi; v++ {
		bins[v/width-first].Count += h.Counts[v]
	}
	return bins
}
