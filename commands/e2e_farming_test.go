package commands_test

// End-to-end tests of the farming cases found while playing (issue 32,
// "Ratings nobody can farm"), each made impossible: zero-move
// resignations, a 9-stone handicap on 9×9, bot levels starting at 1500,
// undo against the bot in rated games, and the wording about when a
// player is established.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// notRatedShort is the note of a 9×9 game that ended too early to count.
const notRatedShort = "Not rated: the game ended before each player had made 5 moves."

// TestE2EFarmingShortGames: resigning at once, twenty times, rates
// nobody, and the final message says why; so does a loss on time after
// two moves each (not annulled: recorded and counted, but not rated). A
// 9×9 game resigned after six moves each is rated.
func TestE2EFarmingShortGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for i := range 20 {
		e.startGame(ch, alice, bob, 9)
		final := e.do(e.slash(ch, bob, "resign"))
		if !strings.Contains(final.Text(), notRatedShort) || strings.Contains(final.Text(), "📈") {
			t.Fatalf("zero-move resignation %d: final message %q, want %q and no rating change", i+1, final.Text(), notRatedShort)
		}
	}
	for _, u := range []discordtest.User{alice, bob} {
		if got := e.rating(storage.GlobalPool, u.ID); got != "none" {
			t.Errorf("after 20 zero-move resignations %s is rated %s", u.Username, got)
		}
	}
	if m := e.do(e.slash(ch, alice, "stats")); !strings.Contains(m.Text(), "**20 games**: 20 won") || !strings.Contains(m.Text(), "· B+R · unrated ·") {
		t.Errorf("/go stats = %q, want the 20 games recorded and counted, unrated", m.Text())
	}

	// Out of time after two moves each: not annulled, not rated.
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	g := e.game(ch.ID)
	e.playOutTimed(ch, alice, bob, time.Second, opening9[:4])
	e.clock.Advance(14 * time.Second)
	if a := e.archived(ch.ID, g.ID); a.Result != "W+T" || a.Annulled || a.Rated {
		t.Fatalf("loss on time after 2 moves each: %s annulled=%v rated=%v, want W+T, counted, not rated", a.Result, a.Annulled, a.Rated)
	}
	if m := e.waitBoard(ch.ID, "ran out of time"); !strings.Contains(m.Text(), notRatedShort) {
		t.Errorf("loss on time after 2 moves each: %q, want %q", m.Text(), notRatedShort)
	}

	// Six moves each (twelve in all) on 9×9: rated.
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, append(append([]string{}, opening9...), "B2", "H8"))
	final := e.do(e.slash(ch, bob, "resign"))
	if want := "📈 Ratings on this server: <@" + alice.ID + "> 1500 → 1662 (+162) · <@" + bob.ID + "> 1500 → 1338 (−162)"; !strings.Contains(final.Text(), want) {
		t.Errorf("resigned after six moves each: %q, want %q", final.Text(), want)
	}
}

