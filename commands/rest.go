package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIURL is Discord's REST API base, used when DISCORD_API_URL is unset.
const DefaultAPIURL = "https://discord.com/api/v10"

// userAgent follows Discord's required "DiscordBot (url, version)" form.
const userAgent = "DiscordBot (https://github.com/gobot-dev/gobot, 1.0)"

// Discord is the set of REST calls the bot makes. REST implements it against
// Discord's API (or anything at DISCORD_API_URL); the console implements it by
// printing. Methods that act on an interaction use its application ID and token.
type Discord interface {
	// Callback sends the initial response to an interaction.
	Callback(ctx context.Context, it *discordgo.Interaction, r *Response) error
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
	// EditMessage edits a message the bot posted in a channel.
	EditMessage(ctx context.Context, channelID, messageID string, m *Message) error
	// StartThread creates a public thread in a channel.
	StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error)
	// OverwriteCommands replaces the application's commands, globally or in
	// one guild when guildID is not empty.
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
}

// noMentions allows no mention to ping anyone.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// onlyUsers allows pings of exactly these users.
func onlyUsers(ids ...string) *discordgo.MessageAllowedMentions {
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
	Content         string                            `json:"content,omitempty"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      *[]discordgo.MessageComponent     `json:"components,omitempty"`
	Attachments     []attachment                      `json:"attachments,omitempty"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
}

func (m *Message) wire() *wireMessage {
	w := &wireMessage{Content: m.Content, Embeds: m.Embeds, AllowedMentions: m.AllowedMentions}
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

// REST is a small Discord REST client: the calls in Discord and nothing more,
// with every request sent to one base URL (DISCORD_API_URL), a context on each
// call and retries on rate limits (HTTP 429). It never logs or prints the token.
type REST struct {
	base   string
	token  string
	client *http.Client
}

// NewREST returns a client for the API at base (such as DefaultAPIURL)
// authenticating with the bot token. client may be nil.
func NewREST(base, token string, client *http.Client) *REST {
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	return &REST{base: strings.TrimRight(base, "/"), token: token, client: client}
}

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
	case http.StatusNotFound:
		return ErrDiscordNotFound
	case http.StatusForbidden:
		return ErrDiscordForbidden
	}
	return ErrDiscord
}

// do sends a request with a JSON body (and files as multipart when present)
// and decodes a JSON answer into out when out is not nil. path is logged in
// errors with interaction tokens elided.
func (c *REST) do(ctx context.Context, method, path string, body any, files []File, out any) error {
	var (
		payload []byte
		ctype   string
	)
	if body != nil {
		js, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("commands: encode %s body: %w", method, err)
		}
		payload, ctype = js, "application/json"
		if len(files) > 0 {
			payload, ctype, err = multipartBody(js, files)
			if err != nil {
				return err
			}
		}
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(payload))
		if err != nil {
			return fmt.Errorf("commands: discord request: %w", err)
		}
		if payload != nil {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bot "+c.token)
		req.Header.Set("User-Agent", userAgent)
		resp, err := c.client.Do(req)
		if err != nil {
			// The URL may hold an interaction token; url.Error prints it.
			return fmt.Errorf("commands: discord %s %s: %w", method, redactPath(path), errors.Unwrap(err))
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("commands: discord %s %s: read answer: %w", method, redactPath(path), err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && attempt < 3 {
			if err := sleepCtx(ctx, retryAfter(resp.Header, data)); err != nil {
				return err
			}
			continue
		}
		if transient(resp.StatusCode) && idempotent(method) && attempt < 2 {
			// A gateway hiccup: repeat what is safe to repeat. A POST
			// might have been applied, so it is not repeated.
			if err := sleepCtx(ctx, time.Duration(attempt+1)*250*time.Millisecond); err != nil {
				return err
			}
			continue
		}
		if resp.StatusCode/100 != 2 {
			return &restError{Method: method, Path: redactPath(path), Status: resp.StatusCode, Body: truncate(string(data), 300)}
		}
		if out != nil && len(data) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("commands: discord %s %s: decode answer: %w", method, redactPath(path), err)
			}
		}
		return nil
	}
}

