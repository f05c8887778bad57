package playout

import "github.com/gobot-dev/gobot/engine"

// The tactical helpers of the policy, which a search's priors use too. They
// read the board through its fast door and allocate nothing.

// libSet is a tiny set of at most a few liberties.
type libSet struct {
	v [4]int
	n int
}

func (s *libSet) add(v int) {
	for i := 0; i < s.n; i++ {
		if s.v[i] == v {
			return
		}
	}
	if s.n < len(s.v) {
		s.v[s.n] = v
		s.n++
	}
}

// MoveLiberties estimates the liberties of the chain a stone of c at empty
// vertex v would form, up to limit (at most 4): it returns the count, capped
// at limit, whether the move captures, and the size of the chain formed.
// Captures are reported without counting the liberties they would free.
func MoveLiberties(b *engine.Board, v int, c engine.Color, limit int) (libs int, captures bool, size int) {
	var set libSet
	size = 1
	var seen [4]int
	nseen := 0
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
			h := b.Chain(n)
			dup := false
			for i := 0; i < nseen; i++ {
				if seen[i] == h {
					dup = true
				}
			}
			if dup {
				continue
			}
			seen[nseen] = h
			nseen++
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
// that chain.
func SelfAtari(b *engine.Board, v int, c engine.Color) (bool, int) {
	if b.NeighbourCount(v, engine.Empty) >= 2 {
		return false, 1
	}
	if b.WouldCapture(v, c) {
		return false, 1
	}
	libs, captures, size := MoveLiberties(b, v, c, 2)
	if captures {
		return false, size
	}
	return libs < 2, size
}

// CapturesAround appends to dst the vertices where the colour of the chain
// at v would capture an opponent chain next to it (in atari), up to max
// entries, and returns dst.
func CapturesAround(dst []int, b *engine.Board, v int, max int) []int {
	opp := b.ColorAt(v).Opponent()
	s := v
	for {
		for _, n := range b.Neighbours(s) {
			if b.ColorAt(n) == opp && b.InAtari(n) {
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
