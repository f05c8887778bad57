package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// The buckets of a server's administration (schema 8).
var (
	bucketSettings     = []byte("settings")       // guild ID -> Settings (JSON)
	bucketBans         = []byte("bans")           // guild ID 0 user ID -> Ban (JSON)
	bucketAudit        = []byte("audit")          // guild ID 0 seq 8 -> AuditEntry (JSON); sequence: the last Seq
	bucketGamesByGuild = []byte("games_by_guild") // guild ID 0 created 8 | channel ID -> nil
)

// guildGameKey is a game's games_by_guild key: its server, when it was
// created, its channel.
func guildGameKey(guild string, created time.Time, channel string) []byte {
	return join(guild, timeKey(created), []byte(channel))
}

// indexGuild adds an active game of a server to games_by_guild (nothing
// for a game in a DM).
func indexGuild(tx *bolt.Tx, guild string, created time.Time, channel string) error {
	if guild == "" {
		return nil
	}
	return tx.Bucket(bucketGamesByGuild).Put(guildGameKey(guild, created, channel), nil)
}

// unindexGuild removes an active game from games_by_guild.
func unindexGuild(tx *bolt.Tx, h gameHeader) error {
	if h.GuildID == "" {
		return nil
	}
	return tx.Bucket(bucketGamesByGuild).Delete(guildGameKey(h.GuildID, h.CreatedAt, h.ChannelID))
}

// migrate7to8 adds the buckets of a server's administration and indexes
// the active games by server.
func migrate7to8(tx *bolt.Tx, _ *game.Kinds) error {
	for _, name := range [][]byte{bucketSettings, bucketBans, bucketAudit, bucketGamesByGuild} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		h, err := decodeHeader(v)
		if err != nil || h.ChannelID != string(k) {
			return nil // a damaged record: quarantined when read, never indexed
		}
		return indexGuild(tx, h.GuildID, h.CreatedAt, h.ChannelID)
	})
}

// checkGuildIndex verifies that games_by_guild and the active games of a
// server correspond one to one.
func checkGuildIndex(tx *bolt.Tx) []error {
	var errs []error
	games, byGuild := tx.Bucket(bucketGames), tx.Bucket(bucketGamesByGuild)
	byGuild.ForEach(func(k, _ []byte) error {
		guild, rest, ok := bytes.Cut(k, []byte{0})
		if !ok || len(rest) <= 8 {
			errs = append(errs, fmt.Errorf("games_by_guild: malformed key %q", k))
			return nil
		}
		h, err := decodeHeader(games.Get(rest[8:]))
		if err != nil || h.GuildID != string(guild) || !bytes.Equal(timeKey(h.CreatedAt), rest[:8]) {
			errs = append(errs, fmt.Errorf("games_by_guild: %q -> channel %q has no such game", guild, rest[8:]))
		}
		return nil
	})
	games.ForEach(func(k, v []byte) error {
		if h, err := decodeHeader(v); err == nil && h.GuildID != "" && byGuild.Get(guildGameKey(h.GuildID, h.CreatedAt, string(k))) == nil {
			errs = append(errs, fmt.Errorf("games: channel %q is not in games_by_guild", k))
		}
		return nil
	})
	return errs
}

// GuildActiveGames returns a page of a server's active games, newest
// first: offset skipped, at most limit loaded (and replayed), with the
// total. It walks the games_by_guild index backwards, so its cost is the
// page's games and one key per game of the server.
func (s *Store) GuildActiveGames(ctx context.Context, guildID string, offset, limit int) (*GameList, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, err
	}
	list := &GameList{}
	var chans []string
	err := s.view(ctx, func(tx *bolt.Tx) error {
		prefix := join(guildID)
		c := tx.Bucket(bucketGamesByGuild).Cursor()
		k, _ := c.Seek(append([]byte(guildID), 1))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
			if list.Total >= offset && len(chans) < limit && len(k) > len(prefix)+8 {
				chans = append(chans, string(k[len(prefix)+8:]))
			}
			list.Total++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, ch := range chans {
		g, err := s.Game(ctx, ch)
		if err != nil {
			continue // ended meanwhile, or damaged (quarantined when its channel is used)
		}
		list.Games = append(list.Games, g)
	}
	return list, nil
}

// GuildChallenges returns the open challenges (and rengo lobbies) posted
// on a server, newest first.
func (s *Store) GuildChallenges(ctx context.Context, guildID string) ([]*Challenge, error) {
	var out []*Challenge
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketChallenges).ForEach(func(_, v []byte) error {
			if c, err := decodeChallenge(v); err == nil && c.GuildID == guildID {
				out = append(out, c)
			}
			return nil
		})
	})
	sortChallenges(out)
	return out, err
}

// Settings returns a server's settings: the defaults (Version 0) when its
// admins never changed one.
func (s *Store) Settings(ctx context.Context, guildID string) (*Settings, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, err
	}
	var st *Settings
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		st, err = decodeSettings(guildID, tx.Bucket(bucketSettings).Get([]byte(guildID)))
		return err
	})
	return st, err
}

