package gtp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
	"github.com/gobot-dev/gobot/engine/playout"
)

// ServerOptions configures Serve. The zero value plays random moves under
// Chinese rules with simple ko and scores with estimate.Dead (package
// engine/estimate).
type ServerOptions struct {
	// Name and Version answer the name and version commands; Name
	// defaults to "gobot".
	Name, Version string
	// Ko is the ko rule of every game; the rest of the rules are Chinese
	// (area scoring, no suicide, White gets a point a handicap stone) with
	// the komi the controller sets, except in a game loadsgf loaded, which
	// has the record's rules (RU) and komi.
	Ko engine.KoRule
	// GenMove chooses the move of c in g (a copy, which it may keep). It
	// returns a legal move: a place, a pass or a resignation. When the
	// controller has set time limits, target is the time the move should
	// take and ctx's deadline the most it may take, both within what the
	// clock allows less a safety margin (see Serve); the deadline may have
	// passed already when no time is left: GenMove should then answer at
	// once with the best move it has, not an error. Without a clock target
	// is 0 and ctx has no deadline of the server's. When GenMove is nil,
	// genmove plays a uniformly random legal move that does not fill one of
	// the mover's own eyes, and passes when there is none.
	GenMove func(ctx context.Context, g *engine.Game, c engine.Color, target time.Duration) (engine.Move, error)
	// Warn, when not nil, is told what the session worked around and the
	// controller does not see in a response: a loaded record's warnings
	// (see engine.SGFInfo.Warnings), a GenMove that failed or chose an illegal
	// move under a clock (a fast move was played instead). cmd/gobot
	// writes them to standard error, as GNU Go does.
	Warn func(msg string)
	// DeadStones lists the dead stones of the position in g (a copy) for
	// final_score and final_status_list; final_status_list seki lists the
	// stones estimate.Seki finds in seki among the others. When nil,
	// estimate.Dead decides, with its seki stones.
	DeadStones func(ctx context.Context, g *engine.Game) []engine.Point
	// Seed seeds the default random genmove; 0 picks a random seed.
	Seed uint64
}

// commandNames are the commands the server knows, in the order
// list_commands gives them.
var commandNames = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "komi", "play", "genmove", "reg_genmove", "undo",
	"showboard", "final_score", "final_status_list", "list_stones", "is_legal", "captures",
	"loadsgf", "printsgf", "fixed_handicap", "place_free_handicap", "set_free_handicap",
	"time_settings", "kgs-time_settings", "time_left", "kgs-genmove_cleanup",
}

// server is the state of one GTP session.
type server struct {
	opts    ServerOptions
	out     *bufio.Writer
	size    int
	komi    float64
	g       *engine.Game
	history []int // moves added to g by each undoable command, for undo
	// inserted holds the indexes in g's moves of the passes that no
	// command played: those apply puts before a move out of turn and
	// those engine.ParseSGF put between two moves of one player. Like
	// GNU Go and a record's numbering, showboard does not count them.
	inserted []int
	rng      *rand.Rand

	clock    clockState
	handlers map[string]func(ctx context.Context, args []string) (string, error)
}

// clockState is the time system a controller set with time_settings or
// kgs-time_settings, and each colour's last time_left.
type clockState struct {
	// late is how far the searches under this clock have run past their
	// limit, the most recent overrun or half the one before, whichever is
	// larger: each move's budget is cut by it, by half of it at most, so
	// that a machine too loaded to stop a search on time still answers
	// inside the clock (2.36 s of a 2 s byo-yomi period at a load of 9 on
	// 2 cores, issue 34), and one stall does not leave the next moves
	// without a search. A new clock or a new game starts it afresh.
	late              time.Duration
	timed             bool    // there is a time limit
	mainTime, byoTime float64 // seconds
	// byoStones is the number of stones to play in each byo-yomi period
	// (1 for Japanese byo-yomi, S for Canadian S/T); 0 when there is no
	// byo-yomi (absolute time).
	byoStones int
	// japanese is Japanese byo-yomi as kgs-time_settings byoyomi sets it:
	// in overtime time_left gives the time left in the current period and
	// the number of periods left, and every move has the current period.
	japanese    bool
	timeLeft    [3]float64 // by colour, from time_left
	stonesLeft  [3]int
	timeLeftSet [3]bool
}

// errQuit is how the quit command ends the session; it never leaves
// Serve.
var errQuit = errors.New("gtp: quit")

// failure is a failure response: "? msg".
type failure string

func (f failure) Error() string { return string(f) }

const (
	errSyntax     = failure("syntax error")
	errIllegal    = failure("illegal move")
	errNotEmpty   = failure("board not empty")
	errBadStones  = failure("invalid number of stones")
	errBadVertex  = failure("invalid color or coordinate")
	errBadColor   = failure("invalid color") // of a command that takes a colour alone, as GNU Go says it
	errCannotUndo = failure("cannot undo")
	errTooLong    = failure("line too long: a command takes at most 8192 bytes")
)

// MaxLine is the longest command line Serve accepts, in bytes, line
// feed included: room for a loadsgf with the longest path Linux allows, or
// a set_free_handicap with every point of a 25×25 board less one (about
// 2.5 KB). A longer line is answered "? line too long" (with its id, when
// it starts with one) and read to its end without being kept, and the
// session goes on.
const MaxLine = 8192

// Time margins for genmove under a clock: the search gets the move's share
// of the clock less moveMarginShare of it and less moveMargin, for the time
// between the search's end and the controller reading the answer.
const (
	moveMargin      = 50 * time.Millisecond
	moveMarginShare = 0.1
)

