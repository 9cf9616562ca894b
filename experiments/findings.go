package experiments

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// The words of report.md and of the plots: one name and one unit per
// metric, so that a plot's axis reads like the table beside it.

// metricTitle names a metric for people.
func metricTitle(metric string) string {
	switch metric {
	case "turns":
		return "game length"
	case "cards-drawn":
		return "cards drawn"
	case "first-player":
		return "first player's win rate"
	case "unfinished":
		return "unfinished games"
	}
	if k, ok := strings.CutPrefix(metric, "position:"); ok {
		return "win rate of line-up position " + k
	}
	return metric
}

// numericMetric reports whether a metric is a number per game (turns,
// cards) rather than a proportion.
func numericMetric(metric string) bool { return metric == "turns" || metric == "cards-drawn" }

// metricUnit is the unit of a metric's estimates: turns, cards, or % for a
// proportion (whose differences are in percentage points, pp).
func metricUnit(metric string) string {
	switch metric {
	case "turns":
		return "turns"
	case "cards-drawn":
		return "cards"
	}
	return "%"
}

// effectUnit is the unit of a difference of a metric: pp for proportions.
func effectUnit(metric string) string {
	if numericMetric(metric) {
		return metricUnit(metric)
	}
	return "pp"
}

// axisLabel is a metric's name with its unit, for a plot axis.
func axisLabel(metric string) string {
	return metricTitle(metric) + " (" + metricUnit(metric) + ")"
}

// scale is the factor from a metric's stored value to the printed one:
// 100 for proportions (shown in % and pp).
func scale(metric string) float64 {
	if numericMetric(metric) {
		return 1
	}
	return 100
}

// withUnit formats an estimate with its unit: "44.30 turns", "25.50%".
func withUnit(metric string, v float64, decimals int) string {
	if math.IsNaN(v) {
		return "–"
	}
	s := strconv.FormatFloat(v*scale(metric), 'f', decimals, 64)
	if numericMetric(metric) {
		return s + " " + metricUnit(metric)
	}
	return s + "%"
}

// signed formats a difference with its sign and unit: "+29.0 turns",
// "-1.25 pp".
func signed(metric string, v float64, decimals int) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%+.*f %s", decimals, v*scale(metric), effectUnit(metric))
}

// signedCI formats a difference and its interval: "+29.0 turns [+28.7,
// +29.3]".
func signedCI(metric string, v, lo, hi float64, decimals int) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return signed(metric, v, decimals)
	}
	s := scale(metric)
	return fmt.Sprintf("%s [%+.*f, %+.*f]", signed(metric, v, decimals), decimals, lo*s, decimals, hi*s)
}

// estCI formats an estimate and its interval with the unit once:
// "44.3 [42.2, 46.4] turns", "25.5% [21.5, 30.0]".
func estCI(metric string, v, lo, hi float64, decimals int) string {
	if math.IsNaN(v) {
		return "–"
	}
	s := scale(metric)
	if numericMetric(metric) {
		return fmt.Sprintf("%.*f [%.*f, %.*f] %s", decimals, v*s, decimals, lo*s, decimals, hi*s, metricUnit(metric))
	}
	return fmt.Sprintf("%.*f%% [%.*f, %.*f]", decimals, v*s, decimals, lo*s, decimals, hi*s)
}

// pWords writes an adjusted p-value for a sentence: "p_holm < 1e-300",
// "p_holm = 3.2e-05", "p_holm = 0.012".
func pWords(name string, p float64) string {
	switch {
	case math.IsNaN(p):
		return name + " –"
	case p < 1e-300:
		return name + " < 1e-300"
	case p < 1e-4:
		return name + " = " + strconv.FormatFloat(p, 'e', 1, 64)
	case p >= 0.9995:
		return name + " = 1"
	}
	return name + " = " + strconv.FormatFloat(p, 'g', 2, 64)
}

