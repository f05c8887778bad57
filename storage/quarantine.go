package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// Quarantined is a corrupt game record that QuarantineGame set aside: the
// bytes exactly as they were stored, for an operator (`gobot doctor`).
type Quarantined struct {
	ChannelID string
	At        time.Time // when it was set aside
	Record    []byte
	// Problem is why the record could not be read.
	Problem error

	kinds *game.Kinds // the store's, which Salvage replays with
}

// QuarantinedGames lists the records set aside by QuarantineGame, by
// channel and then time.
func (s *Store) QuarantinedGames(ctx context.Context) ([]Quarantined, error) {
	var out []Quarantined
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketQuarantine).ForEach(func(k, v []byte) error {
			ch, at, ok := bytes.Cut(k, []byte{0})
			if !ok || len(at) != 8 {
				return fmt.Errorf("storage: quarantine key %q: %w", k, ErrCorrupt)
			}
			q := Quarantined{ChannelID: string(ch), At: time.Unix(0, int64(binary.BigEndian.Uint64(at))).UTC(), Record: bytes.Clone(v)}
			out = append(out, q)
			return nil
		})
	})
	whyQuarantined(s.kinds, out)
	return out, err
}

// whyQuarantined sets each record's Problem, why it does not decode with
// kinds, and the kinds Salvage replays with.
func whyQuarantined(kinds *game.Kinds, qs []Quarantined) {
	for i := range qs {
		qs[i].kinds = kinds
		if _, err := decodeGame(kinds, qs[i].ChannelID, qs[i].Record); err != nil {
			qs[i].Problem = err
		}
	}
}

// Salvage rebuilds what it can of a quarantined game: the record's
// players, channel and times, and its moves up to the first that does not
// replay (a move on an occupied point, say). It returns the game and how
// many moves it left out. A record that is not even readable JSON, or
// whose configuration is damaged, cannot be salvaged (ErrCorrupt).
func (q Quarantined) Salvage() (*Game, int, error) {
	fail := func(err error) (*Game, int, error) {
		return nil, 0, &CorruptError{ChannelID: q.ChannelID, Err: err}
	}
	var r gameRecord
	if err := json.Unmarshal(q.Record, &r); err != nil {
		return fail(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r.Game, &fields); err != nil {
		return fail(err)
	}
	var moves []string
	if err := json.Unmarshal(fields["moves"], &moves); err != nil {
		return fail(fmt.Errorf("moves: %w", err))
	}
	// The longest prefix of the moves that replays, without the result
	// (it belongs to the whole game) and with the resumptions it holds.
	var resumes []int
	_, hasResumes := fields["resumes"]
	json.Unmarshal(fields["resumes"], &resumes)
	delete(fields, "result")
	var lastErr error
	for n := len(moves); n >= 0; n-- {
		fields["moves"], _ = json.Marshal(moves[:n])
		var keep []int
		for _, at := range resumes {
			if at <= n {
				keep = append(keep, at)
			}
		}
		if hasResumes {
			fields["resumes"], _ = json.Marshal(keep)
		}
		data, _ := json.Marshal(fields)
		kinds := q.kinds
		if kinds == nil {
			kinds = &game.Kinds{}
		}
		st, err := kinds.Decode(KindOf(r.Kind), data)
		if err != nil {
			if lastErr == nil {
				lastErr = err
			}
			continue
		}
		g := &Game{
			ID: r.ID, ChannelID: q.ChannelID, GuildID: r.GuildID, ParentChannelID: r.ParentChannelID,
			Kind: KindOf(r.Kind), Sides: legacySides(r.Sides, r.Black, r.White), State: st, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Version: r.Version,
			Ranks: r.Ranks,
		}
		return g, len(moves) - n, nil
	}
	return fail(errors.Join(errors.New("not even the set-up replays"), lastErr))
}
