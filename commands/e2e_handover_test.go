package commands_test

// The hand-over of a bot's move from the worker that made it to the
// handler waiting for it, when the worker is slow between its write and
// the hand-over (a loaded machine): the handler must not take the move for
// one made by another process.

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/storage"
)

// slowHandOver holds the worker that writes the bot's move in channel
// (the game's moves-th) just after its write commits, until released: by
// the handler's third look at the queue that finds the move gone, or by
// a read of a command's answer (a handler that took the move for one made
// elsewhere reads it, see answeredElsewhere).
type slowHandOver struct {
	commands.Store
	channel   string
	moves     int
	committed chan struct{}
	release   chan struct{}
	once      sync.Once
	wrote     sync.Once // the hold's one write has committed
	gone      atomic.Int32
}

func (s *slowHandOver) free() { s.once.Do(func() { close(s.release) }) }

func (s *slowHandOver) UpdateGame(ctx context.Context, g *storage.Game) error {
	err := s.Store.UpdateGame(ctx, g)
	if err == nil && g.ChannelID == s.channel && g.State.MoveCount() == s.moves {
		s.wrote.Do(func() { close(s.committed) })
		<-s.release
	}
	return err
}

func (s *slowHandOver) BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error) {
	pos, err := s.Store.BotQueuePosition(ctx, channelID, gameID, moves)
	if channelID == s.channel && errors.Is(err, storage.ErrNotFound) && s.gone.Add(1) == 3 {
		s.free()
	}
	return pos, err
}

// originalRead is the bot's Discord, telling hold when the bot reads a
// command's answer.
type originalRead struct {
	commands.Discord
	hold *slowHandOver
}

func (d *originalRead) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	d.hold.free()
	return d.Discord.Original(ctx, it)
}

// TestE2EBotMoveSlowHandOver: the worker that made the bot's move hands it
// to the handler waiting for it only seconds after its write (a loaded
// machine). The handler waits for it and answers the player's move with
// the board and the bot's move, once. It took the move gone from the
// queue for one made by another process and answered with the board
// alone, the bot's line then coming in a message of its own.
func TestE2EBotMoveSlowHandOver(t *testing.T) { onBothStores(t, testE2EBotMoveSlowHandOver) }

func testE2EBotMoveSlowHandOver(t *testing.T, e *env) {
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	hold := &slowHandOver{channel: dm.ID, moves: 2, committed: make(chan struct{}), release: make(chan struct{})}
	e.wrapStore = func(s commands.Store) commands.Store { hold.Store = s; return hold }
	e.wrapDiscord = func(d commands.Discord) commands.Discord { return &originalRead{Discord: d, hold: hold} }
	e.restart()
	move := e.botThinking(dm, gina, "tester")
	<-hold.committed
	m := e.d.Settled(move)
	want := "⚫ gina vs ⚪ gobot tester\n⚫ " + gina.Mention() + " played **E5**.\n⚪ gobot (tester) played **A9**.\n"
	if _, board := m.PNG(); !board || !strings.HasPrefix(strings.TrimPrefix(m.Text(), "\n"), want) {
		t.Errorf("answer to the move (board %v) =\n%s\nwant it to begin\n%s", board, m.Text(), want)
	}
	// Shutting down waits for the handler, and for what it posts as it
	// ends.
	if err := e.stopWithin(time.Minute); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	said := 0
	for _, msg := range e.d.Public(dm.ID) {
		said += strings.Count(msg.Text(), "gobot (tester) played **A9**")
	}
	if said != 1 {
		t.Errorf("the bot's move was announced %d times in the DM, want once", said)
	}
}

// TestE2EResignWhileBotThinks: the player resigns while the bot searches
// its answer to their move. The answer to the move is given as soon as the
// handler finds the move gone from the queue, with the game's end: it
// waited for the search to end (up to two minutes for a GTP engine), as
// if the move had been made by this process's worker and were on its way.
func TestE2EResignWhileBotThinks(t *testing.T) { onBothStores(t, testE2EResignWhileBotThinks) }

func testE2EResignWhileBotThinks(t *testing.T, e *env) {
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	move := e.botThinking(dm, gina, "slow")
	e.thinking("slow")
	e.do(e.slash(dm, gina, "resign"))
	// The gate opens only once the answer is in: the search is still
	// running when it is given.
	m := e.d.Settled(move)
	searching := e.players.endedCalls("slow") == 0
	close(e.players.gate)
	if !searching {
		t.Errorf("the answer to the move came only once the search had ended")
	}
	if want := "⚫ " + gina.Mention() + " played **E5**.\nThis game ended while gobot was thinking: **W+R**."; m.Text() != want {
		t.Errorf("answer to the move = %q, want %q", m.Text(), want)
	}
}
