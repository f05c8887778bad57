package draughtsroom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	drender "github.com/gobot-dev/gobot/render/draughts"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// DraughtsCommand is the top-level slash command of international draughts.
const DraughtsCommand = "draughts"

// draughtsKind is draughts' name among the kinds (draughts.Kind).
const draughtsKind = "draughts"

// Players are the draughts bot levels: *bots/draughts.Registry.
type Players interface {
	Levels() []dbots.Level
	GenMove(ctx context.Context, level string, s draughts.State, seed int64) (game.Move, error)
}

// draughtsState returns g's draughts position and moves.
func draughtsState(g *storage.Game) draughts.State {
	st, _ := g.State.(draughts.State)
	return st
}

// The sides of draughts: White moves first.
const (
	draughtsWhite game.Side = 0
	draughtsBlack game.Side = 1
)

// draughtsSideLabel is a side of draughts as the messages write it.
func draughtsSideLabel(s game.Side) string {
	if s == draughtsWhite {
		return "⚪ white"
	}
	return "⚫ black"
}

// draughtsLevelOption is the level: option of /draughts bot.
func (a *room) draughtsLevelOption(r *commands.Request) (string, error) {
	return commands.LevelOption(r, draughtsLevels(a.players.Levels()), "draughts ")
}

// colorOption is the color: option, named as /go names its own. A
// Discord client may still hold the definition from before, where it was
// colour:, for a while after gobot registers the new one: what it sends
// is read the same.
func colorOption(r *commands.Request) (string, bool) {
	if c, ok := r.String("color"); ok {
		return c, true
	}
	return r.String("colour")
}

// draughtsColourOption is the color: option: "white", "black" or
// "random" (the default).
func draughtsColourOption(r *commands.Request) (string, error) {
	c, ok := colorOption(r)
	if !ok {
		return "random", nil
	}
	switch c {
	case "white", "black", "random":
		return c, nil
	}
	return "", commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Choose white, black or random as your colour, not %s.", commands.Quote(c)))
}

// requesterWhite decides, for a colour option, whether the person who
// asked plays White.
func requesterWhite(colour string, rng *rand.Rand) bool {
	switch colour {
	case "white":
		return true
	case "black":
		return false
	}
	return rng.IntN(2) == 0
}

// newDraughtsGame is a game of draughts between white and black in the
// channel of it, with clock c starting now.
func (a *room) newDraughtsGame(it *discordgo.Interaction, id, channel, parent string, white, black storage.Player, c clock.Control, unrated bool) (*storage.Game, error) {
	st, err := draughts.Kind{}.New(nil, commands.SeedFrom(id))
	if err != nil {
		return nil, err
	}
	now := a.Now()
	return &storage.Game{
		ID: id, ChannelID: channel, GuildID: it.GuildID, ParentChannelID: parent, Kind: draughtsKind,
		Sides: storage.Sides(white, black), State: st, Clock: commands.NewClock(c, st, now), CreatedAt: now, Unrated: unrated,
	}, nil
}

// cmdDraughtsChallenge challenges someone to a game of draughts: the core's
// challenge, accepted with the same button as Go's.
func (a *room) cmdDraughtsChallenge(ctx context.Context, r *commands.Request) error {
	opp, st, err := a.ChallengeGate(ctx, r, "/draughts bot")
	if err != nil {
		return err
	}
	colour, err := draughtsColourOption(r)
	if err != nil {
		return err
	}
	ck, err := commands.ServerClock(r, st, clock.DraughtsPresets)
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
	it := r.Interaction
	if err := a.ThreadGate(ctx, r, thread); err != nil {
		return draughtsRunning(r, err)
	}
	now := a.Now()
	return a.PostChallenge(ctx, r, &storage.Challenge{
		ID: it.ID, ChannelID: it.ChannelID, GuildID: it.GuildID, Kind: draughtsKind,
		Challenger: commands.UserPlayer(r.User), Opponent: commands.Opponent(opp),
		Color: colour, Thread: thread, Clock: new(a.ClockIn(ck, clock.DraughtsPresets)), Unrated: !rated,
		CreatedAt: now, ExpiresAt: now.Add(a.ChallengeTTL(st)),
	})
}

// draughtsRunning is err, with /draughts' own advice when it is
// ErrGameRunning in a server channel where a thread can hold another game
// (in a DM, or where no thread can be started, the core's sentence says
// there is none).
func draughtsRunning(r *commands.Request, err error) error {
	if errors.Is(err, commands.ErrGameRunning) && r.Interaction.GuildID != "" && commands.ThreadsHere(r) {
		return commands.UserErr(commands.ErrGameRunning, "A game is already running in this channel. Finish it first, or use `/draughts challenge ... thread:true` to play in a thread.")
	}
	return err
}

// draughtsChallengeText is the question of a challenge to draughts;
// poolsOff when no rating pool of its server would count the game
// (commands.PoolsNote), which is then unrated however it asked.
func draughtsChallengeText(c *storage.Challenge, poolsOff bool) string {
	var colour string
	switch c.Color {
	case "white":
		colour = fmt.Sprintf("%s plays white", commands.Mention(c.Challenger))
	case "black":
		colour = fmt.Sprintf("%s plays black", commands.Mention(c.Challenger))
	default:
		colour = "colours at random"
	}
	if c.Unrated || poolsOff {
		colour += "; unrated"
	}
	where := ""
	if c.Thread {
		where = " in a new thread"
	}
	if c.Open() || c.Taken {
		return fmt.Sprintf("⚔️ %s is looking for a game of international draughts (10×10)%s, open to anyone here: %s; %s. The first to press Accept plays.", commands.Mention(c.Challenger), where, commands.ChallengeClock(c).Describe(), colour)
	}
	return fmt.Sprintf("%s, %s challenges you to a game of international draughts (10×10)%s: %s; %s.", commands.Mention(c.Opponent), commands.Mention(c.Challenger), where, commands.ChallengeClock(c).Describe(), colour)
}

// acceptDraughts starts the game of draughts challenge c asked for.
func (a *room) acceptDraughts(ctx context.Context, r *commands.Request, c *storage.Challenge) error {
	white, black := c.Challenger, c.Opponent
	if !requesterWhite(c.Color, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x9e3779b97f4a7c15))) {
		white, black = black, white
	}
	outcome := fmt.Sprintf("✅ %s accepted: %s ⚪ white, %s ⚫ black.", commands.Mention(c.Opponent), commands.Mention(white), commands.Mention(black))
	return a.StartChallenge(ctx, r, c, storage.Sides(white, black), fmt.Sprintf("Draughts: %s vs %s", commands.PlainName(white), commands.PlainName(black)),
		func(outcome string) *commands.Message { return a.ChallengeMessage(c, outcome) }, outcome)
}

// cmdDraughtsBot starts a game of draughts against a bot level.
func (a *room) cmdDraughtsBot(ctx context.Context, r *commands.Request) error {
	level, err := a.draughtsLevelOption(r)
	if err != nil {
		return err
	}
	st, level, err := a.BotGate(ctx, r, level)
	if err != nil {
		return err
	}
	colour, err := draughtsColourOption(r)
	if err != nil {
		return err
	}
	if _, ok := colorOption(r); !ok {
		colour = "white"
	}
	ck, err := commands.ServerClock(r, st, clock.DraughtsPresets)
	if err != nil {
		return err
	}
	rated, err := commands.EngineRated(r, level, hubEngine(level))
	if err != nil {
		return err
	}
	it := r.Interaction
	if err := a.ChannelFree(ctx, it.ChannelID); err != nil {
		return commands.BotRunning(r, err)
	}
	human := commands.UserPlayer(r.User)
	bot := storage.Player{Level: level, Name: "gobot " + level}
	white, black := human, bot
	if !requesterWhite(colour, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(commands.SeedFrom(it.ID))))) {
		white, black = bot, human
	}
	g, err := a.newDraughtsGame(it, it.ID, it.ChannelID, commands.ThreadParent(r), white, black, a.ClockIn(ck, clock.DraughtsPresets), !rated)
	if err != nil {
		return err
	}
	g.Delivery.Followup = commands.FollowupOf(it, a.Now())
	a.StartClock(ctx, g)
	if err := a.GameStore().CreateGame(ctx, g); err != nil {
		if errors.Is(err, storage.ErrExists) {
			return commands.BotRunning(r, commands.ErrGameRunning)
		}
		return err
	}
	a.Logger().Info("bot game started", "game", g.ID, "channel", g.ChannelID, "kind", draughtsKind, "level", level, "user", r.User.ID)
	a.KickClocks()
	side := draughtsWhite
	if black == human {
		side = draughtsBlack
	}
	// A game that no rating pool here counts says so now, not only at its end.
	pools := a.PoolsNote(ctx, g.GuildID, true)
	note := fmt.Sprintf("New game of international draughts: %s plays %s against gobot **%s** (%s; %s).", commands.Mention(human), draughtsSideLabel(side), level, a.ClockIn(ck, clock.DraughtsPresets).Describe(), commands.RatedWord(rated, pools))
	if hubEngine(level) {
		note += " " + commands.EngineUnrated(level)
	} else if rated && pools != "" {
		note += " " + pools
	}
	return a.AnswerGame(ctx, r, g, note)
}

// hubEngine reports whether level is an external Hub engine ("hub:scan"),
// whose strength gobot does not know: games against it are unrated
// (commands.EngineRated).
func hubEngine(level string) bool { return strings.HasPrefix(level, dbots.HubPrefix) }

// draughtsSideOf returns the side u plays in g, or the refusal for a
// person who does not play in it.
func draughtsSideOf(g *storage.Game, u *discordgo.User) (game.Side, error) {
	if s, ok := g.SideOf(u.ID); ok {
		return s, nil
	}
	return game.NoSide, commands.UserErr(commands.ErrNotPlayer, "You are not playing in this game: it is "+commands.WithSide(commands.Mention(g.First(draughtsWhite)), "white")+" against "+commands.WithSide(commands.Mention(g.First(draughtsBlack)), "black")+".")
}

