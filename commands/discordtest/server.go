package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TokenLifetime is how long an interaction token works for follow-ups and
// edits of the original response.
const TokenLifetime = 15 * time.Minute

// APIPrefix is the path under which the fake serves the REST API, as in
// https://discord.com/api/v10.
const APIPrefix = "/api/v10"

// Options tune a Server.
type Options struct {
	// RecordOnly records problems (invalid bodies, protocol violations)
	// without failing the test; the harness's own tests use it.
	RecordOnly bool
	// WaitTimeout bounds WaitFor (default three minutes). It only tells a
	// hang from slowness: a wait that ends does not wait longer, and a
	// review on a machine that runs other work (the race detector, other
	// tests) has taken more than one minute.
	WaitTimeout time.Duration
	// Now is the clock that timestamps signatures (default time.Now); give
	// the bot's clock when a test moves time forward.
	Now func() time.Time
	// Deliver, when set, is how Send hands interactions to the bot instead
	// of a signed POST to Endpoint: as the gateway does, with the bot
	// answering through the callback endpoint. It gets the payload as
	// Discord sends it in INTERACTION_CREATE and may block until the bot
	// has handled it.
	Deliver func(payload []byte)
}

// Call is one REST request the bot made, as the fake saw it.
type Call struct {
	Method string
	// Path is relative to the API base, without the query.
	Path  string
	Query url.Values
	// Route is the spec's path template, e.g. /channels/{channel_id}/messages.
	Route       string
	ContentType string
	// Body is the decoded JSON body; for multipart, the payload_json object.
	Body  any
	Files []Attachment
	// Status is what the fake answered.
	Status int
	// Problems found in this call (validation or protocol).
	Problems []string
	// At is when the fake received the call.
	At time.Time

	limitHeaders http.Header // rate-limit headers of the answer
	injected     bool        // answered with a failure Fail queued, which the spec need not list
}

// String describes the call in one line, without tokens.
func (c Call) String() string { return c.Method + " " + c.Route + " -> " + strconv.Itoa(c.Status) }

// Server is a fake Discord: a REST API on loopback that keeps channels,
// messages and interactions, and a client that posts signed interactions to
// the bot's endpoint. Use NewServer; it is safe for concurrent use.
type Server struct {
	// URL is the API base to give the bot as DISCORD_API_URL.
	URL string
	// AppID, BotUserID and Token identify the application.
	AppID, BotUserID, Token string
	GuildID                 string
	Signer                  *Signer
	// Endpoint is the bot's interactions URL; set it before Send.
	Endpoint string

	t    testing.TB
	opts Options
	spec *Spec
	http *httptest.Server

	mu           sync.Mutex
	changed      chan struct{}
	lastID       uint64
	calls        []Call
	problems     []string
	channels     map[string]*Channel
	gone         map[string]bool // channels DeleteChannel deleted
	messages     map[string]*Message
	order        []string // message IDs in creation order
	interactions map[string]*interaction
	commands     map[string][]any   // "" global, else guild ID -> overwritten commands
	limits       map[string]int     // "METHOD template" -> 429 answers left
	buckets      map[string]*bucket // "METHOD template" -> per-resource limits
	globalUntil  time.Time          // a global 429 was answered: calls before this hammer
	globalNext   time.Duration      // the next call gets a global 429 with this wait
	commandIDs   map[string]string
	oauthState   *oauthState              // Activities and their sign-ins (oauth.go)
	down         int                      // while not 0, every REST call is answered with this status (Down)
	fails        map[string][]int         // "METHOD template" -> statuses the next calls are answered with (Fail)
	throttled    map[string]time.Duration // channel ID -> the retry_after of its 429s (Throttle)
}

// Down makes the fake answer every REST call of the bot with status (503:
// Discord's outage) until Up: nothing is applied meanwhile.
func (s *Server) Down(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = status
}

