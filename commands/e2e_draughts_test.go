package commands_test

// Scenarios of international draughts (/draughts) through the fake
// Discord: a challenge played to a capture and a draw by agreement, a game
// against the bot resigned by its button, the refusals a player meets, and
// the finished game's record. The harness is in e2e_harness_test.go.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // the animations
	_ "image/png" // the boards
	"strings"
	"testing"
	"time"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/storage"
)

// draughtsCmd is /draughts <sub> with opts, sent by u in ch.
func (e *env) draughtsCmd(ch *discordtest.Channel, u discordtest.User, sub string, opts ...discordtest.Option) *discordtest.Interaction {
	return e.d.Command(ch, u, "draughts", discordtest.Sub(sub, opts...))
}

// draughtsMove is /draughts play move:<m>.
// draughtsGame starts a game of draughts in ch, white against black (who
// accepts), on clock, and waits for its first board.
func (e *env) draughtsGame(ch *discordtest.Channel, white, black discordtest.User, clock string) {
	e.t.Helper()
	msg := e.newChallenge(e.draughtsCmd(ch, white, "challenge", discordtest.UserOpt("opponent", black), discordtest.Str("color", "white"), discordtest.Str("clock", clock)))
	e.do(e.click(black, msg, "accept"))
	e.waitBoard(ch.ID, "⚪ white to play")
}

func (e *env) draughtsMove(ch *discordtest.Channel, u discordtest.User, m string) *discordtest.Interaction {
	return e.draughtsCmd(ch, u, "play", discordtest.Str("move", m))
}

// draughtsOf is the stored game's draughts state.
func draughtsOf(t *testing.T, g *storage.Game) draughts.State {
	t.Helper()
	st, ok := g.State.(draughts.State)
	if !ok || g.Kind != "draughts" {
		t.Fatalf("game in %s is %q (%T), want draughts", g.ChannelID, g.Kind, g.State)
	}
	return st
}

func TestE2EDraughts(t *testing.T) { bothModes(t, testE2EDraughts) }

func testE2EDraughts(t *testing.T, e *env) {
	ch := e.d.GuildChannel("draughts")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "fischer 10m +10s")))
	if want := bob.Mention() + ", " + alice.Mention() + " challenges you to a game of international draughts (10×10)"; !strings.Contains(msg.Text(), want) {
		t.Fatalf("challenge = %q, want %q", msg.Text(), want)
	}
	e.do(e.click(bob, msg, "accept"))
	first := e.waitBoard(ch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	if got := first.Embeds[0].Title; got != "⚪ alice vs ⚫ bob · draughts" {
		t.Errorf("board title = %q", got)
	}
	if png, ok := first.PNG(); !ok || !strings.Contains(png.Description, "alice (white) vs bob (black)") {
		t.Errorf("board picture %q: want alt text naming alice white and bob black", png.Description)
	}
	g := e.game(ch.ID)
	if draughtsOf(t, g); g.First(0).UserID != alice.ID || g.First(1).UserID != bob.ID || g.Clock == nil {
		t.Fatalf("game: white %s, black %s, clock %v; want alice white, bob black, a clock", g.First(0).UserID, g.First(1).UserID, g.Clock)
	}

	// Go's commands and the wrong player are refused, and change nothing.
	e.refused(e.play(ch, alice, "D4"), "The game in this channel is international draughts: play it with `/draughts play`")
	e.refused(e.slash(ch, bob, "estimate"), "The game in this channel is international draughts: score estimates are only for Go.")
	e.refused(e.slash(ch, bob, "undo"), "The game in this channel is international draughts, which has no takebacks: a move played stands.")
	e.refused(e.slash(ch, bob, "pass"), "The game in this channel is international draughts, which has no passing: you must move, and a player who cannot move loses.")
	// A command the channel's game has too is named as its own.
	e.refused(e.slash(ch, bob, "resign"), "The game in this channel is international draughts: use `/draughts resign` (`/draughts help` says how).")
	e.refused(e.slash(ch, bob, "abort"), "The game in this channel is international draughts: use `/draughts abort` (`/draughts help` says how).")
	e.refused(e.draughtsMove(ch, bob, "19-23"), "It is not your turn: ⚪ white "+alice.Mention()+" is to play.")
	e.refused(e.draughtsMove(ch, alice, "99-1"), `"99-1" is not a move you can play: square 99 is off the board (1 to 50).`)
	e.refused(e.draughtsMove(ch, alice, "0-5"), `"0-5" is not a move you can play: square 0 is off the board (1 to 50).`)
	e.refused(e.draughtsMove(ch, alice, "32:28"), `"32:28": the dash must be '-' or 'x', not ":".`)
	e.refused(e.draughtsMove(ch, alice, "ab"), `"ab" is not a move: write squares 1 to 50 joined by '-' or 'x', as 32-28 or 28x19.`)
	e.refused(e.draughtsMove(ch, alice, "37-32"), `37-32 is not a legal move: 32 is taken.`)
	e.refused(e.draughtsMove(ch, alice, "31-36"), `31-36 goes backward: a man moves forward only, unless it captures. The piece on 31 can play 31-26 or 31-27.`)
	e.refused(e.draughtsMove(ch, alice, "32-29"), `32-29 is not a legal move: 32 and 29 are not on one diagonal. The piece on 32 can play 32-27 or 32-28.`)

	// The words a player may type for a move point at their commands.
	e.refused(e.draughtsMove(ch, alice, "Resign"), "To resign, use `/draughts resign` (or the Resign button).")
	e.refused(e.draughtsMove(ch, alice, "draw"), "To offer a draw, or accept one, use `/draughts draw` (or the draw button under the board).")
	e.refused(e.draughtsMove(ch, alice, "pass"), "There is no passing in draughts: a player who cannot move loses. Type a move as squares, like 32-28 or 28x19.")
	// Three digits that split into squares both ways ask for the dash.
	e.refused(e.draughtsMove(ch, alice, "128"), `"128": write it with a dash, as 1-28 or 12-8.`)

	// An en dash, as pasted text or a phone's keyboard gives, is a dash.
	if m := e.do(e.draughtsMove(ch, alice, "32–28")); !strings.Contains(m.Text(), "played **32-28**") {
		t.Errorf("32–28 (an en dash) = %q, want 32-28 played", m.Text())
	}
	// A move typed without a dash, as engines write it, is read.
	if m := e.do(e.draughtsMove(ch, bob, "1923")); !strings.Contains(m.Text(), "played **19-23**") {
		t.Errorf("1923 = %q, want 19-23 played", m.Text())
	}
	// A capture is compulsory: the quiet move is refused, the board says so.
	b := e.board(ch.ID)
	if !strings.Contains(b.Text(), "A capture is compulsory, and you must take the most pieces.") {
		t.Errorf("board before a capture = %q, want the capture rule", b.Text())
	}
	e.refused(e.draughtsMove(ch, alice, "33-29"), "33-29 does not capture, but a capture is compulsory: 28x19.")

	// /go play's suggestions have nothing for a game of draughts.
	if r := e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("play", discordtest.Focused("move", "3")))); len(r.Choices) != 0 {
		t.Errorf("/go play autocomplete in a draughts game = %+v, want none", r.Choices)
	}
	// Autocomplete offers exactly the legal moves.
	r := e.d.Do(e.d.Autocomplete(ch, alice, "draughts", discordtest.Sub("play", discordtest.Focused("move", ""))))
	if len(r.Choices) != 1 || r.Choices[0].Name != "28x19" {
		t.Errorf("autocomplete = %+v, want the one capture 28x19", r.Choices)
	}

	m := e.do(e.draughtsMove(ch, alice, "28x19"))
	if want := "⚪ white " + alice.Mention() + " played **28x19**. White 28x19 captures 1 piece."; !strings.Contains(m.Text(), want) {
		t.Errorf("after the capture: %q, want %q", m.Text(), want)
	}
	if !strings.Contains(m.Text(), "Pieces: ⚪ 20 · ⚫ 19") {
		t.Errorf("after the capture: %q, want 20 white and 19 black pieces", m.Text())
	}
	e.do(e.draughtsMove(ch, bob, "14x23"))
	// The board says the last move in words, as Go's do: /draughts board
	// shows who played what last.
	if b := e.do(e.draughtsCmd(ch, alice, "board")); !strings.Contains(b.Text(), "\nLast move: ⚫ black 14x23\nPieces: ⚪ 19 · ⚫ 19\n") {
		t.Errorf("/draughts board after 14x23 = %q, want the last move said", b.Text())
	}

	// A draw offered by alice, accepted by bob with the button.
	offer := e.do(e.draughtsCmd(ch, alice, "draw"))
	if want := "🤝 " + alice.Mention() + " offers a draw. " + bob.Mention() + ", accept with `/draughts draw` or the button"; !strings.Contains(offer.Text(), want) {
		t.Fatalf("draw offer = %q, want %q", offer.Text(), want)
	}
	e.refused(e.draughtsCmd(ch, alice, "draw"), "You have offered a draw already")
	e.do(e.click(bob, offer, "Accept the draw"))
	// The offer loses its button and says it was accepted; the final
	// board follows.
	accepted := "🤝 " + alice.Mention() + " offered a draw. ✅ " + bob.Mention() + " accepted: the game is drawn."
	if labels, text := e.labels(offer.ID); len(labels) > 0 || text != accepted {
		t.Errorf("the accepted offer has the buttons %q and says %q; want no buttons, and %q", labels, text, accepted)
	}
	end := e.waitBoard(ch.ID, "Game over: drawn by agreement")
	if want := "Game over: drawn by agreement · 1-1"; !strings.Contains(end.Text(), want) {
		t.Errorf("after the draw: %q, want %q", end.Text(), want)
	}
	if !strings.Contains(end.Text(), "Not rated: the game ended before each player had made 5 moves.") {
		t.Errorf("after the draw: %q, want it to say a 4-move game is not rated", end.Text())
	}
	if e.game(ch.ID) != nil {
		t.Fatal("the drawn game is still active")
	}
	arc, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if arc.Kind != "draughts" || arc.Result != "0" || arc.Moves != 4 || arc.White.UserID != alice.ID || arc.Black.UserID != bob.ID {
		t.Errorf("archived %+v; want draughts, result 0, 4 moves, alice white, bob black", arc)
	}
	// /draughts history calls a draw drawn (jigo is Go's word).
	if h := e.do(e.draughtsCmd(ch, alice, "history")); !strings.Contains(h.Text(), "⚪ drawn vs "+bob.Mention()+" · draughts 10×10 · 1-1 ·") ||
		!strings.Contains(h.Text(), "Page 1 of 1 · the numbered buttons attach each game's record; `/draughts record game:ID` takes the IDs.") {
		t.Errorf("/draughts history after the draw = %q", h.Text())
	}
	pdn := string(arc.SGF)
	for _, want := range []string{`[White "alice"]`, `[Black "bob"]`, `[Result "1-1"]`, `[TimeControl "600+10"]`, "1. 32-28 19-23 2. 28x19 14x23 {Drawn by agreement.} 1-1"} {
		if !strings.Contains(pdn, want) {
			t.Errorf("PDN record lacks %q:\n%s", want, pdn)
		}
	}
	e.refused(e.draughtsCmd(ch, alice, "record", discordtest.Str("game", "123")), "There is no finished game with ID `123`: pick one of the suggestions, or find it with `/draughts history`.")
	// The default refusals name /draughts' own commands under /draughts.
	e.refused(e.draughtsCmd(e.d.GuildChannel("empty"), alice, "board"), "There is no game in this channel. Start one with `/draughts challenge` or `/draughts bot`.")
	// Stats count the draw, a draw and no jigo.
	if st := e.do(e.draughtsCmd(ch, alice, "stats")); !strings.Contains(st.Text(), "1 game**: 0 won, 0 lost, 1 drawn\n\n**Latest games**") {
		t.Errorf("/draughts stats after the draw = %q, want the draw", st.Text())
	}
	// The record reads back as the same game.
	games, err := draughts.ReadPDN(strings.NewReader(pdn))
	if err != nil || len(games) != 1 || games[0].State.MoveCount() != 4 {
		t.Errorf("ReadPDN(record) = %d games, %v", len(games), err)
	}

	// The finished game, as /go board, /go sgf, /go history and /go review see it.
	fin := e.do(e.slash(ch, alice, "board"))
	if !strings.Contains(fin.Text(), "**Game over: drawn by agreement · 1-1**") || !strings.Contains(fin.Text(), "`/draughts challenge` or `/draughts bot` starts a new one") {
		t.Errorf("/go board after the game = %q", fin.Text())
	}
	rec := e.do(e.slash(ch, alice, "sgf", discordtest.Str("game", g.ID)))
	if len(rec.Attachments) != 1 || !strings.HasSuffix(rec.Attachments[0].Filename, ".pdn") || !strings.Contains(rec.Text(), "(PDN, opens in any draughts program)") ||
		!strings.Contains(rec.Text(), "Record of ⚪ alice vs ⚫ bob, draughts 10×10, 1-1, finished") {
		t.Errorf("/go sgf of the draughts game = %q with %d attachments", rec.Text(), len(rec.Attachments))
	}
	hist := e.do(e.slash(ch, alice, "history"))
	if !strings.Contains(hist.Text(), "vs "+bob.Mention()+" · draughts 10×10 · 1-1 ·") {
		t.Errorf("/go history = %q, want the draughts game", hist.Text())
	}
	if b, ok := hist.Button("PDN 1"); !ok {
		t.Errorf("/go history's buttons %+v: want PDN 1 for the draughts game", hist.Buttons())
	} else if got := e.do(e.d.Click(alice, hist, b.CustomID)); len(got.Attachments) != 1 || !strings.HasSuffix(got.Attachments[0].Filename, ".pdn") {
		t.Errorf("PDN 1 attached %d files: %q", len(got.Attachments), got.Text())
	}
	e.refused(e.slash(ch, alice, "review", discordtest.Str("game", g.ID)), "is a game of international draughts: reviews are only for Go")
}

