package engine

import (
	"math/bits"
	"math/rand/v2"
)

// Purpose names a random stream of a game. Streams are keyed by (seed, game
// index, purpose), so what one consumer draws never shifts another: the same
// deal can be replayed under other strategies or options (common random
// numbers), and game i plays the same on any worker.
type Purpose uint64

// Stream purposes. Per-round streams add the round number; seat streams add
// the seat.
const (
	PurposeDeal      Purpose = 1 << 32 // + round: the shuffle that deals a round
	PurposeReshuffle Purpose = 2 << 32 // + round: reshuffles of the discard pile
	PurposeDealer    Purpose = 3 << 32 // + round: a random or high-card dealer
	PurposeTable     Purpose = 4 << 32 // engine choices: who catches, who jumps in first
	PurposeSeat      Purpose = 5 << 32 // + seat: that seat's strategy
)

// Rand is a small value-type generator (PCG from math/rand/v2) reseeded in
// place for each stream, so nothing is allocated per game.
type Rand struct{ pcg rand.PCG }

// mix is the splitmix64 finalizer (Steele, Lea and Flood 2014), a bijection
// that spreads nearby keys over the whole 64-bit range.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Seed sets r to the stream keyed by (seed, game, purpose).
func (r *Rand) Seed(seed, game uint64, purpose Purpose) {
	hi := mix(mix(seed) ^ game)
	lo := mix(hi ^ mix(uint64(purpose)))
	r.pcg.Seed(hi, lo)
}

// Uint64 returns a uniformly random 64-bit value.
func (r *Rand) Uint64() uint64 { return r.pcg.Uint64() }

// IntN returns a uniform integer in [0, n); n must be positive. It uses
// Lemire's multiply-and-reject method (Lemire 2019, "Fast random integer
// generation in an interval"), which is exact.
func (r *Rand) IntN(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.pcg.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), un)
		}
	}
	return int(hi)
}

// Float64 returns a uniform float64 in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.pcg.Uint64()>>11) * 0x1p-53 }

// Bernoulli reports true with probability p.
func (r *Rand) Bernoulli(p float64) bool {
	if p <= 0 {
		return false
	}
	return p >= 1 || r.Float64() < p
}

// ShuffleCards puts cards in uniformly random order (Fisher-Yates). Each
// 64-bit output gives two 32-bit draws, each bounded exactly with Lemire's
// method; decks never exceed 2^32 cards.
func (r *Rand) ShuffleCards(cards []Card) {
	var buf uint64
	have := false
	next := func() uint32 {
		if have {
			have = false
			return uint32(buf >> 32)
		}
		buf, have = r.pcg.Uint64(), true
		return uint32(buf)
	}
	for i := len(cards) - 1; i > 0; i-- {
		n := uint32(i + 1)
		prod := uint64(next()) * uint64(n)
		if uint32(prod) < n {
			thresh := -n % n
			for uint32(prod) < thresh {
				prod = uint64(next()) * uint64(n)
			}
		}
		j := prod >> 32
		cards[i], cards[j] = cards[j], cards[i]
	}
}
