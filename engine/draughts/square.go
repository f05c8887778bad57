package draughts

import (
	"math/bits"
	"strconv"
)

// Square is a dark square of the board in standard numbering, 1 to 50:
// square 1 is the top-left dark square as White sees the board (on the
// second column of the top row), 5 squares to a row, and 46 to 50 are
// White's back row. NoSquare (0) is no square.
type Square uint8

// NoSquare stands for "no square".
const NoSquare Square = 0

// The board's size.
const (
	NumSquares = 50 // dark squares
	Width      = 10 // squares to a row or column, dark and light
)

// Valid reports whether s is a square of the board, 1 to 50.
func (s Square) Valid() bool { return s >= 1 && s <= NumSquares }

// Row returns the row of s, 0 (Black's back row, squares 1 to 5) to 9
// (White's back row, squares 46 to 50).
func (s Square) Row() int { return (int(s) - 1) / 5 }

// Col returns the column of s, 0 (left, as White sees the board) to 9.
// Even rows have their dark squares on odd columns.
func (s Square) Col() int {
	i := (int(s) - 1) % 5
	if s.Row()%2 == 0 {
		return 2*i + 1
	}
	return 2 * i
}

// SquareAt returns the square at row and column (both 0 to 9), or NoSquare
// when that is a light square or off the board.
func SquareAt(row, col int) Square {
	if row < 0 || row >= Width || col < 0 || col >= Width || (row+col)%2 == 0 {
		return NoSquare
	}
	return Square(row*5 + col/2 + 1)
}

// String returns the square's number, "1" to "50", or "-" for NoSquare.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return strconv.Itoa(int(s))
}

// ParseSquare reads a square's number, 1 to 50. Anything else is an error
// that wraps ErrSquare and says why.
func ParseSquare(text string) (Square, error) {
	if text == "" {
		return NoSquare, errorf(ErrSquare, "a square is a number from 1 to 50, not an empty text")
	}
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < '0' || c > '9' {
			return NoSquare, errorf(ErrSquare, "%q is not a square number (1 to 50)", text)
		}
		if n < 1000 {
			n = n*10 + int(c-'0')
		}
	}
	if n < 1 || n > NumSquares {
		if n >= 1000 {
			return NoSquare, errorf(ErrSquare, "square %s is off the board (1 to 50)", text)
		}
		return NoSquare, errorf(ErrSquare, "square %d is off the board (1 to 50)", n)
	}
	return Square(n), nil
}

// The board as bits. Square s (1 to 50) is bit s-1+(s-1)/10: each pair of
// rows takes 11 bits, the 11th a ghost square that is never on the board.
// With the ghosts, the four diagonal steps are the same shift everywhere:
// -6 and -5 go up the board (towards square 1), +5 and +6 go down, and a
// step off the board's side lands on a ghost or off the 55 bits.
const (
	boardBits = 55
	// boardMask holds the 50 squares' bits.
	boardMask uint64 = (1<<boardBits - 1) &^ (1<<10 | 1<<21 | 1<<32 | 1<<43 | 1<<54)
	// rowFirst and rowLast are the promotion rows: White crowns on
	// squares 1 to 5, Black on 46 to 50.
	rowFirst uint64 = 0x1f
	rowLast  uint64 = 0x1f << 49
)

// bitOf is the bit index of a square 1 to 50.
func bitOf(s Square) uint { return uint(s) - 1 + (uint(s)-1)/10 }

// squareOf is the square of a bit index of the board.
func squareOf(b int) Square { return Square(b - b/11 + 1) }

// Set is a set of squares, as bits of the board's layout. The zero Set
// is empty. Its bits are an implementation detail: use its methods.
type Set uint64

// SetOf returns the set of the given squares; invalid squares are ignored.
func SetOf(squares ...Square) Set {
	var s Set
	for _, q := range squares {
		if q.Valid() {
			s |= 1 << bitOf(q)
		}
	}
	return s
}

// Has reports whether q is in the set.
func (s Set) Has(q Square) bool { return q.Valid() && s&(1<<bitOf(q)) != 0 }

// Count returns the number of squares in the set.
func (s Set) Count() int { return bits.OnesCount64(uint64(s)) }

// Empty reports whether the set has no square.
func (s Set) Empty() bool { return s == 0 }

// First returns the lowest-numbered square of the set, or NoSquare.
func (s Set) First() Square {
	if s == 0 {
		return NoSquare
	}
	return squareOf(bits.TrailingZeros64(uint64(s)))
}

// Squares returns the squares of the set in increasing order.
func (s Set) Squares() []Square {
	out := make([]Square, 0, s.Count())
	for b := uint64(s); b != 0; b &= b - 1 {
		out = append(out, squareOf(bits.TrailingZeros64(b)))
	}
	return out
}

// String returns the squares as "12,16,20", or "" for the empty set.
func (s Set) String() string {
	var b []byte
	for i, q := range s.Squares() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(q), 10)
	}
	return string(b)
}
