package engine

import (
	"math"
)

// Side is one player's part of a score.
type Side struct {
	Stones    int     `json:"stones"`    // stones on the board (area scoring)
	Territory int     `json:"territory"` // empty points surrounded
	Prisoners int     `json:"prisoners"` // stones captured during play (territory scoring)
	Dead      int     `json:"dead"`      // the opponent's dead stones taken off (territory scoring)
	Bonus     float64 `json:"bonus"`     // komi and handicap compensation
	Total     float64 `json:"total"`
}

// Score is a counted position.
type Score struct {
	Scoring Scoring `json:"scoring"`
	Black   Side    `json:"black"`
	White   Side    `json:"white"`
	Komi    float64 `json:"komi"`
	// HandicapBonus is White's compensation for handicap stones (area
	// scoring, per the rules' HandicapBonus).
	HandicapBonus float64 `json:"handicap_bonus"`
	Dame          int     `json:"dame"`
	Winner        Color   `json:"winner"` // Empty for a tie
	Margin        float64 `json:"margin"`
	// Owner gives, for each point (index Row*size+Col), who it counts for:
	// Black or White for stones and territory, Empty for neutral points.
	// Dead stones count for the side that surrounds them.
	Owner []Color `json:"-"`
}

// Result returns the score in SGF's notation: "B+3.5", "W+0.5" or "0".
func (s Score) Result() string {
	if s.Winner == Empty {
		return "0"
	}
	return s.Winner.Letter() + "+" + FormatKomi(s.Margin)
}

// String returns the result as players read it, "B+3.5" or "Jigo".
func (s Score) String() string {
	if s.Winner == Empty {
		return "Jigo"
	}
	return s.Result()
}

// ScoreBoard counts board b under rules with the given dead stones (points;
// stones at them are taken off as dead, the rest of their chains are not
// implied) and handicap stones count n. Area scoring counts stones plus
// empty regions reaching only one colour. Territory scoring counts
// surrounded points plus prisoners plus dead stones, and gives no points for
// eyes of stones in seki.
func ScoreBoard(b *Board, rules Rules, dead []Point, handicap int) Score {
	size := b.size
	work := *b
	deadBy := [3]int{}
	for _, p := range dead {
		if !p.Valid(size) {
			continue
		}
		if c := work.At(p); c == Black || c == White {
			deadBy[c]++
			work.color[work.Vertex(p)] = Empty // regions only: chains stay stale
		}
	}
	s := Score{Scoring: rules.Scoring, Komi: rules.Komi, Owner: make([]Color, size*size)}
	var seki [arrSize]bool
	if rules.Scoring == TerritoryScoring {
		seki = sekiChains(b, &work)
	}
	var seen [arrSize]bool
	stack := make([]int, 0, size*size)
	region := make([]int, 0, size*size)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			v := work.Vertex(Point{c, r})
			col := work.color[v]
			if col == Black || col == White {
				s.Owner[r*size+c] = col
				if col == Black {
					s.Black.Stones++
				} else {
					s.White.Stones++
				}
				continue
			}
			if seen[v] {
				continue
			}
			// Flood the empty region (dead stones count as empty).
			reach := [3]bool{}
			touchesSeki := false
			region = region[:0]
			stack = append(stack[:0], v)
			seen[v] = true
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				region = append(region, u)
				for _, n := range work.neighbours(u) {
					switch nc := work.color[n]; nc {
					case Empty:
						if !seen[n] {
							seen[n] = true
							stack = append(stack, n)
						}
					case Black, White:
						reach[nc] = true
						if seki[b.head[n]] {
							touchesSeki = true
						}
					}
				}
			}
			owner := Empty
			switch {
			case reach[Black] && !reach[White]:
				owner = Black
			case reach[White] && !reach[Black]:
				owner = White
			}
			if owner != Empty && rules.Scoring == TerritoryScoring && touchesSeki {
				owner = Empty
			}
			for _, u := range region {
				p := work.Point(u)
				s.Owner[p.Row*size+p.Col] = owner
			}
			switch owner {
			case Black:
				s.Black.Territory += len(region)
			case White:
				s.White.Territory += len(region)
			default:
				for _, u := range region {
					if b.color[u] == Empty {
						s.Dame++
					}
				}
			}
		}
	}
	// A dead stone inside a neutral region (which should not happen with a
	// sensible marking) is still a dead stone: its point is neutral.
	if rules.Scoring == TerritoryScoring {
		// Dead stones are empty points of the territory they sit in; the
		// counts above included them, as Japanese rules do.
		s.Black.Prisoners, s.White.Prisoners = b.caps[Black], b.caps[White]
		s.Black.Dead, s.White.Dead = deadBy[White], deadBy[Black]
		s.Black.Stones, s.White.Stones = 0, 0
		s.Black.Total = float64(s.Black.Territory + s.Black.Prisoners + s.Black.Dead)
		s.White.Bonus = rules.Komi
		s.White.Total = float64(s.White.Territory+s.White.Prisoners+s.White.Dead) + s.White.Bonus
	} else {
		s.HandicapBonus = rules.Handicap.Points(handicap)
		s.Black.Total = float64(s.Black.Stones + s.Black.Territory)
		s.White.Bonus = rules.Komi + s.HandicapBonus
		s.White.Total = float64(s.White.Stones+s.White.Territory) + s.White.Bonus
	}
	diff := s.Black.Total - s.White.Total
	switch {
	case diff > 0:
		s.Winner, s.Margin = Black, diff
	case diff < 0:
		s.Winner, s.Margin = White, -diff
	}
	s.Margin = math.Abs(s.Margin)
	return s
}

// sekiChains marks (by chain head in b) the chains that are in seki on the
// board work (b with dead stones removed): chains next to a shared liberty
// where neither side can play without putting its own stones in atari.
func sekiChains(b, work *Board) (seki [arrSize]bool) {
	for v := 0; v < b.Area(); v++ {
		if work.color[v] != Empty || b.color[v] != Empty {
			continue
		}
		var reach [4]bool
		for _, n := range work.neighbours(v) {
			reach[work.color[n]] = true
		}
		if !reach[Black] || !reach[White] {
			continue
		}
		if !sekiSelfAtari(b, v, Black) || !sekiSelfAtari(b, v, White) {
			continue
		}
		for _, n := range b.neighbours(v) {
			if c := b.color[n]; c == Black || c == White {
				seki[b.head[n]] = true
			}
		}
	}
	return seki
}

// sekiSelfAtari reports whether c playing at v on b is illegal, or captures
// nothing and leaves its own chain with at most one liberty.
func sekiSelfAtari(b *Board, v int, c Color) bool {
	if !b.Legal(v, c) {
		return true
	}
	if b.WouldCapture(v, c) {
		return false
	}
	cp := *b
	cp.Play(v, c)
	return cp.color[v] != c || cp.Liberties(v, 2) < 2
}
