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
// names; absent values are left out.
type jsonlEncoder struct {
	w    io.Writer
	l    RecordLayout
	cols []string
	buf  []byte
}

func (e *jsonlEncoder) write(rows []Record) error {
	b := e.buf
	num := func(col int, v int64) {
		b = append(b, ',', '"')
		b = append(b, e.cols[col]...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, v, 10)
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
			}
		}
		col += e.l.MaxPlayers
		if e.l.Places {
			for s := range e.l.MaxPlayers {
				if p := r.Places[s]; p > 0 {
					num(col+s, int64(p))
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
	n := 12 + l.MaxPlayers
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

// parquetEncoder writes rows as parquet.Row values in column order.
type parquetEncoder struct {
	w        *parquet.Writer
	l        RecordLayout
	rows     []parquet.Row
	outcomes [len(outcomeNames)]parquet.Value
}

func newParquetEncoder(w io.Writer, l RecordLayout, run string) (*parquetEncoder, error) {
	schema := recordSchema(l)
	if got := schema.Columns(); len(got) != len(l.Columns()) || !slices.EqualFunc(got, l.Columns(), func(p []string, c string) bool { return len(p) == 1 && p[0] == c }) {
		return nil, fmt.Errorf("records: the Parquet schema's columns %v are not %v", got, l.Columns())
	}
	e := &parquetEncoder{l: l, w: parquet.NewWriter(w, schema, parquet.Compression(&parquet.Snappy),
		parquet.MaxRowsPerRowGroup(parquetRowGroup), parquet.CreatedBy("unosim", "", ""),
		parquet.KeyValueMetadata("unosim.run", run))}
	for o, name := range outcomeNames {
		e.outcomes[o] = parquet.ByteArrayValue([]byte(name))
	}
	return e, nil
}

func (e *parquetEncoder) write(rows []Record) error {
	if cap(e.rows) < len(rows) {
		e.rows = make([]parquet.Row, len(rows))
	}
	e.rows = e.rows[:len(rows)]
	for i := range rows {
		e.rows[i] = e.row(e.rows[i][:0], &rows[i])
	}
	_, err := e.w.WriteRows(e.rows)
	return err
}

// row appends the values of r in column order, with their levels: a
// required column has definition level 0, an optional one 1 when present
// and 0 (a null) when absent.
func (e *parquetEncoder) row(v parquet.Row, r *Record) parquet.Row {
	col := 0
	req := func(x parquet.Value) {
		v = append(v, x.Level(0, 0, col))
		col++
	}
	opt := func(x int32, present bool) {
		if present {
			v = append(v, parquet.Int32Value(x).Level(0, 1, col))
		} else {
			v = append(v, parquet.Value{}.Level(0, 0, col))
		}
		col++
	}
	req(parquet.Int64Value(int64(r.Seed)))
	req(parquet.Int64Value(r.Game))
	req(parquet.Int32Value(r.Cell))
	req(parquet.Int32Value(int32(r.Players)))
	req(e.outcomes[r.Outcome])
	for _, x := range [...]int32{int32(r.WinnerSeat), int32(r.WinnerPosition), int32(r.FirstToAct), r.Turns, r.Rounds, r.CardsPlayed, r.CardsDrawn} {
		req(parquet.Int32Value(x))
	}
	for s := range e.l.MaxPlayers {
		if s < e.l.MinPlayers {
			req(parquet.Int32Value(r.Points[s]))
		} else {
			opt(r.Points[s], s < int(r.Players))
		}
	}
	if e.l.Places {
		for s := range e.l.MaxPlayers {
			opt(int32(r.Places[s]), r.Places[s] > 0)
		}
	}
	for _, x := range r.Count {
		req(parquet.Int32Value(x))
	}
	return v
}

func (e *parquetEncoder) close() error { return e.w.Close() }

// joinParquet copies the rows of the segments, in order, into one file.
func joinParquet(w io.Writer, dir string, segs []segmentFile, l RecordLayout, run string) error {
	out, err := newParquetEncoder(w, l, run)
	if err != nil {
		return err
	}
	for _, s := range segs {
		if err := copyParquet(out.w, filepath.Join(dir, s.Name)); err != nil {
			return err
		}
	}
	return out.close()
}

func copyParquet(w *parquet.Writer, path string) error {
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
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		_, err := parquet.CopyRows(w, rows)
		rows.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}
