package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// BotToMove reports whether g waits for a bot's move: play goes on (no
// result, no scoring phase) and the player to move is a bot. The store
// keeps every such game in its queue of owed bot moves (see ClaimBotMove).
func (g *Game) BotToMove() bool {
	if g.State == nil || g.Scoring != nil {
		return false
	}
	side := g.State.ToMove()
	return side != game.NoSide && g.Player(side).IsBot()
}

// BotMove is a bot move the store holds as owed: the game in ChannelID
// reached a position where its bot is to move, and the obligation lasts
// until a write of that game makes the move (or ends the game). Owed moves
// are queued in the order they became owed (Seq), in the same transaction
// as the write that made them owed, so none is lost to a crash or a
// restart.
type BotMove struct {
	ChannelID string
	GameID    string
	Moves     int       // the game's move count when the move became owed
	Seq       uint64    // the queue's order: a smaller Seq was owed earlier
	Since     time.Time // when the move became owed (the store's clock)

	// Worker and Until are the claim ClaimBotMove made: who is making the
	// move, and when the claim lapses if that worker never finishes.
	Worker string
	Until  time.Time
	// Attempts counts the claims released with a retry time (failures).
	Attempts int
}

// botMoveRecord is the stored form of an owed move (bucket bot_queue).
type botMoveRecord struct {
	Channel string    `json:"channel"`
	Game    string    `json:"game"`
	Moves   int       `json:"moves"`
	Since   time.Time `json:"since"`
}

// botClaim is a claim on an owed move, held in memory: bbolt's file lock
// lets one process at a time open the store, so a claim cannot outlive the
// process that made it, and one found at start-up would always be stale.
// (A store shared by several processes keeps its claims with the queue.)
type botClaim struct {
	worker   string
	until    time.Time // claimed until; or, with no worker, not to be claimed before
	attempts int
}

// owedState is what a write of a game does to the queue, worked out before
// the transaction from the game being written.
type owedState struct {
	channel, game string
	owed          bool
	moves         int
}

func owedOf(g *Game) owedState {
	st := owedState{channel: g.ChannelID, game: g.ID, owed: g.BotToMove()}
	if st.owed {
		st.moves = g.State.MoveCount()
	}
	return st
}

// syncBotQueue makes the queue agree with a game written in tx: an owed
// move that is still the same obligation (same game, same move count)
// keeps its place; any other entry for the channel is removed, and a new
// obligation goes to the back of the queue.
func syncBotQueue(tx *bolt.Tx, st owedState, now time.Time) error {
	q, byChannel := tx.Bucket(bucketBotQueue), tx.Bucket(bucketBotQueueChannel)
	if k := byChannel.Get([]byte(st.channel)); k != nil {
		k = bytes.Clone(k)
		var r botMoveRecord
		if st.owed && json.Unmarshal(q.Get(k), &r) == nil && r.Game == st.game && r.Moves == st.moves {
			return nil
		}
		if err := q.Delete(k); err != nil {
			return err
		}
		if err := byChannel.Delete([]byte(st.channel)); err != nil {
			return err
		}
	}
	if !st.owed {
		return nil
	}
	seq, err := q.NextSequence()
	if err != nil {
		return err
	}
	val, err := json.Marshal(botMoveRecord{Channel: st.channel, Game: st.game, Moves: st.moves, Since: now})
	if err != nil {
		return err
	}
	if err := q.Put(u64(seq), val); err != nil {
		return err
	}
	return byChannel.Put([]byte(st.channel), u64(seq))
}

// unqueueBotMove removes any owed move of a channel whose game left it.
func unqueueBotMove(tx *bolt.Tx, channel string) error {
	return syncBotQueue(tx, owedState{channel: channel}, time.Time{})
}

