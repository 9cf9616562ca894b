package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
	"github.com/unosim/unosim/tune"
)

// tuneSettings are everything that defines a tune; a resumed tune takes
// them from its directory.
type tuneSettings struct {
	Strategy     string   `json:"strategy"`
	Params       []string `json:"params"` // name=lo:hi
	Against      []string `json:"against"`
	Players      int      `json:"players"`
	Rules        string   `json:"rules"`
	Sets         []string `json:"sets"`
	Method       string   `json:"method"`
	Generations  int      `json:"generations"`
	Games        int64    `json:"games"`
	ConfirmGames int64    `json:"confirm_games"`
	Seed         uint64   `json:"seed"`
	Objective    string   `json:"objective"` // win, place or points; empty (a tune of an older version) is win
}

type tuneOptions struct {
	s       tuneSettings
	workers int
	quiet   bool
	out     string
	resume  string
}

// tuneAfterGeneration, when set (by tests), is called after every saved
// generation.
var tuneAfterGeneration func(gen int)

func newTuneCmd(a *app) *cobra.Command {
	o := &tuneOptions{}
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune a strategy's continuous parameters for its win rate, place or points (CMA-ES or SPSA on duplicate deals)",
		Long: `Tune the --param parameters of --strategy for its win rate against --against, with CMA-ES
or SPSA; or, with --objective place (needs --set play-for-places=true), for its expected place
(it minimises the place, 1 = first); or, with --objective points (needs --set scoring=winner-takes
or losers-accumulate), for its final match points (the total under winner-takes, minus the total
under losers-accumulate, where lower is better). Every generation plays fresh duplicate deals:
every candidate the same deals, each deal with the tuned strategy in every seat in turn (--games
games per candidate). The answer is the
search distribution's mean (CMA-ES) or the final iterate (SPSA), never the best noisy candidate.
At the end the answer plays the starting parameters on --confirm-games fresh games (deals no
generation used), paired, and the effect on the objective (win rate, places or points) is
reported with its 95% interval.

--out DIR receives state.json after every generation, then the convergence plots (PNG and SVG),
report.md and, last, tune.json. A tune stopped early resumes from its last finished generation
with --resume DIR (or the same command line again) and ends exactly as an uninterrupted one.`,
		Example: `  unosim tune --strategy heuristic --param threshold=0:1 --against heuristic --players 4 --out tuned
  unosim tune --strategy heuristic --param bluff=0:1 --param threshold=0:1 --method spsa --out t2
  unosim tune --param threshold=0:1 --objective place --set play-for-places=true --out t3
  unosim tune --resume tuned`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTune(cmd, a, o) },
	}
	fs := cmd.Flags()
	fs.StringVar(&o.s.Strategy, "strategy", "heuristic", "the strategy to tune, NAME[:KEY=VALUE,...]; its values are the start")
	fs.StringArrayVar(&o.s.Params, "param", nil, "a parameter to tune with its bounds, NAME=LO:HI (repeatable, at least one)")
	fs.StringArrayVar(&o.s.Against, "against", nil, "the opponents: once (every other seat) or once per other seat (default heuristic)")
	playersFlag(fs, &o.s.Players, 4)
	fs.StringVar(&o.s.Rules, "rules", "classic", "rule set: classic, encanto or party")
	fs.StringArrayVar(&o.s.Sets, "set", nil, "option=value, any option of 'unosim rules' (repeatable)")
	fs.StringVar(&o.s.Method, "method", "cmaes", "cmaes or spsa")
	intVarFlag(fs, &o.s.Generations, "generations", 40, 1, math.MaxInt32, "want a number of generations from 1 to 2,147,483,647, in decimal digits", "generations (CMA-ES) or iterations (SPSA)")
	int64Flag(fs, &o.s.Games, "games", "a number of games", 20_000, 1, sim.MaxGames, "games per candidate evaluation (whole deals, each in every seat)")
	int64Flag(fs, &o.s.ConfirmGames, "confirm-games", "a number of games", 1_000_000, 1, sim.MaxGames, "games of the final confirmation against the start")
	seedVarFlag(fs, &o.s.Seed, "seed", 1, "seed of the search and of the deals")
	fs.StringVar(&o.s.Objective, "objective", "win", "what to maximise: win (win rate), place (minus the expected place; needs --set play-for-places=true) or points (final match points; needs --set scoring=winner-takes or losers-accumulate)")
	workersFlag(fs, &o.workers)
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&o.out, "out", "", "output directory (required unless --resume)")
	fs.StringVar(&o.resume, "resume", "", "resume the tune in this directory from its last finished generation")
	return cmd
}

