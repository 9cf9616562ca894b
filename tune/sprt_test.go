package tune

import (
	"math"
	"math/rand/v2"
	"testing"
)

// runSPRT feeds Bernoulli(p) games to t until it decides, and returns the
// decision and the games used.
func runSPRT(t *SPRT, p float64, r *rand.Rand) (Decision, int64) {
	s := Scores{Per: 1}
	for {
		w := int64(0)
		if r.Float64() < p {
			w = 1
		}
		s.Add(w)
		if d := t.Decide(s); d != Undecided {
			return d, s.N
		}
	}
}

// TestSPRTErrorRates: over many runs of a Bernoulli source, the test
// accepts H1 at H0 with probability alpha and H0 at H1 with probability
// beta, within sampling error, and takes about Wald's expected number of
// games.
func TestSPRTErrorRates(t *testing.T) {
	const runs = 1500
	tt, err := NewSPRT(0.5, 0.52, 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		p     float64
		wrong Decision
		rate  float64
	}{{0.5, AcceptH1, tt.Alpha}, {0.52, AcceptH0, tt.Beta}} {
		wrong, games := 0, int64(0)
		for range runs {
			d, n := runSPRT(tt, c.p, r)
			if d == c.wrong {
				wrong++
			}
			games += n
		}
		rate := float64(wrong) / runs
		se := math.Sqrt(c.rate * (1 - c.rate) / runs)
		// Wald's bounds make the true error rates at most about alpha and
		// beta (the overshoot makes them a little smaller): accept anything
		// within 3 standard errors below or above.
		if math.Abs(rate-c.rate) > 3*se {
			t.Errorf("p = %v: wrong decisions %.4f, want %.2f within %.4f", c.p, rate, c.rate, 3*se)
		}
		mean := float64(games) / runs
		want := tt.ExpectedUnits(c.p, c.p*(1-c.p))
		t.Logf("p = %v: error rate %.4f (want %.2f), mean games %.0f, Wald's expected %.0f", c.p, rate, c.rate, mean, want)
		// Wald's formula ignores the overshoot and the variance estimated on
		// the way: the measured mean is within a few percent (1500 runs:
		// 3258 and 3288 against 3312 and 3307).
		if mean < 0.9*want || mean > 1.25*want {
			t.Errorf("p = %v: mean games %.0f, Wald's approximation %.0f", c.p, mean, want)
		}
	}
}

// TestSPRTExpectedUnits checks Wald's formula against its closed forms at
// H0 and H1: E0[N] = ((1-α) ln B + α ln A)/E0[z] and E1[N] = (β ln B + (1-β)
// ln A)/E1[z] with E[z] = ∓(P1-P0)²/(2v) (Wald 1945, eq. 4.9 with L(P0) =
// 1-α and L(P1) = β exactly in the normal case, ignoring overshoot).
func TestSPRTExpectedUnits(t *testing.T) {
	tt, _ := NewSPRT(0.5, 0.52, 0.05, 0.1)
	v := 0.25
	lnA, lnB := math.Log(0.9/0.05), math.Log(0.1/0.95)
	d2 := 0.02 * 0.02 / (2 * v)
	want0 := (0.95*lnB + 0.05*lnA) / -d2
	want1 := (0.1*lnB + 0.9*lnA) / d2
	if got := tt.ExpectedUnits(0.5, v); math.Abs(got-want0) > 1e-6*want0 {
		t.Errorf("E0[N] = %v, want %v", got, want0)
	}
	if got := tt.ExpectedUnits(0.52, v); math.Abs(got-want1) > 1e-6*want1 {
		t.Errorf("E1[N] = %v, want %v", got, want1)
	}
	mid := tt.ExpectedUnits(0.51, v)
	if near := tt.ExpectedUnits(0.51+1e-7, v); math.Abs(mid-near) > 1e-3*mid {
		t.Errorf("midpoint E[N] %v is not the limit %v", mid, near)
	}
}

// TestSPRTPaired: units of two games (a deal in both seats) are scored by
// their own mean and variance.
func TestSPRTPaired(t *testing.T) {
	tt, _ := NewSPRT(0.5, 0.6, 0.05, 0.05)
	s := Scores{Per: 2}
	for i := range 400 { // one win in nine deals of ten, two in the tenth
		w := int64(1)
		if i%10 == 0 {
			w = 2 // some deals won in both seats: mean 0.55
		}
		s.Add(w)
	}
	if got := s.Mean(); math.Abs(got-0.55) > 1e-12 {
		t.Fatalf("mean %v", got)
	}
	// v = E[x²] - m² with x = 0.5 nine times in ten and 1 once.
	wantV := 0.9*0.25 + 0.1*1 - 0.55*0.55
	if got := s.Variance(); math.Abs(got-wantV) > 1e-12 {
		t.Fatalf("variance %v, want %v", got, wantV)
	}
	if got := tt.LLR(s); math.Abs(got) > 1e-9 { // the midpoint: LLR 0
		t.Errorf("LLR at the midpoint %v", got)
	}
}

func TestSPRTBadInput(t *testing.T) {
	for _, c := range [][4]float64{{0.5, 0.5, 0.05, 0.05}, {0.6, 0.5, 0.05, 0.05}, {0, 0.5, 0.05, 0.05}, {0.5, 1, 0.05, 0.05}, {0.5, 0.6, 0, 0.05}, {0.5, 0.6, 0.05, 0.5}} {
		if _, err := NewSPRT(c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("NewSPRT%v: no error", c)
		}
	}
}

func TestEloScore(t *testing.T) {
	// Two players: 400 points is odds of 10 to 1 (the definition of the Elo scale).
	if got := EloScore(400, 2); math.Abs(got-10.0/11) > 1e-15 {
		t.Errorf("EloScore(400, 2) = %v", got)
	}
	if got := EloScore(0, 4); got != 0.25 {
		t.Errorf("EloScore(0, 4) = %v, want the fair share 0.25", got)
	}
	for _, e := range []float64{-200, -3, 0, 17, 350} {
		for _, n := range []int{2, 3, 6} {
			if got := ScoreElo(EloScore(e, n), n); math.Abs(got-e) > 1e-9 {
				t.Errorf("ScoreElo(EloScore(%v, %d)) = %v", e, n, got)
			}
		}
	}
}
