package commands_test

// The power user's and the challenge flows' answers: one person with
// games in a channel and in its threads, several challenges at once, and
// what the lists, refusals and challenges say to them.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EAdminGamesRengoLobby: /go-admin games lists a rengo lobby as
// one, not as "Challenge by @bob rengo lobby", a sentence cut in two.
func TestE2EAdminGamesRengoLobby(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	bob := e.d.NewUser("bob")
	lobby := e.newChallenge(e.slash(ch, bob, "rengo", discordtest.Int("size", 9), discordtest.Bool("thread", false)))
	c, err := e.store.Challenge(context.Background(), lobby.InteractionID)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("📨 Rengo lobby by %s · 9×9 · in <#%s> · expires <t:%d:R> · `%s`", bob.Mention(), ch.ID, c.ExpiresAt.Unix(), c.ID)
	if list := e.do(e.adminCmd(ch, ann, "games")); !strings.Contains(list.Text(), want) {
		t.Errorf("/go-admin games =\n%s\nwant the line\n%s", list.Text(), want)
	}
}
