package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
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

// Options say how a run is carried out, not what it computes.
type Options struct {
	// Progress (may be nil) is called about every Interval with the games
	// done and to do in this call (a resumed run counts only its own).
	Progress Progress
	Interval time.Duration
	// Resume is a checkpoint of this run (a stats.json with Complete
	// false) to continue from: only the games after it are played.
	Resume *StatsFile
	// Checkpoint (may be nil) is given the run so far, incomplete, every
	// CheckpointGames games or CheckpointEvery (whichever comes first;
	// zero: never). An error stops the run and is returned.
	Checkpoint      func(*Run) error
	CheckpointGames int64
	CheckpointEvery time.Duration
	// Records (may be empty) is the per-game records file (.parquet, .csv
	// or .jsonl). Its segments are cut before each checkpoint, so that a
	// resumed run holds every game once (see Records).
	Records string
	// RecordsRun replaces the run key of the records (RecordRun of the
	// configuration), and RecordsDefer leaves a complete run's segments
	// unjoined: for a caller that plays one run as a series of calls
	// (simulate --ci-width) and joins them itself (JoinRecords).
	RecordsRun   string
	RecordsDefer bool
}

// Simulate plays the games of cfg's shard on a pool of workers. Game i
// depends only on (seed, i), and workers only sum integer counts, so the
// result is the same for any worker count. When ctx is cancelled the
// workers stop after their current chunk and the run is returned with
// Complete false. progress (may be nil) is called about every interval.
func Simulate(ctx context.Context, cfg *Config, progress Progress, interval time.Duration) (*Run, error) {
	return SimulateWith(ctx, cfg, Options{Progress: progress, Interval: interval})
}

// SimulateWith is Simulate with checkpoints and resume. The games played
// are always a prefix [lo, x) of the shard's range: at a checkpoint the
// workers finish their chunks and wait, so the stats cover exactly the
// games of the prefix, and a run resumed from any checkpoint sums to the
// same integers, bit for bit, as an uninterrupted one.
func SimulateWith(ctx context.Context, cfg *Config, o Options) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lo, hi := cfg.Shard.Range(cfg.Games)
	run := &Run{Config: cfg, Lo: lo, Hi: hi, Stats: NewStats(cfg)}
	x := lo // the games [lo, x) are in run.Stats
	var prior time.Duration
	if r := o.Resume; r != nil {
		if r.Planned != [2]int64{lo, hi} || r.GameRange[0] != lo || r.GameRange[1] > hi || !r.Identity.Equal(cfg.Identity()) {
			return nil, fmt.Errorf("resume: the checkpoint (games [%d, %d) of [%d, %d)) is not of this run", r.GameRange[0], r.GameRange[1], r.Planned[0], r.Planned[1])
		}
		run.Stats.Merge(&r.Stats)
		x = r.GameRange[1]
		prior = time.Duration(r.ElapsedSeconds * float64(time.Second))
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = int(max(1, min(int64(workers), (hi-x+chunk-1)/chunk)))
	run.Workers = workers
	tables := make([]*Table, workers)
	for w := range tables {
		t, err := NewTable(cfg)
		if err != nil {
			return nil, err
		}
		tables[w] = t
		defer t.Close()
	}
	var recs *Records
	if o.Records != "" {
		var err error
		key := o.RecordsRun
		if key == "" {
			key = RecordRun(cfg.Identity(), cfg.Shard.String())
		}
		recs, err = OpenRecords(RecordSpec{Path: o.Records, Layout: LayoutOf(cfg), Run: key,
			Lo: lo, From: x, Workers: workers, BatchRows: chunk})
		if err != nil {
			return nil, err
		}
		defer recs.Close()
		for _, t := range tables {
			t.SetRecords(recs.Sink(), 0)
		}
	}
	start := time.Now()
	from := x
	var done atomic.Int64
	stopProgress := func() {}
	if o.Progress != nil {
		stopProgress = StartTicker(o.Interval, func() { o.Progress(done.Load(), hi-from, time.Since(start)) })
	}
	defer stopProgress()
	var pause atomic.Bool
	if o.Checkpoint != nil && o.CheckpointEvery > 0 {
		defer StartTicker(o.CheckpointEvery, func() { pause.Store(true) })()
	}
	for x < hi && ctx.Err() == nil {
		end := hi
		if o.Checkpoint != nil && o.CheckpointGames > 0 {
			end = min(hi, x+o.CheckpointGames)
		}
		var next atomic.Int64
		next.Store(x)
		var eg errgroup.Group
		for _, wk := range tables {
			eg.Go(func() (err error) {
				defer CatchPanic(&err)
				for ctx.Err() == nil && !pause.Load() {
					a := next.Add(chunk) - chunk
					if a >= end {
						break
					}
					b := min(a+chunk, end)
					if recs != nil {
						if err := wk.rec.Begin(a); err != nil {
							return err
						}
					}
					for i := a; i < b; i++ {
						wk.Play(i)
						if err := wk.Err(); err != nil {
							return err
						}
					}
					if recs != nil {
						if err := wk.rec.End(b); err != nil {
							return err
						}
					}
					done.Add(b - a)
				}
				return nil
			})
		}
		if err := eg.Wait(); err != nil {
			var se *StrategyError
			if !errors.As(err, &se) {
				return nil, err
			}
			// A strategy failed: this segment's games are dropped, and the
			// run stands as of the last segment, incomplete.
			run.Stats.trim()
			run.Elapsed = prior + time.Since(start)
			run.Complete = false
			return run, err
		}
		// Every chunk handed out was played to its end: [x, next) is done.
		x = min(next.Load(), end)
		for _, wk := range tables {
			st := wk.TakeStats()
			run.Stats.Merge(&st)
		}
		pause.Store(false)
		if x < hi && ctx.Err() == nil && o.Checkpoint != nil {
			if recs != nil {
				if err := recs.Cut(x); err != nil {
					return nil, err
				}
			}
			run.Stats.trim()
			run.Elapsed = prior + time.Since(start)
			if err := o.Checkpoint(run); err != nil {
				return nil, err
			}
		}
	}
	stopProgress()
	run.Stats.trim()
	run.Elapsed = prior + time.Since(start)
	run.Complete = x == hi && run.Stats.Games == hi-lo
	if recs != nil {
		if err := recs.Finish(x, run.Complete && !o.RecordsDefer); err != nil {
			return nil, err
		}
	}
	if o.Progress != nil {
		o.Progress(x-from, hi-from, time.Since(start))
	}
	return run, nil
}

