package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gorilla/websocket"
)

// fakeGateway is the least of Discord that gateway mode needs: the gateway
// lookup, command registration, the interaction callback, and a websocket
// that says hello, reads the identify, sends READY and then one
// INTERACTION_CREATE.
type fakeGateway struct {
	t           *testing.T
	srv         *httptest.Server
	interaction []byte
	shards      int // what GET /gateway/bot recommends

	mu        sync.Mutex
	identify  map[string]any
	callbacks [][]byte
	paths     []string
	got       chan struct{}
}

func newFakeGateway(t *testing.T, interaction []byte) *fakeGateway {
	f := &fakeGateway{t: t, interaction: interaction, shards: 1, got: make(chan struct{}, 1)}
	up := websocket.Upgrader{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v10/gateway", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		json.NewEncoder(w).Encode(map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
	})
	mux.HandleFunc("GET /api/v10/gateway/bot", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		json.NewEncoder(w).Encode(map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws", "shards": f.shards,
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})
	})
	// The existing global commands, read to keep an Entry Point: none.
	mux.HandleFunc("GET /api/v10/applications/{app}/commands", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		io.WriteString(w, "[]")
	})
	mux.HandleFunc("PUT /api/v10/applications/{app}/commands", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		io.WriteString(w, "[]")
	})
	mux.HandleFunc("POST /api/v10/interactions/{id}/{token}/callback", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.callbacks = append(f.callbacks, body)
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		select {
		case f.got <- struct{}{}:
		default:
		}
	})
	mux.HandleFunc("GET /ws/", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			t.Errorf("websocket upgrade: %v", err)
			return
		}
		defer c.Close()
		send := func(v any) bool { return c.WriteJSON(v) == nil }
		if !send(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}}) {
			return
		}
		var id map[string]any
		if err := c.ReadJSON(&id); err != nil {
			t.Errorf("read identify: %v", err)
			return
		}
		f.mu.Lock()
		// Keep the first identify (op 2): a reconnect under load sends a
		// resume (op 6), which carries no shard or intents.
		if op, _ := id["op"].(float64); op == 2 && f.identify == nil {
			f.identify = id
		}
		f.mu.Unlock()
		if !send(map[string]any{"op": 0, "t": "READY", "s": 1, "d": map[string]any{
			"v": 10, "session_id": "fake-session", "resume_gateway_url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws",
			"user": map[string]any{"id": "100000000000000001", "username": "gobot", "bot": true}, "guilds": []any{},
			"application": map[string]any{"id": "100000000000000001", "flags": 0},
		}}) {
			return
		}
		var it any
		json.Unmarshal(f.interaction, &it)
		if !send(map[string]any{"op": 0, "t": "INTERACTION_CREATE", "s": 2, "d": it}) {
			return
		}
		for { // heartbeats until the bot disconnects
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGateway) record(r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
	f.mu.Unlock()
}

