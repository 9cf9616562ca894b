package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// Check bounds match_capped by the unfinished games (not the finished),
// and the wins by the sole wins plus at least two per shared win.
func TestCheckBoundsCappedAndSharedWins(t *testing.T) {
	good := simulate(t, config(t, 500, 3, []string{"heuristic", "random"})).File()
	group := []int{0, 1, 0}
	if p := good.Stats.Check(group); p != nil {
		t.Fatalf("real stats fail: %v", p)
	}
	if good.Stats.SharedWins != 0 || good.Stats.Unfinished >= good.Stats.Finished {
		t.Fatalf("want single games without shared wins and few unfinished: %+v", good.Stats)
	}
	for _, c := range []struct {
		name   string
		tamper func(s *Stats)
		want   string
	}{
		{"match capped", func(s *Stats) { s.MatchCapped = s.Unfinished + 1 }, "match_capped"},
		// One sole win relabelled shared: its single winner cannot be a shared win.
		{"shared win of one winner", func(s *Stats) { s.SharedWins++ }, "cannot give"},
	} {
		f := roundTrip(t, good)
		c.tamper(&f.Stats)
		if p := strings.Join(f.Stats.Check(group), "; "); !strings.Contains(p, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, p, c.want)
		}
	}
}

// A checkpoint that claims games past the shard's range is not resumed;
// a resumed run's elapsed time includes the checkpoint's.
func TestResumeChecksRangeAndKeepsElapsed(t *testing.T) {
	cfg := config(t, 200, 2, []string{"random"})
	whole := simulate(t, cfg)
	past := roundTrip(t, whole.File())
	past.GameRange[1] = whole.Hi + 1
	if _, err := SimulateWith(context.Background(), cfg, Options{Resume: past}); err == nil || !strings.Contains(err.Error(), "is not of this run") {
		t.Errorf("resume of games [%d, %d) of [%d, %d): err %v, want it refused", past.GameRange[0], past.GameRange[1], whole.Lo, whole.Hi, err)
	}
	prior := roundTrip(t, whole.File())
	prior.ElapsedSeconds = 1000
	r, err := SimulateWith(context.Background(), cfg, Options{Resume: prior})
	if err != nil {
		t.Fatal(err)
	}
	if r.Elapsed < 1000*time.Second {
		t.Errorf("resumed run's elapsed %v, want at least the checkpoint's 1000s", r.Elapsed)
	}
}

// A partial record resumes only with the build that made it; a complete
// one may be left as it is by another build.
func TestCheckResumeBuilds(t *testing.T) {
	cfg := config(t, 200, 2, []string{"random"})
	f := roundTrip(t, simulate(t, cfg).File())
	a, b := Producer{Tool: "unosim", Build: "vcs:a"}, Producer{Tool: "unosim", Build: "vcs:b"}
	f.Producer = a
	if err := f.CheckResume("out", cfg, b); err != nil {
		t.Errorf("complete record of another build: %v, want it accepted", err)
	}
	f.Complete = false
	if err := f.CheckResume("out", cfg, b); err == nil || !strings.Contains(err.Error(), "build") {
		t.Errorf("partial record of another build: %v, want it refused", err)
	}
	if err := f.CheckResume("out", cfg, a); err != nil {
		t.Errorf("partial record of the same build: %v, want it accepted", err)
	}
}

// The seat plot's x label says "(strategy)" only when its labels name the
// strategies: fixed seats and more than one strategy.
func TestSeatAxisLabel(t *testing.T) {
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Seats: FixedSeats.String(), Strategies: []string{"random", "heuristic"}, WinsByStrategy: make([]StrategyWins, 2)}, "seat (strategy)"},
		{Summary{Seats: FixedSeats.String(), Strategies: []string{"heuristic", "heuristic"}, WinsByStrategy: make([]StrategyWins, 1)}, "seat"},
		{Summary{Seats: "rotate", Strategies: []string{"random", "heuristic"}, WinsByStrategy: make([]StrategyWins, 2)}, "seat"},
	} {
		if got := seatAxis(&c.s); got != c.want {
			t.Errorf("%s seats, %d strategies: %q, want %q", c.s.Seats, len(c.s.WinsByStrategy), got, c.want)
		}
	}
}
