package commands_test

// End-to-end tests of rengo (team Go): the lobby, its seats and its
// refusals, a 2-vs-2 game played to the count in its thread with the turn
// order B1, W1, B2, W2, and a team's majority resignation. The harness is
// in e2e_harness_test.go.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// rengoWall is a 9×9 game that ends in a count of B+1.5: two walls seal
// the board's halves, then a move inside each side's own area.
var rengoWall = []string{
	"E5", "F5", "E4", "F4", "E3", "F3", "E2", "F2", "E1", "F1",
	"E6", "F6", "E7", "F7", "E8", "F8", "E9", "F9",
	"H3", "B7", "pass", "pass",
}

// rengoLobby has ann open a 9×9 rengo game in ch (options added) and bob,
// cid and dan join, bob and dan White, cid Black; it returns the lobby as
// shown last.
func (e *env) rengoLobby(ch *discordtest.Channel, ann, bob, cid, dan discordtest.User, opts ...discordtest.Option) discordtest.Message {
	e.t.Helper()
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", append([]discordtest.Option{discordtest.Int("size", 9)}, opts...)...))
	if lobby.Ephemeral || !strings.Contains(lobby.Text(), "rengo") || !strings.Contains(lobby.Text(), "**Black** (1/4): "+ann.Mention()) {
		e.t.Fatalf("lobby = %q, want a public rengo lobby with ann on Black", lobby.Text())
	}
	lobby = e.do(e.click(bob, lobby, "Join White"))
	lobby = e.do(e.click(cid, lobby, "Join Black"))
	lobby = e.do(e.click(dan, lobby, "Join White"))
	for _, want := range []string{"**Black** (2/4): " + ann.Mention() + ", " + cid.Mention(), "**White** (2/4): " + bob.Mention() + ", " + dan.Mention()} {
		if !strings.Contains(lobby.Text(), want) {
			e.t.Fatalf("lobby = %q, want %q", lobby.Text(), want)
		}
	}
	return lobby
}

// TestE2ERengo: four players fill a 2-vs-2 lobby, with the refusals of a
// second seat, a full team, a start by someone else and a team too small;
// the game starts in its own thread and is played to the count with each
// player moving in turn (out-of-turn moves, a stranger and undo refused),
// any member accepts the count for the team, and the record names the
// teams and who played each move. Rengo is unrated.
func TestE2ERengo(t *testing.T) { httpMode(t, testE2ERengo) }

func testE2ERengo(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9)))
	e.refused(e.click(bob, lobby, "Start"), "Only "+ann.Mention()+", who opened this rengo game, can start it.")
	e.refused(e.click(ann, lobby, "Start"), "Each team needs at least 2 players: Black has 1.")
	if want := "Teams of 2 to 4 (**Join** the other team to change sides); the order of play is B1, W1, B2, W2 … " + ann.Mention() + " presses **Start** when both teams are ready, or **Leave** to call the game off."; !strings.Contains(lobby.Text(), want) {
		t.Errorf("lobby = %q, want %q", lobby.Text(), want)
	}
	e.refused(e.click(ann, lobby, "Join Black"), "You are already on Black.")
	// Joining the other team changes sides, the opener's too.
	lobby = e.do(e.click(ann, lobby, "Join White"))
	if want := "⚫ **Black** (0/4): nobody yet\n⚪ **White** (1/4): " + ann.Mention() + "\n"; !strings.Contains(lobby.Text(), want) {
		t.Errorf("lobby after ann joined White = %q, want %q", lobby.Text(), want)
	}
	lobby = e.do(e.click(bob, lobby, "Join White"))
	lobby = e.do(e.click(ann, lobby, "Join Black"))
	e.refused(e.click(bob, lobby, "Join White"), "You are already on White.")
	var extra []discordtest.User
	for i := range 3 {
		extra = append(extra, e.d.NewUser(fmt.Sprintf("w%d", i)))
		lobby = e.do(e.click(extra[i], lobby, "Join White"))
	}
	e.refused(e.click(dan, lobby, "Join White"), "White is full: a team has at most 4 players.")
	e.refused(e.click(ann, lobby, "Join White"), "White is full: a team has at most 4 players.")
	lobby = e.do(e.click(extra[0], lobby, "Join Black"))
	if want := "⚫ **Black** (2/4): " + ann.Mention() + ", " + extra[0].Mention() + "\n⚪ **White** (3/4): "; !strings.Contains(lobby.Text(), want) {
		t.Errorf("lobby after w0 changed sides = %q, want %q", lobby.Text(), want)
	}
	for _, u := range extra {
		lobby = e.do(e.click(u, lobby, "Leave"))
	}
	e.refused(e.click(dan, lobby, "Leave"), "You are not on a team of this rengo game.")
	lobby = e.do(e.click(cid, lobby, "Join Black"))
	lobby = e.do(e.click(dan, lobby, "Join White"))
	started := e.do(e.click(ann, lobby, "Start"))
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the game's own", len(threads))
	}
	th := threads[0]
	if !strings.Contains(started.Text(), "✅ Started: ⚫ "+ann.Mention()+", "+cid.Mention()+" against ⚪ "+bob.Mention()+", "+dan.Mention()) ||
		!strings.Contains(started.Text(), "<#"+th.ID+">") {
		t.Errorf("closed lobby = %q", started.Text())
	}
	if b, _ := started.Button("Join Black"); !b.Disabled {
		t.Error("the lobby's buttons stay enabled after the start")
	}
	e.refused(e.d.Click(e.d.NewUser("late"), started, mustButton(t, started, "Join Black").CustomID), "This rengo game has started or was called off: its teams are closed.")
	g := e.game(th.ID)
	if g == nil || !g.Unrated || len(g.TeamOf(engine.SideOf(engine.Black))) != 2 || len(g.TeamOf(engine.SideOf(engine.White))) != 2 {
		t.Fatalf("rengo game = %+v", g)
	}
	first := e.waitBoard(th.ID, "The game begins")
	if !strings.Contains(first.Text(), ann.Mention()+", your move.") {
		t.Errorf("first board = %q, want it to call ann", first.Text())
	}

	order := []discordtest.User{ann, bob, cid, dan}
	var last discordtest.Message
	for i, mv := range rengoWall {
		who := order[i%4]
		if i == 2 {
			// Not cid's turn on Black, nor dan's on White.
			e.refused(e.play(th, ann, mv), "It is not your turn: ⚫ "+cid.Mention()+" is to play.")
			e.refused(e.play(th, dan, mv), "It is not your turn: ⚫ "+cid.Mention()+" is to play.")
			e.refused(e.play(th, e.d.NewUser("eve"), mv), "You are not playing in this game")
			e.refused(e.slash(th, bob, "undo"), "There is no undo in rengo")
		}
		it := e.play(th, who, mv)
		if mv == "pass" {
			it = e.slash(th, who, "pass")
		}
		if last = e.do(it); last.Ephemeral {
			t.Fatalf("move %d %s by %s refused: %q", i+1, mv, who.Username, last.Text())
		}
		if next := order[(i+1)%4]; i < len(rengoWall)-2 && !strings.Contains(last.Text(), next.Mention()+", your move.") {
			t.Errorf("after move %d the board = %q, want it to call %s", i+1, last.Text(), next.Username)
		}
		if i == 0 && !strings.Contains(last.Text(), "⚫ "+ann.Mention()+" played **E5**") {
			t.Errorf("first move's note = %q, want it to name ann", last.Text())
		}
	}
	if !strings.Contains(last.Text(), "B+1.5") {
		t.Errorf("proposal = %q, want B+1.5", last.Text())
	}
	after := e.do(e.click(cid, last, "accept"))
	e.refused(e.click(ann, after, "accept"), "Your team has already accepted this marking; waiting for the other team.")
	final := e.do(e.click(dan, after, "accept"))
	if !strings.Contains(final.Text(), dan.Mention()+" accepted the marking. Both teams agree.") || !strings.Contains(final.Text(), "Result: B+1.5") || !strings.Contains(final.Text(), "⚫ "+ann.Mention()+", "+cid.Mention()+" win by 1.5 points") {
		t.Errorf("final = %q, want both teams agreeing, B+1.5 won by ann and cid", final.Text())
	}
	if strings.Contains(final.Text(), "1500 →") {
		t.Errorf("final = %q: a rengo game changed ratings", final.Text())
	}
	a, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	sgf := string(a.SGF)
	for _, want := range []string{`PB\[ann, cid\]PW\[bob, dan\]`, `;B\[ee\]BL\[\d+\]C\[Played by ann\.\];W\[fe\]WL\[\d+\]C\[Played by bob\.\];B\[ef\]BL\[\d+\]C\[Played by cid\.\];W\[ff\]WL\[\d+\]C\[Played by dan\.\];B\[eg\]BL\[\d+\]C\[Played by ann\.\]`, `RE\[B\+1\.5\]`} {
		if !regexp.MustCompile(want).MatchString(sgf) {
			t.Errorf("record lacks %s:\n%s", want, sgf)
		}
	}
	if _, err := e.store.Rating(context.Background(), "", ann.ID); err == nil {
		t.Error("ann has a rating after an unrated rengo game")
	}
}

