package draughts

import (
	"math/bits"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// The board's geometry as masks of draughts.Set values, computed once from
// the rules package's squares (SetOf, Row, Col, SquareAt): the search
// works on the sets' bits without knowing their layout.
var (
	// bitSquare is the square of each bit of a Set (NoSquare for a bit
	// that is no square).
	bitSquare [64]draughts.Square
	// squareBit is each square's single-bit mask.
	squareBit [draughts.NumSquares + 1]uint64
	// rowMask holds the squares of each row, 0 (squares 1–5) to 9.
	rowMask [draughts.Width]uint64
	// step is each square's neighbour in the four directions (up-left,
	// up-right, down-left, down-right as White sees the board), by bit
	// index; -1 off the board.
	step [64][4]int8
	// behind holds, by bit index, the squares diagonally behind a man of
	// each colour (his support).
	behind [2][64]uint64
	// cone holds, by bit index, the squares a man of each colour could
	// pass on his way to the crowning row: a triangle widening by a
	// square each row ahead.
	cone [2][64]uint64
	// leftHalf holds the squares of columns 0 to 4.
	leftHalf uint64
	// centre and nearCentre are the centre squares (22–24, 27–29) and the
	// ring around them that counts for less.
	centre, nearCentre uint64
	// mainDiagonal is the long diagonal, 5 to 46: a king there guards
	// the most squares.
	mainDiagonal uint64
	// backRow is each colour's own back row.
	backRow [2]uint64
	// tempoBits holds, per colour, the squares whose row advance (0 to 9
	// rows from the colour's back row) has bit k set, k = 0 to 3: the
	// tempo is the sum of popcounts shifted by k.
	tempoBits [2][4]uint64
)

// forward returns the two direction indexes in which a man of colour c
// moves: up the board for White.
func forward(c draughts.Color) (int, int) {
	if c == draughts.White {
		return 0, 1
	}
	return 2, 3
}

func init() {
	// The geometry from the rules' squares; no I/O.
	for i := range step {
		step[i] = [4]int8{-1, -1, -1, -1}
	}
	dirs := [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for s := draughts.Square(1); s <= draughts.NumSquares; s++ {
		b := uint64(draughts.SetOf(s))
		squareBit[s] = b
		i := bits.TrailingZeros64(b)
		bitSquare[i] = s
		rowMask[s.Row()] |= b
		if s.Col() < 5 {
			leftHalf |= b
		}
	}
	for s := draughts.Square(1); s <= draughts.NumSquares; s++ {
		i := bitIndex(s)
		for d, rc := range dirs {
			if n := draughts.SquareAt(s.Row()+rc[0], s.Col()+rc[1]); n != draughts.NoSquare {
				step[i][d] = int8(bitIndex(n))
			}
		}
		for c := draughts.White; c <= draughts.Black; c++ {
			f0, f1 := forward(c)
			b0, b1 := 3-f1, 3-f0 // the directions back
			for _, d := range []int{b0, b1} {
				if n := step[i][d]; n >= 0 {
					behind[c][i] |= 1 << uint(n)
				}
			}
			// The cone: every square reachable by forward steps.
			front := uint64(1) << uint(i)
			for r := 0; r < draughts.Width; r++ {
				var next uint64
				for x := front; x != 0; x &= x - 1 {
					j := bits.TrailingZeros64(x)
					for _, d := range []int{f0, f1} {
						if n := step[j][d]; n >= 0 {
							next |= 1 << uint(n)
						}
					}
				}
				cone[c][i] |= next
				front = next
			}
		}
	}
	for _, s := range []draughts.Square{22, 23, 24, 27, 28, 29} {
		centre |= squareBit[s]
	}
	for _, s := range []draughts.Square{17, 18, 19, 32, 33, 34} {
		nearCentre |= squareBit[s]
	}
	for _, s := range []draughts.Square{5, 10, 14, 19, 23, 28, 32, 37, 41, 46} {
		mainDiagonal |= squareBit[s]
	}
	backRow[draughts.White] = rowMask[9]
	backRow[draughts.Black] = rowMask[0]
	for r := 0; r < draughts.Width; r++ {
		for k := 0; k < 4; k++ {
			if (9-r)>>k&1 != 0 {
				tempoBits[draughts.White][k] |= rowMask[r]
			}
			if r>>k&1 != 0 {
				tempoBits[draughts.Black][k] |= rowMask[r]
			}
		}
	}
}

// bitIndex is the bit of square s in a Set.
func bitIndex(s draughts.Square) int { return bits.TrailingZeros64(squareBit[s]) }

// rowOf returns the row of the square at bit i.
func rowOf(i int) int { return bitSquare[i].Row() }

// advance returns how many rows a piece of colour c on bit i stands from
// its own back row.
func advance(c draughts.Color, i int) int {
	if c == draughts.White {
		return 9 - rowOf(i)
	}
	return rowOf(i)
}
