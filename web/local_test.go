package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// waitTurn waits until the page says it is name's turn (after the bot's
// answer to a move).
func (p *tab) waitTurn(name string) {
	p.t.Helper()
	p.wait(name+"'s turn", `document.getElementById('status').textContent.endsWith('to play: `+name+`') && !document.getElementById('pass').disabled`, 10*time.Second)
}

// challenge sends a challenge to name from a local page's form.
func (p *tab) challenge(name, size string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.SetValue("#challenge-name", name), chromedp.SetValue("#challenge-size", size), chromedp.Click(`#newchallenge button`)); err != nil {
		p.t.Fatalf("%s: challenge %s: %v", p.name, name, err)
	}
}

// startBot starts a game against the bot from a local page's form.
func (p *tab) startBot(level string, size string) {
	p.t.Helper()
	p.wait("the new game form", `!document.getElementById('newbot').hidden && document.querySelectorAll('#newbot-level option').length > 0`, 10*time.Second)
	if err := chromedp.Do(p.ctx, chromedp.SetValue("#newbot-level", level), chromedp.SetValue("#newbot-size", size), chromedp.Click(`#newbot button`)); err != nil {
		p.t.Fatalf("%s: start a bot game: %v", p.name, err)
	}
	p.wait("the new game", `!document.getElementById('game').hidden && document.getElementById('title').textContent.includes('gobot easy')`, 10*time.Second)
}

