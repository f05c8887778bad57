package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Due is when the scheduler must next look at the game: the end of the
// scoring phase while the dead stones are being agreed, else the next event
// of its clock (the reminder, then the flag's fall); or, when earlier, the
// time its owed board is posted (Delivery.Owed). Zero for never: no
// clock, a stopped clock, a finished game. The store computes it on every
// write and keeps the games_by_due index on it.
func (g *Game) Due() time.Time {
	due := g.dueOfGame()
	if o := g.Delivery.Owed; o != nil && !o.Due.IsZero() && (due.IsZero() || o.Due.Before(due)) && !g.over() {
		return o.Due
	}
	return due
}

// over reports whether g has a result.
func (g *Game) over() bool {
	if g.State == nil {
		return false
	}
	_, over := g.State.Result()
	return over
}

// dueOfGame is Due without the owed board: the game's own deadlines.
func (g *Game) dueOfGame() time.Time {
	if g.State != nil {
		if _, over := g.State.Result(); over {
			return time.Time{}
		}
	}
	if g.Scoring != nil {
		return g.Scoring.Deadline
	}
	if g.Vote != nil && !g.Vote.Deadline.IsZero() {
		// A vote game has no clock: its votes close at their deadline.
		return g.Vote.Deadline
	}
	return g.Clock.Next()
}

// dueKey is the games_by_due key of a game: its due time (8 bytes, big
// endian) and its channel.
func dueKey(due time.Time, channel string) []byte {
	return append(timeKey(due), channel...)
}

// indexDue moves a game's games_by_due entry from old to due (either zero
// for none).
func indexDue(tx *bolt.Tx, channel string, old, due time.Time) error {
	b := tx.Bucket(bucketGamesByDue)
	if !old.IsZero() {
		if err := b.Delete(dueKey(old, channel)); err != nil {
			return err
		}
	}
	if due.IsZero() {
		return nil
	}
	return b.Put(dueKey(due, channel), nil)
}

// NextDue returns the earliest due time of any active game (see Game.Due),
// or the zero time when no game is waiting for anything. It reads the first
// key of the games_by_due index: its cost does not depend on the number of
// games.
func (s *Store) NextDue(ctx context.Context) (time.Time, error) {
	var next time.Time
	err := s.view(ctx, func(tx *bolt.Tx) error {
		k, _ := tx.Bucket(bucketGamesByDue).Cursor().First()
		if len(k) >= 8 {
			next = time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC()
		}
		return nil
	})
	return next, err
}

// DueGame is an entry of the deadline index: a game and when it is due.
type DueGame struct {
	ChannelID string
	Due       time.Time
}

// DueGames returns up to limit games due at or before now, earliest first
// (a limit of zero or less means all of them), by a range scan of the
// games_by_due index that stops at the first game not yet due.
func (s *Store) DueGames(ctx context.Context, now time.Time, limit int) ([]DueGame, error) {
	var out []DueGame
	end := timeKey(now)
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketGamesByDue).Cursor()
		for k, _ := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			if len(k) < 8 || bytes.Compare(k[:8], end) > 0 {
				break
			}
			out = append(out, DueGame{
				ChannelID: string(k[8:]),
				Due:       time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC(),
			})
		}
		return nil
	})
	return out, err
}

var keyHeartbeat = []byte("heartbeat")

// Heartbeat records that a bot process using the store is alive at now.
// CreditOutage measures an outage from the last one.
func (s *Store) Heartbeat(ctx context.Context, now time.Time) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyHeartbeat, timeKey(now))
	})
}

// LastHeartbeat returns the time of the last Heartbeat, zero if none.
func (s *Store) LastHeartbeat(ctx context.Context) (time.Time, error) {
	var t time.Time
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keyHeartbeat); len(v) == 8 {
			t = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
		}
		return nil
	})
	return t, err
}

// CreditOutage gives every running clock back the time no bot process was
// running, in one transaction: when the last heartbeat is more than min
// before now, each running clock is excused the time from that heartbeat
// to now (clock.Clock.Credit), and a scoring phase's or a vote's deadline
// still to come moves on by as much (creditRecord). Each game credited gets a new version, so a write
// prepared before the credit fails with ErrConflict. The heartbeat is then
// set to now, so of several processes starting together only the first
// credits the outage. It returns the outage credited (zero for none) and
// the number of games it extended.
func (s *Store) CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error) {
	var (
		credit time.Duration
		n      int
	)
	now = now.UTC()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		credit, n = 0, 0
		meta := tx.Bucket(bucketMeta)
		var last time.Time
		if v := meta.Get(keyHeartbeat); len(v) == 8 {
			last = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
		}
		if err := meta.Put(keyHeartbeat, timeKey(now)); err != nil {
			return err
		}
		if last.IsZero() || now.Sub(last) <= min {
			return nil
		}
		gap := now.Sub(last)
		var channels []string
		tx.Bucket(bucketGamesByDue).ForEach(func(k, _ []byte) error {
			if len(k) > 8 {
				channels = append(channels, string(k[8:]))
			}
			return nil
		})
		games := tx.Bucket(bucketGames)
		for _, ch := range channels {
			val, old, due, ok, err := creditRecord(ch, games.Get([]byte(ch)), last, now)
			if err != nil {
				return err
			}
			if !ok {
				continue // Check reports it; a bad record must not stop the start-up
			}
			if err := indexDue(tx, ch, old, due); err != nil {
				return err
			}
			if err := games.Put([]byte(ch), val); err != nil {
				return err
			}
			n++
		}
		credit = gap
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("storage: credit outage: %w", err)
	}
	return credit, n, nil
}

