package strategy

import (
	"math/bits"

	"github.com/unosim/unosim/engine"
)

// ChallengePolicy says when the heuristic challenges a Wild Draw Four.
type ChallengePolicy uint8

// The challenge policies.
const (
	ChallengeNever  ChallengePolicy = iota
	ChallengeAlways                 // every time
	ChallengeRandom                 // with probability Heuristic.ChallengeP
	ChallengeSeen                   // when the cards it has seen make a bluff likely enough
	ChallengeSound                  // by Bayes' rule and the expected cost in cards (SoundChallenge)
)

// Heuristic is a sensible player. It keeps its wilds for when nothing else
// plays, plays toward its longest color, dumps high-point cards and hits
// the next player with action cards when an opponent is close to going
// out, and names its strongest color. Its parameters are the research
// questions: how often it bluffs, when it challenges, how often it forgets
// to call UNO and how often it catches others.
type Heuristic struct {
	Bluff         float64         // probability of playing a Wild Draw Four as a bluff when the chance arises
	BluffSound    bool            // bluff by the expected gain instead (BluffGain), ignoring Bluff
	Challenge     ChallengePolicy // when to challenge a Wild Draw Four
	ChallengeP    float64         // the probability for ChallengeRandom
	Threshold     float64         // ChallengeSeen challenges when P(bluff) exceeds this
	Forget        float64         // probability of not calling UNO
	Catch         float64         // probability of catching a player who did not call UNO
	Jump          float64         // probability of jumping in when it can
	Speed         float64         // reaction speed in jump-in races
	BluffRate     float64         // the sound rules' assumed bluff rate of the others (BluffPosterior)
	ChallengeBias float64         // ChallengeSound's reluctance, in cards (SoundChallenge)
	BluffBias     float64         // BluffSound's reluctance, in cards
}

// DefaultBluffRate is the bluff rate the sound rules assume of others by
// default: rare, as in a population of honest players, so that a seat
// challenges only when the cards it has seen leave little room for a legal
// play.
const DefaultBluffRate = 0.01

// DefaultHeuristic is the heuristic with its default parameters.
func DefaultHeuristic() Heuristic {
	return Heuristic{Challenge: ChallengeSound, Threshold: 0.3, Catch: 1, Jump: 1, Speed: 1, BluffRate: DefaultBluffRate}
}

// bluffs decides a chance to bluff: by the coin Bluff, or by BluffGain.
func (h *Heuristic) bluffs(v *engine.View) bool {
	if !h.BluffSound {
		return v.Rand().Bernoulli(h.Bluff)
	}
	u, k := publicUnseen(v, illegalKinds(v.Color(), v.Top(), v.WD4Rule()))
	return soundBluff(v, u, k, h.BluffRate, h.BluffBias, -1)
}

// ReactionSpeed implements engine.Reactor.
func (h *Heuristic) ReactionSpeed() float64 { return h.Speed }

// AlwaysCallsUNO implements engine.UNOCaller: with forget 0 it always calls,
// drawing no random number to decide.
func (h *Heuristic) AlwaysCallsUNO() bool { return h.Forget <= 0 }

// PlaysDrawn implements engine.DrawnPlayer: without bluffs it plays every
// playable drawn card but an illegal Wild Draw Four, drawing no random
// number to decide.
func (h *Heuristic) PlaysDrawn() bool { return !h.BluffSound && h.Bluff <= 0 }

// Decide implements engine.Strategy.
func (h *Heuristic) Decide(v *engine.View, moves []engine.Move) int {
	r := v.Rand()
	switch v.Decision() {
	case engine.DecideTurn:
		return h.turn(v, moves)
	case engine.DecideDrawn:
		if v.Drawn().Symbol() == engine.WildDrawFour && !v.WD4Legal() && !h.bluffs(v) {
			return indexOfKind(moves, engine.MoveKeep)
		}
		return indexOfKind(moves, engine.MovePlay)
	case engine.DecideColor:
		return indexOfColor(moves, strongestColor(v))
	case engine.DecideCallUNO:
		if r.Bernoulli(h.Forget) {
			return indexOfKind(moves, engine.MovePass)
		}
		return indexOfKind(moves, engine.MoveCallUNO)
	case engine.DecideCatch:
		if !v.Silenced(v.Seat()) && r.Bernoulli(h.Catch) { // catching while silenced costs 3 cards for 2
			return indexOfKind(moves, engine.MoveCatch)
		}
		return indexOfKind(moves, engine.MovePass)
	case engine.DecideRespond:
		return h.respond(v, moves)
	case engine.DecideJumpIn:
		if r.Bernoulli(h.Jump) {
			return indexOfKind(moves, engine.MoveJump)
		}
		return indexOfKind(moves, engine.MovePass)
	case engine.DecideTarget:
		if v.TargetFor().Symbol() == engine.WildDontSpeak {
			return indexOfPlayer(moves, v.NextOf(v.Seat())) // silence the next player
		}
		return indexOfPlayer(moves, leader(v, -1)) // take the shortest hand
	case engine.DecidePoint:
		return indexOfPlayer(moves, leader(v, -1))
	case engine.DecideLink:
		a := leader(v, -1)
		b := leader(v, a)
		for i, m := range moves {
			if (m.A() == a && m.B() == b) || (m.A() == b && m.B() == a) {
				return i
			}
		}
		return bestOpponentPair(v, moves) // the leaders are linked already
	case engine.DecidePileUp:
		return pileUpCard(moves)
	}
	return r.IntN(len(moves))
}

