package playout

import "github.com/gobot-dev/gobot/engine"

// Policy is a playout policy: the probability of each answer to the
// opponent's last move that a player tries, in the order of the fields,
// before it falls back on a random move. An answer that finds no acceptable
// point passes the turn to the next. A weight of 0 skips its answer and one
// of 1 always tries it, and neither draws a random number (see Rand.Chance).
//
// Every move the policy chooses is legal on the board (superko aside),
// fills no eye of the player (Board.IsEye) and is no self-atari, except
// that a random move puts a single stone in atari when nothing else is
// left (a throw-in or a nakade), and any stones with probability
// SelfAtari; when nothing at all is left it passes.
type Policy struct {
	// Capture is the probability of answering tactically: saving a chain
	// that the last move put in atari (by capturing a chain next to it, or
	// by extending when that gives two liberties or captures), and
	// otherwise capturing an opponent chain in atari on or around the last
	// move.
	Capture float64
	// Atari is the probability of putting the last stone's chain in atari
	// when it has exactly two liberties.
	Atari float64
	// Pattern is the probability of playing a 3×3 shape point (see
	// MatchesPattern) next to the last move.
	Pattern float64
	// Reply is the probability of playing any point next to or diagonal to
	// the last move.
	Reply float64
	// SelfAtari is the probability that the random move plays a point
	// that puts its own stones in atari when it comes upon one, instead
	// of looking on: playouts then also fill their own liberties, as
	// nakade, throw-ins and lost capturing races need, and so can kill
	// groups that they otherwise leave alive. (Pachi's Moggy policy lets
	// 40% of its bad self-ataris through.)
	SelfAtari float64
	// Shape, when not nil, weighs the shape answer (Pattern): each shape
	// point is drawn in proportion to its weight, by the 3×3 code around
	// it (Board.Neighbourhood) as Black to move sees it; for White the
	// colours of the code are swapped first. Without it every shape point
	// is as likely.
	Shape *[1 << 16]float32
}

// Player chooses playout moves by its Policy with its own random numbers.
// Its zero value needs a Rand before use. A Player is not safe for
// concurrent use: give each goroutine its own.
type Player struct {
	Policy Policy
	Rand   Rand
	cand   [32]int
}

// Move returns the move of c on b by the policy, the opponent having just
// played at last (engine.PassVertex for a pass or none): a vertex, or
// engine.PassVertex to pass. It does not play it.
func (p *Player) Move(b *engine.Board, c engine.Color, last int) int {
	if last != engine.PassVertex {
		if p.Rand.Chance(p.Policy.Capture) {
			if v := p.tacticalMove(b, c, last); v != 0 {
				return v
			}
		}
		if p.Rand.Chance(p.Policy.Atari) {
			if v := p.atariMove(b, c, last); v != 0 {
				return v
			}
		}
		if p.Rand.Chance(p.Policy.Pattern) {
			if v := p.patternMove(b, c, last); v != 0 {
				return v
			}
		}
		if p.Rand.Chance(p.Policy.Reply) {
			if v := p.replyMove(b, c, last); v != 0 {
				return v
			}
		}
	}
	return p.randomMove(b, c)
}

// Playout plays b out by the policy, c to move after a move at last
// (engine.PassVertex for a pass or none) and passes consecutive passes
// before it, until two consecutive passes or maxMoves moves.
func (p *Player) Playout(b *engine.Board, c engine.Color, passes, last, maxMoves int) {
	for i := 0; i < maxMoves && passes < 2; i++ {
		v := p.Move(b, c, last)
		b.Play(v, c)
		if v == engine.PassVertex {
			passes++
		} else {
			passes = 0
		}
		last = v
		c = c.Opponent()
	}
}

