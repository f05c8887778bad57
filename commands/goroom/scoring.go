package goroom

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/estimate"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// estimateTimeout bounds the dead-stone estimate (it takes well under a
// second; this only guards against a pathological position).
const estimateTimeout = 3 * time.Second

// estimatePhase begins the scoring phase for g with the estimate's
// proposal alone (the same for the same position and seed, so it is
// recomputed rather than stored), whatever marking g holds.
func estimatePhase(ctx context.Context, g *storage.Game) (*engine.ScoringPhase, error) {
	ctx, cancel := context.WithTimeout(ctx, estimateTimeout)
	defer cancel()
	ph, err := engine.NewScoringPhase(goOf(g), estimate.Dead(ctx, goOf(g), estimate.Options{}))
	if err != nil {
		return nil, fmt.Errorf("goroom: scoring phase of game %s: %w", g.ID, err)
	}
	return ph, nil
}

// phase rebuilds the engine's scoring phase for g, which must be in the
// scoring phase: the estimate with the stored marking applied.
func phase(ctx context.Context, g *storage.Game) (*engine.ScoringPhase, error) {
	ph, err := estimatePhase(ctx, g)
	if err != nil {
		return nil, err
	}
	if err := ph.SetDead(goOf(g), deadOf(g)); err != nil {
		return nil, fmt.Errorf("goroom: scoring phase of game %s: %w", g.ID, err)
	}
	return ph, nil
}

// startScoring puts g, whose play just ended with two passes, into the
// scoring phase with the estimate's proposal; bots accept it at once. The
// stones the estimate left alive without being sure of them are kept for
// the phase's boards (unsureCache). The proposal comes from the estimate
// alone: g.Scoring is set only after, so no marking (an empty one
// included) can stand in for it.
func (a *room) startScoring(ctx context.Context, g *storage.Game) {
	ph, err := estimatePhase(ctx, g)
	g.Scoring = &storage.ScoringState{Accepted: map[game.Side]bool{}, Deadline: a.scoringDeadline(g)}
	if isVoteGame(g) {
		// Nobody marks dead stones for a channel: the count is made at
		// once (see apply), with the estimate's proposal.
		g.Scoring.Deadline = a.Now()
	}
	if err != nil {
		// No proposal: every stone alive, the players mark by hand.
		a.Logger().Warn("dead stone estimate failed", "game", g.ID, "err", err)
		return
	}
	setDead(g, ph.Dead())
	a.unsure.put(g, ph.Uncertain())
	if isVoteGame(g) {
		setDead(g, ph.Proposal())
	}
	botsAccept(g, ph.Proposal(), ph.Uncertain())
}

// liveScoringTTL is the longest a game on a live clock waits for its
// players to agree on the dead stones: they played it at one sitting, so
// one who has left is not coming back the next day, and a day's wait
// would keep the channel taken (as OGS's stone removal follows the game's
// speed).
const liveScoringTTL = 5 * time.Minute

// scoringTTL is how long the players of a game on clock k (nil for none)
// have to agree on the dead stones: ttl, the server's limit, but at most
// liveScoringTTL on a live clock. A correspondence game, or one with no
// clock, gets the whole of ttl.
func scoringTTL(ttl time.Duration, k *clock.Clock) time.Duration {
	if k != nil && k.Control.System != clock.None && !k.Control.Correspondence() {
		return min(ttl, liveScoringTTL)
	}
	return ttl
}

// scoringDeadline is when g's scoring phase, starting or marked anew now,
// ends if nobody changes the marking (scoringTTL).
func (a *room) scoringDeadline(g *storage.Game) time.Time {
	return a.Now().Add(scoringTTL(a.ScoringTTL(), g.Clock))
}

// botsAccept records the acceptance of each bot player when g's marking
// is acceptable to it by its own estimate (see disagrees).
func botsAccept(g *storage.Game, proposal, uncertain []engine.Point) {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if g.AllBots(engine.SideOf(c)) {
			if _, ok := disagrees(g, c, proposal, uncertain); !ok {
				g.Scoring.Accepted[engine.SideOf(c)] = true
			}
		}
	}
}

// botDisagrees is disagrees for g's bot player: the stones it objects
// to, if any.
func botDisagrees(g *storage.Game, proposal, uncertain []engine.Point) ([]engine.Point, bool) {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if g.AllBots(engine.SideOf(c)) {
			return disagrees(g, c, proposal, uncertain)
		}
	}
	return nil, false
}

