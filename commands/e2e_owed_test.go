package commands_test

// A worker killed (kill -9) right after it committed a person's move,
// before the move's answer reached Discord: the move is stored, and the
// board it owes is shown by the next process all the same.

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// killAfterCommit is the store of a process killed right after its next
// write of a game, once armed: the write is committed, and from then on
// nothing the process sends reaches Discord (kill).
type killAfterCommit struct {
	commands.Store
	sw *killSwitch
}

func (s *killAfterCommit) UpdateGame(ctx context.Context, g *storage.Game) error {
	err := s.Store.UpdateGame(ctx, g)
	if err == nil {
		s.sw.fire()
	}
	return err
}

// killSwitch kills the process (its Discord stops answering) the first
// time it fires once armed.
type killSwitch struct {
	armed atomic.Bool
	kill  func()
}

func (k *killSwitch) fire() bool {
	if !k.armed.Swap(false) {
		return false
	}
	k.kill()
	return true
}

// restartArmed restarts the process with its store wrapped by wrap, which
// fires the switch where the process is to die, and arms it.
func (e *env) restartArmed(wrap func(commands.Store, *killSwitch) commands.Store) {
	var k *killable
	sw := &killSwitch{kill: func() { k.dead.Store(true) }}
	e.wrapDiscord = func(d commands.Discord) commands.Discord {
		k = &killable{Discord: d}
		return k
	}
	e.wrapStore = func(s commands.Store) commands.Store { return wrap(s, sw) }
	e.restart()
	sw.armed.Store(true)
}

// killAfterMove sends move, kills the process as soon as the move is
// committed, checks that the move is stored but that no board shows it
// (its answer is left "thinking…", the HTTP deferral being all that left
// the process), and starts another process on the same database.
func (e *env) killAfterMove(ch *discordtest.Channel, move *discordtest.Interaction, moves int, shows string) {
	e.t.Helper()
	e.killAfterMoveOnly(ch, move, moves, shows)
	e.start()
}

// killAfterMoveOnly is killAfterMove without the new process: another
// worker on the database (peer) carries on.
func (e *env) killAfterMoveOnly(ch *discordtest.Channel, move *discordtest.Interaction, moves int, shows string) {
	e.t.Helper()
	e.restartArmed(func(s commands.Store, sw *killSwitch) commands.Store { return &killAfterCommit{Store: s, sw: sw} })
	e.d.Do(move)
	e.waitMoves("the move committed", ch.ID, moves)
	_ = e.stopWithin(time.Second) // kill -9: what was in flight never arrives
	if m, _ := e.d.Original(move); !m.Deferred {
		e.t.Fatalf("the killed process answered the move: %q", m.Text())
	}
	for _, m := range e.d.Public(ch.ID) {
		if strings.Contains(m.Text(), shows) {
			e.t.Fatalf("the killed process showed the move: %q", m.Text())
		}
	}
}

// boardsSaying counts the public boards in channelID whose text has s.
func (e *env) boardsSaying(channelID, s string) int {
	n := 0
	for _, m := range e.d.Public(channelID) {
		if _, board := m.PNG(); board && !m.Deferred && strings.Contains(m.Text(), s) {
			n++
		}
	}
	return n
}

