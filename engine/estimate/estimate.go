package estimate

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// Options tunes Dead. The zero value is the default.
type Options struct {
	// Playouts is the number of random playouts, half of them with each
	// side to move first; 0 means DefaultPlayouts for the board size.
	Playouts int
	// DeadThreshold is how strongly the playouts must give a chain's points
	// to the opponent, as a mean ownership from 0 to 1, for the chain to be
	// called dead; 0 means DefaultDeadThreshold.
	DeadThreshold float64
}

// DefaultDeadThreshold is the dead threshold Dead uses when
// Options.DeadThreshold is 0: a chain is dead when the opponent owns
// its points in about 65% of the playouts or more (mean ownership -0.3 from
// the chain's side). It was tuned on the GNU Go corpus in
// testdata/scoring/corpus.
const DefaultDeadThreshold = 0.3

// uncertainBand bounds the uncertain chains: alive chains whose mean
// ownership from their own side is below -uncertainBand, that is whose
// own side owns their points in less than about 70% of the playouts. On the
// corpus this flags about one game in a hundred.
const uncertainBand = -0.4

// livingScore is how clearly its own side must own a chain (mean ownership
// from its side) for a connection to it to save another chain (see
// joinsLife): owned in about three playouts of four. A seki's chains, owned
// by neither side, are not living so.
const livingScore = 0.5

// DefaultPlayouts returns the number of playouts Dead runs on a board of
// the given size when Options.Playouts is 0.
func DefaultPlayouts(size int) int {
	switch {
	case size <= 9:
		return 600
	case size <= 13:
		return 500
	}
	return 400
}

// Dead estimates which stones on g's board are dead, as players
// agree at the end of a game. It combines
//   - ownership from playouts by the policy of engine/playout with the
//     estimate's weights (see policy): capture-aware, with eye protection
//     and no self-atari of groups, so that seki survives; half of them
//     with each side to move first;
//   - Benson's pass-alive chains, which are never dead, and the territory
//     they make certain, where opposing stones are always dead;
//   - seki: chains sharing liberties that neither side can fill stay
//     alive and the shared liberties are neutral, unless one side can give
//     up two or three stones there to leave an eyeless opponent a dead
//     shape (then the opponent is dead);
//   - a threshold (Options.DeadThreshold): chains the playouts
//     give to the opponent less clearly stay alive, and those whose own
//     side owns them in less than about 70% of the playouts are reported
//     as Uncertain, for the players to check.
//
// Chains that lie together in the opponent's area are judged together. The
// result is deterministic for a given position and g.Seed(). When ctx is
// cancelled it returns at once with what the playouts run so far show
// (static analysis alone if none ran). It does not modify g.
func Dead(ctx context.Context, g *engine.Game, opts Options) engine.Estimate {
	b := g.Board()
	return board(ctx, b, g.ToPlay(), uint64(g.Seed()), opts)
}

// DeadStones returns the dead stones Dead finds with the default options.
// It has the shape of gtp.ServerOptions.DeadStones, so that GTP's
// final_score and final_status_list use the same estimate as the scoring
// phase.
func DeadStones(ctx context.Context, g *engine.Game) []engine.Point {
	return Dead(ctx, g, Options{}).Dead
}

// Seki returns the stones in seki on b when the stones listed in dead are
// dead (with the rest of their chains): a final marking, or the answer of
// gtp.ServerOptions.DeadStones. It finds them as Dead does (see seki),
// counting every chain not dead as living, in row-major order from A1.
// Chains that only look like seki, which a sacrifice would kill, are not
// in seki, but they are not made dead either: dead decides which stones
// are dead.
func Seki(b *engine.Board, dead []engine.Point) []engine.Point {
	size := b.Size()
	var isDead [engine.MaxArea]bool
	for _, p := range dead {
		if p.Valid(size) && b.At(p) != engine.Empty {
			isDead[b.Chain(b.Vertex(p))] = true
		}
	}
	heads, _, _ := seki(b, &isDead, func(h int) bool { return !isDead[h] })
	var inSeki [engine.MaxArea]bool
	for _, h := range heads {
		inSeki[h] = true
	}
	var stones []engine.Point
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			p := engine.Point{Col: c, Row: r}
			if v := b.Vertex(p); b.ColorAt(v) != engine.Empty && inSeki[b.Chain(v)] {
				stones = append(stones, p)
			}
		}
	}
	return stones
}