// disagrees compares g's marking with the estimate, on behalf of the
// player of colour side: the estimate's proposal and the stones it was
// unsure of. The marking is acceptable to side when it differs from the
// proposal only in chains the estimate flagged as uncertain, or in side's
// favour (the opponent's stones marked dead, side's own marked alive), as
// a player would accept it; otherwise disagrees returns every stone in
// question, from the bottom row up, and true: a bot names them all
// (botObjection), lest it seem to accept the groups it leaves out. A bot
// judges the marking so, and so does the scoring deadline for a player who
// has not accepted it.
func disagrees(g *storage.Game, side engine.Color, proposal, uncertain []engine.Point) ([]engine.Point, bool) {
	unsure := map[engine.Point]bool{}
	for _, p := range uncertain {
		unsure[p] = true
	}
	marked := map[engine.Point]bool{}
	for _, p := range deadOf(g) {
		marked[p] = true
	}
	proposed := map[engine.Point]bool{}
	for _, p := range proposal {
		proposed[p] = true
	}
	bd := goOf(g).Board()
	size := goOf(g).Size()
	var out []engine.Point
	for row := 0; row < size; row++ {
		for col := 0; col < size; col++ {
			p := engine.Point{Col: col, Row: row}
			c := bd.At(p)
			if c == engine.Empty || marked[p] == proposed[p] || unsure[p] {
				continue
			}
			if marked[p] == (c != side) {
				continue // in side's favour
			}
			out = append(out, p)
		}
	}
	return out, len(out) > 0
}

// chainOf returns the stones of the chain at p, sorted.
func chainOf(bd *engine.Board, p engine.Point) []engine.Point {
	v := bd.Vertex(p)
	var out []engine.Point
	for s := v; ; {
		out = append(out, bd.Point(s))
		if s = bd.NextStone(s); s == v {
			break
		}
	}
	slices.SortFunc(out, func(a, b engine.Point) int {
		if a.Row != b.Row {
			return a.Row - b.Row
		}
		return a.Col - b.Col
	})
	return out
}

// botObjection says why the bot does not accept g's marking: every group
// it sees otherwise, the groups of toggled (the stones just marked, if
// any, in the order the answer named them) first, so that a long list
// clipped still names them. The stones
// it sees dead are the opponent's, those it sees alive its own: each list
// is of one colour.
func botObjection(ctx context.Context, g *storage.Game, toggled []engine.Point) string {
	settle := " Mark them back, or press **Resume play** to settle them on the board."
	ph, err := phase(ctx, g)
	if err != nil {
		return "gobot cannot judge this marking." + settle
	}
	stones, ok := botDisagrees(g, ph.Proposal(), ph.Uncertain())
	if !ok {
		return "gobot accepts this marking: press **Accept** to confirm it."
	}
	var seenDead, seenAlive []engine.Point
	for _, p := range stones {
		if ph.IsDead(p) {
			seenAlive = append(seenAlive, p)
		} else {
			seenDead = append(seenDead, p)
		}
	}
	var sees []string
	if len(seenDead) > 0 {
		sees = append(sees, stonesAt(goOf(g).Board(), seenDead, toggled)+" as dead (marked alive)")
	}
	if len(seenAlive) > 0 {
		sees = append(sees, stonesAt(goOf(g).Board(), seenAlive, toggled)+" as alive (marked dead)")
		// The stones just marked dead, named first.
		marked := func(p engine.Point) bool { return slices.Contains(seenAlive, p) }
		if len(sees) == 2 && slices.ContainsFunc(toggled, marked) {
			sees[0], sees[1] = sees[1], sees[0]
		}
	}
	if len(stones) == 1 {
		settle = " Mark it back, or press **Resume play** to settle it on the board."
	}
	return fmt.Sprintf("gobot does not accept this marking: it sees %s.%s", strings.Join(sees, ", and "), settle)
}

// stonesListed is how many stones a message names at most (the rest are
// counted), which keeps a scoring board well within Discord's limits.
const stonesListed = 30

