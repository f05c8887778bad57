package goroom

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Rengo is team Go, as on OGS and KGS: two teams of 2 to 4 players, the
// players of a team taking its moves in turn (B1, W1, B2, W2 …). /go rengo
// posts a lobby; players join a team by button until its creator presses
// Start. A lobby is a storage.Challenge with Teams; the game is an
// ordinary game whose sides have several players.

// rengoMinTeam and storage.MaxSidePlayers bound a rengo team.
const rengoMinTeam = 2

// rengoTeamNames name the teams by side index, as the buttons say.
var rengoTeamNames = [2]string{"Black", "White"}

func (a *room) cmdRengo(ctx context.Context, r *commands.Request) error {
	it := r.Interaction
	if it.GuildID == "" {
		return commands.UserErr(commands.ErrBadOption, "Rengo is played by teams in a server channel: start it there with `/go rengo`.")
	}
	st, err := a.StartGate(ctx, r) // the server's game channels, bans and limits (admin_checks.go)
	if err != nil {
		return err
	}
	s, err := parseSetup(r, "black", st)
	if err != nil {
		return err
	}
	mode := storage.TeamClockStrict
	if v, ok := r.String("mode"); ok {
		switch m := strings.ToLower(strings.TrimSpace(v)); m {
		case storage.TeamClockStrict, storage.TeamClockCasual:
			mode = m
		default:
			return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("The rengo clock mode must be strict (one clock a team) or casual (a clock a player), not %s.", commands.Quote(v)))
		}
	}
	thread, given, err := r.Bool("thread")
	if err != nil {
		return err
	}
	switch {
	case !given:
		// A team game is long and talkative: a thread of its own, where
		// one can be started (not inside a thread or forum post, say);
		// else here, as the lobby says.
		thread = commands.ThreadsHere(r)
	case thread:
		if err := commands.ThreadRefusal(r, "open the rengo game here with `thread:false`"); err != nil {
			return err
		}
	}
	if !thread {
		if err := a.ChannelFree(ctx, it.ChannelID); err != nil {
			if errors.Is(err, commands.ErrGameRunning) && commands.ThreadsHere(r) {
				return commands.UserErr(err, "A game is already running in this channel. Finish it first, or open the rengo game in a thread of its own: `/go rengo ... thread:true` (the default).")
			}
			return err
		}
	}
	creator := commands.UserPlayer(r.User)
	teams := []storage.Side{{Players: []storage.Player{creator}}, {}}
	if _, ok := r.String("bot"); !ok {
		if _, ok := r.String("bot_team"); ok {
			return commands.UserErr(commands.ErrBadOption, "`bot_team` says which team gobot joins: add `bot:` with its level, as `/go rengo bot:hard bot_team:black`.")
		}
	}
	if v, ok := r.String("bot"); ok {
		level, err := a.level(v)
		if err != nil {
			return err
		}
		if err := a.BotAllowed(r, st, level); err != nil {
			return err
		}
		team := 1
		if t, ok := r.String("bot_team"); ok && strings.EqualFold(strings.TrimSpace(t), "black") {
			team = 0
		}
		teams[team].Players = append(teams[team].Players, storage.Player{Level: level, Name: "gobot " + level})
	}
	now := a.Now()
	c := &storage.Challenge{
		ID: it.ID, ChannelID: it.ChannelID, GuildID: it.GuildID, Challenger: creator,
		Size: s.Size, Rules: s.Rules, Handicap: s.Handicap, Thread: thread, Clock: ptr(a.ClockOf(s.Clock)),
		Unrated: true, // rengo is unrated, as on OGS
		Teams:   teams, TeamClock: mode,
		CreatedAt: now, ExpiresAt: now.Add(a.ChallengeTTL(st)),
	}
	if err := r.Defer(ctx, false); err != nil {
		return err
	}
	orig, err := r.Original(ctx)
	if err != nil {
		a.Logger().Warn("rengo: read deferred message; its buttons will not be disabled on expiry", "err", err)
	} else {
		c.MessageID = orig.ID
	}
	if err := a.Challenges().CreateChallenge(ctx, c); err != nil {
		return err
	}
	return r.Reply(ctx, lobbyMessage(c, ""))
}

// levelOption is the level: option of /go bot and /go vote (LevelOption
// with Go's levels).
func (a *room) levelOption(r *commands.Request) (string, error) {
	return commands.LevelOption(r, a.players.Levels(), "")
}

