package paired

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

// Sink collects one worker's deals.
type Sink interface {
	// Deal gets the results of deal i: res[k][r] is configuration r of entry
	// k, res[k] nil for an inactive entry. The results are valid until the
	// next call.
	Deal(i int64, res [][]*engine.Result)
}

// Chunker is a Sink told where each chunk of consecutive deals begins and
// ends (per-game records are cut there).
type Chunker interface {
	Begin(lo int64) error
	End(hi int64) error
}

// Runner plays entries of configurations on the same deals.
type Runner struct {
	configs [][]sim.Config // [entry][configuration], stable: tables point into it
	chunk   int64
	workers []*worker
}

type worker struct {
	tables [][]*sim.Table
	buf    [][]*engine.Result // [entry][configuration]
	res    [][]*engine.Result // buf's rows, nil for inactive entries
}

// New builds a table per worker and configuration. Every configuration
// must be valid (sim.Config.Validate). workers 0 means one per core; chunk
// is the number of consecutive deals a worker takes at a time.
func New(entries [][]sim.Config, workers int, chunk int64) (*Runner, error) {
	if len(entries) == 0 {
		return nil, errors.New("paired runner: no entries")
	}
	if workers < 0 {
		return nil, fmt.Errorf("workers: %d, want at least 1 (or 0 for one per core)", workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if chunk < 1 {
		return nil, fmt.Errorf("paired runner: chunk %d, want at least 1", chunk)
	}
	r := &Runner{chunk: chunk}
	for _, e := range entries {
		if len(e) == 0 {
			return nil, errors.New("paired runner: an entry without configurations")
		}
		r.configs = append(r.configs, append([]sim.Config(nil), e...))
	}
	for range workers {
		w := &worker{res: make([][]*engine.Result, len(r.configs))}
		r.workers = append(r.workers, w)
		for k := range r.configs {
			var ts []*sim.Table
			for c := range r.configs[k] {
				t, err := sim.NewTable(&r.configs[k][c])
				if err != nil {
					r.Close()
					return nil, err
				}
				ts = append(ts, t)
			}
			w.tables = append(w.tables, ts)
			w.buf = append(w.buf, make([]*engine.Result, len(ts)))
		}
	}
	return r, nil
}

// Workers is the number of workers.
func (r *Runner) Workers() int { return len(r.workers) }

// Tables are worker w's tables, [entry][configuration]: their stats and
// records are the caller's.
func (r *Runner) Tables(w int) [][]*sim.Table { return r.workers[w].tables }

// Config is configuration c of entry k.
func (r *Runner) Config(k, c int) *sim.Config { return &r.configs[k][c] }

// Close ends the tables' external bots.
func (r *Runner) Close() {
	for _, w := range r.workers {
		for _, ts := range w.tables {
			for _, t := range ts {
				t.Close()
			}
		}
	}
}

// Options are what one Play call needs besides its range.
type Options struct {
	Sinks  []Sink        // one per worker (required)
	Active []bool        // per entry; nil: every entry
	Pause  *atomic.Bool  // may be nil: when set, workers stop after their chunk
	Done   *atomic.Int64 // may be nil: games played are added to it, chunk by chunk
}

// Play plays deals [a, b) until done, cancelled (ctx) or paused, and
// returns x: the deals [a, x) are played, each by every active entry, and
// given to the sinks. A cancelled or paused run returns x < b and no error.
func (r *Runner) Play(ctx context.Context, a, b int64, o Options) (int64, error) {
	if len(o.Sinks) != len(r.workers) {
		return a, fmt.Errorf("paired runner: %d sinks for %d workers", len(o.Sinks), len(r.workers))
	}
	if o.Active != nil && len(o.Active) != len(r.configs) {
		return a, fmt.Errorf("paired runner: %d active flags for %d entries", len(o.Active), len(r.configs))
	}
	active := func(k int) bool { return o.Active == nil || o.Active[k] }
	perDeal := int64(0)
	for k := range r.configs {
		if active(k) {
			perDeal += int64(len(r.configs[k]))
		}
	}
	var next atomic.Int64
	next.Store(a)
	var eg errgroup.Group
	for wi, w := range r.workers {
		sink := o.Sinks[wi]
		ch, _ := sink.(Chunker)
		eg.Go(func() (err error) {
			defer sim.CatchPanic(&err)
			for ctx.Err() == nil && (o.Pause == nil || !o.Pause.Load()) {
				lo := next.Add(r.chunk) - r.chunk
				if lo >= b {
					return nil
				}
				hi := min(lo+r.chunk, b)
				if ch != nil {
					if err := ch.Begin(lo); err != nil {
						return err
					}
				}
				for i := lo; i < hi; i++ {
					for k, ts := range w.tables {
						if !active(k) {
							w.res[k] = nil
							continue
						}
						w.res[k] = w.buf[k]
						for c, t := range ts {
							w.res[k][c] = t.Play(i)
							if err := t.Err(); err != nil {
								return err
							}
						}
					}
					sink.Deal(i, w.res)
				}
				if ch != nil {
					if err := ch.End(hi); err != nil {
						return err
					}
				}
				if o.Done != nil {
					o.Done.Add((hi - lo) * perDeal)
				}
			}
			return nil
		})
	}
	err := eg.Wait()
	return min(next.Load(), b), err
}
