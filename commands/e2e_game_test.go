package commands_test

// Scenarios of a game between two people: a whole game, undo, handicap,
// threads, private channels and a second game in the same channel. The harness is in
// e2e_harness_test.go.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

// TestE2EFullGame plays a 9×9 game between two people from the challenge
// to the result, with captures, a ko, and every kind of refused input.
func TestE2EFullGame(t *testing.T) { bothModes(t, testE2EFullGame) }

func testE2EFullGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("go-club")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	first := e.challenge(ch, alice, bob)
	if !strings.Contains(first.Content, alice.Mention()) {
		t.Errorf("first board content %q does not ask %s to move", first.Content, alice.Mention())
	}
	if png, _ := first.PNG(); png.Description == "" {
		t.Errorf("board picture has no alt text")
	}

	type step struct {
		who  discordtest.User
		move string
		want string // refusal message; "" when the move is legal
	}
	steps := []step{
		{alice, "D6", ""},
		{bob, "E6", ""},
		{bob, "E7", "not your turn"},
		{carol, "E7", "not playing"},
		{alice, "Z99", "valid points are A1–J9"},
		{alice, "I5", "skip the letter I"},
		{alice, "K1", "A1–J9"},
		{alice, "D6", "already"},
		{alice, "nonsense", "A1–J9"},
		{alice, "C5", ""},
		{bob, "F5", ""},
		{alice, "D4", ""},
		{bob, "E4", ""},
		{alice, "J9", ""},
		{bob, "A2", ""},
		{alice, "J8", ""},
		{bob, "B1", ""},
		{alice, "J7", ""},
		{bob, "D5", ""},   // into Black's mouth: atari
		{alice, "E5", ""}, // captures D5: ko
		{bob, "D5", "ko"},
		{bob, "H1", ""}, // a ko threat elsewhere
		{alice, "A1", "suicide"},
		{alice, "J6", ""},
		{bob, "D5", ""}, // retakes the ko, capturing E5
	}
	moves := 0
	for i, s := range steps {
		it := e.play(ch, s.who, s.move)
		if s.want != "" {
			t.Run(fmt.Sprintf("%d %s %s refused", i, s.who.Username, s.move), func(t *testing.T) { e.refused(it, s.want) })
			continue
		}
		m := e.do(it)
		moves++
		if m.Ephemeral {
			t.Fatalf("step %d: %s %s refused: %q", i, s.who.Username, s.move, m.Text())
		}
		g := e.game(ch.ID)
		if g.State.MoveCount() != moves {
			t.Fatalf("step %d: %d moves stored, want %d", i, g.State.MoveCount(), moves)
		}
		if _, ok := m.PNG(); !ok {
			t.Errorf("step %d: the answer to %s has no board picture", i, s.move)
		}
		if !strings.Contains(m.Text(), s.move) {
			t.Errorf("step %d: the answer does not name the move %s: %q", i, s.move, m.Text())
		}
	}

	g := e.game(ch.ID)
	if got := goOf(g).Captures(engine.Black); got != 1 {
		t.Errorf("black captured %d, want 1 (D5)", got)
	}
	if got := goOf(g).Captures(engine.White); got != 1 {
		t.Errorf("white captured %d, want 1 (E5 retaking the ko)", got)
	}
	for p, want := range map[string]engine.Color{"D5": engine.White, "E5": engine.Empty, "A1": engine.Empty, "H1": engine.White} {
		if got := at(g, p); got != want {
			t.Errorf("%s holds %v, want %v", p, got, want)
		}
	}

	// The buttons of the first board are stale now.
	e.refused(e.click(alice, first, "pass"), "old board")

	// Alice passes by command, Bob with the button of the newest board.
	latest := e.board(ch.ID)
	e.refused(e.click(bob, latest, "pass"), "not your turn")
	if m := e.do(e.slash(ch, alice, "pass")); m.Ephemeral {
		t.Fatalf("alice's pass refused: %q", m.Text())
	}
	latest = e.board(ch.ID)
	e.refused(e.click(carol, latest, "pass"), "not playing")
	scoring := e.do(e.click(bob, latest, "pass"))
	if scoring.Ephemeral {
		t.Fatalf("bob's pass refused: %q", scoring.Text())
	}
	g = e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("after two passes the game is not in the scoring phase")
	}
	if _, ok := scoring.Button("accept"); !ok {
		t.Fatalf("scoring message %q has no Accept button", scoring.Text())
	}
	e.refused(e.click(carol, scoring, "accept"), "not playing")
	e.refused(e.play(ch, alice, "G3"), "dead stones")

	after := e.do(e.click(alice, scoring, "accept"))
	if after.Ephemeral {
		t.Fatalf("alice's accept refused: %q", after.Text())
	}
	e.refused(e.click(alice, after, "accept"), "already accepted")
	final := e.do(e.click(bob, after, "accept"))
	if !strings.Contains(strings.ToLower(final.Text()), "game over") {
		t.Errorf("final message = %q, want the result", final.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the finished game is still active")
	}
	a, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatalf("ArchivedGame: %v", err)
	}
	if !strings.HasPrefix(a.Result, "B+") && !strings.HasPrefix(a.Result, "W+") {
		t.Errorf("archived result %q, want B+… or W+…", a.Result)
	}
	if final.Text() == "" || !strings.Contains(final.Text(), a.Result) {
		t.Logf("final message %q does not quote the result %q", final.Text(), a.Result)
	}
	e.refused(e.play(ch, alice, "G3"), fmt.Sprintf("Your game here ended <t:%d:R>: %s. `/go board` shows it.", a.FinishedAt.Unix(), a.Result))
	// The final board offers nothing to press but a rematch: the game's
	// buttons are gone or disabled, and the scoring message's buttons no
	// longer act.
	final, _ = e.d.Message(final.ID)
	for _, b := range final.Buttons() {
		if !b.Disabled && b.CustomID != "rematch/"+a.ID {
			t.Errorf("the final board still offers %q (%s)", b.Label, b.CustomID)
		}
	}
	e.refused(e.d.Click(bob, scoring, mustButton(t, scoring, "accept").CustomID), "ended")
}

