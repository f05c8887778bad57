package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gorilla/websocket"
)

// localSession signs name in on the env's page as a local player.
func (e *env) localSession(name string) string {
	e.t.Helper()
	resp, err := http.Post(e.srv.URL+Path+"/api/local", "application/json", strings.NewReader(`{"name":"`+name+`"}`))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Session, Error string }
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("local sign-in of %s: %d %s", name, resp.StatusCode, out.Error)
	}
	return out.Session
}

// wsConn is a test's WebSocket to the page's endpoint.
type wsConn struct {
	t *testing.T
	c *websocket.Conn
}

func (e *env) dial(t *testing.T, origin string) (*wsConn, *http.Response, error) {
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + Path + "/ws"
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	c, resp, err := websocket.DefaultDialer.Dial(u, h)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { c.Close() })
	return &wsConn{t: t, c: c}, resp, nil
}

func (w *wsConn) send(v any) {
	w.t.Helper()
	var data []byte
	switch v := v.(type) {
	case string:
		data = []byte(v)
	default:
		data, _ = json.Marshal(v)
	}
	if err := w.c.WriteMessage(websocket.TextMessage, data); err != nil {
		w.t.Fatal(err)
	}
}

// next reads frames until one of type typ, and returns it.
func (w *wsConn) next(typ string) map[string]any {
	w.t.Helper()
	w.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := w.c.ReadMessage()
		if err != nil {
			w.t.Fatalf("waiting for a %q frame: %v", typ, err)
		}
		var m map[string]any
		json.Unmarshal(data, &m)
		if m["t"] == typ {
			return m
		}
	}
}

// TestWebSocketBadInput: each malformed, hostile or mistaken message gets
// an error frame or a refusal with a clear sentence, and changes nothing.
func TestWebSocketBadInput(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e := newEnv(t, Options{Local: true, Now: clock, Burst: 100})
	e.challenge("ann", "bob", 9)
	w, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	// Before signing in.
	w.send(map[string]any{"t": "watch", "channel": e.ch.ID})
	if m := w.next("error"); m["text"] != signInFirst || m["fatal"] != true {
		t.Errorf("watch before hello = %v", m)
	}
	frames := []struct {
		name, msg, want string
	}{
		{"oversized", `{"t":"watch","channel":"` + strings.Repeat("1", 3000) + `"}`, "That message is too large (3026 bytes; at most 2048): it was ignored."},
		{"not JSON", `{"t":`, "That message is not one gobot understands (not the JSON it expects): it was ignored."},
		{"an array", `[1,2]`, "That message is not one gobot understands (not the JSON it expects): it was ignored."},
		{"unknown field", `{"t":"watch","channel":"1","admin":true}`, "That message is not one gobot understands (not the JSON it expects): it was ignored."},
		{"two values", `{"t":"watch","channel":"1"}{"t":"watch","channel":"2"}`, "That message is not one gobot understands (more than one JSON value): it was ignored."},
		{"unknown type", `{"t":"shutdown"}`, "That message is not one gobot understands (unknown type): it was ignored."},
		{"bad point", `{"t":"act","channel":"1","kind":"play","point":"Z99","seat":"black","game":"2"}`, "That message is not one gobot understands (a point such as D4, or a draughts move such as 32-28): it was ignored."},
		{"bad draughts move", `{"t":"act","channel":"1","kind":"play","point":"32-280","seat":"white","game":"2"}`, "That message is not one gobot understands (a point such as D4, or a draughts move such as 32-28): it was ignored."},
		{"no game", `{"t":"act","channel":"1","kind":"pass","seat":"black"}`, "That message is not one gobot understands (act needs the game's ID): it was ignored."},
		{"bad channel", `{"t":"watch","channel":"../etc"}`, "That message is not one gobot understands (watch needs a channel): it was ignored."},
	}
	for _, f := range frames {
		w.send(f.msg)
		if m := w.next("error"); m["text"] != f.want {
			t.Errorf("%s: error frame %q, want %q", f.name, m["text"], f.want)
		}
	}
	// A forged or expired session.
	w.send(map[string]any{"t": "hello", "session": "eyJ1IjoiMSJ9.forged"})
	if m := w.next("error"); m["text"] != sessionInvalid {
		t.Errorf("a forged session: %v", m)
	}
	old := e.board.sign.token(session{UserID: commands.ConsoleUser("ann").ID, Name: "ann", Local: true, Expires: now.Add(-time.Second).Unix()})
	w.send(map[string]any{"t": "hello", "session": old})
	if m := w.next("error"); m["text"] != sessionExpired {
		t.Errorf("an expired session: %v", m)
	}
	// Signed in by name on this computer, a Discord channel's game is not
	// shown.
	w.send(map[string]any{"t": "hello", "session": e.localSession("bob")})
	w.next("welcome")
	w.send(map[string]any{"t": "watch", "channel": e.ch.ID})
	if m := w.next("error"); m["text"] != notHere {
		t.Errorf("a local page watching a Discord game: %v", m)
	}
	// Signed in as bob (white) in the channel's Activity, refusals come
	// back as results.
	w.send(map[string]any{"t": "hello", "session": e.board.sign.token(session{UserID: user("bob").ID, Name: "bob", Channel: e.ch.ID, Expires: now.Add(DefaultSessionTTL).Unix()})})
	w.next("welcome")
	w.send(map[string]any{"t": "watch", "channel": e.ch.ID})
	st := w.next("state")["game"].(map[string]any)
	version, id := st["version"].(float64), st["id"].(string)
	acts := []struct {
		name string
		act  map[string]any
		want string
	}{
		{"out of turn", map[string]any{"kind": "play", "point": "E5", "seat": "white", "version": version, "game": id}, "It is not your turn: ⚫ ann is to play."},
		{"forged seat", map[string]any{"kind": "play", "point": "E5", "seat": "black", "version": version, "game": id}, "You are not playing black in this game: you play white."},
		{"stale version", map[string]any{"kind": "pass", "seat": "white", "version": version - 1, "game": id}, commands.StaleClick},
		{"a made-up game", map[string]any{"kind": "pass", "seat": "white", "version": version, "game": "123"}, commands.UnknownGame},
		{"accept in play", map[string]any{"kind": "accept", "seat": "white", "version": version, "game": id}, "The game is not in its scoring phase: there is no marking to accept, and play goes on."},
		{"resume in play", map[string]any{"kind": "resume", "seat": "white", "version": version, "game": id}, "The game is not in its scoring phase: play goes on already, there is nothing to resume."},
		{"a draw offer in Go", map[string]any{"kind": "draw", "seat": "white", "version": version, "game": id}, "Go has no draw offers: a game ends by passes and the count, or by resignation."},
	}
	act := func(i int, name string, a map[string]any, want string) {
		t.Helper()
		a["t"], a["id"], a["channel"] = "act", i, e.ch.ID
		w.send(a)
		if m := w.next("result"); m["refused"] != true || m["text"] != want {
			t.Errorf("%s: result %v, want refused with %q", name, m, want)
		}
	}
	for i, a := range acts {
		act(i+1, a.name, a.act, a.want)
	}
	// What only a local page does, asked from an Activity.
	for _, f := range []struct {
		msg  map[string]any
		want string
	}{
		{map[string]any{"t": "start", "id": 20, "level": "easy", "size": 9}, startLocal},
		{map[string]any{"t": "answer", "id": 21, "channel": e.ch.ID, "challenge": "123", "accept": true}, answerLocal},
	} {
		w.send(f.msg)
		if m := w.next("result"); m["refused"] != true || m["text"] != f.want {
			t.Errorf("%s from an Activity: %v, want refused with %q", f.msg["t"], m, f.want)
		}
	}
	// ann plays E5 (in Discord); bob's click there is refused.
	if got := e.slash("ann", "play", discordtest.Str("move", "E5")); !strings.Contains(got, "E5") {
		t.Fatalf("/go play E5 answered %q", got)
	}
	st = w.next("state")["game"].(map[string]any)
	version = st["version"].(float64)
	act(5, "occupied point", map[string]any{"kind": "play", "point": "E5", "seat": "white", "version": version, "game": id}, "E5 is already taken by a black stone.")
	// The session runs out while the page is open.
	mu.Lock()
	now = now.Add(DefaultSessionTTL + time.Minute)
	mu.Unlock()
	w.send(map[string]any{"t": "act", "id": 6, "channel": e.ch.ID, "kind": "pass", "seat": "white", "version": version, "game": id})
	if m := w.next("error"); m["text"] != sessionExpired || m["fatal"] != true {
		t.Errorf("an action after the session ended: %v", m)
	}
	v, err := e.app.View(t.Context(), e.ch.ID)
	if err != nil || v.Version != uint64(version) || v.Moves != 1 {
		t.Errorf("after the refusals the game is at version %d with %d moves (%v), want version %v with ann's move only", v.Version, v.Moves, err, version)
	}
	// Signed in again, bob resigns; a click on the game that ended is
	// refused, and starts nothing.
	w.send(map[string]any{"t": "hello", "session": e.board.sign.token(session{UserID: user("bob").ID, Name: "bob", Channel: e.ch.ID, Expires: now.Add(DefaultSessionTTL).Unix()})})
	w.next("welcome")
	w.send(map[string]any{"t": "act", "id": 7, "channel": e.ch.ID, "kind": "resign", "seat": "white", "version": version, "game": id})
	if m := w.next("result"); m["refused"] == true || m["channel"] != nil {
		t.Fatalf("resign: %v, want done, with no channel for the page to move to", m)
	}
	act(8, "closed game", map[string]any{"kind": "play", "point": "D4", "seat": "white", "version": version, "game": id}, commands.ClosedGame)
	if gs, err := e.app.Games(t.Context(), e.ch.ID); err != nil || len(gs) != 0 {
		t.Errorf("after the click on the ended game, the channel's games in play are %v (%v), want none", gs, err)
	}
}

