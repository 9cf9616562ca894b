package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/tune"
)

// tournamentRecord is tournament.json of a tournament experiment: the
// run's identity, the matches played so far per player count (the
// checkpoint, written after every match) and, once complete, the results.
type tournamentRecord struct {
	Experiment  string             `json:"experiment"`
	Source      string             `json:"source"`
	Hash        string             `json:"sha256"`
	Seed        uint64             `json:"seed"`
	Games       int64              `json:"games"` // per pair, as asked for
	Players     []int              `json:"players"`
	Complete    bool               `json:"complete"`
	Tournaments []tournamentResult `json:"tournaments,omitempty"` // per player count, when complete
	Matches     [][]tune.Match     `json:"matches"`               // per player count
	Producer    sim.Producer       `json:"producer"`
	Start       time.Time          `json:"start"`
	End         time.Time          `json:"end"`
}

// tournamentOutputs are the names a tournament experiment writes in --out.
var tournamentOutputs = []string{"tournament.json", "report.md", "plots"}

// runTournamentExperiment runs a tournament file: for each player count
// the round robin of 'unosim tournament', checkpointed after every match,
// then tournament.json, the plots and report.md.
func runTournamentExperiment(cmd *cobra.Command, a *app, e *experiments.Experiment, o *experimentRunOptions) error {
	fl := cmd.Flags()
	for _, f := range []struct{ name, why string }{
		{"ci-width", "a tournament plays a fixed number of games a pair"},
		{"shard", "a tournament resumes match by match instead: rerun it with the same --out"},
		{"records", "a tournament keeps per-deal sums, not games"},
		{"checkpoint-every", "a tournament writes a checkpoint after every match"},
	} {
		if fl.Changed(f.name) {
			return usagef("--%s: %s declares a tournament, which takes no --%s (%s)", f.name, e.Source, f.name, f.why)
		}
	}
	if o.out == "" {
		return usagef("experiment run needs --out DIR, the directory for the report")
	}
	plots, err := o.plots.options(fl)
	if err != nil {
		return err
	}
	if _, err := o.run.parse(fl, o.quiet); err != nil {
		return err
	}
	t := e.Tour
	games := e.File.Games
	if o.games != 0 {
		games = o.games
	}
	if games == 0 {
		return usagef("games: %s gives no games per pair: add games: N to it, or give --games N", e.Source)
	}
	seed := e.File.Seed
	if fl.Changed("seed") {
		seed = o.seed
	}
	for _, n := range t.Players {
		if games < int64(n) {
			return usagef("--games %d: want at least one deal per pair, %d games with %d players (a deal is one game per seat)", games, n, n)
		}
		for i, c := range t.GamesFor {
			if c > 0 && c < int64(n) {
				return usagef("games-for %s: %d, want at least one deal, %d games with %d players", t.Strategies[i], c, n, n)
			}
		}
	}
	rec := &tournamentRecord{Experiment: e.File.Name, Source: e.Source, Hash: e.Hash, Seed: seed, Games: games, Players: t.Players,
		Matches: make([][]tune.Match, len(t.Players)), Producer: sim.ThisBuild(version), Start: time.Now()}
	var tours []*tune.Tournament
	var results []tournamentResult
	for _, n := range t.Players {
		tr, res := newTournament(t.Options, n, t.Strategies, games, t.GamesFor, seed, o.workers)
		tours, results = append(tours, tr), append(results, res)
	}
	prior, err := openTournamentOut(o.out, o.run.force)
	if err != nil {
		return err
	}
	if prior != nil {
		if why := prior.differs(rec); why != "" {
			return usagef("output directory %s holds another run (%s): choose another --out, or --force to start over", o.out, why)
		}
		for i := range tours {
			if err := tours[i].CheckMatches(prior.Matches[i]); err != nil {
				return usagef("output directory %s: its checkpoint cannot be resumed: %v; --force starts over", o.out, err)
			}
		}
		if prior.Complete && len(prior.Tournaments) != len(prior.Players) {
			// A record edited or written by another build: never a report
			// of nothing.
			return usagef("output directory %s: tournament.json says complete but holds %d results for %d player counts; --force starts over", o.out, len(prior.Tournaments), len(prior.Players))
		}
		if prior.Complete {
			fmt.Fprintf(a.stderr, "unosim: %s is already complete; nothing to do\n", o.out)
			for i := range prior.Tournaments {
				prior.Tournaments[i].holmAgain() // written by a build without p_holm, perhaps
			}
			if !fileExists(filepath.Join(o.out, "report.md")) {
				if err := writeTournamentReport(o.out, e, prior, plots); err != nil {
					return runtimeError{err}
				}
			}
			printTournamentExperiment(a, prior, o.out)
			return nil
		}
		rec.Matches, rec.Start = prior.Matches, prior.Start
		fmt.Fprintf(a.stderr, "unosim: resuming %s: %d matches done\n", o.out, countMatches(prior.Matches))
	}
	save := func() error {
		rec.End = time.Now()
		data, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return err
		}
		return sim.WriteFileAtomic(filepath.Join(o.out, "tournament.json"), append(data, '\n'))
	}
	total, done := int64(0), int64(0)
	for i, tr := range tours {
		total += tr.Games()
		for _, m := range rec.Matches[i] {
			done += m.Deals * int64(tr.Players)
		}
	}
	// Progress as a grid experiment's (--progress auto, json or none):
	// games over every player count, a checkpoint's counted as done.
	before := done
	progress, interval := o.run.progressFrom(a, sim.Shard{}.String(), o.out, before, 5*time.Second)
	defer o.run.finish(false)
	start := time.Now()
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	for i, tr := range tours {
		tr.Done = rec.Matches[i]
		base := done - before // games of this session before this player count
		if progress != nil {
			tr.Interval = interval
			tr.Progress = func(g int64) { progress(base+g-played(tr), total-before, time.Since(start)) }
		}
		tr.OnMatch = func(m tune.Match) error {
			rec.Matches[i] = append(rec.Matches[i], m)
			return save()
		}
		if _, err := tr.Play(ctx); err != nil {
			if ctx.Err() != nil {
				o.run.finish(false)
				fmt.Fprintf(a.stderr, "unosim: interrupted; %d matches are saved in %s: rerun the same command to resume (the match under way is played again)\n", countMatches(rec.Matches), o.out)
				return errInterrupted
			}
			return runtimeError{err}
		}
		done += tr.Games() - played(tr)
	}
	if progress != nil {
		// A last line at 100%: a short run may end before its first tick.
		progress(done-before, total-before, time.Since(start))
	}
	o.run.finishAt(done-before, time.Since(start), true)
	for i := range results {
		results[i].fill(rec.Matches[i])
	}
	rec.Tournaments, rec.Complete = results, true
	if err := writeTournamentReport(o.out, e, rec, plots); err != nil {
		return runtimeError{err}
	}
	// The record last: a directory whose tournament.json says complete has
	// its report.
	if err := save(); err != nil {
		return runtimeError{err}
	}
	printTournamentExperiment(a, rec, o.out)
	return nil
}

