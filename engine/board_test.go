package engine

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkBoard recomputes chains, liberties, neighbour counts, the empty list
// and the hash from the stones alone, and compares them with the
// incremental bookkeeping.
func checkBoard(t *testing.T, b *Board) {
	t.Helper()
	if got, want := b.Hash(), b.ComputeHash(); got != want {
		t.Fatalf("Hash() = %x, want %x\n%v", got, want, b)
	}
	empties := 0
	for v := 0; v < b.Area(); v++ {
		for _, col := range []Color{Empty, Black, White} {
			if got, want := b.Playable(v, col), b.Legal(v, col) && !b.IsEye(v, col); got != want {
				t.Fatalf("Playable(%v, %v) = %v, want %v (Legal and no eye)\n%v", b.Point(v), col, got, want, b)
			}
		}
		c := b.color[v]
		if c == border {
			continue
		}
		// The 3×3 code: the row above, left to right, then left and right,
		// then the row below, two bits each.
		var code uint16
		i := 0
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if dx != 0 || dy != 0 {
					code |= uint16(b.color[v+dy*b.stride+dx]) << (2 * i)
					i++
				}
			}
		}
		if got := b.Neighbourhood(v); got != code {
			t.Fatalf("Neighbourhood(%v) = %#04x, want %#04x\n%v", b.Point(v), got, code, b)
		}
		if c == Empty {
			empties++
			if int(b.empty[b.emptyAt[v]]) != v {
				t.Fatalf("empty list lost %v", b.Point(v))
			}
			continue
		}
		// Flood the chain.
		seen := map[int]bool{v: true}
		stack := []int{v}
		libs := map[int]bool{}
		var pl, sum, sq uint32
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b.head[u] != b.head[v] {
				t.Fatalf("%v and %v in one chain with heads %d, %d", b.Point(u), b.Point(v), b.head[u], b.head[v])
			}
			for _, n := range b.neighbours(u) {
				switch {
				case b.color[n] == Empty:
					libs[n] = true
					pl++
					sum += uint32(n)
					sq += uint32(n * n)
				case b.color[n] == c && !seen[n]:
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		if len(libs) == 0 {
			t.Fatalf("chain at %v has no liberties\n%v", b.Point(v), b)
		}
		ch := b.chain[b.head[v]]
		if int(ch.size) != len(seen) || uint32(ch.plibs) != pl || ch.lsum != sum || ch.lsq != sq {
			t.Fatalf("chain at %v: size %d plibs %d, want %d %d", b.Point(v), ch.size, ch.plibs, len(seen), pl)
		}
		if b.InAtari(v) != (len(libs) == 1) {
			t.Fatalf("InAtari(%v) = %v with %d liberties", b.Point(v), b.InAtari(v), len(libs))
		}
		if got := b.Liberties(v, 0); got != len(libs) {
			t.Fatalf("Liberties(%v) = %d, want %d", b.Point(v), got, len(libs))
		}
		// OtherLiberties leaves out one liberty, or none for the stone v
		// (checked once a chain, at its head).
		for _, x := range append([]int{v}, slices.Collect(maps.Keys(libs))...) {
			if int(b.head[v]) != v {
				break
			}
			var others []int
			for l := range libs {
				if l != x {
					others = append(others, l)
				}
			}
			wantN, wantOther := min(len(others), 2), 0
			if len(others) == 1 {
				wantOther = others[0]
			}
			if n, other := b.OtherLiberties(v, x); n != wantN || other != wantOther {
				t.Fatalf("OtherLiberties(%v, %v) = %d, %v; want %d, %v\n%v", b.Point(v), b.Point(x), n, b.Point(other), wantN, b.Point(wantOther), b)
			}
		}
		// The ring visits exactly the chain.
		n, s := 0, v
		for {
			n++
			if !seen[s] {
				t.Fatalf("ring of %v leaves the chain", b.Point(v))
			}
			s = int(b.next[s])
			if s == v {
				break
			}
		}
		if n != len(seen) {
			t.Fatalf("ring of %v has %d stones, want %d", b.Point(v), n, len(seen))
		}
	}
	if empties != b.nEmpty {
		t.Fatalf("nEmpty = %d, want %d", b.nEmpty, empties)
	}
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 70
	if testing.Short() {
		games = 14
	}
	for i := 0; i < games; i++ {
		size := []int{2, 3, 5, 9, 13, 19, 25}[i%7]
		b, _ := NewBoard(size)
		b.AllowSuicide = i%3 == 0
		if i%2 == 1 {
			b.TrackNeighbourhoods() // and the others compute their codes
		}
		c := Black
		stones := [3]int{}
		for move := 0; move < size*size*3; move++ {
			v := randomMove(b, c, rng)
			if v != PassVertex {
				stones[c]++
			}
			b.Play(v, c)
			if move%(size*size/4+1) == 0 || size <= 5 {
				checkBoard(t, b)
			}
			onBoard := [3]int{}
			for u := 0; u < b.Area(); u++ {
				onBoard[b.ColorAt(u)]++
			}
			for _, col := range []Color{Black, White} {
				if onBoard[col]+b.Captures(col.Opponent()) != stones[col] {
					t.Fatalf("%v: %d on board + %d captured != %d played", col, onBoard[col], b.Captures(col.Opponent()), stones[col])
				}
			}
			c = c.Opponent()
		}
		checkBoard(t, b)
	}
}

