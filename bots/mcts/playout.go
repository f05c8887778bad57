package mcts

import "github.com/gobot-dev/gobot/engine"

// Grid values for scoring.
const (
	gEmpty = int8(engine.Empty)
	gBlack = int8(engine.Black)
	gWhite = int8(engine.White)
	gEdge  = int8(3)
)

// simulate plays b out from c to move until both players pass, records the
// first player of every point for AMAF, and returns the area score (Black
// minus White, without komi).
func (w *worker) simulate(b *engine.Board, c engine.Color, passes, last, depth int) float64 {
	limit := 3 * w.s.size * w.s.size
	for i := 0; i < limit && passes < 2; i++ {
		v := w.player.Move(b, c, last)
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
