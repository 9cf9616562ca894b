package engine

import (
	"errors"
	"fmt"
)

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

const maxMoves = 256

// Game is one table: options, a strategy per seat, and the state of the
// current round. It is allocated once and reused for any number of games;
// Play and the stepping methods allocate nothing. A Game is not safe for
// concurrent use: give each worker its own.
type Game struct {
	opts       Options
	n          int
	strategies [MaxPlayers]Strategy
	speed      [MaxPlayers]float64
	// ring[1][p] is the seat after p clockwise, ring[0][p] counterclockwise:
	// a table, because the wrap-around branches of p+dir mispredict.
	ring    [2][MaxPlayers]uint8
	views   [MaxPlayers]View
	log     func(Event)
	onRound func(*RoundResult)
	stacked []Card // test hook: the next round's deck order instead of a shuffle

	seed, index, key      uint64
	dealRng, reshuffleRng Rand
	dealerRng, tableRng   Rand
	seatRng               [MaxPlayers]Rand
	deckCards             [MaxDeck]Card
	deckSize              int
	res                   Result
	rr                    RoundResult
	round                 int

	// Round state.
	hands      [MaxPlayers]Hand
	drawPile   [MaxDeck]Card // the top is drawPile[drawN-1]
	drawN      int
	reshuffled bool             // the reshuffle stream is seeded
	discard    [NumCards]uint16 // the discard pile, top card included
	discardN   int
	top        Card
	color      Color
	dir        int
	dealer     int
	current    int
	turns      int
	idle       int // consecutive turns in which nothing was drawn or played
	motion     int // cards drawn or played this round
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

	// Decision context, for views.
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
	moves      [maxMoves]Move
	plays      uint64 // the kinds the Play moves of a turn or pile-up offer

	// Whether the options allow any answer to a pending Draw Two, so that
	// classic games skip the question.
	d2Responses bool
}

// NewGame builds a table for len(strategies) players. It validates the
// options for that many players.
func NewGame(opts Options, strategies []Strategy) (*Game, error) {
	if err := opts.Validate(len(strategies)); err != nil {
		return nil, err
	}
	g := &Game{opts: opts, n: len(strategies)}
	g.d2Responses = opts.StackDrawTwo || opts.DeflectDrawTwo || opts.StackMixed
	for i, s := range strategies {
		if s == nil {
			return nil, fmt.Errorf("seat %d has no strategy", i)
		}
		g.strategies[i] = s
		g.speed[i] = 1
		if r, ok := s.(Reactor); ok {
			g.speed[i] = r.ReactionSpeed()
		}
		g.views[i] = View{g: g, seat: i}
	}
	for p := range g.n {
		g.ring[1][p] = uint8((p + 1) % g.n)
		g.ring[0][p] = uint8((p + g.n - 1) % g.n)
	}
	for k, c := range opts.Deck {
		for range c {
			g.deckCards[g.deckSize] = Card(k)
			g.deckSize++
		}
	}
	return g, nil
}

// Options returns the game's options.
func (g *Game) Options() *Options { return &g.opts }

// Players is the number of seats.
func (g *Game) Players() int { return g.n }

// SetLog makes the game report every event to f (nil: none). Logging is for
// people and tests; it is not on the hot path.
func (g *Game) SetLog(f func(Event)) { g.log = f }

// OnRound makes the game report every round's result to f (nil: none). The
// pointer is valid only during the call.
func (g *Game) OnRound(f func(*RoundResult)) { g.onRound = f }

// StackDeck makes the next round deal from order (first element dealt
// first) instead of a shuffle; it must hold exactly the deck's cards. For
// scenario tests.
func (g *Game) StackDeck(order []Card) error {
	var d Deck
	for _, c := range order {
		if !c.Valid() {
			return fmt.Errorf("stacked deck: invalid card %d", c)
		}
		d[c]++
	}
	if d != g.opts.Deck {
		return errors.New("stacked deck: the cards differ from the deck's")
	}
	g.stacked = order
	return nil
}

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

