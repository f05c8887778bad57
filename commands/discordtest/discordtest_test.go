package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"
)

func TestSigner(t *testing.T) {
	s, err := NewSigner()
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"type":1}`)
	ts := time.Unix(1700000000, 0)
	sig, stamp := s.Sign(body, ts)
	if stamp != "1700000000" {
		t.Errorf("timestamp = %q, want 1700000000", stamp)
	}
	raw, err := hex.DecodeString(sig)
	if err != nil {
		t.Fatalf("signature %q is not hex: %v", sig, err)
	}
	tests := []struct {
		name string
		msg  []byte
		want bool
	}{
		{"timestamp then body", append([]byte(stamp), body...), true},
		{"body alone", body, false},
		{"other timestamp", append([]byte("1700000001"), body...), false},
		{"other body", append([]byte(stamp), `{"type":2}`...), false},
	}
	for _, tt := range tests {
		if got := ed25519.Verify(s.Public, tt.msg, raw); got != tt.want {
			t.Errorf("%s: Verify = %v, want %v", tt.name, got, tt.want)
		}
	}
	req, err := s.Request("http://127.0.0.1/i", body, ts)
	if err != nil {
		t.Fatal(err)
	}
	if req.Header.Get("X-Signature-Ed25519") != sig || req.Header.Get("X-Signature-Timestamp") != stamp {
		t.Errorf("Request headers = %v, want the signature and timestamp", req.Header)
	}
	if len(s.PublicKeyHex()) != 64 {
		t.Errorf("PublicKeyHex() = %q, want 64 hex digits", s.PublicKeyHex())
	}
}

// rest sends one REST request to the fake as the bot would.
func rest(t *testing.T, s *Server, method, path string, body any, files ...Attachment) (int, map[string]any) {
	t.Helper()
	var (
		data  []byte
		ctype string
	)
	if body != nil {
		js, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		data, ctype = js, "application/json"
		if len(files) > 0 {
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", `form-data; name="payload_json"`)
			h.Set("Content-Type", "application/json")
			p, _ := w.CreatePart(h)
			p.Write(js)
			for i, f := range files {
				fw, _ := w.CreateFormFile(fmt.Sprintf("files[%d]", i), f.Filename)
				fw.Write(f.Data)
			}
			w.Close()
			data, ctype = buf.Bytes(), w.FormDataContentType()
		}
	}
	req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Authorization", "Bot "+s.Token)
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(out) > 0 && out[0] == '{' {
		json.Unmarshal(out, &m)
	}
	return resp.StatusCode, m
}

var pngBytes = []byte("\x89PNG\r\n\x1a\n fake image bytes")

func board(content string) map[string]any {
	return map[string]any{
		"content": content,
		"embeds":  []any{map[string]any{"title": "Black to play", "image": map[string]any{"url": "attachment://board.png"}}},
		"components": []any{map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 2, "style": 2, "label": "Pass", "custom_id": "game/1/pass"},
			map[string]any{"type": 2, "style": 4, "label": "Resign", "custom_id": "game/1/resign"},
		}}},
		"attachments": []any{map[string]any{"id": "0", "filename": "board.png", "description": "A 9×9 board"}},
	}
}

func TestRESTMessages(t *testing.T) {
	s := NewServer(t, Options{})
	ch := s.GuildChannel("general")

	status, msg := rest(t, s, "POST", "/channels/"+ch.ID+"/messages", board("move 1"), Attachment{Filename: "board.png", Data: pngBytes})
	if status != http.StatusOK {
		t.Fatalf("create message: HTTP %d %v", status, msg)
	}
	id, _ := msg["id"].(string)
	m, ok := s.Message(id)
	if !ok {
		t.Fatalf("message %q not recorded", id)
	}
	if png, ok := m.PNG(); !ok || png.Description != "A 9×9 board" || png.Filename != "board.png" {
		t.Errorf("attachment = %+v, want board.png with its description", m.Attachments)
	}
	if b, ok := m.Button("pass"); !ok || b.CustomID != "game/1/pass" {
		t.Errorf("Button(pass) = %+v, %v", b, ok)
	}
	if !strings.Contains(m.Text(), "Black to play") {
		t.Errorf("Text() = %q, want the embed title", m.Text())
	}

	// Keep the attachment, drop the buttons.
	status, _ = rest(t, s, "PATCH", "/channels/"+ch.ID+"/messages/"+id, map[string]any{
		"content": "game over", "components": []any{}, "attachments": []any{map[string]any{"id": m.Attachments[0].ID}},
	})
	if status != http.StatusOK {
		t.Fatalf("edit: HTTP %d", status)
	}
	m, _ = s.Message(id)
	if m.Content != "game over" || len(m.Buttons()) != 0 || len(m.Attachments) != 1 || m.Edits != 1 {
		t.Errorf("after edit: %+v", m)
	}

	status, th := rest(t, s, "POST", "/channels/"+ch.ID+"/threads", map[string]any{"name": "alice vs bob", "type": 11, "auto_archive_duration": 10080})
	if status != http.StatusCreated {
		t.Fatalf("start thread: HTTP %d %v", status, th)
	}
	if threads := s.Threads(ch.ID); len(threads) != 1 || threads[0].Name != "alice vs bob" || threads[0].ID != th["id"] {
		t.Errorf("Threads() = %+v, want the new thread", threads)
	}
	if status, app := rest(t, s, "GET", "/applications/@me", nil); status != http.StatusOK || app["id"] != s.AppID {
		t.Errorf("GET /applications/@me = %d %v", status, app)
	}
	if status, _ := rest(t, s, "GET", "/users/@me", nil); status != http.StatusOK {
		t.Errorf("GET /users/@me = %d", status)
	}
	cmds := []any{map[string]any{"name": "go", "description": "Play Go", "type": 1, "contexts": []any{0, 1}, "integration_types": []any{0, 1},
		"options": []any{map[string]any{"type": 1, "name": "pass", "description": "Pass your turn"}}}}
	if status, _ := rest(t, s, "PUT", "/applications/"+s.AppID+"/guilds/"+s.GuildID+"/commands", cmds); status != http.StatusOK {
		t.Errorf("PUT guild commands = %d", status)
	}
	if got := s.Commands(s.GuildID); len(got) != 1 {
		t.Errorf("Commands() = %v, want the /go command", got)
	}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("problems: %q", p)
	}
}

func TestRESTProblems(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		path       func(s *Server, ch *Channel) string
		body       any
		files      []Attachment
		wantStatus int
		wantIn     string
		needsSpec  bool
	}{
		{"content is a number", "POST", msgs, map[string]any{"content": 5}, nil, http.StatusBadRequest, "schema", true},
		{"button without custom id type", "POST", msgs, map[string]any{"components": []any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": "red", "label": "x", "custom_id": "a"}}}}}, nil, http.StatusBadRequest, "schema", true},
		{"content too long", "POST", msgs, map[string]any{"content": strings.Repeat("x", 4001)}, nil, http.StatusBadRequest, "schema", true},
		{"not an API path", "GET", func(*Server, *Channel) string { return "/guilds/1/go-games" }, nil, nil, http.StatusNotFound, "not in Discord's API", true},
		{"unknown channel", "POST", func(*Server, *Channel) string { return "/channels/42/messages" }, map[string]any{"content": "hi"}, nil, http.StatusNotFound, "Unknown Channel", false},
		{"empty message", "POST", msgs, map[string]any{"content": ""}, nil, http.StatusBadRequest, "empty", false},
		{"ephemeral channel message", "POST", msgs, map[string]any{"content": "hi", "flags": 64}, nil, http.StatusBadRequest, "ephemeral", false},
		{"duplicate custom id", "POST", msgs, map[string]any{"components": []any{map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 2, "style": 1, "label": "a", "custom_id": "x"}, map[string]any{"type": 2, "style": 1, "label": "b", "custom_id": "x"}}}}}, nil, http.StatusBadRequest, "duplicated", false},
		{"embed names a missing file", "POST", msgs, map[string]any{"embeds": []any{map[string]any{"image": map[string]any{"url": "attachment://board.png"}}}}, nil, http.StatusBadRequest, "names no attachment", false},
		{"attachment without file", "POST", msgs, board("x"), nil, http.StatusBadRequest, "neither an uploaded", false},
		{"follow-up for unknown interaction", "POST", func(s *Server, _ *Channel) string { return "/webhooks/" + s.AppID + "/nope?wait=true" }, map[string]any{"content": "hi"}, nil, http.StatusNotFound, "Unknown Webhook", false},
		{"pings everyone", "POST", msgs, map[string]any{"content": "gg @everyone"}, nil, http.StatusBadRequest, "ping", false},
		{"pings everyone by parse", "POST", msgs, map[string]any{"content": "gg @here", "allowed_mentions": map[string]any{"parse": []any{"everyone"}}}, nil, http.StatusBadRequest, "ping", false},
		{"not implemented", "DELETE", func(s *Server, ch *Channel) string { return "/channels/" + ch.ID }, nil, nil, http.StatusNotImplemented, "does not implement", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer(t, Options{RecordOnly: true})
			if tt.needsSpec && s.Spec() == nil {
				t.Skip("needs the OpenAPI spec")
			}
			ch := s.GuildChannel("general")
			status, _ := rest(t, s, tt.method, tt.path(s, ch), tt.body, tt.files...)
			if status != tt.wantStatus {
				t.Errorf("HTTP %d, want %d", status, tt.wantStatus)
			}
			p := s.Problems()
			if len(p) == 0 || !strings.Contains(strings.Join(p, "\n"), tt.wantIn) {
				t.Errorf("Problems() = %q, want one mentioning %q", p, tt.wantIn)
			}
			if len(s.Public(ch.ID)) != 0 {
				t.Errorf("a refused request created a message")
			}
		})
	}
}

func msgs(_ *Server, ch *Channel) string { return "/channels/" + ch.ID + "/messages" }

// TestThreadArchive: the bot archives a thread it started, as its
// creator may without Manage Threads; a message posted in it unarchives
// it; locking it needs Manage Threads, which the bot was not given.
func TestThreadArchive(t *testing.T) {
	s := NewServer(t, Options{RecordOnly: true})
	ch := s.GuildChannel("general")
	_, th := rest(t, s, "POST", "/channels/"+ch.ID+"/threads", map[string]any{"name": "alice vs bob", "type": 11, "auto_archive_duration": 10080})
	id, _ := th["id"].(string)
	archived := func() bool { return s.Threads(ch.ID)[0].Archived }
	if status, _ := rest(t, s, "PATCH", "/channels/"+id, map[string]any{"archived": true}); status != http.StatusOK || !archived() {
		t.Errorf("archive the bot's thread: HTTP %d, archived %v; want 200, archived", status, archived())
	}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("problems after archiving: %q", p)
	}
	rest(t, s, "POST", "/channels/"+id+"/messages", map[string]any{"content": "hi"})
	if archived() {
		t.Errorf("a message in the archived thread left it archived")
	}
	if status, _ := rest(t, s, "PATCH", "/channels/"+id, map[string]any{"locked": true}); status != http.StatusForbidden {
		t.Errorf("lock the thread without Manage Threads: HTTP %d, want 403", status)
	}
	if p := s.Problems(); len(p) != 1 || !strings.Contains(p[0], "Manage Threads") {
		t.Errorf("Problems() = %q, want the lock refused for Manage Threads", p)
	}
}

func TestRESTAuthorization(t *testing.T) {
	s := NewServer(t, Options{RecordOnly: true})
	ch := s.GuildChannel("general")
	req, _ := http.NewRequest("POST", s.URL+"/channels/"+ch.ID+"/messages", strings.NewReader(`{"content":"hi"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bot wrong")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(s.Public(ch.ID)) != 0 {
		t.Errorf("wrong token: HTTP %d, %d messages; want 401 and none", resp.StatusCode, len(s.Public(ch.ID)))
	}
}

