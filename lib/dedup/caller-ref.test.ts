import { beforeAll, describe, expect, it } from "vitest";
import { toEntry } from "@/lib/journal/entry";
import { onDecision, type DecisionEvent } from "@/lib/telemetry/decisions";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { begin } from "./idempotency/begin";
import { check } from "./last-seen/check";
import { claim } from "./window/claim";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const HASH = "a".repeat(64);

describe("the caller's ref in library mode", () => {
  it("round-trips in all three modes inside the caller's transaction", async () => {
    const serviceId = await createService(store.db);
    await store.db.transaction(async (tx) => {
      await check(tx, { serviceId, messageId: "o-1", payload: { a: 1 }, ref: "job-1" });
      expect(await check(tx, { serviceId, messageId: "o-1", payload: { a: 1 }, ref: "job-2" })).toMatchObject({ decision: "duplicate", firstRef: "job-1" });
    });
    const consumerGroup = uniqueId("grp");
    await claim(store.db, { consumerGroup, messageId: "m-1", ref: "req-1" });
    expect(await claim(store.db, { consumerGroup, messageId: "m-1" })).toMatchObject({ decision: "duplicate", firstRef: "req-1" });
    const scope = uniqueId("scope");
    await begin(store.db, { scope, key: "k", requestHash: HASH, ref: "note" });
    expect(await begin(store.db, { scope, key: "k", requestHash: HASH })).toMatchObject({ outcome: "in_progress", firstRef: "note" });
  });

  it("refuses a ref over 256 bytes with the field", async () => {
    const serviceId = await createService(store.db);
    const long = "x".repeat(257);
    // Library checks validate their keys with the API's schema (a ZodError naming the path, as for messageId).
    await expect(check(store.db, { serviceId, messageId: "m", payload: 1, ref: long })).rejects.toMatchObject({ issues: [{ path: ["ref"] }] });
    await expect(begin(store.db, { scope: "s", key: "k", requestHash: HASH, ref: long })).rejects.toMatchObject({ field: "ref" });
  });

  it("travels in the decision event to the journal entry: the request's own ref, not the stored one", async () => {
    const serviceId = await createService(store.db);
    const events: DecisionEvent[] = [];
    const stop = onDecision("caller-ref-test", (event) => event.subject === serviceId && events.push(event));
    try {
      await check(store.db, { serviceId, messageId: "o-1", payload: 1, ref: "first" });
      await check(store.db, { serviceId, messageId: "o-1", payload: 1, ref: "second" });
    } finally {
      stop();
    }
    expect(events.map((event) => toEntry(event, 0)?.ref)).toEqual(["first", "second"]);
  });
});
