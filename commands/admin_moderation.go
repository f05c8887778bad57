package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Moderation: /go-admin adjudicate and annul decide games, /go-admin ban
// and unban keep a player out, and a moderator's /go abort ends a game in
// play. Each keeps the game's record and leaves an entry in the server's
// log, with the reason.

// gameIDOption reads game: as a game's ID.
func gameIDOption(r *Request) string {
	id, _ := r.String("game")
	return strings.Trim(strings.TrimSpace(id), "`")
}

// noGameHere refuses a game ID that names no game of this server, in play
// or finished (another server's games included).
func noGameHere(id string) error {
	return UserErr(ErrNoGame, fmt.Sprintf("There is no game %s on this server: `/go-admin games` lists the games in play, `/go history` the finished ones.", Quote(id)))
}

// adminWithdraw withdraws c, a challenge, open challenge or rengo lobby of
// r's server whose ID an admin gave /go-admin adjudicate (result annul:
// there is no game to award), with reason: it is deleted with its log
// entry in one transaction (not while an Accept or a Start holds it), and
// its message is closed saying by whom and why. An abusive challenge had
// no other way out than banning its author.
func (a *App) adminWithdraw(ctx context.Context, r *Request, c *storage.Challenge, result, reason string) error {
	a1, what, by := challengeKind(c)
	if result != "annul" {
		return UserErr(ErrBadOption, fmt.Sprintf("`%s` is %s %s %s, not a game in play: `result:annul` withdraws it.", c.ID, a1, what, by))
	}
	if c.Expired(a.Now()) {
		return UserErr(ErrNoChallenge, fmt.Sprintf("The %s `%s` %s has expired: there is nothing left to withdraw.", what, c.ID, by))
	}
	gone := fmt.Sprintf("The %s `%s` was answered or withdrawn meanwhile.", what, c.ID)
	release, err := a.HoldChallenge(ctx, r, c.ID, HoldWithdraw, challengeBusy(HoldWithdraw), gone)
	if err != nil {
		return err
	}
	defer release()
	e := withdrawEntry(r, c, reason)
	switch err := a.challenges.DeleteChallenge(storage.WithAudit(ctx, e), c.ID); {
	case errors.Is(err, storage.ErrNotFound):
		return UserErr(ErrNoChallenge, gone)
	case err != nil:
		return err
	}
	a.log.Info("challenge withdrawn by an admin", "challenge", c.ID, "guild", c.GuildID, "by", r.User.ID)
	done := "Withdrawn"
	if c.Team() {
		done = "Called off"
	}
	a.closeChallengeMessage(ctx, c, fmt.Sprintf("🚫 %s by %s, an admin of this server. Reason: %s", done, Mention(UserPlayer(r.User)), reason))
	return adminReply(ctx, r, fmt.Sprintf("🚫 %s: the %s `%s` %s in <#%s>; its message says so. Reason: %s", done, what, c.ID, by, c.ChannelID, reason))
}

// challengeKind says what c is, with its article (a challenge, an open
// challenge, a rengo lobby), and whose it is.
func challengeKind(c *storage.Challenge) (a1, what, by string) {
	switch {
	case c.Team():
		return "a", "rengo lobby", "opened by " + Mention(c.Challenger)
	case c.Open():
		return "an", "open challenge", "by " + Mention(c.Challenger)
	}
	return "a", "challenge", fmt.Sprintf("by %s to %s", Mention(c.Challenger), Mention(c.Opponent))
}

// withdrawEntry is the log entry of challenge c withdrawn by r's admin
// for reason: its own, or their ban of its challenger or opponent.
func withdrawEntry(r *Request, c *storage.Challenge, reason string) storage.AuditEntry {
	_, what, by := challengeKind(c)
	e := audit(r, storage.AuditWithdraw, c.ID, reason)
	e.Before, e.After = fmt.Sprintf("%s %s in <#%s>", what, by, c.ChannelID), "withdrawn"
	return e
}

