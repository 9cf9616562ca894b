package sim

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/engine"
)

// roundTrip writes the record to JSON and reads it back, as a resumed run
// reads its checkpoint.
func roundTrip(t *testing.T, f *StatsFile) *StatsFile {
	t.Helper()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back StatsFile
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// A run checkpointed every few games, stopped at a checkpoint and resumed
// from the record (repeatedly), sums to the uninterrupted run's stats bit
// for bit, for options that fill every count (places, matches).
func TestResumeFromCheckpointsIsBitIdentical(t *testing.T) {
	group := []int{0, 1, 0} // heuristic, random, heuristic
	for _, sets := range [][]string{{"play-for-places=true"}, {"scoring=winner-takes", "target=100"}} {
		mk := func() *Config {
			c := config(t, 3000, 3, []string{"heuristic", "random"}, sets...)
			c.Seats, c.Workers, c.Shard = RotateSeats, 2, Shard{1, 2}
			return c
		}
		whole := simulate(t, mk())
		var resume *StatsFile
		var final *Run
		stops := 0
		for {
			ctx, cancel := context.WithCancel(context.Background())
			checkpoints := 0
			r, err := SimulateWith(ctx, mk(), Options{Resume: resume, CheckpointGames: 700, Checkpoint: func(r *Run) error {
				if r.Complete || r.Stats.Games%700 != 0 && r.Lo+r.Stats.Games != r.Hi {
					t.Errorf("checkpoint of %d games, complete %v", r.Stats.Games, r.Complete)
				}
				checkpoints++
				if checkpoints == 2 {
					cancel() // stop after the second checkpoint of every call
				}
				return nil
			}})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if p := r.Stats.Check(group); len(p) > 0 {
				t.Fatalf("%v: a run's own stats fail the checks: %v", sets, p)
			}
			if r.Complete {
				final = r
				break
			}
			stops++
			resume = roundTrip(t, r.File())
		}
		if stops < 1 {
			t.Fatalf("%v: never stopped", sets)
		}
		if got, want := statsJSON(t, &final.Stats), statsJSON(t, &whole.Stats); got != want {
			t.Fatalf("%v: resumed stats differ", sets)
		}
	}
}

// A checkpoint that fails stops the run with its error.
func TestCheckpointErrorStopsTheRun(t *testing.T) {
	boom := errors.New("disk full")
	_, err := SimulateWith(context.Background(), config(t, 3000, 2, []string{"random"}),
		Options{CheckpointGames: 512, Checkpoint: func(*Run) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the checkpoint's", err)
	}
}

// Time-based checkpoints happen during a long run.
func TestCheckpointEveryInterval(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	r, err := SimulateWith(ctx, config(t, 1<<40, 2, []string{"random"}), Options{CheckpointEvery: 30 * time.Millisecond, Checkpoint: func(r *Run) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	}})
	if err != nil || n != 3 || r.Complete {
		t.Fatalf("err %v, %d checkpoints, complete %v", err, n, r.Complete)
	}
}

// Check finds every kind of tampering and nothing in real stats.
func TestCheckFindsTampering(t *testing.T) {
	good := simulate(t, config(t, 2000, 3, []string{"heuristic", "random"}, "play-for-places=true")).File()
	group := []int{0, 1, 0}
	if p := good.Stats.Check(group); p != nil {
		t.Fatalf("real stats fail: %v", p)
	}
	for _, c := range []struct {
		name   string
		tamper func(s *Stats)
		want   string
	}{
		{"negative", func(s *Stats) { s.Blocked = -1; s.Finished++ }, "blocked is negative"},
		{"wins beyond games", func(s *Stats) { s.WinsBySeat[0] += s.Games * 11111; s.WinsByPosition[0] += s.Games * 11111 }, "more than the"},
		{"histogram", func(s *Stats) { s.Turns.Counts[len(s.Turns.Counts)-1]++ }, "turns histogram holds 2001 games"},
		{"seat vs position", func(s *Stats) { s.WinsBySeat[1]-- }, "wins by seat sum to"},
		{"outcomes", func(s *Stats) { s.Finished-- }, "is not the 2000 games"},
		{"places", func(s *Stats) { s.PlacesBySeat[0][0] = -5 }, "places_by_seat[0][0] is negative"},
		{"first to act", func(s *Stats) { s.FirstToActWins = s.Games + 1 }, "first_to_act_wins"},
		{"event", func(s *Stats) { s.Events["turns_lost"] = -3 }, "events.turns_lost is negative"},
		{"strategy", func(s *Stats) { s.WinsByStrategy[1]++ }, "wins_by_strategy[1] is"},
		{"strategy sum", func(s *Stats) { s.WinsByStrategy[0] = s.WinsByPosition[0] + s.WinsByPosition[2] + 1 }, "wins_by_strategy[0] is"},
	} {
		f := roundTrip(t, good)
		c.tamper(&f.Stats)
		p := strings.Join(f.Stats.Check(group), "; ")
		if !strings.Contains(p, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, p, c.want)
		}
	}
}

