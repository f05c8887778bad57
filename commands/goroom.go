package commands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// goKind is Go's kind name in records.
const goKind = engine.KindName

// GoRoom makes Go's room: cmd/gobot lists it first in Options.Rooms (and
// an App given no rooms has it alone).
func GoRoom(a *App) (Room, error) { return goRoom{a}, nil }

// goRoom is Go's room: the handlers of /go that only Go has (moves and
// passes, undo, the scoring phase, rengo and vote games, reviews and
// estimates) and Go's boards, records and bots.
type goRoom struct{ a *App }

func (goRoom) Kind() string         { return goKind }
func (goRoom) Command() string      { return CommandName }
func (goRoom) Name() string         { return "Go" }
func (goRoom) ButtonPrefix() string { return "game/" }
func (r goRoom) Routes(rt *Router)  { r.a.goRoutes(rt) }

func (r goRoom) Definition(map[string]*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return Definitions(r.a.opts.Players.Levels())[0]
}

func (goRoom) Message(ctx context.Context, g *storage.Game, now time.Time, note string) (*Message, error) {
	res, over := goOf(g).Result()
	switch {
	case g.Scoring != nil && !over:
		return scoringMessage(ctx, g, now, note)
	case g.Scoring != nil && res.Reason == engine.ByScore:
		return finalScoreMessage(g, note)
	}
	return boardMessage(g, now, note)
}

func (goRoom) Title(g *storage.Game) string { return title(g) }

func (goRoom) SideLabel(g *storage.Game, s game.Side) string {
	c := engine.ColorOf(s)
	return stoneEmoji(c) + " " + c.String()
}

func (goRoom) Line(g *storage.Game) (players, board string, move int) {
	n := goOf(g).Size()
	return fmt.Sprintf("⚫ %s vs ⚪ %s", teamMention(g, engine.Black), teamMention(g, engine.White)),
		fmt.Sprintf("%d×%d", n, n), g.State.MoveCount() + 1
}

func (goRoom) OwnMoves(g *storage.Game, s game.Side) int {
	c, n := engine.ColorOf(s), 0
	for _, m := range goOf(g).Moves() {
		if m.Color == c {
			n++
		}
	}
	return n
}

func (goRoom) LastMover(g *storage.Game) storage.Player { return movedBy(g, g.State.MoveCount()-1) }

func (r goRoom) BotMove(ctx context.Context, g *storage.Game) (string, error) {
	a := r.a
	c := goOf(g).ToPlay()
	level := g.Player(engine.SideOf(c)).Level
	mctx, cancel := context.WithTimeout(ctx, BotMoveTimeout)
	m, err := a.opts.Players.GenMove(mctx, level, goOf(g).Clone())
	cancel()
	if err != nil {
		return "", fmt.Errorf("commands: bot %s in game %s: %w", level, g.ID, err)
	}
	m.Color = c
	return a.apply(ctx, g, m)
}

func (r goRoom) ActiveRecord(ctx context.Context, req *Request, g *storage.Game) error {
	return r.a.activeSGF(ctx, req, g)
}

func (goRoom) Archived(g *storage.Game, annulled bool, void string) (storage.Archived, error) {
	eg := goOf(g)
	res, _ := eg.Result()
	var dead []engine.Point
	if g.Scoring != nil {
		dead = deadOf(g)
	}
	info := sgfInfo(g, dead, res.Reason == engine.ByScore)
	switch {
	case void != "":
		info.RE, info.C, info.Dead = "Void", void, nil
	case annulled:
		info.C = annulledComment
	}
	sgf, err := writeSGF(g, info)
	if err != nil {
		return storage.Archived{}, err
	}
	return storage.Archived{
		Black: g.First(engine.SideOf(engine.Black)), White: g.First(engine.SideOf(engine.White)),
		Size: eg.Size(), Rules: eg.Rules(), Handicap: eg.Handicap(),
		Result: res.String(), SGF: sgf,
	}, nil
}

func (goRoom) UnratedNote(g *storage.Game) string { return goUnratedNote(g) }

