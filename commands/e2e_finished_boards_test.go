package commands_test

// End-to-end tests of the boards a game leaves behind: however it ends
// (a resignation by command or button, a player's or a moderator's abort,
// an admin's decision, a vote that closes), the newest board stops
// offering moves, in one edit. The harness is in e2e_harness_test.go.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine/draughts"
)

// labels are the labels of the buttons message id shows now, and its text.
func (e *env) labels(id string) ([]string, string) {
	m, ok := e.d.Message(id)
	if !ok {
		e.t.Fatalf("no message %s", id)
	}
	var out []string
	for _, b := range m.Buttons() {
		out = append(out, b.Label)
	}
	return out, m.Text()
}

// retired checks that board id no longer has buttons and still says
// what it said (the board is not redrawn).
func (e *env) retired(what, id, says string) {
	e.t.Helper()
	// A board answered just before its game ended loses its buttons
	// once its message is recorded (KeepBoardID), which may come just
	// after the answer that the test saw.
	e.d.WaitFor(what+": the board's buttons to go", func() bool {
		labels, _ := e.labels(id)
		return len(labels) == 0
	})
	labels, text := e.labels(id)
	if len(labels) > 0 || !strings.Contains(text, says) {
		e.t.Errorf("%s: the last board has the buttons %q and says %q; want no buttons, and still %q", what, labels, text, says)
	}
}

// edits is how many times message id was edited.
func (e *env) edits(id string) int {
	m, _ := e.d.Message(id)
	return m.Edits
}

func TestE2EFinishedBoards(t *testing.T) { httpMode(t, testE2EFinishedBoards) }

func testE2EFinishedBoards(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	admin, mod := e.d.NewUser("admin"), e.d.NewUser("mod")
	admin.Permissions, mod.Permissions = discordtest.PermServerAdmin, discordtest.PermModerator

	// Resigning by command: the board it was typed under loses its
	// buttons, and only that one is edited.
	ch := e.d.GuildChannel("resign-command")
	e.challenge(ch, alice, bob)
	// Both boards recorded with the game: one recorded after the game
	// ended loses its buttons then (KeepBoardID), an edit this test does
	// not count. Each is waited for before the next move, as a player
	// waits for the board: one recorded after a later move is an old
	// board, never kept (3d420fb), and the wait would fail.
	first := e.do(e.play(ch, alice, "D4"))
	e.kept(ch.ID, first.ID)
	last := e.do(e.play(ch, bob, "E5"))
	e.kept(ch.ID, last.ID)
	before := e.edits(first.ID)
	e.do(e.slash(ch, alice, "resign"))
	e.retired("/go resign", last.ID, alice.Mention()+", your move.")
	if e.edits(first.ID) != before {
		t.Errorf("/go resign edited an older board too")
	}

	// Resigning by button: the board whose Resign was pressed.
	ch = e.d.GuildChannel("resign-button")
	e.challenge(ch, alice, bob)
	e.do(e.play(ch, alice, "D4"))
	last = e.do(e.play(ch, bob, "E5"))
	e.do(e.click(alice, e.do(e.click(alice, last, "Resign")), "Yes, resign"))
	e.retired("the Resign button", last.ID, alice.Mention()+", your move.")

	// A player's abort.
	ch = e.d.GuildChannel("abort")
	e.challenge(ch, alice, bob)
	last = e.do(e.play(ch, alice, "D4"))
	e.do(e.click(bob, e.do(e.slash(ch, bob, "abort")), "abort"))
	e.retired("a player's abort", last.ID, bob.Mention()+", your move.")

	// A rengo game annulled by an admin, and one aborted by a moderator.
	ann, cid, dan := e.d.NewUser("ann"), e.d.NewUser("cid"), e.d.NewUser("dan")
	for _, end := range []struct {
		what string
		do   func(ch *discordtest.Channel, id string) *discordtest.Interaction
	}{
		{"an admin's annulment", func(ch *discordtest.Channel, id string) *discordtest.Interaction {
			return e.adminCmd(ch, admin, "adjudicate", discordtest.Str("game", id), discordtest.Str("result", "annul"), discordtest.Str("reason", "a test"))
		}},
		{"a moderator's abort", func(ch *discordtest.Channel, id string) *discordtest.Interaction {
			return e.slash(ch, mod, "abort", discordtest.Str("reason", "a test"))
		}},
	} {
		ch := e.d.GuildChannel(end.what)
		e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
		e.do(e.play(ch, ann, "E5"))
		last := e.do(e.play(ch, bob, "E4"))
		e.do(end.do(ch, e.game(ch.ID).ID))
		e.retired(end.what, last.ID, cid.Mention()+", your move.")
	}
}

