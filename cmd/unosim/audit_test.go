package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// merge --out refuses a directory that holds a run's record (not an
// earlier merge), and one of its shards however it is spelled.
func TestMergeOutRefusesRunsAndShards(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"simulate", "--games", "400", "--quiet", "--players", "3", "--seed", "7"}
	mustRun(t, 0, append(base, "--shard", "0/2", "--out", d("s0"))...)
	mustRun(t, 0, append(base, "--shard", "1/2", "--out", d("s1"))...)
	mustRun(t, 0, "simulate", "--games", "400", "--quiet", "--players", "3", "--seed", "9", "--out", d("other"))
	_, stderr := mustRun(t, 2, "merge", d("s0"), d("s1"), "--out", d("other"))
	if !strings.Contains(stderr, "holds a run's record, not a merge") {
		t.Errorf("merge into a run's directory: %s", stderr)
	}
	t.Chdir(dir)
	_, stderr = mustRun(t, 2, "merge", "s0", "s1", "--out", d("s0"))
	if !strings.Contains(stderr, "is one of the shards") {
		t.Errorf("merge into a shard named by another path: %s", stderr)
	}
}

// Defaults the README states outside its table of simulate's flags:
// "--checkpoint-every ... (default `30s`...)" and "--batch (default
// 10,000)".
func TestSimulateCheckpointAndBatchDefaults(t *testing.T) {
	cmd := newSimulateCmd(&app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	for name, want := range map[string]string{"checkpoint-every": "30s", "batch": "10000"} {
		if f := cmd.Flags().Lookup(name); f == nil || f.DefValue != want {
			t.Errorf("--%s: flag %v, want default %q", name, f, want)
		}
	}
}

// --quiet means --progress none unless --progress is given: an explicit
// --progress json still prints its lines.
func TestQuietYieldsToExplicitProgress(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, stderr := mustRun(t, 0, "simulate", "--games", "2000", "--players", "3", "--quiet", "--progress", "json", "--out", out)
	if !strings.Contains(stderr, `"games_done"`) {
		t.Errorf("--quiet --progress json printed no progress line:\n%s", stderr)
	}
}

// The max-turns warning gives the share of capped games in percent: 25 of
// 1,000 games is 2.5%.
func TestTurnCapWarningPercent(t *testing.T) {
	s := &sim.Summary{UnfinishedTurnCap: 25}
	s.Games = 1000
	s.Options = map[string]string{"max-turns": "100"}
	w := summaryWarnings(s)
	if len(w) != 1 || !strings.Contains(w[0], "25 games of 1,000 (2.5%) stopped at max-turns=100") {
		t.Errorf("warnings %q, want 25 games of 1,000 (2.5%%)", w)
	}
}

// A shard of another split (2/3 among shards of 2) is named as such,
// whichever split is larger.
func TestMergeNamesAShardOfAnotherSplit(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"simulate", "--games", "600", "--quiet", "--players", "3", "--seed", "7"}
	mustRun(t, 0, append(base, "--shard", "0/2", "--out", d("a"))...)
	mustRun(t, 0, append(base, "--shard", "1/2", "--out", d("b"))...)
	mustRun(t, 0, append(base, "--shard", "2/3", "--out", d("c"))...)
	_, stderr := mustRun(t, 2, "merge", d("a"), d("b"), d("c"), "--out", d("all"))
	if !strings.Contains(stderr, "shard 2/3, but the others are shards of 2") {
		t.Errorf("merge of shards of 2 and one of 3:\n%s", stderr)
	}
}

// merge --out rewrites an earlier merge of the same run only: the merge of
// another run (another seed, or an experiment's) is refused, where it was
// overwritten (an experiment's report.md and manifest.json were left
// beside the simulate record).
func TestMergeOutRefusesAnotherRunsMerge(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	for _, seed := range []string{"1", "2"} {
		for i := range 2 {
			mustRun(t, 0, "simulate", "--games", "20", "--seed", seed, "--workers", "1", "--quiet", "--shard", strconv.Itoa(i)+"/2", "--out", d("s"+seed+"-"+strconv.Itoa(i)))
		}
	}
	mustRun(t, 0, "merge", d("s1-0"), d("s1-1"), "--out", d("all"))
	mustRun(t, 0, "merge", d("s1-0"), d("s1-1"), "--out", d("all")) // the same run: rewritten
	_, stderr := mustRun(t, 2, "merge", d("s2-0"), d("s2-1"), "--out", d("all"))
	if !strings.Contains(stderr, "holds the merge of another run: seed 1 vs 2 (there vs here)") {
		t.Errorf("merge into another seed's merge: %s", stderr)
	}
	file := filepath.Join(dir, "e.yaml")
	os.WriteFile(file, []byte("name: e\ngames: 20\ngrids:\n  - players: [2]\n"), 0o644)
	for i := range 2 {
		mustRun(t, 0, "experiment", "run", file, "--workers", "1", "--quiet", "--shard", strconv.Itoa(i)+"/2", "--out", d("e"+strconv.Itoa(i)))
	}
	mustRun(t, 0, "merge", d("e0"), d("e1"), "--out", d("eall"))
	_, stderr = mustRun(t, 2, "merge", d("s1-0"), d("s1-1"), "--out", d("eall"))
	if !strings.Contains(stderr, "holds the merge of another run: another kind of record") {
		t.Errorf("merge of simulate shards into an experiment's merge: %s", stderr)
	}
	if fileExists(d("eall/summary.json")) {
		t.Error("the refused merge wrote into the experiment's merge")
	}
}

