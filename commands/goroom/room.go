package goroom

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// goKind is Go's kind name in records.
const goKind = engine.KindName

// New makes Go's room with the bots' levels (players) and the reviewer of
// its reviews and estimates (nil: players, when they review too, else the
// built-in search); cmd/gobot lists it first in commands.Options.Rooms.
func New(players Players, reviewer Reviewer) commands.NewRoom {
	return func(a *commands.App) (commands.Room, error) {
		if players == nil {
			return nil, errors.New("goroom: New needs the bots' levels")
		}
		rv := reviewer
		if rv == nil {
			if pr, ok := players.(Reviewer); ok {
				rv = pr
			} else {
				rv = NewLocalReviewer(review.MCTS{Seed: 1})
			}
		}
		return &room{App: a, players: players, reviewer: rv, reviewing: newReviews()}, nil
	}
}

// room is Go's room: the handlers of /go that only Go has (moves and
// passes, undo, the scoring phase, rengo and vote games, reviews and
// estimates) and Go's boards, records and bots.
type room struct {
	*commands.App
	players  Players
	reviewer Reviewer
	// reviewing cancels the reviews running here at shutdown (their
	// leases, in the store, say who runs which: review.go).
	reviewing *reviews
	// unsure is what the estimate was unsure of in the games scoring
	// here, for the board page (web.go).
	unsure unsureCache
}

func (*room) Kind() string                 { return goKind }
func (*room) Command() string              { return commands.CommandName }
func (*room) Name() string                 { return "Go" }
func (*room) ButtonPrefix() string         { return "game/" }
func (*room) RecordCommand() string        { return "sgf" }
func (r *room) Routes(rt *commands.Router) { r.goRoutes(rt) }

func (r *room) Definition(map[string]*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return definition()
}

func (r *room) Message(ctx context.Context, g *storage.Game, now time.Time, note string) (*commands.Message, error) {
	res, over := goOf(g).Result()
	switch {
	case g.Scoring != nil && !over:
		// The board of the game's state in the scoring phase is first
		// the one the pass that ended play drew.
		return r.scoringMessage(ctx, g, now, note, movedBy(g, g.State.MoveCount()-1))
	case g.Scoring != nil && res.Reason == engine.ByScore:
		return finalScoreMessage(g, now, note, r.ShownUnrated(ctx, g))
	}
	return boardMessage(r.countedNow(ctx, g), now, note, r.ShownUnrated(ctx, g)) // a vote game's votes as they count
}

// AskedMessage is the board someone asked for: at the count it names
// everyone the count waits for, the last passer too, as no action of
// theirs drew it. Go's board is the same for every viewer.
func (r *room) AskedMessage(ctx context.Context, g *storage.Game, now time.Time, _ string) (*commands.Message, error) {
	if _, over := goOf(g).Result(); g.Scoring != nil && !over {
		return r.scoringMessage(ctx, g, now, "", storage.Player{})
	}
	return r.Message(ctx, g, now, "")
}

func (*room) Title(g *storage.Game) string { return title(g) }

func (*room) SideLabel(g *storage.Game, s game.Side) string { return sideLabel(s) }

// sideLabel is side s with its stones' emoji: "⚫ black", "⚪ white".
func sideLabel(s game.Side) string {
	c := engine.ColorOf(s)
	return stoneEmoji(c) + " " + c.String()
}

func (*room) Line(g *storage.Game) (players, board string, move int) {
	n := goOf(g).Size()
	return fmt.Sprintf("⚫ %s vs ⚪ %s", teamMention(g, engine.Black), teamMention(g, engine.White)),
		fmt.Sprintf("%d×%d", n, n), g.State.MoveCount() + 1
}

func (*room) OwnMoves(g *storage.Game, s game.Side) int {
	c, n := engine.ColorOf(s), 0
	for _, m := range goOf(g).Moves() {
		if m.Color == c {
			n++
		}
	}
	return n
}

func (*room) LastMover(g *storage.Game) storage.Player { return movedBy(g, g.State.MoveCount()-1) }

