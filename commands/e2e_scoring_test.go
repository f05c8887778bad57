package commands_test

// End-to-end tests of the scoring proposal: after two passes, the dead
// stones gobot proposes and the result it shows, announces and archives are
// those of its own GTP engine (final_status_list dead, final_score) for the
// same moves, in games between people and against a bot, on 9×9 and 19×19.
// Then the scoring phase itself: marking dead stones, its timeout, and a
// scoring phase that survives a restart. The harness is in
// e2e_harness_test.go.

import (
	"bufio"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/storage"
)

// gtpVerdict asks gobot's GTP engine (gtp.Serve, as `gobot gtp`
// runs it) for the dead stones and the score after moves (both colours in
// turn from Black, "pass" included) on a size×size board with komi 7.5,
// the default rules' komi.
func gtpVerdict(t *testing.T, size int, moves []string) (dead []string, score string) {
	t.Helper()
	var in strings.Builder
	fmt.Fprintf(&in, "boardsize %d\nclear_board\nkomi 7.5\n", size)
	for i, mv := range moves {
		color := "b"
		if i%2 == 1 {
			color = "w"
		}
		fmt.Fprintf(&in, "play %s %s\n", color, mv)
	}
	in.WriteString("final_status_list dead\nfinal_score\n")
	var out strings.Builder
	if err := gtp.Serve(context.Background(), strings.NewReader(in.String()), &out, gtp.ServerOptions{Seed: 1}); err != nil {
		t.Fatalf("gtp.Serve: %v", err)
	}
	// Responses are "= answer" (possibly several lines) ending with an
	// empty line; the last two are the ones asked for.
	var answers []string
	var cur []string
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			answers = append(answers, strings.Join(cur, "\n"))
			cur = nil
			continue
		}
		if strings.HasPrefix(line, "?") {
			t.Fatalf("GTP refused a command: %q\ninput:\n%s", line, in.String())
		}
		cur = append(cur, strings.TrimSpace(strings.TrimPrefix(line, "=")))
	}
	if len(answers) < 2 {
		t.Fatalf("GTP gave %d answers: %q", len(answers), out.String())
	}
	dead = strings.Fields(answers[len(answers)-2])
	slices.SortFunc(dead, func(a, b string) int { return comparePoints(t, size, a, b) })
	return dead, answers[len(answers)-1]
}

// comparePoints orders points as gobot lists them: by row from 1, then by
// column.
func comparePoints(t *testing.T, size int, a, b string) int {
	pa, err := engine.ParsePoint(a, size)
	if err != nil {
		t.Fatalf("GTP point %q: %v", a, err)
	}
	pb, err := engine.ParsePoint(b, size)
	if err != nil {
		t.Fatalf("GTP point %q: %v", b, err)
	}
	if pa.Row != pb.Row {
		return pa.Row - pb.Row
	}
	return pa.Col - pb.Col
}

// interleave makes a game's moves from each side's list, Black first; a
// side whose list has run out passes. Two passes in a row end it.
func interleave(black, white []string) []string {
	var moves []string
	for i := 0; i < len(black) || i < len(white); i++ {
		for _, side := range [][]string{black, white} {
			if i < len(side) {
				moves = append(moves, side[i])
			} else {
				moves = append(moves, "pass")
			}
		}
	}
	for n := len(moves); n < 2 || moves[n-1] != "pass" || moves[n-2] != "pass"; n = len(moves) {
		moves = append(moves, "pass")
	}
	return moves
}

// walls returns the points of the given rows, each from column A to the
// board's edge, followed by extra points.
func walls(size int, rows []int, extra ...string) []string {
	var out []string
	for _, row := range rows {
		for col := 0; col < size; col++ {
			out = append(out, engine.Point{Col: col, Row: row - 1}.String())
		}
	}
	return append(out, extra...)
}

// scoringCase is a finished position and what gobot must propose for it.
type scoringCase struct {
	name   string
	size   int
	moves  []string // both colours from Black, ending with two passes
	dead   []string // the dead stones, sorted as gobot lists them
	result string   // e.g. "B+73.5"
}

