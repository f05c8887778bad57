package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// A player's abort, as OGS allows it: either player, in a server as in
// DMs, until each player has made two moves. It asks to confirm; the game
// is then archived as aborted (result Void, annulled: never counted, never
// rated), with its record. After that point only resigning, the clock or
// a moderator (cmdAbort) ends a game. In a team game an abort is decided
// as a resignation is: the player to move aborts alone, and any other
// player votes; the game is aborted when more than half the people of
// the voter's team agree, before the next move.

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
// of the server (Manage Messages). Administrator counts as Manage Messages:
// Discord grants an Administrator every permission, and /go-admin lets
// them in.
func moderator(r *Request) bool {
	const mod = discordgo.PermissionManageMessages | discordgo.PermissionAdministrator
	m := r.Interaction.Member
	return m != nil && r.Interaction.GuildID != "" && m.Permissions&mod != 0
}

// tooLateToAbort is the refusal of a player's abort of g once each player
// has made two moves: each team, in a team game, whose players may each
// have made fewer. A player who is a moderator is told that their
// moderator's abort does not reach their own game.
func (a *App) tooLateToAbort(r *Request, g *storage.Game) error {
	who := "player"
	if g.Team() {
		who = "team"
	}
	msg := fmt.Sprintf("Each %s has made two moves, so the game can no longer be aborted: "+
		"resign (`/%s resign`) or play on; on a server, a moderator can still end a stuck game.", who, a.roomOf(g).Command())
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
	if err := a.InTeam(ctx, g, r); err != nil {
		return err
	}
	question, yes := fmt.Sprintf("Abort the game %s? It is recorded as aborted, with its record, and never rated; the channel is then free for a new game.", a.gameTitle(g)), "Yes, abort"
	if s, ok := g.SideOf(r.User.ID); ok && g.Team() && !toMove(g, r.User.ID) {
		v, need, people, err := a.abortVote(ctx, g, s)
		if err != nil {
			return err
		}
		question = fmt.Sprintf("Vote that %s abort the game %s? Yours would be vote %d of the %d needed (a majority of %s); the player to move aborts alone. An aborted game is recorded, with its record, and never rated.",
			a.sideLabel(g, s), a.gameTitle(g), len(v.Voters)+1, need, JoinNames(people, Mention))
		yes = "Yes, vote to abort"
	}
	return r.Reply(ctx, &Message{
		Content:   question,
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: yes, Style: discordgo.DangerButton, CustomID: a.buttonPrefix(g) + g.ID + "/abort-yes/" + fmt.Sprint(g.State.MoveCount())},
		}}},
		AllowedMentions: NoMentions(),
	})
}

// StillPlaying refuses u's vote for a team whose people (those who decide
// for it) u is not among: u is out of the game (out of time with a
// casual clock, or banned on the server).
func StillPlaying(people []storage.Player, u *discordgo.User) error {
	if slices.ContainsFunc(people, func(p storage.Player) bool { return p.UserID == u.ID }) {
		return nil
	}
	if len(people) == 0 {
		return UserErr(ErrNotPlayer, "You are out of this game, and so is the rest of your team.")
	}
	return UserErr(ErrNotPlayer, fmt.Sprintf("You are out of this game, so the rest of your team decides for it: %s.", JoinNames(people, Mention)))
}

// toMove reports whether user is the player to move in g.
func toMove(g *storage.Game, userID string) bool {
	s := g.State.ToMove()
	return s != game.NoSide && g.Player(s).UserID == userID
}

// OtherTeamVoting refuses a vote of side s's team to resign or to abort
// (what) while open, the other team's vote on it, is open at this move: a
// game holds one open vote of each kind (Game.ResignVote, AbortVote), and
// a new one dropped the other team's ballots unsaid. That vote lapses
// with the next move; the player to move acts for their team alone.
func OtherTeamVoting(g *storage.Game, open *storage.ResignVote, s game.Side, what string) error {
	if open == nil || open.Side == s || open.MoveCount != g.State.MoveCount() || len(open.Voters) == 0 {
		return nil
	}
	return UserErr(ErrBadOption, fmt.Sprintf("The other team is voting to %s (%s so far), which lapses with the next move: your team can vote to %s after that, or its player to move can %s for it at once.",
		what, Plural(len(open.Voters), "vote"), what, what))
}

