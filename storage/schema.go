package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the layout this build reads and writes. The history of
// layouts, each migrated forward at start-up by migrations[v-1]:
//
//	1  meta, games (channel -> record), challenges (id -> record),
//	   archive (game ID -> record with the SGF inline). History and
//	   expiry lookups had to scan.
//	2  adds the indexes: games_by_player, challenges_by_expiry,
//	   archive_by_player, archive_by_guild; moves the SGF out of the
//	   archive record into archive_sgf so that listings stay small; adds
//	   players (statistics per player) and quarantine (corrupt records
//	   moved aside by QuarantineGame).
//	3  adds the queue of owed bot moves: bot_queue and
//	   bot_queue_by_channel, filled from the active games whose bot is to
//	   move.
//	4  adds archive_by_channel, so that a channel's last finished game
//	   can be found (/go sgf after the end).
//	5  adds games_by_due (every active game by the time the scheduler must
//	   next look at it: reminder, flag, end of the scoring phase) and
//	   vacations (players' vacation allowance); game records carry their
//	   clock and due time.
//	6  adds ratings (Glicko-2 per pool), ratings_by_value (the
//	   leaderboards) and rating_history; recounts the players' statistics
//	   from the archive to add results by board size and the streak.
//	7  seats: a game record names its kind ("go") and its sides, each a
//	   list of players (rengo), instead of a black and a white player;
//	   every active game's record is rewritten so.
//	8  a server's administration: settings, bans, audit (the admins' log)
//	   and games_by_guild (the active games of each server, newest last),
//	   filled from the active games.
//
// Buckets that only add data keep the version: archive_review (the
// reviews of archived games) and leases (background work's claims, see
// TakeLease) are created at start-up when missing, and an older gobot
// that opens the file ignores them.
const SchemaVersion = 8

// Bucket names of the current schema. Keys are bytes: IDs as given, times
// as 8-byte big-endian Unix nanoseconds so that keys sort by time, and a
// zero byte between the parts of a composite key (IDs may not contain one).
var (
	bucketMeta            = []byte("meta")
	bucketGames           = []byte("games")                // channel ID -> gameRecord
	bucketGamesByPlayer   = []byte("games_by_player")      // player key 0 channel ID -> nil
	bucketChallenges      = []byte("challenges")           // challenge ID -> challengeRecord
	bucketChallengesExp   = []byte("challenges_by_expiry") // expiry 8 | challenge ID -> nil
	bucketArchive         = []byte("archive")              // game ID -> archiveRecord (no SGF)
	bucketArchiveSGF      = []byte("archive_sgf")          // game ID -> SGF bytes
	bucketArchivePlayer   = []byte("archive_by_player")    // player key 0 finished 8 | game ID -> nil
	bucketArchiveGuild    = []byte("archive_by_guild")     // guild ID 0 finished 8 | game ID -> nil
	bucketPlayers         = []byte("players")              // player key -> statsRecord
	bucketQuarantine      = []byte("quarantine")           // channel ID 0 time 8 -> corrupt record moved aside
	bucketBotQueue        = []byte("bot_queue")            // sequence 8 -> botMoveRecord, in the order the moves became owed
	bucketBotQueueChannel = []byte("bot_queue_by_channel") // channel ID -> its bot_queue key
	bucketArchiveChan     = []byte("archive_by_channel")   // channel ID 0 finished 8 | game ID -> nil
	bucketArchiveReview   = []byte("archive_review")       // game ID -> review (JSON, opaque to storage)
	bucketGamesByDue      = []byte("games_by_due")         // due 8 | channel ID -> nil
	bucketVacations       = []byte("vacations")            // player key -> Vacation (JSON)
	bucketRatings         = []byte("ratings")              // pool 0 player key -> PlayerRating; sequence: the last RatingSeq or rating annulment
	bucketRatingsByValue  = []byte("ratings_by_value")     // pool 0 rating key 8 | player key -> RD, volatility, last game
	bucketRatingHistory   = []byte("rating_history")       // player key 0 pool 0 RatingSeq 8 -> RatingChange
	bucketLeases          = []byte("leases")               // lease key -> leaseRecord (JSON): background work's claims

	keySchema = []byte("schema")

	allBuckets = [][]byte{
		bucketMeta, bucketGames, bucketGamesByPlayer, bucketChallenges, bucketChallengesExp,
		bucketArchive, bucketArchiveSGF, bucketArchivePlayer, bucketArchiveGuild, bucketPlayers, bucketQuarantine,
		bucketBotQueue, bucketBotQueueChannel, bucketArchiveChan, bucketArchiveReview,
		bucketGamesByDue, bucketVacations, bucketRatings, bucketRatingsByValue, bucketRatingHistory,
		bucketSettings, bucketBans, bucketAudit, bucketGamesByGuild, bucketLeases,
	}
)

