package gtp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// The records referee loads the real game records in engine/testdata/sgf/real
// (engine's records_test.go reads them; see the README there for where
// each came from) into this package's GTP server and into GNU Go 3.8: both
// must agree on the position after loading the file (GTP loadsgf, at the
// end and before a few moves) and accept every move fed to them one by one
// with play.
//
// By default every record is loaded at its end, at its first move, at two
// moves in the middle and at the vertex of its middle move, and replayed
// into GNU Go with the position compared every 25 moves and is_legal
// compared on every point at the end; the records in recordsEveryMove are
// compared after every move and loaded at every move (with is_legal after
// every move on boards up to 9×9).
// GOBOT_RECORDS=full compares every record after every move, both ways.

// refusedRecords are the records ParseSGF refuses (engine's recordFailures
// says why).
var refusedRecords = []string{"cgoban_problem_setup_after_pass.sgf"}

// gnugoCannotLoad are records GNU Go 3.8's loadsgf cannot read, with why.
// Their moves are still played into GNU Go from an empty board, and this
// package's loadsgf is still compared with the replay.
var gnugoCannotLoad = map[string]string{
	"nihon_kiin_root_without_semicolon.sgf": `the root node has no ";": GNU Go exits with "Empty file?"`,
}

// recordsEveryMove are compared with GNU Go after every move and loaded at
// every move number in the default run: short records of each kind (9×9
// with passes after two passes, set-up stones, handicap stones in a node of
// their own, handicap stones given as black moves, passes against moves).
var recordsEveryMove = []string{
	"gnugo_9x9_pass_then_play.sgf",
	"cgoban_9x9_setup_stones.sgf",
	"fox_handicap2_setup_node.sgf",
	"pachi_handicap_as_black_moves.sgf",
	"kgs_9x9_dariush_gnugo_passes_marks.sgf",
	"crazystone_gnugo_9x9_tt_passes_iso8859.sgf",
}

// recordReferee compares both GTP engines with the positions of a record.
type recordReferee struct {
	t       *testing.T
	name    string
	engines []*peer
}

// same checks that every engine reports the position want.
func (r *recordReferee) same(what string, want enginetest.Position) {
	r.t.Helper()
	for _, e := range r.engines {
		for _, c := range []struct {
			color engine.Color
			want  string
		}{{engine.Black, want.Black}, {engine.White, want.White}} {
			if got := sortedVertices(e.must(r.t, "list_stones "+c.color.String())); got != c.want {
				r.t.Fatalf("%s %s: %s list_stones %v = %q, want %q", r.name, what, e.name, c.color, got, c.want)
			}
		}
		for _, c := range []struct {
			color engine.Color
			want  int
		}{{engine.Black, want.CapturedByBlack}, {engine.White, want.CapturedByWhite}} {
			if got := e.must(r.t, "captures "+c.color.String()); got != strconv.Itoa(c.want) {
				r.t.Fatalf("%s %s: %s captures %v = %s, want %d", r.name, what, e.name, c.color, got, c.want)
			}
		}
	}
}

// legal compares is_legal for every point of the board, for the colour to
// move, between the engines (the ko point after a capture included).
func (r *recordReferee) legal(what string, size int, c engine.Color) {
	r.t.Helper()
	for row := 0; row < size; row++ {
		for col := 0; col < size; col++ {
			cmd := fmt.Sprintf("is_legal %s %s", c, engine.Point{Col: col, Row: row})
			var answers []string
			for _, e := range r.engines {
				answers = append(answers, e.must(r.t, cmd))
			}
			if answers[0] != answers[1] {
				r.t.Fatalf("%s %s: %q: %s says %s, %s says %s", r.name, what, cmd,
					r.engines[0].name, answers[0], r.engines[1].name, answers[1])
			}
		}
	}
}

