package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// PlayerStats are a player's counts over finished games, kept up to date by
// FinishGame in the same transaction that archives the game, so reading
// them is one lookup.
type PlayerStats struct {
	Player   Player    `json:"player"` // with the name used in the latest game
	Games    int       `json:"games"`
	Wins     int       `json:"wins"`
	Losses   int       `json:"losses"`
	Ties     int       `json:"ties"`                // jigo
	NoResult int       `json:"no_result,omitempty"` // void games, and games against oneself
	First    time.Time `json:"first"`               // when the first game finished
	Last     time.Time `json:"last"`                // when the latest game finished
	// BySize counts wins and losses by board size; size 0 counts the
	// games of draughts (which have no Go board).
	BySize map[int]*SizeStats `json:"by_size,omitempty"`
	// Streak is the current run of results: +n for n wins in a row, -n
	// for n losses; a jigo or a game without result ends a run (0).
	Streak int `json:"streak,omitempty"`
	// Kinds are the same counts for each kind's games apart, by kind
	// ("go", "draughts"; their own Kinds nil): what a game's statistics
	// show (Kind). A record written before they were kept has none and
	// is recounted from the archive when it is read or counted in.
	Kinds map[string]*PlayerStats `json:"kinds,omitempty"`
}

// Kind returns the counts of the player's games of kind alone, nil when
// they have finished none.
func (st *PlayerStats) Kind(kind string) *PlayerStats { return st.Kinds[KindOf(kind)] }

// outdated reports whether st was written before the kinds were counted
// apart: it must be recounted from the archive (recountStats).
func (st *PlayerStats) outdated() bool { return st.Games > 0 && st.Kinds == nil }

// SizeStats are a player's wins and losses on one board size.
type SizeStats struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	// Ties are the draws (jigo) counted since gobot counts them by size;
	// older ones are in PlayerStats.Ties only, until a recount.
	Ties int `json:"ties,omitempty"`
}

// PlayerStats returns a player's statistics (a Discord user ID, or
// Player.Key of a bot), every kind's games together and each kind's apart
// (PlayerStats.Kind); a record written before the kinds were counted apart
// is recounted from the archive. It fails with ErrNotFound for a player
// who has finished no game.
func (s *Store) PlayerStats(ctx context.Context, playerKey string) (*PlayerStats, error) {
	var st *PlayerStats
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketPlayers).Get([]byte(playerKey))
		if v == nil {
			return fmt.Errorf("storage: player %s has no finished games: %w", playerKey, ErrNotFound)
		}
		st = new(PlayerStats)
		if err := json.Unmarshal(v, st); err != nil {
			return fmt.Errorf("storage: player %s statistics: %w: %w", playerKey, ErrCorrupt, err)
		}
		if st.outdated() {
			st = recountStats(playerKey, boltPlayerGames(tx, playerKey))
		}
		return nil
	})
	return st, err
}

// boltPlayerGames returns the archived games of the player with key in
// tx, in the order they finished; records that cannot be decoded are left
// out.
func boltPlayerGames(tx *bolt.Tx, key string) []*Archived {
	arch := tx.Bucket(bucketArchive)
	var games []*Archived
	prefix := join(key)
	c := tx.Bucket(bucketArchivePlayer).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) <= len(prefix)+8 {
			continue
		}
		if g, err := decodeArchive(arch.Get(k[len(prefix)+8:])); err == nil {
			games = append(games, g)
		}
	}
	return games
}

// countGame adds an archived game to both players' statistics in tx,
// after its entries in the players' history. A record that cannot be
// decoded is started afresh rather than blocking every later game of that
// player; one written before the kinds were counted apart is recounted
// from the history, this game included. An annulled game is not counted.
func countGame(tx *bolt.Tx, a *Archived, tie bool) error {
	if a.Annulled {
		return nil // recorded, never counted
	}
	b := tx.Bucket(bucketPlayers)
	for _, side := range countedSides(a) {
		p := a.Player(side)
		st := new(PlayerStats)
		if v := b.Get([]byte(p.Key())); v != nil {
			if err := json.Unmarshal(v, st); err != nil {
				st = new(PlayerStats)
			}
		}
		if st.outdated() {
			st = recountStats(p.Key(), boltPlayerGames(tx, p.Key()))
		} else {
			st.count(a, side, tie)
		}
		v, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if err := b.Put([]byte(p.Key()), v); err != nil {
			return err
		}
	}
	return nil
}

