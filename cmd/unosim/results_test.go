package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// replay --json: a header with the changed options, every drawn card seen
// by its drawer only, hand sizes after every turn that agree with the
// turns and the winner, and the result of the game simulate played.
func TestReplayJSON(t *testing.T) {
	args := []string{"replay", "--seed", "3", "--game", "5", "--players", "3", "--strategy", "random", "--set", "stack-draw-two=true", "--json"}
	code, out, stderr := unosim(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", len(lines)+1, err, sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) < 10 || lines[0]["type"] != "header" || lines[len(lines)-1]["type"] != "result" {
		t.Fatalf("want header, events, result; got %d lines starting %v", len(lines), lines[0])
	}
	h := lines[0]
	if opts, _ := h["options"].(map[string]any); len(opts) != 1 || opts["stack-draw-two"] != "true" {
		t.Errorf("header options %v, want {stack-draw-two: true}", h["options"])
	}
	if h["players"] != 3.0 || h["rules"] != "classic" || len(h["seats"].([]any)) != 3 {
		t.Errorf("header %v", h)
	}
	turns, sizesLines, drawCards, drawn := 0, 0, 0, 0
	var last []any
	for _, l := range lines[1 : len(lines)-1] {
		switch l["type"] {
		case "hand-sizes":
			sizesLines++
			last = l["hand_sizes"].([]any)
			if len(last) != 3 {
				t.Fatalf("hand sizes %v for 3 players", last)
			}
		case "event":
			switch l["kind"] {
			case "turn":
				turns++
			case "draw-card":
				drawCards++
				if l["seen_by"] != l["seat"] || l["card"] == "" {
					t.Errorf("drawn card %v: want a card seen by its drawer", l)
				}
			case "draw":
				drawn += int(l["n2"].(float64))
			}
		}
	}
	res := lines[len(lines)-1]
	if float64(turns) != res["turns"] || sizesLines != turns {
		t.Errorf("%d turn events, %d hand-size lines, result turns %v", turns, sizesLines, res["turns"])
	}
	if drawCards != drawn {
		t.Errorf("%d drawn cards named, %d drawn by the draw events", drawCards, drawn)
	}
	// The game is the one simulate plays: its turns agree with a table's.
	cf := configFlags{rules: "classic", players: 3, strategies: []string{"random"}, sets: []string{"stack-draw-two=true"}, seats: "fixed", seed: 3}
	cfg, err := cf.build()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Games = 10
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tab, err := sim.NewTable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Play(5)
	if float64(r.Turns) != res["turns"] {
		t.Errorf("replay: %v turns, simulate's game 5: %d", res["turns"], r.Turns)
	}
	if w := res["winners"].([]any); len(w) == 1 && last[int(w[0].(float64))] != 0.0 {
		t.Errorf("the winner %v holds %v cards at the end", w, last)
	}
	// The text form names the drawn cards on the draw line.
	args = args[:len(args)-1]
	_, text, _ := unosim(t, args...)
	if !strings.Contains(text, "options (--set): stack-draw-two=true") || !strings.Contains(text, "(seen by seat") || strings.Count(text, "  hand sizes: ") != turns {
		t.Errorf("text replay lacks the options, the drawn cards or the hand sizes:\n%.2000s", text)
	}
}

// compare's numbers against a direct computation: both configurations
// played game by game here, the paired sums taken, and the tests computed
// from their textbook formulas (paired t with gonum's Student t; McNemar's
// score test z = (b - c) / sqrt(b + c) for at least 25 discordant pairs).
// An interrupted compare says so first in its printed report, as
// simulate's table does, not only on stderr: stdout redirected to a file
// must not look like a complete comparison.
func TestCompareInterruptedSaysIncomplete(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, _ := unosimCtx(t, ctx, "compare", "--players", "2", "--set", "stack-draw-two=true", "--games", "4000", "--workers", "1", "--quiet")
	if code != exitInterrupted || !strings.HasPrefix(out, "INCOMPLETE: interrupted after ") || !strings.Contains(out, " of 4,000 games of each configuration") {
		t.Errorf("exit %d, report %.200q; want exit 130 and a first line INCOMPLETE", code, out)
	}
}

