package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/strategy"
)

func newStrategiesCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "strategies",
		Short: "List the strategies and their parameters",
		Long: `List the built-in strategies and their parameters. Choose one with --strategy
NAME[:KEY=VALUE,...], for example --strategy heuristic:bluff=0.3,challenge=seen.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, in := range strategy.Available() {
				fmt.Fprintf(a.stdout, "%s\n  %s\n", in.Name, in.Doc)
				for _, p := range in.Params {
					fmt.Fprintf(a.stdout, "  %-10s default %-6s %s (%s)\n", p.Name, p.Default, p.Doc, p.Values)
				}
				fmt.Fprintln(a.stdout)
			}
			fmt.Fprintln(a.stdout, "syntax: NAME[:KEY=VALUE,...], e.g. heuristic:bluff=0.3,challenge=0.5")
			return nil
		},
	}
}
