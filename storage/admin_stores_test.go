package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
)

// adminStore is what these tests need of a store: the conformance suite's
// and the administration's methods.
type adminStore interface {
	storetest.Store
	Settings(ctx context.Context, guildID string) (*storage.Settings, error)
	PutSettings(ctx context.Context, st *storage.Settings, e storage.AuditEntry) error
	Ban(ctx context.Context, guildID, userID string) (*storage.Ban, error)
	PutBan(ctx context.Context, b storage.Ban, replaces *storage.Ban, e storage.AuditEntry) error
	LiftBan(ctx context.Context, guildID, userID string, by storage.Player, e storage.AuditEntry) (*storage.Ban, error)
	AppendAudit(ctx context.Context, e storage.AuditEntry) error
	AuditLog(ctx context.Context, guildID string, offset, limit int) ([]storage.AuditEntry, int, error)
	GuildActiveGames(ctx context.Context, guildID string, offset, limit int) (*storage.GameList, error)
	GuildChallenges(ctx context.Context, guildID string) ([]*storage.Challenge, error)
	AnnulGame(ctx context.Context, guildID, id string, record []byte, e storage.AuditEntry) (*storage.Archived, error)
	RebuildRatings(ctx context.Context) (*storage.RebuildReport, error)
	RatingHistory(ctx context.Context, playerKey string) ([]storage.RatingChange, error)
}

// bothAdminStores runs f on a bbolt store and on a PostgreSQL one (skipped
// without PostgreSQL), both on the clock now.
func bothAdminStores(t *testing.T, f func(t *testing.T, s adminStore, now *time.Time)) {
	t.Run("bolt", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		f(t, openBolt(t, filepath.Join(t.TempDir(), "gobot.db"), func() time.Time { return now }), &now)
	})
	t.Run("postgres", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		f(t, openPostgres(t, pgtest.Database(t), func() time.Time { return now }), &now)
	})
}

// TestAdminSettingsBansLog: settings are versioned and each change is
// logged with it; bans hold, lapse and are lifted without being deleted;
// the log pages newest first and keeps each server's entries apart.
func TestAdminSettingsBansLog(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		admin := storage.Player{UserID: "A", Name: "ann"}
		st, err := s.Settings(ctx, "G")
		if err != nil || st.Version != 0 || st.GuildID != "G" || !st.GameChannel("any", "") {
			t.Fatalf("Settings of a new server = %+v, %v; want the defaults", st, err)
		}
		stale := *st
		st.GameChannels, st.MaxGames = []string{"c1"}, 3
		if err := s.PutSettings(ctx, st, storage.AuditEntry{GuildID: "G", By: admin, Action: storage.AuditSettings, Target: "channels", Before: "anywhere", After: "<#c1>"}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSettings(ctx, &stale, storage.AuditEntry{GuildID: "G", By: admin, Action: storage.AuditSettings}); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("PutSettings at a stale version = %v, want ErrConflict", err)
		}
		got, err := s.Settings(ctx, "G")
		if err != nil || got.Version != 1 || got.MaxGames != 3 || !got.GameChannel("t1", "c1") || got.GameChannel("c2", "") {
			t.Errorf("Settings = %+v, %v; want version 1, 3 games, channel c1 (and its threads)", got, err)
		}

		*now = now.Add(time.Hour)
		bob := storage.Player{UserID: "B", Name: "bob"}
		if _, err := s.Ban(ctx, "G", "B"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("Ban before any = %v, want ErrNotFound", err)
		}
		ban := storage.Ban{GuildID: "G", User: bob, Until: now.Add(48 * time.Hour), Reason: "spam", By: admin}
		if err := s.PutBan(ctx, ban, nil, storage.AuditEntry{GuildID: "G", By: admin, Action: storage.AuditBan, Target: "B", Reason: "spam"}); err != nil {
			t.Fatal(err)
		}
		b, err := s.Ban(ctx, "G", "B")
		if err != nil || !b.Active(*now) || b.Active(now.Add(48*time.Hour)) || b.Reason != "spam" {
			t.Errorf("Ban = %+v, %v; want active for 48 hours", b, err)
		}
		if _, err := s.Ban(ctx, "H", "B"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the ban holds on another server: %v", err)
		}
		lifted, err := s.LiftBan(ctx, "G", "B", admin, storage.AuditEntry{GuildID: "G", By: admin, Action: storage.AuditUnban, Target: "B"})
		if err != nil || lifted.Active(*now) || !lifted.Lifted.Equal(*now) {
			t.Errorf("LiftBan = %+v, %v", lifted, err)
		}
		if _, err := s.LiftBan(ctx, "G", "B", admin, storage.AuditEntry{GuildID: "G", By: admin, Action: storage.AuditUnban}); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("LiftBan twice = %v, want ErrNotFound", err)
		}
		if b, err := s.Ban(ctx, "G", "B"); err != nil || b.Lifted.IsZero() {
			t.Errorf("the lifted ban is gone: %+v, %v", b, err)
		}

		if err := s.AppendAudit(ctx, storage.AuditEntry{GuildID: "H", By: admin, Action: storage.AuditAbort, Target: "g1"}); err != nil {
			t.Fatal(err)
		}
		log, total, err := s.AuditLog(ctx, "G", 0, 2)
		if err != nil || total != 3 || len(log) != 2 || log[0].Action != storage.AuditUnban || log[1].Action != storage.AuditBan || !log[1].At.Equal(*now) {
			t.Errorf("AuditLog page 1 = %+v, %d, %v; want unban then ban of 3", log, total, err)
		}
		log, _, err = s.AuditLog(ctx, "G", 2, 2)
		if err != nil || len(log) != 1 || log[0].After != "<#c1>" || log[0].Before != "anywhere" || log[0].Seq >= log[0].Seq+1 {
			t.Errorf("AuditLog page 2 = %+v, %v; want the setting", log, err)
		}
		if log, total, _ := s.AuditLog(ctx, "H", 0, 10); total != 1 || log[0].Target != "g1" {
			t.Errorf("server H's log = %+v", log)
		}
	})
}