// Up ends Down: the fake answers again.
func (s *Server) Up() { s.Down(0) }

// Fail makes the next n calls of method to the path template route (as in
// the spec, e.g. "/webhooks/{application_id}/{interaction_token}/messages/@original")
// answer status with Discord's error body, whatever their path: nothing
// is applied.
func (s *Server) Fail(method, route string, status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails == nil {
		s.fails = map[string][]int{}
	}
	for range n {
		s.fails[method+" "+route] = append(s.fails[method+" "+route], status)
	}
}

// failing consumes the next status Fail queued for the call, if any.
func (s *Server) failing(method, route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := method + " " + route
	if q := s.fails[k]; len(q) > 0 {
		s.fails[k] = q[1:]
		return q[0]
	}
	return 0
}

// Throttle makes the fake answer every REST call about the channel
// (its channel_id, or an interaction in it by its token) 429 Too Many
// Requests asking to retry after d, with a Retry-After header and no
// bucket headers, as for a shared resource's limit; nothing is applied
// meanwhile. Throttle(channelID, 0) ends it.
func (s *Server) Throttle(channelID string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d == 0 {
		delete(s.throttled, channelID)
		return
	}
	if s.throttled == nil {
		s.throttled = map[string]time.Duration{}
	}
	s.throttled[channelID] = d
}

// throttle returns the wait of the channel's 429s that a call with these
// route parameters is about, or 0 when it is not throttled.
func (s *Server) throttle(params map[string]string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := params["channel_id"]
	for _, tok := range []string{params["webhook_token"], params["interaction_token"]} {
		if st := s.interactions[tok]; tok != "" && st != nil {
			ch = st.channelID
		}
	}
	return s.throttled[ch]
}

// interaction is the fake's state for one interaction token.
type interaction struct {
	id, token, channelID, userID string
	typ                          int
	created                      time.Time // by Options.Now: the token lasts 15 minutes
	messageID                    string    // component interactions: the clicked message
	acked                        bool
	// answered is closed once the bot's HTTP answer has been applied.
	answered chan struct{}
	ackType  int
	original string
	choices  []any
}

// awaitAnswer waits until the HTTP answer of the interaction with this
// token has been applied: Discord has read a bot's answer before the bot can
// edit it, while here the client applies it only after reading it.
func (s *Server) awaitAnswer(token string) {
	s.mu.Lock()
	st := s.interactions[token]
	s.mu.Unlock()
	if st == nil || st.answered == nil {
		return
	}
	select {
	case <-st.answered:
	case <-time.After(s.opts.WaitTimeout):
	}
}

