package tune

import (
	"math"
	"strings"
	"testing"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// Wins equal to their expectations under strengths 1, 2, 4 are fitted
// exactly by the maximum likelihood: (i, j) played n games with i winning
// n·g_i/(g_i+g_j) of them. Centered on the geometric mean 2 the ratings are
// 400·log10(1/2, 1, 2) = -120.41199826559248, 0, +120.41199826559248;
// the fit must converge to them, not stop a few tenths of a point short.
func TestBradleyTerryExactFit(t *testing.T) {
	wins := [][]int64{
		{0, 1, 1}, // 0 vs 1: 3 games, p = 1/3; 0 vs 2: 5 games, p = 1/5
		{2, 0, 1}, // 1 vs 2: 3 games, p = 1/3
		{4, 2, 0},
	}
	r, err := BradleyTerry(wins)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-120.41199826559248, 0, 120.41199826559248}
	for i, w := range want {
		if math.Abs(r.Elo[i]-w) > 1e-6 {
			t.Errorf("Elo[%d] = %.9f, want %.9f", i, r.Elo[i], w)
		}
	}
}

// A player that beat everyone and never lost has no finite rating.
func TestBradleyTerryUnbeatenRefused(t *testing.T) {
	wins := [][]int64{
		{0, 3, 3},
		{0, 0, 2},
		{0, 2, 0},
	}
	if _, err := BradleyTerry(wins); err == nil || !strings.Contains(err.Error(), "no finite ratings") {
		t.Errorf("an unbeaten player: err %v, want no finite ratings", err)
	}
}
