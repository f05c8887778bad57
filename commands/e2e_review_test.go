package commands_test

// End-to-end tests of /go review, /go sgf review:true and /go estimate.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/engine"
)

// reviewMoves is the start of a 9×9 game, alice Black and bob White, that
// bob resigns after it.
var reviewMoves = []string{"E5", "E4", "D4", "D5", "C5", "F5", "E6", "D6"}

// progressEdits returns the contents of the edits of interaction it's
// original response that show a review's progress.
func progressEdits(e *env, it *discordtest.Interaction) []string {
	var out []string
	for _, c := range e.d.Calls() {
		if c.Method != "PATCH" || !strings.Contains(c.Path, "/messages/@original") || !strings.Contains(c.Path, it.Token) {
			continue
		}
		body, _ := c.Body.(map[string]any)
		if s, _ := body["content"].(string); strings.HasPrefix(s, "Reviewing move") || strings.HasPrefix(s, "Waiting for a free engine") {
			out = append(out, s)
		}
	}
	return out
}

// reviewed sends a /go review and returns its answer once the review is
// done: its deferred response is edited with the progress first.
func (e *env) reviewed(it *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	m := e.do(it)
	if m.Ephemeral {
		return m
	}
	e.d.WaitFor("the review", func() bool {
		m, _ = e.d.Original(it)
		return strings.HasPrefix(m.Content, "Review of")
	})
	return m
}

// storedReview reads the review stored for game id.
func (e *env) storedReview(id string) review.Review {
	e.t.Helper()
	data, err := e.store.GameReview(context.Background(), id)
	if err != nil {
		e.t.Fatalf("the review of %s was not stored: %v", id, err)
	}
	var rv review.Review
	if err := json.Unmarshal(data, &rv); err != nil {
		e.t.Fatal(err)
	}
	return rv
}

func TestE2EReview(t *testing.T) { httpMode(t, testE2EReview) }

