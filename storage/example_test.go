package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// Two handlers read the same version of a game and both try to write a
// move: the first wins, the second gets ErrConflict and changes nothing.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gobot-example-")
	defer os.RemoveAll(dir)
	s, err := storage.Open(filepath.Join(dir, "gobot.db"), storage.Options{Kinds: testKinds()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	eg, _ := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	g := &storage.Game{
		ChannelID: "1001", GuildID: "7",
		Sides: storage.Sides(storage.Player{UserID: "42", Name: "Honinbo"}, storage.Player{Level: "beginner"}),
		State: engine.Own(eg),
	}
	if err := s.CreateGame(ctx, g); err != nil {
		fmt.Println(err)
		return
	}

	first, _ := s.Game(ctx, "1001")
	second, _ := s.Game(ctx, "1001") // a double click
	goOf(first).Play(engine.PlaceAt(engine.Black, engine.Point{Col: 4, Row: 4}))
	fmt.Println("first:", s.UpdateGame(ctx, first))
	goOf(second).Play(engine.PlaceAt(engine.Black, engine.Point{Col: 3, Row: 3}))
	err = s.UpdateGame(ctx, second)
	fmt.Println("second conflicts:", errors.Is(err, storage.ErrConflict))

	now, _ := s.Game(ctx, "1001")
	fmt.Println("version", now.Version, "moves", goOf(now).Moves())
	// Output:
	// first: <nil>
	// second conflicts: true
	// version 2 moves [E5]
}

// A finished game leaves its channel for the archive, where a player's
// history is a range scan of an index.
func ExampleStore_FinishGame() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gobot-example-")
	defer os.RemoveAll(dir)
	s, _ := storage.Open(filepath.Join(dir, "gobot.db"), storage.Options{Kinds: testKinds()})
	defer s.Close()

	eg, _ := engine.NewGame(engine.Config{Size: 19, Rules: engine.DefaultRules()})
	g := &storage.Game{ChannelID: "1001", Sides: storage.Sides(storage.Player{UserID: "42"}, storage.Player{UserID: "43"}), State: engine.Own(eg)}
	s.CreateGame(ctx, g)
	goOf(g).Play(engine.ResignMove(engine.Black))
	err := s.FinishGame(ctx, g, storage.Archived{SGF: []byte("(;GM[1]SZ[19]RE[W+R])")})
	fmt.Println("finish:", err)

	_, err = s.Game(ctx, "1001")
	fmt.Println("channel free:", errors.Is(err, storage.ErrNotFound))
	hist, _ := s.PlayerGames(ctx, "43", 10)
	fmt.Println("history:", len(hist), hist[0].Result, hist[0].Winner)
	st, _ := s.PlayerStats(ctx, "43")
	fmt.Println("wins:", st.Wins, "losses:", st.Losses)
	// Output:
	// finish: <nil>
	// channel free: true
	// history: 1 W+R white
	// wins: 1 losses: 0
}