// migrations[i] moves a database from schema i+1 to i+2 inside the start-up
// transaction. Each step sees the buckets of its own source version.
var migrations = []func(tx *bolt.Tx, kinds *game.Kinds) error{
	migrate1to2,
	migrate2to3,
	migrate3to4,
	migrate4to5,
	migrate5to6,
	migrate6to7,
	migrate7to8,
}

// migrate brings the file to SchemaVersion in one transaction: a new file
// gets the current buckets, an older one is migrated step by step, a newer
// one is refused. A crash during migration leaves the file as it was.
func (s *Store) migrate() error {
	// The usual case, a file at the current schema with all its buckets,
	// needs no write at all.
	current := false
	s.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil || !bytes.Equal(meta.Get(keySchema), u64(SchemaVersion)) {
			return nil
		}
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				return nil
			}
		}
		current = true
		return nil
	})
	if current {
		return nil
	}
	var from uint64
	err := s.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			if tx.Bucket(bucketGames) != nil {
				return damagedSchema("a games bucket without a schema version")
			}
			from = SchemaVersion
			return createBuckets(tx, SchemaVersion)
		}
		raw := meta.Get(keySchema)
		if len(raw) != 8 {
			return damagedSchema("schema version %x", raw)
		}
		from = binary.BigEndian.Uint64(raw)
		switch {
		case from == 0 || from > SchemaVersion+maxSchemaAhead:
			return damagedSchema("schema version %d", from)
		case from > SchemaVersion:
			return fmt.Errorf("file has schema %d, this gobot knows up to %d; run a newer gobot or restore a backup: %w",
				from, SchemaVersion, ErrSchemaTooNew)
		}
		for v := from; v < SchemaVersion; v++ {
			if err := migrations[v-1](tx, s.kinds); err != nil {
				return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
			}
			if err := tx.Bucket(bucketMeta).Put(keySchema, u64(v+1)); err != nil {
				return err
			}
		}
		return createBuckets(tx, SchemaVersion) // idempotent: a bucket a step forgot
	})
	if err != nil {
		return err
	}
	if from < SchemaVersion {
		s.log.Info("storage: migrated database", "path", s.path, "from", from, "to", SchemaVersion)
	}
	return nil
}

// maxSchemaAhead bounds a newer gobot's schema: versions count up by one
// for each change of format, so a version further ahead than this was
// written by no gobot but by a failing disk (a flipped byte in the
// version's high bytes), and is refused as damage, not as a newer file.
const maxSchemaAhead = 100

// damagedSchema is the error for a schema version no gobot wrote: the
// file is damaged (ErrDamaged, naming `gobot backup`) and its meta record
// corrupt (ErrCorrupt).
func damagedSchema(format string, a ...any) error {
	return fmt.Errorf("%s, which no gobot writes; %s: %w (%w)", fmt.Sprintf(format, a...), restoreHint, ErrDamaged, ErrCorrupt)
}

