package storage

import (
	"slices"
	"testing"
	"time"
)

// TestVoteCounts: a person's latest ballot is their vote; the most voted
// move comes first, and of moves with as many votes the one that has held
// that count the longest.
func TestVoteCounts(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	b := func(user, move string, s int) Ballot {
		return Ballot{UserID: user, Name: "u" + user, Move: move, At: t0.Add(time.Duration(s) * time.Second)}
	}
	for _, tt := range []struct {
		name    string
		ballots []Ballot
		order   []string
		counts  map[string]int
	}{
		{"none", nil, nil, map[string]int{}},
		{"most votes", []Ballot{b("1", "D4", 1), b("2", "C3", 2), b("3", "C3", 3)}, []string{"C3", "D4"}, map[string]int{"C3": 2, "D4": 1}},
		{"a tie goes to the first to reach the count", []Ballot{b("1", "D4", 1), b("2", "C3", 2), b("3", "C3", 3), b("4", "D4", 4)}, []string{"C3", "D4"}, map[string]int{"C3": 2, "D4": 2}},
		{"a changed vote", []Ballot{b("1", "D4", 1), b("2", "D4", 2), b("3", "C3", 3), b("1", "C3", 4)}, []string{"C3", "D4"}, map[string]int{"C3": 2, "D4": 1}},
		// D4 had 1 vote from ballot 1 on, C3 reached 1 at ballot 3: D4 first.
		// E5 has had 2 votes since ballot 4; F5 had 2 at ballot 3, lost one
		// at ballot 5 and reached 2 again only at ballot 6: E5 first.
		{"a count lost and won back", []Ballot{b("1", "E5", 1), b("2", "F5", 2), b("3", "F5", 3), b("4", "E5", 4), b("3", "G6", 5), b("5", "F5", 6)}, []string{"E5", "F5", "G6"}, map[string]int{"E5": 2, "F5": 2, "G6": 1}},
		{"a withdrawn lead", []Ballot{b("1", "D4", 1), b("2", "D4", 2), b("3", "C3", 3), b("2", "pass", 4)}, []string{"D4", "C3", "pass"}, map[string]int{"D4": 1, "C3": 1, "pass": 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := &Vote{Ballots: tt.ballots}
			counts, order := v.Counts()
			if !slices.Equal(order, tt.order) || len(counts) != len(tt.counts) {
				t.Fatalf("Counts() = %v, %v; want %v, %v", counts, order, tt.counts, tt.order)
			}
			for m, n := range tt.counts {
				if counts[m] != n {
					t.Errorf("counts[%s] = %d, want %d", m, counts[m], n)
				}
			}
		})
	}
	v := &Vote{Ballots: []Ballot{b("1", "D4", 1), b("2", "C3", 2), b("3", "D4", 3), b("1", "C3", 4)}}
	if got := v.Voters("C3"); !slices.Equal(got, []string{"u1", "u2"}) {
		t.Errorf("Voters(C3) = %v, want [u1 u2]", got)
	}
	if got := v.Voters("D4"); !slices.Equal(got, []string{"u3"}) {
		t.Errorf("Voters(D4) = %v, want [u3]", got)
	}
}
