package commands_test

// End-to-end tests of /go-admin (issue 32, "server admins"): each command
// done by an admin and refused to anyone else, the settings taking effect,
// adjudication and annulment with ratings equal to a rebuild, bans and
// their lapse, the log, and bad input refused with an exact private
// message and nothing changed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// adminCmd is /go-admin <sub> with opts, sent by u in ch.
func (e *env) adminCmd(ch *discordtest.Channel, u discordtest.User, sub string, opts ...discordtest.Option) *discordtest.Interaction {
	return e.d.Command(ch, u, "go-admin", discordtest.Sub(sub, opts...))
}

// setting is /go-admin settings <sub> with opts.
func (e *env) setting(ch *discordtest.Channel, u discordtest.User, sub string, opts ...discordtest.Option) *discordtest.Interaction {
	return e.d.Command(ch, u, "go-admin", discordtest.Option{Name: "settings", Type: discordtest.OptionSubCommandGroup, Options: []discordtest.Option{discordtest.Sub(sub, opts...)}})
}

// set is /go-admin settings set setting:name value:value.
func (e *env) set(ch *discordtest.Channel, u discordtest.User, name, value string) *discordtest.Interaction {
	return e.setting(ch, u, "set", discordtest.Str("setting", name), discordtest.Str("value", value))
}

// said sends it and checks that the private answer is exactly want.
func (e *env) said(it *discordtest.Interaction, want string) discordtest.Message {
	e.t.Helper()
	m := e.do(it)
	if !m.Ephemeral || m.Text() != want {
		e.t.Errorf("answer (private %v) =\n%s\nwant\n%s", m.Ephemeral, m.Text(), want)
	}
	return m
}

// settingsNow is the server's settings as stored, as JSON.
func (e *env) settingsNow() string {
	e.t.Helper()
	st, err := e.store.Settings(context.Background(), e.d.GuildID)
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ := json.Marshal(st)
	return string(b)
}

// adminLog is the server's log as stored, oldest first, one line an entry.
func (e *env) adminLog() []string {
	e.t.Helper()
	log, _, err := e.store.AuditLog(context.Background(), e.d.GuildID, 0, 1000)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for i := len(log) - 1; i >= 0; i-- {
		l := log[i]
		out = append(out, fmt.Sprintf("%s %s %s | %s → %s | %s", l.By.Name, l.Action, l.Target, l.Before, l.After, l.Reason))
	}
	return out
}

// admins are a server admin and the other users of the admin tests.
func (e *env) admins() (ann, mod, member discordtest.User) {
	ann, mod, member = e.d.NewUser("ann"), e.d.NewUser("mod"), e.d.NewUser("member")
	ann.Permissions, mod.Permissions = discordtest.PermServerAdmin, discordtest.PermModerator
	return ann, mod, member
}

const (
	adminOnly         = "You need the Manage Server permission on this server to use `/go-admin`."
	adminOnlyInServer = "`/go-admin` works only in a server, for that server's admins."
)

// onBothStores runs f on a bot over bbolt and on one over PostgreSQL
// (skipped without PostgreSQL), in parallel.
func onBothStores(t *testing.T, f func(t *testing.T, e *env)) {
	t.Parallel()
	t.Run("bolt", func(t *testing.T) {
		t.Parallel()
		f(t, newEnv(t))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, newEnvPostgres(t))
	})
}

// TestE2EAdminPermissions: every /go-admin command is refused, privately
// and changing nothing, to a member, to a moderator (Manage Messages, not
// Manage Server), in a DM, and to the admin of another server, whose
// interactions here carry the permissions Discord computed for them here;
// and an admin's game IDs from another server are no games of this one.
func TestE2EAdminPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, mod, member := e.admins()
	// Otto administers another server; here he is a member.
	other := e.d.OtherGuildChannel("999000000000000001", "elsewhere")
	otto := e.d.NewUser("otto")
	ottoThere := otto
	ottoThere.Permissions = discordtest.PermServerAdmin
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob)
	id := e.game(ch.ID).ID

	commands := []struct {
		name string
		it   func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction
	}{
		{"settings show", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.setting(ch, u, "show")
		}},
		{"settings set", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.set(ch, u, "max_games", "2")
		}},
		{"settings reset", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.setting(ch, u, "reset", discordtest.Str("setting", "size"))
		}},
		{"games", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "games")
		}},
		{"adjudicate", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "adjudicate", discordtest.Str("game", id), discordtest.Str("result", "white"), discordtest.Str("reason", "abandoned"))
		}},
		{"annul", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "annul", discordtest.Str("game", id), discordtest.Str("reason", "farmed"))
		}},
		{"ban", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", "spam"))
		}},
		{"unban", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "unban", discordtest.UserOpt("user", bob))
		}},
		{"bans", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "bans")
		}},
		{"log", func(ch *discordtest.Channel, u discordtest.User) *discordtest.Interaction {
			return e.adminCmd(ch, u, "log")
		}},
	}
	before := e.settingsNow()
	for _, c := range commands {
		for _, u := range []discordtest.User{member, mod, alice, otto} {
			e.refused(c.it(ch, u), adminOnly)
		}
		e.refused(c.it(e.d.DM(ann), ann), adminOnlyInServer)
	}
	if after := e.settingsNow(); after != before {
		t.Errorf("refused admin commands changed the settings: %s -> %s", before, after)
	}
	if log := e.adminLog(); len(log) != 0 {
		t.Errorf("refused admin commands left a log: %q", log)
	}
	if b, err := e.store.Ban(context.Background(), e.d.GuildID, bob.ID); err == nil {
		t.Errorf("a refused ban was stored: %+v", b)
	}
	if g := e.game(ch.ID); g == nil || g.ID != id {
		t.Fatalf("a refused adjudication ended the game")
	}

	// As an admin on his own server, Otto cannot reach this server's game.
	noGame := "There is no game \"" + id + "\" on this server: `/go-admin games` lists the games in play, `/go history` the finished ones."
	e.said(e.adminCmd(other, ottoThere, "adjudicate", discordtest.Str("game", id), discordtest.Str("result", "white"), discordtest.Str("reason", "x")), noGame)
	e.said(e.adminCmd(other, ottoThere, "annul", discordtest.Str("game", id), discordtest.Str("reason", "x")), noGame)
	e.said(e.adminCmd(other, ottoThere, "games"), "No game is being played on this server, and no challenge is open.")
	if g := e.game(ch.ID); g == nil || g.Version != e.game(ch.ID).Version {
		t.Fatalf("another server's admin ended the game")
	}
	// The admin here may.
	e.said(e.setting(ch, ann, "show"), e.defaultSettingsText())
}

// defaultSettingsText is /go-admin settings show on a new server.
func (e *env) defaultSettingsText() string {
	return "**gobot's settings on this server** (`/go-admin settings set setting: value:` changes one, `/go-admin settings reset setting:` puts it back):\n" +
		"• Game channels (`channels`): anywhere\n" +
		"• Default clock (`clock`): gobot's default (correspondence)\n" +
		"• Default size (`size`): gobot's default (19×19)\n" +
		"• Default ruleset (`ruleset`): gobot's default (chinese)\n" +
		"• Default komi (`komi`): the ruleset's\n" +
		"• Server ratings (`ratings`): on\n" +
		"• Global ratings (`global_ratings`): on\n" +
		"• Leaderboard (`leaderboard`): shown\n" +
		"• Bot levels allowed (`bot_levels`): all\n" +
		"• Games at once per player (`max_games`): no limit\n" +
		"• Challenge TTL (`challenge_ttl`): gobot's default (a day)" + settingValues
}

// settingValues ends /go-admin settings show: what each setting takes.
const settingValues = "\nWhat each setting takes\n" +
	"`channels`: channels where games may start, like #go-games #go-club (threads count by their channel); reset: anywhere\n" +
	"`clock`: like live, correspondence or byoyomi 10m 5x30s\n" +
	"`size`: 9, 13 or 19\n" +
	"`ruleset`: chinese, japanese, …\n" +
	"`komi`: -150 to 150 in steps of 0.5, for games with the default ruleset and no handicap\n" +
	"`ratings`: on or off: this server's rating pool\n" +
	"`global_ratings`: on or off: this server's games in the global pool\n" +
	"`leaderboard`: shown or hidden\n" +
	"`bot_levels`: level names of either game, like beginner easy novice; reset: all\n" +
	"`max_games`: 1 to 100; reset: no limit\n" +
	"`challenge_ttl`: 10m to 30d, like 2h or 3d"

// TestE2EAdminSettings: each setting set with an echo of before and after,
// reset, shown; bad values refused with an exact message and nothing
// changed; every change in the log with its before and after.
func TestE2EAdminSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	games := e.d.GuildChannel("go-games")
	foreign := e.d.OtherGuildChannel("999000000000000002", "theirs")
	ann, _, _ := e.admins()

	for _, c := range []struct{ name, value, echo string }{
		{"channels", "<#" + games.ID + ">", "✅ **Game channels** (`channels`): anywhere → <#" + games.ID + ">."},
		{"clock", "live", "✅ **Default clock** (`clock`): gobot's default (correspondence) → live."},
		{"size", "9", "✅ **Default size** (`size`): gobot's default (19×19) → 9×9."},
		{"ruleset", "japanese", "✅ **Default ruleset** (`ruleset`): gobot's default (chinese) → japanese."},
		// The minus as U+2212, as docs and phones write it.
		{"komi", "\u22123", "✅ **Default komi** (`komi`): the ruleset's → -3."},
		{"komi", "5.5", "✅ **Default komi** (`komi`): -3 → 5.5."},
		{"ratings", "off", "✅ **Server ratings** (`ratings`): on → off."},
		{"global_ratings", "off", "✅ **Global ratings** (`global_ratings`): on → off."},
		{"leaderboard", "hidden", "✅ **Leaderboard** (`leaderboard`): shown → hidden."},
		{"bot_levels", "tester, slow", "✅ **Bot levels allowed** (`bot_levels`): all → tester, slow.\n" +
			"⚠️ No international draughts level is among them, so no bot game of international draughts can start here."},
		{"max_games", "3", "✅ **Games at once per player** (`max_games`): no limit → 3."},
		{"challenge_ttl", "2h", "✅ **Challenge TTL** (`challenge_ttl`): gobot's default (a day) → 2 hours."},
	} {
		e.said(e.set(ch, ann, c.name, c.value), c.echo)
	}
	e.said(e.set(ch, ann, "max_games", "3"), "**Games at once per player** (`max_games`) is 3 already; nothing was changed.")
	e.said(e.setting(ch, ann, "reset", discordtest.Str("setting", "max_games")), "↩️ **Games at once per player** (`max_games`) reset: 3 → no limit.")

	before := e.settingsNow()
	for _, c := range []struct{ name, value, want string }{
		{"channels", "<#123456789>", "I know no channel <#123456789> on this server: name channels of this server that I can see."},
		{"channels", "<#" + foreign.ID + ">", "I know no channel <#" + foreign.ID + "> on this server: name channels of this server that I can see."},
		{"channels", "#nowhere", "I know no single channel named \"#nowhere\" on this server: pick it from the list Discord shows when you type #, so that it becomes a link."},
		{"size", "21", "The board size must be 9, 13 or 19, not \"21\"."},
		{"ruleset", "ing", "Unknown ruleset \"ing\": choose " + strings.Join(engine.PresetNames, ", ") + "."},
		{"komi", "7.3", "Komi must be from -150 to 150 in steps of 0.5, not \"7.3\"."},
		{"komi", "200", "Komi must be from -150 to 150 in steps of 0.5, not \"200\"."},
		{"komi", "1e1", "Komi must be from -150 to 150 in steps of 0.5, not \"1e1\"."},
		{"komi", "0x14", "Komi must be from -150 to 150 in steps of 0.5, not \"0x14\"."},
		{"ratings", "maybe", "`ratings` is on or off, not \"maybe\"."},
		{"leaderboard", "gone", "`leaderboard` is shown or hidden, not \"gone\"."},
		{"bot_levels", "tester godlike", "Unknown bot level \"godlike\": Go has tester, slow, flaky, panic, scripted; international draughts has " + draughtsLevelNames() + "."},
		{"max_games", "0", "`max_games` is a number of games from 1 to 100, not \"0\" (reset it for no limit)."},
		{"max_games", "101", "`max_games` is a number of games from 1 to 100, not \"101\" (reset it for no limit)."},
		{"challenge_ttl", "1m", "`challenge_ttl` is a time from 10m to 30d, like 2h or 3d, not \"1m\"."},
		{"challenge_ttl", "31d", "`challenge_ttl` is a time from 10m to 30d, like 2h or 3d, not \"31d\"."},
	} {
		e.refused(e.set(ch, ann, c.name, c.value), c.want)
		e.said(e.set(ch, ann, c.name, c.value), c.want)
	}
	if bad := e.do(e.set(ch, ann, "clock", "fortnightly")); !bad.Ephemeral || !strings.HasPrefix(bad.Text(), "`fortnightly` is not a clock I can read: ") {
		t.Errorf("a bad clock: %q", bad.Text())
	}
	if after := e.settingsNow(); after != before {
		t.Errorf("refused settings changed them: %s -> %s", before, after)
	}

	e.said(e.setting(ch, ann, "show"), "**gobot's settings on this server** (`/go-admin settings set setting: value:` changes one, `/go-admin settings reset setting:` puts it back):\n"+
		"• Game channels (`channels`): <#"+games.ID+">\n"+
		"• Default clock (`clock`): live\n"+
		"• Default size (`size`): 9×9\n"+
		"• Default ruleset (`ruleset`): japanese\n"+
		"• Default komi (`komi`): 5.5\n"+
		"• Server ratings (`ratings`): off\n"+
		"• Global ratings (`global_ratings`): off\n"+
		"• Leaderboard (`leaderboard`): hidden\n"+
		"• Bot levels allowed (`bot_levels`): tester, slow\n"+
		"• Games at once per player (`max_games`): no limit\n"+
		"• Challenge TTL (`challenge_ttl`): 2 hours"+settingValues)
	for _, s := range []string{"channels", "clock", "size", "ruleset", "komi", "ratings", "global_ratings", "leaderboard", "bot_levels", "challenge_ttl"} {
		if m := e.do(e.setting(ch, ann, "reset", discordtest.Str("setting", s))); !strings.HasPrefix(m.Text(), "↩️ ") {
			t.Errorf("reset %s: %q", s, m.Text())
		}
	}
	e.said(e.setting(ch, ann, "show"), e.defaultSettingsText())

	want := []string{
		"ann settings channels | anywhere → <#" + games.ID + "> | ",
		"ann settings clock | gobot's default (correspondence) → live | ",
		"ann settings size | gobot's default (19×19) → 9×9 | ",
		"ann settings ruleset | gobot's default (chinese) → japanese | ",
		"ann settings komi | the ruleset's → -3 | ",
		"ann settings komi | -3 → 5.5 | ",
		"ann settings ratings | on → off | ",
		"ann settings global_ratings | on → off | ",
		"ann settings leaderboard | shown → hidden | ",
		"ann settings bot_levels | all → tester, slow | ",
		"ann settings max_games | no limit → 3 | ",
		"ann settings challenge_ttl | gobot's default (a day) → 2 hours | ",
		"ann settings max_games | 3 → no limit | ",
		"ann settings channels | <#" + games.ID + "> → anywhere | ",
		"ann settings clock | live → gobot's default (correspondence) | ",
		"ann settings size | 9×9 → gobot's default (19×19) | ",
		"ann settings ruleset | japanese → gobot's default (chinese) | ",
		"ann settings komi | 5.5 → the ruleset's | ",
		"ann settings ratings | off → on | ",
		"ann settings global_ratings | off → on | ",
		"ann settings leaderboard | hidden → shown | ",
		"ann settings bot_levels | tester, slow → all | ",
		"ann settings challenge_ttl | 2 hours → gobot's default (a day) | ",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// /go-admin log shows it newest first, ten a page, with buttons.
	page := e.do(e.adminCmd(ch, ann, "log"))
	lines := strings.Split(page.Text(), "\n")
	at := e.clock.Now().Unix()
	if !page.Ephemeral || lines[1] != "Log of this server: 23 entries (page 1 of 3)" ||
		lines[2] != fmt.Sprintf("<t:%d:f> <@%s> **settings** `challenge_ttl`: 2 hours → gobot's default (a day)", at, ann.ID) || len(lines) != 12 {
		t.Errorf("/go-admin log =\n%s", page.Text())
	}
	next := e.do(e.click(ann, page, "Next"))
	if !strings.Contains(next.Text(), "(page 2 of 3)") {
		t.Errorf("the log's page 2 = %q", next.Text())
	}
	last := e.do(e.adminCmd(ch, ann, "log", discordtest.Int("page", 3)))
	if l := strings.Split(last.Text(), "\n"); len(l) != 5 || l[4] != fmt.Sprintf("<t:%d:f> <@%s> **settings** `channels`: anywhere → <#%s>", at, ann.ID, games.ID) {
		t.Errorf("the log's last page =\n%s", last.Text())
	}
	e.refused(e.adminCmd(ch, ann, "log", discordtest.Int("page", 4)), "There are only 3 pages.")
}