// Serve runs a Go Text Protocol version 2 program: it reads commands from
// in and writes responses to out until quit, the end of in, or ctx is done
// (passed to GenMove and DeadStones, and watched while waiting for input).
// It returns nil after quit or at the end of the input, ctx.Err() when
// cancelled, and the error when reading or writing fails. Lines are read
// by a goroutine of their own, so that a cancellation ends the session
// even while in blocks (a terminal, a pipe nobody writes to): that
// goroutine then ends when in's pending Read returns, at the end of the
// input or when the caller closes in. Lines longer than MaxLine are
// refused without ending the session.
//
// Besides the required commands (protocol_version, name, version,
// known_command, list_commands, quit, boardsize, clear_board, komi, play,
// genmove) it implements undo, showboard, final_score, final_status_list
// (dead, alive, seki), loadsgf (with the optional move number: the position
// before that move; like GNU Go it answers the colour to move; the game
// takes the record's rules and komi), printsgf
// (with an optional file name), fixed_handicap, place_free_handicap,
// set_free_handicap, time_settings, kgs-time_settings (none, absolute,
// byoyomi, canadian, as KGS and gtp2ogs send it), time_left, reg_genmove,
// and GNU Go's list_stones, is_legal and captures. The board starts 19×19
// with komi 7.5.
// As GTP allows, a play or genmove for the player not to move is accepted: a
// pass of the other player is recorded first (undo takes both back), and
// play after two passes resumes the game (so a second genmove after the
// server's pass passes again, as GNU Go does, rather than end the game).
//
// Under time limits GenMove gets a target time and its ctx a deadline,
// each less a safety margin (a tenth of it and 50 ms). In a Canadian
// period the target is the time left over the stones left, and the
// deadline up to twice that while every later stone keeps half of it; in
// Japanese byo-yomi (kgs-time_settings byoyomi) both are the time left in
// the period; in main time the target is the time left over an estimate
// of the moves left (a third of the empty points, at least 15) and the
// deadline three times that, both plus one stone's share of a byo-yomi
// period when one follows. With no time left the deadline has passed
// already and GenMove must answer at once. Under a clock genmove always
// answers a legal move: when GenMove fails or chooses an illegal move, the
// default random move is played instead and Warn is told why. Untimed,
// such a failure is answered "? genmove: ..." as it is.
//
// Input is preprocessed as the specification says: control characters other
// than tab and line feed removed, tabs made spaces, comments after '#' and
// empty lines dropped.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts ServerOptions) error {
	if opts.Name == "" {
		opts.Name = "gobot"
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s := &server{opts: opts, out: bufio.NewWriter(out), size: 19, komi: engine.DefaultRules().Komi,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	s.handlers = s.commandTable()
	if err := s.newGame(s.size, 0); err != nil {
		return err
	}
	lines := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	for {
		var l inputLine
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-lines:
		}
		if l.err != nil && l.text == "" {
			if l.err == io.EOF {
				return nil
			}
			return fmt.Errorf("gtp: read: %w", l.err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		line := preprocess(l.text)
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
		}
		if l.tooLong {
			if err := s.respond(id, "", errTooLong); err != nil {
				return err
			}
			continue
		}
		if len(fields) == 0 {
			if err := s.respond(id, "", failure("no command")); err != nil {
				return err
			}
			continue
		}
		text, err := s.run(ctx, fields[0], fields[1:])
		if errors.Is(err, errQuit) {
			return s.respond(id, "", nil)
		}
		if cerr := ctx.Err(); cerr != nil && err != nil {
			return cerr
		}
		if err := s.respond(id, text, err); err != nil {
			return err
		}
	}
}

// inputLine is one line of GTP input: its text without the line feed (only
// its first bytes when tooLong), or the error that ended the input.
type inputLine struct {
	text    string
	tooLong bool // longer than MaxLine
	err     error
}

// readLines sends the lines of in to lines until in ends, the last one
// carrying the error (io.EOF at the end of the input), or until stop is
// closed. A line longer than MaxLine is sent with only its first bytes
// and tooLong set, so memory stays bounded whatever in holds.
func readLines(in io.Reader, lines chan<- inputLine, stop <-chan struct{}) {
	br := bufio.NewReaderSize(in, 4096)
	var buf []byte
	for {
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if len(buf)+len(chunk) > MaxLine {
				tooLong = true
				// Keep what fits, for the id; drop the rest.
				chunk = chunk[:max(0, MaxLine-len(buf))]
			}
			buf = append(buf, chunk...)
			if err != bufio.ErrBufferFull {
				break
			}
		}
		l := inputLine{text: strings.TrimSuffix(string(buf), "\n"), tooLong: tooLong}
		if err != nil && len(buf) == 0 {
			l.err = err
		}
		select {
		case lines <- l:
		case <-stop:
			return
		}
		if l.err != nil {
			return
		}
		if err != nil {
			// The last line had no line feed: report the end next.
			select {
			case lines <- inputLine{err: err}:
			case <-stop:
			}
			return
		}
	}
}

// preprocess applies the specification's preprocessing to one line.
func preprocess(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\t':
			b.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// respond writes one response: "=id text" or "?id message", ended by an
// empty line. Empty lines inside the text would end the response early, so
// they are given a space.
func (s *server) respond(id, text string, err error) error {
	status := "="
	if err != nil {
		status = "?"
		var f failure
		if errors.As(err, &f) {
			text = string(f)
		} else {
			text = err.Error()
		}
	}
	text = strings.TrimRight(text, "\n")
	for strings.Contains(text, "\n\n") {
		text = strings.ReplaceAll(text, "\n\n", "\n \n")
	}
	s.out.WriteString(status + id + " " + text + "\n\n")
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("gtp: write: %w", err)
	}
	return nil
}

