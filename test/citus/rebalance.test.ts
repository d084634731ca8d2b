import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { percentile, sleep } from "../faults/fixtures";
import { checkHistory } from "../faults/history/check-history";
import { HistoryRecorder, type Operation } from "../faults/history/history";
import { lastSeenModel, windowModel } from "../faults/history/models";
import { runWorkload } from "../faults/history/workload";
import { prepareHistoryDatabase, startHistoryNodes } from "../faults/history/setup";
import type { WeirNode } from "../faults/weir-node";
import { CitusCluster } from "./citus-cluster";

/**
 * Shards that move while weir serves: a coordinator and two workers answer a steady history
 * of checks, claims and reads; a third worker joins, gets the reference tables
 * (docs/citus.md, step 3) and rebalance_table_shards() moves shards to it with its default
 * transfer mode (logical replication, writes go on).
 * The history must stay linearizable and no request may fail twice in a row.
 */
const DATABASE = "weir_rebalance";
const SERVICE = "rebalance-svc";
const INITIAL_TTL = 3600;
const GROUPS = [
  { id: "rebalance-a", messageIds: ["a1", "a2", "a3"], ttlChoices: [1, 3600] },
  { id: "rebalance-b", messageIds: ["b1", "b2"], ttlChoices: [1, 2, 3600] },
];
const MESSAGE_IDS = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"];
const KEYS = { serviceId: SERVICE, messageIds: MESSAGE_IDS, variants: 3, groups: GROUPS };
// Keys already stored, so each move copies data and then streams the changes made meanwhile.
const PRELOADED_KEYS = 40_000;
// The history runs this long before the worker joins and after the rebalance finished.
const SETTLE_MS = 3000;
// A rebalance that never ends (the failure this test exists for) fails the test instead of hanging it.
const REBALANCE_TIMEOUT_MS = 90_000;

let cluster: CitusCluster;
let nodes: WeirNode[] = [];
let token: string;

async function onCoordinator<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
  return cluster.coordinator.query<Row>(sql, params, DATABASE);
}

/** Shard placements of weir's distributed tables per worker port. */
async function placements(): Promise<Map<number, number>> {
  const rows = await onCoordinator<{ port: number; shards: string }>(
    "select nodeport as port, count(*) as shards from citus_shards where citus_table_type = 'distributed' group by nodeport",
  );
  return new Map(rows.map((row) => [row.port, Number(row.shards)]));
}

beforeAll(async () => {
  const started = Date.now();
  cluster = await CitusCluster.create(2);
  const url = await cluster.createDatabase(DATABASE);
  token = await prepareHistoryDatabase(url, { serviceId: SERVICE, groups: GROUPS, initialTtl: INITIAL_TTL });
  await onCoordinator(
    `insert into last_seen (service_id, message_id, hash, version)
     select 'preloaded', 'key-' || g, sha256(g::text::bytea), 1 from generate_series(1, $1::int) g`,
    [PRELOADED_KEYS],
  );
  nodes = await startHistoryNodes(url, ["node-1", "node-2"]);
  console.log(`[rebalance] cluster, ${PRELOADED_KEYS} keys and ${nodes.length} weir nodes ready in ${Date.now() - started} ms`);
});

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await cluster?.destroy();
});

interface Rebalance {
  /** When the started node began to join (create database, extension, citus_add_node) and how long that took. */
  joinedAtMs: number;
  joinedMs: number;
  /** Copying the reference tables to it, and how many tries that took (a deadlock ends a try). */
  referenceCopyMs: number;
  referenceCopyTries: number;
  movedAtMs: number;
  tookMs: number;
  /** Moves planned when the rebalance began, and left when it ended (0: finished). */
  planned: number;
  left: number;
  /** Tries of rebalance_table_shards() that ended in a deadlock, each started again at once. */
  failedTries: string[];
}

/**
 * Copies every reference table to the new worker, as the guide says, before the rebalance. One
 * copy locks all of them in shard id order; a console write holding a later one (reset_batches)
 * while it waits for an earlier one (audit_log) deadlocks with it: try again at once.
 */