// TestE2EAdminChannelsByName: a channel typed out as #name (Discord sends
// it as text unless it is picked from the list) is found by its name among
// the server's channels; a name two channels share, or none has, is
// refused with how to make it a link, and so is any name in a server whose
// channels the bot cannot list (Discord answers 403: it is installed there
// by a user only).
func TestE2EAdminChannelsByName(t *testing.T) {
	withAndWithoutActivity(t, testE2EAdminChannelsByName)
}

func testE2EAdminChannelsByName(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	games := e.d.GuildChannel("go-games")
	e.d.GuildChannel("club")
	e.d.GuildChannel("club")
	theirs := e.d.OtherGuildChannel("999000000000000002", "theirs")
	ann, _, _ := e.admins()
	e.said(e.set(ch, ann, "channels", "#go-games"), "✅ **Game channels** (`channels`): anywhere → <#"+games.ID+">.")
	e.said(e.set(ch, ann, "channels", "Go-Games, #general"), "✅ **Game channels** (`channels`): <#"+games.ID+"> → <#"+games.ID+">, <#"+ch.ID+">.")
	for _, bad := range []string{"#club", "#theirs"} {
		e.refused(e.set(ch, ann, "channels", bad), "I know no single channel named \""+bad+"\" on this server: pick it from the list Discord shows when you type #, so that it becomes a link.")
	}
	// A category, named or linked: no game could start in it.
	cat := e.d.GuildCategory("Games")
	e.refused(e.set(ch, ann, "channels", "#Games"), "I know no single channel named \"#Games\" on this server: pick it from the list Discord shows when you type #, so that it becomes a link.")
	e.refused(e.set(ch, ann, "channels", "<#"+cat.ID+">"), "<#"+cat.ID+"> is a category: nobody posts in one, so no game could start. Name the channels in it instead.")
	e.refused(e.adminCmd(ch, ann, "log", discordtest.Int("page", 2)), "There is only 1 page.")
	e.refused(e.set(theirs, ann, "channels", "#theirs"), "I cannot see this server's channels to find \"#theirs\": pick it from the list Discord shows when you type #, so that it becomes a link (or give its ID).")
	if st, err := e.store.Settings(context.Background(), theirs.GuildID); err != nil || len(st.GameChannels) != 0 {
		t.Errorf("the other server's settings = %+v, %v; want no game channels", st, err)
	}
}

// settingsRace is the bot's store with another admin's change of the
// server's settings made just before the bot's next PutSettings, as if
// both had pressed Enter at the same moment.
type settingsRace struct {
	commands.Store
	mu    sync.Mutex
	other func() // run once, before the next PutSettings
}

func (s *settingsRace) PutSettings(ctx context.Context, st *storage.Settings, e storage.AuditEntry) error {
	s.mu.Lock()
	other := s.other
	s.other = nil
	s.mu.Unlock()
	if other != nil {
		other()
	}
	return s.Store.PutSettings(ctx, st, e)
}

// TestE2EAdminSettingsAtOnce: two admins changing different settings at
// the same moment both succeed: the change that finds the settings
// changed under it is applied again to them (and checked again), and
// each change is stored and logged once. Only a change of the same
// setting at the same moment is refused, saying what the other admin
// set; the refused change is not stored nor logged.
func TestE2EAdminSettingsAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	race := &settingsRace{}
	e.wrapStore = func(s commands.Store) commands.Store {
		race.Store = s
		return race
	}
	e.restart()
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	// bea's change, stored directly, with its entry, as her own
	// /go-admin settings set would.
	bea := func(change func(*storage.Settings), name, before, after string) func() {
		return func() {
			ctx := context.Background()
			st, err := e.store.Settings(ctx, e.d.GuildID)
			if err != nil {
				t.Fatal(err)
			}
			change(st)
			entry := storage.AuditEntry{GuildID: e.d.GuildID, By: storage.Player{UserID: "1300000000000000001", Name: "bea"}, Action: storage.AuditSettings, Target: name, Before: before, After: after}
			if err := e.store.PutSettings(ctx, st, entry); err != nil {
				t.Errorf("bea's change: %v", err)
			}
		}
	}

	race.mu.Lock()
	race.other = bea(func(st *storage.Settings) { st.MaxGames = 3 }, "max_games", "no limit", "3")
	race.mu.Unlock()
	e.said(e.set(ch, ann, "size", "13"), "✅ **Default size** (`size`): gobot's default (19×19) → 13×13.")
	// ann's komi, fine on 13×13 (the default board when she chose it),
	// is checked again on bea's 9×9, where rated games could not take it.
	race.mu.Lock()
	race.other = bea(func(st *storage.Settings) { st.Size = 9 }, "size", "13×13", "9×9")
	race.mu.Unlock()
	e.said(e.set(ch, ann, "komi", "30"), "With komi 30 and chinese rules, a rated game on 9×9, this server's default board, gives 10.4 ranks of head start, more than the 9.5 a rated game may: "+
		"every `/go challenge` and `/go bot` here would be refused unless it said `rated:false` or its own `komi:`. Choose a komi nearer the ruleset's (7.5), or reset `komi`.")
	race.mu.Lock()
	race.other = bea(func(st *storage.Settings) { st.Size = 19 }, "size", "9×9", "19×19")
	race.mu.Unlock()
	e.said(e.set(ch, ann, "size", "13"), "Another admin changed **Default size** (`size`) at the same moment (9×9 → 19×19), so yours was not applied. Look at `/go-admin settings show` and try again if need be.")

	st, err := e.store.Settings(context.Background(), e.d.GuildID)
	if err != nil || st.Size != 19 || st.MaxGames != 3 || st.Komi != nil {
		t.Errorf("settings = %+v, %v; want bea's 19×19 and her limit of 3, and no komi", st, err)
	}
	want := []string{
		"bea settings max_games | no limit → 3 | ",
		"ann settings size | gobot's default (19×19) → 13×13 | ",
		"bea settings size | 13×13 → 9×9 | ",
		"bea settings size | 9×9 → 19×19 | ",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestE2EAdminGameChannels: with a game channel set, games start only
// there and in its threads, refused elsewhere privately naming it; stats
// and help work everywhere; the server's defaults, bot levels, limit, TTL
// and hidden leaderboard hold.
func TestE2EAdminGameChannels(t *testing.T) {
	withAndWithoutActivity(t, testE2EAdminGameChannels)
}

func testE2EAdminGameChannels(t *testing.T, e *env) {
	general, games := e.d.GuildChannel("general"), e.d.GuildChannel("go-games")
	ann, _, _ := e.admins()
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	for _, s := range [][2]string{{"channels", "<#" + games.ID + ">"}, {"size", "9"}, {"clock", "live"}, {"bot_levels", "tester"}, {"max_games", "1"}, {"challenge_ttl", "2h"}, {"leaderboard", "hidden"}} {
		if m := e.do(e.set(general, ann, s[0], s[1])); !strings.HasPrefix(m.Text(), "✅") {
			t.Fatalf("set %s: %q", s[0], m.Text())
		}
	}
	only := "Games start only in <#" + games.ID + "> on this server, as its admins chose (threads there count too). `/go stats`, `/go help`, `/go history` and `/go review` work everywhere."
	e.refused(e.slash(general, alice, "challenge", discordtest.UserOpt("opponent", bob)), only)
	e.refused(e.slash(general, alice, "bot", discordtest.Str("level", "tester")), only)
	e.refused(e.slash(general, alice, "rengo"), only)
	e.refused(e.slash(general, alice, "vote", discordtest.Str("level", "tester")), only)
	// /draughts names its own commands (it has no review).
	onlyDraughts := "Games start only in <#" + games.ID + "> on this server, as its admins chose (threads there count too). `/draughts stats`, `/draughts help` and `/draughts history` work everywhere."
	e.said(e.d.Command(general, alice, "draughts", discordtest.Sub("challenge", discordtest.UserOpt("opponent", bob))), onlyDraughts)
	e.said(e.d.Command(general, alice, "draughts", discordtest.Sub("bot")), onlyDraughts)
	for _, sub := range []string{"stats", "help", "history"} {
		if m := e.draughtsCmd(general, alice, sub); strings.Contains(e.do(m).Text(), "Games start only in") {
			t.Errorf("/draughts %s in general was refused", sub)
		}
	}
	if m := e.do(e.slash(general, alice, "help")); m.Ephemeral && !strings.Contains(m.Text(), "/go-admin") {
		t.Errorf("/go help in general = %q", m.Text())
	}
	// The help states this server's defaults.
	help := e.do(e.slash(general, alice, "help")).Text()
	for _, want := range []string{"`size` (9, 13, 19; default 9)", "Challenges expire after 2 hours", "(default here: live)"} {
		if !strings.Contains(help, want) {
			t.Errorf("/go help on a server with its own defaults lacks %q:\n%s", want, help)
		}
	}
	if m := e.do(e.slash(general, alice, "stats")); !strings.Contains(m.Text(), "has not finished a game of Go yet") {
		t.Errorf("/go stats in general = %q", m.Text())
	}
	e.refused(e.slash(general, alice, "leaderboard"), "The leaderboard is hidden on this server by its admins. `/go stats` still shows your rating.")
	e.refused(e.draughtsCmd(general, alice, "leaderboard", discordtest.Str("scope", "global")), "The leaderboard is hidden on this server by its admins. `/draughts stats` still shows your rating.")
	e.refused(e.slash(games, alice, "bot", discordtest.Str("level", "slow")), "The bot level \"slow\" is not offered on this server: its admins allow tester.")

	// In the game channel, the server's defaults: 9×9, live clock, a
	// challenge open for two hours.
	msg := e.newChallenge(e.slash(games, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "black"), discordtest.Bool("thread", true)))
	if msg.Ephemeral {
		t.Fatalf("challenge in the game channel refused: %q", msg.Text())
	}
	c, err := e.store.Challenge(context.Background(), msg.InteractionID)
	if err != nil || c.Size != 9 || c.Clock == nil || c.Clock.Name() != "live" || !c.ExpiresAt.Equal(e.clock.Now().Add(2*time.Hour)) {
		t.Fatalf("challenge = %+v, %v; want 9×9, live, expiring in 2 hours", c, err)
	}
	e.do(e.click(bob, msg, "accept"))
	var thread *discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		th := e.d.Threads(games.ID)
		if len(th) == 1 && e.game(th[0].ID) != nil {
			thread = th[0]
			return true
		}
		return false
	})
	// One game at once here: alice and bob may start no other.
	e.refused(e.slash(games, alice, "bot", discordtest.Str("level", "tester")), "You already play 1 game on this server, the most its admins allow at once: finish one first.")
	e.refused(e.slash(games, carol, "challenge", discordtest.UserOpt("opponent", bob)), "<@"+bob.ID+"> already plays 1 game on this server, the most its admins allow at once.")
	// The thread counts as the game channel: once its game is over, a
	// game may start there.
	e.do(e.slash(thread, bob, "resign"))
	if m := e.do(e.slash(thread, carol, "bot", discordtest.Str("level", "tester"))); m.Ephemeral {
		t.Errorf("a bot game in the game channel's thread was refused: %q", m.Text())
	}
	if g := e.game(thread.ID); g == nil || goOf(g).Size() != 9 || g.Clock == nil || g.Clock.Control.Name() != "live" {
		t.Errorf("the bot game in the thread: %+v", g)
	}
}