// draughtsPlayerInPlay returns the side u plays in g, a game still in
// play with time on the clock (a draw offer or a resignation need no
// turn).
func (a *room) draughtsPlayerInPlay(ctx context.Context, g *storage.Game, u *discordgo.User) (game.Side, error) {
	s, err := draughtsSideOf(g, u)
	if err != nil {
		return s, err
	}
	if _, over := g.State.Result(); over {
		return s, commands.ErrGameOver
	}
	return s, a.InTime(ctx, g, a.Now())
}

// draughtsCanMove returns u's side when u is to move in g.
func draughtsCanMove(g *storage.Game, u *discordgo.User) (game.Side, error) {
	s, err := draughtsSideOf(g, u)
	if err != nil {
		return s, err
	}
	if _, over := g.State.Result(); over {
		return s, commands.ErrGameOver
	}
	if t := g.State.ToMove(); t != s || g.Player(t).UserID != u.ID {
		return s, commands.UserErr(commands.ErrNotYourTurn, fmt.Sprintf("It is not your turn: %s %s is to play.", draughtsSideLabel(t), commands.Mention(g.Player(t))))
	}
	return s, nil
}

// cmdDraughtsMove plays a move typed as squares: 32-28, 28x19, or the
// short forms autocomplete offers.
func (a *room) cmdDraughtsMove(ctx context.Context, r *commands.Request, g *storage.Game) error {
	s, err := draughtsCanMove(g, r.User)
	if err != nil {
		// The player's own move, played but never announced, is shown
		// rather than refused.
		return a.PlayedAlready(ctx, r, g, err)
	}
	text, _ := r.String("move")
	if err := a.InTime(ctx, g, a.Now()); err != nil {
		return err
	}
	shown := g.Delivery
	g.Delivery.Followup = commands.FollowupOf(r.Interaction, a.Now())
	// The move's board is owed until its answer shows it (OweBoard): a
	// worker killed before answering leaves it to the scheduler.
	g.Delivery.Owed = a.OweBoard(g)
	n := g.State.MoveCount()
	note, err := a.applyDraughts(ctx, g, s, strings.TrimSpace(text))
	if errors.Is(err, commands.ErrConflict) {
		return a.sameMoveApplied(ctx, r, g, n, s, err)
	}
	if err != nil {
		return err
	}
	if _, over := g.State.Result(); over {
		// The board this winning move was made on takes no more (its
		// player moved, so no bot's answer is pending on it).
		a.RetireBoard(ctx, g, shown, true)
	}
	return a.AnswerGame(ctx, r, g, note)
}

// sameMoveApplied is the answer to r's move, played by side s on g as
// its ply n and refused by err, a conflict: another write came first. When
// that write was the same move by the same player (a command sent twice),
// the player is told that their move was played, as in Go: "try again"
// would invite them to move again. Otherwise err stands.
func (a *room) sameMoveApplied(ctx context.Context, r *commands.Request, g *storage.Game, n int, s game.Side, err error) error {
	mine := draughtsState(g).Moves()
	if r.User == nil || len(mine) <= n {
		return err
	}
	cur, lerr := a.LoadGame(ctx, g.ChannelID)
	if lerr != nil || cur.ID != g.ID || cur.Kind != g.Kind {
		return err
	}
	if moves := draughtsState(cur).Moves(); len(moves) <= n || moves[n] != mine[n] || cur.Player(s).UserID != r.User.ID {
		return err
	}
	return commands.UserErr(err, fmt.Sprintf("Your move %s was already played (you sent it twice); this second one changed nothing.", mine[n]))
}

// draughtsRefusal is the sentence for text, a move the rules refuse in a
// position with the moves legal: the rules' own message, as a sentence,
// which names the move (else it is named first). Where the
// position has no capture and the piece typed can move, it says where:
// "The piece on 32 can play 32-27 or 32-28.", as lidraughts shows a
// piece's squares.
func draughtsRefusal(err error, text string, legal []game.Move) error {
	msg := ruleSentence(err)
	if msg == "" {
		return err
	}
	if r, _ := utf8.DecodeRuneInString(msg); r != '"' && !unicode.IsDigit(r) {
		// The rule's sentence follows a colon: not capitalised there.
		msg = fmt.Sprintf("%s is not a move you can play: %s", commands.Quote(text), ruleText(err))
	}
	if errors.Is(err, draughts.ErrIllegalMove) && !strings.HasSuffix(msg, "?") { // "did you mean 32-28?" says it
		if hint := pieceMoves(text, legal); hint != "" {
			msg += " " + hint
		}
	}
	return commands.UserErr(commands.ErrIllegalMove, msg)
}

// pieceMoves is "The piece on 32 can play 32-27 or 32-28." for text, a
// move typed from square 32, when legal has no capture and moves of that
// square ("" otherwise).
func pieceMoves(text string, legal []game.Move) string {
	from := strings.TrimSpace(text)
	if i := strings.IndexFunc(from, func(r rune) bool { return !unicode.IsDigit(r) }); i >= 0 {
		from = from[:i]
	}
	if from = strings.TrimLeft(from, "0"); from == "" {
		return ""
	}
	var moves []string
	for _, m := range legal {
		if strings.Contains(string(m), "x") {
			return ""
		}
		if sq, _, _ := strings.Cut(string(m), "-"); sq == from {
			moves = append(moves, string(m))
		}
	}
	switch len(moves) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("The piece on %s can play %s.", from, moves[0])
	}
	return fmt.Sprintf("The piece on %s can play %s or %s.", from, strings.Join(moves[:len(moves)-1], ", "), moves[len(moves)-1])
}

// ruleSentence is the rules' message of err as a sentence ("" if none).
func ruleSentence(err error) string {
	msg := ruleText(err)
	if msg == "" {
		return ""
	}
	rs := []rune(msg)
	rs[0] = unicode.ToUpper(rs[0])
	return string(rs)
}

// ruleText is ruleSentence not capitalised, for after a colon.
func ruleText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "draughts: ")
	if msg != "" && !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	return msg
}

// Without says what Go's commands do that draughts has not: /go undo,
// /go pass and /go dead in a game of draughts are told so, not sent to
// /draughts play.
func (*room) Without(sub string) string {
	switch sub {
	case "undo":
		return "has no takebacks: a move played stands"
	case "pass":
		return "has no passing: you must move, and a player who cannot move loses"
	case "dead":
		return "has no dead stones to mark: it ends when a side cannot move, or by resignation or a draw"
	}
	return ""
}

// notAMove answers the words a player may type for a move that are not
// moves in draughts, as Go's /go play move:resign points at /go resign.
var notAMove = map[string]string{
	"resign": "To resign, use `/draughts resign` (or the Resign button).",
	"draw":   "To offer a draw, or accept one, use `/draughts draw` (or the draw button under the board).",
	"pass":   "There is no passing in draughts: a player who cannot move loses. Type a move as squares, like 32-28 or 28x19.",
}

// applyDraughts plays side's move (as typed) on g and commits it: the
// archive when it ends the game, an update otherwise. Nothing is written
// when the move is refused or the game changed meanwhile.
func (a *room) applyDraughts(ctx context.Context, g *storage.Game, side game.Side, text string) (string, error) {
	now := a.Now()
	if err := a.InTime(ctx, g, now); err != nil {
		return "", err
	}
	if text == "" {
		return "", commands.UserErr(commands.ErrIllegalMove, "Type a move as squares, like 32-28 or 28x19.")
	}
	if msg, ok := notAMove[strings.ToLower(strings.TrimSpace(text))]; ok {
		return "", commands.UserErr(commands.ErrIllegalMove, msg)
	}
	mover := g.Player(side)
	unposted := ""
	if prev := draughtsState(g).Moves(); g.Delivery.Unposted && len(prev) > 0 {
		// The bot moved in the background and its board could not be
		// shown: this answer says what it played (the flag is cleared
		// below, with this move).
		last := game.Side((len(prev) - 1) % 2)
		unposted = fmt.Sprintf("(%s %s played **%s** earlier, but its board could not be posted here.)\n", draughtsSideLabel(last), commands.Mention(g.Player(last)), prev[len(prev)-1])
	}
	next, facts, err := g.State.Play(side, game.Move(text))
	if err != nil {
		return "", draughtsRefusal(err, text, draughtsState(g).Legal())
	}
	offer := openOffer(g)
	g.State = next
	g.Moved(mover)
	if g.Clock.Running() && clock.Of(side) == g.Clock.ToMove {
		if err := g.Clock.Move(next.MoveCount(), now); err != nil {
			return "", err
		}
	}
	// A draw offer lapses when the offerer's opponent moves (openOffer),
	// but stays with the game until the next offer replaces it, so that
	// the write gives back the message making it
	// (storage.UndoRequest.MessageID), to be closed below.
	g.Delivery.Unposted = false
	moves := draughtsState(g).Moves()
	note := unposted + fmt.Sprintf("%s %s played **%s**.", draughtsSideLabel(side), commands.Mention(mover), moves[len(moves)-1]) + factsNote(facts)
	_, over := g.State.Result()
	if over {
		if err := a.Finish(ctx, g); err != nil {
			return "", err
		}
		if rn := a.RatingNote(ctx, g); rn != "" {
			note += "\n" + rn
		}
	} else if err := a.UpdateGame(ctx, g); err != nil {
		return "", err
	}
	if offer != nil && (over || !offerStands(offer, g.State.MoveCount())) {
		// An offer made on the offerer's turn stands through their move.
		if g.Undo.Same(offer) {
			offer = g.Undo // as the write gave it back
		}
		why := offerMoved
		if over {
			why = offerEnded
		}
		a.closeOffer(ctx, g, offer, why)
	}
	return note, nil
}

// factsNote is what a move's answer says after the move of the facts the
// rules told of it: " White 28x19 captures 1 piece. 👑 White's man is
// crowned on 3." ("" when it took nothing and crowned nobody). The board
// page says it of each move too (LastMove.Said).
func factsNote(facts []game.Fact) string {
	var note string
	for _, f := range facts {
		switch f.Kind {
		case "capture":
			note += " " + capitalFirst(f.Text) + "."
		case "crown":
			note += " 👑 " + capitalFirst(f.Text) + "."
		}
	}
	return note
}

