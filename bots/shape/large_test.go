package shape

import (
	"maps"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/playout"
)

// randomBoard returns a board of the given size after n random moves of a
// playout player.
func randomBoard(t testing.TB, size, n int, seed uint64) *engine.Board {
	t.Helper()
	b, err := engine.NewBoard(size)
	if err != nil {
		t.Fatal(err)
	}
	p := playout.Player{Rand: playout.NewRand(seed)}
	c, last := engine.Black, engine.PassVertex
	for range n {
		v := p.Move(b, c, last)
		b.Play(v, c)
		c, last = c.Opponent(), v
	}
	return b
}

// transformBoard returns b with every stone moved by symmetry sym (and the
// colours swapped when swap is set), and the vertex v moves to.
func transformBoard(t *testing.T, b *engine.Board, v, sym int, swap bool) (*engine.Board, int) {
	t.Helper()
	n := b.Size()
	out, err := engine.NewBoard(n)
	if err != nil {
		t.Fatal(err)
	}
	move := func(p engine.Point) engine.Point {
		// Around the centre of the board, so that the board maps onto itself.
		dx, dy := playout.Transform(2*p.Col-(n-1), 2*p.Row-(n-1), sym)
		return engine.Point{Col: (dx + n - 1) / 2, Row: (dy + n - 1) / 2}
	}
	for row := range n {
		for col := range n {
			p := engine.Point{Col: col, Row: row}
			c := b.At(p)
			if c == engine.Empty {
				continue
			}
			if swap {
				c = c.Opponent()
			}
			out.SetStone(move(p), c)
		}
	}
	return out, out.Vertex(move(b.Point(v)))
}

// TestLargeCodesSymmetric checks that the eight symmetric forms of a
// position, and the position with the colours swapped seen by the other
// player, give every move the same large-pattern codes; that moves near
// the edge are among those checked; and that the codes of one position
// are not all equal.
func TestLargeCodesSymmetric(t *testing.T) {
	for _, size := range []int{9, 19} {
		b := randomBoard(t, size, size*size/3, uint64(size))
		distinct := make(map[uint64]bool)
		edges := 0
		for i := range b.EmptyCount() {
			v := b.EmptyVertex(i)
			var want LargeCodes
			ComputeLargeCodes(b, v, engine.Black, &want)
			distinct[want[largeN-1]] = true
			if p := b.Point(v); p.Col < largePad || p.Row < largePad {
				edges++
			}
			for sym := range 8 {
				for _, swap := range []bool{false, true} {
					tb, tv := transformBoard(t, b, v, sym, swap)
					c := engine.Black
					if swap {
						c = engine.White
					}
					var got LargeCodes
					ComputeLargeCodes(tb, tv, c, &got)
					if got != want {
						t.Fatalf("%d×%d, %v: symmetry %d (colours swapped %v) at %v gives codes %x, want %x\n%v",
							size, size, b.Point(v), sym, swap, tb.Point(tv), got, want, b)
					}
				}
			}
		}
		if edges == 0 || len(distinct) < b.EmptyCount()/2 {
			t.Errorf("%d×%d: %d moves near the edge, %d distinct codes of %d moves", size, size, edges, len(distinct), b.EmptyCount())
		}
	}
}

// largeCodesSlowly computes the codes of v point by point from the
// coordinates of the board's points: every symmetric form's code from the
// keys of the identity, the least of them.
func largeCodesSlowly(b *engine.Board, v int, c engine.Color) LargeCodes {
	at := make(map[[2]int]int)
	for i, o := range largeOffsets {
		at[[2]int{o.dx, o.dy}] = i
	}
	p := b.Point(v)
	var codes LargeCodes
	for k, r := range LargeSizes {
		least := ^uint64(0)
		for sym := range 8 {
			var h uint64
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					ax, ay := max(dx, -dx), max(dy, -dy)
					if d := ax + ay + max(ax, ay); d == 0 || d > r {
						continue
					}
					q := engine.Point{Col: p.Col + dx, Row: p.Row + dy}
					st := lsEdge
					if q.Valid(b.Size()) {
						switch b.At(q) {
						case engine.Empty:
							continue
						case c:
							st = lsOwn
						default:
							st = lsOpp
						}
					}
					tx, ty := playout.Transform(dx, dy, sym)
					h ^= largeKeys[at[[2]int{tx, ty}]][st][0]
				}
			}
			least = min(least, h)
		}
		codes[k] = least ^ largeSalt[k]
	}
	return codes
}

