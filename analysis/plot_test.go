package analysis

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// updatePlots regenerates the golden plots: go test ./analysis -update-plots.
var updatePlots = flag.Bool("update-plots", false, "regenerate the golden plots in testdata")

// The size of the golden renderings: small, to keep testdata small.
const goldenW, goldenH = 12 * vg.Centimeter, 8 * vg.Centimeter

// PNG comparison tolerance: a pixel differs if one of its channels differs
// by more than pngChannelTol (of 0xffff); at most pngMaxDiffShare of the
// pixels may differ. Byte-identical files always pass. The tolerance only
// absorbs anti-aliasing noise (a rounding difference moving an edge by a
// fraction of a pixel on another architecture, e.g. with fused
// multiply-adds); the SVG golden is compared byte for byte and catches any
// change of geometry or text.
const (
	pngChannelTol   = 0x2000 // 1/8 of full scale
	pngMaxDiffShare = 0.001
)

// checkGolden renders p as SVG and PNG at the golden size and compares them
// with testdata/name.golden.svg and .png (or writes those with
// -update-plots). It also renders p a second time and requires identical
// bytes.
func checkGolden(t *testing.T, name string, p *plot.Plot) {
	t.Helper()
	for _, format := range []string{"svg", "png"} {
		got, err := renderPlot(p, goldenW, goldenH, format)
		if err != nil {
			t.Fatalf("render %s: %v", format, err)
		}
		again, err := renderPlot(p, goldenW, goldenH, format)
		if err != nil {
			t.Fatalf("render %s again: %v", format, err)
		}
		if !bytes.Equal(got, again) {
			t.Errorf("%s: rendering the same plot twice gave different %s bytes", name, format)
		}
		if format == "png" {
			checkPNG(t, name, got, goldenW, goldenH)
		}
		path := filepath.Join("testdata", name+".golden."+format)
		if *updatePlots {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./analysis -update-plots to create it)", err)
		}
		if bytes.Equal(got, want) {
			continue
		}
		if format == "svg" {
			t.Errorf("%s differs from the golden file at line %d (inspect and rerun with -update-plots if the change is intended)",
				path, firstDiffLine(got, want))
			continue
		}
		if msg := comparePNG(got, want); msg != "" {
			t.Errorf("%s: %s (inspect and rerun with -update-plots if the change is intended)", path, msg)
		}
	}
}

// firstDiffLine returns the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// checkPNG fails t unless data is a PNG of the size w×h at pngDPI that is
// not blank: it has dark pixels (text, axes) and colored ones (data).
func checkPNG(t *testing.T, name string, data []byte, w, h vg.Length) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: PNG does not decode: %v", name, err)
	}
	wantW := int(math.Round(w.Dots(pngDPI))) // vgimg rounds to whole pixels
	wantH := int(math.Round(h.Dots(pngDPI)))
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s: PNG is %d×%d pixels, want %d×%d", name, b.Dx(), b.Dy(), wantW, wantH)
	}
	var dark, colored int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl) < 0x4000 {
				dark++
			}
			if max(r, g, bl)-min(r, g, bl) > 0x4000 {
				colored++
			}
		}
	}
	if dark == 0 || colored == 0 {
		t.Errorf("%s: PNG looks blank: %d dark and %d colored pixels", name, dark, colored)
	}
}

// comparePNG returns "" if the PNGs got and want have the same size and
// differ in at most pngMaxDiffShare of their pixels by more than
// pngChannelTol in a channel, otherwise what is wrong.
func comparePNG(got, want []byte) string {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return err.Error()
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return "golden: " + err.Error()
	}
	if g.Bounds() != w.Bounds() {
		return fmt.Sprintf("size %v, golden %v", g.Bounds(), w.Bounds())
	}
	diff := 0
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !pixelNear(g, w, x, y) {
				diff++
			}
		}
	}
	total := b.Dx() * b.Dy()
	if float64(diff) > pngMaxDiffShare*float64(total) {
		return fmt.Sprintf("%d of %d pixels differ", diff, total)
	}
	return ""
}

// pixelNear reports whether the pixels (x, y) of a and b are within
// pngChannelTol in every channel.
func pixelNear(a, b image.Image, x, y int) bool {
	r1, g1, b1, a1 := a.At(x, y).RGBA()
	r2, g2, b2, a2 := b.At(x, y).RGBA()
	d := func(u, v uint32) uint32 { return max(u, v) - min(u, v) }
	return max(d(r1, r2), d(g1, g2), d(b1, b2), d(a1, a2)) <= pngChannelTol
}

// TestComparePNG checks the PNG comparison itself: a golden equals itself
// and differs from another plot of the same size.
func TestComparePNG(t *testing.T) {
	a, err := os.ReadFile(filepath.Join("testdata", "errorbars.golden.png"))
	if err != nil {
		t.Skip(err) // the goldens are being regenerated
	}
	b, err := os.ReadFile(filepath.Join("testdata", "errorbars_long.golden.png"))
	if err != nil {
		t.Skip(err)
	}
	if msg := comparePNG(a, a); msg != "" {
		t.Errorf("a PNG differs from itself: %s", msg)
	}
	if msg := comparePNG(a, b); msg == "" {
		t.Error("two different plots compare equal")
	}
}

// testValues returns n fixed, right-skewed outcomes (a game-length shape)
// from a simple deterministic formula: for n = 400, 8 to 84, plus shift.
func testValues(n, shift int) []int {
	vs := make([]int, n)
	for i := range vs {
		vs[i] = 8 + shift + (i*i*7+i*3)%23 + (i*11)%37*(i%4)/2
	}
	return vs
}

// countIn returns the number of vs in [lo, hi]: the slow twin of Bins.
func countIn(vs []int, lo, hi int) int64 {
	var n int64
	for _, v := range vs {
		if lo <= v && v <= hi {
			n++
		}
	}
	return n
}

