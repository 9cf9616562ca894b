package experiments

import (
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
	"gonum.org/v1/plot"
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
		{Name: "seed", Value: strconv.FormatUint(f.Seed, 10)}, {Name: "games", Value: sim.Thousands(f.Games)},
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
	for c := range out.Cells {
		out.Cells[c].Stats = cloneStats(&files[order[0]].Cells[c].Stats)
		out.Cells[c].Stop = fmt.Sprintf("all %d games played", first.Games)
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
	return Render(dir, f, r, &m, version)
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

// Render writes summary.csv, plots/ and report.md of the record f (r is
// its result) and then the manifest m listing them: 'unosim report DIR'
// calls it to render a directory again from its stats.json.
func Render(dir string, f *StatsFile, r *Result, m *Manifest, version string) error {
	tests := r.Tests()
	if err := sim.WriteFileAtomic(filepath.Join(dir, "summary.csv"), []byte(r.CSV(tests))); err != nil {
		return err
	}
	plotsDir := filepath.Join(dir, "plots")
	if err := os.MkdirAll(plotsDir, 0o755); err != nil {
		return err
	}
	if err := sim.InjectedFault("plots"); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	plots, err := r.plots(plotsDir, tests)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	if err := sim.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(r.Markdown(tests, plots, version))); err != nil {
		return err
	}
	m.Files = []string{"stats.json", "summary.csv", "report.md", "manifest.json"}
	for _, p := range plots {
		m.Files = append(m.Files, "plots/"+p.name+".png", "plots/"+p.name+".svg")
	}
	m.Rendered = true
	return writeManifest(dir, m)
}

// plotFile is a plot written to plots/NAME.png and .svg.
type plotFile struct {
	name, title string
}

// plots draws the report's plots in parallel and returns them in report order.
func (r *Result) plots(dir string, tests []Test) ([]plotFile, error) {
	type job struct {
		plotFile
		make          func() (*plot.Plot, error)
		width, height vg.Length
	}
	var jobs []job
	add := func(name, title string, f func() (*plot.Plot, error)) {
		jobs = append(jobs, job{plotFile{name, title}, f, 16 * vg.Centimeter, 10 * vg.Centimeter})
	}
	bars := func(name, title, plotTitle, yLabel string, labels []string, est, lo, hi []float64, ref float64) {
		var l []string
		var e, a, b []float64
		for i := range labels {
			if !math.IsNaN(est[i]) && !math.IsNaN(lo[i]) && !math.IsNaN(hi[i]) {
				l, e, a, b = append(l, labels[i]), append(e, est[i]), append(a, lo[i]), append(b, hi[i])
			}
		}
		if len(l) > 0 {
			add(name, title, func() (*plot.Plot, error) { return analysis.ErrorBarPlot(plotTitle, yLabel, l, e, a, b, ref) })
		}
	}
	e := r.Experiment
	for i, c := range e.Cells {
		st := &r.Cells[i].Stats
		if st.Turns.N() == 0 {
			continue // nothing played (an interrupted run)
		}
		add("length-"+c.Slug, "Game length: "+c.Label, func() (*plot.Plot, error) {
			return analysis.HistogramPlot("Game length: "+c.Label, "turns per game", &st.Turns, 0, true)
		})
	}
	if series := r.byPlayers(); len(series) > 0 {
		add("length-by-players", "Mean game length against player count", func() (*plot.Plot, error) {
			return analysis.BandPlot("Mean game length (95% CI)", "players", "turns per game", series)
		})
	}
	if rows, cols, z := r.seatAdvantage(); len(rows) > 0 {
		add("seat-advantage", "Win rate by seat relative to the fair share", func() (*plot.Plot, error) {
			return analysis.HeatMap("Seat advantage: win rate / fair share", "seat (seat 0 acts first)", "cell", cols, rows, z)
		})
		jobs[len(jobs)-1].width = max(16*vg.Centimeter, vg.Length(len(cols))*1.4*vg.Centimeter+5*vg.Centimeter)
		jobs[len(jobs)-1].height = max(10*vg.Centimeter, vg.Length(len(rows))*0.7*vg.Centimeter)
	}
	labels, est, lo, hi := r.firstPlayer()
	bars("first-player", "First-player advantage", "First player's win rate minus the fair share (95% CI)", "advantage", labels, est, lo, hi, 0)
	labels, est, lo, hi = r.mainEstimates()
	ref := math.NaN()
	if e.Main.Kind == MetricPosition && r.samePlayers() {
		ref = 1 / float64(e.Cells[0].Config.Players)
	}
	bars("main", "Main estimate: "+e.Main.String(), e.Main.String()+" by cell (95% CI)", e.Main.String(), labels, est, lo, hi, ref)
	for _, metric := range testMetrics(tests, true) {
		var labels []string
		var est, lo, hi []float64
		for _, t := range tests {
			if t.Metric == metric && strings.Contains(t.Name, " vs ") && !strings.HasPrefix(t.Method, "one-sample") {
				labels = append(labels, strings.SplitN(t.Name, " vs ", 2)[0])
				est, lo, hi = append(est, t.Effect), append(lo, t.EffectLo), append(hi, t.EffectHi)
			}
		}
		bars("effect-"+slug(metric), "Effect on "+metric, "Effect on "+metric+" against the baseline (paired, 95% CI)", "difference", labels, est, lo, hi, 0)
	}
	if s := r.Surface(); s != nil && s.Err == "" {
		add("surface", "Surface of "+s.Metric, func() (*plot.Plot, error) {
			return analysis.HeatMap(s.Metric+" by "+s.Rows+" and "+s.Cols, s.Cols, s.Rows, s.ColValues, s.RowValues, s.Z)
		})
	}
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for _, j := range jobs {
		eg.Go(func() error {
			p, err := j.make()
			if err != nil {
				return fmt.Errorf("%s: %w", j.name, err)
			}
			return analysis.SavePlot(p, dir, j.name, j.width, j.height)
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	out := make([]plotFile, len(jobs))
	for i, j := range jobs {
		out[i] = j.plotFile
	}
	return out, nil
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

// byPlayers is the mean game length against player count, one series per
// group of cells that differ only in players (nil if players never vary).
func (r *Result) byPlayers() []analysis.Series {
	if !slices.Contains(r.Experiment.Axes, "players") {
		return nil
	}
	var out []analysis.Series
	idx := map[string]int{}
	for i := range r.Experiment.Cells {
		c := &r.Experiment.Cells[i]
		if r.Cells[i].Stats.Games == 0 {
			continue
		}
		g := r.group(c)
		k, ok := idx[g]
		if !ok {
			k = len(out)
			idx[g] = k
			out = append(out, analysis.Series{Name: g})
		}
		ci := r.Cells[i].Stats.Turns.MeanCI(sim.Confidence)
		if math.IsNaN(ci.Lo) || math.IsNaN(ci.Hi) {
			continue // too few games for an interval
		}
		s := &out[k]
		s.X = append(s.X, float64(c.Config.Players))
		s.Y, s.Lo, s.Hi = append(s.Y, ci.Mean), append(s.Lo, ci.Lo), append(s.Hi, ci.Hi)
	}
	return slices.DeleteFunc(out, func(s analysis.Series) bool { return len(s.X) == 0 })
}

// seatAdvantage is each cell's win rate by seat divided by the fair share
// (NaN past the cell's seats), for a heat map with a row per cell.
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
				row[s] = float64(c.Config.Players) * float64(st.WinsBySeat[s]) / float64(st.Games)
			}
		}
		rows, z = append(rows, c.Label), append(z, row)
	}
	return rows, cols, z
}

func (r *Result) firstPlayer() (labels []string, est, lo, hi []float64) {
	for i, c := range r.Experiment.Cells {
		st := &r.Cells[i].Stats
		e, l, h := estimate(Metric{Kind: MetricFirstPlayer}, st)
		fair := 1 / float64(c.Config.Players)
		labels = append(labels, c.Label)
		est, lo, hi = append(est, e-fair), append(lo, l-fair), append(hi, h-fair)
	}
	return
}

func (r *Result) mainEstimates() (labels []string, est, lo, hi []float64) {
	for i, c := range r.Experiment.Cells {
		e, l, h := estimate(r.Experiment.Main, &r.Cells[i].Stats)
		labels = append(labels, c.Label)
		est, lo, hi = append(est, e), append(lo, l), append(hi, h)
	}
	return
}

// Markdown renders report.md.
func (r *Result) Markdown(tests []Test, plots []plotFile, version string) string {
	e := r.Experiment
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# %s\n\n", e.File.Name)
	if d := strings.TrimSpace(e.File.Description); d != "" {
		w("%s\n\n", d)
	}
	if !r.Complete {
		w("**INCOMPLETE: the run was interrupted after game indices %d-%d of %d-%d; every figure covers only the games played. Rerun the same command to resume it.**\n\n", r.Lo, r.Played-1, r.Lo, r.Hi-1)
	}
	if r.Shard.Count > 1 {
		w("**ONE SHARD (%s) of a sharded run: game indices %d-%d only. Merge every shard with `unosim merge` for the full result.**\n\n", r.Shard, r.Lo, r.Hi-1)
	}
	games := int64(0)
	for i := range r.Cells {
		games += r.Cells[i].Stats.Games
	}
	w("- experiment file: `%s` (sha256 `%s`)\n", e.Source, e.Hash)
	w("- seed %d; %s games per cell asked (game indices %d-%d); %s games played over %d cells\n", r.Seed, comma(r.Games), r.Lo, r.Hi-1, comma(games), len(e.Cells))
	w("- unosim %s; %d workers; %s to %s\n", version, r.Workers, r.Start.UTC().Format(time.RFC3339), r.End.UTC().Format(time.RFC3339))
	w("- every cell plays the same deals: game *i* of every cell uses seed %d and index *i* (common random numbers)\n", r.Seed)
	if r.CIWidth > 0 {
		w("- stopping rule: each cell plays batches of %s games and stops after the first batch (from the second on) at which the 95%% interval of its main estimate (%s) is at most %g wide, or at %s games. Stopping on the data makes the nominal 95%% coverage slightly optimistic.\n", comma(e.File.Batch), e.Main, r.CIWidth, comma(r.Games))
	}
	w("\n## Cells\n\n")
	w("Intervals are 95%%: Student t for means, Wilson for proportions. Quantiles are the inverse of the empirical distribution (Hyndman and Fan type 1). Unfinished counts games that hit `max-turns` or were blocked; they are never wins.\n\n")
	mainCol := e.Main.Kind != MetricTurns // turns already have their column
	w("| cell | games | unfinished | turns: mean [95%% CI] | p50 | p90 | first player wins [95%% CI] | fair share |")
	if mainCol {
		w(" %s [95%% CI] |", e.Main)
	}
	w("\n|---|---:|---:|---|---:|---:|---|---:|%s\n", map[bool]string{true: "---|"}[mainCol])
	for i, c := range e.Cells {
		st := &r.Cells[i].Stats
		ci := st.Turns.MeanCI(sim.Confidence)
		fp, fl, fh := estimate(Metric{Kind: MetricFirstPlayer}, st)
		w("| %s | %s | %s | %.2f [%.2f, %.2f] | %g | %g | %s [%s, %s] | %s |", c.Label, comma(st.Games), comma(st.Unfinished+st.Blocked),
			ci.Mean, ci.Lo, ci.Hi, st.Turns.Quantile(0.5), st.Turns.Quantile(0.9), pct(fp), pct(fl), pct(fh), pct(1/float64(c.Config.Players)))
		if mainCol {
			me, ml, mh := estimate(e.Main, st)
			w(" %s |", mainFmt(e.Main, me, ml, mh))
		}
		w("\n")
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
		w("| comparison | metric | A | baseline | effect [95%% CI] | test | n | p | Holm p |\n|---|---|---:|---:|---|---|---:|---:|---:|\n")
		for _, t := range tests {
			p, ph := pval(t.P), pval(t.PHolm)
			if t.NotTestable != "" {
				p, ph = "not testable: "+t.NotTestable, "–"
			}
			name := t.Name
			if t.Note != "" {
				name += " (" + t.Note + ")"
			}
			w("| %s | %s | %s | %s | %s [%s, %s] | %s | %s | %s | %s |\n", name, t.Metric, fmtEst(t.Metric, t.EstA), fmtEst(t.Metric, t.EstB),
				fmtEff(t.Metric, t.Effect), fmtEff(t.Metric, t.EffectLo), fmtEff(t.Metric, t.EffectHi), t.Method, comma(t.N), p, ph)
		}
	}
	if s := r.Surface(); s != nil {
		w("\n## Surface: %s by %s and %s\n\n", s.Metric, s.Rows, s.Cols)
		if s.Err != "" {
			w("Not computed: %s.\n", s.Err)
		} else {
			w("Rows choose %s to maximize %s; columns choose %s to minimize it.\n\n", s.Rows, s.Metric, s.Cols)
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
						mark += "▲"
					}
					if s.BestCol[ri] == ci {
						mark += "◀"
					}
					w(" %s [%s, %s]%s |", fmtEst(s.Metric, s.Z[ri][ci]), fmtEst(s.Metric, s.Lo[ri][ci]), fmtEst(s.Metric, s.Hi[ri][ci]), mark)
				}
				w("\n")
			}
			w("\n▲ the rows' best response to that column; ◀ the columns' best response to that row.\n\n")
			for ci, ri := range s.BestRow {
				if ri >= 0 {
					w("- against %s=%s the best %s is %s\n", s.Cols, s.ColValues[ci], s.Rows, s.RowValues[ri])
				}
			}
			for ri, ci := range s.BestCol {
				if ci >= 0 {
					w("- against %s=%s the best %s is %s\n", s.Rows, s.RowValues[ri], s.Cols, s.ColValues[ci])
				}
			}
			if len(s.Meet) == 0 {
				w("\nThe best responses never meet: no cell is a best response for both sides (no pure equilibrium on this grid).\n")
			}
			for _, m := range s.Meet {
				w("\nThe best responses meet at %s=%s, %s=%s (%s %s): neither side gains by moving alone on this grid; neighbouring cells within the interval are as good.\n",
					s.Rows, s.RowValues[m[0]], s.Cols, s.ColValues[m[1]], s.Metric, fmtEst(s.Metric, s.Z[m[0]][m[1]]))
			}
		}
	}
	if len(plots) > 0 {
		w("\n## Plots\n\n")
		for _, p := range plots {
			w("### %s\n\n![%s](plots/%s.png)\n\n([SVG](plots/%s.svg))\n\n", p.title, p.title, p.name, p.name)
		}
	}
	return b.String()
}

func mainFmt(m Metric, e, lo, hi float64) string {
	return fmt.Sprintf("%s [%s, %s]", fmtEst(m.String(), e), fmtEst(m.String(), lo), fmtEst(m.String(), hi))
}

// fmtEst formats an estimate of a metric: a proportion as a percentage.
func fmtEst(metric string, v float64) string {
	if metric == "turns" || metric == "cards-drawn" {
		if math.IsNaN(v) {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return pct(v)
}

// fmtEff formats an effect: percentage points for proportions.
func fmtEff(metric string, v float64) string {
	if metric == "turns" || metric == "cards-drawn" {
		return fmtEst(metric, v)
	}
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%+.2f pp", 100*v)
}

func comma(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
