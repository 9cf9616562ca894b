package strategy

import (
	"math"
	"math/bits"

	"github.com/unosim/unosim/engine"
)

// Counter is a card-counting player. It plays like the Heuristic it embeds
// (which makes its decisions other than the turn, the drawn card, the color
// and the response) and adds what its seat has seen:
//
//   - the exact multiset of cards it has not seen: the deck less its hand,
//     the discard pile, the mini-pile and the cards it knows to be in other
//     hands (engine.Knowledge, kept from the observation feed);
//   - likely voids: a player who drew instead of playing while the color
//     was c probably holds no card of c. The belief starts at Trust and
//     fades with every card that player draws later (by the chance that
//     the new cards miss c); a card of c played by that player ends it;
//   - how often each player challenged the Wild Draw Fours it faced.
//
// From them it plays the card the next player is least likely to answer:
// among its playable colored cards, the heuristic's score (ten points per
// card left in the card's color) plus Stuck times the chance that the next
// player holds nothing it could play on the card (stuck; with two players a
// Skip, a Draw Two or a skipping Reverse counts as certain) plus Void times
// the chance that it lacks the card's color. It names the color that
// maximises its cards of it and Void times the next player's lack, bluffs
// by the expected gain (BluffGain, the next player's challenge judged from
// exact counts and its record) and challenges by the sound rule with exact
// counts, the known cards of the player and its void in the reference
// color.
//
// A Counter keeps state between decisions: each seat and worker needs its
// own (Spec.New), and it allocates nothing per game. At a Game where hands
// are never exchanged, the counters of one Trust at a table share their
// reading of the frequent events, read once for the table as they happen
// (tableReading, an engine.PublicReader) instead of told to each, and a
// counter is not told its own draws: it reads its hand at decisions.
type Counter struct {
	Heuristic
	Trust float64 // the belief in a void inferred from a draw, 0 to 1
	Void  float64 // the weight of the next player's void in choosing a card or a color, in tenths of a card
	Stuck float64 // the weight of the chance that the next player cannot play on the card, in tenths of a card

	// The fields every decision reads come first, together: a seat's
	// decisions are far apart, and its counter's fields are read afresh
	// from memory at each.
	seat int
	// What the counter has read of the others (voids): its own reading
	// (priv), or the one its table's counters of the same Trust share (tv).
	tv *tableReading // nil: the counter's own reading
	// kn is the knowledge the counter reads: know, or with a shared reading
	// the table's (tableReading.taken) until the counter learns something
	// of its own in the round (ownKnowledge).
	kn    *engine.Knowledge
	view  *engine.View // of the last decision or event told (sync)
	round int          // with a shared reading: the round it began last (newRound)
	// The unseen cards by color and in all, worked out at the decisions
	// that read them (look).
	ucol  [engine.NumColors + 1]int
	total int
	known bool
	hold  uint32 // with known: the seats other than its own with known cards (bit q for seat q)
	// frozen: the counter was begun on a position no Game plays (a search's
	// copy), which tells it nothing: its unseen cards stay those of Begin,
	// the hand it held then taken away once.
	frozen bool
	finite bool // finiteVoid, as of Begin
	swaps  bool // hands can be swapped or rotated in this game
	pileUp bool // the deck has Wild Pile Ups
	told   bool // a test's setting: the frequent events told, never a shared reading
	// The deck's counts by kind, by printed color, by colored symbol in the
	// four colors and in all (setDeck), and the table (View.TableID) they
	// and swaps are of.
	deck      [64]int
	deckCol   [engine.NumColors + 1]int
	deckSym   [16]int
	deckTotal int
	table     uint64

	chall    [engine.MaxPlayers]int // challenges made, this game
	turnP    int                    // the player whose turn began, or -1
	turnC    engine.Color           // the color when it began
	fresh    bool                   // that player has neither played nor drawn yet this turn
	tvShared *tableReading          // the shared reading of the Game of view tvOf, table tvTable
	tvOf     *engine.View
	tvTable  uint64
	feed     uint64 // the events passed on to know (setFeed)
	// With a shared reading: how many of each seat's plays this round its
	// knowledge has forgotten (tableReading.plays, forgetPlayed).
	seen [engine.MaxPlayers]int
	know engine.Knowledge
	priv voidState
	own  [engine.NumColors]int // the seat's cards by color, kept for swaps and rotations
	// The cards not seen in public, kept from the feed: the deck less the
	// discard pile, the mini-pile and the cards known in other hands, by
	// kind, by printed color (NoColor: the wilds) and in all (with a shared
	// reading, not kept: tableReading, the view's piles and the knowledge
	// instead, pubOf and look). The unseen cards are those less the seat's
	// hand: by kind worked out when read, by color and in all at the
	// decisions that read them (look), so that the seat's own draws need
	// not be told. known says the seat knows cards in other hands (the slow
	// paths that read them), and hold which seats' (settle).
	pub      [64]int // by kind, 64 entries so that k&63 needs no bounds check
	pubCol   [engine.NumColors + 1]int
	pubTotal int
}

// DefaultCounter is the counter with its default parameters.
func DefaultCounter() Counter {
	return Counter{Heuristic: DefaultHeuristic(), Trust: 0.9, Void: 6, Stuck: 1000}
}

// voidState is what a counter reads of the other players from the events:
// the void beliefs by seat and color, and the Wild Draw Fours each seat
// faced this game.
type voidState struct {
	void  [engine.MaxPlayers][engine.NumColors]float64
	faced [engine.MaxPlayers]int
}

// tableReading is what the counters with the same Trust at one table
// (View.Shared) read once for all of the table's public events, as they
// happen (engine.PublicReader): the voidState of every seat (equal for
// every counter but in its own row, which it does not read), and the cards
// not on the discard pile or the mini-pile by printed color and colored
// symbol. Its counters work out their unseen cards from it, the view's
// piles, their hands and the cards they know in other hands.
type tableReading struct {
	trust uint64 // the bits of the Trust it reads for
	kinds uint64 // the events it reads this game (PublicKinds)
	begun bool   // a counter has begun it this game (BeginPublic: not yet)
	// stale: an event that moves many cards at once was read (recountEvents),
	// and the counts are made afresh from a view before they are read
	// (Counter.sync); the moves read since then are in that view.
	stale    bool
	tracking bool // plays are kept
	pubCol   [engine.NumColors + 1]int
	pubSym   [16]int // by colored symbol, in the four colors
	voidState
	// The deck's, by printed color and colored symbol (Counter.setDeck).
	deckCol [engine.NumColors + 1]int
	deckSym [16]int
	// The cards each seat put down from its hand this round, for the
	// counters that know cards in that hand (Counter.forgetPlayed), kept
	// from the first time one of them learns of a hand (tracking).
	plays [engine.MaxPlayers][]engine.Card
	// The mini-pile by kind, from the view at the first Begin and the pile's
	// events since (its counters are not told them): what its taker is
	// known to hold, and the cards a take puts back out of the public eye.
	mini [engine.NumCards]uint8
	// taken is what every seat knows of the others' hands from the
	// mini-piles taken this round, less their plays since (a knowledge of
	// seat -1): the knowledge a counter reads until it learns something
	// only it knows (Counter.ownKnowledge), a hand shown or a card taken back.
	taken engine.Knowledge
}

// tableReadingKey is the key of a tableReading at its table.
type tableReadingKey struct{ trust uint64 } // the Trust's bits (a NaN is equal to itself)

