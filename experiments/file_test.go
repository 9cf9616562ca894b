package experiments

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Counts and seeds are decimal (YAML alone reads 010 as octal 8), and the
// defaults of absent keys are those the README states.
func TestFileNumbersAreDecimalAndDefaults(t *testing.T) {
	e := mustParse(t, "name: x\nseed: 010\ngames: 0100\nbatch: 020\ngrids:\n  - players: [03, 010]\n")
	if e.File.Seed != 10 || e.File.Games != 100 || e.File.Batch != 20 {
		t.Fatalf("seed %d games %d batch %d, want 10, 100, 20", e.File.Seed, e.File.Games, e.File.Batch)
	}
	if p := e.File.Grids[0].Players; len(p) != 2 || p[0] != 3 || p[1] != 10 {
		t.Fatalf("players %v, want [3 10]", p)
	}
	e = mustParse(t, "name: x\ngames: 5\ngrids: [{}]\n")
	if e.File.Seed != 1 || e.File.Batch != 10000 {
		t.Fatalf("absent seed %d (want 1, as simulate), absent batch %d (want 10000)", e.File.Seed, e.File.Batch)
	}
	if e := mustParse(t, "name: x\nseed: 0\ngames: 5\ngrids: [{}]\n"); e.File.Seed != 0 {
		t.Fatalf("seed: 0 read as %d", e.File.Seed)
	}
}

// A file without games: is valid; running it needs --games.
func TestFileWithoutGamesNeedsGamesFlag(t *testing.T) {
	e := mustParse(t, "name: x\ngrids: [{}]\n")
	if e.File.Games != 0 {
		t.Fatalf("games %d", e.File.Games)
	}
	if err := e.CheckRun(RunOptions{}); err == nil || !strings.Contains(err.Error(), "--games") {
		t.Fatalf("run without games: %v", err)
	}
	if err := e.CheckRun(RunOptions{Games: 10}); err != nil {
		t.Fatalf("run with --games: %v", err)
	}
}

func TestFileStrictness(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"fractional games", "name: x\ngames: 1000.5\ngrids: [{}]\n", `x.yaml:2: games: "1000.5", want a whole number in decimal digits`},
		{"hex seed", "name: x\nseed: 0x10\ngames: 5\ngrids: [{}]\n", `x.yaml:2: seed: "0x10", want a whole number`},
		{"negative seed", "name: x\nseed: -1\ngames: 5\ngrids: [{}]\n", `x.yaml:2: seed: -1, want a whole number from 0 to 18446744073709551615`},
		{"exponent", "name: x\ngames: 1e6\ngrids: [{}]\n", `x.yaml:2: games: "1e6", want a whole number`},
		{"huge games", "name: x\ngames: 9223372036854775807\ngrids: [{}]\n", `x.yaml:2: games: 9223372036854775807, want 1 to 1000000000000000`},
		{"empty games", "name: x\ngames:\ngrids: [{}]\n", `x.yaml:2: games: nothing, want a whole number`},
		{"players list as number", "name: x\ngames: 5\ngrids:\n  - players: 4\n", `x.yaml:4: players: want a list, e.g. [a, b], got "4"`},
		{"empty players", "name: x\ngames: 5\ngrids:\n  - players: []\n", `x.yaml:4: players: [] is empty; give at least one value, or leave players out for its default`},
		{"empty rules", "name: x\ngames: 5\ngrids:\n  - rules: []\n", `x.yaml:4: rules: [] is empty`},
		{"empty grids", "name: x\ngames: 5\ngrids: []\n", `x.yaml:3: grids: [] is empty; declare at least one grid, e.g. grids: [{}]`},
		{"empty strategies", "name: x\ngames: 5\ntournament:\n  strategies: []\n", `x.yaml:4: strategies: [] is empty; give at least two strategies`},
		{"empty compare", "name: x\ngames: 5\ngrids: [{}]\ncompare: []\n", `x.yaml:4: compare: [] is empty; give at least one comparison, or leave compare out for none`},
		{"empty lineup", "name: x\ngames: 5\ngrids:\n  - lineups: {a: []}\n", `x.yaml:4: lineups a: [] is empty; give at least one value`},
		{"empty options", "name: x\ngames: 5\ngrids:\n  - options: {}\n", `x.yaml:4: options: {} is empty`},
		{"empty metrics", "name: x\ngames: 5\ngrids: [{}]\ncompare:\n  - axis: players\n    baseline: 4\n    metrics: []\n", `x.yaml:7: metrics: [] is empty`},
		{"fractional player", "name: x\ngames: 5\ngrids:\n  - players: [2.5]\n", `x.yaml:4: players: "2.5", want a whole number`},
		{"batch zero", "name: x\ngames: 5\nbatch: 0\ngrids: [{}]\n", `x.yaml:3: batch: 0, want 1 to`},
		{"unused variable", "name: x\ngames: 5\ngrids:\n  - vars:\n      bluff: [0, 0.5]\n", `x.yaml:5: vars: bluff is not used`},
		{"second document", "name: x\ngames: 5\ngrids: [{}]\n---\nname: y\n", `x.yaml:4: a second YAML document starts here`},
		{"empty file", "", "x.yaml: the file is empty"},
		{"only comments", "# nothing yet\n", "x.yaml: the file holds only comments"},
		{"name as list", "name: [a]\ngames: 5\ngrids: [{}]\n", `x.yaml:1: name: want a single value, got a list`},
		{"grids as scalar", "name: x\ngames: 5\ngrids: 3\n", `x.yaml:3: grids: want a list, e.g. [a, b], got "3"`},
		{"surface as list", "name: x\ngames: 5\ngrids: [{}]\nsurface: [a]\n", `x.yaml:4: surface: want a mapping of key: value, got a list`},
		{"option value as list", "name: x\ngames: 5\ngrids:\n  - options:\n      a: {draw: [one]}\n", `x.yaml:5: options a draw: want a single value, got a list`},
	} {
		_, err := Parse("x.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\n  want it to contain %q", c.name, err, c.want)
		}
		if err != nil {
			for _, leak := range []string{"cannot unmarshal", "!!str", "int64", "EOF", "unmarshal"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("%s: the message %q leaks %q", c.name, err, leak)
				}
			}
		}
	}
}

