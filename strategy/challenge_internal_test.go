package strategy

import (
	"math"
	"math/big"
	"math/bits"
	"testing"

	"github.com/unosim/unosim/engine"
)

// noMatchCount is NoMatchChance bit for bit on whole counts, inside its
// table and past it (the counter's decisions depend on it).
func TestNoMatchCountIsNoMatchChance(t *testing.T) {
	for u := -2; u <= fallingJ+8; u++ {
		for k := -1; k <= u+2; k++ {
			for h := -1; h <= fallingM+4; h++ {
				got, want := noMatchCount(u, k, h), NoMatchChance(float64(u), float64(k), h)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("noMatchCount(%d, %d, %d) = %v, NoMatchChance %v", u, k, h, got, want)
				}
			}
		}
	}
}

// miniPileProbe is a random player that, at each decision with cards on
// the mini-pile, has a table reading recount from its view and checks the
// counts against a direct count of the deck less both piles.
type miniPileProbe struct {
	t       *testing.T
	checked *int
}

func (m miniPileProbe) Decide(v *engine.View, moves []engine.Move) int {
	if n, _ := v.MiniPile(); n > 0 {
		var c Counter
		o := v.Options()
		c.setDeck(&o.Deck)
		tr := tableReading{deckCol: c.deckCol, deckSym: c.deckSym}
		tr.recount(v)
		var col [engine.NumColors + 1]int
		var sym [16]int
		for k := range engine.NumCards {
			card := engine.Card(k)
			x := v.DeckCount(card) - v.Discarded(card) - v.MiniPileCount(card)
			col[card.Color()] += x
			if !card.IsWild() {
				sym[card.Symbol()] += x
			}
		}
		if tr.pubCol != col || tr.pubSym != sym {
			m.t.Fatalf("game %d: with %d cards on the mini-pile, the reading counts %v by color and %v by symbol; the deck less the piles holds %v and %v", v.Game(), n, tr.pubCol, tr.pubSym, col, sym)
		}
		*m.checked++
	}
	return v.Rand().IntN(len(moves))
}

// A table reading's recount leaves out the mini-pile's cards as well as
// the discard pile's (the recounts after a reshuffle while a pile-up is
// pending find cards on it).
func TestTableReadingRecountsWithAMiniPile(t *testing.T) {
	checked := 0
	playProbes(t, engine.Party, miniPileProbe{t, &checked}, 5, 300)
	if checked < 100 {
		t.Fatalf("only %d decisions with a mini-pile checked", checked)
	}
}

// playProbes plays games of rule set r with probe in every one of n seats.
func playProbes(t *testing.T, r engine.RuleSet, probe engine.Strategy, n int, games uint64) {
	t.Helper()
	ss := make([]engine.Strategy, n)
	for i := range ss {
		ss[i] = probe
	}
	g, err := engine.NewGame(engine.DefaultOptions(r), ss)
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		g.Play(5, i)
	}
}

// voidProbe checks, at each turn whose only playable kind is colored, the
// counter's shortcut: with a finite Void the kind is played; with an
// infinite one the full scoring runs, whose score is NaN (Inf times a
// lack of 0), so no colored kind is best and the counter draws.
type voidProbe struct {
	t       *testing.T
	checked *int
}

func (m voidProbe) Decide(v *engine.View, moves []engine.Move) int {
	const colored = uint64(1)<<(engine.NumColors*engine.NumColoredSymbols) - 1
	if p := v.Plays(); v.Decision() == engine.DecideTurn && p != 0 && p&(p-1) == 0 && p&^colored == 0 {
		finite, infinite := DefaultCounter(), DefaultCounter()
		infinite.Void = math.Inf(1)
		if got, want := finite.ChooseTurn(v), engine.PlayMove(engine.Card(bits.TrailingZeros64(p))); got != want {
			m.t.Fatalf("game %d: Void 6 chose %s, want %s", v.Game(), got, want)
		}
		if got, want := infinite.ChooseTurn(v), engine.SimpleMove(engine.MoveDraw); got != want {
			m.t.Fatalf("game %d: Void +Inf chose %s, want %s", v.Game(), got, want)
		}
		*m.checked++
	}
	return v.Rand().IntN(len(moves))
}

