package goroom

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/storage"
)

// webGame starts a 9×9 game between ann (black) and bob from the board
// page's door: ann challenges, bob accepts.
func webGame(t *testing.T, tb *testApp) {
	t.Helper()
	ctx := context.Background()
	res, id := tb.Start(ctx, channelID, commands.WebUser{ID: ann.ID, Name: "ann"}, commands.Start{Opponent: &commands.WebUser{ID: bob.ID, Name: "bob"}, Size: 9})
	if res.Refused || id == "" {
		t.Fatalf("Start = %+v, challenge %q; want a challenge", res, id)
	}
	if res := tb.Answer(ctx, channelID, commands.WebUser{ID: bob.ID, Name: "bob"}, id, true); res.Refused {
		t.Fatalf("Answer = %+v", res)
	}
	tb.rec.take()
}

func TestActIsTheSlashCommand(t *testing.T) {
	tb := newTestApp(t)
	ctx := context.Background()
	var mu sync.Mutex
	var changed []string
	stop := tb.OnChange(func(ch string) { mu.Lock(); changed = append(changed, ch); mu.Unlock() })
	defer stop()
	webGame(t, tb)
	v, err := tb.View(ctx, channelID)
	if err != nil {
		t.Fatal(err)
	}
	black, white := "black", "white"
	if v.Black.Players[0].ID != ann.ID {
		black, white = white, black
	}
	annU, bobU := commands.WebUser{ID: ann.ID, Name: "ann"}, commands.WebUser{ID: bob.ID, Name: "bob"}
	first, second, firstSeat, secondSeat := annU, bobU, black, white
	if black == "white" {
		first, second, firstSeat, secondSeat = bobU, annU, white, black
	}
	act := func(u commands.WebUser, kind, point, seat string) commands.ActResult {
		v, err := tb.View(ctx, channelID)
		if err != nil {
			t.Fatal(err)
		}
		return tb.Act(ctx, channelID, u, commands.Action{Kind: kind, Point: point, Game: v.ID, Version: v.Version, Seat: seat})
	}
	res := act(first, commands.ActPlay, "E5", "black")
	if res.Refused || !strings.Contains(res.Text, "played E5") {
		t.Fatalf("Act(play E5) = %+v, want the move's note", res)
	}
	v, _ = tb.View(ctx, channelID)
	if got := v.Board[4][4]; got != 'X' {
		t.Errorf("E5 after the click = %c, want X", got)
	}
	// The click's board reaches the channel.
	posted := false
	for _, c := range tb.rec.take() {
		if (c.Op == "send" || c.Op == "followup") && strings.Contains(c.text(), "E5") {
			posted = true
		}
	}
	if !posted {
		t.Error("the click's board was not posted in the channel")
	}
	mu.Lock()
	if len(changed) == 0 || changed[len(changed)-1] != channelID {
		t.Errorf("change feed = %v, want %s", changed, channelID)
	}
	mu.Unlock()

	tests := []struct {
		name    string
		user    commands.WebUser
		kind    string
		point   string
		seat    string
		version int // added to the game's version
		want    string
	}{
		{"out of turn", first, commands.ActPlay, "D4", firstSeat, 0, "It is not your turn: ⚪"},
		{"occupied", second, commands.ActPlay, "E5", secondSeat, 0, "E5 is already taken by a black stone."},
		{"forged seat", second, commands.ActPlay, "D4", firstSeat, 0, "You are not playing black in this game: you play white."},
		{"spectator", commands.WebUser{ID: cat.ID, Name: "cat"}, commands.ActPlay, "D4", "white", 0, commands.WatchingOnly},
		{"stale version", second, commands.ActPlay, "D4", secondSeat, -1, commands.StaleClick},
		{"unknown", second, "fly", "", secondSeat, 0, "gobot does not know that action."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := tb.View(ctx, channelID)
			res := tb.Act(ctx, channelID, tt.user, commands.Action{Kind: tt.kind, Point: tt.point, Game: v.ID, Version: uint64(int(v.Version) + tt.version), Seat: tt.seat})
			if !res.Refused || !strings.Contains(res.Text, tt.want) {
				t.Errorf("Act = %+v, want refused with %q", res, tt.want)
			}
			after, _ := tb.View(ctx, channelID)
			if after.Version != v.Version {
				t.Errorf("version %d -> %d after a refusal", v.Version, after.Version)
			}
		})
	}
	// A slash command's move is announced too.
	mu.Lock()
	changed = nil
	mu.Unlock()
	tb.command(userOf(second), "/go play move:D4")
	mu.Lock()
	if len(changed) == 0 {
		t.Error("a slash command's move was not announced")
	}
	mu.Unlock()
	// Both resign... one does: the game is closed and clicks say so.
	if res := act(first, commands.ActResign, "", firstSeat); res.Refused {
		t.Fatalf("resign = %+v", res)
	}
	res = tb.Act(ctx, channelID, second, commands.Action{Kind: commands.ActPlay, Point: "C3", Game: v.ID, Version: v.Version + 5, Seat: secondSeat})
	if !res.Refused || res.Text != commands.ClosedGame {
		t.Errorf("a click after the game = %+v, want %q", res, commands.ClosedGame)
	}
	v, err = tb.View(ctx, channelID)
	if err != nil || !v.Over || !strings.Contains(v.Result, "resignation") {
		t.Errorf("View after resigning = %+v, %v; want the finished game", v, err)
	}
}

