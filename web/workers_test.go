package web

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestWorkersOnPostgres: two gobot workers share one PostgreSQL database;
// a page open on the second sees at once a move made on the first (the
// first's NOTIFY, the second's LISTEN), without polling.
func TestWorkersOnPostgres(t *testing.T) {
	url := pgtest.Database(t)
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	worker := func() (*commands.App, *storage.Postgres) {
		pg, err := storage.OpenPostgres(ctx, url, storage.Options{Kinds: testKinds()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		app, err := commands.New(commands.Options{AppID: d.AppID, Discord: commands.NewREST(d.URL, d.Token, nil), Store: pg, Rooms: []commands.NewRoom{goroom.New(firstPoint{}, nil)}, Logger: log, BotWorkers: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { app.Shutdown(context.Background()) })
		return app, pg
	}
	app1, _ := worker()
	app2, pg2 := worker()
	listening := make(chan string, 64)
	go pg2.ListenGames(ctx, func(ch string) { app2.Publish(ch); listening <- ch })
	board, err := New(Options{App: app2, Local: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer board.Close()
	srv := httptest.NewServer(board)
	defer srv.Close()
	e := &env{t: t, srv: srv, board: board}

	ann, bob := commands.ConsoleUser("ann"), commands.ConsoleUser("bob")
	ch := app1.NewChannelID()
	// Worker 1 starts the game; wait until worker 2 is listening (LISTEN
	// takes effect once its connection has run it).
	_, id := app1.Start(ctx, ch, ann, commands.Start{Opponent: &bob, Size: 9})
	if res := app1.Answer(ctx, ch, bob, id, true); res.Refused {
		t.Fatalf("accept: %s", res.Text)
	}
	select {
	case <-listening:
	case <-time.After(2 * time.Second):
		// The game was written before LISTEN took effect; the move below
		// comes seconds later.
	}
	w := e.watch(t, board.sign.token(session{UserID: bob.ID, Name: "bob", Local: true, Expires: time.Now().Add(time.Hour).Unix()}), ch)
	w.await(t, 0)
	v, err := app1.View(ctx, ch)
	if err != nil {
		t.Fatal(err)
	}
	mover, seat := ann, "black"
	if v.Black.Players[0].ID != ann.ID {
		mover = bob
	}
	start := time.Now()
	if res := app1.Act(ctx, ch, mover, commands.Action{Kind: commands.ActPlay, Point: "E5", Game: v.ID, Version: v.Version, Seat: seat}); res.Refused {
		t.Fatalf("move on worker 1: %s", res.Text)
	}
	w.await(t, 1)
	t.Logf("a move on worker 1 reached a page on worker 2 in %v", time.Since(start))
	if got, _ := app2.View(ctx, ch); got == nil || !strings.Contains(got.Board[4], "X") {
		t.Errorf("worker 2 does not show E5: %+v", got)
	}
}
