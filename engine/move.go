package engine

import "fmt"

// Decision is the kind of choice a strategy is asked to make.
type Decision uint8

// The decisions of RULES.md section 10, with the moves each offers.
const (
	DecideTurn    Decision = iota // Play(card) for each playable kind, and Draw unless forced to play
	DecideDrawn                   // Play(the drawn card) or Keep
	DecideColor                   // NameColor(c) for each color
	DecideCallUNO                 // CallUNO or Pass: the hand just became one card
	DecideCatch                   // Catch or Pass: another player has one card and did not call UNO
	DecideRespond                 // a pending Draw Two, Wild Draw Four or Skip: Accept, Challenge, Stack(card), Deflect(card)
	DecideJumpIn                  // Jump(card) or Pass, out of turn
	DecideTarget                  // Target(player): whom to swap hands with or silence
	DecideLink                    // Link(a, b): whom Wild Drawn Together links
	DecidePoint                   // Point(player): whom a Point Taken points at
	DecidePileUp                  // Play(card) onto the mini-pile
	NumDecisions
)

var decisionNames = [NumDecisions]string{"turn", "drawn", "color", "call-uno", "catch", "respond", "jump-in", "target", "link", "point", "pile-up"}

func (d Decision) String() string {
	if d < NumDecisions {
		return decisionNames[d]
	}
	return fmt.Sprintf("Decision(%d)", uint8(d))
}

// MoveKind says what a Move does.
type MoveKind uint8

// The move kinds.
const (
	MovePlay      MoveKind = iota // put Card down (from the hand, the drawn card, or onto the mini-pile)
	MoveDraw                      // draw instead of playing
	MoveKeep                      // keep the drawn card and end the turn
	MoveNameColor                 // name Color for a wild
	MoveCallUNO                   // call UNO
	MoveCatch                     // catch a player who did not call UNO
	MovePass                      // decline: do not call, catch or jump in
	MoveAccept                    // take the pending draw or skip
	MoveChallenge                 // challenge a Wild Draw Four
	MoveStack                     // stack Card on the pending draw
	MoveDeflect                   // deflect the pending effect with Card
	MoveJump                      // jump in out of turn with Card
	MoveTarget                    // choose player A
	MoveLink                      // link players A and B
	MovePoint                     // point at player A
	numMoveKinds
)

var moveKindNames = [numMoveKinds]string{"play", "draw", "keep", "color", "uno", "catch", "pass", "accept", "challenge", "stack", "deflect", "jump", "target", "link", "point"}

func (k MoveKind) String() string {
	if k < numMoveKinds {
		return moveKindNames[k]
	}
	return fmt.Sprintf("MoveKind(%d)", uint8(k))
}

// Move is one choice the engine offers, packed in 32 bits:
// bits 0-7 kind, 8-15 card, 16-19 color, 20-24 player A, 25-29 player B.
type Move uint32

func mv(k MoveKind, c Card, col Color, a, b int) Move {
	return Move(k) | Move(c)<<8 | Move(col)<<16 | Move(a)<<20 | Move(b)<<25
}

// Constructors for the moves.
func PlayMove(c Card) Move       { return mv(MovePlay, c, NoColor, 0, 0) }
func SimpleMove(k MoveKind) Move { return mv(k, NoCard, NoColor, 0, 0) }
func ColorMove(c Color) Move     { return mv(MoveNameColor, NoCard, c, 0, 0) }
func CardMove(k MoveKind, c Card) Move {
	return mv(k, c, NoColor, 0, 0)
}
func PlayerMove(k MoveKind, a int) Move { return mv(k, NoCard, NoColor, a, 0) }
func LinkMove(a, b int) Move            { return mv(MoveLink, NoCard, NoColor, a, b) }

// Kind is what the move does.
func (m Move) Kind() MoveKind { return MoveKind(m & 0xff) }

// Card is the card the move puts down, or NoCard.
func (m Move) Card() Card { return Card(m >> 8 & 0xff) }

// Color is the color a NameColor move names.
func (m Move) Color() Color { return Color(m >> 16 & 0xf) }

// A is the player a Target, Link or Point move chooses.
func (m Move) A() int { return int(m >> 20 & 0x1f) }

// B is a Link move's second player.
func (m Move) B() int { return int(m >> 25 & 0x1f) }

func (m Move) String() string {
	switch k := m.Kind(); k {
	case MovePlay, MoveStack, MoveDeflect, MoveJump:
		return k.String() + " " + m.Card().String()
	case MoveNameColor:
		return "color " + m.Color().String()
	case MoveTarget, MovePoint:
		return fmt.Sprintf("%s seat %d", k, m.A())
	case MoveLink:
		return fmt.Sprintf("link seats %d and %d", m.A(), m.B())
	default:
		return k.String()
	}
}
