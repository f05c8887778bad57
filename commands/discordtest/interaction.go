package discordtest

import (
	"encoding/json"
	"strconv"
	"time"
)

// Interaction types, as Discord numbers them.
const (
	TypePing                           = 1
	TypeApplicationCommand             = 2
	TypeMessageComponent               = 3
	TypeApplicationCommandAutocomplete = 4
)

// Interaction callback (response) types.
const (
	CallbackPong                             = 1
	CallbackChannelMessageWithSource         = 4
	CallbackDeferredChannelMessageWithSource = 5
	CallbackDeferredUpdateMessage            = 6
	CallbackUpdateMessage                    = 7
	CallbackAutocompleteResult               = 8
	CallbackLaunchActivity                   = 12
)

// Channel types.
const (
	ChannelGuildText         = 0
	ChannelDM                = 1
	ChannelCategory          = 4
	ChannelGuildAnnouncement = 5
	ChannelPublicThread      = 11
	ChannelGuildForum        = 15
)

// Option types of application command options.
const (
	OptionSubCommand      = 1
	OptionSubCommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionNumber          = 10
)

// Permission bits used in member and app permissions.
const (
	PermAdministrator         uint64 = 1 << 3
	PermManageGuild           uint64 = 1 << 5
	PermViewChannel           uint64 = 1 << 10
	PermSendMessages          uint64 = 1 << 11
	PermManageMessages        uint64 = 1 << 13
	PermEmbedLinks            uint64 = 1 << 14
	PermAttachFiles           uint64 = 1 << 15
	PermReadMessageHistory    uint64 = 1 << 16
	PermUseApplicationCommand uint64 = 1 << 31
	PermManageThreads         uint64 = 1 << 34
	PermCreatePublicThreads   uint64 = 1 << 35
	PermSendMessagesInThreads uint64 = 1 << 38

	// PermMember is what an ordinary member has in a channel.
	PermMember = PermViewChannel | PermSendMessages | PermEmbedLinks | PermAttachFiles |
		PermReadMessageHistory | PermUseApplicationCommand | PermCreatePublicThreads | PermSendMessagesInThreads
	// PermModerator adds Manage Messages.
	PermModerator = PermMember | PermManageMessages
	// PermServerAdmin adds Manage Server (and Manage Messages), what
	// /go-admin asks for.
	PermServerAdmin = PermModerator | PermManageGuild
	// PermBot is what the invite link grants the bot.
	PermBot = PermViewChannel | PermSendMessages | PermEmbedLinks | PermAttachFiles |
		PermReadMessageHistory | PermCreatePublicThreads | PermSendMessagesInThreads
)

// User is a Discord user taking part in a test.
type User struct {
	ID       string
	Username string
	// Permissions in guild channels; zero means PermMember.
	Permissions uint64
	// Bot marks a bot account.
	Bot bool
	// Role is the ID of a role the user has on the test guild, as their
	// member object in an interaction lists it ("" for none; one is
	// enough for the tests, and keeps User comparable).
	Role string
}

// Mention is how a message mentions the user.
func (u User) Mention() string { return "<@" + u.ID + ">" }

// roleList is the user's roles as a member object lists them.
func (u User) roleList() []any {
	if u.Role == "" {
		return []any{}
	}
	return []any{u.Role}
}

func (u User) object() map[string]any {
	o := map[string]any{
		"id": u.ID, "username": u.Username, "discriminator": "0", "global_name": u.Username,
		"avatar": AvatarHash(u), "public_flags": 0, "flags": 0, "primary_guild": nil,
	}
	if u.Bot {
		o["bot"] = true
		o["global_name"] = nil
	}
	return o
}

func (u User) perms() uint64 {
	if u.Permissions == 0 {
		return PermMember
	}
	return u.Permissions
}

// Channel is a place where interactions happen: a guild text channel, a
// public thread or a DM.
type Channel struct {
	ID       string
	Type     int
	GuildID  string // "" for DMs
	Name     string
	ParentID string // threads: the channel the thread is in
	// Recipient is the other user of a DM.
	Recipient User
	// Private marks a DM between two users (or a group DM) where the app
	// is used through a user install: the bot is not a member, so only
	// interaction responses and follow-ups reach it; channel endpoints
	// answer 403 Missing Access.
	Private bool
	// AppPermissions are the bot's permissions in a guild channel, as
	// interactions there report them; zero means PermBot.
	AppPermissions uint64
	// Archived marks a thread archived (PATCH /channels/{id}); a message
	// posted in it unarchives it.
	Archived bool
	// Hidden marks a private channel of the guild: its permission
	// overwrites deny @everyone (the role whose ID is the guild's) View
	// Channel, as Discord's "Private Channel" switch does, and allow it
	// to the roles of ViewRoles.
	Hidden    bool
	ViewRoles []string
}

