package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Scenario tests on stacked decks for every classic rule and option value of
// RULES.md sections 2-6 (and the classic defaults of section 0).

func clMoves(ms ...Move) []Move { return ms }

// ---------------------------------------------------------------------------
// Section 0: classic defaults.

func TestScenarioClassicDefaults(t *testing.T) {
	want := map[string]string{
		"rules": "classic", "deck": "classic", "hand-size": "7", "dealer": "rotate",
		"first-player": "left-of-dealer", "start-card": "official", "draw": "one",
		"forced-play": "false", "must-play-drawn": "false", "two-player-reverse": "skip",
		"wd4-legal": "no-color-match", "challenge-penalty": "6", "guilty-takes-back": "false",
		"uno-penalty": "2", "no-finish-on-action": "false", "scoring": "single", "target": "500",
		"losers-outcome": "lowest-wins", "play-for-places": "false", "jump-in": "off",
		"stack-draw-two": "false", "stack-draw-four": "false", "stack-mixed": "false",
		"deflect-draw-two": "false", "deflect-draw-four": "false", "deflect-skip": "false",
		"seven-zero": "false", "max-turns": "5000",
	}
	o := DefaultOptions(Classic)
	for _, name := range OptionNames() {
		got, err := o.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[name]
		if !ok {
			t.Errorf("option %s is not in RULES.md section 0", name)
			continue
		}
		if got != w {
			t.Errorf("classic default of %s is %q, want %q", name, got, w)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("option %s of RULES.md section 0 is missing", name)
	}
	if o.Deck.Size() != 108 {
		t.Errorf("classic deck has %d cards, want 108", o.Deck.Size())
	}
	for n := 2; n <= 10; n++ {
		if err := o.Validate(n); err != nil {
			t.Errorf("classic defaults with %d players: %v", n, err)
		}
	}
}

// ---------------------------------------------------------------------------
// Section 2: dealer and first player.

func TestScenarioClassicDealerRotate(t *testing.T) {
	for _, fp := range []struct {
		value string
		first func(dealer int) int
	}{
		{"left-of-dealer", func(d int) int { return (d + 1) % 3 }},
		{"dealer", func(d int) int { return d }},
	} {
		t.Run(fp.value, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "scoring=winner-takes", "target=1000", "first-player="+fp.value)
			var dealers []int
			tb.g.OnRound(func(rr *RoundResult) { dealers = append(dealers, rr.Dealer) })
			for r, dealer := range []int{2, 0, 1, 2} {
				p := fp.first(dealer)
				hands := []string{"b9", "b9", "b8"}
				hands[p] = "r1"
				tb.dealAs(dealer, hands, "r5", "")
				g := tb.g
				if g.Current() != p || g.Round() != r {
					t.Fatalf("round %d (dealer %d): current %d, want %d", g.Round(), dealer, g.Current(), p)
				}
				tb.step()
				if !g.RoundOver() || g.RoundWinner() != p {
					t.Fatalf("round %d: seat %d should have gone out", r, p)
				}
				if !g.EndRound() {
					t.Fatalf("round %d: the match ended early: %+v", r, g.Result().Scores)
				}
			}
			if !slices.Equal(dealers, []int{2, 0, 1, 2}) {
				t.Errorf("dealers per round %v, want [2 0 1 2]", dealers)
			}
			if got := tb.g.Result().FirstToAct; got != fp.first(2) {
				t.Errorf("first to act %d, want %d", got, fp.first(2))
			}
			tb.done()
		})
	}
}

func TestScenarioClassicDealerRandom(t *testing.T) {
	const n = 4
	tb := newTable(t, Classic, n, "dealer=random")
	g := tb.g
	counts := make([]int, n)
	notRotating := 0
	for seed := uint64(1); seed <= 400; seed++ {
		g.Reset(seed, 0)
		g.StartRound()
		tb.check()
		d, top, hand := g.Dealer(), g.Top(), tb.handOf(0)
		counts[d]++
		if top.IsNumber() && g.Current() != (d+1)%n {
			t.Errorf("seed %d: dealer %d, number on top, but seat %d starts", seed, d, g.Current())
		}
		g.Reset(seed, 0)
		g.StartRound()
		if g.Dealer() != d || g.Top() != top || !slices.Equal(tb.handOf(0), hand) {
			t.Fatalf("seed %d is not reproducible: dealer %d then %d", seed, d, g.Dealer())
		}
		g.round = 1 // the next round of the match: a new random dealer, not the left neighbour
		g.StartRound()
		tb.check()
		if g.Dealer() != (d+1)%n {
			notRotating++
		}
	}
	for s, c := range counts {
		if c < 70 || c > 130 {
			t.Errorf("seat %d dealt %d times of 400, want about 100 (counts %v)", s, c, counts)
		}
	}
	if notRotating < 200 {
		t.Errorf("a random dealer passed left in %d of 400 second rounds", 400-notRotating)
	}
}

// clHighCardRef is an independent reading of RULES.md section 2's high card:
// the tied players (all at first) each take a card from the top of pile, the
// highest number wins, actions and wilds count zero, ties take again. It
// returns the seats still tied when one is left or the cards run out.
func clHighCardRef(pile []Card, n int) (tied []int, rounds int) {
	for i := range n {
		tied = append(tied, i)
	}
	top := len(pile)
	for len(tied) > 1 && top >= len(tied) {
		rounds++
		best := -1
		var next []int
		for _, p := range tied {
			top--
			v := 0
			if c := pile[top]; c.IsNumber() {
				v = int(c.Symbol())
			}
			switch {
			case v > best:
				best, next = v, []int{p}
			case v == best:
				next = append(next, p)
			}
		}
		tied = next
	}
	return tied, rounds
}

