package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// Scenario tests on stacked decks for every house rule of RULES.md section 7,
// every UNO Party! rule (section 8) and every UNO: Encanto rule (section 9),
// with the edges RULES.md names. Where the engine disagrees with RULES.md the
// test is written the way RULES.md says.

// ---------------------------------------------------------------------------
// Helpers (prefixed v to keep clear of the other scenario files).

// vDeal starts a round dealt by dealer on a stacked deck.
func vDeal(tb *table, dealer int, hands []string, flips, draw string) {
	t := tb.t
	t.Helper()
	if err := tb.g.StackDeck(stackedOrder(t, tb.g, dealer, hands, flips, draw)); err != nil {
		t.Fatal(err)
	}
	tb.g.StartRound()
	if tb.g.Dealer() != dealer {
		t.Fatalf("the engine chose dealer %d, the stacked deal assumed %d", tb.g.Dealer(), dealer)
	}
	tb.check()
}

// vTable is a scripted table whose seats have reaction speeds and an
// optional hook that sees every decision before the script answers it.
type vTable struct {
	*table
	hook func(v *View, moves []Move)
}

type vSeat struct {
	vt    *vTable
	speed float64
}

func (s vSeat) Decide(v *View, moves []Move) int {
	if s.vt.hook != nil {
		s.vt.hook(v, moves)
	}
	return scriptSeat{s.vt.table}.Decide(v, moves)
}

func (s vSeat) ReactionSpeed() float64 { return s.speed }

// vNewTable is newTable with a hook and a reaction speed per seat (nil: 1).
func vNewTable(t testing.TB, r RuleSet, n int, speeds []float64, sets ...string) *vTable {
	t.Helper()
	vt := &vTable{table: &table{t: t}}
	ss := make([]Strategy, n)
	for i := range ss {
		sp := 1.0
		if speeds != nil {
			sp = speeds[i]
		}
		ss[i] = vSeat{vt, sp}
	}
	vt.start(testOptions(t, r, sets...), ss)
	return vt
}

// vSizes checks every hand's size only.
func vSizes(t *testing.T, tb *table, what string, sizes ...int) {
	t.Helper()
	if !slices.Equal(tb.sizes(), sizes) {
		t.Errorf("%s: sizes %v, want %v", what, tb.sizes(), sizes)
	}
}

// vHand checks seat p's exact hand.
func vHand(t *testing.T, tb *table, p int, want string) {
	t.Helper()
	w := cards(t, want)
	slices.Sort(w)
	if got := tb.handOf(p); !slices.Equal(got, w) {
		t.Errorf("seat %d holds %v, want %v", p, got, w)
	}
}

// vEvents lists the logged events of kind k.
func vEvents(tb *table, k EventKind) []Event {
	var out []Event
	for _, e := range tb.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// vWho lists the Player of each event.
func vWho(es []Event) []int {
	out := []int{}
	for _, e := range es {
		out = append(out, e.Player)
	}
	return out
}

// vEventIndex is the index of the first event of kind k, or -1.
func vEventIndex(tb *table, k EventKind) int {
	for i, e := range tb.events {
		if e.Kind == k {
			return i
		}
	}
	return -1
}

func vMoves(t *testing.T, what string, got, want []Move) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: offered %v, want %v", what, got, want)
	}
}

func vStack(t testing.TB, s string) Move   { return CardMove(MoveStack, card(t, s)) }
func vDeflect(t testing.TB, s string) Move { return CardMove(MoveDeflect, card(t, s)) }
func vJump(t testing.TB, s string) Move    { return CardMove(MoveJump, card(t, s)) }
func vTarget(p int) Move                   { return PlayerMove(MoveTarget, p) }
func vPoint(p int) Move                    { return PlayerMove(MovePoint, p) }
func vColor(c Color) Move                  { return ColorMove(c) }

// vEnd ends the round and returns the winner's points of a single game.
func vEnd(t *testing.T, tb *table) int {
	t.Helper()
	if !tb.g.RoundOver() {
		t.Fatalf("the round is not over")
	}
	w := tb.g.RoundWinner()
	tb.g.EndRound()
	if w < 0 {
		t.Fatalf("the round has no winner")
	}
	return tb.g.Result().Scores[w]
}

// ---------------------------------------------------------------------------
// Section 7: stack-draw-two, stack-draw-four, stack-mixed.

func TestVariantStackDrawTwo(t *testing.T) {
	hands := []string{"r+2 g1 g2", "b+2 b3 b4", "y+2 y3 y4", "W+4 g4 g5"}
	t.Run("the total grows until someone cannot stack", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "stack-draw-two=true")
		tb.deal(hands, "r5", "y6 y7 y8 y9 b6 b7")
		tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vStack(t, "b+2")}, want{2, DecideRespond, vStack(t, "y+2")})
		tb.step()
		tb.done()
		vMoves(t, "seat 1 facing 2", tb.offered(1, DecideRespond), []Move{accept, vStack(t, "b+2")})
		vMoves(t, "seat 2 facing 4", tb.offered(2, DecideRespond), []Move{accept, vStack(t, "y+2")})
		if got := tb.offered(3, DecideRespond); got != nil {
			t.Errorf("seat 3 holds no Draw Two (a Wild Draw Four needs stack-mixed) but was offered %v", got)
		}
		checkState(t, tb, "seat 3 drew the total", 0, 1, Yellow, "y+2", 2, 2, 2, 9)
		vHand(t, tb, 3, "W+4 g4 g5 y6 y7 y8 y9 b6 b7")
		if st := vEvents(tb, EvStack); len(st) != 2 || st[0].N != 4 || st[1].N != 6 {
			t.Errorf("stack events %v, want totals 4 then 6", st)
		}
		if got := tb.g.Turns(); got != 3 {
			t.Errorf("turns %d, want 3 (the play and two stacks; the skipped player takes none)", got)
		}
		checkCounts(t, tb, "", map[Counter]int{CountStack: 2, CountDrawTwo: 3, CountTurnLost: 1})
	})
	t.Run("a player who will not stack draws it all", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "stack-draw-two=true")
		tb.deal(hands, "r5", "y6 y7 y8 y9 b6 b7")
		tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vStack(t, "b+2")}, want{2, DecideRespond, accept})
		tb.step()
		tb.done()
		checkState(t, tb, "seat 2 drew 4 and lost the turn", 3, 1, Blue, "b+2", 2, 2, 7, 3)
		vHand(t, tb, 2, "y+2 y3 y4 y6 y7 y8 y9")
		if sk := vWho(vEvents(tb, EvSkip)); !slices.Equal(sk, []int{2}) {
			t.Errorf("skipped %v, want [2]", sk)
		}
	})
}

func TestVariantStackDrawFour(t *testing.T) {
	opts := []string{"hand-size=3", "stack-draw-four=true"}
	pile := "y6 y7 y8 y9 b8 b9 r8 r9 g8 g9"
	t.Run("the total grows", func(t *testing.T) {
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"W+4 g1 g2", "W+4 b3 b4", "g3 y4 y5", "b5 b6 b7"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Yellow)},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, accept})
		tb.step()
		tb.done()
		vMoves(t, "seat 1 facing a Wild Draw Four", tb.offered(1, DecideRespond), []Move{accept, challenge, vStack(t, "W+4")})
		vMoves(t, "seat 2 facing 8", tb.offered(2, DecideRespond), []Move{accept, challenge})
		checkState(t, tb, "seat 2 drew 8", 3, 1, Green, "W+4", 2, 2, 11, 3)
		checkCounts(t, tb, "", map[Counter]int{CountStack: 1, CountWildDrawFour: 2, CountBluff: 0, CountChallenge: 0})
		if got := tb.g.Turns(); got != 2 {
			t.Errorf("turns %d, want 2", got)
		}
	})
	t.Run("a challenge judges only the last Wild Draw Four: legal", func(t *testing.T) {
		// Seat 0 bluffs (it holds red 1 against red); seat 1 stacks legally
		// (no yellow). The challenge concerns seat 1's card only.
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"W+4 r1 g2", "W+4 b3 b4", "g3 y4 y5", "b5 b6 b7"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Yellow)},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, challenge})
		tb.step()
		tb.done()
		checkState(t, tb, "challenger drew total + 2 = 10", 3, 1, Green, "W+4", 2, 2, 13, 3)
		checkCounts(t, tb, "", map[Counter]int{CountBluff: 1, CountChallenge: 1, CountChallengeWon: 0})
		if h, ok := tb.g.views[2].Revealed(); !ok || h.Size() != 2 || h.Count(card(t, "b3")) != 1 {
			t.Errorf("the challenger was not shown seat 1's hand [b3 b4]: %v %v", h, ok)
		}
		if _, ok := tb.g.views[3].Revealed(); ok {
			t.Errorf("seat 3 was shown the hand too")
		}
	})
	t.Run("a challenge judges only the last Wild Draw Four: illegal", func(t *testing.T) {
		// Seat 1 stacks while holding blue, the named color: a bluff. It
		// draws the whole pending total; the challenger then plays normally.
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"W+4 g1 g2", "W+4 b3 b4", "g3 y4 y5", "b5 b6 b7"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Blue)},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, challenge})
		tb.step()
		checkState(t, tb, "the bluffer drew 8, the challenger is to play", 2, 1, Green, "W+4", 2, 10, 3, 3)
		checkCounts(t, tb, "", map[Counter]int{CountBluff: 1, CountChallenge: 1, CountChallengeWon: 1})
		tb.expect(want{2, DecideTurn, play(t, "g3")})
		tb.step()
		tb.done()
		checkState(t, tb, "the challenger played", 3, 1, Green, "g3", 2, 10, 2, 3)
		if got := tb.g.Turns(); got != 3 {
			t.Errorf("turns %d, want 3", got)
		}
	})
}

func TestVariantStackMixed(t *testing.T) {
	opts := []string{"hand-size=3", "stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true"}
	pile := "y4 y5 y6 y7 y8 y9 b8 b9"
	t.Run("Wild Draw Four on Draw Two, Draw Two of the named color on it", func(t *testing.T) {
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"r+2 r1 r2", "W+4 b3 b4", "g+2 b+2 y1", "y+2 W+4 y3"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "r+2")},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, vStack(t, "g+2")},
			want{3, DecideRespond, accept})
		tb.step()
		tb.done()
		vMoves(t, "seat 1 facing a Draw Two", tb.offered(1, DecideRespond), []Move{accept, vStack(t, "W+4")})
		vMoves(t, "seat 2 facing a green Wild Draw Four (blue Draw Two not allowed)", tb.offered(2, DecideRespond),
			[]Move{accept, challenge, vStack(t, "g+2")})
		vMoves(t, "seat 3 facing a Draw Two", tb.offered(3, DecideRespond), []Move{accept, vStack(t, "y+2"), vStack(t, "W+4")})
		checkState(t, tb, "seat 3 drew 8", 0, 1, Green, "g+2", 2, 2, 2, 11)
		if st := vEvents(tb, EvStack); len(st) != 2 || st[0].N != 6 || st[1].N != 8 {
			t.Errorf("stack events %v, want totals 6 then 8", st)
		}
	})
	t.Run("challenge of a stacked illegal Wild Draw Four", func(t *testing.T) {
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"r+2 r1 r2", "W+4 r3 b4", "g+2 b+2 y1", "y+2 W+4 y3"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "r+2")},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, challenge})
		tb.step()
		tb.done()
		checkState(t, tb, "the bluffer drew the pending 6; the challenger plays", 2, 1, Green, "W+4", 2, 8, 3, 3)
		checkCounts(t, tb, "", map[Counter]int{CountChallengeWon: 1, CountStack: 1})
	})
	t.Run("challenge of a stacked legal Wild Draw Four", func(t *testing.T) {
		tb := newTable(t, Classic, 4, opts...)
		tb.deal([]string{"r+2 r1 r2", "W+4 b3 b4", "g+2 b+2 y1", "y+2 W+4 y3"}, "r5", pile)
		tb.expect(want{0, DecideTurn, play(t, "r+2")},
			want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
			want{2, DecideRespond, challenge})
		tb.step()
		tb.done()
		checkState(t, tb, "the challenger drew 6 + 2 and lost the turn", 3, 1, Green, "W+4", 2, 2, 11, 3)
	})
}

