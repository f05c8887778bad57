package commands

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/storage"
)

func TestConsole(t *testing.T) {
	dir := t.TempDir()
	store, err := storage.Open(filepath.Join(dir, "console.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	in := strings.NewReader(strings.Join([]string{
		"/go help",
		"/go bot level:first size:9",
		"/go play move:E5",
		"/go play move:E5",
		"/go play move:Z9",
		"/go play move:D?",
		"/go fly",
		"/go play",
		"/press 1", // Pass on the last board
		"/quit",
	}, "\n"))
	var out strings.Builder
	err = RunConsole(context.Background(), ConsoleOptions{
		In: in, Out: &out, User: "ann", Store: store, Players: testPlayers{}, BoardDir: filepath.Join(dir, "boards"),
		Options: Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"gobot: play Go on Discord",      // help
		"played E5",                      // the move
		"played A1",                      // the bot's answer (first legal point)
		"E5 is already taken",            // refusal
		"valid points are A1–J9",         // off the board
		"suggestions: D1, D2",            // autocomplete
		`unknown subcommand "fly"`,       // console parsing
		"/go play needs move:",           // required option
		"ann passed",                     // the button
		" 5 . . . . X . . . . ",          // the board as text
		"[1] Pass  [2] Undo  [3] Resign", // buttons
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