// board is Dead on a bare board.
func board(ctx context.Context, b *engine.Board, toPlay engine.Color, seed uint64, opts Options) engine.Estimate {
	size := b.Size()
	n := opts.Playouts
	if n <= 0 {
		n = DefaultPlayouts(size)
	}
	threshold := opts.DeadThreshold
	if threshold <= 0 || threshold >= 1 {
		threshold = DefaultDeadThreshold
	}
	if toPlay != engine.White {
		toPlay = engine.Black
	}

	// Static analysis.
	var alive, safe [3][engine.MaxArea]bool
	b.PassAlive(engine.Black, &alive[engine.Black], &safe[engine.Black])
	b.PassAlive(engine.White, &alive[engine.White], &safe[engine.White])

	// Playouts, on up to maxWorkers goroutines that all end before the
	// estimate is made. Each playout has its own random stream and the
	// counts are integers, so the result does not depend on how the
	// playouts were shared out.
	workers := min(maxWorkers, runtime.GOMAXPROCS(0), n)
	counts := make([][]int32, workers)
	doneBy := make([]int, workers)
	base := seed ^ b.Hash()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		counts[w] = make([]int32, size*size)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			doneBy[w] = runPlayouts(ctx, b, toPlay, base, w, workers, n, counts[w])
		}(w)
	}
	wg.Wait()
	own := make([]float64, size*size)
	done := 0
	for w := range counts {
		done += doneBy[w]
		for i, c := range counts[w] {
			own[i] += float64(c)
		}
	}
	if done > 0 {
		for i := range own {
			own[i] /= float64(done)
		}
	}
	idx := func(v int) int {
		p := b.Point(v)
		return p.Row*size + p.Col
	}
	// Certain results override the playouts.
	for v := 0; v < b.Area(); v++ {
		if b.IsBorder(v) {
			continue
		}
		switch {
		case safe[engine.Black][v] || alive[engine.Black][v]:
			own[idx(v)] = 1
		case safe[engine.White][v] || alive[engine.White][v]:
			own[idx(v)] = -1
		}
	}

	// Judge chains: the mean ownership of their stones, from their own
	// point of view.
	area := b.Area()
	var dead [engine.MaxArea]bool
	var score [engine.MaxArea]float64 // by chain head
	var heads []int
	for v := 0; v < area; v++ {
		if b.IsBorder(v) {
			continue
		}
		c := b.ColorAt(v)
		if c == engine.Empty {
			continue
		}
		h := b.Chain(v)
		if h == v {
			heads = append(heads, h)
		}
		sign := 1.0
		if c == engine.White {
			sign = -1
		}
		score[h] += sign * own[idx(v)]
	}
	for _, h := range heads {
		score[h] /= float64(b.ChainSize(h))
		c := b.ColorAt(h)
		switch {
		case alive[c][h]:
		case safe[c.Opponent()][h]:
			dead[h] = true
		case done > 0 && score[h] <= -threshold:
			dead[h] = true
		}
	}
	judgeTogether(b, own, heads, &score, &dead, &alive, threshold)
	if done > 0 {
		enclosedInvaders(b, own, &score, &dead, &alive, threshold)
	}
	// A chain is living, for a connection to save another, when Benson's
	// test says so or its own side owns it clearly (livingScore); the
	// inner chains of a seki (near 0) are not.
	living := func(h int) bool {
		return !dead[h] && (alive[b.ColorAt(h)][h] || score[h] >= livingScore)
	}
	connectedToLife(b, own, heads, &score, &dead, &safe, living)

	// Seki: on the board without the dead stones, empty points next to
	// both colours where neither side can play without self-atari.
	sekiHeads, sekiPoints, killed := seki(b, &dead, living)
	for _, h := range killed {
		c := b.ColorAt(h)
		if alive[c][h] {
			continue
		}
		dead[h] = true
		// The stones count for the killer now.
		sign := -1.0
		if c == engine.White {
			sign = 1
		}
		for s := h; ; {
			i := idx(s)
			if sign*own[i] < 0.5 {
				own[i] = sign * 0.5
			}
			if s = b.NextStone(s); s == h {
				break
			}
		}
	}
	for _, h := range sekiHeads {
		dead[h] = false
	}
	for _, v := range sekiPoints {
		own[idx(v)] = 0
	}

	e := engine.Estimate{Ownership: own, Playouts: done}
	var inSeki [engine.MaxArea]bool
	for _, h := range sekiHeads {
		inSeki[h] = true
	}
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			p := engine.Point{Col: c, Row: r}
			v := b.Vertex(p)
			if b.ColorAt(v) == engine.Empty {
				continue
			}
			h := b.Chain(v)
			switch {
			case dead[h]:
				e.Dead = append(e.Dead, p)
			case inSeki[h]:
				e.Seki = append(e.Seki, p)
			case done > 0 && score[h] < -uncertainBand && !alive[b.ColorAt(v)][h]:
				e.Uncertain = append(e.Uncertain, p)
			}
		}
	}
	return e
}

