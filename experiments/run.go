package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/paired"
	"github.com/unosim/unosim/sim"
)

// RunOptions change how an experiment runs, not what it is.
type RunOptions struct {
	Games    int64   // games per cell (0: the file's); with CIWidth, the most per cell
	Seed     *uint64 // the seed (nil: the file's)
	Workers  int     // 0: one per core
	CIWidth  float64 // > 0: play each cell in batches until its main estimate's 95% interval is this narrow
	Shard    sim.Shard
	Progress sim.Progress
	Interval time.Duration
	// Resume is a checkpoint of this run (stats.json, Complete false) to
	// continue from: only the games after it are played.
	Resume *StatsFile
	// Checkpoint (may be nil) is given the run so far, incomplete, every
	// CheckpointGames game indices or CheckpointEvery (zero: never). An
	// error stops the run and is returned.
	Checkpoint      func(*Result) error
	CheckpointGames int64
	CheckpointEvery time.Duration
	// Records (may be empty) is the per-game records file (.parquet, .csv
	// or .jsonl): one row per game and active cell, in the order (game,
	// cell), cut into segments before each checkpoint (see sim.Records).
	Records string
}

// CellResult is what a run learned about one cell.
type CellResult struct {
	Stats sim.Stats `json:"stats"`
	Stop  string    `json:"stop"` // why the cell stopped
}

// Result is a run (or a merge of shards) of an experiment.
type Result struct {
	Experiment *Experiment `json:"-"`
	Seed       uint64      `json:"seed"`
	Games      int64       `json:"games"` // games per cell asked for
	CIWidth    float64     `json:"ci_width,omitempty"`
	Lo, Hi     int64       `json:"-"` // the shard's game indices
	Played     int64       `json:"-"` // the game indices [Lo, Played) are done
	Shard      sim.Shard   `json:"-"`
	Cells      []CellResult
	Pairs      []PairStats
	Complete   bool
	Start, End time.Time
	Workers    int
}

// chunk is the number of consecutive games a worker takes at a time.
const chunk = 256

// CheckRun reports whether the run options are valid for the experiment,
// so that a command can refuse them before creating anything.
func (e *Experiment) CheckRun(o RunOptions) error {
	if e.Tour != nil {
		return fmt.Errorf("%s declares a tournament: it is run by the tournament code ('unosim experiment run' does it), not as cells", e.Source)
	}
	games := e.File.Games
	if o.Games != 0 {
		if o.Games < 1 {
			return fmt.Errorf("games: %d, want at least 1 game per cell", o.Games)
		}
		games = o.Games
	}
	if games == 0 {
		return fmt.Errorf("games: %s gives no games per cell: add games: N to it, or give --games N", e.Source)
	}
	if o.CIWidth < 0 || math.IsNaN(o.CIWidth) || math.IsInf(o.CIWidth, 0) {
		return fmt.Errorf("ci-width: %v, want a positive width", o.CIWidth)
	}
	if o.CIWidth > 0 && o.Shard.Count > 1 {
		return errors.New("ci-width and shard cannot be combined: a shard cannot know when the other shards' cells are precise enough")
	}
	if o.Workers < 0 {
		return fmt.Errorf("workers: %d, want at least 1 (or 0 for one per core)", o.Workers)
	}
	if lo, hi := o.Shard.Range(games); hi <= lo {
		return fmt.Errorf("shard %s of %d games holds no game: use fewer shards or more games", o.Shard, games)
	}
	return nil
}