// ratingsState is every rating and rating change of the players, in the
// global pool and this server's, as JSON: what a rebuild must reproduce.
func (e *env) ratingsState(players ...discordtest.User) string {
	e.t.Helper()
	ctx := context.Background()
	var out []any
	for _, p := range players {
		h, err := e.store.RatingHistory(ctx, p.ID)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, h)
		for _, pool := range []string{storage.GlobalPool, storage.GuildPool(e.d.GuildID)} {
			if r, err := e.store.Rating(ctx, pool, p.ID); err == nil {
				out = append(out, r)
			}
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// ratedGame has black and white play twelve moves in ch (six each: a
// rated 9×9 game) and white resign; it returns the game's ID.
func (e *env) ratedGame(ch *discordtest.Channel, black, white discordtest.User) string {
	e.t.Helper()
	e.startGame(ch, black, white, 9)
	id := e.game(ch.ID).ID
	e.playOut(ch, black, white, append(append([]string{}, opening9...), "B2", "H8"))
	if m := e.do(e.slash(ch, white, "resign")); !strings.Contains(m.Text(), "📈") {
		e.t.Fatalf("the game was not rated: %q", m.Text())
	}
	e.clock.Advance(time.Hour)
	return id
}

// TestE2EAdminAdjudicateAndAnnul: a finished rated game annulled leaves
// every rating equal to what `gobot ratings rebuild` gives, its record
// kept and marked; a game in play awarded to White is recorded W+F and
// rated, another annulled is recorded Void and never rated; each channel
// is told with the reason; IDs of other servers' games, of finished games
// for adjudicate, of games in play for annul, and a second annul are
// refused exactly, changing nothing; the log says it all.
func TestE2EAdminAdjudicateAndAnnul(t *testing.T) { onBothStores(t, testE2EAdminAdjudicateAndAnnul) }

func testE2EAdminAdjudicateAndAnnul(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	first := e.ratedGame(ch, alice, bob)
	e.ratedGame(ch, carol, alice)
	e.ratedGame(ch, bob, carol)
	e.ratedGame(ch, alice, carol)

	// Annul the first game: the later ones are rated again without it.
	before := e.ratingsState(alice, bob, carol)
	e.refused(e.adminCmd(ch, ann, "annul", discordtest.Str("game", first), discordtest.Str("reason", "")), "Give a reason with `reason:`: it is kept in the server's log.")
	done := e.do(e.adminCmd(ch, ann, "annul", discordtest.Str("game", first), discordtest.Str("reason", "farmed with a friend")))
	if want := "Annulled the game `" + first + "` (⚫ alice vs ⚪ bob, B+R): its record stays, marked annulled, and it no longer counts in anyone's statistics. " +
		"The ratings it counted in were recomputed without it, game by game, as `gobot ratings rebuild` would. Its channel was told."; !done.Ephemeral || done.Text() != want {
		t.Errorf("annul answered %q, want %q", done.Text(), want)
	}
	if told := e.publicWith(ch.ID, "annulled the finished game"); len(told) != 1 || told[0].Text() != "⚖️ <@"+ann.ID+">, an admin of this server, annulled the finished game ⚫ alice vs ⚪ bob (B+R, `"+first+"`): it no longer counts in statistics or ratings. Reason: farmed with a friend" {
		t.Errorf("the channel was told %v", told)
	}
	annulled := e.ratingsState(alice, bob, carol)
	if annulled == before {
		t.Fatalf("annulling a rated game changed no rating")
	}
	if a := e.archived(ch.ID, first); !a.Annulled || a.Rated || a.Result != "B+R" {
		t.Errorf("the annulled game's record: annulled=%v rated=%v %s", a.Annulled, a.Rated, a.Result)
	}
	// Its record says who annulled it, when and why, at its root (after
	// its clock's maximum, which OT cannot say); its replay and record
	// say it is not counted.
	sgf := e.do(e.slash(ch, carol, "sgf", discordtest.Str("game", first)))
	if want := "Record of ⚫ alice vs ⚪ bob, 9×9, B+R, annulled, finished "; !strings.HasPrefix(sgf.Text(), want) || len(sgf.Attachments) != 1 {
		t.Errorf("/go sgf of the annulled game = %q, want it to begin %q, with the SGF", sgf.Text(), want)
	} else if rec, want := string(sgf.Attachments[0].Data), "\n\nAnnulled by ann, an admin of the server, on 2025-06-01, after the game ended B+R: not counted in statistics or ratings. Reason: farmed with a friend]"; !strings.Contains(rec, "C[Time: Fischer: 3 days, +1 day per move, at most 7 days."+want) || !strings.Contains(rec, "RE[B+R]") {
		t.Errorf("the annulled game's SGF:\n%s\nwant RE[B+R] and %s at its root", rec, want)
	}
	if m, want := e.do(e.slash(ch, carol, "replay", discordtest.Str("game", first))), "Replay of ⚫ alice vs ⚪ bob, 9×9, B+R, annulled, 12 moves."; m.Text() != want {
		t.Errorf("/go replay of the annulled game = %q, want %q", m.Text(), want)
	}
	// Its suggestion for game: says so too.
	if r := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub("sgf", discordtest.Focused("game", first)))); len(r.Choices) != 1 || !strings.HasPrefix(r.Choices[0].Name, "vs @alice · 9×9 · B+R, annulled · ") {
		t.Errorf("bob's suggestion for the annulled game: %+v", r.Choices)
	}
	rep, err := e.store.RebuildRatings(context.Background())
	if err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 3 {
		t.Errorf("RebuildRatings after the annul = %+v, %v; want 3 games and nothing changed", rep, err)
	}
	if rebuilt := e.ratingsState(alice, bob, carol); rebuilt != annulled {
		t.Errorf("ratings after the annul differ from a rebuild:\nannul:   %s\nrebuild: %s", annulled, rebuilt)
	}
	if m := e.do(e.slash(ch, bob, "stats")); !strings.Contains(m.Text(), "**1 game**: 1 won, 0 lost") || !strings.Contains(m.Text(), "annulled vs <@"+alice.ID+"> · 9×9 · B+R · not counted") {
		t.Errorf("bob's stats still count the annulled game: %q", m.Text())
	}

	// Refusals, each changing nothing.
	e.startGame(ch, alice, dave, 9)
	e.playOut(ch, alice, dave, append(append([]string{}, opening9...), "B2", "H8"))
	inPlay := e.game(ch.ID)
	other := e.d.OtherGuildChannel("999000000000000003", "elsewhere")
	x, y := e.d.NewUser("x"), e.d.NewUser("y")
	e.startGame(other, x, y, 9)
	foreign := e.game(other.ID).ID
	noGame := func(id string) string {
		return "There is no game \"" + id + "\" on this server: `/go-admin games` lists the games in play, `/go history` the finished ones."
	}
	logBefore := e.adminLog()
	for _, c := range []struct {
		it   *discordtest.Interaction
		want string
	}{
		{e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", foreign), discordtest.Str("result", "black"), discordtest.Str("reason", "x")), noGame(foreign)},
		{e.adminCmd(ch, ann, "annul", discordtest.Str("game", foreign), discordtest.Str("reason", "x")), noGame(foreign)},
		{e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", "nope"), discordtest.Str("result", "black"), discordtest.Str("reason", "x")), noGame("nope")},
		{e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", first), discordtest.Str("result", "black"), discordtest.Str("reason", "x")),
			"The game `" + first + "` is over (B+R): `/go-admin annul` takes a finished game out of the statistics and ratings."},
		{e.adminCmd(ch, ann, "annul", discordtest.Str("game", inPlay.ID), discordtest.Str("reason", "x")), "The game `" + inPlay.ID + "` is still in play: `/go-admin adjudicate` decides or annuls it."},
		{e.adminCmd(ch, ann, "annul", discordtest.Str("game", first), discordtest.Str("reason", "x")), "The game `" + first + "` is annulled already."},
		{e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", inPlay.ID), discordtest.Str("result", "black"), discordtest.Str("reason", strings.Repeat("x", 301))), "A reason may be at most 300 characters long."},
	} {
		e.refused(c.it, c.want)
	}
	if e.game(other.ID) == nil || e.game(ch.ID).Version != inPlay.Version {
		t.Errorf("a refused adjudication changed a game")
	}
	if got := e.adminLog(); len(got) != len(logBefore) {
		t.Errorf("refusals were logged: %q", got[len(logBefore):])
	}

	// /go-admin games lists the game in play, with a link to its newest
	// board (its ID is stored just after the board is posted).
	var g *storage.Game
	e.d.WaitFor("the board's message ID", func() bool {
		g = e.game(ch.ID)
		return len(g.Delivery.MessageIDs) > 0
	})
	list := e.do(e.adminCmd(ch, ann, "games"))
	line := fmt.Sprintf("⚫ <@%s> vs ⚪ <@%s> · 9×9 · move 13 · ⚫ <@%s> to play · time runs out <t:%d:R> · [board](https://discord.com/channels/%s/%s/%s) · `%s`",
		alice.ID, dave.ID, alice.ID, g.Clock.Deadline().Unix(), e.d.GuildID, ch.ID, g.Delivery.MessageIDs[len(g.Delivery.MessageIDs)-1], g.ID)
	if want := "\nOn this server: 1 game in play, 0 challenges open (page 1 of 1)\n" + line; !list.Ephemeral || list.Text() != want {
		t.Errorf("/go-admin games =\n%s\nwant\n%s", list.Text(), want)
	}

	// Awarded to White: W+F, rated on this server only (one server's
	// admins do not move the global ratings), the channel told.
	globalBefore := e.rating(storage.GlobalPool, alice.ID) + " / " + e.rating(storage.GlobalPool, dave.ID)
	e.said(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "white"), discordtest.Str("reason", "alice left the club")),
		"Done: the game `"+g.ID+"` (⚫ alice vs ⚪ dave) is recorded as W+F, and its channel was told.")
	if e.game(ch.ID) != nil {
		t.Fatalf("the adjudicated game is still in play")
	}
	if a := e.archived(ch.ID, g.ID); a.Result != "W+F" || !a.Rated || a.Annulled || !strings.Contains(string(a.SGF), "C[Decided by ann, an admin of the server, after 12 moves: white wins by forfeit. Reason: alice left the club\n\nTime: Fischer: 3 days, +1 day per move, at most 7 days.]") {
		t.Errorf("the awarded game's record: %s rated=%v annulled=%v, SGF %s", a.Result, a.Rated, a.Annulled, a.SGF)
	}
	told := e.publicWith(ch.ID, "decided the game")
	if len(told) != 1 || !strings.HasPrefix(told[0].Text(), "⚖️ <@"+ann.ID+">, an admin of this server, decided the game ⚫ <@"+alice.ID+"> vs ⚪ <@"+dave.ID+"> after 12 moves: **White wins** by forfeit (W+F). Reason: alice left the club\n📈 Ratings on this server: <@"+alice.ID+"> ") ||
		!slices.Equal(told[0].Pings, []string{alice.ID, dave.ID}) {
		t.Errorf("the channel was told %v; want both players pinged", told)
	} else if want := "\n🌐 Not in the global ratings: a result that a server's admin decided counts only on that server."; !strings.HasSuffix(told[0].Text(), want) {
		t.Errorf("the channel was told %q; want it to end %q", told[0].Text(), want)
	}
	if after := e.rating(storage.GlobalPool, alice.ID) + " / " + e.rating(storage.GlobalPool, dave.ID); after != globalBefore {
		t.Errorf("the adjudicated game moved the global ratings: %s → %s", globalBefore, after)
	}
	if e.rating(storage.GuildPool(e.d.GuildID), dave.ID) == "none" {
		t.Errorf("the adjudicated game did not rate dave on this server")
	}

	// Annulled in play: Void, never rated.
	e.startGame(ch, carol, dave, 9)
	e.playOut(ch, carol, dave, opening9)
	g = e.game(ch.ID)
	e.said(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "annul"), discordtest.Str("reason", "played by one person")),
		"Done: the game `"+g.ID+"` (⚫ carol vs ⚪ dave) is recorded as Void, and its channel was told.")
	if a := e.archived(ch.ID, g.ID); a.Result != "Void" || a.Rated || !a.Annulled || a.Moves != 10 {
		t.Errorf("the annulled game's record: %s rated=%v annulled=%v moves %d", a.Result, a.Rated, a.Annulled, a.Moves)
	}
	// The history calls it annulled, not aborted.
	if h := e.do(e.slash(ch, carol, "history")); !strings.Contains(h.Text(), "⚫ annulled vs <@"+dave.ID+"> · 9×9 · Void · not counted") {
		t.Errorf("carol's history = %q, want the game annulled", h.Text())
	}
	if told := e.publicWith(ch.ID, "annulled the game"); len(told) != 1 || told[0].Text() != "⚖️ <@"+ann.ID+">, an admin of this server, annulled the game ⚫ <@"+carol.ID+"> vs ⚪ <@"+dave.ID+"> after 10 moves: it is recorded as annulled (`/go sgf game:"+g.ID+"`) and never rated. Reason: played by one person\nThe channel is free for a new game." {
		t.Errorf("the channel was told %v", told)
	}
	if got := e.rating(storage.GlobalPool, carol.ID); got == "none" {
		t.Fatalf("carol has no rating")
	}
	if rep, err := e.store.RebuildRatings(context.Background()); err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 4 {
		t.Errorf("RebuildRatings at the end = %+v, %v; want 4 games and nothing changed", rep, err)
	}

	want := []string{
		"ann annul " + first + " | B+R, rated → B+R, annulled | farmed with a friend",
		"ann adjudicate " + inPlay.ID + " | in play after 12 moves → W+F | alice left the club",
		"ann adjudicate " + g.ID + " | in play after 10 moves → Void | played by one person",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestE2EAdminAdjudicateBotGame: a game against a bot that a server's
// admin awards to the player is recorded B+F and not rated (a bot's games
// count in the global ratings only, where no server's admin decides),
// and the channel is told why; the player's global rating is untouched.
func TestE2EAdminAdjudicateBotGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	erin := e.d.NewUser("erin")
	if m := e.do(e.slash(ch, erin, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "black"))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	for _, move := range []string{"E5", "D4", "F6", "E4", "D5", "F4"} {
		if m := e.do(e.play(ch, erin, move)); m.Ephemeral {
			t.Fatalf("%s refused: %q", move, m.Text())
		}
	}
	g := e.game(ch.ID)
	if g.State.MoveCount() != 12 {
		t.Fatalf("%d moves, want 12", g.State.MoveCount())
	}
	e.said(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "black"), discordtest.Str("reason", "the bot hung")),
		"Done: the game `"+g.ID+"` (⚫ erin vs ⚪ gobot tester) is recorded as B+F, and its channel was told.")
	if a := e.archived(ch.ID, g.ID); a.Result != "B+F" || a.Rated || !a.Adjudicated {
		t.Errorf("the awarded game's record: %s rated=%v adjudicated=%v", a.Result, a.Rated, a.Adjudicated)
	}
	told := e.publicWith(ch.ID, "decided the game")
	if want := "**Black wins** by forfeit (B+F). Reason: the bot hung\nNot rated: a result that a server's admin decided counts only in that server's ratings, and games against bots count only in the global ones."; len(told) != 1 || !strings.HasSuffix(told[0].Text(), want) {
		t.Errorf("the channel was told %v; want it to end %q", told, want)
	}
	if got := e.rating(storage.GlobalPool, erin.ID); got != "none" {
		t.Errorf("erin's global rating after the adjudicated bot game: %s, want none", got)
	}
	if m := e.do(e.slash(ch, erin, "stats")); !strings.Contains(m.Text(), "B+F · unrated") {
		t.Errorf("erin's stats = %q, want the game unrated", m.Text())
	}
}