func (a *App) adminAdjudicate(ctx context.Context, r *Request) error {
	id, guild := gameIDOption(r), r.Interaction.GuildID
	reason, err := reasonOption(r)
	if err != nil {
		return err
	}
	result, _ := r.String("result")
	switch result {
	case "black", "white", "annul":
	default:
		return UserErr(ErrBadOption, fmt.Sprintf("The result is black, white or annul, not %s.", Quote(result)))
	}
	g, err := a.admin.GuildGame(ctx, guild, id)
	if errors.Is(err, storage.ErrNotFound) {
		if c, cerr := a.challenges.Challenge(ctx, id); cerr == nil && c.GuildID == guild {
			return a.adminWithdraw(ctx, r, c, result, reason)
		}
		if arc, aerr := a.archive.ArchivedGame(ctx, id); aerr == nil && arc.GuildID == guild {
			return UserErr(ErrGameOver, fmt.Sprintf("The game `%s` is over (%s): `/go-admin annul` takes a finished game out of the statistics and ratings.", arc.ID, a.resultText(arc)))
		}
		return noGameHere(id)
	}
	if err != nil {
		return err
	}
	if _, plays := g.SideOf(r.User.ID); plays {
		return UserErr(ErrForbidden, fmt.Sprintf("You play in the game `%s` (%s), so you cannot decide it: another admin of this server must.", g.ID, a.gameTitle(g)))
	}
	if _, over := g.State.Result(); over {
		return ErrGameOver
	}
	moves, by, pending := g.State.MoveCount(), UserPlayer(r.User), botToMove(g)
	e := audit(r, storage.AuditAdjudicate, g.ID, reason)
	e.Before, e.After = fmt.Sprintf("in play after %s", a.movesText(g.Kind, moves)), "Void"
	if result == "annul" {
		comment := fmt.Sprintf("Annulled by %s, an admin of the server, after %s: recorded, never rated. Reason: %s", PlainName(by), a.movesText(g.Kind, moves), reason)
		if err := a.voidGame(withAudit(ctx, e), g, comment, true, nil); err != nil {
			return err
		}
	} else {
		side := game.NoSide // the side result names ("⚫ black"), in g's kind's order
		for s := range g.Sides {
			if f := strings.Fields(a.sideLabel(g, game.Side(s))); len(f) == 2 && f[1] == result {
				side = game.Side(s)
			}
		}
		st, err := g.State.End(game.Result{Winner: side, Reason: game.ByForfeit})
		if err != nil {
			return err
		}
		g.State = st
		if rr, _ := g.State.Result(); rr.Text != "" {
			e.After = rr.Text
		}
		// Rated as any game ending so would be (rated:, the short-game
		// and handicap rules, the server's rating settings), but in this
		// server's pool only: its admins decide for their server, not
		// for the global ratings (storage.Archived.Adjudicated).
		decided := fmt.Sprintf("Decided by %s, an admin of the server, after %s: %s wins by forfeit. Reason: %s", PlainName(by), a.movesText(g.Kind, moves), result, reason)
		if err := a.archiveGameAt(withAudit(ctx, e), g, false, decided, a.Now(), true); err != nil {
			return err
		}
	}
	res := e.After
	a.log.Info("game adjudicated by an admin", "game", g.ID, "guild", guild, "by", r.User.ID, "result", res)
	players, pinged := a.playersTold(g, by)
	note := fmt.Sprintf("⚖️ %s, an admin of this server, decided the game %s after %s: **%s wins** by forfeit (%s). Reason: %s",
		Mention(by), players, a.movesText(g.Kind, moves), strings.ToUpper(result[:1])+result[1:], res, reason)
	if result == "annul" {
		note = fmt.Sprintf("⚖️ %s, an admin of this server, annulled the game %s after %s: it is recorded as annulled (%s) and never rated. Reason: %s\nThe channel is free for a new game.",
			Mention(by), players, a.movesText(g.Kind, moves), a.recordHint(g.Kind, g.ID), reason)
	} else if rn := a.RatingNote(ctx, g); rn != "" {
		note += "\n" + rn
	}
	a.disableBoards(ctx, g, !pending)
	told := "its channel was told"
	if err := a.PostBoard(ctx, g, &Message{Content: Clip(note, 2000), AllowedMentions: pinged}); err != nil {
		a.log.Warn("adjudicate: tell the channel", "game", g.ID, "err", err)
		told = "its channel could not be told (" + whyUntold(err) + ")"
	}
	return adminReply(ctx, r, fmt.Sprintf("Done: the game `%s` (%s) is recorded as %s, and %s.", g.ID, a.gameTitle(g), res, told))
}

// voidGame archives a game in play as void (annulled by an admin, aborted
// by a moderator or by a player; annulled says which): recorded with comment at the root of its
// record (SGF or PDN), never rated; with ctx from withAudit, logged in the
// same write. decided is the team's vote to abort that this carries out,
// if any (finishGame).
func (a *App) voidGame(ctx context.Context, g *storage.Game, comment string, annulled bool, decided *storage.LapsedVote) error {
	arc, err := a.archiveEntry(g, true, comment, "")
	if err != nil {
		return err
	}
	arc.Result, arc.Rated, arc.AnnulledInPlay = "Void", false, annulled
	why := "the game was aborted."
	if annulled {
		why = "an admin annulled the game."
	}
	return a.finishGame(ctx, g, arc, decided, why)
}