func TestE2EDraughtsBot(t *testing.T) { httpMode(t, testE2EDraughtsBot) }

func testE2EDraughtsBot(t *testing.T, e *env) {
	ch := e.d.GuildChannel("vs-bot")
	carol := e.d.NewUser("carol")
	// Carol plays black: the bot, white, moves first, before the answer.
	m := e.do(e.draughtsCmd(ch, carol, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "black")))
	if want := "New game of international draughts: " + carol.Mention() + " plays ⚫ black against gobot **beginner**"; !strings.Contains(m.Text(), want) {
		t.Fatalf("bot game = %q, want %q", m.Text(), want)
	}
	if !strings.Contains(m.Text(), "⚪ white gobot (beginner) played **") || !strings.Contains(m.Text(), "to play: "+carol.Mention()) {
		t.Errorf("bot game's first answer = %q, want the bot's move and carol to play", m.Text())
	}
	// A client that still holds the definition from before color: was
	// named as /go's sends colour:, which is read the same.
	old := e.d.GuildChannel("old-client")
	if m := e.do(e.draughtsCmd(old, carol, "bot", discordtest.Str("level", "beginner"), discordtest.Str("colour", "black"))); !strings.Contains(m.Text(), carol.Mention()+" plays ⚫ black against gobot **beginner**") {
		t.Errorf("bot game with colour:black = %q, want carol to play black", m.Text())
	}
	g := e.game(ch.ID)
	st := draughtsOf(t, g)
	if st.MoveCount() != 1 || st.ToMove() != 1 || !g.Player(0).IsBot() {
		t.Fatalf("after the bot's first move: %d moves, %d to move", st.MoveCount(), st.ToMove())
	}
	// Say the bot's first board could not be posted (a private channel
	// whose interaction token expired): carol's next answer says what the
	// bot played.
	g.Delivery.Unposted = true
	if err := e.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	first := st.Moves()[0]
	// Carol plays a legal move; the bot answers.
	mv := e.do(e.draughtsMove(ch, carol, string(st.Legal()[0])))
	if want := fmt.Sprintf("(⚪ white gobot (beginner) played **%s** earlier, but its board could not be posted here.)", first); !strings.Contains(mv.Text(), want) {
		t.Errorf("carol's move after an unposted bot move answered %q, want %q", mv.Text(), want)
	}
	e.d.WaitFor("the bot's answer", func() bool {
		g := e.game(ch.ID)
		return g != nil && g.State.MoveCount() == 3
	})
	// No other game can start here meanwhile.
	e.refused(e.botGame(ch, carol, "tester"), "already")
	e.refused(e.draughtsCmd(ch, carol, "bot"), "A game is already running in this channel. Finish it first, or play me in another channel or in your DM with me: `/draughts bot` there.")
	// Level in material with the whole game to play, the bot declines;
	// in a level ending it accepts at once.
	e.refused(e.draughtsCmd(ch, carol, "draw"), "gobot **beginner** declines the draw: the material is level with much left to play (40 pieces on the board). It accepts when it is behind, or in a level ending of 8 pieces or fewer.")
	g = e.game(ch.ID)
	ending, err := draughts.NewState(map[string]string{"fen": "B:W31,32:B1,2"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	g.State = ending
	if err := e.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	end := e.do(e.draughtsCmd(ch, carol, "draw"))
	if want := "🤝 gobot **beginner** accepted " + carol.Mention() + "'s offer: the game is drawn by agreement."; !strings.Contains(end.Text(), want) || !strings.Contains(end.Text(), "**Game over: drawn by agreement · 1-1**") {
		t.Errorf("draw offered to the bot: %q, want %q and the result", end.Text(), want)
	}
	if arc, err := e.store.ArchivedGame(context.Background(), g.ID); err != nil || arc.Result != "0" {
		t.Errorf("archived %v (%v), want a draw, 0", arc, err)
	}

	// A second game, where the bot is ahead: it declines, and carol resigns
	// by the button.
	e.do(e.draughtsCmd(ch, carol, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "black")))
	g = e.game(ch.ID)
	ahead, err := draughts.NewState(map[string]string{"fen": "B:W31,32,33,K46:B1,2"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	g.State = ahead
	if err := e.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	e.refused(e.draughtsCmd(ch, carol, "draw"), "gobot **beginner** declines the draw: it is ahead in material (6 to 2, a king counting 3) and plays on.")
	b := e.do(e.draughtsCmd(ch, carol, "board"))
	ask := e.do(e.click(carol, b, "Resign"))
	if !ask.Ephemeral || !strings.Contains(ask.Text(), "Do you really want to resign") {
		t.Fatalf("resign button = %q", ask.Text())
	}
	end = e.do(e.click(carol, ask, "Yes, resign"))
	if want := "🏳️ ⚫ black " + carol.Mention() + " resigned."; !strings.Contains(end.Text(), want) {
		t.Errorf("after resigning: %q, want %q", end.Text(), want)
	}
	if want := "Game over: ⚪ white gobot (beginner) wins by resignation · 2-0"; !strings.Contains(end.Text(), want) {
		t.Errorf("after resigning: %q, want %q", end.Text(), want)
	}
	arc, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil || arc.Result != "W+R" || arc.Winner.String() != "white" {
		t.Errorf("archived result %q winner %v (%v), want W+R, white", arc.Result, arc.Winner, err)
	}
	// The board of the finished game says the same in words.
	if fin, want := e.do(e.draughtsCmd(ch, carol, "board")), "**Game over: ⚪ white gobot (beginner) wins by resignation · 2-0**"; !strings.Contains(fin.Text(), want) {
		t.Errorf("/draughts board after the game = %q, want %q", fin.Text(), want)
	}
}

// TestE2EDraughtsWrongGame: /draughts in a channel whose game is Go names
// /go, and /draughts play without a game says how to start one.
func TestE2EDraughtsWrongGame(t *testing.T) { httpMode(t, testE2EDraughtsWrongGame) }

func testE2EDraughtsWrongGame(t *testing.T, e *env) {
	empty := e.d.GuildChannel("empty")
	dan := e.d.NewUser("dan")
	e.refused(e.draughtsCmd(empty, dan, "bot", discordtest.Str("level", "grandmaster")), "Unknown draughts level \"grandmaster\": choose one of beginner, novice, ")
	e.refused(e.draughtsMove(empty, dan, "32-28"), "There is no game in this channel. Start one with `/draughts challenge` or `/draughts bot`.")
	ch, alice, _ := e.guildGame()
	e.refused(e.draughtsMove(ch, alice, "32-28"), "The game in this channel is Go: play it with `/go play` (`/go help` says how).")
	e.refused(e.draughtsCmd(ch, alice, "resign"), "The game in this channel is Go: use `/go resign` (`/go help` says how).")
	e.refused(e.draughtsCmd(ch, alice, "draw"), "The game in this channel is Go: play it with `/go play` (`/go help` says how).")
	help := e.do(e.draughtsCmd(ch, alice, "help"))
	if !help.Ephemeral || !strings.Contains(help.Text(), "Capturing is compulsory, and you must take the most pieces") {
		t.Errorf("/draughts help = %q", help.Text())
	}
}

// TestE2EDraughtsLossOnTime: the clocks' scheduler ends a game of draughts
// on time as it ends Go's: after two moves of her own, White's flag falls
// and Black wins on time, counted (not annulled), announced once.
func TestE2EDraughtsLossOnTime(t *testing.T) { httpMode(t, testE2EDraughtsLossOnTime) }

func testE2EDraughtsLossOnTime(t *testing.T, e *env) {
	ch := e.d.GuildChannel("blitz")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "absolute 1m")))
	e.do(e.click(bob, msg, "accept"))
	first := e.waitBoard(ch.ID, "⏱ ⚪ 1 min · ⚫ 1 min")
	if !strings.Contains(first.Text(), "⚪ white's time runs out <t:") {
		t.Errorf("first board %q: want White's deadline", first.Text())
	}
	for _, m := range []struct {
		u  discordtest.User
		mv string
	}{{alice, "32-28"}, {bob, "19-23"}, {alice, "28x19"}, {bob, "14x23"}} {
		e.do(e.draughtsMove(ch, m.u, m.mv))
	}
	g := e.game(ch.ID)
	e.clock.Advance(2 * time.Minute)
	a := e.archived(ch.ID, g.ID)
	if a.Result != "B+T" || a.Annulled || a.Kind != "draughts" {
		t.Errorf("archived %s annulled=%v kind %q; want B+T, counted, draughts", a.Result, a.Annulled, a.Kind)
	}
	var ann []discordtest.Message
	e.d.WaitFor("the announcement", func() bool { ann = e.publicWith(ch.ID, "ran out of time"); return len(ann) > 0 })
	if want := "⌛ ⚪ " + alice.Mention() + " ran out of time"; len(ann) != 1 || !strings.Contains(ann[0].Text(), want) ||
		!strings.Contains(ann[0].Text(), "**Game over: ⚫ black "+bob.Mention()+" wins on time · 0-2**") {
		t.Errorf("announcements %d, the first %q; want one saying %q and the result", len(ann), ann[0].Text(), want)
	}
	// A flag that falls before its player's second move annuls the game;
	// its PDN says so.
	early := e.d.GuildChannel("blitz-early")
	msg = e.newChallenge(e.draughtsCmd(early, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "absolute 1m")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(early.ID, "⏱ ⚪ 1 min · ⚫ 1 min")
	g = e.game(early.ID)
	e.clock.Advance(2 * time.Minute)
	if a := e.archived(early.ID, g.ID); !a.Annulled || !strings.Contains(string(a.SGF), "Annulled: alice (white) ran out of time before making two moves of their own") ||
		!strings.Contains(string(a.SGF), `[Result "*"]`) {
		t.Errorf("archived %s annulled=%v, PDN:\n%s\nwant annulled, and the PDN saying so with no result", a.Result, a.Annulled, a.SGF)
	}
	// Its announcement, like an aborted game, shows no score.
	e.d.WaitFor("the announcement", func() bool { ann = e.publicWith(early.ID, "ran out of time"); return len(ann) > 0 })
	if text := ann[0].Text(); !strings.Contains(text, "**Game over: annulled on time, not counted**") {
		t.Errorf("announcement %q: want the game annulled, with no score", text)
	}
	if png, ok := ann[0].PNG(); !ok || !strings.Contains(png.Description, "Game over, annulled on time, not counted;") {
		t.Errorf("announcement's picture %q: want its alt text to say the game is annulled", png.Description)
	}
	if fin := e.do(e.draughtsCmd(early, alice, "board")); !strings.Contains(fin.Text(), "**Game over: annulled on time, not counted**") {
		t.Errorf("/draughts board after the annulled game = %q", fin.Text())
	}
	// The history and the record show no score either ("0-2 (time)"
	// read as Black's win).
	if h := e.do(e.draughtsCmd(early, bob, "history")).Text(); !strings.Contains(h, "⚫ annulled vs "+alice.Mention()+" · draughts 10×10 · on time · not counted ·") {
		t.Errorf("/draughts history after the annulled game = %q", h)
	}
	if rec := e.do(e.draughtsCmd(early, bob, "record", discordtest.Str("game", g.ID))).Text(); !strings.Contains(rec, ", annulled on time, finished <t:") {
		t.Errorf("/draughts record of the annulled game = %q", rec)
	}
}

