package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Game clocks: the clock option, what a board says about time, the one
// scheduler that handles every game's deadlines (reminders, loss on time,
// the end of the scoring phase), outage credit and vacations.

const (
	// heartbeatEvery is how often the App records that it is alive; an
	// outage is measured from the last heartbeat.
	heartbeatEvery = 10 * time.Second
	// OutageMin is the shortest outage credited to the clocks: a restart
	// quicker than that (the heartbeat is written at shutdown too) is not
	// given back, and /go help says so. Several workers may share the
	// store, and a heartbeat does not say whose it is: within a heartbeat
	// period, a worker starting cannot tell the bot's stop from another
	// worker's, nor a stop from a worker's restart while others ran.
	OutageMin = heartbeatEvery
	// dueBatch is how many due games the scheduler loads per pass.
	dueBatch = 100
	// dueRetry is how long the scheduler waits before looking again at a
	// game that was due but could not be handled (a failing store, a
	// damaged record).
	dueRetry = 30 * time.Second
)

// Vacation allowance (OGS-like): VacationPerYear days of vacation in a
// calendar year (UTC), at most MaxVacationDays at once.
const (
	VacationPerYear = 30 * 24 * time.Hour
	MaxVacationDays = 30
)

// clockOption reads the clock option: a preset or a spec, nil when absent
// (the default applies: clockOf). A spec that does not parse is refused
// with the syntax.
func ClockOption(r *Request) (*clock.Control, error) {
	return ClockOptionIn(r, clock.Presets)
}

// ClockOptionIn is ClockOption for a game whose named controls are
// presets (clock.DraughtsPresets).
func ClockOptionIn(r *Request, presets []clock.Preset) (*clock.Control, error) {
	v, ok := r.String("clock")
	if !ok || strings.TrimSpace(v) == "" {
		return nil, nil
	}
	c, err := clock.ParseIn(v, presets)
	if err != nil {
		reason := err.Error()
		var se *clock.SpecError
		if errors.As(err, &se) {
			reason = se.Reason
		}
		return nil, UserErr(ErrBadOption, fmt.Sprintf("`%s` is not a clock I can read: %s.\nWrite %s.", Clip(v, 32), reason, clock.Syntax))
	}
	return &c, nil
}

// ClockOf is the clock a new game gets: the one chosen, else the
// configured default.
func (a *App) ClockOf(chosen *clock.Control) clock.Control {
	if chosen == nil {
		return *a.opts.DefaultClock
	}
	return *chosen
}

// ClockIn is ClockOf for a game whose named controls are presets: the
// configured default, when it is one of Go's presets, is the game's own
// preset of that name (clock.Control.In).
func (a *App) ClockIn(chosen *clock.Control, presets []clock.Preset) clock.Control {
	if chosen == nil {
		return a.opts.DefaultClock.In(presets)
	}
	return *chosen
}

// NewClock is the clock of a game starting at now: the first player's time
// runs at once. No clock (clock.None) is nil.
func NewClock(c clock.Control, st game.State, now time.Time) *clock.Clock {
	if c.System == clock.None {
		return nil
	}
	k := clock.New(c)
	k.Start(clock.Of(st.ToMove()), now)
	return k
}

// CompleteClock suggests time controls for the clock option: the spec
// typed, with its meaning, when it is valid; the presets that match; while
// a system's spec is being typed and does not read yet, an example of that
// system; otherwise why the text is not a clock.
func (a *App) CompleteClock(ctx context.Context, r *Request) error {
	return a.CompleteClockIn(clock.Presets)(ctx, r)
}

// CompleteClockIn is CompleteClock for a game whose named controls are
// presets (clock.DraughtsPresets): it suggests those.
func (a *App) CompleteClockIn(presets []clock.Preset) HandlerFunc {
	return func(ctx context.Context, r *Request) error { return a.completeClock(ctx, r, presets) }
}

func (a *App) completeClock(ctx context.Context, r *Request, presets []clock.Preset) error {
	name, typed := r.Focused()
	if name != "clock" {
		return r.Choices(ctx, nil)
	}
	typed = strings.TrimSpace(typed)
	var choices []*discordgo.ApplicationCommandOptionChoice
	add := func(label, value string) {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: Clip(label, 100), Value: Clip(value, 100)})
	}
	c, err := clock.ParseIn(typed, presets)
	preset := false
	for _, p := range presets {
		preset = preset || strings.EqualFold(typed, p.Name)
	}
	if typed != "" && err == nil && !preset {
		add(c.String()+" — "+c.Describe(), c.String())
	}
	for _, p := range presets {
		if strings.HasPrefix(p.Name, strings.ToLower(typed)) {
			add(p.Name+" — "+p.Control.Describe(), p.Name)
		}
	}
	// A system being typed ("byo", "fischer 3d"): how its spec reads; and
	// why the text does not read yet, once the system's name is whole.
	explain := len(choices) == 0
	if typed != "" && err != nil {
		word := strings.ReplaceAll(strings.ToLower(strings.Fields(typed)[0]), "-", "")
		for _, ex := range clock.Examples {
			offered := slices.ContainsFunc(choices, func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == ex })
			if system := strings.Fields(ex)[0]; !offered && strings.HasPrefix(system, word) {
				c, _ := clock.Parse(ex)
				add(ex+" — "+c.Describe(), ex)
				explain = explain && word == system
			}
		}
	}
	if typed != "" && err != nil && explain {
		var se *clock.SpecError
		reason := "not a clock"
		if errors.As(err, &se) {
			reason = se.Reason
		}
		add("⚠ "+reason, typed)
	}
	return r.Choices(ctx, choices)
}

