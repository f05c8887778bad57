package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// The fixture every older schema is written with: four active games (one
// of them corrupt, one waiting for its bot's move), two challenges, three
// archived games (one with a result that is not SGF, one corrupt).
type fixture struct {
	games      []*Game
	challenges []*Challenge
	archived   []archiveV1
}

func makeFixture(t *testing.T) fixture {
	eg := newEngine(t, 9)
	play(t, eg, "E5", "C3", "G7")
	return fixture{
		games: []*Game{
			{ID: "ga", ChannelID: "c1", GuildID: "G", Sides: Sides(human("1"), human("2")), State: engine.Own(eg), Version: 4, CreatedAt: t0},
			{ID: "gb", ChannelID: "c2", Sides: Sides(human("3"), bot("weak")), State: engine.Own(newEngine(t, 19)), Version: 1, CreatedAt: t0,
				Scoring: &ScoringState{Accepted: map[game.Side]bool{}, Deadline: t0.Add(5 * time.Hour)}},
			{ID: "gc", ChannelID: "c3", Sides: Sides(bot("weak"), human("4")), State: engine.Own(newEngine(t, 9)), Version: 1, CreatedAt: t0},
		},
		challenges: []*Challenge{newChallenge("ch1", t0.Add(time.Hour)), newChallenge("ch2", t0.Add(-time.Hour))},
		archived: []archiveV1{
			{ID: "a1", GuildID: "G", ChannelID: "c1", Black: human("1"), White: human("2"), Size: 19,
				Rules: engine.DefaultRules(), Result: "W+R", Moves: 120, SGF: []byte("(;GM[1]SZ[19]RE[W+R])"),
				StartedAt: t0, FinishedAt: t0.Add(time.Hour)},
			{ID: "a2", ChannelID: "dm", Black: human("2"), White: bot("weak"), Size: 9,
				Rules: engine.DefaultRules(), Result: "B+4.5", Moves: 60, SGF: []byte("(;GM[1]SZ[9]RE[B+4.5])"),
				StartedAt: t0, FinishedAt: t0.Add(2 * time.Hour)},
			{ID: "a3", GuildID: "G", ChannelID: "c5", Black: human("1"), White: human("3"), Size: 13,
				Rules: engine.DefaultRules(), Result: "resigned", Moves: 10, SGF: []byte("(;GM[1]SZ[13])"),
				StartedAt: t0, FinishedAt: t0.Add(3 * time.Hour)},
		},
	}
}

