package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

var tinyTune = []string{"tune", "--strategy", "heuristic:bluff=0.1", "--param", "threshold=0:1", "--against", "heuristic",
	"--players", "2", "--generations", "4", "--games", "200", "--confirm-games", "400", "--workers", "2", "--quiet"}

func tuneArgs(method, out string) []string {
	return append(append([]string{}, tinyTune...), "--method", method, "--out", out)
}

// TestTuneResume: a tune interrupted after generation 2 and resumed with
// --resume writes the same files as an uninterrupted one.
func TestTuneResume(t *testing.T) {
	for _, method := range []string{"cmaes", "spsa"} {
		dir := t.TempDir()
		full, part := filepath.Join(dir, "full"), filepath.Join(dir, "part")
		if code, _, stderr := unosim(t, tuneArgs(method, full)...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		ctx, cancel := context.WithCancel(context.Background())
		tuneAfterGeneration = func(gen int) {
			if gen == 2 {
				cancel()
			}
		}
		code, _, _ := unosimCtx(t, ctx, tuneArgs(method, part)...)
		tuneAfterGeneration = nil
		if code != exitInterrupted {
			t.Fatalf("interrupted tune: exit %d", code)
		}
		if _, err := os.Stat(filepath.Join(part, "tune.json")); err == nil {
			t.Fatal("an interrupted tune wrote tune.json")
		}
		if code, _, stderr := unosim(t, "tune", "--resume", part, "--quiet"); code != 0 {
			t.Fatalf("resume: exit %d: %s", code, stderr)
		}
		for _, f := range []string{"tune.json", "report.md", "state.json", "convergence-params.svg", "convergence-winrate.png"} {
			a, err1 := os.ReadFile(filepath.Join(full, f))
			b, err2 := os.ReadFile(filepath.Join(part, f))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs after resume (%v %v)", method, f, err1, err2)
			}
		}
		// The same command line again on a finished directory resumes it too
		// (nothing left to do but the outputs).
		if code, _, stderr := unosim(t, tuneArgs(method, full)...); code != 0 || !strings.Contains(stderr, "already complete") {
			t.Errorf("same command again: exit %d: %s", code, stderr)
		}
	}
}

func TestTuneJSONKeys(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t")
	if code, stdout, stderr := unosim(t, tuneArgs("cmaes", out)...); code != 0 || !strings.HasPrefix(stdout, "tuned: --strategy heuristic:") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "tune.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"spec", "params", "confirmation", "history"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %s missing", k)
		}
	}
	c := m["confirmation"].(map[string]any)
	for _, k := range []string{"games", "win_rate", "baseline_win_rate", "effect", "ci", "p"} {
		if _, ok := c[k]; !ok {
			t.Errorf("confirmation.%s missing", k)
		}
	}
	h := m["history"].([]any)
	if len(h) != 4 {
		t.Fatalf("%d generations in history", len(h))
	}
	for _, k := range []string{"generation", "mean", "step", "win_rate", "ci"} {
		if _, ok := h[0].(map[string]any)[k]; !ok {
			t.Errorf("history.%s missing", k)
		}
	}
	rep, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(strings.SplitN(string(rep), "\n", 4)[2], "tuned: --strategy") {
		t.Errorf("report.md does not state the answer first:\n%s", rep)
	}
	// Win rates in %, the effect in pp, as everywhere else (not 0.2490
	// and -0.0010, whose unit a reader has to guess).
	cw, ce := c["win_rate"].(float64), c["effect"].(float64)
	for _, want := range []string{fmt.Sprintf("win rate %.2f%% against", 100*cw), fmt.Sprintf("effect %+.2f pp (95%% CI", 100*ce), "| win rate (%) | 95% CI |"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("report.md lacks %q:\n%s", want, rep)
		}
	}
}

