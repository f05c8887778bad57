package review

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

func TestZZDebug(t *testing.T) {
	for _, f := range []string{"02", "03", "04"} {
		data, _ := os.ReadFile("/tmp/blunders/" + f + ".sgf")
		g, info, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(context.Background(), g, MCTS{Seed: 1, Playouts: 1200}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := f + " " + info.C[:40] + ":"
		for i, p := range r.Positions {
			s += fmt.Sprintf(" %d:%.0f/%.0f", i, 100*p.Winrate, p.Score)
		}
		t.Log(s)
	}
}
