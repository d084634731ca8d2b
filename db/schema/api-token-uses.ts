import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * When each API token was last used, written at most once a minute per token. Apart from
 * api_tokens (a reference table on Citus, where every write is a two-phase commit on every
 * node): on Citus this table is distributed by token id, so a stamp commits on one worker.
 */
export const apiTokenUses = pgTable("api_token_uses", {
  tokenId: text("token_id").primaryKey(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull(),
});
