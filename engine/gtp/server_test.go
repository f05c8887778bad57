package gtp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// serveRun runs a GTP session over script and returns the responses, one per
// command, without the trailing empty line.
func serveRun(t *testing.T, opts ServerOptions, script string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(script), &out, opts); err != nil {
		t.Fatalf("Serve = %v", err)
	}
	if !strings.HasSuffix(out.String(), "\n\n") {
		t.Fatalf("output %q does not end with an empty line", out.String())
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
}

// serveStep is one command and the response it must get.
type serveStep struct {
	cmd, want string
}

// serveCheck runs the steps' commands in one session and checks each
// response; a step that wants "" wants any success.
func serveCheck(t *testing.T, opts ServerOptions, steps []serveStep) {
	t.Helper()
	var script strings.Builder
	for _, s := range steps {
		script.WriteString(s.cmd + "\n")
	}
	got := serveRun(t, opts, script.String())
	if len(got) != len(steps) {
		t.Fatalf("%d responses, want %d:\n%q", len(got), len(steps), got)
	}
	for i, s := range steps {
		if s.want == "" { // any success
			if !strings.HasPrefix(got[i], "=") {
				t.Errorf("%q = %q, want success", s.cmd, got[i])
			}
			continue
		}
		if got[i] != s.want {
			t.Errorf("%q = %q, want %q", s.cmd, got[i], s.want)
		}
	}
}

