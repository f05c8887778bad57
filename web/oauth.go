package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
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
// returns a code for it, the page posts both with the Activity's instance
// (serveToken), and gobot reads the instance with the bot token to find
// its channel, exchanges the code at Discord's token endpoint with the
// client secret, learns the user (/users/@me) and checks they are in the
// instance. The page gets the access token (for the SDK's authenticate)
// and a gobot session.

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
	tooManyFails = "Too many sign-ins failed from here: wait a minute, then reopen the board."
	// misconfigured is what a player is told when Discord refuses gobot's
	// own credentials: nothing the player does helps.
	misconfigured = "This board's sign-in is misconfigured on gobot's side (Discord does not accept its client secret): tell whoever runs gobot. Meanwhile, play with /go and /draughts in Discord."
)

// secretRefused is the log's diagnosis when Discord's token endpoint
// refuses gobot's client credentials (it never quotes the secret).
const secretRefused = "board page: Discord refused gobot's client credentials (invalid_client): DISCORD_CLIENT_SECRET is not this application's client secret (reset in the Developer Portal, or another application's?); every Activity sign-in fails until it is set to the one under OAuth2 in the Developer Portal and gobot restarted"

// refusedFor is how long gobot, once its client secret was refused,
// refuses sign-ins without asking Discord again (the secret changes only
// with a restart; asking now and then notices Discord changing its mind).
const refusedFor = time.Minute

// signInProblem answers a failed Activity sign-in: text, and whether the
// page should try again by itself ("auto": Discord, or gobot's budget,
// failed for a moment), offer no Retry ("no": only whoever runs gobot can
// mend it), or, when retry is "", offer its Retry button.
func signInProblem(w http.ResponseWriter, status int, text, retry string) {
	body := map[string]string{"error": text}
	if retry != "" {
		body["retry"] = retry
	}
	writeJSON(w, status, body)
}

// An Activity sign-in costs up to three calls to Discord (the instance,
// the token endpoint, /users/@me). Three limits keep them few without
// letting anyone lock the others out:
//
//   - cheap checks come first, and cost Discord nothing: the code's and
//     the instance's shape, the state gobot issued, and the instances
//     Discord said lately it does not know (asked once a minute);
//   - the sign-ins that made gobot call Discord in vain (an instance it
//     does not know, a code it refused, a user not in the instance) are
//     counted per client, by the address the connection comes from (the
//     one address gobot can trust: X-Forwarded-For is anyone's to write)
//     and by Activity instance; a client with none left is refused before
//     any call. Only such failures count: everyone inside Discord arrives
//     through Discord's proxy, whose few addresses hide the players', and
//     players succeed. For the same reason an instance Discord confirmed
//     lately lets its players past their address's count (its own still
//     holds);
//   - all sign-ins of the process share a larger bucket, for Discord's
//     sake;
//   - gobot's own failures count against nobody: Discord down for a
//     moment (the page tries again by itself), or its client secret
//     refused (then every sign-in is refused for a while without asking
//     Discord, and the log says which setting is wrong).
const (
	signInRate  = 10 // sign-ins a second, for the process
	signInBurst = 50
	failRate    = 1.0 / 6 // failed sign-ins a second, per client
	failBurst   = 10
	// unknownFor is how long an instance Discord does not know is
	// refused without asking again; knownFor how long one it confirmed
	// lets its players past their address's count.
	unknownFor = time.Minute
	knownFor   = 10 * time.Minute
	// maxClients bounds each table of clients (a bound, not a cache
	// policy: a full table is emptied).
	maxClients = 100_000
)

// codeRe and instanceRe are the shapes of an OAuth2 code and of an
// Activity instance ID: anything else is refused without asking Discord.
var (
	codeRe     = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	instanceRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
)

// bucket is a token bucket (its rate and burst are the taker's).
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

// limits are the Activity sign-in's limits (see above): the process's
// bucket, the failures left to each client, and the instances Discord
// does not know, or confirmed.
type limits struct {
	all bucket

	mu        sync.Mutex
	fails     map[string]*failures // by "addr:…" and "instance:…"
	instances map[string]said      // what Discord said lately of an instance
	// refused is until when the token endpoint's refusal of gobot's
	// client secret holds (see refusedFor).
	refused time.Time
}

