package draughts

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

func readPDNFile(t *testing.T, name string) []*PDNGame {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := ReadPDN(f)
	if err != nil {
		t.Fatalf("ReadPDN(%s) = %v", name, err)
	}
	return games
}

func TestReadPDNFiles(t *testing.T) {
	type want struct {
		white, black string
		moves        int
		result       string
		reason       game.Reason
		comment      string // of the first move, if any
	}
	tests := []struct {
		file  string
		games []want
	}{
		// Turbo Dambase: Latin-1, CRLF, no GameType tag.
		{"turbodambase.pdn", []want{
			{"Sijbrands, Tón", "de Jong, Pieter", 110, "0-2", game.ByRule, ""},
			{"Dubois, François", "Müller, Jürgen", 40, "1-1", ByRecord, ""},
		}},
		// Lidraughts: a game from a FEN with Black to move ("1..."),
		// clock comments, GameType in its long form.
		{"lidraughts.pdn", []want{
			{"alice", "bob", 29, "0-2", game.ByRule, "[%clock w0:05:00 B0:04:57]"},
			{"carol", "dave", 84, "0-2", game.ByRule, ""},
		}},
		// No move numbers, a NAG, a variation, "!", a Hub-style capture,
		// the chess style's results.
		{"plain.pdn", []want{
			{"Engine A", "Engine B", 110, "0-2", game.ByRule, ""},
			{"Engine B", "Engine A", 20, "1-1", ByRecord, ""},
		}},
	}
	for _, tt := range tests {
		games := readPDNFile(t, tt.file)
		if len(games) != len(tt.games) {
			t.Fatalf("%s: %d games, want %d", tt.file, len(games), len(tt.games))
		}
		for i, w := range tt.games {
			g := games[i]
			if g.Tag("White") != w.white || g.Tag("Black") != w.black {
				t.Errorf("%s game %d: White %q Black %q, want %q %q", tt.file, i+1, g.Tag("White"), g.Tag("Black"), w.white, w.black)
			}
			if len(g.Moves) != w.moves || g.State.MoveCount() != w.moves {
				t.Errorf("%s game %d: %d moves, want %d", tt.file, i+1, len(g.Moves), w.moves)
			}
			r, over := g.State.Result()
			if g.Result != w.result || !over || r.Text != w.result || r.Reason != w.reason {
				t.Errorf("%s game %d: result %s, state %+v %v, want %s by %s", tt.file, i+1, g.Result, r, over, w.result, w.reason)
			}
			if len(g.Moves) > 0 && g.Moves[0].Comment != w.comment {
				t.Errorf("%s game %d: first comment %q, want %q", tt.file, i+1, g.Moves[0].Comment, w.comment)
			}
		}
	}
	// The same game, written three ways, is the same game.
	a, b, c := readPDNFile(t, "turbodambase.pdn")[0], readPDNFile(t, "plain.pdn")[0], readPDNFile(t, "lidraughts.pdn")[1]
	if !slices.Equal(a.State.Moves(), b.State.Moves()) {
		t.Errorf("turbodambase.pdn and plain.pdn's first games differ")
	}
	if g := readPDNFile(t, "turbodambase.pdn")[1]; !slices.Equal(g.State.Moves(), c.State.Moves()[:40]) {
		t.Errorf("turbodambase.pdn's second game is not the start of lidraughts.pdn's second")
	}
	if b.Comment != "A comment before the first move." || b.Moves[3].Comment != "the first capture" {
		t.Errorf("plain.pdn comments: %q, %q", b.Comment, b.Moves[3].Comment)
	}
}

func TestPDNRoundTrip(t *testing.T) {
	for _, file := range []string{"turbodambase.pdn", "lidraughts.pdn", "plain.pdn"} {
		games := readPDNFile(t, file)
		var out bytes.Buffer
		if err := WritePDN(&out, games...); err != nil {
			t.Fatal(err)
		}
		again, err := ParsePDN(out.Bytes())
		if err != nil {
			t.Fatalf("%s: ParsePDN(WritePDN) = %v\n%s", file, err, out.Bytes())
		}
		if len(again) != len(games) {
			t.Fatalf("%s: %d games after the round trip, want %d", file, len(again), len(games))
		}
		for i := range games {
			g, h := games[i], again[i]
			if !slices.Equal(g.Tags, h.Tags) || !slices.Equal(g.Moves, h.Moves) || g.Comment != h.Comment || g.Result != h.Result {
				t.Errorf("%s game %d differs after the round trip:\n%+v\n%+v", file, i+1, g, h)
			}
			gr, _ := g.State.Result()
			hr, _ := h.State.Result()
			if gr != hr {
				t.Errorf("%s game %d: result %+v after the round trip, want %+v", file, i+1, hr, gr)
			}
		}
		var out2 bytes.Buffer
		WritePDN(&out2, again...)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Errorf("%s: WritePDN is not stable:\n%s\n%s", file, out.Bytes(), out2.Bytes())
		}
	}
}

func TestWritePDN(t *testing.T) {
	s, _ := NewState(nil, 0)
	s = play(t, s, "32-28", "19-23", "28x19", "14x23")
	var b bytes.Buffer
	g := NewPDNGame(s, Tag{"Event", "Club \"night\""}, Tag{"Date", "2024.05.01"}, Tag{"White", "W"}, Tag{"Black", "B"})
	g.Moves[1].Comment = "the usual"
	if err := WritePDN(&b, g); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Club \"night\""]
