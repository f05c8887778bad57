package shape

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/playout"
)

// gobanDir holds Debian's goban-original-games records, which .ci/run
// installs.
const gobanDir = "/usr/share/goban"

func recordFiles(t *testing.T) (fit, held []string) {
	t.Helper()
	if _, err := os.Stat(gobanDir); err != nil {
		t.Skipf("no professional records in %s (apt-get install goban-original-games)", gobanDir)
	}
	fit, held, err := RecordFiles(gobanDir)
	if err != nil {
		t.Fatal(err)
	}
	return fit, held
}

func TestProbabilities(t *testing.T) {
	g := enginetest.Game(t, `
		. . . . . . . . .
		. . . . . . . . .
		. . X O . . . . .
		. . X O . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
	`, enginetest.ToPlay(engine.Black))
	b := g.Board()
	var moves []int
	for i := range b.EmptyCount() {
		if v := b.EmptyVertex(i); b.Playable(v, engine.Black) {
			moves = append(moves, v)
		}
	}
	p := Learned.Probabilities(nil, b, moves, engine.Black, b.Vertex(enginetest.Point(t, "D6", 9)), b.Vertex(enginetest.Point(t, "C6", 9)))
	var sum float64
	best := 0
	for i, x := range p {
		sum += float64(x)
		if x > p[best] {
			best = i
		}
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("probabilities sum to %v, want 1", sum)
	}
	// A move in contact, a hane at the head of two stones (D8, D5) or an
	// extension (C8, C5), is what any player looks at first; the first
	// line never.
	got := b.Point(moves[best])
	if s := got.String(); s != "D8" && s != "D5" && s != "C8" && s != "C5" {
		t.Errorf("most probable move %v (%.3f), want D8, D5, C8 or C5", got, p[best])
	}
	for i, v := range moves {
		if pt := b.Point(v); (pt.Row == 0 || pt.Col == 0) && p[i] > p[best]/20 {
			t.Errorf("first-line move %v has probability %.4f, over a twentieth of the best's %.4f", pt, p[i], p[best])
		}
	}
}

// TestLearnedPredictsHeldOut measures the committed model on the records
// it was not fitted to; gammas.go says 29.2% (27.3% with the 3×3
// patterns alone).
func TestLearnedPredictsHeldOut(t *testing.T) {
	_, held := recordFiles(t)
	tr := NewTrainer()
	if err := tr.AddFiles(held); err != nil {
		t.Fatal(err)
	}
	if got := tr.Accuracy(Learned); got < 0.28 {
		t.Errorf("Learned rates the move played best in %.1f%% of %d held-out positions, want at least 28%%", 100*got, tr.Positions())
	}
}

// TestTrainLearnsGo fits a small model and checks that it learned what
// every player knows: self-atari is bad, escaping from atari and playing
// near the last move are good.
func TestTrainLearnsGo(t *testing.T) {
	fit, held := recordFiles(t)
	ft, ht := NewTrainer(), NewTrainer()
	if err := ft.AddFiles(fit[:12]); err != nil {
		t.Fatal(err)
	}
	if err := ht.AddFiles(held[:3]); err != nil {
		t.Fatal(err)
	}
	m := ft.Train(3, 20)
	checks := []struct {
		name  string
		group int
		value int
		ok    func(float32) bool
		want  string
	}{
		{"lone self-atari", SelfAtari, 1, func(g float32) bool { return g < 0.3 }, "< 0.3"},
		{"escape to three liberties", Escape, 2, func(g float32) bool { return g > 2 }, "> 2"},
		{"next to the last move", Last, 1, func(g float32) bool { return g > 3 }, "> 3"},
		{"far from the last move", Last, 16, func(g float32) bool { return g < 1 }, "< 1"},
	}
	for _, c := range checks {
		if g := m.gamma[c.group][c.value]; !c.ok(g) {
			t.Errorf("gamma of %s (%s %d) = %.3g, want %s", c.name, Names[c.group], c.value, g, c.want)
		}
	}
	if got := ht.Accuracy(m); got < 0.15 {
		t.Errorf("a model fitted to 12 records rates the move played best in %.1f%% of %d held-out positions, want at least 15%%", 100*got, ht.Positions())
	}
}

// TestGammasUpToDate regenerates gammas.go and gammas_large.go from the
// records (about six minutes; opt-in) and compares.
func TestGammasUpToDate(t *testing.T) {
	if os.Getenv("GOBOT_SHAPE_REGENERATE") == "" {
		t.Skip("opt-in: GOBOT_SHAPE_REGENERATE=1 go test ./bots/shape -run TestGammasUpToDate")
	}
	recordFiles(t)
	var log bytes.Buffer
	src, large, err := Generate(gobanDir, &log)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(log.String())
	for _, f := range []struct {
		name string
		src  []byte
	}{{"gammas.go", src}, {"gammas_large.go", large}} {
		old, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.src, old) {
			t.Errorf("%s differs from what the records give: go run ./bots/shape/gen", f.name)
		}
	}
}

// TestMoveGammaMatchesFeatures checks the search's fast door against the
// features: every legal move of both players in positions of random games,
// on three board sizes, gets exactly Gamma(Extract(...)), common diamonds
// and rare ones alike; and the diamond both read is the one on the board.
func TestMoveGammaMatchesFeatures(t *testing.T) {
	common, rare := 0, 0
	for _, size := range []int{9, 13, 19} {
		b, err := engine.NewBoard(size)
		if err != nil {
			t.Fatal(err)
		}
		if size > 9 {
			b.TrackNeighbourhoods() // as a search's boards do; 9×9 computes the codes
		}
		p := playout.Player{Rand: playout.NewRand(uint64(size))}
		last, last2 := engine.PassVertex, engine.PassVertex
		c := engine.Black
		for move := 0; move < size*size; move++ {
			for _, who := range []engine.Color{engine.Black, engine.White} {
				for i := range b.EmptyCount() {
					v := b.EmptyVertex(i)
					if !b.Playable(v, who) {
						continue
					}
					if got, want := rawDiamond(b, v, who), diamondAround(b, v, who); got != want {
						t.Fatalf("%d×%d move %d, %v at %d: raw diamond %#06x, want %#06x\n%v", size, size, move, who, v, got, want, b)
					}
					f := Extract(b, v, who, last, last2)
					if want, got := Learned.Gamma(f), Learned.moveGamma(b, v, who, last, last2, nil); got != want {
						t.Fatalf("%d×%d move %d, %v at %d: moveGamma %v, Gamma(Extract) %v", size, size, move, who, v, got, want)
					}
					if _, ok := Learned.diamond[f[Diamond]]; ok {
						common++
					} else {
						rare++
					}
				}
			}
			v := p.Move(b, c, last)
			b.Play(v, c)
			last, last2 = v, last
			c = c.Opponent()
		}
	}
	if common == 0 || rare == 0 {
		t.Errorf("%d moves with a common diamond, %d with a rare one: want both", common, rare)
	}
}

// diamondAround reads the diamond around v seen by c point by point.
func diamondAround(b *engine.Board, v int, c engine.Color) uint32 {
	var k uint32
	for i, off := range diamondOffsets {
		q := v + off[1]*b.Stride() + off[0]
		pv := uint32(pvEmpty)
		switch {
		case q < 0 || q >= b.Area() || b.IsBorder(q):
			pv = pvEdge
		case b.ColorAt(q) == c:
			pv = pvOwn
		case b.ColorAt(q) == c.Opponent():
			pv = pvOpp
		}
		k |= pv << (2 * i)
	}
	return k
}