// secretRefused reports whether Discord refused gobot's client secret
// lately (before now).
func (l *limits) secretRefused(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return now.Before(l.refused)
}

// refuseSecret remembers at now that Discord refused gobot's client secret.
func (l *limits) refuseSecret(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refused = now.Add(refusedFor)
}

// failures is a client's failed sign-ins: left of failBurst at at.
type failures struct {
	left float64
	at   time.Time
}

// spent reports whether any of the clients keys has used up its failures
// at now.
func (l *limits) spent(now time.Time, keys ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if f := l.fails[k]; f != nil && min(failBurst, f.left+now.Sub(f.at).Seconds()*failRate) < 1 {
			return true
		}
	}
	return false
}

// fail counts a failed sign-in against each of the clients keys.
func (l *limits) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fails == nil || len(l.fails) > maxClients {
		l.fails = map[string]*failures{}
	}
	for _, k := range keys {
		f := l.fails[k]
		if f == nil {
			f = &failures{left: failBurst, at: now}
			l.fails[k] = f
		}
		f.left = max(0, min(failBurst, f.left+now.Sub(f.at).Seconds()*failRate)-1)
		f.at = now
	}
}

// heard is what Discord said lately of an Activity instance.
type heard int

// What Discord said lately of an instance (limits.instance).
const (
	instanceNew     heard = iota // nothing: not asked lately
	instanceKnown                // it exists
	instanceUnknown              // Discord does not know it
)

// instance says what Discord said lately of instance.
func (l *limits) instance(now time.Time, instance string) heard {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch s, ok := l.instances[instance]; {
	case !ok || !now.Before(s.until):
		return instanceNew
	case s.known:
		return instanceKnown
	}
	return instanceUnknown
}

// describe remembers what Discord said of instance at now.
func (l *limits) describe(now time.Time, instance string, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.instances == nil || len(l.instances) > maxClients {
		l.instances = map[string]said{}
	}
	d := unknownFor
	if known {
		d = knownFor
	}
	l.instances[instance] = said{until: now.Add(d), known: known}
}

// said is what Discord said of an instance, good until until.
type said struct {
	until time.Time
	known bool
}

