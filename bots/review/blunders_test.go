package review

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// The blunder set, testdata/blunders/*.sgf, is 9×9 games of GNU Go against
// itself into which one decisive blunder was inserted: a self-atari of a
// group of five stones or more (filling an eye of a group that has two
// counts), or a pass that leaves a group of six or more in atari, where
// GNU Go judged the group alive (dragon_status) and the blunderer not
// behind by more than 4 points (estimate_score) before the blunder, and
// the blunderer lost the game GNU Go played out.
// Each record's root comment names the blunder ("blunder 23: ..."). The set
// is made again with
//
//	go test ./bots/review/ -run TestBlunderSet -blunders
//
// (GNU Go at /usr/games/gnugo), and the review's accuracy over it is
// measured with
//
//	GOBOT_REVIEW_ACCURACY=1 go test ./bots/review/ -run TestBlunderAccuracy -v
var (
	makeBlunders = flag.Bool("blunders", false, "regenerate testdata/blunders with GNU Go")
	blundersOut  = flag.String("blunders-out", "testdata/blunders", "where -blunders writes the set")
)

const blunderDir = "testdata/blunders"

// blunderNote reads the blunder's move number from a record's root comment.
var blunderNote = regexp.MustCompile(`^blunder (\d+): `)

func TestBlunderSet(t *testing.T) {
	if !*makeBlunders {
		t.Skip("regenerates the blunder set only with -blunders")
	}
	gnugo, err := exec.LookPath("/usr/games/gnugo")
	if err != nil {
		t.Skip("GNU Go is not installed")
	}
	if err := os.MkdirAll(*blundersOut, 0o755); err != nil {
		t.Fatal(err)
	}
	c := gtp.NewClient(gtp.Spec{Name: "gnugo", Argv: []string{gnugo, "--mode", "gtp", "--level", "1", "--chinese-rules"}}, gtp.ClientOptions{})
	defer c.Close()
	ctx := context.Background()
	made := 0
	for seed := int64(1); made < 24 && seed < 400; seed++ {
		g, note, ok, err := blunderGame(ctx, c, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		var buf bytes.Buffer
		if err := engine.WriteSGF(&buf, g, engine.SGFInfo{PB: "GNU Go", PW: "GNU Go", C: note}); err != nil {
			t.Fatal(err)
		}
		made++
		name := filepath.Join(*blundersOut, fmt.Sprintf("%02d.sgf", made))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		res, _ := g.Result()
		t.Logf("%s (seed %d): %s, %v", name, seed, note, res)
	}
	if made < 20 {
		t.Fatalf("only %d games with a decisive blunder", made)
	}
}

// blunderGame plays one game of GNU Go against itself from a few random
// opening moves, inserts a blunder where the position allows one and the
// blunderer was not already losing by GNU Go's estimate, and plays the game
// out. It reports ok when the blunderer lost.
func blunderGame(ctx context.Context, c *gtp.Client, seed int64) (*engine.Game, string, bool, error) {
	rng := rand.New(rand.NewSource(seed))
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err != nil {
		return nil, "", false, err
	}
	for i := 0; i < 3; i++ {
		legal := g.Legal()
		if err := g.Play(engine.PlaceAt(g.ToPlay(), legal[rng.Intn(len(legal))])); err != nil {
			return nil, "", false, err
		}
	}
	note := ""
	var blunderer engine.Color
	from := 12 + rng.Intn(20)
	for g.MoveCount() < 160 && !g.Over() {
		if note == "" && g.MoveCount() >= from {
			for _, b := range findBlunders(g) {
				alive, err := dragonAlive(ctx, c, g, b.group)
				if err != nil {
					return nil, "", false, err
				}
				if !alive {
					continue
				}
				ahead, err := leadOf(ctx, c, g, g.ToPlay())
				if err != nil {
					return nil, "", false, err
				}
				if ahead <= -4 {
					break
				}
				blunderer = g.ToPlay()
				note = fmt.Sprintf("blunder %d: %s %v, %s (the group was alive and the blunderer led by %.1f by GNU Go's judgement)",
					g.MoveCount()+1, name(blunderer), b.move, b.what, ahead)
				if err := g.Play(b.move); err != nil {
					return nil, "", false, err
				}
				break
			}
			if note != "" {
				continue
			}
		}
		m, err := c.GenMove(ctx, g, 0)
		if err != nil {
			return nil, "", false, err
		}
		if err := g.Play(m); err != nil {
			return nil, "", false, err
		}
	}
	if note == "" {
		return nil, "", false, nil
	}
	if res, over := g.Result(); over {
		return g, note, res.Winner == blunderer.Opponent(), nil
	}
	winner, margin, err := c.FinalScore(ctx, g)
	if err != nil {
		return nil, "", false, err
	}
	if err := g.End(engine.Result{Winner: winner, Reason: engine.ByScore, Margin: margin}); err != nil {
		return nil, "", false, err
	}
	return g, note, winner == blunderer.Opponent(), nil
}

// leadOf returns c's lead by GNU Go's estimate_score.
func leadOf(ctx context.Context, cl *gtp.Client, g *engine.Game, c engine.Color) (float64, error) {
	if err := cl.Sync(ctx, g); err != nil {
		return 0, err
	}
	ans, err := cl.Command(ctx, 30*time.Second, "estimate_score")
	if err != nil {
		return 0, err
	}
	winner, margin, err := gtp.ParseScore(strings.Fields(ans)[0])
	if err != nil {
		return 0, err
	}
	if winner != c {
		margin = -margin
	}
	return margin, nil
}

// blunder is a decisive mistake the player to move could make: move, which
// loses the group of the stone at group, and what it is.
type blunder struct {
	move  engine.Move
	group engine.Point
	what  string
}

// findBlunders lists the decisive blunders the player to move could make:
// a move that puts a group of five or more of its stones in atari
// (self-atari) where the opponent can take it at once, or, when such a
// group of six or more is in atari already and could escape, a pass
// instead of saving it.
func findBlunders(g *engine.Game) []blunder {
	b := g.Board()
	c := g.ToPlay()
	n := g.Size()
	var out []blunder
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			p := engine.Point{Col: col, Row: r}
			v := b.Vertex(p)
			if b.ColorAt(v) != c || b.ChainSize(v) < 6 || !b.InAtari(v) || b.Chain(v) != v {
				continue
			}
			lib := b.Point(b.AtariLiberty(v))
			if g.Check(engine.PlaceAt(c, lib)) != nil {
				continue
			}
			nb := *b
			nb.Play(b.Vertex(lib), c)
			if nb.Liberties(nb.Vertex(lib), 3) >= 3 {
				out = append(out, blunder{engine.PassMove(c), p, fmt.Sprintf("a pass that leaves %d stones in atari (%v saves them)", b.ChainSize(v), lib)})
			}
		}
	}
	for _, p := range g.Legal() {
		v := b.Vertex(p)
		if b.WouldCapture(v, c) {
			continue
		}
		nb := *b
		nb.Play(v, c)
		if nb.ChainSize(v) < 5 || !nb.InAtari(v) {
			continue
		}
		lib := nb.Point(nb.AtariLiberty(v))
		after := g.Clone()
		if after.Play(engine.PlaceAt(c, p)) != nil || after.Check(engine.PlaceAt(c.Opponent(), lib)) != nil {
			continue
		}
		// The group as it stood before the move: any of its old stones.
		var old engine.Point
		found := false
		for _, w := range b.Neighbours(v) {
			if b.ColorAt(w) == c {
				old, found = b.Point(w), true
				break
			}
		}
		if !found {
			continue
		}
		out = append(out, blunder{engine.PlaceAt(c, p), old, fmt.Sprintf("a self-atari of %d stones (%v takes them)", nb.ChainSize(v), lib)})
	}
	return out
}

