package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/sim"
)

// summaryOf runs simulate --json and returns the summary without timing.
func summaryOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, stderr := unosim(t, append([]string{"simulate", "--json", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	for _, k := range []string{"elapsed_seconds", "games_per_second", "workers"} {
		delete(m, k)
	}
	return m
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Counts, indices and seeds are decimal: 010 is ten, never octal 8.
func TestNumbersAreDecimal(t *testing.T) {
	a := summaryOf(t, "--seed", "010", "--games", "0300", "--players", "03")
	b := summaryOf(t, "--seed", "10", "--games", "300", "--players", "3")
	if a["seed"].(float64) != 10 || a["games"].(float64) != 300 || a["players"].(float64) != 3 {
		t.Fatalf("--seed 010 --games 0300 --players 03 ran seed %v, %v games, %v players", a["seed"], a["games"], a["players"])
	}
	if jsonText(a) != jsonText(b) {
		t.Fatal("--seed 010 is not the run of --seed 10")
	}
	code, out, _ := unosim(t, "replay", "--seed", "1", "--game", "0042")
	if code != 0 || !strings.HasPrefix(out, "game 42 of seed 1:") {
		t.Fatalf("replay --game 0042: exit %d, %.40q", code, out)
	}
	code, out42, _ := unosim(t, "replay", "--seed", "1", "--game", "42")
	if code != 0 || out42 != out {
		t.Fatal("replay --game 0042 is not game 42")
	}
}

// Out-of-range and non-decimal numbers are refused with exit 2 and a
// message in the tool's words: the flag, what was given, what is wanted.
func TestBadNumbersMessages(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--games", "9223372036854775807"}, `--games "9223372036854775807": want a number of games from 1 to 1,000,000,000,000,000, in decimal digits`},
		{[]string{"simulate", "--games", "1e6"}, `--games "1e6": want a number of games from 1 to`},
		{[]string{"simulate", "--games", "0x10"}, `--games "0x10": want a number of games`},
		{[]string{"simulate", "--games", "-5"}, `--games "-5": want a number of games from 1`},
		{[]string{"simulate", "--games", "1_000"}, `--games "1_000"`},
		{[]string{"simulate", "--seed", "0x10"}, `--seed "0x10": want a seed from 0 to 18446744073709551615 (2^64-1), in decimal digits`},
		{[]string{"simulate", "--seed", "-1"}, `--seed "-1": want a seed from 0`},
		{[]string{"simulate", "--seed", "18446744073709551616"}, `--seed "18446744073709551616": want a seed`},
		{[]string{"simulate", "--players", "1e1"}, `--players "1e1": want a number of players: classic and encanto 2 to 10, party 2 to 16`},
		{[]string{"simulate", "--workers", "-3"}, `--workers "-3": want 0 (one per core) to 4096 workers`},
		{[]string{"simulate", "--workers", "1.5"}, `--workers "1.5": want 0 (one per core)`},
		{[]string{"simulate", "--json=maybe"}, `--json "maybe": want true or false`},
		{[]string{"replay", "--game", "0x2A"}, `--game "0x2A": want a game index from 0`},
		{[]string{"experiment", "run", "house-rules", "--out", "x", "--games", "0"}, `--games "0": want a number of games per cell from 1`},
		{[]string{"experiment", "run", "house-rules", "--out", "x", "--seed", "08x"}, `--seed "08x": want a seed`},
		{[]string{"experiment", "run", "house-rules", "--out", "x", "--ci-width", "wide"}, `--ci-width "wide": want a number`},
		{[]string{"experiment", "validate"}, "unosim experiment validate needs one experiment file or built-in name (see 'unosim experiment list'), got none"},
		{[]string{"experiment", "run", "a", "b", "--out", "x"}, "needs one experiment file or built-in name (see 'unosim experiment list'), got 2 arguments: a b"},
		{[]string{"merge", "--out", "x"}, "unosim merge needs the output directories of the shards to merge, got none"},
		{[]string{"simulate", "10000"}, `unosim simulate takes no arguments, got "10000"`},
	} {
		code, out, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		for _, leak := range []string{"strconv", "ParseInt", "invalid syntax", "arg(s)", "goroutine", "panic"} {
			if strings.Contains(stderr, leak) {
				t.Errorf("%v: the message leaks %q: %s", c.args, leak, stderr)
			}
		}
	}
}

// match, tournament and tune read their counts, seeds and the plots' --dpi
// in decimal as simulate does: --seed 010 is ten (not octal 8), hex and
// underscores are refused in the tool's words, and a count too large for
// the deals is refused before any work (it overflowed into "empty range").
func TestMatchTournamentTuneNumbersAreDecimal(t *testing.T) {
	m := matchJSON(t, "--strategy", "heuristic", "--vs", "random", "--games", "40", "--seed", "010", "--workers", "1")
	ten := matchJSON(t, "--strategy", "heuristic", "--vs", "random", "--games", "40", "--seed", "10", "--workers", "1")
	delete(m, "seconds")
	delete(ten, "seconds")
	if jsonText(m) != jsonText(ten) {
		t.Error("match --seed 010 is not the match of --seed 10")
	}
	out := filepath.Join(t.TempDir(), "x")
	// Small budgets, so that a flag read wrongly costs little.
	match := []string{"match", "--strategy", "random", "--vs", "heuristic", "--quiet", "--workers", "1", "--games", "40"}
	tour := []string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--quiet", "--workers", "1", "--games", "20"}
	tune := []string{"tune", "--param", "threshold=0:1", "--quiet", "--workers", "1", "--generations", "1", "--games", "16", "--confirm-games", "16", "--out", out}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(match, "--games", "0x10"), `--games "0x10": want a number of games from 1 to 1,000,000,000,000,000, in decimal digits`},
		{append(match, "--games", "9223372036854775807", "--players", "3"), `--games "9223372036854775807": want a number of games from 1 to`},
		{append(match, "--games", "1e6"), `--games "1e6": want a number of games`},
		{append(match, "--seed", "0x10"), `--seed "0x10": want a seed from 0 to 18446744073709551615`},
		{append(match, "--seed", "-1"), `--seed "-1": want a seed`},
		{append(match, "--players", "0x2"), `--players "0x2": want a number of players`},
		{append(match, "--workers", "99999"), `--workers "99999": want 0 (one per core) to 4096 workers`},
		{append(tour, "--games", "1_000"), `--games "1_000": want a number of games`},
		{append(tour, "--seed", "1e3"), `--seed "1e3": want a seed`},
		{append(tune, "--generations", "0x5"), `--generations "0x5": want a number of generations from 1`},
		{append(tune, "--games", "1e4"), `--games "1e4": want a number of games`},
		{append(tune, "--confirm-games", "0x100"), `--confirm-games "0x100": want a number of games`},
		{append(tune, "--players", "04.0"), `--players "04.0": want a number of players`},
		{append(tune, "--seed", "0b1"), `--seed "0b1": want a seed`},
		{[]string{"report", t.TempDir(), "--dpi", "0x10"}, `--dpi "0x10": want 1 to 1200 dots per inch, in decimal digits`},
	} {
		code, stdout, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		if strings.Contains(stderr, "not a valid value") {
			t.Errorf("%v: a vague message: %s", c.args, stderr)
		}
	}
}