// pCell writes a p-value for a table.
func pCell(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-300:
		return "< 1e-300"
	case p < 1e-4:
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// isOneSample reports whether a test is a one-sample test of a cell.
func isOneSample(t *Test) bool { return strings.HasPrefix(t.Method, "one-sample") }

// subject is what a test is about, without the method: the comparison
// "A vs B" (paired), or the cell (one sample).
func subject(t *Test) string {
	if isOneSample(t) {
		// "LABEL vs 0.5", "LABEL vs the fair share 0.25": a label may
		// hold " vs " itself.
		if i := strings.LastIndex(t.Name, " vs "); i >= 0 {
			return t.Name[:i]
		}
		return t.Name
	}
	if i := strings.LastIndex(t.Name, " ("); i >= 0 {
		return t.Name[:i]
	}
	return t.Name
}

// notTestableReason is why a test cannot reject, in the words of the
// metric where both cells are all one way ("no game was unfinished in
// either cell").
func notTestableReason(t *Test) string {
	if !numericMetric(t.Metric) && t.EstA == 0 && t.EstB == 0 && !isOneSample(t) {
		switch t.Metric {
		case "unfinished":
			return "no game was unfinished in either cell"
		case "first-player":
			return "the first player won no game in either cell"
		}
		return "no game was won by that position in either cell"
	}
	return t.NotTestable
}

// Findings is the opening section of report.md: the answer to the
// experiment's question, computed from the results.
func (r *Result) Findings(tests []Test) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("## Findings\n\n")
	n := len(b.String())
	e := r.Experiment
	if slices.Contains(e.Axes, "players") {
		r.playerFindings(&b, tests)
	}
	if s := r.Surface(); s != nil && s.Err == "" {
		r.surfaceFindings(&b, s)
	}
	r.effectFindings(&b, tests)
	if len(b.String()) == n {
		// Nothing tested: the range of the main estimate.
		lo, hi := -1, -1
		for i := range e.Cells {
			v, _, _ := estimate(e.Main, &r.Cells[i].Stats)
			if math.IsNaN(v) {
				continue
			}
			if lo < 0 || v < mustEst(r, lo) {
				lo = i
			}
			if hi < 0 || v > mustEst(r, hi) {
				hi = i
			}
		}
		if lo >= 0 {
			m := e.Main.String()
			v, l, h := estimate(e.Main, &r.Cells[lo].Stats)
			V, L, H := estimate(e.Main, &r.Cells[hi].Stats)
			w("- %s ranges from %s in %s to %s in %s.\n", capital(metricTitle(m)), estCI(m, v, l, h, 1), e.Cells[lo].Label, estCI(m, V, L, H, 1), e.Cells[hi].Label)
		}
	}
	w("\nIntervals are 95%%; p_holm is the p-value adjusted by Holm's method over every test of the report (see Tests).\n\n")
	return b.String()
}

func mustEst(r *Result, i int) float64 {
	v, _, _ := estimate(r.Experiment.Main, &r.Cells[i].Stats)
	return v
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// findingsPerMetric is how many effects per metric the findings name.
const findingsPerMetric = 3

// effectFindings names, per metric, the largest effects that Holm's
// method keeps, or says that none is detectable.
func (r *Result) effectFindings(b *strings.Builder, tests []Test) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	for _, oneSample := range []bool{false, true} {
		for _, metric := range testMetrics(tests, !oneSample) {
			if oneSample && metric == "first-player" && slices.Contains(r.Experiment.Axes, "players") {
				continue // in the table by table size
			}
			var sig, all []Test
			for _, t := range tests {
				if t.Metric != metric || isOneSample(&t) != oneSample || t.NotTestable != "" {
					continue
				}
				all = append(all, t)
				if t.PHolm < 0.05 {
					sig = append(sig, t)
				}
			}
			if len(all) == 0 {
				continue
			}
			byMagnitude := func(a, b Test) int { return cmp.Compare(math.Abs(b.Effect), math.Abs(a.Effect)) }
			slices.SortStableFunc(sig, byMagnitude)
			slices.SortStableFunc(all, byMagnitude)
			what := metricTitle(metric)
			against := "against the baseline"
			if oneSample {
				against = "against " + oneSampleRef(&all[0])
			}
			if len(sig) == 0 {
				t := all[0]
				w("- **%s**: no test finds a difference %s (%d tests); the largest, %s: %s, %s.\n",
					capital(what), against, len(all), subject(&t), signedCI(metric, t.Effect, t.EffectLo, t.EffectHi, 1), pWords("p_holm", t.PHolm))
				continue
			}
			w("- **%s**: %d of %d tests find a difference %s; the largest:\n", capital(what), len(sig), len(all), against)
			for _, t := range sig[:min(len(sig), findingsPerMetric)] {
				est := ""
				if oneSample {
					est = withUnit(metric, t.EstA, 1) + ", "
				}
				w("  - %s: %s%s, %s\n", subject(&t), est, signedCI(metric, t.Effect, t.EffectLo, t.EffectHi, 1), pWords("p_holm", t.PHolm))
			}
		}
	}
}

