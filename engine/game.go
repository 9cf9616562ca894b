package engine

import (
	"errors"
	"fmt"
	"math/bits"
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
	views      [MaxPlayers]View
	log        func(Event)
	onRound    func(*RoundResult)
	stacked    []Card // test hook: the next round's deck order instead of a shuffle

	seed, index           uint64
	dealRng, reshuffleRng Rand
	dealerRng, tableRng   Rand
	seatRng               [MaxPlayers]Rand
	deckCards             [MaxDeck]Card
	deckSize              int
	res                   Result
	rr                    RoundResult
	round                 int

	// Round state.
	hands     [MaxPlayers]Hand
	drawPile  [MaxDeck]Card // the top is drawPile[drawN-1]
	drawN     int
	discard   [NumCards]uint16 // the discard pile, top card included
	discardN  int
	top       Card
	color     Color
	dir       int
	dealer    int
	current   int
	turns     int
	idle      int // consecutive turns in which nothing was drawn or played
	motion    int // cards drawn or played this round
	over      bool
	outcome   Outcome
	winner    int
	unoCalled [MaxPlayers]bool
	out       [MaxPlayers]bool
	active    int
	places    [MaxPlayers]int8
	nPlaced   int

	// Decision context, for views.
	decision   Decision
	decider    int
	drawn      Card // the card just drawn, for DecideDrawn
	pendingSym Symbol
	pendingN   int
	pendingBy  int
	refColor   Color
	unoPlayer  int
	revealTo   int
	revealed   Hand
	moves      [maxMoves]Move
}