// report on a directory without stats.json says so in the tool's words,
// and what report renders; not "open DIR/stats.json: no such file or directory".
func TestReportWithoutStats(t *testing.T) {
	dir := t.TempDir()
	tour := filepath.Join(dir, "tour")
	if code, _, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "20", "--workers", "1", "--quiet", "--out", tour); code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, stderr)
	}
	for _, c := range []struct{ dir, want string }{
		{tour, "the directory holds no stats.json; report renders the --out of simulate, experiment run or merge"},
		{dir, "the directory holds no stats.json"},
		{filepath.Join(dir, "none"), "no such directory"},
	} {
		code, _, stderr := unosim(t, "report", c.dir)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "no such file") {
			t.Errorf("report %s: exit %d, %q; want exit 2 and %q", c.dir, code, stderr, c.want)
		}
	}
}

// An unknown command names the valid ones, as every other bad input names
// its choices (cobra's message gives only what was typed).
func TestUnknownCommandListsCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulat"}, `unknown command "simulat" for "unosim" (valid: compare, completion, experiment, match, merge, replay, report, rules, shards, simulate, strategies, tournament, tune, version)`},
		{[]string{"experiment", "rn", "x.yaml"}, `unknown command "rn" for "unosim experiment" (valid: list, run, show, validate)`},
		{[]string{"completion", "tcsh"}, `unknown command "tcsh" for "unosim completion" (valid: bash, fish, powershell, zsh)`},
		{[]string{"help", "foo"}, `unknown help topic "foo" (valid: compare, completion, experiment, match, merge, replay, report, rules, shards, simulate, strategies, tournament, tune, version)`},
		{[]string{"help", "experiment", "foo"}, `unknown help topic "experiment foo" (valid: list, run, show, validate)`},
	} {
		code, out, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// help on a command still prints its help.
func TestHelpTopic(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"help", "simulate"}, {"help", "experiment", "run"}} {
		if code, out, stderr := unosim(t, args...); code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, stderr)
		}
	}
}