// A stacked or deflected total as the final card: the next player draws it
// all, with no response offered (RULES.md section 4, step 2).
func TestVariantStackFinalCard(t *testing.T) {
	for _, c := range []struct {
		name  string
		opt   string
		hands []string
		first []want // seat 0's play of the attack
		move  Move
		drawn string
		score int
	}{
		{"stack-draw-two", "stack-draw-two=true", []string{"r+2 g9", "r6 b+2", "r7 y+2"}, []want{{0, DecideTurn, PlayMove(MakeCard(Red, DrawTwo))}},
			CardMove(MoveStack, MakeCard(Blue, DrawTwo)), "y2 y3 y4 y6", 10 + 20 + 15},
		{"deflect-draw-two", "deflect-draw-two=true", []string{"r+2 g9", "r6 b+2", "r7 y+2"}, []want{{0, DecideTurn, PlayMove(MakeCard(Red, DrawTwo))}},
			CardMove(MoveDeflect, MakeCard(Blue, DrawTwo)), "y2 y3", 10 + 20 + 5},
		{"stack-draw-four", "stack-draw-four=true", []string{"W+4 g9", "r6 W+4", "r7 y+2"},
			[]want{{0, DecideTurn, PlayMove(WildCard(WildDrawFour))}, {0, DecideColor, ColorMove(Green)}},
			CardMove(MoveStack, WildCard(WildDrawFour)), "y2 y3 y4 y6 y7 y8 y9 b1", 10 + 20 + 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=2", c.opt)
			tb.deal(c.hands, "r5", "y1 "+c.drawn)
			tb.expect(want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r6")}, want{2, DecideTurn, play(t, "r7")})
			tb.expect(c.first...)
			tb.expect(want{1, DecideRespond, c.move})
			for range 4 {
				tb.step()
			}
			tb.done()
			g := tb.g
			if !g.RoundOver() || g.RoundWinner() != 1 {
				t.Fatalf("round over %v, winner %d; want seat 1 out", g.RoundOver(), g.RoundWinner())
			}
			vHand(t, tb, 2, "y+2 "+c.drawn)
			if n := askedCount(tb, 2, DecideRespond); n != 0 {
				t.Errorf("seat 2 was offered a response (stack, deflection or challenge) to a final card %d times", n)
			}
			if got := vEnd(t, tb); got != c.score {
				t.Errorf("winner scores %d, want %d (the drawn cards count)", got, c.score)
			}
		})
	}
}

// An exhausted deck during a stack: what cannot be drawn is forgiven.
func TestVariantStackExhaustedDeck(t *testing.T) {
	tb := newTable(t, Classic, 3, "hand-size=2", "stack-draw-two=true",
		"deck=red-draw-two=1,red-1=1,blue-draw-two=1,blue-1=1,green-1=1,green-2=1,red-5=1,yellow-1=1")
	tb.deal([]string{"r+2 r1", "b+2 b1", "g1 g2"}, "r5", "y1")
	tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vStack(t, "b+2")})
	tb.step()
	tb.done()
	checkState(t, tb, "seat 2 drew what there was", 0, 1, Blue, "b+2", 1, 1, 5)
	checkCounts(t, tb, "", map[Counter]int{CountForgiven: 1, CountReshuffle: 1, CountStack: 1})
	if f := vEvents(tb, EvForgiven); len(f) != 1 || f[0].Player != 2 || f[0].N != 1 {
		t.Errorf("forgiven events %v, want seat 2 forgiven 1", f)
	}
	if tb.g.DrawPileSize() != 0 || tb.g.DiscardSize() != 1 {
		t.Errorf("draw pile %d, discard %d; want 0 and 1", tb.g.DrawPileSize(), tb.g.DiscardSize())
	}
}

// RULES.md section 7 (a challenge in a stack concerns only the last Wild
// Draw Four; its bluffer draws the whole pending total) with section 4's
// guilty-takes-back (the card back into the hand, the color reverts to the
// reference color, the challenger plays against the restored top), as the
// decision of section 7 puts them together.
func TestVariantStackGuiltyTakesBack(t *testing.T) {
	tb := newTable(t, Classic, 4, "hand-size=3", "stack-draw-four=true", "guilty-takes-back=true")
	// Seat 0's Wild Draw Four is legal (no red); seat 1 stacks while holding
	// blue, the color seat 0 named: a bluff.
	tb.deal([]string{"W+4 g1 g2", "W+4 b3 b4", "g3 y4 y5", "b5 b6 b7"}, "r5", "y6 y7 y8 y9 b8 b9 r8 r9 g8 g9")
	tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Blue)},
		want{1, DecideRespond, vStack(t, "W+4")}, want{1, DecideColor, vColor(Green)},
		want{2, DecideRespond, challenge})
	tb.step()
	// Seat 1 holds b3 b4, its Wild Draw Four back, and the pending 8.
	checkState(t, tb, "the bluffer took its card back and drew 8", 2, 1, Blue, "W+4", 2, 11, 3, 3)
	vHand(t, tb, 1, "W+4 b3 b4 y6 y7 y8 y9 b8 b9 r8 r9")
	if tb.g.DiscardSize() != 2 {
		t.Errorf("discard %d, want 2 (r5 and seat 0's Wild Draw Four)", tb.g.DiscardSize())
	}
	checkCounts(t, tb, "", map[Counter]int{CountChallenge: 1, CountChallengeWon: 1, CountBluff: 1, CountStack: 1})
	// The challenger plays normally against the restored top: blue.
	tb.step()
	tb.done()
	if got := tb.offered(2, DecideTurn); got != nil {
		t.Errorf("seat 2 holds no blue and no wild but was offered %v", got)
	}
	vHand(t, tb, 2, "g3 y4 y5 g8")
	checkState(t, tb, "the challenger drew", 3, 1, Blue, "W+4", 2, 11, 4, 3)
}

// ---------------------------------------------------------------------------
// Section 7: deflect-draw-two, deflect-draw-four, deflect-skip.

func TestVariantDeflectDrawTwo(t *testing.T) {
	hands := []string{"r+2 g1 g2", "b+2 b3 b4", "y+2 y3 y4", "g3 g4 g5"}
	t.Run("passes on without growing", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-draw-two=true")
		tb.deal(hands, "r5", "y6 y7 y8")
		tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vDeflect(t, "b+2")}, want{2, DecideRespond, vDeflect(t, "y+2")})
		tb.step()
		tb.done()
		vMoves(t, "seat 1's answers", tb.offered(1, DecideRespond), []Move{accept, vDeflect(t, "b+2")})
		checkState(t, tb, "seat 3 drew 2", 0, 1, Yellow, "y+2", 2, 2, 2, 5)
		vHand(t, tb, 3, "g3 g4 g5 y6 y7")
		checkCounts(t, tb, "", map[Counter]int{CountDrawDeflect: 2, CountSkipDeflect: 0, CountStack: 0, CountTurnLost: 1})
		if got := tb.g.Turns(); got != 3 {
			t.Errorf("turns %d, want 3 (a deflection is the deflector's turn)", got)
		}
	})
	t.Run("the first who does not deflect draws 2", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-draw-two=true")
		tb.deal(hands, "r5", "y6 y7 y8")
		tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vDeflect(t, "b+2")}, want{2, DecideRespond, accept})
		tb.step()
		tb.done()
		checkState(t, tb, "seat 2 drew 2", 3, 1, Blue, "b+2", 2, 2, 5, 3)
	})
}

func TestVariantDeflectDrawFour(t *testing.T) {
	hands := []string{"W+4 y1 y2", "g+2 b+2 b3", "W+4 r+2 y3", "b4 b5 b6"}
	t.Run("the next player faces an ordinary Draw Two", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-draw-four=true")
		tb.deal(hands, "r5", "y4 y5")
		tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Green)}, want{1, DecideRespond, vDeflect(t, "g+2")})
		tb.step()
		tb.done()
		vMoves(t, "seat 1 facing a green Wild Draw Four", tb.offered(1, DecideRespond), []Move{accept, challenge, vDeflect(t, "g+2")})
		if got := tb.offered(2, DecideRespond); got != nil {
			t.Errorf("seat 2 faces an ordinary Draw Two (no challenge, no stack) but was offered %v", got)
		}
		checkState(t, tb, "seat 2 drew 2", 3, 1, Green, "g+2", 2, 2, 5, 3)
		vHand(t, tb, 2, "W+4 r+2 y3 y4 y5")
		checkCounts(t, tb, "", map[Counter]int{CountDrawDeflect: 1, CountChallenge: 0})
	})
	t.Run("with deflect-draw-two the Draw Two deflects on", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-draw-four=true", "deflect-draw-two=true")
		tb.deal(hands, "r5", "y4 y5")
		tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Green)}, want{1, DecideRespond, vDeflect(t, "g+2")},
			want{2, DecideRespond, vDeflect(t, "r+2")})
		tb.step()
		tb.done()
		vMoves(t, "seat 2 facing the Draw Two", tb.offered(2, DecideRespond), []Move{accept, vDeflect(t, "r+2")})
		checkState(t, tb, "seat 3 drew 2", 0, 1, Red, "r+2", 2, 2, 2, 5)
	})
}

// Wild kinds other than Wild Draw Four as the official first discard: P
// names the color, with no other effect. Under flip-until-number every
// flipped card stays without effect.
func TestVariantPartyStartCards(t *testing.T) {
	for _, c := range []struct {
		rules RuleSet
		flip  string
	}{{Party, "WP"}, {Party, "WT"}, {Encanto, "WD"}} {
		t.Run("official "+c.flip, func(t *testing.T) {
			tb := newTable(t, c.rules, 3, "hand-size=2", "start-card=official")
			tb.expect(want{0, DecideColor, vColor(Yellow)})
			tb.deal([]string{"g1 g2", "b1 b2", "y1 y2"}, c.flip, "")
			tb.done()
			if _, _, ok := tb.g.Link(); ok || tb.g.MiniPileSize() != 0 || tb.g.Silenced(1) || tb.g.Silenced(2) {
				t.Errorf("the first discard %s had an effect", c.flip)
			}
			checkState(t, tb, "P plays", 0, 1, Yellow, c.flip, 2, 2, 2)
		})
	}
	t.Run("flip-until-number", func(t *testing.T) {
		tb := newTable(t, Party, 3, "hand-size=2")
		tb.deal([]string{"g1 g2", "b1 b2", "y1 y2"}, "rP WP WT r+2 W+4 b5", "")
		if len(tb.log) != 0 {
			t.Errorf("decisions were asked for flipped cards: %+v", tb.log)
		}
		if _, _, ok := tb.g.Link(); ok || tb.g.MiniPileSize() != 0 || tb.g.DiscardSize() != 6 {
			t.Errorf("a flipped card had an effect (discard %d)", tb.g.DiscardSize())
		}
		checkState(t, tb, "P plays on blue 5", 0, 1, Blue, "b5", 2, 2, 2)
	})
}

// RULES.md section 2: a Skip as the first discard skips P; no one played
// it, so there is nothing to deflect (the decision of section 7, as for a
// Draw Two as the first card).
func TestVariantDeflectSkipStartCard(t *testing.T) {
	tb := newTable(t, Classic, 3, "hand-size=2", "deflect-skip=true")
	tb.deal([]string{"rS b1", "y1 y2", "g3 g4"}, "rS", "")
	if n := askedCount(tb, 0, DecideRespond); n != 0 {
		t.Errorf("P was offered to deflect the first discard %d times", n)
	}
	checkState(t, tb, "P skipped", 1, 1, Red, "rS", 2, 2, 2)
	checkCounts(t, tb, "", map[Counter]int{CountTurnLost: 1, CountSkipDeflect: 0})
}

