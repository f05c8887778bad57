package shape

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

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

	// The dictionary of large patterns, for a model that rates them
	// (nil for one that does not): the canonical codes (LargeCodes) in
	// increasing order, the gamma of each, and the same by code.
	largeCodes []uint64
	largeGamma []float32
	largeIndex *largeTable
	// empty holds, by board size, the gammas of the large patterns of an
	// empty board (emptyLarge).
	empty *[engine.MaxSize + 1]emptyLarge
}

// emptyLarge is the gamma of every vertex's large patterns on an empty
// board of one size, computed on first use.
type emptyLarge struct {
	once  sync.Once
	gamma []float32
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
	if m.largeCodes != nil {
		m.largeIndex = newLargeTable(m.largeCodes, m.largeGamma)
		m.empty = new([engine.MaxSize + 1]emptyLarge)
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
	if k := f[Large]; k > 0 && int(k) <= len(m.largeGamma) {
		g *= m.largeGamma[k-1]
	}
	return g
}

// Extract returns the features of c playing at v as Extract does, with
// the Large value of m's dictionary when m rates large patterns.
func (m *Model) Extract(b *engine.Board, v int, c engine.Color, last, last2 int) Features {
	f := Extract(b, v, c, last, last2)
	if m.largeCodes != nil {
		var codes LargeCodes
		ComputeLargeCodes(b, v, c, &codes)
		f[Large] = m.largeClass(&codes)
	}
	return f
}

// PatternWeights returns the gamma of every raw 3×3 code
// (engine.Board.Neighbourhood) of a move of Black, for weighing the
// playouts' shape answers (playout.Policy.Shape). The table is shared: do
// not change it.
func (m *Model) PatternWeights() *[1 << 16]float32 { return &m.rawPattern }

// moveGamma returns m.Gamma(m.Extract(b, v, c, last, last2)), exactly,
// without the canonical forms of the pattern and the diamond; lv holds b
// seen by c when m rates large patterns.
func (m *Model) moveGamma(b *engine.Board, v int, c engine.Color, last, last2 int, lv *largeView) float32 {
	raw := rawDiamond(b, v, c)
	var f Features
	tactics(&f, b, v, c, last, last2)
	g := m.tacticsGamma(m.rawPattern[uint16(raw)], &f)
	if d, ok := m.rawDiamond[raw]; ok {
		g *= d
	}
	if m.largeIndex != nil {
		g *= m.largeGammaAt(lv, v)
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
	var lv *largeView
	if m.largeIndex != nil {
		lv = new(largeView) // on the stack
		lv.load(b, c)
	}
	var sum float32
	for i, v := range moves {
		p[i] = m.moveGamma(b, v, c, last, last2, lv)
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
func (m *Model) WriteGo(w io.Writer) { m.writeGo(w, "learned") }

// writeGo writes m's tables as WriteGo, their names starting with name;
// with the dictionary of large patterns when m has one.
func (m *Model) writeGo(w io.Writer, name string) {
	fmt.Fprintf(w, "// %sRare is the gamma of the 3×3 patterns too rare to have their own.\n", name)
	fmt.Fprintf(w, "const %sRare = %.4g\n\n", name, m.rare)
	fmt.Fprintf(w, "// %sPatterns are the gammas of canonical 3×3 codes.\n", name)
	fmt.Fprintf(w, "var %sPatterns = map[uint16]float32{\n", name)
	for k, g := range m.pattern {
		if g != 0 {
			fmt.Fprintf(w, "\t%#04x: %.4g,\n", k, g)
		}
	}
	fmt.Fprintf(w, "}\n\n// %sDiamonds are the gammas of the common canonical diamonds.\n", name)
	fmt.Fprintf(w, "var %sDiamonds = map[uint32]float32{\n", name)
	for _, k := range slices.Sorted(maps.Keys(m.diamond)) {
		fmt.Fprintf(w, "\t%#06x: %.4g,\n", k, m.diamond[k])
	}
	fmt.Fprintf(w, "}\n\n// %sGammas are the gammas of the other groups' values.\n", name)
	fmt.Fprintf(w, "var %sGammas = [Groups][]float32{\n", name)
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
	if m.largeCodes == nil {
		return
	}
	fmt.Fprintf(w, "\n// %sCodes are the canonical codes of the large patterns of the dictionary\n", name)
	fmt.Fprintf(w, "// (ComputeLargeCodes), in increasing order.\n")
	fmt.Fprintf(w, "var %sCodes = []uint64{\n", name)
	writeRows(w, m.largeCodes, 4, "%#016x,")
	fmt.Fprintf(w, "}\n\n// %sCodeGammas are the gammas of %sCodes.\n", name, name)
	fmt.Fprintf(w, "var %sCodeGammas = []float32{\n", name)
	writeRows(w, m.largeGamma, 8, "%.4g,")
	fmt.Fprintf(w, "}\n")
}

// writeRows writes xs as the lines of a slice literal, per values a line,
// each in format.
func writeRows[T any](w io.Writer, xs []T, per int, format string) {
	for i := 0; i < len(xs); i += per {
		fmt.Fprint(w, "\t")
		for j, x := range xs[i:min(i+per, len(xs))] {
			if j > 0 {
				fmt.Fprint(w, " ")
			}
			fmt.Fprintf(w, format, x)
		}
		fmt.Fprint(w, "\n")
	}
}

// groupConst names the groups' constants, for WriteGo.
var groupConst = [Groups]string{"Pattern", "Capture", "Escape", "SelfAtari", "Atari", "Last", "Last2", "Line", "Diamond", "Large"}
