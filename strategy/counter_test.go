package strategy_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// countingTable builds a game of specs with every seat observed (the feed
// passed on: every event told) and returns the counters by seat (nil for
// other strategies).
func countingTable(t testing.TB, o engine.Options, specs []string, obs observer) (*engine.Game, []*strategy.Counter) {
	return countingTableFed(t, o, specs, obs, false)
}

// selecting is observed passing the wrapped strategy's choice of events on.
type selecting struct{ observed }

func (o *selecting) ObservedEvents() uint64 {
	if sel, ok := o.s.(engine.EventSelector); ok {
		return sel.ObservedEvents()
	}
	return ^uint64(0)
}

// countingTableFed is countingTable with the feed the counters ask for
// (selected events, a shared reading of the frequent ones where hands are
// never exchanged) when selected is set; else every event is told and
// read as told (Counter.TellEveryEvent).
func countingTableFed(t testing.TB, o engine.Options, specs []string, obs observer, selected bool) (*engine.Game, []*strategy.Counter) {
	t.Helper()
	ss := make([]engine.Strategy, len(specs))
	cs := make([]*strategy.Counter, len(specs))
	for i, sp := range specs {
		s := strategy.MustParse(sp).New()
		if c, ok := s.(*strategy.Counter); ok {
			cs[i] = c
			if !selected {
				c.TellEveryEvent()
			}
		}
		ss[i] = &observed{watched{s: s, obs: obs}}
		if selected {
			ss[i] = &selecting{observed{watched{s: s, obs: obs}}}
		}
	}
	g, err := engine.NewGame(o, ss)
	if err != nil {
		t.Fatal(err)
	}
	return g, cs
}

// The counter's unseen cards are the true unseen cards at every decision of
// its seat, in games of every rule set with noisy opponents (challenges
// shown, swaps, rotations, mini-piles, cards taken back): the deck less the
// seat's hand, the discard pile, the mini-pile and the cards the seat knows
// in other hands. The test reads the true position through the engine
// (the hands, the piles) and keeps the seat's knowledge itself from the
// log, with the engine's Visible and Knowledge; it also checks the counts
// against what the counter cannot read: the unseen cards less the unknown
// cards of the other hands are the draw pile, so every kind's difference is
// at least 0 and they sum to the draw pile's size. Each table is played
// twice: every event told, and with the feed the counters select (the
// frequent events read once for the table, a shared reading).
func TestCounterUnseenIsExact(t *testing.T) {
	noisy := "random:bluff=0.5,challenge=0.5,forget=0.3,catch=0.5"
	for _, tc := range []struct {
		rules engine.RuleSet
		specs []string
		sets  []string
	}{
		{engine.Classic, []string{"counter:challenge=always", noisy}, nil},
		{engine.Classic, []string{"counter:bluff-rate=0.5", noisy, "counter:bluff=sound", "heuristic:bluff=0.3"}, []string{"guilty-takes-back=true"}},
		{engine.Classic, []string{"counter", noisy, "counter:challenge=always", noisy, "heuristic"}, []string{"seven-zero=true", "stack-draw-two=true", "stack-draw-four=true", "jump-in=any", "draw=until-playable"}},
		{engine.Party, []string{"counter:bluff-rate=0.5", noisy, "counter", noisy, "heuristic", "counter:bluff=sound"}, nil},
		{engine.Encanto, []string{"counter:challenge=always", noisy, "counter", "heuristic:bluff=0.5"}, nil},
	} {
		for _, feed := range []string{"every-event", "selected"} {
			selected := feed != "every-event"
			t.Run(fmt.Sprintf("%s-%dp-%s", tc.rules, len(tc.specs), feed), func(t *testing.T) {
				o := options(t, tc.rules, tc.sets...)
				var know [engine.MaxPlayers]engine.Knowledge
				var g *engine.Game
				var cs []*strategy.Counter
				decisions, withKnown := 0, 0
				obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
					c := cs[seat]
					if c == nil {
						return
					}
					decisions++
					k := &know[seat]
					s := &g.State
					own := s.Hand(seat)
					mini := s.View(seat)
					pile := 0
					for kind := range engine.NumCards {
						card := engine.Card(kind)
						want := o.Deck[kind] - own.Count(card) - mini.Discarded(card) - mini.MiniPileCount(card)
						hidden := 0
						for q := 0; q < s.Players(); q++ {
							if q == seat {
								continue
							}
							kq := k.Known(q, card)
							if kq > s.Hand(q).Count(card) {
								t.Fatalf("game %d: seat %d knows %d %s in seat %d's hand, which holds %d", v.Game(), seat, kq, card, q, s.Hand(q).Count(card))
							}
							if kq > 0 {
								withKnown++
							}
							want -= kq
							hidden += s.Hand(q).Count(card) - kq
						}
						if got := c.Unseen(card); got != want {
							t.Fatalf("game %d, turn %d, seat %d: %d unseen %s, want %d", v.Game(), v.Turns(), seat, got, card, want)
						}
						if c.Unseen(card) < hidden {
							t.Fatalf("game %d: seat %d counts %d unseen %s, but %d are hidden in other hands", v.Game(), seat, c.Unseen(card), card, hidden)
						}
						pile += c.Unseen(card) - hidden
					}
					if pile != s.DrawPileSize() {
						t.Fatalf("game %d: the unseen cards leave %d for the draw pile, which holds %d", v.Game(), pile, s.DrawPileSize())
					}
				}
				g, cs = countingTableFed(t, o, tc.specs, obs, selected)
				g.SetLog(func(e engine.Event) {
					for p := range tc.specs {
						if ev, ok := engine.Visible(p, e); ok {
							v := g.State.View(p)
							know[p].Observe(&v, ev)
						}
					}
				})
				for i := range uint64(300) {
					for p := range tc.specs {
						know[p].Reset(p)
					}
					g.Play(9, i)
					if err := g.Err(); err != nil {
						t.Fatal(err)
					}
				}
				if decisions < 1000 || withKnown == 0 {
					t.Errorf("only %d decisions checked, %d with known cards", decisions, withKnown)
				}
			})
		}
	}
}

