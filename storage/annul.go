package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Annulling a finished game (an admin's /go-admin annul): its record
// stays, marked annulled and no longer rated; the players' statistics are
// recounted without it; and the rating pools it counted in are recomputed
// from the archive, in the order the games were rated, exactly as
// RebuildRatings would (pools are independent, so recomputing those pools
// is rebuilding everything; and only those pools are rated again). The
// recomputation runs outside any write transaction, on a snapshot, its
// decoding and encoding shared among the processors. The rating history
// of the games rated after the annulled one is then written in short
// transactions that no other write joins (bbolt has one writer: moves
// come between them, and are never batched with them), and last, in one
// transaction that checks that no game was rated and no other game
// annulled meanwhile (the ratings' sequence, which an annulment that
// changes ratings advances too; else it all starts again), the ratings,
// the annulment, the players' statistics and the log entry. So games keep
// being played and finished while a large pool is recomputed; until that
// last write the history of later games may already show the ratings
// without the annulled game.

// annulAttempts bounds the recomputations when games keep being rated
// while one runs.
const annulAttempts = 5

// errRated says a game was rated or another annulled while a
// recomputation ran: start again.
var errRated = errors.New("storage: a game was rated meanwhile")

// memRatings is ratingTx in memory: the ratings of some pools recomputed
// away from the store.
type memRatings struct {
	ratings map[poolPlayer]PlayerRating
	changes []RatingChange
}

// poolPlayer keys a player's rating in a pool.
type poolPlayer struct{ pool, player string }

func (m *memRatings) loadRating(_ context.Context, pool string, p Player) (PlayerRating, error) {
	pr, ok := m.ratings[poolPlayer{pool, p.Key()}]
	if !ok {
		return newRating(pool, p), nil
	}
	if p.Name != "" {
		pr.Player = p // as decodeRating does: the name used most recently
	}
	return pr, nil
}

func (m *memRatings) putRating(_ context.Context, _, pr PlayerRating) error {
	m.ratings[poolPlayer{pr.Pool, pr.Player.Key()}] = pr
	return nil
}

func (m *memRatings) putChange(_ context.Context, c RatingChange) error {
	m.changes = append(m.changes, c)
	return nil
}

// recomputePools rates again, in memory, the rated games of all that count
// in any of pools and were rated at or before upTo, and returns the
// ratings and changes of those pools. all must hold every archived game of
// those pools (others are ignored); an annulled game is not rated. Only
// pools are rated (each pool is rated apart from the others), and the
// changes are in the order they were made.
func recomputePools(ctx context.Context, starts StartRatings, all []*Archived, pools []string, upTo uint64) (*memRatings, error) {
	type job struct {
		g  ratedGame
		in []string // the game's pools among pools
	}
	var jobs []job
	changes := 0
	for _, g := range ratedInOrder(all) {
		if g.a.RatingSeq > upTo {
			continue
		}
		var in []string
		for _, p := range ratingPools(g.a) {
			if slices.Contains(pools, p) {
				in = append(in, p)
			}
		}
		if len(in) > 0 {
			jobs, changes = append(jobs, job{g, in}), changes+2*len(in)
		}
	}
	m := &memRatings{ratings: map[poolPlayer]PlayerRating{}, changes: make([]RatingChange, 0, changes)}
	for i, j := range jobs {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if err := rateIn(ctx, m, starts, j.g.a, j.g.score, j.in); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// annulPools are the pools an archived game was rated in: none for a game
// that was not rated.
func annulPools(a *Archived) []string {
	if !a.Rated {
		return nil
	}
	_, tie, err := resultOutcome(a.Result)
	if err != nil {
		return nil
	}
	if _, ok := ratedScore(a, tie); !ok {
		return nil
	}
	return ratingPools(a)
}

// annulled returns the record of a once annulled.
func annulled(a *Archived) *Archived {
	c := *a
	c.Annulled, c.Rated = true, false
	return &c
}

// recountStats recounts a player's statistics from their archived games,
// given in the order they finished.
func recountStats(key string, games []*Archived) *PlayerStats {
	st := new(PlayerStats)
	for _, a := range games {
		if a.Annulled {
			continue
		}
		_, tie, err := resultOutcome(a.Result)
		if err != nil {
			tie = false
		}
		for _, side := range countedSides(a) {
			if a.Player(side).Key() == key {
				st.count(a, side, tie)
			}
		}
	}
	return st
}

// AnnulGame annuls the finished game id of the server guildID, with its
// audit entry, and returns it as it now stands. record, when not nil,
// replaces the game's record (SGF or PDN): the caller's, marked annulled
// in its kind's format. It fails with ErrNotFound when the server has no
// such archived game and with ErrAnnulled when it is annulled already.
// Should games keep being rated while it recomputes, its last attempt does
// everything in one write transaction, so that it is never starved.
func (s *Store) AnnulGame(ctx context.Context, guildID, id string, record []byte, e AuditEntry) (*Archived, error) {
	if err := e.validate(); err != nil {
		return nil, err // before any write: the annulment is never stored without its entry
	}
	for attempt := 1; attempt < annulAttempts; attempt++ {
		a, err := s.annulOnce(ctx, guildID, id, record, e)
		if !errors.Is(err, errRated) {
			return a, err
		}
	}
	var out *Archived
	now := s.now()
	err := s.updateAlone(ctx, func(tx *bolt.Tx) error {
		snap, err := boltAnnulSnapshot(tx, guildID, id)
		if err != nil {
			return err
		}
		w, err := snap.compute(ctx, s.starts)
		if err != nil {
			return err
		}
		if err := putHistoryTx(tx, w.history); err != nil {
			return err
		}
		out = w.out
		return w.write(tx, snap, record, e, now, false)
	})
	if err == nil && record != nil {
		out.SGF = record
	}
	return out, err
}

// annulSnapshot is what an annulment reads: the game, the ratings'
// sequence, the players' statistics recounted, and the records of the
// rated games and stored ratings of the game's pools, copied out of the
// read transaction.
type annulSnapshot struct {
	a                    *Archived
	raw                  []byte
	seq                  uint64
	pools                []string
	stats                []statsRecount
	rawGames, rawRatings [][]byte
}

// boltAnnulSnapshot reads an annulment's snapshot in tx.
func boltAnnulSnapshot(tx *bolt.Tx, guildID, id string) (*annulSnapshot, error) {
	v := tx.Bucket(bucketArchive).Get([]byte(id))
	a, err := decodeArchive(v)
	if err != nil || a.GuildID != guildID || guildID == "" {
		return nil, fmt.Errorf("storage: annul game %s: no such game on %s: %w", id, guildID, ErrNotFound)
	}
	if a.Annulled {
		return nil, fmt.Errorf("storage: annul game %s: %w", id, ErrAnnulled)
	}
	snap := &annulSnapshot{a: a, raw: bytes.Clone(v), seq: tx.Bucket(bucketRatings).Sequence(), stats: boltStatsRecount(tx, annulled(a))}
	if snap.pools = annulPools(a); len(snap.pools) == 0 {
		return snap, nil
	}
	keep := func(v []byte) {
		if bytes.Contains(v, ratedMark) { // else not rated: not needed
			snap.rawGames = append(snap.rawGames, bytes.Clone(v))
		}
	}
	if slices.Contains(snap.pools, KindPool(a.Kind, GlobalPool)) { // the kind's global pool: every server's games
		tx.Bucket(bucketArchive).ForEach(func(_, v []byte) error {
			keep(v)
			return nil
		})
	} else {
		arch, prefix := tx.Bucket(bucketArchive), join(guildID)
		c := tx.Bucket(bucketArchiveGuild).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if len(k) > len(prefix)+8 {
				keep(arch.Get(k[len(prefix)+8:]))
			}
		}
	}
	// The stored ratings change only with the ratings' sequence, which
	// the write checks again.
	ratings := tx.Bucket(bucketRatings)
	for _, pool := range snap.pools {
		prefix := join(pool)
		c := ratings.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			snap.rawRatings = append(snap.rawRatings, bytes.Clone(v))
		}
	}
	return snap, nil
}

// annulWrites is what an annulment writes: the annulled record, the
// rating history of the later games (in key order) and the ratings' diff.
type annulWrites struct {
	out     *Archived
	val     []byte
	history []keyValue
	diff    ratingsDiff
}

// keyValue is a record to put.
type keyValue struct{ k, v []byte }

// compute rates the snapshot's pools again without the game.
func (snap *annulSnapshot) compute(ctx context.Context, starts StartRatings) (*annulWrites, error) {
	w := &annulWrites{out: annulled(snap.a)}
	var err error
	if w.val, err = json.Marshal(w.out); err != nil {
		return nil, err
	}
	if len(snap.pools) == 0 {
		return w, nil
	}
	// Decoding the records (JSON) is most of the work before the
	// ratings: it is shared among the processors.
	decoded := make([]*Archived, len(snap.rawGames))
	inParallel(len(decoded), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if g, err := decodeArchive(snap.rawGames[i]); err == nil && g.Rated && g.ID != snap.a.ID {
				decoded[i] = g
			}
		}
		return nil
	})
	all := slices.DeleteFunc(decoded, func(g *Archived) bool { return g == nil })
	mem, err := recomputePools(ctx, starts, all, snap.pools, snap.seq)
	if err != nil {
		return nil, err
	}
	if w.diff, err = ratingsDiffOf(snap.rawRatings, mem); err != nil {
		return nil, err
	}
	// The changes of the games rated before the annulled one stay as
	// they are; the later ones are encoded, shared among the processors.
	later := mem.changes[len(mem.changes):]
	if i := slices.IndexFunc(mem.changes, func(ch RatingChange) bool { return ch.Seq > snap.a.RatingSeq }); i >= 0 {
		later = mem.changes[i:]
	}
	w.history = make([]keyValue, len(later))
	err = inParallel(len(later), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			ch := &later[i]
			v, err := json.Marshal(ch)
			if err != nil {
				return err
			}
			w.history[i] = keyValue{join(ch.Player, []byte(ch.Pool), []byte{0}, u64(ch.Seq)), v}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// In key order, each transaction rewrites a run of neighbouring pages
	// rather than pages all over the bucket.
	slices.SortFunc(w.history, func(x, y keyValue) int { return bytes.Compare(x.k, y.k) })
	return w, nil
}