// writeV1 writes the fixture in the layout of schema 1.
func writeV1(t *testing.T, path string, f fixture) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := map[string]*bolt.Bucket{}
		for _, name := range []string{"meta", "games", "challenges", "archive"} {
			var err error
			if b[name], err = tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		b["meta"].Put([]byte("schema"), u64(1))
		for _, g := range f.games {
			v, err := g.encode(g.Version, t0)
			if err != nil {
				return err
			}
			var r map[string]json.RawMessage // records had no due time before schema 5
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			delete(r, "due")
			v, _ = json.Marshal(r)
			b["games"].Put([]byte(g.ChannelID), v)
		}
		b["games"].Put([]byte("c9"), []byte(`{"id":"broken"`))
		for _, c := range f.challenges {
			v, _ := json.Marshal(c)
			b["challenges"].Put([]byte(c.ID), v)
		}
		for _, a := range f.archived {
			v, _ := json.Marshal(a)
			b["archive"].Put([]byte(a.ID), v)
		}
		b["archive"].Put([]byte("a9"), []byte("not json"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeV2 writes the fixture in the layout of schema 2: schema 1 migrated,
// without the buckets later schemas added.
func writeV2(t *testing.T, path string, f fixture) {
	writeV1(t, path, f)
	migrateTo(t, path, 2, migrate1to2, bucketBotQueue, bucketBotQueueChannel, bucketArchiveChan, bucketGamesByDue, bucketVacations, bucketRatings, bucketRatingsByValue, bucketRatingHistory)
}

// writeV3 writes the fixture in the layout of schema 3: schema 2 migrated
// by migrate2to3, without the archive_by_channel index schema 4 added.
func writeV3(t *testing.T, path string, f fixture) {
	writeV2(t, path, f)
	migrateTo(t, path, 3, migrate2to3, bucketArchiveChan, bucketGamesByDue, bucketVacations, bucketRatings, bucketRatingsByValue, bucketRatingHistory)
}

// writeV4 writes the fixture in the layout of schema 4: schema 3 migrated
// by migrate3to4, without the buckets schema 5 added.
func writeV4(t *testing.T, path string, f fixture) {
	writeV3(t, path, f)
	migrateTo(t, path, 4, migrate3to4)
}

// writeV5 writes the fixture in the layout of schema 5: schema 4 migrated
// by migrate4to5, with statistics without results by size or streaks and
// without the rating buckets schema 6 added.
func writeV5(t *testing.T, path string, f fixture) {
	writeV4(t, path, f)
	migrateTo(t, path, 5, migrate4to5)
}

// writeV6 writes the fixture in the layout of schema 6: schema 5 migrated
// by migrate5to6, its game records with black and white players.
func writeV6(t *testing.T, path string, f fixture) {
	writeV5(t, path, f)
	migrateTo(t, path, 6, migrate5to6)
}

func writeV7(t *testing.T, path string, f fixture) {
	writeV6(t, path, f)
	migrateTo(t, path, 7, migrate6to7)
}

// migrateTo runs migrate on the database file at path, deletes the buckets
// later schemas added (later), and records the schema as version.
func migrateTo(t *testing.T, path string, version uint64, migrate func(*bolt.Tx, *game.Kinds) error, later ...[]byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		if err := migrate(tx, testKinds); err != nil {
			return err
		}
		for _, name := range later {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, u64(version))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// olderSchemas writes the fixture in each schema before the current one.
var olderSchemas = map[int]func(t *testing.T, path string, f fixture){
	1: writeV1,
	2: writeV2,
	3: writeV3,
	4: writeV4,
	5: writeV5,
	6: writeV6,
	7: writeV7,
}

func TestMigrations(t *testing.T) {
	if len(olderSchemas) != SchemaVersion-1 {
		t.Fatalf("tests know %d older schemas, SchemaVersion is %d: add a writer for each", len(olderSchemas), SchemaVersion)
	}
	for v := 1; v < SchemaVersion; v++ {
		t.Run(fmt.Sprintf("from %d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			f := makeFixture(t)
			olderSchemas[v](t, path, f)
			s, err := Open(path, Options{Kinds: testKinds})
			if err != nil {
				t.Fatalf("Open(schema %d) = %v", v, err)
			}
			defer s.Close()
			verifyMigrated(t, s, f)
			recordsHaveSides(t, s)
			if err := s.QuarantineGame(ctx, "c9"); err != nil { // so that Check sees no orphan
				t.Errorf("QuarantineGame(c9) = %v", err)
			}
			if err := s.Check(ctx); err == nil {
				t.Errorf("Check() = nil, want a complaint about the corrupt archived game a9")
			}
			s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketArchive).Delete([]byte("a9")) })
			if err := s.Check(ctx); err != nil {
				t.Errorf("Check() after migration = %v", err)
			}
			s.Close()

			// Reopening migrates nothing more and changes nothing.
			before, _ := os.ReadFile(path)
			s2 := openAt(t, path)
			verifyMigrated(t, s2, f)
			s2.Close()
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Errorf("reopening a migrated file wrote to it")
			}
		})
	}
}

