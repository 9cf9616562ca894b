package tune

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// TestTournamentCounts: in 2 players every finished game is a win of one
// side, so each pair's counts add up to its games; the weaker random loses
// to the heuristic; the result does not depend on the workers.
func TestTournamentCounts(t *testing.T) {
	specs := []strategy.Spec{strategy.MustParse("random"), strategy.MustParse("heuristic"), strategy.MustParse("heuristic:bluff=0.5")}
	var first [][]int64
	for _, w := range []int{1, 2} {
		tr := &Tournament{Options: engine.DefaultOptions(engine.Classic), Players: 2, Strategies: specs, Deals: 300, Seed: 2, Workers: w}
		ms, err := tr.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		beat := Beat(len(specs), ms)
		for i := range specs {
			for j := i + 1; j < len(specs); j++ {
				if beat[i][j]+beat[j][i] != 600 {
					t.Errorf("pair %d-%d: %d + %d games, want 600", i, j, beat[i][j], beat[j][i])
				}
			}
		}
		if beat[0][1] >= beat[1][0] {
			t.Errorf("random beat the heuristic %d times to %d", beat[0][1], beat[1][0])
		}
		if first == nil {
			first = beat
		} else {
			for i := range beat {
				for j := range beat[i] {
					if beat[i][j] != first[i][j] {
						t.Errorf("workers 2 differ: %v vs %v", beat, first)
					}
				}
			}
		}
		if tr.Games() != 3*600 {
			t.Errorf("Games() = %d", tr.Games())
		}
	}
}

// slowAlone plays deals [0, deals) of seed with engine games, a alone in
// every seat in turn against players-1 of b, and counts a's wins per deal
// and the games b won: the obvious twin of a match.
func slowAlone(t *testing.T, opts engine.Options, players int, a, b strategy.Spec, seed uint64, deals int64) (wins, tableWins int64, perDeal []int64) {
	t.Helper()
	for d := range deals {
		w := int64(0)
		for rot := range players {
			ss := make([]engine.Strategy, players)
			for s := range ss {
				if s == rot {
					ss[s] = a.New()
				} else {
					ss[s] = b.New()
				}
			}
			g, err := engine.NewGame(opts, ss)
			if err != nil {
				t.Fatal(err)
			}
			r := g.Play(seed, uint64(d))
			if r.Won(rot) {
				w++
			} else if r.Winners != 0 {
				tableWins++
			}
		}
		wins += w
		perDeal = append(perDeal, w)
	}
	return wins, tableWins, perDeal
}

// TestTournamentAloneAgainstSlowTwin: with 3 players, each direction's
// alone-against-a-table wins, per deal, and the table's wins equal a direct
// count over engine games built afresh for every game; with 2 players the
// reverse rate is the opponent's wins of the same games. The rate is wins
// over all games, and its interval and test are the one-sample t over
// deals computed by hand (per-deal wins minus 1) here.
func TestTournamentAloneAgainstSlowTwin(t *testing.T) {
	opts := engine.DefaultOptions(engine.Classic)
	specs := []strategy.Spec{strategy.MustParse("random"), strategy.MustParse("heuristic")}
	for _, n := range []int{2, 3} {
		const deals = 40
		tr := &Tournament{Options: opts, Players: n, Strategies: specs, Deals: deals, Seed: 11, Workers: 2}
		ms, err := tr.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != tr.Directions() {
			t.Fatalf("%d players: %d matches", n, len(ms))
		}
		rates := Alone(n, ms)
		if len(rates) != 2 {
			t.Fatalf("%d players: %d rates, want 2", n, len(rates))
		}
		for _, r := range rates {
			var wins int64
			var perDeal []int64
			if n == 2 && r.Alone == 1 {
				// The reverse of match (0 alone, 1): 1's wins are the table's.
				_, tw, _ := slowAlone(t, opts, n, specs[0], specs[1], 11, deals)
				wins = tw
			} else {
				wins, _, perDeal = slowAlone(t, opts, n, specs[r.Alone], specs[r.Table], 11, deals)
			}
			if r.Wins != wins || r.Games != deals*int64(n) || r.WinRate != float64(wins)/float64(deals*n) {
				t.Errorf("%d players, %d alone: %d wins of %d games (rate %v), slow twin %d of %d", n, r.Alone, r.Wins, r.Games, r.WinRate, wins, deals*n)
			}
			if perDeal == nil {
				continue
			}
			// The t interval by hand: mean and sample SD of W-1 over deals.
			var s, s2 float64
			for _, w := range perDeal {
				s += float64(w - 1)
			}
			m := s / deals
			for _, w := range perDeal {
				s2 += (float64(w-1) - m) * (float64(w-1) - m)
			}
			se := math.Sqrt(s2/(deals-1)) / math.Sqrt(deals)
			const t39 = 2.022691 // Student t quantile 0.975, 39 degrees of freedom (R: qt(0.975, 39) = 2.022691)
			lo, hi := 1/float64(n)+(m-t39*se)/float64(n), 1/float64(n)+(m+t39*se)/float64(n)
			if math.Abs(r.CI[0]-lo) > 1e-6 || math.Abs(r.CI[1]-hi) > 1e-6 {
				t.Errorf("%d players, %d alone: CI %v, by hand [%v, %v]", n, r.Alone, r.CI, lo, hi)
			}
			if (r.CI[0] > r.Fair || r.CI[1] < r.Fair) != (r.P < 0.05) {
				t.Errorf("%d players: interval %v and p %v disagree about the fair share %v", n, r.CI, r.P, r.Fair)
			}
		}
	}
}

