package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// mustRun runs unosim and fails the test unless it exits with code.
func mustRun(t *testing.T, code int, args ...string) (string, string) {
	t.Helper()
	got, out, stderr := unosim(t, args...)
	if got != code {
		t.Fatalf("%v: exit %d, want %d: %s", args, got, code, stderr)
	}
	return out, stderr
}

// statsOf returns the "stats" part of dir's stats.json: what must be
// identical, byte for byte, between a resumed or merged run and one run.
func statsOf(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m["stats"] != nil {
		return string(m["stats"])
	}
	return string(m["cells"]) + string(m["pairs"])
}

// A rerun of the same command into the same --out: an empty directory is
// a run with nothing done; a finished one is left untouched (exit 0); one
// of another run is refused (exit 2) with what differs; --force starts over.
func TestRerunIntoTheSameOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s1")
	os.Mkdir(dir, 0o755) // what a kill before the first checkpoint leaves
	args := []string{"simulate", "--games", "6000", "--shard", "1/2", "--out", dir, "--quiet", "--players", "3", "--seed", "7"}
	mustRun(t, 0, args...)
	before, _ := os.ReadFile(filepath.Join(dir, "stats.json"))
	out, stderr := mustRun(t, 0, args...)
	if !strings.Contains(stderr, "already complete") || !strings.Contains(out, "3,000 games") {
		t.Fatalf("rerun of a finished run: stderr %q stdout %q", stderr, out)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "stats.json")); string(after) != string(before) {
		t.Fatal("a finished run's stats.json was rewritten")
	}
	_, stderr = mustRun(t, 2, "simulate", "--games", "9000", "--shard", "1/2", "--out", dir, "--quiet", "--players", "4", "--seed", "8", "--set", "stack-draw-two=true")
	for _, want := range []string{"seed 7 vs 8", "players 3 vs 4", "option stack-draw-two false vs true", "games 6,000 vs 9,000", "--force"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("refusal %q does not say %q", stderr, want)
		}
	}
	_, stderr = mustRun(t, 2, "simulate", "--games", "6000", "--shard", "0/2", "--out", dir, "--quiet", "--players", "3", "--seed", "7")
	if !strings.Contains(stderr, "shard 1/2 vs 0/2") {
		t.Errorf("another shard: %q", stderr)
	}
	mustRun(t, 0, "simulate", "--games", "2000", "--out", dir, "--quiet", "--force")
	var rec sim.StatsFile
	sim.ReadRecord(dir, &rec)
	if rec.Identity.Games != 2000 || !rec.Complete {
		t.Fatalf("--force: %d games, complete %v", rec.Identity.Games, rec.Complete)
	}
	if rec.Producer.Build == "" || rec.Producer.GoVersion == "" || rec.Producer.Version != version {
		t.Fatalf("stats.json does not name its producer: %+v", rec.Producer)
	}
	var sum struct{ Producer sim.Producer }
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if json.Unmarshal(data, &sum); sum.Producer != rec.Producer {
		t.Fatalf("summary.json names %+v, stats.json %+v", sum.Producer, rec.Producer)
	}
}

// --progress json writes one JSON object per line on stderr.
func TestProgressJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	_, stderr := mustRun(t, 0, "simulate", "--games", "3000", "--shard", "0/3", "--out", dir, "--progress", "json", "--progress-every", "1ms", "--workers", "1")
	n := 0
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		for _, k := range []string{"time", "shard", "games_done", "games_total", "games_per_second", "seconds_left"} {
			if _, ok := l[k]; !ok {
				t.Fatalf("line %q lacks %s", sc.Text(), k)
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("no progress line")
	}
	mustRun(t, 2, "simulate", "--progress", "xml")
	mustRun(t, 2, "simulate", "--force")
	mustRun(t, 2, "simulate", "--checkpoint-every", "soon", "--out", filepath.Join(t.TempDir(), "x"))
}

