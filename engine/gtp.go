package engine

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
)

// GTPOptions configures the GTP engine. The zero value plays random moves
// under Chinese rules with simple ko and scores with EstimateDead.
type GTPOptions struct {
	// Name and Version answer the name and version commands; Name
	// defaults to "gobot".
	Name, Version string
	// Ko is the ko rule of every game; the rest of the rules are Chinese
	// (area scoring, no suicide) with the komi the controller sets.
	Ko KoRule
	// GenMove chooses the move of c in g (a copy, which it may keep). It
	// returns a legal move: a place, a pass or a resignation. When the
	// controller has set time limits, ctx's deadline is the time the clock
	// allows for the move less a safety margin (see ServeGTP), and may have
	// passed already when no time is left: GenMove should then answer at
	// once with the best move it has, not an error. When GenMove is nil,
	// genmove plays a uniformly random legal move that does not fill one of
	// the mover's own eyes, and passes when there is none.
	GenMove func(ctx context.Context, g *Game, c Color) (Move, error)
	// Warn, when not nil, is told what the session worked around and the
	// controller does not see in a response: a loaded record's warnings
	// (see SGFInfo.Warnings), a GenMove that failed or chose an illegal
	// move under a clock (a fast move was played instead). cmd/gobot
	// writes them to standard error, as GNU Go does.
	Warn func(msg string)
	// DeadStones lists the dead stones of the position in g (a copy) for
	// final_score and final_status_list. When nil, EstimateDead decides,
	// and its seki stones answer final_status_list seki.
	DeadStones func(ctx context.Context, g *Game) []Point
	// Seed seeds the default random genmove; 0 picks a random seed.
	Seed uint64
}

// gtpCommands are the commands the engine knows, in the order
// list_commands gives them.
var gtpCommands = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "komi", "play", "genmove", "reg_genmove", "undo",
	"showboard", "final_score", "final_status_list", "list_stones", "is_legal", "captures",
	"loadsgf", "printsgf", "fixed_handicap", "place_free_handicap", "set_free_handicap",
	"time_settings", "kgs-time_settings", "time_left",
}

// gtpServer is the state of one GTP session.
type gtpServer struct {
	opts    GTPOptions
	out     *bufio.Writer
	size    int
	komi    float64
	g       *Game
	history []int // engine moves added by each undoable command, for undo
	rng     *rand.Rand

	clock    gtpClock
	handlers map[string]func(ctx context.Context, args []string) (string, error)
}

