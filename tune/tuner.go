package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/sim"
)

// Evaluator scores the candidates of a generation: every candidate plays
// the same fresh deals of that generation (points are parameter values,
// inside the bounds).
type Evaluator interface {
	Evaluate(ctx context.Context, gen int, points [][]float64) (Evaluation, error)
}

// Evaluation is a generation's result: per candidate the sum of its
// games' scores (higher is better; an Objective's) and its wins, the games
// each played, and the per-deal total scores of all candidates (for the
// generation's interval).
type Evaluation struct {
	Scores []int64
	Wins   []int64
	Games  int64
	Total  Scores
}

// Setup describes a tune.
type Setup struct {
	Names       []string  `json:"names"`
	Lo          []float64 `json:"lo"`
	Hi          []float64 `json:"hi"`
	Start       []float64 `json:"start"`  // parameter values
	Method      string    `json:"method"` // cmaes or spsa
	Generations int       `json:"generations"`
	Seed        uint64    `json:"seed"`
	// Penalty is subtracted from a candidate's mean score per squared
	// normalised distance outside the box (Hansen's repair-and-penalise
	// boundary handling): candidates are played at the nearest point
	// inside, and the search is pulled back in. In the score's units: 1
	// for a win rate, Objective.Range for others.
	Penalty float64 `json:"penalty"`
}

// Methods are the valid values of Setup.Method.
var Methods = []string{"cmaes", "spsa"}

// Check validates the setup.
func (s *Setup) Check() error {
	n := len(s.Names)
	if n == 0 {
		return errors.New("no parameters to tune")
	}
	if len(s.Lo) != n || len(s.Hi) != n || len(s.Start) != n {
		return errors.New("bounds and start need one value per parameter")
	}
	for i := range n {
		if !(s.Lo[i] < s.Hi[i]) {
			return fmt.Errorf("parameter %s: bounds %v:%v, want low < high", s.Names[i], s.Lo[i], s.Hi[i])
		}
		if !(s.Start[i] >= s.Lo[i] && s.Start[i] <= s.Hi[i]) {
			return fmt.Errorf("parameter %s: start %v outside its bounds %v:%v", s.Names[i], s.Start[i], s.Lo[i], s.Hi[i])
		}
	}
	if !slices.Contains(Methods, s.Method) {
		return fmt.Errorf("method %q (valid: cmaes, spsa)", s.Method)
	}
	if s.Generations < 1 {
		return fmt.Errorf("generations %d: want at least 1", s.Generations)
	}
	return nil
}

// Record is one finished generation. Scores are means per game, higher
// better (an Objective's: the win rate under Win).
type Record struct {
	Generation int        `json:"generation"` // 1, 2, ...
	Mean       []float64  `json:"mean"`       // parameter values of the answer after it
	Step       float64    `json:"step"`       // σ (CMA-ES) or the gain a_k (SPSA), normalised units
	Score      float64    `json:"score"`      // mean score of the generation's candidates
	CI         [2]float64 `json:"ci"`         // its 95% interval (deals as the units)
	WinRate    float64    `json:"win_rate"`   // mean win rate of the generation's candidates
	Games      int64      `json:"games"`      // games played in the generation
	Best       float64    `json:"best_score"`
	BestParams []float64  `json:"best_params"` // the best noisy candidate: for progress only, never the answer
}

// State is a tune after its last finished generation: enough to resume.
type State struct {
	Setup   Setup    `json:"setup"`
	CMAES   *CMAES   `json:"cmaes,omitempty"`
	SPSA    *SPSA    `json:"spsa,omitempty"`
	History []Record `json:"history"`
}

// NewState starts a tune.
func NewState(s Setup) (*State, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	st := &State{Setup: s}
	u := st.normalise(s.Start)
	var err error
	switch s.Method {
	case "cmaes":
		// σ 0.3 of the range: Hansen's advice of about a quarter to a third
		// of the interval where the optimum is expected.
		st.CMAES, err = NewCMAES(u, 0.3, 0, s.Seed)
	case "spsa":
		// c: 0.1 of the range; a first step of 0.2 of the range (their
		// gains over 40 iterations sum to about 17 first steps). Measured on
		// the synthetic test objective over seeds 1-7: a first step of 0.1
		// ends 0.03-0.12 of the range short of the optimum after 40
		// iterations, 0.2 within 0.03.
		st.SPSA, err = NewSPSA(u, s.Generations, 0.1, 0.2, s.Seed)
	}
	return st, err
}

