package strategy_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// buildBot builds the test bot of testdata/bot and returns its path.
func buildBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bot")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/bot").CombinedOutput(); err != nil {
		t.Fatalf("building the test bot: %v\n%s", err, out)
	}
	return bin
}

// playExec plays games 0..n-1 of seed 3 with the bot in seat 0 of a
// two-player table against random, one process for the table.
func playExec(t *testing.T, spec string, n int) ([]engine.Result, error) {
	t.Helper()
	s, err := strategy.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	pool := strategy.NewPool()
	defer pool.Close()
	g, err := engine.NewGame(engine.DefaultOptions(engine.Classic), []engine.Strategy{s.NewIn(pool), &strategy.Random{}})
	if err != nil {
		t.Fatal(err)
	}
	var rs []engine.Result
	for i := range uint64(n) {
		r := *g.Play(3, i)
		if err := pool.Err(); err != nil {
			return rs, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// A bot that uses the seed it is given plays the same games every time.
func TestExecBotIsReproducible(t *testing.T) {
	bin := buildBot(t)
	a, err := playExec(t, "exec:"+bin, 30)
	if err != nil {
		t.Fatal(err)
	}
	b, err := playExec(t, "exec:"+bin+" observe", 30)
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("game %d differs between runs: %+v and %+v", i, a[i], b[i])
		}
		if a[i].Winner == 0 {
			wins++
		}
	}
	if wins == 0 || wins == len(a) {
		t.Fatalf("the bot won %d of %d games", wins, len(a))
	}
}

// A bot that crashes, hangs, prints garbage, answers a move that does not
// exist or speaks another protocol stops the run with a message naming the
// bot, the game and the decision.
func TestExecBotFaults(t *testing.T) {
	bin := buildBot(t)
	t.Setenv("UNOSIM_BOT_TIMEOUT", "300ms")
	for _, tc := range []struct{ mode, want string }{
		{"crash", "exited"},
		{"hang", "no answer within 300ms"},
		{"garbage", `answered "what is this"`},
		{"illegal", "there are"},
		{"closeout", "closed its standard output"},
		{"huge", "longer than"},
		{"twice", "when no answer was due"},
		{"badhello", "protocol 99"},
	} {
		start := time.Now()
		_, err := playExec(t, "exec:"+bin+" "+tc.mode, 50)
		if err == nil {
			t.Fatalf("%s: no error", tc.mode)
		}
		msg := err.Error()
		for _, w := range []string{bin, "game ", tc.want} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not mention %q", tc.mode, msg, w)
			}
		}
		if tc.mode != "badhello" && !strings.Contains(msg, "decision turn") && !strings.Contains(msg, "decision ") {
			t.Errorf("%s: %q names no decision", tc.mode, msg)
		}
		if tc.mode == "crash" && !strings.Contains(msg, "crashing on purpose") {
			t.Errorf("crash: %q does not quote the bot's stderr", msg)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("%s: took %v to stop", tc.mode, time.Since(start))
		}
	}
}

// A bot runs in a process group of its own: the terminal's Ctrl-C, sent
// to unosim's group, stops the run cleanly instead of killing the bot and
// failing the run on it.
func TestExecBotHasItsOwnProcessGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups")
	}
	if _, err := playExec(t, "exec:"+buildBot(t)+" pgrp", 3); err != nil {
		t.Fatal(err)
	}
}

// A timeout unosim cannot read is refused, not silently replaced by 10 s.
func TestExecBotTimeoutMustParse(t *testing.T) {
	bin := buildBot(t)
	for _, v := range []string{"30", "-1s", "soon"} {
		t.Setenv("UNOSIM_BOT_TIMEOUT", v)
		_, err := playExec(t, "exec:"+bin, 1)
		if err == nil || !strings.Contains(err.Error(), "UNOSIM_BOT_TIMEOUT="+v) {
			t.Errorf("UNOSIM_BOT_TIMEOUT=%s: %v", v, err)
		}
	}
}

func TestExecSpec(t *testing.T) {
	s, err := strategy.Parse("exec:  python3   examples/randombot.py ")
	if err != nil || s.String() != "exec:python3 examples/randombot.py" || s.Name() != "exec" {
		t.Fatalf("Parse = %v, %v", s, err)
	}
	if _, err := strategy.Parse("exec:"); err == nil || !strings.Contains(err.Error(), "command line") {
		t.Fatalf("Parse(exec:) = %v", err)
	}
}

// The Python example speaks the protocol (where python3 is installed).
func TestExecPythonExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	rs, err := playExec(t, "exec:python3 ../examples/randombot.py", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 20 {
		t.Fatalf("%d games", len(rs))
	}
}

// The Python bot that answers every kind of decision plays each rule set,
// house rules on, against the heuristic (where python3 is installed); with
// --strict it exits on a decision it does not know.
func TestExecPythonSimpleBot(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	for _, tc := range []struct {
		rules engine.RuleSet
		set   []string
	}{
		{engine.Classic, []string{"stack-draw-two=true", "stack-draw-four=true", "seven-zero=true", "jump-in=any"}},
		{engine.Classic, []string{"deflect-draw-two=true", "deflect-draw-four=true", "deflect-skip=true", "deck=classic,wild-swap-hands=4"}},
		{engine.Party, nil},
		{engine.Encanto, nil},
	} {
		o := engine.DefaultOptions(tc.rules)
		for _, kv := range tc.set {
			k, v, _ := strings.Cut(kv, "=")
			if err := o.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		pool := strategy.NewPool()
		bot := strategy.MustParse("exec:python3 ../examples/simplebot.py --strict").NewIn(pool)
		g, err := engine.NewGame(o, []engine.Strategy{bot, strategy.MustParse("heuristic").New(), strategy.MustParse("random:forget=0.5").New(), strategy.MustParse("heuristic").New()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(20) {
			g.Play(5, i)
			if err := pool.Err(); err != nil {
				t.Fatalf("%v %v: %v", tc.rules, tc.set, err)
			}
		}
		pool.Close()
	}
}

// counting counts the decisions put to a strategy.
type counting struct {
	engine.Strategy
	n *int
}

func (c counting) Decide(v *engine.View, moves []engine.Move) int {
	*c.n++
	return c.Strategy.Decide(v, moves)
}

// BenchmarkExecBot measures decisions per second through the protocol with
// the Go test bot in both seats of a two-player game.
func BenchmarkExecBot(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "bot")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/bot").CombinedOutput(); err != nil {
		b.Fatalf("building the test bot: %v\n%s", err, out)
	}
	s := strategy.MustParse("exec:" + bin)
	pool := strategy.NewPool()
	defer pool.Close()
	n := 0
	g, err := engine.NewGame(engine.DefaultOptions(engine.Classic), []engine.Strategy{counting{s.NewIn(pool), &n}, counting{s.NewIn(pool), &n}})
	if err != nil {
		b.Fatal(err)
	}
	i := uint64(0)
	for b.Loop() {
		g.Play(1, i)
		i++
	}
	if err := pool.Err(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "decisions/s")
}