func TestServeCommands(t *testing.T) {
	tests := []struct {
		name  string
		steps []serveStep
	}{
		{"identity", []serveStep{
			{"protocol_version", "= 2"},
			{"name", "= gobot"},
			{"version", "= "},
			{"7 known_command play", "=7 true"},
			{"known_command foo", "= false"},
			{"known_command", "= false"},
			{"foo bar", "? unknown command"},
			{"42 foo", "?42 unknown command"},
			{"PLAY b a1", "? unknown command"},
		}},
		{"boardsize and clear_board", []serveStep{
			{"boardsize 1", "? unacceptable size"},
			{"boardsize 26", "? unacceptable size"},
			{"boardsize nine", "? syntax error"},
			{"boardsize", "? syntax error"},
			{"boardsize 5", "= "},
			{"play b c3", "= "},
			{"list_stones black", "= C3"},
			{"clear_board", "= "},
			{"list_stones black", "= "},
			{"play b e5", "= "},
			{"play w f6", "? invalid color or coordinate"},
		}},
		{"play: illegal moves change nothing", []serveStep{
			{"boardsize 5", "= "},
			{"play b a1", "= "},
			{"play w a1", "? illegal move"},
			{"play x b1", "? invalid color or coordinate"},
			{"play b i1", "? invalid color or coordinate"},
			{"play b", "? syntax error"},
			{"play w resign", "? invalid color or coordinate"},
			{"genmove x", "? invalid color"}, // a colour alone, as GNU Go says it
			{"reg_genmove purple", "? invalid color"},
			// Suicide: B at E5 corner surrounded by white.
			{"play w d5", "= "},
			{"play b a5", "= "},
			{"play w e4", "= "},
			{"play b e5", "? illegal move"},
			{"list_stones black", "= A5 A1"},
			{"list_stones white", "= D5 E4"},
			{"captures black", "= 0"},
		}},
		{"ko: no immediate retake, retake after a pass", []serveStep{
			// . X O . .
			// X O . O .
			// . X O . .   (top three rows of 5×5)
			{"boardsize 5", "= "},
			{"play b b5", "= "}, {"play w c5", "= "},
			{"play b a4", "= "}, {"play w b4", "= "},
			{"play b b3", "= "}, {"play w d4", "= "},
			{"play b a1", "= "}, {"play w c3", "= "},
			{"play b c4", "= "}, // captures B4
			{"captures black", "= 1"},
			{"is_legal w b4", "= 0"},
			{"play w b4", "? illegal move"},
			{"play w pass", "= "},
			{"play b pass", "= "},
			{"is_legal w b4", "= 1"},
			{"play w b4", "= "}, // the ko may be retaken after passes
			{"captures white", "= 1"},
		}},
		{"out-of-turn play and undo", []serveStep{
			{"boardsize 9", "= "},
			{"play b e5", "= "},
			{"play b d4", "= "}, // a white pass is recorded first
			{"play w c3", "= "},
			{"undo", "= "},
			{"undo", "= "}, // takes back D4 and the pass
			{"list_stones black", "= E5"},
			{"genmove w", ""}, // white to move again
			{"undo", "= "},
			{"undo", "= "},
			{"undo", "? cannot undo"},
			{"list_stones black", "= "},
		}},
		{"play after two passes resumes", []serveStep{
			{"boardsize 9", "= "},
			{"play b pass", "= "},
			{"play w pass", "= "},
			{"play b e5", "= "},
			{"list_stones black", "= E5"},
		}},
		{"komi and final_score", []serveStep{
			{"boardsize 5", "= "},
			{"komi 0.5", "= "},
			{"final_score", "= W+0.5"},
			{"play b c3", "= "},
			{"final_score", "= B+24.5"},
			{"komi 25", "= "},
			{"final_score", "= 0"},
			{"komi abc", "? syntax error"},
			{"final_score", "= 0"},
			{"komi 6.25", "= "}, // any komi, as the spec asks
			{"final_score", "= B+18.75"},
			{"komi 1e7", "? komi 1e7: must be a number from -1000000 to 1000000"},
			{"komi inf", "? komi inf: must be a number from -1000000 to 1000000"},
			{"final_score", "= B+18.75"},
			{"list_stones black", "= C3"},
		}},
		{"fixed_handicap", []serveStep{
			{"boardsize 19", "= "},
			{"fixed_handicap 9", "= D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
			{"fixed_handicap 2", "? board not empty"},
			{"clear_board", "= "},
			{"fixed_handicap 1", "? invalid number of stones"},
			{"fixed_handicap 10", "? invalid number of stones"},
			{"fixed_handicap x", "? syntax error"},
			{"fixed_handicap 3", "= D4 Q16 D16"},
			{"genmove b", ""}, // engine.White moves first, so engine.Black's genmove adds a pass
			{"boardsize 9", "= "},
			{"fixed_handicap 5", "= C3 G7 C7 G3 E5"},
			{"boardsize 5", "= "},
			{"fixed_handicap 2", "? invalid number of stones"},
		}},
		{"free handicap", []serveStep{
			{"boardsize 9", "= "},
			{"set_free_handicap c3 g7 c3", "? bad vertex list"},
			{"set_free_handicap c3", "? bad vertex list"},
			{"set_free_handicap c3 z9", "? bad vertex list"},
			{"set_free_handicap c3 g7 e5", "= "},
			{"list_stones black", "= G7 E5 C3"},
			{"set_free_handicap d4 f6", "? board not empty"},
			{"place_free_handicap 2", "? board not empty"},
			{"play b d4", "= "}, // engine.Black plays out of turn after a white pass
			{"clear_board", "= "},
			{"place_free_handicap 2", "= C3 G7"},
			{"clear_board", "= "},
			{"place_free_handicap 81", "? invalid number of stones"},
			{"place_free_handicap 1", "? invalid number of stones"},
		}},
		{"final_status_list without dead stones", []serveStep{
			{"boardsize 5", "= "},
			{"play b a1", "= "}, {"play w e5", "= "}, {"play b b1", "= "},
			{"final_status_list dead", "= "},
			{"final_status_list alive", "= E5\nA1 B1"},
			{"final_status_list seki", "= "},
			{"final_status_list sleepy", "? syntax error"},
		}},
		{"time settings", []serveStep{
			{"time_settings 300 30 5", "= "},
			{"time_left b 120 0", "= "},
			{"time_left w 20 3", "= "},
			{"time_settings 300 30", "? syntax error"},
			{"time_left x 1 1", "? invalid color"},
			{"time_left b -1 0", "? syntax error"},
		}},
		{"showboard", []serveStep{
			{"boardsize 3", "= "},
			{"komi 5", "= "},
			{"play b b2", "= "},
			{"showboard", "= \n   A B C \n 3 . . . \n 2 . X . \n 1 . . . \n   A B C \n" +
				"Black (X) has captured 0 stones\nWhite (O) has captured 0 stones\nwhite to play, move 2, komi 5"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			serveCheck(t, ServerOptions{Seed: 1, DeadStones: noDead}, tt.steps)
		})
	}
}

func noDead(context.Context, *engine.Game) []engine.Point { return nil }

// TestServeEstimatedStatus scores with the default, estimate.Dead: a white
// stone alone inside a living black group with four eyes is dead.
func TestServeEstimatedStatus(t *testing.T) {
	script := "boardsize 7\nkomi 7.5\n"
	for i := 1; i <= 7; i++ {
		script += fmt.Sprintf("play b D%d\nplay b %c4\n", i, "ABCDEFG"[i-1])
	}
	script += "play w B2\nfinal_status_list dead\nfinal_status_list alive\nfinal_status_list seki\nfinal_score\n"
	got := serveRun(t, ServerOptions{}, script)
	got = got[len(got)-4:]
	want := []string{"= B2", "= D7 D6 D5 A4 B4 C4 D4 E4 F4 G4 D3 D2 D1", "= ", "= B+41.5"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("responses = %q, want %q", got, want)
	}
}

// sekiRecord is a finished 9×9 game under Japanese rules with its final
// marking (TB, TW, and MA on the dead stones B7 and H7). Black's C1 C2 C3
// D3 and White's E1 E2 E3, each without an eye and walled in by the
// opponent's living stones, share their only liberties D1 and D2: a seki.
//
//	  A B C D E F G H J
//	9 . . . O X . . . .
//	8 . . . O X . . . .
//	7 . X . O X . . O .
//	6 . . . O X . . . .
//	5 . . . O X . . . .
//	4 O O O O X X X X X
//	3 . O X X O X . . .
//	2 . O X . O X . . .
//	1 . O X . O X . . .
const sekiRecord = `(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]RE[B+4.5]
AB[ea][eb][bc][ec][ed][ee][ef][ff][gf][hf][if][cg][dg][fg][ch][fh][ci][fi]
AW[da][db][dc][hc][dd][de][af][bf][cf][df][bg][eg][bh][eh][bi][ei]
;B[];W[]
TB[fa:ia][fb:ib][fc:ic][fd:id][fe:ie][gg:ii]
TW[aa:ca][ab:cb][ac:cc][ad:cd][ae:ce][ag:ai]
MA[bc][hc])
`

// TestServeSekiWithDeadStones: final_status_list seki lists the stones in
// seki also when ServerOptions.DeadStones gives the dead stones, from the
// record's marking or from the estimate (as gobot gtp does). It answered
// no seki then, and listed the seki stones as alive. GNU Go 3.8 (with and
// without --japanese-rules) gives the same lists and B+4.5.
func TestServeSekiWithDeadStones(t *testing.T) {
	record := filepath.Join(t.TempDir(), "seki.sgf")
	if err := os.WriteFile(record, []byte(sekiRecord), 0o644); err != nil {
		t.Fatal(err)
	}
	_, info, err := engine.ParseSGF([]byte(sekiRecord))
	if err != nil {
		t.Fatal(err)
	}
	marking := func(context.Context, *engine.Game) []engine.Point { return info.Dead }
	for _, tt := range []struct {
		name string
		dead func(context.Context, *engine.Game) []engine.Point
	}{
		{"marking", marking},
		{"estimate.DeadStones", estimate.DeadStones},
		{"estimate.Dead", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			serveCheck(t, ServerOptions{DeadStones: tt.dead}, []serveStep{
				{"loadsgf " + record, "= black"},
				{"final_status_list seki", "= C3 D3 C2 C1\nE3 E2 E1"},
				{"final_status_list alive", "= D9 D8 D7 D6 D5 A4 B4 C4 D4 B3 B2 B1\nE9 E8 E7 E6 E5 E4 F4 G4 H4 J4 F3 F2 F1"},
				{"final_status_list dead", "= B7\nH7"},
				{"final_score", "= B+4.5"},
			})
		})
	}
}

func TestServePreprocessing(t *testing.T) {
	script := "# a comment line\n\n   \n\t1\tname  # trailing comment\r\n2 proto\x01col_version\n\x7fversion\n"
	got := serveRun(t, ServerOptions{Name: "tester", Version: "1.2"}, script)
	want := []string{"=1 tester", "=2 2", "= 1.2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("responses = %q, want %q", got, want)
	}
}

func TestServeListCommands(t *testing.T) {
	got := serveRun(t, ServerOptions{}, "list_commands\n")
	cmds := strings.Split(strings.TrimPrefix(got[0], "= "), "\n")
	required := []string{"protocol_version", "name", "version", "known_command", "list_commands", "quit",
		"boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard", "final_score",
		"final_status_list", "list_stones", "loadsgf", "printsgf", "fixed_handicap",
		"place_free_handicap", "set_free_handicap", "time_settings", "time_left", "reg_genmove"}
	listed := map[string]bool{}
	var script strings.Builder
	for _, c := range cmds {
		listed[c] = true
		script.WriteString("known_command " + c + "\n")
	}
	for _, c := range required {
		if !listed[c] {
			t.Errorf("list_commands lacks %s", c)
		}
	}
	for i, r := range serveRun(t, ServerOptions{}, script.String()) {
		if r != "= true" {
			t.Errorf("known_command %s = %q, want = true", cmds[i], r)
		}
	}
}

func TestServeQuit(t *testing.T) {
	var out bytes.Buffer
	err := Serve(context.Background(), strings.NewReader("5 quit\nname\n"), &out, ServerOptions{})
	if err != nil || out.String() != "=5 \n\n" {
		t.Errorf("quit: Serve = %v, output %q; want nil and %q", err, out.String(), "=5 \n\n")
	}
}

func TestServeCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Serve(ctx, strings.NewReader("name\n"), io.Discard, ServerOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Serve with a cancelled context = %v, want context.Canceled", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeWriteError(t *testing.T) {
	err := Serve(context.Background(), strings.NewReader("name\n"), failWriter{}, ServerOptions{})
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Serve to a broken writer = %v, want the write error", err)
	}
}

