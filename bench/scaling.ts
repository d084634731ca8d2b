/**
 * Scaling: the same check load on one PostgreSQL and on a 3-node Citus cluster (a coordinator
 * and two workers, private clusters on this machine). Two loads, each over 10,000 keys with two
 * payload variants (duplicates and changes mixed):
 * - single: 64 concurrent callers submitting single checks through the check coalescer (what
 *   the HTTP API runs); on Citus a coalesced batch leaves in one call per worker;
 * - batch: 16 callers each checking batches of 20 keys (checkMany, what a batch request runs).
 * Citus runs three ways: weir connected to the coordinator; with WEIR_CITUS_ROUTE_URLS, its
 * connections to the workers in turn; and each key sent to its shard's worker (what a routed
 * node does). Around each load the bench reads the CPU of every node and of weir's statement path,
 * and prints the capacity model (docs/citus-capacity.md) from them.
 * On one box Citus cannot win (three servers share the cores, every check crosses more hops);
 * the point is that it routes and that batches merge per worker.
 * `--shards 8,32` measures Citus once per shard count (a database each, the count set before
 * its first migration, as docs/citus.md tells an operator); default weir's own (DEFAULT_SHARD_COUNT).
 * Run: npx tsx bench/scaling.ts [--seconds N] [--quick] [--shards 8,32]. Never fails on timing.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import { DEFAULT_SHARD_COUNT } from "@/db/citus";
import { createPool, hotDb, openStore } from "@/db/client";
import { routerOf } from "@/db/shard-router";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { checkMany, hashForService } from "@/lib/dedup/last-seen/check";
import { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import { serviceConfigs } from "@/lib/services/service-config";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { saveService } from "@/lib/services/save-service";
import { CitusCluster } from "@/test/citus/citus-cluster";
import { createBenchDatabase } from "./lib/db";
import { numberFlag, quick, runMain } from "./lib/cli";
import { capacityModel, clusterMeter, databaseMeter, type CpuMeter } from "./lib/citus-capacity";
import { machineLine, ratio, report, type Row } from "./lib/report";

const SECONDS = numberFlag("seconds", quick ? 2 : 5);
const SINGLE_CALLERS = 64;
const BATCH_CALLERS = 16;
const BATCH_SIZE = 20;
const KEYS = 10_000;
const SERVICE = "scaling-svc";

/** `--shards 8,32`: the shard counts to measure Citus with. */
function shardCounts(): number[] {
  const at = process.argv.indexOf("--shards");
  if (at < 0) return [DEFAULT_SHARD_COUNT];
  const counts = (process.argv[at + 1] ?? "").split(",").map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error("--shards needs positive integers, e.g. 8,32");
  return counts;
}

type Load = "single" | "batch";

interface Measured {
  checks: number;
  perSecond: number;
  decisions: Record<string, number>;
  /** CPU per check in µs, by part ("weir", "postgres", "coordinator", "worker 1", ...); set by `metered`. */
  cpuUs?: Record<string, number>;
}

async function drive(db: DbOrTx, load: Load, seconds: number): Promise<Measured> {
  await saveService({ db, actor: SYSTEM_ACTOR, id: SERVICE, input: {} });
  serviceConfigs.invalidate();
  const config = await serviceConfigs.require(db, SERVICE);
  const coalescer = new CheckCoalescer(async () => db, coalescerOptionsFromEnv());
  const decisions: Record<string, number> = {};
  let checks = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const variant = () => (random() < 0.8 ? 1 : 2);
  const count = (outcomes: readonly { decision: string }[]) => {
    for (const { decision } of outcomes) decisions[decision] = (decisions[decision] ?? 0) + 1;
    checks += outcomes.length;
  };
  const end = Date.now() + seconds * 1000;
  const started = performance.now();
  const callers = load === "single" ? SINGLE_CALLERS : BATCH_CALLERS;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (Date.now() < end) {
        if (load === "single") {
          count([await coalescer.submit(hashForService(config, `k-${Math.floor(random() * KEYS)}`, `{"v":${variant()}}`))]);
        } else {
          const items = Array.from({ length: BATCH_SIZE }, () => ({ serviceId: SERVICE, messageId: `k-${Math.floor(random() * KEYS)}`, payload: { v: variant() } }));
          count(await checkMany(db, items));
        }
      }
    }),
  );
  return { checks, perSecond: checks / ((performance.now() - started) / 1000), decisions };
}

/** A load measured with the CPU it cost: weir (this process's statement path) and each database node, in µs per check. */
async function metered(db: DbOrTx, load: Load, seconds: number, meter: CpuMeter): Promise<Measured> {
  await meter.start();
  const self = process.cpuUsage();
  const measured = await drive(db, load, seconds);
  const { user, system } = process.cpuUsage(self);
  const nodes = await meter.stop();
  const perCheck = (cpuSeconds: number) => (cpuSeconds * 1e6) / Math.max(1, measured.checks);
  const cpuUs: Record<string, number> = { weir: (user + system) / Math.max(1, measured.checks) };
  for (const [node, cpuSeconds] of Object.entries(nodes)) cpuUs[node] = perCheck(cpuSeconds);
  return { ...measured, cpuUs };
}

