import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { claim, claimMany } from "./claim";
import { setGroupTtl } from "./set-group-ttl";
import { ageRecords, uniqueGroup, withWideDb } from "./test-helpers";

const actor = { id: "test", role: "admin" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

afterEach(() => {
  delete process.env.WEIR_DEFAULT_TTL_SECONDS;
});

async function groupWithTtl(ttlSeconds: number): Promise<string> {
  const group = uniqueGroup();
  await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds, reason: "test", actor });
  return group;
}

describe("claim", () => {
  it("is new the first time and a duplicate inside the window", async () => {
    const group = await groupWithTtl(3600);
    const first = await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    expect(first).toEqual({
      consumerGroup: group,
      messageId: "m-1",
      decision: "new",
      ttlSeconds: 3600,
      windowStartedAt: expect.any(String),
      windowEndsAt: new Date(Date.parse(first.windowStartedAt!) + 3_600_000).toISOString(),
    });
    await ageRecords(store.db, group, 3500);
    const again = await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    const started = new Date(Date.parse(first.windowStartedAt!) - 3_500_000);
    expect(again).toEqual({
      consumerGroup: group,
      messageId: "m-1",
      decision: "duplicate",
      ttlSeconds: 3600,
      windowStartedAt: started.toISOString(),
      windowEndsAt: new Date(started.getTime() + 3_600_000).toISOString(),
      firstRef: null,
    });
  });

  it("writes nothing for a duplicate", async () => {
    const group = await groupWithTtl(3600);
    await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    const before = await store.db.execute<{ xmin: string; claimed_at: Date }>(
      sql`select xmin::text, claimed_at from window_records where consumer_group = ${group}`,
    );
    await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    const after = await store.db.execute<{ xmin: string; claimed_at: Date }>(
      sql`select xmin::text, claimed_at from window_records where consumer_group = ${group}`,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it("is new again after the window, counted as a late redelivery with its lateness", async () => {
    const group = await groupWithTtl(60);
    await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    await ageRecords(store.db, group, 90);
    const late = await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    expect(late.decision).toBe("new");
    expect(late.lateRedelivery?.lateBySeconds).toBeGreaterThanOrEqual(30);
    expect(late.lateRedelivery?.lateBySeconds).toBeLessThan(35);
    // The late claim opened a new window.
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).decision).toBe("duplicate");
  });

  it("expires a record after a real one-second window on the database clock", async () => {
    const group = await groupWithTtl(1);
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).decision).toBe("new");
    await store.db.execute(sql`select pg_sleep(1.1)`);
    const late = await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    expect(late.decision).toBe("new");
    expect(late.lateRedelivery?.lateBySeconds).toBeGreaterThan(0);
    expect(late.lateRedelivery?.lateBySeconds).toBeLessThan(1);
  });

  it("applies a TTL change to existing records at once, both ways", async () => {
    const group = await groupWithTtl(3600);
    await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    await ageRecords(store.db, group, 600);
    await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 300, reason: "shorten", actor });
    const expired = await claim(store.db, { consumerGroup: group, messageId: "m-1" });
    expect(expired.decision).toBe("new");
    expect(expired.ttlSeconds).toBe(300);
    expect(expired.lateRedelivery?.lateBySeconds).toBeGreaterThanOrEqual(300);

    await claim(store.db, { consumerGroup: group, messageId: "m-2" });
    await ageRecords(store.db, group, 400, ["m-2"]);
    await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 3600, reason: "lengthen", actor });
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-2" })).decision).toBe("duplicate");
  });

  it("uses WEIR_DEFAULT_TTL_SECONDS for a group without settings", async () => {
    process.env.WEIR_DEFAULT_TTL_SECONDS = "120";
    const group = uniqueGroup("unknown");
    expect(await claim(store.db, { consumerGroup: group, messageId: "m-1" })).toMatchObject({ decision: "new", ttlSeconds: 120 });
    await ageRecords(store.db, group, 100);
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).decision).toBe("duplicate");
    await ageRecords(store.db, group, 30);
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).lateRedelivery).toBeDefined();
  });

  it("defaults to 24 h when the variable is unset and refuses a bad value", async () => {
    const group = uniqueGroup("unknown");
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).ttlSeconds).toBe(86_400);
    process.env.WEIR_DEFAULT_TTL_SECONDS = "0";
    await expect(claim(store.db, { consumerGroup: group, messageId: "m-2" })).rejects.toThrow(/WEIR_DEFAULT_TTL_SECONDS/);
  });

  it("commits or rolls back with the caller's transaction (library mode)", async () => {
    const group = await groupWithTtl(3600);
    await expect(
      store.db.transaction(async (tx) => {
        expect((await claim(tx, { consumerGroup: group, messageId: "m-1" })).decision).toBe("new");
        throw new Error("business write failed");
      }),
    ).rejects.toThrow("business write failed");
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-1" })).decision).toBe("new");
    await store.db.transaction(async (tx) => {
      expect((await claim(tx, { consumerGroup: group, messageId: "m-2" })).decision).toBe("new");
    });
    expect((await claim(store.db, { consumerGroup: group, messageId: "m-2" })).decision).toBe("duplicate");
  });

  it("gives exactly one new among 50 concurrent identical claims", async () => {
    await withWideDb(store.url, 50, async (db) => {
      for (let round = 0; round < 5; round++) {
        const group = await groupWithTtl(3600);
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () => claim(db, { consumerGroup: group, messageId: "race" })),
        );
        expect(outcomes.filter((o) => o.decision === "new")).toHaveLength(1);
      }
    });
  });

  it("gives exactly one new among 50 concurrent late redeliveries of an expired record", async () => {
    const group = await groupWithTtl(60);
    await claim(store.db, { consumerGroup: group, messageId: "race" });
    await ageRecords(store.db, group, 120);
    const outcomes = await withWideDb(store.url, 50, (db) =>
      Promise.all(Array.from({ length: 50 }, () => claim(db, { consumerGroup: group, messageId: "race" }))),
    );
    const fresh = outcomes.filter((o) => o.decision === "new");
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.lateRedelivery?.lateBySeconds).toBeGreaterThanOrEqual(60);
  });
});

