package playout

import (
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// board builds the board of a diagram (see enginetest.Diagram).
func board(t testing.TB, diagram string) *engine.Board {
	t.Helper()
	return enginetest.Board(t, diagram)
}

// vertex returns the vertex of the point named s on b.
func vertex(t testing.TB, b *engine.Board, s string) int {
	t.Helper()
	p, err := engine.ParsePoint(s, b.Size())
	if err != nil {
		t.Fatal(err)
	}
	return b.Vertex(p)
}

func TestSelfAtari(t *testing.T) {
	diagram := `
		. . . . . . .
		. O O O . . .
		O X X X O . .
		O . . O . . .
		. O . . . X O
		. . . . X O .
		. . . . . X O`
	tests := []struct {
		move     string
		c        engine.Color
		want     bool
		wantSize int
	}{
		{"B4", engine.Black, true, 4},  // leaves the chain only C4
		{"C4", engine.Black, false, 1}, // the chain keeps B4 and gains C3
		{"G2", engine.Black, false, 1}, // captures F2
		{"G2", engine.White, true, 4},  // joins F2, G3 and G1 with one liberty left
		{"E5", engine.White, false, 1},
		{"A3", engine.Black, true, 1}, // a lone stone with one liberty
		{"A2", engine.Black, false, 1},
	}
	b := board(t, diagram)
	for _, tt := range tests {
		v := vertex(t, b, tt.move)
		got, size := SelfAtari(b, v, tt.c)
		if got != tt.want || (got && size != tt.wantSize) {
			t.Errorf("SelfAtari(%s, %v) = %v, %d; want %v, %d\n%v", tt.move, tt.c, got, size, tt.want, tt.wantSize, b)
		}
	}
}

func TestLadder(t *testing.T) {
	// A white stone in atari that can only run along a ladder towards an
	// empty corner dies; with a white ladder breaker on the path it lives.
	dies := board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X X . . .
		. X O . . . .
		. . X . . . .
		. . . . . . .`)
	// White C3 has one liberty, D3: extending there gives two (D2, E3),
	// and Black chases it to the edge.
	b := dies
	scratch := *b
	if !LadderCaptured(&scratch, vertex(t, b, "C3"), 20) {
		t.Errorf("ladder towards the empty corner: not captured\n%v", b)
	}
	lives := board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X X . . .
		. X O . . . .
		. . X . O . .
		. . . . . . .`)
	b = lives
	scratch = *b
	if LadderCaptured(&scratch, vertex(t, b, "C3"), 20) {
		t.Errorf("ladder with a breaker: captured\n%v", b)
	}
}

func TestPatterns(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		point   string
		want    bool
	}{
		{"empty board", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. . . . .`, "C3", false},
		{"hane enclosing", `
			. . . . .
			. X O X .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"hane, colours swapped", `
			. . . . .
			. O X O .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"cut", `
			. . . . .
			. X O . .
			. O . . .
			. . . . .
			. . . . .`, "C3", true},
		{"lone stone on the side", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. O . . .`, "C1", false},
		{"side block connection", `
			. . . . .
			. . . . .
			. . . . .
			. . X . .
			. . . O .`, "C1", true},
	}
	for _, tt := range tests {
		b := board(t, tt.diagram)
		if got := MatchesPattern(b, vertex(t, b, tt.point)); got != tt.want {
			t.Errorf("%s: MatchesPattern(%s) = %v, want %v\n%v", tt.name, tt.point, got, tt.want, b)
		}
	}
}

// TestWalkFreeHelpersAgree checks SelfAtari, escapes and atariMove, which
// read the neighbouring chains' liberties from the board
// (Board.OtherLiberties), against what walking the chains gives
// (MoveLiberties, Board.LibertyList), at every empty point of every
// position of random playouts: equal answers, so that the policy's moves
// and random numbers do not depend on how the helpers are computed.
func TestWalkFreeHelpersAgree(t *testing.T) {
	for _, size := range []int{5, 9, 19} {
		for seed := uint64(1); seed <= 4; seed++ {
			b, _ := engine.NewBoard(size)
			p := Player{Policy: Policy{Capture: 1, Atari: 1, Reply: 1}, Rand: NewRand(seed)}
			c, last, passes := engine.Black, engine.PassVertex, 0
			for moves := 0; moves < 3*size*size && passes < 2; moves++ {
				for i := 0; i < b.EmptyCount(); i++ {
					v := b.EmptyVertex(i)
					for _, col := range []engine.Color{engine.Black, engine.White} {
						if !b.Legal(v, col) {
							continue
						}
						sa, n := SelfAtari(b, v, col)
						wantSA, wantN := walkSelfAtari(b, v, col)
						if sa != wantSA || n != wantN {
							t.Fatalf("SelfAtari(%v, %v) = %v, %d; walking the chains gives %v, %d\n%v", b.Point(v), col, sa, n, wantSA, wantN, b)
						}
						libs, captures, _ := MoveLiberties(b, v, col, 2)
						if got, want := escapes(b, v, col), libs >= 2 || captures; got != want {
							t.Fatalf("escapes(%v, %v) = %v; MoveLiberties gives %v\n%v", b.Point(v), col, got, want, b)
						}
					}
				}
				if last != engine.PassVertex {
					q := Player{Rand: p.Rand}
					r := Player{Rand: p.Rand}
					if got, want := q.atariMove(b, c, last), r.walkAtariMove(b, c, last); got != want || q.Rand != r.Rand {
						t.Fatalf("atariMove after %v = %v; walking the chain gives %v (or another random stream)\n%v", b.Point(last), b.Point(got), b.Point(want), b)
					}
				}
				v := p.Move(b, c, last)
				if v == engine.PassVertex {
					passes++
				} else {
					passes = 0
				}
				b.Play(v, c)
				last, c = v, c.Opponent()
			}
		}
	}
}

