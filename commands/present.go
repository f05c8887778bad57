package commands

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/storage"
)

// Embed colours.
const (
	ColorBlack = 0x2b2d31
	ColorWhite = 0xf2f3f5
	ColorDone  = 0x57f287
	ColorScore = 0xfee75c
)

// Mention names a player in a message: a Discord mention for users, the
// level for bots.
func Mention(p storage.Player) string {
	if p.IsBot() {
		return "gobot (" + p.Level + ")"
	}
	if p.UserID != "" {
		return "<@" + p.UserID + ">"
	}
	return p.String()
}

func JoinNames(ps []storage.Player, name func(storage.Player) string) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = name(p)
	}
	return strings.Join(names, ", ")
}

// JoinAnd names players as a sentence lists them: "ann", "ann and bob",
// "ann, bob and cid".
func JoinAnd(ps []storage.Player, name func(storage.Player) string) string {
	if len(ps) < 2 {
		return JoinNames(ps, name)
	}
	return JoinNames(ps[:len(ps)-1], name) + " and " + name(ps[len(ps)-1])
}

// PlainName names a player without a mention (titles, alt text, SGF).
func PlainName(p storage.Player) string {
	if p.IsBot() {
		return "gobot " + p.Level
	}
	if p.Name != "" {
		return p.Name
	}
	return p.UserID
}

// ShownName is plainName for text Discord renders as markdown (message
// content, embed titles): a display name's markdown characters are
// escaped, so that "*star*" shows as typed rather than in italics.
func ShownName(p storage.Player) string { return markdownEscaper.Replace(PlainName(p)) }

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`, "#", `\#`, "[", `\[`, "]", `\]`)

// gameTitle is the embed title of g, of either kind.
func (a *App) gameTitle(g *storage.Game) string { return a.roomOf(g).Title(g) }

// HasButton reports whether m, a message as Discord gave it back, has a
// button with customID: the message a board page's request was posted
// as, found among those its action posted.
func HasButton(m *discordgo.Message, customID string) bool {
	for _, row := range m.Components {
		var comps []discordgo.MessageComponent
		switch ar := row.(type) {
		case discordgo.ActionsRow:
			comps = ar.Components
		case *discordgo.ActionsRow:
			comps = ar.Components
		}
		for _, c := range comps {
			switch b := c.(type) {
			case discordgo.Button:
				if b.CustomID == customID {
					return true
				}
			case *discordgo.Button:
				if b.CustomID == customID {
					return true
				}
			}
		}
	}
	return false
}

// WithSide is name with the side it plays in brackets: "@bob (black)",
// and "gobot (beginner, white)" for a name that ends in brackets of its
// own, where two pairs in a row would read badly.
func WithSide(name, side string) string {
	if strings.HasSuffix(name, ")") {
		return name[:len(name)-1] + ", " + side + ")"
	}
	return name + " (" + side + ")"
}

// StartsNew says how a new game starts where arc was played, with the
// slash command cmd: "`/go challenge` or `/go bot` starts a new one", or
// "`/go bot` starts a new one" after a game against a bot in a DM, which
// may be a DM with gobot, where nobody else can accept a challenge.
func StartsNew(arc *storage.Archived, cmd string) string {
	if arc.GuildID == "" && (arc.Black.IsBot() || arc.White.IsBot()) {
		return "`/" + cmd + " bot` starts a new one"
	}
	return "`/" + cmd + " challenge` or `/" + cmd + " bot` starts a new one"
}
