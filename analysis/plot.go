package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots of this file draw aggregates (histogram bins, estimates with
// their intervals, a grid of rates) with gonum.org/v1/plot. Each function
// checks its input and returns an error instead of a plot that would
// mislead (or a panic inside gonum): mismatched lengths, no data, and NaN or
// infinite values are errors. The returned *plot.Plot holds copies of the
// data, so the caller may reuse its slices and histograms afterwards; it can
// be adjusted further (axis ranges, legend position) before [SavePlot]
// renders it. The same input gives the same plot and, rendered by
// [SavePlot], the same bytes.

// seriesColors are the colors of the lines, points and bands of successive
// series: the colorblind-safe palette of Okabe & Ito (2008), "Color
// Universal Design", https://jfly.uni-koeln.de/color/, in an order that
// keeps the first few far apart, with its yellow last (it is faint on
// white).
var seriesColors = [...]color.NRGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{0, 0, 0, 255},       // black
	{240, 228, 66, 255},  // yellow
}

// seriesColor returns the color of series i, wrapping around after
// len(seriesColors) series.
func seriesColor(i int) color.NRGBA { return seriesColors[i%len(seriesColors)] }

// bandAlpha is the opacity of a confidence band: light enough that two
// overlapping bands and the lines over them stay visible.
const bandAlpha = 0x40

// seriesGlyphs are the point shapes of successive series, so that series
// stay apart in gray-scale print.
var seriesGlyphs = [...]draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.RingGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.CrossGlyph{},
	draw.PlusGlyph{},
}

// Line widths and sizes shared by the plots.
var (
	lineWidth   = vg.Points(1.5)
	thinWidth   = vg.Points(0.5)
	glyphRadius = vg.Points(2.5)
	gridColor   = color.Gray{Y: 224}
)

// targetBins is the number of bins a histogram aims at when the caller
// leaves the bin width to it (binWidth 0).
const targetBins = 40

// autoBinWidth returns the bin width that gives about targetBins bins for
// integer values from lo to hi: round((hi−lo+1)/targetBins), at least 1.
func autoBinWidth(lo, hi int) int {
	return max(1, int(math.Round(float64(hi-lo+1)/targetBins)))
}

// checkHist returns an error unless h is a non-empty histogram with no value
// out of range (a plot would silently leave those out). fn and what name the
// caller and the argument in the message.
func checkHist(fn, what string, h *IntHist) error {
	switch {
	case h == nil:
		return fmt.Errorf("analysis: %s: %s is nil", fn, what)
	case h.OutOfRange != 0:
		return fmt.Errorf("analysis: %s: %s has %d values out of range, which the plot would leave out", fn, what, h.OutOfRange)
	case h.N() == 0:
		return fmt.Errorf("analysis: %s: %s is empty", fn, what)
	}
	return nil
}

// maxBins bounds the number of bins of a histogram plot: a plot shows an
// aggregate, and more bins than this are more than a page can show.
const maxBins = 10000

// checkBinWidth returns an error for a negative bin width.
func checkBinWidth(fn string, binWidth int) error {
	if binWidth < 0 {
		return fmt.Errorf("analysis: %s: bin width %d is negative", fn, binWidth)
	}
	return nil
}

// checkBinCount returns an error if bins of width binWidth (> 0) from the
// one holding lo to the one holding hi are more than maxBins.
func checkBinCount(fn string, lo, hi, binWidth int) error {
	if n := hi/binWidth - lo/binWidth + 1; n > maxBins {
		return fmt.Errorf("analysis: %s: bin width %d gives %d bins for the values %d to %d, more than %d; choose a wider bin",
			fn, binWidth, n, lo, hi, maxBins)
	}
	return nil
}

// checkFinite returns an error naming the first value of vs that is NaN or
// infinite.
func checkFinite(fn, what string, vs []float64) error {
	for i, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("analysis: %s: %s[%d] is %v, not a finite number", fn, what, i, v)
		}
	}
	return nil
}

// HistogramPlot draws a histogram of the integer outcomes of h in bins of
// width binWidth (0: choose a width giving about 40 bins), as counts or,
// with density true, as percentages of all observations; the title and x
// label are given.
//
// The bins are those of [IntHist.Bins]: aligned to multiples of the width,
// with empty bins shown. A bin holding the values Lo..Hi is drawn over
// [Lo−½, Hi+½], so that with width 1 each bar is centered on its value.
// The y axis is labelled "games (count)" or "games (%)", and the x axis has
// integer ticks. It is an error if h is nil or
// empty, has values out of range, or binWidth is negative or gives more than
// 10000 bins.
func HistogramPlot(title, xLabel string, h *IntHist, binWidth int, density bool) (*plot.Plot, error) {
	p, _, err := histogramPlot(title, xLabel, h, binWidth, density)
	return p, err
}

// histogramPlot is HistogramPlot, also returning the histogram plotter for
// tests.
func histogramPlot(title, xLabel string, h *IntHist, binWidth int, density bool) (*plot.Plot, *plotter.Histogram, error) {
	const fn = "HistogramPlot"
	if err := checkHist(fn, "the histogram", h); err != nil {
		return nil, nil, err
	}
	if err := checkBinWidth(fn, binWidth); err != nil {
		return nil, nil, err
	}
	if binWidth == 0 {
		binWidth = autoBinWidth(h.Min(), h.Max())
	}
	if err := checkBinCount(fn, h.Min(), h.Max(), binWidth); err != nil {
		return nil, nil, err
	}
	bins := h.Bins(binWidth)
	n := float64(h.N())
	hb := make([]plotter.HistogramBin, len(bins))
	for i, b := range bins {
		w := float64(b.Count)
		if density {
			w = 100 * w / n
		}
		hb[i] = plotter.HistogramBin{Min: float64(b.Lo) - 0.5, Max: float64(b.Hi) + 0.5, Weight: w}
	}
	hist := &plotter.Histogram{
		Bins:      hb,
		Width:     float64(binWidth),
		FillColor: seriesColor(0),
		LineStyle: draw.LineStyle{Color: color.White, Width: thinWidth},
	}
	p := newPlot(title, xLabel, "games (count)")
	p.X.Tick.Marker = niceTicks{integer: true}
	if density {
		p.Y.Label.Text = "games (%)"
	}
	p.Add(hist)
	return p, hist, nil
}

