package goroom

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/runtimetest"
	"github.com/gobot-dev/gobot/storage"
)

// startGame has ann challenge bob to a 9×9 game with ann black, and bob
// accept; it returns the board message.
func startGame(t *testing.T, tb *testApp) call {
	t.Helper()
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black")
	if len(calls) != 2 || calls[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || calls[1].Op != "edit" {
		t.Fatalf("challenge: got %v", calls)
	}
	accept := calls[1].buttonID(t, "Accept")
	calls = tb.press(bob, accept)
	if len(calls) != 2 {
		t.Fatalf("accept: got %d calls, want update and board", len(calls))
	}
	if calls[0].Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(calls[0].text(), "accepted") {
		t.Fatalf("accept: first call %s %q, want the challenge updated", calls[0].Op, calls[0].text())
	}
	return calls[1]
}

func TestChallengeAcceptAndPlay(t *testing.T) {
	tb := newTestApp(t)
	board := startGame(t, tb)
	if len(board.Message.Files) != 1 || !strings.HasSuffix(board.Message.Files[0].Name, ".png") {
		t.Fatalf("board message has files %v, want one PNG", board.Message.Files)
	}
	if d := board.Message.Files[0].Description; !strings.Contains(d, "9×9") {
		t.Errorf("alt text %q does not describe the board", d)
	}
	if !strings.Contains(board.text(), "Move 1") || !strings.Contains(board.text(), "<@"+ann.ID+">") {
		t.Errorf("board text %q: want move 1 and ann to play", board.text())
	}

	// Moves and every kind of refusal.
	c := only(t, tb.command(ann, "/go play move:E5"))
	if c.Message.Ephemeral || !strings.Contains(c.text(), "played **E5**") {
		t.Fatalf("E5: %q", c.text())
	}
	tests := []struct {
		user *discordgo.User
		line string
		want string
	}{
		{ann, "/go play move:D4", "not your turn"},
		{cat, "/go play move:D4", "not playing in this game"},
		{bob, "/go play move:E5", "E5 is already taken"},
		{bob, "/go play move:K5", "off this 9×9 board: valid points are A1–J9"},
		{bob, "/go play move:I5", "skip the letter I"},
		{bob, "/go play move:hello", "can't read"},
		{bob, "/go dead point:E5", "not in the scoring phase"},
		{cat, "/go abort", "Manage Messages"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			wantEphemeral(t, tb.command(tt.user, tt.line), tt.want)
		})
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	if g.State.MoveCount() != 1 {
		t.Fatalf("after refusals the game has %d moves, want 1", g.State.MoveCount())
	}
	// A second game in the same channel is refused.
	wantEphemeral(t, tb.command(cat, "/go bot size:9"), "already running")
}

func TestKoSuicideAndCaptures(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	// Build a ko at the bottom edge:
	//   . X O .        row 2
	//   X O . O        row 1 (after white captures... built below)
	moves := []struct {
		u *discordgo.User
		m string
	}{
		{ann, "B1"}, {bob, "C1"}, {ann, "C2"}, {bob, "D2"}, {ann, "J9"}, {bob, "E1"},
		{ann, "D1"}, // black plays into the ko shape, capturing nothing yet: D1 has liberty? see below
	}
	for _, mv := range moves[:6] {
		c := only(t, tb.command(mv.u, "/go play move:"+mv.m))
		if c.Message.Ephemeral {
			t.Fatalf("%s: refused: %q", mv.m, c.text())
		}
	}
	// Black D1 captures white C1 (its last liberty): a ko.
	c := only(t, tb.command(ann, "/go play move:D1"))
	if !strings.Contains(c.text(), "1 stone captured") {
		t.Fatalf("D1: %q, want a capture", c.text())
	}
	if !strings.Contains(c.text(), "Ko at C1") {
		t.Errorf("D1: %q, want the ko announced", c.text())
	}
	wantEphemeral(t, tb.command(bob, "/go play move:C1"), "Ko")
	// Suicide: white at A1 would have no liberties (B1 black, A2 empty?) — make A2 black first.
	only(t, tb.command(bob, "/go play move:J1"))
	only(t, tb.command(ann, "/go play move:A2"))
	wantEphemeral(t, tb.command(bob, "/go play move:A1"), "suicide")
}

func TestPassPassScoringAccept(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	for _, line := range []struct {
		u *discordgo.User
		m string
	}{{ann, "C3"}, {bob, "G7"}, {ann, "C7"}, {bob, "G3"}} {
		only(t, tb.command(line.u, "/go play move:"+line.m))
	}
	// Pass by button, then by command.
	g, _ := tb.store.Game(context.Background(), channelID)
	c := only(t, tb.press(ann, "game/"+g.ID+"/pass/4"))
	if !strings.Contains(c.text(), "passed") {
		t.Fatalf("pass button: %q", c.text())
	}
	// The old button is stale now.
	wantEphemeral(t, tb.press(bob, "game/"+g.ID+"/pass/4"), "old board")
	c = only(t, tb.command(bob, "/go pass"))
	if !strings.Contains(c.text(), "Agree on the dead stones") {
		t.Fatalf("second pass: %q, want the scoring phase", c.text())
	}
	accept := c.buttonID(t, "Accept")
	wantEphemeral(t, tb.command(ann, "/go play move:E5"), "dead stones are being agreed")
	wantEphemeral(t, tb.press(cat, accept), "not playing")
	c = only(t, tb.press(ann, accept))
	if c.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(c.text(), "accepted the marking") {
		t.Fatalf("ann accepts: %s %q", c.Op, c.text())
	}
	accept = c.buttonID(t, "Accept")
	c = ended(t, tb.press(bob, accept))
	if !strings.Contains(c.text(), "Game over") || !strings.Contains(c.text(), "W+") {
		t.Fatalf("bob accepts: %q, want the result (white wins by komi)", c.text())
	}
	if _, err := tb.store.Game(context.Background(), channelID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("after the result the channel still has a game: %v", err)
	}
	c = only(t, tb.command(ann, "/go stats player:bob"))
	if !strings.Contains(c.text(), "1 game**: 1 won, 0 lost") || !strings.Contains(c.text(), "⚪ won vs <@"+ann.ID+">") {
		t.Errorf("stats of bob: %q", c.text())
	}
	wantEphemeral(t, tb.command(cat, "/go stats"), "has not finished a game")
	a, err := tb.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Result, "W+") || !strings.Contains(string(a.SGF), "RE[W+") || !strings.Contains(string(a.SGF), "TB[") {
		t.Errorf("archive: result %q, SGF %s", a.Result, a.SGF)
	}
}

