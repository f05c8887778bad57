package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Mode is what a search is for: go think, go ponder or go analyze.
type Mode int

// The modes.
const (
	Think   Mode = iota // find a move to play
	Ponder              // think on the opponent's time, until ponder-hit or stop
	Analyze             // show the analysis; the move matters less
)

// String returns "think", "ponder" or "analyze".
func (m Mode) String() string {
	switch m {
	case Ponder:
		return "ponder"
	case Analyze:
		return "analyze"
	}
	return "think"
}

// Limit is what a level command set for the next search: a depth, a node
// count, a time per move, or a clock (the time left, the increment and
// the moves to the next control), or no limit at all (infinite, until
// stop). Zero fields are unset.
type Limit struct {
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	Time     time.Duration // the time left on the clock
	Inc      time.Duration // added before every move
	Moves    int           // moves to the next time control; 0 for sudden death
	Infinite bool
}

// Allot returns the time to spend on a move under l, 0 when l sets no
// time: the time per move when given; under a clock, the time left over
// the moves to go (30 when not given, so sudden death spends a thirtieth)
// plus the increment, never more than half the time left, less a margin
// of 5% and 20 ms for the answer to reach the GUI.
func (l Limit) Allot() time.Duration {
	var t time.Duration
	switch {
	case l.MoveTime > 0:
		t = l.MoveTime
	case l.Time > 0 || l.Inc > 0:
		moves := l.Moves
		if moves <= 0 {
			moves = 30
		}
		t = l.Time/time.Duration(moves) + l.Inc
		if half := (l.Time + l.Inc) / 2; t > half {
			t = half
		}
	default:
		return 0
	}
	t -= t/20 + 20*time.Millisecond
	return max(t, time.Millisecond)
}

// Request is one search the GUI asked for: the position it sent, the
// moves after it (the last irreversible move's position and the kings'
// moves since, so that repetitions can be seen), the position they lead
// to, the limits and the mode.
type Request struct {
	Start    draughts.Position
	Moves    []draughts.Move
	Position draughts.Position
	Limit    Limit
	Mode     Mode
}

// Info is a search's progress, written as an info line: the depth, the
// score for the side to move in hundredths of a man, the nodes, the time
// and the expected line.
type Info struct {
	Depth int
	Score int
	Nodes int64
	Time  time.Duration
	PV    []draughts.Move
}

// Reply is a search's answer: the move, and the opponent's expected
// answer when there is one (Ponder.From is draughts.NoSquare when there is
// none).
type Reply struct {
	Move, Ponder draughts.Move
}

// Param is an engine parameter as the hub command declares it: its name,
// current value, type ("bool", "int", "real", "string" or "enum") and the
// type's constraints.
type Param struct {
	Name, Value, Type string
	Min, Max          string // for int and real
	Values            string // for enum: the values separated by spaces
}

// ServerOptions configure Serve.
type ServerOptions struct {
	// Name, Version, Author and Country identify the engine in the
	// answer to hub; Name defaults to "gobot".
	Name, Version, Author, Country string
	// Params are the parameters the answer to hub declares.
	Params []Param
	// SetParam receives set-param; its error is answered as an error
	// line. Nil ignores set-param.
	SetParam func(name, value string) error
	// NewGame receives new-game (forget what earlier searches learnt).
	NewGame func()
	// Search searches a request and returns its move; info, called from
	// its goroutine, writes an info line. The GUI never asks for a
	// terminal position. ctx ends when the search must answer at once
	// with the best move it has: then ctx.Err() is
	// context.DeadlineExceeded when the GUI said stop (or another
	// command, or the pondering's time is up after ponder-hit), and
	// context.Canceled when the session ends (quit, the end of the
	// input, Serve's ctx), when no answer is wanted. A search that
	// fails is answered with an error line and the first legal move.
	// Search runs on a goroutine of Serve's, which waits for it before
	// returning.
	Search func(ctx context.Context, req Request, info func(Info)) (Reply, error)
}