// TestGTPGenMoveRandom plays random games with genmove alone: every move
// must be legal (play checks it) and games must end by two passes.
func TestServeGenMoveRandom(t *testing.T) {
	for _, size := range []int{5, 9} {
		var script strings.Builder
		fmt.Fprintf(&script, "boardsize %d\n", size)
		n := size * size * 4
		for i := 0; i < n; i++ {
			script.WriteString("genmove b\ngenmove w\n")
		}
		got := serveRun(t, ServerOptions{Seed: uint64(size)}, script.String())
		passes := 0
		for i, r := range got[1:] {
			if !strings.HasPrefix(r, "= ") {
				t.Fatalf("size %d: genmove %d = %q", size, i, r)
			}
			if r == "= pass" {
				passes++
			} else if _, err := engine.ParsePoint(strings.TrimPrefix(r, "= "), size); err != nil {
				t.Fatalf("size %d: genmove %d = %q, not a point", size, i, r)
			}
		}
		if passes == 0 {
			t.Errorf("size %d: random play never passed in %d moves", size, 2*n)
		}
	}
}

func TestServeGenMoveOptions(t *testing.T) {
	var seen []engine.Color
	opts := ServerOptions{
		GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, _ time.Duration) (engine.Move, error) {
			seen = append(seen, c)
			if g.ToPlay() != c {
				return engine.Move{}, fmt.Errorf("asked for %v with %v to play", c, g.ToPlay())
			}
			switch g.MoveCount() {
			case 0:
				return engine.PlaceAt(c, engine.Point{Col: 2, Row: 2}), nil
			case 1:
				return engine.PlaceAt(c, engine.Point{Col: 2, Row: 2}), nil // occupied: illegal
			case 2:
				return engine.ResignMove(c), nil
			}
			return engine.Move{}, errors.New("out of ideas")
		},
		DeadStones: func(ctx context.Context, g *engine.Game) []engine.Point { return []engine.Point{{Col: 2, Row: 2}} },
	}
	got := serveRun(t, opts, "boardsize 5\ngenmove b\ngenmove w\nplay w a1\nreg_genmove b\ngenmove b\nlist_stones black\n"+
		"final_status_list dead\nfinal_status_list alive\nfinal_score\nplay b pass\ngenmove w\n")
	want := []string{"= ", "= C3", "? genmove chose C3, which is illegal: C3: engine: position occupied", "= ",
		"= resign", "= resign", "= C3", "= C3", "= A1", "= W+32.5", "= ", "? genmove: out of ideas"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("responses =\n%q\nwant\n%q", got, want)
	}
}

// TestServeShowboardMoveNumber: showboard numbers the move to play as a
// record numbers it and as loadsgf reads it: the moves played plus one,
// without the passes no command played (before a move out of turn, or
// between two moves of one player in a record).
func TestServeShowboardMoveNumber(t *testing.T) {
	record := filepath.Join("..", "testdata", "sgf", "real", "pachi_handicap_as_black_moves.sgf")
	tests := []struct {
		name, script, want string
	}{
		{"empty board", "boardsize 9", "black to play, move 1"},
		{"one move", "boardsize 9\nplay b e5", "white to play, move 2"},
		{"genmove", "boardsize 9\nplay b e5\ngenmove w", "black to play, move 3"},
		{"pass", "boardsize 9\nplay b e5\nplay w pass", "black to play, move 3"},
		{"out of turn", "boardsize 9\nplay b e5\nplay b c3", "white to play, move 3"},
		{"undo out of turn", "boardsize 9\nplay b e5\nplay b c3\nundo", "white to play, move 2"},
		{"undo out of turn, then in turn", "boardsize 9\nplay b e5\nplay b c3\nundo\nplay w c3\nplay b d3", "white to play, move 4"},
		{"handicap", "boardsize 9\nfixed_handicap 2\nplay w e5", "black to play, move 2"},
		{"komi", "boardsize 9\nplay b e5\nplay b c3\nkomi 0.5", "white to play, move 3, komi 0.5"},
		{"loadsgf 1", "loadsgf " + record + " 1", "black to play, move 1"},
		{"loadsgf 4", "loadsgf " + record + " 4", "black to play, move 4"},
		{"loadsgf 6", "loadsgf " + record + " 6", "black to play, move 6"},
		{"loadsgf 6, undo", "loadsgf " + record + " 6\nundo", "white to play, move 5"},
		{"loadsgf, clear_board", "loadsgf " + record + " 6\nclear_board", "black to play, move 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := serveRun(t, ServerOptions{Seed: 1, Ko: engine.SimpleKo}, tt.script+"\nshowboard\n")
			board := resp[len(resp)-1]
			last := board[strings.LastIndex(board, "\n")+1:]
			if !strings.HasPrefix(last, tt.want) {
				t.Errorf("%q: showboard ends %q, want %q", tt.script, last, tt.want)
			}
		})
	}
}