// withAudit returns ctx carrying e, the log entry of an action that
// finishes a game, for the one write that archives the game
// (storage.WithAudit: the entry is committed with it or not at all); a
// game in a DM has no server, and so no log.
func withAudit(ctx context.Context, e storage.AuditEntry) context.Context {
	if e.GuildID == "" {
		return ctx
	}
	return storage.WithAudit(ctx, e)
}

func (a *App) adminAnnul(ctx context.Context, r *Request) error {
	id, guild := gameIDOption(r), r.Interaction.GuildID
	reason, err := reasonOption(r)
	if err != nil {
		return err
	}
	arc, err := a.archive.ArchivedGame(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && arc.GuildID != guild) {
		if _, gerr := a.admin.GuildGame(ctx, guild, id); gerr == nil {
			return UserErr(ErrBadOption, fmt.Sprintf("The game `%s` is still in play: `/go-admin adjudicate` decides or annuls it.", id))
		}
		return noGameHere(id)
	}
	if err != nil {
		return err
	}
	if _, played := arc.SideOf(UserPlayer(r.User).Key()); played {
		return UserErr(ErrForbidden, fmt.Sprintf("You played in the game `%s` (%s, %s), so you cannot annul it: another admin of this server must.",
			arc.ID, a.titleOf(arc), a.resultCounted(arc)))
	}
	if arc.Annulled {
		return a.notCounted(arc)
	}
	// Recomputing a large pool takes a moment.
	if err := r.Defer(ctx, true); err != nil {
		return err
	}
	e := audit(r, storage.AuditAnnul, arc.ID, reason)
	e.Before, e.After = a.resultText(arc), a.resultText(arc)+", annulled"
	if arc.Rated {
		e.Before += ", rated"
	}
	// The record says so at its root, as an adjudication's does.
	note := fmt.Sprintf("Annulled by %s, an admin of the server, on %s, after the game ended %s: not counted in statistics or ratings. Reason: %s",
		PlainName(UserPlayer(r.User)), a.Now().UTC().Format(time.DateOnly), a.resultText(arc), reason)
	record, err := a.RoomOfKind(arc.Kind).MarkRecord(arc, note)
	if err != nil {
		a.log.Warn("annul: mark the record; annulled without the note", "game", arc.ID, "err", err)
		record = nil
	}
	out, err := a.admin.AnnulGame(ctx, guild, arc.ID, record, e)
	switch {
	case errors.Is(err, storage.ErrAnnulled):
		return a.notCounted(arc)
	case errors.Is(err, storage.ErrNotFound):
		return noGameHere(id)
	case err != nil:
		return err
	}
	a.log.Info("finished game annulled by an admin", "game", out.ID, "guild", guild, "by", r.User.ID, "was rated", arc.Rated)
	players := a.titleOf(out)
	done := fmt.Sprintf("Annulled the game `%s` (%s, %s): its record stays, marked annulled, and it no longer counts in anyone's statistics.", out.ID, players, a.resultText(arc))
	if arc.Rated {
		done += " The ratings it counted in were recomputed without it, game by game, as `gobot ratings rebuild` would."
	}
	m := &Message{Content: Clip(fmt.Sprintf("⚖️ %s, an admin of this server, annulled the finished game %s (%s, `%s`): it no longer counts in statistics or ratings. Reason: %s",
		Mention(UserPlayer(r.User)), players, a.resultText(arc), out.ID, reason), 2000), AllowedMentions: NoMentions()}
	told := " Its channel was told."
	if _, err := a.opts.Discord.SendMessage(ctx, out.ChannelID, m); err != nil {
		a.log.Warn("annul: tell the game's channel", "game", out.ID, "err", err)
		told = " Its channel could not be told (" + whyUntold(err) + ")."
	}
	return adminReply(ctx, r, done+told)
}

// notCounted refuses to annul arc, a game that counts nowhere already:
// annulled (by an admin, or on time before the player who ran out had
// made two moves), or aborted, which the history calls it.
func (a *App) notCounted(arc *storage.Archived) error {
	if arc.Result == "Void" && !arc.AnnulledInPlay {
		return UserErr(ErrBadOption, fmt.Sprintf("The game `%s` (%s) was aborted: it is recorded as Void and counts in no statistics or ratings, so there is nothing to annul.", arc.ID, a.titleOf(arc)))
	}
	return UserErr(ErrBadOption, fmt.Sprintf("The game `%s` is annulled already.", arc.ID))
}

