package storage

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// occupiedRecord returns g's stored record with its fourth move replaced by
// a move on the point of the second: a move on an occupied point.
func occupiedRecord(t *testing.T, s *Store, channel string) []byte {
	t.Helper()
	v := rawGet(t, s, bucketGames, channel)
	bad := bytes.Replace(v, []byte(`"W F6"`), []byte(`"W E5"`), 1)
	if bytes.Equal(bad, v) {
		t.Fatalf("record %s has no move W F6 to damage: %s", channel, v)
	}
	return bad
}

// TestQuarantinedGames: records set aside are listed with their channel
// and time, and what their moves allow is salvaged: the moves before the
// first that does not replay, for an SGF.
func TestQuarantinedGames(t *testing.T) {
	s := openTest(t)
	for _, ch := range []string{"half", "occupied"} {
		g := newGame(t, ch, "1", "2")
		play(t, goOf(g), "D4", "E5", "C3", "F6", "G7")
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	half := rawGet(t, s, bucketGames, "half")
	rawPut(t, s, bucketGames, "half", half[:len(half)/2])
	rawPut(t, s, bucketGames, "occupied", occupiedRecord(t, s, "occupied"))

	for _, ch := range []string{"half", "occupied"} {
		_, err := s.Game(ctx, ch)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.ChannelID != ch || !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Game(%s) = %v, want a *CorruptError for the channel wrapping ErrCorrupt", ch, err)
		}
	}
	_, err := s.ActiveGames(ctx)
	if got := CorruptChannels(err); strings.Join(got, ",") != "half,occupied" {
		t.Errorf("CorruptChannels(ActiveGames error) = %v, want [half occupied]", got)
	}
	for _, ch := range []string{"occupied", "half"} {
		if err := s.QuarantineGame(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
	qs, err := s.QuarantinedGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].ChannelID != "half" || qs[1].ChannelID != "occupied" {
		t.Fatalf("QuarantinedGames() = %+v, want half and occupied", qs)
	}
	if !bytes.Equal(qs[0].Record, half[:len(half)/2]) || qs[0].At.IsZero() {
		t.Errorf("quarantined record = %q at %v, want the damaged bytes as stored and a time", qs[0].Record, qs[0].At)
	}
	if _, _, err := qs[0].Salvage(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Salvage(half a record) = %v, want ErrCorrupt", err)
	}
	g, lost, err := qs[1].Salvage()
	if err != nil {
		t.Fatalf("Salvage(occupied) = %v", err)
	}
	if got := strings.Join(moveStrings(goOf(g)), ", "); got != "B D4, W E5, B C3" || lost != 2 {
		t.Errorf("Salvage(occupied) = moves %q, %d left out; want B D4, W E5, B C3 and 2 left out", got, lost)
	}
	if g.First(0).UserID != "1" || g.First(1).UserID != "2" || g.ChannelID != "occupied" || goOf(g).ToPlay() != engine.White {
		t.Errorf("Salvage(occupied) = %+v, want the record's players and channel, white to play", g)
	}
}

// TestCheckPagesIgnoresOneRecord: the health's deep check reflects the
// file (bbolt's pages), not one record that does not decode: Check reports
// the record, CheckPages does not, and Ping is a read transaction.
func TestCheckPagesIgnoresOneRecord(t *testing.T) {
	s := openTest(t)
	for _, ch := range []string{"a", "half"} {
		g := newGame(t, ch, "1", "2")
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	half := rawGet(t, s, bucketGames, "half")
	rawPut(t, s, bucketGames, "half", half[:len(half)/2])
	if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Check() = %v, want the corrupt record reported", err)
	}
	if err := s.CheckPages(ctx); err != nil {
		t.Errorf("CheckPages() = %v, want nil: one bad record is not a bad file", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping() = %v", err)
	}
	if err := s.QuarantineGame(ctx, "half"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for name, f := range map[string]func(context.Context) error{"Ping": s.Ping, "CheckPages": s.CheckPages} {
		if err := f(ctx); !errors.Is(err, ErrClosed) {
			t.Errorf("%s() after Close = %v, want ErrClosed", name, err)
		}
	}
}

// TestQuarantinedGamesPostgres: PostgreSQL lists its quarantine as bbolt
// does, for `gobot doctor` on a database URL.
func TestQuarantinedGamesPostgres(t *testing.T) {
	p, err := OpenPostgres(ctx, pgtest.Database(t), Options{Kinds: testKinds})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g := newGame(t, "occupied", "1", "2")
	play(t, goOf(g), "D4", "E5", "C3", "F6", "G7")
	if err := p.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var rec string
	if err := p.pool.QueryRow(ctx, `SELECT record FROM games WHERE channel_id = 'occupied'`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(rec, `"W F6"`, `"W E5"`, 1)
	if _, err := p.pool.Exec(ctx, `UPDATE games SET record = $1 WHERE channel_id = 'occupied'`, bad); err != nil || bad == rec {
		t.Fatalf("damaging the record: %v", err)
	}
	if err := p.QuarantineGame(ctx, "occupied"); err != nil {
		t.Fatal(err)
	}
	qs, err := p.QuarantinedGames(ctx)
	if err != nil || len(qs) != 1 {
		t.Fatalf("QuarantinedGames() = %+v, %v; want the one record", qs, err)
	}
	if q := qs[0]; q.ChannelID != "occupied" || string(q.Record) != bad || q.At.IsZero() || !errors.Is(q.Problem, ErrCorrupt) {
		t.Errorf("quarantined = %+v, want the damaged bytes of channel occupied, a time and why", q)
	}
	if g, lost, err := qs[0].Salvage(); err != nil || lost != 2 || goOf(g).MoveCount() != 3 {
		t.Errorf("Salvage() = %v, %d left out, %v; want three moves and two left out", g, lost, err)
	}
}
