package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIURL is Discord's REST API base, used when DISCORD_API_URL is unset.
const DefaultAPIURL = "https://discord.com/api/v10"

// UserAgent is the User-Agent of every call gobot makes to Discord's API,
// in the "DiscordBot ($url, $versionNumber)" form Discord requires.
const UserAgent = "DiscordBot (https://github.com/gobot-dev/gobot, 1.0)"

// Discord is the set of REST calls gobot makes. REST implements it against
// Discord's API (or anything at DISCORD_API_URL); the console implements it by
// printing. Methods that act on an interaction use its application ID and token.
type Discord interface {
	// Callback sends the initial response to an interaction and returns
	// the message it created or updated when Discord says which (nil
	// otherwise: a deferral, an autocomplete answer).
	Callback(ctx context.Context, it *discordgo.Interaction, r *Response) (*discordgo.Message, error)
	// EditOriginal edits the initial (or deferred) response.
	EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error)
	// Original fetches the initial (or deferred) response message.
	Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error)
	// DeleteOriginal deletes the initial (or deferred) response.
	DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error
	// Followup sends a further message for an interaction.
	Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error)
	// SendMessage posts a message in a channel, outside any interaction.
	SendMessage(ctx context.Context, channelID string, m *Message) (*discordgo.Message, error)
	// EditMessage edits a message gobot posted in a channel.
	EditMessage(ctx context.Context, channelID, messageID string, m *Message) error
	// StartThread creates a public thread in a channel.
	StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error)
	// OverwriteCommands replaces the application's commands, globally or in
	// one guild when guildID is not empty. A global list without an Entry
	// Point command keeps the application's existing one, which Discord
	// refuses to drop.
	OverwriteCommands(ctx context.Context, appID, guildID string, cmds []*discordgo.ApplicationCommand) error
}

var _ Discord = (*REST)(nil)

// File is an attachment: a name, its bytes and a description that Discord
// shows as alt text.
type File struct {
	Name        string
	ContentType string
	Description string
	Data        []byte
}

// Message is an outgoing message: content, embeds, components and files.
type Message struct {
	Content         string
	Embeds          []*discordgo.MessageEmbed
	Components      []discordgo.MessageComponent
	Files           []File
	Ephemeral       bool
	AllowedMentions *discordgo.MessageAllowedMentions
	// ClearComponents sends an empty component list, removing buttons on edit.
	ClearComponents bool
	// ClearContent sends an empty content when Content is empty,
	// removing on edit a text the message had (a queue notice).
	ClearContent bool
}

// NoMentions allows no mention to ping anyone.
func NoMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// OnlyUsers allows pings of exactly these users.
func OnlyUsers(ids ...string) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: ids}
}

// attachment is the attachment object Discord reads alongside uploaded files.
type attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// wireMessage is how a Message is written in JSON for every endpoint we use.
type wireMessage struct {
	Content         *string                           `json:"content,omitempty"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      *[]discordgo.MessageComponent     `json:"components,omitempty"`
	Attachments     []attachment                      `json:"attachments,omitempty"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
}

func (m *Message) wire() *wireMessage {
	w := &wireMessage{Embeds: m.Embeds, AllowedMentions: m.AllowedMentions}
	if m.Content != "" || m.ClearContent {
		w.Content = &m.Content
	}
	if len(m.Components) > 0 || m.ClearComponents {
		c := m.Components
		if c == nil {
			c = []discordgo.MessageComponent{}
		}
		w.Components = &c
	}
	if m.Ephemeral {
		w.Flags = discordgo.MessageFlagsEphemeral
	}
	if w.AllowedMentions == nil {
		// Mentions in game messages name the players; ping only users.
		w.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}
	}
	for i, f := range m.Files {
		w.Attachments = append(w.Attachments, attachment{ID: strconv.Itoa(i), Filename: f.Name, Description: f.Description})
	}
	return w
}

// Response is an interaction response: a type and, for message responses, a
// message; for autocomplete, choices.
type Response struct {
	Type    discordgo.InteractionResponseType
	Message *Message
	Choices []*discordgo.ApplicationCommandOptionChoice
}

