package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Spec names an engine and the command that runs it in Hub mode.
type Spec struct {
	Name string   // as users pick it: "scan"
	Argv []string // program and arguments, run without a shell: "/opt/scan/scan", "hub"
	// Dir is the directory the program runs in; empty means the
	// program's own directory when Argv[0] is a path (Scan reads
	// scan.ini and its data there), else the current one.
	Dir string
}

// ClientOptions tune a Client.
type ClientOptions struct {
	// Params are set (set-param) before init, by name.
	Params map[string]string
	// Timeout bounds the handshake and each answer beyond the time a
	// move was given; 0 means 10 seconds.
	Timeout time.Duration
	// Stderr receives the engine's standard error; nil discards it.
	Stderr io.Writer
}

// Client is a Hub engine run as a child process and asked for moves.
// Its methods are safe for concurrent use: requests are taken one at a
// time. After a failure (the engine exits, breaks the protocol, or does
// not answer in time) the process is killed and the next request starts
// a fresh one.
type Client struct {
	spec Spec
	opts ClientOptions
	mu   sync.Mutex // one request at a time
	conn *conn      // nil until started, and after a failure
	id   Line       // the engine's id line
	// start makes a connection; a test may give one over pipes.
	start  func() (*conn, error)
	closed bool
}

// conn is one running engine: its input, its lines and how to end it.
type conn struct {
	in    io.WriteCloser
	lines chan string // closed at the end of the engine's output
	kill  func()      // ends the process at once
	wait  func()      // waits for the process after its output ended
}

