package analysis

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The plots of a plain simulate run's report: the game-length distribution
// and win rates with their intervals. Their words are the report's: metric
// names for people with units, proportions in percent. They are built from
// gonum/plot directly, so that they do not depend on the internals of the
// experiment plots, and are saved with [SavePlot].

var (
	simBlue  = color.NRGBA{0, 114, 178, 255} // Okabe & Ito blue, as the experiment plots
	simGray  = color.Gray{Y: 96}
	simLight = color.Gray{Y: 224}
)

// TailQuantile is where [GameLengthPlot] cuts its x axis: the 99.5th
// percentile, so that a long thin tail does not leave most of the plot
// empty; the share of games beyond it is written under the axis.
const TailQuantile = 0.995

// IntegerTicks are ticks at integers only, about n of them at a step of
// 1, 2 or 5 times a power of ten, labelled without decimals: for integer
// quantities such as turns.
type IntegerTicks struct{ N int }

// Ticks returns the ticks of [lo, hi].
func (t IntegerTicks) Ticks(lo, hi float64) []plot.Tick {
	n := max(t.N, 2)
	span := hi - lo
	step := 1.0
	if span > 0 {
		raw := span / float64(n)
		p := math.Pow(10, math.Floor(math.Log10(raw)))
		for _, m := range []float64{1, 2, 5, 10} {
			if step = m * p; step >= raw {
				break
			}
		}
		step = math.Max(1, math.Round(step))
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatInt(int64(v), 10)})
	}
	return ticks
}

// PercentTicks label proportions (0.25) as percents (25) at steps of 1, 2,
// 5, 10, 20 or 25 percentage points, about N of them.
type PercentTicks struct{ N int }

// Ticks returns the ticks of [lo, hi] (proportions).
func (t PercentTicks) Ticks(lo, hi float64) []plot.Tick {
	n := max(t.N, 2)
	raw := 100 * (hi - lo) / float64(n)
	step := 25.0
	for _, s := range []float64{0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 25} {
		if s >= raw {
			step = s
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(100*lo/step) * step; v <= 100*hi+1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v / 100, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ticks
}

func simPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = titlePadding
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return p
}

// GameLengthPlot draws the distribution of game lengths: the share of
// games (in percent) per bin of turns, with the mean and the median marked,
// on an x axis with integer ticks that ends at the 99.5th percentile (the
// share of games beyond it is given under the axis). Bins are one turn wide
// up to 80 distinct lengths, else about 40 bins of a whole number of turns.
// It is an error if h is nil or empty.
func GameLengthPlot(title string, h *IntHist) (*plot.Plot, error) {
	if h == nil || h.N() == 0 {
		return nil, errors.New("analysis: GameLengthPlot: no games")
	}
	n := float64(h.N())
	lo, top := h.Min(), int(h.Quantile(TailQuantile))
	width := 1
	if top-lo+1 > 80 {
		width = (top - lo + 40) / 40
	}
	var bins []plotter.HistogramBin
	beyond := int64(0)
	for _, b := range h.Bins(width) {
		if b.Lo > top {
			beyond += b.Count
			continue
		}
		bins = append(bins, plotter.HistogramBin{Min: float64(b.Lo) - 0.5, Max: float64(b.Hi) + 0.5, Weight: float64(b.Count) / n})
	}
	hist := &plotter.Histogram{Bins: bins, Width: float64(width), FillColor: simBlue, LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}}
	yLabel := "share of games (%)"
	if width > 1 {
		yLabel = fmt.Sprintf("share of games per %d-turn bin (%%)", width)
	}
	xLabel := "game length (turns)"
	if beyond > 0 {
		xLabel = fmt.Sprintf("game length (turns); %.2f%% of games are longer than %s turns (up to %s), not shown", 100*float64(beyond)/n, Thousands(int64(bins[len(bins)-1].Max-0.5)), Thousands(int64(h.Max())))
	}
	p := simPlot(title, xLabel, yLabel)
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal = draw.LineStyle{Color: simLight, Width: vg.Points(0.5)}
	p.Add(grid, hist)
	ymax := 0.0
	for _, b := range bins {
		ymax = math.Max(ymax, b.Weight)
	}
	for i, m := range []struct {
		name string
		x    float64
	}{{"mean", h.Mean()}, {"median", h.Quantile(0.5)}} {
		l, err := plotter.NewLine(plotter.XYs{{X: m.x, Y: 0}, {X: m.x, Y: ymax * 1.05}})
		if err != nil {
			return nil, fmt.Errorf("analysis: GameLengthPlot: %w", err)
		}
		l.Color, l.Width = simGray, vg.Points(1.5)
		if i == 0 {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.Color = color.NRGBA{213, 94, 0, 255}
		}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s %.1f", m.name, m.x), l)
	}
	p.Legend.Top = true
	p.X.Min, p.X.Max = bins[0].Min, bins[len(bins)-1].Max
	p.Y.Min, p.Y.Max = 0, ymax*1.1
	p.X.Tick.Marker = IntegerTicks{N: 8}
	p.Y.Tick.Marker = PercentTicks{N: 8}
	return p, nil
}

