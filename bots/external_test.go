package bots

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/engine/gtp/gtptest"
)

// TestMain lets the test binary stand in for GTP programs (gtptest.Main):
// "stubborn", that accepts every command and answers genmove with A1
// whatever the position, "slowplayer", which plays C3 after loading for a
// second, and "slowkata", a review program (it lists
// kata-analyze) that reads its first command only after a second.
func TestMain(m *testing.M) {
	gtptest.Main(m, map[string]func([]string) int{"stubborn": player("A1", 0), "slowplayer": player("C3", time.Second), "crasher": crasher, "slowkata": func([]string) int {
		time.Sleep(time.Second) // loading a large network on a CPU
		p := &gtptest.Program{Unknown: func(string, []string) gtptest.Reply { return gtptest.Reply{OK: true} }}
		p.Commands = []gtptest.Command{
			{Name: "protocol_version", Run: gtptest.Answer("2")},
			{Name: "name", Run: gtptest.Answer("slowkata")},
			{Name: "list_commands", Run: func([]string) gtptest.Reply { return gtptest.Reply{OK: true, Text: p.List()} }},
			{Name: "kata-analyze", Run: gtptest.Answer("")},
			{Name: "quit", Run: func([]string) gtptest.Reply { return gtptest.Reply{OK: true, Exit: true} }},
		}
		return p.Serve(os.Stdin, os.Stdout)
	}})
}

// player is a GTP program that loads for load, accepts every command, and
// answers every genmove with move.
func player(move string, load time.Duration) func([]string) int {
	return func([]string) int {
		time.Sleep(load) // loading a large network on a CPU
		p := &gtptest.Program{
			Commands: []gtptest.Command{
				{Name: "protocol_version", Run: gtptest.Answer("2")},
				{Name: "genmove", Run: gtptest.Answer(move)},
				{Name: "quit", Run: func([]string) gtptest.Reply { return gtptest.Reply{OK: true, Exit: true} }},
			},
			Unknown: func(string, []string) gtptest.Reply { return gtptest.Reply{OK: true} },
		}
		return p.Serve(os.Stdin, os.Stdout)
	}
}

// crasher is a GTP program that answers the handshake and exits on
// genmove, as an engine that crashes on its first search does.
func crasher([]string) int {
	p := &gtptest.Program{
		Commands: []gtptest.Command{
			{Name: "protocol_version", Run: gtptest.Answer("2")},
			{Name: "genmove", Run: func([]string) gtptest.Reply { return gtptest.Reply{Exit: true} }},
		},
		Unknown: func(string, []string) gtptest.Reply { return gtptest.Reply{OK: true} },
	}
	return p.Serve(os.Stdin, os.Stdout)
}

// TestExternalFailureOnAClockFallsBack: a GTP program that fails on a
// move on a clock (it crashes on genmove) does not make the bot lose on
// time through retries: the greedy player moves, as docs/operations.md
// promises, and the stand-in is reported. Without a clock (correspondence)
// the failure is returned, for the bot queue to try again.
func TestExternalFailureOnAClockFallsBack(t *testing.T) {
	r, err := NewRegistry(Config{GTPPrograms: map[string]string{"crash": strings.Join(gtptest.Argv("crasher"), " ")}, MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.CheckEngines(context.Background()); err != nil {
		t.Fatalf("CheckEngines = %v, want the handshake answered", err)
	}
	g := position(t, `
		. . . . .
		. . . . .
		. . . . .
		. . O . .
		X . . . .`, engine.White)
	ctx, standIn := WithStandIn(WithMoveTime(context.Background(), 5*time.Second))
	m, err := r.GenMove(ctx, "gtp:crash", g, 1, nil)
	if err != nil || g.Check(m) != nil {
		t.Fatalf("GenMove on a clock of a program that crashes = %v, %v; want the greedy player's legal move", m, err)
	}
	if why := standIn(); why != StandInFailed {
		t.Errorf("stand-in reported %q, want %q", why, StandInFailed)
	}
	if _, err := r.GenMove(context.Background(), "gtp:crash", g, 1, nil); err == nil || !strings.Contains(err.Error(), "bots: crash: genmove W: ") {
		t.Errorf("GenMove without a clock of a program that crashes = %v, want its failure", err)
	}
}

func TestExternalIllegalMoveFallsBack(t *testing.T) {
	e := NewExternal(gtp.Spec{Name: "stubborn", Argv: gtptest.Argv("stubborn")}, gtp.ClientOptions{}, 1)
	defer e.Close()
	g := position(t, `
		. . . . .
		. . . . .
		. . . . .
		. . O . .
		X . . . .`, engine.White)
	// The program insists on A1, which is occupied: the greedy player moves
	// instead, and the move is legal.
	m, err := e.GenMove(context.Background(), g, Budget{})
	if err != nil {
		t.Fatalf("GenMove: %v", err)
	}
	if err := g.Check(m); err != nil {
		t.Errorf("GenMove = %v: %v", m, err)
	}
	if m.String() != "B1" && m.String() != "A2" {
		t.Errorf("GenMove = %v, want the greedy atari B1 or A2", m)
	}
}

// TestExternalSlowStart: a GTP program that plays, and loads for longer
// than the clients' command timeout before it reads its first command (a
// large network on a CPU), gets EngineStartTimeout to start, as a
// reviewing one does: its move is played, not the greedy player's.
func TestExternalSlowStart(t *testing.T) {
	prog := strings.Join(gtptest.Argv("slowplayer"), " ")
	r, err := NewRegistry(Config{GTPPrograms: map[string]string{"slow": prog}, GTP: gtp.ClientOptions{Timeout: 200 * time.Millisecond}, MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := position(t, `
		. . . . .
		. . . . .
		. . . . .
		. . . . .
		. . . . .`, engine.Black)
	m, err := r.GenMove(context.Background(), "gtp:slow", g, 1, nil)
	if err != nil || m.String() != "C3" {
		t.Errorf("GenMove of a program that starts in a second = %v, %v; want its C3", m, err)
	}
}
