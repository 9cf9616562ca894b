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

	"github.com/unosim/unosim/sim"
)

// progressPrinter shows a run's progress on stderr: a live bar on a
// terminal, otherwise a plain line at each call; nothing in the first second.
type progressPrinter struct {
	w     io.Writer
	tty   bool
	shown bool
}

func newProgressPrinter(w io.Writer, tty bool) *progressPrinter {
	return &progressPrinter{w: w, tty: tty}
}

func (p *progressPrinter) update(done, total int64, elapsed time.Duration) {
	if elapsed < time.Second || done == 0 {
		return
	}
	rate := float64(done) / elapsed.Seconds()
	left := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
	frac := float64(done) / float64(total)
	if p.tty {
		const width = 30
		fill := int(frac * width)
		fmt.Fprintf(p.w, "\r[%s%s] %5.1f%%  %s/%s games  %s games/s  %s left   ",
			strings.Repeat("=", fill), strings.Repeat(" ", width-fill), 100*frac,
			thousands(done), thousands(total), thousands(int64(rate)), left)
	} else {
		fmt.Fprintf(p.w, "unosim: %s/%s games (%.1f%%), %s games/s, about %s left\n",
			thousands(done), thousands(total), 100*frac, thousands(int64(rate)), left)
	}
	p.shown = true
}

func (p *progressPrinter) finish() {
	if p.tty && p.shown {
		fmt.Fprintln(p.w)
	}
}

// thousands formats n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func pct[F ~float64](x F) string {
	if math.IsNaN(float64(x)) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(x))
}

func ci(c [2]sim.Float) string { return fmt.Sprintf("[%s, %s]", pct(c[0]), pct(c[1])) }

// printSummary prints the readable table of a run.
func printSummary(w io.Writer, s *sim.Summary) {
	if !s.Complete {
		fmt.Fprintf(w, "INCOMPLETE: interrupted after %s of %s games; the figures cover only those.\n\n",
			thousands(s.Games), thousands(s.PlannedRange[1]-s.PlannedRange[0]))
	}
	fmt.Fprintf(w, "unosim %s: %s rules, %d players, %s games (indices %d-%d of %s), seed %d, %s seats\n",
		s.Version, s.Rules, s.Players, thousands(s.Games), s.GameRange[0], s.GameRange[1]-1, thousands(s.TotalGames), s.Seed, s.Seats)
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
	fmt.Fprintf(tw, "games\tfinished %s\tunfinished (turn cap) %s\tblocked %s\n", thousands(s.Finished), thousands(s.Unfinished), thousands(s.Blocked))
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
	var ev []string
	for _, k := range slices.Sorted(maps.Keys(s.Events)) {
		if s.Events[k] > 0 {
			ev = append(ev, fmt.Sprintf("%s %.3g", k, s.EventsPerGame[k]))
		}
	}
	if len(ev) > 0 {
		fmt.Fprintf(w, "per game: %s\n", strings.Join(ev, ", "))
	}
	fmt.Fprintf(w, "\n%s games/s (%.2f s)\n", thousands(int64(s.GamesPerSecond)), s.ElapsedSeconds)
}
