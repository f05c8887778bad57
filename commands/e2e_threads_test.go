package commands_test

// End-to-end tests of where a game's (or a review's) thread can be
// started: inside a thread or forum post, in a channel of another kind
// than text, or where gobot may not create threads, thread:true is
// refused at the command, rengo opens its lobby in place, hints name no
// thread, and no request goes to Discord that it would refuse.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

// noProblems fails the test when the fake Discord refused a request or
// found one against its rules (a thread asked for where none can be).
func (e *env) noProblems() {
	e.t.Helper()
	if p := e.d.Problems(); len(p) != 0 {
		e.t.Errorf("requests Discord would refuse:\n%s", strings.Join(p, "\n"))
	}
}

// noChallenges fails the test when a challenge or lobby was stored.
func (e *env) noChallenges() {
	e.t.Helper()
	if cs, err := e.store.ExpiredChallenges(context.Background(), e.clock.Now().Add(365*24*time.Hour)); err != nil || len(cs) != 0 {
		e.t.Errorf("challenges stored after the refusals: %d (%v), want none", len(cs), err)
	}
}

const (
	inThreadRefusal    = "This is a thread (or a forum post) already, and Discord starts no thread inside a thread: "
	notTextRefusal     = "I can start a thread only in a text channel, and this is another kind of channel: "
	challengeHere      = "challenge with `thread:false` to play here."
	rengoHere          = "open the rengo game here with `thread:false`."
	gameRunningThread  = "A game is already running in this thread. Finish it first: a thread holds one game at a time, and Discord starts no thread inside it."
	gameRunningNoThrd  = "A game is already running in this channel. Finish it first: I cannot start a thread for another game here."
	threadHintFragment = "thread:true"
)

// TestE2EThreadTrueWhereNoThread: /go challenge, /draughts challenge and
// /go rengo with thread:true inside a thread, a forum post or an
// announcement channel are refused at once, saying why and to play here
// with thread:false; nothing is posted or stored, and no thread is asked
// of Discord. The channel's type comes from the payload in both modes.
func TestE2EThreadTrueWhereNoThread(t *testing.T) { bothModes(t, testE2EThreadTrueWhereNoThread) }