func scoringCases() []scoringCase {
	return []scoringCase{
		{
			// The example of issue 10: Black walls off row 5, White's
			// lone stone at E2 is dead. Black has the whole board (81)
			// against 7.5 komi.
			name: "9x9 E2 dead", size: 9,
			moves: []string{
				"A5", "E2", "B5", "pass", "C5", "pass", "D5", "pass", "E5", "pass",
				"F5", "pass", "G5", "pass", "H5", "pass", "J5", "pass", "pass",
			},
			dead:   []string{"E2"},
			result: "B+73.5",
		},
		{
			// Black's wall on row 5, White's on row 6; two dead white
			// stones below, two dead black stones above. Black 45, White
			// 36 + 7.5: the dead stones decide the game.
			name: "9x9 four dead groups", size: 9,
			moves:  interleave(walls(9, []int{5}, "E8", "H8"), walls(9, []int{6}, "E2", "B3")),
			dead:   []string{"E2", "B3", "E8", "H8"},
			result: "B+1.5",
		},
		{
			// Black's B9 C9 B8 connect at D9 (White there is captured at
			// E9): alive, though the playouts gave them to White once
			// (W+31.5). Black 14 stones and 31 points, White 23 and 12,
			// A9 neutral.
			name: "9x9 connection under a throw-in", size: 9,
			moves: interleave(
				[]string{"D3", "E3", "F3", "G3", "H3", "J3", "D4", "D5", "D6", "D7", "D8", "B9", "C9", "B8"},
				[]string{"A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2", "J2", "A3", "B3", "C3", "A4", "C4",
					"A5", "B5", "C5", "A6", "C6", "B7", "C7", "A8", "C8"}),
			result: "B+2.5",
		},
		{
			// 19×19: Black walls off rows 1–4 (wall on row 4), White holds
			// the rest (wall on row 5). Dead white D2, K2 and Q2 below; up
			// in White's area two small white boxes each hold dead black
			// stones, D14 and the two stones P15–Q15. Black 4 rows of 19 =
			// 76, White 15 rows = 285 + 7.5.
			name: "19x19 five dead groups", size: 19,
			moves: interleave(
				walls(19, []int{4}, "D14", "P15", "Q15"),
				walls(19, []int{5}, "D13", "E13", "D16", "E16", "C14", "C15", "F14", "F15",
					"P13", "Q13", "P16", "Q16", "O14", "O15", "R14", "R15", "D2", "K2", "Q2")),
			dead:   []string{"D2", "K2", "Q2", "D14", "P15", "Q15"},
			result: "W+216.5",
		},
	}
}

// playWhite plays White's moves of a script (its odd entries) as u, the
// scripted bot playing Black's; the last answer is returned.
func (e *env) playWhite(ch *discordtest.Channel, u discordtest.User, moves []string) discordtest.Message {
	e.t.Helper()
	var last discordtest.Message
	for i := 1; i < len(moves); i += 2 {
		it := e.play(ch, u, moves[i])
		if moves[i] == "pass" {
			it = e.slash(ch, u, "pass")
		}
		if last = e.do(it); last.Ephemeral {
			e.t.Fatalf("move %d %s refused: %q", i, moves[i], last.Text())
		}
	}
	return last
}

// scriptedBotGame starts a game in a new guild channel in which dave plays
// White against the scripted bot (Black), through c's moves to the scoring
// phase; it returns the channel, dave and dave's last board.
func (e *env) scriptedBotGame(c scoringCase) (*discordtest.Channel, discordtest.User, discordtest.Message) {
	e.t.Helper()
	e.players.setScript(c.moves)
	ch := e.d.GuildChannel("general")
	dave := e.d.NewUser("dave")
	start := e.do(e.slash(ch, dave, "bot", discordtest.Str("level", "scripted"), discordtest.Int("size", c.size), discordtest.Str("color", "white")))
	if start.Ephemeral {
		e.t.Fatalf("/go bot refused: %q", start.Text())
	}
	return ch, dave, e.playWhite(ch, dave, c.moves)
}

// checkGTPAgrees checks the case against gobot's GTP engine.
func checkGTPAgrees(t *testing.T, c scoringCase) {
	t.Helper()
	dead, score := gtpVerdict(t, c.size, c.moves)
	if !slices.Equal(dead, c.dead) {
		t.Errorf("GTP final_status_list dead = %v, want %v", dead, c.dead)
	}
	if score != c.result {
		t.Errorf("GTP final_score = %q, want %q", score, c.result)
	}
}

// checkScored checks the scoring phase gobot started in ch: the proposal,
// and the count in the message.
func (e *env) checkProposal(c scoringCase, chID string, m discordtest.Message) {
	e.t.Helper()
	g := e.game(chID)
	if g == nil || g.Scoring == nil {
		e.t.Fatalf("not in the scoring phase after two passes")
	}
	var got []string
	for _, p := range g.Scoring.Dead {
		got = append(got, p)
	}
	if !slices.Equal(got, c.dead) {
		e.t.Errorf("proposed dead stones %v, want %v", got, c.dead)
	}
	if want := "Result: " + c.result; !strings.Contains(m.Text(), want) {
		e.t.Errorf("scoring message = %q, want it to say %q", m.Text(), want)
	}
	if strings.Contains(m.Text(), "does not accept") {
		e.t.Errorf("the bot refuses its own proposal: %q", m.Text())
	}
}