// TestAdminGuildGames: a server's active games, newest first, paged; a
// finished game leaves the list; another server's games are not in it.
func TestAdminGuildGames(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		var games []*storage.Game
		for i := range 5 {
			guild := "G"
			if i == 2 {
				guild = "H"
			}
			eg, _ := engine.NewGame(engine.Config{Size: 9})
			g := &storage.Game{ChannelID: fmt.Sprint("c", i), GuildID: guild, Sides: storage.Sides(storage.Player{UserID: "1"}, storage.Player{UserID: "2"}), State: engine.Own(eg),
				CreatedAt: now.Add(time.Duration(i) * time.Minute)}
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
		}
		page := func(offset, limit int) string {
			l, err := s.GuildActiveGames(ctx, "G", offset, limit)
			if err != nil {
				t.Fatal(err)
			}
			out := fmt.Sprint(l.Total, ":")
			for _, g := range l.Games {
				out += " " + g.ChannelID
			}
			return out
		}
		if got := page(0, 3); got != "4: c4 c3 c1" {
			t.Errorf("page 1 = %q", got)
		}
		if got := page(3, 3); got != "4: c0" {
			t.Errorf("page 2 = %q", got)
		}
		if err := s.FinishGame(ctx, games[3], storage.Archived{Result: "B+R", SGF: []byte("(;)")}); err != nil {
			t.Fatal(err)
		}
		if got := page(0, 10); got != "3: c4 c1 c0" {
			t.Errorf("after c3 finished = %q", got)
		}
		for _, c := range []*storage.Challenge{
			{ID: "x1", ChannelID: "c9", GuildID: "G", Challenger: storage.Player{UserID: "1"}, Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)},
			{ID: "x2", ChannelID: "c9", GuildID: "H", Challenger: storage.Player{UserID: "1"}, Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)},
			{ID: "x3", ChannelID: "c8", GuildID: "G", Challenger: storage.Player{UserID: "2"}, Size: 9, CreatedAt: now.Add(time.Minute), ExpiresAt: now.Add(time.Hour)},
		} {
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := s.GuildChallenges(ctx, "G")
		if err != nil || len(cs) != 2 || cs[0].ID != "x3" || cs[1].ID != "x1" {
			t.Errorf("GuildChallenges = %v, %v; want x3, x1", cs, err)
		}
	})
}

// TestAdminAnnulEqualsRebuild: annulling a rated game in the middle of a
// pool recomputes its pools so that every rating and the whole history
// equal what a rebuild gives; the record stays, annulled and unrated; the
// players' statistics no longer count it; the record given replaces its
// record; a game of another server is not found, and a second annul is
// refused.
func TestAdminAnnulEqualsRebuild(t *testing.T) {
	for _, kind := range []string{"go", "draughts"} {
		t.Run(kind, func(t *testing.T) {
			bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) { annulEqualsRebuild(t, s, now, kind) })
		})
	}
}