// TestE2EAdminAnnulDraughtsRecord: a finished game of draughts annulled
// keeps its PDN record, which says at its root who annulled it, when and
// why, as a Go game's SGF does; /draughts record says it is not counted.
func TestE2EAdminAnnulDraughtsRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("dames")
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(ch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	id := e.game(ch.ID).ID
	e.do(e.draughtsMove(ch, alice, "32-28"))
	e.do(e.draughtsCmd(ch, bob, "resign"))
	if m := e.do(e.adminCmd(ch, ann, "annul", discordtest.Str("game", id), discordtest.Str("reason", "farmed"))); !strings.HasPrefix(m.Text(), "Annulled the game") {
		t.Fatalf("annul = %q", m.Text())
	}
	rec := e.do(e.draughtsCmd(ch, alice, "record", discordtest.Str("game", id)))
	if want := "Record of ⚪ alice vs ⚫ bob, draughts 10×10, 2-0 (resignation), annulled, finished "; !strings.HasPrefix(rec.Text(), want) || len(rec.Attachments) != 1 {
		t.Fatalf("/draughts record of the annulled game = %q, want it to begin %q, with the PDN", rec.Text(), want)
	}
	pdn := string(rec.Attachments[0].Data)
	if want := "{Annulled by ann, an admin of the server, on 2025-06-01, after the game ended 2-0 (resignation): not counted in statistics or ratings. Reason: farmed}"; !strings.Contains(pdn, want) || !strings.Contains(pdn, "1. 32-28 {Black (bob) resigned.} 2-0") {
		t.Errorf("the annulled game's PDN:\n%s\nwant its moves, its result and %s", pdn, want)
	}
}

// TestE2EAdminBan: a banned user cannot challenge, be challenged, start
// a bot game or vote on the server (in a DM they still play); their games
// in play are listed for adjudication; a ban for days lapses by itself on
// the fake clock; banning gobot, a bot account or an admin is refused;
// unban lifts a ban; the log keeps each.
func TestE2EAdminBan(t *testing.T) { onBothStores(t, testE2EAdminBan) }

func testE2EAdminBan(t *testing.T, e *env) {
	ch, games := e.d.GuildChannel("general"), e.d.GuildChannel("games")
	ann, mod, _ := e.admins()
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	bea := e.d.NewUser("bea")
	bea.Permissions = discordtest.PermServerAdmin
	robot := e.d.NewUser("robot")
	robot.Bot = true
	gobot := discordtest.User{ID: e.d.BotUserID, Username: "gobot", Bot: true}
	e.startGame(games, bob, carol, 9)
	inPlay := e.game(games.ID)

	for _, c := range []struct {
		u    discordtest.User
		want string
	}{
		{gobot, "I cannot ban myself. To keep games out of some channels, set `/go-admin settings set setting:channels`; to remove gobot, kick it from the server."},
		{robot, "<@" + robot.ID + "> is a bot account and cannot play, so there is nothing to ban."},
		{bea, "<@" + bea.ID + "> is an admin of this server (Manage Server), and admins cannot be banned from gobot."},
		{ann, "You cannot ban yourself."},
	} {
		e.refused(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", c.u), discordtest.Str("reason", "test")), c.want)
	}
	e.refused(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Int("days", 0), discordtest.Str("reason", "x")),
		"A ban lasts from 1 to 3650 days, not 0; leave `days:` out for a ban until you lift it.")
	e.refused(e.adminCmd(ch, ann, "unban", discordtest.UserOpt("user", bob)), "<@"+bob.ID+"> is not banned on this server.")
	if log := e.adminLog(); len(log) != 0 {
		t.Fatalf("refused bans were logged: %q", log)
	}

	until := e.clock.Now().Add(48 * time.Hour).Unix()
	e.said(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Int("days", 2), discordtest.Str("reason", "harassing with challenges")),
		fmt.Sprintf("🚫 <@%s> is banned from gobot on this server until <t:%d:f>: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: harassing with challenges\n"+
			"Their games in play here, to decide with `/go-admin adjudicate` if need be: `%s` (⚫ bob vs ⚪ carol) in <#%s>.", bob.ID, until, inPlay.ID, games.ID))
	banned := fmt.Sprintf("You are banned from gobot games on this server until <t:%d:f>. Reason: harassing with challenges", until)
	e.refused(e.slash(ch, bob, "challenge", discordtest.UserOpt("opponent", alice)), banned)
	e.refused(e.slash(ch, bob, "bot", discordtest.Str("level", "tester")), banned)
	e.refused(e.slash(ch, bob, "rengo"), banned)
	e.refused(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob)), "<@"+bob.ID+"> is banned from gobot games on this server and cannot play here.")
	// A vote game: bob may not vote.
	if m := e.do(e.slash(ch, dave, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9))); m.Ephemeral {
		t.Fatalf("vote game refused: %q", m.Text())
	}
	e.refused(e.play(ch, bob, "E5"), banned)
	if m := e.do(e.play(ch, dave, "E5")); !m.Ephemeral || !strings.Contains(m.Text(), "Your vote") {
		t.Errorf("dave's vote: %q", m.Text())
	}
	// A challenge made before the ban cannot be accepted by bob.
	// In a DM the server's ban does not hold.
	if m := e.do(e.botGame(e.d.DM(bob), bob, "tester")); m.Ephemeral {
		t.Errorf("bob's bot game in a DM was refused: %q", m.Text())
	}
	// A moderator (not an admin) may not ban.
	e.refused(e.adminCmd(ch, mod, "ban", discordtest.UserOpt("user", alice), discordtest.Str("reason", "x")), adminOnly)

	// The ban lapses by itself after two days.
	e.clock.Advance(48*time.Hour + time.Minute)
	other := e.d.GuildChannel("other")
	if m := e.newChallenge(e.slash(other, bob, "challenge", discordtest.UserOpt("opponent", alice))); m.Ephemeral {
		t.Errorf("bob's challenge after the ban lapsed was refused: %q", m.Text())
	}
	// (In another channel: the vote game's period has ended in ch.)
	e.refused(e.adminCmd(other, ann, "unban", discordtest.UserOpt("user", bob)), "<@"+bob.ID+"> is not banned on this server.")
	// The log shows the lapse, by gobot, when the two days were over.
	page := e.do(e.adminCmd(ch, ann, "log"))
	if want := "\nLog of this server: 2 entries (page 1 of 1)\n" +
		fmt.Sprintf("<t:%d:f> gobot **lapse** <@%s>: banned until <t:%d:f> → not banned\n", until, bob.ID, until) +
		fmt.Sprintf("<t:%d:f> <@%s> **ban** <@%s>: not banned → banned until <t:%d:f> — harassing with challenges", until-48*3600, ann.ID, bob.ID, until); !page.Ephemeral || page.Text() != want {
		t.Errorf("/go-admin log after the lapse =\n%s\nwant\n%s", page.Text(), want)
	}

	// A ban until lifted, then lifted.
	e.said(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", dave), discordtest.Str("reason", "cheating")),
		"🚫 <@"+dave.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: cheating\nThey have no game in play here.")
	e.refused(e.slash(other, dave, "bot", discordtest.Str("level", "tester")), "You are banned from gobot games on this server until an admin lifts it. Reason: cheating")
	e.said(e.adminCmd(ch, ann, "unban", discordtest.UserOpt("user", dave)), "✅ <@"+dave.ID+"> may play on this server again.")
	third := e.d.GuildChannel("third")
	if m := e.do(e.botGame(third, dave, "tester")); m.Ephemeral {
		t.Errorf("dave's bot game after the unban was refused: %q", m.Text())
	}
	want := []string{
		fmt.Sprintf("ann ban %s | not banned → banned until <t:%d:f> | harassing with challenges", bob.ID, until),
		"gobot lapse " + bob.ID + " |  →  | ",
		"ann ban " + dave.ID + " | not banned → banned until an admin lifts it | cheating",
		"ann unban " + dave.ID + " | banned until an admin lifts it → not banned | ",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b, err := e.store.Ban(context.Background(), e.d.GuildID, dave.ID); err != nil || b.Lifted.IsZero() || b.Reason != "cheating" {
		t.Errorf("the lifted ban's record: %+v, %v; want it kept, lifted", b, err)
	}

	// An unban may say why: the reason is in its answer and its entry.
	// (In another channel: the vote game in ch posts when its period ends.)
	e.do(e.adminCmd(other, ann, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "rude")))
	e.refused(e.adminCmd(other, ann, "unban", discordtest.UserOpt("user", carol), discordtest.Str("reason", strings.Repeat("x", 301))), "A reason may be at most 300 characters long.")
	e.said(e.adminCmd(other, ann, "unban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "  apologised  to the club ")),
		"✅ <@"+carol.ID+"> may play on this server again. Reason: apologised to the club")
	want = append(want, "ann ban "+carol.ID+" | not banned → banned until an admin lifts it | rude",
		"ann unban "+carol.ID+" | banned until an admin lifts it → not banned | apologised to the club")
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m := e.do(e.adminCmd(ch, ann, "log")); !strings.Contains(m.Text(), fmt.Sprintf("**unban** <@%s>: banned until an admin lifts it → not banned — apologised to the club", carol.ID)) {
		t.Errorf("/go-admin log =\n%s\nwant the unban with its reason", m.Text())
	}
}

// TestE2EAdminBanClosesChallenges: a ban withdraws the banned user's
// challenges on the server, made by them or to them (Go and draughts),
// calls off the rengo lobbies they opened and takes them off the teams of
// the others, whose openers could otherwise never start them; each
// message says so (a lobby they left stays open, without them, and says
// why), the
// ban's answer lists what it did, the log has each withdrawal, and the
// challenges of others stay.
func TestE2EAdminBanClosesChallenges(t *testing.T) { onBothStores(t, testE2EAdminBanClosesChallenges) }

func testE2EAdminBanClosesChallenges(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	c1, c2, c3, c4, c5, c6 := e.d.GuildChannel("c1"), e.d.GuildChannel("c2"), e.d.GuildChannel("c3"), e.d.GuildChannel("c4"), e.d.GuildChannel("c5"), e.d.GuildChannel("c6")
	byDave := e.newChallenge(e.slash(c1, dave, "challenge", discordtest.UserOpt("opponent", carol)))
	toDave := e.newChallenge(e.slash(c2, alice, "challenge", discordtest.UserOpt("opponent", dave)))
	draughtsByDave := e.newChallenge(e.draughtsCmd(c3, dave, "challenge", discordtest.UserOpt("opponent", alice)))
	joined := e.do(e.slash(c4, alice, "rengo", discordtest.Int("size", 9)))
	e.do(e.click(dave, joined, "Join Black"))
	e.do(e.click(bob, joined, "Join White"))
	opened := e.do(e.slash(c5, dave, "rengo", discordtest.Int("size", 9)))
	others := e.newChallenge(e.slash(c6, carol, "challenge", discordtest.UserOpt("opponent", bob)))
	for _, m := range []discordtest.Message{byDave, toDave, draughtsByDave, joined, opened, others} {
		if m.Ephemeral {
			t.Fatalf("a challenge or lobby was refused: %q", m.Text())
		}
	}

	e.said(e.adminCmd(c6, ann, "ban", discordtest.UserOpt("user", dave), discordtest.Str("reason", "harassing")),
		"🚫 <@"+dave.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: harassing\n"+
			"They have no game in play here.\n"+
			"Their challenges here (by them or to them) were withdrawn: `"+draughtsByDave.InteractionID+"` in <#"+c3.ID+">, `"+toDave.InteractionID+"` in <#"+c2.ID+">, `"+byDave.InteractionID+"` in <#"+c1.ID+">.\n"+
			"The rengo games they opened here were called off: `"+opened.InteractionID+"` in <#"+c5.ID+">.\n"+
			"They were taken off the teams of the rengo games they had joined here: `"+joined.InteractionID+"` in <#"+c4.ID+">.")

	now := func(m discordtest.Message) discordtest.Message {
		t.Helper()
		got, ok := e.d.Message(m.ID)
		if !ok {
			t.Fatalf("message %s is gone", m.ID)
		}
		return got
	}
	withdrawn := "🚫 Withdrawn: <@" + dave.ID + "> is banned from gobot games on this server."
	for _, m := range []discordtest.Message{byDave, toDave, draughtsByDave} {
		got := now(m)
		if !strings.HasSuffix(got.Text(), "\n"+withdrawn) || len(got.Buttons()) == 0 || !got.Buttons()[0].Disabled {
			t.Errorf("a challenge by or to dave after the ban = %q (buttons %+v), want it closed: %q", got.Text(), got.Buttons(), withdrawn)
		}
		if _, err := e.store.Challenge(context.Background(), m.InteractionID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the withdrawn challenge %s is still stored (%v)", m.InteractionID, err)
		}
	}
	if got := now(opened); !strings.HasSuffix(got.Text(), "\n🚫 Called off: <@"+dave.ID+">, who opened it, is banned from gobot games on this server.") || !got.Buttons()[0].Disabled {
		t.Errorf("dave's rengo lobby after the ban = %q, want it called off", got.Text())
	}
	// Each withdrawal is logged, the lobby called off too, with the ban's reason.
	log := strings.Join(e.adminLog(), "\n")
	for _, l := range []string{
		"ann withdraw " + byDave.InteractionID + " | challenge by <@" + dave.ID + "> to <@" + carol.ID + "> in <#" + c1.ID + "> → withdrawn | harassing",
		"ann withdraw " + toDave.InteractionID + " | challenge by <@" + alice.ID + "> to <@" + dave.ID + "> in <#" + c2.ID + "> → withdrawn | harassing",
		"ann withdraw " + draughtsByDave.InteractionID + " | challenge by <@" + dave.ID + "> to <@" + alice.ID + "> in <#" + c3.ID + "> → withdrawn | harassing",
		"ann withdraw " + opened.InteractionID + " | rengo lobby opened by <@" + dave.ID + "> in <#" + c5.ID + "> → withdrawn | harassing",
		"ann withdraw " + joined.InteractionID + " | rengo lobby opened by <@" + alice.ID + "> in <#" + c4.ID + ">, with <@" + dave.ID + "> → without <@" + dave.ID + "> | harassing",
	} {
		if !strings.Contains(log, l) {
			t.Errorf("log =\n%s\nwant it to hold %s", log, l)
		}
	}
	if n := strings.Count(log, " withdraw "); n != 5 {
		t.Errorf("log =\n%s\nwant 5 withdrawals, not %d", log, n)
	}
	if m := e.do(e.adminCmd(c6, ann, "log", discordtest.UserOpt("user", dave))); !strings.Contains(m.Text(), "**withdraw** challenge `"+joined.InteractionID+"`: rengo lobby opened by <@"+alice.ID+"> in <#"+c4.ID+">, with <@"+dave.ID+"> → without <@"+dave.ID+"> — harassing") {
		t.Errorf("/go-admin log user:dave =\n%s\nwant the seat he was taken off", m.Text())
	}
	// alice's lobby stays open, without dave, and says why: she can fill
	// it and start.
	got := now(joined)
	if !strings.Contains(got.Text(), "⚫ **Black** (1/4): <@"+alice.ID+">\n⚪ **White** (1/4): <@"+bob.ID+">\n🚫 <@"+dave.ID+"> is banned from gobot games on this server and was taken off their team.\nTeams of 2 to 4") || got.Buttons()[0].Disabled {
		t.Errorf("alice's rengo lobby after the ban = %q, want it open without dave, saying why", got.Text())
	}
	if c, err := e.store.Challenge(context.Background(), joined.InteractionID); err != nil || len(c.Teams[0].Players) != 1 || len(c.Teams[1].Players) != 1 {
		t.Errorf("alice's lobby stored = %+v, %v; want alice on Black, bob on White, dave on neither", c, err)
	}
	erin := e.d.NewUser("erin")
	e.do(e.click(carol, got, "Join Black"))
	e.do(e.click(erin, now(joined), "Join White"))
	if m := e.do(e.click(alice, now(joined), "Start")); m.Ephemeral || !strings.Contains(m.Text(), "✅ Started: ⚫ <@"+alice.ID+">, <@"+carol.ID+"> against ⚪ <@"+bob.ID+">, <@"+erin.ID+">.") {
		t.Errorf("alice's Start after dave's ban = %q, want the game started", m.Text())
	}
	if got := now(others); got.Buttons()[0].Disabled || strings.Contains(got.Text(), "Withdrawn") {
		t.Errorf("carol's challenge to bob after dave's ban = %q, want it open", got.Text())
	}
	if _, err := e.store.Challenge(context.Background(), others.InteractionID); err != nil {
		t.Errorf("carol's challenge to bob is gone: %v", err)
	}
}

// TestE2EAdminAbortsAndPools: every abort is in the log (a player's
// early abort and a moderator's, with its reason), and /go-admin log
// shows them; annulling an aborted game is refused, saying it was
// aborted; with the server's ratings off a game counts in the global
// pool only, and with both off in none.
func TestE2EAdminAbortsAndPools(t *testing.T) { onBothStores(t, testE2EAdminAbortsAndPools) }

func testE2EAdminAbortsAndPools(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, mod, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")

	e.startGame(ch, alice, bob, 9)
	early := e.game(ch.ID).ID
	confirm := e.do(e.slash(ch, bob, "abort"))
	e.do(e.click(bob, confirm, "abort"))
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, opening9[:4])
	late := e.game(ch.ID).ID
	e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "left for a week")))
	at := e.clock.Now().Unix()
	page := e.do(e.adminCmd(ch, ann, "log"))
	want := "\nLog of this server: 2 entries (page 1 of 1)\n" +
		fmt.Sprintf("<t:%d:f> <@%s> **abort** game `%s`: in play after 4 moves → Void (aborted by a moderator) — left for a week\n", at, mod.ID, late) +
		fmt.Sprintf("<t:%d:f> <@%s> **abort** game `%s`: in play after 0 moves → Void (aborted by a player)", at, bob.ID, early)
	if page.Text() != want || len(page.Buttons()) != 0 {
		t.Errorf("/go-admin log =\n%s\nwant\n%s", page.Text(), want)
	}
	if a := e.archived(ch.ID, late); a.Result != "Void" || !a.Annulled {
		t.Errorf("the moderator's abort kept %s annulled=%v", a.Result, a.Annulled)
	}
	// An aborted game counts nowhere: annulling it is refused, saying it
	// was aborted (as the history calls it), not that it was annulled.
	for _, id := range []string{early, late} {
		e.refused(e.adminCmd(ch, ann, "annul", discordtest.Str("game", id), discordtest.Str("reason", "farmed")),
			"The game `"+id+"` (⚫ alice vs ⚪ bob) was aborted: it is recorded as Void and counts in no statistics or ratings, so there is nothing to annul.")
	}

	// The server's pool off: rated globally only.
	e.do(e.set(ch, ann, "ratings", "off"))
	e.ratedGame(ch, alice, bob)
	if got := e.rating(storage.GuildPool(e.d.GuildID), alice.ID); got != "none" {
		t.Errorf("with the server's ratings off alice is rated %s here", got)
	}
	if got := e.rating(storage.GlobalPool, alice.ID); got == "none" {
		t.Errorf("with the server's ratings off the global rating did not count")
	}
	global := e.rating(storage.GlobalPool, alice.ID)
	// Both off: not rated at all.
	e.do(e.set(ch, ann, "global_ratings", "off"))
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, append(append([]string{}, opening9...), "B2", "H8"))
	if m := e.do(e.slash(ch, bob, "resign")); strings.Contains(m.Text(), "📈") || !strings.Contains(m.Text(), "\nNot rated: ratings are off on this server, as its admins chose.") {
		t.Errorf("with all ratings off the game's end = %q, want it not rated, saying why", m.Text())
	}
	if got := e.rating(storage.GlobalPool, alice.ID); got != global {
		t.Errorf("with all ratings off alice's global rating moved: %s -> %s", global, got)
	}
	if rep, err := e.store.RebuildRatings(context.Background()); err != nil || rep.Changed != 0 || rep.Missing != 0 || rep.Games != 1 {
		t.Errorf("RebuildRatings = %+v, %v; want the one game rated globally, nothing changed", rep, err)
	}
}

