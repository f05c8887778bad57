package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/engine/draughts/hub"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// A Hub engine's client is a draughts bots' Engine.
var _ dbots.Engine = (*hub.Client)(nil)

// newDraughtsRegistry builds the draughts levels: the built-in ones and a
// Hub engine ("hub:NAME") for each program of GOBOT_HUB_ENGINES, started
// now, in its own directory when its command names a path. A program
// that does not start or answer the handshake is an error. Close the
// registry to stop the programs. Log receives the registry's warnings (an
// engine that fails and the level that moved instead); nil discards them.
func newDraughtsRegistry(ctx context.Context, cfg *config.Config, stderr io.Writer, log *slog.Logger) (*dbots.Registry, error) {
	engines := map[string]dbots.Engine{}
	closeAll := func() {
		for _, e := range engines {
			e.(*hub.Client).Close()
		}
	}
	for name, command := range cfg.HubEngines {
		argv, err := gtp.SplitCommand(command)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("GOBOT_HUB_ENGINES: %s: %w", name, err)
		}
		c, err := hub.NewClient(ctx, hub.Spec{Name: name, Argv: argv}, hub.ClientOptions{Stderr: stderr})
		if err != nil {
			closeAll()
			// exec quotes the program, which may be a secret pasted
			// into the wrong variable.
			return nil, hideValues(fmt.Errorf("GOBOT_HUB_ENGINES: %w", err), argv...)
		}
		engines[name] = c
	}
	reg, err := dbots.NewRegistry(dbots.Config{Engines: engines, Logger: log})
	if err != nil {
		closeAll()
		return nil, err
	}
	return reg, nil
}

// serveHub serves the Hub protocol (version 2, as Scan 3.1 and the Hub
// GUI speak it) with a draughts level as the engine: `gobot hub`. The
// level's own budget holds unless the GUI's level command sets a depth,
// nodes or a time; the search keeps its table for the session (new-game
// clears it). The GUI may change the level with set-param name=level.
func serveHub(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := fs.String("bot", "max", "draughts level that plays ("+hubLevelNames(dbots.Builtin())+", or hub:NAME for an engine of GOBOT_HUB_ENGINES)")
	nodes := fs.Int64("nodes", 0, "nodes per move instead of the level's own budget, when the GUI sets no limit (search levels only)")
	seed := fs.Int64("seed", 0, "seed of the level's variety (0: a new one each session)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if err := strayArgs(fs, func(w string) bool { _, ok := dbots.Lookup(w); return ok }); err != nil {
		return err
	}
	if *nodes < 0 {
		return fmt.Errorf("--nodes: %d is negative", *nodes)
	}
	lookup, levels := dbots.Lookup, dbots.Builtin()
	if _, builtin := dbots.Lookup(*level); !builtin {
		// A Hub engine of GOBOT_HUB_ENGINES, relayed.
		cfg, err := config.LoadFor(config.Offline)
		if err != nil {
			return err
		}
		reg, err := newDraughtsRegistry(ctx, cfg, stderr, newLogger(cfg, stderr))
		if err != nil {
			return err
		}
		defer reg.Close()
		// Its engines are levels too, which set-param may choose.
		lookup, levels = reg.Lookup, reg.Levels()
	}
	e, err := newHubEngine(*level, *nodes, *seed, lookup, hubLevelNames(levels))
	if err != nil {
		return err
	}
	err = hub.Serve(ctx, stdin, stdout, hub.ServerOptions{
		Name: "gobot", Version: version, Author: "the gobot authors",
		Params:   []hub.Param{{Name: "level", Value: e.level.Name, Type: "enum", Values: e.names}},
		SetParam: e.setParam,
		NewGame:  e.newGame,
		Search:   e.search,
	})
	if errors.Is(err, context.Canceled) {
		return nil // SIGTERM or an interrupt: a normal end of the session
	}
	return err
}

// hubLevelNames lists levels' names as the level parameter's values do:
// "beginner novice … max".
func hubLevelNames(levels []dbots.Level) string {
	var names []string
	for _, l := range levels {
		names = append(names, l.Name)
	}
	return strings.Join(names, " ")
}

// hubEngine is the session's player: a level, and for the search levels
// one Searcher kept from move to move.
type hubEngine struct {
	lookup   func(string) (dbots.Level, bool)
	names    string // the levels lookup finds, as hubLevelNames lists them
	level    dbots.Level
	nodes    int64
	seed     int64
	searcher *dbots.Searcher
	info     func(hub.Info) // the current search's
	moves    int64          // searches so far, to vary the seed
}

func newHubEngine(name string, nodes, seed int64, lookup func(string) (dbots.Level, bool), names string) (*hubEngine, error) {
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	e := &hubEngine{lookup: lookup, names: names, nodes: nodes, seed: seed}
	if err := e.setLevel(name); err != nil {
		return nil, fmt.Errorf("--bot: %w", err)
	}
	return e, nil
}

func (e *hubEngine) setLevel(name string) error {
	l, ok := e.lookup(name)
	if !ok {
		return fmt.Errorf("unknown level %q (levels: %s)", name, e.names)
	}
	e.level, e.searcher = l, nil
	if l.Search != nil {
		opts := *l.Search
		opts.Seed = e.seed
		opts.Info = func(r dbots.Result) {
			if e.info != nil {
				e.info(hub.Info{Depth: r.Depth, Score: r.Score, Nodes: r.Nodes, Time: r.Time, PV: r.PV})
			}
		}
		e.searcher = dbots.NewSearcher(opts)
	}
	return nil
}

func (e *hubEngine) setParam(name, value string) error {
	if name != "level" {
		return nil // a parameter of another engine: ignored, as the protocol says
	}
	return e.setLevel(value)
}

func (e *hubEngine) newGame() {
	if e.searcher != nil {
		e.searcher.Clear()
	}
}

// search answers a Hub request with the level. The GUI's stop reaches
// the search as ctx's deadline passing, so it answers with its best move.
func (e *hubEngine) search(ctx context.Context, req hub.Request, info func(hub.Info)) (hub.Reply, error) {
	g := dbots.NewGame(req.Start)
	for _, m := range req.Moves {
		g = g.Play(m)
	}
	if g.Over() {
		// Drawn by repetition or a counting rule, with moves left (the
		// server answers a side without one): ending the game is the
		// GUI's to do, and Scan answers a searched move then. The
		// levels refuse a game that is over, so the position is
		// searched without its history.
		g = dbots.NewGame(g.Position())
	}
	lim := req.Limit
	b := e.level.Budget
	switch {
	case lim.Depth > 0 || lim.Nodes > 0 || lim.Allot() > 0:
		b = dbots.Budget{Depth: lim.Depth, Nodes: lim.Nodes, Time: lim.Allot()}
	case lim.Infinite || req.Mode != hub.Think:
		b = dbots.Budget{Depth: 100} // until the GUI says stop
	case e.nodes > 0 && e.searcher != nil:
		b = dbots.Budget{Nodes: e.nodes}
	}
	e.moves++
	if e.searcher == nil {
		m, err := e.level.New(e.seed+e.moves).GenMove(ctx, g, b)
		return hub.Reply{Move: m}, err
	}
	e.info = info
	defer func() { e.info = nil }()
	res, err := e.searcher.Search(ctx, g, b)
	if err != nil {
		return hub.Reply{}, err
	}
	r := hub.Reply{Move: res.Move}
	if len(res.PV) > 1 {
		r.Ponder = res.PV[1]
	}
	return r, nil
}