// The void beliefs on a scripted feed: a player who draws instead of
// playing on its turn holds none of the color with belief trust; the belief
// fades by 3/4 for every card it draws later, ends when it plays the color,
// and moves with the hand in a swap.
func TestCounterVoidBeliefs(t *testing.T) {
	s, err := engine.NewState(options(t, engine.Classic), 3)
	if err != nil {
		t.Fatal(err)
	}
	for game := uint64(0); game == 0 || s.Color() == engine.NoColor; game++ {
		s.Start(1, game) // a start card of a color: the turns below begin on it
	}
	c := strategy.MustParse("counter:trust=0.8").New().(*strategy.Counter)
	v := s.View(0)
	c.Begin(&v)
	col := v.Color()
	c.Observe(&v, engine.Event{Kind: engine.EvTurn, Player: 1})
	c.Observe(&v, engine.Event{Kind: engine.EvDraw, Player: 1, N: 1, N2: 1})
	if b := c.VoidBelief(1, col); b != 0.8 {
		t.Fatalf("after a draw on %s: belief %v, want 0.8", col, b)
	}
	c.Observe(&v, engine.Event{Kind: engine.EvKeep, Player: 1})
	c.Observe(&v, engine.Event{Kind: engine.EvTurn, Player: 2})
	c.Observe(&v, engine.Event{Kind: engine.EvPlay, Player: 2, Card: engine.MakeCard(col, engine.DrawTwo)})
	c.Observe(&v, engine.Event{Kind: engine.EvDraw, Player: 1, N: 2, N2: 2})
	if b, want := c.VoidBelief(1, col), 0.8*0.75*0.75; math.Abs(b-want) > 1e-15 {
		t.Errorf("after drawing 2 more: belief %v, want %v", b, want)
	}
	if b := c.VoidBelief(2, col); b != 0 {
		t.Errorf("seat 2 played %s: belief %v", col, b)
	}
	c.Observe(&v, engine.Event{Kind: engine.EvSwap, Player: 1, Other: 2})
	if b, want := c.VoidBelief(2, col), 0.8*0.75*0.75; math.Abs(b-want) > 1e-15 || c.VoidBelief(1, col) != 0 {
		t.Errorf("after a swap: beliefs %v, %v, want 0, %v", c.VoidBelief(1, col), b, want)
	}
	c.Observe(&v, engine.Event{Kind: engine.EvPlay, Player: 2, Card: engine.MakeCard(col, engine.Five)})
	if b := c.VoidBelief(2, col); b != 0 {
		t.Errorf("after playing %s: belief %v, want 0", col, b)
	}
}

