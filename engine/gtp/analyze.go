package gtp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// Knows reports whether the program lists command in list_commands,
// starting its process if needed.
func (c *Client) Knows(ctx context.Context, command string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ensure(ctx); err != nil {
		return false, err
	}
	return c.known[command], nil
}

// Analyze brings the program's board to g's position, starts an analysis
// command that streams its findings until interrupted (kata-analyze or
// lz-analyze, with its arguments, e.g. "kata-analyze B 50 ownership
// true"), lets it think for d, stops it with an empty line and returns the
// last line of analysis it printed. A program that does not list the
// command fails with ErrFailed; the answer ends within the usual command
// timeout after d or the process is killed (ErrTimeout).
func (c *Client) Analyze(ctx context.Context, g *engine.Game, command string, d time.Duration) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name, _, _ := strings.Cut(command, " ")
	var answer string
	err := c.retry(ctx, func() error {
		if err := c.sync(ctx, g); err != nil {
			return err
		}
		if !c.known[name] {
			return fmt.Errorf("%s: %s: the engine does not list it: %w", c.spec.Name, name, ErrFailed)
		}
		var err error
		answer, err = c.stream(ctx, command, d)
		return err
	})
	if err != nil {
		return "", err
	}
	lines := strings.Split(answer, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "info ") {
			return strings.TrimSpace(lines[i]), nil
		}
	}
	return "", fmt.Errorf("%s: %s printed no analysis in %v: %w", c.spec.Name, name, d, ErrProtocol)
}

// stream sends a command that answers until interrupted, waits d, sends
// the empty line that interrupts it and returns the whole answer; c.mu is
// held.
func (c *Client) stream(ctx context.Context, command string, d time.Duration) (string, error) {
	p, id, err := c.write(command)
	if err != nil {
		return "", err
	}
	wait := time.NewTimer(d)
	defer wait.Stop()
	select {
	case r := <-p.responses:
		// The program answered at once: a refusal or an error.
		return c.answer(p, r, id, command)
	case <-wait.C:
	case <-ctx.Done():
		return c.abandon(command, ctx.Err())
	case <-c.closing:
		return c.abandon(command, ErrClosed)
	}
	if _, err := fmt.Fprint(p.stdin, "\n"); err != nil {
		c.kill()
		return "", fmt.Errorf("%s: %s: %w%s", c.spec.Name, command, ErrExited, p.tail())
	}
	timeout := time.NewTimer(c.opts.timeout())
	defer timeout.Stop()
	select {
	case r := <-p.responses:
		return c.answer(p, r, id, command)
	case <-timeout.C:
		c.kill()
		return "", fmt.Errorf("%s: %s: not stopped within %v: %w", c.spec.Name, command, c.opts.timeout(), ErrTimeout)
	case <-ctx.Done():
		return c.abandon(command, ctx.Err())
	case <-c.closing:
		return c.abandon(command, ErrClosed)
	}
}

// abandon kills the process in the middle of command, whose answer will
// not be read, and returns why; c.mu is held.
func (c *Client) abandon(command string, why error) (string, error) {
	c.kill()
	return "", fmt.Errorf("%s: %s: %w", c.spec.Name, command, why)
}
