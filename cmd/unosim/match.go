package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
	"github.com/unosim/unosim/tune"
)

// tableFlags are the game flags of match, tournament and tune: the rules,
// options, player count, seed and workers (the strategies are their own).
type tableFlags struct {
	rules   string
	players int
	sets    []string
	seed    uint64
	workers int
	quiet   bool
	json    bool
}

func (f *tableFlags) register(fs *pflag.FlagSet, players int) {
	fs.StringVar(&f.rules, "rules", "classic", "rule set: classic, encanto or party")
	playersFlag(fs, &f.players, players)
	fs.StringArrayVar(&f.sets, "set", nil, "option=value, any option of 'unosim rules' (repeatable)")
	seedVarFlag(fs, &f.seed, "seed", 1, "seed: deal d is the same for the same seed")
	workersFlag(fs, &f.workers)
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&f.json, "json", false, "print the result as one JSON object on stdout")
}

// options checks the rules, options and players, with simulate's messages.
func (f *tableFlags) options() (engine.Options, error) {
	if f.workers < 0 {
		return engine.Options{}, usagef("--workers %d: want at least 1 (or leave it out for one per core)", f.workers)
	}
	cf := configFlags{rules: f.rules, players: f.players, sets: f.sets, seats: "fixed", strategies: []string{"random"}}
	cfg, err := cf.build()
	if err != nil {
		return engine.Options{}, err
	}
	return cfg.Options, nil
}

// field is players-1 copies of opp.
func field(opts engine.Options, players int, opp strategy.Spec) tune.Field {
	f := tune.Field{Options: opts, Players: players}
	for range players - 1 {
		f.Opponents = append(f.Opponents, opp)
	}
	return f
}

// parseSpec parses a strategy flag, as a usage error naming the flag.
func parseSpec(flag, s string) (strategy.Spec, error) {
	if s == "" {
		return strategy.Spec{}, usagef("%s is required: a strategy NAME[:KEY=VALUE,...] (see 'unosim strategies')", flag)
	}
	sp, err := strategy.Parse(s)
	if err != nil {
		return strategy.Spec{}, usagef("%s: %v", flag, err)
	}
	return sp, nil
}

// dealsFor is the number of whole deals (each played in every seat) for
// at least games games.
func dealsFor(games int64, players int) int64 { return (games + int64(players) - 1) / int64(players) }

type matchOptions struct {
	table       tableFlags
	a, b        string
	sprt        string
	alpha, beta float64
	games       int64
}

func newMatchCmd(a *app) *cobra.Command {
	o := &matchOptions{}
	cmd := &cobra.Command{
		Use:   "match",
		Short: "Play a strategy against another on duplicate deals, optionally stopping by SPRT",
		Long: `Play --strategy A in one seat against --vs B in every other seat, on duplicate deals: each
deal is played with A in every seat in turn, so seat and deal luck cancel. Without --sprt it plays
--games games, rounded up to whole deals (a multiple of the players), and reports A's win rate and the paired difference against B in the same seats on
the same deals (a Student t interval and test over deals). With --sprt H0:H1 (win rates, or Elo
differences with the suffix elo, e.g. 0elo:10elo) it plays until Wald's sequential probability
ratio test accepts H0 or H1 (error rates --alpha and --beta), or --games are played (undecided);
the decision with its error rates is then the inference, and the win rate's interval, which the
sequential stop biases, is printed as naive.`,
		Example: `  unosim match --strategy heuristic --vs random --players 2
  unosim match --strategy heuristic:threshold=0.4 --vs heuristic --players 2 --sprt 0.50:0.52 --json
  unosim match --strategy heuristic:bluff=0.2 --vs heuristic --players 4 --sprt 0elo:10elo`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMatch(cmd.Context(), a, o) },
	}
	fs := cmd.Flags()
	o.table.register(fs, 2)
	fs.StringVar(&o.a, "strategy", "", "strategy A, NAME[:KEY=VALUE,...] (required)")
	fs.StringVar(&o.b, "vs", "", "strategy B, in every other seat (required)")
	fs.StringVar(&o.sprt, "sprt", "", "H0:H1, A's win rates (0.50:0.52) or Elo differences (0elo:10elo): stop by SPRT")
	floatVarFlag(fs, &o.alpha, "alpha", 0.05, "SPRT: probability of accepting H1 when H0 holds")
	floatVarFlag(fs, &o.beta, "beta", 0.05, "SPRT: probability of accepting H0 when H1 holds")
	int64Flag(fs, &o.games, "games", "a number of games", 100_000, 1, sim.MaxGames, "games to play, rounded up to whole deals (with --sprt: the most to play before giving up undecided)")
	return cmd
}