// TestWebSocketRateLimit: a page that sends too fast is told so, and the
// messages over the limit are dropped.
func TestWebSocketRateLimit(t *testing.T) {
	e := newEnv(t, Options{Local: true, Rate: 1, Burst: 5})
	w, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for range 8 {
		w.send(`{"t":"bogus"}`)
	}
	got := 0
	for range 8 {
		if m := w.next("error"); m["text"] == tooFast {
			got++
		}
	}
	if got < 2 {
		t.Errorf("%d of 8 messages at once were refused as too fast, want at least 2 over a burst of 5", got)
	}
}

// TestWebSocketOrigin: the WebSocket opens for Discord's Activity proxy
// and, in local mode, for the page's own loopback origin; never for
// another site.
func TestWebSocketOrigin(t *testing.T) {
	local := newEnv(t, Options{Local: true})
	remote := newEnv(t, Options{})
	tests := []struct {
		name   string
		e      *env
		origin string
		ok     bool
	}{
		{"local page, local mode", local, local.srv.URL, true},
		{"Discord's proxy", remote, "https://" + remote.d.AppID + ".discordsays.com", true},
		{"another app's proxy", remote, "https://1234.discordsays.com", false},
		{"another site", local, "https://evil.example", false},
		{"no origin", local, "", false},
		{"local page, not local mode", remote, remote.srv.URL, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := tt.e.dial(t, tt.origin)
			if (err == nil) != tt.ok {
				status := 0
				if resp != nil {
					status = resp.StatusCode
				}
				t.Errorf("dial with Origin %q: err %v (HTTP %d), want ok=%v", tt.origin, err, status, tt.ok)
			}
		})
	}
}

// TestLocalSignInRefused: signing in by name works only from this
// computer to a loopback name, in local mode.
func TestLocalSignInRefused(t *testing.T) {
	local := newEnv(t, Options{Local: true})
	remote := newEnv(t, Options{})
	// Without the client secret there is no Activity and no Open board
	// button: the refusal must not send the user to it.
	bare := newEnv(t, Options{})
	bare.board.opts.ClientSecret = ""
	tests := []struct {
		name       string
		h          *Handler
		remoteAddr string
		host       string
		header     string
		ok         bool
		refusal    string
	}{
		{"loopback", local.board, "127.0.0.1:5000", "127.0.0.1:8080", "", true, ""},
		{"IPv6 loopback", local.board, "[::1]:5000", "localhost:8080", "", true, ""},
		{"another address", local.board, "203.0.113.9:5000", "127.0.0.1:8080", "", false, localRefusedRemote},
		{"a public name", local.board, "127.0.0.1:5000", "gobot.example.org", "", false, localRefusedRemote},
		{"through a proxy", local.board, "127.0.0.1:5000", "127.0.0.1:8080", "203.0.113.9", false, localRefusedRemote},
		{"not local mode", remote.board, "127.0.0.1:5000", "127.0.0.1:8080", "", false, localRefused},
		{"no activity", bare.board, "203.0.113.9:5000", "gobot.example.org", "", false,
			"Signing in by name works only on the board page beside gobot's console (gobot console), on this computer. This board page is not set up for Discord on this server: until its admin sets up gobot's Activity, play with /go and /draughts in Discord."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, Path+"/api/local", bytes.NewReader([]byte(`{"name":"ann"}`)))
			r.RemoteAddr, r.Host = tt.remoteAddr, tt.host
			if tt.header != "" {
				r.Header.Set("X-Forwarded-For", tt.header)
			}
			w := httptest.NewRecorder()
			tt.h.ServeHTTP(w, r)
			if got := w.Code == http.StatusOK; got != tt.ok {
				t.Errorf("status %d (%s), want ok=%v", w.Code, w.Body, tt.ok)
			}
			if !tt.ok {
				var got struct{ Error string }
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Error != tt.refusal {
					t.Errorf("refusal %s, want %q", w.Body, tt.refusal)
				}
			}
		})
	}
}