func TestServeLoadAndPrintSGF(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "game.sgf")
	sgf := "(;SZ[9]KM[5.5]RU[Japanese];B[ee];W[ff];B[gg];W[hh];B[ii])"
	if err := os.WriteFile(record, []byte(sgf), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.sgf")
	if err := os.WriteFile(bad, []byte("(;SZ[9]AW[ba][ab];B[aa])"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.sgf")
	got := serveRun(t, ServerOptions{}, strings.Join([]string{
		"loadsgf " + record + " 3",
		"list_stones black", "list_stones white",
		"loadsgf " + record,
		"list_stones black",
		"loadsgf " + record + " 1",
		"list_stones black",
		"loadsgf " + record + " 99",
		"final_score",
		"undo", "list_stones black",
		"loadsgf " + filepath.Join(dir, "missing.sgf"),
		"loadsgf " + bad,
		"list_stones white",
		"loadsgf " + record + " x",
		"printsgf " + out,
		"printsgf",
	}, "\n")+"\n")
	// final_score counts by the record's Japanese rules: no territory, no
	// prisoners, komi 5.5 (by area, 3 stones to 2, it would be W+4.5).
	want := []string{"= black", "= E5", "= F4", "= white", "= E5 G3 J1", "= black", "= ", "= white",
		"= W+5.5", "= ", "= E5 G3", "? cannot load file",
		"? cannot load file: sgf line 1, column 20: move 1 (B A9): suicide is not allowed", "= F4 H2", "? syntax error", "= "}
	if len(got) != len(want)+1 {
		t.Fatalf("responses = %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("response %d = %q, want %q", i, got[i], want[i])
		}
	}
	printed := strings.TrimPrefix(got[len(got)-1], "= ")
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if printed+"\n" != string(written) {
		t.Errorf("printsgf = %q, file has %q", printed, written)
	}
	g, _, err := engine.ParseSGF(written)
	if err != nil {
		t.Fatalf("printsgf wrote %q: %v", written, err)
	}
	if g.MoveCount() != 4 || g.Rules().Komi != 5.5 || g.Size() != 9 {
		t.Errorf("printsgf gave %d moves, komi %v, size %d; want 4, 5.5, 9", g.MoveCount(), g.Rules().Komi, g.Size())
	}
}

// TestServeLoadSGFRules: loadsgf adopts the record's rules, so that
// final_score counts as the record says. The record is a 13×13 game under
// Japanese rules with 3 handicap stones and komi 0.5, counted B+68.5 on
// Discord and by GNU Go --japanese-rules; counted by Chinese rules with
// White's point a handicap stone, as every record was, it gave B+67.5.
// komi keeps the record's rules; a new game returns to the default
// (Chinese) rules, and the ko rule stays the session's.
func TestServeLoadSGFRules(t *testing.T) {
	record := filepath.Join("..", "testdata", "sgf", "handicap-japanese13.sgf")
	serveCheck(t, ServerOptions{}, []serveStep{
		{"loadsgf " + record, "= black"},
		{"final_score", "= B+68.5"},
		{"komi 6.5", "= "},
		{"final_score", "= B+62.5"},
		{"loadsgf " + record, "= black"},
		{"clear_board", "= "},
		{"fixed_handicap 3", "= D4 K10 D10"},
		{"komi 0.5", "= "},
		// The empty board is Black's by area (169 − 0.5 komi), less
		// White's point a handicap stone under Chinese rules.
		{"final_score", "= B+165.5"},
	})
	got := serveRun(t, ServerOptions{Ko: engine.PositionalSuperko}, "loadsgf "+record+"\nprintsgf\n")
	if len(got) != 2 || !strings.Contains(got[1], "RU[Japanese]GOBOTRU[positional superko]") {
		t.Errorf("printsgf after loadsgf with --ko positional = %q, want the record's Japanese rules with the session's ko", got)
	}
}

// TestServePrintSGFRules: printsgf writes a rules name other programs
// read, RU[Chinese], and the session's simple ko, which Chinese rules in
// gobot do not have, in gobot's own GOBOTRU; it wrote RU[Chinese (simple
// ko)], which KataGo's loader refuses.
func TestServePrintSGFRules(t *testing.T) {
	got := serveRun(t, ServerOptions{}, "boardsize 9\nfixed_handicap 4\nprintsgf\n")
	if len(got) != 3 || !strings.Contains(got[2], "KM[7.5]RU[Chinese]GOBOTRU[simple ko]HA[4]") {
		t.Errorf("printsgf = %q, want RU[Chinese]GOBOTRU[simple ko]", got)
	}
}

// TestGTPLoadSGFFiles: loadsgf reads only regular files of at most
// MaxSGFSize bytes, refusing a FIFO (which would block), a device such as
// /dev/zero (which would exhaust memory) or a directory at once, and the
// session goes on. A record with a move on an occupied point loads as GNU
// Go loads it, up to that move, with a warning.
func TestServeLoadSGFFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.sgf")
	if err := os.WriteFile(big, []byte("(;SZ[9]"+strings.Repeat(";B[];W[]", engine.MaxSGFSize/8)+")"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []serveStep{
		{"loadsgf " + big, fmt.Sprintf("? cannot load file: larger than %d bytes", engine.MaxSGFSize)},
		{"loadsgf " + dir, "? cannot load file: not a regular file"},
		{"loadsgf ../testdata/sgf/occupied.sgf", "= white"},
		{"list_stones black", "= D7 E7 E5 G5 C3"},
		{"loadsgf ../testdata/sgf/occupied.sgf 4", "= white"},
		{"list_stones black", "= E5 C3"},
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		steps = append(steps, serveStep{"loadsgf /dev/zero", "? cannot load file: not a regular file"})
	}
	fifo := filepath.Join(dir, "fifo.sgf")
	if err := mkfifo(fifo); err == nil {
		steps = append(steps, serveStep{"loadsgf " + fifo, "? cannot load file: not a regular file"})
	} else {
		t.Logf("no FIFO: %v", err)
	}
	steps = append(steps, serveStep{"name", "= gobot"})
	var warnings []string
	serveCheck(t, ServerOptions{Warn: func(msg string) { warnings = append(warnings, msg) }}, steps)
	// Loaded up to move 4, the record warns of nothing: its faulty
	// move 10 is not loaded (it said "read as a pass" of it).
	want := []string{
		"loadsgf ../testdata/sgf/occupied.sgf: sgf line 6, column 21: move 10 (W E5) is on an occupied point: read as a pass; loaded up to the move before it, as GNU Go loads it",
	}
	if fmt.Sprint(warnings) != fmt.Sprint(want) {
		t.Errorf("warnings =\n%q\nwant\n%q", warnings, want)
	}
}

func TestServeMoveTime(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		settings      []string // time_settings, or kgs-time_settings when it starts with a system's name
		left          []string
		size          int // 19 when 0
		target, limit time.Duration
		timed         bool
	}{
		{nil, nil, 0, 0, 0, false},
		{[]string{"0", "30", "0"}, nil, 0, 0, 0, false}, // no time limit
		{[]string{"0", "0", "0"}, nil, 0, 0, 0, false},  // no time at all: no limit either
		// 600 s over max(15, 361/3 = 120) moves: 5 s, less 10% and 50 ms;
		// up to three times that on an unclear move.
		{[]string{"600", "0", "0"}, nil, 0, 4450 * ms, 13450 * ms, true},
		// On 9×9, 54 s over max(15, 81/3 = 27) moves: 2 s.
		{[]string{"54", "0", "0"}, nil, 9, 1750 * ms, 5350 * ms, true},
		{[]string{"600", "30", "5"}, []string{"b", "0", "4"}, 0, 0, 0, true}, // nothing left: at once
		// A Canadian period of 20 s for 4 stones: 5 s a stone, up to 10 s
		// (the other three keep 2.5 s each at least).
		{[]string{"600", "30", "5"}, []string{"b", "20", "4"}, 0, 4450 * ms, 8950 * ms, true},
		{[]string{"0", "30", "5"}, nil, 0, 5350 * ms, 10750 * ms, true},
		// The issue's reproduction: one second a move, then 0.2 s, 0.05 s
		// and nothing left. One stone a period: its share and no more.
		{[]string{"0", "1", "1"}, nil, 0, 850 * ms, 850 * ms, true},
		{[]string{"0", "1", "1"}, []string{"b", "0.2", "1"}, 0, 130 * ms, 130 * ms, true},
		{[]string{"0", "1", "1"}, []string{"b", "0.05", "1"}, 0, 0, 0, true},
		{[]string{"0", "1", "1"}, []string{"b", "0", "1"}, 0, 0, 0, true},
		{[]string{"0", "1", "1"}, []string{"w", "0", "1"}, 0, 850 * ms, 850 * ms, true}, // engine.White's time says nothing of engine.Black's
		// In main time with byo-yomi after it: the main time's share plus
		// one stone's share of a period, (120/120 + 30) s, up to
		// (3×120/120 + 30) s.
		{[]string{"300", "30", "1"}, []string{"b", "120", "0"}, 0, 27850 * ms, 29650 * ms, true},
		// Main time gone, byo-yomi not yet reported: one period's share.
		{[]string{"300", "30", "1"}, []string{"b", "0", "0"}, 0, 26950 * ms, 26950 * ms, true},
		{[]string{"none"}, nil, 0, 0, 0, false},
		{[]string{"absolute", "600"}, nil, 0, 4450 * ms, 13450 * ms, true},
		{[]string{"absolute", "600"}, []string{"b", "0", "0"}, 0, 0, 0, true},
		{[]string{"byoyomi", "0", "1", "5"}, nil, 0, 850 * ms, 850 * ms, true},
		// Japanese byo-yomi in main time: 600/120 s plus a whole period
		// (every move in overtime has one), up to 3×600/120 s plus it.
		{[]string{"byoyomi", "600", "30", "5"}, nil, 0, 31450 * ms, 40450 * ms, true},
		// Japanese byo-yomi as gtp2ogs reports it: 30 s left in the
		// current period, 5 periods left; every move has the period.
		{[]string{"byoyomi", "600", "30", "5"}, []string{"b", "30", "5"}, 0, 26950 * ms, 26950 * ms, true},
		{[]string{"byoyomi", "600", "30", "5"}, []string{"b", "12", "1"}, 0, 10750 * ms, 10750 * ms, true},
		{[]string{"byoyomi", "600", "30", "0"}, nil, 0, 4450 * ms, 13450 * ms, true}, // no periods: absolute
		{[]string{"canadian", "0", "30", "5"}, nil, 0, 5350 * ms, 10750 * ms, true},
		// 3 s for the last 2 stones: 1.5 s, up to 2.25 s (the last keeps 0.75 s).
		{[]string{"canadian", "0", "30", "5"}, []string{"b", "3", "2"}, 0, 1300 * ms, 1975 * ms, true},
	}
	for _, tt := range tests {
		size := tt.size
		if size == 0 {
			size = 19
		}
		s := &server{size: size, komi: 7.5}
		if err := s.newGame(size, 0); err != nil {
			t.Fatal(err)
		}
		if tt.settings != nil {
			set := s.timeSettings
			if _, err := strconv.ParseFloat(tt.settings[0], 64); err != nil {
				set = s.kgsTimeSettings
			}
			if err := set(tt.settings); err != nil {
				t.Fatalf("settings %v: %v", tt.settings, err)
			}
		}
		if tt.left != nil {
			if err := s.setTimeLeft(tt.left); err != nil {
				t.Fatal(err)
			}
		}
		if target, limit, timed := s.moveTime(engine.Black); target != tt.target || limit != tt.limit || timed != tt.timed {
			t.Errorf("%d×%d, settings %v, time_left %v: moveTime = %v, %v, %v; want %v, %v, %v",
				size, size, tt.settings, tt.left, target, limit, timed, tt.target, tt.limit, tt.timed)
		}
	}
}

func TestServeTimeSettingsSyntax(t *testing.T) {
	serveCheck(t, ServerOptions{}, []serveStep{
		{"kgs-time_settings", "? syntax error"},
		{"kgs-time_settings fischer 600 10", "? syntax error"},
		{"kgs-time_settings absolute", "? syntax error"},
		{"kgs-time_settings byoyomi 600 30", "? syntax error"},
		{"kgs-time_settings byoyomi 600 30 2.5", "? syntax error"},
		{"kgs-time_settings canadian 600 -30 5", "? syntax error"},
		{"kgs-time_settings canadian 600 30 5", "= "},
		{"kgs-time_settings BYOYOMI 600 30 5", "= "},
		{"kgs-time_settings none", "= "},
		{"time_settings inf 1 1", "? syntax error"},
		{"time_settings 1 NaN 1", "? syntax error"},
		{"time_left b inf 1", "? syntax error"},
		{"known_command kgs-time_settings", "= true"},
	})
}

// TestGTPGenMoveUnderClock is the issue's reproduction: time_settings 0 1 1,
// then genmove with 0.2 s, 0.05 s and nothing left. GenMove gets a deadline
// as far off as the budget moveTime computes, already passed when the
// budget is 0; a GenMove that fails at its deadline (as the Monte Carlo
// search did) still gets a legal move played, with a warning.
func TestServeGenMoveUnderClock(t *testing.T) {
	type call struct {
		until   time.Duration // time to the deadline when GenMove was called
		expired bool
	}
	var calls []call
	var warnings []string
	opts := ServerOptions{
		GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, _ time.Duration) (engine.Move, error) {
			d, ok := ctx.Deadline()
			if !ok {
				return engine.Move{}, errors.New("no deadline")
			}
			calls = append(calls, call{time.Until(d), ctx.Err() != nil})
			if g.MoveCount() == 1 {
				<-ctx.Done() // a bot that fails when its time is up
				return engine.Move{}, fmt.Errorf("search cancelled: %w", ctx.Err())
			}
			return engine.PlaceAt(c, engine.Point{Col: g.MoveCount(), Row: g.MoveCount()}), nil
		},
		Warn: func(msg string) { warnings = append(warnings, msg) },
		Seed: 1,
	}
	got := serveRun(t, opts, "boardsize 9\ntime_settings 0 1 1\ntime_left b 0.2 1\ngenmove b\n"+
		"time_left w 0.05 1\ngenmove w\ntime_left b 0 1\ngenmove b\nlist_stones black\nlist_stones white\n")
	if len(got) != 10 || got[3] != "= A1" || got[7] != "= C3" || got[8] != "= C3 A1" {
		t.Fatalf("responses = %q", got)
	}
	// White's GenMove failed: the random move is legal on the board.
	w := strings.TrimPrefix(got[5], "= ")
	if got[9] != got[5] {
		t.Errorf("genmove w = %q but White's stones are %q", got[5], got[9])
	}
	if p, err := engine.ParsePoint(w, 9); err != nil || p == (engine.Point{Col: 0, Row: 0}) || p == (engine.Point{Col: 2, Row: 2}) {
		t.Errorf("genmove w = %q: want a legal point", got[5])
	}
	if len(calls) != 3 {
		t.Fatalf("GenMove called %d times, want 3", len(calls))
	}
	// The budgets moveTime computes (TestServeMoveTime): 130 ms, 0 and 0.
	if c := calls[0]; c.expired || c.until > 130*time.Millisecond || c.until <= 0 {
		t.Errorf("time_left 0.2: GenMove's deadline in %v (expired %v), want within the 130 ms budget", c.until, c.expired)
	}
	for i, c := range calls[1:] {
		if !c.expired {
			t.Errorf("time_left %s: GenMove's ctx is live, want its deadline passed (budget 0)", []string{"0.05", "0"}[i])
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "genmove white: genmove: search cancelled: context deadline exceeded; a random move is played instead") {
		t.Errorf("warnings = %q", warnings)
	}
}

// TestGTPTwoGenmovesAfterPass: like GNU Go, a second genmove for the engine
// that has just passed passes again, without ending the game.
func TestServeTwoGenmovesAfterPass(t *testing.T) {
	serveCheck(t, ServerOptions{Seed: 1}, []serveStep{
		{"boardsize 2", "= "},
		{"play b a1", "= "},
		{"play b b2", "= "},
		{"genmove w", "= pass"},
		{"genmove w", "= pass"},
		{"genmove w", "= pass"},
		{"play b pass", "= "},
		{"list_stones black", "= B2 A1"},
	})
	passer := ServerOptions{GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, _ time.Duration) (engine.Move, error) {
		if g.Over() || g.PlayEnded() || g.ToPlay() != c {
			return engine.Move{}, fmt.Errorf("asked for %v in a game over (%v) or with %v to play", c, g.PlayEnded(), g.ToPlay())
		}
		return engine.PassMove(c), nil
	}}
	serveCheck(t, passer, []serveStep{
		{"boardsize 2", "= "},
		{"play b a1", "= "},
		{"play b b2", "= "},
		{"genmove w", "= pass"},
		{"genmove w", "= pass"},
	})
}

func TestServeLineTooLong(t *testing.T) {
	long := "7 play b " + strings.Repeat("a", MaxLine)
	script := "boardsize 9\n" + long + "\n" + "8 play b e5\n" + strings.Repeat("x", 3*MaxLine)
	got := serveRun(t, ServerOptions{}, script)
	want := []string{"= ", "?7 " + string(errTooLong), "=8 ", "? " + string(errTooLong)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("responses = %q, want %q", got, want)
	}
	if !strings.Contains(string(errTooLong), strconv.Itoa(MaxLine)) {
		t.Errorf("%q does not say the limit, %d", errTooLong, MaxLine)
	}
	// A line of exactly the limit, line feed included, is read.
	exact := "komi 6.5" + strings.Repeat(" ", MaxLine-len("komi 6.5")-1) + "\n"
	if got := serveRun(t, ServerOptions{}, exact); fmt.Sprint(got) != "[= ]" {
		t.Errorf("a line of %d bytes: %q", len(exact), got)
	}
}

// TestGTPCancelWhileReading: a cancelled session ends even while its input
// blocks (a pipe nobody writes to), as SIGTERM needs.
func TestServeCancelWhileReading(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() { done <- Serve(ctx, pr, &out, ServerOptions{}) }()
	if _, err := io.WriteString(pw, "name\n"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve = %v, want %v", err, context.Canceled)
	}
}

func ExampleServe() {
	session := `1 boardsize 9
2 komi 6.5
3 play black E5
4 play white E5
5 fixed_handicap 2
6 list_stones black
7 final_score
quit
`
	opts := ServerOptions{Name: "gobot", DeadStones: func(context.Context, *engine.Game) []engine.Point { return nil }}
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(session), &out, opts); err != nil {
		fmt.Println(err)
	}
	// Successful responses without text are "= " and "=id ": the
	// example's output drops the trailing space.
	fmt.Print(strings.ReplaceAll(out.String(), " \n", "\n"))
	// Output:
	// =1
	//
	// =2
	//
	// =3
	//
	// ?4 illegal move
	//
	// ?5 board not empty
	//
	// =6 E5
	//
	// =7 B+74.5
	//
	// =
}

