package bots

import "github.com/gobot-dev/gobot/engine"

// The weights of Minimax's evaluation, in points (one point is one stone on
// the board or one point of territory, as area scoring counts).
const (
	evalCapturable = 1.8  // per stone of the side not to move in atari: taken next
	evalInAtari    = 0.5  // per stone of the side to move in atari
	evalShort      = 0.15 // per stone of a chain with two liberties
	evalLiberty    = 0.05 // per liberty, counted up to four a chain
	evalCapture    = 2    // per prisoner, on top of the stones it removed
	evalNear       = 0.3  // an empty point much nearer one colour
	evalLean       = 0.1  // an empty point a little nearer one colour
	evalTempo      = 2.0  // having the move
)

// evaluate returns the heuristic value of b for toPlay: area (stones plus
// an influence estimate of territory) less komi, corrected for chains in
// atari or short of liberties and for captures.
func (s *search) evaluate(b *engine.Board, toPlay engine.Color) float64 {
	var stones, tactics [3]float64
	area := b.Area()
	for v := 0; v < area; v++ {
		c := b.ColorAt(v)
		if c == engine.Empty {
			continue
		}
		stones[c]++
		if b.Chain(v) != v {
			continue
		}
		size := float64(b.ChainSize(v))
		libs := b.Liberties(v, 4)
		switch libs {
		case 1:
			if c == toPlay {
				tactics[c] -= evalInAtari * size
			} else {
				tactics[c] -= evalCapturable * size
			}
		case 2:
			tactics[c] -= evalShort * size
		}
		tactics[c] += evalLiberty * float64(libs)
	}
	terr := s.influence(b)
	black := stones[engine.Black] + terr + tactics[engine.Black] + evalCapture*float64(b.Captures(engine.Black))
	white := stones[engine.White] + tactics[engine.White] + evalCapture*float64(b.Captures(engine.White)) + s.komi
	v := black - white
	if toPlay == engine.White {
		v = -v
	}
	return v + evalTempo
}

// influence estimates territory: Black's empty points less White's, where
// an empty point belongs to the colour whose stones are nearer through empty
// points, fully when clearly nearer and by half when only a little, and to
// no one beyond minimaxTerritoryCap.
func (s *search) influence(b *engine.Board) float64 {
	db := s.distances(b, engine.Black, s.dist[0])
	dw := s.distances(b, engine.White, s.dist[1])
	t := 0.0
	n := b.EmptyCount()
	for i := 0; i < n; i++ {
		v := b.EmptyVertex(i)
		x, y := db[v], dw[v]
		switch {
		case x < y:
			if y-x >= 2 {
				t += evalNear
			} else {
				t += evalLean
			}
		case y < x:
			if x-y >= 2 {
				t -= evalNear
			} else {
				t -= evalLean
			}
		}
	}
	return t
}

// distances fills d with each empty point's distance through empty points
// from c's nearest stone, up to minimaxTerritoryCap (farther points get
// the cap plus one).
func (s *search) distances(b *engine.Board, c engine.Color, d []int8) []int8 {
	const far = minimaxTerritoryCap + 1
	q := s.queue[:0]
	n := b.EmptyCount()
	for i := 0; i < n; i++ {
		v := b.EmptyVertex(i)
		d[v] = far
		if b.NeighbourCount(v, c) > 0 {
			d[v] = 1
			q = append(q, int16(v))
		}
	}
	for head := 0; head < len(q); head++ {
		v := int(q[head])
		next := d[v] + 1
		if next >= far {
			continue
		}
		for _, u := range b.Neighbours(v) {
			if b.ColorAt(u) == engine.Empty && !b.IsBorder(u) && d[u] > next {
				d[u] = next
				q = append(q, int16(u))
			}
		}
	}
	s.queue = q
	return d
}
