package goroom

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// describeSetup says what game a challenge or bot game is: size, rules, handicap.
func describeSetup(size int, rules engine.Rules, handicap int) string {
	s := fmt.Sprintf("%d×%d, %s rules: %s", size, size, rules.Name, rulesDetails(rules))
	if handicap > 0 {
		s += fmt.Sprintf(", %d handicap stones", handicap)
	}
	return s
}

func (a *room) cmdChallenge(ctx context.Context, r *commands.Request) error {
	opp, st, err := a.ChallengeGate(ctx, r, "/go bot")
	if err != nil {
		return err
	}
	s, err := parseSetup(r, "nigiri", st)
	if err != nil {
		return err
	}
	thread, _, err := r.Bool("thread")
	if err != nil {
		return err
	}
	rated, err := commands.RatedOption(r)
	if err != nil {
		return err
	}
	if err := checkRatedHandicap(s, rated); err != nil {
		return err
	}
	if _, explicit := r.String("color"); !explicit && s.Handicapped {
		// A handicap without a colour: Black to the lower-rated player,
		// as the ratings stand when the challenge is accepted.
		s.Color = commands.ColorByRating
	}
	it := r.Interaction
	if err := a.ThreadGate(ctx, r, thread); err != nil {
		return err
	}
	now := a.Now()
	return a.PostChallenge(ctx, r, &storage.Challenge{
		ID: it.ID, ChannelID: it.ChannelID, GuildID: it.GuildID,
		Challenger: commands.UserPlayer(r.User), Opponent: commands.Opponent(opp),
		Size: s.Size, Color: s.Color, Rules: s.Rules, Handicap: s.Handicap, Thread: thread, Clock: ptr(a.ClockOf(s.Clock)), Unrated: !rated,
		CreatedAt: now, ExpiresAt: now.Add(a.ChallengeTTL(st)),
	})
}

func (a *room) cmdBot(ctx context.Context, r *commands.Request) error {
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
	rated, err := commands.EngineRated(r, level, gtpEngine(level))
	if err != nil {
		return err
	}
	if err := checkRatedHandicap(s, rated); err != nil {
		return err
	}
	it := r.Interaction
	if err := a.ChannelFree(ctx, it.ChannelID); err != nil {
		return commands.BotRunning(r, err)
	}
	eg, err := engine.NewGame(engine.Config{Size: s.Size, Rules: s.Rules, Handicap: s.Handicap, Seed: commands.SeedFrom(it.ID)})
	if err != nil {
		return commands.UserErr(err, fmt.Sprintf("This game cannot start: %v.", err))
	}
	human := commands.UserPlayer(r.User)
	bot := storage.Player{Level: level, Name: "gobot " + level}
	black, white := human, bot
	if !s.requesterBlack(rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(commands.SeedFrom(it.ID))))) {
		black, white = bot, human
	}
	g := &storage.Game{ID: it.ID, ChannelID: it.ChannelID, GuildID: it.GuildID, ParentChannelID: commands.ThreadParent(r), Sides: storage.Sides(black, white), State: engine.Own(eg), CreatedAt: a.Now(),
		Clock: commands.NewClock(a.ClockOf(s.Clock), engine.Own(eg), a.Now()), Unrated: !rated,
		Delivery: storage.Delivery{Followup: commands.FollowupOf(it, a.Now())}}
	a.botRanks(ctx, g)
	a.StartClock(ctx, g)
	if err := a.GameStore().CreateGame(ctx, g); err != nil {
		if errors.Is(err, storage.ErrExists) {
			return commands.BotRunning(r, commands.ErrGameRunning)
		}
		return err
	}
	a.Logger().Info("bot game started", "game", g.ID, "channel", g.ChannelID, "level", level, "user", r.User.ID)
	a.KickClocks()
	c := engine.Black
	if white == human {
		c = engine.White
	}
	about := ""
	if rk := a.rankOn(level, s.Size); rk != "" {
		about = rk + "; "
	}
	// A game that no rating pool here counts says so now, not only at its end.
	pools := a.PoolsNote(ctx, g.GuildID, true)
	note := fmt.Sprintf("New game: %s plays %s %s against gobot **%s** (%s%s; %s).", commands.Mention(human), stoneEmoji(c), c, level, about, describeSetup(s.Size, s.Rules, eg.Handicap())+", "+a.ClockOf(s.Clock).Describe(), commands.RatedWord(rated, pools))
	if gtpEngine(level) {
		note += " " + commands.EngineUnrated(level)
	} else if rated && pools != "" {
		note += " " + pools
	}
	return a.AnswerGame(ctx, r, g, note)
}

// goChallengeText is a Go challenge's invitation; poolsOff when no rating
// pool of its server would count the game (commands.PoolsNote), which is
// then unrated however it asked.
func goChallengeText(c *storage.Challenge, poolsOff bool) string {
	var color string
	switch c.Color {
	case "black":
		color = fmt.Sprintf("%s plays black", commands.Mention(c.Challenger))
	case "white":
		color = fmt.Sprintf("%s plays white", commands.Mention(c.Challenger))
	case commands.ColorByRating:
		// Decided when it is accepted (LowerRatedColor): equal ratings
		// then, two new players' most often, leave it to chance.
		color = "the lower-rated player takes black, or colours are drawn at random if the ratings are equal"
	default:
		color = "colours by nigiri (chosen at random)"
	}
	if c.Unrated || poolsOff {
		color += "; unrated"
	}
	where := ""
	if c.Thread {
		where = " in a new thread"
	}
	setup := describeSetup(c.Size, c.Rules, c.Handicap) + ", " + commands.ChallengeClock(c).Describe()
	if c.Open() || c.Taken {
		return fmt.Sprintf("⚔️ %s is looking for a game of Go%s, open to anyone here: %s; %s. The first to press Accept plays.", commands.Mention(c.Challenger), where, setup, color)
	}
	return fmt.Sprintf("%s, %s challenges you to a game of Go%s: %s; %s.", commands.Mention(c.Opponent), commands.Mention(c.Challenger), where, setup, color)
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// Rematch asks for arc's game again (commands.Room): /go bot against a
// bot level, /go challenge (here, not in a new thread) against a person,
// with its size, ruleset, komi, handicap and clock, unrated when it was
// unrated by choice. The colours change, as on lidraughts, unless the
// game gave Black a head start (handicap stones, or a komi of 0.5 or
// less: the one-stone handicap's, none, or a reverse komi): then the same
// player takes it again.
func (a *room) Rematch(arc *storage.Archived, by game.Side) discordgo.ApplicationCommandInteractionData {
	color := engine.ColorOf(by) // the archive's side 0 is Black
	if arc.Handicap == 0 && arc.Rules.Komi > 0.5 {
		color = color.Opponent()
	}
	opp, bot := commands.RematchOpponent(arc, by)
	opts := []*discordgo.ApplicationCommandInteractionDataOption{opp,
		commands.IntOption("size", arc.Size), commands.StringOption("ruleset", arc.Rules.Name),
		commands.NumberOption("komi", arc.Rules.Komi), commands.StringOption("color", color.String()),
		commands.RematchClock(arc)}
	if arc.Handicap > 0 {
		opts = append(opts, commands.IntOption("handicap", arc.Handicap))
	}
	if arc.Unrated {
		opts = append(opts, commands.BoolOption("rated", false))
	}
	if bot {
		return commands.Subcommand(commands.CommandName, "bot", opts...)
	}
	return commands.Subcommand(commands.CommandName, "challenge", append(opts, commands.BoolOption("thread", false))...)
}
