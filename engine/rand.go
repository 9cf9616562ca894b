package engine

import "math/bits"

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

// Rand is a small value-type generator reseeded in place for each stream, so
// nothing is allocated per game. It is xoroshiro128++ (Blackman and Vigna,
// "Scrambled linear pseudorandom number generators", 2021): 128 bits of state,
// period 2^128-1, passes BigCrush and PractRand, and costs a third of the
// instructions of math/rand/v2's PCG-DXSM on the engine's hot path, where
// about a hundred numbers are drawn per game. Streams start at states
// derived by splitmix64 from their keys, as its authors recommend; with a
// period of 2^128, streams of different keys do not overlap in practice.
type Rand struct{ s0, s1 uint64 }

// mix is the splitmix64 finalizer (Steele, Lea and Flood 2014), a bijection
// that spreads nearby keys over the whole 64-bit range.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// gameKey is the key of game index of the run keyed by seed; every stream of
// that game derives from it.
func gameKey(seed, game uint64) uint64 { return mix(mix(seed) ^ game) }

// Seed sets r to the stream keyed by (seed, game, purpose).
func (r *Rand) Seed(seed, game uint64, purpose Purpose) { r.seedFrom(gameKey(seed, game), purpose) }

func (r *Rand) seedFrom(key uint64, purpose Purpose) {
	r.s0 = mix(key ^ uint64(purpose))
	r.s1 = mix(r.s0 ^ 0x6a09e667f3bcc909)
	if r.s0|r.s1 == 0 {
		r.s1 = 1 // the one state xoroshiro must avoid
	}
}

// Uint64 returns a uniformly random 64-bit value.
func (r *Rand) Uint64() uint64 {
	s0, s1 := r.s0, r.s1
	out := bits.RotateLeft64(s0+s1, 17) + s0
	s1 ^= s0
	r.s0 = bits.RotateLeft64(s0, 49) ^ s1 ^ (s1 << 21)
	r.s1 = bits.RotateLeft64(s1, 28)
	return out
}

// IntN returns a uniform integer in [0, n); n must be positive. It uses
// Lemire's multiply-and-reject method (Lemire 2019, "Fast random integer
// generation in an interval"), which is exact.
func (r *Rand) IntN(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}

// Float64 returns a uniform float64 in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// Bernoulli reports true with probability p.
func (r *Rand) Bernoulli(p float64) bool {
	if p <= 0 {
		return false
	}
	return p >= 1 || r.Float64() < p
}

// ShuffleCards puts cards in uniformly random order (Fisher-Yates). Each
// 64-bit output gives four 16-bit draws, each bounded exactly with
// Lemire's method (multiply, and reject the rare low products that would
// bias the result); decks never exceed MaxDeck = 1024 < 2^16 cards.
func (r *Rand) ShuffleCards(cards []Card) {
	var buf uint64
	left := 0
	for i := len(cards) - 1; i > 0; i-- {
		n := uint32(i + 1)
		for {
			if left == 0 {
				buf, left = r.Uint64(), 4
			}
			prod := uint32(buf&0xffff) * n
			buf >>= 16
			left--
			if lo := prod & 0xffff; lo >= n || lo >= (1<<16-n)%n {
				j := prod >> 16
				cards[i], cards[j] = cards[j], cards[i]
				break
			}
		}
	}
}