// OpenOut: a new directory, an empty one, an earlier run's, --force, and a
// directory of other files.
func TestOpenOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if has, err := OpenOut(dir, false); err != nil || has {
		t.Fatalf("new: %v %v", has, err)
	}
	os.WriteFile(filepath.Join(dir, ".stats.json.tmp-123"), []byte("{"), 0o644)
	if has, err := OpenOut(dir, false); err != nil || has {
		t.Fatalf("empty: %v %v", has, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".stats.json.tmp-123")); err == nil {
		t.Error("a killed writer's temporary file was left")
	}
	os.WriteFile(filepath.Join(dir, "stats.json"), []byte("{}"), 0o644)
	if has, err := OpenOut(dir, false); err != nil || !has {
		t.Fatalf("record: %v %v", has, err)
	}
	if has, err := OpenOut(dir, true); err != nil || has {
		t.Fatalf("force: %v %v", has, err)
	}
	os.WriteFile(filepath.Join(dir, "thesis.tex"), nil, 0o644)
	if _, err := OpenOut(dir, false); err == nil || !strings.Contains(err.Error(), "thesis.tex") {
		t.Fatalf("other files: %v", err)
	}
}

// The identity differences are said field by field.
func TestDiffSaysWhatDiffers(t *testing.T) {
	a := config(t, 60000, 3, []string{"random"}, "stack-draw-two=true")
	a.Seed = 8
	b := config(t, 90000, 4, []string{"random"})
	b.Seed = 7
	d := strings.Join(Diff(a.Identity().Fields(), b.Identity().Fields()), ", ")
	for _, want := range []string{"seed 8 vs 7", "players 3 vs 4", "option stack-draw-two true vs false", "games 60,000 vs 90,000"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff %q lacks %q", d, want)
		}
	}
}

// Real runs pass Check over rule sets, scorings, seats and options that
// fill every count (sole, shared and no wins, unfinished games, places).
func TestCheckPassesRealRuns(t *testing.T) {
	for _, c := range []struct {
		rules   engine.RuleSet
		players int
		sets    []string
	}{
		{engine.Classic, 2, nil},
		{engine.Classic, 2, []string{"scoring=losers-accumulate", "target=150", "losers-outcome=" + lastValue(t, "losers-outcome")}},
		{engine.Classic, 4, []string{"max-turns=40"}},
		{engine.Classic, 3, []string{"scoring=losers-accumulate", "target=200"}},
		{engine.Classic, 3, []string{"scoring=losers-accumulate", "target=200", "losers-outcome=" + lastValue(t, "losers-outcome")}},
		{engine.Classic, 5, []string{"scoring=winner-takes", "target=100", "stack-draw-two=true", "seven-zero=true"}},
		{engine.Classic, 4, []string{"play-for-places=true", "jump-in=" + lastValue(t, "jump-in")}},
		{engine.Party, 8, nil},
		{engine.Encanto, 4, nil},
	} {
		cfg := config(t, 600, c.players, []string{"heuristic", "random", "heuristic:bluff=0.3"})
		cfg.Options = engine.DefaultOptions(c.rules)
		for _, s := range c.sets {
			k, v, _ := strings.Cut(s, "=")
			if err := cfg.Options.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Seats = RotateSeats
		r := simulate(t, cfg)
		_, group := Groups(cfg.Identity().Strategies)
		if p := r.Stats.Check(group); p != nil {
			t.Errorf("%s %dp %v: %v", c.rules, c.players, c.sets, p)
		}
		if _, err := ReadStats(writeRecord(t, r.File())); err != nil {
			t.Errorf("%s %dp %v: %v", c.rules, c.players, c.sets, err)
		}
	}
}

// lastValue is the last valid value of an enumerated option.
func lastValue(t *testing.T, name string) string {
	for _, s := range engine.OptionSpecs() {
		if s.Name == name {
			return s.Enum[len(s.Enum)-1]
		}
	}
	t.Fatalf("no option %s", name)
	return ""
}

func writeRecord(t *testing.T, f *StatsFile) string {
	t.Helper()
	dir := t.TempDir()
	data, _ := json.Marshal(f)
	if err := os.WriteFile(filepath.Join(dir, "stats.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
