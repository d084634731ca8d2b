import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One reset (replay preparation) of a service's last-seen keys or a consumer
 * group's window records: what was selected, by whom and why, and how far its
 * batched execution and undo have come. Counters are updated by the same
 * statement that moves rows, so they stay true after a crash.
 */
export const resetBatches = pgTable(
  "reset_batches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind", { enum: ["last_seen", "window"] }).notNull(),
    /** The service id (last_seen) or consumer group id (window). */
    subject: text("subject").notNull(),
    mode: text("mode", { enum: ["key", "list", "filter"] }).notNull(),
    messageIds: text("message_ids").array(),
    prefix: text("prefix"),
    changedFrom: timestamp("changed_from", { withTimezone: true }),
    changedTo: timestamp("changed_to", { withTimezone: true }),
    /** Rows changed (or claimed) after this instant are never reset: a replay may already be writing them. */
    cutoff: timestamp("cutoff", { withTimezone: true }).notNull(),
    status: text("status", { enum: ["running", "done", "failed", "undoing", "undone", "expired"] }).notNull(),
    batchSize: integer("batch_size").notNull(),
    planned: integer("planned").notNull(),
    affected: integer("affected").notNull().default(0),
    restored: integer("restored").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    /** Last message id a batch reached; the next batch continues after it. */
    cursor: text("cursor"),
    actor: text("actor").notNull(),
    actorRole: text("actor_role").notNull(),
    reason: text("reason").notNull(),
    undoActor: text("undo_actor"),
    undoActorRole: text("undo_actor_role"),
    undoReason: text("undo_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** A runner touches this with every batch; a stale one may be taken over. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
    /** Undo is possible until then; afterwards the kept rows are purged. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("reset_batches_by_subject").on(t.kind, t.subject, t.id.desc()),
    index("reset_batches_by_expires_at").on(t.expiresAt),
    check("reset_batches_batch_size", sql`${t.batchSize} between 1 and 50000`),
    check("reset_batches_reason", sql`char_length(${t.reason}) between 1 and 1000`),
  ],
);