// judgeTogether makes chains of one colour that lie in the same area of
// the opponent's (connected through empty points the playouts give to the
// opponent) share one verdict: the stone-weighted mean of their scores.
func judgeTogether(b *engine.Board, own []float64, heads []int, score *[engine.MaxArea]float64, dead *[engine.MaxArea]bool, alive *[3][engine.MaxArea]bool, threshold float64) {
	size := b.Size()
	var comp [engine.MaxArea]int32 // component id + 1, by chain head
	next := int32(0)
	stack := make([]int, 0, 64)
	var seen [engine.MaxArea]int32
	for _, h0 := range heads {
		c := b.ColorAt(h0)
		if comp[h0] != 0 || alive[c][h0] {
			continue
		}
		next++
		id := next
		members := []int{h0}
		comp[h0] = id
		sign := 1.0
		if c == engine.White {
			sign = -1
		}
		// Flood from the chain's stones through the chain's colour and
		// through empty points owned by the opponent.
		stack = stack[:0]
		for s := h0; ; {
			stack = append(stack, s)
			seen[s] = id
			s = b.NextStone(s)
			if s == h0 {
				break
			}
		}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range b.Neighbours(u) {
				if b.IsBorder(n) || seen[n] == id {
					continue
				}
				switch b.ColorAt(n) {
				case engine.Empty:
					p := b.Point(n)
					if sign*own[p.Row*size+p.Col] < -threshold {
						seen[n] = id
						stack = append(stack, n)
					}
				case c:
					h := b.Chain(n)
					if alive[c][h] || (comp[h] != 0 && comp[h] != id) {
						continue
					}
					if comp[h] == 0 {
						comp[h] = id
						members = append(members, h)
					}
					seen[n] = id
					stack = append(stack, n)
				}
			}
		}
		if len(members) < 2 {
			continue
		}
		total, stones := 0.0, 0
		for _, h := range members {
			k := b.ChainSize(h)
			total += score[h] * float64(k)
			stones += k
		}
		mean := total / float64(stones)
		for _, h := range members {
			// Certain verdicts stay.
			if dead[h] && score[h] == -1 {
				continue
			}
			dead[h] = mean <= -threshold
		}
	}
}

