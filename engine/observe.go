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

// PublicLogger is implemented by observing strategies that read some kinds
// of event from their table's public log (View.Public) when they need
// them, instead of being called with each: PublicEvents has bit k set for
// each kind k to log. A Game logs an event once for the whole table, where
// Observe costs a call per event and seat. EvDrawCard, which only the
// drawer sees, is never logged.
type PublicLogger interface {
	PublicEvents() uint64
}

// Logged is an event of a Game's public log, with what every seat saw of
// the table just after it happened (when an Observer would have been told).
//
// Turn is the turn the event happened in: the player whose turn began last
// (EvTurn, logged or not), or -1 before the round's first turn and before
// the first since the Game began playing its position; TurnColor the color
// when it began (NoColor with Turn -1). First says the event is that player's first draw or card
// put down of the turn (the first of EvDraw, EvPlay, EvStack, EvDeflect and
// EvJumpIn, logged or not, with Turn's player): a strategy that reads the
// draws need not log the turns.
type Logged struct {
	Event
	Next      int // the player after Event.Player in turn order, or -1 if Player is no seat
	Turn      int
	Now       Color // the current color
	TurnColor Color
	First     bool
}

// turnActs are the events by which the turn's player acts (Logged.First).
const turnActs = 1<<EvDraw | 1<<EvPlay | 1<<EvStack | 1<<EvDeflect | 1<<EvJumpIn

// Public is the public log of the viewer's game: the events of the kinds
// in kinds since the game began (or since the Game began playing out its
// position, PlayOut), in order. It is empty, with kinds 0, for the view of
// a State no Game plays, or when no seat's strategy asked for a log. The
// slice is valid until the next event.
func (v *View) Public() (log []Logged, kinds uint64) {
	g := v.game()
	if g == nil {
		return nil, 0
	}
	return g.public, g.logs
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
// digest of the public log. What one puts there, every strategy at the
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
// they are to be told and which to be logged.
func (g *Game) selectEvents() {
	g.logs, g.tells = 0, 0
	for p, o := range g.observers[:g.t.n] {
		g.observes[p] = 0
		if o == nil {
			continue
		}
		g.observes[p] = ^uint64(0)
		if sel := g.selectors[p]; sel != nil {
			g.observes[p] = sel.ObservedEvents()
		}
		if l := g.loggers[p]; l != nil {
			g.logs |= l.PublicEvents() &^ (1 << EvDrawCard)
		}
		g.tells |= g.observes[p]
	}
	if g.logs != 0 && g.public == nil {
		g.public = make([]Logged, 0, 2048) // more than most games log: growing it allocates
	}
	g.listen()
}

// RoundOver reports whether the current round has ended: between the
// rounds of a match, and from a game's end to the next game's deal. An
// observer begun then (Begin) is told the next deal before it is asked
// anything.
func (v *View) RoundOver() bool { return v.s.over }
