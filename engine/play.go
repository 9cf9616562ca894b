package engine

// place puts card k from p's hand on the discard pile (RULES.md section 4,
// step 1) and names the color of a wild. It returns the reference color and
// the card below, and for a Wild Draw Four whether it was legal, judged on
// the hand it was played from.
func (g *Game) place(p int, k Card) (ref Color, below Card, legal bool) {
	ref, below, legal = g.color, g.top, true
	sym := cardSymbol[k]
	switch sym {
	case WildDrawFour:
		legal = g.wd4Legal(p, k)
		g.count(CountWildDrawFour)
		if !legal {
			g.count(CountBluff)
		}
	case DrawTwo:
		g.count(CountDrawTwo)
	case Wild:
		g.count(CountWild)
	}
	h := &g.hands[p]
	h.Remove(k)
	g.unoCalled[p] = false
	g.pushDiscard(k)
	g.motion++
	g.res.CardsPlayed++
	g.emit(Event{Kind: EvPlay, Player: p, Card: k})
	switch {
	case !k.IsWild():
		g.color = cardColor[k]
	case sym == WildPileUp:
		// It names no color; the mini-pile's color follows (RULES.md section 8).
	case h.size > 0 || g.playsOn():
		g.color = g.askColor(p)
	}
	return ref, below, legal
}

// playsOn reports whether the round goes on after a player goes out.
func (g *Game) playsOn() bool { return g.opts.PlayForPlaces && g.active > 2 }

// exchanges reports whether card k exchanges hands, so that its UNO check
// follows the exchange.
func (g *Game) exchanges(k Card) bool {
	s := cardSymbol[k]
	return s == WildSwapHands || (g.opts.SevenZero && (s == Seven || s == Zero) && !k.IsWild())
}

// playFromHand puts card k from p's hand down and resolves it (RULES.md
// section 4), leaving g.current at the next player.
func (g *Game) playFromHand(p int, k Card) {
	ref, below, legal := g.place(p, k)
	if g.hands[p].size == 0 {
		g.goOut(p, owed(k))
		return
	}
	if g.hands[p].size == 1 && !g.exchanges(k) {
		g.unoCheck(p)
	}
	g.effect(p, k, ref, below, legal)
}

// owed is the number of cards a last card still makes the next player draw.
func owed(k Card) int {
	switch cardSymbol[k] {
	case DrawTwo:
		return 2
	case WildDrawFour:
		return 4
	}
	return 0
}

// effect applies card k's effect after p played it (RULES.md sections 4, 7-9).
//
// The classic cards are told apart by comparisons, most frequent first, and
// the variants' cards in a switch of their own: a switch over every symbol
// compiles to an indirect jump whose misprediction cost classic games 3%.
func (g *Game) effect(p int, k Card, ref Color, below Card, legal bool) {
	next := g.nextOf(p)
	sym := cardSymbol[k]
	if sym <= Nine {
		if g.opts.SevenZero && (sym == Seven || sym == Zero) {
			g.sevenZero(p, k)
		}
		g.current = next
		return
	}
	if sym == Skip {
		g.skipAttack(p, next, k)
	} else if sym == Reverse {
		g.count(CountReverse)
		g.dir = -g.dir
		g.emit(Event{Kind: EvReverse, N: g.dir})
		if g.active == 2 && g.opts.TwoPlayerReverse == ReverseSkips {
			g.skip(g.nextOf(p))
			g.current = p
		} else {
			g.current = g.nextOf(p)
		}
	} else if sym == DrawTwo {
		g.drawAttack(p, next, DrawTwo, 2, ref, below, legal)
	} else if sym == WildDrawFour {
		g.drawAttack(p, next, WildDrawFour, 4, ref, below, legal)
	} else if sym == Wild {
		g.current = next
	} else {
		g.variantEffect(p, k, next)
	}
}

// sevenZero applies a 7 or a 0 under the seven-zero house rule.
func (g *Game) sevenZero(p int, k Card) {
	if cardSymbol[k] == Seven {
		if g.active > 1 {
			g.count(CountSevenSwap)
			g.swapWith(p, k)
		}
		return
	}
	g.count(CountZeroRotate)
	g.rotateHands(p)
}