// OverlaidHistograms draws several histograms as percentages on
// shared bins, as step lines in distinct colors with a legend: for comparing
// game-length distributions of a few cells.
//
// hs[i] is drawn in its own color and named names[i] in the legend. The bins
// are those of [IntHist.Bins] with width binWidth (0: about 40 bins over the
// values of all histograms), the same for every histogram, each drawn over
// [Lo−½, Hi+½]; each line is the percentage of that histogram's
// observations in each bin, falling to 0 outside the bins. It is an error if there is no
// histogram, names and hs differ in length, any histogram is nil, empty or
// has values out of range, or binWidth is negative or gives more than 10000
// bins.
func OverlaidHistograms(title, xLabel string, names []string, hs []*IntHist, binWidth int) (*plot.Plot, error) {
	p, _, err := overlaidHistograms(title, xLabel, names, hs, binWidth)
	return p, err
}

// overlaidHistograms is OverlaidHistograms, also returning the step lines
// for tests.
func overlaidHistograms(title, xLabel string, names []string, hs []*IntHist, binWidth int) (*plot.Plot, []*plotter.Line, error) {
	const fn = "OverlaidHistograms"
	if len(hs) == 0 {
		return nil, nil, fmt.Errorf("analysis: %s: no histograms", fn)
	}
	if len(names) != len(hs) {
		return nil, nil, fmt.Errorf("analysis: %s: %d names for %d histograms", fn, len(names), len(hs))
	}
	for i, h := range hs {
		if err := checkHist(fn, fmt.Sprintf("histogram %d (%q)", i, names[i]), h); err != nil {
			return nil, nil, err
		}
	}
	if err := checkBinWidth(fn, binWidth); err != nil {
		return nil, nil, err
	}
	lo, hi := hs[0].Min(), hs[0].Max()
	for _, h := range hs[1:] {
		lo, hi = min(lo, h.Min()), max(hi, h.Max())
	}
	if binWidth == 0 {
		binWidth = autoBinWidth(lo, hi)
	}
	if err := checkBinCount(fn, lo, hi, binWidth); err != nil {
		return nil, nil, err
	}
	first, last := lo/binWidth, hi/binWidth
	width := float64(binWidth)

	p := newPlot(title, xLabel, "games (%)")
	p.X.Tick.Marker = niceTicks{integer: true}
	p.Legend.Top = true
	lines := make([]*plotter.Line, len(hs))
	shares := make([]float64, last-first+1)
	for i, h := range hs {
		clear(shares)
		n := float64(h.N())
		for _, b := range h.Bins(binWidth) {
			shares[b.Lo/binWidth-first] = 100 * float64(b.Count) / n
		}
		// The outline of the bars: down to 0 at both ends, and across the
		// top of each bin, the verticals between bins joining them.
		xy := make(plotter.XYs, 0, 2*len(shares)+2)
		left := float64(first*binWidth) - 0.5
		xy = append(xy, plotter.XY{X: left, Y: 0})
		for j, s := range shares {
			x := left + float64(j)*width
			xy = append(xy, plotter.XY{X: x, Y: s}, plotter.XY{X: x + width, Y: s})
		}
		xy = append(xy, plotter.XY{X: left + float64(len(shares))*width, Y: 0})
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		l.Color = seriesColor(i)
		l.Width = lineWidth
		lines[i] = l
		p.Add(l)
		p.Legend.Add(names[i], l)
	}
	return p, lines, nil
}

// Series is one line of a line plot with a confidence band.
type Series struct {
	Name   string
	X      []float64
	Y      []float64 // estimates
	Lo, Hi []float64 // the band (e.g. 95% CI); same length as X
}

// check returns an error unless s has at least one point, equal lengths,
// finite values, strictly increasing X and Lo <= Hi.
func (s *Series) check(fn string, i int) error {
	what := fmt.Sprintf("series %d (%q)", i, s.Name)
	n := len(s.X)
	if n == 0 {
		return fmt.Errorf("analysis: %s: %s has no points", fn, what)
	}
	if len(s.Y) != n || len(s.Lo) != n || len(s.Hi) != n {
		return fmt.Errorf("analysis: %s: %s has lengths X %d, Y %d, Lo %d, Hi %d; they must be equal",
			fn, what, n, len(s.Y), len(s.Lo), len(s.Hi))
	}
	for _, f := range []struct {
		name string
		vs   []float64
	}{{"X", s.X}, {"Y", s.Y}, {"Lo", s.Lo}, {"Hi", s.Hi}} {
		if err := checkFinite(fn, what+"."+f.name, f.vs); err != nil {
			return err
		}
	}
	for j := range n {
		if j > 0 && !(s.X[j] > s.X[j-1]) {
			return fmt.Errorf("analysis: %s: %s: X is not strictly increasing at index %d (%v after %v)", fn, what, j, s.X[j], s.X[j-1])
		}
		if !(s.Lo[j] <= s.Hi[j]) {
			return fmt.Errorf("analysis: %s: %s: band [Lo, Hi] at index %d is [%v, %v], Lo above Hi", fn, what, j, s.Lo[j], s.Hi[j])
		}
	}
	return nil
}

// bandParts are the plotters of a band plot, one of each per series.
type bandParts struct {
	bands  []*plotter.Polygon
	lines  []*plotter.Line
	points []*plotter.Scatter
}