// TestActivitySignIn: the Activity's sign-in checks its OAuth2 state (made
// by gobot, used once), the code (through Discord's token endpoint, with
// the client secret) and that the user is in the Activity, whose channel
// becomes the page's.
func TestActivitySignIn(t *testing.T) {
	e := newEnv(t, Options{})
	inst := e.d.Activity(e.ch, user("ann"))
	state := func() string {
		var out struct{ State string }
		resp, err := http.Get(e.srv.URL + Path + "/api/state")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		return out.State
	}
	token := func(code, st, instance string) (int, map[string]any) {
		body, _ := json.Marshal(map[string]string{"code": code, "state": st, "instance_id": instance})
		resp, err := http.Post(e.srv.URL+Path+"/api/token", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	s1 := state()
	status, out := token(e.d.AuthorizeCode(user("ann")), s1, inst)
	if status != http.StatusOK || out["channel"] != e.ch.ID || !strings.HasPrefix(out["access_token"].(string), "access-") {
		t.Fatalf("sign-in = %d %v", status, out)
	}
	ss, err := e.board.sign.session(out["session"].(string), time.Now())
	if err != nil || ss.UserID != user("ann").ID || ss.Channel != e.ch.ID || ss.Local {
		t.Errorf("session %+v, %v", ss, err)
	}
	if left := time.Until(time.Unix(ss.Expires, 0)); left > DefaultSessionTTL || left < DefaultSessionTTL-time.Minute {
		t.Errorf("session lasts %v, want %v", left, DefaultSessionTTL)
	}
	// Her Discord picture is known now (the page shows it through the
	// Activity's /cdn mapping); so is that of someone who used gobot in
	// Discord without opening the page (it was not); someone who did
	// neither has none.
	e.slash("cid", "help")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for who, want := range map[string]string{
		user("ann").ID: "/cdn/avatars/" + user("ann").ID + "/" + discordtest.AvatarHash(user("ann")) + ".png?size=64",
		user("bob").ID: "",
		user("cid").ID: "/cdn/avatars/" + user("cid").ID + "/" + discordtest.AvatarHash(user("cid")) + ".png?size=64",
	} {
		resp, err := noRedirect.Get(e.srv.URL + Path + "/api/avatar/" + who)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Location"); got != want || (want == "") != (resp.StatusCode == http.StatusNotFound) {
			t.Errorf("avatar of %s: %d %q, want %q", who, resp.StatusCode, got, want)
		}
	}
	refusals := []struct {
		name, code, state, instance, want string
	}{
		{"state used twice", e.d.AuthorizeCode(user("ann")), s1, inst, badState},
		{"state not gobot's", e.d.AuthorizeCode(user("ann")), "abc.def", inst, badState},
		{"no state", e.d.AuthorizeCode(user("ann")), "", inst, badState},
		{"unknown code", "code-0", state(), inst, badCode},
		{"not in the Activity", e.d.AuthorizeCode(user("bob")), state(), inst, notInstance},
		{"unknown Activity", e.d.AuthorizeCode(user("ann")), state(), "i-404", notInstance},
	}
	for _, r := range refusals {
		status, out := token(r.code, r.state, r.instance)
		if status == http.StatusOK || out["error"] != r.want {
			t.Errorf("%s: %d %v, want %q", r.name, status, out, r.want)
		}
	}
	// Every call to Discord (the token endpoint, /users/@me, the
	// instance) says who makes it, as Discord requires.
	if p := e.d.Problems(); len(p) > 0 {
		t.Errorf("the fake Discord saw problems: %v", p)
	}
}

// TestLocalGamesUnrated: games started on a local page, against the bot
// or a challenge accepted there, move no rating: a name signed in on this
// computer proves nobody's identity.
func TestLocalGamesUnrated(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	dial := func(name string) *wsConn {
		w, _, err := e.dial(t, e.srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		w.send(map[string]any{"t": "hello", "session": e.localSession(name)})
		w.next("welcome")
		return w
	}
	ann, bob := dial("ann"), dial("bob")
	ann.send(map[string]any{"t": "start", "id": 1, "level": "easy", "size": 9})
	bot := ann.next("result")
	ann.send(map[string]any{"t": "start", "id": 2, "opponent": "bob", "size": 9})
	challenge := ann.next("result")
	var offers []any
	for offers == nil {
		offers, _ = bob.next("games")["offers"].([]any)
	}
	o := offers[0].(map[string]any)
	bob.send(map[string]any{"t": "answer", "id": 1, "channel": o["channel"], "challenge": o["id"], "accept": true})
	if m := bob.next("result"); m["refused"] == true {
		t.Fatalf("bob's Accept: %v", m)
	}
	for _, r := range []map[string]any{bot, challenge} {
		ch, _ := r["channel"].(string)
		g, err := e.store.Game(t.Context(), ch)
		if err != nil {
			t.Fatalf("the game of %v: %v", r, err)
		}
		if !g.Unrated {
			t.Errorf("the local game %s (%s) is rated", g.ID, r["text"])
		}
	}
}

// TestLocalAnswerNamesPeople: an answer to a local challenge by someone
// it is not to (a crafted one: the page offers no button) is refused
// naming who may answer, not "someone".
func TestLocalAnswerNamesPeople(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	ann, bob, carl := commands.ConsoleUser("ann"), commands.ConsoleUser("bob"), commands.ConsoleUser("carl")
	res, id := e.app.Start(t.Context(), commands.ConsoleChannel, ann, commands.Start{Opponent: &bob, Size: 9})
	if res.Refused || id == "" {
		t.Fatalf("ann's challenge: %s", res.Text)
	}
	got := e.app.Answer(t.Context(), commands.ConsoleChannel, carl, id, true)
	if want := "Only bob can answer this challenge."; !got.Refused || got.Text != want {
		t.Errorf("carl's Accept answered %+v, want refused with %q", got, want)
	}
}

// countingTransport counts the calls gobot makes to Discord, by path.
type countingTransport struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.calls[r.URL.Path]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (c *countingTransport) count(suffix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.calls {
		if strings.HasSuffix(p, suffix) {
			n += k
		}
	}
	return n
}

// TestActivitySignInFlood: someone posting made-up sign-ins as fast as
// they can (no login needed: a state is free) locks out no player, and
// costs Discord little: a made-up instance is asked about once, and a
// client whose sign-ins made gobot ask Discord in vain a few times is
// refused at once; a player from the same address (as everyone inside
// Discord shares its proxy's) still signs in.
func TestActivitySignInFlood(t *testing.T) {
	calls := &countingTransport{calls: map[string]int{}}
	e := newEnv(t, Options{HTTPClient: &http.Client{Transport: calls}})
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	signIn := func(from, code, instance string) (int, string) {
		t.Helper()
		status, out := signInFrom(t, e, from, code, instance)
		text, _ := out["error"].(string)
		return status, text
	}
	const attacker = "203.0.113.9:4000"
	for i := range 40 {
		if code, text := signIn(attacker, "bogus", "x"); code != http.StatusForbidden || text != notInstance {
			t.Fatalf("made-up sign-in %d: %d %q", i, code, text)
		}
	}
	if n := calls.count("/activity-instances/x"); n != 1 {
		t.Errorf("40 sign-ins with the made-up instance x asked Discord about it %d times, want once", n)
	}
	if n := calls.count("/oauth2/token"); n != 0 {
		t.Errorf("sign-ins with a made-up instance reached the token endpoint %d times", n)
	}
	// A player right after, from the same address.
	if code, text := signIn(attacker, e.d.AuthorizeCode(user("ann")), inst); code != http.StatusOK {
		t.Errorf("ann's sign-in after the flood, from its address: %d %q", code, text)
	}
	// Made-up instances, each new: a few are asked about, then the
	// address is refused at once.
	for i := range 40 {
		code, text := signIn(attacker, "bogus", fmt.Sprintf("x%d", i))
		if code == http.StatusOK || (text != notInstance && text != tooManyFails) {
			t.Fatalf("made-up instance %d: %d %q", i, code, text)
		}
	}
	if n := calls.count("/activity-instances/") - 2; n > failBurst+1 {
		t.Errorf("40 made-up instances were asked about %d times, want at most %d", n, failBurst+1)
	}
	// Still, a player of an instance Discord confirmed lately signs in
	// from that address; and one of another, from another address.
	if code, text := signIn(attacker, e.d.AuthorizeCode(user("bob")), inst); code != http.StatusOK {
		t.Errorf("bob's sign-in in ann's Activity, from the flood's address: %d %q", code, text)
	}
	if code, text := signIn(attacker, e.d.AuthorizeCode(user("cat")), e.d.Activity(e.ch, user("cat"))); code != http.StatusTooManyRequests || text != tooManyFails {
		t.Errorf("a new instance from the flood's address: %d %q, want refused with %q", code, text, tooManyFails)
	}
	if code, text := signIn("198.51.100.7:5000", e.d.AuthorizeCode(user("dan")), e.d.Activity(e.ch, user("dan"))); code != http.StatusOK {
		t.Errorf("dan's sign-in elsewhere: %d %q", code, text)
	}
	// Made-up codes in a real instance: a few reach the token endpoint,
	// then that instance is refused at once (its players only).
	tokens := calls.count("/oauth2/token")
	for i := range 40 {
		code, text := signIn("203.0.113.10:4000", fmt.Sprintf("bogus%d", i), inst)
		if code == http.StatusOK || (text != badCode && text != tooManyFails) {
			t.Fatalf("made-up code %d: %d %q", i, code, text)
		}
	}
	if n := calls.count("/oauth2/token") - tokens; n > failBurst {
		t.Errorf("40 made-up codes reached Discord's token endpoint %d times, want at most %d", n, failBurst)
	}
	if code, text := signIn("198.51.100.8:5000", e.d.AuthorizeCode(user("eve")), e.d.Activity(e.ch, user("eve"))); code != http.StatusOK {
		t.Errorf("eve's sign-in in another Activity: %d %q", code, text)
	}
}

// TestWebSocketReconnect: a page that reconnects gets the game as it is
// now, with the moves made while it was away.
func TestWebSocketReconnect(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	channels, black, white := benchGames(t, e, 1)
	tok := func(u commands.WebUser) string {
		return e.board.sign.token(session{UserID: u.ID, Name: u.Name, Local: true, Expires: time.Now().Add(time.Hour).Unix()})
	}
	w := e.watch(t, tok(white[0]), channels[0])
	w.await(t, 0)
	w.c.Close()
	ctx := t.Context()
	for i, u := range []commands.WebUser{black[0], white[0], black[0]} {
		v, _ := e.app.View(ctx, channels[0])
		seat := []string{"black", "white"}[i%2]
		if res := e.app.Act(ctx, channels[0], u, commands.Action{Kind: commands.ActPlay, Point: benchMove(i/2, i%2 == 0), Game: v.ID, Version: v.Version, Seat: seat}); res.Refused {
			t.Fatal(res.Text)
		}
	}
	again := e.watch(t, tok(white[0]), channels[0])
	again.await(t, 3)
}

// TestWebSocketSlowPage: a page that stops reading holds up no other:
// the other pages get every change while its messages pile up; it is
// dropped once its queue is full, and when it connects again it is sent
// the game as it is then, with the moves it missed.
func TestWebSocketSlowPage(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	channels, black, white := benchGames(t, e, 1)
	ch := channels[0]
	tok := func(name string) string {
		u := commands.ConsoleUser(name)
		return e.board.sign.token(session{UserID: u.ID, Name: name, Local: true, Expires: time.Now().Add(time.Hour).Unix()})
	}
	// The slow page's socket takes little (a small receive buffer), and
	// it reads nothing.
	d := websocket.Dialer{NetDialContext: (&net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var err error
		rc.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}).DialContext}
	slow, _, err := d.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+Path+"/ws", http.Header{"Origin": {e.srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	for _, m := range []map[string]any{{"t": "hello", "session": tok("slow")}, {"t": "watch", "channel": ch}} {
		data, _ := json.Marshal(m)
		slow.WriteMessage(websocket.TextMessage, data)
	}
	quick := e.watch(t, tok("quick"), ch)
	quick.await(t, 0)
	// Changes of the game reported by another worker (Publish), each sent
	// again to both pages: the quick page gets every one.
	const changes = 300
	for range changes {
		e.app.Publish(ch)
		select {
		case <-quick.seen:
		case <-time.After(10 * time.Second):
			t.Fatal("the quick page waited 10 s for a state")
		}
	}
	// Three moves, which the slow page misses.
	for i := range 3 {
		playMove(t, e, ch, i, black[0], white[0])
		quick.await(t, i+1)
	}
	// The slow page reads now: what gobot had sent before dropping it,
	// then the end of its connection.
	slow.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := 0
	for {
		_, _, err := slow.ReadMessage()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the page that stopped reading is still connected after %d changes (it had read %d messages)", changes, got)
			}
			break
		}
		got++
	}
	t.Logf("the slow page had %d messages on their way when it was dropped", got)
	again := e.watch(t, tok("slow"), ch)
	again.await(t, 3)
}

// TestWebSocketStatesInOrder: pages opening while moves are made each see
// the game only move forward: the state a page is sent as it joins never
// arrives after a newer one.
func TestWebSocketStatesInOrder(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	channels, black, white := benchGames(t, e, 1)
	ch := channels[0]
	const moves, pages = 60, 40
	type page struct {
		name string
		seen []int
		done chan struct{}
	}
	var all []*page
	open := func(i int) {
		u := commands.ConsoleUser(fmt.Sprint("p", i))
		w := e.watch(t, e.board.sign.token(session{UserID: u.ID, Name: u.Name, Local: true, Expires: time.Now().Add(time.Hour).Unix()}), ch)
		p := &page{name: u.Name, done: make(chan struct{})}
		all = append(all, p)
		go func() {
			defer close(p.done)
			for s := range w.seen {
				p.seen = append(p.seen, s.moves)
				if s.moves == moves {
					return
				}
			}
		}()
	}
	for i := range moves {
		if i < pages {
			open(i)
		}
		playMove(t, e, ch, i, black[0], white[0])
	}
	for _, p := range all {
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not get move %d: it saw %v", p.name, moves, p.seen)
		}
		if !slices.IsSorted(p.seen) {
			t.Errorf("%s saw the game go back: moves %v", p.name, p.seen)
		}
	}
}