// ClockStatus is what a board says about time: each side's time in the
// sides' order (the player to move's as their turn began), each with its
// emoji, and the deadline of the side to move as a relative timestamp that
// Discord counts down, or that it ran out when the deadline has passed at
// now. label names a side as the room does (Room.SideLabel: "⚫ black").
// Empty without a clock.
func ClockStatus(g *storage.Game, now time.Time, label func(game.Side) string) string {
	k := g.Clock
	if k == nil || k.Control.System == clock.None {
		return ""
	}
	// The time as of now (a board shown again later, /go board, has the
	// mover's time used since the turn began taken off, as the countdown
	// beside it does); a turn paused until later shows its time as of then.
	at := now
	if k.Since.After(now) {
		at = k.Since
	}
	emoji := func(s game.Side) string { return strings.Fields(label(s))[0] }
	s := fmt.Sprintf("⏱ %s %s · %s %s", emoji(0), k.Show(clock.First, at), emoji(1), k.Show(clock.Second, at))
	switch side := k.ToMove.Game(); {
	case k.Running() && !k.Deadline().After(now):
		s += fmt.Sprintf(" · %s's time ran out", label(side))
	case k.Paused(now):
		// Only a vacation pauses a turn (syncClock, CmdVacation).
		s += fmt.Sprintf(" · %s is on vacation until <t:%d:f>; their time runs out <t:%d:R>", label(side), k.Since.Unix(), k.Deadline().Unix())
	case k.Running():
		s += fmt.Sprintf(" · %s's time runs out <t:%d:R>", label(side), k.Deadline().Unix())
	}
	return s
}

// FinalClock is k as a finished game's clock: stopped at at, or at the
// deadline when that came first (a time run out shows 0 s, however late
// the loss was found), without its log of moves. Nil without a clock.
func FinalClock(k *clock.Clock, at time.Time) *clock.Clock {
	if k == nil || k.Control.System == clock.None {
		return nil
	}
	f := *k
	f.Log = nil
	if f.Running() {
		if d := f.Deadline(); d.Before(at) {
			at = d
		}
		f.Stop(at)
	}
	return &f
}

// FinalClockStatus is what the board of a finished game says about time:
// each side's time as the game ended, stopped (FinalClock), in the sides'
// order with its emoji, as OGS and KGS keep showing both clocks of a game
// over. label names a side as the room does. Empty without a clock.
func FinalClockStatus(k *clock.Clock, label func(game.Side) string) string {
	if k == nil || k.Control.System == clock.None || k.Running() {
		return ""
	}
	emoji := func(s game.Side) string { return strings.Fields(label(s))[0] }
	return fmt.Sprintf("⏱ Time left at the end: %s %s · %s %s", emoji(0), k.Show(clock.First, time.Time{}), emoji(1), k.Show(clock.Second, time.Time{}))
}

// FinalClockView is side s's clock on the page of a finished game: its
// time at the end, not counting down. Nil without a clock.
func FinalClockView(k *clock.Clock, s game.Side) *ClockView {
	if k == nil || k.Control.System == clock.None || k.Running() {
		return nil
	}
	return &ClockView{Text: k.Show(clock.Of(s), time.Time{})}
}

// RanOutOfTime says on the page who lost on time, as the loss's
// announcement in Discord does: "ann (black) ran out of time." name
// is the player, side their side as the room names it.
func RanOutOfTime(name, side string) string {
	return fmt.Sprintf("%s (%s) ran out of time.", name, side)
}

// syncClock brings g's clock in line with its game before a write: stopped
// during the scoring phase and once the game is over; otherwise running
// for the player to move (after a return to play from scoring, their turn
// starts now; after an undo, both clocks go back to where they stood). A
// correspondence turn of a player on vacation is paused until the
// vacation ends.
// StartClock sets the clock of g, a game starting now against a bot, as
// every turn's: its first turn is paused when its player is on vacation
// (a correspondence clock), as a challenge accepted meanwhile is.
func (a *App) StartClock(ctx context.Context, g *storage.Game) { a.syncClock(ctx, g) }