// level checks a Go bot level's name (BotLevel with Go's levels).
func (a *room) level(name string) (string, error) {
	return commands.BotLevel(name, a.players.Levels(), "")
}

// lobbyMessage shows a rengo lobby: the game, the teams so far, and the
// Join, Leave and Start buttons; outcome closes it.
func lobbyMessage(c *storage.Challenge, outcome string) *commands.Message {
	return lobbyNoted(c, outcome, "")
}

// lobbyNoted is lobbyMessage, but an open lobby (no outcome) shows note,
// when not empty, above its instructions: what changed its teams when no
// click of theirs did (a player taken off them by a ban).
func lobbyNoted(c *storage.Challenge, outcome, note string) *commands.Message {
	closed := outcome != ""
	mode := "strict clock (one clock a team)"
	if c.TeamClock == storage.TeamClockCasual {
		mode = "casual clock (a clock a player; who runs out of time is skipped)"
	}
	where := " here"
	if c.Thread {
		where = " in a new thread"
	}
	clk := commands.ChallengeClock(c)
	if clk.System == clock.None {
		mode = "" // no clock to share or to give each player
	} else {
		mode = "; " + mode
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "🤝 %s opens a **rengo** game (team Go)%s: %s, %s%s; unrated.\n",
		commands.Mention(c.Challenger), where, describeSetup(c.Size, c.Rules, c.Handicap), clk.Describe(), mode)
	for i, t := range c.Teams {
		names := "nobody yet"
		if len(t.Players) > 0 {
			names = commands.JoinNames(t.Players, commands.Mention)
		}
		fmt.Fprintf(&sb, "%s **%s** (%d/%d): %s\n", stoneEmoji(engine.ColorOf(game.Side(i))), rengoTeamNames[i], len(t.Players), storage.MaxSidePlayers, names)
	}
	if closed {
		sb.WriteString(outcome)
	} else {
		if note != "" {
			sb.WriteString(note + "\n")
		}
		fmt.Fprintf(&sb, "Teams of %d to %d (**Join** the other team to change sides); the order of play is B1, W1, B2, W2 … %s presses **Start** when both teams are ready, or **Leave** to call the game off. This expires <t:%d:R>.",
			rengoMinTeam, storage.MaxSidePlayers, commands.Mention(c.Challenger), c.ExpiresAt.Unix())
	}
	btn := func(label, action string, style discordgo.ButtonStyle) discordgo.MessageComponent {
		return discordgo.Button{Label: label, Style: style, CustomID: "rengo/" + c.ID + "/" + action, Disabled: closed}
	}
	return &commands.Message{
		Content:         sb.String(),
		AllowedMentions: commands.NoMentions(),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			btn("Join Black", "join/0", discordgo.PrimaryButton),
			btn("Join White", "join/1", discordgo.PrimaryButton),
			btn("Leave", "leave", discordgo.SecondaryButton),
			btn("Start", "start", discordgo.SuccessButton),
		}}},
	}
}

// seatOf returns the team a user sits in and whether they sit in one.
func seatOf(c *storage.Challenge, userID string) (int, bool) {
	for i, t := range c.Teams {
		if slices.ContainsFunc(t.Players, func(p storage.Player) bool { return p.UserID == userID }) {
			return i, true
		}
	}
	return 0, false
}

// The answers to a lobby's buttons pressed once it has closed, or to its
// creator's Leave while it is being started.
const (
	lobbyClosed = "This rengo game has started or was called off: its teams are closed."
	lobbyBusy   = "This rengo game is being started: its teams are closed."
)

// lobbyGone is the answer to a button of a lobby the store no longer
// holds: one that expired says so, as its message (the one the button was
// pressed on) tells when it expires; else it started or was called off.
func (a *room) lobbyGone(r *commands.Request, closed string) error {
	if at, ok := lobbyExpiry(r.Interaction.Message); ok && !a.Now().Before(at) {
		return lobbyExpired(at)
	}
	return commands.UserErr(commands.ErrNoChallenge, closed)
}

// lobbyExpired refuses a button of a lobby that expired at.
func lobbyExpired(at time.Time) error {
	return commands.UserErr(commands.ErrExpired, fmt.Sprintf("This rengo lobby expired <t:%d:R>: open a new one with `/go rengo`.", at.Unix()))
}

