package goroom

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// finishedBoardMessage shows a finished game from its record: the final
// position (for a counted game, with the dead stones the players agreed
// on and who owns each point), the result, and the record attached.
func finishedBoardMessage(arc *storage.Archived) (*commands.Message, error) {
	eg, info, err := engine.ParseSGF(arc.SGF)
	if err != nil {
		return nil, fmt.Errorf("goroom: record of game %s: %w", arc.ID, err)
	}
	g := &storage.Game{ID: arc.ID, ChannelID: arc.ChannelID, GuildID: arc.GuildID, Sides: arc.GoSides(), State: engine.Own(eg)}
	res, rerr := engine.ParseResult(arc.Result)
	result := "no result · " + arc.Result
	switch {
	case arc.Result == "Void" && arc.AnnulledInPlay:
		result = "annulled by an admin, not counted · Void"
	case arc.Result == "Void" && arc.Annulled:
		result = "aborted, not counted · Void"
	}
	if rerr == nil {
		if err := eg.End(res); err != nil {
			return nil, fmt.Errorf("goroom: result of game %s: %w", arc.ID, err)
		}
		result = resultSentence(g, res)
		if arc.Annulled && !commands.Annulled((*room)(nil), g) {
			result = "annulled, not counted · " + arc.Result // annulled by an admin after it ended
		}
	}
	var v view
	if rerr == nil && res.Reason == engine.ByScore && eg.PlayEnded() {
		v = view{dead: info.Dead, owner: eg.Score(info.Dead).Owner}
	}
	v.annulled = rerr == nil && arc.Annulled && !commands.Annulled((*room)(nil), g)
	f, name, err := boardFile(g, v)
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "**Game over: %s**\n", result)
	if m, ok := eg.LastMove(); ok {
		fmt.Fprintf(&sb, "Last move: %s %s · ", stoneEmoji(m.Color), m)
	}
	fmt.Fprintf(&sb, "Captures: ⚫ %d · ⚪ %d\n", eg.Captures(engine.Black), eg.Captures(engine.White))
	if cs := commands.FinalClockStatus(arc.Clock, sideLabel); cs != "" {
		sb.WriteString(cs + "\n")
	}
	sb.WriteString("-# " + archivedSetupLine(g, arc))
	note := fmt.Sprintf("The last game of Go in this channel ended <t:%d:R> after %s; %s.", arc.FinishedAt.Unix(), commands.Plural(arc.Moves, "move"), commands.StartsNew(arc, "go"))
	return &commands.Message{
		Embeds: []*discordgo.MessageEmbed{{
			Title:       title(g),
			Description: commands.Clip(note+"\n"+sb.String(), 4096),
			Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
			Color:       commands.ColorDone,
		}},
		Files:           []commands.File{f, sgfFile(arc.ID, title(g), arc.SGF)},
		AllowedMentions: commands.NoMentions(),
	}, nil
}

// goArchivedGIF animates a finished game of Go from its record, ending on the
// count when it was scored.
func goArchivedGIF(a *storage.Archived) (commands.File, error) {
	eg, info, err := engine.ParseSGF(a.SGF)
	if err != nil {
		return commands.File{}, fmt.Errorf("goroom: record of game %s: %w", a.ID, err)
	}
	opts := render.GIFOptions{Size: 480}
	if info.Dead != nil {
		opts.Dead, opts.Owner = info.Dead, eg.Score(info.Dead).Owner
	}
	var buf bytes.Buffer
	if err := render.GIF(&buf, eg, opts); err != nil {
		return commands.File{}, fmt.Errorf("goroom: animate game %s: %w", a.ID, err)
	}
	return commands.File{Name: "gobot-" + a.ID + ".gif", ContentType: "image/gif",
		Description: commands.Clip("Animated replay: "+commands.ArchivedTitle(a)+", "+a.Result, 1024), Data: buf.Bytes()}, nil
}

// sgfFile is the attachment of a game's record.
func sgfFile(id, what string, data []byte) commands.File {
	return commands.File{Name: "gobot-" + id + ".sgf", ContentType: "application/x-go-sgf", Description: commands.Clip("SGF record: "+what, 1024), Data: data}
}
