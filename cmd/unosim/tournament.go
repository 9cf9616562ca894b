package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
	"github.com/unosim/unosim/tune"
)

type tournamentOptions struct {
	table      tableFlags
	strategies []string
	games      int64
	out        string
}

func newTournamentCmd(a *app) *cobra.Command {
	o := &tournamentOptions{}
	cmd := &cobra.Command{
		Use:   "tournament",
		Short: "Round robin of strategies on duplicate deals: cross-table and Bradley-Terry Elo ratings",
		Long: `Play every pair of --strategy on duplicate deals, each deal with each strategy in every seat in
turn. With 2 players a pair's games are head to head; with more, half are one strategy against
a table of the other and half the reverse, and a game counts as a win of whichever of the two
its winner plays. The cross-table holds head-to-head win rates of decisive games with Wilson
95% intervals; the ratings are Bradley-Terry maximum-likelihood strengths (Hunter's MM
algorithm) on the Elo scale, centred at 0, with 95% intervals from the information matrix.
--out DIR receives tournament.json, the ratings plot (ratings.png, ratings.svg) and the
cross-table as a heat map (crosstable.png, crosstable.svg).`,
		Example: `  unosim tournament --strategy random --strategy heuristic --strategy heuristic:bluff=0.3
  unosim tournament --strategy heuristic --strategy heuristic:threshold=0.5 --players 4 --games 100000 --out tour`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTournament(cmd.Context(), a, o) },
	}
	fs := cmd.Flags()
	o.table.register(fs, 2)
	fs.StringArrayVar(&o.strategies, "strategy", nil, "a strategy NAME[:KEY=VALUE,...] (at least two)")
	fs.Int64Var(&o.games, "games", 20_000, "games per pair of strategies")
	fs.StringVar(&o.out, "out", "", "write tournament.json and the ratings plot into this new directory")
	return cmd
}

// h2h is one cell of the cross-table: the row strategy against the column.
type h2h struct {
	Wins    int64      `json:"wins"`   // decisive games the row won
	Losses  int64      `json:"losses"` // decisive games the column won
	WinRate *float64   `json:"win_rate"`
	CI      [2]float64 `json:"ci"`
}

type rating struct {
	Strategy string     `json:"strategy"`
	Elo      float64    `json:"elo"`
	CI       [2]float64 `json:"ci"`
}

type tournamentResult struct {
	Strategies   []string `json:"strategies"`
	Players      int      `json:"players"`
	GamesPerPair int64    `json:"games_per_pair"`
	Seed         uint64   `json:"seed"`
	Rules        string   `json:"rules"`
	Options      []string `json:"options"`
	CrossTable   [][]h2h  `json:"cross_table"` // [row][column]
	Ratings      []rating `json:"ratings"`     // in the order of Strategies; empty when not estimable
	RatingsError string   `json:"ratings_error,omitempty"`
}

func runTournament(ctx context.Context, a *app, o *tournamentOptions) error {
	opts, err := o.table.options()
	if err != nil {
		return err
	}
	if len(o.strategies) < 2 {
		return usagef("--strategy given %d times: a tournament needs at least two strategies", len(o.strategies))
	}
	var specs []strategy.Spec
	for _, s := range o.strategies {
		sp, err := parseSpec("--strategy", s)
		if err != nil {
			return err
		}
		for _, p := range specs {
			if p.String() == sp.String() {
				return usagef("--strategy %s given twice", sp)
			}
		}
		specs = append(specs, sp)
	}
	n := o.table.players
	if o.games < int64(n) {
		return usagef("--games %d: want at least one deal per pair, %d games (a deal is one game per seat)", o.games, n)
	}
	k := len(specs)
	tr := &tune.Tournament{Options: opts, Players: n, Strategies: specs, Seed: o.table.seed, Workers: o.table.workers}
	tr.Deals = dealsFor(o.games/int64(tr.Directions()), n)
	res := tournamentResult{Players: n, GamesPerPair: tr.Deals * int64(n) * int64(tr.Directions()), Seed: o.table.seed, Rules: opts.Rules.String()}
	for _, v := range opts.Values() {
		res.Options = append(res.Options, v[0]+"="+v[1])
	}
	for _, s := range specs {
		res.Strategies = append(res.Strategies, s.String())
	}
	if o.out != "" {
		// An existing directory holding the same tournament is complete: it
		// is reported again; any other is refused.
		if data, err := os.ReadFile(filepath.Join(o.out, "tournament.json")); err == nil {
			var done tournamentResult
			if err := json.Unmarshal(data, &done); err != nil || !sameTournament(&done, &res) {
				return usagef("--out %s holds a different tournament: choose a new directory", o.out)
			}
			fmt.Fprintf(a.stderr, "unosim: the tournament in %s is already complete\n", o.out)
			if o.table.json {
				return printJSON(a.stdout, done)
			}
			printTournament(a.stdout, &done)
			return nil
		}
		if err := sim.PrepareOut(o.out); err != nil {
			return usageError{err}
		}
		defer func() {
			if !fileExists(filepath.Join(o.out, "tournament.json")) {
				os.RemoveAll(o.out) // only plots of a run that failed: nothing that looks complete
			}
		}()
	}
	start := time.Now()
	prog := newProgressPrinter(a.stderr, a.stderrIsTTY)
	if !o.table.quiet {
		total := tr.Games()
		tr.Progress = func(done int64) { prog.update(done, total, time.Since(start)) }
	}
	beat, err := tr.Play(ctx)
	if err != nil {
		return interruptedOr(ctx, err)
	}
	prog.finish(true)
	res.CrossTable = make([][]h2h, k)
	for i := range k {
		res.CrossTable[i] = make([]h2h, k)
		for j := range k {
			c := h2h{Wins: beat[i][j], Losses: beat[j][i]}
			if i != j && c.Wins+c.Losses > 0 {
				wr := float64(c.Wins) / float64(c.Wins+c.Losses)
				c.WinRate = &wr
				c.CI[0], c.CI[1] = analysis.Wilson(c.Wins, c.Wins+c.Losses, 0.95)
			}
			res.CrossTable[i][j] = c
		}
	}
	if bt, err := tune.BradleyTerry(beat); err != nil {
		res.RatingsError = err.Error()
	} else {
		for i := range k {
			res.Ratings = append(res.Ratings, rating{Strategy: res.Strategies[i], Elo: bt.Elo[i], CI: [2]float64{bt.Lo[i], bt.Hi[i]}})
		}
	}
	if o.out != "" {
		if err := writeTournament(o.out, &res); err != nil {
			return runtimeError{err}
		}
	}
	if o.table.json {
		return printJSON(a.stdout, res)
	}
	printTournament(a.stdout, &res)
	return nil
}

