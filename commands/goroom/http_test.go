package goroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
)

// sign returns the headers Discord sends with body at time ts.
func sign(priv ed25519.PrivateKey, body []byte, ts time.Time) http.Header {
	t := strconv.FormatInt(ts.Unix(), 10)
	h := http.Header{}
	h.Set("X-Signature-Timestamp", t)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(t), body...))))
	return h
}

func postSigned(t *testing.T, h http.Handler, header http.Header, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
	for k, v := range header {
		req.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// postCommand posts the slash command line from u, signed with priv, to h
// and returns the answer.
func postCommand(t *testing.T, tb *testApp, h http.Handler, priv ed25519.PrivateKey, u *discordgo.User, line string) *httptest.ResponseRecorder {
	t.Helper()
	data, _, err := commands.ParseSlash(line, goDefinitions(testPlayers{}.Levels()), nil)
	if err != nil {
		t.Fatal(err)
	}
	it := tb.interaction(u, channelID)
	it.Type, it.Data = discordgo.InteractionApplicationCommand, data
	body, _ := json.Marshal(it)
	return postSigned(t, h, sign(priv, body, tb.clk.Now()), body)
}

func TestHTTPSignatures(t *testing.T) {
	tb := newTestApp(t)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	h := tb.HTTPHandler(pub)
	ping := []byte(`{"id":"1","application_id":"1","type":1,"token":"t","version":1}`)
	now := tb.clk.Now()
	tampered := sign(priv, ping, now)
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		want   int
	}{
		{"valid ping", sign(priv, ping, now), ping, http.StatusOK},
		{"missing signature", http.Header{}, ping, http.StatusUnauthorized},
		{"wrong key", sign(otherPriv, ping, now), ping, http.StatusUnauthorized},
		{"stale timestamp", sign(priv, ping, now.Add(-10*time.Minute)), ping, http.StatusUnauthorized},
		{"future timestamp", sign(priv, ping, now.Add(10*time.Minute)), ping, http.StatusUnauthorized},
		{"tampered body", tampered, []byte(`{"id":"1","application_id":"1","type":2,"token":"t","version":1}`), http.StatusUnauthorized},
		{"bad hex", http.Header{"X-Signature-Ed25519": {"zz"}, "X-Signature-Timestamp": {"1"}}, ping, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := postSigned(t, h, tt.header, tt.body)
			if w.Code != tt.want {
				t.Fatalf("status = %d, want %d (%s)", w.Code, tt.want, w.Body)
			}
			if tt.want == http.StatusOK && strings.TrimSpace(w.Body.String()) != `{"type":1}` {
				t.Fatalf("PING answered %s, want PONG", w.Body)
			}
		})
	}
	if calls := tb.rec.take(); len(calls) != 0 {
		t.Fatalf("refused requests made %d Discord calls", len(calls))
	}
}

func TestHTTPCommandAndFiles(t *testing.T) {
	// Answers here never depend on the machine's speed.
	tb := newTestAppWith(t, testPlayers{}, func(o *commands.Options) { o.DeferAfter = time.Hour })
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	h := tb.HTTPHandler(pub)
	post := func(u *discordgo.User, line string) (map[string]any, []call) {
		t.Helper()
		w := postCommand(t, tb, h, priv, u, line)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d", line, w.Code)
		}
		var resp map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
			t.Fatalf("%s: answer %s: %v", line, w.Body, err)
		}
		tb.Wait() // the handler's follow-up calls
		return resp, tb.rec.take()
	}
	// Help has no files: the answer is in the HTTP response, ephemeral.
	resp, calls := post(ann, "/go help")
	if resp["type"] != float64(4) || len(calls) != 0 {
		t.Fatalf("help: %v, calls %v", resp, calls)
	}
	if d := resp["data"].(map[string]any); d["flags"] != float64(64) {
		t.Fatalf("help is not ephemeral: %v", d)
	}
	// A board has a PNG: deferred in the answer, then an edit with the file.
	resp, calls = post(ann, "/go bot level:first size:9")
	if resp["type"] != float64(5) || len(calls) != 1 || calls[0].Op != "edit" || len(calls[0].Message.Files) != 1 {
		t.Fatalf("bot game: %v, calls %v", resp, calls)
	}
	// An invalid move is refused in the answer itself.
	resp, calls = post(ann, "/go play move:Z1")
	if resp["type"] != float64(4) || len(calls) != 0 || !strings.Contains(resp["data"].(map[string]any)["content"].(string), "A1–J9") {
		t.Fatalf("bad move: %v, calls %v", resp, calls)
	}
}

// blockingPlayers think until released.
type blockingPlayers struct {
	testPlayers
	release chan struct{}
}

func (p blockingPlayers) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	<-p.release
	return p.testPlayers.GenMove(ctx, level, g)
}

// TestHTTPDefersSlowHandlers checks the 3-second rule: a handler that has
// not answered by the deadline is deferred in the HTTP answer, and its
// answer, when it comes, edits the deferral.
func TestHTTPDefersSlowHandlers(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // also when the test fails early: the handler must end
	tb := newTestAppWith(t, blockingPlayers{release: release}, func(o *commands.Options) { o.DeferAfter = time.Millisecond })
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	h := tb.HTTPHandler(pub)
	// The bot plays black and moves first: its handler blocks in GenMove
	// until released, after the HTTP answer has gone.
	w := postCommand(t, tb, h, priv, ann, "/go bot level:first size:9 color:white")
	if strings.TrimSpace(w.Body.String()) != `{"type":5}` {
		t.Fatalf("slow handler answered %s, want a deferral", w.Body)
	}
	free()
	tb.Wait()
	calls := tb.rec.take()
	if len(calls) != 1 || calls[0].Op != "edit" || !strings.Contains(calls[0].text(), "played **A1**") {
		t.Fatalf("after the deferral: %v", calls)
	}
}
