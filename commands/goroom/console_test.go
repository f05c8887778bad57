package goroom

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/internal/runtimetest"
	"github.com/gobot-dev/gobot/storage"
)

// runConsole runs the console as ann on a database in dir, typing lines,
// and returns what it printed; its boards go to dir/boards.
func runConsole(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{Kinds: testKinds()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var out strings.Builder
	err = commands.RunConsole(context.Background(), commands.ConsoleOptions{
		In: strings.NewReader(strings.Join(lines, "\n")), Out: &out, User: "ann", Store: store, BoardDir: filepath.Join(dir, "boards"),
		Options: commands.Options{Rooms: []commands.NewRoom{New(testPlayers{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestConsole(t *testing.T) {
	dir := t.TempDir()
	got := runConsole(t, dir,
		"/go help",
		"/press 1", // no board yet
		"/go bot level:first size:9",
		"/go bot level:first size:9", // a second game: the console has one channel and no threads
		"/go play move:E5",
		"/go play move:E5",
		"/go play move:Z9",
		"/go play move:D?",
		"/go play move:d 4?", // a point with a blank, as KGS players write it
		"/go play move:d 4",
		"/go bot size:?",
		"/go fly",
		"/go play",
		"/press 1", // Pass on the last board
		"/go-admin settings set setting:komi value:6.5", // the console's user is its server's admin
		"/go-admin settings set setting:ruleset value:foo",
		"/go bot level:easy colour:white",
		"/go pass now:yes",
		"/go-admin settings",
		"/go-admin settings set setting:komi",
		"/go play move:A1 move:B1",
		"/go-admin",
		"/go-admin help",
		"/go-admin settings set setting:channels value:42",
		"/go-admin settings set setting:channels value:#console",
		"/quit",
	)
	for _, want := range []string{
		"gobot: play Go on Discord", // help
		"the last message has no buttons: `/go board` (`/draughts board` for draughts) shows the game here with its buttons",
		"A game is already running here. Finish it first: the console holds one game at a time.",
		"played E5",              // the move
		"played A1",              // the bot's answer (first legal point)
		"E5 is already taken",    // refusal
		"valid points are A1–J9", // off the board
		"suggestions: D1, D2",    // autocomplete
		"suggestions: D4\n",      // of a point typed with a blank
		"played D4",              // which reads as the point
		"size: choose one of\n  9×9\n  13×13\n  19×19", // choices, as Discord lists them
		`unknown subcommand "fly"`,                     // console parsing
		"/go play needs move:",                         // required option
		"ann passed",                                   // the button
		" 5 . . . . X . . . . ",                        // the board as text
		"[1] Pass  [2] Resign",                         // buttons: no Undo in a rated game against the bot
		"✅ Default komi (`komi`): the ruleset's → 6.5.",
		`Unknown ruleset "foo": choose chinese, japanese, tromp-taylor, simple.`,
		"/go-admin settings needs one of show, set, reset",
		`/go bot has no option "colour": its options are level, size, color, ruleset, komi, handicap, clock, rated`,
		`/go pass has no option "now": it takes none`,
		"/go-admin settings set needs value:", // the group named
		"/go play: move: is given twice",      // as Discord never sends it
		"/go-admin needs a subcommand, like /go-admin help",
		"• `/go-admin settings set setting: value:`: Change a setting.", // which exists
		"I know no channel #channel on this server",                     // 42: no channel of the console's
		"✅ Game channels (`channels`): anywhere → #console.",            // typed as a name
	} {
		if !strings.Contains(got, want) {
			t.Errorf("console output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "boards", "*.png"))
	if len(pngs) < 3 {
		t.Fatalf("%d board PNGs written, want one per board message", len(pngs))
	}
	data, _ := os.ReadFile(pngs[0])
	if !strings.HasPrefix(string(data), "\x89PNG") {
		t.Fatalf("%s is not a PNG", pngs[0])
	}
}

// TestConsoleRestart: a console restarted on the same database and state
// file, with its clock set back, gives new games new IDs (the first
// session's game is over, the second starts at once instead of finding
// "a game already running"), and still knows its users' names.
func TestConsoleRestart(t *testing.T) {
	dir := t.TempDir()
	clock := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{Kinds: testKinds(), Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	state := filepath.Join(dir, "console.json")
	boards := filepath.Join(dir, "boards")
	if err := os.Mkdir(boards, 0o755); err != nil {
		t.Fatal(err)
	}
	session := func(lines ...string) string {
		var out strings.Builder
		err := commands.RunConsole(context.Background(), commands.ConsoleOptions{
			In: strings.NewReader(strings.Join(append(lines, "/quit"), "\n")), Out: &out, User: "ann",
			Store: store, StateFile: state, BoardDir: boards,
			Options: commands.Options{Rooms: []commands.NewRoom{New(testPlayers{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return clock }},
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	out := session("/go challenge opponent:bob size:9", "/as", "/as bob", "/press 1", "/go resign")
	if !strings.Contains(out, "Say who you are now: /as NAME (you are ann).") {
		t.Errorf("/as alone was not answered with its usage:\n%s", out)
	}
	saved, _ := os.ReadDir(boards)
	first, err := store.PlayerGames(context.Background(), commands.ConsoleDiscordUser("ann").ID, 0)
	if err != nil || len(first) != 1 {
		t.Fatalf("after the first session: %d games, %v", len(first), err)
	}
	clock = clock.Add(-time.Hour) // the clock went back
	out = session("/go stats player:bob", "/go challenge opponent:bob size:9", "/as bob", "/press 1", "/go resign")
	// The second session's files are numbered after the first's, so that
	// the same file saved again (a game's record) never replaces one.
	again, _ := os.ReadDir(boards)
	if len(saved) == 0 || len(again) <= len(saved) || again[len(saved)].Name() <= saved[len(saved)-1].Name() {
		var names []string
		for _, e := range again {
			names = append(names, e.Name())
		}
		t.Errorf("saved files after two sessions: %q; want the first session's %d first", names, len(saved))
	}
	games, _ := store.PlayerGames(context.Background(), commands.ConsoleDiscordUser("ann").ID, 0)
	if len(games) != 2 || games[0].ID == games[1].ID {
		t.Fatalf("after the restart: games %v, want two with different IDs\n%s", games, out)
	}
	if strings.Contains(out, "already running") || strings.Contains(out, "already archived") {
		t.Errorf("the restarted console collided with the first game:\n%s", out)
	}
	// Its record says where it was played: not on Discord.
	if a, err := store.ArchivedGame(context.Background(), games[0].ID); err != nil || !strings.Contains(string(a.SGF), "PC[gobot console]") {
		t.Errorf("the console game's record (%v):\n%s\nwant PC[gobot console]", err, a.SGF)
	}
	if !strings.Contains(out, "@bob") || strings.Contains(out, "@user") || strings.Contains(out, "<@") {
		t.Errorf("after the restart mentions do not read as names:\n%s", out)
	}
}

// TestConsoleSessionKeyKept: the key that signs the board page's
// sign-ins is made once and kept in the state file, readable by its owner
// only, so that a tab signed in before a restart is still signed in after
// it; without a state file each run has its own.
func TestConsoleSessionKeyKept(t *testing.T) {
	dir := t.TempDir()
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{Kinds: testKinds()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	run := func(state string) []byte {
		var key []byte
		err := commands.RunConsole(context.Background(), commands.ConsoleOptions{
			In: strings.NewReader("/quit\n"), Out: io.Discard, User: "ann", Store: store, StateFile: state,
			Options: commands.Options{Rooms: []commands.NewRoom{New(testPlayers{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
			Web: func(_ *commands.App, k []byte) (string, func(), error) {
				key = k
				return "http://127.0.0.1:0/play/", func() {}, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	state := filepath.Join(dir, "console.json")
	first, second := run(state), run(state)
	if len(first) != 32 || !bytes.Equal(first, second) {
		t.Errorf("the page's key: %x, then %x after a restart; want the same 32 bytes", first, second)
	}
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the state file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	if k := run(""); k != nil {
		t.Errorf("without a state file the key is %x, want nil (one of the page's own)", k)
	}
}

// TestConsoleBackground: the console runs the bot's background work for as
// long as it runs: a player whose absolute time runs out loses on time with
// nobody typing, the announcement is printed, and at EOF the background
// work stops with the console.
func TestConsoleBackground(t *testing.T) {
	dir := t.TempDir()
	clk := clocktest.New(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{Kinds: testKinds(), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	before := runtime.NumGoroutine()
	in, typed := io.Pipe()
	out := newSyncLog() // the console writes while the test reads
	done := make(chan error, 1)
	go func() {
		done <- commands.RunConsole(context.Background(), commands.ConsoleOptions{
			In: in, Out: out, User: "ann", Store: store,
			Options: commands.Options{Rooms: []commands.NewRoom{New(testPlayers{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clk.Now, After: clk.After},
		})
	}()
	waitFor := out.waiter(t)
	fmt.Fprintln(typed, "/go challenge opponent:bob size:9 color:white clock:absolute 10s")
	fmt.Fprintln(typed, "/as bob")
	fmt.Fprintln(typed, "/press 1")
	waitFor("first board", func(s string) bool { return strings.Contains(s, "black's time runs out") })
	clk.Advance(11 * time.Second)
	waitFor("loss on time", func(s string) bool {
		return strings.Contains(s, "⌛ ⚫ @bob ran out of time") && strings.Contains(s, "Game over: annulled on time, not counted")
	})
	typed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	runtimetest.NoGoroutineLeft(t, before, "after the console")
}

// consoleWithPage runs a console as ann with a board page beside it (the
// App it is given, which the test acts on as the page does); type sends
// the console a line, waitFor waits for its output. The console ends with
// the test.
func consoleWithPage(t *testing.T) (app *commands.App, store *storage.Store, typed io.Writer, out *syncLog, waitFor func(what string, ok func(string) bool)) {
	t.Helper()
	dir := t.TempDir()
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{Kinds: testKinds()})
	if err != nil {
		t.Fatal(err)
	}
	in, w := io.Pipe()
	out = newSyncLog()
	ready, done := make(chan *commands.App, 1), make(chan error, 1)
	go func() {
		done <- commands.RunConsole(context.Background(), commands.ConsoleOptions{
			In: in, Out: out, User: "ann", Store: store,
			Options: commands.Options{Rooms: []commands.NewRoom{New(testPlayers{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
			Web: func(a *commands.App, _ []byte) (string, func(), error) {
				ready <- a
				return "http://127.0.0.1:0/play/", func() {}, nil
			},
		})
	}()
	app = <-ready
	t.Cleanup(func() {
		w.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
		store.Close()
	})
	return app, store, w, out, out.waiter(t)
}

// TestConsolePageNames: people signed in on the board page by name are
// named in the console's mentions, as its own users are.
func TestConsolePageNames(t *testing.T) {
	app, _, _, out, waitFor := consoleWithPage(t)
	bob, ann := commands.ConsoleUser("bob"), commands.ConsoleUser("ann")
	if res, id := app.Start(t.Context(), app.NewChannelID(), bob, commands.Start{Opponent: &ann, Size: 9}); res.Refused || id == "" {
		t.Fatalf("bob's challenge from the page: %s", res.Text)
	}
	waitFor("the challenge", func(s string) bool { return strings.Contains(s, "challenges you") })
	if got := out.String(); !strings.Contains(got, "@ann, @bob challenges you") || strings.Contains(got, "@user") {
		t.Errorf("the console shows bob's challenge as:\n%s", got)
	}
}

// TestConsolePageGame: a game started on the board page (in a channel of
// its own) is played from the console too: its buttons work there, and
// /go board and /go play find it while the console's channel has none.
func TestConsolePageGame(t *testing.T) {
	app, store, typed, out, waitFor := consoleWithPage(t)
	bob, ann := commands.ConsoleUser("bob"), commands.ConsoleUser("ann")
	if res, id := app.Start(t.Context(), app.NewChannelID(), bob, commands.Start{Opponent: &ann, Size: 9}); res.Refused || id == "" {
		t.Fatalf("bob's challenge from the page: %s", res.Text)
	}
	waitFor("the challenge", func(s string) bool { return strings.Contains(s, "challenges you") })
	fmt.Fprintln(typed, "/press 1") // Accept
	waitFor("the first board", func(s string) bool { return strings.Contains(s, "your move") })
	games, err := store.PlayerActiveGames(t.Context(), ann.ID)
	if err != nil || len(games) != 1 {
		t.Fatalf("ann's games: %v, %v", games, err)
	}
	black, white := games[0].Players()[0].Name, games[0].Players()[1].Name
	fmt.Fprintln(typed, "/as "+black)
	fmt.Fprintln(typed, "/go play move:E5")
	waitFor("E5", func(s string) bool { return strings.Contains(s, "played E5") })
	fmt.Fprintln(typed, "/as "+white)
	fmt.Fprintln(typed, "/go board")
	waitFor("the board", func(s string) bool { return strings.Count(s, " 5 . . . . X . . . . ") >= 2 })
	fmt.Fprintln(typed, "/press 1") // Pass
	waitFor("the pass", func(s string) bool { return strings.Contains(s, white+" passed") })
	if got := out.String(); strings.Contains(got, "There is no game") || strings.Contains(got, "no longer does anything") {
		t.Errorf("the console lost the page's game:\n%s", got)
	}
}

// TestConsolePageGames: with two games on the board page, a command typed
// in the console (whose channel has none) cannot tell which is meant: it
// names them and sends the player to the page, rather than talk of another
// pair's challenge in the console's channel.
func TestConsolePageGames(t *testing.T) {
	app, _, typed, out, waitFor := consoleWithPage(t)
	carol := commands.ConsoleUser("carol")
	fmt.Fprintln(typed, "/go challenge opponent:bob size:9")
	waitFor("ann's challenge", func(s string) bool { return strings.Contains(s, "challenges you") })
	for _, level := range []string{"first", "second"} {
		if res, _ := app.Start(t.Context(), app.NewChannelID(), carol, commands.Start{Level: level, Size: 9}); res.Refused {
			t.Fatalf("carol's game against %s from the page: %s", level, res.Text)
		}
	}
	fmt.Fprintln(typed, "/as carol")
	fmt.Fprintln(typed, "/go play move:E5")
	const want = "There is no game in this channel. Your games on the board page are against gobot first and against gobot second: play them there."
	waitFor("the answer", func(s string) bool { return strings.Contains(s, "There is no game in") })
	if got := out.String(); !strings.Contains(got, want) {
		t.Errorf("carol's /go play in the console, with two games on the page:\n%s\nwant %q", got, want)
	}
}

// TestConsoleTextBoardIsTheGames: the console draws the game in play as
// text under its own boards only, and a game just over under its final
// board; a score estimate's picture is not followed by the game drawn as
// text, as it was when every picture was.
func TestConsoleTextBoardIsTheGames(t *testing.T) {
	got := runConsole(t, t.TempDir(), "/go bot level:first size:9 rated:false", "/go play move:E5", "/go estimate", "/go resign", "/go review game:?", "/quit")
	// A suggestion whose label is not what to type says what to type.
	if !regexp.MustCompile(`suggestions: vs gobot first · 9×9 · W\+R · [^,\n]* \(type \d+\)\n`).MatchString(got) {
		t.Errorf("the finished game's suggestion does not say its ID:\n%s", got)
	}
	_, est, ok := strings.Cut(got, "Score estimate of ")
	if !ok {
		t.Fatalf("no estimate in the console's output:\n%s", got)
	}
	est, _, _ = strings.Cut(est, "resigned") // up to the next answer
	if strings.Contains(est, "   A B C D E F G H J") {
		t.Errorf("the estimate's picture is followed by the game drawn as text:\n%s", est)
	}
	// Under its board after E5, and once resigned under its final board
	// (the bot's answer to E5 on it).
	if n := strings.Count(got, "\n 5 . . . . X . . . . "); n != 2 {
		t.Errorf("the game after E5 is drawn as text %d times, want twice (under its board, and under the final board):\n%s", n, got)
	}
	_, final, _ := strings.Cut(got, "wins by resignation")
	if !strings.Contains(final, "   A B C D E F G H J ") {
		t.Errorf("the final board is not drawn as text:\n%s", final)
	}
}

// TestConsoleTextDeadStones: while the dead stones are marked, the
// console's text board draws those marked dead in lower case, and says so
// under it; before the marking it is the plain board.
func TestConsoleTextDeadStones(t *testing.T) {
	eg, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"E5", "D4", "A1"} {
		p, err := engine.ParsePoint(v, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := eg.Play(engine.PlaceAt(eg.ToPlay(), p)); err != nil {
			t.Fatal(err)
		}
	}
	g := &storage.Game{State: engine.Own(eg)}
	if got := (&room{}).Text(g); strings.Contains(got, "marked dead") || !strings.Contains(got, "\n 4 . . . O . . . . . \n") {
		t.Errorf("before the marking:\n%s", got)
	}
	g.Scoring = &storage.ScoringState{Dead: []string{"D4", "A1"}}
	got := (&room{}).Text(g)
	for _, want := range []string{"\n 5 . . . . X . . . . \n", "\n 4 . . . o . . . . . \n", "\n 1 x . . . . . . . . \n", "   A B C D E F G H J \nx, o: the stones marked dead\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the marked board lacks %q:\n%s", want, got)
		}
	}
}

// TestConsolePressLastMessage: /press presses a button of the last
// message only: after a board, an answer without buttons (help) leaves
// none to press, rather than the board's Pass, which it pressed before.
func TestConsolePressLastMessage(t *testing.T) {
	got := runConsole(t, t.TempDir(), "/go bot level:first size:9 rated:false", "/go play move:E5", "/go help", "/press 1", "/quit")
	if !strings.Contains(got, "the last message has no buttons: `/go board` (`/draughts board` for draughts) shows the game here with its buttons") || strings.Contains(got, "passed") {
		t.Errorf("/press 1 after /go help:\n%s", got)
	}
}