func TestTuneBadInput(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	if code, _, stderr := unosim(t, tuneArgs("cmaes", other)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--param", "threshold=0:1"}, "--out DIR is required"},
		{[]string{"tune", "--out", filepath.Join(dir, "a")}, "--param is required"},
		{[]string{"tune", "--param", "threshold", "--out", filepath.Join(dir, "a")}, "want NAME=LO:HI"},
		{[]string{"tune", "--param", "nosuch=0:1", "--out", filepath.Join(dir, "a")}, "valid: bluff, challenge"},
		{[]string{"tune", "--param", "challenge=0:1", "--out", filepath.Join(dir, "a")}, "not a number"},
		{[]string{"tune", "--param", "threshold=-1:1", "--out", filepath.Join(dir, "a")}, "outside what heuristic allows"},
		{[]string{"tune", "--param", "threshold=0.5:1", "--out", filepath.Join(dir, "a")}, "start value threshold=0.3"},
		{[]string{"tune", "--strategy", "ismcts", "--param", "iterations=0:5000000", "--out", filepath.Join(dir, "a")}, "(1 to 1,000,000)"},
		{[]string{"tune", "--param", "threshold=1:0", "--out", filepath.Join(dir, "a")}, "LO < HI"},
		{[]string{"tune", "--param", "threshold=0:1", "--method", "grid", "--out", filepath.Join(dir, "a")}, "valid methods are cmaes and spsa"},
		{[]string{"tune", "--param", "threshold=0:1", "--strategy", "random", "--out", filepath.Join(dir, "a")}, `strategy random has no parameter "threshold" (valid: bluff, challenge, forget, catch)`},
		{[]string{"tune", "--param", "threshold=0:1", "--players", "4", "--against", "random", "--against", "random", "--out", filepath.Join(dir, "a")}, "--against given 2 times"},
		{[]string{"tune", "--param", "threshold=0:1", "--games", "1", "--out", filepath.Join(dir, "a")}, "--games 1"},
		{[]string{"tune", "--resume", filepath.Join(dir, "none")}, "--resume"},
		{[]string{"tune", "--resume", other, "--games", "5"}, "leave out --games"},
		{[]string{"tune", "--resume", other, "--objective", "place"}, "leave out --objective"},
		{[]string{"tune", "--param", "threshold=0:1", "--objective", "elo", "--out", filepath.Join(dir, "a")}, "valid objectives are win, place and points"},
		{[]string{"tune", "--param", "threshold=0:1", "--objective", "place", "--out", filepath.Join(dir, "a")}, "add --set play-for-places=true"},
		{[]string{"tune", "--param", "threshold=0:1", "--objective", "place", "--set", "scoring=winner-takes", "--out", filepath.Join(dir, "a")}, "leave out --set scoring=winner-takes"},
		{[]string{"tune", "--param", "threshold=0:1", "--objective", "points", "--out", filepath.Join(dir, "a")}, "add --set scoring=winner-takes or --set scoring=losers-accumulate"},
		{[]string{"tune", "--param", "threshold=0:1", "--objective", "points", "--set", "play-for-places=true", "--out", filepath.Join(dir, "a")}, "leave out --set play-for-places=true"},
		{append(tuneArgs("cmaes", other)[:len(tuneArgs("cmaes", other))-4], "--seed", "2", "--out", other), "holds a different tune"},
	} {
		code, _, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); err == nil {
		t.Error("a refused tune left its directory")
	}
}

// TestTuneRealProblem is the closing check on a real problem, too
// long for the default test run (about 30 s on 2 cores): heuristic's bluff
// and challenge threshold against three default heuristics, 4 players,
// the default budget; the tuned result must beat its start on the
// fresh confirmation games. Run it with `make tune-check` (UNOSIM_LONG=1).
func TestTuneRealProblem(t *testing.T) {
	if os.Getenv("UNOSIM_LONG") == "" {
		t.Skip("long: set UNOSIM_LONG=1 (make tune-check)")
	}
	for _, method := range []string{"cmaes", "spsa"} {
		out := filepath.Join(t.TempDir(), method)
		code, stdout, stderr := unosim(t, "tune", "--strategy", "heuristic", "--param", "bluff=0:1", "--param", "threshold=0:1",
			"--against", "heuristic", "--players", "4", "--method", method, "--generations", "40", "--games", "20000",
			"--confirm-games", "1000000", "--seed", "1", "--quiet", "--out", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, stderr)
		}
		t.Logf("%s: %s", method, stdout)
		data, _ := os.ReadFile(filepath.Join(out, "tune.json"))
		var r tuneResult
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if !(r.Confirmation.CI[0] > 0) {
			t.Errorf("%s: the tuned %s does not beat the start: effect %v, CI %v", method, r.Spec, r.Confirmation.Effect, r.Confirmation.CI)
		}
	}
}

