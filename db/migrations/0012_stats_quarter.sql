-- 15-minute sums of stats_minute, so the 24 h chart (15-minute buckets) and the 24 h totals read
-- 15 times fewer rows. Filled by the same rollup as stats_hour (db/queries/console-stats.ts): only
-- closed quarters before stats_rollup's 'stats_quarter' mark are here, readers take the rest from
-- stats_minute, so a lagging rollup is slower, never wrong.
CREATE TABLE IF NOT EXISTS "stats_quarter" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"checks" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"changed" bigint DEFAULT 0 NOT NULL,
	"duplicates" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"late_redeliveries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_quarter_pkey" PRIMARY KEY("subject_kind","subject","bucket")
);
--> statement-breakpoint
-- Every subject of a kind over a range (the overview): an index-only range scan.
CREATE INDEX IF NOT EXISTS "stats_quarter_by_kind_bucket" ON "stats_quarter" USING btree ("subject_kind","bucket") INCLUDE ("subject","checks","new","changed","duplicates","errors","late_redeliveries");
