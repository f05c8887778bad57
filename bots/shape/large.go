package shape

import (
	"slices"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// Large patterns (Coulom 2007, Pachi's and Fuego's "spatial" patterns): the
// points within a gridcular distance (Distance) of a move, for a nested
// series of distances, each identified by a 64-bit Zobrist code that is the
// same for the eight symmetric forms of the pattern. Points off the board
// count as edge; the colours are seen from the player to move. A model with
// large patterns (LearnedLarge) rates a move by the largest of its patterns
// that is in its dictionary (group Large).

// LargeSizes are the gridcular radii of the nested large patterns, the
// smallest first: 5 adds the knight's-move points to the diamond (radius 4,
// group Diamond), 10 holds 72 points around the move.
var LargeSizes = [...]int{5, 6, 7, 8, 9, 10}

// largeN is the number of large-pattern sizes.
const largeN = len(LargeSizes)

// LargeCodes are the canonical codes of a move's large patterns, one for
// each of LargeSizes, in that order. Codes of different sizes differ.
type LargeCodes [largeN]uint64

// largeOffset is a point of a large pattern relative to the move.
type largeOffset struct{ dx, dy int }

const (
	// largeCount is the number of points of the largest pattern, the move
	// left out.
	largeCount = 72
	// largePad is the largest |dx| (and |dy|) of its points: a move that
	// far from every edge sees no edge.
	largePad = 5
)

var (
	// largeOffsets are the points of the largest pattern by increasing
	// distance; those of the pattern of LargeSizes[k] are
	// largeOffsets[:largeEnd[k]].
	largeOffsets, largeEnd = buildLargeOffsets()
	// largeKeys[i][st][sym] is the key that a point of state st (1 own, 2
	// the opponent's, 3 off the board; 0, empty, has none) at
	// largeOffsets[i] adds to the code of symmetric form sym.
	largeKeys, largeSalt = buildLargeKeys()
)

// Point states in a large pattern's code.
const (
	lsOwn  = 1
	lsOpp  = 2
	lsEdge = 3
)

func gridcular(dx, dy int) int {
	dx, dy = max(dx, -dx), max(dy, -dy)
	return dx + dy + max(dx, dy)
}

func buildLargeOffsets() (offsets *[largeCount]largeOffset, end [largeN]int) {
	var offs []largeOffset
	r := LargeSizes[largeN-1]
	for d := 1; d <= r; d++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if gridcular(dx, dy) == d {
					offs = append(offs, largeOffset{dx, dy})
				}
			}
		}
		for k, s := range LargeSizes {
			if s == d {
				end[k] = len(offs)
			}
		}
	}
	reach := 0
	for _, o := range offs {
		reach = max(reach, o.dx, -o.dx)
	}
	if len(offs) != largeCount || reach != largePad {
		panic("shape: largeCount or largePad does not fit LargeSizes")
	}
	return (*[largeCount]largeOffset)(offs), end
}

// splitMix64 is the generator of the keys: fixed, so that codes (and the
// generated dictionary) do not change from one build to the next.
func splitMix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func buildLargeKeys() (keys *[largeCount][4][8]uint64, salt [largeN]uint64) {
	seed := uint64(0x6c617267655f7061) // "large_pa"
	base := make([][4]uint64, len(largeOffsets))
	for i := range base {
		for st := lsOwn; st <= lsEdge; st++ {
			base[i][st] = splitMix64(&seed)
		}
	}
	for k := range salt {
		salt[k] = splitMix64(&seed)
	}
	at := make(map[largeOffset]int, len(largeOffsets))
	for i, o := range largeOffsets {
		at[o] = i
	}
	keys = new([largeCount][4][8]uint64)
	for i, o := range largeOffsets {
		for sym := range 8 {
			dx, dy := playout.Transform(o.dx, o.dy, sym)
			j := at[largeOffset{dx, dy}]
			for st := range 4 {
				keys[i][st][sym] = base[j][st]
			}
		}
	}
	return keys, salt
}

// ComputeLargeCodes sets codes to the canonical codes of the large patterns
// around empty vertex v of b seen by c.
func ComputeLargeCodes(b *engine.Board, v int, c engine.Color, codes *LargeCodes) {
	var lv largeView
	lv.load(b, c)
	lv.codes(v, codes)
}

