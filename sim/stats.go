package sim

import (
	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
)

// Stats are the integer counts and histograms of a set of games. Workers
// fill their own and merge them; every field is a sum, so the merged stats
// are identical for any worker count, shard split or merge order.
type Stats struct {
	Games      int64 `json:"games"`
	Finished   int64 `json:"finished"`
	Unfinished int64 `json:"unfinished"` // a round hit max-turns
	Blocked    int64 `json:"blocked"`    // a round could not go on
	// MatchCapped counts the unfinished games whose every round finished
	// but whose match reached engine.MaxRounds rounds short of its target;
	// the rest of Unfinished hit max-turns.
	MatchCapped int64 `json:"match_capped,omitempty"`
	// WinsBySeat[s] counts the games seat s won, shared wins included.
	WinsBySeat []int64 `json:"wins_by_seat"`
	// WinsByPosition[j] counts the games won by line-up position j.
	WinsByPosition []int64 `json:"wins_by_position"`
	SharedWins     int64   `json:"shared_wins"` // finished games with several winners
	NoWinner       int64   `json:"no_winner"`   // finished games without a winner (highest-loses)
	// WinsByStrategy[k] counts the games won by any seat playing the k-th
	// distinct strategy of the line-up (in order of first appearance).
	WinsByStrategy []int64 `json:"wins_by_strategy"`
	// FirstToActWins counts the games won by the seat that took the first turn.
	FirstToActWins int64 `json:"first_to_act_wins"`
	// FirstToActBySeat[s] counts the games in which seat s took the first turn.
	FirstToActBySeat []int64 `json:"first_to_act_by_seat"`
	// PlacesBySeat[s][k] counts the games in which seat s finished in place
	// k+1 (play-for-places only).
	PlacesBySeat [][]int64 `json:"places_by_seat,omitempty"`

	Turns       analysis.IntHist `json:"turns"`        // per game, over all its rounds
	CardsPlayed analysis.IntHist `json:"cards_played"` // per game
	CardsDrawn  analysis.IntHist `json:"cards_drawn"`  // per game
	Rounds      analysis.IntHist `json:"rounds"`       // rounds per game (1 for single games)
	RoundPoints analysis.IntHist `json:"round_points"` // points won by the winner of each finished round
	MatchPoints analysis.IntHist `json:"match_points"` // the sole winner's total at the end of a finished game
	Events      map[string]int64 `json:"events"`       // how often each rule fired, by counter name
	// Longest and MostDrawn are the games with the most turns and with the
	// most cards drawn, the lowest index on ties, so that a user can replay
	// them; they are meaningful only when Games > 0. The tie rule makes
	// them independent of worker order, merge order and shard split.
	Longest   Extreme `json:"longest_game"`
	MostDrawn Extreme `json:"most_cards_drawn"`

	events    [engine.NumCounters]int64
	lastRound engine.Outcome // the outcome of the last round seen by addRound
}

// Extreme is the game with the largest value of a per-game quantity.
type Extreme struct {
	Game  int64 `json:"game"`  // its index in the run
	Value int   `json:"value"` // the quantity (turns, cards drawn)
}

// below reports whether game g with value v replaces e: a larger value,
// or the same value at a lower index (ties go to the lowest index).
func (e Extreme) below(v int, g int64) bool { return v > e.Value || v == e.Value && g < e.Game }

func newStats(players, strategies, maxTurns int, places bool) Stats {
	s := Stats{
		WinsByStrategy:   make([]int64, strategies),
		WinsBySeat:       make([]int64, players),
		WinsByPosition:   make([]int64, players),
		FirstToActBySeat: make([]int64, players),
	}
	if places {
		s.PlacesBySeat = make([][]int64, players)
		for i := range s.PlacesBySeat {
			s.PlacesBySeat[i] = make([]int64, players)
		}
	}
	s.Turns.Reserve(maxTurns)
	s.CardsPlayed.Reserve(512)
	s.CardsDrawn.Reserve(512)
	s.Rounds.Reserve(64)
	s.RoundPoints.Reserve(2048)
	s.MatchPoints.Reserve(2048)
	return s
}