// paramBounds is the range the strategy's registry entry allows for a
// numeric parameter: what a tune may search. written is the name as the
// user wrote it, for the message.
func paramBounds(strategyName, param, written string) (lo, hi float64, err error) {
	in, ok := strategy.Lookup(strategyName)
	if !ok {
		// exec:COMMAND, a bot: unosim knows none of its parameters.
		var tunable []string
		for _, r := range strategy.Registered() {
			if slices.ContainsFunc(r.Params, func(p strategy.Param) bool { return p.Numeric() }) {
				tunable = append(tunable, r.Name)
			}
		}
		return 0, 0, fmt.Errorf("strategy %s:COMMAND has no parameters unosim can tune (valid --strategy: %s)", strategyName, strings.Join(tunable, ", "))
	}
	if len(in.Params) == 0 {
		return 0, 0, fmt.Errorf("strategy %s has no parameters to tune", strategyName)
	}
	var numeric, words []string
	for _, p := range in.Params {
		if p.Numeric() {
			numeric = append(numeric, p.Name)
		} else {
			words = append(words, p.Name)
		}
		if p.Name != param {
			continue
		}
		if !p.Numeric() {
			return 0, 0, fmt.Errorf("parameter %s of %s is not numeric (%s): it cannot be tuned", param, strategyName, p.Values())
		}
		return p.Min, p.Max, nil
	}
	valid := "valid: " + strings.Join(numeric, ", ")
	if len(numeric) == 0 {
		valid = "none is numeric: it has nothing to tune"
	}
	switch len(words) {
	case 0:
	case 1:
		valid += "; " + words[0] + " is not numeric"
	default:
		valid += "; " + strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1] + " are not numeric"
	}
	return 0, 0, fmt.Errorf("strategy %s has no parameter %q (%s)", strategyName, written, valid)
}

// startValue is the value the spec gives the parameter, or its default.
func startValue(spec strategy.Spec, param string) (float64, error) {
	v := spec.Param(param)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a number", param, v)
	}
	return f, nil
}

// tunePlan is a checked tune: the field, the search setup, the specs.
type tunePlan struct {
	field     tune.Field
	setup     tune.Setup
	start     strategy.Spec
	base      string
	objective tuneObjective
}

