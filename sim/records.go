package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unosim/unosim/engine"
)

// RecordFormat is the file format of per-game records, chosen by the
// file's extension.
type RecordFormat uint8

// The record formats.
const (
	RecordParquet RecordFormat = iota // .parquet: columnar, Snappy-compressed
	RecordCSV                         // .csv: a header line, then one line per game
	RecordJSONL                       // .jsonl: one JSON object per line
)

func (f RecordFormat) String() string { return [...]string{"parquet", "csv", "jsonl"}[f] }

// ParseRecordFormat reads the format from a records file's extension.
func ParseRecordFormat(path string) (RecordFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet":
		return RecordParquet, nil
	case ".csv":
		return RecordCSV, nil
	case ".jsonl":
		return RecordJSONL, nil
	}
	return 0, fmt.Errorf("records %s: the name must end in .parquet, .csv or .jsonl (the format)", path)
}

// Record is one game's row. Seats past Players, and places of seats that
// did not finish, are absent (null in Parquet, empty in CSV, left out of
// the JSON arrays).
type Record struct {
	Seed           uint64
	Game           int64
	Cell           int32 // the experiment's cell index (0 for simulate)
	Players        int8
	Outcome        engine.Outcome
	WinnerSeat     int8 // the sole winner's seat, -1 for none or a shared win
	WinnerPosition int8 // its line-up position, -1 likewise
	FirstToAct     int8
	Turns          int32
	Rounds         int32
	CardsPlayed    int32
	CardsDrawn     int32
	Points         [engine.MaxPlayers]int32 // Result.Scores: match totals; in single games the winner's points
	Won            uint32                   // Result.Winners: bit s set when seat s won, alone or sharing the win
	Places         [engine.MaxPlayers]int8  // with play-for-places: seat s finished in place Places[s] (from 1); 0: did not finish
	Count          [engine.NumCounters]int32
}

// MakeRecord is game i's row, as Table.Play records it.
func MakeRecord(c *Config, cell int, game int64, r *engine.Result) Record {
	var rec Record
	rec.fill(c, int32(cell), game, r)
	return rec
}

func (rec *Record) fill(c *Config, cell int32, game int64, r *engine.Result) {
	*rec = Record{Seed: c.Seed, Game: game, Cell: cell, Players: int8(c.Players), Outcome: r.Outcome,
		WinnerSeat: -1, WinnerPosition: -1, FirstToAct: int8(r.FirstToAct),
		Turns: int32(r.Turns), Rounds: int32(r.Rounds), CardsPlayed: int32(r.CardsPlayed), CardsDrawn: int32(r.CardsDrawn),
		Won: r.Winners}
	if r.Winner >= 0 {
		rec.WinnerSeat, rec.WinnerPosition = int8(r.Winner), int8(c.Position(game, r.Winner))
	}
	for s := 0; s < c.Players; s++ {
		rec.Points[s] = int32(r.Scores[s])
	}
	if c.Options.PlayForPlaces && r.Outcome == engine.Finished {
		for k := 0; k < c.Players; k++ {
			if s := r.Places[k]; s >= 0 {
				rec.Places[s] = int8(k + 1)
			}
		}
	}
	for k, v := range r.Count {
		rec.Count[k] = int32(v)
	}
}

// RecordRun is the run key of a simulate run's records.
func RecordRun(id Identity, shard string) string {
	b, _ := json.Marshal(struct {
		Identity
		Shard string `json:"shard"`
	}{id, shard})
	return string(b)
}

// RecordLayout fixes a records file's columns: a points and a won column
// per seat up to MaxPlayers (absent past a cell's players, which happens
// only when cells have different table sizes) and a place column per seat
// when any cell plays for places.
type RecordLayout struct {
	MinPlayers, MaxPlayers int
	Places                 bool
}

// LayoutOf is the layout of records of the given cells.
func LayoutOf(cells ...*Config) RecordLayout {
	l := RecordLayout{MinPlayers: engine.MaxPlayers}
	for _, c := range cells {
		l.MinPlayers, l.MaxPlayers = min(l.MinPlayers, c.Players), max(l.MaxPlayers, c.Players)
		l.Places = l.Places || c.Options.PlayForPlaces
	}
	return l
}

