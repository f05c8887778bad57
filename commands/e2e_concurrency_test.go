package commands_test

// Scenarios of many things at once: racing moves, restarts with games in
// progress, concurrent and many games. The harness is in
// e2e_harness_test.go.

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

// TestE2ERace sends two moves at once for the player to move, and two
// presses of the same Pass button: exactly one of each is applied.
func TestE2ERace(t *testing.T) { bothModes(t, testE2ERace) }

func testE2ERace(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()

	race := func(its ...*discordtest.Interaction) []*discordtest.Reply {
		replies := make([]*discordtest.Reply, len(its))
		errs := make([]error, len(its))
		var wg sync.WaitGroup
		for i, it := range its {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i], errs[i] = e.d.Send(it)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		return replies
	}

	for round := 0; round < 3; round++ {
		before := goOf(e.game(ch.ID)).MoveCount()
		who := alice
		if before%2 == 1 {
			who = bob
		}
		a, b := fmt.Sprintf("C%d", 3+round), fmt.Sprintf("G%d", 3+round)
		its := []*discordtest.Interaction{e.play(ch, who, a), e.play(ch, who, b)}
		race(its...)
		var texts []string
		for _, it := range its {
			var m discordtest.Message
			e.d.WaitFor("both racing moves to be answered", func() bool {
				var ok bool
				m, ok = e.d.Original(it)
				return ok && !m.Deferred
			})
			texts = append(texts, m.Text())
		}
		g := e.game(ch.ID)
		if g.State.MoveCount() != before+1 {
			t.Fatalf("round %d: %d moves applied, want exactly 1 (answers %q)", round, g.State.MoveCount()-before, texts)
		}
		placed := 0
		for _, p := range []string{a, b} {
			if at(g, p) != engine.Empty {
				placed++
			}
		}
		if placed != 1 {
			t.Errorf("round %d: %d of %s, %s hold stones, want 1", round, placed, a, b)
		}
	}

	// Two presses of one Pass button.
	latest := e.board(ch.ID)
	g := e.game(ch.ID)
	toPlay := alice
	if goOf(g).ToPlay() == engine.White {
		toPlay = bob
	}
	before := g.State.MoveCount()
	b, _ := latest.Button("pass")
	race(e.d.Click(toPlay, latest, b.CustomID), e.d.Click(toPlay, latest, b.CustomID))
	e.d.WaitFor("the pass to be stored", func() bool { return goOf(e.game(ch.ID)).MoveCount() > before })
	if n := goOf(e.game(ch.ID)).MoveCount() - before; n != 1 {
		t.Errorf("two presses of one Pass button applied %d passes", n)
	}
}

// TestE2ERestart stops the bot in the middle of a game and starts a new
// process on the same database: the game goes on, old buttons still work.
func TestE2ERestart(t *testing.T) { httpMode(t, testE2ERestart) }

func testE2ERestart(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "C3"))
	board := e.board(ch.ID)

	e.restart()

	g := e.game(ch.ID)
	if g == nil || g.State.MoveCount() != 2 || at(g, "E5") != engine.Black || at(g, "C3") != engine.White {
		t.Fatalf("after restart the game is not as it was")
	}
	e.refused(e.play(ch, bob, "D4"), "not your turn")
	if m := e.do(e.play(ch, alice, "G7")); m.Ephemeral {
		t.Fatalf("move after restart refused: %q", m.Text())
	}
	// The board from before the restart is stale by one move now.
	e.refused(e.click(bob, board, "pass"), "old board")
	if m := e.do(e.click(bob, e.board(ch.ID), "pass")); m.Ephemeral {
		t.Errorf("pass after restart refused: %q", m.Text())
	}
	if n := goOf(e.game(ch.ID)).MoveCount(); n != 4 {
		t.Errorf("%d moves after the restart, want 4", n)
	}
}

// TestE2EConcurrentGames: while the bot thinks in one DM, a game between two
// people in a server channel goes on; the thinking bot's interaction is
// deferred in time and edited when the move comes.
func TestE2EConcurrentGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	frank := e.d.NewUser("frank")
	dm := e.d.DM(frank)
	slow := e.botGame(dm, frank, "slow")
	type result struct {
		r   *discordtest.Reply
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := e.d.Send(slow)
		done <- result{r, err}
	}()

	ch, alice, bob := e.guildGame()
	e.playOut(ch, alice, bob, []string{"E5", "C3", "G7", "C7"}) // while the bot thinks elsewhere
	if n := goOf(e.game(ch.ID)).MoveCount(); n != 4 {
		t.Fatalf("%d moves in the human game, want 4", n)
	}
	if g := e.game(dm.ID); g == nil || g.State.MoveCount() != 0 {
		t.Fatalf("the slow bot's game should be waiting for its first move")
	}

	res := <-done // the bot answered within its deadline, before moving
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Errorf("while thinking, the bot answered type %d, want 5 (deferred)", res.r.Type)
	}
	close(e.players.gate)
	m := e.d.Settled(slow)
	if g := e.game(dm.ID); g.State.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Errorf("after thinking the bot has not played A9")
	}
	if _, ok := m.PNG(); !ok {
		t.Errorf("the deferred answer was not edited into a board: %q", m.Text())
	}
}

// TestE2EManyGames: eight players each start a bot game in their DM and
// play at the same time; every game ends up with exactly its moves.
func TestE2EManyGames(t *testing.T) { httpMode(t, testE2EManyGames) }

func testE2EManyGames(t *testing.T, e *env) {
	const players, moves = 8, 3
	type player struct {
		u  discordtest.User
		dm *discordtest.Channel
	}
	ps := make([]player, players)
	for i := range ps {
		u := e.d.NewUser(fmt.Sprintf("player%d", i))
		ps[i] = player{u, e.d.DM(u)}
	}
	// settle waits for an interaction's final answer without touching t,
	// so it can run in any goroutine.
	settle := func(it *discordtest.Interaction) (discordtest.Message, error) {
		r, err := e.d.Send(it)
		if err != nil {
			return discordtest.Message{}, err
		}
		if r.Status != http.StatusOK {
			return discordtest.Message{}, fmt.Errorf("HTTP %d", r.Status)
		}
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			if m, ok := e.d.Original(it); ok && !m.Deferred {
				return m, nil
			}
			time.Sleep(20 * time.Millisecond)
		}
		return discordtest.Message{}, fmt.Errorf("no answer to %s", it.ID)
	}
	errs := make(chan error, players)
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m, err := settle(e.slash(p.dm, p.u, "bot", discordtest.Int("size", 9), discordtest.Str("color", "black"))); err != nil || m.Ephemeral {
				errs <- fmt.Errorf("%s: /go bot: %v %q", p.u.Username, err, m.Text())
				return
			}
			for _, mv := range []string{"E5", "D4", "F6"}[:moves] {
				if m, err := settle(e.play(p.dm, p.u, mv)); err != nil || m.Ephemeral {
					errs <- fmt.Errorf("%s: %s: %v %q", p.u.Username, mv, err, m.Text())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range ps {
		g := e.game(p.dm.ID)
		if g == nil {
			t.Errorf("%s has no game", p.u.Username)
			continue
		}
		if g.State.MoveCount() != 2*moves {
			t.Errorf("%s's game has %d moves, want %d", p.u.Username, g.State.MoveCount(), 2*moves)
			continue
		}
		if at(g, "E5") != engine.Black || at(g, "A9") != engine.White {
			t.Errorf("%s's game does not hold its own moves", p.u.Username)
		}
	}
}
