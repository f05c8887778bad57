package commands_test

// Acceptance tests for bugs found by the end-to-end suite and not fixed yet.
// They fail today, so they run only when asked:
//
//	GOBOT_E2E_KNOWN_BUGS=1 go test -run KnownBug ./commands/
//
// Once a bug is fixed, move its test into e2e_test.go.

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

func knownBug(t *testing.T) {
	t.Helper()
	if os.Getenv("GOBOT_E2E_KNOWN_BUGS") == "" {
		t.Skip("a known bug; set GOBOT_E2E_KNOWN_BUGS=1 to run")
	}
}

// TestE2EKnownBugPrivateRetry: in a user-install private channel (the bot
// is not a member), a bot move that failed once is retried in the
// background and committed, but its board is posted with
// POST /channels/{id}/messages, which Discord refuses there (403 Missing
// Access): the players never see the move.
func TestE2EKnownBugPrivateRetry(t *testing.T) {
	knownBug(t)
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.PrivateChannel(alice, bob)
	e.do(e.d.Command(ch, alice, "go", discordtest.Sub("bot", discordtest.Str("level", "flaky"), discordtest.Int("size", 9), discordtest.Str("color", "white"))))
	e.d.WaitFor("the retried bot move", func() bool {
		g := e.game(ch.ID)
		return g != nil && g.Game.MoveCount() == 1
	})
	e.waitBoard(ch.ID, "A9")
}

// TestE2EKnownBugAbortWhileThinking: a moderator aborts a game while the bot
// thinks. Nothing is stored (good), but the thinking interaction is then
// answered with a board showing the bot's uncommitted move and "gobot could
// not choose its move just now and will try again shortly": answer() renders
// the in-memory game after playBots failed to commit.
func TestE2EKnownBugAbortWhileThinking(t *testing.T) {
	knownBug(t)
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator
	slow := e.d.Command(ch, alice, "go", discordtest.Sub("bot", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	done := make(chan error, 1)
	go func() {
		_, err := e.d.Send(slow)
		done <- err
	}()
	e.d.WaitFor("the bot game to start", func() bool { return e.game(ch.ID) != nil })
	e.do(e.d.Command(ch, mod, "go", discordtest.Sub("abort")))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(e.players.gate)
	var got discordtest.Message
	e.d.WaitFor("the thinking interaction's answer", func() bool {
		o, ok := e.d.Original(slow)
		if ok && !o.Deferred {
			got = o
			return true
		}
		if f := e.d.Followups(slow); !ok && len(f) > 0 {
			got = f[len(f)-1]
			return true
		}
		return false
	})
	if strings.Contains(got.Text(), "A9") || strings.Contains(got.Text(), "try again") {
		t.Errorf("after the abort, the answer shows a move that was never stored: %q", got.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the aborted game came back")
	}
}

// TestE2EKnownBugStopWhileThinking: SIGTERM arrives while the bot thinks
// and the grace period runs out. The next process makes the move and posts
// the board (good), but the interaction that was thinking is never
// answered: answer() replies with the cancelled context, so its deferred
// "thinking…" message stays for ever (the env's checkMessages reports it).
func TestE2EKnownBugStopWhileThinking(t *testing.T) {
	knownBug(t)
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	slow := e.d.Command(ch, alice, "go", discordtest.Sub("bot", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	e.d.Do(slow)
	if err := e.stopWithin(time.Second); err == nil {
		t.Fatalf("Shutdown returned nil although the bot was still thinking")
	}
	e.start()
	close(e.players.gate)
	e.d.WaitFor("the bot's move after the restart", func() bool {
		g := e.game(ch.ID)
		return g != nil && g.Game.MoveCount() == 1
	})
	e.waitBoard(ch.ID, "A9")
}
