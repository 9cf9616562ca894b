package engine

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// setup is what a game's positions share and never change: the options,
// the seats, the deck and each seat's reaction speed. Copies of a State
// point at the same table.
type setup struct {
	id    uint64 // unique to the table (View.TableID)
	opts  Options
	n     int
	speed [MaxPlayers]float64
	// ring[1][p] is the seat after p clockwise, ring[0][p] counterclockwise:
	// a table, because the wrap-around branches of p+dir mispredict.
	ring      [2][MaxPlayers]uint8
	deckCards [MaxDeck]Card
	deckSize  int
	// Whether the options allow any answer to a pending Draw Two, so that
	// classic games skip the question.
	d2Responses bool
	// Whether hands can change owners (swaps and rotations).
	exchanges bool
}

// tables numbers the tables made (setup.id).
var tables atomic.Uint64

func newSetup(opts Options, players int) (*setup, error) {
	if err := opts.Validate(players); err != nil {
		return nil, err
	}
	t := &setup{id: tables.Add(1), opts: opts, n: players}
	t.d2Responses = opts.StackDrawTwo || opts.DeflectDrawTwo || opts.StackMixed
	t.exchanges = opts.SevenZero || opts.Deck[WildCard(WildSwapHands)] > 0
	for p := range players {
		t.speed[p] = 1
		t.ring[1][p] = uint8((p + 1) % players)
		t.ring[0][p] = uint8((p + players - 1) % players)
	}
	for k, c := range opts.Deck {
		for range c {
			t.deckCards[t.deckSize] = Card(k)
			t.deckSize++
		}
	}
	return t, nil
}

// State is a game position: everything about one game in progress, held by
// value. Every pending effect (a stack in progress, a challenge window, a
// UNO check, a Wild Pile Up, a Point Taken's blind choices) is data in the
// State, so a position can be stopped at any decision, copied and continued
// along different moves. A copy made with = or CopyFrom shares nothing
// mutable with the original: only the immutable options and seats, and the
// log of the Game that plays it (see Game), which a copy never writes to.
//
// A State is driven either by a Game, which asks a Strategy per seat (the
// fast path for simulation), or by hand: Start, then Pending, Moves and
// Apply until Over. Both give the same game for the same seed.
type State struct {
	head
	hands    [MaxPlayers]Hand
	drawPile [MaxDeck]Card
}

// head is the State but for its two big arrays, so that CopyFrom copies
// only the parts of those in use.
type head struct {
	t    *setup
	sink *Game // the Game whose log and observers hear this position's events
	// sinkKinds are the kinds of event sink hears (bit k for kind k; 0
	// without a sink): the others are not even built.
	sinkKinds uint64
	// drv is the Game that plays this position with its strategies, asked
	// at once at a turn, a drawn card and a play's color instead of stopping there (nil
	// when the position is driven by hand, and in copies).
	drv *Game

	seed, index, key      uint64
	dealRng, reshuffleRng Rand
	dealerRng, tableRng   Rand
	seatRng               [MaxPlayers]Rand
	res                   Result
	rr                    RoundResult
	round                 int
	finished              bool // the game is over (after Start or Apply)

	// Round state.
	drawN      int              // the top of the draw pile is drawPile[drawN-1]
	reshuffled bool             // the reshuffle stream is seeded
	discard    [NumCards]uint16 // the discard pile, top card included
	discardN   int
	top        Card
	color      Color
	dir        int
	dealer     int
	current    int
	turns      int
	// The turn in progress for the Game's public readers (PublicEvent.Turn):
	// its player (-1 before the round's first), the color when it began,
	// and whether (1) that player has drawn or put a card down since.
	turnP      int
	turnColor  Color
	turnActed  uint8
	idle       int // consecutive turns in which nothing was drawn or played
	motion     int // cards drawn or played this round
	stepMotion int // motion when the current step began
	over       bool
	outcome    Outcome
	winner     int
	unoCalled  [MaxPlayers]bool
	out        [MaxPlayers]bool
	active     int
	places     [MaxPlayers]int8
	nPlaced    int

	// House rules and variants.
	silenced  [MaxPlayers]bool
	nSilenced int
	linkA     int // the linked pair, or -1
	linkB     int
	mini      [NumCards]uint16 // the Wild Pile Up mini-pile
	miniN     int
	miniColor Color
	pointedAt [MaxPlayers]int // the last Point Taken's result
	pointed   bool            // a Point Taken was played this round

	// The pending decision and the context its moves and views need.
	seat       int
	decision   Decision
	drawn      Card // the card just drawn, for DecideDrawn
	pendingSym Symbol
	pendingN   int
	pendingBy  int
	refColor   Color
	refTop     Card // the card below the pending Wild Draw Four
	targetFor  Card // the card a DecideTarget choice is for
	unoPlayer  int
	revealTo   int
	revealed   Hand
	plays      uint64 // the kinds the Play moves of a turn or pile-up offer

	// The control state of the rules in progress (see machine.go).
	basePh basePhase
	mid    midLevel
	pl     playCtx
	ef     effectCtx
	uno    unoCtx
	jw     jumpCtx
}

