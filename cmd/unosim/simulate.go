package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/unosim/unosim/engine"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/sim"
)

type simulateOptions struct {
	config  configFlags
	games   int64
	workers int
	json    bool
	out     string
	shard   string
	quiet   bool
	profile string
	records string
	run     runFlags
	ciWidth float64 // > 0: play in batches until the mean turns' 95% interval is this narrow
	batch   int64   // games per batch with ciWidth
	report  bool    // with out: write report.md and plots/
}

func newSimulateCmd(a *app) *cobra.Command {
	o := &simulateOptions{}
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Play many seeded games of one configuration and report the statistics",
		Long: `Play --games seeded games of one configuration on a pool of workers and report win rates,
game lengths and rule effects with 95% confidence intervals. Game i depends only on (--seed, i):
results are identical for any --workers and any --shard split. Ctrl-C stops cleanly: the games
finished so far are reported and written, marked incomplete.

With --out, the run writes a checkpoint (stats.json, marked incomplete) every --checkpoint-every
and when stopped by SIGTERM or Ctrl-C. Rerunning the same command with the same --out resumes
from it and plays only the missing games: the result is identical to an uninterrupted run. A
finished directory is left as it is ("already complete", exit 0); a directory holding another
run is refused (exit 2) with what differs; --force starts over.

Events counted per game (events and events_per_game in the output):
` + counterHelp(),
		Example: `  unosim simulate
  unosim simulate --players 2 --games 100000 --strategy random
  unosim simulate --strategy heuristic:bluff=0.3 --strategy heuristic --seats rotate --players 2
  unosim simulate --set stack-draw-two=true --set max-turns=2000 --json
  unosim simulate --games 10000000 --shard 0/4 --out run/shard0
  unosim simulate --ci-width 0.2 --games 2000000
  unosim simulate --players 3 --strategy heuristic --strategy random --strategy random --out run/mixed --report`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSimulate(cmd, a, o) },
	}
	fs := cmd.Flags()
	o.config.register(fs)
	int64Flag(fs, &o.games, "games", "a number of games", 1_000_000, 1, sim.MaxGames, "number of games in the run (over all shards), 1 to 10^15")
	workersFlag(fs, &o.workers)
	fs.BoolVar(&o.json, "json", false, "print the full result as one JSON object on stdout")
	fs.StringVar(&o.out, "out", "", "write summary.json, summary.csv and the mergeable stats.json into this directory (rerun to resume)")
	fs.StringVar(&o.shard, "shard", "", "run only shard i/n (0 <= i < n) of the game indices; needs --out; merge with 'unosim merge'")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the run to this file (for performance work; see the README)")
	recordsFlag(fs, &o.records)
	o.run.register(fs)
	floatVarFlag(fs, &o.ciWidth, "ci-width", 0, "play in batches of --batch games until the 95% interval of the mean turns is at most this wide (at least two batches; --games is the most)")
	int64Flag(fs, &o.batch, "batch", "a number of games", 10_000, 1, sim.MaxGames, "games per batch with --ci-width")
	fs.BoolVar(&o.report, "report", false, "with --out, also write report.md and plots/ (game lengths, win rates by seat and strategy)")
	return cmd
}

