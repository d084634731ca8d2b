import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Refused and failed sign-ins by people who are not signed in. Kept apart from
 * the append-only audit_log, with a bounded footprint: fields are truncated,
 * attempts past an address's limit fold into one row per address and window
 * (`count`), and rows older than the retention are pruned.
 */
export const securityEvents = pgTable(
  "security_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull(),
    address: text("address").notNull(),
    account: text("account"),
    detail: text("detail"),
    /** Attempts this row stands for: 1, or more for an aggregated row. */
    count: integer("count").notNull().default(1),
    /** Set on aggregated rows only: the start of the window they count. */
    windowStart: timestamp("window_start", { withTimezone: true }),
  },
  (t) => [
    index("security_events_by_at").on(t.at),
    uniqueIndex("security_events_aggregate").on(t.kind, t.address, t.windowStart).where(sql`${t.windowStart} is not null`),
  ],
);