// pileEvents are the mini-pile's: a card shown on it (flipped or put from a
// hand, whose player held its color) and the pile taken (the cards leave
// the public eye; the taker's voids fade).
const pileEvents = 1<<engine.EvPileFlip | 1<<engine.EvPile | 1<<engine.EvPileTake

// fade[n] is the chance that n drawn cards all miss a given color, taking a
// quarter of the unseen cards to be of each color.
var fade = func() (f [17]float64) {
	p := 1.0
	for i := range f {
		f[i] = p
		p *= 0.75
	}
	return f
}()

// Begin implements engine.Observer.
func (c *Counter) Begin(v *engine.View) {
	c.seat = v.Seat()
	c.finite = c.finiteVoid()
	if !v.RoundOver() || c.know.Seat() != c.seat {
		c.know.Reset(c.seat) // else the next deal's EvRound forgets all it knew, first
	}
	// Begun with a mini-pile on the table (a position played out from the
	// middle of a pile-up), the seat sees its cards: its taker is known to
	// hold them.
	var mini [engine.NumCards]uint8
	if n, _ := v.MiniPile(); n > 0 && !v.RoundOver() {
		for k := range mini {
			mini[k] = uint8(v.MiniPileCount(engine.Card(k)))
		}
		c.know.SetMiniPile(&mini)
	}
	c.chall = [engine.MaxPlayers]int{}
	c.turnP, c.fresh = -1, false
	c.known = false
	c.view = v
	c.kn = &c.know
	c.frozen = !v.Observed()
	if id := v.TableID(); id != c.table {
		o := v.Options()
		c.swaps = o.SevenZero || o.Deck[engine.WildCard(engine.WildSwapHands)] > 0
		c.pileUp = o.Deck[engine.WildCard(engine.WildPileUp)] > 0
		c.setDeck(&o.Deck)
		c.table = id
	}
	// The shared reading, at a Game (a position no Game plays has none:
	// frozen, it is not looked up, which would box the key and forget the
	// Game's) whose hands are never exchanged (swaps move void rows
	// between seats as each counter sees them).
	c.tv = nil
	trust := math.Float64bits(c.Trust)
	if !c.swaps && !c.told && !c.frozen {
		if v != c.tvOf || v.TableID() != c.tvTable || c.tvShared == nil || c.tvShared.trust != trust {
			// The table's value is looked up (and its key boxed, which
			// allocates) once for a view of one Game.
			c.tvShared, _ = v.Shared(tableReadingKey{trust}, newTableReading).(*tableReading)
			c.tvOf, c.tvTable = v, v.TableID()
		}
		c.tv = c.tvShared
	}
	if t := c.tv; t != nil {
		// Every counter at the table begins before the game's first event:
		// the first to begin resets the reading.
		if !t.begun {
			t.voidState = voidState{}
			t.trust, t.begun, t.stale = trust, true, false
			t.kinds = counterPublic | recountEvents
			if c.pileUp {
				t.kinds |= pileEvents
			}
			t.mini = mini
			t.taken.Reset(-1)
			t.deckCol, t.deckSym = c.deckCol, c.deckSym
			t.newRound()
		}
		c.kn = &t.taken
		c.round = -1 // the deal's events begin the round (newRound)
		if !v.RoundOver() {
			c.round = v.Round()
		}
	} else {
		c.priv.faced = [engine.MaxPlayers]int{}
		if !v.RoundOver() {
			c.priv.void = [engine.MaxPlayers][engine.NumColors]float64{} // else the deal's EvRound clears them
		}
	}
	c.setFeed()
	if !v.RoundOver() {
		c.recount(v) // else the next round's first card recounts before anything reads the counts
		if c.frozen {
			hand := v.Hand()
			for m := hand.Kinds(); m != 0; m &= m - 1 {
				c.pub[bits.TrailingZeros64(m)] -= hand.Count(engine.Card(bits.TrailingZeros64(m)))
			}
			for col := range c.pubCol {
				c.pubCol[col] -= hand.ColorCount(engine.Color(col))
			}
			c.pubTotal -= hand.Size()
		}
	}
}

// newTableReading makes a tableReading, with room for more plays of each
// seat than a round has (so that appending to them allocates nothing).
func newTableReading() any {
	t := new(tableReading)
	for q := range t.plays {
		t.plays[q] = make([]engine.Card, 0, 256)
	}
	return t
}

// PublicKinds implements engine.PublicReader: none until a counter begins
// it in a game.
func (t *tableReading) PublicKinds() uint64 {
	if !t.begun {
		return 0
	}
	return t.kinds
}

// BeginPublic implements engine.PublicReader: the first counter to begin
// resets the reading (Counter.Begin).
func (t *tableReading) BeginPublic() { t.begun = false }

// newRound forgets the plays of the round before.
func (t *tableReading) newRound() {
	if t.tracking {
		for q := range t.plays {
			t.plays[q] = t.plays[q][:0]
		}
		t.tracking = false
	}
}

// voids is what the counter has read of the others.
func (c *Counter) voids() *voidState {
	if c.tv != nil {
		return &c.tv.voidState
	}
	return &c.priv
}

// recount counts the cards not seen in public from the view and the
// knowledge: the deck less the discard pile, the mini-pile and the cards
// known in other hands. It runs at the events that move many cards or
// change what the seat knows (with a shared reading, not at a take, which
// the reading counts); every other event updates the counts by one card.
func (c *Counter) recount(v *engine.View) {
	c.setFeed()
	if c.swaps {
		hand := v.Hand()
		for col := range c.own {
			c.own[col] = hand.ColorCount(engine.Color(col))
		}
	}
	if t := c.tv; t != nil {
		t.recount(v) // the same count by every counter at the table, each after its sync
		return       // no count of its own: pubOf
	}
	if mini, _ := v.MiniPile(); !c.known && mini == 0 && v.DiscardSize() <= 1 {
		// The usual case (a round's first card, a reshuffle): the deck less
		// the top card.
		c.pub, c.pubCol, c.pubTotal = c.deck, c.deckCol, c.deckTotal
		if v.DiscardSize() == 1 {
			c.shown(v.Top())
		}
		return
	}
	// The seats with known cards, as a mask: most hold none.
	var holders uint32
	if c.known {
		holders = c.holders()
	}
	c.pubCol = [engine.NumColors + 1]int{}
	total := 0
	hand := v.Hand()
	for k := range engine.NumCards {
		card := engine.Card(k)
		x := v.DeckCount(card) - v.Discarded(card) - v.MiniPileCount(card)
		for m := holders; m != 0; m &= m - 1 {
			x -= c.kn.Known(bits.TrailingZeros32(m), card)
		}
		if x < hand.Count(card) {
			x = hand.Count(card) // never so when the counts are exact: no unseen count below 0
		}
		c.pub[k] = x
		c.pubCol[card.Color()] += x
		total += x
	}
	c.pubTotal = total
}

