package sim

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/unosim/unosim/engine"
)

// recordEncoder writes rows in one format; close ends the file (the
// Parquet footer) without closing the underlying writer.
type recordEncoder interface {
	write(rows []Record) error
	close() error
}

func newEncoder(f RecordFormat, w io.Writer, l RecordLayout, run string) (recordEncoder, error) {
	switch f {
	case RecordCSV:
		e := &csvEncoder{w: w, l: l}
		e.buf = append(e.buf, strings.Join(l.Columns(), ",")...)
		e.buf = append(e.buf, '\n')
		return e, nil
	case RecordJSONL:
		return &jsonlEncoder{w: w, l: l, cols: l.Columns()}, nil
	}
	return newParquetEncoder(w, l, run)
}

var outcomeNames = [...]string{engine.Finished: "finished", engine.Unfinished: "unfinished", engine.Blocked: "blocked"}

// csvEncoder writes CSV (RFC 4180; no field needs quoting): an absent
// value is an empty field.
type csvEncoder struct {
	w   io.Writer
	l   RecordLayout
	buf []byte
}

func (e *csvEncoder) write(rows []Record) error {
	b := e.buf
	for i := range rows {
		r := &rows[i]
		b = strconv.AppendUint(b, r.Seed, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.Game, 10)
		for _, v := range [...]int32{r.Cell, int32(r.Players)} {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ',')
		b = append(b, outcomeNames[r.Outcome]...)
		for _, v := range [...]int32{int32(r.WinnerSeat), int32(r.WinnerPosition), int32(r.FirstToAct), r.Turns, r.Rounds, r.CardsPlayed, r.CardsDrawn} {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(v), 10)
		}
		for s := range e.l.MaxPlayers {
			b = append(b, ',')
			if s < int(r.Players) {
				b = strconv.AppendInt(b, int64(r.Points[s]), 10)
			}
		}
		for s := range e.l.MaxPlayers {
			b = append(b, ',')
			if s < int(r.Players) {
				b = append(b, '0'+byte(r.Won>>uint(s)&1))
			}
		}
		if e.l.Places {
			for s := range e.l.MaxPlayers {
				b = append(b, ',')
				if p := r.Places[s]; p > 0 {
					b = strconv.AppendInt(b, int64(p), 10)
				}
			}
		}
		for _, v := range r.Count {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, '\n')
	}
	_, err := e.w.Write(b)
	e.buf = b[:0]
	return err
}

func (e *csvEncoder) close() error {
	if len(e.buf) > 0 { // the header of a segment without rows
		_, err := e.w.Write(e.buf)
		e.buf = e.buf[:0]
		return err
	}
	return nil
}

// jsonlEncoder writes one flat JSON object per game, keyed by the column
// names, every column in every line in file order; absent values are null
// (left out, they made readers such as pandas' read_json and R's
// jsonlite order the columns by first appearance, and drop a column no
// line has).
type jsonlEncoder struct {
	w    io.Writer
	l    RecordLayout
	cols []string
	buf  []byte
}

func (e *jsonlEncoder) write(rows []Record) error {
	b := e.buf
	key := func(col int) {
		b = append(b, ',', '"')
		b = append(b, e.cols[col]...)
		b = append(b, '"', ':')
	}
	num := func(col int, v int64) {
		key(col)
		b = strconv.AppendInt(b, v, 10)
	}
	null := func(col int) {
		key(col)
		b = append(b, "null"...)
	}
	for i := range rows {
		r := &rows[i]
		b = append(b, `{"seed":`...)
		b = strconv.AppendUint(b, r.Seed, 10)
		num(1, r.Game)
		num(2, int64(r.Cell))
		num(3, int64(r.Players))
		b = append(b, `,"outcome":"`...)
		b = append(b, outcomeNames[r.Outcome]...)
		b = append(b, '"')
		for k, v := range [...]int32{int32(r.WinnerSeat), int32(r.WinnerPosition), int32(r.FirstToAct), r.Turns, r.Rounds, r.CardsPlayed, r.CardsDrawn} {
			num(5+k, int64(v))
		}
		col := 12
		for s := range e.l.MaxPlayers {
			if s < int(r.Players) {
				num(col+s, int64(r.Points[s]))
			} else {
				null(col + s)
			}
		}
		col += e.l.MaxPlayers
		for s := range e.l.MaxPlayers {
			if s < int(r.Players) {
				num(col+s, int64(r.Won>>uint(s)&1))
			} else {
				null(col + s)
			}
		}
		col += e.l.MaxPlayers
		if e.l.Places {
			for s := range e.l.MaxPlayers {
				if p := r.Places[s]; p > 0 {
					num(col+s, int64(p))
				} else {
					null(col + s)
				}
			}
			col += e.l.MaxPlayers
		}
		for k, v := range r.Count {
			num(col+k, int64(v))
		}
		b = append(b, '}', '\n')
	}
	_, err := e.w.Write(b)
	e.buf = b[:0]
	return err
}

