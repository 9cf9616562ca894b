package analysis

import (
	"cmp"
	"math"
	"slices"
)

// Holm returns Holm–Bonferroni step-down adjusted p-values (Holm 1979) for
// the family p, in the same order as p. The input is not modified; the
// result is a new slice of the same length.
//
// With the m valid p-values sorted as p(1) <= … <= p(m), the adjusted values
// are
//
//	p̃(i) = min(1, max over j <= i of (m − j + 1)·p(j)),
//
// so they are monotone in p and never exceed 1. Rejecting every hypothesis
// whose adjusted p-value is at most α controls the family-wise error rate at
// α. This is R p.adjust(p, "holm") (same algorithm: sort, multiply, cumulative
// maximum, cap at 1); ties get equal adjusted values.
//
// Edge cases: an empty p gives an empty result. A NaN, or a value outside
// [0, 1], is not a p-value: its result is NaN and it does not count towards m,
// as R p.adjust does for NA.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		if v >= 0 && v <= 1 {
			idx = append(idx, i)
		} else {
			out[i] = math.NaN()
		}
	}
	// A stable sort keeps the result a deterministic function of p; the
	// order among tied values does not change the result anyway.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	m := len(idx)
	running := 0.0
	for rank, i := range idx {
		running = math.Max(running, float64(m-rank)*p[i])
		out[i] = math.Min(1, running)
	}
	return out
}
