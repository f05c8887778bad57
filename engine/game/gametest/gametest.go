package gametest

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

// Contract plays games of kind k from opts with random legal moves (games
// seeds, up to maxMoves moves each) and fails t where the kind breaks the
// contract:
//   - the same seed and the same moves give the same JSON, byte for byte;
//   - a state marshals, decodes and marshals again to the same bytes, and
//     the decoded state has the same side to move and legal moves;
//   - Play and End leave the receiver as it was;
//   - every legal move parses (ParseMove) to itself;
//   - a move by the side not to move is refused;
//   - a state with no side to move and no result lists no legal moves.
func Contract(t *testing.T, k game.Kind, opts game.Options, games, maxMoves int) {
	t.Helper()
	for seed := int64(1); seed <= int64(games); seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		s, err := k.New(opts, seed)
		if err != nil {
			t.Fatalf("%s: New(%v, %d) = %v", k.Name(), opts, seed, err)
		}
		if s.Kind() != k.Name() {
			t.Fatalf("%s: state's Kind() = %q", k.Name(), s.Kind())
		}
		var played []game.Move
		var sides []game.Side
		for len(played) < maxMoves {
			if _, over := s.Result(); over {
				break
			}
			side := s.ToMove()
			legal := s.Legal()
			if side == game.NoSide {
				if len(legal) != 0 {
					t.Fatalf("%s seed %d move %d: no side to move but %d legal moves", k.Name(), seed, len(played)+1, len(legal))
				}
				break
			}
			if len(legal) == 0 {
				t.Fatalf("%s seed %d move %d: side %d to move, no result, no legal move", k.Name(), seed, len(played)+1, side)
			}
			for _, m := range legal {
				got, err := s.ParseMove(side, string(m))
				if err != nil || got != m {
					t.Fatalf("%s seed %d: ParseMove(%q) = %q, %v, want itself", k.Name(), seed, m, got, err)
				}
			}
			m := legal[rng.IntN(len(legal))]
			before := marshal(t, s)
			if other := side.Opponent(); other != game.NoSide {
				if _, _, err := s.Play(other, m); err == nil {
					t.Fatalf("%s seed %d: side %d played %q out of turn", k.Name(), seed, other, m)
				}
			}
			next, _, err := s.Play(side, m)
			if err != nil {
				t.Fatalf("%s seed %d move %d: Play(%d, %q) = %v, though Legal listed it", k.Name(), seed, len(played)+1, side, m, err)
			}
			if after := marshal(t, s); !bytes.Equal(before, after) {
				t.Fatalf("%s seed %d move %d: Play modified its receiver", k.Name(), seed, len(played)+1)
			}
			if next.MoveCount() != s.MoveCount()+1 {
				t.Fatalf("%s seed %d: MoveCount %d after %d", k.Name(), seed, next.MoveCount(), s.MoveCount())
			}
			played, sides, s = append(played, m), append(sides, side), next
			roundTrip(t, k, s)
		}
		// Replay: same seed, same moves, same bytes.
		r, err := k.New(opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range played {
			if r, _, err = r.Play(sides[i], m); err != nil {
				t.Fatalf("%s seed %d: replay of move %d %q = %v", k.Name(), seed, i+1, m, err)
			}
		}
		if a, b := marshal(t, s), marshal(t, r); !bytes.Equal(a, b) {
			t.Fatalf("%s seed %d: a replay of the same moves marshals differently:\n%s\n%s", k.Name(), seed, a, b)
		}
		// End by resignation, if the game is still on.
		if _, over := s.Result(); !over && s.ToMove() != game.NoSide {
			before := marshal(t, s)
			ended, err := s.End(game.Result{Winner: s.ToMove().Opponent(), Reason: game.ByResignation})
			if err != nil {
				t.Fatalf("%s seed %d: End(resignation) = %v", k.Name(), seed, err)
			}
			if !bytes.Equal(before, marshal(t, s)) {
				t.Fatalf("%s seed %d: End modified its receiver", k.Name(), seed)
			}
			res, over := ended.Result()
			if !over || res.Reason != game.ByResignation || res.Text == "" {
				t.Fatalf("%s seed %d: after End, Result() = %+v, %v", k.Name(), seed, res, over)
			}
			if len(ended.Legal()) != 0 || ended.ToMove() != game.NoSide {
				t.Fatalf("%s seed %d: a resigned game still has a side to move or legal moves", k.Name(), seed)
			}
			if _, err := ended.End(res); !errors.Is(err, game.ErrOver) {
				t.Fatalf("%s seed %d: End of a finished game = %v, want ErrOver", k.Name(), seed, err)
			}
			roundTrip(t, k, ended)
		}
	}
}

func roundTrip(t *testing.T, k game.Kind, s game.State) {
	t.Helper()
	a := marshal(t, s)
	d, err := k.Decode(a)
	if err != nil {
		t.Fatalf("%s: Decode(%s) = %v", k.Name(), a, err)
	}
	if b := marshal(t, d); !bytes.Equal(a, b) {
		t.Fatalf("%s: JSON round trip differs:\n%s\n%s", k.Name(), a, b)
	}
	if d.ToMove() != s.ToMove() || !slices.Equal(d.Legal(), s.Legal()) {
		t.Fatalf("%s: decoded state moves differently (to move %d vs %d)", k.Name(), d.ToMove(), s.ToMove())
	}
	r1, o1 := s.Result()
	r2, o2 := d.Result()
	if r1 != r2 || o1 != o2 {
		t.Fatalf("%s: decoded result %+v %v, want %+v %v", k.Name(), r2, o2, r1, o1)
	}
}

func marshal(t *testing.T, s game.State) []byte {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON = %v", err)
	}
	return b
}
