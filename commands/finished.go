package commands

import (
	"context"
	"errors"
	"strings"
)

// CmdBoardHere is /go board and /draughts board: the game in play in this
// channel (CmdBoard), or else the last game of the command's kind finished
// here (lastOfCommand), with its final position and result, to everyone
// (a player of a game in a thread of this channel is also told where that
// game is: it is not this board); or,
// where no game was ever finished, the threads of it where the user plays
// (inThread), or the answer that there is no game here, saying so when a
// challenge here is open. The thread came first once, and hid the game
// just finished here from its own players.
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
	games, lerr := a.archive.ChannelGames(ctx, r.Interaction.ChannelID, lastGamesLooked)
	if lerr != nil || len(games) == 0 {
		mine := a.userGames(ctx, r)
		if err := inThread(threadsOf(mine, r.Interaction.ChannelID)); err != nil {
			return err
		}
		if cerr := a.openChallenge(ctx, r); cerr != nil {
			return cerr
		}
		if where := a.gamesElsewhere(r, a.commandRoom(r), mine); where != "" {
			return UserErr(ErrNoGame, "There is no game in this channel. "+where)
		}
		return a.noGameHere(r, a.commandRoom(r), mine)
	}
	// The board here, as /go board shows a game of draughts in play: the
	// newest of any kind when none is of the command's.
	last, lerr := a.lastOfCommand(r, games)
	if lerr != nil {
		last = games[0]
	}
	arc, aerr := a.archivedGame(ctx, r, last.ID)
	if aerr != nil {
		return aerr
	}
	m, merr := a.RoomOfKind(arc.Kind).Finished(arc)
	if merr != nil {
		return merr
	}
	if where := threadsNote(a.userThreads(ctx, r)); where != "" {
		m.Content = strings.TrimSpace(where + "\n" + m.Content)
	}
	m.AllowedMentions = NoMentions() // a board asked for pings nobody (CmdBoard)
	return r.Reply(ctx, m)
}

// threadsNote says where the games in play of the user of a command are,
// threads (as mentions) of the channel it was sent in, beside the last
// game finished in that channel: "Your game in play is in this channel's
// thread #…."; "" when there are none.
func threadsNote(threads []string) string {
	switch len(threads) {
	case 0:
		return ""
	case 1:
		return "Your game in play is in this channel's thread " + threads[0] + "."
	}
	return "Your games in play are in this channel's threads " + joinAnd(threads) + "."
}