// clientAddr is the address a request came from, as gobot can trust it:
// the connection's (an IPv6 address by its /64, which one machine has).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String()
	}
	return host
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
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || !codeRe.MatchString(req.Code) {
		problem(w, http.StatusBadRequest, badCode)
		return
	}
	if !instanceRe.MatchString(req.Instance) {
		problem(w, http.StatusBadRequest, notInstance)
		return
	}
	now, lim := time.Now(), &h.limits
	addr, ik := "addr:"+clientAddr(r), "instance:"+req.Instance
	if !h.sign.spend(req.State, h.opts.Now()) {
		problem(w, http.StatusForbidden, badState)
		return
	}
	// gobot's own secret refused lately: no player's fault, and none of
	// their failures (a shared proxy address would lock everyone out).
	if lim.secretRefused(now) {
		signInProblem(w, http.StatusServiceUnavailable, misconfigured, "no")
		return
	}
	known := lim.instance(now, req.Instance)
	if known == instanceUnknown {
		problem(w, http.StatusForbidden, notInstance)
		return
	}
	if lim.spent(now, ik) || (known != instanceKnown && lim.spent(now, addr)) {
		problem(w, http.StatusTooManyRequests, tooManyFails)
		return
	}
	if !lim.all.take(now, signInRate, signInBurst) {
		signInProblem(w, http.StatusTooManyRequests, tooManyLogin, "auto")
		return
	}
	// The instance first, with the bot's token: a made-up one never
	// reaches the token endpoint.
	ctx := r.Context()
	var inst struct {
		Users    []string `json:"users"`
		Location struct {
			ChannelID string `json:"channel_id"`
		} `json:"location"`
	}
	err := h.discord(ctx, "/applications/"+url.PathEscape(h.opts.ClientID)+"/activity-instances/"+url.PathEscape(req.Instance), "Bot "+h.opts.BotToken, &inst)
	switch {
	case errors.Is(err, errNotFound):
		lim.describe(now, req.Instance, false)
		lim.fail(now, addr)
		h.opts.Log.Info("board page: activity instance refused", "err", err)
		problem(w, http.StatusForbidden, notInstance)
		return
	case err != nil:
		h.opts.Log.Warn("board page: read the activity instance", "err", err)
		signInProblem(w, http.StatusBadGateway, discordIsOut, "auto")
		return
	case inst.Location.ChannelID == "":
		lim.fail(now, addr, ik)
		h.opts.Log.Info("board page: activity instance refused", "err", "it has no channel")
		problem(w, http.StatusForbidden, notInstance)
		return
	}
	lim.describe(now, req.Instance, true)
	access, err := h.exchange(ctx, req.Code)
	switch {
	case errors.Is(err, errClientRefused):
		lim.refuseSecret(now)
		h.opts.Log.Error(secretRefused, "client_id", h.opts.ClientID, "err", err)
		signInProblem(w, http.StatusServiceUnavailable, misconfigured, "no")
		return
	case errors.Is(err, errDiscordOut):
		h.opts.Log.Warn("board page: exchange the OAuth2 code", "err", err)
		signInProblem(w, http.StatusBadGateway, discordIsOut, "auto")
		return
	case err != nil:
		lim.fail(now, addr, ik)
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
		signInProblem(w, http.StatusBadGateway, discordIsOut, "auto")
		return
	}
	if !slices.Contains(inst.Users, me.ID) {
		lim.fail(now, addr, ik)
		h.opts.Log.Info("board page: activity instance refused", "user", me.ID, "err", "the user is not in it")
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

// oauthErrorRe is the shape of an OAuth2 error code (RFC 6749 5.2).
var oauthErrorRe = regexp.MustCompile(`^[a-z_]{1,40}$`)

var avatarRe = regexp.MustCompile(`^(a_)?[0-9A-Za-z_]{1,64}$`)

// avatarsOf are the pictures of v's players who signed in through the
// Activity (see stateMessage): the page asks for no other.
func (h *Handler) avatarsOf(v *commands.GameView) map[string]string {
	var out map[string]string
	for _, p := range append(append([]commands.PlayerView(nil), v.Black.Players...), v.White.Players...) {
		if _, ok := h.avatars.get(p.ID); !ok || !snowflakeRe.MatchString(p.ID) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p.ID] = "api/avatar/" + p.ID
	}
	return out
}

// serveAvatar sends a player's picture: through the Activity's URL
// mapping /cdn (to cdn.discordapp.com) when the player signed in through
// the Activity, else 404 (the page, told whose it knows, asks for no
// other).
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
		return "", fmt.Errorf("web: token endpoint unreachable: %w", errDiscordOut)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"` // OAuth2's error code: "invalid_grant", "invalid_client"…
	}
	if resp.StatusCode != http.StatusOK {
		json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&out)
		code := ""
		if oauthErrorRe.MatchString(out.Error) { // only a code's shape is logged
			code = " (" + out.Error + ")"
		}
		switch {
		// RFC 6749 5.2: invalid_client is a 401 (with HTTP Basic
		// authentication), or a 400 from some servers.
		case resp.StatusCode == http.StatusUnauthorized || out.Error == "invalid_client":
			return "", fmt.Errorf("web: token endpoint answered %d%s: %w", resp.StatusCode, code, errClientRefused)
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			return "", fmt.Errorf("web: token endpoint answered %d: %w", resp.StatusCode, errDiscordOut)
		}
		return "", fmt.Errorf("web: token endpoint answered %d%s", resp.StatusCode, code)
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
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("web: GET %s: %w", strings.SplitN(p, "/", 3)[1], errNotFound)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("web: GET %s answered %d", strings.SplitN(p, "/", 3)[1], resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(v)
}
