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
// (paired), then each one-sample test on every cell. The family for Holm's
// method is every test that can reject: a test marked NotTestable (no
// discordant pair, too few for p < 0.05, a cell identical to its
// baseline, no game or too few) has P and PHolm NaN and does not count. A comparison declared more than once, or
// mirrored (A against B and B against A), is tested once, in the first
// orientation declared, with a note: counting it twice would only inflate
// every adjusted p-value. Likewise, in a 2-player cell whose every game
// had one winner, one-sample tests of position:0 and position:1 against
// 1/2 (the fair share, or 0.5 as given) are one hypothesis, position 1's
// rate being 1 minus position 0's (z and -z): both are shown, the later
// with a note, but it counts once, and the later gets the earlier's p_holm
// (analysis.HolmMirrored, as the seat table does).
func (r *Result) Tests() []Test {
	e := r.Experiment
	var tests []Test
	type key struct {
		lo, hi int
		metric string
	}
	seen := map[key]int{}     // -> index in tests
	first := map[int][2]int{} // index in tests -> its cells (A, B)
	for k, p := range e.Pairs {
		a, b := &e.Cells[p.A], &e.Cells[p.B]
		for _, m := range p.Metrics {
			kk := key{min(p.A, p.B), max(p.A, p.B), m.String()}
			if i, ok := seen[kk]; ok {
				how := "declared again"
				if first[i] != [2]int{p.A, p.B} {
					how = "mirrored"
				}
				tests[i].Note = joinNote(tests[i].Note, fmt.Sprintf("%s as %s: tested once", how, pairName(a, b, p.Axis)))
				continue
			}
			t := pairedTest(&r.Pairs[k], m)
			t.Name = pairName(a, b, p.Axis)
			t.cell = p.A
			if a.Config.Identity().Equal(b.Config.Identity()) {
				t.NotTestable, t.P = "the cell is identical to its baseline", math.NaN()
			}
			if why := noSharedDeals(&a.Config, &b.Config); why != "" {
				t.Note = joinNote(t.Note, why)
			}
			seen[kk] = len(tests)
			first[len(tests)] = [2]int{p.A, p.B}
			tests = append(tests, t)
		}
	}
	mirror := slices.Repeat([]int{-1}, len(tests)) // -> the test it repeats, or -1
	type half struct{ cell, position int }
	halves := map[half]int{} // the first test of a position against 1/2 in a single-winner 2-player cell
	type oneKey struct {
		cell   int
		metric string
		p0     float64
	}
	once := map[oneKey]int{} // -> index in tests
	for _, os := range e.OneSample {
		for i, c := range e.Cells {
			st := &r.Cells[i].Stats
			x, n := yesCount(os.Metric, st)
			p0, name := os.Against, fmt.Sprintf("%s vs %g", c.Label, os.Against)
			if math.IsNaN(p0) {
				p0 = 1 / float64(c.Config.Players)
				name = fmt.Sprintf("%s vs the fair share %.4g", c.Label, p0)
			}
			// The same test declared again (also as the fair share and its
			// value): tested once, as a paired comparison is.
			if j, ok := once[oneKey{i, os.Metric.String(), p0}]; ok {
				tests[j].Note = joinNote(tests[j].Note, fmt.Sprintf("declared again as %s: tested once", name))
				continue
			}
			once[oneKey{i, os.Metric.String(), p0}] = len(tests)
			t := oneSampleTest(x, n, p0)
			t.Name = name
			t.Metric = os.Metric.String()
			t.cell = i
			same := -1
			if os.Metric.Kind == MetricPosition && p0 == 0.5 && singleWinner(c.Config.Players, st) {
				other := half{i, 1 - os.Metric.Position}
				if j, ok := halves[other]; ok {
					same = j
					if t.NotTestable == "" {
						t.Note = joinNote(t.Note, fmt.Sprintf("2 players, every game won by exactly one: %s's rate is 1 minus %s's, so this is the test of %s against 1/2 again, tested once in Holm's family (this row gets its p_holm)", t.Metric, tests[j].Metric, tests[j].Metric))
					}
				} else if _, ok := halves[half{i, os.Metric.Position}]; !ok {
					halves[half{i, os.Metric.Position}] = len(tests)
				}
			}
			t.repeats = same >= 0
			mirror = append(mirror, same)
			tests = append(tests, t)
		}
	}
	ps := make([]float64, len(tests))
	for i := range tests {
		ps[i] = tests[i].P // NaN (not testable) is left out of the family
	}
	for i, p := range analysis.HolmMirrored(ps, mirror) {
		tests[i].PHolm = p
	}
	return tests
}

