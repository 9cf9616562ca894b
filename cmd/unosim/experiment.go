package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

func newExperimentCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "experiment",
		Short: "Run declared comparisons: a grid of configurations, paired tests, a report with plots",
		Long: `An experiment file (YAML or JSON) declares a grid of configurations (rule sets, options,
player counts, strategy line-ups, variables), the games per cell, the seed and the comparisons.
Every cell plays the same deals; comparisons use paired tests with Holm's correction. See the
README for the file format, and 'unosim experiment list' for the built-in experiments.`,
	}
	cmd.AddCommand(newExperimentRunCmd(a), newExperimentValidateCmd(a), newExperimentListCmd(a), newExperimentShowCmd(a))
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(*cobra.Command, []string) error {
		return usagef("experiment needs a command: run, validate, list or show")
	}
	return cmd
}

// loadExperiment reads an experiment file, or a built-in one by name.
func loadExperiment(arg string) (*experiments.Experiment, []byte, error) {
	data, err := os.ReadFile(arg)
	switch {
	case err == nil:
		e, err := experiments.Parse(arg, data)
		return e, data, err
	case errors.Is(err, fs.ErrNotExist):
		data, err := experiments.BuiltinText(arg)
		if err != nil {
			return nil, nil, err
		}
		e, err := experiments.Parse("builtin:"+arg, data)
		return e, data, err
	default:
		return nil, nil, fmt.Errorf("%s: cannot read the experiment file: %v", arg, errors.Unwrap(err))
	}
}

// experimentJSON is 'unosim experiment validate --json'.
type experimentJSON struct {
	Source      string     `json:"source"`
	Name        string     `json:"name"`
	Valid       bool       `json:"valid"`
	Hash        string     `json:"hash"`
	Games       int64      `json:"games"` // per cell; 0: not given
	Seed        uint64     `json:"seed"`
	Main        string     `json:"main"`
	Axes        []string   `json:"axes"`
	Cells       []cellJSON `json:"cells"`
	Pairs       int        `json:"paired_comparisons"`
	OneSample   int        `json:"one_sample_tests_per_cell"`
	Warnings    []string   `json:"warnings"`
	Description string     `json:"description"`
	// A tournament file: its round robin instead of cells.
	Tournament *tournamentJSON `json:"tournament,omitempty"`
}

type tournamentJSON struct {
	Strategies []string         `json:"strategies"`
	Players    []int            `json:"players"`
	Pairs      int              `json:"pairs"`
	GamesFor   map[string]int64 `json:"games_for,omitempty"` // games per pair at most, as declared
}

type cellJSON struct {
	Index   int               `json:"index"`
	Label   string            `json:"label"`
	Coords  map[string]string `json:"coords"`
	Players int               `json:"players"`
	Rules   string            `json:"rules"`
	Options map[string]string `json:"options"` // changed from the rule set's defaults
	LineUp  []string          `json:"lineup"`
	Seats   string            `json:"seats"`
}

func describeExperiment(e *experiments.Experiment) experimentJSON {
	j := experimentJSON{Source: e.Source, Name: e.File.Name, Valid: true, Hash: e.Hash, Games: e.File.Games, Seed: e.File.Seed,
		Main: e.Main.String(), Axes: append([]string{}, e.Axes...), Cells: []cellJSON{}, Pairs: len(e.Pairs), OneSample: len(e.OneSample),
		Warnings: append([]string{}, e.Warnings...), Description: strings.TrimSpace(e.File.Description)}
	if t := e.Tour; t != nil {
		tj := &tournamentJSON{Players: t.Players, Pairs: len(t.Strategies) * (len(t.Strategies) - 1) / 2}
		for i, sp := range t.Strategies {
			tj.Strategies = append(tj.Strategies, sp.String())
			if t.GamesFor[i] > 0 {
				if tj.GamesFor == nil {
					tj.GamesFor = map[string]int64{}
				}
				tj.GamesFor[sp.String()] = t.GamesFor[i]
			}
		}
		j.Tournament = tj
	}
	for _, c := range e.Cells {
		cj := cellJSON{Index: c.Index, Label: c.Label, Coords: c.Coords, Players: c.Config.Players, Rules: c.Config.Options.Rules.String(),
			Options: map[string]string{}, Seats: c.Config.Seats.String()}
		for _, kv := range changedOptions(c.Config.Options) {
			cj.Options[kv[0]] = kv[1]
		}
		for _, s := range c.Config.LineUp {
			cj.LineUp = append(cj.LineUp, s.String())
		}
		j.Cells = append(j.Cells, cj)
	}
	return j
}

func newExperimentValidateCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:               "validate FILE|NAME",
		Short:             "Check an experiment file and list its cells and comparisons",
		Long:              "Check an experiment file and list its cells and comparisons; --json prints them as one JSON object (an invalid file still exits 2 with the message on stderr).",
		Args:              oneArg("one experiment file or built-in name (see 'unosim experiment list')"),
		ValidArgsFunction: completeExperiment,
		RunE: func(_ *cobra.Command, args []string) error {
			e, _, err := loadExperiment(args[0])
			if err != nil {
				return usageError{err}
			}
			warn(a, e.Warnings)
			if asJSON {
				return printJSON(a.stdout, describeExperiment(e))
			}
			if t := e.Tour; t != nil {
				games := thousands(e.File.Games) + " games a pair"
				if e.File.Games == 0 {
					games = "games a pair not given (give --games to run it)"
				}
				fmt.Fprintf(a.stdout, "%s: valid; a tournament of %d strategies (%d pairs) at %s players, %s, seed %d\n",
					e.Source, len(t.Strategies), len(t.Strategies)*(len(t.Strategies)-1)/2, joinInts(t.Players), games, e.File.Seed)
				for i, sp := range t.Strategies {
					cap := ""
					if t.GamesFor[i] > 0 {
						cap = fmt.Sprintf(" (at most %s games a pair)", thousands(t.GamesFor[i]))
					}
					fmt.Fprintf(a.stdout, "  strategy %d: %s%s\n", i+1, sp, cap)
				}
				return nil
			}
			games := thousands(e.File.Games) + " games per cell"
			if e.File.Games == 0 {
				games = "games per cell not given (give --games to run it)"
			}
			fmt.Fprintf(a.stdout, "%s: valid; %d cells, %d paired comparisons, %d one-sample tests per cell, %s, seed %d\n",
				e.Source, len(e.Cells), len(e.Pairs), len(e.OneSample), games, e.File.Seed)
			for _, c := range e.Cells {
				fmt.Fprintf(a.stdout, "  cell %2d: %s\n", c.Index, c.Label)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the experiment's cells and comparisons as one JSON object")
	return cmd
}

// builtinJSON is one entry of 'unosim experiment list --json'.
type builtinJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Cells       int    `json:"cells"`
	Games       int64  `json:"games"` // per cell
	Seed        uint64 `json:"seed"`
}

func builtinListing() ([]builtinJSON, error) {
	out := []builtinJSON{}
	for _, b := range experiments.Builtins() {
		e, err := experiments.LoadBuiltin(b.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, builtinJSON{Name: b.Name, Description: b.Description, Cells: len(e.Cells), Games: e.File.Games, Seed: e.File.Seed})
	}
	return out, nil
}

func newExperimentListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the built-in experiments",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				l, err := builtinListing()
				if err != nil {
					return runtimeError{err}
				}
				return printJSON(a.stdout, l)
			}
			for _, b := range experiments.Builtins() {
				fmt.Fprintf(a.stdout, "%s\n  %s\n\n", b.Name, indent(b.Description))
			}
			fmt.Fprintln(a.stdout, "run one with: unosim experiment run NAME --out DIR [--games N]")
			fmt.Fprintln(a.stdout, "start your own from one with: unosim experiment show NAME > my.yaml")
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as a JSON array: name, description, cells, games, seed")
	return cmd
}

func newExperimentShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in experiment's file, to start your own from",
		Long: `Print the file of a built-in experiment (see 'unosim experiment list') exactly as it is built
in: save it, edit it and run it with 'unosim experiment run FILE'.`,
		Example:           `  unosim experiment show house-rules`,
		Args:              oneArg("one built-in experiment name (see 'unosim experiment list')"),
		ValidArgsFunction: completeExperiment,
		RunE: func(_ *cobra.Command, args []string) error {
			data, err := experiments.BuiltinText(args[0])
			if err != nil {
				return usagef("experiment show: %v", err)
			}
			_, err = a.stdout.Write(data)
			return err
		},
	}
}