func mustButton(t *testing.T, m discordtest.Message, label string) discordtest.Component {
	t.Helper()
	b, ok := m.Button(label)
	if !ok {
		t.Fatalf("no %q button on %q", label, m.Text())
	}
	return b
}

func TestE2EUndo(t *testing.T) { bothModes(t, testE2EUndo) }

func testE2EUndo(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.challenge(ch, alice, bob)

	e.refused(e.slash(ch, alice, "undo"), "nothing to undo")
	e.do(e.play(ch, alice, "C3"))
	e.do(e.play(ch, bob, "G7"))
	e.do(e.play(ch, alice, "E5"))

	ask := e.do(e.slash(ch, alice, "undo"))
	if _, ok := ask.Button("allow"); !ok {
		t.Fatalf("undo request %q has no Allow button", ask.Text())
	}
	e.refused(e.click(carol, ask, "allow"), "not playing")
	e.refused(e.click(alice, ask, "allow"), "only "+bob.Mention())
	e.do(e.click(bob, ask, "allow"))
	e.waitBoard(ch.ID, "took back")
	g := e.game(ch.ID)
	if g.State.MoveCount() != 2 || at(g, "E5") != engine.Empty || goOf(g).ToPlay() != engine.Black {
		t.Errorf("after undo: %d moves, E5 %v, %v to play; want 2, empty, black", g.State.MoveCount(), at(g, "E5"), goOf(g).ToPlay())
	}
	e.refused(e.d.Click(bob, ask, mustButton(t, ask, "allow").CustomID), "This undo request is no longer open")

	// A refused undo changes nothing.
	e.do(e.play(ch, alice, "F5"))
	ask = e.do(e.slash(ch, alice, "undo"))
	e.do(e.click(bob, ask, "refuse"))
	if g := e.game(ch.ID); g.State.MoveCount() != 3 || at(g, "F5") != engine.Black {
		t.Errorf("a refused undo took the move back")
	}
}

// TestE2EHandicap: a handicap game starts with the stones on the board and
// White to move.
func TestE2EHandicap(t *testing.T) { httpMode(t, testE2EHandicap) }

func testE2EHandicap(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame(discordtest.Int("handicap", 2))
	g := e.game(ch.ID)
	if goOf(g).Handicap() != 2 || goOf(g).ToPlay() != engine.White {
		t.Fatalf("handicap %d, %v to play; want 2 and white", goOf(g).Handicap(), goOf(g).ToPlay())
	}
	e.refused(e.play(ch, alice, "E5"), "not your turn")
	if m := e.do(e.play(ch, bob, "E5")); m.Ephemeral {
		t.Errorf("white's first move refused: %q", m.Text())
	}
}