func TestVariantDeflectSkip(t *testing.T) {
	t.Run("the identical Skip passes the skip on", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-skip=true")
		tb.deal([]string{"rS g1 g2", "rS bS b3", "y3 y4 y5", "g3 g4 g5"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "rS")}, want{1, DecideRespond, vDeflect(t, "rS")})
		tb.step()
		tb.done()
		vMoves(t, "seat 1's answers (blue Skip is not identical)", tb.offered(1, DecideRespond), []Move{accept, vDeflect(t, "rS")})
		checkState(t, tb, "seat 2 is skipped", 3, 1, Red, "rS", 2, 2, 3, 3)
		if sk := vWho(vEvents(tb, EvSkip)); !slices.Equal(sk, []int{2}) {
			t.Errorf("skipped %v, want [2]", sk)
		}
		checkCounts(t, tb, "", map[Counter]int{CountSkipDeflect: 1, CountDrawDeflect: 0, CountTurnLost: 1})
		if got := tb.g.Turns(); got != 2 {
			t.Errorf("turns %d, want 2", got)
		}
	})
	t.Run("declining is being skipped", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "deflect-skip=true")
		tb.deal([]string{"rS g1 g2", "rS bS b3", "y3 y4 y5", "g3 g4 g5"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "rS")}, want{1, DecideRespond, accept})
		tb.step()
		tb.done()
		checkState(t, tb, "seat 1 is skipped", 2, 1, Red, "rS", 2, 3, 3, 3)
	})
	t.Run("two players: the skip comes back", func(t *testing.T) {
		tb := newTable(t, Classic, 2, "hand-size=3", "deflect-skip=true")
		tb.deal([]string{"rS g1 g2", "rS b3 b4"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "rS")}, want{1, DecideRespond, vDeflect(t, "rS")})
		tb.step()
		tb.done()
		checkState(t, tb, "seat 0 is skipped", 1, 1, Red, "rS", 2, 2)
		if sk := vWho(vEvents(tb, EvSkip)); !slices.Equal(sk, []int{0}) {
			t.Errorf("skipped %v, want [0]", sk)
		}
	})
}

// ---------------------------------------------------------------------------
// Section 7: jump-in (Speed Play).

// The player whose turn begins cannot jump; a non-identical card cannot; a
// player who could not jump in one window can in the next; jumps are not turns.
func TestVariantJumpInNumbers(t *testing.T) {
	tb := newTable(t, Party, 4, "hand-size=3")
	tb.deal([]string{"r5 g1 g2", "b5 y1 y2", "r5 b1 b2", "r3 b6 b7"}, "r5", "y9")
	tb.expect(want{2, DecideJumpIn, vJump(t, "r5")}, want{0, DecideJumpIn, pass}, want{3, DecideTurn, play(t, "r3")})
	tb.step()
	tb.done()
	vMoves(t, "seat 2's jump-in", tb.offered(2, DecideJumpIn), []Move{vJump(t, "r5"), pass})
	if askedCount(tb, 1, DecideJumpIn) != 0 {
		t.Errorf("seat 1 holds blue 5, not red 5, and was asked to jump")
	}
	if n := askedCount(tb, 0, DecideJumpIn); n != 1 || askIndex(tb, 0, DecideJumpIn) < askIndex(tb, 2, DecideJumpIn) {
		t.Errorf("seat 0 was asked %d times; want once, in the second window only (its own turn was beginning in the first)", n)
	}
	if j := vWho(vEvents(tb, EvJumpIn)); !slices.Equal(j, []int{2}) {
		t.Errorf("jumps %v, want [2]", j)
	}
	if tr := vWho(vEvents(tb, EvTurn)); !slices.Equal(tr, []int{3}) {
		t.Errorf("turns taken by %v, want [3]: play continues after the jumper", tr)
	}
	if tb.g.Turns() != 1 {
		t.Errorf("turns %d, want 1: a jump is not a turn", tb.g.Turns())
	}
	checkState(t, tb, "after the jump and seat 3's turn", 0, 1, Red, "r3", 3, 3, 2, 2)
	checkCounts(t, tb, "", map[Counter]int{CountJumpIn: 1})
}

// The player who put the top card down may jump on it; the jump is a normal
// play with its UNO check.
func TestVariantJumpInByTheCardsPlayer(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=3")
	tb.deal([]string{"r7 r7 g1", "b1 b2 b3", "y1 y2 y3"}, "r5", "b8 b9 y9")
	tb.expect(want{0, DecideTurn, play(t, "r7")})
	tb.step()
	tb.expect(want{0, DecideJumpIn, vJump(t, "r7")}, want{0, DecideCallUNO, pass},
		want{1, DecideCatch, catchUNO}, want{2, DecideCatch, pass})
	tb.step()
	tb.done()
	if j := vWho(vEvents(tb, EvJumpIn)); !slices.Equal(j, []int{0}) {
		t.Errorf("jumps %v, want [0]", j)
	}
	checkState(t, tb, "seat 0 jumped, was caught; seat 1 then drew", 2, 1, Red, "r7", 3, 4, 3)
	vHand(t, tb, 0, "g1 b8 b9")
	checkCounts(t, tb, "", map[Counter]int{CountJumpIn: 1, CountUnoPenalty: 1})
	if tb.g.Turns() != 2 {
		t.Errorf("turns %d, want 2", tb.g.Turns())
	}
}

// Chains of jumps: the window opens again after each jump.
func TestVariantJumpInChain(t *testing.T) {
	tb := newTable(t, Party, 4, "hand-size=3")
	tb.deal([]string{"r7 g2 g3", "r7 b1 b2", "r7 y1 y2", "r7 b3 b4"}, "r1", "b9")
	tb.expect(want{0, DecideTurn, play(t, "r7")})
	tb.step()
	tb.expect(want{2, DecideJumpIn, vJump(t, "r7")}, want{3, DecideJumpIn, pass},
		want{1, DecideJumpIn, vJump(t, "r7")}, want{3, DecideJumpIn, vJump(t, "r7")})
	tb.step()
	tb.done()
	if j := vWho(vEvents(tb, EvJumpIn)); !slices.Equal(j, []int{2, 1, 3}) {
		t.Errorf("jumps %v, want [2 1 3]", j)
	}
	if tr := vWho(vEvents(tb, EvTurn)); !slices.Equal(tr, []int{0, 0}) {
		t.Errorf("turns taken by %v, want [0 0]", tr)
	}
	if tb.g.Turns() != 2 {
		t.Errorf("turns %d, want 2", tb.g.Turns())
	}
	checkState(t, tb, "after the chain seat 0 drew", 1, 1, Red, "r7", 3, 2, 2, 2)
	checkCounts(t, tb, "", map[Counter]int{CountJumpIn: 3})
}

// A jump with the last card wins the round, before any turn.
func TestVariantJumpInWins(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=1")
	tb.deal([]string{"g3", "b4", "r5"}, "r5", "")
	tb.expect(want{2, DecideJumpIn, vJump(t, "r5")})
	tb.step()
	tb.done()
	g := tb.g
	if !g.RoundOver() || g.RoundWinner() != 2 || g.Turns() != 0 {
		t.Fatalf("over %v winner %d turns %d; want seat 2 to win by jumping, no turn taken", g.RoundOver(), g.RoundWinner(), g.Turns())
	}
	if got := vEnd(t, tb); got != 7 {
		t.Errorf("winner scores %d, want 3 + 4", got)
	}
}

// jump-in = any: identical colored actions too, with their effects; never wilds.
func TestVariantJumpInAny(t *testing.T) {
	t.Run("skip", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "jump-in=any")
		tb.deal([]string{"rS bS g2", "b1 b2 b3", "y1 y2 y3", "rS b4 b5"}, "r5", "y9")
		tb.expect(want{0, DecideTurn, play(t, "rS")})
		tb.step()
		checkState(t, tb, "seat 1 skipped", 2, 1, Red, "rS", 2, 3, 3, 3)
		tb.expect(want{3, DecideJumpIn, vJump(t, "rS")})
		tb.step()
		tb.done()
		if askedCount(tb, 0, DecideJumpIn) != 0 {
			t.Errorf("seat 0 holds a blue Skip, not the red one, and was asked to jump")
		}
		if sk := vWho(vEvents(tb, EvSkip)); !slices.Equal(sk, []int{1, 0}) {
			t.Errorf("skipped %v, want [1 0]", sk)
		}
		checkState(t, tb, "seat 3 jumped, skipping seat 0; seat 1 drew", 2, 1, Red, "rS", 2, 4, 3, 2)
		if tb.g.Turns() != 2 {
			t.Errorf("turns %d, want 2", tb.g.Turns())
		}
	})
	t.Run("numbers does not jump on a Skip", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "jump-in=numbers")
		tb.deal([]string{"rS g1 g2", "b1 b2 b3", "y1 y2 y3", "rS b4 b5"}, "r5", "y9")
		tb.expect(want{0, DecideTurn, play(t, "rS")})
		tb.step()
		tb.step()
		tb.done()
		if n := askedCount(tb, 3, DecideJumpIn); n != 0 {
			t.Errorf("seat 3 was asked to jump on a Skip %d times", n)
		}
		checkState(t, tb, "seat 2 drew", 3, 1, Red, "rS", 2, 3, 4, 3)
	})
	t.Run("draw two", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "jump-in=any")
		tb.deal([]string{"r+2 g1 g2", "b1 b2 b3", "y1 y2 y3", "r+2 b4 b5"}, "r5", "y4 y5 y6 y7 y9")
		tb.expect(want{0, DecideTurn, play(t, "r+2")})
		tb.step()
		tb.expect(want{3, DecideJumpIn, vJump(t, "r+2")})
		tb.step()
		tb.done()
		checkState(t, tb, "seat 0 drew 2 from the jump", 2, 1, Red, "r+2", 4, 6, 3, 2)
		vHand(t, tb, 0, "g1 g2 y6 y7")
	})
	t.Run("reverse", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "jump-in=any")
		tb.deal([]string{"rR g1 g2", "rR b1 b2", "y1 y2 y3", "b3 b4 b5"}, "r5", "y9")
		tb.expect(want{0, DecideTurn, play(t, "rR")})
		tb.step()
		checkState(t, tb, "reversed", 3, -1, Red, "rR", 2, 3, 3, 3)
		tb.expect(want{1, DecideJumpIn, vJump(t, "rR")})
		tb.step()
		tb.done()
		// Seat 1 jumps: direction clockwise again, and the jumper's next
		// player (seat 2) takes the turn.
		checkState(t, tb, "seat 1 jumped", 3, 1, Red, "rR", 2, 2, 4, 3)
		if tr := vWho(vEvents(tb, EvTurn)); !slices.Equal(tr, []int{0, 2}) {
			t.Errorf("turns taken by %v, want [0 2]", tr)
		}
	})
	t.Run("wilds never", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "jump-in=any")
		tb.deal([]string{"W g1 g2", "b1 b2 b3", "W y1 y2", "b4 b5 b6"}, "r5", "y9")
		tb.expect(want{0, DecideTurn, play(t, "W")})
		tb.step()
		tb.step()
		tb.done()
		if n := askedCount(tb, 2, DecideJumpIn); n != 0 {
			t.Errorf("seat 2 was asked to jump on a Wild %d times", n)
		}
		checkCounts(t, tb, "", map[Counter]int{CountJumpIn: 0})
	})
}

