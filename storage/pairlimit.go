package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// A limit of rated games between the same two people (Archived.PairLimit)
// is decided by the transaction that archives and rates a game
// (FinishGame), not by the caller beforehand: a count read before the
// write would let games between the same two people ending at the same
// moment (in several channels, on several workers) all pass it. The count
// is a range scan of one player's games by finish time, over the window
// only, however many other games they played.

// PairLimit is a limit of rated games between the same two people: at
// most Games rated games of a kind between them in any Window. The zero
// PairLimit sets none.
type PairLimit struct {
	Games  int
	Window time.Duration
}

// pairLimited reports whether a (to be rated) falls under its PairLimit:
// a game of two different people, neither a bot, not a team game.
func pairLimited(a *Archived) bool {
	return a.PairLimit.Games > 0 && a.Rated && !a.Black.IsBot() && !a.White.IsBot() &&
		a.Black.Key() != a.White.Key() && len(a.BlackTeam) <= 1 && len(a.WhiteTeam) <= 1
}

// pairSince is where the window of a's PairLimit starts: games finished
// after it count.
func pairSince(a *Archived) time.Time { return a.FinishedAt.Add(-a.PairLimit.Window) }

// pairRated reports whether other, a game of a's Black's history finished
// after pairSince(a), is a rated game of a's kind between a's two players.
// A rated game stored with a later finish time than a's (its transaction
// came first) counts too.
func pairRated(a, other *Archived) bool {
	if other.ID == a.ID || !other.Rated || other.Annulled || KindOf(other.Kind) != KindOf(a.Kind) || !other.FinishedAt.After(pairSince(a)) {
		return false
	}
	_, black := other.SideOf(a.Black.Key())
	_, white := other.SideOf(a.White.Key())
	return black && white
}

// pairDecide leaves a unrated when rated, the finish times of the rated
// games between its players in the window, reach its PairLimit: Rated
// false, and PairLimitedUntil the time a rated game between them counts
// again (when the Games-th newest of them leaves the window). It returns
// a's encoding, val unchanged when a is still rated.
func pairDecide(a *Archived, val []byte, rated []time.Time) (*Archived, []byte, error) {
	if len(rated) < a.PairLimit.Games {
		return a, val, nil
	}
	slices.SortFunc(rated, func(x, y time.Time) int { return y.Compare(x) }) // newest first
	r := *a
	r.Rated, r.PairLimitedUntil = false, rated[a.PairLimit.Games-1].Add(a.PairLimit.Window)
	v, err := json.Marshal(&r)
	if err != nil {
		return nil, nil, fmt.Errorf("storage: encode archived game %s: %w", a.ID, err)
	}
	return &r, v, nil
}

// checkPairLimit applies a's PairLimit in tx (see pairDecide). bbolt has
// one writer at a time, so the count and the write that follows it cannot
// be split by another game's end.
func checkPairLimit(tx *bolt.Tx, a *Archived, val []byte) (*Archived, []byte, error) {
	if !pairLimited(a) {
		return a, val, nil
	}
	var rated []time.Time
	prefix := join(a.Black.Key())
	arch := tx.Bucket(bucketArchive)
	c := tx.Bucket(bucketArchivePlayer).Cursor()
	for k, _ := c.Seek(join(a.Black.Key(), timeKey(pairSince(a)))); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) <= len(prefix)+8 {
			continue
		}
		other, err := decodeArchive(arch.Get(k[len(prefix)+8:]))
		if err != nil {
			continue // a damaged record is not counted, as in the statistics
		}
		if pairRated(a, other) {
			rated = append(rated, other.FinishedAt)
		}
	}
	return pairDecide(a, val, rated)
}

// pgPairLimitLock is the first key of the advisory locks (two-key form,
// the second is a hash of the two players) under which the rated games
// between two people are counted and a new one is rated.
const pgPairLimitLock int32 = 0x676f70 // "gop"

// pgCheckPairLimit is checkPairLimit for PostgreSQL: the two players are
// locked as a pair (an advisory lock on their keys, in order, held until
// the transaction ends) before their rated games are counted, so that two
// transactions finishing games between the same two people take turns and
// the second counts the first's game.
func pgCheckPairLimit(ctx context.Context, tx pgx.Tx, a *Archived, val []byte) (*Archived, []byte, error) {
	if !pairLimited(a) {
		return a, val, nil
	}
	keys := []string{a.Black.Key(), a.White.Key()}
	slices.Sort(keys)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, pgPairLimitLock, keys[0]+"/"+keys[1]); err != nil {
		return nil, nil, fmt.Errorf("storage: lock the games of %s and %s: %w", keys[0], keys[1], err)
	}
	rows, err := tx.Query(ctx, `SELECT a.record FROM archive_by_player p JOIN archive a ON a.id = p.id
		WHERE p.player = $1 AND p.finished_ns > $2`, a.Black.Key(), pairSince(a).UnixNano())
	if err != nil {
		return nil, nil, fmt.Errorf("storage: count the games of %s and %s: %w", keys[0], keys[1], err)
	}
	var rated []time.Time
	for rows.Next() {
		var rec string
		if err := rows.Scan(&rec); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if other, err := decodeArchive([]byte(rec)); err == nil && pairRated(a, other) {
			rated = append(rated, other.FinishedAt)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return pairDecide(a, val, rated)
}

// PairLimitedUntil says whether a rated game of kind between black and
// white finishing at now would be left unrated by limit, as FinishGame
// would decide it then: until when (the time a rated game between them
// counts again), or the zero time when it would be rated. games are the
// finished games of either of them, at least those finished in the
// window before now. It is a forecast, for a challenge's message: the
// store decides when the game ends.
func PairLimitedUntil(limit PairLimit, kind string, black, white Player, games []*Archived, now time.Time) time.Time {
	a := &Archived{Kind: kind, Black: black, White: white, FinishedAt: now, Rated: true, PairLimit: limit}
	if !pairLimited(a) {
		return time.Time{}
	}
	var rated []time.Time
	for _, g := range games {
		if pairRated(a, g) {
			rated = append(rated, g.FinishedAt)
		}
	}
	r, _, err := pairDecide(a, nil, rated)
	if err != nil {
		return time.Time{}
	}
	return r.PairLimitedUntil
}
