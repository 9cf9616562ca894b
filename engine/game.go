package engine

import "fmt"

// Strategy makes every decision of one seat (RULES.md section 10). Decide
// is given a read-only view of what the seat may see and the legal moves,
// and returns the index of its choice. It must not retain v or moves, and
// it must draw any randomness from v.Rand() so that games are reproducible.
type Strategy interface {
	Decide(v *View, moves []Move) int
}

// Reactor is implemented by strategies with a reaction speed: when several
// players want to jump in at once, one is chosen with probability
// proportional to its speed (RULES.md section 7). Strategies without it
// have speed 1.
type Reactor interface {
	ReactionSpeed() float64
}

// UNOCaller is implemented by strategies that may declare that they always
// call UNO, never consuming randomness to decide it: a Game then takes that
// answer without asking, which changes no game.
type UNOCaller interface {
	AlwaysCallsUNO() bool
}

// TurnChooser is implemented by strategies that choose a turn's move from
// the view alone: ChooseTurn returns a Play of a kind in v.Plays() or
// Draw, exactly the move Decide would choose at that turn, drawing the
// same random numbers. A Game then asks ChooseTurn and lists no moves
// (listing them cost about a tenth of a classic game); a position driven
// by hand still asks Decide.
type TurnChooser interface {
	ChooseTurn(v *View) Move
}

// DrawnPlayer is implemented by strategies that may declare that they play
// every playable card they draw, except an illegal Wild Draw Four, which
// they keep, never consuming randomness to decide it: a Game then takes
// that answer without asking, which changes no game.
type DrawnPlayer interface {
	PlaysDrawn() bool
}

// Observer is implemented by strategies that keep what their seat has seen
// between decisions (a card counter). Begin is called when a game starts,
// and when a Game plays out a position it was given (PlayOut): the
// strategy then starts afresh from what v shows. Observe is called with
// every event the seat may see (see Visible), as it happens; v is valid
// only during the call.
type Observer interface {
	Begin(v *View)
	Observe(v *View, e Event)
}

// EventSelector is implemented by observing strategies that need only
// some kinds of event: ObservedEvents has bit k set for each EventKind k
// they want, and a Game calls Observe for those only (the feed costs a
// call per event and seat). A Game asks again after every Begin (and
// PublicReader's PublicKinds too): the answer may depend on the game.
type EventSelector interface {
	ObservedEvents() uint64
}

// Game is one table: a State and a Strategy per seat that plays it. It is
// allocated once and reused for any number of games; Play and the stepping
// methods allocate nothing. A Game is not safe for concurrent use: give
// each worker its own.
//
// The Game's State can also be set to any position (CopyFrom, or a View's
// Determinize) and played out with the Game's strategies (PlayOut): that is
// how a search strategy runs its playouts.
type Game struct {
	State
	strategies [MaxPlayers]Strategy
	observers  [MaxPlayers]Observer
	observes   [MaxPlayers]uint64 // the event kinds each observer is told (0: no observer)
	selectors  [MaxPlayers]EventSelector
	observing  bool
	callsUNO   [MaxPlayers]bool // the seat's strategy always calls UNO
	playsDrawn [MaxPlayers]bool // the seat's strategy always plays a drawn card it may play
	choosers   [MaxPlayers]TurnChooser
	views      [MaxPlayers]View
	moves      [maxMoves]Move
	log        func(Event)
	onRound    func(*RoundResult)
	stacked    []Card // test hook: the next round's deck order instead of a shuffle
	err        error

	tells   uint64 // the kinds told to some observer
	hears   uint64 // the kinds told to some observer or the log (tell)
	reads   uint64 // the kinds read by some PublicReader
	readers []publicReader
	plays   PlayReader  // the one reader, where it reads the plays by ReadPlay
	read    PublicEvent // the event being read
	shared  []sharedValue
}

// sharedValue is a value of View.Shared.
type sharedValue struct{ key, val any }