// annulEqualsRebuild plays 12 rated games of kind on two servers, G and
// H, annuls one of G's, and checks the ratings in every pool of the kind
// (the global one too, which H's games also make) against a rebuild.
func annulEqualsRebuild(t *testing.T, s adminStore, now *time.Time, kind string) {
	ctx := context.Background()
	players := []storage.Player{{UserID: "1", Name: "one"}, {UserID: "2", Name: "two"}, {UserID: "3", Name: "three"}, {Level: "easy", Name: "easy"}}
	var ids []string
	for i := range 12 {
		black, white := players[i%4], players[(i+1+i/4)%4]
		if black.Key() == white.Key() {
			white = players[(i+2)%4]
		}
		guild := "G"
		if i%5 == 4 {
			guild = "H"
		}
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		var st game.State = engine.Own(eg)
		if kind == "draughts" {
			st, _ = draughts.Kind{}.New(nil, int64(i))
		}
		g := &storage.Game{ChannelID: fmt.Sprint("c", i), GuildID: guild, Kind: kind, Sides: storage.Sides(black, white), State: st}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		*now = now.Add(time.Hour)
		res := []string{"B+R", "W+3.5", "B+T"}[i%3]
		if err := s.FinishGame(ctx, g, storage.Archived{Result: res, SGF: []byte("(;)"), Moves: 40, Rated: true}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	stats := func(key string) int {
		st, err := s.PlayerStats(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return st.Games
	}
	target, err := s.ArchivedGame(ctx, ids[5])
	if err != nil || !target.Rated || target.GuildID != "G" {
		t.Fatalf("game 5 = %+v, %v; want a rated game of G", target, err)
	}
	before := stats(target.Black.Key())
	e := storage.AuditEntry{GuildID: "G", By: storage.Player{UserID: "A"}, Action: storage.AuditAnnul, Target: ids[5], Reason: "farmed"}
	if _, err := s.AnnulGame(ctx, "H", ids[5], nil, e); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AnnulGame from another server = %v, want ErrNotFound", err)
	}
	marked := []byte("(;C[Annulled by A. Reason: farmed])")
	a, err := s.AnnulGame(ctx, "G", ids[5], marked, e)
	if err != nil || !a.Annulled || a.Rated {
		t.Fatalf("AnnulGame = %+v, %v", a, err)
	}
	// The record marked annulled replaces the one it had; a game
	// annulled without a record keeps its own.
	if got, err := s.ArchivedGame(ctx, ids[5]); err != nil || string(got.SGF) != string(marked) || !got.Annulled {
		t.Errorf("the annulled game's record = %q (annulled %v), %v; want %q", got.SGF, got.Annulled, err, marked)
	}
	if _, err := s.AnnulGame(ctx, "G", ids[5], nil, e); !errors.Is(err, storage.ErrAnnulled) {
		t.Errorf("a second AnnulGame = %v, want ErrAnnulled", err)
	}
	if got := stats(target.Black.Key()); got != before-1 {
		t.Errorf("black's games after the annul = %d, want %d", got, before-1)
	}
	if ch, err := s.GameRatingChanges(ctx, ids[5]); err != nil || len(ch) != 0 {
		t.Errorf("the annulled game's rating changes = %v, %v; want none", ch, err)
	}
	if log, _, _ := s.AuditLog(ctx, "G", 0, 1); len(log) != 1 || log[0].Reason != "farmed" {
		t.Errorf("the annul's log entry = %+v", log)
	}
	dump := func() string {
		var out []any
		for _, p := range players {
			h, err := s.RatingHistory(ctx, p.Key())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
			for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G"), storage.GuildPool("H")} {
				r, err := s.Rating(ctx, storage.KindPool(kind, pool), p.Key())
				if err == nil {
					out = append(out, r)
				}
			}
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	annulledState := dump()
	rep, err := s.RebuildRatings(ctx)
	if err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 11 {
		t.Errorf("RebuildRatings after the annul = %+v, %v; want 11 games and nothing changed", rep, err)
	}
	if rebuilt := dump(); rebuilt != annulledState {
		t.Errorf("ratings after the annul differ from a rebuild:\nannul:   %s\nrebuild: %s", annulledState, rebuilt)
	}
}

// TestAdminPoolsOff: a game kept out of its server's pool counts in the
// global one only, and a rebuild follows the record.
func TestAdminPoolsOff(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		g := &storage.Game{ChannelID: "c", GuildID: "G", Sides: storage.Sides(storage.Player{UserID: "1"}, storage.Player{UserID: "2"}), State: engine.Own(eg)}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("(;)"), Moves: 40, Rated: true, NoPools: []string{storage.GuildPool("G")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Rating(ctx, storage.GuildPool("G"), "1"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("rated in the server's pool: %v", err)
		}
		if _, err := s.Rating(ctx, storage.GlobalPool, "1"); err != nil {
			t.Errorf("not rated in the global pool: %v", err)
		}
		rep, err := s.RebuildRatings(ctx)
		if err != nil || rep.Changed != 0 || rep.Missing != 0 {
			t.Errorf("RebuildRatings = %+v, %v", rep, err)
		}
	})
}

// TestAdminAnnulWhileRating: games rated while an annulment recomputes
// their pool are not lost: whichever comes first, the ratings end as a
// rebuild gives them.
func TestAdminAnnulWhileRating(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		finish := func(i int) string {
			eg, _ := engine.NewGame(engine.Config{Size: 9})
			g := &storage.Game{ChannelID: fmt.Sprint("c", i), GuildID: "G", Sides: storage.Sides(storage.Player{UserID: fmt.Sprint(i % 5)}, storage.Player{UserID: fmt.Sprint(5 + i%3)}), State: engine.Own(eg)}
			if err := s.CreateGame(ctx, g); err != nil {
				t.Error(err)
				return ""
			}
			if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("(;)"), Moves: 40, Rated: true}); err != nil {
				t.Error(err)
			}
			return g.ID
		}
		var ids []string
		for i := range 30 {
			ids = append(ids, finish(i))
		}
		done := make(chan error)
		go func() {
			_, err := s.AnnulGame(ctx, "G", ids[2], nil, storage.AuditEntry{GuildID: "G", Action: storage.AuditAnnul, Target: ids[2]})
			done <- err
		}()
		for i := 30; i < 40; i++ {
			finish(i)
		}
		if err := <-done; err != nil {
			t.Fatalf("AnnulGame = %v", err)
		}
		rep, err := s.RebuildRatings(ctx)
		if err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 39 {
			t.Errorf("RebuildRatings = %+v, %v; want 39 games, nothing changed", rep, err)
		}
	})
}

