package review

import (
	"context"
	"math"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// Territory: what the playouts do not see.
//
// Light playouts treat a sealed area like any other empty space: the side
// to move invades it, and its random defence lets the invader live in a
// good share of the playouts. Two things follow in a review. The wall
// move that seals an area gets little of its value (the area is as open
// to the playouts after it as before), and whoever is to move in a
// position with big sealed areas is judged several points better off than
// he is, so the series of judgements swings with the side to move and
// honest moves are reported as mistakes. The review therefore works out
// the regions each side has sealed before the evaluator sees a position
// (sealed, by the dead-stone estimate of engine/estimate and Benson's
// pass-alive test it includes), fills the big ones with their owner's
// stones for the built-in search (sealedPosition), and judges a position
// whose every region is settled by counting it (territory.settled).

// sealedOwn is how surely, as the estimate's mean ownership from 0 to 1,
// the points of a region and the stones around it must be their owner's
// for the region to count as sealed.
const sealedOwn = 0.5

// neutralOwn bounds the ownership of the points of a neutral region (dame,
// or the shared liberties of a seki) in a settled position: a region
// touching both colours whose points the estimate gives to one side more
// surely than this is an open border, not dame; so is one with a point
// that touches no stone.
const neutralOwn = 0.5

// region is a maximal connected set of points that are empty or hold a
// dead stone (as the estimate judged them).
type region struct {
	points []int // vertices
	// owner is the only colour of live stones next to the region, Empty
	// when it touches both (or none).
	owner engine.Color
	// sealed says that owner has sealed the region: its points and the
	// owner's stones around it are surely the owner's by the estimate, and
	// those stones are neither uncertain nor short of liberties.
	sealed bool
	// neutral says that the region touches both colours and the estimate
	// gives none of its points clearly to either: dame or seki liberties.
	neutral bool
	// stones counts the dead stones in the region.
	stones int
	// calm says that no stone around the region touches a dead or
	// uncertain stone of the opponent: no fight goes on at its border.
	calm bool
}

// territory is the analysis of one position.
type territory struct {
	est     engine.Estimate
	dead    [engine.MaxArea]bool // by vertex
	regions []region
	// settled says that every region is sealed or neutral, no live chain
	// is in atari and no ko is open: nothing is left to play for but dame,
	// and count is the position's worth.
	settled bool
	// count is Black's lead as the game is scored (by area, or by
	// territory under Japanese rules) with the estimate's dead stones
	// taken off, komi and White's handicap compensation included.
	count float64
}

// analyse works out the regions of g's position with the dead-stone
// estimate. It does not modify g.
func analyse(ctx context.Context, g *engine.Game) *territory {
	b := g.Board()
	t := &territory{est: estimate.Dead(ctx, g, estimate.Options{Playouts: analysisPlayouts(g.Size())})}
	if len(t.est.Ownership) != g.Size()*g.Size() {
		return t
	}
	for _, p := range t.est.Dead {
		t.dead[b.Vertex(p)] = true
	}
	uncertain := map[int]bool{}
	for _, p := range t.est.Uncertain {
		uncertain[b.Chain(b.Vertex(p))] = true
	}
	size := b.Size()
	own := func(v int) float64 {
		p := b.Point(v)
		return t.est.Ownership[p.Row*size+p.Col]
	}
	mine := func(v int, c engine.Color) float64 {
		if c == engine.White {
			return -own(v)
		}
		return own(v)
	}
	var seen [engine.MaxArea]bool
	settled := true
	for v := 0; v < b.Area(); v++ {
		if b.IsBorder(v) || seen[v] || !t.free(b, v) {
			continue
		}
		r := region{}
		var reach [3]bool
		var borders []int
		stack := []int{v}
		seen[v] = true
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.points = append(r.points, u)
			if b.ColorAt(u) != engine.Empty {
				r.stones++
			}
			for _, n := range b.Neighbours(u) {
				switch {
				case b.IsBorder(n) || seen[n]:
				case t.free(b, n):
					seen[n] = true
					stack = append(stack, n)
				default:
					reach[b.ColorAt(n)] = true
					if h := b.Chain(n); !containsInt(borders, h) {
						borders = append(borders, h)
					}
				}
			}
		}
		switch {
		case reach[engine.Black] && !reach[engine.White]:
			r.owner = engine.Black
		case reach[engine.White] && !reach[engine.Black]:
			r.owner = engine.White
		}
		if r.owner != engine.Empty {
			r.sealed = true
			for _, u := range r.points {
				if mine(u, r.owner) < sealedOwn {
					r.sealed = false
					break
				}
			}
			r.calm = true
			for _, h := range borders {
				if uncertain[h] || b.Liberties(h, 2) < 2 || mine(h, r.owner) < sealedOwn {
					r.sealed = false
				}
				for st := h; ; {
					for _, n := range b.Neighbours(st) {
						if c := b.ColorAt(n); !b.IsBorder(n) && c == r.owner.Opponent() && (t.dead[n] || uncertain[b.Chain(n)]) {
							r.calm = false
						}
					}
					if st = b.NextStone(st); st == h {
						break
					}
				}
			}
		} else if reach[engine.Black] && reach[engine.White] {
			// Dame lie between the stones: every point touches one, and
			// none is clearly anyone's.
			r.neutral = true
			for _, u := range r.points {
				if math.Abs(own(u)) > neutralOwn || !t.nextToLive(b, u) {
					r.neutral = false
					break
				}
			}
		}
		if !r.sealed && !r.neutral {
			settled = false
		}
		t.regions = append(t.regions, r)
	}
	// A live chain in atari can still be saved or taken; an open ko can
	// still be fought.
	for v := 0; v < b.Area() && settled; v++ {
		if c := b.ColorAt(v); (c == engine.Black || c == engine.White) && !t.dead[v] && b.Liberties(v, 2) < 2 {
			settled = false
		}
	}
	if ko, _ := b.KoVertex(); ko != engine.PassVertex && ko != 0 && b.OnBoard(ko) {
		settled = false
	}
	t.settled = settled && len(t.est.Uncertain) == 0
	for _, r := range t.regions {
		if !t.settled {
			break
		}
		if r.sealed && !r.calm && len(r.points) <= maxProbed {
			t.settled = !t.invadable(ctx, g, r)
		}
	}
	// Counted as the game is scored: by territory under Japanese rules,
	// where a move inside one's own area costs a point and a pass none.
	s := engine.ScoreBoard(b, g.Rules(), t.est.Dead, g.Handicap())
	t.count = s.Black.Total - s.White.Total
	return t
}