func TestScoringResumeAndDeadToggle(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	only(t, tb.command(ann, "/go play move:E5"))
	only(t, tb.command(bob, "/go pass"))
	c := only(t, tb.command(ann, "/go pass"))
	resume := c.buttonID(t, "Resume play")
	accept := c.buttonID(t, "Accept")
	c = only(t, tb.command(bob, "/go dead point:E5"))
	if !strings.Contains(c.text(), "marked the black stone at E5 **dead**") {
		t.Fatalf("dead E5: %q", c.text())
	}
	wantEphemeral(t, tb.command(bob, "/go dead point:A1"), "no stone at A1")
	// The marking changed: the old buttons are stale.
	wantEphemeral(t, tb.press(ann, accept), "out of date")
	wantEphemeral(t, tb.press(ann, resume), "out of date")
	resume = c.buttonID(t, "Resume play")
	c = only(t, tb.press(ann, resume))
	if !strings.Contains(c.text(), "resumed play") {
		t.Fatalf("resume: %q", c.text())
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	if g.Scoring != nil || goOf(g).ToPlay() != engine.White {
		t.Fatalf("after resume: scoring %v, to play %v; want play with white to move", g.Scoring, goOf(g).ToPlay())
	}
}

func TestBotGameAnswersByItself(t *testing.T) {
	tb := newTestApp(t)
	calls := tb.command(ann, "/go bot level:first size:9 color:white rated:false") // a rated bot game has no undo
	// Black is the bot: it moves first, after a deferral.
	if len(calls) != 2 || calls[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || calls[1].Op != "edit" {
		t.Fatalf("bot start: %v", calls)
	}
	if !strings.Contains(calls[1].text(), "played **A1**") {
		t.Fatalf("bot start: %q, want the bot's first move", calls[1].text())
	}
	calls = tb.command(ann, "/go play move:E5")
	if len(calls) != 2 || !strings.Contains(calls[1].text(), "played **E5**") || !strings.Contains(calls[1].text(), "played **B1**") {
		t.Fatalf("move vs bot: %v", calls)
	}
	// Undo against the bot takes back its reply and the move.
	c := only(t, tb.command(ann, "/go undo"))
	if !strings.Contains(c.text(), "took back 2 moves") {
		t.Fatalf("undo: %q", c.text())
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	if g.State.MoveCount() != 1 {
		t.Fatalf("after undo %d moves, want 1", g.State.MoveCount())
	}
	// The human passes, the bot passes back: scoring, with the bot's
	// acceptance already given.
	calls = tb.command(ann, "/go pass")
	last := calls[len(calls)-1]
	if !strings.Contains(last.text(), "Agree on the dead stones") || !strings.Contains(last.text(), "accepted") {
		t.Fatalf("pass vs bot: %q", last.text())
	}
	// The bot's lone stone is alive in its proposal, but uncertain: a
	// marking with it dead differs only there, and the bot accepts it too
	// (TestE2EBotDisagrees has a marking it refuses).
	if !strings.Contains(last.text(), "⚠️ Please check A1: I left it alive without being sure.") {
		t.Fatalf("pass vs bot: %q, want A1 flagged uncertain", last.text())
	}
	// The board page's scoring panel says both too: the warning, and the
	// deadline with the time left for the page to count down.
	v, err := tb.View(context.Background(), channelID)
	if err != nil || v.Scoring == nil {
		t.Fatalf("View in the scoring phase = %+v, %v", v, err)
	}
	if got, want := v.Scoring.Check, "⚠️ Please check A1: I left it alive without being sure."; got != want {
		t.Errorf("the page's scoring warning = %q, want %q", got, want)
	}
	if got := v.Scoring.Deadline; !strings.HasPrefix(got, "The marking stands "+commands.DeadlineIn+" if nobody changes it") || v.Scoring.DeadlineMS <= v.ServerMS {
		t.Errorf("the page's scoring deadline = %q at %d (now %d), want when the marking stands", got, v.Scoring.DeadlineMS, v.ServerMS)
	}
	c = only(t, tb.command(ann, "/go dead point:A1"))
	if strings.Contains(c.text(), "does not accept") || !strings.Contains(c.text(), "✅ accepted") {
		t.Fatalf("toggle vs bot: %q", c.text())
	}
	c = ended(t, tb.press(ann, c.buttonID(t, "Accept")))
	if !strings.Contains(c.text(), "Game over") {
		t.Fatalf("accept vs bot: %q", c.text())
	}
}

func TestUndoBetweenPlayers(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	only(t, tb.command(ann, "/go play move:E5"))
	c := only(t, tb.command(ann, "/go undo"))
	if !strings.Contains(c.text(), "asks to take back 1 move") {
		t.Fatalf("undo request: %q", c.text())
	}
	yes := c.buttonID(t, "Allow undo")
	wantEphemeral(t, tb.press(ann, yes), "Only")
	calls := tb.press(bob, yes)
	if len(calls) != 2 || !strings.Contains(calls[1].text(), "took back 1 move") {
		t.Fatalf("allow undo: %v", calls)
	}
	wantEphemeral(t, tb.press(bob, yes), "This undo request is no longer open: it was answered or withdrawn, or a move was played since.")
	g, _ := tb.store.Game(context.Background(), channelID)
	if g.State.MoveCount() != 0 || g.Undo != nil {
		t.Fatalf("after undo: %d moves, request %v", g.State.MoveCount(), g.Undo)
	}
	// A refused request changes nothing.
	only(t, tb.command(ann, "/go play move:E5"))
	only(t, tb.command(bob, "/go play move:C3"))
	c = only(t, tb.command(ann, "/go undo"))
	if !strings.Contains(c.text(), "2 moves") {
		t.Fatalf("undo after a reply: %q", c.text())
	}
	c = only(t, tb.press(bob, c.buttonID(t, "Refuse")))
	if !strings.Contains(c.text(), "refused") {
		t.Fatalf("refuse: %q", c.text())
	}
	g, _ = tb.store.Game(context.Background(), channelID)
	if g.State.MoveCount() != 2 {
		t.Fatalf("after a refused undo %d moves, want 2", g.State.MoveCount())
	}
	// The asker withdraws a request with Refuse.
	c = only(t, tb.command(ann, "/go undo"))
	wantEphemeral(t, tb.press(ann, c.buttonID(t, "Allow undo")), "Only "+commands.Mention(commands.UserPlayer(bob))+" can answer your undo request; **Refuse** withdraws it.")
	no := c.buttonID(t, "Refuse")
	if c = only(t, tb.press(ann, no)); !strings.Contains(c.text(), "↩️ "+commands.Mention(commands.UserPlayer(ann))+" withdrew the request; play on.") {
		t.Fatalf("withdraw: %q", c.text())
	}
	if g, _ = tb.store.Game(context.Background(), channelID); g.Undo != nil || g.State.MoveCount() != 2 {
		t.Fatalf("after withdrawing: request %v, %d moves", g.Undo, g.State.MoveCount())
	}
	// A request answered by playing on lapses: its question is closed
	// with the move, and its buttons say so.
	c = only(t, tb.command(ann, "/go undo"))
	yes = c.buttonID(t, "Allow undo")
	calls = tb.command(ann, "/go play move:D4")
	if len(calls) != 2 || calls[0].Op != "editmsg" || calls[0].text() != commands.Mention(commands.UserPlayer(ann))+" asked to take back 2 moves. ⌛ A move was played since; play on. [Allow undo] [Refuse]" {
		t.Fatalf("a move with an undo request open: %v", calls)
	}
	wantEphemeral(t, tb.press(bob, yes), "This undo request is no longer open")
	if g, _ = tb.store.Game(context.Background(), channelID); g.State.MoveCount() != 3 {
		t.Fatalf("a lapsed request took moves back: %d moves", g.State.MoveCount())
	}
}

func TestChallengeDeclineExpireAndStolenClick(t *testing.T) {
	tb := newTestApp(t)
	calls := tb.command(ann, "/go challenge opponent:bob size:13")
	accept, decline := calls[1].buttonID(t, "Accept"), calls[1].buttonID(t, "Decline")
	wantEphemeral(t, tb.press(cat, accept), "Only <@"+bob.ID+"> can answer")
	c := only(t, tb.press(bob, decline))
	if c.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(c.text(), "declined") {
		t.Fatalf("decline: %s %q", c.Op, c.text())
	}
	// Pressing again: the clicker alone is told, and the declined
	// challenge's message is left as it is.
	wantEphemeral(t, tb.press(bob, accept), "This challenge is no longer open.")

	calls = tb.command(ann, "/go challenge opponent:bob")
	accept = calls[1].buttonID(t, "Accept")
	tb.clk.Advance(25 * time.Hour)
	c = only(t, tb.press(bob, accept))
	if !strings.Contains(c.text(), "expired") {
		t.Fatalf("accept after expiry: %q", c.text())
	}

	// The sweep disables the buttons of expired challenges.
	calls = tb.command(ann, "/go challenge opponent:bob")
	tb.clk.Advance(25 * time.Hour)
	tb.Sweep(context.Background())
	c = only(t, tb.rec.take())
	if c.Op != "editmsg" || !strings.Contains(c.text(), "expired") {
		t.Fatalf("sweep: %s %q", c.Op, c.text())
	}
	for _, row := range c.Message.Components {
		for _, b := range row.(discordgo.ActionsRow).Components {
			if !b.(discordgo.Button).Disabled {
				t.Errorf("button %q still enabled after expiry", b.(discordgo.Button).Label)
			}
		}
	}
	wantEphemeral(t, tb.command(ann, "/go challenge opponent:ann"), "cannot challenge yourself")
}

func TestChallengeInThread(t *testing.T) {
	tb := newTestApp(t)
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black thread:true")
	calls = tb.press(bob, calls[1].buttonID(t, "Accept"))
	if len(calls) != 3 || calls[0].Op != "thread" || calls[2].Op != "send" {
		t.Fatalf("accept in thread: %v", calls)
	}
	thread := calls[2].Channel
	// The parent channel stays free; the game lives in the thread.
	if _, err := tb.store.Game(context.Background(), channelID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("parent channel has a game: %v", err)
	}
	c := only(t, tb.commandIn(ann, thread, "/go play move:E5"))
	if !strings.Contains(c.text(), "E5") {
		t.Fatalf("move in thread: %q", c.text())
	}
}

func TestRacingClicks(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	g, _ := tb.store.Game(context.Background(), channelID)
	id := "game/" + g.ID + "/pass/0"
	var wg sync.WaitGroup
	results := make([][]call, 8)
	for range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it := tb.interaction(ann, channelID)
			it.Type = discordgo.InteractionMessageComponent
			it.Data = discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.ButtonComponent}
			tb.Handle(context.Background(), it)
		}()
	}
	wg.Wait()
	applied, refused := 0, 0
	for _, c := range tb.rec.take() {
		switch {
		case c.Message != nil && c.Message.Ephemeral:
			refused++
		case strings.Contains(c.text(), "passed"):
			applied++
		}
	}
	if applied != 1 || refused != len(results)-1 {
		t.Fatalf("%d clicks: %d applied, %d refused; want exactly one applied", len(results), applied, refused)
	}
	g, _ = tb.store.Game(context.Background(), channelID)
	if g.State.MoveCount() != 1 {
		t.Fatalf("%d moves after racing passes, want 1", g.State.MoveCount())
	}
}