// TestE2ERengoResignation: in a 2-vs-2 game a member of the team not to
// move proposes to resign; the vote is shown, a second vote by the same
// member is refused, and the team resigns when its other member agrees
// (a majority of two is two). Then the player to move resigns for the
// team at once in a second game.
func TestE2ERengoResignation(t *testing.T) { httpMode(t, testE2ERengoResignation) }

func testE2ERengoResignation(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	lobby := e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false))
	e.do(e.click(ann, lobby, "Start"))
	// The game's first board is posted after Start's answer: a move
	// before it shows would leave it the channel's newest message.
	e.waitBoard(ch.ID, "The game begins")
	e.do(e.play(ch, ann, "E5")) // White (bob) to move: Black votes
	board := e.board(ch.ID)
	if b, ok := board.Button("Undo"); ok {
		t.Errorf("the rengo board has an Undo button, which rengo refuses: %+v", b)
	}
	// The Resign button says what it does: a vote, or the team's
	// resignation by the player to move.
	ask := e.do(e.click(cid, board, "Resign"))
	if want := "Vote that ⚫ black resign? Yours would be vote 1 of the 2 needed (a majority of " + ann.Mention() + ", " + cid.Mention() + "); the player to move resigns alone."; !ask.Ephemeral || ask.Text() != want {
		t.Errorf("cid's Resign = %q, want privately %q", ask.Text(), want)
	}
	mustButton(t, ask, "Yes, vote to resign")
	if ask := e.do(e.click(bob, board, "Resign")); ask.Text() != "Resign this game for ⚪ white ("+bob.Mention()+", "+dan.Mention()+")? As the player to move, you resign for the team at once." {
		t.Errorf("bob's Resign = %q", ask.Text())
	}
	vote := e.do(e.slash(ch, cid, "resign"))
	if vote.Ephemeral || !strings.Contains(vote.Text(), "🏳️ "+cid.Mention()+" votes that ⚫ black resign: 1 of the 2 votes needed") {
		t.Fatalf("vote = %q", vote.Text())
	}
	e.refused(e.slash(ch, cid, "resign"), "You have already voted to resign: 1 of the 2 votes needed so far.")
	// The other team's vote does not drop this one (it did, unsaid).
	e.refused(e.slash(ch, dan, "resign"), "The other team is voting to resign (1 vote so far), which lapses with the next move: your team can vote to resign after that, or its player to move can resign for it at once.")
	e.refused(e.slash(ch, e.d.NewUser("eve"), "resign"), "You are not playing in this game: it is "+ann.Mention()+", "+cid.Mention()+" (black) against "+bob.Mention()+", "+dan.Mention()+" (white).")
	id := e.game(ch.ID).ID
	final := e.do(e.slash(ch, ann, "resign"))
	if !strings.Contains(final.Text(), "⚫ The team of "+ann.Mention()+", "+cid.Mention()+" resigned, by the votes of "+cid.Mention()+" and "+ann.Mention()+".") || !strings.Contains(final.Text(), "⚪ "+bob.Mention()+", "+dan.Mention()+" win by resignation · W+R") {
		t.Errorf("after the second vote = %q, want Black resigned by the votes of cid and ann, W+R", final.Text())
	}
	if a, err := e.store.ArchivedGame(context.Background(), id); err != nil || a.Result != "W+R" {
		t.Errorf("archived = %v, %v; want W+R", a, err)
	}
	// Every player finds it in their history, with their team, against the
	// whole other team: counted for each team's first player only.
	for _, who := range []struct {
		u    discordtest.User
		line string
	}{
		{ann, "⚫ lost with " + cid.Mention() + " vs " + bob.Mention() + ", " + dan.Mention() + " · 9×9 · W+R · unrated · "},
		{cid, "⚫ lost with " + ann.Mention() + " vs " + bob.Mention() + ", " + dan.Mention() + " · 9×9 · W+R · not counted · "},
		{dan, "⚪ won with " + bob.Mention() + " vs " + ann.Mention() + ", " + cid.Mention() + " · 9×9 · W+R · not counted · "},
	} {
		h := e.do(e.slash(ch, who.u, "history"))
		if !strings.Contains(h.Text(), who.line) || !strings.Contains(h.Text(), "`"+id+"`") {
			t.Errorf("%s's history = %q, want %q and the game's ID", who.u.Username, h.Text(), who.line)
		}
	}
	if m := e.do(e.slash(e.d.OtherGuildChannel("999999999999999999", "elsewhere"), cid, "sgf", discordtest.Str("game", id))); !strings.Contains(m.Text(), "Record of ⚫ ann, cid vs ⚪ bob, dan") || !strings.Contains(m.Text(), "W+R") {
		t.Errorf("cid's team game's record from another server: %q, want it with both teams", m.Text())
	}
	if m := e.do(e.slash(ch, dan, "stats")); m.Text() != dan.Mention()+" has no counted game of Go yet: 1 team game (the record counts each team's first player), which `/go history` lists." {
		t.Errorf("dan's /go stats = %q", m.Text())
	}
	if b := e.do(e.slash(ch, cid, "board")); !strings.Contains(b.Text(), "⚫ ann, cid vs ⚪ bob, dan") || !strings.Contains(b.Text(), "⚪ "+bob.Mention()+", "+dan.Mention()+" win by resignation") {
		t.Errorf("/go board after the team game = %q, want both teams, and White's winning", b.Text())
	}
	r := e.d.Do(e.d.Autocomplete(ch, cid, "go", discordtest.Sub("sgf", discordtest.Focused("game", ""))))
	if len(r.Choices) != 1 || r.Choices[0].Name != "vs @bob, @dan · 9×9 · W+R · just now" {
		t.Errorf("game: suggestions for cid = %+v, want the team game against bob and dan", r.Choices)
	}

	// A vote lapses with the next move; the player to move resigns alone.
	lobby = e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false))
	e.do(e.click(ann, lobby, "Start"))
	e.do(e.play(ch, ann, "E5"))
	e.do(e.slash(ch, dan, "resign")) // White's to move is bob: dan only votes
	e.do(e.play(ch, bob, "F5"))
	if g := e.game(ch.ID); g.ResignVote != nil {
		t.Errorf("a resignation vote outlived the next move: %+v", g.ResignVote)
	}
	e.do(e.play(ch, cid, "E4"))
	final = e.do(e.slash(ch, dan, "resign")) // dan is White's player to move
	if !strings.Contains(final.Text(), "⚪ The team of "+bob.Mention()+", "+dan.Mention()+" resigned: "+dan.Mention()+", the player to move, resigned for it.") || !strings.Contains(final.Text(), "B+R") {
		t.Errorf("the player to move resigning = %q, want White resigned by dan, B+R", final.Text())
	}
}