// MoveLine says a person's move (ply, from 0) of g again, as its answer
// said it (without the captures): "⚫ @gina played **E5**.", "⚫ @gina
// passed."; empty for a bot's.
func (*room) MoveLine(g *storage.Game, ply int) string {
	moves := goOf(g).Moves()
	p := movedBy(g, ply)
	if p.IsBot() || ply < 0 || ply >= len(moves) {
		return ""
	}
	m := moves[ply]
	who := stoneEmoji(m.Color) + " " + commands.Mention(p)
	switch m.Kind {
	case engine.Pass:
		return who + " passed."
	case engine.Resign:
		return ""
	}
	return fmt.Sprintf("%s played **%s**.", who, m.Point)
}

func (r *room) BotMove(ctx context.Context, g *storage.Game) (string, error) {
	a := r
	c := goOf(g).ToPlay()
	level := g.Player(engine.SideOf(c)).Level
	mctx, cancel := context.WithTimeout(ctx, commands.BotMoveTimeout)
	if d, ok := clockShare(g, a.Now()); ok {
		mctx = bots.WithMoveTime(mctx, d)
	}
	mctx, standIn := bots.WithStandIn(mctx)
	m, err := a.players.GenMove(mctx, level, goOf(g).Clone())
	cancel()
	if err != nil {
		return "", fmt.Errorf("goroom: bot %s in game %s: %w", level, g.ID, err)
	}
	m.Color = c
	note, err := a.apply(ctx, g, m)
	if why := standInNotes[standIn()]; why != "" && err == nil {
		note += "\n⚠️ A quick stand-in chose this move: " + why
	}
	return note, err
}

// standInNotes say why a move was a stand-in's (bots.WithStandIn), to the
// players, who chose the level.
var standInNotes = map[string]string{
	bots.StandInBusy:    "every bot was busy for longer than this move's time on the clock allows.",
	bots.StandInLate:    "the engine did not answer within this move's time on the clock.",
	bots.StandInIllegal: "the engine chose a move the rules forbid here.",
	bots.StandInFailed:  "the engine failed (the log says how), and a move tried again later would have lost on time.",
}

func (r *room) ActiveRecord(ctx context.Context, req *commands.Request, g *storage.Game) error {
	return r.activeSGF(ctx, req, g)
}

func (*room) Archived(g *storage.Game, annulled bool, void, note string) (storage.Archived, error) {
	eg := goOf(g)
	res, _ := eg.Result()
	var dead []engine.Point
	if g.Scoring != nil {
		dead = deadOf(g)
	}
	info := sgfInfo(g, dead, res.Reason == engine.ByScore)
	switch {
	case void != "":
		info.RE, info.Dead = "Void", nil
		rootComment(&info, void)
	case annulled:
		annulledOnTime(&info, g)
	case note != "":
		rootComment(&info, note)
	}
	sgf, err := writeSGF(g, info)
	if err != nil {
		return storage.Archived{}, err
	}
	arc := storage.Archived{
		Black: g.First(engine.SideOf(engine.Black)), White: g.First(engine.SideOf(engine.White)),
		Size: eg.Size(), Rules: eg.Rules(), Handicap: eg.Handicap(),
		Result: res.String(), SGF: sgf,
	}
	if g.Scoring != nil && res.Reason == engine.ByScore {
		arc.Marking = g.Scoring.Settled
	}
	return arc, nil
}

func (*room) UnratedNote(g *storage.Game) string { return goUnratedNote(g) }

func (*room) MarkRecord(arc *storage.Archived, comment string) ([]byte, error) {
	sgf, err := engine.AddRootComment(arc.SGF, comment)
	if err != nil {
		return nil, fmt.Errorf("goroom: record of game %s: %w", arc.ID, err)
	}
	return sgf, nil
}

// Text is the console's board. While the dead stones are marked, those
// marked dead are drawn in lower case (x, o), as a line under it says.
func (*room) Text(g *storage.Game) string {
	b := goOf(g).Board()
	s := b.String()
	dead := deadOf(g)
	if len(dead) == 0 {
		return s
	}
	// Board.String: a header line, then the rows from the top, each
	// point two characters after a three-character label.
	lines := strings.Split(s, "\n")
	for _, p := range dead {
		line := []byte(lines[b.Size()-p.Row])
		i := 3 + 2*p.Col
		switch line[i] {
		case 'X':
			line[i] = 'x'
		case 'O':
			line[i] = 'o'
		}
		lines[b.Size()-p.Row] = string(line)
	}
	return strings.Join(lines, "\n") + "x, o: the stones marked dead\n"
}

func (r *room) ChallengeText(c *storage.Challenge) string {
	// The interface gives no context.
	return goChallengeText(c, r.PoolsNote(context.Background(), c.GuildID, false) != "")
}

