package mcts

import (
	"math"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/shape"
	"github.com/gobot-dev/gobot/engine"
)

// TestShapePrior checks that a node's children get the shape model's
// prior on top of the hand-made one: shape × √p won visits, p the model's
// probability of the move after the last two moves; and that the hand-made
// prior then leaves shape and closeness to the last move to the model.
func TestShapePrior(t *testing.T) {
	g := gameFrom(t, 7.5, engine.Black, `
		. . . . . . . . .
		. . . . . . . . .
		. . X O . . . . .
		. . X O . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
	`)
	b := g.Board()
	last, last2 := b.Vertex(engine.Point{Col: 3, Row: 5}), b.Vertex(engine.Point{Col: 2, Row: 5}) // D6, C6
	children := func(k float32) map[int16][2]float32 {
		tune := defaultParams()
		tune.shape = k
		s := NewSearcher(Options{Threads: 1, tune: &tune}).newSearch(g, time.Now())
		s.tree = newArena(1)
		root, _ := s.tree.alloc(1)
		w := newWorker(s, 1, 0)
		if !w.expand(s.tree.at(root), b, engine.Black, last, last2) {
			t.Fatal("expand: tree full")
		}
		nd := s.tree.at(root)
		got := make(map[int16][2]float32)
		for i := range int32(nd.nchild) {
			ch := s.tree.at(nd.first + i)
			got[ch.move] = [2]float32{ch.priorN, ch.priorW}
		}
		return got
	}
	half, with := children(50), children(100)
	var moves []int
	for i := range b.EmptyCount() {
		if v := b.EmptyVertex(i); b.Playable(v, engine.Black) {
			moves = append(moves, v)
		}
	}
	p := shape.Learned.Probabilities(nil, b, moves, engine.Black, last, last2)
	if len(with) != len(moves)+1 {
		t.Fatalf("%d children, want %d moves and a pass", len(with), len(moves)+1)
	}
	for i, v := range moves {
		want := 50 * float32(math.Sqrt(float64(p[i])))
		a, b := half[int16(v)], with[int16(v)]
		if dn, dw := b[0]-a[0], b[1]-a[1]; math.Abs(float64(dn-want)) > 1e-3 || math.Abs(float64(dw-want)) > 1e-3 {
			t.Errorf("move %d: the shape prior at 100 adds %.3f visits and %.3f wins to that at 50, want %.3f of each", v, dn, dw, want)
		}
	}
	if half[engine.PassVertex] != with[engine.PassVertex] {
		t.Errorf("pass prior %v with the shape model at 100, %v at 50: want the same", with[engine.PassVertex], half[engine.PassVertex])
	}

	// D5 makes shape (a hane at the head of two stones) next to the last
	// move, D6: the hand-made prior counts E/2 for each, but not when the
	// shape model rates them.
	d5 := b.Vertex(engine.Point{Col: 3, Row: 4})
	hand := func(k float32) (n, w float32) {
		tune := defaultParams()
		tune.shape = k
		s := NewSearcher(Options{Threads: 1, tune: &tune}).newSearch(g, time.Now())
		wk := newWorker(s, 1, 0)
		pn, pw, _ := wk.prior(b, d5, engine.Black, last, &wk.scratch)
		return pn, pw
	}
	n0, w0 := hand(0)
	n1, w1 := hand(100)
	if E := defaultParams().priorE; n0-n1 != E || w0-w1 != E {
		t.Errorf("hand-made prior of D5: %v/%v without the shape model, %v/%v with it; want E = %v less with it", w0, n0, w1, n1, E)
	}
}

// TestShapeWeighsPlayouts checks that the searches with the shape model
// (hard and max) weigh their playouts' shape answers by its 3×3 gammas, and
// the others do not.
func TestShapeWeighsPlayouts(t *testing.T) {
	if got := (Options{Shape: true}).params().playout.Shape; got != shape.Learned.PatternWeights() {
		t.Errorf("with the shape model, the playouts' weights are %p, want the model's %p", got, shape.Learned.PatternWeights())
	}
	if got := (Options{}).params().playout.Shape; got != nil {
		t.Errorf("without the shape model, the playouts are weighed (%p)", got)
	}
}

// TestSelfAtariOption checks that Options.SelfAtari lets the playouts'
// self-ataris through at selfAtariRate, and that without it none are.
func TestSelfAtariOption(t *testing.T) {
	if got := (Options{SelfAtari: true}).params().playout.SelfAtari; got != selfAtariRate {
		t.Errorf("with SelfAtari, the playouts play %v of their self-ataris, want %v", got, selfAtariRate)
	}
	if got := (Options{Shape: true}).params().playout.SelfAtari; got != 0 {
		t.Errorf("without SelfAtari, the playouts play %v of their self-ataris, want none", got)
	}
}