// checkFinal checks the message that ends a game by counting and the
// archived record.
func (e *env) checkFinal(c scoringCase, gameID string, final discordtest.Message) {
	e.t.Helper()
	for _, want := range []string{"Game over", "Result: " + c.result} {
		if !strings.Contains(final.Text(), want) {
			e.t.Errorf("final message = %q, want it to say %q", final.Text(), want)
		}
	}
	a, err := e.store.ArchivedGame(context.Background(), gameID)
	if err != nil {
		e.t.Fatalf("ArchivedGame: %v", err)
	}
	if a.Result != c.result {
		e.t.Errorf("archived result %q, want %q", a.Result, c.result)
	}
	if want := "RE[" + c.result + "]"; !strings.Contains(string(a.SGF), want) {
		e.t.Errorf("archived SGF has no %s: %s", want, a.SGF)
	}
}

// startGame has black challenge white on a size×size board and white accept.
func (e *env) startGame(ch *discordtest.Channel, black, white discordtest.User, size int) {
	e.t.Helper()
	msg := e.newChallenge(e.slash(ch, black, "challenge", discordtest.UserOpt("opponent", white), discordtest.Int("size", size), discordtest.Str("color", "black")))
	if msg.Ephemeral {
		e.t.Fatalf("challenge refused: %q", msg.Text())
	}
	e.do(e.click(white, msg, "accept"))
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
}

// TestE2EScoringProposal: two people play to the end; after two passes
// gobot proposes exactly the dead stones its GTP engine finds, shows the
// GTP score, and when both accept, announces and archives it.
func TestE2EScoringProposal(t *testing.T) {
	t.Parallel()
	for _, c := range scoringCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkGTPAgrees(t, c)
			e := newEnv(t)
			ch := e.d.GuildChannel("general")
			alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
			e.startGame(ch, alice, bob, c.size)
			last := e.playOut(ch, alice, bob, c.moves)
			e.checkProposal(c, ch.ID, last)
			id := e.game(ch.ID).ID
			after := e.do(e.click(alice, last, "accept"))
			final := e.do(e.click(bob, after, "accept"))
			e.checkFinal(c, id, final)
			winner, loser := alice, bob
			if strings.HasPrefix(c.result, "W") {
				winner, loser = bob, alice
			}
			if want := "1500 → 1662 (+162)"; !strings.Contains(final.Text(), "<@"+winner.ID+"> "+want) || !strings.Contains(final.Text(), "<@"+loser.ID+"> 1500 → 1338 (−162)") {
				t.Errorf("final message %q does not show the winner at %s", final.Text(), want)
			}
		})
	}
}

// TestE2EScoringProposalBot: the same against a bot (it plays Black from
// the script): the bot has accepted the correct proposal, and the player's
// Accept ends the game with the GTP result.
func TestE2EScoringProposalBot(t *testing.T) {
	t.Parallel()
	for _, c := range scoringCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ch, dave, last := e.scriptedBotGame(c)
			g := e.game(ch.ID)
			if g == nil || g.Scoring == nil {
				t.Fatalf("not in the scoring phase after the script")
			}
			if !g.Scoring.Accepted[engine.SideOf(engine.Black)] {
				t.Errorf("the bot has not accepted its own proposal")
			}
			e.checkProposal(c, ch.ID, last)
			final := e.do(e.click(dave, last, "accept"))
			e.checkFinal(c, g.ID, final)
		})
	}
}

// TestE2EBotDisagrees: a player marks alive a group the bot's estimate
// holds dead for sure: the answer names every stone the toggle revived
// (the group at the point given first), the bot withdraws its acceptance
// and names every group it disputes, the one given first; marking it
// back, it accepts again. (The bot once named only the first group from
// the bottom row, as if it accepted the others alive.)
func TestE2EBotDisagrees(t *testing.T) {
	t.Parallel()
	c := scoringCases()[1]
	e := newEnv(t)
	ch, dave, _ := e.scriptedBotGame(c)
	// E2 brings B3 back with it (they share Black's area), which then
	// counts as nobody's: Black 9 stones; White 11 stones + 27 territory
	// + 7.5 komi. Either point revives both, its own named first.
	for _, tt := range []struct{ point, stones string }{{"E2", "E2 and B3"}, {"B3", "B3 and E2"}} {
		m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", tt.point)))
		for _, want := range []string{
			"\n" + dave.Mention() + " marked the 2 white stones at " + tt.stones + " **alive**.\n",
			"\ngobot does not accept this marking: it sees the 2 white stones at " + tt.stones + " as dead (marked alive). Mark them back, or press **Resume play** to settle them on the board.\n",
			"Result: W+36.5",
		} {
			if !strings.Contains(m.Text(), want) {
				t.Errorf("after marking %s alive: %q, want it to say %q", tt.point, m.Text(), want)
			}
		}
		if g := e.game(ch.ID); g.Scoring.Accepted[engine.SideOf(engine.Black)] {
			t.Errorf("the bot accepts a marking with %s alive", tt.stones)
		}
		m = e.do(e.slash(ch, dave, "dead", discordtest.Str("point", tt.point)))
		if want := "\n" + dave.Mention() + " marked the 2 white stones at " + tt.stones + " **dead**.\n"; !strings.Contains(m.Text(), want) {
			t.Errorf("after marking %s dead again: %q, want it to say %q", tt.point, m.Text(), want)
		}
		if strings.Contains(m.Text(), "does not accept") || !e.game(ch.ID).Scoring.Accepted[engine.SideOf(engine.Black)] {
			t.Errorf("after marking %s dead again the bot does not accept: %q", tt.point, m.Text())
		}
	}
	// Dave gives up a living group of his own: a marking in the bot's
	// favour, which it accepts as a player would.
	g := e.game(ch.ID)
	own := engine.Point{Col: -1}
	for i := range goOf(g).Size() * goOf(g).Size() {
		p := engine.Point{Col: i % goOf(g).Size(), Row: i / goOf(g).Size()}
		if goOf(g).Board().At(p) == engine.White && !slices.Contains(g.Scoring.Dead, p.String()) {
			own = p
			break
		}
	}
	if own.Col < 0 {
		t.Fatal("no living white stone in the position")
	}
	m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", own.String())))
	if m.Ephemeral || strings.Contains(m.Text(), "does not accept") || !e.game(ch.ID).Scoring.Accepted[engine.SideOf(engine.Black)] {
		t.Errorf("after dave marks his own %s dead the bot does not accept: %q", own, m.Text())
	}
}