func joinInts(v []int) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

type experimentRunOptions struct {
	out     string
	games   int64
	seed    uint64
	workers int
	ciWidth float64
	shard   string
	quiet   bool
	records string
	run     runFlags
	plots   plotFlags
}

func newExperimentRunCmd(a *app) *cobra.Command {
	o := &experimentRunOptions{}
	cmd := &cobra.Command{
		Use:   "run FILE|NAME --out DIR",
		Short: "Run an experiment file or a built-in experiment and write its report",
		Long: `Run every cell of the experiment on the same deals and write into the directory --out:
stats.json (mergeable) and manifest.json first, then summary.csv, plots/ (PNG and SVG, or
--formats png,svg,pdf at --dpi; none with --no-plots) and
report.md. --games and --seed override the file's, so that a quick look and a full run use the
same file.

A checkpoint (stats.json, marked incomplete) is written every --checkpoint-every and when the run
is stopped (SIGTERM, Ctrl-C); rerunning the same command with the same --out resumes it and plays
only the missing games, with the result of an uninterrupted run. A finished directory is left as
it is ("already complete", exit 0); one holding another run is refused (exit 2) with what
differs; --force starts over.

A tournament file (tournament: instead of grids:, e.g. the built-in strength) plays its round
robin instead and writes tournament.json, plots/ and report.md. Its checkpoint is tournament.json,
rewritten after every match and marked incomplete until the end: an interrupted tournament
resumes from its last finished match, and the match under way is played again from its first
deal. It takes no --shard, --ci-width, --records or --checkpoint-every.`,
		Example: `  unosim experiment run house-rules --out results/house-rules --games 20000
  unosim experiment run my-experiment.yaml --out results/mine --ci-width 0.2
  unosim experiment run player-count --games 1000000 --shard 0/4 --out results/pc-0`,
		Args:              oneArg("one experiment file or built-in name (see 'unosim experiment list')"),
		ValidArgsFunction: completeExperiment,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, text, err := loadExperiment(args[0])
			if err != nil {
				return usageError{err}
			}
			warn(a, e.Warnings)
			if e.Tour != nil {
				return runTournamentExperiment(cmd, a, e, o)
			}
			if o.out == "" {
				return usagef("experiment run needs --out DIR, the directory for the report")
			}
			if o.ciWidth < 0 || o.ciWidth == 0 && cmd.Flags().Changed("ci-width") {
				return usagef("--ci-width %v: want a positive width, e.g. 0.25 (turns, or a fraction for proportions)", o.ciWidth)
			}
			ro := experiments.RunOptions{Games: o.games, Workers: o.workers, CIWidth: o.ciWidth, Interval: 5 * time.Second}
			if cmd.Flags().Changed("seed") {
				ro.Seed = &o.seed
			}
			if o.shard != "" {
				if ro.Shard, err = sim.ParseShard(o.shard); err != nil {
					return usageError{fmt.Errorf("--%w", err)}
				}
				if o.ciWidth > 0 {
					return usagef("--ci-width and --shard cannot be combined: a shard cannot know when the other shards' cells are precise enough")
				}
			}
			if err := e.CheckRun(ro); err != nil {
				return usageError{err}
			}
			checkpoint, err := o.run.parse(cmd.Flags(), o.quiet)
			if err != nil {
				return err
			}
			if err := checkRecords(o.records, o.out); err != nil {
				return err
			}
			ro.Records = o.records
			plots, err := o.plots.options(cmd.Flags())
			if err != nil {
				return err
			}
			producer := sim.ThisBuild(version)
			_, statErr := os.Stat(o.out)
			created := statErr != nil
			has, err := sim.OpenOut(o.out, o.run.force, o.records)
			if err != nil {
				return usageError{err}
			}
			defer func() {
				if created && !fileExists(filepath.Join(o.out, "stats.json")) {
					os.Remove(o.out) // only an empty directory: nothing was recorded
				}
			}()
			if has {
				prior, err := experiments.ReadStats(o.out)
				if err != nil {
					return usagef("output directory %s holds a record that cannot be resumed: %v; choose another --out, or --force to start over", o.out, err)
				}
				if err := prior.CheckResume(o.out, e, ro, producer); err != nil {
					return usageError{err}
				}
				if prior.Complete {
					if err := recordsDone(a, o.records, o.out, true); err != nil {
						return err
					}
					return experimentDone(a, o.out, prior, plots)
				}
				ro.Resume = prior
				fmt.Fprintf(a.stderr, "unosim: resuming %s: game indices [%d, %d) of [%d, %d) done\n", o.out,
					prior.GameRange[0], prior.GameRange[1], prior.Planned[0], prior.Planned[1])
			}
			if err := discardRecords(o.records, o.run.force); err != nil {
				return err
			}
			ro.CheckpointGames, ro.CheckpointEvery = checkpoint.games, checkpoint.every
			ro.Checkpoint = func(r *experiments.Result) error {
				f := r.File(text, ro.Shard)
				f.Producer = producer
				return experiments.WriteCheckpoint(o.out, f, version, runtime.Version())
			}
			prior := int64(0)
			if ro.Resume != nil {
				for _, c := range ro.Resume.Cells {
					prior += c.Stats.Games
				}
			}
			ro.Progress, ro.Interval = o.run.progressFrom(a, ro.Shard.String(), o.out, prior, ro.Interval)
			defer o.run.finish(false)
			began := time.Now()
			res, err := e.Run(cmd.Context(), ro)
			if err != nil {
				return runtimeError{err}
			}
			// The run's last tick may predate its last games: end the bar
			// on the games played in this session, before anything goes
			// to stdout.
			played := -prior
			for i := range res.Cells {
				played += res.Cells[i].Stats.Games
			}
			o.run.finishAt(played, time.Since(began), res.Complete)
			f := res.File(text, ro.Shard)
			f.Producer = producer
			if err := experiments.WriteOutputsWith(o.out, f, version, runtime.Version(), plots); err != nil {
				return runtimeError{err}
			}
			if err := recordsDone(a, o.records, o.out, res.Complete); err != nil {
				return err
			}
			warn(a, experimentWarnings(res))
			printExperiment(a, res, o.out)
			if !res.Complete {
				return errInterrupted
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.out, "out", "", "directory for the report, plots and stats (rerun to resume)")
	int64Flag(fs, &o.games, "games", "a number of games per cell", 0, 1, sim.MaxGames, "games per cell, 1 to 10^15 (default: the file's); with --ci-width, the most per cell")
	seedVarFlag(fs, &o.seed, "seed", 0, "seed, 0 to 2^64-1 in decimal (default: the file's, 1 if it gives none)")
	workersFlag(fs, &o.workers)
	floatVarFlag(fs, &o.ciWidth, "ci-width", 0, "play each cell in batches until the 95% interval of its main estimate is this wide")
	fs.StringVar(&o.shard, "shard", "", "run only shard i/n (0 <= i < n) of the game indices; merge with 'unosim merge'")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	recordsFlag(fs, &o.records)
	o.run.register(fs)
	o.plots.register(fs)
	return cmd
}

// experimentDone reports a rerun into a finished directory: nothing is
// played; a report that is missing (a failure after stats.json was
// written) is rendered again.
func experimentDone(a *app, dir string, prior *experiments.StatsFile, plots experiments.PlotOptions) error {
	fmt.Fprintf(a.stderr, "unosim: %s is already complete; nothing to do\n", dir)
	res, err := prior.Result()
	if err != nil {
		return runtimeError{err}
	}
	if m, err := experiments.ReadManifest(dir); err != nil || !m.Rendered || !fileExists(filepath.Join(dir, "report.md")) {
		if err := renderExperiment(dir, prior, res, plots); err != nil {
			return runtimeError{err}
		}
	}
	warn(a, experimentWarnings(res))
	printExperiment(a, res, dir)
	return nil
}

// renderExperiment writes the report, summary and plots of a record again.
func renderExperiment(dir string, f *experiments.StatsFile, res *experiments.Result, plots experiments.PlotOptions) error {
	m, err := experiments.ReadManifest(dir)
	if err != nil {
		m = &experiments.Manifest{Tool: "unosim", Version: f.Producer.Version, GoVersion: f.Producer.GoVersion, Producer: f.Producer,
			Experiment: f.Name, Source: f.Source, Hash: f.Hash, Seed: f.Seed, Games: f.Games, CIWidth: f.CIWidth, Shard: f.Shard,
			GameRange: f.GameRange, Cells: len(f.Cells), Workers: f.Workers, Complete: f.Complete, Start: f.Start, End: f.End}
		for _, c := range f.Cells {
			m.GamesRun += c.Stats.Games
		}
	}
	return experiments.RenderWith(dir, f, res, m, version, plots)
}

func printExperiment(a *app, r *experiments.Result, dir string) {
	e := r.Experiment
	w := a.stdout
	if !r.Complete {
		fmt.Fprintln(w, "INCOMPLETE: interrupted; the figures cover only the games played.")
	}
	fmt.Fprintf(w, "%s: %d cells, seed %d, %.1f s\n\n", e.File.Name, len(e.Cells), r.Seed, r.End.Sub(r.Start).Seconds())
	main := e.Main.String()
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "cell\tgames\tunfinished\t%s [95%% CI] (main)\tturns mean [95%% CI]\tfirst player wins [95%% CI]\n", main)
	for i, c := range e.Cells {
		st := &r.Cells[i].Stats
		m := st.Turns.MeanCI(sim.Confidence)
		fp := sim.Summarize(c.Config.Identity(), st, 0, st.Games, true, 0, version).FirstPlayer
		est, lo, hi := r.MainEstimate(i)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f [%.2f, %.2f]\t%s %s\n", c.Label, thousands(st.Games), thousands(st.Unfinished+st.Blocked),
			estimateText(e.Main.Numeric(), est, lo, hi), m.Mean, m.Lo, m.Hi, pct(fp.Rate), ci(fp.CI))
	}
	tw.Flush()
	if tests := r.Tests(); len(tests) > 0 {
		significant := 0
		for _, t := range tests {
			if t.PHolm < 0.05 {
				significant++
			}
		}
		fmt.Fprintf(w, "\n%d tests, %d significant at 5%% after Holm's adjustment:\n", len(tests), significant)
		tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "test\tmetric\teffect [95% CI]\tp\tp (Holm)\tverdict")
		for _, t := range tests {
			m, err := experiments.ParseMetric(t.Metric)
			numeric := err == nil && m.Numeric()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Name, t.Metric, effectText(numeric, t.Effect, t.EffectLo, t.EffectHi), pValue(t.P), pValue(t.PHolm), verdict(t.PHolm))
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nreport: %s/report.md (tests, plots); data: summary.csv, stats.json\n", dir)
}