// userOf is the test user behind a WebUser.
func userOf(u commands.WebUser) *discordgo.User {
	if u.ID == ann.ID {
		return ann
	}
	return bob
}

// TestActUndoAndScoring: the board page's undo request and answers, and
// the scoring phase, are the buttons' and /go dead's.
func TestActUndoAndScoring(t *testing.T) {
	tb := newTestApp(t)
	ctx := context.Background()
	webGame(t, tb)
	v, _ := tb.View(ctx, channelID)
	black, white := commands.WebUser{ID: ann.ID, Name: "ann"}, commands.WebUser{ID: bob.ID, Name: "bob"}
	if v.Black.Players[0].ID != ann.ID {
		black, white = white, black
	}
	act := func(u commands.WebUser, seat, kind, point string) commands.ActResult {
		t.Helper()
		v, err := tb.View(ctx, channelID)
		if err != nil {
			t.Fatal(err)
		}
		return tb.Act(ctx, channelID, u, commands.Action{Kind: kind, Point: point, Game: v.ID, Version: v.Version, Seat: seat})
	}
	must := func(res commands.ActResult) {
		t.Helper()
		if res.Refused {
			t.Fatalf("refused: %s", res.Text)
		}
	}
	must(act(black, "black", commands.ActPlay, "E5"))
	must(act(black, "black", commands.ActUndo, ""))
	if v, _ := tb.View(ctx, channelID); v.Undo == nil || v.Undo.By != "black" {
		t.Fatalf("after the request the view's undo is %+v, want black's", v.Undo)
	}
	if res := act(black, "black", commands.ActUndoYes, ""); !res.Refused || !strings.Contains(res.Text, "Only") {
		t.Errorf("the asker allowing their own undo = %+v, want a refusal", res)
	}
	// A page still showing the position before the request cannot answer it.
	if res := tb.Act(ctx, channelID, white, commands.Action{Kind: commands.ActUndoYes, Game: v.ID, Version: v.Version, Seat: "white"}); !res.Refused || res.Text != commands.StaleClick {
		t.Errorf("allowing an undo from a page older than the request = %+v, want %q", res, commands.StaleClick)
	}
	must(act(white, "white", commands.ActUndoNo, ""))
	if v, _ := tb.View(ctx, channelID); v.Undo != nil || v.Board[4][4] != 'X' {
		t.Fatalf("after a refusal: undo %+v, E5 %c", v.Undo, v.Board[4][4])
	}
	must(act(black, "black", commands.ActUndo, ""))
	if v, _ := tb.View(ctx, channelID); v.Undo == nil || v.Undo.Moves != 1 {
		t.Fatalf("black's undo of its only move: the view's undo is %+v, want 1 move", v.Undo)
	}
	must(act(white, "white", commands.ActUndoYes, ""))
	if v, _ := tb.View(ctx, channelID); v.Board[4][4] != '.' || v.Moves != 0 {
		t.Fatalf("after the undo: E5 %c, %d moves", v.Board[4][4], v.Moves)
	}
	// Black asking after White's reply takes back both moves, as
	// Discord's question says ("asks to take back 2 moves").
	must(act(black, "black", commands.ActPlay, "E5"))
	must(act(white, "white", commands.ActPlay, "C3"))
	must(act(black, "black", commands.ActUndo, ""))
	if v, _ := tb.View(ctx, channelID); v.Undo == nil || v.Undo.Moves != 2 {
		t.Fatalf("black's undo after white's reply: the view's undo is %+v, want 2 moves", v.Undo)
	}
	must(act(white, "white", commands.ActUndoYes, ""))
	if v, _ := tb.View(ctx, channelID); v.Moves != 0 {
		t.Fatalf("after the undo of 2 moves: %d moves", v.Moves)
	}
	must(act(black, "black", commands.ActPlay, "E5"))
	must(act(white, "white", commands.ActPlay, "A1"))
	must(act(black, "black", commands.ActPass, ""))
	must(act(white, "white", commands.ActPass, ""))
	v, _ = tb.View(ctx, channelID)
	if v.Scoring == nil {
		t.Fatal("no scoring phase after two passes")
	}
	dead := strings.Join(v.Scoring.Dead, " ")
	must(act(black, "black", commands.ActDead, "A1"))
	if v, _ := tb.View(ctx, channelID); strings.Join(v.Scoring.Dead, " ") == dead {
		t.Errorf("marking A1 left the dead stones %q", dead)
	}
	// White's page still shows the marking before A1: its Accept is
	// refused and accepts nothing.
	if res := tb.Act(ctx, channelID, white, commands.Action{Kind: commands.ActAccept, Game: v.ID, Version: v.Version, Seat: "white"}); !res.Refused || res.Text != commands.StaleClick {
		t.Errorf("accepting a marking changed since = %+v, want %q", res, commands.StaleClick)
	}
	if v, _ := tb.View(ctx, channelID); v.Scoring == nil || v.Scoring.Accepted["white"] {
		t.Errorf("after the stale accept: scoring %+v, want white not to have accepted", v.Scoring)
	}
	must(act(black, "black", commands.ActAccept, ""))
	must(act(white, "white", commands.ActAccept, ""))
	v, err := tb.View(ctx, channelID)
	if err != nil || !v.Over || !strings.Contains(v.Result, "points") {
		t.Errorf("after both accepted: %+v %v", v, err)
	}
}

