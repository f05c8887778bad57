package draughts

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPosition places pieces at random: men off their crowning rows,
// kings anywhere, 1 to 12 a side.
func randomPosition(rng *rand.Rand) Position {
	var p Position
	for c := White; c <= Black; c++ {
		n := 1 + rng.IntN(12)
		for i := 0; i < n || p.pieces[c] == 0; i++ {
			s := Square(1 + rng.IntN(NumSquares))
			if p.At(s) != Empty {
				continue
			}
			king := rng.IntN(3) == 0
			if !king && uint64(1)<<bitOf(s)&promotion[c] != 0 {
				continue
			}
			x := WhiteMan + Piece(2*c)
			if king {
				x++
			}
			p.Put(s, x)
		}
	}
	if rng.IntN(2) == 1 {
		p.SetTurn(Black)
	}
	return p
}

// checkPosition checks the move generator of p against the slow route
// walker and the notation, and the hash against one made afresh.
func checkPosition(t *testing.T, p Position) {
	t.Helper()
	moves := p.Generate(make([]Move, 0, MaxMoves))
	if n := p.CountMoves(make([]Move, 0, MaxMoves)); n != len(moves) {
		t.Fatalf("%s: CountMoves = %d, len(Generate) = %d", p.FEN(), n, len(moves))
	}
	// The captures are the longest complete routes, each move once.
	var want []Move
	best := 1
	for _, s := range p.Pieces(p.Turn()).Squares() {
		for _, r := range p.CaptureRoutes(s, true) {
			n := r.Taken.Count()
			if n > best {
				best, want = n, want[:0]
			}
			if n == best && !slices.Contains(want, r.Move()) {
				want = append(want, r.Move())
			}
		}
	}
	var got []Move
	for _, m := range moves {
		if m.IsCapture() {
			got = append(got, m)
		}
	}
	sortMoves(&p, want)
	sortMoves(&p, got)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: captures %v, the route walker finds %v", p.FEN(), got, want)
	}
	if len(got) > 0 && len(got) != len(moves) {
		t.Fatalf("%s: quiet moves listed beside captures", p.FEN())
	}
	for _, m := range moves {
		text := p.Notation(m, moves)
		back, err := p.ParseMove(text)
		if err != nil || back != m {
			t.Fatalf("%s: ParseMove(Notation(%v) = %q) = %v, %v", p.FEN(), m, text, back, err)
		}
		if r := p.Path(m); r.Move() != m {
			t.Fatalf("%s: Path(%v) = %v", p.FEN(), m, r)
		}
		q := p
		q.Play(m)
		fresh, err := ParseFEN(q.FEN())
		if err != nil || !fresh.Equal(&q) || fresh.Hash() != q.Hash() {
			t.Fatalf("%s: after %s the hash or position differs from %s's (%v)", p.FEN(), text, q.FEN(), err)
		}
	}
}

func TestGeneratorInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	positions := 3000
	if testing.Short() {
		positions = 300
	}
	for i := 0; i < positions; i++ {
		checkPosition(t, randomPosition(rng))
	}
	// And positions of play.
	for g := 0; g < 30; g++ {
		p := Start()
		for ply := 0; ply < 150; ply++ {
			checkPosition(t, p)
			moves := p.Generate(nil)
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

func TestGenerateAllocates(t *testing.T) {
	p := Start()
	buf := make([]Move, 0, MaxMoves)
	scratch := make([]Move, 0, MaxMoves)
	if n := testing.AllocsPerRun(100, func() {
		q := p
		for _, m := range q.Generate(buf[:0]) {
			r := q
			r.Play(m)
			r.CountMoves(scratch)
		}
	}); n != 0 {
		t.Errorf("Generate and Play allocate %v times", n)
	}
}