func testE2EReview(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.refused(e.slash(ch, carol, "review"), "No game has been played to the end in this channel yet")
	e.startGame(ch, alice, bob, 9)
	id := e.game(ch.ID).ID
	e.playOut(ch, alice, bob, reviewMoves)
	if m := e.do(e.slash(ch, bob, "resign")); m.Ephemeral {
		t.Fatalf("resign refused: %q", m.Text())
	}
	e.refused(e.slash(ch, carol, "sgf", discordtest.Bool("review", true)), "has not been reviewed yet")

	// carol, who watched, asks for the review of the last game here.
	it := e.slash(ch, carol, "review")
	answer := e.reviewed(it)
	if answer.Ephemeral || !strings.Contains(answer.Text(), "Review of ⚫ alice vs ⚪ bob, 9×9, B+R, 8 moves: in the thread <#") {
		t.Fatalf("/go review answered %q", answer.Text())
	}
	edits := progressEdits(e, it)
	if len(edits) == 0 || edits[0] != "Reviewing move 0 of 8… `░░░░░░░░░░░░░░░░░░░░` 0%" {
		t.Errorf("progress edits = %q, want the first to be the empty progress bar", edits)
	}

	rv := e.storedReview(id)
	if len(rv.Positions) != 9 || len(rv.Moves) != 8 || len(rv.Mistakes) == 0 || rv.Summary.Winner != engine.Black {
		t.Fatalf("stored review: %d positions, %d moves, %d mistakes, winner %v", len(rv.Positions), len(rv.Moves), len(rv.Mistakes), rv.Summary.Winner)
	}

	// The thread holds the summary with the graph, then each player's
	// mistakes, one board each with its line.
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the review's", len(threads))
	}
	msgs := e.d.Messages(threads[0].ID)
	if len(msgs) < 2 {
		t.Fatalf("%d messages in the review thread, want the summary and the mistakes", len(msgs))
	}
	graph, ok := msgs[0].PNG()
	if !ok || !strings.Contains(graph.Description, "Win-rate graph of 8 moves") || !strings.Contains(msgs[0].Text(), rv.Paragraph()) {
		t.Errorf("first message in the thread = %q (graph %q), want the summary and the win-rate graph", msgs[0].Text(), graph.Description)
	}
	var boards, alts []string
	for _, m := range msgs[1:] {
		for _, a := range m.Attachments {
			boards, alts = append(boards, a.Filename), append(alts, a.Description)
		}
	}
	// Each board names the move it answers, marked as the last move.
	answering := 0
	for i, m := range rv.Mistakes {
		if m.Number < 2 || i >= len(alts) {
			continue
		}
		answering++
		side := "White"
		if m.Color == engine.White {
			side = "Black"
		}
		if want := "answering " + side + " " + reviewMoves[m.Number-2] + " (marked as the last move)"; !strings.Contains(alts[i], want) {
			t.Errorf("board of move %d: %q, want it to say %q", m.Number, alts[i], want)
		}
	}
	if answering == 0 {
		t.Errorf("no mistake board answers a move (mistakes %+v)", rv.Mistakes)
	}
	var want []string
	for _, m := range rv.Mistakes {
		want = append(want, "review-"+id+"-move"+itoa(m.Number)+".png")
		stone, side := "⚫", "Black"
		if m.Color == engine.White {
			stone, side = "⚪", "White"
		}
		// The points lost come first; the chance, when it fell, is the
		// mover's, and the line says whose.
		line := "Move " + itoa(m.Number) + " · " + stone + " " + m.Move + " · " + fmt.Sprintf("%.0f", m.Loss) + " points lost"
		if math.Round(100*m.After) < math.Round(100*m.Before) {
			line += ", " + side + "'s winning chance "
		}
		found := false
		for _, msg := range msgs[1:] {
			found = found || strings.Contains(msg.Text(), line) && strings.Contains(msg.Text(), "better: "+m.Best)
		}
		if !found {
			t.Errorf("no line %q…better: %s in the thread", line, m.Best)
		}
	}
	if !slices.Equal(boards, want) {
		t.Errorf("mistake boards %v, want %v", boards, want)
	}

	// A second request is served from the archive: no progress, the same
	// review, pointing to the thread it is in rather than repeating it in
	// another.
	it2 := e.slash(ch, alice, "review", discordtest.Str("game", id))
	again := e.reviewed(it2)
	if !strings.Contains(again.Text(), "Review of ⚫ alice vs ⚪ bob, 9×9, B+R, 8 moves: in the thread <#"+threads[0].ID+">.") || len(progressEdits(e, it2)) != 0 {
		t.Errorf("second /go review answered %q with progress %q, want the stored review's thread at once", again.Text(), progressEdits(e, it2))
	}
	if n := len(e.d.Threads(ch.ID)); n != 1 {
		t.Errorf("%d threads after the second review, want the first one only", n)
	}

	// The record with the review: comments and variations, and the main
	// line unchanged.
	sgf := e.do(e.slash(ch, carol, "sgf", discordtest.Bool("review", true)))
	if len(sgf.Attachments) != 1 {
		t.Fatalf("/go sgf review:true attached %d files: %q", len(sgf.Attachments), sgf.Text())
	}
	rec := string(sgf.Attachments[0].Data)
	g, _, err := engine.ParseSGF(sgf.Attachments[0].Data)
	if err != nil {
		t.Fatalf("the reviewed SGF does not parse: %v\n%s", err, rec)
	}
	var played []string
	for _, m := range g.Moves() {
		played = append(played, m.String())
	}
	if !slices.Equal(played, reviewMoves) {
		t.Errorf("reviewed SGF main line %v, want %v", played, reviewMoves)
	}
	if !strings.Contains(rec, "C[Black's winning chance: ") || !strings.Contains(rec, "Mistake: Move ") || strings.Count(rec, "(;") < 1+len(rv.Mistakes) {
		t.Errorf("reviewed SGF lacks comments or variations:\n%s", rec)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestE2EReviewFallback: where no thread can be started (a DM), the review
// is one message with every picture.
func TestE2EReviewFallback(t *testing.T) { httpMode(t, testE2EReviewFallback) }

func testE2EReviewFallback(t *testing.T, e *env) {
	dm, alice, bob := e.privateChannel()
	e.startGame(dm, alice, bob, 9)
	id := e.game(dm.ID).ID
	e.playOut(dm, alice, bob, reviewMoves)
	e.do(e.slash(dm, bob, "resign"))
	m := e.reviewed(e.slash(dm, alice, "review"))
	if m.Ephemeral || !strings.Contains(m.Text(), "Review of ⚫ alice vs ⚪ bob") {
		t.Fatalf("/go review answered %q", m.Text())
	}
	if n := len(m.Attachments); n < 2 || n > 10 || len(m.Embeds) != n {
		t.Errorf("one-message review has %d pictures and %d embeds, want the graph and the mistakes, each shown", n, len(m.Embeds))
	}
	// Asked for on a server, the private game's review is shown to alice
	// alone, in one message: no thread its people could read.
	ch := e.d.GuildChannel("general")
	m = e.reviewed(e.slash(ch, alice, "review", discordtest.Str("game", id)))
	if !m.Ephemeral || !strings.Contains(m.Text(), "Review of ⚫ alice vs ⚪ bob") || len(m.Attachments) < 2 || len(e.d.Threads(ch.ID)) != 0 {
		t.Errorf("the DM game's review on a server: %q (ephemeral %v, %d pictures, %d threads), want it to alice alone, in one message", m.Text(), m.Ephemeral, len(m.Attachments), len(e.d.Threads(ch.ID)))
	}
}

func TestE2EEstimate(t *testing.T) { httpMode(t, testE2EEstimate) }

func testE2EEstimate(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.startGame(ch, alice, bob, 9)
	id := e.game(ch.ID).ID
	e.playOut(ch, alice, bob, reviewMoves[:4])

	// A player of a rated game is refused; a spectator gets the estimate,
	// for their eyes only.
	e.refused(e.slash(ch, alice, "estimate"), "Fair play: the players of a rated game cannot see a score estimate while it is played")
	m := e.do(e.slash(ch, carol, "estimate"))
	if !m.Ephemeral || m.VisibleTo != carol.ID {
		t.Errorf("the spectator's estimate is not private to them: ephemeral %v, visible to %q", m.Ephemeral, m.VisibleTo)
	}
	png, ok := m.PNG()
	if !ok || !strings.Contains(m.Text(), "Score estimate of ⚫ alice vs ⚪ bob after move 4: **") ||
		!strings.Contains(png.Description, "Ownership estimate of the 9×9 board after move 4") {
		t.Errorf("estimate = %q (picture %q)", m.Text(), png.Description)
	}

	// After the game the players may ask too, and it is public.
	e.do(e.slash(ch, bob, "resign"))
	after := e.do(e.slash(ch, alice, "estimate"))
	if after.Ephemeral || !strings.Contains(after.Text(), "Score estimate of ⚫ alice vs ⚪ bob, B+R after move 4") {
		t.Errorf("estimate after the game = %q (ephemeral %v)", after.Text(), after.Ephemeral)
	}
	if _, err := e.store.ArchivedGame(context.Background(), id); err != nil {
		t.Errorf("the game was not archived: %v", err)
	}

	// In an unrated game the players may ask while it is played.
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9),
		discordtest.Str("color", "black"), discordtest.Bool("rated", false)))
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the unrated game to start", func() bool { return e.game(ch.ID) != nil })
	e.playOut(ch, alice, bob, reviewMoves[:2])
	unrated := e.do(e.slash(ch, bob, "estimate"))
	if unrated.Ephemeral || !strings.Contains(unrated.Text(), "Score estimate of ⚫ alice vs ⚪ bob after move 2: **") {
		t.Errorf("a player's estimate in an unrated game = %q (ephemeral %v)", unrated.Text(), unrated.Ephemeral)
	}
}

