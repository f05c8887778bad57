package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/clock"
)

// A server's administration: its settings, its bans and the audit log of
// what its admins did (commands' /go-admin). Each is kept per server
// (guild ID) in both stores: the bbolt store's methods are in
// admin_bolt.go, PostgreSQL's in postgres_admin.go. Nothing here deletes a record: a ban
// that is lifted stays with the time it was lifted, and the log only grows.

// Settings are one server's settings. The zero value (with the server's
// GuildID) is the defaults: games anywhere, the process's default clock,
// 19×19, Chinese rules with their komi, ratings and leaderboard on, every
// bot level, no limit on games, the process's challenge TTL.
type Settings struct {
	GuildID string `json:"guild"`
	// GameChannels are the channels where games may start (threads count
	// by their parent channel); none means everywhere.
	GameChannels []string `json:"game_channels,omitempty"`
	// Clock, Size, Ruleset and Komi are the defaults of a game whose
	// challenger gives none; zero values mean gobot's own defaults.
	Clock   *clock.Control `json:"clock,omitempty"`
	Size    int            `json:"size,omitempty"`
	Ruleset string         `json:"ruleset,omitempty"` // an engine preset name
	Komi    *float64       `json:"komi,omitempty"`
	// ServerRatingsOff keeps this server's games out of its own rating
	// pool; GlobalRatingsOff keeps them out of the global pool.
	ServerRatingsOff bool `json:"server_ratings_off,omitempty"`
	GlobalRatingsOff bool `json:"global_ratings_off,omitempty"`
	// LeaderboardHidden hides /go leaderboard on this server.
	LeaderboardHidden bool `json:"leaderboard_hidden,omitempty"`
	// BotLevels are the bot levels allowed here; none means all.
	BotLevels []string `json:"bot_levels,omitempty"`
	// MaxGames is how many games a player may play at once on this
	// server; 0 means no limit.
	MaxGames int `json:"max_games,omitempty"`
	// ChallengeTTL is how long a challenge stays open here; 0 means the
	// process's.
	ChallengeTTL time.Duration `json:"challenge_ttl,omitempty"`

	// Version counts the writes (0: never written); PutSettings checks it
	// as UpdateGame checks a game's.
	Version   uint64    `json:"version"`
	UpdatedAt time.Time `json:"updated,omitzero"`
}

// GameChannel reports whether a game may start in channel (or in a thread
// whose parent is parent).
func (s *Settings) GameChannel(channel, parent string) bool {
	return len(s.GameChannels) == 0 || slices.Contains(s.GameChannels, channel) ||
		(parent != "" && slices.Contains(s.GameChannels, parent))
}

// BotLevel reports whether a bot level is allowed.
func (s *Settings) BotLevel(level string) bool {
	return len(s.BotLevels) == 0 || slices.Contains(s.BotLevels, level)
}

func (s *Settings) validate() error {
	if err := checkID("guild ID", s.GuildID); err != nil {
		return err
	}
	for _, c := range s.GameChannels {
		if err := checkID("channel ID", c); err != nil {
			return err
		}
	}
	if s.MaxGames < 0 || s.ChallengeTTL < 0 || s.Size < 0 {
		return fmt.Errorf("storage: settings of %s: negative limit: %w", s.GuildID, ErrInvalid)
	}
	return nil
}

func decodeSettings(guild string, v []byte) (*Settings, error) {
	s := &Settings{GuildID: guild}
	if v == nil {
		return s, nil
	}
	if err := json.Unmarshal(v, s); err != nil {
		return nil, fmt.Errorf("storage: settings of %s: %w: %w", guild, ErrCorrupt, err)
	}
	return s, nil
}

// Ban keeps a user from playing on a server: they cannot challenge, be
// challenged, start bot games or vote there while it is Active.
type Ban struct {
	GuildID string `json:"guild"`
	User    Player `json:"user"`
	// Until is when the ban lapses by itself; zero for a ban until lifted.
	Until  time.Time `json:"until,omitzero"`
	Reason string    `json:"reason"`
	By     Player    `json:"by"`
	At     time.Time `json:"at"`
	// Lifted is when an admin lifted it (zero while it holds), and by whom.
	Lifted   time.Time `json:"lifted,omitzero"`
	LiftedBy Player    `json:"lifted_by,omitzero"`
	// LapseLogged says that the server's log has the entry of the ban's
	// lapse (see AuditLapse).
	LapseLogged bool `json:"lapse_logged,omitempty"`
}

// Active reports whether the ban holds at now.
func (b *Ban) Active(now time.Time) bool {
	return b != nil && b.Lifted.IsZero() && (b.Until.IsZero() || now.Before(b.Until))
}

// lapsedUnlogged reports whether the ban lapsed by itself at or before now
// and its lapse is not yet in the log.
func (b *Ban) lapsedUnlogged(now time.Time) bool {
	return b.Lifted.IsZero() && !b.Until.IsZero() && !now.Before(b.Until) && !b.LapseLogged
}

// lapseEntry marks b's lapse logged and returns its log entry: by gobot, at
// the time the ban lapsed.
func (b *Ban) lapseEntry() AuditEntry {
	b.LapseLogged = true
	return AuditEntry{GuildID: b.GuildID, At: b.Until, By: Gobot, Action: AuditLapse, Target: b.User.UserID}
}

