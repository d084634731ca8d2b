/**
 * Scenario 4: WAL written per duplicate, through the HTTP API. A duplicate-only
 * run of checks, then of claims, between two pg_current_wal_lsn() readings;
 * pg_walinspect attributes the records to this database, so neighbours on the
 * same cluster do not count. Baselines in the same run: pgbench running the bare
 * upsert-CAS check and the bare claim upsert on the same duplicates. The decision journal is
 * off here (WEIR_JOURNAL=off): this measures what a duplicate's decision writes, which is nothing;
 * what the journal writes per answer is bench/journal.ts's to measure.
 * Run: npx tsx bench/wal-per-duplicate.ts [--quick]. Never fails on timing.
 */
import type pg from "pg";
import { hasFlag, numberFlag, quick, runMain, sleep } from "./lib/cli";
import { assertDecisions, SERVICE } from "./lib/check-setup";
import { createBenchDatabase } from "./lib/db";
import { drive, post } from "./lib/load";
import { pgbench, upsertCasSql } from "./lib/pgbench";
import { serveWeir } from "./lib/processes";
import { machineLine, report } from "./lib/report";
import { mintToken } from "./lib/token";
import { currentLsn, enableWalInspect, walBetween, type WalUse } from "./lib/wal";
import { seededRandom } from "@/lib/seeded-random";
import { CheckMix, createPayloadFunctions, registerService, seedLastSeen } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 20_000 : 200_000);
const SECONDS = numberFlag("seconds", quick ? 3 : 10);
const GROUP = "bench-group";
const BASELINE_TRANSACTIONS = quick ? 2_000 : 10_000;

/** Measures WAL around `run`, after a checkpoint so full-page images do not land in one contender only. */
async function walAround(pool: pg.Pool, run: () => Promise<number>): Promise<WalUse & { operations: number }> {
  await pool.query("checkpoint");
  const from = await currentLsn(pool);
  const operations = await run();
  // Let weir's batched observability writes (stats every 2 s) land inside the window.
  await sleep(2500);
  const to = await currentLsn(pool);
  return { ...(await walBetween(pool, from, to)), operations };
}

const CLAIM_CAS = `\\set k random(0, ${KEYS - 1})
insert into window_records as r (consumer_group, message_id, claimed_at)
values ('${GROUP}', 'm-' || :k::bigint, statement_timestamp())
on conflict (consumer_group, message_id) do update
  set claimed_at = excluded.claimed_at, previous_claimed_at = r.claimed_at
  where r.claimed_at <= excluded.claimed_at - interval '1 day'
returning claimed_at;
`;

