package discordtest

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// restRequest is a decoded REST request for a route handler.
type restRequest struct {
	method string
	params map[string]string
	query  url.Values
	body   any
	files  []Attachment
}

func (r *restRequest) object() map[string]any {
	m, _ := r.body.(map[string]any)
	return m
}

// restResponse is a handler's answer; problem, when set, is a protocol
// violation to record (the status then is Discord's error for it).
type restResponse struct {
	status  int
	body    any
	problem string
}

func ok(body any) restResponse { return restResponse{status: http.StatusOK, body: body} }

func noContent() restResponse { return restResponse{status: http.StatusNoContent} }

func refuse(status, code int, format string, args ...any) restResponse {
	msg := fmt.Sprintf(format, args...)
	return restResponse{status: status, body: discordError(code, msg), problem: msg}
}

// routeHandler answers one REST operation.
type routeHandler func(s *Server, r *restRequest) restResponse

// fakeHandlers are the operations the fake implements, by the spec's path
// templates and methods.
var fakeHandlers = map[string]map[string]routeHandler{
	"/applications/@me":                       {"GET": getApplication},
	"/users/@me":                              {"GET": getBotUser},
	"/users/@me/channels":                     {"POST": createDM},
	"/applications/{application_id}/commands": {"GET": listCommands, "PUT": overwriteCommands},
	"/applications/{application_id}/activity-instances/{instance_id}": {"GET": getActivityInstance},
	"/applications/{application_id}/guilds/{guild_id}/commands":       {"PUT": overwriteCommands},
	"/channels/{channel_id}":                                       {"GET": getChannel, "PATCH": modifyThread},
	"/guilds/{guild_id}/channels":                                  {"GET": guildChannels},
	"/channels/{channel_id}/messages":                              {"POST": createMessage},
	"/channels/{channel_id}/messages/{message_id}":                 messageRoutes((*Server).channelMessage, editMessage),
	"/channels/{channel_id}/threads":                               {"POST": startThread},
	"/channels/{channel_id}/messages/{message_id}/threads":         {"POST": startThread},
	"/interactions/{interaction_id}/{interaction_token}/callback":  {"POST": callback},
	"/webhooks/{webhook_id}/{webhook_token}":                       {"POST": followup},
	"/webhooks/{webhook_id}/{webhook_token}/messages/@original":    messageRoutes((*Server).original, editOriginal),
	"/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": messageRoutes((*Server).followupMessage, editMessage),
}

// fakeRoutes are the templates of fakeHandlers, for matching paths.
var fakeRoutes = func() []template {
	var ts []template
	for p := range fakeHandlers {
		ts = append(ts, newTemplate(p))
	}
	return ts
}()

func getApplication(s *Server, r *restRequest) restResponse {
	return ok(map[string]any{
		"id": s.AppID, "name": "gobot", "icon": nil, "description": "Play Go on Discord", "type": nil,
		"bot_public": true, "bot_require_code_grant": false, "verify_key": s.Signer.PublicKeyHex(),
		"flags": 0, "flags_new": "0", "bot": s.botUser(),
		"owner": map[string]any{"id": "1", "username": "owner", "discriminator": "0", "avatar": nil, "public_flags": 0, "flags": 0, "global_name": nil, "primary_guild": nil},
		"team":  nil, "redirect_uris": []any{}, "interactions_endpoint_url": nil, "integration_types_config": map[string]any{},
		"approximate_guild_count": 1, "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
		"tags": []any{}, "role_connections_verification_url": nil, "explicit_content_filter": 0,
		"eligible_oauth2_scopes": []any{"bot", "applications.commands"},
	})
}

func getBotUser(s *Server, r *restRequest) restResponse {
	u := s.botUser()
	u["mfa_enabled"] = false
	u["locale"] = "en-US"
	u["premium_type"] = 0
	return ok(u)
}

func createDM(s *Server, r *restRequest) restResponse {
	id, _ := r.object()["recipient_id"].(string)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.channels {
		if c.Type == ChannelDM && c.Recipient.ID == id {
			return ok(c.object())
		}
	}
	c := &Channel{ID: s.nextID(), Type: ChannelDM, Recipient: User{ID: id, Username: "user" + id}}
	s.channels[c.ID] = c
	return ok(c.object())
}