// TestWebSocketReadLimit: a message past the read limit (64 KB) ends the
// connection with "message too big" (1009), before gobot reads it whole.
func TestWebSocketReadLimit(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	w, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	w.send(`{"t":"watch","channel":"` + strings.Repeat("1", readLimit) + `"}`)
	w.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := w.c.ReadMessage()
		if err == nil {
			t.Logf("before the end: %s", data)
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
			t.Errorf("after a message of %d bytes the connection ended with %v, want close 1009 (message too big)", readLimit+27, err)
		}
		return
	}
}

// TestSessionRenewed: an open page is sent a fresh session token before
// its own runs out, and keeps acting past the first token's end.
func TestSessionRenewed(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	const ttl = 3 * time.Second // a renewal every second
	e := newEnv(t, Options{Local: true, Now: clock, SessionTTL: ttl})
	channels, _, white := benchGames(t, e, 1)
	ch := channels[0]
	first := e.board.sign.token(session{UserID: white[0].ID, Name: white[0].Name, Local: true, Expires: now.Add(ttl).Unix()})
	w, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	w.send(map[string]any{"t": "hello", "session": first})
	w.next("welcome")
	mu.Lock()
	now = now.Add(2 * time.Second)
	ends := now.Add(ttl).Unix()
	mu.Unlock()
	for {
		tok, _ := w.next("renew")["session"].(string)
		s, err := e.board.sign.session(tok, clock())
		if err != nil {
			t.Fatalf("the renewed session: %v", err)
		}
		if s.UserID != white[0].ID || !s.Local {
			t.Fatalf("the renewed session is %+v, want %s's local one", s, white[0].Name)
		}
		if s.Expires == ends {
			break // renewed after the clock moved
		}
	}
	mu.Lock()
	now = now.Add(2 * time.Second) // the first token has run out
	mu.Unlock()
	if _, err := e.board.sign.session(first, clock()); !errors.Is(err, errExpired) {
		t.Fatalf("the first token: %v, want it expired", err)
	}
	w.send(map[string]any{"t": "watch", "channel": ch})
	if m := w.next("state"); m["game"].(map[string]any)["channel"] != ch {
		t.Errorf("after the first token ran out the page was sent %v", m)
	}
}

