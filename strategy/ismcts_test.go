package strategy

// ismcts tests live inside the package: they read the search's
// determinizations through its test hook. They build ismcts with
// NewISMCTS and ismctsInfo rather than the registry, so that the
// registry's contents stay what the other tests expect.

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/unosim/unosim/engine"
)

// decision is one decision a watched search made.
type decision struct {
	d engine.Decision
	m engine.Move
}

// searcher plays a seat with an ISMCTS and records its decisions; it
// passes the observation feed on.
type searcher struct {
	s   *ISMCTS
	log []decision
}

func (w *searcher) Decide(v *engine.View, moves []engine.Move) int {
	i := w.s.Decide(v, moves)
	w.log = append(w.log, decision{v.Decision(), moves[i]})
	return i
}
func (w *searcher) Begin(v *engine.View)                   { w.s.Begin(v) }
func (w *searcher) Observe(v *engine.View, e engine.Event) { w.s.Observe(v, e) }

// stacked is deck's cards with first on top, then the rest in kind order.
func stacked(t *testing.T, deck engine.Deck, first ...engine.Card) []engine.Card {
	t.Helper()
	left := deck
	order := append([]engine.Card(nil), first...)
	for _, c := range first {
		if left[c]--; left[c] < 0 {
			t.Fatalf("the deck holds too few %s", c)
		}
	}
	for k, n := range left {
		for range n {
			order = append(order, engine.Card(k))
		}
	}
	return order
}

// twoSeatPosition plays a two-player round of opts from a stacked deck in
// which seat 1 (the dealer, who acts first) holds red 7 and green 2 and
// seat 0 holds mine, over a red 4: seat 1's random plays its only
// playable card, red 7, and seat 0 is left to play against one hidden card.
// It returns seat 0's decisions and the result.
func twoSeatPosition(t *testing.T, opts engine.Options, s *ISMCTS, mine [2]engine.Card) ([]decision, *engine.Result) {
	t.Helper()
	opts.HandSize = 2
	opts.FirstPlayer = engine.DealerStarts
	w := &searcher{s: s}
	g, err := engine.NewGame(opts, []engine.Strategy{w, &Random{}})
	if err != nil {
		t.Fatal(err)
	}
	red := func(sym engine.Symbol) engine.Card { return engine.MakeCard(engine.Red, sym) }
	// Dealing starts left of the dealer: seat 0, seat 1, seat 0, seat 1;
	// then the first discard.
	order := stacked(t, opts.Deck, mine[0], red(engine.Seven), mine[1], engine.MakeCard(engine.Green, engine.Two), red(engine.Four))
	if err := g.StackDeck(order); err != nil {
		t.Fatal(err)
	}
	res := g.Play(1, 0)
	return w.log, res
}

// With two cards, a Skip and a red 3, on a red discard against an opponent
// holding one card, the Skip wins for certain (with two players it
// returns the turn): the 3 first lets the opponent play with about a
// third's chance (35 of the 104 unseen cards play on a red 3). Then the
// last card is played rather than drawing.
func TestISMCTSPlaysTheWinningSequence(t *testing.T) {
	for _, opp := range []bool{false, true} {
		s := NewISMCTS(2000, 0.7, MustParse("random"), false, opp)
		skip, three := engine.MakeCard(engine.Red, engine.Skip), engine.MakeCard(engine.Red, engine.Three)
		log, res := twoSeatPosition(t, engine.DefaultOptions(engine.Classic), s, [2]engine.Card{skip, three})
		want := []decision{{engine.DecideTurn, engine.PlayMove(skip)}, {engine.DecideCallUNO, engine.SimpleMove(engine.MoveCallUNO)}, {engine.DecideTurn, engine.PlayMove(three)}}
		if fmt.Sprint(log) != fmt.Sprint(want) || !res.Won(0) {
			t.Errorf("opponents in the tree %v: decisions %v, won %v; want %v and a win", opp, log, res.Won(0), want)
		}
	}
}