describe("claimMany", () => {
  it("keeps the order of repeated keys and decides each item", async () => {
    const group = await groupWithTtl(3600);
    const other = await groupWithTtl(3600);
    await claim(store.db, { consumerGroup: group, messageId: "seen" });
    const items = [
      { consumerGroup: group, messageId: "a" },
      { consumerGroup: group, messageId: "seen" },
      { consumerGroup: group, messageId: "a" },
      { consumerGroup: other, messageId: "a" },
      { consumerGroup: group, messageId: "b" },
      { consumerGroup: group, messageId: "a" },
      { consumerGroup: other, messageId: "a" },
    ];
    const outcomes = await claimMany(store.db, items);
    expect(outcomes.map((o) => [o.consumerGroup, o.messageId, o.decision])).toEqual([
      [group, "a", "new"],
      [group, "seen", "duplicate"],
      [group, "a", "duplicate"],
      [other, "a", "new"],
      [group, "b", "new"],
      [group, "a", "duplicate"],
      [other, "a", "duplicate"],
    ]);
  });

  it("decides overlapping concurrent batches with exactly one new per key", async () => {
    const group = await groupWithTtl(3600);
    const keys = Array.from({ length: 200 }, (_, i) => ({ consumerGroup: group, messageId: `k-${i}` }));
    const batches = await withWideDb(store.url, 10, (db) =>
      Promise.all(Array.from({ length: 10 }, (_, b) => claimMany(db, b % 2 === 0 ? keys : [...keys].reverse()))),
    );
    const fresh = new Map<string, number>();
    for (const outcome of batches.flat()) {
      if (outcome.decision === "new") fresh.set(outcome.messageId, (fresh.get(outcome.messageId) ?? 0) + 1);
    }
    expect(fresh.size).toBe(200);
    expect([...fresh.values()].every((n) => n === 1)).toBe(true);
    // Every duplicate, those that lost a race to the winner included, answers the winner's window.
    const started = new Map(batches.flat().filter((o) => o.decision === "new").map((o) => [o.messageId, o.windowStartedAt]));
    const wrong = batches.flat().filter((o) => o.decision === "duplicate" && o.windowStartedAt !== started.get(o.messageId));
    expect(wrong).toEqual([]);
  });

  it("returns nothing for no items", async () => {
    expect(await claimMany(store.db, [])).toEqual([]);
  });
});
