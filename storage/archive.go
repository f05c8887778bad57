package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// Archived is a finished game: its record (SGF), its result and what the
// history and statistics need without reading the SGF.
type Archived struct {
	ID        string `json:"id"`
	GuildID   string `json:"guild,omitempty"`
	ChannelID string `json:"channel"`
	// ParentChannelID is the channel of the game's thread, as the game in
	// play had it (Game.ParentChannelID); "" for a game not played in a
	// thread, and in records archived before it was kept.
	ParentChannelID string `json:"parent,omitempty"`
	// Kind is the game's kind, "go" or "draughts"; "" in records written
	// before gobot had more than one kind, which are Go.
	Kind string `json:"kind,omitempty"`

	// Black and White are the players of the sides of those colours, in
	// both kinds (in draughts White is side 0, in Go Black).
	Black Player `json:"black"`
	White Player `json:"white"`
	// BlackTeam and WhiteTeam are, in a team game (rengo), every player of
	// each side in turn order, Black and White first; nil otherwise. The
	// statistics count Black and White only (team games are never rated),
	// but each player finds the game in their history.
	BlackTeam []Player `json:"black_team,omitempty"`
	WhiteTeam []Player `json:"white_team,omitempty"`

	// Size, Rules and Handicap are Go's; zero for other kinds.
	Size     int          `json:"size"`
	Rules    engine.Rules `json:"rules"`
	Handicap int          `json:"handicap,omitempty"`
	// Marking says how the dead stones of a game decided by counting were
	// settled, in its room's words (ScoringState.Settled); empty for the
	// other games and for those archived before it was kept.
	Marking string `json:"marking,omitempty"`
	// Result is the result in SGF notation, for every kind: "B+3.5",
	// "W+R", "B+T", "W+" (a win by the rules, in draughts), "0" (a tie or
	// a draw) or "Void" (no result).
	Result string `json:"result"`
	// Winner is Black or White, or Empty for a tie or no result. FinishGame
	// derives it from Result.
	Winner engine.Color `json:"winner"`
	Moves  int          `json:"moves"`
	// Annulled marks a game that is recorded but never counted: it ended on
	// time before the player who ran out had made two moves of their own,
	// or a player aborted it before each had made two (Result "Void").
	// Statistics and ratings skip it; Result still says what happened.
	Annulled bool `json:"annulled,omitempty"`
	// AnnulledInPlay marks a game with Result "Void" that an admin
	// annulled while it was played, rather than one aborted by a player or
	// a moderator: the history calls it annulled, not aborted.
	AnnulledInPlay bool `json:"annulled_in_play,omitempty"`
	// Adjudicated marks a game a server's admin decided while it was
	// played (a win by forfeit). One server's admins may not move the
	// ratings of every server: it counts in that server's pool only,
	// never in the global one, so a game against a bot (which counts in
	// the global pool only) is not rated at all.
	Adjudicated bool `json:"adjudicated,omitempty"`
	// Rated asks FinishGame to rate the game; the archived record keeps it
	// only when the game was rated (two different players, a winner or a
	// tie, not annulled). RatingSeq is then the order in which it was
	// rated, which a ratings rebuild follows.
	Rated     bool   `json:"rated,omitempty"`
	RatingSeq uint64 `json:"rating_seq,omitempty"`
	// Unrated records that the game was played unrated by choice
	// (rated:false, or an external engine's game), for its rematch to be
	// too. Rated says whether it was rated in the end.
	Unrated bool `json:"unrated,omitempty"`
	// PairLimit asks FinishGame to leave the game unrated when its two
	// players (people, not a team game) have already finished
	// PairLimit.Games rated games of its kind against each other in the
	// PairLimit.Window before it; it is not stored. PairLimitedUntil then
	// records when a rated game between them counts again (zero for a
	// game the limit did not hold back).
	PairLimit        PairLimit `json:"-"`
	PairLimitedUntil time.Time `json:"pair_limited_until,omitzero"`
	// NoPools are rating pools the game stays out of although it would
	// count there: the server's pool, or the global one, when the
	// server's admins turned them off (commands decides, at the game's
	// end, and a rebuild follows the record).
	NoPools []string `json:"no_pools,omitempty"`

	// SGF is the game record in its kind's format: SGF for Go, PDN for
	// draughts. ArchivedGame loads it; the listings
	// (PlayerGames, GuildGames) leave it nil to stay cheap.
	SGF []byte `json:"-"`

	StartedAt  time.Time `json:"started"`
	FinishedAt time.Time `json:"finished"`

	// Clock is the game's clock as it stood at the end, stopped and
	// without its log of moves (the record has those), for the finished
	// game's board and page to show each side's final time. Nil for a
	// game without a clock, and for games archived before it was kept.
	Clock *clock.Clock `json:"clock,omitempty"`
}

