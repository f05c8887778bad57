package bots

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// testBudget is a small budget for each built-in level in tests: 2000
// playouts for medium, the own budget of casual, steady and keen, searches of the given number
// of playouts for strong, tough, hard and max, and nothing for the levels that do
// not search.
func testBudget(level string, search int) Budget {
	switch level {
	case "medium":
		return Budget{Playouts: 2000}
	case "casual", "steady", "keen":
		return Budget{Playouts: casualPlayouts}
	case "strong", "tough", "hard", "max":
		return Budget{Playouts: search}
	}
	return Budget{}
}

// settledClose is a finished 9×9 game: Black 40 points, White 41; with komi
// 0.5 White wins by 1.5. Everything is settled.
const settledClose = `
		. . . X O . . . .
		. . . X O . . . .
		. . . X O . . . .
		. . . X O . . . .
		. . . X O O . . .
		. . . X X O . . .
		. . . . X O . . .
		. . . . X O . . .
		. . . . X O . . .`

// Every level ends a game like a person: it passes when its opponent has
// passed and nothing is left to gain, resigns only a game lost beyond
// doubt, and never plays inside settled territory.
func TestEndsLikeAPerson(t *testing.T) {
	// Black has a living corner of 20 points, White the rest: Black loses
	// by about 40.
	const lost = `
		. . . O . . . O .
		. . . O . . . O .
		O O O O O O O O O
		. . . O . . . O .
		O O O O O O . O .
		X X X X X O O O O
		. X . . X O . . .
		X X X X X O . . .
		. X . . X O . . .`
	// Column E is open between the walls: 36 points each, and komi 0.5.
	const dame = `
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .`
	// The same walls for White without Black's corner: 29 stones, fewer
	// than half the board's 81 points, so the game is young.
	const young = `
		. . . O . . . O .
		. . . O . . . O .
		O O O O O O O O O
		. . . O . . . O .
		O O O O O O . O .
		. . . . . O O O O
		. . . . . O . . .
		. . . . . O . . .
		. . . . . O . . .`
	// Two stones each: White wins by the komi as the board stands, but
	// nothing is settled (and a GTP controller's genmove for the player
	// not to move reads as the other's pass).
	const opening = `
		. . . . . . . . .
		. . . . . . . . .
		. . O . . . X . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . X . . . O . .
		. . . . . . . . .
		. . . . . . . . .`
	tests := []struct {
		name       string
		diagram    string
		toPlay     engine.Color
		passedLast bool // the opponent has just passed
		want       string
	}{
		{"behind by 1.5 after a pass: pass", settledClose, engine.Black, true, "pass"},
		{"behind by 1.5, all settled: pass", settledClose, engine.Black, false, "pass"},
		{"ahead after a pass: pass", settledClose, engine.White, true, "pass"},
		{"ahead, all settled: pass", settledClose, engine.White, false, "pass"},
		{"lost by 40: resign", lost, engine.Black, false, "resign"},
		{"lost by 40 after a pass: resign", lost, engine.Black, true, "resign"},
		{"won by 40 after a pass: pass", lost, engine.White, true, "pass"},
		{"open points after a pass: take one", dame, engine.Black, true, "column E"},
		{"hopeless but young: play on", young, engine.Black, false, "no resignation"},
		{"ahead by the komi in the opening after a pass: play on", opening, engine.White, true, "a stone"},
	}
	// Under the race detector, which slows the searches about tenfold
	// (the test took about 50 s of CPU time there), the levels that search
	// alike at the test budget share the positions: strong and tough are
	// the same single-threaded search (their trees, 128k and 1M nodes,
	// hold the 1,500 playouts alike), and so are hard and max (1M and 8M
	// nodes), so each takes every other position, and the parts of
	// steady's and keen's blends, built by readerLevel as casual's (the
	// same search and greedy player, seed for seed; only the share of
	// moves each plays differs), are checked with casual's. Every level
	// and every position is still checked; the run without the detector
	// checks every level on every position.
	raceHalf := map[string]int{"strong": 0, "tough": 1, "hard": 0, "max": 1}
	partsChecked := false
	for _, l := range Builtin() {
		half, halved := raceHalf[l.Name]
		halved = halved && raceEnabled
		parts := true
		if _, ok := l.New(7).(*Blend); ok {
			parts = !(raceEnabled && partsChecked)
			partsChecked = true
		}
		t.Run(l.Name, func(t *testing.T) {
			for i, tt := range tests {
				if halved && i%2 != half {
					continue
				}
				t.Run(tt.name, func(t *testing.T) {
					g := position(t, tt.diagram, tt.toPlay)
					if tt.passedLast {
						g = position(t, tt.diagram, tt.toPlay.Opponent())
						if err := g.Play(engine.PassMove(tt.toPlay.Opponent())); err != nil {
							t.Fatal(err)
						}
					}
					// A blend of two bots is tested as each of them too,
					// whichever its seed draws.
					bots := []Bot{l.New(7)}
					if b, ok := bots[0].(*Blend); ok && parts {
						bots = append(bots, b.strong, b.weak)
					}
					for _, bot := range bots {
						m, err := bot.GenMove(context.Background(), g.Clone(), testBudget(l.Name, 1500))
						if err != nil {
							t.Fatalf("%s: GenMove: %v", bot.Name(), err)
						}
						var got string
						switch m.Kind {
						case engine.Pass:
							got = "pass"
						case engine.Resign:
							got = "resign"
						default:
							got = m.Point.String()
							if m.Point.Col == 4 {
								got = "column E"
							}
							if tt.want == "a stone" {
								got = tt.want
							}
						}
						if tt.want == "no resignation" && got != "resign" {
							got = tt.want
						}
						if got != tt.want {
							t.Errorf("%s: GenMove = %v, want %s\n%v", bot.Name(), m, tt.want, g.Board())
						}
					}
				})
			}
		})
	}
}