// BandPlot draws each series as a line with points and its band as a
// translucent filled polygon, with a legend (e.g. mean game length against
// player count with its 95% interval, one series per rule set).
//
// Every series needs at least one point, X strictly increasing, Y, Lo and Hi
// of the same length as X, all values finite, and Lo <= Hi at every point
// (Y need not lie in the band: a band of quantiles may exclude the mean).
// The band of a series is the polygon through (X, Hi) left to right and back
// through (X, Lo). All bands are drawn under all lines. A series with an
// empty Name has no legend entry; the legend is at the top left.
func BandPlot(title, xLabel, yLabel string, series []Series) (*plot.Plot, error) {
	p, _, err := bandPlot(title, xLabel, yLabel, series)
	return p, err
}

// bandPlot is BandPlot, also returning its plotters for tests.
func bandPlot(title, xLabel, yLabel string, series []Series) (*plot.Plot, *bandParts, error) {
	const fn = "BandPlot"
	if len(series) == 0 {
		return nil, nil, fmt.Errorf("analysis: %s: no series", fn)
	}
	for i := range series {
		if err := series[i].check(fn, i); err != nil {
			return nil, nil, err
		}
	}
	p := newPlot(title, xLabel, yLabel)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(newGrid(true))
	parts := &bandParts{}
	for i, s := range series {
		n := len(s.X)
		ring := make(plotter.XYs, 2*n)
		line := make(plotter.XYs, n)
		for j := range n {
			ring[j] = plotter.XY{X: s.X[j], Y: s.Hi[j]}
			ring[2*n-1-j] = plotter.XY{X: s.X[j], Y: s.Lo[j]}
			line[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		band, err := plotter.NewPolygon(ring)
		if err != nil {
			return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		c := seriesColor(i)
		band.Color = color.NRGBA{R: c.R, G: c.G, B: c.B, A: bandAlpha}
		band.LineStyle.Width = 0
		l, pts, err := plotter.NewLinePoints(line)
		if err != nil {
			return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		l.Color = c
		l.Width = lineWidth
		pts.GlyphStyle = draw.GlyphStyle{Color: c, Radius: glyphRadius, Shape: seriesGlyphs[i%len(seriesGlyphs)]}
		parts.bands = append(parts.bands, band)
		parts.lines = append(parts.lines, l)
		parts.points = append(parts.points, pts)
		if s.Name != "" {
			p.Legend.Add(s.Name, band, l, pts)
		}
	}
	for _, b := range parts.bands {
		p.Add(b)
	}
	for i := range parts.lines {
		p.Add(parts.lines[i], parts.points[i])
	}
	return p, parts, nil
}

// errorPoints are estimates at x = 0, 1, … with their intervals, as
// plotter.YErrorBars wants them: errors relative to the estimate.
type errorPoints struct {
	xys  plotter.XYs
	errs plotter.YErrors
}

func (e errorPoints) Len() int                        { return len(e.xys) }
func (e errorPoints) XY(i int) (x, y float64)         { return e.xys.XY(i) }
func (e errorPoints) YError(i int) (float64, float64) { return e.errs.YError(i) }

// errorBarParts are the plotters of an error-bar plot.
type errorBarParts struct {
	points *plotter.Scatter
	bars   *plotter.YErrorBars
	ref    *plotter.Line // nil without a reference line
}

// ErrorBarPlot draws one point per label with vertical error bars [lo, hi],
// labels on the x axis (rotated if long), and an optional horizontal
// reference line at ref (NaN: none), e.g. win rates with 95% Wilson
// intervals and the fair share 1/n.
//
// Label i is at x = i. The labels are rotated by 30° when the number of
// labels times the length of the longest (in characters) exceeds 60, about
// what fits side by side on a plot 16 cm wide. The reference line is gray
// and dashed. It is an error if there are no labels, est, lo and hi do not
// all have one value per label, any value (or ref) is infinite or any
// estimate or bound NaN, or an estimate lies outside its interval.
func ErrorBarPlot(title, yLabel string, labels []string, est, lo, hi []float64, ref float64) (*plot.Plot, error) {
	p, _, err := errorBarPlot(title, yLabel, labels, est, lo, hi, ref)
	return p, err
}

// errorBarPlot is ErrorBarPlot, also returning its plotters for tests.
func errorBarPlot(title, yLabel string, labels []string, est, lo, hi []float64, ref float64) (*plot.Plot, *errorBarParts, error) {
	const fn = "ErrorBarPlot"
	n := len(labels)
	if n == 0 {
		return nil, nil, fmt.Errorf("analysis: %s: no labels", fn)
	}
	if len(est) != n || len(lo) != n || len(hi) != n {
		return nil, nil, fmt.Errorf("analysis: %s: %d labels but %d estimates, %d lower and %d upper bounds; they must be equal",
			fn, n, len(est), len(lo), len(hi))
	}
	for _, f := range []struct {
		name string
		vs   []float64
	}{{"est", est}, {"lo", lo}, {"hi", hi}} {
		if err := checkFinite(fn, f.name, f.vs); err != nil {
			return nil, nil, err
		}
	}
	if math.IsInf(ref, 0) {
		return nil, nil, fmt.Errorf("analysis: %s: reference %v is infinite (NaN means none)", fn, ref)
	}
	ep := errorPoints{xys: make(plotter.XYs, n), errs: make(plotter.YErrors, n)}
	for i := range n {
		if !(lo[i] <= est[i] && est[i] <= hi[i]) {
			return nil, nil, fmt.Errorf("analysis: %s: estimate %v of %q is outside its interval [%v, %v]", fn, est[i], labels[i], lo[i], hi[i])
		}
		ep.xys[i] = plotter.XY{X: float64(i), Y: est[i]}
		ep.errs[i].Low = est[i] - lo[i]
		ep.errs[i].High = hi[i] - est[i]
	}
	pts, err := plotter.NewScatter(ep)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
	}
	c := seriesColor(0)
	pts.GlyphStyle = draw.GlyphStyle{Color: c, Radius: glyphRadius, Shape: draw.CircleGlyph{}}
	bars, err := plotter.NewYErrorBars(ep)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
	}
	bars.Color = c
	bars.Width = lineWidth
	parts := &errorBarParts{points: pts, bars: bars}

	p := newPlot(title, "", yLabel)
	p.Add(newGrid(false))
	if !math.IsNaN(ref) {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref}, {X: float64(n) - 0.5, Y: ref}})
		if err != nil {
			return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		l.Color = color.Gray{Y: 96}
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		parts.ref = l
		p.Add(l)
	}
	p.Add(bars, pts)
	categoryAxis(&p.X, labels, true)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	return p, parts, nil
}

