package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
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
}

func newSimulateCmd(a *app) *cobra.Command {
	o := &simulateOptions{}
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Play many seeded games of one configuration and report the statistics",
		Long: `Play --games seeded games of one configuration on a pool of workers and report win rates,
game lengths and rule effects with 95% confidence intervals. Game i depends only on (--seed, i):
results are identical for any --workers and any --shard split. Ctrl-C stops cleanly: the games
finished so far are reported and written, marked incomplete.`,
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
	fs.StringVar(&o.out, "out", "", "write summary.json, summary.csv and the mergeable stats.json into this new directory")
	fs.StringVar(&o.shard, "shard", "", "run only shard i/n (0 <= i < n) of the game indices; needs --out; merge with 'unosim merge'")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the run to this file (for performance work; see the README)")
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
	if o.out != "" {
		if err := sim.PrepareOut(o.out); err != nil {
			return usageError{err}
		}
		written := false
		defer func() {
			if !written {
				os.Remove(o.out) // only an empty directory: nothing was written
			}
		}()
		defer func() { written = fileExists(filepath.Join(o.out, "summary.json")) }()
	}

	var progress sim.Progress
	interval := 5 * time.Second
	bar := newProgressPrinter(a.stderr, a.stderrIsTTY)
	defer bar.finish(false)
	if !o.quiet {
		progress = bar.update
		if a.stderrIsTTY {
			interval = ttyInterval
		}
	}
	run, err := sim.Simulate(cmd.Context(), cfg, progress, interval)
	if err != nil {
		return runtimeError{err}
	}
	bar.finish(run.Complete) // before anything goes to stdout
	file := run.File()
	if o.out != "" {
		if err := sim.WriteOutputs(o.out, file, version); err != nil {
			return runtimeError{err}
		}
	}
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
	if !run.Complete {
		return errInterrupted
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
