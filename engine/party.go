package engine

// The house rules of RULES.md section 7 that act outside the attack chain,
// and the UNO Party! and UNO: Encanto cards (sections 8 and 9).

// jumpable reports whether card k may be jumped in on under the jump-in
// option: numbers, and with "any" also colored actions; never wilds.
func (g *Game) jumpable(k Card) bool {
	switch {
	case k.IsWild():
		return false
	case k.IsNumber():
		return true
	}
	return g.opts.JumpIn == JumpAny
}

// jumpWindow opens before each turn (RULES.md section 7): any player but the
// one whose turn begins who holds the card identical to the top discard may
// play it out of turn. Of several who want to, one is drawn with probability
// proportional to its reaction speed. The jump is a normal play, and play
// continues after the jumper; the window then opens again.
func (g *Game) jumpWindow() {
	for !g.over {
		k := g.top
		if !g.jumpable(k) {
			return
		}
		var jumpers [MaxPlayers]int
		n := 0
		total := 0.0
		for i := 1; i < g.n; i++ {
			q := (g.current + i) % g.n
			if g.out[q] || g.hands[q].counts[k] == 0 || !g.mayPutDown(q, k) {
				continue
			}
			ms := append(g.moves[:0], CardMove(MoveJump, k), SimpleMove(MovePass))
			if g.ask(q, DecideJumpIn, ms).Kind() == MoveJump {
				jumpers[n] = q
				n++
				total += g.speed[q]
			}
		}
		if n == 0 {
			return
		}
		jumper := jumpers[0]
		if n > 1 {
			x := g.tableRng.Float64() * total
			for _, q := range jumpers[:n] {
				jumper = q
				if x -= g.speed[q]; x < 0 {
					break
				}
			}
		}
		g.count(CountJumpIn)
		g.emit(Event{Kind: EvJumpIn, Player: jumper, Card: k})
		g.playFromHand(jumper, k)
	}
}

// pointTaken resolves a Point Taken played by p (RULES.md section 8): any
// link ends, then everyone points at another player, blind, and each draws
// one card per finger, at most 5, starting with p in the current direction.
func (g *Game) pointTaken(p int) {
	g.count(CountPointTaken)
	g.endLink()
	var choice [MaxPlayers]int
	g.pointedAt = [MaxPlayers]int{}
	g.pointed = true
	for q := 0; q < g.n; q++ {
		if g.out[q] {
			continue
		}
		ms := g.moves[:0]
		for r := 0; r < g.n; r++ {
			if r != q && !g.out[r] {
				ms = append(ms, PlayerMove(MovePoint, r))
			}
		}
		choice[q] = g.ask(q, DecidePoint, ms).A()
	}
	// Only now, with every choice made, is anything revealed.
	for q := 0; q < g.n; q++ {
		if !g.out[q] {
			g.pointedAt[choice[q]]++
			g.emit(Event{Kind: EvPoint, Player: q, Other: choice[q]})
		}
	}
	q := p
	for range g.active {
		g.give(q, min(5, g.pointedAt[q]))
		q = g.nextOf(q)
	}
}

// pileUp resolves a Wild Pile Up played by p (RULES.md section 8).
func (g *Game) pileUp(p int) {
	g.miniN = 0
	for {
		if g.drawN == 0 && !g.reshuffle() {
			// No non-wild to flip: the flipped cards go under the top discard
			// and the Wild Pile Up acts as a Wild.
			for k, c := range g.mini {
				g.discard[k] += c
				g.mini[k] = 0
			}
			g.discardN += g.miniN
			g.miniN = 0
			g.color = g.askColor(p)
			g.current = g.nextOf(p)
			return
		}
		c := g.pop()
		g.mini[c]++
		g.miniN++
		if !c.IsWild() {
			g.miniColor = cardColor[c]
			break
		}
	}
	g.count(CountPileUp)
	g.color = g.miniColor
	q := g.nextOf(p)
	g.emit(Event{Kind: EvPileStart, Player: q, N: g.miniN, Color: g.miniColor})
	for !g.over {
		h := &g.hands[q]
		can := h.atLeast[0] & (colorKinds[g.miniColor] | colorKinds[NoColor])
		if g.opts.NoFinishOnAction && h.size == 1 {
			can &= numberKinds
		}
		if can == 0 {
			g.takePile(q)
			g.current = g.nextOf(q)
			return
		}
		k := g.ask(q, DecidePileUp, g.moves[:g.listPlays(can)]).Card()
		h.Remove(k)
		g.unoCalled[q] = false
		g.mini[k]++
		g.miniN++
		g.motion++
		g.res.CardsPlayed++
		g.emit(Event{Kind: EvPile, Player: q, Card: k})
		switch h.size {
		case 0:
			g.goOut(q, 0) // the last card onto the mini-pile wins at once
		case 1:
			g.unoCheck(q)
		}
		q = g.nextOf(q)
	}
}

