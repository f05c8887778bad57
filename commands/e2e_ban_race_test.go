package commands_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// claimHook is the store with hook run once, before an Accept's claim of
// a challenge: after the Accept's checks, before its game is stored.
type claimHook struct {
	commands.Store
	once sync.Once
	hook func()
}

func (h *claimHook) ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error {
	if strings.HasPrefix(holder, "accept:") {
		h.once.Do(h.hook)
	}
	return h.Store.ClaimChallenge(ctx, id, holder, lease)
}

// TestE2EBanBetweenAcceptsCheckAndGame: an admin bans the taker of an open
// challenge after their Accept checked that they are not banned and
// before its game is stored (a ban cannot close an open challenge for its
// taker, whom it does not name). The ban's answer says they have no game,
// so the Accept is refused by the store, with the ban's refusal, and the
// challenge stays open for others.
func TestE2EBanBetweenAcceptsCheckAndGame(t *testing.T) {
	onBothStores(t, testE2EBanBetweenAcceptsCheckAndGame)
}

func testE2EBanBetweenAcceptsCheckAndGame(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	ch := e.d.GuildChannel("general")
	e.wrapStore = func(s commands.Store) commands.Store {
		return &claimHook{Store: s, hook: func() {
			e.said(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "race")),
				"🚫 <@"+bob.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: race\nThey have no game in play here.")
		}}
	}
	e.restart()
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.Int("size", 9)))
	e.refused(e.click(bob, msg, "accept"), "You are banned from gobot games on this server until an admin lifts it. Reason: race")
	if g := e.game(ch.ID); g != nil {
		t.Fatalf("banned bob's Accept started game %s", g.ID)
	}
	e.do(e.click(carol, msg, "accept"))
	if g := e.game(ch.ID); g == nil || !slices.ContainsFunc(g.Players(), func(p storage.Player) bool { return p.UserID == carol.ID }) {
		t.Errorf("carol's Accept of the open challenge after bob's refusal did not start her game: %+v", g)
	}
}

// acceptHook is the store with hook run once, as an Accept's game is
// about to be stored (the Accept holds its challenge's claim), and
// refusedWithdraw closed once a withdrawal's claim of the challenge was
// refused because another holds it.
type acceptHook struct {
	commands.Store
	once, refusedOnce sync.Once
	hook              func()
	refusedWithdraw   chan struct{}
}

func (h *acceptHook) AcceptChallenge(ctx context.Context, id string, g *storage.Game) error {
	h.once.Do(h.hook)
	return h.Store.AcceptChallenge(ctx, id, g)
}

func (h *acceptHook) ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error {
	err := h.Store.ClaimChallenge(ctx, id, holder, lease)
	if strings.HasPrefix(holder, "withdraw:") && errors.Is(err, storage.ErrConflict) {
		h.refusedOnce.Do(func() { close(h.refusedWithdraw) })
	}
	return err
}

// TestE2EBanWhileAcceptHoldsChallenge: an admin bans the opponent of a
// challenge made before the ban while their Accept holds it, its checks
// passed and its game about to be stored. The store refuses the game to
// the banned player, and the ban, which waited for the Accept, withdraws
// the challenge: its message says so, the ban's answer lists it and the
// log has the withdrawal, with the ban's reason. (The ban gave up on a
// challenge held at once: it stayed open, unlisted, until it expired.)
func TestE2EBanWhileAcceptHoldsChallenge(t *testing.T) {
	onBothStores(t, testE2EBanWhileAcceptHoldsChallenge)
}

