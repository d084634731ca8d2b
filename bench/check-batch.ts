/**
 * Scenario 2: batch checks over HTTP (POST /api/v1/check/batch, 1000 items per
 * request, 50 % duplicates over 1 M existing keys) against pgbench running a
 * 100-key batch upsert-CAS statement on the same table, in the same run.
 * Run: npx tsx bench/check-batch.ts [--quick] [--seconds N]. Never fails on timing.
 */
import { hasFlag, numberFlag, quick, runMain } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import { describeLoad, drive, type LoadResult } from "./lib/load";
import { pgbench, type PgbenchResult } from "./lib/pgbench";
import { cpuSplit, serveWeir } from "./lib/processes";
import { machineLine, median, ratio, report } from "./lib/report";
import { CheckMix } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 100_000 : 1_000_000);
const SECONDS = numberFlag("seconds", quick ? 4 : 15);
const ROUNDS = numberFlag("rounds", quick ? 1 : 3);
const ITEMS = 1000;
const CONNECTIONS = numberFlag("connections", 8);
const PGBENCH_CLIENTS = numberFlag("pgbench-clients", 8);
const PGBENCH_KEYS = 100;

/**
 * 100 distinct keys per transaction: 50 duplicates from the lower half (seeded
 * payloads), 50 changes in the upper half, at a random offset and stride.
 * Rows go in key order so that concurrent batches lock alike (no deadlocks).
 */
function batchScript(keys: number): string {
  const half = Math.floor(keys / 2);
  const each = PGBENCH_KEYS / 2;
  return `\\set a random(0, ${half - 1})
\\set b random(0, ${half - 1})
\\set v random(1, 1000000000000000)
insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
select '${SERVICE}', 'm-' || k, bench_hash(k, v), 1, now(), now()
from (
  select (:a::bigint + i * 9973) % ${half} as k, 0::bigint as v from generate_series(0, ${each - 1}) i
  union all
  select ${half} + (:b::bigint + i * 9973) % ${keys - half}, :v::bigint + i from generate_series(0, ${each - 1}) i
) keys
order by 'm-' || k
on conflict (service_id, message_id) do update
  set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
  where s.hash is distinct from excluded.hash
returning version;
`;
}

async function main(): Promise<void> {
  console.log(`check-batch: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} round(s) x ${SECONDS} s per contender`);
  const { db, token } = await prepareCheckDatabase("check_batch", KEYS);
  const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only") });
  try {
    await assertDecisions(weir.url, token, KEYS);
    const mix = new CheckMix(KEYS, 13);
    const load = (seconds: number) =>
      drive({ url: weir.url, path: "/api/v1/check/batch", token, body: () => mix.batchBody(SERVICE, ITEMS), connections: CONNECTIONS, seconds });
    await load(quick ? 1 : 3);
    const runs = { pgbench: [] as PgbenchResult[], weir: [] as LoadResult[] };
    const cpu = { weir: [] as number[], weirPg: [] as number[], weirTotal: [] as number[], pgbenchPg: [] as number[], pgbenchTotal: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      await settle(db);
      const pg = await cpuSplit(undefined, db, () => pgbench({ database: db.name, scripts: [{ name: "batch", sql: batchScript(KEYS) }], clients: PGBENCH_CLIENTS, seconds: SECONDS }), (r) => r.transactions * PGBENCH_KEYS);
      runs.pgbench.push(pg.result);
      cpu.pgbenchPg.push(pg.postgresUs);
      cpu.pgbenchTotal.push(pg.totalUs);
      console.log(`  round ${round} pgbench ${PGBENCH_KEYS}-key batch: ${Math.round(pg.result.tps * PGBENCH_KEYS)} keys/s; CPU/key: postgres ${pg.postgresUs.toFixed(1)} us`);
      await settle(db);
      const w = await cpuSplit(weir.pid, db, () => load(SECONDS), (r) => r.requests * ITEMS);
      runs.weir.push(w.result);
      cpu.weir.push(w.serverUs);
      cpu.weirPg.push(w.postgresUs);
      cpu.weirTotal.push(w.totalUs);
      console.log(`  round ${round} weir: ${Math.round(w.result.rps * ITEMS)} keys/s (${describeLoad(w.result)}); CPU/key: server ${w.serverUs.toFixed(1)} us, postgres ${w.postgresUs.toFixed(1)} us`);
    }
    const weirKeys = median(runs.weir.map((r) => r.rps * ITEMS));
    const pgKeys = median(runs.pgbench.map((r) => r.tps * PGBENCH_KEYS));
    report(
      "2. batch check over HTTP (1000 items/request, 50 % duplicates)",
      [
        { metric: "weir vs pgbench 100-key batch", unit: "keys/s", ours: weirKeys, baseline: pgKeys, ratio: ratio(weirKeys, pgKeys), target: ">= 0.5x", met: weirKeys >= 0.5 * pgKeys },
        {
          metric: "CPU-normalised vs pgbench batch",
          unit: "keys per CPU-s",
          ours: 1e6 / median(cpu.weirTotal),
          baseline: 1e6 / median(cpu.pgbenchTotal),
          ratio: ratio(median(cpu.pgbenchTotal), median(cpu.weirTotal)),
          target: "info (>= 0.5x)",
        },
        { metric: "weir p99 per 1000-item request", unit: "ms", ours: median(runs.weir.map((r) => r.p99)), target: "info" },
        { metric: "PostgreSQL CPU per key", unit: "us", ours: median(cpu.weirPg), baseline: median(cpu.pgbenchPg), baselineName: "pgbench", ratio: ratio(median(cpu.pgbenchPg), median(cpu.weirPg)), target: "info (lower is better)" },
        { metric: "weir process CPU per key", unit: "us", ours: median(cpu.weir), target: "info" },
      ],
      [
        `medians of ${ROUNDS} round(s); weir ${weir.mode}, ${CONNECTIONS} connections; pgbench ${PGBENCH_CLIENTS} clients -M prepared`,
        "CPU-normalised: keys per CPU-second of server + PostgreSQL + load generator; steadier than keys/s when neighbours share the cores",
      ],
    );
  } finally {
    await weir.stop();
    await db.drop();
  }
}

runMain(main);