func runSimulate(cmd *cobra.Command, a *app, o *simulateOptions) error {
	cfg, err := o.config.build()
	if err != nil {
		return err
	}
	warn(a, o.config.warnings)
	cfg.Games, cfg.Workers = o.games, o.workers
	if o.shard != "" {
		if cfg.Shard, err = sim.ParseShard(o.shard); err != nil {
			return usageError{fmt.Errorf("--%w", err)}
		}
		if o.out == "" {
			return usagef("--shard needs --out DIR, where the shard's mergeable stats.json is written")
		}
	}
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	checkpoint, err := o.run.parse(cmd.Flags(), o.quiet)
	if err != nil {
		return err
	}
	if err := checkRecords(o.records, o.out); err != nil {
		return err
	}
	if o.ciWidth < 0 || o.ciWidth == 0 && cmd.Flags().Changed("ci-width") {
		return usagef("--ci-width %v: want a positive width in turns", o.ciWidth)
	}
	if o.ciWidth > 0 && cfg.Shard.Count > 1 {
		return usagef("--ci-width and --shard cannot be combined: a shard cannot know when the whole run is precise enough")
	}
	if o.ciWidth > 0 && cmd.Flags().Changed("checkpoint-every") {
		return usagef("--ci-width and --checkpoint-every cannot be combined: a --ci-width run is written when it stops and is not resumed")
	}
	if cmd.Flags().Changed("batch") && o.ciWidth == 0 {
		return usagef("--batch needs --ci-width W: it is the number of games between two checks of the interval")
	}
	if o.report && o.out == "" {
		return usagef("--report needs --out DIR, where report.md and plots/ are written")
	}
	if o.out == "" {
		for _, f := range []string{"force", "checkpoint-every"} {
			if cmd.Flags().Changed(f) {
				return usagef("--%s needs --out DIR, the directory the run records its checkpoints in", f)
			}
		}
	}
	if o.profile != "" {
		f, err := os.Create(o.profile)
		if err != nil {
			return usagef("--cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return runtimeError{err}
		}
		defer pprof.StopCPUProfile()
	}
	producer := sim.ThisBuild(version)
	var resume *sim.StatsFile
	if o.out != "" {
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
		if has && o.ciWidth > 0 {
			return usagef("output directory %s holds a run: a --ci-width run cannot be resumed (its length depends on its interval); choose another --out, or --force to start over", o.out)
		}
		if has {
			prior, err := sim.ReadStats(o.out)
			if err != nil {
				return usagef("output directory %s holds a record that cannot be resumed: %v; choose another --out, or --force to start over", o.out, err)
			}
			if err := prior.CheckResume(o.out, cfg, producer); err != nil {
				return usageError{err}
			}
			if prior.Complete {
				if err := recordsDone(a, o.records, o.out, true); err != nil {
					return err
				}
				return simulateDone(a, o, prior)
			}
			resume = prior
			fmt.Fprintf(a.stderr, "unosim: resuming %s: games [%d, %d) of [%d, %d) done, %s to play\n", o.out,
				prior.GameRange[0], prior.GameRange[1], prior.Planned[0], prior.Planned[1], thousands(prior.Planned[1]-prior.GameRange[1]))
		}
	}

	if err := discardRecords(o.records, o.run.force); err != nil {
		return err
	}
	ro := sim.Options{Resume: resume, Interval: 5 * time.Second, Records: o.records}
	if o.out != "" {
		ro.CheckpointGames, ro.CheckpointEvery = checkpoint.games, checkpoint.every
		ro.Checkpoint = func(r *sim.Run) error {
			f := r.File()
			f.Producer = producer
			return sim.WriteOutputs(o.out, f, version)
		}
	}
	ro.Progress, ro.Interval = o.run.progress(a, cfg.Shard, o.out, resume, ro.Interval)
	defer o.run.finish(false)
	var run *sim.Run
	stop := ""
	if o.ciWidth > 0 {
		ro.Checkpoint = nil // the batches are the checkpoints; the run is written when it stops
		run, stop, err = simulateToWidth(cmd.Context(), cfg, ro, o.ciWidth, o.batch)
	} else {
		run, err = sim.SimulateWith(cmd.Context(), cfg, ro)
	}
	var failed *sim.StrategyError
	if err != nil && (run == nil || !errors.As(err, &failed)) {
		return runtimeError{err}
	}
	o.run.finish(run.Complete) // before anything goes to stdout
	if stop != "" {
		fmt.Fprintln(a.stderr, "unosim: --ci-width:", stop)
	}
	file := run.File()
	file.Producer = producer
	if o.out != "" {
		if err := sim.WriteOutputs(o.out, file, version); err != nil {
			return runtimeError{err}
		}
		if o.report {
			if err := sim.WriteReport(o.out, file, version, stop); err != nil {
				return runtimeError{err}
			}
		}
	}
	if err := recordsDone(a, o.records, o.out, run.Complete); err != nil {
		return err
	}
	if err := printSimulate(a, o, file); err != nil {
		return err
	}
	if failed != nil {
		// The run stands as of its last checkpoint: the games after it are
		// dropped, since with several workers they form no prefix.
		if file.Stats.Games == 0 {
			return runtimeError{fmt.Errorf("%w; no game was reported and the run is marked incomplete: a failed run keeps only the games up to its last checkpoint (--out DIR, --checkpoint-every), and it had none", failed)}
		}
		return runtimeError{fmt.Errorf("%w; the %s games up to the last checkpoint were reported and marked incomplete (rerun with the same --out to resume from there)", failed, thousands(file.Stats.Games))}
	}
	if !run.Complete {
		return errInterrupted
	}
	return nil
}

// printSimulate prints the result on stdout: the table, or JSON.
func printSimulate(a *app, o *simulateOptions, file *sim.StatsFile) error {
	sum := file.Summary(version)
	warn(a, summaryWarnings(sum))
	if o.json {
		data, err := json.MarshalIndent(sum, "", "  ")
		if err != nil {
			return runtimeError{err}
		}
		fmt.Fprintln(a.stdout, string(data))
	} else {
		printSummary(a.stdout, sum)
	}
	return nil
}

// simulateDone reports a rerun into a finished directory: nothing is
// played, and only summary files that are missing (a failure after
// stats.json was written) are rendered again.
func simulateDone(a *app, o *simulateOptions, prior *sim.StatsFile) error {
	fmt.Fprintf(a.stderr, "unosim: %s is already complete (%s games); nothing to do\n", o.out, thousands(prior.Stats.Games))
	var sum struct {
		Complete bool  `json:"complete"`
		Games    int64 `json:"games"`
	}
	data, err := os.ReadFile(filepath.Join(o.out, "summary.json"))
	if err != nil || json.Unmarshal(data, &sum) != nil || !sum.Complete || sum.Games != prior.Stats.Games || !fileExists(filepath.Join(o.out, "summary.csv")) {
		if err := sim.WriteSummaries(o.out, prior, version); err != nil {
			return runtimeError{err}
		}
	}
	if o.report && !fileExists(filepath.Join(o.out, "report.md")) {
		if err := sim.WriteReport(o.out, prior, version, ""); err != nil {
			return runtimeError{err}
		}
	}
	return printSimulate(a, o, prior)
}

// simulateToWidth plays cfg in batches of batch games until the 95%
// interval of the mean turns is at most width wide, or cfg.Games are
// played. The rule is checked only at the end of batch k >= 2 (games
// [0, k*batch)), on the stats of those games alone: the games played, and
// so every number, are the same for any worker count, and the result is
// exactly a plain run of that many games (its stats.json says so). It
// returns the run and why it stopped.
func simulateToWidth(ctx context.Context, cfg *sim.Config, ro sim.Options, width float64, batch int64) (run *sim.Run, stop string, err error) {
	limit := cfg.Games
	progress := ro.Progress
	if ro.Records != "" {
		// One records file over the batches: one run key, and the
		// segments joined once the run stops complete.
		ro.RecordsRun, ro.RecordsDefer = sim.RecordRun(cfg.Identity(), cfg.Shard.String()), true
		spec := sim.RecordSpec{Path: ro.Records, Layout: sim.LayoutOf(cfg), Run: ro.RecordsRun, Workers: 1, BatchRows: 1}
		defer func() {
			if err == nil && run.Complete {
				err = sim.JoinRecords(spec, run.Lo+run.Stats.Games)
			}
		}()
	}
	var prev *sim.Run
	for k := int64(1); ; k++ {
		n := min(k*batch, limit)
		c := *cfg
		c.Games = n
		if err := c.Validate(); err != nil {
			return nil, "", err
		}
		o := ro
		if prev != nil {
			// The games [0, (k-1) batch) are done: the next run resumes them.
			f := prev.File()
			f.Identity.Games, f.Planned = n, [2]int64{0, n}
			o.Resume = f
		}
		if progress != nil {
			base := min((k-1)*batch, limit)
			o.Progress = func(done, _ int64, el time.Duration) { progress(base+done, limit, el) }
		}
		run, err := sim.SimulateWith(ctx, &c, o)
		if err != nil {
			return nil, "", err
		}
		ci := run.Stats.Turns.MeanCI(sim.Confidence)
		w := ci.Hi - ci.Lo
		switch {
		case !run.Complete:
			return run, fmt.Sprintf("interrupted after %s games; the 95%% interval of the mean turns was %.4g wide (target %g)", thousands(run.Stats.Games), w, width), nil
		case k >= 2 && w <= width:
			return run, fmt.Sprintf("the 95%% interval of the mean turns is %.4g wide after %s games (%d batches of %s; target %g)", w, thousands(n), k, thousands(batch), width), nil
		case n == limit:
			return run, fmt.Sprintf("reached the %s-game limit (--games) with a 95%% interval of the mean turns %.4g wide (target %g)", thousands(limit), w, width), nil
		}
		prev = run
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// counterHelp lists the event counters for --help.
func counterHelp() string {
	var b strings.Builder
	for c := engine.Counter(0); c < engine.NumCounters; c++ {
		fmt.Fprintf(&b, "  %-24s %s\n", c, c.Doc())
	}
	return strings.TrimRight(b.String(), "\n")
}
