package engine

import "math/bits"

// The house rules of RULES.md section 7 that act outside the attack chain,
// and the UNO Party! and UNO: Encanto cards (sections 8 and 9).

// jumpable reports whether card k may be jumped in on under the jump-in
// option: numbers, and with "any" also colored actions; never wilds.
func (s *State) jumpable(k Card) bool {
	switch {
	case k.IsWild():
		return false
	case k.IsNumber():
		return true
	}
	return s.t.opts.JumpIn == JumpAny
}

// jumpWindow opens before each turn (RULES.md section 7): any player but the
// one whose turn begins who holds the card identical to the top discard may
// play it out of turn. Of several who want to, one is drawn with probability
// proportional to its reaction speed. The jump is a normal play, and play
// continues after the jumper; the window then opens again. When it closes,
// the turn begins.
func (s *State) jumpWindow() bool {
	for !s.over {
		// The window's state lives in locals and is saved only when it
		// stops: storing it on every turn stalls the loads that follow.
		// (Only the step's own decisions, a turn and a drawn card, are asked
		// at once by a Game: a position copied during any other decision
		// must hold every level's saved state.)
		k, i, n, total := s.top, 1, 0, 0.0
		var jumpers [MaxPlayers]int8
		if w := &s.jw; w.collecting {
			k, i, n, total, jumpers = w.k, w.i, w.n, w.total, w.jumpers
			w.collecting = false
		} else if !s.jumpable(k) {
			break
		}
		for ; i < s.t.n; i++ {
			q := (s.current + i) % s.t.n
			if s.out[q] || s.hands[q].counts[k] == 0 || !s.mayPutDown(q, k) {
				continue
			}
			s.jw = jumpCtx{collecting: true, k: k, i: i, n: n, jumpers: jumpers, total: total}
			s.suspend(q, DecideJumpIn)
			return false
		}
		if n == 0 {
			break
		}
		jumper := int(jumpers[0])
		if n > 1 {
			x := s.tableRng.Float64() * total
			for _, q := range jumpers[:n] {
				jumper = int(q)
				if x -= s.t.speed[q]; x < 0 {
					break
				}
			}
		}
		s.count(CountJumpIn)
		s.emit(Event{Kind: EvJumpIn, Player: jumper, Card: k})
		if !s.playFromHand(jumper, k, phJump) {
			s.basePh = phJump
			return false
		}
	}
	if s.over {
		return true
	}
	return s.turnBegin()
}

// jumpChosen records the deciding seat's answer in the jump-in window and
// goes on with it.
func (s *State) jumpChosen(m Move) bool {
	if w := &s.jw; m.Kind() == MoveJump {
		w.jumpers[w.n] = int8(s.seat)
		w.n++
		w.total += s.t.speed[s.seat]
	}
	s.jw.i++
	return s.jumpWindow()
}

// pointTaken resolves a Point Taken played by p (RULES.md section 8): any
// link ends, then everyone points at another player, blind, and each draws
// one card per finger, at most 5, starting with p in the current direction.
// Then the next player is next, or with next < 0 (a start card) play stays
// with the current player.
func (s *State) pointTaken(p, next int) bool {
	s.count(CountPointTaken)
	s.endLink()
	s.pointedAt = [MaxPlayers]int{}
	s.pointed = true
	s.ef = effectCtx{kind: efPoint, p: p, next: next}
	return s.pointLoop()
}

func (s *State) pointLoop() bool {
	e := &s.ef
	for ; e.q < s.t.n; e.q++ {
		q := e.q
		if s.out[q] {
			continue
		}
		if s.active == 2 {
			e.choice[q] = int8(s.firstOther(q)) // a single choice is not asked
			continue
		}
		s.mid = midEffect
		s.suspend(q, DecidePoint)
		return false
	}
	// Only now, with every choice made, is anything revealed.
	for q := 0; q < s.t.n; q++ {
		if !s.out[q] {
			s.pointedAt[e.choice[q]]++
			s.emit(Event{Kind: EvPoint, Player: q, Other: int(e.choice[q])})
		}
	}
	q := e.p
	for range s.active {
		s.give(q, min(5, s.pointedAt[q]))
		q = s.nextOf(q)
	}
	if e.next >= 0 {
		s.current = e.next
	}
	return true
}

func (s *State) pointChosen(m Move) bool {
	e := &s.ef
	e.choice[e.q] = int8(m.A())
	e.q++
	return s.pointLoop()
}

// firstOther is the lowest seat other than q still in the round, or -1.
func (s *State) firstOther(q int) int {
	for r := 0; r < s.t.n; r++ {
		if r != q && !s.out[r] {
			return r
		}
	}
	return -1
}

