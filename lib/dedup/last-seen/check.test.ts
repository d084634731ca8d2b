import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lastSeen, payloadVersions } from "@/db/schema";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check, checkMany } from "./check";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const A = { amount: "10.00", status: "paid", lines: [1, 2] };
const B = { amount: "10.00", status: "refunded", lines: [1, 2] };

async function decisions(serviceId: string, messageId: string, payloads: unknown[]) {
  const out = [];
  for (const payload of payloads) out.push((await check(store.db, { serviceId, messageId, payload })).decision);
  return out;
}

describe("last-seen check", () => {
  it("A B A B A has no duplicates", async () => {
    const serviceId = await createService(store.db);
    expect(await decisions(serviceId, "m-1", [A, B, A, B, A])).toEqual(["new", "changed", "changed", "changed", "changed"]);
  });

  it("A A A A B: only the first A and B are not duplicates", async () => {
    const serviceId = await createService(store.db);
    expect(await decisions(serviceId, "m-1", [A, A, A, A, B])).toEqual(["new", "duplicate", "duplicate", "duplicate", "changed"]);
  });

  it("counts versions and keeps them per key", async () => {
    const serviceId = await createService(store.db);
    const first = await check(store.db, { serviceId, messageId: "k", payload: A });
    const again = await check(store.db, { serviceId, messageId: "k", payload: { lines: [1, 2], status: "paid", amount: "10.00" } });
    const changed = await check(store.db, { serviceId, messageId: "k", payload: B });
    const other = await check(store.db, { serviceId, messageId: "other", payload: B });
    expect([first.version, again.version, changed.version, other.version]).toEqual([1, 1, 2, 1]);
    expect(again.decision).toBe("duplicate");
    expect(again.hash).toBe(first.hash);
    expect(changed.hash).not.toBe(first.hash);
  });

  it("a duplicate writes nothing to the state row", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "k", payload: A });
    const read = () =>
      store.db.execute<{ xmin: string; last_changed: Date }>(
        sql`select xmin::text as xmin, last_changed from last_seen where service_id = ${serviceId} and message_id = 'k'`,
      );
    const before = (await read()).rows[0];
    await check(store.db, { serviceId, messageId: "k", payload: A });
    const after = (await read()).rows[0];
    expect(after).toEqual(before);
  });

  it("ignores the service's ignored paths", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/meta/sentAt"] });
    const first = await check(store.db, { serviceId, messageId: "k", payload: { v: 1, meta: { sentAt: "t1", source: "a" } } });
    const later = await check(store.db, { serviceId, messageId: "k", payload: { v: 1, meta: { sentAt: "t2", source: "a" } } });
    const moved = await check(store.db, { serviceId, messageId: "k", payload: { v: 1, meta: { sentAt: "t3", source: "b" } } });
    expect([first.decision, later.decision, moved.decision]).toEqual(["new", "duplicate", "changed"]);
  });

  it("keeps at most history-depth payload versions per key", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    for (const n of [1, 2, 3, 4]) await check(store.db, { serviceId, messageId: "k", payload: { n } });
    await check(store.db, { serviceId, messageId: "k", payload: { n: 4 } });
    const kept = await store.db
      .select({ version: payloadVersions.version, payload: payloadVersions.payload })
      .from(payloadVersions)
      .where(and(eq(payloadVersions.serviceId, serviceId), eq(payloadVersions.messageId, "k")))
      .orderBy(payloadVersions.version);
    expect(kept).toEqual([
      { version: 3, payload: '{"n":3}' },
      { version: 4, payload: '{"n":4}' },
    ]);
  });

  it("keeps no payloads when history depth is 0", async () => {
    const serviceId = await createService(store.db, { historyDepth: 0 });
    await check(store.db, { serviceId, messageId: "k", payload: A });
    const kept = await store.db.select().from(payloadVersions).where(eq(payloadVersions.serviceId, serviceId));
    expect(kept).toHaveLength(0);
  });

  it("decides repeated keys of a batch in their order", async () => {
    const serviceId = await createService(store.db);
    const items = [A, A, B, A, B, B].map((payload, i) => ({ serviceId, messageId: i % 2 === 0 ? "x" : "y", payload }));
    // x: A, B, B ; y: A, A, B
    const results = await checkMany(store.db, items);
    expect(results.map((r) => `${r.messageId}:${r.decision}:${r.version}`)).toEqual([
      "x:new:1",
      "y:new:1",
      "x:changed:2",
      "y:duplicate:1",
      "x:duplicate:2",
      "y:changed:2",
    ]);
  });

  it("runs inside the caller's transaction and rolls back with it (library mode)", async () => {
    const serviceId = await createService(store.db);
    await expect(
      store.db.transaction(async (tx) => {
        const outcome = await check(tx, { serviceId, messageId: "k", payload: A });
        expect(outcome.decision).toBe("new");
        throw new Error("business write failed");
      }),
    ).rejects.toThrow("business write failed");
    const rows = await store.db.select().from(lastSeen).where(eq(lastSeen.serviceId, serviceId));
    expect(rows).toHaveLength(0);
    expect((await check(store.db, { serviceId, messageId: "k", payload: A })).decision).toBe("new");
  });

  it("refuses an unregistered service", async () => {
    await expect(check(store.db, { serviceId: "nope-unknown", messageId: "k", payload: A })).rejects.toMatchObject({ status: 404 });
  });
});