// TestBrowserLocalBotGame: on a local gobot, a person signs in by name,
// starts a game against the bot and plays it by clicks to the end; the
// bot answers each click.
func TestBrowserLocalBotGame(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("dan", e.srv.URL+Path+"/", 1000, 900, "")
	p.signIn("dan")
	p.startBot("easy", "9")
	// Who plays black is drawn; the bot plays the first free point from
	// the top left.
	black := js[bool](p, `document.querySelector('#side-black .names').textContent.startsWith('dan')`)
	if !black {
		p.waitStone("A9", "black")
	}
	for _, pt := range []string{"E5", "D4", "F6"} {
		p.clickPoint(pt)
		p.waitStone(pt, map[bool]string{true: "black", false: "white"}[black])
		p.waitTurn("dan")
	}
	// The bot's answers came in order from A9.
	p.waitStone("B9", map[bool]string{true: "white", false: "black"}[black])
	p.click("#pass")
	p.wait("the scoring phase", `!document.getElementById('scoring').hidden`, 10*time.Second)
	p.shot("#game", "local-bot-9x9-scoring")
	p.wait("the accept button", `!document.getElementById('accept').hidden && !document.getElementById('accept').disabled`, 5*time.Second)
	p.click("#accept")
	p.wait("the result", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
	t.Logf("%s", p.text("#status"))
}

// TestBrowserPhone19x19: on a phone's screen (390×844), a click on a
// 19×19 board lands on the point drawn under the finger, and nowhere else;
// with "tap twice" on (a touch screen's default), the first tap only
// shows the stone.
func TestBrowserPhone19x19(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("eve", e.srv.URL+Path+"/", 390, 844, "")
	p.signIn("eve")
	p.startBot("easy", "19")
	black := js[bool](p, `document.querySelector('#side-black .names').textContent.startsWith('eve')`)
	me := "black"
	if !black {
		me = "white"
		p.waitStone("A19", "black")
	}
	p.waitTurn("eve")
	js[bool](p, `(document.getElementById('confirm').checked = true, true)`)
	for _, pt := range []string{"Q16", "K10", "C3", "T1"} {
		p.clickPoint(pt)
		p.wait("the tap's preview", `document.getElementById('message').textContent === 'Tap `+pt+` again to play it.'`, 5*time.Second)
		if got := p.label(pt); !strings.HasPrefix(got, pt+", empty") {
			t.Fatalf("after one tap %s reads %q, want it still empty", pt, got)
		}
		p.clickPoint(pt)
		p.waitStone(pt, me)
		p.waitTurn("eve")
	}
	// Only those points (and the bot's answers along the top) hold stones of mine.
	mine := js[[]string](p, `[...document.querySelectorAll('#points button')].filter(b => b.getAttribute('aria-label').includes('`+me+` stone')).map(b => b.dataset.point)`)
	for _, pt := range mine {
		if !strings.Contains(" Q16 K10 C3 T1 ", " "+pt+" ") {
			t.Errorf("a stone of mine at %s, which was not clicked", pt)
		}
	}
	p.shot("body", "local-19x19-phone")
}

// TestBrowserKeyboard: the board is played with the arrow keys and Enter,
// and each point reads as a screen reader would say it.
func TestBrowserKeyboard(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("fay", e.srv.URL+Path+"/", 1000, 900, "")
	p.signIn("fay")
	p.startBot("easy", "9")
	black := js[bool](p, `document.querySelector('#side-black .names').textContent.startsWith('fay')`)
	me := "black"
	if !black {
		me = "white"
		p.waitStone("A9", "black")
	}
	// One point of the board takes the focus by Tab (E5, the centre);
	// from there, up twice, left once is D7.
	if err := chromedp.Do(p.ctx, chromedp.Focus(`#points button[tabindex="0"]`)); err != nil {
		t.Fatal(err)
	}
	if got := js[string](p, `document.activeElement.dataset.point`); got != "E5" {
		t.Fatalf("the board's focus starts on %q, want E5", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.ArrowUp+kb.ArrowUp+kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if got := js[string](p, `document.activeElement.getAttribute('aria-label')`); got != "D7, empty" {
		t.Fatalf("after ↑↑← the focus reads %q, want D7, empty", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	p.waitStone("D7", me)
	p.wait("the announcement", `document.getElementById('live').textContent.includes('played D7.')`, 5*time.Second)
	if got := p.text("#live"); !strings.Contains(got, strings.ToUpper(me[:1])+me[1:]+" (fay) played D7.") {
		t.Errorf("the screen reader heard %q", got)
	}
}

// TestBrowserExpiredSession: when the session has run out (a page left
// open without its connection renewing it), a click says so in the page,
// which no longer says who is signed in, and changes nothing.
func TestBrowserExpiredSession(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	e := newEnv(t, Options{Local: true, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	b := newBrowser(t)
	start := time.Now()
	p := b.open("gus", e.srv.URL+Path+"/", 1000, 900, "")
	p.wait("the sign-in form", `!document.getElementById('signin').hidden`, 10*time.Second)
	ready := js[float64](p, `performance.getEntriesByName('gobot-ready')[0].startTime`)
	t.Logf("the page was ready to sign in %.0f ms after its navigation began (%v with the new browser context)", ready, time.Since(start))
	p.signIn("gus")
	p.startBot("easy", "9")
	p.waitTurn("gus")
	mu.Lock()
	now = now.Add(DefaultSessionTTL + time.Minute)
	mu.Unlock()
	p.clickPoint("E5")
	p.wait("the expiry", `!document.getElementById('fatal').hidden`, 10*time.Second)
	if got := p.text("#fatal"); got != "Your session has expired: reload the board to sign in again." {
		t.Errorf("after the session ran out the page reads %q", got)
	}
	// The header no longer says who is signed in.
	if got := p.text("#me"); got != "" {
		t.Errorf("after the session ran out the header reads %q", got)
	}
	if v, err := e.app.Games(t.Context(), ""); err != nil || len(v) != 1 {
		t.Fatalf("games: %v %v", v, err)
	} else if got, _ := e.app.View(t.Context(), v[0].Channel); got.Board[4][4] != '.' {
		t.Errorf("the click after expiry played E5")
	}
}

// halAndIvy opens two local pages, signed in as hal and ivy.
func halAndIvy(t *testing.T) (hal, ivy *tab) {
	t.Helper()
	open := localPages(t)
	return open("hal"), open("ivy")
}

// localPages starts gobot's local page and returns what opens a page on
// it signed in by a name.
func localPages(t *testing.T) func(name string) *tab {
	t.Helper()
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	return func(name string) *tab {
		p := b.open(name, e.srv.URL+Path+"/", 1000, 900, "")
		p.signIn(name)
		return p
	}
}

// TestBrowserLocalChallenge: on this computer, one person challenges
// another by name from the page; the other accepts on theirs, and both
// play.
func TestBrowserLocalChallenge(t *testing.T) {
	hal, ivy := halAndIvy(t)
	hal.wait("ivy among the people", `[...document.querySelectorAll('#people option')].some(o => o.value === 'ivy')`, 5*time.Second)
	hal.challenge("ivy", "9")
	hal.wait("the waiting note", `document.getElementById('offers').textContent === 'Waiting for ivy to accept your 9×9 challenge. Withdraw'`, 5*time.Second)
	ivy.wait("the challenge", `document.getElementById('offers').textContent.startsWith('ivy, hal challenges you to a game of Go: 9×9, ')`, 5*time.Second)
	ivy.click(`#offers button`)
	for _, p := range []*tab{hal, ivy} {
		p.wait("the game", `['hal vs ivy', 'ivy vs hal'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	}
	first := hal
	if js[bool](hal, `document.getElementById('title').textContent === 'ivy vs hal'`) {
		first = ivy
	}
	first.clickPoint("C7")
	hal.waitStone("C7", "black")
	ivy.waitStone("C7", "black")
	ivy.wait("the offer gone", `document.getElementById('offers').textContent === ''`, 5*time.Second)
	hal.shot("body", "local-desktop")
}

// TestBrowserSDKLoads: the vendored Embedded App SDK loads in the page as
// the Activity loads it (every module found, served as JavaScript, allowed
// by the page's content security policy).
func TestBrowserSDKLoads(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("sdk", e.srv.URL+Path+"/", 800, 600, "")
	p.wait("the page", `!document.getElementById('signin').hidden`, 10*time.Second)
	js[bool](p, `(window.__sdk = 'loading', import('./sdk/index.mjs').then(m => { window.__sdk = typeof m.DiscordSDK; }, e => { window.__sdk = String(e); }), true)`)
	p.wait("the SDK", `window.__sdk !== 'loading'`, 10*time.Second)
	if got := js[string](p, `window.__sdk`); got != "function" {
		t.Errorf("importing the SDK gave %q, want its DiscordSDK class", got)
	}
}

// TestBrowserPageMessages: what the page says is seen and stays true. A
// refusal with no game on screen shows under the picker; "not your turn"
// goes once the opponent has moved; a taken point is refused at the first
// tap; the player who asked for an undo learns it was refused; a reload
// keeps the tab signed in, on its game.
func TestBrowserPageMessages(t *testing.T) {
	hal, ivy := halAndIvy(t)

	// No game on screen: the refusal of a challenge to oneself is seen.
	hal.wait("no game here", `document.getElementById('game').hidden`, 10*time.Second)
	hal.challenge("hal", "9")
	hal.wait("the refusal, in sight", `!document.getElementById('notice').hidden && document.getElementById('notice').textContent.startsWith('You cannot challenge yourself')`, 10*time.Second)

	hal.wait("ivy among the people", `[...document.querySelectorAll('#people option')].some(o => o.value === 'ivy')`, 5*time.Second)
	hal.challenge("ivy", "9")
	ivy.wait("the challenge", `document.getElementById('offers').textContent.startsWith('ivy, hal challenges you')`, 5*time.Second)
	// Withdrawn from the page, it is gone from both.
	hal.click(`#offers button`)
	for _, p := range []*tab{hal, ivy} {
		p.wait("the withdrawn challenge gone", `document.getElementById('offers').textContent === ''`, 10*time.Second)
	}
	hal.challenge("ivy", "9")
	ivy.wait("the challenge again", `document.getElementById('offers').textContent.startsWith('ivy, hal challenges you')`, 5*time.Second)
	ivy.click(`#offers button`)
	for _, p := range []*tab{hal, ivy} {
		p.wait("the game", `['hal vs ivy', 'ivy vs hal'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	}
	first, second := hal, ivy // black, white
	if js[bool](hal, `document.getElementById('title').textContent === 'ivy vs hal'`) {
		first, second = ivy, hal
	}
	if got := first.text("#notice"); js[bool](first, `!document.getElementById('notice').hidden`) {
		t.Errorf("with a game shown the notice still reads %q", got)
	}

	// Not your turn, then the opponent moves: the refusal goes.
	second.clickPoint("E5")
	second.wait("the refusal", `document.getElementById('message').textContent.startsWith('It is not your turn')`, 10*time.Second)
	first.clickPoint("C7")
	second.waitStone("C7", "black")
	second.wait("the stale refusal gone", `document.getElementById('message').textContent === ''`, 10*time.Second)

	// Tap twice to play: a taken point is refused at the first tap.
	second.click("#confirm")
	second.clickPoint("C7")
	second.wait("the taken point refused at once", `document.getElementById('message').textContent === 'C7 is already taken by a black stone.'`, 5*time.Second)
	second.clickPoint("D5")
	second.clickPoint("D5")
	first.waitStone("D5", "white")

	// An undo asked and refused: the asker is told.
	first.clickPoint("G3")
	second.waitStone("G3", "black")
	first.click("#undo")
	second.wait("the request", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	second.click("#undo-no")
	first.wait("the answer", `document.getElementById('message').textContent === 'Your undo request was refused.'`, 10*time.Second)

	// A reload keeps the tab signed in, on this game.
	if err := chromedp.Do(first.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	first.wait("the game after the reload", `!document.getElementById('game').hidden && ['hal vs ivy', 'ivy vs hal'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	if js[bool](first, `!document.getElementById('signin').hidden`) {
		t.Errorf("the reload asked to sign in again")
	}
	first.waitStone("G3", "black")
}

// TestBrowserLocalChallengeSaid: a challenge sent from a local page is
// confirmed there, and its channel says whom it waits for; the opponent
// reads its terms; once accepted, the offer leaves both pages at once,
// and the confirmation the challenger's.
func TestBrowserLocalChallengeSaid(t *testing.T) {
	hal, ivy := halAndIvy(t)
	hal.wait("ivy among the people", `[...document.querySelectorAll('#people option')].some(o => o.value === 'ivy')`, 5*time.Second)
	hal.challenge("ivy", "9")
	hal.wait("the confirmation", `!document.getElementById('notice').hidden && document.getElementById('notice').textContent !== ''`, 5*time.Second)
	if got, want := hal.text("#notice"), "Challenge sent. ivy, hal challenges you to a game of Go: 9×9, "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "The challenge expires in 1 day.") {
		t.Errorf("hal reads %q, want the invitation after %q", got, want)
	}
	if got := hal.text("#empty"); got != "Waiting for ivy to accept your 9×9 challenge." {
		t.Errorf("hal's page says %q", got)
	}
	ivy.wait("the challenge", `document.getElementById('offers').textContent.startsWith('ivy, hal challenges you to a game of Go: 9×9, ')`, 5*time.Second)
	// Its terms, as Discord's challenge says them, before she accepts.
	if got, want := strings.TrimSpace(ivy.text("#offers")), "ivy, hal challenges you to a game of Go: 9×9, chinese rules: area scoring, positional superko, komi 7.5, Fischer: 3 days, +1 day per move, at most 7 days; colours by nigiri (chosen at random); unrated. Accept Decline"; got != want {
		t.Errorf("ivy's offer reads %q, want %q", got, want)
	}
	ivy.click(`#offers button`)
	if got := ivy.text("#offers"); got != "" {
		t.Errorf("ivy's offers read %q once she pressed Accept", got)
	}
	for _, p := range []*tab{hal, ivy} {
		p.wait("the game", `['hal vs ivy', 'ivy vs hal'].includes(document.getElementById('title').textContent)`, 10*time.Second)
		p.wait("the offer gone", `document.getElementById('offers').textContent === ''`, 2*time.Second)
	}
	// "Challenge sent. …" is not left under the game it started.
	hal.wait("the game's first state", `document.getElementById('status').textContent !== ''`, 5*time.Second)
	if got := hal.text("#message"); got != "" {
		t.Errorf("under hal's new game: %q", got)
	}
	// A challenge declined leaves the page on its game.
	title := ivy.text("#title")
	hal.challenge("ivy", "13")
	ivy.wait("the second challenge", `document.getElementById('offers').textContent.startsWith('ivy, hal challenges you to a game of Go: 13×13, ')`, 5*time.Second)
	ivy.click(`#offers li button:nth-of-type(2)`)
	hal.wait("the declined offer gone", `document.getElementById('offers').textContent === ''`, 5*time.Second)
	time.Sleep(200 * time.Millisecond)
	if got := ivy.text("#title"); got != title || js[bool](ivy, `document.getElementById('game').hidden`) {
		t.Errorf("after declining, ivy's page shows %q (game hidden: %v), want still %q", got, js[bool](ivy, `document.getElementById('game').hidden`), title)
	}
}

// TestBrowserLocalChallengeFromConsole: the page's challenges are the
// store's. One accepted in the console leaves the challenger's list (in a
// fresh tab too), and one made in the console shows on the page of the
// person challenged, who accepts it there.
func TestBrowserLocalChallengeFromConsole(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	hal := b.open("hal", e.srv.URL+Path+"/", 1000, 900, "")
	hal.signIn("hal")
	hal.challenge("ann", "9")
	hal.wait("the waiting note", `document.getElementById('offers').textContent === 'Waiting for ann to accept your 9×9 challenge. Withdraw'`, 5*time.Second)
	offers, err := e.store.GuildChallenges(t.Context(), commands.LocalGuild)
	if err != nil || len(offers) != 1 {
		t.Fatalf("GuildChallenges(LocalGuild) = %v, %v, want hal's challenge", offers, err)
	}
	// ann, in the console, presses Accept.
	if res := e.app.Answer(t.Context(), offers[0].ChannelID, commands.ConsoleUser("ann"), offers[0].ID, true); res.Refused {
		t.Fatalf("ann's accept: %s", res.Text)
	}
	hal.wait("the game", `document.getElementById('title').textContent.includes('hal') && !document.getElementById('game').hidden`, 10*time.Second)
	hal.wait("the accepted challenge gone", `document.getElementById('offers').textContent === ''`, 5*time.Second)
	fresh := b.open("hal again", e.srv.URL+Path+"/", 1000, 900, "")
	fresh.signIn("hal")
	fresh.wait("the games list", `document.querySelectorAll('#games li').length === 1`, 10*time.Second)
	if got := fresh.text("#offers"); got != "" {
		t.Errorf("a fresh tab's offers read %q", got)
	}

	// cat, in the console, challenges hal: hal accepts on the page.
	cat, me := commands.ConsoleUser("cat"), commands.ConsoleUser("hal")
	if res, id := e.app.Start(t.Context(), commands.ConsoleChannel, cat, commands.Start{Opponent: &me, Size: 13}); res.Refused || id == "" {
		t.Fatalf("cat's challenge: %s", res.Text)
	}
	hal.wait("cat's challenge", `document.getElementById('offers').textContent.startsWith('hal, cat challenges you to a game of Go: 13×13, ')`, 10*time.Second)
	hal.click(`#offers button`)
	hal.wait("the console's game", `['cat vs hal', 'hal vs cat'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	if _, err := e.app.LoadGame(t.Context(), commands.ConsoleChannel); err != nil {
		t.Errorf("the console's channel has no game once hal accepted: %v", err)
	}
}

// TestBrowserLocalPhone: on a phone (360 px, touch) the list is below the
// board: the empty page points to it without saying where, a game
// accepted there scrolls into view (its title and board's top rows in
// sight), and the tap leaves no ghost stone on the board.
func TestBrowserLocalPhone(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	bob := b.open("bob", e.srv.URL+Path+"/", 360, 740, "")
	if err := chromedp.Do(bob.ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	bob.signIn("bob")
	bob.wait("the empty page", `!document.getElementById('empty').hidden`, 10*time.Second)
	if got, want := bob.text("#empty"), "There is no game here yet: start one under Games."; got != want {
		t.Errorf("the empty page reads %q, want %q", got, want)
	}
	ann, me := commands.ConsoleUser("ann"), commands.ConsoleUser("bob")
	if res, id := e.app.Start(t.Context(), commands.ConsoleChannel, ann, commands.Start{Opponent: &me, Size: 9}); res.Refused || id == "" {
		t.Fatalf("ann's challenge: %s", res.Text)
	}
	bob.wait("ann's challenge", `document.getElementById('offers').textContent.startsWith('bob, ann challenges you')`, 10*time.Second)
	if err := chromedp.Do(bob.ctx, chromedp.ScrollIntoView(`#offers button`), chromedp.Tap(`#offers button`)); err != nil {
		t.Fatalf("tap Accept: %v", err)
	}
	bob.wait("the game", `!document.getElementById('game').hidden && document.querySelectorAll('#points button').length === 81`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // any scroll, and any hover after the tap
	if top := js[float64](bob, `document.getElementById('title').getBoundingClientRect().top`); top < 0 || top > 100 {
		t.Errorf("after Accept the game's title is at %v px, want at the top of the screen", top)
	}
	if js[bool](bob, `!!document.querySelector('#board circle[opacity="0.5"]')`) {
		t.Errorf("a ghost stone shows where bob tapped")
	}
	bob.shot("body", "local-phone-accepted")

	// A second challenge, accepted from the list below the game: the new
	// game scrolls into view.
	cat := commands.ConsoleUser("cat")
	if res, id := e.app.Start(t.Context(), e.app.NewChannelID(), cat, commands.Start{Opponent: &me, Size: 9}); res.Refused || id == "" {
		t.Fatalf("cat's challenge: %s", res.Text)
	}
	bob.wait("cat's challenge", `document.getElementById('offers').textContent.startsWith('bob, cat challenges you')`, 10*time.Second)
	if err := chromedp.Do(bob.ctx, chromedp.ScrollIntoView(`#offers button`), chromedp.Tap(`#offers button`)); err != nil {
		t.Fatalf("tap Accept: %v", err)
	}
	bob.wait("cat's game", `['bob vs cat', 'cat vs bob'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if top := js[float64](bob, `document.getElementById('title').getBoundingClientRect().top`); top < 0 || top > 100 {
		t.Errorf("after the second Accept the game's title is at %v px, want at the top of the screen", top)
	}
	if js[bool](bob, `!!document.querySelector('#board circle[opacity="0.5"]')`) {
		t.Errorf("a ghost stone shows where bob tapped the second Accept")
	}
	bob.shot("body", "local-phone-second")
}

// TestBrowserPhoneScoringBoard: on a phone (360×740), the board keeps
// the screen's width when something tall opens under it (an undo
// question, the scoring panel), for a player on 19×19 and a spectator on
// 9×9: dead stones stay large enough to tap, and the page scrolls to the
// panel's buttons.
func TestBrowserPhoneScoringBoard(t *testing.T) {
	e, b, inst := activityGame(t, 19, "ann", "bob")
	bob := e.activity(b, "bob", inst, 360, 740)
	bob.wait("the game", `document.querySelectorAll('#points button').length === 361`, 10*time.Second)
	width := func(p *tab) float64 {
		return js[float64](p, `document.getElementById('board').getBoundingClientRect().width`)
	}
	if w := width(bob); w < 330 {
		t.Fatalf("in play the board is %.0f px wide on a 360 px screen", w)
	}
	e.slash("ann", "play", discordtest.Str("move", "D4"))
	e.slash("bob", "play", discordtest.Str("move", "Q16"))
	e.slash("ann", "undo")
	bob.wait("ann's undo question", `getComputedStyle(document.getElementById('undo-ask')).display !== 'none'`, 10*time.Second)
	if w := width(bob); w < 330 {
		t.Errorf("with the undo question open the board is %.0f px wide", w)
	}
	bob.click("#undo-no")
	bob.wait("the question answered", `document.getElementById('undo-ask').offsetParent === null`, 10*time.Second)
	e.slash("ann", "pass")
	e.slash("bob", "pass")
	bob.wait("the scoring panel", `document.getElementById('scoring').offsetParent !== null`, 10*time.Second)
	if w := width(bob); w < 330 {
		t.Errorf("in the scoring phase the board is %.0f px wide on a 360 px screen (%.1f px a point)", w, w/20)
	}
	bob.shot("#game", "phone-19x19-scoring")
	// The Accept button is reached by scrolling.
	acceptInReach(t, bob, 740)
	bob.shot("#game", "phone-19x19-scoring-scrolled")

	// A spectator of a 9×9 game on a phone.
	e2 := newEnv(t, Options{Local: true})
	e2.challenge("ann", "bob", 9)
	inst2 := e2.d.Activity(e2.ch, user("ann"), user("bob"), user("cat"))
	cat := e2.activity(b, "cat", inst2, 360, 740)
	cat.wait("the game", `document.querySelectorAll('#points button').length === 81`, 10*time.Second)
	e2.slash("ann", "pass")
	e2.slash("bob", "pass")
	cat.wait("the scoring panel", `document.getElementById('scoring').offsetParent !== null`, 10*time.Second)
	if w := width(cat); w < 330 {
		t.Errorf("the spectator's board in the scoring phase is %.0f px wide on a 360 px screen", w)
	}
	cat.shot("#game", "phone-9x9-scoring-spectator")
	// Held sideways (640×360), the board stays beside the panel, on screen.
	if err := chromedp.Do(cat.ctx, chromedp.EmulateViewport(640, 360)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if r := js[[]float64](cat, `(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.top, r.bottom, r.width]; })()`); r[0] < 0 || r[1] > 360 || r[2] < 250 {
		t.Errorf("sideways, the spectator's board is at %v (top, bottom, width): not all on the 360 px screen", r)
	}
	cat.shot("#game", "phone-9x9-scoring-sideways")
}

// TestBrowserUprightScoringBoard: in an upright window larger than a
// phone's (1000×900), the board keeps the size it had in play when the
// scoring panel opens under it, and the page scrolls to the panel's
// buttons; it shrank to about half its width, when players must click
// single stones.
func TestBrowserUprightScoringBoard(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob")
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the game", `document.querySelectorAll('#points button').length === 81`, 10*time.Second)
	width := func() float64 {
		return js[float64](ann, `document.getElementById('board').getBoundingClientRect().width`)
	}
	inPlay := width()
	if inPlay < 500 {
		t.Fatalf("in play the board is %.0f px wide in a 1000×900 window", inPlay)
	}
	e.slash("ann", "pass")
	e.slash("bob", "pass")
	ann.wait("the scoring panel", `document.getElementById('scoring').offsetParent !== null`, 10*time.Second)
	// The layout settles after the panel shows (on a loaded machine, a
	// frame or more later): the board must come back to its width.
	ann.wait("the board's width in the scoring phase", fmt.Sprintf(`document.getElementById('board').getBoundingClientRect().width >= %f`, 0.95*inPlay), 5*time.Second)
	if w := width(); w < 0.95*inPlay {
		t.Errorf("in the scoring phase the board is %.0f px wide, in play %.0f px", w, inPlay)
	}
	if top := js[float64](ann, `document.getElementById('title').getBoundingClientRect().top`); top < 0 {
		t.Errorf("the game's title is at %v px, above the screen", top)
	}
	ann.shot("#game", "upright-9x9-scoring")
	acceptInReach(t, ann, 900)
	ann.shot("#game", "upright-9x9-scoring-scrolled")
}

// acceptInReach scrolls p's scoring panel's Accept button into view and
// checks that it is then on p's screen, height pixels tall.
func acceptInReach(t *testing.T, p *tab, height float64) {
	t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.ScrollIntoView("#accept")); err != nil {
		t.Fatal(err)
	}
	if r := js[[]float64](p, `(() => { const r = document.getElementById('accept').getBoundingClientRect(); return [r.top, r.bottom]; })()`); r[0] < 0 || r[1] > height {
		t.Errorf("scrolled to, the Accept button is at %v, off the screen", r)
	}
}

// TestBrowserPickerStaysPut: the lists of the picker are not rebuilt when
// what they show did not change. The server sends them again whenever
// someone comes or goes; a list rebuilt under the pointer loses the click
// being made on it (a button pressed is gone by the time it is released).
func TestBrowserPickerStaysPut(t *testing.T) {
	open := localPages(t)
	hal, ivy := open("hal"), open("ivy")
	ivy.wait("hal among the people", `[...document.querySelectorAll('#people option')].some(o => o.value === 'hal')`, 5*time.Second)
	ivy.challenge("hal", "9")
	hal.wait("the challenge", `document.getElementById('offers').textContent.startsWith('hal, ivy challenges you to a game of Go: 9×9, ')`, 5*time.Second)
	js[bool](hal, `(window.accept = document.querySelector('#offers button'), window.person = document.querySelector('#people option'), true)`)
	open("jan")
	hal.wait("jan among the people", `[...document.querySelectorAll('#people option')].some(o => o.value === 'jan')`, 5*time.Second)
	if !js[bool](hal, `window.accept.isConnected`) {
		t.Errorf("hal's Accept button was replaced when jan came, though the challenge had not changed")
	}
	if js[bool](hal, `window.person.isConnected`) {
		t.Errorf("the list of people kept its old options when jan came")
	}
	hal.click(`#offers button`)
	// A challenge from the page draws the colours (nigiri): either may be
	// Black, named first.
	hal.wait("the game", `!document.getElementById('game').hidden && ['ivy vs hal', 'hal vs ivy'].includes(document.getElementById('title').textContent)`, 10*time.Second)
}

// TestBrowserLocalSignInOpensOwnGame: a person who signs in on the local
// page while their game is in play in another channel than the console's
// sees that game, not "There is no game here yet" beside a list that
// holds it; one who plays in the console's channel stays there.
func TestBrowserLocalSignInOpensOwnGame(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	ctx := context.Background()
	start := func(channel, black, white string) {
		t.Helper()
		b, w := commands.ConsoleUser(black), commands.ConsoleUser(white)
		res, id := e.app.Start(ctx, channel, b, commands.Start{Opponent: &w, Size: 9})
		if id == "" {
			t.Fatalf("start: %+v", res)
		}
		if res := e.app.Answer(ctx, channel, w, id, true); res.Refused {
			t.Fatalf("accept: %+v", res)
		}
	}
	start(e.app.NewChannelID(), "gil", "hal")
	start(commands.ConsoleChannel, "ida", "jo")
	b := newBrowser(t)
	hal := b.open("hal", e.srv.URL+Path+"/", 1000, 900, "")
	hal.signIn("hal")
	hal.wait("his game", `['gil vs hal', 'hal vs gil'].includes(document.getElementById('title').textContent)`, 10*time.Second)
	if !js[bool](hal, `document.getElementById('empty').hidden`) {
		t.Errorf("beside his game the page says %q", hal.text("#empty"))
	}
	jo := b.open("jo", e.srv.URL+Path+"/", 1000, 900, "")
	jo.signIn("jo")
	jo.wait("her game", `['ida vs jo', 'jo vs ida'].includes(document.getElementById('title').textContent)`, 10*time.Second)
}

// saveTo has the tab's browser save the files its page downloads in
// dir, under the names the page gives them.
func (p *tab) saveTo(dir string) {
	p.t.Helper()
	_, err := chromedp.CallBrowser(p.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID, DownloadPath: dir})
	if err != nil {
		p.t.Fatalf("%s: downloads to %s: %v", p.name, dir, err)
	}
}

// saved waits for the file name to be saved whole in dir, and returns
// its text.
func (p *tab) saved(dir, name string) string {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && len(data) > 0 {
			return string(data)
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			p.t.Fatalf("%s: no file %s saved after 10 s; the folder holds %v", p.name, name, names)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserLocalRecord: on a local page, Save the record has the
// browser save the game's SGF, as far as it has gone; once the game is
// over, with its result.
func TestBrowserLocalRecord(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("fay", e.srv.URL+Path+"/", 1000, 900, "")
	dir := t.TempDir()
	p.saveTo(dir)
	p.signIn("fay")
	p.startBot("easy", "9")
	black := js[bool](p, `document.querySelector('#side-black .names').textContent.startsWith('fay')`)
	if !black {
		p.waitStone("A9", "black")
	}
	p.waitTurn("fay")
	p.clickPoint("E5")
	// The bot's answer, by its stone: fay's turn alone can still be the
	// one before the click on a loaded machine. The bot takes the first
	// free point from the top left, A9 or then B9.
	answer, bot := "A9", "white"
	if !black {
		answer, bot = "B9", "black"
	}
	p.waitStone(answer, bot)
	p.waitTurn("fay")
	if got := p.text("#record"); got != "Save the record (SGF)" {
		t.Errorf("the record's button reads %q", got)
	}
	v, err := e.app.View(t.Context(), js[string](p, `sessionStorage.getItem('gobot-channel') || ''`))
	if err != nil {
		t.Fatal(err)
	}
	name := "gobot-" + v.ID + ".sgf"
	p.click("#record")
	sgf := p.saved(dir, name)
	// The moves: E5 is "ee" on 9×9, A9 "aa" and B9 "ba".
	want := `;B\[ee\]BL\[[0-9.]+\];W\[aa\]WL\[[0-9.]+\]`
	if !black {
		want = `;B\[aa\]BL\[[0-9.]+\];W\[ee\]WL\[[0-9.]+\];B\[ba\]BL\[[0-9.]+\]`
	}
	moves := regexp.MustCompile(`\n` + want + `\)\n$`)
	if !strings.Contains(sgf, "SZ[9]") || !strings.Contains(sgf, "PC[gobot console]") || !moves.MatchString(sgf) || strings.Contains(sgf, "RE[") {
		t.Errorf("the record saved in play, want the moves %s and no result:\n%s", want, sgf)
	}
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	p.click("#resign")
	p.click("#resign-yes")
	p.wait("the result", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
	p.click("#record")
	over := p.saved(dir, name)
	res := "RE[W+R]"
	if !black {
		res = "RE[B+R]"
	}
	if !strings.Contains(over, res) || !moves.MatchString(over) {
		t.Errorf("the record saved after resigning, want %s and the moves:\n%s", res, over)
	}
}

// TestBrowserLocalStartOptions: a local page's new game takes the colour,
// handicap and clock chosen under "Colour, handicap, clock": the player
// takes White, the bot Black with two stones, on the blitz clock.
func TestBrowserLocalStartOptions(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	p := b.open("hana", e.srv.URL+Path+"/", 1000, 900, "")
	p.signIn("hana")
	p.wait("the clocks", `document.querySelectorAll('#newbot-clock option').length === 5`, 10*time.Second)
	if got := js[string](p, `document.querySelector('#newbot-clock option').textContent`); got != "correspondence — Fischer: 3 days, +1 day per move, at most 7 days" {
		t.Errorf("the first clock offered reads %q", got)
	}
	p.click("#newbot summary")
	p.shot("#picker", "local-new-game-options")
	if err := chromedp.Do(p.ctx, chromedp.SetValue("#newbot-level", "easy"), chromedp.SetValue("#newbot-size", "9"),
		chromedp.SetValue("#newbot-color", "white"), chromedp.SetValue("#newbot-handicap", "2"), chromedp.SetValue("#newbot-clock", "blitz"),
		chromedp.Click(`#newbot button`)); err != nil {
		t.Fatal(err)
	}
	p.wait("the new game", `document.getElementById('title').textContent === 'gobot easy vs hana'`, 10*time.Second)
	p.waitStone("C3", "black")
	p.waitStone("G7", "black")
	if got := p.text("#side-white .names"); got != "hana (you)" {
		t.Errorf("White is %q", got)
	}
	if got, want := p.text("#rules"), "9×9 · chinese (area scoring, positional superko, komi 0.5) · handicap 2 · byo-yomi: 3 min, then 5 periods of 10 s · unrated"; got != want {
		t.Errorf("the rules read %q, want %q", got, want)
	}
}
