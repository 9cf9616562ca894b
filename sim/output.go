package sim

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/unosim/unosim/engine"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StatsFormat names the format of stats.json.
const StatsFormat = "unosim-stats/1"

// StatsFile is the mergeable record of a run: stats.json.
type StatsFile struct {
	Format         string   `json:"format"`
	Identity       Identity `json:"identity"`
	Shard          string   `json:"shard"`
	GameRange      [2]int64 `json:"game_range"` // the game indices played, [lo, hi)
	Planned        [2]int64 `json:"planned_range"`
	Complete       bool     `json:"complete"`
	ElapsedSeconds float64  `json:"elapsed_seconds"`
	Workers        int      `json:"workers,omitempty"` // timing, like elapsed_seconds: 0 when merged
	// Producer is the build that played the games (for a merge, the
	// shards' build, never the merging binary's).
	Producer Producer `json:"producer"`
	// MixedBuilds lists the shards' builds when a merge was told to allow
	// several (--allow-mixed-builds).
	MixedBuilds []Producer `json:"mixed_builds,omitempty"`
	Stats       Stats      `json:"stats"`
}

// File is the run's stats.json record. Its Producer is for the caller to
// set (sim does not know the tool's version).
func (r *Run) File() *StatsFile {
	return &StatsFile{
		Format: StatsFormat, Identity: r.Config.Identity(), Shard: r.Config.Shard.String(),
		GameRange: [2]int64{r.Lo, r.Lo + r.Stats.Games}, Planned: [2]int64{r.Lo, r.Hi}, Complete: r.Complete,
		ElapsedSeconds: r.Elapsed.Seconds(), Workers: r.Workers, Stats: r.Stats,
	}
}

// Summary summarizes the record.
func (f *StatsFile) Summary(version string) *Summary {
	s := Summarize(f.Identity, &f.Stats, f.GameRange[0], f.GameRange[1], f.Complete, f.ElapsedSeconds, version)
	s.PlannedRange = f.Planned
	s.Workers = f.Workers
	if s.PlannedRange == [2]int64{} {
		s.PlannedRange = f.GameRange
	}
	s.Producer = f.Producer
	return s
}

// RunFields is the record's identity field by field, with its shard: what
// must agree for a rerun to resume it.
func (f *StatsFile) RunFields() []Field {
	return append(f.Identity.Fields(), Field{"shard", f.Shard})
}

// Header is what the shard checks need from the record.
func (f *StatsFile) Header() *Header {
	sh, _ := ParseShard(f.Shard)
	if f.Shard == "merged" {
		sh = Shard{0, 1}
	}
	return &Header{Format: StatsFormat, Run: f.Identity.Fields(), Total: f.Identity.Games, Shard: sh,
		Planned: f.Planned, Done: f.GameRange, Complete: f.Complete, Producer: f.Producer}
}

// MismatchError is a directory that holds another run than the one asked
// for; it says field by field what differs.
type MismatchError struct {
	Dir  string
	Diff []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("output directory %s holds another run: %s (there vs here); choose another --out, or --force to start over",
		e.Dir, strings.Join(e.Diff, ", "))
}

// CheckResume reports whether the record in dir (f) may be resumed or left
// as it is by a run of cfg made by p: the same run and shard, from the
// same build (a checkpoint of another build would mix two sets of rules).
func (f *StatsFile) CheckResume(dir string, cfg *Config, p Producer) error {
	want := &StatsFile{Identity: cfg.Identity(), Shard: cfg.Shard.String()}
	if d := Diff(f.RunFields(), want.RunFields()); len(d) > 0 {
		return &MismatchError{dir, d}
	}
	if lo, hi := cfg.Shard.Range(cfg.Games); f.Planned != [2]int64{lo, hi} || f.GameRange[0] != lo {
		return &MismatchError{dir, []string{fmt.Sprintf("game range [%d, %d) vs [%d, %d)", f.Planned[0], f.Planned[1], lo, hi)}}
	}
	if !f.Complete && f.Producer != p {
		return &MismatchError{dir, []string{fmt.Sprintf("build %s vs %s", f.Producer, p)}}
	}
	return nil
}

