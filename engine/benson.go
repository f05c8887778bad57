package engine

// Static life analysis: Benson's unconditional life and the territory it
// makes certain. The scoring phase never lets a pass-alive chain be marked
// dead, and the dead-stone estimate (engine/estimate) starts from it.

import "slices"

// PassAlive computes Benson's unconditionally alive (pass-alive) chains of c
// on b: chains that cannot be captured even if c passes every turn. It marks
// the stones of those chains in alive, and in safe the points of c's
// pass-alive territory: regions enclosed by pass-alive chains in which every
// empty point is a liberty of one of them, so the opponent can never make an
// eye there and any opposing stones inside are dead.
//
// The algorithm (D. B. Benson, "Life in the game of Go", 1976): a region is
// a maximal connected set of points not occupied by c; it is vital to a
// chain when all its empty points are liberties of that chain. Starting with
// every chain and every region, repeatedly drop the chains with fewer than
// two vital regions among the remaining ones, and the regions bordered by a
// dropped chain. What is left is pass-alive.
//
// PassAlive only sets entries of alive and safe (pass zeroed arrays). It
// does not modify b but, unlike the search door's Play, it allocates.
func (b *Board) PassAlive(c Color, alive, safe *[MaxArea]bool) {
	area := b.Area()
	var region [MaxArea]int16 // region id + 1, 0 for c's stones and the border
	type regionInfo struct {
		points  []int
		borders []int // heads of c chains next to the region
		vital   []int // heads of chains the region is vital to
		ok      bool
	}
	var regions []regionInfo
	stack := make([]int, 0, 64)
	for v := 0; v < area; v++ {
		if b.IsBorder(v) || b.ColorAt(v) == c || region[v] != 0 {
			continue
		}
		id := int16(len(regions) + 1)
		r := regionInfo{ok: true}
		region[v] = id
		stack = append(stack[:0], v)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.points = append(r.points, u)
			for _, n := range b.Neighbours(u) {
				if b.IsBorder(n) {
					continue
				}
				if b.ColorAt(n) == c {
					r.borders = appendUnique(r.borders, b.Chain(n))
					continue
				}
				if region[n] == 0 {
					region[n] = id
					stack = append(stack, n)
				}
			}
		}
		// The region is vital to the chains next to every one of its
		// empty points.
		first := true
		for _, u := range r.points {
			if b.ColorAt(u) != Empty {
				continue
			}
			var adj [4]int
			k := 0
			for _, n := range b.Neighbours(u) {
				if !b.IsBorder(n) && b.ColorAt(n) == c {
					adj[k] = b.Chain(n)
					k++
				}
			}
			if first {
				for _, h := range adj[:k] {
					r.vital = appendUnique(r.vital, h)
				}
				first = false
				continue
			}
			kept := r.vital[:0]
			for _, h := range r.vital {
				for _, a := range adj[:k] {
					if a == h {
						kept = append(kept, h)
						break
					}
				}
			}
			r.vital = kept
			if len(r.vital) == 0 {
				break
			}
		}
		regions = append(regions, r)
	}

	var chainAlive [MaxArea]bool
	var heads []int
	for v := 0; v < area; v++ {
		if !b.IsBorder(v) && b.ColorAt(v) == c && b.Chain(v) == v {
			chainAlive[v] = true
			heads = append(heads, v)
		}
	}
	for changed := true; changed; {
		changed = false
		var vitalCount [MaxArea]int8
		for i := range regions {
			if !regions[i].ok {
				continue
			}
			for _, h := range regions[i].vital {
				vitalCount[h]++
			}
		}
		for _, h := range heads {
			if chainAlive[h] && vitalCount[h] < 2 {
				chainAlive[h] = false
				changed = true
			}
		}
		if !changed {
			break
		}
		for i := range regions {
			if !regions[i].ok {
				continue
			}
			for _, h := range regions[i].borders {
				if !chainAlive[h] {
					regions[i].ok = false
					break
				}
			}
		}
	}
	for v := 0; v < area; v++ {
		if !b.IsBorder(v) && b.ColorAt(v) == c && chainAlive[b.Chain(v)] {
			alive[v] = true
		}
	}
	for _, r := range regions {
		if !r.ok || len(r.borders) == 0 {
			continue
		}
		enclosed := true
		for _, u := range r.points {
			if b.ColorAt(u) != Empty {
				continue
			}
			next := false
			for _, n := range b.Neighbours(u) {
				if !b.IsBorder(n) && b.ColorAt(n) == c && chainAlive[b.Chain(n)] {
					next = true
					break
				}
			}
			if !next {
				enclosed = false
				break
			}
		}
		if enclosed {
			for _, u := range r.points {
				safe[u] = true
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