// createBuckets creates the buckets of the current schema that are missing
// and records the schema version.
func createBuckets(tx *bolt.Tx, version uint64) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, u64(version))
}

// u64 encodes v big-endian.
func u64(v uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return b[:]
}

// timeKey encodes t as 8 big-endian bytes of Unix nanoseconds, clamped to
// the representable range, so that keys sort by time.
func timeKey(t time.Time) []byte {
	if t.IsZero() || t.Before(time.Unix(0, 0)) {
		return u64(0)
	}
	n := t.UnixNano() // saturates past year 2262
	if n < 0 {
		n = math.MaxInt64
	}
	return u64(uint64(n))
}

// join builds a composite key: prefix, a zero byte, then the parts.
func join(prefix string, parts ...[]byte) []byte {
	k := make([]byte, 0, len(prefix)+1+16+26)
	k = append(k, prefix...)
	k = append(k, 0)
	for _, p := range parts {
		k = append(k, p...)
	}
	return k
}

// checkID refuses IDs that would break composite keys or are absurdly long.
func checkID(what, id string) error {
	switch {
	case id == "":
		return fmt.Errorf("storage: %s is empty: %w", what, ErrInvalid)
	case len(id) > 200:
		return fmt.Errorf("storage: %s is %d bytes long: %w", what, len(id), ErrInvalid)
	case strings.IndexByte(id, 0) >= 0:
		return fmt.Errorf("storage: %s %q contains a zero byte: %w", what, id, ErrInvalid)
	}
	return nil
}