func (r *room) Accept(ctx context.Context, req *commands.Request, c *storage.Challenge) error {
	a := r
	color, why := c.Color, ""
	if color == commands.ColorByRating {
		color, why = a.LowerRatedColor(ctx, c)
	}
	challengerBlack := setup{Color: color}.requesterBlack(rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x9e3779b97f4a7c15)))
	black, white := c.Challenger, c.Opponent
	if !challengerBlack {
		black, white = white, black
	}
	outcome := fmt.Sprintf("✅ %s accepted: %s ⚫ black, %s ⚪ white.", commands.Mention(c.Opponent), commands.Mention(black), commands.Mention(white))
	if why != "" {
		outcome += " " + why
	}
	return a.StartChallenge(ctx, req, c, storage.Sides(black, white), fmt.Sprintf("Go: %s vs %s", commands.PlainName(black), commands.PlainName(white)),
		func(outcome string) *commands.Message { return a.ChallengeMessage(c, outcome) }, outcome)
}

func (*room) NewState(c *storage.Challenge) (game.State, error) {
	eg, err := engine.NewGame(engine.Config{Size: c.Size, Rules: c.Rules, Handicap: c.Handicap, Seed: commands.SeedFrom(c.ID)})
	if err != nil {
		return nil, commands.UserErr(err, fmt.Sprintf("This challenge cannot start: %v.", err))
	}
	return engine.Own(eg), nil
}

// Setup names a finished game's board, with its handicap stones as a game
// list shows them ("13×13 H3"): a handicap game is not an even one.
func (*room) Setup(arc *storage.Archived) string {
	if arc.Handicap > 0 {
		return fmt.Sprintf("%d×%d H%d", arc.Size, arc.Size, arc.Handicap)
	}
	return fmt.Sprintf("%d×%d", arc.Size, arc.Size)
}

func (*room) Record(arc *storage.Archived) (commands.File, string) {
	return sgfFile(arc.ID, commands.ArchivedTitle(arc), arc.SGF), "SGF, opens in any Go editor"
}

func (*room) Finished(arc *storage.Archived) (*commands.Message, error) {
	return finishedBoardMessage(arc)
}

// FinishedText is the final position of arc as Text draws it, the dead
// stones of a counted game in lower case.
func (r *room) FinishedText(arc *storage.Archived) string {
	eg, info, err := engine.ParseSGF(arc.SGF)
	if err != nil {
		return ""
	}
	g := &storage.Game{ID: arc.ID, Sides: arc.GoSides(), State: engine.Own(eg)}
	if len(info.Dead) > 0 {
		g.Scoring = &storage.ScoringState{}
		setDead(g, info.Dead)
	}
	return r.Text(g)
}

func (*room) Animation(arc *storage.Archived) (commands.File, error) { return goArchivedGIF(arc) }

func (*room) Sync(g *storage.Game, now time.Time) { syncVote(g, now) }

func (r *room) Due(ctx context.Context, g *storage.Game) (bool, error) {
	switch {
	case g.Scoring != nil:
		r.scoringTimeout(ctx, g)
		return true, nil
	case g.Vote != nil:
		return true, r.closeVote(ctx, g)
	}
	return false, nil
}

func (r *room) Posted(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	r.keepVoteBoard(ctx, g, m)
	r.keepPostedAsk(ctx, g, m)
	r.KeepPostedTeamVote(ctx, g, m)
}

func (r *room) TeamTimeUp(ctx context.Context, g *storage.Game, s game.Side, deadline time.Time) (bool, error) {
	return r.teamTimeUp(ctx, g, engine.ColorOf(s), deadline)
}

func (*room) Lobby(c *storage.Challenge, outcome, note string) *commands.Message {
	return lobbyNoted(c, outcome, note)
}

func (r *room) ReviewedRecord(ctx context.Context, arc *storage.Archived) ([]byte, string, error) {
	return r.reviewedRecord(ctx, arc)
}

func (*room) Setting(st *storage.Settings, name string) (string, bool) {
	switch name {
	case "ruleset":
		if st.Ruleset == "" {
			return "gobot's default (" + engine.PresetNames[0] + ")", true
		}
		return st.Ruleset, true
	case "komi":
		if st.Komi == nil {
			return "the ruleset's", true
		}
		return engine.FormatKomi(*st.Komi), true
	}
	return "", false
}

