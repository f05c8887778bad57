package mcts

import (
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// doubleAtari is a 9×9 game (Pachi's win against max in issue 34's runs)
// where White's E5 ataris D5 and F5 at once and wins one of them.
const doubleAtari = "E6 E4 F5 F4 D5 D4 C4 C3 H5 C5 C6 B4 B5 G5 G6 G4 H4"

// TestAtariFlag checks which moves the prior marks as ataris (flagAtari)
// in the doubleAtari position: the double atari and a single atari, not a
// capture, an escape, a self-atari or a quiet move.
func TestAtariFlag(t *testing.T) {
	g := newGame(t, 9)
	enginetest.Play(t, g, strings.Fields(doubleAtari)...)
	s := NewSearcher(Options{Threads: 1}).newSearch(g, time.Now())
	w := newWorker(s, 1, 0)
	for _, tt := range []struct {
		c     engine.Color
		point string
		want  bool
	}{
		{engine.White, "E5", true},  // ataris D5 and F5
		{engine.White, "B6", true},  // ataris B5
		{engine.White, "D6", false}, // ataris D5 but is in atari itself
		{engine.White, "C4", false}, // saves C5
		{engine.White, "J9", false},
		{engine.Black, "C4", false}, // captures C5
	} {
		p := enginetest.Point(t, tt.point, 9)
		if _, _, got := w.prior(&s.board, s.board.Vertex(p), tt.c, s.last, &w.scratch); got != tt.want {
			t.Errorf("%v %s: atari = %v, want %v", tt.c, tt.point, got, tt.want)
		}
	}
}

// TestDoubleAtari checks that the search looks at the answer to a move
// that allows a double atari although the answer's AMAF value is poor
// (playouts play E5 mostly after the ataris have gone): searching Black's
// move before H4, White's E5 is the reply under H4 with the most visits.
// Under the RAVE equivalence of every other move (1000), E5 got no visit
// there in 40,000 playouts.
//
// The search is on one thread with a fixed seed, so its tree is the same
// every time, with the race detector or without. Under the detector,
// which slows the playouts about tenfold (20,000 took about 20 s of CPU
// time there), it stops at 7,500: E5 is then H4's most visited reply by
// 2,928 visits to H3's 709 (at 20,000, 5,260 to 709), and under the
// equivalence of 1000 E5 has one visit at either budget (H3 4,046 and
// 15,002), so the test fails there as it does at 20,000.
func TestDoubleAtari(t *testing.T) {
	moves := strings.Fields(doubleAtari)
	g := newGame(t, 9)
	enginetest.Play(t, g, moves[:len(moves)-1]...)
	e := NewSearcher(Options{Seed: 1, Threads: 1, Shape: true, SelfAtari: true, NoReuse: true})
	s := e.newSearch(g, e.clock()())
	s.tree = newArena(DefaultMaxNodes)
	s.root, _ = s.tree.alloc(1)
	s.maxPlayouts = 20000
	if raceEnabled {
		s.maxPlayouts = 7500
	}
	w := newWorker(s, 1, 0)
	w.expand(s.tree.at(s.root), &s.board, s.toPlay, s.last, s.last2)
	if err := runWorkers([]*worker{w}); err != nil {
		t.Fatal(err)
	}
	h4 := child(t, s, s.tree.at(s.root), "H4")
	if !h4.expanded() {
		t.Fatalf("H4 not expanded (%d visits)", h4.visits.Load())
	}
	var best *node
	for i := int32(0); i < int32(h4.nchild); i++ {
		if ch := s.tree.at(h4.first + i); best == nil || ch.visits.Load() > best.visits.Load() {
			best = ch
		}
	}
	e5 := child(t, s, h4, "E5")
	if best != e5 {
		t.Errorf("under H4 (%d visits): %v has %d visits, E5 %d; want E5 looked at most",
			h4.visits.Load(), s.moveOf(int(best.move)), best.visits.Load(), e5.visits.Load())
	}
}

// child returns the child of nd that plays point.
func child(t *testing.T, s *search, nd *node, point string) *node {
	t.Helper()
	for i := int32(0); i < int32(nd.nchild); i++ {
		if ch := s.tree.at(nd.first + i); s.moveOf(int(ch.move)).String() == point {
			return ch
		}
	}
	t.Fatalf("no child %s", point)
	return nil
}

// TestSelectAtari checks the RAVE equivalence of ataris: an atari whose
// own results are good (80% of 200 playouts) but whose AMAF value is poor
// (30% of 5,000) loses to a quiet move at 50% at the root, where the
// searcher's own ataris keep the common equivalence (val 0.40), and wins
// below it, where it answers a move (val 0.63).
func TestSelectAtari(t *testing.T) {
	s := NewSearcher(Options{Threads: 1}).newSearch(newGame(t, 9), time.Now())
	s.tree = newArena(DefaultMaxNodes)
	s.root, _ = s.tree.alloc(1)
	w := newWorker(s, 1, 0)
	set := func(nd *node, first int32) {
		nd.first, nd.nchild = first, 2
		nd.state.Store(stateExpanded)
		quiet, atari := s.tree.at(first), s.tree.at(first+1)
		quiet.move, atari.move = 10, 11
		for _, ch := range []*node{quiet, atari} {
			ch.priorN, ch.priorW = 10, 5
		}
		quiet.visits.Store(200)
		quiet.wins.Store(200)
		quiet.rave.Store(5000<<32 | 5000)
		atari.visits.Store(200)
		atari.wins.Store(320)
		atari.rave.Store(5000<<32 | 3000)
		atari.state.Store(flagAtari)
	}
	root := s.tree.at(s.root)
	first, _ := s.tree.alloc(2)
	set(root, first)
	below, _ := s.tree.alloc(2)
	set(s.tree.at(first), below)
	if got := w.selectChild(root); got != first {
		t.Errorf("at the root: selected child %d, want the quiet move %d", got-first, 0)
	}
	if got := w.selectChild(s.tree.at(first)); got != below+1 {
		t.Errorf("below the root: selected child %d, want the atari %d", got-below, 1)
	}
}