func (s *tuneSettings) plan() (*tunePlan, error) {
	tf := tableFlags{rules: s.Rules, players: s.Players, sets: s.Sets}
	opts, err := tf.options()
	if err != nil {
		return nil, err
	}
	start, err := parseSpec("--strategy", s.Strategy)
	if err != nil {
		return nil, err
	}
	against := s.Against
	if len(against) == 0 {
		against = []string{"heuristic"}
	}
	if len(against) != 1 && len(against) != s.Players-1 {
		return nil, usagef("--against given %d times for %d players: give it once (every other seat) or %d times", len(against), s.Players, s.Players-1)
	}
	if s.Objective == "" {
		s.Objective = "win"
	}
	obj, err := tune.ParseObjective(s.Objective)
	if err != nil {
		return nil, usagef("--objective %q: valid objectives are win, place and points", s.Objective)
	}
	switch {
	case obj == tune.Place && !opts.PlayForPlaces:
		also := ""
		if opts.Scoring != engine.ScoreSingle {
			also = fmt.Sprintf(", and leave out --set scoring=%s (places are played only in single games)", scoringName(&opts))
		}
		return nil, usagef("--objective place needs places, and a game without play-for-places ends at the first player out: add --set play-for-places=true%s", also)
	case obj == tune.Points && opts.Scoring == engine.ScoreSingle:
		also := ""
		if opts.PlayForPlaces {
			also = ", and leave out --set play-for-places=true (places are played only in single games)"
		}
		return nil, usagef("--objective points needs match points, and scoring is single: add --set scoring=winner-takes or --set scoring=losers-accumulate%s", also)
	}
	f := tune.Field{Options: opts, Players: s.Players, Objective: obj}
	for i := range s.Players - 1 {
		sp, err := parseSpec("--against", against[min(i, len(against)-1)])
		if err != nil {
			return nil, err
		}
		f.Opponents = append(f.Opponents, sp)
	}
	if len(s.Params) == 0 {
		return nil, usagef("--param is required: give each parameter to tune with its bounds, e.g. --param threshold=0:1")
	}
	if !(s.Method == "cmaes" || s.Method == "spsa") {
		return nil, usagef("--method %q: valid methods are cmaes and spsa", s.Method)
	}
	if s.Generations < 1 {
		return nil, usagef("--generations %d: want at least 1", s.Generations)
	}
	// Two deals at least: an interval over deals needs two.
	if s.Games < 2*int64(s.Players) {
		return nil, usagef("--games %d: want at least two deals, %d games (a deal is one game per seat)", s.Games, 2*s.Players)
	}
	if s.ConfirmGames < 2*int64(s.Players) {
		return nil, usagef("--confirm-games %d: want at least two deals, %d games (a deal is one game per seat)", s.ConfirmGames, 2*s.Players)
	}
	// The boundary penalty weighs the same under every objective: 1 win
	// rate, the players' spread of places, the target's points.
	setup := tune.Setup{Method: s.Method, Generations: s.Generations, Seed: s.Seed, Penalty: obj.Range(opts, s.Players)}
	for _, p := range s.Params {
		name, rng, ok := strings.Cut(p, "=")
		los, his, ok2 := strings.Cut(rng, ":")
		lo, err1 := strconv.ParseFloat(los, 64)
		hi, err2 := strconv.ParseFloat(his, 64)
		if !ok || !ok2 || err1 != nil || err2 != nil || name == "" {
			return nil, usagef("--param %q: want NAME=LO:HI, e.g. threshold=0:1", p)
		}
		written := strings.TrimSpace(name)
		name = strings.ToLower(written)
		if slices.Contains(setup.Names, name) {
			return nil, usagef("--param %s given twice", name)
		}
		rlo, rhi, err := paramBounds(start.Name(), name, written)
		if err != nil {
			return nil, usagef("--param %q: %v", p, err)
		}
		if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return nil, usagef("--param %q: want finite bounds with LO < HI", p)
		}
		if lo < rlo || hi > rhi {
			return nil, usagef("--param %q: bounds outside what %s allows for %s (%s)", p, start.Name(), name, boundsText(rlo, rhi))
		}
		v, err := startValue(start, name)
		if err != nil {
			return nil, usagef("--param %q: the start value %v: give a number to start from in --strategy, e.g. %s:%s=0.5", p, err, start.Name(), name)
		}
		if v < lo || v > hi {
			return nil, usagef("--param %q: the start value %s=%v (from --strategy %s) lies outside the bounds", p, name, v, start)
		}
		setup.Names, setup.Lo, setup.Hi, setup.Start = append(setup.Names, name), append(setup.Lo, lo), append(setup.Hi, hi), append(setup.Start, v)
	}
	if err := setup.Check(); err != nil {
		return nil, usageError{err}
	}
	return &tunePlan{field: f, setup: setup, start: start, base: start.String(), objective: describeObjective(obj, opts, s.Players)}, nil
}

// tuneObjective is what a tune maximised, as tune.json states it. Scores
// (confirmation score, baseline_score, effect, ci; history score, ci) are
// the maximised quantity, higher better; a report shows Sign × score as
// ReportedAs.
type tuneObjective struct {
	Name       string  `json:"name"`
	Maximises  string  `json:"maximises"`
	Unit       string  `json:"unit"`
	ReportedAs string  `json:"reported_as"`
	Sign       float64 `json:"sign"`
	Gain       string  `json:"-"` // the words of a positive effect
}