// TestE2ERengoMoverResignsDuringVote: a teammate's vote to resign is
// open when the player to move resigns for the team: the note names the
// player to move, who decided, not the voter, whose one vote of the two
// needed resigned nothing.
func TestE2ERengoMoverResignsDuringVote(t *testing.T) {
	httpMode(t, testE2ERengoMoverResignsDuringVote)
}

func testE2ERengoMoverResignsDuringVote(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5"))
	e.do(e.play(ch, bob, "F5")) // Black to move: cid
	e.do(e.slash(ch, ann, "resign"))
	final := e.do(e.slash(ch, cid, "resign"))
	if want := "⚫ The team of " + ann.Mention() + ", " + cid.Mention() + " resigned: " + cid.Mention() + ", the player to move, resigned for it."; !strings.Contains(final.Text(), want) || !strings.Contains(final.Text(), "W+R") {
		t.Errorf("final = %q, want %q and W+R", final.Text(), want)
	}
}

// TestE2ERengoCasualClock: with mode:casual each player has a clock of
// their own. cid runs out and is out of the game; Black's turns go to ann
// alone, on her own time, and a move cid sends too late is refused. When
// ann runs out too, nobody is left on Black and White wins on time.
func TestE2ERengoCasualClock(t *testing.T) { httpMode(t, testE2ERengoCasualClock) }

func testE2ERengoCasualClock(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	lobby := e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false), discordtest.Str("mode", "casual"), discordtest.Str("clock", "absolute 1m"))
	if !strings.Contains(lobby.Text(), "casual clock (a clock a player; who runs out of time is skipped)") {
		t.Errorf("lobby = %q, want it to name the casual clock", lobby.Text())
	}
	e.do(e.click(ann, lobby, "Start"))
	e.clock.Advance(10 * time.Second)
	e.do(e.play(ch, ann, "E5")) // ann: 50 s left
	e.do(e.play(ch, bob, "F5"))
	g := e.game(ch.ID)
	if got := g.Clock.Time(clock.First).Main; got != time.Minute {
		t.Errorf("Black's clock shows %v for cid, want his own full minute", got)
	}
	if got := g.Times[ann.ID].Main; got != 50*time.Second {
		t.Errorf("ann's own time aside = %v, want 50s", got)
	}
	// cid never moves: after his minute he is out, and ann plays on.
	e.clock.Advance(time.Minute)
	var out []discordtest.Message
	e.d.WaitFor("cid out of time", func() bool { out = e.publicWith(ch.ID, "is out of the game"); return len(out) > 0 })
	if want := cid.Mention() + " ran out of time"; !strings.Contains(out[0].Text(), want) || !strings.Contains(out[0].Text(), "⚫ "+ann.Mention()+" plays on for black") {
		t.Errorf("announcement = %q", out[0].Text())
	}
	// Told he is out, not that his turn has not come (it will not).
	e.refused(e.play(ch, cid, "E4"), "You are out of this game, so the rest of your team decides for it: "+ann.Mention()+".")
	e.refused(e.slash(ch, cid, "pass"), "You are out of this game, so the rest of your team decides for it: "+ann.Mention()+".")
	if got := e.game(ch.ID).Clock.Time(clock.First).Main; got != 50*time.Second {
		t.Errorf("Black's clock after cid is out = %v, want ann's 50s", got)
	}
	e.do(e.play(ch, ann, "E4"))
	e.do(e.play(ch, dan, "F4"))
	e.do(e.play(ch, ann, "E3")) // ann again: cid is skipped
	e.do(e.play(ch, bob, "F3"))
	id := e.game(ch.ID).ID
	e.clock.Advance(51 * time.Second)
	a := e.archived(ch.ID, id)
	if a.Result != "W+T" || a.Annulled {
		t.Errorf("archived %s (annulled %v), want W+T: Black has nobody left", a.Result, a.Annulled)
	}
	// The announcement names who ran out last: ann.
	e.d.WaitFor("the loss on time", func() bool { return len(e.publicWith(ch.ID, "⌛ ⚫ "+ann.Mention()+" ran out of time")) > 0 })
}

// TestE2EResignNamesTheResigner: in a game of two, the note names the
// player who resigned, not the last to move.
func TestE2EResignNamesTheResigner(t *testing.T) { httpMode(t, testE2EResignNamesTheResigner) }

func testE2EResignNamesTheResigner(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "D4"))
	e.do(e.play(ch, bob, "E5"))
	final := e.do(e.slash(ch, alice, "resign"))
	if !strings.Contains(final.Text(), "⚫ "+alice.Mention()+" resigned.") || !strings.Contains(final.Text(), "⚪ "+bob.Mention()+" wins by resignation · W+R") {
		t.Errorf("final = %q, want alice to have resigned and bob to win", final.Text())
	}
}

// TestE2ERengoAbort: in a team game an abort is decided as a resignation
// is: a player not to move only votes (asked first), and the game is
// aborted when a majority of the team agrees; the player to move aborts
// alone. Once each team has made two moves, the refusal says so.
func TestE2ERengoAbort(t *testing.T) { httpMode(t, testE2ERengoAbort) }

func testE2ERengoAbort(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	id, title := e.game(ch.ID).ID, "⚫ ann, cid vs ⚪ bob, dan"
	players := "⚫ " + ann.Mention() + ", " + cid.Mention() + " vs ⚪ " + bob.Mention() + ", " + dan.Mention()
	ask := e.do(e.slash(ch, cid, "abort"))
	if want := "Vote that ⚫ black abort the game " + title + "? Yours would be vote 1 of the 2 needed (a majority of " + ann.Mention() + ", " + cid.Mention() + "); the player to move aborts alone. An aborted game is recorded, with its record, and never rated."; !ask.Ephemeral || ask.Text() != want {
		t.Errorf("cid's /go abort = %q, want privately %q", ask.Text(), want)
	}
	vote := e.do(e.click(cid, ask, "Yes, vote to abort"))
	if want := "🚫 " + cid.Mention() + " votes that ⚫ black abort the game: 1 of the 2 votes needed (a majority of " + ann.Mention() + ", " + cid.Mention() + "). Teammates who agree: `/go abort`, before the next move."; vote.Ephemeral || vote.Text() != want {
		t.Errorf("cid's vote = %q, want %q", vote.Text(), want)
	}
	if e.game(ch.ID) == nil {
		t.Fatal("one vote of two aborted the team game")
	}
	e.refused(e.click(cid, ask, "Yes, vote to abort"), "You have already voted to abort: 1 of the 2 votes needed so far.")
	done := e.do(e.click(ann, e.do(e.slash(ch, ann, "abort")), "Yes, vote to abort"))
	if want := "🚫 ⚫ black (" + ann.Mention() + ", " + cid.Mention() + ") aborted the game " + players + " after 1 move, by the votes of " + cid.Mention() + " and " + ann.Mention() + ", before each team had made 2 moves: it is recorded as aborted (`/go sgf game:" + id + "`) and never rated."; done.Ephemeral || !strings.Contains(done.Text(), want) {
		t.Errorf("the second vote = %q, want %q", done.Text(), want)
	}
	if a := e.archived(ch.ID, id); a.Result != "Void" || !strings.Contains(string(a.SGF), "Aborted by the votes of cid and ann (⚫ black) before each team had made 2 moves") {
		t.Errorf("archived %s, record %s", a.Result, a.SGF)
	}

	// The player to move aborts alone, once asked.
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5"))
	ask = e.do(e.slash(ch, bob, "abort"))
	if !strings.HasPrefix(ask.Text(), "Abort the game "+title+"?") {
		t.Errorf("bob's /go abort = %q, want the question of a player who aborts alone", ask.Text())
	}
	if done := e.do(e.click(bob, ask, "Yes, abort")); !strings.HasPrefix(done.Text(), "🚫 "+bob.Mention()+" aborted the game "+players+" after 1 move, before each team had made 2 moves") {
		t.Errorf("bob's abort = %q", done.Text())
	}

	// Once each team has made two moves (each player one), it is too late,
	// and the refusal says so of the teams.
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5"))
	e.do(e.play(ch, bob, "C3"))
	e.do(e.play(ch, cid, "G7"))
	e.do(e.play(ch, dan, "C7")) // Black to move: ann
	tooLate := "Each team has made two moves, so the game can no longer be aborted: resign (`/go resign`) or play on; on a server, a moderator can still end a stuck game."
	e.refused(e.slash(ch, ann, "abort"), tooLate)
	e.refused(e.slash(ch, bob, "abort"), tooLate)
}

