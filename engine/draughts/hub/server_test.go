package hub

import (
	"bufio"
	"context"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// firstMove is a search that answers the first legal move, with the
// first legal answer as its ponder move, after one info line; it keeps
// the requests.
type firstMove struct {
	mu   sync.Mutex
	reqs []Request
}

func (f *firstMove) search(ctx context.Context, req Request, info func(Info)) (Reply, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	p := req.Position
	m := p.Generate(nil)[0]
	q := p
	q.Play(m)
	r := Reply{Move: m}
	if replies := q.Generate(nil); len(replies) > 0 {
		r.Ponder = replies[0]
	}
	info(Info{Depth: 1, Score: 25, Nodes: 1000, Time: 10 * time.Millisecond, PV: []draughts.Move{r.Move, r.Ponder}})
	return r, nil
}

// TestServeSession plays a session as the Hub GUI does, with the lines
// it sends.
func TestServeSession(t *testing.T) {
	start := draughts.Start()
	in := strings.Join([]string{
		"hub",
		"set-param name=book value=false",
		"init",
		"ping",
		"new-game",
		`pos pos=` + start.Hub() + ` moves="32-28 19-23"`,
		"level depth=3",
		"go think",
		"pos",
		"level moves=20 time=300.5 inc=2",
		"go analyze",
		"go ponder",
		"bogus command",
		"pos pos=Wxx",
		`pos moves="32-28 18-23 28x19"`,
		"quit",
		"ping",
	}, "\n") + "\n"
	f := &firstMove{}
	var params []string
	newGames := 0
	var out strings.Builder
	err := Serve(context.Background(), strings.NewReader(in), &out, ServerOptions{
		Name: "gobot", Version: "1.0", Author: "gobot authors",
		Params:   []Param{{Name: "level", Value: "max", Type: "enum", Values: "easy hard max"}},
		SetParam: func(name, value string) error { params = append(params, name+"="+value); return nil },
		NewGame:  func() { newGames++ },
		Search:   f.search,
	})
	if err != nil {
		t.Fatalf("Serve = %v", err)
	}
	want := []string{
		`id name=gobot version=1.0 author="gobot authors"`,
		`param name=level value=max type=enum values="easy hard max"`,
		"wait",
		"ready",
		"pong",
		`info depth=1 score=0.25 nodes=1000 time=0.010 nps=0.1 pv="28x19x23 13x24x19"`,
		"done move=28x19x23 ponder=13x24x19",
		`info depth=1 score=0.25 nodes=1000 time=0.010 nps=0.1 pv="31-26 16-21"`,
		"done move=31-26 ponder=16-21",
		`info depth=1 score=0.25 nodes=1000 time=0.010 nps=0.1 pv="31-26 16-21"`,
		"done move=31-26 ponder=16-21",
		`error message="unknown command 'bogus'"`,
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) < len(want)+2 {
		t.Fatalf("Serve wrote:\n%s\nwant at least:\n%s", out.String(), strings.Join(want, "\n"))
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, got[i], w)
		}
	}
	// The bad position and the illegal move are refused, each with an
	// error line.
	for i, prefix := range []string{`error message="bad position: Hub position`, `error message="illegal move 28x19`} {
		if l := got[len(want)+i]; !strings.HasPrefix(l, prefix) {
			t.Errorf("line %d = %q, want it to start with %q", len(want)+i+1, l, prefix)
		}
	}
	if len(got) != len(want)+2 {
		t.Errorf("Serve wrote %d lines after quit:\n%s", len(got)-len(want)-2, strings.Join(got[len(want)+2:], "\n"))
	}
	if len(params) != 1 || params[0] != "book=false" || newGames != 1 {
		t.Errorf("set-param gave %v, new-game %d times; want [book=false] and once", params, newGames)
	}
	if len(f.reqs) != 3 {
		t.Fatalf("%d searches, want 3", len(f.reqs))
	}
	r := f.reqs[0]
	after := start
	for _, mt := range []string{"32-28", "19-23"} {
		m, err := ParseMove(&after, mt)
		if err != nil {
			t.Fatal(err)
		}
		after.Play(m)
	}
	if !r.Position.Equal(&after) || len(r.Moves) != 2 || !r.Start.Equal(&start) || r.Limit != (Limit{Depth: 3}) || r.Mode != Think {
		t.Errorf("first search: %+v, want the start, 32-28 19-23, depth 3, think", r)
	}
	if r := f.reqs[1]; r.Limit != (Limit{Moves: 20, Time: 300500 * time.Millisecond, Inc: 2 * time.Second}) || r.Mode != Analyze {
		t.Errorf("second search: limit %+v, mode %v; want moves 20, time 300.5 s, inc 2 s, analyze", r.Limit, r.Mode)
	}
	if r := f.reqs[2]; r.Limit != (Limit{}) || r.Mode != Ponder {
		t.Errorf("third search: limit %+v, mode %v; want none (go resets the level) and ponder", r.Limit, r.Mode)
	}
}

