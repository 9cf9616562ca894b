package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unosim/unosim/tune"
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

// A tournament or tune killed before its first result leaves its --out
// empty (or with a temporary file); the same command then runs, instead of
// being refused as "already exists" (exit 2, which a cluster job does not
// retry).
func TestKilledBeforeAnyResultReruns(t *testing.T) {
	dir := t.TempDir()
	tour := filepath.Join(dir, "tour")
	tuned := filepath.Join(dir, "tuned")
	for _, d := range []string{tour, tuned} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(tuned, ".state.json.tmp-42"), []byte("{"), 0o600)
	if code, _, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "20", "--workers", "1", "--quiet", "--out", tour); code != 0 {
		t.Errorf("tournament into an empty --out: exit %d: %s", code, stderr)
	}
	if code, _, stderr := unosim(t, "tune", "--param", "threshold=0:1", "--generations", "1", "--games", "16", "--confirm-games", "16", "--workers", "1", "--quiet", "--out", tuned); code != 0 {
		t.Errorf("tune into an unused --out: exit %d: %s", code, stderr)
	}
	for _, f := range []string{filepath.Join(tour, "tournament.json"), filepath.Join(tuned, "tune.json")} {
		if !fileExists(f) {
			t.Errorf("%s was not written", f)
		}
	}
}

