package mcts

import "github.com/gobot-dev/gobot/engine"

// Grid values for scoring.
const (
	gEmpty = int8(engine.Empty)
	gBlack = int8(engine.Black)
	gWhite = int8(engine.White)
	gEdge  = int8(3)
)

// rng is a xorshift64* generator: small, fast and deterministic.
type rng struct{ x uint64 }

func newRNG(seed int64, stream int) rng {
	x := uint64(seed)*0x9E3779B97F4A7C15 + uint64(stream+1)*0xD1B54A32D192ED03
	x ^= x >> 31
	if x == 0 {
		x = 0x2545F4914F6CDD1D
	}
	return rng{x}
}

func (r *rng) next() uint64 {
	x := r.x
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	r.x = x
	return x * 2685821657736338717
}

// intn returns a number in [0, n).
func (r *rng) intn(n int) int { return int(((r.next() >> 32) * uint64(n)) >> 32) }

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// policy chooses the playout move of c, the opponent having just played at
// last (0 for a pass or none): answer ataris next to the last move, capture
// near it, play shape moves around it, else a random move that fills no
// eye of c and is no self-atari.
func (w *worker) policy(b *engine.Board, c engine.Color, last int) int {
	if last != engine.PassVertex {
		if w.rng.float() < w.s.params.capture {
			if v := w.tacticalMove(b, c, last); v != 0 {
				return v
			}
		}
		if w.rng.float() < w.s.params.pattern {
			if v := w.patternMove(b, c, last); v != 0 {
				return v
			}
		}
	}
	return w.randomMove(b, c)
}

