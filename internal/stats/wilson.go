package stats

import "math"

// Z95 is the normal quantile for a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for wins successes out of n
// trials at normal quantile z (Z95 for 95%). Half wins (draws) are allowed.
// With no trials the interval is [0, 1].
func Wilson(wins, n, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := wins / n
	z2 := z * z
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
