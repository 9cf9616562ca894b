package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// Every count, index and seed on the command line is read in decimal:
// pflag's own integer flags read "010" as octal 8 and accept hex, so that a
// sweep written with `seq -w` would silently reuse seeds. These flags read
// only decimal digits (leading zeros allowed: 010 is ten) and check a
// range, with a message in the tool's own words.

// decimalFlag is an int64 flag read in decimal within [min, max].
type decimalFlag struct {
	p        *int64
	min, max int64
	want     string // what is wanted, for the message; "" gives the range
	noun     string // what a value is: "a game index"; "" is "a whole number"
}

func (f *decimalFlag) Set(s string) error {
	v, err := parseDecimal(s, f.min, f.max)
	if err != nil {
		return f.error()
	}
	*f.p = v
	return nil
}

func (f *decimalFlag) error() error {
	if f.want != "" {
		return errors.New(f.want)
	}
	noun := f.noun
	if noun == "" {
		noun = "a whole number"
	}
	return fmt.Errorf("want %s from %s to %s, in decimal digits", noun, thousands(f.min), thousands(f.max))
}

func (f *decimalFlag) Type() string   { return "int" }
func (f *decimalFlag) String() string { return strconv.FormatInt(*f.p, 10) }

// intFlag is an int flag read in decimal within [min, max].
type intFlag struct {
	p *int
	decimalFlag
}

func (f *intFlag) Set(s string) error {
	var v int64
	f.decimalFlag.p = &v
	if err := f.decimalFlag.Set(s); err != nil {
		return err
	}
	*f.p = int(v)
	return nil
}

func (f *intFlag) String() string { return strconv.Itoa(*f.p) }

// seedFlag is a uint64 flag read in decimal: any seed 0 to 2^64-1.
type seedFlag struct{ p *uint64 }

func (f seedFlag) Set(s string) error {
	if !isDecimal(s) || strings.HasPrefix(s, "-") {
		return errSeed
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		return errSeed
	}
	*f.p = v
	return nil
}

var errSeed = errors.New("want a seed from 0 to 18446744073709551615 (2^64-1), in decimal digits")

func (f seedFlag) Type() string   { return "uint" }
func (f seedFlag) String() string { return strconv.FormatUint(*f.p, 10) }

func int64Flag(fs *pflag.FlagSet, p *int64, name, noun string, value, lo, hi int64, usage string) {
	*p = value
	fs.Var(&decimalFlag{p: p, min: lo, max: hi, noun: noun}, name, usage)
}

func intVarFlag(fs *pflag.FlagSet, p *int, name string, value, lo, hi int, want, usage string) {
	*p = value
	fs.Var(&intFlag{p: p, decimalFlag: decimalFlag{min: int64(lo), max: int64(hi), want: want}}, name, usage)
}

func seedVarFlag(fs *pflag.FlagSet, p *uint64, name string, value uint64, usage string) {
	*p = value
	fs.Var(seedFlag{p}, name, usage)
}

// isDecimal reports whether s is an optional sign and one or more decimal
// digits, nothing else (no 0x, no underscores, no exponent).
func isDecimal(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseDecimal reads s in base 10 (leading zeros allowed) within [lo, hi].
func parseDecimal(s string, lo, hi int64) (int64, error) {
	if !isDecimal(s) {
		return 0, errors.New("not a decimal number")
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, errors.New("out of range")
	}
	return v, nil
}

// flagError rewrites pflag's errors ("invalid argument "x" for "--games"
// flag: strconv.ParseInt: ...") in the tool's own words: the flag, what was
// given and what is wanted.
func flagError(_ *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		cause := iv.Unwrap()
		var ne *strconv.NumError
		if errors.As(cause, &ne) {
			switch f.Value.Type() {
			case "bool":
				cause = errors.New("want true or false")
			case "float64":
				cause = errors.New("want a number, e.g. 0.25")
			default:
				cause = errors.New("not a valid value")
			}
		}
		return usageError{fmt.Errorf("--%s %q: %v", f.Name, iv.GetValue(), cause)}
	}
	return usageError{err}
}

// Argument checks with messages of our own (cobra says "accepts 1 arg(s),
// received 0").

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q (flags start with --; see '%s --help')", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// oneArg wants exactly one argument, described by what.
func oneArg(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch len(args) {
		case 1:
			return nil
		case 0:
			return usagef("%s needs %s, got none", cmd.CommandPath(), what)
		}
		return usagef("%s needs %s, got %d arguments: %s", cmd.CommandPath(), what, len(args), strings.Join(args, " "))
	}
}

// someArgs wants at least one argument, described by what.
func someArgs(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usagef("%s needs %s, got none", cmd.CommandPath(), what)
		}
		return nil
	}
}

// timeLeft formats the estimated time left; an estimate beyond what a
// Duration holds (a huge shard) is "more than 100,000h", never negative.
func timeLeft(seconds float64) string {
	const most = 100_000 * 3600
	switch {
	case seconds > most:
		return "more than 100,000h"
	case seconds < 0 || math.IsNaN(seconds): // NaN: nothing left at no measured rate
		seconds = 0
	}
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}

// workersFlag registers --workers: 0 (the default) is one per core.
func workersFlag(fs *pflag.FlagSet, p *int) {
	intVarFlag(fs, p, "workers", 0, 0, sim.MaxWorkers, fmt.Sprintf("want 0 (one per core) to %d workers", sim.MaxWorkers),
		"parallel workers; 0 (the default) is one per core")
}

// playersFlag registers --players; the rule set's range is checked with the
// configuration.
func playersFlag(fs *pflag.FlagSet, p *int, value int) {
	intVarFlag(fs, p, "players", value, 0, 1000, "want a number of players: classic and encanto 2 to 10, party 2 to 16", "number of players (classic and encanto 2-10, party 2-16)")
}

// parseFloat reads s as a finite decimal number (strategy.ParseDecimal).
func parseFloat(s string) (float64, bool) {
	v, err := strategy.ParseDecimal(s)
	return v, err == nil
}

// floatFlag is a float64 flag read by parseFloat.
type floatFlag struct{ p *float64 }

func (f floatFlag) Set(s string) error {
	v, ok := parseFloat(s)
	if !ok {
		return errors.New("want a number in decimal digits, e.g. 0.25")
	}
	*f.p = v
	return nil
}

func (f floatFlag) Type() string   { return "float" }
func (f floatFlag) String() string { return strconv.FormatFloat(*f.p, 'g', -1, 64) }

func floatVarFlag(fs *pflag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(floatFlag{p}, name, usage)
}
