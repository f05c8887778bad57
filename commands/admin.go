package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// /go-admin: a server's admins (Manage Server) set gobot's settings for
// their server, list its games and challenges, decide or annul games, ban
// players and read the log of what was done. Discord shows the command
// only to members with Manage Server (its default_member_permissions) and
// only in servers; every handler checks the member's permissions from the
// interaction again, and acts on the interaction's server only: a game ID
// from another server is no game of this one. Every change is stored with
// its log entry (storage's AuditEntry) before the answer says it happened.

// Limits of the admin commands' options.
const (
	MaxReason     = 300  // characters of a reason
	maxBanDays    = 3650 // ten years
	maxGameLimit  = 100  // the highest max_games
	maxChannels   = 25   // game channels
	adminPageSize = 10   // entries of a games or log page (fewer when long)
	minTTL        = 10 * time.Minute
	maxTTL        = 30 * 24 * time.Hour
)

// adminRoutes registers /go-admin and its buttons.
func (a *App) adminRoutes(rt *Router) {
	rt.Command("go-admin/help", a.asAdmin(a.adminHelp))
	rt.Command("go-admin/settings/show", a.asAdmin(a.adminSettingsShow))
	rt.Command("go-admin/settings/set", a.asAdmin(a.adminSettingsSet))
	rt.Command("go-admin/settings/reset", a.asAdmin(a.adminSettingsReset))
	rt.Command("go-admin/games", a.asAdmin(pagedCommand(a.adminGamesPage)))
	rt.Command("go-admin/adjudicate", a.asAdmin(a.adminAdjudicate))
	rt.Command("go-admin/annul", a.asAdmin(a.adminAnnul))
	rt.Command("go-admin/ban", a.asAdmin(a.adminBan))
	rt.Command("go-admin/unban", a.asAdmin(a.adminUnban))
	rt.Command("go-admin/bans", a.asAdmin(pagedCommand(a.adminBansPage)))
	rt.Command("go-admin/log", a.asAdmin(a.adminLog))
	rt.Component("admin/games/{page}", a.asAdmin(pagedButton(a.adminGamesPage)))
	rt.Component("admin/bans/{page}", a.asAdmin(pagedButton(a.adminBansPage)))
	rt.Component("admin/log/{page}", a.asAdmin(a.btnAdminLog))
	rt.Component("admin/log/{user}/{page}", a.asAdmin(a.btnAdminLog))
}

// Refusals of /go-admin to someone who may not use it.
const (
	adminOnlyInServer = "`/go-admin` works only in a server, for that server's admins."
	adminOnly         = "You need the Manage Server permission on this server to use `/go-admin`."
)

// serverAdmin reports whether the member who sent r may administer the
// server it came from: Manage Server (or Administrator) in the
// permissions Discord computed for them there. Nothing else counts: not
// the app's permissions, not a member's permissions on another server.
func serverAdmin(r *Request) bool {
	m := r.Interaction.Member
	const admin = discordgo.PermissionManageGuild | discordgo.PermissionAdministrator
	return m != nil && r.Interaction.GuildID != "" && m.Permissions&admin != 0
}

// asAdmin runs h for a server admin only.
func (a *App) asAdmin(h HandlerFunc) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		switch {
		case r.Interaction.GuildID == "":
			return UserErr(ErrForbidden, adminOnlyInServer)
		case !serverAdmin(r):
			return UserErr(ErrForbidden, adminOnly)
		}
		return h(ctx, r)
	}
}

// adminReply answers an admin privately, with no pings.
func adminReply(ctx context.Context, r *Request, text string) error {
	return r.Reply(ctx, &Message{Content: Clip(text, 2000), Ephemeral: true, AllowedMentions: NoMentions()})
}

// audit is the log entry of an action r's member takes on their server.
func audit(r *Request, action, target, reason string) storage.AuditEntry {
	return storage.AuditEntry{GuildID: r.Interaction.GuildID, By: UserPlayer(r.User), Action: action, Target: target, Reason: reason}
}

// reasonOption reads reason:, which every moderation but an unban
// requires.
func reasonOption(r *Request) (string, error) {
	reason, err := optionalReason(r)
	if err == nil && reason == "" {
		return "", UserErr(ErrBadOption, "Give a reason with `reason:`: it is kept in the server's log.")
	}
	return reason, err
}

// optionalReason reads reason: where it may be left out ("" then), as
// when lifting a ban.
func optionalReason(r *Request) (string, error) {
	reason, _ := r.String("reason")
	reason = strings.Join(strings.Fields(reason), " ")
	if len([]rune(reason)) > MaxReason {
		return "", UserErr(ErrBadOption, fmt.Sprintf("A reason may be at most %d characters long.", MaxReason))
	}
	return reason, nil
}

// ---- settings

