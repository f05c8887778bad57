package main

// The soak tests run the real gobot binary in http mode against the fake
// Discord and attack it. They are long and need a build, so they run only
// when asked, never with -short:
//
//	GOBOT_SOAK=1 nice -n 10 go test ./cmd/gobot/ -run 'TestSoak|TestSlowClientAttack' -v -timeout 30m
//
// GOBOT_SOAK_DURATION (a Go duration, default 2m) sets how long TestSoak
// runs; GOBOT_SOAK_BIN runs an existing gobot binary instead of building
// one (to measure an older build the same way).

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// soakOnly skips t unless the soak tests were asked for.
func soakOnly(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("GOBOT_SOAK") == "" {
		t.Skip("soak test: set GOBOT_SOAK=1 and run without -short (see soak_test.go)")
	}
}

// gobotBinary builds gobot into a temporary directory, or returns
// GOBOT_SOAK_BIN.
func gobotBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("GOBOT_SOAK_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "gobot")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// soakBot is a gobot process in http mode and the fake Discord it talks to.
type soakBot struct {
	t    *testing.T
	bin  string
	d    *discordtest.Server
	addr string
	db   string
	logs *os.File

	mu  sync.Mutex
	cmd *exec.Cmd
}

func newSoakBot(t *testing.T) *soakBot {
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
	sb := &soakBot{t: t, bin: gobotBinary(t), d: d, addr: freeAddr(t), db: filepath.Join(t.TempDir(), "gobot.db")}
	logs, err := os.Create(filepath.Join(t.TempDir(), "gobot.log"))
	if err != nil {
		t.Fatal(err)
	}
	sb.logs = logs
	d.Endpoint = "http://" + sb.addr + "/interactions"
	t.Cleanup(func() {
		sb.kill()
		if t.Failed() {
			if out, err := os.ReadFile(logs.Name()); err == nil {
				t.Logf("gobot's log (last 4 KB):\n%s", out[max(0, len(out)-4096):])
			}
		}
		logs.Close()
	})
	return sb
}

// start runs gobot and waits until /healthz answers 200.
func (sb *soakBot) start() {
	sb.t.Helper()
	cmd := exec.Command(sb.bin)
	cmd.Env = append(os.Environ(),
		"DISCORD_TOKEN="+sb.d.Token, "DISCORD_TOKEN_FILE=", "DISCORD_API_URL="+sb.d.URL, "DISCORD_APP_ID="+sb.d.AppID,
		"DISCORD_PUBLIC_KEY="+sb.d.Signer.PublicKeyHex(), "GOBOT_MODE=http", "GOBOT_HTTP_ADDR="+sb.addr,
		"GOBOT_DB="+sb.db, "GOBOT_GUILD_ID="+sb.d.GuildID, "GOBOT_LOG_LEVEL=warn", "GOBOT_DATABASE_URL=")
	cmd.Stdout, cmd.Stderr = io.Discard, sb.logs
	if err := cmd.Start(); err != nil {
		sb.t.Fatal(err)
	}
	sb.mu.Lock()
	sb.cmd = cmd
	sb.mu.Unlock()
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get("http://" + sb.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			sb.t.Fatalf("gobot did not become healthy within a minute (log %s)", sb.logs.Name())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends gobot with SIGKILL, as a crash or the OOM killer would.
func (sb *soakBot) kill() {
	sb.mu.Lock()
	cmd := sb.cmd
	sb.cmd = nil
	sb.mu.Unlock()
	if cmd != nil {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// rss is gobot's resident set size in bytes (0 when it is not running).
func (sb *soakBot) rss() int64 {
	sb.mu.Lock()
	cmd := sb.cmd
	sb.mu.Unlock()
	if cmd == nil {
		return 0
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// sampleRSS records gobot's peak RSS until ctx ends.
func (sb *soakBot) sampleRSS(ctx context.Context, peak *atomic.Int64) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		if r := sb.rss(); r > peak.Load() {
			peak.Store(r)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// slowClients runs n attackers until ctx ends: each sends signature headers
// that look right (a fresh timestamp, 64 bytes of hex) over a signature
// that is wrong, and trickles a 1 MiB body at 160 KiB/s, again and again.
// It returns how many requests were answered, by status.
func slowClients(ctx context.Context, addr string, n int) map[int]int {
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	chunk := []byte(strings.Repeat("x", 8<<10))
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				status := slowRequest(ctx, addr, chunk)
				mu.Lock()
				statuses[status]++
				mu.Unlock()
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	wg.Wait()
	return statuses
}

func slowRequest(ctx context.Context, addr string, chunk []byte) int {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return -1
	}
	defer conn.Close()
	go func() { <-ctx.Done(); conn.Close() }()
	fmt.Fprintf(conn, "POST /interactions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"X-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %d\r\n\r\n", addr, 1<<20, strings.Repeat("ab", 64), time.Now().Unix())
	// Read the answer beside the trickle: a server that refuses early
	// answers before the body is sent.
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for sent := 0; sent < 1<<20; sent += len(chunk) {
		select {
		case s := <-answered:
			return s
		case <-ctx.Done():
			return -1
		case <-tick.C:
		}
		if _, err := conn.Write(chunk); err != nil {
			break
		}
	}
	select {
	case s := <-answered:
		return s
	case <-time.After(15 * time.Second):
		return -1
	}
}

// TestSlowClientAttack: 500 slow clients trickling 1 MiB bodies with bad
// signatures for 30 s. gobot's RSS must stay under 100 MB, and the health
// check and a PING must still be answered meanwhile.
func TestSlowClientAttack(t *testing.T) {
	soakOnly(t)
	sb := newSoakBot(t)
	sb.start()
	time.Sleep(time.Second)
	before := sb.rss()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var peak atomic.Int64
	go sb.sampleRSS(ctx, &peak)
	var statuses map[int]int
	done := make(chan struct{})
	go func() { statuses = slowClients(ctx, sb.addr, 500); close(done) }()
	time.Sleep(10 * time.Second)
	resp, err := http.Get("http://" + sb.addr + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz under attack = %v, %v", resp, err)
	} else {
		resp.Body.Close()
	}
	pong, err := sb.d.Send(sb.d.Ping())
	<-done
	time.Sleep(5 * time.Second)
	after := sb.rss()
	t.Logf("RSS before the attack %.1f MB, peak during it %.1f MB, 5 s after it %.1f MB; answers by status %v", mb(before), mb(peak.Load()), mb(after), statuses)
	if err != nil || pong.Type != discordtest.CallbackPong {
		t.Logf("PING under attack: %v, %v (a 503 means every body-read slot was taken)", pong, err)
	}
	if peak.Load() > 100<<20 {
		t.Errorf("peak RSS %.1f MB, want under 100 MB", mb(peak.Load()))
	}
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// soakPlayer is a user playing the beginner bot in a channel of its own,
// at random points, and the moves gobot acknowledged to it.
type soakPlayer struct {
	ch    *discordtest.Channel
	u     discordtest.User
	moves []ackedMove
}

// ackedMove is a move gobot answered with a board: it must survive any crash.
type ackedMove struct {
	game, point string
}

// TestSoak runs gobot for GOBOT_SOAK_DURATION under 500 slow clients, a
// flood of health checks and 4 players, killing it with SIGKILL at random
// every 3 to 10 seconds and starting it again; after every kill the
// database must hold every move gobot acknowledged. It reports gobot's
// peak RSS (which must stay under 150 MB) and the p99 of /healthz and of
// the players' interactions.
func TestSoak(t *testing.T) {
	soakOnly(t)
	duration := 2 * time.Minute
	if s := os.Getenv("GOBOT_SOAK_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("GOBOT_SOAK_DURATION: %v", err)
		}
		duration = d
	}
	sb := newSoakBot(t)
	sb.start()
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()

	var peak atomic.Int64
	var lmu sync.Mutex
	var healthLat, playLat []time.Duration
	health503 := 0
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			sb.sampleRSS(ctx, &peak)
		}
	})
	wg.Go(func() { slowClients(ctx, sb.addr, 500) })
	for range 20 {
		wg.Go(func() {
			client := &http.Client{Timeout: 5 * time.Second}
			for ctx.Err() == nil {
				start := time.Now()
				resp, err := client.Get("http://" + sb.addr + "/healthz")
				if err != nil {
					time.Sleep(50 * time.Millisecond) // gobot is down: a kill
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lmu.Lock()
				if resp.StatusCode == http.StatusOK {
					healthLat = append(healthLat, time.Since(start))
				} else {
					health503++
				}
				lmu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	players := make([]*soakPlayer, 4)
	var pmu sync.Mutex // players' moves: read after a kill
	for i := range players {
		p := &soakPlayer{ch: sb.d.GuildChannel(fmt.Sprintf("soak%d", i)), u: sb.d.NewUser(fmt.Sprintf("player%d", i))}
		players[i] = p
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 1))
			refusals := 0
			for ctx.Err() == nil {
				var it *discordtest.Interaction
				point := ""
				switch {
				case refusals > 20:
					it = sb.d.Command(p.ch, p.u, "go", discordtest.Sub("resign"))
					refusals = 0
				default:
					point = fmt.Sprintf("%c%d", "ABCDEFGHJ"[r.IntN(9)], 1+r.IntN(9))
					it = sb.d.Command(p.ch, p.u, "go", discordtest.Sub("play", discordtest.Str("move", point)))
				}
				start := time.Now()
				reply, err := sb.d.Send(it)
				if err != nil || reply.Status != http.StatusOK {
					time.Sleep(100 * time.Millisecond) // down, or too busy
					continue
				}
				lmu.Lock()
				playLat = append(playLat, time.Since(start))
				lmu.Unlock()
				msg := settled(ctx, sb.d, it, reply)
				switch {
				case msg == nil:
					// Deferred and never finished: gobot was killed
					// while the bot thought. Not acknowledged.
				case strings.Contains(msg.Text(), "no game in this channel"):
					sb.d.Send(sb.d.Command(p.ch, p.u, "go", discordtest.Sub("bot", discordtest.Str("level", "beginner"), discordtest.Int("size", 9), discordtest.Str("color", "black"))))
				case msg.Ephemeral || point == "":
					refusals++
				default:
					if id := gameOf(msg); id != "" {
						pmu.Lock()
						p.moves = append(p.moves, ackedMove{game: id, point: point})
						pmu.Unlock()
					}
				}
			}
		})
	}

	kills, acked, lost := 0, 0, 0
	r := rand.New(rand.NewPCG(7, 7))
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(3*time.Second + time.Duration(r.Int64N(int64(7*time.Second)))):
		}
		if ctx.Err() != nil {
			break
		}
		sb.kill()
		kills++
		pmu.Lock()
		a, l := verifyAcked(t, sb.db, players)
		pmu.Unlock()
		acked, lost = a, lost+l
		sb.start()
	}
	wg.Wait()
	sb.kill()
	pmu.Lock()
	a, l := verifyAcked(t, sb.db, players)
	pmu.Unlock()
	acked, lost = a, lost+l

	slices.Sort(healthLat)
	slices.Sort(playLat)
	t.Logf("%v: %d kills -9, %d acknowledged moves, %d lost; peak RSS %.1f MB; /healthz %d answers, p50 %v, p99 %v, %d not 200; interactions %d, p99 %v; fake Discord problems %d",
		duration, kills, acked, lost, mb(peak.Load()), len(healthLat), pct(healthLat, 50), pct(healthLat, 99), health503, len(playLat), pct(playLat, 99), len(sb.d.Problems()))
	for _, p := range sb.d.Problems() {
		t.Logf("fake Discord: %s", p)
	}
	if lost > 0 {
		t.Errorf("%d acknowledged moves were lost", lost)
	}
	// The 100 MB target is TestSlowClientAttack's; here the players' games
	// and boards come on top (about 95 MB at the peak over 5 minutes), so
	// only a regression of another order fails.
	if peak.Load() > 150<<20 {
		t.Errorf("peak RSS %.1f MB, want under 150 MB", mb(peak.Load()))
	}
	if acked == 0 {
		t.Errorf("no move was acknowledged in %v", duration)
	}
}

// settled returns the message the player ends up with: the reply, or for a
// deferred reply (the bot thinking) the message it is edited into, or nil
// when that does not come within 10 seconds.
func settled(ctx context.Context, d *discordtest.Server, it *discordtest.Interaction, r *discordtest.Reply) *discordtest.Message {
	if r.Message == nil {
		return nil
	}
	if !r.Message.Deferred {
		return r.Message
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if m, ok := d.Original(it); ok && !m.Deferred {
			return &m
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// gameOf is the game ID in a board's buttons ("game/<id>/pass/<n>").
func gameOf(m *discordtest.Message) string {
	for _, b := range m.Buttons() {
		if rest, ok := strings.CutPrefix(b.CustomID, "game/"); ok {
			id, _, _ := strings.Cut(rest, "/")
			return id
		}
	}
	return ""
}

// verifyAcked opens the database of a killed gobot and checks that every
// acknowledged move is in its game, active or archived. It returns how many
// moves it checked and how many are missing.
func verifyAcked(t *testing.T, db string, players []*soakPlayer) (acked, lost int) {
	t.Helper()
	s, err := storage.Open(db, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatalf("after kill -9 the database does not open: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	games := map[string]*engine.Game{}
	load := func(ch, id string) *engine.Game {
		if g, ok := games[id]; ok {
			return g
		}
		var eg *engine.Game
		if g, err := s.Game(ctx, ch); err == nil && g.ID == id {
			eg = goOf(g)
		} else if a, err := s.ArchivedGame(ctx, id); err == nil {
			eg, _, _ = engine.ParseSGF(a.SGF)
		}
		games[id] = eg
		return eg
	}
	for _, p := range players {
		for _, m := range p.moves {
			acked++
			eg := load(p.ch.ID, m.game)
			found := false
			if eg != nil {
				for _, mv := range eg.Moves() {
					found = found || (mv.Kind == engine.Place && mv.Color == engine.Black && mv.Point.String() == m.point)
				}
			}
			if !found {
				lost++
				t.Errorf("acknowledged move %s in game %s (channel %s) is not in the database", m.point, m.game, p.ch.ID)
			}
		}
	}
	return acked, lost
}

// pct is the p-th percentile of sorted durations.
func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, len(d)*p/100)].Round(10 * time.Microsecond)
}