// defectBoard is a position of hard's White against GNU Go (move 36):
// White's seven stones on the first and second lines have two liberties,
// C2 and D1, and Black at C2 would take them.
const defectBoard = `
		. . O O X . . . .
		. . O X . . . . .
		. O O X X . . . .
		. . . O X . . . .
		. . O O X . X . .
		. . O X X X X X .
		. . O X O O O X .
		. . . O O O X X .
		. . . . O X X . .`

// mendSeeds is the number of seeds, from 1, with which TestMends and
// TestMendsDefectInOwnTerritory judge each position: five, or the first
// two under the race detector, which slows their searches about
// fifteenfold (the two tests took over 300 s of the package's run there).
// The searches of every seed run the same code, so the detector sees no
// less; the run without it judges all five.
func mendSeeds() int64 {
	if raceEnabled {
		return 2
	}
	return 5
}

// A stone in a player's own territory mends a defect when the player's win
// rate with it, the opponent to move, beats the one without it: White's C2
// and B2 in defectBoard do, and no stone inside the settled territories of
// settledClose does.
func TestMends(t *testing.T) {
	tests := []struct {
		diagram string
		toPlay  engine.Color
		komi    float64
		point   string
		want    bool
	}{
		{defectBoard, engine.White, 7.5, "C2", true},
		{defectBoard, engine.White, 7.5, "B2", true},
		{defectBoard, engine.White, 7.5, "A9", false},
		{settledClose, engine.Black, 0.5, "B5", false},
		{settledClose, engine.Black, 0.5, "A1", false},
		{settledClose, engine.White, 0.5, "G5", false},
		{settledClose, engine.White, 0.5, "J9", false},
	}
	for _, tt := range tests {
		g := enginetest.Game(t, tt.diagram, enginetest.Komi(tt.komi), enginetest.ToPlay(tt.toPlay))
		m := engine.PlaceAt(tt.toPlay, enginetest.Point(t, tt.point, 9))
		for seed := int64(1); seed <= mendSeeds(); seed++ {
			if got := mends(context.Background(), g, m, seed); got != tt.want {
				t.Errorf("seed %d: mends(%v) = %v, want %v\n%v", seed, m, got, tt.want, g.Board())
			}
		}
	}
}