// Reset starts game index of the run keyed by seed: it seeds every stream
// and clears the match.
func (g *Game) Reset(seed, index uint64) {
	g.seed, g.index, g.key = seed, index, gameKey(seed, index)
	g.tableRng.seedFrom(g.key, PurposeTable)
	for i := 0; i < g.n; i++ {
		g.seatRng[i].seedFrom(g.key, PurposeSeat+Purpose(i))
	}
	g.res = Result{Winner: -1, FirstToAct: -1}
	for i := range g.res.Places {
		g.res.Places[i] = -1
	}
	g.round = 0
}

func (g *Game) emit(e Event) {
	if g.log != nil {
		g.log(e)
	}
}

func (g *Game) count(c Counter) { g.res.Count[c]++ }

// StartRound deals a round and turns the first discard (RULES.md section 2).
func (g *Game) StartRound() {
	r := uint64(g.round)
	g.dealRng.seedFrom(g.key, PurposeDeal+Purpose(r))
	g.reshuffled = false

	for p := range g.n {
		g.hands[p] = Hand{}
	}
	g.discard = [NumCards]uint16{}
	g.discardN = 0
	g.unoCalled = [MaxPlayers]bool{}
	g.out = [MaxPlayers]bool{}
	g.active = g.n
	for i := range g.places {
		g.places[i] = -1
	}
	g.nPlaced = 0
	g.dir = 1
	g.turns, g.idle, g.motion = 0, 0, 0
	g.over, g.outcome, g.winner = false, Finished, -1
	g.revealTo = -1
	if g.nSilenced != 0 {
		g.silenced = [MaxPlayers]bool{}
		g.nSilenced = 0
	}
	g.linkA, g.linkB = -1, -1
	if g.miniN != 0 { // cards left on a mini-pile by a player who went out on it
		g.mini = [NumCards]uint16{}
		g.miniN = 0
	}
	if g.pointed {
		g.pointedAt = [MaxPlayers]int{}
		g.pointed = false
	}

	if g.opts.Dealer != DealerRotate {
		g.dealerRng.seedFrom(g.key, PurposeDealer+Purpose(r))
	}
	switch {
	case g.opts.Dealer == DealerRandom:
		g.dealer = g.dealerRng.IntN(g.n)
	case g.round > 0:
		g.dealer = (g.dealer + 1) % g.n
	case g.opts.Dealer == DealerHighCard:
		g.dealer = g.highCard()
	default:
		g.dealer = g.n - 1
	}
	g.emit(Event{Kind: EvRound, Player: g.dealer, N: g.round})

	if g.stacked != nil {
		for i, c := range g.stacked {
			g.drawPile[len(g.stacked)-1-i] = c
		}
		g.drawN = len(g.stacked)
		g.stacked = nil
	} else {
		g.drawN = copy(g.drawPile[:], g.deckCards[:g.deckSize])
		g.dealRng.ShuffleCards(g.drawPile[:g.drawN])
	}
	for range g.opts.HandSize {
		p := g.dealer
		for range g.n {
			p = int(g.ring[1][p])
			g.hands[p].Add(g.pop())
		}
	}
	for p := 0; p < g.n; p++ {
		g.emit(Event{Kind: EvDeal, Player: p, N: g.opts.HandSize})
	}
	g.startCard()
}

