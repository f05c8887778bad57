package gtp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp/gtptest"
)

// The referee test plays the same moves into this package's GTP server and
// into GNU Go 3.8, both spoken to through this package's Client, and
// requires both to agree on every legality decision and every resulting
// position. GOBOT_REFEREE_GAMES=n plays n random games per board size
// instead of the short default.

const gnugoPath = "/usr/games/gnugo"

// peer is one of the two GTP programs the referee compares.
type peer struct {
	name string
	c    *Client
}

// send sends one command and returns whether it succeeded and the answer,
// or the failure with the program's message. Anything other than an
// answer (a crash, a timeout, garbled output) fails the test.
func (p *peer) send(t testing.TB, cmd string) (bool, string) {
	t.Helper()
	ans, err := p.c.Command(context.Background(), 0, cmd)
	if errors.Is(err, ErrFailed) {
		return false, err.Error()
	}
	if err != nil {
		t.Fatalf("%s: %q: %v", p.name, cmd, err)
	}
	return true, ans
}

func (p *peer) must(t testing.TB, cmd string) string {
	t.Helper()
	ok, resp := p.send(t, cmd)
	if !ok {
		t.Fatalf("%s: %q failed: %s", p.name, cmd, resp)
	}
	return resp
}

// startPeer starts spec's program, which must quit cleanly when the test
// ends. Its standard error goes to stderr when that is not nil.
func startPeer(t testing.TB, spec Spec, stderr io.Writer) *peer {
	t.Helper()
	c, err := StartClient(context.Background(), spec, ClientOptions{Timeout: time.Minute, Stderr: stderr})
	if err != nil {
		t.Fatalf("starting %s: %v", spec.Name, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("%s exited with %v", spec.Name, err)
		}
	})
	return &peer{name: spec.Name, c: c}
}

// gnugoSpec returns GNU Go in GTP mode with Chinese rules and args, or
// skips the test when it is not installed.
func gnugoSpec(t testing.TB, args ...string) Spec {
	t.Helper()
	path := gnugoPath
	if _, err := os.Stat(path); err != nil {
		p, lerr := exec.LookPath("gnugo")
		if lerr != nil {
			t.Skipf("GNU Go is not installed (no %s and no gnugo on PATH; Debian package gnugo): skipping", gnugoPath)
		}
		path = p
	}
	return Spec{Name: "gnugo", Argv: append([]string{path, "--mode", "gtp", "--chinese-rules"}, args...)}
}

// startGNUGo starts GNU Go with args (see gnugoSpec).
func startGNUGo(t testing.TB, args ...string) *peer {
	t.Helper()
	return startPeer(t, gnugoSpec(t, args...), nil)
}

// startServer runs Serve with the ko rule and the seed in a child process
// (the test binary, see TestMain). Its warnings go to stderr, one a line,
// when that is not nil.
func startServer(t testing.TB, ko engine.KoRule, seed uint64, stderr io.Writer) *peer {
	t.Helper()
	argv := gtptest.Argv("serve", strconv.Itoa(int(ko)), strconv.FormatUint(seed, 10))
	return startPeer(t, Spec{Name: "gobot", Argv: argv}, stderr)
}

// referee holds the two engines and a local game that mirrors them.
type referee struct {
	t       testing.TB
	engines []*peer
	g       *engine.Game
	history []string
	tries   map[string]int // rejected tries by kind, for the log
}

// both sends cmd to both engines and fails the test if they disagree on
// its success.
func (r *referee) both(cmd string) (bool, []string) {
	r.t.Helper()
	var oks []bool
	var resps []string
	for _, e := range r.engines {
		ok, resp := e.send(r.t, cmd)
		oks = append(oks, ok)
		resps = append(resps, resp)
	}
	if oks[0] != oks[1] {
		r.fail("%q: gobot says %v (%s), GNU Go says %v (%s)", cmd, oks[0], resps[0], oks[1], resps[1])
	}
	return oks[0], resps
}

func (r *referee) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nposition:\n%v\nmoves: %s", fmt.Sprintf(format, args...), r.g.Board(), strings.Join(r.history, " "))
}