// TestE2ERengoBanned: a player banned on the server during a team game is
// refused, and their turns go to their teammates: the next one may play
// at once, and is called from then on. A team's last player is not
// skipped.
func TestE2ERengoBanned(t *testing.T) { httpMode(t, testE2ERengoBanned) }

func testE2ERengoBanned(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, admin := e.startedRengo(ch)
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "spam")))
	// bob, to move, is skipped at once: the board names dan.
	if m := e.board(ch.ID); !strings.Contains(m.Text(), "⛔ "+bob.Mention()+" is banned from gobot games on this server and out of this game: ⚪ "+dan.Mention()+" plays on for white.") || !strings.Contains(m.Text(), dan.Mention()+", your move.") {
		t.Errorf("the board after bob's ban = %q, want bob skipped and dan called", m.Text())
	}
	e.refused(e.play(ch, bob, "F5"), "You are banned from gobot games on this server until an admin lifts it. Reason: spam")
	e.do(e.play(ch, dan, "F5"))
	if m := e.do(e.play(ch, cid, "E4")); !strings.Contains(m.Text(), dan.Mention()+", your move.") {
		t.Errorf("after cid's move the board = %q, want it to call dan: bob is skipped", m.Text())
	}
	e.refused(e.slash(ch, bob, "resign"), "You are banned from gobot games on this server")
	e.do(e.play(ch, dan, "F4"))
	// dan is White's last player: banned too, he is not skipped.
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", dan), discordtest.Str("reason", "spam")))
	if m := e.do(e.play(ch, ann, "E3")); !strings.Contains(m.Text(), dan.Mention()+", your move.") {
		t.Errorf("with White's last player banned the board = %q, want it to call dan still", m.Text())
	}
}

// TestE2ERengoLobbyExpired: a button of a lobby that expired says so,
// before and after the sweep closes it, not that the game started.
func TestE2ERengoLobbyExpired(t *testing.T) { httpMode(t, testE2ERengoLobbyExpired) }

func testE2ERengoLobbyExpired(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid")
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false)))
	want := fmt.Sprintf("This rengo lobby expired <t:%d:R>: open a new one with `/go rengo`.", e.clock.Now().Add(commands.DefaultChallengeTTL).Unix())
	lobby = e.do(e.click(bob, lobby, "Join White"))
	e.clock.Advance(commands.DefaultChallengeTTL)
	e.refused(e.click(cid, lobby, "Join Black"), want)
	e.refused(e.click(ann, lobby, "Start"), want)
	e.restart() // the sweep closes it
	e.d.WaitFor("the expired lobby to close", func() bool {
		m, _ := e.d.Message(lobby.ID)
		b, ok := m.Button("Join Black")
		return ok && b.Disabled
	})
	for _, b := range []string{"Join Black", "Start", "Leave"} {
		e.refused(e.click(cid, lobby, b), want)
	}
}

// TestE2ERengoBotTeamAccepts: in a rengo game with a bot on a team, the
// count is accepted for that team by its people, which the scoring board
// says it waits for; the bot does not accept for the team.
func TestE2ERengoBotTeamAccepts(t *testing.T) { httpMode(t, testE2ERengoBotTeamAccepts) }

func testE2ERengoBotTeamAccepts(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid")
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false), discordtest.Str("bot", "tester")))
	lobby = e.do(e.click(bob, lobby, "Join White"))
	lobby = e.do(e.click(cid, lobby, "Join Black"))
	e.do(e.click(ann, lobby, "Start"))
	e.do(e.play(ch, ann, "E5")) // then gobot, White's first player
	e.do(e.slash(ch, cid, "pass"))
	scoring := e.do(e.slash(ch, bob, "pass"))
	want := "⚫ Black (" + ann.Mention() + ", " + cid.Mention() + "): ⏳ waiting for " + ann.Mention() + " or " + cid.Mention() + "\n⚪ White (gobot (tester), " + bob.Mention() + "): ⏳ waiting for " + bob.Mention()
	if !strings.Contains(scoring.Text(), want) {
		t.Errorf("scoring board = %q, want %q", scoring.Text(), want)
	}
	after := e.do(e.click(cid, scoring, "Accept"))
	if want := "⚫ Black (" + ann.Mention() + ", " + cid.Mention() + "): ✅ accepted\n⚪ White (gobot (tester), " + bob.Mention() + "): ⏳ waiting for " + bob.Mention(); !strings.Contains(after.Text(), want) {
		t.Errorf("after Black's accept the board = %q, want %q", after.Text(), want)
	}
	if final := e.do(e.click(bob, after, "Accept")); !strings.Contains(final.Text(), bob.Mention()+" accepted the marking. Both teams agree.") {
		t.Errorf("final = %q, want both teams agreeing", final.Text())
	}
}

// TestE2ERengoBannedScoring: a team player banned on the server during
// the scoring phase marks, accepts and resumes play no more than they
// move: each is refused with the ban, their team's acceptance given before
// it is withdrawn, and their teammates settle the count.
func TestE2ERengoBannedScoring(t *testing.T) { httpMode(t, testE2ERengoBannedScoring) }

func testE2ERengoBannedScoring(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	scoring, ann, _, cid, dan, admin := e.rengoAtCount(ch)
	e.do(e.click(cid, scoring, "Accept")) // for Black, before the ban
	ban := e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", cid), discordtest.Str("reason", "spam")))
	if want := "\nThe acceptance of the count by ⚫ black in <#" + ch.ID + "> is withdrawn, as they may have given it: " + ann.Mention() + " must accept again."; !strings.Contains(ban.Text(), want) {
		t.Errorf("ban = %q, want %q", ban.Text(), want)
	}
	const banned = "You are banned from gobot games on this server until an admin lifts it. Reason: spam"
	e.refused(e.slash(ch, cid, "dead", discordtest.Str("point", "E5")), banned)
	e.refused(e.click(cid, scoring, "Resume play"), banned)
	e.refused(e.click(cid, scoring, "Accept"), banned)
	if g := e.game(ch.ID); g.Scoring == nil || g.Scoring.Accepted[0] || len(g.Scoring.Dead) != 0 {
		t.Errorf("after the banned cid's refused actions the scoring phase = %+v, want it untouched", g.Scoring)
	}
	e.do(e.click(dan, scoring, "Accept"))
	if _, over := e.game(ch.ID).State.Result(); over {
		t.Fatal("White's Accept ended the game on the acceptance of the banned cid")
	}
	if m := e.do(e.click(ann, scoring, "Accept")); !strings.Contains(m.Text(), ann.Mention()+" accepted the marking. Both teams agree.") {
		t.Errorf("ann's Accept = %q, want it to end the count for Black", m.Text())
	}
}

// TestE2ERengoBannedAfterAccept: a player banned during the count, after
// their team accepted it, is out of the count: the channel is told that
// the team's acceptance is withdrawn, pinging the teammate who must
// accept again, and the board shown with it waits for that teammate
// alone. The other team's Accept then does not end the game; the
// teammate's does.
func TestE2ERengoBannedAfterAccept(t *testing.T) { httpMode(t, testE2ERengoBannedAfterAccept) }

