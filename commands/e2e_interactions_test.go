package commands_test

// Scenarios of the interactions themselves: pings, signatures, rate
// limits, input a client rarely sends, autocomplete and the commands
// outside a game. The harness is in
// e2e_harness_test.go.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

func TestE2EPing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.d.Do(e.d.Ping())
	if r.Type != discordtest.CallbackPong {
		t.Errorf("PING answered with type %d, want 1", r.Type)
	}
	var names []string
	for _, c := range e.d.Commands(e.d.GuildID) {
		if m, ok := c.(map[string]any); ok {
			names = append(names, fmt.Sprint(m["name"]))
		}
	}
	if got := strings.Join(names, " "); got != "go draughts go-admin" {
		t.Errorf("Register overwrote the guild commands %q, want /go, /draughts and /go-admin", got)
	}
}

func TestE2ESignature(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))
	body := it.JSON()
	now := e.clock.Now()
	sig, ts := e.d.Signer.Sign(body, now)
	other, _ := discordtest.NewSigner()
	otherSig, _ := other.Sign(body, now)
	staleSig, staleTS := e.d.Signer.Sign(body, now.Add(-10*time.Minute))
	futureSig, futureTS := e.d.Signer.Sign(body, now.Add(10*time.Minute))
	tamperedBody := []byte(strings.Replace(string(body), alice.ID, bob.ID, 1))
	tests := []struct {
		name   string
		body   []byte
		header http.Header
	}{
		{"no headers", body, http.Header{}},
		{"no signature", body, http.Header{"X-Signature-Timestamp": {ts}}},
		{"no timestamp", body, http.Header{"X-Signature-Ed25519": {sig}}},
		{"signature not hex", body, http.Header{"X-Signature-Ed25519": {"zz" + sig[2:]}, "X-Signature-Timestamp": {ts}}},
		{"short signature", body, http.Header{"X-Signature-Ed25519": {sig[:64]}, "X-Signature-Timestamp": {ts}}},
		{"another key", body, http.Header{"X-Signature-Ed25519": {otherSig}, "X-Signature-Timestamp": {ts}}},
		{"timestamp changed", body, http.Header{"X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {fmt.Sprint(now.Unix() + 1)}}},
		{"body changed", tamperedBody, http.Header{"X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {ts}}},
		{"stale", body, http.Header{"X-Signature-Ed25519": {staleSig}, "X-Signature-Timestamp": {staleTS}}},
		{"from the future", body, http.Header{"X-Signature-Ed25519": {futureSig}, "X-Signature-Timestamp": {futureTS}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.header.Set("Content-Type", "application/json")
			r, err := e.d.Post(tt.body, tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != http.StatusUnauthorized {
				t.Errorf("HTTP %d, want 401", r.Status)
			}
		})
	}
	// Nothing happened: no REST call besides registering the command, no
	// challenge message, no game.
	for _, c := range e.d.Calls() {
		if c.Method != http.MethodPut {
			t.Errorf("a refused interaction caused %v", c)
		}
	}
	if n := len(e.d.Messages(ch.ID)); n != 0 {
		t.Errorf("%d messages in the channel, want none", n)
	}
	// The same payload, properly signed, works.
	if m := e.do(it); !strings.Contains(m.Text(), bob.Mention()) {
		t.Errorf("signed challenge answered %q", m.Text())
	}
}

// TestE2ERateLimit: Discord answers 429 to the bot's edits and posts; the
// bot waits as told and retries, and the players see the boards.
func TestE2ERateLimit(t *testing.T) { bothModes(t, testE2ERateLimit) }

func testE2ERateLimit(t *testing.T, e *env) {
	ch, alice, _ := e.guildGame()
	if e.gateway {
		// The answer goes up with the callback itself.
		e.d.RateLimit("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 1)
	} else {
		// The answer is deferred in the HTTP response, then edited.
		e.d.RateLimit("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", 1)
	}
	m := e.do(e.play(ch, alice, "E5"))
	if _, ok := m.PNG(); !ok {
		t.Errorf("after a 429 the board was not posted: %q", m.Text())
	}
	limited := 0
	for _, c := range e.d.Calls() {
		if c.Status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 1 {
		t.Errorf("%d calls were rate limited, want 1", limited)
	}
	if n := goOf(e.game(ch.ID)).MoveCount(); n != 1 {
		t.Errorf("%d moves after a rate-limited answer, want 1", n)
	}
}

// TestE2EBadInput: options and payloads a well-behaved Discord client would
// rarely send still get a specific refusal and change nothing.
func TestE2EBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	robot := e.d.NewUser("otherbot")
	robot.Bot = true
	dm := e.d.DM(alice)
	sub := discordtest.Sub
	tests := []struct {
		name string
		it   *discordtest.Interaction
		want string
	}{
		{"challenge yourself", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", alice))), "yourself"},
		{"challenge a bot account", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", robot))), "bot"},
		{"size 10", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 10))), "9, 13 or 19"},
		{"colour purple", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("color", "purple"))), "black, white or nigiri"},
		{"unknown ruleset", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("ruleset", "ing"))), "ruleset"},
		{"komi not in halves", e.d.Command(ch, alice, "go", sub("bot", discordtest.Num("komi", 6.3))), "komi"},
		{"komi huge", e.d.Command(ch, alice, "go", sub("bot", discordtest.Num("komi", 1000))), "komi"},
		{"handicap above 9", e.d.Command(ch, alice, "go", sub("bot", discordtest.Int("size", 19), discordtest.Int("handicap", 12))), "handicap"},
		{"negative handicap", e.d.Command(ch, alice, "go", sub("bot", discordtest.Int("handicap", -1))), "handicap"},
		{"unknown level", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("level", "godlike"))), "level"},
		{"thread in a DM", e.d.Command(e.d.PrivateChannel(alice, bob), alice, "go", sub("challenge", discordtest.UserOpt("opponent", bob), discordtest.Bool("thread", true))), "Threads exist only in server channels"},
		{"play without a game", e.d.Command(dm, alice, "go", sub("play", discordtest.Str("move", "D4"))), "no game"},
		{"pass without a game", e.d.Command(ch, alice, "go", sub("pass")), "no game"},
		{"resign without a game", e.d.Command(ch, alice, "go", sub("resign")), "no game"},
		{"undo without a game", e.d.Command(ch, alice, "go", sub("undo")), "no game"},
		{"sgf without a game", e.d.Command(ch, alice, "go", sub("sgf")), "no game"},
		{"dead without a game", e.d.Command(ch, alice, "go", sub("dead", discordtest.Str("point", "D4"))), "no game"},
		{"a subcommand from an old version", e.d.Command(ch, alice, "go", sub("teleport")), "don't know"},
		{"another command", e.d.Command(ch, alice, "chess", sub("play")), "don't know"},
		{"an unknown button", e.d.Click(alice, discordtest.Message{ID: "1", ChannelID: ch.ID}, "weird/button"), "not one I know"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { e.refused(tt.it, tt.want) })
	}
	if e.game(ch.ID) != nil || e.game(dm.ID) != nil {
		t.Errorf("bad input started a game")
	}
	if n := len(e.d.Public(ch.ID)) + len(e.d.Public(dm.ID)); n != 0 {
		t.Errorf("bad input posted %d public messages", n)
	}

	// Transport-level garbage with a valid signature.
	for _, tt := range []struct {
		name string
		body string
	}{
		{"not JSON", "{nope"},
		{"empty object", "{}"},
		{"unknown type", `{"id":"1","application_id":"` + e.d.AppID + `","type":42,"token":"t","version":1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sig, ts := e.d.Signer.Sign([]byte(tt.body), e.clock.Now())
			r, err := e.d.Post([]byte(tt.body), http.Header{"Content-Type": {"application/json"}, "X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {ts}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status == http.StatusOK && tt.name == "not JSON" {
				t.Errorf("HTTP 200 for a body that is not JSON")
			}
			if r.Status >= 500 {
				t.Errorf("HTTP %d: %s", r.Status, r.Body)
			}
		})
	}
	if r := e.d.Do(e.d.Ping()); r.Type != discordtest.CallbackPong {
		t.Errorf("the bot stopped answering after bad input")
	}
}

func TestE2EAutocomplete(t *testing.T) { httpMode(t, testE2EAutocomplete) }

func testE2EAutocomplete(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "D4"))
	r := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub("play", discordtest.Focused("move", "d"))))
	if r.Type != discordtest.CallbackAutocompleteResult {
		t.Fatalf("autocomplete answered with type %d", r.Type)
	}
	if len(r.Choices) != 8 {
		t.Errorf("%d choices for D on 9×9 with D4 taken, want 8: %+v", len(r.Choices), r.Choices)
	}
	for _, c := range r.Choices {
		if c.Name == "D4" || !strings.HasPrefix(c.Name, "D") {
			t.Errorf("choice %q should not be offered", c.Name)
		}
	}
	all := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub("play", discordtest.Focused("move", ""))))
	if len(all.Choices) != 25 {
		t.Errorf("%d choices for an empty prefix, want 25 (Discord's maximum)", len(all.Choices))
	}
}

// TestE2ECommands covers /go board, /go sgf, /go help, /go abort and the
// Resign button.
func TestE2ECommands(t *testing.T) { bothModes(t, testE2ECommands) }

func testE2ECommands(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator

	e.refused(e.slash(ch, alice, "board"), "no game")
	help := e.do(e.slash(ch, carol, "help"))
	if !strings.Contains(help.Text(), "/go play") || !strings.Contains(help.Text(), "tester") {
		t.Errorf("help = %q, want the commands and the bot levels", help.Text())
	}

	e.challenge(ch, alice, bob)
	e.playOut(ch, alice, bob, []string{"E5", "C3", "D4"})
	board := e.do(e.slash(ch, carol, "board"))
	if _, ok := board.PNG(); !ok || !strings.Contains(board.Text(), "D4") {
		t.Errorf("/go board = %q, want the board with the last move D4", board.Text())
	}

	sgf := e.do(e.slash(ch, bob, "sgf"))
	if len(sgf.Attachments) != 1 {
		t.Fatalf("/go sgf attached %d files", len(sgf.Attachments))
	}
	rec, _, err := engine.ParseSGF(sgf.Attachments[0].Data)
	if err != nil {
		t.Fatalf("the SGF does not parse: %v\n%s", err, sgf.Attachments[0].Data)
	}
	if rec.MoveCount() != 3 || rec.Size() != 9 {
		t.Errorf("the SGF has %d moves on %d×%d, want 3 on 9×9", rec.MoveCount(), rec.Size(), rec.Size())
	}

	// Resigning by button asks first; only the players may.
	latest := e.board(ch.ID)
	e.refused(e.click(carol, latest, "resign"), "not playing")
	confirm := e.do(e.click(bob, latest, "resign"))
	if !confirm.Ephemeral {
		t.Errorf("the resignation question is public: %q", confirm.Text())
	}
	if goOf(e.game(ch.ID)).Over() {
		t.Fatalf("the Resign button resigned without asking")
	}
	end := e.do(e.click(bob, confirm, "yes"))
	_ = end
	if e.game(ch.ID) != nil {
		t.Fatalf("the game is still active after resigning")
	}
	e.waitBoard(ch.ID, "resign")

	// Abort needs Manage Messages in a server.
	e.challenge(ch, alice, bob)
	e.refused(e.d.Click(alice, latest, mustButton(t, latest, "pass").CustomID), "earlier game")
	e.refused(e.slash(ch, carol, "abort"), "manage messages") // a player may abort early (e2e_abort_test.go)
	if m := e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "test"))); m.Ephemeral || !strings.Contains(m.Text(), "aborted") {
		t.Errorf("abort by a moderator answered %q", m.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the game survived /go abort")
	}
	e.refused(e.slash(ch, mod, "abort"), "no game")
}