func TestHistogramPlot(t *testing.T) {
	vs := testValues(400, 0)
	h := histOf(vs)
	lo, hi := slices.Min(vs), slices.Max(vs)
	if lo != h.Min() || hi != h.Max() {
		t.Fatalf("test data: min %d max %d, histogram %d %d", lo, hi, h.Min(), h.Max())
	}
	for _, tc := range []struct {
		name      string
		width     int
		density   bool
		wantWidth int
	}{
		{"hist_counts_w5", 5, false, 5},
		// 0: about 40 bins over the hi−lo+1 = 77 values: round(77/40) = 2.
		{"hist_share_auto", 0, true, 2},
		{"hist_counts_w1", 1, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, hp, err := histogramPlot("Game length", "turns", h, tc.width, tc.density)
			if err != nil {
				t.Fatal(err)
			}
			if hp.Width != float64(tc.wantWidth) {
				t.Errorf("width %v, want %d", hp.Width, tc.wantWidth)
			}
			// Independent expectation: bins aligned to multiples of the
			// width from the one holding lo to the one holding hi,
			// counted from the raw values.
			w := tc.wantWidth
			nb := hi/w - lo/w + 1
			if len(hp.Bins) != nb {
				t.Fatalf("%d bins, want %d", len(hp.Bins), nb)
			}
			var sum float64
			for i, b := range hp.Bins {
				blo := (lo/w + i) * w
				bhi := blo + w - 1
				want := float64(countIn(vs, blo, bhi))
				if tc.density {
					want = 100 * want / float64(len(vs)) // percent
				}
				if b.Min != float64(blo)-0.5 || b.Max != float64(bhi)+0.5 || b.Weight != want {
					t.Errorf("bin %d = [%v, %v] weight %v, want [%v, %v] weight %v",
						i, b.Min, b.Max, b.Weight, float64(blo)-0.5, float64(bhi)+0.5, want)
				}
				sum += b.Weight
			}
			wantSum := float64(len(vs))
			if tc.density {
				wantSum = 100
			}
			checkNear(t, "sum of bar heights", sum, wantSum, 1e-12)
			if tc.name != "hist_counts_w1" { // two goldens are enough
				checkGolden(t, tc.name, p)
			}
		})
	}
}

// overlaidInput returns three histograms of different shapes and ranges.
func overlaidInput() ([]string, []*IntHist, [][]int) {
	vals := [][]int{testValues(400, 0), testValues(250, 6), testValues(150, -5)}
	hs := make([]*IntHist, len(vals))
	for i, v := range vals {
		hs[i] = histOf(v)
	}
	return []string{"2 players", "4 players", "7 players"}, hs, vals
}

func TestOverlaidHistograms(t *testing.T) {
	names, hs, vals := overlaidInput()
	const w = 3
	p, lines, err := overlaidHistograms("Game length by player count", "turns", names, hs, w)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.MaxInt, -1
	for _, v := range vals {
		lo, hi = min(lo, slices.Min(v)), max(hi, slices.Max(v))
	}
	first := lo / w
	nb := hi/w - first + 1
	if len(lines) != len(hs) {
		t.Fatalf("%d lines for %d histograms", len(lines), len(hs))
	}
	for k, l := range lines {
		if len(l.XYs) != 2*nb+2 {
			t.Fatalf("line %d has %d vertices, want 2·%d bins + 2", k, len(l.XYs), nb)
		}
		left := float64(first*w) - 0.5
		if l.XYs[0] != (plotter.XY{X: left, Y: 0}) || l.XYs[2*nb+1] != (plotter.XY{X: left + float64(nb*w), Y: 0}) {
			t.Errorf("line %d ends at %v and %v, want down to 0 at the outer bin edges", k, l.XYs[0], l.XYs[2*nb+1])
		}
		var sum float64
		for i := range nb {
			blo := (first + i) * w
			want := 100 * float64(countIn(vals[k], blo, blo+w-1)) / float64(len(vals[k])) // percent
			a, b := l.XYs[1+2*i], l.XYs[2+2*i]
			if a != (plotter.XY{X: float64(blo) - 0.5, Y: want}) || b != (plotter.XY{X: float64(blo+w) - 0.5, Y: want}) {
				t.Errorf("line %d bin %d: top %v–%v, want share %v over [%v, %v]", k, i, a, b, want, float64(blo)-0.5, float64(blo+w)-0.5)
			}
			sum += want
		}
		checkNear(t, fmt.Sprintf("line %d total share", k), sum, 100, 1e-12)
	}
	checkGolden(t, "overlaid", p)

	// Automatic width: about 40 bins over all values.
	_, lines, err = overlaidHistograms("", "", names, hs, 0)
	if err != nil {
		t.Fatal(err)
	}
	aw := autoBinWidth(lo, hi)
	if want := 2*(hi/aw-lo/aw+1) + 2; len(lines[0].XYs) != want {
		t.Errorf("automatic width %d: %d vertices, want %d", aw, len(lines[0].XYs), want)
	}
}

// bandInput returns two series of a band plot.
func bandInput() []Series {
	return []Series{
		{
			Name: "classic",
			X:    []float64{2, 3, 4, 5, 6},
			Y:    []float64{41.2, 48.9, 55.0, 60.3, 64.1},
			Lo:   []float64{39.8, 47.1, 53.6, 58.2, 62.5},
			Hi:   []float64{42.6, 50.7, 56.4, 62.4, 65.7},
		},
		{
			Name: "stacking",
			X:    []float64{2, 3, 4, 5, 6},
			Y:    []float64{35.0, 40.2, 44.8, 47.9, 51.3},
			Lo:   []float64{33.1, 38.9, 43.0, 46.2, 49.0},
			Hi:   []float64{36.9, 41.5, 46.6, 49.6, 53.6},
		},
	}
}

