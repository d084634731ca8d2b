-- Each rollup bucket now also holds each kind's sum over its subjects (subject_kind 'all-' || kind,
-- subject ''), which the rollup writes beside the subjects' rows from now on (db/queries/console-stats.ts,
-- totalKind): a chart of every service reads one row per bucket, not one per service. This sums the
-- buckets rolled up before. stats_minute keeps per-subject rows only.
INSERT INTO "stats_day" ("subject_kind", "subject", "bucket", "checks", "new", "changed", "duplicates", "errors", "late_redeliveries")
SELECT 'all-' || "subject_kind", '', "bucket", sum("checks"), sum("new"), sum("changed"), sum("duplicates"), sum("errors"), sum("late_redeliveries")
FROM "stats_day" WHERE "subject_kind" IN ('service', 'group', 'scope')
GROUP BY "subject_kind", "bucket"
ON CONFLICT ("subject_kind", "subject", "bucket") DO NOTHING;
--> statement-breakpoint
INSERT INTO "stats_hour" ("subject_kind", "subject", "bucket", "checks", "new", "changed", "duplicates", "errors", "late_redeliveries")
SELECT 'all-' || "subject_kind", '', "bucket", sum("checks"), sum("new"), sum("changed"), sum("duplicates"), sum("errors"), sum("late_redeliveries")
FROM "stats_hour" WHERE "subject_kind" IN ('service', 'group', 'scope')
GROUP BY "subject_kind", "bucket"
ON CONFLICT ("subject_kind", "subject", "bucket") DO NOTHING;
--> statement-breakpoint
INSERT INTO "stats_quarter" ("subject_kind", "subject", "bucket", "checks", "new", "changed", "duplicates", "errors", "late_redeliveries")
SELECT 'all-' || "subject_kind", '', "bucket", sum("checks"), sum("new"), sum("changed"), sum("duplicates"), sum("errors"), sum("late_redeliveries")
FROM "stats_quarter" WHERE "subject_kind" IN ('service', 'group', 'scope')
GROUP BY "subject_kind", "bucket"
ON CONFLICT ("subject_kind", "subject", "bucket") DO NOTHING;
