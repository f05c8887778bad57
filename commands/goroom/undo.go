package goroom

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// undoCount is how many moves an undo by c takes back: everything from c's
// last move on (c's move, and the opponent's reply if there was one).
func undoCount(g *engine.Game, c engine.Color) int {
	moves := g.Moves()
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i].Color == c {
			return len(moves) - i
		}
	}
	return 0
}

// checkUndo says whether c may ask for an undo at now, and how many moves
// it would take back. An undo that would leave c out of time (their own
// time on the moves taken back counts, and those moves' increments go;
// see clock.TakeBack) is refused rather than end the game.
func checkUndo(g *storage.Game, c engine.Color, now time.Time) (int, error) {
	if _, over := goOf(g).Result(); over {
		return 0, commands.ErrGameOver
	}
	if g.Scoring != nil {
		return 0, commands.UserErr(commands.ErrNoUndo, "Play has ended: press Resume play to continue the game instead.")
	}
	n := undoCount(goOf(g), c)
	if n == 0 {
		return 0, commands.UserErr(commands.ErrNoUndo, "You have not played a move yet, so there is nothing to undo.")
	}
	if g.Clock.Running() {
		k := *g.Clock // TakeBack only reslices the copy's log
		k.TakeBack(g.State.MoveCount()-n, clock.Side(c), now)
		if k.Flagged(now) {
			return 0, commands.UserErr(commands.ErrNoUndo, "Taking back now would leave you no time: your own time on those moves counts again, and their increments go. Play on instead.")
		}
	}
	return n, nil
}

// ratedBotUndo is the refusal of an undo in a rated game against a bot.
const ratedBotUndo = "There is no undo in a rated game against the bot: the bot cannot refuse, so every move could be tried until it works, and the rating would not say how you play. " +
	"Start the game with `rated:false` to take back moves freely."

// poolsOffBotUndo is ratedBotUndo for a game started rated that the
// server's ratings settings leave unrated for now (its boards say
// "unrated"): the admins may turn the ratings on before it ends, which
// would rate it.
const poolsOffBotUndo = "There is no undo in this game against the bot: it was started rated, and although this server's ratings settings leave it unrated now, its admins may turn them on before it ends. " +
	"Start the game with `rated:false` to take back moves freely."

// undoOffered reports whether g's players may ask for an undo at all:
// never in rengo, nor in a rated game against a bot (undo refuses both),
// so their boards carry no Undo button.
func undoOffered(g *storage.Game) bool {
	return !g.Team() && (g.Unrated || !(g.First(0).IsBot() || g.First(1).IsBot()))
}

// humanMoved reports whether a person (not a bot) has moved in g: before
// that there is no move of theirs to take back.
func humanMoved(g *storage.Game) bool {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if s := engine.SideOf(c); !g.AllBots(s) && (*room)(nil).OwnMoves(g, s) > 0 {
			return true
		}
	}
	return false
}

// undo takes back at once against a bot in an unrated game, and asks the
// opponent in a game between people. In a rated game against a bot it is
// refused (ratedBotUndo).
func (a *room) undo(ctx context.Context, r *commands.Request, g *storage.Game) error {
	if isVoteGame(g) {
		return commands.UserErr(commands.ErrNoUndo, "There is no undo in a vote game: the channel's moves stand.")
	}
	c, err := playerColor(g, r.User)
	if err != nil {
		return err
	}
	if g.Team() {
		return commands.UserErr(commands.ErrNoUndo, "There is no undo in rengo: a team's moves stand, as on OGS and KGS. Play on, or agree with your team to resign.")
	}
	if g.Player(engine.SideOf(c.Opponent())).IsBot() && !g.Unrated {
		if _, over := goOf(g).Result(); !over {
			if a.ShownUnrated(ctx, g) {
				return commands.UserErr(commands.ErrNoUndo, poolsOffBotUndo)
			}
			return commands.UserErr(commands.ErrNoUndo, ratedBotUndo)
		}
	}
	n, err := checkUndo(g, c, a.Now())
	if err != nil {
		return err
	}
	opp := g.Player(engine.SideOf(c.Opponent()))
	if opp.IsBot() {
		if err := takeBack(g, n); err != nil {
			return err
		}
		if err := a.UpdateGame(ctx, g); err != nil {
			return err
		}
		return a.AnswerGame(ctx, r, g, fmt.Sprintf("%s took back %s.", commands.Mention(g.Player(engine.SideOf(c))), commands.Plural(n, "move")))
	}
	if g.Undo != nil && g.Undo.MoveCount == g.State.MoveCount() {
		return commands.UserErr(commands.ErrNoUndo, "An undo request is already waiting for an answer.")
	}
	g.Undo = &storage.UndoRequest{By: engine.SideOf(c), MoveCount: g.State.MoveCount(), RequestedAt: a.Now()}
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	sent, err := r.ReplyMessage(ctx, undoMessage(g, c, n, ""))
	if err != nil {
		return err
	}
	a.keepUndoMessage(ctx, r, g, sent, n)
	return nil
}

