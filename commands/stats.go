package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// Ratings, /go stats and /go leaderboard. The rating arithmetic is
// storage/glicko's and storage applies it when a game is archived; this
// file decides which games are rated (rated:, see finish) and shows the
// results.

// recentGames is how many finished games /go stats lists.
const recentGames = 5

// leaderboardPageSize is how many places a /go leaderboard page shows.
const leaderboardPageSize = 10

// colorByRating is the challenge colour of a handicap challenge made
// without a colour: Black goes to the lower-rated player on acceptance.
const ColorByRating = "rating"

// RatedOption reads rated: (default true).
func RatedOption(r *Request) (bool, error) {
	rated, given, err := r.Bool("rated")
	if err != nil {
		return false, err
	}
	return rated || !given, nil
}

// EngineRated is RatedOption for a game against the bot level, which is
// an external engine when external (a GTP program in Go, a Hub engine in
// draughts). A game against an external engine is never rated: gobot
// cannot know the engine's strength, so it would start as a new player
// (1500?) however strong it is, and a person losing to a program of
// master strength would lose as many points as to a beginner. lidraughts
// and lichess do not rate games against their engines either. rated:true
// against one is refused rather than quietly ignored; without rated: the
// game is unrated, and its first answer says so (EngineUnrated).
func EngineRated(r *Request, level string, external bool) (bool, error) {
	rated, given, err := r.Bool("rated")
	switch {
	case err != nil:
		return false, err
	case !external:
		return rated || !given, nil
	case given && rated:
		return false, UserErr(ErrBadOption, fmt.Sprintf("A game against gobot **%s** cannot be rated: %s. Leave `rated:` out to play it unrated.", level, engineUnknown(level)))
	}
	return false, nil
}

// UnratedByChoice is the rating line of a finished game that was started
// unrated (rated:false, rengo, a vote game).
const UnratedByChoice = "Not rated: the game was started unrated."

// RatedWord says whether a game starting now will be rated, as the answer
// starting it ends: "rated" or "unrated". rated is what the game asked for;
// poolsNote is PoolsNote for it: a game that no rating pool of its server
// counts is unrated however it asked.
func RatedWord(rated bool, poolsNote string) string {
	if rated && poolsNote == "" {
		return "rated"
	}
	return "unrated"
}

// ratingsOff and botsGlobalOnly say why no rating pool counts a game on a
// server whose admins turned pools off (PoolsNote).
const (
	ratingsOff     = "Not rated: ratings are off on this server, as its admins chose."
	botsGlobalOnly = "Not rated: this server's admins turned off the global ratings, and games against bots count only there."
)

// poolsNote says why no rating pool counts a game on a server (guild: not
// a DM) with its own pool off (serverOff) or the global one (globalOff),
// or "" when one does. A game against a bot counts in the global pool
// only, as storage rates it (a level's rating is one everywhere), so
// turning that pool off leaves it unrated.
func poolsNote(guild, serverOff, globalOff, bot bool) string {
	switch {
	case !guild || !globalOff:
		return ""
	case serverOff:
		return ratingsOff
	case bot:
		return botsGlobalOnly
	}
	return ""
}

// poolsWait bounds PoolsNote's read of the settings.
const poolsWait = 5 * time.Second

// PoolsNote says why no rating pool would count a game between players
// on guildID's server (a bot among them when bot) finishing now, as its
// admins set the pools (serverPools applies them when a game finishes),
// or "" when one would. The answer starting a game, its challenge and its
// board say "unrated" then. When the settings cannot be read it says ""
// (the game's end says what was done; the error is logged).
func (a *App) PoolsNote(ctx context.Context, guildID string, bot bool) string {
	if guildID == "" {
		return ""
	}
	// Boards and challenge texts ask while they are drawn, some without a
	// request's context: a store that hangs must not hold them.
	ctx, cancel := context.WithTimeout(ctx, poolsWait)
	defer cancel()
	st, err := a.Settings(ctx, guildID)
	if err != nil {
		a.log.Warn("rating pools of a server", "guild", guildID, "err", err)
		return ""
	}
	return poolsNote(true, st.ServerRatingsOff, st.GlobalRatingsOff, bot)
}