// TestE2EFarmingHandicap: the 9-stone 9×9 game against beginner that cost
// 464 points is refused when rated, with the reason and the table; it is
// accepted unrated. Two stones, the most a rated 9×9 game takes, are
// accepted, and a loss with them costs no more than an even game's: the
// 9×9 two-stone game between new players ends as an even one would,
// 1500 → 1338 and 1500 → 1662.
func TestE2EFarmingHandicap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.offer = withBeginner{e.players}
	e.restart()
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	refusal := "A rated game may give at most 9.5 ranks of head start; 9 handicap stones on 9×9 at komi 0.5 are 47.1 ranks for Black. " +
		"Rated games take up to 2 handicap stones on 9×9, 3 on 13×13 and 9 on 19×19 at komi 0.5; " +
		"play this one with `rated:false`, or with fewer stones or a komi nearer the ruleset's (`komi:` overrides the server's default)."
	nine := []discordtest.Option{discordtest.Str("level", "beginner"), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Int("handicap", 9)}
	e.refused(e.slash(dm, dave, "bot", nine...), refusal)
	if e.game(dm.ID) != nil {
		t.Fatalf("the refused bot game was started")
	}
	if m := e.do(e.slash(dm, dave, "bot", append(nine, discordtest.Bool("rated", false))...)); m.Ephemeral {
		t.Fatalf("the unrated 9-stone game was refused: %q", m.Text())
	}
	// It was unrated by choice, which its final message says, not its handicap.
	if final := e.do(e.slash(dm, dave, "resign")); strings.Contains(final.Text(), "📈") || strings.Contains(final.Text(), "handicap and komi") || !strings.Contains(final.Text(), "\nNot rated: the game was started unrated.\n") {
		t.Errorf("the unrated game's final message = %q, want it to say it was started unrated, and no ratings", final.Text())
	}

	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	challenge := func(stones int) *discordtest.Interaction {
		return e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Int("handicap", stones))
	}
	e.refused(challenge(3), "A rated game may give at most 9.5 ranks of head start; 3 handicap stones on 9×9 at komi 0.5 are 13.8 ranks for Black.")
	msg := e.newChallenge(challenge(2))
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the two-stone game", func() bool { return e.game(ch.ID) != nil })
	if g := e.game(ch.ID); g.First(engine.SideOf(engine.Black)).UserID != alice.ID || goOf(g).Handicap() != 2 {
		t.Fatalf("black is %s with %d stones, want alice with 2", g.First(engine.SideOf(engine.Black)).Name, goOf(g).Handicap())
	}
	// White moves first; five moves each on the edges, clear of the
	// handicap stones.
	for i, mv := range []string{"A1", "J1", "A3", "J3", "A5", "J5", "A7", "J7", "A9", "J9"} {
		who := bob
		if i%2 == 1 {
			who = alice
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("%s refused: %q", mv, m.Text())
		}
	}
	final := e.do(e.slash(ch, alice, "resign"))
	if want := "📈 Ratings on this server: <@" + alice.ID + "> 1500 → 1338 (−162) · <@" + bob.ID + "> 1500 → 1662 (+162)"; !strings.Contains(final.Text(), want) {
		t.Errorf("a two-stone 9×9 loss: %q, want the even game's %q", final.Text(), want)
	}
}

// TestE2EFarmingBotStart: beginner starts at 30k (536.5 ± 23.2), so a
// new player who beats it gains 3 points and beginner loses nothing that
// shows; its rank shows from the first game. A ratings rebuild gives the
// same values.
func TestE2EFarmingBotStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.offer = withBeginner{e.players}
	e.restart()
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	if m := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "beginner"), discordtest.Int("size", 9), discordtest.Str("color", "black"))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	var last discordtest.Message
	for _, mv := range []string{"A1", "B1", "C1", "D1", "E1", "F1"} {
		if last = e.do(e.play(dm, dave, mv)); last.Ephemeral {
			t.Fatalf("%s refused: %q", mv, last.Text())
		}
	}
	if want := "📈 Ratings: <@" + dave.ID + "> 1500 → 1503 (+3) · gobot (beginner) 536 → 536 (+0)"; !strings.Contains(last.Text(), want) {
		t.Errorf("beating beginner: %q, want %q", last.Text(), want)
	}
	if got := e.rating(storage.GlobalPool, dave.ID); got != "1502.7 ± 347.4" {
		t.Errorf("dave: %s, want 1502.7 ± 347.4", got)
	}
	if got := e.rating(storage.GlobalPool, "bot:beginner"); got != "536.4 ± 25.4" {
		t.Errorf("beginner: %s, want 536.4 ± 25.4", got)
	}
	pr, err := e.store.Rating(context.Background(), storage.GlobalPool, "bot:beginner")
	if err != nil || glicko.Rank(pr.Rating) != "30k" {
		t.Errorf("beginner's rank: %v, %v; want 30k from its first game", pr, err)
	}
	before := fmt.Sprint(*pr)
	rep, err := e.store.RebuildRatings(context.Background())
	if err != nil || rep.Games != 1 || rep.Changed != 0 || rep.Missing != 0 {
		t.Errorf("RebuildRatings = %+v, %v; want 1 game, nothing changed", rep, err)
	}
	if pr, _ := e.store.Rating(context.Background(), storage.GlobalPool, "bot:beginner"); fmt.Sprint(*pr) != before {
		t.Errorf("beginner after the rebuild: %v, want %s", *pr, before)
	}
}