// NewState makes a position for players seats under opts, every seat with
// reaction speed 1. Start begins a game on it.
func NewState(opts Options, players int) (*State, error) {
	t, err := newSetup(opts, players)
	if err != nil {
		return nil, err
	}
	s := &State{}
	s.t = t
	return s, nil
}

// CopyFrom makes s an independent copy of o, copying only the hands and
// draw pile cards in use. The copy reports no events to o's Game.
func (s *State) CopyFrom(o *State) {
	s.head = o.head
	s.sink, s.sinkKinds, s.drv = nil, 0, nil
	copy(s.hands[:o.t.n], o.hands[:o.t.n])
	copy(s.drawPile[:o.drawN], o.drawPile[:o.drawN])
}

// Options are the game's options.
func (s *State) Options() Options { return s.t.opts }

// Players is the number of seats.
func (s *State) Players() int { return s.t.n }

// Start begins game index of the run keyed by seed and plays up to the
// first decision that has more than one legal move (or to the end).
func (s *State) Start(seed, index uint64) {
	s.sink, s.sinkKinds, s.drv = nil, 0, nil
	s.Reset(seed, index)
	s.advance(s.startRound(nil))
}

// Reset starts game index of the run keyed by seed: it seeds every stream
// and clears the match.
func (s *State) Reset(seed, index uint64) {
	s.seed, s.index, s.key = seed, index, gameKey(seed, index)
	s.tableRng.seedFrom(s.key, PurposeTable)
	for i := 0; i < s.t.n; i++ {
		s.seatRng[i].seedFrom(s.key, PurposeSeat+Purpose(i))
	}
	s.res = Result{Winner: -1, FirstToAct: -1}
	for i := range s.res.Places {
		s.res.Places[i] = -1
	}
	s.round = 0
	s.finished = false
}

func (s *State) emit(e Event) {
	if s.hears(e.Kind) {
		s.sink.event(s, e)
	}
}

// hears reports whether the position's Game hears events of kind k.
func (s *State) hears(k EventKind) bool { return s.sinkKinds>>(k&63)&1 != 0 }

func (s *State) count(c Counter) { s.res.Count[c]++ }

// startRound deals a round (from order when it is not nil) and turns the
// first discard (RULES.md section 2). It reports whether it finished
// without a pending decision.
func (s *State) startRound(order []Card) bool {
	t := s.t
	r := uint64(s.round)
	s.dealRng.seedFrom(s.key, PurposeDeal+Purpose(r))
	s.reshuffled = false

	for p := range t.n {
		s.hands[p] = Hand{}
	}
	s.discard = [NumCards]uint16{}
	s.discardN = 0
	s.unoCalled = [MaxPlayers]bool{}
	s.out = [MaxPlayers]bool{}
	s.active = t.n
	for i := range s.places {
		s.places[i] = -1
	}
	s.nPlaced = 0
	s.dir = 1
	s.turns, s.idle, s.motion = 0, 0, 0
	s.turnP, s.turnColor = -1, NoColor
	s.over, s.outcome, s.winner = false, Finished, -1
	s.revealTo = -1
	s.basePh, s.mid = phNone, midNone
	if s.nSilenced != 0 {
		s.silenced = [MaxPlayers]bool{}
		s.nSilenced = 0
	}
	s.linkA, s.linkB = -1, -1
	if s.miniN != 0 { // cards left on a mini-pile by a player who went out on it
		s.mini = [NumCards]uint16{}
		s.miniN = 0
	}
	if s.pointed {
		s.pointedAt = [MaxPlayers]int{}
		s.pointed = false
	}

	if t.opts.Dealer != DealerRotate {
		s.dealerRng.seedFrom(s.key, PurposeDealer+Purpose(r))
	}
	switch {
	case t.opts.Dealer == DealerRandom:
		s.dealer = s.dealerRng.IntN(t.n)
	case s.round > 0:
		s.dealer = (s.dealer + 1) % t.n
	case t.opts.Dealer == DealerHighCard:
		s.dealer = s.highCard()
	default:
		s.dealer = t.n - 1
	}
	s.emit(Event{Kind: EvRound, Player: s.dealer, N: s.round})

	if order != nil {
		for i, c := range order {
			s.drawPile[len(order)-1-i] = c
		}
		s.drawN = len(order)
	} else {
		s.drawN = copy(s.drawPile[:], t.deckCards[:t.deckSize])
		s.dealRng.ShuffleCards(s.drawPile[:s.drawN])
	}
	for range t.opts.HandSize {
		p := s.dealer
		for range t.n {
			p = int(t.ring[1][p])
			s.hands[p].Add(s.pop())
		}
	}
	for p := 0; p < t.n; p++ {
		s.emit(Event{Kind: EvDeal, Player: p, N: t.opts.HandSize})
	}
	return s.startCard()
}

