-- Ratings (storage/rating.go): one row per player and pool, with the
-- Glicko-2 values beside the record for the leaderboard's walk, and the
-- history of every change keyed by the game's rating sequence. FinishGame
-- rates games one at a time (an advisory lock), taking the next value of
-- rating_seq, so a rebuild can replay them in the same order.

CREATE TABLE ratings (
	pool        text NOT NULL,
	player      text NOT NULL,
	rating      double precision NOT NULL,
	rd          double precision NOT NULL,
	volatility  double precision NOT NULL,
	last_ns     bigint NOT NULL,
	record      text NOT NULL,
	PRIMARY KEY (pool, player)
);
CREATE INDEX ratings_by_value ON ratings (pool, rating DESC, player COLLATE "C");

CREATE TABLE rating_history (
	player  text NOT NULL,
	pool    text NOT NULL,
	seq     bigint NOT NULL,
	record  text NOT NULL,
	PRIMARY KEY (player, pool, seq)
);

CREATE SEQUENCE rating_seq;