func (s *server) run(ctx context.Context, name string, args []string) (string, error) {
	h, ok := s.handlers[name]
	if !ok {
		return "", failure("unknown command")
	}
	return h(ctx, args)
}

func (s *server) commandTable() map[string]func(ctx context.Context, args []string) (string, error) {
	none := func(f func() (string, error)) func(context.Context, []string) (string, error) {
		return func(_ context.Context, _ []string) (string, error) { return f() }
	}
	return map[string]func(ctx context.Context, args []string) (string, error){
		"protocol_version": none(func() (string, error) { return "2", nil }),
		"name":             none(func() (string, error) { return s.opts.Name, nil }),
		"version":          none(func() (string, error) { return s.opts.Version, nil }),
		"known_command": func(_ context.Context, args []string) (string, error) {
			if len(args) < 1 {
				return "false", nil // the spec: known_command never fails (GNU Go answers false)
			}
			_, ok := s.handlers[args[0]]
			return strconv.FormatBool(ok), nil
		},
		"list_commands": none(func() (string, error) { return strings.Join(commandNames, "\n"), nil }),
		"quit":          none(func() (string, error) { return "", errQuit }),
		"boardsize":     func(_ context.Context, args []string) (string, error) { return "", s.boardsize(args) },
		"clear_board":   none(func() (string, error) { return "", s.newGame(s.size, 0) }),
		"komi":          func(_ context.Context, args []string) (string, error) { return "", s.setKomi(args) },
		"play":          func(_ context.Context, args []string) (string, error) { return "", s.play(args) },
		"genmove": func(ctx context.Context, args []string) (string, error) {
			return s.genmove(ctx, args, true, false)
		},
		"reg_genmove": func(ctx context.Context, args []string) (string, error) {
			return s.genmove(ctx, args, false, false)
		},
		"kgs-genmove_cleanup": func(ctx context.Context, args []string) (string, error) {
			return s.genmove(ctx, args, true, true)
		},
		"undo":              none(s.undo),
		"showboard":         none(s.showboard),
		"final_score":       func(ctx context.Context, _ []string) (string, error) { return s.finalScore(ctx) },
		"final_status_list": s.finalStatusList,
		"list_stones":       func(_ context.Context, args []string) (string, error) { return s.listStones(args) },
		"is_legal":          func(_ context.Context, args []string) (string, error) { return s.isLegal(args) },
		"captures":          func(_ context.Context, args []string) (string, error) { return s.captures(args) },
		"loadsgf":           func(_ context.Context, args []string) (string, error) { return s.loadSGF(args) },
		"printsgf":          func(_ context.Context, args []string) (string, error) { return s.printSGF(args) },
		"fixed_handicap":    func(_ context.Context, args []string) (string, error) { return s.fixedHandicap(args) },
		"place_free_handicap": func(_ context.Context, args []string) (string, error) {
			return s.placeFreeHandicap(args)
		},
		"set_free_handicap": func(_ context.Context, args []string) (string, error) { return "", s.setFreeHandicap(args) },
		"time_settings":     func(_ context.Context, args []string) (string, error) { return "", s.timeSettings(args) },
		"kgs-time_settings": func(_ context.Context, args []string) (string, error) { return "", s.kgsTimeSettings(args) },
		"time_left":         func(_ context.Context, args []string) (string, error) { return "", s.setTimeLeft(args) },
	}
}

// rules are the rules of the session's new games: the default rules with
// the session's ko rule and the komi the controller set.
func (s *server) rules() engine.Rules {
	r := engine.DefaultRules()
	r.Ko = s.opts.Ko
	r.Komi = s.komi
	return r
}

// newGame starts an empty game (with fixed handicap stones when
// handicap >= 2).
func (s *server) newGame(size, handicap int) error {
	g, err := engine.NewGame(engine.Config{Size: size, Rules: s.rules(), Handicap: handicap})
	if err != nil {
		return err
	}
	s.g, s.size, s.history, s.inserted = g, size, nil, nil
	s.clock.late = 0
	return nil
}

// empty reports whether the board has neither stones nor moves, as the
// handicap commands require.
func (s *server) empty() bool {
	return s.g.MoveCount() == 0 && s.g.Board().EmptyCount() == s.size*s.size
}

func (s *server) boardsize(args []string) error {
	if len(args) < 1 {
		return errSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return errSyntax
	}
	if n < engine.MinSize || n > engine.MaxSize {
		return failure("unacceptable size")
	}
	return s.newGame(n, 0)
}

