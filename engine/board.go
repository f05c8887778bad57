package engine

// The board is a one-dimensional array with a border of one point on every
// side, so that every point of the playing area has four neighbours. Chains
// are circular linked lists of stones with a representative (head); the head
// carries the chain's size and its pseudo-liberties (libEGO style): the
// number of (stone, empty neighbour) pairs with the sum and the sum of squares
// of the liberty indices, which tell in O(1) whether a chain is in atari and
// where its last liberty is.

// MaxArea bounds the vertex indices of every board size (Board.Area is at
// most MaxArea): an array of MaxArea entries can be indexed by the vertices
// of any Board.
const MaxArea = maxArea

const (
	maxStride = MaxSize + 2
	maxArea   = maxStride * maxStride
	// arrSize is maxArea rounded up to a power of two: indexing the
	// arrays with v&mask lets the compiler drop bounds checks on the hot
	// path.
	arrSize = 1024
	mask    = arrSize - 1
)

// PassVertex is the vertex index that stands for a pass in Board.Play.
const PassVertex = 0

// Board is a position: stones, chains, captures, the simple-ko point and the
// Zobrist hash. It is the fast, unchecked door into the rules: Play trusts
// that the move is legal (check with Legal first), allocates nothing, and a
// Board copies by value with plain assignment. Superko is the caller's
// concern (Game checks it; a search checks it along its path with Hash).
//
// The zero Board is not usable: create one with NewBoard. A Board is not safe
// for concurrent use.
type Board struct {
	size, stride int
	// AllowSuicide permits multi-stone suicide (Tromp–Taylor and New
	// Zealand rules). Single-stone suicide is never legal.
	AllowSuicide bool

	koPoint int   // vertex that koColor may not play at once; 0 for none
	koColor Color // the colour the ko forbids
	nEmpty  int
	hash    uint64
	caps    [3]int // stones captured by Black ([1]) and White ([2])

	color   [arrSize]Color
	next    [arrSize]int16  // next stone of the same chain (circular)
	head    [arrSize]int16  // chain representative
	chain   [arrSize]chain  // chain data, valid at heads
	empty   [arrSize]int16  // the empty vertices, in no order
	emptyAt [arrSize]int16  // index of a vertex in empty
	nbr     [arrSize]uint16 // the 3×3 code of each point, when track is set
	track   bool            // keep nbr up to date (TrackNeighbourhoods)
}

// chain is what a chain's head records: its size and pseudo-liberties.
type chain struct {
	size  int16  // stones
	plibs int16  // pseudo-liberty count
	lsum  uint32 // sum of pseudo-liberty vertices
	lsq   uint32 // sum of their squares
}

// NewBoard returns an empty board of the given size, or ErrInvalidSize.
func NewBoard(size int) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, ErrInvalidSize
	}
	b := &Board{size: size, stride: size + 2}
	b.Clear()
	return b, nil
}

// Clear empties the board, keeping its size and suicide rule.
func (b *Board) Clear() {
	size, stride, suicide, track := b.size, b.stride, b.AllowSuicide, b.track
	*b = Board{size: size, stride: stride, AllowSuicide: suicide, track: track}
	area := stride * stride
	for v := 0; v < area; v++ {
		b.color[v] = border
	}
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			v := (r+1)*stride + c + 1
			b.color[v] = Empty
			b.emptyAt[v] = int16(b.nEmpty)
			b.empty[b.nEmpty] = int16(v)
			b.nEmpty++
		}
	}
	if track {
		b.track = false
		b.TrackNeighbourhoods()
	}
}

// TrackNeighbourhoods makes the board keep the 3×3 code of every point
// (Neighbourhood) up to date from now on, through Play, captures, SetStone
// and Clear, and in its copies. It costs every move a little (eight
// updates a stone placed or taken off) and makes reading a code almost
// free: for playouts that read many codes (shape patterns).
func (b *Board) TrackNeighbourhoods() {
	if b.track {
		return
	}
	b.track = true
	for v := 0; v < b.Area(); v++ {
		b.nbr[v] = 0
		if b.color[v] != border {
			b.nbr[v] = b.neighbourhood(v)
		}
	}
}