// TestE2EFarmingUndo: undo against the bot is refused in a rated game,
// saying why, and works in an unrated one.
func TestE2EFarmingUndo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.botGame(dm, dave, "tester"))
	e.do(e.play(dm, dave, "E5"))
	e.refused(e.slash(dm, dave, "undo"), "There is no undo in a rated game against the bot: the bot cannot refuse, so every move could be tried until it works, and the rating would not say how you play. Start the game with `rated:false` to take back moves freely.")
	// The board offers no Undo button that would only be refused.
	if b, ok := e.board(dm.ID).Button("Undo"); ok {
		t.Errorf("the rated bot game's board has an Undo button: %+v", b)
	}
	e.do(e.slash(dm, dave, "resign"))

	e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Bool("rated", false)))
	// Before dave's first move there is nothing of his to take back.
	if _, ok := e.board(dm.ID).Button("Undo"); ok {
		t.Errorf("the board has an Undo button before dave has moved")
	}
	e.do(e.play(dm, dave, "E5"))
	if _, ok := e.board(dm.ID).Button("Undo"); !ok {
		t.Errorf("the unrated bot game's board has no Undo button")
	}
	if m := e.do(e.slash(dm, dave, "undo")); m.Ephemeral || !strings.Contains(m.Text(), "took back 2 moves") {
		t.Errorf("undo in an unrated bot game: %q", m.Text())
	}
}

// TestE2EFarmingEstablished: the help says when a player is established
// as the Glicko-2 arithmetic has it. Two new players who win in turn are
// established after seven games; a player who beats the same new player
// 21 times is still provisional (1893 ± 181, rank ?), as found while
// playing, which the help's "one-sided results take longer, or never get
// there" covers.
func TestE2EFarmingEstablished(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	help := e.do(e.slash(ch, e.d.NewUser("carol"), "help")).Text()
	if want := fmt.Sprintf("show `?` until the deviation is below 160: %d games for new players who win in turn; one-sided results take longer, or never get there.", glicko.GamesToEstablish()); !strings.Contains(help, want) {
		t.Errorf("/go help = %q, want it to say %q", help, want)
	}
	if !strings.Contains(help, "those ending before each player has made 5 moves (9×9), 7 (13×13), 10 (19×19)") ||
		!strings.Contains(help, "Rated games take up to 2, 3, 9 handicap stones on those sizes") {
		t.Errorf("/go help = %q, want the short games and the rated handicaps", help)
	}

	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	pa, pb := storage.Player{UserID: alice.ID, Name: "alice"}, storage.Player{UserID: bob.ID, Name: "bob"}
	// Seven games won in turn: both established.
	e.seedRatedGames(e.d.GuildID, pa, pb, 7)
	for _, u := range []discordtest.User{alice, bob} {
		if m := e.do(e.slash(ch, u, "stats")); strings.Contains(m.Text(), "rank ?") {
			t.Errorf("%s after 7 games won in turn: %q, want established", u.Username, m.Text())
		}
	}
	// Twenty-one straight wins of carol against dan: still provisional.
	carol, dan := e.d.NewUser("carol2"), e.d.NewUser("dan")
	pc, pd := storage.Player{UserID: carol.ID, Name: "carol2"}, storage.Player{UserID: dan.ID, Name: "dan"}
	for range 21 {
		e.seedRatedGames(e.d.GuildID, pc, pd, 1) // the first of a pair is Black and wins
	}
	if m := e.do(e.slash(ch, carol, "stats")); !strings.Contains(m.Text(), "This server: 1893 ± 181, rank ? · 21 rated games") {
		t.Errorf("/go stats after 21 straight wins = %q, want 1893 ± 181, rank ?", m.Text())
	}
}