// pairLimitReason says why a game of two people is not rated under the
// limit of their rated games against each other (PairRatedLimit in
// PairWindow): the final message's words, which a challenge's warning
// (pairLimitNote) uses too.
func pairLimitReason(p0, p1 storage.Player) string {
	return fmt.Sprintf("%s and %s have finished %d rated games against each other in the last 24 hours, the most that count (so that nobody can farm a rating)",
		Mention(p0), Mention(p1), PairRatedLimit)
}

// pairLimitPage is how many of the challenger's games pairLimitNote reads
// at a time, newest first, until they are older than PairWindow.
const pairLimitPage = 50

// pairLimitNote warns, on a rated challenge between two people whose rated
// games against each other reach the limit already, that the game will
// not be rated if it ends before a rated game between them counts again:
// else only its final message would say so (OGS shows whether a game is
// ranked before it starts). The store decides when the game ends, so this
// is a forecast. It is "" when the game would be rated, or could not be
// in any case (open, team, bot or unrated challenges).
func (a *App) pairLimitNote(ctx context.Context, c *storage.Challenge) string {
	if c.Open() || c.Team() || c.Unrated || c.Opponent.IsBot() || a.PoolsNote(ctx, c.GuildID, false) != "" {
		return ""
	}
	now := a.Now()
	var games []*storage.Archived
	for offset := 0; ; offset += pairLimitPage {
		page, _, err := a.archive.PlayerGamesPage(ctx, c.Challenger.Key(), offset, pairLimitPage, nil)
		if err != nil {
			a.log.Warn("games of a challenger, for the pair limit", "player", c.Challenger.Key(), "err", err)
			return ""
		}
		games = append(games, page...)
		if len(page) < pairLimitPage || !page[len(page)-1].FinishedAt.After(now.Add(-PairWindow)) {
			break
		}
	}
	until := storage.PairLimitedUntil(storage.PairLimit{Games: PairRatedLimit, Window: PairWindow}, c.Kind, c.Challenger, c.Opponent, games, now)
	if until.IsZero() {
		return ""
	}
	return fmt.Sprintf("Not rated if it ends before <t:%d:f>: %s.", until.Unix(), pairLimitReason(c.Challenger, c.Opponent))
}

// hasBot reports whether a bot plays in g.
func hasBot(g *storage.Game) bool {
	return slices.ContainsFunc(g.Players(), storage.Player.IsBot)
}

// ShownUnrated reports whether g's board says "unrated": started unrated,
// or counted in no rating pool of its server (PoolsNote).
func (a *App) ShownUnrated(ctx context.Context, g *storage.Game) bool {
	return g.Unrated || a.PoolsNote(ctx, g.GuildID, hasBot(g)) != ""
}

// ArchivedShownUnrated is ShownUnrated for a finished game: its final
// board says "unrated" as its boards did while it was played.
func ArchivedShownUnrated(arc *storage.Archived) bool {
	return arc.Unrated || ArchivedPoolsNote(arc) != ""
}

// ArchivedPoolsNote is PoolsNote for a finished game, as the pools were
// when it finished (its NoPools).
func ArchivedPoolsNote(arc *storage.Archived) string {
	off := func(pool string) bool { return slices.Contains(arc.NoPools, storage.KindPool(arc.Kind, pool)) }
	return poolsNote(arc.GuildID != "", off(storage.GuildPool(arc.GuildID)), off(storage.GlobalPool), arc.Black.IsBot() || arc.White.IsBot())
}

// EngineUnrated says why a game against the external engine level is
// unrated: the sentence the answer starting it ends with, and its
// finished game's rating line (UnratedNote).
func EngineUnrated(level string) string {
	return fmt.Sprintf("Not rated: %s, so games against it never are.", engineUnknown(level))
}

// engineUnknown says that gobot does not know level's strength.
func engineUnknown(level string) string {
	return fmt.Sprintf("gobot does not know the strength of **%s**, an external engine", level)
}

// ratingPool is the pool a game in guildID would be rated in for the
// players' relative strength: the server's, or the global one in DMs.
func ratingPool(guildID string) string {
	if guildID == "" {
		return storage.GlobalPool
	}
	return storage.GuildPool(guildID)
}

