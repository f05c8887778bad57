package bots

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// Mid-game positions in which nothing is settled: passing gives away the
// game. Black and White have each staked out corners and sides.
const (
	midgame19 = `
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . O O . . . . . . . . . X . . . .
		. . . X O . . . . O . . . . . X . . .
		. . . X . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . O . . . . . . . . . . . . . X .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . . . . . . . . . . . . . . . . . .
		. . X O . . . . . X . . . . . O O . .
		. . X O . . . . . . . . . . . X O . .
		. . . X . . . . . . . . . . X . . . .
		. . . . . . . . . . . . . . . . . . .`
	midgame9 = `
		. . . . . . . . .
		. . . . . . . . .
		. . O X . . X . .
		. . O X . . . . .
		. . . O . X . . .
		. . . . . . . . .
		. . O . . X O . .
		. . . . . . . . .
		. . . . . . . . .`
)

// won19 is a game Black (to play) has won by far, from a game of the
// max level against the easy one, but with much left to play: the search
// sees every move win and spends its playouts on one inside its own
// territory.
const won19 = `
		. . . . . X X . X X X X X O X . X . .
		. . . . X . . X . . . X O O X . X . O
		. . X X X . X . . X . X . . X . X O .
		. O X . X X X X X X X X . X X . X . .
		O . X . X . O . O X . . . X . X . . .
		O O . X O O . . . . . X . X . . X . .
		O O O X . O . . . . O . X . X X . . .
		O X X O . . . . . O . O X . . . . . .
		. O X O O . . . . . O X . . . . . . O
		O . X . O . . . . . X . X X X . X . .
		. . . X X . . . . . . . . O . X . X X
		O O O . . . . . . . . . . . . X . . .
		. O X O . . O . O . . . O O . . X X X
		O . X X X O . O . X . O O O . O O O O
		. O X . . X O . . X O . O . O X . O .
		X X . . X X O X X X . O . O . O O . O
		. . . X . X X X . . X X O O . O . . .
		. X X . . O . . X X . . . O . O . . .
		X . . . . O . . X O O . O . O . . . .`

// honinbo1945 is the fifth game of the 1945 Honinbo match (Hashimoto
// Utaro, Black, against Iwamoto Kaoru), from GNU Go's records.
const honinbo1945 = `(;GM[1]SZ[19]KM[0];B[qd];W[ce];B[od];W[qp];B[eq];W[cp];B[oq];W[kp];B[iq];W[po];B[mp];W[dc];B[qr];W[qk];B[jc];W[qh];B[gc];W[dn];B[cq];W[bq];B[dp];W[co];B[ci];W[gq];B[hp];W[cr];B[gp];W[jq];B[ir];W[kn];B[mn];W[ck];B[kl];W[im];B[il];W[hm];B[hl];W[gm];B[gl];W[fm];B[ei];W[no];B[mo];W[lq];B[dr];W[dq];B[jo];W[ko];B[mq];W[nd];B[nc];W[mc];B[md];W[ne];B[oc];W[kc];B[jd];W[kd];B[me];W[je];B[jb];W[kf];B[nf];W[ge];B[ec];W[dd];B[ek];W[hh];B[cq];W[hj];B[fl];W[jm];B[ij];W[cj];B[di];W[eb];B[rq];W[qq];B[rr];W[rp];B[hi];W[gi];B[ii];W[gh];B[rg];W[qg];B[rf];W[rh];B[pl];W[ql];B[dl];W[bm];B[cm];W[bn];B[fb];W[ed];B[ie];W[if];B[he];W[hf];B[jg];W[jf];B[gd];W[fe];B[dq];W[hb];B[hc];W[id];B[hd];W[kb];B[ea];W[fc];B[gb];W[bs];B[do];W[cn];B[en];W[em];B[fn];W[fj];B[dk];W[dm];B[cl];W[bl];B[om];W[pm];B[pn];W[qm];B[mb];W[lj];B[lh];W[da];B[on];W[nj];B[mk];W[mj];B[lk];W[kj];B[kk];W[qf];B[qe];W[bh];B[bi];W[bg];B[qn];W[rn];B[nk])`