// MarshalJSON writes the response as Discord reads it (files excluded).
func (r *Response) MarshalJSON() ([]byte, error) {
	type out struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data any                               `json:"data,omitempty"`
	}
	o := out{Type: r.Type}
	switch {
	case r.Type == discordgo.InteractionApplicationCommandAutocompleteResult:
		choices := r.Choices
		if choices == nil {
			choices = []*discordgo.ApplicationCommandOptionChoice{}
		}
		o.Data = struct {
			Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
		}{choices}
	case r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// A deferral says only whether the answer will be private.
		if r.Message != nil && r.Message.Ephemeral {
			o.Data = struct {
				Flags discordgo.MessageFlags `json:"flags"`
			}{discordgo.MessageFlagsEphemeral}
		}
	case r.Type == discordgo.InteractionResponseDeferredMessageUpdate || r.Type == discordgo.InteractionResponsePong:
	case r.Message != nil:
		o.Data = r.Message.wire()
	}
	return json.Marshal(o)
}

// REST implements Discord over a *discordgo.Session: discordgo keeps the
// per-route rate-limit buckets (from Discord's X-RateLimit-* headers) and
// the global limit, and REST adds a context on every call, its own waits
// after a 429 (call), errors that never show a token, and the base URL of
// DISCORD_API_URL (the session's HTTP client rewrites discordgo's
// endpoints, so several sessions in one process may point at different
// bases without touching discordgo's package variables).
//
// Calls whose body discordgo's types can write go through its typed methods.
// The message calls go through its request path (RequestRaw, with the bucket
// discordgo itself would use) because discordgo's message types lack the
// attachment description Discord shows as alt text, and write absent lists
// as null, which Discord's schema refuses; so does the command overwrite.
type REST struct {
	s *discordgo.Session
}

// NewREST returns a client for the API at base (such as DefaultAPIURL)
// authenticating with the bot token. client may be nil; its transport, if
// any, carries the requests after their URL is rewritten to base.
func NewREST(base, token string, client *http.Client) *REST {
	s, _ := discordgo.New("Bot " + token) // discordgo.New never fails
	var next http.RoundTripper
	timeout := 30 * time.Second
	if client != nil {
		next, timeout = client.Transport, client.Timeout
	}
	s.Client = &http.Client{Timeout: timeout, Transport: jsonRateLimits{RewriteTransport(discordgo.EndpointAPI, base, next)}}
	s.UserAgent = UserAgent
	s.StateEnabled = false
	return &REST{s: s}
}

// Session returns the discordgo session the calls go through. The gateway
// connection uses it too, so that both share one set of rate-limit buckets.
func (c *REST) Session() *discordgo.Session { return c.s }

