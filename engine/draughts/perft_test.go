package draughts

import (
	"testing"
)

var perftStart = []uint64{1, 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423}

func TestPerftStart(t *testing.T) {
	max := 7
	if testing.Short() {
		max = 5
	}
	for d := 1; d <= max; d++ {
		if got := Perft(Start(), d); got != perftStart[d] {
			t.Errorf("Perft(start, %d) = %d, want %d", d, got, perftStart[d])
		}
	}
}

// TestPerftKings locks the counts from a position with kings on both
// sides. They are this package's own, not a published reference; Scan
// agrees with its move lists position by position (TestScanAgrees).
func TestPerftKings(t *testing.T) {
	p, err := ParseFEN("W:WK3,25,32,34,38:B9,19,22,24,K46")
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range []uint64{1, 6, 18, 198, 1992, 19580} {
		if got := Perft(p, d); got != want {
			t.Errorf("Perft(%s, %d) = %d, want %d", p.FEN(), d, got, want)
		}
	}
}

func BenchmarkPerft9(b *testing.B) {
	var leaves uint64
	for b.Loop() {
		if n := Perft(Start(), 9); n != perftStart[9] {
			b.Fatalf("Perft(start, 9) = %d, want %d", n, perftStart[9])
		}
		leaves += perftStart[9]
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
