package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// Room is one kind of game's part of the Discord side: what only that
// kind knows. The core (challenges and their buttons, turns, clocks and
// deadlines, the owed bot moves, board delivery, the archive, ratings,
// history and stats) asks the room of a game's kind (storage.Game.Kind)
// whenever it must draw, record, describe or move in a game; it never
// looks inside a game's state itself. A kind registers its room with one
// entry of Options.Rooms, in cmd/gobot.
type Room interface {
	// Kind is the kind's name in records: storage.Game.Kind,
	// storage.Challenge.Kind and storage.Archived.Kind ("go", "draughts").
	Kind() string
	// Command is the kind's slash command ("go", "draughts"); its
	// subcommands are routed as Command()+"/"+name.
	Command() string
	// Name is the game's name in a sentence: "Go", "international
	// draughts".
	Name() string
	// RecordCommand is the subcommand that attaches a game's record
	// ("sgf", "record"), under Command.
	RecordCommand() string
	// ButtonPrefix begins the custom IDs of a game's buttons ("game/",
	// "draughts/"): a button of another kind's game is refused.
	ButtonPrefix() string
	// Routes registers the room's handlers.
	Routes(rt *Router)
	// Levels are the room's bot levels, weakest first.
	Levels() []Level
	// Definition is the room's slash command (CommandContexts and
	// CommandIntegrations say where it may be used). shared are the first
	// room's subcommands by name, for the options that every room's
	// record, history, stats and leaderboard share; the first room gets
	// none.
	Definition(shared map[string]*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand

	// Message is g's message as it stands at now: its board, whose turn
	// or the result, and note.
	Message(ctx context.Context, g *storage.Game, now time.Time, note string) (*Message, error)
	// Title names g in a sentence: "⚫ Alice vs ⚪ Bob (19×19)".
	Title(g *storage.Game) string
	// SideLabel is side s of g as messages write it, its emoji first:
	// "⚫ black".
	SideLabel(g *storage.Game, s game.Side) string
	// Line is g on an admin's list of games in play: its players, its
	// board and the number of the move being played, as the kind counts.
	Line(g *storage.Game) (players, board string, move int)
	// OwnMoves counts the moves side s has made in g.
	OwnMoves(g *storage.Game, s game.Side) int
	// LastMover is who made g's last move (no one before the first).
	LastMover(g *storage.Game) storage.Player
	// ActiveRecord answers r with g's record so far, with its animated
	// replay when r asks for one (/go sgf, /draughts record).
	ActiveRecord(ctx context.Context, r *Request, g *storage.Game) error
	// BotMove makes the move of the bot to move in g and commits it; it
	// returns the sentence announcing it.
	BotMove(ctx context.Context, g *storage.Game) (string, error)
	// Archived is g's entry in the archive, g being over (or void when
	// void says why): its players by colour, result, record and the
	// kind's own columns; annulled marks a game recorded but not counted
	// (the record says so). note, when not empty, goes at the root of the
	// record of a game that is not void (an admin's decision and reason).
	// The core fills what every kind shares (IDs, times, rated, pools).
	Archived(g *storage.Game, annulled bool, void, note string) (storage.Archived, error)
	// UnratedNote says why g, finished, was not rated although asked to
	// be; empty when it was, or was not asked.
	UnratedNote(g *storage.Game) string
	// Text is g's position as plain text (the console prints it under a
	// board picture).
	Text(g *storage.Game) string
	// FinishedText is a finished game's final position as plain text, as
	// Text draws a game in play (the console prints it under the game's
	// last board); empty when its record cannot be read.
	FinishedText(arc *storage.Archived) string

	// ChallengeText is a challenge's invitation: who challenges whom to
	// what.
	ChallengeText(c *storage.Challenge) string
	// Accept starts the game challenge c asks for, accepted by r's user
	// (startChallenge does the starting; the room says who plays which
	// side).
	Accept(ctx context.Context, r *Request, c *storage.Challenge) error

	// NewState is the start of the game challenge c asks for; a challenge
	// whose options cannot start a game is the user's error that says why.
	NewState(c *storage.Challenge) (game.State, error)

	// Setup names a finished game's board, with its handicap stones:
	// "19×19", "13×13 H3", "draughts 10×10".
	Setup(arc *storage.Archived) string
	// Record is a finished game's record as an attachment, and its format
	// in a sentence ("SGF, opens in any Go editor").
	Record(arc *storage.Archived) (File, string)
	// Finished shows a finished game from its record: the final position,
	// the result, the record attached.
	Finished(arc *storage.Archived) (*Message, error)
	// Animation is a finished game's animated replay.
	Animation(arc *storage.Archived) (File, error)
	// Rematch is the command that asks for the game arc again, for its
	// player of side by (storage.Archived.Team's: 0 for the player
	// recorded as Black): the room's bot command against a bot, its
	// challenge command against a person, with the game's options, the
	// colours changed unless the game gave a handicap. The core adds the
	// resolved opponent and runs it as the clicker's command (btnRematch).
	Rematch(arc *storage.Archived, by game.Side) discordgo.ApplicationCommandInteractionData
	// MarkRecord is a finished game's record with comment added to the
	// comment at its root, the rest as it was (an annulment's who, when
	// and why).
	MarkRecord(arc *storage.Archived, comment string) ([]byte, error)
}

// NewRoom makes a kind's room for the App it serves.
type NewRoom func(a *App) (Room, error)

// rooms are the App's rooms, by kind and by command.
type rooms struct {
	byKind, byCommand map[string]Room
	list              []Room
}

func newRooms(list []Room) (*rooms, error) {
	if len(list) == 0 {
		return nil, fmt.Errorf("commands: New needs a room (Options.Rooms)")
	}
	rs := &rooms{byKind: map[string]Room{}, byCommand: map[string]Room{}, list: list}
	for _, r := range list {
		if _, dup := rs.byKind[r.Kind()]; dup {
			return nil, fmt.Errorf("commands: two rooms for the kind %q", r.Kind())
		}
		if _, dup := rs.byCommand[r.Command()]; dup {
			return nil, fmt.Errorf("commands: two rooms for the command /%s", r.Command())
		}
		rs.byKind[r.Kind()], rs.byCommand[r.Command()] = r, r
	}
	return rs, nil
}

// room is the room of kind ("" is Go's, as archive records written
// before gobot had a second game say: storage.KindOf). New refuses an App
// without a room for each kind its store reads, so a stored game always
// finds its room; anything else gets the first room registered.
func (a *App) RoomOfKind(kind string) Room {
	if r, ok := a.rooms.byKind[storage.KindOf(kind)]; ok {
		return r
	}
	return a.rooms.list[0]
}

// recordHint is the command that gives game id's record, of kind: "`/go
// sgf game:ID`", "`/draughts record game:ID`".
func (a *App) recordHint(kind, id string) string {
	rm := a.RoomOfKind(kind)
	return fmt.Sprintf("`/%s %s game:%s`", rm.Command(), rm.RecordCommand(), id)
}

// roomOf is the room of g's kind.
func (a *App) roomOf(g *storage.Game) Room { return a.RoomOfKind(g.Kind) }

// commandRoom is the room of the command r came with (/go, /draughts: the
// first part of r.Path); the first room registered for anything else.
func (a *App) commandRoom(r *Request) Room {
	name, _, _ := strings.Cut(r.Path, "/")
	if rm, ok := a.rooms.byCommand[name]; ok {
		return rm
	}
	return a.rooms.list[0]
}

// sideEmoji is side s of g's emoji: its stones' or men's colour.
func (a *App) sideEmoji(g *storage.Game, s game.Side) string {
	return strings.Fields(a.sideLabel(g, s))[0]
}

// sideLabel is side s of g as the messages write it, with its emoji:
// "⚫ black" in Go, "⚪ white" for draughts' first side.
func (a *App) sideLabel(g *storage.Game, s game.Side) string { return a.roomOf(g).SideLabel(g, s) }

// archivedSetup names a finished game's board: "19×19", "13×13 H3" (3 handicap stones), "draughts 10×10".
func (a *App) archivedSetup(arc *storage.Archived) string { return a.RoomOfKind(arc.Kind).Setup(arc) }

// recordFile is the attachment of a finished game's record: SGF for Go,
// PDN for draughts.
func (a *App) recordFile(arc *storage.Archived) File {
	f, _ := a.RoomOfKind(arc.Kind).Record(arc)
	return f
}

// recordFormat is a finished game's record's format in a sentence: "SGF,
// opens in any Go editor".
func (a *App) recordFormat(arc *storage.Archived) string {
	_, format := a.RoomOfKind(arc.Kind).Record(arc)
	return format
}

// ServerClock is the clock: option of a game whose named controls are
// presets (clock.DraughtsPresets), or the server's default clock when none
// is given (its admins' choice: one of Go's presets is the game's own
// preset of that name, clock.Control.In), or nil for gobot's default
// (ClockIn).
func ServerClock(r *Request, st *storage.Settings, presets []clock.Preset) (*clock.Control, error) {
	ck, err := ClockOptionIn(r, presets)
	if err != nil || ck != nil || st == nil || st.Clock == nil {
		return ck, err
	}
	return new(st.Clock.In(presets)), nil
}

// BotLevel checks a bot level's name, as a person typed it, against the
// levels a room offers: the one place a typed level is checked (the bots
// are asked only for levels that passed here). what names the game in the
// refusal when the room's levels are not Go's ("draughts ").
func BotLevel(name string, levels []Level, what string) (string, error) {
	names := make([]string, 0, len(levels))
	for _, l := range levels {
		if strings.EqualFold(l.Name, strings.TrimSpace(name)) {
			return l.Name, nil // as the level is named ("Easy" is easy)
		}
		names = append(names, l.Name)
	}
	return "", UserErr(ErrBadOption, fmt.Sprintf("Unknown %slevel %s: choose one of %s.", what, Quote(name), strings.Join(names, ", ")))
}

// CompleteLevel suggests the bot levels of the command's room that this
// server's admins offer, each with how it plays ("max: about 3 kyu, …"):
// those whose name begins with what was typed, or failing any, those
// whose name or description holds it ("kyu", "tree search"). The level
// options take suggestions rather than a fixed list of choices: a
// command's names, descriptions and choices may not pass Discord's 8,000
// characters, and every level's description, in three options of /go,
// did; the typed value is checked as any other (BotLevel).
func (a *App) CompleteLevel(ctx context.Context, r *Request) error {
	_, typed := r.Focused()
	typed = strings.ToLower(strings.TrimSpace(typed))
	st, err := a.Settings(ctx, r.Interaction.GuildID)
	if err != nil {
		return r.Choices(ctx, nil)
	}
	var byName, byText []*discordgo.ApplicationCommandOptionChoice
	for _, l := range a.commandRoom(r).Levels() {
		label := l.Name
		if l.Description != "" {
			label += ": " + l.Description
		}
		if !st.BotLevel(l.Name) {
			continue
		}
		c := &discordgo.ApplicationCommandOptionChoice{Name: Clip(label, 100), Value: l.Name}
		switch {
		case strings.HasPrefix(strings.ToLower(l.Name), typed):
			byName = append(byName, c)
		case strings.Contains(strings.ToLower(label), typed):
			byText = append(byText, c)
		}
	}
	if len(byName) == 0 {
		byName = byText
	}
	return r.Choices(ctx, byName[:min(len(byName), 25)])
}

// LevelOption is the level: option of a room's bot commands: the level
// named, checked (BotLevel), or the first (weakest) on offer.
func LevelOption(r *Request, levels []Level, what string) (string, error) {
	if v, ok := r.String("level"); ok {
		return BotLevel(v, levels, what)
	}
	if len(levels) == 0 {
		return "", UserErr(ErrBotBusy, "No bot levels are configured.")
	}
	return levels[0].Name, nil
}

// Phases are what a room adds to the core's paths when its games have
// phases of their own (Go's scoring phase, rengo's lobbies, vote games'
// votes). A room without them has none.
type Phases interface {
	// Sync brings g's own phases in step with its state before every
	// write (a vote game's open vote).
	Sync(g *storage.Game, now time.Time)
	// Due handles g when it is due and the deadline is one of the room's
	// own (a scoring phase's, a vote's), not the clock's: handled says so.
	Due(ctx context.Context, g *storage.Game) (handled bool, err error)
	Poster
	// TeamTimeUp handles a team player's time running out on a casual
	// clock: done when a teammate plays on, false when the team loses.
	TeamTimeUp(ctx context.Context, g *storage.Game, s game.Side, deadline time.Time) (done bool, err error)
	// Lobby is the message of a team challenge (a lobby) closed with
	// outcome; or, outcome empty, open, with note (when not empty) saying
	// what changed its teams.
	Lobby(c *storage.Challenge, outcome, note string) *Message
}

// ServerSettings is what a room adds when a server's admins choose
// defaults for its games (Go's ruleset and komi) with /go-admin settings.
type ServerSettings interface {
	// Setting is st's value of setting name as an admin reads it; ok is
	// false when name is not one of the room's.
	Setting(st *storage.Settings, name string) (value string, ok bool)
	// SetSetting reads value into st's setting name, or says what is
	// wrong with it (then st is not stored); ok is false when name is not
	// one of the room's.
	SetSetting(st *storage.Settings, name, value string) (ok bool, err error)
	// RatedDefaults looks at st once setting name (any room's) changed in
	// it: refusal, when not empty, says why the server's default game
	// could no longer be rated, and the change is refused (a reset is
	// never refused: it warns); warning is added to the answer.
	RatedDefaults(st *storage.Settings, name string) (refusal, warning string)
}

// Notation is what a room adds when its players write finished games
// otherwise than Go's: the core's records, lists and ratings ask it. A
// room without it is written as Go is: "⚫ Black vs ⚪ White", results in
// SGF ("B+3.5", "W+R"), every move counted, ranks in kyu and dan.
type Notation interface {
	// ResultText is arc's result as the kind's players read it: "2-0
	// (resignation)".
	ResultText(arc *storage.Archived) string
	// ArchivedTitle names arc's players, the side that moves first first:
	// "⚪ Ann vs ⚫ Bob".
	ArchivedTitle(arc *storage.Archived) string
	// Moves says how many moves plies (the state's MoveCount) make, as
	// the kind counts them: "2 moves" where White and Black moved twice.
	Moves(plies int) string
	// Rank is a rating's rank as the kind's players know ranks; "" where
	// the kind has none.
	Rank(r glicko.Rating) string
}

// notation is the Notation of kind's room, nil for Go's way.
func (a *App) notation(kind string) Notation {
	n, _ := a.RoomOfKind(kind).(Notation)
	return n
}

// resultText is arc's result as its kind's players read it.
func (a *App) resultText(arc *storage.Archived) string {
	if n := a.notation(arc.Kind); n != nil {
		return n.ResultText(arc)
	}
	if arc.Result == "0" {
		return "Jigo" // a draw, as Go's players (and the help) say it; SGF writes 0
	}
	return arc.Result
}

// resultCounted is arc's result as resultText writes it, with what became
// of a game that is recorded but not counted, as the log and the history
// say it: "B+R, annulled", "Void, aborted".
func (a *App) resultCounted(arc *storage.Archived) string {
	switch {
	case AnnulledOnTimeArc(arc):
		return "annulled on time" // no score: nobody won it
	case !arc.Annulled:
		return a.resultText(arc)
	case arc.Result == "Void" && !arc.AnnulledInPlay:
		return a.resultText(arc) + ", aborted"
	}
	return a.resultText(arc) + ", annulled"
}

// AnnulledOnTimeArc reports whether arc was annulled as it ended, on time
// before the player who ran out had made two moves of their own (see
// Annulled), rather than by an admin afterwards. Its Result names the
// winner on time (Go's "W+T", draughts' as archived), which the record
// (RE[Void], Result "*") and the final board ("annulled on time, not
// counted") do not show: the player to move after three moves or fewer
// has made one at most, and one to move after more has made two.
func AnnulledOnTimeArc(arc *storage.Archived) bool {
	return arc.Annulled && strings.HasSuffix(arc.Result, "+T") && arc.Moves <= 3
}

// titleOf names arc's players as its kind's players read it.
func (a *App) titleOf(arc *storage.Archived) string {
	if n := a.notation(arc.Kind); n != nil {
		return n.ArchivedTitle(arc)
	}
	return ArchivedTitle(arc)
}

// movesText counts plies of a game of kind as its players count moves.
func (a *App) movesText(kind string, plies int) string {
	if n := a.notation(kind); n != nil {
		return n.Moves(plies)
	}
	return Plural(plies, "move")
}

// rankText is r's rank in kind's notation ("5k", "?" while provisional),
// "" where the kind has no ranks.
func (a *App) rankText(kind string, r glicko.Rating) string {
	if n := a.notation(kind); n != nil {
		return n.Rank(r)
	}
	return glicko.Rank(r)
}

// describeRating says a rating in kind for people: "1662 ± 290, rank ?"
// (no rank where the kind has none, when a provisional rating is marked
// by its number instead: "1662? ± 290").
func (a *App) describeRating(kind string, r glicko.Rating) string {
	rank := a.rankText(kind, r)
	if rank == "" {
		return fmt.Sprintf("%s ± %.0f", a.ratingNumber(kind, r), r.RD)
	}
	return fmt.Sprintf("%.0f ± %.0f, rank %s", r.Rating, r.RD, rank)
}

// ratingNumber is a rating's number in kind: "1662", with a "?" after it
// while the rating is provisional in a kind without ranks ("1662?", as
// lidraughts writes it); Go's rank says "?" instead.
func (a *App) ratingNumber(kind string, r glicko.Rating) string {
	if n := a.notation(kind); n != nil && r.Provisional() && n.Rank(r) == "" {
		return fmt.Sprintf("%.0f?", r.Rating)
	}
	return fmt.Sprintf("%.0f", r.Rating)
}

// Reviewed is what a room adds when its finished games have reviews: the
// record with the review written in (/go sgf review:true).
type Reviewed interface {
	// ReviewedRecord is arc's record with its stored review, and the
	// sentence that presents it; a game not reviewed yet is refused.
	ReviewedRecord(ctx context.Context, arc *storage.Archived) (data []byte, content string, err error)
}

// Without is what a room adds when its game lacks something another
// game's command does, to say so when that command is sent in one of its
// games (/go undo in a game of draughts).
type Without interface {
	// Without says, after "which", what sub, another room's subcommand,
	// would do that the room's game does not have: "has no takebacks: a
	// move played stands"; "" when it is not one of those.
	Without(sub string) string
}

// OnlyFor refuses arc, a game of another kind than rm's, for something
// only rm's games have: "Game `x` is a game of international draughts:
// reviews are only for Go. …".
func (a *App) OnlyFor(rm Room, arc *storage.Archived, what string) error {
	if storage.KindOf(arc.Kind) == rm.Kind() {
		return nil
	}
	return UserErr(ErrWrongGame, fmt.Sprintf("Game `%s` is a game of %s: %s only for %s. `/%s sgf game:%s` gives its record, and `/%s replay game:%s` its animation.",
		arc.ID, a.RoomOfKind(arc.Kind).Name(), what, rm.Name(), rm.Command(), arc.ID, rm.Command(), arc.ID))
}

// IsPlayer refuses u, with the game's sides, when u plays no side of g.
func (a *App) IsPlayer(g *storage.Game, u *discordgo.User) error {
	if _, ok := g.SideOf(u.ID); ok {
		return nil
	}
	side := func(s game.Side) string {
		label := strings.Fields(a.sideLabel(g, s))
		return WithSide(JoinNames(g.TeamOf(s), Mention), label[len(label)-1])
	}
	return UserErr(ErrNotPlayer, fmt.Sprintf("You are not playing in this game: it is %s against %s.", side(0), side(1)))
}

// phases are g's room's Phases, or nil.
// Poster is what a room adds to be told of the messages posted for its
// games (Phases include it; a room without phases may have it alone):
// Posted is told of every message posted for g outside a handler (a bot's
// board, a board page's answers), and of every board answered whose
// message Discord named (after a deferral). A question posted for a
// request made on the board page is how its room learns its message.
type Poster interface {
	Posted(ctx context.Context, g *storage.Game, m *discordgo.Message)
}

// poster is g's room as a Poster, or nil.
func (a *App) poster(g *storage.Game) Poster {
	p, _ := a.roomOf(g).(Poster)
	return p
}

func (a *App) phases(g *storage.Game) Phases {
	p, _ := a.roomOf(g).(Phases)
	return p
}

// Stopper is what a room adds when it has long work of its own (Go's
// reviews): Shutdown stops it at once, before the moves' grace period.
type Stopper interface{ Stop() }