// sortedVertices puts a list_stones answer in a canonical order.
func sortedVertices(s string) string {
	f := strings.Fields(strings.ToUpper(s))
	pts := make([]engine.Point, 0, len(f))
	for _, v := range f {
		p, err := engine.ParsePoint(v, engine.MaxSize)
		if err != nil {
			return s
		}
		pts = append(pts, p)
	}
	var out []string
	for row := engine.MaxSize; row >= 0; row-- {
		for col := 0; col < engine.MaxSize; col++ {
			for _, p := range pts {
				if p == (engine.Point{Col: col, Row: row}) {
					out = append(out, p.String())
				}
			}
		}
	}
	return strings.Join(out, " ")
}

// samePosition checks that both engines report the same stones, the same
// stones as the local mirror, and the same captures.
func (r *referee) samePosition() {
	r.t.Helper()
	for _, c := range []engine.Color{engine.Black, engine.White} {
		_, resps := r.both("list_stones " + c.String())
		a, b := sortedVertices(resps[0]), sortedVertices(resps[1])
		if a != b {
			r.fail("list_stones %v: gobot %q, GNU Go %q", c, a, b)
		}
		var mine []string
		board := r.g.Board()
		for row := r.g.Size() - 1; row >= 0; row-- {
			for col := 0; col < r.g.Size(); col++ {
				if p := (engine.Point{Col: col, Row: row}); board.At(p) == c {
					mine = append(mine, p.String())
				}
			}
		}
		if got := strings.Join(mine, " "); got != a {
			r.fail("list_stones %v: engine %q, mirror %q", c, a, got)
		}
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		_, resps := r.both("captures " + c.String())
		if resps[0] != resps[1] || resps[0] != strconv.Itoa(r.g.Captures(c)) {
			r.fail("captures %v: gobot %s, GNU Go %s, mirror %d", c, resps[0], resps[1], r.g.Captures(c))
		}
	}
}

// play sends a move to both engines and checks they agree on legality and
// on the position, and that the mirror agrees on legality too.
func (r *referee) play(m engine.Move) bool {
	r.t.Helper()
	cmd := fmt.Sprintf("play %s %s", m.Color, m)
	ok, _ := r.both(cmd)
	if r.g.PlayEnded() { // GTP plays on after two passes
		if err := r.g.Resume(); err != nil {
			r.fail("mirror: %v", err)
		}
	}
	mirror := r.g.Check(m) == nil
	if ok != mirror {
		r.fail("%q: engines say legal=%v, the Game says %v", cmd, ok, mirror)
	}
	if !ok {
		return false
	}
	if err := r.g.Play(m); err != nil {
		r.fail("mirror: %v", err)
	}
	r.history = append(r.history, m.Color.Letter()+" "+m.String())
	r.samePosition()
	return true
}

// checkAllLegal compares is_legal for every point, for the player to move.
func (r *referee) checkAllLegal() {
	r.t.Helper()
	c := r.g.ToPlay()
	for row := 0; row < r.g.Size(); row++ {
		for col := 0; col < r.g.Size(); col++ {
			p := engine.Point{Col: col, Row: row}
			cmd := fmt.Sprintf("is_legal %s %s", c, p)
			_, resps := r.both(cmd)
			if resps[0] != resps[1] {
				r.fail("%q: gobot %s, GNU Go %s", cmd, resps[0], resps[1])
			}
		}
	}
}

func newReferee(t testing.TB, ko engine.KoRule, gnugoArgs ...string) *referee {
	return &referee{t: t, engines: []*peer{startServer(t, ko, 1, nil), startGNUGo(t, gnugoArgs...)},
		tries: map[string]int{}}
}