// DotPlot draws one estimate per label with its interval as a horizontal
// bar, the labels on the y axis from the top down in the given order (so
// that any number of long labels stays readable), the values on the x axis
// labelled xLabel, and an optional vertical reference line at ref (NaN:
// none), e.g. effects against a baseline, sorted, with the line at 0.
// The inputs are checked as by [ErrorBarPlot].
func DotPlot(title, xLabel string, labels []string, est, lo, hi []float64, ref float64) (*plot.Plot, error) {
	const fn = "DotPlot"
	n := len(labels)
	if n == 0 {
		return nil, fmt.Errorf("analysis: %s: no labels", fn)
	}
	if len(est) != n || len(lo) != n || len(hi) != n {
		return nil, fmt.Errorf("analysis: %s: %d labels but %d estimates, %d lower and %d upper bounds; they must be equal",
			fn, n, len(est), len(lo), len(hi))
	}
	for _, f := range []struct {
		name string
		vs   []float64
	}{{"est", est}, {"lo", lo}, {"hi", hi}} {
		if err := checkFinite(fn, f.name, f.vs); err != nil {
			return nil, err
		}
	}
	if math.IsInf(ref, 0) {
		return nil, fmt.Errorf("analysis: %s: reference %v is infinite (NaN means none)", fn, ref)
	}
	pts := make(plotter.XYs, n)
	bars := make(plotter.XErrors, n)
	for i := range n {
		if !(lo[i] <= est[i] && est[i] <= hi[i]) {
			return nil, fmt.Errorf("analysis: %s: estimate %v of %q is outside its interval [%v, %v]", fn, est[i], labels[i], lo[i], hi[i])
		}
		y := float64(n - 1 - i) // the first label at the top
		pts[i] = plotter.XY{X: est[i], Y: y}
		bars[i] = struct{ Low, High float64 }{est[i] - lo[i], hi[i] - est[i]}
	}
	p := newPlot(title, xLabel, "")
	p.Add(verticalGrid())
	if !math.IsNaN(ref) {
		p.Add(refLine{x: ref})
	}
	xe := struct {
		plotter.XYs
		plotter.XErrors
	}{pts, bars}
	eb, err := plotter.NewXErrorBars(xe)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", fn, err)
	}
	c := seriesColor(0)
	eb.Color, eb.Width = c, lineWidth
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", fn, err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: glyphRadius, Shape: draw.CircleGlyph{}}
	p.Add(eb, sc)
	rev := make([]string, n)
	for i, l := range labels {
		rev[n-1-i] = l
	}
	categoryAxis(&p.Y, rev, false)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return p, nil
}

// DotPlotHeight is a good height for a [DotPlot] of n labels.
func DotPlotHeight(n int) vg.Length {
	return max(8*vg.Centimeter, vg.Length(n)*0.55*vg.Centimeter+3*vg.Centimeter)
}

// verticalGrid returns light vertical grid lines only.
func verticalGrid() *plotter.Grid {
	g := newGrid(true)
	g.Horizontal.Width = 0
	return g
}

// refLine is a gray dashed reference line across the data area, vertical
// at x (horizontal instead if horizontal is true, at y = x).
type refLine struct {
	x          float64
	horizontal bool
}

