package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// Reply is the bot's HTTP answer to an interaction, decoded.
type Reply struct {
	Status int
	// Type is the interaction callback type (CallbackPong...), 0 if the
	// answer was not a 200 JSON response.
	Type int
	// Message is the message the response created or updated (for types 4,
	// 5, 6 and 7), as it was right after.
	Message *Message
	// Choices are an autocomplete result's choices.
	Choices []Choice
	// Body is the raw answer.
	Body []byte
}

// Choice is one autocomplete choice.
type Choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Ephemeral reports whether the reply is a message only its user sees.
func (r *Reply) Ephemeral() bool { return r.Message != nil && r.Message.Ephemeral }

// Text is the reply message's text ("" without a message).
func (r *Reply) Text() string {
	if r.Message == nil {
		return ""
	}
	return r.Message.Text()
}

var httpClient = &http.Client{Timeout: 2 * time.Minute}

// Send signs it (timestamped with Options.Now), posts it to Endpoint and applies the
// bot's answer to the fake's state as Discord would. Problems with the
// answer (invalid schema, a second acknowledgement) are recorded like REST
// problems. A non-200 answer is returned, not treated as an error.
func (s *Server) Send(it *Interaction) (*Reply, error) {
	body := it.JSON()
	if s.opts.Deliver != nil {
		return s.deliver(it, body)
	}
	if it.Type != TypePing {
		s.mu.Lock()
		st := &interaction{id: it.ID, token: it.Token, typ: it.Type, userID: it.User.ID, messageID: it.MessageID, answered: make(chan struct{}), created: s.opts.Now()}
		defer close(st.answered)
		if it.Channel != nil {
			st.channelID = it.Channel.ID
		}
		s.interactions[it.Token] = st
		s.mu.Unlock()
	}
	req, err := s.Signer.Request(s.Endpoint, body, s.opts.Now())
	if err != nil {
		return nil, err
	}
	return s.post(it, req)
}

// Post sends body to Endpoint with the given headers exactly (no signing),
// for tests of refused requests. The answer is not applied.
func (s *Server) Post(body []byte, header http.Header) (*Reply, error) {
	req, err := http.NewRequest(http.MethodPost, s.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	return s.post(nil, req)
}

func (s *Server) post(it *Interaction, req *http.Request) (*Reply, error) {
	typ := 0
	if it != nil {
		typ = it.Type
	}
	start := time.Now()
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("discordtest: post interaction: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("discordtest: read answer: %w", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		// Discord gives up after 3 s; on a loaded test machine this is a
		// hint, not a verdict.
		s.t.Logf("discordtest: the bot took %v to answer interaction type %d (Discord allows 3s)", took, typ)
	}
	r := &Reply{Status: resp.StatusCode, Body: data}
	if it == nil || resp.StatusCode != http.StatusOK {
		return r, nil
	}
	mt, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var (
		obj   map[string]any
		files []Attachment
	)
	switch mt {
	case "application/json":
		if err := json.Unmarshal(data, &obj); err != nil {
			s.problem("interaction answer is not JSON: %v", err)
			return r, nil
		}
	case "multipart/form-data":
		v, f, err := decodeMultipart(data, params["boundary"])
		if err != nil {
			s.problem("interaction answer: bad multipart: %v", err)
			return r, nil
		}
		obj, _ = v.(map[string]any)
		files = f
	default:
		s.problem("interaction answer has Content-Type %q, want application/json", resp.Header.Get("Content-Type"))
		return r, nil
	}
	if s.spec != nil {
		v := any(obj)
		if err := s.spec.ValidateCallback(v); err != nil {
			s.problem("interaction answer: %v", err)
		}
	}
	t, _ := obj["type"].(float64)
	r.Type = int(t)
	if it.Type == TypePing {
		if r.Type != CallbackPong {
			s.problem("PING answered with type %d, want 1 (PONG)", r.Type)
		}
		return r, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[it.Token]
	if problem := s.acknowledge(st, obj, files); problem != "" {
		s.mu.Unlock()
		s.problem("interaction answer: %s", problem)
		s.mu.Lock()
		return r, nil
	}
	s.fillReply(r, st)
	s.broadcast()
	return r, nil
}

// Do is Send for the test goroutine: it fails the test unless the bot
// answers 200.
func (s *Server) Do(it *Interaction) *Reply {
	s.t.Helper()
	r, err := s.Send(it)
	if err != nil {
		s.t.Fatalf("discordtest: %v", err)
	}
	if r.Status != http.StatusOK {
		s.t.Fatalf("discordtest: bot answered interaction with HTTP %d: %s", r.Status, r.Body)
	}
	return r
}

// Settled waits until the interaction's original response exists and is no
// longer a deferred placeholder, and returns it.
func (s *Server) Settled(it *Interaction) Message {
	s.t.Helper()
	var m Message
	s.WaitFor("the answer to interaction "+it.ID, func() bool {
		var ok bool
		m, ok = s.Original(it)
		return ok && !m.Deferred
	})
	return m
}

// deliver hands it to Options.Deliver and waits until the bot has
// acknowledged it through the callback endpoint (or Deliver returned
// without doing so, which is an error: Discord would show "The application
// did not respond").
func (s *Server) deliver(it *Interaction, body []byte) (*Reply, error) {
	if it.Type == TypePing {
		return nil, fmt.Errorf("discordtest: PING is never sent through the gateway")
	}
	st := &interaction{id: it.ID, token: it.Token, typ: it.Type, userID: it.User.ID, messageID: it.MessageID, created: s.opts.Now()}
	if it.Channel != nil {
		st.channelID = it.Channel.ID
	}
	s.mu.Lock()
	s.interactions[it.Token] = st
	s.mu.Unlock()
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		s.opts.Deliver(body)
	}()
	deadline := time.NewTimer(s.opts.WaitTimeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		acked, changed := st.acked, s.changed
		s.mu.Unlock()
		if acked {
			break
		}
		select {
		case <-changed:
		case <-returned:
			s.mu.Lock()
			acked = st.acked
			s.mu.Unlock()
			if !acked {
				s.problem("the bot handled interaction %s without acknowledging it", it.ID)
				return &Reply{Status: http.StatusOK}, nil
			}
		case <-deadline.C:
			return nil, fmt.Errorf("discordtest: interaction %s not acknowledged within %v", it.ID, s.opts.WaitTimeout)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &Reply{Status: http.StatusOK, Type: st.ackType}
	s.fillReply(r, st)
	return r, nil
}

// fillReply gives r the interaction's original response and autocomplete
// choices; s.mu is held.
func (s *Server) fillReply(r *Reply, st *interaction) {
	if st.original != "" {
		if m := s.messages[st.original]; m != nil {
			cp := *m
			r.Message = &cp
		}
	}
	for _, c := range st.choices {
		var ch Choice
		if decodeInto(c, &ch) == nil {
			r.Choices = append(r.Choices, ch)
		}
	}
}