// lobbyExpiry reads when the lobby shown by m expires, from the sentence
// lobbyMessage ends an open lobby with ("This expires <t:…:R>.").
func lobbyExpiry(m *discordgo.Message) (time.Time, bool) {
	const mark = "This expires <t:"
	if m == nil {
		return time.Time{}, false
	}
	i := strings.LastIndex(m.Content, mark)
	if i < 0 {
		return time.Time{}, false
	}
	stamp, _, ok := strings.Cut(m.Content[i+len(mark):], ":R>")
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if !ok || err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// changeLobby applies change to the lobby the button belongs to, in one
// transaction, and shows the lobby as it then is (showLobby).
func (a *room) changeLobby(ctx context.Context, r *commands.Request, change func(c *storage.Challenge) error) error {
	var expired *storage.Challenge
	c, err := a.Challenges().UpdateChallenge(ctx, r.Param("id"), func(c *storage.Challenge) error {
		if !c.Team() {
			return commands.ErrNoChallenge
		}
		if err := commands.FromOtherServer(r, c); err != nil {
			return err
		}
		if c.Expired(a.Now()) {
			expired = c
			return commands.ErrExpired
		}
		return change(c)
	})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return a.lobbyGone(r, lobbyClosed)
	case errors.Is(err, commands.ErrExpired):
		return lobbyExpired(expired.ExpiresAt)
	case err != nil:
		return err
	}
	return a.showLobby(ctx, r, c.ID)
}

// lobbyShowPatience bounds how long a click on a lobby waits to show it
// while others show it or start it (the lobby's claim).
const lobbyShowPatience = 20 * time.Second

// showLobby shows lobby id in the message whose button r pressed, as the
// store holds it once r's change is committed. Clicks pressed at once are
// answered in any order, and an answer that carried its own view of the
// teams could reach Discord after a newer one and stay, showing teams
// that are not the game's. So the click is acknowledged without a change
// (a deferred update), and the message is then edited to the lobby read
// under the lobby's claim (HoldShow), which every process respects: the
// edits of one lobby are made one after another, each after its own
// change, and the last one shows the last change. While a Start or the
// opener's Leave holds the claim, it waits: the lobby is then gone
// (that click closed the message) or, the Start refused, shown as it
// stands.
func (a *room) showLobby(ctx context.Context, r *commands.Request, id string) error {
	if err := r.DeferUpdate(ctx); err != nil {
		return err
	}
	release, other, err := a.WaitHold(ctx, r, id, commands.HoldShow, lobbyShowPatience, func(commands.Hold) bool { return true })
	switch {
	case errors.Is(err, commands.ErrNoChallenge):
		return nil // started or called off: the click that did so closed the message
	case errors.Is(err, storage.ErrConflict):
		a.Logger().Warn("rengo: lobby held too long to show its teams", "challenge", id, "holder", other)
		return nil
	case err != nil:
		return err
	}
	defer release()
	c, err := a.Challenges().Challenge(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	return r.Update(ctx, lobbyMessage(c, ""))
}

// lobbyBusyFor is the refusal of a lobby's Start or its opener's Leave (mine)
// while another attempt holds the lobby, doing other.
func lobbyBusyFor(mine commands.Hold) func(other commands.Hold) string {
	return func(other commands.Hold) string {
		switch {
		case other == commands.HoldCallOff && mine == commands.HoldCallOff:
			return "This rengo game is being called off already."
		case other == commands.HoldCallOff:
			return "This rengo game is being called off: it can no longer start."
		case mine == commands.HoldCallOff:
			return lobbyBusy
		}
		return "This rengo game is being started already."
	}
}

func (a *room) btnRengoJoin(ctx context.Context, r *commands.Request) error {
	team, err := strconv.Atoi(r.Param("team"))
	if err != nil || team < 0 || team > 1 {
		return commands.ErrStale
	}
	me := commands.UserPlayer(r.User)
	st, err := a.Settings(ctx, r.Interaction.GuildID)
	if err != nil {
		return err
	}
	if err := a.MayPlay(ctx, st, me, true); err != nil {
		return err
	}
	return a.changeLobby(ctx, r, func(c *storage.Challenge) error {
		t, seated := seatOf(c, me.UserID)
		if seated && t == team {
			return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("You are already on %s.", rengoTeamNames[t]))
		}
		if len(c.Teams[team].Players) >= storage.MaxSidePlayers {
			return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("%s is full: a team has at most %d players.", rengoTeamNames[team], storage.MaxSidePlayers))
		}
		if seated {
			// Joining the other team changes sides: a player takes one
			// seat.
			c.Teams[t].Players = slices.DeleteFunc(slices.Clone(c.Teams[t].Players), func(p storage.Player) bool { return p.UserID == me.UserID })
		}
		c.Teams[team].Players = append(c.Teams[team].Players, me)
		return nil
	})
}

