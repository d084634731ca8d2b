import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Bearer tokens for machines calling /api/v1. Only the SHA-256 of the token is
 * stored (tokens carry 256 random bits, so a fast hash is enough). Scope lists
 * hold ids, or "*" for all. Last use is kept apart, in api_token_uses.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the token, so people can tell tokens apart. */
    prefix: text("prefix").notNull(),
    services: text("services").array().notNull().default(sql`'{}'::text[]`),
    consumerGroups: text("consumer_groups").array().notNull().default(sql`'{}'::text[]`),
    idempotencyScopes: text("idempotency_scopes").array().notNull().default(sql`'{}'::text[]`),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by"),
    /** The token's own limits, per node (lib/http/capacity-gate.ts); null: the defaults. */
    maxInFlight: integer("max_in_flight"),
    requestsPerSecond: integer("requests_per_second"),
  },
  (t) => [
    check("api_tokens_role", sql`${t.role} in ('service', 'viewer', 'operator', 'admin')`),
    check("api_tokens_limits", sql`${t.maxInFlight} > 0 and ${t.requestsPerSecond} > 0`),
    index("api_tokens_by_created").on(t.createdAt.desc()),
  ],
);