// adminHelp lists /go-admin's commands, each with its options (optional
// ones in brackets) and what it does, read from the command's definition.
func (a *App) adminHelp(ctx context.Context, r *Request) error {
	var b strings.Builder
	b.WriteString("**`/go-admin`**: gobot for this server's admins (Manage Server, or the roles Discord's Integrations page gives it to). Each answer is shown to you alone; every change is written to `/go-admin log`, and where it concerns a game its channel is told.\n")
	var list func(prefix string, opts []*discordgo.ApplicationCommandOption)
	list = func(prefix string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			switch o.Type {
			case discordgo.ApplicationCommandOptionSubCommandGroup:
				list(prefix+" "+o.Name, o.Options)
			case discordgo.ApplicationCommandOptionSubCommand:
				if o.Name == "help" {
					continue
				}
				usage := prefix + " " + o.Name
				for _, opt := range o.Options {
					if opt.Required {
						usage += " " + opt.Name + ":"
					} else {
						usage += " [" + opt.Name + ":]"
					}
				}
				fmt.Fprintf(&b, "\n• `%s`: %s.", usage, o.Description)
			}
		}
	}
	list("/"+AdminCommandName, AdminDefinition().Options)
	b.WriteString("\n\n`/go-admin settings show` also says what each setting takes.")
	return r.Reply(ctx, &Message{Content: Clip(b.String(), 2000), Ephemeral: true, AllowedMentions: NoMentions()})
}

func (a *App) adminSettingsShow(ctx context.Context, r *Request) error {
	st, err := a.admin.Settings(ctx, r.Interaction.GuildID)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("**gobot's settings on this server** (`/go-admin settings set setting: value:` changes one, `/go-admin settings reset setting:` puts it back):")
	for _, s := range adminSettings {
		fmt.Fprintf(&b, "\n• %s (`%s`): %s", s.label, s.name, a.settingValue(st, s.name))
	}
	// What each setting takes, apart: the settings above may be long
	// (many channels), and these always show.
	var values strings.Builder
	for i, s := range adminSettings {
		if i > 0 {
			values.WriteString("\n")
		}
		fmt.Fprintf(&values, "`%s`: %s", s.name, s.help)
	}
	return r.Reply(ctx, &Message{Content: Clip(b.String(), 2000), Ephemeral: true, AllowedMentions: NoMentions(),
		Embeds: []*discordgo.MessageEmbed{{Title: "What each setting takes", Description: values.String(), Color: ColorBlack}}})
}

// adminSetting returns the setting named in setting:.
func adminSetting(r *Request) (name, label string, err error) {
	name, _ = r.String("setting")
	for _, s := range adminSettings {
		if s.name == name {
			return s.name, s.label, nil
		}
	}
	var names []string
	for _, s := range adminSettings {
		names = append(names, s.name)
	}
	return "", "", UserErr(ErrBadOption, fmt.Sprintf("There is no setting %s: choose %s.", Quote(name), strings.Join(names, ", ")))
}

func (a *App) adminSettingsSet(ctx context.Context, r *Request) error {
	name, label, err := adminSetting(r)
	if err != nil {
		return err
	}
	value, _ := r.String("value")
	return a.changeSetting(ctx, r, name, label, "✅ **%s** (`%s`): %s → %s.", func(st *storage.Settings) (string, error) {
		if err := a.setSetting(ctx, r, st, name, strings.TrimSpace(value)); err != nil {
			return "", err
		}
		refusal, warning := a.ratedDefaults(st, name)
		if refusal != "" {
			return "", UserErr(ErrBadOption, refusal)
		}
		if name == "bot_levels" {
			warning = strings.TrimSpace(warning + "\n" + a.gamesWithoutBot(st))
		}
		return warning, nil
	})
}

func (a *App) adminSettingsReset(ctx context.Context, r *Request) error {
	name, label, err := adminSetting(r)
	if err != nil {
		return err
	}
	return a.changeSetting(ctx, r, name, label, "↩️ **%s** (`%s`) reset: %s → %s.", func(st *storage.Settings) (string, error) {
		resetSetting(st, name)
		refusal, warning := a.ratedDefaults(st, name)
		if refusal != "" {
			warning = strings.TrimSpace("⚠️ " + refusal + "\n" + warning)
		}
		return warning, nil
	})
}

// settingsTries bounds how often a change of a setting is applied again
// when other settings keep changing under it.
const settingsTries = 5

