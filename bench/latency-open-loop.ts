/**
 * Tail latency at a steady load. An open-loop generator (bench/lib/open-loop.ts, a process of its
 * own per run) sends single checks on a schedule fixed in advance and counts each latency from the
 * scheduled send time, so a stall is charged to every request it holds back. In the same run:
 *  (a) per rate, a no-op HTTP server through the same generator (the generator's own tail),
 *      pgbench --rate on the bare upsert-CAS (the database's tail), the simplest node:http + pg
 *      server running that statement (bench/baselines/bare-check-server.ts: the floor for any
 *      HTTP service in front of this database, one more process hop than pgbench), and weir;
 *  (b) closed loop at 64 connections, weir against pgbench at 64 clients: capacity; and the no-op
 *      server at 64 connections through the same generator: the most any HTTP service reaches here;
 *  (c) offered load from 10 % to 150 % of weir's capacity, then back to 50 %, for weir as it
 *      ships (the in-flight limit fixed at 512) and a second weir whose limit adapts
 *      (WEIR_MIN_IN_FLIGHT=64), taking turns at each step: docs/latency-vs-load.svg.
 * Workload: 20 services x 5,000 keys (1,000 in a quick run), 50 % duplicates.
 * Run: npx tsx bench/latency-open-loop.ts [--quick] [--seconds N] [--api-only] [--overload-only] [--chart path].
 * --overload-only skips (a). Never fails on timing.
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { createBenchDatabase } from "./lib/db";
import { envFlags, hasFlag, numberFlag, quick, runMain } from "./lib/cli";
import { settle } from "./lib/check-setup";
import { post } from "./lib/load";
import type { GeneratorResult } from "./lib/open-loop";
import { latencyVsLoadSvg, type SweepPoint } from "./lib/open-loop-chart";
import { describeRun, driveFresh } from "./lib/open-loop-drive";
import { pgbenchAt } from "./lib/open-loop-pgbench";
import { describePoint, scrapeWaits, sweepLoad } from "./lib/open-loop-sweep";
import { prepareOpenLoopStore, servicesMixScripts } from "./lib/open-loop-workload";
import { ROOT, serve, serveWeir } from "./lib/processes";
import { machineLine, ratio, ratioText, report, type Row } from "./lib/report";
import { payloadText } from "./lib/workload";

const SERVICES = 20;
// A quick run (CI's) keeps the script working: one rate and a smaller store take the same code paths.
const KEYS_PER_SERVICE = numberFlag("keys-per-service", quick ? 1000 : 5000);
const RATES = quick ? [1000] : [1000, 3000, 6000];
const SECONDS = numberFlag("seconds", quick ? 3 : 15);
const WARMUP_SECONDS = quick ? 0.5 : 2;
const SWEEP = quick ? [0.1, 0.5, 0.75, 1, 1.5] : [0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5];
/** The fixed limit the adaptive one is compared with: the ceiling, as weir had it before. */
/** weir's default in-flight limit (fixed); the adaptive one runs between ADAPTIVE_FLOOR and it. */
const FIXED_LIMIT = "512";
const ADAPTIVE_FLOOR = "64";
// Every request here carries one token: its share of the limit is the whole limit, or past a
// quarter of it (128 in flight) the bench would measure the per-credential 429, not latency.
const ONE_TOKEN = { WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL: FIXED_LIMIT };
const SOCKETS = 64;
// The overload sweep stands for many producers: with 64 sockets the excess would queue in the
// generator's own agent, never reach weir, and no server could shed it.
const SWEEP_SOCKETS = 1024;
const PGBENCH_RATE_CLIENTS = 32;
const CLOSED = 64;
const chartAt = process.argv.indexOf("--chart");
// The README's chart comes from a full run; a quick one (noisy) writes beside the other temp files.
const defaultChart = quick ? path.join(os.tmpdir(), "weir-latency-vs-load.quick.svg") : "docs/latency-vs-load.svg";
const CHART = path.resolve(ROOT, chartAt >= 0 ? (process.argv[chartAt + 1] ?? "") : defaultChart);

