package engine

import "fmt"

// EventKind says what happened in a game.
type EventKind uint8

// The events a game log records, in the order they happen.
const (
	EvRound     EventKind = iota // a round begins; Player is the dealer
	EvDeal                       // Player was dealt N cards
	EvStartCard                  // Card is flipped as the first discard
	EvTurn                       // Player's turn begins
	EvPlay                       // Player puts Card down
	EvColor                      // Player names Color
	EvDraw                       // Player draws N cards (N owed, N2 received)
	EvDrawCard                   // Player draws Card (seen by that player only)
	EvKeep                       // Player keeps the drawn card
	EvUnoCall                    // Player calls UNO
	EvUnoMissed                  // Player has one card and did not call UNO
	EvCatch                      // Other catches Player, who draws the penalty
	EvSkip                       // Player loses the turn
	EvReverse                    // direction is now N (1 clockwise, -1 counter-clockwise)
	EvChallenge                  // Player challenges Other's Wild Draw Four; N 1 if it was a bluff
	EvTakeBack                   // Player takes the Wild Draw Four back
	EvReshuffle                  // the discard pile becomes a draw pile of N cards
	EvForgiven                   // Player is forgiven N cards that could not be drawn
	EvStack                      // Player stacks Card; N is the pending total
	EvDeflect                    // Player deflects with Card
	EvJumpIn                     // Player jumps in with Card
	EvSwap                       // Player and Other swap hands
	EvRotate                     // every hand passes on in direction N
	EvPoint                      // Player points at Other
	EvPileFlip                   // Card is flipped onto the mini-pile, which then holds N cards
	EvPileStart                  // a mini-pile of N cards and color Color starts before Player
	EvPile                       // Player puts Card on the mini-pile
	EvPileTake                   // Player takes the mini-pile of N cards
	EvLink                       // Player and Other are linked
	EvLinkEnd                    // the link ends
	EvSilence                    // Player is silenced
	EvSpeak                      // silenced Player speaks and draws N
	EvUnsilence                  // every silence ends
	EvOut                        // Player has no cards left; N is the place (1 first)
	EvBlocked                    // the round is blocked
	EvTurnCap                    // the round reached max-turns
	EvRoundEnd                   // the round ends; Player won (or -1)
	numEventKinds
)

// Event is one entry of a game log.
type Event struct {
	Player int
	Other  int
	N, N2  int
	Kind   EventKind // (the small fields last: no padding between them)
	Card   Card
	Color  Color
}

// String describes the event for people, e.g. "seat 2 plays red skip".
func (e Event) String() string {
	p := fmt.Sprintf("seat %d", e.Player)
	o := fmt.Sprintf("seat %d", e.Other)
	switch e.Kind {
	case EvRound:
		return fmt.Sprintf("round %d begins, %s deals", e.N+1, p)
	case EvDeal:
		return fmt.Sprintf("%s is dealt %d cards", p, e.N)
	case EvStartCard:
		return fmt.Sprintf("%s is flipped to start the discard pile", e.Card)
	case EvTurn:
		return fmt.Sprintf("turn %d: %s", e.N, p)
	case EvPlay:
		return fmt.Sprintf("%s plays %s", p, e.Card)
	case EvColor:
		return fmt.Sprintf("%s names %s", p, e.Color)
	case EvDraw:
		if e.N2 < e.N {
			return fmt.Sprintf("%s draws %d of %d cards", p, e.N2, e.N)
		}
		return fmt.Sprintf("%s draws %d", p, e.N)
	case EvDrawCard:
		return fmt.Sprintf("%s draws %s", p, e.Card)
	case EvPileFlip:
		return fmt.Sprintf("%s is flipped onto the mini-pile", e.Card)
	case EvKeep:
		return fmt.Sprintf("%s keeps the drawn card", p)
	case EvUnoCall:
		return fmt.Sprintf("%s calls UNO", p)
	case EvUnoMissed:
		return fmt.Sprintf("%s has one card and does not call UNO", p)
	case EvCatch:
		return fmt.Sprintf("%s catches %s", o, p)
	case EvSkip:
		return fmt.Sprintf("%s is skipped", p)
	case EvReverse:
		if e.N > 0 {
			return "direction is now clockwise"
		}
		return "direction is now counter-clockwise"
	case EvChallenge:
		if e.N == 1 {
			return fmt.Sprintf("%s challenges %s: it was a bluff", p, o)
		}
		return fmt.Sprintf("%s challenges %s: it was legal", p, o)
	case EvTakeBack:
		return fmt.Sprintf("%s takes the wild-draw-four back", p)
	case EvReshuffle:
		return fmt.Sprintf("the discard pile is reshuffled into a draw pile of %d cards", e.N)
	case EvForgiven:
		return fmt.Sprintf("%s is forgiven %d cards: nothing left to draw", p, e.N)
	case EvStack:
		return fmt.Sprintf("%s stacks %s: %d cards pending", p, e.Card, e.N)
	case EvDeflect:
		return fmt.Sprintf("%s deflects with %s", p, e.Card)
	case EvJumpIn:
		return fmt.Sprintf("%s jumps in with %s", p, e.Card)
	case EvSwap:
		return fmt.Sprintf("%s and %s swap hands", p, o)
	case EvRotate:
		return "every hand passes to the next player"
	case EvPoint:
		return fmt.Sprintf("%s points at %s", p, o)
	case EvPileStart:
		return fmt.Sprintf("a mini-pile of %d cards in %s starts before %s", e.N, e.Color, p)
	case EvPile:
		return fmt.Sprintf("%s puts %s on the mini-pile", p, e.Card)
	case EvPileTake:
		return fmt.Sprintf("%s takes the mini-pile of %d cards", p, e.N)
	case EvLink:
		return fmt.Sprintf("%s and %s are linked", p, o)
	case EvLinkEnd:
		return "the link ends"
	case EvSilence:
		return fmt.Sprintf("%s is silenced", p)
	case EvSpeak:
		return fmt.Sprintf("%s speaks while silenced and draws %d", p, e.N)
	case EvUnsilence:
		return "every silence ends"
	case EvOut:
		return fmt.Sprintf("%s has no cards left (place %d)", p, e.N)
	case EvBlocked:
		return "the round is blocked: nothing can be drawn and no one plays"
	case EvTurnCap:
		return fmt.Sprintf("the round reached the turn cap of %d", e.N)
	case EvRoundEnd:
		if e.Player < 0 {
			return "the round ends without a winner"
		}
		return fmt.Sprintf("the round ends: %s wins %d points", p, e.N)
	}
	return fmt.Sprintf("event %d", e.Kind)
}