// PutSettings stores a server's settings and the audit entry that says
// who changed what, in one transaction, provided the stored settings are
// still at st.Version (ErrConflict otherwise). On success st.Version has
// grown by one.
func (s *Store) PutSettings(ctx context.Context, st *Settings, e AuditEntry) error {
	if err := st.validate(); err != nil {
		return err
	}
	now := s.now()
	c := *st
	c.Version, c.UpdatedAt = st.Version+1, now
	v, err := json.Marshal(&c)
	if err != nil {
		return err
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		old, err := decodeSettings(c.GuildID, tx.Bucket(bucketSettings).Get([]byte(c.GuildID)))
		if err != nil {
			return err
		}
		if old.Version != st.Version {
			return fmt.Errorf("storage: settings of %s: read version %d, stored version %d: %w", c.GuildID, st.Version, old.Version, ErrConflict)
		}
		if err := tx.Bucket(bucketSettings).Put([]byte(c.GuildID), v); err != nil {
			return err
		}
		return appendAudit(tx, e, now)
	})
	if err != nil {
		return err
	}
	st.Version, st.UpdatedAt = c.Version, now
	return nil
}

// Ban returns the ban of a user on a server, lifted or lapsed ones
// included (Ban.Active tells); ErrNotFound when there has been none.
func (s *Store) Ban(ctx context.Context, guildID, userID string) (*Ban, error) {
	var b *Ban
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBans).Get(join(guildID, []byte(userID)))
		if v == nil {
			return fmt.Errorf("storage: no ban of %s on %s: %w", userID, guildID, ErrNotFound)
		}
		b = new(Ban)
		if err := json.Unmarshal(v, b); err != nil {
			return fmt.Errorf("storage: ban of %s on %s: %w: %w", userID, guildID, ErrCorrupt, err)
		}
		return nil
	})
	return b, err
}

// GuildBans returns every ban of a server, lifted and lapsed ones included
// (Ban.Active tells), newest first (banOrder).
func (s *Store) GuildBans(ctx context.Context, guildID string) ([]*Ban, error) {
	var out []*Ban
	err := s.view(ctx, func(tx *bolt.Tx) error {
		prefix := join(guildID)
		c := tx.Bucket(bucketBans).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			b := new(Ban)
			if err := json.Unmarshal(v, b); err != nil {
				return fmt.Errorf("storage: ban %q on %s: %w: %w", k[len(prefix):], guildID, ErrCorrupt, err)
			}
			out = append(out, b)
		}
		return nil
	})
	slices.SortFunc(out, banOrder)
	return out, err
}

// PutBan bans a user on a server, with its audit entry, in one
// transaction. replaces is the user's ban in force there that the caller
// read and this one replaces, nil for none: when the ban in force is
// another by the time of the write (another admin banned or unbanned them
// meanwhile), nothing is written and PutBan fails with ErrConflict, so
// that neither the caller's answer nor its log entry names a ban that is
// not the one replaced (see checkReplaces).
func (s *Store) PutBan(ctx context.Context, b Ban, replaces *Ban, e AuditEntry) error {
	if err := b.validate(); err != nil {
		return err
	}
	now := s.now()
	if b.At.IsZero() {
		b.At = now
	}
	v, err := json.Marshal(&b)
	if err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		key := join(b.GuildID, []byte(b.User.UserID))
		if err := checkReplaces(tx.Bucket(bucketBans).Get(key), &b, replaces, now); err != nil {
			return err
		}
		// The log first: it logs the lapse of an earlier ban of the user
		// before this one replaces it.
		if err := appendAudit(tx, e, now); err != nil {
			return err
		}
		return tx.Bucket(bucketBans).Put(key, v)
	})
}

// LiftBan lifts a user's ban on a server that is active at the store's
// time, recording when and by whom (the ban stays), with its audit entry.
// It fails with ErrNotFound when no ban is active.
func (s *Store) LiftBan(ctx context.Context, guildID, userID string, by Player, e AuditEntry) (*Ban, error) {
	now := s.now()
	var lifted *Ban
	err := s.update(ctx, func(tx *bolt.Tx) error {
		key := join(guildID, []byte(userID))
		b, err := liftBan(tx.Bucket(bucketBans).Get(key), guildID, userID, by, now)
		if err != nil {
			return err
		}
		v, err := json.Marshal(b)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketBans).Put(key, v); err != nil {
			return err
		}
		lifted = b
		return appendAudit(tx, e, now)
	})
	return lifted, err
}

// liftBan decodes a stored ban and lifts it at now, or fails with
// ErrNotFound when it does not hold.
func liftBan(v []byte, guildID, userID string, by Player, now time.Time) (*Ban, error) {
	b := new(Ban)
	if v == nil || json.Unmarshal(v, b) != nil || !b.Active(now) {
		return nil, fmt.Errorf("storage: no active ban of %s on %s: %w", userID, guildID, ErrNotFound)
	}
	b.Lifted, b.LiftedBy = now, by
	return b, nil
}

