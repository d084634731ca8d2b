import { sql } from "drizzle-orm";
import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every set of hash settings a service has had, by version. A stored hash names the version
 * that made it, so a check can hash its payload under those settings too and compare like
 * with like. Rows are never changed or removed: a key may sit untouched for years.
 */
export const serviceHashSettings = pgTable(
  "service_hash_settings",
  {
    serviceId: text("service_id").notNull(),
    hashVersion: integer("hash_version").notNull(),
    ignoredPaths: text("ignored_paths").array().notNull(),
    includedPaths: text("included_paths").array().notNull(),
    normalise: text("normalise").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "service_hash_settings_pkey", columns: [t.serviceId, t.hashVersion] })],
);