// stonesAt names stones of one colour chain by chain: "the black stone
// at E5", "the 6 black stones at E5 F5 G5 and B4 C4 D4". The chains
// holding any of first come first, in the order of first, the others from
// the bottom row up; at most stonesListed points are named, the rest
// counted ("and 12 more").
func stonesAt(bd *engine.Board, ps, first []engine.Point) string {
	color := bd.At(ps[0])
	if len(ps) == 1 {
		return fmt.Sprintf("the %s stone at %s", color, ps[0])
	}
	in := map[engine.Point]bool{}
	for _, p := range ps {
		in[p] = true
	}
	var chains [][]engine.Point
	seen := map[engine.Point]bool{}
	for _, p := range ps {
		if seen[p] {
			continue
		}
		var ch []engine.Point
		for _, q := range chainOf(bd, p) {
			seen[q] = true
			if in[q] {
				ch = append(ch, q)
			}
		}
		chains = append(chains, ch)
	}
	// rank is where a chain's first stone in first stands there.
	rank := func(ch []engine.Point) int {
		r := len(first)
		for _, p := range ch {
			if i := slices.Index(first, p); i >= 0 {
				r = min(r, i)
			}
		}
		return r
	}
	slices.SortStableFunc(chains, func(a, b []engine.Point) int { return rank(a) - rank(b) })
	var parts []string
	named := 0
	for _, ch := range chains {
		if named == stonesListed {
			break
		}
		ch = ch[:min(len(ch), stonesListed-named)]
		parts = append(parts, pointList(ch, len(ch)))
		named += len(ch)
	}
	if named < len(ps) {
		parts = append(parts, fmt.Sprintf("%d more", len(ps)-named))
	}
	list := parts[0]
	if n := len(parts); n > 1 {
		list = strings.Join(parts[:n-1], ", ") + " and " + parts[n-1]
	}
	return fmt.Sprintf("the %d %s stones at %s", len(ps), color, list)
}

// markingKey identifies g's marking in button IDs, so that Accept on a
// board whose marking has since changed is refused as stale, and so is a
// board of an earlier scoring phase (play resumed after it) whose marking
// was the same: the key covers the moves played too.
func markingKey(g *storage.Game) string {
	h := fnv.New32a()
	h.Write([]byte(strconv.Itoa(goOf(g).MoveCount()) + ":"))
	for _, p := range deadOf(g) {
		h.Write([]byte(p.String()))
		h.Write([]byte{','})
	}
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

// scoreView is the picture of a marking: dead stones crossed, territory shown.
func scoreView(g *storage.Game, dead []engine.Point) (view, engine.Score) {
	sc := goOf(g).Score(dead)
	return view{dead: dead, owner: sc.Owner}, sc
}

// deadCounts counts the dead stones of each colour.
func deadCounts(g *storage.Game, dead []engine.Point) (black, white int) {
	b := goOf(g).Board()
	for _, p := range dead {
		switch b.At(p) {
		case engine.Black:
			black++
		case engine.White:
			white++
		}
	}
	return black, white
}

// scoringMessage shows the scoring phase: the marked board, the count and
// the Accept / Resume play buttons; now tells whether its deadline has
// passed. It pings the people it waits for (waiting) but actor, whose
// action drew it and who is looking at it.
func (a *room) scoringMessage(ctx context.Context, g *storage.Game, now time.Time, note string, actor storage.Player) (*commands.Message, error) {
	return a.scoringMessageWith(ctx, g, now, note, actor, nil)
}

// scoringMessageWith is scoringMessage that, where a bot has not accepted
// the marking, names the groups the bot disagrees on, those of toggled
// (the stones just marked) first. Every board of the phase names the
// groups the estimate left alive without being sure of them and that are
// still alive (stillUnsure), as the board page does.
func (a *room) scoringMessageWith(ctx context.Context, g *storage.Game, now time.Time, note string, actor storage.Player, toggled []engine.Point) (*commands.Message, error) {
	uncertain := stillUnsure(g, a.unsure.of(g))
	s := g.Scoring
	waits := a.waiting(ctx, g)
	v, sc := scoreView(g, deadOf(g))
	f, name, err := boardFile(g, v)
	if err != nil {
		return nil, err
	}
	db, dw := deadCounts(g, deadOf(g))
	var sb strings.Builder
	if note != "" {
		sb.WriteString(note + "\n")
	}
	sb.WriteString("**Play has ended. Agree on the dead stones.** Crossed stones count as dead; small squares show territory. ")
	sb.WriteString("Mark or unmark a group with `/go dead point:`, then press **Accept**; **Resume play** continues the game.\n")
	if len(uncertain) > 0 {
		sb.WriteString(uncertainNote(uncertain) + "\n")
	}
	fmt.Fprintf(&sb, "```\n%s\n```\n", engine.FormatScore(sc, db, dw))
	sb.WriteString(acceptance(g, waits))
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if g.AllBots(engine.SideOf(c)) && !s.Accepted[engine.SideOf(c)] {
			sb.WriteString("\n" + botObjection(ctx, g, toggled))
			break
		}
	}
	if d := deadlineNote(g, now, fmt.Sprintf("<t:%d:R>", s.Deadline.Unix())); d != "" {
		sb.WriteString("\n" + d)
	}
	key := markingKey(g)
	m := &commands.Message{
		Embeds: []*discordgo.MessageEmbed{{
			Title:       title(g),
			Description: commands.Clip(sb.String(), 4096),
			Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
			Color:       commands.ColorScore,
		}},
		Files: []commands.File{f},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: "game/" + g.ID + "/score/" + key + "/accept"},
			discordgo.Button{Label: "Resume play", Style: discordgo.SecondaryButton, CustomID: "game/" + g.ID + "/score/" + key + "/resume"},
		}}},
	}
	// The mentions in the embed notify nobody: the people whose Accept
	// the count needs are pinged as the player to move is, by the text
	// above the board, at every board of the count but the one their own
	// action drew.
	var pinged []storage.Player
	for _, c := range []engine.Color{engine.Black, engine.White} {
		for _, p := range waits[engine.SideOf(c)] {
			if p.Key() != actor.Key() {
				pinged = append(pinged, p)
			}
		}
	}
	ping(g, m, pinged, "play has ended: check the dead stones, then press **Accept**.")
	return m, nil
}