func (a *App) syncClock(ctx context.Context, g *storage.Game) {
	k := g.Clock
	if k == nil || k.Control.System == clock.None {
		return
	}
	now := a.Now()
	// Moves taken back give back the time they were made with; the player
	// to move is charged what was spent since (see clock.TakeBack).
	to := k.ToMove // a game over has no side to move: its clock stops as it stands
	if s := g.State.ToMove(); s != game.NoSide {
		to = clock.Of(s)
	}
	k.TakeBack(g.State.MoveCount(), to, now)
	if _, over := g.State.Result(); over || g.Scoring != nil {
		k.Stop(now)
		return
	}
	if k.ToMove != to {
		k.Stop(now)
		k.Start(to, now)
	}
	p := g.Player(k.ToMove.Game())
	// Not only a turn that starts at now: apply read the clock for the
	// move a moment before, and a turn already paused is left alone.
	if !k.Control.Correspondence() || p.IsBot() || k.Since.After(now) {
		return
	}
	v, err := a.deadlines.Vacation(ctx, p.Key())
	if err != nil {
		a.log.Warn("clock: read vacation", "player", p.Key(), "err", err)
		return
	}
	if v.On(now) {
		k.PauseUntil(now, v.Until)
	}
}

// AnnulledOnTime heads the record of a game Annulled, whose name (side)
// ran out: every kind's says why it does not count, and who ran out, which
// its result no longer says (it has none, so that no program reading it
// counts a win).
func AnnulledOnTime(name, side string) string {
	return fmt.Sprintf("Annulled: %s (%s) ran out of time before making two moves of their own; the game is recorded but does not count.", name, side)
}

// Annulled reports whether g ended on time before the player who ran out
// had made two moves of their own: recorded, but never counted.
func Annulled(rm Room, g *storage.Game) bool {
	r, over := g.State.Result()
	return over && r.Reason == game.ByTime && r.Winner != game.NoSide && rm.OwnMoves(g, r.Winner.Opponent()) < 2
}

// ownMoves counts the moves side s has made in g (passes included).
func (a *App) ownMoves(g *storage.Game, s game.Side) int { return a.roomOf(g).OwnMoves(g, s) }

// timeUp ends g on time: the player to move lost at their deadline, or the
// game is annulled when they had not made two moves of their own. The
// version-checked archive write decides: only the caller that wins it
// announces, so a timeout found by several processes (or racing a move)
// is announced once. It returns ErrConflict when someone else changed or
// ended the game first.
func (a *App) timeUp(ctx context.Context, g *storage.Game) error {
	loser := g.Clock.ToMove
	deadline := g.Clock.Deadline()
	// Who ran out, named before a casual team game puts them out (then
	// nobody of the side is left to name).
	who := g.Player(loser.Game())
	if p := a.phases(g); p != nil && g.TeamClock == storage.TeamClockCasual {
		if done, err := p.TeamTimeUp(ctx, g, loser.Game(), deadline); done || err != nil {
			return err
		}
	}
	next, err := g.State.End(game.Result{Winner: loser.Opponent().Game(), Reason: game.ByTime})
	if err != nil {
		return err
	}
	g.State = next
	void := Annulled(a.roomOf(g), g)
	if err := a.archiveGameAt(ctx, g, void, "", deadline, false); err != nil {
		return err
	}
	a.log.Info("game lost on time", "game", g.ID, "channel", g.ChannelID, "loser", who.Key(), "annulled", void)
	note := fmt.Sprintf("⌛ %s %s ran out of time <t:%d:R>.", a.sideEmoji(g, loser.Game()), Mention(who), deadline.Unix())
	if won := loser.Opponent().Game(); !void && len(g.TeamOf(won)) > 0 {
		// The winners are named, and so notified (below).
		winners := g.TeamOf(won)
		verb := "wins"
		if len(winners) > 1 {
			verb = "win"
		}
		note = strings.TrimSuffix(note, ".") + fmt.Sprintf(": %s %s %s.", a.sideEmoji(g, won), JoinAnd(winners, Mention), verb)
	}
	// An annulled game names the other side too, which its mentions
	// notify: they learn that the game they waited on is over.
	against := "the game"
	if others := g.TeamOf(loser.Opponent().Game()); len(others) > 0 {
		against = fmt.Sprintf("the game against %s %s", a.sideEmoji(g, loser.Opponent().Game()), JoinAnd(others, Mention))
	}
	if void && g.Team() {
		// The rule goes by the team's moves, not the player's.
		note += " Their team had not made two moves, so " + against + " is annulled: it is recorded, but it does not count."
	} else if void {
		note += " They had not made two moves of their own, so " + against + " is annulled: it is recorded, but it does not count."
	} else if rn := a.RatingNote(ctx, g); rn != "" {
		note += "\n" + rn
	}
	// The note is the message's text, above the final board, where its
	// mentions notify both sides (a board's own text pings nobody): in a
	// correspondence game nobody may be watching.
	m, err := a.StateMessage(ctx, g, a.Now(), "")
	if err == nil {
		var ids []string
		for s := range g.Sides {
			for _, p := range g.TeamOf(game.Side(s)) {
				if !p.IsBot() && p.UserID != "" {
					ids = append(ids, p.UserID)
				}
			}
		}
		m.Content, m.AllowedMentions = Clip(strings.TrimSpace(note+"\n"+m.Content), 2000), OnlyUsers(ids...)
		err = a.PostBoard(ctx, g, m)
		if unapplied(err) {
			// Discord failed (an outage, a 5xx): nothing else would ever
			// tell the players, so it is tried again.
			a.announceLater("clock: announce loss on time", g, func(ctx context.Context) error { return a.PostBoard(ctx, g, m) })
		}
	}
	if err != nil {
		a.log.Warn("clock: announce loss on time", "game", g.ID, "err", err)
	}
	if err != nil && DiscordCode(err) == DiscordUnknownChannel && g.GuildID != "" && !void {
		// Its channel was deleted: nobody could move there, so the time
		// that ran out is nobody's loss.
		a.annulChannelGone(ctx, g)
		return nil
	}
	// A bot out of time was thinking over the answer to the last
	// interaction, whose message is still pending: the bot's worker fills
	// it ("ended while gobot was thinking"); an edit with no content would
	// be refused.
	a.disableBoards(ctx, g, !g.Player(loser.Game()).IsBot())
	return nil
}

