package strategy_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// binom is C(n, k) exactly.
func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

// closedPosterior is the posterior of a bluff computed exactly in rationals,
// independently of the code under test: q = 1 - C(U-K, h)/C(U, h), and
// P(bluff) = r q / (r q + 1 - q), r taken exactly from its float64.
func closedPosterior(u, k, h int, r float64) float64 {
	none := new(big.Rat).SetFrac(binom(u-k, h), binom(u, h))
	q := new(big.Rat).Sub(big.NewRat(1, 1), none)
	rq := new(big.Rat).Mul(new(big.Rat).SetFloat64(r), q)
	den := new(big.Rat).Add(rq, none)
	f, _ := new(big.Rat).Quo(rq, den).Float64()
	return f
}

// NoMatchChance is the hypergeometric zero term, checked against exact
// binomial ratios on a grid.
func TestNoMatchChanceIsHypergeometric(t *testing.T) {
	for u := 1; u <= 108; u += 7 {
		for k := 0; k <= u; k += 3 {
			for h := 0; h <= 12; h++ {
				want := 0.0
				if h <= u {
					want, _ = new(big.Rat).SetFrac(binom(u-k, h), binom(u, h)).Float64()
				}
				if h > u {
					continue // more cards than there are: not a position
				}
				if got := strategy.NoMatchChance(float64(u), float64(k), h); math.Abs(got-want) > 1e-12 {
					t.Errorf("NoMatchChance(%d, %d, %d) = %.15g, want %.15g", u, k, h, got, want)
				}
			}
		}
	}
}

// The posterior's edge cases: proof (q = 1) beats any rate, an honest
// population (rate 0) is never suspected otherwise, and rate 1 leaves the
// prior unchanged.
func TestBluffPosteriorEdges(t *testing.T) {
	for _, tc := range []struct{ q, r, want float64 }{
		{1, 0, 1}, {1, 0.5, 1}, {0, 1, 0}, {0.7, 0, 0}, {0.3, 1, 0.3}, {0.5, 0.25, 0.2},
	} {
		if got := strategy.BluffPosterior(tc.q, tc.r); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("BluffPosterior(%v, %v) = %v, want %v", tc.q, tc.r, got, tc.want)
		}
	}
}

// The expected costs of RULES.md section 4 and the decision they give.
// Two players, a Wild Draw Four (4 pending), challenge-penalty 6: accept
// costs 4; a challenge costs 6 if lost and -(4+1) if won (the bluffer
// draws 4, the challenger keeps its turn), so it pays when
// 6(1-p) - 5p < 4, that is p > 2/11.
func TestSoundChallengeCosts(t *testing.T) {
	acc, ch := strategy.ChallengeCosts(0, 4, 6, 1, 0)
	if acc != 4 || ch != 6 {
		t.Errorf("p=0: costs %v, %v, want 4, 6", acc, ch)
	}
	_, ch = strategy.ChallengeCosts(1, 4, 6, 1, 0)
	if ch != -5 {
		t.Errorf("p=1: challenge costs %v, want -5", ch)
	}
	// Four players: the bluffer's 4 cards (and the card taken back) are a
	// third as much to the challenger: -(5/3 + 1).
	_, ch = strategy.ChallengeCosts(1, 4, 6, 1.0/3, 1)
	if math.Abs(ch-(-(5.0/3 + 1))) > 1e-15 {
		t.Errorf("p=1, four players, guilty-takes-back: challenge costs %v, want %v", ch, -(5.0/3 + 1))
	}
	// A stack of 8 pending: a lost challenge draws 8 + 6 - 4 = 10.
	acc, ch = strategy.ChallengeCosts(0, 8, 6, 1, 0)
	if acc != 8 || ch != 10 {
		t.Errorf("stack of 8, p=0: costs %v, %v, want 8, 10", acc, ch)
	}
	edge := 2.0 / 11
	if strategy.SoundChallenge(edge-1e-9, 4, 6, 1, 0, 0) || !strategy.SoundChallenge(edge+1e-9, 4, 6, 1, 0, 0) {
		t.Errorf("the two-player threshold is not 2/11")
	}
	// A bias of one card moves it to 6(1-p) - 5p + 1 < 4: p > 3/11.
	if strategy.SoundChallenge(3.0/11-1e-9, 4, 6, 1, 0, 1) || !strategy.SoundChallenge(3.0/11+1e-9, 4, 6, 1, 0, 1) {
		t.Errorf("with bias 1 the threshold is not 3/11")
	}
	// The bluffer's side: unchallenged the next player draws 4 and loses
	// its turn (5), caught the bluffer draws 4: gain 5(1-c) - 4c.
	if g := strategy.BluffGain(0, 4, 1, 0); g != 5 {
		t.Errorf("BluffGain(c=0) = %v, want 5", g)
	}
	if g := strategy.BluffGain(1, 4, 1, 1); g != -5 {
		t.Errorf("BluffGain(c=1, takes back) = %v, want -5", g)
	}
	if g := strategy.BluffGain(5.0/9, 4, 1, 0); math.Abs(g) > 1e-15 {
		t.Errorf("BluffGain(c=5/9) = %v, want 0", g)
	}
}