func TestE2EThread(t *testing.T) { httpMode(t, testE2EThread) }

func testE2EThread(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Bool("thread", true)))
	e.do(e.click(bob, msg, "accept"))
	var threads []*discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		threads = e.d.Threads(ch.ID)
		return len(threads) == 1 && e.game(threads[0].ID) != nil
	})
	th := threads[0]
	e.d.WaitFor("the board in the thread", func() bool {
		for _, m := range e.d.Public(th.ID) {
			if _, ok := m.PNG(); ok {
				return true
			}
		}
		return false
	})
	if m := e.do(e.play(th, alice, "E5")); m.Ephemeral {
		t.Fatalf("move in the thread refused: %q", m.Text())
	}
	// The parent channel stays free for another game.
	e.do(e.slash(ch, alice, "bot", discordtest.Int("size", 9)))
	if e.game(ch.ID) == nil {
		t.Errorf("a game in a thread blocks its parent channel")
	}
	e.refused(e.slash(ch, bob, "bot"), "already")
}

// TestE2EPassText: after a pass the board says "Last move: ⚫ pass", not
// "pass (pass)" (engine.Move.String is already "pass" for a pass).
func TestE2EPassText(t *testing.T) {
	e := newEnv(t)
	ch, alice, _ := e.guildGame()
	m := e.do(e.slash(ch, alice, "pass"))
	if strings.Contains(m.Text(), "pass (pass)") || !strings.Contains(m.Text(), "Last move: ⚫ pass") {
		t.Errorf("the board says %q", m.Text())
	}
}

// TestE2EPrivateChannel: with a user install, two friends play in their own
// DM, where the bot is not a member: everything must go through the
// interactions, since the channel endpoints answer 403.
func TestE2EPrivateChannel(t *testing.T) { bothModes(t, testE2EPrivateChannel) }

func testE2EPrivateChannel(t *testing.T, e *env) {
	ch, alice, bob := e.privateChannel()
	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, []string{"E5", "C3", "G7"})
	e.do(e.click(bob, e.board(ch.ID), "pass"))
	if n := goOf(e.game(ch.ID)).MoveCount(); n != 4 {
		t.Errorf("%d moves, want 4", n)
	}
	e.do(e.slash(ch, alice, "resign"))
	if e.game(ch.ID) != nil {
		t.Errorf("the game is still active after resigning")
	}
	// A bot game there too: its replies come within the interaction.
	if m := e.do(e.slash(ch, alice, "bot", discordtest.Int("size", 9), discordtest.Str("color", "white"))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	e.do(e.play(ch, alice, "E5"))
	if n := goOf(e.game(ch.ID)).MoveCount(); n != 3 {
		t.Errorf("%d moves in the bot game, want 3", n)
	}
}

// TestE2EPrivateChannelBoardPage: in a user install's private channel, a
// move made on the board page right after the challenge was accepted (no
// slash command yet) reaches the channel: gobot may not post there, so the
// board goes as a follow-up of the Accept.
func TestE2EPrivateChannelBoardPage(t *testing.T) { httpMode(t, testE2EPrivateChannelBoardPage) }

func testE2EPrivateChannelBoardPage(t *testing.T, e *env) {
	ch, alice, bob := e.privateChannel()
	e.challenge(ch, alice, bob)
	g := e.game(ch.ID)
	res := e.app.Act(context.Background(), ch.ID, commands.WebUser{ID: alice.ID, Name: alice.Username},
		commands.Action{Kind: commands.ActPlay, Point: "E5", Game: g.ID, Version: g.Version, Seat: "black"})
	if res.Refused {
		t.Fatalf("E5 from the board page was refused: %q", res.Text)
	}
	if m := e.board(ch.ID); !strings.Contains(m.Text(), "played **E5**") {
		t.Errorf("the channel's last board reads %q, want the board page's move E5", m.Text())
	}
}

// TestE2ESecondGame: after a game ends, a new one in the same channel gets
// its own board, whose buttons work (the env's challenge returns it, not
// the earlier game's board).
func TestE2ESecondGame(t *testing.T) { bothModes(t, testE2ESecondGame) }