// tacticalMove returns a random move among the escapes of c's chains put in
// atari by the last move and the captures of opponent chains in atari next
// to the last move, or 0.
func (p *Player) tacticalMove(b *engine.Board, c engine.Color, last int) int {
	cands := p.cand[:0]
	opp := c.Opponent()
	// The last move's 3×3 code tells in one read which of its neighbours
	// are c's stones and which the opponent's, so that only those are
	// visited, in the order of the code (which is that of Neighbours and
	// of Diagonals), as the scans of all of them would.
	s := b.Stride()
	offs := ringOf(s)
	around := b.Neighbourhood(last)
	mine, theirs := stonesOf(around, c), stonesOf(around, opp)
	for m := mine & orthLow; m != 0; m &= m - 1 {
		n := offs.at(last, m)
		if !b.InAtari(n) {
			continue
		}
		cands = CapturesAround(cands, b, n, len(p.cand))
		if l := b.AtariLiberty(n); escapes(b, l, c) {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 {
		if b.ColorAt(last) == opp {
			// The opponent's stones next to the last one are in its
			// chain: each gives the chain's liberty once more.
			if b.InAtari(last) {
				l := b.AtariLiberty(last)
				cands = append(cands, l)
				for m := theirs & orthLow; m != 0; m &= m - 1 {
					cands = append(cands, l)
				}
			}
		} else {
			for m := theirs & orthLow; m != 0; m &= m - 1 {
				if n := offs.at(last, m); b.InAtari(n) {
					cands = append(cands, b.AtariLiberty(n))
				}
			}
		}
		for m := theirs & diagLow; m != 0; m &= m - 1 {
			if n := offs.at(last, m); b.InAtari(n) {
				cands = append(cands, b.AtariLiberty(n))
			}
		}
		if len(cands) == 0 {
			return 0
		}
	}
	return p.pickCandidate(b, c, cands)
}

// The low bits of the points of a 3×3 code (Board.Neighbourhood) that are
// orthogonal neighbours of its centre, and diagonal ones.
const (
	orthLow = 1<<2 | 1<<6 | 1<<8 | 1<<12
	diagLow = 1<<0 | 1<<4 | 1<<10 | 1<<14
)

// stonesOf returns the low bit of each point of the 3×3 code k that holds
// a stone of c: exactly c's bit of the two is set. It is 0 unless c is
// Black or White.
func stonesOf(k uint16, c engine.Color) uint16 {
	lo, hi := k&0x5555, (k>>1)&0x5555
	switch c {
	case engine.Black:
		return lo &^ hi
	case engine.White:
		return hi &^ lo
	}
	return 0
}

// atariMove returns one of the two liberties of the last stone's chain, at
// random, when it has exactly two, or 0. The two are in the order a walk
// of the chain from the last stone finds them (Board.LibertyList), which
// the random choice depends on: the walk stops at the first liberty, and
// the board tells the other (Board.OtherLiberties).
func (p *Player) atariMove(b *engine.Board, c engine.Color, last int) int {
	if b.ColorAt(last) != c.Opponent() || b.InAtari(last) {
		return 0
	}
	for s := last; ; {
		for _, n := range b.Neighbours(s) {
			if b.IsBorder(n) || b.ColorAt(n) != engine.Empty {
				continue
			}
			k, l := b.OtherLiberties(last, n)
			if k != 1 {
				return 0
			}
			return p.pickCandidate(b, c, append(p.cand[:0], n, l))
		}
		if s = b.NextStone(s); s == last {
			return 0 // no liberty: cannot happen on a legal board
		}
	}
}

// patternMove returns a random shape move among the empty neighbours of
// the last move, or 0. The last move's 3×3 code tells which neighbours are
// empty (value 0), and each one's own code whether it is a shape point.
func (p *Player) patternMove(b *engine.Board, c engine.Color, last int) int {
	s := b.Stride()
	offs := ringOf(s)
	around := b.Neighbourhood(last)
	// One bit (the low one of its two) for each empty neighbour: the loop
	// visits only those, in the order of the code, as a scan of all
	// eight would.
	empty := ^(around | around>>1) & 0x5555
	cands := p.cand[:0]
	var codes [8]uint16
	for ; empty != 0; empty &= empty - 1 {
		v := offs.at(last, empty)
		if code := b.Neighbourhood(v); patterns[code] {
			codes[len(cands)&7] = code
			cands = append(cands, v)
		}
	}
	if p.Policy.Shape != nil {
		return p.pickWeighted(b, c, cands, &codes)
	}
	return p.pickCandidate(b, c, cands)
}

// pickWeighted is pickCandidate with each candidate (at most eight) drawn
// in proportion to its weight in Policy.Shape; codes holds the 3×3 code
// of each candidate, which patternMove has read already.
func (p *Player) pickWeighted(b *engine.Board, c engine.Color, cands []int, codes *[8]uint16) int {
	var w [8]float32
	var sum float32
	for i := range cands {
		code := codes[i&7]
		if c == engine.White {
			code = SwapColours(code)
		}
		w[i&7] = p.Policy.Shape[code]
		sum += w[i&7]
	}
	for len(cands) > 0 {
		x := float32(p.Rand.Float64()) * sum
		i := 0
		for ; i < len(cands)-1; i++ {
			if x -= w[i&7]; x < 0 {
				break
			}
		}
		if v := cands[i]; acceptable(b, v, c) {
			return v
		}
		sum -= w[i&7]
		last := len(cands) - 1
		cands[i], w[i&7] = cands[last], w[last&7]
		cands = cands[:last]
	}
	return 0
}

// replyMove returns a random empty point next to or diagonal to the last
// move, or 0.
func (p *Player) replyMove(b *engine.Board, c engine.Color, last int) int {
	nb, dg := b.Neighbours(last), b.Diagonals(last)
	cands := p.cand[:0]
	for _, v := range [8]int{nb[0], nb[1], nb[2], nb[3], dg[0], dg[1], dg[2], dg[3]} {
		if !b.IsBorder(v) && b.ColorAt(v) == engine.Empty {
			cands = append(cands, v)
		}
	}
	return p.pickCandidate(b, c, cands)
}

// pickCandidate returns a random candidate that is legal, fills no eye of c
// and is no self-atari, or 0.
func (p *Player) pickCandidate(b *engine.Board, c engine.Color, cands []int) int {
	for len(cands) > 0 {
		i := p.Rand.Intn(len(cands))
		if v := cands[i]; acceptable(b, v, c) {
			return v
		}
		cands[i] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
	}
	return 0
}

// acceptable reports whether c may play v in a playout: a legal move that
// fills no eye of c and is no self-atari.
func acceptable(b *engine.Board, v int, c engine.Color) bool {
	if !b.Playable(v, c) {
		return false
	}
	if b.NeighbourCount(v, engine.Empty) >= 2 {
		return true // no self-atari
	}
	sa, _ := SelfAtari(b, v, c)
	return !sa
}

// randomMove returns a random legal move of c that fills none of its eyes
// and is no self-atari, unless Policy.SelfAtari lets one through; a
// single-stone self-atari (a throw-in, a nakade) when nothing else is
// left; else a pass.
func (p *Player) randomMove(b *engine.Board, c engine.Color) int {
	n := b.EmptyCount()
	if n == 0 {
		return engine.PassVertex
	}
	fallback := engine.PassVertex
	i := p.Rand.Intn(n)
	for k := 0; k < n; k++ {
		v := b.EmptyVertex(i)
		if i++; i == n {
			i = 0
		}
		if !b.Playable(v, c) {
			continue
		}
		if b.NeighbourCount(v, engine.Empty) >= 2 {
			return v // no self-atari
		}
		if sa, size := SelfAtari(b, v, c); sa {
			if p.Rand.Chance(p.Policy.SelfAtari) {
				return v
			}
			if size == 1 && fallback == engine.PassVertex {
				fallback = v
			}
			continue
		}
		return v
	}
	return fallback
}
