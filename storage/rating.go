package storage

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage/glicko"
	bolt "go.etcd.io/bbolt"
)

// Rating pools. Every rated game counts in the global pool, DMs and bot
// games included; a game between two people on a server also counts in
// that server's pool.
const GlobalPool = "global"

// GuildPool is the rating pool of a server.
func GuildPool(guildID string) string { return "guild:" + guildID }

// KindPool is pool for games of kind: each kind has pools of its own. Go's
// are the plain names (as they were before gobot had a second game),
// another kind's are prefixed by its name: "draughts:global".
func KindPool(kind, pool string) string {
	if KindOf(kind) == goKind {
		return pool
	}
	return kind + ":" + pool
}

// PlayerRating is a player's rating in one pool.
type PlayerRating struct {
	Pool   string `json:"pool"`
	Player Player `json:"player"` // with the name of the latest rated game
	glicko.Rating
	Games int       `json:"games"` // rated games in this pool
	Last  time.Time `json:"last"`  // when the latest of them finished
}

// Current returns the rating as it stands at now: the deviation grown by
// the inactivity since the last game.
func (p PlayerRating) Current(now time.Time) glicko.Rating {
	return glicko.Aged(p.Rating, now.Sub(p.Last))
}

// RatingChange is one change of a player's rating, caused by one game.
type RatingChange struct {
	Pool     string        `json:"pool"`
	Player   string        `json:"player"` // Player.Key
	Game     string        `json:"game"`   // the archived game that caused it
	Seq      uint64        `json:"seq"`    // the game's RatingSeq
	At       time.Time     `json:"at"`     // when the game finished
	Opponent string        `json:"opponent"`
	Score    float64       `json:"score"`  // 1 won, 0.5 jigo, 0 lost
	Before   glicko.Rating `json:"before"` // aged to the game's time
	After    glicko.Rating `json:"after"`
}

// MinRatedMoves returns how many moves each player must have made (passes
// included) for a game on a board of the given size to be rated: half the
// board's side and one, so 5 on 9×9, 7 on 13×13 and 10 on 19×19. A game
// that ends sooner (by resignation, on time or aborted) is recorded but
// not rated: that early, a game has barely begun, and two friends who
// resign at once cannot hand each other ratings.
func MinRatedMoves(size int) int { return size/2 + 1 }

// MinRatedMovesOther is MinRatedMoves for a kind other than Go (draughts):
// a game is rated once each player has made 5 moves.
const MinRatedMovesOther = 5

// ShortGame reports whether a game of the given size that ended after
// moves moves (both players', passes included) ended before each player
// had made MinRatedMoves. Moves alternate, so the player who moved second
// has made moves/2.
func ShortGame(size, moves int) bool { return moves/2 < MinRatedMoves(size) }

// TooMuchHandicap reports whether a game's head start (handicap and komi,
// as glicko.HandicapRanks counts it) is more than a rated game may give:
// glicko.MaxAdvantage ranks either way.
func TooMuchHandicap(size, handicap int, rules engine.Rules) bool {
	return math.Abs(glicko.HandicapRanks(size, handicap, rules)) > glicko.MaxAdvantage
}

// ratedScore returns Black's score in an archived game, and whether the
// game can be rated at all: asked for (Rated), not annulled, two different
// players, not a ShortGame, no more handicap than TooMuchHandicap allows,
// and a winner or a tie. FinishGame and a ratings rebuild both ask it, so
// the two rate the same games.
func ratedScore(a *Archived, tie bool) (float64, bool) {
	if !a.Rated || a.Annulled || a.Black.Key() == a.White.Key() || len(ratingPools(a)) == 0 {
		return 0, false
	}
	if KindOf(a.Kind) != goKind {
		if a.Moves/2 < MinRatedMovesOther {
			return 0, false
		}
	} else if ShortGame(a.Size, a.Moves) || TooMuchHandicap(a.Size, a.Handicap, a.Rules) {
		return 0, false
	}
	switch {
	case tie:
		return 0.5, true
	case a.Winner == engine.Black:
		return 1, true
	case a.Winner == engine.White:
		return 0, true
	}
	return 0, false
}

