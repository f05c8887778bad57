package commands

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The HTTP endpoint's limits.
const (
	// maxBody bounds an interaction payload.
	maxBody = 1 << 20
	// signatureMaxAge is how old (or how far in the future) a signed
	// timestamp may be before the request is refused as stale.
	signatureMaxAge = 5 * time.Minute
	// httpDeferAfter is when the endpoint gives up waiting for a handler's
	// first answer and defers, well inside Discord's 3-second deadline.
	httpDeferAfter = 2 * time.Second
)

// HTTPHandler returns the interactions endpoint for GOBOT_MODE=http. Every
// request must carry a valid Ed25519 signature from publicKey over the
// timestamp and body (X-Signature-Ed25519, X-Signature-Timestamp) with a
// timestamp within five minutes of now; anything else gets 401 and is not
// looked at further. PING is answered with PONG. Other interactions are
// handled as Handle does, with the initial response written as the HTTP
// answer within the 3-second deadline: a handler that has not answered after
// two seconds is deferred, and responses with files are deferred and then
// edited, since Discord reads files only from REST uploads.
func (b *Bot) HTTPHandler(publicKey ed25519.PublicKey) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
		if err != nil || len(body) > maxBody {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if !verify(publicKey, req.Header, body, b.now()) {
			b.log.Debug("interaction refused: bad signature", "remote", req.RemoteAddr)
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var it discordgo.Interaction
		if err := json.Unmarshal(body, &it); err != nil {
			http.Error(w, "bad interaction", http.StatusBadRequest)
			return
		}
		if it.Type == discordgo.InteractionPing {
			writeJSON(w, &Response{Type: discordgo.InteractionResponsePong})
			return
		}
		ex := &exchange{ch: make(chan *Response, 1), flushed: make(chan struct{})}
		if !b.spawn(func(ctx context.Context) { b.handle(ctx, &it, ex.initial) }) {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		timer := time.NewTimer(b.deferAfter)
		defer timer.Stop()
		var resp *Response
		select {
		case resp = <-ex.ch:
		case <-timer.C:
			resp = ex.timeout(&it)
		case <-req.Context().Done():
			resp = ex.timeout(&it)
		}
		writeJSON(w, resp)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		close(ex.flushed)
	})
}

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
func (ex *exchange) initial(ctx context.Context, resp *Response) error {
	ex.mu.Lock()
	if ex.claimed {
		de := ex.deferred
		ex.mu.Unlock()
		return de
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
		return ctx.Err()
	}
	if de != nil {
		return de
	}
	return nil
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
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}

// verify checks Discord's request signature: Ed25519 over timestamp||body,
// with a timestamp (Unix seconds) no further than signatureMaxAge from now.
func verify(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) bool {
	if len(key) != ed25519.PublicKeySize {
		return false
	}
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return false
	}
	ts := h.Get("X-Signature-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.Unix(sec, 0)); d > signatureMaxAge || d < -signatureMaxAge {
		return false
	}
	var msg bytes.Buffer
	msg.WriteString(ts)
	msg.Write(body)
	return ed25519.Verify(key, msg.Bytes(), sig)
}

// HealthHandler answers GET /healthz with 200 "ok" while check succeeds.
func HealthHandler(check func(ctx context.Context) error, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if check != nil {
			if err := check(req.Context()); err != nil {
				log.Warn("health check failed", "err", err)
				http.Error(w, "unhealthy", http.StatusServiceUnavailable)
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
}