// oneSampleRef names what a one-sample test compares with.
func oneSampleRef(t *Test) string {
	if strings.Contains(t.Name, "fair share") {
		return "the fair share"
	}
	return withUnit(t.Metric, t.EstB, 1)
}

// tableGroups are the cells that differ only in player count, in order,
// each sorted by players.
func (r *Result) tableGroups() (names []string, groups [][]int) {
	idx := map[string]int{}
	for i := range r.Experiment.Cells {
		if r.Cells[i].Stats.Games == 0 {
			continue
		}
		g := r.group(&r.Experiment.Cells[i])
		k, ok := idx[g]
		if !ok {
			k = len(names)
			idx[g] = k
			names, groups = append(names, g), append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b int) int {
			return cmp.Compare(r.Experiment.Cells[a].Config.Players, r.Experiment.Cells[b].Config.Players)
		})
	}
	return names, groups
}

// firstPlayerTest returns the one-sample first-player test of cell i
// against the fair share fair, or nil (a test against another value is
// not about the advantage over the fair share).
func firstPlayerTest(tests []Test, i int, fair float64) *Test {
	for k := range tests {
		if t := &tests[k]; t.cell == i && isOneSample(t) && t.Metric == "first-player" && t.EstB == fair {
			return t
		}
	}
	return nil
}

// firstPlayerAdvantage is cell i's first player's win rate minus the fair
// share, with its 95% interval: the one-sample test's own, which agrees
// with its p to the last bit (dualToScore), when the report tests it;
// else the Wilson interval shifted by the fair share.
func (r *Result) firstPlayerAdvantage(tests []Test, i int) (v, lo, hi float64, t *Test) {
	fair := 1 / float64(r.Experiment.Cells[i].Config.Players)
	if t := firstPlayerTest(tests, i, fair); t != nil {
		return t.Effect, t.EffectLo, t.EffectHi, t
	}
	v, lo, hi = estimate(Metric{Kind: MetricFirstPlayer}, &r.Cells[i].Stats)
	return v - fair, lo - fair, hi - fair, nil
}

