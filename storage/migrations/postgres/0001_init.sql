-- gobot's PostgreSQL schema, version 1: the tables of the bbolt layout
-- (storage/doc.go). Records are the same JSON the bbolt store writes, so the
-- two stores share their encoding and gobot migrate-db copies them as they
-- are; the columns beside them are what the queries select and order by.
-- Times are Unix nanoseconds (bigint), exact like bbolt's keys.

CREATE TABLE games (
	channel_id  text PRIMARY KEY,
	id          text NOT NULL UNIQUE,
	version     bigint NOT NULL CHECK (version > 0),
	black       text NOT NULL, -- Player.Key
	white       text NOT NULL,
	record      text NOT NULL
);
CREATE INDEX games_black ON games (black);
CREATE INDEX games_white ON games (white);

CREATE TABLE challenges (
	id          text PRIMARY KEY,
	expires_ns  bigint NOT NULL,
	record      text NOT NULL
);
CREATE INDEX challenges_expiry ON challenges (expires_ns, id);

CREATE TABLE archive (
	id           text PRIMARY KEY,
	guild_id     text NOT NULL, -- '' in DMs
	finished_ns  bigint NOT NULL,
	record       text NOT NULL,
	sgf          bytea NOT NULL
);
CREATE INDEX archive_by_guild ON archive (guild_id, finished_ns DESC, id DESC) WHERE guild_id <> '';

-- One row per distinct player of an archived game, as bbolt's
-- archive_by_player: a history page is one index range scan.
CREATE TABLE archive_by_player (
	player       text NOT NULL,
	finished_ns  bigint NOT NULL,
	id           text NOT NULL REFERENCES archive (id) ON DELETE CASCADE,
	PRIMARY KEY (player, finished_ns, id)
);

CREATE TABLE players (
	key     text PRIMARY KEY,
	record  text NOT NULL
);

CREATE TABLE quarantine (
	channel_id  text NOT NULL,
	at_ns       bigint NOT NULL,
	record      text NOT NULL,
	PRIMARY KEY (channel_id, at_ns)
);
