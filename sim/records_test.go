package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/unosim/unosim/engine"
)

// replay plays game i of c on a fresh table, as the replay command does,
// and returns its row.
func replay(t *testing.T, c *Config, i int64) Record {
	t.Helper()
	g, err := c.GameFor(i)
	if err != nil {
		t.Fatal(err)
	}
	return MakeRecord(c, 0, i, g.Play(c.Seed, uint64(i)))
}

// row is a record as a column -> text map, absent values as "".
func (rec *Record) row(l RecordLayout) map[string]string {
	m := map[string]string{}
	cols := l.Columns()
	vals := []string{strconv.FormatUint(rec.Seed, 10), strconv.FormatInt(rec.Game, 10), fmt.Sprint(rec.Cell), fmt.Sprint(rec.Players),
		rec.Outcome.String(), fmt.Sprint(rec.WinnerSeat), fmt.Sprint(rec.WinnerPosition), fmt.Sprint(rec.FirstToAct),
		fmt.Sprint(rec.Turns), fmt.Sprint(rec.Rounds), fmt.Sprint(rec.CardsPlayed), fmt.Sprint(rec.CardsDrawn)}
	for s := range l.MaxPlayers {
		v := ""
		if s < int(rec.Players) {
			v = fmt.Sprint(rec.Points[s])
		}
		vals = append(vals, v)
	}
	for s := range l.MaxPlayers {
		v := ""
		if s < int(rec.Players) {
			v = fmt.Sprint(rec.Won >> uint(s) & 1)
		}
		vals = append(vals, v)
	}
	if l.Places {
		for s := range l.MaxPlayers {
			v := ""
			if rec.Places[s] > 0 {
				v = fmt.Sprint(rec.Places[s])
			}
			vals = append(vals, v)
		}
	}
	for _, v := range rec.Count {
		vals = append(vals, fmt.Sprint(v))
	}
	for k, c := range cols {
		m[c] = vals[k]
	}
	return m
}

func runRecords(t *testing.T, c *Config, path string, o Options) *Run {
	t.Helper()
	o.Records = path
	r, err := SimulateWith(context.Background(), c, o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete {
		t.Fatal("run not complete")
	}
	if err := RemoveParts(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".parts"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s.parts is left after a complete run", path)
	}
	return r
}

func readCSV(t *testing.T, path string) (header []string, rows []map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range all[1:] {
		m := map[string]string{}
		for k, c := range all[0] {
			m[c] = rec[k]
		}
		rows = append(rows, m)
	}
	return all[0], rows
}

func readJSONL(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var obj map[string]any
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.UseNumber()
		if err := d.Decode(&obj); err != nil {
			t.Fatalf("line %d: %v", len(rows)+1, err)
		}
		m := map[string]string{}
		for k, v := range obj {
			if v == nil {
				m[k] = "" // null: absent
			} else {
				m[k] = fmt.Sprint(v)
			}
		}
		rows = append(rows, m)
	}
	return rows
}

// readParquet reads every row of a Parquet file as column -> text, nulls
// as "", through the library's generic row reader.
func readParquet(t *testing.T, path string) (cols []string, rows []map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pf.Schema().Columns() {
		cols = append(cols, p[0])
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, 100)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			m := map[string]string{}
			for _, v := range row {
				s := ""
				if !v.IsNull() {
					if v.Kind() == parquet.ByteArray {
						s = string(v.ByteArray())
					} else if v.Kind() == parquet.Int32 {
						s = strconv.FormatInt(int64(v.Int32()), 10)
					} else if cols[v.Column()] == "seed" {
						s = strconv.FormatUint(v.Uint64(), 10)
					} else {
						s = strconv.FormatInt(v.Int64(), 10)
					}
				}
				m[cols[v.Column()]] = s
			}
			rows = append(rows, m)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if int64(len(rows)) != pf.NumRows() {
		t.Fatalf("read %d rows, the footer says %d", len(rows), pf.NumRows())
	}
	return cols, rows
}

func readAny(t *testing.T, path string) []map[string]string {
	switch filepath.Ext(path) {
	case ".csv":
		_, rows := readCSV(t, path)
		return rows
	case ".jsonl":
		return readJSONL(t, path)
	}
	_, rows := readParquet(t, path)
	return rows
}