// Neighbourhood returns the 3×3 code of vertex v, which must be on the
// board: the colours of its eight neighbours, two bits each (Empty 0,
// Black 1, White 2, off the board 3), the row above first, left to right,
// then left and right, then the row below; the first neighbour (v−stride−1)
// in the lowest bits. A board that tracks the codes (TrackNeighbourhoods)
// reads it; another computes it.
func (b *Board) Neighbourhood(v int) uint16 {
	if b.track {
		return b.nbr[v&mask]
	}
	return b.neighbourhood(v)
}

// neighbourhood computes the 3×3 code of v from the colours around it.
func (b *Board) neighbourhood(v int) uint16 {
	s := b.stride
	var k uint16
	for i, q := range [8]int{v - s - 1, v - s, v - s + 1, v - 1, v + 1, v + s - 1, v + s, v + s + 1} {
		k |= uint16(b.color[q&mask]) << (2 * i)
	}
	return k
}

// renumber changes the 3×3 codes of v's neighbours after the colour of v
// changed by d (the old colour xor the new), on a board that tracks them.
// In each neighbour's code v is the neighbour in the opposite direction.
func (b *Board) renumber(v int, d Color) {
	k, s := uint16(d), b.stride
	b.nbr[(v-s-1)&mask] ^= k << 14
	b.nbr[(v-s)&mask] ^= k << 12
	b.nbr[(v-s+1)&mask] ^= k << 10
	b.nbr[(v-1)&mask] ^= k << 8
	b.nbr[(v+1)&mask] ^= k << 6
	b.nbr[(v+s-1)&mask] ^= k << 4
	b.nbr[(v+s)&mask] ^= k << 2
	b.nbr[(v+s+1)&mask] ^= k
}

// Size returns the board's side length.
func (b *Board) Size() int { return b.size }

// Stride returns the distance between vertically adjacent vertices.
func (b *Board) Stride() int { return b.stride }

// Area returns one more than the largest vertex index.
func (b *Board) Area() int { return b.stride * b.stride }

// Vertex returns the index of p, which must be on the board.
func (b *Board) Vertex(p Point) int { return (p.Row+1)*b.stride + p.Col + 1 }

// Point returns the point of vertex v; NoPoint for PassVertex.
func (b *Board) Point(v int) Point {
	if v == PassVertex {
		return NoPoint
	}
	return Point{v%b.stride - 1, v/b.stride - 1}
}

// OnBoard reports whether vertex v is a point of the playing area.
func (b *Board) OnBoard(v int) bool {
	return v > 0 && v < b.stride*b.stride && b.color[v] != border
}

// At returns the colour at p; Empty off the board.
func (b *Board) At(p Point) Color {
	if !p.Valid(b.size) {
		return Empty
	}
	return b.color[b.Vertex(p)]
}

// ColorAt returns the colour at vertex v (border colours are reported as
// Empty for callers outside the package).
func (b *Board) ColorAt(v int) Color {
	if c := b.color[v]; c != border {
		return c
	}
	return Empty
}

// IsBorder reports whether vertex v is off the playing area.
func (b *Board) IsBorder(v int) bool { return b.color[v] == border }

// Hash returns the Zobrist hash of the stones on the board (not of the side
// to move or the ko point).
func (b *Board) Hash() uint64 { return b.hash }

// Captures returns the number of stones c has captured.
func (b *Board) Captures(c Color) int { return b.caps[c] }

// Ko returns the point c may not play at because it would retake a ko at
// once, or NoPoint.
func (b *Board) Ko(c Color) Point {
	if b.koPoint == 0 || b.koColor != c {
		return NoPoint
	}
	return b.Point(b.koPoint)
}

// KoVertex returns the current simple-ko vertex and the colour it forbids;
// 0 when there is none.
func (b *Board) KoVertex() (int, Color) { return b.koPoint, b.koColor }

// EmptyCount returns the number of empty points.
func (b *Board) EmptyCount() int { return b.nEmpty }

// EmptyVertex returns the i-th empty vertex, 0 <= i < EmptyCount(), in no
// particular order; the order changes as moves are played.
func (b *Board) EmptyVertex(i int) int { return int(b.empty[i]) }

// Neighbours returns the four orthogonal neighbours of v (some may be
// border vertices).
func (b *Board) Neighbours(v int) [4]int { return b.neighbours(v) }

func (b *Board) neighbours(v int) [4]int {
	return [4]int{v - b.stride, v - 1, v + 1, v + b.stride}
}

// Diagonals returns the four diagonal neighbours of v.
func (b *Board) Diagonals(v int) [4]int {
	s := b.stride
	return [4]int{v - s - 1, v - s + 1, v + s - 1, v + s + 1}
}

