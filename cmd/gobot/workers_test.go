package main

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// cluster is the set-up of the multi-process tests: gobot workers in HTTP
// mode (this test binary run as gobot) sharing one PostgreSQL database, a
// round-robin front before them, and the fake Discord.
type cluster struct {
	t       *testing.T
	d       *discordtest.Server
	dbURL   string
	env     []string
	logDir  string
	workers []*worker
	front   *httptest.Server
	next    atomic.Uint64
}

// worker is one gobot process, restarted on the same address.
type worker struct {
	addr string
	log  string

	mu  sync.Mutex
	cmd *exec.Cmd
	up  bool
}

// newCluster starts n workers on dbURL behind a round-robin front. Their
// logs (level warn) go to a temporary directory; GOBOT_KEEP_LOGS names a
// directory to keep them in instead, and GOBOT_TEST_LOG_LEVEL another level
// (debug logs every interaction handled and every bot move made), for
// looking into a failure.
func newCluster(t *testing.T, d *discordtest.Server, dbURL string, n int, extraEnv ...string) *cluster {
	t.Helper()
	c := &cluster{t: t, d: d, dbURL: dbURL, logDir: t.TempDir()}
	if dir := os.Getenv("GOBOT_KEEP_LOGS"); dir != "" {
		c.logDir = dir
	}
	c.env = append(os.Environ(), workerEnv+"=1",
		"DISCORD_TOKEN="+d.Token, "DISCORD_TOKEN_FILE=", "DISCORD_APP_ID="+d.AppID, "DISCORD_API_URL="+d.URL,
		"DISCORD_PUBLIC_KEY="+hex.EncodeToString(d.Signer.Public), "GOBOT_MODE=http",
		"GOBOT_DATABASE_URL="+dbURL, "GOBOT_GUILD_ID="+d.GuildID, "GOBOT_LOG_LEVEL="+cmp.Or(os.Getenv("GOBOT_TEST_LOG_LEVEL"), "warn"), "GOBOT_LOG_FORMAT=text",
		"GOBOT_GTP_ENGINES=", "GOBOT_SHARD_ID=", "GOBOT_SHARD_COUNT=", "GOBOT_SHUTDOWN_TIMEOUT=2s")
	c.env = append(c.env, extraEnv...)
	for i := range n {
		w := &worker{addr: freeAddr(t), log: filepath.Join(c.logDir, fmt.Sprintf("worker%d.log", i))}
		c.workers = append(c.workers, w)
		c.start(w)
	}
	for _, w := range c.workers {
		c.waitUp(w)
	}
	c.front = httptest.NewServer(http.HandlerFunc(c.serve))
	d.Endpoint = c.front.URL + "/interactions"
	t.Cleanup(func() {
		c.front.Close()
		for _, w := range c.workers {
			c.kill(w)
		}
	})
	return c
}

// start launches w's process.
func (c *cluster) start(w *worker) {
	c.t.Helper()
	logf, err := os.OpenFile(w.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append([]string(nil), c.env...), "GOBOT_HTTP_ADDR="+w.addr)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("start worker: %v", err)
	}
	go func() { cmd.Wait(); logf.Close() }()
	w.mu.Lock()
	w.cmd, w.up = cmd, true
	w.mu.Unlock()
}

// waitUp waits until w answers GET /healthz.
func (c *cluster) waitUp(w *worker) {
	c.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + w.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	log, _ := os.ReadFile(w.log)
	c.t.Fatalf("worker on %s did not come up:\n%s", w.addr, log)
}

// kill SIGKILLs w's process: no shutdown, no goodbye, as a crash.
func (c *cluster) kill(w *worker) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cmd != nil && w.up {
		w.cmd.Process.Signal(syscall.SIGKILL)
		w.up = false
	}
}

// serve is the front: it passes each interaction to the next worker in
// turn, and to the one after when a worker does not take the connection
// (as a load balancer skips a dead backend). A worker dying with the
// request in hand is a 502, as behind a real balancer.
func (c *cluster) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for range 2 * len(c.workers) {
		wk := c.workers[c.next.Add(1)%uint64(len(c.workers))]
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, "http://"+wk.addr+r.URL.Path, strings.NewReader(string(body)))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(req)
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			continue
		}
		if err != nil {
			http.Error(w, "worker failed: "+err.Error(), http.StatusBadGateway)
			return
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
		resp.Body.Close()
		return
	}
	http.Error(w, "no worker up", http.StatusBadGateway)
}