// stoppedCountBoard is the newest scoring board of g, which ended at its
// count another way than by the count: the marking as it stood and its
// count, without the Accept it waited for (in its text and its ping), the
// deadline it named or its buttons.
func stoppedCountBoard(g *storage.Game) (*commands.Message, error) {
	v, sc := scoreView(g, deadOf(g))
	f, name, err := boardFile(g, v)
	if err != nil {
		return nil, err
	}
	db, dw := deadCounts(g, deadOf(g))
	text := fmt.Sprintf("**The count stopped: the game ended before the dead stones were agreed.** The marking as it stood:\n```\n%s\n```", engine.FormatScore(sc, db, dw))
	return &commands.Message{
		Embeds: []*discordgo.MessageEmbed{{
			Title:       title(g),
			Description: commands.Clip(text, 4096),
			Image:       &discordgo.MessageEmbedImage{URL: "attachment://" + name},
			Color:       commands.ColorDone,
		}},
		Files:           []commands.File{f},
		ClearContent:    true, // the ping to accept
		ClearComponents: true,
	}, nil
}

// waiting is whom g's scoring board waits for, side by side: the people
// who decide for each side that has not accepted the marking (Deciders: a
// player banned on this server since, though not yet out of the game,
// decides nothing more for a team, as they may no longer accept; a game
// of two waits for its players, banned or not, and reads no bans). When
// the bans cannot be read, the side's people are named.
func (a *room) waiting(ctx context.Context, g *storage.Game) map[game.Side][]storage.Player {
	waits := map[game.Side][]storage.Player{}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		s := engine.SideOf(c)
		if g.Scoring.Accepted[s] {
			continue
		}
		if !g.Team() {
			waits[s] = g.People(s)
			continue
		}
		people, err := a.Deciders(ctx, g, s)
		if err != nil {
			a.Logger().Warn("scoring board: read who decides for a side", "game", g.ID, "err", err)
			people = g.People(s)
		}
		waits[s] = people
	}
	return waits
}

// acceptance says which sides have accepted g's marking. A team accepts
// through any of its people who decide for it, whom it waits for (waits,
// from waiting); a bot on a team with people leaves that to them
// (botsAccept: only a side of bots accepts by itself).
func acceptance(g *storage.Game, waits map[game.Side][]storage.Player) string {
	var sides []string
	for _, c := range []engine.Color{engine.Black, engine.White} {
		s := engine.SideOf(c)
		state := "⏳ not yet"
		if g.Scoring.Accepted[s] {
			state = "✅ accepted"
		}
		if !g.Team() {
			sides = append(sides, fmt.Sprintf("%s %s: %s", stoneEmoji(c), teamMention(g, c), state))
			continue
		}
		if people := waits[s]; !g.Scoring.Accepted[s] && len(people) > 0 {
			state = "⏳ waiting for " + joinOr(people, commands.Mention)
		}
		sides = append(sides, fmt.Sprintf("%s %s (%s): %s", stoneEmoji(c), colorName(c), teamMention(g, c), state))
	}
	if g.Team() {
		return strings.Join(sides, "\n")
	}
	return strings.Join(sides, " · ")
}

// joinOr names players as a sentence offers a choice: "ann", "ann or
// bob", "ann, bob or cid".
func joinOr(ps []storage.Player, name func(storage.Player) string) string {
	if len(ps) < 2 {
		return commands.JoinNames(ps, name)
	}
	return commands.JoinNames(ps[:len(ps)-1], name) + " or " + name(ps[len(ps)-1])
}