// banUntil says how long a ban lasts.
func banUntil(b *storage.Ban) string {
	if b.Until.IsZero() {
		return "until an admin lifts it"
	}
	return fmt.Sprintf("until <t:%d:f>", b.Until.Unix())
}

func (a *App) adminBan(ctx context.Context, r *Request) error {
	u, ok := r.UserOption("user")
	if !ok {
		return UserErr(ErrBadOption, "Choose who to ban with `user:`.")
	}
	days, limited, err := r.Int("days")
	if err != nil {
		return err
	}
	if limited && (days < 1 || days > maxBanDays) {
		return UserErr(ErrBadOption, fmt.Sprintf("A ban lasts from 1 to %d days, not %d; leave `days:` out for a ban until you lift it.", maxBanDays, days))
	}
	reason, err := reasonOption(r)
	if err != nil {
		return err
	}
	target := UserPlayer(u)
	switch {
	case u.ID == a.opts.AppID || u.ID == r.Interaction.AppID:
		return UserErr(ErrBadOption, "I cannot ban myself. To keep games out of some channels, set `/go-admin settings set setting:channels`; to remove gobot, kick it from the server.")
	case u.Bot:
		return UserErr(ErrBadOption, fmt.Sprintf("%s is a bot account and cannot play, so there is nothing to ban.", Mention(target)))
	case u.ID == r.User.ID:
		return UserErr(ErrBadOption, "You cannot ban yourself.")
	case targetIsAdmin(r, u.ID):
		return UserErr(ErrForbidden, fmt.Sprintf("%s is an admin of this server (Manage Server), and admins cannot be banned from gobot.", Mention(target)))
	}
	// Withdrawing the player's challenges may wait for an Accept that
	// holds one (withdrawChallenge), longer than Discord waits for a first
	// answer.
	if err := r.Defer(ctx, true); err != nil {
		return err
	}
	guild, now := r.Interaction.GuildID, a.Now()
	b := storage.Ban{GuildID: guild, User: target, Reason: reason, By: UserPlayer(r.User), At: now}
	if limited {
		b.Until = now.Add(time.Duration(days) * 24 * time.Hour)
	}
	old, err := a.putBan(ctx, r, b)
	if err != nil {
		return err
	}
	a.log.Info("user banned on a server", "guild", guild, "user", u.ID, "by", r.User.ID, "until", b.Until)
	msg := fmt.Sprintf("🚫 %s is banned from gobot on this server %s: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: %s",
		Mention(target), banUntil(&b), reason)
	if old != nil {
		// The new ban replaces the one in force (an admin may shorten
		// a ban on purpose), and says which: on a server with several
		// admins, another's ban until lifted must not become a few
		// days' unnoticed.
		msg = fmt.Sprintf("🚫 %s was already banned from gobot on this server %s (by %s <t:%d:f> — %s); the ban is now %s: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: %s",
			Mention(target), banUntil(old), Mention(old.By), old.At.Unix(), old.Reason, banUntil(&b), reason)
	}
	games, err := a.games.PlayerActiveGames(ctx, u.ID)
	if err != nil && len(games) == 0 {
		return err
	}
	var here, withdrawn []string
	for _, g := range games {
		if g.GuildID == guild {
			here = append(here, fmt.Sprintf("`%s` (%s) in <#%s>", g.ID, a.gameTitle(g), g.ChannelID))
			if l := a.withdrawAcceptance(ctx, g, target); l != "" {
				withdrawn = append(withdrawn, l)
			}
			a.skipBannedNow(ctx, g)
		}
	}
	if len(here) == 0 {
		msg += "\nThey have no game in play here."
	} else {
		msg += "\nTheir games in play here, to decide with `/go-admin adjudicate` if need be: " + strings.Join(here, ", ") + "."
	}
	for _, l := range append(withdrawn, a.closeBannedChallenges(ctx, r, target, reason)...) {
		msg += "\n" + l
	}
	return adminReply(ctx, r, msg)
}

// banAttempts is how many times a ban is tried against the user's ban as
// stored: each attempt reads the ban in force, and fails when another
// admin's ban or unban of the user was written first.
const banAttempts = 5