func describeObjective(obj tune.Objective, opts engine.Options, players int) tuneObjective {
	switch obj {
	case tune.Place:
		return tuneObjective{Name: "place", Unit: "places", ReportedAs: "expected place", Sign: -1, Gain: "places gained",
			Maximises: fmt.Sprintf("minus the tuned seat's expected place (1 = first, %d = last; a game that ends without places counts as last for every seat): it minimises the expected place", players)}
	case tune.Points:
		if opts.Scoring == engine.ScoreLosersAccumulate {
			return tuneObjective{Name: "points", Unit: "points", ReportedAs: "final match points (lower is better)", Sign: -1, Gain: "points saved",
				Maximises: "minus the tuned seat's final match total under losers-accumulate, where lower is better (a match cut short counts with the totals it reached)"}
		}
		return tuneObjective{Name: "points", Unit: "points", ReportedAs: "final match points", Sign: 1, Gain: "points gained",
			Maximises: "the tuned seat's final match total under winner-takes (a match cut short counts with the totals it reached)"}
	}
	return tuneObjective{Name: "win", Unit: "win rate", ReportedAs: "win rate", Sign: 1, Gain: "",
		Maximises: "the tuned seat's win rate (a shared win counts as a win)"}
}

// objectiveOf is the objective of a finished tune's file (a file of an
// older version, without one, tuned the win rate).
func objectiveOf(r *tuneResult) tuneObjective {
	o := r.Objective
	switch {
	case o.Name == "" || o.Name == "win":
		return describeObjective(tune.Win, engine.Options{}, r.Settings.Players)
	case o.Name == "place":
		o.Gain = "places gained"
	case o.Sign < 0:
		o.Gain = "points saved"
	default:
		o.Gain = "points gained"
	}
	return o
}

// shown is a score and its interval as the objective reports them.
func (o tuneObjective) shown(v float64, ci [2]float64) (float64, [2]float64) {
	if o.Sign < 0 {
		return -v, [2]float64{-ci[1], -ci[0]}
	}
	return v, ci
}

// plotName is the base name of the objective's convergence plot.
func (o tuneObjective) plotName() string {
	if o.Name == "win" || o.Name == "" {
		return "convergence-winrate"
	}
	return "convergence-" + o.Name
}

func boundsText(lo, hi float64) string {
	if math.IsInf(hi, 1) {
		return "above 0"
	}
	return strategy.FormatBound(lo) + " to " + strategy.FormatBound(hi)
}

// tuneState is state.json: the settings and the search after its last
// finished generation.
type tuneState struct {
	Version  string       `json:"version"`
	Settings tuneSettings `json:"settings"`
	State    *tune.State  `json:"state"`
}

func readTuneState(dir string) (*tuneState, error) {
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return nil, err
	}
	var ts tuneState
	if err := json.Unmarshal(data, &ts); err != nil || ts.State == nil {
		return nil, fmt.Errorf("%s: damaged state.json", dir)
	}
	if err := ts.State.Restore(); err != nil {
		return nil, fmt.Errorf("%s: state.json: %w", dir, err)
	}
	return &ts, nil
}

// tuneResult is tune.json.
type tuneResult struct {
	Spec         string             `json:"spec"`
	Params       map[string]float64 `json:"params"`
	StartSpec    string             `json:"start_spec"`
	Method       string             `json:"method"`
	Objective    tuneObjective      `json:"objective"`
	Settings     tuneSettings       `json:"settings"`
	Confirmation tune.Comparison    `json:"confirmation"`
	History      []tuneRecord       `json:"history"`
	Version      string             `json:"version"`
}

type tuneRecord struct {
	Generation int                `json:"generation"`
	Mean       map[string]float64 `json:"mean"`
	Step       float64            `json:"step"`
	WinRate    float64            `json:"win_rate"`
	Score      float64            `json:"score"` // the objective's mean, higher better (the win rate under win)
	CI         [2]float64         `json:"ci"`    // of the score
	Games      int64              `json:"games"`
}

