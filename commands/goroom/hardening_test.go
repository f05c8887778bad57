package goroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
)

// TestLongInputNotEchoed: an option value of 200 KB is quoted in the error
// reply only by its first few dozen characters, so the reply stays within
// what Discord accepts.
func TestLongInputNotEchoed(t *testing.T) {
	long := "Q" + strings.Repeat("x", 200<<10)
	tb := newTestApp(t)
	tb.command(ann, "/go bot level:first size:9")
	str := func(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
	}
	sub := func(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordgo.ApplicationCommandInteractionData {
		return discordgo.ApplicationCommandInteractionData{Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
	}
	// Discord checks choices itself, but the bot must not rely on it.
	for _, data := range []discordgo.ApplicationCommandInteractionData{
		sub("play", str("move", long)),
		sub("play", str("move", "A"+strings.Repeat("9", 200<<10))),
		sub("challenge", &discordgo.ApplicationCommandInteractionDataOption{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: bob.ID}, str("color", long)),
		sub("challenge", &discordgo.ApplicationCommandInteractionDataOption{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: bob.ID}, str("ruleset", long)),
		sub("bot", str("level", long)),
		sub("bot", str("level", "first"), str("size", long)),
	} {
		it := tb.interaction(ann, channelID)
		it.Type = discordgo.InteractionApplicationCommand
		it.Data = data
		tb.Handle(context.Background(), it)
		line := fmt.Sprintf("%s %.40s", data.Options[0].Name, data.Options[0].Options[len(data.Options[0].Options)-1].Value)
		c := only(t, tb.rec.take())
		if c.Message == nil || !c.Message.Ephemeral {
			t.Fatalf("%.40s…: reply %q is not ephemeral", line, c.text())
		}
		if n := len(c.text()); n > 400 {
			t.Errorf("%.40s…: reply is %d bytes long, want the input quoted by its start only: %.200q…", line, n, c.text())
		}
	}
	c := only(t, tb.commandIn(ann, channelID, "/go play move:"+long))
	want := `I can't read "Qxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" as a point`
	if !strings.Contains(c.text(), want) {
		t.Errorf("reply = %.300q, want it to contain %q", c.text(), want)
	}
}

// httpBot is a test bot behind its HTTP endpoint with a fresh key pair.
func httpBot(t *testing.T) (*testApp, http.Handler, ed25519.PrivateKey) {
	tb := newTestApp(t)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return tb, tb.HTTPHandler(pub), priv
}

// TestHTTPReplayAnsweredOnce: four copies of one signed /go undo, sent at
// once and again later within the timestamp window, take back the moves
// once and all get the first answer.
func TestHTTPReplayAnsweredOnce(t *testing.T) {
	tb, h, priv := httpBot(t)
	tb.command(ann, "/go bot level:first size:9 rated:false") // a rated bot game has no undo
	for _, p := range []string{"E5", "G7", "C3"} {
		tb.command(ann, "/go play move:"+p)
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	before := g.State.MoveCount()
	data, _, err := commands.ParseSlash("/go undo", goDefinitions(testPlayers{}.Levels()), nil)
	if err != nil {
		t.Fatal(err)
	}
	it := tb.interaction(ann, channelID)
	it.Type = discordgo.InteractionApplicationCommand
	it.Data = data
	body, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	header := sign(priv, body, tb.clk.Now())
	answers := make([]string, 4)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			w := postSigned(t, h, header, body)
			answers[i] = fmt.Sprint(w.Code, " ", w.Body.String())
		})
	}
	wg.Wait()
	tb.clk.Advance(time.Minute)
	answers = append(answers, func() string { w := postSigned(t, h, header, body); return fmt.Sprint(w.Code, " ", w.Body.String()) }())
	tb.Wait()
	for i, a := range answers {
		if a != answers[0] {
			t.Errorf("copy %d answered %q, want the first answer %q", i, a, answers[0])
		}
	}
	g, err = tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.State.MoveCount(); got != before-2 {
		t.Errorf("after 5 copies of /go undo the game has %d moves, want %d (one undo of the bot's reply and ann's move)", got, before-2)
	}
}

// trickle is a request body that never ends: each Read waits, then gives
// one byte. It records whether anybody read from it.
type trickle struct {
	mu   sync.Mutex
	read int
	stop chan struct{}
}

func (tr *trickle) Read(p []byte) (int, error) {
	tr.mu.Lock()
	tr.read++
	tr.mu.Unlock()
	select {
	case <-tr.stop:
		return 0, io.EOF
	case <-time.After(10 * time.Millisecond):
	}
	p[0] = '{'
	return 1, nil
}

func (tr *trickle) reads() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.read
}