// highCard chooses the first dealer (RULES.md section 2): everyone takes a
// card, the highest number deals (actions and wilds count as zero), and the
// tied take again until one is highest or the cards run out, in which case
// the dealer is drawn at random among the tied.
func (s *State) highCard() int {
	s.drawN = copy(s.drawPile[:], s.t.deckCards[:s.t.deckSize])
	s.dealerRng.ShuffleCards(s.drawPile[:s.drawN])
	var tied [MaxPlayers]int
	nTied := s.t.n
	for i := range nTied {
		tied[i] = i
	}
	for nTied > 1 && s.drawN >= nTied {
		best, nBest := -1, 0
		for i := range nTied {
			s.drawN--
			v := 0
			if c := s.drawPile[s.drawN]; c.IsNumber() {
				v = int(c.Symbol())
			}
			switch {
			case v > best:
				best, nBest = v, 0
				tied[nBest] = tied[i]
				nBest++
			case v == best:
				tied[nBest] = tied[i]
				nBest++
			}
		}
		nTied = nBest
	}
	if nTied > 1 {
		return tied[s.dealerRng.IntN(nTied)]
	}
	return tied[0]
}

// pop takes the top card off the non-empty draw pile.
func (s *State) pop() Card {
	s.drawN--
	return s.drawPile[s.drawN]
}

// flip moves the top of the draw pile onto the discard pile.
func (s *State) flip() Card {
	c := s.pop()
	s.pushDiscard(c)
	s.color = c.Color() // NoColor for a wild until a color is named, not the last round's color
	s.emit(Event{Kind: EvStartCard, Card: c})
	return c
}

func (s *State) pushDiscard(c Card) {
	s.discard[c]++
	s.discardN++
	s.top = c
}

// startCard turns the first discard and applies its effect (RULES.md
// section 2) to P, the player who would start. It reports whether it
// finished without a pending decision.
func (s *State) startCard() bool {
	p := (s.dealer + 1) % s.t.n
	if s.t.opts.FirstPlayer == DealerStarts {
		p = s.dealer
	}
	s.current = p
	wd4 := WildCard(WildDrawFour)
	c := s.flip()
	ignore := false
	if s.t.opts.StartCard == StartOfficial {
		// A Wild Draw Four goes back and the draw pile is reshuffled, unless
		// nothing else could ever be flipped.
		for c == wd4 {
			if s.drawN == 0 || s.drawOnly(wd4) {
				ignore = true
				break
			}
			s.discard[c]--
			s.discardN--
			s.drawPile[s.drawN] = c
			s.drawN++
			s.dealRng.ShuffleCards(s.drawPile[:s.drawN])
			c = s.flip()
		}
	} else {
		for !c.IsNumber() {
			if s.drawN == 0 {
				ignore = true
				break
			}
			c = s.flip()
		}
	}
	if c.IsWild() {
		// P names the color; a wild start card has no other effect.
		s.basePh = phStart
		s.suspend(p, DecideColor)
		return false
	}
	if ignore {
		return true
	}
	switch c.Symbol() {
	case DrawTwo:
		s.give(p, 2)
		s.skip(p)
		s.current = s.nextOf(p)
	case Skip:
		s.skip(p)
		s.current = s.nextOf(p)
	case Reverse:
		s.dir = -1
		s.emit(Event{Kind: EvReverse, N: s.dir})
		s.current = s.nextOf(p)
	case PointTaken:
		if !s.pointTaken(p, -1) {
			s.basePh = phStart
			return false
		}
	}
	return true
}

// drawOnly reports whether every card of the draw pile is of kind k.
func (s *State) drawOnly(k Card) bool {
	for _, c := range s.drawPile[:s.drawN] {
		if c != k {
			return false
		}
	}
	return true
}

// nextOf is the player after p in the current direction, passing over
// players who are out.
func (s *State) nextOf(p int) int {
	if s.active == s.t.n {
		return int(s.t.ring[(s.dir+1)>>1&1][p&(MaxPlayers-1)])
	}
	return s.nextActive(p)
}

// nextActive is nextOf when someone is out.
func (s *State) nextActive(p int) int {
	for {
		p += s.dir
		if p == s.t.n {
			p = 0
		} else if p < 0 {
			p = s.t.n - 1
		}
		if !s.out[p] {
			return p
		}
	}
}

// checkStacked validates a stacked deck order for the options.
func checkStacked(order []Card, deck *Deck) error {
	var d Deck
	for _, c := range order {
		if !c.Valid() {
			return fmt.Errorf("stacked deck: invalid card %d", c)
		}
		d[c]++
	}
	if d != *deck {
		return errors.New("stacked deck: the cards differ from the deck's")
	}
	return nil
}