// Run plays the experiment (after CheckRun) on the one paired runner
// (package paired), each cell an entry of one configuration. Game i of
// every cell uses the same seed and index, so the cells share their deals,
// and the results are the same for any worker count. Cancelling ctx stops the run after the current chunks;
// the result then says it is incomplete.
func (e *Experiment) Run(ctx context.Context, o RunOptions) (*Result, error) {
	if err := e.CheckRun(o); err != nil {
		return nil, err
	}
	res := &Result{Experiment: e, Seed: e.File.Seed, Games: e.File.Games, CIWidth: o.CIWidth, Start: time.Now()}
	if o.Seed != nil {
		res.Seed = *o.Seed
	}
	if o.Games != 0 {
		res.Games = o.Games
	}
	cells := make([]sim.Config, len(e.Cells))
	for i := range e.Cells {
		cells[i] = e.Cells[i].Config
		cells[i].Seed, cells[i].Games = res.Seed, res.Games
		if err := cells[i].Validate(); err != nil {
			return nil, err
		}
	}
	res.Lo, res.Hi = o.Shard.Range(res.Games)
	res.Played, res.Shard = res.Lo, o.Shard
	entries := make([][]sim.Config, len(cells))
	for i := range cells {
		entries[i] = cells[i : i+1]
	}
	// The one paired runner: a cell is an entry of one configuration; its
	// copy of the configurations is stable, so the sinks point into it.
	run, err := paired.New(entries, o.Workers, chunk)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	res.Workers = run.Workers()
	ws := make([]*worker, run.Workers())
	sinks := make([]paired.Sink, len(ws))
	for w := range ws {
		ws[w] = newWorker(e, run, w)
		sinks[w] = ws[w]
	}
	res.Cells = make([]CellResult, len(cells))
	for i := range res.Cells {
		res.Cells[i].Stats = sim.NewStats(&cells[i])
	}
	res.Pairs = make([]PairStats, len(e.Pairs))
	active := make([]bool, len(cells))
	for i := range active {
		active[i] = true
	}
	batch := res.Hi - res.Lo
	if o.CIWidth > 0 {
		batch = e.File.Batch
	}
	// stopCells applies the --ci-width rule at the end of batch k (from 1):
	// it is a function of the stats alone, so a resumed run that starts at
	// a batch's end takes the same decisions as the uninterrupted run.
	stopCells := func(k int64) (more bool) {
		for i := range active {
			if !active[i] {
				continue
			}
			w := mainWidth(e.Main, &res.Cells[i].Stats)
			if k >= 2 && w <= o.CIWidth {
				active[i] = false
				res.Cells[i].Stop = fmt.Sprintf("95%% interval of %s %.4g wide after %s games (target %g)", e.Main, w, analysis.Thousands(res.Cells[i].Stats.Games), o.CIWidth)
			} else {
				more = true
				res.Cells[i].Stop = fmt.Sprintf("reached the %d-game limit with a 95%% interval of %s %.4g wide (target %g)", res.Hi-res.Lo, e.Main, w, o.CIWidth)
			}
		}
		return more
	}
	finished := false // the ci-width rule stopped every cell
	if r := o.Resume; r != nil {
		if err := res.resume(r); err != nil {
			return nil, err
		}
		for i := range active {
			// A cell the rule stopped played fewer games than the prefix.
			active[i] = res.Cells[i].Stats.Games == res.Played-res.Lo
		}
		if k := (res.Played - res.Lo) / batch; o.CIWidth > 0 && k > 0 && (res.Played-res.Lo)%batch == 0 {
			finished = !stopCells(k)
		}
	}
	var recs *sim.Records
	if o.Records != "" {
		ptrs := make([]*sim.Config, len(cells))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		run, _ := json.Marshal(struct {
			Hash    string  `json:"sha256"`
			Seed    uint64  `json:"seed"`
			Games   int64   `json:"games"`
			CIWidth float64 `json:"ci_width"`
			Shard   string  `json:"shard"`
		}{e.Hash, res.Seed, res.Games, res.CIWidth, res.Shard.String()})
		var err error
		recs, err = sim.OpenRecords(sim.RecordSpec{Path: o.Records, Layout: sim.LayoutOf(ptrs...), Run: string(run),
			Lo: res.Lo, From: res.Played, Workers: len(ws), BatchRows: chunk * len(cells)})
		if err != nil {
			return nil, err
		}
		defer recs.Close()
		for _, wk := range ws {
			wk.rec = recs.Sink()
			for c, t := range wk.tables {
				t.SetRecords(wk.rec, c)
			}
		}
	}
	var done atomic.Int64
	from := res.Played
	nActive := int64(0)
	for _, on := range active {
		if on {
			nActive++
		}
	}
	total := (res.Hi - from) * nActive
	stopProgress := startProgress(o, &done, total)
	defer stopProgress()
	var pause atomic.Bool
	if o.Checkpoint != nil && o.CheckpointEvery > 0 {
		defer sim.StartTicker(o.CheckpointEvery, func() { pause.Store(true) })()
	}
	for res.Played < res.Hi && !finished && ctx.Err() == nil {
		k := (res.Played - res.Lo) / batch
		b := min(res.Lo+(k+1)*batch, res.Hi)
		if o.Checkpoint != nil && o.CheckpointGames > 0 {
			b = min(b, res.Played+o.CheckpointGames)
		}
		x, err := run.Play(ctx, res.Played, b, paired.Options{Sinks: sinks, Active: active, Pause: &pause, Done: &done})
		if err != nil {
			return nil, err
		}
		res.Played = x
		for _, wk := range ws {
			for i, t := range wk.tables {
				st := t.TakeStats()
				res.Cells[i].Stats.Merge(&st)
			}
			for i := range wk.pairs {
				res.Pairs[i].merge(&wk.pairs[i])
				wk.pairs[i] = PairStats{}
			}
		}
		pause.Store(false)
		if o.CIWidth > 0 && ctx.Err() == nil && (x-res.Lo)%batch == 0 || x == res.Hi && o.CIWidth > 0 {
			finished = !stopCells((x - res.Lo + batch - 1) / batch)
		}
		if res.Played < res.Hi && !finished && ctx.Err() == nil && o.Checkpoint != nil {
			if recs != nil {
				if err := recs.Cut(res.Played); err != nil {
					return nil, err
				}
			}
			for i := range res.Cells {
				res.Cells[i].Stats.Compact()
			}
			res.End = time.Now()
			if err := o.Checkpoint(res); err != nil {
				return nil, err
			}
		}
	}
	for i := range res.Cells {
		res.Cells[i].Stats.Compact()
	}
	res.Complete = res.Played == res.Hi || finished
	if recs != nil {
		if err := recs.Finish(res.Played, res.Complete); err != nil {
			return nil, err
		}
	}
	for i := range res.Cells {
		switch {
		case !res.Complete:
			res.Cells[i].Stop = fmt.Sprintf("interrupted after game indices [%d, %d) of [%d, %d)", res.Lo, res.Played, res.Lo, res.Hi)
		case o.CIWidth == 0:
			res.Cells[i].Stop = fmt.Sprintf("all %s games played", analysis.Thousands(res.Hi-res.Lo))
		}
	}
	res.End = time.Now()
	return res, nil
}

