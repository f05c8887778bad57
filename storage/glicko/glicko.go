package glicko

import (
	"fmt"
	"math"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// The system's constants.
const (
	// Initial is a new player's rating, InitialRD its deviation and
	// InitialVolatility its volatility.
	Initial           = 1500.0
	InitialRD         = 350.0
	InitialVolatility = 0.06
	// Tau constrains the change of volatility over time.
	Tau = 0.5
	// MaxRD caps the deviation: inactivity never makes a player less
	// known than a new one.
	MaxRD = InitialRD
	// MinRating keeps ratings positive, where the rank mapping is defined.
	MinRating = 100.0
	// ProvisionalRD is the deviation from which a rating is provisional:
	// its rank shows as "?" and it stays off leaderboards. (OGS's cut-off.)
	ProvisionalRD = 160.0
	// AgingPeriod is the length of the inactivity period by which the
	// deviation grows (Glickman's step 6 applied per period without a
	// game): a year without games takes a deviation of 60 back to about
	// 210. A game's own rating period already applies one step, so the
	// first period after a player's last game adds nothing.
	AgingPeriod = 24 * time.Hour

	scale      = 173.7178 // Glicko-2's scale: rating = scale·μ + 1500
	convergeEp = 1e-6     // convergence of the volatility iteration
)

// Rating is a player's rating, deviation and volatility.
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// New returns a new player's rating: 1500 ± 350, volatility 0.06.
func New() Rating { return Rating{Rating: Initial, RD: InitialRD, Volatility: InitialVolatility} }

// Provisional reports whether the deviation is too high for the rating to
// mean much (RD of ProvisionalRD or more).
func (r Rating) Provisional() bool { return r.RD >= ProvisionalRD }

// String writes "1662 ± 290 (?)", or "1712 ± 80 (4k)" once established.
func (r Rating) String() string {
	return fmt.Sprintf("%.0f ± %.0f (%s)", r.Rating, r.RD, Rank(r))
}

// Result is one game of a rating period: the opponent's rating as it
// stands for this game, and the score, 1 for a win, 0.5 for a draw, 0 for
// a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// Aged returns r after the time since the player's last game: the
// deviation grows as sqrt(φ² + σ²·t) over the t = since/AgingPeriod − 1
// periods without a game (none when negative), capped at MaxRD.
func Aged(r Rating, since time.Duration) Rating {
	t := float64(since)/float64(AgingPeriod) - 1
	if t <= 0 {
		return r
	}
	phi := r.RD / scale
	phi = math.Sqrt(phi*phi + t*r.Volatility*r.Volatility)
	r.RD = math.Min(MaxRD, phi*scale)
	return r
}

// Update applies one rating period to r: Glickman's steps 2 to 8 with the
// opponents' ratings as given. With no results only the deviation grows
// (step 6 alone).
func Update(r Rating, results []Result) Rating {
	mu := (r.Rating - Initial) / scale
	phi := r.RD / scale
	sigma := r.Volatility
	if len(results) == 0 {
		r.RD = math.Min(MaxRD, math.Sqrt(phi*phi+sigma*sigma)*scale)
		return r
	}

	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muJ := (res.Opponent.Rating - Initial) / scale
		phiJ := res.Opponent.RD / scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum

	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergeEp && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigmaNew := math.Exp(A / 2)

	// Steps 6 to 8.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{
		Rating:     math.Max(MinRating, muNew*scale+Initial),
		RD:         math.Min(MaxRD, phiNew*scale),
		Volatility: sigmaNew,
	}
}

// The rank mapping (OGS's): rank value = ln(rating/525)·23.15, where 0 is
// 30k, 29 is 1k and 30 is 1d. 1500 is about 6k.
const (
	rankBase  = 525.0
	rankScale = 23.15
)

// RankValue maps a rating to a rank value (0 = 30k, 30 = 1d).
func RankValue(rating float64) float64 { return math.Log(rating/rankBase) * rankScale }

// RatingOf maps a rank value back to a rating.
func RatingOf(rank float64) float64 { return rankBase * math.Exp(rank/rankScale) }

// Rank names a rating's rank: "30k" … "1k", "1d" … "9d" (clamped to that
// range), or "?" while the rating is provisional.
func Rank(r Rating) string {
	if r.Provisional() {
		return "?"
	}
	return RankName(r.Rating)
}

// RankName names the rank of a rating, clamped to 30k … 9d.
func RankName(rating float64) string {
	v := int(math.Floor(RankValue(rating)))
	v = max(0, min(v, 38))
	if v < 30 {
		return fmt.Sprintf("%dk", 30-v)
	}
	return fmt.Sprintf("%dd", v-29)
}

// Handicap and komi, as OGS treats them: Black's head start in points is
// the komi it does not have to give (against the ruleset's own komi, which
// is taken as fair), plus a free move for every handicap stone after the
// first, less White's handicap compensation under area scoring. A free
// move is worth PointsPerRank points, and is one rank on 19×19; on smaller
// boards the same head start is worth more ranks: three on 13×13, six on
// 9×9.
const (
	// PointsPerRank is the value of a free move (one rank on 19×19)
	// under territory scoring; area scoring counts the stone too (+1).
	PointsPerRank = 12.0
)

