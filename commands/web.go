package commands

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// This file is the board page's door into the App (package web serves the
// page). A click is the same operation as the slash command or button a
// person would use in Discord: Act turns it into that interaction and runs
// it through the same router and handlers (version check, clock, bot
// queue, ratings, scoring and undo rules), catches the answer meant for
// the person who acted, and posts the public answer in the game's channel,
// so the channel's board follows the clicks. Every committed change of a
// game, whoever made it, is announced to OnChange's listeners.

// WebUser is a person acting from the board page: a Discord user signed
// in through the Activity, or a name signed in on a loopback address.
type WebUser struct {
	ID   string
	Name string
}

// Action kinds of the board page (Action.Kind).
const (
	ActPlay    = "play"     // place a stone at Point (/go play), or play the draughts move Point (/draughts play)
	ActPass    = "pass"     // /go pass
	ActResign  = "resign"   // /go resign (the page asks to confirm first)
	ActUndo    = "undo"     // /go undo
	ActUndoYes = "undo-yes" // Allow undo
	ActUndoNo  = "undo-no"  // Refuse (or withdraw one's own request)
	ActDead    = "dead"     // mark or unmark the group at Point (/go dead)
	ActAccept  = "accept"   // Accept the marking
	ActResume  = "resume"   // Resume play
	ActDraw    = "draw"     // offer a draw, or accept the offer (/draughts draw)
	ActAbort   = "abort"    // a player's abort, confirmed (in a team game, a vote unless the player is to move)
	ActRematch = "rematch"  // Rematch on the finished game Game (the final board's button)
)

// Action is what a person asks from the board page. Game, Version, Moves
// and Seat are what the page showed when the person clicked: the game's
// ID, its version, its number of moves and the side the page acts for.
type Action struct {
	Kind    string
	Point   string
	Game    string
	Version uint64
	Moves   int
	Seat    string // "black" or "white"
}

// ActResult is the outcome of Act: the sentence the person reads, and
// whether the action was refused (then nothing changed).
type ActResult struct {
	Text    string
	Refused bool
	// Version is the game's version once the action was done (0 when it
	// was refused or ended the game): the page keeps what it says of the
	// action under the board until the game moves on from there.
	Version uint64
}

// Refusals of the board page that no slash command has: the page's own
// view of the game is out of date, the game has ended, or the person
// only watches.
const (
	StaleClick   = "The board changed before your click arrived (a move was made or the marking changed): look at it again and click once more."
	ClosedGame   = "This game has ended: nothing more can be played in it."
	UnknownGame  = "gobot knows no such game in this channel: reload the board."
	WatchingOnly = "You are watching this game: only its players can act."
	shuttingDown = "gobot is restarting: please try again in a moment."
	notGo        = "The board page does not play this kind of game: play it with its slash commands."
)

// A WebRoom is what a room adds when the board page shows and plays its
// games; the page shows no other kind's.
type WebRoom interface {
	// LiveView is g, in play, as the board page draws it.
	LiveView(g *storage.Game) *GameView
	// FinishedView is arc, the last game finished in channelID, as the
	// board page draws it.
	FinishedView(arc *storage.Archived, channelID string) (*GameView, error)
	// Summary is g's title and board size in the page's list of games.
	Summary(g *storage.Game) (title string, size int)
	// WebAction is the interaction a page's action in g by the player of
	// side s is, as its slash command or button would come from Discord
	// (made with WebInteraction); refusal is the sentence when it cannot
	// be played.
	WebAction(g *storage.Game, u WebUser, s game.Side, act Action) (it *discordgo.Interaction, refusal string)
	// LiveRecord is g's record so far, in play, as /go sgf or /draughts
	// record attaches it.
	LiveRecord(g *storage.Game) (File, error)
}