func testE2ERengoBannedAfterAccept(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	scoring, ann, bob, _, dan, admin := e.rengoAtCount(ch)
	e.do(e.click(bob, scoring, "Accept")) // for White, before the ban
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "spam")))
	b := e.board(ch.ID)
	if want := "⛔ " + bob.Mention() + " is banned from gobot games on this server and out of this game: the acceptance of the count by ⚪ white is withdrawn, as they may have given it, and " + dan.Mention() + " must accept again."; b.Content != want || !slices.Equal(b.Pings, []string{dan.ID}) {
		t.Errorf("the channel after bob's ban = %q pinging %v, want %q pinging dan", b.Content, b.Pings, want)
	}
	if want := "⚪ White (" + bob.Mention() + ", " + dan.Mention() + "): ⏳ waiting for " + dan.Mention() + "\n"; !strings.Contains(b.Text(), want) {
		t.Errorf("the board after bob's ban = %q, want %q", b.Text(), want)
	}
	if m := e.do(e.click(ann, scoring, "Accept")); strings.Contains(m.Text(), "Both teams agree") {
		t.Fatalf("ann's Accept = %q, want the game to wait for dan", m.Text())
	}
	if m := e.do(e.click(dan, scoring, "Accept")); !strings.Contains(m.Text(), dan.Mention()+" accepted the marking. Both teams agree.") {
		t.Errorf("dan's Accept = %q, want it to end the count", m.Text())
	}
}

// TestE2ERengoBannedVotes: a player banned on the server during a team
// game cannot vote to abort or to resign, a ballot cast before the ban is
// dropped, and the majority is counted among the team's members not
// banned.
func TestE2ERengoBannedVotes(t *testing.T) { httpMode(t, testE2ERengoBannedVotes) }

func testE2ERengoBannedVotes(t *testing.T, e *env) {
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	const banned = "You are banned from gobot games on this server until an admin lifts it. Reason: spam"
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, eve, fay := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan"), e.d.NewUser("eve"), e.d.NewUser("fay")
	lobby := e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false))
	lobby = e.do(e.click(eve, lobby, "Join Black"))
	lobby = e.do(e.click(fay, lobby, "Join White"))
	e.do(e.click(ann, lobby, "Start"))
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	// cid votes to abort, then is banned: his ballot is dropped.
	e.do(e.click(cid, e.do(e.slash(ch, cid, "abort")), "Yes, vote to abort"))
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", cid), discordtest.Str("reason", "spam")))
	e.refused(e.slash(ch, cid, "abort"), banned)
	ask := e.do(e.slash(ch, eve, "abort"))
	if want := "Yours would be vote 1 of the 2 needed (a majority of " + ann.Mention() + ", " + eve.Mention() + ")"; !strings.Contains(ask.Text(), want) {
		t.Errorf("eve's /go abort = %q, want %q", ask.Text(), want)
	}
	vote := e.do(e.click(eve, ask, "Yes, vote to abort"))
	if want := "🚫 " + eve.Mention() + " votes that ⚫ black abort the game: 1 of the 2 votes needed (a majority of " + ann.Mention() + ", " + eve.Mention() + ")."; vote.Text() != want+" Teammates who agree: `/go abort`, before the next move." {
		t.Errorf("eve's vote = %q, want %q", vote.Text(), want)
	}
	if _, over := e.game(ch.ID).State.Result(); over {
		t.Fatal("eve's vote and the banned cid's aborted the game")
	}
	// Resigning likewise: the banned cid neither votes nor counts.
	e.refused(e.slash(ch, cid, "resign"), banned)
	if m := e.do(e.slash(ch, eve, "resign")); !strings.Contains(m.Text(), "1 of the 2 votes needed (a majority of "+ann.Mention()+", "+eve.Mention()+")") {
		t.Errorf("eve's resign vote = %q, want a majority of ann and eve", m.Text())
	}
}

// TestE2ERengoBannedBotTeam: when the only person of a team with a bot is
// banned while to move, the ban skips them at once and the bot plays on
// for the team; the banned player cannot abort.
func TestE2ERengoBannedBotTeam(t *testing.T) { httpMode(t, testE2ERengoBannedBotTeam) }

func testE2ERengoBannedBotTeam(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid")
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	// bot_team without a bot is refused, not ignored.
	e.refused(e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false), discordtest.Str("bot_team", "black")),
		"`bot_team` says which team gobot joins: add `bot:` with its level, as `/go rengo bot:hard bot_team:black`.")
	if n := len(e.d.Public(ch.ID)); n != 0 {
		t.Fatalf("the refused lobby posted %d messages", n)
	}
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false), discordtest.Str("bot", "tester"), discordtest.Str("bot_team", "black")))
	lobby = e.do(e.click(bob, lobby, "Join White"))
	lobby = e.do(e.click(cid, lobby, "Join White"))
	e.do(e.click(ann, lobby, "Start")) // ann, Black's only person, to move
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", ann), discordtest.Str("reason", "spam")))
	want := "⛔ " + ann.Mention() + " is banned from gobot games on this server and out of this game: ⚫ gobot (tester) plays on for black."
	if msgs := e.d.Public(ch.ID); !strings.Contains(msgs[len(msgs)-1].Text(), want) && !strings.Contains(msgs[len(msgs)-2].Text(), want) {
		t.Errorf("after the ban of ann, to move, the channel shows %q, want %q", msgs[len(msgs)-1].Text(), want)
	}
	e.waitBoard(ch.ID, bob.Mention()+", your move.")
	if g := e.game(ch.ID); g.State.MoveCount() != 1 {
		t.Errorf("after the skip the game has %d moves, want 1: the bot's", g.State.MoveCount())
	}
	e.refused(e.slash(ch, ann, "abort"), "You are banned from gobot games on this server until an admin lifts it. Reason: spam")
}

// TestE2ERengoBannedAfterResume: a banned player left to move when play
// is resumed (the ban came in the scoring phase, when nobody is skipped)
// is skipped by the other team's refused move, which saves the skip and
// shows the board naming who plays on.
func TestE2ERengoBannedAfterResume(t *testing.T) { httpMode(t, testE2ERengoBannedAfterResume) }

func testE2ERengoBannedAfterResume(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, admin := e.startedRengo(ch)
	e.do(e.play(ch, ann, "E5"))
	e.do(e.play(ch, bob, "F5"))
	e.do(e.slash(ch, cid, "pass"))
	scoring := e.do(e.slash(ch, dan, "pass"))
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", ann), discordtest.Str("reason", "spam")))
	e.do(e.click(bob, scoring, "Resume play")) // Black to move: ann
	m := e.do(e.play(ch, bob, "G5"))
	if want := "⛔ " + ann.Mention() + " is banned from gobot games on this server and out of this game: ⚫ " + cid.Mention() + " plays on for black."; m.Ephemeral || !strings.Contains(m.Text(), want) || !strings.Contains(m.Text(), cid.Mention()+", your move.") {
		t.Errorf("bob's move with the banned ann to move = %q, want publicly %q and cid called", m.Text(), want)
	}
	e.do(e.play(ch, cid, "G5"))
}

// TestE2ERengoAbortLapsed: a team member's "Yes, vote to abort" pressed
// after a move says that the vote lapsed, not that the button is from an
// old board.
func TestE2ERengoAbortLapsed(t *testing.T) { httpMode(t, testE2ERengoAbortLapsed) }

func testE2ERengoAbortLapsed(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	ask := e.do(e.slash(ch, cid, "abort"))
	e.do(e.play(ch, bob, "F5"))
	e.refused(e.click(cid, ask, "Yes, vote to abort"), "A move was played since: that vote lapsed. Use `/go abort` again to vote.")
}

// TestE2ERengoUnbanned: a player skipped in a team game for a ban on the
// server is back in it when the ban is lifted, which the unban says, and
// their turn comes again.
func TestE2ERengoUnbanned(t *testing.T) { httpMode(t, testE2ERengoUnbanned) }