// ratingPools are the pools an archived game counts in (less its NoPools):
// the global pool unless a server's admin decided the game (Adjudicated),
// and its server's for a game between two people.
func ratingPools(a *Archived) []string {
	var pools []string
	if !a.Adjudicated {
		pools = append(pools, KindPool(a.Kind, GlobalPool))
	}
	if a.GuildID != "" && !a.Black.IsBot() && !a.White.IsBot() {
		pools = append(pools, KindPool(a.Kind, GuildPool(a.GuildID)))
	}
	return slices.DeleteFunc(pools, func(p string) bool { return slices.Contains(a.NoPools, p) })
}

// ratingTx is where rateGame reads and writes ratings: a bbolt
// transaction (boltRatings) or a PostgreSQL one (pgRatings). Each method
// takes the ctx of the store method whose transaction it runs in.
type ratingTx interface {
	// loadRating returns p's rating in pool, or a new player's (Games 0).
	loadRating(ctx context.Context, pool string, p Player) (PlayerRating, error)
	// putRating replaces old (Games 0 for none) with pr.
	putRating(ctx context.Context, old, pr PlayerRating) error
	// putChange records a change in the rating history.
	putChange(ctx context.Context, c RatingChange) error
}

// StartRatings are the ratings that bot levels start from in every pool
// of their kind, by kind (as KindOf names it: "go", "draughts") and level
// name (Options.StartRatings). Each kind has its own: a level name may be
// several kinds' ("max" is Go's and draughts'), at different strengths.
type StartRatings map[string]map[string]glicko.Rating

// of returns the rating p starts from in a pool of kind where p has no
// game yet: the level's for a bot in s, a new player's (glicko.New)
// otherwise.
func (s StartRatings) of(kind string, p Player) glicko.Rating {
	if r, ok := s[KindOf(kind)][p.Level]; ok && p.IsBot() {
		return r
	}
	return glicko.New()
}

// rateGame applies a rated game to the ratings in tx, as the game's
// rating period: both players' ratings aged to the game's end (a player
// new to the pool starting from starts), updated against each other with
// the handicap's effective rank difference. It is the one place ratings
// change, in both stores, so that a rebuild, running it again in
// RatingSeq order with the same starts, reproduces every stored value
// exactly.
func rateGame(ctx context.Context, tx ratingTx, starts StartRatings, a *Archived, blackScore float64) error {
	return rateIn(ctx, tx, starts, a, blackScore, ratingPools(a))
}

