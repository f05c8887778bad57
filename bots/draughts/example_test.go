package draughts_test

import (
	"context"
	"fmt"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/engine/draughts"
)

// The Discord layer's door: a registry of levels, and a move of one of
// them for a game's state, in the notation State.Play takes.
func ExampleRegistry_GenMove() {
	reg, err := dbots.NewRegistry(dbots.Config{})
	if err != nil {
		panic(err)
	}
	defer reg.Close()
	for _, l := range reg.Levels()[:2] {
		fmt.Printf("%s: %s\n", l.Name, l.Description)
	}
	s, err := draughts.NewState(nil, 1)
	if err != nil {
		panic(err)
	}
	// White plays 32-28, Black 19-23: White must take.
	for _, m := range []string{"32-28", "19-23"} {
		if s, _, err = s.PlayMove(s.ToMove(), m); err != nil {
			panic(err)
		}
	}
	m, err := reg.GenMove(context.Background(), "hard", s, 42)
	if err != nil {
		panic(err)
	}
	fmt.Println("hard plays", m)
	// Output:
	// beginner: random legal moves (it captures when it must): anyone can win.
	// novice: greedy on a third of its moves, random otherwise: beats beginner 85%.
	// hard plays 28x19
}

// A search of its own, with its statistics: a shot found.
func ExampleSearcher_Search() {
	// 40-34 29x40 38x27: White gives a man and takes two.
	p, err := draughts.ParseFEN("W:W32,38,40,42,45,49:B22,23,29,33")
	if err != nil {
		panic(err)
	}
	s := dbots.NewSearcher(dbots.Options{Threats: 1})
	res, err := s.Search(context.Background(), dbots.NewGame(p), dbots.Budget{Depth: 6})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Move, res.Score > 100)
	// Output: 40-34 true
}