// Serve runs a Hub engine: it reads a GUI's lines from in and answers on
// out until quit, the end of in, or ctx is done. It returns nil after quit
// or at the end of the input, ctx.Err() when ctx ends it, and the error
// when writing fails. Lines are read by a goroutine of their own, so
// that the engine answers ping and stop while it searches and a
// cancellation ends the session even while in blocks; that goroutine ends
// when in's pending Read returns (at the end of the input, or when the
// caller closes in).
//
// As Scan 3.1 does, pos and go reset the level to none (so a GUI sends
// pos, level and go for each search), and a command other than ping,
// ponder-hit and stop during a search stops it and is then carried out.
// pos without pos= is the start position. As in Scan, a bad position is
// answered with an error line and leaves the previous position and its
// moves as they were, and an illegal move in moves= is answered with an
// error line and the new position is kept up to the move before. Lines
// that do not read, and commands it does not know, are
// answered with an error line.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts ServerOptions) error {
	if opts.Name == "" {
		opts.Name = "gobot"
	}
	s := &server{opts: opts, out: bufio.NewWriter(out)}
	s.setPos(draughts.Start(), nil)
	lines := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	var pending *inputLine
	for {
		var l inputLine
		if pending != nil {
			l, pending = *pending, nil
		} else {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case l = <-lines:
			}
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("hub: read: %w", l.err)
		}
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		line, err := ParseLine(l.text)
		if err != nil {
			if err := s.error(err.Error()); err != nil {
				return err
			}
			continue
		}
		if line.Command == "go" {
			next, quit, err := s.search(ctx, line, lines)
			if err != nil || quit {
				return err
			}
			pending = next
			continue
		}
		quit, err := s.do(line)
		if err != nil || quit {
			return err
		}
	}
}

// server is one session's state.
type server struct {
	opts  ServerOptions
	mu    sync.Mutex // guards out: info lines come from the search's goroutine
	out   *bufio.Writer
	werr  error // the first write error
	start draughts.Position
	moves []draughts.Move
	pos   draughts.Position
	limit Limit
}

// write writes a line and flushes it.
func (s *server) write(l Line) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.werr != nil {
		return s.werr
	}
	s.out.WriteString(l.String())
	s.out.WriteByte('\n')
	if err := s.out.Flush(); err != nil {
		s.werr = fmt.Errorf("hub: write: %w", err)
	}
	return s.werr
}

func (s *server) error(msg string) error {
	return s.write(NewLine("error", "message", strings.TrimPrefix(msg, "hub: ")))
}

func (s *server) setPos(p draughts.Position, moves []draughts.Move) {
	s.start, s.moves, s.pos = p, moves, p
	for _, m := range moves {
		s.pos.Play(m)
	}
}

// do carries out a command other than go; quit reports the end of the
// session.
func (s *server) do(l Line) (quit bool, err error) {
	switch l.Command {
	case "hub":
		id := NewLine("id", "name", s.opts.Name)
		for _, kv := range [][2]string{{"version", s.opts.Version}, {"author", s.opts.Author}, {"country", s.opts.Country}} {
			if kv[1] != "" {
				id.Args = append(id.Args, Arg{kv[0], kv[1]})
			}
		}
		if err := s.write(id); err != nil {
			return false, err
		}
		for _, p := range s.opts.Params {
			pl := NewLine("param", "name", p.Name, "value", p.Value, "type", p.Type)
			for _, kv := range [][2]string{{"min", p.Min}, {"max", p.Max}, {"values", p.Values}} {
				if kv[1] != "" {
					pl.Args = append(pl.Args, Arg{kv[0], kv[1]})
				}
			}
			if err := s.write(pl); err != nil {
				return false, err
			}
		}
		return false, s.write(Line{Command: "wait"})
	case "set-param":
		name, _ := l.Get("name")
		if name == "" {
			return false, s.error("set-param: the name is missing")
		}
		value, _ := l.Get("value")
		if s.opts.SetParam != nil {
			if err := s.opts.SetParam(name, value); err != nil {
				return false, s.error(fmt.Sprintf("set-param %s: %v", name, err))
			}
		}
		return false, nil
	case "init":
		return false, s.write(Line{Command: "ready"})
	case "new-game":
		if s.opts.NewGame != nil {
			s.opts.NewGame()
		}
		return false, nil
	case "ping":
		return false, s.write(Line{Command: "pong"})
	case "ponder-hit", "stop":
		return false, nil // no search is running
	case "quit":
		return true, nil
	case "pos":
		return false, s.posCommand(l)
	case "level":
		return false, s.levelCommand(l)
	}
	return false, s.error(fmt.Sprintf("unknown command %q", l.Command))
}