// StartRanks fills g.Ranks, as g begins, with each person's rank in the
// pool the game counts in: this server's for two people on a server
// (the global one when the server's admins turned theirs off), the
// global one in a DM or against a bot, as the final message's first
// ratings line has it. A rank is the one /go stats shows, taken now so
// that the record keeps it when the game moves the rating; a provisional
// rating (shown "?") or none gives "", so the record names no invented
// rank. A bot's side is left "" for its room to fill with its level's
// rank, and a team game, whose sides are several people, has no ranks.
// A game started unrated gets them too: OGS writes the ranks of its
// unranked games' players, and the rank says who played, not what the
// game was worth. A rating that cannot be read gives "" (logged): the
// game starts all the same.
func (a *App) StartRanks(ctx context.Context, g *storage.Game) {
	if g.Team() {
		return
	}
	pool := storage.GlobalPool
	if g.GuildID != "" && !hasBot(g) {
		pool = storage.GuildPool(g.GuildID)
		if st, err := a.Settings(ctx, g.GuildID); err != nil {
			a.log.Warn("rating pools of a server, for the ranks of a new game", "guild", g.GuildID, "err", err)
		} else if st.ServerRatingsOff {
			pool = storage.GlobalPool
		}
	}
	pool = storage.KindPool(g.Kind, pool)
	ranks := make([]string, len(g.Sides))
	for i, s := range g.Sides {
		if len(s.Players) != 1 || s.Players[0].IsBot() {
			continue
		}
		pr, err := a.stats.Rating(ctx, pool, s.Players[0].Key())
		if err != nil {
			if !errors.Is(err, storage.ErrNotFound) {
				a.log.Warn("rating for the rank of a new game", "player", s.Players[0].Key(), "err", err)
			}
			continue
		}
		r := pr.Current(a.Now())
		switch rank := a.rankText(g.Kind, r); rank {
		case "?": // no rank shown yet
		case "":
			// A kind without ranks (draughts) records the rating, as
			// lidraughts' PDN does in WhiteElo and BlackElo.
			ranks[i] = fmt.Sprintf("%.0f", r.Rating)
		default:
			ranks[i] = rank
		}
	}
	if slices.ContainsFunc(ranks, func(r string) bool { return r != "" }) {
		g.Ranks = ranks
	}
}

// LowerRatedColor decides the colour of the challenger of c, a handicap
// challenge that named none, as the ratings stand in the game's pool when
// it is accepted: "black" when the challenger is rated lower than the
// opponent, "white" when higher, "nigiri" (drawn at random) when they are
// rated the same as shown (two new players, most often). why says so for
// the game's start, which must not leave the players to guess why one of
// them got Black: "Black to the lower-rated player: @ann 1420 against @bob
// 1510." or "Equal ratings (1500 each): colours drawn at random."
func (a *App) LowerRatedColor(ctx context.Context, c *storage.Challenge) (color, why string) {
	pool := storage.KindPool(c.Kind, ratingPool(c.GuildID))
	rating := func(p storage.Player) glicko.Rating {
		pr, err := a.stats.Rating(ctx, pool, p.Key())
		if err != nil {
			if !errors.Is(err, storage.ErrNotFound) {
				a.log.Warn("rating for the handicap colour", "player", p.Key(), "err", err)
			}
			return glicko.New()
		}
		return pr.Rating
	}
	rc, ro := rating(c.Challenger), rating(c.Opponent)
	// Compared as shown: "lower-rated, 1500 against 1500" would read as a
	// mistake.
	lower := func(low storage.Player, lr glicko.Rating, high storage.Player, hr glicko.Rating) string {
		return fmt.Sprintf("Black to the lower-rated player: %s %s against %s %s.", Mention(low), a.ratingNumber(c.Kind, lr), Mention(high), a.ratingNumber(c.Kind, hr))
	}
	switch shownC, shownO := math.Round(rc.Rating), math.Round(ro.Rating); {
	case shownC < shownO:
		return "black", lower(c.Challenger, rc, c.Opponent, ro)
	case shownC > shownO:
		return "white", lower(c.Opponent, ro, c.Challenger, rc)
	}
	return "nigiri", fmt.Sprintf("Equal ratings (%s each): colours drawn at random.", a.ratingNumber(c.Kind, rc))
}

