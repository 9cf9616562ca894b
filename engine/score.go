package engine

// MaxRounds bounds a match: one that has not reached its target after this
// many rounds ends unfinished. Only decks whose cards score (almost) nothing
// can come close; without the bound such a match would never end (a
// decision: RULES.md bounds rounds by max-turns, not matches).
const MaxRounds = 10000

// endRound scores the finished round (RULES.md section 6) into s.rr and
// reports whether the match goes on with another round.
func (s *State) endRound() bool {
	res := &s.res
	res.Rounds++
	s.rr = RoundResult{Round: s.round, Outcome: s.outcome, Winner: -1, Dealer: s.dealer, Turns: s.turns, Places: s.places}
	rr := &s.rr
	for p := 0; p < s.t.n; p++ {
		rr.Left[p] = s.hands[p].Points()
	}
	goesOn := false
	if s.outcome != Finished {
		res.Outcome = s.outcome
	} else {
		w := s.winner
		rr.Winner = w
		won := 0
		for p := 0; p < s.t.n; p++ {
			if p != w {
				won += rr.Left[p]
			}
		}
		switch s.t.opts.Scoring {
		case ScoreSingle:
			res.Scores[w] += won
			res.Winner, res.Winners = w, 1<<uint(w)
			res.Places = s.places
		case ScoreWinnerTakes:
			res.Scores[w] += won
			if res.Scores[w] >= s.t.opts.Target {
				best := s.bestScore()
				s.setWinners(func(q int) bool { return res.Scores[q] == best })
			} else {
				goesOn = true
			}
		case ScoreLosersAccumulate:
			hi := 0
			for p := 0; p < s.t.n; p++ {
				res.Scores[p] += rr.Left[p]
				hi = max(hi, res.Scores[p])
			}
			switch {
			case hi < s.t.opts.Target:
				goesOn = true
			case s.t.opts.LosersOutcome == LowestWins:
				lo := res.Scores[0]
				for p := 1; p < s.t.n; p++ {
					lo = min(lo, res.Scores[p])
				}
				s.setWinners(func(q int) bool { return res.Scores[q] == lo })
			default:
				s.setWinners(func(q int) bool { return res.Scores[q] < s.t.opts.Target })
			}
		}
	}
	if goesOn && res.Rounds >= MaxRounds {
		goesOn = false
		res.Outcome = Unfinished
		s.emit(Event{Kind: EvTurnCap, N: MaxRounds})
	}
	rr.Scores = res.Scores
	s.emit(Event{Kind: EvRoundEnd, Player: rr.Winner, N: s.roundPoints(rr)})
	s.round++
	return goesOn
}

func (s *State) roundPoints(rr *RoundResult) int {
	if rr.Winner < 0 {
		return 0
	}
	won := 0
	for p := 0; p < s.t.n; p++ {
		if p != rr.Winner {
			won += rr.Left[p]
		}
	}
	return won
}

// bestScore is the highest match total.
func (s *State) bestScore() int {
	b := s.res.Scores[0]
	for p := 1; p < s.t.n; p++ {
		b = max(b, s.res.Scores[p])
	}
	return b
}

func (s *State) setWinners(won func(seat int) bool) {
	res := &s.res
	res.Winners, res.Winner = 0, -1
	n := 0
	for p := 0; p < s.t.n; p++ {
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
