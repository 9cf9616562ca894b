package engine_test

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

var update = flag.Bool("update", false, "rewrite the golden bench signature")

func newGame(tb testing.TB, r engine.RuleSet, players int, spec string, sets ...string) *engine.Game {
	tb.Helper()
	o := engine.DefaultOptions(r)
	for _, s := range sets {
		name, v, _ := strings.Cut(s, "=")
		if err := o.Set(name, v); err != nil {
			tb.Fatal(err)
		}
	}
	sp := strategy.MustParse(spec)
	ss := make([]engine.Strategy, players)
	for i := range ss {
		ss[i] = sp.New()
	}
	g, err := engine.NewGame(o, ss)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// A whole game allocates nothing, for every rule set and both built-in
// strategies (no t.Parallel: AllocsPerRun needs the process quiet).
func TestGameDoesNotAllocate(t *testing.T) {
	for r := engine.Classic; r < engine.NumRuleSets; r++ {
		for _, spec := range []string{"random", "heuristic", "heuristic:bluff=0.5,forget=0.5,challenge=always"} {
			for _, n := range []int{2, 4, 10} {
				g := newGame(t, r, n, spec)
				i := uint64(0)
				allocs := testing.AllocsPerRun(200, func() {
					g.Play(1, i)
					i++
				})
				if allocs != 0 {
					t.Errorf("%s, %d players, %s: %v allocations per game", r, n, spec, allocs)
				}
			}
		}
	}
	g := newGame(t, engine.Classic, 4, "heuristic", "scoring=winner-takes")
	if allocs := testing.AllocsPerRun(50, func() { g.Play(2, 3) }); allocs != 0 {
		t.Errorf("a match allocates %v", allocs)
	}
}

// The number of Wild and Wild Draw Four cards in a dealt 7-card hand is
// hypergeometric: 8 wilds among 108 cards. P(none) = C(100,7)/C(108,7) =
// 0.5741. Dealt hands must match by a chi-square test (fixed seed).
func TestDealtWildsAreHypergeometric(t *testing.T) {
	const games = 20000
	g := newGame(t, engine.Classic, 4, "random")
	var observed [4]float64 // 0, 1, 2, 3 or more wilds
	for i := range uint64(games) {
		g.Reset(42, i)
		g.StartRound()
		h := g.Hand(2) // seat 2 is untouched by the first card's effects
		w := h.Count(engine.WildCard(engine.Wild)) + h.Count(engine.WildCard(engine.WildDrawFour))
		observed[min(w, 3)]++
	}
	hyper := func(k int) float64 { return binom(8, k) * binom(100, 7-k) / binom(108, 7) }
	expected := [4]float64{hyper(0), hyper(1), hyper(2), 0}
	expected[3] = 1 - expected[0] - expected[1] - expected[2]
	if p0 := expected[0]; p0 < 0.5740 || p0 > 0.5742 {
		t.Fatalf("P(no wild) = %.4f, want 0.5741", p0)
	}
	chi2 := 0.0
	for k := range observed {
		e := expected[k] * games
		chi2 += (observed[k] - e) * (observed[k] - e) / e
	}
	p := 1 - distuv.ChiSquared{K: 3}.CDF(chi2)
	if p < 0.001 {
		t.Fatalf("dealt wilds %v differ from hypergeometric %v: chi2 %.2f, p %.5f", observed, expected, chi2, p)
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// The deal depends only on (seed, game): another strategy or option sees
// the same hands (common random numbers).
func TestDealIndependentOfStrategiesAndOptions(t *testing.T) {
	a := newGame(t, engine.Classic, 4, "random")
	b := newGame(t, engine.Classic, 4, "heuristic:bluff=1", "stack-draw-two=true", "max-turns=9")
	for i := range uint64(50) {
		a.Play(5, i)
		b.Play(5, i)
		a.Reset(5, i)
		b.Reset(5, i)
		a.StartRound()
		b.StartRound()
		for p := 0; p < 4; p++ {
			if a.Hand(p).Hand() != b.Hand(p).Hand() {
				t.Fatalf("game %d: seat %d dealt %v and %v", i, p, a.Hand(p), b.Hand(p))
			}
		}
	}
}

// The same (seed, game) plays the same game, whatever was played before.
func TestGamesAreReproducible(t *testing.T) {
	g1 := newGame(t, engine.Classic, 5, "heuristic:bluff=0.3,forget=0.2")
	g2 := newGame(t, engine.Classic, 5, "heuristic:bluff=0.3,forget=0.2")
	for i := range uint64(200) {
		g1.Play(9, i+1000) // disturb g1's history
		r1 := *g1.Play(9, i)
		r2 := *g2.Play(9, i)
		if r1 != r2 {
			t.Fatalf("game %d: %+v != %+v", i, r1, r2)
		}
	}
}

// signature summarizes a fixed set of seeded games; any change of behaviour
// changes it.
func signature(t testing.TB) string {
	var b strings.Builder
	for _, c := range []struct {
		r       engine.RuleSet
		players int
		spec    string
		sets    []string
	}{
		{engine.Classic, 4, "random", nil},
		{engine.Classic, 2, "heuristic", nil},
		{engine.Classic, 6, "heuristic:bluff=0.4,forget=0.3,challenge=seen", []string{"guilty-takes-back=true"}},
		{engine.Classic, 4, "heuristic", []string{"scoring=winner-takes"}},
		{engine.Classic, 3, "random", []string{"draw=until-playable", "forced-play=true", "start-card=flip-until-number"}},
		{engine.Classic, 4, "random", []string{"stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "jump-in=any", "seven-zero=true", "deck=classic,wild-swap-hands=4"}},
		{engine.Classic, 5, "heuristic:bluff=0.3", []string{"deflect-draw-two=true", "deflect-draw-four=true", "deflect-skip=true", "play-for-places=true", "no-finish-on-action=true"}},
		{engine.Party, 7, "heuristic", nil},
		{engine.Party, 3, "random", []string{"start-card=official"}},
		{engine.Encanto, 4, "heuristic:forget=0.3", []string{"scoring=losers-accumulate", "target=200"}},
	} {
		g := newGame(t, c.r, c.players, c.spec, c.sets...)
		var wins [engine.MaxPlayers]int
		var turns, drawn, played int
		var counts [engine.NumCounters]int
		outcomes := map[engine.Outcome]int{}
		for i := range uint64(2000) {
			r := g.Play(2026, i)
			if r.Winner >= 0 {
				wins[r.Winner]++
			}
			turns += r.Turns
			drawn += r.CardsDrawn
			played += r.CardsPlayed
			outcomes[r.Outcome]++
			for k, v := range r.Count {
				counts[k] += v
			}
		}
		fmt.Fprintf(&b, "%s %dp %s %v: wins %v turns %d drawn %d played %d outcomes %v counts %v\n",
			c.r, c.players, c.spec, c.sets, wins[:c.players], turns, drawn, played, outcomes, counts)
	}
	return b.String()
}

// TestBenchSignature pins the outcome of fixed seeded games. If a change of
// behaviour is intended, rerun with -update and review the diff.
func TestBenchSignature(t *testing.T) {
	got := signature(t)
	const golden = "testdata/signature.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./engine -run BenchSignature -update)", err)
	}
	if got != string(want) {
		t.Fatalf("bench signature changed (sha256 %x):\n got: %s\nwant: %s", sha256.Sum256([]byte(got)), got, want)
	}
}

// BenchmarkGame measures whole games per second on one goroutine: classic
// with 2, 4 and 10 players, Party with 8 and Encanto with 4, for both
// built-in strategies.
func BenchmarkGame(b *testing.B) {
	tables := []struct {
		r engine.RuleSet
		n int
	}{{engine.Classic, 2}, {engine.Classic, 4}, {engine.Classic, 10}, {engine.Party, 8}, {engine.Encanto, 4}}
	for _, spec := range []string{"random", "heuristic", "counter"} {
		for _, tc := range tables {
			b.Run(fmt.Sprintf("%s/%dp/%s", tc.r, tc.n, spec), func(b *testing.B) {
				g := newGame(b, tc.r, tc.n, spec)
				b.ReportAllocs()
				turns := 0
				i := uint64(0)
				for b.Loop() {
					turns += g.Play(1, i).Turns
					i++
				}
				if turns < int(i) {
					b.Fatalf("%d turns in %d games: the benchmark measured nothing", turns, i)
				}
				b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(turns)/float64(i), "turns/game")
			})
		}
	}
}

// BenchmarkCounterTime measures the counter's time a game against the
// heuristic's on the tables of BenchmarkGame, on a machine whose speed
// drifts: it plays the same deals in chunks of about 2 ms, a heuristic chunk
// then a counter chunk, so that a slow spell slows both alike, and reports
// the ratio of the total times ("ratio"), the median of the chunks' ratios
// ("median-ratio") and the ratio of the fastest chunks ("fastest-ratio").
// Each b.N is one pair of chunks; run it with -benchtime 300x or so.
func BenchmarkCounterTime(b *testing.B) {
	tables := []struct {
		r      engine.RuleSet
		n, per int // players, games a chunk
	}{{engine.Classic, 2, 800}, {engine.Classic, 4, 600}, {engine.Classic, 10, 300}, {engine.Party, 8, 200}, {engine.Encanto, 4, 600}}
	for _, tc := range tables {
		b.Run(fmt.Sprintf("%s/%dp", tc.r, tc.n), func(b *testing.B) {
			h, c := newGame(b, tc.r, tc.n, "heuristic"), newGame(b, tc.r, tc.n, "counter")
			var th, tcn time.Duration
			var ratios []float64
			fastH, fastC := time.Duration(1<<62), time.Duration(1<<62)
			i := uint64(0)
			for b.Loop() {
				start := time.Now()
				for j := range uint64(tc.per) {
					h.Play(1, i+j)
				}
				mid := time.Now()
				for j := range uint64(tc.per) {
					c.Play(1, i+j)
				}
				dh, dc := mid.Sub(start), time.Since(mid)
				th, tcn = th+dh, tcn+dc
				fastH, fastC = min(fastH, dh), min(fastC, dc)
				ratios = append(ratios, float64(dc)/float64(dh))
				i += uint64(tc.per)
			}
			slices.Sort(ratios)
			b.ReportMetric(float64(tcn)/float64(th), "ratio")
			b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
			b.ReportMetric(float64(fastC)/float64(fastH), "fastest-ratio")
			b.ReportMetric(float64(fastH)/float64(tc.per), "heuristic-ns/game")
			b.ReportMetric(float64(fastC)/float64(tc.per), "counter-ns/game")
		})
	}
}

// Every event counter has a name and a description, and the README's table
// lists each with its description.
func TestCountersDocumented(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for c := engine.Counter(0); c < engine.NumCounters; c++ {
		name := c.String()
		if name == "" || c.Doc() == "" || seen[name] {
			t.Errorf("counter %d: name %q, doc %q", c, name, c.Doc())
		}
		seen[name] = true
		if row := fmt.Sprintf("| `%s` | %s |", name, c.Doc()); !strings.Contains(string(readme), row) {
			t.Errorf("the README's event table lacks %q", row)
		}
	}
}

// BenchmarkPlayout measures what a search strategy does per iteration:
// copy a classic 4-player position, determinize it for the seat to move, and
// play it out to the end with random. Two sets of positions: "midgame", the
// turn decision halfway through each of 64 random games (deals 0-63, seed 1),
// and "afterdraws", one position after 10 decisions that each took the last
// listed move (mostly draws, so its hands are large and it has more turns
// left than a whole average game).
func BenchmarkPlayout(b *testing.B) {
	o := engine.DefaultOptions(engine.Classic)
	r := &strategy.Random{}
	b.Run("midgame", func(b *testing.B) { benchPlayout(b, o, midgamePositions(b, o, r, 64), r) })
	b.Run("afterdraws", func(b *testing.B) { benchPlayout(b, o, []*engine.State{afterDraws(b, o)}, r) })
}

func benchPlayout(b *testing.B, o engine.Options, positions []*engine.State, r engine.Strategy) {
	g, err := engine.NewGame(o, []engine.Strategy{r, r, r, r})
	if err != nil {
		b.Fatal(err)
	}
	views := make([]engine.View, len(positions))
	before := 0
	for i, s := range positions {
		seat, _ := s.Pending()
		views[i] = s.View(seat)
		before += s.Turns()
	}
	var rng engine.Rand
	rng.Seed(1, 0, 0)
	turns, i := 0, 0
	for b.Loop() {
		views[i].Determinize(&g.State, &rng, nil)
		turns += g.PlayOut().Turns
		if i++; i == len(views) {
			i = 0
		}
	}
	if turns == 0 {
		b.Fatal("the playouts played nothing")
	}
	played := float64(turns) - float64(before)*float64(b.N)/float64(len(views))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(played/float64(b.N), "turns/playout")
}

// midgamePositions plays games 0..n-1 (seed 1) with r through the position
// API and returns, for each, the first turn decision at or after half its
// length in turns.
func midgamePositions(b *testing.B, o engine.Options, r engine.Strategy, n int) []*engine.State {
	var out []*engine.State
	buf := make([]engine.Move, 0, 256)
	for game := range uint64(n) {
		var turns []*engine.State
		s, err := engine.NewState(o, 4)
		if err != nil {
			b.Fatal(err)
		}
		s.Start(1, game)
		for !s.Over() {
			seat, d := s.Pending()
			if d == engine.DecideTurn && (len(turns) == 0 || turns[len(turns)-1].Turns() < s.Turns()) {
				c := new(engine.State)
				c.CopyFrom(s)
				turns = append(turns, c)
			}
			v := s.View(seat)
			moves := s.Moves(buf[:0])
			if err := s.Apply(moves[r.Decide(&v, moves)]); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, turns[len(turns)/2])
	}
	return out
}

func afterDraws(b *testing.B, o engine.Options) *engine.State {
	s, err := engine.NewState(o, 4)
	if err != nil {
		b.Fatal(err)
	}
	s.Start(1, 2)
	buf := make([]engine.Move, 0, 256)
	for range 10 {
		moves := s.Moves(buf[:0])
		if err := s.Apply(moves[len(moves)-1]); err != nil || s.Over() {
			b.Fatal("the position ended early")
		}
	}
	return s
}
