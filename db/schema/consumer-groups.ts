import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A consumer group's claim window. Claims of a group with no row use the default TTL. */
export const consumerGroups = pgTable(
  "consumer_groups",
  {
    id: text("id").primaryKey(),
    ttlSeconds: integer("ttl_seconds").notNull(),
    /** How long expired records are kept to detect late redeliveries; null means one TTL. */
    graceSeconds: integer("grace_seconds"),
    /** Sliding window: a duplicate restarts the record's window (claimed_at = now). Off: a duplicate writes nothing. */
    slide: boolean("slide").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("consumer_groups_ttl_range", sql`${t.ttlSeconds} between 1 and 31536000`),
    check("consumer_groups_grace_range", sql`${t.graceSeconds} is null or ${t.graceSeconds} between 0 and 31536000`),
    check("consumer_groups_id_length", sql`char_length(${t.id}) between 1 and 128`),
  ],
);