// TestAdminAnnulmentsRace: two annulments of games with no player in
// common, on two workers, each recomputing from a snapshot in which the
// other's game still counts: either both take their snapshots before
// either writes ("together"), or the second is held in its recomputation
// until the first has committed ("one during the other"). Each annulment
// must take out every game annulled before it commits, so afterwards the
// ratings and their history equal a rebuild's without either game. (Were
// an annulment not to change what the other's write checks, the second
// to write would put back the first's game.)
func TestAdminAnnulmentsRace(t *testing.T) {
	for _, held := range []bool{false, true} {
		name := "together"
		if held {
			name = "one during the other"
		}
		t.Run(name, func(t *testing.T) {
			adminWorkers(t, 2, func(t *testing.T, ws []adminStore, now *time.Time) { annulmentsRace(t, ws, now, held) })
		})
	}
}

// annulmentsRace plays a double round robin of four players and annuls
// p0–p1's first game on ws[1] and p2–p3's last on ws[0], racing as
// TestAdminAnnulmentsRace says (the early game's annulment is the one
// held).
func annulmentsRace(t *testing.T, ws []adminStore, now *time.Time, held bool) {
	ctx := context.Background()
	s := ws[0]
	players := []string{"p0", "p1", "p2", "p3"}
	var ids []string
	pairIDs := map[string][]string{}
	for round := range 2 {
		for i, black := range players {
			for j, white := range players {
				if i == j || (i < j) != (round == 0) {
					continue
				}
				eg, _ := engine.NewGame(engine.Config{Size: 9})
				g := &storage.Game{ChannelID: fmt.Sprint("c", len(ids)), GuildID: "G", Sides: storage.Sides(storage.Player{UserID: black}, storage.Player{UserID: white}), State: engine.Own(eg)}
				if err := s.CreateGame(ctx, g); err != nil {
					t.Fatal(err)
				}
				*now = now.Add(time.Hour)
				if err := s.FinishGame(ctx, g, storage.Archived{Result: []string{"B+R", "W+R"}[len(ids)%2], SGF: []byte("(;)"), Moves: 40, Rated: true}); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, g.ID)
				pair := min(black, white) + max(black, white)
				pairIDs[pair] = append(pairIDs[pair], g.ID)
			}
		}
	}
	// The early game was rated before the late one: the early one's
	// recomputation rates the late one again, history and all.
	early, late := pairIDs["p0p1"][0], pairIDs["p2p3"][1]
	annul := func(s adminStore, id string) error {
		_, err := s.AnnulGame(ctx, "G", id, nil, storage.AuditEntry{GuildID: "G", Action: storage.AuditAnnul, Target: id, Reason: "race"})
		return err
	}
	var calls atomic.Int32
	var snapshots sync.WaitGroup
	snapshots.Add(2)
	lateDone, earlyRecomputing := make(chan struct{}), make(chan struct{})
	for _, w := range ws {
		w.(interface{ OnRecompute(func()) }).OnRecompute(func() {
			n := calls.Add(1)
			switch {
			case n > 2: // an attempt again, after a conflict
			case held && n == 1: // the early game's annulment, until the other has committed
				close(earlyRecomputing)
				<-lateDone
			case !held: // both hold until both have their snapshots
				snapshots.Done()
				snapshots.Wait()
			}
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- annul(ws[1], early) }()
	if held {
		<-earlyRecomputing
		errs <- annul(ws[0], late)
		close(lateDone)
	} else {
		go func() { errs <- annul(ws[0], late) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("AnnulGame = %v", err)
		}
	}
	for _, id := range []string{early, late} {
		if ch, err := s.GameRatingChanges(ctx, id); err != nil || len(ch) != 0 {
			t.Errorf("the annulled game %s's rating changes = %v, %v; want none", id, ch, err)
		}
	}
	dump := func() string {
		var out []any
		for _, p := range players {
			key := storage.Player{UserID: p}.Key()
			h, err := s.RatingHistory(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
			for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
				if r, err := s.Rating(ctx, storage.KindPool("go", pool), key); err == nil {
					out = append(out, r)
				}
			}
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	annulledState := dump()
	rep, err := s.RebuildRatings(ctx)
	if err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != len(ids)-2 {
		t.Errorf("RebuildRatings after the annulments = %+v, %v; want %d games and nothing changed", rep, err, len(ids)-2)
	}
	if rebuilt := dump(); rebuilt != annulledState {
		i := 0
		for i < min(len(rebuilt), len(annulledState)) && rebuilt[i] == annulledState[i] {
			i++
		}
		from := max(0, i-200)
		t.Errorf("ratings or their history after the annulments differ from a rebuild's, from\nannul:   …%.400s\nrebuild: …%.400s", annulledState[from:], rebuilt[from:])
	}
}

// adminWorkers runs f with n workers sharing one store: on bbolt, one
// store used n times (its file is one process's); on PostgreSQL, n stores
// opened on one database, as n processes would (skipped without
// PostgreSQL). Their clock is now.
func adminWorkers(t *testing.T, n int, f func(t *testing.T, ws []adminStore, now *time.Time)) {
	t.Run("bolt", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		s := openBolt(t, filepath.Join(t.TempDir(), "gobot.db"), func() time.Time { return now })
		ws := make([]adminStore, n)
		for i := range ws {
			ws[i] = s
		}
		f(t, ws, &now)
	})
	t.Run("postgres", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		url := pgtest.Database(t)
		ws := make([]adminStore, n)
		for i := range ws {
			ws[i] = openPostgres(t, url, func() time.Time { return now })
		}
		f(t, ws, &now)
	})
}

// logLines is a server's log, oldest first: who, what, on what, when.
func logLines(t *testing.T, s adminStore, guild string) []string {
	t.Helper()
	log, total, err := s.AuditLog(context.Background(), guild, 0, 1000)
	if err != nil || total != len(log) {
		t.Fatalf("AuditLog = %d of %d entries, %v", len(log), total, err)
	}
	var out []string
	for i := len(log) - 1; i >= 0; i-- {
		e := log[i]
		out = append(out, fmt.Sprintf("%s %s %s %s", e.By.Name, e.Action, e.Target, e.At.Format(time.RFC3339)))
	}
	return out
}

// TestAdminBanLapseLogged: a ban for days that lapses is in the log once,
// by gobot at the time it lapsed, however many workers read and write the
// log at once after it, and before whatever they log; a ban until lifted
// and a ban lifted in time never lapse; a new ban of a user whose ban
// lapsed unlogged logs the lapse first.
func TestAdminBanLapseLogged(t *testing.T) {
	adminWorkers(t, 3, func(t *testing.T, ws []adminStore, now *time.Time) {
		ctx := context.Background()
		s, start := ws[0], *now
		ann := storage.Player{UserID: "A", Name: "ann"}
		ban := func(user string, days int) {
			t.Helper()
			b := storage.Ban{GuildID: "G", User: storage.Player{UserID: user, Name: user}, Reason: "spam", By: ann}
			if days > 0 {
				b.Until = now.Add(time.Duration(days) * 24 * time.Hour)
			}
			if err := s.PutBan(ctx, b, nil, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditBan, Target: user}); err != nil {
				t.Fatal(err)
			}
		}
		at := func(d time.Duration) string { return start.Add(d).Format(time.RFC3339) }
		ban("bob", 2)
		ban("carol", 1)
		ban("dave", 0)
		ban("erin", 1)
		*now = start.Add(time.Hour)
		if _, err := s.LiftBan(ctx, "G", "erin", ann, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditUnban, Target: "erin"}); err != nil {
			t.Fatal(err)
		}
		if got := logLines(t, s, "G"); len(got) != 5 {
			t.Fatalf("log before any lapse = %q, want the 4 bans and the unban", got)
		}

		// Two days and an hour later, bob's and carol's bans have lapsed:
		// the workers read the log and log aborts at once.
		*now = start.Add(49 * time.Hour)
		var wg sync.WaitGroup
		errs := make(chan error, 4*len(ws))
		for i, w := range ws {
			for j := range 4 {
				wg.Go(func() {
					if j%2 == 0 {
						_, _, err := w.AuditLog(ctx, "G", 0, 3)
						errs <- err
						return
					}
					errs <- w.AppendAudit(ctx, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditAbort, Target: fmt.Sprint("g", i, j)})
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got := logLines(t, s, "G")
		want := []string{
			"ann ban bob " + at(0), "ann ban carol " + at(0), "ann ban dave " + at(0), "ann ban erin " + at(0), "ann unban erin " + at(time.Hour),
			"gobot lapse carol " + at(24*time.Hour), "gobot lapse bob " + at(48*time.Hour),
		}
		if len(got) != len(want)+2*len(ws) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
			t.Fatalf("log =\n%s\nwant\n%s\nand then %d aborts", strings.Join(got, "\n"), strings.Join(want, "\n"), 2*len(ws))
		}
		for _, l := range got[len(want):] {
			if !strings.HasPrefix(l, "ann abort g") {
				t.Errorf("after the lapses the log has %q, want only the aborts", l)
			}
		}
		log, _, _ := s.AuditLog(ctx, "G", 2*len(ws), 1)
		if len(log) != 1 || log[0].By != storage.Gobot || log[0].Action != storage.AuditLapse || log[0].Target != "bob" || !log[0].At.Equal(start.Add(48*time.Hour)) {
			t.Errorf("bob's lapse = %+v, want by gobot when the ban ended", log)
		}
		for _, w := range ws {
			if lines := logLines(t, w, "G"); len(lines) != len(got) {
				t.Errorf("another read of the log has %d entries, want %d", len(lines), len(got))
			}
		}
		if b, err := s.Ban(ctx, "G", "bob"); err != nil || !b.LapseLogged || b.Active(*now) {
			t.Errorf("bob's ban = %+v, %v; want lapsed, its lapse logged", b, err)
		}
		if b, err := s.Ban(ctx, "G", "dave"); err != nil || b.LapseLogged || !b.Active(*now) {
			t.Errorf("dave's ban = %+v, %v; want it holding", b, err)
		}

		// Frank's ban lapses unlogged and a new ban replaces it: the
		// lapse is logged first, from the ban it replaces.
		before := len(got)
		ban("frank", 1)
		*now = now.Add(72 * time.Hour)
		ban("frank", 3)
		got = logLines(t, s, "G")
		want = []string{"ann ban frank " + at(49*time.Hour), "gobot lapse frank " + at(73*time.Hour), "ann ban frank " + at(121*time.Hour)}
		if strings.Join(got[before:], "\n") != strings.Join(want, "\n") {
			t.Errorf("log after frank's bans =\n%s\nwant\n%s", strings.Join(got[before:], "\n"), strings.Join(want, "\n"))
		}
		if b, err := s.Ban(ctx, "G", "frank"); err != nil || !b.Active(*now) || b.LapseLogged {
			t.Errorf("frank's new ban = %+v, %v; want it holding", b, err)
		}
		// Another server's log has none of it.
		if log, total, err := s.AuditLog(ctx, "H", 0, 10); err != nil || total != 0 {
			t.Errorf("server H's log = %+v, %d, %v; want empty", log, total, err)
		}
	})
}

// TestAdminAuditAtomic: an action and its log entry are stored together
// or not at all. A game finished with its entry (storage.WithAudit) is
// archived and logged; a finish that fails (a stale version) logs
// nothing; an entry that cannot be stored fails its action, which leaves
// everything as it was: a game's finish, a ban, a setting, an unban, an
// annulment.
func TestAdminAuditAtomic(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		ann := storage.Player{UserID: "A", Name: "ann"}
		bad := storage.AuditEntry{GuildID: "G", By: ann} // no action: refused by the log
		entries := func() int {
			t.Helper()
			_, total, err := s.AuditLog(ctx, "G", 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			return total
		}
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		g := &storage.Game{ChannelID: "c1", GuildID: "G", Sides: storage.Sides(storage.Player{UserID: "1"}, storage.Player{UserID: "2"}), State: engine.Own(eg)}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		stale, err := s.Game(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		arc := storage.Archived{Result: "B+F", SGF: []byte("(;)"), Moves: 40, Rated: true}
		abort := storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditAdjudicate, Target: g.ID, Before: "in play", After: "B+F"}
		if err := s.FinishGame(storage.WithAudit(ctx, abort), stale, arc); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("FinishGame of a stale game = %v, want ErrConflict", err)
		}
		if err := s.FinishGame(storage.WithAudit(ctx, bad), g, arc); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("FinishGame with an entry the log refuses = %v, want ErrInvalid", err)
		}
		if n := entries(); n != 0 {
			t.Errorf("failed finishes left %d log entries", n)
		}
		if _, err := s.Game(ctx, "c1"); err != nil {
			t.Errorf("after failed finishes the game is not in play: %v", err)
		}
		if _, err := s.ArchivedGame(ctx, g.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("after failed finishes the game is archived: %v", err)
		}
		if err := s.FinishGame(storage.WithAudit(ctx, abort), g, arc); err != nil {
			t.Fatal(err)
		}
		if log, total, err := s.AuditLog(ctx, "G", 0, 10); err != nil || total != 1 || log[0].Target != g.ID || log[0].After != "B+F" {
			t.Errorf("the finish's log = %+v, %d, %v; want its one entry", log, total, err)
		}
		rating, err := s.Rating(ctx, storage.GlobalPool, "1")
		if err != nil {
			t.Fatal(err)
		}

		*now = now.Add(time.Hour)
		bob := storage.Player{UserID: "B", Name: "bob"}
		if err := s.PutBan(ctx, storage.Ban{GuildID: "G", User: bob, By: ann}, nil, bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("PutBan with an entry the log refuses = %v, want ErrInvalid", err)
		}
		if _, err := s.Ban(ctx, "G", "B"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a ban whose entry was refused was stored: %v", err)
		}
		st, err := s.Settings(ctx, "G")
		if err != nil {
			t.Fatal(err)
		}
		st.MaxGames = 3
		if err := s.PutSettings(ctx, st, bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("PutSettings with an entry the log refuses = %v, want ErrInvalid", err)
		}
		if st, err := s.Settings(ctx, "G"); err != nil || st.Version != 0 || st.MaxGames != 0 {
			t.Errorf("settings whose entry was refused = %+v, %v; want the defaults", st, err)
		}
		if err := s.PutBan(ctx, storage.Ban{GuildID: "G", User: bob, By: ann}, nil, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditBan, Target: "B"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LiftBan(ctx, "G", "B", ann, bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("LiftBan with an entry the log refuses = %v, want ErrInvalid", err)
		}
		if b, err := s.Ban(ctx, "G", "B"); err != nil || !b.Active(*now) {
			t.Errorf("a ban whose lift's entry was refused = %+v, %v; want it holding", b, err)
		}
		if _, err := s.AnnulGame(ctx, "G", g.ID, nil, bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("AnnulGame with an entry the log refuses = %v, want ErrInvalid", err)
		}
		if a, err := s.ArchivedGame(ctx, g.ID); err != nil || a.Annulled || !a.Rated {
			t.Errorf("a game whose annulment's entry was refused = %+v, %v; want it rated", a, err)
		}
		if r, err := s.Rating(ctx, storage.GlobalPool, "1"); err != nil || r.Rating != rating.Rating || r.Games != 1 {
			t.Errorf("rating after a refused annulment = %+v, %v; want %+v", r, err, rating)
		}
		if h, err := s.RatingHistory(ctx, "1"); err != nil || len(h) != 2 || h[0].Game != g.ID || h[1].Game != g.ID {
			t.Errorf("rating history after a refused annulment = %+v, %v; want the game's changes (global, server)", h, err)
		}
		if n := entries(); n != 2 {
			t.Errorf("log after the refusals has %d entries, want 2 (the finish, the ban)", n)
		}
	})
}

