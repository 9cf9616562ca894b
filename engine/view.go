package engine

import "math/bits"

// View is what one seat may see of the game (RULES.md section 10), passed to
// its strategy with every decision. It reads the live position: it is valid
// only during the call it is given to, and a strategy must not retain it.
// Nothing it returns lets a strategy change the game or read a card its
// seat cannot see: accessors return values or read-only types.
type View struct {
	s    *State
	seat int
}

// View is seat's view of the position, for a caller that drives a State
// with its own strategies.
func (s *State) View(seat int) View { return View{s: s, seat: seat} }

// Game is the index of the game in its run.
func (v *View) Game() uint64 { return v.s.index }

// Seat is the viewer's seat.
func (v *View) Seat() int { return v.seat }

// Decision is the decision being asked.
func (v *View) Decision() Decision { return v.s.decision }

// Players is the number of seats.
func (v *View) Players() int { return v.s.t.n }

// TableID identifies the table of the viewer's game (its options and
// seats, which never change): two views with the same TableID are of games
// with the same options, so a strategy may keep what it works out from the
// options until the TableID changes, without copying them at every game.
func (v *View) TableID() uint64 { return v.s.t.id }

// Options are the game's options (a copy).
func (v *View) Options() Options { return v.s.t.opts }

// Rules is the game's rule set.
func (v *View) Rules() RuleSet { return v.s.t.opts.Rules }

// TwoPlayerReverse is the two-player-reverse option.
func (v *View) TwoPlayerReverse() TwoPlayerReverse { return v.s.t.opts.TwoPlayerReverse }

// WD4Rule is the wd4-legal option.
func (v *View) WD4Rule() WD4Rule { return v.s.t.opts.WD4Legal }

// DeckCount is the number of cards of kind k in the game's deck.
func (v *View) DeckCount(k Card) int {
	if !k.Valid() {
		return 0
	}
	return v.s.t.opts.Deck[k]
}

// Rand is the viewer's own random stream, keyed by (seed, game, seat).
func (v *View) Rand() *Rand { return &v.s.seatRng[v.seat] }

// Hand is the viewer's hand.
func (v *View) Hand() HandView { return HandView{&v.s.hands[v.seat]} }

// HandSize is the number of cards seat p holds.
func (v *View) HandSize(p int) int { return v.s.hands[p].Size() }

// Top is the top card of the discard pile.
func (v *View) Top() Card { return v.s.top }

// Color is the current color.
func (v *View) Color() Color { return v.s.color }

// Direction is 1 while play goes clockwise (increasing seats), -1 otherwise.
func (v *View) Direction() int { return v.s.dir }

// NextOf is the player after seat p in the current direction.
func (v *View) NextOf(p int) int { return v.s.nextOf(p) }

// Out reports whether seat p has gone out (with play-for-places).
func (v *View) Out(p int) bool { return v.s.out[p] }

// Score is seat p's match total so far.
func (v *View) Score(p int) int { return v.s.res.Scores[p] }

// Round is the round of the match, from 0.
func (v *View) Round() int { return v.s.round }

// Turns is the number of turns taken in the round.
func (v *View) Turns() int { return v.s.turns }

// CalledUNO reports whether seat p has called UNO for its one card.
func (v *View) CalledUNO(p int) bool { return v.s.unoCalled[p] }

// Discarded is the number of cards of kind k in the discard pile.
func (v *View) Discarded(k Card) int { return int(v.s.discard[k]) }

// DeckSize is the number of cards in the game.
func (v *View) DeckSize() int { return v.s.t.deckSize }

// DiscardSize is the number of cards in the discard pile, the top included.
func (v *View) DiscardSize() int { return v.s.discardN }

// DrawPileSize is the number of cards in the draw pile.
func (v *View) DrawPileSize() int { return v.s.drawN }

// Plays is the set of kinds the Play moves offer (bit k for kind k) at
// DecideTurn and DecidePileUp, and 0 at any other decision. The Play moves
// come first, one per kind in kind order (see PlayIndex).
func (v *View) Plays() uint64 {
	if d := v.s.decision; d != DecideTurn && d != DecidePileUp {
		return 0
	}
	return v.s.plays
}

// PlayIndex is the index among the moves of the Play of kind k, which must
// be one of Plays(): for another kind it is meaningless.
func (v *View) PlayIndex(k Card) int { return bits.OnesCount64(v.Plays() & (1<<(k&63) - 1)) }

// Drawn is the card the viewer just drew and may play (DecideDrawn), or
// NoCard at any other decision: no one sees another player's draw.
func (v *View) Drawn() Card {
	if v.s.decision != DecideDrawn || v.s.seat != v.seat {
		return NoCard
	}
	return v.s.drawn
}

// Pending describes the effect being responded to (DecideRespond): its
// symbol, the cards pending and the seat that played it.
func (v *View) Pending() (sym Symbol, cards, by int) {
	return v.s.pendingSym, v.s.pendingN, v.s.pendingBy
}

// ReferenceColor is the color current before the pending Wild Draw Four.
func (v *View) ReferenceColor() Color { return v.s.refColor }

// ReferenceTop is the card below the pending Wild Draw Four, the top its
// legality was judged against.
func (v *View) ReferenceTop() Card { return v.s.refTop }

// ActivePlayers is the number of players still in the round.
func (v *View) ActivePlayers() int { return v.s.active }

// UNOPlayer is the seat that has one card and did not call UNO (DecideCatch).
func (v *View) UNOPlayer() int { return v.s.unoPlayer }

// Revealed is a copy of the hand shown to the viewer in its last challenge
// this round, if any, as it was at that moment.
func (v *View) Revealed() (Hand, bool) {
	if v.s.revealTo != v.seat {
		return Hand{}, false
	}
	return v.s.revealed, true
}

// WD4Legal reports whether the viewer could play a Wild Draw Four legally
// now, judged as RULES.md section 4 says on its hand without that card.
func (v *View) WD4Legal() bool { return v.s.wd4Legal(v.seat, WildCard(WildDrawFour)) }

// Playable reports whether card k matches the discard pile now.
func (v *View) Playable(k Card) bool { return v.s.playable(k) }

// Silenced reports whether seat p is silenced (Wild Don't Speak); a silenced
// player who catches or challenges draws 3 first.
func (v *View) Silenced(p int) bool { return v.s.silenced[p] }

// Link is the pair linked by a Wild Drawn Together, if any.
func (v *View) Link() (a, b int, ok bool) { return v.s.linkA, v.s.linkB, v.s.linkA >= 0 }

// MiniPile is the Wild Pile Up mini-pile: its size and color (DecidePileUp).
func (v *View) MiniPile() (cards int, c Color) { return v.s.miniN, v.s.miniColor }

// MiniPileCount is the number of cards of kind k on the mini-pile, which
// lies face up.
func (v *View) MiniPileCount(k Card) int {
	if !k.Valid() {
		return 0
	}
	return int(v.s.mini[k])
}

// PointedAt is the number of players who pointed at seat p in the last Point
// Taken, once every choice was made.
func (v *View) PointedAt(p int) int { return v.s.pointedAt[p] }

// TargetFor is the card a DecideTarget choice is for: a 7 (swap hands), a
// Wild Swap Hands, or a Wild Don't Speak (silence).
func (v *View) TargetFor() Card { return v.s.targetFor }
