package commands_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EDraughtsOfferLapses: a draw offer left unanswered is closed in
// place, saying why, its Accept button removed, as soon as it lapses: the
// opponent moves (one made on the offerer's turn goes with their move), the game is resigned, lost on time or aborted; one
// accepted with /draughts draw keeps its text and loses its button. Its
// message is stored with the offer, so a gobot restarted since it was
// made (another worker, on PostgreSQL: TestE2EDraughtsOfferLapsesPostgres)
// closes it as well, and so does an offer made on the board page.
func TestE2EDraughtsOfferLapses(t *testing.T) { httpMode(t, testE2EDraughtsOfferLapses) }

// TestE2EDraughtsOfferLapsesPostgres is TestE2EDraughtsOfferLapses on
// PostgreSQL.
func TestE2EDraughtsOfferLapsesPostgres(t *testing.T) {
	t.Parallel()
	testE2EDraughtsOfferLapses(t, newEnvPostgres(t))
}

func testE2EDraughtsOfferLapses(t *testing.T, e *env) {
	erin, frank := e.d.NewUser("erin"), e.d.NewUser("frank")
	// offer starts a game in a new channel, erin white, plays 31-26, and
	// frank offers a draw.
	offer := func(name, clock string) (*discordtest.Channel, discordtest.Message) {
		t.Helper()
		ch := e.d.GuildChannel(name)
		msg := e.newChallenge(e.draughtsCmd(ch, erin, "challenge", discordtest.UserOpt("opponent", frank), discordtest.Str("color", "white"), discordtest.Str("clock", clock)))
		e.do(e.click(frank, msg, "accept"))
		e.waitBoard(ch.ID, "⚪ white to play")
		e.do(e.draughtsMove(ch, erin, "31-26"))
		o := e.do(e.draughtsCmd(ch, frank, "draw"))
		if want := "🤝 " + frank.Mention() + " offers a draw. " + erin.Mention() + ", accept with `/draughts draw` or the button; the offer lapses when you move."; o.Text() != want {
			t.Fatalf("draw offer = %q, want %q", o.Text(), want)
		}
		// Its message is recorded just after its answer.
		e.d.WaitFor("the offer recorded", func() bool { u := e.game(ch.ID).Undo; return u != nil && u.MessageID == o.ID })
		return ch, o
	}
	offered := "🤝 " + frank.Mention() + " offered a draw. "
	// closed waits (10 s at most) for offer id to say want, without its
	// button.
	closed := func(what, id, want string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			labels, text := e.labels(id)
			if len(labels) == 0 && text == want {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: the offer has the buttons %q and says %q; want no buttons, and %q", what, labels, text, want)
				return
			}
		}
	}

	// The offerer moves on: the offer, made on frank's turn, goes with
	// his move, as on lidraughts; erin may accept it on hers. Her move
	// lapses it.
	ch, o := offer("move", "none")
	e.do(e.draughtsMove(ch, frank, "19-23"))
	if labels, text := e.labels(o.ID); len(labels) != 1 || !strings.HasSuffix(text, "the offer lapses when you move.") {
		t.Errorf("the offer after frank's own move has the buttons %q and says %q, want it standing", labels, text)
	}
	e.do(e.draughtsMove(ch, erin, "32-28"))
	closed("erin moved", o.ID, offered+"⌛ A move was played since; the offer lapsed.")
	// Accepted on erin's turn, after frank's move that went with it.
	ch, o = offer("with-move", "none")
	e.do(e.draughtsMove(ch, frank, "19-23"))
	e.do(e.click(erin, o, "Accept the draw"))
	closed("erin accepted after frank's move", o.ID, offered+"✅ "+erin.Mention()+" accepted: the game is drawn.")
	if e.game(ch.ID) != nil {
		t.Errorf("the game goes on after erin accepted the offer that went with frank's move")
	}

	// Erin resigns instead of answering.
	ch, o = offer("resign", "none")
	e.do(e.draughtsCmd(ch, erin, "resign"))
	closed("erin resigned", o.ID, offered+"⌛ The game has ended.")

	// Accepted with /draughts draw: the final board says the rest.
	ch, o = offer("accept", "none")
	e.do(e.draughtsCmd(ch, erin, "draw"))
	closed("erin accepted with /draughts draw", o.ID, offered+"✅ "+erin.Mention()+" accepted: the game is drawn.")

	// Frank runs out of time (the scheduler ends the game).
	ch, o = offer("time", "absolute 15s")
	e.clock.Advance(16 * time.Second)
	e.d.WaitFor("the loss on time", func() bool { return e.game(ch.ID) == nil })
	closed("frank ran out of time", o.ID, offered+"⌛ The game has ended.")

	// Erin aborts the game.
	ch, o = offer("abort", "none")
	e.do(e.click(erin, e.do(e.draughtsCmd(ch, erin, "abort")), "abort"))
	closed("erin aborted", o.ID, offered+"⌛ The game has ended.")

	// A gobot restarted since the offer was made (another worker)
	// closes it too: its message is stored with the offer.
	chMove, oMove := offer("restart-move", "none")
	chEnd, oEnd := offer("restart-resign", "none")
	e.restart()
	e.do(e.draughtsMove(chMove, frank, "19-23"))
	e.do(e.draughtsMove(chMove, erin, "32-28"))
	closed("erin moved after a restart", oMove.ID, offered+"⌛ A move was played since; the offer lapsed.")
	e.do(e.draughtsCmd(chEnd, erin, "resign"))
	closed("erin resigned after a restart", oEnd.ID, offered+"⌛ The game has ended.")

	// An offer made on the board page is posted after its action: its
	// message is recorded then, and a move in Discord closes it.
	ch = e.d.GuildChannel("page")
	msg := e.newChallenge(e.draughtsCmd(ch, erin, "challenge", discordtest.UserOpt("opponent", frank), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
	e.do(e.click(frank, msg, "accept"))
	e.waitBoard(ch.ID, "⚪ white to play")
	e.do(e.draughtsMove(ch, erin, "31-26"))
	ctx := context.Background()
	v, err := e.app.View(ctx, ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res := e.app.Act(ctx, ch.ID, commands.WebUser{ID: frank.ID, Name: "frank"}, commands.Action{Kind: commands.ActDraw, Game: v.ID, Version: v.Version, Seat: "black"}); res.Refused {
		t.Fatalf("frank's draw offer on the page = %+v", res)
	}
	var posted discordtest.Message
	e.d.WaitFor("the page's offer, posted and recorded", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if strings.HasPrefix(m.Text(), "🤝 "+frank.Mention()+" offers a draw.") {
				posted = m
			}
		}
		g := e.game(ch.ID)
		return posted.ID != "" && g.Undo != nil && g.Undo.MessageID == posted.ID
	})
	e.do(e.draughtsMove(ch, frank, "19-23"))
	e.do(e.draughtsMove(ch, erin, "32-28"))
	closed("erin moved after frank offered on the page", posted.ID, offered+"⌛ A move was played since; the offer lapsed.")
}