func TestScenarioClassicDealerHighCard(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		sets  []string
		check func(t *testing.T, seed uint64, pile []Card, dealer int)
	}{
		{"classic deck", 3, nil, nil},
		{"classic deck, 6 players", 6, nil, nil},
		// One red 1 among zero-valued actions and wilds, 9 cards for 3
		// players: every round ties at zero until the red 1 is taken, so
		// the taker deals. Were actions worth their symbol, a Skip would win.
		{"one number among actions", 3, []string{"deck=red-skip=2,red-reverse=1,red-draw-two=1,wild=2,wild-draw-four=2,red-1=1", "hand-size=1"},
			func(t *testing.T, seed uint64, pile []Card, dealer int) {
				k := len(pile) - 1 - slices.Index(pile, card(t, "r1")) // taken k-th
				if want := k % 3; dealer != want {
					t.Errorf("seed %d: red 1 taken %d-th (by seat %d) but seat %d deals", seed, k, want, dealer)
				}
			}},
		// Every card a 3, 7 cards, 3 players: two tied takes, then too few
		// cards: a random seat among all.
		{"all tied", 3, []string{"deck=red-3=7", "hand-size=1"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, c.n, append([]string{"dealer=high-card"}, c.sets...)...)
			g := tb.g
			retakes, seen := 0, map[int]bool{}
			for seed := uint64(1); seed <= 200; seed++ {
				g.Reset(seed, 0)
				var pile []Card
				for k, m := range g.t.opts.Deck {
					for range m {
						pile = append(pile, Card(k))
					}
				}
				var r Rand
				r.Seed(seed, 0, PurposeDealer)
				r.ShuffleCards(pile)
				tied, rounds := clHighCardRef(pile, c.n)
				if rounds > 1 {
					retakes++
				}
				g.StartRound()
				tb.check()
				d := g.Dealer()
				seen[d] = true
				if !slices.Contains(tied, d) {
					t.Errorf("seed %d: dealer %d, want one of %v", seed, d, tied)
				}
				if c.check != nil {
					c.check(t, seed, pile, d)
				}
				if g.Top().IsNumber() && g.Current() != (d+1)%c.n {
					t.Errorf("seed %d: dealer %d but seat %d starts", seed, d, g.Current())
				}
				g.round = 1 // later rounds: the deal passes left
				g.StartRound()
				if g.Dealer() != (d+1)%c.n {
					t.Errorf("seed %d: second round dealer %d, want %d", seed, g.Dealer(), (d+1)%c.n)
				}
			}
			if retakes == 0 {
				t.Errorf("no seed needed a second take: ties are not exercised")
			}
			if len(seen) != c.n {
				t.Errorf("only seats %v ever dealt", seen)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Section 2: the start card.

func TestScenarioClassicStartCardOfficial(t *testing.T) {
	type tc struct {
		name    string
		n       int
		sets    []string
		flip    string
		names   Color // the color P names for a wild (scripted)
		cur     int
		dir     int
		color   Color
		sizes   []int
		skips   int
		colorBy int // seat asked for the color, or -1
	}
	for _, c := range []tc{
		{"number", 3, nil, "r5", 0, 0, 1, Red, []int{1, 1, 1}, 0, -1},
		{"draw two", 3, nil, "r+2", 0, 1, 1, Red, []int{3, 1, 1}, 1, -1},
		{"skip", 3, nil, "rS", 0, 1, 1, Red, []int{1, 1, 1}, 1, -1},
		{"reverse: the dealer starts", 3, nil, "rR", 0, 2, -1, Red, []int{1, 1, 1}, 0, -1},
		{"wild: P names and plays", 3, nil, "W", Green, 0, 1, Green, []int{1, 1, 1}, 0, 0},
		{"2 players, reverse", 2, nil, "rR", 0, 1, -1, Red, []int{1, 1}, 0, -1},
		{"2 players, draw two", 2, nil, "r+2", 0, 1, 1, Red, []int{3, 1}, 1, -1},
		{"dealer first, number", 3, []string{"first-player=dealer"}, "r5", 0, 2, 1, Red, []int{1, 1, 1}, 0, -1},
		{"dealer first, draw two", 3, []string{"first-player=dealer"}, "r+2", 0, 0, 1, Red, []int{1, 1, 3}, 1, -1},
		{"dealer first, skip", 3, []string{"first-player=dealer"}, "rS", 0, 0, 1, Red, []int{1, 1, 1}, 1, -1},
		{"dealer first, reverse: the dealer's right", 3, []string{"first-player=dealer"}, "rR", 0, 1, -1, Red, []int{1, 1, 1}, 0, -1},
		{"dealer first, wild", 3, []string{"first-player=dealer"}, "W", Blue, 2, 1, Blue, []int{1, 1, 1}, 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, c.n, append([]string{"hand-size=1"}, c.sets...)...)
			if c.colorBy >= 0 {
				tb.expect(want{c.colorBy, DecideColor, ColorMove(c.names)})
			}
			hands := []string{"b1", "b2", "b3"}[:c.n]
			tb.dealAs(c.n-1, hands, c.flip, "")
			checkState(t, tb, "after the start card", c.cur, c.dir, c.color, c.flip, c.sizes...)
			checkCounts(t, tb, "start card", map[Counter]int{CountTurnLost: c.skips})
			if tb.g.DiscardSize() != 1 {
				t.Errorf("discard pile has %d cards, want 1", tb.g.DiscardSize())
			}
			tb.done()
		})
	}
}

func TestScenarioClassicStartWildDrawFour(t *testing.T) {
	wd4 := WildCard(WildDrawFour)
	t.Run("classic deck: returned, reshuffled, another flipped", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1")
		g := tb.g
		tops := map[Card]bool{}
		for seed := uint64(1); seed <= 30; seed++ {
			g.Reset(seed, 0)
			tb.dealAs(2, []string{"b1", "b2", "b3"}, "W+4", "")
			if g.Top() == wd4 || g.DiscardSize() != 1 || g.discard[wd4] != 0 {
				t.Fatalf("seed %d: top %s, discard pile of %d cards with %d Wild Draw Four", seed, g.Top(), g.DiscardSize(), g.discard[wd4])
			}
			inPile := 0 // the draw pile, or a hand when the replacement made P draw
			for _, c := range g.drawPile[:g.drawN] {
				if c == wd4 {
					inPile++
				}
			}
			for p := range 3 {
				inPile += g.Hand(p).Count(wd4)
			}
			if inPile != 4 {
				t.Fatalf("seed %d: %d Wild Draw Fours in the draw pile and hands, want 4", seed, inPile)
			}
			tops[g.Top()] = true
		}
		if len(tops) < 5 {
			t.Errorf("the replacement card is always one of %v: the draw pile was not reshuffled", tops)
		}
	})
	t.Run("replaced by the only other kind", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "deck=red-1=3,blue-5=5,wild-draw-four=1")
		tb.dealAs(2, []string{"r1", "r1", "r1"}, "W+4", "")
		checkState(t, tb, "after the start card", 0, 1, Blue, "b5", 1, 1, 1)
		if tb.g.DiscardSize() != 1 || tb.g.DrawPileSize() != 5 || askedCount(tb, 0, DecideColor) != 0 {
			t.Errorf("discard %d draw %d color asked %d times", tb.g.DiscardSize(), tb.g.DrawPileSize(), askedCount(tb, 0, DecideColor))
		}
	})
	t.Run("the replacement's effect applies", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "deck=red-1=3,green-draw-two=4,wild-draw-four=1")
		tb.dealAs(2, []string{"r1", "r1", "r1"}, "W+4", "")
		checkState(t, tb, "after the start card", 1, 1, Green, "g+2", 3, 1, 1)
		checkCounts(t, tb, "start", map[Counter]int{CountTurnLost: 1})
	})
	for _, c := range []struct{ name, deck string }{
		{"only Wild Draw Fours remain", "red-1=3,wild-draw-four=3"},
		{"nothing remains", "red-1=3,wild-draw-four=1"},
	} {
		t.Run(c.name+": it stands, effect ignored, P names the color", func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "deck="+c.deck)
			tb.expect(want{0, DecideColor, ColorMove(Yellow)})
			tb.dealAs(2, []string{"r1", "r1", "r1"}, "W+4", "")
			checkState(t, tb, "after the start card", 0, 1, Yellow, "W+4", 1, 1, 1)
			checkCounts(t, tb, "start", map[Counter]int{CountTurnLost: 0, CountForgiven: 0})
			if tb.g.DiscardSize() != 1 {
				t.Errorf("discard pile has %d cards, want 1", tb.g.DiscardSize())
			}
			tb.done()
		})
	}
}

func TestScenarioClassicStartFlipUntilNumber(t *testing.T) {
	t.Run("actions stay in the discard pile without effect", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "start-card=flip-until-number")
		tb.dealAs(2, []string{"g1", "g2", "g3"}, "rS rR r+2 W W+4 b5", "")
		checkState(t, tb, "after the start card", 0, 1, Blue, "b5", 1, 1, 1)
		if tb.g.DiscardSize() != 6 || len(tb.log) != 0 {
			t.Errorf("discard pile %d cards (want 6), decisions asked %v", tb.g.DiscardSize(), tb.log)
		}
		checkCounts(t, tb, "start", map[Counter]int{CountTurnLost: 0})
	})
	t.Run("a number first", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "start-card=flip-until-number")
		tb.dealAs(2, []string{"g1", "g2", "g3"}, "y0", "")
		checkState(t, tb, "after the start card", 0, 1, Yellow, "y0", 1, 1, 1)
	})
	deck := "deck=red-1=3,red-skip=1,red-draw-two=1,wild=1,wild-draw-four=1"
	for _, c := range []struct {
		name, flips, top string
		names            Color
		color            Color
		asked            bool
	}{
		{"run out on a wild: P names the color", "rS r+2 W+4 W", "W", Green, Green, true},
		{"run out on a Wild Draw Four: no draw, P names the color", "rS r+2 W W+4", "W+4", Blue, Blue, true},
		{"run out on a Draw Two: effect ignored", "W W+4 rS r+2", "r+2", 0, Red, false},
		{"run out on a Skip: effect ignored", "W W+4 r+2 rS", "rS", 0, Red, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "start-card=flip-until-number", deck)
			if c.asked {
				tb.expect(want{0, DecideColor, ColorMove(c.names)})
			}
			tb.dealAs(2, []string{"r1", "r1", "r1"}, c.flips, "")
			checkState(t, tb, "after the start card", 0, 1, c.color, c.top, 1, 1, 1)
			if tb.g.DiscardSize() != 4 || tb.g.DrawPileSize() != 0 || (askedCount(tb, 0, DecideColor) == 1) != c.asked {
				t.Errorf("discard %d (want 4), draw %d (want 0), color asked %d times", tb.g.DiscardSize(), tb.g.DrawPileSize(), askedCount(tb, 0, DecideColor))
			}
			checkCounts(t, tb, "start", map[Counter]int{CountTurnLost: 0, CountForgiven: 0})
			tb.done()
		})
	}
}

// ---------------------------------------------------------------------------
// Section 3: a turn.

func TestScenarioClassicPlayOrDraw(t *testing.T) {
	hands := func(h0 string) []string { return []string{h0, "g1 g2", "y1 y2"} }
	t.Run("voluntary draw of an unplayable card ends the turn", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2")
		tb.dealAs(2, hands("r1 b2"), "r5", "g7")
		tb.expect(want{0, DecideTurn, draw})
		tb.step()
		if got, w := tb.offered(0, DecideTurn), clMoves(play(t, "r1"), draw); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
		checkState(t, tb, "after the draw", 1, 1, Red, "r5", 3, 2, 2)
		if askedCount(tb, 0, DecideDrawn) != 0 || !slices.Contains(tb.handOf(0), card(t, "g7")) {
			t.Errorf("an unplayable drawn card was offered, or not kept")
		}
		checkCounts(t, tb, "draw", map[Counter]int{CountVoluntaryDraw: 1, CountPlayDrawn: 0})
		tb.done()
	})
	t.Run("voluntary draw, then only the drawn card may be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2")
		tb.dealAs(2, hands("r1 b2"), "r5", "r7")
		tb.expect(want{0, DecideTurn, draw}, want{0, DecideDrawn, play(t, "r7")})
		tb.step()
		if got, w := tb.offered(0, DecideDrawn), clMoves(play(t, "r7"), keep); !slices.Equal(got, w) {
			t.Errorf("offered after drawing %v, want %v", got, w)
		}
		checkState(t, tb, "after playing the drawn card", 1, 1, Red, "r7", 2, 2, 2)
		checkCounts(t, tb, "draw", map[Counter]int{CountVoluntaryDraw: 1, CountPlayDrawn: 1})
		tb.done()
	})
	t.Run("no playable card: draw, keep the playable drawn card", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2")
		tb.dealAs(2, hands("b1 b2"), "r5", "r7")
		tb.expect(want{0, DecideDrawn, keep})
		tb.step()
		if askedCount(tb, 0, DecideTurn) != 0 {
			t.Errorf("seat 0 was asked its turn with only a draw possible: %v", tb.offered(0, DecideTurn))
		}
		checkState(t, tb, "after keeping", 1, 1, Red, "r5", 3, 2, 2)
		checkCounts(t, tb, "draw", map[Counter]int{CountVoluntaryDraw: 0, CountPlayDrawn: 0})
		tb.done()
	})
	t.Run("no playable card: draw and play it", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2")
		tb.dealAs(2, hands("b1 b2"), "r5", "rS")
		tb.expect(want{0, DecideDrawn, play(t, "rS")})
		tb.step()
		checkState(t, tb, "after playing the drawn Skip", 2, 1, Red, "rS", 2, 2, 2)
		checkCounts(t, tb, "draw", map[Counter]int{CountPlayDrawn: 1, CountTurnLost: 1})
		tb.done()
	})
}