// TestServeGatewayMode runs `gobot` in its default gateway mode: discordgo's
// gateway lookup goes to DISCORD_API_URL, no privileged intent is asked for,
// an interaction arriving on the websocket is answered through REST, and
// cancellation stops the bot cleanly.
func TestServeGatewayMode(t *testing.T) {
	const token = "MTAwMDAwMDAwMDAwMDAwMDAx.Fake.gateway-test-token"
	help := []byte(`{"id":"300000000000000001","application_id":"100000000000000001","type":2,"token":"interaction-token",
		"version":1,"guild_id":"300000000000000002","channel_id":"300000000000000003","context":0,
		"member":{"user":{"id":"300000000000000004","username":"ann"},"permissions":"0","roles":[]},
		"data":{"id":"300000000000000005","name":"go","type":1,"options":[{"name":"help","type":1}]}}`)
	f := newFakeGateway(t, help)
	for k, v := range map[string]string{
		"DISCORD_TOKEN": token, "DISCORD_APP_ID": "100000000000000001", "DISCORD_API_URL": f.srv.URL + "/api/v10",
		"GOBOT_MODE": "gateway", "GOBOT_HTTP_ADDR": "", "GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"),
		"GOBOT_LOG_LEVEL": "debug", "GOBOT_GUILD_ID": "",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr, done := goRun(ctx)
	select {
	case <-f.got:
	case code := <-done:
		t.Fatalf("gobot exited with %d:\n%s", code, stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("no interaction callback:\n%s", stderr.String())
	}
	stopRun(t, cancel, done, stderr)

	f.mu.Lock()
	defer f.mu.Unlock()
	var cb struct {
		Type int `json:"type"`
		Data struct {
			Flags  int `json:"flags"`
			Embeds []struct {
				Title string `json:"title"`
			} `json:"embeds"`
		} `json:"data"`
	}
	if len(f.callbacks) != 1 || json.Unmarshal(f.callbacks[0], &cb) != nil || cb.Type != 4 || cb.Data.Flags != 64 || len(cb.Data.Embeds) != 1 {
		t.Fatalf("callbacks %s, want one private help message", f.callbacks)
	}
	d, _ := f.identify["d"].(map[string]any)
	if intents, _ := d["intents"].(float64); int(intents)&(1<<1|1<<8|1<<15) != 0 {
		t.Errorf("identify asks for privileged intents: %v", intents)
	}
	for _, p := range f.paths {
		if !strings.HasSuffix(p, "auth=Bot "+token) {
			t.Errorf("REST call %q without the bot token", p)
		}
	}
	if !strings.Contains(strings.Join(f.paths, "\n"), "PUT /api/v10/applications/100000000000000001/commands") {
		t.Errorf("commands not registered globally: %v", f.paths)
	}
	for name, text := range map[string]string{"stdout": stdout.String(), "logs": stderr.String()} {
		if bytes.Contains([]byte(text), []byte("gateway-test-token")) {
			t.Errorf("%s contain the token", name)
		}
	}
}

// TestServeShards: the shard count comes from GET /gateway/bot when unset,
// and a recommendation of more than one shard without a shared database
// stops start-up with what to do, before registering the commands; with PostgreSQL each process identifies
// as its own shard.
func TestServeShards(t *testing.T) {
	const token = "MTAwMDAwMDAwMDAwMDAwMDAx.Fake.gateway-test-token"
	f := newFakeGateway(t, []byte(`{}`))
	f.shards = 3
	env := map[string]string{
		"DISCORD_TOKEN": token, "DISCORD_APP_ID": "100000000000000001", "DISCORD_API_URL": f.srv.URL + "/api/v10",
		"GOBOT_MODE": "gateway", "GOBOT_HTTP_ADDR": "", "GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"),
		"GOBOT_GUILD_ID": "", "GOBOT_SHARD_ID": "", "GOBOT_SHARD_COUNT": "", "GOBOT_DATABASE_URL": "",
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	var stdout, stderr logtest.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if code := run(ctx, nil, strings.NewReader(""), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "discord asks for 3 gateway shards") || !strings.Contains(stderr.String(), "GOBOT_DATABASE_URL") {
		t.Fatalf("three recommended shards on bbolt: exit %d, stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(strings.Join(f.paths, "\n"), "GET /api/v10/gateway/bot") {
		t.Errorf("no GET /gateway/bot: %v", f.paths)
	}
	// The shards are asked for before the commands are registered and the
	// invite links printed: a start that stops there leaves neither.
	if strings.Contains(stdout.String(), "Invite") || strings.Contains(strings.Join(f.paths, "\n"), "/commands") {
		t.Errorf("a start stopped by its shards printed %q and called %v", stdout.String(), f.paths)
	}

	t.Setenv("GOBOT_DATABASE_URL", pgtest.Database(t))
	t.Setenv("GOBOT_SHARD_ID", "2")
	sctx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() { done <- run(sctx, nil, strings.NewReader(""), &stdout, &stderr) }()
	deadline := time.After(time.Minute)
	for identified := false; !identified; {
		select {
		case code := <-done:
			t.Fatalf("gobot exited with %d:\n%s", code, stderr.String())
		case <-deadline:
			t.Fatalf("no identify:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
			f.mu.Lock()
			identified = f.identify != nil
			f.mu.Unlock()
		}
	}
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("gobot exited with %d:\n%s", code, stderr.String())
	}
	f.mu.Lock()
	d, _ := f.identify["d"].(map[string]any)
	f.mu.Unlock()
	if sh, _ := d["shard"].([]any); len(sh) != 2 || sh[0] != 2.0 || sh[1] != 3.0 {
		t.Errorf("identify shard %v, want [2 3]", d["shard"])
	}
}