// TestAdminMoveDuringAnnul: while an annulment recomputes its pools, a
// move in another game commits and a game of the same pool finishes,
// rated; the annulment, held in its recomputation until then, completes
// afterwards and the ratings equal a rebuild's. (Were the recomputation
// holding a write, the move would wait for ever: the test's timeout.)
func TestAdminMoveDuringAnnul(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		newGame := func(channel string, black, white string) *storage.Game {
			t.Helper()
			eg, _ := engine.NewGame(engine.Config{Size: 9})
			g := &storage.Game{ChannelID: channel, GuildID: "G", Sides: storage.Sides(storage.Player{UserID: black}, storage.Player{UserID: white}), State: engine.Own(eg)}
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			return g
		}
		finish := func(g *storage.Game) {
			t.Helper()
			if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("(;)"), Moves: 40, Rated: true}); err != nil {
				t.Fatal(err)
			}
		}
		var ids []string
		for i := range 20 {
			g := newGame(fmt.Sprint("c", i), fmt.Sprint(i%4), fmt.Sprint(4+i%3))
			finish(g)
			ids = append(ids, g.ID)
		}
		live := newGame("live", "8", "9")
		later := newGame("later", "0", "4")

		recomputing, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		s.(interface{ OnRecompute(func()) }).OnRecompute(func() {
			once.Do(func() {
				close(recomputing)
				<-release
			})
		})
		done := make(chan error, 1)
		go func() {
			_, err := s.AnnulGame(ctx, "G", ids[3], nil, storage.AuditEntry{GuildID: "G", Action: storage.AuditAnnul, Target: ids[3]})
			done <- err
		}()
		<-recomputing
		e5, _ := engine.ParsePoint("E5", 9)
		if err := engine.GameOf(live.State).Play(engine.PlaceAt(engine.Black, e5)); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, live); err != nil {
			t.Fatalf("a move while an annulment recomputes: UpdateGame = %v", err)
		}
		if g, err := s.Game(ctx, "live"); err != nil || g.State.MoveCount() != 1 {
			t.Fatalf("the move made while an annulment recomputes: %v, %v", g, err)
		}
		finish(later) // rated in the pool being recomputed
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("AnnulGame = %v", err)
		}
		if a, err := s.ArchivedGame(ctx, ids[3]); err != nil || !a.Annulled {
			t.Errorf("the annulled game = %+v, %v", a, err)
		}
		rep, err := s.RebuildRatings(ctx)
		if err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 20 {
			t.Errorf("RebuildRatings = %+v, %v; want 20 games, nothing changed", rep, err)
		}
	})
}