// Every experiment file in the README is valid.
func TestREADMEExperimentFiles(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	n := 0
	for _, b := range blocks {
		if !strings.HasPrefix(b[1], "name:") {
			continue // not an experiment file (the Kubernetes Job)
		}
		n++
		e, err := Parse("README.md", []byte(b[1]))
		if err != nil {
			t.Errorf("README example %d: %v", n, err)
			continue
		}
		if e.Tour != nil {
			continue // a tournament: no cells
		}
		if len(e.Cells) == 0 || len(e.Pairs) == 0 || e.File.Surface == nil {
			t.Errorf("README example %d: %d cells, %d pairs", n, len(e.Cells), len(e.Pairs))
		}
	}
	if n == 0 {
		t.Fatal("no experiment file found in the README")
	}
}

// An option the cell's scoring ignores is a warning with its line.
func TestFileWarnsOfOptionsWithoutEffect(t *testing.T) {
	e := mustParse(t, "name: x\ngames: 5\ngrids:\n  - players: [2, 3]\n    options:\n      a: {target: 100}\n      b: {scoring: winner-takes, target: 100}\n      c: {losers-outcome: highest-loses}\n")
	want := []string{
		"small.yaml:6: options a: target has no effect with scoring=single",
		"small.yaml:8: options c: losers-outcome has no effect with scoring=single",
	}
	if strings.Join(e.Warnings, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings %q, want %q", e.Warnings, want)
	}
}