// merge lists every problem at once: an incomplete shard, another run's,
// an empty directory, a damaged record and a missing index; shards
// shows them as a table.
func TestMergeReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"simulate", "--games", "8000", "--quiet", "--players", "3", "--seed", "7"}
	mustRun(t, 0, append(base, "--shard", "0/5", "--out", d("s0"))...)
	// Shard 1 stopped before it played anything: a checkpoint of no games.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code, _, stderr := unosimCtx(t, ctx, append(base, "--shard", "1/5", "--out", d("s1"))...); code != exitInterrupted {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mustRun(t, 0, "simulate", "--games", "8000", "--quiet", "--players", "3", "--seed", "8", "--shard", "2/5", "--out", d("s2"))
	os.Mkdir(d("s3"), 0o755) // killed before its first checkpoint
	mustRun(t, 0, append(base, "--shard", "4/5", "--out", d("s4"))...)
	tamper(t, d("s4"), func(st map[string]any) { st["games"] = -1 })
	_, stderr := mustRun(t, 2, "merge", d("s0"), d("s1"), d("s2"), d("s3"), d("s4"), "--out", d("all"))
	for _, want := range []string{
		"s1 (shard 1/5): incomplete: games [1600, 1600) of [1600, 3200)",
		"s2 (shard 2/5): foreign: another run: seed 8 vs 7",
		"s3: empty: no stats.json: nothing done",
		"s4: damaged: " + filepath.Join(d("s4"), "stats.json"),
		"shards 2/5, 3/5, 4/5: no directory of this run holds them",
		"5 problems",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merge refusal lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "no such file") {
		t.Errorf("merge says %q", stderr)
	}
	out, _ := mustRun(t, 0, "shards", d("s0"), d("s1"), d("s2"), d("s3"), d("s4"), d("s5"))
	for _, want := range []string{"complete", "partial", "foreign", "empty", "damaged", "missing", "not ready to merge"} {
		if !strings.Contains(out, want) {
			t.Errorf("shards table lacks %q:\n%s", want, out)
		}
	}
	out, _ = mustRun(t, 0, "shards", "--json", d("s0"), d("s1"))
	var sv sim.Survey
	if err := json.Unmarshal([]byte(out), &sv); err != nil || sv.Ready || len(sv.Shards) != 2 || sv.Shards[1].State != "partial" || len(sv.Missing) != 3 {
		t.Fatalf("shards --json: %v %+v", err, sv)
	}
}

// A file among merge's directories is named as a file, not as a damaged
// shard or as stat's "not a directory"; so is a path under a file.
func TestMergeFileArgument(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, 0, "simulate", "--games", "20", "--quiet", "--workers", "1", "--out", d("A"))
	if err := os.WriteFile(d("afile"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr := mustRun(t, 2, "merge", d("A"), d("afile"), filepath.Join(d("afile"), "s1"), "--out", d("M"))
	for _, want := range []string{
		d("afile") + " is a file, not a run's output directory",
		filepath.Join(d("afile"), "s1") + ": missing: no such directory (" + d("afile") + " is a file)",
		"2 problems",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merge refusal lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "damaged") || strings.Contains(stderr, ": not a directory") {
		t.Errorf("merge says:\n%s", stderr)
	}
	if fileExists(d("M")) {
		t.Error("a refused merge left its --out")
	}
	if _, stderr := mustRun(t, 2, "report", d("afile")); !strings.Contains(stderr, "report "+d("afile")+": a file, not a run's output directory") {
		t.Errorf("report of a file: %s", stderr)
	}
	out, _ := mustRun(t, 0, "shards", d("A"), d("afile"))
	if !strings.Contains(out, "a file, not a run's output directory") {
		t.Errorf("shards table:\n%s", out)
	}
}

// shards counts in words: "1 directory", "1 shard", never "1 directories".
func TestShardsSingular(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, 0, "simulate", "--games", "20", "--quiet", "--workers", "1", "--shard", "0/2", "--out", d("s0"))
	out, _ := mustRun(t, 0, "shards", d("s0"))
	if want := "1 directory of a run in 2 shards: 1 complete; no directory of this run holds shard 1\n"; !strings.Contains(out, want) {
		t.Errorf("shards of one of two shards: want %q in\n%s", want, out)
	}
	mustRun(t, 0, "simulate", "--games", "20", "--quiet", "--workers", "1", "--out", d("one"))
	out, _ = mustRun(t, 0, "shards", d("one"))
	if strings.Contains(out, "1 directories") || !strings.Contains(out, "1 directory") {
		t.Errorf("shards of one run:\n%s", out)
	}
}

