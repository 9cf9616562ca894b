package strategy

import "github.com/unosim/unosim/engine"

// Random is the baseline strategy: it plays uniformly at random among the
// playable card instances in its hand (two copies of a card are twice as
// likely as one), never draws voluntarily, plays a drawn card when it is
// playable, names a color uniformly at random, never bluffs, never
// challenges, always calls UNO and never catches. Among any other choices
// (house rules) it chooses uniformly.
type Random struct{}

// AlwaysCallsUNO implements engine.UNOCaller.
func (*Random) AlwaysCallsUNO() bool { return true }

// Decide implements engine.Strategy.
func (*Random) Decide(v *engine.View, moves []engine.Move) int {
	r := v.Rand()
	switch v.Decision() {
	case engine.DecideTurn:
		return pickInstance(v, moves, r, true)
	case engine.DecideDrawn:
		if v.Drawn().Symbol() == engine.WildDrawFour && !v.WD4Legal() {
			return indexOfKind(moves, engine.MoveKeep)
		}
		return 0 // the drawn card's Play comes first
	case engine.DecideCallUNO:
		return indexOfKind(moves, engine.MoveCallUNO)
	case engine.DecideCatch:
		return indexOfKind(moves, engine.MovePass)
	case engine.DecideRespond:
		return pickResponse(v, moves, r)
	case engine.DecidePileUp:
		return pickInstance(v, moves, r, false) // nothing on a mini-pile is a bluff
	}
	return r.IntN(len(moves))
}

// pickInstance plays a uniformly random playable card instance, counting an
// illegal Wild Draw Four out when noBluff; it draws only when nothing else
// is left. The plays come first in a turn's moves, in kind order
// (engine.View.Plays), so the common case, a first copy of a kind, is chosen
// without a loop.
func pickInstance(v *engine.View, moves []engine.Move, r *engine.Rand, noBluff bool) int {
	h := v.Hand()
	plays := v.Plays()
	allowed := plays
	if wd4 := uint64(1) << engine.WildCard(engine.WildDrawFour); noBluff && plays&wd4 != 0 && !v.WD4Legal() {
		allowed &^= wd4
	}
	total, held := h.Instances(allowed)
	if total == 0 {
		return len(moves) - 1 // nothing but the draw
	}
	x := r.IntN(total)
	if x < held && allowed == plays {
		return x // the first copy of the x-th playable kind
	}
	return v.PlayIndex(h.Instance(allowed, x))
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

// pickResponse answers a pending attack uniformly among the legal answers
// that are neither a challenge nor a bluff (an illegal Wild Draw Four stack).
func pickResponse(v *engine.View, moves []engine.Move, r *engine.Rand) int {
	ok := func(m engine.Move) bool {
		switch {
		case m.Kind() == engine.MoveChallenge:
			return false
		case m.Kind() == engine.MoveStack && m.Card().Symbol() == engine.WildDrawFour:
			return v.WD4Legal()
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
