/**
 * Steady from the start: weir started on a fresh database with `--keys` keys (20,000),
 * driven at 50 % changes for `--seconds` (300), with checks/s per `--window` (15 s)
 * and each window's ratio to the run's median. Alongside, from pg_stat_user_tables:
 * last_seen's updates, the share of HOT updates, dead tuples, autovacuum passes and
 * size, so a sag can be laid beside the table's state. Autovacuum runs as configured.
 * Target (issue 27): no window below 0.8x the median, dead tuples bounded.
 * Run: npx tsx bench/steady-start.ts [--quick] [--seconds 90] [--connections 32] [--api-only]
 *   [--env K=V] [--node-arg FLAG] [--setup-sql "alter table ..."] (the latter to try a layout before weir starts).
 * On a PostgreSQL with stock settings (autovacuum on): npx tsx bench/on-stock-cluster.ts bench/steady-start.ts
 * Never fails on timing.
 */
import autocannon from "autocannon";
import { envFlags, hasFlag, nodeArgFlags, numberFlag, quick, runMain } from "./lib/cli";
import { assertDecisions, SERVICE } from "./lib/check-setup";
import { createBenchDatabase } from "./lib/db";
import { serveWeir } from "./lib/processes";
import { fmt, machineLine, printTable, report } from "./lib/report";
import { mintToken } from "./lib/token";
import { tableState, WindowCpu, type TableState } from "./lib/table-state";
import { CheckMix, createPayloadFunctions, registerService, seedLastSeen } from "./lib/workload";

const KEYS = numberFlag("keys", 20_000);
const SECONDS = numberFlag("seconds", quick ? 30 : 300);
const WINDOW = numberFlag("window", quick ? 5 : 15);
const CONNECTIONS = numberFlag("connections", 32);

function setupSql(): string[] {
  return process.argv.flatMap((arg, i) => (arg === "--setup-sql" ? [process.argv[i + 1] ?? ""] : [])).filter(Boolean);
}

interface Window {
  index: number;
  rps: number;
  /** Checks per CPU-second of the server and the database's backends. */
  perCpu: number;
  /** CPU microseconds per check: the server's and the database's (autovacuum's included). */
  serverUs: number;
  databaseUs: number;
  non2xx: number;
  state: TableState;
}

async function main(): Promise<void> {
  console.log(`steady-start: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, 50 % changes, ${CONNECTIONS} connections, ${SECONDS} s`);
  const db = await createBenchDatabase("steady_start");
  try {
    await createPayloadFunctions(db.pool);
    await registerService(db.pool, SERVICE, 0);
    for (const statement of setupSql()) await db.pool.query(statement);
    await seedLastSeen(db.pool, SERVICE, KEYS);
    const token = await mintToken(db.store.db, { services: [SERVICE] });
    const { rows } = await db.pool.query<{ on: string; nap: string }>("select current_setting('autovacuum') as on, current_setting('autovacuum_naptime') as nap");
    // A cluster with autovacuum off (some CI configurations) never vacuums: dead tuples then grow with every non-HOT update.
    console.log(`  autovacuum ${rows[0]!.on} (naptime ${rows[0]!.nap})`);
    const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only"), env: envFlags(), nodeArgs: nodeArgFlags() });
    console.log(`  weir: ${weir.mode}`);
    try {
      await assertDecisions(weir.url, token, KEYS);
      const cpu = new WindowCpu(db.pool, db.name, weir.pid);
      const windows = await run(weir.url, token, db.pool, cpu).finally(() => cpu.stop());
      print(windows);
    } finally {
      await weir.stop();
    }
  } finally {
    await db.drop();
  }
}

