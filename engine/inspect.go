package engine

import "fmt"

// Accessors for tests, the replay command and invariant checks. They read
// the whole table, hands included: they are not for strategies, which get
// a View.

// Hand is seat p's hand.
func (g *Game) Hand(p int) *Hand { return &g.hands[p] }

// Top is the top card of the discard pile.
func (g *Game) Top() Card { return g.top }

// Color is the current color.
func (g *Game) Color() Color { return g.color }

// Direction is 1 clockwise (increasing seats), -1 counter-clockwise.
func (g *Game) Direction() int { return g.dir }

// Current is the seat whose turn begins next.
func (g *Game) Current() int { return g.current }

// Dealer is the current round's dealer.
func (g *Game) Dealer() int { return g.dealer }

// Round is the current round, from 0.
func (g *Game) Round() int { return g.round }

// Turns is the number of turns taken in the current round.
func (g *Game) Turns() int { return g.turns }

// DrawPileSize and DiscardSize count the two piles.
func (g *Game) DrawPileSize() int { return g.drawN }

// DiscardSize is the number of cards in the discard pile, the top included.
func (g *Game) DiscardSize() int { return g.discardN }

// RoundOver reports whether the current round has ended.
func (g *Game) RoundOver() bool { return g.over }

// RoundOutcome is how the current round ended (valid once RoundOver).
func (g *Game) RoundOutcome() Outcome { return g.outcome }

// RoundWinner is the first player out of the current round, or -1.
func (g *Game) RoundWinner() int { return g.winner }

// CalledUNO reports whether seat p has called UNO for its one card.
func (g *Game) CalledUNO(p int) bool { return g.unoCalled[p] }

// Silenced reports whether seat p is silenced (Wild Don't Speak).
func (g *Game) Silenced(p int) bool { return g.silenced[p] }

// Link is the pair linked by a Wild Drawn Together, if any.
func (g *Game) Link() (a, b int, ok bool) { return g.linkA, g.linkB, g.linkA >= 0 }

// MiniPileSize is the number of cards on the Wild Pile Up mini-pile.
func (g *Game) MiniPileSize() int { return g.miniN }

// Out reports whether seat p has gone out of the round.
func (g *Game) Out(p int) bool { return g.out[p] }

// Result is the game's result so far.
func (g *Game) Result() *Result { return &g.res }

// Check verifies the invariants of the table (for tests): every card of the
// deck is in exactly one place, hand totals agree with their counts, the
// player to move is a valid seat still in the round, that player has a legal
// move, and a round won by a player leaves that player's hand empty. It
// rebuilds the turn's move list, so it must not be called during a decision.
func (g *Game) Check() error {
	var seen Deck
	for p := 0; p < g.n; p++ {
		h := &g.hands[p]
		var colors [NumColors + 1]int
		size := 0
		for k, c := range h.counts[:NumCards] {
			seen[k] += int(c)
			colors[cardColor[k]] += int(c)
			size += int(c)
			for i, level := range h.atLeast {
				if (level>>uint(k)&1 != 0) != (int(c) > i) {
					return fmt.Errorf("seat %d: bit %d of %s disagrees with count %d", p, i, Card(k), c)
				}
			}
		}
		if size != int(h.size) {
			return fmt.Errorf("seat %d: hand size %d but %d cards counted", p, h.size, size)
		}
		for c := range colors {
			if colors[c] != int(h.colors[c]) {
				return fmt.Errorf("seat %d: %d cards of color %s but %d counted", p, h.colors[c], Color(c), colors[c])
			}
		}
	}
	for _, c := range g.drawPile[:g.drawN] {
		seen[c]++
	}
	discard, mini := 0, 0
	for k, c := range g.discard {
		seen[k] += int(c)
		discard += int(c)
	}
	for k, c := range g.mini {
		seen[k] += int(c)
		mini += int(c)
	}
	if mini != g.miniN {
		return fmt.Errorf("mini-pile holds %d cards but counts %d", mini, g.miniN)
	}
	if discard != g.discardN {
		return fmt.Errorf("discard pile holds %d cards but counts %d", discard, g.discardN)
	}
	if g.discardN == 0 || g.discard[g.top] == 0 {
		return fmt.Errorf("top card %s is not in the discard pile", g.top)
	}
	if seen != g.opts.Deck {
		for k := range seen {
			if seen[k] != g.opts.Deck[k] {
				return fmt.Errorf("card %s: %d in play, %d in the deck", Card(k), seen[k], g.opts.Deck[k])
			}
		}
	}
	if g.color >= NoColor {
		return fmt.Errorf("current color %s is not a color", g.color)
	}
	if g.over {
		if g.outcome == Finished && (g.winner < 0 || g.hands[g.winner].size != 0) {
			return fmt.Errorf("round won by seat %d, whose hand is not empty", g.winner)
		}
		return nil
	}
	if g.current < 0 || g.current >= g.n || g.out[g.current] {
		return fmt.Errorf("player to move %d is not a seat in the round", g.current)
	}
	if len(g.turnMoves(g.current)) == 0 {
		return fmt.Errorf("seat %d has no legal move", g.current)
	}
	return nil
}

// checkCards verifies that every card is in exactly one place; it holds even
// in the middle of resolving a play.
func (g *Game) checkCards() error {
	var seen Deck
	for p := 0; p < g.n; p++ {
		for k, c := range g.hands[p].counts[:NumCards] {
			seen[k] += int(c)
		}
	}
	for _, c := range g.drawPile[:g.drawN] {
		seen[c]++
	}
	for k, c := range g.discard {
		seen[k] += int(c)
	}
	for k, c := range g.mini {
		seen[k] += int(c)
	}
	if seen != g.opts.Deck {
		for k := range seen {
			if seen[k] != g.opts.Deck[k] {
				return fmt.Errorf("card %s: %d in play, %d in the deck", Card(k), seen[k], g.opts.Deck[k])
			}
		}
	}
	return nil
}