// TestDeleteChallengeLogs: DeleteChallenge given a context from WithAudit
// (an admin's withdrawal) appends the entry in the transaction that
// deletes the challenge: a challenge already gone is ErrNotFound and
// logs nothing; without the context nothing is logged.
func TestDeleteChallengeLogs(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		ann := storage.Player{UserID: "9", Name: "ann"}
		for _, id := range []string{"1", "2"} {
			c := &storage.Challenge{ID: id, ChannelID: "ch" + id, GuildID: "G", Challenger: storage.Player{UserID: "5"}, Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)}
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		e := storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditWithdraw, Target: "1", Reason: "spam", Before: "open challenge", After: "withdrawn"}
		if err := s.DeleteChallenge(storage.WithAudit(ctx, e), "1"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteChallenge(storage.WithAudit(ctx, e), "1"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a second withdrawal = %v, want ErrNotFound", err)
		}
		if err := s.DeleteChallenge(ctx, "2"); err != nil {
			t.Fatal(err)
		}
		log, total, err := s.AuditLog(ctx, "G", 0, 10)
		if err != nil || total != 1 || log[0].Action != storage.AuditWithdraw || log[0].Target != "1" || log[0].Reason != "spam" || log[0].By != ann {
			t.Errorf("log = %+v (%d entries, %v), want the one withdrawal", log, total, err)
		}
	})
}

