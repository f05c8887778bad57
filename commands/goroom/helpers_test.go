package goroom

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gobot-dev/gobot/bots"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// recorder is a Discord that records what the bot sends, and keeps each
// interaction's answer as Discord shows it (Original): "thinking…" after a
// deferral, then what the last edit said.
type recorder struct {
	mu      sync.Mutex
	calls   []call
	n       int
	answers map[string]*discordgo.Message // interaction token -> its answer
}

type call struct {
	Op      string // callback, edit, delete, followup, send, editmsg, thread, commands
	Type    discordgo.InteractionResponseType
	Channel string
	Edited  string // the message an editmsg edited
	Message *commands.Message
	Choices []*discordgo.ApplicationCommandOptionChoice
}

var _ commands.Discord = (*recorder)(nil)

func (rc *recorder) add(c call) *discordgo.Message {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.calls = append(rc.calls, c)
	rc.n++
	return &discordgo.Message{ID: fmt.Sprint(500000000000000000 + rc.n), ChannelID: c.Channel}
}

// take returns the calls recorded since the last take.
func (rc *recorder) take() []call {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.calls
	rc.calls = nil
	return out
}

// answer notes what interaction it's answer now shows.
func (rc *recorder) answer(it *discordgo.Interaction, content string, flags discordgo.MessageFlags) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.answers == nil {
		rc.answers = map[string]*discordgo.Message{}
	}
	rc.answers[it.Token] = &discordgo.Message{Content: content, Flags: flags}
}

func (rc *recorder) Callback(ctx context.Context, it *discordgo.Interaction, r *commands.Response) (*discordgo.Message, error) {
	sent := rc.add(call{Op: "callback", Type: r.Type, Channel: it.ChannelID, Message: r.Message, Choices: r.Choices})
	switch {
	case r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		rc.answer(it, "", discordgo.MessageFlagsLoading)
	case r.Message != nil:
		rc.answer(it, r.Message.Content, 0)
	}
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Message == nil || r.Message.Ephemeral || len(r.Message.Files) == 0 {
		return nil, nil
	}
	// A board sent as the answer is known by its message, as Discord's
	// with_response gives it (REST.Callback): the game records it
	// (KeepBoardID), which settles the board its move owed.
	return sent, nil
}
func (rc *recorder) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	rc.answer(it, m.Content, 0)
	return rc.add(call{Op: "edit", Channel: it.ChannelID, Message: m}), nil
}
func (rc *recorder) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.n++
	m := &discordgo.Message{ID: fmt.Sprint(500000000000000000 + rc.n), ChannelID: it.ChannelID}
	if a := rc.answers[it.Token]; a != nil {
		m.Content, m.Flags = a.Content, a.Flags
	}
	return m, nil
}

func (rc *recorder) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error {
	rc.add(call{Op: "delete", Channel: it.ChannelID})
	return nil
}
func (rc *recorder) Followup(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	return rc.add(call{Op: "followup", Channel: it.ChannelID, Message: m}), nil
}
func (rc *recorder) SendMessage(ctx context.Context, channelID string, m *commands.Message) (*discordgo.Message, error) {
	return rc.add(call{Op: "send", Channel: channelID, Message: m}), nil
}
func (rc *recorder) EditMessage(ctx context.Context, channelID, messageID string, m *commands.Message) error {
	rc.add(call{Op: "editmsg", Channel: channelID, Edited: messageID, Message: m})
	return nil
}
func (rc *recorder) StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error) {
	rc.mu.Lock()
	rc.n++
	id := fmt.Sprint(600000000000000000 + rc.n)
	rc.calls = append(rc.calls, call{Op: "thread", Channel: channelID})
	rc.mu.Unlock()
	return &discordgo.Channel{ID: id, ParentID: channelID, Name: name}, nil
}
func (rc *recorder) OverwriteCommands(ctx context.Context, appID, guildID string, cmds []*discordgo.ApplicationCommand) error {
	rc.add(call{Op: "commands"})
	return nil
}

// text is everything a call shows: content, embed text, button labels.
func (c call) text() string {
	if c.Message == nil {
		var names []string
		for _, ch := range c.Choices {
			names = append(names, ch.Name)
		}
		return strings.Join(names, ",")
	}
	var sb strings.Builder
	sb.WriteString(c.Message.Content)
	for _, e := range c.Message.Embeds {
		sb.WriteString("\n" + e.Title + "\n" + e.Description)
	}
	for _, row := range c.Message.Components {
		for _, comp := range row.(discordgo.ActionsRow).Components {
			sb.WriteString(" [" + comp.(discordgo.Button).Label + "]")
		}
	}
	return sb.String()
}

// buttonID returns the custom ID of the button labelled label in the call.
func (c call) buttonID(t *testing.T, label string) string {
	t.Helper()
	if c.Message != nil {
		for _, row := range c.Message.Components {
			for _, comp := range row.(discordgo.ActionsRow).Components {
				if b := comp.(discordgo.Button); b.Label == label {
					return b.CustomID
				}
			}
		}
	}
	t.Fatalf("no %q button in %s", label, c.text())
	return ""
}

// testApp is a bot with a real store in a temporary directory, the
// recorder as Discord, and a clock the test moves.
type testApp struct {
	*room
	t     testing.TB
	rec   *recorder
	store *storage.Store
	clk   *clocktest.Clock
	seq   int
	mu    sync.Mutex
}

func newTestApp(t testing.TB) *testApp {
	t.Helper()
	return newTestAppWith(t, testPlayers{})
}

