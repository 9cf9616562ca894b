package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

type compareOptions struct {
	config    configFlags // the changed configuration (and the shared flags)
	baseRules string
	baseSets  []string
	games     int64
	workers   int
	json      bool
	quiet     bool
}

func newCompareCmd(a *app) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Compare two rule configurations on the same deals: paired differences with intervals and p-values",
		Long: `Play two configurations on the same games (game i of both is keyed by (--seed, i), so both deal
the same hands) and print the paired differences, changed minus baseline, with 95% intervals and
p-values: a paired t-test for turns and cards drawn, McNemar's test for unfinished games, the
first player's win and each seat's win (the score test with Tango's interval, or the mid-p test
with its inverted interval below 25 discordant pairs), p-values also adjusted by Holm's method
over the tests shown. It is the paired machinery of the experiments, for one comparison without
a file.

The baseline is --base-rules (default: the same as --rules) with the --base-set options; the
changed configuration is --rules with the --set options. --players, --strategy, --seats and
--seed apply to both. To compare strategies rather than rules, use 'unosim match'.`,
		Example: `  unosim compare --players 4 --set stack-draw-two=true
  unosim compare --base-set draw=until-playable --set draw=one --games 20000 --json
  unosim compare --base-rules classic --rules encanto --players 3 --strategy random`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCompare(cmd.Context(), a, o) },
	}
	fs := cmd.Flags()
	o.config.register(fs)
	fs.StringVar(&o.baseRules, "base-rules", "", "the baseline's rule set (default: --rules)")
	fs.StringArrayVar(&o.baseSets, "base-set", nil, "option=value of the baseline (repeatable; default: the rule set's defaults)")
	int64Flag(fs, &o.games, "games", "a number of games", 100_000, 2, sim.MaxGames, "games of each configuration, on the same deals")
	workersFlag(fs, &o.workers)
	fs.BoolVar(&o.json, "json", false, "print the comparison as one JSON object on stdout")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	return cmd
}

// compareConfig is one side of a comparison, in the JSON.
type compareConfig struct {
	Label   string            `json:"label"`
	Rules   string            `json:"rules"`
	Options map[string]string `json:"options"` // changed from the rule set's defaults
	LineUp  []string          `json:"lineup"`
}

// compareTest is a paired test; JSON has no NaN, so an undefined number is null.
type compareTest struct {
	Metric      string     `json:"metric"`
	Unit        string     `json:"unit"` // of the estimates and the effect: turns, cards or proportion
	Method      string     `json:"method"`
	N           int64      `json:"n"`
	Baseline    *float64   `json:"baseline"`
	Changed     *float64   `json:"changed"`
	Effect      *float64   `json:"effect"` // changed minus baseline
	CI          []*float64 `json:"ci"`
	P           *float64   `json:"p"`
	PHolm       *float64   `json:"p_holm"`
	NotTestable string     `json:"not_testable,omitempty"`
	Note        string     `json:"note,omitempty"`
}

type compareResult struct {
	Players  int           `json:"players"`
	Seats    string        `json:"seats"`
	Seed     uint64        `json:"seed"`
	Games    int64         `json:"games"` // per configuration
	Complete bool          `json:"complete"`
	Baseline compareConfig `json:"baseline"`
	Changed  compareConfig `json:"changed"`
	Tests    []compareTest `json:"tests"`
	Seconds  float64       `json:"seconds"`

	planned int64 // games per configuration asked for
}

func fptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func sideOf(label string, c *sim.Config) compareConfig {
	s := compareConfig{Label: label, Rules: c.Options.Rules.String(), Options: map[string]string{}}
	for _, kv := range changedOptions(c.Options) {
		s.Options[kv[0]] = kv[1]
	}
	for _, sp := range c.LineUp {
		s.LineUp = append(s.LineUp, sp.String())
	}
	return s
}