// TestUpdateChallengeLogs: UpdateChallenge given a context from WithAudit
// (a ban taking a player off a lobby's teams) appends the entry in the
// transaction that changes the challenge: a change refused logs nothing;
// without the context nothing is logged.
func TestUpdateChallengeLogs(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		ann := storage.Player{UserID: "9", Name: "ann"}
		c := &storage.Challenge{ID: "1", ChannelID: "ch1", GuildID: "G", Challenger: storage.Player{UserID: "5"}, Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)}
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		e := storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditWithdraw, Target: "1", Reason: "spam", Before: "rengo lobby, with <@7>", After: "without <@7>"}
		refused := errors.New("refused")
		if _, err := s.UpdateChallenge(storage.WithAudit(ctx, e), "1", func(*storage.Challenge) error { return refused }); !errors.Is(err, refused) {
			t.Errorf("a refused change = %v, want its error", err)
		}
		if _, err := s.UpdateChallenge(storage.WithAudit(ctx, e), "1", func(c *storage.Challenge) error { c.Size = 13; return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdateChallenge(ctx, "1", func(c *storage.Challenge) error { c.Size = 19; return nil }); err != nil {
			t.Fatal(err)
		}
		log, total, err := s.AuditLog(ctx, "G", 0, 10)
		if err != nil || total != 1 || log[0].Action != storage.AuditWithdraw || log[0].Target != "1" || log[0].Reason != "spam" || log[0].After != "without <@7>" {
			t.Errorf("log = %+v (%d entries, %v), want the one change", log, total, err)
		}
	})
}