[Date "2024.05.01"]
[White "W"]
[Black "B"]
[Result "*"]
[GameType "20"]

1. 32-28 19-23 {the usual} 2. 28x19 14x23 *

`
	if b.String() != want {
		t.Errorf("WritePDN =\n%s\nwant\n%s", b.String(), want)
	}
	// From a FEN with Black to move.
	s, _ = NewState(game.Options{"fen": "B:W28:B19,K1"}, 0)
	s = play(t, s, "19-23", "28x19")
	b.Reset()
	WritePDN(&b, NewPDNGame(s))
	want = `[Result "*"]
[GameType "20"]
[SetUp "1"]
[FEN "B:W28:BK1,19"]

1... 19-23 2. 28x19 *

`
	if b.String() != want {
		t.Errorf("WritePDN =\n%s\nwant\n%s", b.String(), want)
	}
}

// spaces reads as endless spaces.
type spaces struct{}

func (spaces) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = ' '
	}
	return len(b), nil
}

func TestPDNErrors(t *testing.T) {
	tests := []struct {
		name, pdn string
		kind      error
		err       string
	}{
		{"illegal move", "[Result \"*\"]\n\n1. 32-28 19-23\n2. 32-27 *\n", ErrNoPiece,
			"draughts: PDN line 4, column 4: move 3 (White): 32-27: there is no piece on 32, and white is to move"},
		{"maximum capture", "[FEN \"W:W32,34:B27,29,19\"]\n1. 32x21 *", ErrMaximumCapture,
			"draughts: PDN line 2, column 4: move 1 (White): 32x21 takes 1 piece, but 34x23x14 takes 2: the maximum capture is compulsory"},
		{"result contradicts the end", "[FEN \"W:W46:B41,37\"]\n[Result \"2-0\"]\n\n2-0\n", ErrResult,
			"draughts: PDN line 2, column 1: the result 2-0 contradicts the end of the game: White cannot move: Black wins 0-2"},
		{"result tag and movetext differ", "[Result \"2-0\"]\n1. 32-28 0-2", ErrResult,
			"draughts: PDN line 2, column 10: the result 0-2 after the moves is not the Result tag's 2-0"},
		{"a bad result", "[Result \"3-0\"]\n", ErrResult,
			"draughts: PDN line 1, column 1: Result \"3-0\" is not 2-0, 0-2, 1-1 or *"},
		{"not international draughts", "[GameType \"21\"]\n1. 32-28 *", ErrPDN,
			"draughts: PDN line 1, column 1: GameType \"21\" is not international draughts (20)"},
		{"a bad FEN", "[FEN \"W:W3:B1\"]\n*", ErrFEN,
			"draughts: PDN line 1, column 1: tag FEN: FEN \"W:W3:B1\": a white man on 3 would have been crowned: write K3 for a king"},
		{"an open comment", "1. 32-28 {about\nthis *", ErrPDN,
			"draughts: PDN line 1, column 10: the comment is not closed: '}' is missing"},
		{"an open tag", "[Event \"x\n", ErrPDN,
			"draughts: PDN line 1, column 1: tag Event: the value's quote is not closed"},
		{"an open variation", "1. 32-28 (33-28", ErrPDN,
			"draughts: PDN line 1, column 10: the variation is not closed: ')' is missing"},
		{"bad notation", "1. 32:28 *", ErrNotation,
			"draughts: PDN line 1, column 4: move 1 (White): \"32:28\": the dash must be '-' or 'x', not \":\""},
		{"after the end", "[FEN \"W:W28:B23\"]\n1. 28x19 20-24 2-0", ErrPDN,
			"draughts: PDN line 2, column 10: 20-24 after the end of the game (Black cannot move: White wins 2-0)"},
	}
	for _, tt := range tests {
		_, err := ParsePDN([]byte(tt.pdn))
		var pe *PDNError
		if err == nil || err.Error() != tt.err || !errors.Is(err, tt.kind) || !errors.Is(err, ErrPDN) || !errors.As(err, &pe) {
			t.Errorf("%s: ParsePDN = %v, want %q (%v)", tt.name, err, tt.err, tt.kind)
		}
	}
	if games, err := ParsePDN([]byte(" \n")); err != nil || len(games) != 0 {
		t.Errorf("ParsePDN(blank) = %v, %v", games, err)
	}
	if !testing.Short() {
		if _, err := ReadPDN(io.LimitReader(spaces{}, MaxPDNSize+1)); !errors.Is(err, ErrPDN) {
			t.Errorf("ReadPDN(too large) = %v", err)
		}
	}
}

// TestPDNPlainMoveWithX: a record that joins a plain move's squares with
// 'x' reads as the plain move (a player typing it is asked instead).
func TestPDNPlainMoveWithX(t *testing.T) {
	games, err := ParsePDN([]byte("1. 32x28 19-23 2. 28x19 14x23 *"))
	if err != nil || len(games) != 1 {
		t.Fatalf("ParsePDN = %d games, %v", len(games), err)
	}
	want := []game.Move{"32-28", "19-23", "28x19", "14x23"}
	if got := games[0].State.Moves(); !slices.Equal(got, want) {
		t.Errorf("moves = %q, want %q", got, want)
	}
}
