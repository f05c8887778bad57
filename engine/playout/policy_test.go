package playout

import (
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

func TestRandChance(t *testing.T) {
	r := NewRand(1)
	same := r
	if r.Chance(0) || !r.Chance(1) || r.Chance(-1) || !r.Chance(2) {
		t.Fatal("Chance(0 or less) = true or Chance(1 or more) = false")
	}
	if got, want := r.Uint64(), same.Uint64(); got != want {
		t.Errorf("after Chance(0) and Chance(1), Uint64 = %#x, want %#x (no number drawn)", got, want)
	}
	hits := 0
	for i := 0; i < 10000; i++ {
		if r.Chance(0.25) {
			hits++
		}
	}
	if hits < 2250 || hits > 2750 {
		t.Errorf("Chance(0.25) true %d times in 10000", hits)
	}
	for _, n := range []int{1, 2, 7, 361} {
		for i := 0; i < 1000; i++ {
			if k := r.Intn(n); k < 0 || k >= n {
				t.Fatalf("Intn(%d) = %d", n, k)
			}
		}
	}
	if a, b := NewStream(5, 0), NewStream(5, 1); a == b {
		t.Errorf("NewStream(5, 0) = NewStream(5, 1)")
	}
	if a, b := NewRand(5), NewRand(6); a == b {
		t.Errorf("NewRand(5) = NewRand(6)")
	}
}

// TestPolicyAnswers checks each answer of the policy alone, at weight 1,
// with the opponent's last move at the marked point.
func TestPolicyAnswers(t *testing.T) {
	tests := []struct {
		name    string
		policy  Policy
		diagram string
		last    string
		want    []string // the moves the answer may choose
	}{
		{"capture the last stone", Policy{Capture: 1}, `
			. . . . .
			. . X . .
			. X O X .
			. . . . .
			. . . . .`, "C3", []string{"C2"}},
		{"save a chain put in atari", Policy{Capture: 1}, `
			. . . . .
			. . . . .
			. O X O .
			. . O . .
			. . . . .`, "C2", []string{"C4"}},
		{"atari on the last stone", Policy{Atari: 1}, `
			. . . . .
			. . X . .
			. X O . .
			. . . . .
			. . . . .`, "C3", []string{"D3", "C2"}},
		{"reply next to the last stone", Policy{Reply: 1}, `
			. . . . .
			. . . . .
			. . O . .
			. . . . .
			. . . . .`, "C3", []string{"B4", "C4", "D4", "B3", "D3", "B2", "C2", "D2"}},
		{"shape point (hane, not the head or the side)", Policy{Pattern: 1}, `
			. . . . .
			. . . . .
			. . O . .
			. . X . .
			. . . . .`, "C3", []string{"B3", "D3", "B2", "D2"}},
	}
	for _, tt := range tests {
		b := board(t, tt.diagram)
		last := vertex(t, b, tt.last)
		for seed := uint64(0); seed < 20; seed++ {
			p := Player{Policy: tt.policy, Rand: NewRand(seed)}
			v := p.Move(b, engine.Black, last)
			if got := b.Point(v).String(); !slices.Contains(tt.want, got) {
				t.Errorf("%s, seed %d: Move = %s, want one of %v\n%v", tt.name, seed, got, tt.want, b)
				break
			}
		}
	}
}

// TestPlayoutInvariants plays random games out with several policies and
// checks every move: legal, filling no eye of the mover, and a self-atari
// only of a single stone (unless the policy lets self-ataris through).
func TestPlayoutInvariants(t *testing.T) {
	var weights [1 << 16]float32
	for k := range weights {
		weights[k] = float32(k % 7) // some codes never weigh
	}
	policies := []Policy{{}, {Capture: 0.95, Pattern: 0.9}, {Capture: 1, Atari: 1, Reply: 1},
		{Capture: 0.95, Pattern: 0.9, Shape: &weights}, {Capture: 0.95, Pattern: 0.9, SelfAtari: 0.4}}
	for _, size := range []int{5, 9, 19} {
		for pi, pol := range policies {
			for seed := uint64(1); seed <= 5; seed++ {
				b, err := engine.NewBoard(size)
				if err != nil {
					t.Fatal(err)
				}
				p := Player{Policy: pol, Rand: NewRand(seed)}
				c, last, passes := engine.Black, engine.PassVertex, 0
				moves := 0
				for ; moves < 3*size*size && passes < 2; moves++ {
					v := p.Move(b, c, last)
					if v != engine.PassVertex {
						if !b.Legal(v, c) || b.IsEye(v, c) {
							t.Fatalf("%d×%d policy %d seed %d: %v at %v is illegal or fills an eye\n%v", size, size, pi, seed, c, b.Point(v), b)
						}
						if sa, n := SelfAtari(b, v, c); sa && n > 1 && pol.SelfAtari == 0 {
							t.Fatalf("%d×%d policy %d seed %d: %v at %v puts %d stones in atari\n%v", size, size, pi, seed, c, b.Point(v), n, b)
						}
						passes = 0
					} else {
						passes++
					}
					b.Play(v, c)
					last, c = v, c.Opponent()
				}
				if passes < 2 {
					t.Errorf("%d×%d policy %d seed %d: no two passes after %d moves", size, size, pi, seed, moves)
				}
				// Playout replays the same game from the same seed.
				again, _ := engine.NewBoard(size)
				(&Player{Policy: pol, Rand: NewRand(seed)}).Playout(again, engine.Black, 0, engine.PassVertex, 3*size*size)
				if again.Hash() != b.Hash() {
					t.Errorf("%d×%d policy %d seed %d: Playout ends in another position than Move by Move", size, size, pi, seed)
				}
			}
		}
	}
}

// TestShapeWeighsPatternAnswer gives weight to the 3×3 codes of two of the
// four shape points around the last move: the answer is always one of them,
// in proportion to their weights, and White sees the colours swapped.
func TestShapeWeighsPatternAnswer(t *testing.T) {
	black := board(t, `
		. . . . .
		. . . . .
		. . O . .
		. . X . .
		. . . . .`)
	white := board(t, `
		. . . . .
		. . . . .
		. . X . .
		. . O . .
		. . . . .`)
	last := vertex(t, black, "C3")
	b3, d2 := vertex(t, black, "B3"), vertex(t, black, "D2")
	var table [1 << 16]float32
	table[black.Neighbourhood(b3)] = 3
	table[black.Neighbourhood(d2)] = 1
	answers := func(b *engine.Board, c engine.Color, pol Policy) (count map[int]int, moves []int) {
		count = map[int]int{}
		for seed := uint64(0); seed < 400; seed++ {
			p := Player{Policy: pol, Rand: NewRand(seed)}
			v := p.Move(b, c, last)
			count[v]++
			moves = append(moves, v)
		}
		return count, moves
	}
	plain, _ := answers(black, engine.Black, Policy{Pattern: 1})
	if len(plain) != 4 {
		t.Fatalf("unweighted, the shape answers were %v, want B3, D3, B2 and D2", plain)
	}
	got, bm := answers(black, engine.Black, Policy{Pattern: 1, Shape: &table})
	if len(got) != 2 || got[b3] < 250 || got[b3] > 350 {
		t.Errorf("weighted 3:1, B3 was played %d times and D2 %d in 400 (%d answers in all), want about 300 and 100", got[b3], got[d2], len(got))
	}
	if _, wm := answers(white, engine.White, Policy{Pattern: 1, Shape: &table}); !slices.Equal(bm, wm) {
		t.Errorf("White on the board with the colours swapped answered otherwise than Black")
	}
}

// TestSelfAtariLetThrough: Black's E5 puts three stones in atari; the
// random move never plays it while other points are left, and with
// SelfAtari it plays it in that share of the draws that come upon it
// first.
func TestSelfAtariLetThrough(t *testing.T) {
	b := board(t, `
		. . O X .
		. . O X .
		. . O O .
		. . . . .
		. . . . .`)
	e5 := vertex(t, b, "E5")
	for i := range b.EmptyCount() {
		v := b.EmptyVertex(i)
		if sa, _ := SelfAtari(b, v, engine.Black); sa != (v == e5) {
			t.Fatalf("SelfAtari(%v) = %v\n%v", b.Point(v), sa, b)
		}
	}
	const draws = 20000
	count := func(rate float64) int {
		p := Player{Policy: Policy{SelfAtari: rate}, Rand: NewRand(3)}
		n := 0
		for range draws {
			if p.Move(b, engine.Black, engine.PassVertex) == e5 {
				n++
			}
		}
		return n
	}
	if n := count(0); n != 0 {
		t.Errorf("without SelfAtari, E5 was played in %d of %d random moves", n, draws)
	}
	all, some := count(1), count(0.4)
	if all < draws/32 || all > draws/8 {
		t.Fatalf("with SelfAtari 1, E5 was played in %d of %d random moves, want about one in 16 (the draws that meet it first)", all, draws)
	}
	if r := float64(some) / float64(all); r < 0.34 || r > 0.46 {
		t.Errorf("with SelfAtari 0.4, E5 was played %d times against %d with 1: ratio %.2f, want about 0.4", some, all, r)
	}
}