// changeSetting changes the setting name of r's server with change (which
// sets or resets it, and returns a warning for the answer or why it is
// refused) and stores it with its log entry (putSetting). When another
// admin changed the settings at the same moment (a version conflict), it
// reads them again and applies change once more, checked again against
// the settings as they now are; it refuses only when that admin changed
// this very setting, whose value would otherwise be overwritten unseen.
// Each change is stored, and logged, once.
func (a *App) changeSetting(ctx context.Context, r *Request, name, label, echo string, change func(st *storage.Settings) (warning string, err error)) error {
	first := ""
	for try := 1; ; try++ {
		st, err := a.admin.Settings(ctx, r.Interaction.GuildID)
		if err != nil {
			return err
		}
		before := a.settingValue(st, name)
		switch {
		case try == 1:
			first = before
		case before != first:
			return UserErr(ErrConflict, fmt.Sprintf("Another admin changed **%s** (`%s`) at the same moment (%s → %s), so yours was not applied. Look at `/go-admin settings show` and try again if need be.", label, name, first, before))
		}
		warning, err := change(st)
		if err != nil {
			return err
		}
		err = a.putSetting(ctx, r, st, name, label, before, echo, warning)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
		if try == settingsTries {
			return UserErr(ErrConflict, "Other admins kept changing this server's settings at the same moment, so yours was not applied. Look at `/go-admin settings show` and try again.")
		}
	}
}

// gamesWithoutBot warns, a line for each game, of the games none of whose
// bot levels st's admins offer: bot games of that game will be refused
// ("" when every game keeps a level).
func (a *App) gamesWithoutBot(st *storage.Settings) string {
	var lines []string
	for _, rm := range a.rooms.list {
		if len(rm.Levels()) > 0 && len(offeredLevels(st, rm)) == 0 {
			lines = append(lines, fmt.Sprintf("⚠️ No %s level is among them, so no bot game of %s can start here.", rm.Name(), rm.Name()))
		}
	}
	return strings.Join(lines, "\n")
}

// ratedDefaults asks each room whether st, changed in its setting name,
// still lets the server's default games be rated (ServerSettings): a
// refusal, or a warning for the answer (each "" when all is well).
func (a *App) ratedDefaults(st *storage.Settings, name string) (refusal, warning string) {
	var refusals, warnings []string
	for _, rm := range a.rooms.list {
		if ss, ok := rm.(ServerSettings); ok {
			r, w := ss.RatedDefaults(st, name)
			if r != "" {
				refusals = append(refusals, r)
			}
			if w != "" {
				warnings = append(warnings, w)
			}
		}
	}
	return strings.Join(refusals, "\n"), strings.Join(warnings, "\n")
}

// putSetting stores st, changed in its setting name, with the log entry,
// and echoes the change (echo has the label, name, before and after),
// with warning, when not empty, on a line of its own.
func (a *App) putSetting(ctx context.Context, r *Request, st *storage.Settings, name, label, before, echo, warning string) error {
	after := a.settingValue(st, name)
	if after == before {
		return adminReply(ctx, r, fmt.Sprintf("**%s** (`%s`) is %s already; nothing was changed.", label, name, before))
	}
	e := audit(r, storage.AuditSettings, name, "")
	e.Before, e.After = before, after
	if err := a.admin.PutSettings(ctx, st, e); err != nil {
		return err // storage.ErrConflict: changeSetting tries again
	}
	a.log.Info("server setting changed", "guild", st.GuildID, "setting", name, "by", r.User.ID, "before", before, "after", after)
	done := fmt.Sprintf(echo, label, name, before, after)
	if warning != "" {
		done += "\n" + warning
	}
	return adminReply(ctx, r, done)
}

// settingValue shows a setting's value as an admin reads it.
func (a *App) settingValue(st *storage.Settings, name string) string {
	for _, rm := range a.rooms.list {
		if ss, ok := rm.(ServerSettings); ok {
			if v, ok := ss.Setting(st, name); ok {
				return v
			}
		}
	}
	onOff := func(off bool) string {
		if off {
			return "off"
		}
		return "on"
	}
	switch name {
	case "channels":
		if len(st.GameChannels) == 0 {
			return "anywhere"
		}
		var out []string
		for _, c := range st.GameChannels {
			out = append(out, "<#"+c+">")
		}
		return strings.Join(out, ", ")
	case "clock":
		if st.Clock == nil {
			return "gobot's default (" + a.opts.DefaultClock.Name() + ")"
		}
		return st.Clock.Name()
	case "size":
		if st.Size == 0 {
			return "gobot's default (19×19)"
		}
		return fmt.Sprintf("%d×%d", st.Size, st.Size)
	case "ratings":
		return onOff(st.ServerRatingsOff)
	case "global_ratings":
		return onOff(st.GlobalRatingsOff)
	case "leaderboard":
		if st.LeaderboardHidden {
			return "hidden"
		}
		return "shown"
	case "bot_levels":
		if len(st.BotLevels) == 0 {
			return "all"
		}
		return strings.Join(st.BotLevels, ", ")
	case "max_games":
		if st.MaxGames == 0 {
			return "no limit"
		}
		return strconv.Itoa(st.MaxGames)
	case "challenge_ttl":
		if st.ChallengeTTL == 0 {
			return "gobot's default (" + HumanDuration(a.opts.ChallengeTTL) + ")"
		}
		return HumanDuration(st.ChallengeTTL)
	}
	return ""
}

