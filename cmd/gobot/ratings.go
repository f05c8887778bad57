package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/storage"
)

// ratings runs `gobot ratings rebuild`: every rating recomputed from the
// archive of the database (--db FILE, or as configured: GOBOT_DATABASE_URL,
// else GOBOT_DB), in the order the games were rated, with the bot levels'
// start ratings the bot rates with (startRatings), replacing the stored
// ratings and history in one transaction. On a bbolt file the bot must not
// be running (bbolt lets one process open the file).
func ratings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const synopsis = "gobot ratings rebuild [--db FILE]\n\nrecomputes every rating from the archive (GOBOT_DATABASE_URL, else GOBOT_DB; stop the bot first on bbolt)"
	db, pos, err := parseDBFlags("ratings", synopsis, "database file (default: GOBOT_DB, or gobot.db)", args, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "rebuild" {
		return &usageError{err: errors.New("usage: gobot ratings rebuild [--db FILE]")}
	}
	type rebuilder interface {
		RebuildRatings(ctx context.Context) (*storage.RebuildReport, error)
		Close() error
	}
	var store rebuilder
	// A database that is not there is a wrong path: storage.Open would
	// make a new, empty one and report nothing rebuilt.
	exists := func(path string) error {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("ratings: no database at %s: %w", path, err)
		}
		return nil
	}
	if db != "" {
		if err := exists(db); err != nil {
			return err
		}
		s, err := storage.Open(db, storage.Options{Kinds: kinds(), StartRatings: startRatings()})
		if err != nil {
			return err
		}
		store = s
	} else {
		cfg, err := config.LoadFor(config.Offline)
		if err != nil {
			return err
		}
		if cfg.DatabaseURL != "" {
			octx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			// As it is: no tables created in a database named by
			// mistake, no migration under the running workers.
			s, err := storage.OpenPostgres(octx, cfg.DatabaseURL.Reveal(), storage.Options{Kinds: kinds(), StartRatings: startRatings(), ExistingSchema: true})
			if err != nil {
				err = fmt.Errorf("ratings: GOBOT_DATABASE_URL: %w", err)
				return &redactedError{msg: cfg.Redact(err.Error()), err: err}
			}
			store = s
		} else {
			if err := exists(cfg.DBPath); err != nil {
				return err
			}
			s, err := storage.Open(cfg.DBPath, storage.Options{Kinds: kinds(), StartRatings: startRatings()})
			if err != nil {
				return err
			}
			store = s
		}
	}
	rep, err := store.RebuildRatings(ctx)
	if cerr := store.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rebuilt %d ratings from %d rated games: %d differed from the stored values, %d were missing or extra\n",
		rep.Ratings, rep.Games, rep.Changed, rep.Missing)
	return nil
}

// parseDBFlags parses the arguments of a subcommand whose one flag is
// --db FILE (described by usage, errors to stderr) with parseFlags: it
// returns the file ("" when not given) and the positional arguments.
func parseDBFlags(name, synopsis, usage string, args []string, stderr io.Writer) (db string, pos []string, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&db, "db", "", usage)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n", synopsis)
		fs.PrintDefaults()
	}
	pos, err = parseFlags(fs, args)
	return db, pos, err
}

// parseFlags parses args with fs, taking flags before, between and after
// the positional arguments (`gobot ratings rebuild --db FILE` as well as
// `gobot ratings --db FILE rebuild`); "--" ends the flags. It returns the
// positional arguments in order.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