// finalScoreMessage shows a game ended by counting: the marked board, the
// count and the result, each side's time as the game ended and how it was
// played (unrated: commands.ShownUnrated), as every finished board does.
func finalScoreMessage(g *storage.Game, now time.Time, note string, unrated bool) (*commands.Message, error) {
	dead := deadOf(g)
	v, sc := scoreView(g, dead)
	f, name, err := boardFile(g, v)
	if err != nil {
		return nil, err
	}
	db, dw := deadCounts(g, dead)
	res, _ := goOf(g).Result()
	desc := strings.TrimSpace(note + "\n" + fmt.Sprintf("**Game over: %s**\n```\n%s\n```", resultSentence(g, res), engine.FormatScore(sc, db, dw)))
	if cs := commands.FinalClockStatus(commands.FinalClock(g.Clock, now), sideLabel); cs != "" {
		desc += "\n" + cs
	}
	desc += "\n-# " + setupLine(g, unrated)
	data, err := gameSGF(g, dead, true, false)
	if err != nil {
		return nil, err
	}
	return &commands.Message{
		Embeds: []*discordgo.MessageEmbed{{
			Title: title(g), Description: commands.Clip(desc, 4096),
			Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}, Color: commands.ColorDone,
		}},
		Files:           []commands.File{f, sgfFile(g.ID, title(g), data)},
		Components:      commands.RematchRow(g),
		ClearComponents: true, // when it replaces the scoring message
	}, nil
}

// errVoteNoMarking answers a scoring action in a vote game, to a voter
// or anyone: nobody marks its dead stones.
var errVoteNoMarking = commands.UserErr(commands.ErrNotScoring, "A vote game has no marking of dead stones: two passes end it, and I count it at once with my own estimate.")

// scoringGame loads the game for a scoring-phase action by u.
func (a *room) scoringGame(ctx context.Context, g *storage.Game, r *commands.Request) (engine.Color, error) {
	if isVoteGame(g) {
		return engine.Empty, errVoteNoMarking
	}
	c, err := playerColor(g, r.User)
	if err != nil {
		return c, err
	}
	if _, over := goOf(g).Result(); over {
		return c, commands.ErrGameOver
	}
	if g.Scoring == nil {
		return c, commands.ErrNotScoring
	}
	// A team player banned on the server since, or out of the game (out of
	// time with a casual clock), changes the count no more than they move:
	// the team's other members mark, accept or resume.
	return c, a.InTeam(ctx, g, r)
}

func (a *room) cmdDead(ctx context.Context, r *commands.Request, g *storage.Game) error {
	mover, err := a.scoringGame(ctx, g, r)
	if err != nil {
		return err
	}
	text, _ := r.String("point")
	p, err := parsePoint(text, goOf(g).Size())
	if err != nil {
		return err
	}
	ph, err := phase(ctx, g)
	if err != nil {
		return err
	}
	wasDead := ph.IsDead(p)
	unsure := ph.Uncertain() // the estimate's, before Toggle takes the toggled stones out
	changed, err := ph.Toggle(goOf(g), p)
	if errors.Is(err, engine.ErrNoStone) {
		return commands.UserErr(err, fmt.Sprintf("There is no stone at %s: give a point with a stone of the group.", p))
	}
	if err != nil {
		return err
	}
	before := deadOf(g)
	setDead(g, ph.Dead())
	concede(g, before, mover)
	g.Scoring.Accepted = map[game.Side]bool{}
	g.Scoring.Deadline = a.scoringDeadline(g)
	botsAccept(g, ph.Proposal(), unsure)
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	what := "dead"
	if wasDead {
		what = "alive"
	}
	// Every stone the toggle changed is named, the chain at p first: the
	// chains lying dead with it went too, and the player must see which.
	toggled := append([]engine.Point{p}, changed...)
	stones := stonesAt(goOf(g).Board(), changed, toggled)
	note := fmt.Sprintf("%s marked %s **%s**.", commands.Mention(commands.UserPlayer(r.User)), stones, what)
	m, err := a.scoringMessageWith(ctx, g, a.Now(), note, commands.UserPlayer(r.User), toggled)
	if err != nil {
		return err
	}
	return a.ReplyBoard(ctx, r, g, m)
}

// scoringButton checks a scoring-phase button: the game, the player and the
// marking it was pressed on.
func (a *room) scoringButton(ctx context.Context, r *commands.Request) (*storage.Game, engine.Color, error) {
	g, err := a.ButtonGame(ctx, r)
	if err != nil {
		return nil, 0, err
	}
	c, err := a.scoringGame(ctx, g, r)
	if errors.Is(err, commands.ErrNotScoring) {
		return nil, c, commands.UserErr(commands.ErrStale, "Play was resumed after this board: it is no longer the scoring phase.")
	}
	if err != nil {
		return nil, c, err
	}
	if markingKey(g) != r.Param("marking") {
		return nil, c, commands.UserErr(commands.ErrStale, "This count is out of date (dead stones were marked, or play went on, after this board): check the newest one and accept that.")
	}
	return g, c, nil
}