func TestScenarioClassicDrawUntilPlayable(t *testing.T) {
	hands := func(h0 string) []string { return []string{h0, "g8 g9", "y8 y9"} }
	t.Run("draws until a playable card and plays it", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "draw=until-playable")
		tb.dealAs(2, hands("b1 b2"), "r5", "g1 y2 r9")
		tb.expect(want{0, DecideDrawn, play(t, "r9")})
		tb.step()
		if got, w := tb.offered(0, DecideDrawn), clMoves(play(t, "r9"), keep); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
		checkState(t, tb, "after", 1, 1, Red, "r9", 4, 2, 2)
		tb.done()
	})
	t.Run("a wild stops the drawing", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "draw=until-playable")
		tb.dealAs(2, hands("b1 b2"), "r5", "g1 W r9")
		tb.expect(want{0, DecideDrawn, keep})
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "r5", 4, 2, 2)
		if !slices.Contains(tb.handOf(0), card(t, "W")) || slices.Contains(tb.handOf(0), card(t, "r9")) {
			t.Errorf("hand %v: want the wild kept and r9 not drawn", tb.handOf(0))
		}
		tb.done()
	})
	t.Run("a voluntary draw: only the last card may be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "draw=until-playable")
		tb.dealAs(2, hands("r1 b2"), "r5", "g1 r9")
		tb.expect(want{0, DecideTurn, draw}, want{0, DecideDrawn, keep})
		tb.step()
		if got, w := tb.offered(0, DecideDrawn), clMoves(play(t, "r9"), keep); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
		checkState(t, tb, "after", 1, 1, Red, "r5", 4, 2, 2)
		tb.done()
	})
	t.Run("stops when nothing can be drawn", func(t *testing.T) {
		tb := newTable(t, Classic, 2, "hand-size=2", "draw=until-playable",
			"deck=blue-1=1,blue-2=1,green-3=1,green-4=1,red-5=1,yellow-6=1,yellow-7=1")
		tb.dealAs(1, []string{"b1 b2", "g3 g4"}, "r5", "y6 y7")
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "r5", 4, 2)
		checkCounts(t, tb, "draw", map[Counter]int{CountForgiven: 0, CountReshuffle: 0})
		if askedCount(tb, 0, DecideDrawn) != 0 {
			t.Errorf("no playable card was drawn but a play was offered")
		}
	})
}

func TestScenarioClassicForcedPlay(t *testing.T) {
	hands := func(h0 string) []string { return []string{h0, "g8 g9", "y8 y9"} }
	t.Run("no draw offered with a playable card", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "forced-play=true")
		tb.dealAs(2, hands("r1 r2"), "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "r2")})
		tb.step()
		if got, w := tb.offered(0, DecideTurn), clMoves(play(t, "r1"), play(t, "r2")); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
		checkState(t, tb, "after", 1, 1, Red, "r2", 1, 2, 2)
		tb.done()
	})
	t.Run("a Wild Draw Four counts as playable", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "forced-play=true")
		tb.dealAs(2, hands("W+4 b2"), "r5", "")
		tb.expect(want{0, DecideColor, ColorMove(Blue)})
		tb.step()
		if askedCount(tb, 0, DecideTurn) != 0 {
			t.Errorf("seat 0 was offered %v, want only the Wild Draw Four", tb.offered(0, DecideTurn))
		}
		checkState(t, tb, "after", 2, 1, Blue, "W+4", 1, 6, 2)
		tb.done()
	})
	t.Run("a bluff counts too", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "forced-play=true")
		tb.dealAs(2, hands("W+4 r1"), "r5", "")
		tb.step()
		if got, w := tb.offered(0, DecideTurn), clMoves(play(t, "r1"), play(t, "W+4")); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
	})
	t.Run("nothing playable: draw", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "forced-play=true")
		tb.dealAs(2, hands("b1 b2"), "r5", "g7")
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "r5", 3, 2, 2)
	})
	t.Run("after drawing a playable card it may still be kept", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "forced-play=true")
		tb.dealAs(2, hands("b1 b2"), "r5", "r7")
		tb.expect(want{0, DecideDrawn, keep})
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "r5", 3, 2, 2)
		tb.done()
	})
}

func TestScenarioClassicMustPlayDrawn(t *testing.T) {
	hands := func(h0 string) []string { return []string{h0, "g8 g9", "y8 y9"} }
	t.Run("a playable drawn card is played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "must-play-drawn=true")
		tb.dealAs(2, hands("b1 b2"), "r5", "r7")
		tb.step()
		if askedCount(tb, 0, DecideDrawn) != 0 {
			t.Errorf("offered %v, want only the play", tb.offered(0, DecideDrawn))
		}
		checkState(t, tb, "after", 1, 1, Red, "r7", 2, 2, 2)
		checkCounts(t, tb, "must-play-drawn", map[Counter]int{CountPlayDrawn: 1})
	})
	t.Run("after a voluntary draw too", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "must-play-drawn=true")
		tb.dealAs(2, hands("r1 b2"), "r5", "y5")
		tb.expect(want{0, DecideTurn, draw})
		tb.step()
		checkState(t, tb, "after", 1, 1, Yellow, "y5", 2, 2, 2)
		tb.done()
	})
	t.Run("an illegal drawn Wild Draw Four may be kept", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "must-play-drawn=true")
		tb.dealAs(2, hands("r1 b2"), "r5", "W+4")
		tb.expect(want{0, DecideTurn, draw}, want{0, DecideDrawn, keep})
		tb.step()
		if got, w := tb.offered(0, DecideDrawn), clMoves(play(t, "W+4"), keep); !slices.Equal(got, w) {
			t.Errorf("offered %v, want %v", got, w)
		}
		checkState(t, tb, "after", 1, 1, Red, "r5", 3, 2, 2)
		tb.done()
	})
	t.Run("a legal drawn Wild Draw Four must be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "must-play-drawn=true")
		tb.dealAs(2, hands("b1 b2"), "r5", "W+4")
		tb.expect(want{0, DecideColor, ColorMove(Green)})
		tb.step()
		if askedCount(tb, 0, DecideDrawn) != 0 {
			t.Errorf("offered %v, want only the play", tb.offered(0, DecideDrawn))
		}
		checkState(t, tb, "after", 2, 1, Green, "W+4", 2, 6, 2)
		tb.done()
	})
	t.Run("an unplayable drawn card is kept", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "must-play-drawn=true")
		tb.dealAs(2, hands("b1 b2"), "r5", "g7")
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "r5", 3, 2, 2)
	})
}

// ---------------------------------------------------------------------------
// Section 3: empty piles, blocked and unfinished rounds.

func TestScenarioClassicReshuffle(t *testing.T) {
	tb := newTable(t, Classic, 2, "hand-size=2", "deck=red-1=1,blue-9=1,green-7=1,green-8=1,red-5=1,yellow-2=1")
	g := tb.g
	tb.dealAs(1, []string{"r1 b9", "g7 g8"}, "r5", "y2")
	tb.step() // seat 0 plays r1 (and calls UNO)
	tb.step() // seat 1 draws y2, the last card of the draw pile
	if g.DrawPileSize() != 0 || g.DiscardSize() != 2 {
		t.Fatalf("draw pile %d discard %d, want 0 and 2", g.DrawPileSize(), g.DiscardSize())
	}
	tb.expect(want{0, DecideDrawn, keep})
	tb.step() // seat 0 must draw: r5 comes back from under the top r1
	checkState(t, tb, "after the reshuffle", 1, 1, Red, "r1", 2, 3)
	if g.DiscardSize() != 1 || g.DrawPileSize() != 0 || !slices.Contains(tb.handOf(0), card(t, "r5")) {
		t.Errorf("discard %d draw %d hand %v: want the top kept and r5 drawn", g.DiscardSize(), g.DrawPileSize(), tb.handOf(0))
	}
	checkCounts(t, tb, "reshuffle", map[Counter]int{CountReshuffle: 1, CountForgiven: 0})
	tb.step() // seat 1 must draw, but nothing can be drawn: the draw is skipped
	checkState(t, tb, "after an empty draw", 0, 1, Red, "r1", 2, 3)
	if g.RoundOver() {
		t.Errorf("one empty draw blocked the round")
	}
	tb.done()
}

