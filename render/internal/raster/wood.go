package raster

import "math"

// GrainLines returns the darkness of the boards' late-wood lines at u
// (0..800): thin lines a few pixels apart, of varying strength, from a
// fixed pseudo-random sequence so that every picture has the same board.
func GrainLines(u float64) float64 {
	s := 0.0
	seed := uint32(0x9e3779b9)
	next := func() float64 {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return float64(seed%10000) / 10000
	}
	for p := -20.0; p < 820; {
		p += 5 + 14*next()
		strength := 0.25 + 0.75*next()
		width := 0.7 + 1.6*next()
		if d := (u - p) / width; d > -4 && d < 4 {
			s += strength * math.Exp(-d*d)
		}
	}
	return math.Min(1, s)
}
