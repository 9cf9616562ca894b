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
			if p := r.Stats.Check(3, 2); len(p) > 0 {
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
	if p := good.Stats.Check(3, 2); p != nil {
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
		{"event", func(s *Stats) { s.Events["skips"] = -3 }, "events.skips is negative"},
	} {
		f := roundTrip(t, good)
		c.tamper(&f.Stats)
		p := strings.Join(f.Stats.Check(3, 2), "; ")
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