func TestPanicIsAnsweredWithAnApology(t *testing.T) {
	tb := newTestApp(t)
	tb.Router().Command("go/help", func(ctx context.Context, r *commands.Request) error { panic("boom") })
	wantEphemeral(t, tb.command(ann, "/go help"), "Sorry")
}

func TestAbortAndBoardAndSGF(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	only(t, tb.command(ann, "/go play move:E5"))
	c := only(t, tb.command(cat, "/go board"))
	if len(c.Message.Files) != 1 || !strings.Contains(c.text(), "Move 2") {
		t.Fatalf("board: %q", c.text())
	}
	c = only(t, tb.command(cat, "/go sgf"))
	if len(c.Message.Files) != 1 || !strings.Contains(string(c.Message.Files[0].Data), ";B[ee]") || c.text() != "Game record after 1 move (SGF, opens in any Go editor)." {
		t.Fatalf("sgf: %q %v", c.text(), c.Message.Files)
	}
	calls := tb.command(cat, "/go sgf animation:true")
	if len(calls) != 2 || calls[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || len(calls[1].Message.Files) != 2 {
		t.Fatalf("sgf with animation: %v", calls)
	}
	if gif := calls[1].Message.Files[1]; gif.ContentType != "image/gif" || !strings.HasPrefix(string(gif.Data), "GIF8") {
		t.Fatalf("animation %s (%s) is not a GIF", gif.Name, gif.ContentType)
	}
	it := tb.interaction(cat, channelID)
	it.Member.Permissions = discordgo.PermissionManageMessages
	data, _, _ := commands.ParseSlash("/go abort reason:stuck", goDefinitions(nil), nil)
	it.Type, it.Data = discordgo.InteractionApplicationCommand, data
	tb.Handle(context.Background(), it)
	calls = tb.rec.take() // the answer, after the boards' buttons are removed
	c = calls[len(calls)-1]
	if want := commands.Mention(commands.UserPlayer(cat)) + ", a moderator, aborted the game ⚫ " + commands.Mention(commands.UserPlayer(ann)) + " vs ⚪ " + commands.Mention(commands.UserPlayer(bob)) + " after 1 move: it is recorded as aborted"; !strings.HasPrefix(c.text(), "🚫 "+want) || !strings.HasSuffix(c.text(), "Reason: stuck\nThe channel is free for a new game.") {
		t.Fatalf("abort: %q, want it to say %q", c.text(), want)
	}
	wantEphemeral(t, tb.command(ann, "/go play move:D4"), ": Void, aborted. `/go board` shows it.")
}

// TestPointsTypedWithSpaces: a point typed with blanks between its column
// and its row, as KGS and OGS players often write it ("D 4", "e 6",
// " d  4 "), is read as that point, and autocomplete suggests it; "4d"
// stays refused with the sentence that says how to write a point.
func TestPointsTypedWithSpaces(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	c := only(t, tb.command(ann, "/go play move:D 4?"))
	if len(c.Choices) != 1 || c.Choices[0].Value != "D4" {
		t.Errorf("autocomplete for %q: %v, want D4", "D 4", c.Choices)
	}
	for _, tt := range []struct {
		user        *discordgo.User
		typed, want string
	}{
		{ann, "D 4", "⚫ <@" + ann.ID + "> played **D4**."},
		{bob, "e 6", "⚪ <@" + bob.ID + "> played **E6**."},
		{ann, " d  5 ", "⚫ <@" + ann.ID + "> played **D5**."},
	} {
		c := only(t, tb.command(tt.user, "/go play move:"+tt.typed))
		if c.Message == nil || c.Message.Ephemeral || !strings.Contains(c.text(), "\n"+tt.want+"\n") {
			t.Errorf("%q: the board reads %q, want the line %q", tt.typed, c.text(), tt.want)
		}
	}
	for _, tt := range []struct{ typed, want string }{
		{"4d", `I can't read "4d" as a point: write a column letter and a row number, like D4 (valid here: A1–J9).`},
		{"D 44", "D44 is off this 9×9 board: valid points are A1–J9."},
		{"D 4 4", `I can't read "D 4 4" as a point: write a column letter and a row number, like D4 (valid here: A1–J9).`},
	} {
		c := only(t, tb.command(bob, "/go play move:"+tt.typed))
		if c.Message == nil || !c.Message.Ephemeral || c.text() != tt.want {
			t.Errorf("%q: the reply is %q, want %q privately", tt.typed, c.text(), tt.want)
		}
	}
	// /go dead reads its point the same way.
	only(t, tb.command(bob, "/go pass"))
	only(t, tb.command(ann, "/go pass"))
	c = only(t, tb.command(bob, "/go dead point:e 6?"))
	if len(c.Choices) != 1 || c.Choices[0].Value != "E6" {
		t.Errorf("autocomplete of /go dead for %q: %v, want E6", "e 6", c.Choices)
	}
	c = only(t, tb.command(bob, "/go dead point:e 6"))
	if want := "\n<@" + bob.ID + "> marked the white stone at E6 **dead**.\n"; !strings.Contains(c.text(), want) {
		t.Errorf("/go dead point:e 6: %q, want the line %q", c.text(), want)
	}
}

func TestAutocomplete(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	c := only(t, tb.command(ann, "/go play move:E?"))
	if c.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(c.Choices) != 9 || c.Choices[0].Name != "E1" {
		t.Fatalf("autocomplete E: %s %v", c.Op, c.text())
	}
	c = only(t, tb.command(ann, "/go play move:?"))
	if len(c.Choices) != 25 {
		t.Fatalf("autocomplete empty: %d choices, want 25", len(c.Choices))
	}
	// Only the player to move is offered moves.
	for _, u := range []*discordgo.User{bob, {ID: "900000000000000777", Username: "cid"}} {
		if c := only(t, tb.command(u, "/go play move:E?")); len(c.Choices) != 0 {
			t.Errorf("autocomplete for %s, who is not to move: %d choices, want none", u.Username, len(c.Choices))
		}
	}
	only(t, tb.command(ann, "/go play move:E5"))
	c = only(t, tb.command(bob, "/go play move:E?"))
	if len(c.Choices) != 8 {
		t.Errorf("autocomplete E for bob to move, E5 taken: %d choices, want 8", len(c.Choices))
	}
	for _, ch := range c.Choices {
		if ch.Name == "E5" {
			t.Fatalf("autocomplete offers the occupied point E5")
		}
	}
}

func TestResignNeedsConfirmation(t *testing.T) {
	tb := newTestApp(t)
	board := startGame(t, tb)
	c := only(t, tb.press(bob, board.buttonID(t, "Resign")))
	if !c.Message.Ephemeral {
		t.Fatalf("resign button: %q, want a private confirmation", c.text())
	}
	// The board whose Resign was pressed loses its buttons, then the
	// answer shows the result.
	calls := tb.press(bob, c.buttonID(t, "Yes, resign"))
	// (The accept's answer showed it: its token edits it, or the channel
	// message when its ID is known.)
	if len(calls) != 2 || (calls[0].Op != "editmsg" && calls[0].Op != "edit") || !calls[0].Message.ClearComponents {
		t.Fatalf("resign: calls %+v, want the board's buttons removed, then the answer", calls)
	}
	if c := calls[1]; !strings.Contains(c.text(), "wins by resignation") || !strings.Contains(c.text(), "B+R") {
		t.Fatalf("resign: %q", c.text())
	}
}

func TestScoringTimeout(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	only(t, tb.command(ann, "/go play move:E5"))
	only(t, tb.command(bob, "/go pass"))
	only(t, tb.command(ann, "/go pass"))
	g, _ := tb.store.Game(context.Background(), channelID)
	// The clocks' scheduler ends the scoring phase (its deadline is in
	// the store's deadline index).
	tb.clk.Advance(time.Hour)
	tb.HandleDueGames(context.Background())
	if calls := tb.rec.take(); len(calls) != 0 {
		t.Fatalf("scheduler before the deadline: %v", calls)
	}
	tb.clk.Advance(24 * time.Hour)
	tb.HandleDueGames(context.Background())
	calls := tb.rec.take()
	// Every board kept (the answers to the moves, known by their
	// messages) loses its buttons (retireCountBoards), then the result.
	if len(calls) < 2 {
		t.Fatalf("scheduler after the deadline: %v, want the boards' buttons removed, then the result", calls)
	}
	for _, c := range calls[:len(calls)-1] {
		if c.Op != "editmsg" || !c.Message.ClearComponents {
			t.Fatalf("scheduler after the deadline: %v, want the boards' buttons removed, then the result", calls)
		}
	}
	c := calls[len(calls)-1]
	if c.Op != "send" || !strings.Contains(c.text(), "ran out") || !strings.Contains(c.text(), "B+") {
		t.Fatalf("scheduler after the deadline: %s %q", c.Op, c.text())
	}
	a, err := tb.store.ArchivedGame(context.Background(), g.ID)
	if err != nil || a.Result == "" {
		t.Fatalf("archive after timeout: %v, %v", a, err)
	}
}

// queueBehind is a test bot with one worker, held by the bot's first move
// in channelID until free is called, and a second bot game in channel
// otherChannel whose first move waits behind it.
type queueBehind struct {
	*testApp
	free func()
	wg   sync.WaitGroup
	mu   sync.Mutex
	sent []call // what the two handlers returned
}

const otherChannel = "900000000000000003"

func newQueueBehind(t *testing.T) *queueBehind {
	release := make(chan struct{})
	var once sync.Once
	oneWorker := func(o *commands.Options) { o.BotWorkers = 1 }
	q := &queueBehind{testApp: newTestAppWith(t, blockingPlayers{release: release}, oneWorker), free: func() { once.Do(func() { close(release) }) }}
	t.Cleanup(func() { q.free(); q.wg.Wait() })
	q.start(channelID)
	runtimetest.WaitFor(t, "the worker to take the first game's move", func() bool {
		return q.position(channelID) == 0
	})
	q.start(otherChannel)
	runtimetest.WaitFor(t, "the second game's move to be owed", func() bool {
		return q.position(otherChannel) == 1
	})
	return q
}

// position is the place in the queue of the bot move owed in ch, -1 when
// none is.
func (q *queueBehind) position(ch string) int {
	ctx := context.Background()
	g, err := q.store.Game(ctx, ch)
	if err != nil {
		return -1
	}
	pos, err := q.store.BotQueuePosition(ctx, ch, g.ID, g.State.MoveCount())
	if err != nil {
		return -1
	}
	return pos
}

// start starts a bot game in ch, the bot moving first.
func (q *queueBehind) start(ch string) {
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		got := q.commandIn(ann, ch, "/go bot level:first size:9 color:white")
		q.mu.Lock()
		q.sent = append(q.sent, got...)
		q.mu.Unlock()
	}()
}