func TestCompareAgainstDirect(t *testing.T) {
	const games = 600
	code, out, stderr := unosim(t, "compare", "--players", "3", "--strategy", "random", "--set", "stack-draw-two=true", "--set", "draw=until-playable",
		"--games", strconv.Itoa(games), "--seed", "11", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res compareResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	build := func(sets ...string) *sim.Config {
		cf := configFlags{rules: "classic", players: 3, strategies: []string{"random"}, sets: sets, seats: "fixed", seed: 11}
		c, err := cf.build()
		if err != nil {
			t.Fatal(err)
		}
		c.Games = games
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	base, changed := build(), build("stack-draw-two=true", "draw=until-playable")
	tb, _ := sim.NewTable(base)
	tc, _ := sim.NewTable(changed)
	var sumD, sumD2 float64
	var sumB int
	var disc [3][2]int // seat: (changed only, baseline only)
	for i := range int64(games) {
		rb := tb.Play(i)
		bTurns := rb.Turns
		var bWon [3]bool
		for s := range 3 {
			bWon[s] = rb.Won(s)
		}
		rc := tc.Play(i)
		d := float64(rc.Turns - bTurns)
		sumD += d
		sumD2 += d * d
		sumB += bTurns
		for s := range 3 {
			switch {
			case rc.Won(s) && !bWon[s]:
				disc[s][0]++
			case !rc.Won(s) && bWon[s]:
				disc[s][1]++
			}
		}
	}
	n := float64(games)
	byMetric := map[string]compareTest{}
	for _, x := range res.Tests {
		byMetric[x.Metric] = x
	}
	tt := byMetric["turns"]
	mean := sumD / n
	sd := math.Sqrt((sumD2 - n*mean*mean) / (n - 1))
	tstat := mean / (sd / math.Sqrt(n))
	p := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Survival(math.Abs(tstat))
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sd / math.Sqrt(n)
	if res.Games != games || tt.Effect == nil || math.Abs(*tt.Effect-mean) > 1e-12 || math.Abs(*tt.Baseline-float64(sumB)/n) > 1e-12 {
		t.Fatalf("turns: %+v, want effect %v, baseline %v", tt, mean, float64(sumB)/n)
	}
	if math.Abs(*tt.P-p) > 1e-9*math.Max(p, 1e-300) && math.Abs(*tt.P-p) > 1e-12 {
		t.Errorf("turns p %v, want %v", *tt.P, p)
	}
	if math.Abs(*tt.CI[0]-(mean-half)) > 1e-9 || math.Abs(*tt.CI[1]-(mean+half)) > 1e-9 {
		t.Errorf("turns CI %v %v, want %v ± %v", *tt.CI[0], *tt.CI[1], mean, half)
	}
	for s := range 3 {
		x := byMetric["position:"+strconv.Itoa(s)]
		b, c := float64(disc[s][0]), float64(disc[s][1])
		if math.Abs(*x.Effect-(b-c)/n) > 1e-12 {
			t.Errorf("seat %d: effect %v, want (%v - %v)/%v", s, *x.Effect, b, c, n)
		}
		if b+c >= 25 {
			z := (b - c) / math.Sqrt(b+c)
			if want := math.Erfc(math.Abs(z) / math.Sqrt2); math.Abs(*x.P-want) > 1e-9 {
				t.Errorf("seat %d: McNemar p %v, want %v (b %v, c %v)", s, *x.P, want, b, c)
			}
		}
	}
	// An identical pair is refused, in the tool's words.
	if code, _, stderr := unosim(t, "compare", "--set", "draw=one"); code != 2 || !strings.Contains(stderr, "the same") {
		t.Errorf("identical configurations: exit %d, %s", code, stderr)
	}
}

// rules --json types every option from its spec: each enum value and the
// integer minimum are accepted by the engine, one below the minimum is not.
func TestRulesJSONTyped(t *testing.T) {
	code, out, _ := unosim(t, "rules", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var l struct {
		Options []optionJSON `json:"options"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	specs := engine.OptionSpecs()
	if len(l.Options) != len(specs) {
		t.Fatalf("%d options listed, %d specs", len(l.Options), len(specs))
	}
	for i, o := range l.Options {
		s := specs[i]
		if o.Name != s.Name {
			t.Fatalf("option %d: %s, want %s", i, o.Name, s.Name)
		}
		for r := engine.Classic; r < engine.NumRuleSets; r++ {
			if o.Defaults[r.String()] != s.Default(r) {
				t.Errorf("%s: default under %s %q, want %q", o.Name, r, o.Defaults[r.String()], s.Default(r))
			}
		}
		opts := engine.DefaultOptions(engine.Classic)
		switch o.Type {
		case "boolean", "enum":
			if len(o.Enum) == 0 {
				t.Errorf("%s: %s without values", o.Name, o.Type)
			}
			for _, v := range o.Enum {
				if err := opts.Set(o.Name, v); err != nil {
					t.Errorf("%s=%s listed but refused: %v", o.Name, v, err)
				}
			}
		case "integer":
			if o.Minimum == nil {
				t.Fatalf("%s: integer without a minimum", o.Name)
			}
			if err := opts.Set(o.Name, strconv.Itoa(*o.Minimum)); err != nil {
				t.Errorf("%s: minimum %d refused: %v", o.Name, *o.Minimum, err)
			}
			if opts.Set(o.Name, strconv.Itoa(*o.Minimum-1)) == nil {
				t.Errorf("%s: %d, below the minimum, accepted", o.Name, *o.Minimum-1)
			}
		case "deck", "rule-set":
		default:
			t.Errorf("%s: type %q", o.Name, o.Type)
		}
	}
}

func TestListingsJSON(t *testing.T) {
	code, out, _ := unosim(t, "experiment", "list", "--json")
	var list []builtinJSON
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("experiment list --json: exit %d: %s", code, out)
	}
	bs := experiments.Builtins()
	if len(list) != len(bs) {
		t.Fatalf("%d listed, %d built in", len(list), len(bs))
	}
	for i, b := range bs {
		e, _ := experiments.LoadBuiltin(b.Name)
		if list[i].Name != b.Name || list[i].Cells != len(e.Cells) || list[i].Games != e.File.Games {
			t.Errorf("listed %+v, built in %s with %d cells, %d games", list[i], b.Name, len(e.Cells), e.File.Games)
		}
		code, out, _ := unosim(t, "experiment", "validate", b.Name, "--json")
		var v experimentJSON
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil || !v.Valid || len(v.Cells) != len(e.Cells) || v.Pairs != len(e.Pairs) || v.Hash != e.Hash {
			t.Errorf("validate %s --json: exit %d, %+v", b.Name, code, v)
		}
		code, out, _ = unosim(t, "experiment", "show", b.Name)
		text, _ := experiments.BuiltinText(b.Name)
		if code != 0 || out != string(text) {
			t.Errorf("experiment show %s: exit %d, not the built-in file", b.Name, code)
		}
	}
	if code, _, stderr := unosim(t, "experiment", "show", "nope"); code != 2 || !strings.Contains(stderr, "house-rules") {
		t.Errorf("show of an unknown name: exit %d, %s", code, stderr)
	}
	code, out, _ = unosim(t, "version", "--json")
	var v versionInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Version != version || v.Build == "" {
		t.Errorf("version --json: exit %d: %s", code, out)
	}
	if code, out, _ := unosim(t, "--version"); code != 0 || out != "unosim "+version+"\n" {
		t.Errorf("--version: exit %d: %q", code, out)
	}
}

// complete runs cobra's hidden __complete command and returns the
// candidates (the last line is the directive).
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, stderr := unosim(t, append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d: %s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[:len(lines)-1]
}

func TestCompletion(t *testing.T) {
	var rules []string
	for r := engine.Classic; r < engine.NumRuleSets; r++ {
		rules = append(rules, r.String())
	}
	var names []string
	for _, in := range strategy.Registered() {
		names = append(names, in.Name)
	}
	var builtins []string
	for _, b := range experiments.Builtins() {
		builtins = append(builtins, b.Name)
	}
	var heuristicParams []string
	for _, in := range strategy.Registered() {
		if in.Name == "heuristic" {
			for _, p := range in.Params {
				heuristicParams = append(heuristicParams, "heuristic:"+p.Name+"=")
			}
		}
	}
	var drawValues []string
	for _, s := range engine.OptionSpecs() {
		if s.Name == "draw" {
			for _, v := range s.Enum {
				drawValues = append(drawValues, "draw="+v)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"simulate", "--rules", ""}, rules},
		{[]string{"compare", "--base-rules", "cl"}, []string{"classic"}},
		{[]string{"simulate", "--seats", ""}, []string{"fixed", "rotate"}},
		{[]string{"replay", "--strategy", ""}, names},
		{[]string{"match", "--vs", "heuristic:"}, heuristicParams},
		{[]string{"simulate", "--set", "stack-draw-t"}, []string{"stack-draw-two="}},
		{[]string{"simulate", "--set", "draw="}, drawValues},
		{[]string{"compare", "--set", "stack-draw-two=t"}, []string{"stack-draw-two=true"}},
		{[]string{"experiment", "run", ""}, builtins},
		{[]string{"experiment", "show", "house"}, []string{"house-rules"}},
	} {
		if got := complete(t, c.args...); !slices.Equal(got, c.want) {
			t.Errorf("complete %q: %q, want %q", c.args, got, c.want)
		}
	}
}

// simulate --report writes report.md (findings first, with the summary's
// numbers) and every plot; 'unosim report DIR' renders the same bytes again.
func TestSimulateReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, stderr := unosim(t, "simulate", "--players", "3", "--strategy", "heuristic", "--strategy", "random", "--strategy", "random",
		"--games", "3000", "--set", "stack-draw-two=true", "--out", dir, "--report", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range sim.ReportFiles {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	var sum sim.Summary
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	text := string(report)
	first := strings.Index(text, "\n## ")
	if first < 0 || !strings.HasPrefix(text[first:], "\n## Findings") {
		t.Errorf("report.md does not open with its findings:\n%.500s", text)
	}
	for _, want := range []string{
		fmt.Sprintf("**Game length: %.2f turns** [95%% CI %.2f, %.2f]", float64(sum.Turns.Mean), float64(sum.Turns.MeanCI[0]), float64(sum.Turns.MeanCI[1])),
		fmt.Sprintf("| 0 | heuristic | %.2f%% [%.2f, %.2f]", 100*float64(sum.WinRateBySeat[0]), 100*float64(sum.WinCIBySeat[0][0]), 100*float64(sum.WinCIBySeat[0][1])),
		"`stack-draw-two=true`", "plots/game-length.png", "plots/win-rate-by-strategy.png",
		// A strategy's win rate is read against the share of the seats
		// it holds: random in 2 of 3 seats wins more games than the
		// heuristic in 1 without being the better strategy.
		"random (2 seats, positions 1, 2)", "against a fair share of 66.67%", "| 33.33% |", "| 66.67% |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if h, r := strings.Index(text, "heuristic (1 seat"), strings.Index(text, "random (2 seats"); h < 0 || r < h {
		t.Errorf("the findings rank the strategies by games won, not against their fair shares:\n%.900s", text)
	}
	os.Remove(filepath.Join(dir, "report.md"))
	os.RemoveAll(filepath.Join(dir, "plots"))
	if code, _, stderr := unosim(t, "report", dir); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if string(again) != text || !fileExists(filepath.Join(dir, "plots", "win-rate-by-seat.svg")) {
		t.Error("report DIR did not render the same report.md and plots")
	}
	if code, _, stderr := unosim(t, "simulate", "--report", "--games", "10"); code != 2 || !strings.Contains(stderr, "--report needs --out") {
		t.Errorf("--report without --out: exit %d: %s", code, stderr)
	}
}

// simulate --ci-width stops at the first batch k >= 2 whose games [0,
// k*batch) give a mean-turns interval at most W wide, found here from
// plain runs of k*batch games; the result is that plain run, bit for bit,
// for any worker count.
func TestSimulateCIWidth(t *testing.T) {
	const batch = 400
	widths := map[int]float64{}
	plain := map[int]string{}
	for k := 1; k <= 8; k++ {
		code, out, stderr := unosim(t, "simulate", "--players", "2", "--strategy", "random", "--games", strconv.Itoa(k*batch), "--json", "--quiet", "--workers", "2")
		if code != 0 {
			t.Fatal(stderr)
		}
		var s sim.Summary
		json.Unmarshal([]byte(out), &s)
		widths[k] = float64(s.Turns.MeanCI[1] - s.Turns.MeanCI[0])
		plain[k] = out
	}
	target := widths[5]
	want := 0
	for k := 2; k <= 8; k++ {
		if widths[k] <= target {
			want = k
			break
		}
	}
	strip := func(s string) string { // timing differs between runs
		var m map[string]any
		json.Unmarshal([]byte(s), &m)
		for _, k := range []string{"elapsed_seconds", "games_per_second", "workers"} {
			delete(m, k)
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, workers := range []string{"1", "3"} {
		code, out, stderr := unosim(t, "simulate", "--players", "2", "--strategy", "random", "--games", strconv.Itoa(8*batch), "--json", "--quiet",
			"--ci-width", strconv.FormatFloat(target, 'g', -1, 64), "--batch", strconv.Itoa(batch), "--workers", workers)
		if code != 0 {
			t.Fatal(stderr)
		}
		if strip(out) != strip(plain[want]) {
			t.Errorf("--ci-width %v, %s workers: not the plain run of %d games (batch %d)\n%s", target, workers, want*batch, want, stderr)
		}
		if !strings.Contains(stderr, fmt.Sprintf("after %s games", thousands(int64(want*batch)))) {
			t.Errorf("stderr does not state the stop: %s", stderr)
		}
	}
	for _, c := range [][]string{{"--ci-width", "-1"}, {"--batch", "10"}, {"--ci-width", "1", "--shard", "0/2", "--out", t.TempDir() + "/x"}, {"--ci-width", "1", "--out", t.TempDir() + "/y", "--checkpoint-every", "5s"}} {
		if code, _, _ := unosim(t, append([]string{"simulate", "--games", "100"}, c...)...); code != 2 {
			t.Errorf("simulate %v: exit %d, want 2", c, code)
		}
	}
}

// simulate prints its per-game counters as a table, the exact total and
// the mean per game to 3 decimals each, not %.3g's mix (0.0002, 2.7, 3.22).
func TestSimulateCountersTable(t *testing.T) {
	code, out, stderr := unosim(t, "simulate", "--games", "400", "--quiet", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^event +total +per game$`).MatchString(out) {
		t.Fatalf("no counters table:\n%s", out)
	}
	row := regexp.MustCompile(`(?m)^([a-z_]+) +([0-9,]+) +(\S+)$`)
	rows := 0
	for _, m := range row.FindAllStringSubmatch(out, -1) {
		if m[1] == "seat" {
			continue
		}
		rows++
		if !regexp.MustCompile(`^([0-9]+\.[0-9]{3}|<0\.001)$`).MatchString(m[3]) {
			t.Errorf("%s: per game %q, want 3 decimals", m[1], m[3])
		}
		total, _ := strconv.ParseInt(strings.ReplaceAll(m[2], ",", ""), 10, 64)
		if per, err := strconv.ParseFloat(m[3], 64); err == nil && math.Abs(per-float64(total)/400) > 0.0006 {
			t.Errorf("%s: %s per game for %d in 400 games", m[1], m[3], total)
		}
	}
	if rows < 3 || strings.Contains(out, "per game:") {
		t.Errorf("%d counter rows:\n%s", rows, out)
	}
}