// Plot implements plot.Plotter.
func (r refLine) Plot(c draw.Canvas, p *plot.Plot) {
	st := refStyle
	if r.horizontal {
		y := c.Y(p.Y.Norm(r.x))
		c.StrokeLine2(st, c.Min.X, y, c.Max.X, y)
		return
	}
	x := c.X(p.X.Norm(r.x))
	c.StrokeLine2(st, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer: the line's legend entry.
func (r refLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(refStyle, c.Min.X, y, c.Max.X, y)
}

// refStyle is refLine's gray dash.
var refStyle = draw.LineStyle{Color: color.Gray{Y: 96}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}

// DataRange implements plot.DataRanger: the line is within the range.
func (r refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	if r.horizontal {
		return math.Inf(1), math.Inf(-1), r.x, r.x
	}
	return r.x, r.x, math.Inf(1), math.Inf(-1)
}

// LinePlot draws each series as a line through its estimates with points
// and vertical 95% error bars, one color and glyph per series and a legend
// (a two-factor grid: the first factor on the x axis, one line per level
// of the second). With xTicks nil, X is numeric (integer ticks if every X
// is an integer); otherwise X holds the indices 0, 1, … of xTicks, the
// levels of an ordered factor. Series are dodged sideways slightly so
// their bars do not hide each other. ref, if not NaN, draws a horizontal
// reference line (e.g. the fair share). The series are checked as by
// [BandPlot].
func LinePlot(title, xLabel, yLabel string, xTicks []string, series []Series, ref float64) (*plot.Plot, error) {
	return LinePlotRef(title, xLabel, yLabel, xTicks, series, ref, "")
}

// LinePlotRef is [LinePlot] with the reference line named refName in the
// legend, after the series (e.g. "fair share 25%"; "": no entry).
func LinePlotRef(title, xLabel, yLabel string, xTicks []string, series []Series, ref float64, refName string) (*plot.Plot, error) {
	const fn = "LinePlot"
	if len(series) == 0 {
		return nil, fmt.Errorf("analysis: %s: no series", fn)
	}
	integer := true
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for i := range series {
		if err := series[i].check(fn, i); err != nil {
			return nil, err
		}
		for _, x := range series[i].X {
			integer = integer && x == math.Trunc(x)
			xmin, xmax = min(xmin, x), max(xmax, x)
		}
	}
	if math.IsInf(ref, 0) {
		return nil, fmt.Errorf("analysis: %s: reference %v is infinite (NaN means none)", fn, ref)
	}
	p := newPlot(title, xLabel, yLabel)
	// At least 4 labelled values: the legend's headroom stretches the
	// axis, and 0, 5, 10 over -4 to 10 leave the lower part unlabelled.
	p.Y.Tick.Marker = niceTicks{min: 4}
	p.Legend.Top = true
	p.Add(newGrid(false))
	if !math.IsNaN(ref) {
		p.Add(refLine{x: ref, horizontal: true})
	}
	// The smallest gap between two x values bounds the dodge.
	gap := math.Inf(1)
	for _, s := range series {
		for j := 1; j < len(s.X); j++ {
			gap = min(gap, s.X[j]-s.X[j-1])
		}
	}
	if math.IsInf(gap, 1) {
		gap = 1
	}
	dodge := gap * 0.25 / float64(max(1, len(series)-1))
	if len(series) == 1 {
		dodge = 0
	}
	for i, s := range series {
		off := (float64(i) - float64(len(series)-1)/2) * dodge
		xy := make(plotter.XYs, len(s.X))
		errs := make(plotter.YErrors, len(s.X))
		for j := range s.X {
			xy[j] = plotter.XY{X: s.X[j] + off, Y: s.Y[j]}
			errs[j] = struct{ Low, High float64 }{s.Y[j] - s.Lo[j], s.Hi[j] - s.Y[j]}
		}
		c := seriesColor(i)
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		l.Color, l.Width = c, lineWidth
		pts.GlyphStyle = draw.GlyphStyle{Color: c, Radius: glyphRadius, Shape: seriesGlyphs[i%len(seriesGlyphs)]}
		eb, err := plotter.NewYErrorBars(errorPoints{xys: xy, errs: errs})
		if err != nil {
			return nil, fmt.Errorf("analysis: %s: %w", fn, err)
		}
		eb.Color, eb.Width = c, thinWidth*2
		eb.CapWidth = vg.Points(4)
		p.Add(l, eb, pts)
		if s.Name != "" {
			p.Legend.Add(s.Name, l, pts)
		}
	}
	// Headroom above the data for the legend at the top right, a row per
	// named series.
	ylo, yhi := math.Inf(1), math.Inf(-1)
	named := 0
	for _, s := range series {
		for j := range s.X {
			ylo, yhi = min(ylo, s.Lo[j], s.Y[j]), max(yhi, s.Hi[j], s.Y[j])
		}
		if s.Name != "" {
			named++
		}
	}
	if !math.IsNaN(ref) {
		ylo, yhi = min(ylo, ref), max(yhi, ref)
		if refName != "" {
			p.Legend.Add(refName, refLine{x: ref, horizontal: true})
			named++
		}
	}
	if named > 0 && yhi > ylo {
		p.Y.Min, p.Y.Max = ylo, yhi+(yhi-ylo)*0.1*float64(named)
	}
	switch {
	case xTicks != nil:
		categoryAxis(&p.X, xTicks, true)
		p.X.Min, p.X.Max = -0.5, float64(len(xTicks))-0.5
	case integer:
		p.X.Tick.Marker = niceTicks{integer: true}
		p.X.Min, p.X.Max = xmin-0.5, xmax+0.5
	}
	return p, nil
}

// gridXYZ is a heat map's data, z[row][col] at x = col, y = row: the
// plotter.GridXYZ of [HeatMap].
type gridXYZ struct{ z [][]float64 }

func (g gridXYZ) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g gridXYZ) Z(c, r int) float64 { return g.z[r][c] }
func (g gridXYZ) X(c int) float64    { return float64(c) }
func (g gridXYZ) Y(r int) float64    { return float64(r) }

// heatColors is the number of colors of a heat map's palette: more than the
// eye tells apart on a color bar, and each cell's value is written in it.
const heatColors = 64

// viridisAnchors are 9 evenly spaced samples of matplotlib's "viridis"
// color map (van der Walt & Smith, 2015; sampled at 0, 1/8, …, 1): dark
// purple through blue and green to yellow, with lightness increasing
// evenly, readable by the color blind and in gray-scale print.
var viridisAnchors = [...]color.NRGBA{
	{0x44, 0x01, 0x54, 255},
	{0x47, 0x2d, 0x7b, 255},
	{0x3b, 0x52, 0x8b, 255},
	{0x2c, 0x72, 0x8e, 255},
	{0x21, 0x91, 0x8c, 255},
	{0x28, 0xae, 0x80, 255},
	{0x5e, 0xc9, 0x62, 255},
	{0xad, 0xdc, 0x30, 255},
	{0xfd, 0xe7, 0x25, 255},
}

// heatPalette returns the heat map palette: heatColors colors from the
// darkest to the lightest, interpolated linearly in sRGB between the
// viridis anchors (between two anchors this departs from viridis by less
// than the eye notices).
func heatPalette() []color.Color {
	cols := make([]color.Color, heatColors)
	last := len(viridisAnchors) - 1
	for i := range cols {
		t := float64(i) / (heatColors - 1) * float64(last)
		k := min(int(t), last-1)
		f := t - float64(k)
		a, b := viridisAnchors[k], viridisAnchors[k+1]
		mix := func(u, v uint8) uint8 { return uint8(math.Round(float64(u) + f*(float64(v)-float64(u)))) }
		cols[i] = color.NRGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
	}
	return cols
}

// divergingAnchors are ColorBrewer's "RdBu" diverging scheme with 11
// classes (Brewer, colorbrewer2.org), reversed: blue (below the center)
// through white to red (above), colorblind-safe.
var divergingAnchors = [...]color.NRGBA{
	{0x05, 0x30, 0x61, 255}, {0x21, 0x66, 0xac, 255}, {0x43, 0x93, 0xc3, 255}, {0x92, 0xc5, 0xde, 255},
	{0xd1, 0xe5, 0xf0, 255}, {0xf7, 0xf7, 0xf7, 255}, {0xfd, 0xdb, 0xc7, 255}, {0xf4, 0xa5, 0x82, 255},
	{0xd6, 0x60, 0x4d, 255}, {0xb2, 0x18, 0x2b, 255}, {0x67, 0x00, 0x1f, 255},
}

// divergingPalette returns heatColors+1 colors (odd, so that the center
// has its own, white) interpolated between the diverging anchors.
func divergingPalette() []color.Color {
	n := heatColors + 1
	cols := make([]color.Color, n)
	last := len(divergingAnchors) - 1
	for i := range cols {
		t := float64(i) / float64(n-1) * float64(last)
		k := min(int(t), last-1)
		f := t - float64(k)
		a, b := divergingAnchors[k], divergingAnchors[k+1]
		mix := func(u, v uint8) uint8 { return uint8(math.Round(float64(u) + f*(float64(v)-float64(u)))) }
		cols[i] = color.NRGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
	}
	return cols
}

// heatParts are the plotters of a heat map.
type heatParts struct {
	heat   *plotter.HeatMap
	values *plotter.Labels // each cell's value, written in it
	bar    *colorBar
}

// HeatMap draws z[row][col] as a colored grid with the row labels on the y
// axis and column labels on the x axis, a color bar / legend, and each
// cell's value written in it (format "%.3f", or "%.2f" beyond 8 columns), e.g. the win rate of a bluff
// probability x challenge policy grid.
//
// Row 0 is at the bottom, like the smallest value of a y axis; column 0 is
// at the left. The colors run from dark purple (the smallest value) to light
// yellow (the largest) along the viridis color map, spread over the range of z (a
// single value is the middle color); the color bar to the right of the grid
// maps them back to values. Values are written in white on dark cells and
// black on light ones. Column labels are rotated by 30° under the same rule
// as [ErrorBarPlot]. A NaN value leaves its cell blank. It is an error if
// there are no rows or columns, z does not have len(rows) rows of len(cols)
// values, a value is infinite, or every value is NaN.
func HeatMap(title, xLabel, yLabel string, cols, rows []string, z [][]float64) (*plot.Plot, error) {
	p, _, err := heatMap(title, xLabel, yLabel, cols, rows, z)
	return p, err
}

// HeatOptions are the choices of [HeatMapWith].
type HeatOptions struct {
	// Center, if not NaN, makes the colors diverge from white at Center
	// (e.g. the fair share) to blue below and red above, over a range
	// symmetric about it; NaN: the sequential viridis map over the range.
	Center float64
	// BarLabel names the color bar's quantity with its unit.
	BarLabel string
	// Format writes a cell's value (nil: "%.3f", "%.2f" beyond 8 columns).
	Format func(float64) string
	// Marks[row][col], if not empty, is written under the cell's value
	// (e.g. "▲" for a best response).
	Marks [][]string
}

// HeatMapWith is [HeatMap] with options: a diverging color map, a labelled
// color bar, a format for the values and marks in the cells.
func HeatMapWith(title, xLabel, yLabel string, cols, rows []string, z [][]float64, o HeatOptions) (*plot.Plot, error) {
	p, _, err := heatMapWith(title, xLabel, yLabel, cols, rows, z, o)
	return p, err
}

// heatMap is HeatMap, also returning its plotters for tests.
func heatMap(title, xLabel, yLabel string, cols, rows []string, z [][]float64) (*plot.Plot, *heatParts, error) {
	return heatMapWith(title, xLabel, yLabel, cols, rows, z, HeatOptions{Center: math.NaN()})
}

// heatMapWith is HeatMapWith, also returning its plotters for tests.
func heatMapWith(title, xLabel, yLabel string, cols, rows []string, z [][]float64, o HeatOptions) (*plot.Plot, *heatParts, error) {
	const fn = "HeatMap"
	if len(cols) == 0 || len(rows) == 0 {
		return nil, nil, fmt.Errorf("analysis: %s: %d columns and %d rows; need at least one of each", fn, len(cols), len(rows))
	}
	if len(z) != len(rows) {
		return nil, nil, fmt.Errorf("analysis: %s: z has %d rows for %d row labels", fn, len(z), len(rows))
	}
	grid := gridXYZ{z: make([][]float64, len(z))}
	zmin, zmax := math.Inf(1), math.Inf(-1)
	for r, row := range z {
		if len(row) != len(cols) {
			return nil, nil, fmt.Errorf("analysis: %s: row %d (%q) has %d values for %d columns", fn, r, rows[r], len(row), len(cols))
		}
		for c, v := range row {
			if math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("analysis: %s: z[%d][%d] is infinite", fn, r, c)
			}
		}
		grid.z[r] = append([]float64(nil), row...)
		for _, v := range row {
			if !math.IsNaN(v) {
				zmin, zmax = min(zmin, v), max(zmax, v)
			}
		}
	}
	if math.IsInf(zmin, 1) {
		return nil, nil, fmt.Errorf("analysis: %s: every cell is NaN", fn)
	}
	if o.Marks != nil && (len(o.Marks) != len(rows) || slices.ContainsFunc(o.Marks, func(m []string) bool { return len(m) != len(cols) })) {
		return nil, nil, fmt.Errorf("analysis: %s: marks are not %d rows of %d", fn, len(rows), len(cols))
	}
	pal := heatPalette()
	if math.IsInf(o.Center, 0) {
		return nil, nil, fmt.Errorf("analysis: %s: center %v is infinite (NaN means none)", fn, o.Center)
	}
	if !math.IsNaN(o.Center) {
		d := max(o.Center-zmin, zmax-o.Center)
		if d == 0 {
			d = 0.5
		}
		zmin, zmax = o.Center-d, o.Center+d
		pal = divergingPalette()
	}
	if zmin == zmax {
		// A single value: put it in the middle of a unit range, so that the
		// palette scaling is defined and the color bar has a range to show.
		zmin, zmax = zmin-0.5, zmax+0.5
	}

	heat := plotter.NewHeatMap(grid, plotterPalette(pal))
	heat.Min, heat.Max = zmin, zmax
	heat.NaN = color.White // a cell without a value is left blank

	p := newPlot(title, xLabel, yLabel)
	// No axis lines: the grid's edges are the frame (the x axis line
	// would stand apart from the grid when the color bar's lowest label
	// lifts the data area).
	p.X.Padding, p.Y.Padding = 0, 0
	p.X.LineStyle.Width, p.Y.LineStyle.Width = 0, 0

	// The values, in the cell centers, in a color that contrasts with the
	// cell's.
	nc, nr := grid.Dims()
	format := "%.3f"
	if nc > 8 {
		format = "%.2f" // narrow cells
	}
	valueText := func(v float64) string { return fmt.Sprintf(format, v) }
	if o.Format != nil {
		valueText = o.Format
	}
	xyl := plotter.XYLabels{XYs: make(plotter.XYs, 0, nc*nr), Labels: make([]string, 0, nc*nr)}
	for r := range nr {
		for c := range nc {
			if math.IsNaN(grid.Z(c, r)) {
				continue
			}
			xyl.XYs = append(xyl.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			l := valueText(grid.Z(c, r))
			if o.Marks != nil && o.Marks[r][c] != "" {
				l += "\n" + o.Marks[r][c]
			}
			xyl.Labels = append(xyl.Labels, l)
		}
	}
	values, err := plotter.NewLabels(xyl)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis: %s: %w", fn, err)
	}
	for i := range values.TextStyle {
		st := p.Y.Tick.Label // the plot's font and text handler
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		st.Color = color.Black
		if luminance(pal[paletteIndex(xyl.XYs[i], grid, zmin, zmax, len(pal))]) < 0.5 {
			st.Color = color.White
		}
		values.TextStyle[i] = st
	}

	barStyle := p.Y.Tick.Label
	barStyle.XAlign, barStyle.YAlign = draw.XLeft, draw.YCenter
	bar := &colorBar{colors: pal, min: zmin, max: zmax, style: barStyle, label: o.BarLabel}
	bar.labelStyle = p.Y.Label.TextStyle
	bar.labelStyle.Rotation = math.Pi / 2
	bar.labelStyle.XAlign, bar.labelStyle.YAlign = draw.XCenter, draw.YTop
	for _, t := range (niceTicks{n: 5}).Ticks(zmin, zmax) {
		if t.Label != "" && t.Value >= zmin && t.Value <= zmax {
			bar.ticks = append(bar.ticks, t)
		}
	}
	if len(bar.ticks) < 2 { // too narrow a range for two round values
		bar.ticks = []plot.Tick{
			{Value: zmin, Label: fmt.Sprintf("%.3g", zmin)},
			{Value: zmax, Label: fmt.Sprintf("%.3g", zmax)},
		}
	}

	p.Add(heat, values, bar)
	categoryAxis(&p.X, cols, true)
	categoryAxis(&p.Y, rows, false)
	return p, &heatParts{heat: heat, values: values, bar: bar}, nil
}

