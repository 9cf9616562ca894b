package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func matchJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, stderr := unosim(t, append([]string{"match", "--json", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	delete(m, "seconds")
	return m
}

// TestMatchSPRT: heuristic against random in 2 players is far above 0.55
// (0.578 in a 4,000-game tournament): the SPRT accepts H1 well before the
// cap, with the same decision and games for any worker count.
func TestMatchSPRT(t *testing.T) {
	args := []string{"--strategy", "heuristic", "--vs", "random", "--sprt", "0.5:0.55", "--games", "20000"}
	m := matchJSON(t, append(args, "--workers", "1")...)
	for _, k := range []string{"decision", "games", "win_rate", "ci", "expected_games", "llr"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %s missing", k)
		}
	}
	if m["decision"] != "H1" || m["games"].(float64) >= 20000 {
		t.Errorf("decision %v after %v games", m["decision"], m["games"])
	}
	m2 := matchJSON(t, append(args, "--workers", "2")...)
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(m2)
	if string(a) != string(b) {
		t.Errorf("workers 1 and 2 differ:\n%s\n%s", a, b)
	}
	// Against itself at 0.5:0.55 the test accepts H0.
	if m := matchJSON(t, "--strategy", "heuristic", "--vs", "heuristic:bluff=0.01", "--sprt", "0elo:35elo", "--games", "100000"); m["decision"] != "H0" {
		t.Errorf("near-equal strategies: decision %v", m["decision"])
	}
}

// TestMatchPaired: without --sprt, the paired difference against B in the
// same seats: for a 2-player mirror of B every deal has exactly one
// winner in two games when it finishes, so B's baseline is 0.5 and the
// effect is A's win rate - 0.5.
func TestMatchPaired(t *testing.T) {
	m := matchJSON(t, "--strategy", "heuristic", "--vs", "random", "--games", "2000")
	if m["games"].(float64) != 2000 {
		t.Errorf("games %v", m["games"])
	}
	d := m["difference"].(map[string]any)
	if d["baseline_win_rate"].(float64) != 0.5 {
		t.Errorf("baseline %v", d["baseline_win_rate"])
	}
	if got, want := d["effect"].(float64), m["win_rate"].(float64)-0.5; got-want > 1e-12 || want-got > 1e-12 {
		t.Errorf("effect %v, want %v", got, want)
	}
	ci := d["ci"].([]any)
	if p := d["p"].(float64); (p < 0.05) != (ci[0].(float64) > 0 || ci[1].(float64) < 0) {
		t.Errorf("interval %v and p %v disagree", ci, p)
	}
}

func TestMatchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--vs", "random"}, "--strategy is required"},
		{[]string{"match", "--strategy", "random"}, "--vs is required"},
		{[]string{"match", "--strategy", "nosuch", "--vs", "random"}, "unknown strategy"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--sprt", "0.5"}, "want H0:H1"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--sprt", "0.6:0.5"}, "must be below"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--sprt", "0.5:1.5"}, "not a win rate"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--sprt", "0.5:0.6", "--alpha", "0.7"}, "alpha"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--games", "0"}, `--games "0": want a number of games from 1`},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--games", "3"}, "--games 3: want at least two deals"},
		{[]string{"match", "--strategy", "random", "--vs", "random", "--players", "1"}, "players"},
	} {
		code, _, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
}

func TestParseSPRT(t *testing.T) {
	p0, p1, err := parseSPRT("0elo:10elo", 2)
	// 10 Elo at two players: 1/(1 + 10^(-10/400)) = 0.514387...
	if err != nil || p0 != 0.5 || p1 < 0.51438 || p1 > 0.51439 {
		t.Errorf("2 players: %v %v %v", p0, p1, err)
	}
	// At four players 0 Elo is the fair share.
	if p0, _, err := parseSPRT("0elo:5elo", 4); err != nil || p0 != 0.25 {
		t.Errorf("4 players: %v %v", p0, err)
	}
	if p0, p1, err := parseSPRT(" 0.50 : 0.52 ", 2); err != nil || p0 != 0.5 || p1 != 0.52 {
		t.Errorf("win rates: %v %v %v", p0, p1, err)
	}
	for _, bad := range []string{"0.5", "x:0.6", "0.5:0.5", "0elo:xelo", "0:0.5"} {
		if _, _, err := parseSPRT(bad, 2); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestMatchPinned: match's outputs are those of the binary before tune's
// runner and the experiments' loop became one (package paired; commit
// 5790513), for the same seed and flags, bit for bit, for any worker
// count: the README's match rows and the strength runs stay reproducible.
func TestMatchPinned(t *testing.T) {
	for _, w := range []string{"1", "2"} {
		m := matchJSON(t, "--strategy", "heuristic", "--vs", "random", "--players", "4", "--games", "4000", "--seed", "3", "--workers", w)
		d := m["difference"].(map[string]any)
		ci, dci := m["ci"].([]any), d["ci"].([]any)
		got := []float64{m["games"].(float64), m["win_rate"].(float64), ci[0].(float64), ci[1].(float64),
			d["baseline_win_rate"].(float64), d["effect"].(float64), dci[0].(float64), dci[1].(float64), d["p"].(float64)}
		want := []float64{4000, 0.3305, 0.3168418788354437, 0.34415812116455635, 0.25, 0.0805, 0.06684187883544367, 0.09415812116455634, 3.9985726264576087e-29}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("workers %s: value %d is %v, want %v (all %v)", w, i, got[i], want[i], got)
			}
		}
		m = matchJSON(t, "--strategy", "heuristic:bluff=0.3", "--vs", "heuristic", "--players", "2", "--games", "20000", "--seed", "2", "--sprt", "0.45:0.55", "--workers", w)
		if m["decision"] != "H0" || m["games"].(float64) != 128 || m["win_rate"].(float64) != 0.4453125 || m["llr"].(float64) != -10.881214421252382 {
			t.Errorf("workers %s: SPRT %v after %v games, win rate %v, LLR %v; want H0 after 128, 0.4453125, -10.881214421252382", w, m["decision"], m["games"], m["win_rate"], m["llr"])
		}
	}
}

