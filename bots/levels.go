package bots

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/engine/playout"
)

// Level is an opponent users pick by name: a kind of Bot with the budget it
// plays at.
type Level struct {
	Name string // as users type it: "beginner", "hard", "gtp:gnugo"
	// Description is one short line for Discord's level list; a built-in
	// level's starts with its approximate rank ("about 25 kyu · …"), from
	// the matches the README's "Bot levels" table lists.
	Description string
	// Kyu is the level's measured rank (30 for "about 30 kyu"), the one
	// its Description starts with; 0 for a level never measured (the GTP
	// programs). Spread is how many ranks that rank may be off by, one
	// standard deviation: 1 for beginner (random play is the bottom of the
	// scale), 2 for a level placed by a narrow match or several, 3 where
	// its matches disagree or are few. A rated level starts at that rank
	// (glicko.AtRank, through goroom.StartRatings).
	Kyu    int
	Spread float64
	// SizeRanks holds the ranks measured on other board sizes than 9×9,
	// by size; see RankOn. No built-in level has one yet.
	SizeRanks map[int]Rank
	Budget    Budget // the budget each move gets
	// New returns a fresh Bot for one move or one game. Bots of GTP
	// programs share the registry's processes and are safe for concurrent
	// use; built-in bots are not.
	New func(seed int64) Bot
	// KeepTree asks the Registry to keep the level's bot of each game
	// between moves (the Monte Carlo levels reuse their search tree).
	KeepTree bool
}

// Rank is a level's approximate rank on one board size.
type Rank struct {
	Kyu    int     // as Level.Kyu; 0 for a level never measured
	Spread float64 // as Level.Spread
	// Size is the size of the board the rank was measured on: the size
	// asked for when the level was measured there, else RankSize (the
	// ladder's matches are 9×9's); 0 when Kyu is.
	Size int
}

// RankSize is the board size the levels' ranks (Level.Kyu) were measured
// on: the ladder's matches are played on 9×9 (docs/strength.md).
const RankSize = 9

// RankOn returns l's rank for games on a size×size board: the rank
// measured on that size (SizeRanks), else its 9×9 rank with Size
// RankSize, so that a caller can say whose rank it shows ("about 6 kyu,
// 9×9 rank"). On 19×19 the built-in levels are not calibrated: the few
// games there (docs/strength.md, 19×19) were played at other budgets than
// the levels' own.
func (l Level) RankOn(size int) Rank {
	if r, ok := l.SizeRanks[size]; ok && r.Kyu > 0 {
		r.Size = size
		return r
	}
	if l.Kyu <= 0 {
		return Rank{}
	}
	return Rank{Kyu: l.Kyu, Spread: l.Spread, Size: RankSize}
}

// GTPPrefix starts the names of the levels played by GTP programs.
const GTPPrefix = "gtp:"