// StartTicker calls tick every interval on a goroutine of its own until
// the returned stop is called (stop may be called more than once).
func StartTicker(interval time.Duration, tick func()) (stop func()) {
	if interval <= 0 {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				tick()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			<-finished
		})
	}
}

// Table plays the games of one configuration on one goroutine: an engine
// table per seat rotation and the stats of the games it played. Nothing is
// shared with other Tables and nothing is allocated per game.
type Table struct {
	cfg   *Config
	games []*engine.Game
	pool  *strategy.Pool // the table's external bots: one process per command
	last  *engine.Game   // the game played last
	Stats Stats
	rec   *RecordSink // nil: no records
	cell  int32
}

// SetRecords makes Play add a row for each game to s, with the cell index.
func (t *Table) SetRecords(s *RecordSink, cell int) { t.rec, t.cell = s, int32(cell) }

// NewTable builds the tables of cfg, which must be valid.
func NewTable(cfg *Config) (*Table, error) {
	t := &Table{cfg: cfg, Stats: newStats(cfg.Players, cfg.strategies(), cfg.Options.MaxTurns, cfg.Options.PlayForPlaces)}
	rotations := 1
	if cfg.Seats == RotateSeats {
		rotations = cfg.Players
	}
	onRound := t.onRound
	t.pool = strategy.NewPool()
	for rot := range rotations {
		g, err := cfg.newGame(rot, t.pool)
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
	g := t.games[t.cfg.rotation(i)]
	t.last = g
	r := g.Play(t.cfg.Seed, uint64(i))
	t.Stats.add(t.cfg, i, r)
	if t.rec != nil {
		t.rec.add(t.cfg, t.cell, i, r)
	}
	return r
}

// Err reports a strategy that failed in the last game: an external bot
// that stopped answering, or a move index out of range. That game and the
// table's stats since the last TakeStats are not to be trusted.
func (t *Table) Err() error {
	if t.last != nil && t.last.Err() != nil {
		return &StrategyError{t.last.Err()}
	}
	if err := t.pool.Err(); err != nil {
		return &StrategyError{err}
	}
	return nil
}

// Close ends the table's external bots.
func (t *Table) Close() error { return t.pool.Close() }

// StrategyError is a strategy's failure, which stops a run.
type StrategyError struct{ Err error }

func (e *StrategyError) Error() string { return e.Err.Error() }
func (e *StrategyError) Unwrap() error { return e.Err }

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