// look works out the unseen cards by color and in all for a decision: the
// cards not seen in public less the seat's hand.
func (c *Counter) look(v *engine.View) {
	hand := v.Hand()
	pubCol, pubTotal := &c.pubCol, c.pubTotal
	if t := c.tv; t != nil {
		pubCol, pubTotal = &t.pubCol, c.deckTotal-v.DiscardSize()
		if c.pileUp {
			mini, _ := v.MiniPile()
			pubTotal -= mini
		}
		if c.known {
			// Less the cards known in other hands.
			col := t.pubCol
			for m := c.hold; m != 0; m &= m - 1 {
				q := bits.TrailingZeros32(m)
				for i := range col {
					col[i] -= c.kn.KnownColorCards(q, engine.Color(i))
				}
				pubTotal -= c.kn.KnownCards(q)
			}
			pubCol = &col
		}
	}
	if c.frozen {
		c.ucol, c.total = *pubCol, pubTotal // its hand of Begin taken away already
		return
	}
	c.ucol[engine.Red] = pubCol[engine.Red] - hand.ColorCount(engine.Red)
	c.ucol[engine.Yellow] = pubCol[engine.Yellow] - hand.ColorCount(engine.Yellow)
	c.ucol[engine.Green] = pubCol[engine.Green] - hand.ColorCount(engine.Green)
	c.ucol[engine.Blue] = pubCol[engine.Blue] - hand.ColorCount(engine.Blue)
	c.ucol[engine.NoColor] = pubCol[engine.NoColor] - hand.ColorCount(engine.NoColor)
	c.total = pubTotal - hand.Size()
}

// pubOf is the number of cards of kind k not seen in public, as of the
// last decision or event told: with a table's shared reading, the deck's
// less the discard pile's and the mini-pile's (in the view) and those known
// in other hands; else as kept.
func (c *Counter) pubOf(k engine.Card) int {
	if c.tv == nil {
		return c.pub[k&63]
	}
	x := c.deck[k&63] - c.view.Discarded(k)
	if c.pileUp {
		x -= c.view.MiniPileCount(k)
	}
	if c.known {
		x -= c.knownHeld(k)
	}
	return x
}

// holders are the seats other than the counter's whose hands it knows
// cards of (bit q for seat q).
func (c *Counter) holders() uint32 {
	return c.kn.Holders() &^ (1 << c.seat)
}

// settle keeps known and hold true to the knowledge after it changed:
// the seats it knows cards of (holders) once, for every read of the
// decisions to come; none, and the fast paths apply again.
func (c *Counter) settle() {
	if c.known {
		c.hold = c.holders()
		if c.hold == 0 {
			c.known = false
			c.setFeed()
		}
	}
}

// setDeck keeps the deck's counts (by kind, by printed color and in all)
// for recount.
func (c *Counter) setDeck(d *engine.Deck) {
	c.deckCol, c.deckSym, c.deckTotal = [engine.NumColors + 1]int{}, [16]int{}, 0
	for k, x := range d {
		card := engine.Card(k)
		c.deck[k] = x
		c.deckCol[card.Color()] += x
		if !card.IsWild() {
			c.deckSym[card.Symbol()&15] += x
		}
		c.deckTotal += x
	}
}

// shown takes one card of kind k, now in public, out of those not seen in
// public.
func (c *Counter) shown(k engine.Card) {
	if c.pub[k&63] > 0 {
		c.pub[k&63]--
		c.pubCol[k.Color()]--
		c.pubTotal--
	}
}

// ownVoids is the void row of the player who now holds the seat's old hand:
// certain for each color it had none of.
func (c *Counter) ownVoids() (row [engine.NumColors]float64) {
	for col, n := range c.own {
		if n == 0 {
			row[col] = 1
		}
	}
	return row
}

// The events engine.Knowledge reads (bit k for kind k), which the counter
// passes on to it: every other event would cost a copy of the hand for
// nothing. Those that show or move cards of other hands always; plays only
// once a card of another hand may be known (a known card played is
// forgotten) or where hands can be swapped; the seat's own draws only where
// hands can be swapped, so that the hand it keeps for swaps is current.
const (
	knowledgeAlways = 1<<engine.EvRound | 1<<engine.EvPileFlip | 1<<engine.EvPile | 1<<engine.EvChallenge |
		1<<engine.EvTakeBack | 1<<engine.EvPileTake | 1<<engine.EvSwap | 1<<engine.EvRotate
	knowledgeKnown = knowledgeAlways | 1<<engine.EvPlay
	knowledgeSwaps = knowledgeKnown | 1<<engine.EvDrawCard | 1<<engine.EvCatch
)

// setFeed chooses the events passed on to the knowledge.
func (c *Counter) setFeed() {
	switch {
	case c.swaps:
		c.feed = knowledgeSwaps
	case c.known:
		c.feed = knowledgeKnown
	default:
		c.feed = knowledgeAlways
	}
}

// counterEvents are the events Observe reads, its knowledge's included.
const counterEvents = knowledgeSwaps | 1<<engine.EvStartCard | 1<<engine.EvReshuffle | counterTold

// counterPublic are the frequent events: with a shared reading they are
// read once for the table as they happen (tableReading), instead of told
// to each counter, and what the reading does with them reads nothing of
// the view but the turn and the next player, which engine.PublicEvent
// gives (a play: ReadPlay, its player, card and next player). Where hands
// can be swapped each counter is told every event instead: its knowledge
// must see its own hand at each one. The turns are not read: each event
// says whose turn it is and whether it is that player's first act
// (engine.PublicEvent.Turn, First). A card stacked, deflected or jumped in
// is a play too (EvPlay follows its EvStack, EvDeflect or EvJumpIn at
// once, with the same player and card): those events are not read.
const counterPublic = 1<<engine.EvPlay | 1<<engine.EvDraw

// counterTold are the same events told one by one, which need the turns.
const counterTold = counterPublic | 1<<engine.EvTurn

// acquired are the events by which a seat learns cards in another's hand,
// where there are no swaps: a mini-pile taken, a hand shown to a
// challenger, a Wild Draw Four taken back.
const acquired = 1<<engine.EvPileTake | 1<<engine.EvChallenge | 1<<engine.EvTakeBack

// recountEvents move many cards at once: a shared reading reads them too,
// and counts the public cards afresh from a view before its counts are
// next read (the view then holds every card the events moved). The counter
// begins a round (newRound) when it first meets it.
const recountEvents = 1<<engine.EvRound | 1<<engine.EvStartCard | 1<<engine.EvReshuffle

// readShared are the events a counter with a shared reading leaves to it:
// recountEvents, and the cards put on the mini-pile (the reading keeps the
// pile for its taker's knowledge, and the cards put there from hands with
// the plays).
const readShared = recountEvents | 1<<engine.EvPileFlip | 1<<engine.EvPile

// ObservedEvents implements engine.EventSelector.
func (c *Counter) ObservedEvents() uint64 {
	switch {
	case c.swaps:
		return counterEvents
	case c.tv != nil:
		return counterEvents &^ counterTold &^ (1<<engine.EvCatch | 1<<engine.EvDrawCard) &^ readShared
	}
	return counterEvents &^ (1<<engine.EvCatch | 1<<engine.EvDrawCard)
}

