package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestServeBoardPage runs `gobot` in http mode on a loopback address with
// the Activity set up (DISCORD_CLIENT_SECRET): the server's root leads to
// the board page at /play/, nobody may sign in by name (not even from
// this computer: a proxy on it, such as nginx's proxy_pass to 127.0.0.1,
// makes every visitor look local), board messages carry the Open board
// button, the global commands include the Entry Point command, and the
// client secret appears in no output.
func TestServeBoardPage(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	addr := freeAddr(t)
	for k, v := range map[string]string{
		"DISCORD_TOKEN": d.Token, "DISCORD_API_URL": d.URL, "DISCORD_PUBLIC_KEY": d.Signer.PublicKeyHex(),
		"DISCORD_CLIENT_SECRET": discordtest.ClientSecret, "GOBOT_MODE": "http", "GOBOT_HTTP_ADDR": addr,
		"GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"), "GOBOT_LOG_LEVEL": "debug", "DISCORD_APP_ID": "",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr, done := goRun(ctx)
	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("gobot did not become healthy:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(base + "/?instance_id=i-1&frame_id=f")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/play/?instance_id=i-1&frame_id=f" {
		t.Errorf("GET / = %d to %q, want a redirect to the board page with the query", resp.StatusCode, loc)
	}
	resp, err = http.Get(base + "/play/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /play/ = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, err = http.Get(base + "/play/api/config")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	json.NewDecoder(resp.Body).Decode(&cfg)
	resp.Body.Close()
	if cfg["discord"] != true || cfg["local"] != false || cfg["client_id"] != d.AppID {
		t.Errorf("the page's configuration is %v, want the Activity and no sign-in by name", cfg)
	}
	// As nginx's proxy_pass http://127.0.0.1:PORT sends it on: from
	// 127.0.0.1, to Host 127.0.0.1:PORT, no X-Forwarded-For.
	resp, err = http.Post(base+"/play/api/local", "application/json", strings.NewReader(`{"name":"ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("signing in by name through a proxy on this host: %d, want 403", resp.StatusCode)
	}
	d.Endpoint = base + "/interactions"
	ch := d.GuildChannel("go")
	it := d.Command(ch, d.NewUser("ann"), "go", discordtest.Sub("bot", discordtest.Str("level", "beginner"), discordtest.Int("size", 9)))
	d.Do(it)
	found := false
	for _, b := range d.Settled(it).Buttons() {
		found = found || b.Label == "Open board"
	}
	if !found {
		t.Errorf("the board has no Open board button: %q", d.Settled(it).Text())
	}
	entry := false
	for _, c := range d.Commands("") {
		if m, _ := c.(map[string]any); m["type"] == float64(4) && m["handler"] == float64(2) {
			entry = true
		}
	}
	if !entry {
		t.Errorf("the global commands have no Entry Point command launched by Discord: %v", d.Commands(""))
	}
	stopRun(t, cancel, done, stderr)
	for name, text := range map[string]string{"stdout": stdout.String(), "logs": stderr.String()} {
		if strings.Contains(text, discordtest.ClientSecret) {
			t.Errorf("%s contain the client secret", name)
		}
	}
}
