package goroom

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// stoneEmoji marks a colour in text.
func stoneEmoji(c engine.Color) string {
	if c == engine.White {
		return "⚪"
	}
	return "⚫"
}

// teamMention mentions colour c's side: its player, or in a team game
// all its players in their order ("<@1>, <@3>").
func teamMention(g *storage.Game, c engine.Color) string {
	return commands.JoinNames(g.TeamOf(engine.SideOf(c)), commands.Mention)
}

// teamName names colour c's side without mentions (titles, SGF).
func teamName(g *storage.Game, c engine.Color) string {
	return commands.JoinNames(g.TeamOf(engine.SideOf(c)), commands.PlainName)
}

// view is what a board picture shows beyond the stones.
type view struct {
	dead  []engine.Point
	owner []engine.Color
	// annulled marks a finished game an admin annulled after it ended:
	// its result stands, but it is not counted.
	annulled bool
}

// boardFile draws the position as a PNG attachment with alt text.
func boardFile(g *storage.Game, v view) (commands.File, string, error) {
	eg := goOf(g)
	b := eg.Board()
	opts := render.Options{Dead: v.dead, Owner: v.owner}
	if m, ok := eg.LastMove(); ok {
		opts.LastMove = m
	}
	if eg.Over() {
		opts.HideKo = true
	}
	var buf bytes.Buffer
	if err := render.Board(&buf, b, opts); err != nil {
		return commands.File{}, "", fmt.Errorf("goroom: draw board of game %s: %w", g.ID, err)
	}
	name := fmt.Sprintf("board-%s-%d.png", g.ID, eg.MoveCount())
	return commands.File{Name: name, ContentType: "image/png", Description: commands.Clip(altText(g, v), 1024), Data: buf.Bytes()}, name, nil
}

// altText describes the board for screen readers: render's description of
// the position, the players and the marked dead stones.
func altText(g *storage.Game, v view) string {
	pos := render.AltText(goOf(g))
	switch {
	case commands.Annulled((*room)(nil), g):
		// Lost on time before two moves of one's own: no winner.
		pos = render.AltTextEnded(goOf(g), "annulled on time, not counted")
	case v.annulled:
		pos += ", annulled, not counted"
	}
	s := fmt.Sprintf("%s (black) vs %s (white). %s", teamName(g, engine.Black), teamName(g, engine.White), pos)
	if len(v.dead) > 0 {
		var d []string
		for _, p := range v.dead {
			d = append(d, p.String())
		}
		s += " Marked dead: " + strings.Join(d, " ") + "."
	}
	return s
}

// status is the text under the board: move number, whose turn, last move,
// captures, rules (unrated: commands.ShownUnrated).
func status(g *storage.Game, now time.Time, unrated bool) string {
	eg := goOf(g)
	var sb strings.Builder
	if r, ok := eg.Result(); ok {
		fmt.Fprintf(&sb, "**Game over: %s**\n", resultSentence(g, r))
	} else if g.Scoring == nil {
		sb.WriteString(toPlayLine(g) + "\n")
	}
	if m, ok := eg.LastMove(); ok {
		// Move.String is "pass" for a pass: nothing to add.
		fmt.Fprintf(&sb, "Last move: %s %s · ", stoneEmoji(m.Color), m)
	}
	fmt.Fprintf(&sb, "Captures: ⚫ %d · ⚪ %d\n", eg.Captures(engine.Black), eg.Captures(engine.White))
	if _, over := eg.Result(); !over {
		if cs := clockStatus(g, now); cs != "" {
			sb.WriteString(cs + "\n")
		}
		if g.Vote != nil {
			sb.WriteString("🗳️ " + voteLine(g) + "\n")
		}
	} else if cs := commands.FinalClockStatus(commands.FinalClock(g.Clock, now), sideLabel); cs != "" {
		sb.WriteString(cs + "\n")
	}
	sb.WriteString("-# " + setupLine(g, unrated))
	return sb.String()
}

