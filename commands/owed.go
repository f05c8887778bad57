package commands

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/storage"
)

// OwedBoardGrace is how long the answer to a person's move has to show its
// board before the move is taken for unannounced: its process died between
// the commit and the answer (kill -9, a crash), and the deadline scheduler
// of any process posts the board instead. An answer takes a few seconds at
// most; a board posted after the grace by a slow answer is shown twice.
const OwedBoardGrace = 30 * time.Second

// OweBoard is the owed board a person's move about to be committed in g
// records with it (storage.OwedBoard): the move's answer, or any board
// after it, settles it; else the scheduler posts it at the grace's end
// (deliverOwed). The record costs nothing more than the move's own write.
// A move that hands the turn to a bot records none (UpdateGame drops it):
// the bot's move is owed in the queue, and its board is posted whoever
// makes it.
func (a *App) OweBoard(g *storage.Game) *storage.OwedBoard {
	return &storage.OwedBoard{Moves: g.State.MoveCount() + 1, After: NewestBoard(g), Due: a.Now().Add(OwedBoardGrace)}
}

// deliverOwed posts the board of g's owed board, due now: the move was
// committed, but no board was recorded after it, so its answer never
// reached Discord. The version-checked write that clears it decides who
// posts (one process, once); the board pings the player to move, as the
// move's answer would have, and when the move's command is still
// "thinking…" it becomes its answer. A board that was shown after all
// (recorded by a write read before it was settled), or a move since
// taken back, is only cleared. A board that cannot be posted marks the
// game Unposted, as a bot's move does.
func (a *App) deliverOwed(ctx context.Context, g *storage.Game) error {
	o := g.Delivery.Owed
	g.Delivery.Owed = nil
	shown := slices.ContainsFunc(g.Delivery.MessageIDs, o.Settles)
	if err := a.UpdateGame(ctx, g); err != nil {
		if errors.Is(err, ErrConflict) {
			return nil // someone else acted first: a move's answer shows the board
		}
		return err
	}
	if shown || o.Moves != g.State.MoveCount() {
		return nil
	}
	if m := a.answerShown(ctx, g); m != nil {
		// Its process died after Discord showed the answer, before it
		// recorded it: the board is there, and is only recorded.
		a.KeepBoardID(ctx, g, m)
		return nil
	}
	note := ""
	if ml, ok := a.roomOf(g).(moveLiner); ok {
		note = ml.MoveLine(g, o.Moves-1)
	}
	m, err := a.StateMessage(ctx, g, a.Now(), note)
	if err != nil {
		return err
	}
	log := a.log.With("channel", g.ChannelID, "game", g.ID, "moves", o.Moves)
	if err := a.postBoard(ctx, g, m, func() *Message { return m }); err != nil {
		// As for a bot's move (postBotMove): the next move's answer says
		// what was played.
		log.Warn("owed board: post the board of a move whose answer never reached Discord; the next answer in the game will say the move", "err", err)
		g.Delivery.Unposted = true
		if err := a.UpdateGame(ctx, g); err != nil {
			log.Warn("owed board: mark the move unposted", "err", err)
		}
		return nil
	}
	log.Info("owed board: posted the board of a move whose answer never reached Discord")
	return nil
}

// answerWindow is how long Discord waits for an interaction's first
// answer: a move's answer not begun by then never arrives.
const answerWindow = 3 * time.Second

// PlayedAlready answers r, a move refused with err because it is not its
// player's turn, when the refusal hides that the player's own move was
// played: the game's last move is theirs, made more than Discord's 3
// seconds ago, and its board is still owed (its process died before the
// answer; the player sends the move again). The answer is the board, with
// the move and a word that it was played, pinging the player to move as
// the move's answer would have; when the move's own command is still
// "thinking…", that answer becomes the board and r is told so. Any other
// refusal is err, as it was.
func (a *App) PlayedAlready(ctx context.Context, r *Request, g *storage.Game, err error) error {
	o := g.Delivery.Owed
	if !errors.Is(err, ErrNotYourTurn) || o == nil || o.Moves != g.State.MoveCount() || r.User == nil ||
		a.lastMover(g).UserID != r.User.ID || a.Now().Before(o.Due.Add(answerWindow-OwedBoardGrace)) {
		return err
	}
	line := ""
	if ml, ok := a.roomOf(g).(moveLiner); ok {
		line = ml.MoveLine(g, o.Moves-1)
	}
	if m := a.answerShown(ctx, g); m != nil {
		// The move's answer did show its board (its process died before
		// recording it): it is recorded, and the player pointed to it.
		a.KeepBoardID(ctx, g, m)
		return r.Reply(ctx, &Message{Content: Clip(strings.TrimSpace(line+" Your move was played already: its board is above."), 2000), Ephemeral: true, AllowedMentions: NoMentions()})
	}
	now := a.Now()
	if f := g.Delivery.Followup; f != nil && f.InteractionID != r.Interaction.ID && now.Sub(f.At) < tokenLifetime {
		m, err := a.StateMessage(ctx, g, now, line)
		if err != nil {
			return err
		}
		it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: g.ChannelID}
		if sent, ok := a.answerThinking(ctx, it, func() *Message { return m }); ok {
			a.KeepBoardID(ctx, g, sent)
			return r.Reply(ctx, &Message{Content: "Your move was played already: the answer to your first command, which was still thinking, now shows its board.", Ephemeral: true})
		}
	}
	m, err := a.StateMessage(ctx, g, now, strings.TrimSpace(line+"\n(Your move was played already, but its answer did not reach Discord.)"))
	if err != nil {
		return err
	}
	return a.ReplyBoard(ctx, r, g, m)
}

// answerShown is the answer Discord shows to the interaction g's last
// move was made by (its stored follow-up), when that answer is a board:
// the move's process answered and died before recording it. Nil when it
// is not (still "thinking…", never acknowledged, expired, a refusal).
func (a *App) answerShown(ctx context.Context, g *storage.Game) *discordgo.Message {
	f := g.Delivery.Followup
	if f == nil || a.Now().Sub(f.At) >= tokenLifetime {
		return nil
	}
	it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: g.ChannelID}
	orig, err := a.opts.Discord.Original(ctx, it)
	if err != nil || unanswered(orig) || len(orig.Attachments) == 0 {
		return nil
	}
	return orig
}
