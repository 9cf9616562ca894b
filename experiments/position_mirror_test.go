package experiments

import (
	"math"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// In a 2-player cell whose every game had one winner, position 1's win
// rate is 1 minus position 0's: one-sample tests of position:0 and
// position:1 against 1/2 (the fair share, or 0.5 as given) are one
// hypothesis, counted once in the Tests section's Holm family, and the
// later test gets the earlier's p_holm, with a note. A 2-player cell with a
// game without a winner or a shared win, a 3-player cell, or a test
// against another value keeps its tests apart.
//
// Expected values (Python, math only):
//
//	import math
//	def p(x, n, p0):
//	    z = (x/n - p0)/math.sqrt(p0*(1-p0)/n)
//	    return math.erfc(abs(z)/math.sqrt(2))
//	def holm(ps):
//	    idx = sorted(range(len(ps)), key=lambda i: ps[i]); m = len(ps)
//	    out = [0]*m; run = 0
//	    for r, i in enumerate(idx):
//	        run = max(run, (m-r)*ps[i]); out[i] = min(1, run)
//	    return out
//	a = p(539, 1000, .5)   # 0.013641155794968421 (461 of 1000: …8563)
//	c = p(400, 1200, 1/3)  # 1.0
//	d = p(380, 1200, 1/3)  # 0.22067136191984693
//	# tests in order: 2p pos0, 3p pos0, 2p pos1, 3p pos1
//	holm([a, c, d])        # the mirror once: 3a = 0.040923467384905265,
//	                       # 1, 2d = 0.44134272383969386; 2p pos1 gets 3a
//	holm([a, c, a, d])     # counted twice: 4a = 0.054564623179873685
//	                       # (no longer < 0.05), 1, 4a, 2d; so with 5
//	                       # shared wins and 5 games without a winner
//	                       # (539 + 461 wins still add up to the games)
//	e = p(451, 1000, .5)   # 10 unfinished: 0.0019415397850404237
//	holm([a, c, e, d])     # 3a, 1, 4e = 0.007766159140161695, 2d
//	# 2 players only (a 3-player cell's position:1 against 0.5 or 0.45
//	# is far in the tail), position:1 against 0.5 as given:
//	holm([a])              # a, and a for position:1 (counted twice: 2a =
//	                       # 0.027282311589936842)
//	# position:1 against 0.45: p(461, 1000, .45) = 0.48442336471277564
//	holm([a, p(461, 1000, .45)])  # 2a, 0.48442336471277564
func TestOneSamplePositionMirror(t *testing.T) {
	parse := func(players, against1 string) *Experiment {
		return mustParse(t, `name: positions
games: 100
grids:
  - players: `+players+`
compare:
  - metric: position:0
    against: fair
  - metric: position:1
    against: `+against1+`
`)
	}
	// wins1: position 1's wins in the 2-player cell; shared: shared wins
	// and as many games without a winner (the wins still add up to the
	// games); unfinished: games without a winner.
	build := func(e *Experiment, wins1, shared, unfinished int64) *Result {
		r := emptyResult(e)
		for i := range r.Cells {
			st := sim.NewStats(&e.Cells[i].Config)
			switch e.Cells[i].Config.Players {
			case 2:
				st.Games, st.Finished, st.Unfinished = 1000, 1000-unfinished, unfinished
				st.SharedWins, st.NoWinner = shared, shared
				copy(st.WinsByPosition, []int64{539, wins1})
			case 3:
				st.Games, st.Finished = 1200, 1200
				copy(st.WinsByPosition, []int64{400, 380, 420})
			}
			r.Cells[i].Stats = st
		}
		return r
	}
	const (
		a1 = 0.013641155794968421
		a3 = 0.040923467384905265
		a4 = 0.054564623179873685
		d2 = 0.44134272383969386
	)
	fair, half, other := parse("[2, 3]", "fair"), parse("[2]", "0.5"), parse("[2]", "0.45")
	for _, c := range []struct {
		name     string
		r        *Result
		holm     []float64
		mirrored bool
		preamble string
	}{
		{"every game won", build(fair, 461, 0, 0), []float64{a3, 1, a3, d2}, true,
			"4 tests, of which 4 can reject; p-values are adjusted by Holm's method over those 4, counted as 3 hypotheses since 1 repeats another"},
		{"against 0.5 as given", build(half, 461, 0, 0), []float64{a1, a1}, true,
			"2 tests, of which 2 can reject; p-values are adjusted by Holm's method over those 2, counted as 1 hypothesis since 1 repeats another"},
		{"10 unfinished", build(fair, 451, 0, 10), []float64{a3, 1, 0.007766159140161695, d2}, false,
			"4 tests, of which 4 can reject; p-values are adjusted by Holm's method over those 4 ("},
		{"5 shared wins, 5 without a winner", build(fair, 461, 5, 0), []float64{a4, 1, a4, d2}, false,
			"4 tests, of which 4 can reject; p-values are adjusted by Holm's method over those 4 ("},
		{"position:1 against 0.45", build(other, 461, 0, 0), []float64{2 * a1, 0.48442336471277564}, false,
			"2 tests, of which 2 can reject; p-values are adjusted by Holm's method over those 2 ("},
	} {
		tests := c.r.Tests()
		if len(tests) != len(c.holm) {
			t.Fatalf("%s: %d tests, want %d", c.name, len(tests), len(c.holm))
		}
		for i, want := range c.holm {
			if got := tests[i].PHolm; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: test %d (%s %s): p_holm %.17g, want %.17g", c.name, i, tests[i].Name, tests[i].Metric, got, want)
			}
		}
		pos1 := len(tests) / 2 // the 2-player cell's position:1 test
		if c.mirrored && tests[pos1].PHolm != tests[0].PHolm {
			t.Errorf("%s: position:1's p_holm %v is not position:0's %v", c.name, tests[pos1].PHolm, tests[0].PHolm)
		}
		for i, tt := range tests {
			noted := strings.Contains(tt.Note, "tested once in Holm's family")
			if want := c.mirrored && i == pos1; noted != want {
				t.Errorf("%s: test %d (%s %s): note %q, want a tested-once note: %v", c.name, i, tt.Name, tt.Metric, tt.Note, want)
			}
		}
		if s := testsPreamble(tests); !strings.Contains(s, c.preamble) {
			t.Errorf("%s: the preamble lacks %q:\n%s", c.name, c.preamble, s)
		}
		if sec := testsSection(tests); c.mirrored && !strings.Contains(sec, "position:1's rate is 1 minus position:0's, so this is the test of position:0 against 1/2 again, tested once in Holm's family") {
			t.Errorf("%s: the tests section lacks the note:\n%s", c.name, sec)
		}
	}
}