// tacticalMove returns a random move among the escapes of c's chains put in
// atari by the last move and the captures of opponent chains in atari next
// to the last move, or 0.
func (w *worker) tacticalMove(b *engine.Board, c engine.Color, last int) int {
	cands := w.cand[:0]
	opp := c.Opponent()
	for _, n := range b.Neighbours(last) {
		if b.ColorAt(n) != c || !b.InAtari(n) {
			continue
		}
		cands = capturesAround(cands, b, n, len(w.cand))
		l := b.AtariLiberty(n)
		if libs, captures, _ := moveLiberties(b, l, c, 2); libs >= 2 || captures {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 {
		if b.ColorAt(last) == opp && b.InAtari(last) {
			cands = append(cands, b.AtariLiberty(last))
		}
		for _, n := range b.Neighbours(last) {
			if b.ColorAt(n) == opp && b.InAtari(n) {
				cands = append(cands, b.AtariLiberty(n))
			}
		}
		for _, n := range b.Diagonals(last) {
			if b.ColorAt(n) == opp && b.InAtari(n) {
				cands = append(cands, b.AtariLiberty(n))
			}
		}
	}
	return w.pickCandidate(b, c, cands)
}

// patternMove returns a random shape move among the empty neighbours of
// the last move, or 0. It reads the 5×5 square around the last move once
// and builds the 3×3 codes of the eight points around it from that.
func (w *worker) patternMove(b *engine.Board, c engine.Color, last int) int {
	s := w.s.stride
	var sq [25]int
	for dy := -2; dy <= 2; dy++ {
		row := (dy + 2) * 5
		for dx := -2; dx <= 2; dx++ {
			q := last + dy*s + dx
			switch {
			case q < 0 || q >= len(w.s.edge) || w.s.edge[q]:
				sq[row+dx+2] = pvEdge
			default:
				sq[row+dx+2] = int(b.ColorAt(q))
			}
		}
	}
	cands := w.cand[:0]
	for i, off := range patternOffsets {
		ci := (off[1]+2)*5 + off[0] + 2 // centre of the 3×3 in sq
		if sq[ci] != pvEmpty {
			continue
		}
		code := sq[ci-6] | sq[ci-5]<<2 | sq[ci-4]<<4 | sq[ci-1]<<6 | sq[ci+1]<<8 |
			sq[ci+4]<<10 | sq[ci+5]<<12 | sq[ci+6]<<14
		if patterns[code] {
			cands = append(cands, last+w.s.nbOffsets[i])
		}
	}
	return w.pickCandidate(b, c, cands)
}

// pickCandidate returns a random candidate that is legal, fills no eye of c
// and is no self-atari, or 0.
func (w *worker) pickCandidate(b *engine.Board, c engine.Color, cands []int) int {
	for len(cands) > 0 {
		i := w.rng.intn(len(cands))
		v := cands[i]
		if b.Legal(v, c) && !b.IsEye(v, c) {
			if sa, _ := isSelfAtari(b, v, c); !sa {
				return v
			}
		}
		cands[i] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
	}
	return 0
}

// randomMove returns a random legal move of c that fills none of its eyes
// and is no self-atari of two stones or more; single-stone self-atari
// (throw-ins, nakade) only when nothing else is left; else a pass.
func (w *worker) randomMove(b *engine.Board, c engine.Color) int {
	n := b.EmptyCount()
	if n == 0 {
		return engine.PassVertex
	}
	fallback := engine.PassVertex
	i := w.rng.intn(n)
	for k := 0; k < n; k++ {
		v := b.EmptyVertex(i)
		if i++; i == n {
			i = 0
		}
		if b.IsEye(v, c) || !b.Legal(v, c) {
			continue
		}
		if sa, size := isSelfAtari(b, v, c); sa {
			if size == 1 && fallback == engine.PassVertex {
				fallback = v
			}
			continue
		}
		return v
	}
	return fallback
}

// simulate plays b out from c to move until both players pass, records the
// first player of every point for AMAF, and returns the area score (Black
// minus White, without komi).
func (w *worker) simulate(b *engine.Board, c engine.Color, passes, last, depth int) float64 {
	limit := 3 * w.s.size * w.s.size
	for i := 0; i < limit && passes < 2; i++ {
		v := w.policy(b, c, last)
		b.Play(v, c)
		if v == engine.PassVertex {
			passes++
		} else {
			passes = 0
			w.recordAMAF(v, c, depth)
		}
		last = v
		c = c.Opponent()
		depth++
	}
	return w.scoreBoard(b, true)
}

// recordAMAF notes that c played v at the given depth, unless v was played
// earlier in this simulation.
func (w *worker) recordAMAF(v int, c engine.Color, depth int) {
	if w.amafStamp[v] == w.stamp {
		return
	}
	w.amafStamp[v] = w.stamp
	w.amafColor[v] = c
	w.amafDepth[v] = int32(depth)
}

// loadGrid copies b into the worker's scoring grid (whose border is set
// once, in newWorker).
func (w *worker) loadGrid(b *engine.Board) {
	for _, v := range w.s.points {
		w.grid[v] = int8(b.ColorAt(v))
	}
}

// scoreBoard counts b by area: stones plus empty regions that reach only
// one colour. With own set it adds the owners to the ownership counts.
func (w *worker) scoreBoard(b *engine.Board, own bool) float64 {
	w.loadGrid(b)
	return w.scoreGrid(own)
}

// scoreGrid counts the worker's grid by area (Tromp–Taylor) and returns
// Black minus White.
func (w *worker) scoreGrid(own bool) float64 {
	w.fillStamp++
	if w.fillStamp == 0 {
		clear(w.fill)
		w.fillStamp = 1
	}
	s := w.s.stride
	score := 0
	if own {
		w.ownN++
	}
	for _, v := range w.s.points {
		owner := w.grid[v]
		if owner == gEmpty {
			if w.fill[v] != w.fillStamp {
				w.floodRegion(v, s)
			}
			owner = w.regionOwner[v]
		}
		switch owner {
		case gBlack:
			score++
			if own {
				w.ownB[v]++
			}
		case gWhite:
			score--
			if own {
				w.ownW[v]++
			}
		}
	}
	return float64(score)
}

// floodRegion finds the empty region around v and stores its owner (the
// only colour it reaches, or empty) for each of its points.
func (w *worker) floodRegion(v, s int) {
	stack := append(w.stack[:0], v)
	region := w.region[:0]
	w.fill[v] = w.fillStamp
	reach := 0
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		region = append(region, p)
		for _, q := range [4]int{p - s, p - 1, p + 1, p + s} {
			switch g := w.grid[q]; g {
			case gEmpty:
				if w.fill[q] != w.fillStamp {
					w.fill[q] = w.fillStamp
					stack = append(stack, q)
				}
			case gBlack, gWhite:
				reach |= 1 << g
			}
		}
	}
	owner := gEmpty
	switch reach {
	case 1 << gBlack:
		owner = gBlack
	case 1 << gWhite:
		owner = gWhite
	}
	for _, p := range region {
		w.regionOwner[p] = owner
	}
	w.stack, w.region = stack, region
}