// A tournament file declares its round robin instead of grids, strictly:
// every mistake is an error at its line, in the file's own words.
func TestTournamentFile(t *testing.T) {
	e := mustParse(t, "name: x\ngames: 100\ntournament:\n  strategies: [random, heuristic, \"ismcts:iterations=50\"]\n  players: [2, 04]\n  options: {draw: until-playable}\n  games-for: {ismcts: 20}\n")
	tr := e.Tour
	if tr == nil || len(e.Cells) != 0 {
		t.Fatalf("tournament %+v, %d cells", tr, len(e.Cells))
	}
	if len(tr.Strategies) != 3 || tr.Strategies[2].String() != "ismcts:iterations=50" || len(tr.Players) != 2 || tr.Players[1] != 4 {
		t.Fatalf("strategies %v players %v", tr.Strategies, tr.Players)
	}
	if v, _ := tr.Options.Get("draw"); v != "until-playable" {
		t.Errorf("draw %s", v)
	}
	if tr.GamesFor[0] != 0 || tr.GamesFor[1] != 0 || tr.GamesFor[2] != 20 {
		t.Errorf("games-for %v, want [0 0 20]", tr.GamesFor)
	}
	if e := mustParse(t, "name: x\ngames: 100\ntournament:\n  strategies: [random, heuristic]\n"); e.Tour.Players[0] != 2 || len(e.Tour.Players) != 1 {
		t.Errorf("default players %v, want [2]", e.Tour.Players)
	}
	if err := e.CheckRun(RunOptions{}); err == nil || !strings.Contains(err.Error(), "tournament") {
		t.Errorf("a tournament run as cells: %v", err)
	}
	head := "name: x\ngames: 100\n"
	for _, c := range []struct{ name, text, want string }{
		{"with grids", head + "grids: [{}]\ntournament:\n  strategies: [random, heuristic]\n", `x.yaml:3: grids: a tournament file takes no grids`},
		{"with compare", head + "tournament:\n  strategies: [random, heuristic]\ncompare:\n  - metric: position:0\n    against: fair\n", `x.yaml:5: compare: a tournament file takes no compare`},
		{"with main", head + "main: turns\ntournament:\n  strategies: [random, heuristic]\n", `x.yaml:3: main: a tournament file takes no main`},
		{"one strategy", head + "tournament:\n  strategies: [random]\n", `x.yaml:4: tournament: strategies: 1 given, a tournament needs at least two`},
		{"no strategies", head + "tournament:\n  players: [2]\n", `x.yaml:3: tournament: strategies: 0 given`},
		{"unknown strategy", head + "tournament:\n  strategies:\n    - random\n    - nosuch\n", `x.yaml:6: tournament: strategies: `},
		{"twice", head + "tournament:\n  strategies:\n    - random\n    - heuristic\n    - \"heuristic:\"\n", `x.yaml:7: tournament: strategies: heuristic is given twice (also entry 2)`},
		{"players out of range", head + "tournament:\n  strategies: [random, heuristic]\n  players:\n    - 2\n    - 11\n", `x.yaml:7: tournament: players: 11 is out of range for classic (valid: 2 to 10)`},
		{"players twice", head + "tournament:\n  strategies: [random, heuristic]\n  players: [2, 2]\n", `x.yaml:5: tournament: players: 2 is given twice`},
		{"fractional players", head + "tournament:\n  strategies: [random, heuristic]\n  players: [2.5]\n", `x.yaml:5: players: "2.5", want a whole number`},
		{"bad rules", head + "tournament:\n  strategies: [random, heuristic]\n  rules: chess\n", `x.yaml:5: tournament: rules: `},
		{"bad option", head + "tournament:\n  strategies: [random, heuristic]\n  options:\n    draw: twice\n", `x.yaml:6: tournament: options: `},
		{"unknown key", head + "tournament:\n  strategies: [random, heuristic]\n  seats: rotate\n", `x.yaml:5: unknown key "seats" (valid: strategies, players, rules, options, games-for)`},
		{"games-for nobody", head + "tournament:\n  strategies: [random, heuristic]\n  games-for:\n    counter: 10\n", `x.yaml:6: tournament: games-for counter: no such strategy in the tournament (strategies: random, heuristic)`},
		{"games-for zero", head + "tournament:\n  strategies: [random, heuristic]\n  games-for:\n    random: 0\n", `x.yaml:6: tournament: games-for random: 0, want 1 to`},
		{"games-for text", head + "tournament:\n  strategies: [random, heuristic]\n  games-for: {random: many}\n", `x.yaml:5: games-for random: "many", want a whole number in decimal digits`},
		{"as a list", head + "tournament: [random, heuristic]\n", `x.yaml:3: tournament: want a mapping of key: value, got a list`},
	} {
		_, err := Parse("x.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\n  want it to contain %q", c.name, err, c.want)
		}
	}
}