// putBan writes b, replacing the user's ban in force (returned; nil for
// none), which it reads again when another admin banned or unbanned them
// meanwhile (storage.ErrConflict): with two admins at once, the second
// ban replaces the first and says so, in its answer and in the log.
func (a *App) putBan(ctx context.Context, r *Request, b storage.Ban) (*storage.Ban, error) {
	for attempt := 1; ; attempt++ {
		before := "not banned"
		old, err := a.admin.Ban(ctx, b.GuildID, b.User.UserID)
		switch {
		case err != nil && !errors.Is(err, storage.ErrNotFound):
			return nil, err
		case err != nil || !old.Active(b.At):
			old = nil // no ban in force to replace
		default:
			before = "banned " + banUntil(old)
		}
		e := audit(r, storage.AuditBan, b.User.UserID, b.Reason)
		e.Before, e.After = before, "banned "+banUntil(&b)
		err = a.admin.PutBan(ctx, b, old, e)
		switch {
		case !errors.Is(err, storage.ErrConflict):
			return old, err
		case attempt == banAttempts:
			return nil, UserErr(ErrConflict, fmt.Sprintf("Other admins kept banning or unbanning %s at the same moment, so your ban was not applied. Look at `/go-admin bans` and try again.", Mention(b.User)))
		}
	}
}

// banSkipper is a room whose team games skip a banned player to move
// (goroom: rengo); SkipBanned does it on g, unsaved, and returns the note
// that says so, "" when nobody was skipped.
type banSkipper interface {
	SkipBanned(ctx context.Context, g *storage.Game) (string, error)
}

// skipBannedNow skips at once a player just banned who is to move in team
// game g, so that the game does not wait for them: the skip is saved and
// the board posted naming who plays on (a bot's worker posts it after the
// bot's move, which the save queues). Failures are logged: the skip is
// then made at the next move.
func (a *App) skipBannedNow(ctx context.Context, g *storage.Game) {
	sk, ok := a.roomOf(g).(banSkipper)
	if !ok || !g.Team() {
		return
	}
	note, err := sk.SkipBanned(ctx, g)
	if err == nil && note != "" {
		err = a.UpdateGame(ctx, g)
		if err == nil && botToMove(g) {
			_, err = a.Post(ctx, g, &Message{Content: note, AllowedMentions: NoMentions()})
		} else if err == nil {
			var m *Message
			if m, err = a.StateMessage(ctx, g, a.Now(), note); err == nil {
				err = a.PostBoard(ctx, g, m)
			}
		}
	}
	if err != nil {
		a.log.Warn("ban: skip the banned player to move in a team game", "game", g.ID, "err", err)
	}
}

// withdrawAcceptance drops the acceptance of the count by the team of p,
// just banned, in team game g in its scoring phase: p may have given it,
// and a banned player decides nothing for the team (the acceptance does
// not say who gave it), so the team's other members accept again. When
// p is among the team's last players, all banned, who still decide for it
// (Deciders), the acceptance stands: they would only give it again. The
// channel is told, above the scoring board drawn anew (it waits for those
// members now), and the members are pinged. It returns the line of the
// ban's answer that says so, "" when there was none to drop or it could
// not be saved (logged).
func (a *App) withdrawAcceptance(ctx context.Context, g *storage.Game, p storage.Player) string {
	s, plays := g.SideOf(p.UserID)
	if !plays || !g.Team() || g.Scoring == nil || !g.Scoring.Accepted[s] {
		return ""
	}
	if _, over := g.State.Result(); over {
		return ""
	}
	people, err := a.Deciders(ctx, g, s)
	if err != nil {
		a.log.Warn("ban: read who decides for a team", "game", g.ID, "err", err)
		return ""
	}
	if slices.ContainsFunc(people, func(q storage.Player) bool { return q.UserID == p.UserID }) {
		return ""
	}
	g.Scoring.Accepted[s] = false
	if err := a.UpdateGame(ctx, g); err != nil {
		a.log.Warn("ban: withdraw a team's acceptance of the count", "game", g.ID, "user", p.UserID, "err", err)
		return ""
	}
	who, ids := "the team", make([]string, 0, len(people))
	if len(people) > 0 {
		who = JoinNames(people, Mention)
	}
	for _, q := range people {
		ids = append(ids, q.UserID)
	}
	// The board's own text would ping whoever it waits for, the other
	// team too, whom the ban asks nothing new of: the note replaces it.
	m, err := a.StateMessage(ctx, g, a.Now(), "")
	if err == nil {
		m.Content = fmt.Sprintf("⛔ %s is banned from gobot games on this server and out of this game: the acceptance of the count by %s is withdrawn, as they may have given it, and %s must accept again.",
			Mention(p), a.sideLabel(g, s), who)
		m.AllowedMentions = OnlyUsers(ids...)
		err = a.PostBoard(ctx, g, m)
	}
	if err != nil {
		a.log.Warn("ban: announce a team's acceptance of the count withdrawn", "game", g.ID, "err", err)
	}
	return fmt.Sprintf("The acceptance of the count by %s in <#%s> is withdrawn, as they may have given it: %s must accept again.", a.sideLabel(g, s), g.ChannelID, who)
}

