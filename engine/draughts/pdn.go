package draughts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gobot-dev/gobot/engine/game"
)

// ByRecord is the reason of a result that a record (a PDN Result tag)
// gives without saying how the game ended: a resignation, a loss on time
// or a draw by agreement, most likely.
const ByRecord game.Reason = "record"

// MaxPDNSize is the largest PDN input ReadPDN reads, in bytes: 32 MiB, room
// for a database of tens of thousands of games.
const MaxPDNSize = 32 << 20

// PDNError is an error in a PDN record, with the line and column (from 1,
// counted in characters) where it was found. It is an ErrPDN and wraps the
// cause, so errors.Is(err, ErrMaximumCapture) works on a record with an
// illegal capture.
type PDNError struct {
	Line, Col int
	Msg       string
	Err       error // the underlying error, or nil
}

// Error returns the message with its position.
func (e *PDNError) Error() string {
	s := fmt.Sprintf("draughts: PDN line %d, column %d: %s", e.Line, e.Col, e.Msg)
	var sentinel *Error
	if e.Err != nil && !(errors.As(e.Err, &sentinel) && e.Err == error(sentinel)) {
		// A bare sentinel adds nothing to the message; a detailed
		// error says why.
		s += ": " + strings.TrimPrefix(e.Err.Error(), "draughts: ")
	}
	return s
}

// Unwrap returns ErrPDN and the underlying error, if any.
func (e *PDNError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrPDN, e.Err}
	}
	return []error{ErrPDN}
}

// Tag is a PDN tag pair, [Name "Value"].
type Tag struct {
	Name, Value string
}

// PDNMove is a move of a PDN game, in canonical text, with the comment
// that follows it.
type PDNMove struct {
	Move    game.Move
	Comment string
}

// PDNGame is a game of a PDN record: its tags in order, a comment before
// the first move, its moves and its result, and the game replayed through
// the rules.
type PDNGame struct {
	Tags    []Tag
	Comment string
	Moves   []PDNMove
	// Result is "2-0" (White won), "0-2" (Black won), "1-1" (a draw) or
	// "*" (unfinished or unknown). Records in the chess style's "1-0",
	// "0-1" and "1/2-1/2" (or "½-½") are read as these.
	Result string
	// State is the game after its moves, over when the rules ended it or
	// its result says it is finished (with reason ByRecord then).
	State State
}

