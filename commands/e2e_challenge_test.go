package commands_test

// Scenarios of challenges: declined, expired, accepted twice, and kept
// across a restart. The harness is in
// e2e_harness_test.go.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

func TestE2EDeclineAndStolenClick(t *testing.T) { bothModes(t, testE2EDeclineAndStolenClick) }

func testE2EDeclineAndStolenClick(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 13)))

	// Nobody but Bob may answer, not even Alice.
	e.refused(e.click(carol, msg, "accept"), "only "+bob.Mention())
	e.refused(e.click(carol, msg, "decline"), "only "+bob.Mention())
	e.refused(e.click(alice, msg, "accept"), "only "+bob.Mention())

	e.do(e.click(bob, msg, "decline"))
	got, _ := e.d.Message(msg.ID)
	for _, b := range got.Buttons() {
		if !b.Disabled {
			t.Errorf("button %q still enabled after the decline", b.Label)
		}
	}
	if !strings.Contains(strings.ToLower(got.Text()), "declin") {
		t.Errorf("challenge message after decline = %q", got.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("a declined challenge started a game")
	}
	// The old message's Accept button does nothing now.
	r := e.d.Do(e.d.Click(bob, msg, "challenge/"+msg.InteractionID+"/accept"))
	if r.Message != nil && !r.Message.Ephemeral {
		for _, b := range r.Message.Buttons() {
			if !b.Disabled {
				t.Errorf("pressing Accept on a declined challenge re-enabled %q", b.Label)
			}
		}
	}
	if e.game(ch.ID) != nil {
		t.Errorf("accepting a declined challenge started a game")
	}
}

func TestE2EExpiry(t *testing.T) { httpMode(t, testE2EExpiry) }

func testE2EExpiry(t *testing.T, e *env) {
	ch1, ch2 := e.d.GuildChannel("one"), e.d.GuildChannel("two")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	first := e.newChallenge(e.slash(ch1, alice, "challenge", discordtest.UserOpt("opponent", bob)))
	second := e.newChallenge(e.slash(ch2, alice, "challenge", discordtest.UserOpt("opponent", bob)))

	e.clock.Advance(commands.DefaultChallengeTTL + time.Minute)

	// Pressing Accept on an expired challenge says so and starts nothing.
	m := e.do(e.click(bob, first, "accept"))
	if !strings.Contains(strings.ToLower(m.Text()), "expired") && !strings.Contains(strings.ToLower(m.Text()), "no longer open") {
		t.Errorf("accepting an expired challenge answered %q", m.Text())
	}
	if e.game(ch1.ID) != nil {
		t.Errorf("an expired challenge started a game")
	}

	// The sweep (at start and every minute) closes the other one: its
	// buttons are disabled without anyone pressing them.
	e.restart()
	e.d.WaitFor("the expired challenge's buttons to be disabled", func() bool {
		got, _ := e.d.Message(second.ID)
		b, ok := got.Button("accept")
		return ok && b.Disabled
	})
	got, _ := e.d.Message(second.ID)
	if !strings.Contains(strings.ToLower(got.Text()), "expired") {
		t.Errorf("expired challenge message = %q", got.Text())
	}
}

// TestE2EDoubleAccept: two presses of Accept at once start one game.
func TestE2EDoubleAccept(t *testing.T) { httpMode(t, testE2EDoubleAccept) }

func testE2EDoubleAccept(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	b := mustButton(t, msg, "accept")
	its := []*discordtest.Interaction{e.d.Click(bob, msg, b.CustomID), e.d.Click(bob, msg, b.CustomID)}
	var wg sync.WaitGroup
	for _, it := range its {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.d.Send(it); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	e.d.WaitFor("the first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && !m.Deferred {
				return true
			}
		}
		return false
	})
	boards := 0
	for _, m := range e.d.Public(ch.ID) {
		if _, ok := m.PNG(); ok {
			boards++
		}
	}
	if boards != 1 {
		t.Errorf("%d boards posted for two presses of Accept, want 1", boards)
	}
	if g := e.game(ch.ID); g == nil || g.State.MoveCount() != 0 {
		t.Errorf("no fresh game after the double accept")
	}
}

