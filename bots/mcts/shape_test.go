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
// probability of the move after the last two moves.
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
	without, with := children(0), children(100)
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
		want := 100 * float32(math.Sqrt(float64(p[i])))
		a, b := without[int16(v)], with[int16(v)]
		if dn, dw := b[0]-a[0], b[1]-a[1]; math.Abs(float64(dn-want)) > 1e-3 || math.Abs(float64(dw-want)) > 1e-3 {
			t.Errorf("move %d: the shape prior adds %.3f visits and %.3f wins, want %.3f of each", v, dn, dw, want)
		}
	}
	if without[engine.PassVertex] != with[engine.PassVertex] {
		t.Errorf("pass prior %v with the shape model, %v without: want the same", with[engine.PassVertex], without[engine.PassVertex])
	}
}