// estimateText formats an estimate and its interval: numbers to two
// decimals, proportions as percentages.
func estimateText(numeric bool, est, lo, hi float64) string {
	if numeric {
		return fmt.Sprintf("%.2f [%.2f, %.2f]", est, lo, hi)
	}
	return fmt.Sprintf("%s [%s, %s]", pct(est), pct(lo), pct(hi))
}

// effectText formats an effect and its interval: differences of numbers
// signed to two decimals, differences of proportions in percentage points.
func effectText(numeric bool, est, lo, hi float64) string {
	if numeric {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", est, lo, hi)
	}
	return fmt.Sprintf("%+.2f pp [%+.2f, %+.2f]", 100*est, 100*lo, 100*hi)
}

func pValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p < 1e-4:
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

func verdict(pHolm float64) string {
	switch {
	case math.IsNaN(pHolm):
		return "not testable"
	case pHolm < 0.05:
		return "differs"
	}
	return "no evidence of a difference"
}

// experimentWarnings names the cells whose length statistics include games
// cut off at max-turns, or matches stopped by the round cap.
func experimentWarnings(r *experiments.Result) []string {
	var w []string
	for i, c := range r.Experiment.Cells {
		st := &r.Cells[i].Stats
		if capped := st.Unfinished - st.MatchCapped; capped > 0 {
			w = append(w, fmt.Sprintf("cell %s: %s of %s (%.3g%%) stopped at max-turns=%d; its length statistics include them at their capped length",
				c.Label, games(capped), thousands(st.Games), 100*float64(capped)/float64(st.Games), c.Config.Options.MaxTurns))
		}
		if st.MatchCapped > 0 {
			w = append(w, fmt.Sprintf("cell %s: %s reached the match cap of %s rounds; they count as unfinished", c.Label, games(st.MatchCapped), thousands(engine.MaxRounds)))
		}
	}
	return w
}