// calls returns what the bot sent in channel otherChannel so far, as "op: text".
func (q *queueBehind) calls() []string {
	q.mu.Lock()
	seen := append([]call(nil), q.sent...)
	q.mu.Unlock()
	q.rec.mu.Lock()
	seen = append(seen, q.rec.calls...)
	q.rec.mu.Unlock()
	var out []string
	for _, c := range seen {
		if c.Channel == otherChannel {
			out = append(out, c.Op+": "+c.text())
		}
	}
	return out
}

// TestBotQueueIsShown: a bot move that waits for the only worker tells the
// player its place in the queue, then the answer is the bot's move.
func TestBotQueueIsShown(t *testing.T) {
	q := newQueueBehind(t)
	want := "edit: ⏳ The bots are all busy; gobot will move here as soon as one is free (number 1 in the queue)."
	runtimetest.WaitFor(t, "the queue notice in the second game", func() bool { return slices.Contains(q.calls(), want) })
	q.free()
	q.wg.Wait()
	got := q.calls()
	if len(got) != 3 || got[1] != want || !strings.Contains(got[2], "played **A1**") {
		t.Fatalf("a queued bot move: want deferral, the queue notice and the board, got\n%s", strings.Join(got, "\n"))
	}
}

// elsewhere is the other process of the TestBotMoveMadeElsewhere tests:
// it claims the bot's move in the second game and plays moves there
// (the bot's first), committing each, and returns the game written.
func (q *queueBehind) elsewhere(t *testing.T, moves ...engine.Move) *storage.Game {
	t.Helper()
	ctx := context.Background()
	if m, err := q.store.ClaimBotMove(ctx, "elsewhere", time.Minute); err != nil || m.ChannelID != otherChannel {
		t.Fatalf("ClaimBotMove = %+v, %v; want the second game's move", m, err)
	}
	g, err := q.store.Game(ctx, otherChannel)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if err := goOf(g).Play(m); err != nil {
			t.Fatal(err)
		}
		if err := q.store.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// botJ9 is the bot's first move in the second game, played elsewhere.
var botJ9 = engine.PlaceAt(engine.Black, engine.Point{Col: 8, Row: 8})

// answer is the other process answering the command that made g's bot move
// owed, as post does, with text.
func (q *queueBehind) answer(g *storage.Game, text string) {
	f := g.Delivery.Followup
	it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: otherChannel}
	q.rec.EditOriginal(context.Background(), it, &commands.Message{Content: text})
}

