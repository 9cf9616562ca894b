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
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
	"github.com/unosim/unosim/tune"
)

type tournamentOptions struct {
	table      tableFlags
	strategies []string
	games      int64
	gamesFor   []string
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
Every strategy's win rate alone against a table of another (over all games; with 2 players,
head to head) is tested against the fair share 1/players, with a 95% interval over deals, and
its p printed beside p_holm, adjusted by Holm's method over the tournament's tests.
--games-for NAME=GAMES caps the games of every pair of a strategy (a pair plays the smaller cap
of its two), so that an expensive player such as ismcts can take part.
--out DIR receives tournament.json, the ratings plot (ratings.png, ratings.svg) and the
cross-table as a heat map (crosstable.png, crosstable.svg). A tournament experiment file
('unosim experiment run strength') runs this code for several player counts, with a report.`,
		Example: `  unosim tournament --strategy random --strategy heuristic --strategy heuristic:bluff=0.3
  unosim tournament --strategy heuristic --strategy heuristic:threshold=0.5 --players 4 --games 100000 --out tour
  unosim tournament --strategy heuristic --strategy counter --strategy ismcts --games 2000 --games-for ismcts=20`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTournament(cmd.Context(), a, o) },
	}
	fs := cmd.Flags()
	o.table.register(fs, 2)
	fs.StringArrayVar(&o.strategies, "strategy", nil, "a strategy NAME[:KEY=VALUE,...] (at least two)")
	int64Flag(fs, &o.games, "games", "a number of games", 20_000, 1, sim.MaxGames, "games per pair of strategies")
	fs.StringArrayVar(&o.gamesFor, "games-for", nil, "STRATEGY=GAMES: at most GAMES per pair for this strategy (a spec, or a name for all of that name; repeatable)")
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

// aloneRate is a strategy alone against a table of another.
type aloneRate struct {
	Strategy  string     `json:"strategy"`
	Table     string     `json:"table"` // in every other seat
	Games     int64      `json:"games"`
	Wins      int64      `json:"wins"`
	WinRate   float64    `json:"win_rate"` // over all games
	CI        [2]float64 `json:"ci"`       // 95%, Student t over deals
	FairShare float64    `json:"fair_share"`
	P         *float64   `json:"p"` // the t test against the fair share; null when not testable
	// P adjusted by Holm's method over the tournament's tests (tune.Alone);
	// null when not testable.
	PHolm *float64 `json:"p_holm"`
	// NotTestable says why there is no test (fewer than 2 deals, or every
	// deal gave the same result); such a rate is left out of Holm's family.
	NotTestable string `json:"not_testable,omitempty"`
}

type tournamentResult struct {
	Strategies   []string         `json:"strategies"`
	Players      int              `json:"players"`
	GamesPerPair int64            `json:"games_per_pair"`
	GamesFor     map[string]int64 `json:"games_for,omitempty"` // strategies with a cap: their games per pair at most
	Seed         uint64           `json:"seed"`
	Rules        string           `json:"rules"`
	Options      []string         `json:"options"`
	CrossTable   [][]h2h          `json:"cross_table"` // [row][column]
	Ratings      []rating         `json:"ratings"`     // in the order of Strategies; empty when not estimable
	RatingsError string           `json:"ratings_error,omitempty"`
	AloneVsTable []aloneRate      `json:"alone_vs_table"`
}

// newTournament is the round robin of specs at n players with games per
// pair (caps[i] > 0: at most caps[i] for strategy i) as whole deals, and
// the head of its result.
func newTournament(opts engine.Options, n int, specs []strategy.Spec, games int64, caps []int64, seed uint64, workers int) (*tune.Tournament, tournamentResult) {
	tr := &tune.Tournament{Options: opts, Players: n, Strategies: specs, Seed: seed, Workers: workers}
	dirs := int64(tr.Directions())
	tr.Deals = dealsFor(games/dirs, n)
	res := tournamentResult{Players: n, GamesPerPair: tr.Deals * int64(n) * dirs, Seed: seed, Rules: opts.Rules.String()}
	for _, v := range opts.Values() {
		res.Options = append(res.Options, v[0]+"="+v[1])
	}
	for i, s := range specs {
		res.Strategies = append(res.Strategies, s.String())
		if i < len(caps) && caps[i] > 0 {
			tr.DealsFor = append(tr.DealsFor, dealsFor(caps[i]/dirs, n))
			if res.GamesFor == nil {
				res.GamesFor = map[string]int64{}
			}
			res.GamesFor[s.String()] = tr.DealsFor[i] * int64(n) * dirs
		} else {
			tr.DealsFor = append(tr.DealsFor, 0)
		}
	}
	return tr, res
}

// fill computes the cross-table, the ratings and the alone-against-a-table
// rates from the matches.
func (res *tournamentResult) fill(matches []tune.Match) {
	k := len(res.Strategies)
	beat := tune.Beat(k, matches)
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
	res.Ratings, res.RatingsError = nil, ""
	if bt, err := tune.BradleyTerry(beat); err != nil {
		res.RatingsError = err.Error()
	} else {
		for i := range k {
			res.Ratings = append(res.Ratings, rating{Strategy: res.Strategies[i], Elo: bt.Elo[i], CI: [2]float64{bt.Lo[i], bt.Hi[i]}})
		}
	}
	res.AloneVsTable = []aloneRate{}
	for _, x := range tune.Alone(res.Players, matches) {
		res.AloneVsTable = append(res.AloneVsTable, aloneRate{Strategy: res.Strategies[x.Alone], Table: res.Strategies[x.Table], Games: x.Games, Wins: x.Wins,
			WinRate: x.WinRate, CI: x.CI, FairShare: x.Fair, P: fptr(x.P), PHolm: fptr(x.PHolm), NotTestable: x.NotTestable})
	}
}

// holmAgain adjusts the alone-against-a-table tests of a result read back
// from a file that an older build wrote, without p_holm, or with a p for
// a rate without variance (its interval a point: every deal gave the same
// result), which is no test.
func (res *tournamentResult) holmAgain() {
	idx := map[string]int{}
	for i, s := range res.Strategies {
		idx[s] = i
	}
	rates := make([]tune.AloneRate, len(res.AloneVsTable))
	for i := range res.AloneVsTable {
		x := &res.AloneVsTable[i]
		if x.NotTestable == "" && x.P != nil && x.CI[0] == x.CI[1] {
			x.NotTestable, x.P = tune.NotTestableSame, nil
		}
		rates[i] = tune.AloneRate{Alone: idx[x.Strategy], Table: idx[x.Table], Games: x.Games, Wins: x.Wins, P: math.NaN(), NotTestable: x.NotTestable}
		if x.P != nil {
			rates[i].P = *x.P
		}
	}
	tune.HolmAlone(res.Players, rates)
	for i := range rates {
		res.AloneVsTable[i].PHolm = fptr(rates[i].PHolm)
	}
}

// parseGamesFor reads --games-for STRATEGY=GAMES into caps per strategy.
func parseGamesFor(flags []string, specs []strategy.Spec) ([]int64, error) {
	caps := make([]int64, len(specs))
	for _, f := range flags {
		key, v, ok := strings.Cut(f, "=")
		g, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !ok || err != nil || g < 1 {
			return nil, usagef("--games-for %q: want STRATEGY=GAMES, a strategy of the tournament and at least 1 game, e.g. ismcts=20000", f)
		}
		named := tune.Named(specs, key)
		if len(named) == 0 {
			var names []string
			for _, s := range specs {
				names = append(names, s.String())
			}
			return nil, usagef("--games-for %q: %s is none of the tournament's strategies (%s)", f, key, strings.Join(names, ", "))
		}
		for _, i := range named {
			if caps[i] == 0 || g < caps[i] {
				caps[i] = g
			}
		}
	}
	return caps, nil
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
	caps, err := parseGamesFor(o.gamesFor, specs)
	if err != nil {
		return err
	}
	for i, c := range caps {
		if c > 0 && c < int64(n) {
			return usagef("--games-for %s=%d: want at least one deal, %d games (a deal is one game per seat)", specs[i], c, n)
		}
	}
	tr, res := newTournament(opts, n, specs, o.games, caps, o.table.seed, o.table.workers)
	if o.out != "" {
		// An existing directory holding the same tournament is complete: it
		// is reported again; any other is refused.
		if data, err := os.ReadFile(filepath.Join(o.out, "tournament.json")); err == nil {
			var done tournamentResult
			if err := json.Unmarshal(data, &done); err != nil || !sameTournament(&done, &res) {
				return usagef("--out %s holds a different tournament: choose a new directory", o.out)
			}
			fmt.Fprintf(a.stderr, "unosim: the tournament in %s is already complete\n", o.out)
			done.holmAgain()
			if o.table.json {
				return printJSON(a.stdout, done)
			}
			printTournament(a.stdout, &done)
			return nil
		}
		// The plots of a tournament killed before its tournament.json (a
		// complete one has it) are written again.
		if sim.Unused(o.out, tournamentPlots...) {
			removeTournamentPlots(o.out)
		}
		if err := sim.PrepareOut(o.out); err != nil {
			return usageError{err}
		}
		defer func() {
			if !fileExists(filepath.Join(o.out, "tournament.json")) {
				// A run that failed: its plots go, so nothing looks complete.
				removeTournamentPlots(o.out)
				os.Remove(o.out) // (if nothing else is there)
			}
		}()
	}
	start := time.Now()
	prog := newProgressPrinter(a.stderr, a.stderrIsTTY)
	if !o.table.quiet {
		total := tr.Games()
		tr.Progress = func(done int64) { prog.update(done, total, time.Since(start)) }
	}
	matches, err := tr.Play(ctx)
	if err != nil {
		return interruptedOr(ctx, err, "nothing was reported or written: a tournament reports when every pair is played (a tournament experiment file, 'unosim experiment run', resumes from its finished matches)")
	}
	prog.finish(true)
	res.fill(matches)
	if o.out != "" {
		if err := writeTournamentPlots(o.out, "", &res, analysis.SaveOptions{}); err != nil {
			return runtimeError{err}
		}
		data, err := json.MarshalIndent(&res, "", "  ")
		if err != nil {
			return runtimeError{err}
		}
		if err := sim.WriteFileAtomic(filepath.Join(o.out, "tournament.json"), append(data, '\n')); err != nil {
			return runtimeError{err}
		}
	}
	if o.table.json {
		return printJSON(a.stdout, res)
	}
	printTournament(a.stdout, &res)
	return nil
}

// tournamentPlots are the files a tournament writes into --out before
// tournament.json.
var tournamentPlots = []string{"ratings.png", "ratings.svg", "crosstable.png", "crosstable.svg"}

// removeTournamentPlots removes the tournamentPlots in dir.
func removeTournamentPlots(dir string) {
	for _, name := range tournamentPlots {
		os.Remove(filepath.Join(dir, name))
	}
}

// sameTournament reports whether two results are of the same run.
func sameTournament(a, b *tournamentResult) bool {
	return slices.Equal(a.Strategies, b.Strategies) && a.Players == b.Players && a.GamesPerPair == b.GamesPerPair &&
		a.Seed == b.Seed && a.Rules == b.Rules && slices.Equal(a.Options, b.Options) && fmt.Sprint(a.GamesFor) == fmt.Sprint(b.GamesFor)
}

// writeTournamentPlots writes the ratings plot and the cross-table heat map
// as ratings{suffix} and crosstable{suffix}.
func writeTournamentPlots(dir, suffix string, r *tournamentResult, so analysis.SaveOptions) error {
	figs, err := tournamentFigures(r)
	if err != nil {
		return err
	}
	for _, f := range figs {
		if err := analysis.SaveFigure(f.fig, dir, f.name+suffix, f.width, f.height, so); err != nil {
			return err
		}
	}
	return nil
}

// tourFigure is one plot of a tournament: its file name (without the
// player-count suffix), the figure and its size.
type tourFigure struct {
	name          string
	fig           analysis.Figure
	width, height vg.Length
}

// tournamentFigures are the plots of one player count: the ratings (when
// they could be estimated) and the cross-table as a heat map.
func tournamentFigures(r *tournamentResult) ([]tourFigure, error) {
	var out []tourFigure
	if len(r.Ratings) > 0 {
		var labels []string
		var est, lo, hi []float64
		for _, x := range r.Ratings {
			labels, est, lo, hi = append(labels, x.Strategy), append(est, x.Elo), append(lo, x.CI[0]), append(hi, x.CI[1])
		}
		p, err := analysis.ErrorBarPlot(fmt.Sprintf("Bradley-Terry ratings, %d players, %s games a pair", r.Players, thousands(r.GamesPerPair)),
			"rating (Elo points, mean 0; 95% CI)", labels, est, lo, hi, 0)
		if err != nil {
			return nil, err
		}
		if p.X.Tick.Label.Rotation != 0 {
			// Long labels (strategy specs) overlap even at a slant:
			// upright they take only their height side by side.
			p.X.Tick.Label.Rotation = math.Pi / 2
			p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		}
		out = append(out, tourFigure{"ratings", p, 16 * vg.Centimeter, 12 * vg.Centimeter})
	}
	// The cross-table as a heat map, in %: row against column, blank on
	// the diagonal, white at 50% (as often won as lost). The columns are
	// numbered as the rows (and as report.md's table): the specs side by
	// side would overlap.
	z := make([][]float64, len(r.Strategies))
	rows, cols := make([]string, len(r.Strategies)), make([]string, len(r.Strategies))
	for i := range z {
		rows[i], cols[i] = fmt.Sprintf("%d %s", i+1, r.Strategies[i]), strconv.Itoa(i+1)
		z[i] = make([]float64, len(r.Strategies))
		for j := range z[i] {
			z[i][j] = math.NaN()
			if c := r.CrossTable[i][j]; c.WinRate != nil {
				z[i][j] = 100 * *c.WinRate
			}
		}
	}
	// Row 1 at the top, as in report.md's table and the terminal's (the
	// heat map puts its row 0 at the bottom): the diagonal runs from the
	// top left to the bottom right, as a cross-table's does.
	slices.Reverse(rows)
	slices.Reverse(z)
	p, err := analysis.HeatMapWith(fmt.Sprintf("Head-to-head win rate of the row against the column, %d players", r.Players),
		"column strategy (numbered as the rows)", "row strategy", cols, rows, z,
		analysis.HeatOptions{Center: 50, BarLabel: "win rate of the row, decisive games (%)", Format: func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }})
	if err != nil {
		return nil, err
	}
	return append(out, tourFigure{"crosstable", p, 16 * vg.Centimeter, 12 * vg.Centimeter}), nil
}

// pIs writes "p = 0.0123", "p <1e-300".
func pIs(name string, p *float64) string {
	if v := pvalue(p); strings.HasPrefix(v, "<") {
		return name + " " + v
	}
	return name + " = " + pvalue(p)
}

// notTestableShort is a reason without its explanation (the part before
// a colon): "every deal gave the same result".
func notTestableShort(why string) string {
	short, _, _ := strings.Cut(why, ":")
	return short
}

// aloneTitle says what the alone-against-a-table rates are.
func aloneTitle(players int) string {
	if players == 2 {
		return "win rate head to head over all games (fair share 50.00%; 95% t interval over deals; p_holm: Holm's method over these tests):"
	}
	return fmt.Sprintf("win rate alone against a table of %d of the other, over all games (fair share %s; 95%% t interval over deals; p_holm: Holm's method over these tests):", players-1, pctText(1/float64(players)))
}

// printTournament prints the answer first: the ratings, best first, with
// report.md's separators; then the tests (the alone-against-a-table
// rates) and the cross-table, rates in %.
func printTournament(w io.Writer, r *tournamentResult) {
	fmt.Fprintf(w, "round robin of %d strategies, %d players, %s games a pair on duplicate deals (seed %d)\n", len(r.Strategies), r.Players, thousands(r.GamesPerPair), r.Seed)
	for _, s := range r.Strategies {
		if g, ok := r.GamesFor[s]; ok {
			fmt.Fprintf(w, "  %s: at most %s games a pair\n", s, thousands(g))
		}
	}
	fmt.Fprintln(w)
	if r.RatingsError != "" || len(r.Ratings) == 0 {
		fmt.Fprintf(w, "no ratings: %s\n\n", r.RatingsError)
	} else {
		fmt.Fprintln(w, "Bradley-Terry ratings, best first (Elo scale, mean 0, 95% interval):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		idx, seps := ratingsOrder(r)
		for k, i := range idx {
			x := r.Ratings[i]
			fmt.Fprintf(tw, "%s\t%s\t%+.1f\t[%+.1f, %+.1f]\n", strings.TrimSpace(seps[k]), x.Strategy, x.Elo, x.CI[0], x.CI[1])
		}
		tw.Flush()
		fmt.Fprintln(w, ">: the head-to-head tests find the strategy above stronger (p_holm < 0.05); ≈: they find no difference")
		fmt.Fprintln(w)
	}
	if len(r.AloneVsTable) > 0 {
		fmt.Fprintln(w, aloneTitle(r.Players))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, x := range r.AloneVsTable {
			test := pIs("p", x.P) + "\t" + pIs("p_holm", x.PHolm)
			if x.NotTestable != "" {
				test = "not testable: " + notTestableShort(x.NotTestable) + "\t"
			}
			fmt.Fprintf(tw, "%s\tvs %s\t%s [%s, %s]\t%s\n", x.Strategy, x.Table, pctText(x.WinRate), pctText(x.CI[0]), pctText(x.CI[1]), test)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
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
				fmt.Fprint(tw, "–\t")
				continue
			}
			fmt.Fprintf(tw, "%s [%s, %s]\t", pctText(*c.WinRate), pctText(c.CI[0]), pctText(c.CI[1]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