// TestBanReplacesWhatWasRead: a ban replaces the ban in force its caller
// read, or none: when two admins ban a user at once from two workers, one
// ban is written with its log entry and the other fails with ErrConflict,
// writing nothing, so that no answer or log entry names a ban that is not
// the one replaced; read again, the second replaces the first.
func TestBanReplacesWhatWasRead(t *testing.T) {
	adminWorkers(t, 2, func(t *testing.T, ws []adminStore, now *time.Time) {
		ctx := context.Background()
		ann, boss, carol := storage.Player{UserID: "A", Name: "ann"}, storage.Player{UserID: "O", Name: "boss"}, storage.Player{UserID: "C", Name: "carol"}
		day := storage.Ban{GuildID: "G", User: carol, Until: now.Add(24 * time.Hour), Reason: "A", By: ann, At: *now}
		lifted := storage.Ban{GuildID: "G", User: carol, Reason: "B", By: boss, At: *now}
		entry := func(by storage.Player, reason string) storage.AuditEntry {
			return storage.AuditEntry{GuildID: "G", By: by, Action: storage.AuditBan, Target: "C", Reason: reason}
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, b := range []storage.Ban{day, lifted} {
			wg.Go(func() { errs[i] = ws[i].PutBan(ctx, b, nil, entry(b.By, b.Reason)) })
		}
		wg.Wait()
		won := slices.IndexFunc(errs, func(err error) bool { return err == nil })
		if won < 0 || !errors.Is(errs[1-won], storage.ErrConflict) {
			t.Fatalf("two bans of carol at once, both replacing none = %v, want one nil and one ErrConflict", errs)
		}
		first := []storage.Ban{day, lifted}[won]
		if got := logLines(t, ws[0], "G"); len(got) != 1 || !strings.HasPrefix(got[0], first.By.Name+" ban C") {
			t.Errorf("the log after two bans at once = %q, want only %s's", got, first.By.Name)
		}
		stored, err := ws[0].Ban(ctx, "G", "C")
		if err != nil || stored.Reason != first.Reason {
			t.Fatalf("the ban in force = %+v, %v; want %s's", stored, err, first.By.Name)
		}
		// The loser reads the ban in force and replaces it.
		second := []storage.Ban{day, lifted}[1-won]
		second.At = now.Add(time.Minute)
		if err := ws[1-won].PutBan(ctx, second, stored, entry(second.By, second.Reason)); err != nil {
			t.Fatalf("a ban replacing the one read = %v", err)
		}
		// A ban that names a replaced one, or none, while another holds.
		for _, replaces := range []*storage.Ban{nil, stored} {
			if err := ws[won].PutBan(ctx, first, replaces, entry(first.By, "late")); !errors.Is(err, storage.ErrConflict) {
				t.Errorf("a ban replacing %+v while another holds = %v, want ErrConflict", replaces, err)
			}
		}
		if got, err := ws[0].Ban(ctx, "G", "C"); err != nil || got.Reason != second.Reason || len(logLines(t, ws[0], "G")) != 2 {
			t.Errorf("the ban after the refused ones = %+v, %v; want %s's and two log entries", got, err, second.By.Name)
		}
		// Once it is lifted, a ban replaces none again.
		if _, err := ws[0].LiftBan(ctx, "G", "C", ann, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditUnban, Target: "C"}); err != nil {
			t.Fatal(err)
		}
		if err := ws[1].PutBan(ctx, first, nil, entry(first.By, first.Reason)); err != nil {
			t.Errorf("a ban after the lift, replacing none = %v", err)
		}
	})
}