func TestScenarioClassicForgiven(t *testing.T) {
	t.Run("partly forgiven", func(t *testing.T) {
		tb := newTable(t, Classic, 2, "hand-size=2", "deck=red-draw-two=1,red-1=1,green-7=1,green-8=1,red-5=1")
		tb.dealAs(1, []string{"r+2 r1", "g7 g8"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "r+2")})
		tb.step()
		checkState(t, tb, "after the Draw Two", 0, 1, Red, "r+2", 1, 3)
		checkCounts(t, tb, "forgiven", map[Counter]int{CountForgiven: 1, CountReshuffle: 1, CountDrawTwo: 1})
		tb.done()
	})
	t.Run("wholly forgiven, then blocked", func(t *testing.T) {
		tb := newTable(t, Classic, 2, "hand-size=2", "deck=red-draw-two=1,green-7=1,green-8=1,blue-1=1,blue-2=1")
		g := tb.g
		tb.dealAs(1, []string{"g7 g8", "b1 b2"}, "r+2", "")
		checkState(t, tb, "after the start Draw Two", 1, 1, Red, "r+2", 2, 2)
		checkCounts(t, tb, "start", map[Counter]int{CountForgiven: 2, CountTurnLost: 1})
		tb.step()
		if g.RoundOver() {
			t.Fatalf("round over after one empty turn")
		}
		checkState(t, tb, "after seat 1's empty draw", 0, 1, Red, "r+2", 2, 2)
		tb.step()
		if !g.RoundOver() || g.RoundOutcome() != Blocked || g.RoundWinner() != -1 || g.Turns() != 2 {
			t.Fatalf("over %v outcome %s winner %d turns %d, want a blocked round after 2 turns", g.RoundOver(), g.RoundOutcome(), g.RoundWinner(), g.Turns())
		}
		if g.EndRound() {
			t.Errorf("the match goes on after a blocked round")
		}
		if r := g.Result(); r.Outcome != Blocked || r.Winner != -1 || r.Winners != 0 {
			t.Errorf("result outcome %s winner %d winners %b, want blocked with no winner", r.Outcome, r.Winner, r.Winners)
		}
	})
	t.Run("a play resets the blocking count", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "deck=red-1=1,red-2=1,green-7=1,green-8=1,red-3=1,blue-2=1,red-5=1")
		g := tb.g
		tb.dealAs(2, []string{"r1 r2", "g7 g8", "r3 b2"}, "r5", "")
		tb.expect(want{0, DecideTurn, draw})
		tb.step() // seat 0 draws nothing
		tb.step() // seat 1 draws nothing
		tb.step() // seat 2 plays r3: not blocked
		if g.RoundOver() {
			t.Fatalf("blocked although seat 2 could play")
		}
		tb.expect(want{0, DecideTurn, draw}, want{0, DecideDrawn, keep})
		tb.step() // seat 0 draws r5, reshuffled from under r3
		checkState(t, tb, "after the reshuffle", 1, 1, Red, "r3", 3, 2, 1)
		tb.step() // seat 1 draws nothing
		tb.step() // seat 2 draws nothing
		if g.RoundOver() {
			t.Fatalf("blocked after 2 empty turns of 3 players")
		}
		tb.expect(want{0, DecideTurn, draw})
		tb.step() // seat 0 draws nothing: 3 in succession
		if !g.RoundOver() || g.RoundOutcome() != Blocked || g.Turns() != 7 {
			t.Fatalf("over %v outcome %s turns %d, want blocked after 7 turns", g.RoundOver(), g.RoundOutcome(), g.Turns())
		}
		tb.done()
	})
}

func TestScenarioClassicMaxTurns(t *testing.T) {
	t.Run("single", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=3", "max-turns=3")
		g := tb.g
		tb.dealAs(2, []string{"r1 r2 r3", "r4 r6 r7", "r8 r9 b0"}, "r5", "")
		tb.step()
		tb.step()
		if g.RoundOver() {
			t.Fatalf("round over after 2 turns of 3")
		}
		tb.step()
		if !g.RoundOver() || g.RoundOutcome() != Unfinished || g.Turns() != 3 || g.RoundWinner() != -1 {
			t.Fatalf("over %v outcome %s turns %d winner %d, want unfinished after 3", g.RoundOver(), g.RoundOutcome(), g.Turns(), g.RoundWinner())
		}
		if g.EndRound() {
			t.Errorf("an unfinished game goes on")
		}
		if r := g.Result(); r.Outcome != Unfinished || r.Winner != -1 || r.Winners != 0 || r.Turns != 3 {
			t.Errorf("result %s winner %d winners %b turns %d", r.Outcome, r.Winner, r.Winners, r.Turns)
		}
	})
	t.Run("skipped players take no turn", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "max-turns=2")
		g := tb.g
		tb.dealAs(2, []string{"rS r1", "r2 r3", "r4 r6"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "rS")})
		tb.step() // seat 0 skips seat 1
		tb.step() // seat 2
		if !g.RoundOver() || g.RoundOutcome() != Unfinished || g.Turns() != 2 {
			t.Fatalf("over %v outcome %s turns %d", g.RoundOver(), g.RoundOutcome(), g.Turns())
		}
		if askedCount(tb, 1, DecideTurn) != 0 {
			t.Errorf("the skipped seat 1 took a turn")
		}
	})
	t.Run("a match is unfinished", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=3", "max-turns=1", "scoring=winner-takes")
		g := tb.g
		tb.dealAs(2, []string{"r1 r2 r3", "r4 r6 r7", "r8 r9 b0"}, "r5", "")
		tb.step()
		if !g.RoundOver() || g.EndRound() {
			t.Fatalf("the match goes on after an unfinished round")
		}
		if r := g.Result(); r.Outcome != Unfinished || r.Winners != 0 || r.Rounds != 1 {
			t.Errorf("result %s winners %b rounds %d", r.Outcome, r.Winners, r.Rounds)
		}
	})
}

// ---------------------------------------------------------------------------
// Section 4: action cards.

func TestScenarioClassicActions(t *testing.T) {
	type tc struct {
		name    string
		n       int
		sets    []string
		hand0   string
		play    string
		names   Color
		cur     int
		dir     int
		color   Color
		sizes   []int
		counts  map[Counter]int
		respond bool // seat 1 is asked to respond (accepts)
	}
	for _, c := range []tc{
		{"skip", 3, nil, "rS b1", "rS", 0, 2, 1, Red, []int{1, 2, 2}, map[Counter]int{CountTurnLost: 1}, false},
		{"skip, 2 players: play again", 2, nil, "rS b1", "rS", 0, 0, 1, Red, []int{1, 2}, map[Counter]int{CountTurnLost: 1}, false},
		{"reverse", 3, nil, "rR b1", "rR", 0, 2, -1, Red, []int{1, 2, 2}, map[Counter]int{CountReverse: 1, CountTurnLost: 0}, false},
		{"reverse, 2 players, skip", 2, nil, "rR b1", "rR", 0, 0, -1, Red, []int{1, 2}, map[Counter]int{CountReverse: 1, CountTurnLost: 1}, false},
		{"reverse, 2 players, none", 2, []string{"two-player-reverse=none"}, "rR b1", "rR", 0, 1, -1, Red, []int{1, 2}, map[Counter]int{CountReverse: 1, CountTurnLost: 0}, false},
		{"reverse, 3 players, none", 3, []string{"two-player-reverse=none"}, "rR b1", "rR", 0, 2, -1, Red, []int{1, 2, 2}, map[Counter]int{CountReverse: 1, CountTurnLost: 0}, false},
		{"draw two", 3, nil, "r+2 b1", "r+2", 0, 2, 1, Red, []int{1, 4, 2}, map[Counter]int{CountDrawTwo: 1, CountTurnLost: 1}, false},
		{"draw two, 2 players: play again", 2, nil, "r+2 b1", "r+2", 0, 0, 1, Red, []int{1, 4}, map[Counter]int{CountDrawTwo: 1, CountTurnLost: 1}, false},
		{"wild naming the current color", 3, nil, "W b1", "W", Red, 1, 1, Red, []int{1, 2, 2}, map[Counter]int{CountWild: 1, CountTurnLost: 0}, false},
		{"wild naming another color", 3, nil, "W b1", "W", Yellow, 1, 1, Yellow, []int{1, 2, 2}, map[Counter]int{CountWild: 1}, false},
		{"wild draw four", 3, nil, "W+4 b1", "W+4", Green, 2, 1, Green, []int{1, 6, 2}, map[Counter]int{CountWildDrawFour: 1, CountTurnLost: 1, CountChallenge: 0, CountBluff: 0}, true},
		{"wild draw four, 2 players: play again", 2, nil, "W+4 b1", "W+4", Green, 0, 1, Green, []int{1, 6}, map[Counter]int{CountWildDrawFour: 1, CountTurnLost: 1}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, c.n, append([]string{"hand-size=2"}, c.sets...)...)
			hands := []string{c.hand0, "g8 g9", "y8 y9"}[:c.n]
			tb.dealAs(c.n-1, hands, "r5", "")
			tb.expect(want{0, DecideTurn, play(t, c.play)})
			if card(t, c.play).IsWild() {
				tb.expect(want{0, DecideColor, ColorMove(c.names)})
			}
			tb.expect(want{0, DecideCallUNO, callUNO})
			if c.respond {
				tb.expect(want{1, DecideRespond, accept})
			}
			tb.step()
			checkState(t, tb, "after "+c.play, c.cur, c.dir, c.color, c.play, c.sizes...)
			checkCounts(t, tb, c.name, c.counts)
			if card(t, c.play).IsWild() {
				got := tb.offered(0, DecideColor)
				if w := clMoves(ColorMove(Red), ColorMove(Yellow), ColorMove(Green), ColorMove(Blue)); !slices.Equal(got, w) {
					t.Errorf("colors offered %v, want %v", got, w)
				}
			}
			if c.respond {
				if got, w := tb.offered(1, DecideRespond), clMoves(accept, challenge); !slices.Equal(got, w) {
					t.Errorf("seat 1 offered %v, want %v", got, w)
				}
			}
			tb.done()
		})
	}
}

