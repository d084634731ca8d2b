import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Every operator mutation: who, when, what, how many and why. Append-only. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    /**
     * Where the row lives on Citus (its distribution value, migration 0018): for a change of one
     * key, a value of that key's shard, so the row commits with the change on one worker; else ''.
     * Never the key itself: an erasure must leave no key behind. Unused on one PostgreSQL.
     */
    shardKey: text("shard_key").notNull().default(""),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    actorRole: text("actor_role").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    affected: integer("affected").notNull().default(0),
    reason: text("reason"),
    details: jsonb("details").notNull().default({}),
  },
  (t) => [
    primaryKey({ name: "audit_log_pkey", columns: [t.shardKey, t.id] }),
    // The audit page lists newest first by id (its keyset), with or without an action: these keep
    // it a walk of one index, not a sort of the whole log (migration 0023). The key above leads
    // with shard_key, so it cannot.
    index("audit_log_by_id").on(t.id),
    index("audit_log_by_at").on(t.at.desc()),
    index("audit_log_by_action").on(t.action, t.id),
  ],
);
