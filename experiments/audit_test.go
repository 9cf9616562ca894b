package experiments

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/unosim/unosim/sim"
)

// Tests that close gaps a fault-injection audit found: each would have
// passed with a one-line fault in the code it names.

// PairStats.add files each yes/no outcome in [both, A only, B only, neither].
func TestPairStatsCellsFromOutcomes(t *testing.T) {
	var p PairStats
	a := outcome{first: true, won: 1 << 0}
	b := outcome{first: false, won: 1 << 1}
	both := outcome{first: true, unfinished: true}
	p.add(&a, &b)       // first: A only; position 0: A only; 1: B only
	p.add(&b, &a)       // first: B only; position 0: B only; 1: A only
	p.add(&both, &both) // first: both; unfinished: both
	if p.First != [4]int64{1, 1, 1, 0} {
		t.Errorf("first-player table %v, want [1 1 1 0]", p.First)
	}
	if p.Unfinished != [4]int64{1, 0, 0, 2} {
		t.Errorf("unfinished table %v, want [1 0 0 2]", p.Unfinished)
	}
	if p.Position[0] != [4]int64{0, 1, 1, 1} || p.Position[1] != [4]int64{0, 1, 1, 1} || p.Position[2] != [4]int64{0, 0, 0, 3} {
		t.Errorf("position tables %v %v %v, want [0 1 1 1] [0 1 1 1] [0 0 0 3]", p.Position[0], p.Position[1], p.Position[2])
	}
	// A wins position 0 in 3 games, B never: A only 3.
	var q PairStats
	for range 3 {
		q.add(&outcome{won: 1}, &outcome{})
	}
	if q.Position[0] != [4]int64{0, 3, 0, 0} {
		t.Errorf("A-only wins filed as %v, want [0 3 0 0]", q.Position[0])
	}
}

// pairedTest's estimates are A's and B's own proportions and means; one
// discordant side is enough to test; a single pair is not.
func TestPairedTestEstimates(t *testing.T) {
	p := PairStats{N: 100, First: [4]int64{10, 7, 3, 80}}
	tt := pairedTest(&p, Metric{Kind: MetricFirstPlayer})
	if math.Abs(tt.EstA-0.17) > 1e-15 || math.Abs(tt.EstB-0.13) > 1e-15 {
		t.Errorf("estimates %v and %v, want 0.17 ((10+7)/100) and 0.13 ((10+3)/100)", tt.EstA, tt.EstB)
	}
	for _, tab := range [][4]int64{{0, 5, 0, 95}, {0, 0, 5, 95}} {
		one := PairStats{N: 100, First: tab}
		if tt := pairedTest(&one, Metric{Kind: MetricFirstPlayer}); tt.NotTestable != "" || math.IsNaN(tt.P) {
			t.Errorf("table %v, 5 discordant pairs on one side: not testable %q, P %v; want a test", tab, tt.NotTestable, tt.P)
		}
	}
	var n PairStats
	for _, d := range [][2]int64{{10, 6}, {12, 8}, {9, 9}, {11, 5}} {
		n.N++
		n.Turns.add(d[0], d[1])
	}
	if tt := pairedTest(&n, Metric{Kind: MetricTurns}); tt.EstA != 10.5 || tt.EstB != 7 || tt.Effect != 3.5 {
		t.Errorf("turns: estimates %v and %v, effect %v; want 10.5, 7 and 3.5", tt.EstA, tt.EstB, tt.Effect)
	}
	single := PairStats{N: 1}
	single.Turns.add(10, 5)
	if tt := pairedTest(&single, Metric{Kind: MetricTurns}); tt.NotTestable != "fewer than 2 paired games" || !math.IsNaN(tt.P) {
		t.Errorf("one pair: not testable %q, P %v; want fewer than 2 paired games", tt.NotTestable, tt.P)
	}
}

// A paired t-test without variance is no test, whatever the mean: every
// difference 0 (the cells agree) or every difference the same c ≠ 0, where
// t = c/0 and its limit p = 0 used to be counted in Holm's family (R's
// t.test(c(2, 2, 2)) stops: "data are essentially constant"), as the
// tournament's rates and match's difference are not testable when every
// deal gave the same result.
func TestPairedTestNoVariance(t *testing.T) {
	for _, c := range []struct {
		d    int64
		want string
	}{
		{0, "every paired difference is 0: the cells agree on every game"},
		{2, "every paired difference is +2: with no variance the t test is undefined"},
		{-3, "every paired difference is -3: with no variance the t test is undefined"},
	} {
		var p PairStats
		for i := range int64(50) {
			p.N++
			p.Turns.add(20+i+c.d, 20+i)
		}
		tt := pairedTest(&p, Metric{Kind: MetricTurns})
		if tt.NotTestable != c.want || !math.IsNaN(tt.P) || tt.Effect != float64(c.d) {
			t.Errorf("every difference %d: not testable %q, P %v, effect %v; want %q, NaN and %d", c.d, tt.NotTestable, tt.P, tt.Effect, c.want, c.d)
		}
	}
}

