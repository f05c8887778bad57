package playout

import (
	"math/bits"

	"github.com/gobot-dev/gobot/engine"
)

// The tactical helpers of the policy, which a search's priors use too. They
// read the board through its fast door and allocate nothing.

// libSet is a tiny set of at most a few vertices: liberties, or the chains
// next to a point.
type libSet struct {
	v [4]int
	n int
}

// add adds v (when there is room) and reports whether the set lacked it.
func (s *libSet) add(v int) bool {
	for i := 0; i < s.n; i++ {
		if s.v[i] == v {
			return false
		}
	}
	if s.n < len(s.v) {
		s.v[s.n] = v
		s.n++
	}
	return true
}

// MoveLiberties estimates the liberties of the chain a stone of c at empty
// vertex v would form, up to limit (at most 4): it returns the count, capped
// at limit, whether the move captures, and the size of the chain formed.
// Captures are reported without counting the liberties they would free.
func MoveLiberties(b *engine.Board, v int, c engine.Color, limit int) (libs int, captures bool, size int) {
	var set libSet
	size = 1
	var seen libSet // the chains of c counted
	opp := c.Opponent()
	for _, n := range b.Neighbours(v) {
		switch b.ColorAt(n) {
		case engine.Empty:
			if !b.IsBorder(n) {
				set.add(n)
			}
		case opp:
			if b.InAtari(n) {
				captures = true
			}
		case c:
			if !seen.add(b.Chain(n)) {
				continue
			}
			size += b.ChainSize(n)
			var buf [4]int
			for _, l := range b.LibertyList(buf[:0], n, limit+1) {
				if l != v {
					set.add(l)
				}
			}
		}
		if set.n >= limit && !captures {
			// Enough liberties already; size may be underestimated,
			// which callers only use for self-atari of short chains.
			return set.n, false, size
		}
	}
	if set.n > limit {
		set.n = limit
	}
	return set.n, captures, size
}

// SelfAtari reports whether c at v (a legal move) leaves the new chain
// with at most one liberty without capturing anything, and the size of
// that chain (when it is a self-atari; otherwise at least the size of the
// chains counted before two liberties were found, as MoveLiberties gives
// it). It walks no chain: it reads each neighbouring chain's liberties
// other than v from the board (Board.OtherLiberties), so that it costs
// the same for a stone and for a long chain.
func SelfAtari(b *engine.Board, v int, c engine.Color) (bool, int) {
	// v's 3×3 code tells in one read which neighbours are empty, the
	// opponent's or c's: only those are visited, in the order of
	// Neighbours (that of the code).
	s := b.Stride()
	offs := ringOf(s)
	around := b.Neighbourhood(v)
	empties := ^(around | around>>1) & orthLow // off the board is not empty
	mine := stonesOf(around, c) & orthLow
	// Two empty neighbours, or a capture: an opponent chain next to v in
	// atari has v as its liberty.
	for m := stonesOf(around, c.Opponent()) & orthLow; m != 0; m &= m - 1 {
		if b.InAtari(offs.at(v, m)) {
			return false, 1
		}
	}
	if bits.OnesCount16(empties) >= 2 {
		return false, 1
	}
	// What MoveLiberties(b, v, c, 2) finds, in its order: only the empty
	// neighbour and the liberties of c's chains count (the test of two
	// liberties after the other neighbours would find what it found
	// before them).
	var set libSet
	size := 1
	var seen libSet // the chains of c counted
	for m := empties | mine; m != 0; m &= m - 1 {
		n := offs.at(v, m)
		if empties&(m&-m) != 0 {
			set.add(n)
		} else {
			if !seen.add(b.Chain(n)) {
				continue
			}
			size += b.ChainSize(n)
			switch k, l := b.OtherLiberties(n, v); k {
			case 1:
				set.add(l)
			case 2:
				return false, size
			}
		}
		if set.n >= 2 {
			return false, size
		}
	}
	return set.n < 2, size
}

// escapes reports whether c at v, the liberty of c's chain in atari,
// saves it as MoveLiberties(b, v, c, 2) judges: the move captures, or the
// chain it forms has two liberties or more. Like SelfAtari it walks no
// chain.
func escapes(b *engine.Board, v int, c engine.Color) bool {
	if b.WouldCapture(v, c) {
		return true
	}
	var set libSet
	for _, n := range b.Neighbours(v) {
		if k := b.ColorAt(n); k == c {
			switch k, l := b.OtherLiberties(n, v); k {
			case 1:
				set.add(l)
			case 2:
				return true
			}
		} else if k == engine.Empty && !b.IsBorder(n) {
			set.add(n)
		}
	}
	return set.n >= 2
}

// CapturesAround appends to dst the vertices where the colour of the chain
// at v would capture an opponent chain next to it (in atari), up to max
// entries, and returns dst. v must hold a stone (its callers' chains in
// atari); for an empty v it returns dst as it is.
func CapturesAround(dst []int, b *engine.Board, v int, max int) []int {
	opp := b.ColorAt(v).Opponent()
	if opp == engine.Empty {
		return dst
	}
	st := b.Stride()
	offs := ringOf(st)
	s := v
	for {
		// Each stone's 3×3 code tells which of its neighbours are the
		// opponent's, in the order of Neighbours.
		for m := stonesOf(b.Neighbourhood(s), opp) & orthLow; m != 0; m &= m - 1 {
			if n := offs.at(s, m); b.InAtari(n) {
				l := b.AtariLiberty(n)
				dup := false
				for _, d := range dst {
					if d == l {
						dup = true
					}
				}
				if !dup {
					dst = append(dst, l)
					if len(dst) >= max {
						return dst
					}
				}
			}
		}
		s = b.NextStone(s)
		if s == v {
			return dst
		}
	}
}

// LadderCaptured reports whether the chain at v, which is in atari, dies in
// a ladder if it extends at its liberty: the attacker keeps ataring it
// until it is captured. depth bounds the reading. b is a scratch copy the
// function plays on.
func LadderCaptured(b *engine.Board, v int, depth int) bool {
	if depth <= 0 || !b.InAtari(v) {
		return false
	}
	c := b.ColorAt(v)
	opp := c.Opponent()
	var buf [4]int
	if len(CapturesAround(buf[:0], b, v, 1)) > 0 {
		return false // capturing an attacker escapes (near enough)
	}
	l := b.AtariLiberty(v)
	if !b.Legal(l, c) {
		return true
	}
	b.Play(l, c)
	var libs [4]int
	ls := b.LibertyList(libs[:0], v, 3)
	if len(ls) <= 1 {
		return true
	}
	if len(ls) >= 3 {
		return false
	}
	saved := *b
	for _, a := range ls {
		if !saved.Legal(a, opp) {
			continue
		}
		*b = saved
		b.Play(a, opp)
		if b.ColorAt(a) != opp || b.InAtari(a) {
			continue // the ataring stone could be captured
		}
		if LadderCaptured(b, v, depth-1) {
			return true
		}
	}
	return false
}