// TestE2EDraughtsPDNTimeControl: draughts' blitz and live presets are
// Fischer clocks, as on lidraughts (3+2 and 10+5), which a PDN record
// writes as seconds+increment; byo-yomi, asked for by its spec, which that
// form cannot write, is "?" with the clock in words beside it.
func TestE2EDraughtsPDNTimeControl(t *testing.T) { httpMode(t, testE2EDraughtsPDNTimeControl) }

func testE2EDraughtsPDNTimeControl(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for _, c := range []struct {
		clock, said string
		tags        []string
	}{
		{"blitz", "Fischer: 3 min, +2 s per move, no maximum", []string{`[TimeControl "180+2"]`}},
		{"live", "Fischer: 10 min, +5 s per move, no maximum", []string{`[TimeControl "600+5"]`}},
		{"byoyomi 3m 5x10s", "byo-yomi: 3 min, then 5 periods of 10 s", []string{`[TimeControl "?"]`, `[Clock "byo-yomi: 3 min, then 5 periods of 10 s"]`}},
	} {
		ch := e.d.GuildChannel(c.clock)
		msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", c.clock)))
		if !strings.Contains(msg.Text(), c.said) {
			t.Errorf("clock:%s: the challenge says %q, want %q", c.clock, msg.Text(), c.said)
		}
		e.do(e.click(bob, msg, "accept"))
		e.waitBoard(ch.ID, "⚪ white to play")
		pdn := string(attachment(t, e.do(e.draughtsCmd(ch, alice, "record")), ".pdn").Data)
		for _, want := range c.tags {
			if !strings.Contains(pdn, want) {
				t.Errorf("clock:%s: PDN:\n%s\nwant %s", c.clock, pdn, want)
			}
		}
		if len(c.tags) == 1 && strings.Contains(pdn, "[Clock ") {
			t.Errorf("clock:%s: PDN:\n%s\nwant no Clock tag: TimeControl says it all", c.clock, pdn)
		}
	}
	// The autocomplete of /draughts' clock offers its own presets, and
	// Go's blitz is still byo-yomi.
	if c := e.d.Do(e.d.Autocomplete(e.d.GuildChannel("complete"), alice, "draughts", discordtest.Sub("challenge", discordtest.Focused("clock", "bli")))); len(c.Choices) != 1 || c.Choices[0].Name != "blitz — Fischer: 3 min, +2 s per move, no maximum" {
		t.Errorf("/draughts clock suggestions for bli = %+v", c.Choices)
	}
	if c := e.d.Do(e.d.Autocomplete(e.d.GuildChannel("go-complete"), alice, "go", discordtest.Sub("challenge", discordtest.Focused("clock", "bli")))); len(c.Choices) != 1 || c.Choices[0].Name != "blitz — byo-yomi: 3 min, then 5 periods of 10 s" {
		t.Errorf("/go clock suggestions for bli = %+v", c.Choices)
	}
}