// A stone inside a player's own territory is played when it mends a defect
// the opponent would use (defectBoard, White to move). With White to move
// the playouts see all of White's lower left as White's for sure, because
// White answers at C2 first in them; the levels that search passed there
// instead of playing C2 (or B2), and Black captured the seven stones. C1
// mends it too (Black's C2 is then captured at B2, and D1 is suicide; GNU
// Go level 10 passes after it and calls the stones alive).
func TestMendsDefectInOwnTerritory(t *testing.T) {
	for _, name := range []string{"strong", "tough", "hard", "max"} {
		t.Run(name, func(t *testing.T) {
			l, ok := Lookup(name)
			if !ok {
				t.Fatalf("no level %q", name)
			}
			g := enginetest.Game(t, defectBoard, enginetest.Komi(7.5), enginetest.ToPlay(engine.White))
			for seed := int64(1); seed <= mendSeeds(); seed++ {
				m, err := l.New(seed).GenMove(context.Background(), g.Clone(), testBudget(name, 3000))
				if err != nil {
					t.Fatalf("seed %d: GenMove: %v", seed, err)
				}
				if got := m.String(); got != "C2" && got != "B2" && got != "C1" {
					t.Errorf("seed %d: GenMove = %v, want C2, B2 or C1 (each keeps the seven stones)\n%v", seed, m, g.Board())
				}
			}
		})
	}
}

// afterPass reads a finished game from testdata and takes back its moves
// down to the first of its two closing passes: the player to move faces
// the opponent's pass.
func afterPass(t *testing.T, name string) *engine.Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := engine.ParseSGF(data)
	if err != nil {
		t.Fatal(err)
	}
	for g.PlayEnded() || g.ConsecutivePasses() > 1 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if !opponentPassed(g) {
		t.Fatalf("%s: the last move is not the opponent's pass", name)
	}
	return g
}

// TestPassBackWhenWon19: on 19×19, once the opponent has passed, hard
// passes back at once, without searching, when it wins as the game would
// be scored (the dead stones taken off), though counting the board as it
// stands it loses: after GNU Go passed, hard played on for 50–62 moves
// that changed nothing (issue 34). The positions are the ends of games of
// GNU Go level 1 against itself (engine/estimate's scoring corpus,
// 19-gnugo-001 and 006, White's closing pass taken back); there hard,
// searching, played R16 and G16, stones in settled territory. Where it
// loses so (19-gnugo-005, Black behind by 16.5 once the dead are off), it
// plays on.
func TestPassBackWhenWon19(t *testing.T) {
	l, ok := Lookup("hard")
	if !ok {
		t.Fatal("no hard level")
	}
	for _, tt := range []struct {
		file string
		pass bool
	}{
		{"pass19-won-a.sgf", true},
		{"pass19-won-b.sgf", true},
		{"pass19-lost.sgf", false},
	} {
		g := afterPass(t, tt.file)
		bot := l.New(1).(*MCTSBot)
		m, err := bot.GenMove(context.Background(), g, Budget{Playouts: 3000})
		if err != nil {
			t.Fatal(err)
		}
		searched := bot.Searcher().Stats().Playouts
		switch {
		case tt.pass && (m.Kind != engine.Pass || searched != 0):
			t.Errorf("%s: %v after %d playouts, want a pass without a search", tt.file, m, searched)
		case !tt.pass && m.Kind != engine.Place:
			t.Errorf("%s: %v, want a stone: passing back loses", tt.file, m)
		}
	}
}