// RatingNote says how a game that just ended moved its players' ratings,
// in the server's pool for a game between two people on a server, then in
// the global one ("📈 Ratings on this server: @alice 1500 → 1662 (+162) ·
// @bob 1500 → 1338 (−162)", "🌐 Global ratings: …", or why the global
// pool left it out: notGlobal), and in the global one alone for a game in a DM or
// against a bot ("📈 Ratings: …" in a DM, "📈 Global ratings: …" on a
// server). A game that storage left unrated
// although it was asked to rate it says why: the room's UnratedNote, both
// rating pools turned off by the server's admins, or the limit of rated
// games between two players; a game started unrated says so
// (UnratedByChoice). The note is empty when the changes cannot be read
// (the game is archived; only the note is lost, and logged).
func (a *App) RatingNote(ctx context.Context, g *storage.Game) string {
	changes, err := a.stats.GameRatingChanges(ctx, g.ID)
	if err != nil {
		a.log.Warn("rating changes of a finished game", "game", g.ID, "err", err)
		return ""
	}
	global := storage.KindPool(g.Kind, storage.GlobalPool)
	server := ""
	for _, c := range changes {
		if c.Pool != global {
			server = c.Pool
		}
	}
	// line is the changes in pool, "" when it has none.
	line := func(pool string) string {
		var parts []string
		for _, c := range changes {
			if c.Pool != pool {
				continue
			}
			p := g.First(0)
			if c.Player == g.First(1).Key() {
				p = g.First(1)
			}
			parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", Mention(p), a.ratingNumber(g.Kind, c.Before), a.ratingNumber(g.Kind, c.After), ratingDelta(c)))
		}
		return strings.Join(parts, " · ")
	}
	here, everywhere := "", line(global)
	if server != "" {
		here = line(server)
	}
	if here == "" && everywhere == "" {
		if note := a.roomOf(g).UnratedNote(g); note != "" {
			return note
		}
		if g.Unrated {
			// rated:false, or a rengo or vote game: the player who
			// chose it, or anyone watching, is told it changed nothing.
			return UnratedByChoice
		}
		arc, err := a.archive.ArchivedGame(ctx, g.ID)
		if err != nil {
			a.log.Warn("archive of a finished game", "game", g.ID, "err", err)
			return ""
		}
		if note := adjudicatedNote(arc); note != "" {
			return note
		}
		if note := ArchivedPoolsNote(arc); note != "" {
			return note
		}
		if !arc.PairLimitedUntil.IsZero() {
			return fmt.Sprintf("Not rated: %s; a rated game between them counts again <t:%d:R>.", pairLimitReason(g.First(0), g.First(1)), arc.PairLimitedUntil.Unix())
		}
		return ""
	}
	switch {
	case here == "":
		// Only the global pool: a DM, a bot, or the server's own pool
		// turned off by its admins.
		if g.GuildID == "" {
			return "📈 Ratings: " + everywhere
		}
		return "📈 Global ratings: " + everywhere
	case everywhere == "":
		// The server's pool alone: the second line says why the global
		// one left the game out.
		return "📈 Ratings on this server: " + here + a.notGlobal(ctx, g)
	default:
		// Both pools, said apart even when they moved alike (a first
		// game), so that nobody wonders whether the global one counted.
		return "📈 Ratings on this server: " + here + "\n🌐 Global ratings: " + everywhere
	}
}

// adjudicatedNote says why a game that a server's admin decided was not
// rated when that is why (storage.Archived.Adjudicated: the server's pool
// only): a game against a bot, which only the global pool counts, or a
// server whose own ratings are off. It is "" for any other game.
func adjudicatedNote(arc *storage.Archived) string {
	const why = "Not rated: a result that a server's admin decided counts only in that server's ratings"
	switch {
	case !arc.Adjudicated:
		return ""
	case arc.Black.IsBot() || arc.White.IsBot():
		return why + ", and games against bots count only in the global ones."
	case slices.Contains(arc.NoPools, storage.KindPool(arc.Kind, storage.GuildPool(arc.GuildID))):
		return why + ", which its admins turned off."
	}
	return ""
}

// notGlobal says, on a line of its own, why the global pool left out a
// game of two people that this server's pool rated: a server's admin
// decided it (storage.Archived.Adjudicated), or this server's admins
// turned the global ratings off. It is "" when the archive cannot be read
// (logged): the first line stands alone.
func (a *App) notGlobal(ctx context.Context, g *storage.Game) string {
	arc, err := a.archive.ArchivedGame(ctx, g.ID)
	if err != nil {
		a.log.Warn("archive of a finished game", "game", g.ID, "err", err)
		return ""
	}
	if arc.Adjudicated {
		return "\n🌐 Not in the global ratings: a result that a server's admin decided counts only on that server."
	}
	return "\n🌐 Not in the global ratings: this server's admins turned them off."
}

