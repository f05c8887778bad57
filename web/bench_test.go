package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
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

// p99 is the index of the 99th percentile in n sorted values (the nearest
// rank: of 100 values, the 99th, not the largest).
func p99(n int) int { return (n*99+99)/100 - 1 }

// watcher is a page's WebSocket in a benchmark: it signals each state it
// receives by move count.
type watcher struct {
	c    *websocket.Conn
	seen chan seen
	at   time.Time // when await's state arrived
}

// seen is a state a watcher received: its move count, and when.
type seen struct {
	moves    int
	at       time.Time
	serverMS int64 // when the server made the state
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
					Moves    int   `json:"moves"`
					ServerMS int64 `json:"server_ms"`
				} `json:"game"`
			}
			if json.Unmarshal(data, &m) == nil && m.T == "state" {
				select {
				case w.seen <- seen{m.Game.Moves, time.Now(), m.Game.ServerMS}:
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
	b.ReportMetric(float64(lat[p99(len(lat))].Microseconds())/1000, "p99-ms")
}

// BenchmarkWatchers500: one game watched by 500 pages. Each move is made
// through the App (as a click or a slash command makes it); reported are
// the time from the move's commit (the App's change feed) to the last of
// the 500 pages having its state (p50, p99 and the worst move), the same
// from the start of the move, the spread from the first page to the last,
// and how much gobot's memory (heap and goroutine stacks in use) grew: with
// the 500 pages open and their first state sent, and after the moves (which
// adds what the moves themselves keep: the board pictures' caches, and the
// fake Discord's copy of every board message posted).
//
// The pages are WebSockets opened by a child process (this test binary
// run as TestWatcherPages), so that the memory measured is gobot's alone.
// They share the machine's cores with gobot, and read each state whole
// but look only at its move count (a browser would draw it elsewhere).
// Run it with -benchtime 100x (one game holds at most 180 of its moves).
func BenchmarkWatchers500(b *testing.B) {
	const pages = 500
	if b.N > 180 {
		b.Fatalf("one game holds at most 180 of the benchmark's moves: run it with -benchtime 180x or fewer, not %d", b.N)
	}
	e := newEnv(b, Options{Local: true})
	channels, black, white := benchGames(b, e, 1)
	ch := channels[0]
	var mu sync.Mutex
	var commit time.Time // the first change of the game since it was zeroed
	stop := e.app.OnChange(func(c string) {
		mu.Lock()
		if c == ch && commit.IsZero() {
			commit = time.Now()
		}
		mu.Unlock()
	})
	defer stop()

	cfg := watcherPages{URL: "ws" + strings.TrimPrefix(e.srv.URL, "http") + Path + "/ws", Origin: e.srv.URL, Channel: ch}
	for i := range pages {
		cfg.Sessions = append(cfg.Sessions, e.board.sign.token(session{UserID: fmt.Sprint(1000 + i), Name: fmt.Sprint("w", i), Local: true, Expires: time.Now().Add(time.Hour).Unix()}))
	}
	in, _ := json.Marshal(cfg)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	child := exec.Command(os.Args[0], "-test.run=^TestWatcherPages$", "-test.bench=^$", "-test.count=1")
	child.Env = append(os.Environ(), "GOBOT_WATCHER_PAGES=1")
	stdin, err := child.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := child.Start(); err != nil {
		b.Fatal(err)
	}
	defer child.Wait()
	defer stdin.Close() // the child ends when its standard input does
	if _, err := stdin.Write(in); err != nil {
		b.Fatal(err)
	}
	// The child prints "n first last" once all its pages have a state with
	// n moves: when the first and the last of them got it, in Unix
	// nanoseconds (both processes read the same clock).
	type reached struct {
		moves       int
		first, last time.Time
	}
	lines := make(chan reached, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var r reached
			var first, last int64
			if _, err := fmt.Sscan(sc.Text(), &r.moves, &first, &last); err != nil {
				fmt.Fprintf(os.Stderr, "watcher pages: %q\n", sc.Text())
				return
			}
			r.first, r.last = time.Unix(0, first), time.Unix(0, last)
			lines <- r
		}
	}()
	await := func(n int) reached {
		select {
		case r, ok := <-lines:
			if !ok {
				b.Fatalf("the watcher pages ended before all had move %d", n)
			}
			if r.moves != n {
				b.Fatalf("the watcher pages reached move %d, want %d", r.moves, n)
			}
			return r
		case <-time.After(30 * time.Second):
			b.Fatalf("the watcher pages did not all get move %d in 30 s", n)
		}
		panic("unreachable")
	}
	await(0)
	runtime.GC()
	var open runtime.MemStats // the 500 pages open, each with the game's state
	runtime.ReadMemStats(&open)

	var fromCommit, fromMove, spread []time.Duration
	b.ResetTimer()
	for i := range b.N {
		v, err := e.app.View(context.Background(), ch)
		if err != nil {
			b.Fatal(err)
		}
		u, seat := black[0], "black"
		if i%2 == 1 {
			u, seat = white[0], "white"
		}
		mu.Lock()
		commit = time.Time{}
		mu.Unlock()
		start := time.Now()
		res := e.app.Act(context.Background(), ch, u, commands.Action{Kind: commands.ActPlay, Point: benchMove(i/2, i%2 == 0), Game: v.ID, Version: v.Version, Seat: seat})
		if res.Refused {
			b.Fatalf("move %d: %s", i, res.Text)
		}
		r := await(i + 1)
		mu.Lock()
		c := commit
		mu.Unlock()
		fromCommit = append(fromCommit, r.last.Sub(c))
		fromMove = append(fromMove, r.last.Sub(start))
		spread = append(spread, r.last.Sub(r.first))
	}
	b.StopTimer()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for _, l := range [][]time.Duration{fromCommit, fromMove, spread} {
		slices.Sort(l)
	}
	b.ReportMetric(ms(fromCommit[len(fromCommit)/2]), "p50-ms")
	b.ReportMetric(ms(fromCommit[p99(len(fromCommit))]), "p99-ms")
	b.ReportMetric(ms(fromCommit[len(fromCommit)-1]), "max-ms")
	b.ReportMetric(ms(fromMove[len(fromMove)/2]), "p50-from-move-ms")
	b.ReportMetric(ms(spread[len(spread)/2]), "p50-first-to-last-ms")
	mb := func(a, b uint64) float64 { return float64(int64(a)-int64(b)) / (1 << 20) }
	b.ReportMetric(mb(open.HeapInuse+open.StackInuse, before.HeapInuse+before.StackInuse), "mem-pages-open-MB")
	b.ReportMetric(mb(after.HeapInuse+after.StackInuse, before.HeapInuse+before.StackInuse), "mem-growth-MB")
	b.ReportMetric(mb(after.HeapInuse, before.HeapInuse), "heap-growth-MB")
	b.ReportMetric(mb(after.StackInuse, before.StackInuse), "stack-growth-MB")
}

