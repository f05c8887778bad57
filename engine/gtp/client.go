package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ClientOptions tune a Client. The zero value is usable.
type ClientOptions struct {
	// Timeout bounds each command other than genmove, and the rest of the
	// start-up handshake; 10 s when zero.
	Timeout time.Duration
	// StartTimeout bounds the wait for the first answer of a process just
	// started, for a program that loads for long before it reads its
	// first command (KataGo with a large network on a CPU); Timeout when
	// zero.
	StartTimeout time.Duration
	// MoveTimeout bounds genmove on top of the move's own time budget;
	// 60 s when zero.
	MoveTimeout time.Duration
	// Stderr receives the program's standard error; nil discards it (the
	// last lines are kept for error messages either way).
	Stderr io.Writer
}

func (o ClientOptions) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return 10 * time.Second
}

func (o ClientOptions) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return o.timeout()
}

func (o ClientOptions) moveTimeout() time.Duration {
	if o.MoveTimeout > 0 {
		return o.MoveTimeout
	}
	return 60 * time.Second
}

// Client runs one process of a GTP program and talks GTP to it. It starts
// the process on first use and again after a crash, a timeout or a garbled
// answer, and then replays the game it was following. It is safe for
// concurrent use: commands are sent one at a time.
type Client struct {
	spec Spec
	opts ClientOptions

	closing   chan struct{} // closed by Close, to end a command in flight
	closeOnce sync.Once

	mu       sync.Mutex
	p        *process // nil when no process is running
	closed   bool
	nextID   int
	starts   int             // processes started, for tests and logs
	known    map[string]bool // commands the program lists
	name     string          // the program's own name and version
	version  string
	state    syncState     // what the program's board holds
	timeSent time.Duration // the time a move last sent with time_settings, 0 for none since the last clear_board
}

// NewClient returns a client for the program; the process starts with
// the first command.
func NewClient(spec Spec, opts ClientOptions) *Client {
	return &Client{spec: spec, opts: opts, closing: make(chan struct{})}
}