// playerOption is the player a command's player: option names, the
// caller when it names none. A bot account has no record of its own to
// show: gobot plays at levels, which the help lists, and another bot
// plays no game here.
func (a *App) playerOption(r *Request) (*discordgo.User, error) {
	u, ok := r.UserOption("player")
	switch {
	case !ok:
		return r.User, nil
	case u.ID == a.opts.AppID || u.ID == r.Interaction.AppID:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("I play at levels, each rated on its own and with its own rank: `/%s help` lists them. Games against me count in your own `/%s stats` and `/%s history`.", commandOf(r), commandOf(r), commandOf(r)))
	case u.Bot:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("%s is a bot account and plays no games here, so it has no record.", Mention(UserPlayer(u))))
	}
	return u, nil
}

// CmdStats is /go stats and /draughts stats: a player's ratings and record
// in the command's game, counting that game's finished games only (a
// draughts draw is never a jigo of Go, nor a Go win a draughts streak).
func (a *App) CmdStats(ctx context.Context, r *Request) error {
	u, err := a.playerOption(r)
	if err != nil {
		return err
	}
	p := UserPlayer(u)
	rm := a.commandRoom(r)
	kind := rm.Kind()
	ofKind := func(arc *storage.Archived) bool { return storage.KindOf(arc.Kind) == storage.KindOf(kind) }
	seer := a.viewer(ctx, r) // reads Discord only when asked of a game not the asker's
	all, err := a.stats.PlayerStats(ctx, u.ID)
	var st *storage.PlayerStats
	if err == nil {
		st = all.Kind(kind)
	}
	if errors.Is(err, storage.ErrNotFound) || (err == nil && st == nil) {
		// No counted game of this kind; the history may hold annulled or
		// aborted ones, and team games, which count for each team's first
		// player only.
		var annulled, team int
		if games, herr := a.archive.PlayerGames(ctx, u.ID, 100); herr == nil {
			for _, arc := range games {
				switch {
				case !ofKind(arc):
				case u.ID != r.User.ID && !seer.canSee(arc):
				case arc.Annulled:
					annulled++
				default:
					team++
				}
			}
		}
		var held []string
		if annulled > 0 {
			held = append(held, Plural(annulled, "game")+" annulled or aborted")
		}
		if team > 0 {
			held = append(held, Plural(team, "team game")+" (the record counts each team's first player)")
		}
		if len(held) > 0 {
			return r.ReplyText(ctx, fmt.Sprintf("%s has no counted game of %s yet: %s, which `/%s history` lists.", Mention(p), rm.Name(), strings.Join(held, " and "), commandOf(r)), true)
		}
		// A new player's rating, as OGS shows it before the first game.
		return r.ReplyText(ctx, fmt.Sprintf("%s has not finished a game of %s yet: a first rating is %.0f ± %.0f, which the first rated games settle.", Mention(p), rm.Name(), glicko.Initial, glicko.InitialRD), true)
	}
	if err != nil {
		return err
	}
	keep := ofKind
	if u.ID != r.User.ID {
		keep = func(arc *storage.Archived) bool { return ofKind(arc) && seer.canSee(arc) }
	}
	games, visible, err := a.archive.PlayerGamesPage(ctx, u.ID, 0, recentGames, keep)
	if err != nil && len(games) == 0 {
		return err
	}
	hidden := 0
	if u.ID != r.User.ID {
		hidden = a.hiddenGames(ctx, a.archive, u.ID, visible, ofKind)
	}
	now := a.Now()
	var sb strings.Builder
	pools := []struct{ name, pool string }{{"This server", storage.KindPool(kind, ratingPool(r.Interaction.GuildID))}, {"Global", storage.KindPool(kind, storage.GlobalPool)}}
	if r.Interaction.GuildID == "" {
		pools = pools[1:]
	}
	if p := storage.KindPool(kind, storage.GlobalPool); p != storage.GlobalPool {
		// A kind whose pools are named apart (every kind but Go) says so.
		sb.WriteString("**" + strings.ToUpper(kind[:1]) + kind[1:] + " rating**\n")
	} else {
		sb.WriteString("**Rating**\n")
	}
	// The changes of the last rated games (as recomputed after an admin
	// annulled a game, unlike the final messages of the games since),
	// as OGS's and lidraughts' rating graphs show them.
	history, _ := a.stats.RatingHistory(ctx, p.Key())
	for _, pl := range pools {
		pr, err := a.stats.Rating(ctx, pl.pool, u.ID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			fmt.Fprintf(&sb, "%s: not rated yet\n", pl.name)
		case err != nil:
			return err
		default:
			fmt.Fprintf(&sb, "%s: %s · %s\n", pl.name, a.describeRating(kind, pr.Current(now)), Plural(pr.Games, "rated game"))
			if trend := ratingTrend(history, pl.pool); trend != "" {
				sb.WriteString("-# " + trend + "\n")
			}
		}
	}
	tie := "drawn"
	if storage.KindOf(kind) == storage.KindOf("") {
		tie = "jigo" // Go's word for a draw
	}
	fmt.Fprintf(&sb, "\n**%s**: %d won, %d lost", Plural(st.Games, "game"), st.Wins, st.Losses)
	if st.Ties > 0 {
		fmt.Fprintf(&sb, ", %d %s", st.Ties, tie)
	}
	if st.NoResult > 0 {
		fmt.Fprintf(&sb, ", %d without result", st.NoResult)
	}
	sb.WriteString("\n")
	var sizes []int
	for size := range st.BySize {
		if size > 0 { // a board's size; 0 for the games without one (draughts)
			sizes = append(sizes, size)
		}
	}
	slices.Sort(sizes)
	var bySize []string
	for _, size := range sizes {
		s := st.BySize[size]
		line := fmt.Sprintf("%d×%d: %d won, %d lost", size, size, s.Wins, s.Losses)
		if s.Ties > 0 {
			line += fmt.Sprintf(", %d %s", s.Ties, tie)
		}
		bySize = append(bySize, line)
	}
	if len(bySize) > 0 {
		sb.WriteString(strings.Join(bySize, " · ") + "\n")
	}
	switch {
	case st.Streak > 0:
		fmt.Fprintf(&sb, "Streak: %s in a row\n", Plural(st.Streak, "win"))
	case st.Streak < 0:
		fmt.Fprintf(&sb, "Streak: %s in a row\n", Plural(-st.Streak, "loss"))
	}
	if len(games) > 0 {
		sb.WriteString("\n**Latest games**\n")
	}
	for _, arc := range games {
		sb.WriteString(a.historyLine(arc, u.ID, 0) + "\n")
	}
	if hidden > 0 {
		sb.WriteString("-# " + hiddenNote(hidden) + "\n")
	}
	return r.Reply(ctx, &Message{
		Ephemeral: true,
		Embeds: []*discordgo.MessageEmbed{{
			Title:       Clip("Record of "+ShownName(all.Player), 256),
			Description: Clip(sb.String(), 4096),
			Color:       ColorBlack,
		}},
	})
}