// TestServePosRefused: as in Scan, a pos line with a bad position (one
// that does not read, or where a side has no pieces) is
// answered with an error line and leaves the previous position and its
// moves as they were (the next search is of the position the GUI set
// before, for the side to move there, not of the start), and one with an
// illegal move keeps its position up to the move before.
func TestServePosRefused(t *testing.T) {
	// Black men on 19 and 20, white men on 32 and 33; Black plays 20-24
	// and White is to move.
	const p1 = "Beeeeeeeeeeeeeeeeeebbeeeeeeeeeeewweeeeeeeeeeeeeeeee"
	initial := draughts.Start()
	startHub := initial.Hub()
	set := `pos pos=` + p1 + ` moves="20-24"`
	for _, tc := range []struct {
		name, line, prefix string
		start              string   // the position searched from: p1 when empty
		moves              []string // the moves then played: 20-24 when nil
	}{
		{"bad position", "pos pos=Wxyz", `error message="bad position: `, "", nil},
		{"black without pieces", "pos pos=Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeewwwww", `error message="bad position: black has no pieces"`, "", nil},
		{"empty board", "pos pos=B" + strings.Repeat("e", 50), `error message="bad position: white has no pieces"`, "", nil},
		{"bad start of the moves", `pos moves="99-1"`, `error message="illegal move 99-1: `, startHub, []string{}},
		{"illegal first move", `pos pos=` + p1 + ` moves="32-28"`, `error message="illegal move 32-28: `, p1, []string{}},
		{"illegal third move", `pos pos=` + p1 + ` moves="19-23 33-29 29-24"`, `error message="illegal move 29-24: `, p1, []string{"19-23", "33-29"}},
		{"illegal move from the start", `pos moves="32-28 32-28"`, `error message="illegal move 32-28: `, startHub, []string{"32-28"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &firstMove{}
			s := startSession(t, f.search)
			s.send(t, set, tc.line, "level depth=1", "go think")
			if l := s.next(t); !strings.HasPrefix(l, tc.prefix) {
				t.Errorf("Serve wrote %q, want a line starting %s", l, tc.prefix)
			}
			if l := s.next(t); !strings.HasPrefix(l, "done ") {
				t.Errorf("Serve wrote %q, want done", l)
			}
			s.in.Close()
			if err := <-s.done; err != nil {
				t.Errorf("Serve = %v", err)
			}
			if len(f.reqs) != 1 {
				t.Fatalf("%d searches, want 1", len(f.reqs))
			}
			if tc.start == "" {
				tc.start, tc.moves = p1, []string{"20-24"}
			}
			start, err := draughts.ParseHub(tc.start)
			if err != nil {
				t.Fatal(err)
			}
			after := start
			var want []draughts.Move
			for _, mt := range tc.moves {
				m, err := ParseMove(&after, mt)
				if err != nil {
					t.Fatal(err)
				}
				after.Play(m)
				want = append(want, m)
			}
			r := f.reqs[0]
			if !r.Start.Equal(&start) || !slices.Equal(r.Moves, want) || !r.Position.Equal(&after) {
				t.Errorf("search after %q: start %s, moves %v, position %s; want %s, %v, %s",
					tc.line, r.Start.Hub(), r.Moves, r.Position.Hub(), start.Hub(), tc.moves, after.Hub())
			}
		})
	}
}

// session is Serve over pipes, for the tests that talk while it searches.
type session struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func startSession(t *testing.T, search func(context.Context, Request, func(Info)) (Reply, error)) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, ServerOptions{Search: search})
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *session) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(s.in, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next returns the next line that is not info.
func (s *session) next(t *testing.T) string {
	t.Helper()
	for s.out.Scan() {
		if l := s.out.Text(); !strings.HasPrefix(l, "info") {
			return l
		}
	}
	t.Fatalf("the session ended: %v", s.out.Err())
	return ""
}

// untilStopped searches until stopped, then answers the first move.
func untilStopped(errs chan<- error) func(context.Context, Request, func(Info)) (Reply, error) {
	return func(ctx context.Context, req Request, _ func(Info)) (Reply, error) {
		<-ctx.Done()
		errs <- ctx.Err()
		p := req.Position
		return Reply{Move: p.Generate(nil)[0]}, nil
	}
}

// TestServeStop: during an infinite search ping is answered, stop ends
// the search with its move, and another command stops it and is then
// carried out.
func TestServeStop(t *testing.T) {
	before := runtime.NumGoroutine()
	errs := make(chan error, 4)
	s := startSession(t, untilStopped(errs))
	s.send(t, "pos", "level infinite", "go analyze", "ping")
	if l := s.next(t); l != "pong" {
		t.Fatalf("ping during the search: %q, want pong", l)
	}
	s.send(t, "stop")
	if l := s.next(t); l != "done move=31-26" {
		t.Errorf("after stop: %q, want done move=31-26", l)
	}
	if err := <-errs; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stop: the search's ctx.Err() = %v, want DeadlineExceeded (answer now)", err)
	}
	s.send(t, "go think", "level depth=1", "ping")
	if l := s.next(t); l != "done move=31-26" {
		t.Errorf("after another command: %q, want done move=31-26", l)
	}
	if l := s.next(t); l != "pong" {
		t.Errorf("then %q, want pong (level carried out, then ping)", l)
	}
	if err := <-errs; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a command during the search: ctx.Err() = %v, want DeadlineExceeded", err)
	}
	// go ponder waits for ponder-hit, then thinks for the level's time.
	s.send(t, "level move-time=0.05", "go ponder")
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-errs:
		t.Fatalf("the pondering ended by itself: %v", err)
	default:
	}
	s.send(t, "ponder-hit")
	if l := s.next(t); l != "done move=31-26" {
		t.Errorf("after ponder-hit: %q, want done move=31-26", l)
	}
	if err := <-errs; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ponder-hit: ctx.Err() = %v, want DeadlineExceeded", err)
	}
	// quit during a search: no answer, the session ends.
	s.send(t, "go think", "quit")
	if err := <-s.done; err != nil {
		t.Errorf("Serve after quit = %v, want nil", err)
	}
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("quit: ctx.Err() = %v, want Canceled", err)
	}
	if s.out.Scan() {
		t.Errorf("after quit Serve wrote %q", s.out.Text())
	}
	s.in.Close()
	runtimetest.NoGoroutineLeft(t, before, "after the session")
}

