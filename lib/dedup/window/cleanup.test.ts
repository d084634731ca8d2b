import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { begin } from "@/lib/dedup/idempotency/begin";
import { claim, claimMany } from "./claim";
import { cleanupLag, runCleanup, startCleanupSchedule } from "./cleanup";
import { setGroupTtl } from "./set-group-ttl";
import { countRecords, seedRecords, uniqueGroup, withWideDb } from "./test-helpers";

const actor = { id: "test", role: "admin" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

async function groupWith(ttlSeconds: number, graceSeconds: number | null = null): Promise<string> {
  const group = uniqueGroup();
  await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds, graceSeconds, reason: "test", actor });
  return group;
}

async function messageIds(group: string): Promise<string[]> {
  const result = await store.db.execute<{ message_id: string }>(
    sql`select message_id from window_records where consumer_group = ${group} order by message_id`,
  );
  return result.rows.map((r: { message_id: string }) => r.message_id);
}

describe("runCleanup", () => {
  it("keeps live records and expired ones inside the grace period (one TTL by default)", async () => {
    const group = await groupWith(60);
    await seedRecords(store.db, group, 3, 30, "live");
    await seedRecords(store.db, group, 4, 100, "grace");
    await seedRecords(store.db, group, 5, 130, "gone");
    await runCleanup(store.db);
    expect(await messageIds(group)).toEqual(["grace-1", "grace-2", "grace-3", "grace-4", "live-1", "live-2", "live-3"]);
    // A late redelivery inside the grace period is still detected.
    const late = await claim(store.db, { consumerGroup: group, messageId: "grace-1" });
    expect(late.lateRedelivery?.lateBySeconds).toBeGreaterThanOrEqual(40);
  });

  it("applies a group's own grace period, and the default TTL to groups without settings", async () => {
    const noGrace = await groupWith(60, 0);
    await seedRecords(store.db, noGrace, 2, 30, "live");
    await seedRecords(store.db, noGrace, 2, 61, "gone");
    const unknown = uniqueGroup("unknown");
    await seedRecords(store.db, unknown, 2, 86_400 + 3600, "grace");
    await seedRecords(store.db, unknown, 2, 2 * 86_400 + 60, "gone");
    await runCleanup(store.db);
    expect(await messageIds(noGrace)).toEqual(["live-1", "live-2"]);
    expect(await messageIds(unknown)).toEqual(["grace-1", "grace-2"]);
  });

  it("deletes in bounded batches, can stop early, and is safe to re-run", async () => {
    const { db } = await createTestDatabase();
    const group = uniqueGroup();
    await setGroupTtl(db, { consumerGroup: group, ttlSeconds: 60, graceSeconds: 0, reason: "test", actor });
    await seedRecords(db, group, 1050, 120);
    await seedRecords(db, group, 7, 10, "live");
    const partial = await runCleanup(db, { batchSize: 100, maxBatches: 3 });
    expect(partial).toMatchObject({ windowRecordsRemoved: 300, batches: 3, complete: false });
    expect(await countRecords(db, group)).toBe(757);
    const rest = await runCleanup(db, { batchSize: 100 });
    // 7 full batches, one of 50, one empty batch of idempotency keys.
    expect(rest).toMatchObject({ windowRecordsRemoved: 750, batches: 9, complete: true });
    const again = await runCleanup(db, { batchSize: 100 });
    expect(again).toMatchObject({ windowRecordsRemoved: 0, batches: 1 });
    expect(await countRecords(db, group)).toBe(7);
  });

  it("never deletes a record inside its window while claims race it", async () => {
    const group = await groupWith(60, 0);
    const keys = Array.from({ length: 3000 }, (_, i) => `m-${i + 1}`);
    await seedRecords(store.db, group, keys.length, 61);
    const claimed = new Set<string>();
    let removedDuringRace = 0;
    let lateRedeliveries = 0;
    await withWideDb(store.url, 12, async (db) => {
      let cleaning = true;
      const cleaners = Array.from({ length: 3 }, async () => {
        while (cleaning) {
          const { windowRecordsRemoved } = await runCleanup(db, { batchSize: 25 });
          removedDuringRace += windowRecordsRemoved;
        }
      });
      // Claimers re-claim random expired keys (late redeliveries) and fresh ones while cleanup deletes.
      const claimers = Array.from({ length: 8 }, async (_, worker) => {
        for (let round = 0; round < 25; round++) {
          const batch = Array.from({ length: 20 }, (_, i) =>
            i % 5 === 0 ? `fresh-${worker}-${round}-${i}` : keys[Math.floor(Math.random() * keys.length)]!,
          );
          const outcomes = await claimMany(db, batch.map((messageId) => ({ consumerGroup: group, messageId })));
          for (const outcome of outcomes) {
            claimed.add(outcome.messageId);
            if (outcome.lateRedelivery) lateRedeliveries++;
          }
        }
      });
      await Promise.all(claimers);
      cleaning = false;
      await Promise.all(cleaners);
    });
    expect(removedDuringRace).toBeGreaterThan(0);
    expect(lateRedeliveries).toBeGreaterThan(0);
    await runCleanup(store.db);
    const present = new Set(await messageIds(group));
    const missing = [...claimed].filter((id) => !present.has(id));
    expect(missing).toEqual([]);
    // Everything else was expired and is gone.
    expect(present.size).toBe(claimed.size);
  });

  it("removes expired idempotency keys and keeps live ones", async () => {
    const scope = uniqueGroup("scope");
    const hash = "a".repeat(64);
    for (const key of ["k-1", "k-2", "k-3"]) await begin(store.db, { scope, key, requestHash: hash });
    await store.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second', locked_until = now() - interval '2 seconds'
          where scope = ${scope} and key <> 'k-3'`,
    );
    const result = await runCleanup(store.db);
    expect(result.idempotencyKeysRemoved).toBe(2);
    const left = await store.db.execute<{ key: string }>(sql`select key from idempotency_keys where scope = ${scope}`);
    expect(left.rows).toEqual([{ key: "k-3" }]);
  });
});

describe("cleanupLag", () => {
  it("reports how long the oldest removable record has waited, and 0 once cleaned", async () => {
    const db = (await createTestDatabase()).db;
    expect(await cleanupLag(db)).toEqual({ seconds: 0, windowSeconds: 0, idempotencySeconds: 0 });
    const group = uniqueGroup();
    await setGroupTtl(db, { consumerGroup: group, ttlSeconds: 60, graceSeconds: 60, reason: "test", actor });
    await seedRecords(db, group, 3, 60 + 60 + 300);
    await seedRecords(db, group, 3, 10, "live");
    const lag = await cleanupLag(db);
    expect(lag.windowSeconds).toBeGreaterThanOrEqual(300);
    expect(lag.windowSeconds).toBeLessThan(305);
    expect(lag.seconds).toBe(lag.windowSeconds);
    await runCleanup(db);
    expect((await cleanupLag(db)).windowSeconds).toBe(0);
  });
});

describe("startCleanupSchedule", () => {
  it("runs passes on a timer without overlap and stops cleanly", async () => {
    const group = await groupWith(60, 0);
    await seedRecords(store.db, group, 20, 120);
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    const schedule = startCleanupSchedule(
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return store.db;
      },
      5,
      { onPass: () => void (active--, passes++) },
    );
    await expect.poll(() => passes, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    await schedule.stop();
    const after = passes;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passes).toBe(after);
    expect(maxActive).toBe(1);
    expect(await countRecords(store.db, group)).toBe(0);
  });
});