// Act runs a person's action from the board page in the game of channelID
// and returns what they read. It is the same operation as the slash
// command or button: a refusal is the sentence Discord would show them
// privately, and the public answer (the new board) is posted in the
// channel. Only a player of the game may act, checked here (the seat the
// page claims) and again by the handler (the user's side).
func (a *App) Act(ctx context.Context, channelID string, u WebUser, act Action) ActResult {
	refuse := func(s string) ActResult { return ActResult{Text: s, Refused: true} }
	if act.Kind == ActRematch {
		return a.webRematch(ctx, channelID, u, act.Game)
	}
	g, err := a.LoadGame(ctx, channelID)
	switch {
	case errors.Is(err, ErrNoGame):
		return refuse(a.notInPlay(ctx, channelID, act.Game))
	case err != nil:
		msg, _ := ErrorMessage(err)
		return refuse(a.Plain(msg, nil))
	case act.Game != "" && act.Game != g.ID:
		return refuse(a.notInPlay(ctx, channelID, act.Game))
	}
	side, ok := g.SideOf(u.ID)
	if !ok {
		// In a vote game the channel's people play one side: anyone
		// who may see the game votes for it, as with /go play.
		side, ok = crowdSide(g)
	}
	if !ok {
		return refuse(WatchingOnly)
	}
	wr, ok := a.roomOf(g).(WebRoom)
	if !ok {
		return refuse(notGo)
	}
	if act.Kind == ActAbort {
		// A player's abort is the core's, in every kind: the button of
		// Discord's question, pressed (the page asked to confirm).
		if act.Version != g.Version {
			return refuse(StaleClick)
		}
		it := a.WebInteraction(g, u, discordgo.InteractionMessageComponent)
		it.Data = discordgo.MessageComponentInteractionData{CustomID: a.buttonPrefix(g) + g.ID + "/abort-yes/" + strconv.Itoa(g.State.MoveCount()), ComponentType: discordgo.ButtonComponent}
		res, _ := a.run(ctx, it, PlayerNames(g))
		return res
	}
	it, refusal := wr.WebAction(g, u, side, act)
	if refusal != "" {
		return refuse(refusal)
	}
	res, _ := a.run(ctx, it, PlayerNames(g))
	return res
}

// webRematch presses Rematch on the final board of game id, finished in
// channelID, for u: the button's handler (btnRematch) asks for the game
// again as its command would, and checks who may.
func (a *App) webRematch(ctx context.Context, channelID string, u WebUser, id string) ActResult {
	arc, err := a.archive.ArchivedGame(ctx, id)
	if err != nil || arc.ChannelID != channelID {
		return ActResult{Text: UnknownGame, Refused: true}
	}
	it := a.WebInteraction(&storage.Game{ChannelID: channelID, GuildID: arc.GuildID}, u, discordgo.InteractionMessageComponent)
	it.Data = discordgo.MessageComponentInteractionData{CustomID: "rematch/" + arc.ID, ComponentType: discordgo.ButtonComponent}
	names := map[string]string{u.ID: u.Name}
	for _, p := range []storage.Player{arc.Black, arc.White} {
		if p.UserID != "" {
			names[p.UserID] = PlainName(p)
		}
	}
	res, public := a.run(ctx, it, names)
	if !res.Refused && challengeIn(public) != "" {
		res.Text = "Challenge sent. " + res.Text // the invitation, as the opponent reads it
	}
	return res
}

// notInPlay is the refusal of a click on game id of channelID, which is
// not in play there: it has ended (the page shows it finished, or has not
// yet shown the next game), or gobot never knew it there.
func (a *App) notInPlay(ctx context.Context, channelID, id string) string {
	if arc, err := a.archive.ArchivedGame(ctx, id); err == nil && arc.ChannelID == channelID {
		return ClosedGame
	}
	return UnknownGame
}

// crowdSide is the side g's channel plays by vote, if it has one.
func crowdSide(g *storage.Game) (game.Side, bool) {
	for i := range g.Sides {
		if s := game.Side(i); g.Player(s).IsCrowd() {
			return s, true
		}
	}
	return 0, false
}