// NeighbourCount returns how many orthogonal neighbours of v have colour c
// (Empty, Black or White); off-board neighbours are counted by EdgeCount.
func (b *Board) NeighbourCount(v int, c Color) int {
	n := 0
	for _, q := range b.neighbours(v) {
		if b.color[q&mask] == c {
			n++
		}
	}
	return n
}

// EdgeCount returns how many orthogonal neighbours of v are off the board.
func (b *Board) EdgeCount(v int) int { return b.NeighbourCount(v, border) }

// Chain returns the representative of the chain at vertex v, which must
// hold a stone. Two stones are in one chain exactly when their
// representatives are equal.
func (b *Board) Chain(v int) int { return int(b.head[v]) }

// ChainSize returns the number of stones in the chain at v.
func (b *Board) ChainSize(v int) int { return int(b.chain[b.head[v&mask]&mask].size) }

// NextStone returns the next stone of v's chain; following it from any stone
// visits the whole chain and returns to the start.
func (b *Board) NextStone(v int) int { return int(b.next[v]) }

// InAtari reports whether the chain at v has exactly one liberty.
func (b *Board) InAtari(v int) bool {
	ch := &b.chain[b.head[v&mask]&mask]
	n := uint64(ch.plibs)
	s := uint64(ch.lsum)
	return n > 0 && n*uint64(ch.lsq) == s*s
}

// AtariLiberty returns the only liberty of the chain at v, which must be in
// atari.
func (b *Board) AtariLiberty(v int) int {
	ch := &b.chain[b.head[v&mask]&mask]
	return int(ch.lsum) / int(ch.plibs)
}

// Liberties counts the distinct liberties of the chain at v, stopping once
// it has found max of them (max <= 0 means no limit). It walks the chain.
func (b *Board) Liberties(v int, max int) int {
	var seen [arrSize / 64]uint64
	n := 0
	s := v
	for {
		for _, q := range b.neighbours(s) {
			if b.color[q] == Empty && seen[q>>6]&(1<<(q&63)) == 0 {
				seen[q>>6] |= 1 << (q & 63)
				n++
				if n == max {
					return n
				}
			}
		}
		s = int(b.next[s])
		if s == v {
			return n
		}
	}
}

// LibertyList appends up to max distinct liberties of the chain at v to dst.
func (b *Board) LibertyList(dst []int, v int, max int) []int {
	var seen [arrSize / 64]uint64
	s := v
	for {
		for _, q := range b.neighbours(s) {
			if b.color[q] == Empty && seen[q>>6]&(1<<(q&63)) == 0 {
				seen[q>>6] |= 1 << (q & 63)
				dst = append(dst, q)
				if len(dst) >= max {
					return dst
				}
			}
		}
		s = int(b.next[s])
		if s == v {
			return dst
		}
	}
}

// OtherLiberties tells how many liberties the chain at v (a stone) has
// besides x: 0, 1 or 2 (two or more), and the other liberty when there is
// exactly one. It does not walk the chain: it takes x's share out of the
// chain's pseudo-liberties, and the rest are all one vertex exactly when
// their count times the sum of their squares is the square of their sum.
func (b *Board) OtherLiberties(v, x int) (n, other int) {
	h := b.head[v&mask]
	ch := &b.chain[h&mask]
	k, s1, s2 := int64(ch.plibs), int64(ch.lsum), int64(ch.lsq)
	if b.color[x&mask] == Empty {
		// x is a pseudo-liberty once for each stone of the chain next to
		// it (the head of an empty point may be stale: check the colour).
		c, s, at := b.color[v&mask], b.stride, int64(0)
		if b.head[(x-s)&mask] == h && b.color[(x-s)&mask] == c {
			at++
		}
		if b.head[(x-1)&mask] == h && b.color[(x-1)&mask] == c {
			at++
		}
		if b.head[(x+1)&mask] == h && b.color[(x+1)&mask] == c {
			at++
		}
		if b.head[(x+s)&mask] == h && b.color[(x+s)&mask] == c {
			at++
		}
		k, s1, s2 = k-at, s1-at*int64(x), s2-at*int64(x*x)
	}
	switch {
	case k == 0:
		return 0, 0
	case k*s2 == s1*s1:
		return 1, int(s1 / k)
	}
	return 2, 0
}