func TestScenarioClassicDirection(t *testing.T) {
	// After a Reverse, Skip, Draw Two and Wild Draw Four act on the players
	// counter-clockwise.
	tb := newTable(t, Classic, 4, "hand-size=3")
	tb.dealAs(3, []string{"rR b1 b2", "r+2 g8 g9", "W+4 y1 y2", "rS g1 g2"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "rR")})
	tb.step()
	checkState(t, tb, "after the reverse", 3, -1, Red, "rR", 2, 3, 3, 3)
	tb.expect(want{3, DecideTurn, play(t, "rS")})
	tb.step()
	checkState(t, tb, "after the skip", 1, -1, Red, "rS", 2, 3, 3, 2)
	tb.expect(want{1, DecideTurn, play(t, "r+2")})
	tb.step()
	checkState(t, tb, "after the draw two", 3, -1, Red, "r+2", 4, 2, 3, 2)
	tb.expect(want{3, DecideDrawn, keep})
	tb.step() // seat 3 draws a red 0 (g1 g2 do not match the red Draw Two) and keeps it
	tb.expect(want{2, DecideTurn, play(t, "W+4")}, want{2, DecideColor, ColorMove(Yellow)}, want{1, DecideRespond, accept})
	tb.step()
	checkState(t, tb, "after the wild draw four", 0, -1, Yellow, "W+4", 4, 6, 2, 3)
	tb.done()
}

func TestScenarioClassicRoundReset(t *testing.T) {
	// Between rounds the direction returns to clockwise and UNO calls clear.
	tb := newTable(t, Classic, 3, "hand-size=2", "scoring=winner-takes", "target=1000")
	g := tb.g
	tb.dealAs(2, []string{"rR b7", "b1 b2", "r2 g3"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "rR")})
	tb.step() // seat 0 reverses, calls UNO
	tb.step() // seat 2 plays r2, calls UNO
	tb.step() // seat 1 plays b2, calls UNO
	tb.step() // seat 0 goes out with b7
	if !g.RoundOver() || g.RoundWinner() != 0 || g.Direction() != -1 || !g.CalledUNO(1) || !g.CalledUNO(2) {
		t.Fatalf("round 1: over %v winner %d direction %d calls %v %v", g.RoundOver(), g.RoundWinner(), g.Direction(), g.CalledUNO(1), g.CalledUNO(2))
	}
	if !g.EndRound() {
		t.Fatalf("the match ended")
	}
	tb.dealAs(0, []string{"y1 y2", "y3 y4", "y6 y7"}, "g5", "")
	checkState(t, tb, "round 2", 1, 1, Green, "g5", 2, 2, 2)
	for p := range 3 {
		if g.CalledUNO(p) {
			t.Errorf("seat %d still has its UNO call in round 2", p)
		}
	}
}

func TestScenarioClassicUNOCheckBeforeChallenge(t *testing.T) {
	// RULES.md section 4: the UNO check (step 3) comes before the card's
	// effect and its challenge (step 4).
	tb := newTable(t, Classic, 3, "hand-size=2")
	tb.dealAs(2, []string{"W+4 b1", "g8 g9", "y8 y9"}, "r5", "")
	tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, ColorMove(Green)},
		want{0, DecideCallUNO, pass}, want{1, DecideCatch, pass}, want{2, DecideCatch, pass},
		want{1, DecideRespond, accept})
	tb.step()
	call, catch, respond := askIndex(tb, 0, DecideCallUNO), askIndex(tb, 2, DecideCatch), askIndex(tb, 1, DecideRespond)
	if call < 0 || catch < call || respond < catch {
		t.Errorf("decision order: call %d, catch %d, respond %d; want call < catch < respond", call, catch, respond)
	}
	checkState(t, tb, "after", 2, 1, Green, "W+4", 1, 6, 2)
	tb.done()
}

// ---------------------------------------------------------------------------
// Section 4: Wild Draw Four legality and the challenge.

func TestScenarioClassicWD4Legality(t *testing.T) {
	type tc struct {
		rule  string
		flip  string // the start card; a wild is named blue by seat 0
		hand  string
		legal bool
	}
	cases := []tc{
		{"no-color-match", "r5", "W+4 b5 W", true},
		{"no-color-match", "r5", "W+4 r9 b1", false},
		{"no-color-match", "r5", "W+4 rS b1", false},
		{"no-color-match", "r5", "W+4 W+4 b1", true},
		{"no-color-match", "W", "W+4 r9 g1", true},  // reference color blue, named at the start
		{"no-color-match", "W", "W+4 b9 g1", false}, // the blue 9 matches the reference color
		{"no-color-match-or-wild", "r5", "W+4 b5 g1", true},
		{"no-color-match-or-wild", "r5", "W+4 W b1", false},
		{"no-color-match-or-wild", "r5", "W+4 r9 b1", false},
		{"no-color-match-or-wild", "r5", "W+4 W+4 b1", true},
		{"no-playable", "r5", "W+4 b1 g2", true},
		{"no-playable", "r5", "W+4 b5 g1", false},
		{"no-playable", "r5", "W+4 W g1", false},
		{"no-playable", "r5", "W+4 r9 b1", false},
		{"no-playable", "r5", "W+4 W+4 b1", true},
		{"no-playable", "W", "W+4 r9 g1", true},
	}
	for _, c := range cases {
		t.Run(c.rule+"/"+c.flip+"/"+c.hand, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=3", "wd4-legal="+c.rule)
			if c.flip == "W" {
				tb.expect(want{0, DecideColor, ColorMove(Blue)})
			}
			tb.dealAs(2, []string{c.hand, "g7 g8 g9", "y7 y8 y9"}, c.flip, "")
			tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, ColorMove(Green)},
				want{1, DecideRespond, challenge})
			tb.step()
			if c.legal {
				checkState(t, tb, "legal, challenged", 2, 1, Green, "W+4", 2, 9, 3)
				checkCounts(t, tb, "legal", map[Counter]int{CountChallenge: 1, CountChallengeWon: 0, CountBluff: 0})
			} else {
				checkState(t, tb, "illegal, challenged", 1, 1, Green, "W+4", 6, 3, 3)
				checkCounts(t, tb, "illegal", map[Counter]int{CountChallenge: 1, CountChallengeWon: 1, CountBluff: 1})
			}
			tb.done()
		})
	}
}

func TestScenarioClassicChallenge(t *testing.T) {
	type tc struct {
		name  string
		n     int
		sets  []string
		hand0 string
		sizes []int
		cur   int
		won   int
	}
	for _, c := range []tc{
		{"legal, penalty 6", 3, nil, "W+4 b1 b2", []int{2, 9, 3}, 2, 0},
		{"legal, penalty 3", 3, []string{"challenge-penalty=3"}, "W+4 b1 b2", []int{2, 6, 3}, 2, 0},
		{"legal, penalty 0", 3, []string{"challenge-penalty=0"}, "W+4 b1 b2", []int{2, 3, 3}, 2, 0},
		{"legal, 2 players: play again", 2, nil, "W+4 b1 b2", []int{2, 9}, 0, 0},
		{"legal, guilty-takes-back does not apply", 3, []string{"guilty-takes-back=true"}, "W+4 b1 b2", []int{2, 9, 3}, 2, 0},
		{"illegal: the player draws 4", 3, nil, "W+4 r9 b1", []int{6, 3, 3}, 1, 1},
		{"illegal, penalty 3 plays no part", 3, []string{"challenge-penalty=3"}, "W+4 r9 b1", []int{6, 3, 3}, 1, 1},
		{"illegal, 2 players", 2, nil, "W+4 r9 b1", []int{6, 3}, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, c.n, append([]string{"hand-size=3"}, c.sets...)...)
			g := tb.g
			tb.dealAs(c.n-1, []string{c.hand0, "g7 g8 g9", "y7 y8 y9"}[:c.n], "r5", "")
			tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, ColorMove(Green)},
				want{1, DecideRespond, challenge})
			tb.step()
			checkState(t, tb, "after the challenge", c.cur, 1, Green, "W+4", c.sizes...)
			checkCounts(t, tb, c.name, map[Counter]int{CountChallenge: 1, CountChallengeWon: c.won, CountBluff: c.won, CountWildDrawFour: 1})
			if h, ok := g.views[1].Revealed(); !ok || h.Size() != 2 || h.Count(WildCard(WildDrawFour)) != 0 {
				t.Errorf("challenger saw %v (%v), want the 2 cards held after the play", h, ok)
			}
			if c.n > 2 {
				if _, ok := g.views[2].Revealed(); ok {
					t.Errorf("the hand was shown to a player who did not challenge")
				}
				if n := askedCount(tb, 2, DecideRespond); n != 0 {
					t.Errorf("seat 2, not the victim, was asked to respond %d times", n)
				}
			}
			if n := askedCount(tb, 0, DecideRespond); n != 0 {
				t.Errorf("the player of the Wild Draw Four was asked to respond %d times", n)
			}
			if c.won == 1 {
				// The challenger takes its turn normally, on the named color.
				tb.expect(want{1, DecideTurn, play(t, "g8")})
				tb.step()
				if g.Top() != card(t, "g8") {
					t.Errorf("the challenger did not play its turn: top %s", g.Top())
				}
			}
			tb.done()
		})
	}
}

