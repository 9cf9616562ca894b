package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

// buildUnosim builds the command into a temporary directory: the fault
// tests kill real processes.
func buildUnosim(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "unosim")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// faultRounds is how many kills each shard takes at most (the runs grow
// with it): a few by default, so that the tests take seconds, more with
// UNOSIM_FAULT_ROUNDS (e.g. UNOSIM_FAULT_ROUNDS=100 go test ./cmd/unosim
// -run Killed; make faults).
func faultRounds(t *testing.T) int {
	if v := os.Getenv("UNOSIM_FAULT_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("UNOSIM_FAULT_ROUNDS=%q: want a positive number", v)
		}
		return n
	}
	return 6
}

// runKilled runs args until it exits 0, killing it (SIGKILL and SIGTERM in
// turn) at a random point of each of the first rounds runs. After every
// kill, stats.json is absent or a complete, consistent record: never a torn
// file. It returns the number of kills that stopped a run.
func runKilled(t *testing.T, bin string, rng *rand.Rand, rounds int, check func(dir string) error, dir string, args ...string) int {
	t.Helper()
	kills := 0
	for attempt := 0; ; attempt++ {
		if attempt > rounds+20 {
			t.Fatalf("%v: not complete after %d attempts", args, attempt)
		}
		cmd := exec.Command(bin, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sig := syscall.SIGKILL
		if attempt%2 == 1 {
			sig = syscall.SIGTERM
		}
		var timer *time.Timer
		if attempt < rounds {
			delay := time.Duration(20+rng.IntN(200)) * time.Millisecond
			timer = time.AfterFunc(delay, func() { cmd.Process.Signal(sig) })
		}
		err := cmd.Wait()
		if timer != nil {
			timer.Stop()
		}
		var exit *exec.ExitError
		switch {
		case err == nil:
			return kills
		case errors.As(err, &exit) && (exit.ExitCode() == exitInterrupted || exit.ExitCode() == -1):
			kills++ // stopped by our signal: 130 after SIGTERM, no code after SIGKILL
		default:
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		if fileExists(filepath.Join(dir, "stats.json")) {
			if err := check(dir); err != nil {
				t.Fatalf("after a %v: %v", sig, err)
			}
		}
	}
}

func checkSim(dir string) error {
	_, err := sim.ReadStats(dir)
	return err
}

func checkExperiment(dir string) error {
	_, err := experiments.ReadStats(dir)
	return err
}

// Shards killed at random points (SIGKILL and SIGTERM) and rerun with the
// same command until complete merge into exactly the single run's stats;
// a requeued shard that finds its directory complete leaves it untouched.
func TestKilledShardsResumeToTheSingleRun(t *testing.T) {
	bin := buildUnosim(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	rounds := faultRounds(t)
	common := []string{"simulate", "--games", strconv.Itoa(40000 * rounds), "--seed", "11", "--players", "3", "--seats", "rotate",
		"--strategy", "heuristic", "--strategy", "random", "--strategy", "heuristic:bluff=0.3", "--quiet", "--workers", "2"}
	var shards []string
	kills := 0
	for i := range 2 {
		out := filepath.Join(dir, "shard-"+strconv.Itoa(i))
		shards = append(shards, out)
		kills += runKilled(t, bin, rng, rounds, checkSim, out,
			append(common, "--shard", strconv.Itoa(i)+"/2", "--out", out, "--checkpoint-every", strconv.Itoa(5000+rng.IntN(20000)))...)
	}
	t.Logf("%d kills", kills)
	// The requeue of a finished shard: exit 0, nothing rewritten.
	before, _ := os.ReadFile(filepath.Join(shards[1], "stats.json"))
	out, err := exec.Command(bin, append(common, "--shard", "1/2", "--out", shards[1])...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "already complete") {
		t.Fatalf("requeue of a complete shard: %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(filepath.Join(shards[1], "stats.json")); string(after) != string(before) {
		t.Fatal("the requeue rewrote a complete shard")
	}
	merged := filepath.Join(dir, "all")
	if out, err := exec.Command(bin, "merge", shards[0], shards[1], "--out", merged).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	single := filepath.Join(dir, "single")
	if out, err := exec.Command(bin, append(common, "--out", single)...).CombinedOutput(); err != nil {
		t.Fatalf("single run: %v\n%s", err, out)
	}
	if statsOf(t, merged) != statsOf(t, single) {
		t.Fatal("the merge of the killed and resumed shards differs from the single run")
	}
}

// The same for an experiment shard.
func TestKilledExperimentShardResumes(t *testing.T) {
	bin := buildUnosim(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.yaml")
	rounds := faultRounds(t)
	os.WriteFile(file, []byte(strings.Replace(tinyExperiment, "games: 1200", "games: "+strconv.Itoa(20000*rounds), 1)), 0o644)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 14))
	args := func(out string) []string {
		return []string{"experiment", "run", file, "--shard", "1/2", "--out", out, "--quiet", "--workers", "2", "--checkpoint-every", "4000"}
	}
	killed := filepath.Join(dir, "killed")
	t.Logf("%d kills", runKilled(t, bin, rng, rounds, checkExperiment, killed, args(killed)...))
	whole := filepath.Join(dir, "whole")
	if out, err := exec.Command(bin, args(whole)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted: %v\n%s", err, out)
	}
	if statsOf(t, killed) != statsOf(t, whole) {
		t.Fatal("the killed and resumed experiment shard differs from the uninterrupted one")
	}
	report, _ := os.ReadFile(filepath.Join(killed, "report.md"))
	if strings.Contains(string(report), "INCOMPLETE") || !strings.Contains(string(report), "ONE SHARD (1/2)") {
		t.Fatal("the finished shard's report has the wrong banners")
	}
}