// countedGame is a game between alice and bob, without a clock, at its
// count after one stone (oneStoneToScoring), once its scoring board's
// message is recorded (just after its answer).
func (e *env) countedGame() (ch *discordtest.Channel, alice, bob discordtest.User, scoring discordtest.Message, g *storage.Game) {
	e.t.Helper()
	ch, alice, bob = e.guildGame(discordtest.Str("clock", "none"))
	scoring, g = e.oneStoneToScoring(ch, alice, bob)
	e.d.WaitFor("the scoring board recorded", func() bool { return commands.NewestBoard(e.game(ch.ID)) == scoring.ID })
	return ch, alice, bob, scoring, g
}

// TestE2EAdminGamesCounting: a game at its count is listed by the moves
// played, as an abort or adjudication of it counts them ("after 3
// moves"), not by a next move nobody will play.
func TestE2EAdminGamesCounting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, _, _ := e.admins()
	ch, alice, bob, scoring, g := e.countedGame()
	want := fmt.Sprintf("⚫ <@%s> vs ⚪ <@%s> · 9×9 · 3 moves played · counting · no clock · [board](https://discord.com/channels/%s/%s/%s) · `%s`",
		alice.ID, bob.ID, e.d.GuildID, ch.ID, scoring.ID, g.ID)
	if page := e.do(e.adminCmd(ch, ann, "games")); !strings.Contains(page.Text(), "\n"+want) {
		t.Errorf("/go-admin games =\n%s\nwant the line\n%s", page.Text(), want)
	}
}

// TestE2EAdminGamesPages: /go-admin games lists the open challenges
// first, then the games in play newest first, ten a page, with Previous /
// Next.
func TestE2EAdminGamesPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ctx := context.Background()
	for i := range 12 {
		eg, err := engine.NewGame(engine.Config{Size: 13})
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{ID: fmt.Sprint("game", i), ChannelID: fmt.Sprint("chan", i), GuildID: e.d.GuildID, Sides: storage.Sides(storage.Player{UserID: alice.ID, Name: "alice"}, storage.Player{UserID: bob.ID, Name: "bob"}),
			State: engine.Own(eg), CreatedAt: e.clock.Now().Add(time.Duration(i) * time.Minute)}
		if err := e.store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	open := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 19)))
	page := e.do(e.adminCmd(ch, ann, "games"))
	lines := strings.Split(page.Text(), "\n")
	wantFirst := fmt.Sprintf("📨 Challenge by <@%s> to <@%s> · 19×19 · in <#%s> · expires <t:%d:R> · `%s`", alice.ID, bob.ID, ch.ID, e.clock.Now().Add(24*time.Hour).Unix(), open.InteractionID)
	if len(lines) != 12 || lines[1] != "On this server: 12 games in play, 1 challenge open (page 1 of 2)" || lines[2] != wantFirst ||
		lines[3] != fmt.Sprintf("⚫ <@%s> vs ⚪ <@%s> · 13×13 · move 1 · ⚫ <@%s> to play · no clock · <#chan11> · `game11`", alice.ID, bob.ID, alice.ID) {
		t.Errorf("/go-admin games page 1 =\n%s", page.Text())
	}
	next := e.do(e.click(ann, page, "Next"))
	if l := strings.Split(next.Text(), "\n"); len(l) != 5 || l[1] != "On this server: 12 games in play, 1 challenge open (page 2 of 2)" || !strings.HasSuffix(l[4], "`game0`") {
		t.Errorf("/go-admin games page 2 =\n%s", next.Text())
	}
	// Another member cannot turn the admin's pages.
	member := e.d.NewUser("member")
	e.refused(e.d.Click(member, next, "admin/games/1"), adminOnly)
}

// TestE2EAdminGamesNewestBoard: /go-admin games links each game in play
// to its newest board, however it was sent: the answer to the last
// /go play (not the board that began the game), the answer to /go bot
// (the only board of a bot game), the answer to a draughts move. In
// gateway mode the answers go through the callback endpoint, which says
// which message they made.
func TestE2EAdminGamesNewestBoard(t *testing.T) { bothModes(t, testE2EAdminGamesNewestBoard) }

func testE2EAdminGamesNewestBoard(t *testing.T, e *env) {
	ch, bots, dames := e.d.GuildChannel("general"), e.d.GuildChannel("bots"), e.d.GuildChannel("dames")
	ann, _, _ := e.admins()
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	e.startGame(ch, alice, bob, 9)
	goGame := e.game(ch.ID).ID
	third := e.playOut(ch, alice, bob, opening9[:3])
	botBoard := e.do(e.botGame(bots, carol, "tester"))
	botGame := e.game(bots.ID).ID
	msg := e.newChallenge(e.draughtsCmd(dames, dave, "challenge", discordtest.UserOpt("opponent", alice), discordtest.Str("color", "white")))
	e.do(e.click(alice, msg, "accept"))
	e.waitBoard(dames.ID, "**Move 1** · ⚪ white to play: "+dave.Mention())
	moved := e.do(e.draughtsMove(dames, dave, "32-28"))
	dameGame := e.game(dames.ID).ID

	games := []struct {
		what, id string
		ch       *discordtest.Channel
		board    discordtest.Message
	}{
		{"the Go game", goGame, ch, third},
		{"the bot game", botGame, bots, botBoard},
		{"the draughts game", dameGame, dames, moved},
	}
	for _, c := range games {
		if c.board.Ephemeral || c.board.ID == "" {
			t.Fatalf("%s: the newest board = %+v", c.what, c.board)
		}
		// A board's ID is kept just after it is shown.
		e.d.WaitFor(c.what+"'s newest board to be kept", func() bool { return commands.NewestBoard(e.game(c.ch.ID)) == c.board.ID })
	}
	page := e.do(e.adminCmd(ch, ann, "games"))
	for _, c := range games {
		want := fmt.Sprintf(" · [board](https://discord.com/channels/%s/%s/%s) · `%s`", e.d.GuildID, c.ch.ID, c.board.ID, c.id)
		found := false
		for _, l := range strings.Split(page.Text(), "\n") {
			found = found || strings.HasSuffix(l, want)
		}
		if !found {
			t.Errorf("/go-admin games =\n%s\nwant %s's line to end %q (its newest board)", page.Text(), c.what, want)
		}
	}
}

