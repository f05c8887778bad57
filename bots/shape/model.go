package shape

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/gobot-dev/gobot/engine"
)

// Model holds the gamma of every feature value. The zero Model is not
// usable: build one with Train or take Learned. A built Model is only read,
// so it is safe for concurrent use (every search thread shares Learned).
type Model struct {
	// pattern holds the gammas of canonical 3×3 codes; 0 for a code seen
	// too rarely to be rated, which takes rare instead.
	pattern [1 << 16]float32
	rare    float32
	// diamond holds the gammas of the common canonical diamonds; the
	// others have 1.
	diamond map[uint32]float32
	// gamma[g][k] is the gamma of value k of group g (g > Pattern); value
	// 0 has gamma 1.
	gamma [Groups][]float32

	// The same gammas by the codes of the board as it stands (rawDiamond),
	// so that a move's need no canonical form: rawPattern holds every 3×3
	// code's (rare ones included), rawDiamond every symmetric form of the
	// common diamonds. Built by index.
	rawPattern [1 << 16]float32
	rawDiamond map[uint32]float32
}

// index builds m's tables by raw code from its canonical ones.
func (m *Model) index() *Model {
	for k := range m.rawPattern {
		m.rawPattern[k] = m.pattern[canonical[k]]
		if m.rawPattern[k] == 0 {
			m.rawPattern[k] = m.rare
		}
	}
	m.rawDiamond = make(map[uint32]float32, 8*len(m.diamond))
	for k, g := range m.diamond {
		for sym := range 8 {
			m.rawDiamond[transformDiamond(k, sym)] = g
		}
	}
	return m
}

// Gamma returns the strength of a move with features f.
func (m *Model) Gamma(f Features) float32 {
	g := m.pattern[f[Pattern]]
	if g == 0 {
		g = m.rare
	}
	g = m.tacticsGamma(g, &f)
	if d, ok := m.diamond[f[Diamond]]; ok {
		g *= d
	}
	return g
}

// PatternWeights returns the gamma of every raw 3×3 code
// (engine.Board.Neighbourhood) of a move of Black, for weighing the
// playouts' shape answers (playout.Policy.Shape). The table is shared: do
// not change it.
func (m *Model) PatternWeights() *[1 << 16]float32 { return &m.rawPattern }

// moveGamma returns Gamma(Extract(b, v, c, last, last2)), exactly, without
// the canonical forms of the pattern and the diamond.
func (m *Model) moveGamma(b *engine.Board, v int, c engine.Color, last, last2 int) float32 {
	raw := rawDiamond(b, v, c)
	var f Features
	tactics(&f, b, v, c, last, last2)
	g := m.tacticsGamma(m.rawPattern[uint16(raw)], &f)
	if d, ok := m.rawDiamond[raw]; ok {
		g *= d
	}
	return g
}

// tacticsGamma returns g times the gammas of f's groups between Pattern
// and Diamond, in the groups' order.
func (m *Model) tacticsGamma(g float32, f *Features) float32 {
	for i := Pattern + 1; i < Diamond; i++ {
		if k := f[i]; k != 0 {
			g *= m.gamma[i][k]
		}
	}
	return g
}

// Probabilities sets p[i] to the probability that moves[i] is chosen
// among moves (vertices where c may play, passes excluded) on b, after
// the opponent's move at last and c's own at last2, and returns p. It
// reuses p's storage when it is big enough.
func (m *Model) Probabilities(p []float32, b *engine.Board, moves []int, c engine.Color, last, last2 int) []float32 {
	if cap(p) < len(moves) {
		p = make([]float32, len(moves))
	}
	p = p[:len(moves)]
	var sum float32
	for i, v := range moves {
		p[i] = m.moveGamma(b, v, c, last, last2)
		sum += p[i]
	}
	if sum > 0 {
		for i := range p {
			p[i] /= sum
		}
	}
	return p
}

// WriteGo writes m as the Go declarations of the learned tables that
// Learned is built from (see gen).
func (m *Model) WriteGo(w io.Writer) {
	fmt.Fprintf(w, "// learnedRare is the gamma of the 3×3 patterns too rare to have their own.\n")
	fmt.Fprintf(w, "const learnedRare = %.4g\n\n", m.rare)
	fmt.Fprintf(w, "// learnedPatterns are the gammas of canonical 3×3 codes.\n")
	fmt.Fprintf(w, "var learnedPatterns = map[uint16]float32{\n")
	for k, g := range m.pattern {
		if g != 0 {
			fmt.Fprintf(w, "\t%#04x: %.4g,\n", k, g)
		}
	}
	fmt.Fprintf(w, "}\n\n// learnedDiamonds are the gammas of the common canonical diamonds.\n")
	fmt.Fprintf(w, "var learnedDiamonds = map[uint32]float32{\n")
	for _, k := range slices.Sorted(maps.Keys(m.diamond)) {
		fmt.Fprintf(w, "\t%#06x: %.4g,\n", k, m.diamond[k])
	}
	fmt.Fprintf(w, "}\n\n// learnedGammas are the gammas of the other groups' values.\n")
	fmt.Fprintf(w, "var learnedGammas = [Groups][]float32{\n")
	for g := Pattern + 1; g < Diamond; g++ {
		fmt.Fprintf(w, "\t%s: {", groupConst[g])
		for k, x := range m.gamma[g] {
			if k > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "%.4g", x)
		}
		fmt.Fprintf(w, "},\n")
	}
	fmt.Fprintf(w, "}\n")
}

// groupConst names the groups' constants, for WriteGo.
var groupConst = [Groups]string{"Pattern", "Capture", "Escape", "SelfAtari", "Atari", "Last", "Last2", "Line", "Diamond"}
