package shape

import (
	"slices"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// The feature groups. Every move has exactly one value in each group; 0
// means "none" in every group but Pattern and Diamond (whose values are
// codes), and its gamma is 1.
const (
	// Pattern is the 3×3 neighbourhood of the move (Canonical: the
	// colours seen from the player to move, the least of its eight
	// symmetries).
	Pattern = iota
	// Capture is the number of stones the move captures: 1 for one, 2 for
	// two or three, 3 for more.
	Capture
	// Escape is set when the move extends a chain of the player in atari:
	// 1 when the chain then has two liberties, 2 for three or more (one
	// is a self-atari).
	Escape
	// SelfAtari is set when the move leaves its chain with one liberty
	// and captures nothing: 1 for a lone stone, 2 for a bigger chain.
	SelfAtari
	// Atari is 1 when the move puts an opponent chain in atari.
	Atari
	// Last is the gridcular distance to the opponent's last move (see
	// Distance): 1 for 2 (a neighbour) up to 16 for 17 or more; 0 when
	// there is none (a pass, or the first move).
	Last
	// Last2 is the distance to the player's own previous move, as Last.
	Last2
	// Line is the move's line: 1 for the first (the edge) up to 5 for the
	// fifth or further.
	Line
	// Diamond is the 12 points within two steps of the move (the 3×3
	// neighbourhood and the four points two lines away), canonical as
	// Pattern. Only the diamonds common in the records have a gamma; the
	// others have 1.
	Diamond
	// Large is the largest of a move's large patterns (LargeSizes) that is
	// in a model's dictionary with all its smaller ones: 1 + its index
	// there, 0 for none. Only a
	// model with large patterns (LearnedLarge) rates it; Extract leaves
	// it 0 (Model.Extract sets it).
	Large
	// Groups is the number of feature groups.
	Groups
)

// Sizes gives the number of values of each group (of codes, for Pattern
// and Diamond).
var Sizes = [Groups]int{
	Pattern:   1 << 16,
	Capture:   4,
	Escape:    3,
	SelfAtari: 3,
	Atari:     2,
	Last:      17,
	Last2:     17,
	Line:      6,
	Diamond:   1 << 24,
	Large:     1, // the dictionary's size, plus one, for each model
}

// Names names the groups, for reports and the generated source.
var Names = [Groups]string{"pattern", "capture", "escape", "self-atari", "atari", "last", "last2", "line", "diamond", "large"}

// Features are a move's feature values, one per group.
type Features [Groups]uint32

// Extract returns the features of c playing at empty vertex v of b, the
// opponent's last move having been at last and c's own previous one at
// last2 (engine.PassVertex for a pass or none). v must be legal for c.
// Extract reads the board through its fast door and allocates nothing.
func Extract(b *engine.Board, v int, c engine.Color, last, last2 int) Features {
	var f Features
	raw := rawDiamond(b, v, c)
	f[Pattern] = uint32(Canonical(uint16(raw)))
	f[Diamond] = canonicalDiamond(raw)
	tactics(&f, b, v, c, last, last2)
	return f
}

// tactics sets f's values of the groups between Pattern and Diamond (the
// captures, escapes, self-atari, atari, distances and line) for c playing
// at v, as Extract.
func tactics(f *Features, b *engine.Board, v int, c engine.Color, last, last2 int) {
	opp := c.Opponent()

	var chains [4]int
	nc, captured := 0, 0
	for _, q := range b.Neighbours(v) {
		if b.ColorAt(q) != opp || !b.InAtari(q) {
			continue
		}
		h := b.Chain(q)
		if !slices.Contains(chains[:nc], h) {
			chains[nc] = h
			nc++
			captured += b.ChainSize(q)
		}
	}
	switch {
	case captured == 1:
		f[Capture] = 1
	case captured >= 2 && captured <= 3:
		f[Capture] = 2
	case captured > 3:
		f[Capture] = 3
	}

	libs, _, size := playout.MoveLiberties(b, v, c, 3)
	if captured > 0 {
		libs = max(libs, 2) // a capture frees liberties MoveLiberties does not count
	}
	for _, q := range b.Neighbours(v) {
		if b.ColorAt(q) == c && b.InAtari(q) {
			switch {
			case libs == 2:
				f[Escape] = 1
			case libs >= 3:
				f[Escape] = 2
			}
			break
		}
	}
	if captured == 0 && libs <= 1 {
		f[SelfAtari] = 1
		if size > 1 {
			f[SelfAtari] = 2
		}
	}
	if libs >= 2 {
		for _, q := range b.Neighbours(v) {
			if b.ColorAt(q) == opp && b.Liberties(q, 3) == 2 {
				f[Atari] = 1
				break
			}
		}
	}
	f[Last] = distanceValue(b, v, last)
	f[Last2] = distanceValue(b, v, last2)
	f[Line] = uint32(min(line(b, v), 4) + 1)
}

// distanceValue returns the Last (or Last2) value of v for a move at m.
func distanceValue(b *engine.Board, v, m int) uint32 {
	if m == engine.PassVertex {
		return 0
	}
	// At least 2: a point played before may be empty again after a capture.
	return uint32(min(max(Distance(b, v, m), 2), 17) - 1)
}

// Distance is the gridcular distance between two vertices of b:
// dx+dy+max(dx,dy), so 2 for neighbours, 3 for diagonals, 4 two points
// away in a line and 5 a knight's move away.
func Distance(b *engine.Board, a, v int) int {
	s := b.Stride()
	dx, dy := a%s-v%s, a/s-v/s
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	return dx + dy + max(dx, dy)
}

// line returns the distance of v from the nearest edge: 0 on the first line.
func line(b *engine.Board, v int) int {
	s, n := b.Stride(), b.Size()
	x, y := v%s-1, v/s-1
	return min(x, y, n-1-x, n-1-y)
}

// Point values in a 3×3 code, two bits for each neighbour, seen from the
// player to move.
const (
	pvEmpty = 0
	pvOwn   = 1
	pvOpp   = 2
	pvEdge  = 3
)

// canonical maps every 3×3 code to the least code among its eight
// symmetries.
var canonical = buildCanonical()

// Canonical returns the least of the eight symmetric forms of a 3×3 code.
func Canonical(code uint16) uint16 { return canonical[code] }

// buildCanonical canonicalises every 3×3 code as the diamond it starts
// (the four outer points empty): the symmetries map the 3×3 onto itself.
func buildCanonical() *[1 << 16]uint16 {
	var t [1 << 16]uint16
	for k := range t {
		t[k] = uint16(canonicalDiamond(uint32(k)))
	}
	return &t
}

// diamondOffsets are the twelve points of a diamond in code order: the 3×3
// neighbourhood's eight (playout.NeighbourOffsets), then the four two
// lines away.
var diamondOffsets = [12][2]int(append(playout.NeighbourOffsets[:], [][2]int{
	{0, -2}, {-2, 0}, {2, 0}, {0, 2},
}...))

// diamondPerm[sym][j] is the point of a diamond that symmetry sym moves to
// point j.
var diamondPerm = buildDiamondPerm()

func buildDiamondPerm() (perm [8][12]int) {
	for sym := range 8 {
		for i, off := range diamondOffsets {
			dx, dy := playout.Transform(off[0], off[1], sym)
			for j, o := range diamondOffsets {
				if o == [2]int{dx, dy} {
					perm[sym][j] = i
				}
			}
		}
	}
	return perm
}

// rawDiamond returns the code of the diamond around v seen by c, as it
// stands on the board: two bits a point in diamondOffsets' order, so its
// low 16 bits are the 3×3 code of v's neighbourhood (the board's, with the
// colours swapped when c is White).
func rawDiamond(b *engine.Board, v int, c engine.Color) uint32 {
	k := uint32(b.Neighbourhood(v))
	s, area := b.Stride(), b.Area()
	for i, off := range diamondOffsets[8:] {
		q := v + off[1]*s + off[0]
		var pv uint32
		switch {
		case q < 0 || q >= area || b.IsBorder(q):
			pv = pvEdge
		case b.ColorAt(q) == engine.Black:
			pv = pvOwn
		case b.ColorAt(q) == engine.White:
			pv = pvOpp
		}
		k |= pv << (16 + 2*i)
	}
	if c == engine.White {
		k = playout.SwapColours(k) // own (1) and opponent (2) trade places
	}
	return k
}

// transformDiamond returns the code of the diamond raw after symmetry sym.
func transformDiamond(raw uint32, sym int) uint32 {
	var k uint32
	for j, i := range diamondPerm[sym] {
		k |= (raw >> (2 * i) & 3) << (2 * j)
	}
	return k
}

// canonicalDiamond returns the least of the eight symmetric forms of a
// diamond's code.
func canonicalDiamond(raw uint32) uint32 {
	least := raw
	for sym := 1; sym < 8; sym++ {
		least = min(least, transformDiamond(raw, sym))
	}
	return least
}
