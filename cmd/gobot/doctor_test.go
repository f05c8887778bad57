package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// quarantinedDB writes a database with two quarantined records, one
// salvageable (a move on an occupied point) and one not (half its JSON).
func quarantinedDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gobot.db")
	s, err := storage.Open(path, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"111", "222"} {
		eg, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"E5", "D4", "C3", "F6"} {
			p, _ := engine.ParsePoint(m, 9)
			if err := eg.Play(engine.PlaceAt(eg.ToPlay(), p)); err != nil {
				t.Fatal(err)
			}
		}
		g := &storage.Game{ChannelID: ch, Sides: storage.Sides(storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}), State: engine.Own(eg), Ranks: []string{"3k", "1d"}}
		if err := s.CreateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		v := b.Get([]byte("111"))
		b.Put([]byte("111"), bytes.Replace(bytes.Clone(v), []byte(`"B C3"`), []byte(`"B E5"`), 1))
		v = bytes.Clone(b.Get([]byte("222")))
		return b.Put([]byte("222"), v[:len(v)/2])
	})
	db.Close()
	s, err = storage.Open(path, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"111", "222"} {
		if err := s.QuarantineGame(context.Background(), ch); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	return path
}

func TestDoctor(t *testing.T) {
	path := quarantinedDB(t)
	doctor := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"doctor", "--db", path}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, out, errOut := doctor()
	if code != 0 {
		t.Fatalf("gobot doctor = %d, %s", code, errOut)
	}
	for _, want := range []string{"2 quarantined game records", "1  channel 111", "ann (black) vs bob (white)", "2 of 4 moves replay", "2  channel 222", "cannot be salvaged", "gobot doctor export"} {
		if !strings.Contains(out, want) {
			t.Errorf("gobot doctor output lacks %q:\n%s", want, out)
		}
	}
	code, sgf, errOut := doctor("export", "1")
	if code != 0 {
		t.Fatalf("gobot doctor export 1 = %d, %s", code, errOut)
	}
	g, info, err := engine.ParseSGF([]byte(sgf))
	if err != nil {
		t.Fatalf("exported SGF does not parse: %v\n%s", err, sgf)
	}
	if g.MoveCount() != 2 || info.PB != "ann" || info.PW != "bob" || !strings.Contains(info.C, "2 moves") {
		t.Errorf("exported SGF = %d moves, PB %q, PW %q, C %q; want the 2 moves that replay, the players and a comment on the 2 left out", g.MoveCount(), info.PB, info.PW, info.C)
	}
	// The ranks the game began with, as its record would have named them.
	if info.BlackRank != "3k" || info.WhiteRank != "1d" {
		t.Errorf("exported SGF has BR %q, WR %q; want 3k and 1d, the game's ranks", info.BlackRank, info.WhiteRank)
	}
	// The flag also goes after the subcommand and its argument.
	var after, afterErr bytes.Buffer
	if code := run(context.Background(), []string{"doctor", "export", "1", "--db", path}, strings.NewReader(""), &after, &afterErr); code != 0 || after.String() != sgf {
		t.Errorf("gobot doctor export 1 --db FILE = %d, %q, stderr %q; want the same SGF as with --db first", code, after.String(), afterErr.String())
	}
	if code, _, errOut := doctor("export", "2"); code == 0 || !strings.Contains(errOut, "cannot be salvaged") {
		t.Errorf("gobot doctor export 2 (half a record) = %d, %q; want a refusal saying it cannot be salvaged", code, errOut)
	}
	if code, _, errOut := doctor("export", "3"); code == 0 || !strings.Contains(errOut, "no quarantined record 3") {
		t.Errorf("gobot doctor export 3 = %d, %q", code, errOut)
	}
	var stdout, stderr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "none.db")
	if code := run(context.Background(), []string{"doctor", "--db", missing}, strings.NewReader(""), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "no database") {
		t.Errorf("gobot doctor on a missing file = %d, %q", code, stderr.String())
	}
}

// TestDoctorPostgres: with GOBOT_DATABASE_URL set and no --db, doctor
// lists PostgreSQL's quarantine (here the records migrate-db copied).
func TestDoctorPostgres(t *testing.T) {
	path, url := quarantinedDB(t), pgtest.Database(t)
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"migrate-db", "--to", url, "--db", path}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("gobot migrate-db = %d, %s", code, errOut.String())
	}
	t.Setenv("GOBOT_DATABASE_URL", url)
	t.Setenv("GOBOT_DB", filepath.Join(t.TempDir(), "none.db"))
	out.Reset()
	errOut.Reset()
	if code := run(context.Background(), []string{"doctor"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("gobot doctor on PostgreSQL = %d, %s", code, errOut.String())
	}
	for _, want := range []string{"2 quarantined game records in PostgreSQL (GOBOT_DATABASE_URL)", "1  channel 111", "2 of 4 moves replay", "2  channel 222"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("gobot doctor output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDoctorPostgresAsItIs: gobot doctor and gobot ratings rebuild open
// PostgreSQL without migrating it: a database with no gobot schema (a typo
// in its name) is refused and left without tables, and one with an older
// schema than the tool's build is refused rather than migrated under the
// running workers.
func TestDoctorPostgresAsItIs(t *testing.T) {
	url := pgtest.Database(t)
	t.Setenv("GOBOT_DATABASE_URL", url)
	t.Setenv("GOBOT_DB", filepath.Join(t.TempDir(), "none.db"))
	tool := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
		return code, errOut.String()
	}
	const none = "the PostgreSQL database has no gobot tables: it is not gobot's database, or no gobot worker has started on it yet\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"doctor"}, "gobot: doctor: GOBOT_DATABASE_URL: storage: " + none},
		{[]string{"ratings", "rebuild"}, "gobot: ratings: GOBOT_DATABASE_URL: storage: " + none},
	} {
		if code, errOut := tool(c.args...); code != 1 || errOut != c.want {
			t.Errorf("gobot %s on an empty database = %d, %q; want 1, %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var tables int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("the refused tools left %d tables (%v)", tables, err)
	}
	// An older schema: the newest migration not applied.
	p, err := storage.OpenPostgres(ctx, url, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	v := storage.PostgresSchemaVersion()
	if _, err := conn.Exec(ctx, `DELETE FROM gobot_schema WHERE version = $1`, v); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("gobot: doctor: GOBOT_DATABASE_URL: storage: PostgreSQL schema %d, this build expects %d: the workers of this build migrate it when they start; use the build the workers run\n", v-1, v)
	if code, errOut := tool("doctor"); code != 1 || errOut != want {
		t.Errorf("gobot doctor on an older schema = %d, %q; want 1, %q", code, errOut, want)
	}
	var have int
	if err := conn.QueryRow(ctx, `SELECT max(version) FROM gobot_schema`).Scan(&have); err != nil || have != v-1 {
		t.Errorf("after gobot doctor the schema is %d (%v), want %d as it was", have, err, v-1)
	}
}