// TestServeUsesEstimate checks that GTP's final_status_list and
// final_score, given estimate.DeadStones, answer with the estimate.
func TestServeUsesEstimate(t *testing.T) {
	rec, _ := readRecord(t, filepath.Join("..", "estimate", "testdata", "scoring", "corpus", "09-gnugo-002.sgf"))
	// The corpus's games are played under the default rules and their komi.
	rules := engine.DefaultRules()
	rules.Komi = rec.Rules().Komi
	g, err := rec.Rebuild(rules, rec.MoveCount())
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	fmt.Fprintf(&script, "boardsize %d\nclear_board\nkomi %s\n", g.Size(), engine.FormatKomi(g.Rules().Komi))
	for _, m := range g.Moves() {
		fmt.Fprintf(&script, "play %s %s\n", m.Color.Letter(), m)
	}
	script.WriteString("final_status_list dead\nfinal_score\nquit\n")
	var out strings.Builder
	err = Serve(context.Background(), strings.NewReader(script.String()), &out, ServerOptions{DeadStones: estimate.DeadStones})
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	replies := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(replies) < 3 {
		t.Fatalf("GTP replies:\n%s", out.String())
	}
	deadReply, scoreReply := replies[len(replies)-3], replies[len(replies)-2]
	var dead []string
	for _, f := range strings.Fields(strings.TrimPrefix(deadReply, "=")) {
		p, err := engine.ParsePoint(f, g.Size())
		if err != nil {
			t.Fatalf("final_status_list dead = %q: %v", deadReply, err)
		}
		dead = append(dead, p.String())
	}
	e := estimate.Dead(context.Background(), g, estimate.Options{})
	var want []string
	for _, p := range e.Dead {
		want = append(want, p.String())
	}
	slices.Sort(dead)
	slices.Sort(want)
	if got, want := strings.Join(dead, " "), strings.Join(want, " "); got != want || want == "" {
		t.Errorf("final_status_list dead = %s, want the estimate's %s", got, want)
	}
	if got, want := strings.TrimSpace(strings.TrimPrefix(scoreReply, "=")), g.Score(e.Dead).Result(); got != want {
		t.Errorf("final_score = %s, want %s", got, want)
	}
}