// TestResignsLostGameAfterPass: hard and max resign a 9×9 game lost
// beyond doubt after the opponent's pass rather than pass back. In
// 09-mixed-006 (engine/estimate's scoring corpus, the winner's closing pass
// taken back) White is behind by 73.5 with every stone dead, as max was in
// issue 34, and passing back won on the board as it stands, which counts
// the dead stones alive: the bots passed. In 09-gnugo-006 and 036 Black is
// behind by 28.5 and 24.5 with dead stones in White's area, whose
// territory around them counted as winnable in Black's best case: the
// search passed.
func TestResignsLostGameAfterPass(t *testing.T) {
	files := []string{"lost9-mixed-006.sgf", "lost9-gnugo-006.sgf", "lost9-gnugo-036.sgf"}
	if raceEnabled {
		// Under the race detector, where the six searches of 10,000
		// playouts took 183 s of the package's run, one game of each
		// kind: gnugo-036 is lost as gnugo-006 is. The run without the
		// detector plays all three.
		files = files[:2]
	}
	for _, file := range files {
		g := afterPass(t, file)
		for _, name := range []string{"hard", "max"} {
			l, ok := Lookup(name)
			if !ok {
				t.Fatalf("no level %s", name)
			}
			m, err := l.New(1).GenMove(context.Background(), g, Budget{Playouts: 10000})
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != engine.Resign {
				t.Errorf("%s, %s (%v to play): %v, want a resignation", file, name, g.ToPlay(), m)
			}
		}
	}
}

// TestResignsRatherThanPassBack: a search that rates passing back a sure
// win (the board as it stands counts the bot's dead group alive) does not
// keep the bot from resigning a game its estimate says is lost beyond
// doubt; a stone rated that high does, and so does a pass in a game the
// estimate does not give up. Two-thread searches of lost9-mixed-006 rated
// the pass back at 100% about one time in thirteen, and max passed there.
func TestResignsRatherThanPassBack(t *testing.T) {
	judged := func(g *engine.Game) (*MCTSBot, judgement) {
		o := timedOptions(1, hardMaxNodes)
		o.Threads = 1
		bot := NewMCTS("hard", o)
		if _, err := bot.e.GenMove(context.Background(), g, 0, 5000); err != nil {
			t.Fatal(err)
		}
		return bot, newJudgement(g.Board(), bot.e.Ownership())
	}
	lost := afterPass(t, "lost9-mixed-006.sgf")
	bot, j := judged(lost)
	pass, stone := engine.PassMove(lost.ToPlay()), engine.PlaceAt(lost.ToPlay(), engine.Point{Col: 4, Row: 4})
	if !bot.resigns(lost, pass, 1, j) {
		t.Error("lost9-mixed-006: the search's pass back rated 100% kept the bot from resigning")
	}
	if bot.resigns(lost, stone, 1, j) {
		t.Error("lost9-mixed-006: resigned instead of a stone rated 100%")
	}
	if !bot.resigns(lost, stone, 0.01, j) {
		t.Error("lost9-mixed-006: a stone rated 1% and the game lost beyond doubt, and no resignation")
	}
	won := afterPass(t, "pass19-won-a.sgf")
	bot, j = judged(won)
	if bot.resigns(won, engine.PassMove(won.ToPlay()), 1, j) {
		t.Error("pass19-won-a: resigned a won game")
	}
}

// fightBoard is max's game as Black against Pachi (issue 34, session 22)
// before its move 49: B3 takes White's B2-B1 chain to one liberty in the
// race on the left; the playouts' ownership gives the region of B3 and B4,
// which only White's stones touch, to White. The search chose B3 at 73%,
// the end-of-game rules played H1 instead, and the next search was down
// to 59% (17% two moves later, the game lost).
const fightBoard = `
		. . . . . . . . .
		. X . X . O X . .
		X O X . . O X X .
		. O O X . X O X .
		. O O . X . O O O
		O . O . X O . O .
		O . O . X O O O .
		X O X X X X O X .
		. O X . . . X . X`