// StartClient returns a client whose process is running and has answered
// the handshake (protocol_version, name, version, list_commands).
func StartClient(ctx context.Context, spec Spec, opts ClientOptions) (*Client, error) {
	c := NewClient(spec, opts)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ensure(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Spec returns the program's configuration.
func (c *Client) Spec() Spec { return c.spec }

// Starts returns how many processes the client has started.
func (c *Client) Starts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.starts
}

// Identity returns the program's name and version as it reported them,
// empty before it has started.
func (c *Client) Identity() (name, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name, c.version
}

// Command sends one GTP command (without id) and returns the program's
// answer without the leading "= ". A "?" answer is an error wrapping
// ErrFailed with the program's message. timeout <= 0 means ClientOptions.Timeout.
func (c *Client) Command(ctx context.Context, timeout time.Duration, command string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if timeout <= 0 {
		timeout = c.opts.timeout()
	}
	return c.command(ctx, timeout, command)
}

// Close asks the program to quit, gives it a second to exit, kills it
// (with the processes it started) if it has not, and waits for it. A
// command in flight ends at once with ErrClosed. Close returns the
// program's exit error when it quit by itself with a failure status, nil
// otherwise; it is idempotent.
func (c *Client) Close() error {
	c.closeOnce.Do(func() { close(c.closing) })
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	p := c.p
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	// Best effort: the process is killed anyway.
	_, err := c.send(ctx, time.Second, "quit")
	if c.p != p {
		return nil // send killed it: it did not answer, or had died
	}
	exited := false
	if err == nil {
		p.stdin.Close()
		select {
		case r := <-p.responses: // the end of its output
			exited = errors.Is(r.err, ErrExited)
		case <-ctx.Done():
		}
	}
	c.p = nil
	c.state = syncState{}
	if err := p.stop(); exited && err != nil {
		return fmt.Errorf("%s: after quit: %w", c.spec.Name, err)
	}
	return nil
}

// ensure starts the process if none is running; c.mu is held.
func (c *Client) ensure(ctx context.Context) error {
	select {
	case <-c.closing:
		return ErrClosed
	default:
	}
	if c.p != nil {
		return nil
	}
	p, err := startProcess(c.spec, c.opts.Stderr)
	if err != nil {
		return fmt.Errorf("%s: %w: %w", c.spec.Name, ErrStart, err)
	}
	c.p = p
	c.starts++
	c.state = syncState{}
	c.timeSent = 0
	t := c.opts.timeout()
	if v, err := c.send(ctx, c.opts.startTimeout(), "protocol_version"); err != nil {
		c.kill()
		return fmt.Errorf("%s: %w: %w", c.spec.Name, ErrStart, err)
	} else if v != "2" {
		c.kill()
		return fmt.Errorf("%s: protocol version %q, want 2: %w", c.spec.Name, v, ErrStart)
	}
	c.name, _ = c.send(ctx, t, "name")
	c.version, _ = c.send(ctx, t, "version")
	c.known = map[string]bool{}
	if list, err := c.send(ctx, t, "list_commands"); err == nil {
		for _, cmd := range strings.Fields(list) {
			c.known[cmd] = true
		}
	}
	if c.p == nil {
		return fmt.Errorf("%s: %w: the engine failed its handshake", c.spec.Name, ErrStart)
	}
	return nil
}

// command starts the process if needed and sends one command; c.mu is held.
func (c *Client) command(ctx context.Context, timeout time.Duration, command string) (string, error) {
	if err := c.ensure(ctx); err != nil {
		return "", err
	}
	return c.send(ctx, timeout, command)
}

// write sends command to the running process with the next id, which it
// returns; a failed write kills the process. c.mu is held.
func (c *Client) write(command string) (*process, int, error) {
	p := c.p
	if p == nil {
		return nil, 0, ErrExited
	}
	if strings.ContainsAny(command, "\n\r") {
		return nil, 0, fmt.Errorf("command %q: %w", command, ErrProtocol)
	}
	c.nextID++
	id := c.nextID
	if _, err := fmt.Fprintf(p.stdin, "%d %s\n", id, command); err != nil {
		c.kill()
		return nil, 0, fmt.Errorf("%s: %s: %w%s", c.spec.Name, command, ErrExited, p.tail())
	}
	return p, id, nil
}

// send writes one command to the running process and waits for its answer.
// Any failure other than a "?" answer kills the process, whose state is then
// unknown; c.mu is held.
func (c *Client) send(ctx context.Context, timeout time.Duration, command string) (string, error) {
	p, id, err := c.write(command)
	if err != nil {
		return "", err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-p.responses:
		return c.answer(p, r, id, command)
	case <-timer.C:
		c.kill()
		return "", fmt.Errorf("%s: %s: no answer in %v: %w", c.spec.Name, command, timeout, ErrTimeout)
	case <-ctx.Done():
		c.kill()
		return "", fmt.Errorf("%s: %s: %w", c.spec.Name, command, ctx.Err())
	case <-c.closing:
		if command == "quit" {
			// Close's own farewell: wait for the answer as usual.
			select {
			case <-p.responses:
			case <-timer.C:
			}
			return "", nil
		}
		c.kill()
		return "", fmt.Errorf("%s: %s: %w", c.spec.Name, command, ErrClosed)
	}
}

// answer checks the program's answer r to command number id of process p:
// a failure to read one or an answer to another command kills the
// process, a "?" answer is ErrFailed; c.mu is held.
func (c *Client) answer(p *process, r response, id int, command string) (string, error) {
	if r.err != nil {
		c.kill()
		return "", fmt.Errorf("%s: %s: %w%s", c.spec.Name, command, r.err, p.tail())
	}
	if r.id != id && r.id != -1 {
		c.kill()
		return "", fmt.Errorf("%s: %s: answer for command %d, want %d: %w", c.spec.Name, command, r.id, id, ErrProtocol)
	}
	if !r.ok {
		return "", fmt.Errorf("%s: %s: %q: %w", c.spec.Name, command, r.text, ErrFailed)
	}
	return r.text, nil
}

// kill ends the process and forgets what its board held; c.mu is held.
func (c *Client) kill() {
	if c.p != nil {
		c.p.stop()
		c.p = nil
	}
	c.state = syncState{}
}

// process is one running program with the goroutine that reads its answers.
type process struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	stdout    *os.File // read end of the program's standard output
	responses chan response
	quit      chan struct{} // closed to stop the reader
	done      chan struct{} // closed when the reader has returned
	stderr    *tailWriter
}

