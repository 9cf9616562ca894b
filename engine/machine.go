package engine

import (
	"fmt"
	"math/bits"
)

// The rules as a resumable machine.
//
// The rules are written in direct style: a play calls its effect, which
// calls the UNO check, and so on. Where a player must decide between
// several moves, the function records the decision (suspend) and returns
// false, and each caller on the way out records in the State what is left
// for it to do. The control state has three levels, always nested in this
// order, and at most one frame of each is ever pending:
//
//   - the base: a step (the jump-in window, a turn, a drawn card) or the
//     round's start card; basePh says what the step does once the level
//     above it finishes;
//   - the middle: a play being resolved (pl, phase pl.ph) or a card's
//     effect (ef: an attack, a skip, a swap, a rotation, a Point Taken, a
//     pile-up, a link, a silence), never both, since a play ends with its
//     effect;
//   - the leaf: naming a color, or a UNO check with its catches (uno).
//
// The moves of every decision are generated from the State on demand
// (Moves), so a State holds no move list. resume delivers a move to the
// level whose decision it is and unwinds: when a level finishes, the level
// below it goes on, until a decision is pending again or the step is done.

type basePhase uint8

const (
	phNone     basePhase = iota
	phStart              // the start card: done when the level above is
	phTurnPlay           // a play of the turn or of the drawn card: then the turn's end
	phJump               // a jump-in play: then the window opens again
)

type midLevel uint8

const (
	midNone midLevel = iota
	midPlay
	midEffect
)

// playCtx is a play being resolved.
type playCtx struct {
	p     int
	k     Card
	ref   Color
	below Card
	legal bool
	ph    uint8
}

const (
	phPlayColor = iota // after the color is named: go out, UNO check or effect
	phPlayUno          // after the UNO check: the effect
)

// effectCtx is a card effect being resolved.
type effectCtx struct {
	kind   uint8
	ph     uint8
	p      int // the player of the card (an attack: of the last card)
	victim int // an attack's or a skip's victim; a swap's other player
	k      Card
	sym    Symbol
	total  int
	ref    Color
	below  Card
	legal  bool
	next   int // who plays after the effect
	q, i   int // loop position
	choice [MaxPlayers]int8
}

const (
	efAttack = iota
	efSkip
	efSwap
	efRotate
	efPoint
	efPile
	efLink
	efSilence
)

const (
	phAttackColor = iota + 1
	phAttackUno
	phSkipUno
	phSwapUno
	phRotateUno
	phPileColor
	phPileUno
)

// unoCtx is a UNO check in progress.
type unoCtx struct {
	p        int
	i, n     int
	catchers [MaxPlayers]int8
}

// jumpCtx is a jump-in window in progress.
type jumpCtx struct {
	collecting bool
	k          Card
	i, n       int
	jumpers    [MaxPlayers]int8
	total      float64
}

// suspend records that seat p must now make decision d.
func (s *State) suspend(p int, d Decision) {
	s.seat, s.decision = p, d
}

// resume delivers move m to the pending decision and goes on; it reports
// whether the step finished without another pending decision.
func (s *State) resume(m Move) bool {
	switch s.decision {
	case DecideTurn:
		return s.turnChosen(m)
	case DecideDrawn:
		return s.drawnChosen(m)
	case DecideJumpIn:
		return s.jumpChosen(m)
	case DecideColor:
		col := m.Color()
		s.emit(Event{Kind: EvColor, Player: s.seat, Color: col})
		s.color = col
		return s.resumeMiddle()
	case DecideCallUNO:
		if !s.callChosen(m) {
			return false
		}
		return s.resumeMiddle()
	case DecideCatch:
		if !s.catchChosen(m) {
			return false
		}
		return s.resumeMiddle()
	}
	// The effect's own decisions.
	s.mid = midNone
	var done bool
	switch s.decision {
	case DecideRespond:
		if s.ef.kind == efSkip {
			done = s.skipChosen(m)
		} else {
			done = s.attackChosen(m)
		}
	case DecideTarget:
		done = s.targetChosen(m)
	case DecideLink:
		done = s.linkChosen(m)
	case DecidePoint:
		done = s.pointChosen(m)
	case DecidePileUp:
		done = s.pileChosen(m)
	}
	if !done {
		return false
	}
	return s.resumeBase()
}

// resumeMiddle goes on with the middle level after a leaf finished.
func (s *State) resumeMiddle() bool {
	mid := s.mid
	s.mid = midNone
	switch mid {
	case midPlay:
		var done bool
		if s.pl.ph == phPlayColor {
			done = s.playNamed(s.pl.p, s.pl.k, s.pl.ref, s.pl.below, s.pl.legal)
		} else {
			done = s.effect(s.pl.p, s.pl.k, s.pl.ref, s.pl.below, s.pl.legal)
		}
		if !done {
			return false
		}
	case midEffect:
		if !s.effectResume() {
			return false
		}
	}
	return s.resumeBase()
}

