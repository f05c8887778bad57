package goroom

import (
	"bytes"
	"fmt"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// goArchivedGIF animates a finished game of Go from its record, ending on the
// count when it was scored.
func goArchivedGIF(a *storage.Archived) (commands.File, error) {
	eg, info, err := engine.ParseSGF(a.SGF)
	if err != nil {
		return commands.File{}, fmt.Errorf("commands: record of game %s: %w", a.ID, err)
	}
	opts := render.GIFOptions{Size: 480}
	if info.Dead != nil {
		opts.Dead, opts.Owner = info.Dead, eg.Score(info.Dead).Owner
	}
	var buf bytes.Buffer
	if err := render.GIF(&buf, eg, opts); err != nil {
		return commands.File{}, fmt.Errorf("commands: animate game %s: %w", a.ID, err)
	}
	return commands.File{Name: "gobot-" + a.ID + ".gif", ContentType: "image/gif",
		Description: commands.Clip("Animated replay: "+commands.ArchivedTitle(a)+", "+a.Result, 1024), Data: buf.Bytes()}, nil
}

// sgfFile is the attachment of a game's record.
func sgfFile(id, what string, data []byte) commands.File {
	return commands.File{Name: "gobot-" + id + ".sgf", ContentType: "application/x-go-sgf", Description: commands.Clip("SGF record: "+what, 1024), Data: data}
}