// TestServeEndOfInput: the end of the input ends a search and the
// session.
func TestServeEndOfInput(t *testing.T) {
	errs := make(chan error, 1)
	s := startSession(t, untilStopped(errs))
	s.send(t, "go think")
	s.in.Close()
	if err := <-s.done; err != nil {
		t.Errorf("Serve at the end of the input = %v, want nil", err)
	}
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("ctx.Err() = %v, want Canceled", err)
	}
}

// TestServeBadSearch: a search that fails or answers an illegal move is
// replaced by the first legal move, after an error line.
func TestServeBadSearch(t *testing.T) {
	for name, search := range map[string]func(context.Context, Request, func(Info)) (Reply, error){
		"error": func(context.Context, Request, func(Info)) (Reply, error) { return Reply{}, errors.New("broken") },
		"illegal": func(context.Context, Request, func(Info)) (Reply, error) {
			return Reply{Move: draughts.Move{From: 1, To: 2}}, nil
		},
		"panic": func(context.Context, Request, func(Info)) (Reply, error) { panic("bug") },
	} {
		s := startSession(t, search)
		s.send(t, "go think")
		if l := s.next(t); !strings.HasPrefix(l, "error ") {
			t.Errorf("%s: Serve wrote %q, want an error line", name, l)
		}
		if l := s.next(t); l != "done move=31-26" {
			t.Errorf("%s: Serve wrote %q, want done move=31-26", name, l)
		}
		s.in.Close()
		if err := <-s.done; err != nil {
			t.Errorf("%s: Serve = %v", name, err)
		}
	}
}

// TestServeNoMove: go in a position whose side to move has no move (it has
// lost) says so and is done at once, with no move, as Scan answers, so a
// GUI waiting for done does not hang; and level time=0 or move-time=0 (a
// clock run down) asks for the least search, not for none.
func TestServeNoMove(t *testing.T) {
	f := &firstMove{}
	s := startSession(t, f.search)
	// Black to move, its man on 36 blocked by White's on 41 and 47.
	blocked := []byte("B" + strings.Repeat("e", 50))
	blocked[36], blocked[41], blocked[47] = 'b', 'w', 'w'
	s.send(t, "pos pos="+string(blocked), "go think")
	if l := s.next(t); l != `error message="go: the position is over, there is no move to search"` {
		t.Errorf("Serve wrote %q, want the error", l)
	}
	if l := s.next(t); l != "done" {
		t.Errorf("Serve wrote %q, want done", l)
	}
	start := draughts.Start()
	s.send(t, "pos pos="+start.Hub(), "level move-time=0", "go think")
	if l := s.next(t); !strings.HasPrefix(l, "done move=") {
		t.Errorf("Serve wrote %q, want done", l)
	}
	s.send(t, "level time=0", "go think")
	if l := s.next(t); !strings.HasPrefix(l, "done move=") {
		t.Errorf("Serve wrote %q, want done", l)
	}
	s.in.Close()
	if err := <-s.done; err != nil {
		t.Errorf("Serve = %v", err)
	}
	if len(f.reqs) != 2 || f.reqs[0].Limit.MoveTime != time.Millisecond || f.reqs[0].Limit.Allot() != time.Millisecond ||
		f.reqs[1].Limit.Time <= 0 || f.reqs[1].Limit.Allot() != time.Millisecond {
		t.Errorf("the searches' limits = %+v; want move-time=0 and time=0 to allot the least time (1 ms), not no limit", f.reqs)
	}
}
