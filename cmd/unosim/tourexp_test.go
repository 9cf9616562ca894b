package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/tune"
)

// readTournamentRecord reads out/tournament.json; it fails the test when
// the file is not valid JSON of a record.
func readTournamentRecord(t *testing.T, out string) tournamentRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "tournament.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec tournamentRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("tournament.json is not a valid record: %v\n%s", err, data)
	}
	return rec
}

// tourUnit is an axis or color-bar label that ends with its unit in
// parentheses (Elo points are the ratings' unit).
var tourUnit = regexp.MustCompile(`\((%|pp|Elo points)[,;) ].*$|\((%|pp|Elo points)\)$`)

// TestTournamentPlotsReadable draws the plots of the built-in tournament
// experiments (on few games) and checks their words and layout as
// experiments.TestPlotsReadable does for grid experiments: a title, the
// measured quantity labelled with its unit (the color bar's for the
// cross-table), proportions in %, no text overlapping other text or within
// 4 points of the image's edge (analysis.CheckLayout).
func TestTournamentPlotsReadable(t *testing.T) {
	for _, name := range []string{"strength", "strategy-tournament"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			mustRun(t, 0, "experiment", "run", name, "--out", out, "--games", "48", "--quiet", "--no-plots")
			rec := readTournamentRecord(t, out)
			for i := range rec.Tournaments {
				r := &rec.Tournaments[i]
				figs, err := tournamentFigures(r)
				if err != nil {
					t.Fatal(err)
				}
				if len(figs) != 2 {
					t.Errorf("%d players: %d plots, want the ratings and the cross-table (ratings: %s)", r.Players, len(figs), r.RatingsError)
				}
				for _, f := range figs {
					id := f.name + "-" + string(rune('0'+r.Players)) + "p"
					p := f.fig.(*plot.Plot)
					if p.Title.Text == "" {
						t.Errorf("%s: no title", id)
					}
					texts := map[string]bool{}
					for _, b := range analysis.DrawnText(f.fig, f.width, f.height) {
						texts[b.Text] = true
					}
					switch f.name {
					case "ratings":
						if !tourUnit.MatchString(p.Y.Label.Text) {
							t.Errorf("%s: axis label %q has no unit", id, p.Y.Label.Text)
						}
					case "crosstable":
						// The quantity is the color: its bar says what it is,
						// in %, and so do the cells.
						bar := ""
						for s := range texts {
							if strings.HasPrefix(s, "win rate") {
								bar = s
							}
						}
						if !tourUnit.MatchString(bar) || !strings.Contains(bar, "%") {
							t.Errorf("%s: the color bar's label %q does not say the win rate in %%", id, bar)
						}
						for s := range texts {
							if strings.HasPrefix(s, "0.") {
								t.Errorf("%s: a cell shows the proportion %q, not a percentage", id, s)
								break
							}
						}
						// Row 1 at the top, as in the tables: the highest
						// y tick is the first strategy.
						ticks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
						top := ticks[0]
						for _, tk := range ticks {
							if tk.Value > top.Value {
								top = tk
							}
						}
						if want := "1 " + r.Strategies[0]; top.Label != want {
							t.Errorf("%s: the top row is %q, want %q (row 1 at the top, as in the tables)", id, top.Label, want)
						}
					}
					for _, l := range []string{p.X.Label.Text, p.Y.Label.Text} {
						if strings.Contains(l, "fraction") || strings.Contains(l, "share)") {
							t.Errorf("%s: axis %q: proportions are shown in %% or pp", id, l)
						}
					}
					for _, prob := range analysis.CheckLayout(f.fig, f.width, f.height, vg.Points(4)) {
						t.Errorf("%s: %s", id, prob)
					}
				}
			}
		})
	}
}

// --progress json writes the lines of a grid experiment for a tournament
// file too: one JSON object per line, the same keys, games counted over
// every player count, done never above the total.
func TestTournamentProgressJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.yaml")
	os.WriteFile(file, []byte(tinyTournament), 0o644)
	out := filepath.Join(dir, "out")
	_, stderr := mustRun(t, 0, "experiment", "run", file, "--out", out, "--no-plots", "--progress", "json", "--progress-every", "1ms", "--workers", "1")
	checkTournamentProgress(t, stderr, out, 0)
	// Resumed from a checkpoint of the first two 2-player matches (600 +
	// 300 games): they count as done, the total stays the same.
	rec := readTournamentRecord(t, out)
	rec.Complete, rec.Tournaments = false, nil
	rec.Matches = [][]tune.Match{rec.Matches[0][:2], nil}
	part := filepath.Join(dir, "part")
	os.MkdirAll(part, 0o755)
	data, _ := json.Marshal(rec)
	os.WriteFile(filepath.Join(part, "tournament.json"), data, 0o644)
	_, stderr = mustRun(t, 0, "experiment", "run", file, "--out", part, "--no-plots", "--progress", "json", "--progress-every", "1ms", "--workers", "1")
	checkTournamentProgress(t, stderr, part, 900)
}

