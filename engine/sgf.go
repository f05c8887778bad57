package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrSGF means an SGF record that cannot be read: broken syntax, a value
// that does not parse, or a move the rules do not allow. ParseSGF returns it
// wrapped in an *SGFError that says where.
var ErrSGF = newError("invalid_sgf", "invalid SGF")

// MaxSGFSize is the largest record ParseSGF reads, in bytes: 1 MiB. A real
// game record, comments and variations included, is well under it (the 596
// professional records of Debian's goban-original-games are at most a few
// kilobytes); a larger input is refused with ErrSGFTooLarge before it is
// read, so memory stays bounded: ParseSGF holds one node of the record at
// a time besides the game itself.
const MaxSGFSize = 1 << 20

// ErrSGFTooLarge means an SGF record longer than MaxSGFSize. It is a kind
// of ErrSGF.
var ErrSGFTooLarge = &Error{code: "sgf_too_large", msg: "SGF record larger than 1 MiB", parent: ErrSGF}

// ErrNoResult means a result that says the game has none: RE[Void] (no
// result, as for an annulled game) or RE[?] (unknown). ParseResult returns
// it; it is a kind of ErrSGF, since it is not a Result.
var ErrNoResult = &Error{code: "no_result", msg: "the game has no result", parent: ErrSGF}

// SGFError is an error in an SGF record, with the line and column (from 1,
// counted in characters) where it was found. It wraps ErrSGF and, when the
// cause is a rule of the game (an illegal move, a bad size or komi), the
// engine error as well, so errors.Is(err, ErrKo) works on a record that
// retakes a ko.
type SGFError struct {
	Line, Col int
	Msg       string
	Err       error // the underlying engine error, or nil
}

// Error returns the message with its position.
func (e *SGFError) Error() string {
	s := fmt.Sprintf("engine: sgf line %d, column %d: %s", e.Line, e.Col, e.Msg)
	var ee *Error
	switch {
	case errors.As(e.Err, &ee):
		s += ": " + ee.msg // the message says where; the sentinel says what
	case e.Err != nil:
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns ErrSGF and the underlying error, if any.
func (e *SGFError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrSGF, e.Err}
	}
	return []error{ErrSGF}
}

// SGFInfo is the game information of an SGF record that the Game itself does
// not hold. Size, komi, rules, handicap, set-up and moves live in the Game.
type SGFInfo struct {
	PB, PW string // player names
	// BlackRank and WhiteRank are the players' ranks (BR, WR), e.g. "5d".
	BlackRank, WhiteRank string
	RE                   string // result as written: "B+3.5", "W+R", "0", "Void"
	DT                   string // date, e.g. "2024-05-01"
	RU                   string // rules as written in the record
	GN                   string // game name
	EV                   string // event
	PC                   string // place
	C                    string // comment on the root node
	// Dead are the stones marked dead when play ended. On write, a non-nil
	// Dead (even empty) adds the final marking to the last node: the points
	// each side owns as TB and TW (dead stones included, as CGoban does)
	// and the dead stones as MA. On read, Dead holds the stones under the
	// opponent's TB/TW marks, or under MA, in a last node with TB or TW,
	// in board order (top row first).
	Dead []Point
	// Comments are written as comments (C) on the nodes of the moves,
	// keyed by move number from 1. WriteSGF writes them; ParseSGF does not
	// read them back.
	Comments map[int]string
	// Variations are other lines written as variations beside the main
	// line, keyed by the number of the move (from 1) they would replace:
	// each starts in the position before that move. WriteSGF writes them
	// after the main line, which stays the first; ParseSGF reads the main
	// line only.
	Variations map[int][]Move
	// InsertedPasses counts the passes ParseSGF inserted where the record
	// has the same player move twice in a row (it happens in real records,
	// mostly from handicap stones given as moves or a missing pass).
	InsertedPasses int
	// InsertedAt holds the indexes in Game.Moves of those passes, in order,
	// so that the record's own moves can be told from them (GTP's loadsgf
	// numbers the record's moves, as GNU Go does).
	InsertedAt []int
	// Warnings are the recording errors ParseSGF read past instead of
	// refusing the record, in the record's order: a move on an occupied
	// point (found in a few professional records) is read as a pass of
	// the same player, as GNU Go's loadsgf skips it. A record with more
	// than 10 such moves is refused. The caller decides whether and how to
	// show them.
	Warnings []SGFWarning
	// TM is each player's main time in seconds and OT the overtime as
	// written ("5x30 byo-yomi"), in the root; zero and empty for none.
	// WriteSGF writes TM[0] for a clock with overtime and no main time,
	// so that the record says there was none (rather than not saying).
	TM float64
	OT string
	// Times is the time each player had left after their moves, keyed by
	// move number from 1: BL or WL (seconds) and OB or OW (byo-yomi
	// periods, or Canadian moves, left; written when not zero) on the
	// move's node. WriteSGF writes them and ParseSGF reads them back.
	Times map[int]SGFTime
}

// SGFTime is a player's time left after a move: BL/WL and OB/OW.
type SGFTime struct {
	Left    float64 // seconds
	Periods int     // byo-yomi periods or Canadian moves left; 0 when not in overtime
}

// maxSGFWarnings is the most recording errors a record may have: one
// with more is no game record, and is refused.
const maxSGFWarnings = 10

// SGFWarning is a recording error in an SGF record that ParseSGF read past,
// with the line and column (from 1) of the value concerned.
type SGFWarning struct {
	Line, Col int
	Msg       string
	// Move is the index in Game.Moves of the pass that stands for the
	// faulty move.
	Move int
}

// String returns the warning with its position: "sgf line 12, column 5:
// move 138 (W R3) is on an occupied point: read as a pass".
func (w SGFWarning) String() string {
	return fmt.Sprintf("sgf line %d, column %d: %s", w.Line, w.Col, w.Msg)
}

// sgfScanner reads the syntax of an SGF collection.
type sgfScanner struct {
	data      []byte
	pos       int
	line, col int
}

type sgfValue struct {
	text      string // escapes resolved, soft line breaks removed, newlines as \n
	line, col int
}

type sgfProp struct {
	id        string
	vals      []sgfValue
	line, col int
}

type sgfNode struct {
	props     []sgfProp
	line, col int
}