// TestE2EAdminBotLevelsOfOneGame: bot_levels naming only one game's
// levels is set with a warning that the other game has no bot left here;
// that game's bot commands then say the server offers no bot of it,
// whether a level was named or not, rather than refusing a default level
// the player never chose in favour of another game's levels. A level
// refused while others of its game are offered names those only; a game
// whose default level is not offered plays its weakest level that is.
func TestE2EAdminBotLevelsOfOneGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, c2, c3 := e.d.GuildChannel("general"), e.d.GuildChannel("second"), e.d.GuildChannel("third")
	ann, _, _ := e.admins()
	alice := e.d.NewUser("alice")

	e.said(e.set(ch, ann, "bot_levels", "easy medium"), "✅ **Bot levels allowed** (`bot_levels`): all → easy, medium.\n"+
		"⚠️ No Go level is among them, so no bot game of Go can start here.")
	noGoBot := "No Go bot is offered on this server: the bot levels its admins allow (easy, medium) are all another game's."
	e.refused(e.slash(ch, alice, "bot", discordtest.Int("size", 9)), noGoBot)
	e.refused(e.slash(ch, alice, "bot", discordtest.Str("level", "tester")), noGoBot)
	e.refused(e.slash(ch, alice, "vote", discordtest.Int("size", 9)), noGoBot)
	e.refused(e.slash(ch, alice, "rengo", discordtest.Str("bot", "tester")), noGoBot)
	if r := e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("bot", discordtest.Focused("level", "")))); len(r.Choices) != 0 {
		t.Errorf("/go bot level: suggests %+v with no Go level offered", r.Choices)
	}
	// Draughts' default (beginner) is not offered: its weakest offered is.
	if m := e.do(e.draughtsCmd(c2, alice, "bot")); m.Ephemeral || !strings.Contains(m.Text(), "against gobot **easy**") {
		t.Errorf("/draughts bot with easy and medium offered = %q, want a game against easy", m.Text())
	}

	e.said(e.set(ch, ann, "bot_levels", "tester easy"), "✅ **Bot levels allowed** (`bot_levels`): easy, medium → tester, easy.")
	e.refused(e.slash(c3, alice, "bot", discordtest.Str("level", "slow")), "The bot level \"slow\" is not offered on this server: its admins allow tester.")
	// /draughts bot level: suggests, as /go bot level: does, only the
	// levels offered here, not a fixed list of every level.
	for _, c := range []struct {
		cmd  string
		want string
	}{{"go", "tester"}, {"draughts", "easy"}} {
		r := e.d.Do(e.d.Autocomplete(c3, alice, c.cmd, discordtest.Sub("bot", discordtest.Focused("level", ""))))
		if len(r.Choices) != 1 || r.Choices[0].Value != c.want {
			t.Errorf("/%s bot level: suggests %+v, want %s alone", c.cmd, r.Choices, c.want)
		}
	}
	for _, o := range e.app.Definitions()[1].Options {
		if o.Name != "bot" {
			continue
		}
		for _, l := range o.Options {
			if l.Name == "level" && (len(l.Choices) != 0 || !l.Autocomplete) {
				t.Errorf("/draughts bot level: has %d fixed choices (autocomplete %v), want suggestions only", len(l.Choices), l.Autocomplete)
			}
		}
	}
	e.said(e.set(ch, ann, "bot_levels", "tester"), "✅ **Bot levels allowed** (`bot_levels`): tester, easy → tester.\n"+
		"⚠️ No international draughts level is among them, so no bot game of international draughts can start here.")
	e.refused(e.draughtsCmd(c3, alice, "bot", discordtest.Str("level", "easy")),
		"No international draughts bot is offered on this server: the bot levels its admins allow (tester) are all another game's.")
}

// draughtsBotLine is the line of u's /draughts help in ch that says at
// which levels /draughts bot plays; the help must fit in a message.
func (e *env) draughtsBotLine(ch *discordtest.Channel, u discordtest.User) string {
	e.t.Helper()
	help := e.do(e.draughtsCmd(ch, u, "help")).Text()
	if n := utf8.RuneCountInString(help); n > 2000 {
		e.t.Errorf("/draughts help has %d characters, Discord allows 2000", n)
	}
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(l, "`/draughts bot level:`") {
			return l
		}
	}
	e.t.Fatalf("/draughts help has no line for /draughts bot:\n%s", help)
	return ""
}

// TestE2EAdminHelpLevels: /go help and /draughts help list the bot levels
// this server's admins offer (all of them where they chose none), and say
// so when they offer none of a game's.
func TestE2EAdminHelpLevels(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	carol := e.d.NewUser("carol")
	goLevels := func() string {
		t.Helper()
		help := e.do(e.slash(ch, carol, "help")).Text()
		_, after, ok := strings.Cut(help, "\nBot levels")
		before, _, _ := strings.Cut(after, "\nRulesets: ")
		if !ok {
			t.Fatalf("/go help has no bot levels:\n%s", help)
		}
		return "Bot levels" + before
	}
	draughtsLevels := func() string { return e.draughtsBotLine(ch, carol) }
	names := strings.Split(draughtsLevelNames(), ", ")
	all := "Bot levels: • **tester**: plays the first free point from the top left\n• **slow**: the same, when the test lets it\n• **flaky**: fails once, then plays\n• **panic**: panics\n• **scripted**: plays the test's script\n"
	if got := goLevels(); got != all {
		t.Errorf("/go help's levels =\n%s\nwant\n%s", got, all)
	}
	if got, want := draughtsLevels(), "`/draughts bot level:` play gobot at once, from `"+names[0]+"` to `"+names[len(names)-1]+"` (`color:`, default white; `clock:`, `rated:`)."; got != want {
		t.Errorf("/draughts help: %q, want %q", got, want)
	}
	e.do(e.set(ch, ann, "bot_levels", "slow novice learner"))
	if got, want := goLevels(), "Bot levels offered here: • **slow**: the same, when the test lets it\n"; got != want {
		t.Errorf("/go help's levels with slow offered =\n%s\nwant\n%s", got, want)
	}
	if got, want := draughtsLevels(), "`/draughts bot level:` play gobot at once, at the levels this server offers: `novice`, `learner` (`color:`, default white; `clock:`, `rated:`)."; got != want {
		t.Errorf("/draughts help: %q, want %q", got, want)
	}
	e.do(e.set(ch, ann, "bot_levels", "novice"))
	if got, want := goLevels(), "Bot levels offered here: None: this server's admins offer no Go bot level, so `/go bot`, `/go vote` and rengo's `bot:` are not available here."; got != want {
		t.Errorf("/go help's levels with none of Go's offered =\n%s\nwant\n%s", got, want)
	}
	e.do(e.set(ch, ann, "bot_levels", "tester"))
	if got, want := draughtsLevels(), "`/draughts bot level:` play gobot at once, but this server's admins offer none of its levels (`color:`, default white; `clock:`, `rated:`)."; got != want {
		t.Errorf("/draughts help: %q, want %q", got, want)
	}
}

// BenchmarkE2EAdminGames measures /go-admin games end to end (a signed
// POST, the store's reads, the answer and the fake Discord's checks) on a
// server with 10,000 games in play.
func BenchmarkE2EAdminGames(b *testing.B) {
	e := newEnv(b)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	eg, err := engine.NewGame(engine.Config{Size: 19})
	if err != nil {
		b.Fatal(err)
	}
	for _, mv := range []string{"D4", "Q16", "D16", "Q4", "C10", "R10", "K3", "K17", "F3", "O17"} {
		p, _ := engine.ParsePoint(mv, 19)
		if err := eg.Play(engine.PlaceAt(eg.ToPlay(), p)); err != nil {
			b.Fatal(err)
		}
	}
	const n = 10_000
	var wg sync.WaitGroup
	next := make(chan int)
	for range 32 {
		wg.Go(func() {
			for i := range next {
				g := &storage.Game{ID: fmt.Sprint("g", i), ChannelID: fmt.Sprint("c", i), GuildID: e.d.GuildID,
					Sides: storage.Sides(storage.Player{UserID: fmt.Sprint(i%700 + 1), Name: "p"}, storage.Player{UserID: fmt.Sprint(700 + i%300 + 1), Name: "q"}),
					State: engine.Own(eg.Clone()), CreatedAt: e.clock.Now().Add(time.Duration(i) * time.Second)}
				if err := e.store.CreateGame(context.Background(), g); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	b.ResetTimer()
	for b.Loop() {
		if m := e.do(e.adminCmd(ch, ann, "games")); !strings.Contains(m.Text(), "10000 games in play") {
			b.Fatalf("/go-admin games = %q", m.Text())
		}
	}
}

// draughtsLevelNames lists the built-in draughts levels as /go-admin names
// them.
func draughtsLevelNames() string {
	var names []string
	for _, l := range dbots.Builtin() {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

// TestE2EAdminOwnGames: nobody rules on a game they play in. An admin who
// plays a game in play (alone or in a team) cannot adjudicate it, nor annul
// a finished game they played; a moderator who plays aborts as a player:
// asked to confirm in the first moves, then refused with the players'
// words, in Go as in draughts. Each refusal is private, changes nothing
// and is not logged; another admin may decide.
func TestE2EAdminOwnGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, rengo, mods, dames := e.d.GuildChannel("general"), e.d.GuildChannel("rengo"), e.d.GuildChannel("mods"), e.d.GuildChannel("dames")
	ann, _, _ := e.admins()
	alice, bob, cid, dan := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	bob.Permissions = discordtest.PermServerAdmin
	dan.Permissions = discordtest.PermServerAdmin
	carol := e.d.NewUser("carol")
	carol.Permissions = discordtest.PermModerator

	// bob plays White: he may not award it to himself, nor annul it.
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, opening9[:4])
	g := e.game(ch.ID)
	for _, result := range []string{"white", "black", "annul"} {
		e.refused(e.adminCmd(ch, bob, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", result), discordtest.Str("reason", "she left")),
			"You play in the game `"+g.ID+"` (⚫ alice vs ⚪ bob), so you cannot decide it: another admin of this server must.")
	}
	// Nor abort it as a moderator past the first moves.
	e.refused(e.slash(ch, bob, "abort", discordtest.Str("reason", "she left")), tooLateToAbort+" You play in this game, so that must be another moderator, not you.")
	if got := e.game(ch.ID); got == nil || got.Version != g.Version {
		t.Fatalf("a refused ruling by a player changed the game")
	}

	// In a team game, any member of either team.
	lobby := e.rengoLobby(rengo, ann, bob, cid, dan, discordtest.Bool("thread", false))
	e.do(e.click(ann, lobby, "Start"))
	e.waitBoard(rengo.ID, "")
	team := e.game(rengo.ID)
	e.refused(e.adminCmd(rengo, dan, "adjudicate", discordtest.Str("game", team.ID), discordtest.Str("result", "white"), discordtest.Str("reason", "Black stopped")),
		"You play in the game `"+team.ID+"` (⚫ ann, cid vs ⚪ bob, dan), so you cannot decide it: another admin of this server must.")

	// carol, a moderator, aborts her own game as a player: asked first
	// while it is early, refused after two moves each, reason or not.
	e.startGame(mods, carol, alice, 9)
	if m := e.do(e.slash(mods, carol, "abort", discordtest.Str("reason", "bored"))); !m.Ephemeral || !strings.HasPrefix(m.Text(), "Abort the game ⚫ carol vs ⚪ alice? ") || e.game(mods.ID) == nil {
		t.Errorf("a moderator's early abort of her own game = %q, want the players' question", m.Text())
	}
	e.playOut(mods, carol, alice, opening9[:4])
	e.refused(e.slash(mods, carol, "abort", discordtest.Str("reason", "bored")), tooLateToAbort+" You play in this game, so that must be another moderator, not you.")
	// The same in draughts.
	msg := e.newChallenge(e.draughtsCmd(dames, carol, "challenge", discordtest.UserOpt("opponent", alice), discordtest.Str("color", "white")))
	e.do(e.click(alice, msg, "accept"))
	e.waitBoard(dames.ID, "⚪ white to play")
	for _, m := range []struct {
		u  discordtest.User
		mv string
	}{{carol, "32-28"}, {alice, "19-23"}, {carol, "28x19"}, {alice, "14x23"}} {
		e.do(e.draughtsMove(dames, m.u, m.mv))
	}
	e.refused(e.draughtsCmd(dames, carol, "abort", discordtest.Str("reason", "bored")),
		"Each player has made two moves, so the game can no longer be aborted: resign (`/draughts resign`) or play on; on a server, a moderator can still end a stuck game. You play in this game, so that must be another moderator, not you.")

	// A finished game bob played: he may not annul it.
	rated := e.d.GuildChannel("rated")
	done := e.ratedGame(rated, alice, bob)
	e.refused(e.adminCmd(ch, bob, "annul", discordtest.Str("game", done), discordtest.Str("reason", "farmed")),
		"You played in the game `"+done+"` (⚫ alice vs ⚪ bob, B+R), so you cannot annul it: another admin of this server must.")
	if a := e.archived(rated.ID, done); a.Annulled || !a.Rated {
		t.Errorf("a refused annul changed the record: annulled=%v rated=%v", a.Annulled, a.Rated)
	}
	if log := e.adminLog(); len(log) != 0 {
		t.Errorf("refused rulings were logged: %q", log)
	}

	// Another admin may.
	e.said(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "black"), discordtest.Str("reason", "bob left")),
		"Done: the game `"+g.ID+"` (⚫ alice vs ⚪ bob) is recorded as B+F, and its channel was told.")
}

// TestE2EAdminLogPages: a page of /go-admin log holds whole entries, as
// many as fit in an embed, so that with long entries (25 game channels
// before and after) every entry is on some page and the count of entries
// and pages is true; a reason is shown whole, and a long value is cut
// between channels, saying how many more; user: keeps the entries by or
// about someone, their games included, with pages of their own. Both
// stores.
func TestE2EAdminLogPages(t *testing.T) { onBothStores(t, testE2EAdminLogPages) }

func testE2EAdminLogPages(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	var sets [2][]string // two sets of 25 channels, as the setting shows them
	for i := range 50 {
		sets[i%2] = append(sets[i%2], "<#"+e.d.GuildChannel(fmt.Sprint("games-", i)).ID+">")
	}
	// shown is a set as the log shows it: the channels that fit in 200
	// characters with the count of the others.
	shown := func(set []string) string { return strings.Join(set[:7], ", ") + " and 18 more" }
	var want []string // the log's lines, oldest first
	at := e.clock.Now().Unix()
	for i := range 12 {
		set := sets[i%2]
		if m := e.do(e.set(ch, ann, "channels", strings.Join(set, " "))); !strings.HasPrefix(m.Text(), "✅") {
			t.Fatalf("set channels: %q", m.Text())
		}
		before := "anywhere"
		if i > 0 {
			before = shown(sets[(i+1)%2])
		}
		want = append(want, fmt.Sprintf("<t:%d:f> <@%s> **settings** `channels`: %s → %s", at, ann.ID, before, shown(set)))
	}
	e.do(e.set(ch, ann, "channels", "<#"+ch.ID+">"))
	want = append(want, fmt.Sprintf("<t:%d:f> <@%s> **settings** `channels`: %s → <#%s>", at, ann.ID, shown(sets[1]), ch.ID))
	// bob's game, decided by ann; bob banned with a reason of 300
	// characters, all shown.
	e.startGame(ch, alice, bob, 9)
	g := e.game(ch.ID)
	e.do(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "black"), discordtest.Str("reason", "bob left")))
	want = append(want, fmt.Sprintf("<t:%d:f> <@%s> **adjudicate** game `%s`: in play after 0 moves → B+F — bob left", at, ann.ID, g.ID))
	reason := strings.Repeat("spam ", 59) + "spam!"
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Str("reason", reason)))
	want = append(want, fmt.Sprintf("<t:%d:f> <@%s> **ban** <@%s>: not banned → banned until an admin lifts it — %s", at, ann.ID, bob.ID, reason))
	slices.Reverse(want)

	// pagesOf reads every page of the log from page 1 on, by Next, and
	// returns its lines; each page's title says its number and the total.
	pagesOf := func(first discordtest.Message, head string, entries, pages int) []string {
		t.Helper()
		var lines []string
		m := first
		for p := 1; ; p++ {
			l := strings.Split(m.Text(), "\n")
			if !m.Ephemeral || l[0] != head || l[1] != fmt.Sprintf("Log of this server: %d entries (page %d of %d)", entries, p, pages) {
				t.Fatalf("page %d of the log =\n%s", p, m.Text())
			}
			if desc := strings.Join(l[2:], "\n"); len([]rune(desc)) > 4096 {
				t.Errorf("page %d holds %d characters, more than an embed's 4096", p, len([]rune(desc)))
			}
			lines = append(lines, l[2:]...)
			if p == pages {
				if b, ok := m.Button("Next"); pages > 1 && (!ok || !b.Disabled) {
					t.Errorf("the last page's Next button: %+v", m.Buttons())
				}
				return lines
			}
			m = e.do(e.click(ann, m, "Next"))
		}
	}
	got := pagesOf(e.do(e.adminCmd(ch, ann, "log")), "", 15, 2)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the log's pages =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// (Asked in another channel: the decided game's channel may still be
	// getting its posts.)
	e.refused(e.adminCmd(e.d.GuildChannel("quiet"), ann, "log", discordtest.Int("page", 3)), "There are only 2 pages.")

	// user: bob's ban and the game he played; carol has none; ann's
	// are all the log, on pages of their own.
	about := func(u discordtest.User) string {
		return "The entries by or about <@" + u.ID + ">: what they did, their bans and their games."
	}
	if got := pagesOf(e.do(e.adminCmd(ch, ann, "log", discordtest.UserOpt("user", bob))), about(bob), 2, 1); strings.Join(got, "\n") != strings.Join(want[:2], "\n") {
		t.Errorf("the log about bob =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want[:2], "\n"))
	}
	e.said(e.adminCmd(ch, ann, "log", discordtest.UserOpt("user", carol)), "The log of this server has no entry by or about <@"+carol.ID+">.")
	if got := pagesOf(e.do(e.adminCmd(ch, ann, "log", discordtest.UserOpt("user", ann))), about(ann), 15, 2); len(got) != 15 {
		t.Errorf("the log by ann has %d lines, want 15", len(got))
	}
}

