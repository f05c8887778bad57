package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/storage"
)

// A player's abort, as OGS allows it: either player, in a server as in
// DMs, until each player has made two moves. It asks to confirm; the game
// is then archived as aborted (result Void, annulled: never counted, never
// rated), with its record. After that point only resigning, the clock or
// a moderator (cmdAbort) ends a game.

// abortMoves is how many moves of their own each player must have made
// (passes included) before the game can no longer be aborted by a player.
const abortMoves = 2

// buttonPrefix is how the custom IDs of g's buttons begin: "game/" for
// Go's, "draughts/" for draughts'.
func (a *App) buttonPrefix(g *storage.Game) string { return a.roomOf(g).ButtonPrefix() }

// earlyAbort reports whether a player may still abort g: one of the
// players has made fewer than abortMoves moves.
func (a *App) earlyAbort(g *storage.Game) bool {
	return a.ownMoves(g, 0) < abortMoves || a.ownMoves(g, 1) < abortMoves
}

// moderator reports whether r comes from a member who may abort any game
// of the server (Manage Messages).
func moderator(r *Request) bool {
	m := r.Interaction.Member
	return m != nil && r.Interaction.GuildID != "" && m.Permissions&discordgo.PermissionManageMessages != 0
}

// tooLateToAbort is the refusal of a player's abort of g once each player
// has made two moves. A player who is a moderator is told that their
// moderator's abort does not reach their own game.
func (a *App) tooLateToAbort(r *Request, g *storage.Game) error {
	msg := fmt.Sprintf("Each player has made two moves, so the game can no longer be aborted: "+
		"resign (`/%s resign`) or play on; on a server, a moderator can still end a stuck game.", a.roomOf(g).Command())
	if moderator(r) {
		msg += " You play in this game, so that must be another moderator, not you."
	}
	return UserErr(ErrForbidden, msg)
}

// askAbort asks a player to confirm the abort of g, or refuses it when
// each player has made two moves.
func (a *App) askAbort(ctx context.Context, r *Request, g *storage.Game) error {
	if _, over := g.State.Result(); over {
		return ErrGameOver
	}
	if !a.earlyAbort(g) {
		return a.tooLateToAbort(r, g)
	}
	return r.Reply(ctx, &Message{
		Content:   fmt.Sprintf("Abort the game %s? It is recorded as aborted, with its record, and never rated; the channel is then free for a new game.", a.gameTitle(g)),
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Yes, abort", Style: discordgo.DangerButton, CustomID: a.buttonPrefix(g) + g.ID + "/abort-yes/" + fmt.Sprint(g.State.MoveCount())},
		}}},
		AllowedMentions: NoMentions(),
	})
}

// PlayerAbort archives g as aborted once a player has confirmed (the
// button checks that no move was played since it was offered).
func (a *App) PlayerAbort(ctx context.Context, r *Request, g *storage.Game) error {
	if err := a.IsPlayer(g, r.User); err != nil {
		return err
	}
	if _, over := g.State.Result(); over {
		return ErrGameOver
	}
	if !a.earlyAbort(g) {
		return a.tooLateToAbort(r, g)
	}
	by := UserPlayer(r.User)
	comment := fmt.Sprintf("Aborted by %s before each player had made %d moves: recorded, never rated.", PlainName(by), abortMoves)
	e := storage.AuditEntry{GuildID: g.GuildID, By: by, Action: storage.AuditAbort, Target: g.ID,
		Before: fmt.Sprintf("in play after %s", Plural(g.State.MoveCount(), "move")), After: "Void (aborted by a player)"}
	if err := a.voidGame(withAudit(ctx, e), g, comment, false); err != nil {
		return err
	}
	a.log.Info("game aborted by a player", "game", g.ID, "by", r.User.ID, "moves", g.State.MoveCount())
	a.disableBoards(ctx, g, !botToMove(g))
	return r.Reply(ctx, &Message{
		Content: fmt.Sprintf("🚫 %s aborted the game %s after %s, before each player had made %d moves: it is recorded as aborted (%s) and never rated. The channel is free for a new game.",
			Mention(by), a.gameTitle(g), Plural(g.State.MoveCount(), "move"), abortMoves, a.recordHint(g.Kind, g.ID)),
		AllowedMentions: NoMentions(),
	})
}