// Memory caps for the Monte Carlo levels, in tree nodes of about 40 bytes.
// A node is expanded (all its children made, each with its prior) on its
// fourth visit (mcts expandPlay), so the tree grows by about 11 nodes a
// playout on 9×9: hard's fills after about 90,000 playouts, more than its
// 1 s search, and max's (8M nodes) after about 700,000. The figures below
// were measured when a node was expanded on its second visit (until issue
// 34's session 25), the tree growing by 30–37 nodes a playout: hard's
// full after about 30,000 playouts, max's after 230,000 (2M nodes:
// 60,000). Hard and max
// then collect their tree (mcts.Options.Collect: the nodes searched most
// are kept in half the room, the others become leaves again) and search
// on; before, the search went on from the full tree's leaves. At 10,000
// playouts a move with a 128k-node tree (full after about 3,600), hard
// collecting beat hard going on from the leaves 80 of 100 games (95%
// 71–87%); the figures below are from before collecting.
// A tree that never filled (at 10,000 playouts a move, 256k nodes, 64k
// kept) won 60 of 100 games (95% 50–69%), at a sixteenth (2,500, 64k,
// 16k) 90 of 200 (38–52%). Growing the tree more slowly cost more than
// it saved (issue 16, session 5): expanding after 8 visits (5 nodes a
// playout, 19% more playouts a CPU-second) won 92 of 200 at 2,000
// playouts (39–53%) and 38 of 100 at that scale (29–48%); after 4 (12
// nodes a playout, 14% faster), at equal CPU (11,400 playouts against
// 10,000), won 50 of 100 (40–60%).
//
// A collection loses the subtrees it drops, and a tree that fills on most
// moves pays for it: with 2M nodes, max at 3 s a move (50–150k playouts,
// collecting on most moves) beat hard at 1 s only 18 of 36 games over
// three matches, though max at a fixed 60,000 playouts beat hard at 20,000
// 6 of 6 and at 100,000 against 33,000 7 of 10. With 8M nodes (holding
// about 230,000 playouts, more than max's 3 s reach on two cores), max
// beat hard 17 of 20 (85%, 64.0–94.8%; issue 16, session 14). The nodes
// are allocated as the tree grows, so a short search does not take the
// whole cap; a full one is about 335 MB.
const (
	hardMaxNodes = 1 << 20 // about 42 MB
	maxMaxNodes  = 8 << 20 // about 335 MB
)

// varyMoves is the number of opening moves in which the Monte Carlo levels
// vary their play among nearly equal moves (mcts.Options.Vary); the other
// levels vary all game long, by their seed.
const varyMoves = 8

// The budgets of the levels below hard, in playouts: their strength is
// what the ladder's matches measured at these counts, so a faster machine
// does not make them stronger; the time caps keep a loaded one answering.
// Hard and max search for a time, as strong as the machine allows.
const (
	casualPlayouts = 256   // the readings of casual, steady and keen, when they read
	casualReads    = 0.2   // the share of casual's moves that it reads
	steadyReads    = 0.45  // steady's
	keenReads      = 0.7   // keen's
	mediumPlayouts = 32000 // medium's minimax over Monte Carlo readings
	strongPlayouts = 4000  // strong's tree search
	toughPlayouts  = 12000 // tough's
	casualNodes    = 1 << 14
	strongNodes    = 1 << 17
	// The tree grows by 30–37 nodes a playout on 9×9 (see hardMaxNodes):
	// tough's holds its playouts beside the subtree kept from the last
	// move (up to 256k nodes); strong's fills on most moves, as measured.
	toughNodes = 1 << 20
)