// rateIn is rateGame in pools only, some of the game's pools (ratingPools):
// each pool is rated apart from the others, so rating a game in some of
// its pools gives these pools what rateGame gives them.
func rateIn(ctx context.Context, tx ratingTx, starts StartRatings, a *Archived, blackScore float64, pools []string) error {
	var adv float64
	if KindOf(a.Kind) == goKind {
		adv = glicko.HandicapRanks(a.Size, a.Handicap, a.Rules)
	}
	for _, pool := range pools {
		rb, err := tx.loadRating(ctx, pool, a.Black)
		if err != nil {
			return err
		}
		rw, err := tx.loadRating(ctx, pool, a.White)
		if err != nil {
			return err
		}
		before := [2]glicko.Rating{rb.Current(a.FinishedAt), rw.Current(a.FinishedAt)}
		if rb.Games == 0 {
			before[0] = starts.of(a.Kind, a.Black)
		}
		if rw.Games == 0 {
			before[1] = starts.of(a.Kind, a.White)
		}
		nb, nw := glicko.Game(before[0], before[1], adv, blackScore)
		for i, side := range []struct {
			pr       PlayerRating
			opponent Player
			after    glicko.Rating
			score    float64
		}{{rb, a.White, nb, blackScore}, {rw, a.Black, nw, 1 - blackScore}} {
			pr := side.pr
			// A game lost on time ends at its deadline, which may come
			// before a game of the player's that was rated meanwhile.
			pr.Rating, pr.Games = side.after, pr.Games+1
			if a.FinishedAt.After(pr.Last) {
				pr.Last = a.FinishedAt
			}
			if err := tx.putRating(ctx, side.pr, pr); err != nil {
				return err
			}
			err := tx.putChange(ctx, RatingChange{
				Pool: pool, Player: pr.Player.Key(), Game: a.ID, Seq: a.RatingSeq, At: a.FinishedAt,
				Opponent: side.opponent.Key(), Score: side.score, Before: before[i], After: side.after,
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// newRating is the rating of a player without a game in pool.
func newRating(pool string, p Player) PlayerRating {
	return PlayerRating{Pool: pool, Player: p, Rating: glicko.New()}
}

// decodeRating reads a stored rating, keeping p's current name.
func decodeRating(v []byte, pool string, p Player) (PlayerRating, error) {
	pr := newRating(pool, p)
	if err := json.Unmarshal(v, &pr); err != nil {
		return pr, fmt.Errorf("storage: rating of %s in %s: %w: %w", p.Key(), pool, ErrCorrupt, err)
	}
	if p.Name != "" {
		pr.Player = p // the name used most recently
	}
	return pr, nil
}

// boltRatings is ratingTx in a bbolt transaction, which takes no ctx.
type boltRatings struct{ tx *bolt.Tx }

func (b boltRatings) loadRating(_ context.Context, pool string, p Player) (PlayerRating, error) {
	v := b.tx.Bucket(bucketRatings).Get(join(pool, []byte(p.Key())))
	if v == nil {
		return newRating(pool, p), nil
	}
	return decodeRating(v, pool, p)
}

// putRating also moves the player's leaderboard entry.
func (b boltRatings) putRating(_ context.Context, old, pr PlayerRating) error {
	key := []byte(pr.Player.Key())
	byValue := b.tx.Bucket(bucketRatingsByValue)
	if old.Games > 0 {
		if err := byValue.Delete(join(pr.Pool, ratingKey(old.Rating.Rating), key)); err != nil {
			return err
		}
	}
	v, err := json.Marshal(pr)
	if err != nil {
		return err
	}
	if err := b.tx.Bucket(bucketRatings).Put(join(pr.Pool, key), v); err != nil {
		return err
	}
	return byValue.Put(join(pr.Pool, ratingKey(pr.Rating.Rating), key), leaderValue(pr))
}

func (b boltRatings) putChange(_ context.Context, c RatingChange) error {
	v, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return b.tx.Bucket(bucketRatingHistory).Put(join(c.Player, []byte(c.Pool), []byte{0}, u64(c.Seq)), v)
}

// ratingKey encodes a rating so that keys sort from the highest rating
// down: the float's bits made order-preserving, then inverted.
func ratingKey(r float64) []byte {
	bits := math.Float64bits(r)
	if bits>>63 == 1 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	return u64(^bits)
}

// leaderValue is what a leaderboard walk needs without decoding the
// record: deviation, volatility and the time of the last game.
func leaderValue(pr PlayerRating) []byte {
	v := make([]byte, 24)
	binary.BigEndian.PutUint64(v, math.Float64bits(pr.RD))
	binary.BigEndian.PutUint64(v[8:], math.Float64bits(pr.Volatility))
	copy(v[16:], timeKey(pr.Last))
	return v
}

// Rating returns a player's rating in a pool (ErrNotFound when they have
// no rated game there).
func (s *Store) Rating(ctx context.Context, pool, playerKey string) (*PlayerRating, error) {
	var pr *PlayerRating
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketRatings).Get(join(pool, []byte(playerKey)))
		if v == nil {
			return fmt.Errorf("storage: %s has no rating in %s: %w", playerKey, pool, ErrNotFound)
		}
		pr = new(PlayerRating)
		if err := json.Unmarshal(v, pr); err != nil {
			return fmt.Errorf("storage: rating of %s in %s: %w: %w", playerKey, pool, ErrCorrupt, err)
		}
		return nil
	})
	return pr, err
}

// RatingHistory returns a player's rating changes in every pool, oldest
// first within each pool (pools in key order).
func (s *Store) RatingHistory(ctx context.Context, playerKey string) ([]RatingChange, error) {
	var out []RatingChange
	err := s.view(ctx, func(tx *bolt.Tx) error {
		prefix := join(playerKey)
		c := tx.Bucket(bucketRatingHistory).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var ch RatingChange
			if err := json.Unmarshal(v, &ch); err != nil {
				return fmt.Errorf("storage: rating history of %s: %w: %w", playerKey, ErrCorrupt, err)
			}
			out = append(out, ch)
		}
		return nil
	})
	return out, err
}

// Leader is one place on a leaderboard.
type Leader struct {
	Place  int
	Rating PlayerRating // Rating.RD as it stands at the time asked
}

// Leaderboard is a page of a pool's leaderboard.
type Leaderboard struct {
	Leaders []Leader // the page asked for
	Total   int      // established players in the pool
	// Caller is the caller's place, when the caller is established in
	// the pool (Place 0 otherwise).
	Caller Leader
}

// leaderWalk counts a leaderboard's established players as a walk
// through a pool's ratings, highest first, hands them over: it keeps the
// keys of the page asked for and the caller's place.
type leaderWalk struct {
	now           time.Time
	offset, limit int
	caller        string
	omit          []string // player keys left off

	total       int
	page        []string
	callerPlace int
}

// add takes the next player of the walk with their stored deviation,
// volatility and the time of their last game. A leaderboard ranks people:
// a bot level ("bot:" key) keeps its rating, and is passed over, as is a
// player omitted.
func (w *leaderWalk) add(player []byte, rd, volatility float64, last time.Time) {
	if bytes.HasPrefix(player, []byte("bot:")) || rd >= glicko.ProvisionalRD || glicko.Aged(glicko.Rating{RD: rd, Volatility: volatility}, w.now.Sub(last)).Provisional() ||
		slices.Contains(w.omit, string(player)) {
		return
	}
	w.total++
	if w.total > w.offset && len(w.page) < w.limit {
		w.page = append(w.page, string(player))
	}
	if string(player) == w.caller {
		w.callerPlace = w.total
	}
}

// board makes the Leaderboard, loading the records of the page and the
// caller with load.
func (w *leaderWalk) board(load func(player string) (PlayerRating, error)) (*Leaderboard, error) {
	lb := &Leaderboard{Total: w.total}
	leader := func(player string, place int) (Leader, error) {
		pr, err := load(player)
		if err != nil {
			return Leader{}, err
		}
		pr.Rating = pr.Current(w.now)
		return Leader{Place: place, Rating: pr}, nil
	}
	for i, k := range w.page {
		l, err := leader(k, w.offset+i+1)
		if err != nil {
			return nil, err
		}
		lb.Leaders = append(lb.Leaders, l)
	}
	if w.callerPlace > 0 {
		l, err := leader(w.caller, w.callerPlace)
		if err != nil {
			return nil, err
		}
		lb.Caller = l
	}
	return lb, nil
}

// Leaderboard returns the established people of a pool (deviation below
// glicko.ProvisionalRD at now; no bot level) by rating, highest first: offset places
// skipped, at most limit returned, with the total and the place of the
// player callerKey. The players whose keys are in omit (a server's banned
// players) are left off: places and total count without them. It walks the
// pool's rating index, reading each entry's value only (deviation,
// volatility, last game), and loads the records of the page and the
// caller.
func (s *Store) Leaderboard(ctx context.Context, pool string, offset, limit int, now time.Time, callerKey string, omit []string) (*Leaderboard, error) {
	var lb *Leaderboard
	err := s.view(ctx, func(tx *bolt.Tx) error {
		w := &leaderWalk{now: now, offset: offset, limit: limit, caller: callerKey, omit: omit}
		prefix := join(pool)
		c := tx.Bucket(bucketRatingsByValue).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if len(v) != 24 || len(k) <= len(prefix)+8 {
				continue
			}
			w.add(k[len(prefix)+8:],
				math.Float64frombits(binary.BigEndian.Uint64(v)),
				math.Float64frombits(binary.BigEndian.Uint64(v[8:])),
				time.Unix(0, int64(binary.BigEndian.Uint64(v[16:]))).UTC())
		}
		var err error
		lb, err = w.board(func(player string) (PlayerRating, error) {
			return decodeRating(tx.Bucket(bucketRatings).Get(join(pool, []byte(player))), pool, Player{})
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return lb, nil
}

// RebuildReport says what RebuildRatings did.
type RebuildReport struct {
	Games   int // rated games replayed
	Ratings int // ratings (player and pool) after the rebuild
	Changed int // ratings whose rebuilt value differs from the stored one
	Missing int // stored ratings the rebuild no longer produces, or new ones
}

// ratedGame is an archived game to rate, with Black's score.
type ratedGame struct {
	a     *Archived
	score float64
}

// ratedInOrder picks the rated games of an archive, in the order they
// were rated (RatingSeq; then finish time and ID, for records without one).
func ratedInOrder(all []*Archived) []ratedGame {
	var games []ratedGame
	for _, a := range all {
		if !a.Rated {
			continue
		}
		_, tie, err := resultOutcome(a.Result)
		if err != nil {
			continue
		}
		if score, ok := ratedScore(a, tie); ok {
			games = append(games, ratedGame{a, score})
		}
	}
	slices.SortFunc(games, func(x, y ratedGame) int { return ratedOrder(x.a, y.a) })
	return games
}

// ratedOrder is the order games were rated in: RatingSeq, then finish
// time and ID for records without one.
func ratedOrder(x, y *Archived) int {
	return cmp.Or(cmp.Compare(x.RatingSeq, y.RatingSeq), x.FinishedAt.Compare(y.FinishedAt), cmp.Compare(x.ID, y.ID))
}

// rerate rates the rated games of all again through tx, in the order they
// were rated (see ratedInOrder), counts them in rep, and returns the
// highest rating sequence number among them.
func rerate(ctx context.Context, tx ratingTx, starts StartRatings, all []*Archived, rep *RebuildReport) (uint64, error) {
	games := ratedInOrder(all)
	var seq uint64
	for _, g := range games {
		if err := rateGame(ctx, tx, starts, g.a, g.score); err != nil {
			return 0, err
		}
		seq = max(seq, g.a.RatingSeq)
	}
	rep.Games = len(games)
	return seq, nil
}

// compareRatings fills the counts of rep from the stored records before
// (pool 0 player -> record) and after a rebuild.
func compareRatings(rep *RebuildReport, before, after map[string]string) {
	rep.Ratings = len(after)
	for k, v := range after {
		old, ok := before[k]
		switch {
		case !ok:
			rep.Missing++
		case old != v:
			rep.Changed++
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			rep.Missing++
		}
	}
}

// RebuildRatings recomputes every rating and the whole rating history
// from the archive: the rated games in the order they were rated, through
// the same code that rated them (ratedScore decides which games count, as
// it did for FinishGame; bot levels start from Options.StartRatings). It replaces what is stored in one
// transaction and reports how many ratings differed from the stored values
// (none, unless the stored ratings had been damaged or the rating code
// changed).
func (s *Store) RebuildRatings(ctx context.Context) (*RebuildReport, error) {
	rep := &RebuildReport{}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		*rep = RebuildReport{}
		dump := func() map[string]string {
			m := map[string]string{}
			tx.Bucket(bucketRatings).ForEach(func(k, v []byte) error {
				m[string(k)] = string(v)
				return nil
			})
			return m
		}
		before := dump()
		// The sequence never goes back (annulments advance it too): an
		// annulment's check compares it with the one its snapshot read.
		last := tx.Bucket(bucketRatings).Sequence()
		for _, name := range [][]byte{bucketRatings, bucketRatingsByValue, bucketRatingHistory} {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		var all []*Archived
		err := tx.Bucket(bucketArchive).ForEach(func(k, v []byte) error {
			if a, err := decodeArchive(v); err == nil {
				all = append(all, a)
			}
			return nil
		})
		if err != nil {
			return err
		}
		seq, err := rerate(ctx, boltRatings{tx}, s.starts, all, rep)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketRatings).SetSequence(max(seq, last)); err != nil {
			return err
		}
		compareRatings(rep, before, dump())
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// GameRatingChanges returns the rating changes an archived game caused:
// none for a game that was not rated, otherwise one per player and pool,
// the global pool first, Black before White.
func (s *Store) GameRatingChanges(ctx context.Context, gameID string) ([]RatingChange, error) {
	var out []RatingChange
	err := s.view(ctx, func(tx *bolt.Tx) error {
		a, err := decodeArchive(tx.Bucket(bucketArchive).Get([]byte(gameID)))
		if err != nil {
			return fmt.Errorf("storage: archived game %s: %w", gameID, ErrNotFound)
		}
		if !a.Rated {
			return nil
		}
		for _, pool := range ratingPools(a) {
			for _, p := range []Player{a.Black, a.White} {
				v := tx.Bucket(bucketRatingHistory).Get(join(p.Key(), []byte(pool), []byte{0}, u64(a.RatingSeq)))
				if v == nil {
					continue // rebuilt away (the game's rating was damaged)
				}
				var c RatingChange
				if err := json.Unmarshal(v, &c); err != nil {
					return fmt.Errorf("storage: rating change of game %s: %w: %w", gameID, ErrCorrupt, err)
				}
				out = append(out, c)
			}
		}
		return nil
	})
	return out, err
}