func runTune(cmd *cobra.Command, a *app, o *tuneOptions) error {
	ctx := cmd.Context()
	if o.workers < 0 {
		return usagef("--workers %d: want at least 1 (or leave it out for one per core)", o.workers)
	}
	dir := o.out
	var prev *tuneState
	if o.resume != "" {
		if o.out != "" && o.out != o.resume {
			return usagef("--resume %s with --out %s: a resumed tune writes into its own directory; leave out --out", o.resume, o.out)
		}
		for _, name := range []string{"strategy", "param", "against", "players", "rules", "set", "method", "generations", "games", "confirm-games", "seed", "objective"} {
			if cmd.Flags().Changed(name) {
				return usagef("--resume takes the settings of the tune in %s: leave out --%s", o.resume, name)
			}
		}
		if fi, err := os.Stat(o.resume); err != nil {
			return usagef("--resume %s: no such directory", o.resume)
		} else if !fi.IsDir() {
			return usagef("--resume %s: a file, not a tune's output directory", o.resume)
		} else if !fileExists(filepath.Join(o.resume, "state.json")) {
			return usagef("--resume %s: no state.json: the tune there finished no generation (or it is not a tune's --out); start it again with its command line and --out %s", o.resume, o.resume)
		}
		var err error
		if prev, err = readTuneState(o.resume); err != nil {
			return usagef("--resume: %v", err)
		}
		dir, o.s = o.resume, prev.Settings
	} else if dir == "" {
		return usagef("--out DIR is required: the directory for tune.json, report.md and the plots")
	}
	plan, err := o.s.plan()
	if err != nil {
		return err
	}
	if prev == nil {
		if err := sim.CheckOutDir(dir); err != nil {
			return usageError{err}
		}
		if _, err := os.Stat(dir); err == nil && !sim.Unused(dir) {
			// An existing directory holding the same tune is resumed; any other
			// is refused (but an unused one: a tune killed before its first
			// generation starts again).
			ts, err := readTuneState(dir)
			if err != nil {
				return usagef("--out %s exists and holds no tune to resume (%v): choose a new directory", dir, err)
			}
			if !reflect.DeepEqual(normalised(ts.Settings), normalised(o.s)) {
				a1, _ := json.Marshal(ts.Settings)
				return usagef("--out %s holds a different tune (%s): choose a new directory, or resume it with --resume %s", dir, a1, dir)
			}
			prev = ts
		} else if err := sim.PrepareOut(dir); err != nil {
			return usageError{err}
		} else {
			// A tune stopped before its first generation leaves no directory.
			defer func() {
				if !fileExists(filepath.Join(dir, "state.json")) {
					os.Remove(dir)
				}
			}()
		}
	}
	sim.RemoveTemporaries(dir) // of writes a killed tune cut short
	st := (*tune.State)(nil)
	if prev != nil {
		st = prev.State
		if data, err := os.ReadFile(filepath.Join(dir, "tune.json")); err == nil && st.Done() {
			var done tuneResult
			if err := json.Unmarshal(data, &done); err == nil {
				// tune.json is written last, but a tune of an older version
				// wrote it first: render what a kill left unwritten.
				if missing := missingTuneFiles(dir, objectiveOf(&done)); len(missing) > 0 {
					if err := writeTuneReport(dir, &done, st); err != nil {
						return runtimeError{err}
					}
					fmt.Fprintf(a.stderr, "unosim: the tune in %s is already complete; rendered %s again from tune.json and state.json\n", dir, strings.Join(missing, ", "))
				} else {
					fmt.Fprintf(a.stderr, "unosim: the tune in %s is already complete\n", dir)
				}
				fmt.Fprintf(a.stdout, "%s\n", reportAnswer(&done))
				return nil
			}
		}
	} else if st, err = tune.NewState(plan.setup); err != nil {
		return usageError{err}
	}

	deals := dealsFor(o.s.Games, o.s.Players)
	start := time.Now()
	var played int64
	gamesPerGen := int64(st.Candidates()) * deals * int64(o.s.Players)
	ev := &tune.Games{Field: plan.field, Base: plan.base, Names: plan.setup.Names, Deals: deals, Seed: o.s.Seed, Workers: o.workers}
	save := func(s *tune.State) error {
		data, err := json.MarshalIndent(tuneState{Version: version, Settings: o.s, State: s}, "", "  ")
		if err != nil {
			return err
		}
		if err := sim.WriteFileAtomic(filepath.Join(dir, "state.json"), data); err != nil {
			return runtimeError{err}
		}
		r := s.History[len(s.History)-1]
		played += r.Games
		if !o.quiet {
			el := time.Since(start)
			rate := float64(played) / el.Seconds()
			left := float64(int64(s.Setup.Generations-len(s.History))*gamesPerGen+2*dealsFor(o.s.ConfirmGames, o.s.Players)*int64(o.s.Players)) / rate
			best := math.Inf(-1)
			var bestP []float64
			for _, h := range s.History {
				if h.Best > best {
					best, bestP = h.Best, h.BestParams
				}
			}
			ob := plan.objective
			v, ci := ob.shown(r.Score, r.CI)
			b, _ := ob.shown(best, [2]float64{})
			fmt.Fprintf(a.stderr, "unosim: generation %d/%d: %s (step %.3g), %s %.4f [%.4f, %.4f]; best so far %.4f at %s; %s games/s, about %s left\n",
				r.Generation, s.Setup.Generations, paramText(s.Setup.Names, r.Mean), r.Step, ob.ReportedAs, v, ci[0], ci[1],
				b, paramText(s.Setup.Names, bestP), thousands(int64(rate)), time.Duration(left*float64(time.Second)).Round(time.Second))
		}
		if tuneAfterGeneration != nil {
			tuneAfterGeneration(r.Generation)
		}
		return ctx.Err()
	}
	if err := st.Run(ctx, ev, save); err != nil {
		return interruptedOr(ctx, err, tuneKept(dir))
	}
	// The answer to 4 significant digits: the spec a user pastes is the
	// one confirmed.
	answer := st.Answer()
	for i, v := range answer {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
		answer[i] = math.Max(plan.setup.Lo[i], math.Min(plan.setup.Hi[i], r)) // rounding may not leave the bounds
	}
	tuned, err := tune.WithParams(plan.base, plan.setup.Names, answer)
	if err != nil {
		return runtimeError{err}
	}
	if !o.quiet {
		fmt.Fprintf(a.stderr, "unosim: confirming %s against %s on %s fresh games each\n", tuned, plan.start, thousands(dealsFor(o.s.ConfirmGames, o.s.Players)*int64(o.s.Players)))
	}
	conf, err := tune.Confirm(ctx, plan.field, plan.start, tuned, dealsFor(o.s.ConfirmGames, o.s.Players), o.s.Seed, o.workers, nil)
	if err != nil {
		return interruptedOr(ctx, err, tuneKept(dir))
	}
	res := tuneResult{Spec: tuned.String(), Params: map[string]float64{}, StartSpec: plan.start.String(), Method: o.s.Method,
		Objective: plan.objective, Settings: o.s, Confirmation: conf, Version: version}
	for i, n := range plan.setup.Names {
		res.Params[n] = answer[i]
	}
	for _, h := range st.History {
		r := tuneRecord{Generation: h.Generation, Mean: map[string]float64{}, Step: h.Step, WinRate: h.WinRate, Score: h.Score, CI: h.CI, Games: h.Games}
		for i, n := range plan.setup.Names {
			r.Mean[n] = h.Mean[i]
		}
		res.History = append(res.History, r)
	}
	if err := writeTuneOutputs(dir, &res, st); err != nil {
		return runtimeError{err}
	}
	if !o.quiet {
		fmt.Fprintf(a.stderr, "unosim: done in %s\n", time.Since(start).Round(time.Second))
	}
	fmt.Fprintf(a.stdout, "%s\n", reportAnswer(&res))
	return nil
}