// TestSecretsNotLogged: what gobot logs (at debug level) while people sign
// in through the Activity, some refused (a code Discord does not know,
// someone not in the Activity, a spent state, a forged session), and
// play, quotes none of the client secret, the bot token, the OAuth2 codes
// and states, the access tokens or the session tokens.
func TestSecretsNotLogged(t *testing.T) {
	var logs logtest.Buffer
	e := newEnv(t, Options{Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	secrets := []string{discordtest.ClientSecret, e.d.Token}
	post := func(path string, body any) map[string]any {
		data, _ := json.Marshal(body)
		resp, err := http.Post(e.srv.URL+Path+path, "application/json", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	signIn := func(code string) (out map[string]any, state string) {
		resp, err := http.Get(e.srv.URL + Path + "/api/state")
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ State string }
		json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		out = post("/api/token", map[string]string{"code": code, "state": st.State, "instance_id": inst})
		secrets = append(secrets, code, st.State)
		for _, k := range []string{"access_token", "session"} {
			if s, _ := out[k].(string); s != "" {
				secrets = append(secrets, s)
			}
		}
		return out, st.State
	}
	ann, spent := signIn(e.d.AuthorizeCode(user("ann")))
	if ann["session"] == nil {
		t.Fatalf("ann's sign-in: %v", ann)
	}
	signIn("code-404")                     // Discord refuses the code
	signIn(e.d.AuthorizeCode(user("cat"))) // not in the Activity
	post("/api/token", map[string]string{"code": e.d.AuthorizeCode(user("bob")), "state": spent, "instance_id": inst})
	w, _, err := e.dial(t, "https://"+e.d.AppID+".discordsays.com")
	if err != nil {
		t.Fatal(err)
	}
	forged := ann["session"].(string) + "x"
	secrets = append(secrets, forged)
	w.send(map[string]any{"t": "hello", "session": forged})
	w.next("error")
	w.send(map[string]any{"t": "hello", "session": ann["session"]})
	st := w.next("state")["game"].(map[string]any)
	w.send(map[string]any{"t": "act", "id": 1, "channel": e.ch.ID, "kind": "play", "point": "E5", "seat": "black", "game": st["id"], "version": st["version"]})
	if m := w.next("result"); m["refused"] == true {
		t.Fatalf("ann's click: %v", m)
	}
	out := logs.String()
	if !strings.Contains(out, "OAuth2 code refused") || !strings.Contains(out, "activity instance refused") {
		t.Fatalf("the refused sign-ins were not logged; the log reads:\n%s", out)
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("the log quotes %q:\n%s", s, out)
		}
	}
}

// playMove plays move i (from 0) of the benchmarks' game in ch
// (benchMove), Black's by black and White's by white, as a click on the
// board page would.
func playMove(t *testing.T, e *env, ch string, i int, black, white commands.WebUser) {
	t.Helper()
	ctx := t.Context()
	v, err := e.app.View(ctx, ch)
	if err != nil {
		t.Fatal(err)
	}
	u, seat := black, "black"
	if i%2 == 1 {
		u, seat = white, "white"
	}
	if res := e.app.Act(ctx, ch, u, commands.Action{Kind: commands.ActPlay, Point: benchMove(i/2, i%2 == 0), Game: v.ID, Version: v.Version, Seat: seat}); res.Refused {
		t.Fatalf("move %d: %s", i+1, res.Text)
	}
}

// TestWebSocketHelloWait: a connection that does not sign in within
// HelloWait is closed; one that signed in stays open.
func TestWebSocketHelloWait(t *testing.T) {
	e := newEnv(t, Options{Local: true, HelloWait: 300 * time.Millisecond})
	silent, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	page, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	page.send(map[string]any{"t": "hello", "session": e.localSession("ann")})
	page.next("welcome")
	silent.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, _, err := silent.c.ReadMessage(); err != nil {
			var ce *websocket.CloseError
			if ne, ok := err.(interface{ Timeout() bool }); ok && ne.Timeout() && !errors.As(err, &ce) {
				t.Fatalf("the silent connection was still open after 10 s: %v", err)
			}
			break
		}
	}
	// The signed-in page still answers, well after HelloWait.
	time.Sleep(400 * time.Millisecond)
	page.send(map[string]any{"t": "watch", "channel": "1"})
	page.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := page.c.ReadMessage(); err != nil {
		t.Errorf("the signed-in page was closed: %v", err)
	}
}

// TestWebSocketDraughtsChannel: the Activity of a channel playing
// draughts shows its game: a state of kind draughts, with the pieces and
// the legal moves of the side to move (the page knows no rules).
func TestWebSocketDraughtsChannel(t *testing.T) {
	e := newEnv(t, Options{})
	it := e.d.Command(e.ch, user("ann"), "draughts", discordtest.Sub("challenge", discordtest.UserOpt("opponent", user("bob")), discordtest.Bool("rated", false)))
	e.d.Do(it)
	m := e.d.Settled(it)
	accepted := false
	for _, b := range m.Buttons() {
		if strings.HasSuffix(b.CustomID, "/accept") {
			if r := e.d.Do(e.d.Click(user("bob"), m, b.CustomID)); r.Ephemeral() {
				t.Fatalf("accept: %s", r.Text())
			}
			accepted = true
		}
	}
	if !accepted {
		t.Fatalf("draughts challenge: no Accept button in %q", m.Text())
	}
	w, _, err := e.dial(t, "https://"+e.d.AppID+".discordsays.com")
	if err != nil {
		t.Fatal(err)
	}
	w.send(map[string]any{"t": "hello", "session": e.board.sign.token(session{UserID: user("bob").ID, Name: "bob", Channel: e.ch.ID, Expires: time.Now().Add(DefaultSessionTTL).Unix()})})
	w.next("welcome")
	w.send(map[string]any{"t": "watch", "channel": e.ch.ID})
	st := w.next("state")
	g, _ := st["game"].(map[string]any)
	d, _ := g["draughts"].(map[string]any)
	if g["kind"] != "draughts" || d == nil {
		t.Fatalf("watching a draughts game: %v, want its state", st)
	}
	if sq, _ := d["squares"].([]any); len(sq) != 50 || sq[0] != "b" || sq[49] != "w" {
		t.Errorf("the squares are %v, want the start position", d["squares"])
	}
	if legal, _ := d["legal"].([]any); len(legal) != 9 {
		t.Errorf("the legal moves are %v, want White's 9 first moves", d["legal"])
	}
	// Its record is the PDN /draughts record attaches.
	w.send(map[string]any{"t": "record", "id": 1, "channel": e.ch.ID, "game": g["id"]})
	r := w.next("record")
	data, _ := r["data"].(string)
	players := strings.Contains(data, "[White \"bob\"]\n[Black \"ann\"]") || strings.Contains(data, "[White \"ann\"]\n[Black \"bob\"]") // colours drawn
	if r["name"] != "gobot-"+g["id"].(string)+".pdn" || r["type"] != "application/x-draughts-pdn" ||
		!players || !strings.Contains(data, `[GameType "20"]`) || !strings.Contains(data, `[Result "*"]`) {
		t.Errorf("the record of the game of draughts: %v", r)
	}
}

// TestWebSocketJoinGetsFreshState: a page that joins a game gets a state
// made after it joined, not only the last one sent (whose clocks count
// from when it was made, so that a page would show the time left then).
func TestWebSocketJoinGetsFreshState(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	channels, _, _ := benchGames(t, e, 1)
	token := func(name string) string {
		u := commands.ConsoleUser(name)
		return e.board.sign.token(session{UserID: u.ID, Name: u.Name, Local: true, Expires: time.Now().Add(time.Hour).Unix()})
	}
	first := e.watch(t, token("p1"), channels[0])
	var made int64
	select {
	case s := <-first.seen:
		made = s.serverMS
	case <-time.After(10 * time.Second):
		t.Fatal("the first page got no state")
	}
	time.Sleep(20 * time.Millisecond)
	joined := time.Now().UnixMilli()
	second := e.watch(t, token("p2"), channels[0])
	deadline := time.After(10 * time.Second)
	for {
		select {
		case s := <-second.seen:
			if s.serverMS >= joined {
				return
			}
			if s.serverMS != made {
				t.Fatalf("the joining page got a state made at %d, neither the last (%d) nor after it joined (%d)", s.serverMS, made, joined)
			}
		case <-deadline:
			t.Fatalf("the joining page got no state made after it joined (at %d); the last was made at %d", joined, made)
		}
	}
}

// TestWebSocketWatchSameGameAgain: a page that chooses the game it shows
// once more (its entry in Games, highlighted) has put its board away until
// a state comes: it gets the game's state again, or every click after it
// would be ignored until the opponent moved.
func TestWebSocketWatchSameGameAgain(t *testing.T) {
	e := newEnv(t, Options{})
	e.challenge("ann", "bob", 9)
	w, _, err := e.dial(t, "https://"+e.d.AppID+".discordsays.com")
	if err != nil {
		t.Fatal(err)
	}
	w.send(map[string]any{"t": "hello", "session": e.board.sign.token(session{UserID: user("ann").ID, Name: "ann", Channel: e.ch.ID, Expires: time.Now().Add(DefaultSessionTTL).Unix()})})
	w.next("welcome")
	for i := range 2 {
		w.send(map[string]any{"t": "watch", "channel": e.ch.ID})
		if g, _ := w.next("state")["game"].(map[string]any); g == nil || g["moves"] != 0.0 {
			t.Fatalf("watch %d of the game shown: state %v", i+1, g)
		}
	}
}

// TestWebSocketRecord: a page asks for the record of the game it shows
// and gets the file /go sgf attaches: the game in play so far, then the
// game finished, with its result; anyone watching may ask. A game that is
// not the channel's, or a channel the page may not see, is refused with
// its sentence.
func TestWebSocketRecord(t *testing.T) {
	e := newEnv(t, Options{})
	e.challenge("ann", "bob", 9)
	ctx := t.Context()
	play := func(u commands.WebUser, seat, point string) {
		t.Helper()
		v, err := e.app.View(ctx, e.ch.ID)
		if err != nil {
			t.Fatal(err)
		}
		if res := e.app.Act(ctx, e.ch.ID, u, commands.Action{Kind: commands.ActPlay, Point: point, Game: v.ID, Version: v.Version, Seat: seat}); res.Refused {
			t.Fatalf("%s %s: %s", seat, point, res.Text)
		}
	}
	ann, bob := commands.WebUser{ID: user("ann").ID, Name: "ann"}, commands.WebUser{ID: user("bob").ID, Name: "bob"}
	play(ann, "black", "D4")
	play(bob, "white", "E5")
	v, err := e.app.View(ctx, e.ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := e.dial(t, "https://"+e.d.AppID+".discordsays.com")
	if err != nil {
		t.Fatal(err)
	}
	// cat watches: not a player.
	w.send(map[string]any{"t": "hello", "session": e.board.sign.token(session{UserID: user("cat").ID, Name: "cat", Channel: e.ch.ID, Expires: time.Now().Add(DefaultSessionTTL).Unix()})})
	w.next("welcome")
	record := func(id int, game string) map[string]any {
		t.Helper()
		w.send(map[string]any{"t": "record", "id": id, "channel": e.ch.ID, "game": game})
		for {
			w.c.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, data, err := w.c.ReadMessage()
			if err != nil {
				t.Fatalf("record %d: %v", id, err)
			}
			var m map[string]any
			json.Unmarshal(data, &m)
			if (m["t"] == "record" || m["t"] == "result") && m["id"] == float64(id) {
				return m
			}
		}
	}
	m := record(1, v.ID)
	if m["t"] != "record" || m["name"] != "gobot-"+v.ID+".sgf" || m["type"] != "application/x-go-sgf" {
		t.Fatalf("the record of the game in play: %v", m)
	}
	data, _ := m["data"].(string)
	moves := regexp.MustCompile(`\n;B\[df\]BL\[[0-9.]+\];W\[ee\]WL\[[0-9.]+\]\)\n$`)
	if !moves.MatchString(data) {
		t.Errorf("the record of the game in play does not end with its two moves:\n%s", data)
	}
	for _, want := range []string{"GM[1]", "SZ[9]", "PB[ann]", "PW[bob]", "OT[5x30 byo-yomi]"} {
		if !strings.Contains(data, want) {
			t.Errorf("the record of the game in play lacks %q:\n%s", want, data)
		}
	}
	if strings.Contains(data, "RE[") {
		t.Errorf("the record of a game in play has a result:\n%s", data)
	}
	// Another game's ID, and a channel the page may not see.
	if m := record(2, "12345"); m["t"] != "result" || m["refused"] != true || m["text"] != commands.UnknownGame {
		t.Errorf("the record of a game not in this channel: %v", m)
	}
	w.send(map[string]any{"t": "record", "id": 3, "channel": "999", "game": v.ID})
	if m := w.next("result"); m["refused"] != true || m["text"] != notHere {
		t.Errorf("the record of another channel's game: %v", m)
	}
	w.send(`{"t":"record","channel":"` + e.ch.ID + `"}`)
	if m := w.next("error"); m["text"] != "That message is not one gobot understands (record needs a channel and a game): it was ignored." {
		t.Errorf("a record message without a game: %v", m)
	}
	// Finished: the record has its result.
	v, _ = e.app.View(ctx, e.ch.ID)
	if res := e.app.Act(ctx, e.ch.ID, ann, commands.Action{Kind: commands.ActResign, Game: v.ID, Version: v.Version, Seat: "black"}); res.Refused {
		t.Fatalf("resign: %s", res.Text)
	}
	m = record(4, v.ID)
	data, _ = m["data"].(string)
	if m["t"] != "record" || !strings.Contains(data, "RE[W+R]") || !moves.MatchString(data) {
		t.Errorf("the record of the finished game: %v", m)
	}
}

// TestLocalStartOptions: a local page starts a game with the colour,
// handicap and clock it chose, as /go bot and /go challenge take them;
// the welcome offers the clocks, the default first; an option out of
// range is refused with its sentence and starts nothing.
func TestLocalStartOptions(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	w, _, err := e.dial(t, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	w.send(map[string]any{"t": "hello", "session": e.localSession("ann")})
	clocks, _ := w.next("welcome")["clocks"].([]any)
	if len(clocks) != 5 || fmt.Sprint(clocks[0]) != "map[label:correspondence — Fischer: 3 days, +1 day per move, at most 7 days value:correspondence]" ||
		fmt.Sprint(clocks[3]) != "map[label:blitz — byo-yomi: 3 min, then 5 periods of 10 s value:blitz]" {
		t.Errorf("the clocks offered: %v", clocks)
	}
	for _, bad := range []struct{ msg, want string }{
		{`{"t":"start","id":1,"level":"easy","size":9,"color":"red"}`, "color must be black, white or nigiri"},
		{`{"t":"start","id":1,"level":"easy","size":9,"handicap":1}`, "handicap must be 2 to 9 stones, or none"},
		{`{"t":"start","id":1,"level":"easy","size":9,"handicap":10}`, "handicap must be 2 to 9 stones, or none"},
		{`{"t":"start","id":1,"level":"easy","size":9,"clock":"forever"}`, "clock must be one of the presets"},
	} {
		w.send(bad.msg)
		if m := w.next("error"); m["text"] != "That message is not one gobot understands ("+bad.want+"): it was ignored." {
			t.Errorf("%s: %v", bad.msg, m)
		}
	}
	if games, err := e.app.Games(t.Context(), ""); err != nil || len(games) != 0 {
		t.Fatalf("games after the refusals: %v %v", games, err)
	}
	w.send(map[string]any{"t": "start", "id": 2, "level": "easy", "size": 9, "color": "white", "handicap": 2, "clock": "blitz"})
	r := w.next("result")
	if r["refused"] == true {
		t.Fatalf("start: %v", r)
	}
	v, err := e.app.View(t.Context(), r["channel"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.White.Players) != 1 || v.White.Players[0].Name != "ann" || !strings.Contains(v.Rules, "handicap 2") || !strings.Contains(v.Rules, "· handicap 2 · byo-yomi: 3 min, then 5 periods of 10 s ·") {
		t.Errorf("the game started: white %v, rules %q; want ann White, handicap 2 and the blitz clock", v.White.Players, v.Rules)
	}
}

// TestActivityWrongClientSecret: with a client secret Discord refuses
// (one reset in the Developer Portal and not in gobot's settings), every
// sign-in is told that the board is misconfigured on gobot's side, with
// no advice to reopen it and no Retry; the log says so at ERROR, naming
// the setting and quoting no part of the secret; Discord is asked once,
// and nobody's failures are counted (all players share the addresses of
// Discord's proxy).
func TestActivityWrongClientSecret(t *testing.T) {
	const wrong = "Zq8vX3kP0wLr7TbN"
	var logs logtest.Buffer
	calls := &countingTransport{calls: map[string]int{}}
	e := newEnv(t, Options{ClientSecret: wrong, HTTPClient: &http.Client{Transport: calls},
		Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	for i := range 12 {
		who := []string{"ann", "bob"}[i%2]
		code, out := signInFrom(t, e, "203.0.113.9:4000", e.d.AuthorizeCode(user(who)), inst)
		if code != http.StatusServiceUnavailable || out["error"] != misconfigured || out["retry"] != "no" {
			t.Fatalf("%s's sign-in %d: %d %v, want 503 %q, no retry", who, i+1, code, out, misconfigured)
		}
	}
	if want := "This board's sign-in is misconfigured on gobot's side (Discord does not accept its client secret): tell whoever runs gobot. Meanwhile, play with /go and /draughts in Discord."; misconfigured != want {
		t.Errorf("the players read %q, want %q", misconfigured, want)
	}
	if n := calls.count("/oauth2/token"); n != 1 {
		t.Errorf("12 sign-ins with a refused secret called the token endpoint %d times, want once", n)
	}
	if n := len(e.board.limits.fails); n != 0 {
		t.Errorf("gobot's refused secret counted as %d clients' failed sign-ins", n)
	}
	out := logs.String()
	if strings.Count(out, "level=ERROR") != 1 || !strings.Contains(out, "level=ERROR msg=\""+strings.ReplaceAll(secretRefused, `"`, `\"`)+"\"") ||
		!strings.Contains(secretRefused, "DISCORD_CLIENT_SECRET is not this application's client secret") {
		t.Errorf("the log does not say once at ERROR that DISCORD_CLIENT_SECRET is wrong:\n%s", out)
	}
	if strings.Contains(out, "OAuth2 code refused") {
		t.Errorf("the log blames the players' codes:\n%s", out)
	}
	for i := 0; i+4 <= len(wrong); i++ {
		if strings.Contains(out, wrong[i:i+4]) {
			t.Errorf("the log quotes part of the client secret (%q):\n%s", wrong[i:i+4], out)
		}
	}
}

// TestActivityDiscordOutNotCounted: Discord failing for a moment (its
// token endpoint answering 503) is said as such, and the page told to try
// again by itself; it counts against no one: a dozen such sign-ins from
// one address, then a player there signs in.
func TestActivityDiscordOutNotCounted(t *testing.T) {
	var down atomic.Int32
	e := newEnv(t, Options{HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if strings.HasSuffix(r.URL.Path, "/oauth2/token") && down.Add(-1) >= 0 {
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
		}
		return http.DefaultTransport.RoundTrip(r)
	})}})
	inst := e.d.Activity(e.ch, user("ann"))
	down.Store(12)
	for i := range 12 {
		code, out := signInFrom(t, e, "203.0.113.9:4000", e.d.AuthorizeCode(user("ann")), inst)
		if code != http.StatusBadGateway || out["error"] != discordIsOut || out["retry"] != "auto" {
			t.Fatalf("sign-in %d while the token endpoint fails: %d %v, want 502 %q, retry auto", i+1, code, out, discordIsOut)
		}
	}
	if code, out := signInFrom(t, e, "203.0.113.9:4000", e.d.AuthorizeCode(user("ann")), inst); code != http.StatusOK {
		t.Errorf("ann's sign-in once Discord is back: %d %v", code, out)
	}
}

// roundTripFunc is an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// signInFrom signs in through the Activity's API from the address from,
// with a fresh state, and returns the status and the JSON answered.
func signInFrom(t *testing.T, e *env, from, code, instance string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	e.board.ServeHTTP(w, httptest.NewRequest(http.MethodGet, Path+"/api/state", nil))
	var st struct{ State string }
	json.NewDecoder(w.Body).Decode(&st)
	body, _ := json.Marshal(map[string]string{"code": code, "state": st.State, "instance_id": instance})
	r := httptest.NewRequest(http.MethodPost, Path+"/api/token", bytes.NewReader(body))
	r.RemoteAddr = from
	w = httptest.NewRecorder()
	e.board.ServeHTTP(w, r)
	var out map[string]any
	json.NewDecoder(w.Body).Decode(&out)
	return w.Code, out
}