// TestE2EDraughtsServerRules: a server's game channels, bot levels and
// default clock hold for /draughts as for /go; /go-admin games lists a game
// of draughts, and an admin's adjudication ends it with its PDN record.
func TestE2EDraughtsServerRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	general, games := e.d.GuildChannel("general"), e.d.GuildChannel("games")
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for _, s := range [][2]string{{"channels", "<#" + games.ID + ">"}, {"clock", "blitz"}, {"bot_levels", "tester"}} {
		if m := e.do(e.set(general, ann, s[0], s[1])); !strings.HasPrefix(m.Text(), "✅") {
			t.Fatalf("set %s: %q", s[0], m.Text())
		}
	}
	only := "Games start only in <#" + games.ID + "> on this server"
	e.refused(e.draughtsCmd(general, alice, "challenge", discordtest.UserOpt("opponent", bob)), only)
	e.refused(e.draughtsCmd(general, alice, "bot", discordtest.Str("level", "beginner")), only)
	e.refused(e.draughtsCmd(games, alice, "bot", discordtest.Str("level", "beginner")), `No international draughts bot is offered on this server: the bot levels its admins allow (tester) are all another game's.`)
	// A draughts level that Go has not (novice) may be allowed too, and
	// then only it is offered (and named: tester is Go's).
	if m := e.do(e.set(general, ann, "bot_levels", "tester novice")); m.Text() != "✅ **Bot levels allowed** (`bot_levels`): tester → tester, novice." {
		t.Fatalf("set bot_levels tester novice: %q", m.Text())
	}
	e.refused(e.draughtsCmd(games, alice, "bot", discordtest.Str("level", "beginner")), `The bot level "beginner" is not offered on this server: its admins allow novice.`)

	msg := e.newChallenge(e.draughtsCmd(games, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	// The server's blitz is draughts' own blitz, 3+2, not Go's byo-yomi.
	if !strings.Contains(msg.Text(), "Fischer: 3 min, +2 s per move, no maximum") {
		t.Errorf("challenge = %q, want the server's default clock (draughts' blitz)", msg.Text())
	}
	if list := e.do(e.adminCmd(general, ann, "games")); !strings.Contains(list.Text(), fmt.Sprintf("📨 Challenge by %s to %s · international draughts · in <#%s>", alice.Mention(), bob.Mention(), games.ID)) {
		t.Errorf("/go-admin games with a draughts challenge = %q", list.Text())
	}
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(games.ID, "⚪ white to play")
	e.do(e.draughtsMove(games, alice, "32-28"))
	g := e.game(games.ID)
	list := e.do(e.adminCmd(general, ann, "games"))
	if want := fmt.Sprintf("⚪ %s vs ⚫ %s · draughts 10×10 · move 1 · ⚫ %s to play", alice.Mention(), bob.Mention(), bob.Mention()); !strings.Contains(list.Text(), want) {
		t.Errorf("/go-admin games = %q, want %q", list.Text(), want)
	}
	// White's and Black's turns are one move of draughts.
	e.do(e.draughtsMove(games, bob, "19-23"))
	e.do(e.adminCmd(general, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "white"), discordtest.Str("reason", "bob left the server")))
	var told []discordtest.Message
	e.d.WaitFor("the channel told", func() bool { told = e.publicWith(games.ID, "decided the game"); return len(told) > 0 })
	if !strings.Contains(told[0].Text(), "after 1 move") {
		t.Errorf("adjudication after 32-28 19-23 = %q, want it to count 1 move", told[0].Text())
	}
	arc, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil || arc.Kind != "draughts" || arc.Result != "W+F" || !strings.Contains(string(arc.SGF), `[Result "2-0"]`) || !strings.Contains(string(arc.SGF), "after 1 move: white wins by forfeit. Reason: bob left the server") {
		t.Errorf("adjudicated game archived %+v (%v), record:\n%s", arc, err, arc.SGF)
	}
	// Without level:, the bot is the weakest level the admins offer
	// (novice: beginner, the default, is not offered).
	if m := e.do(e.draughtsCmd(games, alice, "bot")); m.Ephemeral || !strings.Contains(m.Text(), "against gobot **novice**") {
		t.Errorf("/draughts bot without a level = %q, want a game against novice", m.Text())
	}
}

// TestE2EDraughtsToTheEnd: two people play a whole game, 71 moves, until
// Black has no piece left: White wins by the rules (W+ in the archive, 2-0 in
// PDN), rated in draughts' pools, which /draughts stats and /draughts
// leaderboard show. The moves are the engine's legal moves, chosen by a
// fixed rule from the position each player sees.
func TestE2EDraughtsToTheEnd(t *testing.T) { httpMode(t, testE2EDraughtsToTheEnd) }

func testE2EDraughtsToTheEnd(t *testing.T, e *env) {
	ch := e.d.GuildChannel("long")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(ch.ID, "⚪ white to play")
	id := e.game(ch.ID).ID
	var prev, last discordtest.Message
	for n := 0; ; n++ {
		g := e.game(ch.ID)
		if g == nil {
			break
		}
		if n > 0 {
			// Each board kept before the next move, as a player waits
			// for it: the winning move's ending must retire it.
			e.kept(ch.ID, last.ID)
		}
		st := draughtsOf(t, g)
		legal := st.Legal()
		who := alice
		if st.ToMove() == 1 {
			who = bob
		}
		prev, last = last, e.do(e.draughtsMove(ch, who, string(legal[(2*n)%len(legal)])))
		if n > 200 {
			t.Fatal("the game did not end")
		}
	}
	if want := "**Game over: ⚪ white " + alice.Mention() + " wins: all of ⚫ black's pieces are taken · 2-0**"; !strings.Contains(last.Text(), want) {
		t.Errorf("last answer = %q, want %q", last.Text(), want)
	}
	// The picture's description tells the same ending.
	if png, ok := last.PNG(); !ok || !strings.Contains(png.Description, ". Game over, White wins 2-0 (all of Black's pieces are taken); White ") {
		t.Errorf("final board's picture %q: want its alt text to say all of Black's pieces are taken", png.Description)
	}
	// The board the winning move was played on takes no more.
	e.retired("the winning move", prev.ID, alice.Mention()+", your move.")
	// A new player's rating is provisional, and says so as lidraughts
	// does: "1662?".
	if !strings.Contains(last.Text(), " · "+alice.Mention()+" 1500? → 1662? (+162)") {
		t.Errorf("last answer = %q, want the rating changes, provisional", last.Text())
	}
	arc, err := e.store.ArchivedGame(context.Background(), id)
	if err != nil || arc.Result != "W+" || arc.Moves != 71 || !arc.Rated || !strings.Contains(string(arc.SGF), `[Result "2-0"]`) {
		t.Errorf("archived %s, %d moves, rated %v (%v); want W+, 71 moves, rated, PDN 2-0", arc.Result, arc.Moves, arc.Rated, err)
	}
	stats := e.do(e.draughtsCmd(ch, bob, "stats"))
	if !strings.Contains(stats.Text(), "\nRecord of bob\n") || !strings.Contains(stats.Text(), "**Draughts rating**\nThis server: 1338? ± 290 · 1 rated game\n") || !strings.Contains(stats.Text(), "**1 game**: 0 won, 1 lost\nStreak: 1 loss in a row\n") ||
		!strings.Contains(stats.Text(), "⚫ lost vs "+alice.Mention()+" · draughts 10×10 · 2-0 · rated") {
		t.Errorf("/draughts stats = %q, want the loss, 2-0", stats.Text())
	}
	// A draughts rating is a number: kyu and dan are Go's ranks.
	if strings.Contains(stats.Text(), "rank") {
		t.Errorf("/draughts stats = %q: a draughts rating with a Go rank", stats.Text())
	}
	rp := e.do(e.slash(ch, alice, "replay", discordtest.Str("game", id)))
	if !strings.Contains(rp.Text(), "Replay of ⚪ alice vs ⚫ bob, draughts 10×10, 2-0, 36 moves.") {
		t.Errorf("/draughts replay = %q, want White first, 2-0 and 36 moves (71 plies)", rp.Text())
	}
	for _, a := range rp.Attachments {
		if strings.HasSuffix(a.Filename, ".gif") && !strings.Contains(a.Description, "(all of Black's pieces are taken)") {
			t.Errorf("replay's animation %q: want its description to say all of Black's pieces are taken", a.Description)
		}
	}
	// game: suggests the draughts game where a record is asked for, not
	// where only Go's games are taken.
	for _, c := range []struct {
		sub  string
		want int
	}{{"sgf", 1}, {"replay", 1}, {"review", 0}, {"estimate", 0}} {
		if r := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub(c.sub, discordtest.Focused("game", "")))); len(r.Choices) != c.want {
			t.Errorf("/go %s game: suggestions for bob, who played only draughts = %+v, want %d", c.sub, r.Choices, c.want)
		}
	}
	if goStats := e.do(e.slash(ch, bob, "stats")); goStats.Text() != bob.Mention()+" has not finished a game of Go yet: a first rating is 1500 ± 350, which the first rated games settle." {
		t.Errorf("/go stats = %q: want no Go record nor rating from a draughts game", goStats.Text())
	}
	lb := e.do(e.draughtsCmd(ch, alice, "leaderboard", discordtest.Str("scope", "global")))
	if !strings.Contains(lb.Text(), "draughts, all servers (global)") || !strings.Contains(lb.Text(), " Your global rating, 1662? ± 290, is provisional.") {
		t.Errorf("/draughts leaderboard = %q", lb.Text())
	}
	rec := e.do(e.draughtsCmd(ch, alice, "record"))
	if len(rec.Attachments) != 1 || !strings.HasSuffix(rec.Attachments[0].Filename, ".pdn") {
		t.Errorf("/draughts record = %q with %d attachments", rec.Text(), len(rec.Attachments))
	}
	// The record of their next game names their ratings as it began, as
	// lidraughts' PDN does (WhiteElo, BlackElo); the first game's, played
	// before either had one, names none.
	if strings.Contains(string(arc.SGF), "Elo") {
		t.Errorf("the first game's PDN names ratings nobody had:\n%s", arc.SGF)
	}
	next := e.d.GuildChannel("next")
	e.draughtsGame(next, alice, bob, "none")
	pdn := string(attachment(t, e.do(e.draughtsCmd(next, bob, "record")), ".pdn").Data)
	if !strings.Contains(pdn, "[White \"alice\"]\n[Black \"bob\"]\n[WhiteElo \"1662\"]\n[BlackElo \"1338\"]\n") {
		t.Errorf("the next game's PDN, want the ratings after the first:\n%s", pdn)
	}
	// An admin's annulment names it as draughts players would.
	ann, _, _ := e.admins()
	if m := e.do(e.adminCmd(ch, ann, "annul", discordtest.Str("game", id), discordtest.Str("reason", "test"))); !strings.Contains(m.Text(), "Annulled the game `"+id+"` (⚪ alice vs ⚫ bob, 2-0)") {
		t.Errorf("/go-admin annul of the draughts game = %q", m.Text())
	}
}

