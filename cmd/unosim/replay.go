package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

func newReplayCmd(a *app) *cobra.Command {
	var cf configFlags
	var game int64
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Print one game of a run turn by turn",
		Long: `Print game --game of the run keyed by --seed, turn by turn, with every hand. Give the same
rule, player, strategy, seat and option flags as the simulate run: the game is then exactly the
one that run played.`,
		Example: `  unosim replay --seed 1 --game 42
  unosim replay --seed 7 --game 3 --players 2 --strategy random --set stack-draw-two=true`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, err := cf.build()
			if err != nil {
				return err
			}
			warn(a, cf.warnings)
			g, err := cfg.GameFor(game)
			if err != nil {
				return usageError{err}
			}
			w := a.stdout
			fmt.Fprintf(w, "game %d of seed %d: %s rules, %d players\n", game, cfg.Seed, cfg.Options.Rules, cfg.Players)
			for s := 0; s < cfg.Players; s++ {
				fmt.Fprintf(w, "  seat %d: %s\n", s, cfg.LineUp[cfg.Position(game, s)])
			}
			g.SetLog(func(e engine.Event) {
				switch e.Kind {
				case engine.EvDeal:
					fmt.Fprintf(w, "  %s: %v\n", e, g.Hand(e.Player))
				case engine.EvTurn:
					fmt.Fprintf(w, "%s (top %s, color %s, holds %v)\n", e, g.Top(), g.Color(), g.Hand(e.Player))
				default:
					fmt.Fprintf(w, "  %s\n", e)
				}
			})
			r := g.Play(cfg.Seed, uint64(game))
			fmt.Fprintf(w, "result: %s after %d rounds and %d turns", r.Outcome, r.Rounds, r.Turns)
			if r.Winner >= 0 {
				fmt.Fprintf(w, ", seat %d wins", r.Winner)
			} else if r.Winners != 0 {
				fmt.Fprintf(w, ", shared win %b", r.Winners)
			}
			fmt.Fprintf(w, "; scores %v\n", r.Scores[:cfg.Players])
			return nil
		},
	}
	cf.register(cmd.Flags())
	int64Flag(cmd.Flags(), &game, "game", "a game index", 0, 0, sim.MaxGames-1, "index of the game in the run, from 0, in decimal")
	return cmd
}
