package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testBot builds the protocol test bot (strategy/testdata/bot).
func testBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bot")
	if out, err := exec.Command("go", "build", "-o", bin, "../../strategy/testdata/bot").CombinedOutput(); err != nil {
		t.Fatalf("building the test bot: %v\n%s", err, out)
	}
	return bin
}

// A bot in another language plays through simulate: the same results for
// any number of workers (one bot process per worker), and a bot that fails
// stops the run with exit 1, naming the bot, the game and the decision,
// with the games before it written and marked incomplete.
func TestSimulateWithExecBot(t *testing.T) {
	bin := testBot(t)
	var sums []map[string]any
	for _, workers := range []string{"1", "2"} {
		code, out, errOut := unosim(t, "simulate", "--players", "2", "--games", "3000", "--workers", workers, "--seats", "rotate",
			"--strategy", "exec:"+bin, "--strategy", "random", "--json", "--quiet")
		if code != 0 {
			t.Fatalf("workers %s: exit %d: %s", workers, code, errOut)
		}
		var sum map[string]any
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, sum)
	}
	for _, k := range []string{"win_rate_by_strategy", "turns", "events"} {
		a, _ := json.Marshal(sums[0][k])
		b, _ := json.Marshal(sums[1][k])
		if string(a) != string(b) {
			t.Fatalf("%s differs between 1 and 2 workers:\n%s\n%s", k, a, b)
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errOut := unosim(t, "simulate", "--players", "2", "--games", "3000", "--workers", "1",
		"--strategy", "exec:"+bin+" crash", "--strategy", "random", "--out", dir, "--quiet")
	if code != 1 {
		t.Fatalf("a crashing bot: exit %d, want 1: %s", code, errOut)
	}
	for _, w := range []string{bin, "game ", "decision ", "exited", "marked incomplete"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("message %q does not mention %q", errOut, w)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	if sum["complete"] != false {
		t.Fatalf("the summary of a failed run says complete: %v", sum["complete"])
	}
}

// A bot that fails during a replay stops it with exit 1 and the bot's
// message; the game went on with stand-in moves, so neither its later
// events nor its result are printed.
func TestReplayWithFailingBot(t *testing.T) {
	bin := testBot(t)
	for _, mode := range []string{"crash", "garbage", "illegal"} {
		for _, asJSON := range []string{"--json=false", "--json"} {
			code, out, errOut := unosim(t, "replay", "--players", "2", "--game", "0", asJSON,
				"--strategy", "exec:"+bin+" "+mode, "--strategy", "random")
			if code != exitFailure || !strings.Contains(errOut, "exec bot") && !strings.Contains(errOut, "out of range") {
				t.Errorf("%s %s: exit %d, stderr %q; want exit 1 naming the failure", mode, asJSON, code, errOut)
			}
			if strings.Contains(out, "result") {
				t.Errorf("%s %s: the replay printed the result of a game its bot did not finish", mode, asJSON)
			}
		}
	}
	code, _, errOut := unosim(t, "replay", "--players", "2", "--game", "0", "--strategy", "exec:"+bin, "--strategy", "random")
	if code != 0 {
		t.Errorf("a sound bot: exit %d: %s", code, errOut)
	}
}

// A bot that exits at once is reported as exited by simulate and replay
// alike, whether unosim's first write or its first read notices (a race:
// hence several runs), never as "broken pipe".
func TestBotThatExitsAtOnce(t *testing.T) {
	for i := 0; i < 10; i++ {
		for _, args := range [][]string{
			{"simulate", "--games", "1", "--workers", "1", "--quiet", "--strategy", "exec:true"},
			{"replay", "--game", "0", "--strategy", "exec:true"},
		} {
			code, _, errOut := unosim(t, args...)
			if code != exitFailure || !strings.Contains(errOut, "handshake: it exited") || strings.Contains(errOut, "pipe") {
				t.Fatalf("%v: exit %d, stderr %q; want exit 1: it exited", args, code, errOut)
			}
		}
	}
}

// A run stopped by a failing bot keeps only the games up to its last
// checkpoint; the message says how many were reported, not that "the games
// finished before it" were, when none was.
func TestSimulateExecBotFailureSaysWhatWasKept(t *testing.T) {
	bin := testBot(t)
	code, out, errOut := unosim(t, "simulate", "--players", "2", "--games", "200", "--workers", "1",
		"--strategy", "exec:"+bin+" crash", "--strategy", "random", "--quiet")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	if strings.Contains(errOut, "finished before it were reported") || !strings.Contains(errOut, "no game was reported") {
		t.Errorf("the message does not say that no game was kept: %s", errOut)
	}
	if strings.Contains(out, "0--1") || !strings.Contains(out, "0 games of 200") {
		t.Errorf("the table of no game: %s", out)
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errOut = unosim(t, "simulate", "--players", "2", "--games", "3000", "--workers", "1", "--checkpoint-every", "1024",
		"--strategy", "exec:"+bin+" crash=70000", "--strategy", "random", "--out", dir, "--quiet")
	if code != 1 || !strings.Contains(errOut, "the 1,024 games up to the last checkpoint were reported") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
