import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { CACHE_MS, actorForToken } from "@/lib/auth/tokens/token-cache";
import { touchApiToken } from "@/db/queries/auth-tokens";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { listApiTokensVerb } from "@/lib/auth/tokens/list-tokens";
import { revokeApiTokenVerb } from "@/lib/auth/tokens/revoke-token";
import { bearerTokenOf, hashTokenSecret } from "@/lib/auth/tokens/token-secret";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});
afterEach(() => vi.useRealTimers());

async function newToken(name: string, extra: { expiresInDays?: number } = {}) {
  return createApiToken({ db: store.db, actor: SYSTEM_ACTOR, input: { name, role: "service", services: ["svc"], ...extra } });
}

const lastUsed = async (id: string) => {
  const row = (await store.db.execute<{ last_used_at: string }>(sql`select last_used_at from api_token_uses where token_id = ${id}`)).rows[0];
  return row ? new Date(row.last_used_at) : null;
};

describe("API token authentication", () => {
  it("stores only the SHA-256 of the secret, and shows a prefix", async () => {
    const { token, details } = await newToken("hashed");
    expect(token).toMatch(/^weir_[A-Za-z0-9_-]{43}$/);
    const row = (await store.db.execute<{ token_hash: string; prefix: string }>(sql`select token_hash, prefix from api_tokens where id = ${details.id}`)).rows[0]!;
    expect(row.token_hash).toBe(hashTokenSecret(token));
    expect(row.prefix).toBe(token.slice(0, 12));
    expect(JSON.stringify(details)).not.toContain(token);
    expect(bearerTokenOf(`Bearer ${token}`)).toBe(token);
    expect(bearerTokenOf(`Bearer ${token}x"`)).toBeNull();
  });

  it("records last use in the background, at most once a minute per token", async () => {
    const { token, details } = await newToken("last-use");
    expect(await lastUsed(details.id)).toBeNull();
    await actorForToken(store.db, token);
    await expect.poll(() => lastUsed(details.id)).not.toBeNull();
    const first = (await lastUsed(details.id))!.getTime();
    for (let i = 0; i < 20; i++) await actorForToken(store.db, token);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await lastUsed(details.id))!.getTime()).toBe(first);
    const listed = (await listApiTokensVerb({ db: store.db, actor: SYSTEM_ACTOR })).find((t) => t.id === details.id);
    expect(listed?.lastUsedAt).toBe(new Date(first).toISOString());
  });

  it("stamps a token's use at most once a minute across nodes, and later again", async () => {
    const { details } = await newToken("stamped");
    await touchApiToken(store.db, details.id);
    const first = (await lastUsed(details.id))!.getTime();
    await touchApiToken(store.db, details.id);
    expect((await lastUsed(details.id))!.getTime()).toBe(first);
    await store.db.execute(sql`update api_token_uses set last_used_at = '2000-01-01' where token_id = ${details.id}`);
    await touchApiToken(store.db, details.id);
    expect((await lastUsed(details.id))!.getTime()).toBeGreaterThanOrEqual(first);
  });

  it("stops a token revoked on this node at once, and one revoked elsewhere within the cache time", async () => {
    const here = await newToken("revoked-here");
    expect(await actorForToken(store.db, here.token)).not.toBeNull();
    await revokeApiTokenVerb({ db: store.db, actor: SYSTEM_ACTOR, input: { id: here.details.id, reason: "leaked" } });
    expect(await actorForToken(store.db, here.token)).toBeNull();

    const elsewhere = await newToken("revoked-elsewhere");
    expect(await actorForToken(store.db, elsewhere.token)).not.toBeNull();
    // Another node revokes: this node's cache does not know yet.
    await store.db.execute(sql`update api_tokens set revoked_at = now() where id = ${elsewhere.details.id}`);
    expect(await actorForToken(store.db, elsewhere.token)).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + CACHE_MS + 1 });
    expect(await actorForToken(store.db, elsewhere.token)).toBeNull();
  });

  it("refuses an expired token", async () => {
    const { token } = await newToken("expiring", { expiresInDays: 1 });
    expect(await actorForToken(store.db, token)).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 86_400_000 + 1 });
    expect(await actorForToken(store.db, token)).toBeNull();
  });
});