// Columns lists the column names in file order.
func (l RecordLayout) Columns() []string {
	cols := []string{"seed", "game", "cell", "players", "outcome", "winner_seat", "winner_position", "first_to_act",
		"turns", "rounds", "cards_played", "cards_drawn"}
	for s := range l.MaxPlayers {
		cols = append(cols, fmt.Sprintf("points_%d", s))
	}
	for s := range l.MaxPlayers {
		cols = append(cols, fmt.Sprintf("won_%d", s))
	}
	if l.Places {
		for s := range l.MaxPlayers {
			cols = append(cols, fmt.Sprintf("place_%d", s))
		}
	}
	for k := range engine.NumCounters {
		cols = append(cols, k.String())
	}
	return cols
}

// RecordSpec says where and how a run writes its records.
type RecordSpec struct {
	Path   string
	Layout RecordLayout
	// Run identifies the run and shard: a resumed run continues only the
	// segments of the same run.
	Run string
	// Lo is the shard's first game; From is where the run resumes (Lo
	// for a fresh run): the segments must hold exactly [Lo, From).
	Lo, From int64
	// Workers is the number of RecordSinks that will be used, BatchRows
	// the most rows a sink adds between Begin and End.
	Workers, BatchRows int
}

// Records writes the rows of a run's games to a file in game-index order,
// whatever order the workers finish their chunks in. Each worker fills a
// RecordSink with the rows of one chunk at a time; a goroutine of its own
// writes the chunks in order as they become contiguous. Memory is bounded:
// 2×Workers batches of BatchRows rows circulate, and a worker waits for a
// free one.
//
// Rows go into segment files in FILE.parts/, one per checkpoint: Cut(x)
// closes the segment at game x, before the run's stats.json records x, so
// that every checkpoint's games are in closed segments. A resumed run
// drops the segments past its checkpoint and goes on; Finish joins the
// segments into FILE (temp file and rename) once the run is complete, so
// FILE exists only complete; RemoveParts then removes FILE.parts/.
type Records struct {
	spec    RecordSpec
	format  RecordFormat
	parts   string
	free    chan *recordBatch
	in      chan any // *recordBatch or cutRequest
	stopped chan struct{}
	failed  atomic.Bool
	errMu   sync.Mutex
	err     error

	// owned by the writer goroutine
	next     int64 // the next game to write
	segStart int64 // the first game of the open segment
	seg      *segment
	pending  map[int64]*recordBatch
}

type recordBatch struct {
	from, to int64
	rows     []Record
}

type cutRequest struct {
	at    int64
	close bool // stop the writer after the cut
	reply chan error
}

// RecordSink is one worker's side of Records: Begin a chunk, Add its
// rows, End it. Not safe for concurrent use; give each worker its own.
type RecordSink struct {
	r *Records
	b *recordBatch
}

// OpenRecords prepares the segment directory (a fresh run clears it; a
// resumed run keeps the segments of [spec.Lo, spec.From) and drops the
// rest) and starts the writer.
func OpenRecords(spec RecordSpec) (*Records, error) {
	format, err := ParseRecordFormat(spec.Path)
	if err != nil {
		return nil, err
	}
	r := &Records{spec: spec, format: format, parts: spec.Path + ".parts", in: make(chan any, 4*max(1, spec.Workers)+4),
		stopped: make(chan struct{}), pending: map[int64]*recordBatch{}, next: spec.From, segStart: spec.From}
	if err := r.prepareParts(); err != nil {
		return nil, err
	}
	n := 2 * max(1, spec.Workers)
	r.free = make(chan *recordBatch, n)
	for range n {
		r.free <- &recordBatch{rows: make([]Record, 0, max(1, spec.BatchRows))}
	}
	go r.write()
	return r, nil
}

// Sink makes a worker's sink.
func (r *Records) Sink() *RecordSink { return &RecordSink{r: r} }

// Begin starts the chunk whose first game is from. It waits for a free
// batch; after a write error it returns that error.
func (s *RecordSink) Begin(from int64) error {
	if s.r.failed.Load() { // a write failed: stop the run rather than play on
		return s.r.failure()
	}
	select {
	case b := <-s.r.free:
		b.from, b.rows = from, b.rows[:0]
		s.b = b
		return nil
	case <-s.r.stopped:
		return s.r.failure()
	}
}

// Add adds a row to the chunk.
func (s *RecordSink) Add(rec *Record) { s.b.rows = append(s.b.rows, *rec) }