// Stacking with jump-in (RULES.md section 4: the effect with its responses,
// penalty draws now, then the next turn, and only before it the jump-in
// window; section 7): no one jumps in on a Draw Two while it is pending, not
// even with the identical card; once the stack is drawn, the window opens on
// the top card, and a jumped-in Draw Two attacks the jumper's next player.
func TestVariantJumpInAfterStack(t *testing.T) {
	tb := newTable(t, Classic, 4, "hand-size=3", "stack-draw-two=true", "jump-in=any")
	tb.deal([]string{"r+2 b+2 g2", "b+2 b3 b4", "y5 y6 y7", "r+2 g8 g9"}, "r5", "y1 y2 y3 y4 g3 g4 r6")
	tb.expect(want{0, DecideTurn, play(t, "r+2")}, want{1, DecideRespond, vStack(t, "b+2")})
	tb.step()
	if n := askedCount(tb, 3, DecideJumpIn) + askedCount(tb, 0, DecideJumpIn); n != 0 {
		t.Errorf("a jump-in was offered %d times while the stack was pending", n)
	}
	// Seat 2 has no Draw Two: it draws the total of 4 and loses the turn.
	checkState(t, tb, "the stack drawn", 3, 1, Blue, "b+2", 2, 2, 7, 3)
	vHand(t, tb, 2, "y5 y6 y7 y1 y2 y3 y4")
	// Before seat 3's turn seat 0 jumps in with the identical blue Draw Two:
	// seat 1, its next player, draws 2 and loses the turn; then seat 2 draws.
	tb.expect(want{0, DecideJumpIn, vJump(t, "b+2")})
	tb.step()
	tb.done()
	vHand(t, tb, 1, "b3 b4 g3 g4")
	vHand(t, tb, 2, "y5 y6 y7 y1 y2 y3 y4 r6")
	checkState(t, tb, "after the jump and seat 2's draw", 3, 1, Blue, "b+2", 1, 4, 8, 3)
	if sk := vWho(vEvents(tb, EvSkip)); !slices.Equal(sk, []int{2, 1}) {
		t.Errorf("skipped %v, want [2 1]", sk)
	}
	if got := tb.g.Turns(); got != 3 {
		t.Errorf("turns %d, want 3 (the play, the stack, seat 2's draw; a jump is no turn)", got)
	}
	checkCounts(t, tb, "", map[Counter]int{CountJumpIn: 1, CountStack: 1})
}

// vRacer jumps in while the first window of a deal is open and draws on its
// turn; it has a reaction speed.
type vRacer struct {
	speed float64
	open  *bool
}

func (r vRacer) ReactionSpeed() float64 { return r.speed }

func (r vRacer) Decide(v *View, moves []Move) int {
	if v.Decision() == DecideJumpIn {
		for i, m := range moves {
			if (m.Kind() == MoveJump) == *r.open {
				return i
			}
		}
	}
	if v.Decision() == DecideTurn {
		return len(moves) - 1
	}
	return 0
}

// A jump-in race is decided at random, weighted by reaction speed, and is
// reproducible.
func TestVariantJumpInRace(t *testing.T) {
	race := func(t *testing.T, speeds []float64, games int) []int {
		t.Helper()
		open := true
		first := -1
		ss := make([]Strategy, 4)
		for i := range ss {
			ss[i] = vRacer{speeds[i], &open}
		}
		o := DefaultOptions(Party)
		o.HandSize = 3
		g, err := NewGame(o, ss)
		if err != nil {
			t.Fatal(err)
		}
		g.SetLog(func(e Event) {
			if e.Kind == EvJumpIn && open {
				open, first = false, e.Player
			}
		})
		order := stackedOrder(t, g, 3, []string{"g1 g2 g3", "r5 b1 b2", "r5 y1 y2", "r5 b3 b4"}, "r5", "b9")
		var out []int
		for i := range games {
			g.Reset(7, uint64(i))
			if err := g.StackDeck(order); err != nil {
				t.Fatal(err)
			}
			open, first = true, -1
			g.StartRound()
			g.Step()
			if err := g.Check(); err != nil {
				t.Fatal(err)
			}
			out = append(out, first)
		}
		return out
	}
	t.Run("weighted", func(t *testing.T) {
		const n = 4000
		got := race(t, []float64{1, 1, 2, 1}, n)
		var wins [4]int
		for _, w := range got {
			if w < 1 || w > 3 {
				t.Fatalf("jumper %d is not one of the jumpers 1-3", w)
			}
			wins[w]++
		}
		// Speeds 1:2:1 give 1/4, 1/2, 1/4; 5 standard errors of a binomial
		// proportion with n = 4000 are at most 5*sqrt(0.25/4000) = 0.04.
		for s, p := range map[int]float64{1: 0.25, 2: 0.5, 3: 0.25} {
			f := float64(wins[s]) / n
			if math.Abs(f-p) > 5*math.Sqrt(p*(1-p)/n) {
				t.Errorf("seat %d won %.3f of the races, want %.2f", s, f, p)
			}
		}
		if again := race(t, []float64{1, 1, 2, 1}, 50); !slices.Equal(again, got[:50]) {
			t.Errorf("the races are not reproducible: %v then %v", got[:50], again)
		}
	})
	t.Run("the fastest", func(t *testing.T) {
		for i, w := range race(t, []float64{1, 1, 1e9, 1}, 200) {
			if w != 2 {
				t.Fatalf("game %d: seat %d won the race against a speed of 1e9", i, w)
			}
		}
	})
	t.Run("scripted table", func(t *testing.T) {
		vt := vNewTable(t, Party, 4, []float64{1, 1, 1e9, 1}, "hand-size=3")
		vt.deal([]string{"g1 g2 g3", "r5 b1 b2", "r5 y1 y2", "r5 b3 b4"}, "r5", "b9 b8 b7")
		vt.expect(want{1, DecideJumpIn, vJump(t, "r5")}, want{2, DecideJumpIn, vJump(t, "r5")}, want{3, DecideJumpIn, vJump(t, "r5")})
		vt.step()
		vt.done()
		if j := vEvents(vt.table, EvJumpIn); len(j) == 0 || j[0].Player != 2 {
			t.Errorf("jumps %v, want seat 2 (speed 1e9) first", j)
		}
	})
}

// ---------------------------------------------------------------------------
// Section 7: seven-zero.

func TestVariantSevenSwaps(t *testing.T) {
	tb := newTable(t, Classic, 4, "hand-size=3", "seven-zero=true")
	tb.deal([]string{"r7 g1 g2", "b1 b2 b3", "y1 y2 y3", "g3 g4 g5"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "r7")}, want{0, DecideTarget, vTarget(2)})
	tb.step()
	tb.done()
	vMoves(t, "seat 0's targets", tb.offered(0, DecideTarget), []Move{vTarget(1), vTarget(2), vTarget(3)})
	vHand(t, tb, 0, "y1 y2 y3")
	vHand(t, tb, 2, "g1 g2")
	checkState(t, tb, "after the swap", 1, 1, Red, "r7", 3, 3, 2, 3)
	checkCounts(t, tb, "", map[Counter]int{CountSevenSwap: 1})
}

// The UNO check of a 7 follows the exchange: the player left with one card
// before the swap is not asked; the one holding one card after it is.
func TestVariantSevenSwapUNO(t *testing.T) {
	tb := newTable(t, Classic, 4, "hand-size=2", "seven-zero=true")
	tb.deal([]string{"r7 g1", "b1 b2", "y1 y2", "g3 g4"}, "r5", "b8 b9")
	tb.expect(want{0, DecideTurn, play(t, "r7")}, want{0, DecideTarget, vTarget(2)}, want{2, DecideCallUNO, pass},
		want{3, DecideCatch, pass}, want{0, DecideCatch, pass}, want{1, DecideCatch, catchUNO})
	tb.step()
	tb.done()
	if n := askedCount(tb, 0, DecideCallUNO); n != 0 {
		t.Errorf("seat 0 had one card only before the exchange but was asked to call UNO %d times", n)
	}
	if askIndex(tb, 2, DecideCallUNO) < askIndex(tb, 0, DecideTarget) {
		t.Errorf("seat 2's UNO check came before the exchange")
	}
	vHand(t, tb, 0, "y1 y2")
	vHand(t, tb, 2, "g1 b8 b9")
	checkState(t, tb, "seat 2 caught after the swap", 1, 1, Red, "r7", 2, 2, 3, 2)
	checkCounts(t, tb, "", map[Counter]int{CountUnoPenalty: 1})
}

func TestVariantZeroPassesHands(t *testing.T) {
	t.Run("clockwise", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=3", "seven-zero=true")
		tb.deal([]string{"r0 g1 g2", "b1 b2 b3", "y1 y2 y3", "g3 g4 g5"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "r0")})
		tb.step()
		tb.done()
		vHand(t, tb, 1, "g1 g2")
		vHand(t, tb, 2, "b1 b2 b3")
		vHand(t, tb, 3, "y1 y2 y3")
		vHand(t, tb, 0, "g3 g4 g5")
		checkState(t, tb, "after the rotation", 1, 1, Red, "r0", 3, 2, 3, 3)
		checkCounts(t, tb, "", map[Counter]int{CountZeroRotate: 1})
	})
	t.Run("counter-clockwise", func(t *testing.T) {
		// A Reverse as the first discard: counter-clockwise, the dealer (3) starts.
		tb := newTable(t, Classic, 4, "hand-size=3", "seven-zero=true")
		tb.deal([]string{"b1 b2 b3", "y1 y2 y3", "g3 g4 g5", "r0 g1 g2"}, "rR", "")
		if tb.g.Current() != 3 || tb.g.Direction() != -1 {
			t.Fatalf("start: current %d direction %d", tb.g.Current(), tb.g.Direction())
		}
		tb.expect(want{3, DecideTurn, play(t, "r0")})
		tb.step()
		tb.done()
		vHand(t, tb, 2, "g1 g2")
		vHand(t, tb, 1, "g3 g4 g5")
		vHand(t, tb, 0, "y1 y2 y3")
		vHand(t, tb, 3, "b1 b2 b3")
		checkState(t, tb, "after the rotation", 2, -1, Red, "r0", 3, 3, 2, 3)
	})
	t.Run("UNO check follows the rotation", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=2", "seven-zero=true")
		tb.deal([]string{"r0 g1", "b1 b2", "y1 y2", "g3 g4"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "r0")}, want{1, DecideCallUNO, callUNO})
		tb.step()
		tb.done()
		if askedCount(tb, 0, DecideCallUNO) != 0 || askedCount(tb, 1, DecideCallUNO) != 1 {
			t.Errorf("UNO checks: seat 0 asked %d, seat 1 asked %d; want 0 and 1", askedCount(tb, 0, DecideCallUNO), askedCount(tb, 1, DecideCallUNO))
		}
		vHand(t, tb, 1, "g1")
		vHand(t, tb, 0, "g3 g4")
		if !tb.g.CalledUNO(1) {
			t.Errorf("seat 1 called UNO but it is not recorded")
		}
	})
}

// RULES.md section 7 with two players: a 0 moves every hand one seat (the
// two hands change places) and a 7 swaps with the only other player, whom
// no one is asked to choose (section 10: a single legal move); the UNO check
// follows the exchange.
func TestVariantSevenZeroTwoPlayers(t *testing.T) {
	tb := newTable(t, Classic, 2, "hand-size=3", "seven-zero=true")
	tb.deal([]string{"r0 r7 g1", "b1 b2 b3"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "r0")})
	tb.step()
	vHand(t, tb, 0, "b1 b2 b3")
	vHand(t, tb, 1, "r7 g1")
	checkState(t, tb, "after the 0", 1, 1, Red, "r0", 3, 2)
	tb.expect(want{1, DecideTurn, play(t, "r7")}, want{0, DecideCallUNO, callUNO})
	tb.step()
	tb.done()
	vHand(t, tb, 0, "g1")
	vHand(t, tb, 1, "b1 b2 b3")
	checkState(t, tb, "after the 7", 0, 1, Red, "r7", 1, 3)
	if n := askedCount(tb, 0, DecideTarget) + askedCount(tb, 1, DecideTarget); n != 0 {
		t.Errorf("a target was asked %d times with a single other player", n)
	}
	if n := askedCount(tb, 1, DecideCallUNO); n != 0 {
		t.Errorf("seat 1 held one card only before the swap but was asked to call UNO %d times", n)
	}
	checkCounts(t, tb, "", map[Counter]int{CountZeroRotate: 1, CountSevenSwap: 1})
}

// A last 7, 0 or Wild Swap Hands swaps nothing.
func TestVariantLastCardSwapsNothing(t *testing.T) {
	for _, c := range []struct{ card, deck string }{{"r7", "classic"}, {"r0", "classic"}, {"WS", "classic,wild-swap-hands=4"}} {
		t.Run(c.card, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "seven-zero=true", "deck="+c.deck)
			tb.deal([]string{c.card, "b1", "y1"}, "r5", "")
			tb.step()
			if !tb.g.RoundOver() || tb.g.RoundWinner() != 0 {
				t.Fatalf("seat 0 did not go out")
			}
			vHand(t, tb, 1, "b1")
			vHand(t, tb, 2, "y1")
			if askedCount(tb, 0, DecideTarget) != 0 || askedCount(tb, 0, DecideColor) != 0 {
				t.Errorf("a last card asked for a target or a color")
			}
			checkCounts(t, tb, "", map[Counter]int{CountSevenSwap: 0, CountZeroRotate: 0, CountSwapHands: 0})
		})
	}
}

