package render

import (
	"fmt"
	"image/color"
	"strings"
)

// Theme is a look for the board: its wood, lines, labels and stones. The
// zero Theme is Wood. Every theme keeps black and white stones clearly
// apart and reads on Discord's light and dark themes alike, because the
// picture is opaque and its edge is the board itself.
type Theme int8

// The themes.
const (
	// Wood is a warm, light kaya board with a fine straight grain and
	// shaded slate and shell stones: the default.
	Wood Theme = iota
	// Walnut is a darker, redder wood that sits quietly in Discord's dark
	// theme; the white stones stand out more than on Wood.
	Walnut
	// Paper is a flat, printed-diagram look: off-white paper, black lines
	// and outlined stones, for those who prefer book diagrams.
	Paper
	numThemes
)

// ThemeNames lists the theme names as ParseTheme reads them, default first.
var ThemeNames = []string{"wood", "walnut", "paper"}

// String returns the theme's name: "wood", "walnut" or "paper".
func (t Theme) String() string {
	if t < 0 || t >= numThemes {
		return fmt.Sprintf("Theme(%d)", int(t))
	}
	return ThemeNames[t]
}

// ParseTheme reads a theme name in any case; "" is the default Wood.
func ParseTheme(name string) (Theme, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return Wood, nil
	}
	for i, s := range ThemeNames {
		if s == n {
			return Theme(i), nil
		}
	}
	return 0, fmt.Errorf("theme %q (want one of %s): %w", name, strings.Join(ThemeNames, ", "), ErrUnknownTheme)
}

func (t Theme) valid() bool { return t >= 0 && t < numThemes }

// stoneStyle is how one colour of stone is shaded: a radial gradient from
// a highlight towards the upper left to the edge colour, and an optional
// thin outline that keeps the stone's edge crisp against the board.
type stoneStyle struct {
	highlight, mid, edge color.NRGBA
	outline              color.NRGBA // alpha 0: none
	text                 color.NRGBA // move numbers and markers on this stone
	accent               color.NRGBA // the last move's number on this stone
}

// style is everything a theme decides.
type style struct {
	wood       color.NRGBA // the board's base colour
	woodDark   color.NRGBA // the colour of the grain's late-wood lines
	grain      float64     // 0 for a flat board
	light      float64     // how much lighter the left edge is than the right
	line       color.NRGBA // grid lines and star points
	label      color.NRGBA // coordinates and numbers on empty points
	shadow     float64     // peak opacity of a stone's shadow, 0 for none
	black      stoneStyle
	white      stoneStyle
	territoryB color.NRGBA
	territoryW color.NRGBA
	terrEdge   color.NRGBA // outline of the white territory squares
	ko         color.NRGBA
}

func rgb(r, g, b uint8) color.NRGBA     { return color.NRGBA{r, g, b, 255} }
func rgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }

var styles = [numThemes]style{
	Wood: {
		wood:     rgb(222, 178, 98),
		woodDark: rgb(196, 144, 68),
		grain:    1,
		light:    0.05,
		line:     rgb(40, 26, 8),
		label:    rgba(60, 38, 12, 255),
		shadow:   0.42,
		black: stoneStyle{
			highlight: rgb(112, 112, 116), mid: rgb(40, 40, 44), edge: rgb(10, 10, 12),
			text: rgb(245, 245, 245), accent: rgb(255, 186, 60),
		},
		white: stoneStyle{
			highlight: rgb(255, 255, 255), mid: rgb(242, 240, 234), edge: rgb(196, 192, 182),
			outline: rgba(90, 78, 60, 150),
			text:    rgb(16, 16, 16), accent: rgb(208, 32, 24),
		},
		territoryB: rgb(16, 16, 18),
		territoryW: rgb(250, 250, 248),
		terrEdge:   rgba(60, 50, 40, 200),
		ko:         rgba(20, 14, 6, 235),
	},
	Walnut: {
		wood:     rgb(178, 118, 70),
		woodDark: rgb(140, 86, 48),
		grain:    0.8,
		light:    0.06,
		line:     rgb(30, 16, 4),
		label:    rgba(250, 232, 205, 255),
		shadow:   0.5,
		black: stoneStyle{
			highlight: rgb(124, 124, 130), mid: rgb(44, 44, 48), edge: rgb(10, 10, 12),
			outline: rgba(235, 215, 190, 70),
			text:    rgb(245, 245, 245), accent: rgb(255, 186, 60),
		},
		white: stoneStyle{
			highlight: rgb(255, 255, 255), mid: rgb(244, 242, 236), edge: rgb(200, 196, 188),
			text: rgb(16, 16, 16), accent: rgb(208, 32, 24),
		},
		territoryB: rgb(12, 12, 14),
		territoryW: rgb(250, 250, 248),
		terrEdge:   rgba(30, 20, 10, 200),
		ko:         rgba(250, 240, 220, 240),
	},
	Paper: {
		wood:     rgb(250, 248, 242),
		woodDark: rgb(250, 248, 242),
		line:     rgba(30, 30, 30, 255),
		label:    rgba(40, 40, 40, 255),
		black: stoneStyle{
			// Flat, as printed: a dark gradient would show the palette's steps.
			highlight: rgb(22, 22, 22), mid: rgb(22, 22, 22), edge: rgb(22, 22, 22),
			text: rgb(250, 250, 250), accent: rgb(255, 186, 60),
		},
		white: stoneStyle{
			highlight: rgb(255, 255, 255), mid: rgb(255, 255, 255), edge: rgb(255, 255, 255),
			outline: rgba(20, 20, 20, 255),
			text:    rgb(16, 16, 16), accent: rgb(208, 32, 24),
		},
		territoryB: rgb(20, 20, 20),
		territoryW: rgb(255, 255, 255),
		terrEdge:   rgba(20, 20, 20, 255),
		ko:         rgba(20, 20, 20, 255),
	},
}