// TestE2ERestartChallenge: a challenge made before a restart can be
// accepted after it.
func TestE2ERestartChallenge(t *testing.T) { httpMode(t, testE2ERestartChallenge) }

func testE2ERestartChallenge(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	e.restart()
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
	g := e.game(ch.ID)
	if g.First(engine.SideOf(engine.White)).UserID != alice.ID || g.First(engine.SideOf(engine.Black)).UserID != bob.ID {
		t.Errorf("colours: black %s, white %s; want bob black, alice white as challenged", g.First(engine.SideOf(engine.Black)).UserID, g.First(engine.SideOf(engine.White)).UserID)
	}
}

// TestE2EAcceptWhileAnotherAccepts: an Accept pressed while another one
// (here, on another worker sharing the store) makes the game's thread is
// refused, and makes no thread; once that claim is given back, Accept
// works.
func TestE2EAcceptWhileAnotherAccepts(t *testing.T) { httpMode(t, testE2EAcceptWhileAnotherAccepts) }

func testE2EAcceptWhileAnotherAccepts(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true))
	msg := e.newChallenge(it)
	other := string(commands.HoldAccept) + ":another-worker" // an Accept's claim, as the other worker names it
	if err := e.store.ClaimChallenge(context.Background(), it.ID, other, time.Minute); err != nil {
		t.Fatal(err)
	}
	e.refused(e.click(bob, msg, "accept"), "This challenge is being accepted already.")
	if th := e.d.Threads(ch.ID); len(th) != 0 {
		t.Errorf("a refused Accept made %d threads", len(th))
	}
	if err := e.store.ReleaseChallenge(context.Background(), it.ID, other); err != nil {
		t.Fatal(err)
	}
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game's thread", func() bool {
		th := e.d.Threads(ch.ID)
		return len(th) == 1 && e.game(th[0].ID) != nil
	})
}

// TestE2EAnswerWhileAnotherAnswers: an answer to a challenge pressed
// while another answer is under way (here, held on another worker sharing
// the store) is refused with what that other answer is doing, and changes
// nothing; once the other answer has removed the challenge, the refusal
// says it is no longer open. (An Accept that lost to a withdraw was told
// the challenge was being accepted.)
func TestE2EAnswerWhileAnotherAnswers(t *testing.T) { httpMode(t, testE2EAnswerWhileAnotherAnswers) }

func testE2EAnswerWhileAnotherAnswers(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for i, tc := range []struct {
		other  commands.Hold // what the other answer does
		who    discordtest.User
		button string
		want   string
	}{
		{commands.HoldWithdraw, bob, "accept", "This challenge is being withdrawn: it can no longer be accepted."},
		{commands.HoldWithdraw, bob, "decline", "This challenge is being withdrawn: it can no longer be declined."},
		{commands.HoldWithdraw, alice, "decline", "This challenge is being withdrawn already."},
		{commands.HoldDecline, bob, "accept", "This challenge is being declined: it can no longer be accepted."},
		{commands.HoldDecline, alice, "decline", "This challenge is being declined: it can no longer be withdrawn."},
		{commands.HoldAccept, alice, "decline", "This challenge is being accepted: it can no longer be withdrawn."},
		{commands.HoldAccept, bob, "decline", "This challenge is being accepted: it can no longer be declined."},
	} {
		ch := e.d.GuildChannel(fmt.Sprintf("general%d", i))
		it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", false))
		msg := e.newChallenge(it)
		holder := string(tc.other) + ":another-worker"
		if err := e.store.ClaimChallenge(context.Background(), it.ID, holder, time.Minute); err != nil {
			t.Fatal(err)
		}
		e.refused(e.click(tc.who, msg, tc.button), tc.want)
		if _, err := e.store.Challenge(context.Background(), it.ID); err != nil {
			t.Errorf("%s's %s while another answer %ss: the challenge = %v, want it still there", tc.who.Username, tc.button, tc.other, err)
		}
		if m, _ := e.d.Message(msg.ID); m.Text() != msg.Text() {
			t.Errorf("%s's %s while another answer %ss changed the challenge's message to %q", tc.who.Username, tc.button, tc.other, m.Text())
		}
		// The other answer ends, removing the challenge.
		if err := e.store.DeleteChallenge(context.Background(), it.ID); err != nil {
			t.Fatal(err)
		}
		e.refused(e.click(tc.who, msg, tc.button), "This challenge is no longer open.")
	}
}

