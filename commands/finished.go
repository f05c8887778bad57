package commands

import (
	"context"
	"errors"
)

// CmdBoardHere is /go board and /draughts board: the game in play in this
// channel (CmdBoard); when none is, the threads of it where the user plays
// (inThread), or else the last game finished here, with its final position
// and result. A channel where no game was ever finished keeps the answer
// that there is no game here, saying so when a challenge here is open.
func (a *App) CmdBoardHere(ctx context.Context, r *Request) error {
	g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
	if err == nil {
		return a.CmdBoard(ctx, r, g)
	}
	if !errors.Is(err, ErrNoGame) {
		return err
	}
	if og := a.followConsole(ctx, r); og != nil {
		return a.CmdBoard(ctx, r, og)
	}
	if err := a.inThread(ctx, r); err != nil {
		return err
	}
	games, lerr := a.archive.ChannelGames(ctx, r.Interaction.ChannelID, 1)
	if lerr != nil || len(games) == 0 {
		if cerr := a.openChallenge(ctx, r); cerr != nil {
			return cerr
		}
		return err
	}
	arc, aerr := archivedGame(ctx, a.archive, r, games[0].ID)
	if aerr != nil {
		return aerr
	}
	m, merr := a.RoomOfKind(arc.Kind).Finished(arc)
	if merr != nil {
		return merr
	}
	m.AllowedMentions = NoMentions() // a board asked for pings nobody (CmdBoard)
	return r.Reply(ctx, m)
}
