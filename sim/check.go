package sim

import (
	"fmt"
	"strings"

	"github.com/unosim/unosim/analysis"
)

// Check lists every inconsistency of stats read from a file for a line-up
// whose position j plays distinct strategy group[j] (see Groups): negative
// counts, wins beyond the games, histograms that do not hold one value per
// game, and per-seat or per-strategy totals that disagree. Stats that a
// run produced always pass; nil means none was found.
func (s *Stats) Check(group []int) []string {
	players, strategies := len(group), 0
	for _, g := range group {
		strategies = max(strategies, g+1)
	}
	var p []string
	bad := func(format string, a ...any) { p = append(p, fmt.Sprintf(format, a...)) }
	if len(s.WinsBySeat) != players || len(s.WinsByPosition) != players || len(s.FirstToActBySeat) != players || len(s.WinsByStrategy) != strategies {
		bad("the counts do not have one entry per seat (%d players) and per strategy (%d)", players, strategies)
		return p
	}
	neg := func(name string, v int64) {
		if v < 0 {
			bad("%s is negative (%d)", name, v)
		}
	}
	negs := func(name string, vs []int64) int64 {
		sum := int64(0)
		for i, v := range vs {
			neg(fmt.Sprintf("%s[%d]", name, i), v)
			sum += v
		}
		return sum
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"games", s.Games}, {"finished", s.Finished}, {"unfinished", s.Unfinished}, {"blocked", s.Blocked},
		{"match_capped", s.MatchCapped},
		{"shared_wins", s.SharedWins}, {"no_winner", s.NoWinner}, {"first_to_act_wins", s.FirstToActWins}} {
		neg(c.name, c.v)
	}
	seatWins := negs("wins_by_seat", s.WinsBySeat)
	posWins := negs("wins_by_position", s.WinsByPosition)
	negs("wins_by_strategy", s.WinsByStrategy)
	firsts := negs("first_to_act_by_seat", s.FirstToActBySeat)
	if s.Finished+s.Unfinished+s.Blocked != s.Games {
		bad("finished %d + unfinished %d + blocked %d is not the %d games", s.Finished, s.Unfinished, s.Blocked, s.Games)
	}
	if s.MatchCapped > s.Unfinished {
		bad("match_capped %d is more than the %d unfinished games", s.MatchCapped, s.Unfinished)
	}
	// Only finished games have winners.
	for _, w := range []struct {
		name string
		vs   []int64
	}{{"wins_by_seat", s.WinsBySeat}, {"wins_by_position", s.WinsByPosition}, {"wins_by_strategy", s.WinsByStrategy}} {
		for i, v := range w.vs {
			if v > s.Finished {
				bad("%s[%d] is %d, more than the %d finished games", w.name, i, v, s.Finished)
			}
		}
	}
	if seatWins != posWins {
		bad("wins by seat sum to %d but wins by line-up position to %d", seatWins, posWins)
	}
	// A strategy wins a game when any of its positions does: at least as
	// often as each of them, at most as often as all of them together.
	for k := range strategies {
		most, sum := int64(0), int64(0)
		for j, g := range group {
			if g == k {
				most, sum = max(most, s.WinsByPosition[j]), sum+s.WinsByPosition[j]
			}
		}
		if w := s.WinsByStrategy[k]; w < most || w > sum {
			bad("wins_by_strategy[%d] is %d, but its positions won %d games in all and %d at most each", k, w, sum, most)
		}
	}
	sole := s.Finished - s.SharedWins - s.NoWinner
	switch {
	case sole < 0:
		bad("shared wins %d + games without a winner %d exceed the %d finished games", s.SharedWins, s.NoWinner, s.Finished)
	case seatWins < sole+2*s.SharedWins || seatWins > sole+int64(players)*s.SharedWins:
		bad("wins by seat sum to %d, which %d sole and %d shared wins cannot give", seatWins, sole, s.SharedWins)
	}
	if firsts > s.Games {
		bad("first_to_act_by_seat sums to %d, more than the %d games", firsts, s.Games)
	}
	if s.FirstToActWins > firsts || s.FirstToActWins > seatWins {
		bad("first_to_act_wins %d exceeds the games with a first player (%d) or the wins (%d)", s.FirstToActWins, firsts, seatWins)
	}
	if s.PlacesBySeat != nil {
		if len(s.PlacesBySeat) != players {
			bad("places_by_seat is not %d by %d", players, players)
		}
		for i, row := range s.PlacesBySeat {
			if len(row) != players {
				bad("places_by_seat is not %d by %d", players, players)
				break
			}
			if sum := negs(fmt.Sprintf("places_by_seat[%d]", i), row); sum > s.Finished {
				bad("places_by_seat[%d] sums to %d, more than the %d finished games", i, sum, s.Finished)
			}
		}
	}
	for _, h := range []struct {
		name string
		h    *analysis.IntHist
		want int64
	}{{"turns", &s.Turns, s.Games}, {"cards_played", &s.CardsPlayed, s.Games}, {"cards_drawn", &s.CardsDrawn, s.Games},
		{"rounds", &s.Rounds, s.Games}, {"match_points", &s.MatchPoints, sole}, {"round_points", &s.RoundPoints, -1}} {
		negs(h.name+" histogram", h.h.Counts)
		if h.h.OutOfRange < 0 {
			bad("%s histogram: out-of-range count is negative (%d)", h.name, h.h.OutOfRange)
		}
		if n := h.h.N() + h.h.OutOfRange; h.want >= 0 && n != h.want {
			bad("the %s histogram holds %d games, not the %d it should", h.name, n, h.want)
		}
	}
	rounds := int64(0)
	for v, c := range s.Rounds.Counts {
		rounds += int64(v) * c
	}
	if n := s.RoundPoints.N(); n > rounds {
		bad("the round_points histogram holds %d rounds, more than the %d rounds played", n, rounds)
	}
	for k, v := range s.Events {
		neg("events."+k, v)
	}
	// The extremes are the histograms' maxima (a record of a build before
	// extremes has them zero: not checked).
	for _, x := range []struct {
		name string
		e    Extreme
		h    *analysis.IntHist
	}{{"longest_game", s.Longest, &s.Turns}, {"most_cards_drawn", s.MostDrawn, &s.CardsDrawn}} {
		if s.Games > 0 && x.e != (Extreme{}) && x.h.OutOfRange == 0 && x.e.Value != x.h.Max() {
			bad("%s is %d, but the largest value in its histogram is %d", x.name, x.e.Value, x.h.Max())
		}
		if x.e.Game < 0 {
			bad("%s: game index %d is negative", x.name, x.e.Game)
		}
	}
	return p
}

// joinProblems formats a list of problems as one message.
func joinProblems(p []string) string { return strings.Join(p, "; ") }