func (e *jsonlEncoder) close() error { return nil }

// parquetRowGroup is the most rows in a Parquet row group: the writer
// holds a row group's pages in memory until it is flushed, so this bounds
// the memory of a long segment (tens of MB).
const parquetRowGroup = 1 << 18

// recordSchema is the Parquet schema of a layout, built from a struct type
// so that the columns keep the order of Columns (a parquet.Group sorts
// them by name). Small integers are INT(8) or INT(16) logical types, read
// as int8/int16 by pandas and R's arrow.
func recordSchema(l RecordLayout) *parquet.Schema {
	cols := l.Columns()
	var fields []reflect.StructField
	add := func(name string, t reflect.Type, tag string) {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", len(fields)), Type: t,
			Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s%s"`, name, tag))})
	}
	i8, i32, i64 := reflect.TypeFor[int8](), reflect.TypeFor[int32](), reflect.TypeFor[int64]()
	add(cols[0], reflect.TypeFor[uint64](), "")
	add(cols[1], i64, ",delta")
	add(cols[2], i32, "")
	add(cols[3], i8, "")
	add(cols[4], reflect.TypeFor[string](), ",dict")
	for _, c := range cols[5:8] {
		add(c, i8, "")
	}
	for _, c := range cols[8:12] {
		add(c, i32, "")
	}
	for s := range l.MaxPlayers {
		if s < l.MinPlayers {
			add(cols[12+s], i32, "")
		} else {
			add(cols[12+s], reflect.PointerTo(i32), ",optional")
		}
	}
	for s := range l.MaxPlayers {
		if s < l.MinPlayers {
			add(cols[12+l.MaxPlayers+s], i8, "")
		} else {
			add(cols[12+l.MaxPlayers+s], reflect.PointerTo(i8), ",optional")
		}
	}
	n := 12 + 2*l.MaxPlayers
	if l.Places {
		for s := range l.MaxPlayers {
			add(cols[n+s], reflect.PointerTo(i8), ",optional")
		}
		n += l.MaxPlayers
	}
	for _, c := range cols[n:] {
		add(c, i32, "")
	}
	return parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
}

// parquetEncoder writes rows column by column: a stage of rows is first
// transposed into one array per column (a pass over the rows in memory
// order, into arrays that stay in cache), then each column's values go to
// its ColumnWriter in blocks. Reading each column straight from the rows
// instead costs a cache miss per value and was most of the records' cost.
type parquetEncoder struct {
	w        *parquet.Writer
	l        RecordLayout
	cw       []*parquet.ColumnWriter
	stage    []Record
	inGroup  int       // rows in the open row group
	seed     []int64   // column 0
	game     []int64   // column 1
	outcome  []uint8   // column 4
	ints     [][]int32 // the other columns, by column index (nil for 0, 1, 4)
	present  [][]bool  // optional columns: the value is not null
	values   []parquet.Value
	outcomes [len(outcomeNames)]parquet.Value
}

// parquetStage is the number of rows transposed at a time: the column
// arrays (4 bytes a value, ~45 columns) stay within a core's L2 cache.
const parquetStage = 2048

