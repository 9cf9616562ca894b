package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHolmR(t *testing.T) {
	// want: R 4.2.2 p.adjust(p, "holm"). The products are of short decimals,
	// so a tolerance of 1e-15 relative covers float rounding.
	nan := math.NaN()
	cases := []struct {
		p, want []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.5, 0.5, 0.5}, []float64{1, 1, 1}},
		{[]float64{0.01, nan, 0.04, 0.03}, []float64{0.03, nan, 0.06, 0.06}},
		{
			[]float64{0.001, 0.002, 0.003, 0.004, 0.005, 0.1, 0.2, 0.9},
			[]float64{0.008, 0.014, 0.018, 0.020, 0.020, 0.300, 0.400, 0.900},
		},
		{[]float64{0.02, 0.001, 0.02, 0.5, 0.04}, []float64{0.080, 0.005, 0.080, 0.500, 0.080}},
		{[]float64{0.2}, []float64{0.2}},
		{[]float64{0, 1}, []float64{0, 1}},
	}
	for _, c := range cases {
		in := slices.Clone(c.p)
		got := Holm(in)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) has length %d", c.p, len(got))
		}
		for i := range got {
			checkNear(t, fmt.Sprintf("Holm(%v)[%d]", c.p, i), got[i], c.want[i], 1e-15)
		}
		for i := range in {
			if in[i] != c.p[i] && !(math.IsNaN(in[i]) && math.IsNaN(c.p[i])) {
				t.Errorf("Holm modified its input: %v", in)
			}
		}
	}
}

func TestHolmEdges(t *testing.T) {
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
	if got := Holm([]float64{}); len(got) != 0 {
		t.Errorf("Holm([]) = %v", got)
	}
	// All p-values equal: each becomes min(1, m·p).
	got := Holm([]float64{0.01, 0.01, 0.01, 0.01})
	for i, v := range got {
		checkNear(t, fmt.Sprintf("equal[%d]", i), v, 0.04, 1e-15)
	}
	// Values that are not p-values are NaN and do not count towards m:
	// this is Holm([0.01, 0.02]) = [0.02, 0.02] with NaNs interleaved.
	got = Holm([]float64{-0.1, 0.01, 1.5, 0.02, math.Inf(1), math.NaN()})
	checkNaN(t, "invalid entries", got[0], got[2], got[4], got[5])
	checkNear(t, "valid[1]", got[1], 0.02, 1e-15)
	checkNear(t, "valid[3]", got[3], 0.02, 1e-15)
}

// holmSlow is the definition of the Holm adjustment written directly:
// for the value of rank i (1-based) among m, max over ranks j <= i of
// (m − j + 1)·p(j), capped at 1, with ranks taken from a full sort.
func holmSlow(p []float64) []float64 {
	sorted := slices.Clone(p)
	slices.Sort(sorted)
	m := len(p)
	out := make([]float64, m)
	for k, v := range p {
		i := 0 // 0-based rank of v's last tie: ties share the largest bound
		for i+1 < m && sorted[i+1] <= v {
			i++
		}
		best := 0.0
		for j := 0; j <= i; j++ {
			best = math.Max(best, float64(m-j)*sorted[j])
		}
		out[k] = math.Min(1, best)
	}
	return out
}

func TestHolmMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		m := 1 + rng.IntN(30)
		p := make([]float64, m)
		for i := range p {
			p[i] = math.Pow(rng.Float64(), 3) // many small values
			if rng.IntN(5) == 0 && i > 0 {
				p[i] = p[rng.IntN(i)] // ties
			}
		}
		got, want := Holm(p), holmSlow(p)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d: Holm(%v)[%d] = %v, want %v", trial, p, i, got[i], want[i])
			}
			if got[i] < p[i] || got[i] > 1 {
				t.Fatalf("trial %d: adjusted %v outside [p, 1] for p = %v", trial, got[i], p[i])
			}
			for j := range got {
				if p[j] <= p[i] && got[j] > got[i] {
					t.Fatalf("trial %d: not monotone: p %v→%v but adjusted %v→%v", trial, p[j], p[i], got[j], got[i])
				}
			}
		}
	}
}

// HolmMirrored counts a mirrored hypothesis once: the family below is
// {0.01, 0.02, 0.04}, whose Holm values are R p.adjust(c(0.01, 0.02,
// 0.04), "holm") = 0.03, 0.04, 0.04 (Holm over all five would multiply the
// smallest by 5). The mirror of 0.01 gets 0.03 whatever its own p (the
// same test, computed from the other side, may differ in its last bits); a
// mirror without a p-value stays NaN.
func TestHolmMirrored(t *testing.T) {
	nan := math.NaN()
	p := []float64{0.01, 0.02, 0.010000000000000002, 0.04, nan}
	mirror := []int{-1, -1, 0, -1, 1}
	want := []float64{0.03, 0.04, 0.03, 0.04, nan}
	got := HolmMirrored(p, mirror)
	for i := range want {
		checkNear(t, fmt.Sprintf("HolmMirrored[%d]", i), got[i], want[i], 1e-15)
	}
	if got[2] != got[0] {
		t.Errorf("the mirror's p_holm %v is not its hypothesis's %v", got[2], got[0])
	}
	// No mirror (nil, or shorter than p): Holm itself.
	for _, m := range [][]int{nil, {-1}, {0, 1, 2}} {
		h, g := Holm(p), HolmMirrored(p, m)
		for i := range h {
			if h[i] != g[i] && !(math.IsNaN(h[i]) && math.IsNaN(g[i])) {
				t.Errorf("HolmMirrored(p, %v)[%d] = %v, Holm gives %v", m, i, g[i], h[i])
			}
		}
	}
}
