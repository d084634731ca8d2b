import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { statsCounterColumns } from "./stats-minute";

/**
 * A rollup table of stats_minute: the same counters per (kind, subject, bucket), and an index by
 * (kind, bucket). The quarter's and day's migrations also INCLUDE the subject and counters in it
 * (an index-only scan), which drizzle cannot say.
 */
const rollupTable = <Name extends "stats_hour" | "stats_quarter" | "stats_day">(name: Name) =>
  pgTable(name, statsCounterColumns(), (t) => [
    primaryKey({ name: `${name}_pkey`, columns: [t.subjectKind, t.subject, t.bucket] }),
    index(`${name}_by_kind_bucket`).on(t.subjectKind, t.bucket),
  ]);

/**
 * Hourly sums of stats_minute, so 7- and 30-day charts read 60 times fewer rows.
 * Only closed hours before stats_rollup.rolled_until are here; readers take the
 * rest from stats_minute, so a lagging rollup is slower, never wrong.
 */
export const statsHour = rollupTable("stats_hour");

/**
 * 15-minute sums of stats_minute (migration 0012), so the 24 h chart and totals read 15 times
 * fewer rows. Filled like stats_hour, with its own mark in stats_rollup ('stats_quarter').
 */
export const statsQuarter = rollupTable("stats_quarter");

/**
 * Daily (UTC) sums of stats_minute (migration 0021), so the 7- and 30-day totals per subject read
 * 24 times fewer rows than from stats_hour. Filled like stats_hour, with its own mark in
 * stats_rollup ('stats_day').
 */
export const statsDay = rollupTable("stats_day");

/** How far each rollup has come: everything before `rolled_until` is in its table. */
export const statsRollup = pgTable("stats_rollup", {
  name: text("name").primaryKey(),
  rolledUntil: timestamp("rolled_until", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
