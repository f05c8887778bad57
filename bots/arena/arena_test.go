package arena

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine"
)

func level(t *testing.T, name string) Player {
	t.Helper()
	l, ok := bots.Lookup(name)
	if !ok {
		t.Fatalf("no level %q", name)
	}
	return PlayerFor(l, bots.Budget{})
}

func TestRunShortMatch(t *testing.T) {
	dir := t.TempDir()
	var seen []GameResult
	rep, err := Run(context.Background(), Config{
		A: level(t, "easy"), B: level(t, "beginner"),
		Games: 4, Size: 5, Referee: []string{}, SGFDir: dir, Parallel: 2,
		Progress: func(r GameResult) { seen = append(seen, r) },
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Games != 4 || len(rep.Results) != 4 || len(seen) != 4 {
		t.Fatalf("Run played %d games (%d results, %d reported), want 4", rep.Games, len(rep.Results), len(seen))
	}
	if rep.WinsA+rep.WinsB+rep.Draws != 4 || rep.WinsAsBlack+rep.WinsAsWhite != rep.WinsA {
		t.Errorf("inconsistent counts: %+v", rep)
	}
	for i, r := range rep.Results {
		wantA := engine.Black
		if i%2 == 1 {
			wantA = engine.White
		}
		if r.Index != i || r.AColor != wantA {
			t.Errorf("game %d: index %d, A played %v; want %d, %v", i, r.Index, r.AColor, i, wantA)
		}
		data, err := os.ReadFile(filepath.Join(dir, "game-00"+string(rune('1'+i))+".sgf"))
		if err != nil {
			t.Fatalf("SGF of game %d: %v", i+1, err)
		}
		g, _, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatalf("ParseSGF(game %d): %v", i+1, err)
		}
		if g.MoveCount() != r.Moves {
			t.Errorf("game %d SGF has %d moves, want %d", i+1, g.MoveCount(), r.Moves)
		}
	}
	if rep.Low > rep.WinRate || rep.WinRate > rep.High {
		t.Errorf("win rate %v outside its interval %v–%v", rep.WinRate, rep.Low, rep.High)
	}
	if !strings.Contains(rep.String(), "easy won") {
		t.Errorf("String() = %q", rep.String())
	}
	for _, r := range rep.Results {
		// A resignation is chosen too, but not counted among the moves.
		if n := r.Played[engine.Black] + r.Played[engine.White]; n != r.Moves && n != r.Moves+1 {
			t.Errorf("game %d: %d+%d moves chosen, want %d (or one more, a resignation)", r.Index+1, r.Played[engine.Black], r.Played[engine.White], r.Moves)
		}
	}
	if rep.MoveTimeA <= 0 || rep.MoveTimeB <= 0 {
		t.Errorf("average times per move %v and %v, want both positive", rep.MoveTimeA, rep.MoveTimeB)
	}
	if want := "average time per move: easy "; !strings.Contains(rep.String(), want) {
		t.Errorf("String() = %q, want it to contain %q", rep.String(), want)
	}
}

func TestRunWithGNUGoReferee(t *testing.T) {
	if _, err := os.Stat(DefaultReferee[0]); err != nil {
		t.Skip("GNU Go is not installed at " + DefaultReferee[0] + "; skipping")
	}
	rep, err := Run(context.Background(), Config{A: level(t, "easy"), B: level(t, "beginner"), Games: 2, Size: 5})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Games != 2 || !strings.Contains(rep.Referee, "gnugo") {
		t.Errorf("Run = %d games scored by %q, want 2 by GNU Go", rep.Games, rep.Referee)
	}
}

func TestRunErrors(t *testing.T) {
	ctx := context.Background()
	good := Config{A: level(t, "easy"), B: level(t, "beginner"), Games: 1, Referee: []string{}}
	tests := []struct {
		name string
		edit func(*Config)
	}{
		{"no games", func(c *Config) { c.Games = 0 }},
		{"no player", func(c *Config) { c.B = Player{} }},
		{"size", func(c *Config) { c.Size = 30 }},
		{"komi", func(c *Config) { c.Komi = 0.3 }},
	}
	for _, tt := range tests {
		cfg := good
		tt.edit(&cfg)
		if _, err := Run(ctx, cfg); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Run = %v, want ErrInvalidConfig", tt.name, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Run(cctx, good); !errors.Is(err, context.Canceled) {
		t.Errorf("Run(cancelled) = %v, want context.Canceled", err)
	}
}

func TestMainCommand(t *testing.T) {
	var out bytes.Buffer
	err := Main(context.Background(), []string{"-a", "easy", "-b", "random", "-games", "2", "-size", "5", "-referee", "none", "-b-playouts", "300"}, &out, nil)
	if err != nil {
		t.Fatalf("Main: %v\n%s", err, out.String())
	}
	for _, want := range []string{"easy: its own settings; beginner: 300 playouts a move", "game 1/2", "game 2/2", "easy vs beginner: 2 games on 5×5", "win rate", "scored by Tromp–Taylor count\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{
		{"-a", "easy"},
		{"-a", "easy", "-b", "grandmaster"},
		{"-a", "easy", "-b", "random", "-games", "x"},
		{"-a", "easy", "-b", "random", "extra"},
		{"-a", "easy", "-b", "random", "-gtp", "broken"},
		{"-a", "easy", "-b", "random", "-games", "0"},
	} {
		out.Reset()
		if err := Main(context.Background(), args, &out, nil); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Main(%q) = %v, want ErrInvalidConfig", args, err)
		}
		if strings.Contains(out.String(), "average time per move") {
			t.Errorf("Main(%q) printed a report of no match:\n%s", args, out.String())
		}
	}
}

// TestMainHelp: -h prints the flags, and they call an external player a
// GTP program ("engine" is the rules package), under the same flag names.
func TestMainHelp(t *testing.T) {
	var out bytes.Buffer
	if err := Main(context.Background(), []string{"-h"}, &out, nil); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("Main(-h) = %v, want flag.ErrHelp", err)
	}
	help := out.String()
	for _, want := range []string{
		"usage: gobot arena -a LEVEL -b LEVEL [flags]",
		"or a GTP program (gtp:NAME)",
		"  -gtp string\n    \textra GTP programs, as in GOBOT_GTP_ENGINES: \"NAME=COMMAND; ...\"",
		"  -referee string\n    \tGTP program whose final_score decides games that end by passes",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(strings.ToLower(strings.ReplaceAll(help, "GOBOT_GTP_ENGINES", "")), "engine") {
		t.Errorf("help still says engine:\n%s", help)
	}
}

// The arena plays any GTP program given with -gtp, here GNU Go, and reports
// both sides' time per move.
func TestMainAgainstGTPProgram(t *testing.T) {
	if _, err := os.Stat(DefaultReferee[0]); err != nil {
		t.Skip("GNU Go is not installed at " + DefaultReferee[0] + "; skipping")
	}
	var out bytes.Buffer
	args := []string{"-a", "easy", "-b", "gtp:gnugo", "-gtp", "gnugo=" + DefaultReferee[0] + " --mode gtp --level 1",
		"-games", "2", "-size", "5"}
	if err := Main(context.Background(), args, &out, nil); err != nil {
		t.Fatalf("Main: %v\n%s", err, out.String())
	}
	for _, want := range []string{"easy: its own settings; gtp:gnugo: its own settings", "easy vs gtp:gnugo: 2 games on 5×5", "average time per move: easy "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
