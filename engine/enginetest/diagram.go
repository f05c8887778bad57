package enginetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// A Diagram is a position read from text. The text draws the board one row
// a line, the top row first, one character a point: X a black stone, O a
// white stone, . an empty point. Stones drawn x and o are black and white
// stones that are also marked (tests of dead stones mark the dead ones so).
// Spaces, tabs and blank lines are ignored, so a diagram may be indented in
// a raw string literal and may space its points out. The board is square:
// as many rows as points in a row.
type Diagram struct {
	Size   int
	Stones []engine.Stone // in reading order: top row first, left to right
	// Marked are the points drawn x or o, row by row from A1 (left to
	// right), the order in which estimates and GTP list points.
	Marked []engine.Point
}

// Parse reads a diagram, failing tb with the row at fault when the text is
// not one: rows of different lengths, a board that is not square or not of
// a size engine plays, a character other than X, O, x, o and '.'.
func Parse(tb testing.TB, diagram string) Diagram {
	tb.Helper()
	d, err := parse(diagram)
	if err != nil {
		tb.Fatalf("enginetest: %v\n%s", err, diagram)
	}
	return d
}

func parse(diagram string) (Diagram, error) {
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, line)
		if line != "" {
			rows = append(rows, line)
		}
	}
	d := Diagram{Size: len(rows)}
	if d.Size < engine.MinSize || d.Size > engine.MaxSize {
		return d, fmt.Errorf("the diagram has %d rows, want %d to %d", d.Size, engine.MinSize, engine.MaxSize)
	}
	for i, row := range rows {
		if n := len([]rune(row)); n != d.Size {
			return d, fmt.Errorf("diagram row %d %q has %d points, want %d (a square board)", i+1, row, n, d.Size)
		}
		for col, ch := range []rune(row) {
			p := engine.Point{Col: col, Row: d.Size - 1 - i}
			switch ch {
			case 'X', 'x':
				d.Stones = append(d.Stones, engine.Stone{Point: p, Color: engine.Black})
			case 'O', 'o':
				d.Stones = append(d.Stones, engine.Stone{Point: p, Color: engine.White})
			case '.':
			default:
				return d, fmt.Errorf("diagram row %d %q: %q at %v is not a point (X, O, x, o or .)", i+1, row, ch, p)
			}
			if ch == 'x' || ch == 'o' {
				d.Marked = append(d.Marked, p)
			}
		}
	}
	// Reading order is from the top row; marks are listed from A1.
	slices.SortStableFunc(d.Marked, func(a, b engine.Point) int { return a.Row - b.Row })
	return d, nil
}

// An Option changes the game Game builds.
type Option func(*options)

type options struct {
	cfg         engine.Config
	komi        *float64
	toPlay      engine.Color
	noLiberties bool
}

// Rules sets the rules of the game; the default is engine.DefaultRules().
func Rules(r engine.Rules) Option { return func(o *options) { o.cfg.Rules = r } }

// Komi sets the komi of the game's rules, whichever rules they are.
func Komi(k float64) Option { return func(o *options) { o.komi = &k } }

// ToPlay sets who moves first; the default is Black.
func ToPlay(c engine.Color) Option { return func(o *options) { o.toPlay = c } }

// Seed sets the game's engine.Config.Seed; the default is 0.
func Seed(s int64) Option { return func(o *options) { o.cfg.Seed = s } }

// AllowNoLiberty lets the diagram draw a chain without a liberty, which no
// game reaches but an SGF set-up can (the rules tests capture two groups at
// once so). Without it, Game fails the test on such a chain.
func AllowNoLiberty() Option { return func(o *options) { o.noLiberties = true } }

// Game returns a game whose set-up is the diagram (see Diagram; marks are
// ignored), under the options' rules, with no moves played yet. It fails tb
// on a bad diagram and, unless AllowNoLiberty is given, on a chain drawn
// without a liberty.
func Game(tb testing.TB, diagram string, opts ...Option) *engine.Game {
	tb.Helper()
	return Parse(tb, diagram).Game(tb, opts...)
}

// Game returns a game whose set-up is d; see the function Game.
func (d Diagram) Game(tb testing.TB, opts ...Option) *engine.Game {
	tb.Helper()
	o := options{cfg: engine.Config{Rules: engine.DefaultRules()}, toPlay: engine.Black}
	for _, opt := range opts {
		opt(&o)
	}
	o.cfg.Size = d.Size
	if o.komi != nil {
		o.cfg.Rules.Komi = *o.komi
	}
	g, err := engine.NewGame(o.cfg)
	if err != nil {
		tb.Fatalf("enginetest: NewGame(%+v) = %v", o.cfg, err)
	}
	if err := g.SetupStones(d.Stones, o.toPlay, 0); err != nil {
		tb.Fatalf("enginetest: SetupStones = %v", err)
	}
	b := g.Board()
	for _, s := range d.Stones {
		if !o.noLiberties && b.Liberties(b.Vertex(s.Point), 1) == 0 {
			tb.Fatalf("enginetest: the chain at %v has no liberty\n%v", s.Point, b)
		}
	}
	return g
}

// Board returns the board the diagram draws (see Diagram; marks are
// ignored). It fails tb as Game does.
func Board(tb testing.TB, diagram string) *engine.Board {
	tb.Helper()
	return Game(tb, diagram).Board()
}

// Territory is a 9×9 end of game for the tests of dead stones and of the
// scoring phase: a black and a white area, two black stones dead together
// in White's area (G7 and H6) and one white stone dead in Black's (B2),
// marked x and o, as GNU Go 3.8 also judges them.
const Territory = `
	. . X O . O . O .
	. . X O O O O O .
	. . X O . . x . .
	. . X O . . . x .
	. . X O O O O O O
	. X X X X X X X X
	. . . . . . . . .
	. o . . . . . . .
	. . . . . . . . .`