// run handles a board page's interaction through the router, as Handle
// does one from Discord, and returns what the person reads and the public
// answers, which it has posted in the channel.
func (a *App) run(ctx context.Context, it *discordgo.Interaction, names map[string]string) (ActResult, []*Message) {
	if cd, ok := DiscordAs[*consoleDiscord](a.opts.Discord); ok {
		// The console beside the page names in its mentions the people
		// signed in here.
		cd.learn(it, names)
	}
	wd := &webDiscord{Discord: a.opts.Discord}
	hctx, cancel := a.halt.With(context.WithoutCancel(ctx))
	defer cancel()
	initial := func(ctx context.Context, resp *Response) (*discordgo.Message, error) {
		return wd.Callback(ctx, it, resp)
	}
	var refused error
	if !a.track(func() { refused = a.handleWith(hctx, it, nil, wd, initial) }) {
		return ActResult{Text: shuttingDown, Refused: true}, nil
	}
	if names == nil {
		names = map[string]string{}
	}
	var version uint64
	if g, err := a.LoadGame(hctx, it.ChannelID); err == nil {
		for id, n := range PlayerNames(g) {
			names[id] = n
		}
		version = g.Version
	}
	if text, ok := wd.private(); ok {
		// A refusal, or an answer only its person sees (a vote cast).
		return ActResult{Text: a.Plain(text, names), Refused: refused != nil}, nil
	}
	public := wd.public()
	if len(public) > 0 {
		a.postPublic(hctx, it.ChannelID, public)
	}
	var notes []string
	wd.mu.Lock()
	said := append(slices.Clone(wd.edited), public...)
	wd.mu.Unlock()
	for _, m := range said {
		text := messageText(m)
		if len(m.Embeds) > 0 {
			// A board's content is only the ping of the player to move.
			text = messageText(&Message{Embeds: m.Embeds})
		}
		if s := noteOf(text); s != "" {
			notes = append(notes, a.Plain(s, names))
		}
	}
	return ActResult{Text: strings.Join(notes, "\n"), Version: version}, public
}

// stringOption is a slash command's string option.
func StringOption(name, value string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// webIDs makes the IDs of the board page's interactions: snowflakes of
// the current millisecond, in the upper half of its sequence numbers so
// that they never meet the console's (which count up from the bottom).
var webIDs atomic.Uint64

// webInteraction is the interaction Discord would send for u acting in g,
// without a token: nothing can answer it on Discord, and a game keeps the
// follow-up of its last real interaction (see move).
func (a *App) WebInteraction(g *storage.Game, u WebUser, t discordgo.InteractionType) *discordgo.Interaction {
	user := &discordgo.User{ID: u.ID, Username: u.Name, GlobalName: u.Name}
	it := &discordgo.Interaction{ID: a.webID(), AppID: a.opts.AppID, Type: t, ChannelID: g.ChannelID, GuildID: g.GuildID, Version: 1}
	if g.GuildID != "" {
		it.Member = &discordgo.Member{User: user}
	} else {
		it.User = user
	}
	return it
}

func (a *App) webID() string {
	ms := uint64(a.Now().UnixMilli() - discordEpoch)
	seq := webIDs.Add(1)%(1<<21) + 1<<21
	return strconv.FormatUint(ms<<22|seq, 10)
}

// postPublic posts the public answers of a board-page action in the
// channel, as the bot's own moves are posted (postBoard): the follow-up
// of the game's last interaction while it may, else a channel message.
func (a *App) postPublic(ctx context.Context, channelID string, msgs []*Message) {
	g, _ := a.LoadGame(ctx, channelID)
	for _, m := range msgs {
		var err error
		if g != nil {
			err = a.PostBoard(ctx, g, m)
		} else {
			_, err = a.opts.Discord.SendMessage(ctx, channelID, m)
		}
		if err != nil {
			a.log.Warn("board page: post the answer in the channel", "channel", channelID, "err", err)
		}
	}
}

// webDiscord stands in for Discord for one board-page action: it keeps the
// answers to the interaction (there is no interaction on Discord to answer)
// and passes everything else (channel posts, edits) to Discord.
type webDiscord struct {
	Discord
	mu            sync.Mutex
	privateDefer  bool
	privateText   string
	hasPrivate    bool
	publicAnswers []*Message
	edited        []*Message // answers that edited the message clicked on (not posted again)
}

func (w *webDiscord) keep(m *Message, private bool) {
	if m == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if private || m.Ephemeral {
		if !w.hasPrivate {
			w.privateText, w.hasPrivate = messageText(m), true
		}
		return
	}
	w.publicAnswers = append(w.publicAnswers, m)
}

func (w *webDiscord) private() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.privateText, w.hasPrivate
}

func (w *webDiscord) public() []*Message {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.publicAnswers
}