// connectedToLife keeps alive the chains marked dead that one safe move
// joins to a living chain of their colour: they have two liberties or
// more, and one of them, next to a living chain of theirs, is a point the
// opponent cannot take without leaving its stone in atari (capturing
// nothing), or cannot take at all. Whatever the opponent plays there, the
// stone is captured; wherever else, they connect. Random playouts miss the
// capture often enough to give such chains away (three stones on the edge
// that connect under a throw-in, in many finished professional games), so
// the estimate would count them dead. A rescued chain can rescue others;
// its stones take the ownership of the chain it joins, so that it is not
// reported as uncertain. Chains in the opponent's certain territory stay
// dead.
func connectedToLife(b *engine.Board, own []float64, heads []int, score *[engine.MaxArea]float64, dead *[engine.MaxArea]bool, safe *[3][engine.MaxArea]bool, living func(h int) bool) {
	size := b.Size()
	idx := func(v int) int {
		p := b.Point(v)
		return p.Row*size + p.Col
	}
	for changed := true; changed; {
		changed = false
		for _, h := range heads {
			c := b.ColorAt(h)
			if !dead[h] || safe[c.Opponent()][h] {
				continue
			}
			joins := joinsLife(b, h, 0, living)
			if joins < 0 {
				continue
			}
			dead[h], score[h], changed = false, score[joins], true
			sign := 1.0
			if c == engine.White {
				sign = -1
			}
			for s := h; ; {
				if i := idx(s); sign*own[i] < sign*own[idx(joins)] {
					own[i] = own[idx(joins)]
				}
				if s = b.NextStone(s); s == h {
					break
				}
			}
		}
	}
}

// joinsLife returns the living chain (see living in board) of its colour
// that chain h joins by a safe connection, or -1: h has two liberties or
// more, and one of them other than except, next to that chain, is a point
// the opponent cannot take without leaving its stone in atari and
// capturing nothing, or cannot take at all, and that joins them with
// liberties to spare (see gains).
func joinsLife(b *engine.Board, h, except int, living func(h int) bool) int {
	if b.Liberties(h, 2) < 2 {
		return -1
	}
	c := b.ColorAt(h)
	o := c.Opponent()
	var buf [32]int
	for _, l := range b.LibertyList(buf[:0], h, len(buf)) {
		if l == except {
			continue
		}
		friend := -1
		for _, n := range b.Neighbours(l) {
			if b.ColorAt(n) == c && b.Chain(n) != h && living(b.Chain(n)) {
				friend = b.Chain(n)
				break
			}
		}
		if friend < 0 {
			continue
		}
		if b.Legal(l, o) {
			if self, _ := playout.SelfAtari(b, l, o); !self {
				continue
			}
		}
		if !gains(b, h, friend, l, except) {
			continue
		}
		return friend
	}
	return -1
}

