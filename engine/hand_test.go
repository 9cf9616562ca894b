package engine

import "testing"

// Instances and Instance agree with a count card by card, for random hands
// (cards added and removed) that hold up to seven copies of a kind (beyond
// the four count levels) and random sets of kinds: every card of the set is
// numbered exactly once, the first copies first in kind order.
func TestHandInstances(t *testing.T) {
	var r Rand
	r.Seed(3, 0, PurposeTable)
	for trial := range 2000 {
		var h Hand
		for range r.IntN(40) {
			k := Card(r.IntN(8) * 7) // few kinds, so that copies pile up
			if h.Count(k) > 0 && r.IntN(4) == 0 {
				h.Remove(k)
			} else {
				h.Add(k)
			}
		}
		if trial%5 == 0 {
			for range 7 {
				h.Add(WildCard(Wild))
			}
		}
		kinds := r.Uint64() & (1<<NumCards - 1)
		cards, held := h.Instances(kinds)
		wantCards, wantHeld := 0, 0
		for k := range Card(NumCards) {
			if kinds>>k&1 != 0 && h.Count(k) > 0 {
				wantCards += h.Count(k)
				wantHeld++
			}
		}
		if cards != wantCards || held != wantHeld {
			t.Fatalf("hand %v, kinds %#x: Instances = %d, %d, want %d, %d", &h, kinds, cards, held, wantCards, wantHeld)
		}
		var numbered [NumCards]int
		for x := range cards {
			k := h.Instance(kinds, x)
			if kinds>>k&1 == 0 {
				t.Fatalf("hand %v, kinds %#x: card %d is %s, not of the kinds", &h, kinds, x, k)
			}
			if x < held && k != nthKind(kinds&h.Kinds(), x) {
				t.Fatalf("hand %v, kinds %#x: card %d is %s, not the %d-th kind held", &h, kinds, x, k, x)
			}
			numbered[k]++
		}
		for k := range Card(NumCards) {
			if kinds>>k&1 != 0 && numbered[k] != h.Count(k) {
				t.Fatalf("hand %v, kinds %#x: %s numbered %d times, held %d", &h, kinds, k, numbered[k], h.Count(k))
			}
		}
	}
}

// nthKind is the x-th (from 0) kind of the set kinds, in kind order.
func nthKind(kinds uint64, x int) Card {
	for k := range Card(NumCards) {
		if kinds>>k&1 != 0 {
			if x == 0 {
				return k
			}
			x--
		}
	}
	return NoCard
}
