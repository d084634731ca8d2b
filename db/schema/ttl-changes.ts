import { bigserial, boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** History of consumer-group TTL changes, with what each did to existing records. */
export const ttlChanges = pgTable(
  "ttl_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    consumerGroup: text("consumer_group").notNull(),
    /** The TTL in force before: the default TTL when the change created the group. */
    oldTtlSeconds: integer("old_ttl_seconds").notNull(),
    newTtlSeconds: integer("new_ttl_seconds").notNull(),
    oldGraceSeconds: integer("old_grace_seconds"),
    newGraceSeconds: integer("new_grace_seconds"),
    created: boolean("created").notNull().default(false),
    actor: text("actor").notNull(),
    reason: text("reason"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Records inside the old window and outside the new one when the change was saved. */
    expiredAtOnce: integer("expired_at_once").notNull().default(0),
    /** Stored records outside the old window and inside the new one (duplicates again). */
    revived: integer("revived").notNull().default(0),
  },
  (t) => [index("ttl_changes_by_group").on(t.consumerGroup, t.id.desc())],
);
