import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One record per claimed (consumer_group, message_id). Whether it is inside its
 * window is decided at read time from the group's current TTL, so a TTL change
 * applies to existing records at once. No foreign key on purpose (hot table).
 */
export const windowRecords = pgTable(
  "window_records",
  {
    consumerGroup: text("consumer_group").notNull(),
    messageId: text("message_id").notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The claim before a late redelivery re-opened the window; its lateness is measured from it. */
    previousClaimedAt: timestamp("previous_claimed_at", { withTimezone: true }),
    /** Set by each claim: records claimed at or before it had expired (compared in ON CONFLICT, see 0006). */
    claimCutoff: timestamp("claim_cutoff", { withTimezone: true }),
    /** The caller's ref given with the claim that opened this window. */
    ref: text("ref"),
  },
  (t) => [
    primaryKey({ name: "window_records_pkey", columns: [t.consumerGroup, t.messageId] }),
    index("window_records_by_claimed_at").on(t.consumerGroup, t.claimedAt),
  ],
);