/** pgbench clients up to `wanted`, leaving room for the other databases on a shared server. */
async function clientsAvailable(pool: pg.Pool, wanted: number): Promise<number> {
  const { rows } = await pool.query<{ free: number }>(
    "select current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int - count(*)::int as free from pg_stat_activity",
  );
  const clients = Math.max(8, Math.min(wanted, rows[0]!.free - 10));
  if (clients < wanted) console.log(`  only ${rows[0]!.free} connections free on the server: pgbench runs ${clients} clients, not ${wanted}`);
  return clients;
}

async function main(): Promise<void> {
  console.log(`latency-open-loop: ${machineLine()}; ${SERVICES} services x ${KEYS_PER_SERVICE.toLocaleString("en-US")} keys, ${SECONDS} s per row`);
  const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  const db = await createBenchDatabase("latency_open_loop");
  try {
    const { services, token, adminToken } = await prepareOpenLoopStore(db, SERVICES, KEYS_PER_SERVICE);
    const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only"), env: { ...ONE_TOKEN, ...envFlags() } });
    const noop = await serve("bench/lib/open-loop-noop-server.ts", {}, { readyPath: "/", label: "no-op server" });
    const bare = await serve("bench/baselines/bare-check-server.ts", { DATABASE_URL: db.url }, { label: "bare server" });
    try {
      console.log(`  weir: ${weir.mode}, pid ${weir.pid}; no-op server pid ${noop.pid}; bare node:http+pg pid ${bare.pid}`);
      const dup = await post<{ decision?: string }>(`${weir.url}/api/v1/check`, { serviceId: services[3], messageId: "m-1", payload: JSON.parse(payloadText(1, 0)) }, token);
      if (dup.body.decision !== "duplicate") throw new Error(`weir answered ${dup.status} ${JSON.stringify(dup.body)} to a seeded payload`);
      let seed = 101;
      const drive = (url: string, load: { rate?: number; closed?: number }, seconds = SECONDS, sockets = SOCKETS): Promise<GeneratorResult> =>
        driveFresh({
          spec: { url, path: "/api/v1/check", token, rate: load.rate, closedConnections: load.closed, seconds, warmupSeconds: WARMUP_SECONDS, maxSockets: sockets, seed: seed++ },
          workload: { services: SERVICES, keysPerService: KEYS_PER_SERVICE },
        });
      const scripts = servicesMixScripts(SERVICES, KEYS_PER_SERVICE);
      // weir's CPU per check halves over its first seconds of load (JIT): a short warm-up measured
      // a capacity of a third of the warm one, and an overload sweep that never overloaded.
      const warmUp = await drive(weir.url, { closed: CLOSED }, quick ? 6 : 10);
      console.log(`  warm-up: ${describeRun(warmUp)}`);

      const rows: Row[] = [];
      for (const rate of hasFlag("overload-only") ? [] : RATES) {
        const calibration = await drive(noop.url, { rate });
        console.log(`  ${rate}/s no-op server: ${describeRun(calibration)}`);
        await settle(db);
        const pg = await pgbenchAt({ database: db.name, scripts, clients: PGBENCH_RATE_CLIENTS, seconds: SECONDS, rate });
        console.log(`  ${rate}/s pgbench -R: ${Math.round(pg.tps)} tps: p50 ${pg.latency.p50.toFixed(2)}, p99 ${pg.latency.p99.toFixed(2)}, p99.9 ${pg.latency.p999.toFixed(2)}, max ${pg.latency.max.toFixed(1)} ms`);
        await settle(db);
        const floor = await drive(bare.url, { rate });
        console.log(`  ${rate}/s bare node:http+pg: ${describeRun(floor)}`);
        await settle(db);
        const w = await drive(weir.url, { rate });
        console.log(`  ${rate}/s weir: ${describeRun(w)}`);
        const at = `at ${rate.toLocaleString("en-US")}/s`;
        const sustained = w.achieved >= 0.95 * rate ? "" : ` (weir answered ${Math.round(w.achieved)}/s)`;
        const compare = (name: string, ours: number, theirs: number, bound: number): Row => ({
          metric: `${name} ${at}, weir / pgbench -R${sustained}`, unit: "ms", ours, baseline: theirs, ratio: ratio(ours, theirs), target: `<= ${bound}x`, met: ours <= bound * theirs,
        });
        rows.push(compare("p50", w.all.p50, pg.latency.p50, 1.5), compare("p99", w.all.p99, pg.latency.p99, 1.5), compare("p99.9", w.all.p999, pg.latency.p999, 3));
        rows.push({ metric: `max ${at}, weir / pgbench -R`, unit: "ms", ours: w.all.max, baseline: pg.latency.max, ratio: ratio(w.all.max, pg.latency.max), target: "info" });
        // The floor of the p50 target: the simplest HTTP server in front of the same statement.
        for (const [name, ours, theirs] of [["p50", floor.all.p50, pg.latency.p50], ["p99", floor.all.p99, pg.latency.p99]] as const) {
          rows.push({ metric: `${name} ${at}, bare node:http+pg / pgbench -R (any HTTP server's floor)`, unit: "ms", ours, baseline: theirs, ratio: ratio(ours, theirs), target: "info" });
        }
        rows.push({ metric: `p50 ${at}, weir / bare node:http+pg`, unit: "ms", ours: w.all.p50, baseline: floor.all.p50, ratio: ratio(w.all.p50, floor.all.p50), target: "info" });
        const generator = `${calibration.all.p50.toFixed(2)} / ${calibration.all.p99.toFixed(2)} / ${calibration.all.p999.toFixed(2)}`;
        rows.push({ metric: `generator floor ${at}: no-op server p50 / p99 / p99.9`, unit: "ms", ours: generator, target: "info" });
        rows.push({ metric: `generator's own send lag ${at}, p99 while driving weir`, unit: "ms", ours: w.sendLag.p99, target: "info (part of weir's tail)" });
      }

      await settle(db);
      const pgClients = await clientsAvailable(db.pool, CLOSED);
      const pgClosed = await pgbenchAt({ database: db.name, scripts, clients: pgClients, seconds: SECONDS });
      console.log(`  closed loop pgbench -c ${pgClients}: ${Math.round(pgClosed.tps)} tps, p99 ${pgClosed.latency.p99.toFixed(2)} ms`);
      await settle(db);
      const closed = await drive(weir.url, { closed: CLOSED });
      console.log(`  closed loop weir, ${CLOSED} connections: ${describeRun(closed)}`);
      rows.push({ metric: `throughput, ${CLOSED} connections vs pgbench -c ${pgClients}`, unit: "checks/s", ours: closed.achieved, baseline: pgClosed.tps, ratio: ratio(closed.achieved, pgClosed.tps), target: ">= 1.0x", met: closed.achieved >= pgClosed.tps });
      // The throughput target's reachability: the no-op server through the same generator, same connections.
      const ceiling = await drive(noop.url, { closed: CLOSED });
      console.log(`  closed loop no-op server, ${CLOSED} connections: ${describeRun(ceiling)}`);
      rows.push({ metric: `ceiling: no-op server, ${CLOSED} connections through the same generator vs pgbench -c ${pgClients}`, unit: "answers/s", ours: ceiling.achieved, baseline: pgClosed.tps, ratio: ratio(ceiling.achieved, pgClosed.tps), target: "info (under 1.0x: no HTTP service reaches the target here)" });
      rows.push({ metric: `throughput, ${CLOSED} connections, weir / no-op server`, unit: "checks/s", ours: closed.achieved, baseline: ceiling.achieved, ratio: ratio(closed.achieved, ceiling.achieved), target: "info" });
      console.log(`  weir's own view so far: ${await scrapeWaits(weir.url, adminToken)}`);

      // The sweep's capacity: the better of the two closed loops at 64 connections (the warm-up's last
      // seconds and the measured row), which on this shared box have differed by up to 6x. A probe
      // far past it (2.5x) only measured the generator starving weir of CPU.
      const capacity = Math.max(closed.achieved, warmUp.achieved);
      rows.push({ metric: `capacity the sweep is scaled to: the better closed loop at ${CLOSED} connections`, unit: "checks/s", ours: capacity, target: "info" });
      const adaptiveWeir = await serveWeir(db.url, { apiOnly: hasFlag("api-only"), env: { ...ONE_TOKEN, WEIR_MIN_IN_FLIGHT: ADAPTIVE_FLOOR, ...envFlags() } });
      let adaptive: SweepPoint[];
      let fixed: SweepPoint[];
      try {
        await drive(adaptiveWeir.url, { closed: CLOSED }, quick ? 6 : 10);
        await settle(db);
        const sweepOn = (url: string) => (rate: number) => drive(url, { rate }, SECONDS, SWEEP_SOCKETS);
        [adaptive, fixed] = (await sweepLoad(capacity, SWEEP, [
          { label: "adaptive limit", drive: sweepOn(adaptiveWeir.url) },
          { label: `fixed ${FIXED_LIMIT}`, drive: sweepOn(weir.url) },
        ])) as [SweepPoint[], SweepPoint[]];
      } finally {
        await adaptiveWeir.stop();
      }
      console.log(`  weir's own view after the sweep: ${await scrapeWaits(weir.url, adminToken)}`);
      for (const [i, a] of adaptive.entries()) {
        const f = fixed[i]!;
        rows.push({
          metric: `${a.recovery ? "recovery, right after 150 %: " : "sweep "}${Math.round(a.share * 100)} % of capacity: p50 / p99, 503 share`,
          ours: describePoint(a),
          baseline: describePoint(f),
          baselineName: `fixed ${FIXED_LIMIT}`,
          ratio: `p50 ${ratioText(ratio(a.p50, f.p50))}, p99 ${ratioText(ratio(a.p99, f.p99))}`,
          target: a.share > 1 && !a.recovery ? "info (fast answers, fast 503s)" : "info (few 503s)",
        });
      }
      const half = adaptive.find((p) => !p.recovery && p.share === 0.5) ?? adaptive[0]!;
      const recovery = adaptive.find((p) => p.recovery)!;
      rows.push({ metric: "adaptive: p99 right after the overload, at 50 %", unit: "ms", ours: recovery.p99, baseline: half.p99, baselineName: `at ${Math.round(half.share * 100)} % before`, ratio: ratio(recovery.p99, half.p99), target: "info (no cliff: ~1x)" });
      const subtitle = [
        `weir ${weir.mode}; capacity ${Math.round(capacity)} checks/s (the better of two closed loops at ${CLOSED} connections)`,
        `${SERVICES} services x ${KEYS_PER_SERVICE} keys, 50 % duplicates; ${SECONDS} s per point${quick ? ", quick run: noisy" : ""}; ${new Date().toISOString().slice(0, 10)}`,
        `${os.cpus().length} cores shared with PostgreSQL and the generator; node ${process.version}; load average ${os.loadavg()[0]!.toFixed(1)}`,
      ];
      const series = [
        { name: `adaptive limit (WEIR_MIN_IN_FLIGHT ${ADAPTIVE_FLOOR}, WEIR_MAX_IN_FLIGHT ${FIXED_LIMIT})`, points: adaptive },
        { name: `fixed limit ${FIXED_LIMIT}`, points: fixed, dashed: true },
      ];
      writeFileSync(CHART, latencyVsLoadSvg(series, "weir single check: latency against offered load", subtitle));
      console.log(`  chart: ${path.relative(ROOT, CHART)}`);

      report(`latency-open-loop: tail latency at fixed rates (${SERVICES} services x ${KEYS_PER_SERVICE.toLocaleString("en-US")} keys, 50 % duplicates)`, rows, [
        `open loop, Poisson schedule fixed in advance, latency from the scheduled send time; ${SOCKETS} sockets at most (the overload sweep ${SWEEP_SOCKETS}); pgbench -R ${PGBENCH_RATE_CLIENTS} clients, no --latency-limit`,
        `one round of ${SECONDS} s per row${quick ? " (quick: noisy)" : ""}; weir ${weir.mode}; ratios are weir / baseline, lower is better`,
        `load average at the start ${loadAtStart}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (others' work on the box counts in every row)`,
      ]);
    } finally {
      await weir.stop();
      await noop.stop();
      await bare.stop();
    }
  } finally {
    await db.drop();
  }
}

runMain(main);