// gatedReviewer says it is number 2 in the queue, signals started, and
// waits for its gate (or its context) before reviewing with a small budget.
type gatedReviewer struct {
	gate    chan struct{}
	started chan struct{}
}

func (g *gatedReviewer) Review(ctx context.Context, eg *engine.Game, onQueued func(int), progress func(int, int)) (*review.Review, error) {
	onQueued(2)
	g.started <- struct{}{}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return review.Run(ctx, eg, review.MCTS{Playouts: 100, Seed: 1}, progress)
}

func (g *gatedReviewer) Estimate(ctx context.Context, eg *engine.Game, onQueued func(int)) (review.ScoreEstimate, error) {
	return review.Estimate(ctx, eg, 200, 1)
}

// TestE2EReviewQueue: a review waiting for the engine shows its place in
// the queue; its user cannot start a second one meanwhile; shutting the
// bot down stops it at once and says so.
func TestE2EReviewQueue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	gr := &gatedReviewer{gate: make(chan struct{}), started: make(chan struct{}, 4)}
	ch, alice, bob := e.resignedWith(gr)

	it := e.slash(ch, alice, "review")
	if r := e.d.Do(it); r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Fatalf("/go review was answered with type %d, want a deferral at once", r.Type)
	}
	select {
	case <-gr.started:
	case <-time.After(time.Minute):
		t.Fatal("the review never started")
	}
	e.d.WaitFor("the queue position", func() bool {
		m, _ := e.d.Original(it)
		return m.Content == "Waiting for a free engine to review ⚫ alice vs ⚪ bob: number 2 in the queue…"
	})
	e.refused(e.slash(ch, alice, "review"), "You already have a review running")
	// The record with its review, asked for meanwhile, is on its way.
	e.refused(e.slash(ch, bob, "sgf", discordtest.Bool("review", true)), "is being reviewed now: the review will be ready soon")

	start := time.Now()
	if err := e.stopWithin(time.Minute); err != nil {
		t.Errorf("Shutdown = %v, want the review stopped at once", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Shutdown took %v", d)
	}
	var said []string
	for _, m := range e.d.Followups(it) {
		said = append(said, m.Text())
	}
	if len(said) != 1 || said[0] != "The review was stopped because I am restarting. Ask again in a minute." {
		t.Errorf("after shutdown the review said %q", said)
	}
}

