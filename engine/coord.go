package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gobot-dev/gobot/engine/game"
)

// Board sizes the engine supports.
const (
	MinSize = 2
	MaxSize = 25
)

// columns are the GTP column letters: A to Z without I.
const columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Point is an intersection: Col 0 is the left column (A), Row 0 the bottom
// row (1), as GTP and players write them.
type Point struct {
	Col, Row int
}

// NoPoint stands for "no point": no ko, no last move.
var NoPoint = Point{-1, -1}

// Valid reports whether p lies on a board of the given size.
func (p Point) Valid(size int) bool {
	return p.Col >= 0 && p.Row >= 0 && p.Col < size && p.Row < size
}

// String returns the GTP name of p, such as "D4", or "" for NoPoint.
func (p Point) String() string {
	if p.Col < 0 || p.Col >= len(columns) || p.Row < 0 {
		return ""
	}
	return columns[p.Col:p.Col+1] + strconv.Itoa(p.Row+1)
}

// CoordRange returns the range of valid points on a board of the given size,
// as players read it: "A1–J9" on 9×9.
func CoordRange(size int) string {
	return "A1–" + Point{size - 1, size - 1}.String()
}

// ParsePoint reads a GTP coordinate such as "D4" or "q16" for a board of the
// given size. Anything else, including "pass", returns an error that wraps
// ErrInvalidCoordinates and names the valid range.
func ParsePoint(s string, size int) (Point, error) {
	p, ok := parsePoint(s)
	if !ok || !p.Valid(size) {
		return NoPoint, fmt.Errorf("%q is not a point on a %d×%d board (use %s, no I): %w",
			s, size, size, CoordRange(size), ErrInvalidCoordinates)
	}
	return p, nil
}

func parsePoint(s string) (Point, bool) {
	if len(s) < 2 || len(s) > 3 {
		return NoPoint, false
	}
	c := s[0]
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	col := -1
	for i := 0; i < len(columns); i++ {
		if columns[i] == c {
			col = i
			break
		}
	}
	if col < 0 {
		return NoPoint, false
	}
	row := 0
	for i := 1; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' || (i == 1 && d == '0') {
			return NoPoint, false
		}
		row = row*10 + int(d-'0')
	}
	return Point{col, row - 1}, true
}

// MoveKind says what a move does.
type MoveKind int8

// The kinds of move.
const (
	Place MoveKind = iota
	Pass
	Resign
)

// String returns "place", "pass" or "resign".
func (k MoveKind) String() string {
	switch k {
	case Pass:
		return "pass"
	case Resign:
		return "resign"
	}
	return "place"
}

// Move is one player's action: placing a stone at Point, passing or
// resigning.
type Move struct {
	Color Color
	Kind  MoveKind
	Point Point // meaningful only for Place
}

// PlaceAt returns the move of c placing a stone at p.
func PlaceAt(c Color, p Point) Move { return Move{Color: c, Kind: Place, Point: p} }

// PassMove returns c's pass.
func PassMove(c Color) Move { return Move{Color: c, Kind: Pass, Point: NoPoint} }

// ResignMove returns c's resignation.
func ResignMove(c Color) Move { return Move{Color: c, Kind: Resign, Point: NoPoint} }

// String returns the move as GTP writes a vertex: "D4", "pass" or "resign".
func (m Move) String() string {
	switch m.Kind {
	case Pass:
		return "pass"
	case Resign:
		return "resign"
	}
	return m.Point.String()
}

// ParseMove reads a vertex as a player or GTP writes it, "D4", "pass" or
// "resign" in any case, as a move of c on a board of the given size.
func ParseMove(c Color, s string, size int) (Move, error) {
	switch lower(s) {
	case "pass":
		return PassMove(c), nil
	case "resign":
		return ResignMove(c), nil
	}
	p, err := ParsePoint(s, size)
	if err != nil {
		return Move{}, err
	}
	return PlaceAt(c, p), nil
}

