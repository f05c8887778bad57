package goroom

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// A vote game is "the server against gobot": one side is the people of a
// channel (a storage.Player with Crowd set), who vote on each move with
// /go play or the buttons under the board; when the period ends the legal
// move with most votes is played (ties: the one that has held that count
// longest, storage.Vote.Counts).
// A period without votes begins again once; after a second the game is
// adjourned until someone votes. The bot answers as in any bot game.

// The bounds of a vote game's period.
const (
	minVotePeriod     = time.Minute
	maxVotePeriod     = 24 * time.Hour
	defaultVotePeriod = time.Hour
	// voteButtons is how many of the most voted moves get a button.
	voteButtons = 4
)

// crowdName is how a vote game names its voters.
const crowdName = "the channel's vote"

// isVoteGame reports whether g is a vote game.
func isVoteGame(g *storage.Game) bool { return g.VotePeriod > 0 }

// errVoteChannelTaken refuses a vote game in a channel with a game running.
// (ErrGameRunning's own sentence offers a challenge in a thread: a vote
// game is played by the channel, in no thread.)
var errVoteChannelTaken = commands.UserErr(commands.ErrGameRunning, "A game is already running in this channel, and a vote game needs a channel to itself: start `/go vote` in another channel, or here once this game is over.")

// errVoteNoResign refuses a resignation in a vote game, asked with
// /go resign or typed as a vote: nobody speaks for the channel, so it
// passes or a moderator aborts the game instead.
var errVoteNoResign = commands.UserErr(commands.ErrNotPlayer, "Nobody resigns for the channel in a vote game: vote `pass`, and two passes end the game with a count. A moderator may abort it.")

// errVoteNoPosts refuses a vote game in a channel where gobot may not
// post: each of its moves is posted when its vote closes, long after any
// command whose answer could carry it.
var errVoteNoPosts = commands.UserErr(commands.ErrForbidden, "gobot may not post in this channel (it needs Send Messages here, or Send Messages in Threads in a thread), "+
	"and a vote game needs to: each move is posted when its vote closes, long after any command. "+
	"Ask the server's admins to let gobot send messages here, or start `/go vote` in a channel where it may.")

func (a *room) cmdVote(ctx context.Context, r *commands.Request) error {
	it := r.Interaction
	if it.GuildID == "" {
		return commands.UserErr(commands.ErrBadOption, "A vote game is played by the people of a server channel: start it there with `/go vote`.")
	}
	if !a.MayPostInChannel(ctx, r) {
		return errVoteNoPosts
	}
	level, err := a.levelOption(r)
	if err != nil {
		return err
	}
	st, level, err := a.BotGate(ctx, r, level)
	if err != nil {
		return err
	}
	s, err := parseSetup(r, "black", st)
	if err != nil {
		return err
	}
	period := defaultVotePeriod
	if v, ok := r.String("period"); ok {
		if period, err = parseVotePeriod(v); err != nil {
			return err
		}
	}
	if err := a.ChannelFree(ctx, it.ChannelID); err != nil {
		if errors.Is(err, commands.ErrGameRunning) {
			return errVoteChannelTaken
		}
		return err
	}
	eg, err := engine.NewGame(engine.Config{Size: s.Size, Rules: s.Rules, Handicap: s.Handicap, Seed: commands.SeedFrom(it.ID)})
	if err != nil {
		return commands.UserErr(err, fmt.Sprintf("This game cannot start: %v.", err))
	}
	crowd := storage.Player{Crowd: it.ChannelID, Name: crowdName}
	bot := storage.Player{Level: level, Name: "gobot " + level}
	black, white := crowd, bot
	c := engine.Black
	if !s.requesterBlack(rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(commands.SeedFrom(it.ID))))) {
		black, white, c = bot, crowd, engine.White
	}
	now := a.Now()
	g := &storage.Game{ID: it.ID, ChannelID: it.ChannelID, GuildID: it.GuildID, ParentChannelID: commands.ThreadParent(r), Sides: storage.Sides(black, white), State: engine.Own(eg), CreatedAt: now,
		Unrated: true, VotePeriod: period, Delivery: storage.Delivery{Followup: commands.FollowupOf(it, now)}}
	intro := fmt.Sprintf("🗳️ **This channel against gobot %s**: everyone here plays %s %s by vote (%s, unrated). "+
		"Vote with `/go play move:` or a button; a vote can be changed until the period of %s ends, and the move with most votes is played.",
		level, stoneEmoji(c), c, describeSetup(s.Size, s.Rules, eg.Handicap()), commands.HumanDuration(period))
	openVote(g, now, intro)
	a.levelRanks(g)
	if err := a.GameStore().CreateGame(ctx, g); err != nil {
		if errors.Is(err, storage.ErrExists) {
			return errVoteChannelTaken
		}
		return err
	}
	a.Logger().Info("vote game started", "game", g.ID, "channel", g.ChannelID, "level", level)
	a.KickClocks()
	if g.BotToMove() {
		// gobot moves first: its worker posts the board the vote is on.
		return r.Reply(ctx, &commands.Message{Content: intro + "\ngobot is thinking about its first move.", AllowedMentions: commands.NoMentions()})
	}
	// The board's message ID is needed to show the votes on it: defer,
	// read the deferred message's ID, then answer in it.
	if err := r.Defer(ctx, false); err != nil {
		return err
	}
	if orig, err := r.Original(ctx); err != nil {
		a.Logger().Warn("vote: read deferred message; it will not show the votes", "err", err)
	} else {
		a.keepVoteBoard(ctx, g, orig)
	}
	m, err := a.StateMessage(ctx, g, now, intro)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
}