// trendGames is how many of the last rated games ratingTrend shows.
const trendGames = 6

// ratingTrend is the rating before the last trendGames rated games of
// pool in history and after each, with each change: "Last 3 rated games:
// 1500 → 1662 (+162) → 1433 (−229) → 1338 (−95)". Empty without any.
func ratingTrend(history []storage.RatingChange, pool string) string {
	var in []storage.RatingChange
	for _, c := range history {
		if c.Pool == pool {
			in = append(in, c)
		}
	}
	if len(in) == 0 {
		return ""
	}
	in = in[max(0, len(in)-trendGames):]
	parts := []string{fmt.Sprintf("%.0f", in[0].Before.Rating)}
	for _, c := range in {
		parts = append(parts, fmt.Sprintf("%.0f (%s)", c.After.Rating, ratingDelta(c)))
	}
	return fmt.Sprintf("Last %s: %s", Plural(len(in), "rated game"), strings.Join(parts, " → "))
}

// ratingDelta is what a game changed a rating by, as the ratings are shown
// (rounded): "+162", "−229".
func ratingDelta(c storage.RatingChange) string {
	d := math.Round(c.After.Rating) - math.Round(c.Before.Rating)
	if d < 0 {
		return fmt.Sprintf("−%.0f", -d)
	}
	return fmt.Sprintf("+%.0f", d)
}

// sideEmojis are a finished game's sides in history lines, the first
// side's (Black's) first.
var sideEmojis = [2]string{"⚫", "⚪"}

