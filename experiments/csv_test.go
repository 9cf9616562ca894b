package experiments

import (
	"context"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"
)

// summary.csv is tidy: it parses as CSV with one header and rows of equal
// length, the factors are columns (a variable of one grid is empty in the
// other's cells), every cell has one estimate row per metric whose values
// read back to the exact float64 of the result, every test one row naming
// its cell and baseline, and complete says whether the run was.
func TestSummaryCSVTidy(t *testing.T) {
	const text = `name: tidy
seed: 3
games: 400
grids:
  - players: [3]
    options:
      official: {}
      stack: {stack-draw-two: true}
    lineups:
      mixed: [heuristic, random, "heuristic:bluff=${b}"]
    vars:
      b: ["0.1", "0.5"]
  - players: [2]
    options:
      official: {}
    lineups:
      random: [random]
compare:
  - axis: options
    baseline: official
    metrics: [turns, position:0]
`
	e := mustParse(t, text)
	r := run(t, e, RunOptions{})
	tests := r.Tests()
	rows, err := csv.NewReader(strings.NewReader(r.CSV(tests))).ReadAll()
	if err != nil {
		t.Fatalf("summary.csv does not parse: %v", err)
	}
	head := rows[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, c := range []string{"complete", "kind", "cell", "label", "rules", "players", "options", "lineup", "var:b", "metric", "unit", "estimate", "ci_low", "ci_high", "n", "axis", "baseline", "baseline_cell", "effect", "p", "p_holm"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("no column %q in %v", c, head)
		}
	}
	estimates := map[[2]string][]string{}
	nTests := 0
	for _, row := range rows[1:] {
		if row[col["complete"]] != "true" {
			t.Errorf("complete %q", row[col["complete"]])
		}
		switch row[col["kind"]] {
		case "estimate":
			k := [2]string{row[col["cell"]], row[col["metric"]]}
			if estimates[k] != nil {
				t.Errorf("two rows for cell and metric %v", k)
			}
			estimates[k] = row
		case "test":
			nTests++
			bc, _ := strconv.Atoi(row[col["baseline_cell"]])
			if row[col["axis"]] != "options" || row[col["baseline"]] != "official" || row[col["options"]] != "stack" || row[col["p"]] == "" ||
				e.Cells[bc].Coords["options"] != "official" || e.Cells[bc].Coords["b"] != row[col["var:b"]] {
				t.Errorf("test row %v", row)
			}
		default:
			t.Errorf("kind %q", row[col["kind"]])
		}
	}
	if nTests != len(tests) || nTests != 4 {
		t.Errorf("%d test rows, %d tests, want 4 (2 values of b, 2 metrics)", nTests, len(tests))
	}
	// 4 cells of 3 players (7 metrics each) and 1 of 2 players (6).
	if len(estimates) != 4*7+6 {
		t.Errorf("%d estimate rows, want %d", len(estimates), 4*7+6)
	}
	for i, c := range e.Cells {
		row := estimates[[2]string{strconv.Itoa(i), "turns"}]
		if row == nil {
			t.Fatalf("cell %d has no turns row", i)
		}
		want := r.Cells[i].Stats.Turns.Mean()
		got, err := strconv.ParseFloat(row[col["estimate"]], 64)
		if err != nil || got != want || row[col["n"]] != "400" {
			t.Errorf("cell %d turns %q (n %s), want exactly %v", i, row[col["estimate"]], row[col["n"]], want)
		}
		if row[col["var:b"]] != c.Coords["b"] || row[col["players"]] != strconv.Itoa(c.Config.Players) || row[col["unit"]] != "turns" {
			t.Errorf("cell %d factors %v, coords %v", i, row, c.Coords)
		}
	}
	if v := estimates[[2]string{"4", "turns"}][col["var:b"]]; v != "" {
		t.Errorf("the second grid has no b, got %q", v)
	}
	if math.IsNaN(r.Cells[0].Stats.Turns.Mean()) {
		t.Fatal("no games")
	}
	// An interrupted run says so in the complete column, not in a comment.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ir, err := e.Run(ctx, RunOptions{Games: 100000})
	if err != nil {
		t.Fatal(err)
	}
	out := ir.CSV(ir.Tests())
	if strings.HasPrefix(out, "#") || !strings.Contains(out, "\nfalse,estimate,") {
		t.Errorf("interrupted run's CSV:\n%.300s", out)
	}
}
