package discordtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// ClientSecret is the fake application's OAuth2 client secret: the token
// endpoint accepts codes only from a client that sends it with AppID.
const ClientSecret = "fake-client-secret-9f8e7d"

// An Activity and its sign-in, as an Embedded App SDK page sees them: a
// test opens an Activity instance in a channel (Activity), has a user
// authorize (AuthorizeCode: the code the SDK's authorize would return),
// and the page's server exchanges the code at /oauth2/token (form encoded,
// client ID and secret by HTTP Basic authentication; not in the OpenAPI
// description, so checked here by hand), reads the user at /users/@me
// with the access token, and reads the instance with the bot token.

type oauthState struct {
	codes     map[string]User // authorization code -> user, spent on exchange
	tokens    map[string]User // access token -> user
	instances map[string]activityInstance
}

type activityInstance struct {
	channel *Channel
	users   []User
}

func (s *Server) oauth() *oauthState {
	if s.oauthState == nil {
		s.oauthState = &oauthState{codes: map[string]User{}, tokens: map[string]User{}, instances: map[string]activityInstance{}}
	}
	return s.oauthState
}

// Activity opens an Activity instance in ch with users in it and returns
// its instance ID (what the SDK's instanceId holds).
func (s *Server) Activity(ch *Channel, users ...User) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := "i-" + s.nextID() + "-gc-" + ch.ID
	s.oauth().instances[id] = activityInstance{channel: ch, users: users}
	return id
}

// AuthorizeCode is the authorization code Discord gives u's client when
// it authorizes the application (the SDK's authorize).
func (s *Server) AuthorizeCode(u User) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := "code-" + s.nextID()
	s.oauth().codes[code] = u
	return code
}

// serveOAuth answers the OAuth2 calls made with the user's credentials
// rather than the bot's: the token endpoint and /users/@me with a Bearer
// token. It reports whether it answered.
func (s *Server) serveOAuth(w http.ResponseWriter, r *http.Request, path string) bool {
	answer := func(status int, v any) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
		return true
	}
	oauth := (path == "/oauth2/token" && r.Method == http.MethodPost) || (path == "/users/@me" && strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "))
	if ua := r.Header.Get("User-Agent"); oauth && !strings.HasPrefix(ua, "DiscordBot (") {
		s.problem("%s %s: User-Agent %q is not \"DiscordBot ($url, $versionNumber)\"", r.Method, path, ua)
	}
	switch {
	case path == "/oauth2/token" && r.Method == http.MethodPost:
		id, secret, ok := r.BasicAuth()
		if !ok || id != s.AppID || secret != ClientSecret {
			s.problem("POST /oauth2/token: client credentials are not the application's")
			return answer(http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		}
		if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
			s.problem("POST /oauth2/token: not a form with grant_type=authorization_code")
			return answer(http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		}
		s.mu.Lock()
		o := s.oauth()
		u, found := o.codes[r.PostForm.Get("code")]
		delete(o.codes, r.PostForm.Get("code"))
		tok := ""
		if found {
			tok = "access-" + s.nextID()
			o.tokens[tok] = u
		}
		s.mu.Unlock()
		if !found {
			return answer(http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "Invalid \"code\" in request."})
		}
		return answer(http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800, "refresh_token": "refresh-" + tok, "scope": "identify"})
	case path == "/users/@me" && strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "):
		s.mu.Lock()
		u, found := s.oauth().tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		s.mu.Unlock()
		if !found {
			return answer(http.StatusUnauthorized, discordError(0, "401: Unauthorized"))
		}
		return answer(http.StatusOK, map[string]any{"id": u.ID, "username": u.Username, "global_name": u.Username, "discriminator": "0", "avatar": AvatarHash(u)})
	}
	return false
}

// AvatarHash is the avatar hash the fake gives u.
func AvatarHash(u User) string { return "a_fake" + u.ID }

// getActivityInstance answers GET /applications/{id}/activity-instances/{instance_id}.
func getActivityInstance(s *Server, r *restRequest) restResponse {
	s.mu.Lock()
	inst, found := s.oauth().instances[r.params["instance_id"]]
	s.mu.Unlock()
	if !found || r.params["application_id"] != s.AppID {
		return restResponse{status: http.StatusNotFound, body: discordError(10001, "Unknown Activity Instance")}
	}
	users := []any{}
	for _, u := range inst.users {
		users = append(users, u.ID)
	}
	loc := map[string]any{"id": "gc-" + inst.channel.ID, "kind": "gc", "channel_id": inst.channel.ID, "guild_id": inst.channel.GuildID}
	if inst.channel.GuildID == "" {
		loc = map[string]any{"id": "pc-" + inst.channel.ID, "kind": "pc", "channel_id": inst.channel.ID}
	}
	return ok(map[string]any{"application_id": s.AppID, "instance_id": r.params["instance_id"], "launch_id": "1", "location": loc, "users": users})
}