// TestE2EAdminChannelsLater: a challenge or rengo lobby opened in a
// channel before the admins kept games to other channels cannot start
// its game there: Accept (Go and draughts) and Start are refused with the
// words of the challenge's command (/go, /draughts), and nothing starts; in a game channel
// they still are accepted.
func TestE2EAdminChannelsLater(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	general, games := e.d.GuildChannel("general"), e.d.GuildChannel("go-games")
	ann, _, _ := e.admins()
	alice, bob, cid, dan := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("cid"), e.d.NewUser("dan")
	challenge := e.newChallenge(e.slash(general, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	dames := e.newChallenge(e.draughtsCmd(general, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Bool("thread", true)))
	lobby := e.rengoLobby(general, ann, bob, cid, dan, discordtest.Bool("thread", false))
	inGames := e.newChallenge(e.slash(games, cid, "challenge", discordtest.UserOpt("opponent", dan), discordtest.Int("size", 9)))

	e.said(e.set(general, ann, "channels", "<#"+games.ID+">"), "✅ **Game channels** (`channels`): anywhere → <#"+games.ID+">.")
	only := "Games start only in <#" + games.ID + "> on this server, as its admins chose (threads there count too). `/go stats`, `/go help`, `/go history` and `/go review` work everywhere."
	e.refused(e.click(ann, lobby, "Start"), only)
	e.said(e.click(bob, dames, "accept"), "Games start only in <#"+games.ID+"> on this server, as its admins chose (threads there count too). `/draughts stats`, `/draughts help` and `/draughts history` work everywhere.")
	e.refused(e.click(bob, challenge, "accept"), only)
	if e.game(general.ID) != nil || len(e.d.Threads(general.ID)) != 0 {
		t.Errorf("a game started outside the game channels")
	}
	if m := e.do(e.click(dan, inGames, "accept")); m.Ephemeral {
		t.Errorf("Accept in the game channel was refused: %q", m.Text())
	}
	e.d.WaitFor("the game in the game channel", func() bool { return e.game(games.ID) != nil })
}

// TestE2EAdminSettingsForms: a size is 9, 13 or 19, written alone or as
// the square NxN (N×N); a board that is not square, or any other form, is
// refused and changes nothing; komi -0 is 0; of the 25 game channels at
// most, a channel named twice counts once.
func TestE2EAdminSettingsForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	before := e.settingsNow()
	for _, v := range []string{"9x13", "13×9", "9x", "x9", "9xx9", "9x9x9", "19x19x", "9 by 9", "0x0"} {
		e.refused(e.set(ch, ann, "size", v), "The board size must be 9, 13 or 19, not \""+v+"\".")
	}
	if after := e.settingsNow(); after != before {
		t.Errorf("refused sizes changed the settings: %s -> %s", before, after)
	}
	e.said(e.set(ch, ann, "size", "13x13"), "✅ **Default size** (`size`): gobot's default (19×19) → 13×13.")
	e.said(e.set(ch, ann, "size", "9 × 9"), "✅ **Default size** (`size`): 13×13 → 9×9.")
	e.said(e.set(ch, ann, "size", "19X19"), "✅ **Default size** (`size`): 9×9 → 19×19.")
	e.said(e.set(ch, ann, "komi", "-0"), "✅ **Default komi** (`komi`): the ruleset's → 0.")
	e.said(e.set(ch, ann, "komi", "0"), "**Default komi** (`komi`) is 0 already; nothing was changed.")
	if got := e.settingsNow(); !strings.Contains(got, `"komi":0,`) {
		t.Errorf("settings stored = %s, want komi 0", got)
	}
	// At most 25 game channels, each counted once however often it is
	// named (as a mention or by its ID).
	var channels []string
	for i := range 26 {
		channels = append(channels, e.d.GuildChannel(fmt.Sprint("games-", i)).ID)
	}
	twice := "<#" + strings.Join(channels[:25], "> <#") + "> " + channels[0]
	if m := e.do(e.set(ch, ann, "channels", twice)); !strings.HasPrefix(m.Text(), "✅ **Game channels** (`channels`): anywhere → <#"+channels[0]+">, ") ||
		strings.Count(m.Text(), "<#") != 25 {
		t.Errorf("25 channels, one named twice: %q, want them set, each once", m.Text())
	}
	e.refused(e.set(ch, ann, "channels", strings.Join(channels, " ")), "At most 25 game channels, not 26.")
}

// TestE2EAdminKomiRated: a komi (or a size, or a ruleset) with which a
// rated game on the server's default board would give more head start
// than a rated game may is refused, with why and what to do; one that
// only other sizes refuse is set with a warning naming them, and those
// challenges are refused as it says unless rated:false.
func TestE2EAdminKomiRated(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	warn9 := "⚠️ With komi 40 and chinese rules, rated games on 9×9 give more than the 9.5 ranks of head start a rated game may: " +
		"challenges and bot games there are refused unless they say `rated:false` or their own `komi:`."
	e.said(e.set(ch, ann, "komi", "40"), "✅ **Default komi** (`komi`): the ruleset's → 40.\n"+warn9)
	e.refused(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)), "A rated game may give at most 9.5 ranks of head start; no handicap stones on 9×9 at komi 40 are 15.0 ranks for White. "+
		"Rated games take up to 2 handicap stones on 9×9, 3 on 13×13 and 9 on 19×19 at komi 0.5; play this one with `rated:false`, or with a komi nearer the ruleset's (`komi:` overrides the server's default).")
	if m := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))); m.Ephemeral {
		t.Errorf("a default challenge after komi 40 was refused: %q", m.Text())
	}

	before := e.settingsNow()
	e.refused(e.set(ch, ann, "size", "9"), "With komi 40 and chinese rules, a rated game on 9×9, this server's default board, gives 15.0 ranks of head start, more than the 9.5 a rated game may: "+
		"every `/go challenge` and `/go bot` here would be refused unless it said `rated:false` or its own `komi:`. Choose a komi nearer the ruleset's (7.5), or reset `komi`.")
	e.said(e.set(ch, ann, "komi", "160"), "Komi must be from -150 to 150 in steps of 0.5, not \"160\".")
	e.refused(e.set(ch, ann, "komi", "150"), "With komi 150 and chinese rules, a rated game on 19×19, this server's default board, gives 11.0 ranks of head start, more than the 9.5 a rated game may: ")
	if after := e.settingsNow(); after != before {
		t.Errorf("refused settings changed them: %s -> %s", before, after)
	}
	e.said(e.set(ch, ann, "komi", "60"), "✅ **Default komi** (`komi`): 40 → 60.\n⚠️ With komi 60 and chinese rules, rated games on 9×9 and 13×13 give more than the 9.5 ranks of head start a rated game may: "+
		"challenges and bot games there are refused unless they say `rated:false` or their own `komi:`.")
	e.said(e.setting(ch, ann, "reset", discordtest.Str("setting", "komi")), "↩️ **Default komi** (`komi`) reset: 60 → the ruleset's.")
	e.said(e.set(ch, ann, "size", "9"), "✅ **Default size** (`size`): gobot's default (19×19) → 9×9.")
	e.said(e.set(ch, ann, "komi", "7"), "✅ **Default komi** (`komi`): the ruleset's → 7.")
}

// TestE2EAdminBans: /go-admin bans lists, privately and to admins only,
// who is banned on this server now, newest first: until when (or no
// end), by whom and when, and why; a lifted ban, one that lapsed and
// another server's are not listed; a long list has pages.
func TestE2EAdminBans(t *testing.T) { onBothStores(t, testE2EAdminBans) }

