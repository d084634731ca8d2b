import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { apiTokens } from "../schema";
import type { DbOrTx } from "../types";

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type NewApiToken = typeof apiTokens.$inferInsert;

export async function insertApiToken(db: DbOrTx, token: NewApiToken): Promise<ApiTokenRow> {
  const [row] = await db.insert(apiTokens).values(token).returning();
  return row!;
}

/** The token with this hash, revoked or not (the caller decides what a revoked token means). */
export async function findApiTokenByHash(db: DbOrTx, tokenHash: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row;
}

export async function findApiToken(db: DbOrTx, id: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id));
  return row;
}

export async function listApiTokens(db: DbOrTx, options: { includeRevoked?: boolean } = {}): Promise<ApiTokenRow[]> {
  const query = db.select().from(apiTokens);
  const filtered = options.includeRevoked ? query : query.where(isNull(apiTokens.revokedAt));
  return filtered.orderBy(desc(apiTokens.createdAt)).limit(1000);
}

/** Marks a live token revoked; returns undefined when it was already revoked or does not exist. */
export async function revokeApiToken(db: DbOrTx, id: string, revokedBy: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return row;
}

/** Stamps last use; the guard keeps concurrent nodes from rewriting it more than once a minute. */
export async function touchApiToken(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < now() - interval '1 minute')`));
}
