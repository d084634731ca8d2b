import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "@/lib/errors";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { countRecords, routeCaller, seedRecords, uniqueGroup } from "./test-helpers";

let store: TestDatabase;
let call: Awaited<ReturnType<typeof routeCaller>>;

beforeAll(async () => {
  store = await createTestDatabase();
  call = await routeCaller(store);
});

describe("window API", () => {
  it("claims one message and a batch in order", async () => {
    const group = uniqueGroup();
    const first = await call("POST", "/api/v1/claim", { consumerGroup: group, messageId: "m-1" });
    expect(first).toEqual({
      status: 200,
      body: { consumerGroup: group, messageId: "m-1", decision: "new", ttlSeconds: 86_400, windowStartedAt: expect.any(String), windowEndsAt: expect.any(String) },
    });
    const batch = await call("POST", "/api/v1/claim/batch", {
      items: [
        { consumerGroup: group, messageId: "m-1" },
        { consumerGroup: group, messageId: "m-2" },
        { consumerGroup: group, messageId: "m-2" },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results.map((r: { decision: string }) => r.decision)).toEqual(["duplicate", "new", "duplicate"]);
  });

  it("refuses bad claims with the offending field", async () => {
    const missing = await call("POST", "/api/v1/claim", { consumerGroup: "g" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.field).toBe("messageId");
    const badGroup = await call("POST", "/api/v1/claim", { consumerGroup: "bad group'; drop table x", messageId: "m" });
    expect(badGroup.status).toBe(400);
    expect(badGroup.body.error.field).toBe("consumerGroup");
    const tooMany = await call("POST", "/api/v1/claim/batch", {
      items: Array.from({ length: 1001 }, (_, i) => ({ consumerGroup: "g", messageId: `m-${i}` })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.field).toBe("items");
  });

  it("creates, previews, changes and lists a group's TTL with its history", async () => {
    const group = uniqueGroup();
    const missingReason = await call("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 3600 });
    expect(missingReason.status).toBe(400);
    expect(missingReason.body.error.field).toBe("reason");
    const created = await call("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 86_400, reason: "new consumer" });
    expect(created.status).toBe(201);
    expect(created.body.group).toMatchObject({ id: group, ttlSeconds: 86_400, graceSeconds: null, effectiveGraceSeconds: 86_400 });
    await seedRecords(store.db, group, 6, 7200);
    const preview = await call("POST", `/api/v1/consumer-groups/${group}/ttl-preview`, { ttlSeconds: 3600 });
    expect(preview.body).toMatchObject({ currentTtlSeconds: 86_400, newTtlSeconds: 3600, expireAtOnce: 6 });
    const changed = await call("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 3600, graceSeconds: 60, reason: "shorter" });
    expect(changed.status).toBe(200);
    expect(changed.body.change).toMatchObject({ oldTtlSeconds: 86_400, newTtlSeconds: 3600, expiredAtOnce: 6, actor: expect.stringMatching(/^token:tok_/) });
    const list = await call("GET", "/api/v1/consumer-groups");
    expect(list.body.groups).toContainEqual(expect.objectContaining({ id: group, ttlSeconds: 3600, graceSeconds: 60 }));
    const page = await call("GET", `/api/v1/consumer-groups/${group}/ttl-changes?limit=1`);
    expect(page.body.changes).toHaveLength(1);
    expect(page.body.changes[0].reason).toBe("shorter");
    const older = await call("GET", `/api/v1/consumer-groups/${group}/ttl-changes?limit=1&before=${page.body.nextBefore}`);
    expect(older.body.changes[0].reason).toBe("new consumer");
    const audit = await store.db.execute<{ actor: string }>(sql`select actor from audit_log where target = ${`consumer_group:${group}`}`);
    expect(audit.rows.map((r: { actor: string }) => r.actor)).toEqual([expect.stringMatching(/^token:tok_/), expect.stringMatching(/^token:tok_/)]);
  });

  it("refuses an out-of-range TTL and a bad group id", async () => {
    const tooLong = await call("PUT", "/api/v1/consumer-groups/g-1", { ttlSeconds: 31_536_001, reason: "x" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.field).toBe("ttlSeconds");
    const badId = await call("POST", `/api/v1/consumer-groups/${encodeURIComponent("a b")}/ttl-preview`, { ttlSeconds: 5 });
    expect(badId.status).toBe(400);
    expect(badId.body.error.field).toBe("id");
  });

  it("runs a cleanup pass on demand and reports the lag", async () => {
    const group = uniqueGroup();
    await call("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 60, graceSeconds: 0, reason: "test" });
    await seedRecords(store.db, group, 12, 120);
    const result = await call("POST", "/api/v1/cleanup", { batchSize: 5 });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ complete: true, lag: { windowSeconds: 0 } });
    expect(result.body.windowRecordsRemoved).toBeGreaterThanOrEqual(12);
    expect(await countRecords(store.db, group)).toBe(0);
    expect((await call("POST", "/api/v1/cleanup")).body.removed).toBe(0);
  });

  it("answers 503 when the store is unavailable", async () => {
    const unavailable = await routeCaller(await brokenStore());
    expect((await unavailable("POST", "/api/v1/claim", { consumerGroup: "g", messageId: "m" })).status).toBe(503);
    expect((await unavailable("GET", "/api/v1/consumer-groups")).status).toBe(503);
    expect((await unavailable("POST", "/api/v1/cleanup")).status).toBe(503);
    expect((await unavailable("PUT", "/api/v1/consumer-groups/g-1", { ttlSeconds: 5, reason: "x" })).status).toBe(503);
  });
});

/** A store whose pool points at a port nothing listens on. */
async function brokenStore() {
  const { createPool } = await import("@/db/client");
  const { storeConfigFromEnv } = await import("@/db/config");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const schema = await import("@/db/schema");
  const pool = createPool({ ...storeConfigFromEnv(), connectTimeoutMs: 500 }, "postgres://postgres@127.0.0.1:1/none");
  return {
    db: drizzle({ client: pool, schema }),
    kind: "postgres" as const,
    pool,
    ping: async () => {
      throw new StoreUnavailableError();
    },
    close: () => pool.end(),
  };
}
