package engine

import (
	"fmt"
	"math"
)

// MaxHandicap returns the largest fixed handicap GTP's fixed_handicap allows
// on a board of the given size: 9 on odd boards from 9×9 up, 4 on even
// boards from 8×8 up and on 7×7, and 0 on smaller boards.
func MaxHandicap(size int) int {
	switch {
	case size < 7:
		return 0
	case size == 7 || size%2 == 0:
		return 4
	}
	return 9
}

// HandicapPoints returns the standard star points for n handicap stones
// (2 <= n <= MaxHandicap(size)) in the order GTP's fixed_handicap places
// them: D4 Q16, then D16, Q4, the centre for odd counts, the side points.
func HandicapPoints(size, n int) ([]Point, error) {
	if n < 2 || n > MaxHandicap(size) {
		return nil, fmt.Errorf("%d handicap stones on %d×%d (want 2 to %d): %w", n, size, size, MaxHandicap(size), ErrInvalidHandicap)
	}
	edge := 3
	if size < 13 {
		edge = 2
	}
	lo, hi, mid := edge, size-1-edge, size/2
	ll, ur, ul, lr := Point{lo, lo}, Point{hi, hi}, Point{lo, hi}, Point{hi, lo}
	centre := Point{mid, mid}
	left, right, bottom, top := Point{lo, mid}, Point{hi, mid}, Point{mid, lo}, Point{mid, hi}
	pts := []Point{ll, ur, ul, lr}[:min(n, 4)]
	switch n {
	case 5:
		pts = append(pts, centre)
	case 6:
		pts = append(pts, left, right)
	case 7:
		pts = append(pts, left, right, centre)
	case 8:
		pts = append(pts, left, right, bottom, top)
	case 9:
		pts = append(pts, left, right, bottom, top, centre)
	}
	return pts, nil
}

// FreeHandicapPoints chooses n handicap points on a board of the given
// size: the fixed points (HandicapPoints) as far as they go, then each
// further stone on the empty point farthest from the stones already placed,
// keeping off the first two lines while there is room, with ties going to
// the point nearest the centre. It is deterministic.
func FreeHandicapPoints(size, n int) []Point {
	n = min(n, size*size)
	var pts []Point
	if fixed := min(n, MaxHandicap(size)); fixed >= 2 {
		pts, _ = HandicapPoints(size, fixed)
	}
	taken := make([]bool, size*size)
	dist := make([]int, size*size) // squared distance to the nearest stone
	for i := range dist {
		dist[i] = math.MaxInt
	}
	mark := func(p Point) {
		taken[p.Row*size+p.Col] = true
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				d := (r-p.Row)*(r-p.Row) + (c-p.Col)*(c-p.Col)
				dist[r*size+c] = min(dist[r*size+c], d)
			}
		}
	}
	for _, p := range pts {
		mark(p)
	}
	edge := 0
	if size >= 7 {
		edge = 2
	}
	centre := func(r, c int) int { return (2*r-size+1)*(2*r-size+1) + (2*c-size+1)*(2*c-size+1) }
	for len(pts) < n {
		best, bestDist, bestCentre := -1, -1, 0
		for pass := 0; pass < 2 && best < 0; pass++ {
			lo := edge
			if pass == 1 {
				lo = 0
			}
			for r := lo; r < size-lo; r++ {
				for c := lo; c < size-lo; c++ {
					i := r*size + c
					if taken[i] {
						continue
					}
					if d, ce := dist[i], centre(r, c); d > bestDist || (d == bestDist && ce < bestCentre) {
						best, bestDist, bestCentre = i, d, ce
					}
				}
			}
		}
		p := Point{best % size, best / size}
		pts = append(pts, p)
		mark(p)
	}
	return pts
}