// normalised makes settings comparable (nil and empty lists alike).
func normalised(s tuneSettings) tuneSettings {
	for _, l := range []*[]string{&s.Params, &s.Against, &s.Sets} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if s.Objective == "" {
		s.Objective = "win"
	}
	return s
}

func paramText(names []string, v []float64) string {
	var b []string
	for i, n := range names {
		if i < len(v) {
			b = append(b, fmt.Sprintf("%s=%.4g", n, v[i]))
		}
	}
	return strings.Join(b, ",")
}

// reportAnswer is the answer first: the spec and what the confirmation
// says, in the objective's words and units.
func reportAnswer(r *tuneResult) string {
	c := r.Confirmation
	ob := objectiveOf(r)
	verdict := "not distinguishable from the start at the 5% level"
	switch {
	case c.NotTestable != "":
		verdict = "not testable: " + notTestableShort(c.NotTestable)
	case c.Significant() && c.Effect > 0:
		verdict = "better than the start"
	case c.Significant():
		verdict = "worse than the start"
	}
	head := fmt.Sprintf("tuned: --strategy %s\nconfirmation on %s fresh games each: ", r.Spec, thousands(c.Games))
	if ob.Name == "win" {
		return head + fmt.Sprintf("win rate %.2f%% against %.2f%% for the start %s, effect %+.2f pp (95%% CI %+.2f to %+.2f pp%s): %s",
			100*c.WinRate, 100*c.BaselineWinRate, r.StartSpec, 100*c.Effect, 100*c.CI[0], 100*c.CI[1], comparisonP(&c), verdict)
	}
	v, _ := ob.shown(c.Score, [2]float64{})
	b, _ := ob.shown(c.BaselineScore, [2]float64{})
	scale := ""
	if ob.Name == "place" {
		scale = fmt.Sprintf(" (1 = first, %d = last)", r.Settings.Players)
	}
	return head + fmt.Sprintf("%s %.4f against %.4f for the start %s%s, effect %+.4f %s (95%% CI %+.4f to %+.4f%s): %s; win rate %.2f%% against %.2f%%",
		ob.ReportedAs, v, b, r.StartSpec, scale, c.Effect, ob.Gain, c.CI[0], c.CI[1], comparisonP(&c), verdict, 100*c.WinRate, 100*c.BaselineWinRate)
}

