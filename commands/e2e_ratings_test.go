package commands_test

// End-to-end tests of ratings: rated and unrated games, bot games, the
// handicap colour, /go stats, /go leaderboard and the ratings rebuild.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/storage"
)

// opening9 are ten moves of a 9×9 game, five for each player from Black:
// enough for the game to be rated (storage.MinRatedMoves).
var opening9 = []string{"C3", "G7", "C7", "G3", "E5", "E3", "E7", "C5", "G5", "D7"}

// rating reads a player's rating in a pool as "1662.3 ± 290.3", or "none".
func (e *env) rating(pool, key string) string {
	e.t.Helper()
	pr, err := e.store.Rating(context.Background(), pool, key)
	if errors.Is(err, storage.ErrNotFound) {
		return "none"
	}
	if err != nil {
		e.t.Fatalf("Rating(%s, %s): %v", pool, key, err)
	}
	return fmt.Sprintf("%.1f ± %.1f", pr.Rating.Rating, pr.RD)
}

func TestE2ERatings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	server := storage.GuildPool(e.d.GuildID)

	// An unrated game changes nothing.
	msg := e.newChallenge(e.slash(ch, bob, "challenge", discordtest.UserOpt("opponent", alice), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Bool("rated", false)))
	if !strings.Contains(msg.Text(), "unrated") {
		t.Errorf("the unrated challenge does not say so: %q", msg.Text())
	}
	e.do(e.click(alice, msg, "accept"))
	e.d.WaitFor("the unrated game", func() bool { return e.game(ch.ID) != nil })
	e.do(e.slash(ch, alice, "resign"))
	for _, u := range []discordtest.User{alice, bob} {
		if got := e.rating(storage.GlobalPool, u.ID); got != "none" {
			t.Errorf("after an unrated game %s is rated %s", u.Username, got)
		}
	}

	// Two new players: the winner goes to 1662.3, the loser to 1337.7, in
	// the server's pool and the global one.
	// bob resigns as black: alice wins, and the final message says how the
	// ratings moved.
	// (Each has made five moves: a game that ends sooner is not rated.)
	e.startGame(ch, bob, alice, 9)
	e.playOut(ch, bob, alice, opening9)
	final := e.do(e.slash(ch, bob, "resign"))
	if want := "📈 Ratings on this server: <@" + bob.ID + "> 1500 → 1338 (−162) · <@" + alice.ID + "> 1500 → 1662 (+162)"; !strings.Contains(final.Text(), want) {
		t.Errorf("final message %q, want it to say %q", final.Text(), want)
	}
	for _, pool := range []string{server, storage.GlobalPool} {
		if got := e.rating(pool, alice.ID); !strings.HasPrefix(got, "1662.3 ± ") {
			t.Errorf("alice in %s: %s, want 1662.3", pool, got)
		}
		if got := e.rating(pool, bob.ID); !strings.HasPrefix(got, "1337.7 ± ") {
			t.Errorf("bob in %s: %s, want 1337.7", pool, got)
		}
	}
	m := e.do(e.slash(ch, alice, "stats"))
	for _, want := range []string{"This server: 1662 ± 290, rank ? · 1 rated game", "Global: 1662 ± 290, rank ? · 1 rated game",
		"2 games**: 1 won, 1 lost", "9×9: 1 won, 1 lost", "Streak: 1 win in a row",
		"⚪ won vs <@" + bob.ID + "> · 9×9 · W+R · rated", "⚪ lost vs <@" + bob.ID + "> · 9×9 · B+R · unrated"} {
		if !strings.Contains(m.Text(), want) {
			t.Errorf("/go stats = %q, want it to say %q", m.Text(), want)
		}
	}

	// A handicap challenge without a colour gives Black to the lower-rated
	// player, whoever challenges; handicap 1 too (no stones: Black moves
	// first at komi 0.5).
	msg = e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Int("handicap", 1), discordtest.Bool("rated", false)))
	if !strings.Contains(msg.Text(), "komi 0.5") || !strings.Contains(msg.Text(), "the lower-rated player takes black") {
		t.Errorf("handicap 1 challenge = %q, want komi 0.5 and black to the lower-rated player", msg.Text())
	}
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the handicap 1 game", func() bool { return e.game(ch.ID) != nil })
	if g := e.game(ch.ID); g.First(engine.SideOf(engine.Black)).UserID != bob.ID || goOf(g).Handicap() != 0 {
		t.Errorf("handicap 1: black is %s with %d stones, want bob with none", g.First(engine.SideOf(engine.Black)).Name, goOf(g).Handicap())
	}
	e.do(e.slash(ch, alice, "resign"))
	for _, challenger := range []discordtest.User{alice, bob} {
		opp := bob
		if challenger == bob {
			opp = alice
		}
		msg := e.newChallenge(e.slash(ch, challenger, "challenge", discordtest.UserOpt("opponent", opp), discordtest.Int("size", 9), discordtest.Int("handicap", 2)))
		if !strings.Contains(msg.Text(), "the lower-rated player takes black") {
			t.Errorf("handicap challenge = %q", msg.Text())
		}
		start := e.do(e.click(opp, msg, "accept"))
		if want := "Black to the lower-rated player: " + bob.Mention() + " 1338 against " + alice.Mention() + " 1662."; !strings.Contains(start.Text(), want) {
			t.Errorf("%s's handicap challenge accepted = %q, want it to say %q", challenger.Username, start.Text(), want)
		}
		e.d.WaitFor("the handicap game", func() bool { return e.game(ch.ID) != nil })
		if g := e.game(ch.ID); g.First(engine.SideOf(engine.Black)).UserID != bob.ID {
			t.Errorf("%s's handicap challenge: black is %s, want bob (1337.7 against 1662.3)", challenger.Username, g.First(engine.SideOf(engine.Black)).Name)
		}
		e.do(e.slash(ch, alice, "resign"))
	}

	// A bot game counts in the global pool only, with the level as a player.
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.botGame(dm, dave, "tester"))
	for _, mv := range []string{"A1", "B1", "C1", "D1", "E1"} {
		e.do(e.play(dm, dave, mv))
	}
	if m := e.do(e.slash(dm, dave, "resign")); !strings.Contains(m.Text(), "📈 Ratings: ") || !strings.Contains(m.Text(), "<@"+dave.ID+"> 1500 → 1338 (−162)") {
		t.Errorf("final message of the bot game %q, want the global ratings", m.Text())
	}
	if got := e.rating(storage.GlobalPool, "bot:tester"); !strings.HasPrefix(got, "1662.3 ± ") {
		t.Errorf("the bot level's rating: %s, want 1662.3", got)
	}
	if got := e.rating(storage.GlobalPool, dave.ID); !strings.HasPrefix(got, "1337.7 ± ") {
		t.Errorf("dave's rating: %s, want 1337.7", got)
	}
	// rated:false against the bot.
	e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Bool("rated", false)))
	if m := e.do(e.slash(dm, dave, "resign")); strings.Contains(m.Text(), "📈") {
		t.Errorf("the final message of an unrated game speaks of ratings: %q", m.Text())
	}
	if got := e.rating(storage.GlobalPool, dave.ID); !strings.HasPrefix(got, "1337.7 ± ") {
		t.Errorf("dave's rating after an unrated bot game: %s, want 1337.7", got)
	}

	// The rebuild reproduces every stored rating exactly.
	before := map[string]string{}
	for _, k := range []string{alice.ID, bob.ID, dave.ID, "bot:tester"} {
		for _, pool := range []string{server, storage.GlobalPool} {
			pr, err := e.store.Rating(context.Background(), pool, k)
			if err == nil {
				before[pool+" "+k] = fmt.Sprintf("%v %v %v %d", pr.Rating.Rating, pr.RD, pr.Volatility, pr.Games)
			}
		}
	}
	rep, err := e.store.RebuildRatings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || rep.Missing != 0 || rep.Ratings != len(before) || rep.Games != 2 {
		t.Errorf("RebuildRatings = %+v, want %d ratings from 2 games (the handicap games were resigned at once), none changed", rep, len(before))
	}
	for k, want := range before {
		pool, key, _ := strings.Cut(k, " ")
		pr, _ := e.store.Rating(context.Background(), pool, key)
		if got := fmt.Sprintf("%v %v %v %d", pr.Rating.Rating, pr.RD, pr.Volatility, pr.Games); got != want {
			t.Errorf("%s after the rebuild: %s, want %s", k, got, want)
		}
	}

	// dave lost to the bot in a DM: his global rating moved, his rating on
	// this server did not. A game here shows both pools, each as it moved.
	e.startGame(ch, dave, alice, 9)
	e.playOut(ch, dave, alice, opening9)
	final = e.do(e.slash(ch, dave, "resign"))
	here, global, ok := strings.Cut(final.Text(), "\n🌐 Global ratings: ")
	if !ok || !strings.Contains(here, "📈 Ratings on this server: <@"+dave.ID+"> 1500 → ") || !strings.Contains(here, " · <@"+alice.ID+"> 1662 → ") ||
		!strings.HasPrefix(global, "<@"+dave.ID+"> 1338 → ") || !strings.Contains(global, " · <@"+alice.ID+"> 1662 → ") {
		t.Errorf("final message %q, want this server's ratings (dave from 1500) and then the global ones (dave from 1338)", final.Text())
	}
}

