package commands_test

// The power user's and the challenge flows' answers: one person with
// games in a channel and in its threads, several challenges at once, and
// what the lists, refusals and challenges say to them.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
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

// TestE2EAcceptOwnChallenge: a challenger who presses Accept on their own
// challenge learns that Decline withdraws it; a stranger is told whose
// challenge it is to answer; the challenge stays open.
func TestE2EAcceptOwnChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob, cat := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cat")
	msg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	e.said(e.click(ann, msg, "accept"), "This is your own challenge: only "+bob.Mention()+" can accept it. Press Decline to withdraw it.")
	e.said(e.click(cat, msg, "accept"), "Only "+bob.Mention()+" can answer this challenge.")
	if _, err := e.store.Challenge(context.Background(), msg.InteractionID); err != nil {
		t.Errorf("the challenge after the refused Accepts: %v, want it open", err)
	}
	if m := e.do(e.click(ann, msg, "decline")); !strings.Contains(m.Text(), "↩️ "+ann.Mention()+" withdrew the challenge.") {
		t.Errorf("the challenger's Decline = %q, want the challenge withdrawn", m.Text())
	}
}

// TestE2ENoGameYetThreadChallenge: in a channel whose only news is a
// challenge with thread:true, the answer to a command for a game says
// that the game will start in a new thread of this channel, not here, and
// names the challenge as one to a game of Go (not "your challenge to Go").
func TestE2ENoGameYetThreadChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob, cat := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cat")
	e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.said(e.play(ch, ann, "E5"), "There is no game in this channel: your challenge to a game of Go is waiting for "+bob.Mention()+" to accept it; the game will then start in a new thread of this channel.")
	e.said(e.slash(ch, bob, "board"), "There is no game in this channel: "+ann.Mention()+" challenged you to a game of Go. Accept with the button on the challenge to start it in a new thread of this channel.")
	e.said(e.slash(ch, cat, "board"), "There is no game in this channel: "+ann.Mention()+" challenged "+bob.Mention()+" to a game of Go, and the game starts in a new thread of this channel when they accept.")
	here := e.d.GuildChannel("here")
	e.newChallenge(e.slash(here, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	e.said(e.play(here, ann, "E5"), "There is no game in play in this channel: your challenge to a game of Go is waiting for "+bob.Mention()+" to accept it.")
}

// TestE2EHandicapColoursEqualRatings: a handicap challenge without a
// colour between two players rated the same does not promise Black to a
// lower-rated player that is not there: it says the colours are then
// drawn, and the game's start says who got Black and why.
func TestE2EHandicapColoursEqualRatings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Int("handicap", 2), discordtest.Bool("rated", false)))
	if want := "; the lower-rated player takes black, or colours are drawn at random if the ratings are equal; unrated."; !strings.Contains(msg.Text(), want) {
		t.Errorf("handicap challenge = %q, want it to say %q", msg.Text(), want)
	}
	start := e.do(e.click(bob, msg, "accept"))
	if want := " ⚪ white. Equal ratings (1500 each): colours drawn at random."; !strings.Contains(start.Text(), want) {
		t.Errorf("the accepted challenge = %q, want it to say %q", start.Text(), want)
	}
}

// threadGame has ann challenge opp in ch with thread:true (9×9) and opp
// accept; it returns the game's thread once the game is stored and its
// first board posted there (the Accept's answer comes before that board,
// which a later check of the thread's public messages would count).
func (e *env) threadGame(ch *discordtest.Channel, ann, opp discordtest.User) *discordtest.Channel {
	e.t.Helper()
	before := len(e.d.Threads(ch.ID))
	msg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", opp), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.do(e.click(opp, msg, "accept"))
	var th *discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		threads := e.d.Threads(ch.ID)
		if len(threads) == before+1 {
			th = threads[before]
		}
		return th != nil && e.game(th.ID) != nil
	})
	e.waitBoard(th.ID, "The game begins.")
	return th
}

