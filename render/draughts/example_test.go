package draughts_test

import (
	"bytes"
	"fmt"
	"net/http"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	render "github.com/gobot-dev/gobot/render/draughts"
)

// A handler draws the game after each move, from the side of the player
// who is to move next, with a description for screen readers.
func ExampleGame() {
	s, _ := rules.NewState(nil, 0)
	for _, m := range []string{"32-28", "19-23", "28x19"} {
		s, _, _ = s.PlayMove(s.ToMove(), m)
	}
	var png bytes.Buffer
	if err := render.Game(&png, s, render.Options{Flip: s.ToMove() == 1}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(http.DetectContentType(png.Bytes()), png.Len() < 100<<10)
	fmt.Println(render.AltText(s))
	// Output:
	// image/png true
	// Black to move; White 20 men, Black 19 men; last move 28x19
}

// Board draws a bare position, here one typed as PDN FEN, with an arrow
// for a move.
func ExampleBoard() {
	p, _ := rules.ParseFEN("W:W32,34:B27,29,19")
	m, _ := p.ParseMove("34x14")
	route := p.Path(m) // 34x23x14, before the move is played
	p.Play(m)
	var png bytes.Buffer
	err := render.Board(&png, &p, render.Options{Last: route})
	fmt.Println(route, err)
	// Output:
	// 34x23x14 <nil>
}
