package commands_test

// A worker killed (kill -9) while the bot thinks about the reply its
// handler waits for: the handler's answer never reaches Discord, and the
// worker that makes the move later answers in its place.

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// errKilled is what a killed process's calls to Discord come to: nothing.
var errKilled = errors.New("test: the process was killed")

// killable is the bot's REST client, cut off from Discord once killed.
type killable struct {
	commands.Discord
	dead atomic.Bool
}

func (k *killable) Callback(ctx context.Context, it *discordgo.Interaction, r *commands.Response) (*discordgo.Message, error) {
	if k.dead.Load() {
		return nil, errKilled
	}
	return k.Discord.Callback(ctx, it, r)
}

func (k *killable) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	if k.dead.Load() {
		return nil, errKilled
	}
	return k.Discord.EditOriginal(ctx, it, m)
}

func (k *killable) Followup(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	if k.dead.Load() {
		return nil, errKilled
	}
	return k.Discord.Followup(ctx, it, m)
}

func (k *killable) SendMessage(ctx context.Context, channelID string, m *commands.Message) (*discordgo.Message, error) {
	if k.dead.Load() {
		return nil, errKilled
	}
	return k.Discord.SendMessage(ctx, channelID, m)
}

func (k *killable) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error {
	if k.dead.Load() {
		return errKilled
	}
	return k.Discord.DeleteOriginal(ctx, it)
}

// killWhileThinking has gina play E5 in ch against the slow bot, kills the
// bot while it thinks (its answers no longer reach Discord), starts
// another and lets it make the move; it returns the /go play.
func (e *env) killWhileThinking(ch *discordtest.Channel, gina discordtest.User) *discordtest.Interaction {
	e.t.Helper()
	var k *killable
	e.wrapDiscord = func(d commands.Discord) commands.Discord {
		k = &killable{Discord: d}
		return k
	}
	e.restart()
	move := e.botThinking(ch, gina, "slow")
	e.thinking("slow")
	k.dead.Store(true) // kill -9: nothing it sends from now on arrives
	e.stopWithin(time.Second)
	if m, _ := e.d.Original(move); !m.Deferred {
		e.t.Fatalf("the killed bot answered the move: %q", m.Text())
	}
	e.start()
	close(e.players.gate)
	e.waitMoves("the bot's move made by the next process", ch.ID, 2)
	return move
}

// TestE2EKilledWhileThinking: the process that makes an owed move whose
// handler died edits that handler's answer, still "thinking…", into the
// board with the player's move and the bot's, as the handler would have
// answered (it posted a new message and left the player's own command
// thinking for ever: "The application did not respond"; then it said only
// the bot's move).
func TestE2EKilledWhileThinking(t *testing.T) {
	for _, where := range []string{"dm", "private"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			gina := e.d.NewUser("gina")
			ch := e.d.DM(gina)
			if where == "private" {
				ch, gina, _ = e.privateChannel()
			}
			move := e.killWhileThinking(ch, gina)
			var m discordtest.Message
			e.d.WaitFor("the move's answer", func() bool {
				var ok bool
				m, ok = e.d.Original(move)
				return ok && !m.Deferred
			})
			name := "gina"
			if where == "private" {
				name = "alice"
			}
			want := "\n⚫ " + name + " vs ⚪ gobot slow\n⚫ " + gina.Mention() + " played **E5**.\n⚪ gobot (slow) played **A9**.\n**Move 3** · ⚫ black to play: " + gina.Mention() +
				"\nLast move: ⚪ A9 · Captures: ⚫ 0 · ⚪ 0\n⏱ ⚫ 4 days · ⚪ 4 days · ⚫ black's time runs out <t:1749124800:R>\n" +
				"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · Fischer: 3 days, +1 day per move, at most 7 days"
			if _, board := m.PNG(); !board || m.Text() != want {
				t.Errorf("answer to the move (board %v) =\n%s\nwant\n%s", board, m.Text(), want)
			}
			if f := e.d.Followups(move); len(f) != 0 {
				t.Errorf("the bot's move was also posted as a follow-up: %q", f[0].Text())
			}
		})
	}
}

// TestE2EKilledWhileQueued: killed while two bot moves are owed against
// one search slot (one being made, one waiting and its player told its
// place in the queue): the next process makes both and turns each
// answer, the thinking one and the one with the queue notice, into the
// board with the bot's move, with no message of its own.
func TestE2EKilledWhileQueued(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sl := newSlotted(e.players, 1, time.Millisecond)
	var k *killable
	e.offer, e.workers = sl, 1
	e.wrapDiscord = func(d commands.Discord) commands.Discord {
		k = &killable{Discord: d}
		return k
	}
	e.restart()
	games := botQueueStart(t, e, 2)
	waiting := secondQueued(t, e, games)
	e.d.WaitFor("the queue notice", func() bool {
		m, ok := e.d.Original(waiting.it)
		return ok && m.Content == "⏳ The bots are all busy; gobot will move here as soon as one is free (number 1 in the queue)."
	})
	k.dead.Store(true) // kill -9
	e.stopWithin(time.Second)
	e.start()
	close(sl.hold)
	allMoved(t, e, games, 5*time.Minute)
	for _, g := range games {
		var m discordtest.Message
		e.d.WaitFor("the answer with the bot's move", func() bool {
			var ok bool
			m, ok = e.d.Original(g.it)
			return ok && !m.Deferred && m.Content == "" && len(m.Embeds) > 0
		})
		if want := "⚫ gobot (tester) played **A9**."; !strings.Contains(m.Text(), want) {
			t.Errorf("answer = %q, want the board with %q", m.Text(), want)
		}
		if f := e.d.Followups(g.it); len(f) != 0 {
			t.Errorf("the bot's move was also posted as a follow-up: %q", f[0].Text())
		}
	}
}

// botThinking starts a 9×9 game of gina's (Black) against the bot level
// in ch and plays E5, which the bot answers: it returns that move's
// interaction, deferred while the bot thinks.
func (e *env) botThinking(ch *discordtest.Channel, gina discordtest.User, level string) *discordtest.Interaction {
	e.t.Helper()
	if m := e.do(e.slash(ch, gina, "bot", discordtest.Str("level", level), discordtest.Int("size", 9), discordtest.Str("color", "black"))); m.Ephemeral {
		e.t.Fatalf("/go bot refused: %q", m.Text())
	}
	move := e.play(ch, gina, "E5")
	if r := e.d.Do(move); r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		e.t.Fatalf("/go play answered type %d, want a deferral while the bot thinks", r.Type)
	}
	return move
}