// handlerDone reports whether the second game's handler has returned.
func (q *queueBehind) handlerDone() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.ContainsFunc(q.sent, func(c call) bool { return c.Channel == otherChannel })
}

// TestBotMoveMadeElsewhere: another process sharing the store makes the
// bot's move a handler here waits for; the handler notices that the move
// left the queue and answers with the board, which shows the move as the
// last one, without announcing it again (the process that made it does).
func TestBotMoveMadeElsewhere(t *testing.T) {
	q := newQueueBehind(t)
	q.elsewhere(t, botJ9)
	runtimetest.WaitFor(t, "the handler to answer with the move made elsewhere", func() bool {
		got := q.calls()
		return len(got) > 0 && strings.Contains(got[len(got)-1], "Last move: ⚫ J9")
	})
	if got := q.calls(); strings.Contains(got[len(got)-1], "played **J9**") {
		t.Errorf("the handler announces a move another process made (and announces): %q", got[len(got)-1])
	}
}

// TestBotMoveMadeElsewhereGameWentOn: another process makes the bot's move
// a handler here waits for, announces it, and the game goes on there (the
// player's next move, the bot's next move owed). The handler answers at
// once with the board as it stands, saying so; it neither waits for the
// bot's next move nor announces it (that move answers another command).
func TestBotMoveMadeElsewhereGameWentOn(t *testing.T) {
	q := newQueueBehind(t)
	q.elsewhere(t, botJ9, engine.PlaceAt(engine.White, engine.Point{Col: 0, Row: 0})) // and ann's A1
	if pos := q.position(otherChannel); pos != 1 {
		t.Fatalf("the bot's next move in the second game: place %d in the queue, want 1", pos)
	}
	runtimetest.WaitFor(t, "the handler to answer with the game as it stands", func() bool {
		got := q.calls()
		return len(got) > 0 && strings.Contains(got[len(got)-1], "Last move: ⚪ A1")
	})
	got := q.calls()
	last := got[len(got)-1]
	if !strings.Contains(last, "The game has gone on since; here it is as it stands.") || strings.Contains(last, "gobot (first) played") {
		t.Errorf("the answer after the game went on elsewhere: %q", last)
	}
	// The bot's next move, made here once the worker is free, is posted
	// on its own, not as the old command's answer.
	q.free()
	q.wg.Wait()
	runtimetest.WaitFor(t, "the bot's next move to be posted", func() bool {
		return slices.ContainsFunc(q.calls(), func(c string) bool { return strings.Contains(c, "gobot (first) played") })
	})
	for _, c := range q.calls() {
		if strings.HasPrefix(c, "edit: ") && strings.Contains(c, "gobot (first) played") {
			t.Errorf("the old command's answer announces the bot's next move: %q", c)
		}
	}
}