// resetSetting puts a setting back to gobot's default.
func resetSetting(st *storage.Settings, name string) {
	switch name {
	case "channels":
		st.GameChannels = nil
	case "clock":
		st.Clock = nil
	case "size":
		st.Size = 0
	case "ruleset":
		st.Ruleset = ""
	case "komi":
		st.Komi = nil
	case "ratings":
		st.ServerRatingsOff = false
	case "global_ratings":
		st.GlobalRatingsOff = false
	case "leaderboard":
		st.LeaderboardHidden = false
	case "bot_levels":
		st.BotLevels = nil
	case "max_games":
		st.MaxGames = 0
	case "challenge_ttl":
		st.ChallengeTTL = 0
	}
}

// channelRef is a channel as a value names it: a mention or an ID.
var channelRef = regexp.MustCompile(`^(?:<#([0-9]{1,20})>|([0-9]{1,20}))$`)

// setSetting reads value into st's setting name, or says what is wrong
// with it (and st is then not stored).
func (a *App) setSetting(ctx context.Context, r *Request, st *storage.Settings, name, value string) error {
	for _, rm := range a.rooms.list {
		if ss, ok := rm.(ServerSettings); ok {
			if ok, err := ss.SetSetting(st, name, value); ok {
				return err
			}
		}
	}
	bad := func(format string, args ...any) error { return UserErr(ErrBadOption, fmt.Sprintf(format, args...)) }
	onOff := func(on, off string) (bool, error) {
		switch strings.ToLower(value) {
		case on, "on", "true", "yes":
			return false, nil
		case off, "off", "false", "no":
			return true, nil
		}
		return false, bad("`%s` is %s or %s, not %s.", name, on, off, Quote(value))
	}
	var err error
	switch name {
	case "channels":
		st.GameChannels, err = a.gameChannels(ctx, r, value)
	case "clock":
		var c clock.Control
		if c, err = parseClockSpec(value); err == nil {
			st.Clock = &c
		}
	case "size":
		n, ok := parseBoardSize(value)
		if !ok {
			return bad("The board size must be 9, 13 or 19, not %s.", Quote(value))
		}
		st.Size = n
	case "ratings":
		st.ServerRatingsOff, err = onOff("on", "off")
	case "global_ratings":
		st.GlobalRatingsOff, err = onOff("on", "off")
	case "leaderboard":
		st.LeaderboardHidden, err = onOff("shown", "hidden")
	case "bot_levels":
		st.BotLevels, err = a.botLevels(value)
	case "max_games":
		n, perr := strconv.Atoi(value)
		if perr != nil || n < 1 || n > maxGameLimit {
			return bad("`max_games` is a number of games from 1 to %d, not %s (reset it for no limit).", maxGameLimit, Quote(value))
		}
		st.MaxGames = n
	case "challenge_ttl":
		d, perr := parseTTL(value)
		if perr != nil || d < minTTL || d > maxTTL {
			return bad("`challenge_ttl` is a time from 10m to 30d, like 2h or 3d, not %s.", Quote(value))
		}
		st.ChallengeTTL = d
	}
	return err
}

// parseBoardSize reads a board size as 9, 9x9 or 9×9 (the board is
// square: both numbers the same), one of BoardSizes.
func parseBoardSize(v string) (int, bool) {
	parts := strings.FieldsFunc(strings.ToLower(v), func(c rune) bool { return c == 'x' || c == '×' })
	if len(parts) == 0 || len(parts) > 2 || strings.Count(strings.ToLower(v), "x")+strings.Count(v, "×") != len(parts)-1 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(parts[0]))
	if err != nil || !slices.Contains(BoardSizes, n) {
		return 0, false
	}
	if len(parts) == 2 {
		if m, err := strconv.Atoi(strings.TrimSpace(parts[1])); err != nil || m != n {
			return 0, false
		}
	}
	return n, true
}

// parseClockSpec reads a clock as /go challenge's clock: does.
func parseClockSpec(v string) (clock.Control, error) {
	c, err := clock.Parse(v)
	if err != nil {
		reason := err.Error()
		var se *clock.SpecError
		if errors.As(err, &se) {
			reason = se.Reason
		}
		return c, UserErr(ErrBadOption, fmt.Sprintf("`%s` is not a clock I can read: %s.\nWrite %s.", Clip(v, 32), reason, clock.Syntax))
	}
	return c, nil
}

// parseTTL reads a duration such as 90m, 2h or 3d.
func parseTTL(v string) (time.Duration, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		return time.Duration(days) * 24 * time.Hour, err
	}
	return time.ParseDuration(v)
}

