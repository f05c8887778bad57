package engine

// Color is the content of a point and the side to move.
type Color int8

// The colours. Empty is the zero value; border is used only inside Board for
// the padding around the playing area.
const (
	Empty Color = iota
	Black
	White
	border
)

// Opponent returns the other player's colour; it returns Empty for Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	}
	return "border"
}

// Letter returns "B" for Black, "W" for White and "." otherwise, as used in
// SGF properties and in results such as B+3.5.
func (c Color) Letter() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return "."
}

// ParseColor reads a colour as GTP and SGF write it: "b", "black", "w" or
// "white", in any case.
func ParseColor(s string) (Color, error) {
	switch lower(s) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, ErrInvalidColor
}

// lower is an ASCII-only strings.ToLower that does not allocate for input
// that is already lower case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
