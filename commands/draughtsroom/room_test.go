package draughtsroom

import (
	"testing"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/storage"
)

// TestResultSentenceNoPieces: a game won by taking every piece says so,
// rather than that the loser "cannot move"; a blocked side cannot move.
func TestResultSentenceNoPieces(t *testing.T) {
	for _, tt := range []struct{ fen, want string }{
		{"B:W31,K46:B", "⚪ white <@1> wins: all of ⚫ black's pieces are taken · 2-0"},
		{"B:W41,47:B36", "⚪ white <@1> wins: ⚫ black cannot move · 2-0"},
	} {
		st, err := draughts.NewState(map[string]string{"fen": tt.fen}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, over := st.Result()
		if !over {
			t.Fatalf("%s: not over", tt.fen)
		}
		g := &storage.Game{ID: "1", Kind: draughtsKind, Sides: storage.Sides(storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}), State: st}
		if got := draughtsResultSentence(g, res); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.fen, got, tt.want)
		}
	}
}