// The real-valued flags read decimal numbers only, like the strategies'
// parameters (strconv would take 0x1p3 as 8, and Inf), and --ci-width 0,
// given, is refused rather than silently meaning no stopping rule.
func TestRealFlagsAreDecimal(t *testing.T) {
	match := []string{"match", "--strategy", "random", "--vs", "heuristic", "--quiet", "--workers", "1", "--games", "40", "--sprt", "0.5:0.6"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--games", "50", "--ci-width", "0x1p3", "--batch", "5"}, `--ci-width "0x1p3": want a number in decimal digits, e.g. 0.25`},
		{[]string{"simulate", "--games", "50", "--ci-width", "Inf"}, `--ci-width "Inf": want a number in decimal digits`},
		{[]string{"simulate", "--games", "50", "--ci-width", "0"}, `--ci-width 0: want a positive width in turns`},
		{[]string{"experiment", "run", "house-rules", "--out", "x", "--ci-width", "0"}, `--ci-width 0: want a positive width`},
		{[]string{"experiment", "run", "house-rules", "--out", "x", "--ci-width", "0x.8p1"}, `--ci-width "0x.8p1": want a number in decimal digits`},
		{append(match, "--alpha", "0x0.1p0"), `--alpha "0x0.1p0": want a number in decimal digits`},
		{append(match, "--beta", "NaN"), `--beta "NaN": want a number in decimal digits`},
		{append(match, "--sprt", "0x1p-1:0.6"), `"0x1p-1" is not a win rate`},
		{append(match, "--sprt", "0elo:0x10elo"), `"0x10elo" is not an Elo difference`},
	} {
		code, out, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// --workers 0 is one per core, like leaving it out; a negative count is refused (above).
func TestWorkersFlag(t *testing.T) {
	for _, c := range []struct {
		flag string
		want float64
	}{{"1", 1}, {"3", 3}} {
		code, out, stderr := unosim(t, "simulate", "--games", "3000", "--players", "2", "--strategy", "random", "--workers", c.flag, "--json", "--quiet")
		var m map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
			t.Fatalf("--workers %s: exit %d %s", c.flag, code, stderr)
		}
		if m["workers"] != c.want {
			t.Errorf("--workers %s: the run used %v workers", c.flag, m["workers"])
		}
	}
	if code, _, stderr := unosim(t, "simulate", "--games", "10", "--workers", "0", "--quiet"); code != 0 {
		t.Errorf("--workers 0: exit %d %s", code, stderr)
	}
}

// The exit codes: 0 done, 1 the work failed (a panic included), 2 bad
// input, 130 interrupted.
func TestExitCodes(t *testing.T) {
	if exitOK != 0 || exitFailure != 1 || exitUsage != 2 || exitInterrupted != 130 {
		t.Fatalf("exit codes %d %d %d %d, want 0 1 2 130", exitOK, exitFailure, exitUsage, exitInterrupted)
	}
	// A runtime failure: the CPU profiler is already running in this process.
	var prof bytes.Buffer
	if err := pprof.StartCPUProfile(&prof); err == nil {
		code, _, stderr := unosim(t, "simulate", "--games", "10", "--quiet", "--cpuprofile", filepath.Join(t.TempDir(), "cpu.prof"))
		pprof.StopCPUProfile()
		if code != 1 || strings.Contains(stderr, "for usage") {
			t.Errorf("runtime failure: exit %d, %s; want 1 without usage advice", code, stderr)
		}
	}
	// A panic is a bug: exit 1 with its stack, never 2 (Go's own exit code for a panic).
	var errOut bytes.Buffer
	a := &app{stdout: &bytes.Buffer{}, stderr: &errOut}
	root := newRootCmd(a)
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("injected") }})
	if code := execute(context.Background(), a, root, []string{"boom"}); code != exitFailure || !strings.Contains(errOut.String(), "internal error") || !strings.Contains(errOut.String(), "injected") {
		t.Errorf("panic: exit %d, %s", code, errOut.String())
	}
	// A panic in a worker goroutine comes back as an error and exits 1.
	errOut.Reset()
	root = newRootCmd(a)
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		err := make(chan error)
		go func() {
			var e error
			defer func() { err <- e }()
			defer sim.CatchPanic(&e)
			panic("in a worker")
		}()
		return runtimeError{<-err}
	}})
	if code := execute(context.Background(), a, root, []string{"boom"}); code != exitFailure || !strings.Contains(errOut.String(), "in a worker") {
		t.Errorf("worker panic: exit %d, %s", code, errOut.String())
	}
	// Bad input.
	if code, _, _ := unosim(t, "simulate", "--players", "99"); code != 2 {
		t.Errorf("bad input: exit %d", code)
	}
	// An interrupt (the context is cancelled before the first game).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code, out, _ := unosimCtx(t, ctx, "simulate", "--games", "100000", "--quiet"); code != 130 || !strings.Contains(out, "INCOMPLETE") {
		t.Errorf("interrupt: exit %d, %q", code, out)
	}
}

