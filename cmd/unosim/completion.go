package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/strategy"
)

// Shell completion of flag values: 'unosim completion SHELL' writes the
// script; the script calls 'unosim __complete ARGS...', which runs these
// functions. Each returns the candidates that start with what was typed.

func filterPrefix(cands []string, prefix string) []string {
	out := []string{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func ruleSetNames() []string {
	var out []string
	for r := engine.Classic; r < engine.NumRuleSets; r++ {
		out = append(out, r.String())
	}
	return out
}

func completeRules(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	return filterPrefix(ruleSetNames(), typed), cobra.ShellCompDirectiveNoFileComp
}

func completeSeats(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	return filterPrefix([]string{"fixed", "rotate"}, typed), cobra.ShellCompDirectiveNoFileComp
}

// completeSet completes option=value: the option names (with "="), then an
// enumerated option's values, or an integer option's minimum.
func completeSet(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	name, value, hasValue := strings.Cut(typed, "=")
	if !hasValue {
		var names []string
		for _, s := range engine.OptionSpecs() {
			if s.Name != "rules" { // chosen with --rules, refused by --set
				names = append(names, s.Name+"=")
			}
		}
		return filterPrefix(names, typed), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	for _, s := range engine.OptionSpecs() {
		if s.Name != name {
			continue
		}
		var vals []string
		switch t := optionType(&s); t.Type {
		case "boolean", "enum":
			vals = s.Enum
		case "deck":
			vals = ruleSetNames()
		case "integer":
			vals = []string{s.Default(engine.Classic)}
		}
		var out []string
		for _, v := range vals {
			out = append(out, name+"="+v)
		}
		return filterPrefix(out, name+"="+value), cobra.ShellCompDirectiveNoFileComp
	}
	return []string{}, cobra.ShellCompDirectiveNoFileComp
}

// completeStrategy completes NAME[:KEY=VALUE,...]: the registered names,
// then after ':' a parameter (KEY=), then a choice parameter's values or a
// numeric one's default.
func completeStrategy(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	name, params, hasParams := strings.Cut(typed, ":")
	if !hasParams {
		var names []string
		for _, in := range strategy.Registered() {
			names = append(names, in.Name)
		}
		return filterPrefix(names, typed), cobra.ShellCompDirectiveNoFileComp
	}
	var info *strategy.Info
	for _, in := range strategy.Registered() {
		if in.Name == name {
			info = &in
		}
	}
	if info == nil {
		return []string{}, cobra.ShellCompDirectiveNoFileComp
	}
	// The parameters already given stay as they are; only the last is completed.
	done, last := "", params
	if i := strings.LastIndex(params, ","); i >= 0 {
		done, last = params[:i+1], params[i+1:]
	}
	prefix := name + ":" + done
	key, _, hasValue := strings.Cut(last, "=")
	var out []string
	if !hasValue {
		for _, p := range info.Params {
			out = append(out, prefix+p.Name+"=")
		}
		return filterPrefix(out, typed), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	for _, p := range info.Params {
		if p.Name != key {
			continue
		}
		vals := p.Choices
		if len(vals) == 0 {
			vals = []string{p.Default}
		}
		for _, v := range vals {
			out = append(out, prefix+key+"="+v)
		}
	}
	return filterPrefix(out, typed), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeExperiment completes a built-in experiment's name, or a file.
func completeExperiment(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, b := range experiments.Builtins() {
		names = append(names, b.Name)
	}
	return filterPrefix(names, typed), cobra.ShellCompDirectiveDefault // files too
}

// registerConfigCompletion adds value completion to the configuration
// flags cmd has (--rules, --seats, --set, --strategy, --vs, --against, ...).
func registerConfigCompletion(cmd *cobra.Command) {
	for flag, f := range map[string]cobra.CompletionFunc{
		"rules": completeRules, "base-rules": completeRules, "seats": completeSeats,
		"set": completeSet, "base-set": completeSet,
		"strategy": completeStrategy, "vs": completeStrategy, "against": completeStrategy,
	} {
		if cmd.Flags().Lookup(flag) != nil {
			cmd.RegisterFlagCompletionFunc(flag, f)
		}
	}
}

// registerCompletions walks the command tree once the commands are built.
func registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		registerConfigCompletion(c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// optionJSON is one option of 'unosim rules --json': its type and the
// bounds or values it takes, with its default per rule set.
type optionJSON struct {
	Name     string            `json:"name"`
	Type     string            `json:"type"` // boolean, enum, integer, deck or rule-set
	Minimum  *int              `json:"minimum,omitempty"`
	Maximum  *int              `json:"maximum,omitempty"` // no option has one today: omitted
	Enum     []string          `json:"enum,omitempty"`
	Values   string            `json:"values"` // the allowed values, for people
	Defaults map[string]string `json:"defaults"`
	Doc      string            `json:"doc"`
}

// optionType types an option from its spec: an enumeration of exactly
// true/false is a boolean, other enumerations are enums, "integer >= N"
// is an integer with minimum N (the form the engine's integer options
// print); deck and rules are their own types.
func optionType(s *engine.OptionSpec) optionJSON {
	o := optionJSON{Name: s.Name, Values: s.Values, Doc: s.Doc, Defaults: map[string]string{}}
	for r := engine.Classic; r < engine.NumRuleSets; r++ {
		o.Defaults[r.String()] = s.Default(r)
	}
	switch {
	case s.Name == "rules":
		o.Type, o.Enum = "rule-set", s.Enum
	case s.Name == "deck":
		o.Type = "deck"
	case len(s.Enum) == 2 && s.Enum[0] == "true" && s.Enum[1] == "false":
		o.Type, o.Enum = "boolean", s.Enum
	case len(s.Enum) > 0:
		o.Type, o.Enum = "enum", s.Enum
	default:
		o.Type = "integer"
		if m, ok := strings.CutPrefix(s.Values, "integer >= "); ok {
			if n, err := strconv.Atoi(m); err == nil {
				o.Minimum = &n
			}
		}
	}
	return o
}
