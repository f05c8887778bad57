package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// BenchmarkHealthz measures GET /healthz on a store of 100,000 active
// games (GOBOT_BENCH_GAMES to change it) while the deep check runs in the
// background, and reports the p99 of the requests.
//
//	nice -n 10 go test ./commands/ -run '^$' -bench Healthz -benchtime 2000x
func BenchmarkHealthz(b *testing.B) {
	n := 100_000
	if s := os.Getenv("GOBOT_BENCH_GAMES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	store := healthStore(b, n)
	h := NewHealth(HealthOptions{Ping: store.Ping, Deep: store.CheckPages, Every: time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx) // the deep check runs over and over meanwhile: the worst case
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		lat = append(lat, time.Since(t))
		if w.Code != http.StatusOK {
			b.Fatalf("GET /healthz = %d %s", w.Code, w.Body)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
}

// healthStore returns a store of n active 9×9 games of 10 moves.
func healthStore(b *testing.B, n int) *storage.Store {
	path := filepath.Join(b.TempDir(), "bench.db")
	var kinds game.Kinds
	kinds.Register(engine.Kind{})
	store, err := storage.Open(path, storage.Options{Kinds: &kinds})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 64 {
		wg.Go(func() {
			for i := range work {
				eg, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules(), Seed: int64(i)})
				if err != nil {
					b.Error(err)
					return
				}
				for _, p := range eg.Legal()[:10] {
					if eg.Play(engine.PlaceAt(eg.ToPlay(), p)) != nil {
						break
					}
				}
				g := &storage.Game{ChannelID: fmt.Sprint(100000000 + i), Sides: storage.Sides(storage.Player{UserID: fmt.Sprint(1000 + i%5000)},
					storage.Player{UserID: fmt.Sprint(9000 + i)}), State: engine.Own(eg)}
				if err := store.CreateGame(context.Background(), g); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	fi, _ := os.Stat(path)
	b.Logf("%d games stored in %v (%d MB)", n, time.Since(start).Round(time.Second), fi.Size()>>20)

	// The deep check of the file, once, for the report.
	t0 := time.Now()
	if err := store.CheckPages(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Logf("deep check (CheckPages) of %d games: %v", n, time.Since(t0).Round(time.Millisecond))
	return store
}