// posCommand reads pos: the position (start when absent) and the moves.
// A bad position is answered with an error line and changes nothing: the
// search that follows is of the previous position, not of the start. A
// move that is not legal is answered with an error line, and the line's
// position stands up to the move before it, as Scan has it.
func (s *server) posCommand(l Line) error {
	s.limit = Limit{}
	p := draughts.Start()
	if text, ok := l.Get("pos"); ok && !l.Has("start") {
		var err error
		if p, err = draughts.ParseHub(text); err != nil {
			return s.error("bad position: " + strings.TrimPrefix(err.Error(), "draughts: "))
		}
		// A side without pieces has lost: no game is played from there,
		// and Scan refuses such a position as bad too.
		for _, c := range []draughts.Color{draughts.White, draughts.Black} {
			if p.Pieces(c).Count() == 0 {
				return s.error("bad position: " + strings.ToLower(c.String()) + " has no pieces")
			}
		}
	}
	var moves []draughts.Move
	q := p
	text, _ := l.Get("moves")
	for _, mt := range strings.Fields(text) {
		m, err := ParseMove(&q, mt)
		if err != nil {
			s.setPos(p, moves)
			return s.error("illegal move " + mt + ": " + strings.TrimPrefix(err.Error(), "hub: "))
		}
		moves = append(moves, m)
		q.Play(m)
	}
	s.setPos(p, moves)
	return nil
}

// levelCommand reads level.
func (s *server) levelCommand(l Line) error {
	var lim Limit
	for _, a := range l.Args {
		var err error
		switch a.Name {
		case "depth":
			lim.Depth, err = strconv.Atoi(a.Value)
		case "nodes":
			lim.Nodes, err = strconv.ParseInt(a.Value, 10, 64)
		case "move-time":
			lim.MoveTime, err = seconds(a.Value)
			if err == nil && lim.MoveTime == 0 {
				lim.MoveTime = time.Millisecond // no time to think: answer at once, not "no limit"
			}
		case "time":
			lim.Time, err = seconds(a.Value)
			if err == nil && lim.Time == 0 {
				lim.Time = time.Nanosecond // a clock run down: the least search (Allot), not "no clock"
			}
		case "inc":
			lim.Inc, err = seconds(a.Value)
		case "moves":
			lim.Moves, err = strconv.Atoi(a.Value)
		case "infinite":
			lim.Infinite = true
		}
		if err != nil {
			return s.error(fmt.Sprintf("level: %s=%q is not a number", a.Name, a.Value))
		}
	}
	s.limit = lim
	return nil
}

// seconds reads a time in seconds, a real number.
func seconds(v string) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e6 {
		return 0, fmt.Errorf("bad time %q", v)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// search runs go: the search on a goroutine, the input read meanwhile.
// It returns a line read during the search that stopped it, to be carried
// out next, and whether the session is over.
func (s *server) search(ctx context.Context, l Line, lines <-chan inputLine) (next *inputLine, quit bool, err error) {
	req := Request{Start: s.start, Moves: s.moves, Position: s.pos, Limit: s.limit, Mode: Think}
	switch {
	case l.Has("ponder"):
		req.Mode = Ponder
	case l.Has("analyze"):
		req.Mode = Analyze
	}
	s.limit = Limit{}
	var buf [draughts.MaxMoves]draughts.Move
	legal := req.Position.Generate(buf[:0])
	if len(legal) == 0 {
		// The search is over at once: done, with no move, as Scan
		// answers, so that a GUI waiting for done does not hang.
		if err := s.error("go: the position is over, there is no move to search"); err != nil {
			return nil, false, err
		}
		return nil, false, s.write(NewLine("done"))
	}
	if s.opts.Search == nil {
		return nil, false, s.write(NewLine("done", "move", MoveText(legal[0])))
	}
	sctx := newStopContext(ctx)
	defer sctx.release()
	type answer struct {
		r   Reply
		err error
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			if p := recover(); p != nil {
				a = answer{err: fmt.Errorf("search failed: %v", p)}
			}
			done <- a
		}()
		a.r, a.err = s.opts.Search(sctx, req, func(in Info) { s.info(req.Position, in) })
	}()
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	ended := false // the session ends: no done line
	for {
		// Once the search is told to end, no more input is read until
		// it has answered: what follows is carried out after.
		input := lines
		if ended || next != nil {
			input = nil
		}
		var in inputLine
		select {
		case a := <-done:
			if ended {
				return next, true, nil
			}
			return next, false, s.done(req, legal, a.r, a.err)
		case <-ctx.Done():
			sctx.stop(context.Canceled)
			<-done
			return nil, true, ctx.Err()
		case in = <-input:
		}
		if in.err != nil {
			sctx.stop(context.Canceled)
			ended = true
			continue
		}
		cmd, _, _ := strings.Cut(strings.TrimSpace(in.text), " ")
		switch cmd {
		case "":
		case "ping":
			if err := s.write(Line{Command: "pong"}); err != nil {
				sctx.stop(context.Canceled)
				<-done
				return nil, true, err
			}
		case "ponder-hit":
			if req.Mode == Ponder && timer == nil {
				timer = time.AfterFunc(req.Limit.Allot(), func() { sctx.stop(context.DeadlineExceeded) })
			}
		case "stop":
			sctx.stop(context.DeadlineExceeded)
		case "quit":
			sctx.stop(context.Canceled)
			ended = true
		default:
			// Another command stops the search and is carried out
			// after its answer.
			sctx.stop(context.DeadlineExceeded)
			next = &in
		}
	}
}

