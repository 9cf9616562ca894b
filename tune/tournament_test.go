package tune

import (
	"context"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// TestTournamentCounts: in 2 players every finished game is a win of one
// side, so each pair's counts add up to its games; the weaker random loses
// to the heuristic; the result does not depend on the workers.
func TestTournamentCounts(t *testing.T) {
	specs := []strategy.Spec{strategy.MustParse("random"), strategy.MustParse("heuristic"), strategy.MustParse("heuristic:bluff=0.5")}
	var first [][]int64
	for _, w := range []int{1, 2} {
		tr := &Tournament{Options: engine.DefaultOptions(engine.Classic), Players: 2, Strategies: specs, Deals: 300, Seed: 2, Workers: w}
		beat, err := tr.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i := range specs {
			for j := i + 1; j < len(specs); j++ {
				if beat[i][j]+beat[j][i] != 600 {
					t.Errorf("pair %d-%d: %d + %d games, want 600", i, j, beat[i][j], beat[j][i])
				}
			}
		}
		if beat[0][1] >= beat[1][0] {
			t.Errorf("random beat the heuristic %d times to %d", beat[0][1], beat[1][0])
		}
		if first == nil {
			first = beat
		} else {
			for i := range beat {
				for j := range beat[i] {
					if beat[i][j] != first[i][j] {
						t.Errorf("workers 2 differ: %v vs %v", beat, first)
					}
				}
			}
		}
		if tr.Games() != 3*600 {
			t.Errorf("Games() = %d", tr.Games())
		}
	}
}