// largeView is a board's points as a player sees them, with a margin of
// edge points wide enough that no large pattern reads beyond it, so that
// reading a pattern needs neither bounds nor branches.
type largeView struct {
	// stones[(y+1)*(stride+1)+x+1] counts the stones of st's rows below
	// y+1 and columns below x+1 (st's coordinates): stones in a
	// rectangle are four look-ups.
	stones      [(engine.MaxSize + 2*largePad + 1) * (engine.MaxSize + 2*largePad + 1)]int16
	st          [(engine.MaxSize + 2*largePad) * (engine.MaxSize + 2*largePad)]uint8
	stride      int             // of st
	boardStride int             // of the board's vertices
	delta       [largeCount]int // largeOffsets in st
}

// load fills lv with the points of b seen by c.
func (lv *largeView) load(b *engine.Board, c engine.Color) {
	n := b.Size()
	lv.stride, lv.boardStride = n+2*largePad, b.Stride()
	for i := range lv.stride * lv.stride {
		lv.st[i] = lsEdge
	}
	for y := range n {
		row := (y+largePad)*lv.stride + largePad
		for x := range n {
			var st uint8
			switch b.ColorAt((y+1)*lv.boardStride + x + 1) {
			case engine.Empty:
			case c:
				st = lsOwn
			default:
				st = lsOpp
			}
			lv.st[row+x] = st
		}
	}
	for i, o := range largeOffsets {
		lv.delta[i] = o.dy*lv.stride + o.dx
	}
	w := lv.stride + 1
	for y := range lv.stride {
		var row int16
		for x := range lv.stride {
			if st := lv.st[y*lv.stride+x]; st == lsOwn || st == lsOpp {
				row++
			}
			lv.stones[(y+1)*w+x+1] = lv.stones[y*w+x+1] + row
		}
	}
}

// empty reports whether no stone stands in the square of side
// 2·largePad+1 around index p of lv.st, which holds every large pattern of
// the move at p.
func (lv *largeView) empty(p int) bool {
	w := lv.stride + 1
	x0, y0 := p%lv.stride-largePad, p/lv.stride-largePad // the square's first column and row
	x1, y1 := x0+2*largePad+1, y0+2*largePad+1           // and one past its last
	return lv.stones[y1*w+x1]-lv.stones[y0*w+x1]-lv.stones[y1*w+x0]+lv.stones[y0*w+x0] == 0
}

// index returns the index in lv.st of board vertex v.
func (lv *largeView) index(v int) int {
	return (v/lv.boardStride-1+largePad)*lv.stride + v%lv.boardStride - 1 + largePad
}

// codes sets codes to the canonical codes of the large patterns around
// empty vertex v of the board lv was loaded from. It allocates nothing.
func (lv *largeView) codes(v int, codes *LargeCodes) {
	p := lv.index(v)
	// One code for each symmetric form, the least the canonical one; in
	// two passes of four forms, which the registers hold. Empty points
	// have keys of 0.
	keys, end, st, delta := largeKeys, &largeEnd, &lv.st, &lv.delta
	var h0, h1, h2, h3 uint64
	i := 0
	for k := range largeN {
		for ; i < end[k]; i++ {
			key := &keys[i][st[p+delta[i]]&3]
			h0 ^= key[0]
			h1 ^= key[1]
			h2 ^= key[2]
			h3 ^= key[3]
		}
		codes[k] = min(h0, h1, h2, h3)
	}
	h0, h1, h2, h3 = 0, 0, 0, 0
	i = 0
	for k := range largeN {
		for ; i < end[k]; i++ {
			key := &keys[i][st[p+delta[i]]&3]
			h0 ^= key[4]
			h1 ^= key[5]
			h2 ^= key[6]
			h3 ^= key[7]
		}
		codes[k] = min(codes[k], h0, h1, h2, h3) ^ largeSalt[k]
	}
}

// largeClass returns the Large value of a move with codes in m: 1 + the
// index in m's dictionary of the largest pattern found whose smaller ones
// are all found too, 0 for none. (A dictionary holds the smaller patterns
// of each of its patterns, which are seen at least as often; see
// Trainer.largeDictionary.)
func (m *Model) largeClass(codes *LargeCodes) uint32 {
	class := uint32(0)
	for k := range largeN {
		i, ok := slices.BinarySearch(m.largeCodes, codes[k])
		if !ok {
			break
		}
		class = uint32(i + 1)
	}
	return class
}