// The defaults of simulate are those the README's table states.
func TestSimulateDefaultsMatchREADME(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmd := newSimulateCmd(&app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	row := regexp.MustCompile("(?m)^\\| `--([a-z-]+)[^|]*\\|.*\\(default ([^)]+)\\) \\|$")
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		name, want := m[1], strings.ReplaceAll(m[2], ",", "")
		f := cmd.Flags().Lookup(name)
		if f == nil {
			t.Errorf("the README lists --%s, which simulate does not have", name)
			continue
		}
		got := f.DefValue
		switch name {
		case "workers":
			want = strings.Replace(want, "one per core", "0", 1)
		case "strategy":
			got, want = "heuristic", strings.Trim(want, "`") // applied in build: no --strategy is heuristic
		}
		if got != want {
			t.Errorf("--%s: default %q, README says %q", name, got, want)
		}
		seen[name] = true
	}
	for _, name := range []string{"rules", "players", "games", "seed", "workers"} {
		if !seen[name] {
			t.Errorf("the README's table gives no default for --%s", name)
		}
	}
	// And the defaults are what a run uses.
	m := summaryOf(t, "--games", "200")
	if m["seed"].(float64) != 1 || m["players"].(float64) != 4 || m["rules"] != "classic" || m["seats"] != "fixed" || m["strategies"].([]any)[0] != "heuristic" {
		t.Errorf("defaults used: seed %v players %v rules %v seats %v strategies %v", m["seed"], m["players"], m["rules"], m["seats"], m["strategies"])
	}
}

