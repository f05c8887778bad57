package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/commands"
)

// Path is where the board page lives on gobot's HTTP server.
const Path = "/play"

//go:embed all:assets
var assets embed.FS

// App is what the board page needs from gobot's application
// (*commands.App): the games, the actions, and the change feed.
type App interface {
	Act(ctx context.Context, channelID string, u commands.WebUser, a commands.Action) commands.ActResult
	View(ctx context.Context, channelID string) (*commands.GameView, error)
	Games(ctx context.Context, channelID string) ([]commands.GameSummary, error)
	GamesBy(ctx context.Context, channelIDs []string) (map[string][]commands.GameSummary, error)
	Where(ctx context.Context, channelID string) (guildID, parentID string, err error)
	Start(ctx context.Context, channelID string, u commands.WebUser, s commands.Start) (commands.ActResult, string)
	Answer(ctx context.Context, channelID string, u commands.WebUser, id string, accept bool) commands.ActResult
	Offers(ctx context.Context) ([]commands.Offer, error)
	Record(ctx context.Context, channelID, gameID string) (commands.File, string)
	NewChannelID() string
	Levels() []commands.Level
	OnChange(fn func(channelID string)) (stop func())
}

var _ App = (*commands.App)(nil)

// Defaults for Options left zero.
const (
	DefaultSessionTTL = 15 * time.Minute
	DefaultHelloWait  = 30 * time.Second
	// renewEvery is how often an open page is sent a fresh session token.
	renewEvery = 5 * time.Minute
	stateTTL   = 10 * time.Minute
)

// Options configure a Handler. App is required.
type Options struct {
	App App
	// Local allows signing in by name, from a loopback address only. Only
	// the console's page sets it: its App has no Discord behind it, so
	// local games never reach Discord, and no proxy stands between the
	// page and gobot (behind one on the same host every visitor would
	// come from a loopback address).
	Local bool
	// LocalChannel is the channel a local page opens on (the console's).
	LocalChannel string
	// ClientID and ClientSecret are the Discord application's, for the
	// Activity's OAuth2 code exchange; without a secret the page works in
	// local mode only.
	ClientID     string
	ClientSecret string
	// SessionKey signs the session tokens when there is no ClientSecret
	// (the console's page), so that a tab's sign-in outlives a restart
	// (the console keeps it in its state file); a random key when
	// empty. With a ClientSecret the key is derived from it.
	SessionKey []byte
	// BotToken reads the Activity's instance (who is in it, in which
	// channel) from Discord.
	BotToken string
	// APIURL is Discord's REST API (DISCORD_API_URL), where the token
	// endpoint (/oauth2/token) and the instance are asked.
	APIURL string
	// HTTPClient makes the calls to Discord (http.DefaultClient).
	HTTPClient *http.Client
	// SessionTTL is how long a session token is good for (DefaultSessionTTL).
	SessionTTL time.Duration
	// Rate and Burst limit the messages of one connection: Rate a second
	// on average, Burst at once (10 and 20).
	Rate  float64
	Burst int
	// HelloWait is how long a new connection may take to sign in
	// (hello) before it is closed (DefaultHelloWait).
	HelloWait time.Duration
	Now       func() time.Time
	Log       *slog.Logger
}

// Handler serves the board page under Path. It is safe for concurrent
// use; Close ends its connections.
type Handler struct {
	opts   Options
	mux    *http.ServeMux
	sign   *signer
	hub    *hub
	files  map[string]asset
	stopFn func()
	// limits bound the Activity's sign-ins (see oauth.go).
	limits  limits
	avatars avatars
	// writeBufs are the WebSockets' write buffers, lent for a page's own
	// messages (a state sent to many is framed once, and needs none).
	writeBufs sync.Pool
}

// asset is one embedded file, with its gzip form when that is smaller.
type asset struct {
	data, gz []byte
	ctype    string
}

