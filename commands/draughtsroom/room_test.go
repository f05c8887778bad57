package draughtsroom

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// TestResultSentenceNoPieces: a game won by taking every piece says so,
// rather than that the loser "cannot move"; a blocked side cannot move.
func TestResultSentenceNoPieces(t *testing.T) {
	for _, tt := range []struct{ fen, want string }{
		{"B:W31,K46:B", "⚪ white <@1> wins: all of ⚫ black's pieces are taken · 2-0"},
		{"B:W41,47:B36", "⚪ white <@1> wins: ⚫ black cannot move · 2-0"},
	} {
		st, err := draughts.NewState(map[string]string{"fen": tt.fen}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, over := st.Result()
		if !over {
			t.Fatalf("%s: not over", tt.fen)
		}
		g := &storage.Game{ID: "1", Kind: draughtsKind, Sides: storage.Sides(storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}), State: st}
		if got := draughtsResultSentence(g, res); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.fen, got, tt.want)
		}
	}
}

// TestPDNSite: a record says where its game was played: on Discord, or in
// gobot console (or its board page), which is not Discord.
func TestPDNSite(t *testing.T) {
	st, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for guild, want := range map[string]string{"5": `[Site "Discord"]`, commands.LocalGuild: `[Site "gobot console"]`} {
		g := &storage.Game{ID: "1", GuildID: guild, Kind: draughtsKind, Sides: storage.Sides(storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}), State: st}
		pdn, err := draughtsPDN(g)
		if err != nil || !strings.Contains(string(pdn), want) {
			t.Errorf("guild %s: PDN (%v):\n%s\nwant %s", guild, err, pdn, want)
		}
	}
}

// TestFinishedViews: /draughts board after a game shows how it ended, in
// its text and its picture's alt text: the rules' reason (a threefold
// repetition), the archive's (a resignation, which PDN does not keep),
// an aborted game as aborted, not as a position with a side to move, a
// game lost on time before the loser's second move as annulled on time,
// and a game an admin annulled after it ended as annulled, with how it
// ended.
func TestFinishedViews(t *testing.T) {
	rm := newTestRoom(t)
	for _, tt := range []struct {
		name, fen string
		moves     []string
		end       *game.Result // ended off the board
		void      bool         // aborted
		annulled  bool         // annulled on time, or by an admin after it ended
		text, alt string
		page      string // the board page's status
	}{
		{name: "repetition", fen: "W:W31,36,K50:BK1,10,15", moves: []string{"50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1"},
			text: "**Game over: drawn by threefold repetition · 1-1**", alt: "Game over, draw 1-1 (threefold repetition);",
			page: "Game over: drawn by threefold repetition · 1-1"},
		{name: "agreement", moves: []string{"32-28", "19-23"}, end: &game.Result{Winner: game.NoSide, Reason: game.ByAgreement},
			text: "**Game over: drawn by agreement · 1-1**", alt: "Game over, draw 1-1 (by agreement);", page: "Game over: drawn by agreement · 1-1"},
		{name: "resignation", moves: []string{"32-28"}, end: &game.Result{Winner: draughtsWhite, Reason: game.ByResignation},
			text: "**Game over: ⚪ white <@1> wins by resignation · 2-0**", alt: "Game over, White wins 2-0 (resignation);"},
		{name: "aborted", moves: []string{"32-28"}, void: true,
			text: "**Game over: aborted, not counted**", alt: "Game over, aborted, not counted; White 20 men, Black 20 men; last move 32-28"},
		{name: "annulled on time", moves: []string{"32-28", "19-23"}, end: &game.Result{Winner: draughtsWhite, Reason: game.ByTime}, annulled: true,
			text: "**Game over: annulled on time, not counted**", alt: "Game over, annulled on time, not counted; White 20 men, Black 20 men; last move 19-23",
			page: "Game over: annulled on time, not counted. bob (black) ran out of time."},
		{name: "resignation annulled", moves: []string{"32-28"}, end: &game.Result{Winner: draughtsWhite, Reason: game.ByResignation}, annulled: true,
			text: "**Game over: annulled, not counted · 2-0 (resignation)**", alt: "Game over, White wins 2-0 (resignation), annulled, not counted;"},
		{name: "time loss annulled", moves: []string{"32-28", "19-23", "28x19", "14x23"}, end: &game.Result{Winner: draughtsBlack, Reason: game.ByTime}, annulled: true,
			text: "**Game over: annulled, not counted · 0-2 (time)**", alt: "Game over, Black wins 0-2 (on time), annulled, not counted;",
			page: "Game over: annulled, not counted · 0-2 (time). ann (white) ran out of time."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := game.Options{}
			if tt.fen != "" {
				opts["fen"] = tt.fen
			}
			st, err := draughts.NewState(opts, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tt.moves {
				if st, _, err = st.PlayMove(st.ToMove(), m); err != nil {
					t.Fatal(err)
				}
			}
			if tt.end != nil {
				if st, err = st.EndWith(*tt.end); err != nil {
					t.Fatal(err)
				}
			}
			ann, bob := storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}
			g := &storage.Game{ID: "7", Kind: draughtsKind, Sides: storage.Sides(ann, bob), State: st}
			comment := ""
			if tt.void {
				comment = "Aborted by bob."
			}
			pdn, err := draughtsPDNWith(g, comment)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := st.Result()
			arc := &storage.Archived{ID: "7", Kind: draughtsKind, White: ann, Black: bob, Result: draughtsArchiveResult(res), SGF: pdn, Moves: st.MoveCount()}
			if tt.void {
				arc.Result, arc.Annulled = "Void", true
			}
			if tt.annulled && !commands.Annulled((*room)(nil), g) {
				// As /go-admin annul marks the record.
				if arc.SGF, err = (*room)(nil).MarkRecord(arc, "Annulled by an admin."); err != nil {
					t.Fatal(err)
				}
			}
			arc.Annulled = arc.Annulled || tt.annulled
			m, err := finishedDraughtsMessage(arc)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Embeds[0].Description; !strings.Contains(got, tt.text) {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if got := m.Files[0].Description; !strings.HasPrefix(got, tt.alt) {
				t.Errorf("alt text = %q, want it to begin %q", got, tt.alt)
			}
			if v, err := rm.FinishedView(arc, "c"); err != nil || tt.page != "" && v.Status != tt.page {
				t.Errorf("the board page's status = %q, %v; want %q", v.Status, err, tt.page)
			}
			// The console's text ends the game too (an annulled one read
			// back had Black to move).
			if got := rm.FinishedText(arc); !strings.HasSuffix(got, "\nGame over\n") {
				t.Errorf("FinishedText ends %q, want Game over", got[max(0, len(got)-30):])
			}
			if !strings.Contains(string(pdn), `[Round "-"]`) {
				t.Errorf("PDN has no Round tag:\n%s", pdn)
			}
		})
	}
}

