package commands

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// InteractionsPath is the one path the HTTP endpoint serves interactions
// on (the Interactions Endpoint URL ends with it); a POST to any other
// path is not an interaction.
const InteractionsPath = "/interactions"

// The HTTP endpoint's limits.
const (
	// maxBody bounds an interaction payload.
	MaxBody = 1 << 20
	// Bodies are read before their signature is checked in two lanes of
	// slots: maxSmallReads for bodies that declare at most smallBody bytes
	// (Discord's interactions are a few kilobytes, sent at once, so a slot
	// is held for milliseconds), maxLargeReads for larger ones or those of
	// unknown length. Buffers: at most 4 MiB for the first, 8 MiB for the
	// second. Clients trickling large bodies therefore cannot take the
	// slots ordinary interactions use.
	smallBody     = 64 << 10
	maxSmallReads = 64
	MaxLargeReads = 8
	// slotWait is how long a request waits for a free slot before 503.
	slotWait = 250 * time.Millisecond
	// bodyReadTimeout bounds the reading of one body: Discord's arrive at
	// once, a client trickling one is cut off.
	bodyReadTimeout = 2 * time.Second
	// signatureMaxAge is how old (or how far in the future) a signed
	// timestamp may be before the request is refused as stale.
	signatureMaxAge = 5 * time.Minute
	// startSlack is how long before the endpoint started an interaction
	// may have been signed: the replay cache starts empty, so an older
	// copy cannot be told from one handled before a restart and is refused
	// as stale. Discord's clock may differ from ours by a few seconds;
	// nothing signed this long ago could still be answered in its 3.
	startSlack = 10 * time.Second
	// httpDeferAfter is when the endpoint gives up waiting for a handler's
	// first answer and defers, well inside Discord's 3-second deadline.
	httpDeferAfter = 2 * time.Second
)

// HTTPHandler returns the interactions endpoint for GOBOT_MODE=http. Every
// request must carry a valid Ed25519 signature from publicKey over the
// timestamp and body (X-Signature-Ed25519, X-Signature-Timestamp) with a
// timestamp within five minutes of now; anything else gets 401 and is not
// looked at further. The headers are checked first: a missing or malformed
// signature or timestamp, or a timestamp outside the window, is refused
// before a byte of the body is read, and a declared body over 1 MiB gets
// 413. Bodies are read before their signature is checked on a bounded
// number of slots, kept apart for small bodies (Discord's) and large ones
// (a request that finds no slot within slotWait gets 503), each into a
// pooled buffer and within bodyReadTimeout, so slow clients with bad
// signatures can neither exhaust memory nor take the slots of ordinary
// interactions. A signature that does not verify and a timestamp outside
// the window are told apart, to the client and in the log: each is
// warned of at most once a minute (refusalLogEvery), with the count of
// those left out since, so that an operator whose public key or clock is
// wrong learns which; neither the body nor the headers are logged.
//
// PING is answered with PONG. Other interactions are handled as Handle
// does, with the initial response written as the HTTP answer within the
// 3-second deadline: a handler that has not answered after two seconds is
// deferred, and responses with files are deferred and then edited, since
// Discord reads files only from REST uploads. An interaction is handled
// once: a signed copy replayed within the timestamp window gets the first
// copy's answer and changes nothing, and one signed before the handler
// was made (before a restart, which empties the replay cache) is refused
// as stale.
func (a *App) HTTPHandler(publicKey ed25519.PublicKey) http.Handler {
	e := &endpoint{App: a, deferAfter: a.opts.DeferAfter, slotWait: slotWait,
		smallReads: make(chan struct{}, maxSmallReads), largeReads: make(chan struct{}, MaxLargeReads), replays: newReplayCache()}
	return e.handler(publicKey)
}

// endpoint is the HTTP interactions endpoint's state beside the App it
// hands interactions to.
type endpoint struct {
	*App
	// deferAfter is when a handler that has not answered yet is deferred
	// (Options.DeferAfter).
	deferAfter time.Duration
	// slotWait is how long a body waits for a slot (the const slotWait;
	// a test's own).
	slotWait time.Duration
	// smallReads and largeReads hold a slot per body being read before its
	// signature is checked (see smallBody); replays remembers the
	// interactions answered, to answer a replayed copy the same way.
	smallReads, largeReads chan struct{}
	replays                *replayCache
	// badSignatureLog and staleLog throttle the warnings of requests
	// refused for a signature that does not verify and for a timestamp
	// outside the window.
	badSignatureLog, staleLog throttle
}

