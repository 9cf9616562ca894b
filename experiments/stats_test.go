package experiments

import (
	"math"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// pairIndex is the index in e.Pairs of the first pair of cells labelled a and b.
func pairIndex(t *testing.T, e *Experiment, a, b string) int {
	t.Helper()
	for k, p := range e.Pairs {
		if e.Cells[p.A].Label == a && e.Cells[p.B].Label == b {
			return k
		}
	}
	t.Fatalf("no pair %s vs %s", a, b)
	return -1
}

func TestHolmFamilyLeavesOutUntestableAndRepeats(t *testing.T) {
	e := mustParse(t, `name: holm
games: 100
grids:
  - options:
      official: {}
      a: {stack-draw-two: true}
      b: {deflect-skip: true}
      c: {seven-zero: true}
      d: {deck: "classic,wild-swap-hands=4"}
compare:
  - axis: options
    baseline: official
    metrics: [first-player]
  - axis: options
    baseline: official
    metrics: [first-player]
  - axis: options
    baseline: a
    metrics: [first-player]
`)
	r := emptyResult(e)
	for i := range r.Cells {
		r.Cells[i].Stats = sim.NewStats(&e.Cells[i].Config)
	}
	set := func(a, b string, tab [4]int64) {
		for k, p := range e.Pairs {
			if e.Cells[p.A].Label == a && e.Cells[p.B].Label == b {
				r.Pairs[k].N, r.Pairs[k].First = 100, tab
			}
		}
	}
	set("a", "official", [4]int64{10, 30, 10, 50}) // 40 discordant: score test, z = 20/√40
	set("b", "official", [4]int64{40, 0, 0, 60})   // no discordant pair
	set("c", "official", [4]int64{20, 12, 4, 64})  // 16 discordant: mid-p
	set("d", "official", [4]int64{30, 0, 0, 70})   // no discordant pair; another deck
	set("official", "a", [4]int64{10, 10, 30, 50}) // the mirror of a vs official
	set("b", "a", [4]int64{0, 5, 25, 70})          // 30 discordant: z = −20/√30
	// c vs a and d vs a: no game recorded, so no discordant pair.

	tests := r.Tests()
	byName := map[string]Test{}
	for _, tt := range tests {
		if _, dup := byName[tt.Name]; dup {
			t.Errorf("%s listed twice", tt.Name)
		}
		byName[tt.Name] = tt
	}
	// a vs official, b, c, d vs official; b, c, d vs a; the repeat and the
	// mirror are merged into a vs official.
	if len(tests) != 7 {
		t.Fatalf("%d tests, want 7: %+v", len(tests), tests)
	}
	if _, ok := byName["official vs a (options)"]; ok {
		t.Error("the mirrored comparison is tested again")
	}
	av := byName["a vs official (options)"]
	if !strings.Contains(av.Note, "mirrored") || !strings.Contains(av.Note, "declared again") {
		t.Errorf("note %q, want the repeat and the mirror named", av.Note)
	}
	for _, name := range []string{"b vs official (options)", "d vs official (options)", "c vs a (options)", "d vs a (options)"} {
		tt := byName[name]
		if !strings.Contains(tt.NotTestable, "no discordant pairs") || !math.IsNaN(tt.P) || !math.IsNaN(tt.PHolm) {
			t.Errorf("%s: not testable %q, P %v, Holm %v; want not testable and out of the family", name, tt.NotTestable, tt.P, tt.PHolm)
		}
	}
	if n := byName["d vs official (options)"].Note; !strings.Contains(n, "do not share deals") || !strings.Contains(n, "deck") {
		t.Errorf("d vs official: note %q, want the deck named", n)
	}
	if n := byName["c vs official (options)"].Note; strings.Contains(n, "deals") {
		t.Errorf("c vs official: note %q, want no deck note (same deck)", n)
	}
	// The family is the three testable comparisons. P-values from Python's
	// math.erfc and exact binomial sums:
	//   a vs official: erfc(√5)               = 0.0015654022580025488
	//   c vs official: mid-p 3214/65536        = 0.049041748046875
	//   b vs a:        erfc(20/√30/√2)         = 0.0002607296328553168
	// Holm over m = 3: 3·0.000260729… = 0.0007821888985659503,
	// max(that, 2·0.001565402…) = 0.0031308045160050976, max(that, 0.049…).
	want := []struct {
		name    string
		p, holm float64
	}{
		{"a vs official (options)", 0.0015654022580025488, 0.0031308045160050976},
		{"c vs official (options)", 0.049041748046875, 0.049041748046875},
		{"b vs a (options)", 0.0002607296328553168, 0.0007821888985659503},
	}
	for _, w := range want {
		tt := byName[w.name]
		if tt.NotTestable != "" || math.Abs(tt.P-w.p) > 1e-14*w.p || math.Abs(tt.PHolm-w.holm) > 1e-14*w.holm {
			t.Errorf("%s: P %v Holm %v (%q), want %v and %v", w.name, tt.P, tt.PHolm, tt.NotTestable, w.p, w.holm)
		}
	}
	// The effect's sign: A minus baseline.
	if av.Effect != 0.2 || !(av.EffectLo > 0) {
		t.Errorf("a vs official effect %v [%v, %v], want +0.2 and an interval above 0", av.Effect, av.EffectLo, av.EffectHi)
	}
	if ba := byName["b vs a (options)"]; ba.Effect != -0.2 || !(ba.EffectHi < 0) {
		t.Errorf("b vs a effect %v [%v, %v], want −0.2", ba.Effect, ba.EffectLo, ba.EffectHi)
	}
	md := r.Markdown(tests, nil, "test")
	if !strings.Contains(md, "7 tests, of which 3 can reject") || !strings.Contains(md, "not testable: no discordant pairs") {
		t.Errorf("report.md does not show the family:\n%s", md)
	}
}

func TestIdenticalCellNotTestable(t *testing.T) {
	e := mustParse(t, `name: same
games: 100
grids:
  - options:
      official: {}
      again: {max-turns: 5000}
compare:
  - axis: options
    baseline: official
    metrics: [turns, first-player]
`)
	r := emptyResult(e)
	for i := range r.Cells {
		r.Cells[i].Stats = sim.NewStats(&e.Cells[i].Config)
	}
	r.Pairs[0].N = 100
	r.Pairs[0].First = [4]int64{30, 1, 0, 69} // impossible for identical cells, but the identity decides
	for _, tt := range r.Tests() {
		if tt.NotTestable != "the cell is identical to its baseline" || !math.IsNaN(tt.PHolm) {
			t.Errorf("%s %s: not testable %q, Holm %v", tt.Name, tt.Metric, tt.NotTestable, tt.PHolm)
		}
	}
}

func TestPairedTTestLargeSums(t *testing.T) {
	// Two paired games whose differences are 2^27 and 2^27+1: Σd² = 2^55 +
	// 2^28 + 1 is not a float64. Converted to float64 it gave a variance of
	// 0, an interval [mean, mean] and p = 0; exactly, the variance is 1/2.
	p := PairStats{N: 2}
	p.Turns.add(1<<27, 0)
	p.Turns.add(1<<27+1, 0)
	tt := pairedTest(&p, Metric{Kind: MetricTurns})
	if !(tt.P > 0 && tt.EffectHi-tt.EffectLo > 1) {
		t.Errorf("paired t on large sums: P %v, interval [%v, %v]; want an honest interval", tt.P, tt.EffectLo, tt.EffectHi)
	}
	// t with 1 df: mean/SE = (2^27+0.5)/0.5, CI half-width 12.706…·0.5.
	if h := (tt.EffectHi - tt.EffectLo) / 2; math.Abs(h-12.706204736174707*0.5) > 1e-6 {
		t.Errorf("half-width %v, want 6.353 (t(0.975, 1) = 12.7062 times SE 0.5)", h)
	}
}

// emptyResult is a Result of e with no game played, for a test to fill in.
func emptyResult(e *Experiment) *Result {
	return &Result{Experiment: e, Cells: make([]CellResult, len(e.Cells)), Pairs: make([]PairStats, len(e.Pairs))}
}
