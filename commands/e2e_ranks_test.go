package commands_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// recordOf is the SGF that m carries.
func recordOf(t *testing.T, m discordtest.Message) string {
	t.Helper()
	return string(attachment(t, m, ".sgf").Data)
}

// gnugoLoads checks that GNU Go's loadsgf reads rec (skipped without GNU
// Go): a record's ranks must not cost it its readers.
func gnugoLoads(t *testing.T, rec string) {
	t.Helper()
	gnugo, err := exec.LookPath("/usr/games/gnugo")
	if err != nil {
		return
	}
	path := filepath.Join(t.TempDir(), "ranks.sgf")
	if err := os.WriteFile(path, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gnugo, "--mode", "gtp")
	cmd.Stdin = strings.NewReader("loadsgf " + path + "\nquit\n")
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "= ") {
		t.Errorf("GNU Go's loadsgf of the record: %q (%v), want it loaded:\n%s", out, err, rec)
	}
}

// TestE2ERecordRanks: a game's record names each player's rank (BR, WR)
// as it stood when the game began, in the pool the game counts in (this
// server's, not the global one), as OGS writes it, and keeps it after the
// game has moved the ratings; a new player, whose rating is provisional
// (shown "?"), gets no rank at all. GNU Go still loads the record.
func TestE2ERecordRanks(t *testing.T) { onBothStores(t, testE2ERecordRanks) }

