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
	due_ns      bigint NOT NULL DEFAULT 0, -- Game.Due, 0 for none
	record      text NOT NULL
);
CREATE INDEX games_black ON games (black);
CREATE INDEX games_white ON games (white);
-- The deadline index (bbolt's games_by_due): the scheduler reads its start.
CREATE INDEX games_by_due ON games (due_ns, channel_id) WHERE due_ns <> 0;

-- Small values: the heartbeat of the bot processes (Unix nanoseconds).
CREATE TABLE meta (
	key    text PRIMARY KEY,
	value  bigint NOT NULL
);

CREATE TABLE vacations (
	player  text PRIMARY KEY,
	record  text NOT NULL
);

CREATE TABLE challenges (
	id          text PRIMARY KEY,
	expires_ns  bigint NOT NULL,
	record      text NOT NULL
);
CREATE INDEX challenges_expiry ON challenges (expires_ns, id);

CREATE TABLE archive (
	id           text PRIMARY KEY,
	channel_id   text NOT NULL,
	guild_id     text NOT NULL, -- '' in DMs
	finished_ns  bigint NOT NULL,
	record       text NOT NULL,
	sgf          bytea NOT NULL,
	review       bytea          -- PutGameReview's opaque review, if any
);
CREATE INDEX archive_by_channel ON archive (channel_id, finished_ns DESC, id DESC);
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

-- The owed bot moves, in the order they became owed (seq), kept in step
-- with the games by the writes (and by the cascade when a game leaves its
-- channel). A claim is the worker's name and when it lapses (until_ns);
-- with no worker, until_ns is the retry time after a failure. Workers take
-- moves with SELECT … FOR UPDATE SKIP LOCKED, so several processes take
-- different games, and a dead worker's moves are taken over once its
-- lease lapses.
CREATE TABLE bot_queue (
	seq         bigserial PRIMARY KEY,
	channel_id  text NOT NULL UNIQUE REFERENCES games (channel_id) ON DELETE CASCADE,
	game_id     text NOT NULL,
	moves       integer NOT NULL,
	since_ns    bigint NOT NULL,
	worker      text NOT NULL DEFAULT '',
	until_ns    bigint NOT NULL DEFAULT 0,
	attempts    integer NOT NULL DEFAULT 0
);
CREATE INDEX bot_queue_claimable ON bot_queue (until_ns, seq);
