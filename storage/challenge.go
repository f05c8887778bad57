package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	bolt "go.etcd.io/bbolt"
)

// Challenge is an invitation to play that awaits an answer until ExpiresAt.
type Challenge struct {
	ID        string `json:"id"`      // CreateChallenge fills it when empty
	ChannelID string `json:"channel"` // where it was posted
	GuildID   string `json:"guild,omitempty"`
	MessageID string `json:"message,omitempty"` // the message with the accept/decline buttons

	Challenger Player `json:"challenger"`
	// Opponent is the player challenged; the zero Player for an open
	// challenge that anyone may accept.
	Opponent Player `json:"opponent,omitzero"`
	// Taken marks an open challenge being accepted: its Opponent is, in
	// memory only, the person accepting it, and its message still shows
	// it as it was posted, open to anyone. Never stored.
	Taken bool `json:"-"`

	// Kind is the kind of game challenged to; "" (as challenges stored
	// before gobot had a second game say) is Go.
	Kind string `json:"kind,omitempty"`

	// Size, Rules and Handicap are Go's; zero for another kind.
	Size     int          `json:"size"`
	Color    string       `json:"color,omitempty"` // the challenger's colour choice, as commands spells it
	Rules    engine.Rules `json:"rules"`
	Handicap int          `json:"handicap,omitempty"`
	Thread   bool         `json:"thread,omitempty"`  // play in a new thread
	Unrated  bool         `json:"unrated,omitempty"` // rated:false: the game changes no rating
	// Clock is the time control chosen; nil means clock.Default()
	// (challenges stored before clocks existed have none).
	Clock *clock.Control `json:"clock,omitempty"`

	CreatedAt time.Time `json:"created"` // set by CreateChallenge when zero
	ExpiresAt time.Time `json:"expires"`

	// Teams, for a team game (rengo) still gathering its players: the
	// sides as they have filled so far, in the kind's order (Go: Black,
	// White), each in the order its players will move. Empty for a
	// challenge between two players.
	Teams []Side `json:"teams,omitempty"`
	// TeamClock is a team game's clock mode: TeamClockStrict (one clock
	// a team) or TeamClockCasual (a clock a player).
	TeamClock string `json:"team_clock,omitempty"`
}

// The clock modes of a team game, as on OGS.
const (
	TeamClockStrict = "strict" // one clock a team: the team loses when it runs out
	TeamClockCasual = "casual" // a clock a player: who runs out or leaves is skipped
)

// Team reports whether the challenge gathers a team game.
func (c *Challenge) Team() bool { return len(c.Teams) > 0 }

// Open reports whether anyone may accept the challenge.
func (c *Challenge) Open() bool { return c.Opponent.Key() == "" }

// Expired reports whether the challenge has expired at now.
func (c *Challenge) Expired(now time.Time) bool { return !now.Before(c.ExpiresAt) }

func (c *Challenge) validate() error {
	if c == nil {
		return fmt.Errorf("storage: nil challenge: %w", ErrInvalid)
	}
	if err := checkID("channel ID", c.ChannelID); err != nil {
		return err
	}
	if err := checkPlayer("challenger", c.Challenger); err != nil {
		return err
	}
	if !c.Open() {
		if err := checkPlayer("opponent", c.Opponent); err != nil {
			return err
		}
	}
	if KindOf(c.Kind) == goKind && (c.Size < engine.MinSize || c.Size > engine.MaxSize) {
		return fmt.Errorf("storage: challenge board size %d: %w", c.Size, ErrInvalid)
	}
	if c.Handicap < 0 {
		return fmt.Errorf("storage: challenge handicap %d: %w", c.Handicap, ErrInvalid)
	}
	if c.ExpiresAt.IsZero() {
		return fmt.Errorf("storage: challenge without expiry: %w", ErrInvalid)
	}
	if c.Team() {
		if len(c.Teams) != 2 {
			return fmt.Errorf("storage: team challenge with %d teams: %w", len(c.Teams), ErrInvalid)
		}
		if c.TeamClock != TeamClockStrict && c.TeamClock != TeamClockCasual {
			return fmt.Errorf("storage: team clock %q: %w", c.TeamClock, ErrInvalid)
		}
		seen := map[string]bool{}
		for i, t := range c.Teams {
			if len(t.Players) > MaxSidePlayers {
				return fmt.Errorf("storage: team %d has %d players (at most %d): %w", i+1, len(t.Players), MaxSidePlayers, ErrInvalid)
			}
			for _, p := range t.Players {
				if err := checkPlayer(fmt.Sprintf("team %d", i+1), p); err != nil {
					return err
				}
				if p.UserID != "" && seen[p.UserID] {
					return fmt.Errorf("storage: user %s sits twice in a team game: %w", p.UserID, ErrInvalid)
				}
				seen[p.UserID] = true
			}
		}
	}
	return nil
}

