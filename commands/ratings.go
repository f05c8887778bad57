package commands

// The rules that keep ratings from being farmed, as players meet them:
// which games storage leaves unrated (storage.ShortGame,
// storage.TooMuchHandicap), and where bot levels start.