// plotterPalette is a fixed list of colors as a palette.Palette.
type plotterPalette []color.Color

func (p plotterPalette) Colors() []color.Color { return p }

// paletteIndex returns the index in a palette of n colors of the value at
// the cell xy, as plotter.HeatMap computes it.
func paletteIndex(xy plotter.XY, g gridXYZ, zmin, zmax float64, n int) int {
	v := g.Z(int(xy.X), int(xy.Y))
	return int((v-zmin)*(float64(n-1)/(zmax-zmin)) + 0.5)
}

// luminance returns the relative luminance of c in [0, 1] (ITU-R BT.709
// weights applied to the gamma-encoded channels, a good enough guide for
// choosing black or white text).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// Sizes of a heat map's color bar.
var (
	colorBarGap   = vg.Points(8)  // between the grid and the strip
	colorBarWidth = vg.Points(10) // of the strip
	colorBarTick  = vg.Points(3)  // tick marks, right of the strip
	colorBarPad   = vg.Points(2)  // between a tick mark and its label
)

// colorBar draws the color scale of a heat map as a vertical strip to the
// right of the data area, as tall as it, with labelled ticks. Its
// GlyphBoxes reserve the room it needs right of the data area, so the grid
// shrinks to make space for it at any plot size.
type colorBar struct {
	colors     []color.Color // the palette, from min (bottom) to max (top)
	min, max   float64
	ticks      []plot.Tick // values within [min, max], all labelled
	style      text.Style  // of the labels
	label      string      // the quantity and its unit, right of the labels
	labelStyle text.Style
}