// NewGame builds a table for len(strategies) players. It validates the
// options for that many players.
func NewGame(opts Options, strategies []Strategy) (*Game, error) {
	t, err := newSetup(opts, len(strategies))
	if err != nil {
		return nil, err
	}
	g := &Game{}
	for i, s := range strategies {
		if s == nil {
			return nil, fmt.Errorf("seat %d has no strategy", i)
		}
		g.strategies[i] = s
		if r, ok := s.(Reactor); ok {
			t.speed[i] = r.ReactionSpeed()
		}
		if c, ok := s.(UNOCaller); ok {
			g.callsUNO[i] = c.AlwaysCallsUNO()
		}
		if d, ok := s.(DrawnPlayer); ok {
			g.playsDrawn[i] = d.PlaysDrawn()
		}
		if c, ok := s.(TurnChooser); ok {
			g.choosers[i] = c
		}
		if o, ok := s.(Observer); ok {
			g.observers[i] = o
			g.observing = true
			g.selectors[i], _ = s.(EventSelector)
		}
		g.views[i] = View{s: &g.State, seat: i}
	}
	g.t = t
	g.selectEvents()
	return g, nil
}

// SetLog makes the game report every event to f (nil: none). Logging is for
// people and tests; it is not on the hot path.
func (g *Game) SetLog(f func(Event)) {
	g.log = f
	g.listen()
}

// listen connects the State's events to the log and the observers: every
// kind for a log, else the kinds read in public or told.
func (g *Game) listen() {
	g.sink, g.sinkKinds, g.hears = nil, 0, g.tells
	if g.log != nil || g.observing {
		g.sink = g
		g.sinkKinds = g.reads | g.tells
		if g.reads != 0 {
			g.sinkKinds |= turnActs // for PublicEvent.First
		}
	}
	if g.log != nil {
		g.sinkKinds, g.hears = ^uint64(0), ^uint64(0)
	}
}

// OnRound makes the game report every round's result to f (nil: none). The
// pointer is valid only during the call.
func (g *Game) OnRound(f func(*RoundResult)) { g.onRound = f }

// StackDeck makes the next round deal from order (first element dealt
// first) instead of a shuffle; it must hold exactly the deck's cards. For
// scenario tests.
func (g *Game) StackDeck(order []Card) error {
	if err := checkStacked(order, &g.t.opts.Deck); err != nil {
		return err
	}
	g.stacked = order
	return nil
}

// Err reports a strategy's fault in the last game: a move index out of
// range. The game was played on with the first move.
func (g *Game) Err() error { return g.err }

// Play plays game index of the run keyed by seed: one round, or a match of
// rounds, and returns its result, valid until the next call.
func (g *Game) Play(seed, index uint64) *Result {
	g.Reset(seed, index)
	for {
		g.StartRound()
		for !g.over {
			g.Step()
		}
		if !g.EndRound() {
			return &g.res
		}
	}
}

// Reset starts game index of the run keyed by seed: it seeds every stream,
// clears the match and tells observing strategies that a game begins.
func (g *Game) Reset(seed, index uint64) {
	g.State.Reset(seed, index)
	g.err = nil
	g.drv = g
	g.listen()
	g.begin()
}

func (g *Game) begin() {
	if !g.observing {
		return
	}
	for _, sv := range g.shared {
		if r, ok := sv.val.(PublicReader); ok {
			r.BeginPublic()
		}
	}
	g.turnP, g.turnColor = -1, NoColor // the readers know no turn before the first it plays
	for p, o := range g.observers[:g.t.n] {
		if o != nil {
			o.Begin(&g.views[p])
		}
	}
	g.selectEvents()
}

// StartRound deals a round and turns the first discard (RULES.md section
// 2), with the decisions that asks for.
func (g *Game) StartRound() {
	done := g.startRound(g.stacked)
	g.stacked = nil
	for !done {
		done = g.decide()
	}
}