// PrepareOut checks that dir does not exist, or is unused (Unused), and
// that it is writable, creating it, so that a run fails before any work
// rather than after it.
func PrepareOut(dir string) error {
	if err := CheckOutDir(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil && !Unused(dir) {
		return fmt.Errorf("output directory %s already exists: choose a new one, so that no earlier result is overwritten", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s cannot be created: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		os.Remove(dir)
		return fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// Unused reports whether dir is a directory holding nothing but temporary
// files (Temporary) and leftovers, the files a command writes before its
// result and writes again when rerun: what a run killed before its result
// leaves (the rerun of its command must not be refused).
func Unused(dir string, leftovers ...string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := e.Name()
		if !Temporary(name) && !(e.Type().IsRegular() && slices.Contains(leftovers, name)) {
			return false
		}
	}
	return true
}

// Temporary reports whether name is the temporary file of a write cut
// short: WriteFileAtomic's .NAME.tmp-*, a segment's, or a writability
// probe (.probe-*).
func Temporary(name string) bool {
	return strings.HasPrefix(name, ".") && (strings.Contains(name, ".tmp") || strings.HasPrefix(name, ".probe-"))
}

// RemoveTemporaries removes the temporary files in dir: a killed writer
// leaves them.
func RemoveTemporaries(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type().IsRegular() && Temporary(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and renamed, so that path is either absent or complete.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = InjectedFault(filepath.Base(path))
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Chmod(0o644) // CreateTemp makes 0600; results are for everyone who may read the directory
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// WriteOutputs writes stats.json, then summary.csv and summary.json into
// dir, each atomically: the record first, since the summaries can be
// rendered again from it (WriteSummaries, 'unosim report'). An incomplete
// run says so in all three: "complete": false in the JSON files and a
// first comment line in the CSV.
func WriteOutputs(dir string, f *StatsFile, version string) error {
	st, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, "stats.json"), append(st, '\n')); err != nil {
		return err
	}
	return WriteSummaries(dir, f, version)
}

// WriteSummaries writes summary.csv and summary.json of the record f.
func WriteSummaries(dir string, f *StatsFile, version string) error {
	sum := f.Summary(version)
	sj, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	csv := sum.CSV()
	if !f.Complete {
		csv = "# INCOMPLETE: the run was interrupted; the counts cover only the games done\n" + csv
	}
	if err := WriteFileAtomic(filepath.Join(dir, "summary.csv"), []byte(csv)); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, "summary.json"), append(sj, '\n'))
}

// ReadRecord reads the stats.json of an output directory into v and
// returns its path; the error names the file.
func ReadRecord(dir string, v any) (string, error) {
	path := filepath.Join(dir, "stats.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return path, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return path, fmt.Errorf("%s: not a stats record: %w", path, err)
	}
	return path, nil
}

// ReadStats reads a stats.json record from a run's output directory.
func ReadStats(dir string) (*StatsFile, error) {
	var f StatsFile
	path, err := ReadRecord(dir, &f)
	if err != nil {
		return nil, err
	}
	if f.Format != StatsFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, f.Format, StatsFormat)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, group := Groups(f.Identity.Strategies)
	if p := f.Stats.Check(group); len(p) > 0 {
		return nil, fmt.Errorf("%s: inconsistent counts: %s", path, joinProblems(p))
	}
	return &f, nil
}

// check verifies that a record read from a file is consistent with its
// own configuration, so that merging it cannot fail halfway.
func (f *StatsFile) check() error {
	n := f.Identity.Players
	distinct, _ := Groups(f.Identity.Strategies)
	st := &f.Stats
	switch {
	case n < 2 || n > engine.MaxPlayers || len(f.Identity.Strategies) != n:
		return fmt.Errorf("%d players with %d strategies: not a valid configuration", n, len(f.Identity.Strategies))
	case len(st.WinsBySeat) != n || len(st.WinsByPosition) != n || len(st.FirstToActBySeat) != n || len(st.WinsByStrategy) != len(distinct):
		return fmt.Errorf("the counts do not have one entry per seat (%d players)", n)
	case st.Games < 0 || f.GameRange[0] < 0 || f.GameRange[1] < f.GameRange[0]:
		return fmt.Errorf("game range [%d, %d) with %d games is not valid", f.GameRange[0], f.GameRange[1], st.Games)
	case f.GameRange[1]-f.GameRange[0] != st.Games:
		return fmt.Errorf("game range [%d, %d) holds %d games, but the counts are of %d", f.GameRange[0], f.GameRange[1], f.GameRange[1]-f.GameRange[0], st.Games)
	case f.Planned[0] > f.GameRange[0] || f.Planned[1] < f.GameRange[1] || f.Planned[1] > f.Identity.Games:
		return fmt.Errorf("game range [%d, %d) is not within the planned [%d, %d) of %d games", f.GameRange[0], f.GameRange[1], f.Planned[0], f.Planned[1], f.Identity.Games)
	case f.Complete && f.GameRange != f.Planned:
		return fmt.Errorf("marked complete, but played [%d, %d) of the planned [%d, %d)", f.GameRange[0], f.GameRange[1], f.Planned[0], f.Planned[1])
	}
	for _, e := range []Extreme{st.Longest, st.MostDrawn} {
		if st.Games > 0 && e != (Extreme{}) && (e.Game < f.GameRange[0] || e.Game >= f.GameRange[1]) {
			return fmt.Errorf("an extreme names game %d, outside the game range [%d, %d)", e.Game, f.GameRange[0], f.GameRange[1])
		}
	}
	places := false
	for _, o := range f.Identity.Options {
		places = places || o == [2]string{"play-for-places", "true"}
	}
	if places != (st.PlacesBySeat != nil) {
		return fmt.Errorf("places_by_seat is %s, but play-for-places is %v", map[bool]string{true: "present", false: "absent"}[st.PlacesBySeat != nil], places)
	}
	for _, row := range st.PlacesBySeat {
		if len(st.PlacesBySeat) != n || len(row) != n {
			return fmt.Errorf("places are not %d by %d", n, n)
		}
	}
	return nil
}