// checkIndexes verifies the store's own invariants in tx and returns what
// it finds wrong.
func checkIndexes(tx *bolt.Tx, kinds *game.Kinds) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	// Active games: each index entry points at a game of that player, and
	// each decodable game is indexed under both players.
	games, byPlayer := tx.Bucket(bucketGames), tx.Bucket(bucketGamesByPlayer)
	byPlayer.ForEach(func(k, _ []byte) error {
		player, channel, ok := bytes.Cut(k, []byte{0})
		if !ok {
			bad("games_by_player: key %q has no separator", k)
			return nil
		}
		h, err := decodeHeader(games.Get(channel))
		if err != nil || !slices.ContainsFunc(h.players(), func(p Player) bool { return p.Key() == string(player) }) {
			bad("games_by_player: %q -> channel %q has no game of that player", player, channel)
		}
		return nil
	})
	botQueue := tx.Bucket(bucketBotQueueChannel)
	games.ForEach(func(k, v []byte) error {
		if g, err := decodeGame(kinds, string(k), v); err != nil {
			errs = append(errs, err)
		} else if g.BotToMove() && botQueue.Get(k) == nil {
			bad("games: channel %q waits for its bot's move but is not in the bot queue", k)
		}
		h, err := decodeHeader(v)
		if err != nil {
			return nil
		}
		if h.ChannelID != string(k) {
			bad("games: record under %q says channel %q", k, h.ChannelID)
		}
		for _, p := range h.players() {
			if byPlayer.Get(join(p.Key(), k)) == nil {
				bad("games: channel %q is not indexed under player %q", k, p.Key())
			}
		}
		return nil
	})

	errs = append(errs, checkBotQueue(tx, kinds)...)
	errs = append(errs, checkGuildIndex(tx)...)

	// Deadlines: each entry names a game due then, and each game with a
	// due time has its entry.
	byDue := tx.Bucket(bucketGamesByDue)
	byDue.ForEach(func(k, _ []byte) error {
		if len(k) <= 8 {
			bad("games_by_due: short key %x", k)
			return nil
		}
		h, err := decodeHeader(games.Get(k[8:]))
		if err != nil || !bytes.Equal(timeKey(h.Due), k[:8]) || h.Due.IsZero() {
			bad("games_by_due: channel %q has no game due then", k[8:])
		}
		return nil
	})
	games.ForEach(func(k, v []byte) error {
		if h, err := decodeHeader(v); err == nil && !h.Due.IsZero() && byDue.Get(dueKey(h.Due, string(k))) == nil {
			bad("games: channel %q due %s is not in games_by_due", k, h.Due.Format(time.RFC3339))
		}
		return nil
	})

	// Challenges and their expiry index correspond one to one.
	chs, exp := tx.Bucket(bucketChallenges), tx.Bucket(bucketChallengesExp)
	exp.ForEach(func(k, _ []byte) error {
		if len(k) <= 8 {
			bad("challenges_by_expiry: short key %x", k)
			return nil
		}
		c, err := decodeChallenge(chs.Get(k[8:]))
		if err != nil || !bytes.Equal(timeKey(c.ExpiresAt), k[:8]) {
			bad("challenges_by_expiry: %q has no challenge with that expiry", k[8:])
		}
		return nil
	})
	chs.ForEach(func(k, v []byte) error {
		c, err := decodeChallenge(v)
		if err != nil {
			bad("challenges: %q: %w: %w", k, ErrCorrupt, err)
		} else if exp.Get(append(timeKey(c.ExpiresAt), k...)) == nil {
			bad("challenges: %q is not in the expiry index", k)
		}
		return nil
	})

	// Archive: every index entry points at an archived game of that player
	// or guild; every archived game has its SGF and index entries.
	arch, sgf := tx.Bucket(bucketArchive), tx.Bucket(bucketArchiveSGF)
	checkArchiveIndex := func(name []byte, owns func(a *Archived, owner string) bool) {
		tx.Bucket(name).ForEach(func(k, _ []byte) error {
			owner, rest, ok := bytes.Cut(k, []byte{0})
			if !ok || len(rest) <= 8 {
				bad("%s: malformed key %q", name, k)
				return nil
			}
			a, err := decodeArchive(arch.Get(rest[8:]))
			if err != nil || !owns(a, string(owner)) || !bytes.Equal(timeKey(a.FinishedAt), rest[:8]) {
				bad("%s: %q -> %q has no such archived game", name, owner, rest[8:])
			}
			return nil
		})
	}
	checkArchiveIndex(bucketArchivePlayer, func(a *Archived, owner string) bool {
		_, played := a.SideOf(owner)
		return played
	})
	checkArchiveIndex(bucketArchiveGuild, func(a *Archived, owner string) bool { return a.GuildID == owner })
	checkArchiveIndex(bucketArchiveChan, func(a *Archived, owner string) bool { return a.ChannelID == owner })
	arch.ForEach(func(k, v []byte) error {
		a, err := decodeArchive(v)
		if err != nil {
			bad("archive: %q: %w: %w", k, ErrCorrupt, err)
			return nil
		}
		if sgf.Get(k) == nil {
			bad("archive: %q has no SGF", k)
		}
		for _, key := range archiveIndexKeys(a) {
			if tx.Bucket(key.bucket).Get(key.key) == nil {
				bad("archive: %q is not indexed in %s", k, key.bucket)
			}
		}
		return nil
	})

	// Ratings and the leaderboard index correspond one to one.
	ratings, byValue := tx.Bucket(bucketRatings), tx.Bucket(bucketRatingsByValue)
	entries := 0
	ratings.ForEach(func(k, v []byte) error {
		var pr PlayerRating
		if err := json.Unmarshal(v, &pr); err != nil {
			bad("ratings: %q: %w: %w", k, ErrCorrupt, err)
			return nil
		}
		entries++
		if !bytes.Equal(byValue.Get(join(pr.Pool, ratingKey(pr.Rating.Rating), []byte(pr.Player.Key()))), leaderValue(pr)) {
			bad("ratings: %q is not in ratings_by_value as it stands", k)
		}
		return nil
	})
	if n := byValue.Stats().KeyN; n != entries {
		bad("ratings_by_value: %d entries for %d ratings", n, entries)
	}
	return errs
}

// errNoRecord is what the decoders return for a nil value.
var errNoRecord = errors.New("no record")
