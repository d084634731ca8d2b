/**
 * Where weir's tail at a steady load comes from. One weir per suspect, each differing from weir as
 * it ships in one thing only, all driven in turns at the same open-loop rate by the same generator
 * (bench/lib/open-loop.ts, coordinated omission corrected), so a suspect that makes the tail shows
 * as a ratio against the shipped weir within one run. Beside each row, weir's own view of it from
 * /api/metrics: garbage collection (count, time, runs over 10 ms) and event-loop delay.
 * Suspects: Next.js in the same process, the young generation's size (scavenge pauses), no
 * coalescing (one statement per check), cleanup sharing the pool (every second instead of hourly).
 * Suspects: also how many coalesced statements may be in flight at once.
 * Run: npx tsx bench/tail-sources.ts [--quick] [--rate N] [--seconds N] [--rounds N] [--only word,word]. Never fails on timing.
 */
import { createBenchDatabase } from "./lib/db";
import { hasFlag, numberFlag, quick, runMain } from "./lib/cli";
import { settle } from "./lib/check-setup";
import { driveFresh, describeRun } from "./lib/open-loop-drive";
import type { GeneratorResult } from "./lib/open-loop";
import { prepareOpenLoopStore } from "./lib/open-loop-workload";
import { hasNextBuild, serveWeir, type Served } from "./lib/processes";
import { machineLine, ratio, ratioText, report, type Row } from "./lib/report";
import { scrapeRuntime, runtimeDelta, type RuntimeSample } from "./lib/runtime-metrics";

const SERVICES = 20;
const KEYS_PER_SERVICE = 5000;
const RATE = numberFlag("rate", 3000);
const SECONDS = numberFlag("seconds", quick ? 4 : 10);
const ROUNDS = numberFlag("rounds", quick ? 1 : 3);

interface Suspect {
  name: string;
  /** How to read this suspect's ratio to weir as shipped. */
  reading: string;
  apiOnly?: boolean;
  env?: Record<string, string>;
  nodeArgs?: string[];
}

const ALL_SUSPECTS: Suspect[] = [
  { name: "as shipped", reading: "the baseline" },
  ...(hasNextBuild() && !hasFlag("api-only")
    ? [{ name: "without Next in the process", apiOnly: true, reading: "under 1x: Next in the process makes tail" }]
    : []),
  {
    name: "young generation 64 MB (--max-semi-space-size=64)",
    nodeArgs: ["--max-semi-space-size=64"],
    reading: "under 1x: scavenge pauses make tail",
  },
  { name: "no coalescing (WEIR_COALESCE_MAX_BATCH=1)", env: { WEIR_COALESCE_MAX_BATCH: "1" }, reading: "over 1x: coalescing saves tail" },
  ...[8, 16].map((n) => ({
    name: `${n} statements in flight (WEIR_COALESCE_MAX_IN_FLIGHT=${n})`,
    env: { WEIR_COALESCE_MAX_IN_FLIGHT: String(n) },
    reading: "under 1x: checks waiting for one of the statements in flight make tail",
  })),
  { name: "cleanup every second", env: { WEIR_CLEANUP_INTERVAL_MS: "1000" }, reading: "over 1x: cleanup sharing the pool makes tail" },
  { name: "no decision journal (WEIR_JOURNAL=off)", env: { WEIR_JOURNAL: "off" }, reading: "under 1x: the journal's buffer and flushes make tail" },
];

// --only a,b: weir as shipped and the suspects whose names contain one of the words.
const only = process.argv.indexOf("--only");
const words = only >= 0 ? (process.argv[only + 1] ?? "").split(",") : undefined;
const SUSPECTS = ALL_SUSPECTS.filter((s, i) => i === 0 || !words || words.some((word) => s.name.includes(word)));