// checkTournamentProgress checks the --progress json lines of a run of
// tinyTournament into out that resumed a checkpoint of prior games.
func checkTournamentProgress(t *testing.T, stderr, out string, prior float64) {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "unosim: resuming") {
			continue
		}
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		for _, k := range []string{"time", "shard", "out", "games_done", "games_total", "games_per_second", "seconds_left", "elapsed_seconds"} {
			if _, ok := l[k]; !ok {
				t.Fatalf("line %q lacks %s", sc.Text(), k)
			}
		}
		// tinyTournament: 600 games a pair, 300 for counter's pairs, at
		// 2 and 3 players (3 pairs, both directions within a pair's
		// games): 2 × (600 + 300 + 300).
		if got := l["games_total"].(float64); got != 2400 {
			t.Errorf("games_total %v, want 2400", got)
		}
		if done := l["games_done"].(float64); done < prior || done > l["games_total"].(float64) || l["shard"] != "0/1" || l["out"] != out {
			t.Errorf("line %q", sc.Text())
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no progress line:\n%s", stderr)
	}
}

// interruptAfterFirstCheckpoint is a context cancelled as soon as it is
// asked after dir/tournament.json exists: an interrupt after the first
// match, at the same place on every run.
type interruptAfterFirstCheckpoint struct {
	context.Context
	cancel context.CancelFunc
	file   string
}

func (c *interruptAfterFirstCheckpoint) Err() error {
	if fileExists(c.file) {
		c.cancel()
	}
	return c.Context.Err()
}

// The replay of the match under way is documented where a user looks:
// experiment run --help and the README.
func TestTournamentInterruptDocumented(t *testing.T) {
	help, _ := mustRun(t, 0, "experiment", "run", "--help")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"experiment run --help": help, "README.md": strings.Join(strings.Fields(string(readme)), " ")} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "the match under way is played again") {
			t.Errorf("%s does not say that an interrupted tournament plays the match under way again", where)
		}
	}
}

// An interrupted tournament (SIGINT) exits 130 and leaves tournament.json
// valid, marked incomplete, with the matches played and no results and no
// report.md; a rerun plays the rest, the match under way again from its
// first deal, to the record of an uninterrupted run.
func TestTournamentInterrupted(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.yaml")
	os.WriteFile(file, []byte(tinyTournament), 0o644)
	out := filepath.Join(dir, "out")
	inner, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx := &interruptAfterFirstCheckpoint{Context: inner, cancel: cancel, file: filepath.Join(out, "tournament.json")}
	code, _, stderr := unosimCtx(t, ctx, "experiment", "run", file, "--out", out, "--quiet", "--no-plots")
	if code != exitInterrupted || !strings.Contains(stderr, "interrupted; 1 matches are saved") {
		t.Fatalf("exit %d, want %d: %s", code, exitInterrupted, stderr)
	}
	rec := readTournamentRecord(t, out)
	if rec.Complete || rec.Tournaments != nil || len(rec.Matches) != 2 || len(rec.Matches[0]) != 1 || len(rec.Matches[1]) != 0 {
		t.Errorf("after the interrupt: complete %v, %d results, matches %v", rec.Complete, len(rec.Tournaments), rec.Matches)
	}
	if fileExists(filepath.Join(out, "report.md")) {
		t.Error("an interrupted tournament wrote report.md")
	}
	// A record that says complete without results (edited by hand) is
	// refused, never reported as nothing.
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	rec.Complete = true
	data, _ := json.Marshal(rec)
	os.WriteFile(filepath.Join(bad, "tournament.json"), data, 0o644)
	if code, _, stderr := unosim(t, "experiment", "run", file, "--out", bad, "--quiet", "--no-plots"); code != 2 || !strings.Contains(stderr, "says complete but holds 0 results for 2 player counts") {
		t.Errorf("complete without results: exit %d %s", code, stderr)
	}
	code, _, stderr = unosim(t, "experiment", "run", file, "--out", out, "--quiet", "--no-plots")
	if code != 0 || !strings.Contains(stderr, "resuming") {
		t.Fatalf("resume: exit %d %s", code, stderr)
	}
	whole := filepath.Join(dir, "whole")
	mustRun(t, 0, "experiment", "run", file, "--out", whole, "--quiet", "--no-plots")
	a, b := readTournamentRecord(t, out), readTournamentRecord(t, whole)
	ja, _ := json.Marshal(a.Tournaments)
	jb, _ := json.Marshal(b.Tournaments)
	if !a.Complete || string(ja) != string(jb) {
		t.Errorf("interrupted and resumed differs from one run:\n%s\n%s", ja, jb)
	}
}
