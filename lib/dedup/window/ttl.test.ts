import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { findConsumerGroup, listConsumerGroups, listTtlChanges } from "./groups";
import { setGroupTtl } from "./set-group-ttl";
import { previewTtlChange } from "./ttl-preview";
import { seedRecords, uniqueGroup } from "./test-helpers";

const actor = { id: "ops@example.com", role: "operator" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

/** A group with 10 records 30 min old, 20 records 2 h old and 5 records 3 days old. */
async function seededGroup(ttlSeconds: number): Promise<string> {
  const group = uniqueGroup();
  await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds, reason: "setup", actor });
  await seedRecords(store.db, group, 10, 1800, "recent");
  await seedRecords(store.db, group, 20, 7200, "older");
  await seedRecords(store.db, group, 5, 3 * 86_400, "stale");
  return group;
}

describe("previewTtlChange", () => {
  it("counts the records a shortening expires at once", async () => {
    const group = await seededGroup(86_400);
    expect(await previewTtlChange(store.db, group, 3600)).toEqual({
      consumerGroup: group,
      configured: true,
      currentTtlSeconds: 86_400,
      newTtlSeconds: 3600,
      liveNow: 30,
      liveAfter: 10,
      expireAtOnce: 20,
      liveOn: 0,
      revived: 0,
    });
  });

  it("counts the records a lengthening keeps live and brings back", async () => {
    const group = await seededGroup(3600);
    expect(await previewTtlChange(store.db, group, 7 * 86_400)).toMatchObject({
      currentTtlSeconds: 3600,
      liveNow: 10,
      liveAfter: 35,
      expireAtOnce: 0,
      liveOn: 10,
      revived: 25,
    });
  });

  it("previews a group without settings against the default TTL and saves nothing", async () => {
    const group = uniqueGroup("unknown");
    await seedRecords(store.db, group, 4, 7200);
    expect(await previewTtlChange(store.db, group, 3600)).toMatchObject({
      configured: false,
      currentTtlSeconds: 86_400,
      expireAtOnce: 4,
    });
    expect(await findConsumerGroup(store.db, group)).toBeUndefined();
  });
});

describe("setGroupTtl", () => {
  it("creates a group, records its history and audits it", async () => {
    const group = uniqueGroup();
    await seedRecords(store.db, group, 3, 7200);
    const created = await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 3600, reason: "new consumer", actor });
    expect(created.created).toBe(true);
    expect(created.group).toMatchObject({ id: group, ttlSeconds: 3600, graceSeconds: null });
    expect(created.change).toMatchObject({
      consumerGroup: group,
      oldTtlSeconds: 86_400,
      newTtlSeconds: 3600,
      created: true,
      actor: actor.id,
      reason: "new consumer",
      expiredAtOnce: 3,
    });
    const audit = await store.db.execute<{ action: string; actor: string; actor_role: string; affected: number; reason: string }>(
      sql`select action, actor, actor_role, affected, reason from audit_log where target = ${`consumer_group:${group}`}`,
    );
    expect(audit.rows).toEqual([
      { action: "consumer_group.create", actor: actor.id, actor_role: "operator", affected: 3, reason: "new consumer" },
    ]);
  });

  it("writes a history row per change with what it expired, and nothing when unchanged", async () => {
    const group = await seededGroup(86_400);
    const shortened = await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 3600, graceSeconds: 600, reason: "too long", actor });
    expect(shortened.change).toMatchObject({ oldTtlSeconds: 86_400, newTtlSeconds: 3600, oldGraceSeconds: null, newGraceSeconds: 600, expiredAtOnce: 20 });
    const same = await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 3600, reason: "again", actor });
    expect(same.change).toBeNull();
    expect(same.group.graceSeconds).toBe(600);
    const lengthened = await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 4 * 86_400, graceSeconds: null, reason: "replay", actor });
    expect(lengthened.change).toMatchObject({ expiredAtOnce: 0, revived: 25, newGraceSeconds: null });
    const history = await listTtlChanges(store.db, group, { limit: 10 });
    expect(history.map((c) => [c.oldTtlSeconds, c.newTtlSeconds])).toEqual([
      [3600, 4 * 86_400],
      [86_400, 3600],
      [86_400, 86_400],
    ]);
    const older = await listTtlChanges(store.db, group, { limit: 10, beforeId: history[0]!.id });
    expect(older).toHaveLength(2);
  });

  it("records concurrent changes in the order they were applied", async () => {
    const group = uniqueGroup();
    await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 100, reason: "setup", actor });
    const ttls = Array.from({ length: 10 }, (_, i) => 200 + i);
    await Promise.all(ttls.map((ttlSeconds) => setGroupTtl(store.db, { consumerGroup: group, ttlSeconds, reason: "race", actor })));
    const history = (await listTtlChanges(store.db, group, { limit: 20 })).reverse();
    expect(history).toHaveLength(11);
    for (let i = 1; i < history.length; i++) expect(history[i]!.oldTtlSeconds).toBe(history[i - 1]!.newTtlSeconds);
    expect((await findConsumerGroup(store.db, group))!.ttlSeconds).toBe(history.at(-1)!.newTtlSeconds);
  });

  it("creates a group once when several callers create it at the same time", async () => {
    const group = uniqueGroup();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 60, reason: "race", actor })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await listTtlChanges(store.db, group, { limit: 10 })).toHaveLength(1);
    expect((await listConsumerGroups(store.db)).filter((g) => g.id === group)).toHaveLength(1);
  });

  it("refuses a TTL outside 1 s to 365 days at the schema level", async () => {
    await expect(
      setGroupTtl(store.db, { consumerGroup: uniqueGroup(), ttlSeconds: 0, reason: "bad", actor }),
    ).rejects.toThrow();
    await expect(
      setGroupTtl(store.db, { consumerGroup: uniqueGroup(), ttlSeconds: 31_536_001, reason: "bad", actor }),
    ).rejects.toThrow();
  });
});