func (w *webDiscord) Callback(ctx context.Context, it *discordgo.Interaction, r *Response) (*discordgo.Message, error) {
	switch r.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		w.mu.Lock()
		w.privateDefer = r.Message != nil && r.Message.Ephemeral
		w.mu.Unlock()
	case discordgo.InteractionResponseUpdateMessage:
		if it.Message != nil && it.Message.ID != "" && r.Message != nil && !r.Message.Ephemeral {
			// A click on a message in the channel (an undo request's):
			// the answer edits it there, as Discord's button would.
			if err := w.Discord.EditMessage(ctx, it.ChannelID, it.Message.ID, r.Message); err == nil {
				w.mu.Lock()
				w.edited = append(w.edited, r.Message)
				w.mu.Unlock()
				return nil, nil
			}
		}
		w.keep(r.Message, false)
	case discordgo.InteractionResponseChannelMessageWithSource:
		w.keep(r.Message, false)
	}
	return nil, nil
}

func (w *webDiscord) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	w.mu.Lock()
	private := w.privateDefer
	w.mu.Unlock()
	w.keep(m, private)
	return &discordgo.Message{ChannelID: it.ChannelID}, nil // no message on Discord, so no ID
}

func (w *webDiscord) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	return &discordgo.Message{ChannelID: it.ChannelID}, nil // no message on Discord, so no ID
}

func (w *webDiscord) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error { return nil }

func (w *webDiscord) Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	w.keep(m, false)
	return &discordgo.Message{ChannelID: it.ChannelID}, nil // posted later by postPublic, under its own ID
}

// messageText is a message's words: its content and its embeds'
// descriptions.
func messageText(m *Message) string {
	parts := []string{}
	if m.Content != "" {
		parts = append(parts, m.Content)
	}
	for _, e := range m.Embeds {
		if e.Description != "" {
			parts = append(parts, e.Description)
		}
	}
	return strings.Join(parts, "\n")
}

// noteOf is what just happened, from a board message: its lines before
// the status (which starts with a bold line, "Last move:" or the count),
// which the page shows in its own way.
func noteOf(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "**") || strings.HasPrefix(line, "Last move:") || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "-# ") {
			break
		}
		keep = append(keep, line)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// playerNames maps the user IDs of g's players to their names.
func PlayerNames(g *storage.Game) map[string]string {
	names := map[string]string{}
	if g == nil {
		return names
	}
	for _, p := range g.Players() {
		if p.UserID != "" {
			names[p.UserID] = PlainName(p)
		}
	}
	return names
}

var webMarkup = strings.NewReplacer("**", "", "-# ", "", "```\n", "", "\n```", "", "```", "", "`", "")

// plain turns Discord markup into the page's plain text: mentions as
// names, timestamps as Discord would show them, no bold or code marks.
func (a *App) Plain(s string, names map[string]string) string {
	s = mentionRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := mentionRe.FindStringSubmatch(m)
		if n, ok := names[sub[2]]; ok && sub[1] != "#" && sub[1] != "@&" {
			return n
		}
		return "someone"
	})
	now := a.Now()
	s = timestampRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := timestampRe.FindStringSubmatch(m)
		sec, err := strconv.ParseInt(sub[1], 10, 64)
		if err != nil {
			return m
		}
		return discordTime(time.Unix(sec, 0).UTC(), sub[2], now)
	})
	s = emojiRe.ReplaceAllString(s, "")
	return strings.TrimSpace(webMarkup.Replace(s))
}

// emojiRe matches the custom emoji of the messages (<:name:id>).
var emojiRe = regexp.MustCompile(`<a?:\w+:\d+>`)

// changes is the App's change feed: the listeners called with the channel
// of every committed change of a game.
type changes struct {
	mu        sync.Mutex
	next      int
	listeners map[int]func(channelID string)
}

// OnChange calls fn with the channel of every committed change of a game
// (a move, a pass, the marking, an undo, the clock, a game started or
// ended), made by a slash command, a button, the bot, the clock or the
// board page, in this process; Publish adds the changes other processes
// report. A game in a thread is announced for its parent channel too. fn
// must return quickly (it runs in the writer's goroutine). stop removes it.
func (a *App) OnChange(fn func(channelID string)) (stop func()) {
	c := a.changes
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listeners == nil {
		c.listeners = map[int]func(string){}
	}
	id := c.next
	c.next++
	c.listeners[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.listeners, id)
	}
}