// add adds game i's row, filled in place.
func (s *RecordSink) add(c *Config, cell int32, game int64, r *engine.Result) {
	s.b.rows = append(s.b.rows, Record{})
	s.b.rows[len(s.b.rows)-1].fill(c, cell, game, r)
}

// End ends the chunk: its games are [from, to).
func (s *RecordSink) End(to int64) error {
	s.b.to = to
	b := s.b
	s.b = nil
	select {
	case s.r.in <- b:
		return nil
	case <-s.r.stopped:
		return s.r.failure()
	}
}

func (r *Records) failure() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if r.err == nil {
		return errors.New("records: the writer has stopped")
	}
	return r.err
}

func (r *Records) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.failed.Store(true)
}

// Cut closes the open segment at game x: every chunk below x must have
// been ended. It returns the first write error.
func (r *Records) Cut(x int64) error { return r.request(x, false) }

func (r *Records) request(x int64, close bool) error {
	reply := make(chan error, 1)
	select {
	case r.in <- cutRequest{at: x, close: close, reply: reply}:
	case <-r.stopped:
		return r.failure()
	}
	return r.await(reply)
}

// await waits for the writer's reply to a request. The writer replies
// before it stops, so a reply waiting when it has stopped is the answer:
// a select on both would pick either at random, and report a cut that
// succeeded (the last one, which stops the writer) as a stopped writer.
func (r *Records) await(reply chan error) error {
	select {
	case err := <-reply:
		return err
	case <-r.stopped:
		select {
		case err := <-reply:
			return err
		default:
			return r.failure()
		}
	}
}

// write is the writer goroutine: it writes batches in game order.
func (r *Records) write() {
	defer close(r.stopped)
	for m := range r.in {
		switch m := m.(type) {
		case *recordBatch:
			if r.failed.Load() {
				r.free <- m
				continue
			}
			r.pending[m.from] = m
			for b := r.pending[r.next]; b != nil; b = r.pending[r.next] {
				delete(r.pending, b.from)
				if err := r.writeBatch(b); err != nil {
					r.fail(err)
				}
				r.next = b.to
				r.free <- b
			}
		case cutRequest:
			err := r.failure0()
			if err == nil && (r.next != m.at || len(r.pending) > 0) {
				err = fmt.Errorf("records: cut at game %d, but games are written up to %d with %d chunks waiting", m.at, r.next, len(r.pending))
			}
			if err == nil {
				err = r.closeSegment()
			}
			if err != nil {
				r.fail(err)
			}
			if m.close || err != nil {
				if r.seg != nil {
					r.seg.abort()
					r.seg = nil
				}
				m.reply <- err
				return
			}
			m.reply <- nil
		}
	}
}

func (r *Records) failure0() error {
	if !r.failed.Load() {
		return nil
	}
	return r.failure()
}

func (r *Records) writeBatch(b *recordBatch) error {
	if len(b.rows) == 0 {
		return nil
	}
	if err := InjectedFault("records"); err != nil {
		return fmt.Errorf("records: writing %s: %w", r.spec.Path, err)
	}
	if r.seg == nil {
		seg, err := r.openSegment(r.segStart)
		if err != nil {
			return err
		}
		r.seg = seg
	}
	return r.seg.enc.write(b.rows)
}

// Finish cuts the records at game x and stops the writer. When complete
// (x is the shard's last game), the segments are joined into the records
// file, written atomically; otherwise they stay for a resumed run, and
// the records file is not written.
func (r *Records) Finish(x int64, complete bool) error {
	if err := r.request(x, true); err != nil {
		return err
	}
	if !complete {
		return nil
	}
	return r.join(x)
}

// JoinRecords writes the records file of spec from its segments, which
// must cover [spec.Lo, to): the end of a run whose calls deferred it
// (Options.RecordsDefer).
func JoinRecords(spec RecordSpec, to int64) error {
	spec.From = to
	r, err := OpenRecords(spec)
	if err != nil {
		return err
	}
	return r.Finish(to, true)
}

// Close stops the writer without a cut, dropping the open segment (after
// a failed run). It may be called after Finish.
func (r *Records) Close() {
	select {
	case <-r.stopped:
		return
	default:
	}
	reply := make(chan error, 1)
	select {
	case r.in <- cutRequest{at: -1, close: true, reply: reply}:
		<-r.stopped
	case <-r.stopped:
	}
}
