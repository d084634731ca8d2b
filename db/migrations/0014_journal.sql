CREATE TABLE "journal_gaps" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"dropped" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "journal_gaps_pkey" PRIMARY KEY("subject_kind","subject","minute")
);
--> statement-breakpoint
CREATE TABLE "journal_settings" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"level" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_settings_pkey" PRIMARY KEY("subject_kind","subject"),
	CONSTRAINT "journal_settings_kind" CHECK ("journal_settings"."subject_kind" in ('service', 'group', 'scope')),
	CONSTRAINT "journal_settings_level" CHECK ("journal_settings"."level" in ('all', 'changes_and_duplicates', 'off'))
);
--> statement-breakpoint
-- The decision journal: one row per answer, appended in batches by each node's journal writer
-- (lib/journal), never by the decision's own statement. Partitioned by day (UTC): the writer
-- creates each day's partition before it appends to it, and retention drops whole partitions
-- (WEIR_JOURNAL_RETENTION), so expiring entries writes nothing. On Citus the table is distributed
-- by key, co-located with last_seen: one key's timeline reads one shard.
CREATE TABLE IF NOT EXISTS "journal" (
	"at" timestamp with time zone NOT NULL,
	"mode" text NOT NULL,
	"subject" text NOT NULL,
	"key" text NOT NULL,
	"decision" text NOT NULL,
	"version" bigint,
	"matched_at" timestamp with time zone,
	"hash_version" integer,
	"caller" text,
	"request_id" text,
	"trace_id" text
) PARTITION BY RANGE ("at");
--> statement-breakpoint
-- A key's timeline (key detail page, GET .../decisions for one key).
CREATE INDEX IF NOT EXISTS "journal_by_key" ON "journal" USING btree ("mode", "subject", "key", "at");
--> statement-breakpoint
-- A subject's decisions over a time range (a chart bucket, the sources, the range API).
CREATE INDEX IF NOT EXISTS "journal_by_subject" ON "journal" USING btree ("mode", "subject", "at");
--> statement-breakpoint
-- Every subject over a time range (the incident view): a block range index costs almost nothing to keep.
CREATE INDEX IF NOT EXISTS "journal_by_time" ON "journal" USING brin ("at");