func (s *server) setKomi(args []string) error {
	if len(args) < 1 {
		return errSyntax
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(k) {
		return errSyntax
	}
	if !engine.AnyKomi(k) {
		return failure(fmt.Sprintf("komi %s: must be a number from %.0f to %.0f", args[0], -engine.MaxAnyKomi, engine.MaxAnyKomi))
	}
	s.komi = k
	// The game keeps its rules, a loaded record's among them.
	r := s.g.Rules()
	r.Komi = k
	g, err := s.g.Rebuild(r, s.g.MoveCount())
	if err != nil {
		return err
	}
	s.g = g
	return nil
}

// colorArg reads the colour that begins a command's arguments: errSyntax
// when there are fewer than n arguments, errBadColor when the first is
// not a colour.
func colorArg(args []string, n int) (engine.Color, error) {
	if len(args) < n {
		return engine.Empty, errSyntax
	}
	c, err := engine.ParseColor(args[0])
	if err != nil {
		return engine.Empty, errBadColor
	}
	return c, nil
}

// moveArg reads the colour and vertex of play and is_legal (a pass, never
// a resignation).
func moveArg(args []string, size int) (engine.Move, error) {
	c, err := colorArg(args, 2)
	if errors.Is(err, errBadColor) {
		return engine.Move{}, errBadVertex
	} else if err != nil {
		return engine.Move{}, err
	}
	m, err := engine.ParseMove(c, args[1], size)
	if err != nil || m.Kind == engine.Resign {
		return engine.Move{}, errBadVertex
	}
	return m, nil
}

// apply plays m in g as GTP allows it: after two passes play resumes,
// and a move by the player not to move is preceded by a pass of the other.
// It returns the number of moves added to g's history.
func apply(g *engine.Game, m engine.Move) (int, error) {
	added := 0
	if g.PlayEnded() {
		if err := g.Resume(); err != nil {
			return 0, err
		}
	}
	if m.Color != g.ToPlay() {
		if err := g.Play(engine.PassMove(g.ToPlay())); err != nil {
			return 0, err
		}
		added++
		if g.PlayEnded() {
			if err := g.Resume(); err != nil {
				return 0, err
			}
		}
	}
	if err := g.Play(m); err != nil {
		return 0, err
	}
	return added + 1, nil
}

// commit plays m on a copy of the game and keeps the copy if m is legal,
// so a rejected move changes nothing.
func (s *server) commit(m engine.Move) error {
	g := s.g.Clone()
	n, err := apply(g, m)
	if err != nil {
		return err
	}
	if n == 2 {
		s.inserted = append(s.inserted, s.g.MoveCount())
	}
	s.g = g
	s.history = append(s.history, n)
	return nil
}

func (s *server) play(args []string) error {
	m, err := moveArg(args, s.size)
	if err != nil {
		return err
	}
	if err := s.commit(m); err != nil {
		if errors.Is(err, engine.ErrGameOver) {
			return failure("game is over")
		}
		return errIllegal
	}
	return nil
}

// genmove answers genmove (play true) and reg_genmove (play false), and
// with cleanup kgs-genmove_cleanup: KGS's cleanup phase, after the players
// disagreed about the dead stones, where the engine must capture the
// opponent's dead stones before it passes. The bot passes when passing
// wins as the game would be scored; in cleanup a pass is replaced, while
// the estimate finds dead stones of the opponent's, by a move on a
// liberty of one of them (see cleanupMove).
func (s *server) genmove(ctx context.Context, args []string, play, cleanup bool) (string, error) {
	c, err := colorArg(args, 1)
	if err != nil {
		return "", err
	}
	// The position the move is chosen in: as play would leave it.
	g := s.g.Clone()
	if g.PlayEnded() {
		if err := g.Resume(); err != nil {
			return "", err
		}
	}
	seen := g // the game the move is asked of
	if c != g.ToPlay() {
		if err := g.Play(engine.PassMove(g.ToPlay())); err != nil {
			return "", err
		}
		// A second genmove after the server's own pass: the pass
		// inserted for the other player does not end the game.
		if g.PlayEnded() {
			if err := g.Resume(); err != nil {
				return "", err
			}
		}
		// The move is asked of the position alone, c to play: the pass
		// put in for the other player is no opponent's pass, which a bot
		// would answer by passing back when the count favours it. g keeps
		// the history, against which the move is checked.
		if pos, err := positionOf(g, c); err == nil {
			seen = pos
		}
	}
	moveCtx := context.WithValue(ctx, moveNumberKey{}, s.g.MoveCount()-len(s.inserted)+1)
	if cleanup {
		moveCtx = context.WithValue(moveCtx, cleanupKey{}, true)
	}
	target, limit, timed := s.moveTime(c)
	begin := time.Now()
	if timed {
		cut := min(s.clock.late, limit/2)
		target, limit = max(target-cut, 0), limit-cut
		var cancel context.CancelFunc
		moveCtx, cancel = context.WithDeadline(ctx, begin.Add(limit))
		defer cancel()
	}
	var m engine.Move
	if s.opts.GenMove != nil {
		m, err = s.opts.GenMove(moveCtx, seen.Clone(), c, target)
		if seen != g && err == nil && m.Kind == engine.Place && g.Check(engine.PlaceAt(c, m.Point)) != nil {
			// The position alone has no history: a move its superko would
			// forbid is asked again of the whole game.
			m, err = s.opts.GenMove(moveCtx, g.Clone(), c, target)
		}
		if timed {
			s.clock.late = max(s.clock.late/2, time.Since(begin)-limit)
		}
		if err != nil {
			err = failure("genmove: " + err.Error())
		} else if m.Kind != engine.Resign {
			m.Color = c
			if m.Kind == engine.Pass {
				m.Point = engine.NoPoint
			}
			if cerr := g.Check(m); cerr != nil {
				err = failure(fmt.Sprintf("genmove chose %v, which is illegal: %v", m, cerr))
			}
		}
		if err != nil {
			if !timed || ctx.Err() != nil {
				return "", err
			}
			// A clock forfeits a game whose program does not answer: a
			// fast legal move instead.
			s.warn(fmt.Sprintf("genmove %v: %v; a random move is played instead", c, err))
			m = randomMove(g, c, s.rng)
		}
	} else {
		m = randomMove(g, c, s.rng)
	}
	if cleanup && m.Kind == engine.Pass {
		if p, ok := s.cleanupMove(ctx, g, c); ok {
			m = engine.PlaceAt(c, p)
		}
	}
	if m.Kind == engine.Resign {
		return "resign", nil
	}
	m.Color = c
	if m.Kind == engine.Pass {
		m.Point = engine.NoPoint
	}
	if !play {
		return m.String(), nil
	}
	if err := s.commit(m); err != nil {
		return "", failure(fmt.Sprintf("genmove chose %v, which is illegal: %v", m, err))
	}
	return m.String(), nil
}

// cleanupMove returns a move for c in g that helps capture a dead stone
// of the opponent's (as the estimate, DeadStones, finds them): a liberty
// of the dead chain with the fewest liberties where c's stone is legal and
// not itself in atari. It reports false when there is none.
func (s *server) cleanupMove(ctx context.Context, g *engine.Game, c engine.Color) (engine.Point, bool) {
	var dead []engine.Point
	if s.opts.DeadStones != nil {
		dead = s.opts.DeadStones(ctx, g.Clone())
	} else {
		dead = estimate.Dead(ctx, g, estimate.Options{}).Dead
	}
	b := g.Board()
	best, bestLibs := engine.Point{}, 0
	var libs []int
	seen := map[int]bool{}
	for _, p := range dead {
		v := b.Vertex(p)
		if h := b.Chain(v); b.ColorAt(v) != c.Opponent() || seen[h] {
			continue
		}
		seen[b.Chain(v)] = true
		libs = b.LibertyList(libs[:0], v, engine.MaxArea)
		for _, l := range libs {
			q := b.Point(l)
			if g.Check(engine.PlaceAt(c, q)) != nil {
				continue
			}
			if self, _ := playout.SelfAtari(b, l, c); self {
				continue
			}
			if bestLibs == 0 || len(libs) < bestLibs {
				best, bestLibs = q, len(libs)
			}
			break
		}
	}
	return best, bestLibs > 0
}

// positionOf is g's position as a new game, c to play, its stones set up
// (handicap stones as handicap), without g's history: no moves, no ko, no
// earlier positions for superko (genmove asks again of the whole game
// when that matters), and no prisoners (which only territory scoring's
// count, not the bots' area judgement, would miss).
func positionOf(g *engine.Game, c engine.Color) (*engine.Game, error) {
	pos, err := engine.NewGame(engine.Config{Size: g.Size(), Rules: g.Rules()})
	if err != nil {
		return nil, err
	}
	var stones []engine.Stone
	b := g.Board()
	for row := range g.Size() {
		for col := range g.Size() {
			p := engine.Point{Col: col, Row: row}
			if s := b.At(p); s != engine.Empty {
				stones = append(stones, engine.Stone{Point: p, Color: s})
			}
		}
	}
	return pos, pos.SetupStones(stones, c, g.Handicap())
}

// warn tells opts.Warn, if set.
func (s *server) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// randomMove picks a uniformly random legal move for c (superko
// included) that does not fill one of c's own eyes, or a pass.
func randomMove(g *engine.Game, c engine.Color, rng *rand.Rand) engine.Move {
	b := g.Board()
	cands := make([]int, 0, b.EmptyCount())
	for i := 0; i < b.EmptyCount(); i++ {
		v := b.EmptyVertex(i)
		if b.Legal(v, c) && !b.IsEye(v, c) {
			cands = append(cands, v)
		}
	}
	for len(cands) > 0 {
		i := rng.IntN(len(cands))
		m := engine.PlaceAt(c, b.Point(cands[i]))
		if g.Check(m) == nil {
			return m
		}
		cands[i] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
	}
	return engine.PassMove(c)
}

// moveTime returns the time genmove should take for c (target) and the
// most it may take (limit) under the time settings and c's last time_left,
// and whether there is a clock at all (no clock: no limit).
//
// In byo-yomi every move has its share of the period and no more: the time
// left in the current period in Japanese byo-yomi (kgs-time_settings
// byoyomi, whose time_left counts periods, not stones), the time left over
// the stones left in a Canadian period (time_settings' byo-yomi is
// Canadian), whose limit lets a move take up to twice its share while
// every later stone keeps at least half of one. In main time the target is
// the time left over an estimate of the moves left (a third of the empty
// points, at least 15) and the limit three times that, both plus the share
// of a byo-yomi period that follows, if any: a move never gets less than
// it would in byo-yomi, and the time saved on clear moves is spent on
// unclear ones. Both are less moveMarginShare of them and less
// moveMargin; they are 0 (answer at once) when nothing is left.
func (s *server) moveTime(c engine.Color) (target, limit time.Duration, timed bool) {
	k := &s.clock
	if !k.timed {
		return 0, 0, false
	}
	left, stones := k.mainTime, 0
	if k.timeLeftSet[c] {
		left, stones = k.timeLeft[c], k.stonesLeft[c]
	} else if k.mainTime == 0 {
		left, stones = k.byoTime, k.byoStones
	}
	var share, most float64
	switch {
	case stones > 0 && k.japanese:
		share, most = left, left
	case stones > 0:
		share = left / float64(stones)
		most = share
		if stones > 1 {
			most = min(2*share, left-float64(stones-1)*share/2)
		}
	default:
		movesLeft := max(15, s.g.Board().EmptyCount()/3)
		share = left / float64(movesLeft)
		most = 3 * share
		if k.byoTime > 0 && k.byoStones > 0 {
			period := k.byoTime / float64(k.byoStones)
			share += period
			most += period
		}
	}
	return clockBudget(share), clockBudget(most), true
}

// clockBudget is the time a search may take of seconds on the clock: less
// moveMarginShare of it and less moveMargin, for the time between the
// search's end and the controller reading the answer; never negative.
func clockBudget(seconds float64) time.Duration {
	d := time.Duration(seconds*(1-moveMarginShare)*float64(time.Second)) - moveMargin
	return max(d, 0)
}

func (s *server) undo() (string, error) {
	if len(s.history) == 0 {
		return "", errCannotUndo
	}
	n := s.history[len(s.history)-1]
	g := s.g.Clone()
	for i := 0; i < n; i++ {
		if err := g.Undo(); err != nil {
			return "", errCannotUndo
		}
	}
	s.g = g
	s.history = s.history[:len(s.history)-1]
	for len(s.inserted) > 0 && s.inserted[len(s.inserted)-1] >= g.MoveCount() {
		s.inserted = s.inserted[:len(s.inserted)-1]
	}
	return "", nil
}

// moveNumberKey keys the number of the move genmove asks for in the ctx
// GenMove gets.
type moveNumberKey struct{}

// MoveNumber is, in the ctx of a ServerOptions.GenMove call, the number of
// the move asked for as the game's record numbers it (as showboard says
// it): the passes the server put in for a move out of turn, or that a
// loaded record's moves imply, do not count, and GenMove's game, which
// may be the position alone, cannot tell it. False outside a genmove.
func MoveNumber(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(moveNumberKey{}).(int)
	return n, ok
}

// cleanupKey marks the ctx of a ServerOptions.GenMove call for
// kgs-genmove_cleanup.
type cleanupKey struct{}

// Cleanup reports whether, in the ctx of a ServerOptions.GenMove call, the
// move is asked for by kgs-genmove_cleanup: a pass GenMove returns is then
// answered with a move that helps capture a dead stone where there is one.
func Cleanup(ctx context.Context) bool {
	c, _ := ctx.Value(cleanupKey{}).(bool)
	return c
}

// showboard answers the board, the captures and the number of the move to
// play: the moves played plus one, as a record numbers its moves (and as
// loadsgf reads a move number), so the passes no command played do not
// count.
func (s *server) showboard() (string, error) {
	b := s.g.Board()
	text := "\n" + strings.TrimRight(b.String(), "\n")
	move := s.g.MoveCount() - len(s.inserted) + 1
	text += fmt.Sprintf("\nBlack (X) has captured %d stones\nWhite (O) has captured %d stones\n%s to play, move %d, komi %s",
		s.g.Captures(engine.Black), s.g.Captures(engine.White), s.g.ToPlay(), move, engine.FormatKomi(s.komi))
	if ko := b.Ko(s.g.ToPlay()); ko != engine.NoPoint {
		text += ", ko at " + ko.String()
	}
	return text, nil
}

// status returns the dead stones of the current position and the stones
// in seki: estimate.Dead's, or, when DeadStones gives the dead stones,
// those estimate.Seki finds among the stones they leave alive, as GNU Go
// lists them.
func (s *server) status(ctx context.Context) (dead, seki []engine.Point) {
	if s.opts.DeadStones != nil {
		dead = s.opts.DeadStones(ctx, s.g.Clone())
		return dead, estimate.Seki(s.g.Board(), dead)
	}
	e := estimate.Dead(ctx, s.g, estimate.Options{})
	return e.Dead, e.Seki
}

func (s *server) finalScore(ctx context.Context) (string, error) {
	dead, _ := s.status(ctx)
	return s.g.Score(dead).Result(), nil
}

// finalStatusList lists the stones with the given status (dead, alive or
// seki), one chain a line, top row first.
func (s *server) finalStatusList(ctx context.Context, args []string) (string, error) {
	if len(args) < 1 {
		return "", errSyntax
	}
	want := lower(args[0])
	if want != "dead" && want != "alive" && want != "seki" {
		return "", errSyntax
	}
	b := s.g.Board()
	status := map[int]string{}
	dead, seki := s.status(ctx)
	for _, p := range seki {
		if p.Valid(s.size) && b.At(p) != engine.Empty {
			status[b.Vertex(p)] = "seki"
		}
	}
	for _, p := range dead {
		if p.Valid(s.size) && b.At(p) != engine.Empty {
			status[b.Vertex(p)] = "dead"
		}
	}
	of := func(v int) string {
		if st, ok := status[v]; ok {
			return st
		}
		return "alive"
	}
	var lines []string
	done := map[int]bool{}
	for row := s.size - 1; row >= 0; row-- {
		for col := 0; col < s.size; col++ {
			v := b.Vertex(engine.Point{Col: col, Row: row})
			if b.ColorAt(v) == engine.Empty || done[v] || of(v) != want {
				continue
			}
			var chain []engine.Point
			u := v
			for {
				done[u] = true
				if of(u) == want {
					chain = append(chain, b.Point(u))
				}
				if u = b.NextStone(u); u == v {
					break
				}
			}
			slices.SortFunc(chain, func(a, b engine.Point) int {
				if a.Row != b.Row {
					return b.Row - a.Row
				}
				return a.Col - b.Col
			})
			pts := make([]string, len(chain))
			for i, p := range chain {
				pts[i] = p.String()
			}
			lines = append(lines, strings.Join(pts, " "))
		}
	}
	return strings.Join(lines, "\n"), nil
}

func (s *server) listStones(args []string) (string, error) {
	c, err := colorArg(args, 1)
	if err != nil {
		return "", err
	}
	b := s.g.Board()
	var pts []string
	for row := s.size - 1; row >= 0; row-- {
		for col := 0; col < s.size; col++ {
			if p := (engine.Point{Col: col, Row: row}); b.At(p) == c {
				pts = append(pts, p.String())
			}
		}
	}
	return strings.Join(pts, " "), nil
}

// isLegal answers GNU Go's is_legal: 1 when play would accept the move.
func (s *server) isLegal(args []string) (string, error) {
	m, err := moveArg(args, s.size)
	if err != nil {
		return "", err
	}
	if _, err := apply(s.g.Clone(), m); err != nil {
		return "0", nil
	}
	return "1", nil
}

// captures answers GNU Go's captures: the stones c has captured.
func (s *server) captures(args []string) (string, error) {
	c, err := colorArg(args, 1)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(s.g.Captures(c)), nil
}

// loadSGF loads a record's main line. Like GNU Go, an optional move number
// k loads the position before the record's k-th move (passes engine.ParseSGF
// inserted between two moves of one player do not count, and the one before
// move k is played), an optional vertex loads the position before the first
// move there, and the answer is the colour to move: the colour of that
// move, or of the player to move at the end.
//
// Only a regular file of at most engine.MaxSGFSize bytes is read: a FIFO, a device
// such as /dev/zero or a directory is refused before it is opened, so that
// loadsgf can neither block nor exhaust memory. A record with a move on an
// occupied point loads as GNU Go loads it: the position before that move,
// with its player to move, and Warn is told of it.
//
// The game has the record's rules and komi (engine.ParseSGF reads RU and
// KM; a record without known rules gets the default rules) with the
// session's ko rule, until a new game (boardsize, clear_board,
// fixed_handicap) returns to the default rules.
func (s *server) loadSGF(args []string) (string, error) {
	if len(args) < 1 {
		return "", errSyntax
	}
	data, err := readRecordFile(args[0])
	if err != nil {
		return "", err
	}
	rec, info, err := engine.ParseSGF(data)
	if err != nil {
		return "", failure("cannot load file: " + strings.TrimPrefix(err.Error(), "engine: "))
	}
	n := rec.MoveCount()
	moves := rec.Moves()
	if len(args) >= 2 {
		until := -1 // the record's move to stop before, from 0
		if k, err := strconv.Atoi(args[1]); err == nil {
			if k < 1 {
				return "", errSyntax
			}
			until = k - 1
		} else {
			p, err := engine.ParsePoint(args[1], rec.Size())
			if err != nil {
				return "", errSyntax
			}
			for i, j := 0, 0; i < len(moves); i++ {
				if slices.Contains(info.InsertedAt, i) {
					continue
				}
				if moves[i].Kind == engine.Place && moves[i].Point == p {
					until = j
					break
				}
				j++
			}
		}
		if i, ok := recordMoveIndex(info.InsertedAt, until, n); ok {
			n = i
		}
	}
	for _, w := range info.Warnings {
		if w.Move < n {
			// GNU Go stops at the faulty move; the warnings after it
			// concern moves not loaded, and say nothing true of what is
			// (a move "read as a pass" is not read at all).
			s.warn("loadsgf " + args[0] + ": " + w.String() + "; loaded up to the move before it, as GNU Go loads it")
			n = w.Move
			break
		}
	}
	// The record's rules, so that final_score counts as the record says
	// (a Japanese handicap game by territory, without Chinese rules'
	// point a handicap stone), and the session's ko rule, which the
	// controller chose to referee by.
	rules := rec.Rules()
	rules.Ko = s.opts.Ko
	g, err := rec.Rebuild(rules, n)
	if err != nil {
		return "", failure("cannot load file: " + strings.TrimPrefix(err.Error(), "engine: "))
	}
	s.g, s.size, s.komi = g, g.Size(), rules.Komi
	// One undo takes back a move of the record with the pass inserted
	// before it, as for moves played out of turn; a pass inserted last
	// (the position before a move of the colour that moved last) goes
	// with the move before it.
	s.inserted, s.history = nil, nil
	for i := 0; i < n; i++ {
		switch {
		case !slices.Contains(info.InsertedAt, i):
			s.history = append(s.history, 1)
		case i+1 < n:
			s.inserted = append(s.inserted, i)
			s.history = append(s.history, 2)
			i++
		case len(s.history) > 0:
			s.inserted = append(s.inserted, i)
			s.history[len(s.history)-1]++
		default:
			s.inserted = append(s.inserted, i)
			s.history = append(s.history, 1)
		}
	}
	toPlay := g.ToPlay()
	if n < len(moves) {
		toPlay = moves[n].Color
	}
	return toPlay.String(), nil
}

// readRecordFile reads a record for loadsgf: a regular file of at most
// engine.MaxSGFSize bytes. The file is checked before it is opened (opening a FIFO
// blocks until someone writes to it) and again once open, in case it was
// replaced meanwhile.
func readRecordFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, failure("cannot load file")
	}
	if !fi.Mode().IsRegular() {
		return nil, failure("cannot load file: not a regular file")
	}
	if fi.Size() > engine.MaxSGFSize {
		return nil, failure(fmt.Sprintf("cannot load file: larger than %d bytes", engine.MaxSGFSize))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, failure("cannot load file")
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !os.SameFile(fi, fi2) {
		return nil, failure("cannot load file: it changed while being opened")
	}
	data, err := io.ReadAll(io.LimitReader(f, engine.MaxSGFSize+1))
	if err != nil {
		return nil, failure("cannot load file")
	}
	if len(data) > engine.MaxSGFSize {
		return nil, failure(fmt.Sprintf("cannot load file: larger than %d bytes", engine.MaxSGFSize))
	}
	return data, nil
}

