package sim

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
)

// ReportFiles are the files WriteReport writes into a run's directory,
// report.md last.
var ReportFiles = []string{
	"plots/game-length.png", "plots/game-length.svg",
	"plots/win-rate-by-seat.png", "plots/win-rate-by-seat.svg",
	"plots/win-rate-by-strategy.png", "plots/win-rate-by-strategy.svg",
	"report.md",
}

// WriteReport writes report.md and its plots (the game-length distribution,
// win rates by seat and by strategy with their 95% intervals) for the
// record f of a plain run into dir. stop (may be empty) says why a run of
// variable length stopped. The plots are written first and report.md last,
// each atomically, so a report.md present is a whole report.
func WriteReport(dir string, f *StatsFile, version, stop string) error {
	sum := f.Summary(version)
	if sum.Games == 0 {
		return fmt.Errorf("report: %s holds no game", dir)
	}
	plots := filepath.Join(dir, "plots")
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return err
	}
	const w, h = 16 * vg.Centimeter, 10 * vg.Centimeter
	lp, err := analysis.GameLengthPlot(fmt.Sprintf("Game length: %s, %d players (%s games)", sum.Rules, sum.Players, comma(sum.Games)), &f.Stats.Turns)
	if err != nil {
		return err
	}
	if err := analysis.SavePlot(lp, plots, "game-length", w, h); err != nil {
		return err
	}
	labels, est, lo, hi := seatRates(sum)
	sp, err := analysis.WinRatePlot("Win rate by seat (seat 0 acts first in round 1)", seatAxis(sum), labels, est, lo, hi, sum.FairShare)
	if err != nil {
		return err
	}
	if err := analysis.SavePlot(sp, plots, "win-rate-by-seat", w, h); err != nil {
		return err
	}
	labels, est, lo, hi = strategyRates(sum)
	// No single fair share: a strategy's is its seats' share of the table,
	// marked at each strategy (a strategy in 2 of 3 seats wins 2/3 of the
	// games if it is no better than the others).
	var shares []float64
	for _, w := range sum.WinsByStrategy {
		shares = append(shares, strategyShare(sum, w))
	}
	stp, err := analysis.WinRatePlotShares("Win rate by strategy (games won by any seat playing it)", "strategy (line-up positions)", labels, est, lo, hi, shares)
	if err != nil {
		return err
	}
	if err := analysis.SavePlot(stp, plots, "win-rate-by-strategy", w, h); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(ReportMarkdown(f, sum, stop)))
}

