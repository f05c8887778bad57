package goroom

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// helpHere is what /go help's fields say of the server it is asked on,
// where it differs from gobot's own: the default clock and board size,
// the rating pools and the leaderboard its admins turned off (the rest of
// what they chose is above the help: goTerms). The zero value but clock
// and size is gobot's own (in a DM, or where the admins changed nothing).
type helpHere struct {
	clock                                   clock.Control
	size                                    int
	serverOff, globalOff, leaderboardHidden bool
}

// hereOf is helpHere for the server of st, whose default clock is
// defaultClock when its admins chose none.
func hereOf(st *storage.Settings, defaultClock clock.Control) helpHere {
	h := helpHere{clock: defaultClock, size: 19, serverOff: st.ServerRatingsOff, globalOff: st.GlobalRatingsOff, leaderboardHidden: st.LeaderboardHidden}
	if st.Clock != nil {
		h.clock = *st.Clock
	}
	if st.Size != 0 {
		h.size = st.Size
	}
	return h
}

// helpText explains every command, the bot levels, the rulesets and the
// coordinates; challengeTTL and scoringTTL are the configured time limits,
// here the server's defaults and restrictions.
func helpText(levels []commands.Level, challengeTTL, scoringTTL time.Duration, here helpHere) []*discordgo.MessageEmbed {
	defaultClock, defaultSize := here.clock, here.size
	var rules strings.Builder
	for _, name := range engine.PresetNames {
		r, _ := engine.Preset(name)
		fmt.Fprintf(&rules, "• **%s**: %s\n", name, rulesDetails(r))
	}
	e := &discordgo.MessageEmbed{
		Title: "gobot: play Go on Discord",
		Color: commands.ColorBlack,
		Description: "Each channel, thread or DM holds one game. After every move I post the board; " +
			"a bot answers by itself (when all are busy, its move waits in a queue; I say where). " +
			"Draughts (10×10): `/draughts help`.",
		Fields: []*discordgo.MessageEmbedField{
			{Name: "Start a game", Value: "`/go challenge opponent:@friend` challenges someone here (no `opponent`: anyone may accept). " +
				"Options: `size` (9, 13, 19; default " + strconv.Itoa(defaultSize) + "), `color` (black, white, nigiri = random), `ruleset`, `komi`, `handicap` (0–9), " +
				"`thread:true` (a thread of its own, so one text channel holds many games). " +
				"Challenges expire after " + commands.HumanDuration(challengeTTL) + "; Decline withdraws your own.\n" +
				"`/go bot level:` plays gobot at once, here or in a DM with me (same options, no `thread`)."},
			{Name: "Teams and votes", Value: "`/go rengo` opens a team game: **Join Black** or **Join White** (2–4 a team; `bot:` adds a bot), then **Start**; turns go B1, W1, B2 …, `mode:casual` gives a clock each; a team resigns or aborts by majority. " +
				"`/go vote level: period:` pits this channel against gobot: anyone votes by `/go play` or buttons; the most voted move is played each period; the channel never resigns. Both unrated."},
			{Name: "Clocks", Value: "`clock:` on `/go challenge` and `/go bot` (default here: " + defaultClock.Name() + "): " +
				"**correspondence** (`fischer 3d +1d max 7d`), **daily** (1 day per move), **live** (10 min, then 5×30 s byo-yomi), **blitz** (3 min, then 5×10 s), **none**, or " +
				"`5+3` (5 min, +3 s a move, no cap), `fischer 5m +3s max 10m`, `byoyomi 10m 5x30s`, `canadian 10m 25/5m`, `simple 1d`, `absolute 20m` (s, m, h, d; up to 30 days). " +

				"Out of time loses (`B+T`, `W+T`); before two moves of one's own the game is annulled (recorded, unrated). " +
				"No clock runs while dead stones are agreed, nor while I am down for over " + clock.Format(commands.OutageMin) + ".\n" +
				"`/go vacation days:7` pauses your correspondence clocks (30 days a year, at most 30 at once); `/go vacation end:true` ends it early, giving unused days back."},
			{Name: "Play", Value: "`/go play move:D4` places a stone (`d 4` too); `move:pass` passes.\n" +
				"`/go pass`, `/go resign`, or the **Pass** / **Undo** / **Resign** buttons under the newest board (the Resign button asks to confirm).\n" +
				"`/go undo` (or **Undo**) asks your opponent to take back your last move; against the bot (unrated games only) it takes back its reply and your move at once.\n" +
				"`/go board` shows the board again; `/go sgf` attaches the game record (SGF); `animation:true` adds an animated replay. " +
				"`/go games` lists your games in play everywhere, your move first."},
			{Name: "Finished games", Value: "The final message carries the counted board, the SGF (with ranks as the game began) and a **Rematch** button. " +
				"`/go sgf` gives the game in play here, or else the last one finished here; `/go sgf game:` any game you may see " +
				"`/go replay game:` posts an animated replay. " +
				"`/go history player: page:` lists someone's games, each with an SGF button. " +
				"You may see your games and this server's."},
			{Name: "Review and estimate", Value: "`/go review game:` reviews a finished game (default: the last one here): a graph of Black's winning chance " +
				"with the three biggest swings, each player's three costliest mistakes (in points) on a board with the better move ringed, " +
				"and a summary, in a thread where I may start one; " +
				"`/go sgf game: review:true` writes the review into the record. `/go estimate` shows the score estimate with ownership " +
				"(spectators at any time, privately during a rated game; players in unrated games and after the game)."},
			{Name: "Ratings", Value: "Glicko-2 as on OGS, " + here.pools() + "; each bot level is a player, starting at its rank. " +
				"Not rated: `rated:false`, aborted and annulled games, " + shortGames() + ", and " + pairLimit() + ". " + ratedHandicaps() + ". " +
				"Handicap challenges without `color` give Black to the lower-rated player (drawn when equal). " +
				"Ranks (30k–9d) show `?` until the deviation is below 160: " + commands.Establishing() + ".\n" +
				"`/go stats player:`: ratings, record, streak, latest games; " + here.leaderboard()},
			{Name: "Coordinates", Value: "Columns are letters from the left, **skipping I**; rows count from the bottom: A1–J9 on 9×9, A1–T19 on 19×19."},
			{Name: "End of the game", Value: "Two passes in a row end play. I then propose which stones are dead (crossed out) and show the count. " +
				"`/go dead point:C3` marks or unmarks a group; both players press **Accept** to finish, or **Resume play** to keep playing " +
				"(any change clears acceptances; after " + scoringLimit(scoringTTL) + " the marking stands, except where it goes against my proposal and the player it costs has not accepted it: there my proposal counts). The bot accepts its proposal, or a marking that differs only where it was unsure or in its own favour; otherwise it names the groups it disputes. " +
				"Results: `B+3.5`, `W+R` (resignation), `Jigo` (a draw)."},
			{Name: "Bot levels", Value: levelList(levels, false)},
			{Name: "Rulesets", Value: commands.Clip(rules.String()+"Area scoring counts stones plus surrounded points; territory scoring counts surrounded points plus prisoners. "+
				"With a handicap, komi defaults to 0.5 and Black's stones go on the star points.", 1024)},
			{Name: "Abort, admins", Value: "`/go abort`: either player until each has made two moves (recorded, unrated); then moderators (Manage Messages, `reason:`). " +
				"Admins: `/go-admin help`."},
		},
	}
	// Discord refuses a message whose embeds hold more than 6000
	// characters: when the levels' whole descriptions do not fit, the
	// field names each level with its rank only (/go bot's choices show
	// the rest), clipped to what is left if even that is too long.
	for _, f := range e.Fields {
		if f.Name == "Bot levels" && embedSize(e) > maxEmbedSize {
			f.Value = levelList(levels, true)
			f.Value = commands.Clip(f.Value, max(utf8.RuneCountInString(f.Value)-max(embedSize(e)-maxEmbedSize, 0), 1))
		}
	}
	return []*discordgo.MessageEmbed{e}
}