// gameChannels reads the game channels named in value: channel mentions,
// IDs or, in a server, names (#go-games typed out, which Discord sends as
// text), each a channel of this server, at most maxChannels of them (a
// channel named twice counts once).
func (a *App) gameChannels(ctx context.Context, r *Request, value string) ([]string, error) {
	fields := strings.FieldsFunc(value, func(c rune) bool { return c == ',' || unicode.IsSpace(c) })
	if len(fields) == 0 {
		return nil, UserErr(ErrBadOption, "Name the channels where games may start, like #go-games; reset `channels` to allow games anywhere.")
	}
	var out []string
	var named []*discordgo.Channel // the server's channels, read once
	for _, f := range fields {
		var id string
		if m := channelRef.FindStringSubmatch(f); m != nil {
			id = m[1] + m[2]
		} else {
			list, ok := DiscordAs[guildChannelList](a.opts.Discord)
			if !ok || r.Interaction.GuildID == "" {
				return nil, UserErr(ErrBadOption, fmt.Sprintf("%s is not a channel: pick each channel from the list Discord shows when you type #, so that it becomes a link (or give its ID).", Quote(f)))
			}
			if named == nil {
				var err error
				named, err = list.GuildChannels(ctx, r.Interaction.GuildID)
				if errors.Is(err, ErrDiscordForbidden) || errors.Is(err, ErrDiscordNotFound) {
					// Not in the server (installed by a user only), or
					// not allowed to list its channels: a link needs no
					// lookup.
					return nil, UserErr(ErrBadOption, fmt.Sprintf("I cannot see this server's channels to find %s: pick it from the list Discord shows when you type #, so that it becomes a link (or give its ID).", Quote(f)))
				}
				if err != nil {
					return nil, err
				}
			}
			if id = channelNamed(named, strings.TrimPrefix(f, "#")); id == "" {
				return nil, UserErr(ErrBadOption, fmt.Sprintf("I know no single channel named %s on this server: pick it from the list Discord shows when you type #, so that it becomes a link.", Quote(f)))
			}
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > maxChannels {
		return nil, UserErr(ErrBadOption, fmt.Sprintf("At most %d game channels, not %d.", maxChannels, len(out)))
	}
	look, ok := DiscordAs[channelLookup](a.opts.Discord)
	if !ok {
		return out, nil // the console: taken as named
	}
	for _, id := range out {
		ch, err := look.Channel(ctx, id)
		if errors.Is(err, ErrDiscordNotFound) || errors.Is(err, ErrDiscordForbidden) || (err == nil && ch.GuildID != r.Interaction.GuildID) {
			return nil, UserErr(ErrBadOption, fmt.Sprintf("I know no channel <#%s> on this server: name channels of this server that I can see.", id))
		}
		if err != nil {
			return nil, err
		}
		if ch.Type == discordgo.ChannelTypeGuildCategory {
			return nil, UserErr(ErrBadOption, fmt.Sprintf("<#%s> is a category: nobody posts in one, so no game could start. Name the channels in it instead.", id))
		}
	}
	return out, nil
}

// channelNamed returns the ID of the one channel of chs named name
// (ignoring case; categories are no channels to play in), or "" when there
// is none or more than one.
func channelNamed(chs []*discordgo.Channel, name string) string {
	id := ""
	for _, c := range chs {
		if c.Type != discordgo.ChannelTypeGuildCategory && strings.EqualFold(c.Name, name) {
			if id != "" {
				return ""
			}
			id = c.ID
		}
	}
	return id
}

// botLevels reads the bot levels named in value: names of any room's
// levels, since one list serves every game (a name two games share, such
// as beginner, allows both games' level).
func (a *App) botLevels(value string) ([]string, error) {
	var known []string
	var each []string // "Go has tester, slow" for each room
	for _, rm := range a.rooms.list {
		var names []string
		for _, l := range rm.Levels() {
			names = append(names, l.Name)
			if !slices.Contains(known, l.Name) {
				known = append(known, l.Name)
			}
		}
		if len(names) > 0 {
			each = append(each, rm.Name()+" has "+strings.Join(names, ", "))
		}
	}
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(value), func(c rune) bool { return c == ',' || unicode.IsSpace(c) }) {
		if !slices.Contains(known, f) {
			return nil, UserErr(ErrBadOption, fmt.Sprintf("Unknown bot level %s: %s.", Quote(f), strings.Join(each, "; ")))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, UserErr(ErrBadOption, "Name the bot levels allowed here, like beginner easy; reset `bot_levels` to allow them all.")
	}
	return out, nil
}

// ---- games

// adminGamesPage is a page of the server's open challenges (first) and
// games in play, each newest first.
func (a *App) adminGamesPage(ctx context.Context, r *Request, page int) (*Message, error) {
	if page < 1 {
		return nil, UserErr(ErrBadOption, "Pages start at 1.")
	}
	guild := r.Interaction.GuildID
	challenges, err := a.admin.GuildChallenges(ctx, guild)
	if err != nil {
		return nil, err
	}
	now := a.Now()
	challenges = slices.DeleteFunc(challenges, func(c *storage.Challenge) bool { return c.Expired(now) })
	offset := (page - 1) * adminPageSize
	var lines []string
	for i := offset; i < len(challenges) && len(lines) < adminPageSize; i++ {
		lines = append(lines, a.challengeLine(challenges[i]))
	}
	gameOffset := max(0, offset-len(challenges))
	list, err := a.admin.GuildActiveGames(ctx, guild, gameOffset, adminPageSize-len(lines))
	if err != nil {
		return nil, err
	}
	for _, g := range list.Games {
		lines = append(lines, a.gameLine(g))
	}
	total := len(challenges) + list.Total
	pages := max(1, (total+adminPageSize-1)/adminPageSize)
	if total == 0 {
		return &Message{Content: "No game is being played on this server, and no challenge is open.", Ephemeral: true, AllowedMentions: NoMentions()}, nil
	}
	if page > pages {
		return nil, UserErr(ErrBadOption, onlyPages(pages))
	}
	embed := &discordgo.MessageEmbed{
		Title:       Clip(fmt.Sprintf("On this server: %s in play, %s open (page %d of %d)", Plural(list.Total, "game"), Plural(len(challenges), "challenge"), page, pages), 256),
		Description: Clip(strings.Join(lines, "\n"), 4096),
		Color:       ColorBlack,
	}
	return &Message{Embeds: []*discordgo.MessageEmbed{embed}, Ephemeral: true, AllowedMentions: NoMentions(),
		Components: pageButtons("admin/games/", page, pages)}, nil
}

// pageOf makes page number page of a list an admin pages through
// (/go-admin games, bans).
type pageOf func(ctx context.Context, r *Request, page int) (*Message, error)

// pagedCommand answers a command with the page its page option names, the
// first when none.
func pagedCommand(pageOf pageOf) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		page, given, err := r.Int("page")
		if err != nil {
			return err
		}
		if !given {
			page = 1
		}
		m, err := pageOf(ctx, r, page)
		if err != nil {
			return err
		}
		return r.Reply(ctx, m)
	}
}