func testE2ESecondGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	first := e.challenge(ch, alice, bob)
	old := e.game(ch.ID)
	e.do(e.slash(ch, alice, "resign"))
	second := e.challenge(ch, alice, bob)
	g := e.game(ch.ID)
	if g == nil || g.ID == old.ID {
		t.Fatalf("no second game in the channel")
	}
	if boardOf(second, old.ID) || !boardOf(second, g.ID) || second.ID == first.ID {
		t.Fatalf("challenge returned the first game's board for the second game")
	}
	m := e.do(e.click(alice, second, "pass"))
	if m.Ephemeral || !strings.Contains(m.Text(), "passed") {
		t.Errorf("Pass on the second game's board answered %q", m.Text())
	}
}

// TestE2ESuicide: a suicide is refused with the group it would kill
// ("the group of 2 stones") or the lone stone; under Tromp-Taylor, which
// allows it, the move is played and its answer says that the mover's own
// stones came off the board.
func TestE2ESuicide(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	moves := []string{"A2", "E5", "B2", "E6", "C1", "A1", "D5"}
	ch := e.d.GuildChannel("chinese")
	e.challenge(ch, alice, bob, discordtest.Str("ruleset", "chinese"), discordtest.Bool("rated", false))
	e.playOut(ch, alice, bob, moves)
	e.refused(e.play(ch, bob, "B1"), "B1 would be suicide: it would leave the group of 2 stones it joins without liberties, and capture nothing.")
	tt := e.d.GuildChannel("tromp-taylor")
	e.challenge(tt, alice, bob, discordtest.Str("ruleset", "tromp-taylor"), discordtest.Bool("rated", false))
	e.playOut(tt, alice, bob, moves)
	m := e.do(e.play(tt, bob, "B1"))
	if want := "⚪ " + bob.Mention() + " played **B1**. Suicide: the white group it joined had no liberties left, and its 2 stones came off the board."; !strings.Contains(m.Text(), want) {
		t.Errorf("Tromp-Taylor suicide answered %q, want %q", m.Text(), want)
	}
	b := goOf(e.game(tt.ID)).Board()
	for _, p := range []string{"A1", "B1"} {
		if pt, _ := engine.ParsePoint(p, 9); b.At(pt) != engine.Empty {
			t.Errorf("after the suicide %s holds %v, want it empty", p, b.At(pt))
		}
	}
}

// TestE2EThreadGameFromParent: a player who sends a command for their game
// in the channel whose thread holds it is pointed to the thread, not only
// told that there is no game here; others are told how to start one.
func TestE2EThreadGameFromParent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	first := e.threadGame(ch, alice, bob)
	for _, it := range []*discordtest.Interaction{e.play(ch, alice, "E5"), e.slash(ch, bob, "board"), e.slash(ch, bob, "resign")} {
		e.said(it, "There is no game in this channel itself: your game is in its thread <#"+first.ID+">. Run the command there.")
	}
	e.said(e.play(ch, carol, "E5"), "There is no game in this channel. Start one with `/go challenge` or `/go bot`.")
	second := e.threadGame(ch, alice, carol)
	e.said(e.slash(ch, alice, "board"), "There is no game in this channel itself: your games are in its threads <#"+first.ID+"> and <#"+second.ID+">. Run the command there.")
	if e.game(first.ID) == nil {
		t.Errorf("/go resign in the parent channel ended the thread's game")
	}
}

// TestE2EThreadGameFromBusyParent: a player whose game is in a thread,
// sending a command for it in the thread's channel while that channel holds
// a game of others, is told they do not play that one and where theirs is;
// neither game changes.
func TestE2EThreadGameFromBusyParent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	e.challenge(ch, alice, bob)
	msg := e.newChallenge(e.slash(ch, carol, "challenge", discordtest.UserOpt("opponent", alice), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.do(e.click(alice, msg, "accept"))
	var th *discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		if threads := e.d.Threads(ch.ID); len(threads) == 1 {
			th = threads[0]
		}
		return th != nil && e.game(th.ID) != nil
	})
	notHere := "You are not playing in this game: it is " + alice.Mention() + " (black) against " + bob.Mention() + " (white)."
	for _, it := range []*discordtest.Interaction{e.play(ch, carol, "E5"), e.slash(ch, carol, "resign")} {
		e.said(it, notHere+" Your game is in this channel's thread <#"+th.ID+">: run the command there.")
	}
	e.said(e.play(ch, dave, "E5"), notHere)
	if g := e.game(ch.ID); g == nil || g.State.MoveCount() != 0 {
		t.Errorf("the channel's game changed: %+v", g)
	}
	if e.game(th.ID) == nil {
		t.Errorf("/go resign in the parent channel ended the thread's game")
	}
}