interface Measured {
  run: GeneratorResult;
  runtime: ReturnType<typeof runtimeDelta>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

async function main(): Promise<void> {
  console.log(`tail-sources: ${machineLine()}; ${RATE} checks/s, ${SECONDS} s per row, ${ROUNDS} round(s)`);
  const db = await createBenchDatabase("tail_sources");
  const servers: Served[] = [];
  try {
    const { token, adminToken } = await prepareOpenLoopStore(db, SERVICES, KEYS_PER_SERVICE);
    for (const suspect of SUSPECTS) servers.push(await serveWeir(db.url, { apiOnly: suspect.apiOnly, env: suspect.env, nodeArgs: suspect.nodeArgs }));
    let seed = 501;
    const drive = (url: string, load: { rate?: number; closed?: number }, seconds: number) =>
      driveFresh({
        spec: { url, path: "/api/v1/check", token, rate: load.rate, closedConnections: load.closed, seconds, warmupSeconds: 1, maxSockets: 64, seed: seed++ },
        workload: { services: SERVICES, keysPerService: KEYS_PER_SERVICE },
      });
    // JIT and caches: every weir warms up alike before anything is measured.
    for (const server of servers) await drive(server.url, { closed: 64 }, quick ? 4 : 8);

    const measured: Measured[][] = SUSPECTS.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = SUSPECTS.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) {
        await settle(db);
        const before: RuntimeSample = await scrapeRuntime(servers[i]!.url, adminToken);
        const run = await drive(servers[i]!.url, { rate: RATE }, SECONDS);
        const runtime = runtimeDelta(before, await scrapeRuntime(servers[i]!.url, adminToken));
        console.log(`  round ${round + 1}, ${SUSPECTS[i]!.name}: ${describeRun(run)}; GC ${runtime.describe}`);
        measured[i]!.push({ run, runtime });
      }
    }

    const rows: Row[] = [];
    const of = (i: number, pick: (m: Measured) => number) => median(measured[i]!.map(pick));
    for (const [i, suspect] of SUSPECTS.entries()) {
      const latency = (p: "p50" | "p99" | "p999") => of(i, (m) => m.run.all[p]);
      const shipped = (p: "p50" | "p99" | "p999") => of(0, (m) => m.run.all[p]);
      rows.push({
        metric: `${suspect.name}: p50 / p99 / p99.9 at ${RATE.toLocaleString("en-US")}/s`,
        unit: "ms",
        ours: `${latency("p50").toFixed(2)} / ${latency("p99").toFixed(2)} / ${latency("p999").toFixed(2)}`,
        baseline: i === 0 ? undefined : `${shipped("p50").toFixed(2)} / ${shipped("p99").toFixed(2)} / ${shipped("p999").toFixed(2)}`,
        baselineName: "as shipped",
        ratio: i === 0 ? undefined : ["p50", "p99", "p999"].map((p) => ratioText(ratio(latency(p as "p50"), shipped(p as "p50")))).join(" / "),
        target: `info (${suspect.reading})`,
      });
      rows.push({
        metric: `${suspect.name}: GC per second (count, ms, runs over 10 ms), event-loop delay p99`,
        ours: `${of(i, (m) => m.runtime.gcPerSecond).toFixed(1)}, ${of(i, (m) => m.runtime.gcMsPerSecond).toFixed(1)} ms, ${of(i, (m) => m.runtime.longGcPauses)}; ${of(i, (m) => m.runtime.loopDelayP99Ms).toFixed(1)} ms`,
        target: "info",
      });
    }
    report(`tail-sources: what makes weir's tail at ${RATE.toLocaleString("en-US")} checks/s (20 services x 5,000 keys, 50 % duplicates)`, rows, [
      `each suspect a weir of its own differing from weir as shipped in one thing; medians of ${ROUNDS} round(s) of ${SECONDS} s, suspects in alternating order`,
      "GC and event-loop delay from each weir's /api/metrics (prom-client's GC histogram, weir_event_loop_delay_seconds), before and after its row",
    ]);
  } finally {
    for (const server of servers) await server.stop();
    await db.drop();
  }
}

runMain(main);