// parseSPRT reads H0:H1 as win rates or Elo differences.
func parseSPRT(s string, players int) (p0, p1 float64, err error) {
	a, b, ok := strings.Cut(s, ":")
	one := func(v string) (float64, error) {
		v = strings.TrimSpace(strings.ToLower(v))
		if e, ok := strings.CutSuffix(v, "elo"); ok {
			x, ok := parseFloat(e)
			if !ok {
				return 0, fmt.Errorf("%q is not an Elo difference", v)
			}
			return tune.EloScore(x, players), nil
		}
		x, ok := parseFloat(v)
		if !ok || !(x > 0 && x < 1) {
			return 0, fmt.Errorf("%q is not a win rate strictly between 0 and 1 (or an Elo difference like 5elo)", v)
		}
		return x, nil
	}
	if !ok {
		return 0, 0, usagef("--sprt %q: want H0:H1, e.g. 0.50:0.52 or 0elo:10elo", s)
	}
	if p0, err = one(a); err == nil {
		p1, err = one(b)
	}
	if err != nil {
		return 0, 0, usagef("--sprt %q: %v", s, err)
	}
	if !(p0 < p1) {
		return 0, 0, usagef("--sprt %q: H0's win rate %.4g must be below H1's %.4g", s, p0, p1)
	}
	return p0, p1, nil
}

// matchResult is the JSON of match.
type matchResult struct {
	Strategy string     `json:"strategy"`
	Vs       string     `json:"vs"`
	Players  int        `json:"players"`
	Rules    string     `json:"rules"`
	Seed     uint64     `json:"seed"`               // deal d of every game is keyed by (seed, d)
	Deals    int64      `json:"deals"`              // deals 0 to deals-1 were played, each in every seat
	Decision string     `json:"decision,omitempty"` // H0, H1 or undecided, with --sprt
	Games    int64      `json:"games"`
	WinRate  float64    `json:"win_rate"`
	CI       [2]float64 `json:"ci"`
	// With --sprt. The decision, with its error rates, is the valid
	// inference; ci (and win_rate) are naive: the fixed-sample interval,
	// which the sequential stop biases (ci_naive says so).
	H0            *float64  `json:"h0,omitempty"`
	H1            *float64  `json:"h1,omitempty"`
	Alpha         *float64  `json:"alpha,omitempty"`
	Beta          *float64  `json:"beta,omitempty"`
	CINaive       bool      `json:"ci_naive,omitempty"`
	LLR           *float64  `json:"llr,omitempty"`
	Bounds        []float64 `json:"llr_bounds,omitempty"`
	ExpectedGames []float64 `json:"expected_games,omitempty"` // Wald's expected games at H0 and H1
	// Without --sprt: A against B in the same seats on the same deals.
	Difference *tune.Comparison `json:"difference,omitempty"`
	Seconds    float64          `json:"seconds"`
}

func runMatch(ctx context.Context, a *app, o *matchOptions) error {
	opts, err := o.table.options()
	if err != nil {
		return err
	}
	sa, err := parseSpec("--strategy", o.a)
	if err != nil {
		return err
	}
	sb, err := parseSpec("--vs", o.b)
	if err != nil {
		return err
	}
	n := o.table.players
	if o.games < 2*int64(n) {
		return usagef("--games %d: want at least two deals, %d games (a deal is one game per seat)", o.games, 2*n)
	}
	var test *tune.SPRT
	if o.sprt != "" {
		p0, p1, err := parseSPRT(o.sprt, n)
		if err != nil {
			return err
		}
		if test, err = tune.NewSPRT(p0, p1, o.alpha, o.beta); err != nil {
			return usagef("--sprt %s --alpha %v --beta %v: %v", o.sprt, o.alpha, o.beta, err)
		}
	}
	f := field(opts, n, sb)
	res := matchResult{Strategy: sa.String(), Vs: sb.String(), Players: n, Rules: opts.Rules.String(), Seed: o.table.seed}
	start := time.Now()
	deals := dealsFor(o.games, n)
	prog := newProgressPrinter(a.stderr, a.stderrIsTTY)
	defer prog.finish(false)
	progress := func(base int64) func(int64) {
		if o.table.quiet {
			return nil
		}
		return func(g int64) { prog.update(base+g, deals*int64(n), time.Since(start)) }
	}
	if test == nil {
		r, err := tune.NewRunner(f, []strategy.Spec{sb, sa}, o.table.seed, o.table.workers)
		if err != nil {
			return runtimeError{err}
		}
		defer r.Close()
		out, err := r.Play(ctx, 0, deals, progress(0), time.Second)
		if err != nil {
			return interruptedOr(ctx, err, matchKept)
		}
		c := tune.Compare(out, 1)
		res.Games, res.WinRate, res.Deals = out.Games, c.WinRate, out.Games/int64(n)
		res.CI = unitCI(out.Units[1])
		res.Difference = &c
	} else {
		r, err := tune.NewRunner(f, []strategy.Spec{sa}, o.table.seed, o.table.workers)
		if err != nil {
			return runtimeError{err}
		}
		defer r.Close()
		// Check the test after every chunk of deals: fixed boundaries, so the
		// decision does not depend on the worker count.
		const batch = 64 // deals: one chunk of a worker
		s := tune.Scores{Per: int64(n)}
		d := tune.Undecided
		for lo := int64(0); lo < deals && d == tune.Undecided; lo += batch {
			out, err := r.Play(ctx, lo, min(lo+batch, deals), progress(lo*int64(n)), time.Second)
			if err != nil {
				return interruptedOr(ctx, err, matchKept)
			}
			s.Merge(out.Units[0])
			d = test.Decide(s)
		}
		res.Decision = d.String()
		res.Games, res.WinRate, res.CI, res.Deals = s.N*int64(n), s.Mean(), unitCI(s), s.N
		llr := test.LLR(s)
		lo, hi := test.Bounds()
		res.H0, res.H1, res.LLR, res.Bounds = &test.P0, &test.P1, &llr, []float64{lo, hi}
		res.Alpha, res.Beta, res.CINaive = &test.Alpha, &test.Beta, true
		// Wald's expected games need a positive variance (JSON has no NaN).
		if v := s.Variance(); v > 0 {
			res.ExpectedGames = []float64{math.Round(test.ExpectedUnits(test.P0, v) * float64(n)), math.Round(test.ExpectedUnits(test.P1, v) * float64(n))}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	prog.finish(true)
	if o.table.json {
		return printJSON(a.stdout, res)
	}
	printMatch(a.stdout, &res)
	return nil
}

// unitCI is the 95% interval of a win rate over deals.
func unitCI(s tune.Scores) [2]float64 {
	m := tune.UnitsCI(s)
	return [2]float64{m.Lo, m.Hi}
}

func printJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return runtimeError{err}
	}
	fmt.Fprintln(w, string(data))
	return nil
}