// creditRecord gives the stored game v of channel ch the outage from last
// to now, as CreditOutage describes, and returns its new encoding, its due
// time before and after, and false for a record that does not decode or
// has nothing to credit. A running clock is credited; a scoring phase's
// deadline (no clock runs then) and a vote's, when still to come at the
// outage's start, move on by the outage, so that the players keep the time
// they had to agree or vote.
func creditRecord(ch string, v []byte, last, now time.Time) (val []byte, old, due time.Time, ok bool, err error) {
	var r gameRecord
	if v == nil || json.Unmarshal(v, &r) != nil {
		return nil, time.Time{}, time.Time{}, false, nil
	}
	later := func(t time.Time) (time.Time, bool) {
		if !t.After(last) {
			return t, false // due before the outage: it stands
		}
		return t.Add(now.Sub(last)), true
	}
	switch {
	case r.Scoring != nil:
		if r.Scoring.Deadline, ok = later(r.Scoring.Deadline); !ok {
			return nil, time.Time{}, time.Time{}, false, nil
		}
		due = r.Scoring.Deadline
	case r.Vote != nil && !r.Vote.Deadline.IsZero():
		if r.Vote.Deadline, ok = later(r.Vote.Deadline); !ok {
			return nil, time.Time{}, time.Time{}, false, nil
		}
		due = r.Vote.Deadline
	case r.Clock.Running():
		r.Clock.Credit(last, now)
		due = r.Clock.Next()
	default:
		return nil, time.Time{}, time.Time{}, false, nil
	}
	if o := r.Owed; o != nil {
		o.Rest = due
		if due.IsZero() || o.Due.Before(due) {
			due = o.Due
		}
	}
	old = r.Due
	r.Due = due
	r.Version++
	r.UpdatedAt = now
	val, err = json.Marshal(r)
	if err != nil {
		return nil, time.Time{}, time.Time{}, false, fmt.Errorf("storage: credit outage to game in channel %s: %w", ch, err)
	}
	return val, old, r.Due, true, nil
}

// AddMessageID records a message that shows the game in channelID (a board
// posted in the channel or answering an interaction) in the game's
// Delivery.MessageIDs, in the order of their IDs (an ID kept already is
// kept once), so that its buttons can be disabled later. A message posted
// after the game's owed board was recorded settles it (OwedBoard), and the
// game's due time goes back to its own deadlines. Message IDs are
// delivery state, not the game: the write keeps the game's version, so it
// never makes a concurrent move fail. It fails with ErrNotFound when the
// channel no longer holds game gameID.
func (s *Store) AddMessageID(ctx context.Context, channelID, gameID, messageID string) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		val, old, due, err := addMessageRecord(channelID, games.Get([]byte(channelID)), gameID, messageID)
		if err != nil {
			return err
		}
		if !old.Equal(due) {
			if err := indexDue(tx, channelID, old, due); err != nil {
				return err
			}
		}
		return games.Put([]byte(channelID), val)
	})
}

// SetUndoMessage records messageID as the message that asks u, the
// request of game gameID in channelID (Game.Undo: Go's undo question,
// draughts' draw offer), in the request's MessageID. Like AddMessageID it
// keeps the game's version, so that an answer or a move made meanwhile is
// never refused for it, and a write of the same request read before it
// keeps it. It fails with ErrNotFound when the channel no longer holds
// game gameID or the game no longer holds u (answered, withdrawn, or
// replaced by another request): the caller closes the question then, if
// the request lapsed. A request that lapsed with a move but is still
// stored gets its message all the same: the caller reads the game again
// to see whether it is still open.
func (s *Store) SetUndoMessage(ctx context.Context, channelID, gameID string, u UndoRequest, messageID string) error {
	return s.changeRecord(ctx, channelID, messageID, func(rec []byte) ([]byte, error) {
		return undoMessageRecord(channelID, rec, gameID, u, messageID)
	})
}

// undoMessageRecord sets the message of request u in the stored record v
// of game gameID in channelID, keeping its version (SetUndoMessage).
func undoMessageRecord(channelID string, v []byte, gameID string, u UndoRequest, messageID string) ([]byte, error) {
	var r gameRecord
	if v == nil || json.Unmarshal(v, &r) != nil || r.ID != gameID {
		return nil, fmt.Errorf("storage: set the message of a request in game %s: not in channel %s: %w", gameID, channelID, ErrNotFound)
	}
	if !u.Same(r.Undo.request()) {
		return nil, fmt.Errorf("storage: set the message of a request in game %s: the game no longer holds it: %w", gameID, ErrNotFound)
	}
	r.Undo.MessageID = messageID
	return json.Marshal(r)
}