// checkReplaces fails with ErrConflict unless the ban of b's user in force
// at now, in stored (its record; nil for none), is replaces (nil for
// none): the ban a caller read before writing b, to replace it.
func checkReplaces(stored []byte, b, replaces *Ban, now time.Time) error {
	var cur *Ban
	if stored != nil {
		cur = new(Ban)
		if err := json.Unmarshal(stored, cur); err != nil {
			return fmt.Errorf("storage: ban of %s on %s: %w: %w", b.User.UserID, b.GuildID, ErrCorrupt, err)
		}
	}
	if !cur.Active(now) {
		cur = nil
	}
	if !replaces.Active(now) {
		replaces = nil // it lapsed since it was read, as the stored one did
	}
	if cur == nil && replaces == nil || cur != nil && replaces != nil && sameBan(cur, replaces) {
		return nil
	}
	return fmt.Errorf("storage: the ban of %s on %s changed before this one was written: %w", b.User.UserID, b.GuildID, ErrConflict)
}

// sameBan reports whether a and b are one ban, as stored and as read.
func sameBan(a, b *Ban) bool {
	return a.At.Equal(b.At) && a.By.UserID == b.By.UserID && a.Until.Equal(b.Until) && a.Reason == b.Reason && a.Lifted.Equal(b.Lifted)
}

func (b *Ban) validate() error {
	if err := checkID("guild ID", b.GuildID); err != nil {
		return err
	}
	if b.User.UserID == "" {
		return fmt.Errorf("storage: ban on %s: no user: %w", b.GuildID, ErrInvalid)
	}
	return checkID("user ID", b.User.UserID)
}

// The actions of the audit log.
const (
	AuditSettings   = "settings"   // a setting set or reset (Target: its name)
	AuditBan        = "ban"        // Target: the user's ID
	AuditUnban      = "unban"      // Target: the user's ID
	AuditAdjudicate = "adjudicate" // a game in play decided or annulled (Target: the game's ID)
	AuditAnnul      = "annul"      // a finished game annulled (Target: the game's ID)
	AuditAbort      = "abort"      // a game aborted by a player or a moderator (Target: the game's ID)
	AuditWithdraw   = "withdraw"   // a challenge or rengo lobby withdrawn by an admin (Target: its ID)
	// AuditLapse is a ban for days that lapsed by itself (Target: the
	// user's ID), by Gobot at the time it lapsed. The store logs a lapse
	// once, before anything else of the server is logged after it and
	// before its log is read: so a lapse is in the log whenever anyone
	// looks, in the order things happened, with no worker waiting for it.
	AuditLapse = "lapse"
)

// Gobot is who the log names for what gobot does by itself (a ban's
// lapse): no user, no bot level.
var Gobot = Player{Name: "gobot"}

// AuditEntry is one line of a server's audit log: who did what, when, why,
// and for a setting its value before and after.
type AuditEntry struct {
	GuildID string `json:"guild"`
	// Seq orders the log (the store assigns it: later entries have higher
	// numbers).
	Seq    uint64    `json:"seq"`
	At     time.Time `json:"at"`
	By     Player    `json:"by"`
	Action string    `json:"action"`
	Target string    `json:"target,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Before string    `json:"before,omitempty"`
	After  string    `json:"after,omitempty"`
}

func (e *AuditEntry) validate() error {
	if err := checkID("guild ID", e.GuildID); err != nil {
		return err
	}
	if e.Action == "" {
		return fmt.Errorf("storage: audit entry without an action: %w", ErrInvalid)
	}
	return nil
}

// banOrder orders bans newest first, then by user.
func banOrder(a, b *Ban) int {
	if c := b.At.Compare(a.At); c != 0 {
		return c
	}
	return strings.Compare(a.User.UserID, b.User.UserID)
}

// lapseOrder orders lapsed bans by when they lapsed, then by user.
func lapseOrder(a, b *Ban) int {
	if c := a.Until.Compare(b.Until); c != 0 {
		return c
	}
	return strings.Compare(a.User.UserID, b.User.UserID)
}

// auditKey is the key of WithAudit's entry in a context.
type auditKey struct{}

// WithAudit returns a copy of ctx carrying e, the log entry of an action
// that a request carries out by finishing a game in play (an admin's
// adjudication, an abort), by deleting a challenge (an admin's
// withdrawal) or by changing one (a ban taking a player off a lobby's
// teams). FinishGame, DeleteChallenge or UpdateChallenge, given such a
// context, appends e to the server's log in the transaction that
// archives the game or deletes or changes the challenge, so that neither
// is ever stored without the other. The entry describes the
// request (who acted, and why) and so travels with it, through whichever
// code archives the game's kind, to the one write it belongs to; use the
// context for that write only.
func WithAudit(ctx context.Context, e AuditEntry) context.Context {
	return context.WithValue(ctx, auditKey{}, e)
}

// auditOf returns the entry WithAudit put in ctx, validated.
func auditOf(ctx context.Context) (*AuditEntry, error) {
	e, ok := ctx.Value(auditKey{}).(AuditEntry)
	if !ok {
		return nil, nil
	}
	if err := e.validate(); err != nil {
		return nil, err
	}
	return &e, nil
}

// auditRecord fills e's time when zero and encodes it with seq.
func auditRecord(e AuditEntry, seq uint64, now time.Time) (AuditEntry, []byte, error) {
	if err := e.validate(); err != nil {
		return e, nil, err
	}
	e.Seq = seq
	if e.At.IsZero() {
		e.At = now
	}
	v, err := json.Marshal(e)
	return e, v, err
}

// GameList is a page of a server's active games, newest first.
type GameList struct {
	Games []*Game
	Total int // active games on the server in all
}

// sortChallenges orders challenges newest first (then by ID, newest
// first).
func sortChallenges(cs []*Challenge) {
	slices.SortFunc(cs, func(a, b *Challenge) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}
