package web

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestBrowserActivityGame9x9: two players in Discord's Activity (the SDK
// stood in for, the sign-in through the fake Discord's OAuth2) play a 9×9
// game to the count by clicking, while a third person watches on a
// phone: stones placed, a capture, a ko refusal, two passes, a dead group
// clicked, both accept, and all three read the same final score.
func TestBrowserActivityGame9x9(t *testing.T) {
	e := newEnv(t, Options{Local: true}) // the page is served from 127.0.0.1, not from discordsays.com: its origin passes as a local one
	b := newBrowser(t)
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 390, 844)
	all := []*tab{ann, bob, cat}
	for _, p := range all {
		p.wait("the game's title", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	}
	if st := js[string](ann, `window.__authorized.state`); st == "" || js[string](ann, `window.__authorized.response_type`) != "code" {
		t.Errorf("authorize was asked without a state or not for a code: %v", js[any](ann, `window.__authorized`))
	}
	if tok := js[string](ann, `window.__authenticated.access_token`); !strings.HasPrefix(tok, "access-") {
		t.Errorf("authenticate got access token %q, want the one Discord's token endpoint gave", tok)
	}
	// markAt is when a page's latest performance mark of that name was
	// made, in milliseconds since the epoch (the pages share a clock).
	markAt := func(p *tab, name string) float64 {
		return js[float64](p, `(() => { const m = performance.getEntriesByName('`+name+`'); return m.length ? performance.timeOrigin + m[m.length-1].startTime : 0; })()`)
	}
	var took []float64
	moves := 0
	play := func(p *tab, point, stone string) {
		t.Helper()
		p.clickPoint(point)
		for _, q := range all {
			q.waitStone(point, stone)
		}
		moves++
		// From the click leaving the mover's page to the move drawn on the
		// opponent's and the spectator's.
		sent := markAt(p, "gobot-act")
		for _, q := range all {
			if q != p {
				took = append(took, markAt(q, fmt.Sprintf("gobot-move-%d", moves))-sent)
			}
		}
	}
	play(ann, "D6", "black")
	ann.shot("#game", "activity-9x9-first-move")
	play(bob, "E6", "white")
	play(ann, "C5", "black")
	play(bob, "F5", "white")
	play(ann, "D4", "black")
	play(bob, "E4", "white")
	play(ann, "J9", "black")
	play(bob, "D5", "white")
	// E5 takes the white stone at D5: a capture, and a ko.
	play(ann, "E5", "black")
	for _, p := range all {
		p.waitStone("D5", "empty")
		if got := p.label("D5"); got != "D5, empty, ko: cannot be retaken now" {
			t.Errorf("%s: D5 reads %q, want the ko point", p.name, got)
		}
		p.wait("black's capture", `document.querySelector('#side-black .caps').textContent === '1 captured'`, 5*time.Second)
	}
	slices.Sort(took)
	t.Logf("click on one page to the move drawn on another, in the browser: median %.0f ms, at most %.0f ms (%d)", took[len(took)/2], took[len(took)-1], len(took))
	if got := js[string](cat, `document.getElementById('live').lastChild.textContent`); got != "Black (ann) played E5. 1 stone captured. Ko at D5: it cannot be retaken at once." {
		t.Errorf("the spectator's screen reader heard %q", got)
	}
	// The line under the board says it as Discord's answer did.
	if got := cat.text("#last"); got != "⚫ ann played E5. 1 stone captured. Ko at D5: it cannot be retaken at once." {
		t.Errorf("the spectator's last-move line reads %q", got)
	}
	// Retaking at once is refused, with the rules' sentence, and changes nothing.
	bob.clickPoint("D5")
	bob.wait("the ko refusal", `document.getElementById('message').textContent !== ''`, 10*time.Second)
	if got := bob.text("#message"); got != "Ko: D5 would retake the ko at once. Play a ko threat elsewhere first, then you may retake." {
		t.Errorf("retaking the ko shows %q", got)
	}
	if got := bob.label("D5"); !strings.HasPrefix(got, "D5, empty") {
		t.Errorf("after the refused retake D5 reads %q", got)
	}
	// A click out of turn is refused as in Discord.
	ann.clickPoint("A1")
	ann.wait("the turn refusal", `document.getElementById('message').textContent.startsWith('It is not your turn')`, 10*time.Second)
	if got := ann.text("#message"); got != "It is not your turn: ⚪ bob is to play." {
		t.Errorf("a click out of turn shows %q", got)
	}
	// The spectator can do nothing.
	cat.clickPoint("A1")
	cat.wait("the spectator's refusal", `document.getElementById('message').textContent !== ''`, 5*time.Second)
	if got := cat.text("#message"); got != "You are watching this game: only its players can act." {
		t.Errorf("a spectator's click shows %q", got)
	}
	play(bob, "A1", "white")
	// Two passes end play.
	bob.wait("black's turn", `document.getElementById('status').textContent.includes('black to play')`, 5*time.Second)
	ann.click("#pass")
	bob.wait("bob may pass", `!document.getElementById('pass').disabled`, 10*time.Second)
	bob.click("#pass")
	for _, p := range all {
		p.wait("the scoring phase", `!document.getElementById('scoring').hidden`, 10*time.Second)
	}
	// A refusal belongs to the phase it was made in.
	if got := cat.text("#message"); got != "" {
		t.Errorf("the spectator's refusal still shows in the scoring phase: %q", got)
	}
	// A group clicked in the scoring phase changes side, for everyone.
	before := ann.label("J9")
	ann.clickPoint("J9")
	for _, p := range all {
		p.wait("J9's marking to change", `document.querySelector('[data-point="J9"]').getAttribute('aria-label') !== `+jsString(before), 10*time.Second)
	}
	if now := cat.label("J9"); strings.Contains(before, "marked dead") == strings.Contains(now, "marked dead") {
		t.Errorf("J9 read %q before the click and %q after", before, now)
	}
	// Bob is told, on the page, that ann changed the marking.
	bob.wait("the marking's note", `document.getElementById('message').textContent.startsWith('The marking changed: ')`, 10*time.Second)
	// The deadline shows, counting down, as Discord's message says it:
	// 5 minutes, the game being on a live clock.
	if got := ann.text("#deadline"); !strings.HasPrefix(got, "The marking stands in 5 minutes if nobody changes it") {
		t.Errorf("the scoring deadline reads %q", got)
	}
	count := ann.text("#count")
	ann.shot("#game", "activity-9x9-scoring")
	cat.shot("#game", "activity-9x9-scoring-phone")
	ann.click("#accept")
	bob.wait("ann's acceptance", `document.getElementById('accepted').textContent.startsWith('Black: accepted')`, 10*time.Second)
	bob.click("#accept")
	var final string
	for _, p := range all {
		p.wait("the result", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
		got := p.text("#status")
		if final == "" {
			final = got
		} else if got != final {
			t.Errorf("%s reads %q, %s %q", p.name, got, all[0].name, final)
		}
	}
	arcs, err := e.store.ChannelGames(context.Background(), e.ch.ID, 1)
	if err != nil || len(arcs) != 1 {
		t.Fatalf("archive: %v %v", arcs, err)
	}
	if !strings.HasSuffix(final, "· "+arcs[0].Result) || !strings.Contains(final, " points ") {
		t.Errorf("the players read %q, want a count ending in the recorded result %s", final, arcs[0].Result)
	}
	if got := ann.text("#count"); got != count {
		t.Errorf("the count after accepting is %q, want the count accepted %q", got, count)
	}
	ann.shot("#game", "activity-9x9-final")
	t.Logf("final: %s\n%s", final, count)
}

// TestBrowserSlashMoveShows: a move made by slash command in Discord
// shows on the board page within a second.
func TestBrowserSlashMoveShows(t *testing.T) {
	e := newEnv(t, Options{Local: true}) // the page is served from 127.0.0.1, not from discordsays.com: its origin passes as a local one
	b := newBrowser(t)
	e.challenge("ann", "bob", 13)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	bob := e.activity(b, "bob", inst, 1000, 900)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	start := time.Now()
	if got := e.slash("ann", "play", discordtest.Str("move", "K10")); !strings.Contains(got, "K10") {
		t.Fatalf("/go play K10 answered %q", got)
	}
	bob.wait("K10 from the slash command", `(document.querySelector('[data-point="K10"]').getAttribute('aria-label')||'').startsWith('K10, black stone')`, time.Second)
	t.Logf("slash command to the page: %v", time.Since(start))
	// And a click reaches the channel's board.
	bob.clickPoint("C3")
	bob.waitStone("C3", "white")
	e.d.WaitFor("the click's board in the channel", func() bool {
		for _, m := range e.d.Public(e.ch.ID) {
			if strings.Contains(m.Text(), "played **C3**") {
				return true
			}
		}
		return false
	})
	bob.shot("#game", "activity-13x13")

	// A second game, in a thread of the channel: the page offers both.
	e.challenge("ann", "cat", 9, discordtest.Bool("thread", true))
	bob.wait("the picker", `!document.getElementById('picker').hidden && document.querySelectorAll('#games button').length === 2`, 5*time.Second)
	bob.click(`#games li:nth-child(2) button`)
	bob.wait("the thread's game", `document.getElementById('title').textContent === 'ann vs cat'`, 5*time.Second)
	if js[bool](bob, `!document.getElementById('controls').hidden`) {
		t.Errorf("bob watches ann vs cat, yet the page offers him its controls")
	}
	bob.click(`#games li:nth-child(1) button`)
	bob.wait("his own game", `document.getElementById('title').textContent === 'ann vs bob'`, 5*time.Second)
	// Choosing the game shown once more changes nothing: the board still
	// takes his clicks (below).
	bob.click(`#games li:nth-child(1) button`)

	// Resigning asks first.
	bob.click("#resign")
	bob.wait("the question", `!document.getElementById('resign-ask').hidden`, 5*time.Second)
	if got := bob.text("#resign-text"); got != "Do you really want to resign this game?" {
		t.Errorf("resign asks %q", got)
	}
	bob.click("#resign-no")
	if js[bool](bob, `!document.getElementById('resign-ask').hidden`) {
		t.Error("Cancel left the question open")
	}
	bob.click("#resign")
	bob.click("#resign-yes")
	bob.wait("the resignation", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
	if got := bob.text("#status"); got != "Game over: ⚫ ann wins by resignation · B+R" {
		t.Errorf("after resigning the page reads %q", got)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestBrowserReconnect: a page whose connection gobot drops says it is
// reconnecting, tries again by itself while the network is down (after
// a few seconds saying that gobot cannot be reached), and once it is back
// shows what it missed: the move made meanwhile, announced.
func TestBrowserReconnect(t *testing.T) {
	e := newEnv(t, Options{Local: true}) // the page is served from 127.0.0.1: its origin passes as a local one
	b := newBrowser(t)
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	bob := e.activity(b, "bob", inst, 1000, 900)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	e.wsDown.Store(true)
	e.dropPages()
	bob.wait("the page to say so", `document.getElementById('conn').textContent === 'reconnecting…'`, 10*time.Second)
	if got := e.slash("ann", "play", discordtest.Str("move", "E5")); !strings.Contains(got, "E5") {
		t.Fatalf("/go play E5 answered %q", got)
	}
	if got := bob.label("E5"); got != "E5, empty" {
		t.Fatalf("while away the page reads %q at E5, want it empty", got)
	}
	// A click or a resignation made meanwhile is not sent, and the page
	// says so rather than nothing.
	const notSent = "Not connected: your click was not sent; try again once the page has reconnected."
	shown := `document.getElementById('message').offsetParent !== null && document.getElementById('message').textContent === ` + jsString(notSent)
	bob.clickPoint("D4")
	bob.wait("the click refused", shown, 5*time.Second)
	bob.shot("#game", "reconnecting-click")
	js[bool](bob, `(document.getElementById('message').textContent = '', true)`)
	bob.click("#resign")
	bob.click("#resign-yes")
	bob.wait("the resignation refused", shown, 5*time.Second)
	// Down for seconds, the page says that gobot cannot be reached.
	bob.wait("the page to say gobot is out of reach", `document.getElementById('conn').textContent === 'cannot reach gobot, still trying…'`, 20*time.Second)
	e.wsDown.Store(false)
	bob.waitStone("E5", "black")
	bob.wait("the page connected", `document.getElementById('conn').textContent === ''`, 10*time.Second)
	if got := bob.label("E5"); got != "E5, black stone, last move" {
		t.Errorf("after reconnecting E5 reads %q", got)
	}
	if got := js[string](bob, `document.getElementById('live').lastChild.textContent`); got != "Black (ann) played E5." {
		t.Errorf("after reconnecting the screen reader heard %q", got)
	}
	bob.waitTurn("bob")
	bob.clickPoint("D4")
	bob.waitStone("D4", "white")
	if g, err := e.store.Game(context.Background(), e.ch.ID); err != nil || g.State.MoveCount() != 2 {
		t.Errorf("after reconnecting: %v; want ann's E5 and bob's D4 only (nothing sent while away)", err)
	}
}

// TestBrowserUndoAndClocks: the player to move sees a preview stone under
// the pointer (the other player none); the clock of the side to move
// counts down; an undo asked for on one page is answered on the other,
// and both boards take the move back.
func TestBrowserUndoAndClocks(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9) // live clock
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	for _, p := range []*tab{ann, bob} {
		p.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	}
	// How the game is played shows under the title, as the board
	// message's last line says it.
	if got := ann.text("#rules"); !strings.HasPrefix(got, "9×9 · ") || !strings.Contains(got, "komi") || !strings.Contains(got, "30 s") {
		t.Errorf("the rules line reads %q, want the size, rules, komi and clock", got)
	}
	clock := `document.querySelector('#side-black .clock')`
	first := ann.text("#side-black .clock")
	ann.wait("black's clock counting down", clock+`.classList.contains('running') && `+clock+`.textContent !== `+jsString(first), 10*time.Second)
	if js[bool](ann, `document.querySelector('#side-white .clock').classList.contains('running')`) {
		t.Errorf("white's clock runs while black is to play")
	}
	t.Logf("black's clock read %q, then %q", first, ann.text("#side-black .clock"))

	preview := `document.querySelectorAll('#board circle[opacity="0.5"]').length`
	for _, p := range []*tab{ann, bob} {
		xy := p.pointXY("E5")
		if err := chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1])); err != nil {
			t.Fatal(err)
		}
	}
	ann.wait("the preview stone at E5", preview+` === 1`, 5*time.Second)
	if n := js[int](bob, preview); n != 0 {
		t.Errorf("bob, not to play, sees %d preview stones", n)
	}

	ann.clickPoint("E5")
	bob.waitStone("E5", "black")
	answers := js[int](ann, `performance.getEntriesByName('gobot-result').length`)
	ann.click("#undo")
	ann.wait("her request", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	if got := ann.text("#undo-text"); got != "You asked to take back your last move." {
		t.Errorf("ann reads %q", got)
	}
	// Its answer, the question as bob reads it in Discord, is not shown
	// to her under the board: the request says it in her words.
	ann.wait("the request's answer", fmt.Sprintf(`performance.getEntriesByName('gobot-result').length > %d`, answers), 10*time.Second)
	if got := ann.text("#message"); got != "" {
		t.Errorf("under the board ann reads %q", got)
	}
	bob.wait("the question", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	if got := bob.text("#undo-text"); got != "Black asks to take back their last move." {
		t.Errorf("bob is asked %q", got)
	}
	bob.click("#undo-yes")
	for _, p := range []*tab{ann, bob} {
		p.waitStone("E5", "empty")
		p.wait("the question gone", `document.getElementById('undo-ask').hidden`, 10*time.Second)
	}
	ann.waitTurn("ann")

	// After bob's reply, ann's undo takes back two moves: both pages say
	// so, as Discord's question does.
	ann.clickPoint("E5")
	bob.waitStone("E5", "black")
	message := `document.getElementById('message').textContent`
	ann.wait("what her move did", message+`.includes('played E5')`, 10*time.Second)
	bob.clickPoint("C3")
	ann.waitStone("C3", "white")
	// What ann's move did goes once bob has moved on from it.
	ann.wait("her move's notice gone", message+` === ''`, 10*time.Second)
	ann.click("#undo")
	ann.wait("her request", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	if got, want := ann.text("#undo-text"), "You asked to take back 2 moves (yours and your opponent's reply)."; got != want {
		t.Errorf("ann reads %q, want %q", got, want)
	}
	bob.wait("the question", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	if got, want := bob.text("#undo-text"), "Black asks to take back 2 moves (theirs and your reply)."; got != want {
		t.Errorf("bob is asked %q, want %q", got, want)
	}
	bob.click("#undo-yes")
	for _, p := range []*tab{ann, bob} {
		p.waitStone("E5", "empty")
		p.waitStone("C3", "empty")
	}
}

// TestBrowserByoYomiCountsDown: once main time is spent, the page counts
// the byo-yomi periods down by itself, as the server counts them (no state
// comes then: nothing happened), rather than stopping at 0:00, and says
// them as the server does: the periods after the current one, then the
// last.
func TestBrowserByoYomiCountsDown(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9, discordtest.Str("clock", "byoyomi 10s 2x10s"))
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	clock := `document.querySelector('#side-black .clock').textContent`
	if got := ann.text("#side-black .clock"); !strings.HasSuffix(got, " + 2×10 s") {
		t.Errorf("black's clock at the start reads %q, want main time + 2×10 s", got)
	}
	// "byo-yomi 7 s + 1×10 s": the time left in this period, then the
	// periods after it, as the server writes it; then the last period.
	ann.wait("black's first byo-yomi period counting down", clock+`.startsWith('byo-yomi ') && `+clock+`.endsWith(' s + 1×10 s') && !`+clock+`.startsWith('byo-yomi 0 s')`, 20*time.Second)
	t.Logf("black's clock reads %q", ann.text("#side-black .clock"))
	ann.wait("black's last byo-yomi period counting down", clock+`.startsWith('byo-yomi ') && `+clock+`.endsWith(' s (last period)')`, 20*time.Second)
}

// TestBrowserClockRunsOut: a Canadian period and a simple clock counted
// down to their end on the page read "0 s", as the server shows a spent
// clock; they read "0 s for 2 moves" and "0 s for this move" for the last
// second and until the server's loss on time reached the page.
func TestBrowserClockRunsOut(t *testing.T) {
	b := newBrowser(t)
	for _, tc := range []struct{ clock, start string }{
		{"canadian 0s 2/10s", " for 2 moves"},
		{"simple 10s", " for this move"},
	} {
		e := newEnv(t, Options{Local: true})
		e.challenge("ann", "bob", 9, discordtest.Str("clock", tc.clock))
		inst := e.d.Activity(e.ch, user("ann"), user("bob"))
		ann := e.activity(b, "ann", inst, 1000, 900)
		ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
		// Every text the clock shows, from now on.
		js[bool](ann, `(() => { const el = document.querySelector('#side-black .clock'); window.__shown = [el.textContent];
			new MutationObserver(() => window.__shown.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true}); return true; })()`)
		ann.wait(tc.clock+": the loss on time", `document.getElementById('status').textContent.includes('ran out of time')`, 25*time.Second)
		shown := js[[]string](ann, `window.__shown`)
		if len(shown) < 3 || !strings.HasSuffix(shown[0], tc.start) || shown[len(shown)-1] != "0 s" {
			t.Errorf("%s: black's clock read %q; want from … %q down to \"0 s\"", tc.clock, shown, tc.start)
		}
		for _, s := range shown {
			if strings.HasPrefix(s, "0 s ") {
				t.Errorf("%s: black's clock read %q once spent (all it read: %q)", tc.clock, s, shown)
				break
			}
		}
	}
}

// TestBrowserVoteGame: in a vote game ("this channel against gobot")
// everyone in the Activity plays the channel's side: a click votes, as
// /go play does, and says so; the votes show on every page, and change
// there when someone votes in Discord.
func TestBrowserVoteGame(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	if got := e.slash("ann", "vote", discordtest.Str("level", "easy"), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Str("period", "1h")); !strings.Contains(got, "This channel against gobot") {
		t.Fatalf("/go vote answered %q", got)
	}
	inst := e.d.Activity(e.ch, user("ann"), user("cat"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 1000, 900)
	votes := `document.getElementById('votes').textContent`
	for _, p := range []*tab{ann, cat} {
		p.wait("the vote", `!document.getElementById('votes').hidden && `+votes+`.startsWith('No votes yet. The move is played in ')`, 10*time.Second)
	}
	ann.clickPoint("E5")
	ann.wait("her vote's answer", `document.getElementById('message').textContent !== ''`, 10*time.Second)
	if got := ann.text("#message"); got != "🗳️ Your vote: E5. Votes: E5 1. The move is played in 1 hour." {
		t.Errorf("ann's vote answered %q", got)
	}
	if js[bool](ann, `document.getElementById('message').classList.contains('refused')`) {
		t.Errorf("ann's vote shows as a refusal")
	}
	for _, p := range []*tab{ann, cat} {
		p.wait("ann's vote", votes+`.startsWith('Votes: E5 1. The move is played in ')`, 5*time.Second)
	}
	// A vote cast in Discord shows at once.
	if got := e.slash("bob", "play", discordtest.Str("move", "D4")); !strings.Contains(got, "Your vote: **D4**") {
		t.Fatalf("bob's /go play D4 answered %q", got)
	}
	cat.wait("bob's vote", votes+`.startsWith('Votes: E5 1 · D4 1. ')`, time.Second)
	// A second click changes the vote.
	ann.clickPoint("D4")
	cat.wait("ann's vote changed", votes+`.startsWith('Votes: D4 2. ')`, 5*time.Second)
	if got := ann.text("#pass"); got != "Vote pass" {
		t.Errorf("the pass button reads %q", got)
	}
	for _, sel := range []string{"#undo", "#resign"} {
		if js[bool](ann, `!document.querySelector('`+sel+`').hidden`) {
			t.Errorf("a vote game shows %s", sel)
		}
	}
	ann.shot("#game", "activity-vote")
}

// TestBrowserLayoutFits: on common screens (a laptop's Discord window, a
// square one, a phone held sideways and upright, Discord's picture in
// picture at 480×270), the whole board, the message line under it and the
// Pass button are on screen, without scrolling; a local page with its
// list of games beside the board too.
func TestBrowserLayoutFits(t *testing.T) {
	e, b, inst := activityGame(t, 19, "ann", "bob")
	check := func(p *tab, what string, w, h int64) {
		t.Helper()
		p.wait("the game", `document.getElementById('title').textContent !== '' && !document.getElementById('controls').hidden`, 10*time.Second)
		box := func(sel string) []float64 {
			return js[[]float64](p, `(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()`)
		}
		board, msg, pass := box("#board"), box("#message"), box("#pass")
		inside := func(r []float64) bool {
			return r[0] >= 0 && r[1] >= 0 && r[2] <= float64(w)+0.5 && r[3] <= float64(h)+0.5
		}
		if !inside(board) || !inside(msg) || !inside(pass) {
			t.Errorf("%s at %d×%d: board %v, message %v, Pass %v: not all inside the screen", what, w, h, board, msg, pass)
		}
		if side := board[3] - board[1]; side < 0.6*float64(min(w, h)) {
			t.Errorf("%s at %d×%d: the board is %.0f px, under 60%% of the screen's %d", what, w, h, side, min(w, h))
		}
		if js[bool](p, `document.scrollingElement.scrollHeight > innerHeight + 1`) {
			t.Errorf("%s at %d×%d: the page scrolls (%v px)", what, w, h, js[float64](p, `document.scrollingElement.scrollHeight`))
		}
		// A page inside Discord may not save files: Save the record is
		// the local page's.
		if local := !js[bool](p, `document.getElementById('record-line').hidden`); local != (what == "local") {
			t.Errorf("%s at %d×%d: Save the record shown: %v", what, w, h, local)
		}
		p.shot("body", fmt.Sprintf("layout-%s-%dx%d", what, w, h))
	}
	for _, s := range [][2]int64{{1280, 720}, {1000, 900}, {844, 390}, {390, 844}, {1920, 1080}, {480, 270}} {
		check(e.activity(b, "ann", inst, s[0], s[1]), "activity", s[0], s[1])
	}
	for _, s := range [][2]int64{{1280, 720}, {1000, 900}} {
		p := b.open("dan", e.srv.URL+Path+"/", s[0], s[1], "")
		p.signIn("dan")
		p.startBot("easy", "19")
		check(p, "local", s[0], s[1])
	}
}

// TestBrowserNoUndoBeforeFirstMove: the Undo button shows only once the
// player has a move to take back: not to White at the first move of a
// handicap game, nor to Black before hers, as in Discord.
func TestBrowserNoUndoBeforeFirstMove(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9, discordtest.Int("handicap", 2))
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	undo := `!document.getElementById('undo').hidden`
	bob.waitTurn("bob")
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	for _, p := range []*tab{ann, bob} {
		if js[bool](p, undo) {
			t.Errorf("%s sees Undo at move 1 of the handicap game: %q", p.name, p.text("#status"))
		}
	}
	bob.clickPoint("E5")
	bob.wait("his Undo", undo, 10*time.Second)
	ann.waitTurn("ann")
	if js[bool](ann, undo) {
		t.Errorf("ann sees Undo before her first move")
	}
}

// TestBrowserClockFormat: a running clock, counted down on the page, is
// written as the idle one beside it and as gobot's messages write times
// ("9 min 58 s + 5×30 s" beside "10 min + 5×30 s"; "3 days" beside "3
// days"), not in a format of the page's own.
func TestBrowserClockFormat(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9) // live: 10 min + 5×30 s byo-yomi
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	running := `document.querySelector('#side-black .clock')`
	ann.wait("black's clock running", running+`.classList.contains('running') && `+running+`.textContent !== '10 min + 5×30 s'`, 10*time.Second)
	if got := ann.text("#side-black .clock"); !regexp.MustCompile(`^9 min [1-5]?[0-9] s \+ 5×30 s$`).MatchString(got) {
		t.Errorf("black's running clock reads %q, want as \"9 min 58 s + 5×30 s\"", got)
	}
	if got := ann.text("#side-white .clock"); got != "10 min + 5×30 s" {
		t.Errorf("white's clock reads %q", got)
	}
	e.slash("ann", "resign")
	e.challenge("ann", "bob", 9, discordtest.Str("clock", "correspondence")) // Fischer: 3 days, +1 day a move, at most 7
	ann.wait("the new game", `document.getElementById('status').textContent.startsWith('Move 1')`, 10*time.Second)
	ann.wait("black's clock running", running+`.classList.contains('running')`, 10*time.Second)
	for _, side := range []string{"black", "white"} {
		if got := ann.text("#side-" + side + " .clock"); got != "3 days" {
			t.Errorf("%s's clock in the correspondence game reads %q, want 3 days", side, got)
		}
	}
}

// TestBrowserParentChannel: the Activity opened in a channel whose only
// game is in one of its threads shows that game; with games in two
// threads, it says to choose one, and the list offers both.
func TestBrowserParentChannel(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("dan", "eve", 13, discordtest.Bool("thread", true))
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the thread's game", `document.getElementById('title').textContent === 'dan vs eve'`, 10*time.Second)
	if !js[bool](ann, `document.getElementById('empty').hidden`) {
		t.Errorf("beside the thread's game the page says %q", ann.text("#empty"))
	}
	e.challenge("fay", "gus", 9, discordtest.Bool("thread", true))
	bob := e.activity(b, "bob", inst, 1000, 900)
	bob.wait("the choice", `!document.getElementById('empty').hidden && document.querySelectorAll('#games button').length === 2`, 10*time.Second)
	if got := bob.text("#empty"); got != "This channel's games are in its threads: choose one in the list." {
		t.Errorf("with two thread games the page says %q", got)
	}
	bob.click(`#games li:nth-child(2) button`)
	bob.wait("the second thread's game", `document.getElementById('title').textContent === 'fay vs gus'`, 10*time.Second)
}

// TestBrowserAbortClearsNote: once the game is aborted in Discord, the
// page no longer says what was done in it ("ann played E5") under "Game
// over"; a click on it then says the game has ended.
func TestBrowserAbortClearsNote(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob")
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	ann.clickPoint("E5")
	ann.wait("her move's note", `document.getElementById('message').textContent === '⚫ ann played E5.'`, 10*time.Second)
	it := e.d.Command(e.ch, user("bob"), "go", discordtest.Sub("abort"))
	e.d.Do(it)
	ask := e.d.Settled(it)
	buttons := ask.Buttons()
	if len(buttons) == 0 {
		t.Fatalf("/go abort answered %q, with no button to confirm", ask.Text())
	}
	e.d.Do(e.d.Click(user("bob"), ask, buttons[0].CustomID))
	ann.wait("the game over", `document.getElementById('status').textContent === 'Game over: aborted, not counted'`, 10*time.Second)
	if got := ann.text("#message"); got != "" {
		t.Errorf("under the aborted game the page still says %q", got)
	}
	ann.clickPoint("D4")
	ann.wait("the refusal", `document.getElementById('message').textContent !== ''`, 10*time.Second)
	if got := ann.text("#message"); got != commands.ClosedGame {
		t.Errorf("a click on the aborted game says %q", got)
	}
}

// TestBrowserNothingMissing: a page asks gobot for nothing it does not
// have: no icon missing on a local page, no picture of a player gobot
// knows none of (one who never opened the board shows their initial).
func TestBrowserNothingMissing(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	local := b.open("dan", e.srv.URL+Path+"/", 1000, 900, "")
	local.signIn("dan")
	local.startBot("easy", "9")
	e.challenge("ann", "bob", 9)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("her picture", `!!document.querySelector('#side-black .avatar img')`, 10*time.Second)
	if got := ann.text("#side-white .avatar"); got != "B" {
		t.Errorf("bob, who never opened the board, shows %q, want his initial", got)
	}
	time.Sleep(300 * time.Millisecond) // the icon is asked for after the page loads
	for _, p := range []*tab{local, ann} {
		if f := p.failures(); len(f) > 0 {
			t.Errorf("%s's page asked for what gobot does not have: %v", p.name, f)
		}
	}
}

// TestBrowserUndoTexts: an undo request is said to each as they stand to
// it, on screen and to screen readers: the asker hears of their own
// request, the opponent of "your reply", a spectator of White's reply; a
// request the opponent plays on from lapses, and the asker is told so,
// not that it was refused; a request withdrawn is said to be withdrawn.
func TestBrowserUndoTexts(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob", "cat")
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 1000, 900)
	all := []*tab{ann, bob, cat}
	for _, p := range all {
		p.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	}
	e.slash("ann", "play", discordtest.Str("move", "E5"))
	e.slash("bob", "play", discordtest.Str("move", "C3"))
	for _, p := range all {
		p.waitStone("C3", "white")
	}
	e.slash("ann", "undo")
	// What the screen reader heard last of an undo request.
	heard := `[...document.getElementById('live').children].map((p) => p.textContent).filter((t) => t.includes('take back')).pop() || ''`
	for p, want := range map[*tab]string{
		ann: "You asked to take back 2 moves (yours and your opponent's reply).",
		bob: "Black asks to take back 2 moves (theirs and your reply).",
		cat: "Black asks to take back 2 moves (theirs and White's reply).",
	} {
		p.wait("the request announced", heard+`.includes('take back')`, 10*time.Second)
		if got := js[string](p, heard); got != want {
			t.Errorf("%s's screen reader heard %q, want %q", p.name, got, want)
		}
	}
	// Then ann asks again and bob plays on: her request lapses.
	e.slash("bob", "pass")
	e.slash("ann", "play", discordtest.Str("move", "D4"))
	bob.waitStone("D4", "black")
	e.slash("ann", "undo")
	bob.wait("the second request", `!document.getElementById('undo-ask').hidden`, 10*time.Second)
	e.slash("bob", "play", discordtest.Str("move", "G7"))
	const lapsed = "The undo request lapsed with White's move."
	ann.wait("the lapse said", `document.getElementById('message').textContent !== ''`, 10*time.Second)
	if got := ann.text("#message"); got != lapsed {
		t.Errorf("ann reads %q, want %q", got, lapsed)
	}
	ann.shot("#game", "undo-lapsed")
	// bob asks and withdraws on the page.
	e.slash("bob", "undo")
	bob.wait("his request", `document.getElementById('undo-ask').offsetParent !== null`, 10*time.Second)
	if got, want := js[string](bob, heard), "You asked to take back your last move."; got != want {
		t.Errorf("bob's screen reader heard %q, want %q", got, want)
	}
	bob.click("#undo-no")
	bob.wait("the request gone", `document.getElementById('undo-ask').offsetParent === null`, 10*time.Second)
	bob.wait("what became of it", `document.getElementById('message').textContent !== ''`, 10*time.Second)
	if got, want := bob.text("#message"), "You withdrew your undo request."; got != want {
		t.Errorf("bob reads %q, want %q", got, want)
	}
}

// TestBrowserGameListTellsApart: in an Activity, the list of games says
// where each is and, for draughts, its kind: two games of the same
// players and size, one in a thread and one in the channel, read apart;
// two in threads are told apart by when they started, in the reader's
// time (the date too when not today).
func TestBrowserGameListTellsApart(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	b.zone, b.locale = "UTC", "en_US"
	e.challenge("ann", "bob", 9, discordtest.Bool("thread", true))
	e.challenge("ann", "bob", 9)
	e.accepted(e.d.Command(e.ch, user("ann"), "draughts", discordtest.Sub("challenge", discordtest.UserOpt("opponent", user("bob")),
		discordtest.Str("color", "white"), discordtest.Bool("rated", false), discordtest.Str("clock", "live"), discordtest.Bool("thread", true))), "bob")
	e.challenge("ann", "bob", 9, discordtest.Bool("thread", true))
	// The two games in threads started yesterday evening and this morning.
	ctx := context.Background()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	starts := []time.Time{today.Add(-150 * time.Minute), today.Add(9*time.Hour + 5*time.Minute)}
	games, err := e.app.Games(ctx, e.ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range games {
		if !s.Thread || s.Kind != "go" {
			continue
		}
		g, err := e.store.Game(ctx, s.Channel)
		if err != nil {
			t.Fatal(err)
		}
		g.CreatedAt, starts = starts[0], starts[1:]
		if err := e.store.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if len(starts) != 0 {
		t.Fatalf("the list has %d games, not two of Go in threads: %+v", len(games), games)
	}
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	cat := e.activity(b, "cat", inst, 1000, 900)
	cat.wait("the list", `document.querySelectorAll('#games button').length === 4 && document.getElementById('picker').offsetParent !== null`, 10*time.Second)
	got := js[[]string](cat, `[...document.querySelectorAll('#games button')].map((b) => b.textContent.replaceAll('\u202f', ' ')).sort()`)
	want := []string{
		"ann vs bob · 9×9 · in a thread · started " + today.Add(-150*time.Minute).Format("Jan 2, 3:04 PM"),
		"ann vs bob · 9×9 · in a thread · started 9:05 AM",
		"ann vs bob · 9×9 · in this channel",
		"ann vs bob · draughts · in a thread",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the list reads %q, want %q", got, want)
	}
	cat.shot("#picker", "game-list-apart")
}

// rengo starts a team game of 9×9 in the env's channel, as in Discord: ann
// opens the lobby, cat joins her on Black, bob and dan on White; B1 is
// ann, W1 bob.
func (e *env) rengo() {
	t := e.t
	t.Helper()
	it := e.d.Command(e.ch, user("ann"), "go", discordtest.Sub("rengo", discordtest.Int("size", 9), discordtest.Str("clock", "live"), discordtest.Bool("thread", false)))
	e.d.Do(it)
	lobby := e.d.Settled(it)
	press := func(who, label string) {
		t.Helper()
		m, _ := e.d.Message(lobby.ID)
		for _, bt := range m.Buttons() {
			if bt.Label == label {
				if r := e.d.Do(e.d.Click(user(who), m, bt.CustomID)); r.Ephemeral() {
					t.Fatalf("%s pressed %s: %s", who, label, r.Text())
				}
				return
			}
		}
		t.Fatalf("no %s button in %q", label, m.Text())
	}
	press("cat", "Join Black")
	press("bob", "Join White")
	press("dan", "Join White")
	press("ann", "Start")
}

// TestBrowserRengo: in a team game, only the player to move has Pass and
// an active board; a teammate's Resign asks for and casts a vote that
// the team resign, which the teammates see open on their pages.
func TestBrowserRengo(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.rengo()
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"), user("dan"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 1000, 900)
	for _, p := range []*tab{ann, cat} {
		p.wait("the game", `document.getElementById('status').textContent.startsWith('Move 1 · black to play: ann')`, 10*time.Second)
	}
	active := `!document.getElementById('points').classList.contains('idle')`
	if js[bool](ann, `document.getElementById('pass').disabled`) || !js[bool](ann, active) {
		t.Errorf("ann, to play, has Pass disabled or an idle board")
	}
	if !js[bool](cat, `document.getElementById('pass').disabled`) || js[bool](cat, active) {
		t.Errorf("cat, ann's teammate not to play, has Pass enabled or an active board")
	}
	// cat's Resign is a vote, and says so.
	cat.click("#resign")
	cat.wait("the question", `document.getElementById('resign-ask').offsetParent !== null`, 5*time.Second)
	if got, want := cat.text("#resign-text"), "Vote that your team resign? It resigns once a majority of the team agrees, before the next move."; got != want {
		t.Errorf("cat's Resign asks %q, want %q", got, want)
	}
	cat.click("#resign-yes")
	seen := `document.getElementById('resign-vote').offsetParent !== null`
	cat.wait("his vote", seen, 10*time.Second)
	if got, want := cat.text("#resign-vote"), "You voted that your team resign: 1 of the 2 votes needed. It resigns if enough teammates agree before the next move."; got != want {
		t.Errorf("cat reads %q, want %q", got, want)
	}
	ann.wait("cat's vote", seen, 10*time.Second)
	if got, want := ann.text("#resign-vote"), "cat votes that your team resign: 1 of the 2 votes needed. Press Resign to agree, before the next move."; got != want {
		t.Errorf("ann reads %q, want %q", got, want)
	}
	ann.shot("#game", "rengo-resign-vote")
	// ann, to play, resigns for the team at once: the question says so.
	ann.click("#resign")
	ann.wait("the question", `document.getElementById('resign-ask').offsetParent !== null`, 5*time.Second)
	if got, want := ann.text("#resign-text"), "Do you really want to resign this game?"; got != want {
		t.Errorf("ann's Resign asks %q, want %q", got, want)
	}
}

// TestBrowserRengoAbortVote: a team's open vote to abort, cast in
// Discord, shows on every page as the resign vote does, in Discord's
// words; the team's other player answers it on the page with Abort
// (asked to confirm), and the game is aborted on every page.
func TestBrowserRengoAbortVote(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.rengo()
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"), user("dan"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	dan := e.activity(b, "dan", inst, 1000, 900)
	for _, p := range []*tab{ann, bob, dan} {
		p.wait("the game", `document.getElementById('status').textContent.startsWith('Move 1 · black to play: ann')`, 10*time.Second)
	}
	// dan, of White (not to move), votes in Discord that White abort.
	ask := e.d.Do(e.d.Command(e.ch, user("dan"), "go", discordtest.Sub("abort")))
	var yes string
	for _, bt := range ask.Message.Buttons() {
		if bt.Label == "Yes, vote to abort" {
			yes = bt.CustomID
		}
	}
	if yes == "" {
		t.Fatalf("dan's /go abort asked %q, without Yes, vote to abort", ask.Text())
	}
	// The question loses its button (an update), and the vote follows.
	vote := e.d.Click(user("dan"), *ask.Message, yes)
	e.d.Do(vote)
	var told []discordtest.Message
	e.d.WaitFor("dan's vote", func() bool { told = e.d.Followups(vote); return len(told) > 0 })
	if !strings.Contains(told[0].Text(), "votes that ⚪ white abort the game: 1 of the 2 votes needed") {
		t.Fatalf("dan's vote was answered %q", told[0].Text())
	}
	seen := `document.getElementById('abort-vote').offsetParent !== null`
	abort := `document.getElementById('abort').offsetParent !== null`
	for _, c := range []struct {
		p           *tab
		want        string
		abortButton bool
	}{
		{dan, "You voted that your team abort the game: 1 of the 2 votes needed. It is aborted if enough teammates agree before the next move.", false},
		{bob, "dan votes that your team abort the game: 1 of the 2 votes needed. Press Abort to agree, before the next move.", true},
		{ann, "dan votes that White abort the game: 1 of the 2 votes needed.", false},
	} {
		c.p.wait("dan's vote", seen, 10*time.Second)
		if got := c.p.text("#abort-vote-text"); got != c.want {
			t.Errorf("%s reads %q, want %q", c.p.name, got, c.want)
		}
		if got := js[bool](c.p, abort); got != c.abortButton {
			t.Errorf("%s has an Abort button: %v, want %v", c.p.name, got, c.abortButton)
		}
	}
	bob.shot("#game", "rengo-abort-vote")
	// bob agrees on the page: asked first, then the game is aborted.
	bob.click("#abort")
	bob.wait("the question", `document.getElementById('resign-ask').offsetParent !== null`, 5*time.Second)
	if got, want := bob.text("#resign-text"), "Vote that your team abort the game? It is aborted once a majority of the team agrees, before the next move; an aborted game is recorded and never rated."; got != want {
		t.Errorf("bob's Abort asks %q, want %q", got, want)
	}
	if got := bob.text("#resign-yes"); got != "Yes, vote to abort" {
		t.Errorf("bob's answer reads %q", got)
	}
	bob.click("#resign-yes")
	for _, p := range []*tab{ann, bob, dan} {
		p.wait("the game aborted", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
		if got := p.text("#status"); got != "Game over: aborted, not counted" {
			t.Errorf("%s: the result reads %q", p.name, got)
		}
		if js[bool](p, seen) {
			t.Errorf("%s: the vote still shows after the game", p.name)
		}
	}
	var said bool
	for _, m := range e.d.Public(e.ch.ID) {
		said = said || strings.Contains(m.Text(), "aborted the game") && strings.Contains(m.Text(), "by the votes of")
	}
	if !said {
		t.Errorf("the channel was not told that White aborted by their votes")
	}
}

// TestBrowserUndoAnsweredOnPage: an undo asked for in Discord and
// answered on the page closes Discord's question in place, its buttons
// disabled, as an answer there does, rather than leaving it open and
// posting the answer as a message of its own.
func TestBrowserUndoAnsweredOnPage(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob")
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	e.slash("ann", "play", discordtest.Str("move", "E5"))
	e.slash("bob", "play", discordtest.Str("move", "C3"))
	for _, answer := range []struct{ button, outcome string }{{"#undo-no", "refused; play on."}, {"#undo-yes", "allowed it."}} {
		it := e.d.Command(e.ch, user("bob"), "go", discordtest.Sub("undo"))
		e.d.Do(it)
		ask := e.d.Settled(it)
		if !strings.Contains(ask.Text(), "asks to take back") {
			t.Fatalf("/go undo answered %q", ask.Text())
		}
		before := len(e.d.Public(e.ch.ID))
		ann.wait("bob's request", `document.getElementById('undo-ask').offsetParent !== null`, 10*time.Second)
		ann.click(answer.button)
		ann.wait("the request answered", `document.getElementById('undo-ask').offsetParent === null`, 10*time.Second)
		e.d.WaitFor("the question closed", func() bool {
			m, _ := e.d.Message(ask.ID)
			return strings.Contains(m.Text(), answer.outcome)
		})
		m, _ := e.d.Message(ask.ID)
		for _, bt := range m.Buttons() {
			if !bt.Disabled {
				t.Errorf("after %s on the page, the question %q keeps %s enabled", answer.button, m.Text(), bt.Label)
			}
		}
		for _, p := range e.d.Public(e.ch.ID)[before:] {
			if strings.Contains(p.Text(), "asked to take back") {
				t.Errorf("the answer was posted again as a message of its own: %q", p.Text())
			}
		}
	}
	// A request made on the page too: its question is posted in the
	// channel, and the answer on the other page closes it.
	bob := e.activity(b, "bob", inst, 1000, 900)
	e.slash("bob", "play", discordtest.Str("move", "D4"))
	bob.waitStone("D4", "white")
	bob.wait("his Undo", `document.getElementById('undo').offsetParent !== null`, 10*time.Second)
	bob.click("#undo")
	var ask discordtest.Message
	e.d.WaitFor("the question posted", func() bool {
		for _, m := range e.d.Public(e.ch.ID) {
			if strings.Contains(m.Text(), "asks to take back") {
				ask = m
			}
		}
		return ask.ID != "" && !strings.Contains(ask.Text(), "asked to take back")
	})
	before := len(e.d.Public(e.ch.ID))
	ann.wait("bob's request", `document.getElementById('undo-ask').offsetParent !== null`, 10*time.Second)
	ann.click("#undo-no")
	e.d.WaitFor("the page's question closed", func() bool {
		m, _ := e.d.Message(ask.ID)
		return strings.Contains(m.Text(), "refused; play on.")
	})
	for _, p := range e.d.Public(e.ch.ID)[before:] {
		if strings.Contains(p.Text(), "asked to take back") {
			t.Errorf("the answer to the page's request was posted as a message of its own: %q", p.Text())
		}
	}
}

// TestBrowserFinalClocks: when a game ends, the page keeps showing each
// side's time as it ended, stopped (as OGS and KGS do), and its status
// says who ran out of time, as the announcement in Discord does; then
// after a resignation, the times the players had.
func TestBrowserFinalClocks(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9, discordtest.Str("clock", "absolute 10s"))
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	bob := e.activity(b, "bob", inst, 1000, 900)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	// Ann never moves: her 10 s run out.
	status := `document.getElementById('status').textContent`
	bob.wait("the game over", status+`.startsWith('Game over')`, 30*time.Second)
	if got, want := bob.text("#status"), "Game over: annulled on time, not counted. ann (black) ran out of time."; got != want {
		t.Errorf("the status reads %q, want %q", got, want)
	}
	for side, want := range map[string]string{"black": "0 s", "white": "10 s"} {
		if got := bob.text("#side-" + side + " .clock"); got != want {
			t.Errorf("%s's clock after the game reads %q, want %q", side, got, want)
		}
		if js[bool](bob, `document.querySelector('#side-`+side+` .clock').classList.contains('running')`) {
			t.Errorf("%s's clock still runs after the game", side)
		}
	}

	// A game that ends by resignation shows the time each had then.
	e.challenge("ann", "bob", 9, discordtest.Str("clock", "fischer 5m +30s"))
	bob.wait("the new game", status+`.startsWith('Move 1')`, 10*time.Second)
	e.slash("ann", "play", discordtest.Str("move", "E5"))
	bob.waitStone("E5", "black")
	e.slash("bob", "resign")
	bob.wait("the game over", status+`.startsWith('Game over')`, 10*time.Second)
	if got := bob.text("#side-black .clock"); !regexp.MustCompile(`^5 min( [0-9]+ s)?$`).MatchString(got) {
		t.Errorf("black's clock after the resignation reads %q, want about 5 min (the time and its increment)", got)
	}
	if got := bob.text("#side-white .clock"); !regexp.MustCompile(`^(5 min|4 min [0-9]+ s)$`).MatchString(got) {
		t.Errorf("white's clock after the resignation reads %q, want about 5 min", got)
	}
}

// TestBrowserLastMoveShows: the opponent's last move shows under the
// board, not only to screen readers, for the players and a spectator: a
// pass above all, since the next ends play. It shows whether the pass
// was made in Discord or on the page; a player's own move is said there
// once, as its answer.
func TestBrowserLastMoveShows(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob", "cat")
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 390, 844)
	for _, p := range []*tab{ann, bob, cat} {
		p.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	}
	// seen is what the line under the board shows: what was said there,
	// or else the last move.
	seen := `[...document.querySelectorAll('#message, #last')].filter((el) => !el.hidden && el.textContent).map((el) => el.textContent).join(' | ')`
	sees := func(p *tab, want string) {
		t.Helper()
		p.wait(fmt.Sprintf("%q under the board", want), seen+` === `+jsString(want), 10*time.Second)
	}
	e.slash("ann", "play", discordtest.Str("move", "D4"))
	for _, p := range []*tab{bob, cat} {
		sees(p, "⚫ ann played D4.")
	}
	bob.clickPoint("E5")
	sees(bob, "⚪ bob played E5.")
	sees(cat, "⚪ bob played E5.")
	// ann passes in Discord: bob and cat see it.
	if got := e.slash("ann", "pass"); !strings.Contains(got, "passed") {
		t.Fatalf("/go pass answered %q", got)
	}
	for _, p := range []*tab{bob, cat} {
		sees(p, "⚫ ann passed.")
	}
	if got := js[string](bob, `document.getElementById('live').lastChild.textContent`); got != "Black (ann) passed." {
		t.Errorf("bob's screen reader heard %q", got)
	}
	bob.shot("#game", "last-move-opponent-passed")
	cat.shot("#game", "last-move-opponent-passed-phone")
	// bob plays on; ann passes on the page.
	bob.clickPoint("F5")
	sees(ann, "⚪ bob played F5.")
	ann.click("#pass")
	sees(ann, "⚫ ann passed.")
	for _, p := range []*tab{bob, cat} {
		sees(p, "⚫ ann passed.")
	}
	for _, p := range []*tab{ann, bob, cat} {
		if f := p.failures(); len(f) > 0 {
			t.Errorf("%s: %v", p.name, f)
		}
	}
}

// TestBrowserRematch: a finished game of two offers its players Rematch
// on the page, as Discord's final board does, and not its spectators; a
// press runs the same path as the button (a challenge to the opponent,
// posted in the channel), and once it is accepted in Discord the new
// game, colours changed, shows on every page.
func TestBrowserRematch(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob", "cat")
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 390, 844)
	for _, p := range []*tab{ann, bob, cat} {
		p.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	}
	e.slash("ann", "resign")
	offered := `(() => { const b = document.getElementById('rematch'); return !b.hidden && !!b.offsetParent; })()`
	for _, p := range []*tab{ann, bob} {
		p.wait("Rematch", offered, 10*time.Second)
		if got := js[[]string](p, `[...document.querySelectorAll('#controls button')].filter((b) => !b.hidden).map((b) => b.textContent)`); fmt.Sprint(got) != "[Rematch]" {
			t.Errorf("%s: the finished game's buttons are %v, want [Rematch]", p.name, got)
		}
	}
	cat.wait("the result", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
	if js[bool](cat, offered) {
		t.Errorf("the spectator is offered Rematch")
	}
	bob.shot("#game", "rematch-offered")
	before := len(e.d.Public(e.ch.ID))
	bob.click("#rematch")
	want := "Challenge sent. ann, bob challenges you to a game of Go: 9×9"
	bob.wait("the challenge sent", `document.getElementById('message').textContent.startsWith(`+jsString(want)+`)`, 10*time.Second)
	var challenge discordtest.Message
	e.d.WaitFor("the challenge in the channel", func() bool {
		for _, m := range e.d.Public(e.ch.ID)[before:] {
			if strings.Contains(m.Text(), "challenges") {
				challenge = m
				return true
			}
		}
		return false
	})
	for _, bt := range challenge.Buttons() {
		if strings.HasSuffix(bt.CustomID, "/accept") {
			if r := e.d.Do(e.d.Click(user("ann"), challenge, bt.CustomID)); r.Ephemeral() {
				t.Fatalf("ann's accept: %s", r.Text())
			}
		}
	}
	for _, p := range []*tab{ann, bob, cat} {
		p.wait("the rematch", `document.getElementById('title').textContent === 'bob vs ann' && !document.getElementById('status').textContent.startsWith('Game over')`, 10*time.Second)
		if js[bool](p, offered) {
			t.Errorf("%s: Rematch shows in the game in play", p.name)
		}
	}
	for _, p := range []*tab{ann, bob, cat} {
		if f := p.failures(); len(f) > 0 {
			t.Errorf("%s: %v", p.name, f)
		}
	}
}

// holdAnswers is a script that lets a test hold back the answers
// ("result") gobot sends a page while window.__hold is set, and hand them
// to the page later with window.__release(): as a slow network or a busy
// gobot would deliver them, after the states sent since.
const holdAnswers = `(() => {
	const WS = window.WebSocket;
	window.__held = [];
	window.__release = () => { const h = window.__held; window.__held = []; h.forEach((f) => f()); };
	window.WebSocket = class extends WS {
		set onmessage(f) {
			super.onmessage = (e) => {
				if (window.__hold && JSON.parse(e.data).t === 'result') window.__held.push(() => f(e));
				else f(e);
			};
		}
		get onmessage() { return super.onmessage; }
	};
})();`

// TestBrowserLateAnswerGoes: the answer to a player's own move that comes
// only after the opponent has moved again does not show under the board
// in place of the opponent's move: bob sees that ann passed, not his own
// earlier move.
func TestBrowserLateAnswerGoes(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob")
	bob := b.open("bob", e.srv.URL+Path+"/?frame_id=f1&instance_id="+inst+"&channel_id="+e.ch.ID, 1000, 900,
		mockSDK(inst, e.ch.ID, e.d.AuthorizeCode(user("bob")))+holdAnswers)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	e.slash("ann", "play", discordtest.Str("move", "D4"))
	bob.waitStone("D4", "black")
	js[bool](bob, `window.__hold = true`)
	bob.clickPoint("E5")
	bob.waitStone("E5", "white")
	bob.wait("the answer held", `window.__held.length === 1`, 10*time.Second)
	e.slash("ann", "pass")
	bob.wait("ann's pass", `document.getElementById('status').textContent === 'Move 4 · white to play: bob'`, 10*time.Second)
	js[bool](bob, `window.__hold = false, window.__release(), true`)
	seen := `[...document.querySelectorAll('#message, #last')].filter((el) => !el.hidden && el.textContent).map((el) => el.textContent).join(' | ')`
	if got := js[string](bob, seen); got != "⚫ ann passed." {
		t.Errorf("under the board bob sees %q, want %q", got, "⚫ ann passed.")
	}
	if f := bob.failures(); len(f) > 0 {
		t.Errorf("bob: %v", f)
	}
}

// TestBrowserOutsideDiscordSaysWhatIsTrue: a browser opening the board page
// itself (not inside Discord, not beside the console) is told how to reach
// a board. With the Activity set up, that is the Open board button; without
// the client secret no board has that button, so the page says the admin
// must set the Activity up instead of sending the user to a button nobody
// can press.
func TestBrowserOutsideDiscordSaysWhatIsTrue(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		name, secret, want string
	}{
		{"activity", discordtest.ClientSecret, "Open this board from Discord: press Open board under a game's board. Signing in by name works only beside gobot's console (gobot console), on its computer."},
		{"no secret", "", `This board page is not set up for Discord on this server: its admin must set up gobot's Activity (DISCORD_CLIENT_SECRET, see "The board page" in gobot's README). Until then, play with /go and /draughts in Discord. Signing in by name works only beside gobot's console (gobot console), on its computer.`},
	} {
		e := newEnv(t, Options{})
		// Before any request, as gobot without DISCORD_CLIENT_SECRET starts it.
		e.board.opts.ClientSecret = c.secret
		p := b.open(c.name, e.srv.URL+Path+"/", 1000, 900, "")
		p.wait("the page's answer", `!document.getElementById('fatal').hidden`, 10*time.Second)
		if got := p.text("#fatal"); got != c.want {
			t.Errorf("%s: the page reads %q, want %q", c.name, got, c.want)
		}
	}
}

// TestBrowserResumeSaid: when the opponent presses Resume play, the page
// says so under the board, instead of "⚪ bob passed." staying there while
// the count vanishes.
func TestBrowserResumeSaid(t *testing.T) {
	e, b, inst := activityGame(t, 9, "ann", "bob")
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	ann.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	ann.click("#pass")
	bob.wait("bob may pass", `!document.getElementById('pass').disabled`, 10*time.Second)
	bob.click("#pass")
	ann.wait("the scoring phase", `!document.getElementById('scoring').hidden && !document.getElementById('resume').hidden`, 10*time.Second)
	bob.wait("the scoring phase", `!document.getElementById('scoring').hidden && !document.getElementById('resume').hidden`, 10*time.Second)
	bob.click("#resume")
	ann.wait("the note", `document.getElementById('message').textContent === 'Play resumed: the count is off, and the game goes on.'`, 10*time.Second)
	if js[bool](ann, `!document.getElementById('last').hidden`) {
		t.Errorf("beside the note the page still shows %q", ann.text("#last"))
	}
}

// TestBrowserDeadStoneNoSquare: in the count, a dead stone is drawn faded
// and crossed with no territory square over its cross, as Discord's
// picture draws it, while the empty points owned have theirs. The game
// is the unsettled wall of commands' scoring tests: White's lone B2 is
// dead inside Black's area.
func TestBrowserDeadStoneNoSquare(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.challenge("ann", "bob", 9, discordtest.Str("clock", "none"))
	black := []string{"C9", "C8", "C7", "C6", "C5", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "J4", "G8", "H7", "pass"}
	white := []string{"D9", "D8", "D7", "D6", "D5", "E5", "F5", "G5", "H5", "J5", "B2", "pass", "pass", "pass", "pass", "pass"}
	for i := range black {
		for _, mv := range []struct{ who, move string }{{"ann", black[i]}, {"bob", white[i]}} {
			if i == len(black)-1 && mv.who == "bob" {
				break // the count has begun
			}
			var got string
			if mv.move == "pass" {
				got = e.slash(mv.who, "pass")
			} else {
				got = e.slash(mv.who, "play", discordtest.Str("move", mv.move))
			}
			if !strings.Contains(got, "played") && !strings.Contains(got, "passed") {
				t.Fatalf("%s %s: %q", mv.who, mv.move, got)
			}
		}
	}
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.wait("the count", `!document.getElementById('scoring').hidden`, 10*time.Second)
	ann.wait("B2 marked dead", `(document.querySelector('[data-point="B2"]').getAttribute('aria-label')||'').includes('marked dead')`, 10*time.Second)
	// B2 is drawn at (2, 8) in the board's units; a square there would
	// be at (1.85, 7.85).
	if js[bool](ann, `!!document.querySelector('rect[x="1.85"][y="7.85"]')`) {
		t.Errorf("a territory square is drawn over the dead stone at B2")
	}
	if n := js[int](ann, `document.querySelectorAll('rect[width=".3"]').length`); n < 30 {
		t.Errorf("%d territory squares in the count, want Black's area drawn", n)
	}
	ann.shot("#game", "dead-stone-no-square")
}

// TestBrowserPhoneBoardStill: on a phone held upright, the board does not
// move when the player's clock starts (the clock's text grows longer and
// bold as it runs: the card keeps its one line), and a 19×19 board's
// coordinates, which a player types for /go play move:, are at least
// 11 px, as draughts' square numbers.
func TestBrowserPhoneBoardStill(t *testing.T) {
	e, b, inst := activityGame(t, 19, "ann", "bob")
	bob := e.activity(b, "bob", inst, 390, 844)
	bob.wait("the game", `document.getElementById('title').textContent === 'ann vs bob'`, 10*time.Second)
	top := func() float64 {
		return js[float64](bob, `document.getElementById('board').getBoundingClientRect().top`)
	}
	before := top()
	bob.shot("body", "phone-19x19-before")
	if got := e.slash("ann", "play", discordtest.Str("move", "Q16")); !strings.Contains(got, "Q16") {
		t.Fatalf("/go play Q16 answered %q", got)
	}
	bob.waitStone("Q16", "black")
	bob.wait("bob's clock running", `document.querySelector('#side-white .clock.running') !== null`, 10*time.Second)
	// Past the first second off bob's clock, it counts seconds.
	bob.wait("bob's clock counting seconds", `document.querySelector('#side-white .clock').textContent.includes(' s')`, 10*time.Second)
	if after := top(); math.Abs(after-before) > 0.5 {
		t.Errorf("the board moved from %.1f to %.1f px when bob's clock started (%q)", before, after, bob.text("#side-white .clock"))
	}
	bob.shot("body", "phone-19x19-after")
	coord := js[[]float64](bob, `(() => {
		const svg = document.getElementById('board'), t = svg.querySelector('text.coord');
		const n = document.querySelectorAll('#points button').length ** 0.5;
		return [parseFloat(t.getAttribute('font-size')) * svg.getBoundingClientRect().width / (n + 1.5), t.getBoundingClientRect().height];
	})()`)
	if coord[0] < 10.95 {
		t.Errorf("the coordinates of a 19×19 board are %.1f px on a phone (glyph %.1f px high), want at least 11", coord[0], coord[1])
	}
}