// merge --json prints the merged result: by value, the single run's.
func TestMergeJSONByValue(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--games", "3000", "--players", "3", "--strategy", "random", "--strategy", "heuristic", "--strategy", "heuristic", "--seats", "rotate", "--quiet"}
	whole := summaryOf(t, args[:len(args)-1]...)
	var shards []string
	for i, s := range []string{"0/2", "1/2"} {
		d := filepath.Join(dir, "s"+s[:1])
		if code, _, stderr := unosim(t, append([]string{"simulate", "--shard", s, "--out", d}, args...)...); code != 0 {
			t.Fatalf("shard %d: %s", i, stderr)
		}
		shards = append(shards, d)
	}
	code, out, stderr := unosim(t, "merge", shards[0], shards[1], "--out", filepath.Join(dir, "m"), "--json")
	var m map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
		t.Fatalf("merge --json: exit %d %s\n%s", code, stderr, out)
	}
	for _, k := range []string{"elapsed_seconds", "games_per_second", "workers"} {
		delete(m, k)
	}
	if jsonText(m) != jsonText(whole) {
		t.Fatalf("merge --json differs from the single run:\n%s\n%s", jsonText(m), jsonText(whole))
	}
	if m["first_player_win_rate"].(map[string]any)["successes"].(float64) == 0 {
		t.Fatal("merged first-player wins are 0")
	}
}

// The replay header names the strategy in every seat under rotation: in
// game 17 of 3 players, seat s plays line-up position (s+17) mod 3.
func TestReplayHeaderUnderRotation(t *testing.T) {
	code, out, stderr := unosim(t, "replay", "--seed", "4", "--game", "17", "--players", "3", "--seats", "rotate",
		"--strategy", "random", "--strategy", "heuristic", "--strategy", "heuristic:bluff=0.5")
	if code != 0 {
		t.Fatal(stderr)
	}
	want := "game 17 of seed 4: classic rules, 3 players\n  seat 0: heuristic:bluff=0.5\n  seat 1: random\n  seat 2: heuristic\n"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("header:\n%s\nwant:\n%s", out[:min(len(out), 200)], want)
	}
}