// tamper edits the "stats" object of dir's stats.json.
func tamper(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "stats.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m["stats"].(map[string]any))
	data, _ = json.Marshal(m)
	os.WriteFile(path, data, 0o644)
}

// merge refuses a tampered record of each kind, naming the file and the
// inconsistency.
func TestMergeRefusesTamperedRecords(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	mustRun(t, 0, "simulate", "--games", "2000", "--shard", "0/2", "--out", a, "--quiet", "--players", "3")
	clean, _ := os.ReadFile(filepath.Join(a, "stats.json"))
	mustRun(t, 0, "simulate", "--games", "2000", "--shard", "1/2", "--out", b, "--quiet", "--players", "3")
	mustRun(t, 0, "merge", a, b, "--out", filepath.Join(dir, "ok"))
	n := func(v any) float64 { return v.(float64) }
	for _, c := range []struct {
		name string
		edit func(st map[string]any)
		want string
	}{
		{"negative count", func(st map[string]any) { st["blocked"] = -3.0; st["finished"] = n(st["finished"]) + 3 }, "blocked is negative (-3)"},
		{"wins beyond games", func(st map[string]any) {
			st["wins_by_seat"].([]any)[0] = n(st["wins_by_seat"].([]any)[0]) + 11111*1000
			st["wins_by_position"].([]any)[0] = n(st["wins_by_position"].([]any)[0]) + 11111*1000
		}, "more than the 1000 finished games"},
		{"histogram", func(st map[string]any) {
			c := st["turns"].(map[string]any)["Counts"].([]any)
			c[len(c)-1] = n(c[len(c)-1]) + 5
		}, "the turns histogram holds 1005 games, not the 1000"},
		{"per-seat totals", func(st map[string]any) { st["wins_by_position"].([]any)[1] = n(st["wins_by_position"].([]any)[1]) - 1 }, "wins by seat sum to"},
		{"per-strategy totals", func(st map[string]any) { st["wins_by_strategy"] = []any{1.0, 2.0} }, "one entry per seat"},
		{"games vs range", func(st map[string]any) { st["games"] = 999.0 }, "holds 1000 games, but the counts are of 999"},
	} {
		os.WriteFile(filepath.Join(a, "stats.json"), clean, 0o644)
		tamper(t, a, c.edit)
		_, stderr := mustRun(t, 2, "merge", a, b, "--out", filepath.Join(dir, "m"))
		if !strings.Contains(stderr, filepath.Join(a, "stats.json")) || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: refusal %q lacks the file or %q", c.name, stderr, c.want)
		}
	}
}

