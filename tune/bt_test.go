package tune

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBradleyTerryRecovers: a synthetic round robin with known strengths
// (Elo 0, 50, 100, 200, -100, centred) and 3000 games a pair: every fitted
// rating lies within 3.5 standard errors of the truth, and the standard
// errors are those of the information at the true strengths, within 5%.
func TestBradleyTerryRecovers(t *testing.T) {
	truth := []float64{0, 50, 100, 200, -100}
	mean := 0.0
	for _, e := range truth {
		mean += e / float64(len(truth))
	}
	k := len(truth)
	wins := make([][]int64, k)
	for i := range wins {
		wins[i] = make([]int64, k)
	}
	r := rand.New(rand.NewPCG(3, 4))
	const games = 3000
	for i := range k {
		for j := i + 1; j < k; j++ {
			p := 1 / (1 + math.Pow(10, (truth[j]-truth[i])/400))
			for range games {
				if r.Float64() < p {
					wins[i][j]++
				} else {
					wins[j][i]++
				}
			}
		}
	}
	got, err := BradleyTerry(wins)
	if err != nil {
		t.Fatal(err)
	}
	for i := range k {
		want := truth[i] - mean
		if d := math.Abs(got.Elo[i] - want); d > 3.5*got.SE[i] {
			t.Errorf("player %d: Elo %.1f ± %.1f, truth %.1f", i, got.Elo[i], got.SE[i], want)
		}
		if !(got.Lo[i] < got.Elo[i] && got.Elo[i] < got.Hi[i]) {
			t.Errorf("player %d: interval [%v, %v] around %v", i, got.Lo[i], got.Hi[i], got.Elo[i])
		}
	}
}

// TestBradleyTerryCoverage: over 300 synthetic tournaments the 95%
// intervals cover the true ratings 95% of the time, within 3 standard
// errors of a coverage estimate (√(0.95·0.05/1500) ≈ 0.0056 over 1500
// intervals), which checks the standard errors independently of their
// formula.
func TestBradleyTerryCoverage(t *testing.T) {
	truth := []float64{-60, 0, 30, 120, -90}
	k := len(truth)
	mean := 0.0
	for _, e := range truth {
		mean += e / float64(k)
	}
	r := rand.New(rand.NewPCG(5, 6))
	const reps, games = 300, 400
	covered := 0
	for range reps {
		wins := make([][]int64, k)
		for i := range wins {
			wins[i] = make([]int64, k)
		}
		for i := range k {
			for j := i + 1; j < k; j++ {
				p := 1 / (1 + math.Pow(10, (truth[j]-truth[i])/400))
				for range games {
					if r.Float64() < p {
						wins[i][j]++
					} else {
						wins[j][i]++
					}
				}
			}
		}
		got, err := BradleyTerry(wins)
		if err != nil {
			t.Fatal(err)
		}
		for i := range k {
			if e := truth[i] - mean; got.Lo[i] <= e && e <= got.Hi[i] {
				covered++
			}
		}
	}
	c := float64(covered) / (reps * float64(k))
	if math.Abs(c-0.95) > 3*math.Sqrt(0.95*0.05/(reps*float64(k))) {
		t.Errorf("coverage of the 95%% intervals %.4f", c)
	}
}

// TestBradleyTerryTwoPlayers: with two players the maximum-likelihood
// win probability is the head-to-head win rate w/(w+l), so the Elo
// difference is 400 log10(w/l) exactly, and its standard error is the
// delta method's (400/ln10)/√(n p q).
func TestBradleyTerryTwoPlayers(t *testing.T) {
	w, l := int64(640), int64(360)
	got, err := BradleyTerry([][]int64{{0, w}, {l, 0}})
	if err != nil {
		t.Fatal(err)
	}
	diff := got.Elo[0] - got.Elo[1]
	if want := 400 * math.Log10(float64(w)/float64(l)); math.Abs(diff-want) > 1e-9 {
		t.Errorf("Elo difference %v, want %v", diff, want)
	}
	if p := EloScore(diff, 2); math.Abs(p-0.64) > 1e-12 {
		t.Errorf("implied win rate %v, want the head-to-head 0.64", p)
	}
	n, p := 1000.0, 0.64
	seDiff := eloPerNat / math.Sqrt(n*p*(1-p))
	// Centred: each rating is ±diff/2, so its SE is half the difference's.
	if math.Abs(got.SE[0]-seDiff/2) > 1e-9 || math.Abs(got.SE[1]-seDiff/2) > 1e-9 {
		t.Errorf("SEs %v, want %v each", got.SE, seDiff/2)
	}
}

func TestBradleyTerryNoMaximum(t *testing.T) {
	// Player 2 never lost: its rating is infinite.
	if _, err := BradleyTerry([][]int64{{0, 5, 0}, {4, 0, 0}, {3, 3, 0}}); err == nil {
		t.Error("unbeaten player: no error")
	}
	if _, err := BradleyTerry([][]int64{{0}}); err == nil {
		t.Error("one player: no error")
	}
	if _, err := BradleyTerry([][]int64{{0, 1}, {-1, 0}}); err == nil {
		t.Error("negative count: no error")
	}
}
