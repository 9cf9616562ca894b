package engine

import (
	"fmt"
	"testing"
)

// publicRecorder reads kinds in public and keeps what it read in a game.
type publicRecorder struct {
	kinds uint64
	got   []PublicEvent
	begun int // BeginPublic calls
}

func (r *publicRecorder) PublicKinds() uint64       { return r.kinds }
func (r *publicRecorder) BeginPublic()              { r.got, r.begun = r.got[:0], r.begun+1 }
func (r *publicRecorder) ReadPublic(e *PublicEvent) { r.got = append(r.got, *e) }

// playRecorder is a publicRecorder that reads the plays by ReadPlay, as
// a PublicEvent of the fields ReadPlay has.
type playRecorder struct {
	publicRecorder
}

func (r *playRecorder) ReadPlay(p int, k Card, next int) {
	r.got = append(r.got, PublicEvent{Event: Event{Kind: EvPlay, Player: p, Card: k}, Next: next})
}

// reading plays uniformly, is told nothing, and shares its table's
// publicRecorder of kinds: a playRecorder if byPlay, and with second a
// publicRecorder of the same kinds besides.
type reading struct {
	uniform
	kinds          uint64
	byPlay, second bool
	rec, rec2      *publicRecorder
}

func (l *reading) Begin(v *View) {
	if l.byPlay {
		l.rec = &v.Shared("playRecorder", func() any { return &playRecorder{publicRecorder{kinds: l.kinds}} }).(*playRecorder).publicRecorder
	} else {
		l.rec = v.Shared("publicRecorder", func() any { return &publicRecorder{kinds: l.kinds} }).(*publicRecorder)
	}
	if l.second {
		l.rec2 = v.Shared("second", func() any { return &publicRecorder{kinds: l.kinds} }).(*publicRecorder)
	}
}
func (*reading) Observe(*View, Event)   {}
func (*reading) ObservedEvents() uint64 { return 0 }

// A PublicReader reads the events of its kinds in order, once for the
// table, each with the turn worked out here from the full event log: the
// player and color of the last EvTurn since the round began (-1 before),
// and whether the event is that player's first draw or card put down in
// it, read or not. The full log comes from a first play of each game with
// SetLog; the reader's events from a second without it (a Game that hears
// only what its readers and observers ask for), begun afresh
// (BeginPublic) at each. A PlayReader alone at its table reads the plays
// by ReadPlay, in the same order among the other events; with another
// reader at the table both read every event by ReadPublic.
func TestPublicReaderReadsTheEventLog(t *testing.T) {
	type mode struct{ byPlay, second bool }
	for _, r := range []RuleSet{Classic, Party, Encanto} {
		// (The last: events with every field of an Event in use, Other, N
		// and Color.)
		// (short: all but 10 cards of the deck dealt, so that the piles run
		// dry and draws fall short, N2 below N.)
		for _, tc := range []struct {
			kinds uint64
			mode
			short bool
		}{{1 << EvDraw, mode{}, false}, {1 << EvDraw, mode{}, true}, {turnActs | 1<<EvColor | 1<<EvSkip, mode{}, false},
			{turnActs | 1<<EvColor | 1<<EvSkip, mode{byPlay: true}, false}, {turnActs | 1<<EvColor | 1<<EvSkip, mode{byPlay: true, second: true}, false},
			{1<<EvCatch | 1<<EvChallenge | 1<<EvPoint | 1<<EvLink | 1<<EvPileStart | 1<<EvPileTake | 1<<EvDraw, mode{}, false}} {
			kinds := tc.kinds
			o := DefaultOptions(r)
			sets := [][2]string{{"scoring", "winner-takes"}, {"target", "500"}}
			if tc.short {
				deck := 0
				for _, x := range o.Deck {
					deck += x
				}
				sets = append(sets, [2]string{"hand-size", fmt.Sprint((deck - 10) / 4)})
			}
			for _, set := range sets {
				if err := o.Set(set[0], set[1]); err != nil {
					t.Fatal(err)
				}
			}
			l := &reading{kinds: kinds, byPlay: tc.byPlay, second: tc.second}
			g, err := NewGame(o, []Strategy{l, l, l, l})
			if err != nil {
				t.Fatal(err)
			}
			var want []PublicEvent
			turn, color, acted := -1, NoColor, false
			record := func(e Event) {
				switch e.Kind {
				case EvRound:
					turn, color, acted = -1, NoColor, false
				case EvTurn:
					turn, color, acted = e.Player, g.Color(), false
				}
				first := false
				if turnActs>>e.Kind&1 != 0 && e.Player == turn && !acted {
					first, acted = true, true
				}
				if kinds>>e.Kind&1 != 0 {
					next := -1
					if e.Player >= 0 && e.Player < 4 {
						next = g.nextOf(e.Player)
					}
					want = append(want, PublicEvent{Event: e, Now: g.Color(), TurnColor: color, First: first, Next: next, Turn: turn})
				}
			}
			rounds, firsts, plays, short := 0, 0, 0, 0
			for i := range uint64(100) {
				want = want[:0]
				g.SetLog(record)
				g.Play(5, i)
				rounds += g.Result().Rounds
				g.SetLog(nil)
				g.Play(5, i)
				got := l.rec.got
				if len(got) != len(want) {
					t.Fatalf("%s, kinds %b, %+v, game %d: %d events read, want %d", r, kinds, tc.mode, i, len(got), len(want))
				}
				if tc.second && len(l.rec2.got) != len(want) {
					t.Fatalf("%s, kinds %b, the second reader, game %d: %d events read, want %d", r, kinds, i, len(l.rec2.got), len(want))
				}
				for j, w := range want {
					if w.Kind == EvDraw && w.N2 < w.N {
						short++
					}
					if w.Kind == EvPlay {
						plays++
						if tc.byPlay && !tc.second {
							w = PublicEvent{Event: Event{Kind: EvPlay, Player: w.Player, Card: w.Card}, Next: w.Next}
						}
					}
					if got[j] != w {
						t.Fatalf("%s, kinds %b, %+v, game %d, event %d: %s, %s", r, kinds, tc.mode, i, j, publicString(got[j]), publicString(w))
					}
					if tc.second && l.rec2.got[j] != want[j] {
						t.Fatalf("%s, kinds %b, the second reader, game %d, event %d: %s, %s", r, kinds, i, j, publicString(l.rec2.got[j]), publicString(want[j]))
					}
					if want[j].First {
						firsts++
					}
				}
			}
			// Made at the first game's Begin, begun at each of the 199 games after.
			if l.rec.begun != 199 || tc.second && l.rec2.begun != 199 {
				t.Fatalf("%s: the reader was begun %d times in 200 games", r, l.rec.begun)
			}
			if rounds <= 100 || firsts == 0 || kinds>>EvPlay&1 != 0 && plays < 1000 || tc.short && short == 0 {
				t.Fatalf("%s: %d rounds in 100 games, %d first acts, %d plays, %d short draws: the test covers too little", r, rounds, firsts, plays, short)
			}
		}
	}
}