func TestScenarioClassicGuiltyTakesBack(t *testing.T) {
	for _, c := range []struct {
		name     string
		flip     string
		startCol Color // named by seat 0 when the flip is a wild
		hand0    string
		hand1    string
		refColor Color
		good     Move // a move of seat 1 against the restored top
		bad      Move // a move playable only against the named color
	}{
		{"on a number", "r5", 0, "W+4 r9 b1", "r7 g8 g9", Red, PlayMove(MakeCard(Red, Seven)), PlayMove(MakeCard(Green, Eight))},
		{"on a wild", "W", Blue, "W+4 b9 r1", "b7 g8 g9", Blue, PlayMove(MakeCard(Blue, Seven)), PlayMove(MakeCard(Green, Eight))},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=3", "guilty-takes-back=true")
			g := tb.g
			if c.flip == "W" {
				tb.expect(want{0, DecideColor, ColorMove(c.startCol)})
			}
			tb.dealAs(2, []string{c.hand0, c.hand1, "y7 y8 y9"}, c.flip, "")
			tb.expect(want{0, DecideTurn, play(t, "W+4")}, want{0, DecideColor, ColorMove(Green)},
				want{1, DecideRespond, challenge})
			tb.step()
			checkState(t, tb, "after the take-back", 1, 1, c.refColor, c.flip, 7, 3, 3)
			if g.Hand(0).Count(WildCard(WildDrawFour)) != 1 || g.DiscardSize() != 1 {
				t.Errorf("hand %v, discard %d: want the Wild Draw Four back in the hand", g.Hand(0), g.DiscardSize())
			}
			checkCounts(t, tb, "take-back", map[Counter]int{CountChallenge: 1, CountChallengeWon: 1, CountBluff: 1})
			tb.expect(want{1, DecideTurn, c.good})
			tb.step()
			offered := tb.offered(1, DecideTurn)
			if !slices.Contains(offered, c.good) || slices.Contains(offered, c.bad) {
				t.Errorf("challenger offered %v: want %s against the restored top, not %s", offered, c.good, c.bad)
			}
			if g.Top() != c.good.Card() || g.Current() != 2 {
				t.Errorf("top %s current %d after the challenger's turn", g.Top(), g.Current())
			}
			tb.done()
		})
	}
}

// ---------------------------------------------------------------------------
// Section 4: the last card.

func TestScenarioClassicLastCard(t *testing.T) {
	for _, c := range []struct {
		name   string
		hand0  string
		pile   string
		sizes  []int
		score  int
		counts map[Counter]int
	}{
		{"final draw two: the draw is carried out", "r+2", "g3 g4", []int{0, 3, 1}, 1 + 3 + 4 + 2, map[Counter]int{CountDrawTwo: 1, CountTurnLost: 0}},
		{"final wild draw four: drawn, no challenge", "W+4", "g3 g4 g5 g6", []int{0, 5, 1}, 1 + 3 + 4 + 5 + 6 + 2, map[Counter]int{CountWildDrawFour: 1, CountChallenge: 0, CountTurnLost: 0}},
		{"final skip: void", "rS", "g3", []int{0, 1, 1}, 1 + 2, map[Counter]int{CountTurnLost: 0}},
		{"final wild: no color named", "W", "g3", []int{0, 1, 1}, 1 + 2, map[Counter]int{CountWild: 1, CountTurnLost: 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1")
			g := tb.g
			tb.dealAs(2, []string{c.hand0, "b1", "y2"}, "r5", c.pile)
			tb.step()
			if !g.RoundOver() || g.RoundOutcome() != Finished || g.RoundWinner() != 0 {
				t.Fatalf("over %v outcome %s winner %d", g.RoundOver(), g.RoundOutcome(), g.RoundWinner())
			}
			if !slices.Equal(tb.sizes(), c.sizes) {
				t.Errorf("sizes %v, want %v", tb.sizes(), c.sizes)
			}
			if len(tb.log) != 1 || tb.log[0].d != DecideTurn {
				t.Errorf("decisions asked after the last card: %+v", tb.log)
			}
			checkCounts(t, tb, c.name, c.counts)
			if g.EndRound() {
				t.Errorf("a single game goes on")
			}
			if r := g.Result(); r.Winner != 0 || r.Scores[0] != c.score {
				t.Errorf("winner %d score %d, want seat 0 with %d", r.Winner, r.Scores[0], c.score)
			}
		})
	}
}

func TestScenarioClassicNoFinishOnAction(t *testing.T) {
	hands := func(h0 string) []string { return []string{h0, "b1", "y2"} }
	t.Run("a single action must draw; the drawn card may be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "no-finish-on-action=true")
		g := tb.g
		tb.dealAs(2, hands("rS"), "r5", "r7")
		tb.expect(want{0, DecideDrawn, play(t, "r7")})
		tb.step()
		if askedCount(tb, 0, DecideTurn) != 0 {
			t.Errorf("offered %v, want only a draw", tb.offered(0, DecideTurn))
		}
		if g.RoundOver() || !slices.Equal(tb.handOf(0), cards(t, "rS")) {
			t.Errorf("over %v hand %v", g.RoundOver(), tb.handOf(0))
		}
		checkState(t, tb, "after", 1, 1, Red, "r7", 1, 1, 1)
		checkCounts(t, tb, "no-finish", map[Counter]int{CountVoluntaryDraw: 0, CountPlayDrawn: 1})
		tb.done()
	})
	t.Run("a drawn action may be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "no-finish-on-action=true")
		tb.dealAs(2, hands("rS"), "r5", "r+2")
		tb.expect(want{0, DecideDrawn, play(t, "r+2")})
		tb.step()
		checkState(t, tb, "after", 2, 1, Red, "r+2", 1, 3, 1)
		tb.done()
	})
	for _, last := range []string{"W", "W+4", "rR", "r+2"} {
		t.Run("a single "+last+" must draw", func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "no-finish-on-action=true")
			tb.dealAs(2, hands(last), "r5", "g7")
			tb.step()
			checkState(t, tb, "after", 1, 1, Red, "r5", 2, 1, 1)
		})
	}
	t.Run("a number may be the last card", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "no-finish-on-action=true")
		tb.dealAs(2, hands("r3"), "r5", "")
		tb.step()
		if !tb.g.RoundOver() || tb.g.RoundWinner() != 0 {
			t.Errorf("a last number card did not win")
		}
	})
	t.Run("two actions: one may be played", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=2", "no-finish-on-action=true")
		tb.dealAs(2, []string{"rS rR", "b1 b2", "y1 y2"}, "r5", "")
		tb.expect(want{0, DecideTurn, play(t, "rS")})
		tb.step()
		checkState(t, tb, "after", 2, 1, Red, "rS", 1, 2, 2)
		tb.done()
	})
	t.Run("without the option a single action wins", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1")
		tb.dealAs(2, hands("rS"), "r5", "r7")
		tb.step()
		if !tb.g.RoundOver() || tb.g.RoundWinner() != 0 {
			t.Errorf("a last Skip did not win")
		}
	})
}

// ---------------------------------------------------------------------------
// Section 5: the UNO call.

func TestScenarioClassicUNO(t *testing.T) {
	type tc struct {
		name    string
		sets    []string
		call    bool
		catch1  bool
		catch2  bool
		size0   int
		penalty int // CountUnoPenalty
	}
	for _, c := range []tc{
		{"called: no penalty", nil, true, false, false, 1, 0},
		{"not called, caught by one", nil, false, false, true, 3, 1},
		{"not called, caught by both: penalty once", nil, false, true, true, 3, 1},
		{"not called, caught, penalty 4", []string{"uno-penalty=4"}, false, true, false, 5, 1},
		{"not called, caught, penalty 0", []string{"uno-penalty=0"}, false, true, false, 1, 1},
		{"not called, nobody catches", nil, false, false, false, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, append([]string{"hand-size=2"}, c.sets...)...)
			g := tb.g
			tb.dealAs(2, []string{"r1 r2", "g1 g2", "y1 y2"}, "r5", "b1 b3 b4 b6")
			dec := func(b bool, yes Move) Move {
				if b {
					return yes
				}
				return pass
			}
			tb.expect(want{0, DecideTurn, play(t, "r2")}, want{0, DecideCallUNO, dec(c.call, callUNO)})
			if !c.call {
				tb.expect(want{1, DecideCatch, dec(c.catch1, catchUNO)}, want{2, DecideCatch, dec(c.catch2, catchUNO)})
			}
			tb.step()
			checkState(t, tb, "after the play", 1, 1, Red, "r2", c.size0, 2, 2)
			if got, w := tb.offered(0, DecideCallUNO), clMoves(callUNO, pass); !slices.Equal(got, w) {
				t.Errorf("call offered %v, want %v", got, w)
			}
			wantAsked := 1
			if c.call {
				wantAsked = 0
			}
			for _, s := range []int{1, 2} {
				if n := askedCount(tb, s, DecideCatch); n != wantAsked {
					t.Errorf("seat %d asked to catch %d times, want %d", s, n, wantAsked)
				}
			}
			if askedCount(tb, 0, DecideCatch) != 0 {
				t.Errorf("the player with one card was asked to catch itself")
			}
			if !c.call {
				if got, w := tb.offered(1, DecideCatch), clMoves(catchUNO, pass); !slices.Equal(got, w) {
					t.Errorf("catch offered %v, want %v", got, w)
				}
			}
			if g.CalledUNO(0) != c.call {
				t.Errorf("called UNO %v, want %v", g.CalledUNO(0), c.call)
			}
			missed := 1
			if c.call {
				missed = 0
			}
			checkCounts(t, tb, c.name, map[Counter]int{CountUnoCall: 1 - missed, CountUnoMissed: missed, CountUnoPenalty: c.penalty})
			// After the check the player can no longer be caught for that card.
			tb.step()
			tb.step()
			if n := askedCount(tb, 1, DecideCatch) + askedCount(tb, 2, DecideCatch); n != 2*wantAsked {
				t.Errorf("catch asked %d times in all, want %d", n, 2*wantAsked)
			}
			tb.done()
		})
	}
}