// NewGame builds a table for len(strategies) players. It validates the
// options for that many players.
func NewGame(opts Options, strategies []Strategy) (*Game, error) {
	if err := opts.Validate(len(strategies)); err != nil {
		return nil, err
	}
	g := &Game{opts: opts, n: len(strategies)}
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
	g.seed, g.index = seed, index
	g.tableRng.Seed(seed, index, PurposeTable)
	for i := 0; i < g.n; i++ {
		g.seatRng[i].Seed(seed, index, PurposeSeat+Purpose(i))
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
	g.dealRng.Seed(g.seed, g.index, PurposeDeal+Purpose(r))
	g.reshuffleRng.Seed(g.seed, g.index, PurposeReshuffle+Purpose(r))
	g.dealerRng.Seed(g.seed, g.index, PurposeDealer+Purpose(r))

	g.hands = [MaxPlayers]Hand{}
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
		for i := 1; i <= g.n; i++ {
			p := (g.dealer + i) % g.n
			g.drawN--
			g.hands[p].Add(g.drawPile[g.drawN])
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

// flip moves the top of the draw pile onto the discard pile.
func (g *Game) flip() Card {
	g.drawN--
	c := g.drawPile[g.drawN]
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

func (g *Game) skip(p int) {
	g.count(CountSkip)
	g.emit(Event{Kind: EvSkip, Player: p})
}

// nextOf is the player after p in the current direction, passing over
// players who are out.
func (g *Game) nextOf(p int) int {
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
	g.decision, g.decider = d, p
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

// playable reports whether card k may be put on the discard pile (RULES.md
// section 3): a wild, or a match of the current color or the top's symbol.
func (g *Game) playable(k Card) bool {
	return k.IsWild() || cardColor[k] == g.color || cardSymbol[k] == cardSymbol[g.top]
}

// Step plays one turn: the jump-in window, then the current player's play or
// draw with every effect and response, up to the choice of the next player.
func (g *Game) Step() {
	if g.over {
		return
	}
	p := g.current
	if g.res.FirstToAct < 0 {
		g.res.FirstToAct = p
	}
	g.turns++
	g.res.Turns++
	before := g.motion
	g.emit(Event{Kind: EvTurn, Player: p, N: g.turns})

	m := g.ask(p, DecideTurn, g.turnMoves(p, g.moves[:0]))
	if m.Kind() == MovePlay {
		g.playFromHand(p, m.Card())
	} else {
		if g.hasPlayable(p) {
			g.count(CountVoluntaryDraw)
		}
		g.drawTurn(p)
	}
	if g.over {
		return
	}
	if g.motion == before {
		g.idle++
		if g.idle >= g.active {
			g.endRoundAs(Blocked)
			return
		}
	} else {
		g.idle = 0
	}
	if g.turns >= g.opts.MaxTurns {
		g.endRoundAs(Unfinished)
	}
}

// turnMoves appends the legal moves of p's turn: one Play per playable kind
// (colour matches, then symbol matches, then wilds) and Draw unless
// forced-play requires a play.
func (g *Game) turnMoves(p int, ms []Move) []Move {
	h := &g.hands[p]
	for m := h.present & g.playableKinds(); m != 0; m &= m - 1 {
		ms = append(ms, PlayMove(Card(bits.TrailingZeros64(m))))
	}
	if g.opts.NoFinishOnAction && h.size == 1 && len(ms) == 1 && !ms[0].Card().IsNumber() {
		ms = ms[:0]
	}
	if len(ms) == 0 || !g.opts.ForcedPlay {
		ms = append(ms, SimpleMove(MoveDraw))
	}
	return ms
}

// playableKinds is the set of kinds that may be played now (bit k for kind k).
func (g *Game) playableKinds() uint64 {
	m := colorKinds[g.color] | colorKinds[NoColor]
	if sym := cardSymbol[g.top]; !sym.IsWild() {
		m |= symbolKinds[sym]
	}
	return m
}

func (g *Game) hasPlayable(p int) bool {
	h := &g.hands[p]
	m := h.present & g.playableKinds()
	if g.opts.NoFinishOnAction && h.size == 1 && m&numberKinds == 0 {
		return false
	}
	return m != 0
}

// drawTurn is a turn spent drawing (RULES.md section 3).
func (g *Game) drawTurn(p int) {
	for {
		if g.take(p, 1) == 0 {
			break
		}
		c := g.drawn
		if g.playable(c) {
			if g.offerDrawn(p, c) {
				return
			}
			break
		}
		if g.opts.Draw != DrawUntilPlayable {
			break
		}
	}
	g.current = g.nextOf(p)
}

// offerDrawn lets p play the playable card c just drawn and reports whether
// it was played. With must-play-drawn the choice is forced, except for an
// illegal Wild Draw Four.
func (g *Game) offerDrawn(p int, c Card) bool {
	ms := append(g.moves[:0], PlayMove(c))
	if !g.opts.MustPlayDrawn || (c.Symbol() == WildDrawFour && !g.wd4Legal(p, c)) {
		ms = append(ms, SimpleMove(MoveKeep))
	}
	if g.ask(p, DecideDrawn, ms).Kind() != MovePlay {
		g.emit(Event{Kind: EvKeep, Player: p})
		return false
	}
	g.count(CountPlayDrawn)
	g.playFromHand(p, c)
	return true
}

// wd4Legal reports whether p may play the Wild Draw Four k from the hand
// now (RULES.md section 4): judged on the hand without that card against
// the current (reference) color. Another Wild Draw Four never counts.
func (g *Game) wd4Legal(p int, k Card) bool {
	h := &g.hands[p]
	if h.colors[g.color] != 0 {
		return false
	}
	if g.opts.WD4Legal == NoColorMatch {
		return true
	}
	otherWilds := int(h.colors[NoColor]) - int(h.counts[WildCard(WildDrawFour)])
	if otherWilds > 0 {
		return false
	}
	if g.opts.WD4Legal == NoPlayable {
		if sym := cardSymbol[g.top]; !sym.IsWild() {
			for c := Red; c < NoColor; c++ {
				if h.counts[MakeCard(c, sym)] != 0 {
					return false
				}
			}
		}
	}
	return true
}

// take makes p draw up to k cards, reshuffling the discard pile when the
// draw pile runs out, and returns how many were drawn; the last is g.drawn.
func (g *Game) take(p, k int) int {
	got := 0
	for got < k {
		if g.drawN == 0 && !g.reshuffle() {
			break
		}
		g.drawN--
		c := g.drawPile[g.drawN]
		g.hands[p].Add(c)
		g.drawn = c
		got++
	}
	if got > 0 {
		g.unoCalled[p] = false
		g.motion += got
		g.res.CardsDrawn += got
	}
	g.emit(Event{Kind: EvDraw, Player: p, N: k, N2: got})
	return got
}

// give makes p draw k owed cards; those that cannot be drawn are forgiven.
func (g *Game) give(p, k int) {
	if k <= 0 {
		return
	}
	if got := g.take(p, k); got < k {
		g.res.Count[CountForgiven] += k - got
		g.emit(Event{Kind: EvForgiven, Player: p, N: k - got})
	}
}

// reshuffle turns the discard pile, except its top card, into a new draw
// pile. It reports whether there is anything to draw.
func (g *Game) reshuffle() bool {
	if g.discardN <= 1 {
		return false
	}
	n := 0
	for k := range g.discard {
		c := int(g.discard[k])
		if Card(k) == g.top {
			c--
		}
		for range c {
			g.drawPile[n] = Card(k)
			n++
		}
		g.discard[k] = 0
	}
	g.discard[g.top] = 1
	g.discardN = 1
	g.reshuffleRng.ShuffleCards(g.drawPile[:n])
	g.drawN = n
	g.count(CountReshuffle)
	g.emit(Event{Kind: EvReshuffle, N: n})
	return true
}

// playFromHand puts card k from p's hand down and resolves it (RULES.md
// section 4), leaving g.current at the next player.
func (g *Game) playFromHand(p int, k Card) {
	ref, below := g.color, g.top
	legal := true
	if cardSymbol[k] == WildDrawFour {
		legal = g.wd4Legal(p, k)
	}
	h := &g.hands[p]
	h.Remove(k)
	g.unoCalled[p] = false
	g.pushDiscard(k)
	g.motion++
	g.res.CardsPlayed++
	g.emit(Event{Kind: EvPlay, Player: p, Card: k})
	goingOut := h.size == 0
	if k.IsWild() {
		if !goingOut || g.playsOn() {
			g.color = g.askColor(p)
		}
	} else {
		g.color = cardColor[k]
	}
	if goingOut {
		g.goOut(p, k)
		return
	}
	if h.size == 1 {
		g.unoCheck(p)
	}
	g.effect(p, k, ref, below, legal)
}

// playsOn reports whether the round goes on after a player goes out.
func (g *Game) playsOn() bool { return g.opts.PlayForPlaces && g.active > 2 }

// effect applies card k's effect after p played it (RULES.md section 4).
func (g *Game) effect(p int, k Card, ref Color, below Card, legal bool) {
	next := g.nextOf(p)
	switch cardSymbol[k] {
	case Skip:
		g.skip(next)
		g.current = g.nextOf(next)
	case Reverse:
		g.count(CountReverse)
		g.dir = -g.dir
		g.emit(Event{Kind: EvReverse, N: g.dir})
		if g.active == 2 && g.opts.TwoPlayerReverse == ReverseSkips {
			g.skip(g.nextOf(p))
			g.current = p
		} else {
			g.current = g.nextOf(p)
		}
	case DrawTwo:
		g.count(CountDrawTwo)
		g.give(next, 2)
		g.skip(next)
		g.current = g.nextOf(next)
	case WildDrawFour:
		g.count(CountWildDrawFour)
		if !legal {
			g.count(CountBluff)
		}
		g.wildDrawFour(p, next, ref, below, legal)
	case Wild:
		g.count(CountWild)
		g.current = next
	default:
		g.current = next
	}
}

// wildDrawFour lets the victim accept the draw or challenge (RULES.md section 4).
func (g *Game) wildDrawFour(p, victim int, ref Color, below Card, legal bool) {
	g.pendingSym, g.pendingN, g.pendingBy, g.refColor = WildDrawFour, 4, p, ref
	ms := append(g.moves[:0], SimpleMove(MoveAccept), SimpleMove(MoveChallenge))
	if g.ask(victim, DecideRespond, ms).Kind() != MoveChallenge {
		g.give(victim, 4)
		g.skip(victim)
		g.current = g.nextOf(victim)
		return
	}
	g.count(CountChallenge)
	g.revealTo, g.revealed = victim, g.hands[p]
	g.emit(Event{Kind: EvChallenge, Player: victim, Other: p, N: b2i(!legal)})
	if legal {
		g.give(victim, g.opts.ChallengePenalty)
		g.skip(victim)
		g.current = g.nextOf(victim)
		return
	}
	g.count(CountChallengeWon)
	if g.opts.GuiltyTakesBack {
		k := WildCard(WildDrawFour)
		g.discard[k]--
		g.discardN--
		g.top, g.color = below, ref
		g.hands[p].Add(k)
		g.unoCalled[p] = false
		g.emit(Event{Kind: EvTakeBack, Player: p})
	}
	g.give(p, 4)
	g.current = victim
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unoCheck runs the UNO call for p, whose hand just became one card
// (RULES.md section 5).
func (g *Game) unoCheck(p int) {
	ms := append(g.moves[:0], SimpleMove(MoveCallUNO), SimpleMove(MovePass))
	if g.ask(p, DecideCallUNO, ms).Kind() == MoveCallUNO {
		g.unoCalled[p] = true
		g.count(CountUnoCall)
		g.emit(Event{Kind: EvUnoCall, Player: p})
		return
	}
	g.count(CountUnoMissed)
	g.emit(Event{Kind: EvUnoMissed, Player: p})
	g.unoPlayer = p
	catcher, nCatch := -1, 0
	for i := 1; i < g.n; i++ {
		q := (p + i) % g.n
		if g.out[q] {
			continue
		}
		ms := append(g.moves[:0], SimpleMove(MoveCatch), SimpleMove(MovePass))
		if g.ask(q, DecideCatch, ms).Kind() == MoveCatch {
			nCatch++
			if g.tableRng.IntN(nCatch) == 0 {
				catcher = q
			}
		}
	}
	if catcher < 0 {
		return
	}
	g.count(CountUnoPenalty)
	g.emit(Event{Kind: EvCatch, Player: p, Other: catcher})
	g.give(p, g.opts.UnoPenalty)
}

// goOut ends p's play with an empty hand (RULES.md section 4, step 2): only
// the draw of a final Draw Two or Wild Draw Four is carried out.
func (g *Game) goOut(p int, k Card) {
	next := g.nextOf(p)
	switch cardSymbol[k] {
	case DrawTwo:
		g.count(CountDrawTwo)
		g.give(next, 2)
	case WildDrawFour:
		g.count(CountWildDrawFour)
		g.give(next, 4)
	}
	g.out[p] = true
	g.active--
	g.places[g.nPlaced] = int8(p)
	g.nPlaced++
	g.emit(Event{Kind: EvOut, Player: p, N: g.nPlaced})
	if g.winner < 0 {
		g.winner = p
	}
	if g.opts.PlayForPlaces && g.active > 1 {
		g.current = g.nextOf(p)
		return
	}
	if g.opts.PlayForPlaces {
		for q := 0; q < g.n; q++ {
			if !g.out[q] {
				g.places[g.nPlaced] = int8(q)
				g.nPlaced++
			}
		}
	}
	g.over = true
}

func (g *Game) endRoundAs(o Outcome) {
	g.over, g.outcome = true, o
	if o == Blocked {
		g.emit(Event{Kind: EvBlocked})
	} else {
		g.emit(Event{Kind: EvTurnCap, N: g.opts.MaxTurns})
	}
}

// EndRound scores the finished round (RULES.md section 6), reports it, and
// reports whether the match goes on with another round.
func (g *Game) EndRound() bool {
	res := &g.res
	res.Rounds++
	g.rr = RoundResult{Round: g.round, Outcome: g.outcome, Winner: -1, Dealer: g.dealer, Turns: g.turns, Places: g.places}
	rr := &g.rr
	for p := 0; p < g.n; p++ {
		rr.Left[p] = g.hands[p].Points()
	}
	goesOn := false
	if g.outcome != Finished {
		res.Outcome = g.outcome
	} else {
		w := g.winner
		rr.Winner = w
		won := 0
		for p := 0; p < g.n; p++ {
			if p != w {
				won += rr.Left[p]
			}
		}
		switch g.opts.Scoring {
		case ScoreSingle:
			res.Scores[w] += won
			res.Winner, res.Winners = w, 1<<uint(w)
			res.Places = g.places
		case ScoreWinnerTakes:
			res.Scores[w] += won
			if res.Scores[w] >= g.opts.Target {
				best := g.bestScore()
				g.setWinners(func(s int) bool { return res.Scores[s] == best })
			} else {
				goesOn = true
			}
		case ScoreLosersAccumulate:
			hi := 0
			for p := 0; p < g.n; p++ {
				res.Scores[p] += rr.Left[p]
				hi = max(hi, res.Scores[p])
			}
			switch {
			case hi < g.opts.Target:
				goesOn = true
			case g.opts.LosersOutcome == LowestWins:
				lo := res.Scores[0]
				for p := 1; p < g.n; p++ {
					lo = min(lo, res.Scores[p])
				}
				g.setWinners(func(s int) bool { return res.Scores[s] == lo })
			default:
				g.setWinners(func(s int) bool { return res.Scores[s] < g.opts.Target })
			}
		}
	}
	rr.Scores = res.Scores
	if g.onRound != nil {
		g.onRound(rr)
	}
	g.emit(Event{Kind: EvRoundEnd, Player: rr.Winner, N: g.roundPoints(rr)})
	g.round++
	return goesOn
}

func (g *Game) roundPoints(rr *RoundResult) int {
	if rr.Winner < 0 {
		return 0
	}
	won := 0
	for p := 0; p < g.n; p++ {
		if p != rr.Winner {
			won += rr.Left[p]
		}
	}
	return won
}

// bestScore is the highest match total.
func (g *Game) bestScore() int {
	b := g.res.Scores[0]
	for p := 1; p < g.n; p++ {
		b = max(b, g.res.Scores[p])
	}
	return b
}

func (g *Game) setWinners(won func(seat int) bool) {
	res := &g.res
	res.Winners, res.Winner = 0, -1
	n := 0
	for p := 0; p < g.n; p++ {
		if won(p) {
			res.Winners |= 1 << uint(p)
			res.Winner = p
			n++
		}
	}
	if n != 1 {
		res.Winner = -1
	}
}