// NewClient returns a client of the engine spec describes, started and
// through its handshake (hub, set-param, init). The process is started
// again when it fails.
func NewClient(ctx context.Context, spec Spec, opts ClientOptions) (*Client, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("hub: engine %q has no command", spec.Name)
	}
	c := &Client{spec: spec, opts: opts}
	c.start = c.startProcess
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.connect(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// NewClientIO returns a client of an engine already running, spoken to
// through r (its output) and w (its input): another goroutine's Serve, a
// network connection. Closing the client closes w; r must then end. The
// client is not started again after a failure.
func NewClientIO(ctx context.Context, name string, r io.Reader, w io.WriteCloser, opts ClientOptions) (*Client, error) {
	used := false
	c := &Client{spec: Spec{Name: name}, opts: opts}
	c.start = func() (*conn, error) {
		if used {
			return nil, fmt.Errorf("%w: %s cannot be started again", ErrEngine, name)
		}
		used = true
		k := &conn{in: w, lines: make(chan string, 64), kill: func() { w.Close() }, wait: func() {}}
		go readOutput(r, k.lines)
		return k, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.connect(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) timeout() time.Duration {
	if c.opts.Timeout > 0 {
		return c.opts.Timeout
	}
	return 10 * time.Second
}

// Name returns the engine's name as configured.
func (c *Client) Name() string { return c.spec.Name }

// ID returns the engine's id line (name, version, author), once started.
func (c *Client) ID() Line {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// startProcess runs the engine's program.
func (c *Client) startProcess() (*conn, error) {
	cmd := exec.Command(c.spec.Argv[0], c.spec.Argv[1:]...)
	cmd.Dir = c.spec.Dir
	if cmd.Dir == "" && strings.ContainsRune(c.spec.Argv[0], filepath.Separator) {
		cmd.Dir = filepath.Dir(c.spec.Argv[0])
		if !filepath.IsAbs(c.spec.Argv[0]) {
			// The program's path is relative to where gobot runs.
			if abs, err := filepath.Abs(c.spec.Argv[0]); err == nil {
				cmd.Path = abs
				cmd.Dir = filepath.Dir(abs)
			}
		}
	}
	cmd.Stderr = c.opts.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("hub: starting %s: %w", c.spec.Name, err)
	}
	k := &conn{in: in, lines: make(chan string, 64)}
	k.kill = func() { cmd.Process.Kill() }
	k.wait = func() { cmd.Wait() }
	go readOutput(out, k.lines)
	return k, nil
}

// readOutput sends the engine's lines until its output ends.
func readOutput(r io.Reader, lines chan<- string) {
	defer close(lines)
	stop := make(chan struct{})
	defer close(stop)
	in := make(chan inputLine)
	go readLines(r, in, stop)
	for l := range in {
		if l.err != nil {
			return
		}
		lines <- l.text
	}
}

// connect starts the engine and makes the handshake. c.mu is held.
func (c *Client) connect(ctx context.Context) error {
	if c.closed {
		return ErrClosed
	}
	k, err := c.start()
	if err != nil {
		return err
	}
	c.conn = k
	fail := func(err error) error {
		c.drop()
		return fmt.Errorf("hub: %s: handshake: %w", c.spec.Name, err)
	}
	if err := c.send(Line{Command: "hub"}); err != nil {
		return fail(err)
	}
	deadline := time.Now().Add(c.timeout())
	for {
		l, err := c.expect(ctx, deadline)
		if err != nil {
			return fail(err)
		}
		if l.Command == "id" {
			c.id = l
		}
		if l.Command == "wait" {
			break
		}
	}
	for _, n := range slices.Sorted(maps.Keys(c.opts.Params)) {
		if err := c.send(NewLine("set-param", "name", n, "value", c.opts.Params[n])); err != nil {
			return fail(err)
		}
	}
	if err := c.send(Line{Command: "init"}); err != nil {
		return fail(err)
	}
	for {
		l, err := c.expect(ctx, deadline)
		if err != nil {
			return fail(err)
		}
		if l.Command == "ready" {
			return nil
		}
	}
}

// send writes a line to the engine.
func (c *Client) send(l Line) error {
	if _, err := io.WriteString(c.conn.in, l.String()+"\n"); err != nil {
		return fmt.Errorf("%w: writing: %w", ErrEngine, err)
	}
	return nil
}

// expect returns the engine's next line that reads, by the deadline.
func (c *Client) expect(ctx context.Context, deadline time.Time) (Line, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		select {
		case text, ok := <-c.conn.lines:
			if !ok {
				return Line{}, fmt.Errorf("%w: the engine exited", ErrEngine)
			}
			l, err := ParseLine(text)
			if err != nil {
				continue // blank lines, banners
			}
			return l, nil
		case <-t.C:
			return Line{}, fmt.Errorf("%w: no answer in time", ErrEngine)
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return Line{}, ctx.Err()
			}
			// A deadline only hurries the answer: the caller stops the
			// search and waits on.
			return Line{}, errDeadline
		}
	}
}

// errDeadline says the caller's deadline passed while waiting.
var errDeadline = errors.New("hub: deadline")

// drop kills the engine after a failure. c.mu is held.
func (c *Client) drop() {
	if c.conn == nil {
		return
	}
	k := c.conn
	c.conn = nil
	k.in.Close()
	k.kill()
	for range k.lines {
	}
	k.wait()
}

// GenMove asks the engine for a move: the position start, the moves
// after it (the positions since the last irreversible move, for the
// engine to see repetitions), and moveTime to think (0: one second;
// shortened to ctx's deadline). When ctx's deadline passes first the
// engine is told to stop and its answer taken; when ctx is cancelled the
// engine is stopped and ctx's error returned. A move the rules refuse is
// an error wrapping ErrMove; an engine that fails is an error wrapping
// ErrEngine, and is started again at the next request.
func (c *Client) GenMove(ctx context.Context, start draughts.Position, moves []draughts.Move, moveTime time.Duration) (draughts.Move, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return draughts.Move{}, ErrClosed
	}
	if c.conn == nil {
		if err := c.connect(ctx); err != nil {
			return draughts.Move{}, err
		}
	}
	if moveTime <= 0 {
		moveTime = time.Second
	}
	if d, ok := ctx.Deadline(); ok {
		if left := time.Until(d) - 50*time.Millisecond; left < moveTime {
			moveTime = max(left, 10*time.Millisecond)
		}
	}
	p := start
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = MoveText(m)
		p.Play(m)
	}
	pos := NewLine("pos", "pos", start.Hub())
	if len(moves) > 0 {
		pos.Args = append(pos.Args, Arg{"moves", strings.Join(texts, " ")})
	}
	for _, l := range []Line{pos, NewLine("level", "move-time", fmt.Sprintf("%.3f", moveTime.Seconds())), NewLine("go", "think", "")} {
		if err := c.send(l); err != nil {
			c.drop()
			return draughts.Move{}, fmt.Errorf("hub: %s: %w", c.spec.Name, err)
		}
	}
	deadline := time.Now().Add(moveTime + c.timeout())
	stopped := false
	for {
		l, err := c.expect(ctx, deadline)
		switch {
		case errors.Is(err, errDeadline) && !stopped:
			// Stop the search and wait, without the caller's context,
			// for its answer.
			stopped = true
			if err := c.send(Line{Command: "stop"}); err != nil {
				c.drop()
				return draughts.Move{}, fmt.Errorf("hub: %s: %w", c.spec.Name, err)
			}
			ctx = context.WithoutCancel(ctx)
			deadline = time.Now().Add(c.timeout())
			continue
		case err != nil && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
			// Cancelled: the move is no longer wanted. Stop the engine
			// and read its answer away so that the next request starts
			// clean; an engine that does not answer is dropped.
			if c.send(Line{Command: "stop"}) != nil || c.await(context.Background(), "done") != nil {
				c.drop()
			}
			return draughts.Move{}, ctx.Err()
		case err != nil:
			c.drop()
			return draughts.Move{}, fmt.Errorf("hub: %s: %w", c.spec.Name, err)
		}
		switch l.Command {
		case "done":
			text, _ := l.Get("move")
			m, err := ParseMove(&p, text)
			if err != nil {
				return draughts.Move{}, fmt.Errorf("hub: %s answers %q in %s: %w", c.spec.Name, text, p.FEN(), err)
			}
			return m, nil
		case "error":
			msg, _ := l.Get("message")
			c.drop()
			return draughts.Move{}, fmt.Errorf("%w: %s: %s", ErrEngine, c.spec.Name, msg)
		}
	}
}

// await reads lines up to one with the command, within the timeout.
func (c *Client) await(ctx context.Context, command string) error {
	deadline := time.Now().Add(c.timeout())
	for {
		l, err := c.expect(ctx, deadline)
		if err != nil {
			return err
		}
		if l.Command == command {
			return nil
		}
	}
}

// Ping checks that the engine answers.
func (c *Client) Ping(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	if c.conn == nil {
		if err := c.connect(ctx); err != nil {
			return err
		}
	}
	if err := c.send(Line{Command: "ping"}); err != nil {
		c.drop()
		return err
	}
	if err := c.await(ctx, "pong"); err != nil {
		c.drop()
		return fmt.Errorf("hub: %s: ping: %w", c.spec.Name, err)
	}
	return nil
}

// Close tells the engine to quit, gives it a second, then kills it. It
// waits for the process and the goroutine reading it.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.conn == nil {
		return nil
	}
	k := c.conn
	c.conn = nil
	c.sendTo(k, Line{Command: "quit"})
	k.in.Close()
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for {
		select {
		case _, ok := <-k.lines:
			if ok {
				continue
			}
			k.wait()
			return nil
		case <-t.C:
			k.kill()
			for range k.lines {
			}
			k.wait()
			return nil
		}
	}
}

func (c *Client) sendTo(k *conn, l Line) {
	io.WriteString(k.in, l.String()+"\n")
}