// deadStonesMoves is a 9×9 game passed out with a dead stone in each
// other's area, Black's H2 and White's B7: with them dead, B+1.5.
var deadStonesMoves = []string{"E5", "F5", "E6", "F6", "E4", "F4", "E7", "F7", "E3", "F3",
	"E8", "F8", "E2", "F2", "E9", "F9", "E1", "F1", "H2", "B7", "pass", "pass"}

func TestE2EReviewCountedGame(t *testing.T) { httpMode(t, testE2EReviewCountedGame) }

// testE2EReviewCountedGame: the estimate and the review of a game decided
// by counting use its agreed dead stones: the estimate is the result, the
// review ends with it and names no closing pass.
func testE2EReviewCountedGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	e.startGame(ch, ann, bob, 9)
	id := e.game(ch.ID).ID
	last := e.playOut(ch, ann, bob, deadStonesMoves)
	after := e.do(e.click(ann, last, "accept"))
	if final := e.do(e.click(bob, after, "accept")); !strings.Contains(final.Text(), "B+1.5") {
		t.Fatalf("the game did not end B+1.5: %q", final.Text())
	}

	est := e.do(e.slash(ch, ann, "estimate", discordtest.Str("game", id)))
	want := "Score of ⚫ ann vs ⚪ bob after move 22: **B+1.5**, counted with the dead stones both players agreed on (area counting, komi included). " +
		"The shading shows who owns each point; the dead stones are crossed out."
	png, _ := est.PNG()
	if est.Ephemeral || strings.TrimSpace(est.Text()) != want || png.Description != "Final count of the 9×9 board after move 22: B+1.5; 2 dead stones crossed out." {
		t.Errorf("estimate = %q (picture %q), want %q", est.Text(), png.Description, want)
	}

	answer := e.reviewed(e.slash(ch, ann, "review", discordtest.Str("game", id)))
	text := answer.Text()
	if !strings.Contains(text, "Review of ⚫ ann vs ⚪ bob, 9×9, B+1.5, 22 moves: in the thread <#") ||
		strings.Contains(text, "although") || strings.Contains(text, "pass") {
		t.Errorf("/go review answered %q", text)
	}
	rv := e.storedReview(id)
	if lastPos := rv.Positions[len(rv.Positions)-1]; lastPos.Winrate != 1 || lastPos.Score != 1.5 || rv.Summary.FinalScore != 1.5 {
		t.Errorf("last position %+v, final score %v: want Black's chance 1 and the result B+1.5", lastPos, rv.Summary.FinalScore)
	}
	for _, th := range e.d.Threads(ch.ID) {
		for _, m := range e.d.Messages(th.ID) {
			if strings.Contains(m.Text(), "Move 21 ") || strings.Contains(m.Text(), "Move 22 ") {
				t.Errorf("a closing pass is listed as a mistake: %q", m.Text())
			}
		}
	}
}

