package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

func TestMigrateDB(t *testing.T) {
	url := pgtest.Database(t)
	path := filepath.Join(t.TempDir(), "gobot.db")
	s, err := storage.Open(path, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	eg, _ := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err := s.CreateGame(context.Background(), &storage.Game{ChannelID: "5", Sides: storage.Sides(storage.Player{UserID: "1"}, storage.Player{Level: "easy"}), State: engine.Own(eg)}); err != nil {
		t.Fatal(err)
	}
	// A server's settings and their log entry go along.
	if err := s.PutSettings(context.Background(), &storage.Settings{GuildID: "G", Size: 9}, storage.AuditEntry{GuildID: "G", Action: storage.AuditSettings, Target: "size"}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	for i, want := range []string{"games: 1 in bbolt, 1 in PostgreSQL (1 copied now)", "games: 1 in bbolt, 1 in PostgreSQL (0 copied now)"} {
		var stdout, stderr logtest.Buffer
		if code := run(context.Background(), []string{"migrate-db", "--to", url, "--db", path}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("run %d printed:\n%s\nwant a line %q", i+1, stdout.String(), want)
		}
	}
	p, err := storage.OpenPostgres(context.Background(), url, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if g, err := p.Game(context.Background(), "5"); err != nil || g.First(engine.SideOf(engine.White)).Level != "easy" {
		t.Errorf("migrated game = %+v, %v", g, err)
	}
	if st, err := p.Settings(context.Background(), "G"); err != nil || st.Size != 9 {
		t.Errorf("migrated settings = %+v, %v", st, err)
	}
	if log, _, err := p.AuditLog(context.Background(), "G", 0, 10); err != nil || len(log) != 1 || log[0].Target != "size" {
		t.Errorf("migrated log = %+v, %v", log, err)
	}

	var stdout, stderr logtest.Buffer
	bad := "postgres://gobot:sw0rdfish@127.0.0.1:1/gobot?connect_timeout=2"
	if code := run(context.Background(), []string{"migrate-db", "--to", bad, "--db", path}, nil, &stdout, &stderr); code == 0 || strings.Contains(stderr.String(), "sw0rdfish") {
		t.Errorf("migrate-db to an unreachable server: exit %d, stderr %q (must fail without the password)", code, stderr.String())
	}
	// Its usage (printed by -help and by any bad flag) shows no default
	// taken from GOBOT_DATABASE_URL: the URL holds the password.
	t.Setenv("GOBOT_DATABASE_URL", bad)
	for _, args := range [][]string{{"migrate-db", "--help"}, {"migrate-db", "--bogus"}} {
		var out, errOut logtest.Buffer
		run(context.Background(), args, nil, &out, &errOut)
		if strings.Contains(out.String()+errOut.String(), "sw0rdfish") || !strings.Contains(errOut.String(), "default GOBOT_DATABASE_URL") {
			t.Errorf("gobot %v printed %q %q: want the usage, without the password", args, out.String(), errOut.String())
		}
	}
	// Without --to nor GOBOT_DATABASE_URL, the line says both ways.
	t.Setenv("GOBOT_DATABASE_URL", "")
	var out, errOut logtest.Buffer
	const want = "gobot: usage: gobot migrate-db --to postgres://user:password@host:5432/gobot [--db FILE] (without --to, GOBOT_DATABASE_URL gives the address)\n"
	if code := run(context.Background(), []string{"migrate-db", "--db", path}, nil, &out, &errOut); code == 0 || errOut.String() != want {
		t.Errorf("migrate-db without an address = %d, %q; want %q", code, errOut.String(), want)
	}
}