// Publish tells OnChange's listeners that the game of channelID changed:
// how a change committed by another process sharing the store (PostgreSQL
// NOTIFY) reaches the board pages this process serves.
func (a *App) Publish(channelID string) {
	if channelID == "" {
		return
	}
	c := a.changes
	c.mu.Lock()
	fns := make([]func(string), 0, len(c.listeners))
	for _, fn := range c.listeners {
		fns = append(fns, fn)
	}
	c.mu.Unlock()
	for _, fn := range fns {
		fn(channelID)
	}
}

// publishGame announces a change of g: its channel and, for a thread, its
// parent's (whose board page lists the games of its threads).
func (a *App) publishGame(g *storage.Game) {
	a.Publish(g.ChannelID)
	if g.ParentChannelID != "" {
		a.Publish(g.ParentChannelID)
	}
}

// feedGames is the App's Games: the store's, announcing each committed
// write to the change feed.
type feedGames struct {
	Games
	app *App
}

func (f feedGames) announce(g *storage.Game, err error) error {
	if err == nil {
		f.app.publishGame(g)
	}
	return err
}

func (f feedGames) CreateGame(ctx context.Context, g *storage.Game) error {
	return f.announce(g, f.Games.CreateGame(ctx, g))
}

func (f feedGames) UpdateGame(ctx context.Context, g *storage.Game) error {
	return f.announce(g, f.Games.UpdateGame(ctx, g))
}

func (f feedGames) FinishGame(ctx context.Context, g *storage.Game, arc storage.Archived) error {
	return f.announce(g, f.Games.FinishGame(ctx, g, arc))
}

func (f feedGames) AbortGame(ctx context.Context, g *storage.Game) error {
	return f.announce(g, f.Games.AbortGame(ctx, g))
}

func (f feedGames) QuarantineGame(ctx context.Context, channelID string) error {
	err := f.Games.QuarantineGame(ctx, channelID)
	if err == nil {
		f.app.Publish(channelID)
	}
	return err
}

// feedChallenges is the App's Challenges: the store's, announcing to the
// change feed the channel of every challenge made, changed or deleted,
// and the game an accepted challenge starts (the local board page lists
// the challenges open on this computer).
type feedChallenges struct {
	Challenges
	app *App
}

func (f feedChallenges) CreateChallenge(ctx context.Context, c *storage.Challenge) error {
	err := f.Challenges.CreateChallenge(ctx, c)
	if err == nil {
		f.app.Publish(c.ChannelID)
	}
	return err
}

func (f feedChallenges) UpdateChallenge(ctx context.Context, id string, change func(*storage.Challenge) error) (*storage.Challenge, error) {
	c, err := f.Challenges.UpdateChallenge(ctx, id, change)
	if err == nil {
		f.app.Publish(c.ChannelID)
	}
	return c, err
}

// DeleteChallenge announces the channel of the challenge it deletes
// (declined, withdrawn, expired or cancelled), read first: the delete
// itself does not say it.
func (f feedChallenges) DeleteChallenge(ctx context.Context, id string) error {
	c, rerr := f.Challenges.Challenge(ctx, id)
	err := f.Challenges.DeleteChallenge(ctx, id)
	if err == nil && rerr == nil {
		f.app.Publish(c.ChannelID)
	}
	return err
}

func (f feedChallenges) AcceptChallenge(ctx context.Context, id string, g *storage.Game) error {
	err := f.Challenges.AcceptChallenge(ctx, id, g)
	if err == nil {
		f.app.publishGame(g)
	}
	return err
}

// LocalGuild is the server the board page's local games belong to (the
// console's): a local page has no Discord server behind it.
const LocalGuild = consoleGuild

// ConsoleChannel is the console's channel: a board page opened beside the
// console shows its game.
const ConsoleChannel = consoleChannel

// NewChannelID returns a fresh channel ID for a game started from a local
// board page: each game has a channel of its own, as a thread would.
func (a *App) NewChannelID() string { return a.webID() }

