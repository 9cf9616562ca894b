package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

// progressAfter is how long a run goes before its progress shows, and
// ttyInterval how often a terminal's bar is redrawn (variables for tests).
var (
	progressAfter = time.Second
	ttyInterval   = 200 * time.Millisecond
)

// progressPrinter shows a run's progress on stderr: a live bar on a
// terminal, otherwise a plain line at each call; nothing in the first second.
// finish must be called before anything is printed on stdout, so that the
// report never shares the bar's line.
type progressPrinter struct {
	w           io.Writer
	tty         bool
	shown       bool
	done, total int64
	elapsed     time.Duration
}

func newProgressPrinter(w io.Writer, tty bool) *progressPrinter {
	return &progressPrinter{w: w, tty: tty}
}

func (p *progressPrinter) update(done, total int64, elapsed time.Duration) {
	p.done, p.total, p.elapsed = done, total, elapsed
	if elapsed < progressAfter || done == 0 {
		return
	}
	p.draw(done, total, elapsed, false)
}

func (p *progressPrinter) draw(done, total int64, elapsed time.Duration, final bool) {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed.Seconds()
	}
	left := timeLeft(float64(total-done) / rate) // +Inf (no rate yet) prints as "more than"
	frac := min(1, float64(done)/float64(total))
	if final {
		frac, left = 1, "done in "+elapsed.Round(time.Second/10).String()
	} else {
		left = "about " + left + " left"
	}
	if p.tty {
		const width = 30
		fill := int(frac * width)
		fmt.Fprintf(p.w, "\r[%s%s] %5.1f%%  %s/%s games  %s games/s  %s\x1b[K",
			strings.Repeat("=", fill), strings.Repeat(" ", width-fill), 100*frac,
			thousands(done), thousands(total), thousands(int64(rate)), left)
	} else {
		fmt.Fprintf(p.w, "unosim: %s/%s games (%.1f%%), %s games/s, %s\n",
			thousands(done), thousands(total), 100*frac, thousands(int64(rate)), left)
	}
	p.shown = true
}

// finish ends the bar: on a terminal, a last bar at 100% when the run
// completed (a run stopped early by --ci-width plays fewer games than
// planned) and a newline. It may be called more than once.
func (p *progressPrinter) finish(complete bool) {
	if !p.shown {
		return
	}
	if complete && p.tty {
		p.draw(p.done, p.total, p.elapsed, true)
	}
	if p.tty {
		fmt.Fprintln(p.w)
	}
	p.shown = false
}

// thousands formats n with comma separators.
var thousands = analysis.Thousands

func pct[F ~float64](x F) string {
	if math.IsNaN(float64(x)) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(x))
}

func ci(c [2]sim.Float) string { return fmt.Sprintf("[%s, %s]", pct(c[0]), pct(c[1])) }

// unfinished says how many games ended unfinished and which cap stopped
// them: a round's max-turns, or the match's 10,000 rounds.
func unfinished(s *sim.Summary) string {
	if s.Unfinished == 0 {
		return "0"
	}
	var why []string
	if s.UnfinishedTurnCap > 0 {
		why = append(why, "max-turns "+thousands(s.UnfinishedTurnCap))
	}
	if s.UnfinishedMatchCap > 0 {
		why = append(why, fmt.Sprintf("match cap of %s rounds %s", thousands(engine.MaxRounds), thousands(s.UnfinishedMatchCap)))
	}
	return fmt.Sprintf("%s (%s)", thousands(s.Unfinished), strings.Join(why, ", "))
}

// plural is n with its noun, singular for 1: "1 directory", "2 directories".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(int64(n)) + " " + many
}

func games(n int64) string {
	if n == 1 {
		return "1 game"
	}
	return thousands(n) + " games"
}

// summaryWarnings are the cautions a reader of the figures needs, for stderr.
func summaryWarnings(s *sim.Summary) []string {
	var w []string
	if c := s.UnfinishedTurnCap; c > 0 {
		w = append(w, fmt.Sprintf("%s of %s (%.3g%%) stopped at max-turns=%s: the length statistics (turns, cards played and drawn) include them at their capped length, so they understate the lengths; raise max-turns to avoid it",
			games(c), thousands(s.Games), 100*float64(c)/float64(s.Games), s.Options["max-turns"]))
	}
	if c := s.UnfinishedMatchCap; c > 0 {
		w = append(w, fmt.Sprintf("%s of %s reached the match cap of %s rounds short of the target (a deck whose cards score too little?); they count as unfinished",
			games(c), thousands(s.Games), thousands(engine.MaxRounds)))
	}
	return w
}

func warn(a *app, msgs []string) {
	for _, m := range msgs {
		fmt.Fprintln(a.stderr, "unosim: warning:", m)
	}
}

