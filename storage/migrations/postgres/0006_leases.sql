-- Leases on background work any worker may do (storage/lease.go): a
-- game's review is run by the worker holding its lease, renewed while it
-- works, and taken over by another once it lapses (its worker died),
-- with the record it left.
CREATE TABLE leases (
	key       text PRIMARY KEY,
	holder    text NOT NULL,
	until_ns  bigint NOT NULL,
	record    bytea
);
