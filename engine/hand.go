package engine

import "math/bits"

// Hand is a multiset of cards: a count per kind, plus totals per printed color
// (index NoColor counts the wilds) and sets of kinds by count kept in step.
// Its zero value is empty and it can be copied with =.
type Hand struct {
	counts [64]uint8 // by kind; 64 entries so that k&63 needs no bounds check
	colors [8]uint16 // by printed color (NoColor: wilds); 8 entries so that c&7 needs no bounds check
	size   uint16
	points uint32 // the hand's scoring value, kept up to date: cheaper than a sum at every round's end
	// atLeast[i] has bit k set when the hand holds more than i cards of kind
	// k, so that the cards of a set of kinds are counted and chosen with a
	// few popcounts instead of a loop over kinds (see Instances).
	atLeast [4]uint64
}

// Count is the number of cards of kind k in the hand.
func (h *Hand) Count(k Card) int { return int(h.counts[k&63]) }

// Size is the number of cards in the hand.
func (h *Hand) Size() int { return int(h.size) }

// ColorCount is the number of cards printed in color c (NoColor: wilds).
func (h *Hand) ColorCount(c Color) int { return int(h.colors[c&7]) }

// Add puts one card of kind k in the hand.
func (h *Hand) Add(k Card) {
	c := h.counts[k&63]
	h.counts[k&63] = c + 1
	if c < uint8(len(h.atLeast)) {
		h.atLeast[c] |= 1 << (k & 63)
	}
	h.colors[cardColor[k]&7]++
	h.size++
	h.points += uint32(cardPoints[k])
}

// Remove takes one card of kind k out of the hand; the caller guarantees it is there.
func (h *Hand) Remove(k Card) {
	c := h.counts[k&63] - 1
	h.counts[k&63] = c
	if c < uint8(len(h.atLeast)) {
		h.atLeast[c] &^= 1 << (k & 63)
	}
	h.colors[cardColor[k]&7]--
	h.size--
	h.points -= uint32(cardPoints[k])
}

// Points is the scoring value of the hand.
func (h *Hand) Points() int { return int(h.points) }

// Kinds is the set of kinds in the hand: bit k is set when it holds a card of kind k.
func (h *Hand) Kinds() uint64 { return h.atLeast[0] }

// Instances is the number of cards in the hand whose kinds are in the set
// kinds (bit k for kind k), and the number of those kinds it holds.
func (h *Hand) Instances(kinds uint64) (cards, held int) {
	held = bits.OnesCount64(kinds & h.atLeast[0])
	cards = held + bits.OnesCount64(kinds&h.atLeast[1]) + bits.OnesCount64(kinds&h.atLeast[2]) + bits.OnesCount64(kinds&h.atLeast[3])
	for m := kinds & h.atLeast[3]; m != 0; m &= m - 1 { // kinds held more than four times
		cards += int(h.counts[bits.TrailingZeros64(m)]) - len(h.atLeast)
	}
	return cards, held
}

// Instance is the kind of card x (0 <= x < Instances(kinds)) of the hand's
// cards whose kinds are in kinds, numbered first copies first: the first
// copy of each kind in kind order, then the second copies, and so on. For a
// uniform x it is a uniformly random card of those kinds; x below the number
// of kinds held gives the x-th kind held.
func (h *Hand) Instance(kinds uint64, x int) Card {
	if m := kinds & h.atLeast[0]; x < bits.OnesCount64(m) {
		return Card(nthBit(m, x)) // a first copy: the common case, inlined
	}
	return h.laterInstance(kinds, x)
}

// laterInstance is Instance for x past the first copies.
func (h *Hand) laterInstance(kinds uint64, x int) Card {
	for _, level := range h.atLeast {
		m := kinds & level
		if c := bits.OnesCount64(m); x >= c {
			x -= c
			continue
		}
		return Card(nthBit(m, x))
	}
	for m := kinds & h.atLeast[3]; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		extra := int(h.counts[k]) - len(h.atLeast)
		if x < extra {
			return Card(k)
		}
		x -= extra
	}
	panic("engine: Hand.Instance out of range")
}

// Cards appends the hand's cards, kind by kind, to buf.
func (h *Hand) Cards(buf []Card) []Card {
	for k, c := range h.counts {
		for range c {
			buf = append(buf, Card(k))
		}
	}
	return buf
}

// String lists the cards, e.g. "[red 5, red 5, wild]".
func (h *Hand) String() string {
	var buf [MaxDeck]Card
	s := "["
	for i, k := range h.Cards(buf[:0]) {
		if i > 0 {
			s += ", "
		}
		s += k.String()
	}
	return s + "]"
}

// HandView reads a hand without being able to change it: what a strategy
// gets of its own hand. Its zero value is not usable.
type HandView struct{ h *Hand }

// Count is the number of cards of kind k in the hand.
func (v HandView) Count(k Card) int { return v.h.Count(k) }

// Size is the number of cards in the hand.
func (v HandView) Size() int { return v.h.Size() }

// ColorCount is the number of cards printed in color c (NoColor: wilds).
func (v HandView) ColorCount(c Color) int { return v.h.ColorCount(c) }

// Points is the scoring value of the hand.
func (v HandView) Points() int { return v.h.Points() }

// Kinds is the set of kinds in the hand (bit k for kind k).
func (v HandView) Kinds() uint64 { return v.h.Kinds() }

// Instances is Hand.Instances. (Its body is repeated here so that it stays
// within the inlining budget: a turn of the random strategy calls it.)
func (v HandView) Instances(kinds uint64) (cards, held int) {
	h := v.h
	held = bits.OnesCount64(kinds & h.atLeast[0])
	cards = held + bits.OnesCount64(kinds&h.atLeast[1]) + bits.OnesCount64(kinds&h.atLeast[2]) + bits.OnesCount64(kinds&h.atLeast[3])
	for m := kinds & h.atLeast[3]; m != 0; m &= m - 1 { // kinds held more than four times
		cards += int(h.counts[bits.TrailingZeros64(m)]) - len(h.atLeast)
	}
	return cards, held
}

// Instance is Hand.Instance.
func (v HandView) Instance(kinds uint64, x int) Card { return v.h.Instance(kinds, x) }

// Cards appends the hand's cards, kind by kind, to buf.
func (v HandView) Cards(buf []Card) []Card { return v.h.Cards(buf) }

// Hand is a copy of the hand.
func (v HandView) Hand() Hand { return *v.h }

func (v HandView) String() string { return v.h.String() }

// nthBit is the position of the x-th lowest set bit of m (from 0; x is
// below the number of bits set). The first four are chosen in straight code
// (conditional moves): a loop of x steps mispredicts its exit about every
// other call.
func nthBit(m uint64, x int) int {
	if x >= 4 {
		return nthBitLoop(m, x)
	}
	m1 := m & (m - 1)
	m2 := m1 & (m1 - 1)
	m3 := m2 & (m2 - 1)
	if x&1 != 0 {
		m, m2 = m1, m3
	}
	if x&2 != 0 {
		m = m2
	}
	return bits.TrailingZeros64(m)
}

func nthBitLoop(m uint64, x int) int {
	for ; x > 0; x-- {
		m &= m - 1
	}
	return bits.TrailingZeros64(m)
}
