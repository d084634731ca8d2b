import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { JournalBuffer } from "@/lib/journal/buffer";
import { nowMicros } from "@/lib/journal/clock";
import { toEntry } from "@/lib/journal/entry";
import { journal } from "@/lib/journal/index";
import { JournalWriter } from "@/lib/journal/writer";
import { stats } from "@/lib/stats/recorder";
import { onDecision } from "@/lib/telemetry/decisions";
import { bucketQuerySchema } from "@/lib/validation/console-journal";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { bucketHref } from "./bucket-link";
import { loadBucketDecisions } from "./journal-bucket";

let store: TestDatabase;
let unsubscribe: (() => void) | undefined;

beforeAll(async () => {
  store = await createTestDatabase();
});

afterEach(() => unsubscribe?.());

/** The minute around now as a chart bucket link would give it, parsed the way the page parses it. */
function bucketOf(kind: "service" | "group", subject: string, show?: "all") {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const url = new URL(bucketHref({ kind, id: subject }, minute - 60_000, 180), "http://weir.test");
  expect(url.pathname).toBe("/decisions");
  return bucketQuerySchema.parse({ ...Object.fromEntries(url.searchParams), show });
}

describe("a chart bucket's decisions", () => {
  it("lists a duplicate spike's keys with counts, first and last time and callers, beside the chart's counts", async () => {
    const serviceId = await createService(store.db);
    // A producer retry storm: O-1 resent five times, O-2 twice, by two producers; O-3 sent once.
    for (let i = 0; i < 6; i++) await check(store.db, { serviceId, messageId: "O-1", payload: { n: 1 }, origin: { caller: "orders-producer" } });
    for (let i = 0; i < 3; i++) await check(store.db, { serviceId, messageId: "O-2", payload: { n: 2 }, origin: { caller: i === 2 ? "replayer" : "orders-producer" } });
    await check(store.db, { serviceId, messageId: "O-3", payload: { n: 3 }, origin: { caller: "orders-producer" } });
    await journal.flush(store.db);
    await stats.flush(store.db);

    const bucket = await loadBucketDecisions(store.db, bucketOf("service", serviceId));
    expect(bucket.stats).toMatchObject({ checks: 10, new: 3, duplicates: 7 });
    expect(bucket.counts).toEqual([
      { mode: "last_seen", decision: "duplicate", count: 7 },
      { mode: "last_seen", decision: "new", count: 3 },
    ]);
    expect(bucket.keys.map((k) => [k.key, k.count])).toEqual([
      ["O-1", 5],
      ["O-2", 2],
    ]);
    const o2 = bucket.keys[1]!;
    expect(o2.callers.map((c) => c.id).sort()).toEqual(["orders-producer", "replayer"]);
    expect(o2.href).toBe(`/services/${serviceId}/key?id=O-2`);
    expect(Date.parse(o2.lastAt)).toBeGreaterThanOrEqual(Date.parse(o2.firstAt));
    expect(bucket.callers[0]).toMatchObject({ caller: { id: "orders-producer", name: null }, duplicates: 6, count: 9 });
    expect(bucket.gaps).toEqual([]);

    const every = await loadBucketDecisions(store.db, bucketOf("service", serviceId, "all"));
    expect(every.keys.map((k) => [k.key, k.count])).toEqual([
      ["O-1", 6],
      ["O-2", 3],
      ["O-3", 1],
    ]);
  });

  it("opens a consumer group's bucket on its duplicated claims, each linked to the group's claim lookup", async () => {
    const group = uniqueId("payouts");
    for (let i = 0; i < 3; i++) await claim(store.db, { consumerGroup: group, messageId: "P-1", origin: { caller: "payout-worker" } });
    await journal.flush(store.db);
    const bucket = await loadBucketDecisions(store.db, bucketOf("group", group));
    expect(bucket.keys).toMatchObject([{ key: "P-1", count: 2, href: `/groups/${group}?claim=P-1`, callers: [{ id: "payout-worker" }] }]);
  });

  it("answers every decision while a tiny buffer drops entries, and names the gap's subject, minute and count", async () => {
    const tiny = new JournalWriter(new JournalBuffer(3), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    unsubscribe = onDecision("journal-view-test", (event) => {
      const entry = toEntry(event, nowMicros());
      if (entry) tiny.buffer.push(entry);
    });
    const serviceId = await createService(store.db);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await check(store.db, { serviceId, messageId: `G-${i}`, payload: 1 })).decision);
    unsubscribe();
    expect(answers).toEqual(["new", "new", "new", "new", "new"]);
    expect(tiny.buffer.droppedTotal).toBe(2);
    await tiny.flush(store.db);

    const bucket = await loadBucketDecisions(store.db, bucketOf("service", serviceId, "all"));
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString().slice(0, 16).replace("T", " ");
    const dropMinute = bucket.gaps[0]?.minute.slice(0, 16).replace("T", " ");
    expect(bucket.gaps.map((g) => g.text)).toEqual([`Service ${serviceId}, ${dropMinute} UTC: 2 entries lost`]);
    // The drops happened this minute (or the one before, if the minute turned while the test ran).
    expect([minute, new Date(Date.parse(`${minute}Z`) - 60_000).toISOString().slice(0, 16).replace("T", " ")]).toContain(dropMinute);
    expect(bucket.keys.map((k) => k.key)).toEqual(expect.arrayContaining(["G-0", "G-1", "G-2"]));
  });
});
