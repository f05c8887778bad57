package web

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/draughtsroom"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// shots is where the browser tests save their screenshots ("" for the
// test's temporary folder); testdata/out is ignored by git.
var shots = flag.String("shots", "", "folder for the browser tests' screenshots (default: the test's temporary folder)")

// testKinds are the kinds of game the tests' stores read back.
func testKinds() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}

// firstPoint is the tests' bot: it passes when its opponent passed (so
// that games end) and otherwise plays the first legal point from the top
// left, so its moves are known in advance.
type firstPoint struct{}

func (firstPoint) Levels() []commands.Level {
	return []commands.Level{{Name: "easy", Description: "plays the first free point from the top left"}}
}

func (firstPoint) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	if m, ok := g.LastMove(); ok && m.Kind == engine.Pass {
		return engine.PassMove(g.ToPlay()), nil
	}
	legal := map[engine.Point]bool{}
	for _, p := range g.Legal() {
		legal[p] = true
	}
	n := g.Size()
	for row := n - 1; row >= 0; row-- {
		for col := range n {
			if p := (engine.Point{Col: col, Row: row}); legal[p] {
				return engine.PlaceAt(g.ToPlay(), p), nil
			}
		}
	}
	return engine.PassMove(g.ToPlay()), nil
}

// env is gobot on loopback with the fake Discord: the App in HTTP mode,
// its interactions endpoint and the board page on one test server.
type env struct {
	t     testing.TB
	d     *discordtest.Server
	app   *commands.App
	store *storage.Store
	board *Handler
	srv   *httptest.Server
	ch    *discordtest.Channel
	// wsDown, while set, refuses the pages' WebSockets (503), as a network
	// between the page and gobot that is down would.
	wsDown *atomic.Bool
}

