package engine

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Tests of positions as values: driving a State by hand, copies,
// determinization, the observation feed and read-only views.

// drive plays s to the end, choosing with ss (one strategy per seat) and
// checking the invariants after every move. It returns the moves made.
func drive(t testing.TB, s *State, ss []Strategy) []Move {
	t.Helper()
	var made []Move
	buf := make([]Move, 0, maxMoves)
	for steps := 0; !s.Over(); steps++ {
		p, d := s.Pending()
		if d == DecideTurn && (s.basePh != phNone || s.mid != midNone) {
			t.Fatalf("a turn pending with saved levels: base phase %d, middle %d", s.basePh, s.mid)
		}
		moves := s.Moves(buf[:0])
		if len(moves) < 2 {
			t.Fatalf("decision %s pending with %d moves", s.decision, len(moves))
		}
		v := s.View(p)
		m := moves[ss[p].Decide(&v, moves)]
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
		made = append(made, m)
		if err := s.checkCards(); err != nil {
			t.Fatalf("after move %d (%s): %v", steps, m, err)
		}
		if steps > 300_000 {
			t.Fatal("game did not end") // a wrong phase can loop forever: fail fast
		}
	}
	return made
}

// Playing a game through Pending, Moves and Apply with the same strategies
// gives the same result as Game.Play, for every rule set and player count
// and every option value.
func TestApplyPlaysAsGame(t *testing.T) {
	games := 0
	check := func(o Options, n int, what string) {
		ss := make([]Strategy, n)
		for i := range ss {
			ss[i] = uniform{}
		}
		g, err := NewGame(o, ss)
		if err != nil {
			return // a combination the options refuse
		}
		s, err := NewState(o, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(4) {
			want := *g.Play(3, i)
			s.Start(3, i)
			drive(t, s, ss)
			if got := *s.Result(); got != want {
				t.Fatalf("%s, %d players, game %d: Apply gives %+v, Play %+v", what, n, i, got, want)
			}
			games++
		}
	}
	for r := Classic; r < NumRuleSets; r++ {
		lo, hi := r.PlayerRange()
		for n := lo; n <= hi; n++ {
			check(DefaultOptions(r), n, r.String())
		}
	}
	vals := optionValues()
	for _, spec := range OptionSpecs() {
		for _, v := range vals[spec.Name] {
			for _, n := range []int{2, 3, 5} {
				o := DefaultOptions(Classic)
				if err := o.Set(spec.Name, v); err != nil {
					t.Fatal(err)
				}
				check(o, n, spec.Name+"="+v)
			}
		}
	}
	if games < 500 {
		t.Fatalf("only %d games compared", games)
	}
}

// seeded chooses uniformly with its own stream, independent of the
// position's streams, so that copies can be continued along other choices.
type seeded struct{ r *Rand }

func (s seeded) Decide(_ *View, moves []Move) int { return s.r.IntN(len(moves)) }

// Copies of a position stopped at every kind of decision, continued along
// different moves, are independent: each ends as a fresh replay of the same
// moves does, and the original is untouched by them.
func TestCopiesContinueIndependently(t *testing.T) {
	sets := [][]string{
		nil,
		{"jump-in=any", "seven-zero=true", "deck=classic,wild-swap-hands=4", "stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "deflect-skip=true"},
		{"deflect-draw-two=true", "deflect-draw-four=true", "uno-penalty=2"},
	}
	seen := map[Decision]bool{}
	for _, r := range []RuleSet{Classic, Party, Encanto} {
		for _, set := range sets {
			o := testOptions(t, r, set...)
			for _, n := range []int{3, 5} {
				for game := range uint64(6) {
					copiesOfGame(t, o, n, game, seen)
				}
			}
		}
	}
	for d := range NumDecisions {
		if !seen[d] {
			t.Errorf("no copy was made at decision %s", d)
		}
	}
}

func copiesOfGame(t *testing.T, o Options, n int, game uint64, seen map[Decision]bool) {
	s, err := NewState(o, n)
	if err != nil {
		t.Fatal(err)
	}
	var r Rand
	r.Seed(99, game, 0)
	ss := make([]Strategy, n)
	for i := range ss {
		ss[i] = seeded{&r}
	}
	s.Start(5, game)
	var prefix []Move
	buf := make([]Move, 0, maxMoves)
	for !s.Over() {
		_, d := s.Pending()
		moves := slices.Clone(s.Moves(buf[:0]))
		if !seen[d] || len(prefix) == 40 {
			seen[d] = true
			for _, first := range []Move{moves[0], moves[len(moves)-1]} {
				var c State
				c.CopyFrom(s)
				eq := *s // a copy with = must be independent too
				var rc Rand
				rc.Seed(7, uint64(first), 1)
				if err := c.Apply(first); err != nil {
					t.Fatal(err)
				}
				drive(t, &c, seededAll(&rc, n))
				// A replay of the same moves from the start ends the same.
				replay, _ := NewState(o, n)
				replay.Start(5, game)
				for _, m := range prefix {
					if err := replay.Apply(m); err != nil {
						t.Fatal(err)
					}
				}
				rc.Seed(7, uint64(first), 1)
				if err := replay.Apply(first); err != nil {
					t.Fatal(err)
				}
				drive(t, replay, seededAll(&rc, n))
				if *replay.Result() != *c.Result() {
					t.Fatalf("decision %s: copy ends %+v, replay %+v", d, *c.Result(), *replay.Result())
				}
				if eq.res != s.res || eq.hands != s.hands || eq.drawN != s.drawN {
					t.Fatalf("decision %s: continuing a copy changed the original", d)
				}
			}
		}
		m := moves[ss[0].Decide(nil, moves)]
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
		prefix = append(prefix, m)
	}
}

func seededAll(r *Rand, n int) []Strategy {
	ss := make([]Strategy, n)
	for i := range ss {
		ss[i] = seeded{r}
	}
	return ss
}

// positionAt plays game i of seed 1 with uniform strategies up to the
// decision after `after` moves (or the last one), for position tests.
func positionAt(t testing.TB, o Options, n int, game uint64, after int) *State {
	t.Helper()
	s, err := NewState(o, n)
	if err != nil {
		t.Fatal(err)
	}
	s.Start(1, game)
	buf := make([]Move, 0, maxMoves)
	for k := 0; k < after && !s.Over(); k++ {
		p, _ := s.Pending()
		moves := s.Moves(buf[:0])
		v := s.View(p)
		var prev State
		prev.CopyFrom(s)
		if err := s.Apply(moves[uniform{}.Decide(&v, moves)]); err != nil {
			t.Fatal(err)
		}
		if s.Over() {
			s.CopyFrom(&prev) // stay at a decision
			break
		}
	}
	return s
}

// viewPrint is everything a seat's view shows, for comparisons.
func viewPrint(s *State, seat int) string {
	v := s.View(seat)
	out := fmt.Sprintf("hand %v top %s color %s dir %d decision %s seat %d", v.Hand(), v.Top(), v.Color(), v.Direction(), v.Decision(), s.seat)
	for p := 0; p < v.Players(); p++ {
		out += fmt.Sprintf(" [%d: size %d out %v score %d uno %v silenced %v]", p, v.HandSize(p), v.Out(p), v.Score(p), v.CalledUNO(p), v.Silenced(p))
	}
	for k := Card(0); k < Card(NumCards); k++ {
		out += fmt.Sprintf(" %d/%d", v.Discarded(k), v.MiniPileCount(k))
	}
	a, b, ok := v.Link()
	sym, cards, by := v.Pending()
	rev, revOK := v.Revealed()
	out += fmt.Sprintf(" link %d %d %v pending %s %d %d ref %s %s drawn %s plays %x sizes %d %d %v %v", a, b, ok, sym, cards, by, v.ReferenceColor(), v.ReferenceTop(), v.Drawn(), v.Plays(), v.DrawPileSize(), v.DiscardSize(), rev, revOK)
	if s.seat == seat {
		out += fmt.Sprint(" moves ", s.Moves(nil))
	}
	return out
}

// Determinizing keeps the seat's view, keeps every card in exactly one
// place and every hand's size, and hides the future: two determinizations
// with different searcher seeds differ in every stream the seat cannot
// know, and keep its own.
func TestDeterminizeKeepsTheView(t *testing.T) {
	for _, r := range []RuleSet{Classic, Party, Encanto} {
		o := testOptions(t, r)
		for game := range uint64(40) {
			s := positionAt(t, o, 4, game, 5+int(game))
			seat, _ := s.Pending()
			before := viewPrint(s, seat)
			var rng1, rng2 Rand
			rng1.Seed(1, game, 0)
			rng2.Seed(2, game, 0)
			var a, b State
			va := s.View(seat)
			va.Determinize(&a, &rng1, nil)
			va.Determinize(&b, &rng2, nil)
			for _, d := range []*State{&a, &b} {
				if got := viewPrint(d, seat); got != before {
					t.Fatalf("game %d: the view changed:\n%s\n%s", game, before, got)
				}
				if err := d.Check(); err != nil {
					t.Fatalf("game %d: %v", game, err)
				}
			}
			if a.key == b.key || a.tableRng == b.tableRng || a.reshuffleRng == b.reshuffleRng {
				t.Fatalf("game %d: the streams of the future did not change", game)
			}
			for q := 0; q < 4; q++ {
				if (a.seatRng[q] == b.seatRng[q]) != (q == seat) {
					t.Fatalf("game %d: seat %d's stream (searcher %d) equal %v", game, q, seat, a.seatRng[q] == b.seatRng[q])
				}
			}
			if a.key == s.key {
				t.Fatalf("game %d: the game key survived", game)
			}
		}
	}
}

// Over many determinizations, a hidden card lies in each other hand and in
// the draw pile with probability proportional to the hidden places there:
// the exact frequencies of a uniform deal, by a chi-square test (fixed
// seed). With knowledge, the known cards stay and the rest is uniform over
// the places left.
func TestDeterminizeIsUniform(t *testing.T) {
	s := positionAt(t, DefaultOptions(Classic), 4, 3, 12)
	seat, _ := s.Pending()
	// A kind hidden from seat with exactly one copy in hiding.
	target := NoCard
	for k := Card(0); k < Card(NumCards); k++ {
		v := s.View(seat)
		if v.DeckCount(k)-v.Hand().Count(k)-v.Discarded(k) == 1 {
			target = k
			break
		}
	}
	if target == NoCard {
		t.Skip("no kind with a single hidden copy")
	}
	var know Knowledge
	know.Reset(seat)
	other := (seat + 1) % 4
	known := Card(NoCard) // a card seat knows to be in other's hand
	for k := Card(0); k < Card(NumCards); k++ {
		if k != target && s.hands[other].counts[k] > 0 {
			known = k
			break
		}
	}
	know.known[other][known] = 1
	for _, k := range []*Knowledge{nil, &know} {
		var places [MaxPlayers + 1]float64 // hands, then the draw pile
		slots := 0.0
		for q := 0; q < 4; q++ {
			if q != seat {
				places[q] = float64(s.hands[q].Size())
			}
		}
		if k != nil {
			places[other]--
		}
		places[MaxPlayers] = float64(s.drawN)
		for _, x := range places {
			slots += x
		}
		var rng Rand
		rng.Seed(11, 0, 0)
		const trials = 20000
		var observed [MaxPlayers + 1]float64
		var d State
		for range trials {
			v := s.View(seat)
			v.Determinize(&d, &rng, k)
			if k != nil && d.hands[other].counts[known] == 0 {
				t.Fatal("a known card left its hand")
			}
			found := false
			for q := 0; q < 4; q++ {
				if q != seat && d.hands[q].counts[target] == 1 {
					observed[q]++
					found = true
				}
			}
			if !found {
				observed[MaxPlayers]++
			}
		}
		chi2, df := 0.0, -1
		for i, x := range places {
			if x == 0 {
				continue
			}
			e := trials * x / slots
			chi2 += (observed[i] - e) * (observed[i] - e) / e
			df++
		}
		p := 1 - distuv.ChiSquared{K: float64(df)}.CDF(chi2)
		if p < 0.001 || math.IsNaN(p) {
			t.Fatalf("knowledge %v: locations %v, expected shares %v of %v: chi2 %.2f, p %.5f", k != nil, observed, places, slots, chi2, p)
		}
	}
}

// recorder checks the observation feed: no seat is ever told another's
// drawn card, and its Knowledge never claims a card the hand does not hold.
type recorder struct {
	t    *testing.T
	g    **Game
	know [MaxPlayers]Knowledge
	// twin is know told the plays with Played where hands are never
	// exchanged, which must come to the same; partial is know told only
	// the events that show or move cards of other hands, and the plays
	// once it knows a card in another hand (as the counter feeds its own),
	// which must know the same cards.
	twin, partial [MaxPlayers]Knowledge
	// table is a knowledge of no seat (-1) told every event, of the kind a
	// table's reading keeps where hands are never exchanged (the counters'
	// leaves the take-backs to each seat's own): as a seat's (CopyFor) it
	// is the seat's knowledge while the seat has been shown no hand this
	// round (shown).
	table Knowledge
	shown [MaxPlayers]bool
	seen  int
}

type recordSeat struct{ r *recorder }

func (s recordSeat) Decide(v *View, moves []Move) int {
	s.r.checkKnowledge(v.Seat())
	return v.Rand().IntN(len(moves))
}

func (s recordSeat) Begin(v *View) {
	s.r.know[v.Seat()].Reset(v.Seat())
	s.r.twin[v.Seat()].Reset(v.Seat())
	s.r.partial[v.Seat()].Reset(v.Seat())
	if s.r.know[v.Seat()] != (Knowledge{seat: v.Seat()}) {
		s.r.t.Fatalf("seat %d: a knowledge reset still holds something", v.Seat())
	}
}

func (s recordSeat) Observe(v *View, e Event) {
	r := s.r
	seat := v.Seat()
	if e.Kind == EvDrawCard && e.Player != seat {
		r.t.Fatalf("seat %d was told seat %d drew %s", seat, e.Player, e.Card)
	}
	if e.Kind == EvDrawCard {
		r.seen++
	}
	if n, _ := v.MiniPile(); e.Kind == EvPileFlip && e.N != n {
		r.t.Fatalf("a card flipped onto a mini-pile of %d cards says %d", n, e.N)
	}
	before := r.know[seat].KnownCards(e.Player)
	r.know[seat].Observe(v, e)
	if !v.s.t.exchanges {
		if seat == 0 { // (every seat is told the events that move cards between hands; seat 0 first)
			if e.Kind == EvRound {
				r.table.Reset(-1)
				r.shown = [MaxPlayers]bool{}
			}
			r.table.Observe(v, e)
		}
		if e.Kind == EvChallenge && e.Player == seat {
			r.shown[seat] = true
		}
		var as Knowledge
		as.CopyFor(&r.table, seat)
		k := &r.know[seat]
		if !r.shown[seat] && (as.known != k.known || as.held != k.held || as.heldCol != k.heldCol || as.holders != k.holders) {
			r.t.Fatalf("seat %d: the table's knowledge as the seat's differs from the seat's after %s", seat, e)
		}
	}
	if e.Kind == EvPileTake && e.Player != seat {
		if got := r.know[seat].KnownCards(e.Player) - before; got != e.N {
			r.t.Fatalf("seat %d saw seat %d take a mini-pile of %d cards, and knows %d more of its hand", seat, e.Player, e.N, got)
		}
	}
	if k := &r.know[seat]; e.Kind == EvRound && *k != (Knowledge{seat: seat, own: k.own, dirty: k.dirty}) {
		r.t.Fatalf("seat %d: the knowledge still holds something at a round's start", seat)
	}
	if e.Kind == EvPlay && !v.s.t.exchanges {
		r.twin[seat].Played(e.Player, e.Card)
	} else {
		r.twin[seat].Observe(v, e)
	}
	if r.twin[seat] != r.know[seat] {
		r.t.Fatalf("seat %d: the knowledge told the plays with Played differs after %s", seat, e)
	}
	if !v.s.t.exchanges {
		pk := &r.partial[seat]
		holds := false
		for q := range v.Players() {
			holds = holds || pk.KnownCards(q) > 0
		}
		const shows = 1<<EvRound | 1<<EvPileFlip | 1<<EvPile | 1<<EvChallenge | 1<<EvTakeBack | 1<<EvPileTake
		if shows>>e.Kind&1 != 0 || e.Kind == EvPlay && holds {
			pk.Observe(v, e)
		}
		if pk.known != r.know[seat].known {
			r.t.Fatalf("seat %d: the knowledge told no play while it knew nothing differs after %s", seat, e)
		}
	}
	r.checkKnowledge(seat)
}

func (r *recorder) checkKnowledge(seat int) {
	g := *r.g
	var holders uint32
	for p := 0; p < g.t.n; p++ {
		sum := 0
		var byColor [NumColors + 1]int
		for k := Card(0); k < Card(NumCards); k++ {
			x := r.know[seat].Known(p, k)
			if x > int(g.hands[p].counts[k]) {
				r.t.Fatalf("seat %d believes seat %d holds %d of %s; it holds %d", seat, p, x, k, g.hands[p].counts[k])
			}
			sum += x
			byColor[k.Color()] += x
		}
		if n := r.know[seat].KnownCards(p); n != sum {
			r.t.Fatalf("seat %d knows %d cards of seat %d by kind, KnownCards says %d", seat, sum, p, n)
		}
		if sum > 0 {
			holders |= 1 << p
		}
		for c := Red; c <= NoColor; c++ {
			if n := r.know[seat].KnownColorCards(p, c); n != byColor[c] {
				r.t.Fatalf("seat %d knows %d %s cards of seat %d by kind, KnownColorCards says %d", seat, byColor[c], c, p, n)
			}
		}
	}
	if h := r.know[seat].Holders(); h != holders {
		r.t.Fatalf("seat %d knows cards of the seats %b, Holders says %b", seat, holders, h)
	}
}

func TestObservationFeedShowsOnlyWhatASeatSees(t *testing.T) {
	sets := [][]string{nil, {"seven-zero=true", "deck=classic,wild-swap-hands=4", "guilty-takes-back=true", "jump-in=any"},
		// Pile Ups that find no colored card to flip (their flips go
		// under the discard pile, with no event), and reshuffles in the
		// middle of a pile-up's flips.
		{"deck=party,wild-pile-up=30", "hand-size=40"},
		// Matches: what a seat knew is forgotten at every round's start.
		{"scoring=winner-takes", "target=300", "guilty-takes-back=true"}}
	for r := Classic; r < NumRuleSets; r++ {
		for i, set := range sets {
			games := uint64(60)
			if i >= 2 {
				games = 10 // long games, matches
			}
			rec := &recorder{t: t}
			var g *Game
			rec.g = &g
			ss := make([]Strategy, 5)
			for i := range ss {
				ss[i] = recordSeat{rec}
			}
			g, err := NewGame(testOptions(t, r, set...), ss)
			if err != nil {
				t.Fatal(err)
			}
			for i := range games {
				g.Play(4, i)
			}
			if rec.seen == 0 {
				t.Fatal("no seat was told its own draws")
			}
		}
	}
}

// sneaky tries to change the game through everything its view gives it,
// then chooses as uniform does: the games must come out as uniform's.
type sneaky struct{}

func (sneaky) Decide(v *View, moves []Move) int {
	o := v.Options()
	o.MaxTurns, o.Deck[0] = 1, 99
	h := v.Hand().Hand()
	h.Add(WildCard(Wild))
	if rev, ok := v.Revealed(); ok {
		rev.Add(WildCard(Wild))
	}
	moves[0], moves[len(moves)-1] = moves[len(moves)-1], moves[0] // its own copy of the list
	moves[0], moves[len(moves)-1] = moves[len(moves)-1], moves[0]
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		if rv.Field(i).CanSet() {
			panic("a View field can be set")
		}
	}
	hv := reflect.ValueOf(v.Hand())
	for i := range hv.NumField() {
		if hv.Field(i).CanSet() {
			panic("a HandView field can be set")
		}
	}
	return v.Rand().IntN(len(moves))
}

func TestStrategiesCannotChangeTheGame(t *testing.T) {
	for r := Classic; r < NumRuleSets; r++ {
		mk := func(s Strategy) *Game {
			g, err := NewGame(DefaultOptions(r), []Strategy{s, s, s, s})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		a, b := mk(uniform{}), mk(sneaky{})
		for i := range uint64(100) {
			if ra, rb := *a.Play(8, i), *b.Play(8, i); ra != rb {
				t.Fatalf("%s game %d: %+v with uniform, %+v with sneaky", r, i, ra, rb)
			}
		}
	}
}

// Copying, listing moves, applying a move, determinizing and playing out
// allocate nothing.
func TestPositionsDoNotAllocate(t *testing.T) {
	s := positionAt(t, DefaultOptions(Classic), 4, 2, 10)
	g, err := NewGame(DefaultOptions(Classic), []Strategy{uniform{}, uniform{}, uniform{}, uniform{}})
	if err != nil {
		t.Fatal(err)
	}
	var c State
	var rng Rand
	buf := make([]Move, 0, maxMoves)
	var know Knowledge
	seat, _ := s.Pending()
	know.Reset(seat)
	allocs := testing.AllocsPerRun(200, func() {
		c.CopyFrom(s)
		moves := c.Moves(buf[:0])
		if err := c.Apply(moves[0]); err != nil {
			panic(err)
		}
		v := s.View(seat)
		v.Determinize(&g.State, &rng, &know)
		g.PlayOut()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per copy, move list, move, determinization and playout", allocs)
	}
}

func benchPosition(b *testing.B) *State {
	return positionAt(b, DefaultOptions(Classic), 4, 2, 10)
}

func BenchmarkPosition(b *testing.B) {
	s := benchPosition(b)
	seat, _ := s.Pending()
	buf := make([]Move, 0, maxMoves)
	b.Run("copy", func(b *testing.B) {
		var c State
		for b.Loop() {
			c.CopyFrom(s)
		}
	})
	b.Run("moves", func(b *testing.B) {
		for b.Loop() {
			buf = s.Moves(buf[:0])
		}
	})
	b.Run("apply", func(b *testing.B) {
		var c State
		moves := s.Moves(nil)
		for b.Loop() {
			c.CopyFrom(s)
			_ = c.Apply(moves[0])
		}
	})
	b.Run("determinize", func(b *testing.B) {
		var c State
		var rng Rand
		v := s.View(seat)
		for b.Loop() {
			v.Determinize(&c, &rng, nil)
		}
	})
}

// stackedState deals a stacked round (see stackedOrder) into a State and
// plays to its first decision.
func stackedState(t *testing.T, n int, sets []string, hands []string, flips, draw string) *State {
	t.Helper()
	tb := newTable(t, Classic, n, sets...)
	order := stackedOrder(t, tb.g, n-1, hands, flips, draw)
	s, err := NewState(tb.g.t.opts, n)
	if err != nil {
		t.Fatal(err)
	}
	s.Reset(1, 0)
	s.advance(s.startRound(order))
	return s
}

func apply(t *testing.T, s *State, ms ...Move) {
	t.Helper()
	for _, m := range ms {
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
}

func pendingIs(t *testing.T, s *State, seat int, d Decision) {
	t.Helper()
	if p, got := s.Pending(); p != seat || got != d {
		t.Fatalf("pending: seat %d %s, want seat %d %s", p, got, seat, d)
	}
}

// Pending effects are data: a position stopped in a challenge window and
// one stopped in a UNO check, copied, go on along each answer to the
// results the rules give, and the original stays where it was.
func TestStackedCopiesMidEffect(t *testing.T) {
	wd4 := WildCard(WildDrawFour)
	t.Run("challenge window", func(t *testing.T) {
		s := stackedState(t, 3, []string{"hand-size=3"}, []string{"W+4 r1 r2", "g1 g2 g3", "y1 y2 y3"}, "b5", "b6 b7 b8 b9 g5 g6 g7 g8")
		pendingIs(t, s, 0, DecideTurn)
		apply(t, s, PlayMove(wd4), ColorMove(Red)) // legal: seat 0 holds no blue
		pendingIs(t, s, 1, DecideRespond)
		drawN := s.drawN
		var a, b State
		a.CopyFrom(s)
		b = *s
		apply(t, &a, challenge) // a wrong challenge: 6 cards, and the turn is lost
		apply(t, &b, accept)    // 4 cards, and the turn is lost
		// Seat 1 lost its turn either way; seat 2 has nothing to play and
		// draws; seat 0 is next to decide.
		if a.hands[1].Size() != 9 || b.hands[1].Size() != 7 || a.hands[2].Size() != 4 || b.hands[2].Size() != 4 {
			t.Fatalf("after challenge: sizes %d %d; after accept: %d %d", a.hands[1].Size(), a.hands[2].Size(), b.hands[1].Size(), b.hands[2].Size())
		}
		pendingIs(t, &a, 0, DecideTurn)
		pendingIs(t, &b, 0, DecideTurn)
		pendingIs(t, s, 1, DecideRespond)
		if s.hands[1].Size() != 3 || s.drawN != drawN {
			t.Fatalf("the original changed: size %d, draw pile %d", s.hands[1].Size(), s.drawN)
		}
	})
	t.Run("UNO check", func(t *testing.T) {
		s := stackedState(t, 3, []string{"hand-size=2"}, []string{"r1 r2", "g1 g2", "y1 y2"}, "r5", "b6 b7 b8 b9 g5 g6")
		apply(t, s, PlayMove(card(t, "r1")))
		pendingIs(t, s, 0, DecideCallUNO)
		var a, b State
		a.CopyFrom(s)
		b.CopyFrom(s)
		apply(t, &a, callUNO)
		apply(t, &b, pass)
		pendingIs(t, &b, 1, DecideCatch)
		apply(t, &b, catchUNO, pass) // seat 1 catches, seat 2 does not
		if a.hands[0].Size() != 1 || !a.unoCalled[0] || b.hands[0].Size() != 3 || b.res.Count[CountUnoPenalty] != 1 {
			t.Fatalf("called: size %d; caught: size %d, penalties %d", a.hands[0].Size(), b.hands[0].Size(), b.res.Count[CountUnoPenalty])
		}
		pendingIs(t, s, 0, DecideCallUNO)
	})
}

// forker plays uniformly and, at every decision of seat 0 (the first few
// of each game), copies the position it is shown, plays the copy to the end
// by hand with the same choices (every seat's stream is copied too) and
// keeps the copy's result: each must equal the game's own. A position
// copied in the middle of a Game's play must be whole, whatever the Game
// did to go fast.
type forker struct {
	t       *testing.T
	results []Result
	forks   int
	n       int
}

func (f *forker) Decide(v *View, moves []Move) int {
	i := v.Rand().IntN(len(moves))
	if v.Seat() == 0 && f.forks < 6 {
		f.forks++
		var c State
		c.CopyFrom(v.s)
		c.seatRng[v.Seat()] = v.s.seatRng[v.Seat()] // the draw above is the copy's too
		if err := c.Apply(moves[i]); err != nil {
			f.t.Fatal(err)
		}
		ss := make([]Strategy, f.n)
		for k := range ss {
			ss[k] = uniform{}
		}
		drive(f.t, &c, ss)
		f.results = append(f.results, *c.Result())
	}
	return i
}

func TestCopiesMadeDuringAGameAreWhole(t *testing.T) {
	sets := [][]string{nil, {"stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "seven-zero=true", "jump-in=any", "deck=classic,wild-swap-hands=4"}, {"deflect-skip=true", "guilty-takes-back=true", "draw=until-playable"}}
	forks := 0
	for _, r := range []RuleSet{Classic, Party, Encanto} {
		for _, set := range sets {
			for _, n := range []int{2, 4} {
				f := &forker{t: t, n: n}
				ss := make([]Strategy, n)
				ss[0] = f
				for k := 1; k < n; k++ {
					ss[k] = uniform{}
				}
				g, err := NewGame(testOptions(t, r, set...), ss)
				if err != nil {
					t.Fatal(err)
				}
				for i := range uint64(15) {
					f.results, f.forks = f.results[:0], 0
					want := *g.Play(6, i)
					for k, got := range f.results {
						if got != want {
							t.Fatalf("%s %v %dp game %d: fork %d ends %+v, the game %+v", r, set, n, i, k, got, want)
						}
					}
					forks += len(f.results)
				}
			}
		}
	}
	if forks < 300 {
		t.Fatalf("only %d forks", forks)
	}
}

// Drawing clears a UNO call: the card that made it is no longer the last.
func TestScenarioDrawClearsUNOCall(t *testing.T) {
	tb := newTable(t, Classic, 2, "hand-size=2")
	tb.deal([]string{"r1 r2", "g1 g2"}, "r5", "b6 b7 b8 b9")
	tb.expect(want{0, DecideTurn, play(t, "r1")})
	tb.step() // seat 0 plays r1 and calls UNO (the script's first answer)
	if !tb.g.CalledUNO(0) {
		t.Fatal("seat 0 did not call UNO")
	}
	tb.expect(want{1, DecideTurn, play(t, "g1")})
	tb.step() // seat 1 answers on the 1: green
	tb.step() // seat 0 holds r2: nothing plays on green 1, it draws b6
	if tb.g.Hand(0).Size() != 2 || tb.g.CalledUNO(0) {
		t.Fatalf("after drawing: size %d, UNO still called %v", tb.g.Hand(0).Size(), tb.g.CalledUNO(0))
	}
	tb.done()
}