func TestE2EReviewNoMoves(t *testing.T) { httpMode(t, testE2EReviewNoMoves) }

// testE2EReviewNoMoves: a game that ended before its first move has
// nothing to review; the request is refused and nothing is stored.
func testE2EReviewNoMoves(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	id := e.resignedGame(ch, alice, bob)
	// Asked in another channel, where the game's own late messages (its
	// end is announced in the background) cannot count as the answer's.
	other := e.d.GuildChannel("other")
	e.refused(e.slash(other, bob, "review", discordtest.Str("game", id)), "That game has no moves to review.")
	e.refused(e.slash(other, bob, "sgf", discordtest.Str("game", id), discordtest.Bool("review", true)),
		"Game `"+id+"` has no moves, so there is no review to write into its record.")
	if _, err := e.store.GameReview(context.Background(), id); err == nil {
		t.Errorf("a review of a game without moves was stored")
	}
	if n := len(e.d.Threads(ch.ID)) + len(e.d.Threads(other.ID)); n != 0 {
		t.Errorf("%d threads, want none", n)
	}
}

// TestE2EReviewAnnulled: the review of an annulled game (alice ran out of
// time after one move of her own) says it was annulled, and its summary
// speaks of who led, never of a winner (it said "White won" of W+T).
func TestE2EReviewAnnulled(t *testing.T) {
	e := newEnv(t)
	ch, alice, bob := e.guildGame(discordtest.Str("clock", "absolute 15s"))
	id := e.game(ch.ID).ID
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "C3"))
	e.clock.Advance(20 * time.Second)
	e.d.WaitFor("the game to end on time", func() bool { return e.game(ch.ID) == nil })
	if a, err := e.store.ArchivedGame(context.Background(), id); err != nil || !a.Annulled || a.Result != "W+T" {
		t.Fatalf("archived %+v, %v; want W+T annulled", a, err)
	}
	// Nobody won it: the review and the estimate say it was annulled on
	// time, as its final board does (they said "W+T").
	answer := e.reviewed(e.slash(ch, bob, "review"))
	if want := "Review of ⚫ alice vs ⚪ bob, 9×9, annulled on time, not counted, 2 moves"; !strings.HasPrefix(answer.Text(), want) {
		t.Errorf("/go review answered %q, want it to begin %q", answer.Text(), want)
	}
	if est := e.do(e.slash(ch, bob, "estimate", discordtest.Str("game", id))); !strings.Contains(est.Text(), "alice vs ⚪ bob, annulled on time after move 2") || strings.Contains(est.Text(), "W+T") {
		t.Errorf("/go estimate answered %q, want it annulled on time, no W+T", est.Text())
	}
	rv := e.storedReview(id)
	if p := rv.Paragraph(); strings.Contains(p, " won") {
		t.Errorf("the review of an annulled game names a winner: %q", p)
	}
}