// Builtin returns the built-in levels from weakest to strongest. Each
// level's description starts with its approximate rank, from the matches
// the README's "Bot levels" table lists.
func Builtin() []Level {
	return []Level{
		{
			Name:        "beginner",
			Description: "about 30 kyu · random moves that never fill its own eyes: anyone can win.",
			Kyu:         30,
			Spread:      1,
			New:         func(seed int64) Bot { return NewRandom(seed) },
		},
		{
			Name:        "easy",
			Description: "about 25 kyu · greedy: captures what it can, saves stones in atari, otherwise random.",
			Kyu:         25,
			Spread:      2,
			New:         func(seed int64) Bot { return NewGreedy(seed) },
		},
		readerLevel("casual", "about 23 kyu · reads one move in five with a small search, plays greedy otherwise.", 23, 2, casualReads),
		readerLevel("steady", "about 20 kyu · reads nearly half its moves with a small search, greedy otherwise.", 20, 2, steadyReads),
		// keen's matches disagree: about 18 kyu by GNU Go level 1, 15 by medium.
		readerLevel("keen", "about 17 kyu · reads most moves with a small search, plays greedy otherwise.", 17, 3, keenReads),
		{
			Name:        "medium",
			Description: "about 13 kyu · minimax over Monte Carlo readings: beats GNU Go level 1 two games in three.",
			Kyu:         13,
			Spread:      2,
			Budget:      Budget{Playouts: mediumPlayouts, Time: 3 * time.Second},
			New:         func(seed int64) Bot { return NewMinimaxMC(seed) },
		},
		searchLevel("strong", "about 11 kyu · Monte Carlo tree search of 4,000 playouts a move.", 11, 2, strongPlayouts, time.Second, strongNodes),
		searchLevel("tough", "about 9 kyu · Monte Carlo tree search of 12,000 playouts a move.", 9, 2, toughPlayouts, 2*time.Second, toughNodes),
		{
			Name:        "hard",
			Description: "about 6 kyu · Monte Carlo tree search, 1 s a move: beats GNU Go level 10 on 9×9.",
			Kyu:         6,
			Spread:      2,
			Budget:      Budget{Time: time.Second},
			New: func(seed int64) Bot {
				return NewMCTS("hard", timedOptions(seed, hardMaxNodes))
			},
			KeepTree: true,
		},
		{
			Name:        "max",
			Description: "about 3 kyu · Monte Carlo tree search, 3 s a move: the strongest built-in level.",
			// Placed by 20 games against hard and 40 against Pachi.
			Kyu:    3,
			Spread: 3,
			Budget: Budget{Time: 3 * time.Second},
			New: func(seed int64) Bot {
				return NewMCTS("max", timedOptions(seed, maxMaxNodes))
			},
			KeepTree: true,
		},
	}
}

// timedOptions returns the search options of hard and max, the levels that
// search for a time, with a tree of at most nodes.
func timedOptions(seed int64, nodes int) mcts.Options {
	return mcts.Options{Seed: seed, MaxNodes: nodes, Collect: true, Vary: varyMoves, Shape: true, SelfAtari: true}
}

// readerLevel returns the level of the casual, steady and keen kind: a
// small single-threaded tree search (casualPlayouts, at most a second) on
// the share reads of its moves, the greedy player on the rest.
func readerLevel(name, description string, kyu int, spread, reads float64) Level {
	return Level{
		Name:        name,
		Description: description,
		Kyu:         kyu,
		Spread:      spread,
		Budget:      Budget{Playouts: casualPlayouts, Time: time.Second},
		New: func(seed int64) Bot {
			search := NewMCTS(name, mcts.Options{Seed: seed, Threads: 1, MaxNodes: casualNodes, Vary: varyMoves})
			return NewBlend(name, search, NewGreedy(seed+1000003), reads, seed+7)
		},
	}
}

// searchLevel returns the level of the strong and tough kind: a
// single-threaded tree search of the given playouts a move, capped at
// limit, that keeps its tree of at most nodes between moves.
func searchLevel(name, description string, kyu int, spread float64, playouts int, limit time.Duration, nodes int) Level {
	return Level{
		Name:        name,
		Description: description,
		Kyu:         kyu,
		Spread:      spread,
		Budget:      Budget{Playouts: playouts, Time: limit},
		New: func(seed int64) Bot {
			return NewMCTS(name, mcts.Options{Seed: seed, Threads: 1, MaxNodes: nodes, Vary: varyMoves})
		},
		KeepTree: true,
	}
}

// aliases maps the names of the algorithms to their levels.
var aliases = map[string]string{
	"random":  "beginner",
	"greedy":  "easy",
	"minimax": "medium",
	"mcts":    "hard",
}

// Lookup finds a built-in level by name or by its algorithm's name
// ("random", "greedy", "minimax", "mcts"), ignoring case. Levels of GTP
// programs are found with Registry.Lookup.
func Lookup(name string) (Level, bool) {
	return lookup(Builtin(), name)
}

func lookup(levels []Level, name string) (Level, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[name]; ok {
		name = a
	}
	for _, l := range levels {
		if l.Name == name {
			return l, true
		}
	}
	// A GTP program may be named without its prefix when no built-in
	// level has that name.
	for _, l := range levels {
		if strings.HasPrefix(l.Name, GTPPrefix) && l.Name[len(GTPPrefix):] == name {
			return l, true
		}
	}
	return Level{}, false
}