func testE2EBanWhileAcceptHoldsChallenge(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.GuildChannel("general")
	ban := e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "race"))
	type sent struct {
		reply *discordtest.Reply
		err   error
	}
	banned := make(chan sent, 1)
	hook := &acceptHook{refusedWithdraw: make(chan struct{})}
	hook.hook = func() {
		go func() {
			r, err := e.d.Send(ban)
			banned <- sent{r, err}
		}()
		select {
		case <-hook.refusedWithdraw:
		case <-time.After(30 * time.Second):
			t.Error("the ban did not try to withdraw the challenge held by the Accept")
		}
	}
	e.wrapStore = func(s commands.Store) commands.Store {
		hook.Store = s
		return hook
	}
	e.restart()
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob)))
	if m := e.do(e.click(bob, msg, "accept")); !m.Ephemeral || m.Text() != "You are banned from gobot games on this server until an admin lifts it. Reason: race" {
		t.Errorf("bob's Accept as he was banned = %q (private %v), want the ban's refusal", m.Text(), m.Ephemeral)
	}
	if g := e.game(ch.ID); g != nil {
		t.Fatalf("banned bob's Accept started game %s", g.ID)
	}
	b := <-banned
	if b.err != nil {
		t.Fatal(b.err)
	}
	// The ban defers its answer before it waits for the Accept: Discord
	// waits 3 s for a first answer, and an Accept may hold a challenge
	// for longer.
	if b.reply.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Errorf("the ban's first answer has type %d, want a deferral", b.reply.Type)
	}
	if m := e.answerOf(ban, b.reply); !m.Ephemeral || m.Text() != "🚫 <@"+bob.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: race\n"+
		"They have no game in play here.\n"+
		"Their challenges here (by them or to them) were withdrawn: `"+msg.InteractionID+"` in <#"+ch.ID+">." {
		t.Errorf("the ban's answer (private %v) =\n%s\nwant it to list the challenge withdrawn", m.Ephemeral, m.Text())
	}
	got, _ := e.d.Message(msg.ID)
	if want := "\n🚫 Withdrawn: <@" + bob.ID + "> is banned from gobot games on this server."; !strings.HasSuffix(got.Text(), want) || !got.Buttons()[0].Disabled {
		t.Errorf("the challenge's message after the ban = %q, want it closed: %q", got.Text(), want)
	}
	if _, err := e.store.Challenge(context.Background(), msg.InteractionID); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the withdrawn challenge is still stored (%v)", err)
	}
	want := []string{
		"ann ban " + bob.ID + " | not banned → banned until an admin lifts it | race",
		"ann withdraw " + msg.InteractionID + " | challenge by <@" + alice.ID + "> to <@" + bob.ID + "> in <#" + ch.ID + "> → withdrawn | race",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// lobbyChangeHook is the store with hook run once, once armed, after a
// change of a challenge is committed: between a ban's change of a rengo
// lobby and its edit of the lobby's message.
type lobbyChangeHook struct {
	commands.Store
	armed atomic.Bool
	hook  func()
}

func (h *lobbyChangeHook) UpdateChallenge(ctx context.Context, id string, change func(*storage.Challenge) error) (*storage.Challenge, error) {
	c, err := h.Store.UpdateChallenge(ctx, id, change)
	if err == nil && h.armed.CompareAndSwap(true, false) {
		h.hook()
	}
	return c, err
}

// TestE2EBanLobbyShowsJoinMeanwhile: a player joins a rengo lobby after a
// ban took another off its teams and before the ban shows the lobby. The
// lobby's message ends showing both changes, and why the banned player
// left, as the lobby's clicks show it: under the lobby's claim, read
// after the last change. (The ban showed the teams of its own change,
// after the Join had shown its own: the joiner was missing from the
// lobby, though seated.)
func TestE2EBanLobbyShowsJoinMeanwhile(t *testing.T) {
	onBothStores(t, testE2EBanLobbyShowsJoinMeanwhile)
}

func testE2EBanLobbyShowsJoinMeanwhile(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	ch := e.d.GuildChannel("general")
	hook := &lobbyChangeHook{}
	e.wrapStore = func(s commands.Store) commands.Store {
		hook.Store = s
		return hook
	}
	e.restart()
	lobby := e.newChallenge(e.slash(ch, alice, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false)))
	e.do(e.click(bob, lobby, "Join White"))
	lobby = e.do(e.click(dave, lobby, "Join Black"))
	hook.hook = func() { e.do(e.click(carol, lobby, "Join White")) }
	hook.armed.Store(true)
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", dave), discordtest.Str("reason", "race")))
	if hook.armed.Load() {
		t.Fatal("the ban changed no lobby")
	}
	want := lobbyTeams([]storage.Player{{UserID: alice.ID}}, []storage.Player{{UserID: bob.ID}, {UserID: carol.ID}}) +
		"🚫 <@" + dave.ID + "> is banned from gobot games on this server and was taken off their team.\n"
	if m, _ := e.d.Message(lobby.ID); !strings.Contains(m.Text(), want) {
		t.Errorf("the lobby after the ban and carol's Join = %q, want it to say %q", m.Text(), want)
	}
}

