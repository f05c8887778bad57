package draughtsroom

import (
	"math"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// The placement of the draughts levels on the rating scale
// (docs/draughts-strength.md, "Start ratings"). Nobody measured them
// against people, only against each other up the ladder, so:
//   - beginner, a random mover, starts where Go's beginner does
//     (glicko.AtRank(30, 1), 536.5 ± 23.2): random play is the bottom of
//     either game's scale;
//   - each level above starts its Score against the level below higher,
//     converted to a rating difference (400·log10(s/(1−s))) and shrunk by
//     ladderShrink, since adjacent versions of one program exaggerate
//     their differences;
//   - each has the deviation of a Go level placed by matches
//     (levelSpread ranks at its rating), beginner Go's beginner's.
const (
	// ladderShrink is the share of the ladder's measured differences
	// that a level's start rating keeps: half, which places max (12 rungs
	// and 2,950 points of self-play above random moves) at 2012, a strong
	// club player, rather than 3,488, above any person.
	ladderShrink = 0.5
	// beginnerSpread and levelSpread are the deviations, in ranks at
	// the level's rating, of beginner and of the levels above it.
	beginnerSpread = 1
	levelSpread    = 2
)

// StartRatings returns the ratings that the built-in draughts levels start
// from, by level name: draughts' entry of storage.Options.StartRatings, with
// which every process that rates games or rebuilds the ratings opens its
// store. levels run from beginner up, each with its Score against the one
// before (dbots.Builtin); a level without one has no start rating, nor
// has every level after a gap. A Hub engine has none: games against it
// are not rated at all (hubEngine, commands.EngineRated).
func StartRatings(levels []dbots.Level) map[string]glicko.Rating {
	starts := map[string]glicko.Rating{}
	if len(levels) == 0 || levels[0].Name != "beginner" {
		return starts
	}
	rating := glicko.AtRank(30, beginnerSpread)
	starts[levels[0].Name] = rating
	for _, l := range levels[1:] {
		if l.Score <= 0 || l.Score >= 1 {
			break
		}
		rating = glicko.Around(rating.Rating+ladderShrink*400*math.Log10(l.Score/(1-l.Score)), levelSpread)
		starts[l.Name] = rating
	}
	return starts
}