// NewServer starts a fake Discord for t, closed when t ends. It loads the
// OpenAPI spec once per process (see FindSpec) and fails t if the spec is
// present but broken, or absent when the CI variable is set.
func NewServer(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.WaitTimeout == 0 {
		opts.WaitTimeout = 3 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	spec, reason, err := LoadSpec()
	if err != nil {
		t.Fatalf("discordtest: %v", err)
	}
	if spec == nil {
		// CI always has ../shared beside the clone: there a missing spec
		// means the check is not running, which must not pass unseen.
		if os.Getenv("CI") != "" {
			t.Fatalf("discordtest: CI is set but %s", reason)
		}
		t.Logf("discordtest: OpenAPI validation skipped: %s", reason)
	}
	signer, err := NewSigner()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{
		t: t, opts: opts, spec: spec, Signer: signer,
		changed: make(chan struct{}), lastID: 1200000000000000000,
		channels: map[string]*Channel{}, messages: map[string]*Message{},
		interactions: map[string]*interaction{}, commands: map[string][]any{}, commandIDs: map[string]string{},
		limits:  map[string]int{},
		buckets: map[string]*bucket{},
	}
	s.AppID, s.BotUserID, s.GuildID = s.nextID(), "", s.nextID()
	s.BotUserID = s.AppID // a bot user shares its application's ID
	s.Token = "TVRJd01EQXdNREF3TURBd01EQXdNREF3TURBeA.GfAkeT.b0t-t0k3n-f0r-t3sts-0nly-n0t-r34l"
	s.http = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.http.URL + APIPrefix
	t.Cleanup(s.http.Close)
	return s
}

// Spec returns the loaded OpenAPI spec, or nil when validation is skipped.
func (s *Server) Spec() *Spec { return s.spec }

func (s *Server) nextID() string {
	// Called with or without s.mu; IDs only need to be unique.
	idMu.Lock()
	defer idMu.Unlock()
	s.lastID++
	return strconv.FormatUint(s.lastID, 10)
}

var idMu sync.Mutex

func (s *Server) commandID(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.commandIDs[name]; ok {
		return id
	}
	id := s.nextID()
	s.commandIDs[name] = id
	return id
}

// broadcast wakes WaitFor; called with s.mu held.
func (s *Server) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// problem records a violation and, unless RecordOnly, fails the test.
func (s *Server) problem(format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.problems = append(s.problems, msg)
	s.mu.Unlock()
	if !s.opts.RecordOnly {
		s.t.Errorf("discordtest: %s", msg)
	}
	return msg
}

// Problems returns every violation recorded so far.
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Calls returns every REST call so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// RateLimit makes the next n calls of method to the path template route
// (as in the spec, e.g. "/channels/{channel_id}/messages") answer 429 Too
// Many Requests with Discord's headers and body, asking to retry after
// 50 ms. The calls are recorded with status 429 and change nothing.
func (s *Server) RateLimit(method, route string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits[method+" "+route] += n
}

// bucket is a rate limit as Discord keeps it: at most limit calls per
// window, counted separately for each path (each channel, each
// interaction token) of a route.
type bucket struct {
	limit  int
	window time.Duration
	used   map[string]*bucketWindow
}

type bucketWindow struct {
	start time.Time
	n     int
}

// Bucket limits calls of method to the path template route to limit per
// window for each resource (each distinct path), and answers every such call
// with Discord's X-RateLimit-* headers. A call beyond the limit is a
// problem: the client should have waited for the reset the headers
// announced. It gets 429 and changes nothing.
func (s *Server) Bucket(method, route string, limit int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buckets[method+" "+route] = &bucket{limit: limit, window: window, used: map[string]*bucketWindow{}}
}

// GlobalRateLimit makes the next call, whatever its route, answer 429 with
// Discord's global-limit headers asking to wait d. A call on any route that
// arrives before d has passed is a problem (the client ignored the global
// limit); it gets 429 too.
func (s *Server) GlobalRateLimit(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.globalNext = d
}

// limitHeaders is the rate-limit verdict for one call: the headers to send
// and whether the call is refused (429) and why.
type limitHeaders struct {
	h       http.Header
	refuse  bool
	problem string
	retry   time.Duration
	global  bool
}

// limit applies the global limit and the route's bucket to a call.
func (s *Server) limit(method, route, path string) limitHeaders {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var lh limitHeaders
	switch {
	case s.globalNext > 0:
		lh = limitHeaders{refuse: true, retry: s.globalNext, global: true}
		s.globalUntil, s.globalNext = now.Add(s.globalNext), 0
		return lh
	case now.Before(s.globalUntil):
		return limitHeaders{refuse: true, retry: s.globalUntil.Sub(now), global: true,
			problem: fmt.Sprintf("%s %s arrived %v before the end of the global rate limit", method, route, s.globalUntil.Sub(now).Round(time.Millisecond))}
	}
	b := s.buckets[method+" "+route]
	if b == nil {
		return lh
	}
	w := b.used[path]
	if w == nil || now.Sub(w.start) >= b.window {
		w = &bucketWindow{start: now}
		b.used[path] = w
	}
	resetAfter := b.window - now.Sub(w.start)
	if w.n >= b.limit {
		lh = limitHeaders{refuse: true, retry: resetAfter,
			problem: fmt.Sprintf("%s %s: call %d in a bucket of %d per %v, %v before its reset", method, route, w.n+1, b.limit, b.window, resetAfter.Round(time.Millisecond))}
	} else {
		w.n++
	}
	lh.h = http.Header{}
	lh.h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	lh.h.Set("X-RateLimit-Remaining", strconv.Itoa(b.limit-w.n))
	lh.h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter.Seconds(), 'f', 3, 64))
	lh.h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(now.Add(resetAfter).UnixMilli())/1000, 'f', 3, 64))
	lh.h.Set("X-RateLimit-Bucket", fmt.Sprintf("%x", method+" "+route))
	return lh
}

