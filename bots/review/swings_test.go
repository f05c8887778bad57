package review

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// reviewOf returns a review of len(wr)-1 moves, Black's and White's in
// turn, with Black's chances wr; the positions listed in counted are
// counted.
func reviewOf(wr []float64, counted ...int) *Review {
	r := &Review{}
	for i, w := range wr {
		r.Positions = append(r.Positions, Position{Winrate: w, Counted: slices.Contains(counted, i)})
		if i > 0 {
			c := engine.Black
			if i%2 == 0 {
				c = engine.White
			}
			r.Moves = append(r.Moves, Played{Color: c, Move: "E5"})
		}
	}
	return r
}

func TestReviewSwings(t *testing.T) {
	tests := []struct {
		name    string
		wr      []float64
		counted []int
		want    []int
	}{
		{"noise is no swing", []float64{0.49, 0.49}, nil, nil},
		{"small changes only", []float64{0.5, 0.5, 0.49, 0.52, 0.5, 0.45, 0.47}, nil, nil},
		{"a big one among small ones", []float64{0.5, 0.52, 0.3, 0.31, 0.3}, nil, []int{2}},
		// The search's 81% turned into the count's 100%: the game did
		// not turn there.
		{"into a count that confirms", []float64{0.5, 0.56, 0.64, 0.72, 0.81, 1}, []int{5}, nil},
		{"into a count that confirms, after a real turn", []float64{0.5, 0.2, 0.7, 0.81, 1}, []int{4}, []int{2, 1}},
		// The count gives the game to the side the search saw losing.
		{"into a count that turns", []float64{0.5, 0.55, 0.6, 0.65, 0}, []int{4}, []int{4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reviewOf(tt.wr, tt.counted...).Swings(3); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Swings(3) = %v, want %v", got, tt.want)
			}
		})
	}
}
