-- A server's administration (storage/admin.go): its settings, its bans and
-- the audit log of its admins' actions, as bbolt's settings, bans and
-- audit buckets; and the active games of each server, newest first, for
-- /go-admin games (bbolt's games_by_guild).

CREATE TABLE guild_settings (
	guild_id  text PRIMARY KEY,
	version   bigint NOT NULL CHECK (version > 0),
	record    text NOT NULL
);

-- One row per user and server; a lifted or lapsed ban stays.
CREATE TABLE bans (
	guild_id  text NOT NULL,
	user_id   text NOT NULL,
	record    text NOT NULL,
	PRIMARY KEY (guild_id, user_id)
);

-- The log only grows: nothing deletes from it.
CREATE TABLE audit_log (
	seq       bigint PRIMARY KEY,
	guild_id  text NOT NULL,
	record    text NOT NULL
);
CREATE INDEX audit_by_guild ON audit_log (guild_id, seq DESC);
CREATE SEQUENCE audit_seq;

-- A game's server and creation time never change: a trigger reads them
-- from the record when the game is inserted, so every INSERT (a new game,
-- an accepted challenge, gobot migrate-db) fills them.
ALTER TABLE games ADD COLUMN guild_id text NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN created_ns bigint NOT NULL DEFAULT 0;

CREATE FUNCTION games_guild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.guild_id := coalesce(NEW.record::jsonb ->> 'guild', '');
	NEW.created_ns := coalesce((extract(epoch FROM (NEW.record::jsonb ->> 'created')::timestamptz) * 1000000)::bigint * 1000, 0);
	RETURN NEW;
END $$;
CREATE TRIGGER games_guild BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION games_guild();

UPDATE games SET guild_id = coalesce(record::jsonb ->> 'guild', ''),
	created_ns = coalesce((extract(epoch FROM (record::jsonb ->> 'created')::timestamptz) * 1000000)::bigint * 1000, 0);
CREATE INDEX games_by_guild ON games (guild_id, created_ns DESC, channel_id COLLATE "C" DESC) WHERE guild_id <> '';
