package strategy

import "github.com/unosim/unosim/engine"

// UnseenOfColor exposes, to the tests, the counter's running count of the
// unseen cards of printed color col (engine.NoColor: the wilds).
func (c *Counter) UnseenOfColor(col engine.Color) int { return c.ucol[col] }

// OpponentWeight exposes opponentWeight to the tests.
var OpponentWeight = opponentWeight