// highCard chooses the first dealer (RULES.md section 2): everyone takes a
// card, the highest number deals (actions and wilds count as zero), and the
// tied take again until one is highest or the cards run out, in which case
// the dealer is drawn at random among the tied.
func (g *Game) highCard() int {
	g.drawN = copy(g.drawPile[:], g.deckCards[:g.deckSize])
	g.dealerRng.ShuffleCards(g.drawPile[:g.drawN])
	var tied [MaxPlayers]int
	nTied := g.n
	for i := range nTied {
		tied[i] = i
	}
	for nTied > 1 && g.drawN >= nTied {
		best, nBest := -1, 0
		for i := range nTied {
			g.drawN--
			v := 0
			if c := g.drawPile[g.drawN]; c.IsNumber() {
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
		return tied[g.dealerRng.IntN(nTied)]
	}
	return tied[0]
}

// pop takes the top card off the non-empty draw pile.
func (g *Game) pop() Card {
	g.drawN--
	return g.drawPile[g.drawN]
}

// flip moves the top of the draw pile onto the discard pile.
func (g *Game) flip() Card {
	c := g.pop()
	g.pushDiscard(c)
	if !c.IsWild() {
		g.color = c.Color()
	}
	g.emit(Event{Kind: EvStartCard, Card: c})
	return c
}

func (g *Game) pushDiscard(c Card) {
	g.discard[c]++
	g.discardN++
	g.top = c
}

// startCard turns the first discard and applies its effect (RULES.md
// section 2) to P, the player who would start.
func (g *Game) startCard() {
	p := (g.dealer + 1) % g.n
	if g.opts.FirstPlayer == DealerStarts {
		p = g.dealer
	}
	g.current = p
	wd4 := WildCard(WildDrawFour)
	c := g.flip()
	ignore := false
	if g.opts.StartCard == StartOfficial {
		// A Wild Draw Four goes back and the draw pile is reshuffled, unless
		// nothing else could ever be flipped.
		for c == wd4 {
			if g.drawN == 0 || g.drawOnly(wd4) {
				ignore = true
				break
			}
			g.discard[c]--
			g.discardN--
			g.drawPile[g.drawN] = c
			g.drawN++
			g.dealRng.ShuffleCards(g.drawPile[:g.drawN])
			c = g.flip()
		}
	} else {
		for !c.IsNumber() {
			if g.drawN == 0 {
				ignore = true
				break
			}
			c = g.flip()
		}
	}
	if c.IsWild() {
		g.color = g.askColor(p)
	}
	if ignore {
		return
	}
	switch c.Symbol() {
	case DrawTwo:
		g.give(p, 2)
		g.skip(p)
		g.current = g.nextOf(p)
	case Skip:
		g.skip(p)
		g.current = g.nextOf(p)
	case Reverse:
		g.dir = -1
		g.emit(Event{Kind: EvReverse, N: g.dir})
		g.current = g.nextOf(p)
	case PointTaken:
		g.pointTaken(p)
	}
}

// drawOnly reports whether every card of the draw pile is of kind k.
func (g *Game) drawOnly(k Card) bool {
	for _, c := range g.drawPile[:g.drawN] {
		if c != k {
			return false
		}
	}
	return true
}

// nextOf is the player after p in the current direction, passing over
// players who are out.
func (g *Game) nextOf(p int) int {
	if g.active == g.n {
		return int(g.ring[(g.dir+1)>>1&1][p&(MaxPlayers-1)])
	}
	for {
		p += g.dir
		if p == g.n {
			p = 0
		} else if p < 0 {
			p = g.n - 1
		}
		if !g.out[p] {
			return p
		}
	}
}

// ask puts a decision to seat p's strategy. A decision with one legal move
// is taken without asking.
func (g *Game) ask(p int, d Decision, moves []Move) Move {
	if len(moves) == 1 {
		return moves[0]
	}
	g.decision = d
	i := g.strategies[p].Decide(&g.views[p], moves)
	if i < 0 || i >= len(moves) {
		panic(fmt.Sprintf("engine: strategy of seat %d returned move %d of %d for decision %s", p, i, len(moves), d))
	}
	return moves[i]
}

func (g *Game) askColor(p int) Color {
	ms := g.moves[:0]
	for c := Red; c < NoColor; c++ {
		ms = append(ms, ColorMove(c))
	}
	col := g.ask(p, DecideColor, ms).Color()
	g.emit(Event{Kind: EvColor, Player: p, Color: col})
	return col
}