// Shards of two builds merge only when told to, and the record lists both.
func TestMergeMixedBuilds(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	mustRun(t, 0, "simulate", "--games", "2000", "--shard", "0/2", "--out", a, "--quiet")
	t.Setenv(sim.FakeBuildEnv, "vcs:0123456789abcdef-other")
	mustRun(t, 0, "simulate", "--games", "2000", "--shard", "1/2", "--out", b, "--quiet")
	os.Unsetenv(sim.FakeBuildEnv)
	this := sim.ThisBuild(version).Build
	_, stderr := mustRun(t, 2, "merge", a, b, "--out", filepath.Join(dir, "m"))
	for _, want := range []string{"2 different builds", this, "vcs:0123456789abcdef-other", "--allow-mixed-builds"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("refusal %q lacks %q", stderr, want)
		}
	}
	m := filepath.Join(dir, "m")
	mustRun(t, 0, "merge", filepath.Join(dir, "[ab]"), "--out", m, "--allow-mixed-builds") // a pattern, as without a shell
	var rec sim.StatsFile
	sim.ReadRecord(m, &rec)
	if len(rec.MixedBuilds) != 2 || rec.Producer.Build != this {
		t.Fatalf("merged record: producer %+v, mixed %+v", rec.Producer, rec.MixedBuilds)
	}
	// A rerun of the merge rewrites the same result; a shard is no --out.
	mustRun(t, 0, "merge", a, b, "--out", m, "--allow-mixed-builds")
	mustRun(t, 2, "merge", a, b, "--out", a, "--allow-mixed-builds")
	// A checkpoint of another build is not resumed.
	c := filepath.Join(dir, "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	unosimCtx(t, ctx, "simulate", "--games", "2000", "--out", c, "--quiet")
	t.Setenv(sim.FakeBuildEnv, "vcs:feed")
	if _, stderr := mustRun(t, 2, "simulate", "--games", "2000", "--out", c, "--quiet"); !strings.Contains(stderr, "vcs:feed") {
		t.Errorf("resume by another build: %q", stderr)
	}
}

// A full disk: whatever write fails, the run exits 1 and leaves nothing
// that looks complete; the data written first survives and a rerun or
// 'unosim report' completes the rest.
func TestWriteFailuresLeaveNothingCompleteLooking(t *testing.T) {
	dir := t.TempDir()
	// simulate: the first stats.json fails: no directory is left.
	s := filepath.Join(dir, "s")
	t.Setenv(sim.FaultEnv, "stats.json")
	if _, stderr := mustRun(t, 1, "simulate", "--games", "3000", "--out", s, "--quiet"); !strings.Contains(stderr, "no space left") {
		t.Errorf("stderr %q", stderr)
	}
	if _, err := os.Stat(s); err == nil {
		t.Error("a failed run left its directory")
	}
	// simulate: the disk fills at the second checkpoint: the first stays,
	// marked incomplete, and no temporary file is left.
	t.Setenv(sim.FaultEnv, "stats.json@2")
	mustRun(t, 1, "simulate", "--games", "3000", "--out", s, "--quiet", "--checkpoint-every", "600", "--workers", "1")
	assertIncomplete(t, s, "summary.json")
	entries, _ := os.ReadDir(s)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
	// summary.json fails after the final stats.json: the rerun finds the
	// run complete and writes the summaries.
	t.Setenv(sim.FaultEnv, "summary.json")
	mustRun(t, 1, "simulate", "--games", "3000", "--out", s, "--quiet", "--checkpoint-every", "0")
	os.Unsetenv(sim.FaultEnv)
	assertIncomplete(t, s, "summary.json") // the checkpoint's, not a complete-looking one
	mustRun(t, 0, "simulate", "--games", "3000", "--out", s, "--quiet")
	if data, _ := os.ReadFile(filepath.Join(s, "summary.json")); !strings.Contains(string(data), `"complete": true`) {
		t.Error("the rerun did not complete the summaries")
	}

	// experiment run: the plots fail: stats.json and a manifest saying
	// the report is missing; no report.md. 'unosim report' renders it.
	good := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(good, []byte(tinyExperiment), 0o644)
	e := filepath.Join(dir, "e")
	t.Setenv(sim.FaultEnv, "plots")
	mustRun(t, 1, "experiment", "run", good, "--out", e, "--quiet")
	os.Unsetenv(sim.FaultEnv)
	if !fileExists(filepath.Join(e, "stats.json")) || fileExists(filepath.Join(e, "report.md")) {
		t.Fatal("want stats.json and no report.md after the plots failed")
	}
	m, _ := os.ReadFile(filepath.Join(e, "manifest.json"))
	if !strings.Contains(string(m), `"rendered": false`) {
		t.Errorf("manifest does not say the report is missing: %s", m)
	}
	out, _ := mustRun(t, 0, "report", e)
	if !strings.Contains(out, "rendered") || !fileExists(filepath.Join(e, "report.md")) {
		t.Fatalf("report: %q", out)
	}
	// experiment run: stats.json fails: nothing is left.
	e2 := filepath.Join(dir, "e2")
	t.Setenv(sim.FaultEnv, "stats.json")
	mustRun(t, 1, "experiment", "run", good, "--out", e2, "--quiet")
	if _, err := os.Stat(e2); err == nil {
		t.Error("a failed experiment left its directory")
	}
	// experiment run: report.md fails: the rerun renders it.
	t.Setenv(sim.FaultEnv, "report.md")
	mustRun(t, 1, "experiment", "run", good, "--out", e2, "--quiet")
	os.Unsetenv(sim.FaultEnv)
	if fileExists(filepath.Join(e2, "report.md")) {
		t.Fatal("report.md written despite the failure")
	}
	_, stderr := mustRun(t, 0, "experiment", "run", good, "--out", e2, "--quiet")
	if !strings.Contains(stderr, "already complete") || !fileExists(filepath.Join(e2, "report.md")) {
		t.Fatalf("rerun: %q", stderr)
	}
	// simulate's report re-renders the summaries.
	os.Remove(filepath.Join(s, "summary.csv"))
	mustRun(t, 0, "report", s)
	if !fileExists(filepath.Join(s, "summary.csv")) {
		t.Fatal("report did not write summary.csv")
	}
}