// sameTournament reports whether two results are of the same run.
func sameTournament(a, b *tournamentResult) bool {
	return slices.Equal(a.Strategies, b.Strategies) && a.Players == b.Players && a.GamesPerPair == b.GamesPerPair &&
		a.Seed == b.Seed && a.Rules == b.Rules && slices.Equal(a.Options, b.Options)
}

func writeTournament(dir string, r *tournamentResult) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if len(r.Ratings) > 0 {
		var labels []string
		var est, lo, hi []float64
		for _, x := range r.Ratings {
			labels, est, lo, hi = append(labels, x.Strategy), append(est, x.Elo), append(lo, x.CI[0]), append(hi, x.CI[1])
		}
		p, err := analysis.ErrorBarPlot(fmt.Sprintf("Bradley-Terry ratings, %d players, %d games a pair", r.Players, r.GamesPerPair),
			"rating (Elo points, mean 0; 95% CI)", labels, est, lo, hi, 0)
		if err != nil {
			return err
		}
		if err := analysis.SavePlot(p, dir, "ratings", 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
			return err
		}
	}
	// The cross-table as a heat map: row against column, blank on the
	// diagonal.
	z := make([][]float64, len(r.Strategies))
	for i := range z {
		z[i] = make([]float64, len(r.Strategies))
		for j := range z[i] {
			z[i][j] = math.NaN()
			if c := r.CrossTable[i][j]; c.WinRate != nil {
				z[i][j] = *c.WinRate
			}
		}
	}
	p, err := analysis.HeatMap(fmt.Sprintf("Head-to-head win rate of the row against the column, %d players", r.Players),
		"column strategy", "row strategy", r.Strategies, r.Strategies, z)
	if err != nil {
		return err
	}
	if err := analysis.SavePlot(p, dir, "crosstable", 16*vg.Centimeter, 12*vg.Centimeter); err != nil {
		return err
	}
	return sim.WriteFileAtomic(filepath.Join(dir, "tournament.json"), append(data, '\n'))
}

func printTournament(w io.Writer, r *tournamentResult) {
	fmt.Fprintf(w, "round robin of %d strategies, %d players, %s games a pair on duplicate deals (seed %d)\n\n", len(r.Strategies), r.Players, thousands(r.GamesPerPair), r.Seed)
	fmt.Fprintln(w, "head-to-head win rate of the row against the column (decisive games, 95% Wilson interval):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "\t")
	for i := range r.Strategies {
		fmt.Fprintf(tw, "%d\t", i+1)
	}
	fmt.Fprintln(tw)
	for i, s := range r.Strategies {
		fmt.Fprintf(tw, "%d %s\t", i+1, s)
		for j := range r.Strategies {
			c := r.CrossTable[i][j]
			if c.WinRate == nil {
				fmt.Fprint(tw, "-\t")
				continue
			}
			fmt.Fprintf(tw, "%.3f [%.3f, %.3f]\t", *c.WinRate, c.CI[0], c.CI[1])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w)
	if r.RatingsError != "" {
		fmt.Fprintf(w, "ratings: %s\n", r.RatingsError)
		return
	}
	fmt.Fprintln(w, "Bradley-Terry ratings (Elo scale, mean 0, 95% interval):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, x := range r.Ratings {
		fmt.Fprintf(tw, "%s\t%+.1f\t[%+.1f, %+.1f]\n", x.Strategy, x.Elo, x.CI[0], x.CI[1])
	}
	tw.Flush()
}
