package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Signer holds an Ed25519 key pair standing in for a Discord application's
// and signs interaction requests as Discord does: the signature is
// Ed25519(timestamp + body), sent hex-encoded in X-Signature-Ed25519, with
// the Unix timestamp in X-Signature-Timestamp.
type Signer struct {
	Public  ed25519.PublicKey
	private ed25519.PrivateKey
}

// NewSigner generates a fresh key pair.
func NewSigner() (*Signer, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("discordtest: generate key: %w", err)
	}
	return &Signer{Public: pub, private: priv}, nil
}

// PublicKeyHex is the public key as DISCORD_PUBLIC_KEY holds it.
func (s *Signer) PublicKeyHex() string { return hex.EncodeToString(s.Public) }

// Sign returns the X-Signature-Ed25519 and X-Signature-Timestamp values for
// body sent at ts.
func (s *Signer) Sign(body []byte, ts time.Time) (signature, timestamp string) {
	timestamp = strconv.FormatInt(ts.Unix(), 10)
	msg := append([]byte(timestamp), body...)
	return hex.EncodeToString(ed25519.Sign(s.private, msg)), timestamp
}

// Request builds a signed POST of body to url, as Discord sends it at ts.
func (s *Signer) Request(url string, body []byte, ts time.Time) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("discordtest: %w", err)
	}
	sig, stamp := s.Sign(body, ts)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", stamp)
	return req, nil
}