// rateLimited consumes one 429 for the call, if any is left.
func (s *Server) rateLimited(method, route string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := method + " " + route
	if s.limits[k] > 0 {
		s.limits[k]--
		return true
	}
	return false
}

// NewUser makes a user with a fresh ID.
func (s *Server) NewUser(name string) User { return User{ID: s.nextID(), Username: name} }

// GuildChannel makes a text channel in the test guild.
func (s *Server) GuildChannel(name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelGuildText, GuildID: s.GuildID, Name: name})
}

// PrivateGuildChannel makes a private text channel in the test guild:
// @everyone may not view it, the roles viewRoles may (Channel.Hidden).
func (s *Server) PrivateGuildChannel(name string, viewRoles ...string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelGuildText, GuildID: s.GuildID, Name: name, Hidden: true, ViewRoles: viewRoles})
}

// GuildCategory makes a category (a folder of channels, where nobody
// posts) in the test guild.
func (s *Server) GuildCategory(name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelCategory, GuildID: s.GuildID, Name: name})
}

// GuildForum makes a forum channel in the test guild: its threads are
// posts (see Thread), and nobody runs commands in the forum itself.
func (s *Server) GuildForum(name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelGuildForum, GuildID: s.GuildID, Name: name})
}

// GuildAnnouncement makes an announcement channel in the test guild.
func (s *Server) GuildAnnouncement(name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelGuildAnnouncement, GuildID: s.GuildID, Name: name})
}

// Thread makes a public thread that a member started in parent: a forum
// post when parent is a forum. The bot's permissions there are parent's.
func (s *Server) Thread(parent *Channel, name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelPublicThread, GuildID: parent.GuildID, Name: name, ParentID: parent.ID, AppPermissions: parent.AppPermissions})
}

// OtherGuildChannel makes a text channel in another guild than the test
// guild, with the given ID.
func (s *Server) OtherGuildChannel(guildID, name string) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelGuildText, GuildID: guildID, Name: name})
}

// DM makes the DM channel between the bot and u.
func (s *Server) DM(u User) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelDM, Recipient: u})
}

// PrivateChannel makes a DM between two users in which the app is used
// through a user install (interaction context PRIVATE_CHANNEL): the bot is
// not a member, so it can answer interactions there but not post or edit
// through the channel endpoints.
func (s *Server) PrivateChannel(a, b User) *Channel {
	return s.addChannel(&Channel{ID: s.nextID(), Type: ChannelDM, Recipient: b, Private: true})
}

// addChannel makes c known to the fake.
func (s *Server) addChannel(c *Channel) *Channel {
	s.mu.Lock()
	s.channels[c.ID] = c
	s.mu.Unlock()
	return c
}

// DeleteChannel deletes a channel, as a server's admin may: the fake
// answers 404 Unknown Channel for it from then on, which it does not count
// as a problem (gobot learns of the deletion only from that answer).
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	delete(s.channels, id)
	if s.gone == nil {
		s.gone = map[string]bool{}
	}
	s.gone[id] = true
	s.mu.Unlock()
}

