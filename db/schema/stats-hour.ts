import { bigint, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Hourly sums of stats_minute, so 7- and 30-day charts read 60 times fewer rows.
 * Only closed hours before stats_rollup.rolled_until are here; readers take the
 * rest from stats_minute, so a lagging rollup is slower, never wrong.
 */
export const statsHour = pgTable(
  "stats_hour",
  {
    subjectKind: text("subject_kind").notNull(),
    subject: text("subject").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    checks: bigint("checks", { mode: "number" }).notNull().default(0),
    new: bigint("new", { mode: "number" }).notNull().default(0),
    changed: bigint("changed", { mode: "number" }).notNull().default(0),
    duplicates: bigint("duplicates", { mode: "number" }).notNull().default(0),
    errors: bigint("errors", { mode: "number" }).notNull().default(0),
    lateRedeliveries: bigint("late_redeliveries", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "stats_hour_pkey", columns: [t.subjectKind, t.subject, t.bucket] }),
    index("stats_hour_by_kind_bucket").on(t.subjectKind, t.bucket),
  ],
);

/** How far each rollup has come: everything before `rolled_until` is in its table. */
export const statsRollup = pgTable("stats_rollup", {
  name: text("name").primaryKey(),
  rolledUntil: timestamp("rolled_until", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
