package arena

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// Main runs the `gobot arena` command: it parses args (the arguments after
// the subcommand), plays the match and writes each game and the final
// report to stdout. Levels are looked up in reg, which may be nil (built-in
// levels only), and in the GTP programs given with -gtp. Usage errors wrap
// ErrInvalidConfig; -h prints the flags and returns flag.ErrHelp.
func Main(ctx context.Context, args []string, stdout io.Writer, reg *bots.Registry) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stdout)
	var (
		a         = fs.String("a", "", "first player: a level ("+builtinNames()+") or a GTP program (gtp:NAME)")
		b         = fs.String("b", "", "second player, as -a")
		games     = fs.Int("games", 20, "number of games; colours alternate, the first player taking black in the first game")
		size      = fs.Int("size", 9, "board size")
		komi      = fs.Float64("komi", 7.5, "komi (area scoring)")
		moveTime  = fs.Duration("time", 0, "time per move for both players (0: each level's own budget)")
		playouts  = fs.Int("playouts", 0, "playouts per move for both players (the Monte Carlo levels from casual up; nodes for a static minimax), instead of time")
		aTime     = fs.Duration("a-time", 0, "time per move for the first player only (overrides -time)")
		bTime     = fs.Duration("b-time", 0, "time per move for the second player only (overrides -time)")
		aPlayouts = fs.Int("a-playouts", 0, "playouts per move for the first player only (overrides -playouts); a fixed count makes a match independent of the machine's load")
		bPlayouts = fs.Int("b-playouts", 0, "playouts per move for the second player only (overrides -playouts)")
		seed      = fs.Int64("seed", 1, "seed for the players")
		referee   = fs.String("referee", strings.Join(DefaultReferee, " "), `GTP program whose final_score decides games that end by passes; "none" counts the final position as it stands (Tromp–Taylor)`)
		parallel  = fs.Int("parallel", 1, "games played at once")
		maxMoves  = fs.Int("max-moves", 0, "moves after which a game is scored as it stands (0: four times the board's points)")
		sgfDir    = fs.String("sgf", "", "directory to write each game's SGF record to")
		programs  = fs.String("gtp", "", `extra GTP programs, as in GOBOT_GTP_ENGINES: "NAME=COMMAND; ..."`)
	)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: gobot arena -a LEVEL -b LEVEL [flags]\n\nPlays a match between two bots and reports the first one's win rate with its 95%% confidence interval.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: %w", fs.Args(), ErrInvalidConfig)
	}
	if *a == "" || *b == "" {
		fs.Usage()
		return fmt.Errorf("both -a and -b are needed: %w", ErrInvalidConfig)
	}
	lookup := func(name string) (bots.Level, bool) {
		if reg != nil {
			return reg.Lookup(name)
		}
		return bots.Lookup(name)
	}
	levels := bots.Builtin()
	if reg != nil {
		levels = reg.Levels()
	}
	if *programs != "" {
		specs, err := gtp.ParsePrograms(*programs)
		if err != nil {
			return fmt.Errorf("-gtp: %w: %w", ErrInvalidConfig, err)
		}
		extra, err := bots.NewRegistry(bots.Config{Programs: specs, MaxSearches: max(*parallel, 1)})
		if err != nil {
			return fmt.Errorf("-gtp: %w: %w", ErrInvalidConfig, err)
		}
		defer extra.Close()
		for _, l := range extra.Levels() {
			if strings.HasPrefix(l.Name, bots.GTPPrefix) {
				levels = append(levels, l)
			}
		}
		base := lookup
		lookup = func(name string) (bots.Level, bool) {
			if l, ok := base(name); ok {
				return l, true
			}
			return extra.Lookup(name)
		}
	}
	budgets := [2]bots.Budget{{Time: *moveTime, Playouts: *playouts}, {Time: *moveTime, Playouts: *playouts}}
	for i, own := range []struct {
		t time.Duration
		n int
	}{{*aTime, *aPlayouts}, {*bTime, *bPlayouts}} {
		if own.t != 0 || own.n != 0 {
			budgets[i] = bots.Budget{Time: own.t, Playouts: own.n}
		}
	}
	players := [2]Player{}
	for i, name := range []string{*a, *b} {
		l, ok := lookup(name)
		if !ok {
			var names []string
			for _, l := range levels {
				names = append(names, l.Name)
			}
			return &configError{msg: fmt.Sprintf("-%c: unknown level %q (levels: %s)", "ab"[i], name, strings.Join(names, ", "))}
		}
		players[i] = PlayerFor(l, budgets[i])
	}
	fmt.Fprintf(stdout, "%s: %s; %s: %s\n", players[0].Name, describeBudget(players[0].Budget), players[1].Name, describeBudget(players[1].Budget))
	if players[0].Name == players[1].Name {
		players[0].Name += "#1"
		players[1].Name += "#2"
	}
	cfg := Config{
		A: players[0], B: players[1],
		Games: *games, Size: *size, Komi: *komi, Seed: *seed,
		Parallel: *parallel, MaxMoves: *maxMoves, SGFDir: *sgfDir,
	}
	refereeSet := false
	fs.Visit(func(f *flag.Flag) { refereeSet = refereeSet || f.Name == "referee" })
	switch strings.TrimSpace(*referee) {
	case "none":
		cfg.Referee = []string{}
	case "":
	default:
		if !refereeSet {
			break // the default: GNU Go when it is installed
		}
		argv, err := gtp.SplitCommand(*referee)
		if err != nil {
			return fmt.Errorf("-referee: %w: %w", ErrInvalidConfig, err)
		}
		cfg.Referee = argv
	}
	won := 0
	played := 0
	cfg.Progress = func(r GameResult) {
		played++
		if r.AWon() {
			won++
		}
		colour := "B"
		if r.AColor == engine.White {
			colour = "W"
		}
		fmt.Fprintf(stdout, "game %d/%d: %s (B) vs %s (W): %s in %d moves, %v — %s (%s) %d/%d\n",
			r.Index+1, cfg.Games, r.Black, r.White, r.Result, r.Moves, r.Duration.Round(100*time.Millisecond),
			cfg.A.Name, colour, won, played)
	}
	rep, err := Run(ctx, cfg)
	if err == nil || played > 0 {
		fmt.Fprintln(stdout, rep) // no report of a match that never began
	}
	return err
}

// builtinNames lists the built-in levels, weakest first.
func builtinNames() string {
	var names []string
	for _, l := range bots.Builtin() {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

// describeBudget says what a player may spend on a move.
func describeBudget(b bots.Budget) string {
	switch {
	case b.Time > 0 && b.Playouts > 0:
		return fmt.Sprintf("%v or %d playouts a move", b.Time, b.Playouts)
	case b.Time > 0:
		return fmt.Sprintf("%v a move", b.Time)
	case b.Playouts > 0:
		return fmt.Sprintf("%d playouts a move", b.Playouts)
	}
	return "its own settings"
}

// configError is an invalid match configuration whose message says all:
// it wraps ErrInvalidConfig without repeating it.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }
func (e *configError) Unwrap() error { return ErrInvalidConfig }
