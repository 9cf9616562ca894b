package analysis_test

import (
	"fmt"

	"github.com/unosim/unosim/analysis"
)

func ExampleWilson() {
	// 81 successes in 263 trials; statsmodels
	// proportion_confint(81, 263, method='wilson') gives the same interval.
	lo, hi := analysis.Wilson(81, 263, 0.95)
	fmt.Printf("[%.4f, %.4f]\n", lo, hi)

	// No trials: no information.
	lo, hi = analysis.Wilson(0, 0, 0.95)
	fmt.Printf("[%.4f, %.4f]\n", lo, hi)
	// Output:
	// [0.2553, 0.3662]
	// [0.0000, 1.0000]
}

func ExampleHolm() {
	// R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives 0.03 0.06 0.06 0.02.
	adj := analysis.Holm([]float64{0.01, 0.04, 0.03, 0.005})
	for _, p := range adj {
		fmt.Printf("%.3f ", p)
	}
	fmt.Println()
	// Output:
	// 0.030 0.060 0.060 0.020
}

func ExampleMcNemar() {
	// Agresti (2002), Table 10.1: 150 approve only in the first survey,
	// 86 only in the second, of 1600 people.
	r := analysis.McNemar(150, 86, 1600, 0.95)
	fmt.Printf("z=%.3f p=%.2g midp=%v diff=%.3f CI=(%.3f, %.3f)\n",
		r.Z, r.P, r.MidP, r.Diff, r.DiffLo, r.DiffHi)
	// Output:
	// z=4.166 p=3.1e-05 midp=false diff=0.040 CI=(0.021, 0.059)
}

func ExampleIntHist() {
	var h analysis.IntHist
	h.Reserve(30) // Add does not allocate from here on
	for _, turns := range []int{3, 3, 5, 7, 7, 7, 8, 12, 12, 20} {
		h.Add(turns)
	}
	fmt.Println(h.N(), h.Min(), h.Max(), h.Mean(), h.Quantile(0.5))
	for _, b := range h.Bins(10) {
		fmt.Printf("%d-%d: %d\n", b.Lo, b.Hi, b.Count)
	}
	// Output:
	// 10 3 20 8.4 7
	// 0-9: 7
	// 10-19: 2
	// 20-29: 1
}
