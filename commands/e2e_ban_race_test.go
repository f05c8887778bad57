package commands_test

import (
	"context"
	"slices"
	"strings"
	"sync"
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
				"🚫 <@"+bob.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here. Reason: race\nThey have no game in play here.")
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
