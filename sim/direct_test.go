package sim

import (
	"context"
	"encoding/csv"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
)

// direct plays the games of c with engine games built here, not by the
// runner, and counts every field of Stats from its definition, so that
// the runner's counting, merging and rotation are checked against an
// independent tally.
func direct(t *testing.T, c *Config) Stats {
	t.Helper()
	n := c.Players
	var distinct []string
	for _, sp := range c.LineUp {
		s := sp.String()
		found := false
		for _, d := range distinct {
			found = found || d == s
		}
		if !found {
			distinct = append(distinct, s)
		}
	}
	var want Stats
	want.WinsBySeat = make([]int64, n)
	want.WinsByPosition = make([]int64, n)
	want.FirstToActBySeat = make([]int64, n)
	want.WinsByStrategy = make([]int64, len(distinct))
	if c.Options.PlayForPlaces {
		want.PlacesBySeat = make([][]int64, n)
		for i := range want.PlacesBySeat {
			want.PlacesBySeat[i] = make([]int64, n)
		}
	}
	want.Events = map[string]int64{}
	for k := range engine.NumCounters {
		want.Events[k.String()] = 0
	}
	var last engine.Outcome
	games := map[int]*engine.Game{}
	lo, hi := c.Shard.Range(c.Games)
	for i := lo; i < hi; i++ {
		rot := 0
		if c.Seats == RotateSeats {
			rot = int(i % int64(n))
		}
		g := games[rot]
		if g == nil {
			ss := make([]engine.Strategy, n)
			for s := range ss {
				ss[s] = c.LineUp[(s+rot)%n].New()
			}
			var err error
			if g, err = engine.NewGame(c.Options, ss); err != nil {
				t.Fatal(err)
			}
			g.OnRound(func(rr *engine.RoundResult) {
				last = rr.Outcome
				if rr.Outcome == engine.Finished {
					pts := 0
					for p := 0; p < n; p++ {
						if p != rr.Winner {
							pts += rr.Left[p]
						}
					}
					want.RoundPoints.Add(pts)
				}
			})
			games[rot] = g
		}
		r := g.Play(c.Seed, uint64(i))
		want.Games++
		switch r.Outcome {
		case engine.Finished:
			want.Finished++
		case engine.Unfinished:
			want.Unfinished++
			if last == engine.Finished {
				want.MatchCapped++
			}
		case engine.Blocked:
			want.Blocked++
		}
		winners := 0
		won := make([]bool, len(distinct))
		for s := 0; s < n; s++ {
			if r.Winners&(1<<uint(s)) == 0 {
				continue
			}
			winners++
			want.WinsBySeat[s]++
			pos := (s + rot) % n
			want.WinsByPosition[pos]++
			for k, d := range distinct {
				if d == c.LineUp[pos].String() {
					won[k] = true
				}
			}
		}
		for k := range won {
			if won[k] {
				want.WinsByStrategy[k]++
			}
		}
		if r.Outcome == engine.Finished {
			switch winners {
			case 0:
				want.NoWinner++
			case 1:
				want.MatchPoints.Add(r.Scores[r.Winner])
			default:
				want.SharedWins++
			}
			if want.PlacesBySeat != nil {
				for k := 0; k < n; k++ {
					if s := r.Places[k]; s >= 0 {
						want.PlacesBySeat[s][k]++
					}
				}
			}
		}
		want.FirstToActBySeat[r.FirstToAct]++
		if r.Winners&(1<<uint(r.FirstToAct)) != 0 {
			want.FirstToActWins++
		}
		// Games come in index order: a strictly larger value replaces, so
		// ties keep the lowest index.
		if i == lo || r.Turns > want.Longest.Value {
			want.Longest = Extreme{i, r.Turns}
		}
		if i == lo || r.CardsDrawn > want.MostDrawn.Value {
			want.MostDrawn = Extreme{i, r.CardsDrawn}
		}
		want.Turns.Add(r.Turns)
		want.CardsPlayed.Add(r.CardsPlayed)
		want.CardsDrawn.Add(r.CardsDrawn)
		want.Rounds.Add(r.Rounds)
		for k, v := range r.Count {
			want.Events[engine.Counter(k).String()] += int64(v)
		}
	}
	return want
}