// capitalFirst returns s with its first letter in upper case.
func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	rs := []rune(s)
	rs[0] = unicode.ToUpper(rs[0])
	return string(rs)
}

// draughtsBotMove makes the move of g's bot (the side to move).
func (a *room) draughtsBotMove(ctx context.Context, g *storage.Game) (string, error) {
	side := g.State.ToMove()
	level := g.Player(side).Level
	limit := commands.BotMoveTimeout
	// Its clock's share: a game of draughts has about 50 moves a side;
	// at least 15 more are counted on.
	if d, ok := commands.ClockShare(g.Clock, a.Now(), max(15, 50-g.State.MoveCount()/2)); ok {
		limit = min(limit, d) // the search answers with its best move then
	}
	mctx, cancel := context.WithTimeout(ctx, limit)
	m, err := a.players.GenMove(mctx, level, draughtsState(g), commands.SeedFrom(g.ID)^int64(g.State.MoveCount()+1)*0x5851f42d4c957f2d)
	cancel()
	if err != nil {
		return "", fmt.Errorf("commands: draughts bot %s in game %s: %w", level, g.ID, err)
	}
	return a.applyDraughts(ctx, g, side, string(m))
}

// cmdDraughtsResign resigns the game for the side the user plays.
func (a *room) cmdDraughtsResign(ctx context.Context, r *commands.Request, g *storage.Game) error {
	s, err := a.draughtsPlayerInPlay(ctx, g, r.User)
	if err != nil {
		return err
	}
	return a.endDraughts(ctx, r, g, game.Result{Winner: s.Opponent(), Reason: game.ByResignation},
		fmt.Sprintf("🏳️ %s %s resigned.", draughtsSideLabel(s), commands.Mention(g.Player(s))))
}

// btnDraughtsResign asks for confirmation: a misclick must not end a game.
func (a *room) btnDraughtsResign(ctx context.Context, r *commands.Request, g *storage.Game) error {
	if _, err := draughtsSideOf(g, r.User); err != nil {
		return err
	}
	return r.Reply(ctx, &commands.Message{
		Content:   "Do you really want to resign this game?",
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Yes, resign", Style: discordgo.DangerButton, CustomID: "draughts/" + g.ID + "/resign-yes/" + r.Param("move")},
		}}},
	})
}

// endDraughts ends g with a result reached off the board and answers.
// The newest board loses its buttons in one edit, as Go's do when a game
// is resigned: its Resign and Offer a draw would only answer that the
// game has ended.
func (a *room) endDraughts(ctx context.Context, r *commands.Request, g *storage.Game, res game.Result, note string) error {
	next, err := g.State.End(res)
	if err != nil {
		return err
	}
	g.State = next
	// The boards known before this interaction's token replaces the
	// game's: the answer to its last one may be the newest board. While a
	// bot is thinking, that answer is still "thinking…", which an edit
	// without content would break.
	shown, pending := g.Delivery, g.BotToMove()
	g.Delivery.Followup = commands.FollowupOf(r.Interaction, a.Now())
	if err := a.Finish(ctx, g); err != nil {
		return err
	}
	var accepted *commands.Message
	if r.Param("at") != "" && g.Undo != nil {
		accepted = offerAccepted(g, g.Undo)
		g.Undo.MessageID = "" // the offer accepted with its own button: the answer below edits it
	}
	a.RetireBoard(ctx, g, shown, !pending)
	if rn := a.RatingNote(ctx, g); rn != "" {
		note += "\n" + rn
	}
	if accepted != nil {
		// A draw accepted with the offer's own button: the offer says so
		// and loses the button, which could only answer that the game
		// has ended; the final board follows it.
		if err := r.Update(ctx, accepted); err != nil {
			return err
		}
	}
	return a.AnswerGame(ctx, r, g, note)
}

// cmdDraughtsDraw offers a draw, or accepts the opponent's offer. An offer
// lapses when the opponent moves (offerStands; it is stored as the game's
// open request).
// A bot answers at once: it accepts a draw when it is behind in material
// (a man counts 1, a king 3), or level in an ending (drawEnding pieces
// or fewer on the board), and plays on otherwise: a level game with much
// left to play is no draw yet, as on lidraughts.
func (a *room) cmdDraughtsDraw(ctx context.Context, r *commands.Request, g *storage.Game) error {
	s, err := a.draughtsPlayerInPlay(ctx, g, r.User)
	if err != nil {
		return err
	}
	n := g.State.MoveCount()
	if o := g.Undo; offerStands(o, n) && o.By == s.Opponent() {
		return a.endDraughts(ctx, r, g, game.Result{Winner: game.NoSide, Reason: game.ByAgreement},
			fmt.Sprintf("🤝 %s accepted %s's offer: the game is drawn by agreement.", commands.Mention(g.Player(s)), commands.Mention(g.Player(s.Opponent()))))
	}
	if o := g.Undo; offerStands(o, n) && o.By == s {
		return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("You have offered a draw already; it stands until %s moves.", commands.Mention(g.Player(s.Opponent()))))
	}
	opp := g.Player(s.Opponent())
	if opp.IsBot() {
		st := draughtsState(g)
		mine, theirs := material(st, s.Opponent()), material(st, s)
		pos := st.Position()
		pieces := pos.Pieces(draughts.White).Count() + pos.Pieces(draughts.Black).Count()
		switch {
		case mine < theirs || (mine == theirs && pieces <= drawEnding):
			return a.endDraughts(ctx, r, g, game.Result{Winner: game.NoSide, Reason: game.ByAgreement},
				fmt.Sprintf("🤝 gobot **%s** accepted %s's offer: the game is drawn by agreement.", opp.Level, commands.Mention(g.Player(s))))
		case mine > theirs:
			return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("gobot **%s** declines the draw: it is ahead in material (%d to %d, a king counting 3) and plays on.", opp.Level, mine, theirs))
		}
		return commands.UserErr(commands.ErrBadOption, fmt.Sprintf("gobot **%s** declines the draw: the material is level with much left to play (%d pieces on the board). It accepts when it is behind, or in a level ending of %d pieces or fewer.", opp.Level, pieces, drawEnding))
	}
	g.Undo = &storage.UndoRequest{By: s, MoveCount: n, RequestedAt: a.Now()}
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	sent, err := r.ReplyMessage(ctx, offerMessage(g, g.Undo, ""))
	if err != nil {
		return err
	}
	if sent == nil || sent.ID == "" {
		sent, _ = r.Original(ctx) // Discord's answer said nothing back
	}
	if sent != nil && sent.ID != "" {
		a.recordOffer(ctx, g, sent.ID)
	}
	return nil
}

// offerMessage is the message of o, a draw offer in g: open (its Accept
// button notifies the opponent), or closed with outcome, which says what
// became of it (its button removed).
func offerMessage(g *storage.Game, o *storage.UndoRequest, outcome string) *commands.Message {
	by, opp := g.Player(o.By), g.Player(o.By.Opponent())
	if outcome != "" {
		return &commands.Message{
			Content:         fmt.Sprintf("🤝 %s offered a draw. %s", commands.Mention(by), outcome),
			ClearComponents: true,
			AllowedMentions: commands.NoMentions(),
		}
	}
	return &commands.Message{
		Content: fmt.Sprintf("🤝 %s offers a draw. %s, accept with `/draughts draw` or the button; the offer lapses when you move.", commands.Mention(by), commands.Mention(opp)),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept the draw", Style: discordgo.SuccessButton, CustomID: "draughts/" + g.ID + "/draw-yes/" + strconv.Itoa(o.MoveCount)},
		}}},
		AllowedMentions: commands.OnlyUsers(opp.UserID),
	}
}

// offerAccepted is the message of o, g's draw offer, closed by its
// acceptance.
func offerAccepted(g *storage.Game, o *storage.UndoRequest) *commands.Message {
	return offerMessage(g, o, fmt.Sprintf("✅ %s accepted: the game is drawn.", commands.Mention(g.Player(o.By.Opponent()))))
}

// What a closed draw offer says of an offer that lapsed unanswered.
const (
	offerMoved = "⌛ A move was played since; the offer lapsed."
	offerEnded = "⌛ The game has ended."
)

// openOffer is g's draw offer while it stands (offerStands), or nil; in
// an ended game, the offer the game ended with.
func openOffer(g *storage.Game) *storage.UndoRequest {
	if o := g.Undo; offerStands(o, g.State.MoveCount()) {
		return o
	}
	return nil
}

// offerStands reports whether o, a draw offer, stands after n moves: until
// the offerer's opponent moves, as on lidraughts. One made on the
// offerer's own turn goes with their move (FMJD's way: offer, then move),
// and the opponent answers on their turn; one made after it lapses when
// the opponent moves.
func offerStands(o *storage.UndoRequest, n int) bool {
	if o == nil {
		return false
	}
	ownTurn := game.Side(o.MoveCount%2) == o.By // White moves first
	return o.MoveCount == n || ownTurn && o.MoveCount+1 == n
}

// recordOffer stores id, the message making g's draw offer (g.Undo), with
// the offer (storage.SetUndoMessage), so that whichever worker lapses it
// (a move, the game's end) closes it in place (closeOffer). The message
// is posted after the offer is written, so the offer may have lapsed
// already, by a write that knew no message: then the game, read again,
// says why, and the offer is closed here.
func (a *room) recordOffer(ctx context.Context, g *storage.Game, id string) {
	o := *g.Undo
	err := a.GameStore().SetUndoMessage(ctx, g.ChannelID, g.ID, o, id)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Logger().Warn("draughts: record the draw offer's message", "game", g.ID, "err", err)
		return
	}
	o.MessageID = id
	now, err := a.GameStore().Game(ctx, g.ChannelID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Logger().Warn("draughts: read the game again after its draw offer", "game", g.ID, "err", err)
		return
	}
	switch {
	case err != nil || now.ID != g.ID:
		why := offerEnded
		if arc, err := a.Archives().ArchivedGame(ctx, g.ID); err == nil && arc.Result == "0" && offerStands(&o, arc.Moves) {
			why = "" // drawn where it was made: accepted
		}
		a.closeOffer(ctx, g, &o, why)
	case ended(now):
		a.closeOffer(ctx, g, &o, offerEnded)
	case !offerStands(&o, now.State.MoveCount()):
		a.closeOffer(ctx, g, &o, offerMoved)
	}
	// Else it stands (whoever lapses it closes it).
}