func testE2ERengoUnbanned(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, admin := e.startedRengo(ch)
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "spam")))
	e.do(e.play(ch, dan, "F5")) // bob skipped
	m := e.do(e.adminCmd(ch, admin, "unban", discordtest.UserOpt("user", bob)))
	if want := "✅ " + bob.Mention() + " may play on this server again.\nThey are back in their team game in <#" + ch.ID + ">: their turns come again."; !strings.Contains(m.Text(), want) {
		t.Errorf("unban = %q, want %q", m.Text(), want)
	}
	if m := e.do(e.play(ch, cid, "E4")); !strings.Contains(m.Text(), bob.Mention()+", your move.") {
		t.Errorf("after the unban the board = %q, want it to call bob, back in the game", m.Text())
	}
	e.do(e.play(ch, bob, "F4"))
}

// TestE2ERengoOutOfTimeScoring: a player out of time with a casual clock
// decides nothing more for the team: their Accept, /go dead and Resume
// play in the scoring phase are refused as their resignation is, and so
// are their Resign button and /go abort, without asking them to confirm
// first; the team's Accept is left to the player still in the game.
func TestE2ERengoOutOfTimeScoring(t *testing.T) { httpMode(t, testE2ERengoOutOfTimeScoring) }

func testE2ERengoOutOfTimeScoring(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	lobby := e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false), discordtest.Str("mode", "casual"), discordtest.Str("clock", "absolute 1m"))
	e.do(e.click(ann, lobby, "Start"))
	e.do(e.play(ch, ann, "E5"))
	e.do(e.play(ch, bob, "F5"))
	e.clock.Advance(time.Minute) // cid never moves: he is out, ann plays on
	e.d.WaitFor("cid out of time", func() bool { return len(e.publicWith(ch.ID, "is out of the game")) > 0 })
	out := "You are out of this game, so the rest of your team decides for it: " + ann.Mention() + "."
	e.refused(e.click(cid, e.board(ch.ID), "Resign"), out)
	e.refused(e.slash(ch, cid, "abort"), out)
	e.do(e.slash(ch, ann, "pass"))
	scoring := e.do(e.slash(ch, dan, "pass"))
	if want := "⚫ Black (" + ann.Mention() + ", " + cid.Mention() + "): ⏳ waiting for " + ann.Mention(); !strings.Contains(scoring.Text(), want) {
		t.Fatalf("the scoring board = %q, want %q", scoring.Text(), want)
	}
	e.refused(e.click(cid, scoring, "Accept"), out)
	e.refused(e.slash(ch, cid, "dead", discordtest.Str("point", "E5")), out)
	e.refused(e.click(cid, scoring, "Resume play"), out)
	if g := e.game(ch.ID); g.Scoring == nil || g.Scoring.Accepted[0] || len(g.Scoring.Dead) != 0 {
		t.Errorf("after cid's refused actions the scoring phase = %+v, want it untouched", g.Scoring)
	}
	e.do(e.click(dan, scoring, "Accept"))
	if m := e.do(e.click(ann, scoring, "Accept")); !strings.Contains(m.Text(), ann.Mention()+" accepted the marking. Both teams agree.") {
		t.Errorf("ann's Accept = %q, want it to end the count for Black", m.Text())
	}
}

// TestE2ERengoBannedLastPlayer: when the last player of a team is banned
// too, they are not skipped and play on as a banned player does in a game
// of two: they move, pass, answer the count, resume play and resign for
// the team; the teammate skipped before them stays refused.
func TestE2ERengoBannedLastPlayer(t *testing.T) { httpMode(t, testE2ERengoBannedLastPlayer) }

func testE2ERengoBannedLastPlayer(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, admin := e.startedRengo(ch)
	for _, m := range []struct {
		u    discordtest.User
		move string
	}{{ann, "E5"}, {bob, "F5"}, {cid, "E4"}, {dan, "F4"}} {
		e.do(e.play(ch, m.u, m.move))
	}
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", ann), discordtest.Str("reason", "a")))
	if want := "⛔ " + ann.Mention() + " is banned from gobot games on this server and out of this game: ⚫ " + cid.Mention() + " plays on for black."; !strings.Contains(e.board(ch.ID).Text(), want) {
		t.Errorf("the board after ann's ban = %q, want %q", e.board(ch.ID).Text(), want)
	}
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", cid), discordtest.Str("reason", "c")))
	e.refused(e.play(ch, ann, "E3"), "You are banned from gobot games on this server until an admin lifts it. Reason: a")
	if m := e.do(e.play(ch, cid, "E3")); m.Ephemeral || !strings.Contains(m.Text(), bob.Mention()+", your move.") {
		t.Errorf("the move of cid, Black's last player, banned = %q, want it played and bob called", m.Text())
	}
	e.do(e.slash(ch, bob, "pass"))
	scoring := e.do(e.slash(ch, cid, "pass"))
	if m := e.do(e.click(cid, scoring, "Accept")); m.Ephemeral || !strings.Contains(m.Text(), cid.Mention()+" accepted the marking.") || !strings.Contains(m.Text(), "⚫ Black ("+ann.Mention()+", "+cid.Mention()+"): ✅ accepted") {
		t.Errorf("cid's Accept = %q, want it to count for Black", m.Text())
	}
	e.refused(e.click(ann, scoring, "Resume play"), "You are banned from gobot games on this server until an admin lifts it. Reason: a")
	if m := e.do(e.click(cid, scoring, "Resume play")); m.Ephemeral || !strings.Contains(m.Text(), cid.Mention()+" resumed play") {
		t.Errorf("cid's Resume play = %q, want play resumed", m.Text())
	}
	e.do(e.play(ch, dan, "F3"))
	final := e.do(e.slash(ch, cid, "resign"))
	if want := "⚫ The team of " + ann.Mention() + ", " + cid.Mention() + " resigned: " + cid.Mention() + ", the player to move, resigned for it."; !strings.Contains(final.Text(), want) || !strings.Contains(final.Text(), "W+R") {
		t.Errorf("cid's resignation = %q, want %q and W+R", final.Text(), want)
	}

	// The ban of a team's last player keeps the acceptance of the count
	// they may have given: they would only give it again.
	e.do(e.adminCmd(ch, admin, "unban", discordtest.UserOpt("user", ann)))
	e.do(e.adminCmd(ch, admin, "unban", discordtest.UserOpt("user", cid)))
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5"))
	e.do(e.slash(ch, bob, "pass"))
	scoring = e.do(e.slash(ch, cid, "pass"))
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", ann), discordtest.Str("reason", "a")))
	e.do(e.click(cid, scoring, "Accept"))
	if ban := e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", cid), discordtest.Str("reason", "c"))); strings.Contains(ban.Text(), "withdrawn") {
		t.Errorf("the ban of Black's last player = %q, want Black's acceptance kept", ban.Text())
	}
	if g := e.game(ch.ID); g.Scoring == nil || !g.Scoring.Accepted[0] {
		t.Errorf("after the ban of Black's last player the scoring phase = %+v, want Black's acceptance kept", g.Scoring)
	}
}

// TestE2ERengoLobbyChannelTaken: a lobby opened with thread:false holds
// its channel no more than a challenge does, so another game may start
// there while the teams fill. Its Start then says that the lobby waits for
// that game, or can be opened again in a thread, naming /go rengo (not
// /go challenge), and starts once that game is over; /go rengo
// thread:false in the busy channel names /go rengo too.
func TestE2ERengoLobbyChannelTaken(t *testing.T) { httpMode(t, testE2ERengoLobbyChannelTaken) }

func testE2ERengoLobbyChannelTaken(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan, eve := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan"), e.d.NewUser("eve")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator
	lobby := e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false))
	if m := e.do(e.slash(ch, eve, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"))); m.Ephemeral {
		t.Fatalf("eve's /go vote beside the open lobby = %q, want the vote game started: a lobby holds no channel", m.Text())
	}
	c, err := e.store.Challenge(context.Background(), lobby.InteractionID)
	if err != nil {
		t.Fatalf("the lobby is gone: %v", err)
	}
	expires := c.ExpiresAt.Unix()
	e.refused(e.click(ann, lobby, "Start"), fmt.Sprintf("A game is already running in this channel, so this rengo game cannot start yet: press **Start** once that game is over (the lobby expires <t:%d:R>), or open it again in a thread with `/go rengo ... thread:true`.", expires))
	e.refused(e.slash(ch, eve, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false)), "A game is already running in this channel. Finish it first, or open the rengo game in a thread of its own: `/go rengo ... thread:true` (the default).")
	e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "make room")))
	if m := e.do(e.click(ann, lobby, "Start")); !strings.Contains(m.Text(), "✅ Started: ⚫ "+ann.Mention()+", "+cid.Mention()+" against ⚪ "+bob.Mention()+", "+dan.Mention()+".") {
		t.Errorf("Start once the vote game is over = %q, want the rengo game started", m.Text())
	}
}