// TestE2EVoteBoardsClosed: when a vote closes, the board it was shown on
// keeps its count and says what the vote chose, or that the vote went on,
// but no longer a deadline past nor Vote buttons, nor, once a move was
// chosen, that the channel is to play there.
func TestE2EVoteBoardsClosed(t *testing.T) { httpMode(t, testE2EVoteBoardsClosed) }

func testE2EVoteBoardsClosed(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2, v3 := e.d.NewUser("v1"), e.d.NewUser("v2"), e.d.NewUser("v3")
	start := e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	e.kept(ch.ID, start.ID)
	e.do(e.play(ch, v1, "C3"))
	e.do(e.play(ch, v2, "D4"))
	e.do(e.play(ch, v3, "C3"))
	e.clock.Advance(time.Minute)
	e.waitMoves("the vote's move and gobot's answer", ch.ID, 2)
	closed := "🗳️ Votes: **C3** 2 · **D4** 1. The vote chose **C3**.\n**Move 1** · ⚫ black: the vote has closed\n"
	e.d.WaitFor("the first board to close", func() bool { _, text := e.labels(start.ID); return strings.Contains(text, closed) })
	labels, text := e.labels(start.ID)
	if len(labels) > 0 || strings.Contains(text, "The move is played") || !strings.Contains(text, "🗳️ **This channel against gobot tester**") {
		t.Errorf("the closed vote's board has the buttons %q and says %q; want no buttons, its introduction and no deadline", labels, text)
	}

	// A period without votes: the board it was shown on says the vote
	// goes on below.
	var board string
	e.d.WaitFor("gobot's board, kept", func() bool {
		b := e.board(ch.ID)
		board = b.ID
		return strings.Contains(b.Text(), "gobot (tester) played")
	})
	e.kept(ch.ID, board)
	e.clock.Advance(time.Minute)
	e.d.WaitFor("the period to begin again", func() bool { return len(e.publicWith(ch.ID, "🗳️ Nobody voted: the vote stays open")) > 0 })
	want := "⚪ gobot (tester) played **A9**.\n🗳️ This period ended without a vote that counts: the vote goes on below."
	e.d.WaitFor("gobot's board to close", func() bool { _, text := e.labels(board); return strings.Contains(text, want) })
	if labels, _ := e.labels(board); len(labels) > 0 {
		t.Errorf("the board of the period without votes keeps the buttons %q", labels)
	}
}

// TestE2ECountedBoards: a game ended by counting leaves no board offering
// Accept, whichever of the counting boards both players accepted on: a
// spectator's /go board shows the count a second time, and the one not
// pressed loses its buttons as the game ends.
func TestE2ECountedBoards(t *testing.T) { httpMode(t, testE2ECountedBoards) }

func testE2ECountedBoards(t *testing.T, e *env) {
	alice, bob, cid := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("cid")
	for _, onCopy := range []bool{false, true} {
		ch := e.d.GuildChannel(fmt.Sprintf("counted-on-copy-%v", onCopy))
		e.challenge(ch, alice, bob)
		e.do(e.play(ch, alice, "E5"))
		e.do(e.slash(ch, bob, "pass"))
		original := e.do(e.slash(ch, alice, "pass"))
		spectator := e.do(e.slash(ch, cid, "board"))
		for _, m := range []discordtest.Message{original, spectator} {
			if !strings.Contains(m.Text(), "Agree on the dead stones.") {
				t.Fatalf("a counting board says %q", m.Text())
			}
		}
		pressed, other := original, spectator
		if onCopy {
			pressed, other = spectator, original
		}
		e.do(e.click(alice, pressed, "Accept"))
		e.do(e.click(bob, pressed, "Accept"))
		if labels, text := e.labels(pressed.ID); !slices.Equal(labels, []string{"Rematch"}) || !strings.Contains(text, "Both players agree.") || !strings.Contains(text, "Result: B+73.5") {
			t.Errorf("accepted on the copy %v: the board pressed has the buttons %q and says %q; want the result and only a Rematch button", onCopy, labels, text)
		}
		e.retired(fmt.Sprintf("accepted on the copy %v: the other counting board", onCopy), other.ID, "Agree on the dead stones.")
	}
}