// settle sends it and waits for its final answer (the original response,
// once no longer a deferral), for at most wait. ok is false when the
// answer never came (the worker died with it): the action was not
// acknowledged.
func settle(d *discordtest.Server, it *discordtest.Interaction, wait time.Duration) (text string, status int, ok bool) {
	r, err := d.Send(it)
	if err != nil {
		return "", 0, false
	}
	if r.Status != http.StatusOK {
		return "", r.Status, false
	}
	deadline := time.Now().Add(wait)
	for {
		if m, found := d.Original(it); found && !m.Deferred {
			return m.Text(), r.Status, true
		}
		if time.Now().After(deadline) {
			return "", r.Status, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// allPoints lists a board's points in a random order.
func allPoints(size int, rng *rand.Rand) []string {
	var out []string
	for row := range size {
		for col := range size {
			out = append(out, engine.Point{Col: col, Row: row}.String())
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// played reports whether text says u played point.
func played(text string, u discordtest.User, point string) bool {
	return strings.Contains(text, u.Mention()+" played **"+point+"**")
}

// drivenGame is one game a driver plays: its channel, its human players, and the
// moves each was told were played.
type drivenGame struct {
	ch      *discordtest.Channel
	size    int
	players []discordtest.User // the humans, in turn order (one for a bot game)
	bot     bool
	mu      sync.Mutex
	acked   map[string][]string // user ID -> points acknowledged, in order
	latency []time.Duration
}

// drive plays g until stop closes: each human in turn sends /go play on
// the next untried point; an answer saying the move was played is an
// acknowledged move.
func drive(d *discordtest.Server, g *drivenGame, rng *rand.Rand, stop <-chan struct{}) {
	points := allPoints(g.size, rng)
	turn := 0
	for _, p := range points {
		select {
		case <-stop:
			return
		default:
		}
		u := g.players[turn%len(g.players)]
		it := d.Command(g.ch, u, "go", discordtest.Sub("play", discordtest.Str("move", p)))
		start := time.Now()
		text, _, ok := settle(d, it, 20*time.Second)
		if !ok {
			continue // not acknowledged: a worker died with it
		}
		if played(text, u, p) {
			g.mu.Lock()
			g.acked[u.ID] = append(g.acked[u.ID], p)
			g.latency = append(g.latency, time.Since(start))
			g.mu.Unlock()
			turn++
		}
	}
}

// driveAll plays every game in its own goroutine (drive, seeded with seed)
// until stop closes; the function it returns waits for them.
func driveAll(d *discordtest.Server, games []*drivenGame, seed uint64, stop <-chan struct{}) (wait func()) {
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drive(d, g, rand.New(rand.NewPCG(uint64(i), seed)), stop)
		}()
	}
	return wg.Wait
}

// storedMoves returns the game in g's channel (nil once finished) and the
// points each colour played in it, active or finished.
func storedMoves(t *testing.T, s *storage.Postgres, g *drivenGame) (*storage.Game, map[engine.Color][]string) {
	t.Helper()
	ctx := context.Background()
	sg, err := s.Game(ctx, g.ch.ID)
	var eg *engine.Game
	switch {
	case errors.Is(err, storage.ErrNotFound):
		// The game ended (a loss on time, two passes and the scoring
		// phase, a resignation): its moves are in the archived record.
		done, err := s.ChannelGames(ctx, g.ch.ID, 1)
		if err != nil || len(done) == 0 {
			t.Errorf("game in %s: neither active nor archived (%v)", g.ch.Name, err)
			return nil, nil
		}
		a, err := s.ArchivedGame(ctx, done[0].ID)
		if err == nil {
			eg, _, err = engine.ParseSGF(a.SGF)
		}
		if err != nil {
			t.Errorf("archived game in %s: %v", g.ch.Name, err)
			return nil, nil
		}
	case err != nil:
		t.Errorf("game in %s: %v", g.ch.Name, err)
		return nil, nil
	default:
		eg = goOf(sg)
	}
	out := map[engine.Color][]string{}
	for _, m := range eg.Moves() {
		if m.Kind == engine.Place {
			out[m.Color] = append(out[m.Color], m.Point.String())
		}
	}
	return sg, out
}

// subsequence reports whether want appears in order within have.
func subsequence(want, have []string) bool {
	i := 0
	for _, h := range have {
		if i < len(want) && want[i] == h {
			i++
		}
	}
	return i == len(want)
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}
