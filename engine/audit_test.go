package engine

import (
	"fmt"
	"testing"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// Determinizing for a seat forgets the card another seat just drew and is
// deciding on (the searcher never saw it), and keeps the searcher's own.
func TestDeterminizeDrawnCard(t *testing.T) {
	o := testOptions(t, Classic)
	found := 0
	buf := make([]Move, 0, maxMoves)
	for game := uint64(0); game < 40 && found < 20; game++ {
		s, err := NewState(o, 3)
		if err != nil {
			t.Fatal(err)
		}
		s.Start(1, game)
		for !s.Over() {
			p, d := s.Pending()
			if d == DecideDrawn {
				found++
				for _, seat := range []int{p, (p + 1) % 3} {
					var a State
					var rng Rand
					rng.Seed(5, game, Purpose(seat))
					v := s.View(seat)
					v.Determinize(&a, &rng, nil)
					want := NoCard
					if seat == p {
						want = s.drawn
					}
					if a.drawn != want {
						t.Fatalf("game %d: seat %d decides on drawn %s; determinized for seat %d it is %s, want %s", game, p, s.drawn, seat, a.drawn, want)
					}
				}
			}
			moves := s.Moves(buf[:0])
			v := s.View(p)
			if err := s.Apply(moves[uniform{}.Decide(&v, moves)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no drawn-card decision met")
	}
}

// kindsIn finds the kinds held, as a loop over them does, for counts of
// every size at every kind.
func TestKindsIn(t *testing.T) {
	var rng Rand
	rng.Seed(3, 0, PurposeTable)
	for range 2000 {
		var counts [NumCards]uint8
		for c := range counts {
			if rng.Uint64()%3 == 0 {
				counts[c] = uint8(rng.Uint64())
			}
		}
		want := uint64(0)
		for c, x := range counts {
			if x > 0 {
				want |= 1 << c
			}
		}
		if got := kindsIn(&counts); got != want {
			t.Fatalf("counts %v: kinds %b, want %b", counts, got, want)
		}
	}
}

// A mini-pile set from elsewhere (SetMiniPile) is what its taker is known
// to hold, as a pile seen card by card is.
func TestKnowledgeSetMiniPile(t *testing.T) {
	s, err := NewState(testOptions(t, Party), 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Start(1, 0)
	v := s.View(0)
	red5, wild := MakeCard(Red, Five), WildCard(Wild)
	var pile [NumCards]uint8
	pile[red5], pile[wild] = 2, 1
	var told, set Knowledge
	told.Reset(0)
	set.Reset(0)
	told.Observe(&v, Event{Kind: EvPileFlip, Card: red5, N: 1})
	told.Observe(&v, Event{Kind: EvPile, Player: 2, Card: wild})
	told.Observe(&v, Event{Kind: EvPile, Player: 1, Card: red5})
	set.SetMiniPile(&pile)
	for _, k := range []*Knowledge{&told, &set} {
		k.Observe(&v, Event{Kind: EvPileTake, Player: 1, N: 3})
	}
	if told != set {
		t.Errorf("a mini-pile set knows %v, one seen card by card %v", set.known[1][:8], told.known[1][:8])
	}
	if told.Known(1, red5) != 2 || told.Known(1, wild) != 1 || told.KnownCards(1) != 3 {
		t.Errorf("seat 0 knows %d red 5, %d wild, %d cards of seat 1 after it took the mini-pile, want 2, 1, 3", told.Known(1, red5), told.Known(1, wild), told.KnownCards(1))
	}
}

// Reset forgets everything a knowledge holds: the known cards, the
// mini-pile and, where hands are exchanged, the seat's own hand.
func TestKnowledgeResetForgetsAll(t *testing.T) {
	for _, set := range [][]string{{"guilty-takes-back=true"}, {"seven-zero=true"}} {
		s, err := NewState(testOptions(t, Classic, set...), 3)
		if err != nil {
			t.Fatal(err)
		}
		s.Start(1, 0)
		var k Knowledge
		k.Reset(0)
		v := s.View(0)
		k.Observe(&v, Event{Kind: EvTurn, Player: 0})
		if set[0] == "guilty-takes-back=true" {
			k.Observe(&v, Event{Kind: EvTakeBack, Player: 1, Card: WildCard(WildDrawFour)})
		}
		if k == (Knowledge{seat: 0}) {
			t.Fatalf("%v: the knowledge holds nothing after its events: the test tests nothing", set)
		}
		k.Reset(2)
		if k != (Knowledge{seat: 2}) {
			t.Errorf("%v: a knowledge reset still holds something", set)
		}
	}
}

// A Wild Draw Four taken back (guilty-takes-back) is known to every other
// seat to be in its player's hand.
func TestKnowledgeTakeBack(t *testing.T) {
	s, err := NewState(testOptions(t, Classic, "guilty-takes-back=true"), 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Start(1, 0)
	wd4 := WildCard(WildDrawFour)
	var k Knowledge
	k.Reset(0)
	v := s.View(0)
	k.Observe(&v, Event{Kind: EvTakeBack, Player: 1, Card: wd4})
	if n := k.Known(1, wd4); n != 1 {
		t.Errorf("seat 0 knows %d Wild Draw Four in seat 1's hand after it took one back, want 1", n)
	}
	k.Observe(&v, Event{Kind: EvTakeBack, Player: 0, Card: wd4})
	if n := k.Known(0, wd4); n != 0 {
		t.Errorf("seat 0 records %d of its own cards as known, want 0", n)
	}
}

// Knowledge that claims more cards than a hand holds (stale, or another
// seat's) never changes the hand sizes; knowledge of another seat is not
// used at all.
func TestDeterminizeKnowledgeGuards(t *testing.T) {
	s := positionAt(t, DefaultOptions(Classic), 4, 3, 12)
	seat, _ := s.Pending()
	other := (seat + 1) % 4
	// A kind hidden from seat, with a copy in hiding.
	v := s.View(seat)
	hidden := NoCard
	for c := Card(0); c < Card(NumCards); c++ {
		if v.DeckCount(c)-v.Hand().Count(c)-v.Discarded(c) > 0 && s.hands[other].Count(c) == 0 {
			hidden = c
			break
		}
	}
	if hidden == NoCard {
		t.Skip("no hidden kind outside the other hand")
	}
	var over Knowledge
	over.Reset(seat)
	for c := range over.known[other] {
		over.known[other][c] = 9 // more than any hand holds
	}
	var foreign Knowledge
	foreign.Reset((seat + 2) % 4) // another seat's knowledge
	foreign.known[other][hidden] = 1
	always := true
	for i := range 30 {
		var rng Rand
		rng.Seed(7, uint64(i), 0)
		var a State
		v.Determinize(&a, &rng, &over)
		for q := 0; q < 4; q++ {
			if a.hands[q].size != s.hands[q].size {
				t.Fatalf("determinization %d: seat %d holds %d cards, want %d", i, q, a.hands[q].size, s.hands[q].size)
			}
		}
		var b State
		rng.Seed(8, uint64(i), 0)
		v.Determinize(&b, &rng, &foreign)
		if b.hands[other].Count(hidden) == 0 {
			always = false
		}
	}
	if always {
		t.Errorf("in 30 determinizations seat %d always held %s, which only another seat's knowledge put there", other, hidden)
	}
}

// forgetful never calls UNO and always catches; otherwise it plays the
// first move.
type forgetful struct{}

func (forgetful) Decide(v *View, moves []Move) int {
	for i, m := range moves {
		if k := m.Kind(); k == MovePass && v.Decision() == DecideCallUNO || k == MoveCatch {
			return i
		}
	}
	return 0
}

// When several players catch a missed UNO call, each of them is the
// catcher in some games (the choice is random among all of them).
func TestCatcherChosenAmongAll(t *testing.T) {
	g, err := NewGame(testOptions(t, Classic), []Strategy{forgetful{}, forgetful{}, forgetful{}})
	if err != nil {
		t.Fatal(err)
	}
	var by [3][3]int // by[player][catcher]
	g.SetLog(func(e Event) {
		if e.Kind == EvCatch {
			by[e.Player][e.Other]++
		}
	})
	for i := range uint64(200) {
		g.Play(1, i)
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for p := range 3 {
		for d := 1; d < 3; d++ {
			if c := (p + d) % 3; by[p][c] == 0 {
				t.Errorf("seat %d never caught seat %d in 200 games (catches: %v)", c, p, by)
			}
		}
	}
}

// Driven move by move (every play that stops for a color or an UNO call
// resumed through Apply), a round never runs past max-turns.
func TestApplyRespectsMaxTurns(t *testing.T) {
	buf := make([]Move, 0, maxMoves)
	for _, k := range []int{5, 8, 13, 21, 34} {
		o := testOptions(t, Classic, fmt.Sprintf("max-turns=%d", k), "draw=until-playable")
		for game := range uint64(60) {
			s, err := NewState(o, 3)
			if err != nil {
				t.Fatal(err)
			}
			s.Start(1, game)
			for !s.Over() {
				p, _ := s.Pending()
				moves := s.Moves(buf[:0])
				v := s.View(p)
				if err := s.Apply(moves[uniform{}.Decide(&v, moves)]); err != nil {
					t.Fatal(err)
				}
			}
			if r := s.Result(); r.Turns > k {
				t.Fatalf("max-turns=%d, game %d: %d turns", k, game, r.Turns)
			}
		}
	}
}

// wildChooser chooses its turn without a move list, always a Wild Draw
// Four, legal or not, held or not; drawChooser always draws.
type wildChooser struct{ uniform }

func (wildChooser) ChooseTurn(v *View) Move { return PlayMove(WildCard(WildDrawFour)) }

type drawChooser struct{ uniform }

func (drawChooser) ChooseTurn(v *View) Move { return SimpleMove(MoveDraw) }

// A TurnChooser that names a move the turn does not offer is a fault the
// Game reports, naming the seat, the move and the game, and the game goes
// on with the turn's first move; one whose moves are legal (drawing, without
// forced play) is asked without fault.
func TestTurnChooserFault(t *testing.T) {
	for _, c := range []struct {
		s     Strategy
		fault bool
	}{{wildChooser{}, true}, {drawChooser{}, false}} {
		g, err := NewGame(testOptions(t, Classic), []Strategy{c.s, uniform{}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(20) {
			if r := g.Play(1, i); r.Turns == 0 || r.Outcome == Finished && r.Winners == 0 {
				t.Fatalf("%T: game %d did not play", c.s, i)
			}
			err := g.Err()
			if !c.fault {
				if err != nil {
					t.Fatalf("%T: %v", c.s, err)
				}
				continue
			}
			want := fmt.Sprintf("the strategy of seat 0 chose %s, not a legal move, at decision turn of game %d", PlayMove(WildCard(WildDrawFour)), i)
			if err == nil || err.Error() != want {
				t.Fatalf("fault %v, want %q", err, want)
			}
		}
	}
}
