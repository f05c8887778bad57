package mcts

import (
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// TestEmptyCornerPrior checks the opening's corner prior on 19×19: a 4-4,
// 3-4 or 3-3 point of an empty corner gets 2E won visits more than a lone
// point on the same line of the side; a corner with a stone in it (here on
// its 1-1 point) gets nothing more, and neither do 9×9 corners.
func TestEmptyCornerPrior(t *testing.T) {
	prior := func(g *engine.Game, point string) (n, w float32) {
		t.Helper()
		s := NewSearcher(Options{Threads: 1}).newSearch(g, time.Now())
		wk := newWorker(s, 1, 0)
		p, err := engine.ParsePoint(point, g.Size())
		if err != nil {
			t.Fatal(err)
		}
		pn, pw, _ := wk.prior(&s.board, s.board.Vertex(p), engine.Black, engine.PassVertex, &wk.scratch)
		return pn, pw
	}
	g := newGame(t, 19)
	if err := g.Play(engine.PlaceAt(engine.Black, engine.Point{Col: 0, Row: 0})); err != nil { // A1
		t.Fatal(err)
	}
	if err := g.Play(engine.PassMove(engine.White)); err != nil {
		t.Fatal(err)
	}
	E := defaultParams().priorE
	for _, tt := range []struct {
		corner, side string
		bonus        float32
	}{
		{"Q16", "Q10", 2 * E}, // 4-4 of an empty corner against the 4th line's side
		{"R16", "R10", 2 * E}, // 3-4
		{"C17", "C10", 2 * E}, // 3-3
		{"Q4", "K4", 2 * E},
		{"C3", "K3", 0}, // 3-3 of the corner with A1 in it
		{"D4", "K4", 0},
	} {
		cn, cw := prior(g, tt.corner)
		sn, sw := prior(g, tt.side)
		if cn-sn != tt.bonus || cw-sw != tt.bonus {
			t.Errorf("19×19 prior of %s %v/%v, of %s %v/%v: want %v won visits more", tt.corner, cw, cn, tt.side, sw, sn, tt.bonus)
		}
	}
	small := newGame(t, 9)
	cn, cw := prior(small, "C3")
	if sn, sw := prior(small, "E5"); cn != sn || cw != sw {
		t.Errorf("9×9 prior of C3 %v/%v, of E5 %v/%v: want the same (no corner prior)", cw, cn, sw, sn)
	}
}