// played is the games of the matches a tournament starts with.
func played(tr *tune.Tournament) int64 {
	g := int64(0)
	for _, m := range tr.Done {
		g += m.Deals * int64(tr.Players)
	}
	return g
}

func countMatches(ms [][]tune.Match) int {
	n := 0
	for _, m := range ms {
		n += len(m)
	}
	return n
}

// differs says how a record is not of the run r ("" when it is).
func (p *tournamentRecord) differs(r *tournamentRecord) string {
	switch {
	case p.Hash != r.Hash:
		return "another experiment file: sha256 " + hashPrefix(p.Hash) + ", this one " + hashPrefix(r.Hash)
	case p.Seed != r.Seed:
		return fmt.Sprintf("seed %d, this run %d", p.Seed, r.Seed)
	case p.Games != r.Games:
		return fmt.Sprintf("%d games a pair, this run %d", p.Games, r.Games)
	case !slices.Equal(p.Players, r.Players) || len(p.Matches) != len(r.Players):
		return fmt.Sprintf("players %v, this run %v", p.Players, r.Players)
	}
	return ""
}

func hashPrefix(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// openTournamentOut prepares --out: a new or empty directory, or one
// holding a tournament record (returned); force removes an earlier run's
// outputs. Anything else is refused, so a mistyped --out never writes
// among other files.
func openTournamentOut(dir string, force bool) (*tournamentRecord, error) {
	if err := sim.CheckOutDir(dir); err != nil {
		return nil, usageError{err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, usagef("output directory %s cannot be created: %v", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("output directory %s: %v", dir, err)
	}
	var others []string
	for _, en := range entries {
		name := en.Name()
		switch {
		case sim.Temporary(name):
			os.Remove(filepath.Join(dir, name)) // a killed writer's temporary file
		case slices.Contains(tournamentOutputs, name):
		default:
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		return nil, usagef("output directory %s holds files that are not a unosim tournament's (%s): choose a new or empty directory", dir, strings.Join(others, ", "))
	}
	if force {
		for _, name := range tournamentOutputs {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return nil, runtimeError{fmt.Errorf("--force: %w", err)}
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "tournament.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, runtimeError{err}
	}
	var p tournamentRecord
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, usagef("output directory %s: tournament.json cannot be read (%v): choose another --out, or --force to start over", dir, err)
	}
	return &p, nil
}

func printTournamentExperiment(a *app, rec *tournamentRecord, dir string) {
	w := a.stdout
	fmt.Fprintf(w, "%s: a tournament, seed %d, %.1f s\n\n", rec.Experiment, rec.Seed, rec.End.Sub(rec.Start).Seconds())
	for i := range rec.Tournaments {
		printTournament(w, &rec.Tournaments[i])
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "report: %s/report.md (ratings, cross-tables, plots); data: tournament.json\n", dir)
}

// ratingsOrder is the answer for one player count: the indices of the
// ratings, best first, and before each but the first the separator from
// the one above it, " > " when the head-to-head tests find that one
// stronger, " ≈ " otherwise (report.md's Answer and the terminal's).
func ratingsOrder(r *tournamentResult) (idx []int, seps []string) {
	idx = make([]int, len(r.Ratings))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch a, b := r.Ratings[x].Elo, r.Ratings[y].Elo; {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	seps = make([]string, len(idx))
	for k := 1; k < len(idx); k++ {
		seps[k] = " ≈ "
		if r.beats(r.Ratings[idx[k-1]].Strategy, r.Ratings[idx[k]].Strategy) {
			seps[k] = " > "
		}
	}
	return idx, seps
}

// ratingsLine is the answer for one player count: the strategies by
// rating, best first.
func ratingsLine(r *tournamentResult) string {
	if len(r.Ratings) == 0 {
		return "no ratings: " + r.RatingsError
	}
	idx, seps := ratingsOrder(r)
	var b strings.Builder
	for k, i := range idx {
		x := r.Ratings[i]
		b.WriteString(seps[k])
		fmt.Fprintf(&b, "`%s` %+.0f [%+.0f, %+.0f]", x.Strategy, x.Elo, x.CI[0], x.CI[1])
	}
	return b.String()
}

// ratingsKey explains the separators of ratingsLine.
const ratingsKey = "`>`: the head-to-head tests of the two neighbours find the left one stronger (p_holm < 0.05); `≈`: they find no difference, whatever the ratings' order."

// beats reports whether the head-to-head tests between a and b find a
// stronger: a alone wins more than the fair share against a table of b,
// or b alone less against a table of a (p_holm < 0.05), and no test finds
// b stronger.
func (r *tournamentResult) beats(a, b string) bool {
	for_, against := false, false
	for _, x := range r.AloneVsTable {
		if x.PHolm == nil || *x.PHolm >= 0.05 || x.WinRate == x.FairShare {
			continue
		}
		up := x.WinRate > x.FairShare
		switch {
		case x.Strategy == a && x.Table == b:
			for_, against = for_ || up, against || !up
		case x.Strategy == b && x.Table == a:
			for_, against = for_ || !up, against || up
		}
	}
	return for_ && !against
}

func pctText(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.2f%%", 100*x)
}

// writeTournamentReport writes the plots and report.md of a complete
// record: the answer (ratings, best first) first, then per player count
// the alone-against-a-table rates, the cross-table and the ratings.
func writeTournamentReport(dir string, e *experiments.Experiment, rec *tournamentRecord, plots experiments.PlotOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", rec.Experiment)
	if d := strings.TrimSpace(e.File.Description); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	b.WriteString("## Answer\n\nBradley-Terry ratings on the Elo scale (mean 0), best first, with 95% intervals:\n\n")
	for i := range rec.Tournaments {
		r := &rec.Tournaments[i]
		fmt.Fprintf(&b, "- **%d players**: %s\n", r.Players, ratingsLine(r))
	}
	b.WriteString("\n" + ratingsKey + "\n\n")
	for i := range rec.Tournaments {
		r := &rec.Tournaments[i]
		suffix := fmt.Sprintf("-%dp", r.Players)
		fmt.Fprintf(&b, "## %d players\n\n", r.Players)
		if r.Players == 2 {
			b.WriteString("Win rate head to head over all games (a game without a winner counts as a loss), against the fair share 50%, with the 95% Student t interval over deals and its test")
		} else {
			fmt.Fprintf(&b, "Win rate of a strategy alone against a table of %d of the other, over all games, against the fair share 1/%d, with the 95%% Student t interval over deals and its test", r.Players-1, r.Players)
		}
		b.WriteString("; p_holm is p adjusted by Holm's method over the tests of this table")
		if r.Players == 2 {
			b.WriteString(" (a pair whose games all had a winner counted once: its two directions are one test)")
		}
		b.WriteString("; a rate with fewer than 2 deals, or whose every deal gave the same result (no variance: no t statistic, as for two strategies that play alike), is not testable and left out of the family")
		b.WriteString("; the intervals are not adjusted:\n\n")
		b.WriteString("| strategy | against | games | win rate [95% CI] | fair share | p | p_holm |\n| --- | --- | ---: | --- | ---: | ---: | ---: |\n")
		for _, x := range r.AloneVsTable {
			against := x.Table
			if r.Players > 2 {
				against = fmt.Sprintf("%d × %s", r.Players-1, x.Table)
			}
			p, holm := pvalue(x.P), pvalue(x.PHolm)
			if x.NotTestable != "" {
				p = "not testable: " + notTestableShort(x.NotTestable)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s [%s, %s] | %s | %s | %s |\n", x.Strategy, against, thousands(x.Games), pctText(x.WinRate), pctText(x.CI[0]), pctText(x.CI[1]),
				pctText(x.FairShare), p, holm)
		}
		b.WriteString("\nHead-to-head win rate of the row against the column, decisive games (a game counts for the strategy its winner plays), with 95% Wilson intervals:\n\n|  |")
		for j := range r.Strategies {
			fmt.Fprintf(&b, " %d |", j+1)
		}
		b.WriteString("\n| --- |")
		for range r.Strategies {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
		for i, s := range r.Strategies {
			fmt.Fprintf(&b, "| %d %s |", i+1, s)
			for j := range r.Strategies {
				c := r.CrossTable[i][j]
				if c.WinRate == nil {
					b.WriteString(" – |")
					continue
				}
				fmt.Fprintf(&b, " %s [%s, %s] |", pctText(*c.WinRate), pctText(c.CI[0]), pctText(c.CI[1]))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
		if len(r.Ratings) > 0 {
			b.WriteString("| strategy | rating (Elo) [95% CI] |\n| --- | --- |\n")
			for _, x := range r.Ratings {
				fmt.Fprintf(&b, "| %s | %+.1f [%+.1f, %+.1f] |\n", x.Strategy, x.Elo, x.CI[0], x.CI[1])
			}
			b.WriteString("\n")
		} else {
			fmt.Fprintf(&b, "Ratings: %s\n\n", r.RatingsError)
		}
		if !plots.None {
			if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
				return err
			}
			if err := writeTournamentPlots(filepath.Join(dir, "plots"), suffix, r, plots.SaveOptions); err != nil {
				return err
			}
			if len(r.Ratings) > 0 {
				fmt.Fprintf(&b, "![ratings, %d players](plots/ratings%s.png)\n\n", r.Players, suffix)
			}
			fmt.Fprintf(&b, "![cross-table, %d players](plots/crosstable%s.png)\n\n", r.Players, suffix)
		}
	}
	b.WriteString("## How it was run\n\n")
	r0 := &rec.Tournaments[0]
	fmt.Fprintf(&b, "- %s (sha256 %s), seed %d, %s games a pair (whole deals, each in every seat rotation), duplicate deals from deal 0 for every pair\n",
		rec.Source, hashPrefix(rec.Hash), rec.Seed, thousands(r0.GamesPerPair))
	for _, s := range r0.Strategies {
		if g, ok := r0.GamesFor[s]; ok {
			fmt.Fprintf(&b, "- %s: at most %s games a pair (games-for)\n", s, thousands(g))
		}
	}
	opts := "the rule set's defaults"
	if ch := changedOptions(e.Tour.Options); len(ch) > 0 {
		var kv []string
		for _, c := range ch {
			kv = append(kv, c[0]+"="+c[1])
		}
		opts = strings.Join(kv, ", ")
	}
	fmt.Fprintf(&b, "- rules %s, options: %s\n", r0.Rules, opts)
	fmt.Fprintf(&b, "- unosim %s; %s to %s\n", version, rec.Start.UTC().Format(time.RFC3339), rec.End.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- rerun: `unosim experiment run %s --out DIR --games %d --seed %d`\n", strings.TrimPrefix(rec.Source, "builtin:"), rec.Games, rec.Seed)
	return sim.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(b.String()))
}
