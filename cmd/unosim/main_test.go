package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/engine"
)

// unosim runs the command in-process and returns its exit code and output.
func unosim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return unosimCtx(t, context.Background(), args...)
}

func unosimCtx(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestSimulateJSONKeys(t *testing.T) {
	code, out, stderr := unosim(t, "simulate", "--games", "3000", "--json", "--quiet", "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"games", "finished", "unfinished", "seed", "rules", "players", "options", "strategies",
		"turns", "win_rate_by_seat", "win_ci_by_seat", "cards_drawn", "games_per_second", "complete"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %s missing", k)
		}
	}
	turns := m["turns"].(map[string]any)
	for _, k := range []string{"mean", "sd", "p50", "p90"} {
		if _, ok := turns[k]; !ok {
			t.Errorf("turns.%s missing", k)
		}
	}
	if _, ok := m["cards_drawn"].(map[string]any)["mean"]; !ok {
		t.Error("cards_drawn.mean missing")
	}
	for _, k := range []string{"turns", "cards_played", "cards_drawn"} {
		n := 0.0
		for _, b := range m[k].(map[string]any)["histogram"].([]any) {
			n += b.(map[string]any)["count"].(float64)
		}
		if n != 3000 {
			t.Errorf("%s histogram holds %v games, want 3000", k, n)
		}
	}
	if m["games"].(float64) != 3000 || m["seed"].(float64) != 5 || m["rules"] != "classic" || m["players"].(float64) != 4 {
		t.Errorf("games %v seed %v rules %v players %v", m["games"], m["seed"], m["rules"], m["players"])
	}
	if opts := m["options"].(map[string]any); len(opts) != len(engine.OptionNames()) {
		t.Errorf("%d options, want every one (%d)", len(opts), len(engine.OptionNames()))
	}
	rates := m["win_rate_by_seat"].([]any)
	cis := m["win_ci_by_seat"].([]any)
	sum := 0.0
	for i, r := range rates {
		sum += r.(float64)
		ci := cis[i].([]any)
		if lo, hi := ci[0].(float64), ci[1].(float64); !(lo <= r.(float64) && r.(float64) <= hi) {
			t.Errorf("seat %d: rate %v outside its interval %v", i, r, ci)
		}
	}
	if len(rates) != 4 || sum < 0.99 || sum > 1.0001 {
		t.Errorf("win rates %v sum to %v", rates, sum)
	}
}

func TestSimulateTable(t *testing.T) {
	code, out, _ := unosim(t, "simulate", "--games", "2000", "--players", "3", "--strategy", "random", "--quiet")
	if code != 0 || !strings.Contains(out, "win rate") || !strings.Contains(out, "turns per game") || !strings.Contains(out, "2,000 games") {
		t.Fatalf("exit %d, table:\n%s", code, out)
	}
}

