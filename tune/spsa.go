package tune

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Optimizer is a search that proposes points and learns from their values
// (higher is better), one generation at a time. Its exported fields are its
// whole state (JSON); Restore prepares a state read back from a file.
type Optimizer interface {
	Ask() [][]float64
	Tell(values []float64) error
	Answer() []float64 // the current answer: CMA-ES's mean, SPSA's iterate
	Step() float64     // CMA-ES's step size σ, SPSA's gain a_k
	Restore() error
}

// Answer is the distribution's mean.
func (c *CMAES) Answer() []float64 { return slices.Clone(c.Mean) }

// Step is the step size σ.
func (c *CMAES) Step() float64 { return c.Sigma }

// SPSA is Spall's simultaneous perturbation stochastic approximation,
// maximising, in the unit box: at iteration k it evaluates θ ± c_k Δ with
// Δ a vector of independent ±1 (from the stream (Seed, k)), estimates the
// gradient ĝ_i = (f(θ + c_k Δ) - f(θ - c_k Δ))/(2 c_k Δ_i) and steps θ ←
// θ + a_k ĝ, projected onto [0, 1]^n, with the gains of Spall (1998):
//
//	a_k = a/(k + 1 + A)^α, c_k = c/(k + 1)^γ, α = 0.602, γ = 0.101, A = N/10,
//
// N the planned iterations. a is calibrated as Spall recommends, so that a
// first step of mean size |ĝ| moves θ by Target: a = Target (A + 1)^α /
// mean |ĝ|, where the mean is over the non-zero gradient estimates of
// iterations 0 to k while k <= A (Spall suggests averaging several
// estimates at θ_0; a single noisy one can make a far too large; an exact
// zero, frequent with common random numbers, says nothing of the scale),
// then frozen. MaxStep bounds each coordinate's step.
type SPSA struct {
	Seed       uint64    `json:"seed"`
	K          int       `json:"iteration"` // iterations done
	Theta      []float64 `json:"theta"`
	Iterations int       `json:"iterations"`
	A          float64   `json:"A"`
	Alpha      float64   `json:"alpha"`
	Gamma      float64   `json:"gamma"`
	Gain       float64   `json:"a"`
	GradSum    float64   `json:"grad_sum"` // Σ mean |ĝ_k| over the calibration iterations
	GradN      int       `json:"grad_n"`   // the non-zero estimates in GradSum
	C          float64   `json:"c"`
	Target     float64   `json:"target"`
	MaxStep    float64   `json:"max_step"`

	delta []float64
}

// NewSPSA starts at theta (in the unit box) for the planned iterations,
// with perturbation c and the first step target (normalised units).
func NewSPSA(theta []float64, iterations int, c, target float64, seed uint64) (*SPSA, error) {
	s := &SPSA{Seed: seed, Theta: slices.Clone(theta), Iterations: iterations,
		A: 0.1 * float64(iterations), Alpha: 0.602, Gamma: 0.101, C: c, Target: target, MaxStep: 2 * target}
	return s, s.Restore()
}

// Restore checks the state.
func (s *SPSA) Restore() error {
	switch {
	case len(s.Theta) == 0:
		return errors.New("SPSA: no parameters")
	case s.Iterations < 1:
		return fmt.Errorf("SPSA: %d iterations, want at least 1", s.Iterations)
	case !(s.C > 0 && s.C < 1):
		return fmt.Errorf("SPSA: perturbation %v, want in (0, 1)", s.C)
	case !(s.Target > 0) || !(s.MaxStep > 0) || s.Gain < 0:
		return errors.New("SPSA: damaged state")
	}
	return nil
}

func (s *SPSA) ck() float64 { return s.C / math.Pow(float64(s.K+1), s.Gamma) }

func (s *SPSA) ak() float64 {
	return s.Gain / math.Pow(float64(s.K+1)+s.A, s.Alpha)
}

// Ask returns θ + c_k Δ and θ - c_k Δ.
func (s *SPSA) Ask() [][]float64 {
	r := rand.New(rand.NewPCG(s.Seed, 0x5b5a<<48|uint64(s.K))) // a purpose tag, then the iteration
	n := len(s.Theta)
	s.delta = make([]float64, n)
	plus, minus := make([]float64, n), make([]float64, n)
	c := s.ck()
	for i := range n {
		s.delta[i] = 1
		if r.Uint64()&1 == 0 {
			s.delta[i] = -1
		}
		plus[i] = s.Theta[i] + c*s.delta[i]
		minus[i] = s.Theta[i] - c*s.delta[i]
	}
	return [][]float64{plus, minus}
}

// Tell takes the values of the two points of the last Ask.
func (s *SPSA) Tell(values []float64) error {
	if len(values) != 2 || s.delta == nil {
		return fmt.Errorf("SPSA: %d values, want the 2 of the last Ask", len(values))
	}
	c := s.ck()
	g := make([]float64, len(s.Theta))
	mean := 0.0
	for i := range g {
		g[i] = (values[0] - values[1]) / (2 * c * s.delta[i])
		mean += math.Abs(g[i]) / float64(len(g))
	}
	if (float64(s.K) <= s.A || s.GradN == 0) && mean > 0 {
		s.GradSum += mean
		s.GradN++
		s.Gain = s.Target * math.Pow(s.A+1, s.Alpha) / (s.GradSum / float64(s.GradN))
	}
	a := s.ak()
	for i := range s.Theta {
		step := math.Max(-s.MaxStep, math.Min(s.MaxStep, a*g[i]))
		s.Theta[i] = math.Max(0, math.Min(1, s.Theta[i]+step))
	}
	s.K++
	s.delta = nil
	return nil
}

// Answer is the current iterate.
func (s *SPSA) Answer() []float64 { return slices.Clone(s.Theta) }

// Step is the gain a_k of the next iteration (0 before the first).
func (s *SPSA) Step() float64 { return s.ak() }
