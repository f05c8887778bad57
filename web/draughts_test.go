package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// draughtsChallenge starts a game of draughts in the env's channel by
// slash command and Accept button, as in Discord: white against black,
// unrated, live clock.
func (e *env) draughtsChallenge(white, black string) {
	e.t.Helper()
	e.accepted(e.d.Command(e.ch, user(white), "draughts", discordtest.Sub("challenge", discordtest.UserOpt("opponent", user(black)),
		discordtest.Str("color", "white"), discordtest.Bool("rated", false), discordtest.Str("clock", "live"))), black)
}

// setDraughts puts the game of the env's channel at the position of
// diagram (as draughts.ParseDiagram reads it), as if play had led there.
func (e *env) setDraughts(diagram string) {
	e.t.Helper()
	ctx := context.Background()
	pos, err := draughts.ParseDiagram(diagram)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := draughts.NewState(game.Options{"fen": pos.FEN()}, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	g, err := e.store.Game(ctx, e.ch.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	g.State = st
	if err := e.store.UpdateGame(ctx, g); err != nil {
		e.t.Fatal(err)
	}
	e.app.Publish(e.ch.ID)
}

// square is what a page's square n holds: "w", "b", "W", "B" or "".
func (p *tab) square(n int) string {
	p.t.Helper()
	return js[string](p, fmt.Sprintf(`document.querySelector('[data-square="%d"]').dataset.piece`, n))
}

// waitSquare waits until square n holds piece ("" for empty).
func (p *tab) waitSquare(n int, piece string) {
	p.t.Helper()
	p.wait(fmt.Sprintf("square %d to hold %q", n, piece), fmt.Sprintf(`(document.querySelector('[data-square="%d"]')||{dataset:{}}).dataset.piece === %q`, n, piece), 10*time.Second)
}

// clickSquare clicks with the mouse where the board draws square n: the
// middle of its cell in the drawing (the SVG's box cut in ten), the
// page's orientation read from where square 1 is drawn.
func (p *tab) clickSquare(n int) {
	p.t.Helper()
	p.clickAt(fmt.Sprintf("square %d", n), p.squareXY(n))
}

// squareXY is where the drawing puts square n, from White's side or,
// flipped, from Black's: the dark square in the second column of the top
// row is 1 from White's side.
func (p *tab) squareXY(n int) []float64 {
	p.t.Helper()
	flip := p.flipped()
	r := (n - 1) / 5
	c := 2*((n-1)%5) + 1 - r%2
	if flip {
		r, c = 9-r, 9-c
	}
	return js[[]float64](p, fmt.Sprintf(`(() => {
		const b = document.getElementById('board').getBoundingClientRect();
		return [b.left + b.width * (%d + 0.5) / 10, b.top + b.height * (%d + 0.5) / 10];
	})()`, c, r))
}

// flipped reports whether the page draws Black at the bottom: whether
// the drawing's first dark square of the top row (the rect after the
// light background) is not square 1's.
func (p *tab) flipped() bool {
	p.t.Helper()
	return js[bool](p, `(() => {
		const b = document.getElementById('board').getBoundingClientRect();
		const s = document.querySelector('[data-square="1"]').getBoundingClientRect();
		return s.top > b.top + b.height / 2;
	})()`)
}

// TestBrowserDraughts: a game of draughts plays by clicks on the board
// page, as on lidraughts. White sees White at the bottom, Black sees the
// board flipped; a piece that cannot take when a capture is compulsory is
// not chosen, and the page says which captures there are; a click where
// the chosen piece cannot go is sent and refused with the rules' sentence,
// changing nothing; a capture with two ways to the same square asks for
// the landing square, then plays on both pages; Black answers by clicks;
// a resignation (confirmed) ends the game on both pages with its result,
// where Rematch is then the only control.
func TestBrowserDraughts(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.draughtsChallenge("ann", "bob")
	// The Discord board of a game of draughts has the Open board button,
	// which launches the Activity.
	it := e.d.Command(e.ch, user("ann"), "draughts", discordtest.Sub("board"))
	e.d.Do(it)
	board := e.d.Settled(it)
	var open bool
	for _, bt := range board.Buttons() {
		if bt.Label == "Open board" {
			open = true
			if r := e.d.Do(e.d.Click(user("cat"), board, bt.CustomID)); r.Type != discordtest.CallbackLaunchActivity {
				t.Errorf("Open board answered type %d (%s), want 12 (LAUNCH_ACTIVITY)", r.Type, r.Body)
			}
		}
	}
	if !open {
		t.Errorf("no Open board button on the draughts board: %q", board.Text())
	}
	// White's king on 3 must take, the most pieces: three, by 3x14x28
	// or 3x20x33 to 6, 11 or 17. The men on 39 and 46 cannot take.
	e.setDraughts(`
 . . W . .
. . . b .
 . . . . .
. . . b .
 . b . b .
. . . . .
 . . . . b
. . . w .
 . . . . .
w . . . .
White to move`)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	bob := e.activity(b, "bob", inst, 1000, 900)
	for _, p := range []*tab{ann, bob} {
		p.wait("the game", `document.getElementById('title').textContent === 'ann vs bob' && document.querySelectorAll('#points [data-square]').length === 50`, 10*time.Second)
		p.waitSquare(3, "W")
	}
	if ann.flipped() || !bob.flipped() {
		t.Errorf("orientation: ann (white) flipped %v, bob (black) flipped %v; want White at the bottom for ann only", ann.flipped(), bob.flipped())
	}
	// From White's side, 1 is in the top row's second column, and 46 in
	// the bottom row's first.
	where := func(p *tab, n int) []int {
		return js[[]int](p, fmt.Sprintf(`(() => {
			const b = document.getElementById('board').getBoundingClientRect();
			const s = document.querySelector('[data-square="%d"]').getBoundingClientRect();
			return [Math.floor((s.top + s.height / 2 - b.top) / b.height * 10), Math.floor((s.left + s.width / 2 - b.left) / b.width * 10)];
		})()`, n))
	}
	if got := fmt.Sprint(where(ann, 1), where(ann, 46), where(bob, 1)); got != "[0 1] [9 0] [9 8]" {
		t.Errorf("row and column of 1 and 46 for ann, 1 for bob = %s, want [0 1] [9 0] [9 8]", got)
	}
	if got := ann.text("#side-white .caps"); got != "3 pieces (1 king)" {
		t.Errorf("white's pieces read %q", got)
	}
	if got := ann.text("#rules"); !strings.HasPrefix(got, "International draughts, 10×10") {
		t.Errorf("the rules line reads %q", got)
	}
	ann.shot("#game", "draughts-white-to-move")
	// A spectator on a phone sees White at the bottom and cannot act.
	cat := e.activity(b, "cat", inst, 390, 844)
	cat.waitSquare(3, "W")
	if cat.flipped() {
		t.Errorf("the spectator sees the board flipped")
	}
	cat.clickSquare(3)
	cat.wait("the spectator's refusal", `document.getElementById('message').textContent !== ''`, 5*time.Second)
	if got := cat.text("#message"); got != "You are watching this game: only its players can act." {
		t.Errorf("a spectator's click shows %q", got)
	}
	cat.shot("#game", "draughts-spectator-phone")

	message := `document.getElementById('message').textContent`
	// The man on 46 cannot take: not chosen, and the page says why.
	ann.clickSquare(46)
	ann.wait("the compulsory capture", message+` !== ''`, 5*time.Second)
	if got, want := ann.text("#message"), "The piece on 46 cannot capture, and a capture is compulsory: 3x14x28x6, 3x20x33x6, 3x14x28x11, 3x20x33x11 or …."; got != want {
		t.Errorf("clicking 46 says %q, want %q", got, want)
	}
	// The king chosen, a click where it cannot go: gobot's refusal, and
	// nothing changes.
	ann.clickSquare(3)
	ann.wait("the king chosen", `document.querySelector('[data-square="3"]').getAttribute('aria-label').includes('selected')`, 5*time.Second)
	if n := js[int](ann, `document.querySelectorAll('#points [aria-label*="a move goes here"]').length`); n != 3 {
		t.Errorf("the king shows %d squares to go to, want 3 (6, 11, 17)", n)
	}
	ann.clickSquare(12)
	ann.wait("the refusal", message+`.includes('a capture is compulsory')`, 10*time.Second)
	if got := ann.text("#message"); !strings.HasPrefix(got, `3x12 does not capture, but a capture is compulsory: 3x14x28x6, `) {
		t.Errorf("3x12 is refused with %q", got)
	}
	if ann.square(3) != "W" || ann.square(9) != "b" || bob.square(3) != "W" {
		t.Errorf("the refused click changed the board")
	}
	// Clicked landing by landing: from 3 the captures through 14 end on
	// three squares, ringed, and the page asks which; a click on the
	// king again lets it go.
	ann.clickSquare(3)
	ann.clickSquare(14)
	ann.wait("the ends", message+`.startsWith('3 captures from 3')`, 5*time.Second)
	if got := ann.text("#message"); got != "3 captures from 3 land on 14 and go on: click the square the piece ends on (6, 11 or 17)." {
		t.Errorf("clicking 3, then 14 asks %q", got)
	}
	if n := js[int](ann, `document.querySelectorAll('#points [aria-label*="a move goes here"]').length`); n != 3 {
		t.Errorf("after 3 and 14, %d squares to go to, want 3 (6, 11, 17)", n)
	}
	ann.clickSquare(28) // on every way left: still to be told apart
	ann.clickSquare(3)
	ann.wait("the king let go", `!document.querySelector('[data-square="3"]').getAttribute('aria-label').includes('selected')`, 5*time.Second)
	if ann.square(3) != "W" || ann.square(9) != "b" || ann.square(14) != "" {
		t.Errorf("the clicks along the way changed the board")
	}
	// Two ways lead from 3 to 17: the page asks which, then plays it.
	ann.clickSquare(3)
	ann.clickSquare(17)
	ann.wait("the question", message+`.startsWith('2 captures go from 3 to 17')`, 5*time.Second)
	if got := ann.text("#message"); got != "2 captures go from 3 to 17: click the square to land on first (14 or 20)." {
		t.Errorf("the way's question reads %q", got)
	}
	ann.shot("#game", "draughts-choose-the-way")
	ann.clickSquare(14)
	for _, p := range []*tab{ann, bob} {
		p.waitSquare(17, "W")
		for _, q := range []int{3, 9, 19, 22} {
			if got := p.square(q); got != "" {
				t.Errorf("%s: after 3x14x28x17 square %d holds %q", p.name, q, got)
			}
		}
		p.wait("black's turn", `document.getElementById('status').textContent === 'Move 1 · black to play: bob'`, 10*time.Second)
	}
	// What Discord's answer said of the capture, the page says: the
	// mover under the board, the opponent's screen reader.
	ann.wait("what the move did", message+` !== ''`, 10*time.Second)
	if got, want := ann.text("#message"), "⚪ white ann played 3x14x28x17. White 3x14x28x17 captures 3 pieces."; got != want {
		t.Errorf("ann reads %q, want %q", got, want)
	}
	if got, want := js[string](bob, `document.getElementById('live').lastChild.textContent`), "White (ann) played 3x14x28x17. White 3x14x28x17 captures 3 pieces."; got != want {
		t.Errorf("bob's screen reader heard %q, want %q", got, want)
	}
	if got := bob.text("#side-black .caps"); got != "2 pieces" {
		t.Errorf("black's pieces read %q", got)
	}
	if !strings.Contains(js[string](bob, `document.querySelector('[data-square="17"]').getAttribute('aria-label')`), "last move") {
		t.Errorf("17 is not marked as the last move")
	}
	// Black answers by clicks on the flipped board.
	bob.clickSquare(24)
	bob.clickSquare(29)
	ann.waitSquare(29, "b")
	bob.shot("#game", "draughts-black-flipped")
	if got := js[string](bob, `document.getElementById('live').lastChild.textContent`); got != "Black (bob) played 24-29." {
		t.Errorf("bob's screen reader heard %q", got)
	}
	// Out of turn, a click says so and sends nothing.
	bob.clickSquare(29)
	bob.wait("the turn refusal", message+` === 'It is not your turn: white ann is to play.'`, 5*time.Second)
	// A draw offered on one page is offered on the other; the offerer
	// reads it in his words, not as Discord's question to ann.
	answers := js[int](bob, `performance.getEntriesByName('gobot-result').length`)
	bob.click("#draw")
	ann.wait("bob's offer", `document.getElementById('draw').textContent === 'Accept the draw' && !document.getElementById('draw-text').hidden`, 10*time.Second)
	if got := ann.text("#draw-text"); got != "Black offers a draw: accept it, or play on (the offer lapses with your move)." {
		t.Errorf("ann reads %q", got)
	}
	bob.wait("his offer standing", `document.getElementById('draw').disabled`, 10*time.Second)
	bob.wait("the offer's answer", fmt.Sprintf(`performance.getEntriesByName('gobot-result').length > %d`, answers), 10*time.Second)
	if got := bob.text("#message"); got != "" {
		t.Errorf("under the board bob reads %q", got)
	}
	// A resignation, confirmed, ends the game on both pages.
	ann.click("#resign")
	ann.wait("the confirmation", `!document.getElementById('resign-ask').hidden`, 5*time.Second)
	ann.click("#resign-yes")
	for _, p := range []*tab{ann, bob} {
		p.wait("the result", `document.getElementById('status').textContent.startsWith('Game over:')`, 10*time.Second)
		if got := p.text("#status"); !strings.Contains(got, "bob wins by resignation · 0-2") {
			t.Errorf("%s: the result reads %q", p.name, got)
		}
		// Of the controls, only Rematch is left.
		p.wait("Rematch alone", `[...document.querySelectorAll('#controls button, #controls label')].filter((b) => !b.hidden).map((b) => b.textContent).join() === 'Rematch'`, 10*time.Second)
	}
	bob.shot("#game", "draughts-over")
	for _, p := range []*tab{ann, bob} {
		if f := p.failures(); len(f) > 0 {
			t.Errorf("%s: %v", p.name, f)
		}
	}
}

// TestBrowserLocalDraughts: beside the console, a game of draughts against
// the bot (started in the console) shows on the local page and plays by
// clicks; the bot answers.
func TestBrowserLocalDraughts(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	ctx := context.Background()
	st, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	dan := commands.ConsoleUser("dan")
	g := &storage.Game{ID: "1300000000000000001", ChannelID: commands.ConsoleChannel, GuildID: commands.LocalGuild, Kind: "draughts",
		Sides: storage.Sides(storage.Player{UserID: dan.ID, Name: dan.Name}, storage.Player{Level: "beginner", Name: "gobot beginner"}),
		State: st, CreatedAt: time.Now(), Unrated: true}
	if err := e.store.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	p := b.open("dan", e.srv.URL+Path+"/", 1000, 900, "")
	p.signIn("dan")
	p.wait("the game", `document.querySelectorAll('#points [data-square]').length === 50`, 10*time.Second)
	p.waitSquare(32, "w")
	p.clickSquare(32)
	p.clickSquare(28)
	p.waitSquare(28, "w")
	p.wait("the bot's reply", `document.getElementById('status').textContent === 'Move 2 · white to play: dan'`, 20*time.Second)
	p.shot("#game", "local-draughts")
}

// TestBrowserDraughtsRoundTrip: White's clock runs in White's box while
// White is to move; a capture that ends where it started (the man on 32
// takes four and comes back) is played by clicking the piece again; and a
// spectator is told of a draw offer, which only the players can accept.
func TestBrowserDraughtsRoundTrip(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.draughtsChallenge("ann", "bob")
	e.setDraughts(`
 . . . . b
. . . . .
 . . . . .
. b b . .
 . . . . .
. b b . .
 . w . . .
. . . . .
 . . . . .
. . . . .
White to move`)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 1000, 900)
	ann.waitSquare(32, "w")
	running := func(p *tab, side string) bool {
		return js[bool](p, fmt.Sprintf(`document.querySelector('#side-%s .clock').classList.contains('running')`, side))
	}
	if !running(ann, "white") || running(ann, "black") {
		t.Errorf("White to move: white's clock running %v, black's %v; want White's only", running(ann, "white"), running(ann, "black"))
	}
	ann.clickSquare(32)
	ann.clickSquare(32)
	ann.waitSquare(27, "")
	ann.waitSquare(32, "w")
	g, err := e.store.Game(context.Background(), e.ch.ID)
	if err != nil || g.State.MoveCount() != 1 {
		t.Fatalf("after clicking 32 twice: %v, want the round trip played", err)
	}
	if !running(ann, "black") || running(ann, "white") {
		t.Errorf("Black to move: black's clock running %v, white's %v; want Black's only", running(ann, "black"), running(ann, "white"))
	}
	// Black offers a draw: the spectator sees it, without being asked.
	bob := e.activity(b, "bob", inst, 1000, 900)
	bob.waitSquare(32, "w")
	bob.click("#draw")
	// Seen: shown and on screen, not only without its hidden attribute
	// (it was once inside the players' controls, hidden to spectators).
	seen := `(() => { const el = document.getElementById('draw-text'); const r = el.getBoundingClientRect(); return el.offsetParent !== null && r.height > 0 && r.bottom <= innerHeight; })()`
	cat.wait("the draw offer", seen, 10*time.Second)
	if got := cat.text("#draw-text"); got != "Black offers a draw: it stands until White moves." {
		t.Errorf("the spectator reads %q", got)
	}
	ann.wait("the draw offer", seen, 10*time.Second)
	if got := ann.text("#draw-text"); got != "Black offers a draw: accept it, or play on (the offer lapses with your move)." {
		t.Errorf("ann reads %q", got)
	}
	bob.wait("his draw offer", seen, 10*time.Second)
	// Made on his turn, it goes with his move.
	if got := bob.text("#draw-text"); got != "You offered a draw: it stands until White moves." {
		t.Errorf("bob reads %q", got)
	}
	cat.shot("#game", "draughts-draw-offer-spectator")
	ann.shot("#game", "draughts-draw-offer-player")
}

// TestBrowserDraughtsCrownSaid: a move played in Discord that takes a
// piece and crowns a man is told on the page in the words of its answer
// in Discord: the pieces taken and the crowning, not only the move.
func TestBrowserDraughtsCrownSaid(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.draughtsChallenge("ann", "bob")
	// White's man on 14 takes 9 and lands on 3, Black's far row.
	e.setDraughts(`
 . . . . .
. . . b .
 . . . w .
. . . . .
 . . . . .
. . . . .
 . . . . b
. . . . .
 . . . . .
w . . . .
White to move`)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	bob := e.activity(b, "bob", inst, 1000, 900)
	cat := e.activity(b, "cat", inst, 390, 844)
	for _, p := range []*tab{bob, cat} {
		p.waitSquare(14, "w")
	}
	it := e.d.Command(e.ch, user("ann"), "draughts", discordtest.Sub("play", discordtest.Str("move", "14x3")))
	e.d.Do(it)
	answer := e.d.Settled(it).Text()
	said := "White 14x3 captures 1 piece. 👑 White's man is crowned on 3."
	if !strings.Contains(answer, "played **14x3**. "+said) {
		t.Fatalf("/draughts play answered %q, want it to say %q", answer, said)
	}
	for _, p := range []*tab{bob, cat} {
		p.waitSquare(3, "W")
		p.wait("the move told", `(document.getElementById('live').lastChild||{}).textContent`, 10*time.Second)
		if got, want := js[string](p, `document.getElementById('live').lastChild.textContent`), "White (ann) played 14x3. "+said; got != want {
			t.Errorf("%s's screen reader heard %q, want %q", p.name, got, want)
		}
		// And everyone sees it, under the board.
		if got, want := p.text("#last"), "⚪ white ann played 14x3. "+said; got != want || js[bool](p, `document.getElementById('last').hidden`) {
			t.Errorf("%s sees %q under the board, want %q", p.name, got, want)
		}
	}
	cat.shot("#game", "draughts-crowned-spectator-phone")
}

// TestBrowserDraughtsMaximumCapture: a click on a piece that can capture,
// but fewer pieces than another must, says so in the words of /draughts
// play's refusal of that capture, naming the maximum capture; a piece
// that cannot capture at all is still told that it cannot.
//
// A capture clicked landing by landing is played at its first landing
// square when it is the only one through it.
func TestBrowserDraughtsMaximumCapture(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.draughtsChallenge("ann", "bob")
	// 33 must take three, by 33x22x11x2; 34 could take one, by 34x25.
	e.setDraughts(`
 . . . . .
. b . . .
 . . . . .
. b . . .
 . . . . .
. . b . b
 . . w w .
b . . . .
 . . . . .
. . w . .
White to move`)
	inst := e.d.Activity(e.ch, user("ann"), user("bob"))
	ann := e.activity(b, "ann", inst, 1000, 900)
	ann.waitSquare(34, "w")
	it := e.d.Command(e.ch, user("ann"), "draughts", discordtest.Sub("play", discordtest.Str("move", "34x25")))
	e.d.Do(it)
	want := "34x25 takes 1 piece, but 33x22x11x2 takes 3: the maximum capture is compulsory."
	if got := e.d.Settled(it).Text(); got != want {
		t.Fatalf("/draughts play 34x25 answered %q, want it to say %q", got, want)
	}
	message := `document.getElementById('message').textContent`
	for _, c := range []struct {
		square int
		want   string
	}{
		{34, want},
		{48, "The piece on 48 cannot capture, and a capture is compulsory: 33x2."},
	} {
		ann.clickSquare(c.square)
		ann.wait(fmt.Sprintf("the refusal of %d", c.square), message+` === `+jsString(c.want), 5*time.Second)
		if js[bool](ann, fmt.Sprintf(`document.querySelector('[data-square="%d"]').getAttribute('aria-label').includes('selected')`, c.square)) {
			t.Errorf("the piece on %d was chosen", c.square)
		}
	}
	// The capture clicked landing by landing: 33, then 22, the first
	// square it lands on, plays the one capture through 22 (not 33x22,
	// which would be refused as taking one piece of three).
	ann.clickSquare(33)
	ann.clickSquare(22)
	ann.waitSquare(2, "W")
	for _, q := range []int{33, 28, 17, 7} {
		if got := ann.square(q); got != "" {
			t.Errorf("after 33x22x11x2 square %d holds %q", q, got)
		}
	}
	if f := ann.failures(); len(f) > 0 {
		t.Errorf("ann: %v", f)
	}
}

// TestBrowserDraughtsNumbersOnPhone: on a phone (390×844) the squares'
// numbers, draughts' only coordinates, are at least 11px high and drawn
// over the pieces, in their square's top left corner, so that the
// squares the messages name can be found.
func TestBrowserDraughtsNumbersOnPhone(t *testing.T) {
	e := newEnv(t, Options{Local: true})
	b := newBrowser(t)
	e.draughtsChallenge("ann", "bob")
	inst := e.d.Activity(e.ch, user("ann"), user("bob"), user("cat"))
	cat := e.activity(b, "cat", inst, 390, 844)
	cat.waitSquare(48, "w")
	// Each number: its font size in pixels, whether it shows,
	// whether it lies in its square's top left quarter, and its text.
	got := js[[]string](cat, `[...document.querySelectorAll('#points [data-square]')].map((b) => {
		const n = b.querySelector('.num');
		if (!n) return b.dataset.square + ': none';
		const r = n.getBoundingClientRect(), s = b.getBoundingClientRect();
		const corner = r.left >= s.left && r.top >= s.top && r.left < s.left + s.width / 2 && r.top < s.top + s.height / 2;
		return parseFloat(getComputedStyle(n).fontSize) >= 11 && n.checkVisibility() && corner && n.textContent === b.dataset.square ? '' : b.dataset.square + ': ' + getComputedStyle(n).fontSize + (corner ? '' : ' off its corner');
	}).filter((s) => s)`)
	if len(got) > 0 {
		t.Errorf("numbers too small, hidden or misplaced: %v", got)
	}
	// Over the pieces: the buttons' layer lies over the drawing.
	if !js[bool](cat, `getComputedStyle(document.getElementById('points')).position === 'absolute' && !!(document.getElementById('board').compareDocumentPosition(document.getElementById('points')) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Errorf("the numbers are not over the drawing")
	}
	cat.shot("#game", "draughts-numbers-phone")
}
