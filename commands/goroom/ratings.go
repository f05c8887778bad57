package goroom

import (
	"fmt"
	"math"
	"strings"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// StartRatings returns the ratings that the levels with a measured rank
// start from (glicko.AtRank of their Kyu and Spread), by level name: Go's
// entry of storage.Options.StartRatings, with which every process that
// rates games or rebuilds the ratings opens its store.
func StartRatings(levels []bots.Level) map[string]glicko.Rating {
	starts := map[string]glicko.Rating{}
	for _, l := range levels {
		if l.Kyu > 0 {
			starts[l.Name] = glicko.AtRank(l.Kyu, l.Spread)
		}
	}
	return starts
}

// gtpEngine reports whether level is an external GTP program
// ("gtp:gnugo"), whose strength gobot does not know: games against it are
// unrated (commands.EngineRated).
func gtpEngine(level string) bool { return strings.HasPrefix(level, bots.GTPPrefix) }

// goUnratedNote says why a game of Go was not rated: a game of two
// against a GTP program, never rated (rengo and vote games never are,
// whoever plays); asked to be rated, when storage left it unrated for
// being short or for its handicap. It is empty otherwise.
func goUnratedNote(g *storage.Game) string {
	for _, s := range []game.Side{0, 1} {
		if p := g.First(s); p.IsBot() && gtpEngine(p.Level) && !g.Team() && g.VotePeriod == 0 {
			return commands.EngineUnrated(p.Level)
		}
	}
	size := goOf(g).Size()
	switch {
	case g.Unrated:
		return ""
	case storage.ShortGame(size, g.State.MoveCount()):
		return fmt.Sprintf("Not rated: the game ended before each player had made %d moves.", storage.MinRatedMoves(size))
	case storage.TooMuchHandicap(size, goOf(g).Handicap(), goOf(g).Rules()):
		return fmt.Sprintf("Not rated: its handicap and komi are worth %.1f ranks, more than the %g a rated game may give.",
			glicko.HandicapRanks(size, goOf(g).Handicap(), goOf(g).Rules()), glicko.MaxAdvantage)
	}
	return ""
}

// checkRatedHandicap refuses a rated game whose handicap and komi give
// more than the ratings can weigh (storage.TooMuchHandicap).
func checkRatedHandicap(s setup, rated bool) error {
	if !rated || !storage.TooMuchHandicap(s.Size, s.Handicap, s.Rules) {
		return nil
	}
	ranks, to := glicko.HandicapRanks(s.Size, s.Handicap, s.Rules), "Black"
	if ranks < 0 { // a komi so large that the head start is White's
		ranks, to = -ranks, "White"
	}
	// Without handicap stones, only the komi can come nearer.
	fewer := "with fewer stones or a komi nearer the ruleset's"
	if s.Handicap == 0 {
		fewer = "with a komi nearer the ruleset's"
	}
	return commands.UserErr(commands.ErrBadOption, fmt.Sprintf(
		"A rated game may give at most %g ranks of head start; %s are %.1f ranks for %s. "+
			"Rated games take up to %d handicap stones on 9×9, %d on 13×13 and %d on 19×19 at komi 0.5; "+
			"play this one with `rated:false`, or %s (`komi:` overrides the server's default).",
		glicko.MaxAdvantage, headStart(s), ranks, to,
		glicko.MaxRatedHandicap(9), glicko.MaxRatedHandicap(13), glicko.MaxRatedHandicap(19), fewer))
}

// headStart names a setup's handicap: "9 stones on 9×9 at komi 0.5".
func headStart(s setup) string {
	stones := "no handicap stones"
	if s.Handicap > 0 {
		stones = commands.Plural(s.Handicap, "handicap stone")
	}
	return fmt.Sprintf("%s on %d×%d at komi %v", stones, s.Size, s.Size, s.Rules.Komi)
}

// RatedDefaults checks a server's defaults once its size, ruleset or komi
// changed (commands.ServerSettings): a rated game with them and no
// handicap must give no more head start than a rated game may
// (storage.TooMuchHandicap). On the server's default board that is a
// refusal, since every /go challenge and /go bot that names neither
// rated:false nor a komi would be refused; on the other sizes, which a
// challenger may choose, a warning.
func (*room) RatedDefaults(st *storage.Settings, name string) (refusal, warning string) {
	if st.Komi == nil || (name != "size" && name != "ruleset" && name != "komi") {
		return "", "" // the ruleset's own komi gives no head start
	}
	ruleset := engine.PresetNames[0]
	if st.Ruleset != "" {
		ruleset = st.Ruleset
	}
	rules, err := engine.Preset(ruleset)
	if err != nil {
		return "", ""
	}
	fair := rules.Komi
	rules.Komi = *st.Komi
	size := 19
	if st.Size != 0 {
		size = st.Size
	}
	var others []string
	for _, n := range commands.BoardSizes {
		if n != size && storage.TooMuchHandicap(n, 0, rules) {
			others = append(others, fmt.Sprintf("%d×%d", n, n))
		}
	}
	komi := engine.FormatKomi(rules.Komi)
	if storage.TooMuchHandicap(size, 0, rules) {
		refusal = fmt.Sprintf("With komi %s and %s rules, a rated game on %d×%d, this server's default board, gives %.1f ranks of head start, more than the %g a rated game may: "+
			"every `/go challenge` and `/go bot` here would be refused unless it said `rated:false` or its own `komi:`. "+
			"Choose a komi nearer the ruleset's (%s), or reset `komi`.",
			komi, ruleset, size, size, math.Abs(glicko.HandicapRanks(size, 0, rules)), glicko.MaxAdvantage, engine.FormatKomi(fair))
	}
	if len(others) > 0 {
		warning = fmt.Sprintf("⚠️ With komi %s and %s rules, rated games on %s give more than the %g ranks of head start a rated game may: "+
			"challenges and bot games there are refused unless they say `rated:false` or their own `komi:`.",
			komi, ruleset, strings.Join(others, " and "), glicko.MaxAdvantage)
	}
	return refusal, warning
}
