package engine

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Knowledge is what one seat has seen of the other hands (docs/RULES.md
// section 10): cards it gave away in a swap or a rotation, a hand shown to
// it in a challenge, a mini-pile someone took, a Wild Draw Four taken back.
// It is kept only by a strategy that asks for it, from its observation feed
// (Observe), and passed to Determinize; the fast path pays nothing for it.
//
// Known cards are a lower bound on a hand: when the holder plays a card of
// a known kind, one known card of that kind is forgotten, since the seat
// cannot tell which copy was played.
type Knowledge struct {
	seat    int
	holders uint32 // the seats with a known card (bit p for seat p), read first and most
	dirty   bool   // known, own or mini may hold a card (else a round's start or Reset has nothing to forget)
	// The cards of known[p] in all and by printed color, so that a reader
	// skips the seats it knows nothing of and sums no kinds.
	held    [MaxPlayers]int
	heldCol [MaxPlayers][NumColors + 1]int
	known   [MaxPlayers][NumCards]uint8
	own     Hand // the seat's hand as of the last event, for swaps and rotations (where there are)
	// The face-up mini-pile, for whoever takes it, and its kinds (bit c
	// for kind c): a take adds only those.
	mini      [NumCards]uint8
	miniKinds uint64
}

// Reset forgets everything and makes k the knowledge of seat.
func (k *Knowledge) Reset(seat int) {
	if k.dirty {
		*k = Knowledge{seat: seat}
	}
	k.seat = seat // (clean: nothing else to forget)
}

// KnownCards is the number of cards the seat knows to be in seat p's hand:
// the sum of Known(p, c) over every kind c.
func (k *Knowledge) KnownCards(p int) int {
	if uint(p) >= MaxPlayers {
		return 0
	}
	return k.held[p]
}

// KnownColorCards is the number of cards printed in color c (NoColor: the
// wilds) the seat knows to be in seat p's hand.
func (k *Knowledge) KnownColorCards(p int, c Color) int {
	if uint(p) >= MaxPlayers || c > NoColor {
		return 0
	}
	return k.heldCol[p][c]
}

// add counts n more known cards of kind c in seat p's hand (n may be
// negative), in known's sums.
func (k *Knowledge) add(p int, c Card, n int) {
	k.held[p] += n
	k.heldCol[p][c.Color()] += n
	if k.held[p] > 0 {
		k.holders |= 1 << p
	} else {
		k.holders &^= 1 << p
	}
}

// Holders is the set of seats the seat knows a card of (bit p for seat
// p): those with KnownCards above 0.
func (k *Knowledge) Holders() uint32 { return k.holders }

// sumHeld works the sums out afresh from known, after a row is replaced.
func (k *Knowledge) sumHeld() {
	k.held, k.heldCol, k.holders = [MaxPlayers]int{}, [MaxPlayers][NumColors + 1]int{}, 0
	for p := range k.known {
		for c, x := range k.known[p] {
			k.add(p, Card(c), int(x))
		}
	}
}

// Played is Observe of an EvPlay of card c by seat p at a table where
// hands are never exchanged (no swaps or rotations), with less to do.
func (k *Knowledge) Played(p int, c Card) {
	k.forget(p, c)
}

// forget takes a card of kind c played by p out of what the seat knows of
// p's hand, if it knew one.
func (k *Knowledge) forget(p int, c Card) {
	if p != k.seat && uint(p) < MaxPlayers && c.Valid() && k.known[p][c] > 0 {
		k.known[p][c]--
		k.add(p, c, -1)
	}
}

// SetMiniPile makes pile (by kind) the mini-pile the seat has seen: for a
// knowledge that is not told the mini-pile's events (EvPileFlip, EvPile)
// because its seat reads them elsewhere (a PublicReader), set before the
// pile is taken (EvPileTake), and for one begun while a pile lies on the
// table, set with that pile. It is what the pile's taker is known to hold.
func (k *Knowledge) SetMiniPile(pile *[NumCards]uint8) {
	k.mini, k.miniKinds = *pile, kindsIn(pile)
	if k.miniKinds != 0 {
		k.dirty = true
	}
}

// kindsIn is the set of kinds (bit c for kind c) with a card in counts,
// eight kinds at a time (a loop over the kinds mispredicts its branch on
// every other kind): h has the high bit of each byte of w set where the
// byte is not 0 (its own high bit, or the carry of its low seven bits
// plus 0x7f, which stays in the byte), and the multiplication gathers
// those bits, in order, into the top byte.
func kindsIn(counts *[NumCards]uint8) uint64 {
	var b [64]byte // whole words
	copy(b[:], counts[:])
	var kinds uint64
	for i := 0; i < len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		h := (w | (w&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f)) & 0x8080808080808080
		kinds |= (h >> 7 * 0x0102040810204080 >> 56) << i
	}
	return kinds
}