func newParquetEncoder(w io.Writer, l RecordLayout, run string) (*parquetEncoder, error) {
	schema := recordSchema(l)
	cols := l.Columns()
	if got := schema.Columns(); len(got) != len(cols) || !slices.EqualFunc(got, cols, func(p []string, c string) bool { return len(p) == 1 && p[0] == c }) {
		return nil, fmt.Errorf("records: the Parquet schema's columns %v are not %v", got, cols)
	}
	e := &parquetEncoder{l: l, w: parquet.NewWriter(w, schema, parquet.Compression(&parquet.Snappy),
		parquet.KeyValueMetadata("unosim.run", run))}
	for o, name := range outcomeNames {
		e.outcomes[o] = parquet.ByteArrayValue([]byte(name))
	}
	e.stage = make([]Record, 0, parquetStage)
	e.seed, e.game, e.outcome = make([]int64, parquetStage), make([]int64, parquetStage), make([]uint8, parquetStage)
	e.ints, e.present = make([][]int32, len(cols)), make([][]bool, len(cols))
	for c := range cols {
		if c != 0 && c != 1 && c != 4 {
			e.ints[c] = make([]int32, parquetStage)
		}
		if e.optional(c) {
			e.present[c] = make([]bool, parquetStage)
		}
	}
	e.values = make([]parquet.Value, 0, parquetStage)
	return e, nil
}

// optional reports whether column c may be null: points and wins of seats
// some cells do not have, and places.
func (e *parquetEncoder) optional(c int) bool {
	minP, maxP := e.l.MinPlayers, e.l.MaxPlayers
	return c >= 12+minP && c < 12+maxP || c >= 12+maxP+minP && c < 12+2*maxP ||
		e.l.Places && c >= 12+2*maxP && c < 12+3*maxP
}

