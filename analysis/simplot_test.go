package analysis

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func tickValues(ts []plot.Tick) (vals []float64, labels []string) {
	for _, t := range ts {
		if t.Label != "" {
			vals, labels = append(vals, t.Value), append(labels, t.Label)
		}
	}
	return
}

func TestIntegerAndPercentTicks(t *testing.T) {
	// [3, 141] at about 8 ticks: raw step 17.25 rounds up to 20.
	vals, labels := tickValues(IntegerTicks{N: 8}.Ticks(3, 141))
	if strings.Join(labels, " ") != "20 40 60 80 100 120 140" {
		t.Errorf("integer ticks %v", labels)
	}
	// A span of 3 at 8 ticks: never below a step of 1.
	if _, labels := tickValues(IntegerTicks{N: 8}.Ticks(0.5, 3.5)); strings.Join(labels, " ") != "1 2 3" {
		t.Errorf("integer ticks of a short span %v", labels)
	}
	for _, v := range vals {
		if v != math.Trunc(v) {
			t.Errorf("tick %v is not an integer", v)
		}
	}
	// [0.2, 0.45] at about 5: raw 5 percentage points.
	if _, labels := tickValues(PercentTicks{N: 5}.Ticks(0.2, 0.45)); strings.Join(labels, " ") != "20 25 30 35 40 45" {
		t.Errorf("percent ticks %v", labels)
	}
}

// The length plot ends at the 99.5th percentile and says how many games it
// leaves out; its labels carry units.
func TestGameLengthPlot(t *testing.T) {
	var h IntHist
	for v := 1; v <= 1000; v++ {
		h.Add(v)
	}
	p, err := GameLengthPlot("lengths", &h)
	if err != nil {
		t.Fatal(err)
	}
	// Quantile(0.995) of 1..1000 (type 1) is 995; bins of (995-1+40)/40 = 25
	// turns aligned to multiples of 25: the last bin shown is 975..999.
	if p.X.Max != 999.5 {
		t.Errorf("x axis ends at %v, want 999.5", p.X.Max)
	}
	if !strings.Contains(p.X.Label.Text, "(turns)") || !strings.Contains(p.X.Label.Text, "0.10% of games are longer than 999 turns (up to 1,000)") {
		t.Errorf("x label %q", p.X.Label.Text)
	}
	if p.Title.Text != "lengths" || !strings.Contains(p.Y.Label.Text, "(%)") || !strings.Contains(p.Y.Label.Text, "25-turn bin") {
		t.Errorf("title %q, y label %q", p.Title.Text, p.Y.Label.Text)
	}
	if _, err := GameLengthPlot("x", &IntHist{}); err == nil {
		t.Error("an empty histogram is plotted")
	}
}

// No two x tick labels of a win-rate plot overlap at the report's size:
// each label, measured with the plot's own font, fits in the space between
// its neighbours (rotated labels are measured along the axis).
func TestWinRatePlotLabels(t *testing.T) {
	for _, k := range []int{2, 4, 10, 16} {
		labels := make([]string, k)
		est, lo, hi := make([]float64, k), make([]float64, k), make([]float64, k)
		for i := range k {
			labels[i] = strings.Repeat("x", 12) + string(rune('a'+i))
			est[i], lo[i], hi[i] = 0.3, 0.25, 0.35
		}
		p, err := WinRatePlot("rates", "seat (strategy)", labels, est, lo, hi, 1/float64(k))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Y.Label.Text, "(%)") || p.Title.Text == "" || p.X.Label.Text == "" {
			t.Errorf("labels %q, %q, %q", p.Title.Text, p.X.Label.Text, p.Y.Label.Text)
		}
		const width = 16 * vg.Centimeter
		spacing := (width - 2*vg.Centimeter) / vg.Length(k) // the data area is at most the width less the y axis
		w := p.X.Tick.Label.Width(labels[0])
		if r := p.X.Tick.Label.Rotation; r != 0 {
			w = vg.Length(float64(p.X.Tick.Label.Height(labels[0])) / math.Sin(r)) // along the axis, rotated text needs its height / sin
		}
		if w > spacing {
			t.Errorf("%d labels: a label takes %v of %v between ticks", k, w, spacing)
		}
	}
	for _, bad := range [][3][]float64{
		{{0.3}, {0.2}, {}},           // lengths differ
		{{math.NaN()}, {0.2}, {0.4}}, // not finite
		{{0.5}, {0.2}, {0.4}},        // outside the interval
	} {
		if _, err := WinRatePlot("x", "y", []string{"a"}, bad[0], bad[1], bad[2], math.NaN()); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	// Saved, both formats exist.
	p, _ := WinRatePlot("rates", "seat", []string{"0", "1"}, []float64{0.5, 0.4}, []float64{0.45, 0.35}, []float64{0.55, 0.45}, 0.5)
	dir := t.TempDir()
	if err := SavePlot(p, dir, "w", 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"w.png", "w.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// WinRatePlotShares marks each category's own fair share (a strategy in 2
// of 3 seats has 2/3), inside the y range, with the text laid out clear; it
// refuses fair shares that do not match the labels or are no proportion.
func TestWinRatePlotShares(t *testing.T) {
	labels := []string{"heuristic (0)", "random (1, 2)"}
	est, lo, hi := []float64{0.42, 0.58}, []float64{0.40, 0.56}, []float64{0.44, 0.60}
	refs := []float64{1.0 / 3, 2.0 / 3}
	p, err := WinRatePlotShares("rates", "strategy", labels, est, lo, hi, refs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		if r < p.Y.Min || r > p.Y.Max {
			t.Errorf("fair share %v outside the y range [%v, %v]", r, p.Y.Min, p.Y.Max)
		}
	}
	for _, f := range CheckLayout(p, 16*vg.Centimeter, 10*vg.Centimeter, vg.Points(4)) {
		t.Error(f)
	}
	for _, bad := range [][]float64{{0.5}, {0.5, 1.5}, {0.5, math.NaN()}} {
		if _, err := WinRatePlotShares("x", "y", labels, est, lo, hi, bad); err == nil {
			t.Errorf("fair shares %v accepted", bad)
		}
	}
}
