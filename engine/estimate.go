package engine

import (
	"context"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// EstimateOptions tunes EstimateDead. The zero value is the default.
type EstimateOptions struct {
	// Playouts is the number of random playouts, half of them with each
	// side to move first; 0 means DefaultPlayouts for the board size.
	Playouts int
	// DeadThreshold is how strongly the playouts must give a chain's points
	// to the opponent, as a mean ownership from 0 to 1, for the chain to be
	// called dead; 0 means DefaultDeadThreshold.
	DeadThreshold float64
}

// DefaultDeadThreshold is the dead threshold EstimateDead uses when
// EstimateOptions.DeadThreshold is 0: a chain is dead when the opponent owns
// its points in about 65% of the playouts or more (mean ownership -0.3 from
// the chain's side). It was tuned on the GNU Go corpus in
// testdata/scoring/corpus.
const DefaultDeadThreshold = 0.3

// estUncertainBand bounds the uncertain chains: alive chains whose mean
// ownership from their own side is below -estUncertainBand, that is whose
// own side owns their points in less than about 70% of the playouts. On the
// corpus this flags about one game in a hundred.
const estUncertainBand = -0.4

// DefaultPlayouts returns the number of playouts EstimateDead runs on a
// board of the given size when EstimateOptions.Playouts is 0.
func DefaultPlayouts(size int) int {
	switch {
	case size <= 9:
		return 600
	case size <= 13:
		return 500
	}
	return 400
}

// Estimate is the estimated status of every stone at the end of a game.
type Estimate struct {
	// Dead lists the stones estimated dead, whole chains at a time, in
	// row-major order from A1.
	Dead []Point `json:"dead"`
	// Seki lists the stones alive in seki; the empty points they share
	// with the opponent are neutral (Ownership 0).
	Seki []Point `json:"seki,omitempty"`
	// Uncertain lists stones left alive although the playouts often gave
	// them to the opponent (their own side owned them in less than about
	// 70% of the playouts): the players should check them.
	Uncertain []Point `json:"uncertain,omitempty"`
	// Ownership gives, for each point (index Row*size+Col), who owns it at
	// the end: +1 surely Black, -1 surely White, 0 neutral or unknown.
	Ownership []float64 `json:"ownership"`
	// Playouts is the number of playouts that were run (fewer than asked
	// when the context was cancelled).
	Playouts int `json:"playouts"`
}

// IsDead reports whether p is listed in e.Dead.
func (e Estimate) IsDead(p Point) bool { return slices.Contains(e.Dead, p) }

// EstimateDead estimates which stones on g's board are dead, as players
// agree at the end of a game. It combines
//   - ownership from random playouts (capture-aware, with eye protection
//     and no self-atari of groups, so that seki survives), half of them
//     with each side to move first;
//   - Benson's pass-alive chains, which are never dead, and the territory
//     they make certain, where opposing stones are always dead;
//   - seki: chains sharing liberties that neither side can fill stay
//     alive and the shared liberties are neutral, unless one side can give
//     up two or three stones there to leave an eyeless opponent a dead
//     shape (then the opponent is dead);
//   - a threshold (EstimateOptions.DeadThreshold): chains the playouts
//     give to the opponent less clearly stay alive, and those whose own
//     side owns them in less than about 70% of the playouts are reported
//     as Uncertain, for the players to check.
//
// Chains that lie together in the opponent's area are judged together. The
// result is deterministic for a given position and g.Seed(). When ctx is
// cancelled it returns at once with what the playouts run so far show
// (static analysis alone if none ran). It does not modify g.
func EstimateDead(ctx context.Context, g *Game, opts EstimateOptions) Estimate {
	b := g.Board()
	return estimateBoard(ctx, b, g.ToPlay(), uint64(g.Seed()), opts)
}

// EstimatedDeadStones returns the dead stones EstimateDead finds with the
// default options. It has the shape of gtp.ServerOptions.DeadStones, so that GTP's
// final_score and final_status_list use the same estimate as the scoring
// phase.
func EstimatedDeadStones(ctx context.Context, g *Game) []Point {
	return EstimateDead(ctx, g, EstimateOptions{}).Dead
}

// estimateBoard is EstimateDead on a bare board.
func estimateBoard(ctx context.Context, b *Board, toPlay Color, seed uint64, opts EstimateOptions) Estimate {
	size := b.Size()
	n := opts.Playouts
	if n <= 0 {
		n = DefaultPlayouts(size)
	}
	threshold := opts.DeadThreshold
	if threshold <= 0 || threshold >= 1 {
		threshold = DefaultDeadThreshold
	}
	if toPlay != White {
		toPlay = Black
	}

	// Static analysis.
	var alive, safe [3][estArea]bool
	bensonAlive(b, Black, &alive[Black], &safe[Black])
	bensonAlive(b, White, &alive[White], &safe[White])

	// Playouts, on up to estWorkers goroutines that all end before the
	// estimate is made. Each playout has its own random stream and the
	// counts are integers, so the result does not depend on how the
	// playouts were shared out.
	workers := min(estWorkers, runtime.GOMAXPROCS(0), n)
	counts := make([][]int32, workers)
	doneBy := make([]int, workers)
	base := seed ^ b.Hash()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		counts[w] = make([]int32, size*size)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			doneBy[w] = estRunPlayouts(ctx, b, toPlay, base, w, workers, n, counts[w])
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
		case safe[Black][v] || alive[Black][v]:
			own[idx(v)] = 1
		case safe[White][v] || alive[White][v]:
			own[idx(v)] = -1
		}
	}

	// Judge chains: the mean ownership of their stones, from their own
	// point of view.
	area := b.Area()
	var dead [estArea]bool
	var score [estArea]float64 // by chain head
	var heads []int
	for v := 0; v < area; v++ {
		if b.IsBorder(v) {
			continue
		}
		c := b.ColorAt(v)
		if c == Empty {
			continue
		}
		h := b.Chain(v)
		if h == v {
			heads = append(heads, h)
		}
		sign := 1.0
		if c == White {
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
	estJudgeTogether(b, own, heads, &score, &dead, &alive, threshold)
	if done > 0 {
		estEnclosedInvaders(b, own, &score, &dead, &alive, threshold)
	}

	// Seki: on the board without the dead stones, empty points next to
	// both colours where neither side can play without self-atari.
	sekiHeads, sekiPoints, killed := estSeki(b, &dead)
	for _, h := range killed {
		c := b.ColorAt(h)
		if alive[c][h] {
			continue
		}
		dead[h] = true
		// The stones count for the killer now.
		sign := -1.0
		if c == White {
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

	e := Estimate{Ownership: own, Playouts: done}
	var inSeki [estArea]bool
	for _, h := range sekiHeads {
		inSeki[h] = true
	}
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			p := Point{c, r}
			v := b.Vertex(p)
			if b.ColorAt(v) == Empty {
				continue
			}
			h := b.Chain(v)
			switch {
			case dead[h]:
				e.Dead = append(e.Dead, p)
			case inSeki[h]:
				e.Seki = append(e.Seki, p)
			case done > 0 && score[h] < -estUncertainBand && !alive[b.ColorAt(v)][h]:
				e.Uncertain = append(e.Uncertain, p)
			}
		}
	}
	return e
}

// estJudgeTogether makes chains of one colour that lie in the same area of
// the opponent's (connected through empty points the playouts give to the
// opponent) share one verdict: the stone-weighted mean of their scores.
func estJudgeTogether(b *Board, own []float64, heads []int, score *[estArea]float64, dead *[estArea]bool, alive *[3][estArea]bool, threshold float64) {
	size := b.Size()
	var comp [estArea]int32 // component id + 1, by chain head
	next := int32(0)
	stack := make([]int, 0, 64)
	var seen [estArea]int32
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
		if c == White {
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
				case Empty:
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

// estSeki returns the chains in seki and their shared liberties, on b with
// the chains marked dead taken off: an empty point next to stones of both
// colours where either side playing would put its own stones in atari
// without capturing. It also returns the chains that only look like seki:
// when one side can give up at most three stones there and the other side's
// chains have no eye, capturing leaves them a dead shape (two or three points
// that the sacrificer kills with a stone on the vital point), so those chains
// are dead.
func estSeki(b *Board, dead *[estArea]bool) (heads, points, killed []int) {
	area := b.Area()
	for v := 0; v < area; v++ {
		if b.IsBorder(v) || b.ColorAt(v) != Empty {
			continue
		}
		var reach [3]bool
		var adj [3][]int // live chains next to v, by colour
		for _, n := range b.Neighbours(v) {
			if c := b.ColorAt(n); !b.IsBorder(n) && c != Empty && !dead[b.Chain(n)] {
				reach[c] = true
				adj[c] = appendUnique(adj[c], b.Chain(n))
			}
		}
		if !reach[Black] || !reach[White] {
			continue
		}
		if !estSekiMove(b, v, Black, dead) || !estSekiMove(b, v, White, dead) {
			continue
		}
		var kills [3]bool // kills[x]: x can kill the other side by sacrifice
		for _, x := range []Color{Black, White} {
			sacrifice := 1
			for _, h := range adj[x] {
				sacrifice += b.ChainSize(h)
			}
			kills[x] = sacrifice <= 3 && !estHasEye(b, adj[x.Opponent()], v)
		}
		switch {
		case kills[Black] && !kills[White]:
			for _, h := range adj[White] {
				killed = appendUnique(killed, h)
			}
			continue
		case kills[White] && !kills[Black]:
			for _, h := range adj[Black] {
				killed = appendUnique(killed, h)
			}
			continue
		}
		points = append(points, v)
		for _, c := range []Color{Black, White} {
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

// estHasEye reports whether any of the chains has a liberty other than
// except whose neighbours are all its colour or the edge.
func estHasEye(b *Board, chains []int, except int) bool {
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

// estSekiMove reports whether c playing at v is illegal, or captures nothing
// alive and leaves its own chain with at most one liberty, counting the
// points of dead chains as liberties.
func estSekiMove(b *Board, v int, c Color, dead *[estArea]bool) bool {
	if !b.Legal(v, c) {
		return true
	}
	if b.WouldCapture(v, c) {
		return false
	}
	var seenLib [estArea]bool
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
		case col == Empty:
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
					if uc := b.ColorAt(u); uc == Empty || (uc != c && dead[b.Chain(u)]) {
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

// estPointOwner returns +1 for a point that counts for Black at the end of a
// estPlayout, -1 for White and 0 for a neutral point.
func estPointOwner(b *Board, v int) int {
	switch b.ColorAt(v) {
	case Black:
		return 1
	case White:
		return -1
	}
	black, white := b.NeighbourCount(v, Black), b.NeighbourCount(v, White)
	switch {
	case black > 0 && white == 0:
		return 1
	case white > 0 && black == 0:
		return -1
	}
	return 0
}

// estRand is a small, fast generator (xorshift64*) so that playouts
// are deterministic for a seed and cost nothing to create.
type estRand struct{ s uint64 }

func newEstRand(seed uint64) estRand {
	// splitmix64 step so that nearby seeds give unrelated streams.
	seed += 0x9E3779B97F4A7C15
	seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9
	seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EB
	seed ^= seed >> 31
	if seed == 0 {
		seed = 1
	}
	return estRand{seed}
}

func (r *estRand) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

// intn returns a number in [0, n).
func (r *estRand) intn(n int) int {
	return int((r.next() >> 32) * uint64(n) >> 32)
}

// estPlayout plays b out from toPlay to two passes (or maxMoves moves) with a
// light policy: capture a chain the last move left in atari, save own
// stones it put in atari, otherwise a random legal move that does not fill
// an own eye nor put two or more own stones in atari without capturing.
func estPlayout(b *Board, toPlay Color, rng *estRand, maxMoves int) {
	passes, last := 0, PassVertex
	for i := 0; i < maxMoves && passes < 2; i++ {
		v := estPlayoutMove(b, toPlay, last, rng)
		if v == PassVertex {
			passes++
		} else {
			passes = 0
			b.Play(v, toPlay)
		}
		last = v
		toPlay = toPlay.Opponent()
	}
}

// Playout policy weights, in percent: how often a player puts the last
// stone's chain in atari when it has two liberties, and how often it answers
// next to the last stone.
var (
	estAtariPercent = 100
	estReplyPercent = 100
)

func estPlayoutMove(b *Board, c Color, last int, rng *estRand) int {
	opp := c.Opponent()
	if last != PassVertex && !b.IsBorder(last) {
		// Capture the last stone's chain or a neighbour in atari.
		if b.ColorAt(last) == opp && b.InAtari(last) {
			if l := b.AtariLiberty(last); b.Legal(l, c) {
				return l
			}
		}
		for _, n := range b.Neighbours(last) {
			if b.IsBorder(n) || b.ColorAt(n) != c || !b.InAtari(n) {
				continue
			}
			// Own chain in atari: capture an attacker in atari, or extend.
			if l := b.AtariLiberty(n); b.Legal(l, c) && !estSelfAtari(b, l, c, 1) && rng.intn(4) != 0 {
				return l
			}
		}
		// Answer the last stone: put it in atari when it has two
		// liberties, or play next to it. Invaders in an area that is
		// not theirs meet resistance, as they would in a real game.
		if b.ColorAt(last) == opp && rng.intn(100) < estAtariPercent {
			var buf [3]int
			if libs := b.LibertyList(buf[:0], last, 3); len(libs) == 2 {
				l := libs[rng.intn(2)]
				if b.Legal(l, c) && !b.IsEye(l, c) && !estSelfAtari(b, l, c, 1) {
					return l
				}
			}
		}
		if rng.intn(100) < estReplyPercent {
			nb, dg := b.Neighbours(last), b.Diagonals(last)
			cand := [8]int{nb[0], nb[1], nb[2], nb[3], dg[0], dg[1], dg[2], dg[3]}
			start := rng.intn(8)
			for i := 0; i < 8; i++ {
				v := cand[(start+i)&7]
				if b.IsBorder(v) || b.ColorAt(v) != Empty || b.IsEye(v, c) || !b.Legal(v, c) || estSelfAtari(b, v, c, 1) {
					continue
				}
				return v
			}
		}
	}
	count := b.EmptyCount()
	if count == 0 {
		return PassVertex
	}
	start := rng.intn(count)
	for i := 0; i < count; i++ {
		j := start + i
		if j >= count {
			j -= count
		}
		v := b.EmptyVertex(j)
		if b.IsEye(v, c) || !b.Legal(v, c) || estSelfAtari(b, v, c, 2) {
			continue
		}
		return v
	}
	return PassVertex
}

// estSelfAtari reports whether c at v (a legal move) would capture nothing and
// leave a chain of at least minStones stones with a single liberty.
func estSelfAtari(b *Board, v int, c Color, minStones int) bool {
	if b.NeighbourCount(v, Empty) >= 2 {
		return false
	}
	own := b.NeighbourCount(v, c)
	if own == 0 && minStones > 1 {
		return false
	}
	if b.WouldCapture(v, c) {
		return false
	}
	var libs [2]int
	k := 0
	add := func(u int) bool {
		if u == v || (k == 1 && libs[0] == u) {
			return false
		}
		libs[k] = u
		k++
		return k == 2
	}
	for _, n := range b.Neighbours(v) {
		if !b.IsBorder(n) && b.ColorAt(n) == Empty && add(n) {
			return false
		}
	}
	if own == 0 {
		return true
	}
	var buf [4]int
	for _, n := range b.Neighbours(v) {
		if b.IsBorder(n) || b.ColorAt(n) != c {
			continue
		}
		for _, l := range b.LibertyList(buf[:0], n, 3) {
			if add(l) {
				return false
			}
		}
	}
	return true
}

// sortPoints orders points row-major from A1.
func sortPoints(ps []Point) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Row != ps[j].Row {
			return ps[i].Row < ps[j].Row
		}
		return ps[i].Col < ps[j].Col
	})
}

// estWorkers is the most goroutines an estimate runs playouts on.
const estWorkers = 2

// estRunPlayouts runs playouts first, first+step, ... below n on copies of
// b, half with each side to move first, adds each point's final owner (+1
// Black, -1 White) to counts, and returns how many it ran: fewer when ctx
// is done.
func estRunPlayouts(ctx context.Context, b *Board, toPlay Color, base uint64, first, step, n int, counts []int32) int {
	size := b.Size()
	maxMoves := 3 * size * size
	done := 0
	for i := first; i < n; i += step {
		if done%8 == 0 && ctx.Err() != nil {
			break
		}
		mover := toPlay
		if i%2 == 1 {
			mover = toPlay.Opponent()
		}
		rng := newEstRand(base + uint64(i)*0x9E3779B97F4A7C15)
		work := *b
		estPlayout(&work, mover, &rng, maxMoves)
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				counts[r*size+c] += int32(estPointOwner(&work, work.Vertex(Point{c, r})))
			}
		}
		done++
	}
	return done
}

// estEnclosedInvaders finds the failed invasions that light playouts judge
// too kindly: stones of one colour inside an area enclosed by the other's
// stones alone, with no eye and no clear life in the playouts, in an area
// big enough to give the surrounding stones two eyes. Random play lets such
// invaders live far more often than any player would; they are dead, and
// the area belongs to the surrounding colour.
func estEnclosedInvaders(b *Board, own []float64, score *[estArea]float64, dead *[estArea]bool, alive *[3][estArea]bool, threshold float64) {
	size := b.Size()
	maxRegion := 2 * size * size / 3
	idx := func(v int) int {
		p := b.Point(v)
		return p.Row*size + p.Col
	}
	for _, c := range []Color{Black, White} {
		o := c.Opponent()
		sign := 1.0
		if c == White {
			sign = -1
		}
		var region [estArea]bool
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
				case Empty:
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
