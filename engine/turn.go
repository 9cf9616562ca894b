package engine

import "math/bits"

// playable reports whether card k may be put on the discard pile (RULES.md
// section 3): a wild, or a match of the current color or the top's symbol.
func (s *State) playable(k Card) bool {
	return k.IsWild() || cardColor[k] == s.color || cardSymbol[k] == cardSymbol[s.top]
}

// mayPutDown reports whether p may put card k down by any kind of play:
// with no-finish-on-action the last card must be a number card (RULES.md
// section 4).
func (s *State) mayPutDown(p int, k Card) bool {
	return !s.t.opts.NoFinishOnAction || s.hands[p].size != 1 || k.IsNumber()
}

// beginTurn begins a step: the jump-in window, then the current player's
// turn with every effect and response, up to the choice of the next
// player. It reports whether the step finished without a pending decision.
func (s *State) beginTurn() bool {
	s.stepMotion = s.motion
	if s.t.opts.JumpIn != JumpOff {
		return s.jumpWindow()
	}
	return s.turnBegin()
}

// turnBegin begins the current player's turn proper.
func (s *State) turnBegin() bool {
	p := s.current
	if s.res.FirstToAct < 0 {
		s.res.FirstToAct = p
	}
	s.turn()
	s.turnP, s.turnColor, s.turnActed = p, s.color, 0
	s.emit(Event{Kind: EvTurn, Player: p, N: s.turns})
	plays := s.turnPlays(p)
	s.plays = plays
	// A turn with a single legal move is taken without asking.
	if plays == 0 {
		return s.turnChosen(SimpleMove(MoveDraw))
	}
	if s.t.opts.ForcedPlay && plays&(plays-1) == 0 {
		return s.turnChosen(PlayMove(Card(bits.TrailingZeros64(plays))))
	}
	s.suspend(p, DecideTurn)
	if g := s.drv; g != nil {
		return s.turnChosen(g.askTurn(p))
	}
	return false
}

// turnChosen continues the turn with the current player's move m.
func (s *State) turnChosen(m Move) bool {
	p := s.current
	if m.Kind() == MovePlay {
		if !s.playFromHand(p, m.Card(), phTurnPlay) {
			s.basePh = phTurnPlay
			return false
		}
		return s.turnTail()
	}
	if s.plays != 0 {
		s.count(CountVoluntaryDraw)
	}
	return s.drawTurn(p)
}

// turnTail ends a step: a round in which no one drew or played for a whole
// round of turns is blocked, and one that reached max-turns is unfinished.
func (s *State) turnTail() bool {
	if s.over {
		return true
	}
	if s.motion == s.stepMotion {
		s.idle++
		if s.idle >= s.active {
			s.endRoundAs(Blocked)
			return true
		}
	} else {
		s.idle = 0
	}
	if s.turns >= s.t.opts.MaxTurns {
		s.endRoundAs(Unfinished)
	}
	return true
}

// turn counts a turn (RULES.md section 3): a turn played on one's own turn,
// including a response that plays a card (a stack or a deflection).
func (s *State) turn() {
	s.turns++
	s.res.Turns++
}

// turnLegal reports whether m is one of the pending turn's moves.
func (s *State) turnLegal(m Move) bool {
	if m.Kind() == MovePlay {
		k := m.Card()
		return m == PlayMove(k) && k.Valid() && s.plays>>k&1 != 0
	}
	return m == SimpleMove(MoveDraw) && (!s.t.opts.ForcedPlay || s.plays == 0)
}

// firstTurnMove is the first of the pending turn's moves.
func (s *State) firstTurnMove() Move {
	if s.plays != 0 {
		return PlayMove(Card(bits.TrailingZeros64(s.plays)))
	}
	return SimpleMove(MoveDraw)
}

// turnMoves writes the pending turn's moves at the start of buf, which has
// room for them and for 4 moves at least, and returns their number: one
// Play per kind of s.plays, then Draw unless forced-play requires a play.
func (s *State) turnMoves(buf []Move) int {
	n := listPlays(s.plays, buf)
	if !s.t.opts.ForcedPlay || s.plays == 0 {
		buf[n] = SimpleMove(MoveDraw)
		n++
	}
	return n
}

// turnPlays is the set of kinds p may play on the turn (bit k for kind k).
func (s *State) turnPlays(p int) uint64 {
	h := &s.hands[p]
	kinds := h.atLeast[0] & s.playableKinds()
	if s.t.opts.NoFinishOnAction && h.size == 1 {
		kinds &= numberKinds // the last card must be a number
	}
	return kinds
}

// listPlays writes one Play move per kind in kinds, in kind order, at the
// start of buf, which must have room for 4 moves at least, and returns the
// count.
func listPlays(kinds uint64, buf []Move) int {
	// The first four moves are written whatever their number, in straight
	// code: a loop that stops at the number of playable kinds costs a
	// mispredicted branch nearly every turn, and few turns offer more than
	// four kinds. Moves past the count are never offered.
	m := kinds
	ms := (*[4]Move)(buf[:4])
	ms[0] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[1] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[2] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	ms[3] = PlayMove(Card(bits.TrailingZeros64(m)))
	m &= m - 1
	for i := 4; m != 0; i++ {
		buf[i] = PlayMove(Card(bits.TrailingZeros64(m)))
		m &= m - 1
	}
	return bits.OnesCount64(kinds)
}

// playableKinds is the set of kinds that may be played now (bit k for kind k).
func (s *State) playableKinds() uint64 {
	m := colorKinds[s.color] | colorKinds[NoColor]
	if sym := cardSymbol[s.top]; !sym.IsWild() {
		m |= symbolKinds[sym]
	}
	return m
}