// TestMoveLine: the person's move a bot answered, said again for the
// board a worker posts after a takeover, as its own answer said it.
func TestMoveLine(t *testing.T) {
	st, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"32-28", "17-21"} {
		if st, _, err = st.PlayMove(st.ToMove(), m); err != nil {
			t.Fatal(err)
		}
	}
	lou, bot := storage.Player{UserID: "1", Name: "lou"}, storage.Player{Name: "gobot", Level: "hub:scan"}
	g := &storage.Game{ID: "7", Kind: draughtsKind, Sides: storage.Sides(lou, bot), State: st}
	var r *room
	if got, want := r.MoveLine(g, 0), "⚪ white <@1> played **32-28**."; got != want {
		t.Errorf("MoveLine(0) = %q, want %q", got, want)
	}
	if got := r.MoveLine(g, 1); got != "" {
		t.Errorf("MoveLine(1), the bot's = %q, want none", got)
	}
}

// TestRecordDescription: a finished game's PDN attachment names White
// first, as everything of draughts does.
func TestRecordDescription(t *testing.T) {
	arc := &storage.Archived{ID: "7", Kind: draughtsKind, White: storage.Player{UserID: "2", Name: "hal"}, Black: storage.Player{UserID: "1", Name: "gina"}}
	var r *room
	f, _ := r.Record(arc)
	if want := "PDN record: ⚪ hal vs ⚫ gina"; f.Description != want {
		t.Errorf("PDN attachment's description = %q, want %q", f.Description, want)
	}
}