// singleWinner reports whether a cell of that many players had 2 and every
// game one winner (no shared win, no game without a winner: the positions'
// wins add up to the games), so that position 1's win rate is 1 minus
// position 0's.
func singleWinner(players int, st *sim.Stats) bool {
	w := st.WinsByPosition
	return players == 2 && len(w) == 2 && st.Games > 0 && st.SharedWins == 0 && w[0]+w[1] == st.Games
}

func pairName(a, b *Cell, axis string) string {
	return fmt.Sprintf("%s vs %s (%s)", a.Label, b.Label, axis)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// noSharedDeals says why two cells do not play the same deals, or "".
// Game i of every cell starts from the same shuffle stream, but a deck of
// other cards, another hand size or another player count deals other hands
// from it: the cells are then independent samples and pairing gains nothing
// (the paired tests stay valid, only no more precise than unpaired ones).
func noSharedDeals(a, b *sim.Config) string {
	var what []string
	if a.Options.Deck != b.Options.Deck {
		what = append(what, "deck")
	}
	if a.Options.HandSize != b.Options.HandSize {
		what = append(what, "hand size")
	}
	if a.Players != b.Players {
		what = append(what, "player count")
	}
	if len(what) == 0 {
		return ""
	}
	return "the cells do not share deals (the " + strings.Join(what, ", ") + " differs): pairing gains nothing over independent samples"
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

// CSV renders summary.csv, tidy: one row per cell and metric (kind
// estimate) and one per test (kind test: the cell tested, its metric and
// its baseline), every factor in a column of its own (rules, players,
// options, lineup, then each variable of any grid, empty where a cell's
// grid has none), and a complete column instead of comment lines, so that
// the file loads into pandas or R as it is and files of several runs can
// be concatenated. Integers are exact and floats are printed in full
// (the shortest form that reads back to the same float64); nothing about
// timing is included, so equal runs write equal bytes.
func (r *Result) CSV(tests []Test) string {
	e := r.Experiment
	var vars []string // the variables of every grid, in order of first use
	for _, c := range e.Cells {
		for _, g := range e.File.Grids[c.Grid].Vars {
			if !slices.Contains(vars, g.Key) {
				vars = append(vars, g.Key)
			}
		}
	}
	q := func(s string) string {
		if !strings.ContainsAny(s, ",\"\n\r") {
			return s
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	var b strings.Builder
	cols := []string{"complete", "kind", "cell", "label", "rules", "players", "options", "lineup"}
	for _, v := range vars {
		cols = append(cols, q("var:"+v))
	}
	cols = append(cols, "metric", "unit", "estimate", "ci_low", "ci_high", "n", "axis", "baseline", "baseline_cell", "baseline_estimate", "effect", "effect_ci_low", "effect_ci_high", "p", "p_holm", "method", "not_testable")
	b.WriteString(strings.Join(cols, ",") + "\n")
	complete := strconv.FormatBool(r.Complete)
	factors := func(c *Cell) string {
		f := []string{strconv.Itoa(c.Index), q(c.Label), q(c.Coords["rules"]), c.Coords["players"], q(c.Coords["options"]), q(c.Coords["lineup"])}
		for _, v := range vars {
			f = append(f, q(c.Coords[v]))
		}
		return strings.Join(f, ",")
	}
	unit := func(m string) string {
		switch m {
		case "turns":
			return "turns"
		case "cards-drawn":
			return "cards"
		}
		return "proportion"
	}
	for i := range e.Cells {
		c := &e.Cells[i]
		st := &r.Cells[i].Stats
		ms := []Metric{{Kind: MetricTurns}, {Kind: MetricCardsDrawn}, {Kind: MetricFirstPlayer}, {Kind: MetricUnfinished}}
		for j := range c.Config.Players {
			ms = append(ms, Metric{Kind: MetricPosition, Position: j})
		}
		for _, m := range ms {
			est, lo, hi := estimate(m, st)
			fmt.Fprintf(&b, "%s,estimate,%s,%s,%s,%s,%s,%s,%d,,,,,,,,,,,\n", complete, factors(c), m, unit(m.String()), full(est), full(lo), full(hi), st.Games)
		}
	}
	// The cell and baseline of each test, by the names Tests gives them.
	type tested struct {
		cell                 int
		axis, baseline, bcel string
	}
	byName := map[string]tested{}
	for _, p := range e.Pairs {
		byName[pairName(&e.Cells[p.A], &e.Cells[p.B], p.Axis)] = tested{p.A, p.Axis, e.Cells[p.B].Coords[p.Axis], strconv.Itoa(p.B)}
	}
	for _, os := range e.OneSample {
		for i, c := range e.Cells {
			if math.IsNaN(os.Against) {
				byName[fmt.Sprintf("%s vs the fair share %.4g", c.Label, 1/float64(c.Config.Players))] = tested{cell: i, baseline: "fair share 1/players"}
			} else {
				byName[fmt.Sprintf("%s vs %g", c.Label, os.Against)] = tested{cell: i, baseline: strconv.FormatFloat(os.Against, 'g', -1, 64)}
			}
		}
	}
	for _, t := range tests {
		who, ok := byName[t.Name]
		f := "," + q(t.Name) + strings.Repeat(",", 4+len(vars)) // unknown: the name as the label
		if ok {
			f = factors(&e.Cells[who.cell])
		}
		fmt.Fprintf(&b, "%s,test,%s,%s,%s,%s,,,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", complete, f, t.Metric, unit(t.Metric), full(t.EstA), t.N,
			q(who.axis), q(who.baseline), who.bcel, full(t.EstB),
			full(t.Effect), full(t.EffectLo), full(t.EffectHi), full(t.P), full(t.PHolm), q(t.Method), q(t.NotTestable))
	}
	return b.String()
}

// full prints a float in full: the shortest form that reads back exactly;
// NaN (undefined) as an empty field.
func full(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// testsPreamble explains the tests table of report.md: the family, the
// methods and their dual intervals.
func testsPreamble(tests []Test) string {
	family, repeats := 0, 0
	for _, t := range tests {
		if t.NotTestable == "" {
			family++
			if t.repeats {
				repeats++
			}
		}
	}
	var b strings.Builder
	if repeats == 0 {
		fmt.Fprintf(&b, "%d tests, of which %d can reject; p-values are adjusted by Holm's method over those %d (a test that cannot reject, such as one with no discordant pair or of a cell identical to its baseline, is shown as not testable and left out of the family; a comparison declared twice or mirrored is tested once). ", len(tests), family, family)
	} else {
		fmt.Fprintf(&b, "%d tests, of which %d can reject; p-values are adjusted by Holm's method over those %d, counted as %d %s since %d %s another (a test that cannot reject, such as one with no discordant pair or of a cell identical to its baseline, is shown as not testable and left out of the family; a comparison declared twice or mirrored is tested once; in a 2-player cell whose every game had one winner, position:1's rate is 1 minus position:0's, so their tests against 1/2 are one hypothesis, counted once, and both get its p_holm). ", len(tests), family, family, family-repeats, pick(family-repeats == 1, "hypothesis", "hypotheses"), repeats, pick(repeats == 1, "repeats", "repeat"))
	}
	paired, oneSample := false, false
	for _, t := range tests {
		if isOneSample(&t) {
			oneSample = true
		} else {
			paired = true
		}
	}
	if paired {
		b.WriteString("Paired tests compare two cells on the same games: McNemar's test for yes/no outcomes (effect: difference of proportions, cell minus baseline), a paired t-test for numbers (effect: mean difference, cell minus baseline). ")
		b.WriteString("McNemar's test is the mid-p conditional test below 25 discordant pairs and the asymptotic score test (no continuity correction) from 25 on; each is printed with the interval dual to it (the mid-p test inverted, or Tango's score interval), so an interval excludes 0 exactly when p < 0.05. ")
	}
	if oneSample {
		b.WriteString("One-sample tests compare a cell's proportion with a fixed value (the fair share 1/players, or the value the file gives): the score test, with the Wilson interval shifted by that value as the effect's interval, which excludes 0 exactly when p < 0.05. ")
	}
	b.WriteString("\n\n")
	return b.String()
}

// pick is a if cond, else b (a word and its plural).
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}