// unsettledWall is the game of engine's "unsettled wall" diagram (below),
// played out to two passes: the white wall's status is uncertain to the
// estimate.
func unsettledWall() []string {
	return interleave(
		[]string{"C9", "C8", "C7", "C6", "C5", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "J4", "G8", "H7"},
		[]string{"D9", "D8", "D7", "D6", "D5", "E5", "F5", "G5", "H5", "J5", "B2"})
}

// TestE2EBotAcceptsUncertain: the bot accepts a marking that differs from
// its proposal only in a group its estimate flagged as uncertain (the white
// wall of engine's "unsettled wall" diagram, which GNU Go calls dead).
//
//	9 . . X O . . . . .
//	8 . . X O . . X . .
//	7 . . X O . . . X .
//	6 . . X O . . . . .
//	5 . . X O O O O O O
//	4 . X X X X X X X X
//	3 . . . . . . . . .
//	2 . O . . . . . . .
//	1 . . . . . . . . .
//	  A B C D E F G H J
func TestE2EBotAcceptsUncertain(t *testing.T) {
	t.Parallel()
	moves := unsettledWall()
	e := newEnv(t)
	e.players.setScript(moves)
	ch := e.d.GuildChannel("general")
	dave := e.d.NewUser("dave")
	e.do(e.slash(ch, dave, "bot", discordtest.Str("level", "scripted"), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	last := e.playWhite(ch, dave, moves)
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase")
	}
	if !strings.Contains(last.Text(), "Please check") || !strings.Contains(last.Text(), "D9") {
		t.Fatalf("the proposal does not flag the white wall as uncertain: %q", last.Text())
	}
	if !g.Scoring.Accepted[engine.SideOf(engine.Black)] {
		t.Fatalf("the bot has not accepted its proposal")
	}
	m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", "D9")))
	if m.Ephemeral {
		t.Fatalf("/go dead D9 refused: %q", m.Text())
	}
	g = e.game(ch.ID)
	if !g.Scoring.Accepted[engine.SideOf(engine.Black)] || strings.Contains(m.Text(), "does not accept") {
		t.Errorf("the bot does not accept the wall it was unsure of marked dead: %q", m.Text())
	}
	if len(g.Scoring.Dead) != 11 {
		t.Errorf("%d stones marked dead, want 11 (the wall and B2)", len(g.Scoring.Dead))
	}
	// The whole board is Black's now: 81 against 7.5.
	final := e.do(e.click(dave, m, "accept"))
	if !strings.Contains(final.Text(), "Result: B+73.5") {
		t.Errorf("final message %q, want B+73.5", final.Text())
	}
}

// TestE2EDeadStones: in the scoring phase a player marks a group dead; the
// marking changes, the old Accept button becomes stale, and both accept
// the new one.
func TestE2EDeadStones(t *testing.T) { httpMode(t, testE2EDeadStones) }

func testE2EDeadStones(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	// Black walls off the left; a lone white stone sits inside.
	moves := []string{"D1", "B8", "D2", "pass", "D3", "pass", "D4", "pass", "D5", "pass", "D6", "pass", "D7", "pass", "D8", "pass", "D9", "pass", "pass"}
	e.playOut(ch, alice, bob, moves)
	scoring := e.do(e.slash(ch, bob, "pass"))
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase after two passes")
	}
	deadBefore := len(g.Scoring.Dead)
	marked := e.do(e.slash(ch, alice, "dead", discordtest.Str("point", "B8")))
	if marked.Ephemeral {
		t.Fatalf("/go dead B8 refused: %q", marked.Text())
	}
	g = e.game(ch.ID)
	if len(g.Scoring.Dead) == deadBefore {
		t.Fatalf("/go dead B8 did not change the marking (%d dead)", len(g.Scoring.Dead))
	}
	e.refused(e.slash(ch, alice, "dead", discordtest.Str("point", "F5")), "no stone")
	if _, ok := scoring.Button("accept"); ok {
		e.refused(e.d.Click(bob, scoring, mustButton(t, scoring, "accept").CustomID), "changed")
	}
	latest := e.board(ch.ID)
	e.do(e.click(alice, latest, "accept"))
	e.do(e.click(bob, latest, "accept"))
	e.d.WaitFor("the game to end", func() bool { return e.game(ch.ID) == nil })
}

