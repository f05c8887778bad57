package commands_test

import (
	"context"
	"sync"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// hold makes the first n callers of wait wait until all n have come (or
// their context ends), and lets every later one through: n handlers then
// read the store before any of them writes.
type hold struct {
	n       int
	mu      sync.Mutex
	came    int
	release chan struct{}
}

func newHold(n int) *hold { return &hold{n: n, release: make(chan struct{})} }

func (h *hold) wait(ctx context.Context) {
	h.mu.Lock()
	if h.came++; h.came == h.n {
		close(h.release)
	}
	h.mu.Unlock()
	select {
	case <-h.release:
	case <-ctx.Done():
	}
}

// readHold is the store with the first reads of one channel's game held
// (hold): actions that all read the game before any wrote it.
type readHold struct {
	commands.Store
	channel string
	*hold
}

func (h *readHold) Game(ctx context.Context, channelID string) (*storage.Game, error) {
	g, err := h.Store.Game(ctx, channelID)
	if channelID == h.channel {
		h.wait(ctx)
	}
	return g, err
}

// TestE2EScoringAcceptAtOnce: both players press Accept on the same
// marking at the same moment (both read the game before either wrote
// it). Both acceptances count: the game ends by score, and neither player
// is told that another action was applied first.
func TestE2EScoringAcceptAtOnce(t *testing.T) { onBothStores(t, testE2EScoringAcceptAtOnce) }

func testE2EScoringAcceptAtOnce(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	id := e.game(ch.ID).ID
	e.do(e.play(ch, alice, "E5"))
	e.do(e.slash(ch, bob, "pass"))
	scoring := e.do(e.slash(ch, alice, "pass"))
	e.wrapStore = func(s commands.Store) commands.Store {
		return &readHold{Store: s, channel: ch.ID, hold: newHold(2)}
	}
	e.restart()

	its := []*discordtest.Interaction{e.click(alice, scoring, "accept"), e.click(bob, scoring, "accept")}
	replies, errs := e.sendAtOnce(its)
	for i, r := range replies {
		if errs[i] != nil {
			t.Fatalf("Accept %d: %v", i, errs[i])
		}
		// The Accept applied first may find, once its board is drawn,
		// that the second has ended the game: it then says so privately
		// rather than put its older board over the final one.
		const counted = "✅ You accepted the marking. The game changed at the same moment: the newest board shows it as it stands."
		if m := e.answerOf(its[i], r); m.Ephemeral && m.Text() != counted {
			t.Errorf("Accept %d was refused: %q", i, m.Text())
		}
	}
	if a := e.archived(ch.ID, id); a.Result != "B+73.5" {
		t.Errorf("archived %s, want B+73.5: ended by score", a.Result)
	}
}

// TestE2EPassTwiceAtOnce: a player presses the same Pass button twice at
// once (both presses read the game before either wrote it). One pass is
// played; the other press is told so, not that another action came first
// and to try again, which would invite a second pass. The same holds for
// one move sent twice at once, in Go and in draughts; two different
// moves at once still get the conflict's answer, as the second was not
// played.
func TestE2EPassTwiceAtOnce(t *testing.T) { httpMode(t, testE2EPassTwiceAtOnce) }

func testE2EPassTwiceAtOnce(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	atOnce := func(ch *discordtest.Channel, what string, want string, its ...*discordtest.Interaction) {
		t.Helper()
		before := e.game(ch.ID).State.MoveCount()
		e.wrapStore = func(s commands.Store) commands.Store {
			return &readHold{Store: s, channel: ch.ID, hold: newHold(2)}
		}
		e.restart()
		replies, errs := e.sendAtOnce(its)
		var private []string
		for i, r := range replies {
			if errs[i] != nil {
				t.Fatalf("%s %d: %v", what, i, errs[i])
			}
			if m := e.answerOf(its[i], r); m.Ephemeral {
				private = append(private, m.Text())
			}
		}
		if len(private) != 1 || private[0] != want {
			t.Errorf("private answers to %s = %q, want one: %q", what, private, want)
		}
		if n := e.game(ch.ID).State.MoveCount() - before; n != 1 {
			t.Errorf("%s played %d moves, want 1", what, n)
		}
		e.wrapStore = nil
	}
	board := e.board(ch.ID)
	b := mustButton(t, board, "pass")
	atOnce(ch, "one Pass pressed twice", "Your pass was already played (you sent it twice); this second one changed nothing.",
		e.d.Click(alice, board, b.CustomID), e.d.Click(alice, board, b.CustomID))
	atOnce(ch, "E5 sent twice", "Your move at E5 was already played (you sent it twice); this second one changed nothing.",
		e.play(ch, bob, "E5"), e.play(ch, bob, "E5"))
	atOnce(ch, "C3 and G3 at once", "Another action on this game was applied at the same moment, so yours was not. Look at the new board and try again.",
		e.play(ch, alice, "C3"), e.play(ch, alice, "G3"))

	dch := e.d.GuildChannel("draughts")
	msg := e.newChallenge(e.draughtsCmd(dch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(dch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	atOnce(dch, "draughts 32-28 sent twice", "Your move 32-28 was already played (you sent it twice); this second one changed nothing.",
		e.draughtsMove(dch, alice, "32-28"), e.draughtsMove(dch, alice, "32-28"))
	atOnce(dch, "draughts 19-23 and 18-23 at once", "Another action on this game was applied at the same moment, so yours was not. Look at the new board and try again.",
		e.draughtsMove(dch, bob, "19-23"), e.draughtsMove(dch, bob, "18-23"))
}