// ended reports whether g has ended.
func ended(g *storage.Game) bool {
	_, ended := g.State.Result()
	return ended
}

// closeOffer edits the message of o, g's draw offer, closed with outcome
// (its button removed), when it is known (o.MessageID: stored with the
// offer, and given back by the write that lapsed it, on whichever
// worker). An empty outcome is an offer accepted: it says who accepted it
// (it went on asking them to, naming a button that was gone, above the
// final board). An offer whose message is not known (made before gobot
// stored it) loses its button at the first press (closingOffer).
func (a *room) closeOffer(ctx context.Context, g *storage.Game, o *storage.UndoRequest, outcome string) {
	if o.MessageID == "" {
		return
	}
	m := offerAccepted(g, o)
	if outcome != "" {
		m = offerMessage(g, o, outcome)
	}
	if err := a.Discord().EditMessage(ctx, g.ChannelID, o.MessageID, m); err != nil {
		a.Logger().Info("draughts: close a draw offer", "game", g.ID, "err", err)
	}
}

// closeEndedOffer closes g's draw offer when g ended with it standing
// (resigned, drawn, lost on time, aborted, adjudicated): RetiredBoard,
// which every ending calls, calls it. An offer accepted says who accepted
// it (closeOffer).
func (a *room) closeEndedOffer(g *storage.Game) {
	o := openOffer(g)
	if o == nil || o.MessageID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the hook gives no context
	defer cancel()
	why := offerEnded
	if res, _ := g.State.Result(); res.Reason == game.ByAgreement {
		why = "" // accepted
	}
	a.closeOffer(ctx, g, o, why)
}

// Posted records the message of a draw offer made on the board page,
// posted after its handler returned (cmdDraughtsDraw knew no ID then).
func (a *room) Posted(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	o := openOffer(g)
	if o == nil || m == nil || m.ID == "" || o.MessageID != "" {
		return
	}
	if commands.HasButton(m, "draughts/"+g.ID+"/draw-yes/"+strconv.Itoa(o.MoveCount)) {
		a.recordOffer(ctx, g, m.ID)
	}
}

// RetiredBoard closes the draw offer g ended with (closeEndedOffer); the
// newest board only loses its buttons (nil).
func (a *room) RetiredBoard(g *storage.Game, now time.Time) *commands.Message {
	a.closeEndedOffer(g)
	return nil
}

// drawEnding is the most pieces on the board (both sides) with which a
// bot takes a draw at level material: an ending.
const drawEnding = 8

// material is side s's material in st: a man counts 1, a king 3.
func material(st draughts.State, s game.Side) int {
	p := st.Position()
	c := draughts.Color(s)
	return p.Men(c).Count() + 3*p.Kings(c).Count()
}

// btnDraughtsDraw is a draw button: the board's (offer) or the offer's
// (accept), as /draughts draw. The offer's button carries the move it was
// made at ({at}, not {move}, which OnBoard would refuse as an old board's):
// after a move it says the offer lapsed.
func (a *room) btnDraughtsDraw(ctx context.Context, r *commands.Request, g *storage.Game) error {
	if at := r.Param("at"); at != "" {
		if o := openOffer(g); o == nil || strconv.Itoa(o.MoveCount) != at {
			return commands.UserErr(commands.ErrStale, "This draw offer has lapsed: a move was played since.")
		}
	}
	return a.cmdDraughtsDraw(ctx, r, g)
}

// closingOffer is h, the handler of a draw offer's Accept button, which
// takes the button away when the offer can no longer be accepted: it
// lapsed with a move, or its game ended (resigned, drawn with
// /draughts draw, lost on time, aborted). What lapses an offer closes it
// in place, from the message stored with it (closeOffer), but an offer
// stored without it (made before gobot stored it) keeps its button: the
// first press takes it away, and is told why privately.
func closingOffer(h commands.HandlerFunc) commands.HandlerFunc {
	return func(ctx context.Context, r *commands.Request) error {
		err := h(ctx, r)
		if (errors.Is(err, commands.ErrStale) || errors.Is(err, commands.ErrGameOver)) && !r.Responded() {
			if uerr := r.Update(ctx, &commands.Message{ClearComponents: true}); uerr != nil {
				return errors.Join(err, uerr)
			}
		}
		return err
	}
}

// draughtsMessage is the message showing a game of draughts: the note, the
// picture, the status and the Resign / Offer draw buttons. unrated is
// commands.ShownUnrated for g.
func draughtsMessage(g *storage.Game, now time.Time, note string, unrated bool) (*commands.Message, error) {
	return draughtsMessageAs(g, now, note, unrated, blacksView(g))
}

// draughtsMessageAs is draughtsMessage with the board from Black's side
// when flip is set.
func draughtsMessageAs(g *storage.Game, now time.Time, note string, unrated, flip bool) (*commands.Message, error) {
	st := draughtsState(g)
	var buf bytes.Buffer
	if err := drender.Game(&buf, st, drender.Options{Flip: flip}); err != nil {
		return nil, fmt.Errorf("commands: draw the board of game %s: %w", g.ID, err)
	}
	name := fmt.Sprintf("draughts-%s-%d.png", g.ID, st.MoveCount())
	pos := drender.AltText(st)
	if commands.Annulled((*room)(nil), g) {
		pos = drender.AltTextEnded(st, "annulled on time, not counted")
	}
	alt := fmt.Sprintf("%s (white) vs %s (black). %s", commands.PlainName(g.First(draughtsWhite)), commands.PlainName(g.First(draughtsBlack)), pos)
	f := commands.File{Name: name, ContentType: "image/png", Description: commands.Clip(alt, 1024), Data: buf.Bytes()}
	embed := &discordgo.MessageEmbed{
		Title:       draughtsTitle(g),
		Description: commands.Clip(strings.TrimSpace(note+"\n"+draughtsStatus(g, now, unrated)), 4096),
		Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
		Color:       commands.ColorWhite,
	}
	if g.State.ToMove() == draughtsBlack {
		embed.Color = commands.ColorBlack
	}
	m := &commands.Message{Embeds: []*discordgo.MessageEmbed{embed}, Files: []commands.File{f}}
	if _, over := g.State.Result(); over {
		embed.Color = commands.ColorDone
		m.ClearComponents = true
		data, err := draughtsPDN(g)
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, pdnFile(g.ID, draughtsTitle(g), data))
		m.Components = commands.RematchRow(g)
		return m, nil
	}
	side := g.State.ToMove()
	if p := g.Player(side); !p.IsBot() && !g.Player(side.Opponent()).IsBot() {
		m.Content = commands.Mention(p) + ", your move."
		m.AllowedMentions = commands.OnlyUsers(p.UserID)
	}
	n := strconv.Itoa(st.MoveCount())
	draw, drawStyle := "Offer a draw", discordgo.SecondaryButton
	if o := openOffer(g); o != nil {
		// A standing offer shows on every board until it lapses, as on
		// lidraughts, and the board's button accepts it (the offerer's
		// press is refused: the offer is theirs).
		draw, drawStyle = "Accept the draw", discordgo.SuccessButton
		embed.Description = commands.Clip(fmt.Sprintf("🤝 %s offers a draw; it lapses when %s moves.\n%s",
			commands.ShownName(g.Player(o.By)), commands.ShownName(g.Player(o.By.Opponent())), embed.Description), 4096)
	}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: draw, Style: drawStyle, CustomID: "draughts/" + g.ID + "/draw/" + n},
		discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: "draughts/" + g.ID + "/resign/" + n},
	}}}
	return m, nil
}

// draughtsTitle is the embed title: both players.
func draughtsTitle(g *storage.Game) string {
	return commands.Clip(fmt.Sprintf("⚪ %s vs ⚫ %s · draughts", commands.ShownName(g.First(draughtsWhite)), commands.ShownName(g.First(draughtsBlack))), 256)
}

// draughtsStatus is the text under the board: move number, whose turn,
// the legal captures' rule, pieces left, the clocks and how the game is
// played ("unrated": commands.ShownUnrated).
func draughtsStatus(g *storage.Game, now time.Time, unrated bool) string {
	st := draughtsState(g)
	var sb strings.Builder
	if res, over := st.Result(); over {
		fmt.Fprintf(&sb, "**Game over: %s**\n", draughtsResultSentence(g, res))
	} else {
		s := st.ToMove()
		fmt.Fprintf(&sb, "**Move %d** · %s to play: %s\n", st.MoveCount()/2+1, draughtsSideLabel(s), commands.Mention(g.Player(s)))
		if legal := st.Legal(); len(legal) > 0 && strings.Contains(string(legal[0]), "x") {
			sb.WriteString("A capture is compulsory, and you must take the most pieces.\n")
		}
	}
	if moves := st.Moves(); len(moves) > 0 {
		// The last move in words too, as Go's boards say it: the arrow
		// on the picture is all a screen reader or a glance at the text
		// would otherwise miss.
		// Its mover is the side not to move in the position: ToMove is
		// no side once the game is over.
		pos := st.Position()
		fmt.Fprintf(&sb, "Last move: %s %s\n", draughtsSideLabel(game.Side(pos.Turn()).Opponent()), moves[len(moves)-1])
	}
	sb.WriteString(piecesLine(st) + "\n")
	if _, over := st.Result(); !over {
		if cs := commands.ClockStatus(g, now, draughtsSideLabel); cs != "" {
			sb.WriteString(cs + "\n")
		}
	} else if cs := commands.FinalClockStatus(commands.FinalClock(g.Clock, now), draughtsSideLabel); cs != "" {
		sb.WriteString(cs + "\n")
	}
	sb.WriteString("-# " + draughtsSetup(g.Clock, unrated))
	return sb.String()
}