// walkSelfAtari is SelfAtari by MoveLiberties, which walks the chains.
func walkSelfAtari(b *engine.Board, v int, c engine.Color) (bool, int) {
	if b.NeighbourCount(v, engine.Empty) >= 2 || b.WouldCapture(v, c) {
		return false, 1
	}
	libs, captures, size := MoveLiberties(b, v, c, 2)
	if captures {
		return false, size
	}
	return libs < 2, size
}

// walkAtariMove is atariMove by Board.LibertyList, which walks the chain.
func (p *Player) walkAtariMove(b *engine.Board, c engine.Color, last int) int {
	if b.ColorAt(last) != c.Opponent() {
		return 0
	}
	cands := b.LibertyList(p.cand[:0], last, 3)
	if len(cands) != 2 {
		return 0
	}
	return p.pickCandidate(b, c, cands)
}

func TestSwapColours(t *testing.T) {
	// Points low to high: empty, black, white, edge.
	const code = pvEmpty | pvBlack<<2 | pvWhite<<4 | pvEdge<<6
	const swapped = pvEmpty | pvWhite<<2 | pvBlack<<4 | pvEdge<<6
	if got := SwapColours(uint16(code)); got != swapped {
		t.Errorf("SwapColours(%#04x) = %#04x, want %#04x", code, got, swapped)
	}
	// The same four points in the top byte of a 32-bit code (a diamond's
	// outer points).
	if got := SwapColours(uint32(code) << 24); got != swapped<<24 {
		t.Errorf("SwapColours(%#08x) = %#08x, want %#08x", code<<24, got, swapped<<24)
	}
	for k := range 1 << 16 {
		if SwapColours(SwapColours(uint16(k))) != uint16(k) {
			t.Fatalf("SwapColours twice changes %#04x", k)
		}
	}
}

// TestCapturesAround: the points where the chain at v captures a chain
// next to it in atari, each once, up to max; nothing for an empty v.
func TestCapturesAround(t *testing.T) {
	b := board(t, `
		X . . . .
		O X O X .
		. . X . .
		. . . . .
		. . . . .`)
	names := func(vs []int) string {
		var out []string
		for _, v := range vs {
			out = append(out, b.Point(v).String())
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	for _, tt := range []struct {
		v    string
		max  int
		want string
	}{
		{"B4", 8, "A3 C5"}, // A4 and C4, each in atari
		{"C3", 8, "C5"},
		{"D4", 8, "C5"},
		{"A5", 8, "A3"},
		{"E1", 8, ""},   // empty: nothing
		{"A4", 8, "B5"}, // White's A4 takes A5
		{"C4", 8, ""},   // no Black chain next to C4 is in atari
	} {
		if got := names(CapturesAround(nil, b, vertex(t, b, tt.v), tt.max)); got != tt.want {
			t.Errorf("CapturesAround(%s) = %q, want %q\n%v", tt.v, got, tt.want, b)
		}
	}
	if got := CapturesAround(nil, b, vertex(t, b, "B4"), 1); len(got) != 1 {
		t.Errorf("CapturesAround(B4, max 1) = %d points, want 1", len(got))
	}
}

// TestRing: a ring's offsets are NeighbourOffsets on the board's stride,
// and at finds the point of a code's lowest set bit.
func TestRing(t *testing.T) {
	const stride = 11
	r := ringOf(stride)
	for i, o := range NeighbourOffsets {
		if want := o[1]*stride + o[0]; r[i] != want {
			t.Errorf("ring[%d] = %d, want %d (NeighbourOffsets %v)", i, r[i], want, o)
		}
		if got := r.at(50, 1<<(2*i)|1<<15); got != 50+r[i] {
			t.Errorf("at(50, point %d) = %d, want %d", i, got, 50+r[i])
		}
	}
}