// done writes the answer of a search: its move if legal, else an error
// line and the first legal move.
func (s *server) done(req Request, legal []draughts.Move, r Reply, err error) error {
	ok := false
	for _, m := range legal {
		if m == r.Move {
			ok = true
		}
	}
	if err == nil && !ok {
		err = fmt.Errorf("the search chose %v, not a legal move", r.Move)
	}
	if err != nil {
		if werr := s.error(err.Error()); werr != nil {
			return werr
		}
		r = Reply{Move: legal[0]}
	}
	l := NewLine("done", "move", MoveText(r.Move))
	if r.Ponder.From != draughts.NoSquare {
		q := req.Position
		q.Play(r.Move)
		var buf [draughts.MaxMoves]draughts.Move
		for _, m := range q.Generate(buf[:0]) {
			if m == r.Ponder {
				l.Args = append(l.Args, Arg{"ponder", MoveText(r.Ponder)})
				break
			}
		}
	}
	return s.write(l)
}

// info writes an info line as Scan does: score in men, time in seconds,
// speed in millions of nodes a second, the line in quotes.
func (s *server) info(p draughts.Position, in Info) {
	l := Line{Command: "info"}
	if in.Depth > 0 {
		l.Args = append(l.Args, Arg{"depth", strconv.Itoa(in.Depth)})
	}
	l.Args = append(l.Args, Arg{"score", strconv.FormatFloat(float64(in.Score)/100, 'f', 2, 64)})
	if in.Nodes > 0 {
		l.Args = append(l.Args, Arg{"nodes", strconv.FormatInt(in.Nodes, 10)})
	}
	if in.Time > 0 {
		l.Args = append(l.Args, Arg{"time", strconv.FormatFloat(in.Time.Seconds(), 'f', 3, 64)})
		if in.Nodes > 0 {
			l.Args = append(l.Args, Arg{"nps", strconv.FormatFloat(float64(in.Nodes)/in.Time.Seconds()/1e6, 'f', 1, 64)})
		}
	}
	if len(in.PV) > 0 {
		texts := make([]string, 0, len(in.PV))
		q := p
		var buf [draughts.MaxMoves]draughts.Move
		for _, m := range in.PV {
			legal := false
			for _, o := range q.Generate(buf[:0]) {
				if o == m {
					legal = true
					break
				}
			}
			if !legal {
				break // a line cut by a collision of keys: keep what is sound
			}
			texts = append(texts, MoveText(m))
			q.Play(m)
		}
		l.Args = append(l.Args, Arg{"pv", strings.Join(texts, " ")})
	}
	s.write(l) // a failed write is reported by the next line written
}

// inputLine is one line of input without its line feed, or the error
// that ended the input.
type inputLine struct {
	text string
	err  error
}

// MaxLine is the longest line read; a longer one is cut there.
const MaxLine = 64 << 10

// readLines sends the lines of in to lines until in ends (the last one
// carrying the error, io.EOF at the end of the input) or stop is closed.
func readLines(in io.Reader, lines chan<- inputLine, stop <-chan struct{}) {
	r := bufio.NewReaderSize(in, 4096)
	for {
		text, err := readLine(r)
		if text != "" || err == nil {
			select {
			case lines <- inputLine{text: text}:
			case <-stop:
				return
			}
		}
		if err != nil {
			select {
			case lines <- inputLine{err: err}:
			case <-stop:
			}
			return
		}
	}
}

// readLine reads a line, cut at MaxLine, without its line ending.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(b) < MaxLine {
			b = append(b, frag[:min(len(frag), MaxLine-len(b))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimRight(string(b), "\r\n"), err
	}
}

// stopContext is a search's context: it ends when its parent does
// (context.Canceled) or when stop is called with the error to report
// (context.DeadlineExceeded when the GUI asks for the best move at once).
type stopContext struct {
	context.Context
	done    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	err     error
	release func() bool
}

func newStopContext(parent context.Context) *stopContext {
	c := &stopContext{Context: parent, done: make(chan struct{})}
	c.release = context.AfterFunc(parent, func() { c.stop(context.Canceled) })
	return c
}

func (c *stopContext) stop(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *stopContext) Done() <-chan struct{} { return c.done }

func (c *stopContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