// A deck whose only blue card and only wild are in seat 0's hand: the
// opponent's one card (whatever it is) cannot be blue, as seat 0 deduces
// from the deck and the discard pile. Playing the Wild and naming blue
// wins for certain (the opponent can neither play nor draw a blue card or
// a wild, and the blue 1 goes out next); naming another color lets the
// opponent play with a card of that color.
func TestISMCTSNamesTheColorTheOpponentLacks(t *testing.T) {
	deck := engine.ClassicDeck()
	for sym := engine.Zero; sym < engine.FirstWild; sym++ {
		deck[engine.MakeCard(engine.Blue, sym)] = 0
	}
	blue1, wild := engine.MakeCard(engine.Blue, engine.One), engine.WildCard(engine.Wild)
	deck[blue1], deck[wild], deck[engine.WildCard(engine.WildDrawFour)] = 1, 1, 0
	opts := engine.DefaultOptions(engine.Classic)
	opts.Deck = deck
	for _, rollout := range []string{"random", "heuristic"} {
		s := NewISMCTS(2000, 0.7, MustParse(rollout), false, false)
		log, res := twoSeatPosition(t, opts, s, [2]engine.Card{wild, blue1})
		if len(log) < 2 || log[0] != (decision{engine.DecideTurn, engine.PlayMove(wild)}) ||
			log[1] != (decision{engine.DecideColor, engine.ColorMove(engine.Blue)}) || !res.Won(0) {
			t.Errorf("rollout %s: decisions %v, won %v; want the Wild, then blue, and a win", rollout, log, res.Won(0))
		}
	}
}

// Every determinization is consistent with the seat's view: its own hand,
// every hand's size, the piles and the current color are unchanged, the
// other hands and the draw pile hold exactly the cards the seat has not
// seen, and the cards it knows in other hands (from swaps and challenges)
// stay there. Checked at every iteration of short searches in games of
// several rule sets, including swaps, which make hands known.
func TestISMCTSDeterminizationsAreConsistent(t *testing.T) {
	cases := []struct {
		rules engine.RuleSet
		sets  []string
		n     int
	}{
		{engine.Classic, nil, 4},
		{engine.Classic, []string{"seven-zero=true", "challenge-penalty=2"}, 3},
		{engine.Party, nil, 5},
		{engine.Encanto, nil, 3},
	}
	for _, c := range cases {
		opts := engine.DefaultOptions(c.rules)
		for _, set := range c.sets {
			name, value, _ := cutEq(set)
			if err := opts.Set(name, value); err != nil {
				t.Fatal(err)
			}
		}
		s := NewISMCTS(8, 0.7, MustParse("heuristic"), false, false)
		checked, known := 0, 0
		s.check = func(v *engine.View, det *engine.State) {
			checked++
			seat := v.Seat()
			if err := det.Check(); err != nil {
				t.Fatalf("%v: a determinization breaks the engine's invariants: %v", c.rules, err)
			}
			if det.Top() != v.Top() || det.Color() != v.Color() || det.DrawPileSize() != v.DrawPileSize() ||
				det.DiscardSize() != v.DiscardSize() || det.Direction() != v.Direction() {
				t.Fatalf("%v: the piles or the color changed", c.rules)
			}
			if p, d := det.Pending(); p != seat || d != v.Decision() {
				t.Fatalf("%v: pending %d %v, want %d %v", c.rules, p, d, seat, v.Decision())
			}
			for k := range engine.Card(engine.NumCards) {
				unseen := v.DeckCount(k) - v.Hand().Count(k) - v.Discarded(k) - v.MiniPileCount(k)
				held := 0
				for p := range v.Players() {
					if p == seat {
						if det.Hand(p).Count(k) != v.Hand().Count(k) {
							t.Fatalf("%v: the seat's own %s count changed", c.rules, k)
						}
						continue
					}
					held += det.Hand(p).Count(k)
					if kn := s.know.Known(p, k); kn > 0 {
						known++
						if det.Hand(p).Count(k) < kn {
							t.Fatalf("%v: seat %d is known to hold %d %s, the determinization gives it %d", c.rules, p, kn, k, det.Hand(p).Count(k))
						}
					}
				}
				if held > unseen {
					t.Fatalf("%v: the other hands hold %d %s, only %d are unseen", c.rules, held, k, unseen)
				}
			}
			for p := range v.Players() {
				if det.Hand(p).Size() != v.HandSize(p) {
					t.Fatalf("%v: seat %d holds %d cards, the view shows %d", c.rules, p, det.Hand(p).Size(), v.HandSize(p))
				}
			}
		}
		specs := make([]engine.Strategy, c.n)
		specs[0] = s
		for p := 1; p < c.n; p++ {
			specs[p] = newHeuristic(defaultArgs(t, "heuristic"))
		}
		g, err := engine.NewGame(opts, specs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			g.Play(7, uint64(i))
		}
		if checked == 0 {
			t.Errorf("%v: no determinization checked", c.rules)
		}
		if len(c.sets) > 0 && known == 0 {
			t.Errorf("%v %v: the seat never knew a card of another hand; the knowledge check checked nothing", c.rules, c.sets)
		}
	}
}

