package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinyExperiment = `name: tiny
seed: 3
games: 1200
grids:
  - players: [2]
    options:
      official: {}
      deflect: {deflect-draw-two: true}
compare:
  - axis: options
    baseline: official
`

func TestExperimentRunValidateListMerge(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(file, []byte(tinyExperiment), 0o644)

	code, out, stderr := unosim(t, "experiment", "validate", file)
	if code != 0 || !strings.Contains(out, "2 cells, 1 paired comparisons") {
		t.Fatalf("validate: exit %d %q %q", code, out, stderr)
	}
	code, out, _ = unosim(t, "experiment", "list")
	for _, n := range []string{"player-count", "house-rules", "bluff-challenge", "strategy-tournament"} {
		if code != 0 || !strings.Contains(out, n) {
			t.Fatalf("list lacks %s: %s", n, out)
		}
	}
	whole := filepath.Join(dir, "whole")
	code, out, stderr = unosim(t, "experiment", "run", file, "--out", whole, "--quiet")
	if code != 0 || !strings.Contains(out, "report: ") {
		t.Fatalf("run: exit %d %q %q", code, out, stderr)
	}
	for _, f := range []string{"manifest.json", "stats.json", "summary.csv", "report.md", "plots/first-player.png", "plots/first-player.svg"} {
		if _, err := os.Stat(filepath.Join(whole, f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var shards []string
	for i := range 2 {
		d := filepath.Join(dir, "shard"+string(rune('0'+i)))
		code, _, stderr := unosim(t, "experiment", "run", file, "--out", d, "--quiet", "--shard", string(rune('0'+i))+"/2")
		if code != 0 {
			t.Fatalf("shard %d: exit %d %s", i, code, stderr)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(dir, "merged")
	code, _, stderr = unosim(t, "merge", shards[0], shards[1], "--out", merged)
	if code != 0 {
		t.Fatalf("merge: exit %d %s", code, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(whole, "summary.csv"))
	b, _ := os.ReadFile(filepath.Join(merged, "summary.csv"))
	if string(a) != string(b) {
		t.Fatalf("merged summary.csv differs from the single run:\n%s\n%s", a, b)
	}
	// A built-in by name, with --games and --seed overrides.
	code, out, stderr = unosim(t, "experiment", "run", "strategy-tournament", "--games", "300", "--seed", "5", "--out", filepath.Join(dir, "st"), "--quiet")
	if code != 0 || !strings.Contains(out, "round robin of 6 strategies, 2 players, 300 games a pair on duplicate deals (seed 5)") {
		t.Fatalf("built-in: exit %d %q %q", code, out, stderr)
	}
}

func TestExperimentBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\ngames: 10\ngrids:\n  - players: [2]\n    optionz: {}\n"), 0o644)
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte(tinyExperiment), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"experiment", "validate", bad}, bad + `:5: unknown key "optionz"`},
		{[]string{"experiment", "run", bad, "--out", filepath.Join(dir, "o1")}, `unknown key "optionz"`},
		{[]string{"experiment", "run", "no-such-experiment", "--out", filepath.Join(dir, "o2")}, "built-in: bluff-challenge, house-rules, player-count, strategy-tournament"},
		{[]string{"experiment", "run", good}, "needs --out"},
		{[]string{"experiment", "run", good, "--out", dir}, "not a unosim run's"},
		{[]string{"experiment", "run", good, "--out", filepath.Join(dir, "o3"), "--games", "0"}, "from 1 to"},
		{[]string{"experiment", "run", good, "--out", filepath.Join(dir, "o4"), "--ci-width", "1", "--shard", "0/2"}, "cannot be combined"},
		{[]string{"experiment", "run", good, "--out", filepath.Join(dir, "o5"), "--shard", "2/2"}, "0 <= i < n"},
	} {
		code, out, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	for _, o := range []string{"o1", "o2", "o3", "o4", "o5"} {
		if _, err := os.Stat(filepath.Join(dir, o)); err == nil {
			t.Errorf("a refused run created %s", o)
		}
	}
}