func multipartBody(js []byte, files []File) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	p, err := w.CreatePart(h)
	if err == nil {
		_, err = p.Write(js)
	}
	for i, f := range files {
		if err != nil {
			break
		}
		h := make(textproto.MIMEHeader)
		name := strings.NewReplacer(`"`, "", "\\", "", "\r", "", "\n", "").Replace(f.Name)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename="%s"`, i, name))
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		if p, err = w.CreatePart(h); err == nil {
			_, err = p.Write(f.Data)
		}
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, "", fmt.Errorf("commands: build multipart body: %w", err)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
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

// retryAfter reads how long Discord asks us to wait, capped at 30 s.
func retryAfter(h http.Header, body []byte) time.Duration {
	d := time.Second
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil {
		d = time.Duration(s * float64(time.Second))
	} else {
		var v struct {
			RetryAfter float64 `json:"retry_after"`
		}
		if json.Unmarshal(body, &v) == nil && v.RetryAfter > 0 {
			d = time.Duration(v.RetryAfter * float64(time.Second))
		}
	}
	return min(max(d, 50*time.Millisecond), 30*time.Second)
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

// Callback implements Discord.
func (c *REST) Callback(ctx context.Context, it *discordgo.Interaction, r *Response) error {
	var files []File
	if r.Message != nil {
		files = r.Message.Files
	}
	return c.do(ctx, http.MethodPost, "/interactions/"+it.ID+"/"+it.Token+"/callback", r, files, nil)
}

// EditOriginal implements Discord.
func (c *REST) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	var out discordgo.Message
	err := c.do(ctx, http.MethodPatch, "/webhooks/"+it.AppID+"/"+it.Token+"/messages/@original", m.wire(), m.Files, &out)
	return &out, err
}

// Original implements Discord.
func (c *REST) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	var out discordgo.Message
	err := c.do(ctx, http.MethodGet, "/webhooks/"+it.AppID+"/"+it.Token+"/messages/@original", nil, nil, &out)
	return &out, err
}

// DeleteOriginal implements Discord.
func (c *REST) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error {
	return c.do(ctx, http.MethodDelete, "/webhooks/"+it.AppID+"/"+it.Token+"/messages/@original", nil, nil, nil)
}

// Followup implements Discord.
func (c *REST) Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	var out discordgo.Message
	err := c.do(ctx, http.MethodPost, "/webhooks/"+it.AppID+"/"+it.Token+"?wait=true", m.wire(), m.Files, &out)
	return &out, err
}

// SendMessage implements Discord.
func (c *REST) SendMessage(ctx context.Context, channelID string, m *Message) (*discordgo.Message, error) {
	w := m.wire()
	w.Flags = 0 // ephemeral only exists for interaction responses
	var out discordgo.Message
	err := c.do(ctx, http.MethodPost, "/channels/"+channelID+"/messages", w, m.Files, &out)
	return &out, err
}

// EditMessage implements Discord.
func (c *REST) EditMessage(ctx context.Context, channelID, messageID string, m *Message) error {
	w := m.wire()
	w.Flags = 0
	return c.do(ctx, http.MethodPatch, "/channels/"+channelID+"/messages/"+messageID, w, m.Files, nil)
}

// StartThread implements Discord.
func (c *REST) StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error) {
	body := struct {
		Name                string                `json:"name"`
		Type                discordgo.ChannelType `json:"type"`
		AutoArchiveDuration int                   `json:"auto_archive_duration"`
	}{truncate(name, 95), discordgo.ChannelTypeGuildPublicThread, 10080}
	var out discordgo.Channel
	err := c.do(ctx, http.MethodPost, "/channels/"+channelID+"/threads", body, nil, &out)
	return &out, err
}

// OverwriteCommands implements Discord.
func (c *REST) OverwriteCommands(ctx context.Context, appID, guildID string, cmds []*discordgo.ApplicationCommand) error {
	path := "/applications/" + appID + "/commands"
	if guildID != "" {
		path = "/applications/" + appID + "/guilds/" + guildID + "/commands"
	}
	body, err := withoutNulls(cmds)
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodPut, path, body, nil, nil)
}

// withoutNulls encodes v as JSON with every null member left out: discordgo
// writes absent lists as null, which Discord's schema does not allow.
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

// ApplicationID asks Discord for the bot's application ID (used when
// DISCORD_APP_ID is not configured).
func (c *REST) ApplicationID(ctx context.Context) (string, error) {
	var app struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, http.MethodGet, "/applications/@me", nil, nil, &app); err != nil {
		return "", err
	}
	if app.ID == "" {
		return "", fmt.Errorf("commands: discord GET /applications/@me: no id in answer: %w", ErrDiscord)
	}
	return app.ID, nil
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
