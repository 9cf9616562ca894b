package experiments

import (
	"math"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// A test that cannot reject at 5% whatever the data (too few discordant
// pairs for McNemar's mid-p test, too few games for the one-sample score
// test) must be left out of Holm's family, like one with no discordant
// pair: counting it only inflates every adjusted p-value.
//
// Expected values (Python):
//
//	c vs official, 4 discordant pairs (3, 1): its smallest possible mid-p is
//	  2^-4 = 0.0625 (fractions.Fraction(1, 16)): it cannot reject.
//	a vs official, 40 discordant (30, 10): p = math.erfc(math.sqrt(5))
//	  = 0.0015654022580025488; alone in the family, Holm leaves it as is.
//	one-sample, 3 games of 2 players, 3 first-player wins against 1/2:
//	  z = 0.5/math.sqrt(0.25/3) = √3, the largest |z| any outcome gives,
//	  p = math.erfc(math.sqrt(3)/math.sqrt(2)) = 0.08326451666355043:
//	  it cannot reject. With 4 games all won, z = 2 and p =
//	  math.erfc(2/math.sqrt(2)) = 0.04550026389635844: it can.
func TestHolmFamilyLeavesOutTestsThatCannotReject(t *testing.T) {
	e := mustParse(t, `name: holm
games: 100
grids:
  - options:
      official: {}
      a: {stack-draw-two: true}
      c: {seven-zero: true}
compare:
  - axis: options
    baseline: official
    metrics: [first-player]
`)
	r := emptyResult(e)
	for i := range r.Cells {
		r.Cells[i].Stats = sim.NewStats(&e.Cells[i].Config)
	}
	r.Pairs[pairIndex(t, e, "a", "official")].N = 100
	r.Pairs[pairIndex(t, e, "a", "official")].First = [4]int64{10, 30, 10, 50}
	r.Pairs[pairIndex(t, e, "c", "official")].N = 100
	r.Pairs[pairIndex(t, e, "c", "official")].First = [4]int64{20, 3, 1, 76}
	byName := map[string]Test{}
	for _, tt := range r.Tests() {
		byName[tt.Name] = tt
	}
	c := byName["c vs official (options)"]
	if c.NotTestable == "" || !math.IsNaN(c.P) || !math.IsNaN(c.PHolm) {
		t.Errorf("c vs official (4 discordant pairs): not testable %q, P %v, Holm %v; want not testable and out of the family", c.NotTestable, c.P, c.PHolm)
	}
	a := byName["a vs official (options)"]
	if want := 0.0015654022580025488; a.NotTestable != "" || math.Abs(a.P-want) > 1e-14*want || math.Abs(a.PHolm-want) > 1e-14*want {
		t.Errorf("a vs official: P %v Holm %v (%q), want both %v (a family of one)", a.P, a.PHolm, a.NotTestable, want)
	}
	md := r.Markdown(r.Tests(), nil, "test")
	if !strings.Contains(md, "2 tests, of which 1 can reject") {
		t.Errorf("report.md does not show the family of 1:\n%s", md)
	}

	for _, c := range []struct {
		x, n      int64
		p         float64
		canReject bool
	}{
		{3, 3, 0.08326451666355043, false},
		{4, 4, 0.04550026389635844, true},
	} {
		tt := oneSampleTest(c.x, c.n, 0.5)
		switch {
		case c.canReject && (tt.NotTestable != "" || math.Abs(tt.P-c.p) > 1e-14*c.p):
			t.Errorf("oneSampleTest(%d, %d, 0.5): P %v (%q), want %v and testable", c.x, c.n, tt.P, tt.NotTestable, c.p)
		case !c.canReject && (tt.NotTestable == "" || !math.IsNaN(tt.P)):
			t.Errorf("oneSampleTest(%d, %d, 0.5): P %v (%q), want not testable (no outcome of %d games gives p < 0.05)", c.x, c.n, tt.P, tt.NotTestable, c.n)
		}
	}
}

// The score test's p-value keeps its precision far into the tail (a
// p-value of 0 would tie the smallest effects with the largest). Expected
// values from Python: 0 of 200 games against 1/2 is z = -√200, p =
// math.erfc(10.0) = 2.088487583762545e-45; 60 of 100 against 1/2 is z =
// 2, p = math.erfc(math.sqrt(2)) = 0.045500263896358396.
func TestScorePInTheTail(t *testing.T) {
	for _, c := range []struct {
		x, n int64
		want float64
	}{{0, 200, 2.088487583762545e-45}, {60, 100, 0.045500263896358396}} {
		if got := oneSampleTest(c.x, c.n, 0.5).P; math.Abs(got-c.want) > 1e-13*c.want {
			t.Errorf("oneSampleTest(%d, %d, 0.5).P = %v, want %v", c.x, c.n, got, c.want)
		}
	}
}
