package goroom

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// benchGame is a stored 19×19 game between ann and bob, 120 moves in.
func benchGame(b *testing.B, tb *testApp) *storage.Game {
	b.Helper()
	eg, err := engine.NewGame(engine.Config{Size: 19, Rules: engine.DefaultRules(), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		legal := eg.Legal()
		m := engine.PlaceAt(eg.ToPlay(), legal[(i*7919)%len(legal)])
		if err := eg.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	g := &storage.Game{ID: "1", ChannelID: channelID, Sides: storage.Sides(commands.UserPlayer(ann), commands.UserPlayer(bob)), State: engine.Own(eg)}
	if err := tb.store.CreateGame(context.Background(), g); err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkBoardMessage measures the answer to every move: the PNG of a
// 19×19 board, its alt text and the embed.
func BenchmarkBoardMessage(b *testing.B) {
	tb := newTestApp(b)
	g := benchGame(b, tb)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := boardMessage(g, time.Now(), "", false)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(m.Files[0].Data)))
	}
}

// BenchmarkMoveCommit measures a move through the rules and the store's
// version-checked write (load, play, commit), undone by the next iteration.
func BenchmarkMoveCommit(b *testing.B) {
	tb := newTestApp(b)
	benchGame(b, tb)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := tb.LoadGame(ctx, channelID)
		if err != nil {
			b.Fatal(err)
		}
		if i%2 == 0 {
			p := goOf(g).Legal()[0]
			if _, err := tb.apply(ctx, g, engine.PlaceAt(goOf(g).ToPlay(), p)); err != nil {
				b.Fatal(err)
			}
		} else {
			if err := takeBack(g, 1); err != nil {
				b.Fatal(err)
			}
			if err := tb.UpdateGame(ctx, g); err != nil {
				b.Fatal(err)
			}
		}
	}
}
