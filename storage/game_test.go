package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sameGame compares two games, the engine games by their JSON.
func sameGame(t *testing.T, got, want *Game) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Game{}, "State"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("game mismatch (-want +got):\n%s", diff)
	}
	gj, _ := goOf(got).MarshalJSON()
	wj, _ := goOf(want).MarshalJSON()
	if string(gj) != string(wj) {
		t.Errorf("engine game = %s, want %s", gj, wj)
	}
}

func TestCreateGame(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store)
		game  func(t *testing.T) *Game
		want  error
	}{
		{"new", nil, func(t *testing.T) *Game { return newGame(t, "c1", "1", "2") }, nil},
		{"in a DM against a bot", nil, func(t *testing.T) *Game {
			return &Game{ChannelID: "dm1", Sides: Sides(human("1"), bot("beginner")), State: engine.Own(newEngine(t, 19))}
		}, nil},
		{"with a chosen ID", nil, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.ID = "mine"
			return g
		}, nil},
		{"channel busy", func(t *testing.T, s *Store) {
			if err := s.CreateGame(ctx, newGame(t, "c1", "3", "4")); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T) *Game { return newGame(t, "c1", "1", "2") }, ErrExists},
		{"ID already archived", func(t *testing.T, s *Store) {
			finishNew(t, s, "c9", "old", "1", "2", t0)
		}, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.ID = "old"
			return g
		}, ErrExists},
		{"no channel", nil, func(t *testing.T) *Game { return newGame(t, "", "1", "2") }, ErrInvalid},
		{"channel with a zero byte", nil, func(t *testing.T) *Game { return newGame(t, "c\x001", "1", "2") }, ErrInvalid},
		{"no engine game", nil, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.State = nil
			return g
		}, ErrInvalid},
		{"nobody plays white", nil, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.Sides[1].Players[0] = Player{Name: "ghost"}
			return g
		}, ErrInvalid},
		{"user and bot at once", nil, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.Sides[0].Players[0].Level = "strong"
			return g
		}, ErrInvalid},
		{"undo by nobody", nil, func(t *testing.T) *Game {
			g := newGame(t, "c1", "1", "2")
			g.Undo = &UndoRequest{By: game.NoSide}
			return g
		}, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			if tt.setup != nil {
				tt.setup(t, s)
			}
			before, _ := s.ActiveGames(ctx)
			g := tt.game(t)
			err := s.CreateGame(ctx, g)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("CreateGame() = %v, want %v", err, tt.want)
			}
			if err != nil {
				if after, _ := s.ActiveGames(ctx); len(after) != len(before) {
					t.Errorf("failed CreateGame left %d games, want %d", len(after), len(before))
				}
				if g.Version != 0 {
					t.Errorf("failed CreateGame set Version = %d", g.Version)
				}
				return
			}
			if g.Version != 1 || g.ID == "" || g.CreatedAt.IsZero() || g.UpdatedAt.IsZero() {
				t.Errorf("after CreateGame: Version %d, ID %q, CreatedAt %v, UpdatedAt %v", g.Version, g.ID, g.CreatedAt, g.UpdatedAt)
			}
			got, err := s.Game(ctx, g.ChannelID)
			if err != nil {
				t.Fatalf("Game(%s) = %v", g.ChannelID, err)
			}
			sameGame(t, got, g)
		})
	}
}