// comparisonP is ", p = 0.0123" for a paired comparison, or nothing when
// it is not testable (the reason is said instead).
func comparisonP(c *tune.Comparison) string {
	if c.P == nil {
		return ""
	}
	return fmt.Sprintf(", p = %.3g", *c.P)
}

// writeTuneOutputs writes the plots and report.md, then tune.json: a
// directory with tune.json holds a finished tune; without it, the rerun of
// the command (or --resume) confirms and writes them again.
func writeTuneOutputs(dir string, r *tuneResult, st *tune.State) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeTuneReport(dir, r, st); err != nil {
		return err
	}
	return sim.WriteFileAtomic(filepath.Join(dir, "tune.json"), append(data, '\n'))
}

// tuneFiles are the files a finished tune's directory holds beside
// state.json and tune.json.
func tuneFiles(ob tuneObjective) []string {
	return []string{"convergence-params.png", "convergence-params.svg", ob.plotName() + ".png", ob.plotName() + ".svg", "report.md"}
}

func missingTuneFiles(dir string, ob tuneObjective) []string {
	var missing []string
	for _, name := range tuneFiles(ob) {
		if !fileExists(filepath.Join(dir, name)) {
			missing = append(missing, name)
		}
	}
	return missing
}

// writeTuneReport writes the plots and report.md of a finished tune.
func writeTuneReport(dir string, r *tuneResult, st *tune.State) error {
	ob := objectiveOf(r)
	if err := tunePlots(dir, st, ob); err != nil {
		return err
	}
	var b strings.Builder
	s := r.Settings
	fmt.Fprintf(&b, "# Tune of %s\n\n%s\n\n", r.StartSpec, strings.ReplaceAll(reportAnswer(r), "\n", "\n\n"))
	against := s.Against
	if len(against) == 0 {
		against = []string{"heuristic"}
	}
	fmt.Fprintf(&b, "## How\n\n- objective: %s; it maximises %s\n", ob.Name, ob.Maximises)
	fmt.Fprintf(&b, "- method: %s, %d generations, %s games per candidate evaluation (duplicate deals: every candidate the same deals, each deal with the tuned strategy in every seat)\n", s.Method, s.Generations, thousands(s.Games))
	fmt.Fprintf(&b, "- parameters and bounds: %s\n- opponents: %s; %d players; rules %s; seed %d\n", strings.Join(s.Params, ", "), strings.Join(against, ", "), s.Players, strings.Join(append([]string{s.Rules}, s.Sets...), " --set "), s.Seed)
	fmt.Fprintf(&b, "- the answer is the search's %s, not the best noisy candidate; the confirmation plays it against the start on deals no generation used, paired by deal (Student t over deals)\n\n", map[string]string{"cmaes": "distribution mean", "spsa": "final iterate"}[s.Method])
	fmt.Fprintf(&b, "## Convergence\n\n![parameters](convergence-params.png)\n\n![%s](%s.png)\n\n", ob.ReportedAs, ob.plotName())
	// Win rates in %; each parameter with one number of decimals down its
	// column (4 for a range of at most 1, fewer for wider ones).
	unit, k := ob.ReportedAs, 1.0
	if ob.Name == "win" || ob.Name == "" {
		unit, k = ob.ReportedAs+" (%)", 100
	}
	fmt.Fprintf(&b, "| generation | %s | step | %s | 95%% CI |\n|---:|%s---:|---:|---:|\n", strings.Join(st.Setup.Names, " | "), unit, strings.Repeat("---:|", len(st.Setup.Names)))
	for _, h := range st.History {
		fmt.Fprintf(&b, "| %d |", h.Generation)
		for i, v := range h.Mean {
			fmt.Fprintf(&b, " %.*f |", paramDecimals(st.Setup.Hi[i]-st.Setup.Lo[i]), v)
		}
		v, ci := ob.shown(h.Score, h.CI)
		d := 4
		if k == 100 {
			d = 2
		}
		fmt.Fprintf(&b, " %.3f | %.*f | %.*f to %.*f |\n", h.Step, d, k*v, d, k*ci[0], d, k*ci[1])
	}
	return sim.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(b.String()))
}