// TestE2EChallengeNonMember: a challenge, of Go or draughts, to someone
// who is not a member of the server (who left, or a user ID typed in:
// Discord then resolves the user but no member) is refused, since they
// could neither see nor accept it, and nothing is stored or posted; a
// member is challenged as usual, a DM between people has no members and
// is unaffected, and an admin still bans someone who left.
func TestE2EChallengeNonMember(t *testing.T) { httpMode(t, testE2EChallengeNonMember) }

func testE2EChallengeNonMember(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	want := bob.Mention() + " is not a member of this server, so they could not see this challenge or accept it. Challenge a member of this server, or challenge them in your DM or group DM with them."
	e.refused(notMember(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)), bob), want)
	e.said(notMember(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)), bob), want)
	e.said(notMember(e.draughtsCmd(ch, ann, "challenge", discordtest.UserOpt("opponent", bob)), bob), want)
	if cs, err := e.store.ExpiredChallenges(context.Background(), e.clock.Now().Add(365*24*time.Hour)); err != nil || len(cs) != 0 {
		t.Errorf("challenges stored after the refusals: %d (%v), want none", len(cs), err)
	}
	if m := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9))); m.Ephemeral || !strings.HasPrefix(m.Text(), bob.Mention()+", "+ann.Mention()+" challenges you") {
		t.Errorf("challenge to a member = %q (private %v), want it public", m.Text(), m.Ephemeral)
	}
	private := e.d.PrivateChannel(ann, bob)
	if m := e.newChallenge(notMember(e.slash(private, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)), bob)); m.Ephemeral {
		t.Errorf("challenge in a DM between people = %q, want it public", m.Text())
	}
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	if m := e.do(notMember(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "left and came back to spam")), bob)); !strings.HasPrefix(m.Text(), "🚫 "+bob.Mention()+" is banned from gobot on this server") {
		t.Errorf("ban of someone who left = %q, want it done", m.Text())
	}
}

// notMember makes the user options of it name u as someone who is not a
// member of the server: Discord resolves the user, and no member.
func notMember(it *discordtest.Interaction, u discordtest.User) *discordtest.Interaction {
	data := it.Payload["data"].(map[string]any)
	if res, ok := data["resolved"].(map[string]any); ok {
		if rm, ok := res["members"].(map[string]any); ok {
			delete(rm, u.ID)
		}
	}
	return it
}

// TestE2EChallengeInBotDM: a challenge made in one's own DM with gobot is
// refused, since nobody else can see that DM and the opponent would never
// find it; in a DM or group DM between people (a user install) it is posted
// as anywhere else.
func TestE2EChallengeInBotDM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	erin, ann := e.d.NewUser("erin"), e.d.NewUser("ann")
	dm := e.d.DM(erin)
	e.refused(e.slash(dm, erin, "challenge", discordtest.UserOpt("opponent", ann)), "")
	e.said(e.slash(dm, erin, "challenge", discordtest.UserOpt("opponent", ann), discordtest.Int("size", 9)),
		ann.Mention()+" cannot see this DM with me: challenge them in a server channel, or in your DM or group DM with them. To play me here, use `/go bot`.")
	e.said(e.draughtsCmd(dm, erin, "challenge", discordtest.UserOpt("opponent", ann)),
		ann.Mention()+" cannot see this DM with me: challenge them in a server channel, or in your DM or group DM with them. To play me here, use `/draughts bot`.")
	if cs, err := e.store.ExpiredChallenges(context.Background(), e.clock.Now().Add(365*24*time.Hour)); err != nil || len(cs) != 0 {
		t.Errorf("challenges stored after the refusals: %d (%v), want none", len(cs), err)
	}
	private := e.d.PrivateChannel(erin, ann)
	m := e.newChallenge(e.slash(private, erin, "challenge", discordtest.UserOpt("opponent", ann), discordtest.Int("size", 9)))
	if want := ann.Mention() + ", " + erin.Mention() + " challenges you to a game of Go: 9×9"; m.Ephemeral || !strings.HasPrefix(m.Text(), want) {
		t.Errorf("challenge in a DM between people = %q (private %v), want it public, starting %q", m.Text(), m.Ephemeral, want)
	}
}

