package tune

import (
	"fmt"
	"math"
)

// Decision is the state of a sequential test.
type Decision uint8

// The decisions of an SPRT.
const (
	Undecided Decision = iota
	AcceptH0
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "undecided"
}

// Scores sums the outcomes of independent units (a deal played in every
// seat rotation, or a single game): unit i scored W_i wins out of Per games.
// Integers only, so merging in any order gives the same sums.
type Scores struct {
	Per   int64 // games per unit
	N     int64 // units
	Sum   int64 // Σ W_i
	SumSq int64 // Σ W_i²
}

// Add records a unit with w wins.
func (s *Scores) Add(w int64) {
	s.N++
	s.Sum += w
	s.SumSq += w * w
}

// Merge adds o's units to s.
func (s *Scores) Merge(o Scores) {
	s.N += o.N
	s.Sum += o.Sum
	s.SumSq += o.SumSq
}

// Mean is the mean score per game, Sum/(N Per), NaN without units.
func (s Scores) Mean() float64 {
	if s.N == 0 || s.Per == 0 {
		return math.NaN()
	}
	return float64(s.Sum) / float64(s.N*s.Per)
}

// Variance is the variance of one unit's score W/Per, with divisor N (the
// maximum-likelihood estimate the SPRT uses); NaN without units.
func (s Scores) Variance() float64 {
	if s.N == 0 || s.Per == 0 {
		return math.NaN()
	}
	n, p := float64(s.N), float64(s.Per)
	m := float64(s.Sum) / n
	return math.Max(0, float64(s.SumSq)/n-m*m) / (p * p)
}

// SPRT is Wald's sequential probability ratio test of H0: score = P0
// against H1: score = P1, where the score is the expected fraction of games
// won per unit. A unit may hold correlated games (a deal in every seat
// rotation): the test uses the units' observed variance, so it stays valid
// for paired outcomes.
//
// The log-likelihood ratio of N units with mean score m and variance v is
// approximated, as in fishtest, by that of normal scores,
//
//	LLR = N (P1 - P0) (2m - P0 - P1) / (2v),
//
// and the test stops at LLR <= ln(β/(1-α)) (accept H0) or LLR >=
// ln((1-β)/α) (accept H1) (Wald 1945, section 3.2).
type SPRT struct {
	P0, P1      float64
	Alpha, Beta float64
	lower       float64 // ln(β/(1-α))
	upper       float64 // ln((1-β)/α)
}

// NewSPRT makes the test; 0 < p0 < p1 < 1 and alpha, beta in (0, 0.5).
func NewSPRT(p0, p1, alpha, beta float64) (*SPRT, error) {
	if !(p0 > 0 && p0 < p1 && p1 < 1) {
		return nil, fmt.Errorf("SPRT hypotheses %v:%v: want 0 < H0 < H1 < 1", p0, p1)
	}
	if !(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5) {
		return nil, fmt.Errorf("SPRT error rates alpha %v, beta %v: want each in (0, 0.5)", alpha, beta)
	}
	return &SPRT{P0: p0, P1: p1, Alpha: alpha, Beta: beta,
		lower: math.Log(beta / (1 - alpha)), upper: math.Log((1 - beta) / alpha)}, nil
}

// Bounds are the log-likelihood ratios at which the test stops.
func (t *SPRT) Bounds() (lower, upper float64) { return t.lower, t.upper }

// LLR is the log-likelihood ratio of the units in s; 0 while the variance
// is not yet positive (no information about the spread).
func (t *SPRT) LLR(s Scores) float64 {
	v := s.Variance()
	if s.N < 2 || !(v > 0) {
		return 0
	}
	return float64(s.N) * (t.P1 - t.P0) * (2*s.Mean() - t.P0 - t.P1) / (2 * v)
}

// Decide is the decision after the units in s.
func (t *SPRT) Decide(s Scores) Decision {
	switch llr := t.LLR(s); {
	case llr <= t.lower:
		return AcceptH0
	case llr >= t.upper:
		return AcceptH1
	}
	return Undecided
}

// ExpectedUnits is Wald's approximation of the expected number of units
// the test takes when the true score is p and a unit's score has variance
// v (Wald 1945, equations 4.9 and 4.11, for normal observations): with h =
// (P0 + P1 - 2p)/(P1 - P0), the probability of accepting H0 is L = (A^h -
// 1)/(A^h - B^h), and E[N] = (L ln B + (1-L) ln A)/E[z], z the LLR of one
// unit, or -ln A ln B / E[z²] at the midpoint. It ignores the overshoot of
// the bounds and the estimation of v; measured means are within a few
// percent (see the tests).
func (t *SPRT) ExpectedUnits(p, v float64) float64 {
	if !(v > 0) {
		return math.NaN()
	}
	d := t.P1 - t.P0
	ez := d * (2*p - t.P0 - t.P1) / (2 * v)
	lnA, lnB := t.upper, t.lower
	h := (t.P0 + t.P1 - 2*p) / d
	if math.Abs(h) < 1e-9 {
		return -lnA * lnB / (d * d / v)
	}
	ah, bh := math.Exp(h*lnA), math.Exp(h*lnB)
	l := (ah - 1) / (ah - bh)
	return (l*lnB + (1-l)*lnA) / ez
}

// EloScore is the expected score of a player rated elo points above each of
// the other players-1 seats at a table of players, by Luce's choice rule:
// r/(r + players - 1) with r = 10^(elo/400); for two players it is the
// logistic Elo curve 1/(1 + 10^(-elo/400)).
func EloScore(elo float64, players int) float64 {
	r := math.Pow(10, elo/400)
	return r / (r + float64(players) - 1)
}

// ScoreElo inverts EloScore.
func ScoreElo(score float64, players int) float64 {
	return 400 * math.Log10(score*(float64(players)-1)/(1-score))
}
