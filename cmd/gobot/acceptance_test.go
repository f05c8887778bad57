package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestAcceptanceManyWorkers is the multi-process acceptance test of
// several gobot workers on one PostgreSQL: three workers in HTTP mode
// behind a round-robin front, the fake Discord sending signed
// interactions, 30 games played at once (24 against the bot on every
// board size, 6 between people) and 5 challenges nobody answers, while a
// worker is SIGKILLed and restarted every few seconds. Afterwards: every
// move a player was told was played is stored, every bot move owed is
// made (no game waits for the bot) and announced at most once, and every
// expired challenge was closed exactly once. It takes about 90 s (the
// shortest challenge lifetime is a minute), so it runs only with
// GOBOT_ACCEPTANCE=1 and without -short, by hand, without the race
// detector (whose slowdown the kill schedule does not leave room for); it
// is not in .ci/run, which runs the README's test command (see
// docs/operations.md).
func TestAcceptanceManyWorkers(t *testing.T) {
	if testing.Short() || os.Getenv("GOBOT_ACCEPTANCE") == "" {
		t.Skip("the multi-process acceptance test takes about 90 s: GOBOT_ACCEPTANCE=1 go test ./cmd/gobot -run TestAcceptanceManyWorkers")
	}
	dbURL := pgtest.Database(t)
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true, WaitTimeout: 2 * time.Minute})
	c := newCluster(t, d, dbURL, 3, "GOBOT_CHALLENGE_TTL=1m", "GOBOT_MAX_SEARCHES=2")
	store, err := storage.OpenPostgres(context.Background(), dbURL, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rng := rand.New(rand.NewPCG(1, 2))

	// Challenges nobody answers: they expire after a minute.
	type open struct {
		ch  *discordtest.Channel
		msg string
	}
	var challenges []open
	for i := range 5 {
		ch := d.GuildChannel(fmt.Sprintf("lobby%d", i))
		a, b := d.NewUser(fmt.Sprintf("asker%d", i)), d.NewUser(fmt.Sprintf("shy%d", i))
		it := d.Command(ch, a, "go", discordtest.Sub("challenge", discordtest.UserOpt("opponent", b), discordtest.Int("size", 9)))
		for attempt := 0; ; attempt++ {
			if text, _, ok := settle(d, it, 20*time.Second); ok && strings.Contains(text, b.Mention()) {
				break
			}
			if attempt == 5 {
				t.Fatalf("challenge %d was never posted", i)
			}
			it = d.Command(ch, a, "go", discordtest.Sub("challenge", discordtest.UserOpt("opponent", b), discordtest.Int("size", 9)))
		}
		m, _ := d.Original(it)
		challenges = append(challenges, open{ch, m.ID})
	}
	expireAt := time.Now().Add(time.Minute)

	// 30 games: 24 against the bot on 9×9, 13×13 and 19×19, 6 between
	// people, started at once.
	games := startGames(t, d, 30, 24)

	// Play, killing a worker every few seconds, until the challenges have
	// expired and been swept (each worker sweeps when it starts).
	stop := make(chan struct{})
	playing := driveAll(d, games, 7, stop)
	kills := 0
	for time.Now().Before(expireAt.Add(5 * time.Second)) {
		time.Sleep(3 * time.Second)
		w := c.workers[rng.IntN(len(c.workers))]
		c.kill(w)
		kills++
		time.Sleep(time.Second)
		c.start(w)
		c.waitUp(w)
	}
	close(stop)
	playing()

	// No game is stuck: every owed bot move gets made.
	deadline := time.Now().Add(time.Minute)
	for {
		q, err := store.BotQueue(context.Background())
		if err == nil && len(q) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bot moves still owed a minute after the faults stopped: %+v (%v)", q, err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	var acked, botMoves, latencies = 0, 0, []time.Duration(nil)
	for _, g := range games {
		sg, moves := storedMoves(t, store, g)
		if moves == nil {
			continue
		}
		for i, u := range g.players {
			color := engine.Black
			if i == 1 {
				color = engine.White
			}
			acked += len(g.acked[u.ID])
			if !subsequence(g.acked[u.ID], moves[color]) {
				t.Errorf("%s: %s was told of moves %v, but the stored game has %v", g.ch.Name, u.Username, g.acked[u.ID], moves[color])
			}
		}
		latencies = append(latencies, g.latency...)
		if !g.bot {
			continue
		}
		if sg != nil && sg.BotToMove() { // (a finished game owes nothing)
			t.Errorf("%s: the bot still owes a move", g.ch.Name)
		}
		// Each bot move is announced at most once (a worker that loses
		// the version check stays silent).
		said := "gobot (beginner) played **"
		announced := map[string]int{}
		for _, m := range d.Public(g.ch.ID) {
			text := m.Text()
			for rest := text; strings.Contains(rest, said); {
				_, after, _ := strings.Cut(rest, said)
				p, _, _ := strings.Cut(after, "**")
				announced[p]++
				rest = after
			}
		}
		times := map[string]int{}
		for _, p := range moves[engine.White] {
			times[p]++
		}
		for p, n := range announced {
			if n > times[p] {
				t.Errorf("%s: the bot's move %s was announced %d times, played %d", g.ch.Name, p, n, times[p])
				for _, m := range d.Public(g.ch.ID) {
					if strings.Contains(m.Text(), said+p+"**") {
						t.Logf("message %s (interaction %q, created %v, %d edits): %q", m.ID, m.InteractionID, m.Created.Format("15:04:05.000"), m.Edits, m.Text())
					}
				}
			}
		}
		botMoves += len(moves[engine.White])
	}
	if acked < 10 {
		t.Errorf("only %d moves acknowledged in all: the load did not run", acked)
	}

	// Every expired challenge was closed exactly once.
	for i, ch := range challenges {
		closed := 0
		for _, call := range d.Calls() {
			if call.Method == http.MethodPatch && call.Path == "/channels/"+ch.ch.ID+"/messages/"+ch.msg && call.Status/100 == 2 {
				closed++
			}
		}
		m, _ := d.Message(ch.msg)
		if closed != 1 || !strings.Contains(m.Text(), "expired") {
			t.Errorf("challenge %d: closed %d times, message %q; want once, expired", i, closed, m.Text())
		}
	}
	for _, p := range d.Problems() {
		if crashArtifact(p) {
			t.Logf("fake Discord (expected of a crash): %s", p)
			continue
		}
		t.Errorf("fake Discord: %s", p)
	}
	t.Logf("%d workers killed and restarted; %d moves acknowledged, %d bot moves; p50 %v, p99 %v",
		kills, acked, botMoves, percentile(latencies, 0.5), percentile(latencies, 0.99))
}

// crashArtifact reports whether a problem the fake Discord recorded is what
// a SIGKILLed worker leaves, not a mistake of the bot: a request cut short,
// or a follow-up through the token of an interaction the worker committed
// but died before answering, or a read of that interaction's answer
// (Discord refuses both, and the bot falls back to posting the board, or
// naming the move in the next answer).
func crashArtifact(problem string) bool {
	return strings.Contains(problem, "unreadable body") ||
		strings.Contains(problem, "follow-up before the interaction was acknowledged") ||
		strings.Contains(problem, "the interaction has no original response (acknowledged with type 0)")
}

// startGames starts n games at once, the first bots of them against the
// bot (level beginner, the player black), the others between two people
// (a challenge, accepted); sizes cycle through 9, 13 and 19.
func startGames(t *testing.T, d *discordtest.Server, n, bots int) []*drivenGame {
	t.Helper()
	games := make([]*drivenGame, n)
	var wg sync.WaitGroup
	for i := range n {
		ch := d.GuildChannel(fmt.Sprintf("game%02d", i))
		g := &drivenGame{ch: ch, size: []int{9, 13, 19}[i%3], acked: map[string][]string{}}
		games[i] = g
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i < bots {
				u := d.NewUser(fmt.Sprintf("player%02d", i))
				g.players, g.bot = []discordtest.User{u}, true
				start := d.Command(ch, u, "go", discordtest.Sub("bot", discordtest.Str("level", "beginner"), discordtest.Int("size", g.size), discordtest.Str("color", "black")))
				if _, _, ok := settle(d, start, 30*time.Second); !ok {
					t.Errorf("bot game %d did not start", i)
				}
				return
			}
			a, b := d.NewUser(fmt.Sprintf("black%02d", i)), d.NewUser(fmt.Sprintf("white%02d", i))
			g.players = []discordtest.User{a, b}
			it := d.Command(ch, a, "go", discordtest.Sub("challenge", discordtest.UserOpt("opponent", b), discordtest.Int("size", g.size), discordtest.Str("color", "black")))
			if _, _, ok := settle(d, it, 30*time.Second); !ok {
				t.Errorf("challenge for game %d was not posted", i)
				return
			}
			m, _ := d.Original(it)
			accept, found := m.Button("accept")
			if !found {
				t.Errorf("challenge for game %d has no Accept button: %q", i, m.Text())
				return
			}
			if _, _, ok := settle(d, d.Click(b, m, accept.CustomID), 30*time.Second); !ok {
				t.Errorf("game %d was not accepted", i)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return games
}

// TestWorkersThroughput measures acknowledged moves per second and their
// p99 latency with one and with three workers on one PostgreSQL, on this
// machine, with the load of the acceptance test (no faults), and reports
// the ratio. It is a measurement, not a check, so it runs only when asked:
//
//	GOBOT_BENCH_WORKERS=1 go test ./cmd/gobot -run TestWorkersThroughput -v
func TestWorkersThroughput(t *testing.T) {
	if os.Getenv("GOBOT_BENCH_WORKERS") == "" {
		t.Skip("set GOBOT_BENCH_WORKERS=1 to measure 1 against 3 workers")
	}
	const load = 20 * time.Second
	rate := map[int]float64{}
	for _, n := range []int{1, 3} {
		dbURL := pgtest.Database(t)
		d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
		c := newCluster(t, d, dbURL, n, "GOBOT_MAX_SEARCHES=2")
		games := startGames(t, d, 30, 24)
		stop := make(chan struct{})
		playing := driveAll(d, games, 11, stop)
		time.Sleep(load)
		close(stop)
		playing()
		var lat []time.Duration
		for _, g := range games {
			lat = append(lat, g.latency...)
		}
		rate[n] = float64(len(lat)) / load.Seconds()
		t.Logf("%d worker(s): %d moves in %v = %.1f moves/s, p50 %v, p99 %v",
			n, len(lat), load, rate[n], percentile(lat, 0.5), percentile(lat, 0.99))
		for _, w := range c.workers {
			c.kill(w)
		}
	}
	t.Logf("3 workers / 1 worker: %.2f× the moves per second", rate[3]/rate[1])
}
