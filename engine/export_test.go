package engine

// Presets is the rulesets by name, for the external tests (package
// engine_test), which draw their positions with enginetest and so cannot be
// part of package engine.
var Presets = presets

// SetCaptures sets the prisoners each player has taken, as if the game had
// captured them, for the external tests of scoring.
func SetCaptures(g *Game, black, white int) {
	g.board.caps[Black], g.board.caps[White] = black, white
}