// dragonAlive reports whether GNU Go judges the group at p alive.
func dragonAlive(ctx context.Context, cl *gtp.Client, g *engine.Game, p engine.Point) (bool, error) {
	if err := cl.Sync(ctx, g); err != nil {
		return false, err
	}
	ans, err := cl.Command(ctx, 30*time.Second, "dragon_status "+p.String())
	if err != nil {
		return false, err
	}
	return strings.HasPrefix(strings.TrimSpace(ans), "alive"), nil
}

// blunderSet reads the set: each game with the number of its blunder.
func blunderSet(t *testing.T) (names []string, games []*engine.Game, blunders []int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(blunderDir, "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no blunder set in %s: %v", blunderDir, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m := blunderNote.FindStringSubmatch(info.C)
		if m == nil {
			t.Fatalf("%s: root comment %q names no blunder", f, info.C)
		}
		n, _ := strconv.Atoi(m[1])
		names, games, blunders = append(names, filepath.Base(f)), append(games, g), append(blunders, n)
	}
	return names, games, blunders
}

// TestBlunderAccuracy reviews every game of the blunder set with the
// built-in engine at its review budget and counts the games whose blunder
// is among the blunderer's mistakes: all but one in 24 must be (24 of 24
// since losses are measured between positions with the same player to
// move and judged again with a second seed; 23 before, with the median
// of the losses around each move taken off; 24 before the review counted
// settled positions, issue 34).
func TestBlunderAccuracy(t *testing.T) {
	if testing.Short() || os.Getenv("GOBOT_REVIEW_ACCURACY") == "" {
		t.Skip("set GOBOT_REVIEW_ACCURACY=1 (and no -short) to measure the review's accuracy")
	}
	names, games, blunders := blunderSet(t)
	found, byWinrate := 0, 0
	for i, g := range games {
		r, err := Run(context.Background(), g, MCTS{Seed: 1}, nil)
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		c := r.Moves[blunders[i]-1].Color
		hit := false
		var named []string
		for _, m := range r.Mistakes {
			if m.Color != c {
				continue
			}
			named = append(named, fmt.Sprintf("%d (%.0f points, %.0f%%)", m.Number, m.Loss, 100*(m.Before-m.After)))
			hit = hit || m.Number == blunders[i]
		}
		if hit {
			found++
		}
		// For comparison: the three biggest drops of winning chance.
		wrHit := false
		movers := make([]engine.Color, len(r.Moves))
		for k, m := range r.Moves {
			movers[k] = m.Color
		}
		for _, m := range SelectMistakes(r.Winrates(), movers, MistakesPerPlayer, MinLoss) {
			wrHit = wrHit || m.Color == c && m.Number == blunders[i]
		}
		if wrHit {
			byWinrate++
		}
		t.Logf("%s: blunder %d; mistakes named %s; found %v (by winning chance alone %v)", names[i], blunders[i], strings.Join(named, ", "), hit, wrHit)
	}
	t.Logf("the blunder was named in %d of %d games (by the drop of winning chance alone it would be %d)", found, len(games), byWinrate)
	if need := len(games) - (len(games)+23)/24; found < need {
		t.Errorf("the blunder was named in %d of %d games, want at least %d", found, len(games), need)
	}
}
