package experiments

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/unosim/unosim/sim"
)

// An experiment's records hold one row per game and cell, in (game, cell)
// order, each equal to a replay of that cell's configuration; a run
// stopped at checkpoints and resumed writes the same bytes as an
// uninterrupted one.
func TestRecordsOfCellsAndResume(t *testing.T) {
	e := mustParse(t, small)
	dir := t.TempDir()
	o := RunOptions{Games: 1200, Shard: sim.Shard{Index: 1, Count: 2}, Workers: 2}
	whole := filepath.Join(dir, "whole.csv")
	wo := o
	wo.Records = whole
	run(t, e, wo)
	path := filepath.Join(dir, "resumed.csv")
	var resume *StatsFile
	for stops := 0; ; stops++ {
		ctx, cancel := context.WithCancel(context.Background())
		ro := o
		ro.Resume, ro.CheckpointGames, ro.Records = resume, 250, path
		n := 0
		var last *StatsFile
		ro.Checkpoint = func(r *Result) error {
			last = r.File([]byte(small), o.Shard)
			if n++; n == 2 {
				cancel()
			}
			return nil
		}
		r, err := e.Run(ctx, ro)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if r.Complete {
			if stops == 0 {
				t.Fatal("never stopped")
			}
			break
		}
		// Resume from the last checkpoint, not from the stop: the games
		// after it are played again and their rows must not repeat.
		resume = last
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(path)
	if len(a) == 0 || string(a) != string(b) {
		t.Fatal("the resumed records differ from an uninterrupted run's")
	}
	f, _ := os.Open(path)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for k, c := range rows[0] {
		col[c] = k
	}
	rows = rows[1:]
	if len(rows) != 600*len(e.Cells) {
		t.Fatalf("%d rows for 600 games and %d cells", len(rows), len(e.Cells))
	}
	for k, r := range rows {
		game, cell := 600+k/len(e.Cells), k%len(e.Cells)
		if r[col["game"]] != strconv.Itoa(game) || r[col["cell"]] != strconv.Itoa(cell) {
			t.Fatalf("row %d is game %s cell %s, want %d %d", k, r[col["game"]], r[col["cell"]], game, cell)
		}
	}
	for _, k := range []int{0, 1, 777, len(rows) - 1} {
		game, cell := int64(600+k/len(e.Cells)), k%len(e.Cells)
		c := e.Cells[cell].Config
		c.Seed, c.Games = 7, 1200
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		g, err := c.GameFor(game)
		if err != nil {
			t.Fatal(err)
		}
		res := g.Play(c.Seed, uint64(game))
		for name, want := range map[string]int{"turns": res.Turns, "cards_drawn": res.CardsDrawn, "cards_played": res.CardsPlayed, "winner_seat": res.Winner, "players": c.Players} {
			if got := rows[k][col[name]]; got != strconv.Itoa(want) {
				t.Errorf("game %d cell %d: %s = %s, the replay gives %d", game, cell, name, got, want)
			}
		}
	}
}