// TestE2EReviewHandicap: the review's header names the handicap, as /go
// sgf and /go history do (it said "9×9, W+R").
func TestE2EReviewHandicap(t *testing.T) {
	e := newEnv(t)
	ch, alice, bob := e.guildGame(discordtest.Int("handicap", 2), discordtest.Bool("rated", false))
	e.do(e.play(ch, bob, "E5"))
	e.do(e.slash(ch, alice, "resign"))
	answer := e.reviewed(e.slash(ch, bob, "review"))
	if want := "Review of ⚫ alice vs ⚪ bob, 9×9 H2, W+R, 1 move"; !strings.HasPrefix(answer.Text(), want) {
		t.Errorf("/go review answered %q, want it to begin %q", answer.Text(), want)
	}
}

// mistakesReviewer reviews a game as the built-in engine does at a small
// budget, then names the mistakes it is given instead of its own.
type mistakesReviewer struct{ mistakes []review.Mistake }

func (m mistakesReviewer) Review(ctx context.Context, eg *engine.Game, onQueued func(int), progress func(int, int)) (*review.Review, error) {
	rv, err := review.Run(ctx, eg, review.MCTS{Playouts: 100, Seed: 1}, progress)
	if err != nil {
		return nil, err
	}
	rv.Mistakes = m.mistakes
	return rv, nil
}

func (m mistakesReviewer) Estimate(ctx context.Context, eg *engine.Game, onQueued func(int)) (review.ScoreEstimate, error) {
	return review.Estimate(ctx, eg, 200, 1)
}

// reviewThread plays reviewMoves between alice and bob in a server channel
// (bob resigns), has alice review the game with a reviewer that finds
// mistakes, and returns the messages of the review's thread.
func (e *env) reviewThread(mistakes ...review.Mistake) []discordtest.Message {
	e.t.Helper()
	e.reviewer = mistakesReviewer{mistakes: mistakes}
	e.restart()
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, reviewMoves)
	e.do(e.slash(ch, bob, "resign"))
	e.reviewed(e.slash(ch, alice, "review"))
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		e.t.Fatalf("%d threads, want the review's", len(threads))
	}
	return e.d.Messages(threads[0].ID)
}

