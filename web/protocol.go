package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
)

// maxMessage is the largest message a page may send; a larger one is
// answered with an error frame and ignored. readLimit is where the
// connection is closed instead (gorilla's read limit).
const (
	maxMessage = 2048
	readLimit  = 64 << 10
)

// clientMessage is a message from the page. T says which:
//
//	hello   {session}                         sign the connection in
//	watch   {channel}                         show the game of a channel
//	act     {id, channel, kind, point, game, version, moves, seat}
//	start   {id, level | opponent, size, color, handicap, clock}
//	                                          local mode: a new game
//	answer  {id, challenge, channel, accept}  local mode: answer a challenge
//	record  {id, channel, game}               the record of the game shown, to download
type clientMessage struct {
	T         string `json:"t"`
	ID        int    `json:"id,omitempty"`
	Session   string `json:"session,omitempty"`
	Channel   string `json:"channel,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Point     string `json:"point,omitempty"`
	Game      string `json:"game,omitempty"`
	Version   uint64 `json:"version,omitempty"`
	Moves     int    `json:"moves,omitempty"`
	Seat      string `json:"seat,omitempty"`
	Level     string `json:"level,omitempty"`
	Opponent  string `json:"opponent,omitempty"`
	Size      int    `json:"size,omitempty"`
	Color     string `json:"color,omitempty"`
	Handicap  int    `json:"handicap,omitempty"`
	Clock     string `json:"clock,omitempty"`
	Challenge string `json:"challenge,omitempty"`
	Accept    bool   `json:"accept,omitempty"`
}

var (
	snowflakeRe = regexp.MustCompile(`^[0-9]{1,20}$`)
	pointRe     = regexp.MustCompile(`^(?i:[A-HJ-T](?:[1-9]|1[0-9])|pass)$`)
	// moveRe is a draughts move as the page sends it: squares joined by
	// '-' or 'x' ("32-28", "28x19x10"), at most a king's longest path.
	moveRe = regexp.MustCompile(`^[0-9]{1,2}(?:[-xX][0-9]{1,2}){1,20}$`)
	wordRe = regexp.MustCompile(`^[A-Za-z0-9:_-]{1,40}$`)
	nameRe = regexp.MustCompile(`^[\p{L}\p{N} _.-]{1,32}$`)
)

var actionKinds = map[string]bool{
	commands.ActPlay: true, commands.ActPass: true, commands.ActResign: true, commands.ActUndo: true,
	commands.ActUndoYes: true, commands.ActUndoNo: true, commands.ActDead: true, commands.ActAccept: true, commands.ActResume: true,
	commands.ActDraw: true, commands.ActAbort: true, commands.ActRematch: true,
}

// decodeMessage reads one message from the page and checks its shape: a
// known type, no unknown fields, each field it needs present and well
// formed. Whether the message may do what it asks is not its business.
func decodeMessage(data []byte) (clientMessage, error) {
	var m clientMessage
	if len(data) > maxMessage {
		return m, &errBadMessage{fmt.Sprintf("That message is too large (%d bytes; at most %d): it was ignored.", len(data), maxMessage)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return clientMessage{}, &errBadMessage{"That message is not one gobot understands (not the JSON it expects): it was ignored."}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return clientMessage{}, &errBadMessage{"That message is not one gobot understands (more than one JSON value): it was ignored."}
	}
	bad := func(why string) (clientMessage, error) {
		return clientMessage{}, &errBadMessage{"That message is not one gobot understands (" + why + "): it was ignored."}
	}
	channel := func() bool { return snowflakeRe.MatchString(m.Channel) }
	switch m.T {
	case "hello":
		if m.Session == "" || len(m.Session) > 1024 {
			return bad("hello needs a session")
		}
	case "watch":
		if !channel() {
			return bad("watch needs a channel")
		}
	case "act":
		switch {
		case !channel():
			return bad("act needs a channel")
		case !actionKinds[m.Kind]:
			return bad("unknown action")
		case m.Kind == commands.ActPlay && !pointRe.MatchString(m.Point) && !moveRe.MatchString(m.Point):
			return bad("a point such as D4, or a draughts move such as 32-28")
		case m.Kind == commands.ActDead && !pointRe.MatchString(m.Point):
			return bad("a point such as D4")
		case m.Seat != "black" && m.Seat != "white":
			return bad("seat must be black or white")
		case !snowflakeRe.MatchString(m.Game):
			// The game the page shows: a click on a game that has ended
			// must not act on the next one in its channel.
			return bad("act needs the game's ID")
		}
	case "start":
		switch {
		case m.Size != 9 && m.Size != 13 && m.Size != 19:
			return bad("size must be 9, 13 or 19")
		case (m.Level == "") == (m.Opponent == ""):
			return bad("start needs a level or an opponent")
		case m.Level != "" && !wordRe.MatchString(m.Level):
			return bad("level")
		case m.Opponent != "" && !nameRe.MatchString(m.Opponent):
			return bad("opponent")
		case m.Color != "" && m.Color != "black" && m.Color != "white" && m.Color != "nigiri":
			return bad("color must be black, white or nigiri")
		case m.Handicap < 0 || m.Handicap == 1 || m.Handicap > 9:
			return bad("handicap must be 2 to 9 stones, or none")
		case m.Clock != "" && !slices.ContainsFunc(clock.Presets, func(p clock.Preset) bool { return p.Name == m.Clock }):
			return bad("clock must be one of the presets")
		}
	case "answer":
		if !channel() || !snowflakeRe.MatchString(m.Challenge) {
			return bad("answer needs a channel and a challenge")
		}
	case "record":
		if !channel() || !snowflakeRe.MatchString(m.Game) {
			return bad("record needs a channel and a game")
		}
	default:
		return bad("unknown type")
	}
	return m, nil
}

// Messages to the page. Each has T.
type (
	welcomeMessage struct {
		T      string   `json:"t"` // "welcome"
		User   userInfo `json:"user"`
		Local  bool     `json:"local"`
		Levels []string `json:"levels,omitempty"`
		// Clocks are the time controls a local page's new game offers,
		// the default first.
		Clocks []choice `json:"clocks,omitempty"`
		// Channel is where the page opens: the Activity's channel, or the
		// console's in local mode.
		Channel string `json:"channel,omitempty"`
	}
	// choice is an option of a list: the value sent, and what it shows.
	choice struct {
		Value string `json:"value"`
		Label string `json:"label"`
	}
	userInfo struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	stateMessage struct {
		T    string             `json:"t"` // "state"
		Game *commands.GameView `json:"game"`
		// Avatars are the addresses (relative to the page) of the
		// pictures of the game's players who have one gobot knows, by
		// user ID; the others show their initial.
		Avatars map[string]string `json:"avatars,omitempty"`
	}
	noGameMessage struct {
		T       string `json:"t"` // "nogame"
		Channel string `json:"channel"`
		Text    string `json:"text"`
		// Other says why a game the channel has is not shown (a game the
		// page does not play); empty when the channel has none.
		Other string `json:"other,omitempty"`
	}
	gamesMessage struct {
		T      string                 `json:"t"` // "games"
		Games  []commands.GameSummary `json:"games"`
		People []userInfo             `json:"people,omitempty"` // local mode: who is signed in
		Offers []offer                `json:"offers,omitempty"` // local mode: challenges to answer
	}
	resultMessage struct {
		T       string `json:"t"` // "result"
		ID      int    `json:"id"`
		Text    string `json:"text"`
		Refused bool   `json:"refused"`
		Channel string `json:"channel,omitempty"` // where a started game is
		// Challenge marks a start that sent a challenge: what the page
		// says of it stays while the challenge waits, not under the game
		// it starts.
		Challenge bool `json:"challenge,omitempty"`
		// Version is the game's version once the action was done: what
		// the page says of it stays until the game moves on from there.
		Version uint64 `json:"version,omitempty"`
	}
	// recordMessage is a game's record, asked for with record: the page
	// saves it as a file.
	recordMessage struct {
		T    string `json:"t"` // "record"
		ID   int    `json:"id"`
		Name string `json:"name"` // "gobot-42.sgf"
		Type string `json:"type"` // "application/x-go-sgf"
		Data string `json:"data"` // the SGF or PDN text
	}
	errorMessage struct {
		T    string `json:"t"` // "error"
		Text string `json:"text"`
		// Fatal says the page must sign in again (an expired session).
		Fatal bool `json:"fatal,omitempty"`
		// SignIn says that signing in again mends it (the session expired,
		// or is not valid): inside Discord the page does so by itself.
		SignIn bool `json:"signin,omitempty"`
	}
	renewMessage struct {
		T       string `json:"t"` // "renew"
		Session string `json:"session"`
	}
)

// offer is a local challenge waiting for its answer.
type offer struct {
	ID      string   `json:"id"`
	Channel string   `json:"channel"`
	Kind    string   `json:"kind"` // "go" or "draughts"
	From    userInfo `json:"from"`
	To      userInfo `json:"to"`
	Size    int      `json:"size"` // Go's board size; 0 for draughts
	Text    string   `json:"text"` // the invitation with its terms, as Discord's message says it
}
