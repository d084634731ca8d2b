-- Edited by hand: last use moves out of api_tokens (a reference table on Citus, where every write
-- commits with two-phase commit on every node) into api_token_uses, distributed by token id on Citus
-- (db/citus.ts). Stamps already taken are copied. api_tokens.last_used_at stays in the database, no
-- longer written nor read: nodes of the previous version still select it while a deploy rolls.
CREATE TABLE "api_token_uses" (
	"token_id" text PRIMARY KEY NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "api_token_uses" ("token_id", "last_used_at") SELECT "id", "last_used_at" FROM "api_tokens" WHERE "last_used_at" IS NOT NULL;
