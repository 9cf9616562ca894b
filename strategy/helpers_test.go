package strategy_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// Test helpers: real games played through the engine with every decision of
// the strategies under test observed as it is made, and the statistics the
// tests use.
//
// Statistical tolerances. Every stochastic test plays a fixed set of seeded
// games, so it is deterministic; the tolerances say how far from the
// expectation a correct strategy could be before the seeds were chosen.
// zMax = 4 standard deviations is a two-sided normal tail of 6.3e-5
// (2*(1-Phi(4)), Phi the standard normal CDF); chi-square tests reject at
// the upper 1e-4 quantile of the chi-square distribution with their degrees
// of freedom (gonum's distuv.ChiSquared.Quantile). With a few dozen such
// checks the chance that a correct strategy fails any of them on unlucky
// seeds is below 0.5%.
const (
	zMax      = 4.0
	chi2Alpha = 1e-4
)

// observer sees one decision: the seat, its view (valid only during the
// call), the moves offered and the index chosen.
type observer func(seat int, v *engine.View, moves []engine.Move, choice int)

// watched wraps a strategy and shows every decision it makes to an observer,
// before the engine applies it (so that the view still shows the situation
// the choice was made in).
type watched struct {
	s   engine.Strategy
	obs observer
}

func (w *watched) Decide(v *engine.View, moves []engine.Move) int {
	i := w.s.Decide(v, moves)
	if w.obs != nil {
		w.obs(v.Seat(), v, moves, i)
	}
	return i
}

// ReactionSpeed passes the wrapped strategy's speed on (1 without one).
func (w *watched) ReactionSpeed() float64 {
	if r, ok := w.s.(engine.Reactor); ok {
		return r.ReactionSpeed()
	}
	return 1
}

// options is a rule set's defaults changed by sets ("name=value").
func options(t testing.TB, r engine.RuleSet, sets ...string) engine.Options {
	t.Helper()
	o := engine.DefaultOptions(r)
	for _, s := range sets {
		name, value, _ := strings.Cut(s, "=")
		if err := o.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// table builds a game whose seat i is played by specs[i], every seat
// watched by obs (nil: none).
func table(t testing.TB, o engine.Options, specs []string, obs observer) *engine.Game {
	t.Helper()
	ss := make([]engine.Strategy, len(specs))
	for i, s := range specs {
		sp, err := strategy.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = &watched{s: sp.New(), obs: obs}
	}
	g, err := engine.NewGame(o, ss)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// same is n copies of spec.
func same(spec string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = spec
	}
	return s
}

// counts plays games 0..games-1 of seed and sums their counters.
func counts(g *engine.Game, seed uint64, games int) [engine.NumCounters]int {
	var c [engine.NumCounters]int
	for i := range uint64(games) {
		r := g.Play(seed, i)
		for k, n := range r.Count {
			c[k] += n
		}
	}
	return c
}

// binomialZ is the z-score of k successes in n trials of probability p.
func binomialZ(k, n int, p float64) float64 {
	return (float64(k) - float64(n)*p) / math.Sqrt(float64(n)*p*(1-p))
}

// poissonBinomial accumulates independent Bernoulli trials of different
// probabilities: the expected number of successes, its variance and the
// observed number.
type poissonBinomial struct {
	mean, variance float64
	observed       int
	trials         int
}

func (pb *poissonBinomial) add(p float64, success bool) {
	pb.mean += p
	pb.variance += p * (1 - p)
	pb.trials++
	if success {
		pb.observed++
	}
}

func (pb *poissonBinomial) z() float64 {
	return (float64(pb.observed) - pb.mean) / math.Sqrt(pb.variance)
}

// uniformity collects choices that should be uniform among n options, by n.
type uniformity map[int][]int

func (u uniformity) add(n, chosen int) {
	if u[n] == nil {
		u[n] = make([]int, n)
	}
	u[n][chosen]++
}

// chi2 is Pearson's statistic summed over the groups with at least 5
// expected choices per option (the usual validity rule), with its degrees
// of freedom and the number of choices used.
func (u uniformity) chi2() (stat float64, df, used int) {
	for n, obs := range u {
		total := 0
		for _, o := range obs {
			total += o
		}
		e := float64(total) / float64(n)
		if e < 5 {
			continue
		}
		for _, o := range obs {
			stat += (float64(o) - e) * (float64(o) - e) / e
		}
		df += n - 1
		used += total
	}
	return stat, df, used
}

// chi2Limit is the rejection threshold of a chi-square test with df degrees
// of freedom at level chi2Alpha.
func chi2Limit(df int) float64 { return distuv.ChiSquared{K: float64(df)}.Quantile(1 - chi2Alpha) }

// instanceCounts lists the card moves offered, in order, with the number
// of instances of each in the viewer's hand.
func instanceCounts(v *engine.View, moves []engine.Move) (kinds []engine.Card, n []int) {
	h := v.Hand()
	for _, m := range moves {
		if m.Kind() == engine.MovePlay {
			kinds = append(kinds, m.Card())
			n = append(n, h.Count(m.Card()))
		}
	}
	return kinds, n
}

var wd4 = engine.WildCard(engine.WildDrawFour)

// hasKind reports whether moves offer a move of kind k.
func hasKind(moves []engine.Move, k engine.MoveKind) bool {
	for _, m := range moves {
		if m.Kind() == k {
			return true
		}
	}
	return false
}