// sideLabel names a configuration by what it changes from its defaults.
func sideLabel(c *sim.Config) string {
	ch := changedOptions(c.Options)
	if len(ch) == 0 {
		return c.Options.Rules.String() + " defaults"
	}
	var s []string
	for _, kv := range ch {
		s = append(s, kv[0]+"="+kv[1])
	}
	return c.Options.Rules.String() + " " + strings.Join(s, ",")
}

// compareExperiment is the comparison as a two-cell experiment: cell 0
// the baseline, cell 1 the changed configuration, one pair (1 against 0)
// over the metrics compare reports. The experiments' runner and tests do
// the rest, so compare and experiment files agree to the bit.
func compareExperiment(base, changed *sim.Config, games int64) *experiments.Experiment {
	metrics := []experiments.Metric{{Kind: experiments.MetricTurns}, {Kind: experiments.MetricCardsDrawn},
		{Kind: experiments.MetricUnfinished}, {Kind: experiments.MetricFirstPlayer}}
	for j := range changed.Players {
		metrics = append(metrics, experiments.Metric{Kind: experiments.MetricPosition, Position: j})
	}
	lb, lc := sideLabel(base), sideLabel(changed)
	if lb == lc {
		lb, lc = "baseline", "changed"
	}
	e := &experiments.Experiment{
		File:   experiments.File{Name: "compare", Seed: base.Seed, Games: games},
		Source: "compare",
		Main:   experiments.Metric{Kind: experiments.MetricTurns},
		Cells: []experiments.Cell{
			{Index: 0, Label: lb, Slug: "baseline", Coords: map[string]string{"config": "baseline"}, Config: *base},
			{Index: 1, Grid: 0, Label: lc, Slug: "changed", Coords: map[string]string{"config": "changed"}, Config: *changed},
		},
		Pairs: []experiments.Pair{{A: 1, B: 0, Axis: "config", Metrics: metrics}},
		Axes:  []string{"config"},
	}
	return e
}

func runCompare(ctx context.Context, a *app, o *compareOptions) error {
	changed, err := o.config.build()
	if err != nil {
		return err
	}
	warn(a, o.config.warnings)
	bf := o.config
	bf.sets = o.baseSets
	if o.baseRules != "" {
		bf.rules = o.baseRules
	}
	base, err := bf.build()
	if err != nil {
		return usagef("baseline (--base-rules, --base-set): %v", err)
	}
	warn(a, bf.warnings)
	if base.Identity().Equal(changed.Identity()) {
		return usagef("the two configurations are the same (%s): change the second with --set or --rules, or the baseline with --base-set or --base-rules", sideLabel(base))
	}
	base.Workers, changed.Workers = o.workers, o.workers
	e := compareExperiment(base, changed, o.games)
	ro := experiments.RunOptions{Workers: o.workers, Interval: time.Second}
	prog := newProgressPrinter(a.stderr, a.stderrIsTTY)
	defer prog.finish(false)
	if !o.quiet {
		ro.Progress = prog.update
	}
	if err := e.CheckRun(ro); err != nil {
		return usageError{err}
	}
	start := time.Now()
	res, err := e.Run(ctx, ro)
	if err != nil {
		return runtimeError{err}
	}
	prog.finish(res.Complete)
	out := compareResult{Players: changed.Players, Seats: changed.Seats.String(), Seed: changed.Seed, Games: res.Cells[0].Stats.Games,
		Complete: res.Complete, Baseline: sideOf(e.Cells[0].Label, base), Changed: sideOf(e.Cells[1].Label, changed), Tests: []compareTest{},
		Seconds: time.Since(start).Seconds(), planned: o.games}
	for _, t := range res.Tests() {
		unit := "proportion"
		switch t.Metric {
		case "turns":
			unit = "turns"
		case "cards-drawn":
			unit = "cards"
		}
		out.Tests = append(out.Tests, compareTest{Metric: t.Metric, Unit: unit, Method: t.Method, N: t.N,
			Baseline: fptr(t.EstB), Changed: fptr(t.EstA), Effect: fptr(t.Effect), CI: []*float64{fptr(t.EffectLo), fptr(t.EffectHi)},
			P: fptr(t.P), PHolm: fptr(t.PHolm), NotTestable: t.NotTestable, Note: t.Note})
	}
	if o.json {
		if err := printJSON(a.stdout, out); err != nil {
			return err
		}
	} else {
		printCompare(a.stdout, &out)
	}
	if !res.Complete {
		return errInterrupted
	}
	return nil
}

