package strategy

import (
	"math/bits"

	"github.com/unosim/unosim/engine"
)

// The sound Wild Draw Four rules: when to challenge and when to bluff, by
// Bayes' rule and the expected cost in cards of each answer. Every float
// product that meets a sum is wrapped in float64(...) so that no
// architecture fuses it (FMA) and decisions are the same on amd64 and arm64.

// illegalKinds is the set of kinds (bit k for kind k) whose presence in a
// hand makes a Wild Draw Four illegal (RULES.md section 4), judged against
// the reference color ref and the card below, under rule: a card printed in
// ref; under no-color-match-or-wild and no-playable another wild; under
// no-playable a card of the symbol of the card below.
func illegalKinds(ref engine.Color, below engine.Card, rule engine.WD4Rule) uint64 {
	m := colorMask(ref)
	if rule != engine.NoColorMatch {
		for s := engine.FirstWild; s < engine.NumSymbols; s++ {
			if s != engine.WildDrawFour {
				m |= 1 << engine.WildCard(s)
			}
		}
	}
	if rule == engine.NoPlayable && below != engine.NoCard && !below.IsWild() {
		for c := engine.Red; c < engine.NoColor; c++ {
			m |= 1 << engine.MakeCard(c, below.Symbol())
		}
	}
	return m
}

// NoMatchChance is the chance that h cards drawn without replacement from u
// cards, k of which match, hold no match (the hypergeometric zero term):
//
//	C(u-k, h) / C(u, h) = prod_{i<h} (u-k-i) / (u-i).
//
// k may be fractional (an expected count). It is 1 for h <= 0 and 0 when
// the h cards must include a match.
func NoMatchChance(u, k float64, h int) float64 {
	if h <= noMatchMax {
		den, m := noMatchDen(u, h)
		return noMatchWith(u, k, m, den)
	}
	// Two products and one division: a division per card would cost more
	// than the rest of the counter's decision. Past 60 cards the products
	// could overflow, so the terms are multiplied in one by one.
	num, den := 1.0, 1.0
	for i := 0; i < h; i++ {
		d := u - float64(i)
		if d <= 0 {
			break // more cards than the unseen ones: the counts disagree, keep what was found
		}
		n := d - k
		if n <= 0 {
			return 0
		}
		if i >= noMatchMax {
			num, den = num/den*(n/d), 1
			continue
		}
		num *= n
		den *= d
	}
	return num / den
}

// noMatchMax is the most cards whose products NoMatchChance keeps whole.
const noMatchMax = 60

// noMatchDen is the denominator of NoMatchChance(u, k, h) for h <=
// noMatchMax, prod_{i<m} (u-i), and its number of terms m: h, or fewer
// where u-i reaches 0 (more cards than the unseen ones: the counts
// disagree, and the terms found are kept). It does not depend on k, so a
// decision that weighs many k against the same u and h works it out once.
func noMatchDen(u float64, h int) (den float64, m int) {
	den = 1.0
	for ; m < h; m++ {
		d := u - float64(m)
		if d <= 0 {
			break
		}
		den *= d
	}
	return den, m
}

// noMatchWith is NoMatchChance(u, k, h) from den, m = noMatchDen(u, h): the
// same products in the same order. The terms u-i-k fall with i, so the last
// is the smallest: if it is not positive the h cards must hold a match.
func noMatchWith(u, k float64, m int, den float64) float64 {
	num, n := 1.0, 1.0
	for i := 0; i < m; i++ {
		n = u - float64(i) - k
		num *= n
	}
	if n <= 0 {
		return 0
	}
	return num / den
}

// falling[m][j] is j (j-1) ... (j-m+1), multiplied left to right from 1:
// the products noMatchDen and noMatchWith form for whole counts, so a
// quotient of two entries is NoMatchChance bit for bit. By m first: the
// reads of one decision, all of one hand size, fall in one row.
var falling = func() (f [fallingM + 1][fallingJ]float64) {
	for j := range fallingJ {
		p := 1.0
		f[0][j] = p
		for m := 1; m <= fallingM; m++ {
			p *= float64(j - m + 1)
			f[m][j] = p
		}
	}
	return f
}()