// Step plays one turn: the jump-in window, then the current player's play or
// draw with every effect and response, up to the choice of the next player.
func (g *Game) Step() {
	if g.over {
		return
	}
	done := g.beginTurn()
	for !done {
		done = g.decide()
	}
}

// EndRound scores the finished round (RULES.md section 6), reports it, and
// reports whether the match goes on with another round.
func (g *Game) EndRound() bool {
	goesOn := g.endRound()
	if g.onRound != nil {
		g.onRound(&g.rr)
	}
	if !goesOn {
		g.finished = true
	}
	return goesOn
}

// PlayOut plays the position in g.State to the end of the game with the
// Game's strategies and returns the result. Observing strategies begin
// afresh from what their seats see in that position.
func (g *Game) PlayOut() *Result {
	if g.finished {
		return &g.res
	}
	g.err = nil
	g.drv = g
	g.listen()
	g.begin()
	done := false
	for {
		for !done {
			done = g.decide()
		}
		if !g.over {
			done = g.beginTurn()
			continue
		}
		if !g.EndRound() {
			return &g.res
		}
		done = g.startRound(nil)
	}
}

// askTurn asks seat p's strategy for its turn's move (the decision is
// recorded in the State, for the view).
func (g *Game) askTurn(p int) Move {
	if c := g.choosers[p]; c != nil {
		m := c.ChooseTurn(&g.views[p])
		if !g.turnLegal(m) {
			g.faultMove(p, m)
			m = g.firstTurnMove()
		}
		return m
	}
	moves := g.moves[:g.turnMoves(g.moves[:])]
	i := g.strategies[p].Decide(&g.views[p], moves)
	if uint(i) >= uint(len(moves)) {
		g.fault(p, i, len(moves))
		i = 0
	}
	return moves[i]
}

// decide asks the pending decision's strategy and goes on with its move.
func (g *Game) decide() bool {
	s := &g.State
	if s.decision == DecideTurn {
		return s.turnChosen(g.askTurn(s.seat))
	}
	return s.resume(g.ask())
}

// ask asks the strategy of the pending decision's seat for its move. The
// rules call it at once, instead of stopping, at a drawn card and a play's
// color, with the levels saved, so that a position copied during it (a
// search) is whole.
func (g *Game) ask() Move {
	s := &g.State
	p := s.seat
	moves := s.Moves(g.moves[:0])
	i := g.strategies[p].Decide(&g.views[p], moves)
	if uint(i) >= uint(len(moves)) {
		g.fault(p, i, len(moves))
		i = 0
	}
	return moves[i]
}

// fault records a strategy's move index out of range; the game goes on
// with the first move.
func (g *Game) fault(p, i, n int) {
	if g.err == nil {
		g.err = fmt.Errorf("the strategy of seat %d answered move %d of %d at decision %s of game %d", p, i, n, g.decision, g.index)
	}
}

// faultMove records a strategy's illegal turn move; the game goes on with
// the first move.
func (g *Game) faultMove(p int, m Move) {
	if g.err == nil {
		g.err = fmt.Errorf("the strategy of seat %d chose %s, not a legal move, at decision %s of game %d", p, m, g.decision, g.index)
	}
}

// event reports an event of the Game's own State to the public readers,
// the log and the observing strategies that may see it. Events of copies
// are ignored. (A play and a draw come to played and drew first, which
// pass them on here unless they take their short way.)
func (g *Game) event(s *State, e Event) {
	if s != &g.State {
		return
	}
	// act is 1 if e is an act of the turn's player (PublicEvent.First: its
	// first unless one came before), worked out without branches: which
	// events those are is a coin flip to the processor.
	act := uint8(uint64(turnActs)>>(e.Kind&63)&1) & eq(e.Player, s.turnP)
	bit := uint64(1) << (e.Kind & 63)
	if g.reads&bit != 0 {
		first := act&^s.turnActed != 0
		s.turnActed |= act
		g.readPublic(s, e, first)
	} else {
		s.turnActed |= act // an act not read (PublicEvent.First; with no reader, never read)
	}
	if g.hears&bit != 0 {
		g.tell(e, bit) // (the most frequent events are only read)
	}
}