// pagedButton turns the message of a Previous / Next button to the page
// its custom ID names.
func pagedButton(pageOf pageOf) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		page, err := strconv.Atoi(r.Param("page"))
		if err != nil {
			return ErrStale
		}
		m, err := pageOf(ctx, r, page)
		if err != nil {
			return err
		}
		return r.Update(ctx, m)
	}
}

// pageButtons are Previous / Next buttons to pages of prefix+N.
func pageButtons(prefix string, page, pages int) []discordgo.MessageComponent {
	if pages <= 1 {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Previous", Style: discordgo.SecondaryButton, CustomID: prefix + strconv.Itoa(max(1, page-1)), Disabled: page <= 1},
		discordgo.Button{Label: "Next", Style: discordgo.SecondaryButton, CustomID: prefix + strconv.Itoa(min(pages, page+1)), Disabled: page >= pages},
	}}}
}

// challengeLine is an open challenge in /go-admin games: its board size
// for Go, the game's name for another kind (whose challenges have no size).
func (a *App) challengeLine(c *storage.Challenge) string {
	// A rengo lobby is no challenge to anyone: "Challenge by @bob rengo
	// lobby" read as a sentence cut in two.
	what := "Challenge by " + Mention(c.Challenger) + " open to anyone"
	switch {
	case c.Team():
		what = "Rengo lobby by " + Mention(c.Challenger)
	case !c.Open():
		what = "Challenge by " + Mention(c.Challenger) + " to " + Mention(c.Opponent)
	}
	board := a.RoomOfKind(c.Kind).Name()
	if c.Size > 0 {
		board = fmt.Sprintf("%d×%d", c.Size, c.Size)
	}
	return fmt.Sprintf("📨 %s · %s · in <#%s> · expires <t:%d:R> · `%s`",
		what, board, c.ChannelID, c.ExpiresAt.Unix(), c.ID)
}

// gameLine is a game in play in /go-admin games: players, size, move,
// whose turn, time left and the link to its newest board.
func (a *App) gameLine(g *storage.Game) string {
	st := g.State
	turn := "counting"
	if s := st.ToMove(); s != game.NoSide {
		turn = a.sideEmoji(g, s) + " " + Mention(g.Player(s)) + " to play"
	}
	left := "no clock"
	if g.Clock != nil && g.Clock.Running() {
		left = fmt.Sprintf("time runs out <t:%d:R>", g.Clock.Deadline().Unix())
	}
	where := "<#" + g.ChannelID + ">"
	if url := boardURL(g); url != "" {
		where = "[board](" + url + ")"
	}
	players, size, move := a.roomOf(g).Line(g)
	moves := fmt.Sprintf("move %d", move)
	if st.ToMove() == game.NoSide {
		// No next move while counting: the moves played, as a
		// moderator's abort or adjudication of it will say.
		moves = Plural(st.MoveCount(), "move") + " played"
	}
	return fmt.Sprintf("%s · %s · %s · %s · %s · %s · `%s`", players, size, moves, turn, left, where, g.ID)
}

