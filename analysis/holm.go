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

// HolmMirrored is [Holm] for a family in which some hypotheses appear twice,
// as mirror images of one test: with 2 players, when every game has a
// single winner, one side's win rate is 1 minus the other's, and testing
// both against 1/2 tests one hypothesis. mirror[i] = j (j ≠ i, and j not
// itself a mirror) says that hypothesis i is hypothesis j: i does not count
// towards m, and its adjusted value is j's (NaN if p[i] is not a p-value).
// A negative mirror[i], or an i past the end of mirror, is a hypothesis of
// its own. With no mirror it is Holm(p).
func HolmMirrored(p []float64, mirror []int) []float64 {
	of := func(i int) int {
		if i < len(mirror) && mirror[i] >= 0 && mirror[i] != i {
			return mirror[i]
		}
		return -1
	}
	q := slices.Clone(p)
	for i := range q {
		if of(i) >= 0 {
			q[i] = math.NaN() // not in the family: Holm leaves NaN out
		}
	}
	out := Holm(q)
	for i := range out {
		if j := of(i); j >= 0 && p[i] >= 0 && p[i] <= 1 {
			out[i] = out[j]
		}
	}
	return out
}