func verifyMigrated(t *testing.T, s *Store, f fixture) {
	t.Helper()
	var version uint64
	s.db.View(func(tx *bolt.Tx) error {
		version = uint64FromKey(tx.Bucket(bucketMeta).Get(keySchema))
		return nil
	})
	if version != SchemaVersion {
		t.Errorf("schema after Open = %d, want %d", version, SchemaVersion)
	}
	for _, want := range f.games {
		got, err := s.Game(ctx, want.ChannelID)
		if err != nil {
			t.Fatalf("Game(%s) = %v", want.ChannelID, err)
		}
		if got.ID != want.ID || got.Version != want.Version || fmt.Sprint(moveStrings(goOf(got))) != fmt.Sprint(moveStrings(goOf(want))) {
			t.Errorf("Game(%s) = %s v%d %v, want %s v%d %v", want.ChannelID, got.ID, got.Version,
				moveStrings(goOf(got)), want.ID, want.Version, moveStrings(goOf(want)))
		}
	}
	// Schema 8 indexes the active games by server.
	if l, err := s.GuildActiveGames(ctx, "G", 0, 10); err != nil || l.Total != 1 || len(l.Games) != 1 || l.Games[0].ID != "ga" {
		t.Errorf("GuildActiveGames(G) = %+v, %v; want game ga", l, err)
	}
	if _, err := s.Game(ctx, "c9"); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(c9) = %v, want ErrCorrupt", err)
	}
	for _, tt := range []struct {
		player string
		want   []string
	}{{"1", []string{"c1"}}, {"bot:weak", []string{"c2", "c3"}}} {
		games, err := s.PlayerActiveGames(ctx, tt.player)
		var got []string
		for _, g := range games {
			got = append(got, g.ChannelID)
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("PlayerActiveGames(%s) = %v, %v; want %v", tt.player, got, err, tt.want)
		}
	}
	// The scoring phase's deadline is indexed.
	if next, err := s.NextDue(ctx); err != nil || !next.Equal(t0.Add(5*time.Hour)) {
		t.Errorf("NextDue() = %v, %v; want the scoring deadline %v", next, err, t0.Add(5*time.Hour))
	}
	q, err := s.BotQueue(ctx)
	if err != nil || len(q) != 1 || q[0].ChannelID != "c3" || q[0].GameID != "gc" || q[0].Moves != 0 {
		t.Errorf("BotQueue() = %+v, %v; want the move the bot owes in c3", q, err)
	}
	exp, err := s.ExpiredChallenges(ctx, t0)
	if err != nil || len(exp) != 1 || exp[0].ID != "ch2" {
		t.Errorf("ExpiredChallenges() = %v, %v; want ch2", exp, err)
	}
	for _, old := range f.archived {
		a, err := s.ArchivedGame(ctx, old.ID)
		if err != nil {
			t.Fatalf("ArchivedGame(%s) = %v", old.ID, err)
		}
		if string(a.SGF) != string(old.SGF) || a.Result != old.Result || !a.FinishedAt.Equal(old.FinishedAt) {
			t.Errorf("ArchivedGame(%s) = SGF %q result %s, want %q %s", old.ID, a.SGF, a.Result, old.SGF, old.Result)
		}
	}
	a1, _ := s.ArchivedGame(ctx, "a1")
	if a1.Winner != engine.White {
		t.Errorf("a1 winner = %v, want white (from W+R)", a1.Winner)
	}
	ids := listedIDs(t)
	if diff := cmp.Diff([]string{"a3", "a1"}, ids(s.PlayerGames(ctx, "1", 10))); diff != "" {
		t.Errorf("PlayerGames(1) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a3", "a1"}, ids(s.GuildGames(ctx, "G", 10))); diff != "" {
		t.Errorf("GuildGames(G) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a1"}, ids(s.ChannelGames(ctx, "c1", 10))); diff != "" {
		t.Errorf("ChannelGames(c1) (-want +got):\n%s", diff)
	}
	st, err := s.PlayerStats(ctx, "2")
	if err != nil || st.Games != 2 || st.Wins != 2 || st.Losses != 0 {
		t.Errorf("PlayerStats(2) = %+v, %v; want 2 games won (W+R as white, B+4.5 as black)", st, err)
	}
	if st != nil && (st.BySize[19] == nil || st.BySize[19].Wins != 1 || st.BySize[9] == nil || st.BySize[9].Wins != 1 || st.Streak != 2) {
		t.Errorf("PlayerStats(2) by size %v, streak %d; want a win on 19×19 and on 9×9, streak 2", st.BySize, st.Streak)
	}
	st, err = s.PlayerStats(ctx, "3")
	if err != nil || st.Games != 1 || st.NoResult != 1 {
		t.Errorf("PlayerStats(3) = %+v, %v; want 1 game without result", st, err)
	}
}

func TestMigrationFailureChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeV1(t, path, makeFixture(t))
	before, _ := os.ReadFile(path)
	saved := migrations[0]
	migrations[0] = func(tx *bolt.Tx, kinds *game.Kinds) error {
		if err := saved(tx, kinds); err != nil {
			return err
		}
		return errors.New("disk full, say")
	}
	_, err := Open(path, Options{Kinds: testKinds})
	migrations[0] = saved
	if err == nil {
		t.Fatal("Open() = nil with a failing migration")
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		// bbolt may have grown the file, but the meta pages must still
		// name schema 1.
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		db.View(func(tx *bolt.Tx) error {
			if v := uint64FromKey(tx.Bucket(bucketMeta).Get(keySchema)); v != 1 {
				t.Errorf("schema after failed migration = %d, want 1", v)
			}
			if tx.Bucket(bucketArchiveSGF) != nil {
				t.Errorf("failed migration left bucket archive_sgf behind")
			}
			return nil
		})
		db.Close()
	}
	s := openAt(t, path) // and it still migrates afterwards
	verifyMigrated(t, s, makeFixture(t))
	s.QuarantineGame(ctx, "c9")
	s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketArchive).Delete([]byte("a9")) })
}

func TestOpenSchema(t *testing.T) {
	tests := []struct {
		name   string
		schema []byte // nil: leave the meta bucket without a version
		want   error
	}{
		{"newer", u64(SchemaVersion + 1), ErrSchemaTooNew},
		{"newest plausible", u64(SchemaVersion + maxSchemaAhead), ErrSchemaTooNew},
		{"a flipped high byte", u64(SchemaVersion ^ 0xff00), ErrDamaged},
		{"much newer", u64(1 << 40), ErrDamaged},
		{"zero", u64(0), ErrDamaged},
		{"garbage", []byte("v2"), ErrDamaged},
		{"missing", nil, ErrDamaged},
		{"current", u64(SchemaVersion), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error {
				if err := createBuckets(tx, SchemaVersion); err != nil {
					return err
				}
				if tt.schema == nil {
					return tx.Bucket(bucketMeta).Delete(keySchema)
				}
				return tx.Bucket(bucketMeta).Put(keySchema, tt.schema)
			})
			db.Close()
			before, _ := os.ReadFile(path)
			s, err := Open(path, Options{Kinds: testKinds})
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("Open() = %v, want %v", err, tt.want)
			}
			if errors.Is(tt.want, ErrDamaged) && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "gobot backup")) {
				t.Errorf("Open() = %v, want it to name `gobot backup` and wrap ErrCorrupt", err)
			}
			if err != nil {
				after, _ := os.ReadFile(path)
				if string(before) != string(after) {
					t.Errorf("refused Open changed the file")
				}
				return
			}
			s.Close()
		})
	}
}

// recordsHaveSides checks that every readable game record in s names its
// kind and sides, and no longer a black and a white player (schema 7).
func recordsHaveSides(t *testing.T, s *Store) {
	t.Helper()
	s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			var r map[string]json.RawMessage
			if json.Unmarshal(v, &r) != nil {
				return nil // a damaged record stays as it was
			}
			if string(r["kind"]) != `"go"` || r["sides"] == nil || r["black"] != nil || r["white"] != nil {
				t.Errorf("game record %s after migration: kind %s, sides %s, black %s, white %s", k, r["kind"], r["sides"], r["black"], r["white"])
			}
			return nil
		})
	})
}