func comma(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + comma(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func finite(v Float) float64 {
	if math.IsNaN(float64(v)) {
		return 0
	}
	return float64(v)
}

// seatNamed reports whether the seat plot names each seat's strategy:
// with fixed seats and more than one strategy.
func seatNamed(s *Summary) bool {
	return s.Seats == FixedSeats.String() && len(s.WinsByStrategy) > 1
}

// seatAxis is the seat plot's x label: "seat (strategy)" only when the
// labels name the strategies.
func seatAxis(s *Summary) string {
	if seatNamed(s) {
		return "seat (strategy)"
	}
	return "seat"
}

func seatRates(s *Summary) (labels []string, est, lo, hi []float64) {
	for i, r := range s.WinRateBySeat {
		l := fmt.Sprintf("%d", i)
		if seatNamed(s) && i < len(s.Strategies) {
			l += " (" + s.Strategies[i] + ")"
		}
		labels = append(labels, l)
		est, lo, hi = append(est, finite(r)), append(lo, finite(s.WinCIBySeat[i][0])), append(hi, finite(s.WinCIBySeat[i][1]))
	}
	return
}

func positions(p []int) string {
	var s []string
	for _, x := range p {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

// strategyShare is the fair share of the strategy w: the share of the
// table's seats it holds, the rate at which it wins if it plays no better
// than the others.
func strategyShare(s *Summary, w StrategyWins) float64 {
	if s.Players == 0 {
		return 0
	}
	return float64(len(w.Positions)) / float64(s.Players)
}

// seatsText is "1 seat" or "2 seats (positions 1, 2)".
func seatsText(p []int) string {
	if len(p) == 1 {
		return fmt.Sprintf("1 seat, position %d", p[0])
	}
	return fmt.Sprintf("%d seats, positions %s", len(p), positions(p))
}

func strategyRates(s *Summary) (labels []string, est, lo, hi []float64) {
	for _, w := range s.WinsByStrategy {
		labels = append(labels, fmt.Sprintf("%s (%s)", w.Strategy, positions(w.Positions)))
		est, lo, hi = append(est, finite(w.Rate.Rate)), append(lo, finite(w.CI[0])), append(hi, finite(w.CI[1]))
	}
	return
}

func pctCI(r, lo, hi Float) string {
	return fmt.Sprintf("%.2f%% [%.2f, %.2f]", 100*finite(r), 100*finite(lo), 100*finite(hi))
}

// ReportMarkdown is the report.md of a plain run: the findings first, then
// the configuration, the game lengths and the win rates with their plots.
func ReportMarkdown(f *StatsFile, s *Summary, stop string) string {
	var b strings.Builder
	wr := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	wr("# Simulation: %s, %d players\n\n", s.Rules, s.Players)
	if !s.Complete {
		wr("**INCOMPLETE: the run was interrupted after %s of its %s games; every figure covers only the games played. Rerun the same command to resume it.**\n\n",
			comma(s.Games), comma(s.PlannedRange[1]-s.PlannedRange[0]))
	}
	if f.Shard != "" && f.Shard != "0/1" {
		wr("**ONE SHARD (%s): game indices %d to %d of a run of %s games; merge the shards ('unosim merge') for the whole run.**\n\n",
			f.Shard, s.GameRange[0], s.GameRange[1]-1, comma(s.TotalGames))
	}
	wr("## Findings\n\n")
	t := s.Turns
	wr("- **Game length: %.2f turns** [95%% CI %.2f, %.2f] over %s games; median %.0f, 90%% of games within %.0f turns, 99%% within %.0f (longest %d).\n",
		finite(t.Mean), finite(t.MeanCI[0]), finite(t.MeanCI[1]), comma(s.Games), finite(t.P50), finite(t.P90), finite(t.P99), t.Max)
	best, worst := 0, 0
	for i, r := range s.WinRateBySeat {
		if r > s.WinRateBySeat[best] {
			best = i
		}
		if r < s.WinRateBySeat[worst] {
			worst = i
		}
	}
	if len(s.WinRateBySeat) > 0 {
		wr("- **Seats:** seat %d wins most often, %s, against a fair share of %.2f%%; seat %d least often, %s.\n",
			best, pctCI(s.WinRateBySeat[best], s.WinCIBySeat[best][0], s.WinCIBySeat[best][1]), 100*s.FairShare,
			worst, pctCI(s.WinRateBySeat[worst], s.WinCIBySeat[worst][0], s.WinCIBySeat[worst][1]))
	}
	fp := s.FirstPlayer
	wr("- **First player:** the player who takes the first turn wins %s of games (fair share %.2f%%).\n", pctCI(fp.Rate, fp.CI[0], fp.CI[1]), 100*s.FairShare)
	if len(s.WinsByStrategy) > 1 {
		// Ranked by the win rate over the fair share (the share of the
		// seats held): a strategy in more seats wins more games without
		// playing better.
		ws := slices.Clone(s.WinsByStrategy)
		rel := func(w StrategyWins) float64 {
			if f := strategyShare(s, w); f > 0 {
				return finite(w.Rate.Rate) / f
			}
			return 0
		}
		slices.SortStableFunc(ws, func(a, b StrategyWins) int {
			switch {
			case rel(a) > rel(b):
				return -1
			case rel(a) < rel(b):
				return 1
			}
			return 0
		})
		var parts []string
		for _, w := range ws {
			f := strategyShare(s, w)
			parts = append(parts, fmt.Sprintf("%s (%s) %s against a fair share of %.2f%% (%+.2f pp)", w.Strategy, seatsText(w.Positions),
				pctCI(w.Rate.Rate, w.CI[0], w.CI[1]), 100*f, 100*(finite(w.Rate.Rate)-f)))
		}
		wr("- **Strategies**, by win rate over their fair share (the share of the seats they hold): %s.\n", strings.Join(parts, "; "))
	}
	if u := s.Unfinished + s.Blocked; u > 0 {
		wr("- **Unfinished:** %s games (%.3f%%) ended at the turn or round cap or blocked.\n", comma(u), 100*float64(u)/float64(s.Games))
	} else {
		wr("- Every game finished.\n")
	}
	if stop != "" {
		wr("- **Stopping rule (--ci-width):** %s.\n", stop)
	}
	wr("\n## Configuration\n\n")
	opts := "the rule set's defaults"
	if ch := s.changedOptions(); ch != "" {
		opts = "`" + strings.ReplaceAll(ch, " ", "`, `") + "`, the rest the rule set's defaults"
	}
	wr("| | |\n| --- | --- |\n| rules | %s |\n| players | %d |\n| options | %s |\n| strategies (by line-up position) | %s |\n| seats | %s |\n| seed | %d |\n| games | %s (indices %d to %d) |\n| build | %s %s |\n\n",
		s.Rules, s.Players, opts, strings.Join(s.Strategies, ", "), s.Seats, s.Seed, comma(s.Games), s.GameRange[0], s.GameRange[1]-1, s.Version, s.Producer.Build)
	wr("## Game length\n\n![Game length](plots/game-length.png)\n\n")
	wr("| statistic | turns | cards played | cards drawn |\n| --- | ---: | ---: | ---: |\n")
	row := func(name string, v func(d Dist) string) {
		wr("| %s | %s | %s | %s |\n", name, v(s.Turns), v(s.CardsPlayed), v(s.CardsDrawn))
	}
	row("mean", func(d Dist) string { return fmt.Sprintf("%.2f", finite(d.Mean)) })
	row("95% CI of the mean", func(d Dist) string { return fmt.Sprintf("%.2f to %.2f", finite(d.MeanCI[0]), finite(d.MeanCI[1])) })
	row("standard deviation", func(d Dist) string { return fmt.Sprintf("%.2f", finite(d.SD)) })
	row("median", func(d Dist) string { return fmt.Sprintf("%.0f", finite(d.P50)) })
	row("10th / 90th percentile", func(d Dist) string { return fmt.Sprintf("%.0f / %.0f", finite(d.P10), finite(d.P90)) })
	row("99th percentile", func(d Dist) string { return fmt.Sprintf("%.0f", finite(d.P99)) })
	row("min / max", func(d Dist) string { return fmt.Sprintf("%d / %d", d.Min, d.Max) })
	wr("\nQuantiles: %s.\n\n", s.Quantiles)
	wr("## Win rate by seat\n\n![Win rate by seat](plots/win-rate-by-seat.png)\n\n")
	wr("| seat | strategy | win rate [95%% CI] | wins | vs fair share %.2f%% |\n| ---: | --- | ---: | ---: | ---: |\n", 100*s.FairShare)
	for i, r := range s.WinRateBySeat {
		strat := "rotating"
		if s.Seats == FixedSeats.String() && i < len(s.Strategies) {
			strat = s.Strategies[i]
		}
		wr("| %d | %s | %s | %s | %+.2f pp |\n", i, strat, pctCI(r, s.WinCIBySeat[i][0], s.WinCIBySeat[i][1]), comma(s.WinsBySeat[i]), 100*(finite(r)-s.FairShare))
	}
	wr("\n## Win rate by strategy\n\n![Win rate by strategy](plots/win-rate-by-strategy.png)\n\n")
	wr("| strategy | line-up positions | win rate [95%% CI] | wins | fair share (%%) | vs fair share |\n| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, w := range s.WinsByStrategy {
		f := strategyShare(s, w)
		wr("| %s | %s | %s | %s | %.2f%% | %+.2f pp |\n", w.Strategy, positions(w.Positions), pctCI(w.Rate.Rate, w.CI[0], w.CI[1]), comma(w.Successes), 100*f, 100*(finite(w.Rate.Rate)-f))
	}
	if len(s.WinsByStrategy) == 1 {
		wr("\nOne strategy plays every seat: it wins every game that has a winner, so this table says nothing about its strength.\n")
	}
	wr("\nWin rates are shares of all games (a shared win counts for every winner); a strategy's fair share is the share of the seats it holds (its win rate if it plays no better than the others); intervals are 95%% Wilson score intervals, the mean's a Student t interval. pp: percentage points.\n")
	if s.SharedWins > 0 || s.NoWinner > 0 {
		wr("Shared wins: %s; games without a winner: %s.\n", comma(s.SharedWins), comma(s.NoWinner))
	}
	return b.String()
}