// Optimizer is the state's search.
func (st *State) Optimizer() Optimizer {
	if st.CMAES != nil {
		return st.CMAES
	}
	return st.SPSA
}

// Restore checks a state read back from a file.
func (st *State) Restore() error {
	if err := st.Setup.Check(); err != nil {
		return err
	}
	if (st.CMAES == nil) == (st.SPSA == nil) || (st.CMAES != nil) != (st.Setup.Method == "cmaes") {
		return errors.New("tune state: no search of its method")
	}
	if len(st.History) > st.Setup.Generations {
		return errors.New("tune state: more generations than planned")
	}
	return st.Optimizer().Restore()
}

func (st *State) normalise(x []float64) []float64 {
	u := make([]float64, len(x))
	for i := range x {
		u[i] = (x[i] - st.Setup.Lo[i]) / (st.Setup.Hi[i] - st.Setup.Lo[i])
	}
	return u
}

// Params maps normalised coordinates to parameter values, repaired into
// the box, and returns the squared distance of the repair.
func (st *State) Params(u []float64) ([]float64, float64) {
	x := make([]float64, len(u))
	d2 := 0.0
	for i, v := range u {
		c := math.Max(0, math.Min(1, v))
		d2 += (v - c) * (v - c)
		x[i] = st.Setup.Lo[i] + c*(st.Setup.Hi[i]-st.Setup.Lo[i])
	}
	return x, d2
}

// Answer is the current answer in parameter values.
func (st *State) Answer() []float64 {
	x, _ := st.Params(st.Optimizer().Answer())
	return x
}

// Candidates is the number of points a generation evaluates.
func (st *State) Candidates() int {
	if st.CMAES != nil {
		return st.CMAES.Lambda
	}
	return 2
}

// Done reports whether every generation is finished.
func (st *State) Done() bool { return len(st.History) >= st.Setup.Generations }

// Step runs the next generation and records it.
func (st *State) Step(ctx context.Context, ev Evaluator) error {
	opt := st.Optimizer()
	us := opt.Ask()
	points := make([][]float64, len(us))
	pen := make([]float64, len(us))
	for i, u := range us {
		points[i], pen[i] = st.Params(u)
	}
	gen := len(st.History)
	e, err := ev.Evaluate(ctx, gen, points)
	if err != nil {
		return err
	}
	if len(e.Scores) != len(us) || len(e.Wins) != len(us) || e.Games < 1 {
		return fmt.Errorf("evaluation of generation %d: %d scores and %d wins over %d games for %d candidates", gen+1, len(e.Scores), len(e.Wins), e.Games, len(us))
	}
	values := make([]float64, len(us))
	rec := Record{Generation: gen + 1, Best: math.Inf(-1)}
	for i := range values {
		m := float64(e.Scores[i]) / float64(e.Games)
		values[i] = m - st.Setup.Penalty*pen[i]
		if m > rec.Best {
			rec.Best, rec.BestParams = m, points[i]
		}
		rec.WinRate += float64(e.Wins[i]) / float64(e.Games) / float64(len(us))
		rec.Games += e.Games
	}
	if err := opt.Tell(values); err != nil {
		return err
	}
	rec.Mean, rec.Step = st.Answer(), opt.Step()
	rec.Score, rec.CI[0], rec.CI[1] = unitsCI(e.Total)
	st.History = append(st.History, rec)
	return nil
}

// unitsCI is the mean score of the units and its 95% Student t interval,
// the units (deals) being independent.
func unitsCI(s Scores) (mean, lo, hi float64) {
	r := UnitsCI(s)
	return r.Mean, r.Lo, r.Hi
}

// UnitsCI is the Student t interval (95%) and test of the mean score per
// game of independent units, scaled from the units' scores.
func UnitsCI(s Scores) analysis.MeanCI {
	r := analysis.PairedSums(s.N, s.Sum, uint64(s.SumSq)).Test(sim.Confidence)
	p := float64(s.Per)
	r.Mean, r.Lo, r.Hi, r.SD, r.SE = r.Mean/p, r.Lo/p, r.Hi/p, r.SD/p, r.SE/p
	return r
}

// Run runs the remaining generations, calling after (may be nil) when each
// is finished, for example to save the state.
func (st *State) Run(ctx context.Context, ev Evaluator, after func(*State) error) error {
	for !st.Done() {
		if err := st.Step(ctx, ev); err != nil {
			return err
		}
		if after != nil {
			if err := after(st); err != nil {
				return err
			}
		}
	}
	return nil
}