func publicString(e PublicEvent) string {
	return fmt.Sprintf("%s (%+v) now %s next %d turn %d of color %s, first %v", e.Event, e.Event, e.Now, e.Next, e.Turn, e.TurnColor, e.First)
}

// View.Shared keeps one value per key for a Game's table, whichever seat
// asks, and none for a position no Game plays.
func TestSharedIsOnePerTableAndKey(t *testing.T) {
	l := &reading{kinds: 1 << EvPlay}
	g, err := NewGame(DefaultOptions(Classic), []Strategy{l, l, l})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	newValue := func() any { made++; return new(int) }
	type key struct{ x float64 }
	a := g.views[0].Shared(key{1}, newValue)
	if b := g.views[2].Shared(key{1}, newValue); a != b || made != 1 {
		t.Fatalf("seats 0 and 2 got %p and %p for one key, %d made", a, b, made)
	}
	if c := g.views[1].Shared(key{2}, newValue); c == a || made != 2 {
		t.Fatalf("another key got the first key's value (%d made)", made)
	}
	g2, err := NewGame(DefaultOptions(Classic), []Strategy{l, l, l})
	if err != nil {
		t.Fatal(err)
	}
	if d := g2.views[0].Shared(key{1}, newValue); d == a {
		t.Fatal("another Game's table got the first table's value")
	}
	var s State
	s.CopyFrom(&g.State)
	if v := s.View(0); v.Shared(key{1}, newValue) != nil || v.Observed() {
		t.Fatal("a copy no Game plays has a shared value, or is observed")
	}
	c := g.State // a copy with =, which keeps the Game's sink
	if v := c.View(0); v.Shared(key{1}, newValue) != nil || v.Observed() {
		t.Fatal("a copy made with = has its Game's shared value, or is observed")
	}
	if v := g.views[0]; !v.Observed() {
		t.Fatal("the Game's own view is not observed")
	}
}

// A wild start card leaves no color current until the first player names
// one, and the position is whole then (Check), its view showing none.
func TestWildStartCardNamesNoColor(t *testing.T) {
	s, err := NewState(DefaultOptions(Classic), 3)
	if err != nil {
		t.Fatal(err)
	}
	for game := range uint64(500) {
		s.Start(1, game)
		if _, d := s.Pending(); d != DecideColor || s.Turns() != 0 {
			continue
		}
		if s.Color() != NoColor || !s.Top().IsWild() {
			t.Fatalf("game %d: color %s named over the start card %s before anyone named one", game, s.Color(), s.Top())
		}
		if err := s.Check(); err != nil {
			t.Fatalf("game %d: %v", game, err)
		}
		return
	}
	t.Fatal("no wild start card in 500 games")
}