// atRespond plays the constructed deal of respondTo with s in seat 1 and
// calls f when seat 1 answers the Wild Draw Four, after it chose.
func atRespond(t *testing.T, s engine.Strategy, hand0, hand1 []engine.Card, startCard engine.Card, f func(v *engine.View, challenged bool), sets ...string) {
	t.Helper()
	o := options(t, engine.Classic, append([]string{fmt.Sprintf("hand-size=%d", len(hand0))}, sets...)...)
	asked := false
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if v.Decision() == engine.DecideRespond {
			asked = true
			f(v, moves[choice].Kind() == engine.MoveChallenge)
		}
	}
	w := &observed{watched{s: s, obs: obs}}
	g, err := engine.NewGame(o, []engine.Strategy{scripted{}, w})
	if err != nil {
		t.Fatal(err)
	}
	var order []engine.Card
	for i := range hand0 {
		order = append(order, hand0[i], hand1[i])
	}
	order = append(order, startCard)
	left := o.Deck
	for _, c := range order {
		left[c]--
	}
	for k, n := range left {
		for range n {
			order = append(order, engine.Card(k))
		}
	}
	g.Reset(1, 0)
	if err := g.StackDeck(order); err != nil {
		t.Fatal(err)
	}
	g.StartRound()
	g.Step()
	if !asked {
		t.Fatal("seat 1 was never asked to respond")
	}
}

// observed is watched that passes the observation feed on to an observing
// strategy.
type observed struct{ watched }

func (o *observed) Begin(v *engine.View) {
	if ob, ok := o.s.(engine.Observer); ok {
		ob.Begin(v)
	}
}

func (o *observed) Observe(v *engine.View, e engine.Event) {
	if ob, ok := o.s.(engine.Observer); ok {
		ob.Observe(v, e)
	}
}