// TestE2EReviewMistakeLines: a mistake's line says the points it lost and,
// when the mover's winning chance fell, from what to what; a mistake
// after which the chance rose (its points are measured over the positions
// around it) shows the points alone, never a rising chance beside "points
// lost". A move of the line on the point of the mistake, which its board
// leaves to the crossed-out mistake, is said in the line ("2 at D4").
func TestE2EReviewMistakeLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msgs := e.reviewThread(
		review.Mistake{Number: 3, Color: engine.Black, Move: "D4", Before: 0.62, After: 0.38, Loss: 9, Best: "C3", PV: []string{"C3", "D4"}},
		review.Mistake{Number: 4, Color: engine.White, Move: "D5", Before: 0.62, After: 0.67, Loss: 6.2, Best: "G7", PV: []string{"G7"}},
		review.Mistake{Number: 5, Color: engine.Black, Move: "C3", Before: 0.5, After: 0.4, Loss: 3, Best: "pass", PV: []string{"pass"}},
	)
	var lines, alts []string
	for _, m := range msgs[1:] {
		for _, em := range m.Embeds {
			lines = append(lines, em.Description)
		}
		for _, a := range m.Attachments {
			alts = append(alts, a.Description)
		}
	}
	want := []string{
		"Move 3 · ⚫ D4 · 9 points lost, Black's winning chance 62% → 38% · better: C3 (line: 2 at D4)",
		"Move 5 · ⚫ C3 · 3 points lost, Black's winning chance 50% → 40% · better: pass (line: 1 pass)",
		"Move 4 · ⚪ D5 · 6 points lost · better: G7",
	}
	// Nothing is drawn for a pass: its picture says so in words.
	if len(alts) != 3 || !strings.HasSuffix(alts[1], "Black played C3 (crossed out); better: pass.") || strings.Contains(alts[1], "ringed") {
		t.Errorf("pictures' descriptions = %q, want the second to say \"better: pass\" without a ring", alts)
	}
	if !slices.Equal(lines, want) {
		t.Errorf("mistake lines =\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// settledMoves is a 9×9 game (Chinese rules, komi 7.5) played out to its
// last point: every region is settled and the count is B+5.5, while the
// playouts' mean, which takes settled groups, said W+2.5.
var settledMoves = []string{
	"G6", "D3", "C5", "G3", "E6", "B4", "B5", "C4", "H4", "A5", "A6", "A4", "B6", "H3",
	"G5", "J4", "J5", "J3", "G4", "D5", "D6", "F3", "E5", "D4", "E4", "E3", "F4",
}

// territoryMoves is a 9×9 game under Japanese rules (komi 0.5, two
// handicap stones, White first) played out to its last point: B+22.5 by
// territory.
var territoryMoves = []string{
	"D7", "C6", "G3", "C7", "E4", "D6", "D3", "D2", "E2", "C2", "C4", "B4", "H5", "E6", "D1",
	"H6", "G5", "J5", "J4", "J6", "H3", "C1", "E1", "G6", "F5", "C5", "D4", "F6", "E5", "D5",
}

func TestE2EEstimateSettled(t *testing.T) { httpMode(t, testE2EEstimateSettled) }

// testE2EEstimateSettled: the estimate of a position whose every region is
// settled is its count, by the game's own scoring, not the playouts' mean.
func testE2EEstimateSettled(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, settledMoves)
	m := e.do(e.slash(ch, carol, "estimate"))
	if want := "after move 27: **B+5.5**, counted: every region is settled (area counting, komi included)"; !strings.Contains(m.Text(), want) {
		t.Errorf("estimate = %q, want it to say %q", m.Text(), want)
	}
	e.do(e.slash(ch, bob, "resign"))

	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9),
		discordtest.Str("color", "black"), discordtest.Bool("rated", false), discordtest.Str("ruleset", "japanese"),
		discordtest.Num("komi", 0.5), discordtest.Int("handicap", 2)))
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the handicap game to start", func() bool { return e.game(ch.ID) != nil })
	e.playOut(ch, bob, alice, territoryMoves)
	jp := e.do(e.slash(ch, carol, "estimate"))
	if want := "after move 30: **B+22.5**, counted: every region is settled (territory counting, komi included)"; !strings.Contains(jp.Text(), want) || strings.Contains(jp.Text(), "area") {
		t.Errorf("estimate under Japanese rules = %q, want it to say %q and never area", jp.Text(), want)
	}
}

func TestE2EReviewNoBigSwings(t *testing.T) { httpMode(t, testE2EReviewNoBigSwings) }

// testE2EReviewNoBigSwings: a game of one move, resigned, changed the
// winning chance by less than review.MinSwing: its graph names no swing
// (it used to name move 1, 49% to 49%) and says so.
func testE2EReviewNoBigSwings(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, reviewMoves[:1])
	e.do(e.slash(ch, bob, "resign"))
	e.reviewed(e.slash(ch, alice, "review"))
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the review's", len(threads))
	}
	var graph string
	for _, m := range e.d.Messages(threads[0].ID) {
		for _, em := range m.Embeds {
			if em.Title == "Winning chance" {
				graph = em.Description
			}
		}
	}
	if want := "Black's winning chance after every move. No big swings: no move changed it by 10% or more."; graph != want {
		t.Errorf("graph's description = %q, want %q", graph, want)
	}
}

// noAnalysisReviewer is a review engine that cannot analyse, as a GTP
// program without kata-analyze or lz-analyze.
type noAnalysisReviewer struct{}

func (noAnalysisReviewer) Review(context.Context, *engine.Game, func(int), func(int, int)) (*review.Review, error) {
	return nil, fmt.Errorf("gtp:gnugo: %w", review.ErrNoAnalysis)
}

func (noAnalysisReviewer) Estimate(ctx context.Context, eg *engine.Game, onQueued func(int)) (review.ScoreEstimate, error) {
	return review.Estimate(ctx, eg, 200, 1)
}

