import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { runRaw } from "@/db/raw";
import { checkMany, hashForService } from "@/lib/dedup/last-seen/check";
import { serviceConfigs } from "@/lib/dedup/last-seen/service-config";
import { decideOnShardsStatement, type DecideRow } from "@/lib/dedup/last-seen/statement";
import { splitIntoRounds } from "@/lib/dedup/last-seen/decide";
import { claimMany } from "@/lib/dedup/window/claim";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";
import { isRouterPlan, planOf, recordingDb } from "./recording-db";
import { remoteCommandsPool, twoPhaseCommits, twoPhaseRecords } from "./remote-commands";

let store: TestDatabase;
let logged: ReturnType<typeof remoteCommandsPool>;

beforeAll(async () => {
  store = await createTestDatabase();
  logged = remoteCommandsPool(store.url);
});
afterAll(() => logged.pool.end());

const DECIDE_CALLS = new Set(["weir_last_seen_decide_on_shards_v1", "weir_last_seen_decide_one_plain_v6"]);
const CLAIM_CALLS = new Set(["weir_window_claim_on_node_v1", "weir_window_claim_one_v4"]);

/** How many shards, and how many workers holding them, `keys` land on in `table`. */
async function spread(keys: readonly string[], table = "last_seen"): Promise<{ shards: number; workers: number }> {
  const { rows } = await store.pool!.query<{ shards: number; workers: number }>(
    `select count(distinct s.shard)::int as shards, count(distinct p.groupid)::int as workers
    from (select get_shard_id_for_distribution_column($2, k) as shard from unnest($1::text[]) as k) s
    join pg_dist_placement p on p.shardid = s.shard`,
    [keys, table],
  );
  return rows[0]!;
}

/**
 * Runs `operation` on a pool that logs what the coordinator sends the workers; answers its result, the
 * calls weir sent whose name is in `calls`, the commands sent to workers that call `functions`, and the
 * two-phase commits (prepares and new records on any node).
 */
async function runLogged<T>(calls: ReadonlySet<string>, functions: RegExp, operation: (db: DbOrTx) => Promise<T>) {
  const { db, sent } = recordingDb(logged.pool);
  logged.commands.length = 0;
  const before = await twoPhaseRecords(store.pool!);
  const outcomes = await operation(db);
  return {
    outcomes,
    calls: sent.filter((statement) => calls.has(statement.name)),
    workerCalls: logged.commands.filter((command) => functions.test(command)),
    prepared: twoPhaseCommits(logged.commands),
    records: (await twoPhaseRecords(store.pool!)) - before,
  };
}

/** W routed calls from weir, W delegated calls to the workers, no PREPARE TRANSACTION and no 2PC record on any node. */
async function expectOneCallPerWorker(run: Awaited<ReturnType<typeof runLogged>>, workers: number): Promise<void> {
  expect(run.calls).toHaveLength(workers);
  expect(run.workerCalls).toHaveLength(workers);
  expect(run.prepared).toEqual([]);
  expect(run.records).toBe(0);
  for (const call of run.calls) expect(isRouterPlan(await planOf(store.pool!, call))).toBe(true);
}