// AppendAudit adds an entry to a server's audit log.
func (s *Store) AppendAudit(ctx context.Context, e AuditEntry) error {
	now := s.now()
	return s.update(ctx, func(tx *bolt.Tx) error { return appendAudit(tx, e, now) })
}

// appendAudit adds e to the log in tx, numbered by the bucket's sequence,
// after the lapses of the server's bans not yet logged (see AuditLapse).
func appendAudit(tx *bolt.Tx, e AuditEntry, now time.Time) error {
	if err := e.validate(); err != nil {
		return err
	}
	if err := logLapses(tx, e.GuildID, now); err != nil {
		return err
	}
	return putAudit(tx, e, now)
}

// putAudit adds e to the log in tx.
func putAudit(tx *bolt.Tx, e AuditEntry, now time.Time) error {
	b := tx.Bucket(bucketAudit)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	e, v, err := auditRecord(e, seq, now)
	if err != nil {
		return err
	}
	return b.Put(join(e.GuildID, u64(seq)), v)
}

// lapses returns the bans of a server that lapsed by now and are not in
// its log yet, in the order they lapsed.
func lapses(tx *bolt.Tx, guild string, now time.Time) []*Ban {
	var out []*Ban
	prefix := join(guild)
	c := tx.Bucket(bucketBans).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		b := new(Ban)
		if json.Unmarshal(v, b) == nil && b.lapsedUnlogged(now) && bytes.Equal(k, join(guild, []byte(b.User.UserID))) {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, lapseOrder)
	return out
}

// logLapses logs, in tx, the lapses of a server's bans not logged yet
// (see AuditLapse), each marked on its ban in the same transaction: bbolt
// has one writer, so each is logged once.
func logLapses(tx *bolt.Tx, guild string, now time.Time) error {
	for _, b := range lapses(tx, guild, now) {
		e := b.lapseEntry()
		v, err := json.Marshal(b)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketBans).Put(join(guild, []byte(b.User.UserID)), v); err != nil {
			return err
		}
		if err := putAudit(tx, e, now); err != nil {
			return err
		}
	}
	return nil
}

// AuditLog returns a page of a server's audit log, newest first: offset
// entries skipped, at most limit returned, with the number of entries.
// The lapses of bans not logged yet are logged first (see AuditLapse).
func (s *Store) AuditLog(ctx context.Context, guildID string, offset, limit int) ([]AuditEntry, int, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, 0, err
	}
	now, pending := s.now(), false
	err := s.view(ctx, func(tx *bolt.Tx) error {
		pending = len(lapses(tx, guildID, now)) > 0
		return nil
	})
	if err == nil && pending {
		err = s.update(ctx, func(tx *bolt.Tx) error { return logLapses(tx, guildID, now) })
	}
	if err != nil {
		return nil, 0, err
	}
	var out []AuditEntry
	total := 0
	err = s.view(ctx, func(tx *bolt.Tx) error {
		prefix := join(guildID)
		c := tx.Bucket(bucketAudit).Cursor()
		k, v := c.Seek(append([]byte(guildID), 1))
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			if total >= offset && len(out) < limit {
				var e AuditEntry
				if err := json.Unmarshal(v, &e); err != nil {
					return fmt.Errorf("storage: audit log of %s: %w: %w", guildID, ErrCorrupt, err)
				}
				out = append(out, e)
			}
			total++
		}
		return nil
	})
	return out, total, err
}

// purgeGuildIndex removes every games_by_guild entry of a channel, for a
// damaged record whose server or creation time cannot be trusted (a scan
// of the index; rare).
func purgeGuildIndex(tx *bolt.Tx, channel string) error {
	b := tx.Bucket(bucketGamesByGuild)
	var doomed [][]byte
	b.ForEach(func(k, _ []byte) error {
		if _, rest, ok := bytes.Cut(k, []byte{0}); ok && len(rest) > 8 && string(rest[8:]) == channel {
			doomed = append(doomed, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// GuildGame returns the active game id of a server, walking the server's
// games_by_guild entries and reading each record's header only; ErrNotFound
// when the server has no such game in play.
func (s *Store) GuildGame(ctx context.Context, guildID, id string) (*Game, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, err
	}
	channel := ""
	quoted, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	err = s.view(ctx, func(tx *bolt.Tx) error {
		games, prefix := tx.Bucket(bucketGames), join(guildID)
		c := tx.Bucket(bucketGamesByGuild).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if len(k) <= len(prefix)+8 {
				continue
			}
			ch := k[len(prefix)+8:]
			v := games.Get(ch)
			if !bytes.Contains(v, quoted) {
				continue // the ID is nowhere in the record: no need to decode it
			}
			if h, err := decodeHeader(v); err == nil && h.ID == id {
				channel = string(ch)
				return nil
			}
		}
		return fmt.Errorf("storage: no game %s in play on %s: %w", id, guildID, ErrNotFound)
	})
	if err != nil {
		return nil, err
	}
	g, err := s.Game(ctx, channel)
	if err == nil && g.ID != id {
		// The game ended and another began in its channel since the scan.
		return nil, fmt.Errorf("storage: no game %s in play on %s: %w", id, guildID, ErrNotFound)
	}
	return g, err
}