// TestE2EDraughtsOfferOnBoard: a standing draw offer shows on every board
// until it lapses, as on lidraughts: the board says who offers it and
// until when, and its button reads Accept the draw and accepts it; the
// offerer's press of it is refused, changing nothing. Once the offer has
// lapsed the boards offer a draw again.
func TestE2EDraughtsOfferOnBoard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	erin, frank := e.d.NewUser("erin"), e.d.NewUser("frank")
	ch := e.d.GuildChannel("offer-board")
	e.draughtsGame(ch, erin, frank, "none")
	e.do(e.draughtsMove(ch, erin, "31-26"))
	e.do(e.draughtsCmd(ch, frank, "draw"))
	// The offer goes with frank's move: the board that asks erin to move
	// shows it.
	board := e.do(e.draughtsMove(ch, frank, "19-23"))
	labels := func(m discordtest.Message) []string {
		var out []string
		for _, b := range m.Buttons() {
			out = append(out, b.Label)
		}
		return out
	}
	const says = "🤝 frank offers a draw; it lapses when erin moves.\n"
	if got := labels(board); strings.Join(got, ",") != "Accept the draw,Resign" || !strings.Contains(board.Text(), says) {
		t.Errorf("the board after frank's move has %q and says %q; want Accept the draw and %q", got, board.Text(), says)
	}
	if shown := e.do(e.draughtsCmd(ch, erin, "board")); !strings.Contains(shown.Text(), says) || labels(shown)[0] != "Accept the draw" {
		t.Errorf("/draughts board = %q with %q, want the offer shown", shown.Text(), labels(shown))
	}
	// Frank presses it: his own offer.
	if r := e.d.Do(e.d.Click(frank, board, board.Buttons()[0].CustomID)); !r.Ephemeral() || r.Text() != "You have offered a draw already; it stands until "+erin.Mention()+" moves." {
		t.Errorf("frank's press of his own offer: %q (ephemeral %v)", r.Text(), r.Ephemeral())
	}
	if e.game(ch.ID) == nil {
		t.Fatal("frank's press ended the game")
	}
	// Erin moves: the offer lapses, and the next board offers a draw.
	next := e.do(e.draughtsMove(ch, erin, "32-28"))
	if got := labels(next); strings.Join(got, ",") != "Offer a draw,Resign" || strings.Contains(next.Text(), "offers a draw") {
		t.Errorf("the board after the offer lapsed has %q and says %q", got, next.Text())
	}
	// Offered again and accepted from the board.
	e.do(e.draughtsCmd(ch, frank, "draw"))
	shown := e.do(e.draughtsCmd(ch, erin, "board"))
	if end := e.do(e.d.Click(erin, shown, shown.Buttons()[0].CustomID)); !strings.Contains(end.Text(), "the game is drawn by agreement") {
		t.Errorf("erin's press of Accept the draw: %q", end.Text())
	}
	if e.game(ch.ID) != nil {
		t.Error("the game goes on after erin accepted from the board")
	}
}
