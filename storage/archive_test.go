package storage

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/google/go-cmp/cmp"
)

// finishNew creates a game in channel and finishes it at the given time with
// Black winning by resignation.
func finishNew(t testing.TB, s *Store, channel, id, black, white string, at time.Time) *Archived {
	t.Helper()
	return finishWith(t, s, newGameWithID(t, channel, id, black, white), Archived{Result: "B+R", FinishedAt: at})
}

func newGameWithID(t testing.TB, channel, id, black, white string) *Game {
	g := newGame(t, channel, black, white)
	g.ID = id
	return g
}

func finishWith(t testing.TB, s *Store, g *Game, a Archived) *Archived {
	t.Helper()
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatalf("CreateGame() = %v", err)
	}
	if a.SGF == nil {
		a.SGF = []byte("(;GM[1]SZ[9]RE[" + a.Result + "])")
	}
	if err := s.FinishGame(ctx, g, a); err != nil {
		t.Fatalf("FinishGame() = %v", err)
	}
	got, err := s.ArchivedGame(ctx, g.ID)
	if err != nil {
		t.Fatalf("ArchivedGame(%s) = %v", g.ID, err)
	}
	return got
}

func TestFinishGame(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, s *Store, g *Game) Archived
		want    error
		result  string
		winner  engine.Color
	}{
		{"result from the engine game", func(t *testing.T, s *Store, g *Game) Archived {
			if err := goOf(g).Play(engine.ResignMove(engine.White)); err != nil {
				t.Fatal(err)
			}
			return Archived{SGF: []byte("(;RE[B+R])")}
		}, nil, "B+R", engine.Black},
		{"result given", func(t *testing.T, s *Store, g *Game) Archived {
			return Archived{Result: "W+3.5", SGF: []byte("(;)")}
		}, nil, "W+3.5", engine.White},
		{"tie", func(t *testing.T, s *Store, g *Game) Archived {
			return Archived{Result: "0", SGF: []byte("(;)")}
		}, nil, "0", engine.Empty},
		{"stale version", func(t *testing.T, s *Store, g *Game) Archived {
			other := *g
			if err := s.UpdateGame(ctx, &other); err != nil {
				t.Fatal(err)
			}
			return Archived{Result: "B+R", SGF: []byte("(;)")}
		}, ErrConflict, "", 0},
		{"already gone", func(t *testing.T, s *Store, g *Game) Archived {
			if err := s.DeleteGame(ctx, g.ChannelID, g.Version); err != nil {
				t.Fatal(err)
			}
			return Archived{Result: "B+R", SGF: []byte("(;)")}
		}, ErrNotFound, "", 0},
		{"no SGF", func(t *testing.T, s *Store, g *Game) Archived { return Archived{Result: "B+R"} }, ErrInvalid, "", 0},
		{"no result", func(t *testing.T, s *Store, g *Game) Archived { return Archived{SGF: []byte("(;)")} }, ErrInvalid, "", 0},
		{"result not SGF", func(t *testing.T, s *Store, g *Game) Archived {
			return Archived{Result: "black won", SGF: []byte("(;)")}
		}, ErrInvalid, "", 0},
		{"another game's ID", func(t *testing.T, s *Store, g *Game) Archived {
			return Archived{ID: "other", Result: "B+R", SGF: []byte("(;)")}
		}, ErrInvalid, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			g := newGame(t, "c1", "1", "2")
			play(t, goOf(g), "E5", "C3")
			g.CreatedAt = t0
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			a := tt.prepare(t, s, g)
			a.FinishedAt = t0.Add(time.Hour)
			err := s.FinishGame(ctx, g, a)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("FinishGame() = %v, want %v", err, tt.want)
			}
			if err != nil {
				if _, aerr := s.ArchivedGame(ctx, g.ID); !errors.Is(aerr, ErrNotFound) {
					t.Errorf("failed FinishGame archived the game: %v", aerr)
				}
				if n := bucketLen(t, s, bucketPlayers); n != 0 {
					t.Errorf("failed FinishGame counted the game for %d players", n)
				}
				return
			}
			if _, err := s.Game(ctx, "c1"); !errors.Is(err, ErrNotFound) {
				t.Errorf("after FinishGame, Game(c1) = %v, want ErrNotFound", err)
			}
			got, err := s.ArchivedGame(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := &Archived{
				ID: g.ID, GuildID: "guild1", ChannelID: "c1", Black: g.First(0), White: g.First(1),
				Size: 9, Rules: engine.DefaultRules(), Result: tt.result, Winner: tt.winner,
				Moves: goOf(g).MoveCount(), SGF: a.SGF, StartedAt: t0, FinishedAt: t0.Add(time.Hour),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ArchivedGame() (-want +got):\n%s", diff)
			}
			if err := s.CreateGame(ctx, newGame(t, "c1", "1", "2")); err != nil {
				t.Errorf("CreateGame in the channel after FinishGame = %v", err)
			}
		})
	}
}

