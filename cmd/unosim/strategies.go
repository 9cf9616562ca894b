package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/strategy"
)

// strategyJSON is one strategy of `unosim strategies --json`.
type strategyJSON struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Params      []paramJSON `json:"params"`
}

type paramJSON struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Default string   `json:"default"`
	Min     *float64 `json:"min"`
	Max     *float64 `json:"max"`
	Choices []string `json:"choices,omitempty"`
	Doc     string   `json:"doc"`
}

func strategyListing() []strategyJSON {
	out := []strategyJSON{}
	for _, in := range strategy.Registered() {
		s := strategyJSON{Name: in.Name, Description: in.Description, Params: []paramJSON{}}
		for _, p := range in.Params {
			pj := paramJSON{Name: p.Name, Type: p.Type, Default: p.Default, Choices: p.Choices, Doc: p.Doc}
			if p.Numeric() {
				lo, hi := p.Min, p.Max
				pj.Min, pj.Max = &lo, &hi
			}
			s.Params = append(s.Params, pj)
		}
		out = append(out, s)
	}
	return out
}

func newStrategiesCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "strategies",
		Short: "List the strategies and their parameters",
		Long: `List the built-in strategies and their parameters. Choose one with --strategy
NAME[:KEY=VALUE,...], for example --strategy heuristic:bluff=0.3,challenge=seen.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				data, err := json.MarshalIndent(strategyListing(), "", "  ")
				if err != nil {
					return runtimeError{err}
				}
				_, err = fmt.Fprintf(a.stdout, "%s\n", data)
				return err
			}
			for _, in := range strategy.Registered() {
				fmt.Fprintf(a.stdout, "%s\n  %s\n", in.Name, in.Description)
				for _, p := range in.Params {
					fmt.Fprintf(a.stdout, "  %-14s default %-6s %s (%s)\n", p.Name, p.Default, p.Doc, p.Values())
				}
				fmt.Fprintln(a.stdout)
			}
			fmt.Fprint(a.stdout, "exec:COMMAND\n  a bot in another language: unosim runs COMMAND and asks it every decision in JSON lines (docs/PROTOCOL.md), e.g. exec:python3 examples/simplebot.py\n\n")
			fmt.Fprintln(a.stdout, "syntax: NAME[:KEY=VALUE,...], e.g. heuristic:bluff=0.3,challenge=0.5")
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the registry as a JSON array: name, description and params (name, type, default, min, max)")
	return cmd
}