// recorded returns the game of an SGF record after its first n moves,
// with komi 7.5 under the default rules.
func recorded(t *testing.T, sgf string, n int) *engine.Game {
	t.Helper()
	rec, _, err := engine.ParseSGF([]byte(sgf))
	if err != nil {
		t.Fatalf("ParseSGF: %v", err)
	}
	rules := engine.DefaultRules()
	rules.Komi = 7.5
	g, err := engine.NewGame(engine.Config{Size: rec.Size(), Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rec.Moves()[:n] {
		if err := g.Play(m); err != nil {
			t.Fatalf("Play(%v): %v", m, err)
		}
	}
	return g
}

// No level passes in the middle of a game, not even with no time left to
// think (a GTP clock at its last milliseconds on a loaded machine): it
// plays a legal move from its priors instead.
func TestNoPassWithoutTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		game func(t *testing.T) *engine.Game
	}{
		{"19x19", func(t *testing.T) *engine.Game { return position(t, midgame19, engine.Black) }},
		{"9x9", func(t *testing.T) *engine.Game { return position(t, midgame9, engine.Black) }},
		{"honinbo-80", func(t *testing.T) *engine.Game { return recorded(t, honinbo1945, 80) }},
		{"honinbo-121", func(t *testing.T) *engine.Game { return recorded(t, honinbo1945, 121) }},
		{"honinbo-140", func(t *testing.T) *engine.Game { return recorded(t, honinbo1945, 140) }},
	} {
		for _, l := range Builtin() {
			for _, wait := range []time.Duration{-time.Second, time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
				t.Run(tc.name+"/"+l.Name+"/"+wait.String(), func(t *testing.T) {
					g := tc.game(t)
					ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(wait))
					defer cancel()
					m, err := l.New(3).GenMove(ctx, g, l.Budget)
					if err != nil {
						t.Fatalf("GenMove: %v", err)
					}
					if m.Kind != engine.Place {
						t.Fatalf("GenMove = %v, want a stone", m)
					}
					if err := g.Check(m); err != nil {
						t.Errorf("GenMove = %v: %v", m, err)
					}
				})
			}
		}
	}
}

// A Monte Carlo search cut short after a few playouts (a clock on a loaded
// machine) leaves an ownership estimate of noise, in which every point
// looks settled: the level must still play a stone, not pass.
func TestNoPassAfterFewPlayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		game func(t *testing.T) *engine.Game
	}{
		{"won19", func(t *testing.T) *engine.Game { return position(t, won19, engine.Black) }},
		{"honinbo-100", func(t *testing.T) *engine.Game { return recorded(t, honinbo1945, 100) }},
		{"honinbo-140", func(t *testing.T) *engine.Game { return recorded(t, honinbo1945, 140) }},
	} {
		for _, name := range []string{"hard", "max"} {
			l, _ := Lookup(name)
			for _, playouts := range []int{1, 2, 5, 10, 30, 150, 400} {
				g := tc.game(t)
				m, err := l.New(int64(playouts)).GenMove(context.Background(), g, Budget{Playouts: playouts})
				if err != nil {
					t.Fatalf("%s, %s, %d playouts: GenMove: %v", tc.name, name, playouts, err)
				}
				if m.Kind != engine.Place || g.Check(m) != nil {
					t.Errorf("%s, %s, %d playouts: GenMove = %v, want a legal stone", tc.name, name, playouts, m)
				}
			}
		}
	}
}

// Passing stays right when the opponent has passed and everything is
// settled, even with no time left to estimate anything.
func TestPassBackWhenSettled(t *testing.T) {
	for _, l := range Builtin() {
		for _, wait := range []time.Duration{-time.Second, time.Minute} {
			t.Run(l.Name+"/"+wait.String(), func(t *testing.T) {
				g := position(t, settledClose, engine.Black)
				if err := g.Play(engine.PassMove(engine.Black)); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(wait))
				defer cancel()
				m, err := l.New(5).GenMove(ctx, g, testBudget(l.Name, 1500))
				if err != nil {
					t.Fatalf("GenMove: %v", err)
				}
				if m.Kind != engine.Pass {
					t.Errorf("GenMove = %v, want pass", m)
				}
			})
		}
	}
}