// listCommands answers the application's global commands, as the last
// overwrite (or AddEntryPoint) left them.
func listCommands(s *Server, r *restRequest) restResponse {
	if r.params["application_id"] != s.AppID {
		return refuse(http.StatusForbidden, 50001, "commands listed for application %s, not the bot's %s", r.params["application_id"], s.AppID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return ok(append([]any{}, s.commands[""]...))
}

// isEntryPoint reports whether a command (as JSON decodes it) is of type 4,
// PRIMARY_ENTRY_POINT.
func isEntryPoint(c any) bool {
	m, _ := c.(map[string]any)
	t, _ := m["type"].(float64)
	return t == 4
}

func overwriteCommands(s *Server, r *restRequest) restResponse {
	if r.params["application_id"] != s.AppID {
		return refuse(http.StatusForbidden, 50001, "commands overwritten for application %s, not the bot's %s", r.params["application_id"], s.AppID)
	}
	if g, ok := r.params["guild_id"]; ok && g != s.GuildID {
		// A server the app is not in, or was invited to without the
		// applications.commands scope.
		return refuse(http.StatusForbidden, 50001, "Missing Access: commands overwritten in guild %s, where the application is not authorised", g)
	}
	list, _ := r.body.([]any)
	for _, c := range list {
		m, _ := dropNulls(c).(map[string]any)
		if msg := checkCommand(m); msg != "" {
			return refuse(http.StatusBadRequest, 50035, "Invalid Form Body: %s", msg)
		}
	}
	// Discord refuses a global bulk overwrite that drops the Entry Point
	// command an application with Activities has.
	if r.params["guild_id"] == "" {
		s.mu.Lock()
		had := slices.ContainsFunc(s.commands[""], isEntryPoint)
		s.mu.Unlock()
		if had && !slices.ContainsFunc(list, isEntryPoint) {
			return refuse(http.StatusBadRequest, 50240, "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.")
		}
	}
	out := make([]any, 0, len(list))
	for _, c := range list {
		// Discord omits what a request sent as null (discordgo sends
		// "options": null and "choices": null).
		m, _ := dropNulls(c).(map[string]any)
		cp := map[string]any{}
		for k, v := range m {
			cp[k] = v
		}
		name, _ := m["name"].(string)
		if id, _ := m["id"].(string); id == "" {
			cp["id"] = s.commandID(name)
		}
		cp["application_id"] = s.AppID
		cp["version"] = s.nextID()
		if _, ok := cp["type"]; !ok {
			cp["type"] = 1
		}
		if _, ok := cp["description"]; !ok {
			cp["description"] = ""
		}
		// Discord reads default_member_permissions as an integer and
		// answers with its string, as every permission set.
		switch p := cp["default_member_permissions"].(type) {
		case nil:
			cp["default_member_permissions"] = nil
		case float64:
			cp["default_member_permissions"] = strconv.FormatInt(int64(p), 10)
		}
		if _, ok := cp["dm_permission"]; !ok {
			cp["dm_permission"] = true
		}
		cp["nsfw"] = false
		if g := r.params["guild_id"]; g != "" {
			cp["guild_id"] = g
		}
		out = append(out, cp)
	}
	s.mu.Lock()
	s.commands[r.params["guild_id"]] = out
	s.mu.Unlock()
	return ok(out)
}

// channel finds the channel of a /channels/{channel_id} path; s.mu is held.
func (s *Server) channel(r *restRequest) (*Channel, restResponse) {
	if fail, private := s.privateChannel(r); private {
		return nil, fail
	}
	c, found := s.channels[r.params["channel_id"]]
	switch {
	case !found && s.gone[r.params["channel_id"]]:
		// Deleted by an admin while gobot knew it (DeleteChannel): gobot
		// cannot know until Discord says so, which is no fault of its.
		return nil, restResponse{status: http.StatusNotFound, body: discordError(10003, "Unknown Channel "+r.params["channel_id"])}
	case !found:
		return nil, refuse(http.StatusNotFound, 10003, "Unknown Channel %s", r.params["channel_id"])
	}
	return c, restResponse{}
}

// privateChannel refuses channel routes in a user-install private channel,
// which the bot is not in; s.mu is held.
func (s *Server) privateChannel(r *restRequest) (restResponse, bool) {
	if c := s.channels[r.params["channel_id"]]; c != nil && c.Private {
		return refuse(http.StatusForbidden, 50001, "Missing Access: the bot is not in channel %s (a user-install private channel: answer through the interaction instead)", c.ID), true
	}
	return restResponse{}, false
}

func getChannel(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, fail := s.channel(r)
	if c == nil {
		// Asking whether a channel exists is no mistake: the 404 is an
		// answer, not a problem of the bot's.
		fail.problem = ""
		return fail
	}
	o := c.object()
	if c.Type == ChannelPublicThread {
		o["owner_id"] = s.BotUserID // the fake's threads are the bot's
	}
	return ok(o)
}

// modifyThread is PATCH /channels/{channel_id} on a thread. Its creator
// (the fake's threads are all the bot's) may change its name, archived
// and auto_archive_duration; anything else needs Manage Threads in its
// channel, which the invite does not ask for. The fake modifies no other
// channel.
func modifyThread(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, fail := s.channel(r)
	if c == nil {
		return fail
	}
	if c.Type != ChannelPublicThread {
		return refuse(http.StatusNotImplemented, 0, "the fake modifies threads only, not channel %s of type %d", c.ID, c.Type)
	}
	perms := PermBot
	if p := s.channels[c.ParentID]; p != nil && p.AppPermissions != 0 {
		perms = p.AppPermissions
	}
	body := r.object()
	for k := range body {
		switch k {
		case "name", "archived", "auto_archive_duration":
		default:
			if perms&PermManageThreads == 0 {
				return refuse(http.StatusForbidden, 50013, "Missing Permissions: changing %s of a thread needs Manage Threads, even for its creator", k)
			}
		}
	}
	if v, ok := body["archived"].(bool); ok {
		c.Archived = v
	}
	if v, ok := body["name"].(string); ok {
		c.Name = v
	}
	o := c.object()
	o["owner_id"] = s.BotUserID
	return ok(o)
}

// guildChannels lists a guild's channels, threads left out as Discord
// does, in the order they were made.
func guildChannels(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := r.params["guild_id"]
	if g != s.GuildID {
		// A server where the app is installed by a user only: asking
		// for its channels is no mistake, the 403 is an answer.
		fail := refuse(http.StatusForbidden, 50001, "Missing Access: the bot is not in guild %s", g)
		fail.problem = ""
		return fail
	}
	var cs []*Channel
	for _, c := range s.channels {
		if c.GuildID == g && c.Type != ChannelPublicThread {
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b *Channel) int {
		if len(a.ID) != len(b.ID) {
			return len(a.ID) - len(b.ID)
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := []any{}
	for _, c := range cs {
		out = append(out, c.object())
	}
	return ok(out)
}

func createMessage(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, fail := s.channel(r)
	if c == nil {
		return fail
	}
	// A message in an archived thread that is not locked (the fake locks
	// none) unarchives it, as Discord does.
	c.Archived = false
	if f, _ := r.object()["flags"].(float64); int(f)&64 != 0 {
		return refuse(http.StatusBadRequest, 50035, "ephemeral flag on a channel message (only interaction responses can be ephemeral)")
	}
	m, problem := s.newMessage(r.params["channel_id"], r.object(), r.files, "")
	if problem != "" {
		return refuse(http.StatusBadRequest, 50035, "%s", problem)
	}
	return ok(m.object(s))
}

func startThread(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, fail := s.channel(r)
	if parent == nil {
		return fail
	}
	if parent.Type != ChannelGuildText {
		return refuse(http.StatusBadRequest, 50024, "Cannot execute action on this channel type (%d)", parent.Type)
	}
	if parent.AppPermissions != 0 && parent.AppPermissions&PermCreatePublicThreads == 0 {
		return refuse(http.StatusForbidden, 50013, "Missing Permissions")
	}
	name, _ := r.object()["name"].(string)
	c := &Channel{ID: s.nextID(), Type: ChannelPublicThread, GuildID: parent.GuildID, Name: name, ParentID: parent.ID}
	if id := r.params["message_id"]; id != "" {
		c.ID = id // a thread started from a message has the message's ID
	}
	s.channels[c.ID] = c
	o := c.object()
	o["owner_id"] = s.BotUserID
	return restResponse{status: http.StatusCreated, body: o}
}

// interactionFor finds the interaction of a webhook or callback path.
func (s *Server) interactionFor(r *restRequest) (*interaction, restResponse) {
	token := r.params["interaction_token"]
	if token == "" {
		token = r.params["webhook_token"]
		if r.params["webhook_id"] != s.AppID {
			return nil, refuse(http.StatusNotFound, 10015, "Unknown Webhook: webhook id %s is not the application id %s", r.params["webhook_id"], s.AppID)
		}
	}
	st, found := s.interactions[token]
	if !found {
		return nil, refuse(http.StatusNotFound, 10015, "Unknown Webhook: no interaction has this token")
	}
	if id := r.params["interaction_id"]; id != "" && id != st.id {
		return nil, refuse(http.StatusNotFound, 10062, "Unknown interaction: id %s does not match the token", id)
	}
	if age := s.opts.Now().Sub(st.created); age > TokenLifetime {
		return nil, refuse(http.StatusUnauthorized, 50027, "Invalid Webhook Token: the interaction token is %v old (tokens last %v)", age.Round(time.Second), TokenLifetime)
	}
	return st, restResponse{}
}

func callback(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, fail := s.interactionFor(r)
	if st == nil {
		return fail
	}
	if problem := s.acknowledge(st, r.object(), r.files); problem != "" {
		code := 50035
		if st.acked {
			code = 40060
		}
		return refuse(http.StatusBadRequest, code, "%s", problem)
	}
	if r.query.Get("with_response") == "true" {
		out := map[string]any{"interaction": map[string]any{"id": st.id, "type": st.typ}}
		// A message sent or updated by the response is the callback's
		// resource, as Discord answers.
		if m := s.messages[st.original]; m != nil && (st.ackType == CallbackChannelMessageWithSource || st.ackType == CallbackUpdateMessage) {
			out["resource"] = map[string]any{"type": st.ackType, "message": m.object(s)}
		}
		return ok(out)
	}
	return noContent()
}

func followup(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, fail := s.interactionFor(r)
	if st == nil {
		return fail
	}
	if !st.acked {
		return refuse(http.StatusNotFound, 10015, "Unknown Webhook: follow-up before the interaction was acknowledged")
	}
	m, problem := s.newMessage(st.channelID, r.object(), r.files, st.id)
	if problem != "" {
		return refuse(http.StatusBadRequest, 50035, "%s", problem)
	}
	if m.Ephemeral {
		m.VisibleTo = st.userID
	}
	if r.query.Get("wait") != "true" {
		return noContent()
	}
	return ok(m.object(s))
}

// messageLookup finds the message a path names, or says why not; s.mu is
// held.
type messageLookup func(s *Server, r *restRequest) (*Message, restResponse)

// messageOp does a GET, PATCH or DELETE on a message found by a
// messageLookup; s.mu is held.
type messageOp func(s *Server, m *Message, r *restRequest) restResponse

// onMessage is the route handler that, under s.mu, finds a message with
// find and applies op to it.
func onMessage(find messageLookup, op messageOp) routeHandler {
	return func(s *Server, r *restRequest) restResponse {
		s.mu.Lock()
		defer s.mu.Unlock()
		m, fail := find(s, r)
		if m == nil {
			return fail
		}
		return op(s, m, r)
	}
}

// messageRoutes are GET, PATCH (with edit) and DELETE of the message
// that find looks up.
func messageRoutes(find messageLookup, edit messageOp) map[string]routeHandler {
	return map[string]routeHandler{
		"GET":    onMessage(find, getMessage),
		"PATCH":  onMessage(find, edit),
		"DELETE": onMessage(find, deleteMessage),
	}
}

// channelMessage finds the message of a /channels/{channel_id}/messages/{message_id} path.
func (s *Server) channelMessage(r *restRequest) (*Message, restResponse) {
	if fail, private := s.privateChannel(r); private {
		return nil, fail
	}
	m, found := s.messages[r.params["message_id"]]
	if !found || m.Deleted || m.ChannelID != r.params["channel_id"] || m.Ephemeral {
		return nil, refuse(http.StatusNotFound, 10008, "Unknown Message %s in channel %s", r.params["message_id"], r.params["channel_id"])
	}
	return m, restResponse{}
}

// original finds an interaction's original response.
func (s *Server) original(r *restRequest) (*Message, restResponse) {
	st, fail := s.interactionFor(r)
	if st == nil {
		return nil, fail
	}
	if !st.acked || st.original == "" {
		return nil, refuse(http.StatusNotFound, 10008, "Unknown Message: the interaction has no original response (acknowledged with type %d)", st.ackType)
	}
	m := s.messages[st.original]
	if m == nil || m.Deleted {
		return nil, refuse(http.StatusNotFound, 10008, "Unknown Message: the original response was deleted")
	}
	return m, restResponse{}
}

// followupMessage finds one of an interaction's follow-up messages.
func (s *Server) followupMessage(r *restRequest) (*Message, restResponse) {
	st, fail := s.interactionFor(r)
	if st == nil {
		return nil, fail
	}
	m := s.messages[r.params["message_id"]]
	if m == nil || m.Deleted || m.InteractionID != st.id {
		return nil, refuse(http.StatusNotFound, 10008, "Unknown Message %s for this interaction", r.params["message_id"])
	}
	return m, restResponse{}
}

func getMessage(s *Server, m *Message, r *restRequest) restResponse {
	return ok(m.object(s))
}

func editMessage(s *Server, m *Message, r *restRequest) restResponse {
	if problem := s.applyEdit(m, r.object(), r.files); problem != "" {
		return refuse(http.StatusBadRequest, 50035, "%s", problem)
	}
	return ok(m.object(s))
}

// editOriginal is editMessage that also ends a deferred response's
// "thinking…" state.
func editOriginal(s *Server, m *Message, r *restRequest) restResponse {
	resp := editMessage(s, m, r)
	if resp.problem == "" {
		m.Deferred = false
	}
	return resp
}

func deleteMessage(s *Server, m *Message, r *restRequest) restResponse {
	m.Deleted = true
	return noContent()
}

// newMessage creates a message from a create body; s.mu is held.
func (s *Server) newMessage(channelID string, body map[string]any, files []Attachment, interactionID string) (*Message, string) {
	m := &Message{ID: s.nextID(), ChannelID: channelID, InteractionID: interactionID, Created: time.Now()}
	if f, _ := body["flags"].(float64); f != 0 {
		m.Flags = int(f)
	}
	if problem := s.fill(m, body, files, true); problem != "" {
		return nil, problem
	}
	if m.empty() {
		return nil, "Cannot send an empty message (no content, embeds, components or files)"
	}
	s.addMessage(m)
	return m, ""
}

// addMessage stores a new message; s.mu is held.
func (s *Server) addMessage(m *Message) {
	s.messages[m.ID] = m
	s.order = append(s.order, m.ID)
}

// applyEdit edits m with a PATCH body; s.mu is held.
func (s *Server) applyEdit(m *Message, body map[string]any, files []Attachment) string {
	cp := *m
	if problem := s.fill(&cp, body, files, false); problem != "" {
		return problem
	}
	if cp.empty() {
		return "Cannot edit a message into an empty one"
	}
	cp.Edits++
	*m = cp
	return ""
}

// empty reports whether m has nothing to show, which Discord refuses.
func (m *Message) empty() bool {
	return m.Content == "" && len(m.Embeds) == 0 && len(m.Attachments) == 0 && len(m.Components) == 0
}

// fill applies the fields present in body to m, checking what Discord
// checks beyond the schema: attachment references, attachment:// URLs in
// embeds, and unique custom IDs.
func (s *Server) fill(m *Message, body map[string]any, files []Attachment, create bool) string {
	if body == nil {
		return "no message body"
	}
	if v, present := body["content"]; present {
		c, _ := v.(string)
		m.Content = c
		m.Pings = pingedUsers(c, body["allowed_mentions"])
		if problem := checkMentions(c, body["allowed_mentions"]); problem != "" {
			return problem
		}
	}
	if v, present := body["embeds"]; present {
		raw, _ := v.([]any)
		var embeds []Embed
		if err := decodeInto(raw, &embeds); err != nil {
			return "embeds: " + err.Error()
		}
		m.Embeds, m.rawEmbeds = embeds, raw
	}
	if v, present := body["components"]; present {
		raw, _ := v.([]any)
		var comps []Component
		if err := decodeInto(raw, &comps); err != nil {
			return "components: " + err.Error()
		}
		m.Components, m.rawComponents = comps, raw
		seen := map[string]bool{}
		for _, b := range m.Buttons() {
			if b.CustomID == "" {
				continue
			}
			if seen[b.CustomID] {
				return fmt.Sprintf("Component custom id cannot be duplicated: %q", b.CustomID)
			}
			seen[b.CustomID] = true
		}
	}
	byIndex := map[string]Attachment{}
	for _, f := range files {
		byIndex[f.ID] = f
	}
	if v, present := body["attachments"]; present {
		list, _ := v.([]any)
		var kept []Attachment
		used := map[string]bool{}
		for _, a := range list {
			am, _ := a.(map[string]any)
			var id string
			switch x := am["id"].(type) {
			case float64:
				id = fmt.Sprint(int(x))
			case string:
				id = x
			}
			if f, upload := byIndex[id]; upload {
				used[id] = true
				f.ID = s.nextID()
				if name, _ := am["filename"].(string); name != "" {
					f.Filename = name
				}
				f.Description, _ = am["description"].(string)
				kept = append(kept, f)
				continue
			}
			found := false
			for _, old := range m.Attachments {
				if old.ID == id {
					kept = append(kept, old)
					found = true
				}
			}
			if !found {
				return fmt.Sprintf("attachments[].id %q is neither an uploaded files[n] nor an attachment of the message", id)
			}
		}
		for _, f := range files {
			if !used[f.ID] {
				f.ID = s.nextID()
				kept = append(kept, f)
			}
		}
		m.Attachments = kept
	} else if len(files) > 0 {
		for _, f := range files {
			f.ID = s.nextID()
			m.Attachments = append(m.Attachments, f)
		}
	}
	for _, e := range m.Embeds {
		for _, u := range []string{imageURL(e.Image), imageURL(e.Thumbnail)} {
			name, isAttachment := strings.CutPrefix(u, "attachment://")
			if !isAttachment {
				continue
			}
			found := false
			for _, a := range m.Attachments {
				found = found || a.Filename == name
			}
			if !found {
				return fmt.Sprintf("embed image %q names no attachment of the message", u)
			}
		}
	}
	m.Ephemeral = m.Flags&64 != 0
	return ""
}

func imageURL(img *struct {
	URL string `json:"url"`
}) string {
	if img == nil {
		return ""
	}
	return img.URL
}

// acknowledge applies an interaction response (from the HTTP answer or the
// callback endpoint); s.mu is held. It returns a problem, if any.
func (s *Server) acknowledge(st *interaction, body map[string]any, files []Attachment) string {
	if st.acked {
		return "Interaction has already been acknowledged"
	}
	typ, _ := body["type"].(float64)
	data, _ := body["data"].(map[string]any)
	flags := 0
	if data != nil {
		if f, _ := data["flags"].(float64); f != 0 {
			flags = int(f)
		}
	}
	switch int(typ) {
	case CallbackPong:
		if st.typ != TypePing {
			return "PONG answers only a PING"
		}
	case CallbackChannelMessageWithSource:
		if st.typ == TypePing || st.typ == TypeApplicationCommandAutocomplete {
			return fmt.Sprintf("response type 4 is not valid for interaction type %d", st.typ)
		}
		m, problem := s.newMessage(st.channelID, data, files, st.id)
		if problem != "" {
			return problem
		}
		if m.Ephemeral {
			m.VisibleTo = st.userID
		}
		st.original = m.ID
	case CallbackDeferredChannelMessageWithSource:
		if st.typ == TypePing || st.typ == TypeApplicationCommandAutocomplete {
			return fmt.Sprintf("response type 5 is not valid for interaction type %d", st.typ)
		}
		m := &Message{ID: s.nextID(), ChannelID: st.channelID, InteractionID: st.id, Deferred: true, Flags: flags, Created: time.Now()}
		m.Ephemeral = flags&64 != 0
		if m.Ephemeral {
			m.VisibleTo = st.userID
		}
		s.addMessage(m)
		st.original = m.ID
	case CallbackDeferredUpdateMessage, CallbackUpdateMessage:
		if st.typ != TypeMessageComponent {
			return fmt.Sprintf("response type %d is only valid for component interactions, not type %d", int(typ), st.typ)
		}
		m := s.messages[st.messageID]
		if m == nil || m.Deleted {
			return "the component's message no longer exists"
		}
		if int(typ) == CallbackUpdateMessage {
			if problem := s.applyEdit(m, data, files); problem != "" {
				return problem
			}
		}
		st.original = m.ID
	case CallbackLaunchActivity:
		if st.typ != TypeApplicationCommand && st.typ != TypeMessageComponent {
			return fmt.Sprintf("response type 12 (launch an Activity) answers a command or a component, not type %d", st.typ)
		}
	case CallbackAutocompleteResult:
		if st.typ != TypeApplicationCommandAutocomplete {
			return fmt.Sprintf("autocomplete result for interaction type %d", st.typ)
		}
		st.choices, _ = data["choices"].([]any)
		if len(st.choices) > 25 {
			return fmt.Sprintf("%d autocomplete choices, at most 25", len(st.choices))
		}
	default:
		return fmt.Sprintf("unsupported interaction response type %v", typ)
	}
	st.acked, st.ackType = true, int(typ)
	return ""
}

func (s *Server) botUser() map[string]any {
	return map[string]any{"id": s.BotUserID, "username": "gobot", "discriminator": "0", "global_name": nil, "avatar": nil,
		"bot": true, "public_flags": 0, "flags": 0, "primary_guild": nil}
}

// dropNulls removes null members from objects, recursively.
func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// checkMentions refuses content that would ping @everyone, @here or a role:
// Discord parses every mention when allowed_mentions is absent, so a name
// such as "@everyone" quoted in a message would ping the whole server.
func checkMentions(content string, allowed any) string {
	risky := strings.Contains(content, "@everyone") || strings.Contains(content, "@here")
	roles := strings.Contains(content, "<@&")
	if !risky && !roles {
		return ""
	}
	am, _ := allowed.(map[string]any)
	if am == nil {
		return fmt.Sprintf("content %q would ping everyone or a role: send allowed_mentions", content)
	}
	parse, _ := am["parse"].([]any)
	for _, p := range parse {
		if (p == "everyone" && risky) || (p == "roles" && roles) {
			return fmt.Sprintf("content %q pings %s (allowed_mentions.parse includes it)", content, p)
		}
	}
	return ""
}

// userMention matches a user mention, <@id> or <@!id>.
var userMention = regexp.MustCompile(`<@!?([0-9]+)>`)

// pingedUsers lists the users the mentions in content notify: all of them
// when allowed is absent or its parse includes "users", else those of its
// users list.
func pingedUsers(content string, allowed any) []string {
	var ids []string
	for _, m := range userMention.FindAllStringSubmatch(content, -1) {
		if !slices.Contains(ids, m[1]) {
			ids = append(ids, m[1])
		}
	}
	am, _ := allowed.(map[string]any)
	if am == nil || len(ids) == 0 {
		return ids
	}
	parse, _ := am["parse"].([]any)
	if slices.Contains(parse, any("users")) {
		return ids
	}
	listed, _ := am["users"].([]any)
	var out []string
	for _, id := range ids {
		if slices.Contains(listed, any(id)) {
			out = append(out, id)
		}
	}
	return out
}
