package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/gobot-dev/gobot/internal/redact"
	"github.com/gobot-dev/gobot/storage"
)

// migrateDB copies the bbolt database into PostgreSQL: gobot migrate-db
// --to postgres://… [--db FILE]. It is safe to run again, after a failure
// or a success: it copies what is missing and verifies the counts.
func migrateDB(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("migrate-db", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The flag's default is not the URL itself: -help prints defaults, and
	// the URL holds the password.
	to := fs.String("to", "", "PostgreSQL URL to copy into (default GOBOT_DATABASE_URL)")
	// The default is given in words, and the flag's own default left
	// empty: -help would print both.
	db := fs.String("db", "", "bbolt database file to copy (default GOBOT_DB or gobot.db)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if *db == "" {
		*db = os.Getenv("GOBOT_DB")
	}
	if *db == "" {
		*db = "gobot.db"
	}
	source := "--to"
	if *to == "" {
		*to, source = os.Getenv("GOBOT_DATABASE_URL"), "GOBOT_DATABASE_URL"
	}
	if fs.NArg() != 0 || *to == "" {
		return errors.New("usage: gobot migrate-db --to postgres://user:password@host:5432/gobot [--db FILE] (without --to, GOBOT_DATABASE_URL gives the address)")
	}
	defer func() {
		// Neither pgx nor the store prints the password, but an error
		// must not be the first to. The store and os quote the path,
		// which may be a secret pasted into GOBOT_DB.
		err = hideValues(err, *db)
		if err != nil {
			if u, perr := url.Parse(*to); perr == nil && u.User != nil {
				if p, ok := u.User.Password(); ok && p != "" {
					err = &redactedError{msg: redact.Text(err.Error(), []string{p}), err: err}
				}
			}
		}
	}()
	if err := storage.CheckPostgresURL(*to); err != nil {
		return fmt.Errorf("migrate-db: %s: %w", source, err) // quotes no part of it
	}
	if _, err := os.Stat(*db); err != nil {
		return fmt.Errorf("migrate-db: the bbolt database %s: %w", *db, err)
	}
	src, err := storage.Open(*db, storage.Options{Kinds: kinds()})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("migrate-db: %w (stop the bot that uses it first)", err)
	}
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	defer src.Close()
	octx, cancel := context.WithTimeout(ctx, time.Minute)
	dst, err := storage.OpenPostgres(octx, *to, storage.Options{Kinds: kinds()})
	cancel()
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", source, err)
	}
	defer dst.Close()
	counts, err := storage.CopyToPostgres(ctx, src, dst)
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	fmt.Fprintf(stdout, "Copied %s into PostgreSQL and verified it:\n", *db)
	for _, c := range counts {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	fmt.Fprintln(stdout, "Start gobot with GOBOT_DATABASE_URL set to use it; the bbolt file is left as it was.")
	return nil
}