// refusalLogEvery is how often at most the endpoint warns of refusals of
// one reason (a bad signature, a stale timestamp). A wrong public key or a
// wrong clock refuses every interaction, and a forger may send thousands
// of requests: one line a minute says as much as all of them would.
const refusalLogEvery = time.Minute

// throttle lets one log line through per refusalLogEvery and counts those
// it holds back, for the next line to report (so the count of a burst
// that stops is reported only when the next one starts).
type throttle struct {
	mu         sync.Mutex
	last       time.Time // when the last line went through; zero before the first
	suppressed int       // lines held back since then
}

// allow reports whether a line may be logged at now and, when it may, how
// many were held back before it.
func (t *throttle) allow(now time.Time) (suppressed int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.last.IsZero() && now.Sub(t.last) < refusalLogEvery {
		t.suppressed++
		return 0, false
	}
	n := t.suppressed
	t.last, t.suppressed = now, 0
	return n, true
}

// suppressedAttr is the log attribute saying how many lines a throttle held
// back, or none when it held back none.
func suppressedAttr(n int) []any {
	if n == 0 {
		return nil
	}
	return []any{"suppressed", n}
}

func (a *endpoint) handler(publicKey ed25519.PublicKey) http.Handler {
	started := a.Now()
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		sig, ts, signedAt, ok := signatureHeaders(req.Header)
		if !ok || len(publicKey) != ed25519.PublicKeySize {
			// Missing or malformed headers are not Discord's (a scanner,
			// a probe): not worth an operator's attention.
			a.log.Debug("interaction refused: missing or malformed signature headers", "remote", req.RemoteAddr)
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		now := a.Now()
		if off := signedAt.Sub(now); off > signatureMaxAge || off < -signatureMaxAge {
			// Checked before the body is read, so before the signature:
			// the request may be a replay or a forgery. But Discord's
			// clock is right, so when every interaction is refused so,
			// it is this machine's that is off; the line says both.
			if n, ok := a.staleLog.allow(now); ok {
				secs := int64(off / time.Second)
				a.log.Warn(fmt.Sprintf("interaction refused: timestamp %d s off the server's clock (allowed ±%d s): a replayed or forged request, or, if every interaction is refused so, this machine's clock is wrong", max(secs, -secs), int64(signatureMaxAge/time.Second)),
					append([]any{"offset_s", secs, "remote", req.RemoteAddr}, suppressedAttr(n)...)...)
			}
			http.Error(w, "request timestamp too far from the server's clock", http.StatusUnauthorized)
			return
		}
		if signedAt.Before(started.Add(-startSlack)) {
			a.log.Info("interaction refused: signed before this process started, so perhaps handled before a restart", "remote", req.RemoteAddr)
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		if req.ContentLength > MaxBody {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		buf, status := a.readBody(w, req, ts)
		if status != http.StatusOK {
			http.Error(w, http.StatusText(status), status)
			return
		}
		defer bodyPool.Put(buf)
		// The buffer holds what Discord signs: the timestamp, then the body.
		if !ed25519.Verify(publicKey, buf.b, sig) {
			// Neither the body nor the signature is logged: the body
			// holds the interaction's token.
			if n, ok := a.badSignatureLog.allow(now); ok {
				a.log.Warn("interaction refused: bad signature (not signed with the key DISCORD_PUBLIC_KEY holds)",
					append([]any{"remote", req.RemoteAddr}, suppressedAttr(n)...)...)
			}
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		body := buf.b[len(ts):]
		var it discordgo.Interaction
		if err := json.Unmarshal(body, &it); err != nil {
			http.Error(w, "bad interaction", http.StatusBadRequest)
			return
		}
		if it.Type == discordgo.InteractionPing {
			writeJSON(w, &Response{Type: discordgo.InteractionResponsePong})
			return
		}
		entry, first := a.replays.claim(it.ID, signedAt.Add(signatureMaxAge), a.Now())
		if !first {
			a.log.Info("interaction replayed: answered with its first answer", "interaction", it.ID, "remote", req.RemoteAddr)
			select {
			case <-entry.done:
				writeBody(w, entry.status, entry.body)
			case <-req.Context().Done():
			}
			return
		}
		status, answer := a.serveInteraction(req.Context(), &it, channelOfPayload(body), w)
		entry.finish(status, answer)
	})
}

// serveInteraction handles one verified interaction and writes its initial
// response; it returns what it wrote, for replays.
func (a *endpoint) serveInteraction(ctx context.Context, it *discordgo.Interaction, ch *ChannelInfo, w http.ResponseWriter) (int, []byte) {
	ex := &exchange{ch: make(chan *Response, 1), flushed: make(chan struct{})}
	if !a.spawn(func(ctx context.Context) { a.handle(ctx, it, ch, ex.initial) }) {
		body := []byte("shutting down\n")
		writeBody(w, http.StatusServiceUnavailable, body)
		return http.StatusServiceUnavailable, body
	}
	timer := time.NewTimer(a.deferAfter)
	defer timer.Stop()
	var resp *Response
	select {
	case resp = <-ex.ch:
	case <-timer.C:
		resp = ex.timeout(it)
	case <-ctx.Done():
		resp = ex.timeout(it)
	}
	status, body := http.StatusOK, []byte(nil)
	data, err := json.Marshal(resp)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte("internal error\n")
	} else {
		body = data
	}
	writeBody(w, status, body)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	close(ex.flushed)
	return status, body
}

// readBody reads the timestamp ts and then the request's body into a pooled
// buffer (what Discord signs, with no copy), holding a slot of its lane
// (see smallBody) while it does. It returns http.StatusOK and the buffer
// (to be given back to bodyPool), or the status to refuse with: 503 when no
// slot frees within slotWait, 413 for a body over maxBody, 400 when the
// body cannot be read within bodyReadTimeout. The buffer grows with what
// arrives, never past maxBody, so a slow client costs what it has sent.
func (a *endpoint) readBody(w http.ResponseWriter, req *http.Request, ts string) (*bodyBuffer, int) {
	lane := a.largeReads
	if req.ContentLength >= 0 && req.ContentLength <= smallBody {
		lane = a.smallReads
	}
	// A free slot is taken at once; only a request that finds every slot
	// taken waits. (A request held up past slotWait between starting the
	// timer and waiting, on a busy machine, found both the free slot and
	// the expired timer ready, and select took either: it was refused
	// half the time with slots free.)
	select {
	case lane <- struct{}{}:
	default:
		wait := time.NewTimer(a.slotWait)
		select {
		case lane <- struct{}{}:
			wait.Stop()
		case <-wait.C:
			w.Header().Set("Retry-After", "1")
			return nil, http.StatusServiceUnavailable
		case <-req.Context().Done():
			wait.Stop()
			return nil, http.StatusServiceUnavailable
		}
	}
	defer func() { <-lane }()
	// The server's ReadTimeout bounds the whole request; this bounds the
	// body, so a slot is never held longer (not every ResponseWriter
	// supports it, and then the server's timeout is the bound).
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyReadTimeout))
	buf := bodyPool.Get().(*bodyBuffer)
	buf.b = append(buf.b[:0], ts...)
	limit := len(ts) + MaxBody
	for {
		if len(buf.b) == cap(buf.b) {
			if len(buf.b) > limit {
				bodyPool.Put(buf)
				return nil, http.StatusRequestEntityTooLarge
			}
			grown := make([]byte, len(buf.b), min(2*cap(buf.b), limit+1))
			copy(grown, buf.b)
			buf.b = grown
		}
		n, err := req.Body.Read(buf.b[len(buf.b):cap(buf.b)])
		buf.b = buf.b[:len(buf.b)+n]
		if len(buf.b) > limit {
			bodyPool.Put(buf)
			return nil, http.StatusRequestEntityTooLarge
		}
		if err == io.EOF {
			return buf, http.StatusOK
		}
		if err != nil {
			bodyPool.Put(buf)
			return nil, http.StatusBadRequest
		}
	}
}