// TestE2EBoardAfterGameWithThread: a player whose game in a channel just
// ended, and who plays another in a thread of it, sees the finished game
// with /go board there, as everyone does (told where the thread's game
// is), and a move sent there is told that the game here ended, and where
// the thread's game is; it was told only to go to the thread.
func TestE2EBoardAfterGameWithThread(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob, cat := e.d.NewUser("ann"), e.d.NewUser("bob"), e.d.NewUser("cat")
	th := e.threadGame(ch, ann, cat)
	e.challenge(ch, ann, bob)
	e.playOut(ch, ann, bob, []string{"E5", "C3", "D5", "C4"})
	e.do(e.slash(ch, bob, "resign"))
	const ended = "The last game of Go in this channel ended <t:"
	mine := e.do(e.slash(ch, ann, "board"))
	if want := "Your game in play is in this channel's thread <#" + th.ID + ">."; mine.Ephemeral || mine.Content != want || !strings.Contains(mine.Text(), ended) || !strings.Contains(mine.Text(), "**Game over: ⚫ "+ann.Mention()+" wins by resignation · B+R**") {
		t.Errorf("ann's /go board in the channel (private %v) =\n%s\nwant in public %q and the finished game", mine.Ephemeral, mine.Text(), want)
	}
	if m := e.do(e.slash(ch, bob, "board")); m.Ephemeral || m.Content != "" || !strings.Contains(m.Text(), ended) {
		t.Errorf("bob's /go board in the channel (private %v) =\n%s\nwant the finished game in public", m.Ephemeral, m.Text())
	}
	at := e.clock.Now().Unix()
	e.said(e.play(ch, ann, "E6"), fmt.Sprintf("Your game here ended <t:%d:R>: B+R. `/go board` shows it. Your game in play is in this channel's thread <#%s>.", at, th.ID))
	e.said(e.play(ch, bob, "E6"), fmt.Sprintf("Your game here ended <t:%d:R>: B+R. `/go board` shows it.", at))
	e.said(e.play(ch, cat, "E6"), "There is no game in this channel itself: your game is in its thread <#"+th.ID+">. Run the command there.")
}

// TestE2EFinishedGameCommandsForGameInPlay: /go sgf, /go replay and /go
// estimate in a channel where nothing has finished, from a player whose
// game is in play in a thread of it, say where that game is, and so do
// they for its ID named with game:; they said there was no such game.
func TestE2EFinishedGameCommandsForGameInPlay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	th := e.threadGame(ch, ann, bob)
	id := e.game(th.ID).ID
	in := "your game in its thread <#" + th.ID + "> is still being played"
	e.refused(e.slash(ch, ann, "sgf"), "No game has been played to the end in this channel itself: "+in+". Run `/go sgf` there.")
	e.refused(e.slash(ch, ann, "estimate"), "No game has been played to the end in this channel itself: "+in+". Run `/go estimate` there.")
	e.refused(e.slash(ch, ann, "replay"), "No game has been played to the end in this channel itself: "+in+", and `/go replay` takes a finished game. Name one with `game:` (it suggests your recent games), or see `/go history`.")
	named := discordtest.Str("game", id)
	e.refused(e.slash(ch, ann, "sgf", named), "Game `"+id+"` is not over yet: it is being played in <#"+th.ID+">. Run `/go sgf` there without `game:`.")
	e.refused(e.slash(ch, bob, "replay", named), "Game `"+id+"` is not over yet: it is being played in <#"+th.ID+">, and `/go replay` takes a finished game. Run it once the game has ended.")
	e.refused(e.slash(th, ann, "sgf", named), "Game `"+id+"` is not over yet: it is being played here. Run `/go sgf` here without `game:`.")
	if m := e.do(e.slash(th, ann, "sgf")); !strings.HasPrefix(m.Text(), "Game record after 0 moves") {
		t.Errorf("/go sgf in the thread = %q, want the record so far", m.Text())
	}
	// Someone else, who plays nothing here, is told as before without
	// game:; naming the game, that it is not over and where it is played
	// (TestE2ENamedGameInPlay), as its players are.
	cat := e.d.NewUser("cat")
	e.refused(e.slash(ch, cat, "sgf"), "No game has been played to the end in this channel yet: name one with `game:` (it suggests your recent games), or see `/go history`.")
	e.refused(e.slash(ch, cat, "sgf", named), "Game `"+id+"` is not over yet: it is being played in <#"+th.ID+">. Run `/go sgf` there without `game:`.")
}

