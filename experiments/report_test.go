package experiments

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// runSmall runs an experiment file with few games.
func runSmall(t *testing.T, text string, games int64) *Result {
	t.Helper()
	e := mustParse(t, text)
	r, err := e.Run(context.Background(), RunOptions{Games: games})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// unitLabel is an axis label that ends with its unit in parentheses.
var unitLabel = regexp.MustCompile(`\((%|pp|turns|cards|players)[,) ].*$|\((%|pp|turns|cards|players)\)$`)

// categorical reports whether an axis shows categories (cells, levels),
// which need no unit.
func categorical(a *plot.Axis) bool {
	_, ok := a.Tick.Marker.(plot.ConstantTicks)
	return ok
}

// checkFigureWords checks that a figure has a title and that the axis of
// its measured quantity is labelled with a unit.
func checkFigureWords(t *testing.T, name string, f analysis.Figure) {
	t.Helper()
	switch f := f.(type) {
	case *plot.Plot:
		if f.Title.Text == "" {
			t.Errorf("%s: no title", name)
		}
		quantity := &f.Y
		if categorical(&f.Y) {
			quantity = &f.X
		}
		if !categorical(quantity) && !unitLabel.MatchString(quantity.Label.Text) {
			t.Errorf("%s: axis label %q has no unit", name, quantity.Label.Text)
		}
		if !categorical(&f.X) && f.X.Label.Text == "" {
			t.Errorf("%s: the x axis has no label", name)
		}
	case *analysis.Panels:
		if f.Title == "" {
			t.Errorf("%s: no title", name)
		}
		for _, l := range []string{f.XLabel, f.YLabel} {
			if !unitLabel.MatchString(l) {
				t.Errorf("%s: axis label %q has no unit", name, l)
			}
		}
		for i, p := range f.Plots {
			if p.Title.Text == "" {
				t.Errorf("%s: panel %d has no title", name, i)
			}
		}
	default:
		t.Errorf("%s: a %T", name, f)
	}
}

// TestPlotsReadable draws every plot of every built-in experiment (on few
// games) and checks its words and layout: a title, the measured axis
// labelled with its unit, proportions in % or pp, no text overlapping
// other text or clipped at the edge of the image (measured with the
// fonts' own metrics), and no plot of nothing.
func TestPlotsReadable(t *testing.T) {
	for _, b := range Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			text, err := BuiltinText(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			if e, err := Parse(b.Name, text); err == nil && e.Tour != nil {
				t.Skip("a tournament: its plots are checked by cmd/unosim TestTournamentPlotsReadable")
			}
			r := runSmall(t, string(text), 60)
			jobs := r.plotJobs(r.Tests())
			if len(jobs) < 4 {
				t.Errorf("%d plots", len(jobs))
			}
			for _, j := range jobs {
				f, err := j.make()
				if err != nil {
					t.Errorf("%s: %v", j.name, err)
					continue
				}
				checkFigureWords(t, j.name, f)
				for _, p := range analysis.CheckLayout(f, j.width, j.height, vg.Points(4)) {
					t.Errorf("%s: %s", j.name, p)
				}
				var words []string
				for _, b := range analysis.DrawnText(f, j.width, j.height) {
					words = append(words, b.Text)
					// Counts of 10,000 and more with their thousands
					// separated (captions said "60000").
					if m := bareCount.FindString(b.Text); m != "" {
						t.Errorf("%s: %q: %s without a thousands separator", j.name, b.Text, m)
					}
				}
				// A dashed fair-share line is named (main.png's was not).
				if j.name == "main" && r.Experiment.Main.Kind == MetricPosition && !strings.Contains(strings.Join(words, "\n"), "fair share") {
					t.Errorf("%s: the fair-share line has no legend entry or label", j.name)
				}
				if p, ok := f.(*plot.Plot); ok {
					// A numeric axis labels at least 3 values (the
					// first-player plot had only 0 and 5).
					for _, a := range []*plot.Axis{&p.X, &p.Y} {
						var nums []string
						numeric := true
						for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
							if tk.Label == "" || tk.Value < a.Min || tk.Value > a.Max {
								continue
							}
							_, err := strconv.ParseFloat(tk.Label, 64)
							numeric = numeric && err == nil
							nums = append(nums, tk.Label)
						}
						if numeric && len(nums) < 3 {
							t.Errorf("%s: axis %q labels only %q", j.name, a.Label.Text, nums)
						}
					}
					for _, l := range []string{p.X.Label.Text, p.Y.Label.Text} {
						if strings.Contains(l, "fraction") || strings.Contains(l, "share)") {
							t.Errorf("%s: axis %q: proportions are shown in %% or pp", j.name, l)
						}
					}
				}
			}
		})
	}
}

