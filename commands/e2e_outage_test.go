package commands_test

// The database down while gobot works: its answers say what they know
// and promise what it will do when the database is back.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// dueRetryForTests is how long the scheduler waits before it looks
// again at deadlines it could not read (commands' dueRetry).
const dueRetryForTests = 30 * time.Second

// errDown is what the store answers while the test's database is down.
var errDown = errors.New("test: the database does not answer")

// outage is the store with a switch that takes the database down: the
// reads and writes of games and of the bot queue fail while it is.
type outage struct {
	commands.Store
	down atomic.Bool
}

// outageEnv restarts e on its store behind an outage switch.
func outageEnv(e *env) *outage {
	o := &outage{}
	e.wrapStore = func(s commands.Store) commands.Store {
		o.Store = s
		return o
	}
	e.restart()
	return o
}

func (o *outage) fail() error {
	if o.down.Load() {
		return errDown
	}
	return nil
}

func (o *outage) Game(ctx context.Context, channelID string) (*storage.Game, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.Game(ctx, channelID)
}

func (o *outage) UpdateGame(ctx context.Context, g *storage.Game) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.UpdateGame(ctx, g)
}

func (o *outage) ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.ClaimBotMove(ctx, worker, lease)
}

func (o *outage) ReleaseBotMove(ctx context.Context, m *storage.BotMove, retryAt time.Time) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.ReleaseBotMove(ctx, m, retryAt)
}

func (o *outage) BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error) {
	if err := o.fail(); err != nil {
		return 0, err
	}
	return o.Store.BotQueuePosition(ctx, channelID, gameID, moves)
}

func (o *outage) NextDue(ctx context.Context) (time.Time, error) {
	if err := o.fail(); err != nil {
		return time.Time{}, err
	}
	return o.Store.NextDue(ctx)
}

func (o *outage) DueGames(ctx context.Context, now time.Time, limit int) ([]storage.DueGame, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.DueGames(ctx, now, limit)
}

func (o *outage) Heartbeat(ctx context.Context, now time.Time) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.Heartbeat(ctx, now)
}

func (o *outage) CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error) {
	if err := o.fail(); err != nil {
		return 0, 0, err
	}
	return o.Store.CreditOutage(ctx, now, min)
}

func (o *outage) TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*storage.Lease, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.TakeLease(ctx, key, holder, d, record)
}

func (o *outage) ReleaseLease(ctx context.Context, key, holder string) error {
	if err := o.fail(); err != nil {
		return err
	}
	return o.Store.ReleaseLease(ctx, key, holder)
}

func (o *outage) Settings(ctx context.Context, guildID string) (*storage.Settings, error) {
	if err := o.fail(); err != nil {
		return nil, err
	}
	return o.Store.Settings(ctx, guildID)
}

// TestE2EHelpWhileDatabaseDown: /go help and /draughts help need no game:
// with the database down they answer with gobot's own defaults and say
// that the server's settings could not be read (they said that
// something went wrong).
func TestE2EHelpWhileDatabaseDown(t *testing.T) {
	e := newEnv(t)
	o := outageEnv(e)
	ch, u := e.d.GuildChannel("general"), e.d.NewUser("alice")
	o.down.Store(true)
	const unread = "⚠️ This server's settings could not be read just now, so this help shows gobot's own defaults; the server's admins may have chosen others."
	m := e.do(e.slash(ch, u, "help"))
	if !m.Ephemeral || m.Content != unread || len(m.Embeds) == 0 || !strings.Contains(m.Text(), "/go bot") {
		t.Errorf("/go help with the database down (private %v, %d embeds) =\n%s\nwant %q above the help", m.Ephemeral, len(m.Embeds), m.Text(), unread)
	}
	m = e.do(e.d.Command(ch, u, "draughts", discordtest.Sub("help")))
	if !m.Ephemeral || !strings.HasPrefix(m.Content, unread+"\n") || !strings.Contains(m.Content, "/draughts bot level:") {
		t.Errorf("/draughts help with the database down (private %v) =\n%s\nwant %q above the help", m.Ephemeral, m.Text(), unread)
	}
	o.down.Store(false)
	if m := e.do(e.slash(ch, u, "help")); m.Content != "" {
		t.Errorf("/go help with the database up says %q", m.Content)
	}
}