// newEnv starts gobot with the board page; opts sets the page's options
// beyond the App and the fake Discord's credentials (its Log, when set,
// is the App's too; its ClientSecret, when set, one the fake refuses).
func newEnv(t testing.TB, opts Options) *env {
	t.Helper()
	// Local games post their boards in channels the fake does not know.
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
	store, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{Kinds: testKinds()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() && os.Getenv("GOBOT_WEB_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if opts.Log != nil {
		log = opts.Log
	}
	app, err := commands.New(commands.Options{AppID: d.AppID, GuildID: d.GuildID, Discord: commands.NewREST(d.URL, d.Token, nil),
		Store: store, Rooms: []commands.NewRoom{goroom.New(firstPoint{}, nil), draughtsroom.New(nil)}, Logger: log, BotWorkers: 2, Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	if opts.ClientSecret == "" { // else a secret Discord refuses
		opts.ClientSecret = discordtest.ClientSecret
	}
	opts.App, opts.ClientID, opts.BotToken, opts.APIURL, opts.Log = app, d.AppID, d.Token, d.URL, log
	if opts.LocalChannel == "" {
		opts.LocalChannel = commands.ConsoleChannel
	}
	board, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var wsDown atomic.Bool
	mux := http.NewServeMux()
	mux.Handle(Path, board)
	mux.Handle(Path+"/", board)
	mux.HandleFunc(Path+"/ws", func(w http.ResponseWriter, r *http.Request) {
		if wsDown.Load() {
			http.Error(w, "the network is down", http.StatusServiceUnavailable)
			return
		}
		board.ServeHTTP(w, r)
	})
	mux.Handle("/interactions", app.HTTPHandler(d.Signer.Public))
	// Discord's URL mapping /cdn (to cdn.discordapp.com), stood in for:
	// every picture is one grey pixel.
	mux.HandleFunc("GET /cdn/avatars/{id}/{file}", func(w http.ResponseWriter, r *http.Request) {
		img := image.NewGray(image.Rect(0, 0, 1, 1))
		img.Pix[0] = 0x80
		w.Header().Set("Content-Type", "image/png")
		png.Encode(w, img)
	})
	srv := httptest.NewServer(mux)
	d.Endpoint = srv.URL + "/interactions"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { app.Run(ctx); close(done) }()
	t.Cleanup(func() {
		board.Close()
		srv.Close()
		cancel()
		<-done
		app.Shutdown(context.Background())
	})
	return &env{t: t, d: d, app: app, store: store, board: board, srv: srv, ch: d.GuildChannel("go"), wsDown: &wsDown}
}

// dropPages ends every page's WebSocket from gobot's side, as gobot does
// to a page too slow to take what it is sent.
func (e *env) dropPages() {
	e.board.hub.mu.Lock()
	defer e.board.hub.mu.Unlock()
	for c := range e.board.hub.conns {
		c.close()
	}
}

// user is the fake Discord's user for a name: the same person as the
// name signed in on a local page and in the console.
func user(name string) discordtest.User {
	return discordtest.User{ID: commands.ConsoleUser(name).ID, Username: name}
}

// slash runs a /go subcommand in the env's channel as name and returns
// the text of gobot's answer, once it is settled.
func (e *env) slash(name, sub string, opts ...discordtest.Option) string {
	e.t.Helper()
	it := e.d.Command(e.ch, user(name), "go", discordtest.Sub(sub, opts...))
	e.d.Do(it)
	return e.d.Settled(it).Text()
}

// challenge starts a size×size game in the env's channel, black against
// white (unrated, live clock), by slash command and Accept button, as in
// Discord.
func (e *env) challenge(black, white string, size int, more ...discordtest.Option) {
	e.t.Helper()
	clock := discordtest.Str("clock", "live")
	for _, o := range more {
		if o.Name == "clock" {
			clock = o // more's clock instead
		}
	}
	more = slices.DeleteFunc(more, func(o discordtest.Option) bool { return o.Name == "clock" })
	opts := append([]discordtest.Option{discordtest.UserOpt("opponent", user(white)),
		discordtest.Int("size", size), discordtest.Str("color", "black"), discordtest.Bool("rated", false), clock}, more...)
	e.accepted(e.d.Command(e.ch, user(black), "go", discordtest.Sub("challenge", opts...)), white)
}

// accepted sends the challenge command it and has who press its Accept
// button.
func (e *env) accepted(it *discordtest.Interaction, who string) {
	e.t.Helper()
	e.d.Do(it)
	m := e.d.Settled(it)
	for _, b := range m.Buttons() {
		if strings.HasSuffix(b.CustomID, "/accept") {
			if r := e.d.Do(e.d.Click(user(who), m, b.CustomID)); r.Ephemeral() {
				e.t.Fatalf("accept: %s", r.Text())
			}
			return
		}
	}
	e.t.Fatalf("challenge: no Accept button in %q", m.Text())
}

// ---- the browser ----------------------------------------------------

// browser is one headless Chromium; each page is a browser context of
// its own (its own storage), as separate people would have.
type browser struct {
	t   testing.TB
	ctx context.Context
	out string
	// zone and locale, when set, are the time zone and the language the
	// pages opened from then on read times in (a test of what a time
	// reads as).
	zone, locale string
}

func newBrowser(t testing.TB) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("the browser tests need Debian's chromium (apt-get install chromium; .ci/run installs it): not found on PATH")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true))
	// Chromium now and then exits at once without a word on a loaded
	// machine ("chrome failed to start:", seen twice in a day of runs
	// beside a Go match): the start is tried three times.
	var ctx context.Context
	for attempt := 1; ; attempt++ {
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		c, cancel := chromedp.NewContext(alloc)
		err := chromedp.Do(c)
		if err == nil {
			ctx = c
			// chromedp.Cancel closes the browser gracefully: a
			// plain cancel kills it, and the killed Chromium leaves
			// its socket's directory (/tmp/org.chromium.Chromium.*)
			// behind, one a test.
			t.Cleanup(func() {
				if err := chromedp.Cancel(c); err != nil {
					t.Logf("close chromium: %v", err)
				}
				cancel()
				cancelAlloc()
			})
			break
		}
		cancel()
		cancelAlloc()
		if attempt == 3 {
			t.Fatalf("start chromium (3 tries): %v", err)
		}
		t.Logf("start chromium, try %d: %v", attempt, err)
	}
	out := *shots
	if out == "" {
		out = t.TempDir()
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, ctx: ctx, out: out}
}