// toPlayLine is the board's line saying whose move it is: "**Move 12** ·
// ⚪ white to play: @bob".
func toPlayLine(g *storage.Game) string {
	eg := goOf(g)
	c := eg.ToPlay()
	return fmt.Sprintf("**Move %d** · %s %s to play: %s", eg.MoveCount()+1, stoneEmoji(c), c, commands.Mention(g.Player(engine.SideOf(c))))
}

// setupLine is how g is played, as the board's last line says it: the
// size, the rules and komi, the handicap, the time system, and "unrated"
// for a game that will change no rating (commands.ShownUnrated: started
// unrated, or counted in no rating pool of its server; a rated one says
// nothing, as most are).
func setupLine(g *storage.Game, unrated bool) string {
	eg := goOf(g)
	s := fmt.Sprintf("%d×%d · %s", eg.Size(), eg.Size(), eg.Rules())
	if h := eg.Handicap(); h > 0 {
		s += fmt.Sprintf(" · handicap %d", h)
	}
	if g.Clock != nil {
		s += " · " + g.Clock.Control.Describe()
	}
	if unrated {
		s += " · unrated"
	}
	return s
}

// archivedSetupLine is setupLine for arc, a finished game, read back as g:
// its clock and whether it was shown unrated come from the archive.
func archivedSetupLine(g *storage.Game, arc *storage.Archived) string {
	return setupLine(&storage.Game{State: g.State, Clock: arc.Clock}, commands.ArchivedShownUnrated(arc))
}

// resultSentence says who won and how, with the SGF-style result.
func resultSentence(g *storage.Game, r engine.Result) string {
	if r.Winner == engine.Empty {
		return "Jigo (a draw)"
	}
	who := stoneEmoji(r.Winner) + " " + teamMention(g, r.Winner) + " wins"
	if len(g.TeamOf(engine.SideOf(r.Winner))) > 1 {
		who = stoneEmoji(r.Winner) + " " + teamMention(g, r.Winner) + " win"
	}
	switch r.Reason {
	case engine.ByResignation:
		return fmt.Sprintf("%s by resignation · %s", who, r)
	case engine.ByTime:
		if commands.Annulled((*room)(nil), g) {
			return "annulled on time, not counted" // no score: it does not count
		}
		return fmt.Sprintf("%s on time · %s", who, r)
	case engine.ByForfeit:
		return fmt.Sprintf("%s by forfeit · %s", who, r)
	}
	points := "points"
	if r.Margin == 1 {
		points = "point"
	}
	return fmt.Sprintf("%s by %s %s · %s", who, engine.FormatKomi(r.Margin), points, r)
}

// title is the embed title: both players.
func title(g *storage.Game) string {
	return commands.Clip(fmt.Sprintf("⚫ %s vs ⚪ %s", commands.JoinNames(g.TeamOf(engine.SideOf(engine.Black)), commands.ShownName), commands.JoinNames(g.TeamOf(engine.SideOf(engine.White)), commands.ShownName)), 256)
}

