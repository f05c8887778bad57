package draughts

import (
	"context"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Level is an opponent users pick by name: a kind of Player with the
// budget it plays at.
type Level struct {
	Name string // as users type it: "beginner", "hard", "hub:scan"
	// Description is one short line for Discord's level list, with the
	// level's strength as the ladder measured it (docs/draughts-strength.md).
	Description string
	// Score is the level's score against the level below it in the
	// ladder's match (docs/draughts-strength.md), draws counting half:
	// 0.85 for novice, which beat beginner 34 games of 40. It is 0 for
	// beginner, the bottom of the ladder, and for the Hub engines, never
	// measured; the levels' start ratings are placed by it
	// (draughtsroom.StartRatings).
	Score  float64
	Budget Budget // the budget each move gets
	// New returns a fresh Player for one move or one game.
	New func(seed int64) Player
	// Search, for the levels that are a plain alpha-beta search, holds
	// the search's options (without Seed and Info), for the callers that
	// keep a Searcher of their own (the Hub server); nil for the others.
	Search *Options
}

// HubPrefix starts the names of the levels played by Hub engines.
const HubPrefix = "hub:"

// The ladder's rungs. Each level beats the one below it 70–90% of the
// games (docs/draughts-strength.md lists the matches): the strength of a
// draughts player climbs steeply with its search, so the levels are many
// and close. The lowest play the greedy search on a share of their moves
// and a random move on the others; medium plays a 2-ply search on half
// its moves and greedy on the others; from keen up the levels search a
// fixed count of nodes, so that their strength does not depend on the
// machine or its load (the time caps only keep a loaded machine
// answering).
const (
	noviceGreedy  = 0.35
	learnerGreedy = 0.65
	casualGreedy  = 0.85
	mediumReads   = 0.5
	keenNodes     = 1_000
	strongNodes   = 2_500
	toughNodes    = 10_000
	hardNodes     = 40_000
	expertNodes   = 150_000
	maxNodes      = 500_000
)

// The players the levels are made of.
var (
	// greedyOptions: material only, one ply and the captures after it,
	// with a little noise to vary among equal moves.
	greedyOptions = Options{Weights: &MaterialWeights, TableBits: 10, Noise: 9}
	greedyBudget  = Budget{Depth: 1, Time: time.Second}
	// shallowOptions: the full evaluation, two plies, more noise.
	shallowOptions = Options{TableBits: 14, Noise: 20, Threats: 1}
	shallowBudget  = Budget{Depth: 2, Time: time.Second}
	// searchOptions: the levels of a node count.
	searchOptions = Options{TableBits: 18, Noise: 8, Threats: 1}
)

// Builtin returns the built-in levels from weakest to strongest.
func Builtin() []Level {
	return []Level{
		{
			Name:        "beginner",
			Description: "random legal moves (it captures when it must): anyone can win.",
			New:         func(seed int64) Player { return NewRandom(seed) },
		},
		greedyShare("novice", "greedy on a third of its moves, random otherwise: beats beginner 85%.", 34.0/40, noviceGreedy),
		greedyShare("learner", "greedy on two moves in three, random otherwise: beats novice 82%.", 33.0/40, learnerGreedy),
		greedyShare("casual", "greedy on most moves, random on one in seven: beats learner 80%.", 32.0/40, casualGreedy),
		{
			Name:        "easy",
			Description: "greedy: the most material one move ahead, captures played out: beats casual 80%.",
			Score:       32.0 / 40,
			Budget:      greedyBudget,
			New:         func(seed int64) Player { return newSearch(greedyOptions, seed) },
			Search:      &greedyOptions,
		},
		{
			Name:        "medium",
			Description: "looks two moves ahead on half its moves, greedy on the others: beats easy 72%.",
			Score:       29.0 / 40,
			Budget:      shallowBudget,
			New: func(seed int64) Player {
				return NewBlend(Budgeted(newSearch(shallowOptions, seed), shallowBudget),
					Budgeted(newSearch(greedyOptions, seed+1), greedyBudget), mediumReads, seed+2)
			},
		},
		{
			Name:        "steady",
			Description: "alpha-beta search two moves deep: beats medium 82%.",
			Score:       33.0 / 40,
			Budget:      shallowBudget,
			New:         func(seed int64) Player { return newSearch(shallowOptions, seed) },
			Search:      &shallowOptions,
		},
		nodeLevel("keen", "alpha-beta search of 1,000 positions a move: beats steady 79%.", 31.5/40, keenNodes, time.Second),
		nodeLevel("strong", "alpha-beta search of 2,500 positions a move: beats keen 82%.", 33.0/40, strongNodes, time.Second),
		nodeLevel("tough", "alpha-beta search of 10,000 positions a move: beats strong 81%.", 32.5/40, toughNodes, time.Second),
		nodeLevel("hard", "alpha-beta search of 40,000 positions a move: beats tough 79%.", 31.5/40, hardNodes, 2*time.Second),
		nodeLevel("expert", "alpha-beta search of 150,000 positions a move: beats hard 81%.", 32.5/40, expertNodes, 3*time.Second),
		nodeLevel("max", "alpha-beta search of 500,000 positions a move, the strongest: beats expert 79%.", 31.5/40, maxNodes, 5*time.Second),
	}
}

// greedyShare returns a level that plays the greedy search on a share of
// its moves and a random move on the others; score is its Score.
func greedyShare(name, description string, score, share float64) Level {
	return Level{
		Name:        name,
		Description: description,
		Score:       score,
		Budget:      greedyBudget,
		New: func(seed int64) Player {
			return NewBlend(newSearch(greedyOptions, seed), NewRandom(seed+1), share, seed+2)
		},
	}
}

// nodeLevel returns a level that searches a count of nodes a move, capped
// at limit; score is its Score.
func nodeLevel(name, description string, score float64, nodes int64, limit time.Duration) Level {
	return Level{
		Name:        name,
		Description: description,
		Score:       score,
		Budget:      Budget{Nodes: nodes, Time: limit},
		New:         func(seed int64) Player { return newSearch(searchOptions, seed) },
		Search:      &searchOptions,
	}
}

func newSearch(opts Options, seed int64) *SearchPlayer {
	opts.Seed = seed
	return NewSearchPlayer(opts)
}

// Budgeted returns p playing with budget b whatever budget it is given
// (the context's deadline still holds): a part of a Blend whose parts
// search differently.
func Budgeted(p Player, b Budget) Player { return budgeted{p, b} }

type budgeted struct {
	p Player
	b Budget
}

func (x budgeted) GenMove(ctx context.Context, g Game, _ Budget) (draughts.Move, error) {
	return x.p.GenMove(ctx, g, x.b)
}

// Lookup finds a built-in level by name, ignoring case. Levels of Hub
// engines are found with Registry.Lookup.
func Lookup(name string) (Level, bool) { return lookup(Builtin(), name) }

func lookup(levels []Level, name string) (Level, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, l := range levels {
		if l.Name == name {
			return l, true
		}
	}
	// A Hub engine may be named without its prefix when no built-in
	// level has that name.
	for _, l := range levels {
		if strings.HasPrefix(l.Name, HubPrefix) && l.Name[len(HubPrefix):] == name {
			return l, true
		}
	}
	return Level{}, false
}
