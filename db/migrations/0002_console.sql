CREATE TABLE "reset_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"mode" text NOT NULL,
	"message_ids" text[],
	"prefix" text,
	"changed_from" timestamp with time zone,
	"changed_to" timestamp with time zone,
	"cutoff" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"batch_size" integer NOT NULL,
	"planned" integer NOT NULL,
	"affected" integer DEFAULT 0 NOT NULL,
	"restored" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"cursor" text,
	"actor" text NOT NULL,
	"actor_role" text NOT NULL,
	"reason" text NOT NULL,
	"undo_actor" text,
	"undo_actor_role" text,
	"undo_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reset_batches_batch_size" CHECK ("reset_batches"."batch_size" between 1 and 50000),
	CONSTRAINT "reset_batches_reason" CHECK (char_length("reset_batches"."reason") between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "reset_rows" (
	"batch_id" bigint NOT NULL,
	"message_id" text NOT NULL,
	"hash" "bytea",
	"version" bigint,
	"first_seen" timestamp with time zone,
	"last_changed" timestamp with time zone,
	"versions" jsonb,
	"claimed_at" timestamp with time zone,
	"previous_claimed_at" timestamp with time zone,
	CONSTRAINT "reset_rows_pkey" PRIMARY KEY("batch_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "stats_hour" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"checks" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"changed" bigint DEFAULT 0 NOT NULL,
	"duplicates" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"late_redeliveries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_hour_pkey" PRIMARY KEY("subject_kind","subject","bucket")
);
--> statement-breakpoint
CREATE TABLE "stats_rollup" (
	"name" text PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reset_rows" ADD CONSTRAINT "reset_rows_batch_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."reset_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reset_batches_by_subject" ON "reset_batches" USING btree ("kind","subject","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reset_batches_by_expires_at" ON "reset_batches" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stats_hour_by_kind_bucket" ON "stats_hour" USING btree ("subject_kind","bucket");--> statement-breakpoint
-- Written by hand: indexes the console's reads need on tables whose schema files belong to other areas.
-- Overview totals over all subjects of a kind: an index-only range scan instead of a full scan.
CREATE INDEX IF NOT EXISTS "console_stats_minute_by_kind_bucket" ON "stats_minute" USING btree ("subject_kind","bucket") INCLUDE ("subject","checks","new","changed","duplicates","errors","late_redeliveries");--> statement-breakpoint
-- Browsing a scope's in-progress (stuck) keys without walking its completed ones; in-progress keys are few.
CREATE INDEX IF NOT EXISTS "console_idempotency_keys_in_progress" ON "idempotency_keys" USING btree ("scope","key") WHERE "status" = 'in_progress';
