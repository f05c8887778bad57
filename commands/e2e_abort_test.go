package commands_test

// End-to-end tests of a player's abort (issue 32, "Players"): either
// player, in a server as in DMs, until each has made two moves; it asks
// to confirm, and the game is recorded as aborted, never rated, with its
// record.

import (
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// tooLateToAbort is the refusal once each player has made two moves.
const tooLateToAbort = "Each player has made two moves, so the game can no longer be aborted: resign (`/go resign`) or play on; on a server, a moderator can still end a stuck game."

func TestE2EPlayerAbort(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator

	// At move 4 (Black has made two moves, White one), White aborts; it
	// asks first, and a spectator cannot.
	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, opening9[:3])
	id := e.game(ch.ID).ID
	e.refused(e.slash(ch, carol, "abort"), "You are not playing in this game: it is "+alice.Mention()+" (black) against "+bob.Mention()+" (white). A moderator (with the Manage Messages permission) can abort it, with a reason: `/go abort reason:…`.")
	confirm := e.do(e.slash(ch, bob, "abort"))
	if !confirm.Ephemeral || !strings.Contains(confirm.Text(), "It is recorded as aborted, with its record, and never rated") {
		t.Fatalf("/go abort by a player = %q, want a private question", confirm.Text())
	}
	if e.game(ch.ID) == nil {
		t.Fatalf("/go abort aborted without asking")
	}
	done := e.do(e.click(bob, confirm, "abort"))
	if want := "🚫 <@" + bob.ID + "> aborted the game ⚫ <@" + alice.ID + "> vs ⚪ <@" + bob.ID + "> after 3 moves, before each player had made 2 moves: it is recorded as aborted (`/go sgf game:" + id + "`) and never rated."; done.Ephemeral || !strings.Contains(done.Text(), want) {
		t.Errorf("abort confirmed = %q, want public %q", done.Text(), want)
	}
	// The other player is told: in a correspondence game nobody may be
	// watching.
	if !slices.Equal(done.Pings, []string{alice.ID}) {
		t.Errorf("bob's abort pings %v, want alice only", done.Pings)
	}
	if e.game(ch.ID) != nil {
		t.Fatalf("the game survived the abort")
	}
	a := e.archived(ch.ID, id)
	if a.Result != "Void" || !a.Annulled || a.Rated || a.Moves != 3 {
		t.Errorf("aborted game archived as %s annulled=%v rated=%v moves=%d, want Void, annulled, unrated, 3 moves", a.Result, a.Annulled, a.Rated, a.Moves)
	}
	sgf := e.do(e.slash(ch, alice, "sgf", discordtest.Str("game", id)))
	if f := attachment(t, sgf, ".sgf"); !strings.Contains(string(f.Data), "RE[Void]") || !strings.Contains(string(f.Data), "Aborted by bob before each player had made 2 moves") {
		t.Errorf("the aborted game's record: %s", f.Data)
	}
	if m := e.do(e.slash(ch, alice, "history")); !strings.Contains(m.Text(), "aborted vs <@"+bob.ID+"> · 9×9 · Void · not counted") {
		t.Errorf("/go history = %q, want the aborted game", m.Text())
	}
	for _, u := range []discordtest.User{alice, bob} {
		if got := e.rating(storage.GlobalPool, u.ID); got != "none" {
			t.Errorf("after an aborted game %s is rated %s", u.Username, got)
		}
	}

	// At move 5 (two moves each) a player may not abort any more; a
	// moderator still may.
	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, opening9[:4])
	e.refused(e.slash(ch, alice, "abort"), tooLateToAbort)
	e.refused(e.slash(ch, bob, "abort"), tooLateToAbort)
	// A moderator's abort needs a reason; it keeps the record and is
	// logged (e2e_admin_test.go reads the log).
	e.refused(e.slash(ch, mod, "abort"), "A moderator's abort needs a reason, which is kept in the server's log and told to the players: `/go abort reason:…`.")
	id = e.game(ch.ID).ID
	if m := e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "stuck game"))); m.Ephemeral || m.Text() != "🚫 <@"+mod.ID+">, a moderator, aborted the game ⚫ <@"+alice.ID+"> vs ⚪ <@"+bob.ID+"> after 4 moves: it is recorded as aborted (`/go sgf game:"+id+"`) and never rated. Reason: stuck game\nThe channel is free for a new game." ||
		!slices.Equal(m.Pings, []string{alice.ID, bob.ID}) {
		t.Errorf("abort by a moderator at move 5 answered %q, pinging %v; want both players pinged", m.Text(), m.Pings)
	}
	if a := e.archived(ch.ID, id); a.Result != "Void" || !a.Annulled || a.Rated || a.Moves != 4 {
		t.Errorf("the moderator's abort archived %s annulled=%v rated=%v moves=%d, want Void, annulled, unrated, 4 moves", a.Result, a.Annulled, a.Rated, a.Moves)
	}
	// In a game of draughts the reason is asked for with its own command.
	dr := e.d.GuildChannel("dames")
	msg := e.newChallenge(e.draughtsCmd(dr, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	e.waitBoard(dr.ID, "⚪ white to play") // the first board posted, before the refusal counts public messages
	e.refused(e.draughtsCmd(dr, mod, "abort"), "A moderator's abort needs a reason, which is kept in the server's log and told to the players: `/draughts abort reason:…`.")

	// A confirmation offered before a move is stale after it.
	e.challenge(ch, alice, bob)
	confirm = e.do(e.slash(ch, alice, "abort"))
	e.do(e.play(ch, alice, "C3"))
	if m := e.do(e.click(alice, confirm, "abort")); !m.Ephemeral || e.game(ch.ID) == nil {
		t.Errorf("a stale abort confirmation = %q, game %v; want a private refusal and the game on", m.Text(), e.game(ch.ID) != nil)
	}
}

// TestE2EPlayerAbortDM: in a DM with the bot the player may abort before
// two moves each, and not at move 5.
func TestE2EPlayerAbortDM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.botGame(dm, dave, "tester")) // the bot (Black) opens
	e.do(e.play(dm, dave, "E5"))
	confirm := e.do(e.slash(dm, dave, "abort"))
	e.do(e.click(dave, confirm, "abort"))
	if e.game(dm.ID) != nil {
		t.Fatalf("the bot game survived its early abort")
	}
	e.do(e.botGame(dm, dave, "tester"))
	e.do(e.play(dm, dave, "E5"))
	e.do(e.play(dm, dave, "E4")) // move 5: the bot has moved three times, dave twice
	e.refused(e.slash(dm, dave, "abort"), tooLateToAbort)
}