// effectResume goes on with the effect in progress after its leaf.
func (s *State) effectResume() bool {
	e := &s.ef
	switch e.ph {
	case phAttackColor:
		return s.attackPlaced()
	case phAttackUno:
		return s.attackNext()
	case phSkipUno:
		return s.skipNext()
	case phSwapUno:
		return s.swapChecks()
	case phRotateUno:
		return s.rotateChecks()
	case phPileColor:
		s.current = s.nextOf(e.p)
		return true
	case phPileUno:
		e.q = s.nextOf(e.q)
		return s.pileLoop()
	}
	panic(fmt.Sprintf("engine: no effect to resume (phase %d)", e.ph))
}

// resumeBase goes on with the step once the levels above it finished.
func (s *State) resumeBase() bool {
	ph := s.basePh
	s.basePh = phNone
	switch ph {
	case phTurnPlay:
		return s.turnTail()
	case phJump:
		return s.jumpWindow()
	}
	return true // the start card, which has nothing left to do
}

// advance plays on from a finished step (done) to the next pending
// decision, through turns and rounds, or to the end of the game.
func (s *State) advance(done bool) {
	for done {
		if !s.over {
			done = s.beginTurn()
			continue
		}
		if !s.endRound() {
			s.finished = true
			return
		}
		done = s.startRound(nil)
	}
}

// Over reports whether the game is over.
func (s *State) Over() bool { return s.finished }

// Result is the game's result: final once Over.
func (s *State) Result() *Result { return &s.res }

// Pending is the seat that must decide now and the decision (valid while
// not Over). Decisions with a single legal move are never pending: they are
// taken at once.
func (s *State) Pending() (seat int, d Decision) { return s.seat, s.decision }

// Moves appends the legal moves of the pending decision to buf and returns
// it. The order is fixed: at a turn or pile-up the plays come first, one
// per kind in kind order (see View.Plays).
func (s *State) Moves(buf []Move) []Move {
	switch s.decision {
	case DecideTurn:
		buf = grow(buf, bits.OnesCount64(s.plays)+4)
		return buf[:len(buf)+s.turnMoves(buf[len(buf):cap(buf)])]
	case DecidePileUp:
		n := len(buf)
		buf = grow(buf, bits.OnesCount64(s.plays)+4)
		return buf[:n+listPlays(s.plays, buf[n:cap(buf)])]
	case DecideDrawn:
		return append(buf, PlayMove(s.drawn), SimpleMove(MoveKeep))
	case DecideColor:
		return append(buf, ColorMove(Red), ColorMove(Yellow), ColorMove(Green), ColorMove(Blue))
	case DecideCallUNO:
		return append(buf, SimpleMove(MoveCallUNO), SimpleMove(MovePass))
	case DecideCatch:
		return append(buf, SimpleMove(MoveCatch), SimpleMove(MovePass))
	case DecideJumpIn:
		return append(buf, CardMove(MoveJump, s.jw.k), SimpleMove(MovePass))
	case DecideRespond:
		if s.ef.kind == efSkip {
			return append(buf, SimpleMove(MoveAccept), CardMove(MoveDeflect, s.ef.k))
		}
		return s.respondMoves(s.ef.victim, s.ef.sym, buf)
	case DecideTarget, DecidePoint:
		kind := MoveTarget
		if s.decision == DecidePoint {
			kind = MovePoint
		}
		for q := 0; q < s.t.n; q++ {
			if q != s.seat && !s.out[q] {
				buf = append(buf, PlayerMove(kind, q))
			}
		}
		return buf
	case DecideLink:
		s.linkPairs(func(a, b int) { buf = append(buf, LinkMove(a, b)) })
		return buf
	}
	return buf
}

// grow makes room for n more moves in buf.
func grow(buf []Move, n int) []Move {
	if cap(buf)-len(buf) >= n {
		return buf
	}
	nb := make([]Move, len(buf), len(buf)+n)
	copy(nb, buf)
	return nb
}

// Apply plays move m, which must be one of Moves, and goes on to the next
// decision with more than one legal move, through turns and rounds, or to
// the end of the game.
func (s *State) Apply(m Move) error {
	if s.finished {
		return fmt.Errorf("engine: move %s after the end of the game", m)
	}
	if !s.legal(m) {
		var buf [maxMoves]Move
		return fmt.Errorf("engine: move %s is not legal for seat %d's decision %s (legal: %v)", m, s.seat, s.decision, s.Moves(buf[:0]))
	}
	s.advance(s.resume(m))
	return nil
}

// legal reports whether m is one of the pending decision's moves.
func (s *State) legal(m Move) bool {
	if s.decision == DecideTurn {
		return s.turnLegal(m)
	}
	var buf [maxMoves]Move
	for _, x := range s.Moves(buf[:0]) {
		if x == m {
			return true
		}
	}
	return false
}

// maxMoves bounds the moves of any decision: the pairs of 16 players (120)
// are the most.
const maxMoves = 256
