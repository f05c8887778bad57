package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gorilla/websocket"
)

// Sentences of the WebSocket.
const (
	sessionExpired = "Your session has expired: reload the board to sign in again."
	sessionInvalid = "This board's sign-in is not valid: reload the board to sign in again."
	signInFirst    = "Sign in first."
	tooFast        = "You are sending too many messages: slow down; this one was ignored."
	stillBusy      = "Your last actions are still being made: wait for them."
	notHere        = "This board shows only the games of the channel it was opened in (on this computer: the local games)."
	startLocal     = "New games start here only on the board page beside gobot's console: in Discord, use /go challenge or /go bot."
	answerLocal    = "Challenges are answered here only on the board page beside gobot's console: in Discord, press Accept or Decline under the challenge."
)

// maxInFlight is how many actions of one page may be in flight at once:
// an action's answer is sent once its board is posted in Discord, which
// may take longer than the opponent's reply.
const maxInFlight = 4

// sendBuffer is how many messages wait for a slow page before it is
// dropped (it reconnects and gets the state afresh).
const sendBuffer = 64

// socketBuffer is the most a page's socket holds for it unsent (the
// kernel's send buffer; Linux doubles it for its bookkeeping): with
// sendBuffer, it bounds what a page that stopped reading costs, and how
// soon it is dropped.
const socketBuffer = 32 << 10

// writeWait is how long a page may take to accept a message (its
// connection is closed after).
const writeWait = 10 * time.Second

// pingEvery is how often the server pings a page; pongWait how long it
// waits for any word from it before giving up.
const (
	pingEvery = 30 * time.Second
	pongWait  = 75 * time.Second
)

// conn is one page's WebSocket.
type conn struct {
	h    *Handler
	ws   *websocket.Conn
	send chan *frame
	quit chan struct{}
	once sync.Once

	room string // the channel watched; the hub's mu guards it

	mu     sync.Mutex
	sess   session
	signed bool
	busy   int // actions in flight (at most maxInFlight)
	// mine are the channels of the local games this page started or was
	// challenged to, which it may watch before their game begins.
	mine   map[string]bool
	tokens float64
	at     time.Time
}

// checkOrigin lets in Discord's Activity proxy, and the page's own origin
// on a loopback address in local mode.
func (h *Handler) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	if h.opts.ClientID != "" && origin == "https://"+h.opts.ClientID+".discordsays.com" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && h.localAllowed(r) && u.Host == r.Host && loopbackHost(u.Host)
}

// frame is a message to pages: framed once for everyone who gets it (a
// game's state, a games list), or one page's own (sent as it is).
type frame struct {
	pm   *websocket.PreparedMessage
	data []byte
}

// prepare frames a message for many pages.
func prepare(data []byte) (*frame, error) {
	pm, err := websocket.NewPreparedMessage(websocket.TextMessage, data)
	if err != nil {
		return nil, err
	}
	return &frame{pm: pm}, nil
}

func (h *Handler) serveWS(w http.ResponseWriter, r *http.Request) {
	// The connection reads through the HTTP server's buffer (ReadBufferSize
	// 0), and borrows a write buffer only to write a page's own message: a
	// page watching holds none.
	up := websocket.Upgrader{CheckOrigin: h.checkOrigin, WriteBufferPool: &h.writeBufs, EnableCompression: true}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered (403 for a foreign origin)
	}
	if tc, ok := ws.UnderlyingConn().(interface{ SetWriteBuffer(int) error }); ok {
		tc.SetWriteBuffer(socketBuffer)
	}
	ws.SetReadLimit(readLimit)
	// The HTTP server's read deadline stays on a hijacked connection:
	// replace it with one the page's pongs keep moving.
	ws.SetReadDeadline(time.Now().Add(pongWait))
	ws.SetPongHandler(func(string) error { return ws.SetReadDeadline(time.Now().Add(pongWait)) })
	c := &conn{h: h, ws: ws, send: make(chan *frame, sendBuffer), quit: make(chan struct{}), tokens: float64(h.opts.Burst), at: time.Now()}
	// The handler returns, and the HTTP server lets go of what it kept for
	// the request; the connection lives on in its two goroutines.
	go c.writeLoop()
	go c.readLoop()
	// A page signs in as soon as it opens; a connection that does not
	// (not a page) holds nothing for long, and no shutdown waits for it.
	time.AfterFunc(h.opts.HelloWait, func() {
		if !c.signedIn() {
			c.close()
		}
	})
}

// push queues a message of this page's own.
func (c *conn) push(data []byte) {
	c.queue(&frame{data: data})
}

// queue queues a message without waiting: a page too slow to take it (its
// queue full) is dropped. Its page reconnects and is sent the game as it
// is then (see hub.join).
func (c *conn) queue(f *frame) {
	select {
	case c.send <- f:
	case <-c.quit:
	default:
		c.close()
	}
}