// pileUp resolves a Wild Pile Up played by p (RULES.md section 8).
func (s *State) pileUp(p int) bool {
	s.miniN = 0
	for {
		if s.drawN == 0 && !s.reshuffle() {
			// No non-wild to flip: the flipped cards go under the top discard
			// and the Wild Pile Up acts as a Wild.
			for k, c := range s.mini {
				s.discard[k] += c
				s.mini[k] = 0
			}
			s.discardN += s.miniN
			s.miniN = 0
			s.ef = effectCtx{kind: efPile, p: p, ph: phPileColor}
			s.mid = midEffect
			s.suspend(p, DecideColor)
			return false
		}
		c := s.pop()
		s.mini[c]++
		s.miniN++
		s.emit(Event{Kind: EvPileFlip, Card: c, N: s.miniN})
		if !c.IsWild() {
			s.miniColor = cardColor[c]
			break
		}
	}
	s.count(CountPileUp)
	s.color = s.miniColor
	q := s.nextOf(p)
	s.emit(Event{Kind: EvPileStart, Player: q, N: s.miniN, Color: s.miniColor})
	s.ef = effectCtx{kind: efPile, p: p, q: q}
	return s.pileLoop()
}

// pileLoop goes round the table from s.ef.q: each player must put a card of
// the mini-pile's color or a wild on it, until one cannot and takes it.
func (s *State) pileLoop() bool {
	e := &s.ef
	for !s.over {
		q := e.q
		h := &s.hands[q]
		can := h.atLeast[0] & (colorKinds[s.miniColor] | colorKinds[NoColor])
		if s.t.opts.NoFinishOnAction && h.size == 1 {
			can &= numberKinds
		}
		if can == 0 {
			s.takePile(q)
			s.current = s.nextOf(q)
			return true
		}
		s.plays = can
		if can&(can-1) != 0 {
			s.mid = midEffect
			s.suspend(q, DecidePileUp)
			return false
		}
		if !s.pilePlay(q, Card(bits.TrailingZeros64(can))) {
			return false
		}
	}
	return true
}

// pileChosen continues the pile-up with the card q put on it.
func (s *State) pileChosen(m Move) bool {
	if !s.pilePlay(s.ef.q, m.Card()) {
		return false
	}
	return s.pileLoop()
}

// pilePlay puts card k from q's hand on the mini-pile and moves on to the
// next player; it reports false when it stops at q's UNO check.
func (s *State) pilePlay(q int, k Card) bool {
	h := &s.hands[q]
	h.Remove(k)
	s.unoCalled[q] = false
	s.mini[k]++
	s.miniN++
	s.motion++
	s.res.CardsPlayed++
	s.emit(Event{Kind: EvPile, Player: q, Card: k})
	switch h.size {
	case 0:
		s.goOut(q, 0) // the last card onto the mini-pile wins at once
	case 1:
		if !s.unoCheck(q) {
			s.mid, s.ef.ph = midEffect, phPileUno
			return false
		}
	}
	s.ef.q = s.nextOf(q)
	return true
}

// takePile puts the whole mini-pile into q's hand; for a link this counts
// as drawing that many (a decision of RULES.md).
func (s *State) takePile(q int) {
	n := s.miniN
	for k, c := range s.mini {
		for range c {
			s.hands[q].Add(Card(k))
		}
		s.mini[k] = 0
	}
	s.miniN = 0
	s.unoCalled[q] = false
	s.motion += n
	s.res.Count[CountPileTaken] += n
	s.emit(Event{Kind: EvPileTake, Player: q, N: n})
	if s.linkA >= 0 {
		s.echo(q, n)
	}
}

// linkPairs calls f for every pair p may link with a Wild Drawn Together
// (RULES.md section 8): any two distinct players still in the round, p
// included, but not the pair already linked, unless only two are left.
func (s *State) linkPairs(f func(a, b int)) {
	for a := 0; a < s.t.n; a++ {
		for b := a + 1; b < s.t.n; b++ {
			if s.out[a] || s.out[b] || (a == s.linkA && b == s.linkB && s.active > 2) {
				continue
			}
			f(a, b)
		}
	}
}

// linkPlayers lets p link two players with a Wild Drawn Together.
func (s *State) linkPlayers(p, next int) bool {
	n, only := 0, Move(0)
	s.linkPairs(func(a, b int) {
		n++
		only = LinkMove(a, b)
	})
	s.ef = effectCtx{kind: efLink, p: p, next: next}
	switch n {
	case 0:
		s.current = next
		return true
	case 1:
		return s.linkChosen(only)
	}
	s.mid = midEffect
	s.suspend(p, DecideLink)
	return false
}

