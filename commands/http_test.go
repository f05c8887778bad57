package commands

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
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
	data, _, err := parseSlash(line, Definitions(testPlayers{}.Levels()), nil)
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
	tb := newTestApp(t)
	tb.deferAfter = time.Hour // answers here never depend on the machine's speed
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
		tb.waitIdle() // the handler's follow-up calls
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

func TestRoutes(t *testing.T) {
	rt := NewRouter()
	var got string
	rt.Command("go/play", func(ctx context.Context, r *Request) error { got = "play"; return nil })
	rt.Component("game/{id}/pass/{move}", func(ctx context.Context, r *Request) error {
		got = "pass " + r.Param("id") + " " + r.Param("move")
		return nil
	})
	rt.Component("challenge/{id}/accept", func(ctx context.Context, r *Request) error { got = "accept " + r.Param("id"); return nil })
	tests := []struct {
		name    string
		it      *discordgo.Interaction
		want    string
		wantErr bool
	}{
		{"subcommand", &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{
			Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "play", Type: discordgo.ApplicationCommandOptionSubCommand}}}}, "play", false},
		{"unknown subcommand", &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{
			Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "fly", Type: discordgo.ApplicationCommandOptionSubCommand}}}}, "", true},
		{"button with params", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game/42/pass/7"}}, "pass 42 7", false},
		{"challenge", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "challenge/9/accept"}}, "accept 9", false},
		{"too many segments", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game/42/pass/7/8"}}, "", true},
		{"empty segment", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game//pass/7"}}, "", true},
		{"modal", &discordgo.Interaction{Type: discordgo.InteractionModalSubmit}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = ""
			err := rt.Dispatch(context.Background(), &Request{Interaction: tt.it})
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Dispatch = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
			if tt.wantErr && !errors.Is(err, ErrUnknown) {
				t.Fatalf("Dispatch error %v, want ErrUnknown", err)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err      error
		want     string
		expected bool
	}{
		{ErrNoGame, "There is no game in this channel", true},
		{engine.Refusal(fmt.Errorf("play: %w", engine.ErrSuperko)), "superko", true},
		{engine.Refusal(fmt.Errorf("play: %w", engine.ErrKo)), "Ko:", true},
		{UserErr(ErrNotChallenged, "Only @bob can answer."), "Only @bob can answer.", true},
		{ErrConflict, "at the same moment", true},
		{errors.New("disk on fire"), "something went wrong on my side", false},
		{context.DeadlineExceeded, "took too long", false},
	}
	for _, tt := range tests {
		got, expected := errorMessage(tt.err)
		if !strings.Contains(got, tt.want) || expected != tt.expected {
			t.Errorf("errorMessage(%v) = %q, %v; want %q, %v", tt.err, got, expected, tt.want, tt.expected)
		}
	}
}

func TestRedactPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/webhooks/1/secret-token/messages/@original", "/webhooks/1/…/messages/@original"},
		{"/interactions/5/secret-token/callback", "/interactions/5/…/callback"},
		{"/channels/5/messages", "/channels/5/messages"},
	}
	for _, tt := range tests {
		if got := redactPath(tt.in); got != tt.want {
			t.Errorf("redactPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRewriteTransport(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.Path }))
	defer srv.Close()
	c := &http.Client{Transport: RewriteTransport("https://discord.com/api/v9/", srv.URL+"/proxy/api/v10", nil)}
	resp, err := c.Get("https://discord.com/api/v9/gateway/bot")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "/proxy/api/v10/gateway/bot" {
		t.Fatalf("request went to %q, want /proxy/api/v10/gateway/bot", got)
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
	tb := newTestAppWith(t, blockingPlayers{release: release})
	tb.deferAfter = time.Millisecond
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	h := tb.HTTPHandler(pub)
	// The bot plays black and moves first: its handler blocks in GenMove
	// until released, after the HTTP answer has gone.
	w := postCommand(t, tb, h, priv, ann, "/go bot level:first size:9 color:white")
	if strings.TrimSpace(w.Body.String()) != `{"type":5}` {
		t.Fatalf("slow handler answered %s, want a deferral", w.Body)
	}
	free()
	tb.waitIdle()
	calls := tb.rec.take()
	if len(calls) != 1 || calls[0].Op != "edit" || !strings.Contains(calls[0].text(), "played **A1**") {
		t.Fatalf("after the deferral: %v", calls)
	}
}

func TestRESTRetries(t *testing.T) {
	tests := []struct {
		name    string
		method  string
		answers []int
		want    int // requests made
		wantErr bool
	}{
		{"rate limited, then ok", http.MethodPost, []int{429, 200}, 2, false},
		{"bad gateway on an edit, then ok", http.MethodPatch, []int{502, 200}, 2, false},
		{"bad gateway on a post is not repeated", http.MethodPost, []int{502, 200}, 1, true},
		{"service unavailable on an edit, then ok", http.MethodPatch, []int{503, 200}, 2, false},
		{"bad gateway on an edit, for ever", http.MethodPatch, []int{502}, 4, true},
		{"not found is final", http.MethodPatch, []int{404, 200}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				status := tt.answers[min(n, len(tt.answers)-1)]
				n++
				if status == 429 {
					w.Header().Set("Retry-After", "0.01")
					w.WriteHeader(status)
					io.WriteString(w, `{"message":"You are being rate limited.","retry_after":0.01,"global":false}`)
					return
				}
				w.WriteHeader(status)
				io.WriteString(w, `{"id":"5"}`)
			}))
			defer srv.Close()
			c := NewREST(srv.URL+"/api/v10", "secret-token", nil)
			var err error
			it := &discordgo.Interaction{ID: "1", AppID: "2", Token: "interaction-token"}
			if tt.method == http.MethodPost {
				_, err = c.Followup(context.Background(), it, &Message{Content: "x"})
			} else {
				_, err = c.EditOriginal(context.Background(), it, &Message{Content: "x"})
			}
			if n != tt.want || (err != nil) != tt.wantErr {
				t.Fatalf("%d requests, error %v; want %d requests, error %v", n, err, tt.want, tt.wantErr)
			}
			if auth != "Bot secret-token" {
				t.Errorf("Authorization %q", auth)
			}
			if err != nil && (strings.Contains(err.Error(), "secret-token") || strings.Contains(err.Error(), "interaction-token")) {
				t.Errorf("error %q shows a token", err)
			}
		})
	}
}