// Took is Observe of an EvPileTake by seat p, for a knowledge told no view
// (a PublicReader's): p is known to hold the mini-pile's cards, unless p is
// the knowledge's own seat, and the pile is empty again.
func (k *Knowledge) Took(p int) {
	if p != k.seat && uint(p) < MaxPlayers {
		for m := k.miniKinds; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			x := k.mini[c]
			k.known[p][c] += x
			k.add(p, Card(c), int(x))
		}
		k.dirty = true
	}
	k.mini, k.miniKinds = [NumCards]uint8{}, 0
}

// CopyFor makes k the knowledge that from holds, as seat's: what from knows
// of the other hands (a table's knowledge, of seat -1, read by every seat
// at the table until one learns something of its own), less seat's own
// hand, which a seat reads from the hand itself.
func (k *Knowledge) CopyFor(from *Knowledge, seat int) {
	*k = *from
	k.seat = seat
	if uint(seat) < MaxPlayers && k.holders>>seat&1 != 0 {
		k.known[seat], k.held[seat], k.heldCol[seat] = [NumCards]uint8{}, 0, [NumColors + 1]int{}
		k.holders &^= 1 << seat
	}
}

// toMini counts card c put on the mini-pile.
func (k *Knowledge) toMini(c Card) {
	if c.Valid() {
		k.mini[c]++
		k.miniKinds |= 1 << c
		k.dirty = true
	}
}

// Seat is the seat whose knowledge k is.
func (k *Knowledge) Seat() int { return k.seat }

// Known is the number of cards of kind c the seat knows to be in seat p's hand.
func (k *Knowledge) Known(p int, c Card) int {
	if !c.Valid() {
		return 0
	}
	return int(k.known[p][c])
}

// Observe updates k with event e, which its seat saw; v is that seat's
// view at the moment of the event (as an Observer is given it).
func (k *Knowledge) Observe(v *View, e Event) {
	switch e.Kind {
	case EvRound:
		if k.dirty {
			// Only the rows of the seats with known cards hold any.
			for m := k.holders; m != 0; m &= m - 1 {
				p := bits.TrailingZeros32(m)
				k.known[p], k.held[p], k.heldCol[p] = [NumCards]uint8{}, 0, [NumColors + 1]int{}
			}
			k.holders = 0
			if k.miniKinds != 0 {
				k.mini, k.miniKinds = [NumCards]uint8{}, 0
			}
			k.dirty = false
		}
	case EvPileFlip:
		// The first card flipped makes a new mini-pile: the view's holds it
		// alone. (A pile-up that finds no colored card puts its flips under
		// the discard pile, told by no event; whether an event came
		// between two flips, which a seat may not be told, says nothing.)
		if n, _ := v.MiniPile(); n == 1 {
			k.mini, k.miniKinds = [NumCards]uint8{}, 0
		}
		k.toMini(e.Card)
	case EvPlay, EvPile:
		k.forget(e.Player, e.Card)
		if e.Kind == EvPile {
			k.toMini(e.Card)
		}
	case EvChallenge:
		if e.Player == k.seat {
			if h, ok := v.Revealed(); ok {
				copy(k.known[e.Other][:], h.counts[:NumCards])
				k.sumHeld()
				k.dirty = true
			}
		}
	case EvTakeBack:
		if e.Player != k.seat {
			k.known[e.Player][WildCard(WildDrawFour)]++
			k.add(e.Player, WildCard(WildDrawFour), 1)
			k.dirty = true
		}
	case EvPileTake:
		k.Took(e.Player)
	case EvSwap:
		k.dirty = true
		p, o := e.Player, e.Other
		switch k.seat {
		case p:
			copy(k.known[o][:], k.own.counts[:NumCards])
			k.known[p] = [NumCards]uint8{}
		case o:
			copy(k.known[p][:], k.own.counts[:NumCards])
			k.known[o] = [NumCards]uint8{}
		default:
			k.known[p], k.known[o] = k.known[o], k.known[p]
		}
		k.sumHeld()
	case EvRotate:
		// Every hand still in passed to the next player in the direction of
		// play; the seat's old hand is now its next player's.
		var moved [MaxPlayers][NumCards]uint8
		for q := 0; q < v.Players(); q++ {
			if v.Out(q) {
				continue
			}
			if q == k.seat {
				copy(moved[v.NextOf(q)][:], k.own.counts[:NumCards])
			} else {
				moved[v.NextOf(q)] = k.known[q]
			}
		}
		moved[k.seat] = [NumCards]uint8{}
		k.known = moved
		k.sumHeld()
		k.dirty = true
	}
	if v.s.t.exchanges {
		k.own = v.Hand().Hand()
		k.dirty = true
	}
}