const checkLogged = (items: Parameters<typeof checkMany>[1]) => runLogged(DECIDE_CALLS, /weir_last_seen_decide_(on_shards_v1|v5)\(/, (db) => checkMany(db, items));
const claimLogged = (items: Parameters<typeof claimMany>[1]) => runLogged(CLAIM_CALLS, /weir_window_claim_(on_node_v1|v3)\(/, (db) => claimMany(db, items));

describe("a batch of checks on Citus leaves in one call per worker", () => {
  it("N distinct keys over K shards on W workers: W calls from weir, W delegated calls, no two-phase commit", async () => {
    const serviceId = await createService(store.db);
    const keys = Array.from({ length: 40 }, (_, i) => `sb-${i}`);
    const { shards, workers } = await spread(keys);
    expect(workers).toBe(2);
    expect(shards).toBeGreaterThan(workers);

    const first = await checkLogged(keys.map((messageId, i) => ({ serviceId, messageId, payload: { v: 1 }, ref: `r-${i}` })));
    expect(first.outcomes.map((o) => o.decision)).toEqual(keys.map(() => "new"));
    await expectOneCallPerWorker(first, workers);

    // Duplicates and changes mixed, with the refs and versions the one-key function answers.
    const again = await checkLogged(keys.map((messageId, i) => ({ serviceId, messageId, payload: { v: i % 2 } })));
    expect(again.outcomes.map((o) => [o.decision, o.version, o.firstRef])).toEqual(
      keys.map((_, i) => (i % 2 === 1 ? ["duplicate", 1, `r-${i}`] : ["changed", 2, undefined])),
    );
    expect(again.calls).toHaveLength(workers);
    expect(again.prepared).toEqual([]);
  });

  it("items sharing a key keep their order: one round of distinct keys after another, each round one call per worker", async () => {
    const serviceId = await createService(store.db);
    const items = [
      { messageId: "o-a", v: "A" },
      { messageId: "o-b", v: "1" },
      { messageId: "o-a", v: "A" },
      { messageId: "o-a", v: "B" },
      { messageId: "o-c", v: "1" },
      { messageId: "o-a", v: "A" },
      { messageId: "o-b", v: "1" },
      { messageId: "o-d", v: "1" },
    ].map(({ messageId, v }) => ({ serviceId, messageId, payload: { v } }));
    const { outcomes, calls, prepared } = await checkLogged(items);
    expect(outcomes.map((o) => `${o.messageId}:${o.decision}:${o.version}`)).toEqual([
      "o-a:new:1",
      "o-b:new:1",
      "o-a:duplicate:1",
      "o-a:changed:2",
      "o-c:new:1",
      "o-a:changed:3",
      "o-b:duplicate:1",
      "o-d:new:1",
    ]);
    let expected = 0;
    for (const round of splitIntoRounds(items)) expected += (await spread(round.map((i) => items[i]!.messageId))).workers;
    expect(calls).toHaveLength(expected);
    expect(prepared).toEqual([]);
  });

  it("concurrent batches of the same keys in other orders: no deadlock, each key new once, the others duplicates of it", async () => {
    const serviceId = await createService(store.db);
    // Many keys per shard, half the batches in reverse: taken in the order given, their row locks
    // crossed ("distributed deadlock" at 400 keys, not at 120).
    const keys = Array.from({ length: 400 }, (_, i) => `cc-${i}`);
    const orders = Array.from({ length: 8 }, (_, n) => (n % 2 === 0 ? keys : [...keys].reverse()));
    const batches = await Promise.all(orders.map((order) => checkMany(store.db, order.map((messageId) => ({ serviceId, messageId, payload: { same: true } })))));
    for (const key of keys) {
      const answers = batches.flat().filter((o) => o.messageId === key);
      expect(answers.map((o) => o.decision).sort()).toEqual([...Array.from({ length: 7 }, () => "duplicate"), "new"]);
      expect(new Set(answers.map((o) => `${o.version}@${o.acceptedAt.toISOString()}`)).size).toBe(1);
    }
  });

  it("a call whose items' shards are not all on its worker (a shard moved after the lookup) still decides each item", async () => {
    const serviceId = await createService(store.db);
    const keys = Array.from({ length: 12 }, (_, i) => `mv-${i}`);
    expect((await spread(keys)).workers).toBe(2);
    const config = await serviceConfigs.require(store.db, serviceId);
    const call = (payload: string) => runRaw<DecideRow>(store.db, decideOnShardsStatement(keys.map((key) => hashForService(config, key, payload))));
    const byOrd = (rows: DecideRow[]) => rows.sort((a, b) => a.ord - b.ord).map((row) => `${row.ord}:${row.decision}:${row.version}`);
    // The worker reaches the other's shards itself, through the one-key function: the cost of the rare move, not of every batch.
    expect(byOrd(await call('{"v":1}'))).toEqual(keys.map((_, i) => `${i + 1}:new:1`));
    expect(byOrd(await call('{"v":1}'))).toEqual(keys.map((_, i) => `${i + 1}:duplicate:1`));
    expect(byOrd(await call('{"v":2}'))).toEqual(keys.map((_, i) => `${i + 1}:changed:2`));
  });

  it("inside a caller's transaction a batch decides the same (the call is not delegated there)", async () => {
    const serviceId = await createService(store.db);
    const db = drizzle({ client: store.pool!, schema });
    const outcomes = await db.transaction((tx) =>
      checkMany(tx, ["t-1", "t-2", "t-3", "t-1"].map((messageId, i) => ({ serviceId, messageId, payload: { i: i === 3 ? 0 : i } }))),
    );
    expect(outcomes.map((o) => o.decision)).toEqual(["new", "new", "new", "duplicate"]);
  });
});

describe("a batch of claims on Citus leaves in one call per worker", () => {
  it("N distinct keys over W workers: W calls, W delegated calls, no two-phase commit; duplicates answer the first ref and window", async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `cl-${i}`);
    const { workers } = await spread(keys, "window_records");
    const first = await claimLogged(keys.map((messageId, i) => ({ consumerGroup: "g-sb", messageId, ref: `r-${i}` })));
    expect(first.outcomes.map((o) => o.decision)).toEqual(keys.map(() => "new"));
    await expectOneCallPerWorker(first, workers);

    const again = await claimLogged(keys.map((messageId) => ({ consumerGroup: "g-sb", messageId })));
    expect(again.outcomes.map((o) => [o.messageId, o.decision, o.firstRef, o.windowStartedAt])).toEqual(
      first.outcomes.map((o, i) => [o.messageId, "duplicate", `r-${i}`, o.windowStartedAt]),
    );
    expect(again.calls).toHaveLength(workers);
  });

  it("items sharing a key keep their order within the batch", async () => {
    const items = ["x", "y", "x", "z", "x", "y"].map((messageId) => ({ consumerGroup: "g-sb-order", messageId }));
    const { outcomes, calls } = await claimLogged(items);
    expect(outcomes.map((o) => `${o.messageId}:${o.decision}`)).toEqual(["x:new", "y:new", "x:duplicate", "z:new", "x:duplicate", "y:duplicate"]);
    let expected = 0;
    for (const round of splitIntoRounds(items.map((i) => ({ serviceId: i.consumerGroup, messageId: i.messageId })))) {
      expected += (await spread(round.map((i) => items[i]!.messageId), "window_records")).workers;
    }
    expect(calls).toHaveLength(expected);
  });
});
