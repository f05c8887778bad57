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

// TestRoomsApart: each game's rules, pictures, bots and Discord room
// import nothing of another game's, and the Discord side's core, commands,
// imports nothing of any game's: a room plugs into the core, the core
// never reaches into it.
func TestRoomsApart(t *testing.T) {
	goRoom := []string{module + "engine", module + "engine/estimate", module + "render", module + "bots", module + "bots/mcts", module + "bots/review", module + "commands/goroom"}
	draughtsRoom := []string{module + "engine/draughts", module + "engine/draughts/hub", module + "render/draughts", module + "bots/draughts", module + "commands/draughtsroom"}
	check := func(dirs, forbidden []string, why string) {
		for _, dir := range dirs {
			for file, ims := range imports(t, dir) {
				for _, p := range ims {
					if slices.Contains(forbidden, p) {
						t.Errorf("%s/%s imports %s, %s", dir, file, p, why)
					}
				}
			}
		}
	}
	check([]string{"engine/draughts", "engine/draughts/hub", "render/draughts", "bots/draughts", "commands/draughtsroom"}, goRoom, "Go's")
	check([]string{"engine", "render", "bots", "commands/goroom"}, draughtsRoom, "draughts'")
	check([]string{"commands"}, append(goRoom, draughtsRoom...), "a game's: the core knows no game")
}

// TestCoreImportsOnlyTheContract: the core's imports of gobot are the
// contract, the clocks, storage and the ratings, nothing else.
func TestCoreImportsOnlyTheContract(t *testing.T) {
	allowed := []string{module + "engine/game", module + "engine/clock", module + "storage", module + "storage/glicko"}
	for file, ims := range imports(t, "commands") {
		for _, p := range ims {
			if strings.HasPrefix(p, module) && !slices.Contains(allowed, p) {
				t.Errorf("commands/%s imports %s: the core imports only %s", file, p, strings.Join(allowed, ", "))
			}
		}
	}
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
