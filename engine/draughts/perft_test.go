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