// Start is a game asked for from a local board page: against the bot
// Level, or a challenge to Opponent, on a Size×Size board; the options
// left empty (zero) are the command's defaults.
type Start struct {
	Level    string
	Opponent *WebUser
	Size     int
	Color    string // "black", "white" or "nigiri": the asker's colour
	Handicap int    // Black's handicap stones
	Clock    string // a preset's name ("live")
}

// Start runs /go bot or /go challenge for u in channelID, as typed in
// Discord, with rated:false. For a challenge it also returns the
// challenge's ID, which the opponent answers with Answer.
func (a *App) Start(ctx context.Context, channelID string, u WebUser, s Start) (res ActResult, challengeID string) {
	// Unrated: a name signed in on this computer proves nobody's
	// identity, so its games move no rating, and its players never reach
	// a leaderboard.
	opts := []*discordgo.ApplicationCommandInteractionDataOption{IntOption("size", s.Size), BoolOption("rated", false)}
	if s.Color != "" {
		opts = append(opts, StringOption("color", s.Color))
	}
	if s.Handicap != 0 {
		opts = append(opts, IntOption("handicap", s.Handicap))
	}
	if s.Clock != "" {
		opts = append(opts, StringOption("clock", s.Clock))
	}
	data := discordgo.ApplicationCommandInteractionData{ID: "300000000000000001", Name: "go", CommandType: discordgo.ChatApplicationCommand,
		Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}}}
	sub := "bot"
	if s.Opponent != nil {
		sub = "challenge"
		o := &discordgo.User{ID: s.Opponent.ID, Username: s.Opponent.Name, GlobalName: s.Opponent.Name}
		data.Resolved.Users[o.ID] = o
		opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: o.ID})
	} else {
		opts = append(opts, StringOption("level", s.Level))
	}
	data.Options = []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}
	it := a.WebInteraction(&storage.Game{ChannelID: channelID, GuildID: LocalGuild}, u, discordgo.InteractionApplicationCommand)
	it.Data = data
	names := map[string]string{u.ID: u.Name}
	if s.Opponent != nil {
		names[s.Opponent.ID] = s.Opponent.Name
	}
	res, public := a.run(ctx, it, names)
	return res, challengeIn(public)
}

