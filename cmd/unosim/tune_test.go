package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"tune", "--param", "threshold=1:0", "--out", filepath.Join(dir, "a")}, "LO < HI"},
		{[]string{"tune", "--param", "threshold=0:1", "--method", "grid", "--out", filepath.Join(dir, "a")}, "valid methods are cmaes and spsa"},
		{[]string{"tune", "--param", "threshold=0:1", "--strategy", "random", "--out", filepath.Join(dir, "a")}, `strategy random has no parameter "threshold" (valid: bluff, challenge, forget, catch)`},
		{[]string{"tune", "--param", "threshold=0:1", "--players", "4", "--against", "random", "--against", "random", "--out", filepath.Join(dir, "a")}, "--against given 2 times"},
		{[]string{"tune", "--param", "threshold=0:1", "--games", "1", "--out", filepath.Join(dir, "a")}, "--games 1"},
		{[]string{"tune", "--resume", filepath.Join(dir, "none")}, "--resume"},
		{[]string{"tune", "--resume", other, "--games", "5"}, "leave out --games"},
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