// TestLargeCodesNearTheEdge compares the codes with largeCodesSlowly on
// every point of a 13×13 board, the edges included (where the board's
// rows would wrap round without the bounds), and checks that stones
// beyond the edge of a move's pattern (on the other side of the board)
// do not count.
func TestLargeCodesNearTheEdge(t *testing.T) {
	b := randomBoard(t, 13, 50, 7)
	for i := range b.EmptyCount() {
		v := b.EmptyVertex(i)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			var got LargeCodes
			ComputeLargeCodes(b, v, c, &got)
			if want := largeCodesSlowly(b, v, c); got != want {
				t.Fatalf("%v for %v: codes %x, want %x\n%v", b.Point(v), c, got, want, b)
			}
		}
	}
	// A1 with a black stone on the last column of the next row (which
	// follows A1's row in memory): a pattern of the empty corner.
	empty := enginetest.Board(t, `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
	`)
	wrap := enginetest.Board(t, `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . X
		. . . . . . . . X
		. . . . . . . . .
	`)
	var a, w, c LargeCodes
	ComputeLargeCodes(empty, empty.Vertex(enginetest.Point(t, "A1", 9)), engine.Black, &a)
	ComputeLargeCodes(wrap, wrap.Vertex(enginetest.Point(t, "A1", 9)), engine.Black, &w)
	if a != w {
		t.Errorf("A1 with stones at J2 and J3: codes %x, want the empty corner's %x", w, a)
	}
	// The empty corner is not the empty centre, nor the empty edge.
	ComputeLargeCodes(empty, empty.Vertex(enginetest.Point(t, "E5", 9)), engine.Black, &c)
	var e LargeCodes
	ComputeLargeCodes(empty, empty.Vertex(enginetest.Point(t, "E1", 9)), engine.Black, &e)
	for k := range largeN {
		if a[k] == c[k] || a[k] == e[k] || c[k] == e[k] {
			t.Errorf("size %d: corner %x, centre %x, edge %x: want three codes", LargeSizes[k], a[k], c[k], e[k])
		}
	}
	// Sizes differ even where the ring between them is empty.
	for k := 1; k < largeN; k++ {
		if c[k] == c[k-1] {
			t.Errorf("empty centre: sizes %d and %d have one code %x", LargeSizes[k-1], LargeSizes[k], c[k])
		}
	}
}

// TestLargeClassFindsLargest builds dictionaries from a move's own codes
// and checks that the largest pattern found rates the move.
func TestLargeClassFindsLargest(t *testing.T) {
	b := randomBoard(t, 19, 80, 3)
	v := b.EmptyVertex(0)
	var codes LargeCodes
	ComputeLargeCodes(b, v, engine.Black, &codes)
	other := randomBoard(t, 19, 80, 4) // codes of other moves, to fill the dictionaries
	var filler []uint64
	for i := range 20 {
		var oc LargeCodes
		ComputeLargeCodes(other, other.EmptyVertex(i), engine.White, &oc)
		filler = append(filler, oc[:]...)
	}
	// The sizes of the move's patterns in the dictionary, and the largest
	// that rates it: the largest whose smaller ones are all there.
	for _, c := range []struct {
		sizes []int
		want  int
	}{
		{nil, -1}, {[]int{0}, 0}, {[]int{0, 2}, 0}, {[]int{1, 5}, -1},
		{[]int{0, 1, 2, 3, 4, 5}, 5}, {[]int{3}, -1}, {[]int{0, 1, 2}, 2}, {[]int{0, 1, 2, 3, 5}, 3},
	} {
		sizes := c.sizes
		codeSet := map[uint64]bool{}
		for _, k := range filler {
			if !slices.Contains(codes[:], k) {
				codeSet[k] = true
			}
		}
		for _, k := range sizes {
			codeSet[codes[k]] = true
		}
		m := &Model{}
		m.largeCodes = slices.Sorted(maps.Keys(codeSet))
		for i := range m.largeCodes {
			m.largeGamma = append(m.largeGamma, float32(i+2))
		}
		m.index()
		wantGamma := float32(1)
		wantClass := uint32(0)
		if c.want >= 0 {
			largest := codes[c.want]
			for i, k := range m.largeCodes {
				if k == largest {
					wantClass, wantGamma = uint32(i+1), float32(i+2)
				}
			}
		}
		if got := m.largeClass(&codes); got != wantClass {
			t.Errorf("dictionary with sizes %v of the move: class %d, want %d", sizes, got, wantClass)
		}
		var lv largeView
		lv.load(b, engine.Black)
		if got := m.largeGammaAt(&lv, v); got != wantGamma {
			t.Errorf("dictionary with sizes %v of the move: gamma %v, want %v", sizes, got, wantGamma)
		}
		f := m.Extract(b, v, engine.Black, engine.PassVertex, engine.PassVertex)
		if f[Large] != wantClass {
			t.Errorf("dictionary with sizes %v of the move: Extract's Large %d, want %d", sizes, f[Large], wantClass)
		}
	}
}