// restError is a non-2xx answer from the API.
type restError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *restError) Error() string {
	return fmt.Sprintf("commands: discord %s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Body)
}

func (e *restError) Unwrap() error {
	switch e.Status {
	case http.StatusUnauthorized:
		return ErrDiscordUnauthorized
	case http.StatusNotFound:
		return ErrDiscordNotFound
	case http.StatusForbidden:
		return ErrDiscordForbidden
	}
	return ErrDiscord
}

// DiscordMissingAccess is Discord's JSON error code for "Missing Access":
// an application not allowed there, such as commands registered in a
// server the bot was invited to without the applications.commands scope.
const DiscordMissingAccess = 50001

// DiscordUnknownChannel is Discord's JSON error code for a channel that
// does not exist (any more): one an admin deleted.
const DiscordUnknownChannel = 10003

// DiscordCode returns the JSON error code of the answer from Discord that
// err holds (DiscordMissingAccess, …), or 0 when it holds none.
func DiscordCode(err error) int {
	var re *restError
	if !errors.As(err, &re) {
		return 0
	}
	var body struct {
		Code int `json:"code"`
	}
	if json.Unmarshal([]byte(re.Body), &body) != nil {
		return 0
	}
	return body.Code
}

// call runs one request through fn with ctx attached, retrying what is
// safe to retry, and turns discordgo's errors into ours. endpoint is the
// full URL fn uses: errors show its path with interaction tokens elided.
//
// discordgo retries 502s up to its MaxRestRetries. A POST that met a 502
// may have been applied, so POSTs get no 502 retry; 503 and 504 are
// retried twice, for methods that cannot do anything twice.
//
// discordgo would also retry a 429 itself, after sleeping for as long as
// Discord asks, again and again and deaf to ctx: one rate-limited channel
// then held its caller (the clock's scheduler, a shutdown) for as long as
// Discord kept refusing. So it is told not to, and call waits itself, with
// ctx, when the wait asked is short (at most shortRateLimit, twice at
// most); a longer one is returned at once as a 429, which callers such as
// announceLater treat as not applied and try again later. A 429 was not
// applied, so a POST may be retried after one.
func (c *REST) call(ctx context.Context, method, endpoint string, fn func(opts ...discordgo.RequestOption) error) error {
	opts := []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
	if !idempotent(method) {
		opts = append(opts, discordgo.WithRestRetries(0))
	}
	path := redactPath("/" + strings.TrimPrefix(strings.SplitN(endpoint, "?", 2)[0], discordgo.EndpointAPI))
	for attempt, limited := 0, 0; ; {
		// discordgo waits for a bucket without watching ctx: do not start
		// a call whose caller has already gone.
		if err := ctx.Err(); err != nil {
			return err
		}
		err := fn(opts...)
		var rl *discordgo.RateLimitError
		if errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil &&
			rl.RetryAfter <= shortRateLimit && limited < rateLimitRetries {
			limited++
			if err := sleepCtx(ctx, rl.RetryAfter); err != nil {
				return err
			}
			continue
		}
		err = discordError(method, path, err)
		var re *restError
		if errors.As(err, &re) && transient(re.Status) && idempotent(method) && attempt < 2 {
			attempt++
			if err := sleepCtx(ctx, time.Duration(attempt)*250*time.Millisecond); err != nil {
				return err
			}
			continue
		}
		return err
	}
}

// shortRateLimit is the longest wait after a 429 that call sits out
// before trying again, rateLimitRetries times at most: longer, the
// caller hears of the 429 and decides.
const (
	shortRateLimit   = 5 * time.Second
	rateLimitRetries = 2
)

// discordError turns an error from discordgo into one that can be branched
// on (restError wraps ErrDiscord and friends) and that shows no token.
// authValue is a credential as an Authorization header carries it ("Bot
// MTAx…", "Bearer …"), in a body that echoes the request.
var authValue = regexp.MustCompile(`(?i)\b(Bot|Bearer)\s+[A-Za-z0-9._~+/=-]{8,}`)

func discordError(method, path string, err error) error {
	if err == nil {
		return nil
	}
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil {
		// Its own Error names the URL, which may hold an interaction token.
		after := strconv.FormatFloat(rl.RetryAfter.Seconds(), 'f', -1, 64)
		return &restError{Method: method, Path: path, Status: http.StatusTooManyRequests, Body: "rate limited: retry after " + after + "s"}
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		// An echoed Authorization header is scrubbed before the body is
		// cut: a token cut short no longer matches the log's redaction.
		body := authValue.ReplaceAllString(string(re.ResponseBody), "$1 [redacted]")
		return &restError{Method: method, Path: path, Status: re.Response.StatusCode, Body: truncate(body, 300)}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		// url.Error prints the URL, which may hold an interaction token.
		return fmt.Errorf("commands: discord %s %s: %w", method, path, ue.Err)
	}
	if errors.Is(err, discordgo.ErrJSONUnmarshal) {
		return fmt.Errorf("commands: discord %s %s: decode answer: %w", method, path, err)
	}
	// discordgo's "Exceeded Max retries HTTP 502 …" and body encoding errors.
	return fmt.Errorf("commands: discord %s %s: %w: %w", method, path, ErrDiscord, err)
}

// send writes body (with files as multipart when there are any) to endpoint
// through discordgo's request path and rate-limit bucket, and decodes the
// answer into out when out is not nil.
func (c *REST) send(ctx context.Context, method, endpoint, bucket string, body any, files []File, out any) error {
	var (
		payload []byte
		ctype   = "application/json"
		err     error
	)
	if len(files) > 0 {
		dfiles := make([]*discordgo.File, len(files))
		for i, f := range files {
			dfiles[i] = &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}
		}
		ctype, payload, err = discordgo.MultipartBodyWithJSON(body, dfiles)
	} else if body != nil {
		payload, err = json.Marshal(body)
	}
	if err != nil {
		return fmt.Errorf("commands: encode %s body: %w", method, err)
	}
	return c.call(ctx, method, endpoint, func(opts ...discordgo.RequestOption) error {
		resp, err := c.s.RequestRaw(method, endpoint, ctype, payload, bucket, 0, opts...)
		if err == nil && out != nil && len(resp) > 0 {
			err = discordgo.Unmarshal(resp, out)
			if err != nil {
				err = fmt.Errorf("%w: %w", discordgo.ErrJSONUnmarshal, err)
			}
		}
		return err
	})
}

