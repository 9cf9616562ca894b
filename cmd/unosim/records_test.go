package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// --records naming the run's own summary.csv in --out is refused: the run
// wrote its summary over the records (or they over it), and the records
// were lost without a word.
func TestRecordsAreNotTheSummary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	for _, rec := range []string{filepath.Join(out, "summary.csv"), filepath.Join(out, "Summary.CSV"), filepath.Join(out, ".", "summary.csv")} {
		_, stderr := mustRun(t, 2, "simulate", "--games", "10", "--quiet", "--workers", "1", "--out", out, "--records", rec)
		if !strings.Contains(stderr, "is the run's summary") {
			t.Errorf("--records %s: %s", rec, stderr)
		}
		_, stderr = mustRun(t, 2, "experiment", "run", "house-rules", "--games", "10", "--quiet", "--workers", "1", "--out", out, "--records", rec)
		if !strings.Contains(stderr, "is the run's summary") {
			t.Errorf("experiment run --records %s: %s", rec, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run left its directory")
	}
	mustRun(t, 0, "simulate", "--games", "10", "--quiet", "--workers", "1", "--out", out, "--records", filepath.Join(dir, "summary.csv"))
}

// --records: a bad name is a usage error; a run writes the file, and its
// summary.json names the longest game, whose row in the records has the
// most turns; the rerun of a complete directory leaves the file alone.
func TestSimulateRecords(t *testing.T) {
	dir := t.TempDir()
	_, stderr := mustRun(t, 2, "simulate", "--games", "10", "--records", filepath.Join(dir, "g.json"))
	if !strings.Contains(stderr, ".parquet, .csv or .jsonl") {
		t.Errorf("bad extension: %s", stderr)
	}
	mustRun(t, 2, "simulate", "--games", "10", "--records", filepath.Join(dir, "nowhere", "g.csv"))
	out := filepath.Join(dir, "run")
	rec := filepath.Join(out, "games.jsonl")
	args := []string{"simulate", "--games", "2000", "--seed", "4", "--quiet", "--out", out, "--records", rec, "--checkpoint-every", "700"}
	mustRun(t, 0, args...)
	if _, err := os.Stat(rec + ".parts"); err == nil {
		t.Error("the segment directory is left after a complete run")
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2000 {
		t.Fatalf("%d rows", len(lines))
	}
	var sum struct {
		Longest struct{ Game, Turns int } `json:"longest_game"`
	}
	sj, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	if err := json.Unmarshal(sj, &sum); err != nil {
		t.Fatal(err)
	}
	most, at := -1, -1
	for i, l := range lines {
		var row struct{ Game, Turns int }
		if err := json.Unmarshal([]byte(l), &row); err != nil || row.Game != i {
			t.Fatalf("line %d: %v (game %d)", i, err, row.Game)
		}
		if row.Turns > most {
			most, at = row.Turns, i
		}
	}
	if sum.Longest.Game != at || sum.Longest.Turns != most {
		t.Fatalf("summary.json longest_game %+v, the records give game %d with %d turns", sum.Longest, at, most)
	}
	_, stderr = mustRun(t, 0, args...)
	if !strings.Contains(stderr, "already complete") {
		t.Fatalf("rerun: %s", stderr)
	}
	if again, _ := os.ReadFile(rec); string(again) != string(data) {
		t.Fatal("the rerun of a complete run changed its records")
	}
}

// A run killed at random points (SIGKILL and SIGTERM) and rerun until
// complete leaves records holding every game once: the bytes of an
// uninterrupted run's.
func TestKilledRunRecordsEveryGameOnce(t *testing.T) {
	bin := buildUnosim(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 17))
	rounds := faultRounds(t)
	common := []string{"simulate", "--games", strconv.Itoa(30000 * rounds), "--seed", "12", "--players", "4", "--strategy", "random",
		"--quiet", "--workers", "2"}
	out := filepath.Join(dir, "killed")
	rec := filepath.Join(out, "games.csv")
	kills := runKilled(t, bin, rng, rounds, checkSim, out,
		append(common, "--out", out, "--records", rec, "--checkpoint-every", strconv.Itoa(3000+rng.IntN(9000)))...)
	t.Logf("%d kills", kills)
	single := filepath.Join(dir, "single.csv")
	if o, err := exec.Command(bin, append(common, "--records", single)...).CombinedOutput(); err != nil {
		t.Fatalf("single run: %v\n%s", err, o)
	}
	a, _ := os.ReadFile(single)
	b, _ := os.ReadFile(rec)
	if len(a) == 0 || string(a) != string(b) {
		t.Fatalf("the records of the killed and resumed run (%d bytes) differ from the single run's (%d bytes)", len(b), len(a))
	}
}

// experiment run --records writes one row per game and cell.
func TestExperimentRecords(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "exp")
	rec := filepath.Join(dir, "games.csv")
	mustRun(t, 0, "experiment", "run", "house-rules", "--games", "30", "--quiet", "--out", out, "--records", rec)
	var st struct {
		Labels []string `json:"cell_labels"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "stats.json"))
	if err := json.Unmarshal(data, &st); err != nil || len(st.Labels) == 0 {
		t.Fatalf("stats.json: %v", err)
	}
	rows, _ := os.ReadFile(rec)
	if n := strings.Count(string(rows), "\n"); n != 1+30*len(st.Labels) {
		t.Fatalf("%d lines for 30 games and %d cells", n, len(st.Labels))
	}
	mustRun(t, 2, "experiment", "run", "house-rules", "--games", "30", "--quiet", "--out", filepath.Join(dir, "x"), "--records", filepath.Join(dir, "g.txt"))
}

// Another run's unfinished records under the same name are not taken
// over (exit 1, with what to do); --force discards them.
func TestRecordsOfAnotherRunNeedForce(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "g.csv")
	os.MkdirAll(rec+".parts", 0o755)
	os.WriteFile(filepath.Join(rec+".parts", "run.json"), []byte(`{"format":"unosim-record-parts/1","run":"another shard","file_format":"csv","columns":[]}`), 0o644)
	args := []string{"simulate", "--games", "100", "--quiet", "--out", filepath.Join(dir, "run"), "--records", rec}
	_, stderr := mustRun(t, 1, args...)
	if !strings.Contains(stderr, "another run") || !strings.Contains(stderr, "--force") {
		t.Fatalf("stderr: %s", stderr)
	}
	mustRun(t, 0, append(args, "--force")...)
	if data, err := os.ReadFile(rec); err != nil || strings.Count(string(data), "\n") != 101 {
		t.Fatalf("records after --force: %v", err)
	}
}

// simulate --ci-width plays batches as a series of runs: the records are
// one file with every game once.
func TestCIWidthRecords(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "g.csv")
	out, _ := mustRun(t, 0, "simulate", "--games", "20000", "--ci-width", "3", "--batch", "1000", "--json", "--quiet", "--records", rec)
	var sum struct{ Games int64 }
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Games < 2000 {
		t.Fatalf("summary: %v, %d games", err, sum.Games)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	if int64(len(lines)) != sum.Games {
		t.Fatalf("%d rows for %d games", len(lines), sum.Games)
	}
	for i, l := range lines {
		if g, _, _ := strings.Cut(strings.SplitN(l, ",", 3)[1], ","); g != strconv.Itoa(i) {
			t.Fatalf("row %d is game %s", i, g)
		}
	}
	if _, err := os.Stat(rec + ".parts"); err == nil {
		t.Error("segments left")
	}
}

// --force over a complete run whose --records file is in --out (the
// README's "--out run --records run/games.parquet") starts over and
// writes the new run's records. The records file, alone once its
// segments are joined, was taken for a file that is not a unosim run's:
// the run was refused with exit 2 after --force had removed stats.json and
// the summaries, leaving only the old records. A refused --force removes
// nothing.
func TestForceOverRecordsInOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	for _, ext := range []string{"csv", "parquet"} {
		rec := filepath.Join(out, "games."+ext)
		sim := []string{"simulate", "--games", "300", "--quiet", "--workers", "1", "--out", out, "--records", rec}
		exp := []string{"experiment", "run", "house-rules", "--games", "20", "--quiet", "--workers", "1", "--no-plots", "--out", out, "--records", rec}
		for _, args := range [][]string{sim, exp} {
			os.RemoveAll(out)
			mustRun(t, 0, append(args, "--seed", "4")...)
			before, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			mustRun(t, 0, append(args, "--seed", "5", "--force")...)
			after, err := os.ReadFile(rec)
			if err != nil {
				t.Fatalf("%s: %v", args[0], err)
			}
			if string(before) == string(after) {
				t.Errorf("%s %s: --force --seed 5 left the records of seed 4", args[0], ext)
			}
			if _, err := os.Stat(filepath.Join(out, "stats.json")); err != nil {
				t.Errorf("%s %s: %v", args[0], ext, err)
			}
			// A file that is not the run's: refused, and nothing removed.
			os.WriteFile(filepath.Join(out, "notes.txt"), nil, 0o644)
			_, stderr := mustRun(t, 2, append(args, "--seed", "6", "--force")...)
			if !strings.Contains(stderr, "notes.txt") {
				t.Errorf("%s: %s", args[0], stderr)
			}
			for _, name := range []string{"stats.json", "summary.csv", filepath.Base(rec)} {
				if _, err := os.Stat(filepath.Join(out, name)); err != nil {
					t.Errorf("%s %s: a refused --force removed %s", args[0], ext, name)
				}
			}
			os.Remove(filepath.Join(out, "notes.txt"))
		}
	}
}