// randomGame plays a game of random tries: mostly legal moves, but also
// occupied points, suicides and ko retakes, which both engines must reject.
func (r *referee) randomGame(rng *rand.Rand, size int, ko engine.KoRule, sweep bool) {
	r.t.Helper()
	r.both(fmt.Sprintf("boardsize %d", size))
	r.both("clear_board")
	r.both("komi 7.5")
	rules := engine.DefaultRules()
	rules.Ko = ko
	g, err := engine.NewGame(engine.Config{Size: size, Rules: rules})
	if err != nil {
		r.t.Fatal(err)
	}
	r.g, r.history = g, nil
	rejected := 0
	for moves := 0; moves < size*size*3 && !r.g.PlayEnded(); {
		c := r.g.ToPlay()
		b := r.g.Board()
		m := engine.PassMove(c)
		var legal, suicide []engine.Point
		for i := 0; i < b.EmptyCount(); i++ {
			v := b.EmptyVertex(i)
			switch {
			case b.Legal(v, c) && !b.IsEye(v, c):
				legal = append(legal, b.Point(v))
			case !b.Legal(v, c):
				suicide = append(suicide, b.Point(v))
			}
		}
		x := rng.Float64()
		kind := "legal"
		switch {
		case x < 0.01:
			kind = "pass"
		case rejected > 20 || len(legal) == 0:
			if len(legal) > 0 {
				m = engine.PlaceAt(c, legal[rng.IntN(len(legal))])
			}
		case b.Ko(c) != engine.NoPoint && x < 0.5:
			m, kind = engine.PlaceAt(c, b.Ko(c)), "ko"
		case x < 0.60:
			m = engine.PlaceAt(c, legal[rng.IntN(len(legal))])
		case x < 0.75 && len(suicide) > 0:
			m, kind = engine.PlaceAt(c, suicide[rng.IntN(len(suicide))]), "suicide or ko"
		default:
			p := engine.Point{Col: rng.IntN(size), Row: rng.IntN(size)}
			m, kind = engine.PlaceAt(c, p), "random point"
			if b.At(p) != engine.Empty {
				kind = "occupied"
			}
		}
		if r.play(m) {
			moves++
			rejected = 0
			if sweep {
				r.checkAllLegal()
			}
		} else {
			if kind == "legal" { // legal on the board, so it repeats a position
				kind = "superko"
			}
			rejected++
			r.tries[kind]++
		}
	}
}

func refereeGames() int {
	n, _ := strconv.Atoi(os.Getenv("GOBOT_REFEREE_GAMES"))
	return n
}

func TestRefereeRandomGames(t *testing.T) {
	games := map[int]int{9: 2, 19: 1}
	long := refereeGames()
	if long > 0 {
		games = map[int]int{9: long, 19: long}
	} else if testing.Short() {
		games = map[int]int{9: 1}
	}
	ref := newReferee(t, engine.SimpleKo)
	rng := rand.New(rand.NewPCG(2026, 11))
	for _, size := range []int{9, 19} {
		for i := 0; i < games[size]; i++ {
			// A full is_legal sweep after every move on the first 9×9 game.
			ref.randomGame(rng, size, engine.SimpleKo, size == 9 && (i == 0 || long > 0))
			t.Logf("%d×%d game %d: %d moves agreed", size, size, i+1, len(ref.history))
		}
	}
	t.Logf("illegal tries both engines rejected: %v", ref.tries)
	// One short game need not meet a ko; the default run's three games do.
	if !testing.Short() && (ref.tries["ko"] == 0 || ref.tries["occupied"] == 0 || ref.tries["suicide or ko"] == 0) {
		t.Errorf("the games tried no ko retake, occupied point or suicide: %v", ref.tries)
	}
}

// TestRefereeSuperko checks positional and situational superko against GNU
// Go's --positional-superko and --situational-superko on random games: many
// on 4×4 and 5×5, where whole-board repetitions come up, and one on 9×9.
func TestRefereeSuperko(t *testing.T) {
	small, large := 40, 1
	if long := refereeGames(); long > 0 {
		small, large = 10*long, long
	} else if testing.Short() {
		t.Skip("short mode")
	}
	for _, tt := range []struct {
		ko   engine.KoRule
		flag string
	}{{engine.PositionalSuperko, "--positional-superko"}, {engine.SituationalSuperko, "--situational-superko"}} {
		t.Run(tt.ko.String(), func(t *testing.T) {
			ref := newReferee(t, tt.ko, tt.flag)
			rng := rand.New(rand.NewPCG(7, uint64(tt.ko)))
			moves := 0
			for i := 0; i < small+large; i++ {
				size := 4 + i%2
				if i >= small {
					size = 9
				}
				ref.randomGame(rng, size, tt.ko, false)
				moves += len(ref.history)
			}
			t.Logf("%d games, %d moves agreed; illegal tries both engines rejected: %v", small+large, moves, ref.tries)
		})
	}
}