// unapplied reports whether err is Discord's failure to do a request that
// it certainly did not do, so that trying it again later does nothing
// twice: an outage's 503, a rate limit's 429, a 500, or no answer at all
// (the connection refused). A 502 or a timeout may have been applied.
func unapplied(err error) bool {
	var re *restError
	if errors.As(err, &re) {
		return re.Status == http.StatusServiceUnavailable || re.Status == http.StatusTooManyRequests || re.Status == http.StatusInternalServerError
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// transient reports whether a status says Discord's edge failed, not the request.
func transient(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// idempotent reports whether repeating a request of this method cannot do
// anything twice.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// redactPath hides interaction tokens in webhook and callback paths.
func redactPath(p string) string {
	parts := strings.Split(p, "/")
	for i := 1; i+2 < len(parts); i++ {
		if parts[i] == "webhooks" || parts[i] == "interactions" {
			parts[i+2] = "…"
		}
	}
	return strings.Join(parts, "/")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Callback implements Discord. It asks for the callback's resource
// (with_response), so that a board sent as the initial response is known
// by its message ID as one sent any other way is.
func (c *REST) Callback(ctx context.Context, it *discordgo.Interaction, r *Response) (*discordgo.Message, error) {
	var files []File
	if r.Message != nil {
		files = r.Message.Files
	}
	ep := discordgo.EndpointInteractionResponse(it.ID, it.Token)
	var out callbackResponse
	if err := c.send(ctx, http.MethodPost, ep+"?with_response=true", ep, r, files, &out); err != nil {
		return nil, err
	}
	if out.Resource == nil || out.Resource.Message == nil || out.Resource.Message.ID == "" {
		return nil, nil
	}
	return out.Resource.Message, nil
}

// callbackResponse is Discord's answer to an interaction callback sent
// with_response: the message the response created or updated, if any.
type callbackResponse struct {
	Resource *struct {
		Message *discordgo.Message `json:"message"`
	} `json:"resource"`
}

// EditOriginal implements Discord.
func (c *REST) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	var out discordgo.Message
	ep := discordgo.EndpointWebhookMessage(it.AppID, it.Token, "@original")
	err := c.send(ctx, http.MethodPatch, ep, ep, m.wire(), m.Files, &out)
	return &out, err
}

// Original implements Discord.
func (c *REST) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	var out *discordgo.Message
	err := c.call(ctx, http.MethodGet, discordgo.EndpointWebhookMessage(it.AppID, it.Token, "@original"), func(opts ...discordgo.RequestOption) (err error) {
		out, err = c.s.InteractionResponse(it, opts...)
		return err
	})
	if out == nil {
		out = &discordgo.Message{}
	}
	return out, err
}

// DeleteOriginal implements Discord.
func (c *REST) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error {
	return c.call(ctx, http.MethodDelete, discordgo.EndpointInteractionResponseActions(it.AppID, it.Token), func(opts ...discordgo.RequestOption) error {
		return c.s.InteractionResponseDelete(it, opts...)
	})
}

// Followup implements Discord.
func (c *REST) Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	var out discordgo.Message
	ep := discordgo.EndpointWebhookToken(it.AppID, it.Token)
	err := c.send(ctx, http.MethodPost, ep+"?wait=true", ep, m.wire(), m.Files, &out)
	return &out, err
}

// SendMessage implements Discord.
func (c *REST) SendMessage(ctx context.Context, channelID string, m *Message) (*discordgo.Message, error) {
	w := m.wire()
	w.Flags = 0 // ephemeral only exists for interaction responses
	var out discordgo.Message
	ep := discordgo.EndpointChannelMessages(channelID)
	err := c.send(ctx, http.MethodPost, ep, ep, w, m.Files, &out)
	return &out, err
}

// EditMessage implements Discord.
func (c *REST) EditMessage(ctx context.Context, channelID, messageID string, m *Message) error {
	w := m.wire()
	w.Flags = 0
	// discordgo buckets message edits by channel, as Discord does.
	return c.send(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(channelID, messageID), discordgo.EndpointChannelMessage(channelID, ""), w, m.Files, nil)
}

// StartThread implements Discord.
func (c *REST) StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error) {
	var out *discordgo.Channel
	err := c.call(ctx, http.MethodPost, discordgo.EndpointChannelThreads(channelID), func(opts ...discordgo.RequestOption) (err error) {
		out, err = c.s.ThreadStartComplex(channelID, &discordgo.ThreadStart{
			Name: truncate(name, 95), Type: discordgo.ChannelTypeGuildPublicThread, AutoArchiveDuration: 10080,
		}, opts...)
		return err
	})
	if out == nil {
		out = &discordgo.Channel{}
	}
	return out, err
}