// TestE2EDraughtsFrenchClient: /draughts is registered under that one name
// (every reply names it so: a French client shown /dames would be misled),
// and a French-locale interaction starts a game.
func TestE2EDraughtsFrenchClient(t *testing.T) { httpMode(t, testE2EDraughtsFrenchClient) }

func testE2EDraughtsFrenchClient(t *testing.T, e *env) {
	for _, c := range e.d.Commands(e.d.GuildID) {
		if m, ok := c.(map[string]any); ok && m["name"] == "draughts" && m["name_localizations"] != nil {
			t.Errorf("/draughts name_localizations = %v, want none", m["name_localizations"])
		}
	}
	ch := e.d.GuildChannel("dames")
	zoé := e.d.NewUser("zoé")
	it := e.draughtsCmd(ch, zoé, "bot", discordtest.Str("level", "beginner"))
	it.Payload["locale"] = "fr"
	if m := e.do(it); !strings.Contains(m.Text(), "New game of international draughts: "+zoé.Mention()) {
		t.Errorf("/draughts bot in French = %q", m.Text())
	}
}

// TestE2EDraughtsAbort: either player aborts a game of draughts before each
// has made two moves (confirmed, recorded Void with its PDN, never rated),
// and is refused once each has made two.
func TestE2EDraughtsAbort(t *testing.T) { httpMode(t, testE2EDraughtsAbort) }

func testE2EDraughtsAbort(t *testing.T, e *env) {
	ch := e.d.GuildChannel("abort")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	start := func() string {
		msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
		e.do(e.click(bob, msg, "accept"))
		e.waitBoard(ch.ID, "⚪ white to play")
		return e.game(ch.ID).ID
	}
	id := start()
	// A spectator learns she does not play, as her /draughts resign
	// says, and who can abort the game instead.
	carol := e.d.NewUser("carol")
	notPlaying := "You are not playing in this game: it is " + alice.Mention() + " (white) against " + bob.Mention() + " (black)."
	e.refused(e.draughtsCmd(ch, carol, "resign"), notPlaying)
	e.refused(e.draughtsCmd(ch, carol, "abort"), notPlaying+" A moderator (with the Manage Messages permission) can abort it, with a reason: `/draughts abort reason:…`.")
	e.do(e.draughtsMove(ch, alice, "32-28"))
	e.do(e.draughtsMove(ch, bob, "19-23")) // with 32-28, one move of draughts
	ask := e.do(e.draughtsCmd(ch, alice, "abort"))
	if !ask.Ephemeral || !strings.Contains(ask.Text(), "Abort the game ⚪ alice vs ⚫ bob · draughts?") {
		t.Fatalf("abort asked %q", ask.Text())
	}
	done := e.do(e.click(alice, ask, "Yes, abort"))
	if want := "🚫 " + alice.Mention() + " aborted the game ⚪ " + alice.Mention() + " vs ⚫ " + bob.Mention() + " after 1 move, before each player had made 2 moves: it is recorded as aborted (`/draughts record game:" + id + "`)"; !strings.Contains(done.Text(), want) {
		t.Errorf("abort = %q, want %q", done.Text(), want)
	}
	arc, err := e.store.ArchivedGame(context.Background(), id)
	if err != nil || arc.Result != "Void" || !arc.Annulled || arc.Kind != "draughts" || !strings.Contains(string(arc.SGF), "Aborted by alice") {
		t.Errorf("archived %+v (%v), want a Void, annulled draughts game with its PDN", arc, err)
	}
	start()
	for _, m := range []struct {
		u  discordtest.User
		mv string
	}{{alice, "32-28"}, {bob, "19-23"}, {alice, "28x19"}, {bob, "14x23"}} {
		e.do(e.draughtsMove(ch, m.u, m.mv))
	}
	e.refused(e.draughtsCmd(ch, alice, "abort"), "Each player has made two moves, so the game can no longer be aborted: resign (`/draughts resign`) or play on")
}

// TestE2EDraughtsDefinitions: /draughts, registered by its room, has the
// familiar subcommands in order, options named as /go's (color), and no
// other name for French clients, whom every reply tells /draughts.
func TestE2EDraughtsDefinitions(t *testing.T) { httpMode(t, testE2EDraughtsDefinitions) }

func testE2EDraughtsDefinitions(t *testing.T, e *env) {
	defs := e.app.Definitions()
	if len(defs) != 3 || defs[0].Name != "go" || defs[1].Name != "draughts" || defs[2].Name != "go-admin" {
		t.Fatalf("Definitions = %d commands, want /go, /draughts and /go-admin", len(defs))
	}
	var subs []string
	for _, o := range defs[1].Options {
		subs = append(subs, o.Name)
	}
	if got, want := strings.Join(subs, " "), "challenge bot play board draw resign abort record history games stats leaderboard help"; got != want {
		t.Errorf("/draughts subcommands = %s, want %s", got, want)
	}
	// Every reply names /draughts, so no client is shown another name.
	if l := defs[1].NameLocalizations; l != nil && len(*l) > 0 {
		t.Errorf("/draughts name localizations = %v, want none", *l)
	}
	// Its options are named as /go's, and its descriptions read as English.
	for _, o := range defs[1].Options {
		for _, opt := range o.Options {
			if opt.Name == "colour" {
				t.Errorf("/draughts %s has an option colour, where /go says color", o.Name)
			}
		}
		if o.Name == "history" && o.Description != "A player's finished games, Go and draughts" {
			t.Errorf("/draughts history is described %q", o.Description)
		}
	}
}

// TestE2EDraughtsOnBoardPage: the board page shows a game of draughts
// with the legal moves of the side to move (their paths too), and a move
// clicked there is /draughts play move: — a refusal is its sentence and
// changes nothing, a click on a position that has moved on is stale, a
// spectator cannot act, and a draw offered and accepted on the page ends
// the game as the command does; the finished game shows from its record.
func TestE2EDraughtsOnBoardPage(t *testing.T) { httpMode(t, testE2EDraughtsOnBoardPage) }

