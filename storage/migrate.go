package storage

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// archiveV1 is an archived game as schema 1 stored it: the SGF inline and
// no winner field.
type archiveV1 struct {
	ID         string       `json:"id"`
	GuildID    string       `json:"guild,omitempty"`
	ChannelID  string       `json:"channel"`
	Black      Player       `json:"black"`
	White      Player       `json:"white"`
	Size       int          `json:"size"`
	Rules      engine.Rules `json:"rules"`
	Handicap   int          `json:"handicap,omitempty"`
	Result     string       `json:"result"`
	Moves      int          `json:"moves"`
	SGF        []byte       `json:"sgf"`
	StartedAt  time.Time    `json:"started"`
	FinishedAt time.Time    `json:"finished"`
}

// migrate1to2 builds the indexes schema 2 added from the records of schema
// 1, moves each archived game's SGF into archive_sgf, derives its winner
// from the result and counts it in the players' statistics. Records that
// cannot be decoded are left exactly as they are (they will report
// ErrCorrupt when read), so one bad record cannot stop the start-up.
func migrate1to2(tx *bolt.Tx, kinds *game.Kinds) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}

	// Active games: index by player.
	var idx [][]byte
	tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		if h, err := decodeHeader(v); err == nil {
			for _, p := range h.players() {
				idx = append(idx, join(p.Key(), k))
			}
		}
		return nil
	})
	for _, k := range idx {
		if err := tx.Bucket(bucketGamesByPlayer).Put(k, nil); err != nil {
			return err
		}
	}

	// Challenges: index by expiry.
	idx = idx[:0]
	tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
		if c, err := decodeChallenge(v); err == nil {
			idx = append(idx, append(timeKey(c.ExpiresAt), k...))
		}
		return nil
	})
	for _, k := range idx {
		if err := tx.Bucket(bucketChallengesExp).Put(k, nil); err != nil {
			return err
		}
	}

	// Archive: split out the SGF, add the winner, index, count. The keys
	// are collected first: a bucket must not change under ForEach.
	arch := tx.Bucket(bucketArchive)
	var ids [][]byte
	arch.ForEach(func(k, _ []byte) error {
		ids = append(ids, bytes.Clone(k))
		return nil
	})
	for _, id := range ids {
		var old archiveV1
		if err := json.Unmarshal(arch.Get(id), &old); err != nil || old.ID != string(id) {
			continue
		}
		winner, tie, err := resultOutcome(old.Result)
		if err != nil {
			winner, tie = engine.Empty, false
		}
		a := &Archived{
			ID: old.ID, GuildID: old.GuildID, ChannelID: old.ChannelID, Black: old.Black, White: old.White,
			Size: old.Size, Rules: old.Rules, Handicap: old.Handicap, Result: old.Result, Winner: winner,
			Moves: old.Moves, StartedAt: old.StartedAt, FinishedAt: old.FinishedAt,
		}
		val, err := json.Marshal(a)
		if err != nil {
			return err
		}
		if err := arch.Delete(id); err != nil { // putArchive refuses an existing ID
			return err
		}
		if err := putArchive(tx, a, val, old.SGF, tie); err != nil {
			return err
		}
	}
	return nil
}

// migrate2to3 queues the bot moves that the active games of schema 2 owe,
// in the order of their last write (when each became owed, as near as the
// records tell). Records that cannot be decoded are left as they are.
func migrate2to3(tx *bolt.Tx, kinds *game.Kinds) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	var owed []*Game
	tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		if g, err := decodeGame(kinds, string(k), v); err == nil && g.BotToMove() {
			owed = append(owed, g)
		}
		return nil
	})
	slices.SortStableFunc(owed, func(a, b *Game) int { return a.UpdatedAt.Compare(b.UpdatedAt) })
	for _, g := range owed {
		if err := syncBotQueue(tx, owedOf(g), g.UpdatedAt); err != nil {
			return err
		}
	}
	return nil
}