// Every other effect of a last card is void: a last Point Taken points at
// no one, a last Wild Drawn Together links no one, a last Wild Pile Up
// starts no mini-pile, a last Wild Don't Speak silences no one.
func TestVariantLastCardVoid(t *testing.T) {
	for _, c := range []struct {
		rules RuleSet
		card  string
	}{{Party, "rP"}, {Party, "WT"}, {Party, "WP"}, {Encanto, "WD"}} {
		t.Run(c.card, func(t *testing.T) {
			tb := newTable(t, c.rules, 3, "hand-size=1")
			tb.deal([]string{c.card, "b1", "y1"}, "r5", "")
			tb.step()
			g := tb.g
			if !g.RoundOver() || g.RoundWinner() != 0 {
				t.Fatalf("seat 0 did not go out")
			}
			if len(tb.log) != 1 { // only seat 0's turn decision
				t.Errorf("a last card asked for decisions: %+v", tb.log)
			}
			if _, _, ok := g.Link(); ok || g.MiniPileSize() != 0 || g.Silenced(1) || g.Silenced(2) {
				t.Errorf("a last %s had an effect", c.card)
			}
			vSizes(t, tb, "nobody drew", 0, 1, 1)
		})
	}
}

// No exchange can empty a hand: a last card swaps nothing, and a player who
// is out (play-for-places) is neither chosen nor passed a hand.
func TestVariantSevenZeroNoEmptyHand(t *testing.T) {
	for _, c := range []string{"r0", "r7"} {
		t.Run(c, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=2", "seven-zero=true", "play-for-places=true")
			tb.deal([]string{c + " g4", "r6 r8", "b1 b2"}, "r5", "y9 b9 y3 g6")
			tb.expect(want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r6")},
				want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r8")},
				want{0, DecideTurn, play(t, c)})
			for range 7 {
				tb.step()
			}
			tb.done()
			if !tb.g.Out(1) {
				t.Fatalf("seat 1 is not out")
			}
			vHand(t, tb, 2, "g4 y9 y3")
			vHand(t, tb, 0, "b1 b2 b9 g6")
			checkState(t, tb, "after the exchange", 2, 1, Red, c, 4, 0, 3)
		})
	}
}

// ---------------------------------------------------------------------------
// Section 7: Wild Swap Hands.

func TestVariantWildSwapHands(t *testing.T) {
	t.Run("names the color, exchanges, clears UNO status", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "deck=classic,wild-swap-hands=4")
		tb.deal([]string{"WS g1", "b1 b2", "r6 y1"}, "r5", "y2 y3")
		tb.expect(want{0, DecideTurn, draw}, want{2, DecideTurn, play(t, "r6")})
		tb.step()
		tb.step()
		tb.step()
		if !tb.g.CalledUNO(2) {
			t.Fatalf("seat 2 did not call UNO")
		}
		tb.expect(want{0, DecideTurn, play(t, "WS")}, want{0, DecideColor, vColor(Green)}, want{0, DecideTarget, vTarget(2)},
			want{0, DecideCallUNO, callUNO})
		tb.step()
		tb.done()
		vMoves(t, "targets", tb.offered(0, DecideTarget), []Move{vTarget(1), vTarget(2)})
		if !(askIndex(tb, 0, DecideColor) < askIndex(tb, 0, DecideTarget) && askIndex(tb, 0, DecideTarget) < askIndex(tb, 0, DecideCallUNO)) {
			t.Errorf("seat 0's decisions are out of order: color, target, then the UNO check")
		}
		vHand(t, tb, 0, "y1")
		vHand(t, tb, 2, "g1 y2")
		if tb.g.CalledUNO(2) || !tb.g.CalledUNO(0) {
			t.Errorf("UNO status: seat 0 %v (want true), seat 2 %v (want false, cleared)", tb.g.CalledUNO(0), tb.g.CalledUNO(2))
		}
		checkState(t, tb, "after the swap", 1, 1, Green, "WS", 1, 3, 2)
		checkCounts(t, tb, "", map[Counter]int{CountSwapHands: 1})
	})
	t.Run("the target now holding one card gets the UNO check", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "deck=classic,wild-swap-hands=4")
		tb.deal([]string{"WS g1", "b1 b2", "r6 y1"}, "r5", "y2 y3")
		tb.expect(want{0, DecideTurn, play(t, "WS")}, want{0, DecideTarget, vTarget(1)}, want{1, DecideCallUNO, pass},
			want{2, DecideCatch, catchUNO}, want{0, DecideCatch, pass})
		tb.step()
		tb.done()
		if askedCount(tb, 0, DecideCallUNO) != 0 {
			t.Errorf("seat 0 held one card only before the exchange but got a UNO check")
		}
		vHand(t, tb, 0, "b1 b2")
		vHand(t, tb, 1, "g1 y2 y3")
		checkState(t, tb, "after the swap and the catch", 1, 1, Red, "WS", 2, 3, 2)
	})
}

// ---------------------------------------------------------------------------
// Section 4: no-finish-on-action with stacks, deflections, jumps, mini-pile.

