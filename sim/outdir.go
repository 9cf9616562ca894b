package sim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// OutputNames are the files and directories a run (simulate or an
// experiment) writes into its --out directory.
var OutputNames = []string{"stats.json", "summary.json", "summary.csv", "manifest.json", "report.md", "plots"}

// OpenOut prepares dir for a run that can resume: it creates dir when it
// does not exist and checks that it is writable, and reports whether it
// holds a stats.json (an earlier run's record, complete or a checkpoint).
// A directory without one must hold nothing but an earlier run's outputs
// (or be empty: a run killed before its first checkpoint), so that a
// mistyped --out never writes into a directory of other files. force
// removes an earlier run's outputs first, once the directory is accepted.
// Temporary files of a killed writer are removed. records are the
// run's --records files: one in dir is the run's own (a complete run
// leaves it without its segment directory), and force removes it too.
func OpenOut(dir string, force bool, records ...string) (hasRecord bool, err error) {
	if err := CheckOutDir(dir); err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("output directory %s cannot be created: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("output directory %s: %w", dir, err)
	}
	var own []string // the run's records files in dir
	for _, r := range records {
		if r != "" && sameDir(filepath.Dir(r), dir) {
			own = append(own, filepath.Base(r))
		}
	}
	var others []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case Temporary(name):
			os.Remove(filepath.Join(dir, name)) // a killed writer's temporary file
		case slices.Contains(OutputNames, name):
			if name == "stats.json" {
				hasRecord = true
			}
		case isRecords(dir, name, entries) || slices.Contains(own, name):
			// --records inside --out: its segments, or the file they made.
		default:
			others = append(others, name)
		}
	}
	if (!hasRecord || force) && len(others) > 0 {
		if len(others) > 3 {
			others = append(others[:3], "...")
		}
		return false, fmt.Errorf("output directory %s holds files that are not a unosim run's (%s): choose a new or empty directory", dir, strings.Join(others, ", "))
	}
	if force {
		for _, name := range append(slices.Clone(OutputNames), own...) {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return false, fmt.Errorf("--force: %w", err)
			}
		}
		hasRecord = false
	}
	probe, err := os.CreateTemp(dir, ".probe-*.tmp")
	if err != nil {
		return false, fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return hasRecord, nil
}

// CheckOutDir refuses a dir that is a file or lies under one, naming the
// file (stat's "not a directory" does not say which); a dir that does not
// exist yet, or is a directory, passes.
func CheckOutDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("output directory %s is a file, not a directory", dir)
	case err == nil || errors.Is(err, fs.ErrNotExist):
		return nil
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return fmt.Errorf("output directory %s: %s is a file, not a directory", dir, p)
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("output directory %s: %v", dir, err)
}

// isRecords reports whether name in dir is a records segment directory
// (NAME.parts with its marker) or the records file beside one.
func isRecords(dir, name string, entries []os.DirEntry) bool {
	if _, err := readMarker(filepath.Join(dir, name)); err == nil && strings.HasSuffix(name, ".parts") {
		return true
	}
	if _, err := ParseRecordFormat(name); err != nil {
		return false
	}
	return slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == name+".parts" })
}

// RemoveOutputs removes what a run wrote into dir, and dir itself when it
// is then empty: used when a run fails before it recorded anything.
func RemoveOutputs(dir string) {
	for _, name := range OutputNames {
		os.RemoveAll(filepath.Join(dir, name))
	}
	os.Remove(dir)
}

// sameDir reports whether a and b name the same directory, relative or
// absolute.
func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
