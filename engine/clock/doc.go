// Package clock is the model of a game's time: the time controls players
// choose (Fischer, byo-yomi, Canadian, simple, absolute, none, and the
// presets correspondence, daily, live and blitz), the syntax they are
// written in (Parse, Control.String), how they read to people
// (Control.Describe), and a Clock that keeps both sides' time as moves
// are made. It knows no game: its sides are First and Second (a kind's
// side 0 and 1, Side.Game), written "B" and "W" as records have always had
// them.
//
// The package is pure: it imports only the standard library and the game
// contract (engine/game, for the sides), keeps no time of its own and
// starts nothing. Every
// operation takes the current time as an argument, so the same calls give
// the same clock, and tests drive it with a fake time. Who calls it decides
// what "now" is; in gobot that is the server's clock at the moment a move
// is committed.
//
// It lives beside the rules rather than in them because time is not a rule
// of any game: the rules packages stay about the board, while storage (which saves
// a Clock with each game and indexes its next event) and commands (which
// reads the players' choices and announces what happens on time) share
// this one model. No type in it is safe for concurrent use.
package clock
