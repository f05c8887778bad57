package render

import "github.com/gobot-dev/gobot/engine"

// MoveNumbers returns the move numbers of the stones on g's board that
// were placed by its last n moves (all moves when n <= 0), for
// Options.Numbers. Moves are numbered from 1 in the order played, passes
// included, as SGF editors number them; a stone that was captured has no
// number, and a point played twice shows the later move.
func MoveNumbers(g *engine.Game, n int) map[engine.Point]int {
	moves := g.Moves()
	from := 0
	if n > 0 && len(moves) > n {
		from = len(moves) - n
	}
	placed := make(map[engine.Point]int)
	for i, m := range moves {
		if m.Kind == engine.Place && i >= from {
			placed[m.Point] = i + 1
		}
	}
	b := g.Board()
	nums := make(map[engine.Point]int, len(placed))
	for p, num := range placed {
		// A stone still there is the one this move placed: any later
		// stone on the point would have come from a later move, which
		// would have replaced the number.
		if b.At(p) != engine.Empty {
			nums[p] = num
		}
	}
	return nums
}