// TestTuneObjectives: a tune for places and one for match points under
// each scoring record their objective in tune.json (name, what it
// maximises, the sign of what is reported), report the confirmation in
// places or points, in words, and draw the objective's plot; the effect is
// the difference of the two scores (higher better).
func TestTuneObjectives(t *testing.T) {
	for _, c := range []struct {
		objective, set, words, plot string
		sign                        float64
		players                     string
	}{
		{"place", "play-for-places=true", "places gained", "convergence-place.svg", -1, "3"},
		{"points", "scoring=winner-takes", "points gained", "convergence-points.svg", 1, "2"},
		{"points", "scoring=losers-accumulate", "points saved", "convergence-points.svg", -1, "2"},
	} {
		out := filepath.Join(t.TempDir(), "t")
		args := []string{"tune", "--strategy", "heuristic", "--param", "threshold=0:1", "--against", "heuristic",
			"--players", c.players, "--generations", "2", "--games", "60", "--confirm-games", "60", "--workers", "2", "--quiet",
			"--objective", c.objective, "--set", c.set, "--out", out}
		if c.objective == "points" {
			args = append(args, "--set", "target=100") // short matches
		}
		code, stdout, stderr := unosim(t, args...)
		if code != 0 {
			t.Fatalf("%s %s: exit %d: %s", c.objective, c.set, code, stderr)
		}
		if !strings.Contains(stdout, c.words) {
			t.Errorf("%s %s: the answer does not say %q: %s", c.objective, c.set, c.words, stdout)
		}
		data, _ := os.ReadFile(filepath.Join(out, "tune.json"))
		var r tuneResult
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		cf := r.Confirmation
		if r.Objective.Name != c.objective || r.Objective.Sign != c.sign || r.Objective.Maximises == "" || cf.Objective != c.objective || r.Settings.Objective != c.objective {
			t.Errorf("%s %s: objective %+v, confirmation's %q", c.objective, c.set, r.Objective, cf.Objective)
		}
		if d := cf.Score - cf.BaselineScore - cf.Effect; d*d > 1e-18 || !(cf.CI[0] <= cf.Effect && cf.Effect <= cf.CI[1]) {
			t.Errorf("%s %s: effect %v, CI %v, scores %v and %v", c.objective, c.set, cf.Effect, cf.CI, cf.Score, cf.BaselineScore)
		}
		if c.objective == "place" && !(cf.Score >= -3 && cf.Score <= -1 && cf.BaselineScore == -2) {
			// The start is the mirror of its field: its 3 seats share the places 1, 2, 3 of every game.
			t.Errorf("place: scores %v and %v, want minus places, -2 for the start", cf.Score, cf.BaselineScore)
		}
		if len(r.History) != 2 || r.History[0].Score == 0 || r.History[0].WinRate == 0 {
			t.Errorf("%s %s: history %+v", c.objective, c.set, r.History)
		}
		rep, _ := os.ReadFile(filepath.Join(out, "report.md"))
		if !strings.Contains(string(rep), "objective: "+c.objective) || !strings.Contains(string(rep), c.words) {
			t.Errorf("%s %s: report.md:\n%s", c.objective, c.set, rep)
		}
		if _, err := os.Stat(filepath.Join(out, c.plot)); err != nil {
			t.Errorf("%s %s: %v", c.objective, c.set, err)
		}
	}
}