func TestBandPlot(t *testing.T) {
	series := bandInput()
	p, parts, err := bandPlot("Mean game length", "players", "turns", series)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts.bands) != len(series) || len(parts.lines) != len(series) || len(parts.points) != len(series) {
		t.Fatalf("%d bands, %d lines, %d point sets for %d series", len(parts.bands), len(parts.lines), len(parts.points), len(series))
	}
	for k, s := range series {
		n := len(s.X)
		rings := parts.bands[k].XYs
		if len(rings) != 1 || len(rings[0]) != 2*n {
			t.Fatalf("series %d: band rings %d, want one of 2·%d vertices", k, len(rings), n)
		}
		for j := range n {
			if got, want := rings[0][j], (plotter.XY{X: s.X[j], Y: s.Hi[j]}); got != want {
				t.Errorf("series %d: band vertex %d = %v, want upper %v", k, j, got, want)
			}
			if got, want := rings[0][2*n-1-j], (plotter.XY{X: s.X[j], Y: s.Lo[j]}); got != want {
				t.Errorf("series %d: band vertex %d = %v, want lower %v", k, 2*n-1-j, got, want)
			}
			if got, want := parts.lines[k].XYs[j], (plotter.XY{X: s.X[j], Y: s.Y[j]}); got != want || parts.points[k].XYs[j] != want {
				t.Errorf("series %d: line point %d = %v, want %v", k, j, got, want)
			}
		}
	}
	checkGolden(t, "band", p)

	// The plot holds copies: changing the input afterwards changes nothing.
	series[0].Y[0] = 1000
	if parts.lines[0].XYs[0].Y == 1000 {
		t.Error("the plot shares the caller's slice")
	}
}