// TestRefereeKoRules retakes a ko after a pass by each player: legal under
// simple ko, a repetition of the whole board under both superko rules.
func TestRefereeKoRules(t *testing.T) {
	// . X O . .
	// X O X O .   after B C4 takes the white stone at B4
	// . X O . .
	moves := "B B5, W C5, B A4, W B4, B B3, W D4, B A1, W C3, B C4, W B4, W pass, B pass, W B4"
	tests := []struct {
		ko      engine.KoRule
		flag    string
		retaken bool
	}{
		{engine.SimpleKo, "--simple-ko", true},
		{engine.PositionalSuperko, "--positional-superko", false},
		{engine.SituationalSuperko, "--situational-superko", false},
	}
	for _, tt := range tests {
		t.Run(tt.ko.String(), func(t *testing.T) {
			ref := newReferee(t, tt.ko, tt.flag)
			rules := engine.DefaultRules()
			rules.Ko = tt.ko
			ref.g, _ = engine.NewGame(engine.Config{Size: 5, Rules: rules})
			ref.both("boardsize 5")
			ref.both("clear_board")
			var got []bool
			for _, s := range strings.Split(moves, ", ") {
				col, v, _ := strings.Cut(s, " ")
				c, _ := engine.ParseColor(col)
				m, err := engine.ParseMove(c, v, 5)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, ref.play(m))
			}
			// The immediate retake (move 10) is illegal under every rule.
			if got[9] || got[12] != tt.retaken {
				t.Errorf("retake at once legal = %v, after passes legal = %v; want false, %v", got[9], got[12], tt.retaken)
			}
		})
	}
}

// TestRefereeRecords replays the records in engine/testdata/sgf into both engines
// move by move, and loads them with loadsgf (whole and up to a few move
// numbers) in both.
func TestRefereeRecords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "sgf", "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in engine/testdata/sgf: %v", err)
	}
	ref := newReferee(t, engine.SimpleKo)
	for _, f := range files {
		rec, info := readRecord(t, f)
		// Move by move, from the record's set-up.
		rules := engine.DefaultRules()
		rules.Komi = rec.Rules().Komi
		g, err := engine.NewGame(engine.Config{Size: rec.Size(), Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		ref.g, ref.history = g, nil
		ref.both(fmt.Sprintf("boardsize %d", rec.Size()))
		ref.both("clear_board")
		for _, s := range rec.Setup() {
			if s.Color != engine.Black {
				t.Fatalf("%s: set-up with white or removed stones cannot be sent with set_free_handicap", f)
			}
		}
		if len(rec.Setup()) > 0 {
			var vs []string
			var stones []engine.Stone
			for _, s := range rec.Setup() {
				vs = append(vs, s.Point.String())
				stones = append(stones, s)
			}
			ref.both("set_free_handicap " + strings.Join(vs, " "))
			if err := ref.g.SetupStones(stones, rec.FirstPlayer(), len(stones)); err != nil {
				t.Fatal(err)
			}
		}
		for i, m := range rec.Moves() {
			if ref.g.PlayEnded() {
				if err := ref.g.Resume(); err != nil {
					t.Fatal(err)
				}
			}
			if !ref.play(m) {
				t.Fatalf("%s: move %d (%v %v) rejected by both engines", f, i+1, m.Color, m)
			}
		}
		// loadsgf: the whole record, and the position before a few moves.
		n := rec.MoveCount()
		loads := []int{0}
		if info.InsertedPasses == 0 { // GNU Go numbers the record's moves, without inserted passes
			loads = append(loads, 1, 2, n/2, n)
		}
		for _, k := range loads {
			cmd := "loadsgf " + f
			if k > 0 {
				cmd += " " + strconv.Itoa(k)
			}
			ok, resps := ref.both(cmd)
			if !ok {
				t.Fatalf("%q failed in both: %q", cmd, resps)
			}
			if resps[0] != resps[1] {
				t.Errorf("%q: gobot says %s to move, GNU Go %s", cmd, resps[0], resps[1])
			}
			end := n
			if k > 0 {
				end = k - 1
			}
			if len(info.Warnings) > 0 {
				// A move on an occupied point: both stop before it.
				end = min(end, info.Warnings[0].Move)
			}
			if ref.g, err = rec.Rebuild(rec.Rules(), end); err != nil {
				t.Fatal(err)
			}
			ref.samePosition()
		}
		t.Logf("%s: %d moves and %d loads agreed", filepath.Base(f), n, len(loads))
	}
}

// TestRefereeGenmoveMatch plays GNU Go (black, genmove) against this
// package's engine (white, default random genmove) on 9×9, each move
// relayed to the other engine, as a match runner such as gogui-twogtp does.
// Every generated move must be legal for the other engine, and the
// positions must agree.
func TestRefereeGenmoveMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	ours, gnugo := startServer(t, engine.SimpleKo, 3, nil), startGNUGo(t, "--level", "0")
	ref := &referee{t: t, engines: []*peer{ours, gnugo}, tries: map[string]int{}}
	ref.both("boardsize 9")
	ref.both("clear_board")
	ref.both("komi 7.5")
	rules := engine.DefaultRules()
	rules.Ko = engine.SimpleKo
	ref.g, _ = engine.NewGame(engine.Config{Size: 9, Rules: rules})
	players := map[engine.Color]*peer{engine.Black: gnugo, engine.White: ours}
	others := map[engine.Color]*peer{engine.Black: ours, engine.White: gnugo}
	for i := 0; i < 300 && !ref.g.PlayEnded(); i++ {
		c := ref.g.ToPlay()
		v := players[c].must(t, "genmove "+c.String())
		if strings.EqualFold(v, "resign") {
			t.Logf("%v resigns after %d moves", c, i)
			break
		}
		m, err := engine.ParseMove(c, v, 9)
		if err != nil {
			ref.fail("%s genmove %v = %q: %v", players[c].name, c, v, err)
		}
		if ok, resp := others[c].send(t, fmt.Sprintf("play %s %s", c, v)); !ok {
			ref.fail("%s rejects %s's move %v %s: %s", others[c].name, players[c].name, c, v, resp)
		}
		if err := ref.g.Play(m); err != nil {
			ref.fail("mirror rejects %v %v: %v", c, m, err)
		}
		ref.history = append(ref.history, c.Letter()+" "+m.String())
		ref.samePosition()
	}
	_, scores := ref.both("final_score")
	t.Logf("%d moves; final_score: gobot %s, GNU Go %s", len(ref.history), scores[0], scores[1])
}