// ShardOrder checks that the game ranges of the shards named names cover
// [0, games) exactly once, with no overlap and no gap, and returns the
// shards' indices in game order.
func ShardOrder(ranges [][2]int64, names []string, games int64) ([]int, error) {
	if len(ranges) == 0 {
		return nil, errors.New("merge: nothing to merge")
	}
	order := make([]int, len(ranges))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ranges[a][0], ranges[b][0]) })
	next := int64(0)
	for _, i := range order {
		switch lo := ranges[i][0]; {
		case lo < next:
			return nil, fmt.Errorf("merge: %s overlaps another shard at game %d", names[i], lo)
		case lo > next:
			return nil, fmt.Errorf("merge: games [%d, %d) are missing before %s", next, lo, names[i])
		}
		next = ranges[i][1]
	}
	if next != games {
		return nil, fmt.Errorf("merge: games [%d, %d) are missing", next, games)
	}
	return order, nil
}

// Merge combines the stats records of the shards of one run. They must
// describe the same configuration and seed, be complete, come from one
// build (unless allowMixed), and cover the run's game indices exactly
// once: no overlap, no gap. ReadSurvey reports all problems at once; Merge
// stops at the first.
func Merge(files []*StatsFile, names []string, allowMixed bool) (*StatsFile, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no stats to merge")
	}
	first := files[0]
	ranges := make([][2]int64, len(files))
	for i, f := range files {
		switch {
		case !f.Identity.Equal(first.Identity):
			return nil, fmt.Errorf("merge: %s is another run than %s: %s", names[i], names[0], strings.Join(Diff(f.Identity.Fields(), first.Identity.Fields()), ", "))
		case f.Producer != first.Producer && !allowMixed:
			return nil, fmt.Errorf("merge: %s was made by %s, %s by %s; pass --allow-mixed-builds to merge them anyway", names[i], f.Producer, names[0], first.Producer)
		case !f.Complete:
			return nil, fmt.Errorf("merge: %s is incomplete (interrupted); rerun that shard", names[i])
		case f.GameRange[1]-f.GameRange[0] != f.Stats.Games:
			return nil, fmt.Errorf("merge: %s covers games [%d, %d) but holds %d games", names[i], f.GameRange[0], f.GameRange[1], f.Stats.Games)
		}
		ranges[i] = f.GameRange
	}
	order, err := ShardOrder(ranges, names, first.Identity.Games)
	if err != nil {
		return nil, err
	}
	all := [2]int64{0, first.Identity.Games}
	out := &StatsFile{Format: StatsFormat, Identity: first.Identity, Shard: "merged", Complete: true, GameRange: all, Planned: all, Producer: first.Producer}
	for _, f := range files {
		if f.Producer != first.Producer && !slices.Contains(out.MixedBuilds, f.Producer) {
			if out.MixedBuilds == nil {
				out.MixedBuilds = []Producer{first.Producer}
			}
			out.MixedBuilds = append(out.MixedBuilds, f.Producer)
		}
	}
	out.Stats = newStats(first.Identity.Players, len(first.Stats.WinsByStrategy), 0, first.Stats.PlacesBySeat != nil)
	out.Stats.Events = map[string]int64{}
	for _, i := range order {
		out.Stats.Merge(&files[i].Stats)
		out.ElapsedSeconds += files[i].ElapsedSeconds
	}
	out.Stats.trim()
	return out, nil
}