// WinRatePlot draws win rates (proportions) with their intervals as points
// and bars against categories (seats, strategies), in percent, with a
// dashed line at the fair share ref (NaN: none). It is an error if the
// lengths differ, there are no labels, or a value is not finite or outside
// its interval.
func WinRatePlot(title, xLabel string, labels []string, est, lo, hi []float64, ref float64) (*plot.Plot, error) {
	return winRatePlot("analysis: WinRatePlot", title, xLabel, labels, est, lo, hi, ref, nil)
}

// WinRatePlotShares is [WinRatePlot] with a fair share of each category
// (refs[i], a proportion), drawn as a short dashed line across its point:
// for strategies that hold different numbers of seats, whose fair shares
// (seats held / players) differ. It is an error if refs is not one finite
// value in [0, 1] per label.
func WinRatePlotShares(title, xLabel string, labels []string, est, lo, hi, refs []float64) (*plot.Plot, error) {
	const fn = "analysis: WinRatePlotShares"
	if len(refs) != len(labels) {
		return nil, fmt.Errorf("%s: %d labels but %d fair shares", fn, len(labels), len(refs))
	}
	for i, r := range refs {
		if !(r >= 0 && r <= 1) {
			return nil, fmt.Errorf("%s: fair share %v of %q is not a proportion", fn, r, labels[i])
		}
	}
	return winRatePlot(fn, title, xLabel, labels, est, lo, hi, math.NaN(), refs)
}

func winRatePlot(fn, title, xLabel string, labels []string, est, lo, hi []float64, ref float64, refs []float64) (*plot.Plot, error) {
	k := len(labels)
	if k == 0 {
		return nil, fmt.Errorf("%s: no labels", fn)
	}
	if len(est) != k || len(lo) != k || len(hi) != k {
		return nil, fmt.Errorf("%s: %d labels but %d estimates, %d lower and %d upper bounds", fn, k, len(est), len(lo), len(hi))
	}
	pts := make(plotter.XYs, k)
	errs := make(plotter.YErrors, k)
	ymin, ymax := 1.0, 0.0
	for i := range k {
		for _, v := range []float64{est[i], lo[i], hi[i]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: %q has a value %v that is not finite", fn, labels[i], v)
			}
		}
		if !(lo[i] <= est[i] && est[i] <= hi[i]) {
			return nil, fmt.Errorf("%s: estimate %v of %q is outside its interval [%v, %v]", fn, est[i], labels[i], lo[i], hi[i])
		}
		pts[i] = plotter.XY{X: float64(i), Y: est[i]}
		errs[i] = struct{ Low, High float64 }{est[i] - lo[i], hi[i] - est[i]}
		ymin, ymax = math.Min(ymin, lo[i]), math.Max(ymax, hi[i])
	}
	data := struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs}
	sc, err := plotter.NewScatter(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: simBlue, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	bars, err := plotter.NewYErrorBars(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	bars.Color, bars.Width = simBlue, vg.Points(1.5)
	p := simPlot(title, xLabel, "win rate (%), with 95% interval")
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal = draw.LineStyle{Color: simLight, Width: vg.Points(0.5)}
	p.Add(grid)
	if !math.IsNaN(ref) {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref}, {X: float64(k) - 0.5, Y: ref}})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
		l.Color, l.Width, l.Dashes = simGray, vg.Points(1), []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("fair share %.1f%%", 100*ref), l)
		p.Legend.Top = true
		ymin, ymax = math.Min(ymin, ref), math.Max(ymax, ref)
	}
	for i, r := range refs {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.3, Y: r}, {X: float64(i) + 0.3, Y: r}})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
		l.Color, l.Width, l.Dashes = simGray, vg.Points(1.5), []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		if i == 0 {
			p.Legend.Add("fair share (seats held / players)", l)
			p.Legend.Top = true
		}
		ymin, ymax = math.Min(ymin, r), math.Max(ymax, r)
	}
	p.Add(bars, sc)
	ticks := make(plot.ConstantTicks, k)
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	p.X.Tick.Marker = ticks
	p.X.Tick.Length = 0
	if k > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	}
	p.X.Min, p.X.Max = -0.5, float64(k)-0.5
	pad := math.Max(0.01, 0.15*(ymax-ymin))
	top := pad
	if len(refs) > 0 {
		top = 2.5 * pad // room for the legend above the highest fair share
	}
	p.Y.Min, p.Y.Max = math.Max(0, ymin-pad), math.Min(1, ymax+top)
	if len(refs) > 0 && ymax > p.Y.Max-0.15*(p.Y.Max-p.Y.Min) {
		// No room above the data (a rate near 100%): the legend goes
		// below it.
		p.Legend.Top = false
	}
	p.Y.Tick.Marker = PercentTicks{N: 5}
	return p, nil
}