// An experiment plays the file's seed (or --seed): its cell is the very
// run simulate makes with that seed.
func TestExperimentPlaysTheFileSeed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "one.yaml")
	os.WriteFile(file, []byte("name: one\nseed: 7\ngames: 800\ngrids:\n  - players: [2]\n    lineups:\n      r: [random]\n"), 0o644)
	sim := summaryOf(t, "--seed", "7", "--games", "800", "--players", "2", "--strategy", "random")
	for _, c := range []struct {
		extra []string
		seed  float64
	}{{nil, 7}, {[]string{"--seed", "5"}, 5}} {
		out := filepath.Join(dir, "o"+strings.Join(c.extra, ""))
		code, stdout, stderr := unosim(t, append([]string{"experiment", "run", file, "--out", out, "--quiet"}, c.extra...)...)
		if code != 0 {
			t.Fatal(stderr)
		}
		if !strings.Contains(stdout, "seed "+strings.TrimSuffix(jsonText(c.seed), ".0")) {
			t.Errorf("the terminal summary does not give seed %v:\n%s", c.seed, stdout)
		}
		data, _ := os.ReadFile(filepath.Join(out, "stats.json"))
		var f struct {
			Seed  float64 `json:"seed"`
			Cells []struct {
				Stats struct {
					Turns struct {
						Counts []int64 `json:"counts"`
					} `json:"turns"`
					WinsBySeat []int64 `json:"wins_by_seat"`
				} `json:"stats"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(data, &f); err != nil || len(f.Cells) != 1 {
			t.Fatalf("stats.json: %v", err)
		}
		sum, n := int64(0), int64(0)
		for v, k := range f.Cells[0].Stats.Turns.Counts {
			sum += int64(v) * k
			n += k
		}
		mean := float64(sum) / float64(n)
		same := n == 800 && math.Abs(mean-sim["turns"].(map[string]any)["mean"].(float64)) < 1e-9 &&
			jsonText(f.Cells[0].Stats.WinsBySeat) == jsonText(sim["wins_by_seat"])
		if f.Seed != c.seed || same != (c.seed == 7) {
			t.Errorf("seed %v: stats.json seed %v; same games as simulate --seed 7: %v", c.seed, f.Seed, same)
		}
	}
}

// experiment run prints the main estimate of every cell and each test's verdict.
func TestExperimentRunPrintsMainEstimateAndVerdicts(t *testing.T) {
	code, out, stderr := unosim(t, "experiment", "run", "bluff-challenge", "--games", "200", "--out", filepath.Join(t.TempDir(), "bc"), "--quiet")
	if code != 0 {
		t.Fatal(stderr)
	}
	for _, want := range []string{"position:0 [95% CI] (main)", "significant at 5% after Holm's adjustment", "verdict", "bluff=0.5 challenge=seen vs the fair share 0.25"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal summary lacks %q:\n%s", want, out)
		}
	}
}

// An empty experiment file is refused in our words, not with "EOF".
func TestEmptyExperimentFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(file, nil, 0o644)
	code, _, stderr := unosim(t, "experiment", "validate", file)
	if code != 2 || !strings.Contains(stderr, file+": the file is empty") || strings.Contains(stderr, "EOF") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	noGames := filepath.Join(t.TempDir(), "nogames.yaml")
	os.WriteFile(noGames, []byte("name: x\ngrids: [{}]\n"), 0o644)
	if code, out, _ := unosim(t, "experiment", "validate", noGames); code != 0 || !strings.Contains(out, "games per cell not given") {
		t.Fatalf("validate without games: exit %d %s", code, out)
	}
	if code, _, stderr := unosim(t, "experiment", "run", noGames, "--out", filepath.Join(t.TempDir(), "o")); code != 2 || !strings.Contains(stderr, "--games N") {
		t.Fatalf("run without games: exit %d %s", code, stderr)
	}
	if code, _, stderr := unosim(t, "experiment", "run", noGames, "--games", "20", "--quiet", "--out", filepath.Join(t.TempDir(), "o")); code != 0 {
		t.Fatalf("run without games, with --games: exit %d %s", code, stderr)
	}
}

// Warnings on stderr: an option set twice, an option the scoring ignores,
// games cut off by max-turns in the length statistics.
func TestWarnings(t *testing.T) {
	code, out, stderr := unosim(t, "simulate", "--games", "500", "--quiet", "--set", "max-turns=20", "--set", "max-turns=30", "--set", "target=100", "--set", "losers-outcome=highest-loses")
	if code != 0 {
		t.Fatal(stderr)
	}
	for _, want := range []string{
		"warning: --set max-turns given twice (20, then 30): the last, max-turns=30, applies",
		"warning: --set target has no effect with scoring=single",
		"warning: --set losers-outcome has no effect with scoring=single",
		"stopped at max-turns=30: the length statistics (turns, cards played and drawn) include them at their capped length",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(out, "warning") || !strings.Contains(out, "cut off at max-turns=30") {
		t.Errorf("stdout:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "capped.yaml")
	os.WriteFile(file, []byte("name: capped\ngames: 300\ngrids:\n  - options:\n      short: {max-turns: 25}\n"), 0o644)
	if code, _, stderr := unosim(t, "experiment", "run", file, "--out", filepath.Join(t.TempDir(), "o"), "--quiet"); code != 0 ||
		!strings.Contains(stderr, "warning: cell all: ") || !strings.Contains(stderr, "stopped at max-turns=25; its length statistics include them") {
		t.Errorf("experiment with capped games: exit %d, stderr %s", code, stderr)
	}
	if _, _, stderr := unosim(t, "simulate", "--games", "50", "--quiet", "--set", "scoring=winner-takes", "--set", "target=100"); strings.Contains(stderr, "warning") {
		t.Errorf("a target with matches warned: %s", stderr)
	}
}

// A match stopped by the 10,000-round cap is not reported as a turn cap.
func TestMatchCapIsPrintedAsSuch(t *testing.T) {
	var out bytes.Buffer
	s := &sim.Summary{Version: "t", Complete: true, Rules: "classic", Players: 2, Games: 5, Finished: 3, Unfinished: 2, UnfinishedMatchCap: 2,
		Options: map[string]string{"deck": "classic", "max-turns": "5000"}, Strategies: []string{"random", "random"}}
	printSummary(&out, s)
	if strings.Contains(out.String(), "turn cap") || strings.Contains(out.String(), "max-turns") || !strings.Contains(out.String(), "unfinished 2 (match cap of 10,000 rounds 2)") {
		t.Fatalf("printed:\n%s", out.String())
	}
	if w := summaryWarnings(s); len(w) != 1 || !strings.Contains(w[0], "match cap") {
		t.Fatalf("warnings %q", w)
	}
}

// The bar ends with its own line, at 100% when the run completed, and a
// huge shard's time left is never negative.
func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newProgressPrinter(&b, true)
	p.update(998, 1000, 2*time.Second)
	p.finish(true)
	s := b.String()
	last := s[strings.LastIndex(s, "\r"):]
	if !strings.HasSuffix(s, "\n") || !strings.Contains(last, "100.0%") || !strings.Contains(last, "done in") {
		t.Fatalf("bar %q", s)
	}
	p.finish(true) // idempotent
	if b.String() != s {
		t.Fatal("a second finish printed again")
	}
	b.Reset()
	p = newProgressPrinter(&b, false)
	p.update(1000, 1<<62, time.Second)
	p.finish(false)
	if strings.Contains(b.String(), "-") || !strings.Contains(b.String(), "more than 100,000h left") {
		t.Fatalf("huge shard: %q", b.String())
	}
	b.Reset()
	p = newProgressPrinter(&b, true)
	p.update(5, 10, 500*time.Millisecond) // the first second shows nothing
	p.finish(true)
	if b.Len() != 0 {
		t.Fatalf("a short run drew %q", b.String())
	}
}

// syncBuffer is one buffer for stdout and stderr, as on a terminal.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// On a terminal the bar is ended on its own line, at 100%, before the
// report goes to stdout: the report never shares the bar's line.
func TestBarEndsBeforeTheReport(t *testing.T) {
	defer func(a, i time.Duration) { progressAfter, ttyInterval = a, i }(progressAfter, ttyInterval)
	progressAfter, ttyInterval = 0, time.Millisecond
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(file, []byte(tinyExperiment), 0o644)
	for _, c := range []struct {
		args   []string
		report string // the report's first line starts so
		games  string // the games on the last bar
	}{
		{[]string{"simulate", "--games", "20000", "--players", "2", "--strategy", "random"}, "unosim " + version + ": classic rules", "20,000/20,000 games"},
		// --ci-width stops both cells after two batches of 10,000, before
		// --games: the bar still ends at 100%, with the games played.
		{[]string{"experiment", "run", file, "--out", filepath.Join(dir, "o"), "--ci-width", "100", "--games", "30000"}, "tiny: 2 cells", "40,000/60,000 games"},
	} {
		args := c.args
		var term syncBuffer
		a := &app{stdout: &term, stderr: &term, stderrIsTTY: true}
		if code := execute(context.Background(), a, newRootCmd(a), args); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, term.b.String())
		}
		out := term.b.String()
		bar := strings.LastIndex(out, "\r")
		end := strings.Index(out[bar:], "\n")
		if bar < 0 || end < 0 {
			t.Fatalf("%v: no bar, or the bar never ends:\n%q", args, out)
		}
		if line := out[bar : bar+end]; !strings.Contains(line, "100.0%") || !strings.Contains(line, "done in") || !strings.Contains(line, c.games) {
			t.Errorf("%v: the last bar is %q, want it at 100%%", args, line)
		}
		if !strings.HasPrefix(out[bar+end+1:], c.report) {
			t.Errorf("%v: the report does not follow the ended bar:\n%q", args, out[bar:])
		}
	}
}

// Points per round are over the finished rounds only (a round cut off at
// max-turns scores nothing): the table must say over how many, since it
// is not the number of games. Counts from `unosim simulate --games 2000
// --workers 1 --set max-turns=60 --records r.csv`, recounted in Python:
// 1,667 rows with outcome finished, 333 unfinished.
func TestPointsPerRoundShowsItsSampleSize(t *testing.T) {
	var out bytes.Buffer
	s := &sim.Summary{Version: "t", Complete: true, Rules: "classic", Players: 4, Games: 2000, Finished: 1667, Unfinished: 333, UnfinishedTurnCap: 333,
		Options: map[string]string{"deck": "classic", "max-turns": "60"}, Strategies: []string{"heuristic", "heuristic", "heuristic", "heuristic"},
		Turns: sim.Dist{N: 2000, Mean: 39.4}, Rounds: sim.Dist{N: 2000, Mean: 1, Max: 1}, RoundPoints: sim.Dist{N: 1667, Mean: 133.97, Max: 338}}
	printSummary(&out, s)
	if !strings.Contains(out.String(), "1,667 finished rounds") {
		t.Fatalf("points per round printed without its sample size (1,667 finished rounds of 2,000 games):\n%s", out.String())
	}
}

// An --out that is a file, or lies under one, is refused in the tool's
// words, naming the file, not as stat's "not a directory" or as "already
// exists".
func TestOutIsAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	under := filepath.Join(file, "sub")
	isFile := "output directory " + file + " is a file, not a directory"
	underFile := "output directory " + under + ": " + file + " is a file, not a directory"
	tour := []string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "4", "--workers", "1", "--quiet", "--out"}
	sim := []string{"simulate", "--games", "4", "--workers", "1", "--quiet", "--out"}
	tune := []string{"tune", "--param", "threshold=0:1", "--generations", "1", "--games", "16", "--workers", "1", "--quiet", "--out"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(sim, file), isFile},
		{append(sim, under), underFile},
		{append(sim, filepath.Join(under, "deeper")), file + " is a file, not a directory"},
		{append(tour, file), isFile},
		{append(tour, under), underFile},
		{append(tune, file), isFile},
		{append(tune, under), underFile},
		{[]string{"experiment", "run", "house-rules", "--games", "4", "--workers", "1", "--quiet", "--out", under}, underFile},
	} {
		code, _, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "stat ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
}

// An unknown strategy or parameter is quoted as the user wrote it (names
// are matched in any case, but the message must not show another word),
// with the valid choices: for tune's --param, the parameters it can tune.
func TestUnknownNamesQuoteTheUser(t *testing.T) {
	const heuristicParams = "(valid: bluff, challenge, threshold, forget, catch, jump, speed, bluff-rate, challenge-bias, bluff-bias)"
	out := filepath.Join(t.TempDir(), "t")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--strategy", "Heuristik"}, `--strategy: unknown strategy "Heuristik" (valid: random, heuristic, counter, ismcts, exec:COMMAND)`},
		{[]string{"simulate", "--strategy", "heuristic:Bluf=0.1"}, `strategy heuristic: unknown parameter "Bluf" ` + heuristicParams},
		{[]string{"match", "--strategy", "random", "--vs", "Counter:Trust=0.5,Voids=3"}, `strategy counter: unknown parameter "Voids" (valid: bluff,`},
		{[]string{"tune", "--param", "Bluf=0:1", "--out", out}, `--param "Bluf=0:1": strategy heuristic has no parameter "Bluf" ` + heuristicParams},
		{[]string{"tune", "--strategy", "ismcts", "--param", "Iter=1:10", "--out", out}, `strategy ismcts has no parameter "Iter" (valid: iterations, exploration, deviate; rollout, objective, opponents and prior are not numeric)`},
		{[]string{"tune", "--strategy", "exec:python3 bot.py", "--param", "x=0:1", "--out", out}, `strategy exec:COMMAND has no parameters unosim can tune (valid --strategy: random, heuristic, counter, ismcts)`},
	} {
		code, _, stderr := unosim(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q in:\n%s", tc.args, code, tc.want, stderr)
		}
	}
	if fileExists(out) {
		t.Error("a refused tune left its --out")
	}
	// Names are still matched in any case.
	if code, _, stderr := unosim(t, "simulate", "--strategy", "Heuristic:BLUFF=0.1", "--games", "10", "--workers", "1", "--quiet"); code != 0 {
		t.Errorf("--strategy Heuristic:BLUFF=0.1: exit %d: %s", code, stderr)
	}
}