// tab is one person's page.
type tab struct {
	t    testing.TB
	b    *browser
	ctx  context.Context
	name string

	mu     sync.Mutex
	failed []string // the requests answered with an error status, "404 /path"
}

// failures are the page's requests answered with an error status so far.
func (p *tab) failures() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.failed...)
}

// open opens a page of w×h pixels at url, running script before the
// page's own (a stand-in for Discord's SDK).
func (b *browser) open(name, url string, w, h int64, script string) *tab {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	p := &tab{t: b.t, b: b, ctx: ctx, name: name}
	err := chromedp.Listen(ctx, func(ev any) {
		if r, ok := ev.(*network.EventResponseReceived); ok && r.Response.Status >= 400 {
			p.mu.Lock()
			p.failed = append(p.failed, fmt.Sprintf("%d %s", r.Response.Status, r.Response.URL))
			p.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatalf("%s: open a tab: %v", name, err)
	}
	steps := []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(w, h)}
	if b.zone != "" {
		zone, locale := b.zone, b.locale
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if _, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, t, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: locale})
			return err
		}))
	}
	if script != "" {
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
			return err
		}))
	}
	steps = append(steps, chromedp.Navigate(url))
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: open %s: %v", name, url, err)
	}
	return p
}

// js evaluates an expression and returns its value.
func js[T any](p *tab, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, expr, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds, or fails the test
// after d saying what the page shows.
func (p *tab) wait(what, cond string, d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		if js[bool](p, "!!("+cond+")") {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: waited %v for %s; the page shows status %q, message %q, fatal %q; it reads:\n%s", p.name, d, what,
				p.text("#status"), p.text("#message"), p.text("#fatal"), js[string](p, "document.body.innerText"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// text is an element's text ("" when there is none).
func (p *tab) text(sel string) string {
	p.t.Helper()
	q, _ := json.Marshal(sel)
	return js[string](p, fmt.Sprintf("(document.querySelector(%s)||{}).textContent||''", q))
}

// label is what a screen reader reads for a point: "E5, black stone…".
func (p *tab) label(point string) string {
	return js[string](p, fmt.Sprintf(`(document.querySelector('[data-point="%s"]')||{getAttribute:()=>''}).getAttribute('aria-label')||''`, point))
}

// waitStone waits until the page shows stone ("black", "white" or
// "empty") at point.
func (p *tab) waitStone(point, stone string) {
	p.t.Helper()
	p.wait(point+" "+stone, fmt.Sprintf(`((document.querySelector('[data-point="%s"]')||{getAttribute:()=>''}).getAttribute('aria-label')||'').startsWith(%q)`, point, point+", "+stone), stoneWait)
}

// stoneWait is how long a page may take to show a stone played or taken
// back: an action's round trip through gobot and the fake Discord, which
// took over 10 s once under the race detector beside a bot match.
const stoneWait = 30 * time.Second

// clickPoint clicks with the mouse where the board draws point: the
// position is worked out from the drawing (the SVG's box and the board's
// size), not from the buttons laid over it.
func (p *tab) clickPoint(point string) {
	p.t.Helper()
	p.clickAt(point, p.pointXY(point))
}

// clickAt clicks with the mouse at xy, the page's pixels of what (a
// point, a square), which the failure names.
func (p *tab) clickAt(what string, xy []float64) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		p.t.Fatalf("%s: click %s: %v", p.name, what, err)
	}
}

// pointXY is where the board draws point, in the page's pixels.
func (p *tab) pointXY(point string) []float64 {
	p.t.Helper()
	return js[[]float64](p, fmt.Sprintf(`(() => {
		const svg = document.getElementById('board').getBoundingClientRect();
		const n = document.querySelectorAll('#points button').length ** 0.5;
		const cols = 'ABCDEFGHJKLMNOPQRST';
		const c = cols.indexOf(%q[0]), r = n - parseInt(%q.slice(1), 10);
		const m = 0.25, span = n + 1 + 2 * m; // board.js's margin M
		return [svg.left + svg.width * (1 + c + m) / span, svg.top + svg.height * (1 + r + m) / span];
	})()`, point, point))
}

// click clicks an element with the mouse.
func (p *tab) click(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(sel)); err != nil {
		p.t.Fatalf("%s: click %s: %v", p.name, sel, err)
	}
}

// shot saves a screenshot of the element sel as name.png and returns its path.
func (p *tab) shot(sel, name string) string {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(sel))
	if err != nil {
		p.t.Fatalf("%s: screenshot %s: %v", p.name, sel, err)
	}
	path := filepath.Join(p.b.out, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
	return path
}

// signIn signs a local page in by name.
func (p *tab) signIn(name string) {
	p.t.Helper()
	p.wait("the sign-in form", `!document.getElementById('signin').hidden`, 10*time.Second)
	if err := chromedp.Do(p.ctx, chromedp.SetValue("#signin-name", name), chromedp.Click(`#signin-form button`)); err != nil {
		p.t.Fatalf("%s: sign in: %v", p.name, err)
	}
	p.wait("signed in", `document.getElementById('me').textContent === 'Signed in as `+name+`'`, 10*time.Second)
}

// mockSDK is a stand-in for Discord's Embedded App SDK: ready, then an
// authorize that returns code (and remembers what it was asked), then
// authenticate.
func mockSDK(instance, channel, code string) string {
	return fmt.Sprintf(`window.__gobotSDK = () => ({
		instanceId: %q, channelId: %q,
		ready: async () => {},
		commands: {
			authorize: async (args) => { window.__authorized = args; return { code: %q }; },
			authenticate: async (args) => { window.__authenticated = args; return { access_token: args.access_token }; },
		},
	});`, instance, channel, code)
}

// mockSDKCodes is mockSDK whose authorize returns codes in turn, one a
// call (a sign-in again needs a new one, as Discord gives), and counts its
// calls in window.__authorizeCalls.
func mockSDKCodes(instance, channel string, codes ...string) string {
	list, _ := json.Marshal(codes)
	return fmt.Sprintf(`window.__authorizeCalls = 0;
	window.__gobotSDK = () => ({
		instanceId: %q, channelId: %q,
		ready: async () => {},
		commands: {
			authorize: async (args) => { window.__authorized = args; return { code: %s[window.__authorizeCalls++] || 'code-none' }; },
			authenticate: async (args) => { window.__authenticated = args; return { access_token: args.access_token }; },
		},
	});`, instance, channel, list)
}

// activity opens the board as name in the env's channel's Activity, as
// Discord would: through the SDK's sign-in.
func (e *env) activity(b *browser, name, instance string, w, h int64) *tab {
	e.t.Helper()
	p := b.open(name, e.srv.URL+Path+"/?frame_id=f1&instance_id="+instance+"&channel_id="+e.ch.ID, w, h, mockSDK(instance, e.ch.ID, e.d.AuthorizeCode(user(name))))
	p.wait("signed in through Discord", `document.getElementById('me').textContent === 'Signed in as `+name+`'`, 10*time.Second)
	return p
}

// activityGame starts a size×size game of ann (Black) against bob, in a
// server run for the page on loopback, and an Activity instance in its
// channel that the users named have joined.
func activityGame(t *testing.T, size int, users ...string) (*env, *browser, string) {
	t.Helper()
	e := newEnv(t, Options{Local: true}) // the page is served from 127.0.0.1, not from discordsays.com: its origin passes as a local one
	b := newBrowser(t)
	e.challenge("ann", "bob", size)
	var in []discordtest.User
	for _, u := range users {
		in = append(in, user(u))
	}
	return e, b, e.d.Activity(e.ch, in...)
}