func tunePlots(dir string, st *tune.State, ob tuneObjective) error {
	var params []analysis.Series
	for i, n := range st.Setup.Names {
		s := analysis.Series{Name: fmt.Sprintf("%s (%g to %g)", n, st.Setup.Lo[i], st.Setup.Hi[i])}
		for _, h := range st.History {
			u := (h.Mean[i] - st.Setup.Lo[i]) / (st.Setup.Hi[i] - st.Setup.Lo[i])
			s.X, s.Y, s.Lo, s.Hi = append(s.X, float64(h.Generation)), append(s.Y, u), append(s.Lo, u), append(s.Hi, u)
		}
		params = append(params, s)
	}
	p, err := analysis.BandPlot("Tuned parameters by generation", "generation", "parameter (fraction of its range, 0 to 1)", params)
	if err != nil {
		return err
	}
	if err := analysis.SavePlot(p, dir, "convergence-params", 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
		return err
	}
	wr := analysis.Series{Name: fmt.Sprintf("candidates' mean %s (95%% CI over deals)", ob.ReportedAs)}
	for _, h := range st.History {
		v, ci := ob.shown(h.Score, h.CI)
		wr.X, wr.Y, wr.Lo, wr.Hi = append(wr.X, float64(h.Generation)), append(wr.Y, v), append(wr.Lo, ci[0]), append(wr.Hi, ci[1])
	}
	title, axis := "Win rate of the tuned seat by generation", "win rate (%)"
	if ob.Name == "win" || ob.Name == "" {
		for i := range wr.Y {
			wr.Y[i], wr.Lo[i], wr.Hi[i] = 100*wr.Y[i], 100*wr.Lo[i], 100*wr.Hi[i]
		}
	} else {
		title, axis = fmt.Sprintf("%s of the tuned seat by generation", ob.ReportedAs), fmt.Sprintf("%s, per game", ob.ReportedAs)
		title = strings.ToUpper(title[:1]) + title[1:]
	}
	p, err = analysis.BandPlot(title, "generation", axis, []analysis.Series{wr})
	if err != nil {
		return err
	}
	return analysis.SavePlot(p, dir, ob.plotName(), 16*vg.Centimeter, 10*vg.Centimeter)
}

// paramDecimals is the number of decimals of a parameter whose bounds
// are span apart: 4 within a span of 1, 2 within 100, else none.
func paramDecimals(span float64) int {
	switch {
	case span <= 1:
		return 4
	case span <= 100:
		return 2
	}
	return 0
}

func scoringName(o *engine.Options) string {
	v, _ := o.Get("scoring")
	return v
}

// tuneKept is what an interrupted tune kept, for its message.
func tuneKept(dir string) string {
	if !fileExists(filepath.Join(dir, "state.json")) {
		return "no generation was finished, so nothing was saved"
	}
	return fmt.Sprintf("the finished generations are saved in %s: rerun the same command, or 'unosim tune --resume %s', to go on from the last", filepath.Join(dir, "state.json"), dir)
}