// Tag returns the value of the tag of that name (case-insensitive), or "".
func (g *PDNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a tag's value, adding the tag at the end if absent.
func (g *PDNGame) SetTag(name, value string) {
	for i, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// NewPDNGame makes the PDN record of a game: its start position (FEN and
// SetUp tags when not the standard start), its moves and its result
// ("*" while it goes on), with the tags given (Event, Date, White, Black,
// ...) before them.
func NewPDNGame(s State, tags ...Tag) *PDNGame {
	g := &PDNGame{State: s, Result: "*"}
	for _, t := range tags {
		g.SetTag(t.Name, t.Value)
	}
	if r, over := s.Result(); over {
		g.Result = r.Text
	}
	g.SetTag("Result", g.Result)
	g.SetTag("GameType", "20")
	if f := s.start.FEN(); f != StartFEN {
		g.SetTag("SetUp", "1")
		g.SetTag("FEN", f)
	}
	for _, m := range s.moves {
		g.Moves = append(g.Moves, PDNMove{Move: m})
	}
	return g
}

// WritePDN writes games as PDN: for each, its tags, a blank line, its
// moves numbered ("1. 32-28 19-23 2. ..."), with comments in braces, and
// its result, lines kept under 80 characters, and a blank line.
func WritePDN(w io.Writer, games ...*PDNGame) error {
	var b bytes.Buffer
	for _, g := range games {
		for _, t := range g.Tags {
			v := t.Value
			if strings.EqualFold(t.Name, "Result") {
				v = g.Result
			}
			fmt.Fprintf(&b, "[%s %s]\n", t.Name, quote(v))
		}
		b.WriteByte('\n')
		lw := lineWriter{b: &b}
		if g.Comment != "" {
			lw.word("{" + cleanComment(g.Comment) + "}")
		}
		turn := g.State.start.turn
		number := 1
		for i, m := range g.Moves {
			// A move number stays on the line of its move.
			switch {
			case turn == White:
				lw.word(strconv.Itoa(number) + ". " + string(m.Move))
			case i == 0 || g.Moves[i-1].Comment != "":
				lw.word(strconv.Itoa(number) + "... " + string(m.Move))
			default:
				lw.word(string(m.Move))
			}
			if m.Comment != "" {
				lw.word("{" + cleanComment(m.Comment) + "}")
			}
			if turn == Black {
				number++
			}
			turn ^= 1
		}
		lw.word(g.Result)
		b.WriteString("\n\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// quote writes a tag value in double quotes, escaping '"' and '\'.
func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// cleanComment keeps a comment from closing early.
func cleanComment(c string) string { return strings.ReplaceAll(c, "}", ")") }

// lineWriter writes words separated by spaces, in lines under 80
// characters.
type lineWriter struct {
	b   *bytes.Buffer
	col int
}

func (l *lineWriter) word(w string) {
	n := utf8.RuneCountInString(w)
	switch {
	case l.col == 0:
	case l.col+1+n > 79:
		l.b.WriteByte('\n')
		l.col = 0
	default:
		l.b.WriteByte(' ')
		l.col++
	}
	l.b.WriteString(w)
	l.col += n
}

// ReadPDN reads every game of a PDN record from r (at most MaxPDNSize
// bytes). See ParsePDN.
func ReadPDN(r io.Reader) ([]*PDNGame, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPDNSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPDNSize {
		return nil, &PDNError{Line: 1, Col: 1, Msg: fmt.Sprintf("the record is larger than %d MiB", MaxPDNSize>>20)}
	}
	return ParsePDN(data)
}

// ParsePDN reads every game of a PDN record and replays each through the
// rules. It reads what draughts programs write (Turbo Dambase, Lidraughts,
// the Hub GUI, PDN 3.0): tags, move numbers or none ("1." and "1..."),
// moves short or in full or with the pieces taken, comments in braces or
// after ';', variations in parentheses and NAGs ($1) skipped, "!" and "?"
// after moves ignored, results as 2-0, 0-2, 1-1 or * (and the chess style's
// 1-0, 0-1, 1/2-1/2, ½-½), several games one after the other. Input that
// is not UTF-8 is read as Latin-1, as old Windows programs wrote it.
//
// A record is refused, with a *PDNError saying where, when it does not
// read, has an illegal move (the error wraps the rules' reason), plays on
// after the rules ended the game, is not international draughts (a
// GameType other than 20), or has a result that contradicts its end: a
// game the rules ended (no legal move, a draw by rule) must have that
// result, or "*".
func ParsePDN(data []byte) ([]*PDNGame, error) {
	text := decodeText(data)
	r := &pdnReader{text: text, line: 1, col: 1}
	var games []*PDNGame
	for {
		g, err := r.game()
		if err != nil {
			return nil, err
		}
		if g == nil {
			break
		}
		games = append(games, g)
	}
	return games, nil
}

// decodeText returns data as a string of UTF-8: without a byte order mark,
// and read as Latin-1 when it is not UTF-8.
func decodeText(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	for _, c := range data {
		b.WriteRune(rune(c))
	}
	return b.String()
}

// pdnReader reads PDN text, keeping the line and column.
type pdnReader struct {
	text      string
	pos       int
	line, col int
}

// token is a word of movetext with where it starts.
type token struct {
	text      string
	line, col int
}

func (r *pdnReader) errorf(line, col int, err error, format string, args ...any) error {
	return &PDNError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...), Err: err}
}

func (r *pdnReader) peek() rune {
	if r.pos >= len(r.text) {
		return -1
	}
	c, _ := utf8.DecodeRuneInString(r.text[r.pos:])
	return c
}

func (r *pdnReader) next() rune {
	if r.pos >= len(r.text) {
		return -1
	}
	c, n := utf8.DecodeRuneInString(r.text[r.pos:])
	r.pos += n
	if c == '\n' {
		r.line++
		r.col = 1
	} else {
		r.col++
	}
	return c
}

func isSpace(c rune) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xa0
}

// skipSpace skips white space and escape lines ('%' at a line's start).
func (r *pdnReader) skipSpace() {
	for {
		c := r.peek()
		switch {
		case isSpace(c):
			r.next()
		case c == ';' || (c == '%' && r.col == 1):
			for c := r.peek(); c != -1 && c != '\n'; c = r.peek() {
				r.next()
			}
		default:
			return
		}
	}
}

// game reads the next game, or nil at the end of the text.
func (r *pdnReader) game() (*PDNGame, error) {
	r.skipSpace()
	if r.peek() == -1 {
		return nil, nil
	}
	g := &PDNGame{Result: "*"}
	startLine, startCol := r.line, r.col
	resultLine, resultCol := 0, 0
	// Tags.
	for r.peek() == '[' {
		line, col := r.line, r.col
		t, err := r.tag()
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(t.Name, "Result") {
			resultLine, resultCol = line, col
		}
		g.Tags = append(g.Tags, t)
		r.skipSpace()
	}
	tagResult := ""
	if v := g.Tag("Result"); v != "" {
		res, ok := normalResult(v)
		if !ok {
			return nil, r.errorf(resultLine, resultCol, ErrResult, "Result %q is not 2-0, 0-2, 1-1 or *", v)
		}
		tagResult = res
		for i := range g.Tags {
			if strings.EqualFold(g.Tags[i].Name, "Result") {
				g.Tags[i].Value = res
			}
		}
	}
	if gt := g.Tag("GameType"); gt != "" {
		kind, _, _ := strings.Cut(gt, ",")
		if strings.TrimSpace(kind) != "20" {
			return nil, r.errorf(startLine, startCol, nil, "GameType %q is not international draughts (20)", gt)
		}
	}
	opts := game.Options{}
	if f := g.Tag("FEN"); f != "" {
		if _, err := ParseFEN(f); err != nil {
			return nil, r.errorf(startLine, startCol, err, "tag FEN")
		}
		opts["fen"] = f
	}
	s, err := NewState(opts, 0)
	if err != nil {
		return nil, r.errorf(startLine, startCol, err, "start position")
	}
	// Movetext, up to a result or the next game's tags.
	moveResult, endLine, endCol := "", r.line, r.col
	for {
		r.skipSpace()
		c := r.peek()
		line, col := r.line, r.col
		if c == -1 || c == '[' {
			break
		}
		switch c {
		case '{':
			com, err := r.comment()
			if err != nil {
				return nil, err
			}
			if n := len(g.Moves); n > 0 {
				g.Moves[n-1].Comment = joinComment(g.Moves[n-1].Comment, com)
			} else {
				g.Comment = joinComment(g.Comment, com)
			}
			continue
		case ';':
			for c := r.peek(); c != -1 && c != '\n'; c = r.peek() {
				r.next()
			}
			continue
		case '(':
			if err := r.variation(); err != nil {
				return nil, err
			}
			continue
		case ')':
			return nil, r.errorf(line, col, nil, "')' closes no variation")
		}
		w := r.word()
		if w == "" {
			r.next()
			return nil, r.errorf(line, col, nil, "unexpected %q", c)
		}
		if res, ok := normalResult(w); ok {
			moveResult, endLine, endCol = res, line, col
			break
		}
		if w[0] == '$' {
			continue // a NAG
		}
		mv := stripNumber(w)
		mv = strings.TrimRight(mv, "!?")
		if strings.Trim(mv, ".") == "" {
			continue // a move number alone, or "..."
		}
		if s.result != nil {
			return nil, r.errorf(line, col, nil, "%s after the end of the game (%s)", mv, describe(*s.result))
		}
		n, _, err := s.PlayMove(s.ToMove(), mv)
		if errors.Is(err, ErrNotCapture) {
			// A record may join a plain move's squares with 'x': read
			// it as the plain move (a player typing it is asked).
			n, _, err = s.PlayMove(s.ToMove(), strings.NewReplacer("x", "-", "X", "-").Replace(mv))
		}
		if err != nil {
			return nil, r.errorf(line, col, err, "move %d (%s)", len(g.Moves)+1, s.pos.turn)
		}
		s = n
		g.Moves = append(g.Moves, PDNMove{Move: s.moves[len(s.moves)-1]})
		endLine, endCol = r.line, r.col
	}
	if moveResult != "" && tagResult != "" && moveResult != tagResult {
		return nil, r.errorf(endLine, endCol, ErrResult, "the result %s after the moves is not the Result tag's %s", moveResult, tagResult)
	}
	claim, claimLine, claimCol := tagResult, resultLine, resultCol
	if claim == "" {
		claim, claimLine, claimCol = moveResult, endLine, endCol
	}
	if claim == "" {
		claim = "*"
		claimLine, claimCol = endLine, endCol
	}
	if rules, over := s.Result(); over {
		if claim != "*" && claim != rules.Text {
			return nil, r.errorf(claimLine, claimCol, ErrResult, "the result %s contradicts the end of the game: %s", claim, describe(rules))
		}
		claim = rules.Text
	} else if claim != "*" {
		winner := game.NoSide
		switch claim {
		case "2-0":
			winner = game.Side(White)
		case "0-2":
			winner = game.Side(Black)
		}
		if s, err = s.EndWith(game.Result{Winner: winner, Reason: ByRecord}); err != nil {
			return nil, r.errorf(claimLine, claimCol, err, "result")
		}
	}
	g.Result = claim
	g.State = s
	if len(g.Tags) == 0 && len(g.Moves) == 0 && g.Comment == "" && moveResult == "" {
		return nil, r.errorf(startLine, startCol, nil, "no game here")
	}
	return g, nil
}

// normalResult reads a result token.
func normalResult(w string) (string, bool) {
	switch w {
	case "2-0", "1-0":
		return "2-0", true
	case "0-2", "0-1":
		return "0-2", true
	case "1-1", "1/2-1/2", "½-½", "0.5-0.5":
		return "1-1", true
	case "*":
		return "*", true
	}
	return "", false
}

// stripNumber removes a move number, "12." or "12...", from a word.
func stripNumber(w string) string {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i == 0 || i == len(w) || w[i] != '.' {
		return w
	}
	for i < len(w) && w[i] == '.' {
		i++
	}
	return w[i:]
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// word reads a run of characters up to space or a delimiter.
func (r *pdnReader) word() string {
	start := r.pos
	for {
		c := r.peek()
		if c == -1 || isSpace(c) || strings.ContainsRune("{}()[];", c) {
			break
		}
		r.next()
	}
	return r.text[start:r.pos]
}

// tag reads [Name "Value"].
func (r *pdnReader) tag() (Tag, error) {
	line, col := r.line, r.col
	r.next() // '['
	r.skipSpace()
	start := r.pos
	for c := r.peek(); c != -1 && !isSpace(c) && c != '"' && c != ']'; c = r.peek() {
		r.next()
	}
	name := r.text[start:r.pos]
	if name == "" {
		return Tag{}, r.errorf(line, col, nil, "a tag without a name")
	}
	r.skipSpace()
	if r.peek() != '"' {
		return Tag{}, r.errorf(r.line, r.col, nil, "tag %s: the value must be in double quotes", name)
	}
	r.next()
	var v strings.Builder
	for {
		c := r.next()
		switch c {
		case -1:
			return Tag{}, r.errorf(line, col, nil, "tag %s: the value's quote is not closed", name)
		case '\\':
			if e := r.peek(); e == '"' || e == '\\' {
				c = r.next()
			}
		case '"':
			r.skipSpace()
			if r.peek() != ']' {
				return Tag{}, r.errorf(r.line, r.col, nil, "tag %s: want ']' after the value", name)
			}
			r.next()
			return Tag{Name: name, Value: v.String()}, nil
		}
		v.WriteRune(c)
	}
}

// comment reads {…}.
func (r *pdnReader) comment() (string, error) {
	line, col := r.line, r.col
	r.next() // '{'
	start := r.pos
	for {
		switch r.peek() {
		case -1:
			return "", r.errorf(line, col, nil, "the comment is not closed: '}' is missing")
		case '}':
			c := r.text[start:r.pos]
			r.next()
			return strings.Join(strings.Fields(c), " "), nil
		}
		r.next()
	}
}

// variation skips (…), nested variations and comments included.
func (r *pdnReader) variation() error {
	line, col := r.line, r.col
	depth := 0
	for {
		switch r.peek() {
		case -1:
			return r.errorf(line, col, nil, "the variation is not closed: ')' is missing")
		case '{':
			if _, err := r.comment(); err != nil {
				return err
			}
			continue
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				r.next()
				return nil
			}
		}
		r.next()
	}
}