// The table's counts: unseen cards below fallingJ, hands of fallingM cards
// at most; NoMatchChance works out the rest.
const (
	fallingJ = 256
	fallingM = 32
)

// noMatchCount is NoMatchChance(float64(u), float64(k), h) for whole counts
// u and k, from the table where it reaches: the denominator takes m =
// min(h, u) terms (noMatchDen), and the numerator's last term j-m+1 not
// positive makes it 0 (noMatchWith).
func noMatchCount(u, k, h int) float64 {
	if q, ok := noMatchTable(u, k, h); ok {
		return q
	}
	return NoMatchChance(float64(u), float64(k), h)
}

// noMatchTable is noMatchCount where the table reaches (ok), small enough
// to inline.
func noMatchTable(u, k, h int) (q float64, ok bool) {
	m := min(h, u)
	if uint(u) >= fallingJ || uint(h) > fallingM || k < 0 || m <= 0 {
		return 0, false
	}
	if j := u - k; j >= m {
		q = falling[m][j] / falling[m][u]
	}
	return q, true
}

// BluffPosterior is the probability that a Wild Draw Four was a bluff, by
// Bayes' rule, given q, the chance from what the seat has seen that the
// player's other cards hold one that makes it illegal, and rate, the
// assumed chance that the player plays a Wild Draw Four it holds illegally
// relative to one it may play legally (0: never bluffs, 1: plays it as
// readily either way):
//
//	P(bluff | played) = rate q / (rate q + (1 - q)).
//
// Proof beats the prior: q = 1 gives 1 whatever the rate.
func BluffPosterior(q, rate float64) float64 {
	if q >= 1 {
		return 1
	}
	if q <= 0 || rate <= 0 {
		return 0
	}
	b := float64(rate * q)
	return b / (b + (1 - q))
}

// opponentWeight is what a card drawn by one opponent is worth to the
// seat against one it draws itself: all of it with two players in the
// round, 1/(n-1) with n, since the cost falls on one of n-1 rivals.
func opponentWeight(active int) float64 {
	if active <= 2 {
		return 1
	}
	return 1 / float64(active-1)
}

// ChallengeCosts are the expected costs, in cards, of the two answers to a
// Wild Draw Four (RULES.md section 4): total is the pending draw (4, or a
// stack's total), pen is challenge-penalty, p the chance of a bluff, w the
// weight of an opponent's card (opponentWeight) and back 1 when the guilty
// player takes the card back (guilty-takes-back):
//
//	accept    = total                                   (draw and lose the turn)
//	challenge = (1-p) (total + pen - 4) - p (w (total + back) + 1)
//
// A challenge lost draws total + pen - 4 and loses the turn; one won makes
// the bluffer draw total (and take the card back) while the challenger
// draws nothing and plays its turn, worth about one card shed.
func ChallengeCosts(p float64, total, pen int, w float64, back int) (accept, challenge float64) {
	lost := float64(total + pen - 4)
	won := float64(w*float64(total+back)) + 1
	return float64(total), float64((1-p)*lost) - float64(p*won)
}

// SoundChallenge reports whether to challenge: when the expected cost of a
// challenge plus bias (cards; positive is reluctant) is below that of
// accepting.
func SoundChallenge(p float64, total, pen int, w float64, back int, bias float64) bool {
	accept, challenge := ChallengeCosts(p, total, pen, w, back)
	return challenge+bias < accept
}

// BluffGain is the expected gain in cards of playing a Wild Draw Four as a
// bluff instead of an honest card, when the next player challenges with
// probability c: unchallenged, the next player draws total and loses its
// turn (w (total + 1)); caught, the bluffer draws total (and takes the card
// back under guilty-takes-back: back 1):
//
//	gain = (1-c) w (total + 1) - c (total + back).
func BluffGain(c float64, total int, w float64, back int) float64 {
	return float64((1-c)*float64(w*float64(total+1))) - float64(c*float64(total+back))
}

