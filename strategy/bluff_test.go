package strategy_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// scripted plays seat 0 of the constructed situations: it plays a Wild
// Draw Four when it can and otherwise takes the first move.
type scripted struct{}

func (scripted) Decide(v *engine.View, moves []engine.Move) int {
	for i, m := range moves {
		if m.Kind() == engine.MovePlay && m.Card() == wd4 {
			return i
		}
	}
	return 0
}

// respondTo deals a classic two-player round from a stacked deck (seat 0
// gets hand0, seat 1 hand1, then startCard is turned), lets seat 0 play its
// Wild Draw Four on the first turn and returns what seat 1, playing spec,
// estimated and chose when asked to respond.
func respondTo(t *testing.T, spec string, hand0, hand1 []engine.Card, startCard engine.Card, sets ...string) (p float64, challenged bool) {
	t.Helper()
	o := options(t, engine.Classic, append([]string{fmt.Sprintf("hand-size=%d", len(hand0))}, sets...)...)
	asked := false
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if v.Decision() == engine.DecideRespond {
			asked = true
			p = strategy.BluffProbability(v)
			challenged = moves[choice].Kind() == engine.MoveChallenge
		}
	}
	g, err := engine.NewGame(o, []engine.Strategy{scripted{}, &watched{s: strategy.MustParse(spec).New(), obs: obs}})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 1 deals, so seat 0 is dealt first and plays first.
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
	return p, challenged
}

func blue(s engine.Symbol) engine.Card  { return engine.MakeCard(engine.Blue, s) }
func red(s engine.Symbol) engine.Card   { return engine.MakeCard(engine.Red, s) }
func green(s engine.Symbol) engine.Card { return engine.MakeCard(engine.Green, s) }

// BluffProbability on constructed deals: seat 0 holds the Wild Draw Four
// and h blue cards, seat 1 (the estimator) h+1 cards of which two are red,
// and a red 7 starts the pile, so red is the reference color. The unseen
// cards are the 108 less seat 1's h+1 and the two discards, U = 105-h; the
// unseen cards that would make the play illegal are K = 25 reds less the
// three seen = 22, plus the four Wilds under no-color-match-or-wild (26),
// less those seat 1 holds. The estimate is the hypergeometric chance that
// seat 0's h cards hold one of them: 1 - prod_{i<h} (U-K-i)/(U-i). It
// rises with h.
func TestBluffProbabilityHypergeometric(t *testing.T) {
	seat0 := []engine.Card{blue(engine.One), blue(engine.One), blue(engine.Two), blue(engine.Two), blue(engine.Three), blue(engine.Three)}
	seat1 := []engine.Card{red(engine.Three), red(engine.Four), green(engine.Five), green(engine.Five), green(engine.Six), green(engine.Six), green(engine.Eight)}
	wild := engine.WildCard(engine.Wild)
	for _, tc := range []struct {
		name    string
		sets    []string
		k       int  // unseen cards that make it illegal
		ownWild bool // seat 1 holds a Wild in place of its last green card (h >= 2)
	}{
		{"no-color-match", nil, 22, false},
		{"no-color-match-or-wild", []string{"wd4-legal=no-color-match-or-wild"}, 26, false},
		{"no-color-match-or-wild, a Wild seen", []string{"wd4-legal=no-color-match-or-wild"}, 25, true},
		{"no-color-match, a Wild seen", nil, 22, true},
	} {
		prev := -1.0
		for h := 1; h <= 6; h++ {
			hand0 := append([]engine.Card{wd4}, seat0[:h]...)
			hand1 := append([]engine.Card(nil), seat1[:h+1]...)
			if tc.ownWild {
				if h < 2 {
					continue // seat 1's two cards are its reds
				}
				hand1[h] = wild
			}
			got, _ := respondTo(t, "heuristic", hand0, hand1, red(engine.Seven), tc.sets...)
			u := 105 - h
			pLegal := 1.0
			for i := range h {
				pLegal *= float64(u-tc.k-i) / float64(u-i)
			}
			want := 1 - pLegal
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("%s, %d cards behind the wild-draw-four: estimate %.15f, want %.15f (U=%d, K=%d)", tc.name, h, got, want, u, tc.k)
			}
			if got <= prev {
				t.Errorf("%s: estimate %.4f with %d cards, not above %.4f with %d", tc.name, got, h, prev, h-1)
			}
			prev = got
		}
	}
	// Pinned values: with one card behind it the estimate is K/U = 22/104;
	// with two, 1 - (81/103)(80/102) = 0.383209594517...
	if got, _ := respondTo(t, "heuristic", []engine.Card{wd4, seat0[0]}, seat1[:2], red(engine.Seven)); math.Abs(got-22.0/104) > 1e-12 {
		t.Errorf("one card: estimate %v, want 22/104", got)
	}
	if got, _ := respondTo(t, "heuristic", []engine.Card{wd4, seat0[0], seat0[1]}, seat1[:3], red(engine.Seven)); math.Abs(got-0.38320959451741865) > 1e-12 {
		t.Errorf("two cards: estimate %v, want 0.38320959451741865", got)
	}
}

// challenge=seen challenges exactly when the estimate exceeds the
// threshold: with two cards behind the Wild Draw Four the estimate is
// 0.3832 (above), so threshold 0.38 challenges and 0.39 does not.
func TestChallengeSeenThreshold(t *testing.T) {
	hand0 := []engine.Card{wd4, blue(engine.One), blue(engine.Two)}
	hand1 := []engine.Card{red(engine.Three), red(engine.Four), green(engine.Five)}
	for _, tc := range []struct {
		spec string
		want bool
	}{
		{"heuristic:challenge=seen,threshold=0.38", true},
		{"heuristic:challenge=seen,threshold=0.39", false},
		{"heuristic:challenge=seen", true}, // the default threshold, 0.3
		{"heuristic", false},               // sound: P(bluff) = 0.01 q / (0.01 q + 1 - q) = 0.0062 for q = 0.3832, below 2/11
		{"heuristic:challenge=never", false},
		{"heuristic:challenge=always,threshold=0.99", true},
		{"random", false},
	} {
		if _, got := respondTo(t, tc.spec, hand0, hand1, red(engine.Seven)); got != tc.want {
			t.Errorf("%s: challenged %v, want %v", tc.spec, got, tc.want)
		}
	}
}

// Under wd4-legal=no-playable a card matching the symbol of the card below
// the Wild Draw Four also makes it illegal (RULES.md section 4), so those
// unseen cards count too: with the red 7 below, K = 22 reds + 4 Wilds + the
// six 7s of the other colors = 32, and with one card behind the Wild Draw
// Four the estimate is K/U = 32/104.
func TestBluffProbabilityNoPlayable(t *testing.T) {
	hand0 := []engine.Card{wd4, blue(engine.One)}
	hand1 := []engine.Card{red(engine.Three), red(engine.Four)}
	got, _ := respondTo(t, "heuristic", hand0, hand1, red(engine.Seven), "wd4-legal=no-playable")
	if want := 32.0 / 104; math.Abs(got-want) > 1e-12 {
		t.Errorf("no-playable, one card behind the wild-draw-four: estimate %.6f, want 32/104 = %.6f", got, want)
	}
}
