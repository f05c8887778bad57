package discordtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Attachment is a file attached to a message, with the bytes the bot
// uploaded.
type Attachment struct {
	ID          string
	Filename    string
	Description string
	ContentType string
	Data        []byte
}

// Embed is the part of an embed tests look at.
type Embed struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Color       int    `json:"color"`
	Image       *struct {
		URL string `json:"url"`
	} `json:"image"`
	Thumbnail *struct {
		URL string `json:"url"`
	} `json:"thumbnail"`
	Fields []struct {
		Name   string `json:"name"`
		Value  string `json:"value"`
		Inline bool   `json:"inline"`
	} `json:"fields"`
	Footer *struct {
		Text string `json:"text"`
	} `json:"footer"`
	Author *struct {
		Name string `json:"name"`
	} `json:"author"`
}

// Component is a message component (action rows hold buttons and selects).
type Component struct {
	Type       int         `json:"type"`
	Style      int         `json:"style"`
	Label      string      `json:"label"`
	CustomID   string      `json:"custom_id"`
	URL        string      `json:"url"`
	Disabled   bool        `json:"disabled"`
	Components []Component `json:"components"`
}

// Message is the fake's record of a message, as it looks after every edit.
type Message struct {
	ID        string
	ChannelID string
	Content   string
	// Pings are the users the content's mentions notify, as its
	// allowed_mentions let them (all mentioned users without it).
	Pings  []string
	Embeds []Embed
	// Components are the action rows.
	Components  []Component
	Attachments []Attachment
	Flags       int
	// Ephemeral messages are seen only by VisibleTo.
	Ephemeral bool
	VisibleTo string
	// Deferred is a "thinking…" placeholder not yet edited.
	Deferred bool
	// InteractionID is set on responses and follow-ups to an interaction.
	InteractionID string
	Edits         int
	Deleted       bool
	Created       time.Time

	rawEmbeds     []any
	rawComponents []any
}

// Buttons lists the message's buttons in order, across action rows.
func (m Message) Buttons() []Component {
	var out []Component
	var walk func([]Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			if c.Type == 2 {
				out = append(out, c)
			}
			walk(c.Components)
		}
	}
	walk(m.Components)
	return out
}

// Button returns the first button whose label or custom ID contains s
// (case-insensitive).
func (m Message) Button(s string) (Component, bool) {
	s = strings.ToLower(s)
	for _, b := range m.Buttons() {
		if strings.Contains(strings.ToLower(b.Label), s) || strings.Contains(strings.ToLower(b.CustomID), s) {
			return b, true
		}
	}
	return Component{}, false
}

// Text is the content and every embed's visible text, for "contains"
// checks.
func (m Message) Text() string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		for _, s := range []string{e.Title, e.Description} {
			b.WriteString("\n" + s)
		}
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + ": " + f.Value)
		}
		if e.Footer != nil {
			b.WriteString("\n" + e.Footer.Text)
		}
		if e.Author != nil {
			b.WriteString("\n" + e.Author.Name)
		}
	}
	return b.String()
}

// PNG returns the first attachment that is a PNG image.
func (m Message) PNG() (Attachment, bool) {
	for _, a := range m.Attachments {
		if bytes.HasPrefix(a.Data, []byte("\x89PNG\r\n\x1a\n")) {
			return a, true
		}
	}
	return Attachment{}, false
}

// object is the message as Discord's API returns it.
// flagLoading is the flag of a deferred answer still "thinking…"
// (Discord's LOADING).
const flagLoading = 1 << 7

func (m Message) object(s *Server) map[string]any {
	atts := make([]any, 0, len(m.Attachments))
	for _, a := range m.Attachments {
		ct := a.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		url := "https://cdn.discordapp.com/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
		o := map[string]any{"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": url, "proxy_url": url, "content_type": ct}
		if a.Description != "" {
			o["description"] = a.Description
		}
		atts = append(atts, o)
	}
	embeds := make([]any, 0, len(m.rawEmbeds))
	for _, e := range m.rawEmbeds {
		embeds = append(embeds, embedResponse(e))
	}
	flags := m.Flags
	if m.Deferred {
		flags |= flagLoading
	}
	o := map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "type": 0, "content": m.Content,
		"author":      s.botUser(),
		"attachments": atts, "embeds": embeds, "mentions": []any{}, "mention_roles": []any{},
		"mention_everyone": false, "pinned": false, "tts": false,
		"timestamp": m.Created.UTC().Format("2006-01-02T15:04:05.000000+00:00"), "edited_timestamp": nil,
		"flags": flags, "components": componentsResponse(m.rawComponents, new(int)),
	}
	if m.Edits > 0 {
		o["edited_timestamp"] = m.Created.UTC().Format("2006-01-02T15:04:05.000000+00:00")
	}
	if m.InteractionID != "" {
		o["webhook_id"] = s.AppID
		o["application_id"] = s.AppID
	}
	return o
}

// decodeInto re-decodes a JSON value into a typed one.
func decodeInto(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// embedResponse is an embed as Discord returns it: with its type, and
// inline set on every field.
func embedResponse(e any) any {
	m, ok := e.(map[string]any)
	if !ok {
		return e
	}
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	if _, ok := out["type"]; !ok {
		out["type"] = "rich"
	}
	if fields, ok := out["fields"].([]any); ok {
		fs := make([]any, 0, len(fields))
		for _, f := range fields {
			fm, _ := f.(map[string]any)
			cp := map[string]any{"inline": false}
			for k, v := range fm {
				cp[k] = v
			}
			fs = append(fs, cp)
		}
		out["fields"] = fs
	}
	return out
}

// componentsResponse numbers components as Discord does in responses.
func componentsResponse(cs []any, next *int) []any {
	out := make([]any, 0, len(cs))
	for _, c := range cs {
		m, ok := c.(map[string]any)
		if !ok {
			out = append(out, c)
			continue
		}
		cp := make(map[string]any, len(m)+1)
		for k, v := range m {
			cp[k] = v
		}
		*next++
		if _, ok := cp["id"]; !ok {
			cp["id"] = *next
		}
		if sub, ok := m["components"].([]any); ok {
			cp["components"] = componentsResponse(sub, next)
		}
		out = append(out, cp)
	}
	return out
}