func testE2EDraughtsOnBoardPage(t *testing.T, e *env) {
	ctx := context.Background()
	ch := e.d.GuildChannel("dames")
	ann, erin := e.d.NewUser("ann"), e.d.NewUser("erin")
	msg := e.newChallenge(e.draughtsCmd(ch, ann, "challenge", discordtest.UserOpt("opponent", erin), discordtest.Str("color", "white")))
	e.do(e.click(erin, msg, "accept"))
	e.d.WaitFor("the game of draughts", func() bool { return e.game(ch.ID) != nil })
	view := func() *commands.GameView {
		t.Helper()
		v, err := e.app.View(ctx, ch.ID)
		if err != nil {
			t.Fatalf("View = %v", err)
		}
		return v
	}
	v := view()
	if v.Kind != "draughts" || v.Draughts == nil || len(v.Draughts.Squares) != 50 || v.ToPlay != "white" || v.White.Players[0].ID != ann.ID {
		t.Fatalf("View = %+v, want ann's move in a game of draughts", v)
	}
	if v.Draughts.Squares[0] != "b" || v.Draughts.Squares[49] != "w" || v.Draughts.Squares[22] != "" || v.White.Pieces != "20 pieces" {
		t.Errorf("start position: squares %q, white %q", v.Draughts.Squares, v.White.Pieces)
	}
	var texts []string
	for _, m := range v.Draughts.Legal {
		texts = append(texts, fmt.Sprintf("%s%v", m.Text, m.Path))
	}
	if got, want := strings.Join(texts, " "), "31-26[31 26] 31-27[31 27] 32-27[32 27] 32-28[32 28] 33-28[33 28] 33-29[33 29] 34-29[34 29] 34-30[34 30] 35-30[35 30]"; got != want {
		t.Errorf("legal moves = %s, want %s", got, want)
	}
	white, black := commands.WebUser{ID: ann.ID, Name: "ann"}, commands.WebUser{ID: erin.ID, Name: "erin"}
	act := func(u commands.WebUser, seat, kind, move string, v *commands.GameView) commands.ActResult {
		return e.app.Act(ctx, ch.ID, u, commands.Action{Kind: kind, Point: move, Game: v.ID, Version: v.Version, Seat: seat})
	}
	// A move the rules refuse: the same sentence as /draughts play's,
	// and nothing changes.
	slash := e.do(e.draughtsMove(ch, ann, "46-41")).Text()
	if res := act(white, "white", commands.ActPlay, "46-41", v); !res.Refused || !strings.Contains(slash, res.Text) || !strings.Contains(res.Text, "46-41") {
		t.Errorf("an illegal move from the page = %+v, want /draughts play's %q", res, slash)
	}
	if after := view(); after.Version != v.Version || after.Moves != 0 {
		t.Errorf("after the refusal: version %d, %d moves; want %d, 0", after.Version, after.Moves, v.Version)
	}
	if res := act(black, "black", commands.ActPlay, "17-22", v); !res.Refused || !strings.HasPrefix(res.Text, "It is not your turn") {
		t.Errorf("black's move out of turn = %+v", res)
	}
	spectator := commands.WebUser{ID: e.d.NewUser("cat").ID, Name: "cat"}
	if res := act(spectator, "white", commands.ActPlay, "32-28", v); !res.Refused || res.Text != commands.WatchingOnly {
		t.Errorf("a spectator's move = %+v, want %q", res, commands.WatchingOnly)
	}
	if res := act(white, "white", commands.ActPlay, "32-28", v); res.Refused || !strings.Contains(res.Text, "played 32-28") {
		t.Fatalf("32-28 from the page = %+v", res)
	}
	if res := act(white, "white", commands.ActPlay, "33-29", v); !res.Refused || res.Text != commands.StaleClick {
		t.Errorf("a click on the position before 32-28 = %+v, want %q", res, commands.StaleClick)
	}
	v = view()
	if v.Moves != 1 || v.Draughts.Squares[31] != "" || v.Draughts.Squares[27] != "w" || v.ToPlay != "black" || v.Last == nil || v.Last.Point != "32-28" {
		t.Fatalf("after 32-28: %+v", v)
	}
	if got := fmt.Sprint(v.Draughts.LastPath); got != "[32 28]" {
		t.Errorf("last path = %s, want [32 28]", got)
	}
	// A draw offered on the page, and accepted there.
	if res := act(black, "black", commands.ActDraw, "", v); res.Refused {
		t.Fatalf("black's draw offer = %+v", res)
	}
	if v = view(); v.Draughts.DrawBy != "black" {
		t.Errorf("after black's offer: draw by %q", v.Draughts.DrawBy)
	}
	if res := act(white, "white", commands.ActDraw, "", v); res.Refused {
		t.Fatalf("white's acceptance = %+v", res)
	}
	if v = view(); !v.Over || !strings.Contains(v.Result, "drawn by agreement") && !strings.Contains(v.Result, "1-1") {
		t.Errorf("after the draw: over %v, result %q", v.Over, v.Result)
	}
}

// TestE2EDraughtsBotOnBoardPage: a move from the board page in a game
// against the bot gets the bot's reply, as /draughts play does.
func TestE2EDraughtsBotOnBoardPage(t *testing.T) { httpMode(t, testE2EDraughtsBotOnBoardPage) }

func testE2EDraughtsBotOnBoardPage(t *testing.T, e *env) {
	ctx := context.Background()
	ch := e.d.GuildChannel("dames")
	ann := e.d.NewUser("ann")
	e.do(e.draughtsCmd(ch, ann, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "white")))
	v, err := e.app.View(ctx, ch.ID)
	if err != nil || v.Kind != "draughts" || v.ToPlay != "white" {
		t.Fatalf("View = %+v, %v; want ann to move", v, err)
	}
	res := e.app.Act(ctx, ch.ID, commands.WebUser{ID: ann.ID, Name: "ann"}, commands.Action{Kind: commands.ActPlay, Point: "32-28", Game: v.ID, Version: v.Version, Seat: "white"})
	if res.Refused {
		t.Fatalf("32-28 from the page = %+v", res)
	}
	e.d.WaitFor("the bot's reply", func() bool { g := e.game(ch.ID); return g != nil && g.State.MoveCount() == 2 })
	if v, err = e.app.View(ctx, ch.ID); err != nil || v.ToPlay != "white" || len(v.Draughts.Legal) == 0 {
		t.Errorf("after the bot's reply: %+v, %v", v, err)
	}
}

// TestE2EDraughtsBeatBeginner: the draughts levels start at anchored
// ratings, as Go's do (draughtsroom.StartRatings): a new player who beats
// beginner, a random mover, gains a few points and beginner loses none
// that shows, where both once moved 162 as two new players would. The
// player's moves are the steady level's, which beats random moves.
func TestE2EDraughtsBeatBeginner(t *testing.T) { httpMode(t, testE2EDraughtsBeatBeginner) }

func testE2EDraughtsBeatBeginner(t *testing.T, e *env) {
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	reg, err := dbots.NewRegistry(dbots.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e.do(e.draughtsCmd(dm, dave, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "white")))
	var last discordtest.Message
	for n := int64(0); ; n++ {
		g := e.game(dm.ID)
		if g == nil {
			break
		}
		mv, err := reg.GenMove(context.Background(), "steady", draughtsOf(t, g), n)
		if err != nil {
			t.Fatal(err)
		}
		last = e.do(e.draughtsMove(dm, dave, string(mv)))
		if n > 200 {
			t.Fatal("the game did not end")
		}
	}
	if want := "\n📈 Ratings: gobot (beginner) 536 → 536 (+0) · " + dave.Mention() + " 1500? → 1503? (+3)\n"; !strings.Contains(last.Text(), want) {
		t.Errorf("last answer = %q, want %q", last.Text(), want)
	}
	if got := e.rating(storage.KindPool("draughts", storage.GlobalPool), "bot:beginner"); !strings.HasPrefix(got, "536.") {
		t.Errorf("draughts beginner after losing: %s, want 536, where it started", got)
	}
}

// TestE2EStatsByGame: /go stats counts the games of Go alone and
// /draughts stats those of draughts: ann's record, draws (jigo only in Go),
// streak and latest games are each game's own, where both once counted
// all four games and called a draughts draw a jigo.
func TestE2EStatsByGame(t *testing.T) { httpMode(t, testE2EStatsByGame) }

func testE2EStatsByGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("games")
	ann, erin := e.d.NewUser("ann"), e.d.NewUser("erin")
	draughtsGame := func() {
		t.Helper()
		msg := e.newChallenge(e.draughtsCmd(ch, ann, "challenge", discordtest.UserOpt("opponent", erin), discordtest.Str("color", "white")))
		e.do(e.click(erin, msg, "accept"))
		e.d.WaitFor("the game of draughts", func() bool { return e.game(ch.ID) != nil })
	}
	draughtsGame()
	e.do(e.draughtsCmd(ch, ann, "resign")) // a loss
	draughtsGame()
	e.do(e.draughtsCmd(ch, ann, "draw"))
	e.do(e.draughtsCmd(ch, erin, "draw")) // a draw
	e.challenge(ch, ann, erin)
	e.do(e.slash(ch, ann, "resign")) // a loss on 9×9
	msg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", erin), discordtest.Int("size", 13)))
	e.do(e.click(erin, msg, "accept"))
	e.d.WaitFor("the 13×13 game", func() bool { return e.game(ch.ID) != nil })
	e.do(e.slash(ch, erin, "resign")) // a win on 13×13

	record := func(m discordtest.Message) (string, string) {
		t.Helper()
		if len(m.Embeds) != 1 {
			t.Fatalf("stats = %q, want one embed", m.Text())
		}
		_, rest, _ := strings.Cut(m.Embeds[0].Description, "\n\n")
		rec, latest, _ := strings.Cut(rest, "\n\n**Latest games**\n")
		return rec, latest
	}
	rec, latest := record(e.do(e.slash(ch, ann, "stats")))
	if want := "**2 games**: 1 won, 1 lost\n9×9: 0 won, 1 lost · 13×13: 1 won, 0 lost\nStreak: 1 win in a row"; rec != want {
		t.Errorf("/go stats record =\n%s\nwant\n%s", rec, want)
	}
	if strings.Count(latest, "\n") != 2 || strings.Contains(latest, "draughts") || !strings.Contains(latest, "· 13×13 ·") || !strings.Contains(latest, "· 9×9 ·") {
		t.Errorf("/go stats latest games =\n%s\nwant the two games of Go", latest)
	}
	rec, latest = record(e.do(e.draughtsCmd(ch, ann, "stats")))
	if want := "**2 games**: 0 won, 1 lost, 1 drawn"; rec != want {
		t.Errorf("/draughts stats record =\n%s\nwant\n%s", rec, want)
	}
	if strings.Count(latest, "\n") != 2 || strings.Count(latest, "· draughts 10×10 ·") != 2 {
		t.Errorf("/draughts stats latest games =\n%s\nwant the two games of draughts", latest)
	}
	// Someone who has played only draughts has no record of Go.
	dora := e.d.NewUser("dora")
	msg = e.newChallenge(e.draughtsCmd(ch, dora, "challenge", discordtest.UserOpt("opponent", erin)))
	e.do(e.click(erin, msg, "accept"))
	e.d.WaitFor("dora's game", func() bool { return e.game(ch.ID) != nil })
	e.do(e.draughtsCmd(ch, dora, "resign"))
	e.said(e.slash(ch, dora, "stats"), dora.Mention()+" has not finished a game of Go yet: a first rating is 1500 ± 350, which the first rated games settle.")
}