// keepUndoMessage records which message asks g's undo request (sent, or
// the interaction's original when Discord's answer said nothing back)
// with the request (recordAsk), n being the moves it would take back.
func (a *room) keepUndoMessage(ctx context.Context, r *commands.Request, g *storage.Game, sent *discordgo.Message, n int) {
	if sent == nil || sent.ID == "" {
		sent, _ = r.Original(ctx)
	}
	if sent != nil && sent.ID != "" {
		a.recordAsk(ctx, g, sent.ID, n)
	}
}

// keepPostedAsk records m, posted for g, when it asks g's open undo
// request: a request made on the board page, whose question is posted
// after its handler returned (keepUndoMessage knew no ID then).
func (a *room) keepPostedAsk(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	u := openRequest(g)
	if u == nil || m == nil || m.ID == "" {
		return
	}
	if commands.HasButton(m, fmt.Sprintf("game/%s/undo-yes/%d", g.ID, u.MoveCount)) {
		a.recordAsk(ctx, g, m.ID, undoCount(goOf(g), engine.ColorOf(u.By)))
	}
}

// recordAsk stores id, the message asking g's undo request (g.Undo, by
// taking back n moves), with the request (storage.SetUndoMessage), so
// that whichever worker lapses the request closes the question in place
// (closeAsk, closeEndedAsk), and an answer from the board page edits it.
// The question is posted after the request is written, so the request
// may have lapsed already (a move, or the game's end), by a write that
// knew no message: then the game, read again, says why, and the question
// is closed here.
func (a *room) recordAsk(ctx context.Context, g *storage.Game, id string, n int) {
	u := *g.Undo
	err := a.GameStore().SetUndoMessage(ctx, g.ChannelID, g.ID, u, id)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Logger().Warn("undo: record the question's message", "game", g.ID, "err", err)
		return
	}
	u.MessageID = id
	now, err := a.GameStore().Game(ctx, g.ChannelID)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && now.ID != g.ID):
		now = nil // the game ended
	case err != nil:
		a.Logger().Warn("undo: read the game again after its question", "game", g.ID, "err", err)
		return
	}
	switch {
	case now != nil && openRequest(now).Same(&u):
		return // open: whoever lapses it closes it
	case now != nil && !now.Undo.Same(&u):
		return // answered or withdrawn (a lapsed request stays): the answer saw to its question
	}
	a.closeAsk(ctx, g, &u, n, lapse(now, strconv.Itoa(u.MoveCount)))
}

// openRequest is g's undo request while it is open (made at this move
// count), or nil.
func openRequest(g *storage.Game) *storage.UndoRequest {
	if u := g.Undo; u != nil && u.MoveCount == g.State.MoveCount() {
		return u
	}
	return nil
}

// What a closed question says of a request that lapsed unanswered
// (lapse).
const (
	askEnded   = "⌛ The game has ended."
	askMoved   = "⌛ A move was played since; play on."
	askScoring = "⌛ Play has ended since: the dead stones are being agreed."
)

// lapse says why the undo request made at move count at (as its buttons
// say it) lapsed unanswered, as g now stands (nil: it ended, or the
// channel holds another game): the game ended, or a move was played
// since. "" when neither: the request was answered or withdrawn, and the
// answer edited its question already (the press on it, or the board
// page's answer: recordAsk), which a second press, racing the first
// with the question as it was, must not undo.
func lapse(g *storage.Game, at string) string {
	if g == nil {
		return askEnded
	}
	if _, over := goOf(g).Result(); over {
		return askEnded
	}
	n, err := strconv.Atoi(at)
	switch {
	case err != nil || g.State.MoveCount() <= n:
		return ""
	case g.Scoring != nil:
		return askScoring
	}
	return askMoved
}

