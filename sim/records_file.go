package sim

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// partsFormat names the marker of a segment directory.
const partsFormat = "unosim-record-parts/1"

// partsMarker is FILE.parts/run.json: whose segments the directory holds.
type partsMarker struct {
	Format  string   `json:"format"`
	Run     string   `json:"run"`
	File    string   `json:"file_format"`
	Columns []string `json:"columns"`
}

// segmentFile is a closed segment: the rows of games [From, To).
type segmentFile struct {
	Name     string
	From, To int64
}

func (r *Records) marker() partsMarker {
	return partsMarker{Format: partsFormat, Run: r.spec.Run, File: r.format.String(), Columns: r.spec.Layout.Columns()}
}

func (r *Records) ext() string { return "." + r.format.String() }

// prepareParts makes FILE.parts/ ready: emptied for a fresh run; for a
// resumed run, checked to be of the same run, with the segments past the
// checkpoint and temporary files of a killed writer removed, and the rest
// covering [Lo, From) exactly.
func (r *Records) prepareParts() error {
	fresh := r.spec.From == r.spec.Lo
	have, err := readMarker(r.parts)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !fresh:
		return fmt.Errorf("records: %s does not exist, so the records of the checkpointed games [%d, %d) are missing (was the run started without --records %s?); give the --records of the first session, or --force to start over",
			r.parts, r.spec.Lo, r.spec.From, r.spec.Path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("records: %w", err)
	case fresh && err == nil && have.Run != r.spec.Run:
		// Another run's unfinished records (another shard given the same
		// FILE, or a run with other flags): not ours to delete.
		return fmt.Errorf("records: %s holds the unfinished records of another run (another shard? give each shard its own --records); remove it (or, with --out, pass --force)", r.parts)
	case fresh:
		if err == nil {
			if err := os.RemoveAll(r.parts); err != nil {
				return fmt.Errorf("records: removing an earlier run's %s: %w", r.parts, err)
			}
		}
		// An earlier run's records file goes now, not when this run
		// completes: a run stopped before that must not leave a complete
		// file of another run under the name of its own.
		if fi, err := os.Lstat(r.spec.Path); err == nil && fi.Mode().IsRegular() {
			if err := os.Remove(r.spec.Path); err != nil {
				return fmt.Errorf("records: removing an earlier run's %s: %w", r.spec.Path, err)
			}
		}
		if err := os.MkdirAll(r.parts, 0o755); err != nil {
			return fmt.Errorf("records: %w", err)
		}
		m, _ := json.MarshalIndent(r.marker(), "", " ")
		return WriteFileAtomic(filepath.Join(r.parts, "run.json"), append(m, '\n'))
	}
	if want := r.marker(); have.Run != want.Run || have.File != want.File || !slices.Equal(have.Columns, want.Columns) {
		return fmt.Errorf("records: %s holds the records of another run or format; give another --records, or --force to start over", r.parts)
	}
	segs, err := r.segments()
	if err != nil {
		return err
	}
	var keep []segmentFile
	for _, s := range segs {
		if s.From >= r.spec.From { // written after the last checkpoint
			if err := os.Remove(filepath.Join(r.parts, s.Name)); err != nil {
				return fmt.Errorf("records: %w", err)
			}
			continue
		}
		keep = append(keep, s)
	}
	return r.checkTiling(keep, r.spec.From)
}

