package review

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// The 19×19 graph set, testdata/hard19/*.sgf, is games of the built-in
// search against itself with the options of the hard level (bots.levels:
// shape prior, self-atari in the playouts, a collected tree of 1M nodes,
// varied openings) at a fixed budget of hard19Playouts playouts a move on
// one thread, so that the games do not depend on the machine's load; each
// side's search keeps its tree between moves, as the level does. Each
// record's result is GNU Go's final_score. The set is made again with
//
//	go test ./bots/review/ -run TestHard19Set -hard19 -timeout 3h
//
// (it makes only the games missing), and then each game's cached judged
// series, NN.graph, with TestGraphHard19 -graph-cache.
var makeHard19 = flag.Bool("hard19", false, "regenerate testdata/hard19 (hard against hard on 19×19)")

const (
	hard19Dir      = "testdata/hard19"
	hard19Games    = 10
	hard19Playouts = 4000
)

func TestHard19Set(t *testing.T) {
	if !*makeHard19 {
		t.Skip("regenerates the 19×19 graph set only with -hard19")
	}
	if err := os.MkdirAll(hard19Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var referee *gtp.Client
	if gnugo, err := exec.LookPath("/usr/games/gnugo"); err == nil {
		referee = gtp.NewClient(gtp.Spec{Name: "gnugo", Argv: []string{gnugo, "--mode", "gtp", "--chinese-rules"}}, gtp.ClientOptions{})
		defer referee.Close()
	}
	ctx := context.Background()
	for i := 1; i <= hard19Games; i++ {
		name := filepath.Join(hard19Dir, fmt.Sprintf("%02d.sgf", i))
		if _, err := os.Stat(name); err == nil {
			continue
		}
		g, err := engine.NewGame(engine.Config{Size: 19, Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		side := map[engine.Color]*mcts.Searcher{}
		for k, c := range []engine.Color{engine.Black, engine.White} {
			side[c] = mcts.NewSearcher(mcts.Options{Seed: int64(100*i + k), Threads: 1, MaxNodes: 1 << 20, Collect: true,
				Vary: 30, Shape: true, SelfAtari: true, ResignThreshold: -1})
		}
		for !g.Over() && g.MoveCount() < 600 {
			m, err := side[g.ToPlay()].GenMove(ctx, g, 0, hard19Playouts)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		info := engine.SGFInfo{PB: "gobot hard", PW: "gobot hard",
			C: fmt.Sprintf("hard against hard at %d playouts a move", hard19Playouts)}
		if referee != nil && g.PlayEnded() {
			winner, margin, err := referee.FinalScore(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.End(engine.Result{Winner: winner, Reason: engine.ByScore, Margin: margin}); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := engine.WriteSGF(&buf, g, info); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		res, _ := g.Result()
		t.Logf("%s: %d moves, %v", name, g.MoveCount(), res)
	}
}