// annulChannelGone annuls g, just archived as lost on time, whose
// channel (or thread) was deleted while it was played: nobody could move
// in it, so the loss counts for nobody, and the ratings it counted in are
// recomputed without it, as an admin's /go-admin annul would. The
// server's log says so, by gobot; the players learn it from /go history.
func (a *App) annulChannelGone(ctx context.Context, g *storage.Game) {
	arc, err := a.archive.ArchivedGame(ctx, g.ID)
	if err != nil {
		a.log.Warn("channel deleted: read the game lost on time; it stands", "game", g.ID, "err", err)
		return
	}
	const reason = "its channel was deleted while it was played, so nobody could move in it"
	e := storage.AuditEntry{GuildID: g.GuildID, By: storage.Player{Name: "gobot"}, Action: storage.AuditAnnul, Target: arc.ID, Reason: reason}
	e.Before, e.After = a.resultText(arc), a.resultText(arc)+", annulled"
	if arc.Rated {
		e.Before += ", rated"
	}
	note := fmt.Sprintf("Annulled by gobot on %s, after the game ended %s: %s. Not counted in statistics or ratings.",
		a.Now().UTC().Format(time.DateOnly), a.resultText(arc), reason)
	record, err := a.RoomOfKind(arc.Kind).MarkRecord(arc, note)
	if err != nil {
		a.log.Warn("channel deleted: mark the record; annulled without the note", "game", arc.ID, "err", err)
		record = nil
	}
	if _, err := a.admin.AnnulGame(ctx, g.GuildID, arc.ID, record, e); err != nil && !errors.Is(err, storage.ErrAnnulled) {
		a.log.Warn("channel deleted: annul the game lost on time; it stands", "game", g.ID, "err", err)
		return
	}
	a.log.Info("game annulled: its channel was deleted", "game", g.ID, "channel", g.ChannelID, "was rated", arc.Rated)
}

// announceRetries are the waits before each new try of an announcement
// that Discord failed: about five minutes in all, more than its usual
// outages last.
var announceRetries = []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second}

// announceLater tries post again in the background, after each of
// announceRetries, until Discord takes it, the App shuts down or the tries
// run out (each failure logged as what). It is for what only this process
// would say (the game that ended was archived by its write): one
// goroutine, in flight for Shutdown. The announcement lives in memory
// only: a restart meanwhile loses it, as the game's record keeps the
// result.
func (a *App) announceLater(what string, g *storage.Game, post func(ctx context.Context) error) {
	a.spawn(func(ctx context.Context) {
		for i, wait := range announceRetries {
			select {
			case <-a.closing:
				return
			case <-ctx.Done():
				return
			case <-a.opts.After(wait):
			}
			err := post(ctx)
			if err == nil {
				a.log.Info(what+": done on a later try", "game", g.ID, "try", i+2)
				return
			}
			a.log.Warn(what+": a later try failed", "game", g.ID, "try", i+2, "err", err)
		}
		a.log.Warn(what+": gave up", "game", g.ID)
	})
}

// disableBoards removes the buttons of g's newest board (RetireBoard with
// the delivery g holds now). original says whether the answer to the
// game's last interaction may be edited: not while it may still be a
// deferred "thinking…" (a bot's move awaited), which an edit without
// content would break.
func (a *App) disableBoards(ctx context.Context, g *storage.Game, original bool) {
	a.RetireBoard(ctx, g, g.Delivery, original)
}

