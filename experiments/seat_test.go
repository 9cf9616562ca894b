package experiments

import (
	"fmt"
	"math"
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
	r := emptyResult(e)
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

// With 2 players, when every game had a single winner, seat 1's rate is 1
// minus seat 0's: the two seats are one test of the seat table's Holm
// family, and both get its p_holm (as a tournament's head-to-head pairs,
// tune.HolmAlone). A 2-player cell with a shared win or a game without a
// winner keeps two tests.
//
// Expected values (Python, math only): p = math.erfc(abs(z)/math.sqrt(2)),
// z = (x/n - p0)/math.sqrt(p0*(1-p0)/n):
//
//	2 players, 1,000 games, 540 and 460: p = 0.0114120363860016 each
//	  (0.011412036386001587 and …1700: the same test, rounded apart);
//	  2 players, 1,000 games, 10 unfinished, 540 and 450: 0.0114120363860016
//	  and 0.0015654022580025558.
//	3 players, 1,200 games, 400, 380, 420: p = 1, 0.22067136191984693 twice.
//	Holm over 4 (the mirrored pair once): 4·0.01141… = 0.045648145544,
//	  bold; over 5 it would be 0.0571 and not bold. 3·0.2207… =
//	  0.6620140857595408 for both 3-player seats, 1 for seat 0.
//	Holm over 5 (no mirror): 5·0.0015654… = 0.0078270112900128,
//	  4·0.0114120… = 0.0456481455440064, 3·0.2207… for both, 1.
func TestSeatHolmMirror(t *testing.T) {
	e := mustParse(t, `name: seats
games: 100
grids:
  - players: [2, 3]
`)
	build := func(seat1 int64, unfinished int64) *Result {
		r := emptyResult(e)
		for i := range r.Cells {
			st := sim.NewStats(&e.Cells[i].Config)
			switch e.Cells[i].Config.Players {
			case 2:
				st.Games, st.Finished, st.Unfinished = 1000, 1000-unfinished, unfinished
				copy(st.WinsBySeat, []int64{540, seat1})
			case 3:
				st.Games, st.Finished = 1200, 1200
				copy(st.WinsBySeat, []int64{400, 380, 420})
			}
			r.Cells[i].Stats = st
		}
		return r
	}
	const p3 = 0.22067136191984693
	for _, c := range []struct {
		name   string
		r      *Result
		family int
		holm   []float64
		row    string
	}{
		{"every game won", build(460, 0), 4, []float64{4 * 0.0114120363860016, 4 * 0.0114120363860016, 1, 3 * p3, 3 * p3},
			"| 2p | 1,000 | 50.00% | **+4.00 [+0.90, +7.07]** | **-4.00 [-7.07, -0.90]** | |"},
		{"10 unfinished", build(450, 10), 5, []float64{4 * 0.0114120363860016, 5 * 0.0015654022580025558, 1, 3 * p3, 3 * p3},
			"| 2p | 1,000 | 50.00% | **+4.00 [+0.90, +7.07]** | **-5.00 [-8.06, -1.90]** | |"},
	} {
		tests, family := c.r.seatTests()
		if family != c.family || len(tests) != len(c.holm) {
			t.Fatalf("%s: %d tests, family of %d; want %d and %d", c.name, len(tests), family, len(c.holm), c.family)
		}
		for i, want := range c.holm {
			if got := tests[i].PHolm; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: seat test %d: p_holm %.17g, want %.17g", c.name, i, got, want)
			}
		}
		if c.family == 4 && tests[0].PHolm != tests[1].PHolm {
			t.Errorf("%s: the mirrored seats' p_holm %v and %v differ", c.name, tests[0].PHolm, tests[1].PHolm)
		}
		s := c.r.seatSection()
		for _, want := range []string{c.row, fmt.Sprintf("Holm's method over the %d tests of this table", c.family)} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: the seat table lacks %q:\n%s", c.name, want, s)
			}
		}
	}
}
