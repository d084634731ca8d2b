/**
 * Scenario 1: single checks over HTTP (POST /api/v1/check), 50 % duplicates over
 * 1 M existing keys, autocannon at 64 connections, against in the same run:
 *  (a) pgbench running the bare single-statement upsert-CAS (32 clients, prepared, same mix), once with
 *      SHA-256 of the payload computed in SQL (weir computes it in Node) and once with a hash that costs
 *      nothing (the statement's own limit, on a second service of as many keys);
 *  (b) a bare node:http + pg server running that statement (bench/baselines/bare-check-server.ts);
 *  (c) for the p99 target, pgbench again at 64 clients: the database's own tail at the concurrency
 *      autocannon puts on weir, the floor any HTTP server in front of it sits on;
 *  (d) light load: one client, sequential checks, weir against the bare server.
 * Run: npx tsx bench/check-single.ts [--quick] [--seconds N] [--api-only]. Never fails on timing.
 */
import path from "node:path";
import { envFlags, hasFlag, numberFlag, onlyFlag, quick, runMain, sleep } from "./lib/cli";
import { assertDecisions, CHEAP_SERVICE, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import { describeLoad, type LoadResult } from "./lib/load";
import { driveCheckMixFresh } from "./lib/load-fresh";
import { sequentialLatency } from "./lib/sequential";
import { checkMixScripts, pgbench, type PgbenchResult } from "./lib/pgbench";
import { cpuSplit, ROOT, serve, serveWeir } from "./lib/processes";
import { monotonicUs, printProfileSummary, type Window } from "./lib/cpu-profile";
import { machineLine, median, ratio, report } from "./lib/report";
import { CheckMix } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 100_000 : 1_000_000);
// Quick mode (CI) still alternates two rounds: one short round let a neighbour's burst decide a ratio.
const SECONDS = numberFlag("seconds", quick ? 3 : 15);
const ROUNDS = numberFlag("rounds", quick ? 2 : 3);
const CONNECTIONS = 64;
const PGBENCH_CLIENTS = 32;
// --only weir,bare runs a subset while tuning; the report then lacks the skipped ratios.
const only = onlyFlag();

