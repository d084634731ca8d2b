import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { digest } from "./last-seen";

/**
 * One row per (scope, key). `attempt` grows with every start or takeover and
 * fences complete/release calls from a caller whose lock was taken over.
 * No foreign key to the scope on purpose (hot table).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: digest("request_hash").notNull(),
    status: text("status", { enum: ["in_progress", "completed"] }).notNull(),
    attempt: integer("attempt").notNull().default(1),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    responseStatus: integer("response_status"),
    /** The response body exactly as the caller gave it. */
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Past this instant the key behaves as absent and cleanup may delete it. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** A caller waits for this key's result: complete and release send a NOTIFY. */
    waiters: boolean("waiters").notNull().default(false),
    /** The caller's ref given with the begin that holds (or completed) this attempt. */
    ref: text("ref"),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.scope, t.key] }),
    index("idempotency_keys_by_expires_at").on(t.expiresAt),
    // The retention job's batches: a scope's stored responses past its response age limit.
    index("idempotency_keys_by_completed_at").on(t.scope, t.completedAt).where(sql`${t.completedAt} is not null`),
    check("idempotency_keys_status", sql`${t.status} in ('in_progress', 'completed')`),
    check("idempotency_keys_in_progress_locked", sql`${t.status} <> 'in_progress' or ${t.lockedUntil} is not null`),
    check("idempotency_keys_completed_response", sql`${t.status} <> 'completed' or (${t.responseStatus} is not null and ${t.responseBody} is not null)`),
    check("idempotency_keys_key_length", sql`char_length(${t.key}) between 1 and 255`),
  ],
);