func TestSpecValidation(t *testing.T) {
	spec, reason, err := LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	if spec == nil {
		t.Skip(reason)
	}
	tests := []struct {
		name, method, path string
		body               string
		wantErr            bool
	}{
		{"message", "POST", "/channels/1/messages", `{"content":"hi","allowed_mentions":{"parse":["users"]}}`, false},
		{"message bad mentions", "POST", "/channels/1/messages", `{"content":"hi","allowed_mentions":{"parse":["everyone-please"]}}`, true},
		{"webhook edit", "PATCH", "/webhooks/1/tok/messages/@original", `{"content":"x","components":[]}`, false},
		{"webhook edit embeds object", "PATCH", "/webhooks/1/tok/messages/@original", `{"embeds":{"title":"x"}}`, true},
		{"callback pong", "POST", "/interactions/1/tok/callback", `{"type":1}`, false},
		{"callback message", "POST", "/interactions/1/tok/callback", `{"type":4,"data":{"content":"hi","flags":64}}`, false},
		{"callback unknown type", "POST", "/interactions/1/tok/callback", `{"type":42}`, true},
		{"autocomplete", "POST", "/interactions/1/tok/callback", `{"type":8,"data":{"choices":[{"name":"D4","value":"D4"}]}}`, false},
		{"thread", "POST", "/channels/1/threads", `{"name":"a vs b","type":11,"auto_archive_duration":10080}`, false},
		{"thread bad archive", "POST", "/channels/1/threads", `{"name":"a vs b","type":11,"auto_archive_duration":5}`, true},
		{"@me is not an application id", "GET", "/applications/@me", ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body any
			if tt.body != "" {
				if err := json.Unmarshal([]byte(tt.body), &body); err != nil {
					t.Fatal(err)
				}
			}
			err := spec.ValidateRequest(tt.method, tt.path, "application/json", body)
			if (err != nil) != tt.wantErr {
				t.Errorf("ValidateRequest(%s %s %s) = %v, want error %v", tt.method, tt.path, tt.body, err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrInvalidBody) {
				t.Errorf("error %v is not ErrInvalidBody", err)
			}
		})
	}
	if _, tmpl, err := spec.Operation("GET", "/applications/@me"); err != nil || tmpl != "/applications/@me" {
		t.Errorf("Operation(GET /applications/@me) = %q, %v; want the literal template", tmpl, err)
	}
	if _, _, err := spec.Operation("GET", "/no/such/thing"); !errors.Is(err, ErrNoOperation) {
		t.Errorf("Operation(unknown) error = %v, want ErrNoOperation", err)
	}
	bad := map[string]any{"id": "1", "channel_id": "2"} // a message without author, content...
	if err := spec.ValidateResponse("POST", "/channels/2/messages", 200, bad); err == nil {
		t.Error("ValidateResponse accepted a message object missing required fields")
	}
}