func (e *parquetEncoder) write(rows []Record) error {
	for len(rows) > 0 {
		n := min(len(rows), cap(e.stage)-len(e.stage))
		e.stage = append(e.stage, rows[:n]...)
		rows = rows[n:]
		if len(e.stage) == cap(e.stage) {
			if err := e.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// transpose fills the column arrays from the staged rows.
func (e *parquetEncoder) transpose() {
	maxP, places := e.l.MaxPlayers, e.l.Places
	for i := range e.stage {
		r := &e.stage[i]
		e.seed[i], e.game[i], e.outcome[i] = int64(r.Seed), r.Game, uint8(r.Outcome)
		c := e.ints
		c[2][i], c[3][i], c[5][i], c[6][i], c[7][i] = r.Cell, int32(r.Players), int32(r.WinnerSeat), int32(r.WinnerPosition), int32(r.FirstToAct)
		c[8][i], c[9][i], c[10][i], c[11][i] = r.Turns, r.Rounds, r.CardsPlayed, r.CardsDrawn
		for s := range maxP {
			c[12+s][i] = r.Points[s]
			c[12+maxP+s][i] = int32(r.Won >> uint(s) & 1)
			if p := e.present[12+s]; p != nil {
				p[i] = s < int(r.Players)
				e.present[12+maxP+s][i] = p[i]
			}
		}
		k := 12 + 2*maxP
		if places {
			for s := range maxP {
				c[k+s][i] = int32(r.Places[s])
				e.present[k+s][i] = r.Places[s] > 0
			}
			k += maxP
		}
		for j, v := range r.Count {
			c[k+j][i] = v
		}
	}
}

// flush writes the staged rows, ending the row group when it is full.
func (e *parquetEncoder) flush() error {
	n := len(e.stage)
	if n == 0 {
		return nil
	}
	e.transpose()
	if e.cw == nil {
		e.cw = e.w.ColumnWriters()
	}
	for c, w := range e.cw {
		v := e.values[:n]
		switch {
		case c == 0:
			for i, x := range e.seed[:n] {
				v[i] = parquet.Int64Value(x)
			}
		case c == 1:
			for i, x := range e.game[:n] {
				v[i] = parquet.Int64Value(x)
			}
		case c == 4:
			for i, x := range e.outcome[:n] {
				v[i] = e.outcomes[x]
			}
		case e.present[c] != nil:
			p := e.present[c]
			for i, x := range e.ints[c][:n] {
				if p[i] {
					v[i] = parquet.Int32Value(x).Level(0, 1, c)
				} else {
					v[i] = parquet.NullValue().Level(0, 0, c)
				}
			}
		default:
			for i, x := range e.ints[c][:n] {
				v[i] = parquet.Int32Value(x)
			}
		}
		if _, err := w.WriteRowValues(v); err != nil {
			return err
		}
	}
	e.inGroup += n
	e.stage = e.stage[:0]
	if e.inGroup >= parquetRowGroup {
		e.inGroup = 0
		e.cw = nil
		return e.w.Flush()
	}
	return nil
}

func (e *parquetEncoder) close() error {
	if err := e.flush(); err != nil {
		return err
	}
	return e.w.Close()
}

// joinParquet writes the rows of the segments, in order, into one file,
// encoded anew: the file is then the one a single segment of the same rows
// would be, byte for byte, wherever the checkpoints cut the segments (a
// copy of the segments' row groups would keep their boundaries, and a
// checkpoint every 30 s cuts a long run at other points in every run).
func joinParquet(w io.Writer, dir string, segs []segmentFile, l RecordLayout, run string) error {
	out, err := newParquetEncoder(w, l, run)
	if err != nil {
		return err
	}
	for _, s := range segs {
		if err := copyParquet(out, filepath.Join(dir, s.Name)); err != nil {
			return err
		}
	}
	return out.close()
}

// copyParquet decodes the rows of a segment file and writes them to out.
func copyParquet(out *parquetEncoder, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	l := out.l
	ncols := len(l.Columns())
	if got := len(pf.Schema().Columns()); got != ncols {
		return fmt.Errorf("%s: %d columns, want %d", path, got, ncols)
	}
	rows := make([]parquet.Row, parquetStage)
	recs := make([]Record, 0, parquetStage)
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		for {
			n, err := rr.ReadRows(rows)
			recs = recs[:0]
			for _, row := range rows[:n] {
				rec, derr := decodeRow(row, l, ncols)
				if derr != nil {
					rr.Close()
					return fmt.Errorf("%s: %w", path, derr)
				}
				recs = append(recs, rec)
			}
			if werr := out.write(recs); werr != nil {
				rr.Close()
				return werr
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				rr.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		if err := rr.Close(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// decodeRow is the Record of a row that parquetEncoder wrote (a null
// point or place is 0, as it was in the Record).
func decodeRow(row parquet.Row, l RecordLayout, ncols int) (Record, error) {
	var r Record
	if len(row) != ncols {
		return r, fmt.Errorf("a row of %d values, want %d", len(row), ncols)
	}
	i32 := func(c int) int32 {
		if row[c].IsNull() {
			return 0
		}
		return row[c].Int32()
	}
	r.Seed, r.Game = uint64(row[0].Int64()), row[1].Int64()
	r.Cell, r.Players = i32(2), int8(i32(3))
	o := slices.Index(outcomeNames[:], string(row[4].ByteArray()))
	if o < 0 {
		return r, fmt.Errorf("outcome %q", row[4].ByteArray())
	}
	r.Outcome = engine.Outcome(o)
	r.WinnerSeat, r.WinnerPosition, r.FirstToAct = int8(i32(5)), int8(i32(6)), int8(i32(7))
	r.Turns, r.Rounds, r.CardsPlayed, r.CardsDrawn = i32(8), i32(9), i32(10), i32(11)
	k := 12
	for s := range l.MaxPlayers {
		r.Points[s] = i32(k + s)
		r.Won |= uint32(i32(k+l.MaxPlayers+s)&1) << uint(s)
	}
	k += 2 * l.MaxPlayers
	if l.Places {
		for s := range l.MaxPlayers {
			r.Places[s] = int8(i32(k + s))
		}
		k += l.MaxPlayers
	}
	for j := range r.Count {
		r.Count[j] = i32(k + j)
	}
	return r, nil
}
