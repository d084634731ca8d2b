import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A projection, adapter or customer whose last-seen state weir keeps. */
export const services = pgTable(
  "services",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    /** JSON pointers stripped from payloads before hashing (e.g. /meta/sentAt). */
    ignoredPaths: text("ignored_paths").array().notNull().default(sql`'{}'::text[]`),
    /** JSON pointers of the only subtrees hashed; empty hashes the whole payload. */
    includedPaths: text("included_paths").array().notNull().default(sql`'{}'::text[]`),
    /** Normalisations applied before hashing (numbers, nulls, empty_containers); see docs/normalisation.md. */
    normalise: text("normalise").array().notNull().default(sql`'{}'::text[]`),
    /** The current row of service_hash_settings: bumped whenever the ignored or included paths change. */
    hashVersion: integer("hash_version").notNull().default(1),
    /** How many payload versions to keep per key for diffs; 0 keeps hashes only. */
    historyDepth: integer("history_depth").notNull().default(0),
    /** Payload versions older than this are removed by the retention job; null keeps them while the key lives. */
    payloadRetentionSeconds: integer("payload_retention_seconds"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("services_history_depth_range", sql`${t.historyDepth} between 0 and 100`),
    check("services_payload_retention_range", sql`${t.payloadRetentionSeconds} is null or ${t.payloadRetentionSeconds} between 60 and 315360000`),
    check("services_id_length", sql`char_length(${t.id}) between 1 and 128`),
  ],
);
