package tune

import (
	"context"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// Tournament is a round robin of strategies on duplicate deals. With 2
// players a pair's games are head to head, each deal with each strategy in
// both seats; with more, one direction puts the first strategy alone
// against a table of the second, the other the reverse, on the same deals,
// and a game counts as a win of whichever of the two its winner plays
// (games without a winner count for neither). Every pair plays the same
// deals: duplicate across the whole tournament.
type Tournament struct {
	Options    engine.Options
	Players    int
	Strategies []strategy.Spec
	Deals      int64 // deals per pair and direction
	Seed       uint64
	Workers    int
	// Progress (may be nil) gets the games done so far of Games().
	Progress func(done int64)
}

// Directions is 1 with 2 players, else 2.
func (t *Tournament) Directions() int {
	if t.Players > 2 {
		return 2
	}
	return 1
}

// Games is the number of games the tournament plays.
func (t *Tournament) Games() int64 {
	k := int64(len(t.Strategies))
	return k * (k - 1) / 2 * int64(t.Directions()) * t.Deals * int64(t.Players)
}

// Play plays every pair and returns beat[i][j], the games i won against j,
// ready for [BradleyTerry].
func (t *Tournament) Play(ctx context.Context) ([][]int64, error) {
	k := len(t.Strategies)
	beat := make([][]int64, k)
	for i := range beat {
		beat[i] = make([]int64, k)
	}
	done := int64(0)
	for i := range k {
		for j := i + 1; j < k; j++ {
			for d := range t.Directions() {
				focus, opp := i, j
				if d == 1 {
					focus, opp = j, i
				}
				f := Field{Options: t.Options, Players: t.Players}
				for range t.Players - 1 {
					f.Opponents = append(f.Opponents, t.Strategies[opp])
				}
				r, err := NewRunner(f, []strategy.Spec{t.Strategies[focus]}, t.Seed, t.Workers)
				if err != nil {
					return nil, err
				}
				defer r.Close()
				var progress func(int64)
				if t.Progress != nil {
					progress = func(g int64) { t.Progress(done + g) }
				}
				out, err := r.Play(ctx, 0, t.Deals, progress, progressEvery)
				if err != nil {
					return nil, err
				}
				beat[focus][opp] += out.Wins[0]
				beat[opp][focus] += out.Lost[0]
				done += t.Deals * int64(t.Players)
			}
		}
	}
	return beat, nil
}