// load sends loadsgf to the engines (all when nil), with until (a move
// number or a vertex) when it is not empty. Each must answer the colour to
// move.
func (r *recordReferee) load(engines []*peer, file, until string, want enginetest.Position) {
	r.t.Helper()
	cmd := "loadsgf " + file
	if until != "" {
		cmd += " " + until
	}
	if engines == nil {
		engines = r.engines
	}
	saved := r.engines
	defer func() { r.engines = saved }()
	r.engines = engines
	for _, e := range r.engines {
		got := e.must(r.t, cmd)
		if got != want.ToPlay.String() {
			r.t.Errorf("%s: %s %q = %q, want %q to move", r.name, e.name, cmd, got, want.ToPlay)
		}
	}
	r.same(fmt.Sprintf("after %q", cmd), want)
}

// TestRealRecordsGNUGo compares the records with GNU Go.
func TestRealRecordsGNUGo(t *testing.T) {
	full := os.Getenv("GOBOT_RECORDS") == "full"
	ref := &recordReferee{t: t, engines: []*peer{startServer(t, engine.SimpleKo, 1, nil), startGNUGo(t)}}
	records, moves, loads := 0, 0, 0
	dir := t.TempDir()
	for _, f := range realRecords(t) {
		name := filepath.Base(f)
		if slices.Contains(refusedRecords, name) {
			continue
		}
		g, info := readRecord(t, f)
		if g.Size() > 19 {
			t.Logf("%s: %d×%d is larger than GNU Go plays", name, g.Size(), g.Size())
			continue
		}
		ref.name = name
		pos := enginetest.Replay(t, name, g)
		n := g.MoveCount()
		every := full || slices.Contains(recordsEveryMove, name)

		// loadsgf numbers the record's own moves: passes ParseSGF
		// inserted between two moves of one player do not count.
		var loaders []*peer // nil: both
		if why, ok := gnugoCannotLoad[name]; ok {
			loaders = ref.engines[:1]
			t.Logf("%s: loadsgf in gobot only: %s", name, why)
		}
		ref.load(loaders, f, "", pos[n])
		loaded := 1
		own := n - len(info.InsertedAt)
		ks := []int{1, own/3 + 1, 2*own/3 + 1}
		if every {
			ks = ks[:0]
			for k := 1; k <= own+1; k++ {
				ks = append(ks, k)
			}
		}
		for _, k := range ks {
			i, ok := recordMoveIndex(info.InsertedAt, k-1, n)
			if !ok {
				i = n
			}
			ref.load(loaders, f, strconv.Itoa(k), pos[i])
			loaded++
		}
		// And before the first move at the vertex of the record's middle
		// move.
		if i, ok := recordMoveIndex(info.InsertedAt, own/2, n); ok && g.Moves()[i].Kind == engine.Place {
			p := g.Moves()[i].Point
			first := slices.IndexFunc(g.Moves(), func(m engine.Move) bool { return m.Kind == engine.Place && m.Point == p })
			ref.load(loaders, f, strings.ToLower(p.String()), pos[first])
			loaded++
		}
		// GNU Go reads what WriteSGF writes: the whole record and the
		// position before its middle move.
		var buf bytes.Buffer
		if err := engine.WriteSGF(&buf, g, *info); err != nil {
			t.Fatalf("%s: WriteSGF: %v", name, err)
		}
		written := filepath.Join(dir, strings.TrimSuffix(name, ".sgf")+"-written.sgf")
		if err := os.WriteFile(written, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		ref.load(nil, written, "", pos[n])
		ref.load(nil, written, strconv.Itoa(n/2+1), pos[n/2])
		loaded += 2

		// The moves one by one from the set-up, which loadsgf before
		// move 1 gives (or, where GNU Go cannot load the file, an empty
		// board of the size).
		if loaders == nil {
			ref.load(nil, f, "1", pos[0])
		} else {
			if len(g.Setup()) > 0 {
				t.Fatalf("%s: set-up stones cannot be given to GNU Go without loadsgf", name)
			}
			for _, e := range ref.engines {
				e.must(t, fmt.Sprintf("boardsize %d", g.Size()))
				e.must(t, "clear_board")
			}
			ref.same("on the empty board", pos[0])
		}
		for i, m := range g.Moves() {
			cmd := fmt.Sprintf("play %s %s", m.Color, m)
			for _, e := range ref.engines {
				if ok, resp := e.send(t, cmd); !ok {
					t.Fatalf("%s move %d: %s refuses %q: %s", name, i+1, e.name, cmd, resp)
				}
			}
			what := fmt.Sprintf("after move %d (%s %v)", i+1, m.Color.Letter(), m)
			if every || (i+1)%25 == 0 || i+1 == n {
				ref.same(what, pos[i+1])
			}
			if every && (g.Size() <= 9 || full) {
				ref.legal(what, g.Size(), pos[i+1].ToPlay)
			}
		}
		ref.legal("at the end", g.Size(), pos[n].ToPlay)
		records++
		moves += n
		loads += loaded
		t.Logf("%s: %d moves played and %d loads agreed", name, n, loaded)
	}
	t.Logf("%d records, %d moves, %d loads agreed with GNU Go", records, moves, loads)
}

// TestServeLoadSGFRecordNumbering pins loadsgf's numbering on a record that
// gives its four handicap stones as black moves: GNU Go counts the record's
// moves, not the passes ParseSGF inserts between them, and answers the
// colour of the move it stops before. A vertex stops before the first move
// there.
func TestServeLoadSGFRecordNumbering(t *testing.T) {
	f := filepath.Join("..", "testdata", "sgf", "real", "pachi_handicap_as_black_moves.sgf")
	tests := []struct {
		until, toPlay, black, white string
	}{
		{"1", "black", "", ""},
		{"2", "black", "Q4", ""},
		{"4", "black", "Q4 D4 D16", ""},
		{"5", "white", "Q16 D16 Q4 D4", ""},
		{"6", "black", "Q16 D16 Q4 D4", "R14"},
		{"r14", "white", "Q16 D16 Q4 D4", ""},
		{"D16", "black", "Q4 D4", ""},
		{"T19", "black", "", ""}, // never played: the whole record
	}
	for _, tt := range tests {
		t.Run(tt.until, func(t *testing.T) {
			resp := serveRun(t, ServerOptions{Ko: engine.SimpleKo}, fmt.Sprintf("loadsgf %s %s\nlist_stones black\nlist_stones white\n", f, tt.until))
			if tt.until == "T19" {
				if resp[0] != "= black" || len(strings.Fields(resp[1])) < 20 {
					t.Errorf("loadsgf %s = %q, want the whole record with black to move", tt.until, resp)
				}
				return
			}
			want := []string{"= " + tt.toPlay, strings.TrimSpace("= " + sortedVertices(tt.black)), strings.TrimSpace("= " + tt.white)}
			got := []string{resp[0], strings.TrimSpace("= " + sortedVertices(strings.TrimPrefix(resp[1], "= "))), strings.TrimSpace(resp[2])}
			if !slices.Equal(got, want) {
				t.Errorf("loadsgf %s = %q, want %q", tt.until, got, want)
			}
		})
	}
	for _, bad := range []string{"0", "-2", "Z9", "pass"} {
		if resp := serveRun(t, ServerOptions{}, "loadsgf "+f+" "+bad+"\n"); resp[0] != "? syntax error" {
			t.Errorf("loadsgf %s = %q, want a syntax error", bad, resp[0])
		}
	}
}

// TestRefereeEverySize plays random games on every board size GNU Go
// plays, 2×2 to 19×19, with simple ko and with positional superko, when
// GOBOT_REFEREE_GAMES asks for the long referee run (n/10 games, at least
// one, per size and rule); the default run covers 4, 5, 9 and 19.
func TestRefereeEverySize(t *testing.T) {
	n := refereeGames()
	if n == 0 {
		t.Skip("set GOBOT_REFEREE_GAMES=n for random games on every size from 2×2 to 19×19")
	}
	games := max(1, n/10)
	for _, tt := range []struct {
		ko   engine.KoRule
		flag string
	}{{engine.SimpleKo, "--simple-ko"}, {engine.PositionalSuperko, "--positional-superko"}} {
		t.Run(tt.ko.String(), func(t *testing.T) {
			ref := newReferee(t, tt.ko, tt.flag)
			rng := rand.New(rand.NewPCG(uint64(n), uint64(tt.ko)))
			moves := 0
			for size := engine.MinSize; size <= 19; size++ {
				for i := 0; i < games; i++ {
					ref.randomGame(rng, size, tt.ko, size <= 7)
					moves += len(ref.history)
				}
			}
			t.Logf("%d games on each size from %d to 19, %d moves agreed; illegal tries both engines rejected: %v",
				games, engine.MinSize, moves, ref.tries)
		})
	}
}

// TestRecordQuirksGNUGo loads records with the oddities ParseSGF reads in a
// particular way into GNU Go and this package's GTP engine, which must agree
// on the position and the colour to move, at the end and before the first
// move: handicap without its stones, white stones but no black ones, a
// move after a pass, two moves in one node.
func TestRecordQuirksGNUGo(t *testing.T) {
	records := []string{
		"(;GM[1]FF[4]SZ[19]HA[2]KM[0.5];W[qd];B[dc];W[cp])",    // fixed handicap left to the reader
		"(;GM[1]FF[4]SZ[9]HA[3]KM[0.5];W[ee];B[dd])",           // on 9×9
		"(;GM[1]FF[4]SZ[13]HA[5]KM[0.5]\n;W[kc];B[ck])",        // on 13×13
		"(;GM[1]FF[4]SZ[19]HA[2]KM[0.5];B[qd];W[dd])",          // HA but engine.Black moves first: no stones
		"(;GM[1]FF[4]SZ[19]HA[2]AW[aa];W[qd];B[dd])",           // set-up without black stones
		"(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp];W[qd];B[dp];W[pd])", // the usual form
		"(;GM[1]FF[4]SZ[5]KM[0.5];B[cc]W[dd];B[bb];W[];B[bd])", // two moves in one node, a pass
	}
	dir := t.TempDir()
	ref := &recordReferee{t: t, engines: []*peer{startServer(t, engine.SimpleKo, 1, nil), startGNUGo(t)}}
	for i, rec := range records {
		name := fmt.Sprintf("quirk%d.sgf", i)
		ref.name = name
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
		g, _, err := engine.ParseSGF([]byte(rec))
		if err != nil {
			t.Fatalf("%s: ParseSGF(%q): %v", name, rec, err)
		}
		pos := enginetest.Replay(t, name, g)
		ref.load(nil, f, "", pos[len(pos)-1])
		ref.load(nil, f, "1", pos[0])
		ref.load(nil, f, "2", pos[1])
	}
}

func realRecords(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "sgf", "real", "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in testdata/sgf/real: %v", err)
	}
	return files
}