// MCTSBot adapts the Monte Carlo tree search of bots/mcts to Bot, and ends games
// as every level does: it resigns only when the search's win rate is below
// the resign threshold (or its choice is a pass back, see resigns) and its
// ownership estimate says the game is lost beyond doubt (never early,
// never in a close game), and never plays inside
// settled territory.
type MCTSBot struct {
	name   string
	e      *mcts.Searcher
	seed   int64   // seeds the estimates of mends
	resign float64 // win rate below which it may resign; negative: never
}

var _ Bot = (*MCTSBot)(nil)

// NewMCTS returns a Monte Carlo player with the given options. Keeping one
// for a whole game lets it reuse its tree from move to move. The searcher
// itself never resigns: opts.ResignThreshold (resignWinrate when zero, never
// when negative) is the win rate below which the bot may resign when its
// estimate agrees.
func NewMCTS(name string, opts mcts.Options) *MCTSBot {
	resign := opts.ResignThreshold
	if resign == 0 {
		resign = resignWinrate
	}
	opts.ResignThreshold = -1
	return &MCTSBot{name: name, e: mcts.NewSearcher(opts), seed: opts.Seed, resign: resign}
}

// Name returns the level's name.
func (b *MCTSBot) Name() string { return b.name }

// Searcher returns the underlying search, for its statistics.
func (b *MCTSBot) Searcher() *mcts.Searcher { return b.e }

// GenMove searches within the budget: Budget.Time, Budget.Playouts and
// ctx's deadline, whichever ends first (one second when the budget is zero
// and ctx has no deadline), or past Budget.Time up to Budget.Max while the
// choice is unclear; with Budget.Max at or below Budget.Time up to
// Budget.Max (see Budget). Any search stops early once no playout left
// could change its choice. Past ctx's deadline it answers at once with
// the best move it has. When the opponent has just passed and passing
// back wins as the game would be scored now (see passWinsScored), it
// passes without searching: no search could change that choice. Under
// territory scoring, after the opponent's pass, a stone that would only
// cost a point (see wastedPoints) becomes a pass.
func (b *MCTSBot) GenMove(ctx context.Context, g *engine.Game, budget Budget) (engine.Move, error) {
	if err := begin(ctx, g); err != nil {
		return engine.Move{}, err
	}
	dead := deadAfterPass(ctx, g)
	if passWinsScored(g, dead) {
		return engine.PassMove(g.ToPlay()), nil
	}
	if _, ok := ctx.Deadline(); !ok && budget.Time <= 0 && budget.Playouts <= 0 {
		budget.Time = time.Second
	}
	var m engine.Move
	var err error
	if budget.Time > 0 && budget.Max > 0 {
		m, err = b.e.GenMoveTimed(ctx, g, budget.Time, budget.Max, budget.Playouts)
	} else {
		m, err = b.e.GenMove(ctx, g, budget.Time, budget.Playouts)
	}
	if errors.Is(err, mcts.ErrGameOver) {
		return engine.Move{}, ErrGameOver
	}
	if err != nil {
		return engine.Move{}, err
	}
	m = b.endgame(ctx, g, m)
	if m.Kind == engine.Place {
		if w := wastedPoints(g, dead); w != nil && w[g.Board().Vertex(m.Point)] {
			return engine.PassMove(m.Color), nil
		}
	}
	return m, nil
}