func (goRoom) Text(g *storage.Game) string { return goOf(g).Board().String() }

func (goRoom) ChallengeText(c *storage.Challenge) string { return goChallengeText(c) }

func (r goRoom) Accept(ctx context.Context, req *Request, c *storage.Challenge) error {
	a := r.a
	color := c.Color
	if color == colorByRating {
		color = a.lowerRatedColor(ctx, req.Interaction.GuildID, c.Challenger, c.Opponent)
	}
	challengerBlack := setup{Color: color}.requesterBlack(rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x9e3779b97f4a7c15)))
	black, white := c.Challenger, c.Opponent
	if !challengerBlack {
		black, white = white, black
	}
	outcome := fmt.Sprintf("✅ %s accepted: %s ⚫ black, %s ⚪ white.", Mention(c.Opponent), Mention(black), Mention(white))
	return a.StartChallenge(ctx, req, c, storage.Sides(black, white), fmt.Sprintf("Go: %s vs %s", PlainName(black), PlainName(white)),
		func(outcome string) *Message { return a.ChallengeMessage(c, outcome) }, outcome)
}

func (goRoom) NewState(c *storage.Challenge) (game.State, error) {
	eg, err := engine.NewGame(engine.Config{Size: c.Size, Rules: c.Rules, Handicap: c.Handicap, Seed: SeedFrom(c.ID)})
	if err != nil {
		return nil, UserErr(err, fmt.Sprintf("This challenge cannot start: %v.", err))
	}
	return engine.Own(eg), nil
}

func (goRoom) Setup(arc *storage.Archived) string { return fmt.Sprintf("%d×%d", arc.Size, arc.Size) }

func (goRoom) Record(arc *storage.Archived) (File, string) {
	return sgfFile(arc.ID, ArchivedTitle(arc), arc.SGF), "SGF, opens in any Go editor"
}

func (goRoom) Finished(arc *storage.Archived) (*Message, error) { return finishedBoardMessage(arc) }

func (goRoom) Animation(arc *storage.Archived) (File, error) { return goArchivedGIF(arc) }

func (goRoom) Sync(g *storage.Game, now time.Time) { syncVote(g, now) }

func (r goRoom) Due(ctx context.Context, g *storage.Game) (bool, error) {
	switch {
	case g.Scoring != nil:
		r.a.scoringTimeout(ctx, g)
		return true, nil
	case g.Vote != nil:
		return true, r.a.closeVote(ctx, g)
	}
	return false, nil
}

func (r goRoom) Posted(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	r.a.keepVoteBoard(ctx, g, m)
}

func (r goRoom) TeamTimeUp(ctx context.Context, g *storage.Game, s game.Side, deadline time.Time) (bool, error) {
	return r.a.teamTimeUp(ctx, g, engine.ColorOf(s), deadline)
}

func (goRoom) Lobby(c *storage.Challenge, outcome string) *Message { return lobbyMessage(c, outcome) }

func (r goRoom) ReviewedRecord(ctx context.Context, arc *storage.Archived) ([]byte, string, error) {
	return r.a.reviewedRecord(ctx, arc)
}

func (goRoom) Setting(st *storage.Settings, name string) (string, bool) {
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

func (goRoom) SetSetting(st *storage.Settings, name, value string) (bool, error) {
	bad := func(format string, args ...any) error { return UserErr(ErrBadOption, fmt.Sprintf(format, args...)) }
	switch name {
	case "ruleset":
		v := strings.ToLower(value)
		if _, err := engine.Preset(v); err != nil {
			return true, bad("Unknown ruleset %s: choose %s.", Quote(value), strings.Join(engine.PresetNames, ", "))
		}
		st.Ruleset = v
	case "komi":
		k, err := strconv.ParseFloat(value, 64)
		if err != nil || !engine.ValidKomi(k) {
			return true, bad("Komi must be from -150 to 150 in steps of 0.5, not %s.", Quote(value))
		}
		st.Komi = &k
	default:
		return false, nil
	}
	return true, nil
}