// leader is the opponent closest to winning (fewest cards; ties: the next in
// turn order), other than except.
func leader(v *engine.View, except int) int {
	best, bestN := -1, 1<<30
	p := v.Seat()
	for range v.ActivePlayers() - 1 {
		p = v.NextOf(p)
		if p == except {
			continue
		}
		if n := v.HandSize(p); n < bestN {
			best, bestN = p, n
		}
	}
	return best
}

// bestOpponentPair is the offered pair of two opponents with the fewest
// cards between them, or the first pair if every pair includes the viewer.
func bestOpponentPair(v *engine.View, moves []engine.Move) int {
	best, bestN := 0, 1<<30
	for i, m := range moves {
		if m.A() == v.Seat() || m.B() == v.Seat() {
			continue
		}
		if n := v.HandSize(m.A()) + v.HandSize(m.B()); n < bestN {
			best, bestN = i, n
		}
	}
	return best
}

func indexOfPlayer(moves []engine.Move, p int) int {
	for i, m := range moves {
		if m.A() == p {
			return i
		}
	}
	return 0
}

// pileUpCard plays the highest-scoring colored card onto a mini-pile, and a
// wild only when it must.
func pileUpCard(moves []engine.Move) int {
	best, bestPts := 0, -1
	for i, m := range moves {
		pts := m.Card().Points()
		if m.Card().IsWild() {
			pts = -1
		}
		if pts > bestPts {
			best, bestPts = i, pts
		}
	}
	return best
}