// genMoveCall is what GenMove was given under a clock: the target and
// how far away its context's deadline was.
type genMoveCall struct{ target, until time.Duration }

// recordGenMove returns ServerOptions whose GenMove passes after appending
// its call to calls, first sleeping for late(n, until) (n counting the
// calls from 1) to play a search that runs late.
func recordGenMove(calls *[]genMoveCall, late func(n int, until time.Duration) time.Duration) ServerOptions {
	return ServerOptions{
		GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, target time.Duration) (engine.Move, error) {
			d, ok := ctx.Deadline()
			if !ok {
				return engine.Move{}, errors.New("no deadline")
			}
			until := time.Until(d)
			*calls = append(*calls, genMoveCall{target, until})
			if late != nil {
				time.Sleep(late(len(*calls), until))
			}
			return engine.PassMove(c), nil
		},
	}
}

// TestServeGenMoveTarget: in main time GenMove gets the move's share of
// the clock as its target and a deadline up to three times as far
// (TestServeMoveTime's 9×9 case: 1.75 s and 5.35 s); in a byo-yomi period
// of one stone both are the period's share.
func TestServeGenMoveTarget(t *testing.T) {
	var calls []genMoveCall
	got := serveRun(t, recordGenMove(&calls, nil), "boardsize 9\ntime_settings 54 0 0\ngenmove b\ntime_settings 0 2 1\ngenmove w\n")
	if len(got) != 5 || got[2] != "= pass" || got[4] != "= pass" {
		t.Fatalf("responses = %q", got)
	}
	if len(calls) != 2 {
		t.Fatalf("GenMove called %d times, want 2", len(calls))
	}
	const ms = time.Millisecond
	if c := calls[0]; c.target != 1750*ms || c.until > 5350*ms || c.until <= 1750*ms {
		t.Errorf("main time: target %v, deadline in %v; want 1.75 s and a deadline beyond it, up to 5.35 s away", c.target, c.until)
	}
	if c := calls[1]; c.target != 1750*ms || c.until > 1750*ms || c.until <= 0 {
		t.Errorf("byo-yomi: target %v, deadline in %v; want 1.75 s and a deadline up to 1.75 s away", c.target, c.until)
	}
}