// variantEffect applies the effect of a UNO Party!, UNO: Encanto or house
// card (RULES.md sections 7-9).
func (g *Game) variantEffect(p int, k Card, next int) {
	switch cardSymbol[k] {
	case PointTaken:
		g.pointTaken(p)
		g.current = next
	case WildPileUp:
		g.pileUp(p)
	case WildDrawnTogether:
		g.linkPlayers(p)
		g.current = next
	case WildDontSpeak:
		g.silence(p)
		g.current = next
	case WildSwapHands:
		g.count(CountSwapHands)
		g.swapWith(p, k)
		g.current = next
	}
}

func (g *Game) skip(p int) {
	g.count(CountSkip)
	g.emit(Event{Kind: EvSkip, Player: p})
}

// skipAttack skips victim of p's Skip k; under deflect-skip the victim may
// pass the skip on by playing the identical Skip (RULES.md section 7).
func (g *Game) skipAttack(p, victim int, k Card) {
	for g.opts.DeflectSkip && g.hands[victim].counts[k] != 0 && g.mayPutDown(victim, k) {
		g.pendingSym, g.pendingN, g.pendingBy = Skip, 0, p
		ms := append(g.moves[:0], SimpleMove(MoveAccept), CardMove(MoveDeflect, k))
		if g.ask(victim, DecideRespond, ms).Kind() != MoveDeflect {
			break
		}
		g.count(CountDeflect)
		g.turn()
		g.emit(Event{Kind: EvDeflect, Player: victim, Card: k})
		g.place(victim, k)
		if g.hands[victim].size == 0 {
			g.goOut(victim, 0)
			return
		}
		if g.hands[victim].size == 1 {
			g.unoCheck(victim)
		}
		p, victim = victim, g.nextOf(victim)
	}
	g.skip(victim)
	g.current = g.nextOf(victim)
}

// drawAttack resolves a pending Draw Two or Wild Draw Four of total cards
// played by p against victim (RULES.md sections 4 and 7): the victim
// accepts (draws and loses the turn), challenges a Wild Draw Four, or,
// under the house rules, stacks or deflects, which passes the attack on.
func (g *Game) drawAttack(p, victim int, sym Symbol, total int, ref Color, below Card, legal bool) {
	if sym == DrawTwo && !g.d2Responses {
		g.give(victim, total) // nothing to answer with: the classic rules
		g.skip(victim)
		g.current = g.nextOf(victim)
		return
	}
	for {
		g.pendingSym, g.pendingN, g.pendingBy, g.refColor, g.refTop = sym, total, p, ref, below
		m := g.ask(victim, DecideRespond, g.respondMoves(victim, sym, g.moves[:0]))
		switch m.Kind() {
		case MoveChallenge:
			g.challenge(p, victim, total, ref, below, legal)
			return
		case MoveStack, MoveDeflect:
			k := m.Card()
			g.turn()
			if m.Kind() == MoveStack {
				g.count(CountStack)
				total += owed(k)
				g.emit(Event{Kind: EvStack, Player: victim, Card: k, N: total})
			} else {
				g.count(CountDeflect)
				total = 2 // a deflected attack does not grow, and a Wild Draw Four becomes a Draw Two
				g.emit(Event{Kind: EvDeflect, Player: victim, Card: k})
			}
			ref, below, legal = g.place(victim, k)
			if g.hands[victim].size == 0 {
				g.goOut(victim, total)
				return
			}
			if g.hands[victim].size == 1 {
				g.unoCheck(victim)
			}
			p, victim, sym = victim, g.nextOf(victim), cardSymbol[k]
		default:
			g.give(victim, total)
			g.skip(victim)
			g.current = g.nextOf(victim)
			return
		}
	}
}