// RetireBoard removes the buttons of the newest board of game g that d
// knows of, once g is over: the answer to its last interaction (while its
// token lasts, and when original allows it) or the newest board message
// it keeps, whichever came last. It is one edit, however many boards the
// game showed: the older ones were superseded by it, and their buttons
// are refused as stale. An answer older than the token's 15 minutes
// cannot be edited, and keeps its buttons.
func (a *App) RetireBoard(ctx context.Context, g *storage.Game, d storage.Delivery, original bool) {
	clear := &Message{ClearComponents: true}
	if br, ok := a.roomOf(g).(boardRetirer); ok {
		if m := br.RetiredBoard(g, a.Now()); m != nil {
			clear = m
		}
	}
	kept := ""
	for _, id := range d.MessageIDs {
		if newerID(id, kept) {
			kept = id
		}
	}
	f := d.Followup
	var err error
	switch {
	case f != nil && (newerID(f.InteractionID, kept) || !f.ChannelPosts):
		// In a user install's private channel gobot cannot edit channel
		// messages either: only the token reaches its answer.
		// The newest board is the answer to the last interaction, which
		// only its token edits, and only once it is answered.
		if !original || a.Now().Sub(f.At) >= tokenLifetime {
			return
		}
		it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: g.ChannelID}
		_, err = a.opts.Discord.EditOriginal(ctx, it, clear)
	case kept != "":
		err = a.opts.Discord.EditMessage(ctx, g.ChannelID, kept, clear)
	}
	if err != nil {
		a.log.Info("remove the last board's buttons", "game", g.ID, "err", err)
	}
}

// boardRetirer is a room whose game's newest board says more than its
// buttons when the game ends (a vote game's, the votes of its round):
// RetiredBoard returns what that board becomes, without buttons, or nil
// when it only loses them.
type boardRetirer interface {
	RetiredBoard(g *storage.Game, now time.Time) *Message
}

// newerID reports whether Discord ID a is newer than b (or b is empty):
// IDs are snowflakes, which grow with time.
func newerID(a, b string) bool {
	return len(a) > len(b) || (len(a) == len(b) && a > b)
}

// remind mentions the player to move: a quarter of their time for this
// move is left. It is sent once per move (the flag is written first, with
// the game's version check, so only one process sends it); bots get none.
func (a *App) remind(ctx context.Context, g *storage.Game) error {
	c := g.Clock.ToMove
	g.Clock.Reminded = true
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	p := g.Player(c.Game())
	if p.IsBot() {
		return nil
	}
	m := &Message{
		Content: fmt.Sprintf("⏰ %s, it is your move in %s (%s): a quarter of your time for it is left, and your clock runs out <t:%d:R>.",
			Mention(p), a.gameTitle(g), a.sideLabel(g, c.Game()), g.Clock.Deadline().Unix()),
		AllowedMentions: OnlyUsers(p.UserID),
	}
	if err := a.PostBoard(ctx, g, m); err != nil {
		a.log.Warn("clock: send reminder", "game", g.ID, "err", err)
	}
	return nil
}

// handleDue does what a game due now needs: the board of a move that its
// answer never showed (deliverOwed), the end of its scoring phase, its
// loss on time, or its reminder. A game that moved on meanwhile (a
// move, another process) is left alone.
func (a *App) HandleDue(ctx context.Context, channelID string) error {
	g, err := a.games.Game(ctx, channelID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case errors.Is(err, storage.ErrCorrupt):
		a.setAside(ctx, channelID) // its due entry goes with it
		return nil
	case err != nil:
		return err
	}
	now := a.Now()
	if due := g.Due(); due.IsZero() || due.After(now) {
		return nil
	}
	if o := g.Delivery.Owed; o != nil && !o.Due.After(now) {
		return a.deliverOwed(ctx, g) // a move's board that never reached Discord (owed.go)
	}
	if p := a.phases(g); p != nil {
		if handled, err := p.Due(ctx, g); handled {
			if errors.Is(err, ErrConflict) {
				return nil
			}
			return err
		}
	}
	switch {
	case g.Clock.Flagged(now):
		err = a.timeUp(ctx, g)
	default:
		err = a.remind(ctx, g)
	}
	if errors.Is(err, ErrConflict) {
		return nil // someone else acted first; the next pass looks again
	}
	return err
}

// handleDueGames handles every game due now, a batch at a time, one after
// the other.
func (a *App) HandleDueGames(ctx context.Context) {
	for ctx.Err() == nil {
		due, err := a.deadlines.DueGames(ctx, a.Now(), dueBatch)
		if err != nil {
			a.log.Warn("clock: due games", "err", err)
			return
		}
		progress := false
		for _, d := range due {
			if err := a.HandleDue(ctx, d.ChannelID); err != nil {
				a.log.Warn("clock: handle due game", "channel", d.ChannelID, "err", err)
				continue
			}
			progress = true
		}
		if len(due) < dueBatch || !progress {
			return
		}
	}
}