// bothTurns is a counter whose turns are chosen by ChooseTurn and checked
// against Decide with the turn's list of moves (one Play per kind of
// Plays() in kind order, then Draw unless forced-play requires a play),
// from the same random state.
type bothTurns struct {
	*strategy.Counter
	t     *testing.T
	turns int
}

func (b *bothTurns) ChooseTurn(v *engine.View) engine.Move {
	r := v.Rand()
	saved := *r
	m := b.Counter.ChooseTurn(v)
	after := *r
	*r = saved
	var moves []engine.Move
	plays := v.Plays()
	for k := range engine.NumCards {
		if plays>>k&1 != 0 {
			moves = append(moves, engine.PlayMove(engine.Card(k)))
		}
	}
	if !v.Options().ForcedPlay || plays == 0 {
		moves = append(moves, engine.SimpleMove(engine.MoveDraw))
	}
	if i := b.Counter.Decide(v, moves); moves[i] != m || *r != after {
		b.t.Fatalf("game %d, seat %d: ChooseTurn chose %s, Decide %s of %v (random state equal: %v)", v.Game(), v.Seat(), m, moves[i], moves, *r == after)
	}
	b.turns++
	return m
}

// A counter's ChooseTurn is the move its Decide chooses at every turn,
// drawing the same random numbers, and a table of counters asked by
// ChooseTurn and PlaysDrawn plays the games of one asked by Decide.
func TestCounterChooseTurnIsDecide(t *testing.T) {
	for _, tc := range []struct {
		rules engine.RuleSet
		specs []string
		sets  []string
	}{
		{engine.Classic, []string{"counter", "counter:bluff=0.3", "counter:bluff=sound", "counter:challenge=always"}, nil},
		{engine.Classic, []string{"counter", "counter:bluff=0.5"}, []string{"forced-play=true"}},
		{engine.Classic, []string{"counter", "counter:bluff=0.3", "counter:bluff=sound"}, []string{"seven-zero=true", "stack-draw-two=true", "jump-in=any", "draw=until-playable", "must-play-drawn=true"}},
		{engine.Party, []string{"counter", "counter:bluff=sound", "counter:bluff=0.3", "counter", "counter"}, nil},
		{engine.Encanto, []string{"counter", "counter:bluff=0.3", "counter:bluff=sound", "counter"}, []string{"forced-play=true"}},
	} {
		o := options(t, tc.rules, tc.sets...)
		var chosen, decided []engine.Strategy
		var checked []*bothTurns
		for _, sp := range tc.specs {
			b := &bothTurns{Counter: strategy.MustParse(sp).New().(*strategy.Counter), t: t}
			checked = append(checked, b)
			chosen = append(chosen, b)
			// observed hides ChooseTurn and PlaysDrawn: every turn and drawn card is asked of Decide.
			decided = append(decided, &selecting{observed{watched{s: strategy.MustParse(sp).New(), obs: func(int, *engine.View, []engine.Move, int) {}}}})
		}
		g1, err := engine.NewGame(o, chosen)
		if err != nil {
			t.Fatal(err)
		}
		g2, err := engine.NewGame(o, decided)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(150) {
			r1, r2 := *g1.Play(5, i), *g2.Play(5, i)
			if r1 != r2 {
				t.Fatalf("%s %v game %d: ChooseTurn gives %+v, Decide %+v", tc.rules, tc.specs, i, r1, r2)
			}
		}
		for _, b := range checked {
			if b.turns == 0 {
				t.Fatalf("%s %v: no turn asked of ChooseTurn", tc.rules, tc.specs)
			}
		}
	}
}