// rengoAtCount starts the rengo game of startedRengo in ch and plays it
// to its count (ann's E5, bob's and cid's passes): it returns the scoring
// board and the players.
func (e *env) rengoAtCount(ch *discordtest.Channel) (scoring discordtest.Message, ann, bob, cid, dan, admin discordtest.User) {
	e.t.Helper()
	ann, bob, cid, dan, admin = e.startedRengo(ch)
	e.do(e.play(ch, ann, "E5"))
	e.do(e.slash(ch, bob, "pass"))
	return e.do(e.slash(ch, cid, "pass")), ann, bob, cid, dan, admin
}

// startedRengo starts a 2 v 2 rengo game in ch, in no thread: ann and cid
// play Black, bob and dan White, ann to play first; admin is an admin of
// the server.
func (e *env) startedRengo(ch *discordtest.Channel) (ann, bob, cid, dan, admin discordtest.User) {
	e.t.Helper()
	ann, bob, cid, dan = e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	admin = e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	return ann, bob, cid, dan, admin
}

// TestE2ERengoLobbyConcurrentJoins: players who press Join at the same
// moment each get their seat, and the lobby's message ends showing the
// teams as stored, however the answers to the clicks reach Discord; a
// Start pressed as a player leaves either starts the game with the teams
// its message then names, or is refused and leaves the lobby showing the
// teams as stored. (Each click used to answer with its own view of the
// teams, and the last answer to arrive stayed: the lobby listed two of six
// joiners, and Start seated players it never showed.)
func TestE2ERengoLobbyConcurrentJoins(t *testing.T) { bothModes(t, testE2ERengoLobbyConcurrentJoins) }

func testE2ERengoLobbyConcurrentJoins(t *testing.T, e *env) {
	ann := e.d.NewUser("ann")
	var joiners []discordtest.User
	for i := range 7 {
		joiners = append(joiners, e.d.NewUser(fmt.Sprintf("p%d", i)))
	}
	for round := range 4 {
		ch := e.d.GuildChannel(fmt.Sprintf("lobby%d", round))
		it := e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false))
		lobby := e.newChallenge(it)
		// Three join Black (with ann, four) and four White, all at once.
		var wg sync.WaitGroup
		for i, u := range joiners {
			label := "Join White"
			if i%2 == 1 {
				label = "Join Black"
			}
			click := e.click(u, lobby, label)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r, err := e.d.Send(click); err != nil {
					t.Errorf("%s's %s: %v", u.Username, label, err)
				} else if r.Message != nil && r.Message.Ephemeral {
					t.Errorf("%s's %s was refused: %q", u.Username, label, r.Message.Text())
				}
			}()
		}
		wg.Wait()
		c, err := e.store.Challenge(context.Background(), it.ID)
		if err != nil {
			t.Fatalf("round %d: the lobby after the joins: %v", round, err)
		}
		if n := len(c.Teams[0].Players) + len(c.Teams[1].Players); n != 8 {
			t.Errorf("round %d: %d players seated, want 8", round, n)
		}
		e.lobbyShows(lobby.ID, lobbyTeams(c.Teams[0].Players, c.Teams[1].Players))

		// A Black player leaves as ann presses Start.
		leaver := joiners[1]
		start, leave := e.click(ann, lobby, "Start"), e.click(leaver, lobby, "Leave")
		wg.Add(2)
		for _, click := range []*discordtest.Interaction{start, leave} {
			go func() {
				defer wg.Done()
				if _, err := e.d.Send(click); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			}()
		}
		wg.Wait()
		if g := e.game(ch.ID); g != nil {
			black, white := g.Sides[0].Players, g.Sides[1].Players
			e.lobbyShows(lobby.ID, fmt.Sprintf("✅ Started: ⚫ %s against ⚪ %s.", mentions(black), mentions(white)))
			continue
		}
		c, err = e.store.Challenge(context.Background(), it.ID)
		if err != nil {
			t.Fatalf("round %d: no game and no lobby after Start and Leave: %v", round, err)
		}
		e.lobbyShows(lobby.ID, lobbyTeams(c.Teams[0].Players, c.Teams[1].Players))
	}
}

// lobbyTeams is how a rengo lobby lists these teams.
func lobbyTeams(black, white []storage.Player) string {
	return fmt.Sprintf("⚫ **Black** (%d/4): %s\n⚪ **White** (%d/4): %s\n", len(black), mentions(black), len(white), mentions(white))
}

// mentions are the players' mentions, as a lobby lists them.
func mentions(ps []storage.Player) string {
	var s []string
	for _, p := range ps {
		s = append(s, "<@"+p.UserID+">")
	}
	if len(s) == 0 {
		return "nobody yet"
	}
	return strings.Join(s, ", ")
}

