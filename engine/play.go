package engine

// The resolution of a play (RULES.md section 4). Every function that may
// need a player's decision reports whether it finished (true) or stopped at
// a pending decision (false), having saved what is left to do in the State
// (see machine.go).

// place puts card k from p's hand on the discard pile (RULES.md section 4,
// step 1). It returns the reference color and the card below, for a Wild
// Draw Four whether it was legal, judged on the hand it was played from,
// and whether p must now name a color.
func (s *State) place(p int, k Card) (ref Color, below Card, legal, color bool) {
	ref, below, legal = s.color, s.top, true
	sym := cardSymbol[k]
	switch sym {
	case WildDrawFour:
		legal = s.wd4Legal(p, k)
		s.count(CountWildDrawFour)
		if !legal {
			s.count(CountBluff)
		}
	case DrawTwo:
		s.count(CountDrawTwo)
	case Wild:
		s.count(CountWild)
	}
	h := &s.hands[p]
	h.Remove(k)
	s.unoCalled[p] = false
	s.pushDiscard(k)
	s.motion++
	s.res.CardsPlayed++
	if s.hears(EvPlay) {
		s.sink.played(s, p, k) // (s.emit's EvPlay, with a path of its own)
	}
	switch {
	case !k.IsWild():
		s.color = cardColor[k]
	case sym == WildPileUp && h.size > 0:
		// It names no color; the mini-pile's color follows (RULES.md section
		// 8). As a last card its effect is void, so it names the color like
		// any last wild when the others play on (section 6).
	case h.size > 0 || s.playsOn():
		color = true
	}
	return ref, below, legal, color
}

// playsOn reports whether the round goes on after a player goes out.
func (s *State) playsOn() bool { return s.t.opts.PlayForPlaces && s.active > 2 }

// exchanges reports whether card k exchanges hands, so that its UNO check
// follows the exchange.
func (s *State) exchanges(k Card) bool {
	sym := cardSymbol[k]
	return sym == WildSwapHands || (s.t.opts.SevenZero && (sym == Seven || sym == Zero) && !k.IsWild())
}

// playFromHand puts card k from p's hand down and resolves it (RULES.md
// section 4), leaving s.current at the next player. base is what the step
// does once the play is resolved (phTurnPlay or phJump).
func (s *State) playFromHand(p int, k Card, base basePhase) bool {
	ref, below, legal, color := s.place(p, k)
	if color {
		// The play is saved only when it stops: writing it on every play
		// costs a stalled store on the hot path.
		s.pl = playCtx{p: p, k: k, ref: ref, below: below, legal: legal, ph: phPlayColor}
		s.mid = midPlay
		s.basePh = base
		s.suspend(p, DecideColor)
		g := s.drv
		if g == nil {
			return false
		}
		// A Game asks at once, with every level saved as if stopped, so
		// that a position copied during the decision is whole; unwinding
		// to the Game and resuming from the saved play cost a classic game
		// 5%.
		col := g.ask().Color()
		s.mid, s.basePh = midNone, phNone
		s.emit(Event{Kind: EvColor, Player: p, Color: col})
		s.color = col
	}
	return s.playNamed(p, k, ref, below, legal)
}