// TestLearnedLarge checks the generated model: a dictionary, the
// tree's model of 13×13 and up only, and the fast door equal to the
// features on positions of random games.
func TestLearnedLarge(t *testing.T) {
	if !LearnedLarge.HasLarge() || Learned.HasLarge() {
		t.Fatalf("LearnedLarge has large patterns %v, Learned %v: want only the first", LearnedLarge.HasLarge(), Learned.HasLarge())
	}
	if For(9) != Learned || For(13) != LearnedLarge || For(19) != LearnedLarge {
		t.Errorf("For(9, 13, 19) are not Learned, LearnedLarge, LearnedLarge")
	}
	found := 0
	for _, size := range []int{13, 19} {
		for _, n := range []int{0, 10, 60, 150} {
			b := randomBoard(t, size, n, uint64(n+size))
			b.TrackNeighbourhoods()
			for i := range b.EmptyCount() {
				v := b.EmptyVertex(i)
				for _, c := range []engine.Color{engine.Black, engine.White} {
					if !b.Playable(v, c) {
						continue
					}
					f := LearnedLarge.Extract(b, v, c, engine.PassVertex, engine.PassVertex)
					if f[Large] != 0 {
						found++
					}
					var lv largeView
					lv.load(b, c)
					if want, got := LearnedLarge.Gamma(f), LearnedLarge.moveGamma(b, v, c, engine.PassVertex, engine.PassVertex, &lv); got != want {
						t.Fatalf("%d×%d after %d moves, %v at %v: moveGamma %v, Gamma(Extract) %v", size, size, n, c, b.Point(v), got, want)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Error("no move of the random positions has a large pattern of the dictionary")
	}
}

// TestLearnedLargePredictsHeldOut measures LearnedLarge on the records it
// was not fitted to (gammas_large.go gives the figure).
func TestLearnedLargePredictsHeldOut(t *testing.T) {
	_, held := recordFiles(t)
	tr := NewTrainer()
	tr.Large = true
	if err := tr.AddFiles(held); err != nil {
		t.Fatal(err)
	}
	if got := tr.Accuracy(LearnedLarge); got < largeFloor {
		t.Errorf("LearnedLarge rates the move played best in %.1f%% of %d held-out positions, want at least %.0f%%", 100*got, tr.Positions(), 100*largeFloor)
	}
}

func BenchmarkLargeCodes(bm *testing.B) {
	b := randomBoard(bm, 19, 120, 5)
	var codes LargeCodes
	bm.ResetTimer()
	for range bm.N {
		var lv largeView
		lv.load(b, engine.Black)
		for i := range b.EmptyCount() {
			lv.codes(b.EmptyVertex(i), &codes)
		}
	}
	bm.ReportMetric(float64(bm.Elapsed().Nanoseconds())/float64(bm.N*b.EmptyCount()), "ns/move")
}

func BenchmarkLargeGamma(bm *testing.B) {
	b := randomBoard(bm, 19, 120, 5)
	bm.ResetTimer()
	for range bm.N {
		var lv largeView
		lv.load(b, engine.Black)
		for i := range b.EmptyCount() {
			LearnedLarge.largeGammaAt(&lv, b.EmptyVertex(i))
		}
	}
	bm.ReportMetric(float64(bm.Elapsed().Nanoseconds())/float64(bm.N*b.EmptyCount()), "ns/move")
}

// largeFloor is the least held-out accuracy TestLearnedLargePredictsHeldOut
// accepts: gammas_large.go gives 31.9% (Learned 29.2%).
const largeFloor = 0.31
