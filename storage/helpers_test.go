package storage

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

var ctx = context.Background()

// listedIDs returns a function that gives the IDs of a listing of
// archived games (PlayerGames, GuildGames, ChannelGames...) in its order,
// called as ids(s.PlayerGames(ctx, "1", 0)). An error ends the test; a
// listed game that carries its SGF fails it (listings leave the SGF out).
func listedIDs(t testing.TB) func(as []*Archived, err error) []string {
	return func(as []*Archived, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatalf("listing: %v", err)
		}
		var out []string
		for _, a := range as {
			out = append(out, a.ID)
			if a.SGF != nil {
				t.Errorf("listing of %s carries its SGF", a.ID)
			}
		}
		return out
	}
}

// openTest opens a store in a fresh temporary directory and, when the test
// ends, checks it (bbolt's Tx.Check and the store's indexes) and closes it.
func openTest(t testing.TB) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "gobot.db"))
}

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	t.Cleanup(func() {
		if s.closed.Load() {
			return
		}
		if err := s.Check(ctx); err != nil {
			t.Errorf("Check() = %v", err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	})
	return s
}

func human(id string) Player { return Player{UserID: id, Name: "user" + id} }

func bot(level string) Player { return Player{Level: level, Name: level + " bot"} }

// newEngine returns a new engine game of the given size under Chinese rules.
func newEngine(t testing.TB, size int) *engine.Game {
	t.Helper()
	eg, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules(), Seed: 7})
	if err != nil {
		t.Fatalf("NewGame(%d) = %v", size, err)
	}
	return eg
}

// newGame returns an unsaved 9×9 game in channel between two humans.
func newGame(t testing.TB, channel, black, white string) *Game {
	return &Game{
		ChannelID: channel, GuildID: "guild1",
		Sides: Sides(human(black), human(white)),
		State: engine.Own(newEngine(t, 9)),
	}
}

// openWithGame opens a test store (see openTest) holding one new game
// (newGame) in channel c1.
func openWithGame(t *testing.T) (*Store, *Game) {
	t.Helper()
	s := openTest(t)
	g := newGame(t, "c1", "1", "2")
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	return s, g
}

// play plays the given moves ("D4", "pass") alternately from the colour to
// move.
func play(t testing.TB, eg *engine.Game, moves ...string) {
	t.Helper()
	enginetest.Play(t, eg, moves...)
}

// playRandom plays one random legal non-eye-filling move, or a pass when
// there is none, and returns it.
func playRandom(t testing.TB, eg *engine.Game, r *rand.Rand) engine.Move {
	t.Helper()
	b := eg.Board()
	var cands []engine.Point
	for _, p := range eg.Legal() {
		if !b.IsEye(b.Vertex(p), eg.ToPlay()) {
			cands = append(cands, p)
		}
	}
	m := engine.PassMove(eg.ToPlay())
	if len(cands) > 0 {
		m = engine.PlaceAt(eg.ToPlay(), cands[r.IntN(len(cands))])
	}
	if err := eg.Play(m); err != nil {
		t.Fatalf("Play(%v) = %v", m, err)
	}
	return m
}

// randomGame returns a game with n random moves (fewer if it ends first).
func randomGame(t testing.TB, size, n int, seed uint64) *engine.Game {
	t.Helper()
	eg := newEngine(t, size)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < n && !eg.Over(); i++ {
		playRandom(t, eg, r)
	}
	return eg
}

// rawPut writes raw bytes under a key, bypassing the store (to corrupt it).
func rawPut(t testing.TB, s *Store, bucket []byte, key string, val []byte) {
	t.Helper()
	err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put([]byte(key), val) })
	if err != nil {
		t.Fatal(err)
	}
}

// rawGet reads raw bytes, or nil.
func rawGet(t testing.TB, s *Store, bucket []byte, key string) []byte {
	t.Helper()
	var v []byte
	s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucket); b != nil {
			if x := b.Get([]byte(key)); x != nil {
				v = append([]byte{}, x...)
			}
		}
		return nil
	})
	return v
}

// bucketLen counts the keys of a bucket.
func bucketLen(t testing.TB, s *Store, bucket []byte) int {
	t.Helper()
	n := 0
	s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucket).Stats().KeyN
		return nil
	})
	return n
}

func moveStrings(eg *engine.Game) []string {
	var out []string
	for _, m := range eg.Moves() {
		out = append(out, m.Color.Letter()+" "+m.String())
	}
	return out
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// testKinds are the kinds the tests' stores read: Go and draughts.
var testKinds = func() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}()

// goOf is the game of Go that g holds (engine.GameOf): changing it
// changes g, as the tests' moves do before writing g back.
func goOf(g *Game) *engine.Game { return engine.GameOf(g.State) }