// A counter with a shared reading of the table's public events (each
// telling whose turn it is and whether it is that player's first act)
// holds the void beliefs, the challenge record's consequences and the
// unseen counts of one told every event, turns included, at every
// decision.
func TestCounterSharedReadingIsTold(t *testing.T) {
	for _, tc := range []struct {
		rules engine.RuleSet
		specs []string
		sets  []string
	}{
		{engine.Classic, []string{"counter", "counter:bluff=0.3", "counter:bluff=sound", "heuristic"}, nil},
		{engine.Classic, []string{"counter", "counter:trust=0.5", "counter:challenge=always", "counter:trust=0.5,bluff=sound"}, []string{"guilty-takes-back=true"}},
		{engine.Classic, []string{"counter", "counter:bluff=sound", "heuristic", "counter"}, []string{"scoring=winner-takes"}}, // matches of rounds
		{engine.Classic, []string{"counter", "counter:challenge=always", "random:bluff=0.5"}, []string{"stack-draw-two=true", "stack-draw-four=true", "jump-in=any", "draw=until-playable", "deflect-skip=true"}},
		{engine.Party, []string{"counter", "counter:bluff=sound", "counter", "heuristic", "counter"}, nil},
		{engine.Encanto, []string{"counter", "counter:challenge=always", "counter"}, nil},
	} {
		o := options(t, tc.rules, tc.sets...)
		var snaps [2][]float64
		for pass, selected := range []bool{false, true} {
			var cs []*strategy.Counter
			obs := func(seat int, v *engine.View, _ []engine.Move, choice int) {
				c := cs[seat]
				if c == nil {
					return
				}
				snap := append(snaps[pass], float64(v.Game()), float64(seat), float64(choice))
				for p := 0; p < v.Players(); p++ {
					for col := engine.Red; col < engine.NoColor; col++ {
						snap = append(snap, c.VoidBelief(p, col))
					}
				}
				for k := range engine.NumCards {
					snap = append(snap, float64(c.Unseen(engine.Card(k))))
				}
				snaps[pass] = snap
			}
			var g *engine.Game
			g, cs = countingTableFed(t, o, tc.specs, obs, selected)
			for i := range uint64(60) {
				g.Play(11, i)
			}
		}
		if len(snaps[0]) != len(snaps[1]) || len(snaps[0]) == 0 {
			t.Fatalf("%s %v: %d and %d values seen told and read", tc.rules, tc.specs, len(snaps[0]), len(snaps[1]))
		}
		for i := range snaps[0] {
			if snaps[0][i] != snaps[1][i] {
				t.Fatalf("%s %v: value %d is %v told every event, %v with a shared reading", tc.rules, tc.specs, i, snaps[0][i], snaps[1][i])
			}
		}
	}
}

// A table of counters allocates nothing per game once warm.
func TestCounterAllocs(t *testing.T) {
	for _, tc := range []struct {
		rules engine.RuleSet
		specs []string
	}{
		{engine.Classic, same("counter", 4)},
		{engine.Party, []string{"counter", "counter:bluff=sound", "heuristic", "counter", "random:bluff=0.5,challenge=0.5"}},
	} {
		ss := make([]engine.Strategy, len(tc.specs))
		for i, sp := range tc.specs {
			ss[i] = strategy.MustParse(sp).New()
		}
		g, err := engine.NewGame(options(t, tc.rules), ss)
		if err != nil {
			t.Fatal(err)
		}
		i := uint64(0)
		for ; i < 20; i++ {
			g.Play(3, i)
		}
		if a := testing.AllocsPerRun(100, func() { g.Play(3, i); i++ }); a != 0 {
			t.Errorf("%s %v: %v allocations per game", tc.rules, tc.specs, a)
		}
	}
}

// nopObserver is the heuristic with an observation feed it ignores: what
// the engine's feed costs alone.
type nopObserver struct{ strategy.Heuristic }

func (*nopObserver) Begin(*engine.View)                 {}
func (*nopObserver) Observe(*engine.View, engine.Event) {}

// BenchmarkStrategyGame measures whole classic games on one goroutine for
// the heuristic, the heuristic with a feed it ignores (the engine's cost of
// the feed) and the counter (the counter's target: within 1.5x of the
// heuristic's time), 2 and 4 players.
func BenchmarkStrategyGame(b *testing.B) {
	for _, n := range []int{2, 4} {
		for _, spec := range []string{"heuristic", "heuristic+observer", "counter"} {
			b.Run(fmt.Sprintf("%dp/%s", n, spec), func(b *testing.B) {
				ss := make([]engine.Strategy, n)
				for i := range ss {
					if spec == "heuristic+observer" {
						ss[i] = &nopObserver{strategy.DefaultHeuristic()}
						continue
					}
					ss[i] = strategy.MustParse(spec).New()
				}
				g, err := engine.NewGame(engine.DefaultOptions(engine.Classic), ss)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				turns, i := 0, uint64(0)
				for b.Loop() {
					turns += g.Play(1, i).Turns
					i++
				}
				if turns < int(i) {
					b.Fatalf("%d turns in %d games: the benchmark measured nothing", turns, i)
				}
				b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
			})
		}
	}
}

