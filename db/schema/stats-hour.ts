import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { statsCounterColumns } from "./stats-minute";

/**
 * Hourly sums of stats_minute, so 7- and 30-day charts read 60 times fewer rows.
 * Only closed hours before stats_rollup.rolled_until are here; readers take the
 * rest from stats_minute, so a lagging rollup is slower, never wrong.
 */
export const statsHour = pgTable(
  "stats_hour",
  statsCounterColumns(),
  (t) => [
    primaryKey({ name: "stats_hour_pkey", columns: [t.subjectKind, t.subject, t.bucket] }),
    index("stats_hour_by_kind_bucket").on(t.subjectKind, t.bucket),
  ],
);

/**
 * 15-minute sums of stats_minute (migration 0012), so the 24 h chart and totals read 15 times
 * fewer rows. Filled like stats_hour, with its own mark in stats_rollup ('stats_quarter').
 */
export const statsQuarter = pgTable(
  "stats_quarter",
  statsCounterColumns(),
  (t) => [
    primaryKey({ name: "stats_quarter_pkey", columns: [t.subjectKind, t.subject, t.bucket] }),
    // The migration also INCLUDEs the subject and counters (an index-only scan), which drizzle cannot say.
    index("stats_quarter_by_kind_bucket").on(t.subjectKind, t.bucket),
  ],
);

/**
 * Daily (UTC) sums of stats_minute (migration 0021), so the 7- and 30-day totals per subject read
 * 24 times fewer rows than from stats_hour. Filled like stats_hour, with its own mark in
 * stats_rollup ('stats_day').
 */
export const statsDay = pgTable(
  "stats_day",
  statsCounterColumns(),
  (t) => [
    primaryKey({ name: "stats_day_pkey", columns: [t.subjectKind, t.subject, t.bucket] }),
    // The migration also INCLUDEs the subject and counters (an index-only scan), which drizzle cannot say.
    index("stats_day_by_kind_bucket").on(t.subjectKind, t.bucket),
  ],
);

/** How far each rollup has come: everything before `rolled_until` is in its table. */
export const statsRollup = pgTable("stats_rollup", {
  name: text("name").primaryKey(),
  rolledUntil: timestamp("rolled_until", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
