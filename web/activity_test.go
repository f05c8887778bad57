package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/goroom"
)

// TestOpenBoardButton: with the Activity set up, every board message has
// an Open board button, which answers with the callback that launches the
// Activity; the global commands include the Entry Point command, launched
// by Discord.
func TestOpenBoardButton(t *testing.T) {
	e := newEnv(t, Options{})
	e.challenge("ann", "bob", 9)
	board := e.slash("ann", "board")
	msgs := e.d.Public(e.ch.ID)
	var found bool
	for i := len(msgs) - 1; i >= 0 && !found; i-- {
		for _, b := range msgs[i].Buttons() {
			if b.Label != "Open board" {
				continue
			}
			found = true
			r := e.d.Do(e.d.Click(user("cat"), msgs[i], b.CustomID))
			if r.Type != discordtest.CallbackLaunchActivity {
				t.Errorf("Open board answered type %d (%s), want 12 (LAUNCH_ACTIVITY)", r.Type, r.Body)
			}
		}
	}
	if !found {
		t.Fatalf("no Open board button on the board: %q", board)
	}
	app, err := commands.New(commands.Options{AppID: e.d.AppID, Discord: commands.NewREST(e.d.URL, e.d.Token, nil), Store: e.store,
		Rooms: []commands.NewRoom{goroom.New(firstPoint{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Shutdown(context.Background())
	if err := app.Register(context.Background()); err != nil {
		t.Fatal(err)
	}
	var entry map[string]any
	for _, c := range e.d.Commands("") {
		if m, _ := c.(map[string]any); m["type"] == float64(4) {
			entry = m
		}
	}
	if entry == nil || entry["handler"] != float64(2) || entry["name"] != "launch" {
		t.Errorf("the global commands' Entry Point is %v, want type 4, handler 2 (Discord launches the Activity)", entry)
	}
	if p := e.d.Problems(); len(p) > 0 {
		t.Errorf("the fake Discord saw problems: %v", p)
	}
}

// codes are n authorization codes of name's, as Discord's authorize
// would give them one a sign-in.
func (e *env) codes(name string, n int) []string {
	var out []string
	for range n {
		out = append(out, e.d.AuthorizeCode(user(name)))
	}
	return out
}

// retryShown is whether the page offers its Retry button.
const retryShown = `!!(document.getElementById('retry') || {}).offsetParent`

// TestBrowserActivitySignsInAgain: a phone whose page was offline longer
// than a session lasts (asleep, Discord in the background) comes back
// signed in again by itself, on its game, without a word from the user
// (Discord's authorize with prompt 'none'): inside Discord there is no
// reload.
func TestBrowserActivitySignsInAgain(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	e := newEnv(t, Options{Local: true, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := b.open("ann", e.srv.URL+Path+"/?frame_id=f1&instance_id="+inst+"&channel_id="+e.ch.ID, 390, 844, mockSDKCodes(inst, e.ch.ID, e.codes("ann", 3)...))
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	e.wsDown.Store(true)
	e.dropPages()
	ann.wait("the page to say so", `document.getElementById('conn').textContent === 'reconnecting…'`, 10*time.Second)
	mu.Lock()
	now = now.Add(DefaultSessionTTL + 5*time.Minute)
	mu.Unlock()
	e.wsDown.Store(false)
	ann.wait("signed in again", `window.__authorizeCalls === 2 && document.getElementById('me').textContent === 'Signed in as ann' && document.getElementById('conn').textContent === ''`, 20*time.Second)
	if got := js[string](ann, `window.__authorized.prompt`); got != "none" {
		t.Errorf("signing in again asked authorize with prompt %q, want 'none'", got)
	}
	if got := ann.text("#fatal"); js[bool](ann, `!document.getElementById('fatal').hidden`) {
		t.Errorf("the page, signed in again, reads %q", got)
	}
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob' && !document.getElementById('game').hidden`, 10*time.Second)
	ann.clickPoint("E5")
	ann.waitStone("E5", "black")
	ann.shot("body", "signed-in-again-phone")
}

// TestBrowserActivitySignInRetries: Discord failing for a moment while a
// page signs in (the instance lookup answering 503) is tried again by the
// page by itself; when it fails for longer, the page says so with a Retry
// button, which signs in once Discord is back.
func TestBrowserActivitySignInRetries(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	e.d.Fail(http.MethodGet, "/applications/{application_id}/activity-instances/{instance_id}", http.StatusServiceUnavailable, 1)
	open := func(name string) *tab {
		return b.open(name, e.srv.URL+Path+"/?frame_id=f1&instance_id="+inst+"&channel_id="+e.ch.ID, 390, 844, mockSDKCodes(inst, e.ch.ID, e.codes(name, 8)...))
	}
	ann := open("ann")
	ann.wait("signed in after one failure", `document.getElementById('me').textContent === 'Signed in as ann'`, 10*time.Second)
	if n := js[int](ann, `window.__authorizeCalls`); n != 2 {
		t.Errorf("ann's page signed in after %d tries, want 2", n)
	}
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)

	e.d.Down(http.StatusServiceUnavailable)
	bob := open("bob")
	bob.wait("the failure said", `!document.getElementById('fatal').hidden && `+retryShown, 10*time.Second)
	if got, want := bob.text("#fatal"), "Discord could not be reached to sign you in: try again in a moment."; got != want {
		t.Errorf("bob's page reads %q, want %q", got, want)
	}
	if got, want := bob.text("#retry-note"), "Trying again by itself…"; got != want {
		t.Errorf("beside Retry bob's page reads %q, want %q", got, want)
	}
	bob.shot("body", "signin-503-phone")
	// Once its tries are spent (1+2+4+8 s), Retry is left.
	bob.wait("the tries spent", `window.__authorizeCalls === 5 && document.getElementById('retry-note').textContent === ''`, 30*time.Second)
	if !js[bool](bob, retryShown) {
		t.Fatalf("once its tries are spent bob's page offers no Retry; it reads %q", js[string](bob, `document.body.innerText`))
	}
	e.d.Up()
	bob.click("#retry")
	bob.wait("signed in", `document.getElementById('me').textContent === 'Signed in as bob'`, 10*time.Second)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob' && !document.getElementById('game').hidden`, 10*time.Second)
	if js[bool](bob, retryShown) || js[bool](bob, `!document.getElementById('fatal').hidden`) {
		t.Errorf("signed in, bob's page still shows the failure: %q", js[string](bob, `document.body.innerText`))
	}
}

// TestBrowserActivityMisconfigured: with a client secret Discord refuses,
// the page says the board's sign-in is misconfigured on gobot's side,
// with no Retry (nothing the player does helps).
func TestBrowserActivityMisconfigured(t *testing.T) {
	e := newEnv(t, Options{Local: true, ClientSecret: "not-the-secret"})
	b := newBrowser(t)
	inst := e.d.Activity(e.ch, user("ann"))
	ann := b.open("ann", e.srv.URL+Path+"/?frame_id=f1&instance_id="+inst+"&channel_id="+e.ch.ID, 390, 844, mockSDKCodes(inst, e.ch.ID, e.codes("ann", 2)...))
	ann.wait("the failure said", `!document.getElementById('fatal').hidden`, 10*time.Second)
	if got := ann.text("#fatal"); got != misconfigured {
		t.Errorf("the page reads %q, want %q", got, misconfigured)
	}
	time.Sleep(1500 * time.Millisecond) // past a first try again
	if js[bool](ann, retryShown) || js[int](ann, `window.__authorizeCalls`) != 1 {
		t.Errorf("the page offers Retry or tried again (%d sign-ins) although nothing helps", js[int](ann, `window.__authorizeCalls`))
	}
}

// TestBrowserActivityNoSignInLoop: a session gobot refuses as soon as it
// is made (here sessions that expire at once, as a clock gone wrong
// would) does not make the page sign in again and again: it says why,
// with Retry.
func TestBrowserActivityNoSignInLoop(t *testing.T) {
	// Whole seconds, and sessions shorter than one: expired once made.
	e := newEnv(t, Options{Local: true, SessionTTL: 900 * time.Millisecond, Now: func() time.Time { return time.Now().Truncate(time.Second) }})
	b := newBrowser(t)
	inst := e.d.Activity(e.ch, user("ann"))
	ann := b.open("ann", e.srv.URL+Path+"/?frame_id=f1&instance_id="+inst+"&channel_id="+e.ch.ID, 390, 844, mockSDKCodes(inst, e.ch.ID, e.codes("ann", 5)...))
	ann.wait("the failure said", `!document.getElementById('fatal').hidden && `+retryShown, 10*time.Second)
	if got, want := ann.text("#fatal"), "Your session has expired: reload the board to sign in again."; got != want {
		t.Errorf("the page reads %q, want %q", got, want)
	}
	time.Sleep(2 * time.Second)
	if n := js[int](ann, `window.__authorizeCalls`); n != 1 {
		t.Errorf("the page signed in %d times, want once", n)
	}
}