// A one-sample test declared twice in a cell (also as the fair share and
// as its value) is tested once, with a note, as a paired comparison is:
// counting it twice only inflates every adjusted p-value. Expected values
// (Python): p(400, 1200, 1/3) = 1.0 and p(400, 1200, 0.4) =
// math.erfc(abs((400/1200 - 0.4)/math.sqrt(0.4*0.6/1200))/math.sqrt(2))
// = 2.4284674729758106e-06, a family of 2: Holm gives 1 and 2·p.
func TestOneSampleDeclaredTwiceIsTestedOnce(t *testing.T) {
	e := mustParse(t, `name: twice
games: 100
grids:
  - players: [3]
compare:
  - metric: position:0
    against: fair
  - metric: position:0
    against: 0.4
  - metric: position:0
    against: 0.3333333333333333
`)
	r := emptyResult(e)
	st := sim.NewStats(&e.Cells[0].Config)
	st.Games, st.Finished = 1200, 1200
	copy(st.WinsByPosition, []int64{400, 380, 420})
	r.Cells[0].Stats = st
	tests := r.Tests()
	if len(tests) != 2 {
		t.Fatalf("%d tests, want 2 (the fair share declared again is tested once)", len(tests))
	}
	if want := 2 * 2.4284674729758106e-06; tests[0].PHolm != 1 || math.Abs(tests[1].PHolm-want) > 1e-12*want {
		t.Errorf("p_holm %v and %v, want 1 and %v (a family of 2)", tests[0].PHolm, tests[1].PHolm, want)
	}
	if !strings.Contains(tests[0].Note, "declared again") {
		t.Errorf("the first test's note %q does not say it was declared again", tests[0].Note)
	}
}
