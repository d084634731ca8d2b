-- Edited by hand (drizzle-kit cannot name the old key): on Citus audit_log becomes a distributed table
-- (db/citus.ts), whose key must hold its distribution column. Existing rows take '' without an UPDATE,
-- which the append-only trigger would refuse.
ALTER TABLE "audit_log" ADD COLUMN "shard_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY("shard_key","id");
