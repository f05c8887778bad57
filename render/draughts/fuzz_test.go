package draughts

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"sync"
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// FuzzBoard draws random positions with options made from arbitrary
// bytes: a random route and captures, or, half the time, a legal move of
// the position played. Every call must either fail with one of the
// package's errors, writing nothing, or write a PNG of the size asked for.
// It never panics.
func FuzzBoard(f *testing.F) {
	f.Add(uint64(1), int16(0), []byte{1, 2, 3, 4, 5, 6})
	f.Add(uint64(2), int16(300), []byte{200, 3, 7, 9, 0, 0, 1})
	f.Add(uint64(3), int16(-5), []byte{})
	f.Add(uint64(4), int16(2048), []byte{255, 255, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint64(5), int16(2049), []byte{46, 5, 0, 0})
	f.Fuzz(func(t *testing.T, seed uint64, px int16, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			v := int(data[0])
			data = data[1:]
			return v
		}
		p := randomPosition(seed)
		opts := Options{Size: int(px), Flip: next()%2 == 1}
		if next()%2 == 0 {
			// A legal move, played, as Game draws it.
			if moves := p.Generate(nil); len(moves) > 0 {
				m := moves[next()%len(moves)]
				opts.Last = p.Path(m)
				for _, q := range m.Captured.Squares() {
					if p.At(q).King() {
						opts.TakenKings |= rules.SetOf(q)
					}
				}
				p.Play(m)
			}
		} else {
			for i := next() % 5; i > 0; i-- {
				opts.Last.Squares = append(opts.Last.Squares, rules.Square(next()%53))
			}
			for i := next() % 4; i > 0; i-- {
				opts.Last.Taken |= rules.SetOf(rules.Square(next() % 51))
			}
			opts.TakenKings = rules.Set(uint64(next()) * 0x0123456789)
		}
		var buf bytes.Buffer
		err := Board(&buf, &p, opts)
		if err != nil {
			if !errors.Is(err, ErrImageSize) && !errors.Is(err, ErrBadMove) {
				t.Fatalf("Board = %v, not one of the package's errors", err)
			}
			if buf.Len() > 0 {
				t.Fatalf("Board = %v after writing %d bytes", err, buf.Len())
			}
			return
		}
		cfg, err := png.DecodeConfig(&buf)
		if err != nil {
			t.Fatalf("png.DecodeConfig = %v", err)
		}
		want, _ := pixels(opts.Size)
		if cfg.Width != want || cfg.Height != want {
			t.Fatalf("picture %d×%d, want %d×%d", cfg.Width, cfg.Height, want, want)
		}
	})
}

// randomPosition scatters up to 20 pieces of each colour, men (never on
// their crowning row) and kings, with either side to move.
func randomPosition(seed uint64) rules.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var p rules.Position
	count := [2]int{}
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		v := rng.IntN(10)
		if v >= 6 {
			continue
		}
		x := []rules.Piece{rules.WhiteMan, rules.BlackMan, rules.WhiteMan, rules.BlackMan, rules.WhiteKing, rules.BlackKing}[v]
		c := x.Color()
		if count[c] == 20 || (x == rules.WhiteMan && s <= 5) || (x == rules.BlackMan && s >= 46) {
			continue
		}
		count[c]++
		p.Put(s, x)
	}
	p.SetTurn(rules.Color(rng.IntN(2)))
	return p
}

// TestRandomGames draws every position of random games, each move with
// its arrow, and checks that the pieces are where the rules put them.
func TestRandomGames(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		p := rules.Start()
		for ply := 0; ply < 60; ply++ {
			moves := p.Generate(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			opts := Options{Last: p.Path(m), Flip: ply%2 == 1}
			p.Play(m)
			var buf bytes.Buffer
			if err := Board(&buf, &p, opts); err != nil {
				t.Fatalf("seed %d, ply %d (%v): Board = %v", seed, ply, opts.Last, err)
			}
			if ply%10 != 9 {
				continue
			}
			img := decodePNG(t, buf.Bytes())
			l := newLayout(DefaultPixels, opts.Flip)
			for s := rules.Square(1); s <= rules.NumSquares; s++ {
				if got, want := look(img, &l, s), wantLook(p.At(s)); got != want {
					t.Errorf("seed %d, ply %d (%s): square %d looks %q, want %q", seed, ply, p.FEN(), s, got, want)
				}
			}
		}
	}
}