// readMarker reads dir/run.json. A directory without one is an error
// unless it is empty (then the marker is the zero value and the error
// fs.ErrNotExist, as for a directory that does not exist).
func readMarker(dir string) (partsMarker, error) {
	var m partsMarker
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return m, fs.ErrNotExist
		}
		return m, err
	}
	if !fi.IsDir() {
		return m, fmt.Errorf("%s is a file, not the records' segment directory", dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil || json.Unmarshal(data, &m) != nil || m.Format != partsFormat {
		if entries, _ := os.ReadDir(dir); len(entries) == 0 {
			return m, fs.ErrNotExist
		}
		return m, fmt.Errorf("%s is not a unosim records segment directory (no valid run.json): remove it or choose another --records", dir)
	}
	return m, nil
}

// segments lists the closed segments in game order, removing temporary
// files of a killed writer.
func (r *Records) segments() ([]segmentFile, error) {
	entries, err := os.ReadDir(r.parts)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	var segs []segmentFile
	for _, e := range entries {
		name := e.Name()
		if Temporary(name) {
			os.Remove(filepath.Join(r.parts, name))
			continue
		}
		var s segmentFile
		if n, _ := fmt.Sscanf(strings.TrimSuffix(name, r.ext()), "seg-%d-%d", &s.From, &s.To); n == 2 && strings.HasSuffix(name, r.ext()) {
			s.Name = name
			segs = append(segs, s)
		}
	}
	slices.SortFunc(segs, func(a, b segmentFile) int { return cmp.Compare(a.From, b.From) })
	return segs, nil
}

// checkTiling checks that segs cover [Lo, to) once, without gap or overlap.
func (r *Records) checkTiling(segs []segmentFile, to int64) error {
	next := r.spec.Lo
	for _, s := range segs {
		if s.From != next || s.To <= s.From {
			return fmt.Errorf("records: %s holds games [%d, %d) where games from %d were expected; --force starts over", r.parts, s.From, s.To, next)
		}
		next = s.To
	}
	if next != to {
		return fmt.Errorf("records: %s holds games [%d, %d), but the checkpoint covers [%d, %d); --force starts over", r.parts, r.spec.Lo, next, r.spec.Lo, to)
	}
	return nil
}

func (r *Records) segmentName(from, to int64) string {
	return fmt.Sprintf("seg-%020d-%020d%s", from, to, r.ext())
}

// segment is the open segment file.
type segment struct {
	f    *os.File
	bw   *bufio.Writer
	enc  recordEncoder
	from int64
}

func (r *Records) openSegment(from int64) (*segment, error) {
	f, err := os.CreateTemp(r.parts, fmt.Sprintf(".seg-%020d.tmp-*", from))
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	enc, err := newEncoder(r.format, bw, r.spec.Layout, r.spec.Run)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &segment{f: f, bw: bw, enc: enc, from: from}, nil
}

func (s *segment) abort() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// closeSegment closes the open segment at r.next: synced, then renamed
// to its final name, so that a closed segment is always whole.
func (r *Records) closeSegment() error {
	if r.seg == nil {
		if r.next == r.segStart {
			return nil
		}
		// Games without rows (no active cell): an empty segment keeps the
		// tiling whole.
		seg, err := r.openSegment(r.segStart)
		if err != nil {
			return err
		}
		r.seg = seg
	}
	s := r.seg
	err := InjectedFault("records")
	if err == nil {
		err = s.enc.close()
	}
	if err == nil {
		err = s.bw.Flush()
	}
	if err == nil {
		err = s.f.Chmod(0o644)
	}
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(s.f.Name(), filepath.Join(r.parts, r.segmentName(s.from, r.next)))
	}
	r.seg = nil
	if err != nil {
		os.Remove(s.f.Name())
		return fmt.Errorf("records: writing a segment of %s: %w", r.spec.Path, err)
	}
	r.segStart = r.next
	return nil
}

// join writes the records file from the segments of [Lo, to).
func (r *Records) join(to int64) error {
	segs, err := r.segments()
	if err != nil {
		return err
	}
	if err := r.checkTiling(segs, to); err != nil {
		return err
	}
	path := r.spec.Path
	if len(segs) == 1 {
		// One segment is the file: a rename, not a copy.
		if err := os.Rename(filepath.Join(r.parts, segs[0].Name), path); err != nil {
			return fmt.Errorf("records: %w", err)
		}
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = r.joinInto(bw, segs)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("records: writing %s: %w", path, err)
	}
	return nil
}

func (r *Records) joinInto(w io.Writer, segs []segmentFile) error {
	if r.format == RecordParquet {
		return joinParquet(w, r.parts, segs, r.spec.Layout, r.spec.Run)
	}
	for i, s := range segs {
		f, err := os.Open(filepath.Join(r.parts, s.Name))
		if err != nil {
			return err
		}
		br := bufio.NewReaderSize(f, 1<<20)
		if r.format == RecordCSV && i > 0 {
			if _, err := br.ReadSlice('\n'); err != nil && err != io.EOF { // every segment starts with the header
				f.Close()
				return err
			}
		}
		_, err = io.Copy(w, br)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// DiscardParts removes the segment directory of path, whatever run it is
// of (--force).
func DiscardParts(path string) error {
	if _, err := readMarker(path + ".parts"); err != nil {
		return nil // not ours, or gone
	}
	return os.RemoveAll(path + ".parts")
}

// RemoveParts removes the segment directory of a records file once the
// run that wrote it is complete and recorded (its segments are then in
// the file). It does nothing when the file does not exist.
func RemoveParts(path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	if _, err := readMarker(path + ".parts"); err != nil {
		return nil // not ours, or gone
	}
	return os.RemoveAll(path + ".parts")
}
