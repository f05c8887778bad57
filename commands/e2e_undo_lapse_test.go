package commands_test

import (
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EUndoLapses: an undo question left unanswered is closed in place,
// saying why, its buttons disabled, as soon as its request lapses: the
// opponent plays instead of answering, resigns, or the game is lost on
// time. Its message is stored with the request, so a gobot restarted
// since it was asked (another worker, on PostgreSQL: TestE2EUndoLapsesPostgres)
// closes it as well as the one that asked it.
func TestE2EUndoLapses(t *testing.T) { httpMode(t, testE2EUndoLapses) }

// TestE2EUndoLapsesPostgres is TestE2EUndoLapses on PostgreSQL.
func TestE2EUndoLapsesPostgres(t *testing.T) {
	t.Parallel()
	testE2EUndoLapses(t, newEnvPostgres(t))
}

func testE2EUndoLapses(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	asked := alice.Mention() + " asked to take back 1 move. "
	// ask starts a game in a channel of its own, alice plays E5 and asks
	// to take it back.
	ask := func(name string, opts ...discordtest.Option) (*discordtest.Channel, discordtest.Message) {
		t.Helper()
		ch := e.d.GuildChannel(name)
		e.challenge(ch, alice, bob, opts...)
		e.do(e.play(ch, alice, "E5"))
		q := e.do(e.slash(ch, alice, "undo"))
		if want := bob.Mention() + ", " + alice.Mention() + " asks to take back 1 move. Do you allow it?"; q.Text() != want {
			t.Fatalf("undo request = %q, want %q", q.Text(), want)
		}
		return ch, q
	}
	// live reports whether question id has live buttons, and what it says.
	live := func(id string) (bool, string) {
		m, ok := e.d.Message(id)
		if !ok {
			t.Fatalf("no message %s", id)
		}
		n := 0
		for _, b := range m.Buttons() {
			if !b.Disabled {
				n++
			}
		}
		return n > 0, m.Text()
	}
	// closed waits (10 s at most: the edit follows the answer) for
	// question id to say want, its buttons (both still shown) disabled.
	closed := func(what, id, want string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			m, _ := e.d.Message(id)
			on, text := live(id)
			if !on && len(m.Buttons()) == 2 && text == want {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: the question says %q (%d buttons, live %v), want %q with its buttons disabled", what, text, len(m.Buttons()), on, want)
				return
			}
		}
	}

	// Bob plays instead of answering.
	ch, q := ask("play-on")
	e.do(e.play(ch, bob, "C3"))
	closed("bob played", q.ID, asked+"⌛ A move was played since; play on.")

	// Bob resigns instead of answering.
	ch, q = ask("resign")
	e.do(e.slash(ch, bob, "resign"))
	closed("bob resigned", q.ID, asked+"⌛ The game has ended.")

	// Bob runs out of time (the scheduler ends the game).
	ch, q = ask("time", discordtest.Str("clock", "absolute 15s"))
	e.clock.Advance(16 * time.Second)
	e.d.WaitFor("the loss on time", func() bool { return e.game(ch.ID) == nil })
	closed("bob ran out of time", q.ID, asked+"⌛ The game has ended.")

	// A gobot restarted since the question was asked (another worker)
	// closes it too: its message is stored with the request.
	ch, q = ask("restart-move")
	chEnd, qEnd := ask("restart-resign")
	chTime, qTime := ask("restart-time", discordtest.Str("clock", "absolute 15s"))
	e.restart()
	e.do(e.play(ch, bob, "C3"))
	closed("bob played after a restart", q.ID, asked+"⌛ A move was played since; play on.")
	e.do(e.slash(chEnd, bob, "resign"))
	closed("bob resigned after a restart", qEnd.ID, asked+"⌛ The game has ended.")
	e.clock.Advance(16 * time.Second)
	e.d.WaitFor("the loss on time after a restart", func() bool { return e.game(chTime.ID) == nil })
	closed("bob ran out of time after a restart", qTime.ID, asked+"⌛ The game has ended.")
}
