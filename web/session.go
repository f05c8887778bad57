package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"
)

// A session is who a board page signed in as. Its token is signed, so any
// gobot process holding the same key accepts it (the key is derived from
// the client secret in Discord mode; in local mode Options.SessionKey,
// which the console keeps across restarts, or random per process),
// and short-lived: an open page is sent a fresh one while it stays
// connected (see renewEvery).
type session struct {
	UserID  string `json:"u"`
	Name    string `json:"n"`
	Channel string `json:"c,omitempty"` // the Activity's channel; "" in local mode
	Local   bool   `json:"l,omitempty"`
	Expires int64  `json:"e"` // Unix seconds
}

// signer signs and checks session tokens and OAuth2 states.
type signer struct {
	key []byte

	mu   sync.Mutex
	used map[string]time.Time // OAuth2 states already spent, until they expire
}

func newSigner(secret string, given []byte) *signer {
	var key []byte
	switch {
	case secret != "":
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte("gobot board page sessions"))
		key = m.Sum(nil)
	case len(given) > 0:
		key = slices.Clone(given)
	default:
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &signer{key: key, used: map[string]time.Time{}}
}

func (s *signer) mac(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// token signs a session.
func (s *signer) token(ss session) string {
	data, _ := json.Marshal(ss)
	p := base64.RawURLEncoding.EncodeToString(data)
	return p + "." + s.mac(p)
}

// session checks a token at now.
func (s *signer) session(tok string, now time.Time) (session, error) {
	var ss session
	p, sig, ok := strings.Cut(tok, ".")
	if !ok || len(tok) > 1024 || !hmac.Equal([]byte(sig), []byte(s.mac(p))) {
		return ss, errBadToken
	}
	data, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(data, &ss) != nil || ss.UserID == "" {
		return ss, errBadToken
	}
	if now.Unix() >= ss.Expires {
		return ss, errExpired
	}
	return ss, nil
}

// state returns a new OAuth2 state, valid until exp.
func (s *signer) state(exp time.Time) string {
	n := make([]byte, 16)
	rand.Read(n)
	p := base64.RawURLEncoding.EncodeToString(n) + "~" + base64.RawURLEncoding.EncodeToString([]byte(time.Unix(exp.Unix(), 0).UTC().Format(time.RFC3339)))
	return p + "." + s.mac("state:"+p)
}

// spend checks a state made by this signer (or another with the same key)
// and not yet spent in this process, and spends it.
func (s *signer) spend(st string, now time.Time) bool {
	p, sig, ok := strings.Cut(st, ".")
	if !ok || len(st) > 256 || !hmac.Equal([]byte(sig), []byte(s.mac("state:"+p))) {
		return false
	}
	_, e, _ := strings.Cut(p, "~")
	raw, err := base64.RawURLEncoding.DecodeString(e)
	if err != nil {
		return false
	}
	exp, err := time.Parse(time.RFC3339, string(raw))
	if err != nil || !now.Before(exp) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, t := range s.used {
		if !now.Before(t) {
			delete(s.used, k)
		}
	}
	if _, spent := s.used[p]; spent {
		return false
	}
	s.used[p] = exp
	return true
}
