package experiments

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// CellSummary is a cell's estimates.
func (r *Result) CellSummary(i int, version string) *sim.Summary {
	c := &r.Experiment.Cells[i]
	cfg := c.Config
	cfg.Seed, cfg.Games = r.Seed, r.Games
	st := &r.Cells[i].Stats
	elapsed := r.End.Sub(r.Start).Seconds()
	return sim.Summarize(cfg.Identity(), st, r.Lo, r.Lo+st.Games, r.Complete, elapsed, version)
}

// Tests runs every test the experiment declares: each pair's metrics
// (paired), then each one-sample test on every cell, with p-values adjusted
// by Holm's method over all of them.
func (r *Result) Tests() []Test {
	e := r.Experiment
	var tests []Test
	for k, p := range e.Pairs {
		a, b := &e.Cells[p.A], &e.Cells[p.B]
		for _, m := range p.Metrics {
			t := pairedTest(&r.Pairs[k], m)
			t.Name = fmt.Sprintf("%s vs %s (%s)", a.Label, b.Label, p.Axis)
			tests = append(tests, t)
		}
	}
	for _, os := range e.OneSample {
		for i, c := range e.Cells {
			x, n := yesCount(os.Metric, &r.Cells[i].Stats)
			p0, name := os.Against, fmt.Sprintf("%s vs %g", c.Label, os.Against)
			if math.IsNaN(p0) {
				p0 = 1 / float64(c.Config.Players)
				name = fmt.Sprintf("%s vs the fair share %.4g", c.Label, p0)
			}
			t := oneSampleTest(x, n, p0)
			t.Name = name
			t.Metric = os.Metric.String()
			tests = append(tests, t)
		}
	}
	ps := make([]float64, len(tests))
	for i := range tests {
		ps[i] = tests[i].P
	}
	for i, p := range analysis.Holm(ps) {
		tests[i].PHolm = p
	}
	return tests
}

// yesCount is the number of games of a cell in which a yes/no metric held.
func yesCount(m Metric, st *sim.Stats) (x, n int64) {
	switch m.Kind {
	case MetricFirstPlayer:
		x = st.FirstToActWins
	case MetricUnfinished:
		x = st.Unfinished + st.Blocked
	case MetricPosition:
		x = st.WinsByPosition[m.Position]
	}
	return x, st.Games
}

// estimate is a cell's value of a metric with its 95% interval.
func estimate(m Metric, st *sim.Stats) (est, lo, hi float64) {
	switch m.Kind {
	case MetricTurns, MetricCardsDrawn:
		h := &st.Turns
		if m.Kind == MetricCardsDrawn {
			h = &st.CardsDrawn
		}
		ci := h.MeanCI(sim.Confidence)
		return ci.Mean, ci.Lo, ci.Hi
	}
	x, n := yesCount(m, st)
	lo, hi = analysis.Wilson(x, n, sim.Confidence)
	if n == 0 {
		return math.NaN(), lo, hi
	}
	return float64(x) / float64(n), lo, hi
}

// SurfaceResult is the two-way analysis of a declared surface.
type SurfaceResult struct {
	Metric     string
	Rows, Cols string
	RowValues  []string
	ColValues  []string
	Z, Lo, Hi  [][]float64 // [row][col]
	BestRow    []int       // for each column, the row that maximizes the metric
	BestCol    []int       // for each row, the column that minimizes it
	Meet       [][2]int    // cells that are best responses to each other
	Err        string      // why the surface could not be computed
}

