package experiments

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

const small = `name: small
description: two rule variants on the same deals
seed: 7
games: 3000
grids:
  - players: [3]
    options:
      official: {}
      stack: {stack-draw-two: true}
    lineups:
      mixed: [heuristic, random, "heuristic:bluff=0.5"]
compare:
  - axis: options
    baseline: official
    metrics: [turns, cards-drawn, first-player, unfinished, position:0]
  - metric: position:2
    against: fair
`

func mustParse(t *testing.T, text string) *Experiment {
	t.Helper()
	e, err := Parse("small.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(t *testing.T, e *Experiment, o RunOptions) *Result {
	t.Helper()
	r, err := e.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete {
		t.Fatal("run not complete")
	}
	return r
}

func statsJSON(t *testing.T, s *sim.Stats) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFileErrorsNameFileAndLine(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown key", "name: x\ngames: 10\ngridz: []\n", `x.yaml:3: unknown key "gridz" (valid: name, description, seed, games, main, batch, grids, compare, surface, tournament)`},
		{"unknown grid key", "name: x\ngames: 10\ngrids:\n  - players: [2]\n    player: [3]\n", `x.yaml:5: unknown key "player"`},
		{"wrong type", "name: x\ngames: many\ngrids: [{}]\n", `x.yaml:2: games: "many", want a whole number in decimal digits`},
		{"duplicate key", "name: x\ngames: 10\ngames: 20\ngrids: [{}]\n", `x.yaml:3: mapping key "games" already defined at line 2`},
		{"duplicate option label", "name: x\ngames: 10\ngrids:\n  - options:\n      a: {}\n      a: {}\n", `x.yaml:6: mapping key "a" already defined at line 5`},
		{"duplicate option", "name: x\ngames: 10\ngrids:\n  - options:\n      a: {draw: one, draw: one}\n", `already defined`},
		{"missing name", "games: 10\ngrids: [{}]\n", "x.yaml:1: name: missing"},
		{"zero games", "name: x\ngames: 0\ngrids: [{}]\n", "x.yaml:2: games: 0, want 1 to"},
		{"no grids", "name: x\ngames: 5\n", "grids: missing"},
		{"unknown rules", "name: x\ngames: 5\ngrids:\n  - rules: [poker]\n", `x.yaml:4: rules: unknown rule set "poker" (valid: classic, encanto, party)`},
		{"players out of range", "name: x\ngames: 5\ngrids:\n  - players: [4, 11]\n", "x.yaml:4: players: 11 is out of range for classic (valid: 2 to 10)"},
		{"unknown option", "name: x\ngames: 5\ngrids:\n  - options:\n      a: {colour: red}\n", `x.yaml:5: options a: unknown option "colour"`},
		{"bad option value", "name: x\ngames: 5\ngrids:\n  - options:\n      a:\n        draw: three\n", `x.yaml:6: options a: option draw: invalid value "three" (valid: one, until-playable)`},
		{"contradiction", "name: x\ngames: 5\ngrids:\n  - options:\n      a: {stack-draw-two: true, deflect-draw-two: true}\n", "stack-draw-two=true and deflect-draw-two=true"},
		{"bad strategy", "name: x\ngames: 5\ngrids:\n  - lineups:\n      a: [genius]\n", `x.yaml:5: lineups a: unknown strategy "genius" (valid: random, heuristic, counter`},
		{"lineup size", "name: x\ngames: 5\ngrids:\n  - players: [3]\n    lineups:\n      a: [random, random]\n", "2 strategies for 3 players"},
		{"unknown variable", "name: x\ngames: 5\ngrids:\n  - lineups:\n      a: ['heuristic:bluff=${b}']\n", "${b}: no such variable"},
		{"bad axis", "name: x\ngames: 5\ngrids: [{}]\ncompare:\n  - axis: colour\n    baseline: x\n", `x.yaml:5: compare: axis "colour"`},
		{"bad baseline", "name: x\ngames: 5\ngrids:\n  - players: [2, 3]\ncompare:\n  - axis: players\n    baseline: 9\n", `compare: baseline "9" is not a value of axis players`},
		{"bad metric", "name: x\ngames: 5\ngrids: [{}]\ncompare:\n  - axis: players\n    baseline: 4\n    metrics: [speed]\n", `x.yaml:7: compare: unknown metric "speed"`},
		{"position beyond players", "name: x\ngames: 5\nmain: position:5\ngrids: [{}]\n", "main: position:5, but cell"},
		{"against numeric", "name: x\ngames: 5\ngrids: [{}]\ncompare:\n  - metric: turns\n    against: 0.5\n", "against needs a yes/no metric"},
		{"against range", "name: x\ngames: 5\ngrids: [{}]\ncompare:\n  - metric: first-player\n    against: 2\n", `against "2"`},
		{"surface axis", "name: x\ngames: 5\ngrids: [{}]\nsurface: {rows: bluff, cols: players, metric: turns}\n", `surface: rows "bluff" is not an axis`},
		{"json unknown key", `{"name": "x", "games": 5, "grids": [{"playerz": [2]}]}`, `x.yaml:1: unknown key "playerz"`},
		{"json duplicate", "{\n\"name\": \"x\",\n\"name\": \"y\"\n}", `x.yaml:3: mapping key "name" already defined at line 2`},
		{"not yaml", "name: [x\n", "x.yaml:1"},
	} {
		_, err := Parse("x.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\n  want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestExpansion(t *testing.T) {
	e := mustParse(t, `name: grid
games: 10
grids:
  - rules: [classic, encanto]
    players: [2, 3]
    vars:
      bluff: [0, 0.5]
    lineups:
      b: ['heuristic:bluff=${bluff}']
compare:
  - axis: bluff
    baseline: "0"
`)
	if len(e.Cells) != 8 || len(e.Pairs) != 4 {
		t.Fatalf("%d cells, %d pairs; want 8 and 4", len(e.Cells), len(e.Pairs))
	}
	c := e.Cells[5] // encanto, 2 players, bluff 0.5
	if c.Label != "encanto 2p bluff=0.5" || c.Config.Options.Rules != engine.Encanto || c.Config.Players != 2 || c.Config.LineUp[1].String() != "heuristic:bluff=0.5" {
		t.Fatalf("cell 5: %q %v %d %v", c.Label, c.Config.Options.Rules, c.Config.Players, c.Config.LineUp)
	}
	for _, p := range e.Pairs {
		a, b := e.Cells[p.A], e.Cells[p.B]
		if a.Coords["bluff"] != "0.5" || b.Coords["bluff"] != "0" || a.Coords["rules"] != b.Coords["rules"] || a.Coords["players"] != b.Coords["players"] {
			t.Fatalf("pair %+v: %v against %v", p, a.Coords, b.Coords)
		}
	}
}

func TestBuiltinsValidate(t *testing.T) {
	bs := Builtins()
	names := map[string]bool{}
	for _, b := range bs {
		names[b.Name] = true
		e, err := LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if b.Description == "" || (len(e.Cells) < 2 && (e.Tour == nil || len(e.Tour.Strategies) < 2)) {
			t.Errorf("%s: %d cells, description %q", b.Name, len(e.Cells), b.Description)
		}
	}
	for _, n := range []string{"player-count", "house-rules", "bluff-challenge", "strategy-tournament"} {
		if !names[n] {
			t.Errorf("built-in %s missing", n)
		}
	}
	pc, _ := LoadBuiltin("player-count")
	if len(pc.Cells) != 9+15 {
		t.Errorf("player-count has %d cells, want 24 (classic 2-10, party 2-16)", len(pc.Cells))
	}
	hr, _ := LoadBuiltin("house-rules")
	if len(hr.Pairs) != len(hr.Cells)-1 {
		t.Errorf("house-rules compares %d cells with the official rules, want %d", len(hr.Pairs), len(hr.Cells)-1)
	}
	if _, err := LoadBuiltin("nope"); err == nil || !strings.Contains(err.Error(), "house-rules") {
		t.Errorf("unknown built-in: %v", err)
	}
}

// Each cell's numbers are exactly those of a separate simulation of the
// same configuration, and the pair sums those of the games played side by side.
func TestCellsMatchSeparateSimulations(t *testing.T) {
	e := mustParse(t, small)
	r := run(t, e, RunOptions{Workers: 2})
	for i, c := range e.Cells {
		cfg := c.Config
		sr, err := sim.Simulate(context.Background(), &cfg, nil, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := statsJSON(t, &r.Cells[i].Stats), statsJSON(t, &sr.Stats); got != want {
			t.Fatalf("cell %s differs from its own simulation:\n%s\n%s", c.Label, got, want)
		}
	}
	// The pair, recomputed game by game.
	var want PairStats
	ta, _ := sim.NewTable(&e.Cells[1].Config)
	tb, _ := sim.NewTable(&e.Cells[0].Config)
	for i := range int64(3000) {
		a := outcomeOf(ta.Play(i), &e.Cells[1].Config, i)
		b := outcomeOf(tb.Play(i), &e.Cells[0].Config, i)
		want.add(&a, &b)
	}
	if r.Pairs[0] != want {
		t.Fatalf("pair stats %+v, want %+v", r.Pairs[0], want)
	}
	if r.Pairs[0].First[1]+r.Pairs[0].First[2] == 0 || r.Pairs[0].Turns.SumSq == 0 {
		t.Fatal("the variants never differed: the test would prove nothing")
	}
	tests := r.Tests()
	if len(tests) != 5+2 {
		t.Fatalf("%d tests, want 7", len(tests))
	}
	turns := tests[0]
	if turns.Metric != "turns" || math.Abs(turns.Effect-float64(want.Turns.Sum)/3000) > 1e-12 || !(turns.EffectLo < turns.Effect && turns.Effect < turns.EffectHi) {
		t.Fatalf("turns test %+v", turns)
	}
	for i := range tests {
		if tests[i].PHolm < tests[i].P || tests[i].PHolm > 1 {
			t.Fatalf("Holm p %v for p %v", tests[i].PHolm, tests[i].P)
		}
	}
}

func TestSameResultsForAnyWorkerCountAndShards(t *testing.T) {
	e := mustParse(t, small)
	one := run(t, e, RunOptions{Workers: 1})
	two := run(t, e, RunOptions{Workers: 3})
	var files []*StatsFile
	var names []string
	for i := range 2 {
		s := sim.Shard{Index: i, Count: 2}
		files = append(files, run(t, e, RunOptions{Workers: 2, Shard: s}).File([]byte(small), s))
		names = append(names, s.String())
	}
	merged, err := Merge(files, names, false)
	if err != nil {
		t.Fatal(err)
	}
	for c := range e.Cells {
		a, b, m := statsJSON(t, &one.Cells[c].Stats), statsJSON(t, &two.Cells[c].Stats), statsJSON(t, &merged.Cells[c].Stats)
		if a != b || a != m {
			t.Fatalf("cell %d differs between 1 worker, 3 workers and 2 shards merged", c)
		}
	}
	if one.Pairs[0] != two.Pairs[0] || one.Pairs[0] != merged.Pairs[0] {
		t.Fatal("pair stats differ")
	}
	// Each shard ran on 2 workers of its own: the merge names none.
	if r, err := merged.Result(); err != nil || merged.Workers != 0 || !strings.Contains(r.Markdown(r.Tests(), nil, "test"), "; merged from its shards; ") {
		t.Errorf("a merge's run line: workers %d, error %v; want no workers and \"merged from its shards\"", merged.Workers, err)
	}
	files[1].Seed++
	if _, err := Merge(files, names, false); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("merging different seeds: %v", err)
	}
}

func TestOverrides(t *testing.T) {
	e := mustParse(t, small)
	seed := uint64(99)
	r := run(t, e, RunOptions{Games: 700, Seed: &seed})
	if r.Seed != 99 || r.Cells[0].Stats.Games != 700 {
		t.Fatalf("seed %d, games %d", r.Seed, r.Cells[0].Stats.Games)
	}
	base := run(t, e, RunOptions{Games: 700})
	if statsJSON(t, &r.Cells[0].Stats) == statsJSON(t, &base.Cells[0].Stats) {
		t.Fatal("another seed gave the same games")
	}
}

// With --ci-width each cell plays batches until its interval is narrow enough.
func TestCIWidthStopsEachCell(t *testing.T) {
	e := mustParse(t, strings.Replace(small, "seed: 7\n", "seed: 7\nbatch: 500\n", 1))
	r := run(t, e, RunOptions{Games: 40000, CIWidth: 2})
	for i, c := range r.Cells {
		st := &c.Stats
		ci := st.Turns.MeanCI(sim.Confidence)
		if st.Games%500 != 0 || st.Games < 1000 || st.Games >= 40000 {
			t.Fatalf("cell %d stopped after %d games", i, st.Games)
		}
		if ci.Hi-ci.Lo > 2 || !strings.Contains(c.Stop, "wide after") {
			t.Fatalf("cell %d: width %.3f, stop %q", i, ci.Hi-ci.Lo, c.Stop)
		}
		// One batch fewer would not have been narrow enough.
		cfg := e.Cells[i].Config
		cfg.Games = st.Games - 500
		sr, _ := sim.Simulate(context.Background(), &cfg, nil, time.Hour)
		if prev := sr.Stats.Turns.MeanCI(sim.Confidence); prev.Hi-prev.Lo <= 2 && cfg.Games >= 1000 {
			t.Fatalf("cell %d was narrow enough after %d games already", i, cfg.Games)
		}
	}
	again := run(t, e, RunOptions{Games: 40000, CIWidth: 2, Workers: 1})
	for i := range r.Cells {
		if statsJSON(t, &r.Cells[i].Stats) != statsJSON(t, &again.Cells[i].Stats) {
			t.Fatal("the stopping rule is not reproducible")
		}
	}
	if _, err := e.Run(context.Background(), RunOptions{CIWidth: 1, Shard: sim.Shard{Index: 0, Count: 2}}); err == nil {
		t.Fatal("ci-width with shards accepted")
	}
}

func TestSurface(t *testing.T) {
	e := mustParse(t, `name: s
games: 10
main: position:0
grids:
  - vars:
      bluff: [0, 0.5]                # rows a, b
      challenge: [never, always, seen] # columns x, y, z
    lineups:
      l: ['heuristic:bluff=${bluff},challenge=${challenge}']
surface: {rows: bluff, cols: challenge, metric: position:0}
`)
	r := &Result{Experiment: e, Cells: make([]CellResult, len(e.Cells))}
	wins := []int64{50, 30, 40, 20, 60, 10} // rows a, b by columns x, y, z
	for i := range r.Cells {
		r.Cells[i].Stats = sim.NewStats(&e.Cells[i].Config)
		r.Cells[i].Stats.Games = 100
		r.Cells[i].Stats.WinsByPosition[0] = wins[i]
	}
	s := r.Surface()
	if s.Err != "" || s.Z[0][1] != 0.3 || s.Z[1][2] != 0.1 {
		t.Fatalf("surface %+v", s)
	}
	// Rows maximize: x -> a (0.5), y -> b (0.6), z -> a (0.4). Columns minimize:
	// a -> y (0.3), b -> z (0.1). They meet nowhere.
	if !equalInts(s.BestRow, []int{0, 1, 0}) || !equalInts(s.BestCol, []int{1, 2}) || len(s.Meet) != 0 {
		t.Fatalf("best rows %v, best cols %v, meet %v", s.BestRow, s.BestCol, s.Meet)
	}
	r.Cells[5].Stats.WinsByPosition[0] = 35 // b/z: 0.35 > a/z: 0.4? no: now z -> a still; make b's best column y
	r.Cells[4].Stats.WinsByPosition[0] = 25
	s = r.Surface()
	// Columns: b -> y (0.25). Rows: y -> a (0.3 > 0.25). a -> y, y -> a: they meet at (a, y).
	if len(s.Meet) != 1 || s.Meet[0] != [2]int{0, 1} {
		t.Fatalf("meet %v (best rows %v, best cols %v)", s.Meet, s.BestRow, s.BestCol)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A run writes every output, and an interrupted one says so.
func TestOutputs(t *testing.T) {
	e := mustParse(t, small)
	r := run(t, e, RunOptions{Games: 1500})
	dir := filepath.Join(t.TempDir(), "out")
	if err := sim.PrepareOut(dir); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutputs(dir, r.File([]byte(small), sim.Shard{}), "test", "go-test"); err != nil {
		t.Fatal(err)
	}
	var m Manifest
	data, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil || m.Hash != e.Hash || m.Seed != 7 || m.GamesRun != 3000 || !m.Complete || m.GoVersion != "go-test" {
		t.Fatalf("manifest %+v (%v)", m, err)
	}
	for _, f := range m.Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"# small", "## Cells", "## Tests", "Holm", "McNemar", "paired t-test", "![", "plots/game-length.png", "## Findings"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !strings.HasPrefix(string(csv), "complete,kind,cell,label,rules,players,options,lineup,") || strings.Count(string(csv), "\ntrue,test,") != 7 {
		t.Errorf("summary.csv:\n%s", csv)
	}
	back, err := ReadStats(dir)
	if err != nil || back.Hash != e.Hash {
		t.Fatalf("stats.json: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 5 {
		t.Errorf("%d entries in the output directory, want manifest, stats, summary, report and plots", len(entries))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ir, err := e.Run(ctx, RunOptions{Games: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if ir.Complete {
		t.Fatal("a cancelled run says it is complete")
	}
	dir2 := filepath.Join(t.TempDir(), "out")
	os.Mkdir(dir2, 0o755)
	if err := WriteOutputs(dir2, ir.File([]byte(small), sim.Shard{}), "test", "go"); err != nil {
		t.Fatal(err)
	}
	report, _ = os.ReadFile(filepath.Join(dir2, "report.md"))
	csv, _ = os.ReadFile(filepath.Join(dir2, "summary.csv"))
	if !strings.Contains(string(report), "INCOMPLETE") || !strings.Contains(string(csv), "\nfalse,estimate,") || strings.Contains(string(csv), "true,") {
		t.Fatal("an interrupted run's outputs do not say so")
	}
}
