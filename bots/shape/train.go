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
	// large holds the large-pattern codes of every candidate, in feats'
	// order, when Large is set.
	large []LargeCodes
	// Large makes the Trainer collect the candidates' large patterns, for
	// TrainLarge; set it before adding games.
	Large bool
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
	var lv largeView
	if t.Large {
		lv.load(b, c)
	}
	for i := range b.EmptyCount() {
		v := b.EmptyVertex(i)
		if !b.Playable(v, c) {
			continue
		}
		if v == played {
			t.chosen = append(t.chosen, len(t.feats))
		}
		t.feats = append(t.feats, Extract(b, v, c, last, last2))
		if t.Large {
			var codes LargeCodes
			lv.codes(v, &codes)
			t.large = append(t.large, codes)
		}
	}
	t.start = append(t.start, len(t.feats))
}

// Train fits a model to the positions collected, in the given number of
// minorization–maximization sweeps (each updates every group once). 3×3
// patterns seen among the candidates fewer than minCount times share one
// gamma. Every gamma has a prior of one win and one loss against a
// gamma of 1, which keeps patterns never played from a gamma of 0.
func (t *Trainer) Train(sweeps, minCount int) *Model {
	return t.train(sweeps, minCount, nil)
}

// TrainLarge fits a model as Train does, with the group Large: its
// dictionary holds the large patterns seen among the candidates at least
// largeCount times (a Trainer with Large set), and a move is rated by the
// largest of them it has.
func (t *Trainer) TrainLarge(sweeps, minCount, largeCount int) *Model {
	return t.train(sweeps, minCount, t.largeDictionary(largeCount))
}

// largeDictionary returns, in increasing order, the codes of the large
// patterns seen among the candidates at least minCount times. A pattern is
// seen at most as often as the smaller ones inside it, so each size counts
// only the candidates whose next smaller pattern is common.
func (t *Trainer) largeDictionary(minCount int) []uint64 {
	dict := []uint64{}
	var prev map[uint64]bool
	for k := range largeN {
		var seen []uint64
		for i := range t.large {
			if k == 0 || prev[t.large[i][k-1]] {
				seen = append(seen, t.large[i][k])
			}
		}
		slices.Sort(seen)
		prev = make(map[uint64]bool)
		for i := 0; i < len(seen); {
			j := i + 1
			for j < len(seen) && seen[j] == seen[i] {
				j++
			}
			if j-i >= minCount {
				prev[seen[i]] = true
				dict = append(dict, seen[i])
			}
			i = j
		}
	}
	slices.Sort(dict)
	return dict
}

// train fits a model as Train, with the dictionary of large patterns
// large (nil for none).
func (t *Trainer) train(sweeps, minCount int, large []uint64) *Model {
	// Index the shapes: common ones get a class each, rare ones class 0.
	patClass, patCodes := t.classes(Pattern, minCount)
	diaClass, diaCodes := t.classes(Diamond, minCount)
	lm := &Model{largeCodes: large}
	// Every feature value as an index into one gamma array per group.
	idx := make([][Groups]int32, len(t.feats))
	for i, f := range t.feats {
		for g := range Groups {
			idx[i][g] = int32(f[g])
		}
		idx[i][Pattern] = patClass[f[Pattern]]
		idx[i][Diamond] = diaClass[f[Diamond]]
		idx[i][Large] = 0
		if large != nil {
			idx[i][Large] = int32(lm.largeClass(&t.large[i]))
		}
	}
	gamma := make([][]float64, Groups)
	for g := range Groups {
		switch g {
		case Pattern:
			gamma[g] = make([]float64, len(patCodes))
		case Diamond:
			gamma[g] = make([]float64, len(diaCodes))
		case Large:
			gamma[g] = make([]float64, len(large)+1)
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
	denom := make([]float64, max(len(patCodes), len(diaCodes), len(large)+1, 64))
	str := make([]float64, len(idx)) // each candidate's strength, once a position
	for range sweeps {
		for g := range Groups {
			if len(gamma[g]) == 1 {
				continue // only "none": nothing to fit
			}
			d := denom[:len(gamma[g])]
			clear(d)
			for p := range t.chosen {
				lo, hi := t.start[p], t.start[p+1]
				var e float64
				for i := lo; i < hi; i++ {
					str[i] = strength(gamma, &idx[i])
					e += str[i]
				}
				for i := lo; i < hi; i++ {
					k := idx[i][g]
					d[k] += str[i] / gamma[g][k] / e
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
	if large != nil {
		m.largeCodes = large
		m.largeGamma = make([]float32, len(large))
		for k := range large {
			m.largeGamma[k] = float32(gamma[Large][k+1])
		}
	}
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
	gamma := func(i int) float32 {
		f := t.feats[i]
		if m.largeCodes != nil && t.large != nil {
			f[Large] = m.largeClass(&t.large[i])
		}
		return m.Gamma(f)
	}
	var hits float64
	for p, c := range t.chosen {
		want := gamma(c)
		better, equal := 0, 0
		for i := t.start[p]; i < t.start[p+1]; i++ {
			switch g := gamma(i); {
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