func TestGameRoundTrip(t *testing.T) {
	s := openTest(t)
	eg := newEngine(t, 19)
	play(t, eg, "D4", "Q16", "D16", "Q4", "pass", "pass")
	g := &Game{
		ChannelID: "thread1", GuildID: "g1", ParentChannelID: "c1",
		Sides: Sides(human("1"), bot("strong")), State: engine.Own(eg),
		CreatedAt: t0, Clock: &clock.Clock{Control: clock.Default(), First: clock.Time{Main: time.Hour}, Second: clock.Time{Main: 3 * time.Hour}},
		Scoring: &ScoringState{
			Dead:     []string{"D4", "Q16"},
			Accepted: map[game.Side]bool{0: true, 1: false},
			Deadline: t0.Add(time.Hour),
		},
		Undo: &UndoRequest{By: 1, MoveCount: 6, RequestedAt: t0},
		Delivery: Delivery{
			MessageIDs: []string{"m1", "m2"},
			Followup:   &Followup{InteractionID: "i1", AppID: "a1", Token: "tok", At: t0.Add(time.Minute), ChannelPosts: true},
			Unposted:   true,
		},
	}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(ctx, "thread1")
	if err != nil {
		t.Fatal(err)
	}
	sameGame(t, got, g)
	if !goOf(got).PlayEnded() || goOf(got).ToPlay() != eg.ToPlay() || goOf(got).Board().String() != eg.Board().String() {
		t.Errorf("replayed position differs:\n%v\nwant\n%v", goOf(got).Board(), eg.Board())
	}
	if got.Player(1).Level != "strong" || got.Player(0).UserID != "1" {
		t.Errorf("Player() = %v / %v", got.Player(0), got.Player(1))
	}
}

// TestGameRecordBeforeDelivery: a record written before Delivery was
// split from Game (testdata/game-before-delivery.json, as that version
// wrote it) decodes, and encodes back to the same JSON, field for field,
// but for the "message" of its scoring phase, which nothing set or read
// and which is no longer kept, and for its players, which since schema 7
// are sides. So the record format changed only so,
// in bbolt or in PostgreSQL's record column.
func TestGameRecordBeforeDelivery(t *testing.T) {
	old, err := os.ReadFile("testdata/game-before-delivery.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := decodeGame(testKinds, "thread1", old)
	if err != nil {
		t.Fatalf("decodeGame(old record) = %v", err)
	}
	again, err := g.encode(g.Version, g.UpdatedAt)
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	if err := json.Unmarshal(old, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &got); err != nil {
		t.Fatal(err)
	}
	delete(want["scoring"].(map[string]any), "message")
	// The undo request's "message" is kept again, meaning what it meant
	// then: the message asking the request (UndoRequest.MessageID).
	// Since schema 7 a record names its kind and its sides (seats) in
	// place of its black and white players.
	want["kind"] = "go"
	want["sides"] = []any{
		map[string]any{"players": []any{want["black"]}},
		map[string]any{"players": []any{want["white"]}},
	}
	delete(want, "black")
	delete(want, "white")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("old record encoded again (-old +new):\n%s", diff)
	}
}

func TestGameNotFound(t *testing.T) {
	s := openTest(t)
	if _, err := s.Game(ctx, "nowhere"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(nowhere) = %v, want ErrNotFound", err)
	}
}

