package engine

import "math/bits"

// Hand is a multiset of cards: a count per kind, plus totals per printed color
// (index NoColor counts the wilds) kept in step. Its zero value is empty and
// it can be copied with =.
type Hand struct {
	counts  [64]uint8 // by kind; 64 entries so that k&63 needs no bounds check
	colors  [8]uint16 // by printed color (NoColor: wilds); 8 entries so that c&7 needs no bounds check
	size    uint16
	present uint64 // bit k set: at least one card of kind k
}

// Count is the number of cards of kind k in the hand.
func (h *Hand) Count(k Card) int { return int(h.counts[k&63]) }

// Size is the number of cards in the hand.
func (h *Hand) Size() int { return int(h.size) }

// ColorCount is the number of cards printed in color c (NoColor: wilds).
func (h *Hand) ColorCount(c Color) int { return int(h.colors[c&7]) }

// Add puts one card of kind k in the hand.
func (h *Hand) Add(k Card) {
	h.present |= 1 << (k & 63)
	h.counts[k&63]++
	h.colors[cardColor[k]&7]++
	h.size++
}

// Remove takes one card of kind k out of the hand; the caller guarantees it is there.
func (h *Hand) Remove(k Card) {
	h.counts[k&63]--
	if h.counts[k&63] == 0 {
		h.present &^= 1 << (k & 63)
	}
	h.colors[cardColor[k]&7]--
	h.size--
}

// Points is the scoring value of the hand.
func (h *Hand) Points() int {
	p := 0
	for m := h.present; m != 0; m &= m - 1 {
		k := Card(bits.TrailingZeros64(m))
		p += int(h.counts[k&63]) * cardPoints[k]
	}
	return p
}

// Kinds is the set of kinds in the hand: bit k is set when it holds a card of kind k.
func (h *Hand) Kinds() uint64 { return h.present }

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