// maxProbed is the size of the largest sealed region with a fight at its
// border (not calm) that analyse probes with the opponent's moves before
// it calls a position settled. Small regions are where a move can still
// live or shorten the owner's liberties; a big territory absorbs one move.
const maxProbed = 8

// invadable reports whether a stone of the opponent played inside r, a
// sealed region with a fight at its border, lives for the dead-stone
// estimate (is not dead) while none of the owner's stones becomes dead
// (that was not) or uncertain: then the region is not surely the owner's, a move there
// still gains points, and the position is not settled. In the 9×9 game g5
// of issue 28, after 41.B D1 Black's corner A1–B3 around a dead White
// stone on B2 was sealed; White's A3 there (GNU Go: 15.6 points, Black
// must answer at B3) made B2 and A3 alive for the estimate, and counting
// the position before it as settled made A3 a swing and a mistake. A move
// that threatens the owner's stones instead (an atari the owner answers,
// as in the closed games of testdata/closed9, which GNU Go passed without
// playing) leaves the count as it is once answered, and is not probed
// further. It does not modify g.
func (t *territory) invadable(ctx context.Context, g *engine.Game, r region) bool {
	b := g.Board()
	opp := r.owner.Opponent()
	for _, v := range r.points {
		if b.ColorAt(v) != engine.Empty {
			continue
		}
		probe := g.Clone()
		if probe.PlayEnded() && probe.Resume() != nil {
			return false
		}
		if probe.ToPlay() != opp {
			if probe.Play(engine.PassMove(probe.ToPlay())) != nil {
				return false
			}
		}
		if probe.Play(engine.PlaceAt(opp, b.Point(v))) != nil {
			continue
		}
		est := estimate.Dead(ctx, probe, estimate.Options{Playouts: analysisPlayouts(g.Size())})
		after := probe.Board()
		if after.ColorAt(v) != opp {
			continue // captured at once
		}
		lives, threat := true, false
		for _, p := range est.Dead {
			switch u := after.Vertex(p); {
			case u == v:
				lives = false
			case after.ColorAt(u) == r.owner && !t.dead[u]:
				threat = true
			}
		}
		for _, p := range est.Uncertain {
			if after.ColorAt(after.Vertex(p)) == r.owner {
				threat = true
			}
		}
		if lives && !threat {
			return true
		}
	}
	return false
}

