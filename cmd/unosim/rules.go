package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/engine"
)

func defaultOption(rules, name string) (string, bool) {
	r, err := engine.ParseRuleSet(rules)
	if err != nil {
		return "", false
	}
	o := engine.DefaultOptions(r)
	v, err := o.Get(name)
	return v, err == nil
}

type ruleListing struct {
	RuleSets []ruleSetInfo `json:"rule_sets"`
	Options  []optionJSON  `json:"options"`
}

type ruleSetInfo struct {
	Name       string `json:"name"`
	Deck       string `json:"deck"`
	Cards      int    `json:"cards"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
}

func listRules() ruleListing {
	var l ruleListing
	for r := engine.Classic; r < engine.NumRuleSets; r++ {
		o := engine.DefaultOptions(r)
		lo, hi := r.PlayerRange()
		l.RuleSets = append(l.RuleSets, ruleSetInfo{r.String(), o.Deck.String(), o.Deck.Size(), lo, hi})
	}
	for _, s := range engine.OptionSpecs() {
		l.Options = append(l.Options, optionType(&s))
	}
	return l
}

func newRulesCmd(a *app) *cobra.Command {
	asJSON := false
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rule sets and every option with its default per rule set and its allowed values",
		Long: `List the rule sets and every option of RULES.md with its default under each rule set and its
allowed values. Change an option with --set option=value in simulate and replay. --json gives
each option typed: type (boolean, enum, integer, deck, rule-set), minimum and maximum of an
integer (maximum omitted: none has one), the enum values, and the default per rule set.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			l := listRules()
			if asJSON {
				data, err := json.MarshalIndent(l, "", "  ")
				if err != nil {
					return runtimeError{err}
				}
				fmt.Fprintln(a.stdout, string(data))
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "RULE SET\tCARDS\tPLAYERS")
			for _, r := range l.RuleSets {
				fmt.Fprintf(tw, "%s\t%d\t%d-%d\n", r.Name, r.Cards, r.MinPlayers, r.MaxPlayers)
			}
			tw.Flush()
			fmt.Fprintln(a.stdout)
			tw = tabwriter.NewWriter(a.stdout, 2, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "OPTION\tCLASSIC\tENCANTO\tPARTY\tVALUES")
			for _, o := range l.Options {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", o.Name, short(o.Defaults["classic"]), short(o.Defaults["encanto"]), short(o.Defaults["party"]), o.Values)
			}
			tw.Flush()
			fmt.Fprintln(a.stdout)
			for _, o := range l.Options {
				fmt.Fprintf(a.stdout, "  %-20s %s\n", o.Name, o.Doc)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the listing as JSON")
	return cmd
}

func short(s string) string {
	if len(s) > 24 {
		return s[:21] + "..."
	}
	return s
}