// TestE2EDraughtsStaleButtons: a button of an old board points to
// /draughts board, not Go's command, and an offer's Accept button after the
// opponent's move says the offer lapsed.
func TestE2EDraughtsStaleButtons(t *testing.T) { httpMode(t, testE2EDraughtsStaleButtons) }

func testE2EDraughtsStaleButtons(t *testing.T, e *env) {
	ch := e.d.GuildChannel("stale")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(ch.ID, "⚪ white to play")
	old := e.do(e.draughtsMove(ch, ann, "32-28"))
	offer := e.do(e.draughtsCmd(ch, bob, "draw"))
	// An offer stored without its message (by a gobot before messages
	// were stored with offers) is not closed by the move that lapses it.
	e.d.WaitFor("the offer's message to be recorded", func() bool { g := e.game(ch.ID); return g.Undo != nil && g.Undo.MessageID == offer.ID })
	g := e.game(ch.ID)
	o := *g.Undo
	o.MessageID, o.RequestedAt = "", o.RequestedAt.Add(time.Nanosecond) // another offer: a write keeps the message of the same one
	g.Undo = &o
	if err := e.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	// Made on bob's turn, it goes with his move; ann's lapses it.
	e.do(e.draughtsMove(ch, bob, "19-23"))
	e.do(e.draughtsMove(ch, ann, "28x19"))
	// Its button goes at the first press, which is told why privately.
	it := e.click(ann, offer, "Accept the draw")
	e.do(it)
	var told []discordtest.Message
	e.d.WaitFor("the private answer", func() bool { told = e.d.Followups(it); return len(told) > 0 })
	if len(told) != 1 || !told[0].Ephemeral || told[0].Text() != "This draw offer has lapsed: a move was played since." {
		t.Errorf("the lapsed offer's press was answered %d times, the first %q (ephemeral %v)", len(told), told[0].Text(), told[0].Ephemeral)
	}
	if labels, text := e.labels(offer.ID); len(labels) > 0 || text != offer.Text() {
		t.Errorf("the lapsed offer has the buttons %q and says %q; want no buttons, and still %q", labels, text, offer.Text())
	}
	e.refused(e.click(bob, old, "Offer a draw"), "That button belongs to an old board. Use the buttons on the newest board, or `/draughts board`.")
	if g := e.game(ch.ID); g.State.MoveCount() != 3 {
		t.Errorf("after the old buttons: %d plies, want 3 (nothing changed)", g.State.MoveCount())
	}
}

// TestE2EDraughtsMisleadingRefusals: a plain move written as a capture is
// refused, not played, and a man moving backward is told so even onto a
// taken square.
func TestE2EDraughtsMisleadingRefusals(t *testing.T) { httpMode(t, testE2EDraughtsMisleadingRefusals) }

func testE2EDraughtsMisleadingRefusals(t *testing.T, e *env) {
	ch := e.d.GuildChannel("refusals")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(ch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	e.refused(e.draughtsMove(ch, alice, "32x28"), `32x28 does not capture: did you mean 32-28?`)
	if n := e.game(ch.ID).State.MoveCount(); n != 0 {
		t.Fatalf("after 32x28: %d moves played, want none", n)
	}
	e.do(e.draughtsMove(ch, alice, "32-28"))
	e.refused(e.draughtsMove(ch, bob, "19-14"), `19-14 goes backward: a man moves forward only, unless it captures. The piece on 19 can play 19-23 or 19-24.`)
	e.do(e.draughtsMove(ch, bob, "19-23"))
	// A capture written with '-' is played: it cannot be mistaken.
	e.do(e.draughtsMove(ch, alice, "28-19"))
	if got := draughtsOf(t, e.game(ch.ID)).Moves(); fmt.Sprint(got) != "[32-28 19-23 28x19]" {
		t.Fatalf("moves = %v, want 32-28 19-23 28x19", got)
	}
}

// TestE2EDraughtsMoveSuggestions: /draughts play's autocomplete offers
// the player to move what the command accepts, in the forms it reads,
// and nothing to anyone else: the player waiting and a spectator have no
// move to play.
func TestE2EDraughtsMoveSuggestions(t *testing.T) { httpMode(t, testE2EDraughtsMoveSuggestions) }

func testE2EDraughtsMoveSuggestions(t *testing.T, e *env) {
	ch := e.d.GuildChannel("suggestions")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(ch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	suggest := func(u discordtest.User, typed, want string) {
		t.Helper()
		r := e.d.Do(e.d.Autocomplete(ch, u, "draughts", discordtest.Sub("play", discordtest.Focused("move", typed))))
		var got []string
		for _, c := range r.Choices {
			if c.Name != c.Value {
				t.Errorf("choice %q plays %v", c.Name, c.Value)
			}
			got = append(got, c.Name)
		}
		if s := strings.Join(got, " "); s != want {
			t.Errorf("%s typing %q is offered %q, want %q", u.Username, typed, s, want)
		}
	}
	suggest(alice, "", "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30")
	suggest(alice, "32 - ", "32-27 32-28")
	suggest(alice, "32x", "") // refused so written
	// Black waits, and carol watches: neither has a move to play.
	suggest(bob, "", "")
	suggest(bob, "1", "")
	suggest(carol, "", "")
	e.do(e.draughtsMove(ch, alice, "32-28"))
	e.do(e.draughtsMove(ch, bob, "19-23"))

	// White must take 28x19: every way of writing it the command accepts
	// is offered it.
	for _, typed := range []string{"", "2", "28", "28-", "28-19", "28X", "28x1", " 28 x 19 "} {
		suggest(alice, typed, "28x19")
	}
	suggest(alice, "33-", "")
	suggest(bob, "", "")
	suggest(carol, "28", "")
	e.do(e.draughtsMove(ch, alice, "28-19"))
	suggest(bob, "14-", "14x23")
	suggest(bob, "14", "14x23")
	suggest(bob, "1", "13x24 14x23")
	suggest(alice, "", "")
	suggest(carol, "1", "")
}

// TestE2EDraughtsOpenChallenge: /draughts play and /draughts board in a
// channel where a challenge is still open say so, not only that there is
// no game.
func TestE2EDraughtsOpenChallenge(t *testing.T) { httpMode(t, testE2EDraughtsOpenChallenge) }

func testE2EDraughtsOpenChallenge(t *testing.T, e *env) {
	ch := e.d.GuildChannel("waiting")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.refused(e.draughtsMove(ch, alice, "32-28"), "There is no game in play in this channel: your challenge to a game of international draughts is waiting for "+bob.Mention()+" to accept it.")
	e.refused(e.draughtsCmd(ch, alice, "board"), "There is no game in play in this channel: your challenge to a game of international draughts is waiting for "+bob.Mention()+" to accept it.")
	e.refused(e.draughtsMove(ch, bob, "19-23"), "There is no game in play in this channel: "+alice.Mention()+" challenged you to a game of international draughts. Accept with the button on the challenge to start it.")
	e.refused(e.draughtsCmd(ch, carol, "board"), "There is no game in play in this channel: "+alice.Mention()+" challenged "+bob.Mention()+" to a game of international draughts, and the game starts when they accept.")
	// Elsewhere, no game and no challenge: as before.
	e.refused(e.draughtsMove(e.d.GuildChannel("quiet"), alice, "32-28"), "There is no game in this channel. Start one with `/draughts challenge` or `/draughts bot`.")
}

// TestE2EDraughtsFinishedOrientation: a finished game of draughts is shown
// from the side its boards were shown from while it was played. A person
// playing Black against a bot sees every board from Black's side (square
// 1 at the bottom right), so the board posted with the resignation,
// /draughts board afterwards and the animation of /draughts record all
// have Black's men along the bottom; where the person plays White, or two
// people play, all three have White's.
func TestE2EDraughtsFinishedOrientation(t *testing.T) {
	httpMode(t, testE2EDraughtsFinishedOrientation)
}

func testE2EDraughtsFinishedOrientation(t *testing.T, e *env) {
	carol, dave, alice, bob := e.d.NewUser("carol"), e.d.NewUser("dave"), e.d.NewUser("alice"), e.d.NewUser("bob")
	for _, c := range []struct {
		name   string
		start  func(ch *discordtest.Channel) discordtest.User // starts the game, returns who resigns
		bottom string                                         // the bottom row's dark squares, left to right
	}{
		{"black against a bot", func(ch *discordtest.Channel) discordtest.User {
			e.do(e.draughtsCmd(ch, carol, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "black"), discordtest.Str("clock", "none")))
			return carol
		}, "bbbbb"},
		{"white against a bot", func(ch *discordtest.Channel) discordtest.User {
			e.do(e.draughtsCmd(ch, dave, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
			e.do(e.draughtsMove(ch, dave, "32-28"))
			e.waitMoves("the bot's answer", ch.ID, 2)
			return dave
		}, "wwwww"},
		{"two people", func(ch *discordtest.Channel) discordtest.User {
			msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
			e.do(e.click(bob, msg, "accept"))
			e.waitBoard(ch.ID, "⚪ white to play")
			e.do(e.draughtsMove(ch, alice, "32-28"))
			return bob
		}, "wwwww"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := e.d.GuildChannel(strings.ReplaceAll(c.name, " ", "-"))
			who := c.start(ch)
			id := e.game(ch.ID).ID
			playing := gifOf(t, e.do(e.draughtsCmd(ch, who, "record", discordtest.Bool("animation", true))))
			end := e.do(e.draughtsCmd(ch, who, "resign"))
			if !strings.Contains(end.Text(), "**Game over: ") {
				t.Fatalf("/draughts resign = %q, want the game over", end.Text())
			}
			fin := e.do(e.draughtsCmd(ch, who, "board"))
			if !strings.Contains(fin.Text(), "The last game of draughts in this channel ended") {
				t.Fatalf("/draughts board after the game = %q, want the finished game", fin.Text())
			}
			// The pieces left stay under the finished board, as a finished
			// game of Go keeps its captures.
			if !strings.Contains(fin.Text(), "\nPieces: ⚪ 20 · ⚫ 20\n") {
				t.Errorf("/draughts board after the game = %q, want the pieces left: Pieces: ⚪ 20 · ⚫ 20", fin.Text())
			}
			finished := gifOf(t, e.do(e.draughtsCmd(ch, who, "record", discordtest.Str("game", id), discordtest.Bool("animation", true))))
			for _, p := range []struct {
				what string
				data []byte
			}{
				{"the animation's first frame during the game", playing},
				{"the board posted with the resignation", pngOf(t, end)},
				{"/draughts board after the game", pngOf(t, fin)},
				{"the finished game's animation's first frame", finished},
			} {
				if got := draughtsBottomRow(t, p.data); got != c.bottom {
					t.Errorf("%s: the bottom row shows %q, want %q", p.what, got, c.bottom)
				}
			}
		})
	}
}

// pngOf is the bytes of m's board picture.
func pngOf(t *testing.T, m discordtest.Message) []byte {
	t.Helper()
	a, ok := m.PNG()
	if !ok {
		t.Fatalf("message %q has no picture", m.Text())
	}
	return a.Data
}

// gifOf is the bytes of the animation attached to m.
func gifOf(t *testing.T, m discordtest.Message) []byte {
	t.Helper()
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Filename, ".gif") {
			return a.Data
		}
	}
	t.Fatalf("message %q has %d attachments, none an animation", m.Text(), len(m.Attachments))
	return nil
}