// KickClocks wakes the scheduler to look at the deadlines again (a write
// may have made one earlier than the one it sleeps for).
func (a *App) KickClocks() {
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// runClocks is the scheduler: one loop for every game's deadlines. It reads
// the earliest deadline from the store's index, sleeps until it (or until a
// write kicks it), handles what is due, and records a heartbeat every
// heartbeatEvery. It never starts a timer or goroutine per game; it starts
// from the store at each start-up, so nothing is lost in a restart. It
// returns when ctx ends, after a last heartbeat.
func (a *App) runClocks(ctx context.Context) {
	defer func() {
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
		defer cancel()
		if err := a.deadlines.Heartbeat(hctx, a.Now()); err != nil {
			a.log.Warn("clock: last heartbeat", "err", err)
		}
	}()
	beat := a.opts.After(heartbeatEvery)
	// passed is the earliest deadline of the last pass over the due games:
	// when a pass leaves it (or an earlier one) due, something cannot be
	// handled now, and the scheduler waits dueRetry instead of spinning.
	var passed time.Time
	for {
		var wake <-chan time.Time
		next, err := a.deadlines.NextDue(ctx)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			a.unreachable.Store(true)
			a.log.Warn("clock: next deadline", "err", err)
			wake = a.opts.After(dueRetry)
		case next.IsZero():
			// Nothing is due: sleep until a write kicks, or the heartbeat.
		case next.After(a.Now()):
			wake = a.opts.After(next.Sub(a.Now()))
		case !passed.IsZero() && !next.After(passed):
			wake = a.opts.After(dueRetry)
		default:
			a.creditAfterOutage(ctx) // before any loss on time it may excuse
			a.track(func() { a.HandleDueGames(ctx) })
			passed = next
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-a.kick:
		case <-wake:
		case <-beat:
			a.heartbeat(ctx)
			beat = a.opts.After(heartbeatEvery)
		}
		passed = time.Time{}
	}
}

// heartbeat records that the App is alive, or after the store failed,
// credits the outage instead (creditAfterOutage), which also records it.
func (a *App) heartbeat(ctx context.Context) {
	if a.unreachable.Load() {
		a.creditAfterOutage(ctx)
		return
	}
	if err := a.deadlines.Heartbeat(ctx, a.Now()); err != nil && ctx.Err() == nil {
		a.unreachable.Store(true)
		a.log.Warn("clock: heartbeat", "err", err)
	}
}

// creditAfterOutage gives every running clock back the time the store
// was down while the App ran, once the store answers again: after the
// store failed a heartbeat or a deadline read, the first heartbeat is a
// credit of the time since the last heartbeat written (by any process),
// as at start-up (creditOutage). Of several processes that saw the
// outage, the first to write the heartbeat credits it; the others find it
// fresh. It reports whether it credited any game. A process that saw no
// failure never credits: a clock jumping forward (a test's) is no outage.
func (a *App) creditAfterOutage(ctx context.Context) bool {
	if !a.unreachable.Load() {
		return false
	}
	credit, n, err := a.deadlines.CreditOutage(ctx, a.Now(), OutageMin)
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("clock: credit the outage; the store still fails", "err", err)
		}
		return false
	}
	a.unreachable.Store(false)
	if credit > 0 {
		a.log.Info("clock: database outage credited to running clocks", "outage", credit.String(), "games", n)
	}
	return n > 0
}

// creditOutage, at start-up, gives every running clock back the time the
// bot was down (from its last heartbeat), so nobody loses on time while
// they could not move.
func (a *App) creditOutage(ctx context.Context) {
	a.outageOnce.Do(func() { a.creditOutageNow(ctx) })
}

// CreditOutage is creditOutage for cmd/gobot, which calls it before it
// takes interactions (Run would, but after the first ones could arrive:
// a move in time by the clock credited would be judged by the clock not
// yet credited). It runs once per App.
func (a *App) CreditOutage(ctx context.Context) { a.creditOutage(ctx) }

func (a *App) creditOutageNow(ctx context.Context) {
	credit, n, err := a.deadlines.CreditOutage(ctx, a.Now(), OutageMin)
	switch {
	case err != nil:
		a.log.Warn("clock: credit outage", "err", err)
	case credit > 0:
		a.log.Info("clock: outage credited to running clocks", "outage", credit.String(), "games", n)
	}
}