// OverwriteCommands implements Discord.
func (c *REST) OverwriteCommands(ctx context.Context, appID, guildID string, cmds []*discordgo.ApplicationCommand) error {
	ep := discordgo.EndpointApplicationGlobalCommands(appID)
	if guildID != "" {
		ep = discordgo.EndpointApplicationGuildCommands(appID, guildID)
	}
	body, err := withoutNulls(cmds)
	if err == nil && guildID == "" && !slices.ContainsFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Type == primaryEntryPoint }) {
		body, err = c.keepEntryPoint(ctx, ep, body)
	}
	if err == nil {
		body, err = withEntryPointHandler(body)
	}
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, ep, ep, body, nil, nil)
}

// entryPointFields are the members of an existing command that a bulk
// overwrite takes (ApplicationCommandUpdateRequest in Discord's spec).
var entryPointFields = []string{
	"id", "type", "handler", "name", "name_localizations", "description", "description_localizations",
	"options", "default_member_permissions", "dm_permission", "contexts", "integration_types",
}

// keepEntryPoint adds to body, an encoded global command list without an
// Entry Point command, the application's existing Entry Point command as
// it is: Discord refuses a global overwrite that drops it (error 50240),
// and enabling Activities in the Developer Portal creates one ("Launch")
// whether or not gobot serves the Activity. ep is the global commands'
// endpoint.
func (c *REST) keepEntryPoint(ctx context.Context, ep string, body json.RawMessage) (json.RawMessage, error) {
	var existing []map[string]any
	if err := c.send(ctx, http.MethodGet, ep+"?with_localizations=true", ep, nil, nil, &existing); err != nil {
		return nil, fmt.Errorf("commands: read the existing commands to keep an Entry Point: %w", err)
	}
	var kept []map[string]any
	for _, e := range existing {
		if t, _ := e["type"].(float64); int(t) != int(primaryEntryPoint) {
			continue
		}
		k := map[string]any{}
		for _, f := range entryPointFields {
			if v, ok := e[f]; ok && v != nil {
				k[f] = v
			}
		}
		// Answers write permissions as a string, requests as an integer.
		if p, ok := k["default_member_permissions"].(string); ok {
			n, err := strconv.ParseInt(p, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("commands: the Entry Point's default_member_permissions %q: %w", p, err)
			}
			k["default_member_permissions"] = n
		}
		kept = append(kept, k)
	}
	if len(kept) == 0 {
		return body, nil
	}
	var list []any
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("commands: encode: %w", err)
	}
	for _, k := range kept {
		list = append(list, k)
	}
	out, err := json.Marshal(list)
	if err != nil {
		return nil, fmt.Errorf("commands: encode: %w", err)
	}
	return out, nil
}