// TestMatchSPRTReportsTheTestNotAnInterval: after a sequential stop the
// fixed-sample interval is biased by the stopping rule, so match labels it
// naive and reports what is valid, the SPRT's decision with its error
// rates, as given by --alpha and --beta. Bounds from Python:
// math.log(0.02/0.9) = -3.8066624897703196, math.log(0.98/0.1) =
// 2.282382385676526.
func TestMatchSPRTReportsTheTestNotAnInterval(t *testing.T) {
	args := []string{"match", "--quiet", "--strategy", "heuristic:bluff=0.3", "--vs", "heuristic", "--games", "20000", "--seed", "2",
		"--sprt", "0.45:0.55", "--alpha", "0.1", "--beta", "0.02", "--workers", "1"}
	code, out, stderr := unosim(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"bounds -3.807, 2.282", "alpha 0.1", "beta 0.02", "naive 95% CI"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(95% CI") {
		t.Errorf("an unlabelled interval after a sequential stop:\n%s", out)
	}
	m := matchJSON(t, args[2:]...)
	if m["alpha"] != 0.1 || m["beta"] != 0.02 || m["ci_naive"] != true {
		t.Errorf("JSON alpha %v, beta %v, ci_naive %v; want 0.1, 0.02, true", m["alpha"], m["beta"], m["ci_naive"])
	}
	if b := m["llr_bounds"].([]any); b[0] != -3.8066624897703196 || b[1] != 2.282382385676526 {
		t.Errorf("bounds %v", b)
	}
	// Without --sprt the interval is an ordinary one.
	if m := matchJSON(t, "--strategy", "heuristic", "--vs", "random", "--games", "400", "--workers", "1"); m["ci_naive"] != nil || m["alpha"] != nil {
		t.Errorf("fixed-sample match: ci_naive %v, alpha %v; want neither", m["ci_naive"], m["alpha"])
	}
}

// match, tournament and tune report only at their end: an interrupt says
// what was kept, not simulate's "the games finished so far were reported".
func TestInterruptSaysWhatWasKept(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "tuned")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--strategy", "random", "--vs", "heuristic", "--games", "400", "--quiet"}, "nothing was reported"},
		{[]string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "400", "--quiet"}, "nothing was reported or written"},
		{[]string{"tune", "--param", "threshold=0:1", "--generations", "2", "--games", "40", "--confirm-games", "40", "--quiet", "--out", dir}, "no generation was finished"},
	} {
		code, out, stderr := unosimCtx(t, ctx, c.args...)
		if code != exitInterrupted || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "were reported") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 130 and %q", c.args[0], code, out, stderr, c.want)
		}
	}
}

// TestMatchTextUnits: the terminal output names the seed and the deals
// every number comes from, and gives rates in % with the fair share and
// the paired difference in pp, as simulate and compare do (it printed
// "0.2665" and "+0.0165", a proportion beside compare's pp, and no seed).
func TestMatchTextUnits(t *testing.T) {
	code, out, stderr := unosim(t, "match", "--quiet", "--strategy", "random", "--vs", "heuristic", "--players", "2", "--games", "400", "--seed", "7", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := matchJSON(t, "--strategy", "random", "--vs", "heuristic", "--players", "2", "--games", "400", "--seed", "7", "--workers", "1")
	rate, diff := m["win_rate"].(float64), m["difference"].(map[string]any)["effect"].(float64)
	for _, want := range []string{
		"seed 7, deals 0-199", "classic rules",
		fmt.Sprintf("win rate of random: %.2f%% (95%% CI", 100*rate), "fair share 50.00%",
		fmt.Sprintf("paired difference: %+.2f pp", 100*diff),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if m["seed"].(float64) != 7 || m["deals"].(float64) != 200 {
		t.Errorf("--json: seed %v, deals %v", m["seed"], m["deals"])
	}
}
