package commands_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
	bolt "go.etcd.io/bbolt"
)

// quarantineNotice is what the players read when their game's record was
// damaged and set aside.
const quarantineNotice = "⚠️ The game in this channel could not be read: its stored record is damaged. " +
	"It has been set aside for the bot's operator (nothing was deleted), and this channel is free for a new game: " +
	"`/go challenge` or `/go bot`."

// damageRecord rewrites the stored record of the game in channel while the
// bot is stopped.
func (e *env) damageRecord(channel string, mutate func([]byte) []byte) {
	e.t.Helper()
	db, err := bolt.Open(e.dbPath, 0o600, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		return b.Put([]byte(channel), mutate(bytes.Clone(b.Get([]byte(channel)))))
	}); err != nil {
		e.t.Fatal(err)
	}
}

// TestE2ECorruptRecord: a game whose record holds a move on an occupied
// point (a bug, a bad restore) is set aside when the bot starts and reads
// it: the players read why in the channel, the record is kept for the
// operator, /go abort and a new challenge work, and the bot stays healthy.
func TestE2ECorruptRecord(t *testing.T) { httpMode(t, testE2ECorruptRecord) }

func testE2ECorruptRecord(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "D4"))
	e.do(e.play(ch, alice, "C3"))
	e.stop()
	// Bob's D4 becomes a second stone on alice's E5.
	e.damageRecord(ch.ID, func(v []byte) []byte { return bytes.Replace(v, []byte(`"W D4"`), []byte(`"W E5"`), 1) })
	e.start()

	var notice []discordtest.Message
	e.d.WaitFor("the notice in the channel", func() bool {
		notice = nil
		for _, m := range e.d.Public(ch.ID) {
			if strings.Contains(m.Text(), "could not be read") {
				notice = append(notice, m)
			}
		}
		return len(notice) > 0
	})
	if len(notice) != 1 || notice[0].Text() != quarantineNotice {
		t.Fatalf("the channel was told %d times: %q; want once: %q", len(notice), notice[0].Text(), quarantineNotice)
	}
	qs, err := e.store.QuarantinedGames(context.Background())
	if err != nil || len(qs) != 1 || qs[0].ChannelID != ch.ID || !bytes.Contains(qs[0].Record, []byte(`"W E5"`)) {
		t.Fatalf("QuarantinedGames() = %d records, %v; want the damaged record kept", len(qs), err)
	}
	if _, lost, err := qs[0].Salvage(); err != nil || lost != 2 {
		t.Errorf("Salvage() = %d moves left out, %v; want the 2 moves from the damage on", lost, err)
	}
	mod := e.d.NewUser("mod")
	e.refused(e.slash(ch, alice, "play", discordtest.Str("move", "F6")), "There is no game in this channel")
	if m := e.do(e.slash(ch, mod, "abort")); !strings.Contains(m.Text(), "There is no game in this channel") {
		t.Errorf("/go abort after the quarantine = %q", m.Text())
	}
	e.challenge(ch, alice, bob)
	e.alive()
	if n := strings.Count(e.logs.String(), "quarantined"); n != 1 {
		t.Errorf("the log mentions the quarantine %d times, want once", n)
	}
}