// endgame applies the end-of-game rules to the search's choice m in g, with
// the search's own ownership estimate: resign when lost beyond doubt (it
// never turns a stone into a pass back: GenMove has passed back already
// when passing wins, counted with the dead stones off); and instead of a
// stone inside territory enclosed for sure (by either side), the best move
// outside it (see outside), or a pass when every legal point is inside —
// unless the stone fights there (see fights: a capture, an atari, a
// liberty taken from a chain of two, a chain in atari saved) or mends a
// defect of the bot's own territory (see mends), and unless, the opponent
// not having just passed, the search rates no stone outside nearly as high
// (see replaces): a region the estimate encloses (three playouts in four)
// may still be fought over. An estimate of fewer than
// judgeMinPlayouts playouts (a search cut short by a clock on a loaded
// machine) is noise, in which every point looks settled: then nothing is
// judged settled and, while the opponent has not passed, the bot plays a
// stone rather than the search's pass.
func (b *MCTSBot) endgame(ctx context.Context, g *engine.Game, m engine.Move) engine.Move {
	if m.Kind == engine.Resign {
		return m
	}
	board := g.Board()
	c := g.ToPlay()
	own := b.e.Ownership()
	st := b.e.Stats()
	if own == nil || st.Playouts < judgeMinPlayouts {
		if m.Kind == engine.Pass && !opponentPassed(g) {
			if alt, ok := outside(g, st.Candidates, newJudgement(board, make([]float64, g.Size()*g.Size()))); ok {
				return alt
			}
		}
		return m
	}
	j := newJudgement(board, own)
	if b.resigns(g, m, st.Winrate, j) {
		return engine.ResignMove(c)
	}
	if m.Kind != engine.Place {
		return m
	}
	if v := board.Vertex(m.Point); !j.enclosed(v) || fights(board, v, c) ||
		j.sure[v] == c && mends(ctx, g, m, b.seed) {
		return m
	}
	alt, ok := outside(g, st.Candidates, j)
	switch {
	case !ok:
		return engine.PassMove(c)
	case !opponentPassed(g) && !replaces(alt, st):
		return m
	}
	return alt
}

// replaces reports whether the search st rates the stone alt, outside
// the enclosed territories, within replaceWinrate of its own choice on at
// least judgeMinPlayouts playouts. When every searched stone lies inside,
// outside falls back on a point the search never looked at: max, as Black
// against Pachi at 81%, had its H3 replaced by A7, a self-atari, and
// White's A9 left it at 0.3% (TestQuietStoneStands).
func replaces(alt engine.Move, st mcts.Stats) bool {
	for _, cand := range st.Candidates {
		if cand.Move == alt {
			return cand.Visits >= judgeMinPlayouts && cand.Winrate >= st.Winrate-replaceWinrate
		}
	}
	return false
}

// resigns reports whether the bot resigns g instead of playing the
// search's move m of the given win rate: when the win rate is below its
// threshold and the estimate j says the game is lost beyond doubt. A pass
// back after the opponent's pass ends the game on the board as it stands,
// a dead group of the bot's own counted alive, so the search may rate it
// a sure win in a game lost beyond doubt (max did, in about one search in
// thirteen of two threads, on a 9×9 game 73.5 points behind): there the
// estimate alone decides.
func (b *MCTSBot) resigns(g *engine.Game, m engine.Move, winrate float64, j judgement) bool {
	if b.resign <= 0 {
		return false
	}
	passBack := m.Kind == engine.Pass && opponentPassed(g)
	return (winrate < b.resign || passBack) && j.lostBeyondDoubt(g, g.ToPlay())
}

