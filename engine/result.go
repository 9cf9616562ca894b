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
// Counters of cards end in _cards; the others count events. A card "put
// down" is any card put on the discard pile from a hand: played on one's
// turn, right after drawing it, stacked, used to deflect or jumped in.
type Counter uint8

// The counters; counterDocs says what each counts exactly.
const (
	CountTurnLost      Counter = iota // a player lost a turn
	CountReverse                      // a Reverse was put down
	CountDrawTwo                      // a Draw Two was put down
	CountWild                         // a plain Wild was put down
	CountWildDrawFour                 // a Wild Draw Four was put down
	CountBluff                        // a Wild Draw Four was put down illegally
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
	CountSkipDeflect                  // a Skip was passed on with the identical Skip
	CountDrawDeflect                  // a Draw Two or Wild Draw Four was passed on with a Draw Two
	CountJumpIn                       // a player jumped in out of turn
	CountSevenSwap                    // a 7 swapped two hands
	CountZeroRotate                   // a 0 passed every hand on
	CountSwapHands                    // a Wild Swap Hands swapped two hands
	CountPointTaken                   // a Point Taken took effect
	CountPileUp                       // a Wild Pile Up started a mini-pile
	CountPileTaken                    // cards taken from a mini-pile
	CountLink                         // a Wild Drawn Together linked two players
	CountLinkEcho                     // cards drawn as a link partner's echo
	CountSilence                      // a Wild Don't Speak silenced a player
	CountSpeakPenalty                 // a silenced player spoke and drew 3
	NumCounters
)

var counterNames = [NumCounters]string{
	"turns_lost", "reverses_played", "draw_twos_played", "wilds_played", "wild_draw_fours_played", "bluffs",
	"challenges", "bluffs_caught", "uno_calls", "uno_not_called", "uno_caught", "draws_holding_playable",
	"drawn_cards_played", "reshuffles", "owed_cards_forgiven", "stacked_cards", "skip_deflections",
	"draw_deflections", "jump_ins", "seven_swaps", "zero_rotations", "wild_swap_hands_played",
	"point_taken_effects", "pile_ups", "mini_pile_cards_taken", "links_made", "link_echo_cards",
	"silences", "speak_penalties",
}

var counterDocs = [NumCounters]string{
	"turns lost, whatever the cause: a Skip's victim (after any deflections), whoever takes a Draw Two or a Wild Draw Four, a challenger of a legal Wild Draw Four, the other player when a Reverse acts as a Skip with two players, the first player under a Skip or Draw Two start card",
	"Reverse cards put down (a Reverse start card is not counted)",
	"Draw Two cards put down, stacked and deflecting ones included",
	"plain Wild cards put down (not Wild Draw Four, not the Party or Encanto wilds)",
	"Wild Draw Four cards put down, stacked ones included",
	"Wild Draw Fours put down illegally under wd4-legal (judged on the hand they left), challenged or not",
	"challenges of a Wild Draw Four (only the last of a stack is judged)",
	"challenges that found the Wild Draw Four illegal",
	"UNO calls by a player whose hand just became one card",
	"players whose hand just became one card and who did not call UNO, caught or not",
	"missed UNO calls that were caught (the player drew uno-penalty cards)",
	"turns in which the player drew although it held a playable card",
	"drawn cards played at once",
	"times the discard pile (less its top card) became the draw pile",
	"owed cards (penalties, a link's echo) that could not be drawn because both piles were empty",
	"cards stacked on a pending Draw Two or Wild Draw Four",
	"Skips passed on with the identical Skip (deflect-skip)",
	"Draw Twos and Wild Draw Fours passed on with a Draw Two (deflect-draw-two, deflect-draw-four)",
	"out-of-turn plays of a card identical to the top discard (jump-in)",
	"7s that swapped two hands (seven-zero)",
	"0s that passed every hand on (seven-zero)",
	"Wild Swap Hands cards played (each swaps two hands)",
	"Point Taken effects: cards played and a Point Taken start card",
	"Wild Pile Ups that started a mini-pile",
	"cards taken into a hand from a mini-pile",
	"links made by a Wild Drawn Together",
	"cards drawn by a link partner as the echo of the other's draw",
	"Wild Don't Speak cards played (each silences a player)",
	"silenced players who spoke (caught a missed call or challenged) and drew 3",
}

// Doc says what the counter counts, for people.
func (c Counter) Doc() string {
	if c < NumCounters {
		return counterDocs[c]
	}
	return ""
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