// TestE2EAcceptInOccupiedChannel: a challenge accepted when a game has
// started in its channel meanwhile stays open, and the opponent who
// pressed Accept is told when it can start and what the challenger can
// do, not to make a challenge in a thread himself: he asked for nothing.
// In a DM there is no thread to suggest.
func TestE2EAcceptInOccupiedChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob, carol := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("carol")
	goMsg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	drMsg := e.newChallenge(e.draughtsCmd(ch, ann, "challenge", discordtest.UserOpt("opponent", bob)))
	e.do(e.botGame(ch, carol, "tester")) // the channel is taken meanwhile
	expires := func(m discordtest.Message) int64 {
		c, err := e.store.Challenge(context.Background(), m.InteractionID)
		if err != nil {
			t.Fatalf("the challenge is gone: %v", err)
		}
		return c.ExpiresAt.Unix()
	}
	e.said(e.click(bob, goMsg, "accept"), fmt.Sprintf("A game is already running in this channel, so this challenge cannot start yet: accept it once that game is over (the challenge expires <t:%d:R>), or ask %s to challenge you again with `/go challenge ... thread:true` to play in a thread.", expires(goMsg), ann.Mention()))
	expires(goMsg) // still open
	e.said(e.click(bob, drMsg, "accept"), fmt.Sprintf("A game is already running in this channel, so this challenge cannot start yet: accept it once that game is over (the challenge expires <t:%d:R>), or ask %s to challenge you again with `/draughts challenge ... thread:true` to play in a thread.", expires(drMsg), ann.Mention()))

	dm, alice, dan := e.privateChannel()
	dmMsg := e.newChallenge(e.slash(dm, alice, "challenge", discordtest.UserOpt("opponent", dan), discordtest.Int("size", 9)))
	e.do(e.botGame(dm, alice, "tester"))
	e.said(e.click(dan, dmMsg, "accept"), fmt.Sprintf("A game is already running in this DM, so this challenge cannot start yet: accept it once that game is over (the challenge expires <t:%d:R>).", expires(dmMsg)))
}

// TestE2ELateChallengeClick: a click built from a challenge's message as
// it was before the challenge was accepted (the challenger's Decline, the
// opponent's second press of Accept) arrives after the accept: the message
// keeps saying who accepted, and only the clicker is told the challenge is
// no longer open (the message went back to "The challenge expires …",
// its buttons disabled, and the clicker was told nothing). Go's and
// draughts' challenges alike.
func TestE2ELateChallengeClick(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"go", "draughts"} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ch, ann, bob := e.d.GuildChannel("general"), e.d.NewUser("ann"), e.d.NewUser("bob")
			opts := []discordtest.Option{discordtest.UserOpt("opponent", bob)}
			if cmd == "go" {
				opts = append(opts, discordtest.Int("size", 9))
			}
			msg := e.newChallenge(e.d.Command(ch, ann, cmd, discordtest.Sub("challenge", opts...)))
			e.do(e.click(bob, msg, "accept"))
			accepted, _ := e.d.Message(msg.ID)
			if !strings.Contains(accepted.Text(), "✅ "+bob.Mention()+" accepted") {
				t.Fatalf("challenge message after the accept = %q", accepted.Text())
			}
			for _, late := range []struct {
				who    discordtest.User
				button string
			}{{ann, "decline"}, {bob, "accept"}} {
				m := e.do(e.d.Click(late.who, msg, mustButton(t, msg, late.button).CustomID))
				if !m.Ephemeral || m.Text() != "This challenge is no longer open." {
					t.Errorf("answer to a late %s (private %v) = %q, want %q", late.button, m.Ephemeral, m.Text(), "This challenge is no longer open.")
				}
				if now, _ := e.d.Message(msg.ID); now.Text() != accepted.Text() {
					t.Errorf("a late %s changed the challenge message to\n%s\nwant\n%s", late.button, now.Text(), accepted.Text())
				}
			}
		})
	}
}