// resultOutcome reads an archived game's result with engine.ParseResult
// and returns the winner (Empty for a tie or no result) and whether the
// game counts as a tie. "Void" and "?" (engine.ErrNoResult) mean no result:
// no winner, no tie, no error. Any other result engine.ParseResult refuses
// is an error wrapping ErrInvalid.
func resultOutcome(re string) (winner engine.Color, tie bool, err error) {
	r, err := engine.ParseResult(re)
	switch {
	case errors.Is(err, engine.ErrNoResult):
		return engine.Empty, false, nil
	case err != nil:
		return engine.Empty, false, fmt.Errorf("storage: %w: %w", err, ErrInvalid)
	}
	return r.Winner, r.Winner == engine.Empty, nil
}

func decodeArchive(v []byte) (*Archived, error) {
	if v == nil {
		return nil, errNoRecord
	}
	a := new(Archived)
	if err := json.Unmarshal(v, a); err != nil {
		return nil, err
	}
	if a.ID == "" {
		return nil, fmt.Errorf("archived game without id")
	}
	return a, nil
}

type indexKey struct {
	bucket []byte
	key    []byte
}

// archiveIndexKeys returns the index entries of an archived game: one per
// distinct player, one for its channel, and one for its guild unless it was
// played in a DM.
func archiveIndexKeys(a *Archived) []indexKey {
	tk := timeKey(a.FinishedAt)
	keys := []indexKey{{bucketArchiveChan, join(a.ChannelID, tk, []byte(a.ID))}}
	for _, k := range a.PlayerKeys() {
		keys = append(keys, indexKey{bucketArchivePlayer, join(k, tk, []byte(a.ID))})
	}
	if a.GuildID != "" {
		keys = append(keys, indexKey{bucketArchiveGuild, join(a.GuildID, tk, []byte(a.ID))})
	}
	return keys
}

// FinishGame atomically removes the active game g from its channel and
// archives it with a, provided the stored version is still g.Version
// (ErrConflict otherwise, ErrNotFound when the game is gone). Fields of a
// left zero are taken from g: ID, guild, channel, kind, players (by the
// colours the kind names its sides), size, rules and handicap (of a game of
// Go, see goState), move count, StartedAt (g.CreatedAt), FinishedAt (now)
// and Result (the state's). a.SGF is required. The players' statistics
// are updated in the same transaction, and so are the ratings when a.Rated
// asks for it and the game can be rated (see ratedScore) within
// a.PairLimit: in the global pool, and in the server's pool for a game
// between two people on a server (see rateGame). Given a context from WithAudit, it appends the entry to
// the server's log in the same transaction.
func (s *Store) FinishGame(ctx context.Context, g *Game, a Archived) error {
	now := s.now()
	ap, val, tie, err := archiveRecord(s.kinds, g, a, now)
	if err != nil {
		return err
	}
	e, err := auditOf(ctx)
	if err != nil {
		return err
	}
	a = *ap
	want := g.header()
	var stored gameHeader
	err = s.update(ctx, func(tx *bolt.Tx) error {
		h, err := checkStored(tx, want, "finish")
		if err != nil {
			return err
		}
		stored = h
		if err := deleteActive(tx, h); err != nil {
			return err
		}
		if e != nil {
			if err := appendAudit(tx, *e, now); err != nil {
				return err
			}
		}
		// The batch may run this function again, so a is copied.
		ap, val, err := checkPairLimit(tx, &a, val)
		if err != nil {
			return err
		}
		if !ap.Rated {
			return putArchive(tx, ap, val, ap.SGF, tie)
		}
		// A rated game records the order it was rated in, which a rebuild
		// follows.
		r := *ap
		seq, err := tx.Bucket(bucketRatings).NextSequence()
		if err != nil {
			return err
		}
		r.RatingSeq = seq
		rval, err := json.Marshal(&r)
		if err != nil {
			return err
		}
		if err := putArchive(tx, &r, rval, r.SGF, tie); err != nil {
			return err
		}
		score, _ := ratedScore(&r, tie)
		return rateGame(ctx, boltRatings{tx}, s.starts, &r, score)
	})
	if err != nil {
		return err
	}
	g.learnRemoved(stored)
	return nil
}