// inParallel calls f on consecutive parts [lo, hi) of [0, n), one part a
// processor (a single part for a small n), and returns when every call
// has returned, with their errors.
func inParallel(n int, f func(lo, hi int) error) error {
	parts := max(1, min(runtime.GOMAXPROCS(0), n/1024))
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { errs[i] = f(i*n/parts, (i+1)*n/parts) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// write stores the annulment in tx: the archive's entry and, when not
// nil, its new record (SGF or PDN), the statistics, the ratings, the
// annulled game's history gone, the log entry. check says whether to
// verify first that nothing changed since the snapshot (errRated
// otherwise). An annulment that changes ratings advances the ratings'
// sequence: another annulment recomputing from a snapshot in which this
// game still counted then fails its check and starts again, rather than
// putting the game back into the ratings it writes.
func (w *annulWrites) write(tx *bolt.Tx, snap *annulSnapshot, record []byte, e AuditEntry, now time.Time, check bool) error {
	a := snap.a
	if check && (tx.Bucket(bucketRatings).Sequence() != snap.seq || !bytes.Equal(tx.Bucket(bucketArchive).Get([]byte(a.ID)), snap.raw)) {
		return errRated
	}
	if err := tx.Bucket(bucketArchive).Put([]byte(a.ID), w.val); err != nil {
		return err
	}
	if record != nil {
		if err := tx.Bucket(bucketArchiveSGF).Put([]byte(a.ID), record); err != nil {
			return err
		}
	}
	players := tx.Bucket(bucketPlayers)
	for _, st := range snap.stats {
		if check && !bytes.Equal(players.Get([]byte(st.key)), st.before) {
			return errRated // a game of theirs finished meanwhile
		}
		var err error
		if st.after == nil {
			err = players.Delete([]byte(st.key))
		} else {
			err = players.Put([]byte(st.key), st.after)
		}
		if err != nil {
			return err
		}
	}
	if err := w.diff.apply(tx); err != nil {
		return err
	}
	if len(snap.pools) > 0 {
		if _, err := tx.Bucket(bucketRatings).NextSequence(); err != nil {
			return err
		}
	}
	for _, pool := range snap.pools {
		for _, p := range []Player{a.Black, a.White} {
			if err := tx.Bucket(bucketRatingHistory).Delete(join(p.Key(), []byte(pool), []byte{0}, u64(a.RatingSeq))); err != nil {
				return err
			}
		}
	}
	return appendAudit(tx, e, now)
}

// annulOnce is one attempt of AnnulGame that recomputes off the write
// transactions: errRated when a game was rated meanwhile.
func (s *Store) annulOnce(ctx context.Context, guildID, id string, record []byte, e AuditEntry) (*Archived, error) {
	// The snapshot is copied out and decoded afterwards: a long read
	// transaction would keep bbolt from reusing pages and, when the file
	// must grow, hold up every write until it ends.
	var snap *annulSnapshot
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		snap, err = boltAnnulSnapshot(tx, guildID, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.recomputing != nil {
		s.recomputing()
	}
	w, err := snap.compute(ctx, s.starts)
	if err != nil {
		return nil, err
	}
	// The history of the games rated after this one changes (nearly all
	// of a pool's, for an early game): it is written first, in short
	// transactions that moves can come between. The history only shows
	// what happened; the ratings, which later games are rated from,
	// change below in one transaction with the annulment. Each checks
	// the ratings' sequence first: once another annulment has committed,
	// this history may still count its game, which the retry would not
	// take out again (the last write would fail its check anyway).
	for start := 0; start < len(w.history); start += historyChunk {
		chunk := w.history[start:min(start+historyChunk, len(w.history))]
		err := s.updateAlone(ctx, func(tx *bolt.Tx) error {
			if tx.Bucket(bucketRatings).Sequence() != snap.seq {
				return errRated
			}
			return putHistoryTx(tx, chunk)
		})
		if err != nil {
			return nil, err
		}
	}
	now := s.now()
	if err := s.updateAlone(ctx, func(tx *bolt.Tx) error { return w.write(tx, snap, record, e, now, true) }); err != nil {
		return nil, err
	}
	if record != nil {
		w.out.SGF = record
	}
	return w.out, nil
}

// putHistoryTx puts the rating changes that differ from the stored ones.
// The changes are in key order: one cursor walks along them, stepping to
// the next stored record when it is near and seeking when it is not.
func putHistoryTx(tx *bolt.Tx, changes []keyValue) error {
	hist := tx.Bucket(bucketRatingHistory)
	var puts []keyValue
	c := hist.Cursor()
	var k, v []byte
	for i, ch := range changes {
		if i == 0 {
			k, v = c.Seek(ch.k)
		}
		for step := 0; k != nil && bytes.Compare(k, ch.k) < 0; step++ {
			if step == 8 {
				k, v = c.Seek(ch.k)
				break
			}
			k, v = c.Next()
		}
		if !bytes.Equal(k, ch.k) || !bytes.Equal(v, ch.v) {
			puts = append(puts, ch)
		}
	}
	// Put after the walk: a cursor is not to be used across writes.
	for _, p := range puts {
		if err := hist.Put(p.k, p.v); err != nil {
			return err
		}
	}
	return nil
}

// statsRecount is a player's statistics record before and after an
// annulment (after nil: no game left to count).
type statsRecount struct {
	key           string
	before, after []byte
}

// boltStatsRecount recounts, in a read transaction, the statistics of the
// players of a (as annulled) from their archived games.
func boltStatsRecount(tx *bolt.Tx, a *Archived) []statsRecount {
	var out []statsRecount
	for _, side := range countedSides(a) {
		key := a.Player(side).Key()
		games := boltPlayerGames(tx, key)
		for i, g := range games {
			if g.ID == a.ID {
				games[i] = a // as annulled
			}
		}
		r := statsRecount{key: key, before: bytes.Clone(tx.Bucket(bucketPlayers).Get([]byte(key)))}
		if st := recountStats(key, games); st.Games > 0 {
			r.after, _ = json.Marshal(st) // a struct of numbers, times and strings: encodes
		}
		out = append(out, r)
	}
	return out
}

// ratingsDiff is what makes the stored ratings of some pools those of a
// recomputation: records to delete and to put, with their leaderboard
// entries.
type ratingsDiff struct {
	deletes []PlayerRating                    // stored ratings the recomputation no longer has
	puts    []struct{ old, new PlayerRating } // old.Games 0 for a new one
}

// ratingsDiffOf compares the stored ratings of the recomputed pools
// (their records) with mem's.
func ratingsDiffOf(stored [][]byte, mem *memRatings) (ratingsDiff, error) {
	var d ratingsDiff
	old := map[poolPlayer]PlayerRating{}
	oldRaw := map[poolPlayer][]byte{}
	for _, v := range stored {
		var pr PlayerRating
		if err := json.Unmarshal(v, &pr); err != nil {
			return d, fmt.Errorf("storage: rating: %w: %w", ErrCorrupt, err)
		}
		k := poolPlayer{pr.Pool, pr.Player.Key()}
		old[k], oldRaw[k] = pr, v
		if _, ok := mem.ratings[k]; !ok {
			d.deletes = append(d.deletes, pr)
		}
	}
	for k, pr := range mem.ratings {
		nv, err := json.Marshal(pr)
		if err != nil {
			return d, err
		}
		if !bytes.Equal(oldRaw[k], nv) {
			d.puts = append(d.puts, struct{ old, new PlayerRating }{old[k], pr})
		}
	}
	return d, nil
}

// apply writes d in tx.
func (d ratingsDiff) apply(tx *bolt.Tx) error {
	ratings, byValue := tx.Bucket(bucketRatings), tx.Bucket(bucketRatingsByValue)
	for _, pr := range d.deletes {
		key := []byte(pr.Player.Key())
		if err := ratings.Delete(join(pr.Pool, key)); err != nil {
			return err
		}
		if err := byValue.Delete(join(pr.Pool, ratingKey(pr.Rating.Rating), key)); err != nil {
			return err
		}
	}
	rt := boltRatings{tx}
	for _, p := range d.puts {
		if err := rt.putRating(context.Background(), p.old, p.new); err != nil {
			return err
		}
	}
	return nil
}

// ratedMark is in the record of every rated archived game.
var ratedMark = []byte(`"rated":true`)

// historyChunk is how many rating changes one of annulOnce's history
// transactions writes: a move waits for one of them at most, about as
// long as for the annulment's last transaction (some 0.1 s each for a
// pool of 100,000 games, BenchmarkAnnulGame).
const historyChunk = 10_000
