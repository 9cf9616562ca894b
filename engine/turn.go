package engine

import "math/bits"

// playable reports whether card k may be put on the discard pile (RULES.md
// section 3): a wild, or a match of the current color or the top's symbol.
func (g *Game) playable(k Card) bool {
	return k.IsWild() || cardColor[k] == g.color || cardSymbol[k] == cardSymbol[g.top]
}

// mayPutDown reports whether p may put card k down by any kind of play:
// with no-finish-on-action the last card must be a number card (RULES.md
// section 4).
func (g *Game) mayPutDown(p int, k Card) bool {
	return !g.opts.NoFinishOnAction || g.hands[p].size != 1 || k.IsNumber()
}

// Step plays one turn: the jump-in window, then the current player's play or
// draw with every effect and response, up to the choice of the next player.
func (g *Game) Step() {
	if g.over {
		return
	}
	before := g.motion
	if g.opts.JumpIn != JumpOff {
		g.jumpWindow()
		if g.over {
			return
		}
	}
	p := g.current
	if g.res.FirstToAct < 0 {
		g.res.FirstToAct = p
	}
	g.turn()
	g.emit(Event{Kind: EvTurn, Player: p, N: g.turns})

	m := g.ask(p, DecideTurn, g.turnMoves(p))
	if m.Kind() == MovePlay {
		g.playFromHand(p, m.Card())
	} else {
		if g.plays != 0 {
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

// turn counts a turn (RULES.md section 3): a turn played on one's own turn,
// including a response that plays a card (a stack or a deflection).
func (g *Game) turn() {
	g.turns++
	g.res.Turns++
}

// turnMoves lists the legal moves of p's turn: one Play per playable kind
// (in kind order), then Draw unless forced-play requires a play.
func (g *Game) turnMoves(p int) []Move {
	n := g.listPlays(g.turnPlays(p))
	if !g.opts.ForcedPlay || n == 0 {
		g.moves[n&(maxMoves-1)] = SimpleMove(MoveDraw)
		n++
	}
	return g.moves[:n]
}

// turnPlays is the set of kinds p may play on the turn (bit k for kind k).
func (g *Game) turnPlays(p int) uint64 {
	h := &g.hands[p]
	kinds := h.atLeast[0] & g.playableKinds()
	if g.opts.NoFinishOnAction && h.size == 1 {
		kinds &= numberKinds // the last card must be a number
	}
	return kinds
}

// listPlays writes one Play move per kind in kinds, in kind order, at the
// start of g.moves, records kinds for View.Plays, and returns the count.
func (g *Game) listPlays(kinds uint64) int {
	g.plays = kinds
	// The first four moves are written whatever their number, in straight
	// code: a loop that stops at the number of playable kinds costs a
	// mispredicted branch nearly every turn, and few turns offer more than
	// four kinds. Moves past the count are never offered.
	m := kinds
	ms := (*[4]Move)(g.moves[:4])
	ms[0] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[1] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[2] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[3] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	for i := 4; m != 0; i++ {
		g.moves[i&(maxMoves-1)] = PlayMove(Card(bits.TrailingZeros64(m)))
		m &= m - 1
	}
	return bits.OnesCount64(kinds)
}

// playableKinds is the set of kinds that may be played now (bit k for kind k).
func (g *Game) playableKinds() uint64 {
	m := colorKinds[g.color] | colorKinds[NoColor]
	if sym := cardSymbol[g.top]; !sym.IsWild() {
		m |= symbolKinds[sym]
	}
	return m
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
// illegal Wild Draw Four, which may be played as a bluff or kept (a
// decision: RULES.md only says no one is forced to bluff).
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

// draw moves up to k cards from the draw pile to p's hand, reshuffling the
// discard pile when the draw pile runs out, and returns how many were
// drawn; the last is g.drawn. It applies no link.
func (g *Game) draw(p, k int) int {
	got := 0
	for got < k {
		if g.drawN == 0 && !g.reshuffle() {
			break
		}
		c := g.pop()
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

// take makes p draw up to k cards (a turn's draw) and returns how many were
// drawn; a link partner then draws as many (RULES.md section 8).
func (g *Game) take(p, k int) int {
	got := g.draw(p, k)
	if got > 0 && g.linkA >= 0 {
		drawn := g.drawn
		g.echo(p, got)
		g.drawn = drawn // the echo's cards are the partner's, not p's drawn card
	}
	return got
}

// give makes p draw k owed cards; those that cannot be drawn are forgiven.
// A link partner then draws as many as p received.
func (g *Game) give(p, k int) {
	if k <= 0 {
		return
	}
	got := g.draw(p, k)
	g.forgive(p, k-got)
	if got > 0 && g.linkA >= 0 {
		g.echo(p, got)
	}
}

func (g *Game) forgive(p, n int) {
	if n > 0 {
		g.res.Count[CountForgiven] += n
		g.emit(Event{Kind: EvForgiven, Player: p, N: n})
	}
}

// echo makes p's link partner, if any, draw n cards: the link's echo, which
// echoes nothing back.
func (g *Game) echo(p, n int) {
	partner := -1
	switch p {
	case g.linkA:
		partner = g.linkB
	case g.linkB:
		partner = g.linkA
	}
	if partner < 0 || partner == p || g.out[partner] {
		return
	}
	got := g.draw(partner, n)
	g.res.Count[CountLinkEcho] += got
	g.forgive(partner, n-got)
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
	g.drawN = n
	if !g.reshuffled {
		g.reshuffleRng.seedFrom(g.key, PurposeReshuffle+Purpose(g.round))
		g.reshuffled = true
	}
	g.reshuffleRng.ShuffleCards(g.drawPile[:n])
	g.count(CountReshuffle)
	g.emit(Event{Kind: EvReshuffle, N: n})
	return true
}