func testE2EAdminBans(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	ann, mod, member := e.admins()
	bob, carol, dave := e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	// Otto administers another server, where he bans dave.
	other := e.d.OtherGuildChannel("999000000000000001", "elsewhere")
	otto := e.d.NewUser("otto")
	ottoThere := otto
	ottoThere.Permissions = discordtest.PermServerAdmin
	const nobody = "Nobody is banned on this server now. `/go-admin log` keeps the bans of the past, lifted or lapsed."

	e.said(e.adminCmd(ch, ann, "bans"), nobody)
	t0 := e.clock.Now()
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", bob), discordtest.Int("days", 2), discordtest.Str("reason", "harassing with challenges")))
	e.clock.Advance(time.Minute)
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", dave), discordtest.Str("reason", "cheating")))
	e.clock.Advance(time.Minute)
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "rude")))
	e.do(e.adminCmd(ch, ann, "unban", discordtest.UserOpt("user", carol)))
	e.do(e.adminCmd(other, ottoThere, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "spam elsewhere")))

	bobLine := fmt.Sprintf("<@%s> · until <t:%d:f> (<t:%d:R>) · banned by <@%s> <t:%d:f> — harassing with challenges",
		bob.ID, t0.Add(48*time.Hour).Unix(), t0.Add(48*time.Hour).Unix(), ann.ID, t0.Unix())
	daveLine := fmt.Sprintf("<@%s> · no end (until an admin lifts it) · banned by <@%s> <t:%d:f> — cheating", dave.ID, ann.ID, t0.Add(time.Minute).Unix())
	e.said(e.adminCmd(ch, ann, "bans"), "\nBanned on this server now: 2 users (page 1 of 1)\n"+daveLine+"\n"+bobLine)
	// Refused to anyone but an admin of this server, changing nothing.
	for _, u := range []discordtest.User{member, mod, bob, otto} {
		e.refused(e.adminCmd(ch, u, "bans"), adminOnly)
	}
	e.refused(e.adminCmd(e.d.DM(ann), ann, "bans"), adminOnlyInServer)
	// The other server's list is its own.
	e.said(e.adminCmd(other, ottoThere, "bans"), fmt.Sprintf("\nBanned on this server now: 1 user (page 1 of 1)\n<@%s> · no end (until an admin lifts it) · banned by <@%s> <t:%d:f> — spam elsewhere",
		carol.ID, otto.ID, t0.Add(2*time.Minute).Unix()))

	// Two days later bob's ban has lapsed: only dave's is listed.
	e.clock.Advance(48 * time.Hour)
	e.said(e.adminCmd(ch, ann, "bans"), "\nBanned on this server now: 1 user (page 1 of 1)\n"+daveLine)

	// Eleven more bans: two pages of ten and two, newest first, with
	// Previous and Next.
	var want []string
	for i := range 11 {
		u := e.d.NewUser(fmt.Sprint("spammer", i))
		e.clock.Advance(time.Minute)
		e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", u), discordtest.Str("reason", fmt.Sprint("spam ", i))))
		want = append(want, fmt.Sprintf("<@%s> · no end (until an admin lifts it) · banned by <@%s> <t:%d:f> — spam %d", u.ID, ann.ID, e.clock.Now().Unix(), i))
	}
	slices.Reverse(want)
	want = append(want, daveLine)
	first := e.said(e.adminCmd(ch, ann, "bans"), "\nBanned on this server now: 12 users (page 1 of 2)\n"+strings.Join(want[:10], "\n"))
	if b, ok := first.Button("Previous"); !ok || !b.Disabled {
		t.Errorf("the first page's Previous button: %+v", first.Buttons())
	}
	second := e.do(e.click(ann, first, "Next"))
	if text := "\nBanned on this server now: 12 users (page 2 of 2)\n" + strings.Join(want[10:], "\n"); !second.Ephemeral || second.Text() != text {
		t.Errorf("the second page =\n%s\nwant\n%s", second.Text(), text)
	}
	if b, ok := second.Button("Next"); !ok || !b.Disabled {
		t.Errorf("the last page's Next button: %+v", second.Buttons())
	}
	e.refused(e.adminCmd(ch, ann, "bans", discordtest.Int("page", 3)), "There are only 2 pages.")
}

// TestE2EBanReplacesBan: banning someone already banned replaces the ban
// (an admin may shorten one on purpose), and the answer says what it
// replaced: until when, by whom, when and why. A lapsed or lifted ban is
// not in force, so a ban after it is a new one.
func TestE2EBanReplacesBan(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	bea, carol := e.d.NewUser("bea"), e.d.NewUser("carol")
	bea.Permissions = discordtest.PermServerAdmin
	t0 := e.clock.Now()
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "once")))
	e.clock.Advance(time.Hour)
	until := e.clock.Now().Add(72 * time.Hour).Unix()
	e.said(e.adminCmd(ch, bea, "ban", discordtest.UserOpt("user", carol), discordtest.Int("days", 3), discordtest.Str("reason", "twice")),
		fmt.Sprintf("🚫 <@%s> was already banned from gobot on this server until an admin lifts it (by <@%s> <t:%d:f> — once); the ban is now until <t:%d:f>: "+
			"they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: twice\nThey have no game in play here.", carol.ID, ann.ID, t0.Unix(), until))
	e.said(e.adminCmd(ch, ann, "bans"), fmt.Sprintf("\nBanned on this server now: 1 user (page 1 of 1)\n<@%s> · until <t:%d:f> (<t:%d:R>) · banned by <@%s> <t:%d:f> — twice",
		carol.ID, until, until, bea.ID, e.clock.Now().Unix()))
	// Once it has lapsed, a ban is a new one.
	e.clock.Advance(73 * time.Hour)
	e.said(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", carol), discordtest.Str("reason", "thrice")),
		"🚫 <@"+carol.ID+"> is banned from gobot on this server until an admin lifts it: they cannot challenge, be challenged, start bot games or vote here, and this server's leaderboards leave them off. Reason: thrice\nThey have no game in play here.")
}

// TestE2EAdminWithdrawsChallenges: /go-admin adjudicate result:annul with
// the ID of a challenge, an open challenge or a rengo lobby that /go-admin
// games lists withdraws it: it is gone, its message is closed saying by
// whom and why, and the log has it with the reason. A winner for a
// challenge is refused, saying what withdraws it; another server's admin
// cannot reach it.
func TestE2EAdminWithdrawsChallenges(t *testing.T) { onBothStores(t, testE2EAdminWithdrawsChallenges) }

func testE2EAdminWithdrawsChallenges(t *testing.T, e *env) {
	ann, _, _ := e.admins()
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	c1, c2, c3 := e.d.GuildChannel("c1"), e.d.GuildChannel("c2"), e.d.GuildChannel("c3")
	open := e.newChallenge(e.slash(c1, bob, "challenge", discordtest.Int("size", 9)))
	direct := e.newChallenge(e.slash(c2, bob, "challenge", discordtest.UserOpt("opponent", alice)))
	lobby := e.do(e.slash(c3, bob, "rengo", discordtest.Int("size", 9)))
	if open.Ephemeral || direct.Ephemeral || lobby.Ephemeral {
		t.Fatalf("a challenge or lobby was refused: %q, %q, %q", open.Text(), direct.Text(), lobby.Text())
	}
	adjudicate := func(id, result string) *discordtest.Interaction {
		return e.adminCmd(c1, ann, "adjudicate", discordtest.Str("game", id), discordtest.Str("result", result), discordtest.Str("reason", "spam"))
	}
	e.refused(adjudicate(open.InteractionID, "white"),
		"`"+open.InteractionID+"` is an open challenge by <@"+bob.ID+">, not a game in play: `result:annul` withdraws it.")
	other := e.d.OtherGuildChannel("999000000000000001", "elsewhere")
	otto := e.d.NewUser("otto")
	otto.Permissions = discordtest.PermServerAdmin
	e.refused(e.adminCmd(other, otto, "adjudicate", discordtest.Str("game", open.InteractionID), discordtest.Str("result", "annul"), discordtest.Str("reason", "x")),
		"There is no game \""+open.InteractionID+"\" on this server: `/go-admin games` lists the games in play, `/go history` the finished ones.")

	e.said(adjudicate(open.InteractionID, "annul"),
		"🚫 Withdrawn: the open challenge `"+open.InteractionID+"` by <@"+bob.ID+"> in <#"+c1.ID+">; its message says so. Reason: spam")
	e.said(adjudicate(direct.InteractionID, "annul"),
		"🚫 Withdrawn: the challenge `"+direct.InteractionID+"` by <@"+bob.ID+"> to <@"+alice.ID+"> in <#"+c2.ID+">; its message says so. Reason: spam")
	e.said(adjudicate(lobby.InteractionID, "annul"),
		"🚫 Called off: the rengo lobby `"+lobby.InteractionID+"` opened by <@"+bob.ID+"> in <#"+c3.ID+">; its message says so. Reason: spam")
	for _, m := range []discordtest.Message{open, direct, lobby} {
		got, ok := e.d.Message(m.ID)
		done := "Withdrawn"
		if m.ID == lobby.ID {
			done = "Called off"
		}
		if want := "\n🚫 " + done + " by <@" + ann.ID + ">, an admin of this server. Reason: spam"; !ok || !strings.HasSuffix(got.Text(), want) || !got.Buttons()[0].Disabled {
			t.Errorf("message %s after the withdrawal = %q, want it closed with %q", m.ID, got.Text(), want)
		}
		if _, err := e.store.Challenge(context.Background(), m.InteractionID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the withdrawn challenge %s is still stored (%v)", m.InteractionID, err)
		}
	}
	e.refused(e.d.Click(carol, open, mustButton(t, open, "accept").CustomID), "no longer open")
	e.refused(adjudicate(open.InteractionID, "annul"),
		"There is no game \""+open.InteractionID+"\" on this server: `/go-admin games` lists the games in play, `/go history` the finished ones.")
	want := []string{
		"ann withdraw " + open.InteractionID + " | open challenge by <@" + bob.ID + "> in <#" + c1.ID + "> → withdrawn | spam",
		"ann withdraw " + direct.InteractionID + " | challenge by <@" + bob.ID + "> to <@" + alice.ID + "> in <#" + c2.ID + "> → withdrawn | spam",
		"ann withdraw " + lobby.InteractionID + " | rengo lobby opened by <@" + bob.ID + "> in <#" + c3.ID + "> → withdrawn | spam",
	}
	if got := e.adminLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if page := e.do(e.adminCmd(c1, ann, "log")); !strings.Contains(page.Text(), "<@"+ann.ID+"> **withdraw** challenge `"+open.InteractionID+"`: open challenge by <@"+bob.ID+"> in <#"+c1.ID+"> → withdrawn — spam") {
		t.Errorf("/go-admin log = %q, want the withdrawal", page.Text())
	}
	// The log of a player has the withdrawals of their challenges, as
	// challenger or opponent, and no other.
	for _, c := range []struct {
		who  discordtest.User
		want []string
	}{
		{bob, []string{open.InteractionID, direct.InteractionID, lobby.InteractionID}},
		{alice, []string{direct.InteractionID}},
	} {
		page := e.do(e.adminCmd(c1, ann, "log", discordtest.UserOpt("user", c.who))).Text()
		var got []string
		for _, id := range []string{open.InteractionID, direct.InteractionID, lobby.InteractionID} {
			if strings.Contains(page, "**withdraw** challenge `"+id+"`") {
				got = append(got, id)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("/go-admin log user:%s shows the withdrawals of %v, want %v:\n%s", c.who.Username, got, c.want, page)
		}
	}
}

// TestE2EModeratorEndsTheCount: a moderator's adjudication of a game at
// its count leaves its scoring board showing the count as it stopped,
// with neither the Accept it waited for, nor the deadline by which "the
// marking stands", nor buttons.
func TestE2EModeratorEndsTheCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, _, _ := e.admins()
	ch, _, _, scoring, g := e.countedGame()
	e.do(e.adminCmd(ch, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "white"), discordtest.Str("reason", "abandoned")))
	var got discordtest.Message
	e.d.WaitFor("the scoring board redrawn", func() bool {
		got, _ = e.d.Message(scoring.ID)
		return got.Edits > 0
	})
	want := "⚫ alice vs ⚪ bob\n**The count stopped: the game ended before the dead stones were agreed.** The marking as it stood:\n```\n" +
		"Black: 1 stone + 80 territory = 81\nWhite: 0 stones + 0 territory + 7.5 komi = 7.5\nResult: B+73.5\n```"
	if text := strings.TrimSpace(got.Text()); got.Content != "" || text != want || strings.Contains(text, "The marking stands") || strings.Contains(text, "waiting for") || len(got.Components) != 0 {
		t.Errorf("scoring board after the adjudication =\n%s\n(%d rows of buttons), want\n%s\nwithout the deadline, the Accept it waited for and its buttons", text, len(got.Components), want)
	}
}

// TestE2EAdminHelp: /go-admin help lists every /go-admin command with its
// options, the optional ones in brackets, privately; a member without
// Manage Server is refused it as the other commands.
func TestE2EAdminHelp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	ann, _, member := e.admins()
	m := e.do(e.adminCmd(ch, ann, "help"))
	if !m.Ephemeral {
		t.Error("/go-admin help is public")
	}
	want := "**`/go-admin`**: gobot for this server's admins (Manage Server, or the roles Discord's Integrations page gives it to). Each answer is shown to you alone; every change is written to `/go-admin log`, and where it concerns a game its channel is told.\n" +
		"\n• `/go-admin settings show`: Show this server's settings." +
		"\n• `/go-admin settings set setting: value:`: Change a setting." +
		"\n• `/go-admin settings reset setting:`: Put a setting back to gobot's default." +
		"\n• `/go-admin games [page:]`: Games in play and open challenges on this server." +
		"\n• `/go-admin adjudicate game: result: reason:`: Decide a game in play (award it to a side, or annul it), or withdraw a challenge." +
		"\n• `/go-admin annul game: reason:`: Take a finished game out of the statistics and ratings (its record stays)." +
		"\n• `/go-admin ban user: reason: [days:]`: Keep a user from playing on this server." +
		"\n• `/go-admin unban user: [reason:]`: Lift a user's ban on this server." +
		"\n• `/go-admin bans [page:]`: Who is banned on this server now: until when, by whom, why." +
		"\n• `/go-admin log [page:] [user:]`: What this server's admins and moderators did, newest first." +
		"\n\n`/go-admin settings show` also says what each setting takes."
	if m.Text() != want {
		t.Errorf("/go-admin help =\n%s\nwant\n%s", m.Text(), want)
	}
	if r := e.do(e.adminCmd(ch, member, "help")); r.Text() != adminOnly {
		t.Errorf("/go-admin help by a member = %q", r.Text())
	}
}

// TestE2EAdjudicateDeletedChannel: a game whose channel was deleted is
// adjudicated from another channel, and the admin learns why its channel
// was not told: it no longer exists (not "I may not post there").
func TestE2EAdjudicateDeletedChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, _, _ := e.admins()
	carol, dave := e.d.NewUser("carol"), e.d.NewUser("dave")
	gone, admins := e.d.GuildChannel("gone"), e.d.GuildChannel("admins")
	e.startGame(gone, carol, dave, 9)
	g := e.game(gone.ID)
	e.waitBoard(gone.ID, "to play")   // the Accept's answer is out
	e.clock.Advance(20 * time.Minute) // the game's interaction tokens expire
	// Discord answers a post to a deleted channel 404 (the fake, deleting
	// it, would take the post for the bot's mistake).
	e.d.Fail(http.MethodPost, "/channels/{channel_id}/messages", http.StatusNotFound, 1)
	e.said(e.adminCmd(admins, ann, "adjudicate", discordtest.Str("game", g.ID), discordtest.Str("result", "black"), discordtest.Str("reason", "channel deleted")),
		"Done: the game `"+g.ID+"` (⚫ carol vs ⚪ dave) is recorded as B+F, and its channel could not be told (it no longer exists).")
}