// ReadPublic implements engine.PublicReader: the frequent events
// (counterPublic) of every seat, the events that move many cards at once
// and, where there are Wild Pile Ups, the mini-pile's.
func (t *tableReading) ReadPublic(l *engine.PublicEvent) {
	// The draws first, most of the events read here, tested before the
	// switch.
	if l.Kind == engine.EvDraw {
		t.drew(l, math.Float64frombits(t.trust))
		return
	}
	switch l.Kind {
	case engine.EvPlay: // (read by ReadPlay where the reading is its table's only one)
		t.ReadPlay(l.Player, l.Card, l.Next)
	case engine.EvRound:
		t.voidState.void = [engine.MaxPlayers][engine.NumColors]float64{}
		t.mini = [engine.NumCards]uint8{}
		t.taken.Reset(-1)
		t.newRound()
		t.stale = true
	case engine.EvStartCard, engine.EvReshuffle:
		t.stale = true
	case engine.EvPile, engine.EvPileFlip:
		// A card shown on the mini-pile; put there from a hand, its
		// player held its color, and the card is gone from the hand as a
		// play's is (forgetPlayed). The first card flipped makes a new
		// mini-pile (Knowledge's rule).
		k := l.Card
		t.pubCol[k.Color()]--
		if !k.IsWild() {
			t.pubSym[k.Symbol()&15]--
			if l.Kind == engine.EvPile {
				t.void[l.Player&(engine.MaxPlayers-1)][k.Color()&3] = 0
			}
		}
		if l.Kind == engine.EvPileFlip && l.N == 1 {
			t.mini = [engine.NumCards]uint8{}
		}
		if k.Valid() {
			t.mini[k]++
		}
		if l.Kind == engine.EvPile {
			t.taken.Played(l.Player, k)
			if t.tracking {
				t.fromHand(l.Player, k)
			}
		}
	case engine.EvPileTake:
		t.taken.SetMiniPile(&t.mini)
		t.taken.Took(l.Player)
		t.fadeAfter(l.Player&(engine.MaxPlayers-1), l.N)
		if !t.stale { // (else the recount to come counts the take)
			// The pile's cards leave the public eye, into the taker's hand.
			for k, n := range t.mini {
				if n != 0 {
					card := engine.Card(k)
					t.pubCol[card.Color()] += int(n)
					if !card.IsWild() {
						t.pubSym[card.Symbol()&15] += int(n)
					}
				}
			}
		}
	}
}

// ReadPlay implements engine.PlayReader: card k put down by player p, and
// the player after it (who faces a Wild Draw Four).
func (t *tableReading) ReadPlay(p int, k engine.Card, next int) {
	t.pubCol[k.Color()]--
	if !k.IsWild() {
		t.pubSym[k.Symbol()&15]--
		t.void[p&(engine.MaxPlayers-1)][k.Color()&3] = 0 // (p is a seat, a colored card's color below 4)
	} else if k.Symbol() == engine.WildDrawFour {
		t.faced[next&(engine.MaxPlayers-1)]++
	}
	if t.taken.Holders()>>(p&31)&1 != 0 {
		t.taken.Played(p, k)
	}
	if t.tracking {
		t.fromHand(p, k)
	}
}

// sync brings what the counter reads of the table up to date before every
// decision and event it is told: with a shared reading, its counts made
// afresh after a round's deal or a reshuffle, a new round begun, and the
// plays of the seats it knows cards of forgotten.
func (c *Counter) sync(v *engine.View) {
	if v != c.view {
		c.view = v
	}
	t := c.tv
	if t == nil {
		return
	}
	if t.stale {
		t.recount(v)
	}
	if v.Round() != c.round {
		c.newRound(v)
	}
	if c.known {
		if c.kn == &c.know {
			c.forgetPlayed()
		} else {
			c.settle() // (the table's knowledge forgets the plays as they happen)
		}
	}
}

// inSync says sync has nothing to do at v: the usual case, checked in line
// at every turn before the call. Knowing cards in other hands from the
// table's knowledge, it has nothing to do while the seats holding them
// are still those it holds (settle).
func (c *Counter) inSync(v *engine.View) bool {
	t := c.tv
	return v == c.view && t != nil && !t.stale && v.Round() == c.round &&
		(!c.known || c.kn == &t.taken && c.hold != 0 && c.hold == c.holders())
}

// newRound is what a counter with a shared reading does at a round's
// start, where it is not told EvRound: it forgets what it knew.
func (c *Counter) newRound(v *engine.View) {
	c.round = v.Round()
	c.known = false
	c.know.Observe(v, engine.Event{Kind: engine.EvRound, Player: -1})
	c.kn = &c.tv.taken
	c.setFeed()
}

// forgetPlayed is what a counter with a shared reading does with the plays
// of the seats it knows cards of since it last looked: its knowledge
// forgets them (Knowledge.Played), from the reading's plays of each seat
// (most decisions find none).
func (c *Counter) forgetPlayed() {
	t := c.tv
	for m := c.holders(); m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		plays := t.plays[q]
		if c.seen[q] < len(plays) {
			for _, k := range plays[c.seen[q]:] {
				c.know.Played(q, k)
			}
		}
		c.seen[q] = len(plays)
	}
	c.settle()
}

// ownKnowledge makes the counter's knowledge its own, from the table's as it is
// now, at the first thing it learns that the table does not know: from
// then on in the round it keeps its knowledge itself, the plays of the
// seats it knows cards of forgotten from the reading's (forgetPlayed).
func (c *Counter) ownKnowledge() {
	if c.kn == &c.know {
		return
	}
	t := c.tv
	c.know.CopyFor(&t.taken, c.seat)
	c.kn = &c.know
	for q := range t.plays {
		c.seen[q] = len(t.plays[q])
	}
	t.tracking = true
}

// seePlays takes the plays of seat q as forgotten: its knowledge of q's
// hand is as of now, after sync (forgetPlayed), and the reading keeps the
// plays from now on.
func (c *Counter) seePlays(q int) {
	if uint(q) < engine.MaxPlayers {
		c.seen[q] = len(c.tv.plays[q])
		c.tv.tracking = true
	}
}

// fromHand keeps card k, put down from p's hand, among p's plays
// (forgetPlayed).
func (t *tableReading) fromHand(p int, k engine.Card) {
	p &= engine.MaxPlayers - 1
	t.plays[p] = append(t.plays[p], k)
}

// recount counts the cards not on the discard pile or the mini-pile by
// printed color and colored symbol afresh from v: the deck less those
// piles. Every counter of the reading may do it at the same point of the
// game, with the same result.
func (t *tableReading) recount(v *engine.View) {
	t.stale = false
	t.pubCol, t.pubSym = t.deckCol, t.deckSym
	if mini, _ := v.MiniPile(); mini == 0 && v.DiscardSize() == 1 {
		top := v.Top()
		t.pubCol[top.Color()]--
		if !top.IsWild() {
			t.pubSym[top.Symbol()&15]--
		}
		return
	}
	for k := range engine.NumCards {
		card := engine.Card(k)
		x := v.Discarded(card) + v.MiniPileCount(card)
		t.pubCol[card.Color()] -= x
		if !card.IsWild() {
			t.pubSym[card.Symbol()&15] -= x
		}
	}
}

// Observe implements engine.Observer.
func (c *Counter) Observe(v *engine.View, e engine.Event) {
	if e.Kind == engine.EvDrawCard && c.feed>>engine.EvDrawCard&1 == 0 {
		// Told the seat's draws (a table that does not select events): they
		// change nothing counted here.
		return
	}
	c.sync(v)
	c.observe(v, e)
}

// drew counts a card the seat drew, where hands can be swapped.
func (c *Counter) drew(k engine.Card) {
	if col := k.Color(); c.swaps && col < engine.NoColor {
		c.own[col]++
	}
}

