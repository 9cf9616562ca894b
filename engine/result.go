package engine

import "fmt"

// Outcome is how a round or match ended.
type Outcome uint8

// The outcomes. A match is Finished only when every round was.
const (
	Finished   Outcome = iota
	Unfinished         // a round reached max-turns
	Blocked            // nothing could be drawn and no one could play
)

func (o Outcome) String() string {
	switch o {
	case Finished:
		return "finished"
	case Unfinished:
		return "unfinished"
	case Blocked:
		return "blocked"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Counter names an event counted in a Result: how often each rule fired.
type Counter uint8

// The counters.
const (
	CountSkip          Counter = iota // a player lost a turn to a Skip
	CountReverse                      // a Reverse was played
	CountDrawTwo                      // a Draw Two was played
	CountWild                         // a Wild was played
	CountWildDrawFour                 // a Wild Draw Four was played
	CountBluff                        // a Wild Draw Four was played illegally
	CountChallenge                    // a Wild Draw Four was challenged
	CountChallengeWon                 // a challenge found a bluff
	CountUnoCall                      // a player with one card called UNO
	CountUnoMissed                    // a player with one card did not call
	CountUnoPenalty                   // a player was caught and drew the penalty
	CountVoluntaryDraw                // a player drew while holding a playable card
	CountPlayDrawn                    // a drawn card was played at once
	CountReshuffle                    // the discard pile was reshuffled into the draw pile
	CountForgiven                     // owed cards that could not be drawn
	CountStack                        // a draw card was stacked on a pending draw
	CountDeflect                      // a pending effect was deflected
	CountJumpIn                       // a player jumped in out of turn
	CountSevenSwap                    // a 7 swapped two hands
	CountZeroRotate                   // a 0 passed every hand on
	CountSwapHands                    // a Wild Swap Hands swapped two hands
	CountPointTaken                   // a Point Taken was played
	CountPileUp                       // a Wild Pile Up started a mini-pile
	CountPileTaken                    // cards taken from a mini-pile
	CountLink                         // a Wild Drawn Together linked two players
	CountLinkEcho                     // cards drawn as a link partner's echo
	CountSilence                      // a Wild Don't Speak silenced a player
	CountSpeakPenalty                 // a silenced player spoke and drew 3
	NumCounters
)

var counterNames = [NumCounters]string{
	"skips", "reverses", "draw_twos", "wilds", "wild_draw_fours", "bluffs", "challenges", "challenges_won",
	"uno_calls", "uno_missed", "uno_penalties", "voluntary_draws", "drawn_played", "reshuffles", "forgiven_cards",
	"stacks", "deflections", "jump_ins", "seven_swaps", "zero_rotations", "swap_hands", "point_taken",
	"pile_ups", "pile_cards_taken", "links", "link_echo_cards", "silences", "speak_penalties",
}

func (c Counter) String() string {
	if c < NumCounters {
		return counterNames[c]
	}
	return fmt.Sprintf("Counter(%d)", uint8(c))
}

// RoundResult describes one finished, unfinished or blocked round.
type RoundResult struct {
	Round   int
	Outcome Outcome
	Winner  int              // the first player out, or -1
	Dealer  int              // the round's dealer
	Turns   int              // turns taken (RULES.md section 3)
	Left    [MaxPlayers]int  // points left in each hand at the end
	Places  [MaxPlayers]int8 // with play-for-places: the seat that finished i-th; -1 past the end
	Scores  [MaxPlayers]int  // match totals after this round
}

// Result describes one game: a single round, or a match of rounds.
type Result struct {
	Outcome     Outcome
	Winner      int    // the sole winner, or -1 (no winner, or a shared win)
	Winners     uint32 // bit i set: seat i won (several when tied lowest share the win)
	Rounds      int
	Turns       int // turns over all rounds
	CardsPlayed int
	CardsDrawn  int
	FirstToAct  int              // the seat that took the first turn of the game
	Scores      [MaxPlayers]int  // match totals; in single games, the winner's points
	Places      [MaxPlayers]int8 // with play-for-places: the seat that finished i-th; -1 past the end
	Count       [NumCounters]int
}

// Won reports whether seat s is among the winners.
func (r *Result) Won(s int) bool { return r.Winners>>uint(s)&1 != 0 }