// takePile puts the whole mini-pile into q's hand; for a link this counts
// as drawing that many (a decision of RULES.md).
func (g *Game) takePile(q int) {
	n := g.miniN
	for k, c := range g.mini {
		for range c {
			g.hands[q].Add(Card(k))
		}
		g.mini[k] = 0
	}
	g.miniN = 0
	g.unoCalled[q] = false
	g.motion += n
	g.res.Count[CountPileTaken] += n
	g.emit(Event{Kind: EvPileTake, Player: q, N: n})
	if g.linkA >= 0 {
		g.echo(q, n)
	}
}

// linkPlayers lets p link two players with a Wild Drawn Together (RULES.md
// section 8): any two distinct players still in the round, p included, but
// not the pair already linked, unless only two players are left.
func (g *Game) linkPlayers(p int) {
	ms := g.moves[:0]
	for a := 0; a < g.n; a++ {
		for b := a + 1; b < g.n; b++ {
			if g.out[a] || g.out[b] || (a == g.linkA && b == g.linkB && g.active > 2) {
				continue
			}
			ms = append(ms, LinkMove(a, b))
		}
	}
	if len(ms) == 0 {
		return
	}
	m := g.ask(p, DecideLink, ms)
	g.linkA, g.linkB = m.A(), m.B()
	g.count(CountLink)
	g.emit(Event{Kind: EvLink, Player: g.linkA, Other: g.linkB})
}

func (g *Game) endLink() {
	if g.linkA >= 0 {
		g.linkA, g.linkB = -1, -1
		g.emit(Event{Kind: EvLinkEnd})
	}
}

// chooseOther asks p to choose another player still in the round, for card k.
func (g *Game) chooseOther(p int, k Card) int {
	ms := g.moves[:0]
	for q := 0; q < g.n; q++ {
		if q != p && !g.out[q] {
			ms = append(ms, PlayerMove(MoveTarget, q))
		}
	}
	g.targetFor = k
	return g.ask(p, DecideTarget, ms).A()
}

// silence lets p silence another player with a Wild Don't Speak (RULES.md
// section 9).
func (g *Game) silence(p int) {
	t := g.chooseOther(p, WildCard(WildDontSpeak))
	g.count(CountSilence)
	g.emit(Event{Kind: EvSilence, Player: t})
	if !g.silenced[t] {
		g.silenced[t] = true
		g.nSilenced++
	}
}

// speak charges a silenced player who speaks (catches a missed UNO call or
// challenges): 3 cards, before the catch or challenge takes effect; the
// player stays silenced.
func (g *Game) speak(p int) {
	if g.silenced[p] {
		g.count(CountSpeakPenalty)
		g.emit(Event{Kind: EvSpeak, Player: p, N: speakPenalty})
		g.give(p, speakPenalty)
	}
}

// speakPenalty is the Wild Don't Speak penalty (UNO: Encanto, seed 003).
const speakPenalty = 3

// swapWith lets p swap hands with a chosen other player (a 7 under
// seven-zero, or a Wild Swap Hands); both lose their UNO status and whoever
// now holds one card gets a UNO check.
func (g *Game) swapWith(p int, k Card) {
	t := g.chooseOther(p, k)
	g.hands[p], g.hands[t] = g.hands[t], g.hands[p]
	g.unoCalled[p], g.unoCalled[t] = false, false
	g.emit(Event{Kind: EvSwap, Player: p, Other: t})
	for _, q := range [2]int{p, t} {
		if g.hands[q].size == 1 && !g.over {
			g.unoCheck(q)
		}
	}
}

// rotateHands passes every hand to the next player in the direction of
// play (a 0 under seven-zero); then whoever holds one card gets a UNO
// check, starting with p.
func (g *Game) rotateHands(p int) {
	first := g.hands[p]
	q := p
	for {
		prev := g.prevOf(q)
		if prev == p {
			g.hands[q] = first
			break
		}
		g.hands[q] = g.hands[prev]
		q = prev
	}
	g.emit(Event{Kind: EvRotate, N: g.dir})
	q = p
	for range g.active {
		g.unoCalled[q] = false
		q = g.nextOf(q)
	}
	for range g.active {
		if g.hands[q].size == 1 {
			g.unoCheck(q)
		}
		q = g.nextOf(q)
	}
}

// prevOf is the player before p in the current direction.
func (g *Game) prevOf(p int) int {
	g.dir = -g.dir
	q := g.nextOf(p)
	g.dir = -g.dir
	return q
}
