package web

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/commands"
)

// hub keeps who watches what: a room per channel with a page open on it,
// and the lists of games (the picker) per scope: the Activity's channel,
// or "" for every local game. A change of a game is read from the App
// once per room, framed once (a PreparedMessage) and queued to everyone
// in it; each page's own writer sends it, so a slow page holds up no
// other (and is dropped when its queue is full: see conn.queue).
type hub struct {
	h *Handler

	mu     sync.Mutex
	closed bool
	rooms  map[string]*room
	conns  map[*conn]struct{}
	lists  map[string][]byte // the last games list sent, by scope

	lobby chan struct{} // the games lists need a look (buffered 1)
	done  chan struct{}
	wg    sync.WaitGroup
}

// room is the pages watching one channel's game. Its own lock orders what
// its pages get: a page joining gets the last state sent, after any state
// sent before and before any sent after, so none shows an older state
// over a newer one.
type room struct {
	channel string
	kick    chan struct{} // the game changed (buffered 1: changes coalesce)
	stop    chan struct{}

	mu    sync.Mutex // taken after the hub's mu, never before
	conns map[*conn]struct{}
	last  *frame // the last state sent
}

func newHub(h *Handler) *hub {
	hb := &hub{h: h, rooms: map[string]*room{}, conns: map[*conn]struct{}{}, lists: map[string][]byte{},
		lobby: make(chan struct{}, 1), done: make(chan struct{})}
	hb.wg.Add(1)
	go hb.runLobby()
	return hb
}

// changed is the App's change feed: the game of channel changed.
func (hb *hub) changed(channel string) {
	hb.mu.Lock()
	if r := hb.rooms[channel]; r != nil {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
	hb.mu.Unlock()
	hb.touchLobby()
}

func (hb *hub) touchLobby() {
	select {
	case hb.lobby <- struct{}{}:
	default:
	}
}

// close ends every connection and the hub's goroutines.
func (hb *hub) close() {
	hb.mu.Lock()
	if hb.closed {
		hb.mu.Unlock()
		return
	}
	hb.closed = true
	close(hb.done)
	for _, r := range hb.rooms {
		close(r.stop)
	}
	for c := range hb.conns {
		c.ws.Close()
	}
	hb.mu.Unlock()
	hb.wg.Wait()
}

// add registers a signed-in connection.
func (hb *hub) add(c *conn) bool {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if hb.closed {
		return false
	}
	hb.conns[c] = struct{}{}
	hb.touchLobby()
	return true
}

// remove forgets a connection that ended.
func (hb *hub) remove(c *conn) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	delete(hb.conns, c)
	hb.leave(c)
	hb.touchLobby()
}

// leave takes c out of its room; the caller holds mu.
func (hb *hub) leave(c *conn) {
	r := hb.rooms[c.room]
	if r == nil {
		return
	}
	r.mu.Lock()
	delete(r.conns, c)
	empty := len(r.conns) == 0
	r.mu.Unlock()
	if empty && !hb.closed { // close has stopped every room
		close(r.stop)
		delete(hb.rooms, c.room)
	}
	c.room = ""
}

// join moves c to the room of channel and sends it the game's state, also
// when c is in that room already: a page that watches its game again
// waits for the state (the page of 745564d9's fix put its board away
// until it came).
func (hb *hub) join(c *conn, channel string) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if hb.closed {
		return
	}
	if c.room != channel {
		hb.leave(c)
	}
	r := hb.rooms[channel]
	if r == nil {
		r = &room{channel: channel, conns: map[*conn]struct{}{}, kick: make(chan struct{}, 1), stop: make(chan struct{})}
		hb.rooms[channel] = r
		hb.wg.Add(1)
		go hb.runRoom(r)
	}
	c.room = channel
	r.mu.Lock()
	r.conns[c] = struct{}{}
	last := r.last
	if last != nil {
		c.queue(last)
	}
	r.mu.Unlock()
	// The last state may be old: its clocks count from when it was made,
	// and a page counts from when it came. A fresh state follows for every
	// page joining (the room is new, or its first state on its way, too).
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// runRoom sends a room's game to its pages after every change, until the
// room empties: one read of the game and one frame for all of them, and
// no allocation per page.
func (hb *hub) runRoom(r *room) {
	defer hb.wg.Done()
	for {
		select {
		case <-r.stop:
			return
		case <-r.kick:
		}
		f, err := prepare(hb.render(r.channel))
		if err != nil {
			continue
		}
		r.mu.Lock()
		r.last = f
		for c := range r.conns {
			c.queue(f)
		}
		r.mu.Unlock()
	}
}