// scoringLimit is how long players have to agree on the dead stones, the
// server's ttl and the shorter limit of live games (scoringTTL) when there
// is one: "a day (5 minutes in live games)".
func scoringLimit(ttl time.Duration) string {
	if live := min(ttl, liveScoringTTL); live < ttl {
		return commands.HumanDuration(ttl) + " (" + commands.HumanDuration(live) + " in live games)"
	}
	return commands.HumanDuration(ttl)
}

// cmdHelp answers /go help with this server's defaults and restrictions
// where its admins set them (challenge expiry, clock, board size, ruleset
// and komi, game channels, games at once, rating pools, leaderboard) and
// the bot levels they offer.
func (a *room) cmdHelp(ctx context.Context, r *commands.Request) error {
	st, read := a.HelpSettings(ctx, r.Interaction.GuildID)
	levels := commands.OfferedLevels(st, a.players.Levels())
	here := hereOf(st, a.DefaultClock())
	embeds := helpText(levels, a.ChallengeTTL(st), a.ScoringTTL(), here)
	if len(st.BotLevels) > 0 {
		for _, f := range embeds[0].Fields {
			if f.Name != "Bot levels" {
				continue
			}
			f.Name = "Bot levels offered here"
			if len(levels) == 0 {
				f.Value = "None: this server's admins offer no Go bot level, so `/go bot`, `/go vote` and rengo's `bot:` are not available here."
			}
		}
	}
	m := &commands.Message{Embeds: embeds, Ephemeral: true, Content: goTerms(st)}
	if !read {
		m.Content = commands.HelpUnread
	}
	return r.Reply(ctx, m)
}