// IsEyeish reports whether v is empty and every orthogonal neighbour is c
// or off the board.
func (b *Board) IsEyeish(v int, c Color) bool {
	// Black is 1, White 2 and border 3: a neighbour is c or off the board
	// exactly when it has c's bit.
	s := b.stride
	n := b.color[(v-s)&mask] & b.color[(v-1)&mask] & b.color[(v+1)&mask] & b.color[(v+s)&mask]
	return b.color[v&mask] == Empty && n&c != 0
}

// IsEye reports whether v is an eye of c by the usual playout test: every
// orthogonal neighbour is c or off the board, and at most one diagonal (none
// on the edge or in the corner) is the opponent's. Filling such a point is
// almost never right.
func (b *Board) IsEye(v int, c Color) bool {
	return b.IsEyeish(v, c) && b.eyeDiagonals(v, c)
}

// eyeDiagonals reports whether the diagonals of v let it be an eye of c:
// at most one is the opponent's, and none when v is on the edge.
func (b *Board) eyeDiagonals(v int, c Color) bool {
	// Count the diagonals that are the opponent's, and whether any is off
	// the board: with the opponent's bit o, an opponent stone or the
	// border has it; only the border has both bits.
	s := b.stride
	o := c.Opponent()
	if o == Empty {
		return false
	}
	nw, ne, sw, se := b.color[(v-s-1)&mask], b.color[(v-s+1)&mask], b.color[(v+s-1)&mask], b.color[(v+s+1)&mask]
	bad := 0
	if nw == border || ne == border || sw == border || se == border {
		bad = 1 // the edge
	}
	if nw == o {
		bad++
	}
	if ne == o {
		bad++
	}
	if sw == o {
		bad++
	}
	if se == o {
		bad++
	}
	return bad < 2
}

// Playable reports whether c may play at v and it fills no eye of c: the
// same as Legal(v, c) && !IsEye(v, c), the test every playout move passes,
// reading v's neighbours once.
func (b *Board) Playable(v int, c Color) bool {
	if v <= 0 || v >= maxArea || b.color[v&mask] != Empty || (c != Black && c != White) {
		return false
	}
	if v == b.koPoint && c == b.koColor {
		return false
	}
	s := b.stride
	n, w, e, so := b.color[(v-s)&mask], b.color[(v-1)&mask], b.color[(v+1)&mask], b.color[(v+s)&mask]
	if n == Empty || w == Empty || e == Empty || so == Empty {
		return true // legal, and no eye: an eye has no empty neighbour
	}
	if n&w&e&so&c != 0 && b.eyeDiagonals(v, c) {
		return false
	}
	return !b.isSuicide(v, c)
}

// Legal reports whether c may place a stone at v under the board's own
// rules: the point is empty, it is not a ko c may not retake, and it is not
// suicide (multi-stone suicide is legal when AllowSuicide is set). Superko is
// not checked here.
func (b *Board) Legal(v int, c Color) bool {
	if v <= 0 || v >= maxArea || b.color[v&mask] != Empty {
		return false
	}
	if c != Black && c != White {
		return false
	}
	if v == b.koPoint && c == b.koColor {
		return false
	}
	s := b.stride
	if b.color[(v-s)&mask] == Empty || b.color[(v-1)&mask] == Empty || b.color[(v+1)&mask] == Empty || b.color[(v+s)&mask] == Empty {
		return true
	}
	return !b.isSuicide(v, c)
}

// isSuicide reports whether a stone of c at v (empty, no empty neighbour)
// would be suicide that the rules forbid.
func (b *Board) isSuicide(v int, c Color) bool {
	own := false
	for _, n := range b.neighbours(v) {
		switch b.color[n&mask] {
		case c:
			own = true
			if !b.inAtariAt(n, v) {
				return false
			}
		case c ^ 3: // the opponent: Black and White are 1 and 2
			if b.inAtariAt(n, v) {
				return false // captures
			}
		}
	}
	return !(own && b.AllowSuicide)
}

// inAtariAt reports whether the chain at n has v as its only liberty.
func (b *Board) inAtariAt(n, v int) bool {
	ch := &b.chain[b.head[n&mask]&mask]
	k := uint32(ch.plibs)
	return ch.lsum == uint32(v)*k && ch.lsq == uint32(v*v)*k
}

// WouldCapture reports whether c placing at v would capture at least one stone.
// v must be empty.
func (b *Board) WouldCapture(v int, c Color) bool {
	opp := c.Opponent()
	for _, n := range b.neighbours(v) {
		if b.color[n&mask] == opp && b.inAtariAt(n, v) {
			return true
		}
	}
	return false
}