// checkRows checks that rows hold games lo..hi-1 once each, in order, and
// that the sampled games equal a replay of the same seed and index.
func checkRows(t *testing.T, what string, c *Config, rows []map[string]string, lo, hi int64, sample ...int64) {
	t.Helper()
	if int64(len(rows)) != hi-lo {
		t.Fatalf("%s: %d rows for games [%d, %d)", what, len(rows), lo, hi)
	}
	for k, r := range rows {
		if r["game"] != strconv.FormatInt(lo+int64(k), 10) {
			t.Fatalf("%s: row %d is game %s, want %d (rows in game order, each once)", what, k, r["game"], lo+int64(k))
		}
	}
	l := LayoutOf(c)
	for _, i := range sample {
		want := replay(t, c, i)
		wm := want.row(l)
		got := rows[i-lo]
		for col, v := range wm {
			if g, ok := got[col]; v == "" && ok && g != "" || v != "" && g != v {
				t.Errorf("%s: game %d: %s = %q, the replay gives %q", what, i, col, g, v)
			}
		}
	}
}

// Each format is written and read back by an independent reader (the
// Parquet library's row reader, encoding/csv, encoding/json): one row per
// game in index order, equal to replays of the same seed and index.
func TestRecordsReadBack(t *testing.T) {
	dir := t.TempDir()
	c := config(t, 1500, 3, []string{"heuristic", "random"}, "play-for-places=true")
	c.Seats, c.Workers = RotateSeats, 3
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		path := filepath.Join(dir, "games"+ext)
		runRecords(t, c, path, Options{})
		rows := readAny(t, path)
		checkRows(t, ext, c, rows, 0, 1500, 0, 1, 511, 512, 1023, 1499)
		if ext == ".csv" {
			h, _ := readCSV(t, path)
			if fmt.Sprint(h) != fmt.Sprint(LayoutOf(c).Columns()) {
				t.Errorf("CSV header %v", h)
			}
			// The header names the event counters as the engine does.
			if h[len(h)-int(engine.NumCounters)] != engine.Counter(0).String() {
				t.Errorf("first counter column %s", h[len(h)-int(engine.NumCounters)])
			}
		}
		if ext == ".parquet" {
			cols, _ := readParquet(t, path)
			if fmt.Sprint(cols) != fmt.Sprint(LayoutOf(c).Columns()) {
				t.Errorf("Parquet columns %v", cols)
			}
		}
	}
}

// A run stopped after a checkpoint whose segment was cut but whose
// stats.json was never written (as a kill between the two would leave
// it), with a killed writer's temporary file beside it, resumes into a
// records file with every game once: byte for byte the file of an
// uninterrupted run, in every format.
func TestRecordsResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	mk := func() *Config {
		c := config(t, 3000, 4, []string{"random"})
		c.Workers, c.Shard = 2, Shard{1, 2} // games [1500, 3000)
		return c
	}
	for _, ext := range []string{".csv", ".jsonl", ".parquet"} {
		whole := filepath.Join(dir, "whole"+ext)
		runRecords(t, mk(), whole, Options{})
		path := filepath.Join(dir, "resumed"+ext)
		var resume *StatsFile
		for session := 0; ; session++ {
			calls := 0
			var kept *StatsFile
			killed := errors.New("killed")
			r, err := SimulateWith(context.Background(), mk(), Options{Resume: resume, Records: path, CheckpointGames: 200,
				Checkpoint: func(r *Run) error {
					calls++
					if calls == 3 {
						return killed // the segment is cut, stats.json is not written
					}
					kept = roundTrip(t, r.File())
					return nil
				}})
			if err == nil && r.Complete {
				break
			}
			if !errors.Is(err, killed) {
				t.Fatalf("%s: session %d: %v", ext, session, err)
			}
			os.WriteFile(filepath.Join(path+".parts", ".seg-00000000000000001234.tmp-99"), []byte("half a segment"), 0o644)
			if _, err := os.Stat(path); err == nil {
				t.Fatalf("%s: the records file exists before the run is complete", ext)
			}
			resume = kept
			if session > 10 {
				t.Fatal("never completes")
			}
		}
		if err := RemoveParts(path); err != nil {
			t.Fatal(err)
		}
		checkRows(t, ext, mk(), readAny(t, path), 1500, 3000, 1500, 1999, 2999)
		a, _ := os.ReadFile(whole)
		b, _ := os.ReadFile(path)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the resumed records differ from an uninterrupted run's", ext)
		}
	}
}