// historyLine describes a finished game from the point of view of the
// player with key: "`3.` ⚫ won vs @bob · 19×19 · B+3.5 · rated · <t:…:R> ·
// `ID`" (without the number when n is 0); an annulled game is "⚫ annulled
// vs @bob · 9×9 · on time · not counted · …" when it was annulled on
// time (no score: nobody won it), "⚫ annulled vs @bob · 9×9 · W+R · not
// counted · …" when an admin annulled it afterwards; a team game "⚫ won
// with @cid vs @bob, @dan · …".
func (app *App) historyLine(a *storage.Archived, key string, n int) string {
	c, _ := a.SideOf(key)
	c = max(c, 0) // a game the player did not play (never listed) reads as Black's
	against := JoinNames(a.Team(c.Opponent()), Mention)
	// A team game names the player's teammates too ("won with @ann vs
	// …"), and counts in the statistics of each team's first player
	// only: for the others it is not counted, as their record says.
	with, teammate := "", false
	if team := a.Team(c); len(team) > 1 {
		var mates []storage.Player
		for _, p := range team {
			if p.Key() != key {
				mates = append(mates, p)
			}
		}
		with, teammate = " with "+JoinNames(mates, Mention), team[0].Key() != key
	}
	outcome := "drawn"
	if storage.KindOf(a.Kind) == storage.KindOf("") {
		outcome = "jigo" // Go's word for a draw
	}
	switch {
	case a.Annulled && a.Result == "Void" && !a.AnnulledInPlay:
		outcome = "aborted"
	case a.Annulled:
		outcome = "annulled"
	case a.WinnerSide() == c:
		outcome = "won"
	case a.WinnerSide() == c.Opponent():
		outcome = "lost"
	case a.WinnerSide() == game.NoSide && a.Result != "0":
		outcome = "no result"
	}
	rated := "unrated"
	switch {
	case a.Annulled, teammate:
		rated = "not counted"
	case a.Rated:
		rated = "rated"
	}
	num := ""
	if n > 0 {
		num = "`" + strconv.Itoa(n) + ".` "
	}
	result := app.resultText(a)
	if AnnulledOnTimeArc(a) {
		result = "on time"
	}
	return fmt.Sprintf("%s%s %s%s vs %s · %s · %s · %s · <t:%d:R> · `%s`",
		num, sideEmojis[c], outcome, with, against, app.archivedSetup(a), result, rated, a.FinishedAt.Unix(), a.ID)
}

// Plural says a count with its noun: "1 game", "3 games", "2 losses".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (a *App) CmdLeaderboard(ctx context.Context, r *Request) error {
	kind := a.commandRoom(r).Kind()
	pool := storage.KindPool(kind, ratingPool(r.Interaction.GuildID))
	if scope, ok := r.String("scope"); ok {
		switch scope {
		case "global":
			pool = storage.KindPool(kind, storage.GlobalPool)
		case "server":
			if r.Interaction.GuildID == "" {
				return UserErr(ErrBadOption, fmt.Sprintf("There is no server here: use `/%s leaderboard scope:global`.", commandOf(r)))
			}
		default:
			return UserErr(ErrBadOption, fmt.Sprintf("The scope must be server or global, not %s.", Quote(scope)))
		}
	}
	page, given, err := r.Int("page")
	if err != nil {
		return err
	}
	if !given {
		page = 1
	}
	m, err := a.leaderboardMessage(ctx, r, pool, page)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
}

// leaderboardOmits are the players that pool's leaderboard leaves off:
// on a server's own leaderboard, those banned there while the ban lasts
// (as OGS and lichess leave banned accounts off theirs). The global
// leaderboard is every server's: one server's ban does not change it.
func (a *App) leaderboardOmits(ctx context.Context, guildID, pool string, rm Room) ([]string, error) {
	if guildID == "" || pool != storage.KindPool(rm.Kind(), storage.GuildPool(guildID)) {
		return nil, nil
	}
	bans, err := a.admin.GuildBans(ctx, guildID)
	if err != nil {
		return nil, err
	}
	now := a.Now()
	var omit []string
	for _, b := range bans {
		if b.Active(now) {
			omit = append(omit, b.User.Key())
		}
	}
	return omit, nil
}

// btnLeaderboard turns a leaderboard page.
func (a *App) btnLeaderboard(ctx context.Context, r *Request) error {
	page, err := strconv.Atoi(r.Param("page"))
	if err != nil {
		return ErrStale
	}
	pool := r.Param("pool")
	if !slices.ContainsFunc(a.rooms.list, func(rm Room) bool {
		return pool == storage.KindPool(rm.Kind(), storage.GlobalPool) || pool == storage.KindPool(rm.Kind(), ratingPool(r.Interaction.GuildID))
	}) {
		return ErrStale
	}
	m, err := a.leaderboardMessage(ctx, r, pool, page)
	if err != nil {
		return err
	}
	return r.Update(ctx, m)
}

