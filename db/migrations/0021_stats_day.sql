-- Daily (UTC) sums of stats_minute, so the 7- and 30-day totals per subject (the overview's and the
-- groups list's tables) read 24 times fewer rows than from stats_hour: at 100 services, two weeks
-- of hours were 33,600 rows for one statement. Filled by the same rollup as stats_hour
-- (db/queries/console-stats.ts): only closed days before stats_rollup's 'stats_day' mark are here,
-- readers take the rest from the finer tables, so a lagging rollup is slower, never wrong.
CREATE TABLE IF NOT EXISTS "stats_day" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"checks" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"changed" bigint DEFAULT 0 NOT NULL,
	"duplicates" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"late_redeliveries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_day_pkey" PRIMARY KEY("subject_kind","subject","bucket")
);
--> statement-breakpoint
-- Every subject of a kind over a range: an index-only range scan.
CREATE INDEX IF NOT EXISTS "stats_day_by_kind_bucket" ON "stats_day" USING btree ("subject_kind","bucket") INCLUDE ("subject","checks","new","changed","duplicates","errors","late_redeliveries");