// turn chooses a play: the best colored card if there is one, then a Wild,
// then a Wild Draw Four; a bluff with probability Bluff.
func (h *Heuristic) turn(v *engine.View, moves []engine.Move) int {
	hand := v.Hand()
	seat := v.Seat()
	next := v.NextOf(seat)
	nextDanger := v.HandSize(next) <= 2
	danger := opponentClose(v, seat)
	best, bestScore := -1, -1
	wild, wd4 := -1, -1
	for i, m := range moves {
		if m.Kind() != engine.MovePlay {
			continue
		}
		k := m.Card()
		switch k.Symbol() {
		case engine.WildDrawFour:
			wd4 = i
			continue
		case engine.Wild:
			wild = i
			continue
		}
		if k.IsWild() {
			if wild < 0 {
				wild = i
			}
			continue
		}
		// Toward the longest color: count what stays in the card's color.
		score := 10 * (hand.ColorCount(k.Color()) - 1)
		if danger {
			score += k.Points()
		}
		if nextDanger && isHit(v, k.Symbol()) {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return chooseTurn(v, moves, best, wild, wd4, nextDanger, h)
}

// opponentClose reports whether an opponent of seat still in the round
// holds two cards or fewer.
func opponentClose(v *engine.View, seat int) bool {
	for p, n := 0, v.Players(); p < n; p++ {
		if p != seat && !v.Out(p) && v.HandSize(p) <= 2 {
			return true
		}
	}
	return false
}

// bluffer decides whether to play a Wild Draw Four as a bluff.
type bluffer interface{ bluffs(v *engine.View) bool }

// chooseTurn ends a turn of the heuristic's kind, given the index of its
// best colored play, of a wild and of a Wild Draw Four (-1: none): the Wild
// Draw Four as a bluff when b says so and something else could be played,
// or legally when nothing else plays or the next player is close to going
// out; else the best colored card, then the wild, then the legal Wild Draw
// Four, then the draw.
func chooseTurn(v *engine.View, moves []engine.Move, best, wild, wd4 int, nextDanger bool, b bluffer) int {
	if wd4 >= 0 {
		legal := v.WD4Legal()
		if !legal && (best >= 0 || wild >= 0) && b.bluffs(v) {
			return wd4
		}
		if legal && (best < 0 || nextDanger) && (wild < 0 || nextDanger) {
			return wd4
		}
	}
	switch {
	case best >= 0:
		return best
	case wild >= 0:
		return wild
	case wd4 >= 0 && v.WD4Legal():
		return wd4
	}
	if i := indexOfKind(moves, engine.MoveDraw); i >= 0 {
		return i
	}
	return 0 // forced to play (forced-play) with nothing but a bluff: play it
}

// isHit reports whether a card of symbol s costs the next player a turn.
func isHit(v *engine.View, s engine.Symbol) bool {
	switch s {
	case engine.Skip, engine.DrawTwo:
		return true
	case engine.Reverse:
		return v.ActivePlayers() == 2 && v.TwoPlayerReverse() == engine.ReverseSkips
	}
	return false
}

// respond answers a pending draw: stack or deflect when it holds the cards,
// otherwise challenge a Wild Draw Four by its policy, otherwise accept.
func (h *Heuristic) respond(v *engine.View, moves []engine.Move) int {
	bluff := -1
	for i, m := range moves {
		if k := m.Kind(); k == engine.MoveStack || k == engine.MoveDeflect {
			if m.Card().Symbol() == engine.WildDrawFour && !v.WD4Legal() {
				bluff = i // stacking it would be a bluff
				continue
			}
			return i
		}
	}
	if bluff >= 0 && h.bluffs(v) {
		return bluff
	}
	if i := indexOfKind(moves, engine.MoveChallenge); i >= 0 && !v.Silenced(v.Seat()) && h.challenges(v) {
		return i
	}
	return indexOfKind(moves, engine.MoveAccept)
}

func (h *Heuristic) challenges(v *engine.View) bool {
	switch h.Challenge {
	case ChallengeAlways:
		return true
	case ChallengeRandom:
		return v.Rand().Bernoulli(h.ChallengeP)
	case ChallengeSeen:
		return BluffProbability(v) > h.Threshold
	case ChallengeSound:
		total, pen, w, back := challengeInfo(v)
		return SoundChallenge(BluffPosterior(BluffProbability(v), h.BluffRate), total, pen, w, back, h.ChallengeBias)
	}
	return false
}

// BluffProbability estimates from what the viewer has seen the chance that
// the pending Wild Draw Four was a bluff: the chance that the player's hand
// holds a card that made it illegal. The unseen cards are the deck less the
// viewer's hand and the discard pile; the player's hand is taken to be a
// uniformly random draw from them (hypergeometric), so P(legal) =
// prod_{i<h} (U-K-i)/(U-i) for h cards in hand, U unseen cards and K unseen
// cards that would make it illegal.
func BluffProbability(v *engine.View) float64 {
	_, _, by := v.Pending()
	h := v.HandSize(by)
	hand := v.Hand()
	ref, below := v.ReferenceColor(), v.ReferenceTop()
	rule := v.WD4Rule()
	miniPile, _ := v.MiniPile()
	unseen := v.DeckSize() - hand.Size() - v.DiscardSize() - miniPile
	matching := 0
	count := func(k engine.Card) {
		if n := v.DeckCount(k) - hand.Count(k) - v.Discarded(k); n > 0 {
			matching += n
		}
	}
	for s := engine.Zero; s < engine.FirstWild; s++ {
		count(engine.MakeCard(ref, s)) // the reference color printed on it
	}
	if rule != engine.NoColorMatch {
		for s := engine.FirstWild; s < engine.NumSymbols; s++ {
			if s != engine.WildDrawFour {
				count(engine.WildCard(s)) // another wild
			}
		}
	}
	if rule == engine.NoPlayable && !below.IsWild() {
		for c := engine.Red; c < engine.NoColor; c++ {
			if c != ref {
				count(engine.MakeCard(c, below.Symbol())) // playable on the card below by its symbol
			}
		}
	}
	pLegal := 1.0
	for i := 0; i < h; i++ {
		if unseen-i <= 0 {
			break
		}
		pLegal *= float64(max(unseen-matching-i, 0)) / float64(unseen-i)
	}
	return 1 - pLegal
}

// strongestColor is the color the viewer holds most cards of (ties: the
// higher points, then the lower color), or a random color with none.
func strongestColor(v *engine.View) engine.Color {
	hand := v.Hand()
	best, bestN, bestPts := engine.NoColor, 0, -1
	for c := engine.Red; c < engine.NoColor; c++ {
		n := hand.ColorCount(c)
		if n == 0 || n < bestN {
			continue
		}
		pts := 0
		for m := hand.Kinds() & colorMask(c); m != 0; m &= m - 1 {
			k := engine.Card(bits.TrailingZeros64(m))
			pts += hand.Count(k) * k.Points()
		}
		if n > bestN || pts > bestPts {
			best, bestN, bestPts = c, n, pts
		}
	}
	if best == engine.NoColor {
		return engine.Color(v.Rand().IntN(engine.NumColors))
	}
	return best
}

// colorMask is the set of kinds printed in color c.
func colorMask(c engine.Color) uint64 {
	first := engine.MakeCard(c, engine.Zero)
	return (uint64(1)<<engine.NumColoredSymbols - 1) << first
}

func indexOfColor(moves []engine.Move, c engine.Color) int {
	for i, m := range moves {
		if m.Kind() == engine.MoveNameColor && m.Color() == c {
			return i
		}
	}
	return 0
}
