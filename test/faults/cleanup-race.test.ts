import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claim } from "@/lib/dedup/window/claim";
import { runCleanup, type CleanupResult } from "@/lib/dedup/window/cleanup";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { adminDb, openStore, percentile, sleep } from "./fixtures";
import { checkHistory } from "./history/check-history";
import { HistoryRecorder, type ClaimOutput } from "./history/history";
import { windowModel } from "./history/models";
import { windowKey } from "./history/workload";
import { PrivatePostgres } from "./private-postgres";

/**
 * Cleanup passes with tiny batches race claims on short windows for a while,
 * with backends killed under both. Every claim and every pass is recorded; the
 * window model (a pass may remove a record only once it is older than its TTL
 * plus grace period) must explain every answer: a live record removed shows as
 * a "new" inside the window, a record removed inside its grace period as a
 * redelivery that is not reported late. Batches stay within their size.
 */
const DURATION_MS = Number(process.env.WEIR_FAULTS_CLEANUP_MS ?? 15_000);
const BATCH_SIZE = 3;
const GROUPS = [
  { id: "race-a", ttlSeconds: 1, graceSeconds: 0 },
  { id: "race-b", ttlSeconds: 1, graceSeconds: 1 },
  { id: "race-c", ttlSeconds: 2, graceSeconds: null },
];
// Enough keys that records age across their window and grace period between two claims.
const MESSAGE_IDS = Array.from({ length: 30 }, (_, i) => `m${i}`);
const DATABASE = "weir_cleanup_race";

let cluster: PrivatePostgres;
let url: string;

beforeAll(async () => {
  cluster = await PrivatePostgres.create();
  url = await cluster.createDatabase(DATABASE);
  const admin = adminDb(url);
  try {
    for (const g of GROUPS) {
      await setGroupTtl(admin.db, { consumerGroup: g.id, ttlSeconds: g.ttlSeconds, graceSeconds: g.graceSeconds, reason: "race", actor: { id: "t", role: "admin" } });
    }
  } finally {
    await admin.close();
  }
});

afterAll(async () => {
  await cluster?.destroy();
});

