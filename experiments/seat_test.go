package experiments

import (
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// The seat-advantage table gives every seat's effect with its 95% Wilson
// interval (the interval dual to the score test that marks it bold) and
// the games it is estimated from.
//
// Expected values (Python, math only; z = 1.959963984540054):
//
//	def wilson(x, n):
//	    p = x/n; d = 1 + z*z/n; c = (p + z*z/(2*n))/d
//	    h = z/d*math.sqrt(p*(1-p)/n + z*z/(4*n*n)); return c - h, c + h
//
//	2 players, 1,000 games, seats 560 and 440 against 1/2:
//	  +6.00 [+2.91, +9.05] and -6.00 [-9.05, -2.91] pp,
//	  p = math.erfc(abs(z)/math.sqrt(2)) = 0.000147802… each.
//	3 players, 1,200 games, seats 400, 380, 420 against 1/3:
//	  +0.00 [-2.61, +2.72], -1.67 [-4.24, +1.02], +1.67 [-0.98, +4.41],
//	  p = 1, 0.2207, 0.2207.
//	Holm over the 5 seats: 5·0.000147802 = 0.00074 for both 2-player seats
//	(bold), 3·0.2207 = 0.66 and 1 for the others.
func TestSeatSectionIntervals(t *testing.T) {
	e := mustParse(t, `name: seats
games: 100
grids:
  - players: [2, 3]
`)
	r := &Result{Experiment: e, Cells: make([]CellResult, len(e.Cells)), Pairs: make([]PairStats, len(e.Pairs))}
	for i := range r.Cells {
		st := sim.NewStats(&e.Cells[i].Config)
		switch e.Cells[i].Config.Players {
		case 2:
			st.Games, st.Finished = 1000, 1000
			copy(st.WinsBySeat, []int64{560, 440})
		case 3:
			st.Games, st.Finished = 1200, 1200
			copy(st.WinsBySeat, []int64{400, 380, 420})
		}
		r.Cells[i].Stats = st
	}
	s := r.seatSection()
	for _, want := range []string{
		"| games |",
		"| 2p | 1,000 | 50.00% | **+6.00 [+2.91, +9.05]** | **-6.00 [-9.05, -2.91]** | |",
		"| 3p | 1,200 | 33.33% | +0.00 [-2.61, +2.72] | -1.67 [-4.24, +1.02] | +1.67 [-0.98, +4.41] |",
		"Wilson",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the seat table lacks %q:\n%s", want, s)
		}
	}
}
