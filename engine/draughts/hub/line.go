package hub

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Line is one line of the protocol: a command and its arguments, in
// order. An argument without a value (a flag, such as "think" in
// "go think") has the empty Value.
type Line struct {
	Command string
	Args    []Arg
}

// Arg is one name=value argument of a line.
type Arg struct {
	Name, Value string
}

// NewLine returns a line of the command and name, value pairs.
func NewLine(command string, pairs ...string) Line {
	l := Line{Command: command}
	for i := 0; i+1 < len(pairs); i += 2 {
		l.Args = append(l.Args, Arg{Name: pairs[i], Value: pairs[i+1]})
	}
	return l
}

// Get returns the value of the first argument called name, and whether
// there is one.
func (l Line) Get(name string) (string, bool) {
	for _, a := range l.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether the line has an argument called name.
func (l Line) Has(name string) bool {
	_, ok := l.Get(name)
	return ok
}

// String writes the line as the protocol does: an argument with an
// empty value as a bare name (a flag), values quoted when they hold a
// space, '=' or a double quote (a value cannot hold a double quote: it
// is written as an apostrophe).
func (l Line) String() string {
	var b strings.Builder
	b.WriteString(l.Command)
	for _, a := range l.Args {
		b.WriteByte(' ')
		b.WriteString(a.Name)
		if a.Value == "" {
			continue // a flag; the protocol reads it as an empty value
		}
		b.WriteByte('=')
		b.WriteString(quoteValue(a.Value))
	}
	return b.String()
}

func quoteValue(v string) string {
	v = strings.ReplaceAll(v, `"`, "'")
	if v != "" && strings.IndexFunc(v, func(r rune) bool { return !isNameRune(r) }) < 0 {
		return v
	}
	return `"` + v + `"`
}

// isNameRune reports whether r may be in a name or an unquoted value: not
// a control character, a space, '=' or '"'.
func isNameRune(r rune) bool {
	return !unicode.IsControl(r) && !unicode.IsSpace(r) && r != '=' && r != '"'
}

// ParseLine reads a line: a command, then names each with an optional
// "=value", values in double quotes when they hold spaces. Spaces around
// '=' are allowed. A blank line, or a name or quote out of place, is an
// error wrapping ErrSyntax.
func ParseLine(s string) (Line, error) {
	sc := scanner{s: s}
	cmd := sc.name()
	if cmd == "" {
		if sc.eos() {
			return Line{}, fmt.Errorf("%w: an empty line", ErrSyntax)
		}
		return Line{}, fmt.Errorf("%w: %q does not start with a command", ErrSyntax, clip(s))
	}
	l := Line{Command: cmd}
	for !sc.eos() {
		name := sc.name()
		if name == "" {
			return Line{}, fmt.Errorf("%w: %q: a name is missing at column %d", ErrSyntax, clip(s), sc.i+1)
		}
		a := Arg{Name: name}
		sc.blank()
		if sc.peek() == '=' {
			sc.i++
			v, ok := sc.value()
			if !ok {
				return Line{}, fmt.Errorf("%w: %q: the value of %s is missing or its quote is not closed", ErrSyntax, clip(s), name)
			}
			a.Value = v
		}
		l.Args = append(l.Args, a)
	}
	return l, nil
}

type scanner struct {
	s string
	i int
}

func (sc *scanner) blank() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t' || sc.s[sc.i] == '\r') {
		sc.i++
	}
}

func (sc *scanner) eos() bool {
	sc.blank()
	return sc.i >= len(sc.s)
}

func (sc *scanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func (sc *scanner) name() string {
	sc.blank()
	start := sc.i
	for sc.i < len(sc.s) {
		r := rune(sc.s[sc.i])
		if r < 0x80 && !isNameRune(r) {
			break
		}
		sc.i++
	}
	return sc.s[start:sc.i]
}

func (sc *scanner) value() (string, bool) {
	sc.blank()
	if sc.peek() != '"' {
		v := sc.name()
		return v, v != ""
	}
	sc.i++
	end := strings.IndexByte(sc.s[sc.i:], '"')
	if end < 0 {
		return "", false
	}
	v := sc.s[sc.i : sc.i+end]
	sc.i += end + 1
	return v, true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// MoveText writes m as the protocol does: "32-28" for a quiet move, and
// for a capture the start, the end and every piece taken, in increasing
// order: "28x19x23".
func MoveText(m draughts.Move) string {
	if !m.IsCapture() {
		return m.String()
	}
	var b strings.Builder
	b.WriteString(m.String())
	for _, s := range m.Captured.Squares() {
		b.WriteByte('x')
		b.WriteString(s.String())
	}
	return b.String()
}

// ParseMove reads a move of p's side to move as the protocol writes it:
// start and end, and for a capture the pieces taken (all of them, or as
// many as tell it from the other captures with that start and end; in any
// order). The move must be legal in p. Errors wrap ErrMove.
func ParseMove(p *draughts.Position, text string) (draughts.Move, error) {
	sq, err := draughts.ParseSquares(text)
	if err != nil {
		return draughts.Move{}, fmt.Errorf("%w: %q: %w", ErrMove, text, err)
	}
	taken := draughts.SetOf(sq[2:]...)
	var buf [draughts.MaxMoves]draughts.Move
	var found []draughts.Move
	for _, m := range p.Generate(buf[:0]) {
		if m.From == sq[0] && m.To == sq[1] && m.Captured&taken == taken {
			found = append(found, m)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		// All the pieces named: the one that takes exactly those.
		for _, m := range found {
			if m.Captured == taken {
				return m, nil
			}
		}
		return draughts.Move{}, fmt.Errorf("%w: %q could be several captures: name the pieces taken", ErrMove, text)
	}
	// Not in the Hub form: the rules' reader says why (or reads a full
	// path, which some programs write).
	m, err := p.ParseMove(text)
	if err != nil {
		return draughts.Move{}, fmt.Errorf("%w: %q in %s: %w", ErrMove, text, p.FEN(), err)
	}
	return m, nil
}
