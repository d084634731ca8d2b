import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { apiTokens, apiTokenUses } from "../schema";
import type { DbOrTx } from "../types";

/** A token as api_tokens holds it: what authentication needs. */
export type ApiTokenRecord = typeof apiTokens.$inferSelect;
/** A token with its last use (api_token_uses): what the token pages show. */
export type ApiTokenRow = ApiTokenRecord & { lastUsedAt: Date | null };
export type NewApiToken = typeof apiTokens.$inferInsert;

/**
 * The tokens with their last use: two reads rather than a join, since on Citus api_token_uses is
 * distributed and api_tokens a reference table (an outer join from it would span every shard anyway).
 */
async function withLastUse(db: DbOrTx, rows: ApiTokenRecord[]): Promise<ApiTokenRow[]> {
  if (rows.length === 0) return [];
  const uses = await db.select().from(apiTokenUses).where(inArray(apiTokenUses.tokenId, rows.map((row) => row.id)));
  const lastUse = new Map(uses.map((use) => [use.tokenId, use.lastUsedAt]));
  return rows.map((row) => ({ ...row, lastUsedAt: lastUse.get(row.id) ?? null }));
}

export async function insertApiToken(db: DbOrTx, token: NewApiToken): Promise<ApiTokenRow> {
  const [row] = await db.insert(apiTokens).values(token).returning();
  return { ...row!, lastUsedAt: null };
}

/** The token with this hash, revoked or not (the caller decides what a revoked token means). */
export async function findApiTokenByHash(db: DbOrTx, tokenHash: string): Promise<ApiTokenRecord | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row;
}

export async function findApiToken(db: DbOrTx, id: string): Promise<ApiTokenRow | undefined> {
  const [row] = await withLastUse(db, await db.select().from(apiTokens).where(eq(apiTokens.id, id)));
  return row;
}

export async function listApiTokens(db: DbOrTx, options: { includeRevoked?: boolean } = {}): Promise<ApiTokenRow[]> {
  const query = db.select().from(apiTokens);
  const filtered = options.includeRevoked ? query : query.where(isNull(apiTokens.revokedAt));
  return withLastUse(db, await filtered.orderBy(desc(apiTokens.createdAt)).limit(1000));
}

/** Live (not revoked, not expired) tokens per creator: what disabling a user would leave working. */
export async function liveTokenCountsByCreator(db: DbOrTx): Promise<Map<string, number>> {
  const rows = await db
    .select({ createdBy: apiTokens.createdBy, live: sql<number>`count(*)::int` })
    .from(apiTokens)
    .where(and(isNull(apiTokens.revokedAt), sql`(${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > now())`))
    .groupBy(apiTokens.createdBy);
  return new Map(rows.map((row) => [row.createdBy, row.live]));
}

/** Revokes every live token `createdBy` made; returns them (their hashes leave the caches). */
export async function revokeTokensCreatedBy(db: DbOrTx, createdBy: string, revokedBy: string): Promise<ApiTokenRecord[]> {
  return db
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(apiTokens.createdBy, createdBy), isNull(apiTokens.revokedAt), sql`(${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > now())`))
    .returning();
}

/** Marks a live token revoked; returns undefined when it was already revoked or does not exist. */
export async function revokeApiToken(db: DbOrTx, id: string, revokedBy: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return row && (await withLastUse(db, [row]))[0];
}

/**
 * Stamps last use; the guard keeps concurrent nodes from rewriting it more than once a minute. One
 * row of api_token_uses: on Citus one routed upsert, committed on one worker. The update takes the
 * time the insert computed (Citus allows only immutable functions in its SET).
 */
export async function touchApiToken(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`
    insert into api_token_uses as u (token_id, last_used_at) values (${id}, now())
    on conflict (token_id) do update set last_used_at = excluded.last_used_at
    where excluded.last_used_at - u.last_used_at >= interval '1 minute'`);
}