// bareCount is a number of 5 or more digits without separators, not part
// of a decimal.
var bareCount = regexp.MustCompile(`(^|[^0-9.,])[0-9]{5,}($|[^0-9.])`)

// TestNoPlotOfNothing: an effect that no test can measure (no game was
// unfinished in either cell) has no plot.
func TestNoPlotOfNothing(t *testing.T) {
	r := runSmall(t, small, 200)
	tests := r.Tests()
	for _, tt := range tests {
		if tt.Metric == "unfinished" && tt.NotTestable == "" {
			t.Skip("a game was unfinished: the test needs none")
		}
	}
	for _, j := range r.plotJobs(tests) {
		if j.name == "effect-unfinished" {
			t.Error("a plot of an effect no test can measure")
		}
	}
}

const findingsExp = `name: findings
seed: 3
games: 400
grids:
  - players: [4]
    options:
      official: {}
      draw-until-playable: {draw: until-playable}
      jump-in-any: {jump-in: any}
compare:
  - axis: options
    baseline: official
    metrics: [turns, unfinished]
`

// TestFindingsEffects: the findings name the largest significant effects
// first, with the mean difference computed here from the cells' own
// means, its interval and Holm's p-value; a metric without a testable
// comparison is collapsed with its reason.
func TestFindingsEffects(t *testing.T) {
	r := runSmall(t, findingsExp, 400)
	tests := r.Tests()
	f := r.Findings(tests)
	byName := map[string]Test{}
	for _, tt := range tests {
		byName[tt.Name+"/"+tt.Metric] = tt
	}
	mean := func(i int) float64 { return r.Cells[i].Stats.Turns.Mean() }
	// The paired mean difference is the difference of the means.
	dup := mean(1) - mean(0)
	jia := mean(2) - mean(0)
	if !(dup > 10 && jia < 0) {
		t.Fatalf("unexpected data: draw-until-playable %+.2f, jump-in-any %+.2f turns", dup, jia)
	}
	line := func(name string, eff float64) string {
		tt := byName[name+" vs official (options)/turns"]
		if math.Abs(tt.Effect-eff) > 1e-9 {
			t.Errorf("%s: test effect %v, difference of means %v", name, tt.Effect, eff)
		}
		return fmt.Sprintf("  - %s vs official: %+.1f turns [%+.1f, %+.1f], %s\n", name, eff, tt.EffectLo, tt.EffectHi, pWords("p_holm", tt.PHolm))
	}
	want := "- **Game length**: 2 of 2 tests find a difference against the baseline; the largest:\n" + line("draw-until-playable", dup) + line("jump-in-any", jia)
	if !strings.Contains(f, want) {
		t.Errorf("findings lack\n%s\ngot\n%s", want, f)
	}
	if strings.Contains(f, "Unfinished") {
		t.Errorf("findings name a metric no test could measure:\n%s", f)
	}
	sec := testsSection(tests)
	if !strings.Contains(sec, "- 2 tests not testable: no game was unfinished in either cell (draw-until-playable vs official, jump-in-any vs official).") {
		t.Errorf("tests section does not collapse the untestable rows:\n%s", sec)
	}
	// Sorted by effect: draw-until-playable's row before jump-in-any's.
	if a, b := strings.Index(sec, "| draw-until-playable"), strings.Index(sec, "| jump-in-any"); !(a >= 0 && a < b) {
		t.Errorf("rows not sorted by effect:\n%s", sec)
	}
}

// TestFindingsPlayers: length and first-player advantage by table size.
func TestFindingsPlayers(t *testing.T) {
	r := runSmall(t, `name: pc
seed: 5
games: 300
grids:
  - rules: [classic]
    players: [2, 3, 5]
compare:
  - metric: first-player
    against: fair
`, 300)
	tests := r.Tests()
	f := r.Findings(tests)
	ci := func(i int) analysis.MeanCI { return r.Cells[i].Stats.Turns.MeanCI(sim.Confidence) }
	a, c := ci(0), ci(2)
	want := fmt.Sprintf("a game lasts %.1f [%.1f, %.1f] turns with 2 players and %.1f [%.1f, %.1f] turns with 5.", a.Mean, a.Lo, a.Hi, c.Mean, c.Lo, c.Hi)
	if !strings.Contains(f, want) {
		t.Errorf("findings lack %q:\n%s", want, f)
	}
	// The advantage, from the raw counts: wins of the first player over
	// games, minus 1/players, in pp.
	best, bestAdv := 0, math.Inf(-1)
	for i, n := range []int{2, 3, 5} {
		st := &r.Cells[i].Stats
		if adv := float64(st.FirstToActWins)/float64(st.Games) - 1/float64(n); adv > bestAdv {
			best, bestAdv = n, adv
		}
	}
	want = fmt.Sprintf("the largest estimate of the advantage, with %d players, is %+.1f pp", best, 100*bestAdv)
	if !strings.Contains(f, want) {
		t.Errorf("findings lack %q:\n%s", want, f)
	}
	// The sentence counts the table sizes the tests find to differ, and
	// calls none an advantage when no test does.
	sig := 0
	for _, tt := range tests {
		if tt.Metric == "first-player" && isOneSample(&tt) && tt.NotTestable == "" && tt.PHolm < 0.05 {
			sig++
		}
	}
	if sig == 0 && !strings.Contains(f, "At no table size does the first player's win rate differ from the fair share (none of 3 tests") {
		t.Errorf("no test differs, but the findings do not say so:\n%s", f)
	}
	if sig > 0 && !strings.Contains(f, "of 3 table sizes (p_holm < 0.05)") {
		t.Errorf("%d tests differ, but the findings do not count them:\n%s", sig, f)
	}
	for _, n := range []int{2, 3, 5} {
		if !strings.Contains(f, "| classic | "+strconv.Itoa(n)+" | ") {
			t.Errorf("the table lacks %d players:\n%s", n, f)
		}
	}
}