func decodeChallenge(v []byte) (*Challenge, error) {
	if v == nil {
		return nil, errNoRecord
	}
	c := new(Challenge)
	if err := json.Unmarshal(v, c); err != nil {
		return nil, err
	}
	return c, nil
}

// CreateChallenge stores a pending challenge. It fills c.ID when empty and
// c.CreatedAt when zero, and fails with ErrExists if the ID is taken.
func (s *Store) CreateChallenge(ctx context.Context, c *Challenge) error {
	cc, val, err := prepareChallenge(c, s.now())
	if err != nil {
		return err
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChallenges)
		if b.Get([]byte(cc.ID)) != nil {
			return fmt.Errorf("storage: challenge %s: %w", cc.ID, ErrExists)
		}
		if err := b.Put([]byte(cc.ID), val); err != nil {
			return err
		}
		return tx.Bucket(bucketChallengesExp).Put(append(timeKey(cc.ExpiresAt), cc.ID...), nil)
	})
	if err != nil {
		return err
	}
	*c = cc
	return nil
}

// prepareChallenge validates c for CreateChallenge and returns the copy to
// store, with an ID (a new one when c has none) and CreatedAt (now when
// zero), and its encoding.
func prepareChallenge(c *Challenge, now time.Time) (Challenge, []byte, error) {
	if err := c.validate(); err != nil {
		return Challenge{}, nil, err
	}
	cc := *c
	if cc.ID == "" {
		cc.ID = NewID()
	} else if err := checkID("challenge ID", cc.ID); err != nil {
		return Challenge{}, nil, err
	}
	if cc.CreatedAt.IsZero() {
		cc.CreatedAt = now
	}
	val, err := json.Marshal(&cc)
	if err != nil {
		return Challenge{}, nil, fmt.Errorf("storage: encode challenge: %w", err)
	}
	return cc, val, nil
}

// Challenge loads a pending challenge, expired or not (see Expired). It
// fails with ErrNotFound when it was accepted, declined or swept, and with
// ErrCorrupt when the record cannot be decoded.
func (s *Store) Challenge(ctx context.Context, id string) (*Challenge, error) {
	var c *Challenge
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		c, err = getChallenge(tx, id)
		return err
	})
	return c, err
}

func getChallenge(tx *bolt.Tx, id string) (*Challenge, error) {
	v := tx.Bucket(bucketChallenges).Get([]byte(id))
	if v == nil {
		return nil, fmt.Errorf("storage: challenge %s: %w", id, ErrNotFound)
	}
	c, err := decodeChallenge(v)
	if err != nil {
		return nil, fmt.Errorf("storage: challenge %s: %w: %w", id, ErrCorrupt, err)
	}
	return c, nil
}

