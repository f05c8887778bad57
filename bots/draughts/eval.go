package draughts

import (
	"math/bits"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Weights are the terms of the evaluation, in hundredths of a man: a man
// is worth 100. The zero Weights but King count material only.
type Weights struct {
	// King is a king's worth; about three men.
	King int
	// Tempo is paid per row a man has advanced, doubled once half the
	// men are gone and doubled again below a quarter, when advancing to
	// crown is most of the game.
	Tempo int
	// Centre is paid per man on 22–24 or 27–29, NearCentre per man on the
	// ring around them (17–19, 32–34).
	Centre, NearCentre int
	// Balance is paid per man of difference between a side's men on the
	// left and on the right half of the board (a penalty).
	Balance int
	// Outpost is paid for a man on the fifth row (22–25 for White, 26–29
	// for Black) held by two men behind it.
	Outpost int
	// Back is paid per man on its own back row while 24 or more men are on
	// the board: they keep the opponent from crowning.
	Back int
	// Runaway is paid for a man with a free path to the crowning row (no
	// piece in the triangle in front of it), by the rows left: Runaway[1]
	// one row from crowning, up to Runaway[3]. Halved when the opponent
	// has a king, which may still catch it.
	Runaway [4]int
	// KingMobility is paid per empty square a king can reach;
	// KingDiagonal for a king on the long diagonal (5–46).
	KingMobility, KingDiagonal int
}

// DefaultWeights are the weights of the search levels.
var DefaultWeights = Weights{
	King:         300,
	Tempo:        2,
	Centre:       6,
	NearCentre:   3,
	Balance:      3,
	Outpost:      8,
	Back:         4,
	Runaway:      [4]int{0, 120, 70, 40},
	KingMobility: 2,
	KingDiagonal: 15,
}

// MaterialWeights count material only: the greedy level's.
var MaterialWeights = Weights{King: 300}

// Evaluate returns the value of p for the side to move, in hundredths of
// a man, with the weights w: material, tempo, balance, centre and
// outposts, runaway men and the kings' mobility. It does not look at
// captures: the search plays them out first.
func Evaluate(p *draughts.Position, w *Weights) int {
	wm, bm := uint64(p.Men(draughts.White)), uint64(p.Men(draughts.Black))
	wk, bk := uint64(p.Kings(draughts.White)), uint64(p.Kings(draughts.Black))
	nwm, nbm := bits.OnesCount64(wm), bits.OnesCount64(bm)
	nwk, nbk := bits.OnesCount64(wk), bits.OnesCount64(bk)
	score := 100*(nwm-nbm) + w.King*(nwk-nbk)
	if nwk+nbk > 0 {
		score = drawish(score, nwm, nwk, nbm, nbk)
	}
	men := nwm + nbm
	occupied := wm | bm | wk | bk
	if w.Tempo != 0 {
		t := w.Tempo
		if men <= 20 {
			t *= 2
		}
		if men <= 10 {
			t *= 2
		}
		score += t * (tempo(wm, draughts.White) - tempo(bm, draughts.Black))
	}
	score += w.Centre * (bits.OnesCount64(wm&centre) - bits.OnesCount64(bm&centre))
	score += w.NearCentre * (bits.OnesCount64(wm&nearCentre) - bits.OnesCount64(bm&nearCentre))
	if w.Balance != 0 {
		score -= w.Balance * (abs(bits.OnesCount64(wm&leftHalf)-bits.OnesCount64(wm&^leftHalf)) -
			abs(bits.OnesCount64(bm&leftHalf)-bits.OnesCount64(bm&^leftHalf)))
	}
	if w.Back != 0 && men >= 24 {
		score += w.Back * (bits.OnesCount64(wm&backRow[draughts.White]) - bits.OnesCount64(bm&backRow[draughts.Black]))
	}
	if w.Outpost != 0 {
		score += w.Outpost * (outposts(wm, draughts.White) - outposts(bm, draughts.Black))
	}
	if w.Runaway != [4]int{} {
		score += runaways(wm, draughts.White, occupied, bk != 0, w) - runaways(bm, draughts.Black, occupied, wk != 0, w)
	}
	if wk|bk != 0 && (w.KingMobility != 0 || w.KingDiagonal != 0) {
		score += kingTerms(wk, occupied, w) - kingTerms(bk, occupied, w)
	}
	if p.Turn() == draughts.Black {
		return -score
	}
	return score
}

// drawish scales down a score that material alone cannot win: a lone king
// against three pieces or fewer (the 16- and 5-move rules, and no more
// than a draw in most such endings), or a lone king each.
func drawish(score, nwm, nwk, nbm, nbk int) int {
	loneW := nwm == 0 && nwk == 1
	loneB := nbm == 0 && nbk == 1
	switch {
	case loneB && nwk > 0 && nwm+nwk <= 3, loneW && nbk > 0 && nbm+nbk <= 3:
		return score / 16
	case loneW && loneB:
		return 0
	}
	return score
}

// tempo returns the rows the men have advanced, summed.
func tempo(men uint64, c draughts.Color) int {
	t := &tempoBits[c]
	return bits.OnesCount64(men&t[0]) + 2*bits.OnesCount64(men&t[1]) +
		4*bits.OnesCount64(men&t[2]) + 8*bits.OnesCount64(men&t[3])
}

// outposts counts the men on the fifth row held by two men behind.
func outposts(men uint64, c draughts.Color) int {
	row := rowMask[4]
	if c == draughts.Black {
		row = rowMask[5]
	}
	n := 0
	for b := men & row; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		if bh := behind[c][i]; bits.OnesCount64(bh) == 2 && men&bh == bh {
			n++
		}
	}
	return n
}

// runaways values the men of colour c within three rows of crowning whose
// way there is empty.
func runaways(men uint64, c draughts.Color, occupied uint64, theyHaveKing bool, w *Weights) int {
	near := rowMask[1] | rowMask[2] | rowMask[3]
	if c == draughts.Black {
		near = rowMask[6] | rowMask[7] | rowMask[8]
	}
	v := 0
	for b := men & near; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		if cone[c][i]&occupied != 0 {
			continue
		}
		left := 9 - advance(c, i)
		r := w.Runaway[left]
		if theyHaveKing {
			r /= 2
		}
		v += r
	}
	return v
}

// kingTerms values kings: the empty squares each reaches, and the long
// diagonal.
func kingTerms(kings, occupied uint64, w *Weights) int {
	v := w.KingDiagonal * bits.OnesCount64(kings&mainDiagonal)
	if w.KingMobility == 0 {
		return v
	}
	n := 0
	for b := kings; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for d := 0; d < 4; d++ {
			for j := step[i][d]; j >= 0 && occupied>>uint(j)&1 == 0; j = step[j][d] {
				n++
			}
		}
	}
	return v + w.KingMobility*n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