// Two runs of the same command that differ only in --workers (and the
// time) write the same JSON but for the fields the README's "Timing
// fields" paragraph names, and a merge of shards differs from one run
// only in those and "shard".
func TestREADMENamesEveryTimingField(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i := strings.Index(readme, "**Timing fields.**")
	if i < 0 {
		t.Fatal(`the README has no "**Timing fields.**" paragraph`)
	}
	para := readme[i:]
	para = para[:strings.Index(para, "\n\n")]
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`\"?([a-z_]+)\"?[`:]").FindAllStringSubmatch(para, -1) {
		named[m[1]] = true
	}
	// differing collects the keys whose values differ between a and b.
	var differing func(path string, a, b any, out map[string]bool)
	differing = func(path string, a, b any, out map[string]bool) {
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		al, alok := a.([]any)
		bl, blok := b.([]any)
		switch {
		case aok && bok:
			for k, v := range am {
				if w, ok := bm[k]; ok {
					differing(k, v, w, out)
				} else {
					out[k] = true
				}
			}
			for k := range bm {
				if _, ok := am[k]; !ok {
					out[k] = true
				}
			}
		case alok && blok && len(al) == len(bl):
			for j := range al {
				differing(path, al[j], bl[j], out)
			}
		case !reflect.DeepEqual(a, b):
			out[path] = true
		}
	}
	check := func(what, a, b string, allowed ...string) {
		t.Helper()
		var x, y any
		if err := json.Unmarshal([]byte(a), &x); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := json.Unmarshal([]byte(b), &y); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		diff := map[string]bool{}
		differing("", x, y, diff)
		for k := range diff {
			if !named[k] && !slices.Contains(allowed, k) {
				t.Errorf("%s: %q differs between identical runs, and the README's timing fields do not name it", what, k)
			}
		}
	}
	file := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	both := func(args ...string) [2]string {
		var outs [2]string
		for w := range 2 {
			outs[w], _ = mustRun(t, 0, append(append([]string{}, args...), "--workers", strconv.Itoa(w+1))...)
		}
		return outs
	}
	for _, args := range [][]string{
		{"simulate", "--games", "300", "--players", "3", "--json", "--quiet"},
		{"compare", "--games", "300", "--set", "stack-draw-two=true", "--json", "--quiet"},
		{"match", "--games", "300", "--strategy", "counter", "--vs", "random", "--json", "--quiet"},
		{"match", "--games", "3000", "--strategy", "counter", "--vs", "random", "--sprt", "0.5:0.6", "--json", "--quiet"},
		{"tournament", "--games", "60", "--strategy", "random", "--strategy", "heuristic", "--json", "--quiet"},
	} {
		o := both(args...)
		check(strings.Join(args[:2], " "), o[0], o[1])
	}
	for w := range 2 {
		ws := strconv.Itoa(w + 1)
		mustRun(t, 0, "simulate", "--games", "300", "--players", "3", "--quiet", "--workers", ws, "--out", d("sim"+ws))
		mustRun(t, 0, "experiment", "run", "house-rules", "--games", "30", "--quiet", "--workers", ws, "--out", d("exp"+ws))
		mustRun(t, 0, "experiment", "run", "strategy-tournament", "--games", "20", "--quiet", "--no-plots", "--workers", ws, "--out", d("tour"+ws))
	}
	for _, f := range []string{"sim1/summary.json", "sim1/stats.json", "exp1/stats.json", "exp1/manifest.json", "tour1/tournament.json"} {
		check(f, file(d(f)), file(d(strings.Replace(f, "1/", "2/", 1))))
	}
	for i := range 2 {
		s := strconv.Itoa(i)
		mustRun(t, 0, "simulate", "--games", "300", "--players", "3", "--quiet", "--shard", s+"/2", "--out", d("simshard"+s))
		mustRun(t, 0, "experiment", "run", "house-rules", "--games", "30", "--quiet", "--shard", s+"/2", "--out", d("expshard"+s))
	}
	mustRun(t, 0, "merge", d("simshard0"), d("simshard1"), "--out", d("simmerged"))
	mustRun(t, 0, "merge", d("expshard0"), d("expshard1"), "--out", d("expmerged"))
	for _, f := range []string{"summary.json", "stats.json"} {
		check("merged "+f, file(d("sim1/"+f)), file(d("simmerged/"+f)), "shard")
	}
	for _, f := range []string{"stats.json", "manifest.json"} {
		check("merged experiment "+f, file(d("exp1/"+f)), file(d("expmerged/"+f)), "shard")
	}
	if !strings.Contains(para, "shard") {
		t.Error(`the README's timing fields do not say that a merge writes "shard": "merged"`)
	}
}