// resume starts the result from a checkpoint of the same run.
func (res *Result) resume(r *StatsFile) error {
	e := res.Experiment
	planned := r.Planned
	if planned == [2]int64{} {
		planned = r.GameRange
	}
	if r.Hash != e.Hash || r.Seed != res.Seed || r.Games != res.Games || r.CIWidth != res.CIWidth ||
		planned != [2]int64{res.Lo, res.Hi} || r.GameRange[0] != res.Lo || r.GameRange[1] > res.Hi ||
		len(r.Cells) != len(res.Cells) || len(r.Pairs) != len(res.Pairs) {
		return fmt.Errorf("resume: the checkpoint (games [%d, %d) of [%d, %d)) is not of this run", r.GameRange[0], r.GameRange[1], planned[0], planned[1])
	}
	for i := range res.Cells {
		res.Cells[i].Stats.Merge(&r.Cells[i].Stats)
		res.Cells[i].Stop = r.Cells[i].Stop
	}
	for i := range res.Pairs {
		res.Pairs[i].merge(&r.Pairs[i])
	}
	res.Played = r.GameRange[1]
	if !r.Start.IsZero() {
		res.Start = r.Start
	}
	return nil
}

// mainWidth is the width of the 95% interval of the main estimate.
func mainWidth(m Metric, st *sim.Stats) float64 {
	_, lo, hi := estimate(m, st)
	return hi - lo
}

// worker is a paired.Sink: one worker's view of the runner's tables (one
// per cell) and the pair sums of the games it played.
type worker struct {
	e        *Experiment
	cells    []*sim.Config
	tables   []*sim.Table
	pairs    []PairStats
	outcomes []outcome
	rec      *sim.RecordSink // nil: no records
}

func newWorker(e *Experiment, run *paired.Runner, w int) *worker {
	wk := &worker{e: e, pairs: make([]PairStats, len(e.Pairs)), outcomes: make([]outcome, len(e.Cells))}
	for c, ts := range run.Tables(w) {
		wk.tables = append(wk.tables, ts[0])
		wk.cells = append(wk.cells, run.Config(c, 0))
	}
	return wk
}

// Deal pairs the outcomes of game i in every active cell.
func (w *worker) Deal(i int64, res [][]*engine.Result) {
	for c, r := range res {
		if r != nil {
			w.outcomes[c] = outcomeOf(r[0], w.cells[c], i)
		}
	}
	for k, p := range w.e.Pairs {
		if res[p.A] != nil && res[p.B] != nil {
			w.pairs[k].add(&w.outcomes[p.A], &w.outcomes[p.B])
		}
	}
}

// Begin and End cut the per-game records at chunks (paired.Chunker).
func (w *worker) Begin(lo int64) error {
	if w.rec == nil {
		return nil
	}
	return w.rec.Begin(lo)
}

func (w *worker) End(hi int64) error {
	if w.rec == nil {
		return nil
	}
	return w.rec.End(hi)
}

// startProgress reports progress every interval until the returned stop is called.
func startProgress(o RunOptions, done *atomic.Int64, total int64) (stop func()) {
	if o.Progress == nil {
		return func() {}
	}
	start := time.Now()
	return sim.StartTicker(o.Interval, func() { o.Progress(done.Load(), total, time.Since(start)) })
}