func (a *room) btnRengoLeave(ctx context.Context, r *commands.Request) error {
	c, err := a.Challenges().Challenge(ctx, r.Param("id"))
	if err == nil && c.Challenger.UserID == r.User.ID && commands.FromOtherServer(r, c) == nil {
		// The creator leaving calls the game off.
		release, err := a.HoldChallenge(ctx, r, c.ID, commands.HoldCallOff, lobbyBusyFor(commands.HoldCallOff), lobbyClosed)
		if err != nil {
			return err
		}
		defer release()
		switch err := a.Challenges().DeleteChallenge(ctx, c.ID); {
		case errors.Is(err, storage.ErrNotFound):
			return commands.UserErr(commands.ErrNoChallenge, lobbyClosed)
		case err != nil:
			return err
		}
		return r.Update(ctx, lobbyMessage(c, fmt.Sprintf("↩️ %s called the rengo game off.", commands.Mention(c.Challenger))))
	}
	return a.changeLobby(ctx, r, func(c *storage.Challenge) error {
		t, ok := seatOf(c, r.User.ID)
		if !ok {
			return commands.UserErr(commands.ErrBadOption, "You are not on a team of this rengo game.")
		}
		c.Teams[t].Players = slices.DeleteFunc(c.Teams[t].Players, func(p storage.Player) bool { return p.UserID == r.User.ID })
		return nil
	})
}

func (a *room) btnRengoStart(ctx context.Context, r *commands.Request) error {
	c, err := a.Challenges().Challenge(ctx, r.Param("id"))
	if errors.Is(err, storage.ErrNotFound) {
		return a.lobbyGone(r, "This rengo game has started or was called off.")
	}
	if err != nil {
		return err
	}
	if err := commands.FromOtherServer(r, c); err != nil {
		return err
	}
	if r.User.ID != c.Challenger.UserID {
		return commands.UserErr(commands.ErrNotChallenged, fmt.Sprintf("Only %s, who opened this rengo game, can start it.", commands.Mention(c.Challenger)))
	}
	if c.Expired(a.Now()) {
		return lobbyExpired(c.ExpiresAt)
	}
	release, err := a.ClaimChallenge(ctx, r, c, commands.HoldStart, lobbyBusyFor(commands.HoldStart))
	if err != nil {
		return lobbyCannotStartYet(r, c, err)
	}
	defer release()
	// The teams as they stand now (a Join or Leave after this makes
	// AcceptChallenge refuse the start: storage.ErrConflict).
	c, err = a.Challenges().Challenge(ctx, c.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return commands.UserErr(commands.ErrNoChallenge, "This rengo game has started or was called off.")
	}
	if err != nil {
		return err
	}
	if err := teamsComplete(c); err != nil {
		return err
	}
	// A ban, a limit reached or game channels restricted since a player
	// joined hold, as for Accept.
	st, err := a.Settings(ctx, c.GuildID)
	if err != nil {
		return err
	}
	if err := a.InGameChannel(ctx, st, c.ChannelID, commands.CommandName); err != nil {
		return err
	}
	for _, t := range c.Teams {
		for _, p := range t.Players {
			if p.IsBot() {
				continue
			}
			if err := a.MayPlay(ctx, st, p, p.UserID == r.User.ID); err != nil {
				return err
			}
		}
	}
	black, white := c.Teams[0].Players, c.Teams[1].Players
	outcome := fmt.Sprintf("✅ Started: ⚫ %s against ⚪ %s.", commands.JoinNames(black, commands.Mention), commands.JoinNames(white, commands.Mention))
	name := fmt.Sprintf("Rengo: %s vs %s", commands.JoinNames(black, commands.PlainName), commands.JoinNames(white, commands.PlainName))
	return lobbyCannotStartYet(r, c, a.StartChallenge(ctx, r, c, c.Teams, name, func(outcome string) *commands.Message { return lobbyMessage(c, outcome) }, outcome))
}