// The records file does not depend on where the checkpoints cut its
// segments: a run with a checkpoint every 100 or 700 games (as a
// checkpoint every 30 s cuts a long run at points that differ from run to
// run) writes the bytes of a run without checkpoints, in every format.
func TestRecordsIndependentOfCheckpoints(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		var want []byte
		for _, every := range []int64{0, 100, 700} {
			c := config(t, 2000, 3, []string{"random"})
			c.Workers = 2
			path := filepath.Join(dir, fmt.Sprintf("every%d%s", every, ext))
			o := Options{}
			if every > 0 {
				o.CheckpointGames, o.Checkpoint = every, func(*Run) error { return nil }
			}
			runRecords(t, c, path, o)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if every == 0 {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: a checkpoint every %d games changes the records file (%d bytes, %d without checkpoints)", ext, every, len(got), len(want))
			}
		}
	}
}

// A resumed run refuses segments that do not cover its checkpoint (the
// first session ran without --records) and those of another run.
func TestRecordsResumeRefusesMissingSegments(t *testing.T) {
	dir := t.TempDir()
	c := config(t, 1000, 2, []string{"random"})
	var first *StatsFile
	_, err := SimulateWith(context.Background(), c, Options{CheckpointGames: 300, Checkpoint: func(r *Run) error {
		first = roundTrip(t, r.File())
		return errors.New("stop")
	}})
	if err == nil || first == nil {
		t.Fatal("no checkpoint")
	}
	path := filepath.Join(dir, "g.csv")
	if _, err := SimulateWith(context.Background(), c, Options{Resume: first, Records: path}); err == nil {
		t.Fatal("resumed without the checkpoint's records")
	}
	other := config(t, 1000, 2, []string{"random"})
	other.Seed = 99
	spec := RecordSpec{Path: path, Layout: LayoutOf(other), Run: "a", Lo: 0, From: 0, Workers: 1, BatchRows: 1}
	r, err := OpenRecords(spec)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	spec.Run, spec.From = "b", 300
	if _, err := OpenRecords(spec); err == nil {
		t.Fatal("resumed the segments of another run")
	}
	// A fresh run does not delete another run's unfinished records (a
	// second shard given the same file), unless they are discarded.
	spec.From = 0
	if _, err := OpenRecords(spec); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("a fresh run took over another run's records: %v", err)
	}
	if err := DiscardParts(path); err != nil {
		t.Fatal(err)
	}
	if r, err = OpenRecords(spec); err != nil {
		t.Fatal(err)
	}
	r.Close()
}