// lobbyShows waits for the message id to say want, and fails when it
// does not within ten seconds (a lobby left stale never will).
func (e *env) lobbyShows(id, want string) {
	e.t.Helper()
	giveUp := time.Now().Add(10 * time.Second)
	for {
		m, _ := e.d.Message(id)
		if strings.Contains(m.Text(), want) {
			return
		}
		if time.Now().After(giveUp) {
			e.t.Errorf("the lobby shows %q, want it to say %q", m.Text(), want)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// teamVoteHook is the store with hook run once, once armed, before a
// team vote's message is recorded (AddTeamVoteMessage): after the vote
// was written and announced.
type teamVoteHook struct {
	commands.Store
	armed atomic.Bool
	hook  func()
}

func (h *teamVoteHook) AddTeamVoteMessage(ctx context.Context, channelID, gameID string, abort bool, v storage.ResignVote, messageID string) error {
	if h.armed.CompareAndSwap(true, false) {
		h.hook()
	}
	return h.Store.AddTeamVoteMessage(ctx, channelID, gameID, abort, v, messageID)
}

// TestE2ERengoVotesLapse: a team's votes to resign and to abort lapse with
// the next move, and their messages say so, naming who played, instead of
// still asking teammates to agree; so does the message of a vote that
// lapsed before gobot recorded it (a move played as it was posted). (They
// stayed as they were, the vote seemingly open.)
func TestE2ERengoVotesLapse(t *testing.T) { onBothStores(t, testE2ERengoVotesLapse) }

func testE2ERengoVotesLapse(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	hook := &teamVoteHook{}
	e.wrapStore = func(s commands.Store) commands.Store {
		hook.Store = s
		return hook
	}
	e.restart()
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5")) // White to move: bob
	resign := e.do(e.slash(ch, dan, "resign"))
	abort := e.do(e.click(cid, e.do(e.slash(ch, cid, "abort")), "Yes, vote to abort"))
	if !strings.HasPrefix(resign.Text(), "🏳️ "+dan.Mention()+" votes that ⚪ white resign") || !strings.HasPrefix(abort.Text(), "🚫 "+cid.Mention()+" votes that ⚫ black abort the game") {
		t.Fatalf("the votes = %q and %q", resign.Text(), abort.Text())
	}
	// Neither team's vote drops the other's (each did, unsaid).
	e.refused(e.slash(ch, cid, "resign"), "The other team is voting to resign (1 vote so far), which lapses with the next move: your team can vote to resign after that, or its player to move can resign for it at once.")
	e.refused(e.click(dan, e.do(e.slash(ch, dan, "abort")), "Yes, vote to abort"), "The other team is voting to abort (1 vote so far), which lapses with the next move: your team can vote to abort after that, or its player to move can abort for it at once.")
	if g := e.game(ch.ID); g.ResignVote == nil || !slices.Equal(g.ResignVote.Voters, []string{dan.ID}) || g.AbortVote == nil || !slices.Equal(g.AbortVote.Voters, []string{cid.ID}) {
		t.Errorf("the open votes after the other teams' tries: resign %+v, abort %+v; want dan's and cid's", g.ResignVote, g.AbortVote)
	}
	e.do(e.play(ch, bob, "F5"))
	// Each message is recorded after its answer: a move may come first,
	// and the vote's message then says it lapsed a moment later.
	says := e.voteLapsed
	says(resign, "⌛ The vote that ⚪ white resign lapsed: "+bob.Mention()+" played.")
	says(abort, "⌛ The vote that ⚫ black abort the game lapsed: "+bob.Mention()+" played.")

	// cid's move is made as ann's vote is announced, before it is
	// recorded: the vote, read again, lapsed.
	moved := make(chan struct{})
	hook.hook = func() {
		defer close(moved)
		e.do(e.play(ch, cid, "E4"))
	}
	hook.armed.Store(true)
	late := e.do(e.slash(ch, ann, "resign")) // the answer is sent before its message is recorded
	select {
	case <-moved:
	case <-time.After(30 * time.Second):
		t.Fatal("ann's vote recorded no message")
	}
	says(late, "⌛ The vote that ⚫ black resign lapsed: "+cid.Mention()+" played.")

	// A vote cast on the board page is posted after its action: its
	// message is recorded then, and the next move says it lapsed.
	ctx := context.Background()
	v, err := e.app.View(ctx, ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res := e.app.Act(ctx, ch.ID, commands.WebUser{ID: bob.ID, Name: "bob"}, commands.Action{Kind: commands.ActResign, Game: v.ID, Version: v.Version, Moves: v.Moves, Seat: "white"}); res.Refused {
		t.Fatalf("bob's vote to resign on the page = %+v", res)
	}
	var page discordtest.Message
	e.d.WaitFor("the page's vote, posted and recorded", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if strings.HasPrefix(m.Text(), "🏳️ "+bob.Mention()+" votes that ⚪ white resign") {
				page = m
			}
		}
		g := e.game(ch.ID)
		return page.ID != "" && g.ResignVote != nil && slices.Contains(g.ResignVote.Messages, page.ID)
	})
	e.do(e.play(ch, dan, "F4"))
	says(page, "⌛ The vote that ⚪ white resign lapsed: "+dan.Mention()+" played.")
}

// TestE2ERengoVotesLapseAtTheEnd: a team's open votes lapse with the game
// however it ends, and their messages say so: on a loss on time, an
// abort and an admin's annulment. The vote that ended the game (a team
// aborting by its votes) keeps its messages as they were. (Only a move
// lapsed them: a game ended any other way left them asking teammates to
// agree.)
func TestE2ERengoVotesLapseAtTheEnd(t *testing.T) { onBothStores(t, testE2ERengoVotesLapseAtTheEnd) }

func testE2ERengoVotesLapseAtTheEnd(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	says := e.voteLapsed
	votes := func() (resign, abort discordtest.Message) {
		t.Helper()
		e.do(e.play(ch, ann, "E5")) // White to move: bob
		resign = e.do(e.slash(ch, dan, "resign"))
		abort = e.do(e.click(cid, e.do(e.slash(ch, cid, "abort")), "Yes, vote to abort"))
		if !strings.HasPrefix(resign.Text(), "🏳️ "+dan.Mention()+" votes that ⚪ white resign") || !strings.HasPrefix(abort.Text(), "🚫 "+cid.Mention()+" votes that ⚫ black abort the game") {
			t.Fatalf("the votes = %q and %q", resign.Text(), abort.Text())
		}
		// Each message is recorded after its answer.
		e.d.WaitFor("both votes' messages recorded", func() bool {
			g := e.game(ch.ID)
			return g.ResignVote != nil && g.AbortVote != nil && slices.Contains(g.ResignVote.Messages, resign.ID) && slices.Contains(g.AbortVote.Messages, abort.ID)
		})
		return resign, abort
	}

	// White runs out of time with both votes open.
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false), discordtest.Str("clock", "absolute 1m")), "Start"))
	resign, abort := votes()
	id := e.game(ch.ID).ID
	e.clock.Advance(61 * time.Second)
	if a := e.archived(ch.ID, id); a.Result != "B+T" {
		t.Fatalf("archived %s, want B+T", a.Result)
	}
	says(resign, "⌛ The vote that ⚪ white resign lapsed: the game ended.")
	says(abort, "⌛ The vote that ⚫ black abort the game lapsed: the game ended.")

	// Black aborts by its votes: White's vote to resign lapses, Black's
	// vote to abort carried the day and stays.
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	resign, abort = votes()
	e.do(e.click(ann, e.do(e.slash(ch, ann, "abort")), "Yes, vote to abort"))
	says(resign, "⌛ The vote that ⚪ white resign lapsed: the game was aborted.")
	if got, _ := e.d.Message(abort.ID); got.Text() != abort.Text() {
		t.Errorf("the vote that aborted the game now says %q, want it as it was, %q", got.Text(), abort.Text())
	}

	// An admin annuls a game with both votes open.
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	resign, abort = votes()
	id = e.game(ch.ID).ID
	e.do(e.adminCmd(ch, admin, "adjudicate", discordtest.Str("game", id), discordtest.Str("result", "annul"), discordtest.Str("reason", "test")))
	says(resign, "⌛ The vote that ⚪ white resign lapsed: an admin annulled the game.")
	says(abort, "⌛ The vote that ⚫ black abort the game lapsed: an admin annulled the game.")
}

// voteLapsed waits until team vote message m says that the vote lapsed
// (it is recorded after its answer, so a move may come first and the
// message say so a moment later), and checks that it says want.
func (e *env) voteLapsed(m discordtest.Message, want string) {
	e.t.Helper()
	e.d.WaitFor("the vote's message to say it lapsed", func() bool {
		got, _ := e.d.Message(m.ID)
		return strings.HasPrefix(got.Text(), "⌛")
	})
	if got, _ := e.d.Message(m.ID); got.Text() != want {
		e.t.Errorf("the vote's message = %q, want %q", got.Text(), want)
	}
}

// TestE2ERengoNoClock: a rengo lobby without a clock does not describe a
// clock mode ("no clock; strict clock (one clock a team)").
func TestE2ERengoNoClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann := e.d.NewUser("ann")
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9), discordtest.Str("clock", "none")))
	if first, _, _ := strings.Cut(lobby.Text(), "\n"); !strings.HasSuffix(first, ", no clock; unrated.") || strings.Contains(first, "strict") {
		t.Errorf("the lobby without a clock reads %q", first)
	}
}

// TestE2ERengoAnnulledOnTime: a strict-clock rengo game lost on time
// before the team made two moves is annulled, and the message says it
// goes by the team's moves (it said "They had not made two moves of
// their own", of the player who ran out).
func TestE2ERengoAnnulledOnTime(t *testing.T) { httpMode(t, testE2ERengoAnnulledOnTime) }

func testE2ERengoAnnulledOnTime(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob, cid, dan := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false), discordtest.Str("clock", "simple 30s")), "Start"))
	e.do(e.play(ch, ann, "E5"))
	id := e.game(ch.ID).ID
	e.clock.Advance(31 * time.Second) // bob, White's first, never moves
	if a := e.archived(ch.ID, id); !a.Annulled {
		t.Errorf("archived %s, not annulled: White had made no move", a.Result)
	}
	want := "Their team had not made two moves, so the game against ⚫ " + ann.Mention() + " and " + cid.Mention() + " is annulled: it is recorded, but it does not count."
	e.d.WaitFor("the annulment", func() bool { return len(e.publicWith(ch.ID, want)) > 0 })
}