// TestRefereeGobanRecords loads every record of a directory in both engines
// with loadsgf and compares the colour to move and the stones. It is
// opt-in, for the 596 professional records of Debian's goban-original-games
// (not in the repository):
//
//	GOBOT_GOBAN_DIR=/usr/share/goban go test ./engine/gtp -run TestRefereeGobanRecords -v
//
// The records with a move on an occupied point load in both, up to that
// move, with a warning from gobot.
func TestRefereeGobanRecords(t *testing.T) {
	dir := os.Getenv("GOBOT_GOBAN_DIR")
	if dir == "" || testing.Short() {
		t.Skip("opt-in: GOBOT_GOBAN_DIR=/usr/share/goban go test ./engine/gtp -run TestRefereeGobanRecords -v")
	}
	var files []string
	for _, pat := range []string{"*.sgf", "*.mgt"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no records in %s", dir)
	}
	var stderr bytes.Buffer // written by the client's copy of the server's stderr until Close
	ours := startServer(t, engine.SimpleKo, 0, &stderr)
	gnugo := startGNUGo(t)
	agree, bothRefuse, differ := 0, 0, 0
	for _, f := range files {
		cmd := "loadsgf " + f
		okA, a := ours.send(t, cmd)
		okB, b := gnugo.send(t, cmd)
		switch {
		case !okA && !okB:
			bothRefuse++
			t.Logf("%s: both refuse it: gobot %q, GNU Go %q", filepath.Base(f), a, b)
			continue
		case okA != okB:
			differ++
			t.Errorf("%s: gobot %v %q, GNU Go %v %q", filepath.Base(f), okA, a, okB, b)
			continue
		case a != b:
			differ++
			t.Errorf("%s: gobot says %s to move, GNU Go %s", filepath.Base(f), a, b)
			continue
		}
		same := true
		for _, c := range []string{"black", "white"} {
			_, sa := ours.send(t, "list_stones "+c)
			_, sb := gnugo.send(t, "list_stones "+c)
			if sortedVertices(sa) != sortedVertices(sb) {
				same = false
				t.Errorf("%s: list_stones %s: gobot %q, GNU Go %q", filepath.Base(f), c, sortedVertices(sa), sortedVertices(sb))
			}
		}
		if !same {
			differ++
			continue
		}
		agree++
	}
	// Close waits for the server's standard error, its warnings.
	if err := ours.c.Close(); err != nil {
		t.Errorf("gobot exited with %v", err)
	}
	warned := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if stderr.Len() == 0 {
		warned = nil
	}
	for _, w := range warned {
		t.Logf("gobot's warning: %s", w)
	}
	t.Logf("%d records: %d loaded alike (colour to move and stones), %d refused by both, %d differ; gobot warned of %d",
		len(files), agree, bothRefuse, differ, len(warned))
}