// Surface computes the declared two-way analysis, or nil.
func (r *Result) Surface() *SurfaceResult {
	e := r.Experiment
	s := e.File.Surface
	if s == nil {
		return nil
	}
	m, _ := ParseMetric(s.Metric)
	out := &SurfaceResult{Metric: m.String(), Rows: s.Rows, Cols: s.Cols}
	for _, c := range e.Cells {
		rv, ok1 := c.Coords[s.Rows]
		cv, ok2 := c.Coords[s.Cols]
		if !ok1 || !ok2 {
			continue
		}
		if !slices.Contains(out.RowValues, rv) {
			out.RowValues = append(out.RowValues, rv)
		}
		if !slices.Contains(out.ColValues, cv) {
			out.ColValues = append(out.ColValues, cv)
		}
	}
	grid := func() [][]float64 {
		g := make([][]float64, len(out.RowValues))
		for i := range g {
			g[i] = make([]float64, len(out.ColValues))
			for j := range g[i] {
				g[i][j] = math.NaN()
			}
		}
		return g
	}
	out.Z, out.Lo, out.Hi = grid(), grid(), grid()
	for i, c := range e.Cells {
		rv, ok1 := c.Coords[s.Rows]
		cv, ok2 := c.Coords[s.Cols]
		if !ok1 || !ok2 {
			continue
		}
		ri, ci := slices.Index(out.RowValues, rv), slices.Index(out.ColValues, cv)
		if !math.IsNaN(out.Z[ri][ci]) {
			out.Err = fmt.Sprintf("several cells have %s=%s and %s=%s: a surface needs exactly one cell per pair", s.Rows, rv, s.Cols, cv)
			return out
		}
		out.Z[ri][ci], out.Lo[ri][ci], out.Hi[ri][ci] = estimate(m, &r.Cells[i].Stats)
	}
	for ci := range out.ColValues {
		best := -1
		for ri := range out.RowValues {
			if z := out.Z[ri][ci]; !math.IsNaN(z) && (best < 0 || z > out.Z[best][ci]) {
				best = ri
			}
		}
		out.BestRow = append(out.BestRow, best)
	}
	for ri := range out.RowValues {
		best := -1
		for ci := range out.ColValues {
			if z := out.Z[ri][ci]; !math.IsNaN(z) && (best < 0 || z < out.Z[ri][best]) {
				best = ci
			}
		}
		out.BestCol = append(out.BestCol, best)
	}
	for ri, ci := range out.BestCol {
		if ci >= 0 && out.BestRow[ci] == ri {
			out.Meet = append(out.Meet, [2]int{ri, ci})
		}
	}
	return out
}

// CSV renders the cells' estimates and the tests as rows of
// kind,name,metric,value,ci_low,ci_high,n,p,p_holm.
func (r *Result) CSV(tests []Test) string {
	var b strings.Builder
	if !r.Complete {
		b.WriteString("# INCOMPLETE: the run was interrupted; the counts cover only the games done\n")
	}
	b.WriteString("kind,name,metric,value,ci_low,ci_high,n,p,p_holm\n")
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	for i, c := range r.Experiment.Cells {
		st := &r.Cells[i].Stats
		for _, m := range []Metric{{Kind: MetricTurns}, {Kind: MetricCardsDrawn}, {Kind: MetricFirstPlayer}, {Kind: MetricUnfinished}} {
			est, lo, hi := estimate(m, st)
			fmt.Fprintf(&b, "cell,%s,%s,%s,%s,%s,%d,,\n", q(c.Label), m, num(est), num(lo), num(hi), st.Games)
		}
		for j := range c.Config.Players {
			m := Metric{Kind: MetricPosition, Position: j}
			est, lo, hi := estimate(m, st)
			fmt.Fprintf(&b, "cell,%s,%s,%s,%s,%s,%d,,\n", q(c.Label), m, num(est), num(lo), num(hi), st.Games)
		}
	}
	for _, t := range tests {
		fmt.Fprintf(&b, "test,%s,%s,%s,%s,%s,%d,%s,%s\n", q(t.Name), t.Metric, num(t.Effect), num(t.EffectLo), num(t.EffectHi), t.N, num(t.P), num(t.PHolm))
	}
	return b.String()
}

func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.2f%%", 100*v)
}

func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-4:
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}