// SGFPoint returns p in SGF notation for a board of the given size ("dd"),
// where rows count from the top.
func SGFPoint(p Point, size int) string {
	return string([]byte{sgfLetter(p.Col), sgfLetter(size - 1 - p.Row)})
}

func sgfLetter(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

func sgfIndex(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return int(c - 'a')
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

// ParseSGFPoint reads an SGF point ("dd") for a board of the given size.
// The empty string and "tt" (on boards up to 19×19) are passes and return
// ok=false with a nil error.
func ParseSGFPoint(s string, size int) (p Point, ok bool, err error) {
	if s == "" || (s == "tt" && size <= 19) {
		return NoPoint, false, nil
	}
	if len(s) != 2 {
		return NoPoint, false, fmt.Errorf("SGF point %q: %w", s, ErrInvalidCoordinates)
	}
	col, row := sgfIndex(s[0]), sgfIndex(s[1])
	p = Point{col, size - 1 - row}
	if col < 0 || row < 0 || !p.Valid(size) {
		return NoPoint, false, fmt.Errorf("SGF point %q is off a %d×%d board: %w", s, size, size, ErrInvalidCoordinates)
	}
	return p, true, nil
}

// TypedPoint returns what a person typed for a point as gobot names points:
// upper case, without the blanks around it or between its column letter
// and its row ("d 4" and " D  4 " are D4, as KGS and OGS players often
// write them; fullwidth "Ｄ４", as CJK input methods type it, too: see
// game.Halfwidth). Anything else keeps its inner blanks, so that it is
// refused as typed. Autocomplete matches its prefixes with it too.
func TypedPoint(s string) string {
	s = game.Halfwidth(s)
	f := strings.Fields(strings.ToUpper(s))
	switch {
	case len(f) == 1:
		return f[0]
	case len(f) == 2 && len(f[0]) == 1 && 'A' <= f[0][0] && f[0][0] <= 'Z' && isDigits(f[1]):
		return f[0] + f[1]
	}
	return strings.ToUpper(strings.TrimSpace(s))
}

// ReadMove reads a move as a person types it, for a board of the given
// size: a point such as "D4" (any case, surrounding blanks, blanks between
// the column and the row, and leading zeros in the row: "E05" is E5) or
// "pass". It is the one reader of moves
// people type; GTP's stricter ParseMove is for programs. Its errors are
// game.Refusals that wrap ErrInvalidCoordinates, with a sentence that says
// what is wrong and which points are valid; "resign" is refused, since
// resigning is not a move but an action of its own.
func ReadMove(c Color, s string, size int) (Move, error) {
	t := TypedPoint(s)
	switch t {
	case "PASS":
		return PassMove(c), nil
	case "RESIGN":
		return Move{}, game.Refuse(ErrResignTyped, "Resigning is not a move: resign instead.")
	}
	n := t
	if len(t) >= 3 && isDigits(t[1:]) && t[1] == '0' {
		// Leading zeros in the row: E05 is E5 (E00 stays row 0, off the board).
		n = t[:1] + strings.TrimLeft(t[1:len(t)-1], "0") + t[len(t)-1:]
	}
	if p, ok := parsePoint(n); ok && p.Valid(size) {
		return PlaceAt(c, p), nil
	}
	rng := CoordRange(size)
	var text string
	switch {
	case t == "":
		text = fmt.Sprintf("Give a point such as D4 (valid on this board: %s).", rng)
	case strings.HasPrefix(t, "I") && len(t) > 1 && isDigits(t[1:]):
		text = fmt.Sprintf("Go coordinates skip the letter I: after H comes J. Valid points here: %s.", rng)
	case len(t) >= 2 && t[0] >= 'A' && t[0] <= 'Z' && isDigits(t[1:]):
		text = fmt.Sprintf("%s is off this %d×%d board: valid points are %s.", game.Clip(t, game.MaxQuoted), size, size, rng)
	default:
		text = fmt.Sprintf("I can't read %s as a point: write a column letter and a row number, like D4 (valid here: %s).", game.Quote(s), rng)
	}
	return Move{}, game.Refuse(ErrInvalidCoordinates, text)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
