package goroom

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestStonesAt: the stones a scoring message names, chain by chain, the
// chains of first leading, clipped at stonesListed points with the rest
// counted, so that a toggle of many groups keeps the board's text short.
func TestStonesAt(t *testing.T) {
	eg, err := engine.NewGame(engine.Config{Size: 19})
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) engine.Point {
		p, err := engine.ParsePoint(s, 19)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var stones []engine.Point
	place := func(ps ...string) {
		for _, s := range ps {
			if err := eg.Play(engine.PlaceAt(engine.Black, pt(s))); err != nil {
				t.Fatal(err)
			}
			if err := eg.Play(engine.PassMove(engine.White)); err != nil {
				t.Fatal(err)
			}
			stones = append(stones, pt(s))
		}
	}
	// Two chains and a stone: B4 C4 D4, E5 F5 G5, and K10.
	place("B4", "C4", "D4", "E5", "F5", "G5", "K10")
	bd := eg.Board()
	for _, tt := range []struct {
		ps, first []engine.Point
		want      string
	}{
		{stones[6:], stones[6:], "the black stone at K10"},
		{stones[3:6], stones[4:5], "the 3 black stones at E5 F5 G5"},
		{stones[:6], stones[4:5], "the 6 black stones at E5 F5 G5 and B4 C4 D4"},
		{stones, stones[6:], "the 7 black stones at K10, B4 C4 D4 and E5 F5 G5"},
		{stones, nil, "the 7 black stones at B4 C4 D4, E5 F5 G5 and K10"},
		{stones, []engine.Point{stones[4], stones[6]}, "the 7 black stones at E5 F5 G5, K10 and B4 C4 D4"},
	} {
		if got := stonesAt(bd, tt.ps, tt.first); got != tt.want {
			t.Errorf("stonesAt(%v, first %v) = %q, want %q", tt.ps, tt.first, got, tt.want)
		}
	}

	// A long chain is clipped: the first row of 19 stones, then a
	// second chain of 19 on the third row.
	eg, err = engine.NewGame(engine.Config{Size: 19})
	if err != nil {
		t.Fatal(err)
	}
	stones = nil
	for _, row := range []string{"1", "3"} {
		for _, col := range "ABCDEFGHJKLMNOPQRST" {
			place(string(col) + row)
		}
	}
	want := "the 38 black stones at A3 B3 C3 D3 E3 F3 G3 H3 J3 K3 L3 M3 N3 O3 P3 Q3 R3 S3 T3, " +
		"A1 B1 C1 D1 E1 F1 G1 H1 J1 K1 L1 and 8 more"
	if got := stonesAt(eg.Board(), stones, stones[19:20]); got != want {
		t.Errorf("stonesAt(two rows) = %q, want %q", got, want)
	}
}