// labelX is the offset of the bar's label from the data area's right edge:
// right of the widest tick label.
func (b *colorBar) labelX() vg.Length {
	w := vg.Length(0)
	for _, t := range b.ticks {
		w = max(w, b.style.Width(t.Label))
	}
	return colorBarGap + colorBarWidth + colorBarTick + colorBarPad + w + colorBarPad
}

// frac returns where v lies between min (0) and max (1).
func (b *colorBar) frac(v float64) float64 { return (v - b.min) / (b.max - b.min) }

// Plot implements plot.Plotter.
func (b *colorBar) Plot(c draw.Canvas, _ *plot.Plot) {
	x0 := c.Max.X + colorBarGap
	x1 := x0 + colorBarWidth
	n := len(b.colors)
	for i, col := range b.colors {
		// Each color from its place to the top, painted over by the next:
		// the anti-aliased lower edge of a color then blends with the
		// previous one, not with the background (no light seams).
		y0, y1 := c.Y(float64(i)/float64(n)), c.Max.Y
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
	edge := draw.LineStyle{Color: color.Black, Width: thinWidth}
	c.StrokeLines(edge, []vg.Point{
		{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}, {X: x0, Y: c.Min.Y},
	})
	for _, t := range b.ticks {
		y := c.Y(b.frac(t.Value))
		c.StrokeLine2(edge, x1, y, x1+colorBarTick, y)
		c.FillText(b.style, vg.Point{X: x1 + colorBarTick + colorBarPad, Y: y}, t.Label)
	}
	if b.label != "" {
		c.FillText(b.labelStyle, vg.Point{X: c.Max.X + b.labelX(), Y: c.Center().Y}, b.label)
	}
}

// GlyphBoxes implements plot.GlyphBoxer: the strip and the tick labels,
// right of the data area (normalized x = 1).
func (b *colorBar) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	boxes := []plot.GlyphBox{{
		X: 1, Y: 0.5,
		Rectangle: vg.Rectangle{Min: vg.Point{X: colorBarGap}, Max: vg.Point{X: colorBarGap + colorBarWidth + colorBarTick}},
	}}
	off := vg.Point{X: colorBarGap + colorBarWidth + colorBarTick + colorBarPad}
	for _, t := range b.ticks {
		boxes = append(boxes, plot.GlyphBox{X: 1, Y: b.frac(t.Value), Rectangle: b.style.Rectangle(t.Label).Add(off)})
	}
	if b.label != "" {
		boxes = append(boxes, plot.GlyphBox{X: 1, Y: 0.5, Rectangle: b.labelStyle.Rectangle(b.label).Add(vg.Point{X: b.labelX()})})
	}
	return boxes
}