// closeBannedChallenges closes what the ban of p leaves open on r's
// server, which nobody could otherwise take further: the challenges by or
// to p are withdrawn and the rengo lobbies p opened called off (their
// messages say why), and p leaves the teams of the other lobbies (their
// messages show the teams without p, still open, and say why). It returns
// the lines of the ban's answer that say what it did; none when p had
// nothing open. Each challenge withdrawn, lobby called off and seat left
// is logged as a withdrawal, with the ban's reason.
func (a *App) closeBannedChallenges(ctx context.Context, r *Request, p storage.Player, reason string) []string {
	all, err := a.admin.GuildChallenges(ctx, r.Interaction.GuildID)
	if err != nil {
		a.log.Warn("ban: read the server's challenges", "guild", r.Interaction.GuildID, "err", err)
		return []string{"⚠️ I could not look at their open challenges just now; nobody can accept them while the ban holds."}
	}
	now := a.Now()
	banned := fmt.Sprintf("%s is banned from gobot games on this server.", Mention(p))
	var withdrawn, calledOff, left []string
	for _, c := range all {
		if c.Expired(now) {
			continue
		}
		where := fmt.Sprintf("`%s` in <#%s>", c.ID, c.ChannelID)
		switch {
		case c.Team() && c.Challenger.UserID == p.UserID:
			if a.withdrawChallenge(ctx, r, c, fmt.Sprintf("🚫 Called off: %s, who opened it, is banned from gobot games on this server.", Mention(p)), new(withdrawEntry(r, c, reason))) {
				calledOff = append(calledOff, where)
			}
		case c.Team():
			if a.leaveLobby(ctx, r, c, p, reason) {
				left = append(left, where)
			}
		case c.Challenger.UserID == p.UserID || c.Opponent.UserID == p.UserID:
			if a.withdrawChallenge(ctx, r, c, "🚫 Withdrawn: "+banned, new(withdrawEntry(r, c, reason))) {
				withdrawn = append(withdrawn, where)
			}
		}
	}
	var lines []string
	if len(withdrawn) > 0 {
		lines = append(lines, "Their challenges here (by them or to them) were withdrawn: "+strings.Join(withdrawn, ", ")+".")
	}
	if len(calledOff) > 0 {
		lines = append(lines, "The rengo games they opened here were called off: "+strings.Join(calledOff, ", ")+".")
	}
	if len(left) > 0 {
		lines = append(lines, "They were taken off the teams of the rengo games they had joined here: "+strings.Join(left, ", ")+".")
	}
	return lines
}

// withdrawChallenge removes challenge c for r (not while an Accept or a
// Start holds it) and closes its message with outcome; it reports whether
// it did. A ban calls it for the banned player's challenges, with ban, the
// withdrawal's log entry, and an Accept for the other open challenges of
// the game's players (closeOtherSeeks), with none.
//
// A ban waits for an Accept or a Start that holds c, as long as such a
// claim may last: the store refuses that game to the banned player, after
// which c would stay open, unlisted, until it expired, as nobody could
// start it. An Accept gives up at once: the other challenge is being
// started, or answered.
func (a *App) withdrawChallenge(ctx context.Context, r *Request, c *storage.Challenge, outcome string, ban *storage.AuditEntry) bool {
	var release func()
	var err error
	del := ctx
	if ban != nil {
		release, _, err = a.WaitHold(ctx, r, c.ID, HoldWithdraw, acceptClaim, func(Hold) bool { return true })
		del = storage.WithAudit(ctx, *ban)
	} else {
		release, err = a.HoldChallenge(ctx, r, c.ID, HoldWithdraw, func(Hold) string { return "" }, "")
	}
	if err != nil {
		return false // being started, or gone
	}
	defer release()
	if err := a.challenges.DeleteChallenge(del, c.ID); err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			a.log.Warn("withdraw a challenge", "challenge", c.ID, "err", err)
		}
		return false
	}
	a.closeChallengeMessage(ctx, c, outcome)
	return true
}

