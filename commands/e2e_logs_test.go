package commands_test

// Scenarios of what the bot's log tells its operator: refused requests,
// interaction types and refusals, each said once and readably. The harness
// is in e2e_harness_test.go.

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2ESignatureRefusalsLogged: a request whose signature does not
// verify and one whose timestamp is 400 s off are refused with 401 and
// warned of, each saying which, at most once a minute per reason; the
// next warning after a minute counts those left out. Neither the body,
// the signature nor the token reaches the log.
func TestE2ESignatureRefusalsLogged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))
	body := it.JSON()
	other, _ := discordtest.NewSigner()
	var secrets []string
	post := func(s *discordtest.Signer, at time.Time) *discordtest.Reply {
		t.Helper()
		sig, ts := s.Sign(body, at)
		secrets = append(secrets, sig)
		r, err := e.d.Post(body, http.Header{"Content-Type": {"application/json"}, "X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {ts}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != http.StatusUnauthorized {
			t.Fatalf("HTTP %d, want 401", r.Status)
		}
		return r
	}
	forged := post(other, e.clock.Now())
	stale := post(e.d.Signer, e.clock.Now().Add(-400*time.Second))
	if !strings.Contains(string(forged.Body), "signature") {
		t.Errorf("a bad signature was answered %q", forged.Body)
	}
	if !strings.Contains(string(stale.Body), "timestamp") || string(stale.Body) == string(forged.Body) {
		t.Errorf("a stale timestamp was answered %q, a bad signature %q: the answers should say which", stale.Body, forged.Body)
	}
	warnings := func(s string) []string {
		var out []string
		for _, line := range strings.Split(e.logs.String(), "\n") {
			if strings.Contains(line, "level=WARN") && strings.Contains(line, s) {
				out = append(out, line)
			}
		}
		return out
	}
	const badSig, offClock = "interaction refused: bad signature", "timestamp 400 s off the server's clock (allowed ±300 s)"
	if w := warnings(badSig); len(w) != 1 {
		t.Errorf("%d warnings of a bad signature, want 1: %q", len(w), w)
	}
	if w := warnings(offClock); len(w) != 1 {
		t.Errorf("%d warnings of a timestamp 400 s off, want 1: %q", len(w), w)
	}

	// A flood within the minute adds no line.
	for range 5 {
		post(other, e.clock.Now())
		post(e.d.Signer, e.clock.Now().Add(-400*time.Second))
	}
	if w := warnings(badSig); len(w) != 1 {
		t.Errorf("%d warnings of a bad signature after a flood, want 1: %q", len(w), w)
	}
	if w := warnings(offClock); len(w) != 1 {
		t.Errorf("%d warnings of a timestamp off after a flood, want 1: %q", len(w), w)
	}

	// A minute on, the next refusal of each reason is warned of, with
	// the five left out.
	e.clock.Advance(time.Minute)
	post(other, e.clock.Now())
	post(e.d.Signer, e.clock.Now().Add(-400*time.Second))
	for _, reason := range []string{badSig, offClock} {
		w := warnings(reason)
		if len(w) != 2 || !strings.Contains(w[1], "suppressed=5") {
			t.Errorf("warnings %q a minute later, want a second one with suppressed=5", w)
		}
	}

	log := e.logs.String()
	secrets = append(secrets, it.Token, string(body))
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the log holds %q (a signature, the token or the body)", s)
		}
	}
}

// TestE2EInteractionTypeLogged: autocomplete is logged by name, not as
// discordgo's InteractionType(4).
func TestE2EInteractionTypeLogged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, alice, _ := e.guildGame()
	e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("play", discordtest.Focused("move", "D"))))
	// The handler logs once it has answered.
	e.d.WaitFor("the autocomplete logged", func() bool {
		return strings.Contains(e.logs.String(), "path=go/play")
	})
	log := e.logs.String()
	if strings.Contains(log, "InteractionType(") {
		t.Errorf("an interaction's type is logged as a number:\n%s", log)
	}
	if !strings.Contains(log, "type=ApplicationCommandAutocomplete") {
		t.Errorf("no line logs type=ApplicationCommandAutocomplete:\n%s", log)
	}
}

// TestE2ERefusalLoggedOnce: a move the engine refuses with its own
// sentence is logged with that sentence once, and the player reads it.
func TestE2ERefusalLoggedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, alice, _ := e.guildGame()
	const sentence = "Give a point such as D4"
	e.refused(e.play(ch, alice, " "), sentence)
	var lines []string
	for _, line := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(line, "msg=refused") && strings.Contains(line, "invalid coordinates") {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d refusals of invalid coordinates logged, want 1: %q", len(lines), lines)
	}
	if n := strings.Count(lines[0], sentence); n != 1 {
		t.Errorf("the refusal's reason says %q %d times, want once: %s", sentence, n, lines[0])
	}
}

// TestE2EUnknownButton: a button no handler knows is answered as a button
// (one from an older version, say), not as an unknown command; an
// unknown command keeps its answer.
func TestE2EUnknownButton(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	m := e.do(e.d.Click(alice, discordtest.Message{ID: "1", ChannelID: ch.ID}, "weird/button"))
	if got := m.Text(); !strings.Contains(got, "That button is not one I know") || strings.Contains(got, "command") {
		t.Errorf("an unknown button was answered %q", got)
	}
	if !m.Ephemeral {
		t.Errorf("the answer to an unknown button is public")
	}
	if got := e.do(e.d.Command(ch, alice, "go", discordtest.Sub("teleport"))).Text(); !strings.Contains(got, "I don't know that command") {
		t.Errorf("an unknown command was answered %q", got)
	}
}
