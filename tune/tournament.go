package tune

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// Tournament is a round robin of strategies on duplicate deals. With 2
// players a pair's games are head to head, each deal with each strategy in
// both seats; with more, one direction puts the first strategy alone
// against a table of the second, the other the reverse, on the same deals,
// and a game counts as a win of whichever of the two its winner plays
// (games without a winner count for neither). Every pair plays the same
// deals (from deal 0): duplicate across the whole tournament. It is what
// `unosim tournament` and the tournament experiments (the built-in
// strength and strategy-tournament) play.
type Tournament struct {
	Options    engine.Options
	Players    int
	Strategies []strategy.Spec
	Deals      int64 // deals per pair and direction
	// DealsFor (nil, or one per strategy; 0: Deals) caps a strategy's
	// deals per pair and direction: a pair plays the smaller budget of its
	// two strategies, so an expensive search player can take part.
	DealsFor []int64
	Seed     uint64
	Workers  int
	// Progress (may be nil) gets the games done so far of Games(), about
	// every Interval (0: a second).
	Progress func(done int64)
	Interval time.Duration
	// Done are matches already played (a checkpoint): Play skips them.
	Done []Match
	// OnMatch (may be nil) is given every match when it is played; an
	// error stops the tournament (a checkpoint that cannot be written).
	OnMatch func(Match) error
}

// Match is one direction of a pair: strategy Alone in one seat against a
// table of Table in every other (with 2 players, the pair's head-to-head
// games), every deal in every seat rotation.
type Match struct {
	Alone int    `json:"alone"`
	Table int    `json:"table"`
	Deals int64  `json:"deals"`
	Wins  Scores `json:"wins"` // per deal: the games Alone won (Per = Players)
	Lost  Scores `json:"lost"` // per deal: the games the table won and Alone did not
}

// Directions is 1 with 2 players, else 2.
func (t *Tournament) Directions() int {
	if t.Players > 2 {
		return 2
	}
	return 1
}

// PairDeals is the number of deals pair (i, j) plays in each direction.
func (t *Tournament) PairDeals(i, j int) int64 {
	d := t.Deals
	for _, k := range []int{i, j} {
		if k < len(t.DealsFor) && t.DealsFor[k] > 0 {
			d = min(d, t.DealsFor[k])
		}
	}
	return d
}

// Games is the number of games the tournament plays.
func (t *Tournament) Games() int64 {
	g := int64(0)
	k := len(t.Strategies)
	for i := range k {
		for j := i + 1; j < k; j++ {
			g += int64(t.Directions()) * t.PairDeals(i, j) * int64(t.Players)
		}
	}
	return g
}

