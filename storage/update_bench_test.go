package storage

import (
	"testing"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// BenchmarkUpdateGamePostgres is one move's write of a 9×9 game on
// PostgreSQL: the version-checked update (which reads the stored record
// first, to keep the board messages AddMessageID stored meanwhile).
func BenchmarkUpdateGamePostgres(b *testing.B) {
	s, err := OpenPostgres(ctx, pgtest.Database(b), Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := newGame(b, "c1", "1", "2")
	if err := s.CreateGame(ctx, g); err != nil {
		b.Fatal(err)
	}
	g.Delivery.MessageIDs = []string{"1200000000000000001"}
	b.ResetTimer()
	for b.Loop() {
		if err := s.UpdateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
}