// A tournament killed while writing its plots, after every game and before
// tournament.json, leaves only plots (and temporary files): its rerun runs.
// A directory holding anything else is still refused, untouched.
func TestKilledWhileWritingPlotsReruns(t *testing.T) {
	dir := t.TempDir()
	tour := filepath.Join(dir, "tour")
	other := filepath.Join(dir, "other")
	for _, f := range []string{filepath.Join(tour, "ratings.png"), filepath.Join(tour, "ratings.svg"), filepath.Join(tour, ".crosstable.png.tmp123"),
		filepath.Join(other, "ratings.png"), filepath.Join(other, "notes.txt")} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--games", "20", "--workers", "1", "--quiet", "--out"}
	if code, _, stderr := unosim(t, append(args, tour)...); code != 0 {
		t.Fatalf("rerun over a killed tournament's plots: exit %d: %s", code, stderr)
	}
	for _, name := range append(tournamentPlots, "tournament.json") {
		if data, err := os.ReadFile(filepath.Join(tour, name)); err != nil || string(data) == "partial" {
			t.Errorf("%s: %v, not rewritten", name, err)
		}
	}
	if code, _, stderr := unosim(t, append(args, other)...); code != exitUsage || !strings.Contains(stderr, "already exists") {
		t.Errorf("a directory with other files: exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(filepath.Join(other, "ratings.png")); err != nil || string(data) != "partial" {
		t.Errorf("a refused --out was changed: %v", err)
	}
}

const tinyTournament = `name: tiny-tournament
description: three strategies at 2 and 3 players
seed: 3
games: 600
tournament:
  strategies: [random, heuristic, counter]
  players: [2, 3]
  games-for: {counter: 300}
`

// TestTournamentExperiment: a tournament file runs the tournament code for
// each player count: its results are those of 'unosim tournament' with
// the same flags; report.md gives the answer (ratings order) first; a
// rerun is complete; a checkpoint of some matches resumes to the same
// record; a different run in the directory is refused; flags a tournament
// does not take are refused with the reason.
func TestTournamentExperiment(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.yaml")
	os.WriteFile(file, []byte(tinyTournament), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := unosim(t, "experiment", "run", file, "--out", out, "--quiet", "--no-plots")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec tournamentRecord
	data, _ := os.ReadFile(filepath.Join(out, "tournament.json"))
	if err := json.Unmarshal(data, &rec); err != nil || !rec.Complete || len(rec.Tournaments) != 2 {
		t.Fatalf("record: %v, complete %v, %d tournaments", err, rec.Complete, len(rec.Tournaments))
	}
	for i, n := range []string{"2", "3"} {
		code, js, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--strategy", "counter", "--players", n,
			"--games", "600", "--games-for", "counter=300", "--seed", "3", "--json", "--quiet")
		if code != 0 {
			t.Fatalf("tournament: exit %d %s", code, stderr)
		}
		a, _ := json.Marshal(rec.Tournaments[i])
		var direct tournamentResult
		json.Unmarshal([]byte(js), &direct)
		b, _ := json.Marshal(direct)
		if string(a) != string(b) {
			t.Errorf("%s players: the experiment's result differs from unosim tournament's:\n%s\n%s", n, a, b)
		}
	}
	if r := rec.Tournaments[1]; len(r.AloneVsTable) != 6 || r.AloneVsTable[0].FairShare != 1.0/3 || r.GamesFor["counter"] != 300 {
		t.Errorf("3 players: %d alone rates, fair share %v, games-for %v", len(r.AloneVsTable), r.AloneVsTable[0].FairShare, r.GamesFor)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	rep := string(report)
	ans := strings.Index(rep, "## Answer")
	if ans < 0 || ans > strings.Index(rep, "## 2 players") || !strings.Contains(rep, "- **3 players**: `") || !strings.Contains(rep, "| counter | 2 × random |") {
		t.Errorf("report.md:\n%s", rep)
	}
	if !strings.Contains(stdout, "report: ") {
		t.Errorf("stdout: %s", stdout)
	}
	// Again: complete, the same report.
	code, _, stderr = unosim(t, "experiment", "run", file, "--out", out, "--quiet", "--no-plots")
	if code != 0 || !strings.Contains(stderr, "already complete") {
		t.Errorf("rerun: exit %d %s", code, stderr)
	}
	// A checkpoint of the first three matches resumes to the same record.
	cp := rec
	cp.Complete, cp.Tournaments = false, nil
	cp.Matches = [][]tune.Match{rec.Matches[0][:2], rec.Matches[1][:1]}
	part := filepath.Join(dir, "part")
	os.MkdirAll(part, 0o755)
	data, _ = json.Marshal(cp)
	os.WriteFile(filepath.Join(part, "tournament.json"), data, 0o644)
	code, _, stderr = unosim(t, "experiment", "run", file, "--out", part, "--quiet", "--no-plots")
	if code != 0 || !strings.Contains(stderr, "resuming") {
		t.Fatalf("resume: exit %d %s", code, stderr)
	}
	var res tournamentRecord
	data, _ = os.ReadFile(filepath.Join(part, "tournament.json"))
	json.Unmarshal(data, &res)
	a, _ := json.Marshal(res.Tournaments)
	b, _ := json.Marshal(rec.Tournaments)
	if string(a) != string(b) {
		t.Errorf("resumed results differ:\n%s\n%s", a, b)
	}
	// Another seed into the same directory: refused; --force starts over.
	code, _, stderr = unosim(t, "experiment", "run", file, "--out", out, "--quiet", "--no-plots", "--seed", "4")
	if code != 2 || !strings.Contains(stderr, "seed 3, this run 4") {
		t.Errorf("other seed: exit %d %s", code, stderr)
	}
	code, _, stderr = unosim(t, "experiment", "run", file, "--out", out, "--quiet", "--no-plots", "--seed", "4", "--force")
	if code != 0 {
		t.Errorf("--force: exit %d %s", code, stderr)
	}
	for _, f := range []string{"--shard=0/2", "--ci-width=0.1"} {
		code, _, stderr = unosim(t, "experiment", "run", file, "--out", filepath.Join(dir, "x"), "--quiet", f)
		if code != 2 || !strings.Contains(stderr, "declares a tournament") {
			t.Errorf("%s: exit %d %s", f, code, stderr)
		}
	}
	// Bad --games-for on unosim tournament.
	for _, c := range []struct{ flag, want string }{
		{"ismcts=10", "ismcts is none of the tournament's strategies (random, heuristic)"},
		{"random", "want STRATEGY=GAMES"},
		{"random=0", "want STRATEGY=GAMES"},
	} {
		code, _, stderr := unosim(t, "tournament", "--strategy", "random", "--strategy", "heuristic", "--games-for", c.flag, "--quiet")
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--games-for %s: exit %d %s", c.flag, code, stderr)
		}
	}
}

// TestTournamentHolm: the alone-against-a-table tests are one family, with
// each p_holm beside its p (tune's TestAloneHolmFamily checks the values);
// a tournament.json written before p_holm existed is adjusted again when
// it is reported again.
func TestTournamentHolm(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tour")
	args := []string{"tournament", "--strategy", "random", "--strategy", "heuristic", "--strategy", "heuristic:bluff=0.5", "--players", "3", "--games", "600", "--quiet", "--workers", "1", "--out", out}
	var r tournamentResult
	stdout := runJSON(t, args, &r)
	// Six tests with 3 players: the smallest p is multiplied by 6.
	smallest := 0
	for i, x := range r.AloneVsTable {
		if x.P == nil || x.PHolm == nil || *x.PHolm < *x.P {
			t.Fatalf("%s vs %s: p %v, p_holm %v", x.Strategy, x.Table, x.P, x.PHolm)
		}
		if *x.P < *r.AloneVsTable[smallest].P {
			smallest = i
		}
	}
	if x := r.AloneVsTable[smallest]; len(r.AloneVsTable) != 6 || *x.PHolm != math.Min(1, 6**x.P) {
		t.Errorf("%d tests; smallest p %v adjusted to %v, want 6 times", len(r.AloneVsTable), *x.P, *x.PHolm)
	}
	// The file as an older build wrote it: no p_holm.
	path := filepath.Join(out, "tournament.json")
	var old map[string]any
	data, _ := os.ReadFile(path)
	json.Unmarshal(data, &old)
	for _, x := range old["alone_vs_table"].([]any) {
		delete(x.(map[string]any), "p_holm")
	}
	data, _ = json.Marshal(old)
	os.WriteFile(path, data, 0o644)
	code, again, stderr := unosim(t, append(args, "--json")...)
	if code != 0 || again != stdout {
		t.Errorf("reported again from a file without p_holm: exit %d, %s\n%s\nwant\n%s", code, stderr, again, stdout)
	}
	code, text, _ := unosim(t, args...)
	if code != 0 || strings.Count(text, "p_holm = ") != 6 {
		t.Errorf("text output: want p_holm beside every p:\n%s", text)
	}
}

// TestRatingsLineSeparators: the answer orders strategies by rating, but
// writes ">" between neighbours only when their head-to-head tests find
// the left one stronger (p_holm < 0.05), "≈" otherwise: two strategies that
// played the same moves on every deal have equal ratings, not an order.
func TestRatingsLineSeparators(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	r := &tournamentResult{
		Players: 2,
		Ratings: []rating{{Strategy: "a", Elo: 50}, {Strategy: "b", Elo: 9.2}, {Strategy: "c", Elo: 9.0}},
		AloneVsTable: []aloneRate{
			{Strategy: "a", Table: "b", WinRate: 0.56, FairShare: 0.5, PHolm: p(1e-9)},
			{Strategy: "b", Table: "a", WinRate: 0.44, FairShare: 0.5, PHolm: p(1e-9)},
			{Strategy: "b", Table: "c", WinRate: 0.5, FairShare: 0.5, PHolm: p(1)},
			{Strategy: "c", Table: "b", WinRate: 0.5, FairShare: 0.5, PHolm: p(1)},
		},
	}
	got := ratingsLine(r)
	want := "`a` +50 [+0, +0] > `b` +9 [+0, +0] ≈ `c` +9 [+0, +0]"
	if got != want {
		t.Errorf("ratingsLine:\n got %s\nwant %s", got, want)
	}
	// In 4 players a strategy alone below the fair share against a
	// table of the other is the other's win.
	r.Players = 4
	r.AloneVsTable = []aloneRate{
		{Strategy: "a", Table: "b", WinRate: 0.26, FairShare: 0.25, PHolm: p(1)},
		{Strategy: "b", Table: "a", WinRate: 0.21, FairShare: 0.25, PHolm: p(0.02)},
	}
	if !r.beats("a", "b") || r.beats("b", "a") || r.beats("b", "c") {
		t.Error("beats: a table of a keeping b under its fair share is a's win; no test is no win")
	}
}

// TestTournamentIdentical: heuristic and heuristic:threshold=0.5 play
// alike (threshold counts only with challenge=seen), so on duplicate deals
// each wins exactly its fair share of every deal, 50.00% [50.00%,
// 50.00%]: no variance, no t test. Those rates are printed as not testable
// with the reason, have p and p_holm null and a not_testable in JSON, and
// are left out of Holm's family: with 2 players the four tests against
// random are two hypotheses (mirrors), so p_holm = 2p. A tournament.json
// of an older build, with p = 1 for them, is read back the same way.
func TestTournamentIdentical(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tour")
	args := []string{"tournament", "--strategy", "heuristic", "--strategy", "heuristic:threshold=0.5", "--strategy", "random", "--games", "200", "--quiet", "--workers", "1", "--out", out}
	var r tournamentResult
	stdout := runJSON(t, args, &r)
	check := func(r *tournamentResult, from string) {
		t.Helper()
		same := 0
		for _, x := range r.AloneVsTable {
			if x.Table == "random" || x.Strategy == "random" {
				if x.P == nil || x.PHolm == nil || *x.PHolm != math.Min(1, 2**x.P) || x.NotTestable != "" {
					t.Errorf("%s: %s vs %s: p %v, p_holm %v, not testable %q; want p_holm = 2p", from, x.Strategy, x.Table, x.P, x.PHolm, x.NotTestable)
				}
				continue
			}
			same++
			if x.P != nil || x.PHolm != nil || x.NotTestable != tune.NotTestableSame || x.WinRate != 0.5 || x.CI != [2]float64{0.5, 0.5} {
				t.Errorf("%s: %s vs %s: %+v; want 0.5 [0.5, 0.5], not testable", from, x.Strategy, x.Table, x)
			}
		}
		if same != 2 {
			t.Errorf("%s: %d rates between the identical strategies, want 2", from, same)
		}
	}
	check(&r, "run")
	if !strings.Contains(stdout, `"not_testable": "every deal gave the same result`) {
		t.Errorf("JSON without not_testable:\n%s", stdout)
	}
	code, text, _ := unosim(t, args...)
	if code != 0 || strings.Count(text, "not testable: every deal gave the same result") != 2 || strings.Count(text, "p_holm = ") != 4 {
		t.Errorf("text output: want 2 rates not testable and 4 tested:\n%s", text)
	}
	// As an older build wrote it: p = 1 and counted in the family.
	path := filepath.Join(out, "tournament.json")
	var old map[string]any
	data, _ := os.ReadFile(path)
	json.Unmarshal(data, &old)
	for _, x := range old["alone_vs_table"].([]any) {
		m := x.(map[string]any)
		if _, ok := m["not_testable"]; ok {
			delete(m, "not_testable")
			m["p"], m["p_holm"] = 1.0, 1.0
		}
		if p, ok := m["p"].(float64); ok {
			m["p_holm"] = math.Min(1, 3*p)
		}
	}
	data, _ = json.Marshal(old)
	os.WriteFile(path, data, 0o644)
	code, again, stderr := unosim(t, append(args, "--json")...)
	var back tournamentResult
	if code != 0 || json.Unmarshal([]byte(again), &back) != nil {
		t.Fatalf("reported again: exit %d, %s", code, stderr)
	}
	check(&back, "an older build's file")
}

// TestMatchIdentical: two strategies that play alike have a paired
// difference of exactly 0 on every deal: not testable, p null, as the
// tournament's rates.
func TestMatchIdentical(t *testing.T) {
	args := []string{"match", "--strategy", "heuristic", "--vs", "heuristic:threshold=0.5", "--games", "200", "--quiet", "--workers", "1"}
	var r matchResult
	runJSON(t, args, &r)
	if d := r.Difference; d == nil || d.P != nil || d.NotTestable != tune.NotTestableSame || d.Effect != 0 {
		t.Errorf("difference %+v: want 0, not testable, p null", d)
	}
	code, text, _ := unosim(t, args...)
	if code != 0 || !strings.Contains(text, "not testable: every deal gave the same result") || strings.Contains(text, "p = ") {
		t.Errorf("text output:\n%s", text)
	}
}

// TestPrintTournamentAnswerFirst: the terminal output answers first, the
// ratings best first with report.md's separators, and gives every rate in
// %: the cross-table's, the alone-against-a-table rates' and the fair
// share (JSON keeps proportions).
func TestPrintTournamentAnswerFirst(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	r := &tournamentResult{
		Strategies: []string{"random", "heuristic"}, Players: 4, GamesPerPair: 8000, Seed: 1,
		CrossTable: [][]h2h{{{}, {Wins: 402, Losses: 598, WinRate: p(0.402), CI: [2]float64{0.3719, 0.4328}}},
			{{Wins: 598, Losses: 402, WinRate: p(0.598), CI: [2]float64{0.5672, 0.6281}}, {}}},
		Ratings: []rating{{Strategy: "random", Elo: -34.5, CI: [2]float64{-40, -29}}, {Strategy: "heuristic", Elo: 34.5, CI: [2]float64{29, 40}}},
		AloneVsTable: []aloneRate{
			{Strategy: "random", Table: "heuristic", WinRate: 0.18, CI: [2]float64{0.16, 0.2}, FairShare: 0.25, P: p(1e-6), PHolm: p(2e-6)},
			{Strategy: "heuristic", Table: "random", WinRate: 0.34, CI: [2]float64{0.32, 0.36}, FairShare: 0.25, P: p(1e-7), PHolm: p(2e-7)},
		},
	}
	var b strings.Builder
	printTournament(&b, r)
	out := b.String()
	lines := strings.Split(out, "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[2], "Bradley-Terry ratings, best first") ||
		!strings.Contains(lines[3], "heuristic") || !strings.Contains(lines[4], "random") || !strings.HasPrefix(lines[4], ">") {
		t.Errorf("want the ratings first, best first, heuristic > random:\n%s", out)
	}
	for _, want := range []string{"40.20% [37.19%, 43.28%]", "59.80% [56.72%, 62.81%]", "18.00% [16.00%, 20.00%]", "34.00% [32.00%, 36.00%]", "fair share 25.00%"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"0.402", "0.598", "0.1800", "1/4"} {
		if strings.Contains(out, bad) {
			t.Errorf("a proportion %q instead of %%:\n%s", bad, out)
		}
	}
	if i, j := strings.Index(out, "Bradley-Terry"), strings.Index(out, "head-to-head win rate"); i < 0 || j < i {
		t.Errorf("ratings after the cross-table:\n%s", out)
	}
}

// runJSON runs unosim with args and --json, decodes its output into v and
// returns it.
func runJSON(t *testing.T, args []string, v any) string {
	t.Helper()
	code, stdout, stderr := unosim(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatal(err)
	}
	return stdout
}
