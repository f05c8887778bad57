package storage

import (
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
}

// SizeStats are a player's wins and losses on one board size.
type SizeStats struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	// Ties are the draws (jigo) counted since gobot counts them by size;
	// older ones are in PlayerStats.Ties only, until a recount.
	Ties int `json:"ties,omitempty"`
}

// PlayerStats returns a player's statistics (a Discord user ID, or
// Player.Key of a bot). It fails with ErrNotFound for a player who has
// finished no game.
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
		return nil
	})
	return st, err
}

// countGame adds an archived game to both players' statistics in tx.
// A record that cannot be decoded is started afresh rather than blocking
// every later game of that player. An annulled game is not counted.
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
		st.count(a, side, tie)
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

// count adds the archived game a, played as side, to st.
func (st *PlayerStats) count(a *Archived, side engine.Color, tie bool) {
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