// TestHTTPRejectsOnHeaders: a missing or malformed signature or timestamp,
// a timestamp outside the window, or a declared body over the limit is
// refused before a byte of the body is read.
func TestHTTPRejectsOnHeaders(t *testing.T) {
	tb, h, _ := httpBot(t)
	now := tb.clk.Now()
	sig := strings.Repeat("ab", 64)
	ts := fmt.Sprint(now.Unix())
	for _, tt := range []struct {
		name   string
		header map[string]string
		length int64
		want   int
	}{
		{"no signature", map[string]string{"X-Signature-Timestamp": ts}, -1, http.StatusUnauthorized},
		{"no timestamp", map[string]string{"X-Signature-Ed25519": sig}, -1, http.StatusUnauthorized},
		{"signature not hex", map[string]string{"X-Signature-Ed25519": "zz" + sig[2:], "X-Signature-Timestamp": ts}, -1, http.StatusUnauthorized},
		{"signature too short", map[string]string{"X-Signature-Ed25519": sig[:64], "X-Signature-Timestamp": ts}, -1, http.StatusUnauthorized},
		{"timestamp not a number", map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": "soon"}, -1, http.StatusUnauthorized},
		{"stale timestamp", map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": fmt.Sprint(now.Add(-time.Hour).Unix())}, -1, http.StatusUnauthorized},
		{"future timestamp", map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": fmt.Sprint(now.Add(time.Hour).Unix())}, -1, http.StatusUnauthorized},
		{"declared too long", map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts}, commands.MaxBody + 1, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trickle{stop: make(chan struct{})}
			defer close(tr.stop)
			req := httptest.NewRequest(http.MethodPost, "/interactions", tr)
			req.ContentLength = tt.length
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			done := make(chan struct{})
			go func() { h.ServeHTTP(w, req); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("still reading the body of a request its headers condemn (%d reads)", tr.reads())
			}
			if w.Code != tt.want || tr.reads() != 0 {
				t.Errorf("status %d after %d body reads, want %d before any", w.Code, tr.reads(), tt.want)
			}
		})
	}
}

// TestHTTPCapsUnauthenticatedReads: large bodies (or bodies of unknown
// length) whose headers look right are read by at most maxLargeReads
// requests at once; the others are turned away with 503 instead of each
// holding a buffer. Meanwhile an interaction of Discord's usual size still
// gets through, on the slots kept for small bodies.
func TestHTTPCapsUnauthenticatedReads(t *testing.T) {
	tb, h, priv := httpBot(t)
	sig := strings.Repeat("ab", 64)
	ts := fmt.Sprint(tb.clk.Now().Unix())
	stop := make(chan struct{})
	var trickles []*trickle
	var codes []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := commands.MaxLargeReads + 20
	for range n {
		tr := &trickle{stop: stop}
		trickles = append(trickles, tr)
		req := httptest.NewRequest(http.MethodPost, "/interactions", tr)
		req.Header.Set("X-Signature-Ed25519", sig)
		req.Header.Set("X-Signature-Timestamp", ts)
		wg.Go(func() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			mu.Lock()
			codes = append(codes, w.Code)
			mu.Unlock()
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		turned := len(codes)
		mu.Unlock()
		if turned >= n-commands.MaxLargeReads || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	reading := 0
	for _, tr := range trickles {
		if tr.reads() > 0 {
			reading++
		}
	}
	mu.Lock()
	turned := append([]int(nil), codes...)
	mu.Unlock()
	ping := []byte(`{"id":"1","application_id":"1","type":1,"token":"t","version":1}`)
	if w := postSigned(t, h, sign(priv, ping, tb.clk.Now()), ping); w.Code != http.StatusOK {
		t.Errorf("a signed PING while large bodies trickle = %d %s, want 200", w.Code, w.Body)
	}
	close(stop)
	wg.Wait()
	if reading > commands.MaxLargeReads {
		t.Errorf("%d bodies were being read at once, want at most %d", reading, commands.MaxLargeReads)
	}
	if len(turned) < n-commands.MaxLargeReads {
		t.Fatalf("%d of %d requests were answered while the others trickled, want %d turned away", len(turned), n, n-commands.MaxLargeReads)
	}
	for _, c := range turned {
		if c != http.StatusServiceUnavailable {
			t.Errorf("a request over the cap got %d, want 503", c)
		}
	}
}

var _ = bytes.NewReader

// TestHTTPReplayAfterRestart: a signed copy of an interaction handled
// before a restart (a new handler, its replay cache empty) is refused as
// stale and changes nothing, though its timestamp is still in the window;
// one signed at the restart is served.
func TestHTTPReplayAfterRestart(t *testing.T) {
	tb, h, priv := httpBot(t)
	startGame(t, tb)
	data, _, err := commands.ParseSlash("/go pass", goDefinitions(testPlayers{}.Levels()), nil)
	if err != nil {
		t.Fatal(err)
	}
	it := tb.interaction(ann, channelID)
	it.Type, it.Data = discordgo.InteractionApplicationCommand, data
	body, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	header := sign(priv, body, tb.clk.Now())
	if w := postSigned(t, h, header, body); w.Code != http.StatusOK {
		t.Fatalf("first copy = %d %s", w.Code, w.Body)
	}
	tb.Wait()
	tb.command(bob, "/go play move:D4")
	tb.clk.Advance(time.Minute)
	restarted := tb.HTTPHandler(priv.Public().(ed25519.PublicKey))
	if w := postSigned(t, restarted, header, body); w.Code != http.StatusUnauthorized {
		t.Errorf("the copy after a restart = %d %s, want 401", w.Code, w.Body)
	}
	tb.Wait()
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil || g.State.MoveCount() != 2 {
		t.Fatalf("after the replay: %v, %d moves, want 2 (ann's pass once, bob's D4)", err, g.State.MoveCount())
	}
	it.ID = "900000000000000777"
	body, _ = json.Marshal(it)
	if w := postSigned(t, restarted, sign(priv, body, tb.clk.Now()), body); w.Code != http.StatusOK {
		t.Errorf("a new interaction after the restart = %d %s, want 200", w.Code, w.Body)
	}
}
