package experiments

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// A run stopped at checkpoints and resumed from each record (read back
// from JSON) gives the uninterrupted run's cells, pairs and stop reasons,
// with the --ci-width rule too (checkpoints inside and at the end of
// batches).
func TestResumeFromCheckpoints(t *testing.T) {
	e := mustParse(t, strings.Replace(small, "seed: 7\n", "seed: 7\nbatch: 500\n", 1))
	for _, o := range []RunOptions{{Games: 3000, Shard: sim.Shard{Index: 1, Count: 2}}, {Games: 40000, CIWidth: 2}} {
		o.Workers = 2
		want := run(t, e, o)
		var resume *StatsFile
		stops := 0
		for {
			ctx, cancel := context.WithCancel(context.Background())
			ro := o
			ro.Resume, ro.CheckpointGames = resume, 700
			n := 0
			ro.Checkpoint = func(*Result) error {
				if n++; n == 2 {
					cancel()
				}
				return nil
			}
			r, err := e.Run(ctx, ro)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			f := r.File([]byte(small), o.Shard)
			data, _ := json.Marshal(f)
			resume = &StatsFile{}
			json.Unmarshal(data, resume)
			if r.Complete {
				break
			}
			stops++
			if !strings.Contains(r.Cells[0].Stop, "interrupted") || f.GameRange[1] != r.Played || f.Planned != [2]int64{r.Lo, r.Hi} {
				t.Fatalf("an interrupted run records %v of %v, stop %q", f.GameRange, f.Planned, r.Cells[0].Stop)
			}
			if err := resume.check(); err != nil {
				t.Fatalf("checkpoint: %v", err)
			}
		}
		if stops == 0 {
			t.Fatal("never stopped")
		}
		for i := range want.Cells {
			if statsJSON(t, &want.Cells[i].Stats) != statsJSON(t, &resume.Cells[i].Stats) || want.Cells[i].Stop != resume.Cells[i].Stop {
				t.Fatalf("ci-width %v: cell %d differs after resuming (stop %q vs %q)", o.CIWidth, i, resume.Cells[i].Stop, want.Cells[i].Stop)
			}
		}
		a, _ := json.Marshal(want.Pairs)
		b, _ := json.Marshal(resume.Pairs)
		if string(a) != string(b) {
			t.Fatalf("ci-width %v: pairs differ after resuming", o.CIWidth)
		}
	}
}