// outside returns the best legal stone of the player to move outside the
// territory j judges enclosed: the most searched of the search's
// candidates, else the one of the best prior among those not searched,
// else the first such point in board order that fills no eye and is no
// self-atari (a stone left with one liberty that captures nothing), else
// the first self-atari. It returns false when every legal point is
// enclosed territory.
func outside(g *engine.Game, cands []mcts.Candidate, j judgement) (engine.Move, bool) {
	board := g.Board()
	ok := func(m engine.Move) bool {
		return m.Kind == engine.Place && !j.enclosed(board.Vertex(m.Point)) && g.Check(m) == nil
	}
	var unsearched *mcts.Candidate
	for i, cand := range cands {
		if !ok(cand.Move) {
			continue
		}
		if cand.Visits > 0 {
			return cand.Move, true
		}
		if unsearched == nil || cand.Prior > unsearched.Prior {
			unsearched = &cands[i]
		}
	}
	if unsearched != nil {
		return unsearched.Move, true
	}
	c := g.ToPlay()
	first := -1
	for _, v := range candidates(nil, board, c) {
		if j.enclosed(v) || !legalAt(g, board, v) {
			continue
		}
		if self, _ := playout.SelfAtari(board, v, c); !self {
			return place(g, board, v), true
		}
		if first < 0 {
			first = v
		}
	}
	if first >= 0 {
		return place(g, board, first), true // every such point a self-atari
	}
	return engine.Move{}, false
}

// Config configures a Registry.
type Config struct {
	// Programs are the GTP programs, offered as "gtp:NAME".
	Programs []gtp.Spec
	// GTPPrograms adds programs given as NAME -> command line (as the
	// config package reads GOBOT_GTP_ENGINES), each split into arguments
	// by gtp.SplitCommand; they follow Programs, in name order.
	GTPPrograms map[string]string
	// GTP tunes the programs' clients (timeouts, stderr); a zero
	// StartTimeout is EngineStartTimeout.
	GTP gtp.ClientOptions
	// MaxSearches caps the searches that run at once; 0 means
	// runtime.NumCPU().
	MaxSearches int
	// MaxQueue caps the moves waiting for a search slot; 0 means four per
	// slot, a negative value none (ErrBusy at once when all slots are
	// taken).
	MaxQueue int
	// Logger receives warnings (a GTP program's illegal move replaced, a bot's
	// panic recovered); nil discards them.
	Logger *slog.Logger
	// Reviewer judges the positions of game reviews: "" or "mcts" for
	// the built-in Monte Carlo search, "gtp:NAME" for one of the GTP
	// programs that speaks kata-analyze or lz-analyze.
	Reviewer string
	// ReviewTime is how long a GTP program that reviews thinks about each
	// position; 0 means review.DefaultAnalysisTime.
	ReviewTime time.Duration
	// KeepTrees caps the games whose Monte Carlo trees are kept between
	// moves (each holds at most 256k nodes, about 9 MB, between moves); 0
	// means two per search slot, a negative value none.
	KeepTrees int
}

// Registry holds the levels users can pick, the processes of the GTP
// programs and the limiter every search goes through. It is safe for
// concurrent use; Close it to stop the programs.
type Registry struct {
	levels    []Level
	externals []*External
	limiter   *Limiter
	log       *slog.Logger
	trees     *treeCache

	reviewer  review.Evaluator
	reviewGTP *gtp.Client // the reviewing program's process, if a GTP program
}

