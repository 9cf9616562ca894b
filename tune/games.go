package tune

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// ConfirmFirstDeal is the first deal index of a confirmation: tuning deals
// are numbered from 0 by generation, so a confirmation never replays one
// (a tune would need 2^62 deals to reach it).
const ConfirmFirstDeal int64 = 1 << 62

// WithParams is the strategy spec base with the given parameters set
// (replacing any value base gives them).
func WithParams(base string, names []string, values []float64) (strategy.Spec, error) {
	b, err := strategy.Parse(base)
	if err != nil {
		return strategy.Spec{}, err
	}
	name, args, _ := strings.Cut(b.String(), ":")
	var kv []string
	for _, a := range strings.Split(args, ",") {
		k, _, _ := strings.Cut(a, "=")
		keep := a != ""
		for _, n := range names {
			keep = keep && k != n
		}
		if keep {
			kv = append(kv, a)
		}
	}
	for i, n := range names {
		kv = append(kv, n+"="+strconv.FormatFloat(values[i], 'g', -1, 64))
	}
	return strategy.Parse(name + ":" + strings.Join(kv, ","))
}

// Games evaluates the candidates of a tune by duplicate deals: generation
// g plays deals [g·Deals, (g+1)·Deals), every candidate the same ones, each
// in every seat.
type Games struct {
	Field    Field
	Base     string   // the strategy spec the tuned parameters are set in
	Names    []string // the tuned parameters
	Deals    int64    // deals per candidate and generation
	Seed     uint64
	Workers  int
	Progress func(games int64) // games done in the current evaluation; may be nil
}

// Evaluate implements Evaluator: scores in the field's Objective.
func (g *Games) Evaluate(ctx context.Context, gen int, points [][]float64) (Evaluation, error) {
	entries := make([]strategy.Spec, len(points))
	for i, x := range points {
		s, err := WithParams(g.Base, g.Names, x)
		if err != nil {
			return Evaluation{}, err
		}
		entries[i] = s
	}
	r, err := NewRunner(g.Field, entries, g.Seed, g.Workers)
	if err != nil {
		return Evaluation{}, err
	}
	defer r.Close()
	lo := int64(gen) * g.Deals
	out, err := r.Play(ctx, lo, lo+g.Deals, g.Progress, progressEvery)
	if err != nil {
		return Evaluation{}, err
	}
	return Evaluation{Scores: out.Score, Wins: out.Wins, Games: out.Games, Total: out.Total}, nil
}

// Comparison is a paired comparison of A with a baseline B on the same
// deals, seats rotated: the effect is A's mean score per game minus B's in
// the field's Objective (under Win the win rates' difference; under Place
// the places gained; under Points the points gained, or saved under
// losers-accumulate), with the Student t interval and test of the per-deal
// differences (interval and test are one statistic, so the interval
// excludes 0 exactly when p < 0.05). Score is the objective's mean per game,
// higher better: minus the expected place under Place, minus the final
// total under losers-accumulate.
type Comparison struct {
	Objective       string     `json:"objective,omitempty"` // win, place or points (empty from Compare: win)
	Games           int64      `json:"games"`               // games each side played
	WinRate         float64    `json:"win_rate"`
	BaselineWinRate float64    `json:"baseline_win_rate"`
	Score           float64    `json:"score"`
	BaselineScore   float64    `json:"baseline_score"`
	Effect          float64    `json:"effect"`
	CI              [2]float64 `json:"ci"`
	P               *float64   `json:"p"` // nil (null) when not testable
	// NotTestable says why there is no test: fewer than 2 deals, or no
	// variance (every deal gave the same difference, as when A and B play
	// alike), where the t statistic is undefined ([NotTestableSame]).
	NotTestable string `json:"not_testable,omitempty"`
}

// Compare compares entry k of o with entry 0.
func Compare(o *Outcome, k int) Comparison {
	n := float64(o.Units[k].Per)
	// The experiments' paired t-test (experiments.pairedTest): the same
	// exact sums, the same function.
	r := analysis.PairedSums(o.Diff[k].N, o.Diff[k].Sum, uint64(o.Diff[k].SumSq)).Test(sim.Confidence)
	c := Comparison{Games: o.Games, WinRate: o.WinRate(k), BaselineWinRate: o.WinRate(0), Score: o.Mean(k), BaselineScore: o.Mean(0),
		Effect: r.Mean / n, CI: [2]float64{r.Lo / n, r.Hi / n}}
	if c.NotTestable = notTestable(r); c.NotTestable == "" && !math.IsNaN(r.P) {
		c.P = &r.P
	}
	return c
}

// Significant reports whether c's test finds a difference at the 5% level
// (false when it is not testable).
func (c *Comparison) Significant() bool { return c.P != nil && *c.P < 0.05 }

// Confirm plays tuned against baseline on the confirmation deals
// [ConfirmFirstDeal, ConfirmFirstDeal + deals).
func Confirm(ctx context.Context, f Field, baseline, tuned strategy.Spec, deals int64, seed uint64, workers int, progress func(int64)) (Comparison, error) {
	r, err := NewRunner(f, []strategy.Spec{baseline, tuned}, seed, workers)
	if err != nil {
		return Comparison{}, err
	}
	defer r.Close()
	out, err := r.Play(ctx, ConfirmFirstDeal, ConfirmFirstDeal+deals, progress, progressEvery)
	if err != nil {
		return Comparison{}, fmt.Errorf("confirmation: %w", err)
	}
	c := Compare(out, 1)
	c.Objective = f.Objective.String()
	return c, nil
}

// notTestable is why a t test over deals cannot reject (too few deals, or
// every deal gave the same result), or "" if it can.
func notTestable(t analysis.MeanCI) string {
	switch {
	case t.N < 2:
		return NotTestableFewDeals
	case t.SE == 0:
		return NotTestableSame
	}
	return ""
}
