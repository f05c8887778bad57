package commands_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// countHold is the store with the first reads of one player's active
// games held (hold): starts that all passed the count of /go-admin's
// max_games before any of them created its game.
type countHold struct {
	commands.Store
	key string
	*hold
}

func (h *countHold) PlayerActiveGames(ctx context.Context, key string) ([]*storage.Game, error) {
	gs, err := h.Store.PlayerActiveGames(ctx, key)
	if key == h.key {
		h.wait(ctx)
	}
	return gs, err
}

// TestE2EMaxGamesAtOnce: a server's limit of games at once holds when a
// player starts games in four channels at the same moment (all four
// counted the player's games before any started): one game starts and
// the three others are refused, saying the limit. A limit lowered below
// the games a player has is named as it is.
func TestE2EMaxGamesAtOnce(t *testing.T) { onBothStores(t, testE2EMaxGamesAtOnce) }

func testE2EMaxGamesAtOnce(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice := e.d.NewUser("alice")
	general := e.d.GuildChannel("general")
	e.do(e.set(general, ann, "max_games", "1"))
	e.wrapStore = func(s commands.Store) commands.Store {
		return &countHold{Store: s, key: alice.ID, hold: newHold(4)}
	}
	e.restart()

	var its []*discordtest.Interaction
	for i := range 4 {
		ch := e.d.GuildChannel(fmt.Sprint("room", i))
		its = append(its, e.slash(ch, alice, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "black")))
	}
	replies, errs := e.sendAtOnce(its)
	started := 0
	for i, it := range its {
		if errs[i] != nil || replies[i].Status != http.StatusOK {
			t.Fatalf("/go bot %d: %v (%+v)", i, errs[i], replies[i])
		}
		m := e.deferredAnswer(it)
		if replies[i].Type == discordtest.CallbackChannelMessageWithSource {
			m = *replies[i].Message
		}
		if e.game(it.Channel.ID) != nil {
			started++
			continue
		}
		if want := "You already play 1 game on this server, the most its admins allow at once: finish one first."; !m.Ephemeral || m.Text() != want {
			t.Errorf("refused /go bot: answer (private %v) = %q, want %q", m.Ephemeral, m.Text(), want)
		}
	}
	if started != 1 {
		t.Fatalf("%d of alice's four /go bot at once started a game, want 1 (max_games 1)", started)
	}

	// Two games under a limit of 2, then the limit lowered to 1.
	e.do(e.set(general, ann, "max_games", "2"))
	if m := e.do(e.slash(e.d.GuildChannel("room4"), alice, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "black"))); m.Ephemeral {
		t.Fatalf("a second game under a limit of 2 was refused: %q", m.Text())
	}
	e.do(e.set(general, ann, "max_games", "1"))
	e.said(e.slash(e.d.GuildChannel("room5"), alice, "bot", discordtest.Str("level", "tester")),
		"You already play 2 games on this server; its admins allow 1 at once: finish one first.")
}
