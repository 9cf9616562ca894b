package experiments

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// StatsFormat names the format of an experiment's stats.json.
const StatsFormat = "unosim-experiment/1"

// StatsFile is the mergeable record of an experiment run: stats.json. It
// holds the experiment file itself, so that merged shards can be reported.
type StatsFile struct {
	Format    string    `json:"format"`
	Name      string    `json:"name"`
	Source    string    `json:"source"`
	Hash      string    `json:"sha256"`
	FileText  string    `json:"file"`
	Seed      uint64    `json:"seed"`
	Games     int64     `json:"games"`
	CIWidth   float64   `json:"ci_width,omitempty"`
	Shard     string    `json:"shard"`
	GameRange [2]int64  `json:"game_range"`    // the game indices played, [lo, hi)
	Planned   [2]int64  `json:"planned_range"` // the shard's game indices
	Complete  bool      `json:"complete"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Workers   int       `json:"workers"`
	// Producer is the build that played the games (for a merge, the
	// shards' build); MixedBuilds lists the shards' builds when a merge
	// was told to allow several.
	Producer    sim.Producer   `json:"producer"`
	MixedBuilds []sim.Producer `json:"mixed_builds,omitempty"`
	CellLabels  []string       `json:"cell_labels"`
	Cells       []CellResult   `json:"cells"`
	Pairs       []PairStats    `json:"pairs"`
}

// File is the run's stats.json record; text is the experiment file's bytes.
func (r *Result) File(text []byte, shard sim.Shard) *StatsFile {
	e := r.Experiment
	f := &StatsFile{
		Format: StatsFormat, Name: e.File.Name, Source: e.Source, Hash: e.Hash, FileText: string(text),
		Seed: r.Seed, Games: r.Games, CIWidth: r.CIWidth, Shard: shard.String(), GameRange: [2]int64{r.Lo, r.Played}, Planned: [2]int64{r.Lo, r.Hi},
		Complete: r.Complete, Start: r.Start, End: r.End, Workers: r.Workers, Cells: r.Cells, Pairs: r.Pairs,
	}
	for _, c := range e.Cells {
		f.CellLabels = append(f.CellLabels, c.Label)
	}
	return f
}

// Manifest describes a run for provenance: manifest.json.
type Manifest struct {
	Tool       string       `json:"tool"`
	Version    string       `json:"version"`
	GoVersion  string       `json:"go_version"`
	Producer   sim.Producer `json:"producer"` // the build that played the games
	Experiment string       `json:"experiment"`
	Source     string       `json:"source"`
	Hash       string       `json:"sha256"`
	Seed       uint64       `json:"seed"`
	Games      int64        `json:"games_per_cell"`
	GamesRun   int64        `json:"games_played"` // over all cells
	CIWidth    float64      `json:"ci_width,omitempty"`
	Shard      string       `json:"shard"`
	GameRange  [2]int64     `json:"game_range"`
	Cells      int          `json:"cells"`
	Workers    int          `json:"workers"`
	Complete   bool         `json:"complete"`
	Start      time.Time    `json:"start"`
	End        time.Time    `json:"end"`
	// Rendered is false while only stats.json is written: the report and
	// plots are missing ('unosim report DIR' renders them).
	Rendered bool     `json:"rendered"`
	Files    []string `json:"files"`
}

// ReadStats reads an experiment's stats.json from an output directory.
func ReadStats(dir string) (*StatsFile, error) {
	var f StatsFile
	path, err := sim.ReadRecord(dir, &f)
	if err != nil {
		return nil, err
	}
	if f.Format != StatsFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, f.Format, StatsFormat)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// check verifies a record read from a file against its own experiment:
// the game ranges, and every cell's counts (sim's Stats.Check).
func (f *StatsFile) check() error {
	if f.Planned == [2]int64{} {
		f.Planned = f.GameRange // a record of an older version
	}
	switch g, p := f.GameRange, f.Planned; {
	case g[0] < 0 || g[1] < g[0] || p[0] > g[0] || p[1] < g[1] || p[1] > f.Games:
		return fmt.Errorf("game range [%d, %d) is not within the planned [%d, %d) of %d games", g[0], g[1], p[0], p[1], f.Games)
	case f.Complete && f.CIWidth == 0 && g != p:
		return fmt.Errorf("marked complete, but played [%d, %d) of the planned [%d, %d)", g[0], g[1], p[0], p[1])
	}
	e, err := Parse(f.Source, []byte(f.FileText))
	if err != nil {
		return fmt.Errorf("its experiment file: %w", err)
	}
	if len(e.Cells) != len(f.Cells) || len(e.Pairs) != len(f.Pairs) {
		return fmt.Errorf("%d cells and %d pairs, but its experiment has %d and %d", len(f.Cells), len(f.Pairs), len(e.Cells), len(e.Pairs))
	}
	var problems []string
	for i, c := range e.Cells {
		st := &f.Cells[i].Stats
		id := c.Config.Identity()
		_, group := sim.Groups(id.Strategies)
		for _, p := range st.Check(group) {
			problems = append(problems, fmt.Sprintf("cell %d (%s): %s", i, c.Label, p))
		}
		if n := f.GameRange[1] - f.GameRange[0]; st.Games > n || f.CIWidth == 0 && st.Games != n {
			problems = append(problems, fmt.Sprintf("cell %d (%s): %d games, but the game range holds %d", i, c.Label, st.Games, n))
		}
	}
	for i := range f.Pairs {
		if n := f.Pairs[i].N; n < 0 || n > f.GameRange[1]-f.GameRange[0] {
			problems = append(problems, fmt.Sprintf("pair %d: %d paired games, but the game range holds %d", i, n, f.GameRange[1]-f.GameRange[0]))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("inconsistent counts: %s", strings.Join(problems, "; "))
	}
	return nil
}

// RunFields is the record's identity field by field: what must agree for
// shards to merge (with the shard, for a rerun to resume).
func (f *StatsFile) RunFields() []sim.Field {
	return []sim.Field{{Name: "experiment", Value: f.Name}, {Name: "experiment file sha256", Value: f.Hash},
		{Name: "seed", Value: strconv.FormatUint(f.Seed, 10)}, {Name: "games", Value: analysis.Thousands(f.Games)},
		{Name: "ci-width", Value: strconv.FormatFloat(f.CIWidth, 'g', -1, 64)}}
}

// Header is what the shard checks need from the record.
func (f *StatsFile) Header() *sim.Header {
	sh, _ := sim.ParseShard(f.Shard)
	if f.Shard == "merged" {
		sh = sim.Shard{Index: 0, Count: 1}
	}
	return &sim.Header{Format: StatsFormat, Run: f.RunFields(), Total: f.Games, Shard: sh, Planned: f.Planned,
		Done: f.GameRange, Complete: f.Complete, Producer: f.Producer}
}

// CheckResume reports whether the record in dir may be resumed (or left
// as it is) by a run of text with o, made by p.
func (f *StatsFile) CheckResume(dir string, e *Experiment, o RunOptions, p sim.Producer) error {
	want := &StatsFile{Name: e.File.Name, Hash: e.Hash, Seed: e.File.Seed, Games: e.File.Games, CIWidth: o.CIWidth, Shard: o.Shard.String()}
	if o.Seed != nil {
		want.Seed = *o.Seed
	}
	if o.Games != 0 {
		want.Games = o.Games
	}
	d := sim.Diff(append(f.RunFields(), sim.Field{Name: "shard", Value: f.Shard}), append(want.RunFields(), sim.Field{Name: "shard", Value: want.Shard}))
	if len(d) == 0 && !f.Complete && f.Producer != p {
		d = []string{fmt.Sprintf("build %s vs %s", f.Producer, p)}
	}
	if len(d) > 0 {
		return &sim.MismatchError{Dir: dir, Diff: d}
	}
	return nil
}

// Result rebuilds the result of a stats record, re-reading its experiment.
func (f *StatsFile) Result() (*Result, error) {
	e, err := Parse(f.Source, []byte(f.FileText))
	if err != nil {
		return nil, err
	}
	if len(e.Cells) != len(f.Cells) || len(e.Pairs) != len(f.Pairs) {
		return nil, fmt.Errorf("%s: the record's cells do not match its experiment file", f.Source)
	}
	planned := f.Planned
	if planned == [2]int64{} {
		planned = f.GameRange
	}
	sh, _ := sim.ParseShard(f.Shard)
	return &Result{Experiment: e, Seed: f.Seed, Games: f.Games, CIWidth: f.CIWidth, Lo: planned[0], Hi: planned[1], Played: f.GameRange[1],
		Shard: sh, Cells: f.Cells, Pairs: f.Pairs, Complete: f.Complete, Start: f.Start, End: f.End, Workers: f.Workers}, nil
}

// Merge combines the records of the shards of one experiment run: same
// file, seed and games, one build (unless allowMixed), all complete,
// covering every game index once.
func Merge(files []*StatsFile, names []string, allowMixed bool) (*StatsFile, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no stats to merge")
	}
	first := files[0]
	ranges := make([][2]int64, len(files))
	for i, f := range files {
		switch {
		case f.CIWidth != 0:
			return nil, fmt.Errorf("merge: %s was run with --ci-width, which cannot be sharded", names[i])
		case f.Hash != first.Hash || f.Seed != first.Seed || f.Games != first.Games:
			return nil, fmt.Errorf("merge: %s is another run than %s: %s", names[i], names[0], strings.Join(sim.Diff(f.RunFields(), first.RunFields()), ", "))
		case f.Producer != first.Producer && !allowMixed:
			return nil, fmt.Errorf("merge: %s was made by %s, %s by %s; pass --allow-mixed-builds to merge them anyway", names[i], f.Producer, names[0], first.Producer)
		case !f.Complete:
			return nil, fmt.Errorf("merge: %s is incomplete (interrupted); rerun that shard", names[i])
		case len(f.Cells) != len(first.Cells) || len(f.Pairs) != len(first.Pairs):
			return nil, fmt.Errorf("merge: %s does not hold the cells of %s", names[i], names[0])
		}
		ranges[i] = f.GameRange
	}
	order, err := sim.ShardOrder(ranges, names, first.Games)
	if err != nil {
		return nil, err
	}
	out := *first
	out.Shard, out.Complete, out.GameRange, out.Planned = "merged", true, [2]int64{0, first.Games}, [2]int64{0, first.Games}
	out.MixedBuilds = nil
	for _, f := range files {
		if f.Producer != first.Producer && !slices.Contains(out.MixedBuilds, f.Producer) {
			if out.MixedBuilds == nil {
				out.MixedBuilds = []sim.Producer{first.Producer}
			}
			out.MixedBuilds = append(out.MixedBuilds, f.Producer)
		}
	}
	out.Cells = make([]CellResult, len(first.Cells))
	out.Pairs = make([]PairStats, len(first.Pairs))
	out.Start, out.End = time.Time{}, time.Time{}
	out.Workers = 0 // each shard ran on its own workers: the report says merged
	for c := range out.Cells {
		out.Cells[c].Stats = cloneStats(&files[order[0]].Cells[c].Stats)
		out.Cells[c].Stop = fmt.Sprintf("all %s games played", analysis.Thousands(first.Games))
	}
	for n, i := range order {
		f := files[i]
		for c := range out.Cells {
			if n > 0 {
				out.Cells[c].Stats.Merge(&f.Cells[c].Stats)
			}
		}
		for p := range out.Pairs {
			out.Pairs[p].merge(&f.Pairs[p])
		}
		out.Start = minTime(out.Start, f.Start)
		out.End = maxTime(out.End, f.End)
	}
	for c := range out.Cells {
		out.Cells[c].Stats.Compact()
	}
	return &out, nil
}

// cloneStats copies stats deeply, so that merging into the copy leaves the
// original alone.
func cloneStats(s *sim.Stats) sim.Stats {
	data, _ := json.Marshal(s)
	var c sim.Stats
	json.Unmarshal(data, &c)
	return c
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// WriteOutputs writes the run's stats.json and manifest.json into dir
// (which exists), then summary.csv, plots/ and report.md, and the manifest
// again with every file: each file atomically, and the irreplaceable
// record first, so that a failure (a full disk) leaves the data and a
// manifest saying the report is missing ("rendered": false), never plots
// without data. goVersion and version go into the manifest.
func WriteOutputs(dir string, f *StatsFile, version, goVersion string) error {
	return WriteOutputsWith(dir, f, version, goVersion, PlotOptions{})
}

// WriteOutputsWith is WriteOutputs with a choice of plots.
func WriteOutputsWith(dir string, f *StatsFile, version, goVersion string, o PlotOptions) error {
	r, err := f.Result()
	if err != nil {
		return err
	}
	st, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := sim.WriteFileAtomic(filepath.Join(dir, "stats.json"), append(st, '\n')); err != nil {
		return err
	}
	m := Manifest{
		Tool: "unosim", Version: version, GoVersion: goVersion, Producer: f.Producer, Experiment: f.Name, Source: f.Source, Hash: f.Hash,
		Seed: f.Seed, Games: f.Games, CIWidth: f.CIWidth, Shard: f.Shard, GameRange: f.GameRange, Cells: len(f.Cells),
		Workers: f.Workers, Complete: f.Complete, Start: f.Start, End: f.End, Files: []string{"stats.json", "manifest.json"},
	}
	for _, c := range f.Cells {
		m.GamesRun += c.Stats.Games
	}
	if err := writeManifest(dir, &m); err != nil {
		return err
	}
	return RenderWith(dir, f, r, &m, version, o)
}

// WriteCheckpoint writes only stats.json and the manifest: what a resumed
// run needs, without the cost of the report and plots.
func WriteCheckpoint(dir string, f *StatsFile, version, goVersion string) error {
	st, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := sim.WriteFileAtomic(filepath.Join(dir, "stats.json"), append(st, '\n')); err != nil {
		return err
	}
	// An earlier session's report would describe fewer games.
	for _, name := range []string{"report.md", "summary.csv"} {
		os.Remove(filepath.Join(dir, name))
	}
	m := Manifest{
		Tool: "unosim", Version: version, GoVersion: goVersion, Producer: f.Producer, Experiment: f.Name, Source: f.Source, Hash: f.Hash,
		Seed: f.Seed, Games: f.Games, CIWidth: f.CIWidth, Shard: f.Shard, GameRange: f.GameRange, Cells: len(f.Cells),
		Workers: f.Workers, Complete: false, Start: f.Start, End: f.End, Files: []string{"stats.json", "manifest.json"},
	}
	for _, c := range f.Cells {
		m.GamesRun += c.Stats.Games
	}
	return writeManifest(dir, &m)
}

func writeManifest(dir string, m *Manifest) error {
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return sim.WriteFileAtomic(filepath.Join(dir, "manifest.json"), append(mj, '\n'))
}

// ReadManifest reads dir's manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "manifest.json"), err)
	}
	return &m, nil
}

// PlotOptions are the choices of a report's plots: the file formats and
// resolution ([analysis.SaveOptions]), or none at all.
type PlotOptions struct {
	analysis.SaveOptions
	None bool // --no-plots: no plots/ directory, and the report without figures
}

// Render writes summary.csv, plots/ and report.md of the record f (r is
// its result) and then the manifest m listing them: 'unosim report DIR'
// calls it to render a directory again from its stats.json.
func Render(dir string, f *StatsFile, r *Result, m *Manifest, version string) error {
	return RenderWith(dir, f, r, m, version, PlotOptions{})
}

// RenderWith is Render with a choice of plots.
func RenderWith(dir string, f *StatsFile, r *Result, m *Manifest, version string, o PlotOptions) error {
	tests := r.Tests()
	if err := sim.WriteFileAtomic(filepath.Join(dir, "summary.csv"), []byte(r.CSV(tests))); err != nil {
		return err
	}
	var plots []plotFile
	if !o.None {
		plotsDir := filepath.Join(dir, "plots")
		if err := os.MkdirAll(plotsDir, 0o755); err != nil {
			return err
		}
		if err := sim.InjectedFault("plots"); err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		var err error
		if plots, err = r.plots(plotsDir, tests, o.SaveOptions); err != nil {
			return fmt.Errorf("plots: %w", err)
		}
	}
	if err := sim.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(r.Markdown(tests, plots, version))); err != nil {
		return err
	}
	m.Files = []string{"stats.json", "summary.csv", "report.md", "manifest.json"}
	formats := o.Formats
	if len(formats) == 0 {
		formats = []string{"png", "svg"}
	}
	for _, p := range plots {
		for _, ext := range formats {
			m.Files = append(m.Files, "plots/"+p.name+"."+ext)
		}
	}
	m.Rendered = true
	return writeManifest(dir, m)
}

// plotFile is a plot written to plots/NAME.png (and the other formats).
type plotFile struct {
	name, title string
	formats     []string
}

// plotJob is a figure of the report, made on demand.
type plotJob struct {
	name, title   string
	make          func() (analysis.Figure, error)
	width, height vg.Length
}

// plots draws the report's plots in parallel and returns them in report order.
func (r *Result) plots(dir string, tests []Test, o analysis.SaveOptions) ([]plotFile, error) {
	jobs := r.plotJobs(tests)
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for _, j := range jobs {
		eg.Go(func() error {
			f, err := j.make()
			if err != nil {
				return fmt.Errorf("%s: %w", j.name, err)
			}
			return analysis.SaveFigure(f, dir, j.name, j.width, j.height, o)
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	formats := o.Formats
	if len(formats) == 0 {
		formats = []string{"png", "svg"}
	}
	out := make([]plotFile, len(jobs))
	for i, j := range jobs {
		out[i] = plotFile{j.name, j.title, formats}
	}
	return out, nil
}

// layout is how a per-cell quantity is drawn: over the levels of x, one
// line per level of the other axis (a two-factor grid), or, with x "", as
// one labelled row per cell.
type layout struct {
	x, lines string
	numeric  bool     // x's values are numbers
	levels   []string // x's levels, in order, when not numeric
}

// layout chooses the drawing of per-cell quantities: lines when exactly two
// axes vary (x: players if it varies, else the first numeric axis, else
// the axis with more levels), else rows.
func (r *Result) layout() layout {
	e := r.Experiment
	if len(e.Axes) != 2 {
		return layout{}
	}
	levels := func(a string) (vals []string, numeric bool) {
		numeric = true
		for _, c := range e.Cells {
			v, ok := c.Coords[a]
			if !ok {
				return nil, false
			}
			if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
		}
		return vals, numeric
	}
	a, b := e.Axes[0], e.Axes[1]
	va, na := levels(a)
	vb, nb := levels(b)
	if va == nil || vb == nil {
		return layout{}
	}
	switch {
	case b == "players", a != "players" && nb && !na, a != "players" && na == nb && len(vb) > len(va):
		a, b, va, na = b, a, vb, nb
	}
	l := layout{x: a, lines: b, numeric: na}
	if !na {
		l.levels = va
	}
	return l
}

// perCell draws a quantity of every cell with its interval, in the layout
// of the experiment: value(i) returns the cell's estimate and interval,
// already in the unit of yLabel; ok false leaves the cell out.
// perCell is a figure of one estimate per cell: a line plot when two
// axes vary, else a dot plot. ref (NaN: none) is a dashed reference line,
// named refName in the line plot's legend or, in the dot plot, which has
// none, in the value axis's label (unless the label says it already).
func (r *Result) perCell(title, yLabel string, ref float64, refName string, sorted bool, value func(i int) (est, lo, hi float64, ok bool)) (func() (analysis.Figure, error), vg.Length, bool) {
	e := r.Experiment
	l := r.layout()
	if l.x == "" {
		type row struct {
			label     string
			e, lo, hi float64
		}
		var rows []row
		for i, c := range e.Cells {
			if v, lo, hi, ok := value(i); ok {
				rows = append(rows, row{c.Label, v, lo, hi})
			}
		}
		if len(rows) == 0 {
			return nil, 0, false
		}
		if sorted {
			slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(b.e, a.e) })
		}
		labels := make([]string, len(rows))
		est, lo, hi := make([]float64, len(rows)), make([]float64, len(rows)), make([]float64, len(rows))
		for k, rw := range rows {
			labels[k], est[k], lo[k], hi[k] = rw.label, rw.e, rw.lo, rw.hi
		}
		xl := yLabel
		if refName != "" && !math.IsNaN(ref) && !strings.Contains(xl, refName) {
			xl += "; dashed: " + refName
		}
		return func() (analysis.Figure, error) {
			return analysis.DotPlot(title, xl, labels, est, lo, hi, ref)
		}, analysis.DotPlotHeight(len(rows)), true
	}
	var series []analysis.Series
	idx := map[string]int{}
	for i, c := range e.Cells {
		v, lo, hi, ok := value(i)
		if !ok {
			continue
		}
		g := c.Coords[l.lines]
		k, seen := idx[g]
		if !seen {
			k = len(series)
			idx[g] = k
			name := g
			if l.lines != "rules" && l.lines != "options" && l.lines != "lineup" {
				name = l.lines + "=" + g
			}
			series = append(series, analysis.Series{Name: name})
		}
		x := float64(slices.Index(l.levels, c.Coords[l.x]))
		if l.numeric {
			x, _ = strconv.ParseFloat(c.Coords[l.x], 64)
		}
		s := &series[k]
		s.X, s.Y, s.Lo, s.Hi = append(s.X, x), append(s.Y, v), append(s.Lo, lo), append(s.Hi, hi)
	}
	if len(series) == 0 {
		return nil, 0, false
	}
	for k := range series {
		sortSeries(&series[k])
	}
	return func() (analysis.Figure, error) {
		by := " by " + l.x + " and " + l.lines
		if l.x == "players" {
			by = " by table size and " + l.lines
		}
		title := strings.Replace(title, " by cell", by, 1)
		xl := l.x
		if xl == "players" {
			xl = "table size (players)"
		}
		return analysis.LinePlotRef(title, xl, yLabel, l.levels, series, ref, refName)
	}, 10 * vg.Centimeter, true
}

// sortSeries orders a series' points by X.
func sortSeries(s *analysis.Series) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
	pick := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for k, i := range idx {
			out[k] = v[i]
		}
		return out
	}
	s.X, s.Y, s.Lo, s.Hi = pick(s.X), pick(s.Y), pick(s.Lo), pick(s.Hi)
}

// plotJobs lists the report's figures. Their words are the report's:
// metric names for people, units in every axis label, proportions in %
// and differences in percentage points.
func (r *Result) plotJobs(tests []Test) []plotJob {
	e := r.Experiment
	var jobs []plotJob
	add := func(name, title string, f func() (analysis.Figure, error), w, h vg.Length) {
		jobs = append(jobs, plotJob{name, title, f, w, h})
	}
	const w16, h10 = 16 * vg.Centimeter, 10 * vg.Centimeter

	// Game length: every cell in one figure of small multiples.
	var names []string
	var hs []*analysis.IntHist
	for i, c := range e.Cells {
		if st := &r.Cells[i].Stats; st.Turns.N() > 0 {
			names, hs = append(names, c.Label), append(hs, &st.Turns)
		}
	}
	if len(hs) > 0 {
		f, err := analysis.LengthPanels("Game length by cell (share of games per bin)", "game length (turns)", "turns", names, hs)
		if err == nil {
			pw, ph := f.Size()
			add("game-length", "Game length by cell", func() (analysis.Figure, error) { return f, nil }, pw, ph)
		} else {
			add("game-length", "Game length by cell", func() (analysis.Figure, error) { return nil, err }, w16, h10)
		}
	}
	// The main estimate, unless it is the length by player count drawn
	// next.
	main := e.Main.String()
	{
		ref, refName := math.NaN(), ""
		if e.Main.Kind == MetricPosition && r.samePlayers() {
			ref = 100 / float64(e.Cells[0].Config.Players)
			refName = fmt.Sprintf("fair share %.2f%%", ref)
		}
		title := capital(metricTitle(main)) + " by cell (95% CI)"
		if mk, h, ok := r.perCell(title, axisLabel(main), ref, refName, false, func(i int) (float64, float64, float64, bool) {
			v, lo, hi := estimate(e.Main, &r.Cells[i].Stats)
			k := scale(main)
			return v * k, lo * k, hi * k, !math.IsNaN(v) && !math.IsNaN(lo) && !math.IsNaN(hi)
		}); ok {
			add("main", "Main estimate: "+metricTitle(main), mk, w16, h)
		}
	}
	// The first player's advantage.
	if mk, h, ok := r.perCell("First-player advantage over the fair share (95% CI)", "first player's win rate − fair share (pp)", 0, "fair share", false, func(i int) (float64, float64, float64, bool) {
		st := &r.Cells[i].Stats
		v, lo, hi := estimate(Metric{Kind: MetricFirstPlayer}, st)
		fair := 1 / float64(e.Cells[i].Config.Players)
		return 100 * (v - fair), 100 * (lo - fair), 100 * (hi - fair), st.Games > 0 && !math.IsNaN(v)
	}); ok {
		add("first-player", "First-player advantage", mk, w16, h)
	}
	// Each seat against the fair share.
	if rows, cols, z := r.seatAdvantage(); len(rows) > 0 {
		add("seat-advantage", "Win rate by seat against the fair share", func() (analysis.Figure, error) {
			return analysis.HeatMapWith("Seat advantage: win rate minus the fair share", "seat (seat 0 acts first)", "", cols, rows, z,
				analysis.HeatOptions{Center: 0, BarLabel: "win rate − fair share (pp)", Format: signedTenths})
		}, max(w16, vg.Length(len(cols))*1.4*vg.Centimeter+7*vg.Centimeter), max(h10, vg.Length(len(rows))*0.7*vg.Centimeter+3*vg.Centimeter))
	}
	// The paired effects, sorted, without the tests that cannot reject
	// (and no plot when none can).
	for _, metric := range testMetrics(tests, true) {
		var labels []string
		var est, lo, hi []float64
		type row struct {
			e, lo, hi float64
			l         string
		}
		var rows []row
		for _, t := range tests {
			if t.Metric == metric && !isOneSample(&t) && t.NotTestable == "" {
				k := scale(metric)
				rows = append(rows, row{t.Effect * k, t.EffectLo * k, t.EffectHi * k, subject(&t)})
			}
		}
		if len(rows) == 0 {
			continue
		}
		slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(b.e, a.e) })
		for _, rw := range rows {
			labels, est, lo, hi = append(labels, rw.l), append(est, rw.e), append(lo, rw.lo), append(hi, rw.hi)
		}
		xl := fmt.Sprintf("effect on %s (%s, cell minus baseline)", metricTitle(metric), effectUnit(metric))
		add("effect-"+slug(metric), "Effect on "+metricTitle(metric), func() (analysis.Figure, error) {
			return analysis.DotPlot("Effect on "+metricTitle(metric)+" (paired, 95% CI)", xl, labels, est, lo, hi, 0)
		}, w16, analysis.DotPlotHeight(len(labels)))
	}
	if s := r.Surface(); s != nil && s.Err == "" {
		z := make([][]float64, len(s.Z))
		marks := make([][]string, len(s.Z))
		k := scale(s.Metric)
		for ri := range s.Z {
			z[ri] = make([]float64, len(s.Z[ri]))
			marks[ri] = make([]string, len(s.Z[ri]))
			for ci, v := range s.Z[ri] {
				z[ri][ci] = v * k
				if s.BestRow[ci] == ri {
					marks[ri][ci] += "▲"
				}
				if s.BestCol[ri] == ci {
					marks[ri][ci] += "◄"
				}
			}
		}
		center := math.NaN()
		if strings.HasPrefix(s.Metric, "position:") && r.samePlayers() {
			center = 100 / float64(e.Cells[0].Config.Players)
		}
		title := fmt.Sprintf("%s by %s and %s", capital(metricTitle(s.Metric)), s.Rows, s.Cols)
		add("surface", title, func() (analysis.Figure, error) {
			return analysis.HeatMapWith(title, s.Cols+"   (▲ best "+s.Rows+" for the column; ◄ best "+s.Cols+" for the row)", s.Rows, s.ColValues, s.RowValues, z,
				analysis.HeatOptions{Center: center, BarLabel: axisLabel(s.Metric), Format: func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }, Marks: marks})
		}, max(w16, vg.Length(len(s.ColValues))*2.2*vg.Centimeter+7*vg.Centimeter), max(h10, vg.Length(len(s.RowValues))*1.3*vg.Centimeter+3.5*vg.Centimeter))
	}
	return jobs
}

// testMetrics lists the metrics of the paired tests, in order.
func testMetrics(tests []Test, paired bool) []string {
	var ms []string
	for _, t := range tests {
		if strings.HasPrefix(t.Method, "one-sample") == paired {
			continue
		}
		if !slices.Contains(ms, t.Metric) {
			ms = append(ms, t.Metric)
		}
	}
	return ms
}

func (r *Result) samePlayers() bool {
	for _, c := range r.Experiment.Cells {
		if c.Config.Players != r.Experiment.Cells[0].Config.Players {
			return false
		}
	}
	return true
}

// group keys a cell by its coordinates other than players.
func (r *Result) group(c *Cell) string {
	var parts []string
	for _, a := range r.Experiment.Axes {
		if v, ok := c.Coords[a]; ok && a != "players" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, " ")
}

// seatAdvantage is each cell's win rate by seat minus the fair share, in
// percentage points (NaN past the cell's seats), for a heat map with a row
// per cell (the first cell at the top).
func (r *Result) seatAdvantage() (rows, cols []string, z [][]float64) {
	seats := 0
	for i, c := range r.Experiment.Cells {
		if r.Cells[i].Stats.Games > 0 {
			seats = max(seats, c.Config.Players)
		}
	}
	for s := range seats {
		cols = append(cols, strconv.Itoa(s))
	}
	for i, c := range r.Experiment.Cells {
		st := &r.Cells[i].Stats
		if st.Games == 0 {
			continue
		}
		row := make([]float64, seats)
		for s := range row {
			row[s] = math.NaN()
			if s < len(st.WinsBySeat) {
				row[s] = 100 * (float64(st.WinsBySeat[s])/float64(st.Games) - 1/float64(c.Config.Players))
			}
		}
		rows, z = append([]string{c.Label}, rows...), append([][]float64{row}, z...)
	}
	return rows, cols, z
}

// Markdown renders report.md: the banners of a partial run, the findings
// (the answer to the experiment's question), then the run, the cells, the
// tests one table per metric, the surface, the seats and the plots.
func (r *Result) Markdown(tests []Test, plots []plotFile, version string) string {
	e := r.Experiment
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# %s\n\n", e.File.Name)
	if !r.Complete {
		w("**INCOMPLETE: the run was interrupted after game indices %d-%d of %d-%d; every figure covers only the games played. Rerun the same command to resume it.**\n\n", r.Lo, r.Played-1, r.Lo, r.Hi-1)
	}
	if r.Shard.Count > 1 {
		w("**ONE SHARD (%s) of a sharded run: game indices %d-%d only. Merge every shard with `unosim merge` for the full result.**\n\n", r.Shard, r.Lo, r.Hi-1)
	}
	w("%s", r.Findings(tests))
	w("## The question and the run\n\n")
	if d := strings.TrimSpace(e.File.Description); d != "" {
		w("%s\n\n", d)
	}
	games := int64(0)
	for i := range r.Cells {
		games += r.Cells[i].Stats.Games
	}
	w("- experiment file: `%s` (sha256 `%s`)\n", e.Source, e.Hash)
	w("- seed %d; %s games per cell asked (game indices %d-%d); %s games played over %d cells\n", r.Seed, analysis.Thousands(r.Games), r.Lo, r.Hi-1, analysis.Thousands(games), len(e.Cells))
	workers := "merged from its shards"
	if r.Workers > 0 {
		workers = fmt.Sprintf("%d %s", r.Workers, pick(r.Workers == 1, "worker", "workers"))
	}
	w("- unosim %s; %s; %s to %s\n", version, workers, r.Start.UTC().Format(time.RFC3339), r.End.UTC().Format(time.RFC3339))
	w("- every cell plays the same deals: game *i* of every cell uses seed %d and index *i* (common random numbers)\n", r.Seed)
	if r.CIWidth > 0 {
		w("- stopping rule: each cell plays batches of %s games and stops after the first batch (from the second on) at which the 95%% interval of its main estimate (%s) is at most %g wide, or at %s games. Stopping on the data makes the nominal 95%% coverage slightly optimistic.\n", analysis.Thousands(e.File.Batch), e.Main, r.CIWidth, analysis.Thousands(r.Games))
	}
	w("\n## Cells\n\n")
	w("Intervals are 95%%: Student t for means, Wilson for proportions. Quantiles are the inverse of the empirical distribution (Hyndman and Fan type 1). Unfinished counts games that hit `max-turns` or were blocked; they are never wins. The main estimate of the experiment (%s) is next to the cell's name.\n\n", metricTitle(e.Main.String()))
	main := e.Main.String()
	turnsCol := e.Main.Kind != MetricTurns // turns are the main column otherwise
	w("| cell | %s [95%% CI] (main) | games | unfinished |", axisLabel(main))
	if turnsCol {
		w(" game length (turns): mean [95%% CI] |")
	}
	w(" median (turns) | p90 (turns) | first player wins (%%) [95%% CI] | fair share (%%) |\n|---|---|---:|---:|%s---:|---:|---|---:|\n", map[bool]string{true: "---|"}[turnsCol])
	for i, c := range e.Cells {
		st := &r.Cells[i].Stats
		me, ml, mh := estimate(e.Main, st)
		w("| %s | %s | %s | %s |", c.Label, estCI(main, me, ml, mh, 2), analysis.Thousands(st.Games), analysis.Thousands(st.Unfinished+st.Blocked))
		if turnsCol {
			ci := st.Turns.MeanCI(sim.Confidence)
			w(" %s |", estCI("turns", ci.Mean, ci.Lo, ci.Hi, 2))
		}
		fp, fl, fh := estimate(Metric{Kind: MetricFirstPlayer}, st)
		w(" %g | %g | %s | %.2f%% |\n", st.Turns.Quantile(0.5), st.Turns.Quantile(0.9), estCI("first-player", fp, fl, fh, 2), 100/float64(c.Config.Players))
	}
	if r.CIWidth > 0 {
		w("\n| cell | why it stopped |\n|---|---|\n")
		for i, c := range e.Cells {
			w("| %s | %s |\n", c.Label, r.Cells[i].Stop)
		}
	}
	if len(tests) > 0 {
		w("\n## Tests\n\n")
		w("%s", testsPreamble(tests))
		w("Each table is sorted by effect, largest first; effects of proportions are in percentage points (pp).\n\n")
		w("%s", testsSection(tests))
	}
	if s := r.Surface(); s != nil {
		w("\n## Surface: %s by %s and %s\n\n", metricTitle(s.Metric), s.Rows, s.Cols)
		if s.Err != "" {
			w("Not computed: %s.\n", s.Err)
		} else {
			w("Rows choose %s to maximize the %s (%s); columns choose %s to minimize it.\n\n", s.Rows, metricTitle(s.Metric), metricUnit(s.Metric), s.Cols)
			w("| %s \\ %s |", s.Rows, s.Cols)
			for _, c := range s.ColValues {
				w(" %s |", c)
			}
			w("\n|---|%s\n", strings.Repeat("---|", len(s.ColValues)))
			for ri, rv := range s.RowValues {
				w("| %s |", rv)
				for ci := range s.ColValues {
					mark := ""
					if s.BestRow[ci] == ri {
						mark += " ▲"
					}
					if s.BestCol[ri] == ci {
						mark += " ◄"
					}
					w(" %s%s |", estCI(s.Metric, s.Z[ri][ci], s.Lo[ri][ci], s.Hi[ri][ci], 1), mark)
				}
				w("\n")
			}
			w("\n▲ the best %s against that column's %s; ◄ the best %s against that row's %s.\n\n", s.Rows, s.Cols, s.Cols, s.Rows)
			if len(s.Meet) == 0 {
				w("The best responses never meet: no cell is a best response for both sides (no pure equilibrium on this grid).\n")
			}
			for _, m := range s.Meet {
				w("The best responses meet at %s=%s, %s=%s (%s %s): neither side gains by moving alone on this grid; neighbouring cells within the interval are as good.\n",
					s.Rows, s.RowValues[m[0]], s.Cols, s.ColValues[m[1]], metricTitle(s.Metric), withUnit(s.Metric, s.Z[m[0]][m[1]], 1))
			}
		}
	}
	w("\n%s", r.seatSection())
	if len(plots) > 0 {
		w("## Plots\n\n")
		for _, p := range plots {
			shown := ""
			for _, f := range []string{"png", "svg"} {
				if slices.Contains(p.formats, f) && shown == "" {
					shown = f
				}
			}
			w("### %s\n\n", p.title)
			if shown != "" {
				w("![%s](plots/%s.%s)\n\n", p.title, p.name, shown)
			}
			if len(p.formats) > 1 || shown == "" {
				var links []string
				for _, f := range p.formats {
					if f == shown {
						continue
					}
					links = append(links, fmt.Sprintf("[%s](plots/%s.%s)", strings.ToUpper(f), p.name, f))
				}
				w("(%s)\n\n", strings.Join(links, ", "))
			}
		}
	}
	return b.String()
}

// signedTenths writes a difference in pp with its sign to one decimal,
// and one that rounds to zero as "0.0" (not "-0.0" or "+0.0": a sign
// there claims a direction the rounded value does not have).
func signedTenths(v float64) string {
	t := fmt.Sprintf("%+.1f", v)
	if t == "-0.0" || t == "+0.0" {
		return "0.0"
	}
	return t
}
