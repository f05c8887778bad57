package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestConcurrentMovesOneGame has many goroutines play moves into one game,
// each loading the game, choosing a move and writing it back. Every
// version must be won by exactly one of them, and the stored game must hold
// exactly the moves that were acknowledged, in the order of their versions.
func TestConcurrentMovesOneGame(t *testing.T) {
	const workers, target = 12, 80
	s := openTest(t)
	if err := s.CreateGame(ctx, newGame(t, "c1", "1", "2")); err != nil {
		t.Fatal(err)
	}
	type win struct {
		version uint64
		move    string
	}
	wins := make([][]win, workers)
	conflicts := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 9))
			for {
				g, err := s.Game(ctx, "c1")
				if err != nil {
					t.Errorf("worker %d: Game() = %v", w, err)
					return
				}
				if goOf(g).MoveCount() >= target || goOf(g).Over() {
					return
				}
				m := playRandom(t, goOf(g), r)
				err = s.UpdateGame(ctx, g)
				switch {
				case err == nil:
					wins[w] = append(wins[w], win{g.Version, m.Color.Letter() + " " + m.String()})
				case errors.Is(err, ErrConflict):
					conflicts[w]++
				default:
					t.Errorf("worker %d: UpdateGame() = %v", w, err)
					return
				}
			}
		})
	}
	wg.Wait()

	byVersion := map[uint64]string{}
	total, nconf := 0, 0
	for w := range workers {
		nconf += conflicts[w]
		for _, x := range wins[w] {
			if prev, dup := byVersion[x.version]; dup {
				t.Errorf("version %d won twice: %s and %s", x.version, prev, x.move)
			}
			byVersion[x.version] = x.move
			total++
		}
	}
	g, err := s.Game(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	moves := moveStrings(goOf(g))
	if len(moves) != total || g.Version != uint64(total)+1 {
		t.Fatalf("stored %d moves at version %d; %d writes acknowledged", len(moves), g.Version, total)
	}
	for i, m := range moves {
		if byVersion[uint64(i)+2] != m {
			t.Errorf("move %d = %s, but version %d was acknowledged for %q", i+1, m, i+2, byVersion[uint64(i)+2])
		}
	}
	t.Logf("%d moves by %d workers, %d conflicts", total, workers, nconf)
}

// TestSameVersionRace gives many writers the same version of a game at
// once, round after round: exactly one wins each round and the others
// change nothing.
func TestSameVersionRace(t *testing.T) {
	const writers, rounds = 16, 15
	s, _ := openWithGame(t)
	for round := range rounds {
		base, err := s.Game(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		legal := goOf(base).Legal()
		start := make(chan struct{})
		errs := make([]error, writers)
		copies := make([]*Game, writers)
		var wg sync.WaitGroup
		for w := range writers {
			c := *base
			c.State = engine.Own(goOf(base).Clone())
			if err := goOf(&c).Play(engine.PlaceAt(goOf(&c).ToPlay(), legal[w%len(legal)])); err != nil {
				t.Fatal(err)
			}
			copies[w] = &c
			wg.Go(func() {
				<-start
				errs[w] = s.UpdateGame(ctx, copies[w])
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: writers %d and %d both won", round, winner, w)
			case err == nil:
				winner = w
			case !errors.Is(err, ErrConflict):
				t.Fatalf("round %d: UpdateGame() = %v", round, err)
			case copies[w].Version != base.Version:
				t.Errorf("round %d: losing writer's Version moved to %d", round, copies[w].Version)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won", round)
		}
		got, _ := s.Game(ctx, "c1")
		if got.Version != base.Version+1 || fmt.Sprint(moveStrings(goOf(got))) != fmt.Sprint(moveStrings(goOf(copies[winner]))) {
			t.Fatalf("round %d: stored version %d moves %v; winner wrote %v", round, got.Version, moveStrings(goOf(got)), moveStrings(goOf(copies[winner])))
		}
	}
}

// TestManyGamesConcurrently writes many games in many channels at once
// (the batched path): nothing is lost and no game sees another's moves.
func TestManyGamesConcurrently(t *testing.T) {
	const games, moves = 24, 15
	s := openTest(t)
	var wg sync.WaitGroup
	want := make([][]string, games)
	for i := range games {
		wg.Go(func() {
			g := newGame(t, fmt.Sprintf("c%d", i), fmt.Sprint(i), fmt.Sprint(i+1000))
			if err := s.CreateGame(ctx, g); err != nil {
				t.Errorf("CreateGame(c%d) = %v", i, err)
				return
			}
			r := rand.New(rand.NewPCG(uint64(i), 3))
			for range moves {
				playRandom(t, goOf(g), r)
				if err := s.UpdateGame(ctx, g); err != nil {
					t.Errorf("UpdateGame(c%d) = %v", i, err)
					return
				}
			}
			want[i] = moveStrings(goOf(g))
		})
	}
	wg.Wait()
	for i := range games {
		g, err := s.Game(ctx, fmt.Sprintf("c%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if g.Version != moves+1 || fmt.Sprint(moveStrings(goOf(g))) != fmt.Sprint(want[i]) {
			t.Errorf("c%d: version %d moves %v, want version %d moves %v", i, g.Version, moveStrings(goOf(g)), moves+1, want[i])
		}
	}
}
