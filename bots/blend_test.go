package bots

import (
	"context"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// fixedBot always plays the same point.
type fixedBot struct{ p engine.Point }

func (f fixedBot) Name() string { return "fixed " + f.p.String() }

func (f fixedBot) GenMove(_ context.Context, g *engine.Game, _ Budget) (engine.Move, error) {
	return engine.PlaceAt(g.ToPlay(), f.p), nil
}

// A blend asks its strong bot for about the given share of its moves, the
// weak one for the rest, and repeats its choices with the same seed.
func TestBlendShare(t *testing.T) {
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	strong, weak := fixedBot{engine.Point{Col: 4, Row: 4}}, fixedBot{engine.Point{Col: 0, Row: 0}}
	moves := func(seed int64) []engine.Move {
		b := NewBlend("blend", strong, weak, 0.3, seed)
		var ms []engine.Move
		for range 1000 {
			m, err := b.GenMove(context.Background(), g, Budget{})
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
		}
		return ms
	}
	first := moves(9)
	n := 0
	for _, m := range first {
		if m.Point == strong.p {
			n++
		}
	}
	if n < 250 || n > 350 {
		t.Errorf("the strong bot played %d of 1000 moves, want about 300", n)
	}
	again := moves(9)
	for i := range first {
		if first[i] != again[i] {
			t.Fatalf("move %d: seed 9 played %v, then %v", i+1, first[i], again[i])
		}
	}
}
