-- The journal's block range index on time, with ranges of 16 pages instead of 128, each summed as
-- several intervals (minmax_multi) rather than one. A range query reads every row of each range it
-- touches: with 128 pages (about 8,000 entries) a range was as wide as 25 minutes of a journal taking
-- 20,000 entries an hour, and one entry appended late (a batch flushed after a retry) stretched its
-- range's single interval over every minute in between. Four minutes at the edge of a quarter hour
-- read 22,800 rows for 1,334. autosummarize sums each range as it fills, so the newest entries are not
-- read whole until the next vacuum. Rebuilt on every partition: one read of each, in the migration's
-- transaction.
DROP INDEX IF EXISTS "journal_by_time";--> statement-breakpoint
CREATE INDEX "journal_by_time" ON "journal" USING brin ("at" timestamptz_minmax_multi_ops) WITH (pages_per_range = 16, autosummarize = on);
