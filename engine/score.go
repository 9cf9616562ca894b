package engine

// MaxRounds bounds a match: one that has not reached its target after this
// many rounds ends unfinished. Only decks whose cards score (almost) nothing
// can come close; without the bound such a match would never end (a
// decision: RULES.md bounds rounds by max-turns, not matches).
const MaxRounds = 10000

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
	if goesOn && res.Rounds >= MaxRounds {
		goesOn = false
		res.Outcome = Unfinished
		g.emit(Event{Kind: EvTurnCap, N: MaxRounds})
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
