package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestHelp: --help, -h and help print the usage and exit 0, without
// starting the bot (which would fail here: no token).
func TestHelp(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	for _, arg := range []string{"--help", "-h", "-help", "help"} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{arg}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage:") {
			t.Errorf("gobot %s: exit %d, stdout %q, stderr %q; want 0 and the usage", arg, code, out.String(), errOut.String())
		}
	}
}

// TestRatingsRebuild: `gobot ratings rebuild` recomputes the ratings of a
// database and finds them equal to the stored ones.
func TestRatingsRebuild(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	store, err := storage.Open(db, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, result := range []string{"B+R", "W+3.5", "B+0.5", "0"} {
		eg, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{ChannelID: "c", GuildID: "G", Sides: storage.Sides(storage.Player{UserID: "1"}, storage.Player{UserID: "2"}), State: engine.Own(eg)}
		if err := store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		a := storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[9])"), Moves: 40, Rated: true, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
		if err := store.FinishGame(ctx, g, a); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := store.Rating(ctx, storage.GlobalPool, "1")
	store.Close()
	// The flag goes before the subcommand or after it, as README writes it.
	for _, args := range [][]string{{"ratings", "--db", db, "rebuild"}, {"ratings", "rebuild", "--db", db}, {"ratings", "rebuild", "--db=" + db}} {
		var out, errOut bytes.Buffer
		if code := run(ctx, args, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("gobot %s: exit %d, %s", strings.Join(args, " "), code, errOut.String())
		}
		if want := "rebuilt 4 ratings from 4 rated games: 0 differed from the stored values, 0 were missing or extra\n"; out.String() != want {
			t.Errorf("gobot %s: output %q, want %q", strings.Join(args, " "), out.String(), want)
		}
	}
	var out, errOut bytes.Buffer
	store, err = storage.Open(db, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	after, _ := store.Rating(ctx, storage.GlobalPool, "1")
	if *after != *before {
		t.Errorf("rating after the rebuild %+v, before %+v", after, before)
	}
	if code := run(ctx, []string{"ratings", "redo"}, strings.NewReader(""), &out, &errOut); code != 2 {
		t.Errorf("gobot ratings redo: exit %d, want 2 (a usage error)", code)
	}
	// A wrong path is refused, not made into a new empty database.
	typo := filepath.Join(t.TempDir(), "typo.db")
	errOut.Reset()
	if code := run(ctx, []string{"ratings", "rebuild", "--db", typo}, strings.NewReader(""), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "ratings: no database at "+typo) {
		t.Errorf("gobot ratings rebuild --db %s: exit %d, %q; want the missing database named", typo, code, errOut.String())
	}
	if _, err := os.Stat(typo); err == nil {
		t.Errorf("gobot ratings rebuild made %s", typo)
	}
}

// TestParseFlags: flags before, between and after the positional
// arguments; "--" ends them.
func TestParseFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		db   string
		pos  []string
	}{
		{[]string{"export", "1", "--db", "x.db"}, "x.db", []string{"export", "1"}},
		{[]string{"--db=x.db", "export", "1"}, "x.db", []string{"export", "1"}},
		{[]string{"export", "-db", "x.db", "1"}, "x.db", []string{"export", "1"}},
		{[]string{"export", "--", "--db", "x.db"}, "", []string{"export", "--db", "x.db"}},
		{nil, "", nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		db := fs.String("db", "", "")
		pos, err := parseFlags(fs, c.args)
		if err != nil || *db != c.db || !slices.Equal(pos, c.pos) {
			t.Errorf("parseFlags(%q) = %q, --db %q, %v; want %q, --db %q", c.args, pos, *db, err, c.pos, c.db)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseFlags(fs, []string{"export", "--nope"}); err == nil {
		t.Errorf("parseFlags accepts an unknown flag after the arguments")
	}
}
