package commands_test

// The database down while gobot works: its answers say what they know
// and promise what it will do when the database is back.

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// errDown is what the store answers while the test's database is down.
var errDown = errors.New("test: the database does not answer")

// outage is the store with a switch that takes the database down: the
// reads and writes of games and of the bot queue fail while it is.
type outage struct {
	commands.Store
	down atomic.Bool
}

// outageEnv restarts e on its store behind an outage switch.
func outageEnv(e *env) *outage {
	o := &outage{}
	e.wrapStore = func(s commands.Store) commands.Store {
		o.Store = s
		return o
	}
	e.restart()
	return o
}

func (o *outage) fail() error {
	if o.down.Load() {
		return errDown
	}
	return nil
}

func (o *outage) Game(ctx context.Context, channelID string) (*storage.Game, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.Game(ctx, channelID)
}

func (o *outage) UpdateGame(ctx context.Context, g *storage.Game) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.UpdateGame(ctx, g)
}

func (o *outage) ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.ClaimBotMove(ctx, worker, lease)
}

func (o *outage) ReleaseBotMove(ctx context.Context, m *storage.BotMove, retryAt time.Time) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.ReleaseBotMove(ctx, m, retryAt)
}

func (o *outage) BotQueuePosition(ctx context.Context, channelID string) (int, error) {
	if err := o.fail(); err != nil {
		return 0, err
	}
	return o.Store.BotQueuePosition(ctx, channelID)
}

// TestE2EOutageAfterMove: the database goes down while the bot thinks
// about its reply to a move that was stored. The answer shows the board
// with the player's move and says that gobot will move when it can (it
// said that something went wrong and nothing was changed); once the
// database is back, the bot's move is made and posted.
func TestE2EOutageAfterMove(t *testing.T) {
	e := newEnv(t)
	o := outageEnv(e)
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	if m := e.do(e.slash(dm, gina, "bot", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("color", "black"))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	move := e.play(dm, gina, "E5")
	if r := e.d.Do(move); r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Fatalf("/go play answered type %d, want a deferral while the bot thinks", r.Type)
	}
	e.thinking("slow")
	o.down.Store(true)
	close(e.players.gate)
	m := e.deferredAnswer(move)
	want := "\n⚫ gina vs ⚪ gobot slow\n⚫ " + gina.Mention() + " played **E5**.\n" +
		"⚠️ gobot cannot reach its database just now; it will play its move as soon as it can.\n" +
		"**Move 2** · ⚪ white to play: gobot (slow)\nLast move: ⚫ E5 · Captures: ⚫ 0 · ⚪ 0\n" +
		"⏱ ⚫ 4 days · ⚪ 3 days · ⚪ white's time runs out <t:1749038400:R>\n" +
		"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · Fischer: 3 days, +1 day per move, at most 7 days"
	if _, board := m.PNG(); m.Ephemeral || !board || m.Text() != want {
		t.Errorf("answer to the move (private %v, board %v) =\n%s\nwant\n%s", m.Ephemeral, board, m.Text(), want)
	}
	o.down.Store(false)
	e.clock.Advance(time.Minute) // the failed move is tried again within a minute
	e.waitMoves("the bot's move once the database is back", dm.ID, 2)
	e.waitBoard(dm.ID, "A9")
}