// TestServeGenMoveLate: a search that ran past its limit (a machine too
// loaded to stop it on time) cuts the next moves' budgets by its overrun,
// half of it less at each move that keeps to its limit.
func TestServeGenMoveLate(t *testing.T) {
	const ms = time.Millisecond
	var calls []genMoveCall
	opts := recordGenMove(&calls, func(n int, until time.Duration) time.Duration {
		if n == 1 {
			return until + 400*ms // 400 ms late at least
		}
		return 0
	})
	got := serveRun(t, opts, "boardsize 9\ntime_settings 0 2 1\ngenmove b\ngenmove w\ngenmove b\n")
	if len(got) != 5 || len(calls) != 3 {
		t.Fatalf("responses = %q, %d calls", got, len(calls))
	}
	if c := calls[0]; c.target != 1750*ms {
		t.Errorf("first move: target %v, want the period's 1.75 s", c.target)
	}
	if c := calls[1]; c.target > 1350*ms || c.until > 1350*ms {
		t.Errorf("after a move 400 ms late: target %v, deadline in %v; want both 1.35 s at most", c.target, c.until)
	}
	if c := calls[2]; c.target > 1550*ms || c.target < calls[1].target {
		t.Errorf("a move later: target %v, want at most 1.55 s (half the overrun kept) and no less than %v", c.target, calls[1].target)
	}
}

