package tune

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// eloPerNat converts a log-strength (natural log) to Elo points: 400/ln 10.
var eloPerNat = 400 / math.Ln10

// z95 is the two-sided 95% normal critical value, Φ⁻¹(0.975).
const z95 = 1.959963984540054

// Ratings are Bradley-Terry strengths on the Elo scale: P(i beats j) =
// 1/(1 + 10^((Elo_j - Elo_i)/400)). They are centred (mean 0).
type Ratings struct {
	Elo    []float64
	SE     []float64 // standard errors in Elo points
	Lo, Hi []float64 // 95% intervals
	Iter   int       // MM iterations used
}

// BradleyTerry fits the Bradley-Terry model by maximum likelihood to
// wins[i][j], the number of times i beat j, with the MM algorithm of
// Hunter (2004), section 2:
//
//	γ_i ← W_i / Σ_{j≠i} n_ij / (γ_i + γ_j),
//
// W_i the wins of i and n_ij the games between i and j, which increases the
// likelihood at every step and converges to the maximum when it exists.
// The maximum exists (Hunter's assumption 1, Zermelo 1929) exactly when
// for every split of the players into two groups someone of each group
// beat someone of the other: otherwise the error names a player whose
// rating is infinite.
//
// The standard errors come from the observed information of the
// log-strengths θ = ln γ (equal to the expected one in this model),
// I_ii = Σ_j n_ij p_ij p_ji, I_ij = -n_ij p_ij p_ji, which is singular in
// the direction of a common shift; the covariance of the centred ratings
// is its Moore-Penrose inverse, (I + 11ᵀ/k)⁻¹ - 11ᵀ/k. The games are
// taken as independent; duplicate deals make them positively correlated
// within a deal, which this ignores.
func BradleyTerry(wins [][]int64) (*Ratings, error) {
	k := len(wins)
	if k < 2 {
		return nil, errors.New("Bradley-Terry: need at least two players")
	}
	for i := range wins {
		if len(wins[i]) != k {
			return nil, fmt.Errorf("Bradley-Terry: row %d has %d entries for %d players", i, len(wins[i]), k)
		}
		for j, w := range wins[i] {
			if w < 0 || (i == j && w != 0) {
				return nil, fmt.Errorf("Bradley-Terry: wins[%d][%d] = %d", i, j, w)
			}
		}
	}
	if p := unreachable(wins); p >= 0 {
		return nil, fmt.Errorf("Bradley-Terry: no finite ratings: player %d and those it beat never beat, or never lost to, the rest", p)
	}
	w := make([]float64, k)
	for i := range k {
		for j := range k {
			w[i] += float64(wins[i][j])
		}
	}
	n := func(i, j int) float64 { return float64(wins[i][j] + wins[j][i]) }
	g := make([]float64, k)
	for i := range g {
		g[i] = 1
	}
	next := make([]float64, k)
	r := &Ratings{}
	for r.Iter = 1; r.Iter <= 100000; r.Iter++ {
		for i := range k {
			d := 0.0
			for j := range k {
				if j != i {
					d += n(i, j) / (g[i] + g[j])
				}
			}
			next[i] = w[i] / d
		}
		// Centre the log-strengths (the model fixes only differences).
		m := 0.0
		for i := range next {
			m += math.Log(next[i])
		}
		m /= float64(k)
		change := 0.0
		for i := range next {
			v := next[i] / math.Exp(m)
			change = math.Max(change, math.Abs(math.Log(v)-math.Log(g[i])))
			g[i] = v
		}
		if change < 1e-12 {
			break
		}
	}
	info := mat.NewDense(k, k, nil)
	for i := range k {
		for j := range k {
			if i == j || n(i, j) == 0 {
				continue
			}
			p := g[i] / (g[i] + g[j])
			v := n(i, j) * p * (1 - p)
			info.Set(i, j, info.At(i, j)-v)
			info.Set(i, i, info.At(i, i)+v)
		}
	}
	for i := range k {
		for j := range k {
			info.Set(i, j, info.At(i, j)+1/float64(k))
		}
	}
	var cov mat.Dense
	if err := cov.Inverse(info); err != nil {
		return nil, fmt.Errorf("Bradley-Terry: information matrix: %w", err)
	}
	for i := range k {
		e := eloPerNat * math.Log(g[i])
		se := eloPerNat * math.Sqrt(math.Max(0, cov.At(i, i)-1/float64(k)))
		r.Elo = append(r.Elo, e)
		r.SE = append(r.SE, se)
		r.Lo = append(r.Lo, e-z95*se)
		r.Hi = append(r.Hi, e+z95*se)
	}
	return r, nil
}

// unreachable returns a player from which some other cannot be reached in
// the graph "i beat j" (or j cannot reach it), or -1 when the graph is
// strongly connected.
func unreachable(wins [][]int64) int {
	k := len(wins)
	reach := func(from int, edge func(a, b int) bool) []bool {
		seen := make([]bool, k)
		seen[from] = true
		stack := []int{from}
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for b := range k {
				if !seen[b] && edge(a, b) {
					seen[b] = true
					stack = append(stack, b)
				}
			}
		}
		return seen
	}
	fwd := reach(0, func(a, b int) bool { return wins[a][b] > 0 })
	back := reach(0, func(a, b int) bool { return wins[b][a] > 0 })
	for i := range k {
		if !fwd[i] || !back[i] {
			return i
		}
	}
	return -1
}