async function onDb(db: DbOrTx, seconds: number, meter: CpuMeter): Promise<Record<Load, Measured>> {
  await drive(db, "single", 1); // warm-up: JIT, prepared statements, the first keys
  const single = await metered(db, "single", seconds, meter);
  await drive(db, "batch", 1);
  return { single, batch: await metered(db, "batch", seconds, meter) };
}

async function onDatabase(url: string, seconds: number, meter: CpuMeter): Promise<Record<Load, Measured>> {
  const pool = createPool({ ...storeConfigFromEnv(), poolMax: 20 }, url);
  try {
    return await onDb(drizzle({ client: pool, schema }), seconds, meter);
  } finally {
    await pool.end();
  }
}

/**
 * weir's store with WEIR_CITUS_ROUTE_URLS (every worker), so the coordinator is off the path: its
 * round-robin pool alone (a key one forwarding hop away on half the workers), then its hot handle,
 * which sends each key to its shard's worker (db/shard-router.ts).
 */
async function onRoutedStore(url: string, routeUrls: string[], seconds: number, meter: CpuMeter): Promise<Record<"roundRobin" | "toShard", Record<Load, Measured>>> {
  const store = await openStore({ ...storeConfigFromEnv(), databaseUrl: url, routeUrls, poolMax: 20 }, { migrate: false });
  try {
    await routerOf(hotDb(store))!.placements.refresh();
    const roundRobin = await onDb(drizzle({ client: store.hotPool!, schema }), seconds, meter);
    return { roundRobin, toShard: await onDb(hotDb(store), seconds, meter) };
  } finally {
    await store.close();
  }
}

const cpuText = (m: Measured) =>
  Object.entries(m.cpuUs ?? {})
    .map(([part, us]) => `${part} ${us.toFixed(0)}`)
    .join(", ");

const line = (name: string, m: Record<Load, Measured>) =>
  `  ${name}: single ${Math.round(m.single.perSecond)} checks/s ${JSON.stringify(m.single.decisions)} (CPU µs/check: ${cpuText(m.single)}); ` +
  `batch of ${BATCH_SIZE} ${Math.round(m.batch.perSecond)} checks/s ${JSON.stringify(m.batch.decisions)} (CPU µs/check: ${cpuText(m.batch)})`;

async function main(): Promise<void> {
  const shards = shardCounts();
  console.log(`scaling: ${machineLine()}; ${KEYS} keys, ${SECONDS} s per load and contender, shard counts ${shards.join(", ")}`);
  const plain = await createBenchDatabase("scaling");
  const cluster = await CitusCluster.create();
  try {
    const urls = [];
    for (const count of shards) urls.push(await cluster.createDatabase(`weir_scaling_${count}`, count));
    const single = await onDatabase(plain.url, SECONDS, databaseMeter(plain));
    console.log(line("one PostgreSQL", single));
    const rows: Row[] = [];
    const models: string[] = [];
    for (const [i, count] of shards.entries()) {
      const distributed = await onDatabase(urls[i]!, SECONDS, clusterMeter(cluster));
      console.log(line(`Citus, ${count} shards`, distributed));
      models.push(...capacityModel(`Citus, ${count} shards, checks through the coordinator`, distributed, single));
      const routeUrls = cluster.workers.map((worker) => worker.url(`weir_scaling_${count}`));
      const routed = await onRoutedStore(urls[i]!, routeUrls, SECONDS, clusterMeter(cluster));
      console.log(line(`Citus, ${count} shards, route URLs, round robin`, routed.roundRobin));
      console.log(line(`Citus, ${count} shards, route URLs, to the shard's worker`, routed.toShard));
      models.push(...capacityModel(`Citus, ${count} shards, checks sent to the workers in turn (no coordinator on the path)`, routed.roundRobin, single));
      models.push(...capacityModel(`Citus, ${count} shards, checks sent to their shard's worker`, routed.toShard, single));
      const contenders = [
        ["through the coordinator", distributed],
        ["route URLs, round robin", routed.roundRobin],
        ["route URLs, to the shard's worker", routed.toShard],
      ] as const;
      for (const load of ["single", "batch"] as const) {
        for (const [how, measured] of contenders) {
          const r = ratio(measured[load].perSecond, single[load].perSecond);
          const target = load === "single" ? 0.5 : 0.3;
          rows.push({
            metric: `${load === "single" ? "single checks" : `batches of ${BATCH_SIZE}`}, Citus ${count} shards ${how} vs one PostgreSQL`,
            unit: "checks/s",
            ours: measured[load].perSecond,
            baseline: single[load].perSecond,
            ratio: r,
            target: `>= ${target}x (issue 26)`,
            met: r >= target,
          });
        }
      }
    }
    report("scaling: checks, one PostgreSQL vs Citus on the same machine", rows);
    console.log(models.join("\n"));
  } finally {
    await cluster.destroy();
    await plain.drop();
  }
}

runMain(main);