// withBeginner offers the test levels and beginner, which plays as tester
// does and resigns once each side has made five moves (at move 12 as
// White, 11 as Black), so that beating it is a rated win.
type withBeginner struct{ *topLeft }

func (p withBeginner) Levels() []commands.Level {
	return append(p.topLeft.Levels(), commands.Level{Name: "beginner", Description: "about 30 kyu · plays as tester, resigns after five moves"})
}

func (p withBeginner) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	if level != "beginner" {
		return p.topLeft.GenMove(ctx, level, g)
	}
	if g.MoveCount() >= 11 {
		return engine.ResignMove(g.ToPlay()), nil
	}
	return p.topLeft.GenMove(ctx, "tester", g)
}

// TestE2EFarmingSamePair: the alt-account farm (a friend resigning after
// six moves each, game after game) rates three games between the same
// two people in 24 hours; the fourth is recorded and counted, not rated,
// and says when a rated game between them counts again. Other pairs are
// not held back, and after the day the pair is rated again.
func TestE2EFarmingSamePair(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	first := e.clock.Now().Add(time.Hour) // ratedGame finishes, then advances an hour
	for range commands.PairRatedLimit {
		e.ratedGame(ch, alice, bob)
	}
	before := e.rating(storage.GlobalPool, alice.ID)
	// The fourth challenge says already that the game will not be rated,
	// and why, in the final message's words.
	again := first.Add(-time.Hour).Add(commands.PairWindow)
	warning := fmt.Sprintf("Not rated if it ends before <t:%d:f>: <@%s> and <@%s> have finished 3 rated games against each other in the last 24 hours, the most that count (so that nobody can farm a rating).",
		again.Unix(), alice.ID, bob.ID)
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black")))
	invitation := bob.Mention() + ", " + alice.Mention() + " challenges you to a game of Go: 9×9, chinese rules: area scoring, positional superko, komi 7.5, Fischer: 3 days, +1 day per move, at most 7 days; " + alice.Mention() + " plays black."
	if want := invitation + "\n" + warning + "\nThe challenge expires <t:"; msg.Ephemeral || !strings.HasPrefix(msg.Text(), want) {
		t.Errorf("fourth challenge in a day = %q, want %q…", msg.Text(), want)
	}
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
	id := e.game(ch.ID).ID
	// Its first board says so too: the players look at the board, not
	// at the challenge above it.
	warned := "The game begins. Good luck, have fun!\n" + warning
	first4 := e.waitBoard(ch.ID, warned)
	e.playOut(ch, alice, bob, append(append([]string{}, opening9...), "B2", "H8"))
	final := e.do(e.slash(ch, bob, "resign"))
	want := fmt.Sprintf("Not rated: <@%s> and <@%s> have finished 3 rated games against each other in the last 24 hours, the most that count (so that nobody can farm a rating); a rated game between them counts again <t:%d:R>.",
		alice.ID, bob.ID, again.Unix())
	if !strings.Contains(final.Text(), want) || strings.Contains(final.Text(), "📈") {
		t.Errorf("fourth game in a day: %q, want %q", final.Text(), want)
	}
	// So does its rematch, which alice then withdraws.
	rematch := e.do(e.click(alice, final, "Rematch"))
	if want := bob.Mention() + ", " + alice.Mention() + " challenges you to a game of Go: 9×9, chinese rules: area scoring, positional superko, komi 7.5, Fischer: 3 days, +1 day per move, at most 7 days; " + alice.Mention() + " plays white.\n" +
		warning + "\nThe challenge expires <t:"; rematch.Ephemeral || !strings.HasPrefix(rematch.Text(), want) {
		t.Errorf("the rematch of the fourth game = %q, want %q…", rematch.Text(), want)
	}
	e.do(e.click(alice, rematch, "decline"))
	if a := e.archived(ch.ID, id); a.Rated || a.Annulled || a.Result != "B+R" {
		t.Errorf("fourth game archived rated=%v annulled=%v %s, want counted, unrated, B+R", a.Rated, a.Annulled, a.Result)
	}
	if got := e.rating(storage.GlobalPool, alice.ID); got != before {
		t.Errorf("the fourth game moved alice's rating: %s -> %s", before, got)
	}
	if m := e.do(e.slash(ch, alice, "stats")); !strings.Contains(m.Text(), "**4 games**: 4 won") {
		t.Errorf("/go stats = %q, want the four games counted", m.Text())
	}
	// An open challenge cannot know who will accept it; when bob does,
	// the first board warns them (the game is then aborted unplayed).
	open := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.Int("size", 9)))
	if strings.Contains(open.Text(), "Not rated") {
		t.Errorf("an open challenge = %q, want no warning", open.Text())
	}
	e.do(e.click(bob, open, "accept"))
	e.d.WaitFor("the open game to start", func() bool { return e.game(ch.ID) != nil })
	e.d.WaitFor("the open game's first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && m.ID != first4.ID && strings.Contains(m.Text(), warned) {
				return true
			}
		}
		return false
	})
	e.do(e.slash(ch, bob, "resign"))
	e.d.WaitFor("the open game to end", func() bool { return e.game(ch.ID) == nil })
	// Another opponent counts at once, and is not warned of; the same
	// pair after the day again.
	if m := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", carol))); strings.Contains(m.Text(), "Not rated") {
		t.Errorf("a challenge to another opponent = %q, want no warning", m.Text())
	} else {
		e.do(e.click(alice, m, "decline"))
	}
	e.ratedGame(ch, alice, carol)
	e.clock.Advance(commands.PairWindow)
	if m := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))); strings.Contains(m.Text(), "Not rated") {
		t.Errorf("a challenge to bob after the day = %q, want no warning", m.Text())
	} else {
		e.do(e.click(alice, m, "decline"))
	}
	e.ratedGame(ch, alice, bob)
}