// abortVote is side s's vote to abort g as it stands (a new one when none
// is open for s at this move), with the votes it needs: a majority of
// people, s's people who decide for it (Deciders: the ballots of players
// banned since they voted are dropped).
func (a *App) abortVote(ctx context.Context, g *storage.Game, s game.Side) (v *storage.ResignVote, need int, people []storage.Player, err error) {
	people, err = a.Deciders(ctx, g, s)
	if err != nil {
		return nil, 0, nil, err
	}
	v = g.AbortVote
	if v == nil || v.Side != s || v.MoveCount != g.State.MoveCount() {
		v = &storage.ResignVote{Side: s, MoveCount: g.State.MoveCount()}
	}
	v = &storage.ResignVote{Side: v.Side, MoveCount: v.MoveCount, Voters: Ballots(v.Voters, people)}
	return v, len(people)/2 + 1, people, nil
}

// Deciders returns the people of side s of team game g who decide for it
// (storage.Game.People) less those banned on its server: a banned player
// neither votes nor counts in the majority while a teammate not banned (a
// person or a bot) is left in the game to play for the team. When none is,
// the team's last players are not put out (the rengo room's skipBanned
// keeps them) and play on as a banned player does in a game of two: they
// move, resign, vote and answer the count, and Deciders returns them.
func (a *App) Deciders(ctx context.Context, g *storage.Game, s game.Side) ([]storage.Player, error) {
	var ps []storage.Player
	free := false // a player in the game not banned: a bot, or a person
	for _, p := range g.InGame(s) {
		if p.IsBot() {
			free = true
			continue
		}
		switch err := a.NotBanned(ctx, g.GuildID, p, false); {
		case errors.Is(err, ErrForbidden):
			continue
		case err != nil:
			return nil, err
		}
		free = true
		ps = append(ps, p)
	}
	if !free {
		return g.People(s), nil
	}
	return ps, nil
}

// Ballots returns the voters (user IDs) who are among people: the ballots
// that still count.
func Ballots(voters []string, people []storage.Player) []string {
	var kept []string
	for _, id := range voters {
		if slices.ContainsFunc(people, func(p storage.Player) bool { return p.UserID == id }) {
			kept = append(kept, id)
		}
	}
	return kept
}

// NotBannedInTeam refuses r's user, a player of team game g, when banned
// on its server while a teammate not banned can play for the team
// (Deciders): their move, abort, vote or scoring action is refused. A
// team's last players, all banned, play on as a banned player does in a
// game of two, and so does a banned player outside team games.
func (a *App) NotBannedInTeam(ctx context.Context, g *storage.Game, r *Request) error {
	s, plays := g.SideOf(r.User.ID)
	if !plays || !g.Team() {
		return nil
	}
	err := a.NotBanned(ctx, g.GuildID, UserPlayer(r.User), true)
	if err == nil || !errors.Is(err, ErrForbidden) {
		return err
	}
	people, derr := a.Deciders(ctx, g, s)
	if derr != nil {
		return derr
	}
	if slices.ContainsFunc(people, func(p storage.Player) bool { return p.UserID == r.User.ID }) {
		return nil // the team's last: they play on
	}
	return err
}

// InTeam refuses r's user, a player of team game g, who no longer acts
// for their team: one banned on its server (NotBannedInTeam), or one out
// of the game, out of time with a casual clock (StillPlaying: the rest of
// the team decides for it). Their abort, vote to resign or scoring action
// is refused as their move or resignation is. Outside team games nobody
// is refused here.
func (a *App) InTeam(ctx context.Context, g *storage.Game, r *Request) error {
	if err := a.NotBannedInTeam(ctx, g, r); err != nil {
		return err
	}
	s, plays := g.SideOf(r.User.ID)
	if !plays || !g.Team() {
		return nil
	}
	people, err := a.Deciders(ctx, g, s)
	if err != nil {
		return err
	}
	return StillPlaying(people, r.User)
}

// voteAbort counts r's user's vote that their team abort g (a team game,
// the user not to move): the game is aborted when a majority of the team
// agrees.
func (a *App) voteAbort(ctx context.Context, r *Request, g *storage.Game) error {
	s, _ := g.SideOf(r.User.ID)
	if err := OtherTeamVoting(g, g.AbortVote, s, "abort"); err != nil {
		return err
	}
	v, need, people, err := a.abortVote(ctx, g, s)
	if err != nil {
		return err
	}
	if err := StillPlaying(people, r.User); err != nil {
		return err
	}
	if slices.Contains(v.Voters, r.User.ID) {
		return UserErr(ErrBadOption, fmt.Sprintf("You have already voted to abort: %d of the %d votes needed so far.", len(v.Voters), need))
	}
	v = &storage.ResignVote{Side: s, MoveCount: v.MoveCount, Voters: append(slices.Clone(v.Voters), r.User.ID)}
	if len(v.Voters) >= need {
		var voters []storage.Player
		for _, id := range v.Voters {
			if i := slices.IndexFunc(g.TeamOf(s), func(p storage.Player) bool { return p.UserID == id }); i >= 0 {
				voters = append(voters, g.TeamOf(s)[i])
			}
		}
		return a.abortBy(ctx, r, g, s, voters)
	}
	g.AbortVote = v
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	var ids []string
	for _, p := range people {
		ids = append(ids, p.UserID)
	}
	sent, err := r.ReplyMessage(ctx, &Message{
		Content: fmt.Sprintf("🚫 %s votes that %s abort the game: %d of the %d votes needed (a majority of %s). Teammates who agree: `/%s abort`, before the next move.",
			Mention(UserPlayer(r.User)), a.sideLabel(g, s), len(v.Voters), need, JoinNames(people, Mention), a.roomOf(g).Command()),
		AllowedMentions: OnlyUsers(ids...),
	})
	if err != nil {
		return err
	}
	a.KeepTeamVoteMessage(ctx, r, g, true, *v, sent)
	return nil
}

