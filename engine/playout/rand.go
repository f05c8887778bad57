package playout

// Rand is a xorshift64* generator: small, fast and deterministic for its
// seed, so that a playout costs nothing to set up and a seed replays it.
// The zero Rand is not usable (its state would stay zero): make one with
// NewRand or NewStream. A Rand is not safe for concurrent use.
type Rand struct{ x uint64 }

// NewRand returns a generator seeded from seed through a splitmix64 step, so
// that nearby seeds (one per playout, say) give unrelated streams.
func NewRand(seed uint64) Rand {
	seed += 0x9E3779B97F4A7C15
	seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9
	seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EB
	seed ^= seed >> 31
	if seed == 0 {
		seed = 1
	}
	return Rand{seed}
}

// NewStream returns the generator numbered stream among those of seed: one
// for each thread of a search, all different for one seed.
func NewStream(seed int64, stream int) Rand {
	x := uint64(seed)*0x9E3779B97F4A7C15 + uint64(stream+1)*0xD1B54A32D192ED03
	x ^= x >> 31
	if x == 0 {
		x = 0x2545F4914F6CDD1D
	}
	return Rand{x}
}

// Uint64 returns the next number of the stream.
func (r *Rand) Uint64() uint64 {
	x := r.x
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	r.x = x
	return x * 2685821657736338717
}

// Intn returns a number in [0, n); n must be positive.
func (r *Rand) Intn(n int) int { return int(((r.Uint64() >> 32) * uint64(n)) >> 32) }

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Chance reports true with probability p. A p of 0 or less is never true
// and one of 1 or more always, and neither draws a number, so that a policy
// step with a weight of 0 or 1 leaves the stream as it was.
func (r *Rand) Chance(p float64) bool {
	switch {
	case p <= 0:
		return false
	case p >= 1:
		return true
	}
	return r.Float64() < p
}