// TestViewNoUndo: the board page hides Undo where undo is refused (a
// rated game against the bot) and shows it in a game between people, and
// against the bot in a game started on a local page (unrated).
func TestViewNoUndo(t *testing.T) {
	tb := newTestApp(t)
	ctx := context.Background()
	webGame(t, tb)
	if v, err := tb.View(ctx, channelID); err != nil || v.NoUndo {
		t.Errorf("View of a game between people: no_undo %v, %v; want Undo offered", v.NoUndo, err)
	}
	rated := "700000000000000098"
	tb.commandIn(ann, rated, "/go bot level:first size:9")
	if v, err := tb.View(ctx, rated); err != nil || !v.NoUndo {
		t.Errorf("View of a rated game against the bot: no_undo %v, %v; want no Undo", v.NoUndo, err)
	}
	local := "700000000000000099"
	if res, _ := tb.Start(ctx, local, commands.WebUser{ID: ann.ID, Name: "ann"}, commands.Start{Level: "first", Size: 9}); res.Refused {
		t.Fatalf("Start(bot) = %+v", res)
	}
	if v, err := tb.View(ctx, local); err != nil || v.NoUndo {
		t.Errorf("View of a local page's game against the bot (unrated): no_undo %v, %v; want Undo offered", v.NoUndo, err)
	}
}