// TestConcurrent draws from several goroutines at once, on a cache of
// its own so that the palette and the kits are built while others wait,
// and checks each picture against the same one drawn alone. Run with
// -race.
func TestConcurrent(t *testing.T) {
	type job struct {
		p    rules.Position
		opts Options
	}
	var jobs []job
	for i := 0; i < 12; i++ {
		p := randomPosition(uint64(i))
		opts := Options{Flip: i%2 == 1, Size: []int{0, 512, 300}[i%3]}
		if moves := p.Generate(nil); len(moves) > 0 {
			m := moves[i%len(moves)]
			opts.Last = p.Path(m)
			p.Play(m)
		}
		jobs = append(jobs, job{p, opts})
	}
	saved := shared
	shared = newCache()
	defer func() { shared = saved }()
	got := make([][]byte, len(jobs))
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Go(func() {
			for i := range jobs {
				j := jobs[(i+w*3)%len(jobs)]
				var buf bytes.Buffer
				if err := Board(&buf, &j.p, j.opts); err != nil {
					t.Errorf("Board = %v", err)
					return
				}
				if w == 0 {
					got[(i+w*3)%len(jobs)] = buf.Bytes()
				}
			}
		})
	}
	wg.Wait()
	for i, j := range jobs {
		var buf bytes.Buffer
		if err := Board(&buf, &j.p, j.opts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), got[i]) {
			t.Errorf("picture %d drawn concurrently differs from the same drawn alone", i)
		}
	}
}

// randomState plays up to n random legal moves from the start, through
// the checked door, stopping early if the game ends.
func randomState(tb testing.TB, n int, seed uint64) rules.State {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	s := play(tb, "")
	for i := 0; i < n; i++ {
		legal := s.Legal()
		if len(legal) == 0 {
			break
		}
		next, _, err := s.PlayMove(s.ToMove(), string(legal[rng.IntN(len(legal))]))
		if err != nil {
			tb.Fatalf("PlayMove = %v", err)
		}
		s = next
	}
	return s
}

// TestComposeMatchesFull checks the compositor's shortcuts (cached
// squares, only the arrow's tiles redrawn) against the plain way: every
// sprite and the arrow drawn over the whole board in full colour, then
// quantised whole. The two must agree to the pixel.
func TestComposeMatchesFull(t *testing.T) {
	for i := 0; i < 24; i++ {
		p := randomPosition(uint64(100 + i))
		opts := Options{Flip: i%2 == 1, Size: []int{0, MinPixels, 333, 1000}[i%4]}
		if moves := p.Generate(nil); len(moves) > 0 {
			m := moves[i%len(moves)]
			opts.Last = p.Path(m)
			p.Play(m)
		}
		sc, err := newScene(&p, &opts)
		if err != nil {
			t.Fatal(err)
		}
		img, err := shared.render(sc, &opts)
		if err != nil {
			t.Fatal(err)
		}
		px, _ := pixels(opts.Size)
		k, err := shared.kit(px, opts.Flip)
		if err != nil {
			t.Fatal(err)
		}
		full := image.NewRGBA(k.bg.Rect)
		copy(full.Pix, k.bg.Pix)
		k.draw(full, sc)
		want := image.NewPaletted(full.Rect, k.q.Pal)
		k.q.Quantize(want, full, full.Rect)
		if !bytes.Equal(img.Pix, want.Pix) {
			n := 0
			for j := range want.Pix {
				if want.Pix[j] != img.Pix[j] {
					n++
				}
			}
			t.Errorf("position %d (%s, %v, %d px, flip %v): %d pixels differ from the full redraw", i, p.FEN(), opts.Last, px, opts.Flip, n)
		}
		raster.PutPaletted(img)
	}
}

// TestPNGBudget draws crowded random positions, a third of their pieces
// kings, each with its longest legal move's arrow, from both sides: every
// picture must stay within the budget of 100 KB.
func TestPNGBudget(t *testing.T) {
	const budget = 100 << 10
	largest := 0
	for i := 0; i < 40; i++ {
		p := randomPosition(uint64(1000 + i))
		opts := Options{Flip: i%2 == 1}
		var best rules.Route
		for _, m := range p.Generate(nil) {
			if r := p.Path(m); len(r.Squares) > len(best.Squares) || (len(r.Squares) == len(best.Squares) && m.Captured.Count() > best.Taken.Count()) {
				best = r
			}
		}
		if len(best.Squares) > 0 {
			opts.Last = best
			p.Play(best.Move())
		}
		var buf bytes.Buffer
		if err := Board(&buf, &p, opts); err != nil {
			t.Fatal(err)
		}
		largest = max(largest, buf.Len())
		if buf.Len() > budget {
			t.Errorf("%s after %v: %d bytes, over the budget of %d", p.FEN(), best, buf.Len(), budget)
		}
	}
	t.Logf("largest picture: %d bytes", largest)
}