// readPublic gives e to the readers of its kind by ReadPublic, with first
// (PublicEvent.First).
func (g *Game) readPublic(s *State, e Event, first bool) {
	next := -1
	if p := e.Player; uint(p) < uint(g.t.n) {
		next = s.nextOf(p)
	}
	r := &g.read
	// Field by field: e's fields were saved one by one on the way in,
	// and a wider read of them waits for the saves to complete.
	r.Kind, r.Player, r.Other, r.Card, r.Color, r.N, r.N2 = e.Kind, e.Player, e.Other, e.Card, e.Color, e.N, e.N2
	r.Now, r.Next = s.color, next
	r.Turn, r.TurnColor, r.First = s.turnP, s.turnColor, first
	if len(g.readers) == 1 {
		g.readers[0].r.ReadPublic(r) // (the usual table: its kinds are reads)
		return
	}
	bit := uint64(1) << (e.Kind & 63)
	for i := range g.readers {
		if pr := &g.readers[i]; pr.kinds&bit != 0 {
			pr.r.ReadPublic(r)
		}
	}
}

// played is event for the play of card k by seat p, the most frequent
// event: read by the table's one reader, a PlayReader, and told to no one,
// it is given to the reader by ReadPlay with no Event made for it.
func (g *Game) played(s *State, p int, k Card) {
	if g.plays == nil || g.hears>>EvPlay&1 != 0 || s != &g.State {
		g.event(s, Event{Kind: EvPlay, Player: p, Card: k})
		return
	}
	s.turnActed |= eq(p, s.turnP) // (a play is an act: turnActs)
	next := -1
	if uint(p) < uint(g.t.n) {
		next = s.nextOf(p)
	}
	g.plays.ReadPlay(p, k, next)
}

// drew is event for seat p's draw of got of k cards, the second most
// frequent event: read by the one reader and told to no one, it is written
// into the reading in place (readPublic's work, with no Event made: made
// and passed on, it cost a Party 8p counter game 1k instructions).
func (g *Game) drew(s *State, p, k, got int) {
	if len(g.readers) != 1 || g.reads>>EvDraw&1 == 0 || g.hears>>EvDraw&1 != 0 || s != &g.State {
		g.event(s, Event{Kind: EvDraw, Player: p, N: k, N2: got})
		return
	}
	act := eq(p, s.turnP) // (a draw is an act: turnActs)
	first := act&^s.turnActed != 0
	s.turnActed |= act
	next := -1
	if uint(p) < uint(g.t.n) {
		next = s.nextOf(p)
	}
	r := &g.read
	r.Kind, r.Player, r.Other, r.Card, r.Color, r.N, r.N2 = EvDraw, p, 0, 0, 0, k, got
	r.Now, r.Next = s.color, next
	r.Turn, r.TurnColor, r.First = s.turnP, s.turnColor, first
	g.readers[0].r.ReadPublic(r)
}

// eq is 1 if a equals b, else 0.
func eq(a, b int) uint8 {
	if a == b {
		return 1
	}
	return 0
}

// tell reports e, of kind bit, to the log and the observers that hear it.
func (g *Game) tell(e Event, bit uint64) {
	if g.log != nil {
		g.log(e)
	}
	if g.tells&bit == 0 {
		return
	}
	// Visible's filter, inline: only the drawer sees a drawn card.
	if e.Kind == EvDrawCard {
		if p := e.Player; uint(p) < uint(g.t.n) && g.observes[p]&bit != 0 {
			g.observers[p].Observe(&g.views[p], e)
		}
		return
	}
	for p := range g.observers[:g.t.n] {
		if g.observes[p]&bit != 0 {
			g.observers[p].Observe(&g.views[p], e)
		}
	}
}