// A tune killed (SIGKILL: no cleanup) before its first state.json, while
// writing its plots or report, or after tune.json of an older version
// that wrote it first: the rerun of the same command finishes it, as an
// uninterrupted run would, and never rewrites a finished tune's tune.json.
// The leftovers are built by hand.
func TestTuneRerunAfterKill(t *testing.T) {
	dir := t.TempDir()
	d := func(name string) string { return filepath.Join(dir, name) }
	args := func(out string) []string {
		return []string{"tune", "--strategy", "heuristic:bluff=0.1", "--param", "threshold=0:1", "--players", "2",
			"--generations", "2", "--games", "100", "--confirm-games", "200", "--workers", "1", "--quiet", "--out", out}
	}
	mustRun(t, 0, args(d("full"))...)
	files := []string{"state.json", "tune.json", "report.md", "convergence-params.png", "convergence-params.svg", "convergence-winrate.png", "convergence-winrate.svg"}
	leftover := func(name string, keep []string, temps ...string) string {
		out := d(name)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range keep {
			data, err := os.ReadFile(filepath.Join(d("full"), f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range temps {
			if err := os.WriteFile(filepath.Join(out, f), []byte("torn"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	same := func(out string) {
		t.Helper()
		for _, f := range files {
			a, err1 := os.ReadFile(filepath.Join(d("full"), f))
			b, err2 := os.ReadFile(filepath.Join(out, f))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs from the uninterrupted tune's (%v %v)", out, f, err1, err2)
			}
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != len(files) {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s holds %v", out, names)
		}
	}
	for _, tc := range []struct {
		name  string
		keep  []string
		temps []string
	}{
		{"before-state", nil, []string{".probe-123", ".state.json.tmp-456"}},
		{"plots", []string{"state.json", "convergence-params.png"}, []string{".convergence-params.svg.tmp789"}},
		{"report", []string{"state.json", "convergence-params.png", "convergence-params.svg", "convergence-winrate.png", "convergence-winrate.svg"}, []string{".report.md.tmp-1"}},
		{"before-tune-json", []string{"state.json", "convergence-params.png", "convergence-params.svg", "convergence-winrate.png", "convergence-winrate.svg", "report.md"}, []string{".tune.json.tmp-2"}},
		{"older-order", []string{"state.json", "tune.json"}, []string{".convergence-params.png.tmp3"}},
	} {
		out := leftover(tc.name, tc.keep, tc.temps...)
		stdout, _ := mustRun(t, 0, args(out)...)
		if !strings.HasPrefix(stdout, "tuned: --strategy heuristic:") {
			t.Errorf("%s: %s", tc.name, stdout)
		}
		same(out)
	}
	// The rerun of a finished tune leaves it as it is.
	before, _ := os.Stat(d("full/tune.json"))
	if _, stderr := mustRun(t, 0, args(d("full"))...); !strings.Contains(stderr, "already complete") {
		t.Errorf("rerun of a finished tune: %s", stderr)
	}
	if after, _ := os.Stat(d("full/tune.json")); !after.ModTime().Equal(before.ModTime()) {
		t.Error("the rerun of a finished tune rewrote tune.json")
	}
	// --resume of a directory a tune killed before its first generation left.
	os.Mkdir(d("unused"), 0o755)
	if _, stderr := mustRun(t, 2, "tune", "--resume", d("unused")); !strings.Contains(stderr, "--resume "+d("unused")+": no state.json: the tune there finished no generation") {
		t.Errorf("--resume of an unused directory: %s", stderr)
	}
}

// A tune whose report cannot be written (a full disk) leaves no tune.json:
// nothing looks finished, and the rerun finishes it.
func TestTuneFailedReportLeavesNoResult(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t")
	args := []string{"tune", "--strategy", "heuristic:bluff=0.1", "--param", "threshold=0:1", "--players", "2",
		"--generations", "2", "--games", "100", "--confirm-games", "200", "--workers", "1", "--quiet", "--out", out}
	t.Setenv(sim.FaultEnv, "report.md")
	mustRun(t, 1, args...)
	if fileExists(filepath.Join(out, "tune.json")) {
		t.Fatal("a tune that failed to write report.md left tune.json")
	}
	t.Setenv(sim.FaultEnv, "")
	mustRun(t, 0, args...)
	for _, f := range []string{"tune.json", "report.md"} {
		if !fileExists(filepath.Join(out, f)) {
			t.Errorf("the rerun left no %s", f)
		}
	}
}