func TestBadInputExitsTwoBeforeWork(t *testing.T) {
	existing := t.TempDir()
	os.WriteFile(filepath.Join(existing, "notes.txt"), nil, 0o644) // not a run's directory
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--rules", "poker"}, "valid: classic, encanto, party"},
		{[]string{"simulate", "--set", "colour=red"}, "unknown option \"colour\""},
		{[]string{"simulate", "--set", "draw=three"}, "valid: one, until-playable"},
		{[]string{"simulate", "--set", "hand-size"}, "want option=value"},
		{[]string{"simulate", "--strategy", "genius"}, "valid: random, heuristic"},
		{[]string{"simulate", "--strategy", "heuristic:bluf=0.3"}, "valid: bluff"},
		{[]string{"simulate", "--strategy", "heuristic:bluff=2"}, "a number from 0 to 1"},
		{[]string{"simulate", "--players", "11"}, "valid: 2 to 10"},
		{[]string{"simulate", "--players", "1"}, "valid: 2 to 10"},
		{[]string{"simulate", "--rules", "party", "--players", "17"}, "valid: 2 to 16"},
		{[]string{"simulate", "--games", "0"}, `--games "0": want a number of games from 1 to 1,000,000,000,000,000`},
		{[]string{"simulate", "--set", "stack-draw-two=true", "--set", "deflect-draw-two=true"}, "stack-draw-two=true and deflect-draw-two=true"},
		{[]string{"simulate", "--out", existing}, "not a unosim run's"},
		{[]string{"simulate", "--out", "/proc/unosim/out"}, "cannot be created"},
		{[]string{"simulate", "--shard", "3/3", "--out", filepath.Join(existing, "x")}, "0 <= i < n"},
		{[]string{"simulate", "--shard", "0/3"}, "needs --out"},
		{[]string{"simulate", "--strategy", "random", "--strategy", "random", "--players", "3"}, "once per seat"},
		{[]string{"simulate", "--seats", "shuffled"}, "valid: fixed, rotate"},
		{[]string{"simulate", "--nonsense"}, "unknown flag"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"merge", existing}, "needs --out"},
		{[]string{"replay", "--game", "-1"}, `--game "-1": want a game index from 0`},
		{[]string{"experiment", "foo"}, `unknown command "foo"`},
		{[]string{"experiment"}, "run, validate, list or show"},
		{[]string{"completion", "foo"}, `unknown command "foo"`},
		{[]string{"experiment", "run", "house-rules", "--games", "2", "--shard", "0/4", "--out", filepath.Join(existing, "x")}, "holds no game"},
		{[]string{"experiment", "run", "house-rules", "--ci-width", "NaN", "--out", filepath.Join(existing, "x")}, "ci-width"},
		{[]string{"simulate", "--cpuprofile", "/nonexistent/cpu.prof", "--out", filepath.Join(existing, "x")}, "--cpuprofile"},
	} {
		code, out, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and %q", c.args, code, stderr, out, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(existing, "x")); err == nil {
		t.Error("a refused run created its output directory")
	}
}

func TestOutAndShardsMerge(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	code, _, stderr := unosim(t, "simulate", "--games", "4000", "--quiet", "--out", whole, "--strategy", "heuristic:forget=0.3", "--players", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"summary.json", "summary.csv", "stats.json"} {
		if st, err := os.Stat(filepath.Join(whole, f)); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	entries, _ := os.ReadDir(whole)
	if len(entries) != 3 {
		t.Fatalf("output directory holds %d entries, want exactly the 3 files", len(entries))
	}
	var shards []string
	for i := range 3 {
		d := filepath.Join(dir, "shard"+string(rune('0'+i)))
		code, _, stderr := unosim(t, "simulate", "--games", "4000", "--quiet", "--out", d, "--shard", string(rune('0'+i))+"/3", "--strategy", "heuristic:forget=0.3", "--players", "5")
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(dir, "merged")
	code, _, stderr = unosim(t, append(append([]string{"merge"}, shards...), "--out", merged)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	a := readSummary(t, filepath.Join(whole, "summary.json"))
	b := readSummary(t, filepath.Join(merged, "summary.json"))
	if a != b {
		t.Fatalf("merged summary differs from the single run:\n%s\n%s", a, b)
	}
	// Merging a shard twice, or a lone shard, is refused.
	code, _, stderr = unosim(t, "merge", shards[0], shards[0], shards[1], shards[2], "--out", filepath.Join(dir, "m2"))
	if code != exitUsage || !strings.Contains(stderr, "overlaps") {
		t.Fatalf("overlapping merge: exit %d %s", code, stderr)
	}
}

// readSummary reads a summary.json without its timing fields.
func readSummary(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "elapsed_seconds")
	delete(m, "games_per_second")
	delete(m, "workers")
	out, _ := json.Marshal(m)
	return string(out)
}

func TestInterruptWritesIncomplete(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	dir := filepath.Join(t.TempDir(), "out")
	code, out, stderr := unosimCtx(t, ctx, "simulate", "--games", "1000000000000", "--out", dir, "--quiet")
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, exitInterrupted, stderr)
	}
	if !strings.Contains(out, "INCOMPLETE") || !strings.Contains(stderr, "interrupted") {
		t.Fatalf("stdout %q stderr %q", out, stderr)
	}
	var m map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(data, &m); err != nil || m["complete"] != false || m["games"].(float64) <= 0 {
		t.Fatalf("summary.json: %v complete=%v games=%v", err, m["complete"], m["games"])
	}
}