func testE2ERecordRanks(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	pa, pb, pd := storage.Player{UserID: alice.ID, Name: "alice"}, storage.Player{UserID: bob.ID, Name: "bob"}, storage.Player{UserID: dave.ID, Name: "dave"}
	// Ten games here, seven won by alice (5k here) against bob (7k); bob
	// also beat dave four times on another server, which moved his
	// global rating only (6k).
	for _, aliceWins := range []bool{true, true, false, true, true, false, true, true, false, true} {
		if aliceWins {
			e.seedRatedGames(e.d.GuildID, pa, pb, 1) // the first of a pair is Black and wins
		} else {
			e.seedRatedGames(e.d.GuildID, pb, pa, 1)
		}
	}
	for range 4 {
		e.seedRatedGames("other-server", pb, pd, 1)
	}
	// A day later, so that the seeded games leave the pair a rated game.
	e.clock.Advance(24 * time.Hour)
	rank := func(pool string, u discordtest.User) string {
		t.Helper()
		pr, err := e.store.Rating(context.Background(), pool, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return glicko.Rank(pr.Current(e.clock.Now()))
	}
	here := storage.GuildPool(e.d.GuildID)
	if a, b, bg := rank(here, alice), rank(here, bob), rank(storage.GlobalPool, bob); a != "5k" || b != "7k" || bg != "6k" {
		t.Fatalf("seeded ranks: alice %s, bob %s here and %s globally, want 5k, 7k and 6k", a, b, bg)
	}

	const ranks = "PB[alice]BR[5k]PW[bob]WR[7k]"
	e.challenge(ch, alice, bob)
	id := e.game(ch.ID).ID
	if rec := recordOf(t, e.do(e.slash(ch, alice, "sgf"))); !strings.Contains(rec, ranks) {
		t.Errorf("the record of the game in play does not name the ranks %s:\n%s", ranks, rec)
	}
	e.playOut(ch, alice, bob, append(append([]string{}, opening9...), "B2", "H8"))
	if m := e.do(e.slash(ch, bob, "resign")); !strings.Contains(m.Text(), "📈 Ratings on this server: ") {
		t.Fatalf("the game was not rated: %q", m.Text())
	}
	if b := rank(here, bob); b != "8k" {
		t.Fatalf("bob's rank here after losing is %s, want 8k", b)
	}
	// The archived record, which anyone here may download, keeps bob's
	// 7k, not the 8k the game left him at.
	rec := recordOf(t, e.do(e.slash(ch, carol, "sgf", discordtest.Str("game", id))))
	if !strings.Contains(rec, ranks) {
		t.Errorf("the finished game's record does not name the ranks as the game began, %s:\n%s", ranks, rec)
	}
	gnugoLoads(t, rec)

	// Carol is new: her rank is "?", which the record does not write.
	e.challenge(ch, alice, carol)
	if rec := recordOf(t, e.do(e.slash(ch, carol, "sgf"))); !strings.Contains(rec, "PB[alice]BR[5k]PW[carol]DT[") {
		t.Errorf("the record of alice's game with a new player, want BR[5k] and no WR:\n%s", rec)
	}
}

// rankedLevels offers the test levels, tester with a rank: about 12 kyu,
// measured on 9×9 only, as every built-in level is.
type rankedLevels struct{ *topLeft }

func (rankedLevels) RankOn(level string, size int) (kyu, measured int) {
	if level == "tester" {
		return 12, 9
	}
	return 0, 0
}

// TestE2EBotRecordRanks: a bot game's record names the bot's rank as
// /go bot shows it on the size it was measured on (9×9), none on another
// size, and the person's in the global pool, the only one a bot game
// counts in; an unrated bot game names them too, as OGS's unranked games
// do.
func TestE2EBotRecordRanks(t *testing.T) { onBothStores(t, testE2EBotRecordRanks) }

func testE2EBotRecordRanks(t *testing.T, e *env) {
	e.offer = rankedLevels{e.players}
	e.restart()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	pa, pb := storage.Player{UserID: alice.ID, Name: "alice"}, storage.Player{UserID: bob.ID, Name: "bob"}
	// Alice's games were all on another server: she has a global rank
	// (5k) and none here.
	for _, aliceWins := range []bool{true, true, false, true, true, false, true, true, false, true} {
		if aliceWins {
			e.seedRatedGames("other-server", pa, pb, 1)
		} else {
			e.seedRatedGames("other-server", pb, pa, 1)
		}
	}
	for _, tc := range []struct {
		channel string
		opts    []discordtest.Option
		ranks   string
	}{
		{"nine", []discordtest.Option{discordtest.Int("size", 9)}, "PB[gobot tester]BR[12k]PW[alice]WR[5k]"},
		{"thirteen", []discordtest.Option{discordtest.Int("size", 13)}, "PB[gobot tester]PW[alice]WR[5k]"},
		{"unrated", []discordtest.Option{discordtest.Int("size", 9), discordtest.Bool("rated", false)}, "PB[gobot tester]BR[12k]PW[alice]WR[5k]"},
	} {
		ch := e.d.GuildChannel(tc.channel)
		e.recordNamesRanks(t, ch, alice, "bot game", tc.ranks, e.slash(ch, alice, "bot", append([]discordtest.Option{discordtest.Str("level", "tester"), discordtest.Str("color", "white")}, tc.opts...)...))
	}
}

// recordNamesRanks starts a game in ch with start and checks that the
// record u gets of it with /go sgf names ranks (its PB, BR, PW and WR)
// and that GNU Go loads it.
func (e *env) recordNamesRanks(t *testing.T, ch *discordtest.Channel, u discordtest.User, what, ranks string, start *discordtest.Interaction) {
	t.Helper()
	e.do(start)
	if e.game(ch.ID) == nil {
		t.Fatalf("%s: the %s did not start", ch.Name, what)
	}
	rec := recordOf(t, e.do(e.slash(ch, u, "sgf")))
	if !strings.Contains(rec, ranks) {
		t.Errorf("%s: the %s's record does not name the ranks %s:\n%s", ch.Name, what, ranks, rec)
	}
	gnugoLoads(t, rec)
}

// TestE2EVoteRecordRanks: a vote game's record names gobot's rank as a bot
// game's does (on the size its level was measured on, none on another),
// and no rank for the channel, whose crowd has no rating.
func TestE2EVoteRecordRanks(t *testing.T) { httpMode(t, testE2EVoteRecordRanks) }

func testE2EVoteRecordRanks(t *testing.T, e *env) {
	e.offer = rankedLevels{e.players}
	e.restart()
	v1 := e.d.NewUser("v1")
	for _, tc := range []struct {
		channel, color string
		size           int
		ranks          string
	}{
		{"nine", "black", 9, "PB[the channel's vote]PW[gobot tester]WR[12k]DT["},
		{"nine-white", "white", 9, "PB[gobot tester]BR[12k]PW[the channel's vote]DT["},
		{"thirteen", "black", 13, "PB[the channel's vote]PW[gobot tester]DT["},
	} {
		ch := e.d.GuildChannel(tc.channel)
		e.recordNamesRanks(t, ch, v1, "vote game", tc.ranks, e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", tc.size), discordtest.Str("color", tc.color)))
	}
}