func (c *conn) pushJSON(v any) {
	data, err := json.Marshal(v)
	if err == nil {
		c.push(data)
	}
}

func (c *conn) close() {
	c.once.Do(func() {
		close(c.quit)
		c.ws.Close()
	})
}

func (c *conn) signedIn() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.signed
}

func (c *conn) session() session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// scope is the games list the page sees: its Activity's channel and
// threads, or every local game.
func (c *conn) scope() string {
	s := c.session()
	if s.Local {
		return ""
	}
	return s.Channel
}

func (c *conn) writeLoop() {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	renew := time.NewTicker(min(renewEvery, c.h.opts.SessionTTL/3))
	defer renew.Stop()
	for {
		select {
		case <-c.quit:
			return
		case f := <-c.send:
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			var err error
			if f.pm != nil {
				err = c.ws.WritePreparedMessage(f.pm)
			} else {
				err = c.ws.WriteMessage(websocket.TextMessage, f.data)
			}
			if err != nil {
				c.close()
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.close()
				return
			}
		case <-renew.C:
			c.mu.Lock()
			if c.signed && c.h.opts.Now().Unix() < c.sess.Expires {
				c.sess.Expires = c.h.opts.Now().Add(c.h.opts.SessionTTL).Unix()
				tok := c.h.sign.token(c.sess)
				c.mu.Unlock()
				c.pushJSON(renewMessage{T: "renew", Session: tok})
				continue
			}
			c.mu.Unlock()
		}
	}
}

// allow takes a token from the connection's bucket.
func (c *conn) allow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.tokens = min(float64(c.h.opts.Burst), c.tokens+now.Sub(c.at).Seconds()*c.h.opts.Rate)
	c.at = now
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}

func (c *conn) readLoop() {
	defer func() {
		c.h.hub.remove(c)
		c.close()
	}()
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		c.ws.SetReadDeadline(time.Now().Add(pongWait))
		if !c.allow() {
			c.pushJSON(errorMessage{T: "error", Text: tooFast})
			continue
		}
		m, err := decodeMessage(data)
		if err != nil {
			c.pushJSON(errorMessage{T: "error", Text: err.Error()})
			continue
		}
		c.handle(m)
	}
}

// handle does what a well-formed message asks, when its sender may.
func (c *conn) handle(m clientMessage) {
	h := c.h
	if m.T == "hello" {
		c.hello(m.Session)
		return
	}
	if !c.signedIn() {
		c.pushJSON(errorMessage{T: "error", Text: signInFirst, Fatal: true, SignIn: true})
		return
	}
	s := c.session()
	if h.opts.Now().Unix() >= s.Expires {
		c.pushJSON(errorMessage{T: "error", Text: sessionExpired, Fatal: true, SignIn: true})
		return
	}
	switch m.T {
	case "watch":
		if !c.mayWatch(s, m.Channel) {
			c.pushJSON(errorMessage{T: "error", Text: notHere})
			return
		}
		h.hub.join(c, m.Channel)
	case "act":
		if !c.mayWatch(s, m.Channel) {
			c.pushJSON(resultMessage{T: "result", ID: m.ID, Text: notHere, Refused: true})
			return
		}
		// A Go point in capitals ("D4"), a draughts move in small letters
		// ("28x19"), as the slash commands' answers write them.
		point := strings.ToUpper(m.Point)
		if moveRe.MatchString(m.Point) {
			point = strings.ToLower(m.Point)
		}
		c.do(m.ID, func(ctx context.Context) any {
			res := h.opts.App.Act(ctx, m.Channel, commands.WebUser{ID: s.UserID, Name: s.Name},
				commands.Action{Kind: m.Kind, Point: point, Game: m.Game, Version: m.Version, Moves: m.Moves, Seat: m.Seat})
			// No channel: the page stays where it is (it may have moved
			// on to another game while this action waited for a bot).
			return resultMessage{T: "result", ID: m.ID, Text: res.Text, Refused: res.Refused, Version: res.Version}
		})
	case "start":
		if !s.Local {
			c.pushJSON(resultMessage{T: "result", ID: m.ID, Text: startLocal, Refused: true})
			return
		}
		c.do(m.ID, func(ctx context.Context) any {
			channel := h.opts.App.NewChannelID()
			c.own(channel)
			st := commands.Start{Level: m.Level, Size: m.Size, Color: m.Color, Handicap: m.Handicap, Clock: m.Clock}
			me := commands.WebUser{ID: s.UserID, Name: s.Name}
			var opp commands.WebUser
			if m.Opponent != "" {
				opp = commands.ConsoleUser(strings.TrimSpace(m.Opponent))
				st.Opponent = &opp
			}
			res, id := h.opts.App.Start(ctx, channel, me, st)
			if id != "" {
				res.Text = "Challenge sent. " + res.Text // the invitation, as the opponent reads it
				// The challenge waits in the list: send it before the page
				// shows the challenge's channel.
				h.hub.sendList(c)
			}
			return resultMessage{T: "result", ID: m.ID, Text: res.Text, Refused: res.Refused, Channel: channel, Challenge: id != ""}
		})
	case "record":
		if !c.mayWatch(s, m.Channel) {
			c.pushJSON(resultMessage{T: "result", ID: m.ID, Text: notHere, Refused: true})
			return
		}
		c.do(m.ID, func(ctx context.Context) any {
			f, refusal := h.opts.App.Record(ctx, m.Channel, m.Game)
			if refusal != "" {
				return resultMessage{T: "result", ID: m.ID, Text: refusal, Refused: true}
			}
			return recordMessage{T: "record", ID: m.ID, Name: f.Name, Type: f.ContentType, Data: string(f.Data)}
		})
	case "answer":
		if !s.Local {
			c.pushJSON(resultMessage{T: "result", ID: m.ID, Text: answerLocal, Refused: true})
			return
		}
		if c.offered(s, m.Challenge, m.Channel) {
			c.own(m.Channel) // the page shows the game as it starts
		}
		c.do(m.ID, func(ctx context.Context) any {
			res := h.opts.App.Answer(ctx, m.Channel, commands.WebUser{ID: s.UserID, Name: s.Name}, m.Challenge, m.Accept)
			h.hub.sendList(c) // the challenge answered (or gone already) leaves it
			out := resultMessage{T: "result", ID: m.ID, Text: res.Text, Refused: res.Refused}
			if m.Accept && !res.Refused {
				out.Channel = m.Channel // the game started: a declined challenge leaves the page where it is
			}
			return out
		})
	}
}