// deleteChallenge removes a challenge and its expiry entry, tolerating a
// record too damaged to name its expiry (the entry is then found by a scan).
func deleteChallenge(tx *bolt.Tx, id string) error {
	b := tx.Bucket(bucketChallenges)
	v := b.Get([]byte(id))
	if v == nil {
		return fmt.Errorf("storage: challenge %s: %w", id, ErrNotFound)
	}
	exp := tx.Bucket(bucketChallengesExp)
	if c, err := decodeChallenge(v); err == nil {
		if err := exp.Delete(append(timeKey(c.ExpiresAt), id...)); err != nil {
			return err
		}
	} else {
		var doomed [][]byte
		exp.ForEach(func(k, _ []byte) error {
			if len(k) > 8 && string(k[8:]) == id {
				doomed = append(doomed, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range doomed {
			if err := exp.Delete(k); err != nil {
				return err
			}
		}
	}
	return b.Delete([]byte(id))
}

// UpdateChallenge changes a pending challenge in one transaction: it
// loads it, calls change on it and stores the result, so that two players
// joining a team at once both get their seat. An error from change is
// returned and nothing is written; change may not alter the challenge's
// ID, channel or expiry (ErrInvalid). A challenge that is gone is
// ErrNotFound. Given a context from WithAudit (a ban taking a player off
// a lobby's teams), it appends the entry to the server's log in the same
// transaction. It returns the challenge as stored.
func (s *Store) UpdateChallenge(ctx context.Context, id string, change func(*Challenge) error) (*Challenge, error) {
	e, err := auditOf(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out *Challenge
	err = s.update(ctx, func(tx *bolt.Tx) error {
		c, err := getChallenge(tx, id)
		if err != nil {
			return err
		}
		val, err := changeChallenge(c, change)
		if err != nil {
			return err
		}
		out = c
		if err := tx.Bucket(bucketChallenges).Put([]byte(id), val); err != nil || e == nil {
			return err
		}
		return appendAudit(tx, *e, now)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// changeChallenge applies change to c for UpdateChallenge, checks what it
// may not change and the result, and returns the new record.
func changeChallenge(c *Challenge, change func(*Challenge) error) ([]byte, error) {
	before := *c
	if err := change(c); err != nil {
		return nil, err
	}
	if c.ID != before.ID || c.ChannelID != before.ChannelID || !c.ExpiresAt.Equal(before.ExpiresAt) {
		return nil, fmt.Errorf("storage: update challenge %s: its ID, channel and expiry cannot change: %w", before.ID, ErrInvalid)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	val, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("storage: encode challenge: %w", err)
	}
	return val, nil
}

// DeleteChallenge removes a pending challenge (declined, withdrawn or
// expired). It fails with ErrNotFound when it is already gone, so of two
// racing callers exactly one succeeds: a successful delete is a claim.
func (s *Store) DeleteChallenge(ctx context.Context, id string) error {
	if err := checkID("challenge ID", id); err != nil {
		return err
	}
	e, err := auditOf(ctx)
	if err != nil {
		return err
	}
	now := s.now()
	return s.update(ctx, func(tx *bolt.Tx) error {
		if err := deleteChallenge(tx, id); err != nil || e == nil {
			return err
		}
		return appendAudit(tx, *e, now)
	})
}

// AcceptChallenge atomically removes the challenge and creates g, the game
// it became, as CreateGame does. Of two racing accepts exactly one wins; the
// other gets ErrNotFound. An expired challenge gives ErrExpired, a busy
// channel ErrExists, and a team challenge whose teams are no longer g's
// sides (a player joined or left after the caller read it) ErrConflict;
// all three leave the challenge in place.
func (s *Store) AcceptChallenge(ctx context.Context, id string, g *Game) error {
	if err := checkID("challenge ID", id); err != nil {
		return err
	}
	c, val, now, err := prepareGame(s.kinds, g, s.now())
	if err != nil {
		return err
	}
	owed := owedOf(&c)
	err = s.update(ctx, func(tx *bolt.Tx) error {
		ch, err := getChallenge(tx, id)
		if err != nil {
			return err
		}
		if ch.Expired(now) {
			return fmt.Errorf("storage: challenge %s expired at %s: %w", id, ch.ExpiresAt.Format(time.RFC3339), ErrExpired)
		}
		if teamsChanged(ch, &c) {
			return fmt.Errorf("storage: challenge %s: the teams changed: %w", id, ErrConflict)
		}
		if err := putNewGame(tx, &c, val, owed, now); err != nil {
			return err
		}
		return deleteChallenge(tx, id)
	})
	if err != nil {
		return err
	}
	g.ID, g.Kind, g.CreatedAt, g.UpdatedAt, g.Version = c.ID, c.Kind, c.CreatedAt, now, 1
	return nil
}

// teamsChanged reports whether team challenge ch's teams differ from the
// sides of g, the game started from it (players and their order).
func teamsChanged(ch *Challenge, g *Game) bool {
	if !ch.Team() {
		return false
	}
	if len(ch.Teams) != len(g.Sides) {
		return true
	}
	for i, t := range ch.Teams {
		if !slices.EqualFunc(t.Players, g.Sides[i].Players, func(a, b Player) bool { return a.Key() == b.Key() }) {
			return true
		}
	}
	return false
}

// ExpiredChallenges returns the challenges whose expiry is at or before
// now, soonest first, by a range scan of the expiry index. It does not
// delete them: the caller edits their messages and deletes each with
// DeleteChallenge. Records that cannot be decoded are skipped and reported
// in err (ErrCorrupt) alongside the others.
func (s *Store) ExpiredChallenges(ctx context.Context, now time.Time) ([]*Challenge, error) {
	var out []*Challenge
	var errs []error
	end := timeKey(now)
	err := s.view(ctx, func(tx *bolt.Tx) error {
		chs := tx.Bucket(bucketChallenges)
		c := tx.Bucket(bucketChallengesExp).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) <= 8 {
				errs = append(errs, fmt.Errorf("storage: challenge expiry key %x: %w", k, ErrCorrupt))
				continue
			}
			if bytes.Compare(k[:8], end) > 0 {
				break // the rest expire later
			}
			id := string(k[8:])
			ch, err := decodeChallenge(chs.Get(k[8:]))
			if err != nil {
				errs = append(errs, fmt.Errorf("storage: challenge %s: %w: %w", id, ErrCorrupt, err))
				continue
			}
			out = append(out, ch)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

// ClaimChallenge marks the pending challenge id as being accepted by
// holder (any name unique to the attempt, such as the interaction's ID)
// until lease has passed: another holder's claim meanwhile fails with
// ErrConflict (a *ClaimedError naming the holder). It fails with ErrNotFound when the challenge is gone. The
// claim guards work done before AcceptChallenge, such as making the game's
// thread; AcceptChallenge itself stays the only decision. A claim lapses by
// itself, and ReleaseChallenge gives it back. The bbolt store keeps claims
// in memory: only one process opens its file.
func (s *Store) ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error {
	if holder == "" || lease <= 0 {
		return fmt.Errorf("storage: claim challenge %s: holder %q, lease %v: %w", id, holder, lease, ErrInvalid)
	}
	if _, err := s.Challenge(ctx, id); err != nil {
		return err
	}
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	now := s.now()
	if cl, ok := s.challengeClaims[id]; ok && cl.holder != holder && now.Before(cl.until) {
		return &ClaimedError{ID: id, Holder: cl.holder}
	}
	for k, cl := range s.challengeClaims {
		if !now.Before(cl.until) {
			delete(s.challengeClaims, k)
		}
	}
	s.challengeClaims[id] = challengeClaim{holder: holder, until: now.Add(lease)}
	return nil
}

// ReleaseChallenge gives back holder's claim on challenge id, if it still
// holds it.
func (s *Store) ReleaseChallenge(ctx context.Context, id, holder string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	if cl, ok := s.challengeClaims[id]; ok && cl.holder == holder {
		delete(s.challengeClaims, id)
	}
	return nil
}

// challengeClaim is a claim ClaimChallenge made.
type challengeClaim struct {
	holder string
	until  time.Time
}