// Channel returns a channel the fake knows (including threads the bot made).
func (s *Server) Channel(id string) (*Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[id]
	if !ok {
		return nil, false
	}
	cp := *c
	return &cp, true
}

// Threads lists the threads in channel parentID: those the bot created,
// and members' made with Thread.
func (s *Server) Threads(parentID string) []*Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Channel
	for _, c := range s.channels {
		if c.ParentID == parentID {
			cp := *c
			out = append(out, &cp)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Messages returns the channel's messages that are not deleted, oldest
// first, including ephemeral ones.
func (s *Server) Messages(channelID string) []Message {
	return s.messagesWhere(func(m *Message) bool { return m.ChannelID == channelID })
}

// AllMessages returns every message not deleted, in every channel, oldest
// first.
func (s *Server) AllMessages() []Message {
	return s.messagesWhere(func(*Message) bool { return true })
}

// messagesWhere returns copies of the messages not deleted for which keep
// is true, oldest first; keep runs with s.mu held.
func (s *Server) messagesWhere(keep func(*Message) bool) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.order {
		if m := s.messages[id]; !m.Deleted && keep(m) {
			out = append(out, *m)
		}
	}
	return out
}

// Public returns the channel's non-ephemeral messages, oldest first.
func (s *Server) Public(channelID string) []Message {
	var out []Message
	for _, m := range s.Messages(channelID) {
		if !m.Ephemeral {
			out = append(out, m)
		}
	}
	return out
}

// Message returns a message by ID.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// Original returns the message that answers it (its initial response,
// possibly deferred and edited since), if any.
func (s *Server) Original(it *Interaction) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.interactions[it.Token]
	if !ok || st.original == "" {
		return Message{}, false
	}
	m := s.messages[st.original]
	if m == nil || m.Deleted {
		return Message{}, false
	}
	return *m, true
}

// Followups returns the follow-up messages of an interaction, oldest first.
func (s *Server) Followups(it *Interaction) []Message {
	s.mu.Lock()
	st := s.interactions[it.Token]
	s.mu.Unlock()
	if st == nil {
		return nil
	}
	return s.messagesWhere(func(m *Message) bool { return m.InteractionID == st.id && m.ID != st.original })
}

// AddEntryPoint gives the application the Entry Point command Discord
// creates when Activities are enabled in the Developer Portal ("launch",
// handled by Discord), among its global commands, and returns it.
func (s *Server) AddEntryPoint() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := map[string]any{
		"id": s.nextID(), "application_id": s.AppID, "version": s.nextID(), "type": float64(4), "handler": float64(2),
		"name": "launch", "description": "", "contexts": []any{float64(0), float64(1), float64(2)}, "integration_types": []any{float64(0), float64(1)},
		"default_member_permissions": nil, "dm_permission": true, "nsfw": false,
	}
	s.commands[""] = append(s.commands[""], c)
	return c
}

// Commands returns the commands last overwritten globally (guildID "") or
// in a guild.
func (s *Server) Commands(guildID string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands[guildID]
}

// WaitFor waits until cond returns true, re-checking after every REST call
// (and at least every 50 ms); it fails the test after Options.WaitTimeout.
// cond must not hold locks of its own while calling Server methods.
func (s *Server) WaitFor(what string, cond func() bool) {
	s.t.Helper()
	deadline := time.NewTimer(s.opts.WaitTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline.C:
			var calls []string
			for _, c := range s.Calls() {
				calls = append(calls, c.String())
			}
			s.t.Fatalf("discordtest: gave up waiting for %s after %v; REST calls so far:\n%s", what, s.opts.WaitTimeout, strings.Join(calls, "\n"))
		}
	}
}

// discordError is Discord's JSON error body.
func discordError(code int, msg string) map[string]any {
	return map[string]any{"code": code, "message": msg}
}

