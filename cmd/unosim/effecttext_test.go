package main

import "testing"

// The terminal's effects are signed, and differences of proportions are
// in percentage points, as in the report.
func TestEffectText(t *testing.T) {
	for _, c := range []struct {
		numeric     bool
		est, lo, hi float64
		want        string
	}{
		{false, 0.0903, 0.0872, 0.0933, "+9.03 pp [+8.72, +9.33]"},
		{false, -0.0011, -0.0037, 0.0016, "-0.11 pp [-0.37, +0.16]"},
		{true, -0.02, -0.2, 0.16, "-0.02 [-0.20, +0.16]"},
	} {
		if got := effectText(c.numeric, c.est, c.lo, c.hi); got != c.want {
			t.Errorf("effectText(%v, %v, %v, %v) = %q, want %q", c.numeric, c.est, c.lo, c.hi, got, c.want)
		}
	}
}