// SetVoteBoard records messageID, a board of game gameID in channelID
// drawn at moves moves, as the board of the game's open vote
// (Vote.Board), when the vote is on that move and the board is newer than
// the one it has. Like SetUndoMessage it keeps the game's version, so
// that a vote cast meanwhile is never refused for it, and a write of the
// same vote read before keeps it. It fails with ErrNotFound when the
// channel no longer holds game gameID or the game holds no vote on that
// move (the board was drawn before the vote opened, or after it closed).
func (s *Store) SetVoteBoard(ctx context.Context, channelID, gameID string, moves int, messageID string) error {
	return s.changeRecord(ctx, channelID, messageID, func(rec []byte) ([]byte, error) {
		return voteBoardRecord(channelID, rec, gameID, moves, messageID)
	})
}

// voteBoardRecord sets the board of the vote on move moves in the stored
// record v of game gameID in channelID, keeping its version
// (SetVoteBoard).
func voteBoardRecord(channelID string, v []byte, gameID string, moves int, messageID string) ([]byte, error) {
	var r gameRecord
	if v == nil || json.Unmarshal(v, &r) != nil || r.ID != gameID {
		return nil, fmt.Errorf("storage: set the board of the vote in game %s: not in channel %s: %w", gameID, channelID, ErrNotFound)
	}
	if r.Vote == nil || r.Vote.Moves != moves {
		return nil, fmt.Errorf("storage: set the board of the vote in game %s: no vote on move %d: %w", gameID, moves+1, ErrNotFound)
	}
	if newerMessage(messageID, r.Vote.Board) {
		r.Vote.Board = messageID
	}
	return json.Marshal(r)
}

// AddTeamVoteMessage records messageID, a message announcing a ballot of
// v, the team vote to resign (or, with abort, to abort) of game gameID in
// channelID, with the vote (ResignVote.Messages). Like SetUndoMessage it
// keeps the game's version, so that a move or a ballot made meanwhile is
// never refused for it, and a write of the same vote read before keeps
// it; a write that drops the vote gives it back (Game.LapsedVotes). It
// fails with ErrNotFound when the channel no longer holds game gameID or
// the game no longer holds v (a move lapsed it, or it decided): the
// caller says on its message what became of it.
func (s *Store) AddTeamVoteMessage(ctx context.Context, channelID, gameID string, abort bool, v ResignVote, messageID string) error {
	return s.changeRecord(ctx, channelID, messageID, func(rec []byte) ([]byte, error) {
		return teamVoteMessageRecord(channelID, rec, gameID, abort, v, messageID)
	})
}

// teamVoteMessageRecord adds messageID to team vote v (abort: the vote to
// abort, else to resign) in the stored record r of game gameID in
// channelID, keeping its version (AddTeamVoteMessage).
func teamVoteMessageRecord(channelID string, v []byte, gameID string, abort bool, vote ResignVote, messageID string) ([]byte, error) {
	var r gameRecord
	if v == nil || json.Unmarshal(v, &r) != nil || r.ID != gameID {
		return nil, fmt.Errorf("storage: add a message to a team vote in game %s: not in channel %s: %w", gameID, channelID, ErrNotFound)
	}
	rec := r.ResignVote
	if abort {
		rec = r.AbortVote
	}
	if !rec.same(&vote) {
		return nil, fmt.Errorf("storage: add a message to a team vote in game %s: the game no longer holds it: %w", gameID, ErrNotFound)
	}
	if !slices.Contains(rec.Messages, messageID) {
		rec.Messages = append(rec.Messages, messageID)
	}
	return json.Marshal(r)
}

// addMessageRecord adds messageID to the stored record v of game gameID in
// channelID, keeping its version (AddMessageID), and returns it with the
// record's due time before and after (they differ when the message settles
// the owed board).
func addMessageRecord(channelID string, v []byte, gameID, messageID string) (val []byte, old, due time.Time, err error) {
	var r gameRecord
	if v == nil || json.Unmarshal(v, &r) != nil || r.ID != gameID {
		return nil, old, due, fmt.Errorf("storage: add message to game %s: not in channel %s: %w", gameID, channelID, ErrNotFound)
	}
	r.MessageIDs = mergeMessages(r.MessageIDs, []string{messageID})
	old = r.Due
	if o := r.Owed; o != nil && (&OwedBoard{After: o.After}).Settles(messageID) {
		r.Owed, r.Due = nil, o.Rest
	}
	val, err = json.Marshal(r)
	return val, old, r.Due, err
}

// changeRecord records message messageID in the stored record of the game
// in channelID as change makes it from the record (SetUndoMessage,
// SetVoteBoard, AddTeamVoteMessage): the record's version and deadline
// stay as they are.
func (s *Store) changeRecord(ctx context.Context, channelID, messageID string, change func(rec []byte) ([]byte, error)) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		val, err := change(games.Get([]byte(channelID)))
		if err != nil {
			return err
		}
		return games.Put([]byte(channelID), val)
	})
}