// countedSides returns the sides of a whose players' statistics the game
// counts for: both, or only Black in a game against oneself.
func countedSides(a *Archived) []engine.Color {
	if a.Black.Key() == a.White.Key() {
		return []engine.Color{engine.Black}
	}
	return []engine.Color{engine.Black, engine.White}
}

// Team returns the players of side s (0 is Black, 1 White, as
// WinnerSide): the whole team in a team game, else the one player.
func (a *Archived) Team(s game.Side) []Player {
	switch {
	case s == 0 && len(a.BlackTeam) > 0:
		return a.BlackTeam
	case s == 1 && len(a.WhiteTeam) > 0:
		return a.WhiteTeam
	case s == 1:
		return []Player{a.White}
	}
	return []Player{a.Black}
}

// GoSides returns a's players as a game of Go's sides, Black's first,
// each with its whole team.
func (a *Archived) GoSides() []Side {
	return []Side{{Players: a.Team(0)}, {Players: a.Team(1)}}
}

// PlayerKeys returns the keys of everyone who played a, each once, Black's
// first: the owners of its entries in the players' history index.
func (a *Archived) PlayerKeys() []string {
	var keys []string
	for s := range game.Side(2) {
		for _, p := range a.Team(s) {
			if k := p.Key(); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// SideOf returns the side that the player with key played in a (0 is
// Black, 1 White, as WinnerSide), and false when they did not play it.
func (a *Archived) SideOf(key string) (game.Side, bool) {
	for s := range game.Side(2) {
		if slices.ContainsFunc(a.Team(s), func(p Player) bool { return p.Key() == key }) {
			return s, true
		}
	}
	return game.NoSide, false
}

// Player returns the player of colour c.
func (a *Archived) Player(c engine.Color) Player {
	if c == engine.White {
		return a.White
	}
	return a.Black
}

// count adds the archived game a, played as side, to st and to its
// kind's counts.
func (st *PlayerStats) count(a *Archived, side engine.Color, tie bool) {
	if st.Kinds == nil {
		st.Kinds = map[string]*PlayerStats{}
	}
	kind := KindOf(a.Kind)
	if st.Kinds[kind] == nil {
		st.Kinds[kind] = new(PlayerStats)
	}
	st.Kinds[kind].countOne(a, side, tie)
	st.countOne(a, side, tie)
}

// countOne adds the archived game a, played as side, to st's own counts.
func (st *PlayerStats) countOne(a *Archived, side engine.Color, tie bool) {
	p := a.Player(side)
	if !a.FinishedAt.Before(st.Last) {
		st.Player = p // the name used most recently
	}
	st.Games++
	if st.BySize == nil {
		st.BySize = map[int]*SizeStats{}
	}
	size := st.BySize[a.Size]
	if size == nil {
		size = &SizeStats{}
		st.BySize[a.Size] = size
	}
	switch {
	case a.Black.Key() == a.White.Key():
		st.NoResult++
		st.Streak = 0
	case tie:
		st.Ties++
		size.Ties++
		st.Streak = 0
	case a.Winner == side:
		st.Wins++
		size.Wins++
		st.Streak = max(st.Streak, 0) + 1
	case a.Winner == side.Opponent():
		st.Losses++
		size.Losses++
		st.Streak = min(st.Streak, 0) - 1
	default:
		st.NoResult++
		st.Streak = 0
	}
	if st.First.IsZero() || a.FinishedAt.Before(st.First) {
		st.First = a.FinishedAt
	}
	if a.FinishedAt.After(st.Last) {
		st.Last = a.FinishedAt
	}
}