// compareStats compares every exported field of two Stats by name.
func compareStats(t *testing.T, what string, got, want *Stats) {
	t.Helper()
	gv, wv := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range gv.NumField() {
		f := gv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		g, w := gv.Field(i).Interface(), wv.Field(i).Interface()
		if gh, ok := g.(analysis.IntHist); ok {
			wh := w.(analysis.IntHist)
			if !gh.Equal(&wh) || gh.N() != wh.N() {
				t.Errorf("%s: %s: histograms differ (n %d vs %d, max %d vs %d)", what, f.Name, gh.N(), wh.N(), gh.Max(), wh.Max())
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s = %v, counted directly %v", what, f.Name, g, w)
		}
	}
}

// The runner's stats, with several workers, rotating seats and after
// merging shards, equal a direct count of the same games, field by field.
func TestStatsEqualDirectCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   func() *Config
		check func(t *testing.T, st *Stats)
	}{
		{"match, rotating seats, two strategies", func() *Config {
			c := config(t, 1500, 3, []string{"heuristic", "random", "heuristic:bluff=0.5"}, "scoring=winner-takes", "target=150")
			c.Seats = RotateSeats
			return c
		}, func(t *testing.T, st *Stats) {
			if st.Rounds.Max() < 2 || st.MatchPoints.N() == 0 {
				t.Errorf("matches of one round only: rounds max %d", st.Rounds.Max())
			}
		}},
		{"losers accumulate, highest loses: shared wins", func() *Config {
			return config(t, 1500, 4, []string{"random"}, "scoring=losers-accumulate", "losers-outcome=highest-loses", "target=60")
		}, func(t *testing.T, st *Stats) {
			if st.SharedWins == 0 {
				t.Errorf("no shared wins to check")
			}
		}},
		{"places, fixed seats, turn cap", func() *Config {
			return config(t, 1500, 4, []string{"random"}, "play-for-places=true", "max-turns=60")
		}, func(t *testing.T, st *Stats) {
			if st.Unfinished == 0 || st.Finished == 0 {
				t.Errorf("unfinished %d finished %d: the cap should cut some games", st.Unfinished, st.Finished)
			}
		}},
	} {
		c := tc.cfg()
		c.Workers = 3
		want := direct(t, c)
		if want.FirstToActWins == 0 {
			t.Fatalf("%s: no first-player wins to check", tc.name)
		}
		tc.check(t, &want)
		r := simulate(t, c)
		compareStats(t, tc.name+", 3 workers", &r.Stats, &want)

		var files []*StatsFile
		var names []string
		for i := range 3 {
			s := tc.cfg()
			s.Shard, s.Workers = Shard{i, 3}, 1
			files = append(files, simulate(t, s).File())
			names = append(names, s.Shard.String())
		}
		merged, err := Merge(files, names, false)
		if err != nil {
			t.Fatal(err)
		}
		compareStats(t, tc.name+", 3 shards merged", &merged.Stats, &want)
		sum := merged.Summary("test")
		if sum.FirstPlayer.Successes != want.FirstToActWins || sum.FirstPlayer.N != want.Games {
			t.Errorf("%s: merged summary: first player won %d of %d, counted %d of %d", tc.name,
				sum.FirstPlayer.Successes, sum.FirstPlayer.N, want.FirstToActWins, want.Games)
		}
	}
}

// --workers is honoured: the run says how many workers played.
func TestWorkersAreHonoured(t *testing.T) {
	for _, w := range []int{1, 3} {
		c := config(t, 4*chunk, 2, []string{"random"})
		c.Workers = w
		if r := simulate(t, c); r.Workers != w || r.File().Summary("t").Workers != w {
			t.Errorf("asked for %d workers, the run used %d", w, r.Workers)
		}
	}
}

