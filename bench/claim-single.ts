/**
 * Single claims over HTTP (POST /api/v1/claim, window dedup): half duplicates
 * inside their window, half first claims, autocannon at 64 connections, against
 * pgbench running the bare claim upsert on the same table with the same mix, in
 * the same run. Measures the claim coalescer (concurrent claims share statements).
 * Run: npx tsx bench/claim-single.ts [--quick] [--seconds N]. Never fails on timing.
 */
import { hasFlag, numberFlag, quick, runMain } from "./lib/cli";
import { createBenchDatabase } from "./lib/db";
import { describeLoad, drive, post, type LoadResult } from "./lib/load";
import { pgbench, type PgbenchResult } from "./lib/pgbench";
import { cpuSplit, serveWeir } from "./lib/processes";
import { machineLine, median, ratio, report } from "./lib/report";
import { mintToken } from "./lib/token";
import { seededRandom } from "@/lib/seeded-random";

const KEYS = numberFlag("keys", quick ? 100_000 : 1_000_000);
const SECONDS = numberFlag("seconds", quick ? 4 : 15);
const ROUNDS = numberFlag("rounds", quick ? 1 : 3);
const GROUP = "bench-group";

/** Duplicates: a seeded record inside its window. First claims: an id never seen (a random 60-bit number). */
const CLAIM_SCRIPTS = [
  { name: "duplicate", key: `'m-' || :k::bigint`, set: `\\set k random(0, ${KEYS - 1})` },
  { name: "first", key: `'n-' || :n::bigint`, set: "\\set n random(1, 1000000000000000000)" },
].map(({ name, key, set }) => ({
  name,
  sql: `${set}
insert into window_records as r (consumer_group, message_id, claimed_at)
values ('${GROUP}', ${key}, statement_timestamp())
on conflict (consumer_group, message_id) do update
  set claimed_at = excluded.claimed_at, previous_claimed_at = r.claimed_at
  where r.claimed_at <= excluded.claimed_at - interval '1 day'
returning claimed_at;
`,
}));

async function main(): Promise<void> {
  console.log(`claim-single: ${machineLine()}; ${KEYS.toLocaleString("en-US")} live records, ${ROUNDS} round(s) x ${SECONDS} s per contender`);
  const db = await createBenchDatabase("claim_single");
  try {
    await db.pool.query("insert into consumer_groups (id, ttl_seconds) values ($1, 86400)", [GROUP]);
    await db.pool.query(`insert into window_records (consumer_group, message_id, claimed_at) select $1, 'm-' || k, now() from generate_series(0, $2::int - 1) k`, [GROUP, KEYS]);
    await db.pool.query("alter table window_records set (autovacuum_enabled = off)");
    await db.pool.query("vacuum analyze window_records");
    const token = await mintToken(db.store.db, { consumerGroups: [GROUP] });
    const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only") });
    try {
      const probe = await post<{ decision?: string }>(`${weir.url}/api/v1/claim`, { consumerGroup: GROUP, messageId: "m-1" }, token);
      if (probe.body.decision !== "duplicate") throw new Error(`expected a duplicate claim, got ${probe.status} ${JSON.stringify(probe.body)}`);
      const random = seededRandom(31);
      let fresh = 0;
      const body = () => `{"consumerGroup":"${GROUP}","messageId":"${random() < 0.5 ? `m-${Math.floor(random() * KEYS)}` : `w-${process.pid}-${fresh++}`}"}`;
      const load = (seconds: number) => drive({ url: weir.url, path: "/api/v1/claim", token, body, connections: 64, seconds });
      await load(quick ? 1 : 3);
      const runs = { pgbench: [] as PgbenchResult[], weir: [] as LoadResult[] };
      const cpu = { weir: [] as number[], weirTotal: [] as number[], pgbenchTotal: [] as number[] };
      for (let round = 1; round <= ROUNDS; round++) {
        await db.pool.query("vacuum window_records");
        await db.pool.query("checkpoint");
        const pg = await cpuSplit(undefined, db, () => pgbench({ database: db.name, scripts: CLAIM_SCRIPTS, clients: 32, seconds: SECONDS, latencies: true }), (r) => r.transactions);
        runs.pgbench.push(pg.result);
        cpu.pgbenchTotal.push(pg.totalUs);
        console.log(`  round ${round} pgbench claim upsert: ${Math.round(pg.result.tps)} tps, p99 ${pg.result.p99Ms.toFixed(2)} ms; CPU/claim ${pg.totalUs.toFixed(0)} us`);
        await db.pool.query("vacuum window_records");
        await db.pool.query("checkpoint");
        const w = await cpuSplit(weir.pid, db, () => load(SECONDS), (r) => r.requests);
        runs.weir.push(w.result);
        cpu.weir.push(w.serverUs);
        cpu.weirTotal.push(w.totalUs);
        console.log(`  round ${round} weir: ${describeLoad(w.result)}; CPU/claim: server ${w.serverUs.toFixed(0)} us, postgres ${w.postgresUs.toFixed(0)} us, total ${w.totalUs.toFixed(0)} us`);
      }
      const ours = median(runs.weir.map((r) => r.rps));
      const base = median(runs.pgbench.map((r) => r.tps));
      report(
        "claims: single claim over HTTP (50 % duplicates)",
        [
          { metric: "weir vs pgbench claim upsert", unit: "claims/s", ours, baseline: base, ratio: ratio(ours, base), target: "info (>= 0.5x)" },
          { metric: "CPU-normalised vs pgbench", unit: "claims per CPU-s", ours: 1e6 / median(cpu.weirTotal), baseline: 1e6 / median(cpu.pgbenchTotal), ratio: ratio(median(cpu.pgbenchTotal), median(cpu.weirTotal)), target: "info" },
          { metric: "weir p99 latency", unit: "ms", ours: median(runs.weir.map((r) => r.p99)), baseline: median(runs.pgbench.map((r) => r.p99Ms)), baselineName: "pgbench", target: "info" },
          { metric: "weir server CPU per claim", unit: "us", ours: median(cpu.weir), target: "info" },
        ],
        [`medians of ${ROUNDS} round(s); weir ${weir.mode}, 64 connections; pgbench 32 clients -M prepared`],
      );
    } finally {
      await weir.stop();
    }
  } finally {
    await db.drop();
  }
}

runMain(main);
