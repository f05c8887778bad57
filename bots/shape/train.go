package shape

import (
	"fmt"
	"slices"

	"github.com/gobot-dev/gobot/engine"
)

// Trainer collects the positions of game records and fits a Model to the
// moves played in them. It is not safe for concurrent use.
type Trainer struct {
	feats  []Features // the candidates of every position, position after position
	start  []int      // position i's candidates are feats[start[i]:start[i+1]]
	chosen []int      // index in feats of the move played in position i
}

// NewTrainer returns an empty Trainer.
func NewTrainer() *Trainer { return &Trainer{start: []int{0}} }

// Positions returns the number of positions collected.
func (t *Trainer) Positions() int { return len(t.chosen) }

// Candidates returns the number of candidate moves collected.
func (t *Trainer) Candidates() int { return len(t.feats) }

// AddGame adds every position of g's main line in which a stone was placed:
// the move played, against every other move its player could have chosen
// (Board.Playable). A move that fills what the playout test calls an eye is
// left out, since no search considers it.
func (t *Trainer) AddGame(g *engine.Game) error {
	b, err := engine.NewBoard(g.Size())
	if err != nil {
		return err
	}
	for _, s := range g.Setup() {
		b.SetStone(s.Point, s.Color)
	}
	last, last2 := engine.PassVertex, engine.PassVertex
	for i, m := range g.Moves() {
		v := engine.PassVertex
		if m.Kind == engine.Place {
			v = b.Vertex(m.Point)
			if !b.Legal(v, m.Color) {
				return fmt.Errorf("shape: move %d (%v) is not legal", i+1, m)
			}
			if b.Playable(v, m.Color) {
				t.addPosition(b, v, m.Color, last, last2)
			}
			b.Play(v, m.Color)
		}
		last, last2 = v, last
	}
	return nil
}

func (t *Trainer) addPosition(b *engine.Board, played int, c engine.Color, last, last2 int) {
	for i := range b.EmptyCount() {
		v := b.EmptyVertex(i)
		if !b.Playable(v, c) {
			continue
		}
		if v == played {
			t.chosen = append(t.chosen, len(t.feats))
		}
		t.feats = append(t.feats, Extract(b, v, c, last, last2))
	}
	t.start = append(t.start, len(t.feats))
}

// Train fits a model to the positions collected, in the given number of
// minorization–maximization sweeps (each updates every group once). 3×3
// patterns seen among the candidates fewer than minCount times share one
// gamma. Every gamma has a prior of one win and one loss against a
// gamma of 1, which keeps patterns never played from a gamma of 0.
func (t *Trainer) Train(sweeps, minCount int) *Model {
	// Index the shapes: common ones get a class each, rare ones class 0.
	patClass, patCodes := t.classes(Pattern, minCount)
	diaClass, diaCodes := t.classes(Diamond, minCount)
	// Every feature value as an index into one gamma array per group.
	idx := make([][Groups]int32, len(t.feats))
	for i, f := range t.feats {
		for g := range Groups {
			idx[i][g] = int32(f[g])
		}
		idx[i][Pattern] = patClass[f[Pattern]]
		idx[i][Diamond] = diaClass[f[Diamond]]
	}
	gamma := make([][]float64, Groups)
	for g := range Groups {
		switch g {
		case Pattern:
			gamma[g] = make([]float64, len(patCodes))
		case Diamond:
			gamma[g] = make([]float64, len(diaCodes))
		default:
			gamma[g] = make([]float64, Sizes[g])
		}
	}
	wins := make([][]float64, Groups)
	for g := range gamma {
		for k := range gamma[g] {
			gamma[g][k] = 1
		}
		wins[g] = make([]float64, len(gamma[g]))
		for _, c := range t.chosen {
			wins[g][idx[c][g]]++
		}
	}
	denom := make([]float64, max(len(patCodes), len(diaCodes), 64))
	for range sweeps {
		for g := range Groups {
			d := denom[:len(gamma[g])]
			clear(d)
			for p := range t.chosen {
				lo, hi := t.start[p], t.start[p+1]
				var e float64
				for i := lo; i < hi; i++ {
					e += strength(gamma, &idx[i])
				}
				for i := lo; i < hi; i++ {
					k := idx[i][g]
					d[k] += strength(gamma, &idx[i]) / gamma[g][k] / e
				}
			}
			for k := range gamma[g] {
				if g != Pattern && k == 0 {
					continue // "none" (and rare diamonds) stay at 1, the reference
				}
				gamma[g][k] = (wins[g][k] + 1) / (d[k] + 2/(gamma[g][k]+1))
			}
		}
	}

	m := &Model{rare: float32(gamma[Pattern][0]), diamond: make(map[uint32]float32)}
	for k, c := range patCodes[1:] {
		m.pattern[c] = float32(gamma[Pattern][k+1])
	}
	for k, c := range diaCodes[1:] {
		m.diamond[c] = float32(gamma[Diamond][k+1])
	}
	for g := Pattern + 1; g < Diamond; g++ {
		m.gamma[g] = make([]float32, len(gamma[g]))
		for k := range gamma[g] {
			m.gamma[g][k] = float32(gamma[g][k])
		}
	}
	return m.index()
}

// classes numbers the codes of group g (Pattern or Diamond) seen among the
// candidates at least minCount times from 1, in increasing order; the
// others are class 0. It returns the classes and each class's code.
func (t *Trainer) classes(g, minCount int) (class map[uint32]int32, codes []uint32) {
	count := make(map[uint32]int)
	for _, f := range t.feats {
		count[f[g]]++
	}
	for code, n := range count {
		if n >= minCount {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	codes = append([]uint32{0}, codes...) // class 0: the rare ones
	class = make(map[uint32]int32, len(codes))
	for k, code := range codes[1:] {
		class[code] = int32(k + 1)
	}
	return class, codes
}

func strength(gamma [][]float64, f *[Groups]int32) float64 {
	s := 1.0
	for g, k := range f {
		s *= gamma[g][k]
	}
	return s
}

// Accuracy returns the share of the positions collected in which m gives
// the move played the highest strength (a tie for the highest counts as
// that share of a hit).
func (t *Trainer) Accuracy(m *Model) float64 {
	if len(t.chosen) == 0 {
		return 0
	}
	var hits float64
	for p, c := range t.chosen {
		want := m.Gamma(t.feats[c])
		better, equal := 0, 0
		for _, f := range t.feats[t.start[p]:t.start[p+1]] {
			switch g := m.Gamma(f); {
			case g > want:
				better++
			case g == want:
				equal++
			}
		}
		if better == 0 {
			hits += 1 / float64(equal)
		}
	}
	return hits / float64(len(t.chosen))
}
