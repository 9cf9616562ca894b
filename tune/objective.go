package tune

import (
	"fmt"
	"strings"

	"github.com/unosim/unosim/engine"
)

// Objective is what a focus seat scores in one game, an integer where
// higher is better, so that every sum over deals is exact and the
// optimisers, which maximise, need no sign of their own.
type Objective uint8

const (
	// Win scores 1 for a game the seat won (a shared win included), else 0.
	Win Objective = iota
	// Place scores minus the seat's place (1 = first, Players = last) with
	// play-for-places. A game that ends without places (a round at
	// max-turns, or blocked) places no one: every seat counts as last, as
	// every seat counts as a loser under Win.
	Place
	// Points scores the seat's final match total: its total under
	// scoring=winner-takes, minus its total under losers-accumulate (lower
	// is better there). A match cut short (max-turns, MaxRounds) counts
	// with the totals it reached.
	Points
)

// ObjectiveNames are the objectives' names, by value.
var ObjectiveNames = []string{"win", "place", "points"}

func (o Objective) String() string {
	if int(o) < len(ObjectiveNames) {
		return ObjectiveNames[o]
	}
	return fmt.Sprintf("Objective(%d)", uint8(o))
}

// ParseObjective reads an objective's name.
func ParseObjective(s string) (Objective, error) {
	for i, n := range ObjectiveNames {
		if s == n {
			return Objective(i), nil
		}
	}
	return 0, fmt.Errorf("objective %q (valid: %s)", s, strings.Join(ObjectiveNames, ", "))
}

// Check reports why the options cannot measure the objective: Place needs
// play-for-places, Points a match scoring.
func (o Objective) Check(opts engine.Options) error {
	switch o {
	case Win:
	case Place:
		if !opts.PlayForPlaces {
			return fmt.Errorf("objective place needs places: set play-for-places=true")
		}
	case Points:
		if opts.Scoring == engine.ScoreSingle {
			return fmt.Errorf("objective points needs match points: set scoring=winner-takes or scoring=losers-accumulate")
		}
	default:
		return fmt.Errorf("objective %d (valid: %s)", o, strings.Join(ObjectiveNames, ", "))
	}
	return nil
}

// Range is the spread of one game's score, Players-1 places or the match
// target in points (a typical spread): the scale of a candidate's value,
// for a boundary penalty of the same weight under every objective.
func (o Objective) Range(opts engine.Options, players int) float64 {
	switch o {
	case Place:
		return float64(players - 1)
	case Points:
		return float64(opts.Target)
	}
	return 1
}

// scorer is an objective bound to a table's options.
type scorer struct {
	obj  Objective
	n    int
	sign int // Points: +1 winner-takes, -1 losers-accumulate
}

func newScorer(o Objective, opts engine.Options, players int) scorer {
	s := scorer{obj: o, n: players, sign: 1}
	if opts.Scoring == engine.ScoreLosersAccumulate {
		s.sign = -1
	}
	return s
}

// score is seat's score in the game r.
func (s *scorer) score(r *engine.Result, seat int) int64 {
	switch s.obj {
	case Place:
		for k := range s.n {
			if int(r.Places[k]) == seat {
				return -int64(k + 1)
			}
		}
		return -int64(s.n)
	case Points:
		return int64(s.sign * r.Scores[seat])
	}
	if r.Won(seat) {
		return 1
	}
	return 0
}