// KeepTeamVoteMessage records sent (or r's original answer, when Discord
// said nothing back), the message announcing r's user's ballot in v, team
// game g's vote to resign (to abort, with abort), with the vote
// (storage.AddTeamVoteMessage), so that the move that lapses it says so on
// it, on whichever worker (LapseTeamVotes). The message is posted after
// the ballot is written, so the vote may have lapsed already, by a write
// that knew no message: then the game, read again, says why, and the
// message says so here. (A vote gone with its game, ended or aborted, is
// left as it is: it may be the vote that ended it; a vote the game still
// held when it ended lapses with it, finishGame.)
func (a *App) KeepTeamVoteMessage(ctx context.Context, r *Request, g *storage.Game, abort bool, v storage.ResignVote, sent *discordgo.Message) {
	if sent == nil || sent.ID == "" {
		sent, _ = r.Original(ctx)
	}
	if sent != nil && sent.ID != "" {
		a.keepTeamVote(ctx, g, abort, v, sent.ID)
	}
}

// teamVoteAnnounced reads a message announcing a ballot of a team vote
// (voteAbort's, goroom's voteResign's): the voter, and whether the vote
// is to abort.
var teamVoteAnnounced = regexp.MustCompile(`^(?:🏳️|(🚫)) <@(\d+)> votes that .+ (?:resign|abort the game): \d+ of the \d+ votes needed`)

// KeepPostedTeamVote records m, posted for team game g, when it announces
// a ballot of g's open vote to resign or to abort: a ballot cast on the
// board page, whose message is posted after its handler returned
// (KeepTeamVoteMessage knew no ID then).
func (a *App) KeepPostedTeamVote(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	if !g.Team() || m == nil || m.ID == "" {
		return
	}
	q := teamVoteAnnounced.FindStringSubmatch(m.Content)
	if q == nil {
		return
	}
	abort, v := q[1] != "", g.ResignVote
	if abort {
		v = g.AbortVote
	}
	if v != nil && slices.Contains(v.Voters, q[2]) {
		a.keepTeamVote(ctx, g, abort, *v, m.ID)
	}
}

// keepTeamVote records message id with team vote v of g (KeepTeamVoteMessage).
func (a *App) keepTeamVote(ctx context.Context, g *storage.Game, abort bool, v storage.ResignVote, id string) {
	err := a.games.AddTeamVoteMessage(ctx, g.ChannelID, g.ID, abort, v, id)
	if !errors.Is(err, storage.ErrNotFound) {
		if err != nil {
			a.log.Warn("team vote: record its message", "game", g.ID, "err", err)
		}
		return
	}
	now, err := a.games.Game(ctx, g.ChannelID)
	if err != nil || now.ID != g.ID {
		return
	}
	if why := teamVoteLapse(now, v); why != "" {
		a.closeTeamVote(ctx, now, abort, v, id, why)
	}
}

// LapseTeamVotes says on the messages of the team votes that g's last
// write dropped (storage.Game.LapsedVotes: the next move lapses them, and
// so does the end of the game) that they lapsed, and why: why when not
// empty, else as g now stands (teamVoteLapse). decided, when set, is the
// vote that the write carried out (the team resigned or aborted by its
// votes), whose messages stay as they are.
func (a *App) LapseTeamVotes(ctx context.Context, g *storage.Game, decided *storage.LapsedVote, why string) {
	for _, lv := range g.LapsedVotes {
		if decided != nil && lv.Abort == decided.Abort && lv.Vote.Side == decided.Vote.Side && lv.Vote.MoveCount == decided.Vote.MoveCount {
			continue
		}
		why := why
		if why == "" {
			why = teamVoteLapse(g, lv.Vote)
		}
		for _, id := range lv.Vote.Messages {
			a.closeTeamVote(ctx, g, lv.Abort, lv.Vote, id, why)
		}
	}
}