describe("cleanup racing claims", () => {
  it("never removes a record inside its window or grace period, in bounded batches", async () => {
    const claims = openStore(url, { poolMax: 8, connectTimeoutMs: 1000, statementTimeoutMs: 3000 });
    const cleaner = openStore(url, { poolMax: 2, connectTimeoutMs: 1000, statementTimeoutMs: 3000 });
    const recorder = new HistoryRecorder();
    const allKeys = GROUPS.flatMap((g) => MESSAGE_IDS.map((m) => windowKey(g.id, m)));
    const passes: CleanupResult[] = [];
    const claimMs: number[] = [];
    let kills = 0;
    const deadline = Date.now() + DURATION_MS;
    try {
      async function claimOnce(worker: number, group: string, messageId: string): Promise<void> {
        const op = recorder.invoke({ client: worker, node: "lib", keys: [windowKey(group, messageId)], kind: "claim" });
        try {
          const outcome = await claim(claims.db, { consumerGroup: group, messageId });
          const output: ClaimOutput = {
            decision: outcome.decision,
            ttlSeconds: outcome.ttlSeconds,
            ...(outcome.lateRedelivery ? { lateBySeconds: outcome.lateRedelivery.lateBySeconds } : {}),
          };
          recorder.ok(op, output);
          claimMs.push(op.complete - op.invoke);
        } catch (err) {
          recorder.unknown(op, (err as Error).message);
        }
      }
      const claimers = Array.from({ length: 10 }, async (_, worker) => {
        while (Date.now() < deadline) {
          const group = GROUPS[Math.floor(Math.random() * GROUPS.length)]!;
          await claimOnce(worker, group.id, MESSAGE_IDS[Math.floor(Math.random() * MESSAGE_IDS.length)]!);
          await sleep(Math.random() * 300);
        }
      });
      const cleaners = Array.from({ length: 2 }, async (_, worker) => {
        while (Date.now() < deadline) {
          const op = recorder.invoke({ client: 100 + worker, node: "lib", keys: allKeys, kind: "cleanup" });
          try {
            passes.push(await runCleanup(cleaner.db, { batchSize: BATCH_SIZE }));
            recorder.ok(op, undefined);
          } catch (err) {
            recorder.unknown(op, (err as Error).message);
          }
          await sleep(Math.random() * 50);
        }
      });
      // Every ~second a session locks a record (inserting it if absent, rolled back later) and a claim
      // of it is sent: if it must write, it queues behind the lock and is killed there, mid-statement.
      const killer = (async () => {
        const locker = new pg.Client({ connectionString: url, application_name: "faults-locker" });
        locker.on("error", () => undefined);
        await locker.connect();
        try {
          while (Date.now() < deadline) {
            await sleep(300 + Math.random() * 400);
            const group = GROUPS[Math.floor(Math.random() * GROUPS.length)]!.id;
            const messageId = MESSAGE_IDS[Math.floor(Math.random() * MESSAGE_IDS.length)]!;
            await locker.query("begin");
            await locker.query(
              `insert into window_records (consumer_group, message_id, claimed_at) values ($1, $2, now() - interval '1 hour')
               on conflict (consumer_group, message_id) do update set claimed_at = window_records.claimed_at`,
              [group, messageId],
            );
            const victim = claimOnce(99, group, messageId);
            await sleep(150);
            const killed = await cluster.terminateBackends(DATABASE, "application_name = 'weir' and wait_event_type = 'Lock'").catch(() => 0);
            kills += killed;
            await locker.query("rollback");
            await victim;
          }
        } finally {
          await locker.end();
        }
      })();
      await Promise.all([...claimers, ...cleaners, killer]);
    } finally {
      await claims.close();
      await cleaner.close();
    }

    const grace = new Map(GROUPS.map((g) => [g.id, g]));
    const report = checkHistory(recorder.ops, (key) => {
      const g = grace.get(key.slice(4, key.indexOf("/")))!;
      return windowModel(g.ttlSeconds, g.graceSeconds);
    });
    const removed = passes.reduce((n, p) => n + p.windowRecordsRemoved, 0);
    const statements = passes.reduce((n, p) => n + p.batches, 0);
    const claimOps = recorder.ops.filter((op) => op.kind === "claim" && op.status === "ok");
    const late = claimOps.filter((op) => (op.output as ClaimOutput).lateBySeconds !== undefined).length;
    console.log(
      `[cleanup-race] ${claimOps.length} claims (${late} late redeliveries, p99 ${percentile(claimMs, 99)} ms) against ${passes.length} cleanup passes ` +
        `(${statements} statements of at most ${BATCH_SIZE} rows, ${removed} records removed), ${kills} backends killed, ` +
        `${report.operations.unknown} unknown outcomes; ${report.failures.length} anomalies`,
    );
    for (const failure of report.failures) console.error(failure);

    expect(report.failures).toEqual([]);
    expect(report.keys.every((k) => k.result.decided)).toBe(true);
    expect(passes.every((p) => p.windowRecordsRemoved + p.idempotencyKeysRemoved <= p.batches * BATCH_SIZE)).toBe(true);
    expect(removed).toBeGreaterThan(20);
    expect(late).toBeGreaterThan(20);
    expect(claimOps.length).toBeGreaterThan(300);

    // What is left after a last pass: nothing past its window and grace period.
    const admin = adminDb(url);
    try {
      await runCleanup(admin.db, { batchSize: BATCH_SIZE });
      const { rows } = await admin.db.execute<{ n: number }>(sql`
        select count(*)::int as n from window_records r join consumer_groups g on g.id = r.consumer_group
        where r.claimed_at < now() - make_interval(secs => g.ttl_seconds + coalesce(g.grace_seconds, g.ttl_seconds) + 1)`);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await admin.close();
    }
  });
});