// leaveLobby takes p, banned by r's admin for reason, off the teams of
// rengo lobby c, logged as a withdrawal (of p's seat) with the ban's
// reason, and shows the lobby without them, saying why; it reports
// whether p sat there. A Start under way sees the teams changed and is
// refused. The lobby is shown as a click shows it (goroom's showLobby):
// read under the lobby's claim (HoldShow), after any change made since
// the ban's, so that a Join shown meanwhile is not drawn over with the
// teams as the ban left them.
func (a *App) leaveLobby(ctx context.Context, r *Request, c *storage.Challenge, p storage.Player, reason string) bool {
	seated := func(c *storage.Challenge) bool {
		for _, t := range c.Teams {
			if slices.ContainsFunc(t.Players, func(q storage.Player) bool { return q.UserID == p.UserID }) {
				return true
			}
		}
		return false
	}
	if !seated(c) {
		return false
	}
	// The entry names p, so that the log's user: filter finds it (aboutUser).
	e := withdrawEntry(r, c, reason)
	e.Before, e.After = fmt.Sprintf("%s, with %s", e.Before, Mention(p)), "without "+Mention(p)
	_, err := a.challenges.UpdateChallenge(storage.WithAudit(ctx, e), c.ID, func(c *storage.Challenge) error {
		if !seated(c) {
			return errNotSeated
		}
		for i := range c.Teams {
			c.Teams[i].Players = slices.DeleteFunc(c.Teams[i].Players, func(q storage.Player) bool { return q.UserID == p.UserID })
		}
		return nil
	})
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) && !errors.Is(err, errNotSeated) {
			a.log.Warn("ban: take a player off a rengo lobby", "challenge", c.ID, "err", err)
		}
		return false
	}
	release, other, err := a.WaitHold(ctx, r, c.ID, HoldShow, lobbyShowPatience, func(Hold) bool { return true })
	switch {
	case errors.Is(err, ErrNoChallenge):
		return true // started or called off since: the click that did so closed the message
	case err != nil:
		a.log.Warn("ban: show a rengo lobby without the banned player", "challenge", c.ID, "holder", other, "err", err)
		return true
	}
	defer release()
	shown, err := a.challenges.Challenge(ctx, c.ID)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			a.log.Warn("ban: read a rengo lobby to show it", "challenge", c.ID, "err", err)
		}
		return true
	}
	a.showChallengeMessage(ctx, shown, "", fmt.Sprintf("🚫 %s is banned from gobot games on this server and was taken off their team.", Mention(p)))
	return true
}

// lobbyShowPatience bounds how long a ban waits to show a rengo lobby
// while others show it or start it (the lobby's claim), as long as a
// click on the lobby waits (goroom's lobbyShowPatience).
const lobbyShowPatience = 20 * time.Second

// errNotSeated says the player left the lobby before the ban took them
// off it.
var errNotSeated = errors.New("commands: the player is on no team of the lobby")

// targetIsAdmin reports whether the member chosen in a user option may
// administer this server, from the permissions Discord resolved for them.
func targetIsAdmin(r *Request, userID string) bool {
	d := r.Interaction.ApplicationCommandData()
	if d.Resolved == nil {
		return false
	}
	m, ok := d.Resolved.Members[userID]
	return ok && m != nil && m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

func (a *App) adminUnban(ctx context.Context, r *Request) error {
	u, ok := r.UserOption("user")
	if !ok {
		return UserErr(ErrBadOption, "Choose whose ban to lift with `user:`.")
	}
	reason, err := optionalReason(r)
	if err != nil {
		return err
	}
	target := UserPlayer(u)
	guild := r.Interaction.GuildID
	old, err := a.admin.Ban(ctx, guild, u.ID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && !old.Active(a.Now())) {
		return UserErr(ErrBadOption, fmt.Sprintf("%s is not banned on this server.", Mention(target)))
	}
	if err != nil {
		return err
	}
	e := audit(r, storage.AuditUnban, u.ID, reason)
	e.Before, e.After = "banned "+banUntil(old), "not banned"
	if _, err := a.admin.LiftBan(ctx, guild, u.ID, UserPlayer(r.User), e); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return UserErr(ErrBadOption, fmt.Sprintf("%s is not banned on this server.", Mention(target)))
		}
		return err
	}
	a.log.Info("ban lifted on a server", "guild", guild, "user", u.ID, "by", r.User.ID)
	done := fmt.Sprintf("✅ %s may play on this server again.", Mention(target))
	if reason != "" {
		done += " Reason: " + reason
	}
	if back := a.backInTeamGames(ctx, guild, target); len(back) > 0 {
		games := "game"
		if len(back) > 1 {
			games = "games"
		}
		done += fmt.Sprintf("\nThey are back in their team %s in %s: their turns come again.", games, strings.Join(back, ", "))
	}
	return adminReply(ctx, r, done)
}