// piecesLine says how many pieces each side has left, kings counted
// apart: "Pieces: ⚪ 12 (2 kings) · ⚫ 9".
func piecesLine(st draughts.State) string {
	p := st.Position()
	pieces := func(c draughts.Color) string {
		n, k := p.Pieces(c).Count(), p.Kings(c).Count()
		if k == 0 {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf("%d (%s)", n, commands.Plural(k, "king"))
	}
	return fmt.Sprintf("Pieces: ⚪ %s · ⚫ %s", pieces(draughts.White), pieces(draughts.Black))
}

// draughtsResultSentence says who won and how.
func draughtsResultSentence(g *storage.Game, r game.Result) string {
	if r.Winner == game.NoSide {
		how := "drawn"
		switch r.Reason {
		case game.ByAgreement:
			how = "drawn by agreement"
		case draughts.ByRepetition:
			how = "drawn by threefold repetition"
		case draughts.By25Moves, draughts.By16Moves, draughts.By5Moves:
			how = "drawn by the " + string(r.Reason) // "25-move rule", …
		}
		return how + " · " + r.Text
	}
	who := draughtsSideLabel(r.Winner) + " " + commands.Mention(g.Player(r.Winner)) + " wins"
	switch r.Reason {
	case game.ByResignation:
		return fmt.Sprintf("%s by resignation · %s", who, r.Text)
	case game.ByTime:
		if commands.Annulled((*room)(nil), g) {
			return "annulled on time, not counted" // no score: it does not count
		}
		return fmt.Sprintf("%s on time · %s", who, r.Text)
	case game.ByForfeit:
		return fmt.Sprintf("%s by forfeit · %s", who, r.Text)
	}
	if st, ok := g.State.(draughts.State); ok && noPieces(st, r.Winner.Opponent()) {
		return fmt.Sprintf("%s: all of %s's pieces are taken · %s", who, draughtsSideLabel(r.Winner.Opponent()), r.Text)
	}
	return fmt.Sprintf("%s: %s cannot move · %s", who, draughtsSideLabel(r.Winner.Opponent()), r.Text)
}

// pdnEnding says in a record how g ended with r: "Black (bob) resigned.",
// "Drawn by threefold repetition.", "White (ann) cannot move.".
func pdnEnding(g *storage.Game, r game.Result) string {
	if r.Winner == game.NoSide {
		switch r.Reason {
		case game.ByAgreement:
			return "Drawn by agreement."
		case draughts.ByRepetition:
			return "Drawn by threefold repetition."
		case draughts.By25Moves, draughts.By16Moves, draughts.By5Moves:
			return "Drawn by the " + string(r.Reason) + "."
		}
		return "Drawn."
	}
	loser := r.Winner.Opponent()
	who := func(s game.Side) string {
		return capitalFirst(seatOf(s)) + " (" + commands.PlainName(g.Player(s)) + ")"
	}
	switch r.Reason {
	case game.ByResignation:
		return who(loser) + " resigned."
	case game.ByTime:
		return who(loser) + " ran out of time."
	case game.ByForfeit:
		return who(r.Winner) + " wins by forfeit."
	}
	if st, ok := g.State.(draughts.State); ok && noPieces(st, loser) {
		return "All of " + who(loser) + "'s pieces are taken."
	}
	return who(loser) + " cannot move."
}

// draughtsPDN is g's record in PDN.
func draughtsPDN(g *storage.Game) ([]byte, error) { return draughtsPDNWith(g, "") }

// draughtsPDNWith is g's record in PDN with comment before its moves.
func draughtsPDNWith(g *storage.Game, comment string) ([]byte, error) {
	st := draughtsState(g)
	tags := []draughts.Tag{
		{Name: "Event", Value: "gobot game " + g.ID},
		{Name: "Site", Value: site(g)},
		{Name: "Date", Value: g.CreatedAt.UTC().Format("2006.01.02")},
		{Name: "Round", Value: "-"}, // of the Seven Tag Roster, as lidraughts writes it
		{Name: "White", Value: commands.PlainName(g.First(draughtsWhite))},
		{Name: "Black", Value: commands.PlainName(g.First(draughtsBlack))},
	}
	// The players' ratings when the game began, as lidraughts writes them.
	for _, s := range []struct {
		tag  string
		side game.Side
	}{{"WhiteElo", draughtsWhite}, {"BlackElo", draughtsBlack}} {
		if int(s.side) < len(g.Ranks) && g.Ranks[s.side] != "" {
			tags = append(tags, draughts.Tag{Name: s.tag, Value: g.Ranks[s.side]})
		}
	}
	if g.Clock != nil {
		tc := g.Clock.Control.PGN()
		tags = append(tags, draughts.Tag{Name: "TimeControl", Value: tc})
		if !g.Clock.Control.PGNExact() {
			// Byo-yomi or Canadian time, which TimeControl cannot write,
			// or a Fischer clock's maximum, which it leaves out (lidraughts
			// reads "300+3" as 5+3, whose time may grow without one): in
			// words, in a tag readers that do not know it skip.
			tags = append(tags, draughts.Tag{Name: "Clock", Value: g.Clock.Control.Describe()})
		}
	}
	pg := draughts.NewPDNGame(st, tags...)
	if commands.Annulled((*room)(nil), g) {
		// Lost on time before two moves of one's own: no result, as an
		// aborted game has none, and the record says why.
		pg.Result = "*"
		if comment == "" {
			r, _ := g.State.Result()
			loser := r.Winner.Opponent()
			comment = commands.AnnulledOnTime(commands.PlainName(g.Player(loser)), strings.Fields(draughtsSideLabel(loser))[1])
		}
	}
	pg.Comment = comment
	if r, over := g.State.Result(); over && pg.Result != "*" {
		// How it ended, after the last move, as the final board says it:
		// a result alone does not tell a resignation from a loss on time.
		if end := pdnEnding(g, r); len(pg.Moves) > 0 {
			pg.Moves[len(pg.Moves)-1].Comment = end
		} else {
			pg.Comment = strings.TrimSpace(comment + " " + end)
		}
	}
	var buf bytes.Buffer
	if err := draughts.WritePDN(&buf, pg); err != nil {
		return nil, fmt.Errorf("commands: PDN of game %s: %w", g.ID, err)
	}
	return buf.Bytes(), nil
}

// site is where g was played, as its record's Site says it: Discord, or
// gobot console (its board page too), which is never on Discord.
func site(g *storage.Game) string {
	if g.GuildID == commands.LocalGuild {
		return "gobot console"
	}
	return "Discord"
}

// pdnFile is the attachment of a game of draughts' record.
func pdnFile(id, what string, data []byte) commands.File {
	return commands.File{Name: "gobot-" + id + ".pdn", ContentType: "application/x-draughts-pdn", Description: commands.Clip("PDN record: "+what, 1024), Data: data}
}

// draughtsArchiveResult writes a result of draughts as the archive writes
// every result, in SGF's notation by colour: "W+R", "B+T", "W+" (the other
// side could not move), "0" (a draw).
func draughtsArchiveResult(r game.Result) string {
	if r.Winner == game.NoSide {
		return "0"
	}
	w := "W"
	if r.Winner == draughtsBlack {
		w = "B"
	}
	switch r.Reason {
	case game.ByResignation:
		return w + "+R"
	case game.ByTime:
		return w + "+T"
	case game.ByForfeit:
		return w + "+F"
	}
	return w + "+"
}

// resultText is a finished game's result as draughts players write it,
// with how it was won: "2-0 (resignation)", "1-1", "void".
func resultText(arc *storage.Archived) string {
	r, ok := archivedResult(arc.Result)
	if !ok {
		return strings.ToLower(arc.Result) // "Void": no result
	}
	switch r.Reason {
	case game.ByResignation:
		return r.Text + " (resignation)"
	case game.ByTime:
		return r.Text + " (time)"
	case game.ByForfeit:
		return r.Text + " (forfeit)"
	}
	return r.Text
}

// archivedTitle names a finished game's players, White (who moves first)
// first: "⚪ Ann vs ⚫ Bob".
func archivedTitle(arc *storage.Archived) string {
	return fmt.Sprintf("⚪ %s vs ⚫ %s", commands.ShownName(arc.White), commands.ShownName(arc.Black))
}

// moves counts plies as draughts counts moves: a move is White's and
// Black's turn together, so 4 plies are 2 moves and 3 plies 2 as well.
func moves(plies int) string { return commands.Plural((plies+1)/2, "move") }

// ResultText, ArchivedTitle, Moves and Rank write finished games and
// ratings as draughts players do (commands.Notation).
func (r *room) ResultText(arc *storage.Archived) string    { return resultText(arc) }
func (r *room) ArchivedTitle(arc *storage.Archived) string { return archivedTitle(arc) }
func (r *room) Moves(plies int) string                     { return moves(plies) }

// Rank is empty: draughts has no kyu and dan ranks, its ratings are
// shown as numbers.
func (r *room) Rank(glicko.Rating) string { return "" }

// archivedResult reads a result as draughtsArchiveResult writes it, with
// its PDN text ("2-0", "0-2", "1-1"); false for anything else ("Void").
// A draw's reason is not archived: the draws the rules reach
// (repetition, the move rules) the record's moves show again, and the one
// they do not was agreed, gobot's only other draw (an admin adjudicates a
// win or annuls), so "0" reads as a draw by agreement.
func archivedResult(text string) (game.Result, bool) {
	if text == "0" {
		return game.Result{Winner: game.NoSide, Reason: game.ByAgreement, Text: "1-1"}, true
	}
	colour, how, ok := strings.Cut(text, "+")
	if !ok {
		return game.Result{}, false
	}
	r := game.Result{Winner: draughtsWhite, Text: "2-0"}
	switch colour {
	case "W":
	case "B":
		r.Winner, r.Text = draughtsBlack, "0-2"
	default:
		return game.Result{}, false
	}
	switch how {
	case "R":
		r.Reason = game.ByResignation
	case "T":
		r.Reason = game.ByTime
	case "F":
		r.Reason = game.ByForfeit
	case "":
	default:
		return game.Result{}, false
	}
	return r, true
}

// completeDraughtsMove suggests to the player to move the legal moves
// that what they typed could become or already names, as /draughts play
// reads it (draughts.State.Suggest): '-' or 'x', any case, spaces, and
// the short forms, each with every full path it matches. Anyone else, a
// spectator or the player waiting, gets none: they have no move to play.
func (a *room) completeDraughtsMove(ctx context.Context, r *commands.Request) error {
	_, typed := r.Focused()
	g, err := a.GameStore().Game(ctx, r.Interaction.ChannelID)
	if err != nil || g.Kind != draughtsKind || r.User == nil {
		return r.Choices(ctx, nil)
	}
	if _, err := draughtsCanMove(g, r.User); err != nil {
		return r.Choices(ctx, nil)
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, m := range draughtsState(g).Suggest(typed) {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: string(m), Value: string(m)})
		if len(choices) == 25 {
			break
		}
	}
	return r.Choices(ctx, choices)
}

