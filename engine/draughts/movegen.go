package draughts

import "math/bits"

// Move is a move of the fast door: the square a piece leaves, the square
// where it ends, and the pieces it captures (empty for a quiet move). Two
// capture sequences with the same start, end and captured pieces are the
// same move, as the rules count them. A Move does not say which way a
// capture went; Position.Path finds a route, and the checked door's
// notation writes it where two moves share start and end.
type Move struct {
	From, To Square
	Captured Set
}

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// String returns m in short notation, "32-28" or "28x19", which names a
// move uniquely unless another capture shares its start and end (see
// Position.Notation for the form that is always unique).
func (m Move) String() string {
	sep := "-"
	if m.IsCapture() {
		sep = "x"
	}
	return m.From.String() + sep + m.To.String()
}

// MaxMoves is a size for a move buffer that almost every position fits:
// Generate appends beyond it (and allocates) only in rare positions with
// many kings.
const MaxMoves = 128

// The four diagonal steps in the bit layout: up-left, up-right, down-left,
// down-right, as White sees the board.
var steps = [4]int{-6, -5, 5, 6}

// Generate appends the legal moves of the side to move to buf and returns
// the extended slice. Captures are compulsory and the maximum capture is
// compulsory: when a capture exists only the sequences taking the most
// pieces are listed, each once. It allocates nothing when buf has room
// (MaxMoves is plenty for almost every position). The order is fixed:
// pieces by square, then directions.
func (p *Position) Generate(buf []Move) []Move {
	n := len(buf)
	buf = p.captures(buf)
	if len(buf) > n {
		return buf
	}
	return p.quiet(buf)
}

// Captures appends the legal captures (the maximum ones) to buf, or
// nothing when the side to move cannot capture.
func (p *Position) Captures(buf []Move) []Move { return p.captures(buf) }

// CountMoves returns the number of legal moves, len(Generate(buf)), faster
// when there is no capture; buf is scratch space for captures.
func (p *Position) CountMoves(buf []Move) int {
	if p.CanCapture() {
		return len(p.captures(buf[:0]))
	}
	return p.countQuiet()
}

// capturer walks capture sequences depth first.
type capturer struct {
	opp   uint64 // the opponent's pieces, captured or not
	empty uint64 // empty squares, with the moving piece's start
	from  Square
	best  int // most pieces taken by a sequence found so far
	base  int // where the moves of the current best start in moves
	moves []Move
}

// captures appends the maximum captures to buf.
func (p *Position) captures(buf []Move) []Move {
	us := p.turn
	own := p.pieces[us]
	g := capturer{opp: p.pieces[us^1], best: 1, base: len(buf), moves: buf}
	empty := boardMask &^ (own | g.opp)
	for b := p.manCaptors(); b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		g.empty = empty | 1<<uint(i)
		g.from = squareOf(i)
		g.man(i, 0, 0)
	}
	for b := own & p.kings; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		g.empty = empty | 1<<uint(i)
		g.from = squareOf(i)
		g.king(i, 0, 0, 0)
	}
	return g.moves
}

// manCaptors returns the men of the side to move that can capture now.
func (p *Position) manCaptors() uint64 {
	us := p.turn
	men := p.pieces[us] &^ p.kings
	opp := p.pieces[us^1]
	empty := boardMask &^ (p.pieces[0] | p.pieces[1])
	return men & ((opp<<5)&(empty<<10) | (opp<<6)&(empty<<12) | (opp>>5)&(empty>>10) | (opp>>6)&(empty>>12))
}

// CanCapture reports whether the side to move has a capture (and so
// must capture), without listing the captures: for a quiescence search.
func (p *Position) CanCapture() bool {
	if p.manCaptors() != 0 {
		return true
	}
	us := p.turn
	opp := p.pieces[us^1]
	empty := boardMask &^ (p.pieces[0] | p.pieces[1])
	for b := p.pieces[us] & p.kings; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for _, d := range steps {
			s := i + d
			for empty>>uint(s)&1 != 0 {
				s += d
			}
			if opp>>uint(s)&1 != 0 && empty>>uint(s+d)&1 != 0 {
				return true
			}
		}
	}
	return false
}

