package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// doctor lists the game records the bot set aside as damaged, and exports
// one as SGF: `gobot doctor [--db FILE]`, `gobot doctor export N [--db FILE]`
// (the flag goes before or after the subcommand). Without --db it reads
// PostgreSQL when GOBOT_DATABASE_URL is set, else GOBOT_DB.
func doctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const synopsis = "gobot doctor [--db FILE]            list the game records set aside as damaged\n" +
		"       gobot doctor export N [--db FILE]   write record N as SGF, with the moves that still replay\n\n" +
		"reads PostgreSQL when GOBOT_DATABASE_URL is set, else GOBOT_DB"
	path, pos, err := parseDBFlags("doctor", synopsis, "database file (default: GOBOT_DB)", args, stderr)
	if err != nil {
		return err
	}
	arg := func(i int) string {
		if i < len(pos) {
			return pos[i]
		}
		return ""
	}
	qs, err := func() ([]storage.Quarantined, error) {
		if path == "" {
			cfg, err := config.LoadFor(config.Offline)
			if err != nil {
				return nil, err
			}
			if cfg.DatabaseURL != "" {
				path = "PostgreSQL (GOBOT_DATABASE_URL)"
				octx, cancel := context.WithTimeout(ctx, time.Minute)
				defer cancel()
				// As it is: a diagnostic creates no tables in a database
				// named by mistake and migrates none under the workers.
				p, err := storage.OpenPostgres(octx, cfg.DatabaseURL.Reveal(), storage.Options{Kinds: kinds(), ExistingSchema: true})
				if err != nil {
					err = fmt.Errorf("doctor: GOBOT_DATABASE_URL: %w", err)
					return nil, &redactedError{msg: cfg.Redact(err.Error()), err: err}
				}
				defer p.Close()
				return p.QuarantinedGames(ctx)
			}
			path = cfg.DBPath
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("doctor: no database at %s: %w", path, err)
		}
		s, err := storage.Open(path, storage.Options{Kinds: kinds(), Timeout: time.Second})
		if errors.Is(err, storage.ErrLocked) {
			return nil, fmt.Errorf("doctor: %s is in use by a running gobot: copy it with `gobot backup COPY` and run `gobot doctor --db COPY`", path)
		}
		if err != nil {
			return nil, err
		}
		defer s.Close()
		return s.QuarantinedGames(ctx)
	}()
	if err != nil {
		return err
	}
	switch arg(0) {
	case "":
		listQuarantined(stdout, path, qs)
		return nil
	case "export":
		n, err := strconv.Atoi(arg(1))
		if err != nil || n < 1 || n > len(qs) || len(pos) != 2 {
			return fmt.Errorf("doctor: export: no quarantined record %s (gobot doctor lists them, numbered from 1)", arg(1))
		}
		return exportQuarantined(stdout, qs[n-1])
	}
	return fmt.Errorf("doctor: unknown command %q (list with `gobot doctor`, export with `gobot doctor export N`)", arg(0))
}

func listQuarantined(w io.Writer, path string, qs []storage.Quarantined) {
	if len(qs) == 0 {
		fmt.Fprintf(w, "no quarantined game records in %s\n", path)
		return
	}
	fmt.Fprintf(w, "%d quarantined game records in %s (set aside because they could not be read; kept, never deleted):\n", len(qs), path)
	for i, q := range qs {
		fmt.Fprintf(w, "%3d  channel %s, set aside %s, %d bytes\n", i+1, q.ChannelID, q.At.Format(time.RFC3339), len(q.Record))
		if q.Problem != nil {
			fmt.Fprintf(w, "     problem: %v\n", q.Problem)
		}
		g, lost, err := q.Salvage()
		if err != nil {
			fmt.Fprintf(w, "     cannot be salvaged: %v\n", err)
			continue
		}
		n := g.State.MoveCount()
		fmt.Fprintf(w, "     game %s: %s (black) vs %s (white), %d of %d moves replay; `gobot doctor export %d > game.sgf` writes them as SGF\n",
			g.ID, g.First(engine.SideOf(engine.Black)), g.First(engine.SideOf(engine.White)), n, n+lost, i+1)
	}
}

func exportQuarantined(w io.Writer, q storage.Quarantined) error {
	g, lost, err := q.Salvage()
	if err != nil {
		return fmt.Errorf("doctor: export: the record of channel %s cannot be salvaged: %w", q.ChannelID, err)
	}
	info := engine.SGFInfo{
		PB: g.First(engine.SideOf(engine.Black)).String(), PW: g.First(engine.SideOf(engine.White)).String(), DT: g.CreatedAt.UTC().Format("2006-01-02"),
		GN: g.First(engine.SideOf(engine.Black)).String() + " vs " + g.First(engine.SideOf(engine.White)).String(), PC: "Discord (gobot)",
		C: fmt.Sprintf("Salvaged by gobot doctor from a damaged record (channel %s, set aside %s): the first %d moves, which replay; %d moves after them were left out.",
			q.ChannelID, q.At.Format(time.RFC3339), g.State.MoveCount(), lost),
	}
	if len(g.Ranks) == len(g.Sides) {
		// The ranks as the game began, as its own record names them.
		info.BlackRank, info.WhiteRank = g.Ranks[engine.SideOf(engine.Black)], g.Ranks[engine.SideOf(engine.White)]
	}
	return engine.WriteSGF(w, goOf(g), info)
}
