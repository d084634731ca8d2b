import { beforeAll, describe, expect, it } from "vitest";
import { claim, claimMany } from "@/lib/dedup/window/claim";
import { releaseClaim } from "@/lib/dedup/window/release";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { ageRecords, uniqueGroup } from "@/lib/dedup/window/test-helpers";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";
import { isRouterPlan, planOf, recordingDb } from "./recording-db";

const actor = { id: "test", role: "admin" as const };
let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

describe("window release and sliding windows on Citus", () => {
  it("claims of a sliding group and releases are router plans (one task, one shard)", async () => {
    const group = uniqueGroup("route");
    await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 3600, slide: true, reason: "test", actor });
    const { db, sent: all } = recordingDb(store.pool!);
    const first = await claim(db, { consumerGroup: group, messageId: "c-1" });
    // 12 keys over 2 workers: each worker's call (weir_window_claim_on_node_v1) has several, c-1's slides its window.
    const batch = await claimMany(db, Array.from({ length: 12 }, (_, i) => ({ consumerGroup: group, messageId: `c-${i + 1}` })));
    expect(batch[0]).toMatchObject({ decision: "duplicate", windowStartedAt: first.windowStartedAt });
    const { rows } = await store.pool!.query("select claimed_at > $2::timestamptz as slid from window_records where consumer_group = $1 and message_id = 'c-1'", [group, first.windowStartedAt]);
    expect(rows).toEqual([{ slid: true }]);
    await releaseClaim(db, { consumerGroup: group, messageId: "c-1" });
    // A fenced release whose claim was superseded: refused (409) after reading the key, still on one shard.
    await expect(releaseClaim(db, { consumerGroup: group, messageId: "c-2", claimedAt: "2020-01-01T00:00:00.000Z" })).rejects.toMatchObject({ status: 409 });
    // The batch's lookup of its keys' workers (weir_node_of_v1) reads the coordinator's metadata and touches no shard.
    const sent = all.filter((statement) => statement.name !== "" && !statement.text.includes("pg_extension") && statement.name !== "weir_node_of_v1");
    expect(new Set(sent.map((s) => s.name))).toEqual(new Set(["weir_window_claim_one_v4", "weir_window_claim_on_node_v1", "weir_window_release_v1"]));
    const notRouted: string[] = [];
    for (const statement of sent) if (!isRouterPlan(await planOf(store.pool!, statement))) notRouted.push(statement.name);
    expect(notRouted).toEqual([]);
  });

  it("release then redelivery is new; a sliding group keeps a 50-minute redelivery a duplicate", async () => {
    const fixed = uniqueGroup("fixed");
    const sliding = uniqueGroup("slide");
    await setGroupTtl(store.db, { consumerGroup: fixed, ttlSeconds: 3600, reason: "test", actor });
    await setGroupTtl(store.db, { consumerGroup: sliding, ttlSeconds: 3600, slide: true, reason: "test", actor });
    const first = await claim(store.db, { consumerGroup: fixed, messageId: "m" });
    const dup = await claim(store.db, { consumerGroup: fixed, messageId: "m" });
    expect(dup).toMatchObject({ decision: "duplicate", windowStartedAt: first.windowStartedAt, windowEndsAt: first.windowEndsAt });
    expect(await releaseClaim(store.db, { consumerGroup: fixed, messageId: "m" })).toMatchObject({ released: true });
    expect((await claim(store.db, { consumerGroup: fixed, messageId: "m" })).decision).toBe("new");

    await claim(store.db, { consumerGroup: sliding, messageId: "m" });
    const decisions: string[] = [];
    for (let i = 0; i < 3; i++) {
      await ageRecords(store.db, sliding, 50 * 60);
      decisions.push((await claim(store.db, { consumerGroup: sliding, messageId: "m" })).decision);
    }
    expect(decisions).toEqual(["duplicate", "duplicate", "duplicate"]);
  });
});