// goState is what a game of Go's state (engine.State) tells the archive
// beyond the contract: the columns Go's records have always had.
type goState interface {
	Size() int
	Rules() engine.Rules
	Handicap() int
}

// colourSide returns the side of a game of kind that the kind names
// colour ("Black", "White"); side 0 or 1 by Go's order when the kind is not
// in kinds.
func colourSide(kinds *game.Kinds, kind, colour string) game.Side {
	if kinds != nil {
		if k, ok := kinds.Kind(KindOf(kind)); ok {
			if i := slices.Index(k.SideNames(), colour); i >= 0 {
				return game.Side(i)
			}
		}
	}
	if colour == "White" {
		return 1
	}
	return 0
}

// archiveRecord validates a finished game g and its archive entry a for
// FinishGame, fills the fields of a left zero from g (FinishedAt from now),
// and returns it with its encoding and whether the result is a tie.
func archiveRecord(kinds *game.Kinds, g *Game, a Archived, now time.Time) (_ *Archived, val []byte, tie bool, err error) {
	if err := g.validate(); err != nil {
		return nil, nil, false, err
	}
	if a.ID != "" && a.ID != g.ID {
		return nil, nil, false, fmt.Errorf("storage: finish game %s: archive ID %s differs: %w", g.ID, a.ID, ErrInvalid)
	}
	a.ID, a.ChannelID = g.ID, g.ChannelID
	if a.GuildID == "" {
		a.GuildID = g.GuildID
	}
	a.Kind = KindOf(g.Kind)
	if a.Kind == goKind {
		a.Kind = "" // as records have always said Go
	}
	if a.Black.Key() == "" {
		a.Black = g.First(colourSide(kinds, g.Kind, "Black"))
	}
	if a.White.Key() == "" {
		a.White = g.First(colourSide(kinds, g.Kind, "White"))
	}
	if g.Team() && a.BlackTeam == nil && a.WhiteTeam == nil {
		a.BlackTeam = slices.Clone(g.TeamOf(colourSide(kinds, g.Kind, "Black")))
		a.WhiteTeam = slices.Clone(g.TeamOf(colourSide(kinds, g.Kind, "White")))
	}
	if gs, ok := g.State.(goState); ok {
		if a.Size == 0 {
			a.Size = gs.Size()
		}
		if a.Rules == (engine.Rules{}) {
			a.Rules = gs.Rules()
		}
		if a.Handicap == 0 {
			a.Handicap = gs.Handicap()
		}
	}
	if a.Moves == 0 {
		a.Moves = g.State.MoveCount()
	}
	if a.StartedAt.IsZero() {
		a.StartedAt = g.CreatedAt
	}
	if a.FinishedAt.IsZero() {
		a.FinishedAt = now
	}
	if a.Result == "" {
		if r, ok := g.State.Result(); ok {
			a.Result = r.Text
		}
	}
	if a.Result == "" {
		return nil, nil, false, fmt.Errorf("storage: finish game %s: no result: %w", g.ID, ErrInvalid)
	}
	winner, tie, err := resultOutcome(a.Result)
	if err != nil {
		return nil, nil, false, fmt.Errorf("storage: finish game %s: %w", g.ID, err)
	}
	a.Winner = winner
	_, a.Rated = ratedScore(&a, tie)
	if len(a.SGF) == 0 {
		return nil, nil, false, fmt.Errorf("storage: finish game %s: no SGF record: %w", g.ID, ErrInvalid)
	}
	if err := checkPlayer("black", a.Black); err != nil {
		return nil, nil, false, err
	}
	if err := checkPlayer("white", a.White); err != nil {
		return nil, nil, false, err
	}
	if a.GuildID != "" {
		if err := checkID("guild ID", a.GuildID); err != nil {
			return nil, nil, false, err
		}
	}
	val, err = json.Marshal(&a)
	if err != nil {
		return nil, nil, false, fmt.Errorf("storage: encode archived game %s: %w", g.ID, err)
	}
	return &a, val, tie, nil
}