// TestE2EReviewEngineCannotAnalyse: when the review engine cannot analyse
// (a host's mistake that start-up normally refuses), /go review says
// reviews are not available here, not "try again".
func TestE2EReviewEngineCannotAnalyse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, alice, _ := e.resignedWith(noAnalysisReviewer{})
	m := e.reviewed(e.slash(ch, alice, "review"))
	if !strings.Contains(m.Text(), "Reviews are not available on this server") || strings.Contains(m.Text(), "try again") {
		t.Errorf("/go review with an engine that cannot analyse = %q, want that reviews are not available here", m.Text())
	}
}

// resignedWith restarts the bot with reviewer as its reviewer and plays a
// short game in #general that bob (White) resigns to alice (Black): a game
// to review.
func (e *env) resignedWith(reviewer goroom.Reviewer) (*discordtest.Channel, discordtest.User, discordtest.User) {
	e.t.Helper()
	e.reviewer = reviewer
	e.restart()
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, reviewMoves[:4])
	e.do(e.slash(ch, bob, "resign"))
	return ch, alice, bob
}

// TestE2EReviewOneSideClean: where only one player made mistakes, the
// review says of the other that no move of theirs lost 2 points or more,
// rather than leaving them out (the thread has only Black's mistakes).
func TestE2EReviewOneSideClean(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msgs := e.reviewThread(review.Mistake{Number: 3, Color: engine.Black, Move: "D4", Before: 0.62, After: 0.38, Loss: 9, Best: "C3", PV: []string{"C3", "D4"}})
	const clean = "\n⚪ White: no move lost 2 points or more."
	if len(msgs) != 2 || !strings.HasSuffix(msgs[0].Content, clean) || strings.Contains(msgs[0].Content, "⚫ Black: no move") || msgs[1].Content != "⚫ Black's biggest mistakes" {
		var texts []string
		for _, m := range msgs {
			texts = append(texts, m.Content)
		}
		t.Errorf("the review thread's messages = %q, want the summary ending %q, then Black's mistakes", texts, clean)
	}
}

// TestE2EReviewAborted: the review of a game its player aborted says it
// was aborted, as /go history and its record do, not "annulled", which is
// a moderator's ruling or a loss on time before two moves.
func TestE2EReviewAborted(t *testing.T) {
	e := newEnv(t)
	ch, alice, bob := e.guildGame()
	id := e.game(ch.ID).ID
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "C3"))
	e.do(e.click(bob, e.do(e.slash(ch, bob, "abort")), "Yes, abort"))
	if a, err := e.store.ArchivedGame(context.Background(), id); err != nil || !a.Annulled || a.Result != "Void" {
		t.Fatalf("archived %+v, %v; want an aborted game", a, err)
	}
	answer := e.reviewed(e.slash(ch, bob, "review"))
	if want := "Review of ⚫ alice vs ⚪ bob, 9×9, aborted (Void, not counted), 2 moves"; !strings.HasPrefix(answer.Text(), want) {
		t.Errorf("/go review answered %q, want it to begin %q", answer.Text(), want)
	}
}

// TestE2ENamedGameInPlay: a spectator who names a game in play on this
// server with game: is told that it is not over and where it is played,
// as its players are, not that there is no such game.
func TestE2ENamedGameInPlay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, lobby := e.d.GuildChannel("general"), e.d.GuildChannel("lobby")
	alice, bob, carl := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carl")
	e.startGame(ch, alice, bob, 9)
	id := e.game(ch.ID).ID
	e.refused(e.slash(lobby, carl, "review", discordtest.Str("game", id)),
		"Game `"+id+"` is not over yet: it is being played in <#"+ch.ID+">, and `/go review` takes a finished game. Run it once the game has ended.")
	e.refused(e.slash(lobby, carl, "estimate", discordtest.Str("game", id)),
		"Game `"+id+"` is not over yet: it is being played in <#"+ch.ID+">. Run `/go estimate` there without `game:`.")
	// Another server's game stays unknown here.
	other := e.d.OtherGuildChannel("999999999999999999", "elsewhere")
	e.refused(e.slash(other, carl, "review", discordtest.Str("game", id)), "There is no finished game with ID `"+id+"`")
}