// TestE2EFarmingSamePairAtOnce: six games between the same two people,
// in six channels, resigned at the same moment: three are rated, and the
// other three say truly that three were, and when a rated game between
// them counts again. The limit is decided where the game is rated, so
// games ending together cannot all pass it.
func TestE2EFarmingSamePairAtOnce(t *testing.T) { onBothStores(t, testE2EFarmingSamePairAtOnce) }

func testE2EFarmingSamePairAtOnce(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	var chs []*discordtest.Channel
	for i := range 6 {
		ch := e.d.GuildChannel(fmt.Sprint("game", i))
		e.startGame(ch, alice, bob, 9)
		e.playOut(ch, alice, bob, append(append([]string{}, opening9...), "B2", "H8"))
		chs = append(chs, ch)
	}
	again := e.clock.Now().Add(commands.PairWindow)
	limited := fmt.Sprintf("Not rated: <@%s> and <@%s> have finished 3 rated games against each other in the last 24 hours, the most that count (so that nobody can farm a rating); a rated game between them counts again <t:%d:R>.",
		alice.ID, bob.ID, again.Unix())
	texts := make([]string, len(chs))
	var wg sync.WaitGroup
	for i, ch := range chs {
		wg.Go(func() { texts[i] = e.do(e.slash(ch, bob, "resign")).Text() })
	}
	wg.Wait()
	rated, held := 0, 0
	for i, text := range texts {
		switch {
		case strings.Contains(text, "📈"):
			rated++
		case strings.Contains(text, limited):
			held++
		default:
			t.Errorf("game %d ended with %q, want the rating changes or %q", i, text, limited)
		}
	}
	if rated != commands.PairRatedLimit || held != len(chs)-commands.PairRatedLimit {
		t.Errorf("%d of six games resigned at once rated, %d held back; want 3 and 3", rated, held)
	}
	if pr, err := e.store.Rating(context.Background(), storage.GlobalPool, alice.ID); err != nil || pr.Games != commands.PairRatedLimit {
		t.Errorf("alice's global rating = %+v, %v; want 3 rated games", pr, err)
	}
}
