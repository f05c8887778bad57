package bots

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// TestMain lets the test binary stand in for a GTP program that accepts
// every command and answers genmove with A1 whatever the position: run with
// the first argument "-fake-gtp", it serves GTP instead of running tests.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "-fake-gtp" {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			f := strings.Fields(in.Text())
			if len(f) < 2 {
				continue
			}
			id, cmd := f[0], f[1]
			answer := ""
			switch cmd {
			case "protocol_version":
				answer = "2"
			case "genmove":
				answer = "A1"
			case "quit":
				fmt.Printf("=%s\n\n", id)
				os.Exit(0)
			}
			fmt.Printf("=%s %s\n\n", id, answer)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestExternalIllegalMoveFallsBack(t *testing.T) {
	e := NewExternal(gtp.Spec{Name: "stubborn", Argv: []string{os.Args[0], "-fake-gtp"}}, gtp.ClientOptions{}, 1)
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