// draughtsBottomRow says what a person sees on the five dark squares of
// a board picture's bottom row (a PNG, or a GIF's first frame), left to
// right: "w" a white piece, "b" a black one, "." none. From White's side
// they are squares 46 to 50; from Black's, 5 to 1. The squares are placed
// as render/draughts lays them out: ten equal squares inside a frame of a
// 64th of the picture (at least 4 pixels).
func draughtsBottomRow(t *testing.T, data []byte) string {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode the board picture: %v", err)
	}
	px := img.Bounds().Dx()
	frame := max(4, px/64)
	sq := (px - 2*frame) / 10
	x0 := img.Bounds().Min.X + (px-10*sq)/2
	y0 := img.Bounds().Min.Y + (px-10*sq)/2
	var row strings.Builder
	for col := 0; col < 10; col += 2 { // the bottom row's dark squares are its 1st, 3rd, … cells
		// The face of a piece, left of the middle, where no crown, groove
		// or arrow reaches.
		x := x0 + col*sq + sq/2 - sq*3/10
		y := y0 + 9*sq + sq/2
		r, g, b, _ := img.At(x, y).RGBA()
		r, g, b = r>>8, g>>8, b>>8
		lum := (299*r + 587*g + 114*b) / 1000
		chroma := max(r, g, b) - min(r, g, b)
		switch {
		case lum > 180 && chroma < 50:
			row.WriteString("w")
		case lum < 60:
			row.WriteString("b")
		default:
			row.WriteString(".")
		}
	}
	return row.String()
}

// TestE2EDraughtsShortClock: a clock written as lidraughts and lichess
// write it, 5+3 (minutes + seconds per move), is Fischer 5 min +3 s with
// no maximum, as there, and its record's TimeControl, 300+3, says all of
// it; `fischer 5m +3s`, capped at 5 min, says its maximum in words beside
// the TimeControl, which cannot. Go's /go challenge reads 5+3 alike. A
// clock written with units but no system is refused, saying how to write
// it, with limits that are the real ones.
func TestE2EDraughtsShortClock(t *testing.T) { httpMode(t, testE2EDraughtsShortClock) }

func testE2EDraughtsShortClock(t *testing.T, e *env) {
	kim, sue := e.d.NewUser("kim"), e.d.NewUser("sue")
	pdnOf := func(ch *discordtest.Channel) string {
		t.Helper()
		for _, f := range e.do(e.draughtsCmd(ch, kim, "record")).Attachments {
			if strings.HasSuffix(f.Filename, ".pdn") {
				return string(f.Data)
			}
		}
		t.Fatal("/draughts record attached no PDN")
		return ""
	}
	for _, c := range []struct {
		clock, describe string
		pdn             []string // in the record
		not             string   // not in the record
	}{
		{"5+3", "Fischer: 5 min, +3 s per move, no maximum", []string{`[TimeControl "300+3"]`}, `[Clock `},
		{"fischer 5m +3s", "Fischer: 5 min, +3 s per move, at most 5 min", []string{`[TimeControl "300+3"]`, `[Clock "Fischer: 5 min, +3 s per move, at most 5 min"]`}, ""},
	} {
		ch := e.d.GuildChannel("clock-" + strings.ReplaceAll(c.clock, " ", "-"))
		msg := e.newChallenge(e.draughtsCmd(ch, kim, "challenge", discordtest.UserOpt("opponent", sue), discordtest.Str("color", "white"), discordtest.Str("clock", c.clock)))
		if want := "challenges you to a game of international draughts (10×10): " + c.describe + ";"; msg.Ephemeral || !strings.Contains(msg.Text(), want) {
			t.Fatalf("/draughts challenge clock:%s = %q, want %q", c.clock, msg.Text(), want)
		}
		e.do(e.click(sue, msg, "accept"))
		e.waitBoard(ch.ID, "⚪ white to play")
		pdn := pdnOf(ch)
		for _, want := range c.pdn {
			if !strings.Contains(pdn, want) {
				t.Errorf("clock:%s: PDN\n%s\nwant %s", c.clock, pdn, want)
			}
		}
		if c.not != "" && strings.Contains(pdn, c.not) {
			t.Errorf("clock:%s: PDN\n%s\nwant no %s", c.clock, pdn, c.not)
		}
	}
	// Go's challenge reads it too.
	ch := e.d.GuildChannel("go-5-3")
	if m := e.newChallenge(e.slash(ch, kim, "challenge", discordtest.UserOpt("opponent", sue), discordtest.Str("clock", "5+3"))); m.Ephemeral || !strings.Contains(m.Text(), "Fischer: 5 min, +3 s per move, no maximum") {
		t.Errorf("/go challenge clock:5+3 = %q, want Fischer 5 min +3 s with no maximum", m.Text())
	}
	e.refused(e.draughtsCmd(e.d.GuildChannel("clock-refused"), kim, "challenge", discordtest.UserOpt("opponent", sue), discordtest.Str("clock", "5m+3s")),
		"`5m+3s` is not a clock I can read: \"5m+3s\" is not a system or preset: write minutes + seconds per move as `5+3`, or a system and its times, as `fischer 5m +3s`.\n"+
			"Write a preset (correspondence, daily, live, blitz, none), minutes + seconds per move as on lidraughts and lichess (`5+3`, no cap), or `fischer 5m +3s` (capped at the main time unless `max` says more), `fischer 3d +1d max 7d`, "+
			"`byoyomi 10m 5x30s`, `canadian 10m 25/5m`, `simple 1d`, `absolute 20m`, `none`; units s, m, h, d; every time from 10s to 30d, but a Fischer increment from 1s.")
}