func assertIncomplete(t *testing.T, dir, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || !strings.Contains(string(data), `"complete": false`) {
		t.Fatalf("%s: %v, not marked incomplete", name, err)
	}
}

// An interrupted experiment shard records the range it played, says so in
// every cell, and its report says it is one incomplete shard; the rerun
// resumes it to the uninterrupted result.
func TestExperimentShardResume(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(good, []byte(tinyExperiment), 0o644)
	whole := filepath.Join(dir, "whole")
	mustRun(t, 0, "experiment", "run", good, "--out", whole, "--quiet", "--shard", "1/2")
	sh := filepath.Join(dir, "s1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code, _, stderr := unosimCtx(t, ctx, "experiment", "run", good, "--out", sh, "--quiet", "--shard", "1/2"); code != exitInterrupted {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(sh, "stats.json"))
	var rec struct {
		GameRange [2]int64 `json:"game_range"`
		Planned   [2]int64 `json:"planned_range"`
		Cells     []struct{ Stop string }
	}
	json.Unmarshal(data, &rec)
	if rec.GameRange != [2]int64{600, 600} || rec.Planned != [2]int64{600, 1200} || !strings.Contains(rec.Cells[0].Stop, "interrupted") {
		t.Fatalf("interrupted shard records %v of %v, stop %q", rec.GameRange, rec.Planned, rec.Cells[0].Stop)
	}
	report, _ := os.ReadFile(filepath.Join(sh, "report.md"))
	if !strings.Contains(string(report), "INCOMPLETE") || !strings.Contains(string(report), "ONE SHARD (1/2)") {
		t.Fatalf("report.md lacks the banners:\n%s", report)
	}
	_, stderr := mustRun(t, 0, "experiment", "run", good, "--out", sh, "--quiet", "--shard", "1/2", "--checkpoint-every", "100")
	if !strings.Contains(stderr, "resuming") {
		t.Errorf("stderr %q", stderr)
	}
	if statsOf(t, sh) != statsOf(t, whole) {
		t.Fatal("the resumed experiment shard differs from the uninterrupted one")
	}
}