// challengeIn is the ID of the challenge among public answers, by its
// Accept button; "" when there is none.
func challengeIn(public []*Message) (id string) {
	for _, m := range public {
		for _, row := range m.Components {
			ar, ok := row.(discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, c := range ar.Components {
				if b, ok := c.(discordgo.Button); ok && strings.HasPrefix(b.CustomID, "challenge/") && strings.HasSuffix(b.CustomID, "/accept") {
					id = strings.TrimSuffix(strings.TrimPrefix(b.CustomID, "challenge/"), "/accept")
				}
			}
		}
	}
	return id
}

// Offer is a challenge open on this computer (made on the local board
// page or in the console), as the local board page lists it.
type Offer struct {
	ID      string
	Channel string
	Kind    string // the game's kind ("go", "draughts")
	From    WebUser
	To      WebUser
	Size    int // Go's board size; 0 for another kind
	// Text is the invitation as the challenge's message in Discord says
	// it, with the players named: its terms (board, rules, clock,
	// colours, rated or not) are known before it is accepted.
	Text string
}

// Offers returns the challenges open on this computer (in LocalGuild) from
// one person to another, oldest first: those the local board page can
// answer (not an open challenge or a rengo lobby, nor one that has
// expired and waits for the sweep).
func (a *App) Offers(ctx context.Context) ([]Offer, error) {
	all, err := a.admin.GuildChallenges(ctx, LocalGuild)
	if err != nil {
		return nil, err
	}
	now := a.Now()
	var out []Offer
	for _, c := range all {
		if c.Team() || c.Opponent.UserID == "" || c.Challenger.UserID == "" || !now.Before(c.ExpiresAt) {
			continue
		}
		from := WebUser{ID: c.Challenger.UserID, Name: PlainName(c.Challenger)}
		to := WebUser{ID: c.Opponent.UserID, Name: PlainName(c.Opponent)}
		text := a.Plain(a.RoomOfKind(c.Kind).ChallengeText(c), map[string]string{from.ID: from.Name, to.ID: to.Name})
		out = append(out, Offer{ID: c.ID, Channel: c.ChannelID, Kind: storage.KindOf(c.Kind), Size: c.Size, From: from, To: to, Text: text})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Answer presses Accept (or Decline) on challenge id for u, as on the
// challenge's message in Discord.
func (a *App) Answer(ctx context.Context, channelID string, u WebUser, id string, accept bool) ActResult {
	verb := "decline"
	if accept {
		verb = "accept"
	}
	it := a.WebInteraction(&storage.Game{ChannelID: channelID, GuildID: LocalGuild}, u, discordgo.InteractionMessageComponent)
	it.Data = discordgo.MessageComponentInteractionData{CustomID: "challenge/" + id + "/" + verb, ComponentType: discordgo.ButtonComponent}
	// What is said of it names its people ("Only bob can answer this
	// challenge."), who are no players of a game yet.
	names := map[string]string{u.ID: u.Name}
	if c, err := a.challenges.Challenge(ctx, id); err == nil {
		for _, p := range []storage.Player{c.Challenger, c.Opponent} {
			if p.UserID != "" {
				names[p.UserID] = PlainName(p)
			}
		}
	}
	res, _ := a.run(ctx, it, names)
	return res
}

// Levels are the bot levels on offer (for the local board page's
// "play the bot" choice): those of the first room the page plays.
func (a *App) Levels() []Level {
	for _, rm := range a.rooms.list {
		if _, ok := rm.(WebRoom); ok {
			return rm.Levels()
		}
	}
	return nil
}

// ConsoleUser is the user the console and the local board page know by
// name: the same name is the same person in both.
func ConsoleUser(name string) WebUser {
	u := ConsoleDiscordUser(name)
	return WebUser{ID: u.ID, Name: name}
}

// Record is the record of game gameID for a board page opened on
// channelID's game, to download: the game in play there, as far as it has
// gone, or a game finished there; the same file /go sgf or /draughts
// record attaches. When there is none, refusal says why, as Act's do.
func (a *App) Record(ctx context.Context, channelID, gameID string) (f File, refusal string) {
	failed := func(err error) (File, string) {
		msg, user := ErrorMessage(err)
		if !user {
			a.log.Error("record for a board page", "channel", channelID, "game", gameID, "err", err)
		}
		return File{}, a.Plain(msg, nil)
	}
	g, err := a.LoadGame(ctx, channelID)
	switch {
	case err == nil && g.ID == gameID:
		wr, ok := a.roomOf(g).(WebRoom)
		if !ok {
			return File{}, notGo
		}
		f, err := wr.LiveRecord(g)
		if err != nil {
			return failed(err)
		}
		return f, ""
	case err != nil && !errors.Is(err, ErrNoGame) && !errors.Is(err, ErrQuarantined):
		return failed(err)
	}
	arc, err := a.archive.ArchivedGame(ctx, gameID)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && arc.ChannelID != channelID):
		return File{}, UnknownGame
	case err != nil:
		return failed(err)
	}
	r := a.RoomOfKind(arc.Kind)
	if _, ok := r.(WebRoom); !ok {
		return File{}, notGo
	}
	f, _ = r.Record(arc)
	return f, ""
}

// Where says where the game of channelID lives: its server ("" for a DM)
// and, for a thread, the channel the thread is in; the last finished game
// when none is in play, and ErrNoGame when there is neither. The board
// page checks with it who may see the game.
func (a *App) Where(ctx context.Context, channelID string) (guildID, parentID string, err error) {
	g, err := a.LoadGame(ctx, channelID)
	switch {
	case err == nil:
		return g.GuildID, g.ParentChannelID, nil
	case !errors.Is(err, ErrNoGame) && !errors.Is(err, ErrQuarantined):
		return "", "", err
	}
	arcs, err := a.archive.ChannelGames(ctx, channelID, 1)
	if err != nil {
		return "", "", err
	}
	if len(arcs) == 0 {
		return "", "", ErrNoGame
	}
	// A thread's finished game is still its parent's: the page opened in
	// the parent shows it, and offers its Rematch.
	return arcs[0].GuildID, arcs[0].ParentChannelID, nil
}