// addHold is the store with the next record of a board's message, once
// armed, held until release is closed: a board posted just before its game
// ends, recorded just after.
type addHold struct {
	commands.Store

	mu            sync.Mutex
	armed         bool
	held, release chan struct{}
}

func (h *addHold) AddMessageID(ctx context.Context, channelID, gameID, messageID string) error {
	h.mu.Lock()
	armed := h.armed
	h.armed = false
	h.mu.Unlock()
	if armed {
		close(h.held)
		<-h.release
	}
	return h.Store.AddMessageID(ctx, channelID, gameID, messageID)
}

// TestE2EBoardDuringEnding: a spectator's /go board answered while the
// game is being resigned, too late for the resignation to know of it, does
// not keep offering moves once the game is over.
func TestE2EBoardDuringEnding(t *testing.T) { httpMode(t, testE2EBoardDuringEnding) }

func testE2EBoardDuringEnding(t *testing.T, e *env) {
	hold := &addHold{held: make(chan struct{}), release: make(chan struct{})}
	e.wrapStore = func(s commands.Store) commands.Store {
		hold.Store = s
		return hold
	}
	e.restart()
	ch, alice, bob := e.guildGame()
	cid := e.d.NewUser("cid")
	// The move's board is recorded after its answer: armed before that,
	// the hold would catch the move's board instead of the spectator's.
	moved := e.do(e.play(ch, alice, "E5"))
	e.kept(ch.ID, moved.ID)
	hold.mu.Lock()
	hold.armed = true
	hold.mu.Unlock()
	it := e.slash(ch, cid, "board")
	var reply *discordtest.Reply
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		reply, err = e.d.Send(it)
	}()
	<-hold.held
	e.do(e.slash(ch, alice, "resign"))
	close(hold.release)
	<-done
	if err != nil {
		t.Fatalf("/go board: %v", err)
	}
	board := e.answerOf(it, reply)
	e.d.WaitFor("the spectator's board to lose its buttons", func() bool {
		labels, _ := e.labels(board.ID)
		return len(labels) == 0
	})
	if _, text := e.labels(board.ID); !strings.Contains(text, bob.Mention()+", your move.") {
		t.Errorf("the spectator's board says %q; want the board as it was shown", text)
	}
}

// TestE2EDraughtsFinishedBoards: a game of draughts ended off the board
// (resigned by command or button, drawn by agreement) or by a winning
// move leaves no board offering Offer a draw and Resign: the newest loses
// its buttons in one edit, as Go's boards do; a spectator's /draughts
// board, when it is the newest, is the one.
func TestE2EDraughtsFinishedBoards(t *testing.T) { httpMode(t, testE2EDraughtsFinishedBoards) }