// TestTournamentBudgetsAndResume: a strategy's cap makes its pairs play
// the smaller budget; a tournament given some matches as done plays only
// the rest, to the same matches as a whole run.
func TestTournamentBudgetsAndResume(t *testing.T) {
	specs := []strategy.Spec{strategy.MustParse("random"), strategy.MustParse("heuristic"), strategy.MustParse("counter")}
	mk := func() *Tournament {
		return &Tournament{Options: engine.DefaultOptions(engine.Classic), Players: 3, Strategies: specs, Deals: 30, DealsFor: []int64{0, 0, 10}, Seed: 4, Workers: 1}
	}
	whole, err := mk().Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != 6 {
		t.Fatalf("%d matches, want 6", len(whole))
	}
	for _, m := range whole {
		want := int64(30)
		if m.Alone == 2 || m.Table == 2 {
			want = 10
		}
		if m.Deals != want || m.Wins.N != want {
			t.Errorf("match %d alone vs %d: %d deals, want %d", m.Alone, m.Table, m.Deals, want)
		}
	}
	tr := mk()
	if tr.Games() != (2*30+4*10)*3 {
		t.Errorf("Games() = %d", tr.Games())
	}
	tr.Done = whole[:2]
	var played int
	tr.OnMatch = func(Match) error { played++; return nil }
	rest, err := tr.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if played != 4 || len(rest) != 6 {
		t.Fatalf("resumed: %d played, %d in all", played, len(rest))
	}
	for i := range whole {
		if rest[i] != whole[i] {
			t.Errorf("match %d: resumed %+v, whole %+v", i, rest[i], whole[i])
		}
	}
	// Any subset as the checkpoint, not only both directions of a pair:
	// each match is played exactly once, and every match is the whole
	// run's.
	for _, done := range [][]Match{whole[:1], whole[1:2], whole[:3], {whole[3], whole[0]}, whole} {
		tr := mk()
		tr.Done = done
		all, err := tr.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != len(whole) {
			t.Errorf("resumed from %d matches: %d in all, want %d", len(done), len(all), len(whole))
			continue
		}
		seen := map[[2]int]bool{}
		for _, m := range all {
			if !slices.Contains(whole, m) || seen[[2]int{m.Alone, m.Table}] {
				t.Errorf("resumed from %d matches: %+v is not the whole run's, or played twice", len(done), m)
			}
			seen[[2]int{m.Alone, m.Table}] = true
		}
	}
	if err := tr.CheckMatches(whole); err != nil {
		t.Error(err)
	}
	bad := append([]Match(nil), whole...)
	bad[0].Deals = 7
	if err := tr.CheckMatches(bad); err == nil {
		t.Error("a match of another tournament accepted")
	}
}
