package draughts

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gobot-dev/gobot/engine/game"
)

// Route is one way a move goes: the squares the piece stands on, from its
// start through each landing square to its end, and the pieces it takes.
// A quiet move's route is its start and end.
type Route struct {
	Squares []Square
	Taken   Set
}

// Move returns the move the route makes.
func (r Route) Move() Move {
	return Move{From: r.Squares[0], To: r.Squares[len(r.Squares)-1], Captured: r.Taken}
}

// String returns the route's full path: "28x19x10", or "32-28".
func (r Route) String() string {
	sep := "-"
	if r.Taken != 0 {
		sep = "x"
	}
	var b strings.Builder
	for i, s := range r.Squares {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// CaptureRoutes returns every capture sequence of the piece of the side to
// move on square from, ended or not: each capture that the piece could
// make, with the pieces it takes, whether or not it may go on or takes the
// maximum. With complete, only the sequences that cannot go on. It is for
// the checked door and for tests (it allocates); Generate lists the legal
// moves.
func (p *Position) CaptureRoutes(from Square, complete bool) []Route {
	if !from.Valid() || !p.Pieces(p.turn).Has(from) {
		return nil
	}
	i := int(bitOf(from))
	w := routeWalker{
		opp:      p.pieces[p.turn^1],
		empty:    boardMask&^(p.pieces[0]|p.pieces[1]) | 1<<uint(i),
		king:     p.kings>>uint(i)&1 != 0,
		complete: complete,
	}
	w.walk(i, []Square{from}, 0, 0)
	return w.out
}

type routeWalker struct {
	opp, empty     uint64
	king, complete bool
	out            []Route
}

func (w *routeWalker) walk(at int, path []Square, taken uint64, came int) {
	avail := w.opp &^ taken
	more := false
	for _, d := range steps {
		if d == -came && came != 0 {
			continue
		}
		s := at + d
		if w.king {
			for w.empty>>uint(s)&1 != 0 {
				s += d
			}
		}
		if avail>>uint(s)&1 == 0 || w.empty>>uint(s+d)&1 == 0 {
			continue
		}
		more = true
		t := taken | 1<<uint(s)
		for l := s + d; w.empty>>uint(l)&1 != 0; l += d {
			next := append(path[:len(path):len(path)], squareOf(l))
			if !w.complete {
				w.out = append(w.out, Route{Squares: next, Taken: Set(t)})
			}
			w.walk(l, next, t, d)
			if !w.king {
				break // a man lands just beyond
			}
		}
	}
	if !more && taken != 0 && w.complete {
		w.out = append(w.out, Route{Squares: path, Taken: Set(taken)})
	}
}

// Path returns a route of m, a legal move: for a capture, the first in a
// fixed order of the ways that take m's pieces from m's start to its end.
func (p *Position) Path(m Move) Route {
	if m.Captured != 0 {
		for _, r := range p.CaptureRoutes(m.From, true) {
			if r.Move() == m {
				return r
			}
		}
	}
	return Route{Squares: []Square{m.From, m.To}, Taken: m.Captured}
}

// Notation returns the canonical text of m, a move in legal (the legal
// moves of p, as Generate lists them): "32-28" for a quiet move, "28x19"
// for a capture unless another legal capture shares its start and end, and
// then its full path, "28x19x10".
func (p *Position) Notation(m Move, legal []Move) string {
	if m.Captured == 0 {
		return m.String()
	}
	for _, o := range legal {
		if o.From == m.From && o.To == m.To && o.Captured != m.Captured {
			return p.Path(m).String()
		}
	}
	return m.String()
}

// separator is what r stands for between two squares of a move: '-' for
// the hyphen and the dashes and minus sign that pasted text or a phone's
// keyboard puts in its place, 'x' for 'x', 'X' and the times sign; 0 for
// anything else.
func separator(r rune) rune {
	switch r {
	case '-', '–', '—', '‐', '‑', '−':
		return '-'
	case 'x', 'X', '×':
		return 'x'
	}
	return 0
}

// ParseSquares reads a move as people and programs write it: squares 1 to
// 50 joined by '-' or 'x' ('X' too), with spaces allowed around them:
// "32-28", "28x19", "28 x 19 x 10"; the dashes and the times sign that
// pasted text or a phone's keyboard puts in their place ("32–28", "28×19")
// read as they do (see separator). It checks the notation only: the
// squares it returns may not make a legal move. Errors wrap ErrNotation or
// ErrSquare and say what is wrong.
func ParseSquares(text string) ([]Square, error) {
	t := strings.TrimSpace(game.Halfwidth(text))
	if t == "" {
		return nil, errorf(ErrNotation, "empty move: write a move as 32-28, or 28x19 for a capture")
	}
	if sq, ok, err := runTogether(t); ok {
		return sq, err
	}
	var out []Square
	var num strings.Builder
	wantSquare := true
	flush := func() error {
		s, err := ParseSquare(num.String())
		num.Reset()
		if err != nil {
			return err
		}
		out = append(out, s)
		return nil
	}
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		switch {
		case r >= '0' && r <= '9':
			if !wantSquare && num.Len() == 0 {
				return nil, errorf(ErrNotation, "%q: squares must be joined by '-' or 'x'", t)
			}
			num.WriteRune(r)
			wantSquare = false
		case r == ' ' || r == '\t':
			if num.Len() > 0 {
				if err := flush(); err != nil {
					return nil, err
				}
			}
		case separator(r) != 0:
			if num.Len() > 0 {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			if wantSquare {
				return nil, errorf(ErrNotation, "%q: a square number is missing before %q", t, string(r))
			}
			wantSquare = true
		case r == ':':
			return nil, errorf(ErrNotation, "%q: the dash must be '-' or 'x', not %q", t, string(r))
		case r == utf8.RuneError && size == 1:
			return nil, errorf(ErrNotation, "%q is not valid UTF-8: write a move as 32-28 or 28x19", t)
		default:
			return nil, errorf(ErrNotation, "%q is not a move: write squares 1 to 50 joined by '-' or 'x', as 32-28 or 28x19", t)
		}
		i += size
	}
	if num.Len() > 0 {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	if wantSquare {
		return nil, errorf(ErrNotation, "%q: a square number is missing at the end", t)
	}
	if len(out) < 2 {
		return nil, errorf(ErrNotation, "%q: a move needs a start and an end square, as 32-28", t)
	}
	return out, nil
}

// runTogether reads a move typed as three or four digits with nothing
// between its squares, as engine notation and quick typing write it:
// "3228" is 32-28, "728" 7-28 (72 is no square). ok is false for any
// other text, which ParseSquares reads as usual; three digits that split
// into squares both ways ("128": 1-28 or 12-8) are refused, asking for
// the dash.
func runTogether(t string) (sq []Square, ok bool, err error) {
	if len(t) < 3 || len(t) > 4 || strings.TrimFunc(t, func(r rune) bool { return r >= '0' && r <= '9' }) != "" {
		return nil, false, nil
	}
	var ways [][]Square
	for cut := 1; cut < len(t); cut++ {
		if len(t) == 4 && cut != 2 {
			continue
		}
		from, err1 := ParseSquare(t[:cut])
		to, err2 := ParseSquare(t[cut:])
		if err1 == nil && err2 == nil && t[0] != '0' && t[cut] != '0' {
			ways = append(ways, []Square{from, to})
		}
	}
	switch len(ways) {
	case 0:
		return nil, false, nil // "3" then off the board, as ParseSquare says
	case 1:
		return ways[0], true, nil
	}
	return nil, true, errorf(ErrNotation, "%q: write it with a dash, as %v-%v or %v-%v", t, ways[0][0], ways[0][1], ways[1][0], ways[1][1])
}

// ParseMove reads text as a move of the side to move and returns the legal
// move it names: the checked door's reading of a move. Text is as
// ParseSquares reads it: start and end, or a full path (the landing
// squares, "28x19x10"), or start and end with some of the landing squares
// or of the taken pieces (as the Hub protocol writes captures). A move the
// rules refuse is an error that says why: ErrNoPiece, ErrBackward,
// ErrCaptureRequired, ErrMaximumCapture, ErrAmbiguous, ErrNotCapture (a
// plain move written with 'x') or ErrIllegalMove.
func (p *Position) ParseMove(text string) (Move, error) {
	sq, err := ParseSquares(text)
	if err != nil {
		return Move{}, err
	}
	var buf [MaxMoves]Move
	return p.resolve(written(text, sq), sq, p.Generate(buf[:0]))
}

// written returns the squares sq, read from text, as the player wrote
// them: joined by 'x' when text has one (a capture, or a move meant as
// one), by '-' otherwise, without spaces. A refusal quotes the move so,
// not as a plain move when the player wrote a capture.
func written(text string, sq []Square) string {
	if strings.ContainsAny(text, "xX") {
		return writeSquares(sq, "x")
	}
	return writeSquares(sq, "-")
}

// resolve finds the move of legal that the squares sq name, or says why
// there is none; typed is the move as the player wrote it (see written),
// for the refusal.
func (p *Position) resolve(typed string, sq []Square, legal []Move) (Move, error) {
	var found []Move
	for _, m := range legal {
		if p.matches(m, sq) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		if m := found[0]; m.Captured == 0 && strings.Contains(typed, "x") {
			// Written as a capture, it takes nothing: perhaps the
			// player missed the piece they meant to take.
			return Move{}, errorf(ErrNotCapture, "%s does not capture: did you mean %s?", typed, m)
		}
		return found[0], nil
	case 0:
		return Move{}, p.refusal(typed, sq, legal)
	}
	names := make([]string, len(found))
	for i, m := range found {
		names[i] = p.Path(m).String()
	}
	return Move{}, errorf(ErrAmbiguous, "%s could be %s: write the full path", typed, orList(names))
}

// matches reports whether the squares sq name m, a legal move: its start
// and end, or a route of it (see fits).
func (p *Position) matches(m Move, sq []Square) bool {
	if m.From != sq[0] {
		return false
	}
	if len(sq) == 2 {
		return m.To == sq[1]
	}
	if m.Captured == 0 || (m.To != sq[len(sq)-1] && m.To != sq[1]) {
		return false
	}
	for _, r := range p.CaptureRoutes(m.From, true) {
		if r.Move() == m && fits(r, sq) {
			return true
		}
	}
	return false
}

// fits reports whether the squares sq, three or more, name route r:
// start, some or all of the landing squares in order, and end (PDN's
// full path); or start, end and some or all of the pieces taken, in any
// order (the Hub protocol's form).
func fits(r Route, sq []Square) bool {
	from, to := r.Squares[0], r.Squares[len(r.Squares)-1]
	if sq[0] != from {
		return false
	}
	if len(sq) == 2 {
		return sq[1] == to
	}
	if sq[len(sq)-1] == to && subsequence(sq[1:len(sq)-1], r.Squares[1:len(r.Squares)-1]) {
		return true
	}
	if sq[1] != to {
		return false
	}
	for _, s := range sq[2:] {
		if !r.Taken.Has(s) {
			return false
		}
	}
	return true
}

func subsequence(short, long []Square) bool {
	i := 0
	for _, s := range long {
		if i < len(short) && short[i] == s {
			i++
		}
	}
	return i == len(short)
}

// refusal explains why the squares sq name no legal move, quoting the
// move as typed, the player's text.
func (p *Position) refusal(typed string, sq []Square, legal []Move) error {
	from, to := sq[0], sq[len(sq)-1]
	us := p.turn
	if !p.Pieces(us).Has(from) {
		what := "no piece"
		if x := p.At(from); x != Empty {
			what = "a " + strings.ToLower(x.Color().String()) + " piece"
		}
		return errorf(ErrNoPiece, "%s: there is %s on %d, and %s is to move", typed, what, from, strings.ToLower(us.String()))
	}
	capturing := len(legal) > 0 && legal[0].IsCapture()
	if capturing {
		// A capture of this piece that is not the maximum?
		for _, r := range p.CaptureRoutes(from, false) {
			if !fits(r, sq) {
				continue
			}
			best := legal[0]
			for _, m := range legal {
				if m.From == from {
					best = m
					break
				}
			}
			return errorf(ErrMaximumCapture, "%s takes %s, but %s takes %d: the maximum capture is compulsory",
				typed, pieces(r.Taken.Count()),
				p.Path(best), best.Captured.Count())
		}
		if len(sq) == 2 && p.quietReach(from, to) {
			return errorf(ErrCaptureRequired, "%s does not capture, but a capture is compulsory: %s",
				typed, orList(p.texts(legal, 4)))
		}
		return errorf(ErrIllegalMove, "%s is not a legal move: a capture is compulsory: %s", typed, orList(p.texts(legal, 4)))
	}
	if len(sq) == 2 {
		return p.quietRefusal(typed, from, to)
	}
	return errorf(ErrIllegalMove, "%s is not a legal move", typed)
}

// quietRefusal explains why the piece of the side to move on from cannot
// go to to, in a position without a capture: the reason is given only
// where it is the true one (a square taken is no reason for a move that
// no piece could make).
func (p *Position) quietRefusal(typed string, from, to Square) error {
	if from == to {
		return errorf(ErrIllegalMove, "%s is not a move: it starts and ends on %d", typed, to)
	}
	between, ok := diagonalBetween(from, to)
	if !ok {
		return errorf(ErrIllegalMove, "%s is not a legal move: %d and %d are not on one diagonal", typed, from, to)
	}
	if p.kings>>bitOf(from)&1 == 0 {
		if down := bitOf(to) > bitOf(from); down == (p.turn == White) {
			// Backward is the reason even when the square is taken.
			return errorf(ErrBackward, "%s goes backward: a man moves forward only, unless it captures", typed)
		}
		if len(between) == 1 && p.At(between[0]) != Empty && p.At(between[0]).Color() == p.turn {
			return errorf(ErrIllegalMove, "%s is not a legal move: a man cannot jump its own piece on %d", typed, between[0])
		}
		if len(between) > 0 {
			return errorf(ErrIllegalMove, "%s is not a legal move: a man moves one square, and jumps only to capture", typed)
		}
	}
	for _, s := range between {
		if p.At(s) != Empty {
			return errorf(ErrIllegalMove, "%s is not a legal move: %d is in the way", typed, s)
		}
	}
	if p.At(to) != Empty {
		return errorf(ErrIllegalMove, "%s is not a legal move: %d is taken", typed, to)
	}
	return errorf(ErrIllegalMove, "%s is not a legal move", typed)
}

// diagonalBetween reports whether squares from and to are on one
// diagonal, and the squares between them, from from's side.
func diagonalBetween(from, to Square) ([]Square, bool) {
	for _, d := range steps {
		var between []Square
		for b := int(bitOf(from)) + d; b >= 0 && b < boardBits && boardMask>>uint(b)&1 == 1; b += d {
			if s := squareOf(b); s == to {
				return between, true
			} else {
				between = append(between, s)
			}
		}
	}
	return nil, false
}

// quietReach reports whether the piece on from could go to to without
// capturing, were capturing not compulsory.
func (p *Position) quietReach(from, to Square) bool {
	q := *p
	var buf [MaxMoves]Move
	for _, m := range q.quiet(buf[:0]) {
		if m.From == from && m.To == to {
			return true
		}
	}
	return false
}

// texts returns the canonical texts of up to n moves of legal, and "…"
// for the rest.
func (p *Position) texts(legal []Move, n int) []string {
	var out []string
	for i, m := range legal {
		if i == n {
			out = append(out, "…")
			break
		}
		out = append(out, p.Notation(m, legal))
	}
	return out
}

func pieces(n int) string {
	if n == 1 {
		return "1 piece"
	}
	return strconv.Itoa(n) + " pieces"
}

func writeSquares(sq []Square, sep string) string {
	var b strings.Builder
	for i, s := range sq {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// orList writes "a", "a or b", "a, b or c".
func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// Suggest lists the legal moves (of legal, the moves of p as Generate
// lists them) that text, a move being typed, could become or already
// names, as ParseMove would read it: text is a beginning of the move's
// canonical text or full path, with '-' for 'x' allowed, in either case
// and with spaces anywhere; or it names the move in a short form (start
// and end, start, some landing squares and end, or the Hub form), its
// last square perhaps not typed to the end. A text with an 'x' never
// suggests a plain move, which ParseMove refuses so written. Empty text
// suggests every legal move.
func (p *Position) Suggest(text string, legal []Move) []Move {
	t := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		if sep := separator(r); sep != 0 {
			return sep
		}
		return r
	}, text)
	if strings.Trim(t, "0123456789-x") != "" {
		return nil // not a move ParseMove reads
	}
	capture := strings.Contains(t, "x")
	var out []Move
	for _, m := range legal {
		if m.Captured == 0 && capture {
			continue
		}
		if begins(t, p.Notation(m, legal)) || begins(t, p.Path(m).String()) || p.shortFor(t, m) {
			out = append(out, m)
		}
	}
	return out
}

// begins reports whether t begins move, a move's text: the same but for
// a '-' of t where move has an 'x'.
func begins(t, move string) bool {
	if len(t) > len(move) {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != move[i] && (t[i] != '-' || move[i] != 'x') {
			return false
		}
	}
	return true
}

// shortFor reports whether t, tidied as Suggest tidies it, names m in a
// form ParseMove reads, the digits after its last separator being the
// beginning of a square.
func (p *Position) shortFor(t string, m Move) bool {
	cut := strings.LastIndexAny(t, "-x")
	if cut < 0 || cut == len(t)-1 {
		return false
	}
	var sq []Square
	if head := t[:cut]; strings.ContainsAny(head, "-x") {
		var err error
		if sq, err = ParseSquares(head); err != nil {
			return false
		}
	} else if s, err := ParseSquare(head); err == nil {
		sq = []Square{s} // the start square alone
	} else {
		return false
	}
	last := t[cut+1:]
	for s := Square(1); s <= 50; s++ {
		if strings.HasPrefix(s.String(), last) && p.matches(m, append(sq[:len(sq):len(sq)], s)) {
			return true
		}
	}
	return false
}