// parseVotePeriod reads a vote period: a duration such as 10m, 2h or 1d,
// from a minute to a day.
func parseVotePeriod(s string) (time.Duration, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(t, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(t)
	}
	if err != nil || d < minVotePeriod || d > maxVotePeriod {
		return 0, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("The vote period must be from 1 minute to 1 day, like 10m, 2h or 1d, not %s.", commands.Quote(s)))
	}
	return d, nil
}

// syncVote keeps a vote game's vote in step with the game: a vote is open
// while the voters are to move (a new one, for a whole period, when the
// bot has just answered), and none otherwise.
func syncVote(g *storage.Game, now time.Time) {
	if !isVoteGame(g) || goOf(g) == nil {
		return
	}
	_, over := goOf(g).Result()
	if over || g.Scoring != nil || goOf(g).PlayEnded() || !g.Player(engine.SideOf(goOf(g).ToPlay())).IsCrowd() {
		g.Vote = nil
		return
	}
	if g.Vote == nil {
		g.Vote = &storage.Vote{Deadline: now.Add(g.VotePeriod), Moves: g.State.MoveCount()}
	}
}

// openVote is syncVote for a write whose board shows note (what gobot
// played, or how the game begins): a vote that opens with it keeps the
// note for its board, drawn again with the votes (refreshBoard).
func openVote(g *storage.Game, now time.Time, note string) {
	open := g.Vote != nil
	syncVote(g, now)
	if !open && g.Vote != nil {
		g.Vote.Note = note
	}
}

// voteAttempts is how many times a vote is tried against the game as it
// is stored: in a busy channel, votes cast at the same moment each write
// the game, and all but one find it changed (a version conflict); each
// tries again after a short random pause that grows with the attempts.
const voteAttempts = 20

