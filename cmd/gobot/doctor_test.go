package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
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