async function run(url: string, token: string, pool: Parameters<typeof tableState>[0], cpu: WindowCpu): Promise<Window[]> {
  const mix = new CheckMix(KEYS, 11);
  let ok = 0;
  let bad = 0;
  const statuses = new Map<number, number>();
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS + 60,
    timeout: 10,
    requests: [
      {
        method: "POST",
        path: "/api/v1/check",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        setupRequest: (request) => ({ ...request, body: mix.checkBody(SERVICE) }),
        onResponse: (status) => {
          if (status === 200) return void ok++;
          bad++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  const windows: Window[] = [];
  const count = Math.max(1, Math.floor(SECONDS / WINDOW));
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let last = performance.now();
  let sampling = Promise.resolve();
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const w = { index: ticks++, checks: ok, rps: ok / ((now - last) / 1000), non2xx: bad };
    ok = 0;
    bad = 0;
    last = now;
    sampling = sampling.then(async () => {
      const used = await cpu.next();
      const state = await tableState(pool);
      const perCpu = w.checks / Math.max(0.01, used.server + used.database);
      const us = (seconds: number) => (1e6 * seconds) / Math.max(1, w.checks);
      windows.push({ index: w.index, rps: w.rps, perCpu, serverUs: us(used.server), databaseUs: us(used.database), non2xx: w.non2xx, state });
      // A line as each window ends, so a long run shows its course while it runs.
      console.log(
        `  ${(w.index + 1) * WINDOW} s: ${fmt(w.rps)} checks/s, ${fmt(perCpu)} per CPU-s, ${fmt(state.updates)} updates (${fmt(state.hotUpdates)} HOT), ${fmt(state.dead)} dead`,
      );
    });
    // Whole windows only: the load stops at the end of the last one.
    if (ticks >= count) done();
  }, WINDOW * 1000);
  await finished;
  clearInterval(timer);
  instance.stop();
  await instance;
  await sampling;
  if (statuses.size) console.log(`  answers other than 200: ${JSON.stringify(Object.fromEntries(statuses))}`);
  return windows;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function print(windows: Window[]): void {
  const med = median(windows.map((w) => w.rps));
  const medCpu = median(windows.map((w) => w.perCpu));
  console.log(`\nper ${WINDOW} s window (last_seen from pg_stat_user_tables at the window's end):`);
  printTable(
    ["window", "checks/s", "x median", "per CPU-s", "x median", "server us", "db us", "non-2xx", "updates", "HOT", "dead", "live", "autovacuums", "size"],
    windows.map((w) => [
      `${w.index * WINDOW}-${(w.index + 1) * WINDOW} s`,
      fmt(w.rps),
      (w.rps / med).toFixed(2),
      fmt(w.perCpu),
      (w.perCpu / medCpu).toFixed(2),
      fmt(w.serverUs, 0),
      fmt(w.databaseUs, 0),
      String(w.non2xx),
      fmt(w.state.updates),
      `${((100 * w.state.hotUpdates) / Math.max(1, w.state.updates)).toFixed(1)} %`,
      fmt(w.state.dead),
      fmt(w.state.live),
      String(w.state.autovacuums),
      `${(w.state.bytes / 2 ** 20).toFixed(1)} MB`,
    ]),
  );
  const min = Math.min(...windows.map((w) => w.rps / med));
  const minCpu = Math.min(...windows.map((w) => w.perCpu / medCpu));
  const end = windows.at(-1)?.state;
  const maxDead = Math.max(...windows.map((w) => w.state.dead));
  const hotShare = end ? end.hotUpdates / Math.max(1, end.updates) : 0;
  report(
    "steady from the start",
    [
      { metric: "median checks/s", ours: med, target: "(reference)" },
      { metric: "lowest window / median", ours: `${min.toFixed(2)}x`, target: ">= 0.8x", met: min >= 0.8 },
      { metric: "checks per CPU-s, median", ours: medCpu, target: "(reference)" },
      { metric: "lowest window / median, per CPU-s", ours: `${minCpu.toFixed(2)}x`, target: "(shared box: steadier)" },
      { metric: "HOT share of updates", ours: `${(100 * hotShare).toFixed(1)} %`, target: "reported" },
      { metric: "most dead tuples seen", ours: maxDead, baseline: KEYS, baselineName: "keys", ratio: maxDead / KEYS, target: "bounded" },
    ],
    ["windows include the run's first seconds after weir started; ratios are to this run's own median (shared box)."],
  );
}

runMain(main);