// observe is Observe past the sync and the seat's draws.
func (c *Counter) observe(v *engine.View, e engine.Event) {
	if c.tv != nil && (readShared|counterTold)>>e.Kind&1 != 0 {
		return // read by the shared reading (told all the same by a strategy that forwards every event)
	}
	if counterTold>>e.Kind&1 != 0 {
		l := engine.PublicEvent{Event: e, Now: v.Color(), Next: -1}
		if e.Kind == engine.EvPlay && e.Card.Symbol() == engine.WildDrawFour {
			l.Next = v.NextOf(e.Player)
		}
		c.read(v, &l)
		return
	}
	p := e.Player
	// The cards not seen in public: one card made public, or drawn by the
	// seat (with a shared reading, none kept: pubOf).
	switch own := c.tv == nil; {
	case own && e.Kind == engine.EvPile:
		if p == c.seat {
			if col := e.Card.Color(); col < engine.NoColor {
				c.own[col]--
			}
			c.shown(e.Card)
		} else if !c.known || c.kn.Known(p, e.Card) == 0 {
			c.shown(e.Card)
		}
	case own && e.Kind == engine.EvPileFlip:
		c.shown(e.Card)
	case own && e.Kind == engine.EvDrawCard:
		c.drew(e.Card)
	}
	// A take is in the table's knowledge where the counter reads that one
	// (ReadPublic).
	if c.feed>>e.Kind&1 != 0 && (e.Kind != engine.EvPileTake || c.kn == &c.know) {
		if c.tv != nil && acquired>>e.Kind&1 != 0 {
			// The seat whose hand it learns of (the challenged, shown to the
			// seat as challenger; another's take-back or take): what it
			// learns is as of now, and that seat's plays so far are
			// forgotten (sync ran them).
			switch {
			case e.Kind == engine.EvChallenge:
				if p == c.seat {
					c.ownKnowledge()
					c.seePlays(e.Other)
				}
			case p != c.seat:
				c.ownKnowledge()
				c.seePlays(p)
				if e.Kind == engine.EvPileTake {
					c.know.SetMiniPile(&c.tv.mini) // (the pile's events are read by the shared reading)
				}
			}
		}
		c.know.Observe(v, e)
	}
	switch e.Kind {
	case engine.EvRound:
		clear(c.priv.void[:v.Players()]) // the other rows stay 0 (a shared reading is not told EvRound: observe returned)
		c.turnP, c.fresh = -1, false
		c.known = false
		c.setFeed()
	case engine.EvStartCard, engine.EvReshuffle:
		c.recount(v) // after the deal; a Wild Draw Four flipped goes back silently
	case engine.EvPileTake:
		c.known = c.known || p != c.seat
		if c.tv != nil {
			c.setFeed() // (the shared reading counted the take and faded the taker's voids)
			break
		}
		c.recount(v)
		if p != c.seat {
			c.priv.fadeAfter(p, e.N)
		}
	case engine.EvPile:
		if c.tv == nil { // (a shared reading reads it)
			c.played(p, e.Card)
		}
	case engine.EvChallenge:
		c.chall[p]++
		if p == c.seat {
			c.known = true // the hand was shown to the seat
			c.recount(v)
		}
	case engine.EvTakeBack:
		c.known = c.known || p != c.seat
		c.recount(v)
	case engine.EvSwap:
		o := e.Other
		vs := &c.priv // (no shared reading where hands can be swapped)
		vs.void[p], vs.void[o] = vs.void[o], vs.void[p]
		switch c.seat {
		case p:
			vs.void[o] = c.ownVoids()
		case o:
			vs.void[p] = c.ownVoids()
		}
		c.known = true
		c.recount(v)
	case engine.EvRotate:
		var moved [engine.MaxPlayers][engine.NumColors]float64
		for q := 0; q < v.Players(); q++ {
			if v.Out(q) {
				continue
			}
			if q == c.seat {
				moved[v.NextOf(q)] = c.ownVoids()
			} else {
				moved[v.NextOf(q)] = c.priv.void[q]
			}
		}
		c.priv.void = moved
		c.known = true
		c.recount(v)
	}
	c.settle()
}

// drew updates a player's voids for a draw read: a turn's first
// draw means it lacked the turn's color (as far as trust goes), more draws
// of the same turn missed the color too, and a draw at another's turn (a
// penalty) fades what was inferred.
func (vs *voidState) drew(l *engine.PublicEvent, trust float64) {
	p := l.Player & (engine.MaxPlayers - 1)
	if p == l.Turn {
		if l.First && l.TurnColor < engine.NoColor {
			vs.void[p][l.TurnColor] = trust
		}
		return
	}
	vs.fadeAfter(p, l.N2)
}

// fadeAfter fades seat p's void beliefs after it took n cards: each holds
// only if all n missed its color (fade).
func (vs *voidState) fadeAfter(p, n int) {
	f := 0.0
	if n < len(fade) {
		f = fade[n]
	}
	row := &vs.void[p]
	for col := range row {
		row[col] = float64(row[col] * f)
	}
}

// read reads a frequent event (counterTold) told, for a counter without a
// shared reading.
func (c *Counter) read(v *engine.View, l *engine.PublicEvent) {
	p := l.Player
	switch l.Kind {
	case engine.EvTurn:
		c.turnP, c.turnC, c.fresh = p, l.Now, true
		return
	case engine.EvPlay:
		// A known card played was not unseen (Knowledge forgets it below).
		k := l.Card
		if p == c.seat {
			if col := k.Color(); col < engine.NoColor {
				c.own[col]--
			}
			c.shown(k)
		} else if !c.known || c.kn.Known(p, k) == 0 {
			c.shown(k)
		}
		if c.feed>>engine.EvPlay&1 != 0 {
			c.know.Observe(v, l.Event)
		}
		if k.Symbol() == engine.WildDrawFour {
			c.priv.faced[l.Next]++
		}
		// A card put down: the turn's player has acted, and p held the
		// card's color.
		c.played(p, k)
	case engine.EvDraw:
		if p == c.seat {
			return
		}
		if p == c.turnP {
			if c.fresh {
				if c.turnC < engine.NoColor { // (a turn told before any color is named: no inference)
					c.priv.void[p][c.turnC] = c.Trust // drew instead of playing
				}
				c.fresh = false
			}
			return // more draws of the same turn (draw-until-playable) missed the color too
		}
		c.priv.fadeAfter(p, l.N2)
		return
	default:
		return
	}
	c.settle()
}

// played is what a card put down by p says of its hand: the turn's player
// has acted, and p held the card's color.
func (c *Counter) played(p int, k engine.Card) {
	if p == c.turnP {
		c.fresh = false
	}
	if p != c.seat && !k.IsWild() {
		c.priv.void[p][k.Color()] = 0
	}
}

// Known is the number of cards of kind k the counter knows to be in seat
// p's hand, from what it has been told and read so far.
func (c *Counter) Known(p int, k engine.Card) int {
	c.catchUp()
	if c.kn == nil || p == c.seat {
		return 0 // (the table's knowledge holds the seat's own takes)
	}
	return c.kn.Known(p, k)
}

// catchUp brings the counter up to date with the view it last met (sync:
// Unseen, Known and VoidBelief are as of now).
func (c *Counter) catchUp() {
	if c.view != nil {
		c.sync(c.view)
	}
}

// Unseen is the number of cards of kind k the counter has not seen: the
// deck less its hand, the discard pile, the mini-pile and the cards it
// knows in other hands, from what it has been told and read so far (on
// a position no Game plays, which tells it nothing, as of its Begin).
func (c *Counter) Unseen(k engine.Card) int {
	if !k.Valid() {
		return 0
	}
	c.catchUp()
	if c.view == nil {
		return c.pub[k] // no decision yet
	}
	if c.frozen {
		return c.pubOf(k)
	}
	return c.pubOf(k) - c.view.Hand().Count(k)
}