// gains reports whether chains h and friend joined at l have two
// liberties or more besides l and except: a connection that leaves them
// short of liberties (two inner chains of a seki joined on one of its
// shared points) saves nothing.
func gains(b *engine.Board, h, friend, l, except int) bool {
	var buf [8]int
	libs := b.LibertyList(buf[:0], h, len(buf))
	libs = b.LibertyList(libs, friend, len(buf))
	n := 0
	for i, x := range libs {
		if x != l && x != except && !slices.Contains(libs[:i], x) {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// seki returns the chains in seki and their shared liberties, on b with
// the chains marked dead taken off: an empty point next to stones of both
// colours where either side playing would put its own stones in atari
// without capturing. It also returns the chains that only look like seki:
// when one side can give up at most three stones there and the other side's
// chains have no eye, capturing leaves them a dead shape (two or three points
// that the sacrificer kills with a stone on the vital point), so those chains
// are dead.
func seki(b *engine.Board, dead *[engine.MaxArea]bool, living func(h int) bool) (heads, points, killed []int) {
	area := b.Area()
	for v := 0; v < area; v++ {
		if b.IsBorder(v) || b.ColorAt(v) != engine.Empty {
			continue
		}
		var reach [3]bool
		var adj [3][]int // live chains next to v, by colour
		for _, n := range b.Neighbours(v) {
			if c := b.ColorAt(n); !b.IsBorder(n) && c != engine.Empty && !dead[b.Chain(n)] {
				reach[c] = true
				adj[c] = appendUnique(adj[c], b.Chain(n))
			}
		}
		if !reach[engine.Black] || !reach[engine.White] {
			continue
		}
		if !sekiMove(b, v, engine.Black, dead) || !sekiMove(b, v, engine.White, dead) {
			continue
		}
		if joinsAny(b, adj[engine.Black], v, living) || joinsAny(b, adj[engine.White], v, living) {
			// A chain that connects to life elsewhere is short of
			// nothing: v is a neutral point, not a seki, and no
			// sacrifice there kills it.
			continue
		}
		var kills [3]bool // kills[x]: x can kill the other side by sacrifice
		for _, x := range []engine.Color{engine.Black, engine.White} {
			sacrifice := 1
			for _, h := range adj[x] {
				sacrifice += b.ChainSize(h)
			}
			kills[x] = sacrifice <= 3 && !hasEye(b, adj[x.Opponent()], v)
		}
		switch {
		case kills[engine.Black] && !kills[engine.White]:
			for _, h := range adj[engine.White] {
				killed = appendUnique(killed, h)
			}
			continue
		case kills[engine.White] && !kills[engine.Black]:
			for _, h := range adj[engine.Black] {
				killed = appendUnique(killed, h)
			}
			continue
		}
		points = append(points, v)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			for _, h := range adj[c] {
				heads = appendUnique(heads, h)
			}
		}
	}
	kept := heads[:0]
	for _, h := range heads {
		if !slices.Contains(killed, h) {
			kept = append(kept, h)
		}
	}
	return kept, points, killed
}

// joinsAny reports whether any of the chains joins a living chain by a
// safe connection other than at v (see joinsLife).
func joinsAny(b *engine.Board, chains []int, v int, living func(h int) bool) bool {
	for _, h := range chains {
		if joinsLife(b, h, v, living) >= 0 {
			return true
		}
	}
	return false
}

// hasEye reports whether any of the chains has a liberty other than
// except whose neighbours are all its colour or the edge.
func hasEye(b *engine.Board, chains []int, except int) bool {
	var buf [16]int
	for _, h := range chains {
		c := b.ColorAt(h)
		for _, l := range b.LibertyList(buf[:0], h, len(buf)) {
			if l != except && b.IsEyeish(l, c) {
				return true
			}
		}
	}
	return false
}

// sekiMove reports whether c playing at v is illegal, or captures nothing
// alive and leaves its own chain with at most one liberty, counting the
// points of dead chains as liberties.
func sekiMove(b *engine.Board, v int, c engine.Color, dead *[engine.MaxArea]bool) bool {
	if !b.Legal(v, c) {
		return true
	}
	if b.WouldCapture(v, c) {
		return false
	}
	var seenLib [engine.MaxArea]bool
	libs := 0
	add := func(u int) {
		if u != v && !seenLib[u] {
			seenLib[u] = true
			libs++
		}
	}
	var chains [4]int
	k := 0
	for _, n := range b.Neighbours(v) {
		if b.IsBorder(n) {
			continue
		}
		switch col := b.ColorAt(n); {
		case col == engine.Empty:
			add(n)
		case dead[b.Chain(n)]:
			add(n)
		case col == c:
			h := b.Chain(n)
			dup := false
			for _, x := range chains[:k] {
				dup = dup || x == h
			}
			if dup {
				continue
			}
			chains[k] = h
			k++
			for s := h; ; {
				for _, u := range b.Neighbours(s) {
					if b.IsBorder(u) {
						continue
					}
					if uc := b.ColorAt(u); uc == engine.Empty || (uc != c && dead[b.Chain(u)]) {
						add(u)
					}
				}
				if libs >= 2 {
					return false
				}
				s = b.NextStone(s)
				if s == h {
					break
				}
			}
		}
	}
	return libs < 2
}

// pointOwner returns +1 for a point that counts for Black at the end of a
// playout, -1 for White and 0 for a neutral point.
func pointOwner(b *engine.Board, v int) int {
	switch b.ColorAt(v) {
	case engine.Black:
		return 1
	case engine.White:
		return -1
	}
	black, white := b.NeighbourCount(v, engine.Black), b.NeighbourCount(v, engine.White)
	switch {
	case black > 0 && white == 0:
		return 1
	case white > 0 && black == 0:
		return -1
	}
	return 0
}

// maxWorkers is the most goroutines an estimate runs playouts on.
const maxWorkers = 2

// policy is the estimate's playout policy: always answer the last move
// tactically (save own chains in atari, capture), else put the last stone
// in atari when it has two liberties, else play next to it, so that
// invaders in an area that is not theirs meet resistance as they would in a
// real game; no shape patterns. On the corpus (testdata/scoring) these
// weights agree with GNU Go on 127 of 130 games; the search's own weights
// (Capture 0.95, Pattern 0.9) agree on 126, and so do Capture and Reply
// without Atari, Capture and Atari without Reply, and these weights with
// Pattern 0.9 added (which also loses a diagram test).
var policy = playout.Policy{Capture: 1, Atari: 1, Reply: 1}

// runPlayouts runs playouts first, first+step, ... below n on copies of
// b, half with each side to move first, adds each point's final owner (+1
// Black, -1 White) to counts, and returns how many it ran: fewer when ctx
// is done.
func runPlayouts(ctx context.Context, b *engine.Board, toPlay engine.Color, base uint64, first, step, n int, counts []int32) int {
	size := b.Size()
	maxMoves := 3 * size * size
	done := 0
	p := playout.Player{Policy: policy}
	for i := first; i < n; i += step {
		if done%8 == 0 && ctx.Err() != nil {
			break
		}
		mover := toPlay
		if i%2 == 1 {
			mover = toPlay.Opponent()
		}
		p.Rand = playout.NewRand(base + uint64(i)*0x9E3779B97F4A7C15)
		work := *b
		p.Playout(&work, mover, 0, engine.PassVertex, maxMoves)
		for r := 0; r < size; r++ {
			row, v := counts[r*size:(r+1)*size], work.Vertex(engine.Point{Row: r})
			for c := range row {
				row[c] += int32(pointOwner(&work, v+c))
			}
		}
		done++
	}
	return done
}

// enclosedInvaders finds the failed invasions that light playouts judge
// too kindly: stones of one colour inside an area enclosed by the other's
// stones alone, with no eye and no clear life in the playouts, in an area
// big enough to give the surrounding stones two eyes. Random play lets such
// invaders live far more often than any player would; they are dead, and
// the area belongs to the surrounding colour.
func enclosedInvaders(b *engine.Board, own []float64, score *[engine.MaxArea]float64, dead *[engine.MaxArea]bool, alive *[3][engine.MaxArea]bool, threshold float64) {
	size := b.Size()
	maxRegion := 2 * size * size / 3
	idx := func(v int) int {
		p := b.Point(v)
		return p.Row*size + p.Col
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		o := c.Opponent()
		sign := 1.0
		if c == engine.White {
			sign = -1
		}
		var region [engine.MaxArea]bool
		for v0 := 0; v0 < b.Area(); v0++ {
			if b.IsBorder(v0) || b.ColorAt(v0) == c || region[v0] {
				continue
			}
			points := []int{v0}
			region[v0] = true
			ok := true
			var borders []int
			for i := 0; i < len(points); i++ {
				u := points[i]
				for _, n := range b.Neighbours(u) {
					if b.IsBorder(n) {
						continue
					}
					if b.ColorAt(n) == c {
						borders = appendUnique(borders, b.Chain(n))
						continue
					}
					if !region[n] {
						region[n] = true
						points = append(points, n)
					}
				}
			}
			if len(points) > maxRegion || len(borders) == 0 {
				continue
			}
			stones, room := 0, 0
			var invaders []int
			for _, u := range points {
				switch b.ColorAt(u) {
				case o:
					stones++
					h := b.Chain(u)
					if alive[o][h] || score[h] >= threshold {
						ok = false
					}
					invaders = appendUnique(invaders, h)
				case engine.Empty:
					if b.NeighbourCount(u, o)+b.EdgeCount(u) == 4 && b.NeighbourCount(u, o) > 0 {
						ok = false // the invaders have an eye
					}
					if b.NeighbourCount(u, o) == 0 {
						room++
					}
				}
			}
			if !ok || stones == 0 || 3*stones > len(points) || room < 8 {
				continue
			}
			for _, h := range borders {
				if dead[h] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			for _, h := range invaders {
				dead[h] = true
			}
			for _, u := range points {
				if i := idx(u); sign*own[i] < 0.7 {
					own[i] = sign * 0.7
				}
			}
		}
	}
}

// appendUnique appends x to s unless s holds it already.
func appendUnique(s []int, x int) []int {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}
