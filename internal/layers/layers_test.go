package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gobot-dev/gobot/"

// imports returns the imports of the non-test Go files of dir (relative
// to the module's root), by file name.
func imports(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out[filepath.Base(f)] = append(out[filepath.Base(f)], p)
		}
	}
	return out
}

// TestContractImportsNothingOfGobot: engine/game is the contract; every
// game and the core import it, it imports only the standard library.
func TestContractImportsNothingOfGobot(t *testing.T) {
	for file, ims := range imports(t, "engine/game") {
		for _, p := range ims {
			if strings.Contains(p, ".") {
				t.Errorf("engine/game/%s imports %s: the contract imports only the standard library", file, p)
			}
		}
	}
}

// TestClockKnowsNoGame: the clocks are the core's; they name sides
// through the contract, not any game's colours.
func TestClockKnowsNoGame(t *testing.T) {
	for file, ims := range imports(t, "engine/clock") {
		for _, p := range ims {
			if strings.HasPrefix(p, module) && p != module+"engine/game" {
				t.Errorf("engine/clock/%s imports %s: the clock imports only the contract", file, p)
			}
		}
	}
}

// TestRoomsApart: draughts' rules, pictures, bots and Discord room import
// nothing of Go's (engine, render, bots), and Go's — with the Discord
// side's core, commands, where Go's room still lives — import nothing of
// draughts': a room plugs into the core, the core never reaches into it.
func TestRoomsApart(t *testing.T) {
	goRoom := []string{module + "engine", module + "render", module + "bots"}
	draughtsRoom := []string{module + "engine/draughts", module + "render/draughts", module + "bots/draughts"}
	check := func(dirs, forbidden []string) {
		for _, dir := range dirs {
			for file, ims := range imports(t, dir) {
				for _, p := range ims {
					if slices.Contains(forbidden, p) {
						t.Errorf("%s/%s imports %s, another game's room", dir, file, p)
					}
				}
			}
		}
	}
	check([]string{"engine/draughts", "engine/draughts/hub", "render/draughts", "bots/draughts", "commands/draughtsroom"}, goRoom)
	check([]string{"engine", "render", "bots", "commands"}, draughtsRoom)
}

// goStorageFiles are storage's files that still import Go's rules: the
// archive's Go columns (size, rules, handicap), results read as SGF, the
// handicap's weight in ratings, challenges' Go options and the
// migrations of records written before gobot had a second game. The list
// may only shrink: every other file of storage knows no game.
var goStorageFiles = []string{"archive.go", "challenge.go", "migrate.go", "player.go", "rating.go"}

// TestStorageCoreKnowsNoGame: storage's active games, seats, clocks,
// queues, schema and both stores read a game only through the contract.
func TestStorageCoreKnowsNoGame(t *testing.T) {
	ims := imports(t, "storage")
	if _, ok := ims["game.go"]; !ok {
		t.Fatal("storage/game.go not found")
	}
	for file, ps := range ims {
		knowsGo := slices.Contains(ps, module+"engine")
		switch {
		case knowsGo && !slices.Contains(goStorageFiles, file):
			t.Errorf("storage/%s imports Go's rules (engine): read games through engine/game's contract", file)
		case !knowsGo && slices.Contains(goStorageFiles, file):
			t.Errorf("storage/%s no longer imports Go's rules: take it off goStorageFiles", file)
		}
		for _, p := range ps {
			if strings.HasPrefix(p, module+"render") || strings.HasPrefix(p, module+"bots") || strings.HasPrefix(p, module+"commands") {
				t.Errorf("storage/%s imports %s", file, p)
			}
		}
	}
}