// newTestRoom is draughts' room in an App on a store of its own.
func newTestRoom(t *testing.T) *room {
	t.Helper()
	var ks game.Kinds
	ks.Register(draughts.Kind{})
	now := func() time.Time { return time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) }
	store, err := storage.Open(filepath.Join(t.TempDir(), "test.db"), storage.Options{Kinds: &ks, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	app, err := commands.New(commands.Options{AppID: "1", Store: store, Discord: commands.NewREST("http://127.0.0.1:9", "unused", nil), Rooms: []commands.NewRoom{New(nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	return app.RoomOfKind(draughtsKind).(*room)
}

// TestTextBlacksView: the console's board is turned as the picture is,
// for a person playing Black against a bot: square 1 at the bottom right;
// each row is followed by its squares' numbers, turned alike.
func TestTextBlacksView(t *testing.T) {
	st, err := draughts.NewState(game.Options{"fen": "W:W46:B5"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ann, bot := storage.Player{UserID: "1", Name: "ann"}, storage.Player{Level: "easy"}
	g := &storage.Game{ID: "7", Kind: draughtsKind, Sides: storage.Sides(bot, ann), State: st}
	lines := strings.Split(strings.TrimSuffix((&room{}).Text(g), "\n"), "\n")
	if len(lines) != 11 || lines[0] != " . . . . w      50  49  48  47  46" || lines[9] != "b . . . .      5   4   3   2   1" || lines[10] != "White to move" {
		t.Errorf("Black's view:\n%s", strings.Join(lines, "\n"))
	}
	g.Sides = storage.Sides(ann, bot) // ann plays White: White's view
	lines = strings.Split(strings.TrimSuffix((&room{}).Text(g), "\n"), "\n")
	if lines[0] != " . . . . b       1   2   3   4   5" || lines[9] != "w . . . .     46  47  48  49  50" {
		t.Errorf("White's view:\n%s", strings.Join(lines, "\n"))
	}
	// A finished game has nobody to move.
	over, err := st.EndWith(game.Result{Winner: game.Side(draughts.White), Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	g.State = over
	if got := (&room{}).Text(g); !strings.HasSuffix(got, "\nGame over\n") {
		t.Errorf("a finished game's board ends %q, want Game over", got[len(got)-20:])
	}
}

// TestHelpClockSyntax: /draughts help shows how to write a clock,
// lidraughts' `5+3` first, and every example it gives is one the clock
// option reads; it stays within a message's 2000 characters with every
// level named and the warning that the settings could not be read.
func TestHelpClockSyntax(t *testing.T) {
	var all []commands.Level
	for _, name := range []string{"beginner", "novice", "learner", "casual", "easy", "medium", "steady", "keen", "strong", "tough", "hard", "expert", "max"} {
		all = append(all, commands.Level{Name: name})
	}
	st := &storage.Settings{BotLevels: []string{"beginner", "max"}}
	if got, want := draughtsHelpText(st, all, false), commands.HelpUnread+"\n"+fmt.Sprintf(draughtsHelp, "at the levels this server offers: `beginner`, `max`"); got != want {
		t.Errorf("/draughts help with two levels offered =\n%s\nwant\n%s", got, want)
	}
	// Every level and two engines offered, and the settings unread: the
	// names would not fit.
	all = append(all, commands.Level{Name: "hub:scan"}, commands.Level{Name: "hub:kingsrow"})
	st.BotLevels = nil
	for _, l := range all {
		st.BotLevels = append(st.BotLevels, l.Name)
	}
	text := draughtsHelpText(st, all, false)
	if n := utf8.RuneCountInString(text); n > 2000 || !strings.Contains(text, "play gobot at once, at the 15 levels that `level:` lists (") {
		t.Errorf("/draughts help with 15 levels offered (%d characters, Discord allows 2000):\n%s", n, text)
	}
	for _, ex := range []string{"5+3", "fischer 5m +3s max 10m", "byoyomi 10m 5x30s", "absolute 20m", "correspondence", "daily", "live", "blitz", "none"} {
		if !strings.Contains(draughtsHelp, "`"+ex+"`") {
			t.Errorf("/draughts help does not show `%s`:\n%s", ex, draughtsHelp)
		}
		if _, err := clock.Parse(ex); err != nil {
			t.Errorf("/draughts help's example `%s` does not parse: %v", ex, err)
		}
	}
}

// TestHelpTermsFit: what /draughts help says of a server's settings fits
// its embed's 4096 characters with every setting at its longest (25 game
// channels).
func TestHelpTermsFit(t *testing.T) {
	clk := clock.Default()
	st := &storage.Settings{GuildID: "1", Clock: &clk, MaxGames: 100, ChallengeTTL: 30 * 24 * time.Hour, GlobalRatingsOff: true, LeaderboardHidden: true}
	for i := range 25 {
		st.GameChannels = append(st.GameChannels, fmt.Sprintf("12345678901234567%02d", i))
	}
	if n := utf8.RuneCountInString(draughtsTerms(st)); n > 4096 {
		t.Errorf("/draughts help's terms have %d characters, Discord allows 4096 in an embed", n)
	}
}

// TestStatusLastMoveOver: the final board names the last move's mover
// by the position, not by the side to move, which a finished game has
// none of: White's 32-28 followed by a draw reads "⚪ white 32-28".
func TestStatusLastMoveOver(t *testing.T) {
	st, err := draughts.NewState(game.Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"32-28", "19-23", "28x19", "14x23", "34-29"} {
		side := game.Side(draughts.White)
		if i%2 == 1 {
			side = game.Side(draughts.Black)
		}
		if st, _, err = st.PlayMove(side, m); err != nil {
			t.Fatal(err)
		}
	}
	ann, bob := storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}
	g := &storage.Game{ID: "7", Kind: draughtsKind, Sides: storage.Sides(ann, bob), State: st}
	if got := draughtsStatus(g, time.Now(), true); !strings.Contains(got, "\nLast move: ⚪ white 34-29\n") {
		t.Errorf("in play: %q, want White's 34-29", got)
	}
	ended, err := st.EndWith(game.Result{Winner: game.NoSide, Reason: game.ByAgreement})
	if err != nil {
		t.Fatal(err)
	}
	g.State = ended
	if got := draughtsStatus(g, time.Now(), true); !strings.Contains(got, "drawn by agreement") || !strings.Contains(got, "\nLast move: ⚪ white 34-29\n") {
		t.Errorf("drawn: %q, want White's 34-29", got)
	}
}