// oneStoneToScoring plays black's E5 in ch's game, then bob and alice
// pass: it returns the scoring phase's message and the game in it.
func (e *env) oneStoneToScoring(ch *discordtest.Channel, alice, bob discordtest.User) (discordtest.Message, *storage.Game) {
	e.t.Helper()
	e.do(e.play(ch, alice, "E5"))
	e.do(e.slash(ch, bob, "pass"))
	scoring := e.do(e.slash(ch, alice, "pass"))
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		e.t.Fatalf("not in the scoring phase")
	}
	return scoring, g
}

// TestE2EScoringTimeout: when the players do not agree on the dead stones
// in time, the sweep ends the game with the marking as it stands.
func TestE2EScoringTimeout(t *testing.T) { httpMode(t, testE2EScoringTimeout) }

func testE2EScoringTimeout(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	scoring, g := e.oneStoneToScoring(ch, alice, bob)
	if !strings.Contains(scoring.Text(), "The marking stands <t:") {
		t.Errorf("scoring message %q does not say when the marking stands", scoring.Text())
	}
	a := e.scoringTimesOut(t, ch.ID, g.ID)
	if !strings.HasPrefix(a.Result, "B+") {
		t.Errorf("result %q, want a black win (one stone and the whole board against 7.5 komi)", a.Result)
	}
	e.waitBoard(ch.ID, "ran out: the current marking stands.")
}

// TestE2EScoringTimeoutLiveClock: a game on a live clock (blitz) whose
// players passed and left is counted 5 minutes later, not after
// GOBOT_SCORING_TTL (a day), and its channel is free for the next game; a
// /go dead change sets the same shorter deadline. A correspondence game,
// or one with no clock, still waits the whole GOBOT_SCORING_TTL, its
// channel taken.
func TestE2EScoringTimeoutLiveClock(t *testing.T) {
	for _, c := range []struct {
		clock string
		live  bool
	}{{"blitz", true}, {"correspondence", false}, {"none", false}} {
		t.Run(c.clock, func(t *testing.T) {
			httpMode(t, func(t *testing.T, e *env) {
				ch, alice, bob := e.guildGame(discordtest.Str("clock", c.clock))
				scoring, g := e.oneStoneToScoring(ch, alice, bob)
				ttl := commands.DefaultScoringTTL
				if c.live {
					ttl = 5 * time.Minute
				}
				stands := func(m discordtest.Message) {
					t.Helper()
					if want := fmt.Sprintf("The marking stands <t:%d:R> if nobody changes it", e.clock.Now().Add(ttl).Unix()); !strings.Contains(m.Text(), want) {
						t.Errorf("scoring message %q, want it to say %q", m.Text(), want)
					}
				}
				stands(scoring)
				// Two minutes on (over a restart, which lets the work
				// after the pass finish first), marking E5 dead and alive
				// again leaves the marking as it was, with a new deadline
				// as far off.
				e.clock.Advance(2 * time.Minute)
				e.restart()
				if m := e.do(e.slash(ch, bob, "dead", discordtest.Str("point", "E5"))); !strings.Contains(m.Text(), "E5 **dead**") {
					t.Fatalf("/go dead E5: %q", m.Text())
				}
				stands(e.do(e.slash(ch, bob, "dead", discordtest.Str("point", "E5"))))
				e.clock.Advance(5*time.Minute + time.Second)
				e.restart() // the sweep runs at start (and every minute)
				carol := e.d.NewUser("carol")
				if !c.live {
					e.refused(e.slash(ch, carol, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)), "A game is already running in this channel.")
					if g := e.game(ch.ID); g == nil || g.Scoring == nil {
						t.Fatalf("the %s game's count stood %v after its scoring phase began, want %v", c.clock, 7*time.Minute+time.Second, ttl)
					}
					return
				}
				e.d.WaitFor("the scoring phase to time out", func() bool { return e.game(ch.ID) == nil })
				a, err := e.store.ArchivedGame(context.Background(), g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(a.Result, "B+") {
					t.Errorf("result %q, want a black win (one stone and the whole board against 7.5 komi)", a.Result)
				}
				e.waitBoard(ch.ID, "Time for agreeing on the dead stones ran out: the current marking stands.")
				if m := e.newChallenge(e.slash(ch, carol, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9))); m.Ephemeral {
					t.Errorf("a challenge in the channel after the count stood: %q, want it posted", m.Text())
				}
			})
		})
	}
}

