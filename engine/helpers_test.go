package engine

import (
	"slices"
	"strings"
	"testing"
)

// Test helpers: card shorthand, stacked decks and scripted strategies.

// card reads a card shorthand: a color letter (r, y, g, b) and a symbol
// (0-9, S skip, R reverse, +2 draw two, P point taken), or a wild: W,
// W+4, WP (pile up), WT (drawn together), WD (don't speak), WS (swap hands).
func card(t testing.TB, s string) Card {
	t.Helper()
	wilds := map[string]Symbol{"W": Wild, "W+4": WildDrawFour, "WP": WildPileUp, "WT": WildDrawnTogether, "WD": WildDontSpeak, "WS": WildSwapHands}
	if sym, ok := wilds[s]; ok {
		return WildCard(sym)
	}
	if len(s) < 2 {
		t.Fatalf("bad card shorthand %q", s)
	}
	col, err := ParseColor(s[:1])
	if err != nil {
		t.Fatalf("bad card shorthand %q: %v", s, err)
	}
	syms := map[string]Symbol{"S": Skip, "R": Reverse, "+2": DrawTwo, "P": PointTaken}
	sym, ok := syms[s[1:]]
	if !ok {
		if len(s) != 2 || s[1] < '0' || s[1] > '9' {
			t.Fatalf("bad card shorthand %q", s)
		}
		sym = Symbol(s[1] - '0')
	}
	return MakeCard(col, sym)
}

// cards reads space-separated shorthands.
func cards(t testing.TB, s string) []Card {
	t.Helper()
	var out []Card
	for _, f := range strings.Fields(s) {
		out = append(out, card(t, f))
	}
	return out
}

// want is one scripted choice: seat chooses move m when asked decision d.
type want struct {
	seat int
	d    Decision
	m    Move
}

// asked records one decision put to a strategy.
type asked struct {
	seat  int
	d     Decision
	moves []Move
	chose Move
}

// table is a game whose every seat is played by a script. A scripted choice
// is taken when the next one in the script is for this seat and decision;
// otherwise the seat takes moves[0] (the first play, a call, a catch, an
// accept, red). done fails the test if scripted choices were never asked.
type table struct {
	t      testing.TB
	g      *Game
	script []want
	log    []asked
	events []Event
}

type scriptSeat struct{ tb *table }

func (s scriptSeat) Decide(v *View, moves []Move) int {
	tb := s.tb
	choice := 0
	if len(tb.script) > 0 && tb.script[0].seat == v.Seat() && tb.script[0].d == v.Decision() {
		w := tb.script[0]
		tb.script = tb.script[1:]
		choice = -1
		for i, m := range moves {
			if m == w.m {
				choice = i
			}
		}
		if choice < 0 {
			tb.t.Fatalf("seat %d, decision %s: scripted move %s is not legal; legal: %v", w.seat, w.d, w.m, moves)
		}
	}
	tb.log = append(tb.log, asked{v.Seat(), v.Decision(), append([]Move(nil), moves...), moves[choice]})
	if err := tb.g.checkCards(); err != nil {
		tb.t.Fatalf("during decision %s of seat %d: %v", v.Decision(), v.Seat(), err)
	}
	return choice
}