// recordMoveIndex returns the index in Game.Moves of a record's move k
// (from 0), skipping the passes engine.ParseSGF inserted (at the sorted indexes
// inserted), and false when k is not one of the record's moves.
func recordMoveIndex(inserted []int, k, movesPlayed int) (int, bool) {
	if k < 0 {
		return 0, false
	}
	idx := k
	for _, at := range inserted {
		if at <= idx {
			idx++
		}
	}
	return idx, idx < movesPlayed
}

// printSGF answers GNU Go's printsgf: the game as SGF, or written to the
// named file.
func (s *server) printSGF(args []string) (string, error) {
	var buf bytes.Buffer
	if err := engine.WriteSGF(&buf, s.g, engine.SGFInfo{}); err != nil {
		return "", err
	}
	if len(args) == 0 {
		return buf.String(), nil
	}
	if err := os.WriteFile(args[0], buf.Bytes(), 0o644); err != nil {
		return "", failure("cannot write file: " + err.Error())
	}
	return "", nil
}

func (s *server) handicapCount(args []string) (int, error) {
	if len(args) < 1 {
		return 0, errSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, errSyntax
	}
	if !s.empty() {
		return 0, errNotEmpty
	}
	return n, nil
}

func (s *server) fixedHandicap(args []string) (string, error) {
	n, err := s.handicapCount(args)
	if err != nil {
		return "", err
	}
	if n < 2 || n > engine.MaxHandicap(s.size) {
		return "", errBadStones
	}
	if err := s.newGame(s.size, n); err != nil {
		return "", errBadStones
	}
	return vertices(s.g.Setup()), nil
}

