package engine

import "fmt"

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