// seedRatedGames archives n games between a and b, winning in turn, as
// finished rated games of guild, straight through the store.
func (e *env) seedRatedGames(guild string, a, b storage.Player, n int) {
	e.t.Helper()
	ctx := context.Background()
	for i := range n {
		eg, err := engine.NewGame(engine.Config{Size: 19, Rules: engine.DefaultRules()})
		if err != nil {
			e.t.Fatal(err)
		}
		g := &storage.Game{ChannelID: fmt.Sprintf("seed-%s-%s-%d", a.UserID, b.UserID, i), GuildID: guild, Sides: storage.Sides(a, b), State: engine.Own(eg)}
		if err := e.store.CreateGame(ctx, g); err != nil {
			e.t.Fatal(err)
		}
		result := "B+R"
		if i%2 == 1 {
			result = "W+R"
		}
		if err := e.store.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[19])"), Moves: 40, Rated: true}); err != nil {
			e.t.Fatal(err)
		}
		e.clock.Advance(time.Minute)
	}
}

func TestE2ELeaderboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, carol := e.d.NewUser("alice"), e.d.NewUser("carol")
	e.refused(e.slash(ch, alice, "leaderboard"), "Nobody is on the leaderboard of this server yet")
	e.refused(e.draughtsCmd(ch, alice, "leaderboard", discordtest.Str("scope", "global")), "Nobody is on the leaderboard of draughts, all servers (global) yet")
	// Twelve established players: six pairs with eight games each (the
	// last pair's second player, p11, is alice); carol has one game.
	var players []storage.Player
	for i := range 11 {
		players = append(players, storage.Player{UserID: e.d.NewUser(fmt.Sprintf("p%d", i)).ID, Name: fmt.Sprintf("p%d", i)})
	}
	players = append(players, storage.Player{UserID: alice.ID, Name: "alice"})
	for i := 0; i < len(players); i += 2 {
		e.seedRatedGames(e.d.GuildID, players[i], players[i+1], 8)
	}
	e.seedRatedGames(e.d.GuildID, storage.Player{UserID: carol.ID, Name: "carol"}, players[0], 1)

	m := e.do(e.slash(ch, carol, "leaderboard"))
	text := m.Text()
	if !m.Ephemeral || strings.Count(text, "`") != 20 || !strings.Contains(text, "`1.` ") || !strings.Contains(text, "`10.` ") {
		t.Errorf("leaderboard page 1 = %q, want places 1 to 10", text)
	}
	for _, want := range []string{"You are not on this leaderboard", "Page 1 of 2 · 12 players · established players only (deviation below 160)"} {
		if !strings.Contains(text, want) {
			t.Errorf("leaderboard page 1 = %q, want it to say %q", text, want)
		}
	}
	if strings.Contains(text, carol.ID) {
		t.Errorf("the provisional carol is on the leaderboard: %q", text)
	}
	page2 := e.do(e.click(carol, m, "next"))
	if !strings.Contains(page2.Text(), "`11.` ") || !strings.Contains(page2.Text(), "`12.` ") || !strings.Contains(page2.Text(), "Page 2 of 2") {
		t.Errorf("leaderboard page 2 = %q", page2.Text())
	}
	if b := mustButton(t, page2, "next"); !b.Disabled {
		t.Errorf("Next is enabled on the last page")
	}
	// Alice sees her own place, wherever it is.
	am := e.do(e.slash(ch, alice, "leaderboard", discordtest.Int("page", 2)))
	if !strings.Contains(am.Text(), "**Your place**: `") || !strings.Contains(am.Text(), "<@"+alice.ID+">") {
		t.Errorf("alice's leaderboard = %q, want her place", am.Text())
	}
	// Global scope, also from a DM; the server scope has no meaning there.
	dm := e.d.DM(alice)
	if gm := e.do(e.slash(dm, alice, "leaderboard", discordtest.Str("scope", "global"))); !strings.Contains(gm.Text(), "Leaderboard of all servers (global)") || !strings.Contains(gm.Text(), "12 players") {
		t.Errorf("global leaderboard = %q", gm.Text())
	}
	e.refused(e.slash(dm, alice, "leaderboard", discordtest.Str("scope", "server")), "There is no server here")
	e.refused(e.slash(ch, alice, "leaderboard", discordtest.Int("page", 3)), "There is no page 3: the leaderboard of this server has 2 pages.")
}