// ---- bans

// adminBansPage is a page of the bans that hold on the server now, newest
// first: who, until when, by whom and when, and why. A lifted or lapsed
// ban is no longer listed (the log keeps it). Pages are cut as the log's
// are (logPages).
func (a *App) adminBansPage(ctx context.Context, r *Request, page int) (*Message, error) {
	if page < 1 {
		return nil, UserErr(ErrBadOption, "Pages start at 1.")
	}
	bans, err := a.admin.GuildBans(ctx, r.Interaction.GuildID)
	if err != nil {
		return nil, err
	}
	now := a.Now()
	bans = slices.DeleteFunc(bans, func(b *storage.Ban) bool { return !b.Active(now) })
	if len(bans) == 0 {
		return &Message{Content: "Nobody is banned on this server now. `/go-admin log` keeps the bans of the past, lifted or lapsed.", Ephemeral: true, AllowedMentions: NoMentions()}, nil
	}
	var lines []string
	for _, b := range bans {
		lines = append(lines, banLine(b))
	}
	pages := logPages(lines)
	if page > len(pages) {
		return nil, UserErr(ErrBadOption, onlyPages(len(pages)))
	}
	embed := &discordgo.MessageEmbed{
		Title:       fmt.Sprintf("Banned on this server now: %s (page %d of %d)", Plural(len(bans), "user"), page, len(pages)),
		Description: strings.Join(pages[page-1], "\n"),
		Color:       ColorBlack,
	}
	return &Message{Embeds: []*discordgo.MessageEmbed{embed}, Ephemeral: true, AllowedMentions: NoMentions(),
		Components: pageButtons("admin/bans/", page, len(pages))}, nil
}

// banLine is a ban in /go-admin bans: who, until when ("no end" for a ban
// until lifted), who banned them and when, and the reason, whole.
func banLine(b *storage.Ban) string {
	until := "no end (until an admin lifts it)"
	if !b.Until.IsZero() {
		until = fmt.Sprintf("until <t:%d:f> (<t:%d:R>)", b.Until.Unix(), b.Until.Unix())
	}
	s := fmt.Sprintf("%s · %s · banned by %s <t:%d:f>", Mention(b.User), until, Mention(b.By), b.At.Unix())
	if b.Reason != "" {
		s += " — " + Clip(b.Reason, MaxReason)
	}
	return s
}

// ---- log

// Sizes of the log's pages and lines.
const (
	logPageChars = 4096 // an embed's description: a page of the log
	logValue     = 200  // characters of a value before or after, about
)

func (a *App) adminLog(ctx context.Context, r *Request) error {
	page, given, err := r.Int("page")
	if err != nil {
		return err
	}
	if !given {
		page = 1
	}
	who := ""
	if u, ok := r.UserOption("user"); ok {
		who = u.ID
	}
	m, err := a.adminLogPage(ctx, r, who, page)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
}

func (a *App) btnAdminLog(ctx context.Context, r *Request) error {
	page, err := strconv.Atoi(r.Param("page"))
	if err != nil {
		return ErrStale
	}
	m, err := a.adminLogPage(ctx, r, r.Param("user"), page)
	if err != nil {
		return err
	}
	return r.Update(ctx, m)
}