// NewRegistry returns the built-in levels plus one per configured GTP
// program. A program that cannot be found is a configuration error;
// programs start when first asked for a move.
func NewRegistry(cfg Config) (*Registry, error) {
	slots := cfg.MaxSearches
	if slots < 0 {
		return nil, fmt.Errorf("max searches %d: %w", slots, ErrInvalidConfig)
	}
	if slots == 0 {
		slots = runtime.NumCPU()
	}
	queue := cfg.MaxQueue
	if queue == 0 {
		queue = 4 * slots
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	keep := cfg.KeepTrees
	if keep == 0 {
		keep = 2 * slots
	}
	r := &Registry{levels: Builtin(), limiter: NewLimiter(slots, queue), log: log, trees: newTreeCache(keep)}
	startOpts := cfg.GTP
	if startOpts.StartTimeout <= 0 {
		startOpts.StartTimeout = EngineStartTimeout
	}
	specs := append([]gtp.Spec(nil), cfg.Programs...)
	names := slices.Sorted(maps.Keys(cfg.GTPPrograms))
	for _, name := range names {
		argv, err := gtp.SplitCommand(cfg.GTPPrograms[name])
		if err != nil {
			return nil, fmt.Errorf("engine %q: %w: %w", name, ErrInvalidConfig, err)
		}
		specs = append(specs, gtp.Spec{Name: strings.ToLower(name), Argv: argv})
	}
	for _, spec := range specs {
		if len(spec.Argv) == 0 {
			return nil, fmt.Errorf("engine %q has no command: %w", spec.Name, ErrInvalidConfig)
		}
		// Fail at start-up, not at a player's first move, when the
		// program is not there.
		if _, err := exec.LookPath(spec.Argv[0]); err != nil {
			return nil, fmt.Errorf("engine %q: %w: %w", spec.Name, ErrInvalidConfig, err)
		}
		name := GTPPrefix + spec.Name
		if _, dup := lookup(r.levels, name); dup {
			return nil, fmt.Errorf("engine %q configured twice: %w", spec.Name, ErrInvalidConfig)
		}
		e := NewExternal(spec, startOpts, slots)
		e.log = log
		r.externals = append(r.externals, e)
		r.levels = append(r.levels, Level{
			Name:        name,
			Description: fmt.Sprintf("External engine %q, played over GTP.", spec.Name),
			New:         func(int64) Bot { return e },
		})
	}
	var err error
	if r.reviewer, r.reviewGTP, err = r.newReviewer(cfg); err != nil {
		return nil, err
	}
	return r, nil
}

// CheckEngines starts each GTP program once and has it answer the GTP
// handshake (External.Check), all at once, within ctx; it returns the
// first failure, in the order configured, naming the engine.
func (r *Registry) CheckEngines(ctx context.Context) error {
	errs := make([]error, len(r.externals))
	var wg sync.WaitGroup
	for i, e := range r.externals {
		wg.Go(func() { errs[i] = e.Check(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("engine %q did not answer the GTP handshake: %w", r.externals[i].spec.Name, err)
		}
	}
	return nil
}

// Levels returns every level, built-in first, then the GTP programs in
// the order configured.
func (r *Registry) Levels() []Level { return append([]Level(nil), r.levels...) }

// Lookup finds a level by name, ignoring case: a built-in level, an
// algorithm's name, "gtp:NAME" or a bare program NAME that no built-in level
// uses.
func (r *Registry) Lookup(name string) (Level, bool) { return lookup(r.levels, name) }

// Limiter returns the limiter that GenMove goes through.
func (r *Registry) Limiter() *Limiter { return r.limiter }

// GenMove plays one move of the named level in g: it waits for a search slot
// (reporting its place in the queue to onQueued, which may be nil), runs a
// bot seeded with seed at the level's budget (for levels that keep their
// tree, the bot of the same game, told apart by g.Seed(), from its last
// move when the registry still holds it), and checks the move
// against the game's rules. It returns ErrUnknownLevel, ErrBusy when the
// queue is full, ErrGameOver, the context's error, or the bot's error; a
// panic in the bot is recovered, logged and returned as ErrInternal.
func (r *Registry) GenMove(ctx context.Context, level string, g *engine.Game, seed int64, onQueued func(position int)) (m engine.Move, err error) {
	l, ok := r.Lookup(level)
	if !ok {
		return engine.Move{}, fmt.Errorf("level %q: %w", level, ErrUnknownLevel)
	}
	if g == nil || g.Over() {
		return engine.Move{}, ErrGameOver
	}
	start := time.Now()
	d, timed := MoveTime(ctx)
	wctx := ctx
	if timed {
		// The game's clock runs while the move waits for a search slot:
		// it waits for half the move's time at most, and a move that
		// finds no slot by then (or a full queue) is the greedy
		// player's, which needs none, so that the bot never loses on
		// time for the queue (issue: a busy server handed its opponents
		// wins on time).
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, d/2)
		defer cancel()
	}
	release, err := r.limiter.Acquire(wctx, onQueued)
	if timed && ctx.Err() == nil && (errors.Is(err, ErrBusy) || (err != nil && wctx.Err() != nil)) {
		r.log.Warn("bots: no search slot free in the move's time; the greedy player moves instead", "level", l.Name, "waited", time.Since(start))
		ReportStandIn(ctx, StandInBusy)
		return NewGreedy(seed).GenMove(ctx, g, l.Budget)
	}
	if err != nil {
		return engine.Move{}, err
	}
	defer release()
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("bots: a bot panicked", "level", l.Name, "panic", p, "stack", string(debug.Stack()))
			m, err = engine.Move{}, fmt.Errorf("%s: %w: %v", l.Name, ErrInternal, p)
		}
	}()
	key := treeKey{l.Name, g.Seed()}
	var bot Bot
	if l.KeepTree {
		bot = r.trees.take(key)
	}
	if bot == nil {
		bot = l.New(seed)
	}
	if timed {
		// The game's clock allows less than the level's budget: the
		// search answers with its best move when what the wait for a
		// slot left of d is up (a deadline is no cancellation, see Bot).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d-time.Since(start))
		defer cancel()
	}
	m, err = bot.GenMove(ctx, g.Clone(), l.Budget)
	if err != nil {
		return engine.Move{}, err
	}
	if l.KeepTree {
		r.trees.put(key, bot)
	}
	if err := g.Check(m); err != nil {
		return engine.Move{}, fmt.Errorf("%s played %v: %w: %w", l.Name, m, ErrIllegalMove, err)
	}
	return m, nil
}

