package tune

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// binomialObjective is a synthetic tune with a known optimum: a candidate
// at x wins each game with probability p(x) = 0.6 - 0.5 Σ ((x_i -
// opt_i)/range_i)², observed through binomial noise with common random
// numbers: game j of a generation is won by every candidate with p(x) >
// U_j, one uniform U_j per game shared by all candidates, the synthetic
// twin of duplicate deals.
type binomialObjective struct {
	opt, lo, hi []float64
	games       int
	seed        uint64
	calls       int
	// A game's score is scale·win + offset (scale 1, offset 0: the win):
	// an objective in other units and of another sign, as places or points.
	scale, offset int64
}

func (b *binomialObjective) p(x []float64) float64 {
	d := 0.0
	for i := range x {
		u := (x[i] - b.opt[i]) / (b.hi[i] - b.lo[i])
		d += u * u
	}
	return math.Max(0.02, 0.6-0.5*d)
}

func (b *binomialObjective) Evaluate(_ context.Context, gen int, points [][]float64) (Evaluation, error) {
	b.calls++
	r := rand.New(rand.NewPCG(b.seed, uint64(gen)))
	ps := make([]float64, len(points))
	for k, x := range points {
		ps[k] = b.p(x)
	}
	wins := make([]int64, len(points))
	scores := make([]int64, len(points))
	total := Scores{Per: int64(len(points))}
	scale := max(b.scale, 1)
	for range b.games {
		u := r.Float64()
		t := int64(0)
		for k, p := range ps {
			s := b.offset
			if u < p {
				wins[k]++
				s += scale
			}
			scores[k] += s
			t += s
		}
		total.Add(t)
	}
	return Evaluation{Scores: scores, Wins: wins, Games: int64(b.games), Total: total}, nil
}

// TestTunerFindsKnownOptimum: both methods, 40 generations of 20,000
// games per candidate, seed 1, find the optimum (0.3, 7) of a
// two-parameter synthetic objective in the box [0, 1] × [0, 10], starting
// from (0.8, 2), within 0.05 of each range. At 0.05 of the range the win
// rate is 0.5·0.05² = 0.00125 below the optimum's, about a third of a
// candidate's standard error (0.0035): the tolerance is what the noise
// allows, and the answer is the mean or iterate, never the best sample.
// The same holds for a score in other units and below zero (100 points a
// win, less 300 a game, the penalty in the same units, as the command sets
// it for places and points): the optimisers depend on neither scale nor
// sign.
func TestTunerFindsKnownOptimum(t *testing.T) {
	for _, c := range []struct {
		method        string
		scale, offset int64
	}{{"cmaes", 1, 0}, {"spsa", 1, 0}, {"cmaes", 100, -300}, {"spsa", 100, -300}} {
		method := c.method
		obj := &binomialObjective{opt: []float64{0.3, 7}, lo: []float64{0, 0}, hi: []float64{1, 10}, games: 20000, seed: 1, scale: c.scale, offset: c.offset}
		st, err := NewState(Setup{Names: []string{"a", "b"}, Lo: obj.lo, Hi: obj.hi, Start: []float64{0.8, 2},
			Method: method, Generations: 40, Seed: 1, Penalty: float64(c.scale)})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Run(context.Background(), obj, nil); err != nil {
			t.Fatal(err)
		}
		got := st.Answer()
		last := st.History[len(st.History)-1]
		t.Logf("%s: answer %.4v, last generation score %.4f [%.4f, %.4f], step %.3g", method, got, last.Score, last.CI[0], last.CI[1], last.Step)
		for i := range got {
			if d := math.Abs(got[i]-obj.opt[i]) / (obj.hi[i] - obj.lo[i]); d > 0.05 {
				t.Errorf("%s: parameter %d = %v, optimum %v (%.3f of the range away)", method, i, got[i], obj.opt[i], d)
			}
		}
		if len(st.History) != 40 || obj.calls != 40 {
			t.Errorf("%s: %d generations recorded, %d evaluated", method, len(st.History), obj.calls)
		}
		if !(last.CI[0] < last.Score && last.Score < last.CI[1]) || math.Abs(last.Score-(float64(c.scale)*last.WinRate+float64(c.offset))) > 1e-9 {
			t.Errorf("%s: interval %v around %v (win rate %v)", method, last.CI, last.Score, last.WinRate)
		}
	}
}

// TestTunerResume: a tune saved after generation 7 (as JSON, as the
// command saves it) and resumed ends exactly as the uninterrupted one.
func TestTunerResume(t *testing.T) {
	for _, method := range Methods {
		setup := Setup{Names: []string{"a"}, Lo: []float64{0}, Hi: []float64{1}, Start: []float64{0.9},
			Method: method, Generations: 15, Seed: 3, Penalty: 1}
		obj := &binomialObjective{opt: []float64{0.4}, lo: []float64{0}, hi: []float64{1}, games: 2000, seed: 9}
		a, _ := NewState(setup)
		if err := a.Run(context.Background(), obj, nil); err != nil {
			t.Fatal(err)
		}
		b, _ := NewState(setup)
		ctx, cancel := context.WithCancel(context.Background())
		var saved []byte
		err := b.Run(ctx, obj, func(s *State) error {
			if len(s.History) == 7 {
				saved, _ = json.Marshal(s)
				cancel()
				return ctx.Err()
			}
			return nil
		})
		if err == nil || saved == nil {
			t.Fatalf("%s: the interruption did not happen (%v)", method, err)
		}
		var c State
		if err := json.Unmarshal(saved, &c); err != nil {
			t.Fatal(err)
		}
		if err := c.Restore(); err != nil {
			t.Fatal(err)
		}
		if err := c.Run(context.Background(), obj, nil); err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jc, _ := json.Marshal(&c)
		if string(ja) != string(jc) {
			t.Errorf("%s: resumed tune differs:\n%s\n%s", method, ja, jc)
		}
	}
}

func TestSetupCheck(t *testing.T) {
	good := Setup{Names: []string{"a"}, Lo: []float64{0}, Hi: []float64{1}, Start: []float64{0.5}, Method: "cmaes", Generations: 1}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(*Setup){
		"no params":   func(s *Setup) { s.Names, s.Lo, s.Hi, s.Start = nil, nil, nil, nil },
		"empty box":   func(s *Setup) { s.Hi = []float64{0} },
		"start out":   func(s *Setup) { s.Start = []float64{2} },
		"method":      func(s *Setup) { s.Method = "grid" },
		"generations": func(s *Setup) { s.Generations = 0 },
	} {
		s := good
		f(&s)
		if err := s.Check(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