// btnScoreAccept counts a player's Accept of the marking on the board
// pressed. When another action was applied to the game at the same moment
// (the other player's Accept, on another worker), the Accept is applied
// again to the game as it now stands, provided its marking is still the
// one pressed (the key covers the dead stones and the moves).
func (a *room) btnScoreAccept(ctx context.Context, r *commands.Request) error {
	for tries := 1; ; tries++ {
		g, c, err := a.scoringButton(ctx, r)
		if err != nil {
			return err
		}
		err = a.acceptMarking(ctx, r, g, c)
		if !errors.Is(err, commands.ErrConflict) || tries == acceptTries {
			return err
		}
	}
}

// acceptTries is how many times an Accept is applied when the game keeps
// changing under it.
const acceptTries = 3

// acceptMarking counts c's Accept of g's marking and answers, ending the
// game when both sides have accepted.
func (a *room) acceptMarking(ctx context.Context, r *commands.Request, g *storage.Game, c engine.Color) error {
	if g.Scoring.Accepted[engine.SideOf(c)] {
		if g.Team() {
			return commands.UserErr(commands.ErrStale, "Your team has already accepted this marking; waiting for the other team.")
		}
		return commands.UserErr(commands.ErrStale, "You have already accepted this marking; waiting for your opponent.")
	}
	g.Scoring.Accepted[engine.SideOf(c)] = true
	note := fmt.Sprintf("%s accepted the marking.", commands.Mention(commands.UserPlayer(r.User)))
	if g.Scoring.Accepted[engine.SideOf(engine.Black)] && g.Scoring.Accepted[engine.SideOf(engine.White)] {
		g.Scoring.Settled = markingAgreed
		if g.Team() {
			return a.endByScore(ctx, r, g, note+" Both teams agree.")
		}
		return a.endByScore(ctx, r, g, note+" Both players agree.")
	}
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	m, err := a.scoringMessage(ctx, g, a.Now(), note, commands.UserPlayer(r.User))
	if err != nil {
		return err
	}
	if cur, err := a.GameStore().Game(ctx, g.ChannelID); err == nil && (cur.ID != g.ID || cur.Version != g.Version) || errors.Is(err, storage.ErrNotFound) {
		// Another action was applied while this board was drawn (the
		// other side's Accept, which ended the game): its board, newer,
		// must not be replaced by this one.
		return r.ReplyText(ctx, "✅ You accepted the marking. The game changed at the same moment: the newest board shows it as it stands.", true)
	}
	return r.Update(ctx, m)
}

// endByScore ends g with its current marking and answers with the result.
func (a *room) endByScore(ctx context.Context, r *commands.Request, g *storage.Game, note string) error {
	sc := goOf(g).Score(deadOf(g))
	if err := goOf(g).End(engine.Result{Winner: sc.Winner, Reason: engine.ByScore, Margin: sc.Margin}); err != nil {
		return err
	}
	if err := a.Finish(ctx, g); err != nil {
		return err
	}
	a.Logger().Info("game finished", "game", g.ID, "result", sc.Result())
	if rn := a.RatingNote(ctx, g); rn != "" {
		note += "\n" + rn
	}
	m, err := finalScoreMessage(g, a.Now(), note, a.ShownUnrated(ctx, g))
	if err != nil {
		return err
	}
	if r == nil {
		// The scoring phase ran out: its boards take no more.
		a.retireCountBoards(ctx, g, "")
		_, err = a.Discord().SendMessage(ctx, g.ChannelID, m)
		return err
	}
	shown := "" // the board page's Accept comes with no message of Discord's
	if r.Interaction.Message != nil {
		shown = r.Interaction.Message.ID
	}
	a.retireCountBoards(ctx, g, shown)
	return r.Update(ctx, m)
}

// retireCountBoards removes the buttons of the boards g keeps but shown,
// the one the last Accept was pressed on (it becomes the result): while the
// dead stones are agreed, any of them may show the count as it stands and
// offer Accept (a spectator's /go board posts a second one), so that the
// newest alone losing its buttons, as when play ends, would leave another
// looking open, waiting for an Accept. Older boards of play among them lose
// buttons that were stale already. Where only the last interaction's token
// reaches the players (a user install's private channel), RetireBoard
// edits its answer, the one board gobot can edit.
func (a *room) retireCountBoards(ctx context.Context, g *storage.Game, shown string) {
	if f := g.Delivery.Followup; f != nil && !f.ChannelPosts {
		if shown == "" {
			a.RetireBoard(ctx, g, g.Delivery, true)
		}
		return
	}
	for _, id := range g.Delivery.MessageIDs {
		if id == shown {
			continue
		}
		if err := a.Discord().EditMessage(ctx, g.ChannelID, id, &commands.Message{ClearComponents: true}); err != nil {
			a.Logger().Info("remove a counting board's buttons", "game", g.ID, "message", id, "err", err)
		}
	}
}