// RULES.md section 5, decisions: "Catchers are asked in turn order from the
// player after the one who did not call." After a Reverse the turn order is
// counter-clockwise, so the catchers of seat 3 are asked 2, 1, 0 (and seat
// 0, the only one to catch, is the catcher).
func TestScenarioClassicCatchTurnOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		flip  string
		first int   // the player who misses the call
		order []int // the catchers, in the order asked
	}{
		{"clockwise", "r5", 0, []int{1, 2, 3}},
		{"counter-clockwise", "rR", 3, []int{2, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 4, "hand-size=2")
			hands := []string{"b1 b2", "y1 y2", "g3 g4", "b3 g1"}
			hands[c.first] = "r6 g1"
			if c.first == 0 {
				hands[3] = "b3 b4"
			}
			tb.deal(hands, c.flip, "b8 b9")
			tb.expect(want{c.first, DecideTurn, play(t, "r6")}, want{c.first, DecideCallUNO, pass})
			last := c.order[len(c.order)-1]
			for _, q := range c.order {
				m := pass
				if q == last {
					m = catchUNO
				}
				tb.expect(want{q, DecideCatch, m})
			}
			tb.step()
			var asked []int
			for _, a := range tb.log {
				if a.d == DecideCatch {
					asked = append(asked, a.seat)
				}
			}
			if !slices.Equal(asked, c.order) {
				t.Fatalf("catchers asked in the order %v, want %v (turn order)", asked, c.order)
			}
			tb.done()
			if e := vEvents(tb, EvCatch); len(e) != 1 || e[0].Other != last || e[0].Player != c.first {
				t.Errorf("catch events %v, want seat %d catching seat %d", e, last, c.first)
			}
			if got := tb.g.Hand(c.first).Size(); got != 3 {
				t.Errorf("the caught player holds %d cards, want 1 + 2", got)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Section 6: scoring.

func TestScenarioClassicScoringSingle(t *testing.T) {
	for _, c := range []struct {
		h1, h2 string
		score  int
	}{
		{"W", "b+2", 70},
		{"W+4", "bS", 70},
		{"bR", "b9", 29},
		{"b0", "g0", 0},
	} {
		t.Run(c.h1+" "+c.h2, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1")
			g := tb.g
			var rounds []RoundResult
			g.OnRound(func(rr *RoundResult) { rounds = append(rounds, *rr) })
			tb.dealAs(2, []string{"r1", c.h1, c.h2}, "r5", "")
			tb.step()
			if g.EndRound() {
				t.Fatalf("a single game goes on")
			}
			r := g.Result()
			if r.Outcome != Finished || r.Winner != 0 || r.Winners != 1 || !r.Won(0) || r.Won(1) || r.Scores[0] != c.score || r.Scores[1] != 0 || r.Rounds != 1 {
				t.Errorf("result %s winner %d winners %b scores %v rounds %d, want seat 0 with %d", r.Outcome, r.Winner, r.Winners, r.Scores[:3], r.Rounds, c.score)
			}
			if len(rounds) != 1 || rounds[0].Winner != 0 || rounds[0].Left[0] != 0 || rounds[0].Left[1]+rounds[0].Left[2] != c.score {
				t.Errorf("round results %+v", rounds)
			}
		})
	}
}

func TestScenarioClassicWinnerTakes(t *testing.T) {
	tb := newTable(t, Classic, 3, "hand-size=1", "scoring=winner-takes", "target=120")
	g := tb.g
	// Round 1: dealer 2, seat 0 goes out: 50 + 9.
	tb.dealAs(2, []string{"r1", "W", "b9"}, "r5", "")
	tb.step()
	if !g.EndRound() {
		t.Fatalf("the match ended at %v", g.Result().Scores[:3])
	}
	if s := g.Result().Scores; s[0] != 59 || s[1] != 0 || s[2] != 0 {
		t.Fatalf("scores %v after round 1, want [59 0 0]", s[:3])
	}
	// Round 2: the deal passes left to seat 0; seat 1 starts and goes out: 100.
	tb.dealAs(0, []string{"W", "g2", "W"}, "g5", "")
	if g.Current() != 1 {
		t.Fatalf("round 2: seat %d starts, want 1", g.Current())
	}
	tb.step()
	if !g.EndRound() {
		t.Fatalf("the match ended at %v", g.Result().Scores[:3])
	}
	if s := g.Result().Scores; s[0] != 59 || s[1] != 100 || s[2] != 0 {
		t.Fatalf("scores %v after round 2, want [59 100 0]", s[:3])
	}
	// Round 3: dealer 1, seat 2 starts, draws; seat 0 goes out: 50 + 9 + 7
	// takes it to 125, at least the target.
	tb.dealAs(1, []string{"y1", "W", "b9"}, "y5", "g7")
	if g.Current() != 2 {
		t.Fatalf("round 3: seat %d starts, want 2", g.Current())
	}
	tb.step()
	tb.step()
	if !g.RoundOver() || g.RoundWinner() != 0 {
		t.Fatalf("round 3: over %v winner %d", g.RoundOver(), g.RoundWinner())
	}
	if g.EndRound() {
		t.Fatalf("the match goes on at %v", g.Result().Scores[:3])
	}
	r := g.Result()
	if r.Outcome != Finished || r.Winner != 0 || r.Winners != 1 || r.Rounds != 3 || r.Scores[0] != 125 || r.Scores[1] != 100 || r.Scores[2] != 0 {
		t.Errorf("result %s winner %d winners %b rounds %d scores %v, want seat 0 with [125 100 0] after 3 rounds",
			r.Outcome, r.Winner, r.Winners, r.Rounds, r.Scores[:3])
	}
}

func TestScenarioClassicLosersAccumulate(t *testing.T) {
	for _, c := range []struct {
		name    string
		outcome string
		target  int
		h2      string // seat 2's card in round 2
		scores  []int
		winners uint32
		winner  int
	}{
		{"lowest wins", "lowest-wins", 30, "r3", []int{50, 9, 12}, 1 << 1, 1},
		{"lowest wins, tie shares the win", "lowest-wins", 30, "r0", []int{50, 9, 9}, 1<<1 | 1<<2, -1},
		{"highest loses", "highest-loses", 30, "r3", []int{50, 9, 12}, 1<<1 | 1<<2, -1},
		{"highest loses, at the target loses", "highest-loses", 12, "r3", []int{50, 9, 12}, 1 << 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=1", "scoring=losers-accumulate", "losers-outcome="+c.outcome, "target="+strconv.Itoa(c.target))
			g := tb.g
			// Round 1: seat 0 goes out and adds 0; the others add their cards.
			tb.dealAs(2, []string{"r1", "b9", "y9"}, "r5", "")
			tb.step()
			if !g.EndRound() {
				t.Fatalf("the match ended at %v", g.Result().Scores[:3])
			}
			if s := g.Result().Scores; !slices.Equal(s[:3], []int{0, 9, 9}) {
				t.Fatalf("scores %v after round 1, want [0 9 9]", s[:3])
			}
			// Round 2: dealer 0, seat 1 goes out.
			tb.dealAs(0, []string{"W", "g2", c.h2}, "g5", "")
			tb.step()
			if g.EndRound() {
				t.Fatalf("the match goes on at %v", g.Result().Scores[:3])
			}
			r := g.Result()
			if !slices.Equal(r.Scores[:3], c.scores) || r.Winners != c.winners || r.Winner != c.winner || r.Outcome != Finished || r.Rounds != 2 {
				t.Errorf("scores %v winners %b winner %d outcome %s rounds %d; want %v, %b, %d",
					r.Scores[:3], r.Winners, r.Winner, r.Outcome, r.Rounds, c.scores, c.winners, c.winner)
			}
		})
	}
}

func TestScenarioClassicPlayForPlaces(t *testing.T) {
	t.Run("places", func(t *testing.T) {
		tb := newTable(t, Classic, 4, "hand-size=1", "play-for-places=true")
		g := tb.g
		tb.dealAs(3, []string{"rS", "W", "y3", "b7"}, "r5", "g4")
		tb.step() // seat 0 goes out with a Skip: void
		if g.RoundOver() {
			t.Fatalf("the round ended when the first player went out")
		}
		checkState(t, tb, "after seat 0", 1, 1, Red, "rS", 0, 1, 1, 1)
		checkCounts(t, tb, "last skip", map[Counter]int{CountTurnLost: 0})
		tb.expect(want{1, DecideColor, ColorMove(Blue)})
		tb.step() // seat 1 goes out with a wild: the others play on, so it names a color
		checkState(t, tb, "after seat 1", 2, 1, Blue, "W", 0, 0, 1, 1)
		tb.step() // seat 2 draws g4
		checkState(t, tb, "after seat 2", 3, 1, Blue, "W", 0, 0, 2, 1)
		tb.step() // seat 3 goes out; seat 2 is left
		if !g.RoundOver() || g.RoundOutcome() != Finished || g.RoundWinner() != 0 {
			t.Fatalf("over %v outcome %s winner %d", g.RoundOver(), g.RoundOutcome(), g.RoundWinner())
		}
		if g.EndRound() {
			t.Fatalf("a single game goes on")
		}
		r := g.Result()
		if !slices.Equal(r.Places[:5], []int8{0, 1, 3, 2, -1}) || r.Winner != 0 || r.Winners != 1 {
			t.Errorf("places %v winner %d winners %b, want places [0 1 3 2] won by seat 0", r.Places[:5], r.Winner, r.Winners)
		}
		tb.done()
	})
	t.Run("a last reverse is void", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "play-for-places=true")
		tb.dealAs(2, []string{"rR", "b1", "y2"}, "r5", "")
		tb.step()
		checkState(t, tb, "after", 1, 1, Red, "rR", 0, 1, 1)
		checkCounts(t, tb, "last reverse", map[Counter]int{CountReverse: 0})
	})
	t.Run("a last draw two: the draw only", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "play-for-places=true")
		tb.dealAs(2, []string{"r+2", "b1", "y2"}, "r5", "g3 g4")
		tb.step()
		// Only the draw is carried out; losing the turn is another effect, void.
		checkState(t, tb, "after", 1, 1, Red, "r+2", 0, 3, 1)
		if len(tb.log) != 1 || tb.log[0].d != DecideTurn {
			t.Errorf("decisions asked: %+v", tb.log)
		}
	})
	// RULES.md section 6, decisions: "the two-player rules apply once two
	// players are left", two-player-reverse included.
	for _, c := range []struct {
		rev string
		cur int
	}{{"skip", 1}, {"none", 2}} {
		t.Run("two left: a reverse with two-player-reverse="+c.rev, func(t *testing.T) {
			tb := newTable(t, Classic, 3, "hand-size=2", "play-for-places=true", "two-player-reverse="+c.rev)
			g := tb.g
			tb.dealAs(2, []string{"r1 r2", "rR b5", "y3 y4"}, "r5", "g7 g8")
			tb.expect(want{0, DecideTurn, play(t, "r1")}, want{1, DecideTurn, draw})
			tb.step() // seat 0 plays r1
			tb.step() // seat 1 draws g7
			tb.step() // seat 2 draws g8
			tb.step() // seat 0 goes out with r2
			if !g.Out(0) || g.RoundOver() {
				t.Fatalf("seat 0 out %v, over %v", g.Out(0), g.RoundOver())
			}
			tb.expect(want{1, DecideTurn, play(t, "rR")})
			tb.step()
			tb.done()
			checkState(t, tb, "after the reverse", c.cur, -1, Red, "rR", 0, 2, 3)
			checkCounts(t, tb, "", map[Counter]int{CountReverse: 1, CountTurnLost: b2i(c.rev == "skip")})
		})
	}
	t.Run("the out player is passed over; two left play as two players", func(t *testing.T) {
		tb := newTable(t, Classic, 3, "hand-size=1", "play-for-places=true")
		g := tb.g
		tb.dealAs(2, []string{"r1", "g7", "y3"}, "r5", "rS")
		tb.step() // seat 0 goes out
		tb.expect(want{1, DecideDrawn, play(t, "rS")}, want{1, DecideCallUNO, pass}, want{2, DecideCatch, pass})
		tb.step() // seat 1 draws the red Skip and plays it: seat 2 is skipped
		checkState(t, tb, "after the Skip", 1, 1, Red, "rS", 0, 1, 1)
		if g.RoundOver() || askedCount(tb, 0, DecideCatch) != 0 || askedCount(tb, 2, DecideCatch) != 1 {
			t.Errorf("over %v; catch asked of the out seat %d times, of seat 2 %d times", g.RoundOver(), askedCount(tb, 0, DecideCatch), askedCount(tb, 2, DecideCatch))
		}
		tb.done()
	})
}