func (c *Channel) object() map[string]any {
	o := map[string]any{"id": c.ID, "type": c.Type, "flags": 0, "last_message_id": nil}
	switch c.Type {
	case ChannelDM:
		o["recipients"] = []any{c.Recipient.object()}
	default:
		o["guild_id"] = c.GuildID
		o["name"] = c.Name
		o["position"] = 0
		o["permission_overwrites"] = []any{}
		if c.Hidden {
			ows := []any{map[string]any{"id": c.GuildID, "type": 0, "allow": "0", "deny": "1024"}}
			for _, r := range c.ViewRoles {
				ows = append(ows, map[string]any{"id": r, "type": 0, "allow": "1024", "deny": "0"})
			}
			o["permission_overwrites"] = ows
		}
		o["nsfw"] = false
		o["rate_limit_per_user"] = 0
		if c.Type == ChannelPublicThread {
			o["parent_id"] = c.ParentID
			o["owner_id"] = ""
			o["thread_metadata"] = map[string]any{"archived": c.Archived, "auto_archive_duration": 10080, "archive_timestamp": time.Now().UTC().Format(time.RFC3339), "locked": false}
			o["member_count"] = 1
			o["message_count"] = 0
			o["total_message_sent"] = 0
			delete(o, "permission_overwrites")
		} else {
			o["parent_id"] = nil
			o["topic"] = nil
		}
	}
	return o
}

// Option is one option of a slash command as Discord sends it.
type Option struct {
	Name    string
	Type    int
	Value   any
	Focused bool
	Options []Option
}

// Sub is a subcommand with its options.
func Sub(name string, opts ...Option) Option {
	return Option{Name: name, Type: OptionSubCommand, Options: opts}
}

// Str is a string option.
func Str(name, v string) Option { return Option{Name: name, Type: OptionString, Value: v} }

// Int is an integer option.
func Int(name string, v int) Option { return Option{Name: name, Type: OptionInteger, Value: v} }

// Num is a number option.
func Num(name string, v float64) Option { return Option{Name: name, Type: OptionNumber, Value: v} }

// Bool is a boolean option.
func Bool(name string, v bool) Option { return Option{Name: name, Type: OptionBoolean, Value: v} }

// UserOpt is a user option; the user is added to the payload's resolved data.
func UserOpt(name string, u User) Option {
	return Option{Name: name, Type: OptionUser, Value: u}
}

// Focused marks a string option as the one being typed (autocomplete).
func Focused(name, partial string) Option {
	return Option{Name: name, Type: OptionString, Value: partial, Focused: true}
}

// Interaction is an interaction as the fake Discord sends it to the bot.
type Interaction struct {
	ID      string
	Token   string
	Type    int
	Channel *Channel
	User    User
	// MessageID is the message a component interaction comes from.
	MessageID string
	// Payload is the JSON body, as signed and posted.
	Payload map[string]any
}

// JSON encodes the payload.
func (it *Interaction) JSON() []byte {
	b, err := json.Marshal(it.Payload)
	if err != nil {
		// Payloads are built from maps of JSON-safe values.
		panic("discordtest: encode interaction: " + err.Error())
	}
	return b
}

// optionsJSON turns options into Discord's shape and collects the users
// that resolved must describe.
func optionsJSON(opts []Option, users map[string]User) []any {
	out := make([]any, 0, len(opts))
	for _, o := range opts {
		m := map[string]any{"name": o.Name, "type": o.Type}
		switch v := o.Value.(type) {
		case nil:
		case User:
			m["value"] = v.ID
			users[v.ID] = v
		default:
			m["value"] = v
		}
		if o.Focused {
			m["focused"] = true
		}
		if len(o.Options) > 0 || o.Type == OptionSubCommand || o.Type == OptionSubCommandGroup {
			m["options"] = optionsJSON(o.Options, users)
		}
		out = append(out, m)
	}
	return out
}