// elsewhereThenResign is the other process making the bot's move (J9) in
// the second game, answering the command waiting for it when answer is
// set, and then ann resigning there, which ends the game.
func (q *queueBehind) elsewhereThenResign(t *testing.T, answer bool) {
	t.Helper()
	g := q.elsewhere(t, botJ9)
	if answer {
		q.answer(g, "⚫ gobot (first) played **J9**.")
	}
	if err := goOf(g).Play(engine.ResignMove(engine.White)); err != nil {
		t.Fatal(err)
	}
	if err := q.store.FinishGame(context.Background(), g, storage.Archived{SGF: []byte("(;GM[1]SZ[9];B[ia];W[])")}); err != nil {
		t.Fatal(err)
	}
}

// TestBotMoveMadeElsewhereThenGameEnded: another process makes the bot's
// move a handler here waits for, answers the handler's command with it,
// and the game ends there at once (ann resigns). The handler leaves that
// answer as it is: it neither says the game ended before the bot's move
// nor that the move was not played.
func TestBotMoveMadeElsewhereThenGameEnded(t *testing.T) {
	q := newQueueBehind(t)
	q.elsewhereThenResign(t, true)
	runtimetest.WaitFor(t, "the handler to finish", q.handlerDone)
	got := q.calls()
	if last := got[len(got)-1]; last != "edit: ⚫ gobot (first) played **J9**." {
		t.Errorf("the answer the other process gave was replaced: %q", strings.Join(got, "\n"))
	}
}