// TestServeGenMoveLateCapped: a stall longer than the whole period cuts
// the next move's time by half at most, so that it still searches, and a
// new game starts with the whole period again.
func TestServeGenMoveLateCapped(t *testing.T) {
	const ms = time.Millisecond
	var calls []genMoveCall
	opts := recordGenMove(&calls, func(n int, until time.Duration) time.Duration {
		if n == 1 {
			return until + time.Second // a stall beyond the period
		}
		return 0
	})
	got := serveRun(t, opts, "boardsize 9\ntime_settings 0 1 1\ngenmove b\ngenmove w\nclear_board\ngenmove b\n")
	if len(got) != 6 || len(calls) != 3 {
		t.Fatalf("responses = %q, %d calls", got, len(calls))
	}
	until := []time.Duration{calls[0].until, calls[1].until, calls[2].until}
	// The period's share is 0.85 s (less a tenth and 50 ms).
	if until[1] <= 0 || until[1] > 425*ms {
		t.Errorf("after a stall of over a second: deadline in %v, want half the period's 0.85 s", until[1])
	}
	if until[2] <= 425*ms {
		t.Errorf("in a new game: deadline in %v, want the whole 0.85 s again", until[2])
	}
}

// TestServeGenmoveOtherColour: genmove for the colour not to move asks the
// bot about the position alone, that colour to play: the pass the server
// puts in for the other player is not shown to the bot as an opponent's
// pass (which bots answer by passing back when the count favours them).
// The move is still checked against the game's history and played.
func TestServeGenmoveOtherColour(t *testing.T) {
	var seen []string
	opts := ServerOptions{GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, _ time.Duration) (engine.Move, error) {
		last := "none"
		if m, ok := g.LastMove(); ok {
			last = m.String()
		}
		seen = append(seen, fmt.Sprintf("%v to play, last %s, E5 %v", g.ToPlay(), last, g.Board().At(engine.Point{Col: 4, Row: 4})))
		if m, ok := g.LastMove(); ok && m.Kind == engine.Pass {
			return engine.PassMove(c), nil // a bot passing back
		}
		return engine.PlaceAt(c, engine.Point{Col: 2, Row: 2}), nil
	}}
	serveCheck(t, opts, []serveStep{
		{"boardsize 9", ""},
		{"play b e5", ""},
		{"1 genmove b", "=1 C3"},
		{"list_stones black", "= E5 C3"},
	})
	if want := []string{"black to play, last none, E5 black"}; !slices.Equal(seen, want) {
		t.Errorf("the bot was asked about %q, want %q", seen, want)
	}
}

// TestServeGenMoveCleanup: in KGS's cleanup phase the bot does not pass
// while the opponent's dead stones are on the board: it plays on their
// liberties until they are captured, and only then passes, where genmove
// passes at once.
func TestServeGenMoveCleanup(t *testing.T) {
	opts := ServerOptions{GenMove: func(ctx context.Context, g *engine.Game, c engine.Color, _ time.Duration) (engine.Move, error) {
		return engine.PassMove(c), nil
	}}
	setup := "boardsize 9\n"
	for _, col := range "ABCDEFGHJ" {
		setup += "play b " + string(col) + "5\n"
	}
	setup += "play w E2\n"
	got := serveRun(t, opts, setup+"genmove b\n")
	if last := got[len(got)-1]; last != "= pass" {
		t.Fatalf("genmove = %q, want a pass", last)
	}
	got = serveRun(t, opts, setup+"kgs-genmove_cleanup b\nplay w pass\nkgs-genmove_cleanup b\nplay w pass\nkgs-genmove_cleanup b\nplay w pass\nkgs-genmove_cleanup b\nplay w pass\nkgs-genmove_cleanup b\nlist_stones white\n")
	var moves []string
	for i := len(got) - 10; i < len(got)-1; i += 2 {
		moves = append(moves, strings.TrimSpace(strings.TrimPrefix(got[i], "=")))
	}
	stones := strings.TrimSpace(strings.TrimPrefix(got[len(got)-1], "="))
	// E2 has four liberties: three black stones atari it, the fourth
	// captures, and then there is nothing left to clean up.
	if len(moves) != 5 || moves[3] == "pass" || moves[4] != "pass" || stones != "" {
		t.Fatalf("cleanup moves = %q, white stones %q; want four moves around E2 (the last capturing), a pass, and no white stone left", moves, stones)
	}
	for _, m := range moves[:4] {
		if m != "E1" && m != "D2" && m != "F2" && m != "E3" {
			t.Errorf("cleanup played %s, not a liberty of E2", m)
		}
	}
}
