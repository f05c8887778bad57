package game

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Side is a side of a game by its index in the kind's SideNames: 0 is the
// first side named. NoSide is no side: a drawn game's winner, and ToMove
// when no side is to move.
type Side int

// NoSide is no side.
const NoSide Side = -1

// Opponent returns the other side of a two-sided game.
func (s Side) Opponent() Side {
	switch s {
	case 0:
		return 1
	case 1:
		return 0
	}
	return NoSide
}

// Options are a new game's options as a person typed them, by name
// ("size": "19", "komi": "6.5"). A kind reads the ones it knows, gives
// defaults for the others it needs, and refuses a name it does not know.
type Options map[string]string

// Move is a move in the kind's own notation, as its ParseMove returns it
// and its Legal lists it: "D4" or "pass" in Go, "32-28" or "28x19x10" in
// draughts. The canonical text of a move is unique: two moves are the same
// move exactly when their texts are equal.
type Move string

// Reason says how a game ended.
type Reason string

// The reasons every kind shares. A kind may add its own (Go's "score",
// draughts' "repetition"); the core treats an unknown reason like
// ByRule.
const (
	ByRule        Reason = "rule"        // the rules ended it: a count, no legal move
	ByResignation Reason = "resignation" // a side resigned
	ByTime        Reason = "time"        // a side ran out of time
	ByAgreement   Reason = "agreement"   // both sides agreed (a draw offer accepted)
	ByForfeit     Reason = "forfeit"     // a side was disqualified or left
)

// Result is how a finished game ended.
type Result struct {
	Winner Side   `json:"winner"`         // NoSide for a draw
	Reason Reason `json:"reason"`         // how it ended
	Text   string `json:"text,omitempty"` // the kind's notation of the result: "B+3.5", "2-0"
}

// Draw reports whether the result is a draw (no winner).
func (r Result) Draw() bool { return r.Winner == NoSide }

// Fact is something a move did that people are told: a capture, a ko
// taken, a man crowned. Kind is a short word a client can branch on; Text
// is the sentence shown.
type Fact struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Kind is a game gobot can host: its rules' factory. A Kind is stateless
// and safe for concurrent use.
type Kind interface {
	// Name is the kind's key in records, registries and commands: "go",
	// "draughts". It never changes once records exist.
	Name() string
	// SideNames names the sides in Side order: "Black", "White" for Go;
	// "White", "Black" for draughts. Every game of the kind has this many
	// sides.
	SideNames() []string
	// New starts a game from its options and a seed for whatever
	// randomness the rules need. Bad options are an error that says
	// which and why, and wraps ErrOptions.
	New(opts Options, seed int64) (State, error)
	// Decode reads a State that the kind's MarshalJSON wrote. A record
	// that does not decode or replay is an error wrapping ErrState.
	Decode(data []byte) (State, error)
}

// State is a position with its history: everything the rules know of one
// game. It is a value: no method modifies the receiver. It is not safe for
// concurrent use only in the sense that its methods may cache; sharing one
// State between goroutines for reading is fine.
type State interface {
	// Kind is the name of the kind that made the state.
	Kind() string
	// ToMove is the side to move, or NoSide when no side is to move
	// (the game is over, or a phase of the kind's own is under way, such
	// as Go's marking of dead stones).
	ToMove() Side
	// ParseMove reads a move that side s typed, in any form the kind
	// accepts, and returns it in canonical form. It checks the notation
	// only; Play checks the rules.
	ParseMove(s Side, text string) (Move, error)
	// Legal lists the moves of the side to move, in canonical form and a
	// fixed order; none when no side is to move.
	Legal() []Move
	// Play plays side s's move m and returns the new state with the facts
	// to announce. An illegal move is an error (the kind's sentinel,
	// wrapped) and no state.
	Play(s Side, m Move) (State, []Fact, error)
	// End ends the game with a result the rules did not reach themselves:
	// a resignation, a loss on time, a draw by agreement. It fills
	// r.Text in the kind's notation. Ending a game already over is
	// ErrOver.
	End(r Result) (State, error)
	// Result returns the result, and whether the game is over.
	Result() (Result, bool)
	// MoveCount is the number of moves played.
	MoveCount() int
	// View is what side s sees of the state, as a value that marshals to
	// JSON (for a client to draw); NoSide asks for a spectator's view.
	// Games of perfect information show everyone everything.
	View(s Side) any
	// MarshalJSON writes the state as plain JSON that the kind's Decode
	// reads back to an equal state.
	MarshalJSON() ([]byte, error)
}

// Kinds is a registry of kinds by name: what the core is given, one
// Register call per kind in cmd/gobot. The zero value is empty and ready.
// Register before use; after that Kinds is safe for concurrent reading.
type Kinds struct {
	byName map[string]Kind
}

// Register adds k. Registering two kinds of one name is a programmer's
// error and panics, as http.Handle does.
func (ks *Kinds) Register(k Kind) {
	if ks.byName == nil {
		ks.byName = map[string]Kind{}
	}
	name := k.Name()
	if name == "" || strings.ContainsAny(name, " /:") {
		panic(fmt.Sprintf("game: kind name %q is not a word", name))
	}
	if _, dup := ks.byName[name]; dup {
		panic("game: kind " + name + " registered twice")
	}
	ks.byName[name] = k
}

// Kind returns the kind of that name, and whether there is one.
func (ks *Kinds) Kind(name string) (Kind, bool) {
	k, ok := ks.byName[name]
	return k, ok
}

// Names lists the registered kinds' names in order.
func (ks *Kinds) Names() []string {
	names := make([]string, 0, len(ks.byName))
	for n := range ks.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Decode reads a state of the named kind.
func (ks *Kinds) Decode(kind string, data json.RawMessage) (State, error) {
	k, ok := ks.Kind(kind)
	if !ok {
		return nil, fmt.Errorf("game: kind %q: %w", kind, ErrUnknownKind)
	}
	return k.Decode(data)
}