func testE2EThreadTrueWhereNoThread(t *testing.T, e *env) {
	general := e.d.GuildChannel("general")
	forum := e.d.GuildForum("games")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for _, c := range []struct {
		name string
		ch   *discordtest.Channel
		why  string
	}{
		{"thread", e.d.Thread(general, "chat"), inThreadRefusal},
		{"forum post", e.d.Thread(forum, "a post"), inThreadRefusal},
		{"announcement channel", e.d.GuildAnnouncement("news"), notTextRefusal},
	} {
		e.said(e.slash(c.ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true)), c.why+challengeHere)
		e.said(e.draughtsCmd(c.ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Bool("thread", true)), c.why+challengeHere)
		e.said(e.slash(c.ch, alice, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", true)), c.why+rengoHere)
		if n := len(e.d.Public(c.ch.ID)); n != 0 {
			t.Errorf("%s: %d public messages after the refusals", c.name, n)
		}
	}
	e.noChallenges()
	e.noProblems()
}

// TestE2EChallengeInForumPost: in a forum post, a challenge without a
// thread is played in the post itself; with its game running there, /go
// bot and /draughts bot, and an Accept of a second challenge, say that the
// post holds one game and suggest no thread:true, which cannot work there.
func TestE2EChallengeInForumPost(t *testing.T) { httpMode(t, testE2EChallengeInForumPost) }

func testE2EChallengeInForumPost(t *testing.T, e *env) {
	post := e.d.Thread(e.d.GuildForum("games"), "a post")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	second := e.newChallenge(e.slash(post, carol, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	e.startGame(post, alice, bob, 9)
	e.said(e.botGame(post, carol, "tester"), "A game is already running in this thread. Finish it first, or play me in another channel or in your DM with me: `/go bot` there.")
	e.said(e.draughtsCmd(post, carol, "bot", discordtest.Str("level", "beginner")), "A game is already running in this thread. Finish it first, or play me in another channel or in your DM with me: `/draughts bot` there.")
	m := e.do(e.click(bob, second, "accept"))
	if !m.Ephemeral || !strings.HasPrefix(m.Text(), "A game is already running in this thread, so this challenge cannot start yet: accept it once that game is over") || strings.Contains(m.Text(), threadHintFragment) {
		t.Errorf("Accept in a busy forum post answered (private %v) %q, want the wait without a thread to go to", m.Ephemeral, m.Text())
	}
	if n := len(e.d.Threads(post.ID)); n != 0 {
		t.Errorf("%d threads started in the forum post", n)
	}
	e.noProblems()
}

// TestE2ERengoDefaultInPlace: /go rengo without thread: in a forum post
// opens its lobby there (saying so), and Start begins the game in the post
// itself rather than asking Discord for a thread inside it; a rengo with
// thread:false in a busy post is refused without a thread to go to.
func TestE2ERengoDefaultInPlace(t *testing.T) { httpMode(t, testE2ERengoDefaultInPlace) }

func testE2ERengoDefaultInPlace(t *testing.T, e *env) {
	post := e.d.Thread(e.d.GuildForum("games"), "a post")
	ann, bob, cid := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cid")
	lobby := e.newChallenge(e.slash(post, ann, "rengo", discordtest.Int("size", 9), discordtest.Str("bot", "tester")))
	if want := "🤝 " + ann.Mention() + " opens a **rengo** game (team Go) here: "; lobby.Ephemeral || !strings.HasPrefix(lobby.Text(), want) {
		t.Fatalf("lobby (private %v) = %q, want it to start %q", lobby.Ephemeral, lobby.Text(), want)
	}
	lobby = e.do(e.click(cid, lobby, "Join Black"))
	lobby = e.do(e.click(bob, lobby, "Join White"))
	started := e.do(e.click(ann, lobby, "Start"))
	if !strings.Contains(started.Text(), "✅ Started") {
		t.Fatalf("Start answered (private %v) %q", started.Ephemeral, started.Text())
	}
	e.d.WaitFor("the rengo game in the post", func() bool { return e.game(post.ID) != nil })
	if n := len(e.d.Threads(post.ID)); n != 0 {
		t.Errorf("%d threads started in the forum post", n)
	}
	// cid plays in the game running here: he is told how to end it.
	e.said(e.slash(post, cid, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false)),
		gameRunningThread+" `/go board` shows it; `/go resign` ends it (or `/go abort` before each player has made two moves).")
	e.noProblems()
}

// TestE2EReviewWhereNoThread: /go review in a forum post, and in a channel
// where gobot may not create threads, posts the review in one message
// without asking Discord for a thread it would refuse. Where the review
// goes does not depend on what it found: the reviewer judges at a small
// budget and names a given mistake (mistakesReviewer), so the message
// always has a mistake's board beside the graph, and the two reviews cost
// a third of the harness's.
func TestE2EReviewWhereNoThread(t *testing.T) { httpMode(t, testE2EReviewWhereNoThread) }

func testE2EReviewWhereNoThread(t *testing.T, e *env) {
	e.reviewer = mistakesReviewer{mistakes: []review.Mistake{
		{Number: 3, Color: engine.Black, Move: "D4", Before: 0.62, After: 0.38, Loss: 9, Best: "C3", PV: []string{"C3", "D4"}},
	}}
	e.restart()
	locked := e.d.GuildChannel("locked")
	locked.AppPermissions = discordtest.PermBot &^ discordtest.PermCreatePublicThreads
	for _, ch := range []*discordtest.Channel{e.d.Thread(e.d.GuildForum("games"), "a post"), locked} {
		alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
		e.startGame(ch, alice, bob, 9)
		e.playOut(ch, alice, bob, reviewMoves)
		if m := e.do(e.slash(ch, bob, "resign")); m.Ephemeral {
			t.Fatalf("resign refused: %q", m.Text())
		}
		answer := e.reviewed(e.slash(ch, alice, "review"))
		if answer.Ephemeral || !strings.HasPrefix(answer.Text(), "Review of ⚫ alice vs ⚪ bob") || strings.Contains(answer.Text(), "in the thread") || len(answer.Attachments) < 2 {
			t.Errorf("review in %s (private %v, %d pictures) = %q, want it here in one message", ch.Name, answer.Ephemeral, len(answer.Attachments), answer.Text())
		}
		if n := len(e.d.Threads(ch.ID)); n != 0 {
			t.Errorf("%d threads started in %s", n, ch.Name)
		}
	}
	e.noProblems()
}

// TestE2EGameRunningHintWithoutThreads: in a text channel where gobot may
// not create threads, a busy channel's refusal suggests no thread:true.
func TestE2EGameRunningHintWithoutThreads(t *testing.T) {
	httpMode(t, testE2EGameRunningHintWithoutThreads)
}

func testE2EGameRunningHintWithoutThreads(t *testing.T, e *env) {
	ch := e.d.GuildChannel("locked")
	ch.AppPermissions = discordtest.PermBot &^ discordtest.PermCreatePublicThreads
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.do(e.botGame(ch, alice, "tester"))
	e.said(e.slash(ch, bob, "challenge", discordtest.UserOpt("opponent", alice)), gameRunningNoThrd)
	e.said(e.botGame(ch, bob, "tester"), "A game is already running in this channel. Finish it first, or play me in another channel or in your DM with me: `/go bot` there.")
	e.noProblems()
}

// TestE2EGameInMembersThread: a game started in a thread a member made
// (a challenge, a bot game, a game of draughts) belongs to the thread's
// channel too, as one in a thread gobot starts does: the parent's board
// page lists it and may show it, and /go board in the parent says where it
// is (the parent knew nothing of it).
func TestE2EGameInMembersThread(t *testing.T) { httpMode(t, testE2EGameInMembersThread) }

func testE2EGameInMembersThread(t *testing.T, e *env) {
	general := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	th1, th2, th3 := e.d.Thread(general, "a game"), e.d.Thread(general, "a bot game"), e.d.Thread(general, "draughts")
	e.startGame(th1, alice, bob, 9)
	e.do(e.botGame(th2, carol, "tester"))
	e.do(e.draughtsCmd(th3, carol, "bot", discordtest.Str("level", "beginner")))
	for _, th := range []*discordtest.Channel{th1, th2, th3} {
		e.d.WaitFor("the game", func() bool { return e.game(th.ID) != nil })
		if guild, parent, err := e.app.Where(context.Background(), th.ID); err != nil || parent != general.ID || guild != e.d.GuildID {
			t.Errorf("Where(%s) = %q, %q, %v; want the server and %s", th.Name, guild, parent, err, general.ID)
		}
	}
	games, err := e.app.Games(context.Background(), general.ID)
	if err != nil || len(games) != 3 {
		t.Errorf("the parent's board page lists %d games, %v; want the 3 in its threads", len(games), err)
	}
	e.refused(e.slash(general, alice, "board"), "There is no game in this channel itself: your game is in its thread <#"+th1.ID+">. Run the command there.")
}

// TestE2EThreadGameFinishedStaysParents: a game played in a thread is
// still its parent channel's once it has ended, so the board page opened
// in the parent may show its end and offer its Rematch (it was refused:
// "This board shows only the games of the channel it was opened in").
func TestE2EThreadGameFinishedStaysParents(t *testing.T) {
	httpMode(t, testE2EThreadGameFinishedStaysParents)
}

func testE2EThreadGameFinishedStaysParents(t *testing.T, e *env) {
	general := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	th := e.d.Thread(general, "a game")
	e.startGame(th, alice, bob, 9)
	e.do(e.slash(th, bob, "resign"))
	e.d.WaitFor("the game to end", func() bool { return e.game(th.ID) == nil })
	if guild, parent, err := e.app.Where(context.Background(), th.ID); err != nil || parent != general.ID || guild != e.d.GuildID {
		t.Errorf("Where(the thread) after the game = %q, %q, %v; want the server and %s", guild, parent, err, general.ID)
	}
}
