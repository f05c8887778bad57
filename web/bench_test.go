package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gorilla/websocket"
)

// benchMove is the k-th move of a side in the benchmarks' games (19×19):
// black fills the odd rows from the bottom, white from the top, so no
// stone is ever captured.
func benchMove(k int, black bool) string {
	col := "ABCDEFGHJKLMNOPQRST"[k%19 : k%19+1]
	row := 1 + 2*(k/19)
	if !black {
		row = 19 - 2*(k/19)
	}
	return fmt.Sprintf("%s%d", col, row)
}

// watcher is a page's WebSocket in a benchmark: it signals each state it
// receives by move count.
type watcher struct {
	c    *websocket.Conn
	seen chan seen
	at   time.Time // when await's state arrived
}

// seen is a state a watcher received: its move count, and when.
type seen struct {
	moves int
	at    time.Time
}

func (e *env) watch(tb testing.TB, session, channel string) *watcher {
	tb.Helper()
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + Path + "/ws"
	c, _, err := websocket.DefaultDialer.Dial(u, http.Header{"Origin": {e.srv.URL}})
	if err != nil {
		tb.Fatal(err)
	}
	w := &watcher{c: c, seen: make(chan seen, 64)}
	hello, _ := json.Marshal(map[string]any{"t": "hello", "session": session})
	watch, _ := json.Marshal(map[string]any{"t": "watch", "channel": channel})
	c.WriteMessage(websocket.TextMessage, hello)
	c.WriteMessage(websocket.TextMessage, watch)
	go func() {
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				close(w.seen)
				return
			}
			var m struct {
				T    string `json:"t"`
				Game struct {
					Moves int `json:"moves"`
				} `json:"game"`
			}
			if json.Unmarshal(data, &m) == nil && m.T == "state" {
				select {
				case w.seen <- seen{m.Game.Moves, time.Now()}:
				default:
				}
			}
		}
	}()
	return w
}

// await waits until w has seen a state with n moves.
func (w *watcher) await(tb testing.TB, n int) {
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got, ok := <-w.seen:
			if !ok {
				tb.Fatal("a watcher's connection closed")
			}
			if got.moves >= n {
				w.at = got.at
				return
			}
		case <-timeout:
			tb.Fatalf("a watcher did not see move %d in 10 s", n)
		}
	}
}

// benchGames starts n 19×19 games between pairs of local players, each
// in a channel of its own.
func benchGames(tb testing.TB, e *env, n int) (channels []string, black, white []commands.WebUser) {
	ctx := context.Background()
	for i := range n {
		b, w := commands.ConsoleUser(fmt.Sprintf("b%d", i)), commands.ConsoleUser(fmt.Sprintf("w%d", i))
		ch := e.app.NewChannelID()
		res, id := e.app.Start(ctx, ch, b, commands.Start{Opponent: &w, Size: 19})
		if id == "" {
			tb.Fatalf("start: %+v", res)
		}
		if res := e.app.Answer(ctx, ch, w, id, true); res.Refused {
			tb.Fatalf("accept: %+v", res)
		}
		v, err := e.app.View(ctx, ch)
		if err != nil {
			tb.Fatal(err)
		}
		if v.Black.Players[0].ID != b.ID {
			b, w = w, b
		}
		channels, black, white = append(channels, ch), append(black, b), append(white, w)
	}
	return channels, black, white
}

