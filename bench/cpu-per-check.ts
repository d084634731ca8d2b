/**
 * The server's own CPU per single check (POST /api/v1/check, 50 % duplicates, 64 connections):
 * weir against the bare node:http+pg server (bench/baselines/bare-check-server.ts) in alternating
 * rounds of the same run, and optionally against another checkout of weir (`--base DIR`, e.g. a
 * worktree of the commit before a change, with its node_modules), so a change is measured as a
 * ratio on a shared box. CPU per check is the server process's user + system time over the
 * checks it answered (/proc/<pid>/stat), as in check-single.ts.
 *
 * `--profile` runs weir under `node --cpu-prof` and prints where its CPU went inside the load
 * windows: self time by group (weir module, node internals, pg, ...) and the top functions, in
 * µs per check (docs/performance-cpu.md). The profiler costs CPU itself: read its µs as shares;
 * take the CPU figures from a run without it.
 *
 * A third contender is the floor: a node:http server that reads each request's body and answers a
 * fixed decision (bench/lib/open-loop-noop-server.ts), no JSON, no hash, no database. What it spends per
 * request is what any node:http server spends on this box before doing anything, so weir's figure is
 * read against it as well as against the bare server. A fourth is the bare server with coalescing
 * and nothing else (bench/baselines/bare-coalesced-server.ts): the least a server that batches its
 * checks as weir does spends here, before authentication, limits, metrics, journal and stats.
 *
 * `--rate N` drives an open loop at N checks/s (20 services, bench/lib/open-loop.ts) instead of 64
 * closed connections: every contender then gets the same arrivals, so the coalescer's batches
 * (and the statements per check) do not move with how fast each one answers, and neighbours'
 * bursts on a shared box move the figures less.
 *
 * Run: npx tsx bench/cpu-per-check.ts [--keys N] [--seconds N] [--rounds N] [--rate N] [--base DIR] [--env K=V] [--profile] [--top N]
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { envFlags, hasFlag, numberFlag, runMain, sleep } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import { monotonicUs, printProfileSummary, type Window } from "./lib/cpu-profile";
import { createBenchDatabase, type BenchDatabase } from "./lib/db";
import { driveFresh } from "./lib/open-loop-drive";
import { prepareOpenLoopStore } from "./lib/open-loop-workload";
import { driveCheckMixFresh } from "./lib/load-fresh";
import { cpuSplit, ROOT, serve, serveWeir, type Served } from "./lib/processes";
import { machineLine, median } from "./lib/report";

const KEYS = numberFlag("keys", 100_000);
const SECONDS = numberFlag("seconds", 10);
const ROUNDS = numberFlag("rounds", 3);
const TOP = numberFlag("top", 25);
const CONNECTIONS = 64;
const RATE = hasFlag("rate") ? numberFlag("rate", 1000) : undefined;
const RATE_SERVICES = 20;
const PROFILE_DIR = path.join(ROOT, ".bench-profiles");
const NOOP = "no-op node:http";
const BARE = "bare node:http+pg";
/** The bare server plus coalescing: the least a coalescing check server spends here. */
const COALESCED = "bare, coalesced";

function baseDir(): string | undefined {
  const at = process.argv.indexOf("--base");
  return at < 0 ? undefined : path.resolve(process.argv[at + 1] ?? "");
}

interface Contender {
  name: string;
  served: Served;
  token: boolean;
  /** Answers without deciding (the no-op floor): its answers are not checked. */
  floor: boolean;
  serverUs: number[];
  rps: number[];
  windows: Window[];
  checks: number;
  /** Server CPU over every measured round (µs per check times checks, summed), for the profile's scale. */
  cpuSeconds: number;
}

/** Transactions the database has run so far: how many statements the checks took (weir coalesces them). */
async function transactions(db: BenchDatabase): Promise<number> {
  const { rows } = await db.pool.query<{ n: string }>("select xact_commit + xact_rollback as n from pg_stat_database where datname = $1", [db.name]);
  return Number(rows[0]?.n ?? 0);
}