// backInTeamGames brings p, whose ban on the server guildID was lifted,
// back into the team games there that the ban put them out of
// (storage.Game.Back), and returns those games' channels as mentions. A
// game that changed meanwhile is left as it is, and logged.
func (a *App) backInTeamGames(ctx context.Context, guildID string, p storage.Player) []string {
	games, err := a.games.PlayerActiveGames(ctx, p.UserID)
	if err != nil && len(games) == 0 {
		a.log.Warn("unban: list the player's games", "guild", guildID, "user", p.UserID, "err", err)
		return nil
	}
	var back []string
	for _, g := range games {
		if g.GuildID != guildID || !g.Back(p) {
			continue
		}
		if err := a.UpdateGame(ctx, g); err != nil {
			a.log.Warn("unban: bring the player back into a team game", "game", g.ID, "user", p.UserID, "err", err)
			continue
		}
		back = append(back, "<#"+g.ChannelID+">")
	}
	return back
}

// modNotBanned refuses a moderator's action to a moderator banned from
// gobot on the server: an admin who bans a rogue moderator wants them out
// of gobot's moderation too. Admins, whom a ban cannot reach (adminBan
// refuses them), are not refused for a ban made before they became one:
// they could lift it themselves.
func (a *App) modNotBanned(ctx context.Context, r *Request) error {
	if serverAdmin(r) {
		return nil
	}
	b, err := a.activeBan(ctx, r.Interaction.GuildID, r.User.ID)
	if b == nil {
		return err
	}
	return UserErr(ErrForbidden, fmt.Sprintf("You are banned from gobot on this server %s, so you cannot act as its moderator here. Reason: %s", banUntil(b), b.Reason))
}

// moderatorAbort ends a game in play for a moderator (Manage Messages):
// it needs a reason, keeps the game's record (aborted: result Void, never
// rated) and is logged.
func (a *App) moderatorAbort(ctx context.Context, r *Request, g *storage.Game) error {
	if err := a.modNotBanned(ctx, r); err != nil {
		return err
	}
	reason, _ := r.String("reason")
	reason = strings.Join(strings.Fields(reason), " ")
	if reason == "" {
		return UserErr(ErrBadOption, fmt.Sprintf("A moderator's abort needs a reason, which is kept in the server's log and told to the players: `/%s abort reason:…`.", a.roomOf(g).Command()))
	}
	if len([]rune(reason)) > MaxReason {
		return UserErr(ErrBadOption, fmt.Sprintf("A reason may be at most %d characters long.", MaxReason))
	}
	moves, by := g.State.MoveCount(), UserPlayer(r.User)
	comment := fmt.Sprintf("Aborted by %s, a moderator, after %s: recorded, never rated. Reason: %s", PlainName(by), a.movesText(g.Kind, moves), reason)
	e := audit(r, storage.AuditAbort, g.ID, reason)
	e.Before, e.After = fmt.Sprintf("in play after %s", a.movesText(g.Kind, moves)), "Void (aborted by a moderator)"
	if err := a.voidGame(withAudit(ctx, e), g, comment, false, nil); err != nil {
		return err
	}
	a.log.Info("game aborted by a moderator", "game", g.ID, "by", r.User.ID, "plies", moves)
	a.disableBoards(ctx, g, !botToMove(g)) // voidGame leaves g's state as it was
	players, told := a.playersTold(g, by)
	return r.Reply(ctx, &Message{
		Content: Clip(fmt.Sprintf("🚫 %s, a moderator, aborted the game %s after %s: it is recorded as aborted (%s) and never rated. Reason: %s\nThe channel is free for a new game.",
			Mention(by), players, a.movesText(g.Kind, moves), a.recordHint(g.Kind, g.ID), reason), 2000),
		AllowedMentions: told,
	})
}

// whyUntold says why a game's channel could not be told of an admin's
// decision, from Discord's refusal err: the channel (or thread) is gone,
// gobot may not post there, or Discord failed.
func whyUntold(err error) string {
	switch {
	case errors.Is(err, ErrDiscordNotFound):
		return "it no longer exists"
	case errors.Is(err, ErrDiscordForbidden), errors.Is(err, ErrNoChannelPosts):
		return "I may not post there"
	}
	return "Discord did not take the message"
}
