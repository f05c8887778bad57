package render_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render"
)

// A handler draws the position after a move and posts the PNG with its
// alt text as the attachment's description.
func ExampleGame() {
	g, _ := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	for _, s := range []string{"E5", "C3", "G7", "D7"} {
		m, _ := engine.ParseMove(g.ToPlay(), s, 9)
		g.Play(m)
	}
	var buf bytes.Buffer
	if err := render.Game(&buf, g, render.Options{Numbers: render.MoveNumbers(g, 2)}); err != nil {
		fmt.Println(err)
		return
	}
	cfg, _ := png.DecodeConfig(&buf)
	fmt.Printf("%d×%d PNG: %s\n", cfg.Width, cfg.Height, render.AltText(g))
	// Output: 800×800 PNG: 9×9 board, move 4, Black to play, last move White D7
}