// The extremes merge across shards and checkpoints to those of the
// single run, name the lowest index among the longest games, and a replay
// of that index is that long.
func TestExtremesMergeAndReplay(t *testing.T) {
	dir := t.TempDir()
	mk := func() *Config { c := config(t, 2400, 4, []string{"random"}); c.Workers = 2; return c }
	path := filepath.Join(dir, "all.csv")
	whole := runRecords(t, mk(), path, Options{})
	_, rows := readCSV(t, path)
	longest, drawn := Extreme{-1, -1}, Extreme{-1, -1}
	for _, r := range rows {
		g, _ := strconv.ParseInt(r["game"], 10, 64)
		turns, _ := strconv.Atoi(r["turns"])
		cd, _ := strconv.Atoi(r["cards_drawn"])
		if turns > longest.Value {
			longest = Extreme{g, turns}
		}
		if cd > drawn.Value {
			drawn = Extreme{g, cd}
		}
	}
	if whole.Stats.Longest != longest || whole.Stats.MostDrawn != drawn {
		t.Fatalf("extremes %v %v, the records give %v %v", whole.Stats.Longest, whole.Stats.MostDrawn, longest, drawn)
	}
	if rec := replay(t, mk(), longest.Game); int(rec.Turns) != longest.Value {
		t.Fatalf("replay of game %d: %d turns, not %d", longest.Game, rec.Turns, longest.Value)
	}
	if rec := replay(t, mk(), drawn.Game); int(rec.CardsDrawn) != drawn.Value {
		t.Fatalf("replay of game %d: %d cards drawn, not %d", drawn.Game, rec.CardsDrawn, drawn.Value)
	}
	// Shards, each stopped at checkpoints and resumed, then merged.
	var files []*StatsFile
	var names []string
	for i := range 3 {
		var resume *StatsFile
		for {
			c := mk()
			c.Shard = Shard{i, 3}
			calls := 0
			r, err := SimulateWith(context.Background(), c, Options{Resume: resume, CheckpointGames: 130, Checkpoint: func(r *Run) error {
				calls++
				resume = roundTrip(t, r.File())
				if calls == 2 {
					return errors.New("stop")
				}
				return nil
			}})
			if err == nil {
				files, names = append(files, r.File()), append(names, c.Shard.String())
				break
			}
		}
	}
	m, err := Merge(files, names, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Stats.Longest != longest || m.Stats.MostDrawn != drawn {
		t.Fatalf("merged extremes %v %v, want %v %v", m.Stats.Longest, m.Stats.MostDrawn, longest, drawn)
	}
	sum := m.Summary("test")
	if sum.LongestGame == nil || sum.LongestGame.Game != longest.Game || sum.LongestGame.Turns != longest.Value ||
		sum.MostCardsDrawn == nil || sum.MostCardsDrawn.Game != drawn.Game {
		t.Fatalf("summary extremes %+v %+v", sum.LongestGame, sum.MostCardsDrawn)
	}
}

func TestParseRecordFormat(t *testing.T) {
	for _, p := range []string{"a.parquet", "b.CSV", "c/d.jsonl"} {
		if _, err := ParseRecordFormat(p); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseRecordFormat("x.json"); err == nil {
		t.Error("x.json accepted")
	}
}

// Cells of different table sizes share a file: the points of seats a cell
// does not have are null in Parquet and empty in CSV, and the rest equal
// replays. Written through the sink API as the experiment runner does.
func TestRecordsMixedTableSizes(t *testing.T) {
	dir := t.TempDir()
	c2, c4 := config(t, 300, 2, []string{"random"}), config(t, 300, 4, []string{"heuristic"})
	for _, c := range []*Config{c2, c4} {
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	l := LayoutOf(c2, c4)
	if l.MinPlayers != 2 || l.MaxPlayers != 4 || l.Places {
		t.Fatalf("layout %+v", l)
	}
	for _, ext := range []string{".parquet", ".csv"} {
		path := filepath.Join(dir, "mixed"+ext)
		r, err := OpenRecords(RecordSpec{Path: path, Layout: l, Run: "mixed", Lo: 0, From: 0, Workers: 1, BatchRows: 200})
		if err != nil {
			t.Fatal(err)
		}
		sink := r.Sink()
		for a := int64(0); a < 300; a += 100 {
			if err := sink.Begin(a); err != nil {
				t.Fatal(err)
			}
			for i := a; i < a+100; i++ {
				for cell, c := range []*Config{c2, c4} {
					rec := replay(t, c, i)
					rec.Cell = int32(cell)
					sink.Add(&rec)
				}
			}
			if err := sink.End(a + 100); err != nil {
				t.Fatal(err)
			}
			if a == 100 {
				if err := r.Cut(200); err != nil { // two segments, joined
					t.Fatal(err)
				}
			}
		}
		if err := r.Finish(300, true); err != nil {
			t.Fatal(err)
		}
		rows := readAny(t, path)
		if len(rows) != 600 {
			t.Fatalf("%s: %d rows", ext, len(rows))
		}
		for _, k := range []int{0, 1, 298, 599} {
			c := []*Config{c2, c4}[k%2]
			want := replay(t, c, int64(k/2))
			want.Cell = int32(k % 2)
			for col, v := range want.row(l) {
				if got := rows[k][col]; got != v {
					t.Errorf("%s: row %d: %s = %q, want %q", ext, k, col, got, v)
				}
			}
		}
	}
}

// A failed write of the records (a full disk) stops the run with the
// error, and no records file appears.
func TestRecordsWriteFailureStopsTheRun(t *testing.T) {
	for _, fault := range []string{"records@3", "records"} {
		t.Setenv(FaultEnv, fault)
		path := filepath.Join(t.TempDir(), "g.parquet")
		c := config(t, 200000, 4, []string{"random"})
		c.Workers = 2
		_, err := SimulateWith(context.Background(), c, Options{Records: path, CheckpointGames: 1000, Checkpoint: func(*Run) error { return nil }})
		if err == nil || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("%s: err %v", fault, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("%s: a records file after a failed write", fault)
		}
	}
}

// Every winner of a game is in its row, shared wins included: the won_
// columns sum to the run's wins by seat and the first player's wins, in
// every format, also in losers-accumulate matches where several players
// win (highest-loses) or tie for the lowest total (lowest-wins). Before,
// a row said only winner_seat -1, and the records could not give the win
// rates the run prints.
func TestRecordsSharedWins(t *testing.T) {
	dir := t.TempDir()
	for _, outcome := range []string{"highest-loses", "lowest-wins"} {
		c := config(t, 600, 3, []string{"heuristic"}, "scoring=losers-accumulate", "target=100", "losers-outcome="+outcome)
		for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
			path := filepath.Join(dir, outcome+ext)
			r := runRecords(t, c, path, Options{})
			rows := readAny(t, path)
			checkRows(t, ext, c, rows, 0, 600, 0, 1, 599)
			wins, first, shared := make([]int64, 3), int64(0), 0
			for _, row := range rows {
				n := 0
				for s := range wins {
					switch row[fmt.Sprintf("won_%d", s)] {
					case "1":
						wins[s]++
						n++
						if row["first_to_act"] == fmt.Sprint(s) {
							first++
						}
					case "0":
					default:
						t.Fatalf("%s %s: won_%d = %q in game %s", outcome, ext, s, row[fmt.Sprintf("won_%d", s)], row["game"])
					}
				}
				if n > 1 {
					shared++
					if row["winner_seat"] != "-1" {
						t.Errorf("%s %s: game %s has %d winners and winner_seat %s", outcome, ext, row["game"], n, row["winner_seat"])
					}
				}
			}
			if fmt.Sprint(wins) != fmt.Sprint(r.Stats.WinsBySeat) || first != r.Stats.FirstToActWins {
				t.Errorf("%s %s: the records give wins %v (first player %d), the run %v (%d)", outcome, ext, wins, first, r.Stats.WinsBySeat, r.Stats.FirstToActWins)
			}
			if int64(shared) != r.Stats.SharedWins || shared == 0 {
				t.Errorf("%s %s: %d rows with several winners, the run counts %d shared wins", outcome, ext, shared, r.Stats.SharedWins)
			}
		}
	}
}

// Every JSON line has every column, in the file's column order, with null
// for an absent value (a seat past a cell's players, a place not taken),
// as a CSV line has every field: readers that take the columns from the
// keys (pandas' read_json, R's jsonlite) then give the columns and order
// of the CSV and Parquet files. Absent values were left out, so such a
// reader put place_3 last when game 0 had no fourth place, and had no
// column at all for a place no game reached.
func TestRecordsJSONLinesHaveEveryColumn(t *testing.T) {
	dir := t.TempDir()
	c2 := config(t, 200, 2, []string{"random"})
	c5 := config(t, 200, 5, []string{"random"}, "play-for-places=true", "max-turns=60")
	for _, c := range []*Config{c2, c5} {
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	l := LayoutOf(c2, c5)
	path := filepath.Join(dir, "g.jsonl")
	r, err := OpenRecords(RecordSpec{Path: path, Layout: l, Run: "mixed", Lo: 0, From: 0, Workers: 1, BatchRows: 400})
	if err != nil {
		t.Fatal(err)
	}
	sink := r.Sink()
	if err := sink.Begin(0); err != nil {
		t.Fatal(err)
	}
	unplaced := 0
	for i := int64(0); i < 200; i++ {
		for cell, c := range []*Config{c2, c5} {
			rec := replay(t, c, i)
			rec.Cell = int32(cell)
			if cell == 1 && rec.Places[4] == 0 {
				unplaced++
			}
			sink.Add(&rec)
		}
	}
	if err := sink.End(200); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(200, true); err != nil {
		t.Fatal(err)
	}
	if unplaced == 0 {
		t.Fatal("no game left a place untaken: the test shows nothing")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join(l.Columns(), ",")
	for k, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		d := json.NewDecoder(strings.NewReader(line))
		if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("line %d: %v %v", k+1, tok, err)
		}
		var keys []string
		for d.More() {
			tok, err := d.Token()
			if err != nil {
				t.Fatalf("line %d: %v", k+1, err)
			}
			keys = append(keys, tok.(string))
			var v any
			if err := d.Decode(&v); err != nil {
				t.Fatalf("line %d: %v", k+1, err)
			}
		}
		if got := strings.Join(keys, ","); got != want {
			t.Fatalf("line %d: keys %s, want the columns %s", k+1, got, want)
		}
	}
	rows := readJSONL(t, path)
	for _, k := range []int{0, 1, 398, 399} {
		c := []*Config{c2, c5}[k%2]
		want := replay(t, c, int64(k/2))
		want.Cell = int32(k % 2)
		for col, v := range want.row(l) {
			if got, ok := rows[k][col]; !ok || got != v {
				t.Errorf("row %d: %s = %q (present %v), want %q", k, col, got, ok, v)
			}
		}
	}
}

// A run that starts afresh removes an earlier run's records file at once,
// so that stopped before it completes, it leaves its segments and no
// records file, not the complete file of the earlier run (another seed)
// under the name it was given. A resumed run does not touch the file.
func TestRecordsStoppedRunLeavesNoEarlierFile(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		path := filepath.Join(dir, "games"+ext)
		c := config(t, 400, 4, []string{"random"})
		runRecords(t, c, path, Options{})
		c.Seed = 5
		l := LayoutOf(c)
		r, err := OpenRecords(RecordSpec{Path: path, Layout: l, Run: "seed 5", Lo: 0, From: 0, Workers: 1, BatchRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		sink := r.Sink()
		if err := sink.Begin(0); err != nil {
			t.Fatal(err)
		}
		for i := int64(0); i < 100; i++ {
			rec := replay(t, c, i)
			sink.Add(&rec)
		}
		if err := sink.End(100); err != nil {
			t.Fatal(err)
		}
		if err := r.Finish(100, false); err != nil { // stopped: a checkpoint at game 100
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a stopped run left a records file (the earlier run's): %v", ext, err)
		}
		// The resume keeps its segments and completes the file.
		r, err = OpenRecords(RecordSpec{Path: path, Layout: l, Run: "seed 5", Lo: 0, From: 100, Workers: 1, BatchRows: 300})
		if err != nil {
			t.Fatal(err)
		}
		sink = r.Sink()
		if err := sink.Begin(100); err != nil {
			t.Fatal(err)
		}
		for i := int64(100); i < 400; i++ {
			rec := replay(t, c, i)
			sink.Add(&rec)
		}
		if err := sink.End(400); err != nil {
			t.Fatal(err)
		}
		if err := r.Finish(400, true); err != nil {
			t.Fatal(err)
		}
		checkRows(t, ext, c, readAny(t, path), 0, 400, 0, 99, 100, 399)
		if err := RemoveParts(path); err != nil {
			t.Fatal(err)
		}
	}
}

// A request answered as the writer stops (the cut of Finish, which stops
// it) returns the answer, not "the writer has stopped": the reply is sent
// before the writer stops, and both being ready must not make a coin of
// it (a resumed run killed and rerun failed so, now and then).
func TestRecordsReplyBeatsStop(t *testing.T) {
	r := &Records{stopped: make(chan struct{})}
	close(r.stopped)
	for range 200 {
		reply := make(chan error, 1)
		reply <- nil
		if err := r.await(reply); err != nil {
			t.Fatalf("a reply of nil waiting as the writer stopped: %v", err)
		}
	}
	if err := r.await(make(chan error, 1)); err == nil {
		t.Fatal("no reply from a stopped writer: no error")
	}
}