// CmdVacation starts, ends or shows the user's vacation. While it runs,
// the user's correspondence clocks are paused: the turns they have now,
// and those that begin before it ends, in the games they play and in
// those started meanwhile (StartChallenge). Live clocks never pause. A
// vacation that would pause nothing (no correspondence game, and no
// correspondence challenge waiting that could become one) is refused and
// takes no days.
func (a *App) CmdVacation(ctx context.Context, r *Request) error {
	key := UserPlayer(r.User).Key()
	now := a.Now()
	v, err := a.deadlines.Vacation(ctx, key)
	if err != nil {
		return err
	}
	if v.Year != now.UTC().Year() && !v.On(now) {
		// A new year, a new allowance; a vacation that runs into the new
		// year stays charged to the year it began in until it ends.
		v.Year, v.Used = now.UTC().Year(), 0
	}
	days, daysGiven, err := r.Int("days")
	if err != nil {
		return err
	}
	end, _, err := r.Bool("end")
	if err != nil {
		return err
	}
	left := func() string {
		rest := clock.Format(max(VacationPerYear-v.Used, 0))
		if VacationPerYear-v.Used < 30*time.Minute {
			rest = "none"
		}
		return fmt.Sprintf("%s of your %d days for %d left", rest, int(VacationPerYear/(24*time.Hour)), v.Year)
	}
	// Left is left for the start of a sentence: "None of your 30 days…".
	Left := func() string {
		s := left()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	switch {
	case end && daysGiven:
		return UserErr(ErrBadOption, "Give either `days:` to start a vacation or `end:true` to end one, not both.")
	case end:
		if !v.On(now) {
			return UserErr(ErrBadOption, "You are not on vacation.")
		}
		v.Used -= v.Until.Sub(now)
		if r := v.Used % time.Hour; r > 0 {
			v.Used += time.Hour - r // counted to the hour begun, as it is shown: no vacation is free
		}
		v.Until = now
		if err := a.deadlines.PutVacation(ctx, key, v); err != nil {
			return err
		}
		changed := a.vacationClocks(ctx, key, func(k *clock.Clock) { k.ResumeAt(now) })
		defer a.tellVacation(ctx, changed, func(g *storage.Game) string {
			return fmt.Sprintf("👋 %s is back from vacation: their clock in this game runs again, and their time runs out <t:%d:R>.", Mention(UserPlayer(r.User)), g.Clock.Deadline().Unix())
		})
		n := len(changed)
		if n == 0 {
			// Every game of theirs waits for an opponent: no clock of
			// theirs was paused, and theirs runs from the next move.
			return r.ReplyText(ctx, fmt.Sprintf("👋 Welcome back: your vacation is over. No game was waiting for your move, so none of your clocks was paused. %s.", Left()), true)
		}
		return r.ReplyText(ctx, fmt.Sprintf("👋 Welcome back: your vacation is over and your clocks run again in %s. %s.", Plural(n, "game"), Left()), true)
	case !daysGiven:
		if v.On(now) {
			return r.ReplyText(ctx, fmt.Sprintf("🏖️ You are on vacation until <t:%d:f>: your correspondence clocks are paused. %s.", v.Until.Unix(), Left()), true)
		}
		return r.ReplyText(ctx, fmt.Sprintf("You are not on vacation; %s. `/go vacation days:7` pauses your correspondence clocks for a week.", left()), true)
	case days < 1 || days > MaxVacationDays:
		return UserErr(ErrBadOption, fmt.Sprintf("A vacation is from 1 to %d days, not %d.", MaxVacationDays, days))
	case v.On(now):
		return UserErr(ErrBadOption, fmt.Sprintf("You are already on vacation until <t:%d:f>. End it with `/go vacation end:true` first.", v.Until.Unix()))
	}
	d := time.Duration(days) * 24 * time.Hour
	if v.Used+d > VacationPerYear {
		return UserErr(ErrBadOption, fmt.Sprintf("That is more than your allowance: %s.", left()))
	}
	corr, live, err := a.clockedGames(ctx, key)
	if err != nil {
		return err
	}
	liveNote := ""
	switch {
	case live == 1:
		liveNote = " Live clocks never pause: the clock of your live game keeps running."
	case live > 1:
		liveNote = fmt.Sprintf(" Live clocks never pause: the clocks of your %d live games keep running.", live)
	}
	waiting := 0
	if corr == 0 {
		if waiting, err = a.correspondenceChallenges(ctx, key, now); err != nil {
			return err
		}
	}
	if corr == 0 && waiting == 0 {
		// Nothing would pause: no days are taken for it.
		return UserErr(ErrBadOption, fmt.Sprintf("You play no correspondence game and have no correspondence challenge waiting, so a vacation would pause nothing: it pauses correspondence clocks (days a move) only.%s No days were taken; %s.", liveNote, left()))
	}
	v.Start, v.Until, v.Used = now, now.Add(d), v.Used+d
	if err := a.deadlines.PutVacation(ctx, key, v); err != nil {
		return err
	}
	until := v.Until
	changed := a.vacationClocks(ctx, key, func(k *clock.Clock) { k.PauseUntil(now, until) })
	defer a.tellVacation(ctx, changed, func(g *storage.Game) string {
		return fmt.Sprintf("🏖️ %s is on vacation until <t:%d:f>: their clock in this game is paused until then, unless they come back sooner. Their time then runs out <t:%d:R>.", Mention(UserPlayer(r.User)), until.Unix(), g.Clock.Deadline().Unix())
	})
	n := len(changed)
	paused := fmt.Sprintf("paused (now in %s, and in any game where your turn comes meanwhile)", Plural(n, "game"))
	switch {
	case corr == 0 && waiting == 1:
		paused = "paused when your turn comes in the game of your correspondence challenge, once it is accepted (you play no correspondence game now)"
	case corr == 0:
		paused = fmt.Sprintf("paused when your turn comes in the games of your %d correspondence challenges, once they are accepted (you play no correspondence game now)", waiting)
	case n == 0 && corr == 1:
		paused = "paused when your turn comes in your correspondence game (it is not your turn now)"
	case n == 0:
		paused = fmt.Sprintf("paused when your turn comes in each of your %d correspondence games (it is your turn in none now)", corr)
	}
	return r.ReplyText(ctx, fmt.Sprintf("🏖️ Enjoy your vacation, until <t:%d:f>. Your correspondence clocks are %s.%s %s.",
		until.Unix(), paused, liveNote, Left()), true)
}

// clockedGames counts the player's games in play with a correspondence
// clock (which a vacation pauses) and with a live one (which it never
// does).
func (a *App) clockedGames(ctx context.Context, key string) (corr, live int, err error) {
	games, err := a.games.PlayerActiveGames(ctx, key)
	if err != nil {
		return 0, 0, err
	}
	for _, g := range games {
		switch k := g.Clock; {
		case k == nil || k.Control.System == clock.None:
		case k.Control.Correspondence():
			corr++
		default:
			live++
		}
	}
	return corr, live, nil
}

// correspondenceChallenges counts the challenges waiting at now with a
// correspondence clock that the player made, was sent, or has a seat in
// (a team game's lobby): accepted during their vacation, each starts a game
// whose turns of theirs are paused. The store keeps no index of
// challenges by player; ExpiredChallenges with no bound lists them all,
// and those past their expiry but not yet removed are left out.
func (a *App) correspondenceChallenges(ctx context.Context, key string, now time.Time) (int, error) {
	all, err := a.challenges.ExpiredChallenges(ctx, time.Unix(0, math.MaxInt64))
	if err != nil {
		if !errors.Is(err, storage.ErrCorrupt) {
			return 0, err
		}
		a.log.Warn("vacation: challenges", "player", key, "err", err) // the others still count
	}
	n := 0
	for _, c := range all {
		if !c.ExpiresAt.After(now) || !ChallengeClock(c).Correspondence() {
			continue
		}
		in := c.Challenger.Key() == key || c.Opponent.Key() == key
		for _, side := range c.Teams {
			in = in || slices.ContainsFunc(side.Players, func(p storage.Player) bool { return p.Key() == key })
		}
		if in {
			n++
		}
	}
	return n, nil
}

// vacationClocks applies change to the running correspondence clocks of
// the player's games where it is their turn, each write version-checked
// (a game that changes meanwhile is read again), and returns the games it
// changed.
func (a *App) vacationClocks(ctx context.Context, key string, change func(k *clock.Clock)) (changed []*storage.Game) {
	games, err := a.games.PlayerActiveGames(ctx, key)
	if err != nil {
		a.log.Warn("vacation: active games", "player", key, "err", err)
	}
	for _, g := range games {
		for attempt := 0; attempt < 3; attempt++ {
			k := g.Clock
			if !k.Running() || !k.Control.Correspondence() || g.Scoring != nil || g.Player(k.ToMove.Game()).Key() != key {
				break
			}
			change(k)
			err := a.UpdateGame(ctx, g)
			if err == nil {
				changed = append(changed, g)
				break
			}
			if !errors.Is(err, ErrConflict) {
				a.log.Warn("vacation: pause clock", "game", g.ID, "err", err)
				break
			}
			if g, err = a.games.Game(ctx, g.ChannelID); err != nil {
				break
			}
		}
	}
	return changed
}

// tellVacation tells the channel of each game in games, whose clock a
// vacation paused or ended, what note says: its newest board still shows
// the deadline as it was. It runs after the player's answer.
func (a *App) tellVacation(ctx context.Context, games []*storage.Game, note func(g *storage.Game) string) {
	for _, g := range games {
		if _, err := a.Post(ctx, g, &Message{Content: note(g), AllowedMentions: NoMentions()}); err != nil {
			a.log.Info("vacation: tell the game's channel", "game", g.ID, "err", err)
		}
	}
}

// ClockShare is how long the bot to move on clock k may think at now, with
// movesLeft moves of its own still to come (the room's guess): the time
// left spread over them, what a byo-yomi or Canadian period allows a move,
// or half a simple period, less 10% and half a second for the move's
// posting. False when the clock sets no limit (no clock, or a share longer
// than an hour, as correspondence's days: any level's own budget is less).
func ClockShare(k *clock.Clock, now time.Time, movesLeft int) (time.Duration, bool) {
	if k == nil || !k.Running() {
		return 0, false
	}
	t, cc := k.Left(k.ToMove, now), k.Control
	moves := time.Duration(max(movesLeft, 1))
	var share time.Duration
	switch cc.System {
	case clock.Absolute:
		share = t.Main / moves
	case clock.Fischer:
		share = t.Main/moves + cc.Increment*3/4
	case clock.ByoYomi:
		share = max(t.Main/moves, cc.Period/2)
	case clock.Canadian:
		if t.Stones > 0 {
			share = t.Period / time.Duration(t.Stones)
		} else {
			share = max(t.Main/moves, cc.Period/time.Duration(2*cc.Stones))
		}
	case clock.Simple:
		share = cc.Period / 2
	default:
		return 0, false
	}
	const margin = 500 * time.Millisecond // the queue's hand-over and the board's posting
	if share > time.Hour {
		return 0, false
	}
	return max(share*9/10-margin, 100*time.Millisecond), true
}