func TestHistory(t *testing.T) {
	s := openTest(t)
	// Games i = 0..29 finish at t0+i minutes, inserted out of order. Player
	// "1" plays every game, "2" the even ones, "3" the odd ones; games
	// divisible by 3 are in guild A, the others in guild B, except that
	// multiples of 5 are DMs.
	for _, i := range []int{7, 3, 29, 0, 11, 5, 17, 23, 2, 13, 19, 1, 4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25, 26, 27, 28} {
		opp := "2"
		if i%2 == 1 {
			opp = "3"
		}
		g := newGameWithID(t, fmt.Sprintf("c%d", i), fmt.Sprintf("g%02d", i), "1", opp)
		switch {
		case i%5 == 0:
			g.GuildID = ""
		case i%3 == 0:
			g.GuildID = "A"
		default:
			g.GuildID = "B"
		}
		finishWith(t, s, g, Archived{Result: "B+R", FinishedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	seq := func(ns ...int) []string {
		var out []string
		for _, n := range ns {
			out = append(out, fmt.Sprintf("g%02d", n))
		}
		return out
	}
	tests := []struct {
		name string
		list func() ([]*Archived, error)
		want []string
	}{
		{"newest three", func() ([]*Archived, error) { return s.PlayerGames(ctx, "1", 3) }, seq(29, 28, 27)},
		{"all of player 3", func() ([]*Archived, error) { return s.PlayerGames(ctx, "3", 0) },
			seq(29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1)},
		{"page before game 10", func() ([]*Archived, error) {
			return s.PlayerGamesBefore(ctx, "2", t0.Add(10*time.Minute), 3)
		}, seq(8, 6, 4)},
		{"last page", func() ([]*Archived, error) {
			return s.PlayerGamesBefore(ctx, "2", t0.Add(3*time.Minute), 5)
		}, seq(2, 0)},
		{"before everything", func() ([]*Archived, error) { return s.PlayerGamesBefore(ctx, "1", t0, 5) }, nil},
		{"after everything", func() ([]*Archived, error) {
			return s.PlayerGamesBefore(ctx, "3", t0.Add(time.Hour), 2)
		}, seq(29, 27)},
		{"unknown player", func() ([]*Archived, error) { return s.PlayerGames(ctx, "99", 5) }, nil},
		{"prefix of a player", func() ([]*Archived, error) { return s.PlayerGames(ctx, "", 5) }, nil},
		{"guild A", func() ([]*Archived, error) { return s.GuildGames(ctx, "A", 0) }, seq(27, 24, 21, 18, 12, 9, 6, 3)},
		{"guild B page", func() ([]*Archived, error) {
			return s.GuildGamesBefore(ctx, "B", t0.Add(10*time.Minute), 3)
		}, seq(8, 7, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.list()
			if tt.name == "prefix of a player" {
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("history of an empty key = %v, want ErrInvalid", err)
				}
				return
			}
			if diff := cmp.Diff(tt.want, listedIDs(t)(got, err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHistoryOwnerPrefix(t *testing.T) {
	// Player "1" must not see the games of "12" or "1x": keys end the
	// owner with a zero byte.
	s := openTest(t)
	finishNew(t, s, "c1", "a", "1", "5", t0)
	finishNew(t, s, "c2", "b", "12", "5", t0.Add(time.Minute))
	finishNew(t, s, "c3", "c", "13", "5", t0.Add(2*time.Minute))
	got, err := s.PlayerGames(ctx, "1", 0)
	if err != nil || len(got) != 1 || got[0].ID != "a" {
		t.Errorf("PlayerGames(1) = %v, %v; want only game a", got, err)
	}
	got, err = s.PlayerGames(ctx, "12", 0)
	if err != nil || len(got) != 1 || got[0].ID != "b" {
		t.Errorf("PlayerGames(12) = %v, %v; want only game b", got, err)
	}
}

func TestPlayerStats(t *testing.T) {
	s := openTest(t)
	results := []struct{ black, white, result string }{
		{"1", "2", "B+R"},
		{"2", "1", "B+3.5"},
		{"1", "2", "W+T"},
		{"1", "2", "0"},
		{"2", "1", "Void"},
		{"1", "1", "B+R"},
	}
	for i, r := range results {
		g := newGame(t, fmt.Sprintf("c%d", i), r.black, r.white)
		finishWith(t, s, g, Archived{Result: r.result, FinishedAt: t0.Add(time.Duration(i) * time.Hour)})
	}
	g := &Game{ChannelID: "cb", Sides: Sides(human("2"), bot("strong")), State: engine.Own(newEngine(t, 9))}
	finishWith(t, s, g, Archived{Result: "W+12.5", FinishedAt: t0.Add(10 * time.Hour)})

	tests := []struct {
		player string
		want   PlayerStats
	}{
		// 1: won, lost, lost, jigo, void, self: no streak.
		{"1", PlayerStats{Player: human("1"), Games: 6, Wins: 1, Losses: 2, Ties: 1, NoResult: 2, First: t0, Last: t0.Add(5 * time.Hour),
			BySize: map[int]*SizeStats{9: {Wins: 1, Losses: 2, Ties: 1}}}},
		// 2: lost, won, won, jigo, void, lost to the bot: one loss.
		{"2", PlayerStats{Player: human("2"), Games: 6, Wins: 2, Losses: 2, Ties: 1, NoResult: 1, First: t0, Last: t0.Add(10 * time.Hour),
			BySize: map[int]*SizeStats{9: {Wins: 2, Losses: 2, Ties: 1}}, Streak: -1}},
		{"bot:strong", PlayerStats{Player: bot("strong"), Games: 1, Wins: 1, First: t0.Add(10 * time.Hour), Last: t0.Add(10 * time.Hour),
			BySize: map[int]*SizeStats{9: {Wins: 1}}, Streak: 1}},
	}
	for _, tt := range tests {
		got, err := s.PlayerStats(ctx, tt.player)
		if err != nil {
			t.Fatalf("PlayerStats(%s) = %v", tt.player, err)
		}
		// Every game is Go's: Go's own counts are the same.
		goOnly := tt.want
		tt.want.Kinds = map[string]*PlayerStats{"go": &goOnly}
		if diff := cmp.Diff(&tt.want, got); diff != "" {
			t.Errorf("PlayerStats(%s) (-want +got):\n%s", tt.player, diff)
		}
	}
	if _, err := s.PlayerStats(ctx, "99"); !errors.Is(err, ErrNotFound) {
		t.Errorf("PlayerStats(99) = %v, want ErrNotFound", err)
	}
}

func TestResultOutcome(t *testing.T) {
	tests := []struct {
		in     string
		winner engine.Color
		tie    bool
		ok     bool
	}{
		{"B+R", engine.Black, false, true},
		{"W+0.5", engine.White, false, true},
		{"b+t", engine.Black, false, true},
		{"W+F", engine.White, false, true},
		{"B+", engine.Black, false, true},
		{"0", engine.Empty, true, true},
		{"Jigo", engine.Empty, true, true},
		{"Draw", engine.Empty, true, true},
		{"Void", engine.Empty, false, true},
		{"?", engine.Empty, false, true},
		{"", engine.Empty, false, false},
		{"X+R", engine.Empty, false, false},
		{"B3", engine.Empty, false, false},
	}
	for _, tt := range tests {
		w, tie, err := resultOutcome(tt.in)
		if w != tt.winner || tie != tt.tie || (err == nil) != tt.ok {
			t.Errorf("resultOutcome(%q) = %v, %v, %v; want %v, %v, ok %v", tt.in, w, tie, err, tt.winner, tt.tie, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("resultOutcome(%q) error %v does not wrap ErrInvalid", tt.in, err)
		}
	}
}

func TestArchivedCorrupt(t *testing.T) {
	s := openTest(t)
	finishNew(t, s, "c1", "a", "1", "2", t0)
	finishNew(t, s, "c2", "b", "1", "2", t0.Add(time.Minute))
	rawPut(t, s, bucketArchive, "b", []byte("{broken"))
	if _, err := s.ArchivedGame(ctx, "b"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ArchivedGame(b) = %v, want ErrCorrupt", err)
	}
	got, err := s.PlayerGames(ctx, "1", 10)
	if len(got) != 1 || got[0].ID != "a" || !errors.Is(err, ErrCorrupt) {
		t.Errorf("PlayerGames beside a corrupt record = %d games, %v; want game a and ErrCorrupt", len(got), err)
	}
	if err := s.Check(ctx); err == nil {
		t.Errorf("Check() = nil with a dangling index entry")
	}
	s.Close() // the cleanup would fail the check this test broke on purpose
}

func TestChannelGamesAndPages(t *testing.T) {
	s := openTest(t)
	for i := range 5 {
		finishNew(t, s, fmt.Sprintf("c%d", i%2), fmt.Sprintf("g%d", i), "1", "2", t0.Add(time.Duration(i)*time.Hour))
	}
	ids := listedIDs(t)
	for _, tt := range []struct {
		name string
		got  []string
		want []string
	}{
		{"ChannelGames(c0)", ids(s.ChannelGames(ctx, "c0", 10)), []string{"g4", "g2", "g0"}},
		{"ChannelGames(c1, 1)", ids(s.ChannelGames(ctx, "c1", 1)), []string{"g3"}},
		{"ChannelGames(c7)", ids(s.ChannelGames(ctx, "c7", 1)), nil},
	} {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	inC1 := func(a *Archived) bool { return a.ChannelID == "c1" }
	for _, tt := range []struct {
		player        string
		offset, limit int
		keep          func(*Archived) bool
		want          []string
		total         int
	}{
		{"1", 0, 2, nil, []string{"g4", "g3"}, 5},
		{"1", 2, 2, nil, []string{"g2", "g1"}, 5},
		{"2", 4, 2, nil, []string{"g0"}, 5},
		{"2", 6, 2, nil, nil, 5},
		{"1", 0, 1, inC1, []string{"g3"}, 2},
		{"1", 1, 5, inC1, []string{"g1"}, 2},
		{"3", 0, 5, nil, nil, 0},
	} {
		games, total, err := s.PlayerGamesPage(ctx, tt.player, tt.offset, tt.limit, tt.keep)
		if got := ids(games, err); !cmp.Equal(got, tt.want) || total != tt.total {
			t.Errorf("PlayerGamesPage(%s, %d, %d) = %v, %d; want %v, %d", tt.player, tt.offset, tt.limit, got, total, tt.want, tt.total)
		}
	}
}