func TestUpdateGame(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, s *Store, g *Game) // applied to a copy loaded at version 2
		want   error
	}{
		{"next move", func(t *testing.T, s *Store, g *Game) { play(t, goOf(g), "E5") }, nil},
		{"undo", func(t *testing.T, s *Store, g *Game) { goOf(g).Undo() }, nil},
		{"messages and names", func(t *testing.T, s *Store, g *Game) {
			g.Delivery.MessageIDs = append(g.Delivery.MessageIDs, "m9")
			g.Sides[0].Players[0].Name = "renamed"
			g.Undo = nil
		}, nil},
		{"stale version", func(t *testing.T, s *Store, g *Game) {
			other := *g
			other.State = engine.Own(goOf(g).Clone())
			play(t, goOf(&other), "C3")
			if err := s.UpdateGame(ctx, &other); err != nil {
				t.Fatal(err)
			}
			play(t, goOf(g), "E5")
		}, ErrConflict},
		{"version from the future", func(t *testing.T, s *Store, g *Game) { g.Version = 7 }, ErrConflict},
		{"game finished meanwhile", func(t *testing.T, s *Store, g *Game) {
			other := *g
			if err := s.FinishGame(ctx, &other, Archived{Result: "B+R", SGF: []byte("(;)")}); err != nil {
				t.Fatal(err)
			}
		}, ErrNotFound},
		{"game replaced meanwhile", func(t *testing.T, s *Store, g *Game) {
			if err := s.DeleteGame(ctx, g.ChannelID, g.Version); err != nil {
				t.Fatal(err)
			}
			n := newGame(t, g.ChannelID, "1", "2")
			if err := s.CreateGame(ctx, n); err != nil {
				t.Fatal(err)
			}
			g.Version = 1 // even a matching version must not touch another game
		}, ErrNotFound},
		{"players cannot change", func(t *testing.T, s *Store, g *Game) { g.Sides[1].Players[0] = human("3") }, ErrInvalid},
		{"nil engine game", func(t *testing.T, s *Store, g *Game) { g.State = nil }, ErrInvalid},
		{"corrupt record", func(t *testing.T, s *Store, g *Game) {
			rawPut(t, s, bucketGames, g.ChannelID, []byte("{not json"))
		}, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			g := newGame(t, "c1", "1", "2")
			play(t, goOf(g), "D4", "F6")
			g.Undo = &UndoRequest{By: 0, MoveCount: 2}
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			play(t, goOf(g), "C7")
			if err := s.UpdateGame(ctx, g); err != nil || g.Version != 2 {
				t.Fatalf("UpdateGame() = %v, version %d; want nil, 2", err, g.Version)
			}
			g, err := s.Game(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, s, g)
			before := rawGet(t, s, bucketGames, "c1")
			v := g.Version
			err = s.UpdateGame(ctx, g)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("UpdateGame() = %v, want %v", err, tt.want)
			}
			if err != nil {
				if after := rawGet(t, s, bucketGames, "c1"); string(after) != string(before) {
					t.Errorf("failed UpdateGame changed the record")
				}
				if g.Version != v {
					t.Errorf("failed UpdateGame changed Version to %d", g.Version)
				}
				if errors.Is(err, ErrCorrupt) {
					if err := s.QuarantineGame(ctx, "c1"); err != nil {
						t.Errorf("QuarantineGame(c1) = %v", err)
					}
				}
				return
			}
			if g.Version != v+1 {
				t.Errorf("Version = %d, want %d", g.Version, v+1)
			}
			got, err := s.Game(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, got, g)
		})
	}
}

func TestDeleteGame(t *testing.T) {
	tests := []struct {
		name    string
		channel string
		version uint64
		corrupt bool
		want    error
	}{
		{"current version", "c1", 1, false, nil},
		{"stale version", "c1", 2, false, ErrConflict},
		{"no game", "c2", 1, false, ErrNotFound},
		{"empty channel", "", 1, false, ErrInvalid},
		{"corrupt record", "c1", 1, true, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			if err := s.CreateGame(ctx, newGame(t, "c1", "1", "2")); err != nil {
				t.Fatal(err)
			}
			if tt.corrupt {
				rawPut(t, s, bucketGames, "c1", []byte(`[]`))
			}
			err := s.DeleteGame(ctx, tt.channel, tt.version)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("DeleteGame(%q, %d) = %v, want %v", tt.channel, tt.version, err, tt.want)
			}
			_, gerr := s.Game(ctx, "c1")
			switch {
			case err == nil && !errors.Is(gerr, ErrNotFound):
				t.Errorf("after DeleteGame, Game(c1) = %v, want ErrNotFound", gerr)
			case err != nil && !tt.corrupt && gerr != nil:
				t.Errorf("after failed DeleteGame, Game(c1) = %v", gerr)
			}
			if err == nil {
				if n := bucketLen(t, s, bucketGamesByPlayer); n != 0 {
					t.Errorf("DeleteGame left %d player index entries", n)
				}
			}
			if tt.corrupt {
				if err := s.QuarantineGame(ctx, "c1"); err != nil {
					t.Errorf("QuarantineGame(c1) = %v", err)
				}
			}
		})
	}
}

