package goroom

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestArchivedEngineGameResult: a review replays a finished game with its
// result, a draw (jigo) as much as a win, and none for an annulled game.
func TestArchivedEngineGameResult(t *testing.T) {
	sgf := []byte("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[];W[])")
	for _, tt := range []struct {
		result   string
		annulled bool
		want     *engine.Result
	}{
		{"0", false, &engine.Result{Winner: engine.Empty, Reason: engine.ByScore}},
		{"B+3", false, &engine.Result{Winner: engine.Black, Reason: engine.ByScore, Margin: 3}},
		{"W+R", false, &engine.Result{Winner: engine.White, Reason: engine.ByResignation}},
		{"B+R", true, nil},
		{"Void", true, nil},
	} {
		g, err := archivedEngineGame(&storage.Archived{ID: "1", SGF: sgf, Result: tt.result, Annulled: tt.annulled})
		if err != nil {
			t.Fatalf("%s: %v", tt.result, err)
		}
		res, over := g.Result()
		switch {
		case tt.want == nil && over:
			t.Errorf("%s (annulled %v): result %+v, want none", tt.result, tt.annulled, res)
		case tt.want != nil && (!over || res != *tt.want):
			t.Errorf("%s: result %+v (over %v), want %+v", tt.result, res, over, *tt.want)
		}
	}
}
