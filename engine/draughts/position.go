package draughts

import (
	"math/bits"
	"strings"
)

// Color is a side of the board: White, who moves first and starts on
// squares 31 to 50, or Black, who starts on 1 to 20. Its value is the
// side's index in the game contract (game.Side): White 0, Black 1.
type Color uint8

// The colours.
const (
	White Color = 0
	Black Color = 1
)

// Opponent returns the other colour.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "White" or "Black".
func (c Color) String() string {
	if c == Black {
		return "Black"
	}
	return "White"
}

// Letter returns "W" or "B", as FEN and PDN write a colour.
func (c Color) Letter() string {
	if c == Black {
		return "B"
	}
	return "W"
}

// Piece is what stands on a square.
type Piece uint8

// The pieces.
const (
	Empty Piece = iota
	WhiteMan
	WhiteKing
	BlackMan
	BlackKing
)

// Color returns the piece's colour; Empty is White, which means nothing.
func (p Piece) Color() Color {
	if p == BlackMan || p == BlackKing {
		return Black
	}
	return White
}

// King reports whether the piece is a king.
func (p Piece) King() bool { return p == WhiteKing || p == BlackKing }

// String returns the piece's code: "w" and "b" for men, "W" and "B" for
// kings, "." for an empty square. They are the codes of View and of the
// Hub protocol's positions (which write "e" for empty).
func (p Piece) String() string {
	switch p {
	case WhiteMan:
		return "w"
	case WhiteKing:
		return "W"
	case BlackMan:
		return "b"
	case BlackKing:
		return "B"
	}
	return "."
}

// Position is a position of international draughts: the pieces and the
// side to move, with its Zobrist hash kept up to date. It is the fast,
// unchecked door into the rules, for search: a Position is 40 bytes, copies
// by value (copy-make: q := p; q.Play(m)), generates its legal moves into
// a slice the caller gives (Generate) and plays a move it is told is legal
// (Play) without allocating or checking. The counts that end a game in a
// draw (repetition, the 25-move rule, the endgame rules) are history, not
// position: see Counters and package-level Repetitions. The zero Position
// is an empty board with White to move. Not safe for concurrent use.
type Position struct {
	pieces [2]uint64 // by colour, in the board's bit layout
	kings  uint64
	hash   uint64
	turn   Color
}

// Start returns the starting position: Black's men on 1 to 20, White's on
// 31 to 50, White to move.
func Start() Position {
	var p Position
	for s := Square(1); s <= 20; s++ {
		p.Put(s, BlackMan)
	}
	for s := Square(31); s <= 50; s++ {
		p.Put(s, WhiteMan)
	}
	return p
}

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// SetTurn sets the side to move.
func (p *Position) SetTurn(c Color) {
	if c != p.turn {
		p.hash ^= zobristTurn
		p.turn = c
	}
}

// At returns the piece on square s, or Empty (also for an invalid square).
func (p *Position) At(s Square) Piece {
	if !s.Valid() {
		return Empty
	}
	b := uint64(1) << bitOf(s)
	king := p.kings&b != 0
	switch {
	case p.pieces[White]&b != 0 && king:
		return WhiteKing
	case p.pieces[White]&b != 0:
		return WhiteMan
	case p.pieces[Black]&b != 0 && king:
		return BlackKing
	case p.pieces[Black]&b != 0:
		return BlackMan
	}
	return Empty
}

// Put puts piece x on square s, replacing what stood there (Empty clears
// the square). It checks nothing else: a man on its crowning row is the
// caller's business (ParseFEN refuses one). Invalid squares are ignored,
// and a piece that is none of the four clears the square.
func (p *Position) Put(s Square, x Piece) {
	if !s.Valid() {
		return
	}
	i := bitOf(s)
	b := uint64(1) << i
	if old := p.At(s); old != Empty {
		p.hash ^= zobrist[old-1][i]
	}
	p.pieces[White] &^= b
	p.pieces[Black] &^= b
	p.kings &^= b
	if x == Empty || x > BlackKing {
		return
	}
	p.pieces[x.Color()] |= b
	if x.King() {
		p.kings |= b
	}
	p.hash ^= zobrist[x-1][i]
}

// Pieces returns the squares of c's pieces, men and kings.
func (p *Position) Pieces(c Color) Set { return Set(p.pieces[c]) }

// Men returns the squares of c's men.
func (p *Position) Men(c Color) Set { return Set(p.pieces[c] &^ p.kings) }

// Kings returns the squares of c's kings.
func (p *Position) Kings(c Color) Set { return Set(p.pieces[c] & p.kings) }

// Empties returns the empty squares.
func (p *Position) Empties() Set { return Set(boardMask &^ (p.pieces[White] | p.pieces[Black])) }

// Hash returns the position's Zobrist hash (pieces and side to move). Equal
// positions have equal hashes; use Equal where a collision would matter.
func (p *Position) Hash() uint64 { return p.hash }