// TestBotMoveMadeElsewhereGameEndedUnanswered: as above, but nobody
// answered the command: its answer says the game ended meanwhile, with its
// result, without claiming the bot's move was not played (it was).
func TestBotMoveMadeElsewhereGameEndedUnanswered(t *testing.T) {
	q := newQueueBehind(t)
	q.elsewhereThenResign(t, false)
	want := "This game ended while gobot was thinking: **B+R**."
	runtimetest.WaitFor(t, "the handler to say the game ended", func() bool {
		got := q.calls()
		return len(got) > 0 && strings.Contains(got[len(got)-1], want)
	})
	if got := q.calls(); strings.Contains(got[len(got)-1], "not played") {
		t.Errorf("the answer says the bot's move was not played: %q", got[len(got)-1])
	}
}

// TestBotMoveMadeElsewhereAnsweredLate: the other process that made the
// bot's move answers the command waiting for it a second after its write
// (a slow post, a loaded machine), after this handler found the move gone
// from the queue. The handler waits for that answer instead of racing it
// with one of its own, so the command's answer announces the move, once.
func TestBotMoveMadeElsewhereAnsweredLate(t *testing.T) {
	q := newQueueBehind(t)
	g := q.elsewhere(t, botJ9)
	time.Sleep(1500 * time.Millisecond)
	// As post does: answer the command if it still waits, else follow up.
	f := g.Delivery.Followup
	it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: otherChannel}
	if orig, _ := q.rec.Original(context.Background(), it); orig.Flags&discordgo.MessageFlagsLoading == 0 && !strings.HasPrefix(orig.Content, "⏳") {
		t.Fatalf("the handler answered before the process that made the move: %q", q.calls())
	}
	q.answer(g, "⚫ gobot (first) played **J9**.")
	runtimetest.WaitFor(t, "the handler to finish", q.handlerDone)
	if got := q.calls(); got[len(got)-1] != "edit: ⚫ gobot (first) played **J9**." {
		t.Errorf("the late answer of the process that made the move was replaced: %q", strings.Join(got, "\n"))
	}
}

