package bots_test

import (
	"context"
	"fmt"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine"
)

// A registry offers the built-in levels and any configured engines, and
// plays each move through its limiter.
func ExampleRegistry() {
	reg, err := bots.NewRegistry(bots.Config{MaxSearches: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	for _, l := range reg.Levels() {
		fmt.Printf("%-8s %s\n", l.Name, l.Description)
	}

	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		fmt.Println(err)
		return
	}
	queued := func(position int) { fmt.Printf("the bot is busy, your move is queued (position %d)\n", position) }
	m, err := reg.GenMove(context.Background(), "easy", g, g.Seed(), queued)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("legal:", g.Play(m) == nil)
	// Output:
	// beginner about 30 kyu · random moves that never fill its own eyes: anyone can win.
	// easy     about 25 kyu · greedy: captures what it can, saves stones in atari, otherwise random.
	// casual   about 23 kyu · reads one move in five with a small search, plays greedy otherwise.
	// steady   about 20 kyu · reads nearly half its moves with a small search, greedy otherwise.
	// keen     about 17 kyu · reads most moves with a small search, plays greedy otherwise.
	// medium   about 13 kyu · minimax over Monte Carlo readings: beats GNU Go level 1 two games in three.
	// strong   about 11 kyu · Monte Carlo tree search of 4,000 playouts a move.
	// tough    about 9 kyu · Monte Carlo tree search of 12,000 playouts a move.
	// hard     about 6 kyu · Monte Carlo tree search, 1 s a move: beats GNU Go level 10 on 9×9.
	// max      about 3 kyu · Monte Carlo tree search, 3 s a move: the strongest built-in level.
	// legal: true
}

// The built-in players can also be used directly, with a budget of their
// own; with a seed and a node budget the minimax player is deterministic.
func ExampleMinimax() {
	g, err := engine.NewGame(engine.Config{Size: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	bot := bots.NewMinimax(1)
	m, err := bot.GenMove(context.Background(), g, bots.Budget{Playouts: 2000})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Color, g.Check(m) == nil)
	// Output: black true
}