// draughtsHelp is /draughts help; %s is the bot's levels (draughtsHelpLevels).
const draughtsHelp = "**International draughts (10×10) with gobot**\n" +
	"`/draughts challenge opponent:` challenge someone here, or anyone without `opponent:` (`clock:`, `color:`, `thread:`, `rated:`).\n" +
	"`/draughts bot level:` play gobot at once, %s (`color:`, default white; `clock:`, `rated:`).\n" +
	"`clock:` `5+3` (5 min, +3 s/move), `fischer 5m +3s max 10m`, `byoyomi 10m 5x30s`, `absolute 20m`, `correspondence`, `daily`, `live` 10+5, `blitz` 3+2, `none` (see `/go help`).\n" +
	"`/draughts play move:` play a move by its squares: `32-28`, or `28x19` for a capture (`28x17x8` through each landing when it matters); autocomplete lists your legal moves.\n" +
	"**Open board** under a board (where the board page is set up) plays by clicks: your piece, then where it goes.\n" +
	"`/draughts board` shows the board from your side, `/draughts draw` offers a draw (or accepts one), `/draughts resign` resigns, `/draughts abort` aborts before each player has made two moves (a moderator at any time, with `reason:`); `/draughts record`, `history`, `stats` and `leaderboard` as for Go. A finished game's **Rematch** button plays it again, colours swapped.\n" +
	"**The rules (FMJD):** White moves first. Men move one square diagonally forward and capture forwards and backwards. " +
	"Capturing is compulsory, and you must take the most pieces (a king counts as one); pieces come off when the capture is over, and none is jumped twice. " +
	"Kings fly: they move and capture along a whole diagonal. A man is crowned when its move ends on the far row. " +
	"You lose when you cannot move. Draws: by agreement, threefold repetition, 25 moves each with kings only and no capture, and the 16- and 5-move endgame rules.\n" +
	"Draughts has ratings of its own (`/draughts stats`, `/draughts leaderboard`); `/draughts history` lists the finished games of both, `/draughts games` your games in play."

// cmdDraughtsHelp answers /draughts help, privately, with the bot levels
// this server's admins offer (all, saying so, when they cannot be read),
// and below it what else they chose that bears on draughts
// (draughtsTerms).
func (a *room) cmdDraughtsHelp(ctx context.Context, r *commands.Request) error {
	st, read := a.HelpSettings(ctx, r.Interaction.GuildID)
	text := draughtsHelpText(st, a.Levels(), read)
	m := &commands.Message{Content: text, Ephemeral: true}
	if terms := draughtsTerms(st); terms != "" {
		m.Embeds = []*discordgo.MessageEmbed{{Description: terms, Color: commands.ColorWhite}}
	}
	return r.Reply(ctx, m)
}

// maxContent is the most characters Discord accepts in a message's text.
const maxContent = 2000

// draughtsHelpText is /draughts help's text with the levels of all that
// st's server offers (draughtsHelpLevels), under the warning that the
// server's settings could not be read unless read. Where naming them
// would pass the characters a message may have (many engines, or long
// names), it says how many there are: the option's autocomplete lists
// them.
func draughtsHelpText(st *storage.Settings, all []commands.Level, read bool) string {
	with := func(levels string) string {
		text := fmt.Sprintf(draughtsHelp, levels)
		if !read {
			text = commands.HelpUnread + "\n" + text
		}
		return text
	}
	text := with(draughtsHelpLevels(st, all))
	if utf8.RuneCountInString(text) > maxContent {
		text = with(fmt.Sprintf("at the %d levels that `level:` lists", len(commands.OfferedLevels(st, all))))
	}
	return text
}

// draughtsTerms is what the admins of st's server chose that bears on
// draughts, which the help's text (near a message's 2000 characters)
// does not say: the default clock and the challenges' expiry, then
// commands.HelpTerms. It goes in an embed under the help.
func draughtsTerms(st *storage.Settings) string {
	var clk, ttl string
	if st.Clock != nil {
		clk = "the default clock is " + st.Clock.Name()
	}
	if st.ChallengeTTL > 0 {
		ttl = "challenges expire after " + commands.HumanDuration(st.ChallengeTTL)
	}
	return commands.HelpTerms(st, clk, ttl)
}

// draughtsHelpLevels says which levels /draughts bot plays at: all of
// them, weakest to strongest; or those the admins of st's server offer.
func draughtsHelpLevels(st *storage.Settings, all []commands.Level) string {
	levels := commands.OfferedLevels(st, all)
	var names, builtin, engines []string
	for _, l := range levels {
		names = append(names, "`"+l.Name+"`")
		if strings.HasPrefix(l.Name, dbots.HubPrefix) {
			engines = append(engines, "`"+l.Name+"`")
		} else {
			builtin = append(builtin, "`"+l.Name+"`")
		}
	}
	switch {
	case len(st.BotLevels) == 0 && len(builtin) > 1 && len(engines) > 0:
		// The engines come after the strongest level, and are no
		// stronger level of gobot's.
		word := "engine"
		if len(engines) > 1 {
			word = "engines"
		}
		return fmt.Sprintf("from %s to %s, or the %s %s, never rated", builtin[0], builtin[len(builtin)-1], word, strings.Join(engines, ", "))
	case len(st.BotLevels) == 0 && len(levels) > 1:
		return fmt.Sprintf("from %s to %s", names[0], names[len(names)-1])
	case len(levels) == 0 && len(all) > 0:
		return "but this server's admins offer none of its levels"
	case len(st.BotLevels) == 0:
		return "at " + strings.Join(names, ", ")
	}
	return "at the levels this server offers: " + strings.Join(names, ", ")
}

// draughtsDefinition is the /draughts command. It shares the options of
// /go's record, history, stats and leaderboard (goSubs, by name).
func draughtsDefinition(contexts []discordgo.InteractionContextType, integrations []discordgo.ApplicationIntegrationType, goSubs map[string]*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	colourOpt := func(desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: desc,
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "white (moves first)", Value: "white"}, {Name: "black", Value: "black"}, {Name: "random", Value: "random"}},
		}
	}
	clockOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "clock", Description: "Time control: blitz (3+2), live (10+5), daily, correspondence; or 5+3 (min + s a move)",
		Autocomplete: true, MaxLength: 60,
	}
	ratedOpt := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Count the game in the draughts ratings (default true)"}
	// Levels are suggested as one types (commands.CompleteLevel), as for
	// Go: only those the server's admins offer, with how each plays.
	levelOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "level",
		Description:  "How strong the bot plays (default: the easiest); the list says how each plays",
		Autocomplete: true, MaxLength: 100,
	}
	return &discordgo.ApplicationCommand{
		Type:             discordgo.ChatApplicationCommand,
		Name:             DraughtsCommand,
		Description:      "Play international draughts (10×10) against friends or the bot",
		Contexts:         &contexts,
		IntegrationTypes: &integrations,
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "Challenge someone to a game of draughts",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who you want to play (leave out to let anyone here accept)"},
				colourOpt("Your colour (default random)"), clockOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "thread", Description: "Play in a new thread, so this channel can hold many games"},
				ratedOpt),
			sub("bot", "Play draughts against the bot, starting at once", levelOpt, colourOpt("Your colour (default white)"), clockOpt, ratedOpt),
			sub("play", "Play a move, like 32-28 or 28x19", &discordgo.ApplicationCommandOption{
				Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The squares, like 32-28 or 28x19",
				Required: true, Autocomplete: true, MaxLength: 60}),
			sub("board", "Show the board again, from your side"),
			sub("draw", "Offer a draw, or accept your opponent's offer"),
			sub("resign", "Resign the game"),
			sub("abort", "Abort the game: either player, before each has made two moves; a moderator with a reason",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason", Description: "A moderator's reason, kept in the server's log", MaxLength: 300}),
			sub("record", "The PDN record of the game here, or of a finished game", goSubs["sgf"].Options[0], goSubs["sgf"].Options[1]),
			sub("history", "A player's finished games, Go and draughts", goSubs["history"].Options...),
			sub("games", "Your games in play, draughts and Go: where each is, your move first, the time left"),
			sub("stats", "A player's draughts ratings and record", goSubs["stats"].Options...),
			sub("leaderboard", "The best draughts players here, or everywhere", goSubs["leaderboard"].Options...),
			sub("help", "How to play draughts with gobot, and the rules"),
		},
		DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.French: "Jouer aux dames (10×10) contre vos amis ou le bot"},
	}
}

// draughtsLevels are the draughts levels as the definitions list them.
func draughtsLevels(ls []dbots.Level) []commands.Level {
	out := make([]commands.Level, 0, len(ls))
	for _, l := range ls {
		out = append(out, commands.Level{Name: l.Name, Description: l.Description})
	}
	return out
}