// BenchmarkClickToOpponent: with 200 games in progress, each with both
// players' pages open, the time from a player's click (sent on the
// WebSocket) to the state with that move reaching the opponent's page.
// Reports p50 and p99.
func BenchmarkClickToOpponent(b *testing.B) {
	e := newEnv(b, Options{Local: true})
	const games = 200
	channels, black, white := benchGames(b, e, games)
	pages := make([][2]*watcher, games) // [black, white]
	for i, ch := range channels {
		pages[i] = [2]*watcher{
			e.watch(b, e.board.sign.token(session{UserID: black[i].ID, Name: black[i].Name, Local: true, Expires: time.Now().Add(time.Hour).Unix()}), ch),
			e.watch(b, e.board.sign.token(session{UserID: white[i].ID, Name: white[i].Name, Local: true, Expires: time.Now().Add(time.Hour).Unix()}), ch),
		}
		pages[i][0].await(b, 0)
		pages[i][1].await(b, 0)
	}
	moves := make([]int, games)
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		g := i % games
		n := moves[g]
		mover, opp := pages[g][n%2], pages[g][1-n%2]
		v, err := e.app.View(context.Background(), channels[g])
		if err != nil {
			b.Fatal(err)
		}
		seat := []string{"black", "white"}[n%2]
		msg, _ := json.Marshal(map[string]any{"t": "act", "id": i + 1, "channel": channels[g], "kind": "play", "point": benchMove(n/2, n%2 == 0),
			"game": v.ID, "version": v.Version, "seat": seat})
		start := time.Now()
		if err := mover.c.WriteMessage(websocket.TextMessage, msg); err != nil {
			b.Fatal(err)
		}
		opp.await(b, n+1)
		lat = append(lat, time.Since(start))
		moves[g]++
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkWatchers500: one game watched by 500 pages: the time from a
// move to the last of them receiving it (fan-out), and how much the
// process's heap grew with the 500 connections (the test's own 500
// WebSocket clients, in the same process, count in it).
func BenchmarkWatchers500(b *testing.B) {
	e := newEnv(b, Options{Local: true})
	channels, black, white := benchGames(b, e, 1)
	ch := channels[0]
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	ws := make([]*watcher, 500)
	for i := range ws {
		ws[i] = e.watch(b, e.board.sign.token(session{UserID: fmt.Sprint(1000 + i), Name: fmt.Sprint("w", i), Local: true, Expires: time.Now().Add(time.Hour).Unix()}), ch)
	}
	for _, w := range ws {
		w.await(b, 0)
	}
	if b.N > 180 {
		b.Fatalf("one game holds at most 180 of the benchmark's moves: run it with -benchtime 180x or fewer, not %d", b.N)
	}
	var lat, spread []time.Duration
	b.ResetTimer()
	for i := range b.N {
		v, _ := e.app.View(context.Background(), ch)
		u, seat := black[0], "black"
		if i%2 == 1 {
			u, seat = white[0], "white"
		}
		start := time.Now()
		res := e.app.Act(context.Background(), ch, u, commands.Action{Kind: commands.ActPlay, Point: benchMove(i/2, i%2 == 0), Game: v.ID, Version: v.Version, Seat: seat})
		if res.Refused {
			b.Fatalf("move %d: %s", i, res.Text)
		}
		first, last := time.Time{}, time.Time{}
		for _, w := range ws {
			w.await(b, i+1)
			if first.IsZero() || w.at.Before(first) {
				first = w.at
			}
			if w.at.After(last) {
				last = w.at
			}
		}
		lat = append(lat, last.Sub(start))
		spread = append(spread, last.Sub(first))
	}
	b.StopTimer()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	slices.Sort(lat)
	slices.Sort(spread)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-all-500-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-all-500-ms")
	b.ReportMetric(float64(spread[len(spread)/2].Microseconds())/1000, "p50-first-to-last-ms")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "heap-growth-MB")
}

// TestPageWeight: what a first visit transfers, gzip-compressed as gobot
// serves it: the page outside Discord, and inside Discord with the SDK's
// modules. At most 300 KB.
func TestPageWeight(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	get := func(name string) int {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+Path+"/"+name, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		n, _ := io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", name, resp.StatusCode)
		}
		return int(n)
	}
	page := 0
	for _, f := range []string{"", "app.css", "app.js", "board.js"} {
		page += get(f)
	}
	// The SDK's modules the page imports inside Discord: index.mjs and all
	// it imports.
	importRe := regexp.MustCompile(`(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]`)
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		data, err := fs.ReadFile(assets, "assets/"+p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range importRe.FindAllSubmatch(data, -1) {
			walk(path.Join(path.Dir(p), string(m[1])))
		}
	}
	walk("sdk/index.mjs")
	sdk := 0
	names := make([]string, 0, len(seen))
	for p := range seen {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		sdk += get(p)
	}
	t.Logf("first load, compressed: the page %d bytes; with the SDK (%d modules) inside Discord %d bytes", page, len(seen), page+sdk)
	if page+sdk > 300<<10 {
		t.Errorf("the first load inside Discord transfers %d bytes, more than 300 KB", page+sdk)
	}
}
