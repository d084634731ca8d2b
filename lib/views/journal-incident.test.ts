import { beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { journal } from "@/lib/journal/index";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadIncident } from "./journal-incident";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const lastMinutes = () => ({ from: new Date(Date.now() - 10 * 60_000), to: new Date(Date.now() + 60_000) });

describe("the incident view", () => {
  it("ranks keys by the repeats turned away, in every mode, and leaves out keys answered once", async () => {
    const serviceId = await createService(store.db);
    const group = uniqueId("payouts");
    // O-1 resent three times, O-2 once; O-3 and O-4 sent once each, O-4 changed once (not a duplicate).
    for (let i = 0; i < 4; i++) await check(store.db, { serviceId, messageId: "O-1", payload: 1, origin: { caller: "orders-producer" } });
    for (let i = 0; i < 2; i++) await check(store.db, { serviceId, messageId: "O-2", payload: 1, origin: { caller: i === 1 ? "replayer" : "orders-producer" } });
    await check(store.db, { serviceId, messageId: "O-3", payload: 1 });
    await check(store.db, { serviceId, messageId: "O-4", payload: 1 });
    await check(store.db, { serviceId, messageId: "O-4", payload: 2 });
    for (let i = 0; i < 3; i++) await claim(store.db, { consumerGroup: group, messageId: "P-1", origin: { caller: "payout-worker" } });
    await journal.flush(store.db);

    const every = await loadIncident(store.db, lastMinutes());
    const ours = every.keys.filter((k) => k.subject === serviceId || k.subject === group);
    expect(ours.map((k) => [k.subject, k.key, k.count])).toEqual([
      [serviceId, "O-1", 3],
      [group, "P-1", 2],
      [serviceId, "O-2", 1],
    ]);
    const o2 = ours[2]!;
    expect(o2.callers.map((c) => c.id)).toEqual(["replayer"]);
    expect(o2.firstAt).toBe(o2.lastAt);

    const one = await loadIncident(store.db, { ...lastMinutes(), kind: "service", subject: serviceId });
    expect(one.keys.map((k) => [k.key, k.count])).toEqual([
      ["O-1", 3],
      ["O-2", 1],
    ]);
    // The counts by decision still hold every answer.
    expect(Object.fromEntries(one.counts.map((c) => [c.decision, c.count]))).toEqual({ new: 4, duplicate: 4, changed: 1 });
  });

  it("has no keys for a range without duplicates", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "Q-1", payload: 1 });
    await journal.flush(store.db);
    const one = await loadIncident(store.db, { ...lastMinutes(), kind: "service", subject: serviceId });
    expect(one.keys).toEqual([]);
    expect(one.counts).toEqual([{ mode: "last_seen", decision: "new", count: 1 }]);
  });
});
