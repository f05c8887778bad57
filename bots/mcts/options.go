package mcts

import (
	"runtime"

	"github.com/gobot-dev/gobot/bots/shape"
	"github.com/gobot-dev/gobot/engine/playout"
)

// Defaults for Options fields left zero.
const (
	// DefaultResignThreshold is the win rate below which the searcher resigns.
	DefaultResignThreshold = 0.1
	// DefaultMaxNodes caps the tree at about 80 MB (40 bytes a node).
	DefaultMaxNodes = 2 << 20
)

// Options configures a Searcher. The zero value is usable.
type Options struct {
	// Seed seeds the random numbers of the playouts. With one thread and a
	// playout budget (no time limit) equal seeds give equal searches.
	Seed int64
	// Threads is the number of search threads (tree parallelism with
	// virtual loss); 0 means runtime.NumCPU().
	Threads int
	// ResignThreshold is the win rate of the best move below which the
	// searcher resigns; 0 means DefaultResignThreshold and a negative value
	// never resigns. The searcher never resigns before move 20 on 9×9 and
	// proportionally later on bigger boards (80 on 19×19).
	ResignThreshold float64
	// MaxNodes is a hard cap on the number of tree nodes (40 bytes each);
	// 0 means DefaultMaxNodes, and values below 8192 are raised to it (the
	// tree grows in chunks of 4096). When the tree is full the search goes on
	// with playouts from its leaves, unless Collect is set. Keeping the
	// subtree for the next move copies it, so for a moment two trees may
	// exist.
	MaxNodes int
	// Collect frees room in a full tree and lets it grow on: the search
	// pauses and copies the tree, keeping the children only of the nodes
	// searched most, in half its capacity (the rest become leaves again,
	// with their statistics). A collection costs about 60 ms for 2M nodes
	// on 9×9; the copy and the old tree exist together for that time.
	Collect bool
	// NoReuse drops the tree after every move instead of keeping the
	// subtree of the position that follows.
	NoReuse bool
	// NoEarlyStop searches the whole budget even when the choice of move
	// can no longer change.
	NoEarlyStop bool
	// Vary is the number of opening moves of a game (counted by
	// engine.Game.MoveCount) in which the engine varies its play: it
	// draws its move, at random from the seed, among the root moves
	// searched at least 70% as much as the best one and winning at most
	// 2% less often. 0 always plays the best move.
	Vary int
	// Shape adds the shape model's prior (package bots/shape, learned from
	// professional games) to the hand-made one: shapePrior × √p won
	// visits for a move the model gives probability p. The playouts then
	// also choose among their shape answers by the model's 3×3 gammas
	// (playout.Policy.Shape).
	Shape bool
	// SelfAtari lets the playouts' random moves put their own stones in
	// atari now and then (playout.Policy.SelfAtari, selfAtariRate), so
	// that the playouts can kill by nakade and lose capturing races.
	SelfAtari bool

	// analysis judges positions rather than plays them: no dynamic komi
	// in handicap games, and ataris weighed as any move (Analyze,
	// EstimateScore).
	analysis bool

	// tune overrides the search constants (tests and tuning only).
	tune *params
}

// params are the constants of the search.
type params struct {
	expand    int32          // visits before a node is expanded (0: expandPlay, or expandAnalysis)
	raveEquiv float64        // RAVE equivalence: visits at which AMAF and real weigh equally (1000 beat 3000 in 171 of 300 games, issue 16)
	raveAtari float64        // RAVE equivalence of ataris (flagAtari): 100 finds a double atari that 1000 misses (issue 34)
	explore   float64        // UCB exploration coefficient
	priorEven float32        // equivalent visits of the neutral prior (at 50%)
	priorE    float32        // equivalent visits of one unit of knowledge
	shape     float32        // equivalent won visits of a move the shape model is sure of (sqrt of its probability times this)
	playout   playout.Policy // the playouts' policy
}

func defaultParams() params {
	return params{
		raveEquiv: 1000,
		raveAtari: 100,
		explore:   0,
		priorEven: 10,
		priorE:    20,
		shape:     shapePrior,
		playout:   playout.Policy{Capture: 0.95, Pattern: 0.9},
	}
}

func (o Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.NumCPU()
}

func (o Options) maxNodes() int {
	if o.MaxNodes > 0 {
		return o.MaxNodes
	}
	return DefaultMaxNodes
}

func (o Options) resignThreshold() float64 {
	if o.ResignThreshold == 0 {
		return DefaultResignThreshold
	}
	return o.ResignThreshold
}

func (o Options) params() params {
	if o.tune != nil {
		return *o.tune
	}
	p := defaultParams()
	if o.SelfAtari {
		p.playout.SelfAtari = selfAtariRate
	}
	if o.Shape {
		p.playout.Shape = shape.Learned.PatternWeights()
	} else {
		p.shape = 0
	}
	if o.analysis {
		p.raveAtari = p.raveEquiv // reviews as measured on issue 34's blunder and false-alarm sets
	}
	return p
}

// expandPlay is the visits after which a node of a search for play is
// expanded (params.expand). Expanding a node weighs every move with the
// shape model and the prior, a fifth of a 9×9 search's time when a node
// is expanded on its second visit: on the fourth, 9×9 searches 1.24×
// more playouts a CPU-second (20.7k against 16.8k, one thread, two
// alternated runs), and at equal playouts it beat the search expanding on
// the second visit 49 of 100 (5,000 playouts a move, max against max);
// against Pachi at 2 s a move max won 30 of 60, as before: no strength the
// games can see (issue 16 found the same at equal CPU when expansion was
// cheaper: 50 of 100), but each level's move comes sooner or searches
// more, and its tree grows a third as fast. 13×13 moved from the second
// visit with 9×9, unmeasured; 19×19 already expanded on the fourth, and
// the eighth would gain only 4% more there (a playout is five times
// longer).
const expandPlay = 4

// expandAnalysis is the expansion threshold of analyses on boards up to
// 13×13: reviews stay as they were measured on issue 34's blunder and
// false-alarm sets.
const expandAnalysis = 2

// minResignMove returns the first move number at which the searcher may
// resign on a board of the given size: 20 on 9×9, scaled with the area.
func minResignMove(size int) int {
	return (20*size*size + 80) / 81
}

// shapePrior is the weight of the shape model's prior (params.shape). At
// 2,000 playouts a move on 9×9, hard with it at 100 beat hard without it
// 125 of 200 games (62.5%, 95% 55.6–68.9%; the 3×3 model), and at 300 won
// 23 of 56 (41%). With the diamonds, 160 won 18 of 53 against 100 (34%)
// and 60 won 34 of 64 (53%, 41–65%: no clear gain).
const shapePrior = 100

// selfAtariRate is the share of the self-ataris that the playouts' random
// moves come upon and play (Options.SelfAtari). At 2,000 playouts a move
// on 9×9, hard with 0.4 beat hard without it 235 of 400 (58.8%, 95%
// 53.9–63.5%), and at 8,000 43 of 80 (53.8%); 0.1 won 114 of 200 and 0.7
// 107 of 200. The search's speed is unchanged.
const selfAtariRate = 0.4