// nextToLive reports whether v has a live stone next to it.
func (t *territory) nextToLive(b *engine.Board, v int) bool {
	for _, n := range b.Neighbours(v) {
		if c := b.ColorAt(n); !b.IsBorder(n) && (c == engine.Black || c == engine.White) && !t.dead[n] {
			return true
		}
	}
	return false
}

// free reports whether v is empty or holds a dead stone.
func (t *territory) free(b *engine.Board, v int) bool {
	return b.ColorAt(v) == engine.Empty || t.dead[v]
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// minFill is the smallest sealed region that sealedPosition fills: smaller
// ones are eyes, which the playouts respect already. Only empty regions
// are filled.
const minFill = 6

// sealedPosition returns g's position with every sealed region of at
// least minFill points filled with its owner's stones but for two eyes,
// the opponent's dead stones inside taken off: a position worth the same
// by area counting in which neither side can play inside those regions,
// so that the playouts count them as the owner's, as players do. A region
// is filled when it is sealed, calm and empty, or when all its points were
// filled for the same owner in the position before (kept; the estimate
// of one position may hesitate where that of the last was sure, and a
// region that flickers in and out of the fill would make the moves around
// it look like mistakes), its stones, if any, dead, and the owner's
// stones around it neither dead nor in atari. It returns the points it
// filled (eyes included) with their owner, for the next position, and g
// itself when nothing is filled (or play has ended, or a ko is open, which
// the new position could not keep). The position has no history: who is
// to move, a pass just played, the rules and the handicap are kept.
func (t *territory) sealedPosition(g *engine.Game, kept map[int]engine.Color) (*engine.Game, map[int]engine.Color) {
	if g.Over() {
		return g, nil
	}
	b := g.Board()
	if ko, _ := b.KoVertex(); ko != engine.PassVertex && ko != 0 && b.OnBoard(ko) {
		return g, nil
	}
	color := map[int]engine.Color{}
	filledFor := map[int]engine.Color{}
	for _, r := range t.regions {
		if len(r.points) < minFill || r.owner == engine.Empty {
			continue
		}
		fresh := r.sealed && r.calm && r.stones == 0
		if !fresh && !t.stillSealed(b, r, kept) {
			continue
		}
		eyes := eyePoints(b, r)
		if len(eyes) < 2 {
			continue
		}
		fill := map[int]engine.Color{}
		for _, v := range r.points {
			fill[v] = r.owner
		}
		for _, e := range eyes {
			fill[e] = engine.Empty
		}
		if !oneChain(b, color, fill, r.owner) {
			continue
		}
		for v, c := range fill {
			color[v] = c
			filledFor[v] = r.owner
		}
	}
	if len(color) == 0 {
		return g, nil
	}
	var stones []engine.Stone
	size := b.Size()
	for row := 0; row < size; row++ {
		for col := 0; col < size; col++ {
			p := engine.Point{Col: col, Row: row}
			v := b.Vertex(p)
			c, ok := color[v]
			if !ok {
				c = b.ColorAt(v)
			}
			if c == engine.Black || c == engine.White {
				stones = append(stones, engine.Stone{Point: p, Color: c})
			}
		}
	}
	cfg := g.Config()
	cfg.Handicap = 0
	if cfg.Rules.Scoring == engine.TerritoryScoring {
		// A territory count takes off the stones each side placed
		// (mcts.WhiteBonus): the filled stones were never played, and
		// the captures are not set up, so the komi makes up for both.
		placed := 0
		for _, s := range stones {
			if s.Color == engine.Black {
				placed++
			} else {
				placed--
			}
		}
		cfg.Rules.Komi += float64(mcts.Placed(g) - placed)
	}
	out, err := engine.NewGame(cfg)
	if err != nil {
		return g, nil
	}
	toPlay := g.ToPlay()
	first := toPlay
	if g.ConsecutivePasses() == 1 {
		first = toPlay.Opponent()
	}
	if err := out.SetupStones(stones, first, g.Handicap()); err != nil {
		return g, nil
	}
	if first != toPlay {
		if err := out.Play(engine.PassMove(first)); err != nil {
			return g, nil
		}
	}
	return out, filledFor
}

// stillSealed reports whether r was filled for its owner in the position
// before (every point of it in kept for that owner), holds only dead
// stones, and the owner's stones around it are neither dead nor in atari.
func (t *territory) stillSealed(b *engine.Board, r region, kept map[int]engine.Color) bool {
	for _, v := range r.points {
		if kept[v] != r.owner {
			return false
		}
		for _, n := range b.Neighbours(v) {
			if c := b.ColorAt(n); !b.IsBorder(n) && c == r.owner && (t.dead[n] || b.Liberties(n, 2) < 2) {
				return false
			}
		}
	}
	return true
}

// eyePoints picks two points of r, not next to each other even
// diagonally, whose neighbours and diagonals on the board all lie in r or
// hold the owner's stones: filled around with the owner's stones they are
// two real eyes.
func eyePoints(b *engine.Board, r region) []int {
	in := map[int]bool{}
	for _, v := range r.points {
		in[v] = true
	}
	s := b.Stride()
	var eyes []int
	for _, v := range r.points {
		if b.ColorAt(v) != engine.Empty {
			continue
		}
		ok := true
		for _, d := range [8]int{-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1} {
			if n := v + d; !b.IsBorder(n) && !in[n] && b.ColorAt(n) != r.owner {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if len(eyes) == 1 {
			pa, pb := b.Point(eyes[0]), b.Point(v)
			if abs(pa.Col-pb.Col) < 2 && abs(pa.Row-pb.Row) < 2 {
				continue
			}
		}
		eyes = append(eyes, v)
		if len(eyes) == 2 {
			break
		}
	}
	return eyes
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// oneChain reports whether filling with fill (on top of the fills made
// before, done) leaves the filled stones and the owner's stones next to
// them one chain: two eyes then make the whole of it alive.
func oneChain(b *engine.Board, done, fill map[int]engine.Color, owner engine.Color) bool {
	at := func(v int) engine.Color {
		if c, ok := fill[v]; ok {
			return c
		}
		if c, ok := done[v]; ok {
			return c
		}
		return b.ColorAt(v)
	}
	var start int
	for v, c := range fill {
		if c == owner {
			start = v
			break
		}
	}
	seen := map[int]bool{start: true}
	stack := []int{start}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range b.Neighbours(u) {
			if !b.IsBorder(n) && !seen[n] && at(n) == owner {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	// Every filled stone, and every stone of the owner next to a filled
	// point or an eye, must be in it.
	for v := range fill {
		if fill[v] == owner && !seen[v] {
			return false
		}
		for _, n := range b.Neighbours(v) {
			if !b.IsBorder(n) && at(n) == owner && !seen[n] {
				return false
			}
		}
	}
	return true
}

// settledPosition is the judgement of a settled position: its count, a
// certain result, and as the best move a dame that the player to move can
// fill without putting stones in atari (worth a point by area), or a pass.
func (t *territory) settledPosition(g *engine.Game) Position {
	p := Position{Score: t.count, Winrate: 0.5, Counted: true}
	switch {
	case t.count > 0:
		p.Winrate = 1
	case t.count < 0:
		p.Winrate = 0
	}
	best := engine.PassMove(g.ToPlay())
	b := g.Board()
	c := g.ToPlay()
	for _, r := range t.regions {
		if !r.neutral {
			continue
		}
		for _, v := range r.points {
			m := engine.PlaceAt(c, b.Point(v))
			if b.ColorAt(v) != engine.Empty || g.Check(m) != nil {
				continue
			}
			after := *b
			after.Play(v, c)
			if after.Liberties(v, 2) < 2 {
				continue
			}
			best = m
			break
		}
		if best.Kind == engine.Place {
			break
		}
	}
	p.Best = best.String()
	p.PV = []string{p.Best}
	return p
}

// analysisPlayouts is the number of playouts of the estimate behind
// analyse: half the estimate's default, which is tuned to call single dead
// stones at the end of a game; a region's owner needs fewer.
func analysisPlayouts(size int) int {
	return estimate.DefaultPlayouts(size) / 2
}

// insideSealed reports whether v lies in a calm region that owner has
// sealed: a stone of the opponent played there is an invasion of a
// finished area, which a review never offers as the better move (the
// playouts let such a stone live now and then; GNU Go and the count do
// not). A sealed region with a fight at its border (not calm) may still
// hold a move that gains (see invadable).
func (t *territory) insideSealed(v int, owner engine.Color) bool {
	for _, r := range t.regions {
		if r.sealed && r.calm && r.owner == owner && containsInt(r.points, v) {
			return true
		}
	}
	return false
}