// randomMove picks a uniformly random legal move that does not fill c's own
// eye, or PassVertex.
func randomMove(b *Board, c Color, rng *rand.Rand) int {
	n := b.EmptyCount()
	if n == 0 {
		return PassVertex
	}
	start := rng.IntN(n)
	for i := 0; i < n; i++ {
		v := b.EmptyVertex((start + i) % n)
		if b.Legal(v, c) && !b.IsEye(v, c) {
			return v
		}
	}
	return PassVertex
}

func lightPlayout(b *Board, rng *rand.Rand) {
	c := Black
	passes := 0
	for moves := 0; passes < 2 && moves < 3*b.size*b.size; moves++ {
		v := b.RandomMove(c, rng.Uint32())
		if v == PassVertex {
			passes++
		} else {
			passes = 0
		}
		b.Play(v, c)
		c = c.Opponent()
	}
}

func benchmarkPlayout(bm *testing.B, size int) {
	start, _ := NewBoard(size)
	rng := rand.New(rand.NewPCG(3, 4))
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		b := *start
		lightPlayout(&b, rng)
	}
	bm.ReportMetric(float64(bm.N)/bm.Elapsed().Seconds(), "playouts/s")
}

func BenchmarkPlayout9(b *testing.B)  { benchmarkPlayout(b, 9) }
func BenchmarkPlayout19(b *testing.B) { benchmarkPlayout(b, 19) }

func TestLegalNeedsAPlayer(t *testing.T) {
	b, _ := NewBoard(9)
	v := b.Vertex(Point{4, 4})
	for _, c := range []Color{Empty, border} {
		if b.Legal(v, c) || b.IsEye(v, c) {
			t.Errorf("Legal/IsEye(E5, %v) = true, want false", c)
		}
	}
	if !b.Legal(v, Black) || !b.Legal(v, White) {
		t.Error("E5 on an empty board is not legal for the players")
	}
}

// TestLightPlayoutFingerprint pins the light playout (RandomMove and Play)
// move for move: every move, every capture count and the final position of
// seeded playouts on three sizes, with and without multi-stone suicide, fold
// into one FNV-1a hash per size, recorded from the code before the board's
// hot path was tuned. A faster Board must give the same playouts for a seed.
func TestLightPlayoutFingerprint(t *testing.T) {
	want := map[int]uint64{9: 0x2369488195352264, 13: 0x4a937a70a8371736, 19: 0xef838baf42f102c5}
	for _, size := range []int{9, 13, 19} {
		h := uint64(14695981039346656037)
		mix := func(x uint64) {
			for i := 0; i < 8; i++ {
				h ^= x & 0xff
				h *= 1099511628211
				x >>= 8
			}
		}
		rng := rand.New(rand.NewPCG(uint64(size), 7))
		for game := 0; game < 40; game++ {
			b, _ := NewBoard(size)
			b.AllowSuicide = game%4 == 3
			if game%2 == 1 {
				b.TrackNeighbourhoods()
			}
			c := Black
			passes := 0
			for moves := 0; passes < 2 && moves < 3*size*size; moves++ {
				v := b.RandomMove(c, rng.Uint32())
				if v == PassVertex {
					passes++
				} else {
					passes = 0
				}
				mix(uint64(v)<<8 | uint64(b.Play(v, c)))
				if game < 4 && moves%17 == 0 {
					checkBoard(t, b)
				}
				c = c.Opponent()
			}
			checkBoard(t, b)
			ko, koColor := b.KoVertex()
			mix(b.Hash())
			mix(uint64(b.Captures(Black))<<32 | uint64(b.Captures(White)))
			mix(uint64(ko)<<8 | uint64(koColor))
			for i := 0; i < b.EmptyCount(); i++ {
				mix(uint64(b.EmptyVertex(i)))
			}
		}
		if h != want[size] {
			t.Errorf("%d×%d: light playouts hash to %#x, want %#x", size, size, h, want[size])
		}
	}
}

// TestSetStoneKeepsInvariants sets stones up and takes some away, as SGF
// setup does, and checks the board after each change (chains, hash and
// 3×3 codes among them).
func TestSetStoneKeepsInvariants(t *testing.T) {
	b, _ := NewBoard(9)
	b.TrackNeighbourhoods()
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 60; i++ {
		// Points whose coordinates sum to a multiple of 3 touch none of
		// each other, so every chain keeps its liberties.
		p := Point{Row: rng.IntN(9), Col: rng.IntN(9)}
		p.Col -= (p.Row + p.Col) % 3
		if p.Col < 0 {
			p.Col += 3
		}
		c := []Color{Empty, Black, White}[rng.IntN(3)]
		b.SetStone(p, c)
		if got := b.At(p); got != c {
			t.Fatalf("SetStone(%v, %v): At = %v", p, c, got)
		}
		checkBoard(t, b)
	}
}