func vertices(stones []engine.Stone) string {
	var pts []string
	for _, st := range stones {
		pts = append(pts, st.Point.String())
	}
	return strings.Join(pts, " ")
}

func (s *server) placeFreeHandicap(args []string) (string, error) {
	n, err := s.handicapCount(args)
	if err != nil {
		return "", err
	}
	if n < 2 || n >= s.size*s.size {
		return "", errBadStones
	}
	pts := engine.FreeHandicapPoints(s.size, n)
	stones := make([]engine.Stone, len(pts))
	for i, p := range pts {
		stones[i] = engine.Stone{Point: p, Color: engine.Black}
	}
	if err := s.g.SetupStones(stones, engine.White, n); err != nil {
		return "", err
	}
	return vertices(stones), nil
}

func (s *server) setFreeHandicap(args []string) error {
	if !s.empty() {
		return errNotEmpty
	}
	if len(args) < 2 || len(args) >= s.size*s.size {
		return failure("bad vertex list")
	}
	seen := map[engine.Point]bool{}
	stones := make([]engine.Stone, 0, len(args))
	for _, a := range args {
		p, err := engine.ParsePoint(a, s.size)
		if err != nil || seen[p] {
			return failure("bad vertex list")
		}
		seen[p] = true
		stones = append(stones, engine.Stone{Point: p, Color: engine.Black})
	}
	return s.g.SetupStones(stones, engine.White, len(stones))
}

