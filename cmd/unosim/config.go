package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// configFlags are the flags that describe a game configuration, shared by
// simulate and replay.
type configFlags struct {
	rules      string
	players    int
	strategies []string
	sets       []string
	seats      string
	seed       uint64

	// warnings are filled by build: input that is valid but probably not
	// what was meant, for stderr.
	warnings []string
}

func (f *configFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.rules, "rules", "classic", "rule set: classic, encanto or party")
	playersFlag(fs, &f.players, 4)
	fs.StringArrayVar(&f.strategies, "strategy", nil, "strategy NAME[:KEY=VALUE,...]; once for every seat, or once per seat in seat order (default heuristic; see 'unosim strategies')")
	fs.StringArrayVar(&f.sets, "set", nil, "option=value, any option of 'unosim rules' (repeatable)")
	fs.StringVar(&f.seats, "seats", "fixed", "fixed: seat s plays the s-th strategy; rotate: game i shifts strategies by i seats, removing seat bias")
	seedVarFlag(fs, &f.seed, "seed", 1, "seed of the run, 0 to 2^64-1 in decimal: game i plays the same for the same seed")
}

// build checks every flag and makes the configuration, with usage errors
// naming the valid choices.
func (f *configFlags) build() (*sim.Config, error) {
	r, err := engine.ParseRuleSet(f.rules)
	if err != nil {
		return nil, usageError{err}
	}
	opts := engine.DefaultOptions(r)
	f.warnings = nil
	given := map[string]string{}
	var names []string
	for _, s := range f.sets {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return nil, usagef("--set %q: want option=value (options: %s)", s, strings.Join(engine.OptionNames(), ", "))
		}
		if err := opts.Set(name, value); err != nil {
			return nil, usageError{err}
		}
		if old, dup := given[name]; dup {
			f.warnings = append(f.warnings, fmt.Sprintf("--set %s given twice (%s, then %s): the last, %s=%s, applies", name, old, value, name, value))
		} else {
			names = append(names, name)
		}
		given[name] = value
	}
	f.warnings = append(f.warnings, noEffect(opts, names)...)
	if err := opts.Validate(f.players); err != nil {
		return nil, usageError{err}
	}
	seats, err := sim.ParseSeats(f.seats)
	if err != nil {
		return nil, usageError{err}
	}
	specs := f.strategies
	if len(specs) == 0 {
		specs = []string{"heuristic"}
	}
	if len(specs) != 1 && len(specs) != f.players {
		return nil, usagef("--strategy given %d times for %d players: give it once (every seat) or once per seat", len(specs), f.players)
	}
	var lineUp []strategy.Spec
	for _, s := range specs {
		sp, err := strategy.Parse(s)
		if err != nil {
			return nil, usagef("--strategy: %v", err)
		}
		lineUp = append(lineUp, sp)
	}
	for len(lineUp) < f.players {
		lineUp = append(lineUp, lineUp[0])
	}
	return &sim.Config{Options: opts, Players: f.players, LineUp: lineUp, Seats: seats, Seed: f.seed, Games: 1}, nil
}

// noEffect warns of the options set (names) that the chosen scoring
// ignores: a target or a losers' outcome in single games, a losers'
// outcome when the winner takes the points.
func noEffect(o engine.Options, names []string) []string {
	scoring, _ := o.Get("scoring")
	var w []string
	for _, n := range names {
		switch {
		case n == "target" && scoring == "single",
			n == "losers-outcome" && scoring != "losers-accumulate":
			w = append(w, fmt.Sprintf("--set %s has no effect with scoring=%s (it applies to %s)", n, scoring, map[string]string{
				"target": "matches: scoring=winner-takes or losers-accumulate", "losers-outcome": "scoring=losers-accumulate"}[n]))
		}
	}
	return w
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
