package render

import (
	"fmt"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

func TestAltText(t *testing.T) {
	resigned := playGame(t, 13, 0, "D4 K10")
	if err := resigned.Play(engine.ResignMove(engine.Black)); err != nil {
		t.Fatal(err)
	}
	scored := playGame(t, 9, 0, "E5 pass pass")
	if err := scored.End(engine.Result{Winner: engine.White, Reason: engine.ByScore, Margin: 6.5}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		g    *engine.Game
		want string
	}{
		{playGame(t, 9, 0, ""), "9×9 board, empty, Black to play"},
		{playGame(t, 9, 0, "E5"), "9×9 board, move 1, White to play, last move Black E5"},
		{playGame(t, 19, 4, ""), "19×19 board, 4 handicap stones, White to play"},
		{playGame(t, 19, 4, "R14 pass"), "19×19 board, 4 handicap stones, move 2, White to play, last move Black passed"},
		{playGame(t, 9, 0, "E5 pass pass"), "9×9 board, move 3, both players passed, counting the score"},
		{resigned, "13×13 board, game over after 2 moves, White wins by resignation"},
		{scored, "9×9 board, game over after 3 moves, White wins by 6.5 points"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := AltText(tt.g); got != tt.want {
			t.Errorf("AltText = %q, want %q", got, tt.want)
		}
	}
}

// TestAltTextEnded: a game whose result does not say how it ended (one
// annulled on time) is described by how it ended, with no winner.
func TestAltTextEnded(t *testing.T) {
	g := playGame(t, 9, 0, "E5")
	if err := g.End(engine.Result{Winner: engine.Black, Reason: engine.ByTime}); err != nil {
		t.Fatal(err)
	}
	if got, want := AltTextEnded(g, "annulled on time, not counted"), "9×9 board, game over after 1 move, annulled on time, not counted"; got != want {
		t.Errorf("AltTextEnded = %q, want %q", got, want)
	}
	if got, want := AltText(g), "9×9 board, game over after 1 move, Black wins on time"; got != want {
		t.Errorf("AltText = %q, want %q", got, want)
	}
}

func ExampleAltText() {
	g, _ := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	for _, s := range []string{"E5", "C3", "G7"} {
		m, _ := engine.ParseMove(g.ToPlay(), s, 9)
		g.Play(m)
	}
	fmt.Println(AltText(g))
	// Output: 9×9 board, move 3, White to play, last move Black G7
}