// TestE2EExpiredChallengeClickCloses: a challenge expires and is
// deleted by a sweep that could not edit its message (on a worker whose
// edit failed, or in a channel gobot cannot see); the first click on the
// message, still open, closes it for everyone, as the sweep would have.
func TestE2EExpiredChallengeClickCloses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dm, alice, dan := e.privateChannel()
	msg := e.newChallenge(e.slash(dm, alice, "challenge", discordtest.UserOpt("opponent", dan), discordtest.Int("size", 9)))
	e.clock.Advance(commands.DefaultChallengeTTL + time.Minute)
	if err := e.store.DeleteChallenge(context.Background(), msg.InteractionID); err != nil {
		t.Fatal(err)
	}
	e.do(e.click(dan, msg, "accept"))
	got, _ := e.d.Message(msg.ID)
	i := strings.LastIndex(msg.Text(), "\nThe challenge expires <t:")
	if want := msg.Text()[:i] + "\n⌛ This challenge expired."; got.Text() != want {
		t.Errorf("expired challenge message after a click =\n%s\nwant\n%s", got.Text(), want)
	}
	for _, b := range got.Buttons() {
		if !b.Disabled {
			t.Errorf("button %q of the expired challenge is still enabled", b.Label)
		}
	}
}

// heldStart holds a new game's first board ("The game begins") until the
// test releases it; with accept set it holds the Accept's own answer
// instead (a button's update, sent by REST in gateway mode), which comes
// before the board is made.
type heldStart struct {
	commands.Discord
	accept  bool
	held    chan struct{} // closed once the hold is reached
	release chan struct{}
	once    sync.Once
	holding atomic.Value // the ID (string) of the interaction whose answer is held
}

func newHeldStart(accept bool) *heldStart {
	return &heldStart{accept: accept, held: make(chan struct{}), release: make(chan struct{})}
}

func (h *heldStart) hold() {
	h.once.Do(func() { close(h.held) })
	<-h.release
}

func startsGame(m *commands.Message) bool {
	if m == nil {
		return false
	}
	text := m.Content
	for _, em := range m.Embeds {
		text += em.Title + em.Description
	}
	return strings.Contains(text, "The game begins")
}

func (h *heldStart) Callback(ctx context.Context, it *discordgo.Interaction, r *commands.Response) (*discordgo.Message, error) {
	if h.accept && r.Type == discordgo.InteractionResponseUpdateMessage {
		h.holding.Store(it.ID)
		h.hold()
		h.holding.Store("")
	}
	return h.Discord.Callback(ctx, it, r)
}

// EditOriginal refuses, as Discord does, an edit of the answer held: it
// was not sent yet. (A game ended before it tries to take the buttons off
// its newest board, the Accept's answer.)
func (h *heldStart) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	if id, _ := h.holding.Load().(string); id != "" && id == it.ID {
		return nil, fmt.Errorf("edit the answer of interaction %s: not answered yet (Unknown Message)", it.ID)
	}
	return h.Discord.EditOriginal(ctx, it, m)
}

func (h *heldStart) Followup(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	if !h.accept && startsGame(m) {
		h.hold()
	}
	return h.Discord.Followup(ctx, it, m)
}

// firstMoveBeforeStart has alice challenge bob in ch, bob accept, and
// alice play E5 while h holds the Accept's answer or the game's first
// board (its process is slow); it returns E5's board once the Accept's
// work is all done.
func (e *env) firstMoveBeforeStart(h *heldStart, ch *discordtest.Channel, alice, bob discordtest.User) discordtest.Message {
	e.t.Helper()
	return e.beforeStart(h, ch, alice, bob, e.play(ch, alice, "E5"))
}

