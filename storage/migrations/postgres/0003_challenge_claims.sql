-- A claim on a challenge while it is being accepted (ClaimChallenge): the
-- worker making the game's thread holds it, so that a second Accept
-- pressed meanwhile, on any worker, is refused before it makes a second
-- thread. It lapses by itself (claim_until_ns) if that worker dies.
ALTER TABLE challenges
	ADD COLUMN claim_holder text NOT NULL DEFAULT '',
	ADD COLUMN claim_until_ns bigint NOT NULL DEFAULT 0;
