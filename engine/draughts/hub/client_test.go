package hub

import (
	"context"
	"errors"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// serveOverPipes runs Serve with search on pipes and returns a client of
// it and the channel of Serve's result.
func serveOverPipes(t *testing.T, search func(context.Context, Request, func(Info)) (Reply, error)) (*Client, chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), inR, outW, ServerOptions{Name: "fake", Search: search})
		outW.Close()
		inR.Close()
		done <- err
	}()
	c, err := NewClientIO(context.Background(), "fake", outR, inW, ClientOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c, done
}

func TestClient(t *testing.T) {
	before := runtime.NumGoroutine()
	f := &firstMove{}
	c, done := serveOverPipes(t, f.search)
	if name, _ := c.ID().Get("name"); name != "fake" {
		t.Errorf("ID() = %v, want name=fake", c.ID())
	}
	start := draughts.Start()
	p := start
	var moves []draughts.Move
	for _, mt := range []string{"32-28", "19-23"} {
		m, err := ParseMove(&p, mt)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	m, err := c.GenMove(context.Background(), start, moves, 100*time.Millisecond)
	if err != nil || MoveText(m) != "28x19x23" {
		t.Errorf("GenMove = %v, %v; want 28x19x23", m, err)
	}
	if r := f.reqs[0]; len(r.Moves) != 2 || !r.Position.Equal(&p) || r.Limit.MoveTime != 100*time.Millisecond {
		t.Errorf("the engine was asked %+v, want the start, two moves and 0.1 s", r)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Errorf("Ping = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve after the client's quit = %v", err)
	}
	if _, err := c.GenMove(context.Background(), start, nil, time.Second); !errors.Is(err, ErrClosed) {
		t.Errorf("GenMove after Close = %v, want ErrClosed", err)
	}
	runtimetest.NoGoroutineLeft(t, before, "after Close")
}

// TestClientStop: a deadline that passes stops the engine and takes its
// answer; a cancellation stops it and returns the context's error, and
// the client goes on.
func TestClientStop(t *testing.T) {
	errs := make(chan error, 4)
	c, done := serveOverPipes(t, untilStopped(errs))
	defer func() { c.Close(); <-done }()
	start := draughts.Start()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	m, err := c.GenMove(ctx, start, nil, time.Hour)
	if err != nil || MoveText(m) != "31-26" {
		t.Errorf("GenMove past its deadline = %v, %v; want the engine's answer 31-26", m, err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("GenMove took %v with a 100 ms deadline", d)
	}
	<-errs

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.GenMove(ctx, start, nil, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("GenMove cancelled = %v, want context.Canceled", err)
	}
	<-errs

	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if m, err := c.GenMove(ctx, start, nil, time.Hour); err != nil || MoveText(m) != "31-26" {
		t.Errorf("GenMove after a cancelled one = %v, %v; want 31-26", m, err)
	}
}

// TestClientIllegalMove: an engine's illegal answer is an error wrapping
// ErrMove.
func TestClientIllegalMove(t *testing.T) {
	// Serve itself replaces an illegal move; a raw engine does not. Speak
	// as one over pipes.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := inR.Read(buf)
			if err != nil {
				outW.Close()
				return
			}
			for _, l := range splitLines(string(buf[:n])) {
				switch l {
				case "hub":
					io.WriteString(outW, "id name=liar\nwait\n")
				case "init":
					io.WriteString(outW, "ready\n")
				case "go think":
					io.WriteString(outW, "done move=31-22\n")
				}
			}
		}
	}()
	c, err := NewClientIO(context.Background(), "liar", outR, inW, ClientOptions{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.GenMove(context.Background(), draughts.Start(), nil, 10*time.Millisecond); !errors.Is(err, ErrMove) {
		t.Errorf("GenMove of an illegal answer = %v, want ErrMove", err)
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