// New returns the board page's handler.
func New(opts Options) (*Handler, error) {
	if opts.App == nil {
		return nil, errors.New("web: New needs the App")
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = DefaultSessionTTL
	}
	if opts.Rate <= 0 {
		opts.Rate = 10
	}
	if opts.Burst <= 0 {
		opts.Burst = 20
	}
	if opts.HelloWait <= 0 {
		opts.HelloWait = DefaultHelloWait
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	opts.APIURL = strings.TrimRight(opts.APIURL, "/")
	h := &Handler{opts: opts, mux: http.NewServeMux(), sign: newSigner(opts.ClientSecret, opts.SessionKey), files: map[string]asset{}}
	if err := h.loadAssets(); err != nil {
		return nil, err
	}
	h.hub = newHub(h)
	h.stopFn = opts.App.OnChange(h.hub.changed)
	if s, ok := opts.App.(interface {
		SeeUsers(func(userID, avatar string))
	}); ok && !opts.Local {
		// Every player who used gobot in Discord shows their picture,
		// not only those who opened the page here.
		s.SeeUsers(h.avatars.put)
	}
	h.mux.HandleFunc("GET "+Path, h.Redirect)
	h.mux.HandleFunc("GET "+Path+"/", h.serveAsset)
	h.mux.HandleFunc("GET "+Path+"/api/config", h.serveConfig)
	h.mux.HandleFunc("POST "+Path+"/api/local", h.serveLocal)
	h.mux.HandleFunc("GET "+Path+"/api/state", h.serveState)
	h.mux.HandleFunc("POST "+Path+"/api/token", h.serveToken)
	h.mux.HandleFunc("GET "+Path+"/api/avatar/{id}", h.serveAvatar)
	h.mux.HandleFunc("GET "+Path+"/ws", h.serveWS)
	return h, nil
}

// Close stops following the App's changes and closes every connection.
func (h *Handler) Close() {
	h.stopFn()
	h.hub.close()
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

func (h *Handler) loadAssets() error {
	return fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assets.ReadFile(p)
		if err != nil {
			return err
		}
		a := asset{data: data, ctype: mime.TypeByExtension(path.Ext(p))}
		switch path.Ext(p) {
		case ".mjs", ".js":
			a.ctype = "text/javascript; charset=utf-8"
		case ".md":
			a.ctype = "text/plain; charset=utf-8"
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		if buf.Len() < len(data) {
			a.gz = buf.Bytes()
		}
		h.files[strings.TrimPrefix(p, "assets/")] = a
		return nil
	})
}

// Redirect sends a request to Path+"/" with its query, where the page's
// relative addresses (assets, api/…, ws) resolve under Path. It serves
// /play, and the server's root, where Discord opens the Activity (its URL
// mapping "/" points at gobot's host).
func (h *Handler) Redirect(w http.ResponseWriter, r *http.Request) {
	u := Path + "/"
	if r.URL.RawQuery != "" {
		u += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, u, http.StatusFound)
}

func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, Path+"/")
	if name == "" {
		name = "index.html"
	}
	h.serveFile(w, r, name)
}

func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := h.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.ctype)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Vary", "Accept-Encoding")
	if name == "index.html" {
		// Discord shows the page in its own frame; elsewhere no one may.
		anc := "'none'"
		if h.opts.ClientID != "" {
			anc = "https://discord.com https://*.discord.com https://*.discordsays.com"
		}
		hd.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; frame-ancestors "+anc)
	}
	body := a.data
	if a.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		hd.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	w.Write(body)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// problem answers with a sentence for the page.
func problem(w http.ResponseWriter, status int, text string) {
	writeJSON(w, status, map[string]string{"error": text})
}

func (h *Handler) serveConfig(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"client_id": h.opts.ClientID,
		"discord":   h.opts.ClientSecret != "" && h.opts.ClientID != "",
		"local":     h.localAllowed(r),
	})
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if hst, _, err := net.SplitHostPort(host); err == nil {
		host = hst
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// localAllowed reports whether r may sign in by name: local mode, from a
// loopback address, to a loopback name, not through a proxy.
func (h *Handler) localAllowed(r *http.Request) bool {
	if !h.opts.Local || r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback() && loopbackHost(r.Host)
}

// localRefused is the answer to a name sign-in where gobot does not
// serve the console's board page, when the Activity is set up (board
// messages then have an Open board button); localRefusedNoActivity when
// it is not, and there is no such button. localRefusedRemote answers one
// to the console's board page that does not come from this computer to
// a loopback name: the console's user has no Discord to be sent to.
const (
	localRefused           = "Signing in by name works only on the board page beside gobot's console (gobot console), on this computer. In Discord, open the board from a game's Open board button."
	localRefusedNoActivity = "Signing in by name works only on the board page beside gobot's console (gobot console), on this computer. This board page is not set up for Discord on this server: until its admin sets up gobot's Activity, play with /go and /draughts in Discord."
	localRefusedRemote     = "Signing in by name works only from this computer: open the board page at 127.0.0.1 or localhost, as gobot console printed it (not from another address, and not through a proxy)."
)

func (h *Handler) serveLocal(w http.ResponseWriter, r *http.Request) {
	if !h.localAllowed(r) {
		msg := localRefused
		switch {
		case h.opts.Local:
			msg = localRefusedRemote
		case h.opts.ClientSecret == "" || h.opts.ClientID == "":
			msg = localRefusedNoActivity
		}
		problem(w, http.StatusForbidden, msg)
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil || !nameRe.MatchString(strings.TrimSpace(req.Name)) {
		problem(w, http.StatusBadRequest, "Choose a name of 1 to 32 letters, digits, spaces, dots, dashes or underscores.")
		return
	}
	name := strings.TrimSpace(req.Name)
	u := commands.ConsoleUser(name)
	tok := h.sign.token(session{UserID: u.ID, Name: name, Local: true, Channel: h.opts.LocalChannel, Expires: h.opts.Now().Add(h.opts.SessionTTL).Unix()})
	writeJSON(w, http.StatusOK, map[string]any{"session": tok, "user": userInfo{ID: u.ID, Name: name}})
}