// unseenOf is the number of unseen cards of the kinds in mask: of each
// whole color in it as counted by color (the same sum), of the other kinds
// one by one.
func (c *Counter) unseenOf(mask uint64) int {
	n := 0
	for col := engine.Red; col < engine.NoColor; col++ {
		if m := colorMask(col); mask&m == m {
			n += c.ucol[col]
			mask &^= m
		}
	}
	for m := mask; m != 0; m &= m - 1 {
		n += c.pubOf(engine.Card(bits.TrailingZeros64(m)))
	}
	if c.frozen {
		return n
	}
	in, _ := c.view.Hand().Instances(mask)
	return n - in
}

// unseenOthers is the number of unseen cards of k's symbol in the other
// colors (k is colored).
func (c *Counter) unseenOthers(k engine.Card) int {
	const n = engine.NumColoredSymbols
	y := int(k.Symbol()) & 15 // sym < n <= 16: the mask only tells the compiler the indices are in range
	if c.frozen {
		return c.pubSymbol(y) - c.pubOf(k)
	}
	h := c.view.Hand()
	return c.pubSymbol(y) - c.pubOf(k) -
		(h.Count(engine.Card(y)) + h.Count(engine.Card(n+y)) + h.Count(engine.Card(2*n+y)) + h.Count(engine.Card(3*n+y)) - h.Count(k))
}

// pubSymbol is the number of cards of colored symbol y in the four colors
// not seen in public, as pubOf.
func (c *Counter) pubSymbol(y int) int {
	const n = engine.NumColoredSymbols
	y &= 15
	if c.tv == nil {
		return c.pub[y] + c.pub[n+y] + c.pub[2*n+y] + c.pub[3*n+y]
	}
	x := c.tv.pubSym[y]
	if c.known {
		x -= c.knownSymbol(y)
	}
	return x
}

// knownHeld is the number of cards of kind k the counter knows in other
// hands (with known).
func (c *Counter) knownHeld(k engine.Card) int {
	x := 0
	for m := c.hold; m != 0; m &= m - 1 {
		x += c.kn.Known(bits.TrailingZeros32(m), k)
	}
	return x
}

// knownSymbol is the number of cards of colored symbol y in the four
// colors the counter knows in other hands (with known). (Not in line:
// it would crowd bestColored's loop, which seldom needs it.)
//
//go:noinline
func (c *Counter) knownSymbol(y int) int {
	const n = engine.NumColoredSymbols
	y &= 15
	x := 0
	for m := c.hold; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		x += c.kn.Known(q, engine.Card(y)) + c.kn.Known(q, engine.Card(n+y)) + c.kn.Known(q, engine.Card(2*n+y)) + c.kn.Known(q, engine.Card(3*n+y))
	}
	return x
}

// knownIn is the number of known cards of seat p of the kinds in mask, and
// of any kind.
func (c *Counter) knownIn(p int, mask uint64) (in, all int) {
	if !c.known {
		return 0, 0
	}
	if all = c.kn.KnownCards(p); all == 0 {
		return 0, 0
	}
	for m := mask; m != 0; m &= m - 1 {
		in += c.kn.Known(p, engine.Card(bits.TrailingZeros64(m)))
	}
	return in, all
}

// lacks is the chance that seat p holds no card printed in color col: 0 if
// a card of it is known there, else the void belief or, failing it, the
// chance that the unknown part of the hand misses the unseen cards of col.
func (c *Counter) lacks(v *engine.View, p int, col engine.Color) float64 {
	h := v.HandSize(p)
	if c.known {
		if c.kn.KnownColorCards(p, col) > 0 {
			return 0
		}
		h -= c.kn.KnownCards(p)
	}
	nv := c.voids().void[p][col]
	q, ok := noMatchTable(c.total, c.ucol[col], h)
	if !ok {
		q = noMatchCount(c.total, c.ucol[col], h)
	}
	return nv + float64((1-nv)*q)
}

// Decide implements engine.Strategy.
func (c *Counter) Decide(v *engine.View, moves []engine.Move) int {
	d := v.Decision()
	if counterDecides>>(d&63)&1 == 0 {
		// The heuristic's decisions read nothing the counter keeps: it
		// catches up at its next decision or event (Party asks many of
		// these: jump-ins, points).
		return c.Heuristic.Decide(v, moves)
	}
	switch d {
	case engine.DecideTurn:
		c.sync(v)
		return turnIndex(v, moves, c.turn(v))
	case engine.DecideDrawn:
		if v.Drawn().Symbol() == engine.WildDrawFour && !v.WD4Legal() {
			c.sync(v)
			if !c.bluffs(v) {
				return indexOfKind(moves, engine.MoveKeep)
			}
		}
		return indexOfKind(moves, engine.MovePlay)
	case engine.DecideColor:
		c.sync(v)
		return indexOfColor(moves, c.color(v))
	default: // engine.DecideRespond
		c.sync(v)
		return c.respond(v, moves)
	}
}

// counterDecides are the decisions the counter makes itself (bit d for
// decision d); the heuristic makes the others.
const counterDecides = 1<<engine.DecideTurn | 1<<engine.DecideDrawn | 1<<engine.DecideColor | 1<<engine.DecideRespond

// bluffs decides a chance to bluff, by the coin Bluff or by BluffGain with
// exact counts and the next player's record of challenges.
func (c *Counter) bluffs(v *engine.View) bool {
	if !c.BluffSound {
		return v.Rand().Bernoulli(c.Bluff)
	}
	c.look(v)
	mask := illegalKinds(v.Color(), v.Top(), v.WD4Rule())
	next := v.NextOf(v.Seat())
	c0 := -1.0
	if f := c.voids().faced[next]; f > 0 {
		c0 = float64(c.chall[next]) / float64(f)
	}
	return soundBluff(v, c.total, c.unseenOf(mask), c.BluffRate, c.BluffBias, c0)
}

// next is the next player and its weight in choosing: more when it is
// close to going out.
func (c *Counter) nextWeight(v *engine.View) (int, float64) {
	next := v.NextOf(v.Seat())
	w := c.Void
	if v.HandSize(next) <= 2 {
		w = float64(3 * w)
	}
	return next, w
}

// color is the color to name: the most cards of it in hand (ten points
// each), plus the next player's chance to lack it times its weight.
func (c *Counter) color(v *engine.View) engine.Color {
	c.look(v)
	hand := v.Hand()
	next, w := c.nextWeight(v)
	best, bestScore := engine.Red, math.Float64bits(-1)
	row, h := &c.voids().void[next], v.HandSize(next) // lacks' reads with nothing known, once
	for col := engine.Red; col < engine.NoColor; col++ {
		var lack float64
		if c.known {
			lack = c.lacks(v, next, col)
		} else {
			nv := row[col]
			q, ok := noMatchTable(c.total, c.ucol[col], h)
			if !ok {
				q = noMatchCount(c.total, c.ucol[col], h)
			}
			lack = nv + float64((1-nv)*q)
		}
		s := float64(10*hand.ColorCount(col)) + float64(w*lack)
		best, bestScore = pickBetter(s, bestScore, col, best)
	}
	return best
}

