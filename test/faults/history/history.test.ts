import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { percentile } from "../fixtures";
import { PrivatePostgres } from "../private-postgres";
import type { WeirNode } from "../weir-node";
import { checkHistory } from "./check-history";
import { HistoryRecorder, type CheckOutput } from "./history";
import { lastSeenModel, windowModel } from "./models";
import { runNemesis } from "./nemesis";
import { prepareHistoryDatabase, startHistoryNodes } from "./setup";
import { lastSeenKey, runWorkload } from "./workload";

const DURATION_MS = Number(process.env.WEIR_FAULTS_HISTORY_MS ?? 30_000);
// A bounded run (the Citus suite) decides fewer operations; it still has to decide some and meet faults.
const MIN_OK = Number(process.env.WEIR_FAULTS_HISTORY_MIN_OK ?? 2000);
const DATABASE = "weir_history";
const SERVICE = "history-svc";
const INITIAL_TTL = 3600;
const GROUPS = [
  { id: "history-a", messageIds: ["a1", "a2", "a3"], ttlChoices: [1, 3600] },
  { id: "history-b", messageIds: ["b1", "b2"], ttlChoices: [1, 2, 3600] },
];
const MESSAGE_IDS = ["m1", "m2", "m3", "m4", "m5"];

let cluster: PrivatePostgres;
let nodes: WeirNode[] = [];
let token: string;

beforeAll(async () => {
  cluster = await PrivatePostgres.create();
  const url = await cluster.createDatabase(DATABASE);
  token = await prepareHistoryDatabase(url, { serviceId: SERVICE, groups: GROUPS, initialTtl: INITIAL_TTL });
  nodes = await startHistoryNodes(url, ["node-1", "node-2", "node-3"], { WEIR_PG_CONNECT_TIMEOUT_MS: "1000", WEIR_PG_STATEMENT_TIMEOUT_MS: "3000" });
});

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await cluster?.destroy();
});

const modelFor = (key: string) => (key.startsWith("ls:") ? lastSeenModel : windowModel(INITIAL_TTL));

describe("a concurrent history of checks, claims, resets and TTL changes under faults", () => {
  it("is linearizable per key against each mode's sequential model", async () => {
    const recorder = new HistoryRecorder();
    const started = Date.now();
    const [stats, nemesis] = await Promise.all([
      runWorkload({
        nodes,
        token,
        serviceId: SERVICE,
        messageIds: MESSAGE_IDS,
        variants: 3,
        groups: GROUPS,
        clients: 24,
        durationMs: DURATION_MS,
        recorder,
      }),
      runNemesis(cluster, DATABASE, DURATION_MS),
    ]);
    const ranMs = Date.now() - started;
    if (process.env.WEIR_FAULTS_DUMP) writeFileSync(process.env.WEIR_FAULTS_DUMP, JSON.stringify(recorder.ops, (_, v) => (v === Infinity ? "Infinity" : v)));
    const checkStarted = Date.now();
    const report = checkHistory(recorder.ops, modelFor);
    const checkMs = Date.now() - checkStarted;
    const byKind = recorder.ops.reduce<Record<string, number>>((acc, op) => ({ ...acc, [op.kind]: (acc[op.kind] ?? 0) + 1 }), {});
    const latency = Object.keys(byKind).map((kind) => {
      const ms = recorder.ops.filter((op) => op.kind === kind && op.status === "ok").map((op) => op.complete - op.invoke);
      return `${kind} p50 ${percentile(ms, 50)} / p99 ${percentile(ms, 99)} ms`;
    });
    console.log(
      [
        `[history] ${report.operations.total} operations in ${ranMs} ms over ${nodes.length} nodes: ${JSON.stringify(byKind)}`,
        `[history] latency: ${latency.join(", ")}`,
        `[history] outcomes: ok ${report.operations.ok}, refused ${report.operations.fail}, unknown ${report.operations.unknown}; HTTP ${JSON.stringify(stats.byStatus)}`,
        `[history] faults: ${nemesis.backendsKilled} backends killed, ${nemesis.restartsFast} fast restart, ${nemesis.restartsImmediate} immediate restart, ${nemesis.freezes} freeze (${nemesis.log.join(", ")})`,
        `[history] checked ${report.keys.length} keys in ${checkMs} ms (${report.keys.reduce((n, k) => n + k.result.explored, 0)} search steps, at most ${Math.max(...report.keys.map((k) => k.result.explored))} for one key: ${report.keys.map((k) => `${k.key} ${k.result.ops}/${k.result.explored}`).join(" ")}); anomalies: ${report.failures.length + stats.anomalies.length}`,
      ].join("\n"),
    );
    for (const failure of report.failures) console.error(failure);

    expect(stats.anomalies).toEqual([]);
    expect(report.failures).toEqual([]);
    expect(report.keys.every((k) => k.result.decided)).toBe(true);
    expect(nodes.map((node) => node.exit)).toEqual(nodes.map(() => undefined));
    expect(nodes.flatMap((node) => node.internalErrors())).toEqual([]);
    // The run is only evidence if it decided things and met faults.
    expect(report.operations.ok).toBeGreaterThan(MIN_OK);
    expect(report.operations.unknown).toBeGreaterThan(0);
    expect(nemesis.backendsKilled).toBeGreaterThanOrEqual(Math.min(6, Math.floor(DURATION_MS / 2500)));

    // The same history with one answer corrupted must be refused, naming the key.
    const victim = recorder.ops.find((op) => op.kind === "check" && op.status === "ok" && (op.output as CheckOutput).decision === "duplicate")!;
    const corrupted = recorder.ops.map((op) => (op === victim ? { ...op, output: { decision: "changed", version: (op.output as CheckOutput).version + 1000 } } : op));
    const refused = checkHistory(corrupted as typeof recorder.ops, modelFor);
    console.log(`[history] self-test, one answer corrupted (#${victim.id}):\n${refused.failures[0]?.split("\n").slice(0, 12).join("\n")}`);
    expect(refused.ok).toBe(false);
    expect(refused.failures).toHaveLength(1);
    expect(refused.failures[0]).toContain(`${victim.keys[0]} (last-seen): not linearizable`);
    expect(victim.keys[0]!.startsWith(lastSeenKey(""))).toBe(true);
  });
});