func cutEq(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// defaultArgs are a registered strategy's default parameters.
func defaultArgs(t testing.TB, name string) Args {
	in, ok := Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	return infoArgs(in, nil)
}

// infoArgs are in's parameters: defaults, changed by sets.
func infoArgs(in Info, sets map[string]string) Args {
	vals := map[string]string{}
	for _, p := range in.Params {
		vals[p.Name] = p.Default
	}
	for k, v := range sets {
		vals[k] = v
	}
	return Args{vals}
}

// ismctsTable is a table with an ismcts (made by mk) at seat 0 and
// heuristics elsewhere.
func ismctsTable(t testing.TB, opts engine.Options, n int, s engine.Strategy) *engine.Game {
	t.Helper()
	specs := []engine.Strategy{s}
	for range n - 1 {
		specs = append(specs, newHeuristic(defaultArgs(t, "heuristic")))
	}
	g, err := engine.NewGame(opts, specs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The same seed gives the same games, whether the search player is fresh
// or has played other games before; another seed gives other games.
func TestISMCTSReproducible(t *testing.T) {
	opts := engine.DefaultOptions(engine.Classic)
	play := func(s *ISMCTS, seed uint64, from int) string {
		g := ismctsTable(t, opts, 3, s)
		out := ""
		for i := from; i < from+4; i++ {
			r := g.Play(seed, uint64(i))
			out += fmt.Sprintf("%d:%v/%d/%d/%d ", i, r.Winners, r.Turns, r.CardsPlayed, r.CardsDrawn)
		}
		return out
	}
	a := play(NewISMCTS(30, 0.7, MustParse("heuristic"), false, false), 11, 0)
	used := NewISMCTS(30, 0.7, MustParse("heuristic"), false, false)
	play(used, 5, 10)
	if b := play(used, 11, 0); a != b {
		t.Errorf("same seed, different games:\n%s\n%s", a, b)
	}
	if c := play(NewISMCTS(30, 0.7, MustParse("heuristic"), false, false), 12, 0); c == a {
		t.Errorf("another seed played the same games: %s", c)
	}
}

// Whole games allocate nothing once the search player is warmed up (its
// playout table is built at its first decision).
func TestISMCTSAllocatesNothing(t *testing.T) {
	for _, opp := range []bool{false, true} {
		s := NewISMCTS(40, 0.7, MustParse("heuristic"), false, opp)
		g := ismctsTable(t, engine.DefaultOptions(engine.Classic), 4, s)
		g.Play(3, 0)
		i := uint64(1)
		if a := testing.AllocsPerRun(5, func() { g.Play(3, i); i++ }); a != 0 {
			t.Errorf("opponents in the tree %v: %v allocations per game", opp, a)
		}
	}
}

// With a counter for rollouts, whose counters begin on the search's
// copies (no Game: no shared reading) and again at each playout (the
// playout table's shared reading), whole games allocate nothing either.
func TestISMCTSCounterRolloutAllocatesNothing(t *testing.T) {
	for _, r := range []engine.RuleSet{engine.Classic, engine.Party} {
		s := NewISMCTS(20, 0.7, MustParse("counter"), false, false)
		g := ismctsTable(t, engine.DefaultOptions(r), 4, s)
		g.Play(3, 0)
		i := uint64(1)
		if a := testing.AllocsPerRun(3, func() { g.Play(3, i); i++ }); a != 0 {
			t.Errorf("%s: %v allocations per game", r, a)
		}
	}
}

// ismcts plays every rule set with its house rules, with each objective
// and opponent model, without a fault.
func TestISMCTSPlaysEveryRuleSet(t *testing.T) {
	cases := []struct {
		rules engine.RuleSet
		sets  []string
		n     int
	}{
		{engine.Classic, []string{"jump-in=any", "stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "deflect-skip=true", "seven-zero=true", "play-for-places=true"}, 4},
		{engine.Classic, []string{"scoring=losers-accumulate", "target=150", "deflect-draw-four=true", "deflect-draw-two=true", "uno-penalty=4"}, 3},
		{engine.Party, nil, 6},
		{engine.Encanto, nil, 2},
	}
	for _, c := range cases {
		opts := engine.DefaultOptions(c.rules)
		for _, set := range c.sets {
			name, value, _ := cutEq(set)
			if err := opts.Set(name, value); err != nil {
				t.Fatal(err)
			}
		}
		for _, sets := range []map[string]string{
			{"iterations": "16"},
			{"iterations": "16", "objective": "places", "opponents": "tree", "rollout": "random"},
		} {
			s := newISMCTS(infoArgs(ismctsInfo(), sets))
			g := ismctsTable(t, opts, c.n, s)
			for i := range 3 {
				r := g.Play(9, uint64(i))
				if g.Err() != nil {
					t.Fatalf("%v %v %v: %v", c.rules, c.sets, sets, g.Err())
				}
				if r.Turns == 0 {
					t.Errorf("%v %v %v: game %d has no turns", c.rules, c.sets, sets, i)
				}
			}
		}
	}
}

// The registry entry: every parameter documented, the defaults and bounds
// the documentation states, and the rollout choices the strategies
// registered before it.
func TestISMCTSInfo(t *testing.T) {
	in := ismctsInfo()
	want := map[string]string{"iterations": "1000", "exploration": "0.7", "rollout": "heuristic", "objective": "win", "opponents": "rollout", "deviate": "2", "prior": "counter"}
	if len(in.Params) != len(want) {
		t.Fatalf("parameters %+v, want %v", in.Params, want)
	}
	for _, p := range in.Params {
		if p.Doc == "" || p.Values() == "" {
			t.Errorf("parameter %s is not documented", p.Name)
		}
		if d, err := p.canonical(p.Default); err != nil || d != want[p.Name] {
			t.Errorf("parameter %s: default %q (%v), want %q", p.Name, d, err, want[p.Name])
		}
	}
	rollout := findParam(in.Params, "rollout")
	for _, name := range []string{"random", "heuristic"} {
		if _, err := rollout.canonical(name); err != nil {
			t.Errorf("rollout %s refused: %v", name, err)
		}
	}
	if _, err := rollout.canonical("ismcts"); err == nil {
		t.Errorf("ismcts accepted as its own rollout")
	}
	s := newISMCTS(infoArgs(in, map[string]string{"iterations": "12.9", "exploration": "1.5", "rollout": "random", "opponents": "tree", "objective": "places"})).(*ISMCTS)
	if s.iterations != 12 || s.exploration != 1.5 || s.rollout.String() != "random" || !s.treeOpp || !s.places {
		t.Errorf("parameters not applied: %+v", s)
	}
}

// lnInt against math.Log (a different algorithm): within 2 ulp over the
// range the search uses, and exact at 1.
func TestLnInt(t *testing.T) {
	if lnInt(1) != 0 {
		t.Errorf("ln 1 = %v", lnInt(1))
	}
	for n := uint64(2); n < 1<<21; n += 1 + n/1000 {
		got, want := lnInt(n), math.Log(float64(n))
		if math.Abs(got-want) > 2*ulp(want) {
			t.Fatalf("lnInt(%d) = %.17g, math.Log = %.17g", n, got, want)
		}
	}
}

func ulp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }

// The search's cost: one ismcts with its default budget (rollout
// heuristic) against three heuristics, classic, four players; it reports
// games and searched decisions per second.
func BenchmarkISMCTSGame(b *testing.B) {
	iters := 1000
	if e := os.Getenv("UNOSIM_ISMCTS_ITERATIONS"); e != "" {
		iters, _ = strconv.Atoi(e)
	}
	rollout := "heuristic"
	if e := os.Getenv("UNOSIM_ISMCTS_ROLLOUT"); e != "" {
		rollout = e
	}
	s := MustParse(fmt.Sprintf("ismcts:iterations=%d,rollout=%s", iters, rollout)).New().(*ISMCTS) // the defaults otherwise
	g := ismctsTable(b, engine.DefaultOptions(engine.Classic), 4, s)
	g.Play(1, 0) // builds the playout table
	s.searches = 0
	b.ResetTimer()
	for i := range b.N {
		g.Play(1, uint64(i+1))
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(s.searches)/sec, "decisions/s")
}

// scripted plays a seat's first legal move everywhere but at a color, where
// its ISMCTS decides; it passes the observation feed on only when observe
// is set.
type scripted struct {
	s       *ISMCTS
	observe bool
	color   engine.Move
}

func (w *scripted) Decide(v *engine.View, moves []engine.Move) int {
	if v.Decision() != engine.DecideColor {
		return 0
	}
	i := w.s.Decide(v, moves)
	w.color = moves[i]
	return i
}
func (w *scripted) Begin(v *engine.View) {
	if w.observe {
		w.s.Begin(v)
	}
}
func (w *scripted) Observe(v *engine.View, e engine.Event) {
	if w.observe {
		w.s.Observe(v, e)
	}
}

// What a seat knows of another hand decides: with seven-zero, seat 0 plays
// red 7 and swaps its other card, green 5, for seat 1's Wild and green 2;
// seat 1 draws red 1 and plays it, so its one card is the green 5, as seat
// 0 knows. Seat 0 plays the Wild: naming green loses at once, though
// without that knowledge green is the natural color (the green 2 goes out
// next unless the one hidden card plays on it).
func TestISMCTSUsesWhatItKnows(t *testing.T) {
	opts := engine.DefaultOptions(engine.Classic)
	opts.HandSize, opts.SevenZero = 2, true
	red, green := func(s engine.Symbol) engine.Card { return engine.MakeCard(engine.Red, s) }, func(s engine.Symbol) engine.Card { return engine.MakeCard(engine.Green, s) }
	order := stacked(t, opts.Deck, red(engine.Seven), engine.WildCard(engine.Wild), green(engine.Five), green(engine.Two), red(engine.Four), red(engine.One))
	for _, observe := range []bool{true, false} {
		w := &scripted{s: NewISMCTS(3000, 0.7, MustParse("heuristic"), false, false), observe: observe}
		g, err := engine.NewGame(opts, []engine.Strategy{w, &Random{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.StackDeck(order); err != nil {
			t.Fatal(err)
		}
		g.Play(1, 0)
		greenNamed := w.color == engine.ColorMove(engine.Green)
		if observe && (w.color == 0 || greenNamed) {
			t.Errorf("knowing seat 1 holds green 5, seat 0 named %v", w.color)
		}
		if !observe && !greenNamed {
			t.Errorf("not knowing seat 1's card, seat 0 named %v, want green (the test would check nothing)", w.color)
		}
	}
}

// The deviation test against hand-computed values: means 0.6 and 0.4 over
// 100 visits each have variance 0.24/100 each, so the difference 0.2 is
// 0.2/sqrt(0.0048) = 2.887 standard errors: significant at 2 and 2.88,
// not at 2.89 or 3, and never for the lower mean. A mean of 1 or 0 counts
// the floor 0.01 as its m(1-m).
func TestISMCTSSignificant(t *testing.T) {
	a := &node{visits: 100, total: 60}
	b := &node{visits: 100, total: 40}
	for _, c := range []struct {
		z    float64
		want bool
	}{{2, true}, {2.88, true}, {2.89, false}, {3, false}} {
		s := &ISMCTS{deviate: c.z}
		if got := s.significant(a, b); got != c.want {
			t.Errorf("deviate %v: significant %v, want %v", c.z, got, c.want)
		}
		if s.significant(b, a) {
			t.Errorf("deviate %v: a lower mean is significant", c.z)
		}
	}
	// 10/10 against 0/10: variance (0.01+0.01)/10 = 0.002, difference 1,
	// 22.36 standard errors.
	hi, lo := &node{visits: 10, total: 10}, &node{visits: 10}
	if s := (&ISMCTS{deviate: 22.3}); !s.significant(hi, lo) {
		t.Error("22.3 standard errors: not significant")
	}
	if s := (&ISMCTS{deviate: 22.4}); s.significant(hi, lo) {
		t.Error("22.4 standard errors: significant")
	}
}

// ismcts with counter rollouts plays the games it played before the
// counter read a shared log (the rollout counters of the tree descent,
// begun on a copy no Game plays, keep the counts of their Begin): totals of
// 60 three-player games, seed 1, from `unosim simulate --players 3
// --strategy 'ismcts:iterations=30,rollout=counter,deviate=0' --strategy
// heuristic --strategy counter --games 60 --json` at commit 5906cf4.
func TestISMCTSCounterRolloutsPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("searches")
	}
	var ss []engine.Strategy
	for _, spec := range []string{"ismcts:iterations=30,rollout=counter,deviate=0", "heuristic", "counter"} {
		ss = append(ss, MustParse(spec).New())
	}
	g, err := engine.NewGame(engine.DefaultOptions(engine.Classic), ss)
	if err != nil {
		t.Fatal(err)
	}
	var wins [3]int
	turns, drawn := 0, 0
	for i := range uint64(60) {
		r := g.Play(1, i)
		if r.Winner >= 0 {
			wins[r.Winner]++
		}
		turns += r.Turns
		drawn += r.CardsDrawn
	}
	if want := [3]int{5, 26, 29}; wins != want || turns != 2585 || drawn != 1446 {
		t.Fatalf("wins %v, %d turns, %d cards drawn; want %v, 2585, 1446", wins, turns, drawn, want)
	}
}