// castVote records r's user's vote for the move text in vote game g,
// reading the game again when another vote was written first: a vote is
// for the position it was cast on, so once that vote has closed (a move
// was played since) it is refused rather than carried to the next one.
func (a *room) castVote(ctx context.Context, r *commands.Request, g *storage.Game, text string) error {
	if err := a.NotBanned(ctx, g.GuildID, commands.UserPlayer(r.User), true); err != nil {
		return err
	}
	id, moves := g.ID, g.State.MoveCount()
	for attempt := 1; ; attempt++ {
		if g.ID != id || g.State.MoveCount() != moves {
			return commands.UserErr(commands.ErrStale, "The vote on that move closed while yours was being counted: look at the newest board and vote again.")
		}
		err := a.tryVote(ctx, r, g, text)
		if !errors.Is(err, commands.ErrConflict) || attempt == voteAttempts {
			return err
		}
		select {
		case <-time.After(time.Duration(rand.IntN(2*attempt)+1) * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
		if g, err = a.LoadGame(ctx, g.ChannelID); err != nil {
			return err
		}
	}
}

// tryVote is one attempt of castVote on g as read.
func (a *room) tryVote(ctx context.Context, r *commands.Request, g *storage.Game, text string) error {
	if _, over := goOf(g).Result(); over {
		return commands.ErrGameOver
	}
	c := goOf(g).ToPlay()
	if g.Vote == nil || !g.Player(engine.SideOf(c)).IsCrowd() {
		return commands.UserErr(commands.ErrNotYourTurn, fmt.Sprintf("It is %s's turn: the vote on the next move opens when it has answered.", commands.Mention(g.Player(engine.SideOf(c)))))
	}
	m, err := parseMove(c, text, goOf(g).Size())
	if errors.Is(err, engine.ErrResignTyped) {
		return errVoteNoResign // not parseMove's pointer to /go resign, which refuses here
	}
	if err != nil {
		return err
	}
	if err := goOf(g).Check(m); err != nil {
		return moveError(err, m, g)
	}
	now := a.Now()
	me := commands.UserPlayer(r.User)
	for i := len(g.Vote.Ballots) - 1; i >= 0; i-- {
		if b := g.Vote.Ballots[i]; b.UserID == me.UserID {
			if b.Move == m.String() {
				return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("You already vote for **%s**: one vote a person a move. Vote for another move to change it.", m))
			}
			break
		}
	}
	v := *g.Vote
	v.Ballots = append(append([]storage.Ballot(nil), v.Ballots...), storage.Ballot{UserID: me.UserID, Name: me.Name, Move: m.String(), At: now})
	if v.Deadline.IsZero() {
		// Adjourned: this vote opens a new period.
		v.Deadline, v.Restarted = now.Add(g.VotePeriod), false
	}
	g.Vote = &v
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	a.refreshBoard(ctx, g)
	return r.Reply(ctx, &commands.Message{
		Content:   fmt.Sprintf("🗳️ Your vote: **%s**. %s", m, voteLine(a.countedNow(ctx, g))),
		Ephemeral: true,
	})
}

// keepVoteBoard records a vote game's board message, so that a vote can
// show itself on it (refreshBoard): m, drawn from g, becomes the board of
// g's vote when that vote is still open on g's move (storage.SetVoteBoard).
// A vote cast between g's write and this record found no board of its
// move to show itself on: m, drawn before it, is drawn again with it.
func (a *room) keepVoteBoard(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	if !isVoteGame(g) {
		return
	}
	a.KeepBoardID(ctx, g, m)
	if g.Vote == nil || m == nil || m.ID == "" {
		return
	}
	switch err := a.GameStore().SetVoteBoard(ctx, g.ChannelID, g.ID, g.State.MoveCount(), m.ID); {
	case errors.Is(err, storage.ErrNotFound):
		return // the vote closed, or the game ended, since g was drawn
	case err != nil:
		a.Logger().Info("vote: record the vote's board", "game", g.ID, "err", err)
		return
	}
	cur, err := a.LoadGame(ctx, g.ChannelID)
	if err != nil || cur.ID != g.ID || cur.Vote == nil || cur.State.MoveCount() != g.State.MoveCount() || len(cur.Vote.Ballots) == len(g.Vote.Ballots) {
		return // no vote since g was read (a vote after this record showed itself)
	}
	a.refreshBoard(ctx, cur)
}

// voteBoard returns the board message g's open vote is shown on, the
// newest board of its move (storage.Vote.Board), or "" while that board is
// not yet posted: the newest board recorded may be the round before's,
// closed with the vote that chose the channel's last move. A vote stored
// before votes knew their board shows on the newest board.
func voteBoard(g *storage.Game) string {
	switch {
	case g.Vote == nil:
		return ""
	case g.Vote.Board == "" && g.Vote.Moves != g.State.MoveCount():
		return commands.NewestBoard(g)
	}
	return g.Vote.Board
}

// cmdBoard is /go board (commands.CmdBoardHere). In a vote game its
// answer becomes the newest board, the one the votes show on: the answer
// is deferred, so that Discord names its message and keepVoteBoard keeps
// it (see commands.Phases.Posted); the board the vote was shown on until
// then no longer shows it, nor its buttons (one edit).
func (a *room) cmdBoard(ctx context.Context, r *commands.Request) error {
	g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
	switch {
	case errors.Is(err, commands.ErrNoGame):
		return a.CmdBoardHere(ctx, r) // the last game finished here
	case err != nil:
		return err
	case !isVoteGame(g):
		return a.CmdBoard(ctx, r, g)
	}
	if err := r.Defer(ctx, false); err != nil {
		return err
	}
	// The vote's board, when it is open (while gobot moves, there is no
	// vote: the newest board is the last vote's, closed already).
	shown := ""
	if !g.BotToMove() {
		shown = voteBoard(g)
	}
	if err := a.CmdBoard(ctx, r, g); err != nil || shown == "" {
		return err
	}
	m, err := closedBoard(g, a.Now(), "🗳️ The vote goes on below, on the newest board.", false)
	if err == nil {
		err = a.Discord().EditMessage(ctx, g.ChannelID, shown, m)
	}
	if err != nil {
		a.Logger().Info("vote: close the board a newer one replaces", "game", g.ID, "err", err)
	}
	return nil
}

// refreshBoard edits the board of g's vote (voteBoard) to show it as it
// is now (the votes so far, under the note it opened with), without a new
// message. Before that board is recorded there is none to edit: it shows
// the votes cast meanwhile once it is (keepVoteBoard).
func (a *room) refreshBoard(ctx context.Context, g *storage.Game) {
	board := voteBoard(g)
	if board == "" {
		return
	}
	m, err := boardMessage(a.countedNow(ctx, g), a.Now(), "", g.Unrated) // with the note the vote opened with
	if err == nil {
		err = a.Discord().EditMessage(ctx, g.ChannelID, board, m)
	}
	if err != nil {
		a.Logger().Info("vote: refresh the board", "game", g.ID, "err", err)
	}
}

// voteLine says how the vote stands: the moves with their votes, and when
// the move is played.
func voteLine(g *storage.Game) string {
	v := g.Vote
	if v == nil {
		return ""
	}
	line := tally(v)
	if v.Deadline.IsZero() {
		return line + ". The game is adjourned: the next vote opens a new period."
	}
	return fmt.Sprintf("%s. The move is played <t:%d:R>.", line, v.Deadline.Unix())
}

// tally says v's votes: "Votes: **D4** 2 · **C3** 1", "No votes yet".
func tally(v *storage.Vote) string {
	counts, order := v.Counts()
	if len(order) == 0 {
		return "No votes yet"
	}
	var sb strings.Builder
	sb.WriteString("Votes: ")
	for i, mv := range order {
		if i == 8 {
			fmt.Fprintf(&sb, " · and %d more", len(order)-i)
			break
		}
		if i > 0 {
			sb.WriteString(" · ")
		}
		fmt.Fprintf(&sb, "**%s** %d", mv, counts[mv])
	}
	return sb.String()
}

// voteComponents are a vote game's buttons: the most voted moves, and
// pass.
func voteComponents(g *storage.Game) []discordgo.MessageComponent {
	n := strconv.Itoa(g.State.MoveCount())
	var btns []discordgo.MessageComponent
	_, order := g.Vote.Counts()
	for _, mv := range order {
		if mv == "pass" {
			continue
		}
		if len(btns) == voteButtons {
			break
		}
		btns = append(btns, discordgo.Button{Label: "Vote " + mv, Style: discordgo.PrimaryButton, CustomID: "vote/" + g.ID + "/" + n + "/" + mv})
	}
	btns = append(btns, discordgo.Button{Label: "Vote pass", Style: discordgo.SecondaryButton, CustomID: "vote/" + g.ID + "/" + n + "/pass"})
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
}

// btnVote is a vote button: a vote for its move in the game of the
// channel it was pressed in.
func (a *room) btnVote(ctx context.Context, r *commands.Request) error {
	g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
	if errors.Is(err, commands.ErrNoGame) || (err == nil && (g.ID != r.Param("id") || !isVoteGame(g))) {
		return commands.UserErr(commands.ErrStale, "That vote button belongs to a game of another channel, or to one that has ended: vote with `/go play` where the game is.")
	}
	if err != nil {
		return err
	}
	if r.Param("move") != strconv.Itoa(g.State.MoveCount()) {
		return commands.UserErr(commands.ErrStale, "That vote was on an earlier move. Use the buttons on the newest board, or `/go play`.")
	}
	return a.castVote(ctx, r, g, r.Param("point"))
}

// closeVote ends g's vote at its deadline: the legal move with most votes
// is played (ties: the one that has held that count longest) and announced; without a
// vote the period begins again once, and then the game is adjourned.
func (a *room) closeVote(ctx context.Context, g *storage.Game) error {
	now := a.Now()
	c := goOf(g).ToPlay()
	vote, err := a.countedVote(ctx, g)
	if err != nil {
		return err
	}
	counts, order := vote.Counts()
	for _, mv := range order {
		m, err := engine.ReadMove(c, mv, goOf(g).Size())
		if err != nil || goOf(g).Check(m) != nil {
			continue
		}
		voters := vote.Voters(mv)
		total := len(distinctVoters(vote))
		// A tie is broken by who reached the count first: say so, or the
		// channel sees two moves at 2 and one chosen for no reason.
		var tied []string
		for _, o := range order {
			if o != mv && counts[o] == counts[mv] {
				tied = append(tied, "**"+o+"**")
			}
		}
		why := ""
		if len(tied) > 0 {
			why = fmt.Sprintf(", which reached %s before %s", commands.Plural(counts[mv], "vote"), strings.Join(tied, " and "))
		}
		closed, err := closedBoard(g, now, fmt.Sprintf("🗳️ %s. The vote chose **%s**%s.", tally(vote), m, why), true)
		if err != nil {
			return err
		}
		board := voteBoard(g) // before the vote is gone
		if g.VoteLog == nil {
			g.VoteLog = map[int][]string{}
		}
		g.VoteLog[g.State.MoveCount()+1] = voters
		g.Vote = nil
		note, err := a.apply(ctx, g, m)
		if err != nil {
			return err
		}
		a.closeBoard(ctx, g, board, closed)
		text := fmt.Sprintf("🗳️ The vote chose **%s**: %s of %s (%s).\n%s", m, commands.Plural(len(voters), "vote"), commands.Plural(total, "voter"), strings.Join(voters, ", "), note)
		if (*storage.Game).BotToMove(g) {
			// gobot answers: a worker posts the board after its move, the
			// round's one board. A board posted here could come after
			// that one (the worker may be quicker than this post) and
			// show the channel the position before gobot's move.
			if _, err := a.Post(ctx, g, &commands.Message{Content: text, AllowedMentions: commands.NoMentions()}); err != nil {
				a.Logger().Warn("vote: announce", "game", g.ID, "err", err)
			}
			return nil
		}
		return a.announce(ctx, g, text)
	}
	v := *vote
	text := ""
	nobody, period := "Nobody voted", "Nobody voted in two periods"
	if len(g.Vote.Ballots) > 0 {
		nobody, period = "No vote counts (its voters are banned on this server)", "No vote counted in two periods (the voters are banned on this server)"
	}
	if !v.Restarted {
		v.Deadline, v.Restarted = now.Add(g.VotePeriod), true
		text = fmt.Sprintf("🗳️ %s: the vote stays open, closing <t:%d:R>. Vote with `/go play move:`.", nobody, v.Deadline.Unix())
	} else {
		v.Deadline = time.Time{}
		text = "🗳️ " + period + ": the game is adjourned. The next vote with `/go play move:` opens a new period."
	}
	closed, err := closedBoard(g, now, "🗳️ This period ended without a vote that counts: the vote goes on below.", false)
	if err != nil {
		return err
	}
	g.Vote = &v
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	a.closeBoard(ctx, g, voteBoard(g), closed)
	return a.announce(ctx, g, text)
}

// closedBoard is the board of vote game g, as it stands while its vote is
// open, once that vote has closed: the note it opened with and line (how
// the vote ended) instead of the votes and their deadline, and no Vote
// buttons. A vote that is over for good (done: a move chosen, or the game
// ended) no longer says the channel is to play on it.
func closedBoard(g *storage.Game, now time.Time, line string, done bool) (*commands.Message, error) {
	c := *g
	c.Vote = nil
	m, err := boardMessage(&c, now, strings.TrimSpace(g.Vote.Note+"\n"+line), g.Unrated)
	if err != nil {
		return nil, err
	}
	if done && len(m.Embeds) > 0 {
		eg := goOf(g)
		closed := fmt.Sprintf("**Move %d** · %s %s: the vote has closed", eg.MoveCount()+1, stoneEmoji(eg.ToPlay()), eg.ToPlay())
		m.Embeds[0].Description = strings.Replace(m.Embeds[0].Description, toPlayLine(g), closed, 1)
	}
	m.Components, m.ClearComponents = nil, true
	return m, nil
}

// RetiredBoard is the newest board of vote game g once g ended with its
// vote open (a moderator's abort, an adjudication): the votes of the round
// and that the vote closed without a move, without buttons. A game
// ended at its count another way than by the count (a moderator's
// adjudication or annulment, an abort, a resignation) shows the count as
// it stopped (stoppedCountBoard), without its deadline. Other games'
// boards only lose their buttons (nil).
//
// Every ending calls it (commands.RetireBoard: on time, by the scheduler
// or a late move; aborted; adjudicated; resigned), so it is also where
// the question of an undo request left open by an ending without a move
// is closed (closeEndedAsk).
func (a *room) RetiredBoard(g *storage.Game, now time.Time) *commands.Message {
	a.closeEndedAsk(g)
	if res, over := goOf(g).Result(); g.Scoring != nil && (!over || res.Reason != engine.ByScore) {
		m, err := stoppedCountBoard(g)
		if err != nil {
			a.Logger().Warn("scoring: draw the board of the count that stopped", "game", g.ID, "err", err)
			return nil
		}
		return m
	}
	if !isVoteGame(g) || g.Vote == nil {
		return nil
	}
	shown := a.countedNow(context.Background(), g) // the interface gives no context
	m, err := closedBoard(g, now, fmt.Sprintf("🗳️ %s. The game ended: the vote closed without a move.", tally(shown.Vote)), true)
	if err != nil {
		a.Logger().Warn("vote: draw the board of the ended game", "game", g.ID, "err", err)
		return nil
	}
	return m
}

// closeBoard edits board, the board of vote game g that its vote that
// just closed was shown on (voteBoard), into m (closedBoard): one edit, as
// refreshBoard's.
func (a *room) closeBoard(ctx context.Context, g *storage.Game, board string, m *commands.Message) {
	if board == "" {
		return
	}
	if err := a.Discord().EditMessage(ctx, g.ChannelID, board, m); err != nil {
		a.Logger().Info("vote: close the board", "game", g.ID, "err", err)
	}
}

// countedVote is g's vote as it counts when it closes: without the
// ballots of people banned on g's server while it was open (castVote
// refuses the votes of people banned before).
func (a *room) countedVote(ctx context.Context, g *storage.Game) (*storage.Vote, error) {
	banned := map[string]bool{}
	for id := range distinctVoters(g.Vote) {
		switch err := a.NotBanned(ctx, g.GuildID, storage.Player{UserID: id}, false); {
		case errors.Is(err, commands.ErrForbidden):
			banned[id] = true
		case err != nil:
			return nil, err
		}
	}
	if len(banned) == 0 {
		return g.Vote, nil
	}
	v := *g.Vote
	v.Ballots = slices.DeleteFunc(slices.Clone(v.Ballots), func(b storage.Ballot) bool { return banned[b.UserID] })
	return &v, nil
}

// countedNow returns g to be shown with its vote as it would count if it
// closed now (countedVote): the tally and the Vote buttons leave out the
// ballots of voters banned on the server since they voted, as soon as the
// ban is given, rather than show votes that will not count until the close
// drops them. g itself keeps them: a ban lifted before the close lets them
// count again. When the bans cannot be read, g is shown as it is.
func (a *room) countedNow(ctx context.Context, g *storage.Game) *storage.Game {
	if g.Vote == nil || len(g.Vote.Ballots) == 0 {
		return g
	}
	v, err := a.countedVote(ctx, g)
	if err != nil {
		a.Logger().Info("vote: read the voters' bans for the board", "game", g.ID, "err", err)
		return g
	}
	if v == g.Vote {
		return g
	}
	c := *g
	c.Vote = v
	return &c
}

// announce posts g's board with a note, outside any interaction.
func (a *room) announce(ctx context.Context, g *storage.Game, note string) error {
	m, err := a.StateMessage(ctx, g, a.Now(), note)
	if err == nil {
		err = a.PostBoard(ctx, g, m)
	}
	if err != nil {
		a.Logger().Warn("vote: announce", "game", g.ID, "err", err)
	}
	return nil
}

// distinctVoters returns the people who have a vote in v.
func distinctVoters(v *storage.Vote) map[string]bool {
	seen := map[string]bool{}
	for _, b := range v.Ballots {
		seen[b.UserID] = true
	}
	return seen
}
