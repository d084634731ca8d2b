import { bigint, foreignKey, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { digest } from "./last-seen";
import { resetBatches } from "./reset-batches";

export interface KeptPayloadVersion {
  version: number;
  /** Hex of the stored digest. */
  hash: string;
  payload: string;
  recordedAt: string;
}

/**
 * A copy of every row a reset removed, kept for undo until the batch expires.
 * last_seen keys carry their payload versions (removed with the key, so that a
 * new version 1 does not collide); window records carry their claim times.
 */
export const resetRows = pgTable(
  "reset_rows",
  {
    batchId: bigint("batch_id", { mode: "number" }).notNull(),
    messageId: text("message_id").notNull(),
    hash: digest("hash"),
    version: bigint("version", { mode: "number" }),
    hashVersion: integer("hash_version"),
    firstSeen: timestamp("first_seen", { withTimezone: true }),
    lastChanged: timestamp("last_changed", { withTimezone: true }),
    versions: jsonb("versions").$type<KeptPayloadVersion[]>(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    previousClaimedAt: timestamp("previous_claimed_at", { withTimezone: true }),
    /** The caller's ref the key or claim was stored with, restored by an undo. */
    ref: text("ref"),
  },
  (t) => [
    primaryKey({ name: "reset_rows_pkey", columns: [t.batchId, t.messageId] }),
    foreignKey({ name: "reset_rows_batch_fk", columns: [t.batchId], foreignColumns: [resetBatches.id] }).onDelete("cascade"),
  ],
);