func (a *room) btnScoreResume(ctx context.Context, r *commands.Request) error {
	g, _, err := a.scoringButton(ctx, r)
	if err != nil {
		return err
	}
	if err := goOf(g).Resume(); err != nil {
		return err
	}
	g.Scoring = nil
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	return a.AnswerGame(ctx, r, g, fmt.Sprintf("%s resumed play: the game goes on. Settle the disputed groups, then pass twice again.", commands.Mention(commands.UserPlayer(r.User))))
}

// botRefuses reports whether a bot plays in g and has not accepted its
// marking (see botsAccept).
// deadlineNote says what happens at the scoring phase's deadline, which
// is written when (Discord's timestamp, or the board page's stand-in);
// "" when it has none.
func deadlineNote(g *storage.Game, now time.Time, when string) string {
	s := g.Scoring
	switch {
	case s.Deadline.IsZero():
		return ""
	case !s.Deadline.After(now) && botRefuses(g):
		return "The deadline has passed: as gobot does not accept the marking, the game is scored with gobot's own marking at the next check."
	case !s.Deadline.After(now):
		return "Nobody changed the marking in time: the game is scored at the next check."
	case botRefuses(g):
		return "The deadline is " + when + ". If gobot still does not accept the marking then, the game is scored with gobot's own marking."
	}
	return "The marking stands " + when + " if nobody changes it (where it goes against my estimate, only if the player it costs has accepted it; else my proposal counts)."
}

func botRefuses(g *storage.Game) bool {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if g.AllBots(engine.SideOf(c)) && !g.Scoring.Accepted[engine.SideOf(c)] {
			return true
		}
	}
	return false
}

// How the dead stones of a game decided by counting were settled
// (storage.ScoringState.Settled, storage.Archived.Marking).
const (
	markingAgreed   = "agreed"   // both players accepted the marking
	markingStood    = "stood"    // time ran out, and the marking as it stood counted
	markingProposal = "proposal" // time ran out, and gobot's proposal counted against a marking not accepted
	markingCounted  = "counted"  // a vote game, counted at once with gobot's proposal
)

// markingSettled says how a counted game's dead stones were settled, for
// /go estimate: "the dead stones both players agreed on".
func markingSettled(marking string) string {
	switch marking {
	case markingAgreed:
		return "the dead stones both players agreed on"
	case markingStood:
		return "the dead stones marked when time for agreeing on them ran out"
	case markingProposal:
		return "the dead stones I proposed: time for agreeing on them ran out while the marking went against my estimate and the player it cost had not accepted it"
	case markingCounted:
		return "the dead stones I proposed: a vote game is counted at once"
	}
	return "the dead stones marked when the game ended" // archived before gobot kept how
}

// voteCountNote announces the count of a vote game, which has no scoring
// phase.
const voteCountNote = "Both sides passed: I count the position with the dead stones as I estimate them."

// scoringTimeout ends a game whose scoring phase ran out of time with the
// marking as it stands, unless a bot player refuses that marking: then the
// bot's own marking, the estimate's proposal, counts (no dead stones if the
// estimate fails, as when the phase began), so that marking a bot's living
// groups dead and waiting wins nothing. Between people the same holds for
// a player who has not accepted the marking: where it goes against them,
// the proposal counts, so that the last to change the marking does not
// win by the other's absence. That holds for the groups the estimate left
// alive without being sure too (the boards name them "Please check"): an
// unsure estimate is no licence to take a group from a player who never
// agreed (a player sure that it is dead can resume play and capture it).
// The stones a player marked dead themselves (conceded) count as agreed.
func (a *room) scoringTimeout(ctx context.Context, g *storage.Game) {
	note := "Time for agreeing on the dead stones ran out: the current marking stands."
	g.Scoring.Settled = markingStood
	if isVoteGame(g) {
		note = voteCountNote // a vote game stored in its scoring phase before it was counted at once
		g.Scoring.Settled = markingCounted
	}
	if botRefuses(g) {
		g.Scoring.Settled = markingProposal
		setDead(g, nil)
		if ph, err := estimatePhase(ctx, g); err != nil {
			a.Logger().Warn("dead stone estimate failed", "game", g.ID, "err", err)
		} else {
			setDead(g, ph.Proposal())
		}
		note = "Time for agreeing on the dead stones ran out and gobot did not accept the marking: gobot's own marking counts."
	} else if ph, err := estimatePhase(ctx, g); err != nil {
		a.Logger().Warn("dead stone estimate failed; the marking stands", "game", g.ID, "err", err)
	} else {
		for _, c := range []engine.Color{engine.Black, engine.White} {
			if _, ok := disagrees(g, c, ph.Proposal(), conceded(g)); ok && !g.Scoring.Accepted[engine.SideOf(c)] {
				// The proposal, and the stones their owners gave.
				setDead(g, withConceded(ph.Proposal(), conceded(g)))
				g.Scoring.Settled = markingProposal
				note = fmt.Sprintf("Time for agreeing on the dead stones ran out, and %s %s had not accepted a marking that went against my estimate: my proposed marking counts.",
					stoneEmoji(c), teamMention(g, c))
				break
			}
		}
	}
	err := a.endByScore(ctx, nil, g, note)
	if err != nil && !errors.Is(err, commands.ErrConflict) {
		a.Logger().Warn("scoring timeout", "game", g.ID, "err", err)
	}
}