// HandicapRanks returns Black's effective rank advantage in a game of the
// given size, handicap and rules (rules.Komi the komi played): 0 for an
// even game at the ruleset's own komi, about one rank per handicap stone on
// 19×19.
func HandicapRanks(size, handicap int, rules engine.Rules) float64 {
	fair := rules.Komi
	if p, err := engine.Preset(rules.Name); err == nil {
		fair = p.Komi
	} else if rules.Scoring == engine.AreaScoring {
		fair = 7.5
	} else {
		fair = 6.5
	}
	perMove := PointsPerRank
	if rules.Scoring == engine.AreaScoring {
		perMove++
	}
	extra := 0
	if handicap > 1 {
		extra = handicap - 1
	}
	points := fair - rules.Komi + perMove*float64(extra)
	if handicap > 1 {
		points -= rules.Handicap.Points(handicap)
	}
	ranks := points / perMove
	switch {
	case size <= 9:
		ranks *= 6
	case size <= 13:
		ranks *= 3
	}
	return ranks
}

// MaxAdvantage is the largest head start, in ranks, that a rated game may
// give either player (HandicapRanks, in absolute value). One rank a
// handicap stone is the conversion measured on 19×19, from no stones to
// nine (nine stones at komi 0.5 are 7.8 to 8.5 ranks under the presets).
// On smaller boards the same free moves are scaled to more ranks (three
// times on 13×13, six times on 9×9), an extrapolation the model is held
// to only within the range the 19×19 scale covers; the half rank beyond
// nine lets every preset's two-stone 9×9 game in (8.3 to 9.2 ranks). At
// komi 0.5 that allows up to 9 stones on 19×19, 3 on 13×13 and 2 on 9×9
// under every preset (MaxRatedHandicap); a komi far from the ruleset's
// counts the same way.
const MaxAdvantage = 9.5

// MaxRatedHandicap returns the most handicap stones a rated game of the
// given size may have at the usual komi 0.5 (MaxAdvantage): 9 on 19×19
// (and boards above 13×13), 3 on 13×13 (and boards above 9×9), 2 on 9×9
// and smaller boards.
func MaxRatedHandicap(size int) int {
	switch {
	case size <= 9:
		return 2
	case size <= 13:
		return 3
	}
	return 9
}

// AtRank returns the rating a player of a known rank starts from: the
// middle of the rank (kyu 30 to 1, so 30 is the 30k rank, whose ratings run
// from 525 to 548), with a deviation of spread ranks at that rating (a
// rank is rating/23.15 rating points wide there, so 23 points at 30k and
// 65 at 6k), and the initial volatility.
func AtRank(kyu int, spread float64) Rating {
	return Around(RatingOf(float64(30-kyu)+0.5), spread)
}

// Around returns the rating a player placed at rating starts from, with
// the deviation AtRank gives there: spread ranks at that rating, and the
// initial volatility. It places players whose strength is known as a
// rating rather than a rank (the draughts bots).
func Around(rating, spread float64) Rating {
	return Rating{Rating: rating, RD: math.Min(MaxRD, spread*rating/rankScale), Volatility: InitialVolatility}
}

// Shifted returns r with its rating moved by ranks in the rank domain
// (where a handicap is symmetric; ratings are logarithmic in ranks).
func Shifted(r Rating, ranks float64) Rating {
	if ranks == 0 {
		return r
	}
	r.Rating = RatingOf(RankValue(r.Rating) + ranks)
	return r
}

// Game rates one game between black and white (their ratings aged to the
// game's time), with Black's effective rank advantage adv (HandicapRanks)
// and Black's score (1, 0.5 or 0). Each player's period sees the
// opponent's rating shifted by the advantage: White faces a Black stronger
// by adv ranks, Black a White weaker by adv ranks. With an advantage, no
// rating moves further than an even game between the same two players
// could move it (see Reach): a handicap the model misjudges costs or earns
// no more than the worst surprise of an even game. The deviation and the
// volatility are the handicap game's.
func Game(black, white Rating, adv, blackScore float64) (newBlack, newWhite Rating) {
	newBlack = Update(black, []Result{{Opponent: Shifted(white, -adv), Score: blackScore}})
	newWhite = Update(white, []Result{{Opponent: Shifted(black, adv), Score: 1 - blackScore}})
	if adv != 0 {
		newBlack = capped(black, newBlack, Reach(black, white))
		newWhite = capped(white, newWhite, Reach(white, black))
	}
	return newBlack, newWhite
}

// Reach returns the most one even game against opponent can move r: the
// larger of what a win gains and what a loss costs.
func Reach(r, opponent Rating) float64 {
	win := Update(r, []Result{{Opponent: opponent, Score: 1}}).Rating - r.Rating
	loss := r.Rating - Update(r, []Result{{Opponent: opponent, Score: 0}}).Rating
	return math.Max(win, loss)
}

// capped returns after with its rating moved from before's by at most
// reach either way.
func capped(before, after Rating, reach float64) Rating {
	after.Rating = before.Rating + math.Max(-reach, math.Min(reach, after.Rating-before.Rating))
	return after
}

// GamesToEstablish returns how many rated games a new player needs before
// the rating stops being provisional when every game tells the model as
// much as a game can: two new players who win in turn are established
// after this many games each (7). Results against much weaker or
// stronger opponents tell less, so a run of wins against one weak
// opponent can leave a player provisional for ever (21 straight wins
// against the same new player end at 1893 ± 181).
func GamesToEstablish() int {
	x, y := New(), New()
	for n := 1; ; n++ {
		x, y = Game(x, y, 0, float64(n%2))
		if !x.Provisional() {
			return n
		}
	}
}
