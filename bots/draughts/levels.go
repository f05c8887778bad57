package draughts

import (
	"strings"
	"time"
)

// Level is an opponent users pick by name: a kind of Player with the
// budget it plays at.
type Level struct {
	Name string // as users type it: "beginner", "hard", "hub:scan"
	// Description is one short line for Discord's level list, with the
	// level's strength as the ladder measured it (docs/draughts-strength.md).
	Description string
	Budget      Budget // the budget each move gets
	// New returns a fresh Player for one move or one game.
	New func(seed int64) Player
}

// HubPrefix starts the names of the levels played by Hub engines.
const HubPrefix = "hub:"

// The budgets of the search levels, in nodes, so that their strength does
// not depend on the machine or its load; the time caps keep a loaded
// machine answering. See docs/draughts-strength.md for the matches that
// set them.
const (
	mediumNodes = 3_000
	hardNodes   = 60_000
	maxNodes    = 1_500_000
)

// Builtin returns the built-in levels from weakest to strongest.
func Builtin() []Level {
	return []Level{
		{
			Name:        "beginner",
			Description: "random legal moves (captures when it must): anyone can win.",
			New:         func(seed int64) Player { return NewRandom(seed) },
		},
		{
			Name:        "easy",
			Description: "greedy: takes the most material it sees one move ahead, captures played out.",
			Budget:      Budget{Depth: 1, Time: time.Second},
			New: func(seed int64) Player {
				return NewSearchPlayer(Options{Weights: &MaterialWeights, TableBits: 10, Seed: seed, Noise: 9})
			},
		},
		{
			Name:        "medium",
			Description: "a small alpha-beta search of 3,000 positions a move.",
			Budget:      Budget{Nodes: mediumNodes, Time: time.Second},
			New: func(seed int64) Player {
				return NewSearchPlayer(Options{TableBits: 14, Seed: seed, Noise: 20, Threats: 1})
			},
		},
		{
			Name:        "hard",
			Description: "alpha-beta search of 60,000 positions a move.",
			Budget:      Budget{Nodes: hardNodes, Time: 2 * time.Second},
			New: func(seed int64) Player {
				return NewSearchPlayer(Options{TableBits: 18, Seed: seed, Noise: 8, Threats: 1})
			},
		},
		{
			Name:        "max",
			Description: "alpha-beta search of 1.5 million positions a move: the strongest built-in level.",
			Budget:      Budget{Nodes: maxNodes, Time: 5 * time.Second},
			New: func(seed int64) Player {
				return NewSearchPlayer(Options{TableBits: 20, Seed: seed, Noise: 4, Threats: 1})
			},
		},
	}
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
