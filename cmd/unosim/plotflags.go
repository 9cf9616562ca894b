package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/experiments"
)

// plotFlags are the choices of a report's plots: --formats, --dpi and
// --no-plots (experiment run, report).
type plotFlags struct {
	formats string
	dpi     int
	none    bool
}

func (f *plotFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.formats, "formats", "png,svg", "plot file formats, comma-separated: "+strings.Join(analysis.PlotFormats, ", "))
	// Any decimal integer reads; options checks the range with its own message.
	intVarFlag(fs, &f.dpi, "dpi", 150, math.MinInt32, math.MaxInt32, fmt.Sprintf("want 1 to %d dots per inch, in decimal digits", analysis.MaxDPI),
		"resolution of PNG plots in dots per inch, 1 to 1200")
	fs.BoolVar(&f.none, "no-plots", false, "write the report without plots (no plots/ directory)")
}

// options checks the flags and returns the plot options.
func (f *plotFlags) options(fs *pflag.FlagSet) (experiments.PlotOptions, error) {
	var o experiments.PlotOptions
	if f.none && (fs.Changed("formats") || fs.Changed("dpi")) {
		return o, usagef("--no-plots cannot be combined with --formats or --dpi")
	}
	formats, err := analysis.ParseFormats(f.formats)
	if err != nil {
		return o, usagef("--formats %s", err)
	}
	if f.dpi < 1 || f.dpi > analysis.MaxDPI {
		return o, usagef("--dpi %d: want 1 to %d dots per inch (150 is the default; 300 for print)", f.dpi, analysis.MaxDPI)
	}
	o.Formats, o.DPI, o.None = formats, f.dpi, f.none
	return o, nil
}