// migrate3to4 indexes every archived game by its channel. Records that
// cannot be decoded are left as they are.
func migrate3to4(tx *bolt.Tx, kinds *game.Kinds) error {
	b, err := tx.CreateBucketIfNotExists(bucketArchiveChan)
	if err != nil {
		return err
	}
	var keys [][]byte
	tx.Bucket(bucketArchive).ForEach(func(_, v []byte) error {
		if a, err := decodeArchive(v); err == nil && a.ChannelID != "" {
			keys = append(keys, join(a.ChannelID, timeKey(a.FinishedAt), []byte(a.ID)))
		}
		return nil
	})
	for _, k := range keys {
		if err := b.Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}

// migrate4to5 creates games_by_due and vacations and indexes the active
// games that wait on a deadline: before schema 5 only the scoring phase had
// one (games had no clock), which the record's due time now carries.
// Records that cannot be decoded are left as they are.
func migrate4to5(tx *bolt.Tx, kinds *game.Kinds) error {
	for _, name := range [][]byte{bucketGamesByDue, bucketVacations} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	games := tx.Bucket(bucketGames)
	type entry struct {
		channel []byte
		val     []byte
		due     time.Time
	}
	var todo []entry
	games.ForEach(func(k, v []byte) error {
		var r gameRecord
		if err := json.Unmarshal(v, &r); err != nil || r.Scoring == nil || r.Scoring.Deadline.IsZero() {
			return nil
		}
		r.Due = r.Scoring.Deadline
		val, err := json.Marshal(r)
		if err != nil {
			return nil
		}
		todo = append(todo, entry{bytes.Clone(k), val, r.Due})
		return nil
	})
	for _, e := range todo {
		if err := games.Put(e.channel, e.val); err != nil {
			return err
		}
		if err := indexDue(tx, string(e.channel), time.Time{}, e.due); err != nil {
			return err
		}
	}
	return nil
}

// migrate5to6 creates the rating buckets (empty: no game of an older
// schema was rated) and recounts the players' statistics from the archive,
// oldest game first, so that they get results by board size and streaks.
func migrate5to6(tx *bolt.Tx, kinds *game.Kinds) error {
	for _, name := range [][]byte{bucketRatings, bucketRatingsByValue, bucketRatingHistory} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	if err := tx.DeleteBucket(bucketPlayers); err != nil {
		return err
	}
	if _, err := tx.CreateBucket(bucketPlayers); err != nil {
		return err
	}
	var games []*Archived
	tx.Bucket(bucketArchive).ForEach(func(_, v []byte) error {
		if a, err := decodeArchive(v); err == nil {
			games = append(games, a)
		}
		return nil
	})
	slices.SortStableFunc(games, func(a, b *Archived) int { return a.FinishedAt.Compare(b.FinishedAt) })
	for _, a := range games {
		_, tie, err := resultOutcome(a.Result)
		if err != nil {
			tie = false
		}
		if err := countGame(tx, a, tie); err != nil {
			return err
		}
	}
	return nil
}

// migrate6to7 rewrites each active game's record from its black and white
// players to its kind and sides (gameRecord), as JSON, without replaying
// the moves. A record it cannot read is left as it is: loading it reports
// it damaged, as before.
func migrate6to7(tx *bolt.Tx, kinds *game.Kinds) error {
	games := tx.Bucket(bucketGames)
	type rewrite struct{ k, v []byte }
	var out []rewrite
	err := games.ForEach(func(k, v []byte) error {
		nv, ok := withSides(v)
		if ok {
			out = append(out, rewrite{bytes.Clone(k), nv})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range out {
		if err := games.Put(r.k, r.v); err != nil {
			return err
		}
	}
	return nil
}

// withSides returns a game record written before sides with its kind and
// sides instead of its black and white players, and whether it changed.
func withSides(v []byte) ([]byte, bool) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(v, &fields); err != nil || fields["sides"] != nil {
		return nil, false
	}
	var black, white Player
	if json.Unmarshal(fields["black"], &black) != nil || json.Unmarshal(fields["white"], &white) != nil {
		return nil, false
	}
	sides, err := json.Marshal(Sides(black, white))
	if err != nil {
		return nil, false
	}
	delete(fields, "black")
	delete(fields, "white")
	fields["sides"] = sides
	fields["kind"] = json.RawMessage(`"` + engine.KindName + `"`)
	nv, err := json.Marshal(fields)
	return nv, err == nil
}