// putArchive writes an archived game, its SGF, its index entries and the
// players' statistics in tx. It fails with ErrExists if the ID is taken.
func putArchive(tx *bolt.Tx, a *Archived, val, sgf []byte, tie bool) error {
	arch := tx.Bucket(bucketArchive)
	if arch.Get([]byte(a.ID)) != nil {
		return fmt.Errorf("storage: game %s is already archived: %w", a.ID, ErrExists)
	}
	if err := arch.Put([]byte(a.ID), val); err != nil {
		return err
	}
	if err := tx.Bucket(bucketArchiveSGF).Put([]byte(a.ID), sgf); err != nil {
		return err
	}
	for _, k := range archiveIndexKeys(a) {
		if err := tx.Bucket(k.bucket).Put(k.key, nil); err != nil {
			return err
		}
	}
	return countGame(tx, a, tie)
}

// ArchivedGame loads a finished game with its SGF. It fails with
// ErrNotFound when there is no such game and ErrCorrupt when the record
// cannot be decoded.
func (s *Store) ArchivedGame(ctx context.Context, id string) (*Archived, error) {
	var a *Archived
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketArchive).Get([]byte(id))
		if v == nil {
			return fmt.Errorf("storage: archived game %s: %w", id, ErrNotFound)
		}
		var err error
		if a, err = decodeArchive(v); err != nil {
			return fmt.Errorf("storage: archived game %s: %w: %w", id, ErrCorrupt, err)
		}
		a.SGF = bytes.Clone(tx.Bucket(bucketArchiveSGF).Get([]byte(id)))
		return nil
	})
	return a, err
}

// PlayerGames returns up to limit finished games of a player (a Discord
// user ID, or Player.Key of a bot), newest first, without their SGF. A limit
// of zero or less means all of them. It is a range scan of the
// archive_by_player index: its cost grows with limit, not with the archive.
func (s *Store) PlayerGames(ctx context.Context, playerKey string, limit int) ([]*Archived, error) {
	return s.history(ctx, bucketArchivePlayer, "player", playerKey, time.Time{}, limit)
}

// PlayerGamesBefore is PlayerGames for the games finished strictly before
// t: the next page after a page whose oldest game finished at t. A zero t
// sets no bound.
func (s *Store) PlayerGamesBefore(ctx context.Context, playerKey string, t time.Time, limit int) ([]*Archived, error) {
	return s.history(ctx, bucketArchivePlayer, "player", playerKey, t, limit)
}

// GuildGames returns up to limit finished games played in a server, newest
// first, without their SGF, by a range scan of the archive_by_guild index.
func (s *Store) GuildGames(ctx context.Context, guildID string, limit int) ([]*Archived, error) {
	return s.history(ctx, bucketArchiveGuild, "guild", guildID, time.Time{}, limit)
}

// GuildGamesBefore is GuildGames for the games finished strictly before t.
func (s *Store) GuildGamesBefore(ctx context.Context, guildID string, t time.Time, limit int) ([]*Archived, error) {
	return s.history(ctx, bucketArchiveGuild, "guild", guildID, t, limit)
}

// ChannelGames returns up to limit games finished in a channel (or thread,
// or DM), newest first, without their SGF, by a range scan of the
// archive_by_channel index.
func (s *Store) ChannelGames(ctx context.Context, channelID string, limit int) ([]*Archived, error) {
	return s.history(ctx, bucketArchiveChan, "channel", channelID, time.Time{}, limit)
}