// adminLogPage is page of the server's log, newest first: of its whole
// log, or with who (a user ID) of the entries by or about them (see
// aboutUser). Pages are cut between entries (logPages), so each entry is
// whole on one page.
func (a *App) adminLogPage(ctx context.Context, r *Request, who string, page int) (*Message, error) {
	if page < 1 {
		return nil, UserErr(ErrBadOption, "Pages start at 1.")
	}
	// Pages are cut by the length of their entries, so the whole log is
	// read to know where each page begins and how many there are.
	entries, _, err := a.admin.AuditLog(ctx, r.Interaction.GuildID, 0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	content, prefix := "", "admin/log/"
	if who != "" {
		about, err := a.aboutUser(ctx, who)
		if err != nil {
			return nil, err
		}
		entries = slices.DeleteFunc(entries, func(e storage.AuditEntry) bool { return !about(e) })
		content, prefix = fmt.Sprintf("The entries by or about <@%s>: what they did, their bans and their games.", who), "admin/log/"+who+"/"
		if len(entries) == 0 {
			return &Message{Content: fmt.Sprintf("The log of this server has no entry by or about <@%s>.", who), Ephemeral: true, AllowedMentions: NoMentions()}, nil
		}
	}
	if len(entries) == 0 {
		return &Message{Content: "The log of this server is empty: no admin or moderator has acted here yet.", Ephemeral: true, AllowedMentions: NoMentions()}, nil
	}
	var lines []string
	for _, e := range entries {
		lines = append(lines, auditLine(e))
	}
	pages := logPages(lines)
	if page > len(pages) {
		return nil, UserErr(ErrBadOption, onlyPages(len(pages)))
	}
	embed := &discordgo.MessageEmbed{
		Title:       fmt.Sprintf("Log of this server: %s (page %d of %d)", logEntries(len(entries)), page, len(pages)),
		Description: strings.Join(pages[page-1], "\n"),
		Color:       ColorBlack,
	}
	return &Message{Content: content, Embeds: []*discordgo.MessageEmbed{embed}, Ephemeral: true, AllowedMentions: NoMentions(),
		Components: pageButtons(prefix, page, len(pages))}, nil
}

// logPages cuts the log's lines, newest first, into pages of whole lines:
// at most adminPageSize, and as many as fit in an embed (logPageChars).
func logPages(lines []string) [][]string {
	var pages [][]string
	var cur []string
	size := 0
	for _, l := range lines {
		l = Clip(l, logPageChars) // never longer than a page (auditLine keeps lines far shorter)
		n := len([]rune(l))
		if len(cur) > 0 && (len(cur) == adminPageSize || size+1+n > logPageChars) {
			pages, cur, size = append(pages, cur), nil, 0
		}
		if len(cur) > 0 {
			size++ // the newline before it
		}
		cur, size = append(cur, l), size+n
	}
	if len(cur) > 0 {
		pages = append(pages, cur)
	}
	return pages
}

// aboutUser returns whether an entry of the log is by or about the user
// with ID who: done by them, a ban, unban or lapse of theirs, the
// withdrawal of a challenge of theirs (by or to them: its entry's Before
// names both, as adminWithdraw wrote it) or of their seat in a lobby (as
// leaveLobby wrote it), or about a game they played (a
// finished game: every game the log names is).
func (a *App) aboutUser(ctx context.Context, who string) (func(storage.AuditEntry) bool, error) {
	played, err := a.archive.PlayerGames(ctx, who, 0)
	if err != nil {
		return nil, err
	}
	games := make(map[string]bool, len(played))
	for _, g := range played {
		games[g.ID] = true
	}
	return func(e storage.AuditEntry) bool {
		switch e.Action {
		case storage.AuditBan, storage.AuditUnban, storage.AuditLapse:
			if e.Target == who {
				return true
			}
		case storage.AuditWithdraw:
			if strings.Contains(e.Before, "<@"+who+">") {
				return true
			}
		case storage.AuditSettings:
		default:
			if games[e.Target] {
				return true
			}
		}
		return e.By.UserID == who
	}, nil
}

// auditLine is one entry of the log: when, who, what, the change, why.
// The reason is whole (at most MaxReason characters); a long value (many
// channels) is cut between its items (clipItems).
func auditLine(e storage.AuditEntry) string {
	target := e.Target
	switch e.Action {
	case storage.AuditSettings:
		target = "`" + e.Target + "`"
	case storage.AuditBan, storage.AuditUnban, storage.AuditLapse:
		target = "<@" + e.Target + ">"
	case storage.AuditWithdraw:
		target = "challenge `" + e.Target + "`"
	default:
		target = "game `" + e.Target + "`"
	}
	if e.Action == storage.AuditLapse && e.Before == "" && e.After == "" {
		// Logged by the store when the ban's days were over (At): its
		// change, in the words of the ban's own entry.
		e.Before, e.After = fmt.Sprintf("banned until <t:%d:f>", e.At.Unix()), "not banned"
	}
	s := fmt.Sprintf("<t:%d:f> %s **%s** %s", e.At.Unix(), Mention(e.By), e.Action, target)
	if e.Before != "" || e.After != "" {
		s += fmt.Sprintf(": %s → %s", clipItems(e.Before, logValue), clipItems(e.After, logValue))
	}
	if e.Reason != "" {
		s += " — " + Clip(e.Reason, MaxReason)
	}
	return s
}

// clipItems cuts a value longer than n characters after its last item
// (items are separated by ", ", as the channels of a setting are) that
// fits, saying how many more there are: "<#1>, <#2> and 23 more". A
// mention or a channel is never cut in two. A value of one item is
// clipped.
func clipItems(v string, n int) string {
	if len([]rune(v)) <= n {
		return v
	}
	items := strings.Split(v, ", ")
	shown, size := 0, 0
	for _, it := range items {
		more := fmt.Sprintf(" and %d more", len(items)-shown-1)
		k := len([]rune(it))
		if shown > 0 {
			k += 2
		}
		if size+k+len(more) > n {
			break
		}
		shown, size = shown+1, size+k
	}
	if shown == 0 {
		return Clip(v, n)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:shown], ", "), len(items)-shown)
}

// logEntries counts log entries: "1 entry", "22 entries".
func logEntries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// onlyPages refuses a page past the last of n: "There is only 1 page.",
// "There are only 3 pages."
func onlyPages(n int) string {
	if n == 1 {
		return "There is only 1 page."
	}
	return fmt.Sprintf("There are only %d pages.", n)
}
