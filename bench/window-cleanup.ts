/**
 * Scenario 6b: weir's cleanup (lib/dedup/window/cleanup: runCleanup, bounded
 * batches per group) removing 10 M expired window records (--quick: 200 k)
 * while claims run over HTTP on a live group. Baseline in the same run: one
 * unbounded DELETE of a tenth as many expired records under the same load.
 * Run: npx tsx bench/window-cleanup.ts [--quick]. Never fails on timing.
 */
import { runCleanup } from "@/lib/dedup/window/cleanup";
import { hasFlag, numberFlag, quick, runMain, sleep } from "./lib/cli";
import { createBenchDatabase, withIndexesDropped } from "./lib/db";
import { describeLoad, drive, post, type LoadResult } from "./lib/load";
import { serveWeir } from "./lib/processes";
import { machineLine, ratio, report } from "./lib/report";
import { mintToken } from "./lib/token";
import { seededRandom } from "@/lib/seeded-random";

const EXPIRED = numberFlag("records", quick ? 200_000 : 10_000_000);
const GROUPS = 10;
const LIVE_KEYS = quick ? 50_000 : 200_000;
const RATE = numberFlag("rate", quick ? 500 : 1_000);
const BASELINE_SECONDS = quick ? 3 : 10;
const LIVE = "live-group";
const BASELINE_GROUP = "baseline-expired";

async function main(): Promise<void> {
  console.log(`window-cleanup: ${machineLine()}; ${EXPIRED.toLocaleString("en-US")} expired records in ${GROUPS} groups, claims at ${RATE}/s`);
  const db = await createBenchDatabase("cleanup");
  const t0 = performance.now();
  const perGroup = Math.floor(EXPIRED / GROUPS);
  const baselineRecords = Math.floor(EXPIRED / 10);
  await db.pool.query(`insert into consumer_groups (id, ttl_seconds) select 'expired-' || i, 60 from generate_series(0, $1::int - 1) i`, [GROUPS]);
  await db.pool.query("insert into consumer_groups (id, ttl_seconds) values ($1, 86400), ($2, 60)", [LIVE, BASELINE_GROUP]);
  await withIndexesDropped(db.pool, "window_records", async () => {
    for (let g = 0; g < GROUPS; g++) {
      await db.pool.query(
        `insert into window_records (consumer_group, message_id, claimed_at)
         select $1, 'm-' || k, now() - interval '2 days' - make_interval(secs => k % 86400) from generate_series(0, $2::int - 1) k`,
        [`expired-${g}`, perGroup],
      );
    }
    await db.pool.query(
      `insert into window_records (consumer_group, message_id, claimed_at) select $1, 'm-' || k, now() - interval '2 days' from generate_series(0, $2::int - 1) k`,
      [BASELINE_GROUP, baselineRecords],
    );
    await db.pool.query(`insert into window_records (consumer_group, message_id, claimed_at) select $1, 'm-' || k, now() from generate_series(0, $2::int - 1) k`, [LIVE, LIVE_KEYS]);
  });
  console.log(`  seeded ${(perGroup * GROUPS + baselineRecords + LIVE_KEYS).toLocaleString("en-US")} records in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const token = await mintToken(db.store.db, { consumerGroups: [LIVE] });
  const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only") });
  try {
    const probe = await post<{ decision?: string }>(`${weir.url}/api/v1/claim`, { consumerGroup: LIVE, messageId: "m-1" }, token);
    if (probe.body.decision !== "duplicate") throw new Error(`expected a duplicate claim, got ${probe.status} ${JSON.stringify(probe.body)}`);
    // Half duplicates (records inside their window), half first claims of new ids.
    const random = seededRandom(3);
    let fresh = 0;
    const body = () => `{"consumerGroup":"${LIVE}","messageId":"${random() < 0.5 ? `m-${Math.floor(random() * LIVE_KEYS)}` : `new-${fresh++}`}"}`;
    const load = (seconds: number, stopWhen?: Promise<unknown>) => drive({ url: weir.url, path: "/api/v1/claim", token, body, connections: 16, rate: RATE, seconds, stopWhen });
    await load(2);
    const quiet = await load(BASELINE_SECONDS);
    console.log(`  claims alone: ${describeLoad(quiet)}`);

    let deleteMs = 0;
    let deleted = 0;
    const deleting = (async () => {
      await sleep(500);
      const t = performance.now();
      const result = await db.pool.query("delete from window_records where consumer_group = $1 and claimed_at < now() - interval '120 seconds'", [BASELINE_GROUP]);
      deleteMs = performance.now() - t;
      deleted = result.rowCount ?? 0;
    })();
    const underDelete = await load(3600, deleting);
    console.log(`  one DELETE of ${deleted} records: ${(deleteMs / 1000).toFixed(1)} s; claims meanwhile: ${describeLoad(underDelete)}`);

    let cleanupMs = 0;
    let removed = 0;
    let batches = 0;
    const cleaning = (async () => {
      await sleep(500);
      const t = performance.now();
      const result = await runCleanup(db.store.db);
      cleanupMs = performance.now() - t;
      removed = result.windowRecordsRemoved;
      batches = result.batches;
    })();
    const underCleanup = await load(3600, cleaning.catch(() => undefined));
    await cleaning;
    console.log(`  weir cleanup of ${removed} records: ${(cleanupMs / 1000).toFixed(1)} s in ${batches} batches; claims meanwhile: ${describeLoad(underCleanup)}`);
    const { rows } = await db.pool.query<{ left: string }>("select count(*)::text as left from window_records where consumer_group like 'expired-%'");

    const rate = (removed / cleanupMs) * 1000;
    const fail = (r: LoadResult) => r.non2xx + r.errors;
    report(
      "6b. cleanup of expired window records under claim load",
      [
        { metric: `weir cleanup of ${removed.toLocaleString("en-US")} records`, unit: "rows/s", ours: rate, baseline: (deleted / deleteMs) * 1000, baselineName: "1 DELETE", ratio: ratio(rate, (deleted / deleteMs) * 1000), target: ">= 50,000", met: rate >= 50_000 },
        { metric: "claim p99 during cleanup", unit: "ms", ours: underCleanup.p99, baseline: quiet.p99, baselineName: "no cleanup", ratio: ratio(underCleanup.p99, quiet.p99), target: "< 50 ms", met: underCleanup.p99 < 50 },
        { metric: "claim p99 during one DELETE", unit: "ms", ours: underDelete.p99, target: "info" },
        { metric: "expired records left / failed claims", ours: `${rows[0]!.left} / ${fail(underCleanup)}`, target: "0 / 0", met: rows[0]!.left === "0" && fail(underCleanup) === 0 },
      ],
      [`${RATE} claims/s open-loop at 16 connections on a live group (half duplicates, half first claims); the cleanup's DELETE baseline removes ${deleted.toLocaleString("en-US")} records in one statement`],
    );
  } finally {
    await weir.stop();
    await db.drop();
  }
}

runMain(main);