// Play places a stone of c at v, or passes when v is PassVertex, and
// returns the number of stones it captured. The move must be legal
// (Legal(v, c)); Play does not check and allocates nothing. A multi-stone
// suicide, where allowed, removes the player's own chain.
func (b *Board) Play(v int, c Color) int {
	b.koPoint = 0
	if v == PassVertex {
		return 0
	}
	v &= mask
	opp := c ^ 3 // Black and White are 1 and 2
	b.removeEmpty(v)
	b.color[v] = c
	if b.track {
		b.renumber(v, c)
	}
	b.hash ^= zobrist[c&3][v]
	b.head[v] = int16(v)
	b.next[v] = int16(v)
	b.chain[v] = chain{size: 1}
	nbrs := b.neighbours(v)
	// The new stone's own pseudo-liberties are summed here and added to
	// its chain once the merges are done.
	var pl int16
	var ls, lq uint32
	hv := v
	dead := false // an opponent chain lost its last liberty
	for _, n := range nbrs {
		n &= mask
		k := b.color[n]
		switch {
		case k == Empty:
			pl++
			ls += uint32(n)
			lq += uint32(n * n)
		case k != border:
			hn := int(b.head[n]) & mask
			b.removeLib(hn, v)
			if k == c {
				if hn != hv {
					b.merge(hv, hn)
					hv = int(b.head[v]) & mask
				}
			} else if b.chain[hn].plibs == 0 {
				dead = true
			}
		}
	}
	ch := &b.chain[hv]
	ch.plibs += pl
	ch.lsum += ls
	ch.lsq += lq
	captured, capturedAt := 0, 0
	if dead {
		for _, n := range nbrs {
			n &= mask
			if b.color[n] == opp && b.chain[b.head[n]&mask].plibs == 0 {
				captured += b.removeChain(n)
				capturedAt = n
			}
		}
	}
	b.caps[c&3] += captured
	ch = &b.chain[b.head[v]&mask]
	if ch.plibs == 0 {
		// Multi-stone suicide, which Legal allowed.
		b.caps[opp&3] += b.removeChain(v)
		return captured
	}
	if captured == 1 && ch.size == 1 && ch.plibs == 1 {
		b.koPoint, b.koColor = capturedAt, opp
	}
	return captured
}

func (b *Board) addLib(h, l int) {
	ch := &b.chain[h&mask]
	ch.plibs++
	ch.lsum += uint32(l)
	ch.lsq += uint32(l * l)
}

func (b *Board) removeLib(h, l int) {
	ch := &b.chain[h&mask]
	ch.plibs--
	ch.lsum -= uint32(l)
	ch.lsq -= uint32(l * l)
}

// merge joins chain c into chain a (both heads); the larger keeps its head.
func (b *Board) merge(a, c int) {
	a, c = a&mask, c&mask
	if b.chain[a].size < b.chain[c].size {
		a, c = c, a
	}
	s := c
	for {
		b.head[s] = int16(a)
		s = int(b.next[s]) & mask
		if s == c {
			break
		}
	}
	b.next[a], b.next[c] = b.next[c], b.next[a]
	ca, cc := &b.chain[a], &b.chain[c]
	ca.size += cc.size
	ca.plibs += cc.plibs
	ca.lsum += cc.lsum
	ca.lsq += cc.lsq
}

// removeChain takes the chain at v off the board and returns its size.
func (b *Board) removeChain(v int) int {
	v &= mask
	col := b.color[v]
	n := int(b.chain[b.head[v]&mask].size)
	s := v
	for {
		b.color[s] = Empty
		if b.track {
			b.renumber(s, col)
		}
		b.hash ^= zobrist[col&3][s]
		b.addEmpty(s)
		s = int(b.next[s]) & mask
		if s == v {
			break
		}
	}
	for {
		for _, q := range b.neighbours(s) {
			q &= mask
			if c := b.color[q]; c == Black || c == White {
				b.addLib(int(b.head[q]), s)
			}
		}
		s = int(b.next[s]) & mask
		if s == v {
			break
		}
	}
	return n
}

func (b *Board) removeEmpty(v int) {
	i := b.emptyAt[v&mask]
	b.nEmpty--
	last := b.empty[b.nEmpty&mask]
	b.empty[i&mask] = last
	b.emptyAt[last&mask] = i
}

