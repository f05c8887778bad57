package mcts_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// A searcher plays both sides of a game, reusing its tree from move to move,
// until the game ends by passes or resignation.
func Example() {
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err != nil {
		panic(err)
	}
	e := mcts.NewSearcher(mcts.Options{Seed: 1, Threads: 1})
	for !g.Over() && g.MoveCount() < 4 {
		m, err := e.GenMove(context.Background(), g, time.Second, 500)
		if err != nil {
			panic(err)
		}
		if err := g.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(g.MoveCount(), "moves")
	// Output: 4 moves
}