// largeGammaAt returns the gamma of the largest pattern around v in m's
// dictionary, as largeClass, 1 for none; lv holds the board seen by the
// player. It reads the patterns from the smallest and stops at the first
// not in the dictionary: on a full board most moves' patterns are rare
// from the smallest on.
func (m *Model) largeGammaAt(lv *largeView, v int) float32 {
	p := lv.index(v)
	if lv.empty(p) {
		return m.emptyLarge(lv.stride - 2*largePad)[v]
	}
	return m.readLarge(lv, p)
}

// emptyLarge returns largeGammaAt of every vertex of an empty board of the
// given size, by vertex: the gamma of a move with no stone around (most
// moves of the opening), computed once.
func (m *Model) emptyLarge(size int) []float32 {
	e := &m.empty[size]
	e.once.Do(func() {
		b, err := engine.NewBoard(size)
		if err != nil {
			panic(err)
		}
		var lv largeView
		lv.load(b, engine.Black)
		e.gamma = make([]float32, b.Area())
		for i := range b.EmptyCount() {
			v := b.EmptyVertex(i)
			e.gamma[v] = m.readLarge(&lv, lv.index(v))
		}
	})
	return e.gamma
}

// readLarge returns largeGammaAt of the move at index p of lv.st, reading
// its patterns.
func (m *Model) readLarge(lv *largeView, p int) float32 {
	keys, end, st, delta := largeKeys, &largeEnd, &lv.st, &lv.delta
	var h [8]uint64
	g := float32(1)
	i := 0
	for k := range largeN {
		// The points of this size's ring, each symmetric form's code in
		// two passes of four, which the registers hold.
		h0, h1, h2, h3 := h[0], h[1], h[2], h[3]
		for j := i; j < end[k]; j++ {
			key := &keys[j][st[p+delta[j]]&3]
			h0 ^= key[0]
			h1 ^= key[1]
			h2 ^= key[2]
			h3 ^= key[3]
		}
		h[0], h[1], h[2], h[3] = h0, h1, h2, h3
		code := min(h0, h1, h2, h3)
		h0, h1, h2, h3 = h[4], h[5], h[6], h[7]
		for j := i; j < end[k]; j++ {
			key := &keys[j][st[p+delta[j]]&3]
			h0 ^= key[4]
			h1 ^= key[5]
			h2 ^= key[6]
			h3 ^= key[7]
		}
		h[4], h[5], h[6], h[7] = h0, h1, h2, h3
		code = min(code, h0, h1, h2, h3) ^ largeSalt[k]
		i = end[k]
		gk, ok := m.largeIndex.get(code)
		if !ok {
			break
		}
		g = gk
	}
	return g
}

// largeTable maps the codes of a dictionary to their gammas: open
// addressing with linear probing, a code's top bits its first slot (codes
// are as good as random), 0 an empty slot. At most a quarter of the slots
// are used, so that a code not in the dictionary (most codes of a full
// board) mostly costs one read.
type largeTable struct {
	keys  []uint64
	gamma []float32
	shift uint // 64 − log2(len(keys))
}

// newLargeTable returns the table of the given codes and gammas.
func newLargeTable(codes []uint64, gammas []float32) *largeTable {
	bits := uint(4)
	for 1<<bits < 4*len(codes) {
		bits++
	}
	t := &largeTable{keys: make([]uint64, 1<<bits), gamma: make([]float32, 1<<bits), shift: 64 - bits}
	mask := uint64(len(t.keys) - 1)
	for i, k := range codes {
		if k == 0 {
			panic("shape: a large-pattern code of 0")
		}
		j := k >> t.shift
		for t.keys[j] != 0 {
			j = (j + 1) & mask
		}
		t.keys[j], t.gamma[j] = k, gammas[i]
	}
	return t
}

// get returns the gamma of code and whether the table holds it.
func (t *largeTable) get(code uint64) (float32, bool) {
	mask := uint64(len(t.keys) - 1)
	for j := code >> t.shift; ; j = (j + 1) & mask {
		switch t.keys[j] {
		case code:
			return t.gamma[j], true
		case 0:
			return 0, false
		}
	}
}

// HasLarge reports whether m rates large patterns.
func (m *Model) HasLarge() bool { return m.largeCodes != nil }