// lobbyCannotStartYet is err, said to the opener who pressed Start on
// lobby c, when it is ErrGameRunning: a lobby without a thread holds its
// channel no more than a challenge does (another game may start there
// while the teams fill), so it stays open and can start once that game is
// over, or be opened again in a thread. (ErrGameRunning's own sentence
// names /go challenge.)
func lobbyCannotStartYet(r *commands.Request, c *storage.Challenge, err error) error {
	if !errors.Is(err, commands.ErrGameRunning) || errors.As(err, new(*commands.UserError)) {
		return err
	}
	if !commands.ThreadsHere(r) {
		where := "channel"
		if r.Channel != nil && r.Channel.IsThread() {
			where = "thread"
		}
		return commands.UserErr(err, fmt.Sprintf("A game is already running in this %s, so this rengo game cannot start yet: press **Start** once that game is over (the lobby expires <t:%d:R>).", where, c.ExpiresAt.Unix()))
	}
	return commands.UserErr(err, fmt.Sprintf("A game is already running in this channel, so this rengo game cannot start yet: press **Start** once that game is over (the lobby expires <t:%d:R>), or open it again in a thread with `/go rengo ... thread:true`.", c.ExpiresAt.Unix()))
}

// teamsComplete refuses to start a lobby with a team short of players.
func teamsComplete(c *storage.Challenge) error {
	for i, t := range c.Teams {
		if len(t.Players) < rengoMinTeam {
			return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Each team needs at least %d players: %s has %d.", rengoMinTeam, rengoTeamNames[i], len(t.Players)))
		}
	}
	return nil
}

// voteResign counts a team member's vote to resign in a team game (the
// player to move resigns for the team at once): the team resigns when
// more than half its people (Deciders: a player out of the game or banned
// on the server has no vote) agree. The vote lapses with the next move.
func (a *room) voteResign(ctx context.Context, r *commands.Request, g *storage.Game, c engine.Color) error {
	people, err := a.Deciders(ctx, g, engine.SideOf(c)) // the ballots of players banned since are dropped
	if err != nil {
		return err
	}
	if err := commands.StillPlaying(people, r.User); err != nil {
		return err
	}
	need := len(people)/2 + 1
	v := g.ResignVote
	if err := commands.OtherTeamVoting(g, v, engine.SideOf(c), "resign"); err != nil {
		return err
	}
	if v == nil || v.Side != engine.SideOf(c) || v.MoveCount != g.State.MoveCount() {
		v = &storage.ResignVote{Side: engine.SideOf(c), MoveCount: g.State.MoveCount()}
	}
	v = &storage.ResignVote{Side: v.Side, MoveCount: v.MoveCount, Voters: commands.Ballots(v.Voters, people)}
	if slices.Contains(v.Voters, r.User.ID) {
		return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("You have already voted to resign: %d of the %d votes needed so far.", len(v.Voters), need))
	}
	v = &storage.ResignVote{Side: engine.SideOf(c), MoveCount: v.MoveCount, Voters: append(slices.Clone(v.Voters), r.User.ID)}
	if len(v.Voters) >= need {
		g.ResignVote = v // apply names the voters, and ends the vote
		return a.move(ctx, r, g, engine.ResignMove(c), "")
	}
	g.ResignVote = v
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	var ids []string
	for _, p := range people {
		ids = append(ids, p.UserID)
	}
	sent, err := r.ReplyMessage(ctx, &commands.Message{
		Content: fmt.Sprintf("🏳️ %s votes that %s %s resign: %d of the %d votes needed (a majority of %s). Teammates who agree: `/go resign` or the Resign button, before the next move.",
			commands.Mention(commands.UserPlayer(r.User)), stoneEmoji(c), c, len(v.Voters), need, commands.JoinNames(people, commands.Mention)),
		AllowedMentions: commands.OnlyUsers(ids...),
	})
	if err != nil {
		return err
	}
	a.KeepTeamVoteMessage(ctx, r, g, false, *v, sent)
	return nil
}

// teamTurn readies team game g for r's user's move, resignation or vote:
// the players to move who are banned are skipped (skipBanned), which the
// returned note says, and then a player banned on the server is refused,
// unless they are their team's last (NotBannedInTeam), who plays on as a
// banned player does in a game of two.
func (a *room) teamTurn(ctx context.Context, r *commands.Request, g *storage.Game) (string, error) {
	if !g.Team() {
		return "", nil
	}
	skipped, err := a.skipBanned(ctx, g)
	if err != nil {
		return "", err
	}
	if err := a.NotBannedInTeam(ctx, g, r); err != nil {
		return "", err
	}
	return skipped, nil
}