// The one-sample test is the score test (variance p0(1-p0)/n, not the
// estimate's): 60 of 100 against 0.5 is z = 2, p = erfc(√2) =
// 0.04550026389635842 (a normal table's 2·(1 − Φ(2)) = 0.0455003).
func TestOneSampleScoreTestPublished(t *testing.T) {
	tt := oneSampleTest(60, 100, 0.5)
	if math.Abs(tt.P-0.04550026389635842) > 1e-12 {
		t.Errorf("P %v, want 0.04550026389635842 (z = 2)", tt.P)
	}
	if math.Abs(tt.Effect-0.1) > 1e-15 {
		t.Errorf("effect %v, want 0.1", tt.Effect)
	}
}

// against: fair tests each cell against 1/players: 50 first-player wins of
// 100 three-player games is z = (1/2 − 1/3)/√(2/900) = 5/√2, p = erfc(2.5)
// = 0.000406952017444959 (Abramowitz and Stegun table 7.1: erfc 2.5 =
// 4.0695201744e-4).
func TestFairShareIsOneOverPlayers(t *testing.T) {
	e := mustParse(t, `name: fair
games: 100
grids:
  - players: [3]
compare:
  - metric: first-player
    against: fair
`)
	r := emptyResult(e)
	for i := range r.Cells {
		r.Cells[i].Stats = sim.NewStats(&e.Cells[i].Config)
		r.Cells[i].Stats.Games, r.Cells[i].Stats.Finished, r.Cells[i].Stats.FirstToActWins = 100, 100, 50
	}
	tests := r.Tests()
	if len(tests) != 1 {
		t.Fatalf("%d tests, want 1: %+v", len(tests), tests)
	}
	tt := tests[0]
	if math.Abs(tt.EstB-1.0/3) > 1e-15 || !strings.Contains(tt.Name, "fair share 0.3333") {
		t.Errorf("%s: tested against %v, want 1/3", tt.Name, tt.EstB)
	}
	if math.Abs(tt.P-0.000406952017444959) > 1e-12 {
		t.Errorf("P %v, want erfc(2.5) = 0.000406952017444959", tt.P)
	}
}

// The findings name only what survives Holm's correction: a raw p of 0.01
// adjusted to 0.2 is no finding.
func TestFindingsUseHolmAdjustedP(t *testing.T) {
	e := mustParse(t, `name: f
games: 100
grids:
  - options:
      official: {}
      a: {stack-draw-two: true}
compare:
  - axis: options
    baseline: official
    metrics: [turns]
`)
	r := emptyResult(e)
	tt := Test{Name: "a vs official (options)", Metric: "turns", Method: methodPairedT, N: 100,
		EstA: 31, EstB: 30, Effect: 1, EffectLo: 0.2, EffectHi: 1.8, P: 0.01, PHolm: 0.2, cell: 1}
	var b strings.Builder
	r.effectFindings(&b, []Test{tt})
	if s := b.String(); !strings.Contains(s, "no test finds a difference") {
		t.Errorf("a test with p_holm 0.2 is reported as a finding:\n%s", s)
	}
}

// capped's games all end at the 20-turn cap: its interval of turns is
// narrow from the first batch on, official's is not.
const twoSpeeds = `name: speeds
seed: 7
games: 400
batch: 200
grids:
  - options:
      official: {}
      capped: {max-turns: 20}
compare:
  - axis: options
    baseline: official
    metrics: [turns]
`

// --ci-width stops a cell at the end of its second batch at the earliest,
// even when the first is narrow enough; and a run resumed after a cell
// stopped leaves that cell stopped.
func TestCIWidthTwoBatchesAndResumeKeepsStops(t *testing.T) {
	e := mustParse(t, twoSpeeds)
	o := RunOptions{Games: 2000, CIWidth: 1, Workers: 2}
	want := run(t, e, o)
	if g := want.Cells[1].Stats.Games; g != 400 {
		t.Fatalf("capped played %d games, want 400 (two batches of 200: never fewer than two)", g)
	}
	if g := want.Cells[0].Stats.Games; g != 2000 {
		t.Fatalf("official played %d games, want the 2000 limit", g)
	}
	var resume *StatsFile
	for stops := 0; ; stops++ {
		ctx, cancel := context.WithCancel(context.Background())
		ro := o
		ro.Resume, ro.CheckpointGames = resume, 150 // checkpoints inside batches too: no batch check on resuming there
		ro.Checkpoint = func(*Result) error { cancel(); return nil }
		r, err := e.Run(ctx, ro)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(r.File([]byte(twoSpeeds), o.Shard))
		resume = &StatsFile{}
		if err := json.Unmarshal(data, resume); err != nil {
			t.Fatal(err)
		}
		if r.Complete {
			if stops == 0 {
				t.Fatal("never stopped")
			}
			break
		}
	}
	for i := range want.Cells {
		if a, b := statsJSON(t, &want.Cells[i].Stats), statsJSON(t, &resume.Cells[i].Stats); a != b {
			t.Errorf("cell %s: %d games after resuming, %d uninterrupted", e.Cells[i].Label, resume.Cells[i].Stats.Games, want.Cells[i].Stats.Games)
		}
	}
}
