package strategy_test

import (
	"strings"
	"testing"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// The counter's unseen cards by color and in all, kept event by event or
// worked out from its table's shared reading, are the sums of its unseen
// cards by kind: with swaps (told every event), and with the feed the
// counters select at tables without (the shared reading, with cards known
// in other hands after challenges and, in Party, taken mini-piles).
func TestCounterUnseenByColorIsTheSum(t *testing.T) {
	noisy := "random:bluff=0.5,challenge=0.5,forget=0.3,catch=0.5"
	for _, tc := range []struct {
		rules    engine.RuleSet
		sets     []string
		selected bool
	}{
		{engine.Classic, []string{"jump-in=any", "seven-zero=true"}, false},
		{engine.Classic, []string{"guilty-takes-back=true"}, true},
		{engine.Party, nil, true},
		{engine.Encanto, nil, true},
	} {
		o := options(t, tc.rules, tc.sets...)
		specs := []string{"counter", noisy, "counter:challenge=always", "heuristic", "counter:trust=0"}
		var cs []*strategy.Counter
		checked := 0
		obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
			c := cs[seat]
			if c == nil {
				return
			}
			var sum [engine.NoColor + 1]int
			total := 0
			for k := range engine.NumCards {
				card := engine.Card(k)
				sum[card.Color()] += c.Unseen(card)
				total += c.Unseen(card)
			}
			for col := engine.Red; col <= engine.NoColor; col++ {
				if got := c.UnseenOfColor(col); got != sum[col] {
					t.Fatalf("%s: game %d, turn %d, seat %d: %d unseen of color %v, but its kinds sum to %d", tc.rules, v.Game(), v.Turns(), seat, got, col, sum[col])
				}
			}
			if got := c.UnseenTotal(); got != total {
				t.Fatalf("%s: game %d, turn %d, seat %d: %d unseen in all, but its kinds sum to %d", tc.rules, v.Game(), v.Turns(), seat, got, total)
			}
			checked++
		}
		var g *engine.Game
		g, cs = countingTableFed(t, o, specs, obs, tc.selected)
		for i := range uint64(300) {
			g.Play(9, i)
			if err := g.Err(); err != nil {
				t.Fatal(err)
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d decisions checked", tc.rules, checked)
		}
		for seat, c := range cs {
			if c != nil && c.SharesReading() != tc.selected {
				t.Errorf("%s, selected feed %v: the counter of seat %d shares a reading: %v", tc.rules, tc.selected, seat, c.SharesReading())
			}
		}
	}
}

// A bot that speaks an older protocol is refused like a newer one; a bot
// that exits names its exit status.
func TestExecBotProtocolAndExit(t *testing.T) {
	bin := buildBot(t)
	t.Setenv("UNOSIM_BOT_TIMEOUT", "2s")
	for _, tc := range []struct{ mode, want string }{
		{"oldhello", "protocol 0"},
		{"crash", "exit status 4"},
	} {
		_, err := playExec(t, "exec:"+bin+" "+tc.mode, 50)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.mode, err, tc.want)
		}
	}
}

// An opponent's card is worth 1/(n-1) of one's own with n players in the
// round (the cost falls on one of n-1 rivals), all of it with two.
func TestOpponentWeight(t *testing.T) {
	for n, want := range map[int]float64{2: 1, 3: 1.0 / 2, 4: 1.0 / 3, 10: 1.0 / 9} {
		if got := strategy.OpponentWeight(n); got != want {
			t.Errorf("OpponentWeight(%d) = %v, want %v", n, got, want)
		}
	}
}