// bodyBuffer is a pooled buffer for a request body. Interactions are a few
// kilobytes, so buffers start at 16 KiB; one grown for a larger body (up
// to maxBody) is reused as it is, so that no more of them are in use than
// there are slots, and bodies read one after another make no garbage.
type bodyBuffer struct{ b []byte }

var bodyPool = sync.Pool{New: func() any { return &bodyBuffer{b: make([]byte, 0, 16<<10)} }}

// errAnsweredOnce is a second initial response of a handler whose first
// was handed over already.
var errAnsweredOnce = errors.New("commands: the interaction's initial response was given already")

// exchange hands the handler's initial response to the HTTP request that
// carries it, or tells the handler that the request already deferred.
type exchange struct {
	mu       sync.Mutex
	claimed  bool
	deferred *deferredErr
	ch       chan *Response
	flushed  chan struct{}
}

// initial is the handler side: it gives the response to the HTTP side and
// waits until it has been written.
func (ex *exchange) initial(ctx context.Context, resp *Response) (*discordgo.Message, error) {
	ex.mu.Lock()
	if ex.claimed {
		de := ex.deferred
		ex.mu.Unlock()
		if de == nil {
			// The handler claimed the response itself before (and gave
			// up waiting for its flush): never a typed nil as an error.
			return nil, errAnsweredOnce
		}
		return nil, de
	}
	ex.claimed = true
	var de *deferredErr
	if resp.Message != nil && len(resp.Message.Files) > 0 {
		// Files go up with the edit of a deferral.
		switch resp.Type {
		case discordgo.InteractionResponseUpdateMessage:
			de = &deferredErr{update: true}
			resp = &Response{Type: discordgo.InteractionResponseDeferredMessageUpdate}
		default:
			de = &deferredErr{ephemeral: resp.Message.Ephemeral}
			resp = &Response{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Message: &Message{Ephemeral: resp.Message.Ephemeral}}
		}
	}
	ex.mu.Unlock()
	ex.ch <- resp
	select {
	case <-ex.flushed:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if de != nil {
		return nil, de
	}
	return nil, nil
}

// timeout is the HTTP side giving up waiting: it defers, unless the handler
// claimed the response in the meantime.
func (ex *exchange) timeout(it *discordgo.Interaction) *Response {
	ex.mu.Lock()
	if ex.claimed {
		ex.mu.Unlock()
		return <-ex.ch
	}
	ex.claimed = true
	var resp *Response
	switch it.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		resp = &Response{Type: discordgo.InteractionApplicationCommandAutocompleteResult}
		ex.deferred = &deferredErr{}
	case discordgo.InteractionMessageComponent:
		resp = &Response{Type: discordgo.InteractionResponseDeferredMessageUpdate}
		ex.deferred = &deferredErr{update: true}
	default:
		resp = &Response{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
		ex.deferred = &deferredErr{}
	}
	ex.mu.Unlock()
	return resp
}

func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeBody(w, http.StatusOK, data)
}

