package strategy

import (
	"math"
	"testing"
)

// noMatchCount is NoMatchChance bit for bit on whole counts, inside its
// table and past it (the counter's decisions depend on it).
func TestNoMatchCountIsNoMatchChance(t *testing.T) {
	for u := -2; u <= fallingJ+8; u++ {
		for k := -1; k <= u+2; k++ {
			for h := -1; h <= fallingM+4; h++ {
				got, want := noMatchCount(u, k, h), NoMatchChance(float64(u), float64(k), h)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("noMatchCount(%d, %d, %d) = %v, NoMatchChance %v", u, k, h, got, want)
				}
			}
		}
	}
}