func (b *Board) addEmpty(v int) {
	b.empty[b.nEmpty&mask] = int16(v)
	b.emptyAt[v&mask] = int16(b.nEmpty)
	b.nEmpty++
}

// zobrist holds a random key for each colour on each vertex, from a fixed
// seed so hashes are the same in every process.
var zobrist = func() (z [4][arrSize]uint64) {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		x += 0x9E3779B97F4A7C15
		r := x
		r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9
		r = (r ^ (r >> 27)) * 0x94D049BB133111EB
		return r ^ (r >> 31)
	}
	for c := 1; c < 3; c++ {
		for v := range z[c] {
			z[c][v] = next()
		}
	}
	return z
}()

// sideKey is mixed into the hash for situational superko when White is to
// move.
var sideKey = uint64(0xA5B35705F4E3C2D1)

// ComputeHash recomputes the Zobrist hash from the stones; it equals Hash()
// on a consistent board (a check for tests and for loaded state).
func (b *Board) ComputeHash() uint64 {
	var h uint64
	for v := 0; v < b.Area(); v++ {
		if c := b.color[v]; c == Black || c == White {
			h ^= zobrist[c][v]
		}
	}
	return h
}

// SetStone puts c (Black, White or Empty) at p without capturing anything,
// as SGF setup properties (AB, AW, AE) and free handicap placement do. It
// clears the ko point and rebuilds chains. It is the slow path.
func (b *Board) SetStone(p Point, c Color) {
	var stones [3][]int
	for v := 0; v < b.Area(); v++ {
		if col := b.color[v]; col == Black || col == White {
			stones[col] = append(stones[col], v)
		}
	}
	target := b.Vertex(p)
	caps := b.caps
	b.Clear()
	b.caps = caps
	for col := Black; col <= White; col++ {
		for _, v := range stones[col] {
			if v != target {
				b.place(v, col)
			}
		}
	}
	if c == Black || c == White {
		b.place(target, c)
	}
}

// place puts a stone without capturing: used to rebuild set-up positions.
func (b *Board) place(v int, c Color) {
	b.removeEmpty(v)
	b.color[v] = c
	if b.track {
		b.renumber(v, c)
	}
	b.hash ^= zobrist[c][v]
	b.head[v] = int16(v)
	b.next[v] = int16(v)
	b.chain[v] = chain{size: 1}
	for _, n := range b.neighbours(v) {
		switch b.color[n] {
		case Empty:
			b.addLib(int(b.head[v]), n)
		case Black, White:
			b.removeLib(int(b.head[n]), v)
			if b.color[n] == c && b.head[n] != b.head[v] {
				b.merge(int(b.head[v]), int(b.head[n]))
			}
		}
	}
}

// String draws the board as text, row 1 at the bottom: X black, O white.
func (b *Board) String() string {
	buf := make([]byte, 0, (b.size+2)*(2*b.size+6))
	header := func() {
		buf = append(buf, "   "...)
		for c := 0; c < b.size; c++ {
			buf = append(buf, columns[c], ' ')
		}
		buf = append(buf, '\n')
	}
	header()
	for r := b.size - 1; r >= 0; r-- {
		if r+1 < 10 {
			buf = append(buf, ' ')
		}
		buf = append(buf, itoa(r+1)...)
		buf = append(buf, ' ')
		for c := 0; c < b.size; c++ {
			ch := byte('.')
			switch b.color[b.Vertex(Point{c, r})] {
			case Black:
				ch = 'X'
			case White:
				ch = 'O'
			}
			buf = append(buf, ch, ' ')
		}
		buf = append(buf, '\n')
	}
	header()
	return string(buf)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// RandomMove returns a random legal move for c that does not fill one of c's
// own eyes (IsEye), or PassVertex when there is none. r is a random number,
// such as rand.Uint32(): the scan of the empty points starts at a position
// drawn from it, as light playouts do (every candidate is reachable, though
// points right after illegal ones are somewhat more likely). Superko is not
// checked.
func (b *Board) RandomMove(c Color, r uint32) int {
	n := b.nEmpty
	if n == 0 {
		return PassVertex
	}
	i := int(uint64(r) * uint64(n) >> 32)
	for k := 0; k < n; k++ {
		v := int(b.empty[i&mask])
		if b.Playable(v, c) {
			return v
		}
		if i++; i == n {
			i = 0
		}
	}
	return PassVertex
}