// TestE2EMoveOfAKilledWorker: a move committed by a process killed before
// its answer reached Discord is shown by the next process once the
// answer's time is up: the move's command, still "thinking…", becomes the
// board, which says the move and pings the player to move, once. It was
// never shown: the channel's newest board stayed at the move before, and
// the opponent was never told it was their turn.
func TestE2EMoveOfAKilledWorker(t *testing.T) {
	httpMode(t, func(t *testing.T, e *env) {
		ch, alice, bob := e.guildGame()
		e.do(e.play(ch, alice, "E5"))
		e.do(e.play(ch, bob, "D4"))
		move := e.play(ch, alice, "C3")
		e.killAfterMove(ch, move, 3, "**C3**")
		e.clock.Advance(commands.OwedBoardGrace + time.Second)
		m := e.d.Settled(move)
		want := "⚫ " + alice.Mention() + " played **C3**."
		if _, board := m.PNG(); !board || !strings.Contains(m.Text(), want) || !strings.Contains(m.Text(), "⚪ white to play: "+bob.Mention()) {
			t.Errorf("answer to the move (board %v) =\n%s\nwant the board with %q, white to play", board, m.Text(), want)
		}
		if !slices.Contains(m.Pings, bob.ID) {
			t.Errorf("the board pings %v, want bob, the player to move", m.Pings)
		}
		// Later deadlines post it no second time.
		e.clock.Advance(time.Hour)
		e.waitBoard(ch.ID, want)
		if n := e.boardsSaying(ch.ID, want); n != 1 {
			t.Errorf("the move's board was shown %d times, want once", n)
		}
		if g := e.game(ch.ID); g.Delivery.Owed != nil {
			t.Errorf("the board is still owed once shown: %+v", g.Delivery.Owed)
		}
		// And the game goes on from it.
		if r := e.do(e.play(ch, bob, "F6")); r.Ephemeral || !strings.Contains(r.Text(), "played **F6**") {
			t.Errorf("bob's next move = %q, want its board", r.Text())
		}
	})
}

// TestE2EMoveOfAKilledWorkerRetried: the player, whose move got no answer,
// sends it again before the next process shows it: instead of "It is not
// your turn", the first command, still "thinking…", becomes the move's
// board, pinging the opponent, and the player is told so; no board
// follows at the answer's deadline.
func TestE2EMoveOfAKilledWorkerRetried(t *testing.T) {
	httpMode(t, func(t *testing.T, e *env) {
		ch, alice, bob := e.guildGame()
		move := e.play(ch, alice, "E5")
		e.killAfterMove(ch, move, 1, "**E5**")
		e.clock.Advance(5 * time.Second)
		again := e.do(e.play(ch, alice, "E5"))
		if !again.Ephemeral || !strings.Contains(again.Text(), "Your move was played already") {
			t.Errorf("the move sent again = %q, want to be told it was played already", again.Text())
		}
		m := e.d.Settled(move)
		want := "⚫ " + alice.Mention() + " played **E5**."
		if _, board := m.PNG(); !board || !strings.Contains(m.Text(), want) || !slices.Contains(m.Pings, bob.ID) {
			t.Errorf("answer to the first move (board %v, pings %v) =\n%s\nwant the board with %q pinging bob", board, m.Pings, m.Text(), want)
		}
		e.clock.Advance(commands.OwedBoardGrace)
		e.do(e.slash(ch, bob, "board")) // a round trip: the scheduler has had its turn
		if n := e.boardsSaying(ch.ID, want); n != 1 {
			t.Errorf("the move's board was shown %d times, want once", n)
		}
	})
}