func TestVariantNoFinishOnAction(t *testing.T) {
	for _, opt := range []string{"stack-draw-two=true", "deflect-draw-two=true"} {
		t.Run(opt, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=2", "no-finish-on-action=true", opt)
			tb.deal([]string{"r+2 g9", "r6 b+2", "r7 y+2"}, "r5", "y1 y2 y3 r4")
			tb.expect(want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r6")}, want{2, DecideTurn, play(t, "r7")},
				want{0, DecideTurn, play(t, "r+2")})
			for range 4 {
				tb.step()
			}
			if n := askedCount(tb, 1, DecideRespond); n != 0 {
				t.Errorf("seat 1's only card is a Draw Two, yet it was offered a response %d times", n)
			}
			checkState(t, tb, "seat 1 drew 2", 2, 1, Red, "r+2", 2, 3, 1)
			// Seat 2's only card, a yellow Draw Two, matches but may not be
			// put down last: it must draw, and may play the drawn red 4.
			tb.step()
			tb.done()
			if n := askedCount(tb, 2, DecideTurn); n != 1 {
				t.Errorf("seat 2 was asked %d turn decisions, want 1 (a draw is its only move)", n)
			}
			vMoves(t, "seat 2's drawn card", tb.offered(2, DecideDrawn), []Move{play(t, "r4"), keep})
			checkState(t, tb, "seat 2 drew and played", 0, 1, Red, "r4", 2, 3, 1)
			vHand(t, tb, 2, "y+2")
		})
	}
	t.Run("deflect-skip", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "no-finish-on-action=true", "deflect-skip=true")
		tb.deal([]string{"rS g9", "r6 rS", "r7 y3"}, "r5", "y1")
		tb.expect(want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r6")}, want{2, DecideTurn, play(t, "r7")},
			want{0, DecideTurn, play(t, "rS")})
		for range 4 {
			tb.step()
		}
		tb.done()
		if n := askedCount(tb, 1, DecideRespond); n != 0 {
			t.Errorf("seat 1's only card is the Skip, yet it was offered to deflect %d times", n)
		}
		checkState(t, tb, "seat 1 skipped", 2, 1, Red, "rS", 2, 1, 1)
	})
	for _, nf := range []bool{true, false} {
		t.Run(fmt.Sprintf("jump-in any, no-finish %v", nf), func(t *testing.T) {
			// A Skip as the first discard skips seat 0; seat 2's only card is
			// the identical Skip.
			tb := newTable(t, Classic, 3, "hand-size=1", "jump-in=any", fmt.Sprintf("no-finish-on-action=%v", nf))
			tb.deal([]string{"g3", "b4", "rS"}, "rS", "y9")
			tb.step()
			if nf {
				if n := askedCount(tb, 2, DecideJumpIn); n != 0 || tb.g.RoundOver() {
					t.Errorf("seat 2 was asked to jump with its last card, a Skip, %d times (round over %v)", n, tb.g.RoundOver())
				}
				checkState(t, tb, "seat 1 drew", 2, 1, Red, "rS", 1, 2, 1)
			} else if !tb.g.RoundOver() || tb.g.RoundWinner() != 2 {
				t.Errorf("without no-finish-on-action seat 2 jumps out: over %v winner %d", tb.g.RoundOver(), tb.g.RoundWinner())
			}
		})
	}
	for _, nf := range []bool{true, false} {
		t.Run(fmt.Sprintf("mini-pile, no-finish %v", nf), func(t *testing.T) {
			tb := newTable(t, Party, 3, "hand-size=2", fmt.Sprintf("no-finish-on-action=%v", nf))
			tb.deal([]string{"WP y1", "r6 gS", "r7 g2"}, "r5", "y2 g4")
			tb.expect(want{0, DecideTurn, draw}, want{1, DecideTurn, play(t, "r6")}, want{2, DecideTurn, play(t, "r7")},
				want{0, DecideTurn, play(t, "WP")})
			for range 4 {
				tb.step()
			}
			tb.done()
			if nf {
				// Seat 1's only card is a green Skip: it counts as unable.
				if n := askedCount(tb, 1, DecidePileUp); n != 0 || tb.g.RoundOver() {
					t.Errorf("seat 1 put its last card, an action, on the mini-pile (asked %d, over %v)", n, tb.g.RoundOver())
				}
				checkState(t, tb, "seat 1 took the mini-pile", 2, 1, Green, "WP", 2, 2, 1)
				vHand(t, tb, 1, "gS g4")
			} else if !tb.g.RoundOver() || tb.g.RoundWinner() != 1 {
				t.Errorf("without no-finish-on-action seat 1 goes out on the mini-pile: over %v winner %d", tb.g.RoundOver(), tb.g.RoundWinner())
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Section 8: Point Taken.

func TestVariantPointTaken(t *testing.T) {
	vt := vNewTable(t, Party, 4, nil, "hand-size=3")
	blind := true
	vt.hook = func(v *View, moves []Move) {
		if v.Decision() != DecidePoint {
			return
		}
		for p := 0; p < v.Players(); p++ {
			if v.PointedAt(p) != 0 {
				blind = false
			}
		}
	}
	tb := vt.table
	tb.deal([]string{"WT g1 g2", "rP b3 b4", "yP y6 y7", "b5 b6 b7"}, "r1", "y1 y2 y3 y4 g5 g6 g7 g8")
	tb.expect(want{0, DecideTurn, play(t, "WT")}, want{0, DecideColor, vColor(Red)}, want{0, DecideLink, LinkMove(1, 2)})
	tb.step()
	if a, b, ok := tb.g.Link(); !ok || a != 1 || b != 2 {
		t.Fatalf("link %d-%d %v, want 1-2", a, b, ok)
	}
	tb.expect(want{1, DecideTurn, play(t, "rP")},
		want{0, DecidePoint, vPoint(2)}, want{1, DecidePoint, vPoint(2)}, want{2, DecidePoint, vPoint(3)}, want{3, DecidePoint, vPoint(0)})
	tb.step()
	tb.done()
	vMoves(t, "seat 0's pointing", tb.offered(0, DecidePoint), []Move{vPoint(1), vPoint(2), vPoint(3)})
	if _, _, ok := tb.g.Link(); ok {
		t.Errorf("the link did not end")
	}
	if end, pt := vEventIndex(tb, EvLinkEnd), vEventIndex(tb, EvPoint); end < 0 || end > pt {
		t.Errorf("the link must end before anyone points (link end at %d, first point at %d)", end, pt)
	}
	// Draws start with the card's player (1) and go clockwise: seat 2 takes
	// y1 y2, seat 3 y3, seat 0 y4. No echo: the link ended first.
	vHand(t, tb, 2, "yP y6 y7 y1 y2")
	vHand(t, tb, 3, "b5 b6 b7 y3")
	vHand(t, tb, 0, "g1 g2 y4")
	checkState(t, tb, "after the Point Taken", 2, 1, Red, "rP", 3, 2, 5, 4)
	if tb.g.views[3].PointedAt(2) != 2 || tb.g.views[3].PointedAt(0) != 1 {
		t.Errorf("the result is not revealed to all: %d %d", tb.g.views[3].PointedAt(2), tb.g.views[3].PointedAt(0))
	}
	checkCounts(t, tb, "", map[Counter]int{CountLinkEcho: 0, CountPointTaken: 1})
	// A second Point Taken: while choosing, nobody sees anyone's choice (the
	// last result is not a choice). Unscripted, everyone points at the first
	// other player: seat 0 at 1, seats 1-3 at 0.
	tb.step()
	if !blind {
		t.Errorf("a strategy saw pointing results while choosing")
	}
	vHand(t, tb, 0, "g1 g2 y4 g5 g6 g7")
	vHand(t, tb, 1, "b3 b4 g8")
	checkState(t, tb, "after the second Point Taken", 3, 1, Yellow, "yP", 6, 3, 4, 4)
}

// At most 5 cards each, with 16 players (the largest Party table).
func TestVariantPointTakenCap16Players(t *testing.T) {
	tb := newTable(t, Party, 16, "hand-size=2")
	hands := []string{"rP r9"}
	for i := range 15 {
		k := 2 * i
		hands = append(hands, fmt.Sprintf("%c%d %c%d", "ygb"[k%3], 2+(k/3)%8, "ygb"[(k+1)%3], 2+((k+1)/3)%8))
	}
	tb.deal(hands, "r1", "r2 r3 r4 r6 r7 r8")
	tb.expect(want{0, DecideTurn, play(t, "rP")})
	for q := range 16 {
		target := 5
		if q == 5 {
			target = 0
		}
		tb.expect(want{q, DecidePoint, vPoint(target)})
	}
	tb.step()
	tb.done()
	if tb.g.views[0].PointedAt(5) != 15 {
		t.Errorf("seat 5 pointed at by %d, want 15", tb.g.views[0].PointedAt(5))
	}
	vHand(t, tb, 0, "r9 r2")
	sizes := make([]int, 16)
	for i := range sizes {
		sizes[i] = 2
	}
	sizes[5] = 7
	checkState(t, tb, "seat 5 drew the cap of 5", 1, 1, Red, "rP", sizes...)
	vHand(t, tb, 5, hands[5]+" r3 r4 r6 r7 r8")
}

// Point Taken as the first discard under start-card = official.
func TestVariantPointTakenStartCard(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=2", "start-card=official")
	tb.expect(want{0, DecidePoint, vPoint(1)}, want{1, DecidePoint, vPoint(2)}, want{2, DecidePoint, vPoint(1)})
	tb.deal([]string{"g1 g2", "b1 b2", "y1 y2"}, "rP", "y3 y4 y5")
	tb.done()
	// Order from P (seat 0): seat 1 draws y3 y4, seat 2 y5. Then P plays.
	vHand(t, tb, 1, "b1 b2 y3 y4")
	vHand(t, tb, 2, "y1 y2 y5")
	checkState(t, tb, "after the start card", 0, 1, Red, "rP", 2, 4, 3)
	checkCounts(t, tb, "", map[Counter]int{CountPointTaken: 1})
}

// ---------------------------------------------------------------------------
// Section 8: Wild Pile Up.

func TestVariantPileUp(t *testing.T) {
	tb := newTable(t, Party, 4, "hand-size=3")
	tb.deal([]string{"WP y1 y2", "g1 W+4 b1", "g2 y3 y4", "b3 b4 b5"}, "r5", "W W+4 g3")
	tb.expect(want{0, DecideTurn, play(t, "WP")}, want{1, DecidePileUp, play(t, "W+4")})
	tb.step()
	tb.done()
	if askedCount(tb, 0, DecideColor) != 0 || askedCount(tb, 1, DecideColor) != 0 {
		t.Errorf("a color was named: the Wild Pile Up names none, cards on the mini-pile have no effect")
	}
	if ps := vEvents(tb, EvPileStart); len(ps) != 1 || ps[0].N != 3 || ps[0].Color != Green || ps[0].Player != 1 {
		t.Errorf("pile start %v, want 3 cards (W, W+4, g3), green, before seat 1", ps)
	}
	vMoves(t, "seat 1 must play green or a wild, no declining", tb.offered(1, DecidePileUp), []Move{play(t, "g1"), play(t, "W+4")})
	if d := vEvents(tb, EvDraw); len(d) != 0 {
		t.Errorf("someone drew during the pile-up: %v", d)
	}
	vHand(t, tb, 3, "b3 b4 b5 W W+4 g3 W+4 g2")
	checkState(t, tb, "seat 3 took the pile; play continues after it", 0, 1, Green, "WP", 2, 2, 2, 8)
	if tb.g.MiniPileSize() != 0 {
		t.Errorf("mini-pile holds %d", tb.g.MiniPileSize())
	}
	checkCounts(t, tb, "", map[Counter]int{CountPileUp: 1, CountPileTaken: 5})
	if tb.g.Turns() != 1 {
		t.Errorf("turns %d, want 1: mini-pile plays are not turns", tb.g.Turns())
	}
}

// The player of the Wild Pile Up plays when reached, UNO checks apply, and
// the last card onto the mini-pile wins at once.
func TestVariantPileUpGoingOut(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=2")
	tb.deal([]string{"WP g5", "g1 b1", "g2 b2"}, "r5", "g4 y8 y9")
	tb.expect(want{0, DecideTurn, play(t, "WP")}, want{0, DecideCallUNO, callUNO},
		want{1, DecideCallUNO, pass}, want{2, DecideCatch, catchUNO}, want{0, DecideCatch, pass})
	tb.step()
	tb.done()
	g := tb.g
	if !g.RoundOver() || g.RoundWinner() != 0 {
		t.Fatalf("over %v winner %d, want seat 0 out on the mini-pile", g.RoundOver(), g.RoundWinner())
	}
	vHand(t, tb, 1, "b1 y8 y9")
	vHand(t, tb, 2, "b2")
	if g.MiniPileSize() != 4 {
		t.Errorf("mini-pile %d, want 4 (g4 g1 g2 g5)", g.MiniPileSize())
	}
	checkCounts(t, tb, "", map[Counter]int{CountUnoPenalty: 1, CountUnoCall: 2})
}

// A draw pile that runs out while flipping is reshuffled.
func TestVariantPileUpReshuffle(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=2",
		"deck=wild-pile-up=1,red-1=1,blue-1=1,red-2=1,green-1=1,green-2=1,red-5=1,wild=1")
	tb.deal([]string{"WP r1", "b1 r2", "g1 g2"}, "r5", "W")
	tb.expect(want{0, DecideTurn, play(t, "WP")})
	tb.step()
	tb.done()
	vHand(t, tb, 2, "g1 g2 W r5 r2")
	if !tb.g.CalledUNO(1) {
		t.Errorf("seat 1 reached one card on the mini-pile without a UNO check")
	}
	checkState(t, tb, "seat 2 took the pile", 0, 1, Red, "WP", 1, 1, 5)
	checkCounts(t, tb, "", map[Counter]int{CountReshuffle: 1, CountPileTaken: 3})
}

// No non-wild can be flipped: the flipped cards go under the top discard and
// the Wild Pile Up acts as a Wild.
func TestVariantPileUpNoNonWild(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=2", "start-card=official",
		"deck=wild-pile-up=1,red-1=1,blue-1=1,blue-2=1,green-1=1,green-2=1,wild=2")
	tb.expect(want{0, DecideColor, vColor(Red)})
	tb.deal([]string{"WP r1", "b1 b2", "g1 g2"}, "W", "W")
	tb.expect(want{0, DecideTurn, play(t, "WP")}, want{0, DecideColor, vColor(Blue)})
	tb.step()
	tb.done()
	g := tb.g
	if g.MiniPileSize() != 0 || g.DiscardSize() != 3 || g.DrawPileSize() != 0 {
		t.Errorf("mini %d discard %d draw %d; want 0, 3, 0", g.MiniPileSize(), g.DiscardSize(), g.DrawPileSize())
	}
	if askedCount(tb, 1, DecidePileUp) != 0 {
		t.Errorf("a mini-pile was played on")
	}
	checkState(t, tb, "the Wild Pile Up acted as a Wild", 1, 1, Blue, "WP", 1, 2, 2)
	checkCounts(t, tb, "", map[Counter]int{CountPileUp: 0})
}

// RULES.md section 6, decisions on play-for-places: "every other effect of
// the last card is void ..., a last wild still names the color". A last Wild
// Pile Up is a wild (section 1): it flips no mini-pile, and its player names
// the color the others play on.
func TestVariantPileUpLastCardPlayForPlaces(t *testing.T) {
	tb := newTable(t, Party, 4, "hand-size=1", "play-for-places=true")
	tb.deal([]string{"WP", "b1", "y2", "g3"}, "r5", "r7 r8 r9")
	drawPile := tb.g.DrawPileSize()
	tb.expect(want{0, DecideColor, vColor(Green)})
	tb.step()
	tb.done()
	g := tb.g
	if g.RoundOver() || !g.Out(0) {
		t.Fatalf("over %v, seat 0 out %v: the others play on", g.RoundOver(), g.Out(0))
	}
	if n := askedCount(tb, 0, DecideColor); n != 1 {
		t.Errorf("seat 0 was asked %d times for a color, want once", n)
	}
	if g.MiniPileSize() != 0 || g.DrawPileSize() != drawPile || len(vEvents(tb, EvPileFlip)) != 0 {
		t.Errorf("mini-pile %d, draw pile %d (was %d): a last Wild Pile Up flips nothing", g.MiniPileSize(), g.DrawPileSize(), drawPile)
	}
	checkState(t, tb, "the color named with the last Wild Pile Up", 1, 1, Green, "WP", 0, 1, 1, 1)
	checkCounts(t, tb, "", map[Counter]int{CountPileUp: 0})
}

// ---------------------------------------------------------------------------
// Section 8: Wild Drawn Together.

func TestVariantDrawnTogether(t *testing.T) {
	type tc struct {
		name  string
		n     int
		opt   string
		hands []string
		pile  string
		link  Move
		then  []want
		steps int
		cur   int
		sizes []int
		echo  int
	}
	four := []string{"WT g1 g2", "b1 b2 b3", "y1 y2 y3", "g3 g4 g5"}
	for _, c := range []tc{
		{"turn draw, both ways, no echo back", 3, "", four, "b9 y9 g8 r8", LinkMove(1, 2), nil, 3, 3, []int{2, 5, 5, 3}, 2},
		{"every card of until-playable", 3, "draw=until-playable", four, "b9 b8 r4 y9", LinkMove(1, 2), nil, 2, 2, []int{2, 4, 5, 3}, 2},
		{"draw two", 3, "", []string{"WT g1 g2", "r+2 b1 b2", "y1 y2 y3", "b3 b4 b5"}, "y4 y5 b6 b7", LinkMove(2, 3),
			[]want{{1, DecideTurn, play(t, "r+2")}}, 2, 3, []int{2, 2, 5, 5}, 2},
		{"wild draw four", 3, "", []string{"WT g1 g2", "W+4 b1 b2", "y1 y2 y3", "b3 b4 b5"}, "y4 y5 y6 y7 b6 b7 b8 b9", LinkMove(2, 3),
			[]want{{1, DecideTurn, play(t, "W+4")}, {2, DecideRespond, accept}}, 2, 3, []int{2, 2, 7, 7}, 4},
		{"challenge penalty", 3, "", []string{"WT g1 g2", "W+4 b1 b2", "y1 y2 y3", "b3 b4 b5"}, "y4 y5 y6 y7 y8 y9 b4 b6 b7 b8 b9 g9", LinkMove(2, 3),
			[]want{{1, DecideTurn, play(t, "W+4")}, {2, DecideRespond, challenge}}, 2, 3, []int{2, 2, 9, 9}, 6},
		{"bluff penalty", 3, "", []string{"WT g1 g2", "W+4 r1 b2", "y1 y2 y3", "b3 b4 b5"}, "y4 y5 y6 y7 b6 b7 b8 b9", LinkMove(1, 3),
			[]want{{1, DecideTurn, play(t, "W+4")}, {2, DecideRespond, challenge}}, 2, 2, []int{2, 6, 3, 7}, 4},
		{"UNO penalty", 2, "", []string{"WT g1", "r3 b1", "y1 y2", "b3 b4"}, "y4 y5 b6 b7", LinkMove(1, 3),
			[]want{{1, DecideTurn, play(t, "r3")}, {1, DecideCallUNO, pass}, {2, DecideCatch, catchUNO}, {3, DecideCatch, pass}, {0, DecideCatch, pass}},
			2, 2, []int{1, 3, 2, 4}, 2},
		{"taken mini-pile", 3, "", []string{"WT g1 g2", "WP b1 b2", "b3 b4 b5", "y3 y4 y5"}, "g4 r6", LinkMove(2, 3),
			[]want{{1, DecideTurn, play(t, "WP")}}, 2, 3, []int{2, 2, 4, 4}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sets := []string{fmt.Sprintf("hand-size=%d", c.n)}
			if c.opt != "" {
				sets = append(sets, c.opt)
			}
			tb := newTable(t, Party, 4, sets...)
			tb.deal(c.hands, "r5", c.pile)
			tb.expect(want{0, DecideTurn, play(t, "WT")}, want{0, DecideColor, vColor(Red)}, want{0, DecideLink, c.link})
			tb.expect(c.then...)
			for range c.steps {
				tb.step()
			}
			tb.done()
			if c.name == "turn draw, both ways, no echo back" {
				vMoves(t, "pairs", tb.offered(0, DecideLink), []Move{LinkMove(0, 1), LinkMove(0, 2), LinkMove(0, 3), LinkMove(1, 2), LinkMove(1, 3), LinkMove(2, 3)})
				vHand(t, tb, 1, "b1 b2 b3 b9 r8")
				vHand(t, tb, 2, "y1 y2 y3 y9 g8")
			}
			if c.opt != "" {
				// Seat 1 draws b9 (echo b8), then red 4 (echo y9), and plays it.
				vHand(t, tb, 1, "b1 b2 b3 b9")
				vHand(t, tb, 2, "y1 y2 y3 b8 y9")
			}
			if tb.g.Current() != c.cur {
				t.Errorf("current %d, want %d", tb.g.Current(), c.cur)
			}
			vSizes(t, tb, "after the echo", c.sizes...)
			checkCounts(t, tb, "", map[Counter]int{CountLinkEcho: c.echo, CountLink: 1})
		})
	}
}

// The link applies to the draw of a final Draw Two; the winner, though linked
// to the player who draws, takes nothing: the hand of a player who has won
// stays empty.
func TestVariantDrawnTogetherFinalDrawTwo(t *testing.T) {
	for _, c := range []struct {
		link  Move
		sizes []int
	}{
		// Seat 3's turn draw (b9) is echoed to seat 2 (g8), so seat 2 holds 2
		// before the Draw Two.
		{LinkMove(2, 3), []int{2, 0, 4, 5}},
		// Seat 1 wins and is linked to seat 2, who draws: the winner's hand
		// stays empty (RULES.md section 4 step 2: "the player has won").
		{LinkMove(1, 2), []int{2, 0, 3, 3}},
	} {
		t.Run(c.link.String(), func(t *testing.T) {
			tb := newTable(t, Party, 4, "hand-size=2")
			tb.deal([]string{"r6 g1", "WT r+2", "r7 y2", "b3 b4"}, "r5", "b9 g8 y8 y7 g7 g6 b6")
			tb.expect(want{0, DecideTurn, play(t, "r6")}, want{1, DecideTurn, play(t, "WT")}, want{1, DecideLink, c.link},
				want{2, DecideTurn, play(t, "r7")})
			for range 5 {
				tb.step()
			}
			tb.g.Step() // seat 1 plays its last card, the red Draw Two
			tb.done()
			g := tb.g
			if !g.RoundOver() || g.RoundWinner() != 1 {
				t.Fatalf("over %v winner %d", g.RoundOver(), g.RoundWinner())
			}
			vSizes(t, tb, "after the final Draw Two (the link applies, but not to the winner)", c.sizes...)
			if err := g.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// A new link must differ from the old one, except with two players.
func TestVariantDrawnTogetherNewLink(t *testing.T) {
	t.Run("four players", func(t *testing.T) {
		tb := newTable(t, Party, 4, "hand-size=3")
		tb.deal([]string{"WT g1 g2", "WT b1 b2", "y1 y2 y3", "b3 b4 b5"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "WT")}, want{0, DecideLink, LinkMove(1, 2)},
			want{1, DecideTurn, play(t, "WT")}, want{1, DecideLink, LinkMove(0, 3)})
		tb.step()
		tb.step()
		tb.done()
		if ms := tb.offered(1, DecideLink); len(ms) != 5 || slices.Contains(ms, LinkMove(1, 2)) {
			t.Errorf("second link offered %v, want the 5 pairs other than 1-2", ms)
		}
		if a, b, ok := tb.g.Link(); !ok || a != 0 || b != 3 {
			t.Errorf("link %d-%d %v, want 0-3 (the new link replaces the old)", a, b, ok)
		}
	})
	t.Run("two players", func(t *testing.T) {
		tb := newTable(t, Party, 2, "hand-size=3")
		tb.deal([]string{"WT g1 g2", "WT b1 b2"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "WT")}, want{1, DecideTurn, play(t, "WT")})
		tb.step()
		tb.step()
		tb.done()
		if a, b, ok := tb.g.Link(); !ok || a != 0 || b != 1 {
			t.Errorf("link %d-%d %v, want 0-1 again", a, b, ok)
		}
		checkCounts(t, tb, "", map[Counter]int{CountLink: 2})
	})
}

// A link ends with the round.
func TestVariantDrawnTogetherEndsWithRound(t *testing.T) {
	tb := newTable(t, Party, 3, "hand-size=2", "scoring=winner-takes")
	tb.deal([]string{"WT g1", "b1 b2", "y1 y2"}, "r5", "b9 y9 b8 y8")
	tb.expect(want{0, DecideTurn, play(t, "WT")}, want{0, DecideColor, vColor(Green)}, want{0, DecideLink, LinkMove(1, 2)})
	for range 4 {
		tb.step()
	}
	tb.done()
	if !tb.g.RoundOver() || tb.g.RoundWinner() != 0 {
		t.Fatalf("seat 0 did not go out")
	}
	if !tb.g.EndRound() {
		t.Fatalf("the match ended after one round")
	}
	vDeal(tb, 0, []string{"g1 g2", "b1 b2", "y1 y2"}, "r5", "")
	if _, _, ok := tb.g.Link(); ok {
		t.Errorf("the link survived the round")
	}
}

// ---------------------------------------------------------------------------
// Sections 8 and 9: Wild Draw Four legality no-color-match-or-wild.

func TestVariantPartyWildDrawFour(t *testing.T) {
	for _, c := range []struct {
		rules RuleSet
		hand  string
		legal bool
	}{
		{Party, "W+4 W b1", false},
		{Party, "W+4 WT b1", false},
		{Party, "W+4 WP b1", false},
		{Party, "W+4 W+4 b1", true},
		{Party, "W+4 b2 b1", true},
		{Encanto, "W+4 WD b1", false},
		{Encanto, "W+4 W+4 b1", true},
		{Classic, "W+4 W b1", true},
	} {
		t.Run(c.rules.String()+" "+c.hand, func(t *testing.T) {
			tb := newTable(t, c.rules, 3, "hand-size=3")
			tb.deal([]string{c.hand, "y1 y2 y3", "g1 g2 g3"}, "r5", "b4 b5 b6 b7 b8 b9")
			tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, vColor(Blue)}, want{1, DecideRespond, challenge})
			tb.step()
			tb.done()
			if c.legal {
				checkState(t, tb, "legal: the challenger drew 6", 2, 1, Blue, "W+4", 2, 9, 3)
			} else {
				checkState(t, tb, "illegal: the player drew 4, the challenger plays", 1, 1, Blue, "W+4", 6, 3, 3)
			}
			checkCounts(t, tb, "", map[Counter]int{CountBluff: b2i(!c.legal), CountChallengeWon: b2i(!c.legal)})
		})
	}
}

// ---------------------------------------------------------------------------
// Scoring golden examples of the seeds.

func TestVariantPartyScoring302(t *testing.T) {
	hands := []string{"r3", "r2", "y4", "g7", "b9", "r+2", "yP", "gR", "bS", "W", "W+4", "WT", "WP"}
	tb := newTable(t, Party, len(hands), "hand-size=1")
	tb.deal(hands, "r1", "")
	tb.step()
	if got := vEnd(t, tb); got != 302 {
		t.Errorf("the round scores %d, want 22 + 4x20 + 4x50 = 302", got)
	}
	if e := vEvents(tb, EvRoundEnd); len(e) != 1 || e[0].N != 302 {
		t.Errorf("round end %v", e)
	}
}

func TestVariantEncantoScoring227(t *testing.T) {
	hands := []string{"r3", "r4", "y5", "g8", "rS", "yR", "g+2", "W", "W+4", "WD"}
	tb := newTable(t, Encanto, len(hands), "hand-size=1")
	tb.deal(hands, "r1", "")
	tb.step()
	if got := vEnd(t, tb); got != 227 {
		t.Errorf("the round scores %d, want 17 + 60 + 150 = 227", got)
	}
}

// ---------------------------------------------------------------------------
// Section 9: Wild Don't Speak.

func TestVariantDontSpeakSilences(t *testing.T) {
	tb := newTable(t, Encanto, 4, "hand-size=3")
	tb.deal([]string{"WD g1 g2", "WD b1 b2", "WD y1 y2", "b3 b4 b5"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideTarget, vTarget(1)},
		want{1, DecideTurn, play(t, "WD")}, want{1, DecideTarget, vTarget(2)},
		want{2, DecideTurn, play(t, "WD")}, want{2, DecideTarget, vTarget(1)})
	tb.step()
	vMoves(t, "seat 0's targets", tb.offered(0, DecideTarget), []Move{vTarget(1), vTarget(2), vTarget(3)})
	if !tb.g.Silenced(1) {
		t.Fatalf("seat 1 is not silenced")
	}
	tb.step()
	tb.step()
	tb.done()
	vMoves(t, "seat 1's targets", tb.offered(1, DecideTarget), []Move{vTarget(0), vTarget(2), vTarget(3)})
	// Naming a color and choosing a target are not speaking: no penalty.
	checkState(t, tb, "three silences", 3, 1, Red, "WD", 2, 2, 2, 3)
	if !tb.g.Silenced(1) || !tb.g.Silenced(2) || tb.g.Silenced(0) || tb.g.Silenced(3) || tb.g.nSilenced != 2 {
		t.Errorf("silenced: %v %v %v %v (count %d); want seats 1 and 2", tb.g.Silenced(0), tb.g.Silenced(1), tb.g.Silenced(2), tb.g.Silenced(3), tb.g.nSilenced)
	}
	checkCounts(t, tb, "", map[Counter]int{CountSilence: 3, CountSpeakPenalty: 0})
}

// A silenced catcher draws 3 first, then the catch takes effect; it stays silenced.
func TestVariantDontSpeakCatch(t *testing.T) {
	tb := newTable(t, Encanto, 4, "hand-size=2")
	tb.deal([]string{"WD g1", "r3 b1", "y1 y2", "b3 b4"}, "r5", "y5 y6 y7 y8 y9")
	tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideTarget, vTarget(2)},
		want{1, DecideTurn, play(t, "r3")}, want{1, DecideCallUNO, pass},
		want{2, DecideCatch, catchUNO}, want{3, DecideCatch, pass}, want{0, DecideCatch, pass})
	tb.step()
	tb.step()
	tb.done()
	vHand(t, tb, 2, "y1 y2 y5 y6 y7")
	vHand(t, tb, 1, "b1 y8 y9")
	if sp, ca := vEventIndex(tb, EvSpeak), vEventIndex(tb, EvCatch); sp < 0 || sp > ca {
		t.Errorf("the speak penalty (event %d) must come before the catch (event %d)", sp, ca)
	}
	if !tb.g.Silenced(2) {
		t.Errorf("seat 2 is no longer silenced after speaking")
	}
	checkState(t, tb, "after the catch", 2, 1, Red, "r3", 1, 3, 5, 2)
	checkCounts(t, tb, "", map[Counter]int{CountSpeakPenalty: 1, CountUnoPenalty: 1})
}