// beforeStart is firstMoveBeforeStart with first, any interaction in the
// new game, in place of alice's E5; it returns first's answer.
func (e *env) beforeStart(h *heldStart, ch *discordtest.Channel, alice, bob discordtest.User, first *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black")))
	accept := e.click(bob, msg, "accept")
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.d.Do(accept)
	}()
	<-h.held
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
	answer := e.do(first)
	close(h.release)
	<-done
	e.d.WaitFor("the Accept's work to end", func() bool {
		r, ok := e.d.Original(accept)
		return ok && !r.Deferred
	})
	return answer
}

// TestE2EStartBoardAfterFirstMove: a game's first board, slow to post, is
// not left as the channel's newest message once the first move was
// played meanwhile. It was posted below E5's board, with live buttons and
// "alice, your move.", though Bob was to move.
func TestE2EStartBoardAfterFirstMove(t *testing.T) { bothModes(t, testE2EStartBoardAfterFirstMove) }

func testE2EStartBoardAfterFirstMove(t *testing.T, e *env) {
	h := newHeldStart(false)
	e.wrapDiscord = func(d commands.Discord) commands.Discord { h.Discord = d; return h }
	e.restart()
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e5 := e.firstMoveBeforeStart(h, ch, alice, bob)
	if !strings.Contains(e5.Text(), bob.Mention()+", your move") {
		t.Fatalf("E5's board = %q, want it to ask Bob for his move", e5.Text())
	}
	var start discordtest.Message
	e.d.WaitFor("the start's board to be retired", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if m.Content == "The game began here; its newest board is above." {
				start = m
				return true
			}
		}
		return false
	})
	if len(start.Buttons()) != 0 {
		t.Errorf("the start's board, posted after E5's, keeps buttons %+v", start.Buttons())
	}
	// E5's answer records its board after Discord shows it.
	e.d.WaitFor("E5's board to be the game's newest", func() bool { return commands.NewestBoard(e.game(ch.ID)) == e5.ID })
	for _, m := range e.d.Public(ch.ID) {
		if strings.Contains(m.Text(), alice.Mention()+", your move") {
			t.Errorf("a message still asks Alice for a move she made: %q", m.Text())
		}
	}
}

// TestE2EStartBoardNotPosted: when the first move was played before the
// game's first board was made (the Accept's answer was slow), that board
// is not posted at all: E5's board is the game's first.
func TestE2EStartBoardNotPosted(t *testing.T) {
	t.Parallel()
	e := newEnvMode(t, "gateway") // the Accept's update goes by REST
	h := newHeldStart(true)
	e.wrapDiscord = func(d commands.Discord) commands.Discord { h.Discord = d; return h }
	e.restart()
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e5 := e.firstMoveBeforeStart(h, ch, alice, bob)
	e.d.WaitFor("the Accept to post the start's board or leave it", func() bool {
		return strings.Contains(e.logs.String(), "the game's first board is not posted") ||
			slices.ContainsFunc(e.d.Public(ch.ID), func(m discordtest.Message) bool { return strings.Contains(m.Text(), "The game begins") })
	})
	for _, m := range e.d.Public(ch.ID) {
		if strings.Contains(m.Text(), "The game begins") {
			t.Errorf("the start's board was posted after E5's: %q", m.Text())
		}
	}
	if got := e.board(ch.ID); got.ID != e5.ID {
		t.Errorf("the channel's newest board = %q, want E5's", got.Text())
	}
}