// TestE2EThreadAcceptsAtLimit: four challenges with thread:true accepted
// at the same moment by a player at the server's limit of one game at
// once (all four counted the player's games before any game started):
// one game starts in its thread; the three other threads, made before
// the store refused their games, say why in one line and are archived,
// and the challenges stay open. They stayed empty and unexplained.
func TestE2EThreadAcceptsAtLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin, _, _ := e.admins()
	ann := e.d.NewUser("ann")
	e.do(e.set(e.d.GuildChannel("general"), admin, "max_games", "1"))
	var chs []*discordtest.Channel
	var msgs []discordtest.Message
	for i := range 4 {
		ch := e.d.GuildChannel(fmt.Sprint("room", i))
		o := e.d.NewUser(fmt.Sprint("o", i))
		chs = append(chs, ch)
		msgs = append(msgs, e.newChallenge(e.slash(ch, o, "challenge", discordtest.UserOpt("opponent", ann), discordtest.Int("size", 9), discordtest.Bool("thread", true))))
	}
	e.wrapStore = func(s commands.Store) commands.Store {
		return &countHold{Store: s, key: ann.ID, hold: newHold(4)}
	}
	e.restart()
	its := make([]*discordtest.Interaction, len(msgs))
	for i, m := range msgs {
		its[i] = e.click(ann, m, "accept")
	}
	replies, errs := e.sendAtOnce(its)
	started := 0
	for i, ch := range chs {
		if errs[i] != nil || replies[i].Status != http.StatusOK {
			t.Fatalf("Accept %d: %v (%+v)", i, errs[i], replies[i])
		}
		threads := e.d.Threads(ch.ID)
		if len(threads) != 1 {
			t.Fatalf("%d threads in %s, want the one of the Accept", len(threads), ch.Name)
		}
		th := threads[0]
		if e.game(th.ID) != nil {
			started++
			if th.Archived {
				t.Errorf("the thread of the game that started is archived")
			}
			continue
		}
		m := e.answerOf(its[i], replies[i])
		if want := "You already play 1 game on this server, the most its admins allow at once: finish one first."; !m.Ephemeral || m.Text() != want {
			t.Errorf("refused Accept %d: answer (private %v) = %q, want %q", i, m.Ephemeral, m.Text(), want)
		}
		want := "⚠️ This game did not start: " + ann.Mention() + " already plays 1 game on this server, the most its admins allow at once. The challenge is still open in <#" + ch.ID + ">."
		if posted := e.d.Public(th.ID); len(posted) != 1 || posted[0].Text() != want || len(posted[0].Pings) != 0 {
			t.Errorf("the thread of refused Accept %d holds %d messages (%+v), want one: %q, pinging nobody", i, len(posted), posted, want)
		}
		if !th.Archived {
			t.Errorf("the thread of refused Accept %d is not archived", i)
		}
		if _, err := e.store.Challenge(context.Background(), msgs[i].InteractionID); err != nil {
			t.Errorf("the challenge of refused Accept %d: %v, want it open", i, err)
		}
	}
	if started != 1 {
		t.Errorf("%d of four Accepts at once started a game, want 1 (max_games 1)", started)
	}
	e.noProblems()
}

// lostAck is a store whose AcceptChallenge commits and then reports an
// error, as a PostgreSQL commit whose acknowledgement was lost does.
type lostAck struct{ commands.Store }

func (s lostAck) AcceptChallenge(ctx context.Context, id string, g *storage.Game) error {
	if err := s.Store.AcceptChallenge(ctx, id, g); err != nil {
		return err
	}
	return errors.New("read tcp: connection reset by peer")
}

// TestE2EThreadKeptAfterUnclearAccept: a thread:true game whose Accept
// ended in an error that is no refusal (the commit may have happened) is
// not told that its game did not start, nor archived: here the game did
// start, and its thread is where it is played.
func TestE2EThreadKeptAfterUnclearAccept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.wrapStore = func(s commands.Store) commands.Store { return lostAck{s} }
	e.restart()
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.do(e.click(bob, msg, "accept"))
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the game's", len(threads))
	}
	th := threads[0]
	if e.game(th.ID) == nil {
		t.Fatalf("the game was not stored in its thread")
	}
	for _, m := range e.d.Messages(th.ID) {
		if strings.Contains(m.Text(), "did not start") {
			t.Errorf("the thread of a game that started says %q", m.Text())
		}
	}
	if got, _ := e.d.Channel(th.ID); got.Archived {
		t.Errorf("the thread of a game that started is archived")
	}
}

// TestE2EReviewDuringFirstGame: /go review and /go replay in a channel
// whose first game is still being played say so; they answered "No game
// has been played to the end in this channel yet", as if there were none.
func TestE2EReviewDuringFirstGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, alice, _ := e.guildGame()
	e.refused(e.slash(ch, alice, "review"), "The game in this channel is still being played, and `/go review` takes a finished game: run it once the game is over, or name another with `game:`.")
	e.refused(e.slash(ch, alice, "replay"), "The game in this channel is still being played, and `/go replay` takes a finished game")
}