// A silenced challenger draws 3 first, then the challenge takes effect.
func TestVariantDontSpeakChallenge(t *testing.T) {
	for _, c := range []struct {
		hand  string
		legal bool
	}{{"W+4 b1 b2", true}, {"W+4 r1 b2", false}} {
		t.Run(fmt.Sprintf("legal %v", c.legal), func(t *testing.T) {
			tb := newTable(t, Encanto, 4, "hand-size=3")
			tb.deal([]string{"WD g1 g2", "y1 y2 y3", c.hand, "b3 b4 b5"}, "r5", "y4 g5 g6 g7 g8 g9 r6 r7 r8 r9")
			tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideTarget, vTarget(3)},
				want{2, DecideTurn, play(t, "W+4")}, want{2, DecideColor, vColor(Blue)}, want{3, DecideRespond, challenge})
			for range 3 {
				tb.step()
			}
			tb.done()
			if sp, ch := vEventIndex(tb, EvSpeak), vEventIndex(tb, EvChallenge); sp < 0 || sp > ch {
				t.Errorf("the speak penalty (event %d) must come before the challenge (event %d)", sp, ch)
			}
			if !tb.g.Silenced(3) {
				t.Errorf("seat 3 is no longer silenced")
			}
			if c.legal {
				vHand(t, tb, 3, "b3 b4 b5 g5 g6 g7 g8 g9 r6 r7 r8 r9")
				checkState(t, tb, "3 + 6 drawn", 0, 1, Blue, "W+4", 2, 4, 2, 12)
			} else {
				vHand(t, tb, 3, "b3 b4 b5 g5 g6 g7")
				vHand(t, tb, 2, "r1 b2 g8 g9 r6 r7")
				checkState(t, tb, "3 drawn, then the bluffer 4", 3, 1, Blue, "W+4", 2, 4, 6, 6)
			}
		})
	}
}