// draughtsRoutes adds /draughts and its buttons to rt.
func (a *room) draughtsRoutes(rt *commands.Router) {
	rt.Command("draughts/challenge", a.cmdDraughtsChallenge)
	rt.Command("draughts/bot", a.cmdDraughtsBot)
	rt.Command("draughts/play", a.OnGame(a.cmdDraughtsMove))
	rt.Command("draughts/board", a.CmdBoardHere)
	rt.Command("draughts/draw", a.OnGame(a.cmdDraughtsDraw))
	rt.Command("draughts/resign", a.OnGame(a.cmdDraughtsResign))
	rt.Command("draughts/help", a.cmdDraughtsHelp)
	rt.Command("draughts/record", a.CmdRecord)
	rt.Command("draughts/history", a.CmdHistory)
	rt.Command("draughts/games", a.CmdGames)
	rt.Command("draughts/stats", a.CmdStats)
	rt.Command("draughts/leaderboard", a.CmdLeaderboard)
	rt.Autocomplete("draughts/play", a.completeDraughtsMove)
	rt.Autocomplete("draughts/record", a.CompleteFinishedGames)
	rt.Autocomplete("draughts/challenge", a.CompleteClockIn(clock.DraughtsPresets))
	rt.Autocomplete("draughts/bot", func(ctx context.Context, r *commands.Request) error {
		if name, _ := r.Focused(); name == "level" {
			return a.CompleteLevel(ctx, r)
		}
		return a.CompleteClockIn(clock.DraughtsPresets)(ctx, r)
	})
	rt.Component("draughts/{id}/resign/{move}", a.OnBoard("draughts/", a.btnDraughtsResign))
	rt.Component("draughts/{id}/resign-yes/{move}", commands.Confirming(a.OnBoard("draughts/", a.cmdDraughtsResign)))
	rt.Component("draughts/{id}/draw/{move}", a.OnBoard("draughts/", a.btnDraughtsDraw))
	rt.Component("draughts/{id}/draw-yes/{at}", closingOffer(a.OnBoard("draughts/", a.btnDraughtsDraw)))
	rt.Component("draughts/{id}/board", a.BtnOpenBoard)
	rt.Command("draughts/abort", a.OnGame(a.CmdAbort))
	rt.Component("draughts/{id}/abort-yes/{move}", commands.Confirming(a.OnBoard("draughts/", a.PlayerAbort)))
}

// archivedDraughts reads a finished game of draughts from its PDN record,
// ended as the archive says when the record does not say how (a
// resignation, a loss on time: draughts.ByRecord). A game an admin
// annulled after it ended keeps its ending; one annulled on time, whose
// record has no result, has none.
func archivedDraughts(a *storage.Archived) (draughts.State, error) {
	games, err := draughts.ReadPDN(bytes.NewReader(a.SGF))
	if err != nil || len(games) == 0 {
		return draughts.State{}, fmt.Errorf("commands: PDN record of game %s: %w", a.ID, errors.Join(err, errors.New("no game in it")))
	}
	st := games[0].State
	if r, ok := archivedResult(a.Result); ok && !annulledOnTime(a, st.MoveCount()) {
		if rules, over := st.Result(); !over || rules.Reason == draughts.ByRecord {
			if st, err = endedAs(st, r); err != nil {
				return draughts.State{}, fmt.Errorf("commands: result of game %s: %w", a.ID, err)
			}
		}
	}
	return st, nil
}

// archivedAlt is the alt text of a finished game's final position st:
// how it ended, and for one not counted what became of it.
func archivedAlt(a *storage.Archived, st draughts.State) string {
	switch _, over := st.Result(); {
	case a.Annulled && over:
		return drender.AltTextNoted(st, "annulled, not counted")
	case a.Annulled:
		return drender.AltTextEnded(st, annulledText(a, st.MoveCount()))
	}
	return drender.AltText(st)
}

// draughtsGIF animates a game of draughts, from Black's side when flip
// (as its boards were shown: blacksView); alt describes its final
// position.
func draughtsGIF(id string, st draughts.State, flip bool, alt string) (commands.File, error) {
	var buf bytes.Buffer
	if err := drender.GIF(&buf, st, drender.GIFOptions{Size: 480, Flip: flip}); err != nil {
		return commands.File{}, fmt.Errorf("commands: animate game %s: %w", id, err)
	}
	return commands.File{Name: "gobot-" + id + ".gif", ContentType: "image/gif", Description: commands.Clip("Animated replay: "+alt, 1024), Data: buf.Bytes()}, nil
}

// finishedDraughtsMessage shows a finished game of draughts from its
// record: the final position, from the side its boards were shown from
// while it was played (blacksView), the result, and the record attached.
func finishedDraughtsMessage(arc *storage.Archived) (*commands.Message, error) {
	st, err := archivedDraughts(arc)
	if err != nil {
		return nil, err
	}
	g := &storage.Game{ID: arc.ID, Kind: draughtsKind, Sides: storage.Sides(arc.White, arc.Black), State: st}
	result := "result " + resultText(arc)
	if arc.Annulled {
		result = annulledText(arc, st.MoveCount())
	} else if r, over := st.Result(); over {
		result = draughtsResultSentence(g, r)
	}
	var buf bytes.Buffer
	if err := drender.Game(&buf, st, drender.Options{Flip: blacksView(g)}); err != nil {
		return nil, fmt.Errorf("commands: draw the board of game %s: %w", arc.ID, err)
	}
	name := fmt.Sprintf("draughts-%s-%d.png", arc.ID, st.MoveCount())
	text := fmt.Sprintf("The last game of draughts in this channel ended <t:%d:R> after %s; %s.\n**Game over: %s**",
		arc.FinishedAt.Unix(), moves(arc.Moves), commands.StartsNew(arc, "draughts"), result)
	// The pieces left, as the board said while the game was played (and as
	// a finished game of Go keeps its captures).
	text += "\n" + piecesLine(st)
	if cs := commands.FinalClockStatus(arc.Clock, draughtsSideLabel); cs != "" {
		text += "\n" + cs
	}
	// The last line says how the game was played, as a finished game of
	// Go's does: its clock, and unrated as its boards said while it was
	// played.
	text += "\n-# " + draughtsSetup(arc.Clock, commands.ArchivedShownUnrated(arc))
	return &commands.Message{
		Embeds: []*discordgo.MessageEmbed{{
			Title:       commands.Clip(archivedTitle(arc)+" · draughts", 256),
			Description: commands.Clip(text, 4096),
			Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
			Color:       commands.ColorDone,
		}},
		Files: []commands.File{
			{Name: name, ContentType: "image/png", Description: commands.Clip(archivedAlt(arc, st), 1024), Data: buf.Bytes()},
			pdnFile(arc.ID, archivedTitle(arc), arc.SGF),
		},
		AllowedMentions: commands.NoMentions(),
	}, nil
}

// annulledText says what became of a game of plies moves recorded but not
// counted, as the history says it: aborted (by a player or a moderator),
// annulled in play by an admin, or annulled on time (a player ran out of
// time before making two moves of their own), with no score; or annulled
// by an admin after it ended, with its result as the board of a game of
// Go shows it: "annulled, not counted · 2-0 (resignation)".
func annulledText(arc *storage.Archived, plies int) string {
	switch {
	case arc.Result == "Void" && !arc.AnnulledInPlay:
		return "aborted, not counted"
	case arc.Result == "Void":
		return "annulled, not counted"
	case annulledOnTime(arc, plies):
		return "annulled on time, not counted"
	}
	return "annulled, not counted · " + resultText(arc)
}

// annulledOnTime reports whether arc, a game of plies moves, is annulled
// because its loser ran out of time before making two moves of their own
// (commands.Annulled), rather than by an admin after it ended.
func annulledOnTime(arc *storage.Archived, plies int) bool {
	r, ok := archivedResult(arc.Result)
	if !arc.Annulled || !ok || r.Reason != game.ByTime || r.Winner == game.NoSide {
		return false
	}
	return ownMoves(plies, r.Winner.Opponent()) < 2
}

// endedAs is st, which a PDN record ended without saying how
// (draughts.ByRecord), ended with r's reason as the archive keeps it: a
// resignation, a loss on time, a forfeit. A result with no reason (a draw
// by agreement) leaves st as it is.
func endedAs(st draughts.State, r game.Result) (draughts.State, error) {
	if r.Reason == "" {
		return st, nil
	}
	start := st.Start()
	replay, err := draughts.NewState(game.Options{"fen": start.FEN()}, 0)
	if err != nil {
		return st, err
	}
	for _, m := range st.Moves() {
		if replay, _, err = replay.PlayMove(replay.ToMove(), string(m)); err != nil {
			return st, err
		}
	}
	return replay.EndWith(r)
}

// activePDN attaches the record of the game of draughts in play here.
func (a *room) activePDN(ctx context.Context, r *commands.Request, g *storage.Game) error {
	f, err := a.LiveRecord(g)
	if err != nil {
		return err
	}
	return a.RecordInPlay(ctx, r, g, f, "PDN, opens in any draughts program",
		func() (commands.File, error) {
			return draughtsGIF(g.ID, draughtsState(g), blacksView(g), drender.AltText(draughtsState(g)))
		})
}

// LiveRecord is the PDN of g, in play.
func (*room) LiveRecord(g *storage.Game) (commands.File, error) {
	data, err := draughtsPDN(g)
	if err != nil {
		return commands.File{}, err
	}
	return pdnFile(g.ID, draughtsTitle(g), data), nil
}

// room is international draughts' room: /draughts, its boards, PDN
// records and bots, on the core's App.
type room struct {
	*commands.App
	players Players
}

// New is draughts' room with these bot levels; nil means the built-in ones
// (bots/draughts with no Hub engines). cmd/gobot registers it with one
// entry of commands.Options.Rooms.
func New(players Players) commands.NewRoom {
	return func(a *commands.App) (commands.Room, error) {
		if players == nil {
			reg, err := dbots.NewRegistry(dbots.Config{Logger: a.Logger()})
			if err != nil {
				return nil, fmt.Errorf("draughtsroom: the built-in levels: %w", err)
			}
			players = reg
		}
		return &room{App: a, players: players}, nil
	}
}

