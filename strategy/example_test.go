package strategy_test

import (
	"context"
	"fmt"
	"time"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// firstPlay plays the first legal move it is offered: at a turn that is its
// lowest playable kind (plays come first, in kind order), elsewhere the
// first answer. Its parameter is how often it calls UNO.
type firstPlay struct{ call float64 }

func (f *firstPlay) Decide(v *engine.View, moves []engine.Move) int {
	if v.Decision() == engine.DecideCallUNO && !v.Rand().Bernoulli(f.call) {
		return 1 // pass
	}
	return 0
}

// A strategy of one's own is registered once, before any command runs
// (from an init function or main), and is then known by name to every
// command: simulate, experiments, replay, match, tournament and tune.
func ExampleRegister() {
	strategy.MustRegister(strategy.Info{
		Name:        "first-play",
		Description: "plays its lowest playable card",
		Params: []strategy.Param{
			{Name: "call", Type: strategy.Number, Default: "1", Min: 0, Max: 1, Doc: "chance of calling UNO"},
		},
		New: func(a strategy.Args) engine.Strategy { return &firstPlay{call: a.Float("call")} },
	})
	mine, err := strategy.Parse("first-play:call=0.5")
	if err != nil {
		panic(err)
	}
	cfg := &sim.Config{
		Options: engine.DefaultOptions(engine.Classic),
		Players: 2,
		LineUp:  []strategy.Spec{mine, strategy.MustParse("random")},
		Seats:   sim.RotateSeats,
		Games:   10000,
		Seed:    1,
	}
	run, err := sim.Simulate(context.Background(), cfg, nil, time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println(mine, "won", run.Stats.WinsByPosition[0], "of", run.Stats.Games, "games against random")
	// Output: first-play:call=0.5 won 4850 of 10000 games against random
}