// serve handles one REST request: decode, record, validate, route, answer.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, APIPrefix)
	if ok && s.serveOAuth(w, r, path) {
		return
	}
	call := Call{Method: r.Method, Path: path, Query: r.URL.Query(), ContentType: r.Header.Get("Content-Type"), At: time.Now()}
	status, answer := s.handle(r, path, ok, &call)
	call.Status = status
	if s.spec != nil && call.Route != "" && !call.injected {
		if err := s.spec.ValidateResponse(r.Method, path, status, answer); err != nil {
			call.Problems = append(call.Problems, s.problem("fake's own answer to %s is invalid: %v", call, err))
		}
	}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.broadcast()
	s.mu.Unlock()
	for k, v := range call.limitHeaders {
		w.Header()[k] = v
	}
	if status == http.StatusTooManyRequests && call.limitHeaders == nil {
		h := w.Header()
		h.Set("Retry-After", "1")
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset-After", "0.050")
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(50*time.Millisecond).UnixMilli())/1000, 'f', 3, 64))
		h.Set("X-RateLimit-Bucket", "fake-bucket")
		h.Set("X-RateLimit-Scope", "user")
	}
	if answer == nil {
		w.WriteHeader(status)
		return
	}
	b, err := json.Marshal(answer)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

func (s *Server) handle(r *http.Request, path string, prefixed bool, call *Call) (int, any) {
	fail := func(status, code int, format string, args ...any) (int, any) {
		msg := s.problem(format, args...)
		call.Problems = append(call.Problems, msg)
		return status, discordError(code, msg)
	}
	if !prefixed {
		return fail(http.StatusNotFound, 0, "%s %s is outside %s", r.Method, r.URL.Path, APIPrefix)
	}
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down != 0 {
		return down, discordError(0, http.StatusText(down))
	}
	route, params, found := bestMatch(fakeRoutes, path)
	switch {
	case s.spec != nil:
		_, tmpl, err := s.spec.Operation(r.Method, path)
		if err != nil {
			return fail(http.StatusNotFound, 0, "bot called %s %s, which is not in Discord's API: %v", r.Method, path, err)
		}
		call.Route = tmpl
	case found:
		call.Route = route.path
	}
	if status := s.failing(r.Method, call.Route); status != 0 {
		call.injected = true
		return status, discordError(0, http.StatusText(status))
	}
	body, files, err := decodeBody(r)
	if err != nil {
		return fail(http.StatusBadRequest, 50109, "%s %s: unreadable body: %v", r.Method, call.Route, err)
	}
	call.Body, call.Files = body, files
	webhook := strings.HasPrefix(path, "/webhooks/") || strings.HasPrefix(path, "/interactions/")
	if auth := r.Header.Get("Authorization"); (!webhook || auth != "") && auth != "Bot "+s.Token {
		s.problem("%s %s: Authorization header is not \"Bot <token>\"", r.Method, call.Route)
		return http.StatusUnauthorized, discordError(0, "401: Unauthorized")
	}
	if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "DiscordBot (") {
		s.problem("%s %s: User-Agent %q is not \"DiscordBot ($url, $versionNumber)\"", r.Method, call.Route, ua)
	}
	if s.spec != nil {
		mt, _, _ := mime.ParseMediaType(call.ContentType)
		if body == nil {
			mt = ""
		}
		v := body
		if mt == "multipart/form-data" {
			v = withFiles(body, files)
		}
		if err := s.spec.ValidateRequest(r.Method, path, mt, v); err != nil {
			return fail(http.StatusBadRequest, 50035, "invalid request body: %v", err)
		}
	}
	if !found {
		return fail(http.StatusNotImplemented, 0, "the fake does not implement %s %s", r.Method, call.Route)
	}
	if lh := s.limit(r.Method, route.path, path); lh.h != nil || lh.refuse {
		call.limitHeaders = lh.h
		if lh.problem != "" {
			call.Problems = append(call.Problems, s.problem("%s", lh.problem))
		}
		if lh.refuse {
			if call.limitHeaders == nil {
				call.limitHeaders = http.Header{}
			}
			secs := strconv.FormatFloat(lh.retry.Seconds(), 'f', 3, 64)
			call.limitHeaders.Set("Retry-After", secs)
			call.limitHeaders.Set("X-RateLimit-Reset-After", secs)
			if lh.global {
				call.limitHeaders.Set("X-RateLimit-Global", "true")
				call.limitHeaders.Set("X-RateLimit-Scope", "global")
			}
			return http.StatusTooManyRequests, map[string]any{"code": 0, "message": "You are being rate limited.", "retry_after": lh.retry.Seconds(), "global": lh.global}
		}
	}
	if d := s.throttle(params); d > 0 {
		secs := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
		call.limitHeaders = http.Header{"Retry-After": {secs}, "X-Ratelimit-Scope": {"shared"}}
		return http.StatusTooManyRequests, map[string]any{"code": 0, "message": "You are being rate limited.", "retry_after": d.Seconds(), "global": false}
	}
	if s.rateLimited(r.Method, route.path) {
		return http.StatusTooManyRequests, map[string]any{"code": 0, "message": "You are being rate limited.", "retry_after": 0.05, "global": false}
	}
	h := fakeHandlers[route.path][r.Method]
	if h == nil {
		return fail(http.StatusNotImplemented, 0, "the fake does not implement %s %s", r.Method, route.path)
	}
	if tok := params["webhook_token"]; tok != "" {
		s.awaitAnswer(tok)
	}
	req := &restRequest{method: r.Method, params: params, query: call.Query, body: body, files: files}
	resp := h(s, req)
	if resp.problem != "" {
		call.Problems = append(call.Problems, s.problem("%s %s: %s", r.Method, call.Route, resp.problem))
	}
	return resp.status, resp.body
}