// A UNO call ends every silence; a silenced player may call without
// penalty; the call of a Wild Don't Speak's player (step 3) comes before its
// silence (step 4).
func TestVariantDontSpeakUNOCall(t *testing.T) {
	prefix := func(t *testing.T) *table {
		tb := newTable(t, Encanto, 3, "hand-size=3")
		tb.deal([]string{"WD WD g1", "r3 r4 y2", "b6 b7 b8"}, "r5", "y9")
		tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideTarget, vTarget(1)}, want{1, DecideTurn, play(t, "r3")})
		for range 3 {
			tb.step()
		}
		if !tb.g.Silenced(1) {
			t.Fatalf("seat 1 is not silenced")
		}
		return tb
	}
	t.Run("the player's own call comes first", func(t *testing.T) {
		tb := prefix(t)
		tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideCallUNO, callUNO}, want{0, DecideTarget, vTarget(2)})
		tb.step()
		tb.done()
		if tb.g.Silenced(1) || !tb.g.Silenced(2) {
			t.Errorf("silenced 1: %v (want false), 2: %v (want true)", tb.g.Silenced(1), tb.g.Silenced(2))
		}
	})
	t.Run("a silenced player calls", func(t *testing.T) {
		tb := prefix(t)
		tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideCallUNO, pass},
			want{1, DecideCatch, pass}, want{2, DecideCatch, pass}, want{0, DecideTarget, vTarget(2)})
		tb.step()
		if !tb.g.Silenced(1) || !tb.g.Silenced(2) {
			t.Fatalf("seats 1 and 2 should both be silenced")
		}
		tb.expect(want{1, DecideTurn, play(t, "r4")}, want{1, DecideCallUNO, callUNO})
		tb.step()
		tb.done()
		if tb.g.Silenced(1) || tb.g.Silenced(2) {
			t.Errorf("a UNO call did not end every silence")
		}
		checkState(t, tb, "no penalty for the call", 2, 1, Red, "r4", 1, 1, 4)
		checkCounts(t, tb, "", map[Counter]int{CountSpeakPenalty: 0})
	})
}

// Silences end with the round.
func TestVariantDontSpeakEndsWithRound(t *testing.T) {
	tb := newTable(t, Encanto, 3, "hand-size=2", "scoring=winner-takes")
	tb.deal([]string{"WD g1", "b3 b4", "y3 y4"}, "r5", "b8 y8")
	tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideColor, vColor(Green)}, want{0, DecideTarget, vTarget(1)})
	for range 4 {
		tb.step()
	}
	tb.done()
	if !tb.g.RoundOver() || tb.g.RoundWinner() != 0 || !tb.g.Silenced(1) {
		t.Fatalf("over %v winner %d silenced %v", tb.g.RoundOver(), tb.g.RoundWinner(), tb.g.Silenced(1))
	}
	if !tb.g.EndRound() {
		t.Fatalf("the match ended after one round")
	}
	vDeal(tb, 0, []string{"g1 g2", "b1 b2", "y1 y2"}, "r5", "")
	if tb.g.Silenced(1) {
		t.Errorf("the silence survived the round")
	}
}

// The speak penalty is a draw: a link echoes it.
func TestVariantDontSpeakLinkEcho(t *testing.T) {
	tb := newTable(t, Encanto, 4, "hand-size=2", "deck=encanto,wild-drawn-together=2")
	tb.deal([]string{"WD g1", "WT b1", "r3 y2", "b3 b4"}, "r5", "g5 g6 g7 y5 y6 y7 g8 g9")
	tb.expect(want{0, DecideTurn, play(t, "WD")}, want{0, DecideTarget, vTarget(1)},
		want{1, DecideTurn, play(t, "WT")}, want{1, DecideCallUNO, pass},
		want{2, DecideCatch, pass}, want{3, DecideCatch, pass}, want{0, DecideCatch, pass},
		want{1, DecideLink, LinkMove(1, 3)},
		want{2, DecideTurn, play(t, "r3")}, want{2, DecideCallUNO, pass},
		want{3, DecideCatch, pass}, want{0, DecideCatch, pass}, want{1, DecideCatch, catchUNO})
	for range 3 {
		tb.step()
	}
	tb.done()
	vHand(t, tb, 1, "b1 g5 g6 g7")
	vHand(t, tb, 3, "b3 b4 y5 y6 y7")
	vHand(t, tb, 2, "y2 g8 g9")
	if !tb.g.Silenced(1) {
		t.Errorf("seat 1 is no longer silenced")
	}
	checkCounts(t, tb, "", map[Counter]int{CountSpeakPenalty: 1, CountLinkEcho: 3, CountUnoPenalty: 1})
}

// ---------------------------------------------------------------------------
// Decks, player counts, option contradictions.

func TestVariantDecks(t *testing.T) {
	count := func(d Deck, f func(k Card) bool) int {
		n := 0
		for k, c := range d {
			if f(Card(k)) {
				n += c
			}
		}
		return n
	}
	sym := func(s Symbol) func(Card) bool { return func(k Card) bool { return k.Symbol() == s } }
	num := func(k Card) bool { return k.IsNumber() }
	e := EncantoDeck()
	if o := DefaultOptions(Encanto); o.Deck != e {
		t.Errorf("the encanto rule set does not use the encanto deck")
	}
	if e.Size() != 112 || count(e, num) != 76 || count(e, sym(Skip)) != 8 || count(e, sym(Reverse)) != 8 || count(e, sym(DrawTwo)) != 8 ||
		count(e, sym(Wild)) != 4 || count(e, sym(WildDrawFour)) != 4 || count(e, sym(WildDontSpeak)) != 4 {
		t.Errorf("encanto deck %s: %d cards", e, e.Size())
	}
	p := PartyDeck()
	if o := DefaultOptions(Party); o.Deck != p {
		t.Errorf("the party rule set does not use the party deck")
	}
	if p.Size() != 221 || count(p, num) != 152 || count(p, sym(Skip)) != 16 || count(p, sym(Reverse)) != 16 || count(p, sym(DrawTwo)) != 16 ||
		count(p, sym(PointTaken)) != 8 || count(p, sym(Wild)) != 4 || count(p, sym(WildDrawFour)) != 4 ||
		count(p, sym(WildPileUp)) != 2 || count(p, sym(WildDrawnTogether)) != 3 {
		t.Errorf("party deck %s: %d cards", p, p.Size())
	}
	o := DefaultOptions(Classic)
	if err := o.Set("deck", "classic,wild-swap-hands=4"); err != nil {
		t.Fatal(err)
	}
	if o.Deck.Size() != 112 || o.Deck[WildCard(WildSwapHands)] != 4 {
		t.Errorf("classic,wild-swap-hands=4 gives %d cards", o.Deck.Size())
	}
	for s, pts := range map[string]int{"rP": 20, "WP": 50, "WT": 50, "WD": 50, "WS": 40, "bS": 20, "g+2": 20, "W+4": 50} {
		if got := card(t, s).Points(); got != pts {
			t.Errorf("%s scores %d, want %d", s, got, pts)
		}
	}
}

func TestVariantPlayerCounts(t *testing.T) {
	for _, c := range []struct {
		r  RuleSet
		n  int
		ok bool
	}{
		{Party, 1, false}, {Party, 2, true}, {Party, 6, true}, {Party, 16, true}, {Party, 17, false},
		{Encanto, 2, true}, {Encanto, 10, true}, {Encanto, 11, false},
		{Classic, 10, true}, {Classic, 11, false},
	} {
		o := DefaultOptions(c.r)
		if err := o.Validate(c.n); (err == nil) != c.ok {
			t.Errorf("%s with %d players: error %v, want ok %v", c.r, c.n, err, c.ok)
		}
	}
}

func TestVariantOptionsContradict(t *testing.T) {
	for _, c := range []struct {
		sets  []string
		names []string // nil: the combination is allowed
	}{
		{[]string{"stack-draw-two=true", "deflect-draw-two=true"}, []string{"stack-draw-two", "deflect-draw-two"}},
		{[]string{"stack-draw-four=true", "deflect-draw-four=true"}, []string{"stack-draw-four", "deflect-draw-four"}},
		{[]string{"stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "deflect-draw-four=true"}, []string{"deflect-draw-four", "stack-"}},
		{[]string{"stack-mixed=true"}, []string{"stack-mixed", "stack-draw-two"}},
		{[]string{"stack-mixed=true", "stack-draw-two=true"}, []string{"stack-mixed", "stack-draw-four"}},
		{[]string{"stack-mixed=true", "stack-draw-four=true"}, []string{"stack-mixed", "stack-draw-two"}},
		{[]string{"stack-draw-two=true", "deflect-draw-four=true"}, nil},
		{[]string{"stack-draw-four=true", "deflect-draw-two=true"}, nil},
		{[]string{"deflect-draw-two=true", "deflect-draw-four=true", "deflect-skip=true"}, nil},
		{[]string{"stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true", "deflect-skip=true"}, nil},
		{[]string{"seven-zero=true", "deck=classic,7=0"}, nil},
		{[]string{"jump-in=any", "seven-zero=true", "no-finish-on-action=true"}, nil},
	} {
		for _, r := range []RuleSet{Classic, Encanto, Party} {
			o := testOptions(t, r, c.sets...)
			err := o.Validate(4)
			if c.names == nil {
				if err != nil {
					t.Errorf("%s %v: refused: %v", r, c.sets, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s %v: accepted", r, c.sets)
				continue
			}
			for _, w := range c.names {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s %v: error %q does not name %s", r, c.sets, err, w)
				}
			}
		}
	}
}