// A counter begun on a position no Game plays (a search's copy, as ismcts'
// rollout counters are in the tree descent) is told nothing afterwards:
// its unseen cards stay those it counted at Begin (the deck less its hand,
// the discard pile and the mini-pile then), never below 0, whatever the
// position plays meanwhile; and it answers BluffChance before any decision.
func TestCounterOnAPositionNoGamePlays(t *testing.T) {
	o := options(t, engine.Classic, "draw=until-playable", "stack-draw-two=true")
	s, err := engine.NewState(o, 4)
	if err != nil {
		t.Fatal(err)
	}
	var rng engine.Rand
	rng.Seed(5, 0, engine.PurposeSeat)
	buf := make([]engine.Move, 0, 256)
	decisions := 0
	for game := range uint64(200) {
		s.Start(2, game)
		c := strategy.MustParse("counter").New().(*strategy.Counter)
		v := s.View(0)
		c.Begin(&v)
		_ = c.BluffChance(&v)
		var frozen [engine.NumCards]int
		for k := range engine.NumCards {
			card := engine.Card(k)
			frozen[k] = o.Deck[k] - s.Hand(0).Count(card) - v.Discarded(card) - v.MiniPileCount(card)
		}
		for !s.Over() {
			p, _ := s.Pending()
			moves := s.Moves(buf[:0])
			i := rng.IntN(len(moves))
			if p == 0 {
				i = c.Decide(&v, moves)
				decisions++
				for k := range engine.NumCards {
					if got := c.Unseen(engine.Card(k)); got != frozen[k] {
						t.Fatalf("game %d: %d unseen %s, counted %d at Begin", game, got, engine.Card(k), frozen[k])
					}
				}
			}
			if err := s.Apply(moves[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if decisions < 1000 {
		t.Fatalf("%d decisions: the test covers too little", decisions)
	}
}

// refSeat plays its counter with the counter's own choice of events, and
// keeps a reference engine.Knowledge of its seat, begun with the mini-pile
// on the table and fed every event the seat sees from the Game's log
// (refLog).
type refSeat struct {
	watched
	c *strategy.Counter
	k engine.Knowledge
}

func (s *refSeat) Begin(v *engine.View) {
	s.c.Begin(v)
	s.k.Reset(v.Seat())
	if n, _ := v.MiniPile(); n > 0 {
		var pile [engine.NumCards]uint8
		for k := range pile {
			pile[k] = uint8(v.MiniPileCount(engine.Card(k)))
		}
		s.k.SetMiniPile(&pile)
	}
}

func (s *refSeat) Observe(v *engine.View, e engine.Event) { s.c.Observe(v, e) }
func (s *refSeat) ObservedEvents() uint64                 { return s.c.ObservedEvents() }

// refLog feeds the reference knowledge of every refSeat of g.
func refLog(g *engine.Game, seats []*refSeat) {
	g.SetLog(func(e engine.Event) {
		for p, s := range seats {
			if ev, ok := engine.Visible(p, e); ok {
				v := g.State.View(p)
				s.k.Observe(&v, ev)
			}
		}
	})
}

// checkCounts checks, at a decision of seat's counter c, that it knows
// the cards its reference knowledge k knows in the other hands, that its
// unseen cards of each kind are the deck's less its hand, the piles and
// those known cards in the true position s, and that its unseen cards by
// color, in all and of a symbol in the other colors (counted at the events
// that move cards, not from the view) are the sums of those by kind.
func checkCounts(t *testing.T, c *strategy.Counter, k *engine.Knowledge, s *engine.State, v *engine.View) {
	seat := v.Seat()
	var byColor [engine.NumColors + 1]int
	total := 0
	for kind := range engine.NumCards {
		card := engine.Card(kind)
		want := v.Options().Deck[kind] - s.Hand(seat).Count(card) - v.Discarded(card) - v.MiniPileCount(card)
		for q := 0; q < v.Players(); q++ {
			if q == seat {
				continue
			}
			if got, known := c.Known(q, card), k.Known(q, card); got != known {
				t.Fatalf("game %d, turn %d, seat %d: knows %d %s in seat %d's hand, the seat saw %d", v.Game(), v.Turns(), seat, got, card, q, known)
			}
			want -= k.Known(q, card)
		}
		n := c.Unseen(card)
		if n != want {
			t.Fatalf("game %d, turn %d, seat %d: %d unseen %s, want %d", v.Game(), v.Turns(), seat, n, card, want)
		}
		byColor[card.Color()] += n
		total += n
	}
	for col := engine.Red; col <= engine.NoColor; col++ {
		if got := c.UnseenOfColor(col); got != byColor[col] {
			t.Fatalf("game %d, turn %d: %d unseen %s cards, %d kind by kind", v.Game(), v.Turns(), got, col, byColor[col])
		}
	}
	if got := c.UnseenTotal(); got != total {
		t.Fatalf("game %d, turn %d: %d unseen cards, %d kind by kind", v.Game(), v.Turns(), got, total)
	}
	for col := engine.Red; col < engine.NoColor; col++ {
		for y := engine.Symbol(0); y < engine.FirstWild; y++ {
			want := 0
			for o := engine.Red; o < engine.NoColor; o++ {
				if o != col {
					want += c.Unseen(engine.MakeCard(o, y))
				}
			}
			if got := c.UnseenOthers(engine.MakeCard(col, y)); got != want {
				t.Fatalf("game %d, turn %d: %d unseen cards of %s's symbol in other colors, %d kind by kind", v.Game(), v.Turns(), got, engine.MakeCard(col, y), want)
			}
		}
	}
}

// Counters that begin in the middle of a pile-up (a game played out from a
// search's position, as ismcts' rollouts are) see the mini-pile's cards and
// know its taker holds them, with the shared reading and told every event:
// at every decision they know exactly what a Knowledge begun with that
// pile and fed every event the seat sees knows, their unseen cards are the
// true ones, and their counts by color and symbol (which the shared
// reading keeps at a take, where it does not count from the view) are the
// sums of the counts by kind.
func TestCounterBegunInAPileUp(t *testing.T) {
	o := options(t, engine.Party, "deck=party,wild-pile-up=12", "guilty-takes-back=true")
	pos, err := engine.NewState(o, 4)
	if err != nil {
		t.Fatal(err)
	}
	var rng engine.Rand
	rng.Seed(3, 0, engine.PurposeSeat)
	buf := make([]engine.Move, 0, 256)
	for _, tc := range []struct{ told, mixed bool }{{false, false}, {false, true}, {true, false}} {
		// (mixed: two Trusts, two shared readings, none reading the plays by
		// ReadPlay; told: no shared reading.)
		specs := []string{"counter:bluff=0.5", "counter:challenge=always", "counter:bluff=0.5", "counter:challenge=always"}
		if tc.mixed {
			specs[2] = "counter:trust=0.5"
		}
		starts, decisions, known := 0, 0, 0
		for game := range uint64(300) {
			pos.Start(1, game)
			for !pos.Over() {
				if _, d := pos.Pending(); d == engine.DecidePileUp {
					break
				}
				moves := pos.Moves(buf[:0])
				if err := pos.Apply(moves[rng.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			}
			if pos.Over() {
				continue
			}
			starts++
			seats := make([]*refSeat, 4)
			ss := make([]engine.Strategy, 4)
			var g *engine.Game
			for i, spec := range specs {
				c := strategy.MustParse(spec).New().(*strategy.Counter)
				if tc.told {
					c.TellEveryEvent()
				}
				seat := &refSeat{c: c}
				seat.watched = watched{s: c, obs: func(_ int, v *engine.View, _ []engine.Move, _ int) {
					decisions++
					if seat.k.KnownCards((v.Seat()+1)%4) > 0 {
						known++
					}
					checkCounts(t, c, &seat.k, &g.State, v)
				}}
				seats[i], ss[i] = seat, seat
			}
			g, err = engine.NewGame(o, ss)
			if err != nil {
				t.Fatal(err)
			}
			refLog(g, seats)
			p, _ := pos.Pending()
			v := pos.View(p) // (the search's seat: the one to move)
			v.Determinize(&g.State, &rng, nil)
			g.PlayOut()
		}
		if starts < 50 || decisions < 5000 || known < 500 {
			t.Fatalf("%+v: %d games begun in a pile-up, %d decisions, %d of them knowing cards of the next hand: the test covers too little", tc, starts, decisions, known)
		}
	}
}