// scoringTimesOut lets the scoring deadline of the game in channelID pass
// and returns the game as archived by the sweep.
func (e *env) scoringTimesOut(t *testing.T, channelID, gameID string) *storage.Archived {
	t.Helper()
	e.clock.Advance(commands.DefaultScoringTTL + time.Minute)
	e.restart() // the sweep runs at start (and every minute)
	e.d.WaitFor("the scoring phase to time out", func() bool { return e.game(channelID) == nil })
	a, err := e.store.ArchivedGame(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestE2EScoringTimeoutLastChange: Bob marks Alice's living stone dead and
// waits out the deadline: as Alice never accepted that marking, which goes
// against the estimate, the proposal counts (B+73.5, not W+7.5). Had Alice
// accepted it, it would stand.
func TestE2EScoringTimeoutLastChange(t *testing.T) {
	for _, aliceAccepts := range []bool{false, true} {
		t.Run(fmt.Sprintf("alice accepts %v", aliceAccepts), func(t *testing.T) {
			httpMode(t, func(t *testing.T, e *env) {
				ch, alice, bob := e.guildGame()
				e.do(e.play(ch, alice, "E5"))
				e.do(e.slash(ch, bob, "pass"))
				e.do(e.slash(ch, alice, "pass"))
				g := e.game(ch.ID)
				if g == nil || g.Scoring == nil || len(g.Scoring.Dead) != 0 {
					t.Fatalf("not in the scoring phase with E5 alive")
				}
				m := e.do(e.slash(ch, bob, "dead", discordtest.Str("point", "E5")))
				if !strings.Contains(m.Text(), "Result: W+7.5") {
					t.Fatalf("after marking E5 dead: %q", m.Text())
				}
				if aliceAccepts {
					e.do(e.click(alice, m, "accept"))
				}
				a := e.scoringTimesOut(t, ch.ID, g.ID)
				want, note := "B+73.5", "Time for agreeing on the dead stones ran out, and ⚫ "+alice.Mention()+" had not accepted a marking that went against my estimate: my proposed marking counts."
				if aliceAccepts {
					want, note = "W+7.5", "Time for agreeing on the dead stones ran out: the current marking stands."
				}
				if a.Result != want {
					t.Errorf("result %s, want %s", a.Result, want)
				}
				e.waitBoard(ch.ID, note)
				// The count of the finished game says how its dead
				// stones were settled: nobody agreed on them.
				how := "the dead stones I proposed: time for agreeing on them ran out while the marking went against my estimate and the player it cost had not accepted it"
				if aliceAccepts {
					how = "the dead stones marked when time for agreeing on them ran out"
				}
				est := e.do(e.slash(ch, alice, "estimate", discordtest.Str("game", g.ID)))
				if want := "Score of ⚫ alice vs ⚪ bob after move 3: **" + want + "**, counted with " + how + " (area counting, komi included). " +
					"The shading shows who owns each point; the dead stones are crossed out."; strings.TrimSpace(est.Text()) != want {
					t.Errorf("/go estimate of the game =\n%s\nwant\n%s", est.Text(), want)
				}
			})
		})
	}
}

// TestE2EScoringTimeoutBotRefused: a player marks the bot's living wall
// dead, the bot refuses the marking, and nobody changes it before the
// deadline: the game is scored with the bot's own marking (the estimate,
// B+73.5), not the refused one, and the scoring board said so beforehand.
func TestE2EScoringTimeoutBotRefused(t *testing.T) { httpMode(t, testE2EScoringTimeoutBotRefused) }

func testE2EScoringTimeoutBotRefused(t *testing.T, e *env) {
	c := scoringCases()[0]
	ch, dave, _ := e.scriptedBotGame(c)
	m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", "E5")))
	if want := "gobot does not accept this marking: it sees the 9 black stones at"; !strings.Contains(m.Text(), want) {
		t.Fatalf("after marking the black wall dead: %q, want %q", m.Text(), want)
	}
	if want := "If gobot still does not accept the marking then, the game is scored with gobot's own marking."; !strings.Contains(m.Text(), want) || strings.Contains(m.Text(), "The marking stands") {
		t.Errorf("scoring message %q, want it to say %q and not that the marking stands", m.Text(), want)
	}
	e.do(e.click(dave, m, "accept"))
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil || g.Scoring.Accepted[engine.SideOf(engine.Black)] {
		t.Fatalf("the bot accepted the marking of its wall as dead, or the game ended")
	}
	e.scoringTimesOut(t, ch.ID, g.ID)
	final := e.waitBoard(ch.ID, "ran out")
	if want := "Time for agreeing on the dead stones ran out and gobot did not accept the marking: gobot's own marking counts."; !strings.Contains(final.Text(), want) {
		t.Errorf("final message %q, want it to say %q", final.Text(), want)
	}
	e.checkFinal(c, g.ID, final)
}

// TestE2EScoringResume: moves typed loosely are read; after two passes a
// player resumes play instead of accepting, and the game goes on.
func TestE2EScoringResume(t *testing.T) { httpMode(t, testE2EScoringResume) }

func testE2EScoringResume(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	for i, mv := range []string{"e5", " C3 ", "pass", "PASS"} {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("move %q refused: %q", mv, m.Text())
		}
	}
	g := e.game(ch.ID)
	if g.State.MoveCount() != 4 || at(g, "E5") != engine.Black || at(g, "C3") != engine.White || g.Scoring == nil {
		t.Fatalf("after e5, C3, pass, pass: %d moves, scoring %v", g.State.MoveCount(), g.Scoring != nil)
	}
	scoring := e.board(ch.ID)
	e.refused(e.d.Click(e.d.NewUser("carol"), scoring, mustButton(t, scoring, "resume").CustomID), "not playing")
	if m := e.do(e.click(bob, scoring, "resume")); m.Ephemeral {
		t.Fatalf("resume refused: %q", m.Text())
	}
	g = e.game(ch.ID)
	if g.Scoring != nil || goOf(g).ToPlay() != engine.Black {
		t.Fatalf("after resuming: scoring %v, %v to play; want play on with black", g.Scoring != nil, goOf(g).ToPlay())
	}
	e.refused(e.d.Click(alice, scoring, mustButton(t, scoring, "accept").CustomID), "resumed")
	if m := e.do(e.play(ch, alice, "G7")); m.Ephemeral {
		t.Errorf("a move after resuming was refused: %q", m.Text())
	}
	// Two passes more: a new scoring phase with the same marking (no dead
	// stones). The first phase's Accept is still refused: it showed
	// another position.
	for i, who := range []discordtest.User{bob, alice} {
		if m := e.do(e.play(ch, who, "pass")); m.Ephemeral {
			t.Fatalf("pass %d refused: %q", i+1, m.Text())
		}
	}
	if g = e.game(ch.ID); g.Scoring == nil || len(g.Scoring.Dead) != 0 {
		t.Fatalf("after G7, pass, pass: scoring %+v, want a phase with no dead stones", g.Scoring)
	}
	e.refused(e.d.Click(alice, scoring, mustButton(t, scoring, "accept").CustomID), "This count is out of date (dead stones were marked, or play went on, after this board): check the newest one and accept that.")
	if g = e.game(ch.ID); g.Scoring.Accepted[engine.SideOf(engine.Black)] {
		t.Errorf("the old board's Accept accepted the new count")
	}
	if m := e.do(e.click(alice, e.board(ch.ID), "accept")); m.Ephemeral {
		t.Errorf("the newest board's Accept was refused: %q", m.Text())
	}
}

// TestE2EBotDisagreesOneStone: when gobot disputes a single stone, its
// answer speaks of it in the singular: "Mark it back", not "them".
func TestE2EBotDisagreesOneStone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, dave, _ := e.scriptedBotGame(scoringCase{size: 9, moves: []string{"E5", "pass", "pass"}}) // gobot's one stone, then both pass
	if g := e.game(ch.ID); g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase")
	}
	m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", "E5")))
	want := "\ngobot does not accept this marking: it sees the black stone at E5 as alive (marked dead). Mark it back, or press **Resume play** to settle it on the board.\n"
	if !strings.Contains(m.Text(), want) {
		t.Errorf("after marking gobot's one stone dead: %q, want it to say %q", m.Text(), want)
	}
}