// watcherPages is what BenchmarkWatchers500 tells its child process: where
// to connect, which channel to watch, and a session for each page.
type watcherPages struct {
	URL, Origin, Channel string
	Sessions             []string
}

// TestWatcherPages is BenchmarkWatchers500's pages, run by it in a child
// process (a test run skips it). It reads a watcherPages on its standard
// input, opens the pages, and prints "n first last" once every page has
// a state with n moves (first and last: when the first and the last page
// got it, in Unix nanoseconds), until its standard input ends.
func TestWatcherPages(t *testing.T) {
	if os.Getenv("GOBOT_WATCHER_PAGES") == "" {
		t.Skip("BenchmarkWatchers500's pages, in its child process")
	}
	var cfg watcherPages
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	type progress struct {
		pages       int
		first, last int64
	}
	moves := map[int]*progress{}
	// got records that a page has every state up to n moves, which it had
	// up to from.
	got := func(from, n int) {
		now := time.Now().UnixNano()
		mu.Lock()
		defer mu.Unlock()
		for k := from + 1; k <= n; k++ {
			p := moves[k]
			if p == nil {
				p = &progress{first: now}
				moves[k] = p
			}
			p.pages++
			p.last = now
			if p.pages == len(cfg.Sessions) {
				fmt.Printf("%d %d %d\n", k, p.first, p.last)
				delete(moves, k)
			}
		}
	}
	movesKey := []byte(`"moves":`)
	for _, s := range cfg.Sessions {
		c, _, err := websocket.DefaultDialer.Dial(cfg.URL, http.Header{"Origin": {cfg.Origin}})
		if err != nil {
			t.Fatal(err)
		}
		hello, _ := json.Marshal(map[string]any{"t": "hello", "session": s})
		watch, _ := json.Marshal(map[string]any{"t": "watch", "channel": cfg.Channel})
		c.WriteMessage(websocket.TextMessage, hello)
		c.WriteMessage(websocket.TextMessage, watch)
		go func() {
			var buf bytes.Buffer
			seen := -1
			for {
				_, r, err := c.NextReader()
				if err != nil {
					fmt.Fprintf(os.Stderr, "a watcher page's connection ended: %v\n", err)
					os.Exit(1)
				}
				buf.Reset()
				buf.ReadFrom(r)
				data := buf.Bytes()
				if !bytes.HasPrefix(data, []byte(`{"t":"state"`)) {
					continue
				}
				// The game's own move count (a recent move's number is "n").
				i := bytes.Index(data, movesKey)
				if i < 0 {
					continue
				}
				n := 0
				for _, d := range data[i+len(movesKey):] {
					if d < '0' || d > '9' {
						break
					}
					n = 10*n + int(d-'0')
				}
				if n > seen {
					got(seen, n)
					seen = n
				}
			}
		}()
	}
	io.Copy(io.Discard, io.MultiReader(dec.Buffered(), os.Stdin)) // until the benchmark is done
	os.Exit(0)                                                    // without closing the pages: the benchmark has measured
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
