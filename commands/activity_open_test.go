package commands

import (
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestWithOpenBoard: every board gets an Open board button, which opens
// its game on the board page: a game's (beside Resign), a vote game's
// (beside Vote pass, in a row of its own when the votes fill the row:
// the README says voting is done by clicking on the page too) and the
// count's (beside Resume play: marking dead stones is done by clicking);
// the vote and count boards had none.
func TestWithOpenBoard(t *testing.T) {
	btn := func(id string) discordgo.Button { return discordgo.Button{Label: id, CustomID: id} }
	row := func(ids ...string) discordgo.ActionsRow {
		var cs []discordgo.MessageComponent
		for _, id := range ids {
			cs = append(cs, btn(id))
		}
		return discordgo.ActionsRow{Components: cs}
	}
	for _, tt := range []struct {
		name string
		in   []discordgo.MessageComponent
		want [][]string // custom IDs by row
	}{
		{"a game", []discordgo.MessageComponent{row("game/7/pass/3", "game/7/undo/3", "game/7/resign/3")},
			[][]string{{"game/7/pass/3", "game/7/undo/3", "game/7/resign/3", "game/7/board"}}},
		{"draughts", []discordgo.MessageComponent{row("draughts/7/draw/3", "draughts/7/resign/3")},
			[][]string{{"draughts/7/draw/3", "draughts/7/resign/3", "draughts/7/board"}}},
		{"a vote game", []discordgo.MessageComponent{row("vote/7/3/D4", "vote/7/3/C3", "vote/7/3/E5", "vote/7/3/F6", "vote/7/3/G7"), row("vote/7/3/pass")},
			[][]string{{"vote/7/3/D4", "vote/7/3/C3", "vote/7/3/E5", "vote/7/3/F6", "vote/7/3/G7"}, {"vote/7/3/pass", "game/7/board"}}},
		{"the count", []discordgo.MessageComponent{row("game/7/score/k/accept", "game/7/score/k/resume")},
			[][]string{{"game/7/score/k/accept", "game/7/score/k/resume", "game/7/board"}}},
		{"a full row", []discordgo.MessageComponent{row("a", "b", "c", "d", "game/7/resign/3")},
			[][]string{{"a", "b", "c", "d", "game/7/resign/3"}, {"game/7/board"}}},
		{"no board", []discordgo.MessageComponent{row("rematch/7")}, [][]string{{"rematch/7"}}},
	} {
		got := withOpenBoard(&Message{Components: tt.in})
		var ids [][]string
		for _, r := range got.Components {
			var line []string
			for _, c := range r.(discordgo.ActionsRow).Components {
				line = append(line, c.(discordgo.Button).CustomID)
			}
			ids = append(ids, line)
		}
		if !slices.EqualFunc(ids, tt.want, slices.Equal[[]string]) {
			t.Errorf("%s: buttons %q, want %q", tt.name, ids, tt.want)
		}
	}
}