// closeAsk edits the question of u, g's undo request by taking back n
// moves, closed with outcome (its buttons disabled), when the message
// asking it is known (u.MessageID: stored with the request, and given
// back by the write that lapsed it, on whichever worker). A question
// whose message is not known (asked before gobot stored it) is closed by
// the first press on it (closingAsk).
func (a *room) closeAsk(ctx context.Context, g *storage.Game, u *storage.UndoRequest, n int, outcome string) {
	if u.MessageID == "" || outcome == "" {
		return
	}
	by := engine.ColorOf(u.By)
	m := askMessage(g.ID, strconv.Itoa(u.MoveCount), commands.Mention(g.Player(u.By)), commands.Mention(g.Player(engine.SideOf(by.Opponent()))),
		commands.Plural(n, "move"), outcome, "")
	if err := a.Discord().EditMessage(ctx, g.ChannelID, u.MessageID, m); err != nil {
		a.Logger().Info("undo: close the question of a lapsed request", "game", g.ID, "err", err)
	}
}

// closeEndedAsk closes the question of g's open undo request, g having
// ended without a move (on time, aborted, adjudicated): RetiredBoard,
// which every ending calls, calls it.
func (a *room) closeEndedAsk(g *storage.Game) {
	u := openRequest(g)
	if u == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the hook gives no context
	defer cancel()
	a.closeAsk(ctx, g, u, undoCount(goOf(g), engine.ColorOf(u.By)), askEnded)
}

// takeBack undoes n moves.
func takeBack(g *storage.Game, n int) error {
	for i := 0; i < n; i++ {
		if err := goOf(g).Undo(); err != nil {
			return fmt.Errorf("goroom: undo in game %s: %w", g.ID, err)
		}
	}
	g.Undo = nil
	return nil
}

// undoMessage asks the opponent to allow an undo; outcome closes it.
func undoMessage(g *storage.Game, by engine.Color, n int, outcome string) *commands.Message {
	opp := g.Player(engine.SideOf(by.Opponent()))
	return askMessage(g.ID, strconv.Itoa(g.State.MoveCount()), commands.Mention(g.Player(engine.SideOf(by))), commands.Mention(opp),
		commands.Plural(n, "move"), outcome, opp.UserID)
}

// askMessage is the question of game gameID's undo request made at move
// count at: asker (a mention) asks opp (a mention, whose user oppUserID
// the open question notifies) to take back moves ("1 move"). outcome,
// when not empty, closes it: it says what became of the request, and
// its buttons are disabled.
func askMessage(gameID, at, asker, opp, moves, outcome, oppUserID string) *commands.Message {
	text := fmt.Sprintf("%s, %s asks to take back %s. Do you allow it?", opp, asker, moves)
	closed := outcome != ""
	if closed {
		text = fmt.Sprintf("%s asked to take back %s. %s", asker, moves, outcome)
	}
	id := fmt.Sprintf("game/%s/undo-%%s/%s", gameID, at)
	m := &commands.Message{
		Content: text,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Allow undo", Style: discordgo.SuccessButton, CustomID: fmt.Sprintf(id, "yes"), Disabled: closed},
			discordgo.Button{Label: "Refuse", Style: discordgo.SecondaryButton, CustomID: fmt.Sprintf(id, "no"), Disabled: closed},
		}}},
	}
	if closed {
		m.AllowedMentions = commands.NoMentions()
	} else if oppUserID != "" {
		m.AllowedMentions = commands.OnlyUsers(oppUserID)
	}
	return m
}

// openAsk reads an open question as askMessage writes it: opp, asker,
// moves.
var openAsk = regexp.MustCompile(`^(.+?), (.+) asks to take back (.+?)\. Do you allow it\?$`)