func (*room) SetSetting(st *storage.Settings, name, value string) (bool, error) {
	bad := func(format string, args ...any) error {
		return commands.UserErr(commands.ErrBadOption, fmt.Sprintf(format, args...))
	}
	switch name {
	case "ruleset":
		v := strings.ToLower(value)
		if _, err := engine.Preset(v); err != nil {
			return true, bad("Unknown ruleset %s: choose %s.", commands.Quote(value), strings.Join(engine.PresetNames, ", "))
		}
		st.Ruleset = v
	case "komi":
		k, err := engine.ParseKomi(value)
		if err != nil || !engine.ValidKomi(k) {
			return true, bad("Komi must be from -150 to 150 in steps of 0.5, not %s.", commands.Quote(value))
		}
		if k == 0 {
			k = 0 // -0 is 0, and shows so
		}
		st.Komi = &k
	default:
		return false, nil
	}
	return true, nil
}

// Stop stops the reviews running at once (commands.Stopper).
func (r *room) Stop() { r.reviewing.halt.Stop() }

// Go's room is a room, with phases, a board page, server settings,
// reviewed records and long work of its own.
var (
	_ commands.Room           = (*room)(nil)
	_ commands.Phases         = (*room)(nil)
	_ commands.WebRoom        = (*room)(nil)
	_ commands.ServerSettings = (*room)(nil)
	_ commands.Reviewed       = (*room)(nil)
	_ commands.Stopper        = (*room)(nil)
)

func (r *room) Levels() []commands.Level { return r.players.Levels() }

// Ranks is what Players add when they know their levels' ranks by board
// size: RankOn is level's rank for a size×size board in kyu, measured on
// a measured×measured board (the size the level was measured on when it
// never was on this one); kyu is 0 for a level without a rank.
type Ranks interface {
	RankOn(level string, size int) (kyu, measured int)
}

// rankOn says level's rank for a size×size board as /go bot shows it:
// "about 9 kyu", or "about 9 kyu on 9×9, not measured on 19×19" when its
// rank was measured on another size; "" when it has none.
func (r *room) rankOn(level string, size int) string {
	rk, ok := r.players.(Ranks)
	if !ok {
		return ""
	}
	kyu, measured := rk.RankOn(level, size)
	switch {
	case kyu <= 0:
		return ""
	case measured != size:
		return fmt.Sprintf("about %d kyu on %d×%d, not measured on %d×%d", kyu, measured, measured, size, size)
	}
	return fmt.Sprintf("about %d kyu", kyu)
}

// levelRank is level's rank for a size×size board as a record writes it
// ("9k"), when it was measured on that size; "" when it has none or was
// measured on another size only: /go bot says "about 9 kyu on 9×9, not
// measured on 19×19" (rankOn), which BR has no room for, and a record
// read elsewhere must not pass 9×9's rank for 19×19's.
func (r *room) levelRank(level string, size int) string {
	rk, ok := r.players.(Ranks)
	if !ok {
		return ""
	}
	if kyu, measured := rk.RankOn(level, size); kyu > 0 && measured == size {
		return fmt.Sprintf("%dk", kyu)
	}
	return ""
}

// botRanks fills g.Ranks of a new game against a bot: the person's rank
// in the global pool (commands.App.StartRanks) and the bot's level's
// rank (levelRanks).
func (r *room) botRanks(ctx context.Context, g *storage.Game) {
	r.StartRanks(ctx, g)
	r.levelRanks(g)
}

// levelRanks fills in g.Ranks the rank of each bot side's level
// (levelRank): a vote game's record names gobot's rank as a bot game's
// does, and the channel's side none (a crowd has no rating).
func (r *room) levelRanks(g *storage.Game) {
	for i, s := range g.Sides {
		if p := s.Players[0]; p.IsBot() {
			if rank := r.levelRank(p.Level, goOf(g).Size()); rank != "" {
				if g.Ranks == nil {
					g.Ranks = make([]string, len(g.Sides))
				}
				g.Ranks[i] = rank
			}
		}
	}
}

// Players is what Go's room needs from the AI opponents: the levels on offer
// and a move for one of them. GenMove must not modify g, returns a legal
// move for g.ToPlay() (Place, Pass or Resign), and returns when ctx ends.
type Players interface {
	Levels() []commands.Level
	GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error)
}
