package draughts

import (
	"errors"
	"testing"
)

func TestFEN(t *testing.T) {
	tests := []struct {
		in, want string // want: FEN() of the position read
	}{
		{StartFEN, StartFEN},
		{"W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", StartFEN},
		{"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"},
		{"B:B12,16,20,K22,K25,K29:W18,24,27,28,K10,K15", "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"},
		{" w : w 31 - 50 : b 1 - 20 . ", StartFEN},
		{"W:W31-50:B1-20:H0:F1", StartFEN}, // Lidraughts' clock and move number
		{"W:WK1-3:B", "W:WK1,K2,K3:B"},
		{"B:W:B1", "B:W:B1"},
		{"W:W46,47,48,50:B1,2,4", "W:W46-48,50:B1,2,4"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.in)
		if err != nil {
			t.Errorf("ParseFEN(%q) = %v", tt.in, err)
			continue
		}
		if got := p.FEN(); got != tt.want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tt.in, got, tt.want)
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || !q.Equal(&p) || q.Hash() != p.Hash() {
			t.Errorf("ParseFEN(%q) does not read back: %v", p.FEN(), err)
		}
	}
	if s := Start(); s.FEN() != StartFEN {
		t.Errorf("Start().FEN() = %q", s.FEN())
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ in, err string }{
		{"", "draughts: empty FEN: write a position as W:W31-50:B1-20"},
		{"X:W31-50:B1-20", `draughts: FEN "X:W31-50:B1-20": the side to move must be W or B, not "X"`},
		{"W:W31-50", `draughts: FEN "W:W31-50": want the side to move and two colours' pieces joined by ':', as W:W31-50:B1-20`},
		{"W:W31-50:B1-20:B5", `draughts: FEN "W:W31-50:B1-20:B5": want the side to move and two colours' pieces joined by ':', as W:W31-50:B1-20`},
		{"W:W31-50:W1-20", `draughts: FEN "W:W31-50:W1-20": White's pieces are given twice`},
		{"W:W31-50:X1", `draughts: FEN "W:W31-50:X1": a colour's section starts with W or B, not "X"`},
		{"W:W31-50:B1-20,31", `draughts: FEN "W:W31-50:B1-20,31": square 31 is given twice`},
		{"W:W3,31:B10", `draughts: FEN "W:W3,31:B10": a white man on 3 would have been crowned: write K3 for a king`},
		{"W:W31:B48", `draughts: FEN "W:W31:B48": a black man on 48 would have been crowned: write K48 for a king`},
		{"W:W31,51:B1", `draughts: FEN "W:W31,51:B1": square 51 is off the board (1 to 50)`},
		{"W:W0:B1", `draughts: FEN "W:W0:B1": square 0 is off the board (1 to 50)`},
		{"W:Wa3:B1", `draughts: FEN "W:Wa3:B1": "a3" is not a square number (1 to 50)`},
		{"W:W31,,32:B1", `draughts: FEN "W:W31,,32:B1": a square number is missing in White's pieces`},
		{"W:W50-31:B1", `draughts: FEN "W:W50-31:B1": the range 50-31 runs backwards`},
		{"W:W6-26:B1", `draughts: FEN "W:W6-26:B1": White has 21 pieces, and a side has 20 at most`},
	}
	for _, tt := range tests {
		_, err := ParseFEN(tt.in)
		if err == nil || err.Error() != tt.err || !errors.Is(err, ErrFEN) {
			t.Errorf("ParseFEN(%q) = %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestHub(t *testing.T) {
	p := Start()
	want := "W" + "bbbbbbbbbbbbbbbbbbbb" + "eeeeeeeeee" + "wwwwwwwwwwwwwwwwwwww"
	if got := p.Hub(); got != want {
		t.Errorf("Start().Hub() = %q, want %q", got, want)
	}
	q, err := ParseHub(want)
	if err != nil || !q.Equal(&p) {
		t.Errorf("ParseHub(%q) = %v, %v", want, q.FEN(), err)
	}
	for _, bad := range []string{"", "X" + want[1:], want[:50], want[:10] + "x" + want[11:], "W" + "w" + want[2:]} {
		if _, err := ParseHub(bad); !errors.Is(err, ErrFEN) {
			t.Errorf("ParseHub(%q) = %v, want ErrFEN", bad, err)
		}
	}
}