// rulesDetails is what a ruleset means without its name: "area scoring,
// positional superko, komi 7.5" (Rules.String is "name (details)").
func rulesDetails(r engine.Rules) string {
	desc := r.String()
	if _, details, ok := strings.Cut(desc, " ("); ok {
		return strings.TrimSuffix(details, ")")
	}
	return desc
}

// maxEmbedSize is the most characters Discord accepts in a message's
// embeds: titles, descriptions, field names and values.
const maxEmbedSize = 6000

// embedSize counts e's characters as Discord does for maxEmbedSize.
func embedSize(e *discordgo.MessageEmbed) int {
	n := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
	for _, f := range e.Fields {
		n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	return n
}

// levelList is /go help's list of the bot levels, one a line, each with
// its description, or with only the description's part before " · " (a
// built-in level's rank, "about 9 kyu") and a pointer to /go bot's list
// when short is set; at most the 1024 characters of a field.
func levelList(levels []commands.Level, short bool) string {
	var lv strings.Builder
	for _, l := range levels {
		desc := l.Description
		if rank, _, ok := strings.Cut(desc, " · "); ok && short {
			desc = rank
		}
		fmt.Fprintf(&lv, "• **%s**: %s\n", l.Name, desc)
	}
	if lv.Len() == 0 {
		lv.WriteString("No bot levels are configured.\n")
	} else if short {
		lv.WriteString("`/go bot`'s level list says how each plays.\n")
	}
	return commands.Clip(lv.String(), 1024)
}

// shortGames says which short games are not rated (storage.MinRatedMoves).
// pairLimit says which of two people's rated games against each other
// stop counting, so that nobody farms a rating on a friend's account.
func pairLimit() string {
	return fmt.Sprintf("two people's games past %d rated in %s (bots excepted)",
		commands.PairRatedLimit, commands.HumanDuration(commands.PairWindow))
}

func shortGames() string {
	return fmt.Sprintf("those ending before each player has made %d moves (9×9), %d (13×13), %d (19×19)",
		storage.MinRatedMoves(9), storage.MinRatedMoves(13), storage.MinRatedMoves(19))
}

// ratedHandicaps says which handicaps rated games take, and their cap.
func ratedHandicaps() string {
	return fmt.Sprintf("Rated games take up to %d, %d, %d handicap stones on those sizes; handicap and komi count as ranks, moving no rating more than an even game could",
		glicko.MaxRatedHandicap(9), glicko.MaxRatedHandicap(13), glicko.MaxRatedHandicap(19))
}

// goTerms is what /go help says above itself of what the admins of st's
// server chose that its fields do not say (they give the board size, the
// clock and the challenge expiry, and say briefly which rating pools count
// and whether the leaderboard shows): the ruleset and komi of a plain
// challenge, then commands.HelpTerms. It is the message's text, outside
// the embed, whose 6000 characters the help nearly fills.
func goTerms(st *storage.Settings) string {
	var rules string
	if st.Ruleset != "" || st.Komi != nil {
		name := engine.PresetNames[0]
		if st.Ruleset != "" {
			name = st.Ruleset
		}
		if r, err := engine.Preset(name); err == nil {
			if st.Komi != nil {
				r.Komi = *st.Komi
			}
			rules = "a challenge without `ruleset:` or a handicap is " + r.Name + ", komi " + engine.FormatKomi(r.Komi)
		}
	}
	return commands.HelpTerms(st, rules)
}

// pools says briefly which rating pools count games here (goTerms says
// more); never longer than gobot's own "per server and global", which the
// help's 6000 characters leave no room to lengthen.
func (h helpHere) pools() string {
	switch {
	case h.serverOff && h.globalOff:
		return "off on this server"
	case h.globalOff:
		return "this server's only"
	case h.serverOff:
		return "global only here"
	}
	return "per server and global"
}

// leaderboard says what /go leaderboard shows, or that it is hidden here.
func (h helpHere) leaderboard() string {
	if h.leaderboardHidden {
		return "`/go leaderboard`: hidden here by the admins."
	}
	return "`/go leaderboard scope: page:`: established players, your place."
}