async function main(): Promise<void> {
  console.log(`check-single: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} round(s) x ${SECONDS} s per contender`);
  const { db, token } = await prepareCheckDatabase("check_single", KEYS, { cheapBaseline: only("pgbenchcheap") });
  // --profile writes a V8 CPU profile of the weir process to .bench-profiles/ when it stops, and prints its summary.
  const profiling = hasFlag("profile");
  const profileStartedAt = Date.now();
  const nodeArgs = profiling ? ["--cpu-prof", "--cpu-prof-dir=.bench-profiles"] : [];
  const loadWindows: Window[] = [];
  let profiledChecks = 0;
  const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only"), nodeArgs, env: envFlags() });
  const bare = await serve("bench/baselines/bare-check-server.ts", { DATABASE_URL: db.url }, { label: "bare server" });
  try {
    console.log(`  weir: ${weir.mode}, pid ${weir.pid}; bare node:http+pg: pid ${bare.pid}`);
    await assertDecisions(weir.url, token, KEYS);
    await assertDecisions(bare.url, undefined, KEYS);
    // Each run drives from a fresh process with a seed of its own (see load-fresh.ts).
    let seed = 11;
    const load = (url: string, withToken: boolean, seconds: number) =>
      driveCheckMixFresh({ url, token: withToken ? token : undefined, serviceId: SERVICE, keys: KEYS, seed: seed++, connections: CONNECTIONS, seconds });
    // Warm-up: JIT, prepared statements, pools, the service cache.
    await load(weir.url, true, quick ? 1 : 3);
    await load(bare.url, false, quick ? 1 : 3);

    const runs = { pgbench: [] as PgbenchResult[], pgbenchCheap: [] as PgbenchResult[], pgbenchAtWeirConcurrency: [] as PgbenchResult[], bare: [] as LoadResult[], weir: [] as LoadResult[] };
    const cpu = { weir: [] as number[], weirPg: [] as number[], weirTotal: [] as number[], bare: [] as number[], bareTotal: [] as number[], pgbenchPg: [] as number[], pgbenchTotal: [] as number[] };
    let peakRss = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      if (only("pgbench")) {
        await settle(db);
        const scripts = checkMixScripts(SERVICE, KEYS);
        const pg = await cpuSplit(undefined, db, () => pgbench({ database: db.name, scripts, clients: PGBENCH_CLIENTS, seconds: SECONDS, latencies: true }), (r) => r.transactions);
        runs.pgbench.push(pg.result);
        cpu.pgbenchPg.push(pg.postgresUs);
        cpu.pgbenchTotal.push(pg.totalUs);
        console.log(`  round ${round} pgbench upsert-CAS: ${Math.round(pg.result.tps)} tps, p99 ${pg.result.p99Ms.toFixed(2)} ms; CPU/check: postgres ${pg.postgresUs.toFixed(0)} us, pgbench ${pg.loaderUs.toFixed(0)} us`);
      }
      if (only("pgbenchcheap")) {
        await settle(db);
        const cheap = await pgbench({ database: db.name, scripts: checkMixScripts(CHEAP_SERVICE, KEYS, "bench_hash_cheap"), clients: PGBENCH_CLIENTS, seconds: SECONDS, latencies: true });
        runs.pgbenchCheap.push(cheap);
        console.log(`  round ${round} pgbench upsert-CAS, hash at no cost: ${Math.round(cheap.tps)} tps, p99 ${cheap.p99Ms.toFixed(2)} ms`);
      }
      if (only("pgbench64")) {
        await settle(db);
        const wide = await pgbench({ database: db.name, scripts: checkMixScripts(SERVICE, KEYS), clients: CONNECTIONS, seconds: SECONDS, latencies: true });
        runs.pgbenchAtWeirConcurrency.push(wide);
        console.log(`  round ${round} pgbench upsert-CAS at ${CONNECTIONS} clients: ${Math.round(wide.tps)} tps, p99 ${wide.p99Ms.toFixed(2)} ms`);
      }
      if (only("bare")) {
        await settle(db);
        const b = await cpuSplit(bare.pid, db, () => load(bare.url, false, SECONDS), (r) => r.requests);
        runs.bare.push(b.result);
        cpu.bare.push(b.serverUs);
        cpu.bareTotal.push(b.totalUs);
        console.log(`  round ${round} bare node:http+pg: ${describeLoad(b.result)}; CPU/check: server ${b.serverUs.toFixed(0)} us, postgres ${b.postgresUs.toFixed(0)} us, autocannon ${b.loaderUs.toFixed(0)} us`);
      }
      await settle(db);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, weir.rssBytes())), 250);
      const fromUs = monotonicUs();
      const w = await cpuSplit(weir.pid, db, () => load(weir.url, true, SECONDS), (r) => r.requests);
      loadWindows.push({ fromUs, toUs: monotonicUs() });
      profiledChecks += w.result.requests;
      clearInterval(sampler);
      runs.weir.push(w.result);
      cpu.weir.push(w.serverUs);
      cpu.weirPg.push(w.postgresUs);
      cpu.weirTotal.push(w.totalUs);
      console.log(`  round ${round} weir: ${describeLoad(w.result)}; CPU/check: server ${w.serverUs.toFixed(0)} us, postgres ${w.postgresUs.toFixed(0)} us, autocannon ${w.loaderUs.toFixed(0)} us`);
      await sleep(500);
    }
    // Light load, once: what a check costs a quiet service, against the bare server's single statement.
    await settle(db);
    const lightMix = new CheckMix(KEYS, 97);
    const lightWeir = await sequentialLatency(`${weir.url}/api/v1/check`, token, () => lightMix.checkBody(SERVICE), quick ? 2 : 5);
    const lightBare = await sequentialLatency(`${bare.url}/api/v1/check`, undefined, () => lightMix.checkBody(SERVICE), quick ? 2 : 5);
    console.log(`  light load (1 client, sequential): weir p50 ${lightWeir.p50.toFixed(2)} ms, p99 ${lightWeir.p99.toFixed(2)} ms over ${lightWeir.requests}; bare p50 ${lightBare.p50.toFixed(2)} ms, p99 ${lightBare.p99.toFixed(2)} ms over ${lightBare.requests}`);
    const weirRps = median(runs.weir.map((r) => r.rps));
    const weirP99 = median(runs.weir.map((r) => r.p99));
    const pgTps = median(runs.pgbench.map((r) => r.tps));
    const pgCheapTps = median(runs.pgbenchCheap.map((r) => r.tps));
    const bareRps = median(runs.bare.map((r) => r.rps));
    const bad = runs.weir.reduce((n, r) => n + r.non2xx + r.errors, 0);
    // Checks per CPU-second of every process involved (server, PostgreSQL, load generator): what a quiet 2-core box would show.
    const perCpuSecond = (us: number[]) => 1e6 / median(us);
    const weirEff = perCpuSecond(cpu.weirTotal);
    report(
      "1. single check over HTTP (50 % duplicates)",
      [
        { metric: "weir vs pgbench upsert-CAS, SHA-256 in SQL", unit: "checks/s", ours: weirRps, baseline: pgTps, ratio: ratio(weirRps, pgTps), target: ">= 0.5x (aim 1x)", met: weirRps >= 0.5 * pgTps },
        { metric: "weir vs pgbench upsert-CAS, hash at no cost (the statement's limit)", unit: "checks/s", ours: weirRps, baseline: pgCheapTps, ratio: ratio(weirRps, pgCheapTps), target: "info" },
        { metric: "weir vs bare node:http+pg", unit: "req/s", ours: weirRps, baseline: bareRps, ratio: ratio(weirRps, bareRps), target: ">= 1.3x", met: weirRps >= 1.3 * bareRps },
        { metric: "weir p99 latency", unit: "ms", ours: weirP99, baseline: median(runs.bare.map((r) => r.p99)), baselineName: "bare", target: "<= 10 ms", met: weirP99 <= 10 },
        { metric: "CPU-normalised vs pgbench", unit: "checks per CPU-s", ours: weirEff, baseline: perCpuSecond(cpu.pgbenchTotal), ratio: ratio(weirEff, perCpuSecond(cpu.pgbenchTotal)), target: "info (>= 0.5x)" },
        { metric: "CPU-normalised vs bare node:http+pg", unit: "checks per CPU-s", ours: weirEff, baseline: perCpuSecond(cpu.bareTotal), ratio: ratio(weirEff, perCpuSecond(cpu.bareTotal)), target: "info (>= 1.3x)" },
        { metric: "server process CPU per check", unit: "us", ours: median(cpu.weir), baseline: median(cpu.bare), baselineName: "bare", ratio: ratio(median(cpu.weir), median(cpu.bare)), target: "info (weir / bare: lower is better)" },
        { metric: "PostgreSQL CPU per check", unit: "us", ours: median(cpu.weirPg), baseline: median(cpu.pgbenchPg), baselineName: "pgbench", ratio: ratio(median(cpu.weirPg), median(cpu.pgbenchPg)), target: "info (weir / pgbench: lower is better)" },
        { metric: "pgbench p99 latency", unit: "ms", ours: median(runs.pgbench.map((r) => r.p99Ms)), target: "info" },
        {
          metric: `weir p99 vs pgbench p99 at ${CONNECTIONS} clients`,
          unit: "ms",
          ours: weirP99,
          baseline: median(runs.pgbenchAtWeirConcurrency.map((r) => r.p99Ms)),
          baselineName: `pgbench -c ${CONNECTIONS}`,
          ratio: ratio(weirP99, median(runs.pgbenchAtWeirConcurrency.map((r) => r.p99Ms))),
          target: "context for <= 10 ms: the database's own tail (weir / pgbench)",
        },
        { metric: "light load, 1 client: p50 latency", unit: "ms", ours: lightWeir.p50, baseline: lightBare.p50, baselineName: "bare", ratio: ratio(lightWeir.p50, lightBare.p50), target: "info (weir / bare: lower is better)" },
        { metric: "light load, 1 client: p99 latency", unit: "ms", ours: lightWeir.p99, baseline: lightBare.p99, baselineName: "bare", ratio: ratio(lightWeir.p99, lightBare.p99), target: "info (weir / bare: lower is better)" },
        { metric: "weir peak RSS", unit: "MB", ours: peakRss / 2 ** 20, target: "< 300 MB", met: peakRss < 300 * 2 ** 20 },
      ],
      [
        `medians of ${ROUNDS} round(s); weir ${weir.mode}; ${CONNECTIONS} connections (autocannon), pgbench ${PGBENCH_CLIENTS} clients -M prepared`,
        "CPU-normalised: checks per CPU-second of server + PostgreSQL + load generator (autocannon or pgbench); steadier than req/s when neighbours share the cores",
        `weir answered ${bad} non-2xx/errors over ${runs.weir.reduce((n, r) => n + r.requests, 0)} requests`,
      ],
    );
  } finally {
    await weir.stop();
    await bare.stop();
    await db.drop();
  }
  if (profiling) printProfileSummary(path.join(ROOT, ".bench-profiles"), profileStartedAt, loadWindows, profiledChecks);
}

runMain(main);
