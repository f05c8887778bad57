package draughts

import (
	"fmt"
	"strings"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

// AltText describes s's position in one line for an attachment's
// description, for screen readers and for when the picture does not
// load: "White to move; White 20 men, Black 19 men and 1 king; last move
// 32x23". Once the game is over it says who won and how instead of who
// is to move: "Game over, White wins 2-0 (Black cannot move); …".
func AltText(s rules.State) string {
	if r, over := s.Result(); over {
		return altText(s, "Game over, "+describeResult(s, r))
	}
	p := s.Position()
	return altText(s, p.Turn().String()+" to move")
}

// AltTextEnded is AltText for a game that ended off the board in a way
// the rules do not know, with how instead of who is to move: "Game over,
// aborted, not counted; White 20 men, …". It is for a record that keeps
// no result (PDN's "*").
func AltTextEnded(s rules.State, how string) string {
	return altText(s, "Game over, "+how)
}

// AltTextNoted is AltText for a game that is over, with note after who
// won and how: "Game over, White wins 2-0 (resignation), annulled, not
// counted; …". It is for a record that keeps its result but does not
// count.
func AltTextNoted(s rules.State, note string) string {
	if r, over := s.Result(); over {
		return altText(s, "Game over, "+describeResult(s, r)+", "+note)
	}
	return AltTextEnded(s, note)
}

// altText is the alt text with head first.
func altText(s rules.State, head string) string {
	var b strings.Builder
	p := s.Position()
	b.WriteString(head + "; ")
	for i, c := range []rules.Color{rules.White, rules.Black} {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.String() + " " + countPieces(p.Men(c).Count(), p.Kings(c).Count()))
	}
	if n := s.MoveCount(); n > 0 {
		fmt.Fprintf(&b, "; last move %s", s.Moves()[n-1])
	}
	return b.String()
}

// countPieces says "20 men", "19 men and 1 king", "2 kings" or "no pieces".
func countPieces(men, kings int) string {
	var parts []string
	if men > 0 {
		parts = append(parts, plural(men, "man", "men"))
	}
	if kings > 0 {
		parts = append(parts, plural(kings, "king", "kings"))
	}
	if len(parts) == 0 {
		return "no pieces"
	}
	return strings.Join(parts, " and ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// describeResult says who won and how, as players say it, with the
// result as PDN writes it: "White wins 2-0 (Black cannot move)", "White
// wins 2-0 (all of Black's pieces are taken)", "draw 1-1 (threefold
// repetition)". s is the game, whose final position tells the two wins
// by the rules apart, as the board's message does.
func describeResult(s rules.State, r game.Result) string {
	var how string
	switch r.Reason {
	case game.ByRule:
		if r.Winner != game.NoSide {
			loser := rules.Color(r.Winner).Opponent()
			how = loser.String() + " cannot move"
			if p := s.Position(); p.Pieces(loser).Count() == 0 {
				how = "all of " + loser.String() + "'s pieces are taken"
			}
		} else {
			how = "by the rules"
		}
	case rules.ByRepetition:
		how = "threefold repetition"
	case game.ByResignation:
		how = "resignation"
	case game.ByTime:
		how = "on time"
	case game.ByAgreement:
		how = "by agreement"
	case game.ByForfeit:
		how = "forfeit"
	default: // the 25-, 16- and 5-move rules say themselves
		how = string(r.Reason)
	}
	if r.Winner == game.NoSide {
		return fmt.Sprintf("draw %s (%s)", r.Text, how)
	}
	return fmt.Sprintf("%s wins %s (%s)", rules.Color(r.Winner), r.Text, how)
}
