package strategy

import "github.com/unosim/unosim/engine"

// UnseenOfColor exposes, to the tests, the counter's count of the unseen
// cards of printed color col (engine.NoColor: the wilds), as of its last
// decision.
func (c *Counter) UnseenOfColor(col engine.Color) int {
	c.look(c.view) // a decision works them out only where it reads them
	return c.ucol[col]
}

// UnseenTotal exposes, to the tests, the counter's count of all its
// unseen cards, as UnseenOfColor.
func (c *Counter) UnseenTotal() int {
	c.look(c.view)
	return c.total
}

// OpponentWeight exposes opponentWeight to the tests.
var OpponentWeight = opponentWeight

// SharesReading exposes, to the tests, whether the counter reads its
// table's log with the other counters of its Trust (a tableReading).
func (c *Counter) SharesReading() bool { return c.tv != nil }

// ForgetFromTheLog makes the counters with a shared reading forget the
// plays of the seats they know cards of by reading the log, as they do
// when there were more plays than their reading keeps, until restore (a
// package setting: not for tests that run in parallel).
func ForgetFromTheLog() (restore func()) {
	forgetWindow = 0
	return func() { forgetWindow = lastPlaysLen }
}
