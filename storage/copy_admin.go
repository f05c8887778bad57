package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// copySettings copies the servers' settings as they are.
func copySettings(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	return copyKeyed(ctx, btx, tx, "server settings", bucketSettings, "guild_settings", "guild_id", func(c *CopyCount, k, v []byte) (string, error) {
		st, err := decodeSettings(string(k), v)
		if err != nil || st.Version == 0 {
			return "", nil
		}
		return string(k), c.insert(ctx, tx, `INSERT INTO guild_settings (guild_id, version, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			string(k), int64(st.Version), string(v))
	})
}

// copyBans copies the bans, lifted and lapsed ones included.
func copyBans(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	c := CopyCount{Kind: "bans"}
	var guilds, users []string
	err := btx.Bucket(bucketBans).ForEach(func(k, v []byte) error {
		c.Source++
		guild, user, ok := bytes.Cut(k, []byte{0})
		var b Ban
		if !ok || json.Unmarshal(v, &b) != nil {
			c.Skipped++
			return nil
		}
		guilds, users = append(guilds, string(guild)), append(users, string(user))
		return c.insert(ctx, tx, `INSERT INTO bans (guild_id, user_id, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, string(guild), string(user), string(v))
	})
	if err != nil {
		return c, err
	}
	err = tx.QueryRow(ctx, `SELECT count(*) FROM bans WHERE (guild_id, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, guilds, users).Scan(&c.Present)
	return c, err
}

// copyAudit copies the audit log with its numbers, and moves the log's
// sequence past them.
func copyAudit(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	b := btx.Bucket(bucketAudit)
	c, err := copyKeyed(ctx, btx, tx, "audit log entries", bucketAudit, "audit_log", "seq::text", func(c *CopyCount, k, v []byte) (string, error) {
		var e AuditEntry
		if json.Unmarshal(v, &e) != nil || e.Seq == 0 {
			return "", nil
		}
		return u64text(e.Seq), c.insert(ctx, tx, `INSERT INTO audit_log (seq, guild_id, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			int64(e.Seq), e.GuildID, string(v))
	})
	if err != nil {
		return c, err
	}
	if seq := b.Sequence(); seq > 0 {
		_, err = tx.Exec(ctx, `SELECT setval('audit_seq', greatest($1, (SELECT last_value FROM audit_seq)))`, int64(seq))
	}
	return c, err
}

func u64text(v uint64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