// TestE2ERatingsOnTime: an annulled game (Black ran out of time before two
// moves of its own) leaves the ratings unchanged; a loss on time after
// five moves each is rated like any other result.
func TestE2ERatingsOnTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	g := e.game(ch.ID)
	e.clock.Advance(16 * time.Second)
	if a := e.archived(ch.ID, g.ID); !a.Annulled || a.Rated {
		t.Fatalf("first game annulled=%v rated=%v, want an annulled, unrated game", a.Annulled, a.Rated)
	}
	for _, u := range []discordtest.User{alice, bob} {
		if got := e.rating(storage.GlobalPool, u.ID); got != "none" {
			t.Errorf("after an annulled game %s is rated %s", u.Username, got)
		}
	}
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	g = e.game(ch.ID)
	e.playOutTimed(ch, alice, bob, time.Second, opening9)
	e.clock.Advance(14 * time.Second)
	if a := e.archived(ch.ID, g.ID); a.Result != "W+T" || !a.Rated {
		t.Fatalf("second game %s rated=%v, want W+T, rated", a.Result, a.Rated)
	}
	if got := e.rating(storage.GuildPool(e.d.GuildID), bob.ID); !strings.HasPrefix(got, "1662.3 ± ") {
		t.Errorf("bob after a win on time: %s, want 1662.3", got)
	}
	if got := e.rating(storage.GuildPool(e.d.GuildID), alice.ID); !strings.HasPrefix(got, "1337.7 ± ") {
		t.Errorf("alice after a loss on time: %s, want 1337.7", got)
	}
}