// respondMoves lists a victim's answers to a pending attack of symbol sym:
// accept, challenge a Wild Draw Four, and the stacks and deflections the
// house rules allow with the cards in hand.
func (g *Game) respondMoves(victim int, sym Symbol, ms []Move) []Move {
	ms = append(ms, SimpleMove(MoveAccept))
	if sym == WildDrawFour {
		ms = append(ms, SimpleMove(MoveChallenge))
	}
	h := &g.hands[victim]
	if g.opts.NoFinishOnAction && h.size == 1 {
		return ms // every stack or deflection would put down an action card last
	}
	wd4 := WildCard(WildDrawFour)
	if sym == DrawTwo {
		if g.opts.StackDrawTwo || g.opts.DeflectDrawTwo {
			kind := MoveStack
			if g.opts.DeflectDrawTwo {
				kind = MoveDeflect
			}
			for c := Red; c < NoColor; c++ {
				if k := MakeCard(c, DrawTwo); h.counts[k] != 0 {
					ms = append(ms, CardMove(kind, k))
				}
			}
		}
		if g.opts.StackMixed && h.counts[wd4] != 0 {
			ms = append(ms, CardMove(MoveStack, wd4))
		}
		return ms
	}
	if g.opts.StackDrawFour && h.counts[wd4] != 0 {
		ms = append(ms, CardMove(MoveStack, wd4))
	}
	if d2 := MakeCard(g.color, DrawTwo); h.counts[d2] != 0 {
		if g.opts.StackMixed {
			ms = append(ms, CardMove(MoveStack, d2))
		} else if g.opts.DeflectDrawFour {
			ms = append(ms, CardMove(MoveDeflect, d2))
		}
	}
	return ms
}

// challenge resolves victim's challenge of p's Wild Draw Four with total
// cards pending (RULES.md sections 4 and 7). Only the last Wild Draw Four
// is judged. A silenced challenger speaks and pays first (section 9).
func (g *Game) challenge(p, victim, total int, ref Color, below Card, legal bool) {
	g.count(CountChallenge)
	g.speak(victim)
	g.revealTo, g.revealed = victim, g.hands[p]
	g.emit(Event{Kind: EvChallenge, Player: victim, Other: p, N: b2i(!legal)})
	if legal {
		g.give(victim, total-4+g.opts.ChallengePenalty)
		g.skip(victim)
		g.current = g.nextOf(victim)
		return
	}
	g.count(CountChallengeWon)
	if g.opts.GuiltyTakesBack {
		g.color = ref
		// The card below is gone only if a UNO penalty reshuffled the discard
		// pile in between; then the Wild Draw Four stays on top (a decision).
		k := WildCard(WildDrawFour)
		if left := int(g.discard[below]) - b2i(below == k); left > 0 {
			g.discard[k]--
			g.discardN--
			g.top = below
			g.hands[p].Add(k)
			g.unoCalled[p] = false
			g.emit(Event{Kind: EvTakeBack, Player: p})
		}
	}
	g.give(p, total)
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
		if g.nSilenced > 0 {
			g.silenced = [MaxPlayers]bool{}
			g.nSilenced = 0
			g.emit(Event{Kind: EvUnsilence})
		}
		return
	}
	g.count(CountUnoMissed)
	g.emit(Event{Kind: EvUnoMissed, Player: p})
	g.unoPlayer = p
	var catchers [MaxPlayers]int
	n := 0
	for i := 1; i < g.n; i++ {
		q := (p + i) % g.n
		if g.out[q] {
			continue // players who are out no longer catch (a decision)
		}
		ms := append(g.moves[:0], SimpleMove(MoveCatch), SimpleMove(MovePass))
		if g.ask(q, DecideCatch, ms).Kind() == MoveCatch {
			catchers[n] = q
			n++
		}
	}
	if n == 0 {
		return
	}
	for _, q := range catchers[:n] {
		g.speak(q) // every silenced player who called out has spoken
	}
	catcher := catchers[0]
	if n > 1 {
		catcher = catchers[g.tableRng.IntN(n)]
	}
	g.count(CountUnoPenalty)
	g.emit(Event{Kind: EvCatch, Player: p, Other: catcher})
	g.give(p, g.opts.UnoPenalty)
}

// goOut ends p's play with an empty hand (RULES.md section 4, step 2): only
// the draw of owed cards from a final Draw Two or Wild Draw Four (stacked
// totals included) is carried out.
func (g *Game) goOut(p, owed int) {
	next := g.nextOf(p)
	g.out[p] = true // first, so that a link echo passes the winner by
	g.active--
	if owed > 0 {
		g.give(next, owed)
	}
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
