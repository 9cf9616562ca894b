package strategy

import (
	"math/bits"

	"github.com/unosim/unosim/engine"
)

// Random is the baseline strategy: it plays uniformly at random among the
// playable card instances in its hand (two copies of a card are twice as
// likely as one), never draws voluntarily, plays a drawn card when it is
// playable, names a color uniformly at random, never bluffs, never
// challenges, always calls UNO and never catches. Among any other choices
// (house rules) it chooses uniformly.
//
// Its noise, all 0 by default (the zero Random is the baseline), is a
// uniform coin drawn from the seat's stream only at the decision it
// concerns, so that with every probability 0 it draws exactly what the
// baseline draws:
//   - Bluff: when it holds an illegal Wild Draw Four it could play (a turn
//     that offers it, a drawn one, or a stack onto a pending Wild Draw Four),
//     with probability Bluff it counts that card as legal for that choice:
//     one more instance in the uniform choice of a turn, played when drawn,
//     one more answer in the uniform choice of a response.
//   - Challenge: offered a challenge, with probability Challenge it
//     challenges; otherwise it answers as the baseline.
//   - Forget: with probability Forget it does not call UNO.
//   - Catch: offered a catch, with probability Catch it catches.
type Random struct {
	Bluff, Challenge, Forget, Catch float64
}

// AlwaysCallsUNO implements engine.UNOCaller.
func (*Random) AlwaysCallsUNO() bool { return true }

// PlaysDrawn implements engine.DrawnPlayer: without bluffs it plays every
// playable drawn card but an illegal Wild Draw Four, drawing no random
// number to decide.
func (s *Random) PlaysDrawn() bool { return s.Bluff <= 0 }

// ChooseTurn implements engine.TurnChooser: the move Decide chooses at a
// turn.
func (s *Random) ChooseTurn(v *engine.View) engine.Move {
	r := v.Rand()
	noBluff := true
	if s.Bluff > 0 && !v.WD4Legal() && v.Plays()&(1<<wd4Card) != 0 {
		noBluff = !r.Bernoulli(s.Bluff)
	}
	return pickMove(v, r, noBluff)
}

// Decide implements engine.Strategy.
func (s *Random) Decide(v *engine.View, moves []engine.Move) int {
	r := v.Rand()
	switch v.Decision() {
	case engine.DecideTurn:
		return moveIndex(v, moves, s.ChooseTurn(v))
	case engine.DecideDrawn:
		if v.Drawn().Symbol() == engine.WildDrawFour && !v.WD4Legal() && !r.Bernoulli(s.Bluff) {
			return indexOfKind(moves, engine.MoveKeep)
		}
		return 0 // the drawn card's Play comes first
	case engine.DecideCallUNO:
		if r.Bernoulli(s.Forget) {
			return indexOfKind(moves, engine.MovePass)
		}
		return indexOfKind(moves, engine.MoveCallUNO)
	case engine.DecideCatch:
		if r.Bernoulli(s.Catch) {
			return indexOfKind(moves, engine.MoveCatch)
		}
		return indexOfKind(moves, engine.MovePass)
	case engine.DecideRespond:
		if s.Challenge > 0 {
			if i := indexOfKind(moves, engine.MoveChallenge); i >= 0 && r.Bernoulli(s.Challenge) {
				return i
			}
		}
		bluff := false
		if s.Bluff > 0 && !v.WD4Legal() && hasStackWD4(moves) {
			bluff = r.Bernoulli(s.Bluff)
		}
		return pickResponse(v, moves, r, bluff)
	case engine.DecidePileUp:
		return pickInstance(v, moves, r, false) // nothing on a mini-pile is a bluff
	}
	return r.IntN(len(moves))
}

// pickInstance is the index in moves (a turn's or a pile-up's) of
// pickMove's choice.
func pickInstance(v *engine.View, moves []engine.Move, r *engine.Rand, noBluff bool) int {
	return moveIndex(v, moves, pickMove(v, r, noBluff))
}

// moveIndex is the index of m, a Play or the Draw, in a turn's or a
// pile-up's moves: the plays come first, in kind order (engine.View.Plays),
// and a Draw last.
func moveIndex(v *engine.View, moves []engine.Move, m engine.Move) int {
	if m.Kind() == engine.MovePlay {
		return v.PlayIndex(m.Card())
	}
	return len(moves) - 1
}

// pickMove plays a uniformly random playable card instance, counting an
// illegal Wild Draw Four out when noBluff; it draws only when nothing else
// is left, and when forced to play (forced-play) with nothing but that
// bluff left, plays it.
func pickMove(v *engine.View, r *engine.Rand, noBluff bool) engine.Move {
	h := v.Hand()
	plays := v.Plays()
	allowed := plays
	if wd4 := uint64(1) << engine.WildCard(engine.WildDrawFour); noBluff && plays&wd4 != 0 && !v.WD4Legal() {
		allowed &^= wd4
	}
	total, _ := h.Instances(allowed)
	if total == 0 {
		if plays != 0 && v.Decision() == engine.DecideTurn && v.Options().ForcedPlay {
			return engine.PlayMove(engine.Card(63 - bits.LeadingZeros64(plays)))
		}
		return engine.SimpleMove(engine.MoveDraw)
	}
	return engine.PlayMove(h.Instance(allowed, r.IntN(total)))
}

// indexOfKind is the index of the first move of kind k, or -1.
func indexOfKind(moves []engine.Move, k engine.MoveKind) int {
	for i, m := range moves {
		if m.Kind() == k {
			return i
		}
	}
	return -1
}

var wd4Card = engine.WildCard(engine.WildDrawFour)

// hasStackWD4 reports whether moves offer a Wild Draw Four stack.
func hasStackWD4(moves []engine.Move) bool {
	for _, m := range moves {
		if m.Kind() == engine.MoveStack && m.Card() == wd4Card {
			return true
		}
	}
	return false
}

// pickResponse answers a pending attack uniformly among the legal answers
// that are neither a challenge nor a bluff (an illegal Wild Draw Four
// stack), the bluff counted as legal when bluff.
func pickResponse(v *engine.View, moves []engine.Move, r *engine.Rand, bluff bool) int {
	ok := func(m engine.Move) bool {
		switch {
		case m.Kind() == engine.MoveChallenge:
			return false
		case m.Kind() == engine.MoveStack && m.Card().Symbol() == engine.WildDrawFour:
			return bluff || v.WD4Legal()
		}
		return true
	}
	n := 0
	for _, m := range moves {
		if ok(m) {
			n++
		}
	}
	x := r.IntN(n) // accepting is always allowed
	for i, m := range moves {
		if ok(m) {
			if x == 0 {
				return i
			}
			x--
		}
	}
	panic("unreachable")
}
