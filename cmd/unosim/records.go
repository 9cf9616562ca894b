package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/unosim/unosim/sim"
)

const recordsUsage = "write one row per game to FILE: .parquet, .csv or .jsonl (see the README for the columns); with --out a rerun resumes it too"

func recordsFlag(fs *pflag.FlagSet, p *string) { fs.StringVar(p, "records", "", recordsUsage) }

// checkRecords refuses a --records FILE whose format or directory is
// wrong before any game is played.
func checkRecords(path, out string) error {
	if path == "" {
		return nil
	}
	if _, err := sim.ParseRecordFormat(path); err != nil {
		return usagef("--records %s: the name must end in .parquet, .csv or .jsonl (the format)", path)
	}
	dir := filepath.Dir(path)
	if out != "" && sameDir(dir, out) && strings.EqualFold(filepath.Base(path), "summary.csv") {
		// The run writes its own summary.csv there, over the records.
		return usagef("--records %s: %s/summary.csv is the run's summary; give the records another name, e.g. %s", path, out, filepath.Join(out, "games.csv"))
	}
	if out != "" && filepath.Clean(dir) == filepath.Clean(out) {
		return nil // created with --out
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("--records %s: the directory %s does not exist", path, dir)
	}
	return nil
}

// discardRecords removes an earlier run's unfinished records with
// --force, once the output directory is accepted.
func discardRecords(path string, force bool) error {
	if path == "" || !force {
		return nil
	}
	if err := sim.DiscardParts(path); err != nil {
		return runtimeError{err}
	}
	return nil
}

// recordsDone finishes the records of a run that ended: a complete run's
// segment directory is removed once its outputs are written; an
// interrupted one is left for a resume, and the user is told where the
// rows are.
func recordsDone(a *app, path, out string, complete bool) error {
	if path == "" {
		return nil
	}
	if complete {
		if err := sim.RemoveParts(path); err != nil {
			return runtimeError{err}
		}
		if !fileExists(path) {
			// A rerun into a directory completed without --records.
			fmt.Fprintf(a.stderr, "unosim: warning: %s holds a complete run made without --records %s, so it is not written; --force plays the run again with records\n", out, path)
		}
		return nil
	}
	how := "rerun the same command to resume them"
	if out == "" {
		how = "without --out the run cannot be resumed"
	}
	fmt.Fprintf(a.stderr, "unosim: records of the games played are in %s.parts/ (segments); %s is written when the run completes: %s\n", path, path, how)
	return nil
}

// sameDir reports whether a and b name the same directory, relative or
// absolute.
func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
