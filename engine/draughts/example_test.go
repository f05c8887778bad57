package draughts_test

import (
	"fmt"
	"os"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

// A search uses the fast door: generate into a buffer, copy, play.
func ExamplePosition() {
	p := draughts.Start()
	buf := make([]draughts.Move, 0, draughts.MaxMoves)
	moves := p.Generate(buf)
	fmt.Println(len(moves), "moves, the first", moves[0])
	q := p // copy-make: p stays as it was
	q.Play(moves[0])
	fmt.Println(q.FEN(), q.Hash() != p.Hash())
	fmt.Println(draughts.Perft(p, 4))
	// Output:
	// 9 moves, the first 31-26
	// B:W26,32-50:B1-20 true
	// 4265
}

// People and the core use the checked door.
func ExampleState() {
	s, _ := draughts.NewState(game.Options{"fen": "W:W32,34:B27,29,19"}, 0)
	fmt.Println(s.Legal())
	_, _, err := s.Play(0, "32x21")
	fmt.Println(err)
	next, facts, _ := s.Play(0, "34x14")
	fmt.Println(facts[0].Text, next.ToMove())
	// Output:
	// [34x14]
	// draughts: 32x21 takes 1 piece, but 34x23x14 takes 2: the maximum capture is compulsory
	// White 34x14 captures 2 pieces 1
}

func ExampleWritePDN() {
	s, _ := draughts.NewState(nil, 0)
	for _, m := range []string{"32-28", "19-23", "28x19", "14x23"} {
		s, _, _ = s.PlayMove(s.ToMove(), m)
	}
	draughts.WritePDN(os.Stdout, draughts.NewPDNGame(s, draughts.Tag{Name: "White", Value: "Ann"}, draughts.Tag{Name: "Black", Value: "Bob"}))
	// Output:
	// [White "Ann"]
	// [Black "Bob"]
	// [Result "*"]
	// [GameType "20"]
	//
	// 1. 32-28 19-23 2. 28x19 14x23 *
}
