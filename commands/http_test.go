package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
)

func TestRoutes(t *testing.T) {
	rt := NewRouter()
	var got string
	rt.Command("go/play", func(ctx context.Context, r *Request) error { got = "play"; return nil })
	rt.Component("game/{id}/pass/{move}", func(ctx context.Context, r *Request) error {
		got = "pass " + r.Param("id") + " " + r.Param("move")
		return nil
	})
	rt.Component("challenge/{id}/accept", func(ctx context.Context, r *Request) error { got = "accept " + r.Param("id"); return nil })
	tests := []struct {
		name    string
		it      *discordgo.Interaction
		want    string
		wantErr bool
	}{
		{"subcommand", &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{
			Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "play", Type: discordgo.ApplicationCommandOptionSubCommand}}}}, "play", false},
		{"unknown subcommand", &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{
			Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "fly", Type: discordgo.ApplicationCommandOptionSubCommand}}}}, "", true},
		{"button with params", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game/42/pass/7"}}, "pass 42 7", false},
		{"challenge", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "challenge/9/accept"}}, "accept 9", false},
		{"too many segments", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game/42/pass/7/8"}}, "", true},
		{"empty segment", &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: "game//pass/7"}}, "", true},
		{"modal", &discordgo.Interaction{Type: discordgo.InteractionModalSubmit}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = ""
			err := rt.Dispatch(context.Background(), &Request{Interaction: tt.it})
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Dispatch = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
			if tt.wantErr && !errors.Is(err, ErrUnknown) {
				t.Fatalf("Dispatch error %v, want ErrUnknown", err)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err      error
		want     string
		expected bool
	}{
		{ErrNoGame, "There is no game in this channel", true},
		{fmt.Errorf("play: %w", &game.Refusal{Err: errors.New("ko"), Text: "Ko: the stone cannot be retaken at once."}), "Ko: the stone", true},
		{errors.New("engine: ko"), "something went wrong on my side", false}, // a rule's error without its sentence
		{UserErr(ErrNotChallenged, "Only @bob can answer."), "Only @bob can answer.", true},
		{ErrConflict, "at the same moment", true},
		{errors.New("disk on fire"), "something went wrong on my side", false},
		{context.DeadlineExceeded, "took too long", false},
		{fmt.Errorf("component %q: %w", "weird/button", ErrUnknownComponent), "That button is not one I know", true},
		{fmt.Errorf("command %q: %w", "go/teleport", ErrUnknown), "I don't know that command", true},
	}
	for _, tt := range tests {
		got, expected := ErrorMessage(tt.err)
		if !strings.Contains(got, tt.want) || expected != tt.expected {
			t.Errorf("errorMessage(%v) = %q, %v; want %q, %v", tt.err, got, expected, tt.want, tt.expected)
		}
	}
}

// TestUserErrorOnce: a refusal given to the user with its own sentence is
// logged with the sentence once; another user error adds its sentence to
// the sentinel's.
func TestUserErrorOnce(t *testing.T) {
	const text = "Give a point such as D4 (valid on this board: A1–J9)."
	refusal := game.Refuse(errors.New("engine: invalid coordinates"), text)
	if got, want := UserErr(refusal, text).Error(), "engine: invalid coordinates: "+text; got != want {
		t.Errorf("a refusal with its own sentence reads %q, want %q", got, want)
	}
	if got, want := UserErr(ErrNotChallenged, "Only @bob can answer.").Error(), "commands: only the challenged user can answer: Only @bob can answer."; got != want {
		t.Errorf("a user error reads %q, want %q", got, want)
	}
}

// TestInteractionTypeNames: every interaction type Discord sends has a
// name in the log.
func TestInteractionTypeNames(t *testing.T) {
	for typ, want := range map[discordgo.InteractionType]string{
		discordgo.InteractionPing:                           "Ping",
		discordgo.InteractionApplicationCommand:             "ApplicationCommand",
		discordgo.InteractionMessageComponent:               "MessageComponent",
		discordgo.InteractionApplicationCommandAutocomplete: "ApplicationCommandAutocomplete",
		discordgo.InteractionModalSubmit:                    "ModalSubmit",
		42:                                                  "InteractionType(42)",
	} {
		if got := interactionTypeName(typ); got != want {
			t.Errorf("interactionTypeName(%d) = %q, want %q", typ, got, want)
		}
	}
}

// TestThrottle: one line a minute goes through, and the next after it
// counts those held back.
func TestThrottle(t *testing.T) {
	var th throttle
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		at         time.Duration
		ok         bool
		suppressed int
	}{
		{0, true, 0},
		{time.Second, false, 0},
		{59 * time.Second, false, 0},
		{time.Minute, true, 2},
		{time.Minute + time.Second, false, 0},
		{3 * time.Minute, true, 1},
	}
	for _, s := range steps {
		n, ok := th.allow(t0.Add(s.at))
		if ok != s.ok || n != s.suppressed {
			t.Errorf("at %v: allow = %d, %v; want %d, %v", s.at, n, ok, s.suppressed, s.ok)
		}
	}
}

func TestRedactPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/webhooks/1/secret-token/messages/@original", "/webhooks/1/…/messages/@original"},
		{"/interactions/5/secret-token/callback", "/interactions/5/…/callback"},
		{"/channels/5/messages", "/channels/5/messages"},
	}
	for _, tt := range tests {
		if got := redactPath(tt.in); got != tt.want {
			t.Errorf("redactPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRewriteTransport(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.Path }))
	defer srv.Close()
	c := &http.Client{Transport: RewriteTransport("https://discord.com/api/v9/", srv.URL+"/proxy/api/v10", nil)}
	resp, err := c.Get("https://discord.com/api/v9/gateway/bot")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "/proxy/api/v10/gateway/bot" {
		t.Fatalf("request went to %q, want /proxy/api/v10/gateway/bot", got)
	}
}

func TestRESTRetries(t *testing.T) {
	tests := []struct {
		name    string
		method  string
		answers []int
		want    int // requests made
		wantErr bool
	}{
		{"rate limited, then ok", http.MethodPost, []int{429, 200}, 2, false},
		{"bad gateway on an edit, then ok", http.MethodPatch, []int{502, 200}, 2, false},
		{"bad gateway on a post is not repeated", http.MethodPost, []int{502, 200}, 1, true},
		{"service unavailable on an edit, then ok", http.MethodPatch, []int{503, 200}, 2, false},
		{"bad gateway on an edit, for ever", http.MethodPatch, []int{502}, 4, true},
		{"not found is final", http.MethodPatch, []int{404, 200}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				status := tt.answers[min(n, len(tt.answers)-1)]
				n++
				if status == 429 {
					w.Header().Set("Retry-After", "0.01")
					w.WriteHeader(status)
					io.WriteString(w, `{"message":"You are being rate limited.","retry_after":0.01,"global":false}`)
					return
				}
				w.WriteHeader(status)
				io.WriteString(w, `{"id":"5"}`)
			}))
			defer srv.Close()
			c := NewREST(srv.URL+"/api/v10", "secret-token", nil)
			var err error
			it := &discordgo.Interaction{ID: "1", AppID: "2", Token: "interaction-token"}
			if tt.method == http.MethodPost {
				_, err = c.Followup(context.Background(), it, &Message{Content: "x"})
			} else {
				_, err = c.EditOriginal(context.Background(), it, &Message{Content: "x"})
			}
			if n != tt.want || (err != nil) != tt.wantErr {
				t.Fatalf("%d requests, error %v; want %d requests, error %v", n, err, tt.want, tt.wantErr)
			}
			if auth != "Bot secret-token" {
				t.Errorf("Authorization %q", auth)
			}
			if err != nil && (strings.Contains(err.Error(), "secret-token") || strings.Contains(err.Error(), "interaction-token")) {
				t.Errorf("error %q shows a token", err)
			}
		})
	}
}

// TestExchangeSecondInitial: a handler whose first initial response timed
// out waiting for its flush (shutdown) and that answers again gets a
// plain error, not a nil *deferredErr that would be dereferenced.
func TestExchangeSecondInitial(t *testing.T) {
	ex := &exchange{ch: make(chan *Response, 1), flushed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp := &Response{Type: discordgo.InteractionResponseChannelMessageWithSource, Message: &Message{Content: "hi"}}
	if _, err := ex.initial(ctx, resp); !errors.Is(err, context.Canceled) {
		t.Fatalf("first initial with a cancelled context = %v, want context.Canceled", err)
	}
	_, err := ex.initial(context.Background(), resp)
	var de *deferredErr
	if errors.As(err, &de) || !errors.Is(err, errAnsweredOnce) {
		t.Errorf("second initial = %v (%T), want errAnsweredOnce", err, err)
	}
}

// TestReadBodyFreeSlot: a body that finds a slot free is read, however
// late the request gets to it. It used to start slotWait's timer first and
// then wait for either: a request held up past slotWait in between (a busy
// machine; here a slotWait of zero) found both ready, and was refused with
// 503 half the time, slots free (TestE2EReviewWallGame failed so under
// -race).
func TestReadBodyFreeSlot(t *testing.T) {
	e := &endpoint{smallReads: make(chan struct{}, 1), largeReads: make(chan struct{}, 1)}
	for i := range 100 {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"type":1}`))
		buf, status := e.readBody(httptest.NewRecorder(), req, "1748779200")
		if status != http.StatusOK {
			t.Fatalf("request %d: readBody = %d with a slot free, want 200", i, status)
		}
		bodyPool.Put(buf)
	}
}