// writeBody writes an answer: JSON when status is 200, text otherwise.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	ctype := "application/json"
	if status != http.StatusOK {
		ctype = "text/plain; charset=utf-8"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// signatureHeaders reads Discord's signature headers before the body is
// read: a signature of 64 bytes in hex, and a timestamp (Unix seconds). It
// returns the signature, the timestamp as sent and as a time; the caller
// checks the time against its clock, to tell a stale request apart in the
// log from a malformed one.
func signatureHeaders(h http.Header) (sig []byte, ts string, at time.Time, ok bool) {
	raw := h.Get("X-Signature-Ed25519")
	if len(raw) != 2*ed25519.SignatureSize {
		return nil, "", time.Time{}, false
	}
	sig, err := hex.DecodeString(raw)
	if err != nil {
		return nil, "", time.Time{}, false
	}
	ts = h.Get("X-Signature-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return nil, "", time.Time{}, false
	}
	return sig, ts, time.Unix(sec, 0), true
}

// replayCache remembers the interactions the endpoint has answered until
// their signed timestamp leaves the window (after which a copy is refused
// as stale anyway), with the answer each got.
type replayCache struct {
	mu      sync.Mutex
	entries map[string]*replayEntry
	pruned  time.Time
}

type replayEntry struct {
	expires time.Time
	done    chan struct{} // closed when status and body are set
	status  int
	body    []byte
}

func newReplayCache() *replayCache { return &replayCache{entries: map[string]*replayEntry{}} }

// claim returns the entry for interaction id and whether this is its first
// copy, which must handle it and then call finish. Expired entries are
// dropped at most once a minute.
func (c *replayCache) claim(id string, expires, now time.Time) (*replayEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.pruned) >= time.Minute {
		for k, e := range c.entries {
			if now.After(e.expires) {
				delete(c.entries, k)
			}
		}
		c.pruned = now
	}
	if e, ok := c.entries[id]; ok && !now.After(e.expires) {
		return e, false
	}
	e := &replayEntry{expires: expires, done: make(chan struct{})}
	c.entries[id] = e
	return e, true
}

// finish records the first copy's answer and releases the copies waiting.
func (e *replayEntry) finish(status int, body []byte) {
	e.status, e.body = status, body
	close(e.done)
}