// response is one GTP answer, or the reason there is none.
type response struct {
	id   int
	ok   bool
	text string
	err  error
}

func startProcess(spec Spec, stderr io.Writer) (*process, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("empty command: %w", ErrInvalidSpec)
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = w
	tail := &tailWriter{}
	if stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, stderr)
	} else {
		cmd.Stderr = tail
	}
	// A child of the program that keeps its output open must not hold up
	// Wait for ever.
	cmd.WaitDelay = 2 * time.Second
	isolate(cmd)
	if err := cmd.Start(); err != nil {
		stdin.Close()
		r.Close()
		w.Close()
		return nil, err
	}
	w.Close() // the program holds its own copy
	p := &process{
		cmd:       cmd,
		stdin:     stdin,
		stdout:    r,
		responses: make(chan response),
		quit:      make(chan struct{}),
		done:      make(chan struct{}),
		stderr:    tail,
	}
	go p.read()
	return p, nil
}

// read parses answers from the program until its output ends or the process
// is stopped.
func (p *process) read() {
	defer close(p.done)
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	deliver := func(r response) bool {
		select {
		case p.responses <- r:
			return true
		case <-p.quit:
			return false
		}
	}
	var cur *response
	var lines []string
	for sc.Scan() {
		line := strings.TrimRight(strings.ReplaceAll(sc.Text(), "\t", " "), " \r")
		if cur == nil {
			if line == "" {
				continue
			}
			r, err := parseHead(line)
			if err != nil {
				if !deliver(response{err: err}) {
					return
				}
				continue
			}
			cur, lines = &r, []string{r.text}
			continue
		}
		if line != "" {
			lines = append(lines, line)
			continue
		}
		cur.text = strings.TrimSpace(strings.Join(lines, "\n"))
		if !deliver(*cur) {
			return
		}
		cur = nil
	}
	deliver(response{err: ErrExited})
}

// parseHead reads the first line of an answer: "=12 text" or "?12 text".
func parseHead(line string) (response, error) {
	if line[0] != '=' && line[0] != '?' {
		if len(line) > 80 {
			line = line[:80] + "…"
		}
		return response{}, fmt.Errorf("unexpected output %q: %w", line, ErrProtocol)
	}
	r := response{ok: line[0] == '=', id: -1}
	rest := line[1:]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i > 0 {
		id, err := strconv.Atoi(rest[:i])
		if err != nil {
			return response{}, fmt.Errorf("bad id in %q: %w", line, ErrProtocol)
		}
		r.id = id
	}
	r.text = strings.TrimSpace(rest[i:])
	return r, nil
}

// stop kills the process, stops the reader and reaps both. It returns the
// process's exit error, which is a kill's unless it had exited already.
func (p *process) stop() error {
	close(p.quit)
	p.stdin.Close()
	killGroup(p.cmd)
	p.stdout.Close()
	<-p.done
	return p.cmd.Wait()
}

// tail returns the last of the program's standard error, for messages.
func (p *process) tail() string {
	if s := p.stderr.String(); s != "" {
		return " (engine said: " + s + ")"
	}
	return ""
}

// tailWriter keeps the last bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 512

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ReplaceAll(string(t.buf), "\n", " | "))
}

// retryable reports whether err killed the process in a way that a fresh
// process, with the game replayed, may not repeat.
func retryable(err error) bool {
	return errors.Is(err, ErrExited) || errors.Is(err, ErrProtocol)
}