// TestE2ELeaderboardLeavesBannedOff: while a ban on a server lasts, the
// server's leaderboards (/go and /draughts) leave the player off, the
// others moving up, and tell the banned player why they are not on it; the
// global leaderboard and another server's keep them; after an unban the
// player is back.
func TestE2ELeaderboardLeavesBannedOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	other := e.d.OtherGuildChannel("other-guild", "general")
	ann, _, _ := e.admins()
	cheat, p1, p2, p3 := e.d.NewUser("cheat"), e.d.NewUser("p1"), e.d.NewUser("p2"), e.d.NewUser("p3")
	pl := func(u discordtest.User) storage.Player { return storage.Player{UserID: u.ID, Name: u.Username} }
	// cheat wins five of nine against p1 here (eight in all elsewhere);
	// p2 and p3 share theirs, and cheat and p2 play draughts.
	e.seedRatedGames(e.d.GuildID, pl(cheat), pl(p1), 9)
	e.seedRatedGames(e.d.GuildID, pl(p2), pl(p3), 8)
	e.seedRatedGames(other.GuildID, pl(cheat), pl(p1), 8)
	ctx := context.Background()
	for i := range 8 {
		st, err := draughts.Kind{}.New(nil, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{ChannelID: fmt.Sprint("seed-draughts-", i), GuildID: e.d.GuildID, Kind: "draughts", Sides: storage.Sides(pl(cheat), pl(p2)), State: st}
		if err := e.store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := e.store.FinishGame(ctx, g, storage.Archived{Result: []string{"B+", "W+"}[i%2], SGF: []byte("[GameType \"20\"]"), Moves: 40, Rated: true}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Minute)
	}
	// The board as the user sees it: its title, the places, the caller's
	// line and the footer.
	board := func(title string, places []string, yours string, players int) string {
		return "\n" + title + "\n" + strings.Join(places, "\n") + "\n\n" + yours + "\n" +
			fmt.Sprintf("-# Page 1 of 1 · %s · established players only (deviation below 160)", commands.Plural(players, "player"))
	}
	place := func(n int, u discordtest.User, rating string, games int) string {
		return fmt.Sprintf("`%d.` %s · %s · %d games", n, u.Mention(), rating, games)
	}
	var (
		cheatHere = place(2, cheat, "1527 ± 136, rank 6k", 9)
		p1Third   = place(3, p1, "1473 ± 136, rank 7k", 9)
		p3First   = place(1, p3, "1529 ± 145, rank 6k", 8)
		p2Fourth  = place(4, p2, "1471 ± 145, rank 7k", 8)
		p1Second  = place(2, p1, "1473 ± 136, rank 7k", 9)
		p2Third   = place(3, p2, "1471 ± 145, rank 7k", 8)
		server    = "Leaderboard of this server"
		before    = board(server, []string{p3First, cheatHere, p1Third, p2Fourth}, "**Your place**: "+p1Third, 4)
	)
	e.said(e.slash(ch, p1, "leaderboard"), before)
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", cheat), discordtest.Str("reason", "cheating")))
	e.said(e.slash(ch, p1, "leaderboard"), board(server, []string{p3First, p1Second, p2Third}, "**Your place**: "+p1Second, 3))
	e.said(e.slash(ch, cheat, "leaderboard"), board(server, []string{p3First, p1Second, p2Third},
		"You are not on this leaderboard while your ban on this server lasts.", 3))
	p2Draughts := place(1, p2, "1471 ± 145", 8)
	e.said(e.draughtsCmd(ch, p2, "leaderboard"), board("Leaderboard of draughts, this server", []string{p2Draughts}, "**Your place**: "+p2Draughts, 1))
	// A ban is one server's: the global leaderboard and another server's
	// still list the player.
	p1Global := place(2, p1, "1503 ± 98, rank 6k", 17)
	e.said(e.slash(ch, p1, "leaderboard", discordtest.Str("scope", "global")), board("Leaderboard of all servers (global)",
		[]string{place(1, p3, "1529 ± 145, rank 6k", 8), p1Global, place(3, cheat, "1497 ± 98, rank 6k", 17), place(4, p2, "1471 ± 145, rank 7k", 8)}, "**Your place**: "+p1Global, 4))
	p1Other := place(1, p1, "1529 ± 145, rank 6k", 8)
	e.said(e.slash(other, p1, "leaderboard"), board(server, []string{p1Other, place(2, cheat, "1471 ± 145, rank 7k", 8)}, "**Your place**: "+p1Other, 2))
	e.do(e.adminCmd(ch, ann, "unban", discordtest.UserOpt("user", cheat)))
	e.said(e.slash(ch, p1, "leaderboard"), before)
}