// completeDead suggests stones on the board, saying which are marked dead.
func (a *room) completeDead(ctx context.Context, r *commands.Request) error {
	_, typed := r.Focused()
	g, err := a.GameStore().Game(ctx, r.Interaction.ChannelID)
	if err != nil || g.Scoring == nil {
		return r.Choices(ctx, nil)
	}
	prefix := engine.TypedPoint(typed)
	dead := map[engine.Point]bool{}
	for _, p := range deadOf(g) {
		dead[p] = true
	}
	bd := goOf(g).Board()
	size := goOf(g).Size()
	var names []string
	label := map[string]string{}
	for row := 0; row < size; row++ {
		for col := 0; col < size; col++ {
			p := engine.Point{Col: col, Row: row}
			c := bd.At(p)
			if c == engine.Empty || !strings.HasPrefix(p.String(), prefix) {
				continue
			}
			names = append(names, p.String())
			status := "alive"
			if dead[p] {
				status = "marked dead"
			}
			label[p.String()] = fmt.Sprintf("%s: %s stone, %s", p, c, status)
		}
	}
	return r.Choices(ctx, pointChoices(nil, names, func(n string) string { return label[n] }))
}

// withConceded is the marking dead with the conceded stones added.
func withConceded(dead, conceded []engine.Point) []engine.Point {
	out := slices.Clone(dead)
	for _, p := range conceded {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// conceded returns g's conceded stones (storage.ScoringState.Conceded),
// as points.
func conceded(g *storage.Game) []engine.Point { return scoringPoints(g, g.Scoring.Conceded) }

// deadOf returns the stones g's scoring phase marks dead, as points. The
// store keeps them as the engine writes them ("D4"); a point that does not
// read on g's board is left out (the marking then loses it, and the
// players see the count without it).
func deadOf(g *storage.Game) []engine.Point {
	if g.Scoring == nil {
		return nil
	}
	return scoringPoints(g, g.Scoring.Dead)
}

// scoringPoints reads the points of g's scoring phase as the store keeps
// them ("D4"), leaving out one that does not read on g's board.
func scoringPoints(g *storage.Game, list []string) []engine.Point {
	size := goOf(g).Size()
	pts := make([]engine.Point, 0, len(list))
	for _, d := range list {
		if p, err := engine.ParsePoint(d, size); err == nil {
			pts = append(pts, p)
		}
	}
	return pts
}

// concede updates g's conceded stones (storage.ScoringState.Conceded)
// after mover toggled the marking from before to g's: the stones of
// mover's colour it marked dead are conceded, and the stones it brought
// back to life, or the opponent's it marked dead, are not.
func concede(g *storage.Game, before []engine.Point, mover engine.Color) {
	was := map[string]bool{}
	for _, p := range before {
		was[p.String()] = true
	}
	dead := map[string]bool{}
	for _, d := range g.Scoring.Dead {
		dead[d] = true
	}
	bd := goOf(g).Board()
	var conceded []string
	for _, d := range g.Scoring.Conceded {
		if dead[d] {
			conceded = append(conceded, d) // still dead, as its owner marked it
		}
	}
	for _, p := range deadOf(g) {
		if !was[p.String()] && bd.At(p) == mover {
			conceded = append(conceded, p.String())
		}
	}
	g.Scoring.Conceded = conceded
}

// setDead makes pts g's marking of dead stones.
func setDead(g *storage.Game, pts []engine.Point) {
	dead := make([]string, 0, len(pts))
	for _, p := range pts {
		dead = append(dead, p.String())
	}
	g.Scoring.Dead = dead
}