// metricName is a metric for people.
func metricName(m string) string {
	switch m {
	case "turns":
		return "turns per game"
	case "cards-drawn":
		return "cards drawn per game"
	case "unfinished":
		return "unfinished games"
	case "first-player":
		return "first player wins"
	}
	if k, ok := strings.CutPrefix(m, "position:"); ok {
		return "seat " + k + " wins"
	}
	return m
}

func printCompare(w io.Writer, r *compareResult) {
	lineup := r.Changed.LineUp[0]
	for _, s := range r.Changed.LineUp[1:] {
		if s != lineup {
			lineup = strings.Join(r.Changed.LineUp, ", ")
			break
		}
	}
	if !r.Complete {
		// As simulate's table: the printed report must not look complete.
		fmt.Fprintf(w, "INCOMPLETE: interrupted after %s of %s games of each configuration; the figures cover only those.\n\n",
			thousands(r.Games), thousands(r.planned))
	}
	deals := "on the same deals"
	if len(r.Tests) > 0 && r.Tests[0].Note != "" {
		deals = "on the same game keys (not the same deals: see the note)"
	}
	fmt.Fprintf(w, "%s games of each configuration %s (seed %d), %d players (%s, seats %s)\n", thousands(r.Games), deals, r.Seed, r.Players, lineup, r.Seats)
	fmt.Fprintf(w, "  baseline: %s\n  changed:  %s\n\n", r.Baseline.Label, r.Changed.Label)
	num := func(t *compareTest, v *float64, signed bool) string {
		if v == nil {
			return "–"
		}
		x := *v
		switch t.Unit {
		case "proportion":
			if signed {
				return fmt.Sprintf("%+.2f pp", 100*x)
			}
			return fmt.Sprintf("%.2f%%", 100*x)
		}
		if signed {
			return fmt.Sprintf("%+.3f", x)
		}
		return fmt.Sprintf("%.3f", x)
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "METRIC\tBASELINE\tCHANGED\tDIFFERENCE [95% CI]\tp\tp (Holm)")
	for i := range r.Tests {
		t := &r.Tests[i]
		diff := num(t, t.Effect, true) + " [" + num(t, t.CI[0], true) + ", " + num(t, t.CI[1], true) + "]"
		if t.NotTestable != "" {
			why, _, _ := strings.Cut(t.NotTestable, ":")
			diff = "not testable: " + why
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", metricName(t.Metric), num(t, t.Baseline, false), num(t, t.Changed, false), diff, pvalue(t.P), pvalue(t.PHolm))
	}
	tw.Flush()
	if len(r.Tests) > 0 && r.Tests[0].Note != "" {
		fmt.Fprintf(w, "\nnote: %s\n", r.Tests[0].Note)
	}
	fmt.Fprintln(w, "\nturns and cards: paired t-test of the mean difference; yes/no outcomes: McNemar's test (score test with")
	fmt.Fprintln(w, "Tango's interval, or mid-p with its inverted interval below 25 discordant pairs); pp: percentage points")
}

func pvalue(p *float64) string {
	switch {
	case p == nil:
		return "–"
	case *p < 1e-300:
		return "<1e-300"
	case *p < 1e-4:
		return fmt.Sprintf("%.1e", *p)
	}
	return fmt.Sprintf("%.4f", *p)
}
