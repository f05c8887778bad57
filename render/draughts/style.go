package draughts

import "image/color"

// pieceStyle is how the pieces of one colour are drawn: a disc with a
// rim, a face lit from above and a groove inside the rim, as turned wooden
// draughtsmen are.
type pieceStyle struct {
	rim       color.NRGBA // the disc's edge
	face      color.NRGBA // the face, at the bottom
	highlight color.NRGBA // the face, at the top
	groove    color.NRGBA // the turned ring inside the rim
	shine     color.NRGBA // the lit side of the groove
	outline   color.NRGBA // a thin line round the disc (alpha 0: none)
}

// style is the board's look, in the spirit of the Go board's Wood theme:
// light maple and dark walnut squares with a fine straight grain, ivory
// and ebony pieces, gold crowns and a green arrow for the last move.
type style struct {
	light, lightGrain color.NRGBA // light squares
	dark, darkGrain   color.NRGBA // dark squares, where play happens
	frame, frameLine  color.NRGBA // the border round the squares
	number            color.NRGBA // square numbers on the dark squares
	shadow            float64     // peak opacity of a piece's shadow
	white, black      pieceStyle
	crown, crownLine  color.NRGBA
	arrow             color.NRGBA // the last move; its alpha is its opacity
	fade              float64     // opacity of a captured piece
}

func rgb(r, g, b uint8) color.NRGBA     { return color.NRGBA{r, g, b, 255} }
func rgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }

// wood is the only look so far: the light squares a paler cousin of the
// Go board's Wood theme, the dark ones of its Walnut, the pieces shaded
// like its stones.
var wood = style{
	light:      rgb(232, 196, 128),
	lightGrain: rgb(212, 168, 96),
	dark:       rgb(150, 96, 54),
	darkGrain:  rgb(128, 78, 42),
	frame:      rgb(96, 58, 28),
	frameLine:  rgb(44, 26, 10),
	number:     rgb(248, 228, 196),
	shadow:     0.45,
	white: pieceStyle{
		rim:       rgb(200, 186, 160),
		face:      rgb(236, 228, 210),
		highlight: rgb(255, 252, 244),
		groove:    rgb(186, 170, 142),
		shine:     rgb(255, 255, 250),
		outline:   rgba(70, 50, 30, 170),
	},
	black: pieceStyle{
		rim:       rgb(18, 16, 16),
		face:      rgb(34, 31, 30),
		highlight: rgb(78, 72, 68),
		groove:    rgb(10, 9, 9),
		shine:     rgb(96, 90, 86),
		outline:   rgba(0, 0, 0, 200),
	},
	crown:     rgb(240, 188, 48),
	crownLine: rgb(92, 58, 8),
	arrow:     rgba(40, 170, 70, 220),
	fade:      0.4,
}

// pieceStyle returns the style of the pieces of a colour.
func (st *style) pieceStyle(black bool) *pieceStyle {
	if black {
		return &st.black
	}
	return &st.white
}
