package commands_test

import (
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/storage"
)

// TestRematchable: a game of two players with a person among them gets a
// Rematch button; a team game, a vote game and a game of bots do not.
func TestRematchable(t *testing.T) {
	alice, bob, carol := storage.Player{UserID: "1"}, storage.Player{UserID: "2"}, storage.Player{UserID: "3"}
	bot, crowd := storage.Player{Level: "hard"}, storage.Player{Crowd: "9"}
	for _, tc := range []struct {
		name  string
		sides []storage.Side
		want  bool
	}{
		{"people", storage.Sides(alice, bob), true},
		{"against a bot", storage.Sides(bot, alice), true},
		{"bots", storage.Sides(bot, bot), false},
		{"vote game", storage.Sides(crowd, bot), false},
		{"rengo", []storage.Side{{Players: []storage.Player{alice, carol}}, {Players: []storage.Player{bob}}}, false},
	} {
		g := &storage.Game{ID: "7", Sides: tc.sides}
		if got := commands.Rematchable(g); got != tc.want {
			t.Errorf("%s: Rematchable = %v, want %v", tc.name, got, tc.want)
		}
		if got := len(commands.RematchRow(g)) == 1; got != tc.want {
			t.Errorf("%s: a Rematch row = %v, want %v", tc.name, got, tc.want)
		}
	}
}
