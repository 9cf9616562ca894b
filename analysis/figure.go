package analysis

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Figure is what [SaveFigure] draws: a *plot.Plot, or a [Panels] figure of
// several.
type Figure interface {
	Draw(draw.Canvas)
}

// figureMargin is the blank border around every rendered figure, so that a
// title or an outer tick label never touches the edge of the image.
var figureMargin = vg.Points(8)

// titlePadding is the space between a plot's title and its data area.
var titlePadding = vg.Points(8)

// SaveOptions chooses the files [SaveFigure] writes.
type SaveOptions struct {
	Formats []string // of PlotFormats; nil: png and svg
	DPI     int      // of the PNG; 0: 150
}

// PlotFormats are the file formats a figure can be saved in.
var PlotFormats = []string{"png", "svg", "pdf"}

// ParseFormats reads a comma-separated list of plot formats ("png,svg,pdf").
func ParseFormats(s string) ([]string, error) {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(PlotFormats, f) {
			return nil, fmt.Errorf("plot format %q: want a comma-separated list of %s", f, strings.Join(PlotFormats, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// MaxDPI bounds the resolution of a PNG: 1200 dots per inch is print
// quality; more only makes huge files.
const MaxDPI = 1200

func (o SaveOptions) formats() []string {
	if len(o.Formats) == 0 {
		return []string{"png", "svg"}
	}
	return o.Formats
}

func (o SaveOptions) dpi() int {
	if o.DPI == 0 {
		return pngDPI
	}
	return o.DPI
}

// SaveFigure writes f as dir/name.FORMAT for each of o's formats, each
// atomically, at the size w×h; see [SavePlot]. A PDF embeds its fonts but
// carries the time it was written, so only PNG and SVG are byte for byte
// reproducible.
func SaveFigure(f Figure, dir, name string, w, h vg.Length, o SaveOptions) error {
	return saveFigure("SaveFigure", f, dir, name, w, h, o)
}

func saveFigure(fn string, f Figure, dir, name string, w, h vg.Length, o SaveOptions) error {
	switch {
	case f == nil:
		return fmt.Errorf("analysis: %s: nil figure", fn)
	case name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || filepath.Base(name) != name:
		return fmt.Errorf("analysis: %s: %q is not a plain file name", fn, name)
	case !(w > 0 && h > 0) || math.IsInf(float64(w), 0) || math.IsInf(float64(h), 0):
		return fmt.Errorf("analysis: %s: size %v×%v is not positive and finite", fn, w, h)
	case o.DPI < 0 || o.DPI > MaxDPI:
		return fmt.Errorf("analysis: %s: %d dots per inch: want 1 to %d", fn, o.DPI, MaxDPI)
	}
	for _, format := range o.formats() {
		data, err := renderFigure(f, w, h, format, o.dpi())
		if err != nil {
			return fmt.Errorf("analysis: %s %s.%s: %w", fn, name, format, err)
		}
		if err := writeFileAtomic(filepath.Join(dir, name+"."+format), data); err != nil {
			return fmt.Errorf("analysis: %s: %w", fn, err)
		}
	}
	return nil
}

// niceTicks places about n labelled ticks at round values (1, 2 or 5 times
// a power of ten) and labels them with no more decimals than the step
// needs: never "25.00" or "1, 1, 1". With integer true the step is at least
// 1, for integer quantities (turns, players, cards). It labels at least
// min ticks when a smaller round step allows it: the step that gives at
// most n can give as few as 2 (-4.5 to 9 in steps of 5: only 0 and 5),
// too few to read a value off the axis.
type niceTicks struct {
	n       int // labelled ticks wanted; 0: 6
	integer bool
	min     int // the fewest labelled ticks; 0: 3
}

// labelsIn is the number of multiples of step in [lo, hi].
func labelsIn(lo, hi, step float64) int {
	return int(math.Floor(hi/step+1e-9) - math.Ceil(lo/step-1e-9) + 1)
}

// smallerStep is the next round step below step: 5 → 2 → 1 → 0.5.
func smallerStep(step float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	switch m := math.Round(step / p); {
	case m >= 5:
		return 2 * p
	case m >= 2:
		return p
	}
	return p / 2
}

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	n := t.n
	if n == 0 {
		n = 6
	}
	step := niceStep((hi - lo) / float64(n-1))
	if t.integer && step < 1 {
		step = 1
	}
	fewest := t.min
	if fewest == 0 {
		fewest = 3
	}
	for labelsIn(lo, hi, step) < fewest {
		next := smallerStep(step)
		if t.integer && next < 1 {
			break
		}
		step = next
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // no "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		// Unlabelled minor ticks halfway, when the half is still round.
		if half := v + step/2; half < hi && (!t.integer || step >= 2) {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	return ticks
}

// niceStep returns the smallest of 1, 2, 5 times a power of ten at least x.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// Panels is a figure of small multiples: plots tiled in a grid with shared
// axes, whose labels are drawn once, a title above and a note below.
type Panels struct {
	Title          string
	XLabel, YLabel string
	Note           string // below the grid, e.g. what the lines mean and what is cut off
	Cols           int
	Plots          []*plot.Plot // row by row, with the same axis ranges and no axis labels
	title, note    text.Style
	label          text.Style
}

// Draw implements Figure. The panels have the same ranges and ticks, so
// equal tiles give them aligned data areas.
func (f *Panels) Draw(c draw.Canvas) {
	if f.Title != "" {
		c.FillText(f.title, vg.Point{X: c.Center().X, Y: c.Max.Y}, f.Title)
		c.Max.Y -= f.title.Height(f.Title) + titlePadding
	}
	if f.Note != "" {
		c.FillText(f.note, vg.Point{X: c.Min.X, Y: c.Min.Y}, f.Note)
		c.Min.Y += f.note.Height(f.Note) + vg.Points(6)
	}
	if f.XLabel != "" {
		st := f.label
		st.XAlign, st.YAlign = draw.XCenter, draw.YBottom
		c.FillText(st, vg.Point{X: c.Center().X, Y: c.Min.Y}, f.XLabel)
		c.Min.Y += st.Height(f.XLabel) + vg.Points(2)
	}
	if f.YLabel != "" {
		st := f.label
		st.Rotation = math.Pi / 2
		st.XAlign, st.YAlign = draw.XCenter, draw.YTop
		c.FillText(st, vg.Point{X: c.Min.X, Y: c.Center().Y}, f.YLabel)
		c.Min.X += st.Height(f.YLabel) + vg.Points(2)
	}
	rows := (len(f.Plots) + f.Cols - 1) / f.Cols
	tiles := draw.Tiles{Rows: rows, Cols: f.Cols, PadX: vg.Points(6), PadY: vg.Points(6)}
	for i, p := range f.Plots {
		p.Draw(tiles.At(c, i%f.Cols, i/f.Cols))
	}
}

// PanelSize is the size of each panel of a [LengthPanels] figure; the
// figure is Cols panels wide, plus its title and note.
var PanelSize = vg.Point{X: 5 * vg.Centimeter, Y: 4 * vg.Centimeter}

// Size returns a good size for the figure: PanelSize per panel.
func (f *Panels) Size() (w, h vg.Length) {
	rows := (len(f.Plots) + f.Cols - 1) / f.Cols
	w = max(16*vg.Centimeter, vg.Length(f.Cols)*PanelSize.X)
	h = vg.Length(rows)*PanelSize.Y + 2*vg.Centimeter
	return w, h
}

// LengthPanels draws the distribution of an integer quantity (game length
// in turns) of several groups as small multiples with shared axes: one
// histogram panel per group named names[i], the share of its games per
// bin in percent, on the same bins (about 30 from the smallest value to
// the cut), the same y range and the same x range, up to the 99.5th
// percentile of all the groups' values pooled, with the median (solid
// line) and the mean (dashed) of each group marked. The cut is pooled so
// that one group's long tail (draw-until-playable's) does not squash every
// other panel: the note counts the values beyond it, and a panel more than
// 1% of whose values lie beyond says its own share in its corner. x axis
// labels are on the bottom panels, y labels on the left ones. It is an
// error if there is no histogram, names and hs differ in length, or a
// histogram is nil, empty or has values out of range.
func LengthPanels(title, xLabel, unit string, names []string, hs []*IntHist) (*Panels, error) {
	const fn = "LengthPanels"
	if len(hs) == 0 {
		return nil, fmt.Errorf("analysis: %s: no histograms", fn)
	}
	if len(names) != len(hs) {
		return nil, fmt.Errorf("analysis: %s: %d names for %d histograms", fn, len(names), len(hs))
	}
	lo, longest := math.MaxInt, math.MinInt
	pooled := &IntHist{}
	for i, h := range hs {
		if err := checkHist(fn, fmt.Sprintf("histogram %d (%q)", i, names[i]), h); err != nil {
			return nil, err
		}
		lo, longest = min(lo, h.Min()), max(longest, h.Max())
		pooled.Merge(h)
	}
	cut := int(pooled.Quantile(0.995))
	binWidth := max(1, int(math.Round(float64(cut-lo+1)/30)))
	first := lo / binWidth
	last := cut / binWidth
	cut = last*binWidth + binWidth - 1 // the cut ends a bin
	var total, beyond int64
	longer := make([]int64, len(hs)) // per group, the values beyond the cut
	for i, h := range hs {
		total += h.N()
		for _, b := range h.Bins(1) {
			if b.Lo > cut {
				longer[i] += b.Count
			}
		}
		beyond += longer[i]
	}
	ymax := 0.0
	panels := make([]*plot.Plot, len(hs))
	cols := max(1, min(len(hs), int(math.Ceil(math.Sqrt(float64(len(hs))*1.5)))))
	yLabel := fmt.Sprintf("games (%% per %d-%s bin)", binWidth, strings.TrimSuffix(unit, "s"))
	if binWidth == 1 {
		yLabel = "games (% per " + strings.TrimSuffix(unit, "s") + ")"
	}
	cornerNotes := 0
	for i, h := range hs {
		shares := make([]float64, last-first+1)
		n := float64(h.N())
		for _, b := range h.Bins(binWidth) {
			if k := b.Lo/binWidth - first; k < len(shares) {
				shares[k] = 100 * float64(b.Count) / n
			}
		}
		hb := make([]plotter.HistogramBin, len(shares))
		for k, s := range shares {
			blo := (first + k) * binWidth
			hb[k] = plotter.HistogramBin{Min: float64(blo) - 0.5, Max: float64(blo+binWidth) - 0.5, Weight: s}
			ymax = max(ymax, s)
		}
		hist := &plotter.Histogram{Bins: hb, Width: float64(binWidth), FillColor: seriesColor(0),
			LineStyle: draw.LineStyle{Color: color.White, Width: thinWidth}}
		p := newPlot(names[i], "", "")
		p.Title.TextStyle.Font.Size = vg.Points(9)
		p.Title.Padding = vg.Points(3)
		p.X.Tick.Marker = niceTicks{n: 6, integer: true}
		p.Y.Tick.Marker = niceTicks{n: 4}
		p.Add(hist)
		med, mean := h.Quantile(0.5), h.Mean()
		for k, v := range []float64{med, mean} {
			if v > float64(cut) {
				continue
			}
			l, err := plotter.NewLine(plotter.XYs{{X: v, Y: 0}, {X: v, Y: math.MaxFloat64}})
			if err != nil {
				return nil, fmt.Errorf("analysis: %s: %w", fn, err)
			}
			l.Color, l.Width = color.Black, thinWidth
			if k == 1 {
				l.Color, l.Width = seriesColor(1), vg.Points(1)
				l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			}
			p.Add(markLine{l})
		}
		if share := float64(longer[i]) / n; share > 0.01 {
			st := p.X.Tick.Label
			st.Font.Size = vg.Points(7)
			st.XAlign, st.YAlign = draw.XRight, draw.YTop
			text := percentText(share) + " longer →"
			if med > float64(cut) || mean > float64(cut) {
				text += fmt.Sprintf("\n(mean %.0f)", mean)
			}
			p.Add(cornerNote{text: text, style: st})
			cornerNotes++
		}
		panels[i] = p
	}
	for _, p := range panels {
		p.X.Min, p.X.Max = float64(first*binWidth)-0.5, float64(cut)+0.5
		p.Y.Min, p.Y.Max = 0, ymax*1.05
	}
	note := fmt.Sprintf("Solid line: median; dashed: mean. Bins of %d %s.", binWidth, unit)
	if beyond > 0 {
		note += fmt.Sprintf("\nCut at %s %s (all games' 99.5th percentile): %s of the games (%s of %s) are longer, up to %s %s",
			Thousands(int64(cut)), unit, percentText(float64(beyond)/float64(total)), Thousands(beyond), Thousands(total), Thousands(int64(longest)), unit)
		if cornerNotes > 0 {
			note += ";\na panel with more than 1% of its games longer says how many"
		}
		note += "."
	}
	f := &Panels{Title: title, XLabel: xLabel, YLabel: yLabel, Note: note, Cols: cols, Plots: panels}
	f.label = panels[0].X.Label.TextStyle
	f.title = panels[0].Title.TextStyle
	f.title.Font.Size = vg.Points(12)
	f.title.YAlign = draw.YTop
	f.note = panels[0].X.Tick.Label
	f.note.XAlign, f.note.YAlign = draw.XLeft, draw.YBottom
	return f, nil
}

// cornerNote is a short text in the top right corner of a plot's data
// area; it takes no part in the axis ranges or the padding, so panels
// with and without one keep aligned data areas.
type cornerNote struct {
	text  string
	style text.Style
}

// Plot implements plot.Plotter.
func (n cornerNote) Plot(c draw.Canvas, _ *plot.Plot) {
	c.FillText(n.style, vg.Point{X: c.Max.X - vg.Points(2), Y: c.Max.Y}, n.text)
}

// Thousands writes n with commas between groups of three digits, as the
// tool writes counts: 60,000.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// percentText formats a share as a percentage with two significant digits.
func percentText(s float64) string {
	return strconv.FormatFloat(100*s, 'g', 2, 64) + "%"
}

// markLine is a vertical line at a data x spanning the data area (its Y
// values are ignored): it takes no part in the axis ranges.
type markLine struct{ l *plotter.Line }

// Plot implements plot.Plotter.
func (m markLine) Plot(c draw.Canvas, p *plot.Plot) {
	x := c.X(p.X.Norm(m.l.XYs[0].X))
	c.StrokeLine2(m.l.LineStyle, x, c.Min.Y, x, c.Max.Y)
}

// LayoutProblem is a flaw of a rendered figure's text: a string outside
// the image or too close to its edge, or two strings overlapping.
type LayoutProblem string

// TextBox is the extent of one string drawn on a figure, measured with the
// font's own metrics (font.Face width and extents) and the canvas
// transform it was drawn under.
type TextBox struct {
	Text string
	Rect vg.Rectangle
}

// DrawnText renders f at w×h into a recording canvas and returns the box
// of every string drawn.
func DrawnText(f Figure, w, h vg.Length) []TextBox {
	rec := &recorder.Canvas{}
	dc := draw.NewCanvas(rec, w, h)
	f.Draw(marginCanvas(dc))
	type affine struct{ a, b, c, d, e, f float64 } // x' = a x + c y + e, y' = b x + d y + f
	id := affine{a: 1, d: 1}
	mul := func(m, n affine) affine { // m then n applied in m's frame
		return affine{
			a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
			c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
			e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
		}
	}
	cur, stack := id, []affine{}
	var out []TextBox
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Push:
			stack = append(stack, cur)
		case *recorder.Pop:
			if len(stack) > 0 {
				cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
		case *recorder.Translate:
			cur = mul(cur, affine{a: 1, d: 1, e: float64(a.Point.X), f: float64(a.Point.Y)})
		case *recorder.Rotate:
			s, c := math.Sincos(a.Angle)
			cur = mul(cur, affine{a: c, b: s, c: -s, d: c})
		case *recorder.Scale:
			cur = mul(cur, affine{a: a.X, d: a.Y})
		case *recorder.FillString:
			face := font.DefaultCache.Lookup(a.Font, a.Size)
			ext := face.Extents()
			x0, x1 := float64(a.Point.X), float64(a.Point.X+face.Width(a.String))
			// The line's slot: from the descent up by the font size, the
			// pitch of the lines of a multi-line text (ascent plus
			// descent is a little more, so that successive lines of one
			// text would "overlap").
			y0 := float64(a.Point.Y - ext.Descent)
			y1 := y0 + float64(a.Size)
			r := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}, Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
			for _, p := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
				x := vg.Length(cur.a*p[0] + cur.c*p[1] + cur.e)
				y := vg.Length(cur.b*p[0] + cur.d*p[1] + cur.f)
				r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
				r.Max.X, r.Max.Y = max(r.Max.X, x), max(r.Max.Y, y)
			}
			out = append(out, TextBox{Text: a.String, Rect: r})
		}
	}
	return out
}

// CheckLayout renders f at w×h and returns its layout problems: a string
// within edge (e.g. 2 points) of the image's border or beyond it
// (clipped), and two strings whose boxes overlap by more than a quarter
// point (touching neighbours are fine).
func CheckLayout(f Figure, w, h vg.Length, edge vg.Length) []LayoutProblem {
	boxes := DrawnText(f, w, h)
	var out []LayoutProblem
	for _, b := range boxes {
		r := b.Rect
		if r.Min.X < edge || r.Min.Y < edge || r.Max.X > w-edge || r.Max.Y > h-edge {
			out = append(out, LayoutProblem(fmt.Sprintf("%q at [%.1f, %.1f]-[%.1f, %.1f] is within %v of the edge of the %.0f×%.0f figure",
				b.Text, r.Min.X, r.Min.Y, r.Max.X, r.Max.Y, edge, w, h)))
		}
	}
	const slack = vg.Length(0.25)
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i].Rect, boxes[j].Rect
			if a.Min.X+slack < b.Max.X && b.Min.X+slack < a.Max.X && a.Min.Y+slack < b.Max.Y && b.Min.Y+slack < a.Max.Y {
				out = append(out, LayoutProblem(fmt.Sprintf("%q and %q overlap", boxes[i].Text, boxes[j].Text)))
			}
		}
	}
	return out
}
