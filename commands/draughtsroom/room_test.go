package draughtsroom

import (
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

// TestArchivedResult: every result the archive writes for draughts reads
// back with its winner, reason and PDN text; anything else is refused.
func TestArchivedResult(t *testing.T) {
	for _, r := range []game.Result{
		{Winner: draughtsWhite, Reason: game.ByResignation, Text: "2-0"},
		{Winner: draughtsBlack, Reason: game.ByTime, Text: "0-2"},
		{Winner: draughtsBlack, Reason: game.ByForfeit, Text: "0-2"},
		{Winner: draughtsWhite, Text: "2-0"},
		{Winner: game.NoSide, Text: "1-1"},
	} {
		text := draughtsArchiveResult(r)
		got, ok := archivedResult(text)
		if !ok || got != r {
			t.Errorf("archivedResult(%q) = %+v, %v; want %+v", text, got, ok, r)
		}
	}
	for _, bad := range []string{"", "Void", "X+R", "W+Q", "B", "1-0"} {
		if r, ok := archivedResult(bad); ok {
			t.Errorf("archivedResult(%q) = %+v, want refused", bad, r)
		}
	}
}