// do runs an action for the page, without holding up its reads (at most
// maxInFlight at once), and sends its result (a resultMessage, or what
// the action asked for).
func (c *conn) do(id int, fn func(ctx context.Context) any) {
	c.mu.Lock()
	if c.busy >= maxInFlight {
		c.mu.Unlock()
		c.pushJSON(resultMessage{T: "result", ID: id, Text: stillBusy, Refused: true})
		return
	}
	c.busy++
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			c.busy--
			c.mu.Unlock()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		c.pushJSON(fn(ctx))
	}()
}

// hello signs the connection in with a session token.
func (c *conn) hello(tok string) {
	h := c.h
	s, err := h.sign.session(tok, h.opts.Now())
	switch {
	case errors.Is(err, errExpired):
		c.pushJSON(errorMessage{T: "error", Text: sessionExpired, Fatal: true, SignIn: true})
		return
	case err != nil:
		c.pushJSON(errorMessage{T: "error", Text: sessionInvalid, Fatal: true, SignIn: true})
		return
	}
	c.mu.Lock()
	c.sess, c.signed = s, true
	c.mu.Unlock()
	if !h.hub.add(c) {
		return
	}
	w := welcomeMessage{T: "welcome", User: userInfo{ID: s.UserID, Name: s.Name}, Local: s.Local, Channel: s.Channel}
	if s.Local {
		for _, l := range h.opts.App.Levels() {
			w.Levels = append(w.Levels, l.Name)
		}
		for _, p := range clock.Presets {
			w.Clocks = append(w.Clocks, choice{Value: p.Name, Label: p.Name + " — " + p.Control.Describe()})
		}
	}
	c.pushJSON(w)
	h.hub.sendList(c)
	if s.Channel != "" {
		h.hub.join(c, s.Channel)
	}
}

// mayWatch reports whether the page signed in as s may see channel's
// game: on a local page, the local games (the console's and those started
// on local pages); in an Activity, the game of its channel and those of
// its threads.
func (c *conn) mayWatch(s session, channel string) bool {
	if channel == s.Channel {
		return true
	}
	c.mu.Lock()
	mine := c.mine[channel]
	c.mu.Unlock()
	if mine {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	guild, parent, err := c.h.opts.App.Where(ctx, channel)
	if err != nil {
		return false
	}
	if s.Local {
		return guild == commands.LocalGuild
	}
	return parent != "" && parent == s.Channel
}

// offered reports whether challenge id, in channel, is open to the page
// signed in as s.
func (c *conn) offered(s session, id, channel string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	offers, err := c.h.opts.App.Offers(ctx)
	if err != nil {
		return false
	}
	for _, o := range offers {
		if o.ID == id && o.Channel == channel && o.To.ID == s.UserID {
			return true
		}
	}
	return false
}

// own lets the page watch a local game's channel before its game begins.
func (c *conn) own(channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mine == nil {
		c.mine = map[string]bool{}
	}
	c.mine[channel] = true
}
