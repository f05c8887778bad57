package goroom

import (
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestResultSentencePoints: a margin of one is "1 point" (it read "wins
// by 1 points"); others are points, halves included.
func TestResultSentencePoints(t *testing.T) {
	g := &storage.Game{Sides: storage.Sides(commands.UserPlayer(ann), commands.UserPlayer(bob))}
	for _, tc := range []struct {
		margin float64
		want   string
	}{
		{1, "⚫ <@" + ann.ID + "> wins by 1 point · B+1"},
		{0.5, "⚫ <@" + ann.ID + "> wins by 0.5 points · B+0.5"},
		{6, "⚫ <@" + ann.ID + "> wins by 6 points · B+6"},
	} {
		if got := resultSentence(g, engine.Result{Winner: engine.Black, Reason: engine.ByScore, Margin: tc.margin}); got != tc.want {
			t.Errorf("margin %v: %q, want %q", tc.margin, got, tc.want)
		}
	}
}