// A match stopped by the 10,000-round cap is told apart from a round that
// hit max-turns.
func TestMatchCapIsNotTurnCap(t *testing.T) {
	c := config(t, 1, 2, []string{"random"})
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	st := NewStats(c)
	st.addRound(&engine.RoundResult{Outcome: engine.Finished, Winner: 0}, 2)
	st.add(c, 0, &engine.Result{Outcome: engine.Unfinished, Winner: -1, Rounds: engine.MaxRounds, FirstToAct: 0})
	st.addRound(&engine.RoundResult{Outcome: engine.Unfinished, Winner: -1}, 2)
	st.add(c, 1, &engine.Result{Outcome: engine.Unfinished, Winner: -1, Rounds: 3, FirstToAct: 1})
	if st.Unfinished != 2 || st.MatchCapped != 1 {
		t.Fatalf("unfinished %d, match capped %d; want 2 and 1", st.Unfinished, st.MatchCapped)
	}
	s := Summarize(c.Identity(), &st, 0, 2, true, 0, "t")
	if s.UnfinishedTurnCap != 1 || s.UnfinishedMatchCap != 1 {
		t.Fatalf("summary: turn cap %d, match cap %d", s.UnfinishedTurnCap, s.UnfinishedMatchCap)
	}
}

// summary.csv by value: the header and column order, exact integers,
// estimates at full precision and intervals in their own columns, checked
// against values computed outside the code.
func TestSummaryCSVByValue(t *testing.T) {
	c := config(t, 1265996, 2, []string{"heuristic", "random"})
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	st := NewStats(c)
	st.Games, st.Finished = 10, 10
	st.WinsBySeat = []int64{3, 7}
	st.WinsByPosition = []int64{3, 7}
	st.WinsByStrategy = []int64{3, 7}
	st.FirstToActWins = 3
	for v := 1; v <= 10; v++ {
		st.Turns.Add(v)
	}
	st.Events["turns_lost"] = 1265996
	s := Summarize(c.Identity(), &st, 0, 10, true, 2.5, "t")
	s.GamesPerSecond = 4
	text := s.CSV()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "rules,players,seats,strategies,options,seed,games,metric,value,ci_low,ci_high,n" {
		t.Fatalf("header %s", got)
	}
	byMetric := map[string][]string{}
	for _, r := range rows[1:] {
		if len(r) != 12 {
			t.Fatalf("row %v has %d fields", r, len(r))
		}
		if got := strings.Join(r[:7], ","); got != "classic,2,fixed,heuristic random,,3,1265996" {
			t.Fatalf("configuration columns %q", got)
		}
		byMetric[r[7]] = r[8:]
	}
	f := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	near := func(metric string, col int, want, tol float64) {
		t.Helper()
		if got := f(byMetric[metric][col]); math.Abs(got-want) > tol {
			t.Errorf("%s column %d: %v, want %v", metric, col, got, want)
		}
	}
	exact := func(metric string, col int, want string) {
		t.Helper()
		if got := byMetric[metric][col]; got != want {
			t.Errorf("%s column %d: %q, want %q", metric, col, got, want)
		}
	}
	exact("events_turns_lost", 0, "1265996") // not 1.266e+06
	exact("games", 0, "10")
	exact("turns_mean", 0, "5.5")
	// Student t interval of 1..10: 5.5 +- t(0.975, 9) * sd / sqrt(10), with
	// t(0.975, 9) = 2.262157 (published tables) and sd = sqrt(110/12).
	half := 2.262157 * math.Sqrt(110.0/12) / math.Sqrt(10)
	near("turns_mean", 1, 5.5-half, 1e-5)
	near("turns_mean", 2, 5.5+half, 1e-5)
	exact("turns_mean", 3, "10")
	// Type 1 quantiles of 1..10: the smallest value whose share reaches p.
	exact("turns_p10", 0, "1")
	exact("turns_p50", 0, "5")
	exact("turns_p90", 0, "9")
	exact("turns_p99", 0, "10")
	exact("turns_min", 0, "1")
	exact("turns_max", 0, "10")
	exact("turns_sd", 0, strconv.FormatFloat(math.Sqrt(110.0/12), 'g', -1, 64))
	// Wilson 95% interval of 3/10: [0.1078, 0.6032] (Newcombe 1998, table I).
	exact("win_rate_seat_0", 0, "0.3")
	near("win_rate_seat_0", 1, 0.1078, 1e-4)
	near("win_rate_seat_0", 2, 0.6032, 1e-4)
	exact("wins_seat_1", 0, "7")
	exact("first_player_wins", 0, "3")
	near("first_player_win_rate", 1, 0.1078, 1e-4)
	exact("win_rate_strategy_random", 0, "0.7")
	for _, m := range []string{"games_per_second", "elapsed_seconds"} {
		if _, ok := byMetric[m]; ok {
			t.Errorf("summary.csv carries %s: timing belongs in the JSON only", m)
		}
	}
}

