package main

import (
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
	run     runFlags
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
  unosim simulate --games 10000000 --shard 0/4 --out run/shard0`,
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
	o.run.register(fs)
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
		has, err := sim.OpenOut(o.out, o.run.force)
		if err != nil {
			return usageError{err}
		}
		defer func() {
			if created && !fileExists(filepath.Join(o.out, "stats.json")) {
				os.Remove(o.out) // only an empty directory: nothing was recorded
			}
		}()
		if has {
			prior, err := sim.ReadStats(o.out)
			if err != nil {
				return usagef("output directory %s holds a record that cannot be resumed: %v; choose another --out, or --force to start over", o.out, err)
			}
			if err := prior.CheckResume(o.out, cfg, producer); err != nil {
				return usageError{err}
			}
			if prior.Complete {
				return simulateDone(a, o, prior)
			}
			resume = prior
			fmt.Fprintf(a.stderr, "unosim: resuming %s: games [%d, %d) of [%d, %d) done, %s to play\n", o.out,
				prior.GameRange[0], prior.GameRange[1], prior.Planned[0], prior.Planned[1], thousands(prior.Planned[1]-prior.GameRange[1]))
		}
	}

	ro := sim.Options{Resume: resume, Interval: 5 * time.Second}
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
	run, err := sim.SimulateWith(cmd.Context(), cfg, ro)
	var failed *sim.StrategyError
	if err != nil && (run == nil || !errors.As(err, &failed)) {
		return runtimeError{err}
	}
	o.run.finish(run.Complete) // before anything goes to stdout
	file := run.File()
	file.Producer = producer
	if o.out != "" {
		if err := sim.WriteOutputs(o.out, file, version); err != nil {
			return runtimeError{err}
		}
	}
	if err := printSimulate(a, o, file); err != nil {
		return err
	}
	if failed != nil {
		return runtimeError{fmt.Errorf("%w; the games finished before it were reported and marked incomplete", failed)}
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
	return printSimulate(a, o, prior)
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
