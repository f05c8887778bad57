package commands_test

import (
	"context"
	"strings"
	"testing"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// withGTP is the test levels and "gtp:gnugo", an external GTP program as
// the registry names one, played by tester.
type withGTP struct{ *topLeft }

func (p withGTP) Levels() []commands.Level {
	return append(p.topLeft.Levels(), commands.Level{Name: "gtp:gnugo", Description: `External engine "gnugo", played over GTP.`})
}

func (p withGTP) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	if level == "gtp:gnugo" {
		level = "tester"
	}
	return p.topLeft.GenMove(ctx, level, g)
}

// withScan is the built-in draughts levels and "hub:scan", an external Hub
// engine as the registry names one, played by beginner.
type withScan struct{ *dbots.Registry }

func (p withScan) Levels() []dbots.Level {
	return append(p.Registry.Levels(), dbots.Level{Name: "hub:scan", Description: `External engine "scan", played over the Hub protocol.`})
}

func (p withScan) GenMove(ctx context.Context, level string, s draughts.State, seed int64) (game.Move, error) {
	if level == "hub:scan" {
		level = "beginner"
	}
	return p.Registry.GenMove(ctx, level, s, seed)
}

// withScan restarts e with the built-in draughts levels and "hub:scan"
// (withScan, the type).
func (e *env) withScan() {
	e.t.Helper()
	reg, err := dbots.NewRegistry(dbots.Config{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.draughtsPlayers = withScan{reg}
	e.restart()
}

// TestE2EEngineUnrated: a game against an external engine (a GTP program
// in Go, a Hub engine in draughts) is never rated, since gobot cannot
// know the engine's strength: as a new player (1500?) a program of
// master strength took 162 points from a new person who lost to it, as
// much as a beginner would. The answer starting the game says it is
// unrated, so does its last answer instead of the ratings, nobody's
// rating changes, and rated:true is refused with the reason.
func TestE2EEngineUnrated(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.offer = withGTP{e.players}
	e.withScan()
	unrated := func(level string) string {
		return "Not rated: gobot does not know the strength of **" + level + "**, an external engine, so games against it never are."
	}

	t.Run("draughts", func(t *testing.T) {
		kim := e.d.NewUser("kim")
		dm := e.d.DM(kim)
		e.refused(e.draughtsCmd(dm, kim, "bot", discordtest.Str("level", "hub:scan"), discordtest.Bool("rated", true)),
			"A game against gobot **hub:scan** cannot be rated: gobot does not know the strength of **hub:scan**, an external engine. Leave `rated:` out to play it unrated.")
		start := e.do(e.draughtsCmd(dm, kim, "bot", discordtest.Str("level", "hub:scan"), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
		if want := "New game of international draughts: " + kim.Mention() + " plays ⚪ white against gobot **hub:scan** (no clock; unrated). " + unrated("hub:scan"); !strings.Contains(start.Text(), want) {
			t.Errorf("/draughts bot level:hub:scan = %q, want %q", start.Text(), want)
		}
		// Five moves each, enough for a rated game.
		for n := 1; n <= 5; n++ {
			e.do(e.draughtsMove(dm, kim, string(draughtsOf(t, e.game(dm.ID)).Legal()[0])))
			e.waitMoves("the engine's answer", dm.ID, 2*n)
		}
		id := e.game(dm.ID).ID
		end := e.do(e.draughtsCmd(dm, kim, "resign"))
		if !strings.Contains(end.Text(), "\n"+unrated("hub:scan")) || strings.Contains(end.Text(), "Ratings") {
			t.Errorf("the resignation's answer = %q, want %q and no ratings", end.Text(), unrated("hub:scan"))
		}
		pool := storage.KindPool("draughts", storage.GlobalPool)
		for _, who := range []string{kim.ID, "bot:hub:scan"} {
			if got := e.rating(pool, who); got != "none" {
				t.Errorf("%s's draughts rating after the game = %s, want none", who, got)
			}
		}
		if arc, err := e.store.ArchivedGame(context.Background(), id); err != nil || arc.Rated {
			t.Errorf("archived game rated %v (%v), want unrated", arc.Rated, err)
		}
	})

	t.Run("go", func(t *testing.T) {
		dave := e.d.NewUser("dave")
		dm := e.d.DM(dave)
		e.refused(e.slash(dm, dave, "bot", discordtest.Str("level", "gtp:gnugo"), discordtest.Int("size", 9), discordtest.Bool("rated", true)),
			"A game against gobot **gtp:gnugo** cannot be rated: gobot does not know the strength of **gtp:gnugo**, an external engine. Leave `rated:` out to play it unrated.")
		start := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "gtp:gnugo"), discordtest.Int("size", 9), discordtest.Str("color", "white")))
		if want := "against gobot **gtp:gnugo** (9×9"; !strings.Contains(start.Text(), want) || !strings.Contains(start.Text(), "; unrated). "+unrated("gtp:gnugo")) {
			t.Errorf("/go bot level:gtp:gnugo = %q, want %q and %q", start.Text(), want, unrated("gtp:gnugo"))
		}
		for _, mv := range []string{"A1", "B1", "C1", "D1", "E1"} {
			e.do(e.play(dm, dave, mv))
		}
		id := e.game(dm.ID).ID
		end := e.do(e.slash(dm, dave, "resign"))
		if !strings.Contains(end.Text(), unrated("gtp:gnugo")) || strings.Contains(end.Text(), "Ratings") {
			t.Errorf("the resignation's answer = %q, want %q and no ratings", end.Text(), unrated("gtp:gnugo"))
		}
		for _, who := range []string{dave.ID, "bot:gtp:gnugo"} {
			if got := e.rating(storage.GlobalPool, who); got != "none" {
				t.Errorf("%s's rating after the game = %s, want none", who, got)
			}
		}
		if arc, err := e.store.ArchivedGame(context.Background(), id); err != nil || arc.Rated {
			t.Errorf("archived game rated %v (%v), want unrated", arc.Rated, err)
		}
	})
}

// TestE2EDraughtsHelpEngines: /draughts help names gobot's levels from the
// weakest to the strongest, and a Hub engine after them as what it is, an
// engine never rated, not as gobot's strongest level
// (TestHelpClockSyntax checks the help with so many levels that it would
// not fit in a message).
func TestE2EDraughtsHelpEngines(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.withScan()
	ch := e.d.GuildChannel("general")
	names := strings.Split(draughtsLevelNames(), ", ")
	if got, want := e.draughtsBotLine(ch, e.d.NewUser("carol")), "`/draughts bot level:` play gobot at once, from `"+names[0]+"` to `"+names[len(names)-1]+"`, or the engine `hub:scan`, never rated (`color:`, default white; `clock:`, `rated:`)."; got != want {
		t.Errorf("/draughts help: %q, want %q", got, want)
	}
}
