package experiments

import (
	"fmt"
	"math"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

// outcome is what a game contributes to the metrics.
type outcome struct {
	turns, drawn int64
	first        bool   // the player who took the first turn won
	unfinished   bool   // the turn cap or a block ended it
	won          uint32 // bit j: line-up position j won
}

func outcomeOf(r *engine.Result, c *sim.Config, game int64) outcome {
	o := outcome{turns: int64(r.Turns), drawn: int64(r.CardsDrawn), unfinished: r.Outcome != engine.Finished}
	o.first = r.FirstToAct >= 0 && r.Won(r.FirstToAct)
	for s := 0; s < c.Players; s++ {
		if r.Won(s) {
			o.won |= 1 << uint(c.Position(game, s))
		}
	}
	return o
}

func (o *outcome) number(m Metric) int64 {
	if m.Kind == MetricCardsDrawn {
		return o.drawn
	}
	return o.turns
}

func (o *outcome) yes(m Metric) bool {
	switch m.Kind {
	case MetricFirstPlayer:
		return o.first
	case MetricUnfinished:
		return o.unfinished
	}
	return o.won>>uint(m.Position)&1 != 0
}

// Sums are exact integer sums of a paired difference d = A - B.
type Sums struct {
	A     int64 `json:"a"` // sum of A's values
	B     int64 `json:"b"` // sum of B's values
	Sum   int64 `json:"sum"`
	SumSq int64 `json:"sum_sq"`
}

func (s *Sums) add(a, b int64) {
	s.A += a
	s.B += b
	s.Sum += a - b
	s.SumSq += (a - b) * (a - b)
}

func (s *Sums) merge(o Sums) {
	s.A += o.A
	s.B += o.B
	s.Sum += o.Sum
	s.SumSq += o.SumSq
}

// PairStats accumulates, game by game, the paired outcomes of a pair of
// cells: the differences of the numeric metrics and the 2x2 tables of the
// yes/no metrics ([both, A only, B only, neither]). All integers: exact and
// mergeable in any order.
type PairStats struct {
	N          int64                       `json:"n"`
	Turns      Sums                        `json:"turns"`
	CardsDrawn Sums                        `json:"cards_drawn"`
	First      [4]int64                    `json:"first_player"`
	Unfinished [4]int64                    `json:"unfinished"`
	Position   [engine.MaxPlayers][4]int64 `json:"position"`
}

func cellOf(a, b bool) int {
	switch {
	case a && b:
		return 0
	case a:
		return 1
	case b:
		return 2
	}
	return 3
}

func (p *PairStats) add(a, b *outcome) {
	p.N++
	p.Turns.add(a.turns, b.turns)
	p.CardsDrawn.add(a.drawn, b.drawn)
	p.First[cellOf(a.first, b.first)]++
	p.Unfinished[cellOf(a.unfinished, b.unfinished)]++
	for j := range p.Position {
		p.Position[j][cellOf(a.won>>uint(j)&1 != 0, b.won>>uint(j)&1 != 0)]++
	}
}

func (p *PairStats) merge(o *PairStats) {
	p.N += o.N
	p.Turns.merge(o.Turns)
	p.CardsDrawn.merge(o.CardsDrawn)
	for i := range 4 {
		p.First[i] += o.First[i]
		p.Unfinished[i] += o.Unfinished[i]
		for j := range p.Position {
			p.Position[j][i] += o.Position[j][i]
		}
	}
}

func (p *PairStats) table(m Metric) [4]int64 {
	switch m.Kind {
	case MetricFirstPlayer:
		return p.First
	case MetricUnfinished:
		return p.Unfinished
	}
	return p.Position[m.Position]
}

// Test is one test of an experiment, before and after Holm's correction.
type Test struct {
	Name     string  `json:"name"`   // what is compared
	Metric   string  `json:"metric"` // the metric
	Method   string  `json:"method"` // the test used
	N        int64   `json:"n"`      // games (pairs of games for paired tests)
	EstA     float64 `json:"estimate_a"`
	EstB     float64 `json:"estimate_b"` // the baseline, or the proportion tested against
	Effect   float64 `json:"effect"`     // A - B: a mean difference or a difference of proportions
	EffectLo float64 `json:"effect_ci_low"`
	EffectHi float64 `json:"effect_ci_high"`
	P        float64 `json:"p"`
	PHolm    float64 `json:"p_holm"`
	// NotTestable says why the test cannot reject (no discordant pair, too
	// few of them or too few games for any outcome to give p < 0.05, a
	// cell identical to its baseline, ...); such a test has P and PHolm NaN
	// and is left out of Holm's family.
	NotTestable string `json:"not_testable,omitempty"`
	// Note is a remark on the comparison: cells that do not share deals,
	// the same comparison declared more than once, or a one-sample test
	// that repeats another (position:1 against 1/2 in a 2-player cell
	// whose every game had one winner is position:0's, mirrored).
	Note    string `json:"note,omitempty"`
	cell    int    // the cell tested (A of a pair), for the report
	repeats bool   // the same hypothesis as an earlier test: not counted in Holm's family, its p_holm
}

// The methods of the paired tests, as printed.
const (
	methodPairedT   = "paired t-test of the mean difference"
	methodMidP      = "McNemar mid-p (conditional), inverted interval"
	methodScore     = "McNemar score test (uncorrected), Tango interval"
	methodOneSample = "one-sample score test of a proportion"
)

// pairedTest tests metric m of a pair: a paired t-test of the mean
// difference for numbers, McNemar's test for yes/no. A test that cannot
// reject at alpha whatever the data (no discordant pair, or so few that
// no split of them gives p < alpha) is marked NotTestable.
func pairedTest(p *PairStats, m Metric) Test {
	t := Test{Metric: m.String(), N: p.N}
	if m.Numeric() {
		s := p.Turns
		if m.Kind == MetricCardsDrawn {
			s = p.CardsDrawn
		}
		// The sums are exact integers; PairedSums keeps them exact (a
		// float64 holds Σd² exactly only up to 2^53).
		r := analysis.PairedSums(p.N, s.Sum, uint64(s.SumSq)).Test(sim.Confidence)
		t.Method = methodPairedT
		if p.N > 0 {
			t.EstA, t.EstB = float64(s.A)/float64(p.N), float64(s.B)/float64(p.N)
		}
		t.Effect, t.EffectLo, t.EffectHi, t.P = r.Mean, r.Lo, r.Hi, r.P
		switch {
		case p.N < 2:
			t.NotTestable = "fewer than 2 paired games"
		case s.SumSq == 0:
			t.NotTestable = "every paired difference is 0: the cells agree on every game"
		case r.SE == 0:
			// Every game differs by the same amount: no variance, so no t
			// statistic (its limit p = 0 is no test; R's t.test stops).
			t.NotTestable = fmt.Sprintf("every paired difference is %+d: with no variance the t test is undefined", s.Sum/p.N)
		}
		if t.NotTestable != "" {
			t.P = math.NaN()
		}
		return t
	}
	tab := p.table(m)
	r := analysis.McNemar(tab[1], tab[2], p.N, sim.Confidence)
	t.Method = methodScore
	if r.MidP {
		t.Method = methodMidP
	}
	if p.N > 0 {
		t.EstA = float64(tab[0]+tab[1]) / float64(p.N)
		t.EstB = float64(tab[0]+tab[2]) / float64(p.N)
	}
	t.Effect, t.EffectLo, t.EffectHi, t.P = r.Diff, r.DiffLo, r.DiffHi, r.P
	switch m := tab[1] + tab[2]; {
	case m == 0:
		t.NotTestable = "no discordant pairs: the cells agree on every game"
	case !(r.MinP < alpha):
		// However the pairs split, p >= alpha (below 5 discordant pairs
		// the mid-p value is at least 2^-4): the test cannot reject.
		t.NotTestable = fmt.Sprintf("too few discordant pairs: with %d, no split gives p < %g (the smallest p is %.4g)", m, alpha, r.MinP)
	}
	if t.NotTestable != "" {
		t.P = math.NaN()
	}
	return t
}

// alpha is the level at which a test is said to reject, 1 - sim.Confidence:
// a test whose p-value cannot go below it is left out of Holm's family.
const alpha = 1 - sim.Confidence

// scoreP is the two-sided p-value of the one-sample score test of x
// successes in n trials against p0, from erfc so that a p-value far in
// the tail keeps its precision (1 - erf, gonum's Survival, is 0 past |z| of
// about 8.3).
func scoreP(x, n int64, p0 float64) float64 {
	z := (float64(x)/float64(n) - p0) / math.Sqrt(p0*(1-p0)/float64(n))
	return analysis.NormalTwoSided(z)
}

// oneSampleTest tests a proportion of x in n against p0: the score test
// (z = (x/n - p0) / sqrt(p0 (1 - p0) / n), two-sided), with the Wilson
// interval for the difference x/n - p0, which excludes 0 exactly when
// p < alpha, to the last bit (dualToScore). When no outcome of n trials
// could give p < alpha (a handful of games) it is marked NotTestable.
func oneSampleTest(x, n int64, p0 float64) Test {
	t := Test{Method: methodOneSample, N: n, EstB: p0, P: math.NaN()}
	lo, hi := analysis.Wilson(x, n, sim.Confidence)
	if n == 0 {
		t.EstA, t.Effect, t.EffectLo, t.EffectHi = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		t.NotTestable = "no game played"
		return t
	}
	t.EstA = float64(x) / float64(n)
	t.Effect, t.EffectLo, t.EffectHi = t.EstA-p0, lo-p0, hi-p0
	t.P = scoreP(x, n, p0)
	dualToScore(&t)
	// |z| is largest at x = 0 or x = n: if neither gives p < alpha, no
	// outcome of n games does, and the test cannot reject.
	if minP := math.Min(scoreP(0, n, p0), scoreP(n, n, p0)); !(minP < alpha) {
		t.NotTestable = fmt.Sprintf("too few games: with %d, no outcome gives p < %g (the smallest p is %.4g)", n, alpha, minP)
		t.P = math.NaN()
	}
	return t
}

// dualToScore makes a one-sample test's interval agree with its score
// test: it excludes 0 exactly when P < alpha. Both stand on the same
// boundary, |z| = 1.959963984540054, but the p-value comes from gonum's
// normal survival function and the Wilson limits from the critical value
// and a quadratic's root, so for a p0 within rounding of a Wilson limit
// they can disagree in the last bits. Against the fair share 1/k (k = 2
// to 16), or 0.01, 0.05, 0.1, 0.3, 0.4, 0.6, 0.7 or 0.9, no n up to 10^7
// reaches that (TestOneSampleDualAtTheBoundary), but a file's against:
// can: 3 of 10 against 0.10779126740630103, the Wilson lower limit of
// 3/10, gives p = 0.050000000000000044 (not rejected) and a lower limit
// 1.4e-17 above p0. The test decides, as analysis does for the t test and
// McNemar's: the limit next to 0 moves to 0 (the test does not reject) or
// off it by the smallest step (it rejects), far below the interval's
// precision.
func dualToScore(t *Test) {
	t.EffectLo, t.EffectHi = analysis.DualLimits(t.P < alpha, t.Effect, t.EffectLo, t.EffectHi)
}
