// Package engine plays UNO exactly as docs/RULES.md specifies: classic
// UNO, UNO Party!, UNO: Encanto and the common house rules, chosen by an
// Options value.
//
// # Positions and the two ways to drive them
//
// A State is a game position held by value: hands, piles, scores, every
// random stream and every pending effect (a stack in progress, a challenge
// window, a UNO check with its catches, a Wild Pile Up, a Point Taken's
// blind choices, a jump-in race) as data, not as frames on the Go stack.
// The rules are written in direct style, and where a player must choose
// between several moves the State records the decision and returns; the
// control state lives in three nested levels (the step, the play or
// effect in progress, and a color or UNO check), so it is stopped and
// resumed at any decision (machine.go). A State is driven in one of two
// ways, with the same results for the same seed:
//
//   - by hand, as search does: Start, then Pending (who decides what),
//     Moves (the legal moves, into a caller's buffer) and Apply, until
//     Over; CopyFrom (or =) copies a position, and Determinize resamples
//     what one seat cannot see;
//   - by a Game, the fast path for simulation: a State and one Strategy
//     per seat, asked through a read-only View; Play(seed, i) plays game i
//     of the run keyed by seed, and PlayOut plays any position it is given
//     to the end (a search strategy's playouts).
//
// Decisions with a single legal move are taken without asking, and so are
// the answers a strategy declares: it always calls UNO (UNOCaller), it
// plays every playable drawn card but an illegal Wild Draw Four
// (DrawnPlayer). A strategy may choose its turn from the View without a
// move list (TurnChooser). A Game asks at once, inside the rules, at a
// turn, a drawn card and a play's color, with every level of the machine
// saved as if it had stopped, so that a position a strategy copies during
// its decision is whole; at any other decision the State stops and the
// Game resumes it.
//
// # Randomness
//
// Every random number comes from a stream keyed by (seed, game index,
// purpose): the deal, reshuffles, the dealer, the table's own draws (who
// catches first, who jumps in first) and each seat's decisions draw from
// separate streams, so game i plays the same on any worker, and the same
// deal can be replayed under other strategies or options (common random
// numbers). Determinize reseeds every stream its seat cannot know.
//
// # What a seat sees
//
// A View shows one seat what docs/RULES.md section 10 lets it see; its
// accessors return values or read-only types (HandView), so a strategy
// cannot change the game through it. A strategy that implements Observer
// is told when a game begins and every event its seat sees (Visible),
// or only the kinds it selects (EventSelector). Strategies at one table may
// share a value (View.Shared: only what every seat sees), and one that
// implements PublicReader reads the table's public events once for the
// whole table, where Observe costs a call per event and seat (and, alone at
// its table, the plays by a lighter call if it is a PlayReader). An event no
// observer, reader or log asks for is not even built. Knowledge keeps what
// a seat has seen of other hands, for Determinize.
//
// # Speed
//
// A turn's plays come first, one per kind in kind order, and the View
// gives them as a set of kinds (View.Plays), so that a strategy can count
// and choose card instances with a few bit operations (Hand.Instances,
// Hand.Instance, View.PlayIndex) instead of loops. Cards, colors, symbols
// and moves are small integer types; hands are counts per kind with bit
// sets of the kinds held at least once to four times. Play, Moves, Apply,
// CopyFrom, Determinize and PlayOut allocate nothing. A Game or a State is
// not safe for concurrent use: give each goroutine its own. StackDeck,
// Step, Check and the State's accessors exist for scenario tests and the
// replay command; SetLog reports every event for people.
package engine