// ---------------------------------------------------------------------------
// Options: validation and errors.

func TestScenarioClassicOptionErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		sets    []string
		want    []string // substrings of the Validate error; nil: valid
	}{
		{"stack-mixed without stack-draw-two", 3, []string{"stack-mixed=true", "stack-draw-four=true"}, []string{"stack-mixed", "stack-draw-two"}},
		{"stack-mixed without stack-draw-four", 3, []string{"stack-mixed=true", "stack-draw-two=true"}, []string{"stack-mixed", "stack-draw-four"}},
		{"stack-draw-two with deflect-draw-two", 3, []string{"stack-draw-two=true", "deflect-draw-two=true"}, []string{"stack-draw-two", "deflect-draw-two"}},
		{"stack-draw-four with deflect-draw-four", 3, []string{"stack-draw-four=true", "deflect-draw-four=true"}, []string{"stack-draw-four", "deflect-draw-four"}},
		{"play-for-places with winner-takes", 3, []string{"play-for-places=true", "scoring=winner-takes"}, []string{"play-for-places", "winner-takes"}},
		{"play-for-places with losers-accumulate", 3, []string{"play-for-places=true", "scoring=losers-accumulate"}, []string{"play-for-places", "losers-accumulate"}},
		{"1 player", 1, nil, []string{"players", "2", "10"}},
		{"11 players", 11, nil, []string{"players", "2", "10"}},
		{"deck too small for the hands", 3, []string{"deck=red-1=21"}, []string{"deck", "hand-size"}},
		{"deck just large enough", 3, []string{"deck=red-1=22"}, nil},
		{"stack-mixed with both stacks", 3, []string{"stack-mixed=true", "stack-draw-two=true", "stack-draw-four=true"}, nil},
		{"play-for-places in single", 3, []string{"play-for-places=true"}, nil},
		{"2 players", 2, nil, nil},
		{"10 players", 10, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := testOptions(t, Classic, c.sets...)
			err := o.Validate(c.players)
			if c.want == nil {
				if err != nil {
					t.Errorf("valid options refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("options %v with %d players accepted", c.sets, c.players)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			ss := make([]Strategy, c.players)
			for i := range ss {
				ss[i] = scriptSeat{}
			}
			if _, err := NewGame(o, ss); err == nil {
				t.Errorf("NewGame accepted the options")
			}
		})
	}
	for _, c := range []struct {
		name, value string
		want        []string // substrings of the Set error; nil: accepted
	}{
		{"no-such-option", "1", []string{"no-such-option", "hand-size", "wd4-legal", "max-turns", "challenge-penalty"}},
		{"dealer", "north", []string{"north", "rotate", "random", "high-card"}},
		{"first-player", "right", []string{"left-of-dealer", "dealer"}},
		{"start-card", "x", []string{"official", "flip-until-number"}},
		{"draw", "two", []string{"one", "until-playable"}},
		{"two-player-reverse", "x", []string{"skip", "none"}},
		{"wd4-legal", "x", []string{"no-color-match", "no-color-match-or-wild", "no-playable"}},
		{"scoring", "x", []string{"single", "winner-takes", "losers-accumulate"}},
		{"losers-outcome", "x", []string{"lowest-wins", "highest-loses"}},
		{"forced-play", "yes", []string{"true", "false"}},
		{"must-play-drawn", "1", []string{"true", "false"}},
		{"guilty-takes-back", "x", []string{"true", "false"}},
		{"no-finish-on-action", "x", []string{"true", "false"}},
		{"play-for-places", "x", []string{"true", "false"}},
		{"hand-size", "0", []string{"hand-size", "1"}},
		{"target", "0", []string{"target"}},
		{"max-turns", "0", []string{"max-turns"}},
		{"challenge-penalty", "-1", []string{"challenge-penalty", "0"}},
		{"uno-penalty", "-1", []string{"uno-penalty", "0"}},
		{"challenge-penalty", "0", nil},
		{"uno-penalty", "0", nil},
		{"deck", "classic,blank=4", []string{"blank"}},
		{"deck", "red-11=2", []string{"red-11"}},
		{"deck", "red-1=-1", []string{"red-1"}},
		{"deck", "red-1=x", []string{"red-1"}},
		{"deck", "red-1=3,classic", []string{"classic", "first"}},
		{"deck", "red-1=3,red-2=2,blue-5=4", nil},
		{"deck", "classic,wild-swap-hands=4", nil},
	} {
		o := DefaultOptions(Classic)
		err := o.Set(c.name, c.value)
		if c.want == nil {
			if err != nil {
				t.Errorf("Set(%s, %s): %v", c.name, c.value, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Set(%s, %s) accepted", c.name, c.value)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Set(%s, %s): error %q does not mention %q", c.name, c.value, err, w)
			}
		}
	}
	o := DefaultOptions(Classic)
	if err := o.Set("deck", "red-1=3,red-2=2,blue-5=4"); err != nil || o.Deck.Size() != 9 ||
		o.Deck[card(t, "r1")] != 3 || o.Deck[card(t, "r2")] != 2 || o.Deck[card(t, "b5")] != 4 {
		t.Errorf("deck red-1=3,red-2=2,blue-5=4 read as %v (%v)", o.Deck.String(), err)
	}
}
