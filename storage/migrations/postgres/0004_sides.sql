-- Seats: a game has sides, and a side one or more players (rengo), so a
-- game's players are a list rather than a black and a white column. The
-- list is every player's key in side order, as the record's "sides" hold
-- them; PlayerActiveGames finds a player's games through its GIN index.
ALTER TABLE games ADD COLUMN players text[] NOT NULL DEFAULT '{}';
UPDATE games SET players = ARRAY[black, white];
CREATE INDEX games_players ON games USING GIN (players);
DROP INDEX games_black;
DROP INDEX games_white;
ALTER TABLE games DROP COLUMN black, DROP COLUMN white;