// base builds the fields every interaction shares, for user u in channel ch.
func (s *Server) base(typ int, ch *Channel, u User) *Interaction {
	it := &Interaction{ID: s.nextID(), Token: "aW50ZXJhY3Rpb246" + s.nextID() + "OlRva2Vu", Type: typ, Channel: ch, User: u}
	p := map[string]any{
		"id": it.ID, "application_id": s.AppID, "type": typ, "token": it.Token, "version": 1,
		"locale": "en-US", "entitlements": []any{}, "attachment_size_limit": 10485760,
	}
	if ch != nil {
		p["channel_id"] = ch.ID
		p["channel"] = ch.object()
		if ch.GuildID != "" {
			p["guild_id"] = ch.GuildID
			p["guild"] = map[string]any{"id": ch.GuildID, "locale": "en-US", "features": []any{}}
			p["guild_locale"] = "en-US"
			p["member"] = map[string]any{
				"user": u.object(), "roles": u.roleList(), "joined_at": "2024-01-02T03:04:05.000000+00:00",
				"permissions": strconv.FormatUint(u.perms(), 10), "nick": nil, "avatar": nil,
				"deaf": false, "mute": false, "flags": 0, "pending": false, "premium_since": nil,
			}
			perms := ch.AppPermissions
			if perms == 0 {
				perms = PermBot
			}
			p["app_permissions"] = strconv.FormatUint(perms, 10)
			p["context"] = 0 // GUILD
			p["authorizing_integration_owners"] = map[string]any{"0": ch.GuildID}
		} else if ch.Private {
			p["user"] = u.object()
			// A user-installed app in someone else's DM: it may answer
			// interactions, nothing else.
			p["app_permissions"] = strconv.FormatUint(PermEmbedLinks|PermAttachFiles, 10)
			p["context"] = 2 // PRIVATE_CHANNEL
			p["authorizing_integration_owners"] = map[string]any{"1": u.ID}
		} else {
			p["user"] = u.object()
			p["app_permissions"] = strconv.FormatUint(PermViewChannel|PermSendMessages|PermEmbedLinks|PermAttachFiles|PermReadMessageHistory, 10)
			p["context"] = 1 // BOT_DM
			p["authorizing_integration_owners"] = map[string]any{"1": u.ID}
		}
	}
	it.Payload = p
	return it
}

// Ping builds a PING (type 1), which Discord sends to check the endpoint.
func (s *Server) Ping() *Interaction {
	it := &Interaction{ID: s.nextID(), Token: "cGluZw" + s.nextID(), Type: TypePing}
	it.Payload = map[string]any{
		"id": it.ID, "application_id": s.AppID, "type": TypePing, "token": it.Token, "version": 1,
		"user":         map[string]any{"id": "643945264868098049", "username": "discord", "discriminator": "0000", "avatar": nil, "public_flags": 1, "system": true},
		"entitlements": []any{}, "authorizing_integration_owners": map[string]any{},
	}
	return it
}

// Command builds an APPLICATION_COMMAND (type 2) interaction: user u runs
// /name with opts (usually one Sub) in channel ch.
func (s *Server) Command(ch *Channel, u User, name string, opts ...Option) *Interaction {
	it := s.base(TypeApplicationCommand, ch, u)
	it.Payload["data"] = s.commandData(ch, name, opts)
	return it
}

// Autocomplete builds an APPLICATION_COMMAND_AUTOCOMPLETE (type 4)
// interaction; one option should be Focused.
func (s *Server) Autocomplete(ch *Channel, u User, name string, opts ...Option) *Interaction {
	it := s.base(TypeApplicationCommandAutocomplete, ch, u)
	it.Payload["data"] = s.commandData(ch, name, opts)
	return it
}

func (s *Server) commandData(ch *Channel, name string, opts []Option) map[string]any {
	users := map[string]User{}
	data := map[string]any{
		"id": s.commandID(name), "name": name, "type": 1,
		"options": optionsJSON(opts, users),
	}
	if ch != nil && ch.GuildID != "" {
		data["guild_id"] = ch.GuildID
	}
	if len(users) > 0 {
		ru, rm := map[string]any{}, map[string]any{}
		for id, u := range users {
			ru[id] = u.object()
			if ch != nil && ch.GuildID != "" {
				rm[id] = map[string]any{"roles": []any{}, "joined_at": "2024-01-02T03:04:05.000000+00:00", "nick": nil, "avatar": nil,
					"permissions": strconv.FormatUint(u.perms(), 10), "pending": false, "flags": 0, "premium_since": nil}
			}
		}
		resolved := map[string]any{"users": ru}
		if len(rm) > 0 {
			resolved["members"] = rm
		}
		data["resolved"] = resolved
	}
	return data
}

// Click builds a MESSAGE_COMPONENT (type 3) interaction: user u presses the
// button customID on message m, whose current JSON Discord includes.
func (s *Server) Click(u User, m Message, customID string) *Interaction {
	s.mu.Lock()
	ch := s.channels[m.ChannelID]
	s.mu.Unlock()
	if ch == nil {
		ch = &Channel{ID: m.ChannelID, Type: ChannelGuildText}
	}
	it := s.base(TypeMessageComponent, ch, u)
	it.MessageID = m.ID
	it.Payload["data"] = map[string]any{"custom_id": customID, "component_type": 2}
	msg := m.object(s)
	if s.spec != nil {
		// The message Discord sends with the click is a message object
		// like any other.
		if err := s.spec.validate("/components/schemas/MessageResponse", toJSONValue(msg)); err != nil {
			s.problem("the fake's message object for a click is invalid: %s", brief(err))
		}
	}
	it.Payload["message"] = msg
	return it
}

// toJSONValue round-trips v through JSON so that it holds only the types
// encoding/json decodes to (float64, []any, map[string]any).
func toJSONValue(v any) any {
	var out any
	if err := decodeInto(v, &out); err != nil {
		return v
	}
	return out
}