// playerFindings: game length and the first player's advantage by table
// size, in sentences and a table.
func (r *Result) playerFindings(b *strings.Builder, tests []Test) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	e := r.Experiment
	names, groups := r.tableGroups()
	for k, g := range groups {
		if len(g) < 2 {
			continue
		}
		first, last := g[0], g[len(g)-1]
		a, b := r.Cells[first].Stats.Turns.MeanCI(sim.Confidence), r.Cells[last].Stats.Turns.MeanCI(sim.Confidence)
		best, bestAdv := -1, 0.0
		for _, i := range g {
			v, _, _ := estimate(Metric{Kind: MetricFirstPlayer}, &r.Cells[i].Stats)
			if adv := v - 1/float64(e.Cells[i].Config.Players); best < 0 || adv > bestAdv {
				best, bestAdv = i, adv
			}
		}
		name := groupName(e, names[k], g[0])
		w("- **%s**: a game lasts %s with %d players and %s with %d.", name, estCI("turns", a.Mean, a.Lo, a.Hi, 1), e.Cells[first].Config.Players,
			estCI("turns", b.Mean, b.Lo, b.Hi, 1), e.Cells[last].Config.Players)
		v, lo, hi, t := r.firstPlayerAdvantage(tests, best)
		// The largest estimate is an advantage only where the tests find
		// one: say how many table sizes differ from the fair share first.
		tested, above, below := 0, 0, 0
		for _, i := range g {
			if ft := firstPlayerTest(tests, i, 1/float64(e.Cells[i].Config.Players)); ft != nil && ft.NotTestable == "" {
				tested++
				switch {
				case ft.PHolm < 0.05 && ft.Effect > 0:
					above++
				case ft.PHolm < 0.05 && ft.Effect < 0:
					below++
				}
			}
		}
		largest := fmt.Sprintf("the largest estimate of the advantage, with %d players, is %s", e.Cells[best].Config.Players, signedCI("first-player", v, lo, hi, 1))
		if t != nil {
			largest += ", " + pWords("p_holm", t.PHolm)
		}
		switch {
		case tested == 0:
			w(" The first player's advantage over the fair share is not tested; %s.\n", largest)
		case above+below == 0:
			w(" At no table size does the first player's win rate differ from the fair share (none of %d tests has p_holm < 0.05); %s.\n", tested, largest)
		default:
			w(" The first player wins more often than the fair share at %d of %d table sizes", above, tested)
			if below > 0 {
				w(" and less often at %d", below)
			}
			w(" (p_holm < 0.05); %s.\n", largest)
		}
	}
	header := "rules"
	for _, a := range e.Axes {
		if a != "players" && a != "rules" {
			header = "cells"
		}
	}
	w("\n| %s | players | game length (turns): mean [95%% CI] | first player wins (%%) | fair share (%%) | first-player advantage (pp) [95%% CI] | p_holm |\n|---|---:|---|---:|---:|---|---:|\n", header)
	for k, g := range groups {
		for _, i := range g {
			st := &r.Cells[i].Stats
			c := &e.Cells[i]
			m := st.Turns.MeanCI(sim.Confidence)
			v, _, _ := estimate(Metric{Kind: MetricFirstPlayer}, st)
			fair := 1 / float64(c.Config.Players)
			adv, lo, hi, t := r.firstPlayerAdvantage(tests, i)
			p := "–"
			if t != nil {
				p = pCell(t.PHolm)
			}
			w("| %s | %d | %.2f [%.2f, %.2f] | %.2f%% | %.2f%% | %s | %s |\n", groupName(e, names[k], i), c.Config.Players, m.Mean, m.Lo, m.Hi, 100*v, 100*fair,
				signedCI("first-player", adv, lo, hi, 2), p)
		}
	}
	w("\n")
}

// groupName names a group of cells that differ only in players: its
// coordinates, or the rules of cell i when nothing else varies.
func groupName(e *Experiment, name string, i int) string {
	if name != "all" {
		return name
	}
	if r := e.Cells[i].Coords["rules"]; r != "" {
		return r
	}
	return "every cell"
}

