import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const DEFAULT_LOCK_SECONDS = 90;
export const DEFAULT_RETENTION_SECONDS = 86_400;

/** Settings of an idempotency scope. Keys of a scope with no row use the defaults. */
export const idempotencyScopes = pgTable(
  "idempotency_scopes",
  {
    id: text("id").primaryKey(),
    /** How long a `started` caller holds the key before another may take it over. */
    lockSeconds: integer("lock_seconds").notNull().default(DEFAULT_LOCK_SECONDS),
    /** How long a key is kept (and its response replayed) after it was last written. */
    retentionSeconds: integer("retention_seconds").notNull().default(DEFAULT_RETENTION_SECONDS),
    /** A stored response older than this (from its completion) is removed with its key by the retention job; null: retention alone. */
    responseRetentionSeconds: integer("response_retention_seconds"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("idempotency_scopes_lock_range", sql`${t.lockSeconds} between 1 and 86400`),
    check("idempotency_scopes_retention_range", sql`${t.retentionSeconds} between 1 and 31536000`),
    check("idempotency_scopes_response_retention_range", sql`${t.responseRetentionSeconds} is null or ${t.responseRetentionSeconds} between 60 and 31536000`),
    check("idempotency_scopes_id_length", sql`char_length(${t.id}) between 1 and 128`),
  ],
);