// Determinize resamples everything seat cannot see, uniformly among the
// arrangements consistent with what it has seen (docs/RULES.md section 10):
// the cards of the other hands and the order of the draw pile are dealt
// anew from the cards hidden from seat, with the cards k says seat knows
// (nil: none) kept in their hands and every hand keeping its size; the
// random streams seat cannot know (reshuffles, the table's draws, the other
// seats' choices and the next round's deal) are reseeded from rng. The rest
// of the position (seat's own hand, the discard pile, scores, links,
// silences, pending effects, direction, whose turn) is unchanged, and so is
// seat's view of it. Knowledge is taken as a claim about the hidden cards
// only: it is checked against what seat could count, never against the
// hands, so a wrong claim reveals nothing.
//
// Seat is the seat whose decision is pending (a search's, at its own
// decision). For another seat, the pending decision's moves (the cards it
// may play, jump in with or deflect with) were worked out from the hand
// before it was dealt anew, and may name cards the new hand lacks.
func (s *State) Determinize(seat int, rng *Rand, k *Knowledge) {
	if rng.s0|rng.s1 == 0 {
		rng.s1 = 1 // a zero Rand would draw zeros forever
	}
	n := s.t.n
	// The hidden cards: the draw pile's, where they lie, then the other
	// hands' after them, in the draw pile's array.
	m := s.drawN
	var sizes [MaxPlayers]int
	for q := 0; q < n; q++ {
		if q == seat {
			continue
		}
		h := &s.hands[q]
		sizes[q] = int(h.size)
		for b := h.atLeast[0]; b != 0; b &= b - 1 {
			c := Card(bits.TrailingZeros64(b))
			for range h.counts[c] {
				s.drawPile[m] = c
				m++
			}
		}
		*h = Hand{}
	}
	// Known cards stay where they are known to be, as far as the hidden
	// cards and the hand sizes allow: they leave the pool first.
	if k != nil && k.seat == seat {
		for q := 0; q < n; q++ {
			if q == seat {
				continue
			}
			for c, want := range k.known[q] {
				for ; want > 0 && sizes[q] > int(s.hands[q].size); want-- {
					i := slices.Index(s.drawPile[:m], Card(c))
					if i < 0 {
						break
					}
					m--
					s.drawPile[i] = s.drawPile[m]
					s.hands[q].Add(Card(c))
				}
			}
		}
	}
	rng.ShuffleCards(s.drawPile[:m])
	// Deal the other hands from the top; the rest is the draw pile.
	for q := 0; q < n; q++ {
		h := &s.hands[q]
		for q != seat && int(h.size) < sizes[q] {
			m--
			h.Add(s.drawPile[m])
		}
	}
	s.drawN = m

	// The future is hidden too.
	s.key = rng.Uint64()
	s.tableRng.seedFrom(rng.Uint64(), PurposeTable)
	s.reshuffleRng.seedFrom(rng.Uint64(), PurposeReshuffle)
	s.dealRng.seedFrom(rng.Uint64(), PurposeDeal)
	s.dealerRng.seedFrom(rng.Uint64(), PurposeDealer)
	for q := 0; q < n; q++ {
		if q != seat {
			s.seatRng[q].seedFrom(rng.Uint64(), PurposeSeat+Purpose(q))
		}
	}
	if s.revealTo != seat {
		s.revealTo, s.revealed = -1, Hand{}
	}
	if s.decision != DecideDrawn || s.seat != seat {
		s.drawn = NoCard
	}
	s.sink, s.sinkKinds, s.drv = nil, 0, nil
}

// Determinize copies the position into dst and resamples in dst what the
// viewer cannot see (State.Determinize, with the viewer's knowledge k, or
// nil). It is how a search strategy gets positions to search: never the
// position itself.
func (v *View) Determinize(dst *State, rng *Rand, k *Knowledge) {
	dst.CopyFrom(v.s)
	dst.Determinize(v.seat, rng, k)
}