func testE2EDraughtsFinishedBoards(t *testing.T, e *env) {
	erin, frank, carol := e.d.NewUser("erin"), e.d.NewUser("frank"), e.d.NewUser("carol")
	// start begins a game in a new channel, erin white, and plays
	// 31-26 19-23: it returns the channel and the two boards.
	start := func(name string) (*discordtest.Channel, discordtest.Message, discordtest.Message) {
		ch := e.d.GuildChannel(name)
		msg := e.newChallenge(e.draughtsCmd(ch, erin, "challenge", discordtest.UserOpt("opponent", frank), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
		e.do(e.click(frank, msg, "accept"))
		e.waitBoard(ch.ID, "⚪ white to play")
		// Each board kept before the next move: one recorded after a
		// later move is an old board, never kept as the newest.
		first := e.do(e.draughtsMove(ch, erin, "31-26"))
		e.kept(ch.ID, first.ID)
		last := e.do(e.draughtsMove(ch, frank, "19-23"))
		e.kept(ch.ID, last.ID)
		return ch, first, last
	}
	yourMove := erin.Mention() + ", your move."

	// Resigning by command, with a draw offer open: only the newest
	// board is edited.
	ch, first, last := start("resign-command")
	offer := e.do(e.draughtsCmd(ch, erin, "draw"))
	// The offer's message is recorded just after its answer: a game ended
	// before then closes no offer it knows of.
	e.d.WaitFor("the offer recorded", func() bool { u := e.game(ch.ID).Undo; return u != nil && u.MessageID == offer.ID })
	before := e.edits(first.ID)
	if end := e.do(e.draughtsCmd(ch, frank, "resign")); !strings.Contains(end.Text(), "**Game over: ⚪ white "+erin.Mention()+" wins by resignation · 2-0**") {
		t.Errorf("/draughts resign = %q", end.Text())
	}
	e.retired("/draughts resign", last.ID, yourMove)
	if e.edits(first.ID) != before {
		t.Errorf("/draughts resign edited an older board too")
	}
	// The draw offer is closed too, saying why.
	if labels, text := e.labels(offer.ID); len(labels) > 0 || text != "🤝 "+erin.Mention()+" offered a draw. ⌛ The game has ended." {
		t.Errorf("the ended game's offer has the buttons %q and says %q; want no buttons, and that the game has ended", labels, text)
	}

	// Resigning by button.
	ch, _, last = start("resign-button")
	e.do(e.click(frank, e.do(e.click(frank, last, "Resign")), "Yes, resign"))
	e.retired("the Resign button", last.ID, yourMove)

	// A draw agreed with /draughts draw.
	ch, _, last = start("draw-command")
	e.do(e.draughtsCmd(ch, erin, "draw"))
	if end := e.do(e.draughtsCmd(ch, frank, "draw")); !strings.Contains(end.Text(), "Game over: drawn by agreement · 1-1") {
		t.Errorf("the draw accepted = %q", end.Text())
	}
	e.retired("a draw agreed", last.ID, yourMove)

	// A spectator's board, the newest.
	ch, _, _ = start("spectator")
	copied := e.do(e.draughtsCmd(ch, carol, "board"))
	e.kept(ch.ID, copied.ID)
	e.do(e.draughtsCmd(ch, frank, "resign"))
	e.retired("a spectator's /draughts board", copied.ID, yourMove)
}

// TestE2EDraughtsBotEndingMove: a game of draughts ended by the bot's
// move (a winning capture; a draw by the 5-move rule) leaves no board
// offering Offer a draw and Resign: the board the move was played on
// loses its buttons, as it does when a person's move ends the game.
func TestE2EDraughtsBotEndingMove(t *testing.T) { httpMode(t, testE2EDraughtsBotEndingMove) }

func testE2EDraughtsBotEndingMove(t *testing.T, e *env) {
	carol := e.d.NewUser("carol")
	// play starts a game against the bot in a new channel, carol black,
	// sets it at st (black to move), shows the board and plays move:
	// it returns the board and the answer to the move.
	play := func(name string, st draughts.State, move string) (discordtest.Message, discordtest.Message) {
		t.Helper()
		ch := e.d.GuildChannel(name)
		e.do(e.draughtsCmd(ch, carol, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "black"), discordtest.Str("clock", "none")))
		g := e.game(ch.ID)
		g.State = st
		if err := e.store.UpdateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		b := e.do(e.draughtsCmd(ch, carol, "board"))
		if labels, _ := e.labels(b.ID); len(labels) != 2 {
			t.Fatalf("%s: the board has the buttons %q, want Offer a draw and Resign", name, labels)
		}
		e.kept(ch.ID, b.ID)
		return b, e.do(e.draughtsMove(ch, carol, move))
	}
	toPlay := "to play: " + carol.Mention()

	// Black's last man is taken by whichever capture the bot makes.
	won, err := draughts.NewState(map[string]string{"fen": "B:W37,38,39:B28"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, end := play("bot-wins", won, "28-32")
	if !strings.Contains(end.Text(), "**Game over: ⚪ white gobot (beginner) wins") {
		t.Errorf("the answer to carol's move = %q, want the bot's win", end.Text())
	}
	e.retired("the bot's winning move", b.ID, toPlay)

	// A king against a king: the 5-move rule draws the game at the bot's
	// fifth move. The moves before are chosen so that no king can take
	// the other.
	st, err := draughts.NewState(map[string]string{"fen": "B:WK48:BK3"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	quiet := func(st draughts.State) bool {
		for _, m := range st.Legal() {
			if strings.Contains(string(m), "x") {
				return false
			}
		}
		return len(st.Legal()) > 0
	}
	next := func(st draughts.State) (draughts.State, string) {
		for _, m := range st.Legal() {
			n, _, err := st.PlayMove(st.ToMove(), string(m))
			if err == nil && quiet(n) {
				if _, over := n.Result(); !over {
					return n, string(m)
				}
			}
		}
		t.Fatalf("no quiet move in %v", st)
		return st, ""
	}
	for range 8 {
		st, _ = next(st)
	}
	_, last := next(st)
	b, end = play("bot-draws", st, last)
	if !strings.Contains(end.Text(), "**Game over: drawn by the 5-move rule") {
		t.Errorf("the answer to carol's move = %q, want a draw by the 5-move rule", end.Text())
	}
	e.retired("the bot's move drawing by rule", b.ID, toPlay)
}