// TestShownNameEscapesMarkdown: a display name's markdown characters show
// as typed in titles; the record keeps the name as it is.
func TestShownNameEscapesMarkdown(t *testing.T) {
	g := &storage.Game{Sides: storage.Sides(storage.Player{UserID: "1", Name: "*star* `t` a_b ||x||"}, storage.Player{UserID: "2", Name: "bob"})}
	if got, want := title(g), "⚫ \\*star\\* \\`t\\` a\\_b \\|\\|x\\|\\| vs ⚪ bob"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if got := commands.PlainName(g.First(engine.SideOf(engine.Black))); got != "*star* `t` a_b ||x||" {
		t.Errorf("plainName = %q, want the name as it is", got)
	}
}

// rankedPlayers are testPlayers whose level first was measured at 9 kyu
// on 9×9 and never on another size.
type rankedPlayers struct{ testPlayers }

func (rankedPlayers) RankOn(level string, size int) (kyu, measured int) {
	if level == "first" {
		return 9, 9
	}
	return 0, 0
}

// TestBotRankForTheSize: /go bot's first message gives the level's rank
// for the size chosen, says when that rank is 9×9's, and gives none for a
// level without one.
func TestBotRankForTheSize(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"/go bot level:first size:9 color:black", "against gobot **first** (about 9 kyu; 9×9"},
		{"/go bot level:first size:19 color:black", "against gobot **first** (about 9 kyu on 9×9, not measured on 19×19; 19×19"},
		{"/go bot level:second size:9 color:black", "against gobot **second** (9×9"},
	} {
		tb := newTestAppWith(t, rankedPlayers{})
		c := only(t, tb.command(ann, tt.line))
		if !strings.Contains(c.text(), tt.want) {
			t.Errorf("%s: %q, want it to say %q", tt.line, c.text(), tt.want)
		}
	}
}

// TestJigoShown: a draw reads "Jigo" wherever people see its result: the
// final board, /go history and /go stats, and the record's reply (the
// SGF itself keeps RE[0]).
func TestJigoShown(t *testing.T) {
	tb := newTestApp(t)
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black komi:0")
	only(t, tb.press(bob, calls[1].buttonID(t, "Accept"))[:1])
	only(t, tb.command(ann, "/go pass"))
	c := only(t, tb.command(bob, "/go pass"))
	c = only(t, tb.press(ann, c.buttonID(t, "Accept")))
	c = ended(t, tb.press(bob, c.buttonID(t, "Accept")))
	if !strings.Contains(c.text(), "**Game over: Jigo (a draw)**") {
		t.Errorf("the final board: %q, want Jigo (a draw)", c.text())
	}
	a, err := tb.store.PlayerGames(context.Background(), ann.ID, 1)
	if err != nil || len(a) != 1 || a[0].Result != "0" {
		t.Fatalf("archive: %+v, %v", *a[0], err)
	}
	if c := only(t, tb.command(ann, "/go history")); !strings.Contains(c.text(), "⚫ jigo vs <@"+bob.ID+"> · 9×9 · Jigo · ") {
		t.Errorf("/go history: %q", c.text())
	}
	if c := only(t, tb.command(bob, "/go stats")); !strings.Contains(c.text(), "⚪ jigo vs <@"+ann.ID+"> · 9×9 · Jigo · ") {
		t.Errorf("/go stats: %q", c.text())
	}
	if c := only(t, tb.command(ann, "/go sgf game:"+a[0].ID)); !strings.Contains(c.text(), ", Jigo, finished") || len(c.Message.Files) != 1 || !strings.Contains(string(c.Message.Files[0].Data), "RE[0]") {
		t.Errorf("/go sgf: %q", c.text())
	}
}

// ended is the answer that ends a game by counting: the last call, after
// which the counting boards the game kept lose their buttons (one edit
// each; a press here carries no message, as the board page's does not, so
// none is skipped as the one pressed).
func ended(t *testing.T, calls []call) call {
	t.Helper()
	if len(calls) == 0 {
		t.Fatal("no answer")
	}
	for _, c := range calls[:len(calls)-1] {
		if c.Op != "editmsg" || !c.Message.ClearComponents {
			t.Fatalf("before the answer: %s %q, want only boards' buttons removed", c.Op, c.text())
		}
	}
	return calls[len(calls)-1]
}

// TestRematchKeepsHeadStart: a rematch changes the colours, unless the
// game gave Black a head start: handicap stones, or a komi of 0.5 or
// less (the one-stone handicap's, none, a reverse komi), which the same
// player takes again.
func TestRematchKeepsHeadStart(t *testing.T) {
	for _, c := range []struct {
		komi     float64
		handicap int
		want     string // the colour bob, Black in the game, asks for
	}{
		{7.5, 0, "white"}, {6.5, 0, "white"}, {0.5, 0, "black"}, {0, 0, "black"}, {-3.5, 0, "black"}, {0.5, 2, "black"},
	} {
		rules := engine.DefaultRules()
		rules.Komi = c.komi
		arc := &storage.Archived{ID: "1", Kind: "go", Size: 9, Rules: rules, Handicap: c.handicap,
			Black: storage.Player{UserID: "2", Name: "bob"}, White: storage.Player{UserID: "3", Name: "ann"}}
		data := (&room{}).Rematch(arc, engine.SideOf(engine.Black))
		got := ""
		for _, o := range data.Options[0].Options {
			if o.Name == "color" {
				got = o.StringValue()
			}
		}
		if got != c.want {
			t.Errorf("komi %v, handicap %d: bob asks for %q, want %q", c.komi, c.handicap, got, c.want)
		}
	}
}