// timeSettings answers time_settings main_time byo_yomi_time
// byo_yomi_stones: absolute time when there are no stones, Canadian
// byo-yomi otherwise; byo-yomi time with no stones, or no time at all,
// means no time limit.
func (s *server) timeSettings(args []string) error {
	if len(args) < 3 {
		return errSyntax
	}
	mainTime, err1 := seconds(args[0])
	byoTime, err2 := seconds(args[1])
	stones, err3 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || err3 != nil || stones < 0 {
		return errSyntax
	}
	s.setClock(mainTime, byoTime, stones)
	return nil
}

// setClock sets a time system and forgets the time_left of both colours.
func (s *server) setClock(mainTime, byoTime float64, stones int) {
	s.clock = clockState{
		mainTime: mainTime, byoTime: byoTime, byoStones: stones,
		timed: !(byoTime > 0 && stones == 0) && (mainTime > 0 || byoTime > 0),
	}
}

// kgsTimeSettings answers KGS's kgs-time_settings, which gtp2ogs sends too:
// "none", "absolute MAIN", "byoyomi MAIN PERIOD PERIODS" (Japanese
// byo-yomi: a move must be played within each period, and time_left then
// gives the periods left where it gives stones for Canadian byo-yomi) and
// "canadian MAIN PERIOD STONES".
func (s *server) kgsTimeSettings(args []string) error {
	if len(args) < 1 {
		return errSyntax
	}
	want := map[string]int{"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
	n, ok := want[lower(args[0])]
	if !ok || len(args) < 1+n {
		return errSyntax
	}
	var v [3]float64
	for i := range n {
		x, err := seconds(args[1+i])
		if err != nil {
			return errSyntax
		}
		v[i] = x
	}
	switch lower(args[0]) {
	case "none":
		s.clock = clockState{}
	case "absolute":
		s.setClock(v[0], 0, 0)
	case "byoyomi":
		if v[2] != math.Trunc(v[2]) {
			return errSyntax
		}
		if v[2] == 0 {
			s.setClock(v[0], 0, 0)
		} else {
			s.setClock(v[0], v[1], 1)
			s.clock.japanese = true
		}
	case "canadian":
		if v[2] != math.Trunc(v[2]) || v[2] > math.MaxInt32 {
			return errSyntax
		}
		s.setClock(v[0], v[1], int(v[2]))
	}
	return nil
}

// seconds reads a time in seconds: a finite number, not negative.
func seconds(arg string) (float64, error) {
	x, err := strconv.ParseFloat(arg, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > 1e9 {
		return 0, errSyntax
	}
	return x, nil
}

func (s *server) setTimeLeft(args []string) error {
	c, err := colorArg(args, 3)
	if err != nil {
		return err
	}
	t, err1 := seconds(args[1])
	stones, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || stones < 0 {
		return errSyntax
	}
	k := &s.clock
	k.timeLeft[c], k.stonesLeft[c], k.timeLeftSet[c] = t, stones, true
	return nil
}

// lower is an ASCII-only strings.ToLower, for GTP's keywords.
func lower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
