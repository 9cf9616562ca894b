// Package engine plays UNO exactly as docs/RULES.md specifies: classic
// UNO, UNO Party!, UNO: Encanto and the common house rules, chosen by an
// Options value.
//
// A Game is one table, built once with a Strategy per seat and reused for
// any number of games: Play(seed, i) plays game i of the run keyed by seed
// and allocates nothing. Every random number comes from a stream keyed by
// (seed, game index, purpose): the deal, reshuffles, the dealer, the table's
// own draws (who catches first, who jumps in first) and each seat's
// decisions draw from separate streams, so game i plays the same on any
// worker, and the same deal can be replayed under other strategies or
// options (common random numbers).
//
// Every decision a player makes goes through its Strategy: the engine offers
// the legal moves (a Wild Draw Four bluff is just a move) and a read-only
// View of what that seat may see. Decisions with a single legal move are
// taken without asking. A turn's plays come first, one per kind in kind
// order, and the View gives them as a set of kinds (View.Plays), so that a
// strategy can count and choose card instances with a few bit operations
// (Hand.Instances, Hand.Instance, View.PlayIndex) instead of loops, whose
// mispredicted exits cost more than anything else in a turn.
//
// Cards, colors, symbols and moves are small integer types; hands are
// counts per kind with bit sets of the kinds held at least once, twice,
// three and four times; a Game's state is fixed arrays. A Game is not safe
// for concurrent use: give each goroutine its own. StackDeck, Step, Check
// and the accessors exist for scenario tests and the replay command; SetLog
// reports every event for people (not on the hot path).
package engine