// TestE2EStatsRatingTrend: /go stats shows, under each pool's rating, the
// ratings before and after the last rated games, with each change; after
// an admin annuls one, the figures are the recomputed ones (the final
// messages of the games keep the figures of their time).
func TestE2EStatsRatingTrend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	first := e.ratedGame(ch, alice, bob)
	e.ratedGame(ch, bob, alice)
	stats := e.do(e.slash(ch, alice, "stats")).Text()
	const two = "-# Last 2 rated games: 1500 → 1662 (+162) → "
	if strings.Count(stats, two) != 2 || !strings.Contains(stats, "This server: ") {
		t.Fatalf("/go stats = %q, want the last two games' ratings for both pools, after %q", stats, two)
	}
	if m := e.do(e.adminCmd(ch, ann, "annul", discordtest.Str("game", first), discordtest.Str("reason", "farmed"))); !strings.HasPrefix(m.Text(), "Annulled the game `"+first+"`") {
		t.Fatalf("the annul: %q", m.Text())
	}
	stats = e.do(e.slash(ch, alice, "stats")).Text()
	// Without the first game, alice lost the second as White, from 1500.
	if strings.Count(stats, "\n-# Last 1 rated game: 1500 → 1338 (−162)\n") != 2 {
		t.Errorf("/go stats after the annul = %q, want the figures recomputed", stats)
	}
}
