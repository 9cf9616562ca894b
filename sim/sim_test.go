package sim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

func config(t testing.TB, games int64, players int, specs []string, sets ...string) *Config {
	t.Helper()
	o := engine.DefaultOptions(engine.Classic)
	for _, s := range sets {
		k, v, _ := strings.Cut(s, "=")
		if err := o.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	c := &Config{Options: o, Players: players, Games: games, Seed: 3}
	for i := range players {
		c.LineUp = append(c.LineUp, strategy.MustParse(specs[i%len(specs)]))
	}
	return c
}

func statsJSON(t testing.TB, st *Stats) string {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func simulate(t testing.TB, c *Config) *Run {
	t.Helper()
	r, err := Simulate(context.Background(), c, nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete {
		t.Fatal("run not complete")
	}
	return r
}

// The results are bit-for-bit identical for 1, 2 and 8 workers.
func TestSameResultsForAnyWorkerCount(t *testing.T) {
	var want string
	for _, w := range []int{1, 2, 8} {
		c := config(t, 6000, 4, []string{"heuristic", "random"}, "scoring=winner-takes", "target=100")
		c.Seats, c.Workers = RotateSeats, w
		r := simulate(t, c)
		if r.Stats.Games != 6000 {
			t.Fatalf("%d workers played %d games", w, r.Stats.Games)
		}
		got := statsJSON(t, &r.Stats)
		if want == "" {
			want = got
		} else if got != want {
			t.Fatalf("%d workers: stats differ from 1 worker:\n%s\n%s", w, got, want)
		}
	}
}

// Three shards merged give exactly the single run's stats and summary.
func TestThreeShardsMergeToTheSingleRun(t *testing.T) {
	whole := simulate(t, config(t, 5000, 3, []string{"heuristic:bluff=0.2"}))
	var files []*StatsFile
	var names []string
	for i := range 3 {
		c := config(t, 5000, 3, []string{"heuristic:bluff=0.2"})
		c.Shard = Shard{i, 3}
		r := simulate(t, c)
		files = append(files, r.File())
		names = append(names, c.Shard.String())
	}
	files[0], files[2] = files[2], files[0] // merge order does not matter
	names[0], names[2] = names[2], names[0]
	merged, err := Merge(files, names, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := statsJSON(t, &merged.Stats), statsJSON(t, &whole.Stats); got != want {
		t.Fatalf("merged stats differ:\n%s\n%s", got, want)
	}
	a, b := merged.Summary("test"), whole.File().Summary("test")
	a.ElapsedSeconds, a.GamesPerSecond, a.Workers, b.ElapsedSeconds, b.GamesPerSecond, b.Workers = 0, 0, 0, 0, 0, 0
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("merged summary differs:\n%s\n%s", ja, jb)
	}
}

func TestMergeRefusesMismatches(t *testing.T) {
	shard := func(i, n int, seed uint64) *StatsFile {
		c := config(t, 3000, 2, []string{"random"})
		c.Shard, c.Seed = Shard{i, n}, seed
		return simulate(t, c).File()
	}
	incomplete := shard(1, 2, 3)
	incomplete.Complete = false
	for _, c := range []struct {
		name  string
		files []*StatsFile
		want  string
	}{
		{"gap", []*StatsFile{shard(0, 3, 3), shard(2, 3, 3)}, "missing"},
		{"overlap", []*StatsFile{shard(0, 2, 3), shard(0, 2, 3), shard(1, 2, 3)}, "overlaps"},
		{"other seed", []*StatsFile{shard(0, 2, 3), shard(1, 2, 4)}, "another run"},
		{"incomplete", []*StatsFile{shard(0, 2, 3), incomplete}, "incomplete"},
		{"tail missing", []*StatsFile{shard(0, 2, 3)}, "missing"},
	} {
		names := make([]string, len(c.files))
		for i := range names {
			names[i] = "dir" + string(rune('A'+i))
		}
		_, err := Merge(c.files, names, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// Games that hit the turn cap are counted, never as wins.
func TestUnfinishedGamesAreCounted(t *testing.T) {
	r := simulate(t, config(t, 700, 4, []string{"random"}, "max-turns=3"))
	st := &r.Stats
	if st.Games != 700 || st.Unfinished != 700 || st.Finished != 0 {
		t.Fatalf("games %d finished %d unfinished %d", st.Games, st.Finished, st.Unfinished)
	}
	for s, w := range st.WinsBySeat {
		if w != 0 {
			t.Fatalf("seat %d won %d unfinished games", s, w)
		}
	}
	if st.Turns.N() != 700 || st.Turns.Max() != 3 {
		t.Fatalf("turn histogram n %d max %d", st.Turns.N(), st.Turns.Max())
	}
}

// With rotating seats every strategy sits in every seat equally often.
func TestRotatingSeats(t *testing.T) {
	c := config(t, 3000, 3, []string{"heuristic", "random", "random"})
	c.Seats = RotateSeats
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	var seen [3][3]int
	for i := range int64(3000) {
		for s := range 3 {
			seen[s][c.Position(i, s)]++
		}
	}
	for s := range 3 {
		for p := range 3 {
			if seen[s][p] != 1000 {
				t.Fatalf("seat %d held position %d %d times, want 1000", s, p, seen[s][p])
			}
		}
	}
	r := simulate(t, c)
	sum := int64(0)
	for _, w := range r.Stats.WinsByPosition {
		sum += w
	}
	if sum != r.Stats.Finished || len(r.Stats.WinsByStrategy) != 2 || r.Stats.WinsByStrategy[0]+r.Stats.WinsByStrategy[1] != sum {
		t.Fatalf("wins by position %v (sum %d), by strategy %v, finished %d", r.Stats.WinsByPosition, sum, r.Stats.WinsByStrategy, r.Stats.Finished)
	}
	// The heuristic beats two random players.
	if h := float64(r.Stats.WinsByStrategy[0]) / 3000; h < 0.36 {
		t.Fatalf("heuristic won %.3f of games against two random players", h)
	}
}

// An interrupted run reports the games it finished, marked incomplete.
func TestInterruptedRunIsIncomplete(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := config(t, 1<<40, 4, []string{"random"})
	c.Workers = 2
	calls := 0
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	r, err := Simulate(ctx, c, func(done, total int64, _ time.Duration) { calls++ }, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Stats.Games == 0 || r.Stats.Games >= c.Games {
		t.Fatalf("complete %v with %d games", r.Complete, r.Stats.Games)
	}
	if r.Stats.Games != r.Stats.Turns.N() || r.Stats.Games%chunk != 0 {
		t.Fatalf("%d games, %d in the turn histogram (chunks of %d)", r.Stats.Games, r.Stats.Turns.N(), chunk)
	}
	if calls == 0 {
		t.Fatal("progress never reported")
	}
	if f := r.File(); f.GameRange != [2]int64{0, r.Stats.Games} || f.Planned != [2]int64{0, c.Games} {
		t.Fatalf("game range %v, planned %v: the games played are [0, %d)", f.GameRange, f.Planned, r.Stats.Games)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := PrepareOut(dir); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutputs(dir, r.File(), "test"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.json", "stats.json"} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if !strings.Contains(string(data), `"complete": false`) {
			t.Errorf("%s does not say it is incomplete", name)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !strings.HasPrefix(string(csv), "# INCOMPLETE") {
		t.Errorf("summary.csv does not say it is incomplete")
	}
	if _, err := Merge([]*StatsFile{r.File()}, []string{dir}, false); err == nil {
		t.Fatal("an incomplete run was merged")
	}
}

// A worker allocates nothing per game once warmed up.
func TestWorkerDoesNotAllocatePerGame(t *testing.T) {
	c := config(t, 1, 4, []string{"heuristic", "random"}, "scoring=winner-takes")
	c.Seats = RotateSeats
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	w, err := NewTable(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range int64(2000) {
		w.Play(i)
	}
	i := int64(0)
	if a := testing.AllocsPerRun(500, func() { w.Play(i); i++ }); a != 0 {
		t.Fatalf("%v allocations per game", a)
	}
}

func TestPrepareOutRefusesExistingAndUnwritable(t *testing.T) {
	dir := t.TempDir()
	// Empty, or holding only a killed writer's temporary file: what a run
	// killed before its first result leaves, which its rerun reuses.
	os.WriteFile(filepath.Join(dir, ".tournament.json.tmp-123"), nil, 0o644)
	if err := PrepareOut(dir); err != nil {
		t.Fatalf("an unused directory: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	if err := PrepareOut(dir); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("existing directory: %v", err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // root may write anywhere
		if err := PrepareOut(filepath.Join(ro, "out")); err == nil {
			t.Fatal("unwritable parent accepted")
		}
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if err := PrepareOut(filepath.Join(file, "out")); err == nil {
		t.Fatal("a path under a file accepted")
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "1", "3/3", "-1/2", "a/b", "0/0", "1/-2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
	s, err := ParseShard("2/5")
	if err != nil || s != (Shard{2, 5}) {
		t.Fatalf("2/5: %v %v", s, err)
	}
	lo, hi := s.Range(1000)
	if lo != 400 || hi != 600 {
		t.Fatalf("range %d-%d", lo, hi)
	}
}
