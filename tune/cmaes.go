package tune

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// CMAES is the (μ/μ_w, λ) covariance matrix adaptation evolution strategy
// of Hansen's tutorial (2016, appendix A, positive recombination weights
// only, default parameters of table 1), maximising. The exported fields
// are its whole state: a copy saved after Tell and loaded again continues
// exactly, because the samples of generation g are drawn from a stream
// keyed by (Seed, g) alone.
type CMAES struct {
	Seed   uint64      `json:"seed"`
	Gen    int         `json:"generation"` // generations told so far
	Mean   []float64   `json:"mean"`
	Sigma  float64     `json:"sigma"`
	C      [][]float64 `json:"covariance"`
	Pc     []float64   `json:"path_c"`
	Ps     []float64   `json:"path_sigma"`
	Lambda int         `json:"lambda"`

	// Derived from Lambda and the dimension, and the samples of the
	// current generation: not state.
	mu                               int
	w                                []float64
	muEff, cc, cs, c1, cmu, ds, chiN float64
	b                                *mat.Dense // eigenvectors of C
	d                                []float64  // square roots of its eigenvalues
	ys                               [][]float64
}

// NewCMAES starts a search at mean with step size sigma; lambda 0 takes
// the default population 4 + ⌊3 ln n⌋.
func NewCMAES(mean []float64, sigma float64, lambda int, seed uint64) (*CMAES, error) {
	n := len(mean)
	if n == 0 {
		return nil, errors.New("CMA-ES: no parameters")
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("CMA-ES: step size %v, want > 0", sigma)
	}
	if lambda == 0 {
		lambda = 4 + int(3*math.Log(float64(n)))
	}
	if lambda < 2 {
		return nil, fmt.Errorf("CMA-ES: population %d, want at least 2", lambda)
	}
	c := &CMAES{Seed: seed, Mean: slices.Clone(mean), Sigma: sigma, Lambda: lambda,
		Pc: make([]float64, n), Ps: make([]float64, n), C: make([][]float64, n)}
	for i := range c.C {
		c.C[i] = make([]float64, n)
		c.C[i][i] = 1
	}
	return c, c.init()
}

// Restore checks a state read back from a file and prepares it.
func (c *CMAES) Restore() error {
	n := len(c.Mean)
	if n == 0 || len(c.Pc) != n || len(c.Ps) != n || len(c.C) != n || c.Lambda < 2 || !(c.Sigma > 0) {
		return errors.New("CMA-ES: damaged state")
	}
	for _, r := range c.C {
		if len(r) != n {
			return errors.New("CMA-ES: damaged state")
		}
	}
	return c.init()
}

// init computes the strategy parameters (tutorial, table 1) and the
// eigendecomposition of C.
func (c *CMAES) init() error {
	n := float64(len(c.Mean))
	lam := c.Lambda
	c.mu = lam / 2
	c.w = make([]float64, c.mu)
	sum := 0.0
	for i := range c.w {
		c.w[i] = math.Log(float64(lam+1)/2) - math.Log(float64(i+1))
		sum += c.w[i]
	}
	sq := 0.0
	for i := range c.w {
		c.w[i] /= sum
		sq += c.w[i] * c.w[i]
	}
	c.muEff = 1 / sq
	c.cs = (c.muEff + 2) / (n + c.muEff + 5)
	c.ds = 1 + 2*math.Max(0, math.Sqrt((c.muEff-1)/(n+1))-1) + c.cs
	c.cc = (4 + c.muEff/n) / (n + 4 + 2*c.muEff/n)
	c.c1 = 2 / ((n+1.3)*(n+1.3) + c.muEff)
	c.cmu = math.Min(1-c.c1, 2*(c.muEff-2+1/c.muEff)/((n+2)*(n+2)+c.muEff))
	c.chiN = math.Sqrt(n) * (1 - 1/(4*n) + 1/(21*n*n))
	return c.decompose()
}