// withoutNulls encodes v as JSON with every null member left out: discordgo
// writes absent lists as null, which Discord's schema does not allow. It
// also writes default_member_permissions as an integer, as the schema of
// a command's creation has it (discordgo writes the string of its answers).
func withoutNulls(v any) (json.RawMessage, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("commands: encode: %w", err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("commands: encode: %w", err)
	}
	var prune func(any) any
	prune = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for k, v := range t {
				if v == nil {
					delete(t, k)
				} else if n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64); k == "default_member_permissions" && err == nil {
					t[k] = n
				} else {
					t[k] = prune(v)
				}
			}
		case []any:
			for i, v := range t {
				t[i] = prune(v)
			}
		}
		return x
	}
	out, err := json.Marshal(prune(tree))
	if err != nil {
		return nil, fmt.Errorf("commands: encode: %w", err)
	}
	return out, nil
}

// Application asks Discord for gobot's application, the one whose token
// the REST client holds: its ID (DISCORD_APP_ID when that is not
// configured) and its public key (VerifyKey), which signs interactions.
func (c *REST) Application(ctx context.Context) (*discordgo.Application, error) {
	// Session.Application reads /oauth2/applications/@me and takes no
	// context; /applications/@me is gobot's own application.
	var app *discordgo.Application
	ep := discordgo.EndpointApplication("@me")
	if err := c.send(ctx, http.MethodGet, ep, ep, nil, nil, &app); err != nil {
		return nil, err
	}
	if app == nil || app.ID == "" {
		return nil, fmt.Errorf("commands: discord GET /applications/@me: no id in answer: %w", ErrDiscord)
	}
	return app, nil
}

// RecommendedShards asks Discord how many gateway shards gobot should
// run (GET /gateway/bot), at least 1.
func (c *REST) RecommendedShards(ctx context.Context) (int, error) {
	var gb *discordgo.GatewayBotResponse
	err := c.call(ctx, http.MethodGet, discordgo.EndpointGatewayBot, func(opts ...discordgo.RequestOption) (err error) {
		gb, err = c.s.GatewayBot(opts...)
		return err
	})
	if err != nil {
		return 0, err
	}
	return max(gb.Shards, 1), nil
}

// RewriteTransport returns a RoundTripper that sends requests whose URL
// starts with from to the same path under to, and everything else
// unchanged, through next (http.DefaultTransport when nil). It points
// discordgo's hard-wired REST URLs at DISCORD_API_URL without touching
// discordgo's package variables.
func RewriteTransport(from, to string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return rewriter{from: from, to: strings.TrimRight(to, "/") + "/", next: next}
}

type rewriter struct {
	from, to string
	next     http.RoundTripper
}

func (rw rewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	if !strings.HasPrefix(u, rw.from) || rw.from == rw.to {
		return rw.next.RoundTrip(req)
	}
	nu, err := url.Parse(rw.to + strings.TrimPrefix(u, rw.from))
	if err != nil {
		return nil, fmt.Errorf("commands: rewrite %s: %w", redactPath(req.URL.Path), err)
	}
	r2 := req.Clone(req.Context())
	r2.URL = nu
	r2.Host = nu.Host
	return rw.next.RoundTrip(r2)
}

// jsonRateLimits is a RoundTripper that gives a 429 whose body is not
// Discord's JSON (Cloudflare's "error code: 1015", a proxy's page) the
// body Discord's own 429s have, {"message":…,"retry_after":N,"global":false},
// with N the seconds of its Retry-After header (defaultRetryAfter when
// that is absent or unreadable). discordgo reads a 429's wait from its
// body only: one it cannot decode ended as a decoding error, logged by
// discordgo in plain text, instead of a rate limit call can wait out.
type jsonRateLimits struct{ next http.RoundTripper }

// defaultRetryAfter is the wait assumed after a 429 that names none.
const defaultRetryAfter = 60 * time.Second

func (t jsonRateLimits) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("commands: read a 429's body from %s: %w", redactPath(req.URL.Path), err)
	}
	var dg struct {
		RetryAfter *float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &dg) != nil || dg.RetryAfter == nil {
		after := defaultRetryAfter.Seconds()
		if s, err := strconv.ParseFloat(strings.TrimSpace(resp.Header.Get("Retry-After")), 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
			after = s
		}
		msg := truncate(strings.TrimSpace(string(body)), 200)
		if msg == "" {
			msg = "You are being rate limited."
		}
		body, _ = json.Marshal(map[string]any{"message": msg, "retry_after": after, "global": false})
		resp.Header.Set("Content-Type", "application/json")
		resp.Header.Del("Content-Length")
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	return resp, nil
}
