package storage

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"time"
)

var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// NewID returns a new random ID for a game or challenge: 20 characters of
// lower-case Crockford base32, short enough for Discord custom IDs
// ("game/<id>/pass"). The first characters encode the time in
// milliseconds, so IDs made later sort later; the other 48 bits are random.
func NewID() string {
	var b [12]byte
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(time.Now().UnixMilli()))
	copy(b[:6], ms[2:])
	rand.Read(b[6:]) // never fails (crypto/rand panics on an unusable source)
	return idEncoding.EncodeToString(b[:])
}