func TestCounterShortcutNeedsAFiniteVoid(t *testing.T) {
	checked := 0
	playProbes(t, engine.Classic, voidProbe{t, &checked}, 3, 50)
	if checked < 100 {
		t.Fatalf("only %d turns checked", checked)
	}
}

// stuckChance against its formula worked out with exact binomial
// coefficients (math/big): b C(U-Kc-Ko, h)/C(U-Kc, h) + (1-b)
// C(U-Kc-Ko, h)/C(U, h), inside the table and past it (U >= 256).
func TestStuckChanceIsTheFormula(t *testing.T) {
	ratio := func(n1, n2, h int) float64 { // C(n1, h) / C(n2, h)
		if n1 < h {
			return 0
		}
		var a, b big.Int
		r, _ := new(big.Rat).SetFrac(a.Binomial(int64(n1), int64(h)), b.Binomial(int64(n2), int64(h))).Float64()
		return r
	}
	for _, tc := range []struct {
		u, kc, ko, h int
		b            float64
	}{
		{108, 20, 5, 7, 0}, {108, 20, 5, 7, 0.9}, {60, 10, 8, 3, 0.45}, {30, 0, 0, 5, 0.9},
		{40, 12, 20, 10, 0.9}, {12, 3, 4, 6, 0.2}, {216, 40, 9, 12, 0.9}, {300, 60, 30, 8, 0.5}, {9, 2, 1, 1, 1},
	} {
		want := tc.b*ratio(tc.u-tc.kc-tc.ko, tc.u-tc.kc, tc.h) + (1-tc.b)*ratio(tc.u-tc.kc-tc.ko, tc.u, tc.h)
		if got := stuckChance(tc.u, tc.kc, tc.ko, tc.h, tc.b); math.Abs(got-want) > 1e-12 {
			t.Errorf("stuckChance(%d, %d, %d, %d, %v) = %v, want %v", tc.u, tc.kc, tc.ko, tc.h, tc.b, got, want)
		}
	}
}