// moveTimeKey carries WithMoveTime's limit in a context.
type moveTimeKey struct{}

// Why a move was played by a stand-in rather than the level asked for.
const (
	// StandInBusy: no search slot was free within the move's time.
	StandInBusy = "busy"
	// StandInLate: the GTP program did not answer within the move's time.
	StandInLate = "late"
	// StandInIllegal: the GTP program chose a move the rules forbid.
	StandInIllegal = "illegal"
	// StandInFailed: the GTP program failed (it exited, did not start or
	// answered an error) on a move on a clock.
	StandInFailed = "failed"
)

// standInKey carries WithStandIn's report in a context.
type standInKey struct{}

// WithStandIn returns ctx in which GenMove reports, through the returned
// function, why the move it made was a stand-in's (the greedy player's,
// for want of time or of a legal move; one of the StandIn reasons), or ""
// when the level itself chose it.
func WithStandIn(ctx context.Context) (context.Context, func() string) {
	var why atomic.Value
	why.Store("")
	return context.WithValue(ctx, standInKey{}, &why), func() string { return why.Load().(string) }
}

// ReportStandIn records in ctx, if it asks (WithStandIn), that a stand-in made
// the move, and why.
func ReportStandIn(ctx context.Context, why string) {
	if v, ok := ctx.Value(standInKey{}).(*atomic.Value); ok {
		v.Store(why)
	}
}

// WithMoveTime returns ctx asking GenMove to spend at most d on the move
// once a search slot is free (a game clock's share for the move): the level
// then answers with the best move found by then, whatever its own budget.
func WithMoveTime(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, moveTimeKey{}, d)
}

// MoveTime is the limit WithMoveTime put in ctx, if any.
func MoveTime(ctx context.Context) (time.Duration, bool) {
	d, ok := ctx.Value(moveTimeKey{}).(time.Duration)
	return d, ok && d > 0
}

// Close stops every GTP program's processes, waiting for moves in
// progress on them to end.
func (r *Registry) Close() error {
	var errs []error
	for _, e := range r.externals {
		errs = append(errs, e.Close())
	}
	if r.reviewGTP != nil {
		errs = append(errs, r.reviewGTP.Close())
	}
	return errors.Join(errs...)
}