async function copyReferenceTables(): Promise<number> {
  for (let tries = 1; ; tries++) {
    try {
      await onCoordinator("select replicate_reference_tables()");
      return tries;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || tries === 5) throw err;
      console.log(`[rebalance] replicate_reference_tables, try ${tries}: ${(err as Error).message}`);
    }
  }
}

/** Shard moves the rebalancer still plans: none once the new worker holds its share. */
const movesLeft = async () => Number((await onCoordinator<{ n: string }>("select count(*) as n from get_rebalance_table_shards_plan()"))[0]!.n);

/**
 * Adds a worker and moves shards to it with Citus's defaults (logical replication, writes go on).
 * A move whose final lock meets a console write's multi-shard transaction can end in "deadlock
 * detected"; the background job (citus_rebalance_start) then waits 5 s, 20 s, then a minute before
 * its retry, so the test runs the same rebalance in the foreground and starts it again at once.
 */
async function addWorkerAndRebalance(origin: number): Promise<Rebalance> {
  const node = await cluster.startNode();
  const joining = Date.now();
  await cluster.addWorker(node, [DATABASE]);
  const joinedMs = Date.now() - joining;
  const copying = Date.now();
  const referenceCopyTries = await copyReferenceTables();
  const referenceCopyMs = Date.now() - copying;
  const started = Date.now();
  const planned = await movesLeft();
  const failedTries: string[] = [];
  const client = new pg.Client({ connectionString: cluster.coordinator.url(DATABASE), statement_timeout: REBALANCE_TIMEOUT_MS });
  await client.connect();
  try {
    while (Date.now() - started < REBALANCE_TIMEOUT_MS) {
      try {
        await client.query("select rebalance_table_shards()");
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== "40P01") throw err;
        failedTries.push(`${Date.now() - origin} ms: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.end();
  }
  const tookMs = Date.now() - started;
  const left = await movesLeft();
  return { joinedAtMs: joining - origin, joinedMs, referenceCopyMs, referenceCopyTries, movedAtMs: started - origin, tookMs, planned, left, failedTries };
}

const answered = (ops: readonly Operation[], origin: number, from: number, to: number) =>
  ops.filter((op) => op.invoke - origin >= from && op.invoke - origin < to && op.status === "ok");

/** Answers per second of the operations invoked in [from, to) ms of the run. */
const rate = (ops: readonly Operation[], origin: number, from: number, to: number) =>
  (answered(ops, origin, from, to).length * 1000) / Math.max(1, to - from);

/** Answers per second and p99 latency of the operations invoked in [from, to) ms of the run. */
function phase(ops: readonly Operation[], origin: number, from: number, to: number): string {
  const latencies = answered(ops, origin, from, to).map((op) => op.complete - op.invoke);
  return `${Math.round(rate(ops, origin, from, to))}/s, p99 ${percentile(latencies, 99)} ms`;
}

const modelFor = (key: string) => (key.startsWith("ls:") ? lastSeenModel : windowModel(INITIAL_TTL));

describe("a worker added and shards rebalanced while weir serves", () => {
  it("moves shards to the new worker with the history linearizable and no request failing twice in a row", async () => {
    const before = await placements();
    const recorder = new HistoryRecorder();
    const stop = new AbortController();
    const origin = Date.now();
    const rebalance = (async () => {
      try {
        await sleep(SETTLE_MS);
        const result = await addWorkerAndRebalance(origin);
        await sleep(SETTLE_MS);
        return result;
      } finally {
        stop.abort();
      }
    })();
    const [stats, moved] = await Promise.all([
      runWorkload({
        ...KEYS,
        nodes,
        token,
        clients: 12,
        // The console's writes stay out: a reset's multi-shard transaction and a move's final write
        // pause cancel each other as distributed deadlocks, again and again (docs/citus.md, step 5).
        decisionsOnly: true,
        durationMs: REBALANCE_TIMEOUT_MS + 4 * SETTLE_MS,
        recorder,
        stop: stop.signal,
      }),
      rebalance,
    ]);
    const ranMs = Date.now() - origin;
    const after = await placements();
    const { kept } = (await onCoordinator<{ kept: number }>("select count(*)::int as kept from last_seen where service_id = 'preloaded'"))[0]!;
    const newWorker = cluster.workers[2]!.port;
    const report = checkHistory(recorder.ops, modelFor);
    const during = recorder.ops.filter((op) => op.invoke >= origin + moved.movedAtMs && op.invoke <= origin + moved.movedAtMs + moved.tookMs);
    const unanswered = recorder.ops.filter((op) => op.status === "unknown");
    console.log(
      [
        `[rebalance] worker joined in ${moved.joinedMs} ms (from ${moved.joinedAtMs} ms); reference tables copied in ${moved.referenceCopyMs} ms (${moved.referenceCopyTries} tries); rebalance of ${moved.planned} moves in ${moved.tookMs} ms (from ${moved.movedAtMs} ms into a ${ranMs} ms run), ${moved.left} left, ${moved.failedTries.length + 1} tries:`,
        ...moved.failedTries.map((failure) => `[rebalance]   deadlock at ${failure}`),
        `[rebalance] answers, steady / while a node starts / while it joins and gets the reference tables / while shards move / after: ${[
          [0, SETTLE_MS],
          [SETTLE_MS, moved.joinedAtMs],
          [moved.joinedAtMs, moved.movedAtMs],
          [moved.movedAtMs, moved.movedAtMs + moved.tookMs],
          [moved.movedAtMs + moved.tookMs, ranMs],
        ]
          .map(([from, to]) => phase(recorder.ops, origin, from!, to!))
          .join(" / ")}; while moving ${(
          rate(recorder.ops, origin, moved.movedAtMs, moved.movedAtMs + moved.tookMs) / rate(recorder.ops, origin, moved.movedAtMs + moved.tookMs, ranMs)
        ).toFixed(2)}x of after`,
        `[rebalance] distributed shard placements before ${JSON.stringify([...before])}, after ${JSON.stringify([...after])}; ${after.get(newWorker) ?? 0} on the new worker`,
        `[rebalance] ${report.operations.total} operations (${during.length} invoked during the moves): ok ${report.operations.ok}, refused ${report.operations.fail}, unknown ${report.operations.unknown}; HTTP ${JSON.stringify(stats.byStatus)}; longest run of failures for one client ${stats.longestFailureRun}`,
        ...unanswered.slice(0, 10).map((op) => `[rebalance]   unanswered at ${op.invoke - origin} ms: ${op.kind} ${op.keys[0]} (${op.note})`),
        `[rebalance] anomalies: ${report.failures.length + stats.anomalies.length}`,
      ].join("\n"),
    );
    for (const failure of report.failures) console.error(failure);
    // A failed try (a deadlock with weir's writes): what each node logged about it.
    if (moved.failedTries.length > 0) {
      for (const node of cluster.nodes) {
        const lines = node.serverLog().split("\n").filter((line) => /deadlock|waits for|blocked by|STATEMENT/.test(line));
        if (lines.length > 0) console.log(`[rebalance] node ${node.port} log:\n${lines.slice(0, 20).join("\n")}`);
      }
    }

    expect(moved.planned).toBeGreaterThan(0);
    expect(moved.left).toBe(0);
    expect(before.get(newWorker)).toBeUndefined();
    expect(after.get(newWorker)).toBeGreaterThan(0);
    expect(kept).toBe(PRELOADED_KEYS);
    expect(stats.anomalies).toEqual([]);
    expect(report.failures).toEqual([]);
    expect(report.keys.every((k) => k.result.decided)).toBe(true);
    expect(stats.longestFailureRun).toBeLessThanOrEqual(1);
    expect(nodes.map((node) => node.exit)).toEqual(nodes.map(() => undefined));
    expect(nodes.flatMap((node) => node.internalErrors())).toEqual([]);
    // Evidence only if weir kept deciding while the shards moved.
    expect(during.filter((op) => op.status === "ok").length).toBeGreaterThan(50);
  }, 150_000);
});
