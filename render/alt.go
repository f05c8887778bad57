package render

import (
	"fmt"
	"strings"

	"github.com/gobot-dev/gobot/engine"
)

// AltText describes g's position in one line for an attachment's
// description, for screen readers and for when the picture does not load:
// "9×9 board, move 23, Black to play, last move White D5". It says so when
// the board is empty or has handicap stones, when the last move was a
// pass, when both players have passed and the game awaits scoring, and who
// won once the game is over.
func AltText(g *engine.Game) string { return altText(g, "") }

// AltTextEnded is AltText for a game that is over and whose result alone
// does not say how it ended (one annulled on time, which names no
// winner): how takes the result's place, "annulled on time, not counted".
func AltTextEnded(g *engine.Game, how string) string { return altText(g, how) }

// altText is AltText, with how in place of the result of a game over when
// it is not empty.
func altText(g *engine.Game, how string) string {
	if g == nil {
		return ""
	}
	n := g.Size()
	parts := []string{fmt.Sprintf("%d×%d board", n, n)}
	if h := g.Handicap(); h > 0 {
		parts = append(parts, fmt.Sprintf("%d handicap stones", h))
	}
	moves := g.MoveCount()
	last, hasLast := g.LastMove()
	if res, over := g.Result(); over {
		if moves > 0 {
			parts = append(parts, fmt.Sprintf("game over after %d %s", moves, plural(moves, "move")))
		} else {
			parts = append(parts, "game over")
		}
		if how == "" {
			how = describeResult(res)
		}
		parts = append(parts, how)
		return strings.Join(parts, ", ")
	}
	switch {
	case moves == 0 && g.Handicap() == 0 && len(g.Setup()) == 0:
		parts = append(parts, "empty")
	case moves > 0:
		parts = append(parts, fmt.Sprintf("move %d", moves))
	}
	if g.PlayEnded() {
		parts = append(parts, "both players passed, counting the score")
		return strings.Join(parts, ", ")
	}
	parts = append(parts, title(g.ToPlay().String())+" to play")
	if hasLast {
		who := title(last.Color.String())
		switch last.Kind {
		case engine.Pass:
			parts = append(parts, "last move "+who+" passed")
		default:
			parts = append(parts, "last move "+who+" "+last.Point.String())
		}
	}
	return strings.Join(parts, ", ")
}

// describeResult says who won and how, as players say it.
func describeResult(r engine.Result) string {
	if r.Winner == engine.Empty {
		if r.Reason == engine.ByScore {
			return "a draw (jigo)"
		}
		return "no result"
	}
	who := title(r.Winner.String())
	switch r.Reason {
	case engine.ByResignation:
		return who + " wins by resignation"
	case engine.ByTime:
		return who + " wins on time"
	case engine.ByForfeit:
		return who + " wins by forfeit"
	default:
		return fmt.Sprintf("%s wins by %s %s", who, engine.FormatKomi(r.Margin), pointWord(r.Margin))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func pointWord(margin float64) string {
	if margin == 1 {
		return "point"
	}
	return "points"
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