// teamVoteLapse says why team vote v of g lapsed, as g now stands: the
// game ended, or a move was played since (by whom, when g knows); "" when
// neither.
func teamVoteLapse(g *storage.Game, v storage.ResignVote) string {
	if _, over := g.State.Result(); over {
		return "the game ended."
	}
	if g.State.MoveCount() <= v.MoveCount {
		return ""
	}
	if v.MoveCount < len(g.Movers) {
		if i := slices.IndexFunc(g.Players(), func(p storage.Player) bool { return p.Key() == g.Movers[v.MoveCount] }); i >= 0 {
			return Mention(g.Players()[i]) + " played."
		}
	}
	return "a move was played since."
}

// closeTeamVote edits id, a message announcing a ballot of team vote v of
// g (to abort, with abort), to say that the vote lapsed, and why.
func (a *App) closeTeamVote(ctx context.Context, g *storage.Game, abort bool, v storage.ResignVote, id, why string) {
	if why == "" {
		return
	}
	what := "resign"
	if abort {
		what = "abort the game"
	}
	m := &Message{Content: fmt.Sprintf("⌛ The vote that %s %s lapsed: %s", a.sideLabel(g, v.Side), what, why), AllowedMentions: NoMentions()}
	if err := a.opts.Discord.EditMessage(ctx, g.ChannelID, id, m); err != nil {
		a.log.Info("team vote: say it lapsed", "game", g.ID, "err", err)
	}
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
	if err := a.InTeam(ctx, g, r); err != nil {
		return err
	}
	if g.Team() && !toMove(g, r.User.ID) {
		return a.voteAbort(ctx, r, g)
	}
	s, _ := g.SideOf(r.User.ID)
	return a.abortBy(ctx, r, g, s, []storage.Player{UserPlayer(r.User)})
}

// abortBy archives g as aborted by players of side s: one player, or the
// majority of a team that voted for it.
func (a *App) abortBy(ctx context.Context, r *Request, g *storage.Game, s game.Side, by []storage.Player) error {
	who, names, when := Mention(by[0]), PlainName(by[0]), "after "+a.movesText(g.Kind, g.State.MoveCount())
	if len(by) > 1 {
		who = fmt.Sprintf("%s (%s)", a.sideLabel(g, s), JoinNames(g.TeamOf(s), Mention))
		names = fmt.Sprintf("the votes of %s (%s)", JoinAnd(by, PlainName), a.sideLabel(g, s))
		when += ", by the votes of " + JoinAnd(by, Mention)
	}
	// The rule counts each side's moves: a team's in team play.
	each := "each player"
	if g.Team() {
		each = "each team"
	}
	comment := fmt.Sprintf("Aborted by %s before %s had made %d moves: recorded, never rated.", names, each, abortMoves)
	e := storage.AuditEntry{GuildID: g.GuildID, By: UserPlayer(r.User), Action: storage.AuditAbort, Target: g.ID,
		Before: fmt.Sprintf("in play after %s", a.movesText(g.Kind, g.State.MoveCount())), After: "Void (aborted by a player)"}
	var decided *storage.LapsedVote // the team's vote that this abort carries out
	if len(by) > 1 && g.AbortVote != nil {
		decided = &storage.LapsedVote{Abort: true, Vote: *g.AbortVote}
	}
	if err := a.voidGame(withAudit(ctx, e), g, comment, false, decided); err != nil {
		return err
	}
	a.log.Info("game aborted by a player", "game", g.ID, "by", r.User.ID, "plies", g.State.MoveCount())
	a.disableBoards(ctx, g, !botToMove(g))
	players, told := a.playersTold(g, by...)
	return r.Reply(ctx, &Message{
		Content: fmt.Sprintf("🚫 %s aborted the game %s %s, before %s had made %d moves: it is recorded as aborted (%s) and never rated. The channel is free for a new game.",
			who, players, when, each, abortMoves, a.recordHint(g.Kind, g.ID)),
		AllowedMentions: told,
	})
}

// playersTold names g's players as a game's line does ("⚫ @ann vs ⚪
// @bob") for a note that ends g without a move of theirs (an abort, an
// admin's decision), and the mentions that notify them, all but those
// who acted (by): in a correspondence game nobody may be watching.
func (a *App) playersTold(g *storage.Game, by ...storage.Player) (string, *discordgo.MessageAllowedMentions) {
	players, _, _ := a.roomOf(g).Line(g)
	var ids []string
	for s := range g.Sides {
		for _, p := range g.TeamOf(game.Side(s)) {
			acted := slices.ContainsFunc(by, func(b storage.Player) bool { return b.UserID == p.UserID })
			if !p.IsBot() && p.UserID != "" && !acted {
				ids = append(ids, p.UserID)
			}
		}
	}
	return players, OnlyUsers(ids...)
}