// printSummary prints the readable table of a run.
func printSummary(w io.Writer, s *sim.Summary) {
	if !s.Complete {
		fmt.Fprintf(w, "INCOMPLETE: interrupted after %s of %s games; the figures cover only those.\n\n",
			thousands(s.Games), thousands(s.PlannedRange[1]-s.PlannedRange[0]))
	}
	played := fmt.Sprintf("%s games (indices %d-%d of %s)", thousands(s.Games), s.GameRange[0], s.GameRange[1]-1, thousands(s.TotalGames))
	if s.GameRange[1] <= s.GameRange[0] {
		played = fmt.Sprintf("%s games of %s", thousands(s.Games), thousands(s.TotalGames))
	}
	fmt.Fprintf(w, "unosim %s: %s rules, %d players, %s, seed %d, %s seats\n", s.Version, s.Rules, s.Players, played, s.Seed, s.Seats)
	var changed []string
	for _, k := range slices.Sorted(maps.Keys(s.Options)) {
		if def, ok := defaultOption(s.Rules, k); ok && def != s.Options[k] {
			changed = append(changed, k+"="+s.Options[k])
		}
	}
	if len(changed) > 0 {
		fmt.Fprintf(w, "options changed from the %s defaults: %s\n", s.Rules, strings.Join(changed, " "))
	}
	if s.Rules == "party" || s.Options["deck"] != s.Rules {
		fmt.Fprintf(w, "deck: %s\n", s.Deck) // the Party deck is assumed (RULES.md section 1): always say which
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "games\tfinished %s\tunfinished %s\tblocked %s\n", thousands(s.Finished), unfinished(s), thousands(s.Blocked))
	fmt.Fprintln(tw, "\tmean [95% CI]\tsd\tp10\tp50\tp90\tp99\tmax")
	for _, d := range []struct {
		name string
		d    sim.Dist
	}{{"turns per game", s.Turns}, {"cards played", s.CardsPlayed}, {"cards drawn", s.CardsDrawn}, {"rounds per game", s.Rounds}, {"points per round", s.RoundPoints}, {"points per match", s.MatchPoints}} {
		if d.d.N == 0 || (s.Rounds.Max <= 1 && (d.name == "rounds per game" || d.name == "points per match")) {
			continue // single games: one round, match points = round points
		}
		fmt.Fprintf(tw, "%s\t%.2f [%.2f, %.2f]\t%.2f\t%g\t%g\t%g\t%g\t%d\n", d.name, d.d.Mean, d.d.MeanCI[0], d.d.MeanCI[1], d.d.SD, d.d.P10, d.d.P50, d.d.P90, d.d.P99, d.d.Max)
	}
	tw.Flush()
	fmt.Fprintln(w, "(quantiles: the smallest value whose cumulative share reaches p)")
	if s.UnfinishedTurnCap > 0 {
		fmt.Fprintf(w, "(%s cut off at max-turns=%s are counted at their capped length)\n", games(s.UnfinishedTurnCap), s.Options["max-turns"])
	}
	if s.RoundPoints.N > 0 && s.Unfinished+s.Blocked > 0 {
		// Only a finished round (match) has points: say over how many,
		// since it is not the number of games.
		n := fmt.Sprintf("points per round: over the %s finished rounds", thousands(s.RoundPoints.N))
		if s.Rounds.Max > 1 && s.MatchPoints.N > 0 {
			n += fmt.Sprintf(", per match: over the %s finished matches", thousands(s.MatchPoints.N))
		}
		fmt.Fprintf(w, "(%s; an unfinished one scores no points)\n", n)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\tstrategy\twins\twin rate [95% Wilson CI]")
	for seat, r := range s.WinRateBySeat {
		strat := s.Strategies[seat]
		if s.Seats == "rotate" {
			strat = "(rotating)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s %s\n", seat, strat, thousands(s.WinsBySeat[seat]), pct(r), ci(s.WinCIBySeat[seat]))
	}
	tw.Flush()
	if len(s.WinsByStrategy) > 1 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "strategy\tseats\twins\twin rate [95% Wilson CI]")
		for _, sw := range s.WinsByStrategy {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s %s\n", sw.Strategy, len(sw.Positions), thousands(sw.Successes), pct(sw.Rate.Rate), ci(sw.CI))
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nfirst player (took the first turn) won %s %s; fair share %s\n", pct(s.FirstPlayer.Rate), ci(s.FirstPlayer.CI), pct(s.FairShare))
	if s.SharedWins > 0 || s.NoWinner > 0 {
		fmt.Fprintf(w, "shared wins %s, games without a winner %s\n", thousands(s.SharedWins), thousands(s.NoWinner))
	}
	// The counters as a table, every rate to 3 decimals (the totals are
	// exact): a rare event's rate in %.3g (0.0002) beside a common one's
	// (2.7, 3.22) read as numbers of another precision.
	var ev []string
	for _, k := range slices.Sorted(maps.Keys(s.Events)) {
		if s.Events[k] > 0 {
			ev = append(ev, k)
		}
	}
	if len(ev) > 0 {
		// Names left, numbers right-aligned on their decimal point.
		name, total := len("event"), len("total")
		for _, k := range ev {
			name, total = max(name, len(k)), max(total, len(thousands(s.Events[k])))
		}
		fmt.Fprintf(w, "\n%-*s  %*s  %s\n", name, "event", total, "total", "per game")
		for _, k := range ev {
			fmt.Fprintf(w, "%-*s  %*s  %8s\n", name, k, total, thousands(s.Events[k]), perGame(s.EventsPerGame[k]))
		}
	}
	fmt.Fprintf(w, "\n%s games/s (%.2f s", thousands(int64(s.GamesPerSecond)), s.ElapsedSeconds)
	switch s.Workers {
	case 0: // merged from shards
	case 1:
		fmt.Fprint(w, ", 1 worker")
	default:
		fmt.Fprintf(w, ", %d workers", s.Workers)
	}
	fmt.Fprintln(w, ")")
}

// perGame is a counter's mean per game to 3 decimals, "<0.001" for one
// that happened but rounds to 0.
func perGame(v float64) string {
	if v > 0 && v < 0.0005 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", v)
}
