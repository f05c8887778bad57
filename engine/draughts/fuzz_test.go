package draughts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"32-28", "28x19", "28x19x10", " 3 x 14 x 28 x 17 ", "32–28", "0-5", "51-46", "", "x", "3x17x9x19x22", "32x28", "abc", "1-2-3-4-5-6-7-8-9"} {
		f.Add(s)
	}
	start, _ := NewState(nil, 0)
	amb, _ := NewState(game.Options{"fen": "W:WK3:B9,19,22,24"}, 0)
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range []State{start, amb} {
			for side := game.Side(-1); side <= 2; side++ {
				m, err := s.ParseMove(side, text)
				if err != nil {
					if !strings.HasPrefix(err.Error(), "draughts: ") || Code(err) == "" {
						t.Fatalf("ParseMove(%q) = %v: not a draughts error", text, err)
					}
					continue
				}
				// A parsed move parses to itself.
				if again, err := s.ParseMove(side, string(m)); err != nil || again != m {
					t.Fatalf("ParseMove(%q) = %q, which parses to %q, %v", text, m, again, err)
				}
				if _, _, err := s.Play(side, m); err != nil && Code(err) == "" {
					t.Fatalf("Play(%q) = %v: not a draughts error", m, err)
				}
			}
		}
	})
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{StartFEN, "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "W:W31-50:B1-20:H0:F1", "W:WK1-3:B", "W:W3:B1", "W:W31,51:B1", "", "::", "W:W50-31:B1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			if !errors.Is(err, ErrFEN) || !strings.HasPrefix(err.Error(), "draughts: ") {
				t.Fatalf("ParseFEN(%q) = %v, not an ErrFEN", fen, err)
			}
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || !q.Equal(&p) || q.Hash() != p.Hash() {
			t.Fatalf("ParseFEN(%q).FEN() = %q does not read back: %v", fen, p.FEN(), err)
		}
		for c := White; c <= Black; c++ {
			if p.Men(c)&Set(promotion[c]) != 0 || p.Pieces(c).Count() > 20 {
				t.Fatalf("ParseFEN(%q) = %s: an impossible position", fen, p.FEN())
			}
		}
		// The generator copes with any position FEN accepts.
		p.Generate(make([]Move, 0, MaxMoves))
	})
}

func FuzzReadPDN(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pdn"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"1. 32-28 19-23 2-0", "[Result \"1-1\"]\n*", "{", "(", "[", "[FEN \"W:WK3:B9,19,22,24\"]\n1. 3x14x28x17 *", "1... 32-28"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := ParsePDN(data)
		if err != nil {
			var pe *PDNError
			if !errors.As(err, &pe) || !errors.Is(err, ErrPDN) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("ParsePDN = %v: not a *PDNError with a position", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WritePDN(&b, games...); err != nil {
			t.Fatal(err)
		}
		again, err := ParsePDN(b.Bytes())
		if err != nil {
			t.Fatalf("ParsePDN(WritePDN(...)) = %v\n%s", err, b.Bytes())
		}
		if len(again) != len(games) {
			t.Fatalf("%d games after a round trip, want %d", len(again), len(games))
		}
		for i := range games {
			if !slices.Equal(games[i].State.Moves(), again[i].State.Moves()) || games[i].Result != again[i].Result {
				t.Fatalf("game %d differs after a round trip", i+1)
			}
		}
	})
}