// surfaceFindings: where the best responses meet, and each side's best
// response to every choice of the other.
func (r *Result) surfaceFindings(b *strings.Builder, s *SurfaceResult) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	what := metricTitle(s.Metric)
	for _, m := range s.Meet {
		ri, ci := m[0], m[1]
		w("- **Equilibrium**: the best responses meet at %s=%s, %s=%s, where the %s is %s: neither side gains by moving alone on this grid.\n",
			s.Rows, s.RowValues[ri], s.Cols, s.ColValues[ci], what, estCI(s.Metric, s.Z[ri][ci], s.Lo[ri][ci], s.Hi[ri][ci], 1))
	}
	if len(s.Meet) == 0 {
		w("- **No pure equilibrium** on this grid: no cell is a best response for both sides.\n")
	}
	var parts []string
	for ci, ri := range s.BestRow {
		if ri >= 0 {
			parts = append(parts, fmt.Sprintf("%s → %s (%s)", s.ColValues[ci], s.RowValues[ri], withUnit(s.Metric, s.Z[ri][ci], 1)))
		}
	}
	w("- **Best %s** (raising the %s) against each %s: %s.\n", s.Rows, what, s.Cols, strings.Join(parts, ", "))
	parts = parts[:0]
	for ri, ci := range s.BestCol {
		if ci >= 0 {
			parts = append(parts, fmt.Sprintf("%s → %s (%s)", s.RowValues[ri], s.ColValues[ci], withUnit(s.Metric, s.Z[ri][ci], 1)))
		}
	}
	w("- **Best %s** (lowering it) against each %s: %s.\n", s.Cols, s.Rows, strings.Join(parts, ", "))
}

// testsSection renders the tests: one table per metric and kind, sorted
// by effect, the tests that cannot reject collapsed by reason, and the
// methods and notes as footnotes.
func testsSection(tests []Test) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	var notes []string // footnote texts, [^n1], [^n2], …
	mark := func(text string) string {
		i := slices.Index(notes, text)
		if i < 0 {
			i = len(notes)
			notes = append(notes, text)
		}
		return fmt.Sprintf("[^n%d]", i+1)
	}
	for _, oneSample := range []bool{false, true} {
		for _, metric := range testMetrics(tests, !oneSample) {
			var rows []Test
			blocked := map[string][]string{}
			var reasons []string
			for _, t := range tests {
				if t.Metric != metric || isOneSample(&t) != oneSample {
					continue
				}
				if t.NotTestable != "" {
					why := notTestableReason(&t)
					if _, ok := blocked[why]; !ok {
						reasons = append(reasons, why)
					}
					blocked[why] = append(blocked[why], subject(&t))
					continue
				}
				rows = append(rows, t)
			}
			slices.SortStableFunc(rows, func(a, b Test) int { return cmp.Compare(b.Effect, a.Effect) })
			unit := effectUnit(metric)
			if oneSample {
				ref := "the value tested against"
				if len(rows) > 0 {
					ref = oneSampleRef(&rows[0])
				}
				w("### %s against %s\n\n", capital(metricTitle(metric)), ref)
			} else {
				w("### %s: cell minus baseline\n\n", capital(metricTitle(metric)))
			}
			if len(rows) > 0 {
				methods := map[string]bool{}
				for _, t := range rows {
					methods[t.Method] = true
				}
				caption := ""
				if len(methods) == 1 {
					caption = " " + mark(rows[0].Method)
				}
				if oneSample {
					w("| cell | effect (%s) [95%% CI]%s | p_holm | p | %s | against | games |\n|---|---|---:|---:|---:|---:|---:|\n", unit, caption, metricTitle(metric)+" ("+metricUnit(metric)+")")
				} else {
					w("| comparison | effect (%s) [95%% CI]%s | p_holm | p | cell (%s) | baseline (%s) | pairs |\n|---|---|---:|---:|---:|---:|---:|\n", unit, caption, metricUnit(metric), metricUnit(metric))
				}
				for _, t := range rows {
					name := subject(&t)
					if t.Note != "" {
						name += " " + mark(t.Note)
					}
					eff := signedCI(metric, t.Effect, t.EffectLo, t.EffectHi, 2)
					if len(methods) > 1 {
						eff += " " + mark(t.Method)
					}
					w("| %s | %s | %s | %s | %s | %s | %s |\n", name, eff, pCell(t.PHolm), pCell(t.P), withUnit(metric, t.EstA, 2), withUnit(metric, t.EstB, 2), analysis.Thousands(t.N))
				}
				w("\n")
			}
			for _, why := range reasons {
				names := blocked[why]
				s := "s"
				if len(names) == 1 {
					s = ""
				}
				w("- %d test%s not testable: %s (%s).\n", len(names), s, why, strings.Join(names, ", "))
			}
			if len(reasons) > 0 {
				w("\n")
			}
		}
	}
	for i, n := range notes {
		w("[^n%d]: %s.\n", i+1, n)
	}
	if len(notes) > 0 {
		w("\n")
	}
	return b.String()
}