func TestCorruptRecords(t *testing.T) {
	illegal := func(t *testing.T) []byte {
		// A sound record whose moves do not replay: D4 twice.
		g := newGame(t, "bad", "1", "2")
		g.ID = "x"
		v, err := g.encode(3, t0)
		if err != nil {
			t.Fatal(err)
		}
		var r map[string]any
		json.Unmarshal(v, &r)
		r["game"].(map[string]any)["moves"] = []string{"B D4", "W D4"}
		v, _ = json.Marshal(r)
		return v
	}
	tests := []struct {
		name   string
		record func(t *testing.T) []byte
		cause  error // also in the chain, besides ErrCorrupt
	}{
		{"not JSON", func(*testing.T) []byte { return []byte("\x00\xff garbage") }, nil},
		{"truncated", func(t *testing.T) []byte {
			g := newGame(t, "bad", "1", "2")
			v, _ := g.encode(1, t0)
			return v[:len(v)/2]
		}, nil},
		{"moves do not replay", illegal, engine.ErrInvalidState},
		{"board size 40", func(t *testing.T) []byte {
			return []byte(`{"id":"x","channel":"bad","version":1,"black":{"user":"1"},"white":{"user":"2"},"game":{"size":40}}`)
		}, engine.ErrInvalidState},
		{"record of another channel", func(t *testing.T) []byte {
			g := newGame(t, "elsewhere", "1", "2")
			g.ID = "x"
			v, _ := g.encode(1, t0)
			return v
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			for _, ch := range []string{"a", "z"} {
				if err := s.CreateGame(ctx, newGame(t, ch, "1", "2")); err != nil {
					t.Fatal(err)
				}
			}
			rawPut(t, s, bucketGames, "bad", tt.record(t))
			_, err := s.Game(ctx, "bad")
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "channel bad") {
				t.Fatalf("Game(bad) = %v, want ErrCorrupt naming the channel", err)
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("Game(bad) = %v, want it to wrap %v", err, tt.cause)
			}
			for _, ch := range []string{"a", "z"} {
				if _, err := s.Game(ctx, ch); err != nil {
					t.Errorf("Game(%s) beside a corrupt record = %v", ch, err)
				}
			}
			games, err := s.ActiveGames(ctx)
			if len(games) != 2 || !errors.Is(err, ErrCorrupt) {
				t.Errorf("ActiveGames() = %d games, %v; want 2 and ErrCorrupt", len(games), err)
			}
			if err := s.CreateGame(ctx, newGame(t, "bad", "1", "2")); !errors.Is(err, ErrExists) {
				t.Errorf("CreateGame over a corrupt record = %v, want ErrExists", err)
			}
			if err := s.QuarantineGame(ctx, "bad"); err != nil {
				t.Fatalf("QuarantineGame(bad) = %v", err)
			}
			if n := bucketLen(t, s, bucketQuarantine); n != 1 {
				t.Errorf("quarantine holds %d records, want 1", n)
			}
			if err := s.CreateGame(ctx, newGame(t, "bad", "1", "2")); err != nil {
				t.Errorf("CreateGame after quarantine = %v", err)
			}
			if err := s.QuarantineGame(ctx, "a"); !errors.Is(err, ErrInvalid) {
				t.Errorf("QuarantineGame(sound game) = %v, want ErrInvalid", err)
			}
			if err := s.QuarantineGame(ctx, "none"); !errors.Is(err, ErrNotFound) {
				t.Errorf("QuarantineGame(none) = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestPlayerActiveGames(t *testing.T) {
	s := openTest(t)
	for _, g := range []*Game{
		newGame(t, "c1", "1", "2"),
		newGame(t, "c2", "2", "3"),
		{ChannelID: "c3", Sides: Sides(bot("weak"), human("1")), State: engine.Own(newEngine(t, 9))},
		newGame(t, "c4", "4", "4"), // a game against oneself
	} {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	g4, _ := s.Game(ctx, "c4")
	if err := s.DeleteGame(ctx, "c4", g4.Version); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		player string
		want   []string
	}{
		{"1", []string{"c1", "c3"}},
		{"2", []string{"c1", "c2"}},
		{"3", []string{"c2"}},
		{"bot:weak", []string{"c3"}},
		{"4", nil},
		{"", nil},
	}
	for _, tt := range tests {
		games, err := s.PlayerActiveGames(ctx, tt.player)
		if tt.player == "" {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("PlayerActiveGames(\"\") = %v, want ErrInvalid", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range games {
			got = append(got, g.ChannelID)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("PlayerActiveGames(%s) (-want +got):\n%s", tt.player, diff)
		}
	}
	all, err := s.ActiveGames(ctx)
	if err != nil || len(all) != 3 {
		t.Errorf("ActiveGames() = %d games, %v; want 3", len(all), err)
	}
}

func TestContextCancelled(t *testing.T) {
	s := openTest(t)
	c, cancel := context.WithCancel(ctx)
	cancel()
	g := newGame(t, "c1", "1", "2")
	if err := s.CreateGame(c, g); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateGame(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := s.Game(c, "c1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Game(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := s.Game(ctx, "c1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("cancelled CreateGame stored a game: %v", err)
	}
}

func TestAbortGame(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, s *Store, g *Game)
		want   error
	}{
		{"current", func(*testing.T, *Store, *Game) {}, nil},
		{"stale", func(t *testing.T, s *Store, g *Game) {
			other := *g
			if err := s.UpdateGame(ctx, &other); err != nil {
				t.Fatal(err)
			}
		}, ErrConflict},
		{"replaced by a game at the same version", func(t *testing.T, s *Store, g *Game) {
			if err := s.DeleteGame(ctx, g.ChannelID, g.Version); err != nil {
				t.Fatal(err)
			}
			if err := s.CreateGame(ctx, newGame(t, g.ChannelID, "1", "2")); err != nil {
				t.Fatal(err)
			}
		}, ErrNotFound},
		{"gone", func(t *testing.T, s *Store, g *Game) {
			if err := s.DeleteGame(ctx, g.ChannelID, g.Version); err != nil {
				t.Fatal(err)
			}
		}, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, g := openWithGame(t)
			tt.change(t, s, g)
			before := rawGet(t, s, bucketGames, "c1")
			err := s.AbortGame(ctx, g)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("AbortGame() = %v, want %v", err, tt.want)
			}
			after := rawGet(t, s, bucketGames, "c1")
			if err == nil && after != nil {
				t.Errorf("AbortGame left a record in the channel")
			}
			if err != nil && string(after) != string(before) {
				t.Errorf("failed AbortGame changed the channel")
			}
		})
	}
}

// TestMessageIDsBounded: however many boards a game posts, a write keeps
// only the newest MaxMessageIDs message IDs.
func TestMessageIDsBounded(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		{"none", 0},
		{"a few", MaxMessageIDs - 1},
		{"exactly the limit", MaxMessageIDs},
		{"a long game", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, g := openWithGame(t)
			var all []string
			for i := range tt.n {
				all = append(all, fmt.Sprintf("m%d", i))
			}
			g.Delivery.MessageIDs = all
			if err := s.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			got, err := s.Game(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			want := all[max(0, len(all)-MaxMessageIDs):]
			if len(want) == 0 {
				want = nil
			}
			if diff := cmp.Diff(want, got.Delivery.MessageIDs); diff != "" {
				t.Errorf("stored MessageIDs (-want +got):\n%s", diff)
			}
		})
	}
}
