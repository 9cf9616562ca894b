package strategy

import "github.com/unosim/unosim/engine"

// UnseenOfColor exposes, to the tests, the counter's count of the unseen
// cards of printed color col (engine.NoColor: the wilds), as of its last
// decision.
func (c *Counter) UnseenOfColor(col engine.Color) int {
	c.catchUp()
	c.look(c.view) // a decision works them out only where it reads them
	return c.ucol[col]
}

// UnseenTotal exposes, to the tests, the counter's count of all its
// unseen cards, as UnseenOfColor.
func (c *Counter) UnseenTotal() int {
	c.catchUp()
	c.look(c.view)
	return c.total
}

// UnseenOthers exposes, to the tests, the counter's count of the unseen
// cards of colored card k's symbol in the other colors, as of its last
// decision.
func (c *Counter) UnseenOthers(k engine.Card) int {
	c.catchUp()
	return c.unseenOthers(k)
}

// OpponentWeight exposes opponentWeight to the tests.
var OpponentWeight = opponentWeight

// SharesReading exposes, to the tests, whether the counter reads its
// table's frequent events with the other counters of its Trust (a
// tableReading).
func (c *Counter) SharesReading() bool { return c.tv != nil }

// TellEveryEvent makes the counter read the frequent events as they are
// told to it, as where hands can be swapped, never with a shared reading
// (from its next Begin).
func (c *Counter) TellEveryEvent() { c.told = true }