// Equal reports whether p and q have the same pieces and side to move.
func (p *Position) Equal(q *Position) bool {
	return p.pieces == q.pieces && p.kings == q.kings && p.turn == q.turn
}

// Play plays m, a legal move of the side to move (one that Generate
// listed for this position), and gives the turn to the other side. It
// checks nothing: a move that is not legal leaves a position the rules
// cannot reach. A man that ends its move on the far row is crowned.
func (p *Position) Play(m Move) {
	us := p.turn
	them := us ^ 1
	fi, ti := bitOf(m.From), bitOf(m.To)
	from, to := uint64(1)<<fi, uint64(1)<<ti
	kind := 2 * int(us) // index into zobrist: man of us
	h := p.hash ^ zobristTurn
	if p.kings&from != 0 {
		kind++
		h ^= zobrist[kind][fi]
		p.kings = p.kings&^from | to
	} else {
		h ^= zobrist[kind][fi]
		if to&promotion[us] != 0 {
			kind++
			p.kings |= to
		}
	}
	h ^= zobrist[kind][ti]
	p.pieces[us] = p.pieces[us]&^from | to
	if c := uint64(m.Captured); c != 0 {
		base := 2 * int(them)
		for b := c; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			h ^= zobrist[base+int(p.kings>>uint(i)&1)][i]
		}
		p.pieces[them] &^= c
		p.kings &^= c
	}
	p.turn = them
	p.hash = h
}

// promotion is each colour's crowning row.
var promotion = [2]uint64{rowFirst, rowLast}

// The Zobrist keys: one per piece (white man, white king, black man, black
// king) and bit, and one for Black to move. They come from a fixed seed,
// so hashes are the same in every run and on every machine.
var (
	zobrist     [4][boardBits]uint64
	zobristTurn uint64
)

func init() {
	// splitmix64, a small generator with good keys; no I/O.
	x := uint64(0x6472617567687473) // "draughts"
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for k := range zobrist {
		for i := range zobrist[k] {
			zobrist[k][i] = next()
		}
	}
	zobristTurn = next()
}

// String draws p as a diagram, row 0 (squares 1 to 5) on top as White
// sees the board: a line per row, light squares as spaces, pieces by
// their codes (see Piece.String) and empty dark squares as '.', then the
// side to move. ParseDiagram reads it back.
func (p Position) String() string {
	var b strings.Builder
	for r := 0; r < Width; r++ {
		for c := 0; c < Width; c++ {
			s := SquareAt(r, c)
			if s == NoSquare {
				if c < Width-1 {
					b.WriteByte(' ')
				}
				continue
			}
			b.WriteString(p.At(s).String())
		}
		b.WriteByte('\n')
	}
	b.WriteString(p.turn.String())
	b.WriteString(" to move")
	return b.String()
}

// ParseDiagram reads a position drawn as String draws it: ten lines of
// five pieces each (light squares and spaces ignored) and optionally a
// line "White to move" or "Black to move" (White when absent). Blank
// lines are skipped. Errors wrap ErrFEN.
func ParseDiagram(text string) (Position, error) {
	var p Position
	row := 0
	for _, line := range strings.Split(text, "\n") {
		t := strings.Join(strings.Fields(line), "")
		switch {
		case t == "":
			continue
		case strings.HasSuffix(t, "tomove"):
			switch strings.TrimSuffix(t, "tomove") {
			case "White":
			case "Black":
				p.SetTurn(Black)
			default:
				return Position{}, errorf(ErrFEN, "diagram: %q: want White to move or Black to move", strings.TrimSpace(line))
			}
			continue
		}
		if row == Width {
			return Position{}, errorf(ErrFEN, "diagram: more than 10 rows")
		}
		if len(t) != 5 {
			return Position{}, errorf(ErrFEN, "diagram: row %d %q: want 5 dark squares", row+1, strings.TrimSpace(line))
		}
		for i := 0; i < 5; i++ {
			s := Square(row*5 + i + 1)
			var x Piece
			switch t[i] {
			case '.':
				continue
			case 'w':
				x = WhiteMan
			case 'W':
				x = WhiteKing
			case 'b':
				x = BlackMan
			case 'B':
				x = BlackKing
			default:
				return Position{}, errorf(ErrFEN, "diagram: row %d: %q is not a piece (w, b, W, B or .)", row+1, t[i])
			}
			if !x.King() && uint64(1)<<bitOf(s)&promotion[x.Color()] != 0 {
				return Position{}, errorf(ErrFEN, "diagram: a %s man on %d would have been crowned", strings.ToLower(x.Color().String()), s)
			}
			p.Put(s, x)
		}
		row++
	}
	if row != Width {
		return Position{}, errorf(ErrFEN, "diagram: %d rows, want 10", row)
	}
	return p, nil
}