func TestRulesStrategiesVersion(t *testing.T) {
	code, out, _ := unosim(t, "rules")
	if code != 0 {
		t.Fatalf("rules exit %d", code)
	}
	for _, name := range engine.OptionNames() {
		if !strings.Contains(out, name) {
			t.Errorf("rules does not list %s", name)
		}
	}
	if !strings.Contains(out, "no-color-match-or-wild") || !strings.Contains(out, "flip-until-number") {
		t.Errorf("rules lacks per-rule-set defaults:\n%s", out)
	}
	code, out, _ = unosim(t, "rules", "--json")
	var l ruleListing
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil || len(l.Options) != len(engine.OptionNames()) || l.Options[1].Defaults["party"] != "party" {
		t.Fatalf("rules --json: exit %d %+v", code, l)
	}
	code, out, _ = unosim(t, "strategies")
	if code != 0 || !strings.Contains(out, "random") || !strings.Contains(out, "bluff") || !strings.Contains(out, "challenge") {
		t.Fatalf("strategies: exit %d\n%s", code, out)
	}
	code, out, _ = unosim(t, "version")
	if code != 0 || !strings.Contains(out, version) {
		t.Fatalf("version: exit %d %q", code, out)
	}
	code, out, _ = unosim(t, "completion", "bash")
	if code != 0 || !strings.Contains(out, "unosim") {
		t.Fatalf("completion: exit %d", code)
	}
}

// replay prints the very game the simulation played.
func TestReplayMatchesSimulation(t *testing.T) {
	code, out, stderr := unosim(t, "replay", "--seed", "4", "--game", "17", "--players", "3", "--strategy", "random", "--seats", "rotate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "turn 1: seat") || !strings.Contains(out, "result: finished") {
		t.Fatalf("replay output:\n%s", out)
	}
	// The same game through the simulator's own table.
	f := configFlags{rules: "classic", players: 3, strategies: []string{"random"}, seats: "rotate", seed: 4}
	cfg, err := f.build()
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.GameFor(17)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Play(4, 17)
	if !strings.Contains(out, "after 1 rounds and "+strconv.Itoa(r.Turns)+" turns") {
		t.Fatalf("replay does not show the simulated game (%d turns):\n%s", r.Turns, out)
	}
}

// Runs too small for some statistics still write valid JSON (null where a
// statistic needs more games).
func TestTinyRuns(t *testing.T) {
	code, out, stderr := unosim(t, "simulate", "--games", "1", "--json", "--quiet")
	var m map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
		t.Fatalf("exit %d, %s\n%s", code, stderr, out)
	}
	if sd := m["turns"].(map[string]any)["sd"]; sd != nil {
		t.Errorf("the standard deviation of one game is %v, want null", sd)
	}
	dir := filepath.Join(t.TempDir(), "out")
	code, _, stderr = unosim(t, "simulate", "--games", "3", "--set", "max-turns=1", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("max-turns=1: exit %d %s", code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if json.Unmarshal(data, &m) != nil || m["unfinished"].(float64) != 3 {
		t.Fatalf("summary.json: %s", data)
	}
}

// merge refuses a damaged stats.json with a message, not a panic.
func TestMergeDamagedStats(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for i, d := range []string{a, b} {
		code, _, stderr := unosim(t, "simulate", "--games", "1000", "--shard", strconv.Itoa(i)+"/2", "--out", d, "--quiet", "--players", "3")
		if code != 0 {
			t.Fatal(stderr)
		}
	}
	data, _ := os.ReadFile(filepath.Join(b, "stats.json"))
	var m map[string]any
	json.Unmarshal(data, &m)
	m["stats"].(map[string]any)["wins_by_seat"] = []int{1}
	data, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(b, "stats.json"), data, 0o644)
	code, _, stderr := unosim(t, "merge", a, b, "--out", filepath.Join(dir, "m"))
	if code != exitUsage || !strings.Contains(stderr, "one entry per seat") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