// closingAsk is h, the handler of an undo question's Allow undo or Refuse
// button, which closes the question pressed when the answer is that its
// request lapsed unanswered (lapse says why): a move was played since, or
// the game ended. The worker that lapses a request closes its question
// at once (closeAsk: its message is stored with the request), but a
// request stored without it (asked before gobot stored messages, or whose
// question could not be recorded) leaves its question live: the first
// press closes it, in place, and is told why privately (as draughts'
// closingOffer does for a draw offer). A question that is closed already,
// or a press that comes with no message (the board page's), is left as it
// is.
func (a *room) closingAsk(h commands.GameHandler) commands.HandlerFunc {
	return func(ctx context.Context, r *commands.Request) error {
		var seen *storage.Game
		err := a.OnBoard("game/", func(ctx context.Context, r *commands.Request, g *storage.Game) error {
			seen = g
			return h(ctx, r, g)
		})(ctx, r)
		if !(errors.Is(err, commands.ErrStale) || errors.Is(err, commands.ErrGameOver)) || r.Responded() || r.Interaction.Message == nil {
			return err
		}
		q, why := openAsk.FindStringSubmatch(r.Interaction.Message.Content), lapse(seen, r.Param("at"))
		if q == nil || why == "" {
			return err
		}
		closed := askMessage(r.Param("id"), r.Param("at"), q[2], q[1], q[3], why, "")
		if uerr := r.Update(ctx, closed); uerr != nil {
			return errors.Join(err, uerr)
		}
		return err
	}
}

// openUndo checks that the undo request r's button belongs to is still
// open, and returns who asked it and the colour of the player pressing.
func openUndo(g *storage.Game, r *commands.Request) (by, c engine.Color, err error) {
	// Lapsed first: whoever presses a lapsed question is told so, and
	// it closes (closingAsk).
	u := openRequest(g)
	if u == nil || r.Param("at") != strconv.Itoa(u.MoveCount) {
		return 0, c, commands.UserErr(commands.ErrStale, "This undo request is no longer open: it was answered or withdrawn, or a move was played since.")
	}
	c, err = playerColor(g, r.User)
	if err != nil {
		return 0, c, err
	}
	return engine.ColorOf(u.By), c, nil
}

// pendingUndo checks an answer to an undo request and returns who asked.
func pendingUndo(g *storage.Game, r *commands.Request) (engine.Color, error) {
	by, c, err := openUndo(g, r)
	if err == nil && by == c {
		err = commands.UserErr(commands.ErrNotPlayer, fmt.Sprintf("Only %s can answer your undo request; **Refuse** withdraws it.", commands.Mention(g.Player(engine.SideOf(c.Opponent())))))
	}
	return by, err
}

func (a *room) btnUndoYes(ctx context.Context, r *commands.Request, g *storage.Game) error {
	by, err := pendingUndo(g, r)
	if err != nil {
		return err
	}
	n, err := checkUndo(g, by, a.Now())
	if err != nil {
		return err
	}
	if err := takeBack(g, n); err != nil {
		return err
	}
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	closed := undoMessage(g, by, n, fmt.Sprintf("✅ %s allowed it.", commands.Mention(g.Player(engine.SideOf(by.Opponent())))))
	if err := r.Update(ctx, closed); err != nil {
		return err
	}
	bm, err := boardMessage(g, a.Now(), fmt.Sprintf("%s took back %s.", commands.Mention(g.Player(engine.SideOf(by))), commands.Plural(n, "move")), a.ShownUnrated(ctx, g))
	if err != nil {
		return err
	}
	return a.ReplyBoard(ctx, r, g, bm)
}

// btnUndoNo refuses an undo request, or withdraws it when its asker
// presses it.
func (a *room) btnUndoNo(ctx context.Context, r *commands.Request, g *storage.Game) error {
	by, c, err := openUndo(g, r)
	if err != nil {
		return err
	}
	n := undoCount(goOf(g), by)
	g.Undo = nil
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	outcome := fmt.Sprintf("❌ %s refused; play on.", commands.Mention(g.Player(engine.SideOf(by.Opponent()))))
	if c == by {
		outcome = fmt.Sprintf("↩️ %s withdrew the request; play on.", commands.Mention(g.Player(engine.SideOf(by))))
	}
	return r.Update(ctx, undoMessage(g, by, n, outcome))
}