// pickBetter is (x, s) if s scores above the best so far, else (best, the
// best score), without a branch: which way a comparison of scores goes is
// a coin flip to the processor, and a mispredicted branch costs more than
// the selection. The best score is kept as its bits (math.Float64bits),
// which the selection works on.
func pickBetter[T ~uint8](s float64, bestBits uint64, x, best T) (T, uint64) {
	gt := uint64(0)
	if s > math.Float64frombits(bestBits) {
		gt = 1 // (a flag set, not a branch)
	}
	mask := -gt
	return best ^ (best^x)&T(mask), bestBits ^ (bestBits^math.Float64bits(s))&mask
}

// ChooseTurn implements engine.TurnChooser: the move Decide chooses at a
// turn, from v.Plays() without the list of moves.
func (c *Counter) ChooseTurn(v *engine.View) engine.Move {
	if !c.inSync(v) {
		c.sync(v)
	}
	return c.turn(v)
}

// PlaysDrawn implements engine.DrawnPlayer: without bluffs (Bluff 0, not
// BluffSound) it plays every playable drawn card but an illegal Wild Draw
// Four, drawing no random number to decide (see Decide).
func (c *Counter) PlaysDrawn() bool { return !c.BluffSound && c.Bluff <= 0 }

// turnIndex is the index among a turn's moves (one Play per kind of
// v.Plays() in kind order, then Draw if offered) of m, a move of turn.
func turnIndex(v *engine.View, moves []engine.Move, m engine.Move) int {
	if m.Kind() == engine.MovePlay {
		return v.PlayIndex(m.Card())
	}
	if i := indexOfKind(moves, engine.MoveDraw); i >= 0 {
		return i
	}
	return 0
}

// turn chooses a play like the heuristic, each colored card also scored by
// the next player's chance to lack its color (bestColored); then the
// heuristic's rule for the wilds.
func (c *Counter) turn(v *engine.View) engine.Move {
	const colored = uint64(1)<<(engine.NumColors*engine.NumColoredSymbols) - 1
	plays := v.Plays()
	p := plays & colored
	// (One test, not one per condition: which way it goes is hard to guess.)
	if plays&^colored|plays&(plays-1) == 0 && plays != 0 && c.finite {
		// One colored kind and no wild (the most frequent case): it is played
		// whatever its score, as below, without working any out.
		return engine.PlayMove(engine.Card(bits.TrailingZeros64(p)))
	}
	next := v.NextOf(v.Seat())
	nextSize := v.HandSize(next)
	nextDanger := nextSize <= 2
	w := c.Void
	if nextDanger {
		w = float64(3 * w)
	}
	best := engine.NoCard
	if p&(p-1) != 0 || w-w != 0 {
		best = c.bestColored(v, p, next, nextSize, w)
	} else if p != 0 {
		// One colored kind: its score is finite (w is), so above the
		// start, and compared with no other. It is not worked out.
		best = engine.Card(bits.TrailingZeros64(p))
	}
	// The wilds, as a loop over every kind in order finds them: the Wild
	// Draw Four; the Wild, else the first other wild.
	wild, wd4 := engine.NoCard, engine.NoCard
	wd4Card, wildCard := engine.WildCard(engine.WildDrawFour), engine.WildCard(engine.Wild)
	if plays>>wd4Card&1 != 0 {
		wd4 = wd4Card
	}
	if ws := plays &^ colored &^ (1 << wd4Card); ws>>wildCard&1 != 0 {
		wild = wildCard
	} else if ws != 0 {
		wild = engine.Card(bits.TrailingZeros64(ws))
	}
	// chooseTurn's rule, on kinds: the Wild Draw Four as a bluff when bluffs
	// says so and something else could be played, or legally when nothing
	// else plays or the next player is close to going out; else the best
	// colored card, the wild, the legal Wild Draw Four, the draw.
	if wd4 != engine.NoCard {
		legal := v.WD4Legal()
		if !legal && (best != engine.NoCard || wild != engine.NoCard) && c.bluffs(v) {
			return engine.PlayMove(wd4)
		}
		if legal && (best == engine.NoCard || nextDanger) && (wild == engine.NoCard || nextDanger) {
			return engine.PlayMove(wd4)
		}
	}
	switch {
	case best != engine.NoCard:
		return engine.PlayMove(best)
	case wild != engine.NoCard:
		return engine.PlayMove(wild)
	case wd4 != engine.NoCard && v.WD4Legal():
		return engine.PlayMove(wd4)
	}
	if plays != 0 && v.Options().ForcedPlay {
		// Forced to play with nothing but a bluff: the first move, played.
		return engine.PlayMove(engine.Card(bits.TrailingZeros64(plays)))
	}
	return engine.SimpleMove(engine.MoveDraw)
}

// bestColored is the colored kind of p (the colored kinds playable) with
// the best score, the first of equal ones in kind order (the order of a
// turn's Play moves), or NoCard if none scores above -1e18 (a NaN weight):
// the heuristic's score (ten points per other card of its color), w (the
// Void weight at the next player's hand size) times the next player's lack
// of its color when the kinds are of two colors or more, Stuck times the
// chance that the next player cannot play on it when they are two kinds or
// more, its points when an opponent is close to going out, and 1000 for a
// hit when the next player is.
func (c *Counter) bestColored(v *engine.View, p uint64, next, nextSize int, w float64) engine.Card {
	hand := v.Hand()
	nextDanger := nextSize <= 2
	var lack [engine.NumColors]float64
	cols := playColors(p)
	lacking := cols&(cols-1) != 0 && w != 0
	stuckOn := p&(p-1) != 0 && c.Stuck != 0
	if lacking || stuckOn {
		c.look(v) // the unseen cards by color and in all, read by both
	}
	// What the counter knows of the next player's hand, if anything, is
	// read by lacks and stuck; else their work is done here, with the reads
	// of the next player once.
	if lacking {
		if c.known && c.hold>>next&1 != 0 {
			for m := cols; m != 0; m &= m - 1 {
				col := engine.Color(bits.TrailingZeros8(m))
				lack[col] = c.lacks(v, next, col)
			}
		} else {
			row, h := &c.voids().void[next], nextSize
			for m := cols; m != 0; m &= m - 1 {
				col := engine.Color(bits.TrailingZeros8(m) & 3)
				nv := row[col]
				q, ok := noMatchTable(c.total, c.ucol[col], h)
				if !ok {
					q = noMatchCount(c.total, c.ucol[col], h)
				}
				lack[col] = nv + float64((1-nv)*q)
			}
		}
	}
	// An opponent close to going out: each card's points count (as a
	// factor of 1 or 0, adding +0 otherwise: no branch on it in the loop).
	points := 0.0
	if opponentClose(v, v.Seat()) {
		points = 1
	}
	best, bestScore := engine.NoCard, math.Float64bits(-1e18)
	var row *[engine.NumColors]float64 // stuck's reads of the next player, once read
	var ko0 int
	for m := p; m != 0; m &= m - 1 {
		k := engine.Card(bits.TrailingZeros64(m))
		col, sym := k.Color()&3, k.Symbol() // (k is colored)
		score := float64(10*(hand.ColorCount(col)-1)) + float64(w*lack[col])
		if stuckOn {
			st := 1.0 // two players: the other loses its turn, the counter plays again
			if v.ActivePlayers() > 2 || !isHit(v, sym) {
				if c.known && c.hold>>next&1 != 0 {
					st = c.stuck(v, next, k)
				} else {
					if row == nil {
						row, ko0 = &c.voids().void[next], c.ucol[engine.NoColor]
					}
					kc := c.ucol[col]
					// unseenOthers, in line: pubSymbol and pubOf from the
					// shared reading where there is one, less the cards
					// known in other hands.
					const n = engine.NumColoredSymbols
					y := int(sym) & 15
					var ko int
					if t := c.tv; t != nil {
						ko = t.pubSym[y] - (c.deck[k&63] - v.Discarded(k)) // (no mini-pile at a turn: pubOf's term is 0)
						if c.known {
							ko -= c.knownSymbol(y) - c.knownHeld(k)
						}
					} else {
						ko = c.pub[y] + c.pub[n+y] + c.pub[2*n+y] + c.pub[3*n+y] - c.pub[k&63]
					}
					ko += ko0
					if !c.frozen { // (frozen: its hand of Begin is out already)
						ko -= hand.Count(engine.Card(y)) + hand.Count(engine.Card(n+y)) + hand.Count(engine.Card(2*n+y)) + hand.Count(engine.Card(3*n+y)) - hand.Count(k)
					}
					// stuckChance, in line (the loop's most frequent call).
					u, b := c.total, row[col]
					first := 0.0
					if b != 0 {
						first = float64(b * noMatchCount(u-kc, ko, nextSize))
					}
					q, ok := noMatchTable(u, kc+ko, nextSize)
					if !ok {
						q = noMatchCount(u, kc+ko, nextSize)
					}
					st = first + float64((1-b)*q)
				}
			}
			score += float64(c.Stuck * st)
		}
		score += float64(points * float64(k.Points()))
		if nextDanger && isHit(v, sym) {
			score += 1000
		}
		best, bestScore = pickBetter(score, bestScore, k, best)
	}
	return best
}

