package engine

import "fmt"

// Accessors for tests, the replay command and invariant checks. They read
// the whole table, hands included: they are not for strategies, which get
// a View.

// Hand is seat p's hand.
func (s *State) Hand(p int) HandView { return HandView{&s.hands[p]} }

// Top is the top card of the discard pile.
func (s *State) Top() Card { return s.top }

// Color is the current color.
func (s *State) Color() Color { return s.color }

// Direction is 1 clockwise (increasing seats), -1 counter-clockwise.
func (s *State) Direction() int { return s.dir }

// Current is the seat whose turn begins next.
func (s *State) Current() int { return s.current }

// Dealer is the current round's dealer.
func (s *State) Dealer() int { return s.dealer }

// Round is the current round, from 0.
func (s *State) Round() int { return s.round }

// Turns is the number of turns taken in the current round.
func (s *State) Turns() int { return s.turns }

// DrawPileSize and DiscardSize count the two piles.
func (s *State) DrawPileSize() int { return s.drawN }

// DiscardSize is the number of cards in the discard pile, the top included.
func (s *State) DiscardSize() int { return s.discardN }

// RoundOver reports whether the current round has ended.
func (s *State) RoundOver() bool { return s.over }

// RoundOutcome is how the current round ended (valid once RoundOver).
func (s *State) RoundOutcome() Outcome { return s.outcome }

// RoundWinner is the first player out of the current round, or -1.
func (s *State) RoundWinner() int { return s.winner }

// CalledUNO reports whether seat p has called UNO for its one card.
func (s *State) CalledUNO(p int) bool { return s.unoCalled[p] }

// Silenced reports whether seat p is silenced (Wild Don't Speak).
func (s *State) Silenced(p int) bool { return s.silenced[p] }

// Link is the pair linked by a Wild Drawn Together, if any.
func (s *State) Link() (a, b int, ok bool) { return s.linkA, s.linkB, s.linkA >= 0 }

// MiniPileSize is the number of cards on the Wild Pile Up mini-pile.
func (s *State) MiniPileSize() int { return s.miniN }

// Out reports whether seat p has gone out of the round.
func (s *State) Out(p int) bool { return s.out[p] }

// Result is the game's result so far.

// Check verifies the invariants of the table (for tests): every card of the
// deck is in exactly one place, hand totals agree with their counts, the
// player to move is a valid seat still in the round, and a round won by a
// player leaves that player's hand empty.
func (s *State) Check() error {
	var seen Deck
	for p := 0; p < s.t.n; p++ {
		h := &s.hands[p]
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
		points := 0
		for k, c := range h.counts[:NumCards] {
			points += int(c) * Card(k).Points()
		}
		if points != h.Points() {
			return fmt.Errorf("seat %d: hand points %d but %d counted", p, h.Points(), points)
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
	for _, c := range s.drawPile[:s.drawN] {
		seen[c]++
	}
	discard, mini := 0, 0
	for k, c := range s.discard {
		seen[k] += int(c)
		discard += int(c)
	}
	for k, c := range s.mini {
		seen[k] += int(c)
		mini += int(c)
	}
	if mini != s.miniN {
		return fmt.Errorf("mini-pile holds %d cards but counts %d", mini, s.miniN)
	}
	if discard != s.discardN {
		return fmt.Errorf("discard pile holds %d cards but counts %d", discard, s.discardN)
	}
	if s.discardN == 0 || s.discard[s.top] == 0 {
		return fmt.Errorf("top card %s is not in the discard pile", s.top)
	}
	if seen != s.t.opts.Deck {
		for k := range seen {
			if seen[k] != s.t.opts.Deck[k] {
				return fmt.Errorf("card %s: %d in play, %d in the deck", Card(k), seen[k], s.t.opts.Deck[k])
			}
		}
	}
	// No color is current only while the first player names that of a
	// wild start card.
	if s.color >= NoColor && !(s.turns == 0 && s.decision == DecideColor && cardColor[s.top] == NoColor) {
		return fmt.Errorf("current color %s is not a color", s.color)
	}
	if s.over {
		if s.outcome == Finished && (s.winner < 0 || s.hands[s.winner].size != 0) {
			return fmt.Errorf("round won by seat %d, whose hand is not empty", s.winner)
		}
		return nil
	}
	if s.current < 0 || s.current >= s.t.n || s.out[s.current] {
		return fmt.Errorf("player to move %d is not a seat in the round", s.current)
	}
	return nil
}

// checkCards verifies that every card is in exactly one place; it holds even
// in the middle of resolving a play.
func (s *State) checkCards() error {
	var seen Deck
	for p := 0; p < s.t.n; p++ {
		for k, c := range s.hands[p].counts[:NumCards] {
			seen[k] += int(c)
		}
	}
	for _, c := range s.drawPile[:s.drawN] {
		seen[c]++
	}
	for k, c := range s.discard {
		seen[k] += int(c)
	}
	for k, c := range s.mini {
		seen[k] += int(c)
	}
	if seen != s.t.opts.Deck {
		for k := range seen {
			if seen[k] != s.t.opts.Deck[k] {
				return fmt.Errorf("card %s: %d in play, %d in the deck", Card(k), seen[k], s.t.opts.Deck[k])
			}
		}
	}
	return nil
}