// The sound challenge rule on constructed deals whose posterior is known in
// closed form. Seat 0 holds the Wild Draw Four and h blue cards, seat 1
// h+1 cards, two of them red, and a red 7 starts the pile: the unseen cards
// are U = 105-h, the illegal ones K = 22 reds (no-color-match), and seat 0's
// h cards are a uniform draw from them. With bluff-rate r the posterior is
// r q / (r q + 1 - q), q = 1 - C(U-K, h)/C(U, h), computed here in exact
// rationals; the heuristic (public counts) and the counter (exact counts,
// here the same: nothing else has been seen) must agree with it to 1e-9 and
// challenge exactly when it exceeds 2/11 (TestSoundChallengeCosts).
func TestSoundChallengeClosedForm(t *testing.T) {
	seat0 := []engine.Card{blue(engine.One), blue(engine.One), blue(engine.Two), blue(engine.Two), blue(engine.Three), blue(engine.Three)}
	seat1 := []engine.Card{red(engine.Three), red(engine.Four), green(engine.Five), green(engine.Five), green(engine.Six), green(engine.Six), green(engine.Eight)}
	challenges := map[bool]int{}
	for _, r := range []float64{0.01, 0.1, 0.25, 1} {
		for h := 1; h <= 6; h++ {
			want := closedPosterior(105-h, 22, h, r)
			hand0 := append([]engine.Card{wd4}, seat0[:h]...)
			hand1 := seat1[:h+1]
			for _, spec := range []string{"heuristic", "counter"} {
				s := strategy.MustParse(fmt.Sprintf("%s:bluff-rate=%g", spec, r)).New()
				atRespond(t, s, hand0, hand1, red(engine.Seven), func(v *engine.View, challenged bool) {
					var got float64
					if c, ok := s.(*strategy.Counter); ok {
						got = c.BluffChance(v)
					} else {
						got = strategy.BluffPosterior(strategy.BluffProbability(v), r)
					}
					if math.Abs(got-want) > 1e-9 {
						t.Errorf("%s, rate %g, %d cards behind: posterior %.15f, want %.15f", spec, r, h, got, want)
					}
					if challenged != (want > 2.0/11) {
						t.Errorf("%s, rate %g, %d cards behind: posterior %.4f, challenged %v", spec, r, h, want, challenged)
					}
					challenges[challenged]++
				})
			}
		}
	}
	if challenges[true] == 0 || challenges[false] == 0 {
		t.Errorf("the cases do not test both answers: %v", challenges)
	}
}

// A card the seat knows in the player's hand settles it: after seat 1 has
// seen seat 0's hand in a challenge (a red card in it), the counter knows
// the next Wild Draw Four by seat 0 with that card still in hand is a
// bluff. Here the counter's Knowledge is checked through BluffChance on
// recorded games: whenever a known illegal card is in the player's hand the
// posterior is 1, and then it challenges.
func TestCounterChallengesOnProof(t *testing.T) {
	var counters [4]*strategy.Counter
	proofs := 0
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		c := counters[seat]
		if c == nil || v.Decision() != engine.DecideRespond || !hasKind(moves, engine.MoveChallenge) || v.Silenced(seat) {
			return
		}
		_, _, by := v.Pending()
		ref := v.ReferenceColor()
		known := false
		for s := engine.Zero; s < engine.FirstWild; s++ {
			if c.Known(by, engine.MakeCard(ref, s)) > 0 {
				known = true
			}
		}
		if !known {
			return
		}
		proofs++
		if p := c.BluffChance(v); p != 1 {
			t.Errorf("a known %s card in seat %d's hand, posterior %v, want 1", ref, by, p)
		}
		if moves[choice].Kind() != engine.MoveChallenge {
			t.Errorf("a known %s card in seat %d's hand, and no challenge", ref, by)
		}
	}
	specs := []string{"counter:bluff-rate=0.5", "heuristic:bluff=0.6,challenge=never", "counter:bluff-rate=0.5", "heuristic:bluff=0.6,challenge=never"}
	ss := make([]engine.Strategy, 4)
	for i, sp := range specs {
		s := strategy.MustParse(sp).New()
		if c, ok := s.(*strategy.Counter); ok {
			counters[i] = c
		}
		ss[i] = &observed{watched{s: s, obs: obs}}
	}
	g, err := engine.NewGame(options(t, engine.Classic), ss)
	if err != nil {
		t.Fatal(err)
	}
	counts(g, 77, 3000)
	if proofs < 10 {
		t.Errorf("only %d challenges with proof in hand", proofs)
	}
	t.Logf("%d challenges with proof", proofs)
}