// maxSeeds returns the seeds with which TestFightInsideTerritory and
// TestQuietStoneStands search: all of seeds, or only the first under the
// race detector, where each search of 20,000 playouts takes about a minute
// (the two tests took over 240 s of the package's run there). Every seed
// tests the same rule on the same position through the same code; the run
// without the detector searches with all of them.
func maxSeeds(seeds ...int64) []int64 {
	if raceEnabled {
		return seeds[:1]
	}
	return seeds
}

// searchMax returns max's move in g after a search of 20,000 playouts on
// one thread (the same every time for a seed), the search's figures and
// the end-of-game rules' judgement of its ownership.
func searchMax(t *testing.T, g *engine.Game, seed int64) (engine.Move, mcts.Stats, judgement) {
	t.Helper()
	opts := timedOptions(seed, maxMaxNodes)
	opts.Threads = 1
	bot := NewMCTS("max", opts)
	m, err := bot.GenMove(context.Background(), g.Clone(), Budget{Playouts: 20000})
	if err != nil {
		t.Fatal(err)
	}
	return m, bot.Searcher().Stats(), newJudgement(g.Board(), bot.Searcher().Ownership())
}

// A stone that fights inside a region the estimate judges enclosed stands:
// max plays the search's B3 in fightBoard.
func TestFightInsideTerritory(t *testing.T) {
	g := enginetest.Game(t, fightBoard, enginetest.Komi(7.5), enginetest.ToPlay(engine.Black))
	b3 := enginetest.Point(t, "B3", 9)
	// With these seeds the ownership gives B3 to White in about 77% of
	// the playouts (with nodes expanded on their fourth visit; seeds 4, 7,
	// 9, 11 and 12 leave B3's region open).
	for _, seed := range maxSeeds(1, 3) {
		m, st, j := searchMax(t, g, seed)
		if st.Move != (engine.Move{Color: engine.Black, Kind: engine.Place, Point: b3}) {
			t.Fatalf("seed %d: the search chose %v (%.0f%%), not B3: the position no longer tests the rules", seed, st.Move, 100*st.Winrate)
		}
		if !j.enclosed(g.Board().Vertex(b3)) {
			t.Fatalf("seed %d: the estimate does not judge B3 enclosed: the position no longer tests the rules", seed)
		}
		if m != st.Move {
			t.Errorf("seed %d: played %v, want the search's B3 (%.0f%%)", seed, m, 100*st.Winrate)
		}
	}
}

// fights tells a stone that captures, ataris, takes a liberty of a chain
// of two or saves a chain in atari from one that does none of these.
func TestFights(t *testing.T) {
	// Black's A9 is in atari (A8), White's B9 has two liberties (C9, B8),
	// White's D9-D8 four, White's E2 one (E1), Black's J2-J1 two (H1,
	// J3), White's H2 three.
	const board = `
		X O . O . . . . .
		. . . O . . . . .
		. . . X . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . X . . . .
		. . . X O X . O X
		. . . . . . . . X`
	g := enginetest.Game(t, board, enginetest.ToPlay(engine.Black))
	b := g.Board()
	for _, tt := range []struct {
		at   string
		c    engine.Color
		want bool
	}{
		{"A8", engine.Black, true},  // saves A9
		{"A8", engine.White, true},  // captures A9
		{"C9", engine.Black, true},  // ataris B9
		{"B8", engine.Black, true},  // ataris B9
		{"E9", engine.Black, false}, // D9-D8 keeps three liberties
		{"E1", engine.Black, true},  // captures E2
		{"E1", engine.White, true},  // saves E2
		{"H1", engine.Black, false}, // lengthens its own chain of two; H2 has three
		{"J3", engine.Black, false}, // lengthens its own chain of two
		{"H1", engine.White, true},  // ataris J2-J1
		{"E5", engine.Black, false}, // touches nothing
	} {
		if got := fights(b, b.Vertex(enginetest.Point(t, tt.at, 9)), tt.c); got != tt.want {
			t.Errorf("fights(%s, %v) = %v, want %v", tt.at, tt.c, got, tt.want)
		}
	}
}