// PlayerGamesPage returns a page of a player's finished games, newest
// first, without their SGF: those keep accepts (all when keep is nil),
// skipping the first offset of them and returning at most limit. total is
// how many games keep accepts in all, so that a caller can tell how many
// pages there are. Without keep, skipping and counting read index keys
// only; with it, every record up to the end is decoded for keep to judge.
// Undecodable records are skipped and reported as with PlayerGames.
func (s *Store) PlayerGamesPage(ctx context.Context, playerKey string, offset, limit int, keep func(*Archived) bool) (games []*Archived, total int, err error) {
	if err := checkID("player", playerKey); err != nil {
		return nil, 0, err
	}
	var bad []string
	err = s.view(ctx, func(tx *bolt.Tx) error {
		arch := tx.Bucket(bucketArchive)
		prefix := join(playerKey)
		c := tx.Bucket(bucketArchivePlayer).Cursor()
		k, _ := c.Seek(append([]byte(playerKey), 1))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
			if len(k) <= len(prefix)+8 {
				bad = append(bad, fmt.Sprintf("%q", k))
				continue
			}
			id := k[len(prefix)+8:]
			want := total >= offset && (limit <= 0 || len(games) < limit)
			if keep == nil && !want {
				total++
				continue
			}
			a, err := decodeArchive(arch.Get(id))
			if err != nil {
				bad = append(bad, string(id))
				continue
			}
			if keep != nil && !keep(a) {
				continue
			}
			if want {
				games = append(games, a)
			}
			total++
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if len(bad) > 0 {
		return games, total, fmt.Errorf("storage: player %s history: archived games %s: %w", playerKey, strings.Join(bad, ", "), ErrCorrupt)
	}
	return games, total, nil
}

// history walks an archive index backwards from before (zero: from the
// newest) and loads the archived records it names. Index entries whose
// record cannot be decoded are reported together in the error, after the
// games that could be read.
func (s *Store) history(ctx context.Context, index []byte, what, owner string, before time.Time, limit int) ([]*Archived, error) {
	if err := checkID(what, owner); err != nil {
		return nil, err
	}
	var out []*Archived
	var bad []string
	err := s.view(ctx, func(tx *bolt.Tx) error {
		arch := tx.Bucket(bucketArchive)
		prefix := join(owner)
		c := tx.Bucket(index).Cursor()
		var k []byte
		if before.IsZero() {
			// The first key past the prefix: owner followed by 0x01.
			end := append([]byte(owner), 1)
			k, _ = c.Seek(end)
		} else {
			k, _ = c.Seek(join(owner, timeKey(before)))
		}
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, _ = c.Prev() {
			if len(k) <= len(prefix)+8 {
				bad = append(bad, fmt.Sprintf("%q", k))
				continue
			}
			id := k[len(prefix)+8:]
			a, err := decodeArchive(arch.Get(id))
			if err != nil {
				bad = append(bad, string(id))
				continue
			}
			out = append(out, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("storage: %s %s history: archived games %s: %w", what, owner, strings.Join(bad, ", "), ErrCorrupt)
	}
	return out, nil
}

// GameReview returns the stored review of the archived game id, as
// PutGameReview stored it. It fails with ErrNotFound when the game has no
// review (or no such game is archived).
func (s *Store) GameReview(ctx context.Context, id string) ([]byte, error) {
	var data []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketArchiveReview).Get([]byte(id))
		if v == nil {
			return fmt.Errorf("storage: review of game %s: %w", id, ErrNotFound)
		}
		data = bytes.Clone(v)
		return nil
	})
	return data, err
}

// PutGameReview stores the review of the archived game id, replacing any
// earlier one. The review is opaque to the store (commands encodes it).
// It fails with ErrNotFound when no such game is archived and ErrInvalid
// for an empty review.
func (s *Store) PutGameReview(ctx context.Context, id string, review []byte) error {
	if len(review) == 0 {
		return fmt.Errorf("storage: review of game %s is empty: %w", id, ErrInvalid)
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketArchive).Get([]byte(id)) == nil {
			return fmt.Errorf("storage: review of game %s: %w", id, ErrNotFound)
		}
		return tx.Bucket(bucketArchiveReview).Put([]byte(id), review)
	})
}

// WinnerSide is Winner as a side: 0 when Black (the player in a.Black)
// won, 1 when White did, game.NoSide for a tie or no result.
func (a *Archived) WinnerSide() game.Side {
	switch a.Winner {
	case engine.Black:
		return 0
	case engine.White:
		return 1
	}
	return game.NoSide
}
