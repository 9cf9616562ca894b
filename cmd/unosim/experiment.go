package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
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
	cmd.AddCommand(newExperimentRunCmd(a), newExperimentValidateCmd(a), newExperimentListCmd(a))
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(*cobra.Command, []string) error {
		return usagef("experiment needs a command: run, validate or list")
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

func newExperimentValidateCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE|NAME",
		Short: "Check an experiment file and list its cells and comparisons",
		Args:  oneArg("one experiment file or built-in name (see 'unosim experiment list')"),
		RunE: func(_ *cobra.Command, args []string) error {
			e, _, err := loadExperiment(args[0])
			if err != nil {
				return usageError{err}
			}
			warn(a, e.Warnings)
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
}

func newExperimentListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the built-in experiments",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, b := range experiments.Builtins() {
				fmt.Fprintf(a.stdout, "%s\n  %s\n\n", b.Name, indent(b.Description))
			}
			fmt.Fprintln(a.stdout, "run one with: unosim experiment run NAME --out DIR [--games N]")
			return nil
		},
	}
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
}

func newExperimentRunCmd(a *app) *cobra.Command {
	o := &experimentRunOptions{}
	cmd := &cobra.Command{
		Use:   "run FILE|NAME --out DIR",
		Short: "Run an experiment file or a built-in experiment and write its report",
		Long: `Run every cell of the experiment on the same deals and write into the new directory --out:
manifest.json, stats.json (mergeable), summary.csv, report.md and plots/ (PNG and SVG).
--games and --seed override the file's, so that a quick look and a full run use the same file.`,
		Example: `  unosim experiment run house-rules --out results/house-rules --games 20000
  unosim experiment run my-experiment.yaml --out results/mine --ci-width 0.2
  unosim experiment run player-count --games 1000000 --shard 0/4 --out results/pc-0`,
		Args: oneArg("one experiment file or built-in name (see 'unosim experiment list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, text, err := loadExperiment(args[0])
			if err != nil {
				return usageError{err}
			}
			warn(a, e.Warnings)
			if o.out == "" {
				return usagef("experiment run needs --out DIR, a new directory for the report")
			}
			if o.ciWidth < 0 || math.IsNaN(o.ciWidth) || math.IsInf(o.ciWidth, 0) {
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
			if err := sim.PrepareOut(o.out); err != nil {
				return usageError{err}
			}
			bar := newProgressPrinter(a.stderr, a.stderrIsTTY)
			defer bar.finish(false)
			if !o.quiet {
				ro.Progress = bar.update
				if a.stderrIsTTY {
					ro.Interval = ttyInterval
				}
			}
			res, err := e.Run(cmd.Context(), ro)
			if err != nil {
				return runtimeError{err}
			}
			// The run's last tick may predate its last games: end the bar
			// on the games played, before anything goes to stdout.
			played := int64(0)
			for i := range res.Cells {
				played += res.Cells[i].Stats.Games
			}
			bar.done, bar.elapsed = played, res.End.Sub(res.Start)
			bar.finish(res.Complete)
			f := res.File(text, ro.Shard)
			if err := experiments.WriteOutputs(o.out, f, version, runtime.Version()); err != nil {
				return runtimeError{err}
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
	fs.StringVar(&o.out, "out", "", "new directory for the report, plots and stats")
	int64Flag(fs, &o.games, "games", "a number of games per cell", 0, 1, sim.MaxGames, "games per cell, 1 to 10^15 (default: the file's); with --ci-width, the most per cell")
	seedVarFlag(fs, &o.seed, "seed", 0, "seed, 0 to 2^64-1 in decimal (default: the file's, 1 if it gives none)")
	workersFlag(fs, &o.workers)
	fs.Float64Var(&o.ciWidth, "ci-width", 0, "play each cell in batches until the 95% interval of its main estimate is this wide")
	fs.StringVar(&o.shard, "shard", "", "run only shard i/n (0 <= i < n) of the game indices; merge with 'unosim merge'")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	return cmd
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Name, t.Metric, estimateText(numeric, t.Effect, t.EffectLo, t.EffectHi), pValue(t.P), pValue(t.PHolm), verdict(t.PHolm))
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
