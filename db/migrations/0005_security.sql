-- Anonymous sign-in attempts leave audit_log (which keeps authenticated actions) for their own,
-- bounded table: truncated fields, one aggregated row per address and window past the limit,
-- and pruning after the retention (lib/auth/security-events.ts).
CREATE TABLE IF NOT EXISTS "security_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"account" text,
	"detail" text,
	"count" integer DEFAULT 1 NOT NULL,
	"window_start" timestamp with time zone,
	CONSTRAINT "security_events_bounded" CHECK (length("kind") <= 40 AND length("address") <= 64 AND length("account") <= 120 AND length("detail") <= 200)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "security_events_by_at" ON "security_events" USING btree ("at");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "security_events_aggregate" ON "security_events" USING btree ("kind","address","window_start") WHERE "window_start" is not null;
--> statement-breakpoint
-- Session tokens are kept as their SHA-256 (hex), never as the bearer value (lib/auth/hashed-sessions.ts).
UPDATE "auth_sessions" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex') WHERE "token" !~ '^[0-9a-f]{64}$';
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_token_hashed" CHECK ("token" ~ '^[0-9a-f]{64}$');