func newTestAppWith(t testing.TB, players Players, opts ...func(*commands.Options)) *testApp {
	t.Helper()
	return newTestAppStore(t, players, func(s *storage.Store) commands.Store { return s }, opts...)
}

// newTestAppStore is newTestAppWith with the bot's store wrapped by wrap
// (to make it fail, or slow, at a chosen moment). The store and the bot
// share the test's clock; opts change the App's options.
func newTestAppStore(t testing.TB, players Players, wrap func(*storage.Store) commands.Store, opts ...func(*commands.Options)) *testApp {
	t.Helper()
	tb := &testApp{t: t, rec: &recorder{}, clk: clocktest.New(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))}
	store, err := storage.Open(filepath.Join(t.TempDir(), "test.db"), storage.Options{Kinds: testKinds(), Now: tb.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	tb.store = store
	o := commands.Options{
		AppID: "1", Discord: tb.rec, Store: wrap(store), Rooms: []commands.NewRoom{New(players, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now: tb.clk.Now,
	}
	for _, f := range opts {
		f(&o)
	}
	app, err := commands.New(o)
	if err != nil {
		t.Fatal(err)
	}
	tb.room = app.RoomOfKind(goKind).(*room)
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	return tb
}

const (
	guildID   = "900000000000000001"
	channelID = "900000000000000002"
)

// The test's users, as parseSlash resolves "opponent:bob".
var (
	ann = commands.ConsoleDiscordUser("ann")
	bob = commands.ConsoleDiscordUser("bob")
	cat = commands.ConsoleDiscordUser("cat")
)

// interaction builds an interaction from u in the test channel.
func (tb *testApp) interaction(u *discordgo.User, channel string) *discordgo.Interaction {
	tb.mu.Lock()
	tb.seq++
	seq := tb.seq
	tb.mu.Unlock()
	return &discordgo.Interaction{
		ID: fmt.Sprint(700000000000000000 + seq), AppID: "1", Token: fmt.Sprint("tok", seq),
		GuildID: guildID, ChannelID: channel, Version: 1,
		Member: &discordgo.Member{User: u, Permissions: 0},
	}
}

// command sends "/go sub opt:value..." as u and returns what the bot sent.
func (tb *testApp) command(u *discordgo.User, line string) []call {
	tb.t.Helper()
	return tb.commandIn(u, channelID, line)
}

func (tb *testApp) commandIn(u *discordgo.User, channel, line string) []call {
	tb.t.Helper()
	data, focused, err := commands.ParseSlash(line, tb.Definitions(), nil)
	if err != nil {
		tb.t.Fatalf("parse %q: %v", line, err)
	}
	// Round-trip through JSON, as Discord's payload would arrive.
	it := tb.interaction(u, channel)
	it.Type = discordgo.InteractionApplicationCommand
	if focused {
		it.Type = discordgo.InteractionApplicationCommandAutocomplete
	}
	it.Data = data
	raw, err := json.Marshal(it)
	if err != nil {
		tb.t.Fatal(err)
	}
	var got discordgo.Interaction
	if err := json.Unmarshal(raw, &got); err != nil {
		tb.t.Fatalf("decode interaction: %v", err)
	}
	tb.Handle(context.Background(), &got)
	return tb.rec.take()
}

// press presses a button as u.
func (tb *testApp) press(u *discordgo.User, customID string) []call {
	tb.t.Helper()
	it := tb.interaction(u, channelID)
	it.Type = discordgo.InteractionMessageComponent
	it.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent}
	tb.Handle(context.Background(), it)
	return tb.rec.take()
}

// testPlayers is the test's AI: it passes when its opponent passed (so
// games end), and otherwise plays the first legal point from A1 that does
// not fill one of its own eyes.
type testPlayers struct{}

func (testPlayers) Levels() []commands.Level {
	return []commands.Level{{Name: "first", Description: "plays the first legal point"}, {Name: "second", Description: "the same, for tests"},
		{Name: "standin", Description: "the same, made by a stand-in for want of a free search slot"}}
}

func (testPlayers) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	if level == "standin" {
		bots.ReportStandIn(ctx, bots.StandInBusy)
	}
	c := g.ToPlay()
	if last, ok := g.LastMove(); ok && last.Kind == engine.Pass {
		return engine.PassMove(c), nil
	}
	b := g.Board()
	for _, p := range g.Legal() {
		if !b.IsEye(b.Vertex(p), c) {
			return engine.PlaceAt(c, p), nil
		}
	}
	return engine.PassMove(c), nil
}

// only returns the single call in calls, failing otherwise.
func only(t *testing.T, calls []call) call {
	t.Helper()
	if len(calls) != 1 {
		var s []string
		for _, c := range calls {
			s = append(s, c.Op+": "+c.text())
		}
		t.Fatalf("got %d calls, want 1:\n%s", len(calls), strings.Join(s, "\n"))
	}
	return calls[0]
}

// wantEphemeral checks that calls are one private reply containing want.
func wantEphemeral(t *testing.T, calls []call, want string) {
	t.Helper()
	c := only(t, calls)
	if c.Message == nil || !c.Message.Ephemeral {
		t.Fatalf("reply %s %q is not ephemeral", c.Op, c.text())
	}
	if !strings.Contains(c.text(), want) {
		t.Fatalf("reply = %q, want it to contain %q", c.text(), want)
	}
}

// testKinds are the kinds the tests' stores read: Go and draughts.
func testKinds() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}

// goDefinitions are /go and /go-admin as the App registers them with
// these bot levels, for ParseSlash.
func goDefinitions(levels []commands.Level) []*discordgo.ApplicationCommand {
	return []*discordgo.ApplicationCommand{definition(), commands.AdminDefinition()}
}
