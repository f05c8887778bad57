package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/commands"
)

// The Activity signs in with Discord's OAuth2, as the Embedded App SDK
// does it: the page asks for a state (serveState), the SDK's authorize
// returns a code for it, the page posts both (serveToken), and gobot
// exchanges the code at Discord's token endpoint with the client secret,
// learns the user (/users/@me), and reads the Activity's instance with
// the bot token to find its channel and check the user is in it. The page
// gets the access token (for the SDK's authenticate) and a gobot session.

func (h *Handler) serveState(w http.ResponseWriter, r *http.Request) {
	if h.opts.ClientSecret == "" {
		problem(w, http.StatusNotFound, "This gobot has no Discord Activity set up (DISCORD_CLIENT_SECRET).")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"state": h.sign.state(h.opts.Now().Add(stateTTL))})
}

// Sentences of a failed Activity sign-in.
const (
	badState     = "This sign-in was not started by this board (its OAuth2 state is missing, used or expired): reopen the board."
	badCode      = "Discord did not accept this sign-in: reopen the board."
	notInstance  = "This board was not opened from a Discord activity gobot can see: open it from a game's Open board button."
	discordIsOut = "Discord could not be reached to sign you in: try again in a moment."
	tooManyLogin = "Too many people are signing in right now: try again in a moment."
)

// exchanges limits the sign-ins gobot passes on to Discord (each costs up
// to three calls to Discord's API): a bucket of exchangeBurst, refilled
// at exchangeRate a second, for the whole process.
const (
	exchangeRate  = 5
	exchangeBurst = 20
)

type bucket struct {
	mu     sync.Mutex
	tokens float64
	at     time.Time
}

// take takes a token at now, if there is one.
func (b *bucket) take(now time.Time, rate, burst float64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at.IsZero() {
		b.tokens = burst
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (h *Handler) serveToken(w http.ResponseWriter, r *http.Request) {
	if h.opts.ClientSecret == "" {
		problem(w, http.StatusNotFound, "This gobot has no Discord Activity set up (DISCORD_CLIENT_SECRET).")
		return
	}
	var req struct {
		Code     string `json:"code"`
		State    string `json:"state"`
		Instance string `json:"instance_id"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || req.Code == "" || req.Instance == "" {
		problem(w, http.StatusBadRequest, badCode)
		return
	}
	if !h.sign.spend(req.State, h.opts.Now()) {
		problem(w, http.StatusForbidden, badState)
		return
	}
	if !h.exchanges.take(time.Now(), exchangeRate, exchangeBurst) {
		problem(w, http.StatusTooManyRequests, tooManyLogin)
		return
	}
	ctx := r.Context()
	access, err := h.exchange(ctx, req.Code)
	if err != nil {
		h.opts.Log.Info("board page: OAuth2 code refused", "err", err)
		problem(w, http.StatusForbidden, badCode)
		return
	}
	var me struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
		Avatar     string `json:"avatar"`
	}
	if err := h.discord(ctx, "/users/@me", "Bearer "+access, &me); err != nil || me.ID == "" {
		h.opts.Log.Warn("board page: read the signed-in user", "err", err)
		problem(w, http.StatusBadGateway, discordIsOut)
		return
	}
	var inst struct {
		Users    []string `json:"users"`
		Location struct {
			ChannelID string `json:"channel_id"`
		} `json:"location"`
	}
	err = h.discord(ctx, "/applications/"+url.PathEscape(h.opts.ClientID)+"/activity-instances/"+url.PathEscape(req.Instance), "Bot "+h.opts.BotToken, &inst)
	if err != nil || inst.Location.ChannelID == "" || !slices.Contains(inst.Users, me.ID) {
		h.opts.Log.Info("board page: activity instance refused", "user", me.ID, "err", err)
		problem(w, http.StatusForbidden, notInstance)
		return
	}
	name := me.GlobalName
	if name == "" {
		name = me.Username
	}
	h.avatars.put(me.ID, me.Avatar)
	tok := h.sign.token(session{UserID: me.ID, Name: name, Channel: inst.Location.ChannelID, Expires: h.opts.Now().Add(h.opts.SessionTTL).Unix()})
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "session": tok, "user": userInfo{ID: me.ID, Name: name}, "channel": inst.Location.ChannelID})
}

// avatars are the Discord avatar hashes of the people who signed in
// through the Activity on this process, for the page's player cards.
type avatars struct {
	mu     sync.Mutex
	hashes map[string]string
}

func (a *avatars) put(userID, hash string) {
	if hash == "" || !avatarRe.MatchString(hash) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hashes == nil {
		a.hashes = map[string]string{}
	}
	if len(a.hashes) > 100_000 {
		clear(a.hashes) // a bound, not a cache policy
	}
	a.hashes[userID] = hash
}

func (a *avatars) get(userID string) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	h, ok := a.hashes[userID]
	return h, ok
}

var avatarRe = regexp.MustCompile(`^(a_)?[0-9A-Za-z_]{1,64}$`)

// serveAvatar sends a player's picture: through the Activity's URL
// mapping /cdn (to cdn.discordapp.com) when the player signed in through
// the Activity, else 404 (the page shows their initial).
func (h *Handler) serveAvatar(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	hash, ok := h.avatars.get(id)
	if !ok || !snowflakeRe.MatchString(id) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	http.Redirect(w, r, "/cdn/avatars/"+id+"/"+hash+".png?size=64", http.StatusFound)
}

// exchange trades an authorization code for an access token at Discord's
// token endpoint.
func (h *Handler) exchange(ctx context.Context, code string) (string, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.opts.APIURL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", commands.UserAgent)
	req.SetBasicAuth(h.opts.ClientID, h.opts.ClientSecret)
	resp, err := h.opts.HTTPClient.Do(req)
	if err != nil {
		return "", errors.New("web: token endpoint unreachable")
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("web: token endpoint answered %d", resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&out); err != nil || out.AccessToken == "" {
		return "", errors.New("web: token endpoint's answer has no access token")
	}
	return out.AccessToken, nil
}

// discord GETs a path of Discord's API with an Authorization header into
// v. Its errors never quote the header.
func (h *Handler) discord(ctx context.Context, p, auth string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.opts.APIURL+p, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("User-Agent", commands.UserAgent)
	resp, err := h.opts.HTTPClient.Do(req)
	if err != nil {
		return errors.New("web: Discord unreachable")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("web: GET %s answered %d", strings.SplitN(p, "/", 3)[1], resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(v)
}
