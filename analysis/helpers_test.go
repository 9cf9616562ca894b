package analysis

import (
	"math"
	"testing"
)

// near reports whether got is within rel relative error of want (absolute
// error when want is 0). NaN is near NaN only; infinities must match exactly.
func near(got, want, rel float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0) || want == 0:
		return got == want || math.Abs(got-want) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// checkNear fails t unless got is near want (see near).
func checkNear(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if !near(got, want, rel) {
		t.Errorf("%s = %.17g, want %.17g (rel tol %g)", what, got, want, rel)
	}
}

// checkAbs fails t unless |got − want| <= tol.
func checkAbs(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.17g, want %.17g ± %g", what, got, want, tol)
	}
}

// checkNaN fails t unless every value is NaN.
func checkNaN(t *testing.T, what string, vals ...float64) {
	t.Helper()
	for i, v := range vals {
		if !math.IsNaN(v) {
			t.Errorf("%s[%d] = %v, want NaN", what, i, v)
		}
	}
}

// badConfidences are confidence levels outside the open interval (0, 1).
var badConfidences = []float64{0, 1, -0.5, 1.5, 95, math.NaN(), math.Inf(1), math.Inf(-1)}