func (c *CMAES) decompose() error {
	n := len(c.Mean)
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (c.C[i][j]+c.C[j][i])/2)
		}
	}
	var e mat.EigenSym
	if !e.Factorize(s, true) {
		return errors.New("CMA-ES: covariance matrix eigendecomposition failed")
	}
	vals := e.Values(nil)
	c.d = make([]float64, n)
	for i, v := range vals {
		c.d[i] = math.Sqrt(math.Max(v, 1e-300))
	}
	c.b = mat.NewDense(n, n, nil)
	e.VectorsTo(c.b)
	return nil
}

// Ask returns the λ points of the current generation: x_k = m + σ B D z_k,
// z_k standard normal from the stream (Seed, Gen).
func (c *CMAES) Ask() [][]float64 {
	n := len(c.Mean)
	r := rand.New(rand.NewPCG(c.Seed, 0xc3a5<<48|uint64(c.Gen))) // a purpose tag, then the generation
	c.ys = make([][]float64, c.Lambda)
	xs := make([][]float64, c.Lambda)
	z := make([]float64, n)
	for k := range xs {
		for i := range z {
			z[i] = r.NormFloat64()
		}
		y := make([]float64, n)
		x := make([]float64, n)
		for i := range n {
			for j := range n {
				y[i] += c.b.At(i, j) * c.d[j] * z[j]
			}
			x[i] = c.Mean[i] + c.Sigma*y[i]
		}
		c.ys[k], xs[k] = y, x
	}
	return xs
}

// Tell updates the distribution with the values (higher is better) of the
// points of the last Ask, in order.
func (c *CMAES) Tell(values []float64) error {
	if len(values) != c.Lambda || len(c.ys) != c.Lambda {
		return fmt.Errorf("CMA-ES: %d values for %d points", len(values), len(c.ys))
	}
	n := len(c.Mean)
	order := make([]int, c.Lambda)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(values[b], values[a]) })
	yw := make([]float64, n)
	for i := range c.mu {
		y := c.ys[order[i]]
		for j := range n {
			yw[j] += c.w[i] * y[j]
		}
	}
	for j := range n {
		c.Mean[j] += c.Sigma * yw[j]
	}
	// C^{-1/2} y_w = B D⁻¹ Bᵀ y_w.
	t := make([]float64, n)
	for j := range n {
		for i := range n {
			t[j] += c.b.At(i, j) * yw[i]
		}
		t[j] /= c.d[j]
	}
	inv := make([]float64, n)
	for i := range n {
		for j := range n {
			inv[i] += c.b.At(i, j) * t[j]
		}
	}
	ks := math.Sqrt(c.cs * (2 - c.cs) * c.muEff)
	norm := 0.0
	for i := range n {
		c.Ps[i] = (1-c.cs)*c.Ps[i] + ks*inv[i]
		norm += c.Ps[i] * c.Ps[i]
	}
	norm = math.Sqrt(norm)
	c.Gen++
	hs := 0.0
	if norm/math.Sqrt(1-math.Pow(1-c.cs, 2*float64(c.Gen))) < (1.4+2/(float64(n)+1))*c.chiN {
		hs = 1
	}
	kc := math.Sqrt(c.cc * (2 - c.cc) * c.muEff)
	for i := range n {
		c.Pc[i] = (1-c.cc)*c.Pc[i] + hs*kc*yw[i]
	}
	dh := (1 - hs) * c.cc * (2 - c.cc)
	for i := range n {
		for j := range n {
			rank := 0.0
			for k := range c.mu {
				y := c.ys[order[k]]
				rank += c.w[k] * y[i] * y[j]
			}
			c.C[i][j] = (1+c.c1*dh-c.c1-c.cmu)*c.C[i][j] + c.c1*c.Pc[i]*c.Pc[j] + c.cmu*rank
		}
	}
	c.Sigma *= math.Exp(c.cs / c.ds * (norm/c.chiN - 1))
	c.ys = nil
	return c.decompose()
}
