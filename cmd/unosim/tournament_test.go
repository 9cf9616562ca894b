package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentTwo: with two strategies the Bradley-Terry Elo difference
// is 400 log10(w/l) of the head-to-head cell, and the files are written.
func TestTournamentTwo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tour")
	code, stdout, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "2000", "--json", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r tournamentResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	c := r.CrossTable[1][0]
	if c.Wins+c.Losses == 0 || c.Wins != r.CrossTable[0][1].Losses {
		t.Fatalf("cross-table %+v", r.CrossTable)
	}
	want := 400 * math.Log10(float64(c.Wins)/float64(c.Losses))
	if got := r.Ratings[1].Elo - r.Ratings[0].Elo; math.Abs(got-want) > 1e-6 {
		t.Errorf("Elo difference %v, head-to-head %v", got, want)
	}
	for _, f := range []string{"tournament.json", "ratings.png", "ratings.svg", "crosstable.png", "crosstable.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The same run again is complete; a different one into the same
	// directory is refused.
	code, again, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "2000", "--json", "--quiet", "--out", out)
	if code != 0 || again != stdout || !strings.Contains(stderr, "already complete") {
		t.Errorf("same run again: exit %d, %s", code, stderr)
	}
	if code, _, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "4000", "--quiet", "--out", out); code != exitUsage || !strings.Contains(stderr, "different tournament") {
		t.Errorf("different run: exit %d, %s", code, stderr)
	}
}

// TestTournamentFour: with four players each pair plays both directions,
// and every decisive game counts once for one side.
func TestTournamentFour(t *testing.T) {
	code, stdout, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--strategy", "heuristic:bluff=0.5", "--players", "4", "--games", "800", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Bradley-Terry ratings") || !strings.Contains(stdout, "800 games a pair") {
		t.Errorf("output:\n%s", stdout)
	}
}

func TestTournamentBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--strategy", "random"}, "at least two strategies"},
		{[]string{"tournament", "--strategy", "random", "--strategy", "random"}, "given twice"},
		{[]string{"tournament", "--strategy", "random", "--strategy", "nosuch"}, "unknown strategy"},
		{[]string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "1"}, "--games 1"},
	} {
		code, _, stderr := unosim(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
}