// ClaimBotMove takes the owed move that has waited longest among those
// nobody holds, for worker, until lease has passed: another worker calling
// meanwhile gets a different game, and the same one only once the lease
// has lapsed (a worker that died). It fails with ErrNotFound when no owed
// move can be taken now.
//
// The claim only spreads the work: the move itself must be committed with
// the game's version check (UpdateGame or FinishGame), which also removes
// it from the queue, so a duplicate attempt fails with ErrConflict and
// never shows.
func (s *Store) ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*BotMove, error) {
	if worker == "" || lease <= 0 {
		return nil, fmt.Errorf("storage: claim a bot move: worker %q, lease %v: %w", worker, lease, ErrInvalid)
	}
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	now := s.now()
	var m *BotMove
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketBotQueue).Cursor()
		games := tx.Bucket(bucketGames)
		for k, v := c.First(); k != nil; k, v = c.Next() {
			seq := uint64FromKey(k)
			cl, held := s.claims[seq]
			if held && now.Before(cl.until) {
				continue
			}
			var r botMoveRecord
			if len(k) != 8 || json.Unmarshal(v, &r) != nil {
				continue // Check reports it
			}
			if h, err := decodeHeader(games.Get([]byte(r.Channel))); err != nil || h.ID != r.Game {
				continue // an index the writes keep in step; Check reports it
			}
			m = &BotMove{ChannelID: r.Channel, GameID: r.Game, Moves: r.Moves, Seq: seq, Since: r.Since,
				Worker: worker, Until: now.Add(lease), Attempts: cl.attempts}
			return nil
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.pruneClaims()
	if m == nil {
		return nil, fmt.Errorf("storage: no bot move to claim: %w", ErrNotFound)
	}
	s.claims[m.Seq] = botClaim{worker: worker, until: m.Until, attempts: m.Attempts}
	return m, nil
}

// pruneClaims forgets claims on moves that have left the queue (made,
// or their game ended); s.claimMu is held.
func (s *Store) pruneClaims() {
	if len(s.claims) == 0 {
		return
	}
	s.db.View(func(tx *bolt.Tx) error {
		q := tx.Bucket(bucketBotQueue)
		for seq := range s.claims {
			if q.Get(u64(seq)) == nil {
				delete(s.claims, seq)
			}
		}
		return nil
	})
}