func (s *sgfScanner) errorf(line, col int, format string, args ...any) error {
	return &SGFError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// advance moves past the byte at pos, keeping line and column.
func (s *sgfScanner) advance() {
	c := s.data[s.pos]
	s.pos++
	switch {
	case c == '\n':
		s.line++
		s.col = 1
	case c == '\r':
		if s.pos < len(s.data) && s.data[s.pos] == '\n' {
			s.col++ // the \n that follows starts the new line
		} else {
			s.line++
			s.col = 1
		}
	case c&0xC0 != 0x80: // not a UTF-8 continuation byte
		s.col++
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (s *sgfScanner) skipSpace() {
	for s.pos < len(s.data) && isSpace(s.data[s.pos]) {
		s.advance()
	}
}

// start skips anything before the first "(" that is followed by ";", as
// the SGF specification asks readers to do with headers and mail text. A
// "(" followed by a property, as in "(PB[...]" without the ";" of the root
// node, also starts the record: the Nihon Ki-in publishes its records so.
func (s *sgfScanner) start() error {
	for s.pos < len(s.data) {
		if s.data[s.pos] == '(' {
			j := s.pos + 1
			for j < len(s.data) && isSpace(s.data[j]) {
				j++
			}
			if j < len(s.data) && s.data[j] == ';' {
				return nil
			}
			if rootWithoutSemicolon(s.data[j:]) {
				return nil
			}
		}
		s.advance()
	}
	return s.errorf(1, 1, "no game tree: an SGF record starts with \"(;\"")
}

// rootWithoutSemicolon reports whether data starts with a property: a name
// with a capital letter, then (after any white space) "[".
func rootWithoutSemicolon(data []byte) bool {
	i, capital := 0, false
	for i < len(data) && isLetter(data[i]) {
		capital = capital || 'A' <= data[i] && data[i] <= 'Z'
		i++
	}
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return capital && i < len(data) && data[i] == '['
}

// mainLine parses the first game tree of the collection and calls visit
// with each node of its main line (the first child at every branch), in
// order; an error from visit stops the scan and is returned. The node is
// reused once visit returns: visit copies what it keeps. Variations are
// checked for syntax and dropped; later game trees are not read. Memory
// stays bounded by the largest node and the depth of the tree.
func (s *sgfScanner) mainLine(visit func(n *sgfNode) error) error {
	if err := s.start(); err != nil {
		return err
	}
	var n sgfNode  // the node being read, its storage reused
	mainNodes := 0 // nodes of the main line so far
	depth := 0     // open game trees
	mainOpen := 0  // depth of the innermost main-line tree
	ended := false // the main line is complete
	type open struct{ line, col, nodes int }
	var stack []open // where each open tree started, for errors
	for {
		s.skipSpace()
		if s.pos >= len(s.data) {
			o := stack[len(stack)-1]
			return s.errorf(o.line, o.col, "game tree is not closed: missing \")\"")
		}
		line, col := s.line, s.col
		switch c := s.data[s.pos]; {
		case c == '(':
			s.advance()
			depth++
			if !ended && depth-1 == mainOpen {
				mainOpen = depth
			}
			stack = append(stack, open{line, col, 0})
		case c == ')':
			if stack[len(stack)-1].nodes == 0 {
				o := stack[len(stack)-1]
				return s.errorf(o.line, o.col, "empty game tree: \"(\" must be followed by a node \";\"")
			}
			s.advance()
			if depth == mainOpen {
				ended = true
			}
			depth--
			stack = stack[:len(stack)-1]
			if depth == 0 {
				return nil
			}
		case c == ';':
			if depth == 0 {
				return s.errorf(line, col, "node outside a game tree")
			}
			s.advance()
			stack[len(stack)-1].nodes++
			if err := s.node(line, col, &n); err != nil {
				return err
			}
			if !ended && depth == mainOpen {
				mainNodes++
				if err := visit(&n); err != nil {
					return err
				}
			}
		case depth == 1 && mainNodes == 0 && stack[0].nodes == 0 && rootWithoutSemicolon(s.data[s.pos:]):
			// The root node of a record that leaves out its ";".
			stack[0].nodes++
			if err := s.node(line, col, &n); err != nil {
				return err
			}
			mainNodes++
			if err := visit(&n); err != nil {
				return err
			}
		default:
			return s.errorf(line, col, "unexpected %s: want \";\", \"(\" or \")\"", quoteByte(s.data, s.pos))
		}
	}
}

// quoteByte quotes the character at data[i] for an error message.
func quoteByte(data []byte, i int) string {
	r, _ := utf8.DecodeRune(data[i:])
	return strconv.QuoteRune(r)
}

// node reads the properties of one node into n, reusing its storage; the
// ";" has been read.
func (s *sgfScanner) node(line, col int, n *sgfNode) error {
	n.line, n.col = line, col
	n.props = n.props[:0]
	var idBuf [4]byte
	for {
		s.skipSpace()
		if s.pos >= len(s.data) {
			return nil // the caller reports the unclosed tree
		}
		c := s.data[s.pos]
		if !isLetter(c) {
			if c == '[' {
				return s.errorf(s.line, s.col, "property value without a property name")
			}
			return nil
		}
		if len(n.props) < cap(n.props) {
			n.props = n.props[:len(n.props)+1]
		} else {
			n.props = append(n.props, sgfProp{})
		}
		p := &n.props[len(n.props)-1]
		p.line, p.col, p.vals = s.line, s.col, p.vals[:0]
		id := idBuf[:0]
		start := s.pos
		for s.pos < len(s.data) && isLetter(s.data[s.pos]) {
			if c := s.data[s.pos]; 'A' <= c && c <= 'Z' {
				id = append(id, c)
			}
			s.advance()
		}
		if len(id) == 0 {
			return s.errorf(p.line, p.col, "property name %q has no capital letters", s.data[start:s.pos])
		}
		p.id = string(id)
		for {
			s.skipSpace()
			if s.pos >= len(s.data) || s.data[s.pos] != '[' {
				break
			}
			v, err := s.value()
			if err != nil {
				return err
			}
			p.vals = append(p.vals, v)
		}
		if len(p.vals) == 0 {
			return s.errorf(p.line, p.col, "property %s has no value: want %s[...]", p.id, p.id)
		}
	}
}

func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

// value reads one "[...]" value. Escapes are resolved, soft line breaks
// (a backslash before a line break) removed and line breaks made "\n".
func (s *sgfScanner) value() (sgfValue, error) {
	v := sgfValue{line: s.line, col: s.col}
	s.advance() // [
	start := s.pos
	plain := true // no escapes and no \r: the bytes are the text
	for {
		if s.pos >= len(s.data) {
			return v, s.errorf(v.line, v.col, "property value is not closed: missing \"]\"")
		}
		c := s.data[s.pos]
		if c == ']' {
			break
		}
		if c == '\\' || c == '\r' {
			plain = false
		}
		if c == '\\' && s.pos+1 < len(s.data) {
			s.advance()
		}
		s.advance()
	}
	raw := s.data[start:s.pos]
	s.advance() // ]
	if plain {
		v.text = string(raw)
		return v, nil
	}
	buf := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			i++
			c = raw[i]
			if c == '\n' || c == '\r' { // soft line break
				if i+1 < len(raw) && (raw[i+1] == '\n' || raw[i+1] == '\r') && raw[i+1] != c {
					i++
				}
				continue
			}
			buf = append(buf, c)
		case c == '\r':
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			buf = append(buf, '\n')
		default:
			buf = append(buf, c)
		}
	}
	v.text = string(buf)
	return v, nil
}

// simpleText turns a Text value into SimpleText: line breaks and other
// white space become spaces, and the ends are trimmed.
func simpleText(s string) string {
	if strings.ContainsAny(s, "\n\t\v\f") {
		s = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' || r == '\v' || r == '\f' {
				return ' '
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

// decodeText makes record text valid UTF-8. FF[4] says text without a CA
// property is ISO-8859-1; records written today are mostly UTF-8 without
// saying so, so text that is valid UTF-8 is taken as it is.
func decodeText(s string, latin1 bool) string {
	if utf8.ValidString(s) {
		return s
	}
	if !latin1 {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// isLatin1Charset reports whether a CA value names ISO-8859-1, however it
// is spelt: "ISO-8859-1", "ISO8859_1" (TwoGtp), "Latin-1", "l1". Windows-1252,
// which differs only in characters records rarely use, is read as Latin-1
// too.
func isLatin1Charset(ca string) bool {
	cs := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '.':
			return -1
		}
		return r
	}, lower(strings.TrimSpace(ca)))
	switch cs {
	case "iso88591", "isolatin1", "latin1", "l1", "iso885915", "latin9", "windows1252", "cp1252":
		return true
	}
	return false
}

// ParseSGF reads the main line of the first game in an SGF collection (FF[4],
// and the older FF[1]–FF[3] records found in real collections: white space
// anywhere, lower-case letters in property names such as "AddBlack", a
// header before the first "(;", a root node without its ";" as the Nihon
// Ki-in writes it). It returns the game replayed through the rules and the
// record's game information, whose text is UTF-8: read as it is when it is
// valid UTF-8, else as ISO-8859-1 when CA names it (however spelt) or is
// absent.
//
// Size comes from SZ (default 19; square boards from 2 to 25), rules from RU
// (Chinese, Japanese or Korean, Tromp-Taylor or TT, AGA, New Zealand, Ing;
// anything else gives the default rules) with the overrides WriteSGF
// writes in GOBOTRU (see RulesToSGF), komi from KM (0 when the record has none; Chinese komi in stones
// such as KM[3.75] and Fox's KM[375] are made points, 7.5, and anything
// else is rounded to the nearest half point; a record without known rules that repeats a whole-board
// position is read with simple ko), set-up from AB, AW and AE before the
// first move with HA as the handicap count (a record with HA[n] and no
// set-up whose first move is White's gets the fixed handicap stones, as GNU
// Go places them), and the first player from the first move, else PL, else
// White after handicap stones and Black otherwise. Moves are B and W, with
// passes written [] or, up to 19×19, [tt]. Where the record has the same
// player move twice, ParseSGF inserts a pass for the other player (counted
// in SGFInfo.InsertedPasses); where play continues after two passes it
// resumes the game. The result (RE) is left in SGFInfo and does not end
// the Game, so it can be continued or analysed; see ParseResult.
//
// Any error is an *SGFError with the line and column, wrapping ErrSGF and,
// for an illegal move or a bad size or komi, the engine error.
func ParseSGF(data []byte) (*Game, *SGFInfo, error) {
	if len(data) > MaxSGFSize {
		return nil, nil, &SGFError{Line: 1, Col: 1, Msg: fmt.Sprintf("%d bytes", len(data)), Err: ErrSGFTooLarge}
	}
	// A first pass checks the syntax and keeps the first occurrence of each
	// property on the main line (the game information); the second plays
	// the moves, one node at a time.
	main := mainLineInfo{first: map[string]sgfProp{}}
	s := &sgfScanner{data: data, line: 1, col: 1}
	if err := s.mainLine(main.visit); err != nil {
		return nil, nil, err
	}
	r := sgfReader{data: data, main: &main, info: &SGFInfo{}}
	err := r.read()
	if errors.Is(err, ErrSuperko) && !r.rulesKnown {
		// A record that does not say its rules and repeats a position (a
		// triple ko in a game played under Japanese rules) is read again
		// with simple ko.
		r = sgfReader{data: data, main: &main, info: &SGFInfo{}, simpleKo: true}
		err = r.read()
	}
	if err != nil {
		return nil, nil, err
	}
	return r.g, r.info, nil
}

// mainLineInfo is what the first pass keeps of the main line: the first
// occurrence of each property whose name has at most two letters (every
// property of FF[4]; at most 702 of them, so memory stays bounded) or is
// gobot's own GOBOTRU, and the root node.
type mainLineInfo struct {
	first map[string]sgfProp
	root  sgfNode
	nodes int
}

// visit is mainLine's callback for the first pass.
func (m *mainLineInfo) visit(n *sgfNode) error {
	if m.nodes == 0 {
		m.root = sgfNode{props: cloneProps(n.props), line: n.line, col: n.col}
	}
	m.nodes++
	for _, p := range n.props {
		if _, ok := m.first[p.id]; !ok && (len(p.id) <= 2 || p.id == sgfOverridesID) {
			m.first[p.id] = sgfProp{id: p.id, vals: slices.Clone(p.vals), line: p.line, col: p.col}
		}
	}
	return nil
}

// cloneProps copies props out of a node mainLine reuses.
func cloneProps(props []sgfProp) []sgfProp {
	out := make([]sgfProp, len(props))
	for i, p := range props {
		out[i] = sgfProp{id: p.id, vals: slices.Clone(p.vals), line: p.line, col: p.col}
	}
	return out
}

// mainNodes iterates over the nodes of the main line a second time; the
// first pass has checked the syntax, so the scan cannot fail. The node is
// reused from one step to the next.
func (r *sgfReader) mainNodes(yield func(*sgfNode) bool) {
	errStop := errors.New("stop")
	s := &sgfScanner{data: r.data, line: 1, col: 1}
	err := s.mainLine(func(n *sgfNode) error {
		if !yield(n) {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		// The first pass read the same bytes without an error.
		panic("engine: sgf: second pass failed: " + err.Error())
	}
}

// sgfReader turns the main line into a Game.
type sgfReader struct {
	data   []byte
	main   *mainLineInfo
	info   *SGFInfo
	g      *Game
	size   int
	latin1 bool

	net     []Color // set-up before the first move, by Row*size+Col
	pl      Color
	ha      int
	started bool // the first move has been played

	rulesKnown bool // RU names rules that RulesFromSGF knows
	simpleKo   bool // use simple ko whatever the rules say
}

func (r *sgfReader) errorAt(v sgfValue, err error, format string, args ...any) error {
	return &SGFError{Line: v.line, Col: v.col, Msg: fmt.Sprintf(format, args...), Err: err}
}

// first returns the first occurrence of a property on the main line; id
// has at most two letters.
func (r *sgfReader) first(id string) (sgfProp, bool) {
	p, ok := r.main.first[id]
	return p, ok
}

func (r *sgfReader) text(id string) string {
	p, ok := r.first(id)
	if !ok {
		return ""
	}
	return simpleText(decodeText(p.vals[0].text, r.latin1))
}

func (r *sgfReader) read() error {
	r.latin1 = true
	if p, ok := r.first("CA"); ok {
		r.latin1 = isLatin1Charset(p.vals[0].text)
	}
	if p, ok := r.first("GM"); ok {
		if gm := strings.TrimSpace(p.vals[0].text); gm != "" && gm != "1" {
			return r.errorAt(p.vals[0], nil, "GM[%s] is not a game of Go (GM[1])", gm)
		}
	}
	r.size = 19
	if p, ok := r.first("SZ"); ok {
		v := p.vals[0]
		t := strings.TrimSpace(v.text)
		if a, b, ok := strings.Cut(t, ":"); ok {
			if strings.TrimSpace(a) != strings.TrimSpace(b) {
				return r.errorAt(v, ErrInvalidSize, "SZ[%s]: rectangular boards are not supported", t)
			}
			t = strings.TrimSpace(a)
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			return r.errorAt(v, nil, "SZ[%s] is not a board size", t)
		}
		if n < MinSize || n > MaxSize {
			return r.errorAt(v, ErrInvalidSize, "SZ[%d]", n)
		}
		r.size = n
	}
	rules := DefaultRules()
	komi := 0.0
	overrides := ""
	if p, ok := r.first(sgfOverridesID); ok {
		overrides = simpleText(decodeText(p.vals[0].text, r.latin1))
	}
	if p, ok := r.first("RU"); ok || overrides != "" {
		if ok {
			r.info.RU = simpleText(decodeText(p.vals[0].text, r.latin1))
		}
		rules, r.rulesKnown = RulesFromSGF(r.info.RU, overrides)
	}
	if r.simpleKo {
		rules.Ko = SimpleKo
	}
	if p, ok := r.first("KM"); ok {
		v := p.vals[0]
		t := strings.ReplaceAll(strings.TrimSpace(v.text), ",", ".")
		if t != "" {
			k, err := strconv.ParseFloat(t, 64)
			if err != nil || math.IsNaN(k) {
				return r.errorAt(v, ErrInvalidKomi, "KM[%s] is not a number", t)
			}
			// gobot writes its komi as it is, whatever GTP set (AnyKomi):
			// its KM[7.25] is 7.25, not a komi in stones.
			valid := AnyKomi
			if !r.byGobot() {
				k, valid = normalKomi(k), ValidKomi
			}
			if !valid(k) {
				return r.errorAt(v, ErrInvalidKomi, "KM[%s]", t)
			}
			komi = k
		}
	}
	rules.Komi = komi
	if p, ok := r.first("HA"); ok {
		v := p.vals[0]
		t := strings.TrimSpace(v.text)
		if t != "" {
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= r.size*r.size {
				return r.errorAt(v, ErrInvalidHandicap, "HA[%s] is not a number of stones", t)
			}
			r.ha = n
		}
	}
	g, err := NewGame(Config{Size: r.size, Rules: rules})
	if err != nil { // cannot happen: size and komi are checked above
		return &SGFError{Line: 1, Col: 1, Msg: "cannot start the game", Err: err}
	}
	r.g = g

	i := r.info
	i.PB, i.PW = r.text("PB"), r.text("PW")
	i.BlackRank, i.WhiteRank = r.text("BR"), r.text("WR")
	i.RE, i.DT, i.GN = r.text("RE"), r.text("DT"), r.text("GN")
	i.EV, i.PC = r.text("EV"), r.text("PC")
	i.OT = r.text("OT")
	if t := r.text("TM"); t != "" {
		if v, err := strconv.ParseFloat(t, 64); err == nil && v >= 0 && !math.IsInf(v, 0) {
			i.TM = v
		}
	}
	if r.main.nodes > 0 {
		for _, p := range r.main.root.props {
			if p.id == "C" {
				i.C = strings.TrimSpace(decodeText(p.vals[0].text, r.latin1))
			}
		}
	}

	area := r.size * r.size
	r.net = make([]Color, area)
	// Territory (TB, TW) and dead (MA) marks after the last move.
	tb, tw, ma := make([]bool, area), make([]bool, area), make([]bool, area)
	marked, dirty := false, false
	for n := range r.mainNodes {
		for _, p := range n.props {
			if (p.id == "B" || p.id == "W") && dirty { // marks before the last move are not final
				clear(tb)
				clear(tw)
				clear(ma)
				marked, dirty = false, false
			}
		}
		for _, p := range n.props {
			switch p.id {
			case "AB", "AW", "AE":
				c := map[string]Color{"AB": Black, "AW": White, "AE": Empty}[p.id]
				if err := r.setupProp(p, c); err != nil {
					return err
				}
			case "PL":
				v := strings.TrimSpace(p.vals[0].text)
				c, err := ParseColor(v)
				switch v { // old CGoban writes PL[1] and PL[2]
				case "1":
					c, err = Black, nil
				case "2":
					c, err = White, nil
				}
				if err != nil {
					return r.errorAt(p.vals[0], err, "PL[%s]: want B or W", p.vals[0].text)
				}
				if !r.started {
					r.pl = c
				}
			case "B", "W":
				c := Black
				if p.id == "W" {
					c = White
				}
				if err := r.move(p, c); err != nil {
					return err
				}
				r.moveTime(n, c)
			case "TB", "TW", "MA":
				set := map[string][]bool{"TB": tb, "TW": tw, "MA": ma}[p.id]
				err := r.points(p, true, func(pt Point) { set[pt.Row*r.size+pt.Col] = true })
				if err != nil {
					return err
				}
				dirty = true
				marked = marked || p.id != "MA"
			}
		}
	}
	if !r.started {
		if err := r.applySetup(r.pl); err != nil {
			return err
		}
	}
	if marked {
		i.Dead = r.dead(tb, tw, ma)
	}
	return nil
}

// moveTime reads the time left (BL/WL, OB/OW) on the node n of a move of
// colour c just read, into info.Times; a value that is no number is
// ignored, as other readers do.
func (r *sgfReader) moveTime(n *sgfNode, c Color) {
	left, periods := "BL", "OB"
	if c == White {
		left, periods = "WL", "OW"
	}
	var t SGFTime
	found := false
	for _, p := range n.props {
		v := strings.TrimSpace(p.vals[0].text)
		switch p.id {
		case left:
			if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				t.Left, found = f, true
			}
		case periods:
			if k, err := strconv.Atoi(v); err == nil && k >= 0 {
				t.Periods, found = k, true
			}
		}
	}
	if !found {
		return
	}
	if r.info.Times == nil {
		r.info.Times = map[int]SGFTime{}
	}
	r.info.Times[r.g.MoveCount()] = t
}

// dead reads the dead stones of a final marking: stones under the
// opponent's territory marks, and stones marked MA (as WriteSGF writes dead
// stones that no side's territory covers), in board order.
func (r *sgfReader) dead(tb, tw, ma []bool) []Point {
	b := r.g.Board()
	dead := []Point{}
	for row := r.size - 1; row >= 0; row-- {
		for col := 0; col < r.size; col++ {
			p, i := Point{col, row}, row*r.size+col
			c := b.At(p)
			if (tb[i] && c == White) || (tw[i] && c == Black) || (ma[i] && c != Empty) {
				dead = append(dead, p)
			}
		}
	}
	return dead
}

// points calls f for each point of a list of points, with FF[4] rectangles
// such as "aa:cc". An empty value is an empty list when emptyOK.
func (r *sgfReader) points(p sgfProp, emptyOK bool, f func(Point)) error {
	for _, v := range p.vals {
		t := strings.TrimSpace(v.text)
		if t == "" {
			if emptyOK || len(p.vals) == 1 {
				continue
			}
			return r.errorAt(v, ErrInvalidCoordinates, "%s[]: empty point in a list", p.id)
		}
		a, b, rect := strings.Cut(t, ":")
		pa, err := r.point(p.id, v, a)
		if err != nil {
			return err
		}
		if !rect {
			f(pa)
			continue
		}
		pb, err := r.point(p.id, v, b)
		if err != nil {
			return err
		}
		for row := min(pa.Row, pb.Row); row <= max(pa.Row, pb.Row); row++ {
			for col := min(pa.Col, pb.Col); col <= max(pa.Col, pb.Col); col++ {
				f(Point{col, row})
			}
		}
	}
	return nil
}

func (r *sgfReader) point(id string, v sgfValue, s string) (Point, error) {
	s = strings.TrimSpace(s)
	p, ok, err := ParseSGFPoint(s, r.size)
	if err == nil && !ok {
		err = ErrInvalidCoordinates
	}
	if err != nil {
		return NoPoint, r.errorAt(v, ErrInvalidCoordinates, "%s[%s] is not a point on a %d×%d board", id, s, r.size, r.size)
	}
	return p, nil
}

// setupProp reads AB, AW or AE. Before the first move the stones go into
// the game's set-up, the last word on each point counting; after it, the
// Game cannot take them, so only set-up that leaves the board as it is (a
// record repeating its stones) is accepted.
func (r *sgfReader) setupProp(p sgfProp, c Color) error {
	if !r.started {
		return r.points(p, c == Empty, func(pt Point) {
			r.net[pt.Row*r.size+pt.Col] = c
		})
	}
	b := r.g.Board()
	changed := false
	err := r.points(p, c == Empty, func(pt Point) { changed = changed || b.At(pt) != c })
	if err != nil {
		return err
	}
	if changed {
		return &SGFError{Line: p.line, Col: p.col, Msg: fmt.Sprintf(
			"%s changes the board after move %d: set-up is only supported before the first move", p.id, r.g.MoveCount())}
	}
	return nil
}

// impliedHandicap places the fixed handicap stones of a record that says
// HA[n] but has no set-up at all, when its first move is White's: the
// stones were left for the reader to place, as GNU Go places them (at the
// points of GTP's fixed_handicap). A handicap the board size does not
// allow is left alone.
func (r *sgfReader) impliedHandicap(first Color) {
	if first != White || r.ha < 2 || slices.ContainsFunc(r.net, func(c Color) bool { return c != Empty }) {
		return
	}
	pts, err := HandicapPoints(r.size, r.ha)
	if err != nil {
		return
	}
	for _, p := range pts {
		r.net[p.Row*r.size+p.Col] = Black
	}
}

// applySetup puts the set-up stones on the board, top row first, with
// first to play.
func (r *sgfReader) applySetup(first Color) error {
	r.started = true
	var stones []Stone
	black := false
	for row := r.size - 1; row >= 0; row-- {
		for col := 0; col < r.size; col++ {
			if c := r.net[row*r.size+col]; c != Empty {
				stones = append(stones, Stone{Point{col, row}, c})
				black = black || c == Black
			}
		}
	}
	handicap := 0
	if r.ha >= 2 && black {
		handicap = r.ha
	}
	if first == Empty {
		first = Black
		if handicap > 0 {
			first = White
		}
	}
	if len(stones) == 0 && first == r.g.FirstPlayer() {
		return nil
	}
	if err := r.g.SetupStones(stones, first, handicap); err != nil {
		return &SGFError{Line: 1, Col: 1, Msg: "set-up", Err: err}
	}
	return nil
}

// move plays a B or W property through the rules.
func (r *sgfReader) move(p sgfProp, c Color) error {
	v := p.vals[0]
	t := strings.TrimSpace(v.text)
	pt, place, err := ParseSGFPoint(t, r.size)
	if err != nil {
		return r.errorAt(v, ErrInvalidCoordinates, "%s[%s] is not a point on a %d×%d board", p.id, t, r.size, r.size)
	}
	m := PassMove(c)
	if place {
		m = PlaceAt(c, pt)
	}
	if !r.started {
		r.impliedHandicap(c)
		if err := r.applySetup(c); err != nil {
			return err
		}
	}
	g := r.g
	if g.PlayEnded() {
		if err := g.Resume(); err != nil {
			return r.errorAt(v, err, "move %d", g.MoveCount()+1)
		}
	}
	if c != g.ToPlay() {
		if err := g.Play(PassMove(g.ToPlay())); err != nil {
			return r.errorAt(v, err, "move %d", g.MoveCount()+1)
		}
		r.info.InsertedPasses++
		r.info.InsertedAt = append(r.info.InsertedAt, g.MoveCount()-1)
		if g.PlayEnded() {
			if err := g.Resume(); err != nil {
				return r.errorAt(v, err, "move %d", g.MoveCount()+1)
			}
		}
	}
	if err := g.Play(m); err != nil {
		if errors.Is(err, ErrOccupied) && len(r.info.Warnings) >= maxSGFWarnings {
			// Say which move was the first: the refusal is of them all.
			return r.errorAt(v, err, "move %d (%s %s) is the record's %dth move on an occupied point, the first being move %d: a record with more than %d is refused",
				g.MoveCount()+1, c.Letter(), m, maxSGFWarnings+1, r.info.Warnings[0].Move+1, maxSGFWarnings)
		}
		if !errors.Is(err, ErrOccupied) {
			return r.errorAt(v, err, "move %d (%s %s)", g.MoveCount()+1, c.Letter(), m)
		}
		// A recording error (a few professional records have one): the
		// move is read as a pass, as GNU Go's loadsgf skips it, so the
		// record's numbering holds and its next move follows.
		r.info.Warnings = append(r.info.Warnings, SGFWarning{Line: v.line, Col: v.col, Move: g.MoveCount(),
			Msg: fmt.Sprintf("move %d (%s %s) is on an occupied point: read as a pass", g.MoveCount()+1, c.Letter(), m)})
		if err := g.Play(PassMove(c)); err != nil {
			return r.errorAt(v, err, "move %d (%s pass)", g.MoveCount()+1, c.Letter())
		}
	}
	return nil
}

// byGobot reports whether the record says gobot wrote it (AP[gobot]).
func (r *sgfReader) byGobot() bool {
	p, ok := r.first("AP")
	if !ok {
		return false
	}
	name, _, _ := strings.Cut(simpleText(decodeText(p.vals[0].text, r.latin1)), ":")
	return lower(strings.TrimSpace(name)) == "gobot"
}

// normalKomi reads komi as Chinese servers write it: Fox writes hundredths
// (KM[650] for 6.5, KM[375] for 3.75), and a komi in stones has quarters
// (KM[3.75] is 7.5 points, KM[2.75] is 5.5). Anything else off the half
// point is rounded to the nearest half point.
func normalKomi(k float64) float64 {
	if math.Abs(k) > 150 && k == math.Trunc(k) && int64(k)%25 == 0 {
		k /= 100
	}
	if q := k * 4; q == math.Trunc(q) && int64(q)%2 != 0 {
		return k * 2 // quarters: stones
	}
	return math.Round(k*2) / 2
}

// RulesFromSGF maps an SGF RU value to rules: "Chinese", "Japanese" (and
// "Korean"), "Tromp-Taylor" or "TT", "AGA" (area scoring, situational
// superko, White gets one point per handicap stone after the first), "NZ"
// or "New Zealand" (Tromp–Taylor with situational superko), "Ing" or "GOE"
// (Chinese with suicide allowed), "simple", and what WriteSGF wrote before
// it wrote the overrides apart, such as "Chinese (simple ko)"; then it
// applies overrides, the value of gobot's GOBOTRU property as RulesToSGF
// writes it ("simple ko"; "" for none). The komi is the preset's; a
// record's KM overrides it. For an RU value it does not know it returns
// the default rules (with the overrides) and false.
func RulesFromSGF(ru, overrides string) (Rules, bool) {
	base, mods, _ := strings.Cut(lower(ru), "(")
	words := strings.FieldsFunc(base, func(r rune) bool { return !('a' <= r && r <= 'z') })
	has := func(ws ...string) bool {
		for _, w := range words {
			for _, x := range ws {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	var rules Rules
	known := true
	switch {
	case has("tromp", "tt"):
		rules = presets["tromp-taylor"]
	case has("nz") || has("zealand"):
		rules = presets["tromp-taylor"]
		rules.Ko = SituationalSuperko
		rules.Komi = 7
	case has("aga", "american"):
		rules = presets["chinese"]
		rules.Ko = SituationalSuperko
		rules.Handicap = BonusNMinus1
	case has("ing", "goe"):
		rules = presets["chinese"]
		rules.Suicide = true
	case has("japanese", "japan", "jp", "jpn", "korean", "korea", "kr"):
		rules = presets["japanese"]
	case has("chinese", "china", "cn", "chn"):
		rules = presets["chinese"]
	case has("simple"):
		rules = presets["simple"]
	default:
		rules, known = DefaultRules(), false
	}
	mods, _, _ = strings.Cut(mods, ")")
	for _, ms := range []string{mods, lower(overrides)} {
		for _, m := range strings.Split(ms, ";") {
			text := strings.Join(strings.Fields(m), " ")
			for _, o := range sgfRuleMods {
				if o.text == text {
					o.set(&rules)
				}
			}
		}
	}
	return rules, known
}

// sgfOverridesID is gobot's own SGF property for what the rules change of
// the preset RU names (see RulesToSGF). FF[4] lets programs add their own
// properties and asks readers to keep those they do not know, so a record
// passes through other programs with it.
const sgfOverridesID = "GOBOTRU"

// sgfRuleNames are the RU values written for the presets.
var sgfRuleNames = map[string]string{
	"chinese": "Chinese", "japanese": "Japanese", "tromp-taylor": "Tromp-Taylor", "simple": "simple",
}

// sgfRuleMods are the overrides RulesToSGF writes for GOBOTRU and
// RulesFromSGF reads back, in the order they are written:
// each sets one field of the rules, and has reports whether rules already
// have that value.
var sgfRuleMods = []struct {
	text string
	set  func(*Rules)
	has  func(Rules) bool
}{
	{"simple ko", func(r *Rules) { r.Ko = SimpleKo }, func(r Rules) bool { return r.Ko == SimpleKo }},
	{"positional superko", func(r *Rules) { r.Ko = PositionalSuperko }, func(r Rules) bool { return r.Ko == PositionalSuperko }},
	{"situational superko", func(r *Rules) { r.Ko = SituationalSuperko }, func(r Rules) bool { return r.Ko == SituationalSuperko }},
	{"suicide allowed", func(r *Rules) { r.Suicide = true }, func(r Rules) bool { return r.Suicide }},
	{"no suicide", func(r *Rules) { r.Suicide = false }, func(r Rules) bool { return !r.Suicide }},
	{"area scoring", func(r *Rules) { r.Scoring = AreaScoring }, func(r Rules) bool { return r.Scoring == AreaScoring }},
	{"territory scoring", func(r *Rules) { r.Scoring = TerritoryScoring }, func(r Rules) bool { return r.Scoring == TerritoryScoring }},
	{"handicap bonus n", func(r *Rules) { r.Handicap = BonusN }, func(r Rules) bool { return r.Handicap == BonusN }},
	{"handicap bonus n-1", func(r *Rules) { r.Handicap = BonusNMinus1 }, func(r Rules) bool { return r.Handicap == BonusNMinus1 }},
	{"no handicap bonus", func(r *Rules) { r.Handicap = NoBonus }, func(r Rules) bool { return r.Handicap == NoBonus }},
}

// RulesToSGF writes rules for a record, as RulesFromSGF reads them back:
// ru, the RU value, is the preset's name ("Chinese", "Japanese"), and
// overrides, for gobot's GOBOTRU property, are what the rules change of
// the preset, joined by "; " ("simple ko"), or "" when nothing. The
// overrides are kept out of RU because other programs read RU as a name:
// KataGo's loader refuses "Chinese (simple ko)", and GNU Go, Sabaki and
// the servers' importers know "Chinese" and "Japanese" only. "Chinese"
// is also the nearest name for Chinese rules with simple ko: it is what
// GNU Go's and KataGo's "Chinese" play. Komi is written separately, as
// KM.
func RulesToSGF(r Rules) (ru, overrides string) {
	preset, ok := presets[r.Name]
	name := sgfRuleNames[r.Name]
	if !ok {
		preset, name = DefaultRules(), sgfRuleNames["chinese"]
	}
	var mods []string
	for _, o := range sgfRuleMods {
		if o.has(r) && !o.has(preset) {
			mods = append(mods, o.text)
		}
	}
	return name, strings.Join(mods, "; ")
}

// ParseResult reads a result as SGF's RE writes it: "B+3.5", "W+R" or
// "W+Resign", "B+T" or "B+Time", "W+F" or "W+Forfeit", "B+" (margin
// unknown), and "0", "Draw" or "Jigo" for a tie, in any case. "Void" and
// "?" (no result) are errors wrapping ErrNoResult; anything else is an error
// wrapping ErrSGF. It is the one reader of results: storage uses it too.
func ParseResult(s string) (Result, error) {
	t := strings.TrimSpace(s)
	switch lower(t) {
	case "0", "draw", "jigo", "d":
		return Result{Winner: Empty, Reason: ByScore}, nil
	case "void", "?":
		return Result{}, fmt.Errorf("result %q: %w", s, ErrNoResult)
	}
	who, how, ok := strings.Cut(t, "+")
	c, err := ParseColor(strings.TrimSpace(who))
	if !ok || err != nil {
		return Result{}, fmt.Errorf("result %q (want B+3.5, W+R, B+T, W+F or 0): %w", s, ErrSGF)
	}
	r := Result{Winner: c}
	switch how = strings.TrimSpace(how); lower(how) {
	case "r", "resign":
		r.Reason = ByResignation
	case "t", "time":
		r.Reason = ByTime
	case "f", "forfeit":
		r.Reason = ByForfeit
	case "":
		r.Reason = ByScore
	default:
		m, err := strconv.ParseFloat(how, 64)
		if err != nil || m < 0 || math.IsInf(m, 0) || math.IsNaN(m) {
			return Result{}, fmt.Errorf("result %q (want B+3.5, W+R, B+T, W+F or 0): %w", s, ErrSGF)
		}
		r.Reason, r.Margin = ByScore, m
	}
	return r, nil
}

// AddRootComment returns record, an SGF record, with c added to the
// comment of its root node: after the comment it has, a blank line
// between, or as the root's comment when it has none. Nothing else in the
// record changes (comments on moves, variations, properties ParseSGF
// does not read), so a record can be marked after it was written (an
// annulment's who, when and why). A record whose root node cannot be
// found is an *SGFError.
func AddRootComment(record []byte, c string) ([]byte, error) {
	i := skipSGFSpace(record, 0)
	if i >= len(record) || record[i] != '(' {
		return nil, sgfErrorAt(record, i, "the record does not begin with (")
	}
	if i = skipSGFSpace(record, i+1); i >= len(record) || record[i] != ';' {
		return nil, sgfErrorAt(record, i, "the record has no root node")
	}
	end, comment := i+1, -1 // the end of the root's properties; the ] closing its C
	for i = skipSGFSpace(record, i+1); i < len(record); i = skipSGFSpace(record, i) {
		if b := record[i]; b == ';' || b == '(' || b == ')' {
			break
		}
		id := i
		for i < len(record) && (record[i] >= 'A' && record[i] <= 'Z' || record[i] >= 'a' && record[i] <= 'z') {
			i++
		}
		if i == id {
			return nil, sgfErrorAt(record, i, fmt.Sprintf("unexpected %q in the root node", record[i]))
		}
		isC := string(record[id:i]) == "C"
		for i = skipSGFSpace(record, i); i < len(record) && record[i] == '['; i = skipSGFSpace(record, i) {
			for i++; i < len(record) && record[i] != ']'; i++ {
				if record[i] == '\\' {
					i++
				}
			}
			if i >= len(record) {
				return nil, sgfErrorAt(record, i, "a value of the root node is not closed")
			}
			if isC {
				comment = i
			}
			i++
			end = i
		}
	}
	var out []byte
	if comment >= 0 {
		out = append(append(out, record[:comment]...), "\n\n"+sgfEscape(c)...)
		return append(out, record[comment:]...), nil
	}
	out = append(append(out, record[:end]...), "C["+sgfEscape(c)+"]"...)
	return append(out, record[end:]...), nil
}

// skipSGFSpace returns the index of the first byte of data at or after i
// that is not white space.
func skipSGFSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
		i++
	}
	return i
}

// sgfErrorAt is an *SGFError at byte offset i of data, its line and column
// counted as ParseSGF counts them.
func sgfErrorAt(data []byte, i int, msg string) *SGFError {
	i = min(i, len(data))
	line := 1 + strings.Count(string(data[:i]), "\n")
	col := 1 + utf8.RuneCount(data[strings.LastIndexByte(string(data[:i]), '\n')+1:i])
	return &SGFError{Line: line, Col: col, Msg: msg}
}

// sgfEscape escapes text for an SGF value: "]" and "\" get a backslash.
func sgfEscape(s string) string {
	if !strings.ContainsAny(s, `]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// WriteSGF writes g as an FF[4] record in UTF-8: the root node with the
// size, komi, rules (see RulesToSGF), handicap, the information in info and
// the set-up stones, then one node per move, passes written as "[]". RE is
// info.RE, or the game's result when info.RE is empty. When info.Dead is
// not nil the last node carries the final marking (TB, TW and MA for the
// dead stones), scored by the game's rules. info.Comments go on the
// nodes of their moves and info.Variations follow the main line as
// variations. ParseSGF reads back every position of the main line. The record has no empty lines (GTP's printsgf relies on it)
// unless info.C has them.
func WriteSGF(w io.Writer, g *Game, info SGFInfo) error {
	sw := &sgfWriter{w: bufio.NewWriter(w)}
	size := g.Size()
	sw.raw("(;FF[4]GM[1]CA[UTF-8]AP[gobot]")
	sw.raw(fmt.Sprintf("SZ[%d]KM[%s]", size, FormatKomi(g.Rules().Komi)))
	ru, overrides := RulesToSGF(g.Rules())
	sw.prop("RU", ru)
	sw.prop(sgfOverridesID, overrides)
	if g.Handicap() >= 2 {
		sw.raw(fmt.Sprintf("HA[%d]", g.Handicap()))
	}
	sw.newline()
	sw.prop("PB", info.PB)
	sw.prop("BR", info.BlackRank)
	sw.prop("PW", info.PW)
	sw.prop("WR", info.WhiteRank)
	sw.prop("DT", info.DT)
	sw.prop("EV", info.EV)
	sw.prop("PC", info.PC)
	sw.prop("GN", info.GN)
	re := info.RE
	if r, ok := g.Result(); ok && re == "" {
		re = r.String()
	}
	sw.prop("RE", re)
	if info.TM > 0 || info.OT != "" {
		sw.raw("TM[" + sgfSeconds(info.TM) + "]")
	}
	sw.prop("OT", info.OT)
	if info.C != "" {
		sw.newline()
		sw.prop("C", info.C)
	}
	// The set-up as it stands on the board, so AE is never needed.
	setup, _ := NewBoard(size)
	for _, s := range g.Setup() {
		setup.SetStone(s.Point, s.Color)
	}
	sw.points("AB", size, func(p Point) bool { return setup.At(p) == Black })
	sw.points("AW", size, func(p Point) bool { return setup.At(p) == White })
	defaultFirst := Black
	if g.Handicap() >= 2 {
		defaultFirst = White
	}
	if g.FirstPlayer() != defaultFirst {
		sw.newline()
		sw.raw("PL[" + g.FirstPlayer().Letter() + "]")
	}
	var branches []int // moves with variations, in order
	for i, m := range g.Moves() {
		n := i + 1
		if len(info.Variations[n]) > 0 {
			sw.newline()
			sw.raw("(")
			branches = append(branches, n)
		} else if i%10 == 0 {
			sw.newline()
		}
		sw.move(m, size)
		if t, ok := info.Times[n]; ok {
			left, periods := "BL", "OB"
			if m.Color == White {
				left, periods = "WL", "OW"
			}
			sw.raw(left + "[" + sgfSeconds(t.Left) + "]")
			if t.Periods > 0 {
				sw.raw(periods + "[" + strconv.Itoa(t.Periods) + "]")
			}
		}
		if c := info.Comments[n]; c != "" {
			sw.prop("C", c)
		}
	}
	if info.Dead != nil {
		sw.marking(g, info.Dead)
	}
	for i := len(branches) - 1; i >= 0; i-- {
		sw.raw(")")
		sw.newline()
		sw.raw("(")
		for _, m := range info.Variations[branches[i]] {
			sw.move(m, size)
		}
		sw.raw(")")
	}
	sw.raw(")\n")
	return sw.w.Flush()
}

// sgfSeconds writes a time in seconds to a tenth: "86400", "12.5".
func sgfSeconds(v float64) string {
	return strconv.FormatFloat(math.Round(max(v, 0)*10)/10, 'f', -1, 64)
}

// move writes the node of one move; a pass is written "[]".
func (sw *sgfWriter) move(m Move, size int) {
	v := ""
	if m.Kind == Place {
		v = SGFPoint(m.Point, size)
	}
	sw.raw(";" + m.Color.Letter() + "[" + v + "]")
}

// sgfWriter writes a record without empty lines.
type sgfWriter struct {
	w     *bufio.Writer
	blank bool // the current line is empty
}

func (sw *sgfWriter) raw(s string) {
	if s != "" {
		sw.w.WriteString(s)
		sw.blank = s[len(s)-1] == '\n'
	}
}

// newline ends the current line unless it is empty.
func (sw *sgfWriter) newline() {
	if !sw.blank {
		sw.raw("\n")
	}
}

// prop writes a text property, unless its value is empty.
func (sw *sgfWriter) prop(id, v string) {
	if v != "" {
		sw.raw(id + "[" + sgfEscape(v) + "]")
	}
}

// points writes a point list property of the points keep accepts, top row
// first, on a line of its own; it returns how many it wrote.
func (sw *sgfWriter) points(id string, size int, keep func(Point) bool) int {
	n := 0
	for row := size - 1; row >= 0; row-- {
		for col := 0; col < size; col++ {
			p := Point{col, row}
			if !keep(p) {
				continue
			}
			if n == 0 {
				sw.newline()
				sw.raw(id)
			}
			sw.raw("[" + SGFPoint(p, size) + "]")
			n++
		}
	}
	return n
}

// marking writes TB, TW and MA for the final position with dead stones:
// the points each side owns that are not its own living stones, and the
// dead stones. An empty marking is written TB[].
func (sw *sgfWriter) marking(g *Game, dead []Point) {
	size := g.Size()
	score := g.Score(dead)
	b := g.Board()
	isDead := make(map[Point]bool, len(dead))
	for _, p := range dead {
		if p.Valid(size) && b.At(p) != Empty {
			isDead[p] = true
		}
	}
	owned := func(c Color) func(Point) bool {
		return func(p Point) bool { return score.Owner[p.Row*size+p.Col] == c && b.At(p) != c }
	}
	if sw.points("TB", size, owned(Black))+sw.points("TW", size, owned(White)) == 0 {
		sw.newline()
		sw.raw("TB[]")
	}
	sw.points("MA", size, func(p Point) bool { return isDead[p] })
}