async function main(): Promise<void> {
  console.log(`wal-per-duplicate: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys`);
  const db = await createBenchDatabase("wal");
  try {
    await enableWalInspect(db.pool);
    await createPayloadFunctions(db.pool);
    await registerService(db.pool, SERVICE, 0);
    await seedLastSeen(db.pool, SERVICE, KEYS);
    await db.pool.query("insert into consumer_groups (id, ttl_seconds) values ($1, 86400)", [GROUP]);
    await db.pool.query(`insert into window_records (consumer_group, message_id, claimed_at) select $1, 'm-' || k, now() from generate_series(0, $2::int - 1) k`, [GROUP, KEYS]);
    // Freeze and set hint bits now, so that reading a row later writes nothing for any contender.
    await db.pool.query("vacuum (freeze, analyze) last_seen");
    await db.pool.query("vacuum (freeze, analyze) window_records");
    const token = await mintToken(db.store.db, { services: [SERVICE], consumerGroups: [GROUP] });
    const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only"), env: { WEIR_JOURNAL: "off" } });
    try {
      await assertDecisions(weir.url, token, KEYS);
      const claimed = await post<{ decision?: string }>(`${weir.url}/api/v1/claim`, { consumerGroup: GROUP, messageId: "m-1" }, token);
      if (claimed.body.decision !== "duplicate") throw new Error(`expected a duplicate claim, got ${JSON.stringify(claimed.body)}`);
      const duplicates = new CheckMix(KEYS, 17, 1);
      const random = seededRandom(5);
      const checkLoad = (seconds: number) =>
        drive({ url: weir.url, path: "/api/v1/check", token, body: () => duplicates.checkBody(SERVICE), connections: 32, seconds });
      const claimLoad = (seconds: number) =>
        drive({
          url: weir.url,
          path: "/api/v1/claim",
          token,
          body: () => `{"consumerGroup":"${GROUP}","messageId":"m-${Math.floor(random() * KEYS)}"}`,
          connections: 32,
          seconds,
        });
      await checkLoad(1);
      await claimLoad(1);
      await sleep(2500);

      const ourChecks = await walAround(db.pool, async () => {
        const r = await checkLoad(SECONDS);
        if (r.non2xx > 0) throw new Error(`duplicate checks failed: ${JSON.stringify(r.statuses)}`);
        return r.requests;
      });
      const ourClaims = await walAround(db.pool, async () => (await claimLoad(SECONDS)).requests);
      const half = Math.floor(KEYS / 2);
      const bareChecks = await walAround(db.pool, async () => {
        const r = await pgbench({
          database: db.name,
          clients: 8,
          transactions: BASELINE_TRANSACTIONS / 8,
          scripts: [{ name: "dup", sql: `\\set k random(0, ${half - 1})\n${upsertCasSql(SERVICE, ":k::bigint", "bench_hash(:k::bigint, 0)")}` }],
        });
        return r.transactions;
      });
      const bareClaims = await walAround(db.pool, async () => (await pgbench({ database: db.name, clients: 8, transactions: BASELINE_TRANSACTIONS / 8, scripts: [{ name: "claim", sql: CLAIM_CAS }] })).transactions);

      type Measured = WalUse & { operations: number };
      const per = (w: Measured, withFpi: boolean) => (w.databaseBytes - (withFpi ? 0 : w.fpiBytes)) / Math.max(1, w.operations);
      const row = (metric: string, ours: Measured, bare: Measured, withFpi: boolean) => ({
        metric,
        unit: withFpi ? "WAL B/op, with page images" : "WAL B/op",
        ours: per(ours, withFpi),
        baseline: per(bare, withFpi),
        baselineName: "upsert-CAS",
        ratio: `${((per(ours, withFpi) / Math.max(per(bare, withFpi), 1e-9)) * 100).toFixed(2)} %`,
        target: "~0",
        met: per(ours, withFpi) <= 0.02 * per(bare, withFpi),
      });
      report(
        "4. WAL per duplicate (through the HTTP API)",
        [
          row("duplicate check", ourChecks, bareChecks, false),
          row("duplicate check", ourChecks, bareChecks, true),
          row("duplicate claim", ourClaims, bareClaims, false),
          row("duplicate claim", ourClaims, bareClaims, true),
          { metric: "checks / claims measured", ours: `${ourChecks.operations} / ${ourClaims.operations}`, target: "info" },
        ],
        [
          `weir's window includes its batched stats flushes; this database wrote ${ourChecks.databaseBytes} B (${ourChecks.records} records) over ${ourChecks.operations} duplicate checks and ${ourClaims.databaseBytes} B over ${ourClaims.operations} duplicate claims`,
          `the cluster as a whole (neighbouring databases included) wrote ${ourChecks.clusterBytes} B and ${ourClaims.clusterBytes} B in those windows`,
          "ratio = ours / baseline bytes per operation; met when under 2 % of the baseline (what is left is the batched stats flush)",
          "page images: the first change to a page after a checkpoint logs the whole page; each window starts at a checkpoint",
        ],
      );
    } finally {
      await weir.stop();
    }
  } finally {
    await db.drop();
  }
}

runMain(main);
