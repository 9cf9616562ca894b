package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/unosim/unosim/sim"
)

// runFlags are the flags of a long run that may be stopped and resumed
// (simulate and experiment run): checkpoints, --force and progress.
type runFlags struct {
	force           bool
	checkpointEvery string
	progressMode    string
	progressEvery   time.Duration

	printer *progressPrinter
}

func (f *runFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.force, "force", false, "start over: remove an earlier run's outputs from --out instead of resuming it")
	fs.StringVar(&f.checkpointEvery, "checkpoint-every", "30s",
		"with --out, write a resumable checkpoint at this interval: a duration (30s, 5m) or a number of games (1000000); 0: only when stopped")
	fs.StringVar(&f.progressMode, "progress", "auto", "progress on stderr: auto (a bar on a terminal, lines otherwise), json (one JSON object per line, for cluster logs) or none")
	fs.DurationVar(&f.progressEvery, "progress-every", 0, "interval of the progress lines (default 5s; 200ms for the bar)")
}

// checkpointPlan is --checkpoint-every read: games or a duration.
type checkpointPlan struct {
	games int64
	every time.Duration
}

// parse checks the flags; --quiet means --progress none.
func (f *runFlags) parse(fs *pflag.FlagSet, quiet bool) (checkpointPlan, error) {
	var p checkpointPlan
	switch v := strings.TrimSpace(f.checkpointEvery); {
	case v == "0":
	case strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' }) < 0 && v != "":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return p, usagef("--checkpoint-every %s: want a duration (30s, 5m), a number of games, or 0", v)
		}
		p.games = n
	default:
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return p, usagef("--checkpoint-every %q: want a duration (30s, 5m), a number of games (1000000), or 0 (only when stopped)", v)
		}
		p.every = d
	}
	switch f.progressMode {
	case "auto", "json", "none":
	default:
		return p, usagef("--progress %q: valid: auto, json, none", f.progressMode)
	}
	if f.progressEvery < 0 {
		return p, usagef("--progress-every %v: want a positive interval", f.progressEvery)
	}
	if quiet && !fs.Changed("progress") {
		f.progressMode = "none"
	}
	return p, nil
}

// progressLine is one line of --progress json.
type progressLine struct {
	Time           string  `json:"time"`
	Shard          string  `json:"shard"`
	Out            string  `json:"out,omitempty"`
	GamesDone      int64   `json:"games_done"`  // over the shard, earlier sessions included
	GamesTotal     int64   `json:"games_total"` // of the shard
	GamesPerSecond float64 `json:"games_per_second"`
	SecondsLeft    float64 `json:"seconds_left"`
	Elapsed        float64 `json:"elapsed_seconds"` // of this session
}

// progress is the run's progress callback and its interval (nil: none).
// A resumed run counts the games of its checkpoint as done.
func (f *runFlags) progress(a *app, shard sim.Shard, out string, resume *sim.StatsFile, interval time.Duration) (sim.Progress, time.Duration) {
	prior := int64(0)
	if resume != nil {
		prior = resume.Stats.Games
	}
	return f.progressFrom(a, shard.String(), out, prior, interval)
}

func (f *runFlags) progressFrom(a *app, shard, out string, prior int64, interval time.Duration) (sim.Progress, time.Duration) {
	if f.progressEvery > 0 {
		interval = f.progressEvery
	}
	switch f.progressMode {
	case "none":
		return nil, interval
	case "json":
		enc := json.NewEncoder(a.stderr)
		return func(done, total int64, elapsed time.Duration) {
			l := progressLine{Time: time.Now().UTC().Format(time.RFC3339), Shard: shard, Out: out,
				GamesDone: prior + done, GamesTotal: prior + total, Elapsed: elapsed.Seconds()}
			if s := elapsed.Seconds(); s > 0 {
				l.GamesPerSecond = float64(done) / s
			}
			if l.GamesPerSecond > 0 {
				l.SecondsLeft = float64(total-done) / l.GamesPerSecond
			}
			enc.Encode(l)
		}, interval
	}
	f.printer = newProgressPrinter(a.stderr, a.stderrIsTTY)
	if a.stderrIsTTY && f.progressEvery == 0 {
		interval = ttyInterval
	}
	return f.printer.update, interval
}

// finish ends the progress bar's line (at 100% when the run completed).
func (f *runFlags) finish(complete bool) {
	if f.printer != nil {
		f.printer.finish(complete)
	}
}

// finishAt ends the bar as finish does, on done games in elapsed: the
// run's last tick may predate its last games.
func (f *runFlags) finishAt(done int64, elapsed time.Duration, complete bool) {
	if f.printer != nil {
		f.printer.done, f.printer.elapsed = done, elapsed
	}
	f.finish(complete)
}