// room is a room.
var _ commands.Room = (*room)(nil)

func (r *room) Kind() string               { return draughtsKind }
func (r *room) Command() string            { return DraughtsCommand }
func (r *room) Name() string               { return "international draughts" }
func (r *room) ButtonPrefix() string       { return "draughts/" }
func (r *room) RecordCommand() string      { return "record" }
func (r *room) Routes(rt *commands.Router) { r.draughtsRoutes(rt) }
func (r *room) Levels() []commands.Level   { return draughtsLevels(r.players.Levels()) }

func (r *room) Definition(shared map[string]*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return draughtsDefinition(commands.CommandContexts(), commands.CommandIntegrations(), shared)
}

func (r *room) Message(ctx context.Context, g *storage.Game, now time.Time, note string) (*commands.Message, error) {
	return draughtsMessage(g, now, note, r.ShownUnrated(ctx, g))
}

// AskedMessage is the board someone asked for with /draughts board: from
// their own side, as lidraughts shows every player's board, so Black's is
// turned (square 1 at the bottom right) also against a person. Anyone
// else sees it as Message draws it.
func (r *room) AskedMessage(ctx context.Context, g *storage.Game, now time.Time, viewer string) (*commands.Message, error) {
	flip := blacksView(g)
	if s, ok := g.SideOf(viewer); ok && viewer != "" {
		flip = s == draughtsBlack
	}
	return draughtsMessageAs(g, now, "", r.ShownUnrated(ctx, g), flip)
}

func (r *room) Title(g *storage.Game) string { return draughtsTitle(g) }

func (r *room) SideLabel(g *storage.Game, s game.Side) string { return draughtsSideLabel(s) }

func (r *room) Line(g *storage.Game) (players, board string, move int) {
	return fmt.Sprintf("⚪ %s vs ⚫ %s", commands.Mention(g.First(draughtsWhite)), commands.Mention(g.First(draughtsBlack))),
		"draughts 10×10", g.State.MoveCount()/2 + 1 // draughts numbers a move of each side as one
}

// OwnMoves counts side s's moves from the start position, where White
// moves first.
func (r *room) OwnMoves(g *storage.Game, s game.Side) int { return ownMoves(g.State.MoveCount(), s) }

// ownMoves counts side s's moves in a game of n plies where White moves
// first.
func ownMoves(n int, s game.Side) int {
	if s == draughtsWhite {
		return (n + 1) / 2
	}
	return n / 2
}

// MoveLine says a person's move (ply, from 0) of g again, as its answer
// said it (without the captures): "⚪ white @lou played **32-28**.";
// empty for a bot's.
func (r *room) MoveLine(g *storage.Game, ply int) string {
	moves := draughtsState(g).Moves()
	side := game.Side(ply % 2)
	if ply < 0 || ply >= len(moves) || g.Player(side).IsBot() {
		return ""
	}
	return fmt.Sprintf("%s %s played **%s**.", draughtsSideLabel(side), commands.Mention(g.Player(side)), moves[ply])
}

func (r *room) LastMover(g *storage.Game) storage.Player {
	n := g.State.MoveCount()
	if n == 0 {
		return storage.Player{}
	}
	return g.Player(game.Side((n - 1) % 2))
}

func (r *room) BotMove(ctx context.Context, g *storage.Game) (string, error) {
	return r.draughtsBotMove(ctx, g)
}

func (r *room) ActiveRecord(ctx context.Context, req *commands.Request, g *storage.Game) error {
	return r.activePDN(ctx, req, g)
}

func (r *room) Archived(g *storage.Game, annulled bool, void, note string) (storage.Archived, error) {
	res, _ := g.State.Result()
	comment := void
	if comment == "" && !annulled {
		comment = note // an annulled game's record says why (draughtsPDNWith)
	}
	pdn, err := draughtsPDNWith(g, comment)
	if err != nil {
		return storage.Archived{}, err
	}
	return storage.Archived{
		Kind: draughtsKind, White: g.First(draughtsWhite), Black: g.First(draughtsBlack),
		Result: draughtsArchiveResult(res), SGF: pdn,
	}, nil
}

func (r *room) MarkRecord(arc *storage.Archived, comment string) ([]byte, error) {
	games, err := draughts.ReadPDN(bytes.NewReader(arc.SGF))
	if err == nil && len(games) != 1 {
		err = fmt.Errorf("%d games in it, want 1", len(games))
	}
	if err != nil {
		return nil, fmt.Errorf("commands: PDN record of game %s: %w", arc.ID, err)
	}
	g := games[0]
	g.Comment = strings.TrimSpace(g.Comment + " " + comment) // as ReadPDN joins the comments before the first move
	var buf bytes.Buffer
	if err := draughts.WritePDN(&buf, g); err != nil {
		return nil, fmt.Errorf("commands: PDN record of game %s: %w", arc.ID, err)
	}
	return buf.Bytes(), nil
}

func (r *room) UnratedNote(g *storage.Game) string {
	for _, s := range []game.Side{draughtsWhite, draughtsBlack} {
		if p := g.First(s); p.IsBot() && hubEngine(p.Level) {
			return commands.EngineUnrated(p.Level)
		}
	}
	if !g.Unrated && g.State.MoveCount()/2 < storage.MinRatedMovesOther {
		return fmt.Sprintf("Not rated: the game ended before each player had made %d moves.", storage.MinRatedMovesOther)
	}
	return ""
}

// Text is the console's board: as the picture, from Black's side against a
// bot that plays White (square 1 at the bottom right), each row followed
// by its squares' numbers, as they are typed in a move:
//
//	 b b b b b       1   2   3   4   5
//	b b b b b      6   7   8   9  10
func (r *room) Text(g *storage.Game) string {
	p := draughtsState(g).Position()
	turned := blacksView(g)
	var b strings.Builder
	for i := range draughts.Width {
		var pieces, numbers strings.Builder
		for j := range draughts.Width {
			row, col := i, j
			if turned {
				row, col = draughts.Width-1-i, draughts.Width-1-j
			}
			s := draughts.SquareAt(row, col)
			if s == draughts.NoSquare {
				pieces.WriteString(" ")
				numbers.WriteString("  ")
				continue
			}
			pieces.WriteString(p.At(s).String())
			fmt.Fprintf(&numbers, "%2d", s)
		}
		b.WriteString(strings.TrimRight(pieces.String()+"    "+numbers.String(), " ") + "\n")
	}
	last := p.Turn().String() + " to move"
	if _, over := draughtsState(g).Result(); over {
		last = "Game over"
	}
	return b.String() + last + "\n"
}

// gameOverText is Text's board of g, a finished game, ending "Game over"
// whatever its record says: a game annulled on time is recorded without a
// result ("*"), and read back its position is still one to move in.
func (r *room) gameOverText(g *storage.Game) string {
	t := r.Text(g)
	i := strings.LastIndex(strings.TrimSuffix(t, "\n"), "\n")
	return t[:i+1] + "Game over\n"
}

// blacksView reports whether g is shown from Black's side: against a bot
// that plays White, the person plays Black.
func blacksView(g *storage.Game) bool {
	return g.Player(draughtsWhite).IsBot() && !g.Player(draughtsBlack).IsBot()
}

func (r *room) ChallengeText(c *storage.Challenge) string {
	// The interface gives no context.
	return draughtsChallengeText(c, r.PoolsNote(context.Background(), c.GuildID, false) != "")
}

func (r *room) Accept(ctx context.Context, req *commands.Request, c *storage.Challenge) error {
	return r.acceptDraughts(ctx, req, c)
}

func (r *room) NewState(c *storage.Challenge) (game.State, error) {
	return draughts.Kind{}.New(nil, commands.SeedFrom(c.ID))
}

func (r *room) Setup(arc *storage.Archived) string { return "draughts 10×10" }

func (r *room) Record(arc *storage.Archived) (commands.File, string) {
	return pdnFile(arc.ID, archivedTitle(arc), arc.SGF), "PDN, opens in any draughts program"
}

// FinishedText is the final position of arc as Text draws it.
func (r *room) FinishedText(arc *storage.Archived) string {
	st, err := archivedDraughts(arc)
	if err != nil {
		return ""
	}
	return r.gameOverText(&storage.Game{ID: arc.ID, Kind: draughtsKind, Sides: storage.Sides(arc.White, arc.Black), State: st})
}

func (r *room) Finished(arc *storage.Archived) (*commands.Message, error) {
	return finishedDraughtsMessage(arc)
}

func (r *room) Animation(arc *storage.Archived) (commands.File, error) {
	st, err := archivedDraughts(arc)
	if err != nil {
		return commands.File{}, err
	}
	g := &storage.Game{ID: arc.ID, Kind: draughtsKind, Sides: storage.Sides(arc.White, arc.Black), State: st}
	return draughtsGIF(arc.ID, st, blacksView(g), archivedAlt(arc, st))
}

// Rematch asks for arc's game again (commands.Room): /draughts bot
// against a bot level, /draughts challenge (here, not in a new thread)
// against a person, with its clock, unrated when it was unrated by
// choice, the colours changed as lidraughts changes them.
func (a *room) Rematch(arc *storage.Archived, by game.Side) discordgo.ApplicationCommandInteractionData {
	colour := "white" // the archive's side 0 is the player who had Black
	if by == 1 {
		colour = "black"
	}
	opp, bot := commands.RematchOpponent(arc, by)
	opts := []*discordgo.ApplicationCommandInteractionDataOption{opp, commands.StringOption("color", colour), commands.RematchClockIn(arc, clock.DraughtsPresets)}
	if arc.Unrated {
		opts = append(opts, commands.BoolOption("rated", false))
	}
	if bot {
		return commands.Subcommand(DraughtsCommand, "bot", opts...)
	}
	return commands.Subcommand(DraughtsCommand, "challenge", append(opts, commands.BoolOption("thread", false))...)
}

// noPieces reports whether side s has no piece left in st.
func noPieces(st draughts.State, s game.Side) bool {
	pos := st.Position()
	return pos.Pieces(draughts.Color(s)).Count() == 0
}