// withFiles adds a "files[n]" string per upload, as the multipart schema
// describes them.
func withFiles(body any, files []Attachment) any {
	m, ok := body.(map[string]any)
	if !ok {
		return body
	}
	out := make(map[string]any, len(m)+len(files))
	for k, v := range m {
		out[k] = v
	}
	for i := range files {
		out["files["+files[i].ID+"]"] = string(files[i].Data)
	}
	return out
}

// decodeBody reads a JSON or multipart body. Multipart bodies carry the JSON
// in payload_json and files in files[n] parts; the Attachment's ID is n.
func decodeBody(r *http.Request) (any, []Attachment, error) {
	data, err := io.ReadAll(io.LimitReader(r.Body, 26<<20))
	if err != nil {
		return nil, nil, err
	}
	if len(data) == 0 {
		return nil, nil, nil
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, nil, fmt.Errorf("content type: %w", err)
	}
	switch mt {
	case "application/json":
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, nil, err
		}
		return v, nil, nil
	case "multipart/form-data":
		return decodeMultipart(data, params["boundary"])
	}
	return nil, nil, fmt.Errorf("content type %q is neither JSON nor multipart", mt)
}

func decodeMultipart(data []byte, boundary string) (any, []Attachment, error) {
	mr := multipart.NewReader(bytes.NewReader(data), boundary)
	var (
		body  any
		files []Attachment
	)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		content, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, err
		}
		name := p.FormName()
		switch {
		case name == "payload_json":
			if err := json.Unmarshal(content, &body); err != nil {
				return nil, nil, fmt.Errorf("payload_json: %w", err)
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n := name[len("files[") : len(name)-1]
			if _, err := strconv.Atoi(n); err != nil {
				return nil, nil, fmt.Errorf("file part %q", name)
			}
			files = append(files, Attachment{ID: n, Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: content})
		default:
			return nil, nil, fmt.Errorf("unexpected multipart field %q (want payload_json and files[n])", name)
		}
	}
	if body == nil {
		return nil, nil, fmt.Errorf("multipart body without payload_json")
	}
	return body, files, nil
}