// bestColoredByMethods is bestColored with every read of the next player
// and the unseen cards through lacks, stuck and isHit: the slow twin of
// its loop's reads in line.
func (c *Counter) bestColoredByMethods(v *engine.View, p uint64, next, nextSize int, w float64) engine.Card {
	hand := v.Hand()
	cols := playColors(p)
	lacking := cols&(cols-1) != 0 && w != 0
	stuckOn := p&(p-1) != 0 && c.Stuck != 0
	c.look(v)
	points := 0.0
	if opponentClose(v, v.Seat()) {
		points = 1
	}
	best, bestScore := engine.NoCard, -1e18
	for m := p; m != 0; m &= m - 1 {
		k := engine.Card(bits.TrailingZeros64(m))
		col, sym := k.Color(), k.Symbol()
		lack := 0.0
		if lacking {
			lack = c.lacks(v, next, col)
		}
		score := float64(10*(hand.ColorCount(col)-1)) + float64(w*lack)
		if stuckOn {
			st := 1.0
			if v.ActivePlayers() > 2 || !isHit(v, sym) {
				st = c.stuck(v, next, k)
			}
			score += float64(c.Stuck * st)
		}
		score += float64(points * float64(k.Points()))
		if nextSize <= 2 && isHit(v, sym) {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// twinCounter is a counter that, at each turn with two colored kinds or
// more to play, checks bestColored against its slow twin.
type twinCounter struct {
	*Counter
	t                  *testing.T
	checked, withKnown *int // turns checked, and those with cards known in other hands
}

func (c twinCounter) ChooseTurn(v *engine.View) engine.Move {
	const colored = uint64(1)<<(engine.NumColors*engine.NumColoredSymbols) - 1
	c.sync(v)
	if p := v.Plays() & colored; p&(p-1) != 0 {
		next := v.NextOf(v.Seat())
		size := v.HandSize(next)
		w := c.Void
		if size <= 2 {
			w = float64(3 * w)
		}
		if got, want := c.bestColored(v, p, next, size, w), c.bestColoredByMethods(v, p, next, size, w); got != want {
			c.t.Fatalf("game %d, turn %d, seat %d: bestColored %s, its slow twin %s", v.Game(), v.Turns(), v.Seat(), got, want)
		}
		*c.checked++
		if c.Counter.known {
			*c.withKnown++
		}
		if c.Counter.known && c.hold>>next&1 != 0 {
			// (look ran in bestColored: the unseen counts are current.)
			for m := p; m != 0; m &= m - 1 {
				k := engine.Card(bits.TrailingZeros64(m))
				if got, want := c.stuck(v, next, k), c.stuckByKinds(v, next, k); got != want {
					c.t.Fatalf("game %d, turn %d, seat %d: stuck on %s %v, by kinds %v", v.Game(), v.Turns(), v.Seat(), k, got, want)
				}
			}
			for col := engine.Red; col < engine.NoColor; col++ {
				if got, want := c.lacks(v, next, col), c.lacksByKinds(v, next, col); got != want {
					c.t.Fatalf("game %d, turn %d, seat %d: lacks %s %v, by kinds %v", v.Game(), v.Turns(), v.Seat(), col, got, want)
				}
			}
		}
	}
	return c.Counter.ChooseTurn(v)
}

// knownByKinds is what the counter knows of seat p's hand, read kind by
// kind: the known cards, and whether one of them is a kind answers says.
func (c *Counter) knownByKinds(p int, answers func(engine.Card) bool) (all int, answered bool) {
	for x := range engine.NumCards {
		if n := c.Known(p, engine.Card(x)); n > 0 {
			all += n
			answered = answered || answers(engine.Card(x))
		}
	}
	return all, answered
}

// stuckByKinds is stuck with the known cards read kind by kind: 0 if one
// of them could be played on k (a wild, k's color or k's symbol).
func (c *Counter) stuckByKinds(v *engine.View, p int, k engine.Card) float64 {
	all, answered := c.knownByKinds(p, func(x engine.Card) bool {
		return x.IsWild() || x.Color() == k.Color() || x.Symbol() == k.Symbol()
	})
	if answered {
		return 0
	}
	kc := c.ucol[k.Color()]
	ko := c.ucol[engine.NoColor] + c.unseenOthers(k)
	return stuckChance(c.total, kc, ko, v.HandSize(p)-all, c.voids().void[p][k.Color()])
}

// lacksByKinds is lacks with the known cards read kind by kind.
func (c *Counter) lacksByKinds(v *engine.View, p int, col engine.Color) float64 {
	all, answered := c.knownByKinds(p, func(x engine.Card) bool { return x.Color() == col })
	if answered {
		return 0
	}
	nv := c.voids().void[p][col]
	return nv + float64((1-nv)*noMatchCount(c.total, c.ucol[col], v.HandSize(p)-all)) // (rounded as lacks rounds it: no fused multiply-add)
}

// bestColored's reads in line (the unseen cards of a symbol, the next
// player's lack, its stuck chance with two players and more) choose as its
// slow twin does, at tables where counters know cards in other hands
// (challenges shown, mini-piles taken) and where they do not.
func TestBestColoredIsItsSlowTwin(t *testing.T) {
	for _, tc := range []struct {
		rules engine.RuleSet
		n     int
	}{{engine.Classic, 2}, {engine.Classic, 4}, {engine.Party, 5}, {engine.Encanto, 3}} {
		checked, known := 0, 0
		ss := make([]engine.Strategy, tc.n)
		for i := range ss {
			c := DefaultCounter()
			if i%2 == 1 {
				c.Challenge = ChallengeAlways // hands shown: cards known in other hands
			}
			ss[i] = twinCounter{&c, t, &checked, &known}
		}
		g, err := engine.NewGame(engine.DefaultOptions(tc.rules), ss)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(300) {
			g.Play(5, i)
		}
		if checked < 1000 || known < 20 {
			t.Fatalf("%s %dp: only %d turns checked, %d of them with cards known in other hands", tc.rules, tc.n, checked, known)
		}
	}
}