// TestE2EBotDisagreesToggledFirst: when gobot disputes stones of both
// colours, the answer names the group just toggled first, whichever its
// colour: after dave marks the bot's wall dead, the wall comes before his
// own stone it sees dead.
func TestE2EBotDisagreesToggledFirst(t *testing.T) {
	t.Parallel()
	// Black (the bot) walls column D, White column F; White's B2 inside
	// Black's area is dead.
	var moves []string
	for row := 1; row <= 9; row++ {
		moves = append(moves, fmt.Sprintf("D%d", row), fmt.Sprintf("F%d", row))
	}
	moves = append(moves, "pass", "B2", "pass", "pass")
	e := newEnv(t)
	ch, dave, _ := e.scriptedBotGame(scoringCase{size: 9, moves: moves})
	if g := e.game(ch.ID); g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase")
	}
	m := e.do(e.slash(ch, dave, "dead", discordtest.Str("point", "B2")))
	if want := "gobot does not accept this marking: it sees the white stone at B2 as dead (marked alive). Mark it back"; !strings.Contains(m.Text(), want) {
		t.Fatalf("after marking B2 alive: %q, want %q", m.Text(), want)
	}
	m = e.do(e.slash(ch, dave, "dead", discordtest.Str("point", "D5")))
	want := "gobot does not accept this marking: it sees the 9 black stones at D1 D2 D3 D4 D5 D6 D7 D8 D9 as alive (marked dead), and the white stone at B2 as dead (marked alive). Mark them back"
	if !strings.Contains(m.Text(), want) {
		t.Errorf("after marking the wall dead: %q, want %q", m.Text(), want)
	}
}

