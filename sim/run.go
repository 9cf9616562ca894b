package sim

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/unosim/unosim/engine"
)

// chunk is the number of consecutive games a worker takes at a time: large
// enough to make the hand-out cheap, small enough to stop quickly.
const chunk = 512

// Run is the outcome of a simulation.
type Run struct {
	Config   *Config
	Stats    Stats
	Lo, Hi   int64 // the game indices this run covers
	Complete bool  // false when the run was interrupted: Stats cover only the games done
	Elapsed  time.Duration
	Workers  int // the worker goroutines that played
}

// Progress receives the number of games done so far; it is called from
// the runner's own goroutine, never concurrently.
type Progress func(done, total int64, elapsed time.Duration)

// Simulate plays the games of cfg's shard on a pool of workers. Game i
// depends only on (seed, i), and workers only sum integer counts, so the
// result is the same for any worker count. When ctx is cancelled the
// workers stop after their current chunk and the run is returned with
// Complete false. progress (may be nil) is called about every interval.
func Simulate(ctx context.Context, cfg *Config, progress Progress, interval time.Duration) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lo, hi := cfg.Shard.Range(cfg.Games)
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = int(min(int64(workers), (hi-lo+chunk-1)/chunk))
	start := time.Now()
	var next, done atomic.Int64
	next.Store(lo)
	stats := make([]Stats, workers)
	stop := make(chan struct{})
	var stopped atomic.Bool

	eg := errgroup.Group{}
	for w := range workers {
		eg.Go(func() (err error) {
			defer CatchPanic(&err)
			wk, err := NewTable(cfg)
			if err != nil {
				return err
			}
			for ctx.Err() == nil {
				a := next.Add(chunk) - chunk
				if a >= hi {
					break
				}
				b := min(a+chunk, hi)
				for i := a; i < b; i++ {
					wk.Play(i)
				}
				done.Add(b - a)
			}
			if ctx.Err() != nil {
				stopped.Store(true)
			}
			wk.Seal()
			stats[w] = wk.Stats
			return nil
		})
	}
	ticker := make(chan struct{})
	go func() {
		defer close(ticker)
		if progress == nil {
			<-stop
			return
		}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				progress(done.Load(), hi-lo, time.Since(start))
			}
		}
	}()
	err := eg.Wait()
	close(stop)
	<-ticker
	if err != nil {
		return nil, err
	}
	run := &Run{Config: cfg, Lo: lo, Hi: hi, Elapsed: time.Since(start), Workers: workers}
	run.Stats = newStats(cfg.Players, cfg.strategies(), 0, cfg.Options.PlayForPlaces)
	run.Stats.Events = map[string]int64{}
	for i := range stats {
		run.Stats.Merge(&stats[i])
	}
	run.Stats.trim()
	run.Complete = !stopped.Load() && run.Stats.Games == hi-lo
	if progress != nil {
		progress(run.Stats.Games, hi-lo, run.Elapsed)
	}
	return run, nil
}

// Table plays the games of one configuration on one goroutine: an engine
// table per seat rotation and the stats of the games it played. Nothing is
// shared with other Tables and nothing is allocated per game.
type Table struct {
	cfg   *Config
	games []*engine.Game
	Stats Stats
}

// NewTable builds the tables of cfg, which must be valid.
func NewTable(cfg *Config) (*Table, error) {
	t := &Table{cfg: cfg, Stats: newStats(cfg.Players, cfg.strategies(), cfg.Options.MaxTurns, cfg.Options.PlayForPlaces)}
	rotations := 1
	if cfg.Seats == RotateSeats {
		rotations = cfg.Players
	}
	onRound := t.onRound
	for rot := range rotations {
		g, err := cfg.NewGame(rot)
		if err != nil {
			return nil, err
		}
		g.OnRound(onRound)
		t.games = append(t.games, g)
	}
	return t, nil
}

// Play plays game i, adds it to the stats and returns its result, valid
// until the next call.
func (t *Table) Play(i int64) *engine.Result {
	r := t.games[t.cfg.rotation(i)].Play(t.cfg.Seed, uint64(i))
	t.Stats.add(t.cfg, i, r)
	return r
}

// Seal finishes the stats after the last game; they can then be merged.
func (t *Table) Seal() { t.Stats.seal() }

func (t *Table) onRound(rr *engine.RoundResult) { t.Stats.addRound(rr, t.cfg.Players) }

// TakeStats seals and returns the stats of the games played so far and
// starts new ones, so that a long run can be summed batch by batch.
func (t *Table) TakeStats() Stats {
	t.Seal()
	s := t.Stats
	t.Stats = newStats(t.cfg.Players, t.cfg.strategies(), t.cfg.Options.MaxTurns, t.cfg.Options.PlayForPlaces)
	return s
}

// NewStats makes empty stats for cfg, to merge others into.
func NewStats(cfg *Config) Stats {
	s := newStats(cfg.Players, cfg.strategies(), 0, cfg.Options.PlayForPlaces)
	s.Events = map[string]int64{}
	return s
}

// Compact drops the histograms' trailing zero counts, so that equal stats
// serialize to equal bytes.
func (s *Stats) Compact() { s.trim() }