// banReadHold is the store with the first reads of one user's ban held
// (hold): admins' bans of that user that all read it before any wrote.
type banReadHold struct {
	commands.Store
	user string
	*hold
}

func (h *banReadHold) Ban(ctx context.Context, guildID, userID string) (*storage.Ban, error) {
	b, err := h.Store.Ban(ctx, guildID, userID)
	if userID == h.user {
		h.wait(ctx)
	}
	return b, err
}

// TestE2EBansAtOnce: two admins ban one user at the same moment, both
// having read that no ban holds. The one written second replaces the
// first and says so, as a ban after another does, and the log shows the
// first ban replaced: no admin is told of a ban that is not the one in
// force, and the log never has two bans that both began from none.
func TestE2EBansAtOnce(t *testing.T) { onBothStores(t, testE2EBansAtOnce) }

func testE2EBansAtOnce(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	bea, carol := e.d.NewUser("bea"), e.d.NewUser("carol")
	bea.Permissions = discordtest.PermServerAdmin
	e.wrapStore = func(s commands.Store) commands.Store {
		return &banReadHold{Store: s, user: carol.ID, hold: newHold(2)}
	}
	e.restart()
	now := e.clock.Now()
	day := now.Add(24 * time.Hour).Unix()
	its := []*discordtest.Interaction{
		e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", carol), discordtest.Int("days", 1), discordtest.Str("reason", "A")),
		e.adminCmd(ch, bea, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "B")),
	}
	replies, errs := e.sendAtOnce(its)
	const rest = ": they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: %s\nThey have no game in play here."
	admins, reasons, untils := []discordtest.User{ann, bea}, []string{"A", "B"}, []string{fmt.Sprintf("until <t:%d:f>", day), "until an admin lifts it"}
	var first, second = -1, -1
	answers := make([]string, 2)
	for i := range its {
		if errs[i] != nil {
			t.Fatalf("ban %d: %v", i, errs[i])
		}
		answers[i] = e.answerOf(its[i], replies[i]).Text()
		switch answers[i] {
		case fmt.Sprintf("🚫 <@%s> is banned from gobot on this server %s"+rest, carol.ID, untils[i], reasons[i]):
			first = i
		case fmt.Sprintf("🚫 <@%s> was already banned from gobot on this server %s (by <@%s> <t:%d:f> — %s); the ban is now %s"+rest,
			carol.ID, untils[1-i], admins[1-i].ID, now.Unix(), reasons[1-i], untils[i], reasons[i]):
			second = i
		}
	}
	if first < 0 || second < 0 {
		t.Fatalf("the answers to two bans at once = %q, want a new ban and one that replaced it", answers)
	}
	e.said(e.adminCmd(ch, ann, "bans"), fmt.Sprintf("\nBanned on this server now: 1 user (page 1 of 1)\n<@%s> · %s · banned by <@%s> <t:%d:f> — %s",
		carol.ID, []string{fmt.Sprintf("until <t:%d:f> (<t:%d:R>)", day, day), "no end (until an admin lifts it)"}[second], admins[second].ID, now.Unix(), reasons[second]))
	log := e.do(e.adminCmd(ch, ann, "log")).Text()
	for _, want := range []string{
		fmt.Sprintf("<@%s> **ban** <@%s>: not banned → banned %s — %s", admins[first].ID, carol.ID, untils[first], reasons[first]),
		fmt.Sprintf("<@%s> **ban** <@%s>: banned %s → banned %s — %s", admins[second].ID, carol.ID, untils[first], untils[second], reasons[second]),
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log\n%s\nhas no %q", log, want)
		}
	}
	if n := strings.Count(log, "not banned →"); n != 1 {
		t.Errorf("the log has %d bans from none, want 1:\n%s", n, log)
	}
}