// Play plays every match not in Done, in a fixed order, and returns all of
// them (Done's first).
func (t *Tournament) Play(ctx context.Context) ([]Match, error) {
	k := len(t.Strategies)
	matches := append([]Match(nil), t.Done...)
	done := int64(0)
	for _, m := range t.Done {
		done += m.Deals * int64(t.Players)
	}
	played := func(a, b int) bool {
		for _, m := range t.Done {
			if m.Alone == a && m.Table == b {
				return true
			}
		}
		return false
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			for d := range t.Directions() {
				focus, opp := i, j
				if d == 1 {
					focus, opp = j, i
				}
				if played(focus, opp) {
					continue
				}
				m, err := t.match(ctx, focus, opp, done)
				if err != nil {
					return nil, err
				}
				matches = append(matches, m)
				done += m.Deals * int64(t.Players)
				if t.OnMatch != nil {
					if err := t.OnMatch(m); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return matches, nil
}

func (t *Tournament) match(ctx context.Context, focus, opp int, done int64) (Match, error) {
	f := Field{Options: t.Options, Players: t.Players}
	for range t.Players - 1 {
		f.Opponents = append(f.Opponents, t.Strategies[opp])
	}
	r, err := NewRunner(f, []strategy.Spec{t.Strategies[focus]}, t.Seed, t.Workers)
	if err != nil {
		return Match{}, err
	}
	defer r.Close()
	var progress func(int64)
	if t.Progress != nil {
		progress = func(g int64) { t.Progress(done + g) }
	}
	deals := t.PairDeals(focus, opp)
	every := t.Interval
	if every <= 0 {
		every = progressEvery
	}
	out, err := r.Play(ctx, 0, deals, progress, every)
	if err != nil {
		return Match{}, err
	}
	return Match{Alone: focus, Table: opp, Deals: deals, Wins: out.Units[0], Lost: out.LostUnits[0]}, nil
}

// Beat is wins[i][j], the games i won against j over the matches, ready
// for [BradleyTerry]: in a match, Alone's wins count against Table, and the
// table's against Alone.
func Beat(k int, matches []Match) [][]int64 {
	beat := make([][]int64, k)
	for i := range beat {
		beat[i] = make([]int64, k)
	}
	for _, m := range matches {
		beat[m.Alone][m.Table] += m.Wins.Sum
		beat[m.Table][m.Alone] += m.Lost.Sum
	}
	return beat
}

// AloneRate is a strategy's win rate alone against a table of another (with
// 2 players: head to head, in both seats), over all games (a game without a
// winner is a loss), tested against the fair share 1/Players.
type AloneRate struct {
	Alone, Table int
	Games        int64
	Wins         int64
	WinRate      float64
	CI           [2]float64 // 95%, Student t over deals
	Fair         float64
	P            float64 // two-sided, the t test of WinRate = Fair over deals (NaN when not testable)
	PHolm        float64 // P adjusted by Holm's method over the tournament's tests (NaN when not testable)
	// NotTestable says why the t test cannot be made (fewer than 2 deals,
	// or every deal gave the same result: no variance, so no t statistic);
	// such a rate has P and PHolm NaN and is left out of Holm's family.
	NotTestable string
}

// The reasons of AloneRate.NotTestable.
const (
	NotTestableFewDeals = "fewer than 2 deals"
	NotTestableSame     = "every deal gave the same result: with no variance the t test is undefined"
)

// Alone is the alone-against-a-table win rate of every ordered pair that
// played, in the order of the matches; with 2 players the reverse of each
// match comes from the same games (the table's wins, head to head).
//
// A deal's Players games are correlated (the same cards in every seat), so
// the interval and the test are over deals: the per-deal wins W minus the
// fair share's Players·(1/Players) = 1 win, a one-sample t (the paired
// t-test of the experiments, analysis.PairedSums, against a constant), so
// the interval excludes the fair share exactly when p < 0.05.
//
// The tests are one family, adjusted by Holm's method (PHolm): a
// tournament asks of every ordered pair whether it is off the fair share.
// A test that cannot be made is left out, as in the experiments: fewer
// than 2 deals, or no variance (every deal gave the same result, as when
// two strategies play identically), where the t statistic is 0/0 or c/0
// and its limits p = 1 or 0 are no test (R's t.test refuses such data).
// With 2 players, when every game of a pair had a winner the reverse rate
// is 1 minus the other per deal (t' = -t, the same p): it is one
// hypothesis, counted once, and the reverse gets the same PHolm.
func Alone(players int, matches []Match) []AloneRate {
	var out []AloneRate
	for _, m := range matches {
		out = append(out, aloneRate(players, m.Alone, m.Table, m.Wins))
		if players == 2 {
			out = append(out, aloneRate(players, m.Table, m.Alone, m.Lost))
		}
	}
	HolmAlone(players, out)
	return out
}

// HolmAlone sets the PHolm of rates, in the order [Alone] gives them, from
// their other fields (so a result written before PHolm existed can be
// adjusted again).
func HolmAlone(players int, rates []AloneRate) {
	// With 2 players a reverse rate follows its pair's. A game counts for
	// at most one side, so the wins add up to the games only if they do in
	// every deal.
	mirror := func(i int) bool {
		if players != 2 || i%2 == 0 {
			return false
		}
		a, b := &rates[i-1], &rates[i]
		return a.Alone == b.Table && a.Table == b.Alone && a.Games == b.Games && a.Wins+b.Wins == a.Games
	}
	ps := make([]float64, len(rates))
	same := make([]int, len(rates))
	for i := range rates {
		ps[i], same[i] = rates[i].P, -1
		if mirror(i) {
			same[i] = i - 1
		}
	}
	for i, p := range analysis.HolmMirrored(ps, same) {
		rates[i].PHolm = p
	}
}

func aloneRate(players, a, b int, w Scores) AloneRate {
	n := float64(players)
	r := AloneRate{Alone: a, Table: b, Games: w.N * w.Per, Wins: w.Sum, Fair: 1 / n, P: math.NaN(), PHolm: math.NaN()}
	if w.N == 0 {
		r.WinRate, r.CI = math.NaN(), [2]float64{math.NaN(), math.NaN()}
		return r
	}
	r.WinRate = float64(w.Sum) / float64(r.Games)
	// d = W - 1 per deal: Σd = Sum - N, Σd² = SumSq - 2 Sum + N.
	t := analysis.PairedSums(w.N, w.Sum-w.N, uint64(w.SumSq-2*w.Sum+w.N)).Test(sim.Confidence)
	r.CI = [2]float64{r.Fair + t.Lo/n, r.Fair + t.Hi/n}
	if r.NotTestable = notTestable(t); r.NotTestable == "" && !math.IsNaN(t.P) {
		r.P = t.P
	}
	return r
}

// CheckMatches reports whether a checkpoint's matches belong to t.
func (t *Tournament) CheckMatches(ms []Match) error {
	k := len(t.Strategies)
	seen := map[[2]int]bool{}
	for _, m := range ms {
		if m.Alone < 0 || m.Alone >= k || m.Table < 0 || m.Table >= k || m.Alone == m.Table || seen[[2]int{m.Alone, m.Table}] ||
			m.Deals != t.PairDeals(m.Alone, m.Table) || m.Wins.N != m.Deals || m.Wins.Per != int64(t.Players) ||
			(t.Players == 2 && m.Alone > m.Table) {
			return fmt.Errorf("match %d against %d (%d deals) is not one of this tournament's", m.Alone, m.Table, m.Deals)
		}
		seen[[2]int{m.Alone, m.Table}] = true
	}
	return nil
}

// Named is the indices of the strategies that key names: a strategy as
// written (in any spelling of its spec), or a name, for every strategy of
// that name.
func Named(specs []strategy.Spec, key string) []int {
	canon := key
	if sp, err := strategy.Parse(key); err == nil {
		canon = sp.String()
	}
	var out []int
	for i, sp := range specs {
		name, _, _ := strings.Cut(sp.String(), ":")
		if sp.String() == canon || name == key {
			out = append(out, i)
		}
	}
	return out
}