/** The open-loop benches' store: RATE_SERVICES services sharing KEYS seeded keys, and a token for them. */
async function prepareRateDatabase(): Promise<{ db: BenchDatabase; token: string }> {
  const db = await createBenchDatabase("cpu_per_check");
  try {
    const { token } = await prepareOpenLoopStore(db, RATE_SERVICES, KEYS / RATE_SERVICES);
    return { db, token };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

async function main(): Promise<void> {
  const profile = hasFlag("profile");
  const base = baseDir();
  console.log(`cpu-per-check: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} round(s) x ${SECONDS} s, ${RATE ? `open loop at ${RATE} checks/s` : `${CONNECTIONS} connections`}${profile ? ", weir under --cpu-prof" : ""}`);
  const { db, token } = RATE ? await prepareRateDatabase() : await prepareCheckDatabase("cpu_per_check", KEYS);
  mkdirSync(PROFILE_DIR, { recursive: true });
  const startedAt = Date.now();
  const contenders: Contender[] = [];
  const add = (name: string, served: Served, withToken: boolean, floor = false) =>
    contenders.push({ name, served, token: withToken, floor, serverUs: [], rps: [], windows: [], checks: 0, cpuSeconds: 0 });
  try {
    const nodeArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    // --env K=V (repeatable) goes to both weirs, e.g. WEIR_COALESCE_MAX_IN_FLIGHT=1 to hold the batching alike.
    const env = envFlags();
    add("weir", await serveWeir(db.url, { apiOnly: true, nodeArgs, env }), true);
    if (base) add(`weir at ${path.basename(base)}`, await serveWeir(db.url, { apiOnly: true, root: base, label: "base weir server", env }), true);
    add(NOOP, await serve("bench/lib/open-loop-noop-server.ts", {}, { readyPath: "/", label: "no-op server" }), false, true);
    add(COALESCED, await serve("bench/baselines/bare-coalesced-server.ts", { DATABASE_URL: db.url }, { label: "bare coalesced server" }), false);
    add(BARE, await serve("bench/baselines/bare-check-server.ts", { DATABASE_URL: db.url }, { label: "bare server" }), false);
    let seed = 21;
    const load = async (c: Contender, seconds: number): Promise<{ requests: number; rps: number; bad: number }> => {
      const withToken = c.token ? token : undefined;
      if (RATE) {
        const spec = { url: c.served.url, path: "/api/v1/check", token: withToken, rate: RATE, seconds, warmupSeconds: 0, maxSockets: CONNECTIONS, seed: seed++ };
        const r = await driveFresh({ spec, workload: { services: RATE_SERVICES, keysPerService: KEYS / RATE_SERVICES } });
        return { requests: r.sent, rps: r.achieved, bad: r.errors + r.sent - (r.statuses["200"] ?? 0) };
      }
      const r = await driveCheckMixFresh({ url: c.served.url, token: withToken, serviceId: SERVICE, keys: KEYS, seed: seed++, connections: CONNECTIONS, seconds });
      return { requests: r.requests, rps: r.rps, bad: r.non2xx + r.errors };
    };
    for (const c of contenders) {
      if (!RATE && !c.floor) await assertDecisions(c.served.url, c.token ? token : undefined, KEYS);
      await load(c, 3); // warm-up: JIT, prepared statements, pools, caches
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const c of contenders) {
        await settle(db);
        await sleep(1100);
        const xacts0 = await transactions(db);
        const fromUs = monotonicUs();
        const run = await cpuSplit(c.served.pid, db, () => load(c, SECONDS), (r) => r.requests);
        c.windows.push({ fromUs, toUs: monotonicUs() });
        // A backend reports its counts to pg_stat_database at most once a second.
        await sleep(1100);
        const perCheck = ((await transactions(db)) - xacts0) / run.result.requests;
        c.checks += run.result.requests;
        c.cpuSeconds += (run.serverUs * run.result.requests) / 1e6;
        c.serverUs.push(run.serverUs);
        c.rps.push(run.result.rps);
        const bad = run.result.bad;
        console.log(`  round ${round} ${c.name}: ${Math.round(run.result.rps)} checks/s, server CPU ${run.serverUs.toFixed(1)} µs/check, postgres ${run.postgresUs.toFixed(1)} µs, ${perCheck.toFixed(2)} transactions/check${bad ? `, ${bad} non-2xx/errors` : ""}`);
        await sleep(300);
      }
    }
  } finally {
    for (const c of contenders) await c.served.stop();
    await db.drop();
  }
  const bare = contenders.find((c) => c.name === BARE)!;
  const floor = contenders.find((c) => c.floor)!;
  console.log("\nserver CPU per check (median of rounds), and its ratio to the bare server's and the no-op floor's in the same run:");
  for (const c of contenders) {
    const us = median(c.serverUs);
    console.log(`  ${c.name.padEnd(22)} ${us.toFixed(1).padStart(6)} µs/check  ${(us / median(bare.serverUs)).toFixed(2)}x bare  ${(us / median(floor.serverUs)).toFixed(2)}x no-op  (${Math.round(median(c.rps))} checks/s)`);
  }
  if (base) console.log(`  weir / weir at ${path.basename(base)}: ${(median(contenders[0]!.serverUs) / median(contenders[1]!.serverUs)).toFixed(2)}x`);
  if (profile) printProfileSummary(PROFILE_DIR, startedAt, contenders[0]!.windows, contenders[0]!.checks, TOP, contenders[0]!.cpuSeconds / contenders[0]!.checks * 1e6);
}

runMain(main);