// lastHeartbeat is the heartbeat the store holds.
func (e *env) lastHeartbeat() time.Time {
	e.t.Helper()
	hb, ok := e.store.(interface {
		LastHeartbeat(ctx context.Context) (time.Time, error)
	})
	if !ok {
		e.t.Fatalf("the store %T has no LastHeartbeat", e.store)
	}
	t, err := hb.LastHeartbeat(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

// TestE2EOutageCredited: the database is down for 40 seconds while gobot
// runs, across Black's deadline. Once it is back, the outage is given back
// to the clocks (as it is after a restart), so Black does not lose on time
// and plays on; the game ends on time at the credited deadline.
func TestE2EOutageCredited(t *testing.T) {
	onBothStores(t, func(t *testing.T, e *env) { testE2EOutageCredited(t, e, false) })
}

// TestE2EOutageCreditedByMove: Black's move made after the database is
// back, before the scheduler looked again, credits the outage first: it
// is not lost on time, and counts.
func TestE2EOutageCreditedByMove(t *testing.T) {
	onBothStores(t, func(t *testing.T, e *env) { testE2EOutageCredited(t, e, true) })
}

// outageOf starts a game in "general" between alice (Black) and bob with
// clock spec, lets 10 s pass (a heartbeat written) and takes the database
// down for down, long enough for the scheduler to see it fail; it
// returns the game's channel, its players and when it started.
func outageOf(t *testing.T, e *env, o *outage, spec string, down time.Duration) (ch *discordtest.Channel, alice, bob discordtest.User, start time.Time) {
	t.Helper()
	ch, alice, bob = e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", spec))
	start = e.clock.Now()
	e.clock.Advance(10 * time.Second) // a heartbeat
	e.d.WaitFor("the heartbeat", func() bool { return e.lastHeartbeat().Equal(start.Add(10 * time.Second)) })
	// The next heartbeat's timer is armed once the last one is written:
	// advancing before would start it from the advanced time (it then
	// never fired, on a loaded machine).
	e.d.WaitFor("the next heartbeat's timer", func() bool { return e.clock.Waits(start.Add(20 * time.Second)) })

	o.down.Store(true)
	e.clock.Advance(down)
	e.d.WaitFor("the heartbeat to fail", func() bool {
		log := e.logs.String()
		return strings.Contains(log, `msg="clock: heartbeat"`) || strings.Contains(log, `msg="clock: credit the outage; the store still fails"`)
	})
	o.down.Store(false)
	return ch, alice, bob, start
}

func testE2EOutageCredited(t *testing.T, e *env, byMove bool) {
	o := outageEnv(e)
	// Black has 5 s left when the database goes down for 40 s, past
	// Black's deadline.
	ch, alice, bob, start := outageOf(t, e, o, "absolute 15s", 40*time.Second)
	if !strings.Contains(e.logs.String(), `msg="clock: next deadline"`) {
		t.Errorf("the scheduler did not see the deadline it could not read")
	}
	if byMove {
		// Black moves before the scheduler looks again: the move is
		// not lost on time, the outage is credited first.
		m := e.do(e.play(ch, alice, "C3"))
		want := bob.Mention() + ", your move.\n⚫ alice vs ⚪ bob\n⚫ " + alice.Mention() + " played **C3**.\n**Move 2** · ⚪ white to play: " + bob.Mention() +
			"\nLast move: ⚫ C3 · Captures: ⚫ 0 · ⚪ 0\n⏱ ⚫ 5 s · ⚪ 15 s · ⚪ white's time runs out <t:" + fmt.Sprint(start.Add(65*time.Second).Unix()) + ":R>\n" +
			"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · absolute: 15 s for the whole game"
		if m.Ephemeral || m.Text() != want {
			t.Errorf("Black's move after the outage (private %v) =\n%s\nwant\n%s", m.Ephemeral, m.Text(), want)
		}
		if n := len(e.publicWith(ch.ID, "ran out of time")); n != 0 {
			t.Errorf("%d announcements of a loss on time", n)
		}
		return
	}
	e.clock.Advance(dueRetryForTests) // the scheduler looks again
	e.d.WaitFor("the outage credit", func() bool { return e.lastHeartbeat().Equal(start.Add(80 * time.Second)) })

	g := e.game(ch.ID)
	if g == nil {
		t.Fatalf("the game ended on time while the database was down")
	}
	if got, want := g.Clock.Deadline(), start.Add(85*time.Second); !got.Equal(want) {
		t.Errorf("deadline after the outage = %v, want %v (the 70 s without a heartbeat given back)", got, want)
	}
	if m := e.do(e.play(ch, alice, "C3")); m.Ephemeral {
		t.Errorf("Black's move after the outage was refused: %q", m.Text())
	}
	if n := len(e.publicWith(ch.ID, "ran out of time")); n != 0 {
		t.Errorf("%d announcements of a loss on time", n)
	}
	// The credited deadline holds: White, to move, loses at it.
	id := e.game(ch.ID).ID
	e.clock.Advance(15 * time.Second)
	if a := e.archived(ch.ID, id); a.Result != "B+T" {
		t.Errorf("archived %s, want B+T: White out of time after the outage", a.Result)
	}
	_ = bob
}

// TestE2EOutageCreditedBeforeMove: Black's move made as soon as the
// database answers again, 60 s of outage after the last heartbeat, is
// charged only the time before the outage: the move's answer shows the
// clock credited (it showed Black's clock charged the outage, and the
// credit that came later went to White's turn, so Black never got the
// time back).
func TestE2EOutageCreditedBeforeMove(t *testing.T) {
	onBothStores(t, func(t *testing.T, e *env) {
		o := outageEnv(e)
		ch, alice, bob, start := outageOf(t, e, o, "absolute 3m", 60*time.Second)
		m := e.do(e.play(ch, alice, "G7"))
		want := bob.Mention() + ", your move.\n⚫ alice vs ⚪ bob\n⚫ " + alice.Mention() + " played **G7**.\n**Move 2** · ⚪ white to play: " + bob.Mention() +
			"\nLast move: ⚫ G7 · Captures: ⚫ 0 · ⚪ 0\n⏱ ⚫ 2 min 50 s · ⚪ 3 min · ⚪ white's time runs out <t:" + fmt.Sprint(start.Add(70*time.Second+3*time.Minute).Unix()) + ":R>\n" +
			"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · absolute: 3 min for the whole game"
		if m.Ephemeral || m.Text() != want {
			t.Errorf("Black's move after the outage (private %v) =\n%s\nwant\n%s", m.Ephemeral, m.Text(), want)
		}
	})
}

// TestE2EOutageAfterMove: the database goes down while the bot thinks
// about its reply to a move that was stored. The answer shows the board
// with the player's move and says that gobot will move when it can (it
// said that something went wrong and nothing was changed); once the
// database is back, the bot's move is made and posted.
func TestE2EOutageAfterMove(t *testing.T) {
	e := newEnv(t)
	o := outageEnv(e)
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	move := e.botThinking(dm, gina, "slow")
	e.thinking("slow")
	o.down.Store(true)
	close(e.players.gate)
	m := e.deferredAnswer(move)
	want := "\n⚫ gina vs ⚪ gobot slow\n⚫ " + gina.Mention() + " played **E5**.\n" +
		"⚠️ gobot cannot reach its database just now; it will play its move as soon as it can.\n" +
		"**Move 2** · ⚪ white to play: gobot (slow)\nLast move: ⚫ E5 · Captures: ⚫ 0 · ⚪ 0\n" +
		"⏱ ⚫ 4 days · ⚪ 3 days · ⚪ white's time runs out <t:1749038400:R>\n" +
		"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · Fischer: 3 days, +1 day per move, at most 7 days"
	if _, board := m.PNG(); m.Ephemeral || !board || m.Text() != want {
		t.Errorf("answer to the move (private %v, board %v) =\n%s\nwant\n%s", m.Ephemeral, board, m.Text(), want)
	}
	o.down.Store(false)
	e.clock.Advance(time.Minute) // the failed move is tried again within a minute
	e.waitMoves("the bot's move once the database is back", dm.ID, 2)
	e.waitBoard(dm.ID, "A9")
}

// TestE2EBotQueueClaimsFailQuietly: while the database is down, the bot
// workers' failing claims are logged once when they start, then at most
// once a minute with their count, and once when they work again (each of
// GOBOT_MAX_SEARCHES workers logged a WARN every second); the workers
// look at the queue less often meanwhile.
func TestE2EBotQueueClaimsFailQuietly(t *testing.T) {
	e := newEnv(t)
	e.workers = 4
	o := outageEnv(e)
	lines := func(sub string) []string {
		var out []string
		for _, l := range strings.Split(e.logs.String(), "\n") {
			if strings.Contains(l, "bot queue") && strings.Contains(l, sub) {
				out = append(out, l)
			}
		}
		return out
	}
	eventually := func(what, sub string) []string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if l := lines(sub); len(l) > 0 {
				return l
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no %s in the log:\n%s", what, e.logs.String())
		return nil
	}
	o.down.Store(true)
	time.Sleep(3500 * time.Millisecond) // 4 workers × 3 polls
	want := `level=WARN msg="bot queue: cannot claim owed bot moves; the workers try again, less often while it lasts" err="test: the database does not answer"`
	if l := lines(""); len(l) != 1 || !strings.HasSuffix(l[0], want) {
		t.Errorf("the log of failing claims =\n%s\nwant one line ending\n%s", strings.Join(l, "\n"), want)
	}
	e.clock.Advance(61 * time.Second)
	still := eventually("line that the claims still fail", "still failing")
	if !regexp.MustCompile(`level=WARN msg="bot queue: claims still failing" failures=[1-9][0-9]* total=[1-9][0-9]* for=1m[0-9]+s err="test: the database does not answer"$`).MatchString(still[0]) {
		t.Errorf("the line that claims still fail = %s", still[0])
	}
	o.down.Store(false)
	again := eventually("line that claims work again", "work again")
	if !regexp.MustCompile(`level=INFO msg="bot queue: claims work again" failures=[1-9][0-9]* for=1m[0-9]+s$`).MatchString(again[0]) {
		t.Errorf("the line that claims work again = %s", again[0])
	}
	if n := len(lines("")); n != 3 {
		t.Errorf("%d lines of the bot queue in the log, want 3:\n%s", n, strings.Join(lines(""), "\n"))
	}
}
