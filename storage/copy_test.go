package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage/pgtest"
	bolt "go.etcd.io/bbolt"
)

// TestCopyToPostgres fills a bbolt store with one of everything, copies it
// into PostgreSQL, and reads it back through the PostgreSQL store; a copy
// that fails leaves nothing behind, and running it again copies only what
// is missing.
func TestCopyToPostgres(t *testing.T) {
	url := pgtest.Database(t)
	clock := clocktest.New(t0)
	src := openClocked(t, filepath.Join(t.TempDir(), "src.db"), clock)

	h := newGame(t, "human", "1", "2")
	if err := src.CreateGame(ctx, h); err != nil {
		t.Fatal(err)
	}
	play(t, goOf(h), "D4", "E5")
	if err := src.UpdateGame(ctx, h); err != nil {
		t.Fatal(err)
	}
	botGame(t, src, "bot")
	ch := &Challenge{ChannelID: "c", Challenger: human("1"), Opponent: human("3"), Size: 9, ExpiresAt: t0.Add(time.Hour)}
	if err := src.CreateChallenge(ctx, ch); err != nil {
		t.Fatal(err)
	}
	var finished []string
	for i := range 3 {
		clock.Advance(time.Minute)
		g := newGame(t, fmt.Sprintf("f%d", i), "1", "3")
		if err := src.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := src.FinishGame(ctx, g, Archived{Result: "B+R", SGF: []byte(fmt.Sprintf("(;GM[1]C[%d])", i)), Moves: 40, Rated: true}); err != nil {
			t.Fatal(err)
		}
		finished = append(finished, g.ID)
	}
	if err := src.PutGameReview(ctx, finished[0], []byte(`{"review":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := src.PutVacation(ctx, "1", Vacation{Year: 2026, Used: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if err := src.Heartbeat(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	// A server's administration: settings, a ban, the log of both.
	admin := Player{UserID: "9", Name: "admin"}
	if err := src.PutSettings(ctx, &Settings{GuildID: "guild1", MaxGames: 2}, AuditEntry{GuildID: "guild1", By: admin, Action: AuditSettings, Target: "max_games", Before: "no limit", After: "2"}); err != nil {
		t.Fatal(err)
	}
	if err := src.PutBan(ctx, Ban{GuildID: "guild1", User: Player{UserID: "5"}, Reason: "spam", By: admin}, nil, AuditEntry{GuildID: "guild1", By: admin, Action: AuditBan, Target: "5", Reason: "spam"}); err != nil {
		t.Fatal(err)
	}
	// A damaged record goes to PostgreSQL's quarantine.
	if err := src.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketGames).Put([]byte("broken"), []byte(`{"id":`)) }); err != nil {
		t.Fatal(err)
	}

	dst, err := OpenPostgres(ctx, url, Options{Kinds: testKinds, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()

	// A failing copy (here, a table missing) keeps nothing.
	if _, err := dst.pool.Exec(ctx, `ALTER TABLE vacations RENAME TO vacations_away`); err != nil {
		t.Fatal(err)
	}
	if _, err := CopyToPostgres(ctx, src, dst); err == nil {
		t.Fatal("CopyToPostgres without the vacations table succeeded")
	}
	if all, err := dst.ActiveGames(ctx); err != nil || len(all) != 0 {
		t.Fatalf("after a failed copy PostgreSQL has %d games (%v), want none", len(all), err)
	}
	if _, err := dst.pool.Exec(ctx, `ALTER TABLE vacations_away RENAME TO vacations`); err != nil {
		t.Fatal(err)
	}

	counts, err := CopyToPostgres(ctx, src, dst)
	if err != nil {
		t.Fatalf("CopyToPostgres = %v", err)
	}
	want := map[string][4]int{ // source, present, copied, skipped
		"games": {3, 2, 2, 1}, "challenges": {1, 1, 1, 0}, "archived games": {3, 3, 3, 0}, "player statistics": {2, 2, 2, 0},
		"owed bot moves": {1, 1, 1, 0}, "vacations": {1, 1, 1, 0}, "quarantined records": {0, 0, 0, 0},
		"ratings":         {4, 4, 4, 0}, // 1 and 3, globally and on guild1
		"server settings": {1, 1, 1, 0}, "bans": {1, 1, 1, 0}, "audit log entries": {2, 2, 2, 0},
	}
	check := func(counts []CopyCount, copied bool) {
		t.Helper()
		if len(counts) != len(want) {
			t.Errorf("counts %v, want %d kinds", counts, len(want))
		}
		for _, c := range counts {
			w := want[c.Kind]
			if !copied {
				w[2] = 0
			}
			if got := [4]int{c.Source, c.Present, c.Copied, c.Skipped}; got != w {
				t.Errorf("%s: %v, want %v", c, got, w)
			}
		}
	}
	check(counts, true)

	g, err := dst.Game(ctx, "human")
	if err != nil || g.ID != h.ID || g.Version != h.Version || len(goOf(g).Moves()) != 2 {
		t.Errorf("copied game = %+v, %v", g, err)
	}
	if q, _ := dst.BotQueue(ctx); len(q) != 1 || q[0].ChannelID != "bot" {
		t.Errorf("copied bot queue = %+v", q)
	}
	if c, err := dst.Challenge(ctx, ch.ID); err != nil || c.Opponent.Key() != "3" {
		t.Errorf("copied challenge = %+v, %v", c, err)
	}
	hist, err := dst.PlayerGames(ctx, "3", 0)
	if err != nil || len(hist) != 3 || hist[0].ID != finished[2] {
		t.Errorf("copied history of 3 = %d games, %v", len(hist), err)
	}
	if a, err := dst.ArchivedGame(ctx, finished[1]); err != nil || string(a.SGF) != "(;GM[1]C[1])" {
		t.Errorf("copied SGF = %v, %v", a, err)
	}
	if r, err := dst.GameReview(ctx, finished[0]); err != nil || string(r) != `{"review":1}` {
		t.Errorf("copied review = %q, %v", r, err)
	}
	want1, _ := src.PlayerStats(ctx, "1")
	if st, err := dst.PlayerStats(ctx, "1"); err != nil || st.Games != want1.Games || st.Wins != want1.Wins || !st.Last.Equal(want1.Last) {
		t.Errorf("copied stats = %+v, %v; want %+v", st, err, want1)
	}
	for _, pool := range []string{GlobalPool, GuildPool("guild1")} {
		want, _ := src.Rating(ctx, pool, "3")
		if got, err := dst.Rating(ctx, pool, "3"); err != nil || *got != *want {
			t.Errorf("copied rating of 3 in %s = %+v, %v; want %+v", pool, got, err, want)
		}
	}
	if h, err := dst.RatingHistory(ctx, "1"); err != nil || len(h) != 6 {
		t.Errorf("copied rating history of 1: %d changes, %v; want 6", len(h), err)
	}
	if v, err := dst.Vacation(ctx, "1"); err != nil || v.Used != time.Hour {
		t.Errorf("copied vacation = %+v, %v", v, err)
	}
	if hb, _ := dst.LastHeartbeat(ctx); !hb.Equal(clock.Now()) {
		t.Errorf("copied heartbeat = %v, want %v", hb, clock.Now())
	}
	var quarantined int
	dst.pool.QueryRow(ctx, `SELECT count(*) FROM quarantine WHERE channel_id = 'broken'`).Scan(&quarantined)
	if quarantined != 1 {
		t.Errorf("%d quarantined copies of the damaged game, want 1", quarantined)
	}

	// Again: nothing new is copied, everything is verified, nothing doubles.
	counts, err = CopyToPostgres(context.Background(), src, dst)
	if err != nil {
		t.Fatalf("second CopyToPostgres = %v", err)
	}
	check(counts, false)
	if hist, _ := dst.PlayerGames(ctx, "1", 0); len(hist) != 3 {
		t.Errorf("after a second copy player 1 has %d finished games, want 3", len(hist))
	}
	if st, _ := dst.PlayerStats(ctx, "1"); st.Games != 3 {
		t.Errorf("after a second copy player 1's stats count %d games, want 3", st.Games)
	}
	// PostgreSQL goes on rating after the copied games: a rebuild there
	// reproduces the copied ratings.
	if rep, err := dst.RebuildRatings(ctx); err != nil || rep.Games != 3 || rep.Changed != 0 || rep.Missing != 0 {
		t.Errorf("RebuildRatings on the copy = %+v, %v; want 3 games, nothing changed", rep, err)
	}
	if st, err := dst.Settings(ctx, "guild1"); err != nil || st.MaxGames != 2 || st.Version != 1 {
		t.Errorf("copied settings = %+v, %v", st, err)
	}
	if b, err := dst.Ban(ctx, "guild1", "5"); err != nil || !b.Active(clock.Now()) {
		t.Errorf("copied ban = %+v, %v", b, err)
	}
	// The log goes on after the copied entries.
	if err := dst.AppendAudit(ctx, AuditEntry{GuildID: "guild1", By: admin, Action: AuditAbort, Target: "x"}); err != nil {
		t.Fatal(err)
	}
	if log, total, err := dst.AuditLog(ctx, "guild1", 0, 10); err != nil || total != 3 || log[0].Seq != 3 || log[2].After != "2" {
		t.Errorf("copied audit log = %+v, %d, %v; want the 2 entries copied and a third after them", log, total, err)
	}
	// The damaged record was for this test only: set it aside for the
	// source store's closing Check.
	if err := src.QuarantineGame(ctx, "broken"); err != nil {
		t.Fatal(err)
	}
}