// Two identical runs write identical summary.csv bytes, for any worker count.
func TestSummaryCSVIsReproducible(t *testing.T) {
	var want string
	for _, w := range []int{1, 3} {
		c := config(t, 3000, 3, []string{"heuristic"}, "stack-draw-two=true")
		c.Workers = w
		r, err := Simulate(context.Background(), c, nil, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		got := r.File().Summary("t").CSV()
		if want == "" {
			want = got
		} else if got != want {
			t.Fatalf("summary.csv differs between runs:\n%s\n%s", got, want)
		}
	}
	if !strings.Contains(want, ",stack-draw-two=true,") {
		t.Errorf("the options column does not name the changed option:\n%s", want[:200])
	}
}

// Merge adds every count: each integer field, slice and histogram of one
// Stats filled with distinct values, merged into another, holds the sum.
func TestMergeAddsEveryField(t *testing.T) {
	fill := func(st *Stats, base int64) {
		v := reflect.ValueOf(st).Elem()
		k := base
		for i := range v.NumField() {
			f := v.Field(i)
			if !v.Type().Field(i).IsExported() {
				continue
			}
			switch x := f.Addr().Interface().(type) {
			case *int64:
				k++
				*x = k
			case *[]int64:
				for j := range *x {
					k++
					(*x)[j] = k
				}
			case *[][]int64:
				for _, row := range *x {
					for j := range row {
						k++
						row[j] = k
					}
				}
			case *analysis.IntHist:
				k++
				x.Add(int(k % 50))
			case *map[string]int64:
				k++
				(*x)["turns_lost"] = k
			case *Extreme:
				k++
				*x = Extreme{Game: k, Value: int(k)}
			default:
				t.Fatalf("field %s of type %T: teach this test to fill it", v.Type().Field(i).Name, x)
			}
		}
	}
	c := config(t, 10, 3, []string{"heuristic", "random"}, "play-for-places=true")
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	a, b, want := NewStats(c), NewStats(c), NewStats(c)
	fill(&a, 0)
	fill(&b, 1000)
	a.Merge(&b)
	fill(&want, 0)
	wv, bv := reflect.ValueOf(&want).Elem(), reflect.ValueOf(&b).Elem()
	for i := range wv.NumField() {
		if !wv.Type().Field(i).IsExported() {
			continue
		}
		switch w := wv.Field(i).Addr().Interface().(type) {
		case *int64:
			*w += bv.Field(i).Int()
		case *[]int64:
			for j, x := range bv.Field(i).Interface().([]int64) {
				(*w)[j] += x
			}
		case *[][]int64:
			for r, row := range bv.Field(i).Interface().([][]int64) {
				for j, x := range row {
					(*w)[r][j] += x
				}
			}
		case *analysis.IntHist:
			o := bv.Field(i).Interface().(analysis.IntHist)
			w.Merge(&o)
		case *map[string]int64:
			(*w)["turns_lost"] += bv.Field(i).Interface().(map[string]int64)["turns_lost"]
		case *Extreme: // b's are larger: they win
			*w = bv.Field(i).Interface().(Extreme)
		}
	}
	compareStats(t, "merged", &a, &want)
}