// add records game i's result.
func (s *Stats) add(c *Config, game int64, r *engine.Result) {
	if s.Games == 0 || s.Longest.below(r.Turns, game) {
		s.Longest = Extreme{game, r.Turns}
	}
	if s.Games == 0 || s.MostDrawn.below(r.CardsDrawn, game) {
		s.MostDrawn = Extreme{game, r.CardsDrawn}
	}
	s.Games++
	switch r.Outcome {
	case engine.Finished:
		s.Finished++
	case engine.Unfinished:
		s.Unfinished++
		if s.lastRound == engine.Finished {
			s.MatchCapped++
		}
	case engine.Blocked:
		s.Blocked++
	}
	winners := 0
	var groups uint32
	for seat := 0; seat < c.Players; seat++ {
		if r.Won(seat) {
			winners++
			pos := c.Position(game, seat)
			s.WinsBySeat[seat]++
			s.WinsByPosition[pos]++
			groups |= 1 << uint(c.group[pos])
		}
	}
	for k := range s.WinsByStrategy {
		if groups>>uint(k)&1 != 0 {
			s.WinsByStrategy[k]++
		}
	}
	switch {
	case r.Outcome != engine.Finished:
	case winners > 1:
		s.SharedWins++
	case winners == 0:
		s.NoWinner++
	default:
		s.MatchPoints.Add(r.Scores[r.Winner])
	}
	if f := r.FirstToAct; f >= 0 {
		s.FirstToActBySeat[f]++
		if r.Won(f) {
			s.FirstToActWins++
		}
	}
	if s.PlacesBySeat != nil && r.Outcome == engine.Finished {
		for k := 0; k < c.Players; k++ {
			if p := r.Places[k]; p >= 0 {
				s.PlacesBySeat[p][k]++
			}
		}
	}
	s.Turns.Add(r.Turns)
	s.CardsPlayed.Add(r.CardsPlayed)
	s.CardsDrawn.Add(r.CardsDrawn)
	s.Rounds.Add(r.Rounds)
	for k, v := range r.Count {
		s.events[k] += int64(v)
	}
}

// addRound records a finished round's points.
func (s *Stats) addRound(rr *engine.RoundResult, players int) {
	s.lastRound = rr.Outcome
	if rr.Outcome != engine.Finished {
		return
	}
	won := 0
	for p := 0; p < players; p++ {
		if p != rr.Winner {
			won += rr.Left[p]
		}
	}
	s.RoundPoints.Add(won)
}

// seal moves the event counters into the named map (after the last add).
func (s *Stats) seal() {
	if s.Events == nil {
		s.Events = map[string]int64{}
	}
	for k, v := range s.events {
		s.Events[engine.Counter(k).String()] += v
		s.events[k] = 0
	}
}

// Merge adds o's counts to s. Both must be sealed and of the same table size.
func (s *Stats) Merge(o *Stats) {
	if o.Games > 0 {
		if s.Games == 0 || s.Longest.below(o.Longest.Value, o.Longest.Game) {
			s.Longest = o.Longest
		}
		if s.Games == 0 || s.MostDrawn.below(o.MostDrawn.Value, o.MostDrawn.Game) {
			s.MostDrawn = o.MostDrawn
		}
	}
	s.Games += o.Games
	s.Finished += o.Finished
	s.Unfinished += o.Unfinished
	s.Blocked += o.Blocked
	s.MatchCapped += o.MatchCapped
	addInts(s.WinsBySeat, o.WinsBySeat)
	addInts(s.WinsByPosition, o.WinsByPosition)
	addInts(s.WinsByStrategy, o.WinsByStrategy)
	addInts(s.FirstToActBySeat, o.FirstToActBySeat)
	s.SharedWins += o.SharedWins
	s.NoWinner += o.NoWinner
	s.FirstToActWins += o.FirstToActWins
	for i := range s.PlacesBySeat {
		addInts(s.PlacesBySeat[i], o.PlacesBySeat[i])
	}
	s.Turns.Merge(&o.Turns)
	s.CardsPlayed.Merge(&o.CardsPlayed)
	s.CardsDrawn.Merge(&o.CardsDrawn)
	s.Rounds.Merge(&o.Rounds)
	s.RoundPoints.Merge(&o.RoundPoints)
	s.MatchPoints.Merge(&o.MatchPoints)
	if s.Events == nil {
		s.Events = map[string]int64{}
	}
	for k, v := range o.Events {
		s.Events[k] += v
	}
}

func addInts(dst, src []int64) {
	for i := range dst {
		dst[i] += src[i]
	}
}

// trim drops the histograms' trailing zero counts so that equal stats
// serialize to equal bytes.
func (s *Stats) trim() {
	for _, h := range []*analysis.IntHist{&s.Turns, &s.CardsPlayed, &s.CardsDrawn, &s.Rounds, &s.RoundPoints, &s.MatchPoints} {
		n := len(h.Counts)
		for n > 0 && h.Counts[n-1] == 0 {
			n--
		}
		h.Counts = h.Counts[:n:n]
	}
}