// TestE2EAdministratorAborts: a member with Administrator and none of the
// moderators' bits may abort another's game as a moderator: Discord gives
// an Administrator every permission, and /go-admin already lets them in.
func TestE2EAdministratorAborts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, owner := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("owner")
	owner.Permissions = discordtest.PermMember | discordtest.PermAdministrator

	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, opening9[:4])
	id := e.game(ch.ID).ID
	if m := e.do(e.slash(ch, owner, "abort", discordtest.Str("reason", "stuck game"))); m.Ephemeral || m.Text() != "🚫 <@"+owner.ID+">, a moderator, aborted the game ⚫ <@"+alice.ID+"> vs ⚪ <@"+bob.ID+"> after 4 moves: it is recorded as aborted (`/go sgf game:"+id+"`) and never rated. Reason: stuck game\nThe channel is free for a new game." {
		t.Errorf("abort by an Administrator = %q, want the moderator's abort", m.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the game survived an Administrator's abort")
	}
}

// TestE2EBannedModeratorCannotAbort: a moderator (Manage Messages) banned
// from gobot on the server cannot abort others' games there: an admin who
// bans a rogue moderator wants them out of gobot's moderation too. The
// refusal says so and changes nothing; once the ban is lifted they may.
func TestE2EBannedModeratorCannotAbort(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, mod, _ := e.admins()
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, opening9[:4])
	id := e.game(ch.ID).ID
	e.do(e.adminCmd(ch, ann, "ban", discordtest.UserOpt("user", mod), discordtest.Str("reason", "abusing moderator powers")))
	e.refused(e.slash(ch, mod, "abort", discordtest.Str("reason", "revenge")),
		"You are banned from gobot on this server until an admin lifts it, so you cannot act as its moderator here. Reason: abusing moderator powers")
	if g := e.game(ch.ID); g == nil || g.ID != id {
		t.Fatalf("a banned moderator's abort ended the game")
	}
	if log := e.adminLog(); len(log) != 1 {
		t.Errorf("log after a banned moderator's abort = %q, want the ban only", log)
	}
	e.do(e.adminCmd(ch, ann, "unban", discordtest.UserOpt("user", mod)))
	if m := e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "stuck game"))); m.Ephemeral || e.game(ch.ID) != nil {
		t.Errorf("the moderator's abort once unbanned = %q, want the game aborted", m.Text())
	}
}