// newPlot returns a plot with the given title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = titlePadding
	// gonum spaces legend rows closer than the font size: pad them apart.
	p.Legend.Padding = vg.Points(3)
	p.X.Tick.Marker = niceTicks{}
	p.Y.Tick.Marker = niceTicks{}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return p
}

// newGrid returns light grid lines: horizontal ones, and vertical ones if
// vertical is true.
func newGrid(vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal = draw.LineStyle{Color: gridColor, Width: thinWidth}
	g.Vertical = g.Horizontal
	if !vertical {
		g.Vertical.Width = 0
	}
	return g
}

// rotateAbove is the number of labels times the length of the longest
// label (in characters) above which x-axis category labels are rotated: at
// about 5 points per character of the 10-point default font, 60 characters
// take 300 points, most of the data width of a plot 16 cm (454 points)
// wide.
const rotateAbove = 60

// categoryAxis labels the axis a with labels at 0, 1, …, without tick
// marks. On a horizontal axis, long labels are rotated (see rotateAbove).
func categoryAxis(a *plot.Axis, labels []string, horizontal bool) {
	ticks := make(plot.ConstantTicks, len(labels))
	longest := 0
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
		longest = max(longest, utf8.RuneCountInString(l))
	}
	a.Tick.Marker = ticks
	a.Tick.Length = 0
	if horizontal && len(labels)*longest > rotateAbove {
		a.Tick.Label.Rotation = math.Pi / 6
		a.Tick.Label.XAlign = draw.XRight
		a.Tick.Label.YAlign = draw.YTop
	}
}

// pngDPI is the resolution of the PNG files written by SavePlot: sharper
// than the 96 dots per inch of gonum's default, for reports and slides.
const pngDPI = 150

// renderPlot returns p drawn at the size w×h in the format "png" or "svg",
// the PNG at 150 dots per inch.
func renderPlot(p Figure, w, h vg.Length, format string) ([]byte, error) {
	return renderFigure(p, w, h, format, pngDPI)
}

// marginCanvas is c less the figure margin on every side.
func marginCanvas(c draw.Canvas) draw.Canvas {
	return draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin)
}

// renderFigure returns f drawn at the size w×h in the format "png", "svg"
// or "pdf", a PNG at dpi dots per inch, inside a white margin.
func renderFigure(f Figure, w, h vg.Length, format string, dpi int) ([]byte, error) {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	case "svg":
		c = vgsvg.New(w, h)
	case "pdf":
		c = vgpdf.New(w, h)
	default:
		return nil, fmt.Errorf("analysis: unknown plot format %q (want %s)", format, strings.Join(PlotFormats, ", "))
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	f.Draw(marginCanvas(dc))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SavePlot writes p as dir/name.png and dir/name.svg, each atomically
// (write to a temporary file in dir, then rename), at the given size (e.g.
// 16*vg.Centimeter x 10*vg.Centimeter).
//
// The PNG has 150 dots per inch. The SVG does not embed its fonts
// (Liberation Serif, gonum's default): a viewer without them substitutes a
// similar font. A reader of either file sees the old file or the complete
// new one, never a partial one; on an error, no temporary file is left
// behind, but the PNG may have been replaced when writing the SVG fails.
// The files are readable by all (mode 0644). It is an error if p is nil,
// name is empty or not a plain file name (it may not hold a path
// separator), or w or h is not positive.
func SavePlot(p *plot.Plot, dir, name string, w, h vg.Length) error {
	if p == nil {
		return errors.New("analysis: SavePlot: nil plot")
	}
	return saveFigure("SavePlot", p, dir, name, w, h, SaveOptions{})
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, synced and then renamed over path, so that path holds either
// its old content or all of data. The temporary file is removed on error.
func writeFileAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