// TestFinishedViewAnnulled: the board page shows a game annulled on time
// as annulled, not as a win (as the board in Discord does), and who ran
// out of time, as the announcement in Discord says.
func TestFinishedViewAnnulled(t *testing.T) {
	tb := newTestApp(t)
	arc := &storage.Archived{ID: "1", Black: storage.Player{UserID: ann.ID, Name: "ann"}, White: storage.Player{UserID: bob.ID, Name: "bob"},
		Size: 9, Result: "B+T", Annulled: true, SGF: []byte("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[B+T];B[ee])")}
	// Its record has no result (RE[Void]); one written before it was so
	// kept the loss on time (RE[B+T]). Both read as the archive says.
	for _, re := range []string{"Void", "B+T"} {
		arc.SGF = []byte("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[" + re + "];B[ee])")
		v, err := tb.FinishedView(arc, channelID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != "Game over: annulled on time, not counted. bob (white) ran out of time." || !v.Over {
			t.Errorf("RE[%s]: the annulled game's view: status %q, over %v; want it annulled", re, v.Status, v.Over)
		}
		if m, err := (*room)(nil).Finished(arc); err != nil || !strings.Contains(m.Embeds[0].Description, "**Game over: annulled on time, not counted**") || strings.Contains(m.Embeds[0].Description, "B+T") {
			t.Errorf("RE[%s]: the annulled game's board in Discord: %v\n%s\nwant it annulled on time, with no score", re, err, m.Embeds[0].Description)
		}
		if m, err := (*room)(nil).Finished(arc); err != nil || m.Files[0].Description != "ann (black) vs bob (white). 9×9 board, game over after 1 move, annulled on time, not counted" {
			t.Fatalf("RE[%s]: the annulled game's board description: %q (%v), want it annulled on time, naming no winner", re, m.Files[0].Description, err)
		}
	}
	arc.Annulled = false
	if v, _ := tb.FinishedView(arc, channelID); !strings.Contains(v.Status, "wins on time") {
		t.Errorf("the same game counted: status %q, want a win on time", v.Status)
	}
	// Annulled by an admin after it ended: the result stays beside the mark.
	arc.Result, arc.Annulled, arc.SGF = "W+R", true, []byte("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[W+R];B[ee];W[ec];B[cc])")
	if v, _ := tb.FinishedView(arc, channelID); v.Status != "Game over: annulled, not counted · W+R" {
		t.Errorf("a resigned game annulled by an admin: status %q", v.Status)
	}
	if m, err := (*room)(nil).Finished(arc); err != nil || !strings.Contains(m.Embeds[0].Description, "**Game over: annulled, not counted · W+R**") {
		t.Errorf("a resigned game annulled by an admin, its board in Discord: %v\n%s", err, m.Embeds[0].Description)
	}
	if m, err := (*room)(nil).Finished(arc); err != nil || m.Files[0].Description != "ann (black) vs bob (white). 9×9 board, game over after 3 moves, White wins by resignation, annulled, not counted" {
		t.Errorf("a resigned game annulled by an admin, its board description: %q (%v)", m.Files[0].Description, err)
	}
}

// TestFinishedJigo: a draw reads "Jigo (a draw)" on the finished board in
// Discord and on the page, not with the SGF's "0" beside it.
func TestFinishedJigo(t *testing.T) {
	tb := newTestApp(t)
	arc := &storage.Archived{ID: "1", Black: storage.Player{UserID: ann.ID, Name: "ann"}, White: storage.Player{UserID: bob.ID, Name: "bob"},
		Size: 9, Result: "0", SGF: []byte("(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]RE[0];B[ee];W[];B[])")}
	if v, err := tb.FinishedView(arc, channelID); err != nil || v.Status != "Game over: Jigo (a draw)" {
		t.Errorf("the page's status of a jigo = %q, %v", v.Status, err)
	}
	if m, err := (*room)(nil).Finished(arc); err != nil || !strings.Contains(m.Embeds[0].Description, "**Game over: Jigo (a draw)**\n") {
		t.Errorf("the board in Discord of a jigo: %v\n%s", err, m.Embeds[0].Description)
	}
}