// leaderboardMessage is page page of pool's leaderboard, with the
// caller's place and Previous / Next buttons.
func (a *App) leaderboardMessage(ctx context.Context, r *Request, pool string, page int) (*Message, error) {
	if page < 1 {
		return nil, UserErr(ErrBadOption, "Pages start at 1.")
	}
	rm := a.commandRoom(r) // the room whose pool it is, for a button
	for _, k := range a.rooms.list {
		if pool == storage.KindPool(k.Kind(), storage.GlobalPool) || pool == storage.KindPool(k.Kind(), ratingPool(r.Interaction.GuildID)) {
			rm = k
		}
	}
	if err := a.leaderboardShown(ctx, r.Interaction.GuildID, rm); err != nil {
		return nil, err
	}
	omit, err := a.leaderboardOmits(ctx, r.Interaction.GuildID, pool, rm)
	if err != nil {
		return nil, err
	}
	lb, err := a.stats.Leaderboard(ctx, pool, (page-1)*leaderboardPageSize, leaderboardPageSize, a.Now(), r.User.ID, omit)
	if err != nil {
		return nil, err
	}
	scope, kind, yours := "this server", a.rooms.list[0].Kind(), "Your rating here"
	for _, rm := range a.rooms.list {
		if pool == storage.KindPool(rm.Kind(), storage.GlobalPool) {
			scope, yours = "all servers (global)", "Your global rating"
		}
	}
	for _, rm := range a.rooms.list {
		if strings.HasPrefix(pool, rm.Kind()+":") {
			scope, kind = rm.Kind()+", "+scope, rm.Kind()
		}
	}
	// provisional says the caller's rating in the pool when they are not
	// on its leaderboard: " Your rating here, 1662? ± 290, is provisional."
	// (" Your global rating, …" on the global one).
	provisional := func() string {
		if pr, err := a.stats.Rating(ctx, pool, r.User.ID); err == nil {
			return fmt.Sprintf(" %s, %s, is provisional.", yours, a.describeRating(kind, pr.Current(a.Now())))
		}
		return ""
	}
	pages := (lb.Total + leaderboardPageSize - 1) / leaderboardPageSize
	switch {
	case lb.Total == 0:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("Nobody is on the leaderboard of %s yet: a player appears once their rating deviation is below %.0f (%s).%s", scope, glicko.ProvisionalRD, Establishing(), provisional()))
	case page > pages:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("There is no page %d: the leaderboard of %s has %s.", page, scope, Plural(pages, "page")))
	}
	var sb strings.Builder
	line := func(l storage.Leader) string {
		return fmt.Sprintf("`%d.` %s · %s · %s", l.Place, Mention(l.Rating.Player), a.describeRating(kind, l.Rating.Rating), Plural(l.Rating.Games, "game"))
	}
	for _, l := range lb.Leaders {
		sb.WriteString(line(l) + "\n")
	}
	sb.WriteString("\n")
	switch {
	case lb.Caller.Place > 0:
		sb.WriteString("**Your place**: " + line(lb.Caller) + "\n")
	case slices.Contains(omit, r.User.ID):
		sb.WriteString("You are not on this leaderboard while your ban on this server lasts.\n")
	default:
		fmt.Fprintf(&sb, "You are not on this leaderboard: it lists players whose rating deviation is below %.0f.%s\n", glicko.ProvisionalRD, provisional())
	}
	fmt.Fprintf(&sb, "-# Page %d of %d · %s · established players only (deviation below %.0f)", page, pages, Plural(lb.Total, "player"), glicko.ProvisionalRD)
	return &Message{
		Ephemeral: true,
		Embeds: []*discordgo.MessageEmbed{{
			Title:       "Leaderboard of " + scope,
			Description: Clip(sb.String(), 4096),
			Color:       ColorBlack,
		}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Previous", Style: discordgo.PrimaryButton, CustomID: "leaderboard/" + pool + "/" + strconv.Itoa(page-1), Disabled: page <= 1},
			discordgo.Button{Label: "Next", Style: discordgo.PrimaryButton, CustomID: "leaderboard/" + pool + "/" + strconv.Itoa(page+1), Disabled: page >= pages},
		}}},
	}, nil
}