func TestErrorBarPlot(t *testing.T) {
	labels := []string{"random", "greedy", "hoarder", "bluffer"}
	wins := []int64{230, 281, 247, 242}
	const games = 1000
	est, lo, hi := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	for i, w := range wins {
		est[i] = float64(w) / games
		lo[i], hi[i] = Wilson(w, games, 0.95)
	}
	p, parts, err := errorBarPlot("Win rate, 4 players", "win rate", labels, est, lo, hi, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	for i := range labels {
		xy := parts.bars.XYs[i]
		e := parts.bars.YErrors[i]
		if xy != (plotter.XY{X: float64(i), Y: est[i]}) || parts.points.XYs[i] != xy {
			t.Errorf("point %d at %v, want (%d, %v)", i, xy, i, est[i])
		}
		checkNear(t, fmt.Sprintf("bar %d low end", i), xy.Y-e.Low, lo[i], 1e-15)
		checkNear(t, fmt.Sprintf("bar %d high end", i), xy.Y+e.High, hi[i], 1e-15)
	}
	if parts.ref == nil || len(parts.ref.XYs) != 2 || parts.ref.XYs[0].Y != 0.25 || parts.ref.XYs[1].Y != 0.25 {
		t.Errorf("reference line %v, want at y = 0.25", parts.ref)
	}
	checkGolden(t, "errorbars", p)

	// No reference line; long labels are rotated.
	long := []string{"random player", "greedy highest value", "hoards wild cards", "bluffs with draw four"}
	p, parts, err = errorBarPlot("Win rate, 4 players", "win rate", long, est, lo, hi, math.NaN())
	if err != nil {
		t.Fatal(err)
	}
	if parts.ref != nil {
		t.Error("a reference line with ref NaN")
	}
	if p.X.Tick.Label.Rotation == 0 {
		t.Error("long labels are not rotated")
	}
	checkGolden(t, "errorbars_long", p)
}

// heatInput returns a 4×3 grid: rows are bluff probabilities, columns
// challenge policies.
func heatInput() (cols, rows []string, z [][]float64) {
	cols = []string{"never", "sometimes", "always"}
	rows = []string{"0.0", "0.1", "0.2", "0.3"}
	z = [][]float64{
		{0.251, 0.248, 0.239},
		{0.262, 0.250, 0.231},
		{0.270, 0.249, 0.220},
		{0.281, 0.247, 0.208},
	}
	return cols, rows, z
}

func TestHeatMap(t *testing.T) {
	cols, rows, z := heatInput()
	p, parts, err := heatMap("Bluffer win rate", "challenge policy", "bluff probability", cols, rows, z)
	if err != nil {
		t.Fatal(err)
	}
	g := parts.heat.GridXYZ
	if c, r := g.Dims(); c != len(cols) || r != len(rows) {
		t.Fatalf("grid is %d×%d, want %d columns × %d rows", c, r, len(cols), len(rows))
	}
	for r := range rows {
		if g.Y(r) != float64(r) {
			t.Errorf("row %d at y = %v", r, g.Y(r))
		}
		for c := range cols {
			if g.X(c) != float64(c) {
				t.Errorf("column %d at x = %v", c, g.X(c))
			}
			if g.Z(c, r) != z[r][c] {
				t.Errorf("Z(%d, %d) = %v, want z[%d][%d] = %v", c, r, g.Z(c, r), r, c, z[r][c])
			}
		}
	}
	if parts.heat.Min != 0.208 || parts.heat.Max != 0.281 {
		t.Errorf("color range [%v, %v], want [0.208, 0.281]", parts.heat.Min, parts.heat.Max)
	}
	// The values written in the cells.
	if len(parts.values.Labels) != len(rows)*len(cols) {
		t.Fatalf("%d cell labels for %d cells", len(parts.values.Labels), len(rows)*len(cols))
	}
	for i, l := range parts.values.Labels {
		xy := parts.values.XYs[i]
		c, r := int(xy.X), int(xy.Y)
		if want := fmt.Sprintf("%.3f", z[r][c]); l != want || xy != (plotter.XY{X: float64(c), Y: float64(r)}) {
			t.Errorf("label %d = %q at %v, want %q at (%d, %d)", i, l, xy, want, c, r)
		}
	}
	if len(parts.bar.ticks) < 2 {
		t.Errorf("color bar has %d labelled ticks", len(parts.bar.ticks))
	}
	for _, tk := range parts.bar.ticks {
		if tk.Value < 0.208 || tk.Value > 0.281 || tk.Label == "" {
			t.Errorf("color bar tick %+v outside the range of z or unlabelled", tk)
		}
	}
	checkGolden(t, "heatmap", p)

	// The plot holds a copy of z.
	z[0][0] = 9
	if g.Z(0, 0) == 9 {
		t.Error("the plot shares the caller's z")
	}

	// A single value (one cell, or all equal) still has a color range.
	_, parts, err = heatMap("", "", "", []string{"a"}, []string{"b"}, [][]float64{{0.3}})
	if err != nil {
		t.Fatal(err)
	}
	if !(parts.heat.Min < 0.3 && parts.heat.Max > 0.3) {
		t.Errorf("single value 0.3: color range [%v, %v]", parts.heat.Min, parts.heat.Max)
	}
	// Rendering it must not panic (gonum's HeatMap does on a zero range).
	p, err = HeatMap("one cell", "", "", []string{"a"}, []string{"b"}, [][]float64{{0.3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := renderPlot(p, goldenW, goldenH, "svg"); err != nil {
		t.Error(err)
	}
}

func TestPlotErrors(t *testing.T) {
	h := histOf([]int{3, 4, 5})
	var empty IntHist
	outOfRange := histOf([]int{3, -1})
	wide := histOf([]int{0, maxBins}) // maxBins+1 bins of width 1
	nan := math.NaN()
	inf := math.Inf(1)
	good := bandInput()
	withSeries := func(f func(s *Series)) []Series {
		s := bandInput()
		f(&s[1])
		return s
	}
	cols, rows, z := heatInput()
	three := []float64{0.2, 0.3, 0.4}
	lo3 := []float64{0.1, 0.2, 0.3}
	hi3 := []float64{0.3, 0.4, 0.5}
	labels3 := []string{"a", "b", "c"}

	for _, tc := range []struct {
		name string
		f    func() (*plot.Plot, error)
	}{
		{"hist nil", func() (*plot.Plot, error) { return HistogramPlot("", "", nil, 0, false) }},
		{"hist empty", func() (*plot.Plot, error) { return HistogramPlot("", "", &empty, 0, false) }},
		{"hist out of range", func() (*plot.Plot, error) { return HistogramPlot("", "", outOfRange, 0, false) }},
		{"hist negative width", func() (*plot.Plot, error) { return HistogramPlot("", "", h, -1, true) }},
		{"hist too many bins", func() (*plot.Plot, error) { return HistogramPlot("", "", wide, 1, false) }},

		{"overlaid none", func() (*plot.Plot, error) { return OverlaidHistograms("", "", nil, nil, 0) }},
		{"overlaid names", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a"}, []*IntHist{h, h}, 0)
		}},
		{"overlaid nil", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a", "b"}, []*IntHist{h, nil}, 0)
		}},
		{"overlaid empty", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a", "b"}, []*IntHist{h, &empty}, 0)
		}},
		{"overlaid out of range", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a", "b"}, []*IntHist{h, outOfRange}, 0)
		}},
		{"overlaid negative width", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a"}, []*IntHist{h}, -2)
		}},
		{"overlaid too many bins", func() (*plot.Plot, error) {
			return OverlaidHistograms("", "", []string{"a", "b"}, []*IntHist{h, histOf([]int{maxBins + 5})}, 1)
		}},

		{"band none", func() (*plot.Plot, error) { return BandPlot("", "", "", nil) }},
		{"band no points", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { *s = Series{Name: "x"} }))
		}},
		{"band short Y", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Y = s.Y[:2] }))
		}},
		{"band short Lo", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Lo = s.Lo[1:] }))
		}},
		{"band long Hi", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Hi = append(s.Hi, 1) }))
		}},
		{"band NaN estimate", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Y[2] = nan }))
		}},
		{"band NaN bound", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Lo[0] = nan }))
		}},
		{"band infinite X", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.X[4] = inf }))
		}},
		{"band X not increasing", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.X[1], s.X[2] = s.X[2], s.X[1] }))
		}},
		{"band X repeated", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.X[1] = s.X[0] }))
		}},
		{"band Lo above Hi", func() (*plot.Plot, error) {
			return BandPlot("", "", "", withSeries(func(s *Series) { s.Lo[3], s.Hi[3] = s.Hi[3], s.Lo[3] }))
		}},

		{"errorbar none", func() (*plot.Plot, error) { return ErrorBarPlot("", "", nil, nil, nil, nil, nan) }},
		{"errorbar short est", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, three[:2], lo3, hi3, nan)
		}},
		{"errorbar short hi", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, three, lo3, hi3[:1], nan)
		}},
		{"errorbar NaN estimate", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, []float64{0.2, nan, 0.4}, lo3, hi3, nan)
		}},
		{"errorbar NaN bound", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, three, []float64{nan, 0.2, 0.3}, hi3, nan)
		}},
		{"errorbar infinite bound", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, three, lo3, []float64{0.3, inf, 0.5}, nan)
		}},
		{"errorbar estimate outside", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, []float64{0.2, 0.45, 0.4}, lo3, hi3, nan)
		}},
		{"errorbar infinite ref", func() (*plot.Plot, error) {
			return ErrorBarPlot("", "", labels3, three, lo3, hi3, inf)
		}},

		{"heat no columns", func() (*plot.Plot, error) { return HeatMap("", "", "", nil, rows, z) }},
		{"heat no rows", func() (*plot.Plot, error) { return HeatMap("", "", "", cols, nil, nil) }},
		{"heat rows mismatch", func() (*plot.Plot, error) { return HeatMap("", "", "", cols, rows, z[:3]) }},
		{"heat short row", func() (*plot.Plot, error) {
			zz := slices.Clone(z)
			zz[2] = zz[2][:2]
			return HeatMap("", "", "", cols, rows, zz)
		}},
		{"heat all NaN", func() (*plot.Plot, error) {
			zz := make([][]float64, len(z))
			for i := range zz {
				zz[i] = []float64{nan, nan, nan}
			}
			return HeatMap("", "", "", cols, rows, zz)
		}},
		{"heat infinite", func() (*plot.Plot, error) {
			zz := slices.Clone(z)
			zz[3] = []float64{0.2, 0.3, -inf}
			return HeatMap("", "", "", cols, rows, zz)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.f()
			if err == nil || p != nil {
				t.Fatalf("got plot %v and error %v, want nil and an error", p != nil, err)
			}
			if !strings.HasPrefix(err.Error(), "analysis: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
	if _, err := BandPlot("", "", "", good); err != nil {
		t.Errorf("the unmodified band input: %v", err)
	}
}

// TestPlotEdgeCases renders the smallest valid inputs (one value, one
// point, one label, a flat series) in both formats: none may panic inside
// gonum, and each gives a non-blank PNG.
func TestPlotEdgeCases(t *testing.T) {
	one := histOf([]int{7})
	for _, tc := range []struct {
		name string
		f    func() (*plot.Plot, error)
	}{
		{"histogram of one value", func() (*plot.Plot, error) { return HistogramPlot("one", "x", one, 0, true) }},
		{"histogram of value 0", func() (*plot.Plot, error) { return HistogramPlot("zero", "x", histOf([]int{0, 0}), 3, false) }},
		{"overlaid one value each", func() (*plot.Plot, error) {
			return OverlaidHistograms("two", "x", []string{"a", "b"}, []*IntHist{one, histOf([]int{9})}, 0)
		}},
		{"band of one point", func() (*plot.Plot, error) {
			return BandPlot("one", "x", "y", []Series{{Name: "a", X: []float64{3}, Y: []float64{1}, Lo: []float64{0.5}, Hi: []float64{1.5}}})
		}},
		{"flat band without a name", func() (*plot.Plot, error) {
			return BandPlot("flat", "x", "y", []Series{{X: []float64{1, 2}, Y: []float64{1, 1}, Lo: []float64{1, 1}, Hi: []float64{1, 1}}})
		}},
		{"one error bar of zero width", func() (*plot.Plot, error) {
			return ErrorBarPlot("one", "y", []string{"a"}, []float64{0.5}, []float64{0.5}, []float64{0.5}, math.NaN())
		}},
		{"heat map of equal values", func() (*plot.Plot, error) {
			return HeatMap("equal", "x", "y", []string{"a", "b"}, []string{"c"}, [][]float64{{2, 2}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.f()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := renderPlot(p, goldenW, goldenH, "svg"); err != nil {
				t.Fatal(err)
			}
			data, err := renderPlot(p, goldenW, goldenH, "png")
			if err != nil {
				t.Fatal(err)
			}
			checkPNG(t, tc.name, data, goldenW, goldenH)
		})
	}
}

// dirNames returns the sorted names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestSavePlot(t *testing.T) {
	dir := t.TempDir()
	cols, rows, z := heatInput()
	const w, h = 10 * vg.Centimeter, 6 * vg.Centimeter
	build := func() *plot.Plot {
		p, err := HeatMap("t", "x", "y", cols, rows, z)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := SavePlot(build(), dir, "heat", w, h); err != nil {
		t.Fatal(err)
	}
	if got, want := dirNames(t, dir), []string{"heat.png", "heat.svg"}; !slices.Equal(got, want) {
		t.Fatalf("directory holds %q, want %q", got, want)
	}
	first := map[string][]byte{}
	for _, format := range []string{"png", "svg"} {
		path := filepath.Join(dir, "heat."+format)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first[format] = data
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want 0644", path, fi.Mode(), err)
		}
	}
	checkPNG(t, "heat.png", first["png"], w, h)
	if !bytes.HasPrefix(first["svg"], []byte("<?xml")) || !bytes.Contains(first["svg"], []byte("</svg>")) {
		t.Error("heat.svg is not a complete SVG document")
	}

	// Saving a plot built again from the same input overwrites the files
	// with the same bytes, and still leaves nothing else behind.
	if err := SavePlot(build(), dir, "heat", w, h); err != nil {
		t.Fatal(err)
	}
	for format, want := range first {
		got, err := os.ReadFile(filepath.Join(dir, "heat."+format))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("heat.%s: a second save of the same input gave different bytes", format)
		}
	}
	if got := dirNames(t, dir); len(got) != 2 {
		t.Errorf("after overwriting, directory holds %q", got)
	}

	// A rename that fails (the target is a directory) removes its
	// temporary file.
	if err := os.Mkdir(filepath.Join(dir, "busy.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := SavePlot(build(), dir, "busy", w, h); err == nil {
		t.Error("saving over a directory succeeded")
	}
	if got, want := dirNames(t, dir), []string{"busy.png", "busy.svg", "heat.png", "heat.svg"}; !slices.Equal(got, want) {
		t.Errorf("after a failed save, directory holds %q, want %q", got, want)
	}

	// Invalid arguments.
	p := build()
	for _, tc := range []struct {
		name string
		p    *plot.Plot
		dir  string
		file string
		w, h vg.Length
	}{
		{"nil plot", nil, dir, "a", w, h},
		{"empty name", p, dir, "", w, h},
		{"dot", p, dir, ".", w, h},
		{"dot dot", p, dir, "..", w, h},
		{"path in name", p, dir, "sub/a", w, h},
		{"zero width", p, dir, "a", 0, h},
		{"negative height", p, dir, "a", w, -1},
		{"NaN width", p, dir, "a", vg.Length(math.NaN()), h},
		{"infinite height", p, dir, "a", w, vg.Length(math.Inf(1))},
		{"missing directory", p, filepath.Join(dir, "missing"), "a", w, h},
	} {
		if err := SavePlot(tc.p, tc.dir, tc.file, tc.w, tc.h); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if errors.Is(err, os.ErrExist) {
			t.Errorf("%s: unexpected %v", tc.name, err)
		}
	}
	if got := dirNames(t, dir); len(got) != 4 {
		t.Errorf("after invalid calls, directory holds %q", got)
	}
}

// TestPlotDeterministic builds every plot twice from the same input and
// requires identical SVG and PNG bytes (checkGolden also renders each plot
// object twice).
func TestPlotDeterministic(t *testing.T) {
	names, hs, _ := overlaidInput()
	cols, rows, z := heatInput()
	builds := map[string]func() (*plot.Plot, error){
		"histogram": func() (*plot.Plot, error) { return HistogramPlot("h", "x", hs[0], 0, true) },
		"overlaid":  func() (*plot.Plot, error) { return OverlaidHistograms("o", "x", names, hs, 0) },
		"band":      func() (*plot.Plot, error) { return BandPlot("b", "x", "y", bandInput()) },
		"errorbars": func() (*plot.Plot, error) {
			return ErrorBarPlot("e", "y", []string{"a", "b"}, []float64{0.4, 0.6}, []float64{0.3, 0.5}, []float64{0.5, 0.7}, 0.5)
		},
		"heatmap": func() (*plot.Plot, error) { return HeatMap("m", "x", "y", cols, rows, z) },
	}
	for _, name := range slices.Sorted(maps.Keys(builds)) {
		var out [2]map[string][]byte
		for i := range out {
			p, err := builds[name]()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out[i] = map[string][]byte{}
			for _, format := range []string{"svg", "png"} {
				data, err := renderPlot(p, goldenW, goldenH, format)
				if err != nil {
					t.Fatal(err)
				}
				out[i][format] = data
			}
		}
		for format, data := range out[0] {
			if !bytes.Equal(data, out[1][format]) {
				t.Errorf("%s: two builds from the same input gave different %s bytes", name, format)
			}
		}
	}
}

func ExampleHistogramPlot() {
	var h IntHist
	for _, turns := range []int{23, 31, 31, 35, 38, 40, 40, 41, 44, 52, 57, 61, 75} {
		h.Add(turns)
	}
	p, err := HistogramPlot("Game length, 4 players", "turns", &h, 10, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := SavePlot(p, dir, "length", 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// length.png
	// length.svg
}

func ExampleErrorBarPlot() {
	// Win rates of four strategies at a 4-player table, each with its 95%
	// Wilson interval, against the fair share 1/4.
	labels := []string{"random", "greedy", "hoarder", "bluffer"}
	wins := []int64{230, 281, 247, 242}
	const games = 1000
	est, lo, hi := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	for i, w := range wins {
		est[i] = float64(w) / games
		lo[i], hi[i] = Wilson(w, games, 0.95)
		fmt.Printf("%-8s %.3f [%.3f, %.3f]\n", labels[i], est[i], lo[i], hi[i])
	}
	if _, err := ErrorBarPlot("Win rate", "share of games won", labels, est, lo, hi, 1.0/4); err != nil {
		fmt.Println(err)
	}

	// An estimate outside its interval is an error, not a misleading plot.
	_, err := ErrorBarPlot("Win rate", "share of games won", []string{"x"}, []float64{0.3}, []float64{0.1}, []float64{0.2}, math.NaN())
	fmt.Println(err)
	// Output:
	// random   0.230 [0.205, 0.257]
	// greedy   0.281 [0.254, 0.310]
	// hoarder  0.247 [0.221, 0.275]
	// bluffer  0.242 [0.216, 0.270]
	// analysis: ErrorBarPlot: estimate 0.3 of "x" is outside its interval [0.1, 0.2]
}

// A NaN cell is left blank: no value is written in it and it does not widen
// the color range.
func TestHeatMapBlankCell(t *testing.T) {
	z := [][]float64{{0.2, math.NaN()}, {0.4, 0.6}}
	p, parts, err := heatMap("t", "x", "y", []string{"a", "b"}, []string{"r", "s"}, z)
	if err != nil || p == nil {
		t.Fatal(err)
	}
	if parts.heat.Min != 0.2 || parts.heat.Max != 0.6 {
		t.Fatalf("color range [%v, %v], want [0.2, 0.6]", parts.heat.Min, parts.heat.Max)
	}
	if n := len(parts.values.Labels); n != 3 {
		t.Fatalf("%d cell values written, want 3", n)
	}
	if _, err := renderPlot(p, 10*vg.Centimeter, 8*vg.Centimeter, "png"); err != nil {
		t.Fatal(err)
	}
}

func TestNiceTicks(t *testing.T) {
	labels := func(ts []plot.Tick) []string {
		var out []string
		for _, tk := range ts {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi  float64
		integer bool
		want    []string
	}{
		// Steps of 1, 2 or 5 times a power of ten, about 6 labels, no
		// more decimals than the step needs.
		{8, 85, true, []string{"20", "40", "60", "80"}},
		{0.208, 0.281, false, []string{"0.22", "0.24", "0.26", "0.28"}},
		{-8.9, 38, false, []string{"0", "10", "20", "30"}},
		{2, 16, true, []string{"5", "10", "15"}}, // 14/5 = 2.8 rounds up to a step of 5
		// Integer quantities never get fractional ticks.
		{1, 3, true, []string{"1", "2", "3"}},
		{-1, 1, false, []string{"-1.0", "-0.5", "0.0", "0.5", "1.0"}},
	} {
		got := labels(niceTicks{integer: tc.integer}.Ticks(tc.lo, tc.hi))
		if !slices.Equal(got, tc.want) {
			t.Errorf("ticks of [%v, %v] (integer %v) = %q, want %q", tc.lo, tc.hi, tc.integer, got, tc.want)
		}
	}
}

func TestParseFormats(t *testing.T) {
	if f, err := ParseFormats("PNG, pdf,png"); err != nil || !slices.Equal(f, []string{"png", "pdf"}) {
		t.Errorf("ParseFormats = %q, %v", f, err)
	}
	if _, err := ParseFormats("png,gif"); err == nil || !strings.Contains(err.Error(), `"gif"`) || !strings.Contains(err.Error(), "png, svg, pdf") {
		t.Errorf("gif: %v", err)
	}
}

func TestLengthPanels(t *testing.T) {
	names, hs, vals := overlaidInput()
	f, err := LengthPanels("Game length by cell", "game length (turns)", "turns", names, hs)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Plots) != 3 || f.Cols != 3 { // ceil(sqrt(3·1.5)) = 3
		t.Fatalf("%d panels in %d columns", len(f.Plots), f.Cols)
	}
	// Shared axes: every panel has the same ranges.
	for i, p := range f.Plots[1:] {
		if p.X.Min != f.Plots[0].X.Min || p.X.Max != f.Plots[0].X.Max || p.Y.Max != f.Plots[0].Y.Max {
			t.Errorf("panel %d has other ranges", i+1)
		}
		if p.Title.Text != names[i+1] {
			t.Errorf("panel %d titled %q", i+1, p.Title.Text)
		}
	}
	// The x range ends at the 99.5th percentile of all the values pooled
	// (type 1, from the raw values), rounded up to the end of its bin,
	// and the note counts every longer game.
	all := slices.Sorted(slices.Values(slices.Concat(vals...)))
	cut := all[int(math.Ceil(0.995*float64(len(all))))-1]
	total, longer := len(all), 0
	lo := all[0]
	w := max(1, int(math.Round(float64(cut-lo+1)/30)))
	end := cut/w*w + w - 1
	for _, vs := range vals {
		longer += int(countIn(vs, end+1, math.MaxInt32))
	}
	if got := f.Plots[0].X.Max; got != float64(end)+0.5 {
		t.Errorf("x axis ends at %v, want %v", got, float64(end)+0.5)
	}
	if longer > 0 && !strings.Contains(f.Note, fmt.Sprintf("(%d of %d)", longer, total)) {
		t.Errorf("note %q does not count the %d longer games", f.Note, longer)
	}
	checkFigureGolden(t, "length_panels", f)
}

// TestLengthPanelsLongTail: one group of fifteen with a long tail (as
// draw-until-playable's game length) does not set the shared x range:
// the cut is the pooled 99.5th percentile, not the largest of the
// groups', so the other panels keep their bins; the long panel says in
// its corner what share of its games is cut off, and the note counts
// all of them, with thousands separated (15,000, not 15000).
func TestLengthPanelsLongTail(t *testing.T) {
	var names []string
	var hs []*IntHist
	var all []int
	tailLonger := 0
	for g := range 15 {
		h := &IntHist{}
		for i := range 1000 {
			v := 20 + (i*7919)%80 // 20 to 99
			if g == 11 && i%20 == 0 {
				v = 100 + (i*104729)%400 // one game in 20 from 100 to 499
			}
			h.Add(v)
			all = append(all, v)
		}
		names, hs = append(names, fmt.Sprintf("cell %d", g)), append(hs, h)
	}
	slices.Sort(all)
	cut := all[int(math.Ceil(0.995*float64(len(all))))-1] // pooled type 1
	w := max(1, int(math.Round(float64(cut-all[0]+1)/30)))
	end := cut/w*w + w - 1
	longer := int(countIn(all, end+1, math.MaxInt32))
	for _, v := range hs[11].Bins(1) {
		if v.Lo > end {
			tailLonger += int(v.Count)
		}
	}
	f, err := LengthPanels("Game length by cell", "game length (turns)", "turns", names, hs)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Plots[0].X.Max; got != float64(end)+0.5 || end > 200 {
		t.Errorf("x axis ends at %v, want %v (the pooled 99.5th percentile %d, not the long group's)", got, float64(end)+0.5, cut)
	}
	if want := fmt.Sprintf("(%d of 15,000)", longer); !strings.Contains(f.Note, want) {
		t.Errorf("note %q, want %q", f.Note, want)
	}
	w16, h16 := f.Size()
	var corner []string
	for _, b := range DrawnText(f, w16, h16) {
		if strings.HasSuffix(b.Text, "% longer →") {
			corner = append(corner, b.Text)
		}
	}
	if want := fmt.Sprintf("%s longer →", percentText(float64(tailLonger)/1000)); len(corner) != 1 || corner[0] != want {
		t.Errorf("corner notes %q, want [%q] (cell 11's alone)", corner, want)
	}
	if probs := CheckLayout(f, w16, h16, vg.Points(2)); len(probs) > 0 {
		t.Errorf("layout: %q", probs)
	}
}

func TestDotAndLinePlots(t *testing.T) {
	labels := []string{"draw-until-playable vs official", "no-finish-on-action vs official", "jump-in-any vs official"}
	p, err := DotPlot("Effect on game length (paired, 95% CI)", "effect on game length (turns, cell minus baseline)", labels,
		[]float64{31.4, 10.7, -6.8}, []float64{24.7, 8.5, -9.3}, []float64{38, 12.9, -4.3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The first label at the top.
	ticks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	if ticks[len(ticks)-1].Label != labels[0] || ticks[0].Label != labels[2] {
		t.Errorf("y ticks %v: want the first label at the top", ticks)
	}
	checkGolden(t, "dotplot", p)
	if _, err := DotPlot("t", "x (pp)", []string{"a"}, []float64{1}, []float64{2}, []float64{3}, 0); err == nil {
		t.Error("an estimate outside its interval is accepted")
	}

	series := []Series{
		{Name: "classic", X: []float64{2, 3, 4}, Y: []float64{2, 1, 0.5}, Lo: []float64{-2, -3, -3.5}, Hi: []float64{7, 6, 5}},
		{Name: "party", X: []float64{2, 3, 4, 5}, Y: []float64{2, -1.3, -1.5, -2.2}, Lo: []float64{-3, -5.7, -5.4, -5.7}, Hi: []float64{7, 3.4, 2.9, 1.8}},
	}
	p, err = LinePlot("First-player advantage over the fair share (95% CI)", "players", "first player's win rate − fair share (pp)", nil, series, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Integer x: integer ticks only.
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" && strings.Contains(tk.Label, ".") {
			t.Errorf("x tick %q of an integer axis", tk.Label)
		}
	}
	checkGolden(t, "lineplot", p)
}

func TestHeatMapDiverging(t *testing.T) {
	cols, rows := []string{"0", "1", "2"}, []string{"4p", "3p"}
	z := [][]float64{{2.5, -1, math.NaN()}, {3.2, -5, 1.8}}
	marks := [][]string{{"▲", "", ""}, {"", "◄", ""}}
	p, parts, err := heatMapWith("Seat advantage", "seat (seat 0 acts first)", "", cols, rows, z,
		HeatOptions{Center: 0, BarLabel: "win rate − fair share (pp)", Format: func(v float64) string { return fmt.Sprintf("%+.1f", v) }, Marks: marks})
	if err != nil {
		t.Fatal(err)
	}
	// Symmetric about the center: the largest distance is 5.
	if parts.heat.Min != -5 || parts.heat.Max != 5 {
		t.Errorf("color range [%v, %v], want [-5, 5]", parts.heat.Min, parts.heat.Max)
	}
	// The center is white.
	pal := parts.heat.Palette.Colors()
	if c := color.NRGBAModel.Convert(pal[len(pal)/2]).(color.NRGBA); c != (color.NRGBA{0xf7, 0xf7, 0xf7, 255}) {
		t.Errorf("center color %v, want white", c)
	}
	if got := parts.values.Labels[0]; got != "+2.5\n▲" {
		t.Errorf("first cell %q", got)
	}
	if parts.bar.label != "win rate − fair share (pp)" {
		t.Errorf("bar label %q", parts.bar.label)
	}
	checkGolden(t, "heatmap_diverging", p)
}

func TestCheckLayout(t *testing.T) {
	// Good plots pass.
	names, hs, _ := overlaidInput()
	f, err := LengthPanels("Game length by cell", "game length (turns)", "turns", names, hs)
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.Size()
	if probs := CheckLayout(f, w, h, vg.Points(2)); len(probs) > 0 {
		t.Errorf("length panels: %q", probs)
	}
	// Thirty long category labels side by side, not rotated, overlap;
	// and a title wider than the figure is clipped.
	labels := make([]string, 30)
	est := make([]float64, 30)
	for i := range labels {
		labels[i] = fmt.Sprintf("bluff=0.%d challenge=seen", i)
		est[i] = float64(i)
	}
	p := newPlot(strings.Repeat("a very long title ", 8), "cell", "win rate (%)")
	s, _ := plotter.NewScatter(plotter.XYs{{X: 0, Y: 0}, {X: 29, Y: 1}})
	p.Add(s)
	ticks := make(plot.ConstantTicks, 30)
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	p.X.Tick.Marker = ticks
	probs := CheckLayout(p, 16*vg.Centimeter, 10*vg.Centimeter, vg.Points(2))
	var overlap, edge bool
	for _, pr := range probs {
		overlap = overlap || strings.Contains(string(pr), `"bluff=0.1 challenge=seen" and "bluff=0.2 challenge=seen" overlap`)
		edge = edge || strings.Contains(string(pr), "a very long title") && strings.Contains(string(pr), "edge")
	}
	if !overlap || !edge {
		t.Errorf("overlap %v, edge %v: %q", overlap, edge, probs)
	}
}

// checkFigureGolden is checkGolden for a figure of panels, at its own size.
func checkFigureGolden(t *testing.T, name string, f *Panels) {
	t.Helper()
	w, h := f.Size()
	for _, format := range []string{"svg", "png"} {
		got, err := renderFigure(f, w, h, format, pngDPI)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name+".golden."+format)
		if *updatePlots {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./analysis -update-plots to create it)", err)
		}
		if format == "svg" && !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file at line %d", path, firstDiffLine(got, want))
		}
		if format == "png" {
			if msg := comparePNG(got, want); msg != "" {
				t.Errorf("%s: %s", path, msg)
			}
		}
	}
}

// niceTicks labels at least 3 values (4 on a line plot's y axis) when a
// smaller round step allows it: -4.5 to 9 in steps of 5 labels only 0 and
// 5; steps of 2 label -4 to 8.
func TestNiceTicksEnoughLabels(t *testing.T) {
	labels := func(tk niceTicks, lo, hi float64) []string {
		var out []string
		for _, x := range tk.Ticks(lo, hi) {
			if x.Label != "" {
				out = append(out, x.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		tk     niceTicks
		lo, hi float64
		want   string
	}{
		{niceTicks{}, -4.5, 9, "-4 -2 0 2 4 6 8"},
		{niceTicks{}, 0.205, 0.31, "0.22 0.24 0.26 0.28 0.30"},
		{niceTicks{}, 0, 100, "0 20 40 60 80 100"},         // unchanged
		{niceTicks{n: 4}, 0, 21, "0 10 20"},                // unchanged
		{niceTicks{min: 4}, -3.8, 10.4, "-2 0 2 4 6 8 10"}, // 0, 5, 10 are 3
		{niceTicks{integer: true}, 0, 1.5, "0 1"},          // no step below 1
	} {
		if got := strings.Join(labels(c.tk, c.lo, c.hi), " "); got != c.want {
			t.Errorf("%+v over [%v, %v]: %s, want %s", c.tk, c.lo, c.hi, got, c.want)
		}
	}
}

// LinePlotRef names its reference line in the legend, after the series.
func TestLinePlotRefLegend(t *testing.T) {
	series := []Series{{Name: "classic", X: []float64{2, 3}, Y: []float64{25, 24}, Lo: []float64{20, 19}, Hi: []float64{30, 29}}}
	p, err := LinePlotRef("t", "players", "win rate (%)", nil, series, 25, "fair share 25.00%")
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, b := range DrawnText(p, 16*vg.Centimeter, 10*vg.Centimeter) {
		text = append(text, b.Text)
	}
	if !slices.Contains(text, "fair share 25.00%") || !slices.Contains(text, "classic") {
		t.Errorf("legend: %q", text)
	}
}