// man extends a man's capture sequence at bit at, having taken the pieces
// in taken (n of them). Taken pieces stay on the board until the sequence
// ends: they block, and cannot be taken twice.
func (g *capturer) man(at int, taken uint64, n int) {
	avail := g.opp &^ taken
	more := false
	for _, d := range steps {
		mid := at + d
		if avail>>uint(mid)&1 == 0 || g.empty>>uint(mid+d)&1 == 0 {
			continue
		}
		more = true
		g.man(mid+d, taken|1<<uint(mid), n+1)
	}
	if !more && n > 0 {
		g.add(at, taken, n)
	}
}

// king extends a king's capture sequence at bit at, arrived by step came
// (0 at the start). A king flies: it takes the first piece along a
// diagonal, past any number of empty squares, and lands on any empty
// square beyond it.
func (g *capturer) king(at int, taken uint64, n int, came int) {
	avail := g.opp &^ taken
	more := false
	for _, d := range steps {
		if d == -came {
			continue // the piece just taken blocks the way back
		}
		s := at + d
		for g.empty>>uint(s)&1 != 0 {
			s += d
		}
		if avail>>uint(s)&1 == 0 || g.empty>>uint(s+d)&1 == 0 {
			continue
		}
		more = true
		t := taken | 1<<uint(s)
		for l := s + d; g.empty>>uint(l)&1 != 0; l += d {
			g.king(l, t, n+1, d)
		}
	}
	if !more && n > 0 {
		g.add(at, taken, n)
	}
}

// add records a finished sequence if it takes at least as many pieces as
// the best so far, and once only.
func (g *capturer) add(at int, taken uint64, n int) {
	if n < g.best {
		return
	}
	if n > g.best {
		g.best = n
		g.moves = g.moves[:g.base]
	}
	m := Move{From: g.from, To: squareOf(at), Captured: Set(taken)}
	if n >= 2 {
		// Two routes to the same end that take the same pieces are
		// one move. (One capture has one route.)
		for _, o := range g.moves[g.base:] {
			if o == m {
				return
			}
		}
	}
	g.moves = append(g.moves, m)
}

// quiet appends the moves without capture.
func (p *Position) quiet(buf []Move) []Move {
	us := p.turn
	empty := boardMask &^ (p.pieces[0] | p.pieces[1])
	men := p.pieces[us] &^ p.kings
	// Men step forward: up the board (towards square 1) for White.
	lo, hi := steps[0], steps[1]
	if us == Black {
		lo, hi = steps[2], steps[3]
	}
	for b := men; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		if empty>>uint(i+lo)&1 != 0 {
			buf = append(buf, Move{From: squareOf(i), To: squareOf(i + lo)})
		}
		if empty>>uint(i+hi)&1 != 0 {
			buf = append(buf, Move{From: squareOf(i), To: squareOf(i + hi)})
		}
	}
	for b := p.pieces[us] & p.kings; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		from := squareOf(i)
		for _, d := range steps {
			for s := i + d; empty>>uint(s)&1 != 0; s += d {
				buf = append(buf, Move{From: from, To: squareOf(s)})
			}
		}
	}
	return buf
}

// countQuiet counts the moves without capture.
func (p *Position) countQuiet() int {
	us := p.turn
	empty := boardMask &^ (p.pieces[0] | p.pieces[1])
	men := p.pieces[us] &^ p.kings
	var n int
	if us == White {
		n = bits.OnesCount64(men>>5&empty) + bits.OnesCount64(men>>6&empty)
	} else {
		n = bits.OnesCount64(men<<5&empty) + bits.OnesCount64(men<<6&empty)
	}
	for b := p.pieces[us] & p.kings; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for _, d := range steps {
			for s := i + d; empty>>uint(s)&1 != 0; s += d {
				n++
			}
		}
	}
	return n
}