// gtpClock is the time system a controller set with time_settings or
// kgs-time_settings, and each colour's last time_left.
type gtpClock struct {
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

// errGTPQuit is how the quit command ends the session; it never leaves
// ServeGTP.
var errGTPQuit = errors.New("engine: gtp: quit")

// gtpFailure is a failure response: "? msg".
type gtpFailure string

func (f gtpFailure) Error() string { return string(f) }

const (
	gtpSyntax     = gtpFailure("syntax error")
	gtpIllegal    = gtpFailure("illegal move")
	gtpNotEmpty   = gtpFailure("board not empty")
	gtpBadStones  = gtpFailure("invalid number of stones")
	gtpBadVertex  = gtpFailure("invalid color or coordinate")
	gtpCannotUndo = gtpFailure("cannot undo")
	gtpTooLong    = gtpFailure("line too long: a command takes at most 8192 bytes")
)

// MaxGTPLine is the longest command line ServeGTP accepts, in bytes, line
// feed included: room for a loadsgf with the longest path Linux allows, or
// a set_free_handicap with every point of a 25×25 board less one (about
// 2.5 KB). A longer line is answered "? line too long" (with its id, when
// it starts with one) and read to its end without being kept, and the
// session goes on.
const MaxGTPLine = 8192

// Time margins for genmove under a clock: the search gets the move's share
// of the clock less gtpMarginShare of it and less gtpMargin, for the time
// between the search's end and the controller reading the answer.
const (
	gtpMargin      = 50 * time.Millisecond
	gtpMarginShare = 0.1
)

// ServeGTP runs a Go Text Protocol version 2 engine: it reads commands from
// in and writes responses to out until quit, the end of in, or ctx is done
// (passed to GenMove and DeadStones, and watched while waiting for input).
// It returns nil after quit or at the end of the input, ctx.Err() when
// cancelled, and the error when reading or writing fails. Lines are read
// by a goroutine of their own, so that a cancellation ends the session
// even while in blocks (a terminal, a pipe nobody writes to): that
// goroutine then ends when in's pending Read returns, at the end of the
// input or when the caller closes in. Lines longer than MaxGTPLine are
// refused without ending the session.
//
// Besides the required commands (protocol_version, name, version,
// known_command, list_commands, quit, boardsize, clear_board, komi, play,
// genmove) it implements undo, showboard, final_score, final_status_list
// (dead, alive, seki), loadsgf (with the optional move number: the position
// before that move; like GNU Go it answers the colour to move), printsgf
// (with an optional file name), fixed_handicap, place_free_handicap,
// set_free_handicap, time_settings, kgs-time_settings (none, absolute,
// byoyomi, canadian, as KGS and gtp2ogs send it), time_left, reg_genmove,
// and GNU Go's list_stones, is_legal and captures. The board starts 19×19
// with komi 7.5.
// As GTP allows, a play or genmove for the player not to move is accepted: a
// pass of the other player is recorded first (undo takes both back), and
// play after two passes resumes the game (so a second genmove after the
// engine's pass passes again, as GNU Go does, rather than end the game).
//
// Under time limits GenMove's ctx has a deadline: the move's share of the
// clock less a safety margin (a tenth of it and 50 ms). In a Canadian
// period the share is the time left over the stones left, in Japanese
// byo-yomi (kgs-time_settings byoyomi) the time left in the period; in main
// time it is the time left over an estimate of the moves left (a third of
// the empty points, at least 15), plus one stone's share of a byo-yomi
// period when one follows. With no time left the deadline has passed
// already and GenMove must answer at once. Under a clock genmove always
// answers a legal move: when GenMove fails or chooses an illegal move, the
// default random move is played instead and Warn is told why. Untimed,
// such a failure is answered "? genmove: ..." as it is.
//
// Input is preprocessed as the specification says: control characters other
// than tab and line feed removed, tabs made spaces, comments after '#' and
// empty lines dropped.
func ServeGTP(ctx context.Context, in io.Reader, out io.Writer, opts GTPOptions) error {
	if opts.Name == "" {
		opts.Name = "gobot"
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s := &gtpServer{opts: opts, out: bufio.NewWriter(out), size: 19, komi: DefaultRules().Komi,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	s.handlers = s.commandTable()
	if err := s.newGame(s.size, 0); err != nil {
		return err
	}
	lines := make(chan gtpLine)
	stop := make(chan struct{})
	defer close(stop)
	go readGTPLines(in, lines, stop)
	for {
		var l gtpLine
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-lines:
		}
		if l.err != nil && l.text == "" {
			if l.err == io.EOF {
				return nil
			}
			return fmt.Errorf("engine: gtp: read: %w", l.err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		line := gtpPreprocess(l.text)
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
		}
		if l.tooLong {
			if err := s.respond(id, "", gtpTooLong); err != nil {
				return err
			}
			continue
		}
		if len(fields) == 0 {
			if err := s.respond(id, "", gtpFailure("no command")); err != nil {
				return err
			}
			continue
		}
		text, err := s.run(ctx, fields[0], fields[1:])
		if errors.Is(err, errGTPQuit) {
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

// gtpLine is one line of GTP input: its text without the line feed (only
// its first bytes when tooLong), or the error that ended the input.
type gtpLine struct {
	text    string
	tooLong bool // longer than MaxGTPLine
	err     error
}

// readGTPLines sends the lines of in to lines until in ends, the last one
// carrying the error (io.EOF at the end of the input), or until stop is
// closed. A line longer than MaxGTPLine is sent with only its first bytes
// and tooLong set, so memory stays bounded whatever in holds.
func readGTPLines(in io.Reader, lines chan<- gtpLine, stop <-chan struct{}) {
	br := bufio.NewReaderSize(in, 4096)
	var buf []byte
	for {
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if len(buf)+len(chunk) > MaxGTPLine {
				tooLong = true
				// Keep what fits, for the id; drop the rest.
				chunk = chunk[:max(0, MaxGTPLine-len(buf))]
			}
			buf = append(buf, chunk...)
			if err != bufio.ErrBufferFull {
				break
			}
		}
		l := gtpLine{text: strings.TrimSuffix(string(buf), "\n"), tooLong: tooLong}
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
			case lines <- gtpLine{err: err}:
			case <-stop:
			}
			return
		}
	}
}

// gtpPreprocess applies the specification's preprocessing to one line.
func gtpPreprocess(line string) string {
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
func (s *gtpServer) respond(id, text string, err error) error {
	status := "="
	if err != nil {
		status = "?"
		var f gtpFailure
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
		return fmt.Errorf("engine: gtp: write: %w", err)
	}
	return nil
}

func (s *gtpServer) run(ctx context.Context, name string, args []string) (string, error) {
	h, ok := s.handlers[name]
	if !ok {
		return "", gtpFailure("unknown command")
	}
	return h(ctx, args)
}

func (s *gtpServer) commandTable() map[string]func(ctx context.Context, args []string) (string, error) {
	none := func(f func() (string, error)) func(context.Context, []string) (string, error) {
		return func(_ context.Context, _ []string) (string, error) { return f() }
	}
	return map[string]func(ctx context.Context, args []string) (string, error){
		"protocol_version": none(func() (string, error) { return "2", nil }),
		"name":             none(func() (string, error) { return s.opts.Name, nil }),
		"version":          none(func() (string, error) { return s.opts.Version, nil }),
		"known_command": func(_ context.Context, args []string) (string, error) {
			if len(args) < 1 {
				return "", gtpSyntax
			}
			_, ok := s.handlers[args[0]]
			return strconv.FormatBool(ok), nil
		},
		"list_commands": none(func() (string, error) { return strings.Join(gtpCommands, "\n"), nil }),
		"quit":          none(func() (string, error) { return "", errGTPQuit }),
		"boardsize":     func(_ context.Context, args []string) (string, error) { return "", s.boardsize(args) },
		"clear_board":   none(func() (string, error) { return "", s.newGame(s.size, 0) }),
		"komi":          func(_ context.Context, args []string) (string, error) { return "", s.setKomi(args) },
		"play":          func(_ context.Context, args []string) (string, error) { return "", s.play(args) },
		"genmove": func(ctx context.Context, args []string) (string, error) {
			return s.genmove(ctx, args, true)
		},
		"reg_genmove": func(ctx context.Context, args []string) (string, error) {
			return s.genmove(ctx, args, false)
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

// rules are the rules of the session's games.
func (s *gtpServer) rules() Rules {
	r := DefaultRules()
	r.Ko = s.opts.Ko
	r.Komi = s.komi
	return r
}

// newGame starts an empty game (with fixed handicap stones when
// handicap >= 2).
func (s *gtpServer) newGame(size, handicap int) error {
	g, err := NewGame(Config{Size: size, Rules: s.rules(), Handicap: handicap})
	if err != nil {
		return err
	}
	s.g, s.size, s.history = g, size, nil
	return nil
}

// empty reports whether the board has neither stones nor moves, as the
// handicap commands require.
func (s *gtpServer) empty() bool {
	return s.g.MoveCount() == 0 && s.g.Board().EmptyCount() == s.size*s.size
}

func (s *gtpServer) boardsize(args []string) error {
	if len(args) < 1 {
		return gtpSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return gtpSyntax
	}
	if n < MinSize || n > MaxSize {
		return gtpFailure("unacceptable size")
	}
	return s.newGame(n, 0)
}

func (s *gtpServer) setKomi(args []string) error {
	if len(args) < 1 {
		return gtpSyntax
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(k) {
		return gtpSyntax
	}
	if !ValidKomi(k) {
		return gtpFailure(fmt.Sprintf("komi %s: must be from -150 to 150 in steps of 0.5", args[0]))
	}
	s.komi = k
	g, err := rebuildGame(s.g, s.rules(), s.g.MoveCount())
	if err != nil {
		return err
	}
	s.g = g
	return nil
}

// rebuildGame replays the set-up and the first n moves of g into a new game
// with the given rules (a different komi or ko rule), resuming play after
// two passes where the record continues.
func rebuildGame(g *Game, rules Rules, n int) (*Game, error) {
	cfg := g.Config()
	cfg.Rules = rules
	cfg.Handicap = 0
	ng, err := NewGame(cfg)
	if err != nil {
		return nil, err
	}
	if len(g.Setup()) > 0 || g.FirstPlayer() != ng.FirstPlayer() {
		if err := ng.SetupStones(g.Setup(), g.FirstPlayer(), g.Handicap()); err != nil {
			return nil, err
		}
	}
	for i, m := range g.Moves()[:n] {
		if ng.PlayEnded() {
			if err := ng.Resume(); err != nil {
				return nil, err
			}
		}
		if err := ng.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%s %v): %w", i+1, m.Color.Letter(), m, err)
		}
	}
	return ng, nil
}

// parseColor reads a GTP colour argument.
func gtpColor(s string) (Color, error) {
	c, err := ParseColor(s)
	if err != nil {
		return Empty, gtpBadVertex
	}
	return c, nil
}

// gtpApply plays m in g as GTP allows it: after two passes play resumes,
// and a move by the player not to move is preceded by a pass of the other.
// It returns the number of moves added to g's history.
func gtpApply(g *Game, m Move) (int, error) {
	added := 0
	if g.PlayEnded() {
		if err := g.Resume(); err != nil {
			return 0, err
		}
	}
	if m.Color != g.ToPlay() {
		if err := g.Play(PassMove(g.ToPlay())); err != nil {
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
func (s *gtpServer) commit(m Move) error {
	g := s.g.Clone()
	n, err := gtpApply(g, m)
	if err != nil {
		return err
	}
	s.g = g
	s.history = append(s.history, n)
	return nil
}

func (s *gtpServer) play(args []string) error {
	if len(args) < 2 {
		return gtpSyntax
	}
	c, err := gtpColor(args[0])
	if err != nil {
		return err
	}
	m, err := ParseMove(c, args[1], s.size)
	if err != nil || m.Kind == Resign {
		return gtpBadVertex
	}
	if err := s.commit(m); err != nil {
		if errors.Is(err, ErrGameOver) {
			return gtpFailure("game is over")
		}
		return gtpIllegal
	}
	return nil
}

func (s *gtpServer) genmove(ctx context.Context, args []string, play bool) (string, error) {
	if len(args) < 1 {
		return "", gtpSyntax
	}
	c, err := gtpColor(args[0])
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
	if c != g.ToPlay() {
		if err := g.Play(PassMove(g.ToPlay())); err != nil {
			return "", err
		}
		// A second genmove after the engine's own pass: the pass
		// inserted for the other player does not end the game.
		if g.PlayEnded() {
			if err := g.Resume(); err != nil {
				return "", err
			}
		}
	}
	moveCtx := ctx
	budget, timed := s.moveTime(c)
	if timed {
		var cancel context.CancelFunc
		moveCtx, cancel = context.WithDeadline(ctx, time.Now().Add(budget))
		defer cancel()
	}
	var m Move
	if s.opts.GenMove != nil {
		m, err = s.opts.GenMove(moveCtx, g.Clone(), c)
		if err != nil {
			err = gtpFailure("genmove: " + err.Error())
		} else if m.Kind != Resign {
			m.Color = c
			if m.Kind == Pass {
				m.Point = NoPoint
			}
			if cerr := g.Check(m); cerr != nil {
				err = gtpFailure(fmt.Sprintf("genmove chose %v, which is illegal: %v", m, cerr))
			}
		}
		if err != nil {
			if !timed || ctx.Err() != nil {
				return "", err
			}
			// A clock forfeits a game whose engine does not answer: a
			// fast legal move instead.
			s.warn(fmt.Sprintf("genmove %v: %v; a random move is played instead", c, err))
			m = gtpRandomMove(g, c, s.rng)
		}
	} else {
		m = gtpRandomMove(g, c, s.rng)
	}
	if m.Kind == Resign {
		return "resign", nil
	}
	m.Color = c
	if m.Kind == Pass {
		m.Point = NoPoint
	}
	if !play {
		return m.String(), nil
	}
	if err := s.commit(m); err != nil {
		return "", gtpFailure(fmt.Sprintf("genmove chose %v, which is illegal: %v", m, err))
	}
	return m.String(), nil
}

// warn tells opts.Warn, if set.
func (s *gtpServer) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// gtpRandomMove picks a uniformly random legal move for c (superko
// included) that does not fill one of c's own eyes, or a pass.
func gtpRandomMove(g *Game, c Color, rng *rand.Rand) Move {
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
		m := PlaceAt(c, b.Point(cands[i]))
		if g.Check(m) == nil {
			return m
		}
		cands[i] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
	}
	return PassMove(c)
}

// moveTime returns the time genmove may take for c under the time
// settings and c's last time_left, and whether there is a clock at all (no
// clock: no limit). The move's share of the clock is the time left over the
// stones left in a Canadian period (time_settings' byo-yomi is Canadian),
// or the time left in the current period in Japanese byo-yomi
// (kgs-time_settings byoyomi, whose time_left counts periods, not stones);
// in main time it is the time
// left over an estimate of the moves left, plus one stone's share of the
// byo-yomi period that follows, if any. The budget is that share less
// gtpMarginShare of it and less gtpMargin; it is 0 (answer at once) when
// nothing is left.
func (s *gtpServer) moveTime(c Color) (time.Duration, bool) {
	k := &s.clock
	if !k.timed {
		return 0, false
	}
	left, stones := k.mainTime, 0
	if k.timeLeftSet[c] {
		left, stones = k.timeLeft[c], k.stonesLeft[c]
	} else if k.mainTime == 0 {
		left, stones = k.byoTime, k.byoStones
	}
	var share float64
	switch {
	case stones > 0 && k.japanese:
		share = left
	case stones > 0:
		share = left / float64(stones)
	default:
		movesLeft := max(15, s.g.Board().EmptyCount()/3)
		share = left / float64(movesLeft)
		if k.byoTime > 0 && k.byoStones > 0 {
			share += k.byoTime / float64(k.byoStones)
		}
	}
	d := time.Duration(share*(1-gtpMarginShare)*float64(time.Second)) - gtpMargin
	return max(d, 0), true
}

func (s *gtpServer) undo() (string, error) {
	if len(s.history) == 0 {
		return "", gtpCannotUndo
	}
	n := s.history[len(s.history)-1]
	g := s.g.Clone()
	for i := 0; i < n; i++ {
		if err := g.Undo(); err != nil {
			return "", gtpCannotUndo
		}
	}
	s.g = g
	s.history = s.history[:len(s.history)-1]
	return "", nil
}

func (s *gtpServer) showboard() (string, error) {
	b := s.g.Board()
	text := "\n" + strings.TrimRight(b.String(), "\n")
	text += fmt.Sprintf("\nBlack (X) has captured %d stones\nWhite (O) has captured %d stones\n%s to play, move %d, komi %s",
		s.g.Captures(Black), s.g.Captures(White), s.g.ToPlay(), s.g.MoveCount(), FormatKomi(s.komi))
	if ko := b.Ko(s.g.ToPlay()); ko != NoPoint {
		text += ", ko at " + ko.String()
	}
	return text, nil
}

// status returns the dead stones of the current position, and the stones
// in seki when EstimateDead decides.
func (s *gtpServer) status(ctx context.Context) (dead, seki []Point) {
	if s.opts.DeadStones != nil {
		return s.opts.DeadStones(ctx, s.g.Clone()), nil
	}
	e := EstimateDead(ctx, s.g, EstimateOptions{})
	return e.Dead, e.Seki
}

func (s *gtpServer) finalScore(ctx context.Context) (string, error) {
	dead, _ := s.status(ctx)
	return s.g.Score(dead).Result(), nil
}

// finalStatusList lists the stones with the given status (dead, alive or
// seki), one chain a line, top row first.
func (s *gtpServer) finalStatusList(ctx context.Context, args []string) (string, error) {
	if len(args) < 1 {
		return "", gtpSyntax
	}
	want := lower(args[0])
	if want != "dead" && want != "alive" && want != "seki" {
		return "", gtpSyntax
	}
	b := s.g.Board()
	status := map[int]string{}
	dead, seki := s.status(ctx)
	for _, p := range seki {
		if p.Valid(s.size) && b.At(p) != Empty {
			status[b.Vertex(p)] = "seki"
		}
	}
	for _, p := range dead {
		if p.Valid(s.size) && b.At(p) != Empty {
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
			v := b.Vertex(Point{col, row})
			if b.ColorAt(v) == Empty || done[v] || of(v) != want {
				continue
			}
			var chain []Point
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
			slices.SortFunc(chain, func(a, b Point) int {
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

func (s *gtpServer) listStones(args []string) (string, error) {
	if len(args) < 1 {
		return "", gtpSyntax
	}
	c, err := gtpColor(args[0])
	if err != nil {
		return "", err
	}
	b := s.g.Board()
	var pts []string
	for row := s.size - 1; row >= 0; row-- {
		for col := 0; col < s.size; col++ {
			if p := (Point{col, row}); b.At(p) == c {
				pts = append(pts, p.String())
			}
		}
	}
	return strings.Join(pts, " "), nil
}

// isLegal answers GNU Go's is_legal: 1 when play would accept the move.
func (s *gtpServer) isLegal(args []string) (string, error) {
	if len(args) < 2 {
		return "", gtpSyntax
	}
	c, err := gtpColor(args[0])
	if err != nil {
		return "", err
	}
	m, err := ParseMove(c, args[1], s.size)
	if err != nil || m.Kind == Resign {
		return "", gtpBadVertex
	}
	if _, err := gtpApply(s.g.Clone(), m); err != nil {
		return "0", nil
	}
	return "1", nil
}

// captures answers GNU Go's captures: the stones c has captured.
func (s *gtpServer) captures(args []string) (string, error) {
	if len(args) < 1 {
		return "", gtpSyntax
	}
	c, err := gtpColor(args[0])
	if err != nil {
		return "", err
	}
	return strconv.Itoa(s.g.Captures(c)), nil
}

// loadSGF loads a record's main line. Like GNU Go, an optional move number
// k loads the position before the record's k-th move (passes ParseSGF
// inserted between two moves of one player do not count, and the one before
// move k is played), an optional vertex loads the position before the first
// move there, and the answer is the colour to move: the colour of that
// move, or of the player to move at the end.
//
// Only a regular file of at most MaxSGFSize bytes is read: a FIFO, a device
// such as /dev/zero or a directory is refused before it is opened, so that
// loadsgf can neither block nor exhaust memory. A record with a move on an
// occupied point loads as GNU Go loads it: the position before that move,
// with its player to move, and Warn is told of it.
func (s *gtpServer) loadSGF(args []string) (string, error) {
	if len(args) < 1 {
		return "", gtpSyntax
	}
	data, err := readRecordFile(args[0])
	if err != nil {
		return "", err
	}
	rec, info, err := ParseSGF(data)
	if err != nil {
		return "", gtpFailure("cannot load file: " + strings.TrimPrefix(err.Error(), "engine: "))
	}
	n := rec.MoveCount()
	moves := rec.Moves()
	if len(args) >= 2 {
		until := -1 // the record's move to stop before, from 0
		if k, err := strconv.Atoi(args[1]); err == nil {
			if k < 1 {
				return "", gtpSyntax
			}
			until = k - 1
		} else {
			p, ok := parsePoint(strings.ToUpper(args[1]))
			if !ok || !p.Valid(rec.Size()) {
				return "", gtpSyntax
			}
			for i, j := 0, 0; i < len(moves); i++ {
				if slices.Contains(info.InsertedAt, i) {
					continue
				}
				if moves[i].Kind == Place && moves[i].Point == p {
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
		msg := "loadsgf " + args[0] + ": " + w.String()
		if w.Move < n {
			// GNU Go stops at the faulty move; the warnings after it
			// concern moves not loaded.
			s.warn(msg + "; loaded up to the move before it, as GNU Go loads it")
			n = w.Move
			break
		}
		s.warn(msg)
	}
	rules := s.rules()
	rules.Komi = rec.Rules().Komi
	g, err := rebuildGame(rec, rules, n)
	if err != nil {
		return "", gtpFailure("cannot load file: " + strings.TrimPrefix(err.Error(), "engine: "))
	}
	s.g, s.size, s.komi = g, g.Size(), rules.Komi
	s.history = make([]int, n)
	for i := range s.history {
		s.history[i] = 1
	}
	toPlay := g.ToPlay()
	if n < len(moves) {
		toPlay = moves[n].Color
	}
	return toPlay.String(), nil
}

// readRecordFile reads a record for loadsgf: a regular file of at most
// MaxSGFSize bytes. The file is checked before it is opened (opening a FIFO
// blocks until someone writes to it) and again once open, in case it was
// replaced meanwhile.
func readRecordFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, gtpFailure("cannot load file")
	}
	if !fi.Mode().IsRegular() {
		return nil, gtpFailure("cannot load file: not a regular file")
	}
	if fi.Size() > MaxSGFSize {
		return nil, gtpFailure(fmt.Sprintf("cannot load file: larger than %d bytes", MaxSGFSize))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, gtpFailure("cannot load file")
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !os.SameFile(fi, fi2) {
		return nil, gtpFailure("cannot load file: it changed while being opened")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSGFSize+1))
	if err != nil {
		return nil, gtpFailure("cannot load file")
	}
	if len(data) > MaxSGFSize {
		return nil, gtpFailure(fmt.Sprintf("cannot load file: larger than %d bytes", MaxSGFSize))
	}
	return data, nil
}

// recordMoveIndex returns the index in Game.Moves of a record's move k
// (from 0), skipping the passes ParseSGF inserted (at the sorted indexes
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
func (s *gtpServer) printSGF(args []string) (string, error) {
	var buf bytes.Buffer
	if err := WriteSGF(&buf, s.g, SGFInfo{}); err != nil {
		return "", err
	}
	if len(args) == 0 {
		return buf.String(), nil
	}
	if err := os.WriteFile(args[0], buf.Bytes(), 0o644); err != nil {
		return "", gtpFailure("cannot write file: " + err.Error())
	}
	return "", nil
}

func (s *gtpServer) handicapCount(args []string) (int, error) {
	if len(args) < 1 {
		return 0, gtpSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, gtpSyntax
	}
	if !s.empty() {
		return 0, gtpNotEmpty
	}
	return n, nil
}

func (s *gtpServer) fixedHandicap(args []string) (string, error) {
	n, err := s.handicapCount(args)
	if err != nil {
		return "", err
	}
	if n < 2 || n > MaxHandicap(s.size) {
		return "", gtpBadStones
	}
	if err := s.newGame(s.size, n); err != nil {
		return "", gtpBadStones
	}
	return gtpVertices(s.g.Setup()), nil
}

func gtpVertices(stones []Stone) string {
	var pts []string
	for _, st := range stones {
		pts = append(pts, st.Point.String())
	}
	return strings.Join(pts, " ")
}

func (s *gtpServer) placeFreeHandicap(args []string) (string, error) {
	n, err := s.handicapCount(args)
	if err != nil {
		return "", err
	}
	if n < 2 || n >= s.size*s.size {
		return "", gtpBadStones
	}
	pts := FreeHandicapPoints(s.size, n)
	stones := make([]Stone, len(pts))
	for i, p := range pts {
		stones[i] = Stone{p, Black}
	}
	if err := s.g.SetupStones(stones, White, n); err != nil {
		return "", err
	}
	return gtpVertices(stones), nil
}

func (s *gtpServer) setFreeHandicap(args []string) error {
	if !s.empty() {
		return gtpNotEmpty
	}
	if len(args) < 2 || len(args) >= s.size*s.size {
		return gtpFailure("bad vertex list")
	}
	seen := map[Point]bool{}
	stones := make([]Stone, 0, len(args))
	for _, a := range args {
		p, err := ParsePoint(a, s.size)
		if err != nil || seen[p] {
			return gtpFailure("bad vertex list")
		}
		seen[p] = true
		stones = append(stones, Stone{p, Black})
	}
	return s.g.SetupStones(stones, White, len(stones))
}

// FreeHandicapPoints chooses n handicap points on a board of the given
// size: the fixed points (HandicapPoints) as far as they go, then each
// further stone on the empty point farthest from the stones already placed,
// keeping off the first two lines while there is room, with ties going to
// the point nearest the centre. It is deterministic.
func FreeHandicapPoints(size, n int) []Point {
	n = min(n, size*size)
	var pts []Point
	if fixed := min(n, MaxHandicap(size)); fixed >= 2 {
		pts, _ = HandicapPoints(size, fixed)
	}
	taken := make([]bool, size*size)
	dist := make([]int, size*size) // squared distance to the nearest stone
	for i := range dist {
		dist[i] = math.MaxInt
	}
	mark := func(p Point) {
		taken[p.Row*size+p.Col] = true
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				d := (r-p.Row)*(r-p.Row) + (c-p.Col)*(c-p.Col)
				dist[r*size+c] = min(dist[r*size+c], d)
			}
		}
	}
	for _, p := range pts {
		mark(p)
	}
	edge := 0
	if size >= 7 {
		edge = 2
	}
	centre := func(r, c int) int { return (2*r-size+1)*(2*r-size+1) + (2*c-size+1)*(2*c-size+1) }
	for len(pts) < n {
		best, bestDist, bestCentre := -1, -1, 0
		for pass := 0; pass < 2 && best < 0; pass++ {
			lo := edge
			if pass == 1 {
				lo = 0
			}
			for r := lo; r < size-lo; r++ {
				for c := lo; c < size-lo; c++ {
					i := r*size + c
					if taken[i] {
						continue
					}
					if d, ce := dist[i], centre(r, c); d > bestDist || (d == bestDist && ce < bestCentre) {
						best, bestDist, bestCentre = i, d, ce
					}
				}
			}
		}
		p := Point{best % size, best / size}
		pts = append(pts, p)
		mark(p)
	}
	return pts
}

// timeSettings answers time_settings main_time byo_yomi_time
// byo_yomi_stones: absolute time when there are no stones, Canadian
// byo-yomi otherwise; byo-yomi time with no stones, or no time at all,
// means no time limit.
func (s *gtpServer) timeSettings(args []string) error {
	if len(args) < 3 {
		return gtpSyntax
	}
	mainTime, err1 := gtpSeconds(args[0])
	byoTime, err2 := gtpSeconds(args[1])
	stones, err3 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || err3 != nil || stones < 0 {
		return gtpSyntax
	}
	s.setClock(mainTime, byoTime, stones)
	return nil
}

// setClock sets a time system and forgets the time_left of both colours.
func (s *gtpServer) setClock(mainTime, byoTime float64, stones int) {
	s.clock = gtpClock{
		mainTime: mainTime, byoTime: byoTime, byoStones: stones,
		timed: !(byoTime > 0 && stones == 0) && (mainTime > 0 || byoTime > 0),
	}
}

// kgsTimeSettings answers KGS's kgs-time_settings, which gtp2ogs sends too:
// "none", "absolute MAIN", "byoyomi MAIN PERIOD PERIODS" (Japanese
// byo-yomi: a move must be played within each period, and time_left then
// gives the periods left where it gives stones for Canadian byo-yomi) and
// "canadian MAIN PERIOD STONES".
func (s *gtpServer) kgsTimeSettings(args []string) error {
	if len(args) < 1 {
		return gtpSyntax
	}
	want := map[string]int{"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
	n, ok := want[lower(args[0])]
	if !ok || len(args) < 1+n {
		return gtpSyntax
	}
	var v [3]float64
	for i := range n {
		x, err := gtpSeconds(args[1+i])
		if err != nil {
			return gtpSyntax
		}
		v[i] = x
	}
	switch lower(args[0]) {
	case "none":
		s.clock = gtpClock{}
	case "absolute":
		s.setClock(v[0], 0, 0)
	case "byoyomi":
		if v[2] != math.Trunc(v[2]) {
			return gtpSyntax
		}
		if v[2] == 0 {
			s.setClock(v[0], 0, 0)
		} else {
			s.setClock(v[0], v[1], 1)
			s.clock.japanese = true
		}
	case "canadian":
		if v[2] != math.Trunc(v[2]) || v[2] > math.MaxInt32 {
			return gtpSyntax
		}
		s.setClock(v[0], v[1], int(v[2]))
	}
	return nil
}

// gtpSeconds reads a time in seconds: a finite number, not negative.
func gtpSeconds(arg string) (float64, error) {
	x, err := strconv.ParseFloat(arg, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > 1e9 {
		return 0, gtpSyntax
	}
	return x, nil
}

func (s *gtpServer) setTimeLeft(args []string) error {
	if len(args) < 3 {
		return gtpSyntax
	}
	c, err := gtpColor(args[0])
	if err != nil {
		return err
	}
	t, err1 := gtpSeconds(args[1])
	stones, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || stones < 0 {
		return gtpSyntax
	}
	k := &s.clock
	k.timeLeft[c], k.stonesLeft[c], k.timeLeftSet[c] = t, stones, true
	return nil
}
