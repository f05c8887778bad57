package mcts

import (
	"github.com/gobot-dev/gobot/bots/shape"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// prior returns the prior knowledge about c playing v (a legal move that
// fills no eye of c), as equivalent visits and wins: a neutral amount of
// even experience plus wins for captures, atari escapes, shape and
// closeness to the last move (when the shape model does not rate those:
// params.shape), and losses for self-atari, bad escapes and lonely
// first-line moves. last is the opponent's last move (0 for none or
// a pass). scratch is a board the function may overwrite (ladder reading).
// atari reports a move that puts an opponent chain in atari without
// capturing and without being in atari itself: a move whose AMAF value
// says little (playouts that play it later play it when it no longer
// ataris), so that selectChild trusts its own results sooner.
func (w *worker) prior(b *engine.Board, v int, c engine.Color, last int, scratch *engine.Board) (n, wins float32, atari bool) {
	p := &w.s.params
	E := p.priorE
	n, wins = p.priorEven, p.priorEven/2
	good := func(k float32) { n += k; wins += k }
	bad := func(k float32) { n += k }
	if v == engine.PassVertex {
		bad(E)
		return n, wins, false
	}
	opp := c.Opponent()

	// Captures, bigger and more urgent ones first.
	captured := 0
	for _, q := range b.Neighbours(v) {
		if b.ColorAt(q) == opp && b.InAtari(q) {
			captured += b.ChainSize(q)
		}
	}
	if captured > 0 {
		good(E)
		if captured > 1 {
			good(E)
		}
	}

	// Escapes: extending a chain of c in atari at its liberty, unless it
	// stays short of liberties or runs into a ladder.
	libs, _, size := playout.MoveLiberties(b, v, c, 3)
	for _, q := range b.Neighbours(v) {
		if b.ColorAt(q) != c || !b.InAtari(q) {
			continue
		}
		switch { // judged on the first chain in atari only
		case captured > 0:
			good(E) // capturing next to a chain in atari usually saves it
		case libs >= 3:
			good(E)
		case libs == 2:
			*scratch = *b
			if playout.LadderCaptured(scratch, q, 2*w.s.size) {
				bad(E)
			} else {
				good(E)
			}
		}
		break
	}

	// Self-atari, worse for bigger chains.
	if captured == 0 && libs <= 1 {
		bad(E)
		if size > 2 {
			bad(2 * E)
		}
	}

	// Atari on an opponent chain that cannot escape a ladder.
	if captured == 0 && libs >= 2 {
		for _, q := range b.Neighbours(v) {
			if b.ColorAt(q) == opp && b.Liberties(q, 3) == 2 {
				atari = true
				*scratch = *b
				scratch.Play(v, c)
				if scratch.InAtari(q) && playout.LadderCaptured(scratch, q, 2*w.s.size) {
					good(E / 2)
					break
				}
			}
		}
	}

	// Shape and closeness to the last move, unless the shape model
	// (expand) rates them, better.
	if p.shape == 0 {
		if playout.MatchesPattern(b, v) {
			good(E / 2)
		}
		if last != engine.PassVertex {
			switch d := shape.Distance(b, v, last); {
			case d <= 3:
				good(E / 2)
			case d <= 5:
				good(E / 4)
			}
		}
	}

	// The first line away from everything is almost always wrong, and so
	// is the second; open areas are taken on the third and fourth lines
	// (and towards the centre on small boards).
	if edge := w.s.edgeDistance(v); w.lonely(b, v) {
		switch {
		case edge == 0:
			bad(E)
		case edge == 1 && w.s.size >= 7:
			bad(E)
		case edge <= 3 && w.s.size >= 13:
			good(E / 2)
			if w.s.emptyCorner(b, v) {
				good(2 * E)
			}
		case w.s.size < 13 && w.s.size >= 7:
			good(E / 4)
		}
	}

	// Filling a point all of whose neighbours are c's wastes a move.
	if b.IsEyeish(v, c) && captured == 0 {
		bad(E / 2)
	}
	return n, wins, atari
}

// lonely reports whether no stone stands within distance two (Manhattan)
// of v.
func (w *worker) lonely(b *engine.Board, v int) bool {
	for _, off := range w.s.near2 {
		q := v + off
		if q > 0 && q < len(w.grid) {
			if c := b.ColorAt(q); c == engine.Black || c == engine.White {
				return false
			}
		}
	}
	return true
}

// cornerReach is the size of the square in each corner of a board of
// 13×13 or more that emptyCorner looks at: a corner is taken by a stone
// within its first cornerReach lines both ways (on 19×19, A1–G7).
const cornerReach = 7

// emptyCorner reports whether v, on a board of 13×13 or more, is a
// corner point of the opening (3-3 to 5-5: on the third to fifth line
// from both edges) of a corner where no stone stands yet.
func (s *search) emptyCorner(b *engine.Board, v int) bool {
	x, y := v%s.stride-1, v/s.stride-1
	dx, dy := min(x, s.size-1-x), min(y, s.size-1-y)
	if dx < 2 || dy < 2 || dx > 4 || dy > 4 {
		return false
	}
	x0, y0 := 0, 0 // the corner square's first column and row
	if x > s.size/2 {
		x0 = s.size - cornerReach
	}
	if y > s.size/2 {
		y0 = s.size - cornerReach
	}
	for r := y0; r < y0+cornerReach; r++ {
		for c := x0; c < x0+cornerReach; c++ {
			if b.ColorAt((r+1)*s.stride+c+1) != engine.Empty {
				return false
			}
		}
	}
	return true
}

// edgeDistance returns the distance of v from the nearest edge: 0 on the
// first line.
func (s *search) edgeDistance(v int) int {
	x, y := v%s.stride-1, v/s.stride-1
	return min(x, y, s.size-1-x, s.size-1-y)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