// boardMessage is the message showing a game in play: the note (what just
// happened; in a vote game without one, the note its vote opened with),
// the picture, the status and the Pass / Resign / Undo buttons. The
// player to move is pinged when a human plays a human. unrated is
// commands.ShownUnrated for g.
func boardMessage(g *storage.Game, now time.Time, note string, unrated bool) (*commands.Message, error) {
	if note == "" && g.Vote != nil {
		note = g.Vote.Note
	}
	f, name, err := boardFile(g, view{})
	if err != nil {
		return nil, err
	}
	c := goOf(g).ToPlay()
	embed := &discordgo.MessageEmbed{
		Title:       title(g),
		Description: commands.Clip(strings.TrimSpace(note+"\n"+status(g, now, unrated)), 4096),
		Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
		Color:       commands.ColorBlack,
	}
	if c == engine.White {
		embed.Color = commands.ColorWhite
	}
	m := &commands.Message{Embeds: []*discordgo.MessageEmbed{embed}, Files: []commands.File{f}}
	if _, over := goOf(g).Result(); over {
		embed.Color = commands.ColorDone
		m.ClearComponents = true
		data, err := gameSGF(g, nil, false, commands.Annulled((*room)(nil), g))
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, sgfFile(g.ID, title(g), data))
		m.Components = commands.RematchRow(g)
		return m, nil
	}
	if p := g.Player(engine.SideOf(c)); !p.IsBot() && !p.IsCrowd() {
		ping(g, m, []storage.Player{p}, "your move.")
	}
	if isVoteGame(g) {
		if g.Vote != nil {
			m.Components = voteComponents(g)
		}
		return m, nil
	}
	n := strconv.Itoa(g.State.MoveCount())
	buttons := []discordgo.MessageComponent{discordgo.Button{Label: "Pass", Style: discordgo.SecondaryButton, CustomID: "game/" + g.ID + "/pass/" + n}}
	if undoOffered(g) && humanMoved(g) { // nothing to take back before a person's first move
		buttons = append(buttons, discordgo.Button{Label: "Undo", Style: discordgo.SecondaryButton, CustomID: "game/" + g.ID + "/undo/" + n})
	}
	buttons = append(buttons, discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: "game/" + g.ID + "/resign/" + n})
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
	return m, nil
}

// ping makes m's text ask ps, people, to act ("<@ann>, your move."),
// which notifies them (a mention in an embed does not). Against a bot the
// person is not pinged: they play it at one sitting, and the board they
// are looking at answers their own action. In a team game they always
// are.
func ping(g *storage.Game, m *commands.Message, ps []storage.Player, ask string) {
	if len(ps) == 0 || !g.Team() && (g.Player(engine.SideOf(engine.Black)).IsBot() || g.Player(engine.SideOf(engine.White)).IsBot()) {
		return
	}
	m.Content = commands.JoinAnd(ps, commands.Mention) + ", " + ask
}

// describeMove is the note for a move just played.
func describeMove(g *storage.Game, m engine.Move, captured, suicide int) string {
	if m.Kind == engine.Resign {
		// A resignation is no move of the record: the side resigned.
		return stoneEmoji(m.Color) + " " + teamMention(g, m.Color) + " resigned."
	}
	who := stoneEmoji(m.Color) + " " + commands.Mention(movedBy(g, g.State.MoveCount()-1))
	if m.Kind == engine.Pass {
		return who + " passed."
	}
	s := fmt.Sprintf("%s played **%s**.", who, m.Point)
	if suicide > 0 {
		// Only rules that allow suicide (Tromp-Taylor) get here.
		return s + fmt.Sprintf(" Suicide: the %s group it joined had no liberties left, and its %s came off the board.", strings.ToLower(colorName(m.Color)), commands.Plural(suicide, "stone"))
	}
	return s + aftermath(goOf(g), captured)
}

// aftermath is what a move's answer says after the move itself, eg being
// the game just after it: the stones it captured, and the ko it started
// (" 1 stone captured. Ko at D5: it cannot be retaken at once."), or "".
func aftermath(eg *engine.Game, captured int) string {
	s := ""
	if captured == 1 {
		s += " 1 stone captured."
	} else if captured > 1 {
		s += fmt.Sprintf(" %d stones captured.", captured)
	}
	if !eg.Over() {
		if k := eg.Board().Ko(eg.ToPlay()); k != engine.NoPoint {
			s += fmt.Sprintf(" Ko at %s: it cannot be retaken at once.", k)
		}
	}
	return s
}

// clockStatus is ClockStatus for a game of Go, which also says when its
// clocks stopped for the scoring phase.
func clockStatus(g *storage.Game, now time.Time) string {
	s := commands.ClockStatus(g, now, sideLabel)
	if s != "" && !g.Clock.Running() && g.Scoring != nil {
		s += " · stopped while the dead stones are agreed"
	}
	return s
}