// readRecord reads and parses the SGF record in the file f, or ends the
// test.
func readRecord(t testing.TB, f string) (*engine.Game, *engine.SGFInfo) {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	g, info, err := engine.ParseSGF(data)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(f), err)
	}
	return g, info
}

// TestRecordListsExist checks that the records this file names are in
// engine/testdata/sgf/real.
func TestRecordListsExist(t *testing.T) {
	names := slices.Concat(refusedRecords, recordsEveryMove)
	for name := range gnugoCannotLoad {
		names = append(names, name)
	}
	for _, name := range names {
		if _, err := os.Stat(filepath.Join("..", "testdata", "sgf", "real", name)); err != nil {
			t.Errorf("%s is listed in records_test.go but not in engine/testdata/sgf/real: %v", name, err)
		}
	}
}

// TestServeLoadSGFUndoInserted: after loadsgf, one undo takes back one move
// of the record, with the pass the reader inserted between two moves of one
// colour (as GNU Go undoes it), not the pass on its own.
func TestServeLoadSGFUndoInserted(t *testing.T) {
	f := filepath.Join(t.TempDir(), "twice.sgf")
	if err := os.WriteFile(f, []byte("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];B[dd];W[cc];W[cd])"), 0o600); err != nil {
		t.Fatal(err)
	}
	resp := serveRun(t, ServerOptions{}, "loadsgf "+f+"\nundo\nundo\nlist_stones white\nlist_stones black\nundo\nlist_stones black\nundo\nundo\n")
	want := []string{"= black", "= ", "= ", "= ", "= D6 E5", "= ", "= E5", "= ", "? cannot undo"}
	if !slices.Equal(resp, want) {
		t.Errorf("responses = %q, want %q", resp, want)
	}
}