// TestFindingsSurface: the equilibrium and each side's best responses,
// found here from the raw counts.
func TestFindingsSurface(t *testing.T) {
	r := runSmall(t, `name: bc
seed: 2
games: 300
main: position:0
grids:
  - players: [3]
    seats: rotate
    vars:
      bluff: [0, 1]
      challenge: [never, always]
    lineups:
      x:
        - heuristic:bluff=${bluff}
        - heuristic:challenge=${challenge}
        - heuristic:challenge=${challenge}
surface:
  rows: bluff
  cols: challenge
  metric: position:0
`, 300)
	f := r.Findings(r.Tests())
	rate := func(i int) float64 {
		st := &r.Cells[i].Stats
		return float64(st.WinsByPosition[0]) / float64(st.Games)
	}
	// Cells in order: (bluff 0: never, always), (bluff 1: never, always).
	z := [2][2]float64{{rate(0), rate(1)}, {rate(2), rate(3)}}
	bluffs, challenges := []string{"0", "1"}, []string{"never", "always"}
	var rowParts, colParts []string
	bestRow := [2]int{}
	for c := range 2 {
		if z[1][c] > z[0][c] {
			bestRow[c] = 1
		}
		rowParts = append(rowParts, fmt.Sprintf("%s → %s (%.1f%%)", challenges[c], bluffs[bestRow[c]], 100*z[bestRow[c]][c]))
	}
	bestCol := [2]int{}
	for rr := range 2 {
		if z[rr][1] < z[rr][0] {
			bestCol[rr] = 1
		}
		colParts = append(colParts, fmt.Sprintf("%s → %s (%.1f%%)", bluffs[rr], challenges[bestCol[rr]], 100*z[rr][bestCol[rr]]))
	}
	for _, want := range []string{
		"- **Best bluff** (raising the win rate of line-up position 0) against each challenge: " + strings.Join(rowParts, ", ") + ".",
		"- **Best challenge** (lowering it) against each bluff: " + strings.Join(colParts, ", ") + ".",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("findings lack %q:\n%s", want, f)
		}
	}
	meet := false
	for rr := range 2 {
		if c := bestCol[rr]; bestRow[c] == rr {
			meet = true
			want := fmt.Sprintf("meet at bluff=%s, challenge=%s", bluffs[rr], challenges[c])
			if !strings.Contains(f, want) {
				t.Errorf("findings lack %q:\n%s", want, f)
			}
		}
	}
	if !meet && !strings.Contains(f, "No pure equilibrium") {
		t.Errorf("findings do not say there is no equilibrium:\n%s", f)
	}
}

// A seat difference that rounds to zero is written without a sign in the
// seat-advantage heat map (it showed "-0.0").
func TestSignedTenths(t *testing.T) {
	for v, want := range map[float64]string{-0.04: "0.0", 0.04: "0.0", 0: "0.0", -0.05001: "-0.1", 1.25: "+1.2", -2.5: "-2.5"} {
		if got := signedTenths(v); got != want {
			t.Errorf("signedTenths(%v) = %q, want %q", v, got, want)
		}
	}
}

// The report's run line says "1 worker", not "1 workers".
func TestReportWorkers(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "; 1 worker;"}, {3, "; 3 workers;"}} {
		r := runSmall(t, small, 20)
		r.Workers = c.n
		if md := r.Markdown(r.Tests(), nil, "test"); !strings.Contains(md, c.want) {
			t.Errorf("%d workers: the report lacks %q", c.n, c.want)
		}
	}
}