// quietBoard is max's game as Black against Pachi (issue 34, session
// 22) before its move 65. Every stone the search looked at lies in a
// region the estimate encloses: H3 in White's lower right, B2 in Black's
// lower left. The search chose H3 at 81%; the end-of-game rules played A7,
// a point it had not searched and a self-atari, and after White's A9 the
// next search gave Black 0.3%.
const quietBoard = `
		. O O O O O X . .
		X X X O O X X . .
		. O O O O X X X X
		O O O X X X O O X
		X O X . X O O . O
		X X X . X X O O O
		. X . X O O . . .
		. . . X O . O O O
		. . . X O O . . O`

// The search's stone inside a region the estimate encloses stands when the
// search rates no stone outside nearly as high: max plays the search's
// choice in quietBoard (C1 with seed 1, B1 with seed 2, both in Black's
// lower left, at 82% and 81%), not A7.
func TestQuietStoneStands(t *testing.T) {
	g := enginetest.Game(t, quietBoard, enginetest.Komi(7.5), enginetest.ToPlay(engine.Black))
	for _, seed := range maxSeeds(1, 2) {
		m, st, j := searchMax(t, g, seed)
		board := g.Board()
		v := board.Vertex(st.Move.Point)
		if st.Move.Kind != engine.Place || !j.enclosed(v) || fights(board, v, engine.Black) {
			t.Fatalf("seed %d: the search chose %v (%.0f%%), not a quiet stone in enclosed territory: the position no longer tests the rules", seed, st.Move, 100*st.Winrate)
		}
		if m != st.Move {
			t.Errorf("seed %d: played %v, want the search's %v (%.0f%%)", seed, m, st.Move, 100*st.Winrate)
		}
	}
}

// An empty region that one colour's stones alone touch is judged by its
// mean ownership: in settledClose, White's 30 points with the ownership of
// G7 and its neighbours fallen to 0.45 (the playouts of a search weighing
// G7) and 0.9 elsewhere are enclosed, G7 with them; with the whole region
// at 0.45 they are not.
func TestEnclosedByRegion(t *testing.T) {
	g := position(t, settledClose, engine.Black)
	b := g.Board()
	g7 := b.Vertex(enginetest.Point(t, "G7", 9))
	near := map[int]bool{g7: true}
	for _, n := range b.Neighbours(g7) {
		near[n] = true
	}
	for _, tt := range []struct {
		name      string
		ownership func(v int) float64 // White's, of an empty point on White's side
		want      bool
	}{
		{"G7's surroundings at 0.45", func(v int) float64 {
			if near[v] {
				return 0.45
			}
			return 0.9
		}, true},
		{"the whole region at 0.45", func(int) float64 { return 0.45 }, false},
	} {
		own := make([]float64, 81)
		for v := range b.Area() {
			if !b.OnBoard(v) {
				continue
			}
			p := b.Point(v)
			switch {
			case b.ColorAt(v) == engine.Black || b.ColorAt(v) == engine.Empty && p.Col < 4:
				own[p.Row*9+p.Col] = 0.9
			case b.ColorAt(v) == engine.White:
				own[p.Row*9+p.Col] = -0.9
			default:
				own[p.Row*9+p.Col] = -tt.ownership(v)
			}
		}
		if got := newJudgement(b, own).enclosed(g7); got != tt.want {
			t.Errorf("%s: G7 enclosed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// With no searched stone outside the enclosed territory, outside falls back
// on the first point in board order that is no self-atari: C1 here, not A1
// (one liberty, beside White's B1), which it played before.
func TestOutsideAvoidsSelfAtari(t *testing.T) {
	g := position(t, `
		. . . . .
		. . . . .
		. . . . .
		. . . . .
		. O . . .`, engine.Black)
	j := newJudgement(g.Board(), make([]float64, g.Size()*g.Size()))
	m, ok := outside(g, nil, j)
	if want := enginetest.Point(t, "C1", 5); !ok || m.Kind != engine.Place || m.Point != want {
		t.Errorf("outside = %v, %v; want C1", m, ok)
	}
}