// miniBot is a tiny interactions endpoint for testing the client side: it
// checks signatures, answers PING, answers /go ping at once, defers /go slow
// and edits the answer through REST, and updates the message of a clicked
// button.
func miniBot(t *testing.T, s *Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if !ed25519.Verify(s.Signer.Public, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var it struct {
			Type  int    `json:"type"`
			Token string `json:"token"`
			Data  struct {
				Options []struct {
					Name string `json:"name"`
				} `json:"options"`
				CustomID string `json:"custom_id"`
			} `json:"data"`
		}
		json.Unmarshal(body, &it)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case it.Type == TypePing:
			io.WriteString(w, `{"type":1}`)
		case it.Type == TypeMessageComponent:
			io.WriteString(w, `{"type":7,"data":{"content":"clicked `+it.Data.CustomID+`","components":[]}}`)
		case it.Type == TypeApplicationCommandAutocomplete:
			io.WriteString(w, `{"type":8,"data":{"choices":[{"name":"D4","value":"D4"},{"name":"D5","value":"D5"}]}}`)
		case it.Data.Options[0].Name == "slow":
			io.WriteString(w, `{"type":5,"data":{"flags":64}}`)
			go func() {
				req, _ := http.NewRequest("PATCH", s.URL+"/webhooks/"+s.AppID+"/"+it.Token+"/messages/@original", strings.NewReader(`{"content":"done thinking"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("User-Agent", "DiscordBot (x, 1)")
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}()
		default:
			io.WriteString(w, `{"type":4,"data":{"content":"pong","components":[{"type":1,"components":[{"type":2,"style":1,"label":"Again","custom_id":"again"}]}]}}`)
		}
	})
}

func TestInteractions(t *testing.T) {
	s := NewServer(t, Options{})
	bot := httptest.NewServer(miniBot(t, s))
	defer bot.Close()
	s.Endpoint = bot.URL
	alice := s.NewUser("alice")
	ch := s.GuildChannel("general")

	if r := s.Do(s.Ping()); r.Type != CallbackPong {
		t.Errorf("PING answered with type %d", r.Type)
	}
	it := s.Command(ch, alice, "go", Sub("ping", Int("size", 9), UserOpt("opponent", s.NewUser("bob"))))
	r := s.Do(it)
	if r.Type != CallbackChannelMessageWithSource || r.Message == nil || r.Message.Content != "pong" || r.Ephemeral() {
		t.Fatalf("reply = %+v, want a public pong", r)
	}
	data := it.Payload["data"].(map[string]any)
	if _, ok := data["resolved"].(map[string]any)["users"]; !ok {
		t.Errorf("command with a user option has no resolved users: %v", data)
	}
	if _, ok := it.Payload["member"].(map[string]any)["user"]; !ok {
		t.Errorf("guild interaction has no member.user")
	}

	click := s.Click(alice, *r.Message, "again")
	cr := s.Do(click)
	if cr.Type != CallbackUpdateMessage || cr.Message.ID != r.Message.ID || cr.Message.Content != "clicked again" {
		t.Errorf("click reply = %+v, want the same message updated", cr)
	}

	dm := s.DM(alice)
	slow := s.Command(dm, alice, "go", Sub("slow"))
	sr := s.Do(slow)
	if sr.Type != CallbackDeferredChannelMessageWithSource || !sr.Message.Deferred || !sr.Ephemeral() {
		t.Errorf("slow reply = %+v, want an ephemeral deferral", sr)
	}
	if m := s.Settled(slow); m.Content != "done thinking" {
		t.Errorf("settled = %+v", m)
	}
	if _, ok := slow.Payload["user"]; !ok {
		t.Errorf("DM interaction has no user")
	}

	ac := s.Do(s.Autocomplete(ch, alice, "go", Sub("play", Focused("move", "D"))))
	if len(ac.Choices) != 2 || ac.Choices[0].Name != "D4" {
		t.Errorf("autocomplete choices = %+v", ac.Choices)
	}

	// A second acknowledgement through the callback endpoint is refused.
	s2 := NewServer(t, Options{RecordOnly: true})
	s2.Endpoint = httptest.NewServer(miniBot(t, s2)).URL
	it2 := s2.Command(s2.GuildChannel("x"), alice, "go", Sub("ping"))
	s2.Do(it2)
	status, _ := rest(t, s2, "POST", "/interactions/"+it2.ID+"/"+it2.Token+"/callback", map[string]any{"type": 4, "data": map[string]any{"content": "again"}})
	if status != http.StatusBadRequest || !strings.Contains(strings.Join(s2.Problems(), "\n"), "already been acknowledged") {
		t.Errorf("second acknowledgement: HTTP %d, problems %q", status, s2.Problems())
	}

	// Unsigned requests are refused by the bot; Post does not sign.
	pr, err := s.Post(it.JSON(), http.Header{"Content-Type": {"application/json"}})
	if err != nil || pr.Status != http.StatusUnauthorized {
		t.Errorf("unsigned post = %+v, %v; want 401", pr, err)
	}
	if n := len(s.Calls()); n != 1 {
		t.Errorf("%d REST calls, want 1 (the deferred edit)", n)
	}
	for _, c := range s.Calls() {
		if c.Status/100 != 2 {
			t.Errorf("call %v failed", c)
		}
	}
}

func TestRateLimit(t *testing.T) {
	s := NewServer(t, Options{})
	ch := s.GuildChannel("general")
	s.RateLimit("POST", "/channels/{channel_id}/messages", 2)
	for i, want := range []int{http.StatusTooManyRequests, http.StatusTooManyRequests, http.StatusOK} {
		status, body := rest(t, s, "POST", "/channels/"+ch.ID+"/messages", map[string]any{"content": "hi", "allowed_mentions": map[string]any{"parse": []any{}}})
		if status != want {
			t.Errorf("call %d: HTTP %d, want %d (%v)", i, status, want, body)
		}
		if status == http.StatusTooManyRequests && body["retry_after"] == nil {
			t.Errorf("429 without retry_after: %v", body)
		}
	}
	if n := len(s.Public(ch.ID)); n != 1 {
		t.Errorf("%d messages, want 1 (rate-limited calls change nothing)", n)
	}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("problems: %q", p)
	}
}