// TestE2EUncertainOnEveryBoard: the groups the estimate left alive without
// being sure of them (the white wall of TestE2EBotAcceptsUncertain) are
// named on every board of the scoring phase while they are alive (after
// one player's Accept, on /go board, on the board page), and no longer
// once marked dead, on Discord and on the page alike. Before, the board
// after an Accept dropped the warning and the page kept it after the
// stones were marked dead.
func TestE2EUncertainOnEveryBoard(t *testing.T) {
	t.Parallel()
	moves := unsettledWall()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.startGame(ch, alice, bob, 9)
	last := e.playOut(ch, alice, bob, moves)
	const check = "⚠️ Please check D5 E5 F5 G5 H5 J5 D6 D7 D8 D9: I left them alive without being sure."
	if !strings.Contains(last.Text(), check) {
		t.Fatalf("the first count board = %q, want %q", last.Text(), check)
	}
	page := func() string {
		t.Helper()
		v, err := e.app.View(context.Background(), ch.ID)
		if err != nil || v.Scoring == nil {
			t.Fatalf("View in the scoring phase = %+v, %v", v, err)
		}
		return v.Scoring.Check
	}
	if got := page(); got != check {
		t.Errorf("the page's warning = %q, want %q", got, check)
	}
	accepted := e.do(e.click(alice, last, "accept"))
	if !strings.Contains(accepted.Text(), "accepted the marking") || !strings.Contains(accepted.Text(), check) {
		t.Errorf("the board after alice's Accept = %q, want it to say %q", accepted.Text(), check)
	}
	if m := e.do(e.slash(ch, bob, "board")); !strings.Contains(m.Text(), check) {
		t.Errorf("/go board in the scoring phase = %q, want it to say %q", m.Text(), check)
	}
	marked := e.do(e.slash(ch, bob, "dead", discordtest.Str("point", "D9")))
	if marked.Ephemeral || strings.Contains(marked.Text(), "Please check") {
		t.Errorf("the board after the wall was marked dead = %q, want no warning", marked.Text())
	}
	if got := page(); got != "" {
		t.Errorf("the page's warning after the wall was marked dead = %q, want none", got)
	}
	if m := e.do(e.slash(ch, alice, "board")); strings.Contains(m.Text(), "Please check") {
		t.Errorf("/go board after the wall was marked dead = %q, want no warning", m.Text())
	}
}

// TestE2EScoringTimeoutUncertain: the white wall of the unsettled wall,
// which the estimate leaves alive without being sure (GNU Go calls it
// dead). Marked dead by alice, who accepts, while bob never does: when
// time runs out the proposal counts, the wall alive, for the marking went
// against bob, who never agreed to it. Marked dead by bob himself, it was
// his to give: the marking stands, though he never pressed Accept.
func TestE2EScoringTimeoutUncertain(t *testing.T) {
	for _, byOwner := range []bool{false, true} {
		t.Run(fmt.Sprintf("marked by its owner %v", byOwner), func(t *testing.T) {
			httpMode(t, func(t *testing.T, e *env) {
				ch := e.d.GuildChannel("general")
				alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
				e.startGame(ch, alice, bob, 9)
				if last := e.playOut(ch, alice, bob, unsettledWall()); !strings.Contains(last.Text(), "⚠️ Please check D5 E5 F5 G5 H5 J5 D6 D7 D8 D9") {
					t.Fatalf("the count = %q, want the white wall flagged", last.Text())
				}
				g := e.game(ch.ID)
				marker := alice
				if byOwner {
					marker = bob
				}
				marked := e.do(e.slash(ch, marker, "dead", discordtest.Str("point", "D9")))
				if !strings.Contains(marked.Text(), "marked the 10 white stones") {
					t.Fatalf("marking the wall dead: %q", marked.Text())
				}
				e.do(e.click(alice, marked, "accept"))
				a := e.scoringTimesOut(t, ch.ID, g.ID)
				// The wall alive: B+35.5; dead: B+73.5.
				want, note := "B+35.5", "had not accepted a marking that went against my estimate: my proposed marking counts."
				if byOwner {
					want, note = "B+73.5", "Time for agreeing on the dead stones ran out: the current marking stands."
				}
				if a.Result != want {
					t.Errorf("result %s, want %s", a.Result, want)
				}
				e.waitBoard(ch.ID, note)
			})
		})
	}
}