// playNamed continues a play once its color is named.
func (s *State) playNamed(p int, k Card, ref Color, below Card, legal bool) bool {
	if s.hands[p].size == 0 {
		s.goOut(p, owed(k))
		return true
	}
	if s.hands[p].size == 1 && !s.exchanges(k) && !s.unoCheck(p) {
		s.pl = playCtx{p: p, k: k, ref: ref, below: below, legal: legal, ph: phPlayUno}
		s.mid = midPlay
		return false
	}
	if cardSymbol[k] <= Nine && !s.t.opts.SevenZero {
		s.current = s.nextOf(p) // a number card, most plays: no call to effect
		return true
	}
	return s.effect(p, k, ref, below, legal)
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
func (s *State) effect(p int, k Card, ref Color, below Card, legal bool) bool {
	next := s.nextOf(p)
	sym := cardSymbol[k]
	if sym <= Nine {
		if s.t.opts.SevenZero && (sym == Seven || sym == Zero) {
			return s.sevenZero(p, k, next)
		}
		s.current = next
		return true
	}
	if sym == Skip {
		if !s.t.opts.DeflectSkip {
			s.skip(next)
			s.current = s.nextOf(next)
			return true
		}
		s.ef = effectCtx{kind: efSkip, p: p, victim: next, k: k}
		return s.skipLoop()
	} else if sym == Reverse {
		s.count(CountReverse)
		s.dir = -s.dir
		s.emit(Event{Kind: EvReverse, N: s.dir})
		if s.active == 2 && s.t.opts.TwoPlayerReverse == ReverseSkips {
			s.skip(s.nextOf(p))
			s.current = p
		} else {
			s.current = s.nextOf(p)
		}
		return true
	} else if sym == DrawTwo {
		return s.drawAttack(p, next, DrawTwo, 2, ref, below, legal)
	} else if sym == WildDrawFour {
		return s.drawAttack(p, next, WildDrawFour, 4, ref, below, legal)
	} else if sym == Wild {
		s.current = next
		return true
	}
	return s.variantEffect(p, k, next)
}

// sevenZero applies a 7 or a 0 under the seven-zero house rule.
func (s *State) sevenZero(p int, k Card, next int) bool {
	if cardSymbol[k] == Seven {
		if s.active > 1 {
			s.count(CountSevenSwap)
			return s.swapWith(p, k, next)
		}
		s.current = next
		return true
	}
	s.count(CountZeroRotate)
	return s.rotateHands(p, next)
}

// variantEffect applies the effect of a UNO Party!, UNO: Encanto or house
// card (RULES.md sections 7-9).
func (s *State) variantEffect(p int, k Card, next int) bool {
	switch cardSymbol[k] {
	case PointTaken:
		return s.pointTaken(p, next)
	case WildPileUp:
		return s.pileUp(p)
	case WildDrawnTogether:
		return s.linkPlayers(p, next)
	case WildDontSpeak:
		return s.silence(p, next)
	case WildSwapHands:
		s.count(CountSwapHands)
		return s.swapWith(p, k, next)
	}
	return true
}

func (s *State) skip(p int) {
	s.count(CountTurnLost)
	s.emit(Event{Kind: EvSkip, Player: p})
}

// skipLoop skips the victim of a Skip; under deflect-skip the victim may
// pass the skip on by playing the identical Skip (RULES.md section 7).
func (s *State) skipLoop() bool {
	e := &s.ef
	if s.t.opts.DeflectSkip && s.hands[e.victim].counts[e.k] != 0 && s.mayPutDown(e.victim, e.k) {
		s.pendingSym, s.pendingN, s.pendingBy = Skip, 0, e.p
		s.mid = midEffect
		s.suspend(e.victim, DecideRespond)
		return false
	}
	s.skip(e.victim)
	s.current = s.nextOf(e.victim)
	return true
}

// skipChosen continues after the victim of a Skip accepted or deflected it.
func (s *State) skipChosen(m Move) bool {
	e := &s.ef
	if m.Kind() != MoveDeflect {
		s.skip(e.victim)
		s.current = s.nextOf(e.victim)
		return true
	}
	v, k := e.victim, e.k
	s.count(CountSkipDeflect)
	s.turn()
	s.emit(Event{Kind: EvDeflect, Player: v, Card: k})
	s.place(v, k)
	if s.hands[v].size == 0 {
		s.goOut(v, 0)
		return true
	}
	if s.hands[v].size == 1 && !s.unoCheck(v) {
		s.mid, e.ph = midEffect, phSkipUno
		return false
	}
	return s.skipNext()
}

func (s *State) skipNext() bool {
	e := &s.ef
	e.p, e.victim = e.victim, s.nextOf(e.victim)
	return s.skipLoop()
}

// drawAttack resolves a pending Draw Two or Wild Draw Four of total cards
// played by p against victim (RULES.md sections 4 and 7): the victim
// accepts (draws and loses the turn), challenges a Wild Draw Four, or,
// under the house rules, stacks or deflects, which passes the attack on.
func (s *State) drawAttack(p, victim int, sym Symbol, total int, ref Color, below Card, legal bool) bool {
	if sym == DrawTwo && !s.t.d2Responses {
		s.give(victim, total) // nothing to answer with: the classic rules
		s.skip(victim)
		s.current = s.nextOf(victim)
		return true
	}
	s.ef = effectCtx{kind: efAttack, p: p, victim: victim, sym: sym, total: total, ref: ref, below: below, legal: legal}
	return s.attackLoop()
}

// attackLoop puts the pending attack to its victim.
func (s *State) attackLoop() bool {
	e := &s.ef
	s.pendingSym, s.pendingN, s.pendingBy, s.refColor, s.refTop = e.sym, e.total, e.p, e.ref, e.below
	if s.respondCount(e.victim, e.sym) == 1 {
		return s.attackChosen(SimpleMove(MoveAccept))
	}
	s.mid = midEffect
	s.suspend(e.victim, DecideRespond)
	return false
}

// attackChosen continues an attack after its victim's answer m.
func (s *State) attackChosen(m Move) bool {
	e := &s.ef
	switch m.Kind() {
	case MoveChallenge:
		s.challenge(e.p, e.victim, e.total, e.ref, e.below, e.legal)
		return true
	case MoveStack, MoveDeflect:
		k := m.Card()
		s.turn()
		if m.Kind() == MoveStack {
			s.count(CountStack)
			e.total += owed(k)
			s.emit(Event{Kind: EvStack, Player: e.victim, Card: k, N: e.total})
		} else {
			s.count(CountDrawDeflect)
			e.total = 2 // a deflected attack does not grow, and a Wild Draw Four becomes a Draw Two
			s.emit(Event{Kind: EvDeflect, Player: e.victim, Card: k})
		}
		var color bool
		e.k = k
		e.ref, e.below, e.legal, color = s.place(e.victim, k)
		if color {
			s.mid, e.ph = midEffect, phAttackColor
			s.suspend(e.victim, DecideColor)
			return false
		}
		return s.attackPlaced()
	default:
		s.give(e.victim, e.total)
		s.skip(e.victim)
		s.current = s.nextOf(e.victim)
		return true
	}
}

// attackPlaced continues after a stack or deflection was put down.
func (s *State) attackPlaced() bool {
	e := &s.ef
	v := e.victim
	if s.hands[v].size == 0 {
		s.goOut(v, e.total)
		return true
	}
	if s.hands[v].size == 1 && !s.unoCheck(v) {
		s.mid, e.ph = midEffect, phAttackUno
		return false
	}
	return s.attackNext()
}

// attackNext passes the attack on from the victim to the next player.
func (s *State) attackNext() bool {
	e := &s.ef
	e.p, e.victim, e.sym = e.victim, s.nextOf(e.victim), cardSymbol[e.k]
	return s.attackLoop()
}

// respondMoves lists a victim's answers to a pending attack of symbol sym:
// accept, challenge a Wild Draw Four, and the stacks and deflections the
// house rules allow with the cards in hand.
func (s *State) respondMoves(victim int, sym Symbol, ms []Move) []Move {
	ms = append(ms, SimpleMove(MoveAccept))
	if sym == WildDrawFour {
		ms = append(ms, SimpleMove(MoveChallenge))
	}
	h := &s.hands[victim]
	o := &s.t.opts
	if o.NoFinishOnAction && h.size == 1 {
		return ms // every stack or deflection would put down an action card last
	}
	wd4 := WildCard(WildDrawFour)
	if sym == DrawTwo {
		if o.StackDrawTwo || o.DeflectDrawTwo {
			kind := MoveStack
			if o.DeflectDrawTwo {
				kind = MoveDeflect
			}
			for c := Red; c < NoColor; c++ {
				if k := MakeCard(c, DrawTwo); h.counts[k] != 0 {
					ms = append(ms, CardMove(kind, k))
				}
			}
		}
		if o.StackMixed && h.counts[wd4] != 0 {
			ms = append(ms, CardMove(MoveStack, wd4))
		}
		return ms
	}
	if o.StackDrawFour && h.counts[wd4] != 0 {
		ms = append(ms, CardMove(MoveStack, wd4))
	}
	if d2 := MakeCard(s.color, DrawTwo); h.counts[d2] != 0 {
		if o.StackMixed {
			ms = append(ms, CardMove(MoveStack, d2))
		} else if o.DeflectDrawFour {
			ms = append(ms, CardMove(MoveDeflect, d2))
		}
	}
	return ms
}

// respondCount is the number of respondMoves.
func (s *State) respondCount(victim int, sym Symbol) int {
	var buf [8]Move
	return len(s.respondMoves(victim, sym, buf[:0]))
}

// challenge resolves victim's challenge of p's Wild Draw Four with total
// cards pending (RULES.md sections 4 and 7). Only the last Wild Draw Four
// is judged. A silenced challenger speaks and pays first (section 9).
func (s *State) challenge(p, victim, total int, ref Color, below Card, legal bool) {
	s.count(CountChallenge)
	s.speak(victim)
	s.revealTo, s.revealed = victim, s.hands[p]
	s.emit(Event{Kind: EvChallenge, Player: victim, Other: p, N: b2i(!legal)})
	if legal {
		s.give(victim, total-4+s.t.opts.ChallengePenalty)
		s.skip(victim)
		s.current = s.nextOf(victim)
		return
	}
	s.count(CountChallengeWon)
	if s.t.opts.GuiltyTakesBack {
		s.color = ref
		// The card below is gone only if a UNO penalty reshuffled the discard
		// pile in between; then the Wild Draw Four stays on top (a decision).
		k := WildCard(WildDrawFour)
		if left := int(s.discard[below]) - b2i(below == k); left > 0 {
			s.discard[k]--
			s.discardN--
			s.top = below
			s.hands[p].Add(k)
			s.unoCalled[p] = false
			s.emit(Event{Kind: EvTakeBack, Player: p})
		}
	}
	s.give(p, total)
	s.current = victim
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unoCheck begins the UNO call for p, whose hand just became one card
// (RULES.md section 5). It reports whether the check is over at once: when
// the Game playing the position knows that p's strategy always calls (its
// answer is fixed, so asking would change nothing); otherwise it stops at
// p's decision, and the caller saves where to go on.
func (s *State) unoCheck(p int) bool {
	s.uno.p = p
	if g := s.drv; g != nil && g.callsUNO[p] {
		return s.callChosen(SimpleMove(MoveCallUNO))
	}
	s.suspend(p, DecideCallUNO)
	return false
}

// callChosen continues the UNO check after p called or did not.
func (s *State) callChosen(m Move) bool {
	p := s.uno.p
	if m.Kind() == MoveCallUNO {
		s.unoCalled[p] = true
		s.count(CountUnoCall)
		s.emit(Event{Kind: EvUnoCall, Player: p})
		if s.nSilenced > 0 {
			s.silenced = [MaxPlayers]bool{}
			s.nSilenced = 0
			s.emit(Event{Kind: EvUnsilence})
		}
		return true
	}
	s.count(CountUnoMissed)
	s.emit(Event{Kind: EvUnoMissed, Player: p})
	s.unoPlayer = p
	s.uno.i, s.uno.n = 1, 0
	return s.catchLoop()
}

// catchLoop asks every other player still in, in turn order, whether to
// catch the player who did not call UNO, then applies the penalty.
func (s *State) catchLoop() bool {
	u := &s.uno
	n := s.t.n
	for ; u.i < n; u.i++ {
		// In turn order from the player after u.p (RULES.md section 5):
		// counter-clockwise after an odd number of Reverses.
		q := (u.p + s.dir*u.i + n) % n
		if s.out[q] {
			continue // players who are out no longer catch (a decision)
		}
		s.suspend(q, DecideCatch)
		return false
	}
	if u.n == 0 {
		return true
	}
	for _, q := range u.catchers[:u.n] {
		s.speak(int(q)) // every silenced player who called out has spoken
	}
	catcher := int(u.catchers[0])
	if u.n > 1 {
		catcher = int(u.catchers[s.tableRng.IntN(u.n)])
	}
	s.count(CountUnoPenalty)
	s.emit(Event{Kind: EvCatch, Player: u.p, Other: catcher})
	s.give(u.p, s.t.opts.UnoPenalty)
	return true
}

func (s *State) catchChosen(m Move) bool {
	u := &s.uno
	if m.Kind() == MoveCatch {
		u.catchers[u.n] = int8(s.seat)
		u.n++
	}
	u.i++
	return s.catchLoop()
}

// goOut ends p's play with an empty hand (RULES.md section 4, step 2): only
// the draw of owed cards from a final Draw Two or Wild Draw Four (stacked
// totals included) is carried out.
func (s *State) goOut(p, owed int) {
	next := s.nextOf(p)
	s.out[p] = true // first, so that a link echo passes the winner by
	s.active--
	if owed > 0 {
		s.give(next, owed)
	}
	s.places[s.nPlaced] = int8(p)
	s.nPlaced++
	s.emit(Event{Kind: EvOut, Player: p, N: s.nPlaced})
	if s.winner < 0 {
		s.winner = p
	}
	if s.t.opts.PlayForPlaces && s.active > 1 {
		s.current = s.nextOf(p)
		return
	}
	if s.t.opts.PlayForPlaces {
		for q := 0; q < s.t.n; q++ {
			if !s.out[q] {
				s.places[s.nPlaced] = int8(q)
				s.nPlaced++
			}
		}
	}
	s.over = true
}

func (s *State) endRoundAs(o Outcome) {
	s.over, s.outcome = true, o
	if o == Blocked {
		s.emit(Event{Kind: EvBlocked})
	} else {
		s.emit(Event{Kind: EvTurnCap, N: s.t.opts.MaxTurns})
	}
}