// challengeInfo is the part of a challenge decision read from the view:
// the pending total, the challenge penalty, an opponent's weight and
// whether the guilty take the card back.
func challengeInfo(v *engine.View) (total, pen int, w float64, back int) {
	_, total, _ = v.Pending()
	if total <= 0 {
		total = 4
	}
	o := v.Options()
	if o.GuiltyTakesBack {
		back = 1
	}
	return total, o.ChallengePenalty, opponentWeight(v.ActivePlayers()), back
}

// publicUnseen is the number of cards the viewer has not seen by what any
// seat may know without memory (the deck less its hand, the discard pile
// and the mini-pile), and how many of them are of the kinds in mask.
func publicUnseen(v *engine.View, mask uint64) (u, k int) {
	hand := v.Hand()
	mini, _ := v.MiniPile()
	u = v.DeckSize() - hand.Size() - v.DiscardSize() - mini
	for m := mask; m != 0; m &= m - 1 {
		c := engine.Card(bits.TrailingZeros64(m))
		if n := v.DeckCount(c) - hand.Count(c) - v.Discarded(c) - v.MiniPileCount(c); n > 0 {
			k += n
		}
	}
	return u, k
}

// nextChallengeChance is the chance, as the viewer judges it, that the next
// player would challenge a Wild Draw Four the viewer plays now as a bluff,
// taking that player to use the sound rule with the assumed bluff rate on
// what it sees: the cards it has not seen are the viewer's unseen cards and
// the viewer's hand less its own, and the matching ones among them the
// viewer's matching cards (less the Wild Draw Four played) plus the
// viewer's unseen matching cards not expected in the next player's hand.
// unseen and matching are the viewer's counts; the result is 0 or 1.
func nextChallengeChance(v *engine.View, unseen, matching, mine int, rate float64) float64 {
	next := v.NextOf(v.Seat())
	hn := v.HandSize(next)
	h := v.Hand().Size() - 1 // the cards left behind the Wild Draw Four
	u := float64(unseen + h - hn)
	k := float64(mine)
	if unseen > 0 {
		k += float64(float64(matching) * (1 - float64(hn)/float64(unseen)))
	}
	p := BluffPosterior(1-NoMatchChance(u, k, h), rate)
	o := v.Options()
	back := 0
	if o.GuiltyTakesBack {
		back = 1
	}
	total := 4
	if sym, n, _ := v.Pending(); v.Decision() == engine.DecideRespond && sym == engine.WildDrawFour {
		total = n + 4 // stacking onto a pending Wild Draw Four
	}
	if SoundChallenge(p, total, o.ChallengePenalty, opponentWeight(v.ActivePlayers()), back, 0) {
		return 1
	}
	return 0
}

// soundBluff reports whether the viewer should play its Wild Draw Four as a
// bluff now, by BluffGain against bias (cards; positive is reluctant), the
// next player's challenge taken from nextChallengeChance blended with c0
// when c0 >= 0 (an observed rate; weight: half each), for the heuristic
// (public counts) or the counter (exact counts).
func soundBluff(v *engine.View, unseen, matching int, rate, bias, c0 float64) bool {
	mask := illegalKinds(v.Color(), v.Top(), v.WD4Rule())
	mine, _ := v.Hand().Instances(mask)
	c := nextChallengeChance(v, unseen, matching, mine, rate)
	if c0 >= 0 {
		c = float64(0.5*c) + float64(0.5*c0)
	}
	total := 4
	if sym, n, _ := v.Pending(); v.Decision() == engine.DecideRespond && sym == engine.WildDrawFour {
		total = n + 4
	}
	back := 0
	if v.Options().GuiltyTakesBack {
		back = 1
	}
	w := opponentWeight(v.ActivePlayers())
	if v.HandSize(v.NextOf(v.Seat())) <= 2 {
		w = float64(dangerWeight * w) // its four cards may stop it going out
	}
	return BluffGain(c, total, w, back) > bias
}

// dangerWeight multiplies the worth of the cards a next player close to
// going out (two cards or fewer) draws.
const dangerWeight = 3