// seatTests are the one-sample score tests of every seat of every cell
// that played against the fair share 1/players, in cell and seat order,
// adjusted together by Holm's method; family is how many hypotheses that
// counts. With 2 players, when every game had a single winner, seat 1's
// rate is 1 minus seat 0's: the two tests are one hypothesis (the same
// |z| up to rounding), counted once, and both seats get its p_holm (analysis.HolmMirrored,
// as tune.HolmAlone does for a tournament's head-to-head pairs).
func (r *Result) seatTests() (tests []Test, family int) {
	var ps []float64
	var mirror []int
	for i, c := range r.Experiment.Cells {
		st := &r.Cells[i].Stats
		if st.Games == 0 {
			continue
		}
		wins := make([]int64, c.Config.Players)
		copy(wins, st.WinsBySeat)
		// With 2 players, every game had a single winner: no shared win,
		// and the seats' wins add up to the games.
		single := len(wins) == 2 && st.SharedWins == 0 && wins[0]+wins[1] == st.Games
		for s, x := range wins {
			t := oneSampleTest(x, st.Games, 1/float64(c.Config.Players))
			t.cell = i
			same := -1
			if s == 1 && single {
				same = len(tests) - 1
			}
			tests = append(tests, t)
			ps = append(ps, t.P)
			mirror = append(mirror, same)
		}
	}
	for k, p := range analysis.HolmMirrored(ps, mirror) {
		tests[k].PHolm = p
		if !math.IsNaN(ps[k]) && mirror[k] < 0 {
			family++
		}
	}
	return tests, family
}

// seatSection renders the win rate of every seat against the fair share,
// with a one-sample score test per seat, Holm-adjusted over the table
// (seatTests).
func (r *Result) seatSection() string {
	e := r.Experiment
	seats := 0
	for i, c := range e.Cells {
		if r.Cells[i].Stats.Games > 0 {
			seats = max(seats, c.Config.Players)
		}
	}
	if seats == 0 {
		return ""
	}
	tests, family := r.seatTests()
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("## Seat advantage\n\n")
	// The interval is Wilson's, the score test's own (the set of shares it
	// does not reject at 5%), as in the Tests section: it is unadjusted, so
	// a bold effect's excludes 0, but one that excludes 0 need not survive
	// Holm's method.
	w("Each seat's win rate minus the fair share 1/players, in percentage points (pp), with its 95%% Wilson interval (the interval of the one-sample score test, before Holm's adjustment); seat 0 acts first; games: the cell's games, the sample of every seat. **Bold**: the seat differs from the fair share (one-sample score test, p_holm < 0.05, Holm's method over the %d tests of this table, a 2-player cell counting once when every game had a single winner, since seat 1's rate is then 1 minus seat 0's; these tests are not in the family of the Tests section).\n\n", family)
	w("| cell | games | fair share (%%) |")
	for s := range seats {
		w(" seat %d (pp) [95%% CI] |", s)
	}
	w("\n|---|---:|---:|%s\n", strings.Repeat("---:|", seats))
	k := 0
	for i, c := range e.Cells {
		if r.Cells[i].Stats.Games == 0 {
			continue
		}
		w("| %s | %s | %.2f%% |", c.Label, analysis.Thousands(r.Cells[i].Stats.Games), 100/float64(c.Config.Players))
		for s := range seats {
			if s >= c.Config.Players {
				w(" |")
				continue
			}
			t := tests[k]
			k++
			v := fmt.Sprintf("%+.2f [%+.2f, %+.2f]", 100*t.Effect, 100*t.EffectLo, 100*t.EffectHi)
			if t.PHolm < 0.05 {
				v = "**" + v + "**"
			}
			w(" %s |", v)
		}
		w("\n")
	}
	w("\n")
	return b.String()
}
