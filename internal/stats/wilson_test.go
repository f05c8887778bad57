package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	tests := []struct {
		wins, n float64
		lo, hi  float64
	}{
		{8, 10, 0.4902, 0.9433},
		{0, 0, 0, 1},
		{20, 20, 0.8389, 1},
		{0, 20, 0, 0.1611},
		{30, 60, 0.3773, 0.6227},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.wins, tt.n, Z95)
		if math.Abs(lo-tt.lo) > 5e-4 || math.Abs(hi-tt.hi) > 5e-4 {
			t.Errorf("Wilson(%v, %v) = %.4f–%.4f, want %.4f–%.4f", tt.wins, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestWilsonDraughtsLadder(t *testing.T) {
	lo, hi := Wilson(32, 40, Z95)
	if math.Abs(lo-0.6518) > 0.001 || math.Abs(hi-0.8953) > 0.001 {
		t.Errorf("Wilson(32, 40) = %.4f–%.4f, want 0.6518–0.8953", lo, hi)
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = %v–%v, want 0–1", lo, hi)
	}
}