// testOptions is the default options of r changed by sets ("name=value").
func testOptions(t testing.TB, r RuleSet, sets ...string) Options {
	t.Helper()
	o := DefaultOptions(r)
	for _, s := range sets {
		name, value, _ := strings.Cut(s, "=")
		if err := o.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// newTable makes an n-player table with opts changed by sets ("name=value").
func newTable(t testing.TB, r RuleSet, n int, sets ...string) *table {
	t.Helper()
	tb := &table{t: t}
	ss := make([]Strategy, n)
	for i := range ss {
		ss[i] = scriptSeat{tb}
	}
	tb.start(testOptions(t, r, sets...), ss)
	return tb
}

// start builds tb's game for the strategies ss, recording its events.
func (tb *table) start(o Options, ss []Strategy) {
	tb.t.Helper()
	g, err := NewGame(o, ss)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.g = g
	g.SetLog(func(e Event) { tb.events = append(tb.events, e) })
	g.Reset(1, 0)
}

// deal starts a round on a stacked deck: hands[i] is seat i's hand (all of
// the same size, the hand-size option), flips the cards turned for the
// first discard, draw the top of the draw pile in order. The rest of the
// deck goes under the draw pile in kind order. The dealer is the one the
// options choose for round 0 (seat n-1 by default).
func (tb *table) deal(hands []string, flips, draw string) {
	tb.t.Helper()
	if tb.g.t.opts.Dealer != DealerRotate {
		tb.t.Fatalf("stacked deals assume dealer=rotate")
	}
	tb.dealAs(tb.g.t.n-1, hands, flips, draw)
}

// dealAs is deal for a round whose dealer is dealer; it fails if the engine
// chose another.
func (tb *table) dealAs(dealer int, hands []string, flips, draw string) {
	t := tb.t
	t.Helper()
	if err := tb.g.StackDeck(stackedOrder(t, tb.g, dealer, hands, flips, draw)); err != nil {
		t.Fatal(err)
	}
	tb.g.StartRound()
	if tb.g.Dealer() != dealer {
		t.Fatalf("round %d: the engine chose dealer %d, the stacked deal assumed %d", tb.g.Round(), tb.g.Dealer(), dealer)
	}
	tb.check()
}

// stackedOrder is the deck order that deals hands (dealing one card at a
// time from the dealer's left), then flips flips, then leaves draw on top of
// the draw pile; the rest of the deck follows in kind order.
func stackedOrder(t testing.TB, g *Game, dealer int, hands []string, flips, draw string) []Card {
	t.Helper()
	if len(hands) != g.t.n {
		t.Fatalf("%d hands for %d players", len(hands), g.t.n)
	}
	hs := make([][]Card, g.t.n)
	for i, h := range hands {
		hs[i] = cards(t, h)
		if len(hs[i]) != g.t.opts.HandSize {
			t.Fatalf("hand %d has %d cards, hand-size is %d", i, len(hs[i]), g.t.opts.HandSize)
		}
	}
	var order []Card
	for j := 0; j < g.t.opts.HandSize; j++ {
		for i := 1; i <= g.t.n; i++ {
			order = append(order, hs[(dealer+i)%g.t.n][j])
		}
	}
	order = append(order, cards(t, flips)...)
	order = append(order, cards(t, draw)...)
	left := g.t.opts.Deck
	for _, c := range order {
		left[c]--
		if left[c] < 0 {
			t.Fatalf("stacked deck uses more %s than the deck has", c)
		}
	}
	for k, c := range left {
		for range c {
			order = append(order, Card(k))
		}
	}
	return order
}

// expect queues scripted choices.
func (tb *table) expect(ws ...want) { tb.script = append(tb.script, ws...) }

// step plays one turn and checks the invariants.
func (tb *table) step() {
	tb.t.Helper()
	tb.g.Step()
	tb.check()
}

func (tb *table) check() {
	tb.t.Helper()
	if err := tb.g.Check(); err != nil {
		tb.t.Fatal(err)
	}
}

// done fails if scripted choices were left unasked.
func (tb *table) done() {
	tb.t.Helper()
	if len(tb.script) > 0 {
		tb.t.Fatalf("scripted choices never asked: %+v", tb.script)
	}
}

// hand is seat p's hand as a sorted shorthand-free list for comparisons.
func (tb *table) handOf(p int) []Card { return tb.g.hands[p].Cards(nil) }

// sizes lists every hand's size.
func (tb *table) sizes() []int {
	s := make([]int, tb.g.t.n)
	for i := range s {
		s[i] = tb.g.hands[i].Size()
	}
	return s
}

// offered is the last list of moves offered to seat for decision d.
func (tb *table) offered(seat int, d Decision) []Move {
	for i := len(tb.log) - 1; i >= 0; i-- {
		if tb.log[i].seat == seat && tb.log[i].d == d {
			return tb.log[i].moves
		}
	}
	return nil
}

// Shorthands for scripted moves.
func play(t testing.TB, s string) Move { return PlayMove(card(t, s)) }

var (
	draw      = SimpleMove(MoveDraw)
	keep      = SimpleMove(MoveKeep)
	accept    = SimpleMove(MoveAccept)
	challenge = SimpleMove(MoveChallenge)
	callUNO   = SimpleMove(MoveCallUNO)
	pass      = SimpleMove(MovePass)
	catchUNO  = SimpleMove(MoveCatch)
)

// checkState checks who plays next, the direction, the current color, the
// top card and every hand's size.
func checkState(t *testing.T, tb *table, what string, cur, dir int, col Color, top string, sizes ...int) {
	t.Helper()
	g := tb.g
	if g.Current() != cur || g.Direction() != dir || g.Color() != col || g.Top() != card(t, top) || !slices.Equal(tb.sizes(), sizes) {
		t.Errorf("%s: got current %d, direction %d, color %s, top %s, sizes %v; want current %d, direction %d, color %s, top %s, sizes %v",
			what, g.Current(), g.Direction(), g.Color(), g.Top(), tb.sizes(), cur, dir, col, card(t, top), sizes)
	}
}

// checkCounts checks counters of the result.
func checkCounts(t *testing.T, tb *table, what string, want map[Counter]int) {
	t.Helper()
	for c, n := range want {
		if got := tb.g.Result().Count[c]; got != n {
			t.Errorf("%s: counter %s is %d, want %d", what, c, got, n)
		}
	}
}

// askedCount counts the decisions d put to seat (with more than one move).
func askedCount(tb *table, seat int, d Decision) int {
	n := 0
	for _, a := range tb.log {
		if a.seat == seat && a.d == d {
			n++
		}
	}
	return n
}

// askIndex is the index in tb.log of the first decision d put to seat, or -1.
func askIndex(tb *table, seat int, d Decision) int {
	for i, a := range tb.log {
		if a.seat == seat && a.d == d {
			return i
		}
	}
	return -1
}
