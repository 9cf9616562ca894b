package engine

// Visible is the event e as seat sees it (RULES.md section 10), and whether
// seat sees it at all. Everyone sees every play, every color named, the
// mini-pile's face-up cards, who draws how many, challenges and their
// verdicts, swaps, points and every other event of the log; only the drawer
// sees a drawn card (EvDrawCard). A hand shown in a challenge is seen by the
// challenger alone, through View.Revealed at the EvChallenge event.
func Visible(seat int, e Event) (Event, bool) {
	if e.Kind == EvDrawCard && e.Player != seat {
		return Event{}, false
	}
	return e, true
}

// PublicReader is implemented by a value the strategies at a table share
// (View.Shared) that reads some kinds of event once for the whole table,
// where Observe costs a call per event and seat: PublicKinds has bit k set
// for each kind k it reads, and a Game calls ReadPublic with each event of
// those kinds of its own position, as it happens, before telling any
// observer (a PlayReader's plays may come by ReadPlay instead). BeginPublic
// says a game begins, or the Game begins playing out its position
// (PlayOut): nothing read before belongs to it. A Game calls
// it before its observers' Begin and asks for the kinds after them (the
// answer may depend on the game): a value made during a Begin reads that
// game, one made later (in a decision) from the next game on. EvDrawCard,
// which only the drawer sees, is never read.
type PublicReader interface {
	PublicKinds() uint64
	BeginPublic()
	ReadPublic(e *PublicEvent)
}

// PlayReader is implemented by a PublicReader that can read the plays
// (EvPlay, the most frequent event) by ReadPlay: the player, the card and
// the player after it in turn order (PublicEvent's Player, Card and Next),
// with no PublicEvent made for it. A Game gives it its plays that way where
// it is the only reader at its table and no observer or log is told the
// plays; else by ReadPublic, as to any reader.
type PlayReader interface {
	ReadPlay(player int, k Card, next int)
}

// PublicEvent is an event as a PublicReader reads it, with what every seat
// saw of the table just after it happened (when an Observer would have been
// told). It is valid only during the call.
//
// Turn is the turn the event happened in: the player whose turn began last
// (EvTurn, read or not), or -1 before the round's first turn and before
// the first since the Game began playing its position; TurnColor the color
// when it began (NoColor with Turn -1). First says the event is that
// player's first draw or card put down of the turn (the first of EvDraw,
// EvPlay, EvStack, EvDeflect and EvJumpIn, read or not, with Turn's
// player): a reader of the draws need not read the turns.
type PublicEvent struct {
	Event
	Next      int // the player after Event.Player in turn order, or -1 if Player is no seat
	Turn      int
	Now       Color // the current color
	TurnColor Color
	First     bool
}

// turnActs are the events by which the turn's player acts (PublicEvent.First).
const turnActs = 1<<EvDraw | 1<<EvPlay | 1<<EvStack | 1<<EvDeflect | 1<<EvJumpIn

// publicReader is a PublicReader of a Game and the kinds it reads.
type publicReader struct {
	r     PublicReader
	kinds uint64
}

// game is the Game that plays the viewer's position, or nil (a copy keeps
// the sink of the position it was made from with =).
func (v *View) game() *Game {
	if g := v.s.sink; g != nil && &g.State == v.s {
		return g
	}
	return nil
}

// Observed reports whether a Game plays the viewer's position with its
// strategies, telling its observers the events: false for a position
// driven by hand, such as a search's copy.
func (v *View) Observed() bool { return v.game() != nil }

// Shared is the value the viewer's Game keeps under key for the strategies
// at its table, made by calling make the first time any of them asks for
// key (which must be comparable): observing strategies at one table may so
// do once for every seat the work on what every seat sees, such as a
// digest of the public events (PublicReader). What one puts there, every strategy at the
// table may read: it is no place for what a seat alone knows. The value
// lives as long as the Game, across games. Shared is nil for the view of a
// State no Game plays.
func (v *View) Shared(key any, make func() any) any {
	g := v.game()
	if g == nil {
		return nil
	}
	for _, sv := range g.shared {
		if sv.key == key {
			return sv.val
		}
	}
	val := make()
	g.shared = append(g.shared, sharedValue{key, val})
	return val
}

// selectEvents asks the observing strategies (again after each Begin:
// what they need may depend on the game's options) which kinds of event
// they are to be told, and the shared values that read public events which
// kinds they read.
func (g *Game) selectEvents() {
	g.tells = 0
	for p, o := range g.observers[:g.t.n] {
		g.observes[p] = 0
		if o == nil {
			continue
		}
		g.observes[p] = ^uint64(0)
		if sel := g.selectors[p]; sel != nil {
			g.observes[p] = sel.ObservedEvents()
		}
		g.tells |= g.observes[p]
	}
	g.reads, g.readers, g.plays = 0, g.readers[:0], nil
	for _, sv := range g.shared {
		if r, ok := sv.val.(PublicReader); ok {
			if kinds := r.PublicKinds() &^ (1 << EvDrawCard); kinds != 0 {
				g.readers = append(g.readers, publicReader{r, kinds}) // (grows once for a Game)
				g.reads |= kinds
			}
		}
	}
	if len(g.readers) == 1 && g.reads>>EvPlay&1 != 0 {
		g.plays, _ = g.readers[0].r.(PlayReader)
	}
	g.listen()
}

// RoundOver reports whether the current round has ended: between the
// rounds of a match, and from a game's end to the next game's deal. An
// observer begun then (Begin) is told the next deal before it is asked
// anything.
func (v *View) RoundOver() bool { return v.s.over }
