package playout

import (
	"math/bits"

	"github.com/gobot-dev/gobot/engine"
)

// The 3×3 shape patterns are the hand-made MoGo patterns (Gelly, Wang,
// Munos and Teytaud, "Modification of UCT with Patterns in Monte-Carlo Go",
// 2006) as later collected in michi: the move is the centre point. X and O
// are stones of the two colours, x is "not X" (O or empty), o is "not O",
// '.' is empty, ' ' is off the board and '?' is anything. Every pattern is
// matched in its eight rotations and reflections and with the colours
// swapped, so a match says the point is a shape point for either player.
var patternSources = [][3]string{
	{"XOX", "...", "???"}, // hane: enclosing hane
	{"XO.", "...", "?.?"}, // hane: non-cutting hane
	{"XO?", "X..", "x.?"}, // hane: magari
	{".O.", "X..", "..."}, // katatsuke or diagonal attachment
	{"XO?", "O.o", "?o?"}, // cut1: unprotected cut
	{"XO?", "O.X", "???"}, // cut1: peeped cut
	{"?X?", "O.O", "ooo"}, // cut2 (de)
	{"OX?", "o.O", "???"}, // cut keima
	{"X.?", "O.?", "   "}, // side: chase
	{"OX?", "X.O", "   "}, // side: block side cut
	{"?X?", "x.O", "   "}, // side: block side connection
	{"?XO", "x.x", "   "}, // side: sagari
	{"?OX", "X.O", "   "}, // side: cut
}

// Point values in a pattern code: two bits per neighbour.
const (
	pvEmpty = 0
	pvBlack = 1
	pvWhite = 2
	pvEdge  = 3
)

// SwapColours returns code, a row of two-bit points (as Board.Neighbourhood
// codes them), with black and white traded: what the other player sees.
// Empty and edge points stay.
func SwapColours[T uint16 | uint32](code T) T {
	mixed := (code ^ code>>1) & (^T(0) / 3) // the points whose two bits differ: stones
	return code ^ (mixed | mixed<<1)
}

// NeighbourOffsets are the eight neighbours of a point in the order of
// the points of a 3×3 code, as (dx, dy): the row above left to right, the
// two beside, the row below. Package bots/shape codes its patterns so too.
var NeighbourOffsets = [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// ring is the eight neighbours of a point as vertex offsets on a board of
// some stride, in the order of NeighbourOffsets: the loops over the set
// bits of a 3×3 code (one low bit per point) find each point with at.
type ring [8]int

// ringOf is the ring of a board of stride s.
func ringOf(s int) ring { return ring{-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1} }

// at is the neighbour of v that the lowest set bit of m names, m holding
// the low bits of points of a 3×3 code.
func (r *ring) at(v int, m uint16) int { return v + r[bits.TrailingZeros16(m)>>1&7] }

// patterns has one entry per 16-bit neighbourhood code: true when the
// neighbourhood matches a shape pattern.
var patterns = buildPatterns()

func buildPatterns() *[1 << 16]bool {
	var table [1 << 16]bool
	for _, src := range patternSources {
		for sym := 0; sym < 8; sym++ {
			for swap := 0; swap < 2; swap++ {
				var allowed [8][]int
				for i, off := range NeighbourOffsets {
					dx, dy := Transform(off[0], off[1], sym)
					ch := src[dy+1][dx+1]
					allowed[i] = patternValues(ch, swap == 1)
				}
				expandPattern(&table, &allowed, 0, 0)
			}
		}
	}
	return &table
}

// Transform maps (dx, dy) by symmetry sym (0 to 7) of the square: bit 4
// swaps the axes, then bit 1 mirrors x and bit 2 mirrors y.
func Transform(dx, dy, sym int) (int, int) {
	if sym&4 != 0 {
		dx, dy = dy, dx
	}
	if sym&1 != 0 {
		dx = -dx
	}
	if sym&2 != 0 {
		dy = -dy
	}
	return dx, dy
}

// patternValues returns the point values a pattern character matches.
func patternValues(ch byte, swap bool) []int {
	x, o := pvBlack, pvWhite
	if swap {
		x, o = o, x
	}
	switch ch {
	case 'X':
		return []int{x}
	case 'O':
		return []int{o}
	case 'x':
		return []int{o, pvEmpty}
	case 'o':
		return []int{x, pvEmpty}
	case '.':
		return []int{pvEmpty}
	case ' ':
		return []int{pvEdge}
	case '?':
		return []int{pvEmpty, pvBlack, pvWhite, pvEdge}
	}
	// A typo in patternSources is a programmer error caught by the tests.
	panic("playout: bad pattern character " + string(ch))
}

func expandPattern(table *[1 << 16]bool, allowed *[8][]int, i int, code int) {
	if i == 8 {
		table[code] = true
		return
	}
	for _, v := range allowed[i] {
		expandPattern(table, allowed, i+1, code|v<<(2*i))
	}
}

// MatchesPattern reports whether empty vertex v is a shape point for either
// player.
func MatchesPattern(b *engine.Board, v int) bool {
	return patterns[b.Neighbourhood(v)]
}
