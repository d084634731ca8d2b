import { bigint, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** The counters both rollups (per minute, per hour) keep for a subject and bucket. */
export const statsCounterColumns = () => ({
  subjectKind: text("subject_kind").notNull(),
  subject: text("subject").notNull(),
  bucket: timestamp("bucket", { withTimezone: true }).notNull(),
  checks: bigint("checks", { mode: "number" }).notNull().default(0),
  new: bigint("new", { mode: "number" }).notNull().default(0),
  changed: bigint("changed", { mode: "number" }).notNull().default(0),
  duplicates: bigint("duplicates", { mode: "number" }).notNull().default(0),
  errors: bigint("errors", { mode: "number" }).notNull().default(0),
  lateRedeliveries: bigint("late_redeliveries", { mode: "number" }).notNull().default(0),
});

/**
 * Per-minute counters per subject (a service, a consumer group or an idempotency
 * scope). Written in batches by the stats recorder, never once per decision.
 */
export const statsMinute = pgTable(
  "stats_minute",
  statsCounterColumns(),
  (t) => [primaryKey({ name: "stats_minute_pkey", columns: [t.subjectKind, t.subject, t.bucket] })],
);
