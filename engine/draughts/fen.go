package draughts

import (
	"strconv"
	"strings"
)

// StartFEN is the starting position in PDN FEN.
const StartFEN = "W:W31-50:B1-20"

// FEN returns p in PDN FEN: the side to move, then White's pieces and
// Black's, kings marked K, runs of three men or more written as ranges:
// "W:W31-50:B1-20", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29".
func (p *Position) FEN() string {
	var b strings.Builder
	b.WriteString(p.turn.Letter())
	for _, c := range []Color{White, Black} {
		b.WriteString(":")
		b.WriteString(c.Letter())
		first := true
		sq := p.Pieces(c).Squares()
		for i := 0; i < len(sq); {
			king := p.kings>>bitOf(sq[i])&1 != 0
			j := i + 1
			for !king && j < len(sq) && sq[j] == sq[j-1]+1 && p.kings>>bitOf(sq[j])&1 == 0 {
				j++
			}
			if !first {
				b.WriteString(",")
			}
			first = false
			if king {
				b.WriteString("K")
			}
			b.WriteString(sq[i].String())
			if j-i >= 3 {
				b.WriteString("-")
				b.WriteString(sq[j-1].String())
				i = j
			} else {
				i++
			}
		}
	}
	return b.String()
}

// ParseFEN reads a position in PDN FEN, as FEN writes it and as other
// programs do: "W:W31-50:B1-20", the colours' sections in either order,
// Lidraughts' move clock and number (":H0:F1") ignored,
// kings marked K (also on ranges, "K1-3"), spaces and a final '.'
// tolerated, a colour with no piece written as a bare "W" or "B". A
// position the rules cannot reach is refused: a square given twice, a
// man on its crowning row (White's on 1 to 5, Black's on 46 to 50), more
// than 20 pieces of a colour. Errors wrap ErrFEN and say what is wrong.
func ParseFEN(fen string) (Position, error) {
	var p Position
	t := strings.TrimSpace(fen)
	t = strings.TrimSuffix(t, ".")
	t = strings.Join(strings.Fields(t), "")
	if t == "" {
		return p, errorf(ErrFEN, "empty FEN: write a position as W:W31-50:B1-20")
	}
	parts := strings.Split(t, ":")
	switch strings.ToUpper(parts[0]) {
	case "W":
	case "B":
		p.SetTurn(Black)
	default:
		return p, errorf(ErrFEN, "FEN %q: the side to move must be W or B, not %q", fen, parts[0])
	}
	// Lidraughts adds a move clock and number, ":H0:F1": they are not
	// part of the position.
	for len(parts) > 3 && isClock(parts[len(parts)-1]) {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 3 {
		return p, errorf(ErrFEN, "FEN %q: want the side to move and two colours' pieces joined by ':', as W:W31-50:B1-20", fen)
	}
	seen := [2]bool{}
	for _, part := range parts[1:] {
		if part == "" {
			return p, errorf(ErrFEN, "FEN %q: a colour's section is empty: write W or B before its squares", fen)
		}
		var c Color
		switch part[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			return p, errorf(ErrFEN, "FEN %q: a colour's section starts with W or B, not %q", fen, part[:1])
		}
		if seen[c] {
			return p, errorf(ErrFEN, "FEN %q: %s's pieces are given twice", fen, c)
		}
		seen[c] = true
		if len(part) == 1 {
			continue
		}
		for _, item := range strings.Split(part[1:], ",") {
			if err := p.putFEN(fen, c, item); err != nil {
				return Position{}, err
			}
		}
		if n := p.Pieces(c).Count(); n > 20 {
			return Position{}, errorf(ErrFEN, "FEN %q: %s has %d pieces, and a side has 20 at most", fen, c, n)
		}
	}
	return p, nil
}

// isClock reports whether a FEN section is a clock, "H0" or "F12".
func isClock(part string) bool {
	if len(part) < 2 || (part[0] != 'H' && part[0] != 'F') {
		return false
	}
	_, err := strconv.Atoi(part[1:])
	return err == nil
}

// putFEN puts the pieces of one FEN item ("31", "K10", "31-50") of c.
func (p *Position) putFEN(fen string, c Color, item string) error {
	king := false
	if strings.HasPrefix(item, "K") || strings.HasPrefix(item, "k") {
		king, item = true, item[1:]
	}
	if item == "" {
		return errorf(ErrFEN, "FEN %q: a square number is missing in %s's pieces", fen, c)
	}
	lo, hi, isRange := strings.Cut(item, "-")
	a, err := fenSquare(fen, lo)
	if err != nil {
		return err
	}
	b := a
	if isRange {
		hi = strings.TrimPrefix(strings.TrimPrefix(hi, "K"), "k")
		if b, err = fenSquare(fen, hi); err != nil {
			return err
		}
		if b < a {
			return errorf(ErrFEN, "FEN %q: the range %s runs backwards", fen, item)
		}
	}
	x := WhiteMan
	if c == Black {
		x = BlackMan
	}
	if king {
		x++
	}
	for s := a; s <= b; s++ {
		if old := p.At(s); old != Empty {
			return errorf(ErrFEN, "FEN %q: square %d is given twice", fen, s)
		}
		if !king && uint64(1)<<bitOf(s)&promotion[c] != 0 {
			return errorf(ErrFEN, "FEN %q: a %s man on %d would have been crowned: write K%d for a king", fen, strings.ToLower(c.String()), s, s)
		}
		p.Put(s, x)
	}
	return nil
}

func fenSquare(fen, text string) (Square, error) {
	s, err := ParseSquare(text)
	if err != nil {
		var msg string
		if n, e := strconv.Atoi(text); e == nil {
			msg = "square " + strconv.Itoa(n) + " is off the board (1 to 50)"
		} else {
			msg = strconv.Quote(text) + " is not a square number (1 to 50)"
		}
		return NoSquare, errorf(ErrFEN, "FEN %q: %s", fen, msg)
	}
	return s, nil
}

// Hub returns p as the Hub protocol writes a position: the side to move
// ('W' or 'B') and a character per square 1 to 50, 'w' and 'b' for men,
// 'W' and 'B' for kings, 'e' for empty.
func (p *Position) Hub() string {
	b := make([]byte, 0, 1+NumSquares)
	b = append(b, p.turn.Letter()[0])
	for s := Square(1); s <= NumSquares; s++ {
		x := p.At(s)
		if x == Empty {
			b = append(b, 'e')
		} else {
			b = append(b, x.String()[0])
		}
	}
	return string(b)
}

// ParseHub reads a position as the Hub protocol writes it (see Hub).
// Errors wrap ErrFEN.
func ParseHub(text string) (Position, error) {
	var p Position
	if len(text) != 1+NumSquares {
		return p, errorf(ErrFEN, "Hub position %q: want 51 characters, the side to move and one per square", text)
	}
	switch text[0] {
	case 'W':
	case 'B':
		p.SetTurn(Black)
	default:
		return p, errorf(ErrFEN, "Hub position %q: the side to move must be W or B", text)
	}
	for i := 1; i < len(text); i++ {
		s := Square(i)
		var x Piece
		switch text[i] {
		case 'e', '.':
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
			return Position{}, errorf(ErrFEN, "Hub position %q: %q on square %d is not a piece (w, b, W, B or e)", text, text[i], s)
		}
		if !x.King() && uint64(1)<<bitOf(s)&promotion[x.Color()] != 0 {
			return Position{}, errorf(ErrFEN, "Hub position %q: a %s man on %d would have been crowned", text, strings.ToLower(x.Color().String()), s)
		}
		p.Put(s, x)
	}
	return p, nil
}
