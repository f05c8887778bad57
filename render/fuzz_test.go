package render

import (
	"bytes"
	"errors"
	"image/png"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// FuzzBoard draws boards with options made from arbitrary bytes: every
// call must either fail with one of the package's errors, writing
// nothing, or write a PNG of the size asked for. It never panics.
func FuzzBoard(f *testing.F) {
	f.Add(uint8(9), int16(0), uint8(0), []byte{1, 2, 3, 4, 5, 6})
	f.Add(uint8(19), int16(300), uint8(1), []byte{200, 3, 7, 9, 0, 0, 1})
	f.Add(uint8(2), int16(-5), uint8(5), []byte{})
	f.Add(uint8(25), int16(2048), uint8(2), []byte{255, 255, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, size uint8, px int16, theme uint8, data []byte) {
		n := int(size)%(engine.MaxSize-engine.MinSize+1) + engine.MinSize
		b, err := engine.NewBoard(n)
		if err != nil {
			t.Fatal(err)
		}
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			v := int(data[0])
			data = data[1:]
			return v
		}
		point := func() engine.Point { return engine.Point{Col: next() - 3, Row: next() - 3} }
		// Half the bytes place stones, the rest become options.
		for i := next() % 32; i > 0; i-- {
			if p := point(); p.Valid(n) {
				b.SetStone(p, engine.Color(1+next()%2))
			}
		}
		opts := Options{Size: int(px), Theme: Theme(theme % 4), HideKo: next()%2 == 0}
		opts.LastMove = engine.Move{Color: engine.Color(next() % 3), Kind: engine.MoveKind(next() % 3), Point: point()}
		for i := next() % 4; i > 0; i-- {
			opts.Dead = append(opts.Dead, point())
		}
		if next()%2 == 1 {
			opts.Owner = make([]engine.Color, n*n+next()%2)
			for i := range opts.Owner {
				opts.Owner[i] = engine.Color(next() % 4)
			}
		}
		if k := next() % 4; k > 0 {
			opts.Numbers = map[engine.Point]int{}
			for ; k > 0; k-- {
				opts.Numbers[point()] = next()*37 - 100
			}
		}
		var buf bytes.Buffer
		err = Board(&buf, b, opts)
		if err != nil {
			known := []error{ErrImageSize, ErrUnknownTheme, ErrOffBoard, ErrOwnerLength, ErrBadNumber}
			ok := false
			for _, k := range known {
				ok = ok || errors.Is(err, k)
			}
			if !ok {
				t.Fatalf("Board = %v, not one of the package's errors", err)
			}
			if buf.Len() != 0 {
				t.Fatalf("Board wrote %d bytes and failed: %v", buf.Len(), err)
			}
			return
		}
		cfg, err := png.DecodeConfig(&buf)
		if err != nil {
			t.Fatalf("png.DecodeConfig = %v", err)
		}
		want := opts.Size
		if want == 0 {
			want = DefaultPixels
		}
		if cfg.Width != want || cfg.Height != want {
			t.Fatalf("picture %d×%d, want %d×%d", cfg.Width, cfg.Height, want, want)
		}
	})
}
