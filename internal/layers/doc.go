// Package layers holds no code, only the test that keeps gobot's games in
// their rooms: the game contract (engine/game) imports no gobot package;
// no game imports another's rules, pictures or bots; and the files of the
// core that already know no game (storage's games, seats, clocks and
// queues) import no game's rules. Files that still import Go's rules are
// listed by name, so that the list can only shrink.
package layers