// finiteVoid says the weight of the next player's void is finite at any
// hand size: then a card compared with no other is played (turn, as of
// Begin: finite).
func (c *Counter) finiteVoid() bool {
	w, w3 := c.Void, float64(3*c.Void)
	return w-w == 0 && w3-w3 == 0
}

// stuck is the chance that seat p holds nothing it could play on the
// colored card k: no card of k's color, of k's symbol or wild. With void
// belief b in the color, U unseen cards, K_c of the color and K_o of the
// symbol in other colors or wild, for the h unknown cards of p:
//
//	b C(U-K_c-K_o, h)/C(U-K_c, h) + (1-b) C(U-K_c-K_o, h)/C(U, h).
func (c *Counter) stuck(v *engine.View, p int, k engine.Card) float64 {
	col, sym := k.Color(), k.Symbol()
	h := v.HandSize(p)
	if c.known {
		// A known card of k's color, of its symbol or wild answers it.
		in := c.kn.KnownColorCards(p, col) + c.kn.KnownColorCards(p, engine.NoColor)
		for o := engine.Red; o < engine.NoColor; o++ {
			if o != col {
				in += c.kn.Known(p, engine.MakeCard(o, sym))
			}
		}
		if in > 0 {
			return 0
		}
		h -= c.kn.KnownCards(p)
	}
	kc := c.ucol[col]
	ko := c.ucol[engine.NoColor] + c.unseenOthers(k)
	return stuckChance(c.total, kc, ko, h, c.voids().void[p][col])
}

// stuckChance is stuck's formula for u unseen cards, kc of the card's
// color, ko of its symbol in other colors or wild, h unknown cards of the
// player and void belief b (bestColored's loop has it in line, with its
// reads hoisted: a test checks the two agree).
func stuckChance(u, kc, ko, h int, b float64) float64 {
	// b times a chance in [0, 1] is +0 when b is 0: the term is skipped.
	first := 0.0
	if b != 0 {
		first = float64(b * noMatchCount(u-kc, ko, h))
	}
	q, ok := noMatchTable(u, kc+ko, h)
	if !ok {
		q = noMatchCount(u, kc+ko, h)
	}
	return first + float64((1-b)*q)
}

// stuck's mask of a symbol holds if the colored symbols are 16 at most.
var _ [16 - engine.NumColoredSymbols]struct{}

// playColors is the set of colors (bit c for color c) of the colored
// kinds in plays. Without branches: which colors a turn can play is a coin
// flip to the branch predictor.
func playColors(plays uint64) uint8 {
	const n = engine.NumColoredSymbols
	const span = uint64(1)<<n - 1
	return nonZero(plays&span) | nonZero(plays&(span<<n))<<1 |
		nonZero(plays&(span<<(2*n)))<<2 | nonZero(plays&(span<<(3*n)))<<3
}

// nonZero is 1 if x is not 0, else 0, without a branch (x | -x has its top
// bit set exactly when x is not 0).
func nonZero(x uint64) uint8 { return uint8((x | -x) >> 63) }

// respond stacks or deflects like the heuristic, bluffs a stack by the
// sound rule, and challenges by the sound rule with exact counts.
func (c *Counter) respond(v *engine.View, moves []engine.Move) int {
	c.look(v)
	bluff := -1
	for i, m := range moves {
		if k := m.Kind(); k == engine.MoveStack || k == engine.MoveDeflect {
			if m.Card().Symbol() == engine.WildDrawFour && !v.WD4Legal() {
				bluff = i
				continue
			}
			return i
		}
	}
	if bluff >= 0 && c.bluffs(v) {
		return bluff
	}
	if i := indexOfKind(moves, engine.MoveChallenge); i >= 0 && !v.Silenced(v.Seat()) && c.challenges(v) {
		return i
	}
	return indexOfKind(moves, engine.MoveAccept)
}

func (c *Counter) challenges(v *engine.View) bool {
	if c.Challenge != ChallengeSound {
		return c.Heuristic.challenges(v)
	}
	total, pen, w, back := challengeInfo(v)
	return SoundChallenge(c.BluffChance(v), total, pen, w, back, c.ChallengeBias)
}

// BluffChance is the counter's posterior that the pending Wild Draw Four
// was a bluff (BluffPosterior) with its exact counts:
// the player's h cards are its known cards plus h - known drawn
// from the U unseen cards, K of them illegal, K_r of those in the reference
// color; with void belief b in that color,
//
//	P(no illegal card) = 0 if a known card is illegal, else
//	  b C(U-K_r-(K-K_r), h') / C(U-K_r, h') + (1-b) C(U-K, h') / C(U, h'),
//
// h' = h - known, and q = 1 - P(no illegal card).
func (c *Counter) BluffChance(v *engine.View) float64 {
	c.sync(v)
	c.look(v)
	_, _, by := v.Pending()
	ref := v.ReferenceColor()
	mask := illegalKinds(ref, v.ReferenceTop(), v.WD4Rule())
	in, all := c.knownIn(by, mask)
	if in > 0 {
		return 1
	}
	h := v.HandSize(by) - all
	k := c.unseenOf(mask)
	kr := c.ucol[ref]
	b := c.voids().void[by][ref]
	p0 := float64(b*noMatchCount(c.total-kr, k-kr, h)) +
		float64((1-b)*noMatchCount(c.total, k, h))
	return BluffPosterior(1-p0, c.BluffRate)
}

// VoidBelief is the counter's belief that seat p holds no card of color
// col, from its draws (0: none; 0 for its own seat).
func (c *Counter) VoidBelief(p int, col engine.Color) float64 {
	if p < 0 || p >= engine.MaxPlayers || col >= engine.NoColor || p == c.seat && c.tv != nil {
		return 0 // (a shared reading has a row for the seat too, which the counter does not read)
	}
	c.catchUp()
	return c.voids().void[p][col]
}