// skipBanned puts out of team game g each player to move who is banned on
// its server, while a teammate is left to take their turns, as a player
// out of time with a casual clock is: their turns go to their teammates,
// and with a casual clock the next one's own time runs. A team's last
// player is not skipped (a banned player plays on in a game of two as
// well, for the server's admins to adjudicate if need be). It returns the
// note that says who was skipped, "" when nobody was.
func (a *room) skipBanned(ctx context.Context, g *storage.Game) (string, error) {
	s := g.State.ToMove()
	if !g.Team() || g.GuildID == "" || s == game.NoSide || g.Scoring != nil {
		return "", nil
	}
	c := engine.ColorOf(s)
	var notes []string
	for len(g.InGame(s)) > 1 {
		p := g.Player(s)
		err := a.NotBanned(ctx, g.GuildID, p, false)
		if err == nil {
			break
		}
		if !errors.Is(err, commands.ErrForbidden) {
			return "", err
		}
		g.OutBanned(p) // back in the game when the ban is lifted
		if g.Clock.Running() && g.TeamClock == storage.TeamClockCasual {
			nextOnClock(g, c, p)
			g.Clock.Start(clock.Side(c), a.Now())
		}
		notes = append(notes, fmt.Sprintf("⛔ %s is banned from gobot games on this server and out of this game: %s %s plays on for %s.",
			commands.Mention(p), stoneEmoji(c), commands.Mention(g.Player(s)), c))
	}
	return strings.Join(notes, "\n"), nil
}

// SkipBanned is skipBanned for a ban just given (commands' banSkipper).
func (a *room) SkipBanned(ctx context.Context, g *storage.Game) (string, error) {
	return a.skipBanned(ctx, g)
}

// nextOnClock brings, with a casual team clock, the own time of colour
// c's next player onto the clock after from's move (or time-out), and keeps
// from's aside: each player of a team has a clock of their own.
func nextOnClock(g *storage.Game, c engine.Color, from storage.Player) {
	if g.TeamClock != storage.TeamClockCasual || g.Clock == nil {
		return
	}
	to := g.Player(engine.SideOf(c))
	if to.Key() == "" || to.Key() == from.Key() {
		return
	}
	t, ok := g.Times[to.Key()]
	if !ok {
		t = clock.New(g.Clock.Control).Time(clock.Side(c)) // not on the clock yet: full time
	}
	if g.Times == nil {
		g.Times = map[string]clock.Time{}
	}
	g.Times[from.Key()] = g.Clock.Swap(clock.Side(c), t)
	delete(g.Times, to.Key())
}

// teamTimeUp handles a time-out in a team game with a casual clock: the
// player out of time is out of the game, and while a teammate is left the
// game goes on with that teammate's own clock (done true). When nobody is
// left on the team, done is false and the team loses on time as usual.
func (a *room) teamTimeUp(ctx context.Context, g *storage.Game, c engine.Color, deadline time.Time) (done bool, err error) {
	out := g.Player(engine.SideOf(c))
	g.Out(out)
	next := g.Player(engine.SideOf(c))
	if next.Key() == "" {
		return false, nil
	}
	nextOnClock(g, c, out)
	g.Clock.Start(clock.Side(c), a.Now())
	skipped, err := a.skipBanned(ctx, g)
	if err != nil {
		return true, err
	}
	if err := a.UpdateGame(ctx, g); err != nil {
		return true, err
	}
	a.Logger().Info("team player out of time", "game", g.ID, "channel", g.ChannelID, "player", out.Key())
	note := fmt.Sprintf("⌛ %s ran out of time <t:%d:R> and is out of the game: %s %s plays on for %s.", commands.Mention(out), deadline.Unix(), stoneEmoji(c), commands.Mention(next), c)
	if skipped != "" {
		note += "\n" + skipped
	}
	m, err := a.StateMessage(ctx, g, a.Now(), note)
	if err == nil {
		err = a.PostBoard(ctx, g, m)
	}
	if err != nil {
		a.Logger().Warn("clock: announce a team player out of time", "game", g.ID, "err", err)
	}
	return true, nil
}