// render is the message that shows the game of channel.
func (hb *hub) render(channel string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := hb.h.opts.App.View(ctx, channel)
	var data []byte
	switch {
	case errors.Is(err, commands.ErrNoGame):
		m := noGameMessage{T: "nogame", Channel: channel, Text: "There is no game here yet."}
		if ue := (*commands.UserError)(nil); errors.As(err, &ue) {
			m.Other = ue.Msg // a game of a kind the page does not play
		}
		data, _ = json.Marshal(m)
	case err != nil:
		hb.h.opts.Log.Warn("board page: read a game", "channel", channel, "err", err)
		data, _ = json.Marshal(errorMessage{T: "error", Text: "gobot could not read this game just now; it will show again at the next move."})
	default:
		data, _ = json.Marshal(stateMessage{T: "state", Game: v, Avatars: hb.h.avatarsOf(v)})
	}
	return data
}

// lobbyEvery is how often, at most, the games lists are looked at again:
// each look reads every game in play.
const lobbyEvery = time.Second

// runLobby sends the games lists again when they change (a game started
// or ended), looking at most once every lobbyEvery.
func (hb *hub) runLobby() {
	defer hb.wg.Done()
	for {
		select {
		case <-hb.done:
			return
		case <-hb.lobby:
		}
		select {
		case <-hb.done:
			return
		case <-time.After(lobbyEvery):
		}
		hb.mu.Lock()
		scopes := map[string][]*conn{}
		for c := range hb.conns {
			sc := c.scope()
			scopes[sc] = append(scopes[sc], c)
		}
		hb.mu.Unlock()
		names := make([]string, 0, len(scopes))
		for sc := range scopes {
			names = append(names, sc)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		games, err := hb.h.opts.App.GamesBy(ctx, names)
		var offers []offer
		if err == nil && scopes[""] != nil {
			offers, err = hb.offers(ctx)
		}
		cancel()
		if err != nil {
			hb.h.opts.Log.Warn("board page: list the games", "err", err)
			continue
		}
		for scope, conns := range scopes {
			data := hb.listMessage(scope, games[scope], offers)
			hb.mu.Lock()
			same := string(hb.lists[scope]) == string(data)
			hb.lists[scope] = data
			hb.mu.Unlock()
			if same {
				continue
			}
			f, err := prepare(data) // once for every page of the scope
			if err != nil {
				continue
			}
			for _, c := range conns {
				c.queue(f)
			}
		}
	}
}

// list is the games message of a scope, read now.
func (hb *hub) list(scope string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	games, err := hb.h.opts.App.Games(ctx, scope)
	if err != nil {
		return nil, err
	}
	var offers []offer
	if scope == "" {
		if offers, err = hb.offers(ctx); err != nil {
			return nil, err
		}
	}
	return hb.listMessage(scope, games, offers), nil
}

// offers are the challenges open on this computer, as the store has them
// now: made on a local page or in the console, and gone once accepted,
// declined, withdrawn or expired.
func (hb *hub) offers(ctx context.Context) ([]offer, error) {
	all, err := hb.h.opts.App.Offers(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]offer, 0, len(all))
	for _, o := range all {
		out = append(out, offer{ID: o.ID, Channel: o.Channel, Kind: o.Kind, From: userInfo(o.From), To: userInfo(o.To), Size: o.Size, Text: o.Text})
	}
	return out, nil
}

// listMessage is the games message of a scope with these games: on a
// local page, with who is signed in and the challenges waiting (offers).
func (hb *hub) listMessage(scope string, games []commands.GameSummary, offers []offer) []byte {
	m := gamesMessage{T: "games", Games: games}
	if m.Games == nil {
		m.Games = []commands.GameSummary{}
	}
	if scope == "" {
		hb.mu.Lock()
		seen := map[string]bool{}
		for c := range hb.conns {
			if s := c.session(); c.signedIn() && s.Local && !seen[s.UserID] {
				seen[s.UserID] = true
				m.People = append(m.People, userInfo{ID: s.UserID, Name: s.Name})
			}
		}
		hb.mu.Unlock()
		m.Offers = offers
		sort.Slice(m.People, func(i, j int) bool { return m.People[i].Name < m.People[j].Name })
	}
	data, _ := json.Marshal(m)
	return data
}

// sendList sends c its scope's games list now.
func (hb *hub) sendList(c *conn) {
	data, err := hb.list(c.scope())
	if err == nil {
		c.push(data)
	}
}