func (s *State) linkChosen(m Move) bool {
	s.linkA, s.linkB = m.A(), m.B()
	s.count(CountLink)
	s.emit(Event{Kind: EvLink, Player: s.linkA, Other: s.linkB})
	s.current = s.ef.next
	return true
}

func (s *State) endLink() {
	if s.linkA >= 0 {
		s.linkA, s.linkB = -1, -1
		s.emit(Event{Kind: EvLinkEnd})
	}
}

// chooseOther asks p to choose another player still in the round for card
// k; it reports the choice, or -1 when it stopped at p's decision.
func (s *State) chooseOther(p int, k Card) int {
	s.targetFor = k
	if s.active == 2 {
		return s.firstOther(p)
	}
	s.mid = midEffect
	s.suspend(p, DecideTarget)
	return -1
}

// targetChosen continues the effect that asked for a target.
func (s *State) targetChosen(m Move) bool {
	if s.ef.kind == efSilence {
		return s.silenceTo(m.A())
	}
	return s.swapTo(m.A())
}

// silence lets p silence another player with a Wild Don't Speak (RULES.md
// section 9).
func (s *State) silence(p, next int) bool {
	s.ef = effectCtx{kind: efSilence, p: p, next: next}
	t := s.chooseOther(p, WildCard(WildDontSpeak))
	if t < 0 {
		return false
	}
	return s.silenceTo(t)
}

func (s *State) silenceTo(t int) bool {
	s.count(CountSilence)
	s.emit(Event{Kind: EvSilence, Player: t})
	if !s.silenced[t] {
		s.silenced[t] = true
		s.nSilenced++
	}
	s.current = s.ef.next
	return true
}

// speak charges a silenced player who speaks (catches a missed UNO call or
// challenges): 3 cards, before the catch or challenge takes effect; the
// player stays silenced.
func (s *State) speak(p int) {
	if s.silenced[p] {
		s.count(CountSpeakPenalty)
		s.emit(Event{Kind: EvSpeak, Player: p, N: speakPenalty})
		s.give(p, speakPenalty)
	}
}

// speakPenalty is the Wild Don't Speak penalty (UNO: Encanto, seed 003).
const speakPenalty = 3

// swapWith lets p swap hands with a chosen other player (a 7 under
// seven-zero, or a Wild Swap Hands); both lose their UNO status and whoever
// now holds one card gets a UNO check. Then next plays.
func (s *State) swapWith(p int, k Card, next int) bool {
	s.ef = effectCtx{kind: efSwap, p: p, k: k, next: next}
	t := s.chooseOther(p, k)
	if t < 0 {
		return false
	}
	return s.swapTo(t)
}

func (s *State) swapTo(t int) bool {
	e := &s.ef
	p := e.p
	s.hands[p], s.hands[t] = s.hands[t], s.hands[p]
	s.unoCalled[p], s.unoCalled[t] = false, false
	s.emit(Event{Kind: EvSwap, Player: p, Other: t})
	e.victim, e.q = t, 0
	return s.swapChecks()
}

// swapChecks runs the UNO checks after a swap: the player of the card
// first, then the other.
func (s *State) swapChecks() bool {
	e := &s.ef
	for e.q < 2 {
		q := e.p
		if e.q == 1 {
			q = e.victim
		}
		e.q++
		if s.hands[q].size == 1 && !s.over && !s.unoCheck(q) {
			s.mid, e.ph = midEffect, phSwapUno
			return false
		}
	}
	s.current = e.next
	return true
}

// rotateHands passes every hand to the next player in the direction of
// play (a 0 under seven-zero); then whoever holds one card gets a UNO
// check, starting with p.
func (s *State) rotateHands(p, next int) bool {
	first := s.hands[p]
	q := p
	for {
		prev := s.prevOf(q)
		if prev == p {
			s.hands[q] = first
			break
		}
		s.hands[q] = s.hands[prev]
		q = prev
	}
	s.emit(Event{Kind: EvRotate, N: s.dir})
	q = p
	for range s.active {
		s.unoCalled[q] = false
		q = s.nextOf(q)
	}
	s.ef = effectCtx{kind: efRotate, p: p, next: next, q: p, i: 0}
	return s.rotateChecks()
}

func (s *State) rotateChecks() bool {
	e := &s.ef
	for e.i < s.active {
		q := e.q
		e.i++
		e.q = s.nextOf(q)
		if s.hands[q].size == 1 && !s.unoCheck(q) {
			s.mid, e.ph = midEffect, phRotateUno
			return false
		}
	}
	s.current = e.next
	return true
}

// prevOf is the player before p in the current direction.
func (s *State) prevOf(p int) int {
	s.dir = -s.dir
	q := s.nextOf(p)
	s.dir = -s.dir
	return q
}