// TestE2EDraughtsMoveOfAKilledWorker: the same for a move of draughts.
func TestE2EDraughtsMoveOfAKilledWorker(t *testing.T) {
	httpMode(t, func(t *testing.T, e *env) {
		ch := e.d.GuildChannel("draughts")
		alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
		msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
		e.do(e.click(bob, msg, "accept"))
		e.waitBoard(ch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
		move := e.draughtsMove(ch, alice, "32-28")
		e.killAfterMove(ch, move, 1, "**32-28**")
		e.clock.Advance(commands.OwedBoardGrace + time.Second)
		m := e.d.Settled(move)
		want := "⚪ white " + alice.Mention() + " played **32-28**."
		if _, board := m.PNG(); !board || !strings.Contains(m.Text(), want) || !slices.Contains(m.Pings, bob.ID) {
			t.Errorf("answer to the move (board %v, pings %v) =\n%s\nwant the board with %q pinging bob", board, m.Pings, m.Text(), want)
		}
	})
}

// TestE2EMoveOfAKilledWorkerOnPostgres: two workers on one PostgreSQL, as
// the review that found it ran them: the one that committed the move is
// killed, and the other, which stays up, shows the move once.
func TestE2EMoveOfAKilledWorkerOnPostgres(t *testing.T) {
	t.Parallel()
	e := newEnvPostgres(t)
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "E5"))
	move := e.play(ch, bob, "D4")
	e.peer()
	e.killAfterMoveOnly(ch, move, 2, "**D4**")
	e.clock.Advance(commands.OwedBoardGrace + time.Second)
	m := e.d.Settled(move)
	want := "⚪ " + bob.Mention() + " played **D4**."
	if _, board := m.PNG(); !board || !strings.Contains(m.Text(), want) || !slices.Contains(m.Pings, alice.ID) {
		t.Errorf("answer to the move (board %v, pings %v) =\n%s\nwant the board with %q pinging alice", board, m.Pings, m.Text(), want)
	}
	if n := e.boardsSaying(ch.ID, want); n != 1 {
		t.Errorf("the move's board was shown %d times, want once", n)
	}
}

// killBeforeRecord is the store of a process killed, once armed, as it
// records its next board: the board is on Discord, its ID never stored.
type killBeforeRecord struct {
	commands.Store
	sw *killSwitch
}

func (s *killBeforeRecord) AddMessageID(ctx context.Context, channelID, gameID, messageID string) error {
	if s.sw.fire() {
		return errKilled
	}
	return s.Store.AddMessageID(ctx, channelID, gameID, messageID)
}

// TestE2EMoveOfAWorkerKilledAfterItsAnswer: a process killed after
// Discord showed its move's board, before it recorded it: the next process
// finds the board shown (the move's answer) and posts it no second time;
// the player who sends the move again is pointed to it, privately.
func TestE2EMoveOfAWorkerKilledAfterItsAnswer(t *testing.T) {
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "scheduler", true: "retry"}[retry], func(t *testing.T) { testKilledAfterAnswer(t, retry) })
	}
}

func testKilledAfterAnswer(t *testing.T, retry bool) {
	httpMode(t, func(t *testing.T, e *env) {
		ch, alice, bob := e.guildGame()
		e.do(e.play(ch, alice, "E5"))
		e.do(e.play(ch, bob, "D4"))
		e.restartArmed(func(s commands.Store, sw *killSwitch) commands.Store { return &killBeforeRecord{Store: s, sw: sw} })
		move := e.play(ch, alice, "C3")
		answer := e.do(move)
		want := "⚫ " + alice.Mention() + " played **C3**."
		if !strings.Contains(answer.Text(), want) {
			t.Fatalf("the move's answer = %q, want its board", answer.Text())
		}
		_ = e.stopWithin(time.Second)
		e.wrapDiscord, e.wrapStore = nil, nil
		e.start()
		if g := e.game(ch.ID); g.Delivery.Owed == nil {
			t.Fatalf("the board was recorded: the kill came too late to test anything")
		}
		if retry {
			e.clock.Advance(4 * time.Second) // past Discord's 3 s: a retry
			if r := e.do(e.play(ch, alice, "C3")); !r.Ephemeral || r.Text() != want+" Your move was played already: its board is above." {
				t.Errorf("alice's retry = %q (private %v), want %q privately", r.Text(), r.Ephemeral, want+" Your move was played already: its board is above.")
			}
		}
		e.clock.Advance(commands.OwedBoardGrace + time.Second)
		e.d.WaitFor("the owed board settled", func() bool { return e.game(ch.ID).Delivery.Owed == nil })
		time.Sleep(300 * time.Millisecond) // a second board, posted after its settling write
		if n := e.boardsSaying(ch.ID, want); n != 1 {
			t.Errorf("the move's board was shown %d times, want once", n)
		}
	})
}