// drawTurn is a turn spent drawing (RULES.md section 3).
func (s *State) drawTurn(p int) bool {
	for {
		if s.take(p, 1) == 0 {
			break
		}
		c := s.drawn
		if s.playable(c) {
			// The drawn card may be played. With must-play-drawn the choice
			// is forced, except for an illegal Wild Draw Four, which may be
			// played as a bluff or kept (a decision: RULES.md only says no
			// one is forced to bluff).
			if !s.t.opts.MustPlayDrawn || (c.Symbol() == WildDrawFour && !s.wd4Legal(p, c)) {
				g := s.drv
				if g != nil && g.playsDrawn[p] {
					if c.Symbol() == WildDrawFour && !s.wd4Legal(p, c) {
						return s.keepDrawn(p)
					}
					return s.playDrawn(p, c)
				}
				s.suspend(p, DecideDrawn)
				if g != nil {
					return s.drawnChosen(g.ask())
				}
				return false
			}
			return s.playDrawn(p, c)
		}
		if s.t.opts.Draw != DrawUntilPlayable {
			break
		}
	}
	s.current = s.nextOf(p)
	return s.turnTail()
}

// drawnChosen continues after p chose to play or keep the drawn card.
func (s *State) drawnChosen(m Move) bool {
	p := s.seat
	if m.Kind() != MovePlay {
		return s.keepDrawn(p)
	}
	return s.playDrawn(p, s.drawn)
}

// keepDrawn ends p's turn keeping the card drawn.
func (s *State) keepDrawn(p int) bool {
	s.emit(Event{Kind: EvKeep, Player: p})
	s.current = s.nextOf(p)
	return s.turnTail()
}

func (s *State) playDrawn(p int, c Card) bool {
	s.count(CountPlayDrawn)
	if !s.playFromHand(p, c, phTurnPlay) {
		s.basePh = phTurnPlay
		return false
	}
	return s.turnTail()
}

// wd4Legal reports whether p may play the Wild Draw Four k from the hand
// now (RULES.md section 4): judged on the hand without that card against
// the current (reference) color. Another Wild Draw Four never counts.
func (s *State) wd4Legal(p int, k Card) bool {
	h := &s.hands[p]
	if h.colors[s.color] != 0 {
		return false
	}
	if s.t.opts.WD4Legal == NoColorMatch {
		return true
	}
	otherWilds := int(h.colors[NoColor]) - int(h.counts[WildCard(WildDrawFour)])
	if otherWilds > 0 {
		return false
	}
	if s.t.opts.WD4Legal == NoPlayable {
		if sym := cardSymbol[s.top]; !sym.IsWild() {
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
// drawn; the last is s.drawn. It applies no link.
func (s *State) draw(p, k int) int {
	got := 0
	for got < k {
		if s.drawN == 0 && !s.reshuffle() {
			break
		}
		c := s.pop()
		s.hands[p].Add(c)
		s.drawn = c
		got++
		s.emit(Event{Kind: EvDrawCard, Player: p, Card: c})
	}
	if got > 0 {
		s.unoCalled[p] = false
		s.motion += got
		s.res.CardsDrawn += got
	}
	if s.hears(EvDraw) {
		s.sink.drew(s, p, k, got) // (s.emit's EvDraw, with a path of its own)
	}
	return got
}

// take makes p draw up to k cards (a turn's draw) and returns how many were
// drawn; a link partner then draws as many (RULES.md section 8).
func (s *State) take(p, k int) int {
	got := s.draw(p, k)
	if got > 0 && s.linkA >= 0 {
		drawn := s.drawn
		s.echo(p, got)
		s.drawn = drawn // the echo's cards are the partner's, not p's drawn card
	}
	return got
}

// give makes p draw k owed cards; those that cannot be drawn are forgiven.
// A link partner then draws as many as p received.
func (s *State) give(p, k int) {
	if k <= 0 {
		return
	}
	got := s.draw(p, k)
	s.forgive(p, k-got)
	if got > 0 && s.linkA >= 0 {
		s.echo(p, got)
	}
}

func (s *State) forgive(p, n int) {
	if n > 0 {
		s.res.Count[CountForgiven] += n
		s.emit(Event{Kind: EvForgiven, Player: p, N: n})
	}
}

// echo makes p's link partner, if any, draw n cards: the link's echo, which
// echoes nothing back.
func (s *State) echo(p, n int) {
	partner := -1
	switch p {
	case s.linkA:
		partner = s.linkB
	case s.linkB:
		partner = s.linkA
	}
	if partner < 0 || partner == p || s.out[partner] {
		return
	}
	got := s.draw(partner, n)
	s.res.Count[CountLinkEcho] += got
	s.forgive(partner, n-got)
}

// reshuffle turns the discard pile, except its top card, into a new draw
// pile. It reports whether there is anything to draw.
func (s *State) reshuffle() bool {
	if s.discardN <= 1 {
		return false
	}
	n := 0
	for k := range s.discard {
		c := int(s.discard[k])
		if Card(k) == s.top {
			c--
		}
		for range c {
			s.drawPile[n] = Card(k)
			n++
		}
		s.discard[k] = 0
	}
	s.discard[s.top] = 1
	s.discardN = 1
	s.drawN = n
	if !s.reshuffled {
		s.reshuffleRng.seedFrom(s.key, PurposeReshuffle+Purpose(s.round))
		s.reshuffled = true
	}
	s.reshuffleRng.ShuffleCards(s.drawPile[:n])
	s.count(CountReshuffle)
	s.emit(Event{Kind: EvReshuffle, N: n})
	return true
}