// interruptedOr maps a cancelled context to an interruption (exit 130)
// that says what the command kept.
func interruptedOr(ctx context.Context, err error, kept string) error {
	if ctx.Err() != nil {
		return interruptedError{kept}
	}
	return runtimeError{err}
}

// interruptedError is errInterrupted for a command that reports only at
// its end, in its own words: what it kept, if anything.
type interruptedError struct{ kept string }

func (e interruptedError) Error() string        { return "interrupted: " + e.kept }
func (e interruptedError) Is(target error) bool { return target == errInterrupted }

const matchKept = "nothing was reported: a match reports when its games are played (rerun it, with fewer --games for a quicker answer)"

func printMatch(w io.Writer, r *matchResult) {
	// Rates in %, differences in pp, as simulate and compare print them;
	// the header names what every number can be traced to.
	fmt.Fprintf(w, "%s against %s, %d players, %s rules, duplicate deals with rotating seats, seed %d, deals 0-%d\n",
		r.Strategy, r.Vs, r.Players, r.Rules, r.Seed, r.Deals-1)
	fair := 100 / float64(r.Players)
	if r.Decision != "" {
		fmt.Fprintf(w, "SPRT H0 %.2f%% : H1 %.2f%%: %s after %s games (LLR %.3f, bounds %.3f, %.3f)\n",
			100**r.H0, 100**r.H1, r.Decision, thousands(r.Games), *r.LLR, r.Bounds[0], r.Bounds[1])
		if r.Decision == tune.Undecided.String() {
			fmt.Fprintf(w, "no decision: --games ran out first (alpha %g and beta %g bound the errors of a decision only)\n", *r.Alpha, *r.Beta)
		} else {
			fmt.Fprintf(w, "error rates (as designed, Wald's approximation): alpha %g of accepting H1 when H0 holds, beta %g of accepting H0 when H1 holds\n", *r.Alpha, *r.Beta)
		}
		if len(r.ExpectedGames) == 2 {
			fmt.Fprintf(w, "expected games (Wald, at the observed variance): %s at H0, %s at H1\n", thousands(int64(r.ExpectedGames[0])), thousands(int64(r.ExpectedGames[1])))
		}
		// The stop depends on the data (it comes when the rate has drifted
		// to a bound, or the cap when it has not), so the fixed-sample
		// interval is conditional on a stopping rule it ignores: it need
		// not cover 95%, and the rate is biased too.
		valid := ""
		if r.Decision != tune.Undecided.String() {
			valid = "; the decision above is the valid inference"
		}
		fmt.Fprintf(w, "win rate of %s: %.2f%% (naive 95%% CI %.2f%% to %.2f%%: as if the %s games had been fixed in advance; the sequential stop biases both%s); fair share %.2f%%\n",
			r.Strategy, 100*r.WinRate, 100*r.CI[0], 100*r.CI[1], thousands(r.Games), valid, fair)
		return
	}
	fmt.Fprintf(w, "%s games\n", thousands(r.Games))
	fmt.Fprintf(w, "win rate of %s: %.2f%% (95%% CI %.2f%% to %.2f%%); fair share %.2f%%\n", r.Strategy, 100*r.WinRate, 100*r.CI[0], 100*r.CI[1], fair)
	if d := r.Difference; d != nil {
		fmt.Fprintf(w, "%s in the same seats on the same deals: %.2f%%\n", r.Vs, 100*d.BaselineWinRate)
		test := comparisonP(d)
		if d.NotTestable != "" {
			test = "; not testable: " + notTestableShort(d.NotTestable)
		}
		fmt.Fprintf(w, "paired difference: %+.2f pp (95%% CI %+.2f to %+.2f pp%s); pp: percentage points\n", 100*d.Effect, 100*d.CI[0], 100*d.CI[1], test)
	}
}