// ReleaseBotMove gives back a claim that m's worker still holds, without
// the move having been made: with a zero retryAt the move may be claimed
// again at once, keeping its place in the queue (a search slot was not
// free); otherwise not before retryAt, and the attempt is counted (the bot
// failed). Releasing a claim that lapsed or was taken over changes
// nothing.
func (s *Store) ReleaseBotMove(ctx context.Context, m *BotMove, retryAt time.Time) error {
	if m == nil {
		return fmt.Errorf("storage: release a nil bot move: %w", ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	cl, ok := s.claims[m.Seq]
	if !ok || cl.worker != m.Worker || !cl.until.Equal(m.Until) {
		return nil
	}
	switch {
	case !retryAt.IsZero():
		s.claims[m.Seq] = botClaim{until: retryAt, attempts: cl.attempts + 1}
	case cl.attempts > 0:
		s.claims[m.Seq] = botClaim{attempts: cl.attempts}
	default:
		delete(s.claims, m.Seq)
	}
	return nil
}

// ExtendBotMove renews a claim that m's worker still holds until lease
// from now, and sets m.Until to the new end: a worker making a long move
// renews a short lease while it thinks, so that when it dies its move is
// taken over within one lease instead of after the longest move. It fails
// with ErrNotFound when the claim lapsed or was taken over (the move may
// be under way elsewhere: the version check keeps one).
func (s *Store) ExtendBotMove(ctx context.Context, m *BotMove, lease time.Duration) error {
	if m == nil || lease <= 0 {
		return fmt.Errorf("storage: extend a bot move claim by %v: %w", lease, ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	now := s.now()
	cl, ok := s.claims[m.Seq]
	if !ok || cl.worker != m.Worker || !cl.until.Equal(m.Until) || !now.Before(cl.until) {
		return fmt.Errorf("storage: extend the claim of %s on channel %s: %w", m.Worker, m.ChannelID, ErrNotFound)
	}
	cl.until = now.Add(lease)
	s.claims[m.Seq] = cl
	m.Until = cl.until
	return nil
}

// BotQueuePosition returns the place of the bot move owed in game gameID
// of the channel at move count moves, among the owed moves waiting to be
// made: 1 for the next one; 0 when a worker holds it (the move is being
// made). It fails with ErrNotFound when that move is not owed: it was made,
// or the game has moved on (or ended) and owes another move or none. The
// cost grows with the position.
func (s *Store) BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error) {
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	now := s.now()
	pos := 0
	err := s.view(ctx, func(tx *bolt.Tx) error {
		mine := tx.Bucket(bucketBotQueueChannel).Get([]byte(channelID))
		var r botMoveRecord
		if mine != nil {
			if err := json.Unmarshal(tx.Bucket(bucketBotQueue).Get(mine), &r); err != nil {
				return fmt.Errorf("storage: bot queue entry of channel %s: %w: %w", channelID, ErrCorrupt, err)
			}
		}
		if mine == nil || r.Game != gameID || r.Moves != moves {
			return fmt.Errorf("storage: no bot move owed in channel %s at move %d of game %s: %w", channelID, moves, gameID, ErrNotFound)
		}
		if s.claimedNow(uint64FromKey(mine), now) {
			return nil
		}
		c := tx.Bucket(bucketBotQueue).Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k, mine) <= 0; k, _ = c.Next() {
			if !s.claimedNow(uint64FromKey(k), now) {
				pos++
			}
		}
		return nil
	})
	return pos, err
}

// claimedNow reports whether a worker holds the owed move seq; s.claimMu
// is held.
func (s *Store) claimedNow(seq uint64, now time.Time) bool {
	cl, ok := s.claims[seq]
	return ok && cl.worker != "" && now.Before(cl.until)
}

// BotQueue lists the owed bot moves in queue order, with the claims held
// on them.
func (s *Store) BotQueue(ctx context.Context) ([]BotMove, error) {
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	var out []BotMove
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBotQueue).ForEach(func(k, v []byte) error {
			var r botMoveRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("storage: bot queue entry %x: %w: %w", k, ErrCorrupt, err)
			}
			m := BotMove{ChannelID: r.Channel, GameID: r.Game, Moves: r.Moves, Seq: uint64FromKey(k), Since: r.Since}
			if cl, ok := s.claims[m.Seq]; ok {
				m.Worker, m.Until, m.Attempts = cl.worker, cl.until, cl.attempts
			}
			out = append(out, m)
			return nil
		})
	})
	return out, err
}

// uint64FromKey decodes an 8-byte big-endian key (0 for any other length).
func uint64FromKey(k []byte) uint64 {
	if len(k) != 8 {
		return 0
	}
	var v uint64
	for _, c := range k {
		v = v<<8 | uint64(c)
	}
	return v
}

// checkBotQueue verifies that every queue entry is a game whose bot is to
// move at the entry's move count, once per channel (checkIndexes checks
// that every such game has its entry).
func checkBotQueue(tx *bolt.Tx, kinds *game.Kinds) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	q, byChannel, games := tx.Bucket(bucketBotQueue), tx.Bucket(bucketBotQueueChannel), tx.Bucket(bucketGames)
	q.ForEach(func(k, v []byte) error {
		var r botMoveRecord
		if err := json.Unmarshal(v, &r); err != nil || len(k) != 8 {
			bad("bot_queue: entry %x: %w", k, errors.Join(ErrCorrupt, err))
			return nil
		}
		if !bytes.Equal(byChannel.Get([]byte(r.Channel)), k) {
			bad("bot_queue: entry %d for channel %q is not the channel's entry", uint64FromKey(k), r.Channel)
		}
		g, err := decodeGame(kinds, r.Channel, games.Get([]byte(r.Channel)))
		if err != nil || g.ID != r.Game || !g.BotToMove() || g.State.MoveCount() != r.Moves {
			bad("bot_queue: channel %q has no game %s with its bot to move after %d moves", r.Channel, r.Game, r.Moves)
		}
		return nil
	})
	byChannel.ForEach(func(k, v []byte) error {
		if q.Get(v) == nil {
			bad("bot_queue_by_channel: channel %q points at no queue entry", k)
		}
		return nil
	})
	return errs
}