// TestE2EStartBoardAfterEnd: a game that ended before its first board
// went out (Bob accepted and resigned at once) does not get that board
// after its final one. It was posted below "Game over … B+R", pinging
// Alice: "The game begins. … alice, your move." With the board held, it
// is posted and then retired, as after a first move; with the Accept's
// answer held, it is not posted at all.
func TestE2EStartBoardAfterEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, mode string
		accept     bool
	}{{"board/http", "http", false}, {"board/gateway", "gateway", false}, {"accept/gateway", "gateway", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnvMode(t, c.mode)
			h := newHeldStart(c.accept)
			e.wrapDiscord = func(d commands.Discord) commands.Discord { h.Discord = d; return h }
			e.restart()
			ch := e.d.GuildChannel("general")
			alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
			final := e.beforeStart(h, ch, alice, bob, e.slash(ch, bob, "resign"))
			if !strings.Contains(final.Text(), "B+R") {
				t.Fatalf("Bob's resignation = %q, want the game over, B+R", final.Text())
			}
			if c.accept {
				e.d.WaitFor("the Accept to post the start's board or leave it", func() bool {
					return strings.Contains(e.logs.String(), "the game's first board is not posted") ||
						slices.ContainsFunc(e.d.Public(ch.ID), func(m discordtest.Message) bool { return strings.Contains(m.Text(), "The game begins") })
				})
				for _, m := range e.d.Public(ch.ID) {
					if strings.Contains(m.Text(), "The game begins") {
						t.Errorf("the start's board was posted after the game's end: %q", m.Text())
					}
				}
				if got := e.board(ch.ID); got.ID != final.ID {
					t.Errorf("the channel's newest board = %q, want the final one", got.Text())
				}
			} else {
				e.d.WaitFor("the start's board to be retired", func() bool {
					return slices.ContainsFunc(e.d.Public(ch.ID), func(m discordtest.Message) bool {
						return m.Content == "The game began here; its newest board is above."
					})
				})
			}
			for _, m := range e.d.Public(ch.ID) {
				if strings.Contains(m.Text(), alice.Mention()+", your move") {
					t.Errorf("a message asks Alice for a move in the game over: %q", m.Text())
				}
				if m.ID != final.ID && strings.Contains(m.Text(), "The game begins") && len(m.Buttons()) != 0 {
					t.Errorf("the start's board keeps buttons %+v", m.Buttons())
				}
			}
		})
	}
}

// TestE2EChallengeFromOtherServer: a press of a challenge's button sent
// from another server (forged: Discord sends a press from the message
// that holds it) is refused and starts nothing; it started the game under
// the presser's server, listed by that server's admins and not by its
// own.
func TestE2EChallengeFromOtherServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("games")
	far := e.d.OtherGuildChannel("900000000000000001", "far")
	ann, eve := e.d.NewUser("ann"), e.d.NewUser("eve")
	open := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.Int("size", 9)))
	theirs := e.newChallenge(e.slash(far, eve, "challenge", discordtest.Int("size", 9)))
	accept := mustButton(t, open, "accept").CustomID
	e.refused(e.d.Click(eve, theirs, accept), "This challenge was made on another server: answer it there.")
	if g := e.game(ch.ID); g != nil {
		t.Errorf("a press from another server started a game in %s: %+v", ch.ID, g.Players())
	}
	if g := e.game(far.ID); g != nil {
		t.Errorf("a press from another server started a game in %s: %+v", far.ID, g.Players())
	}
	// A rengo lobby's buttons, likewise.
	lobby := e.newChallenge(e.slash(ch, ann, "rengo", discordtest.Int("size", 9)))
	for _, label := range []string{"Join White", "Start"} {
		var id string
		for _, b := range lobby.Buttons() {
			if b.Label == label {
				id = b.CustomID
			}
		}
		e.refused(e.d.Click(eve, theirs, id), "This challenge was made on another server: answer it there.")
	}
	if got, _ := e.d.Message(lobby.ID); strings.Contains(got.Text(), eve.Mention()) {
		t.Errorf("a join from another server seated eve: %q", got.Text())
	}
	// The challenge is still open where it was made.
	e.do(e.d.Click(eve, open, accept))
	if g := e.game(ch.ID); g == nil || g.GuildID != ch.GuildID {
		t.Errorf("eve's press in the challenge's own channel: game %+v, want one on server %s", g, ch.GuildID)
	}
}
