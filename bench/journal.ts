/**
 * What the decision journal costs, in one run, against the same build with the journal off
 * (WEIR_JOURNAL=off: no subscriber, nothing buffered), both serving one database:
 *  1. single checks/s at 64 connections, 50 % duplicates over existing keys, in alternating rounds
 *     (the order flips each round); a row is the median of the within-round ratios;
 *  2. WAL per decision for a fixed number of checks (the mix, then duplicates only), read after
 *     the journal has written them, and the journal's bytes per entry on disk, indexes included;
 *  3. a replay storm of duplicates through the batch API: every answer journaled, none dropped,
 *     and how long after the last answer the journal holds them all.
 * Run: npx tsx bench/journal.ts [--quick] [--seconds N] [--rounds N] [--storm N] [--env K=V (the "on" server)]. Never fails on timing.
 */
import { envFlags, numberFlag, quick, runMain, sleep } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import type { BenchDatabase } from "./lib/db";
import { journalDisk, journalRows, replayStorm, waitForWritten, type Storm } from "./lib/journal-probe";
import { describeLoad, drive } from "./lib/load";
import { driveCheckMixFresh } from "./lib/load-fresh";
import { cpuSplit, serveWeir, type Served } from "./lib/processes";
import { machineLine, median, ratio, report, type Row } from "./lib/report";
import { mintToken } from "./lib/token";
import { currentLsn, enableWalInspect, reserveWal, walBetween, type WalUse } from "./lib/wal";
import { CheckMix, registerService, seedLastSeen } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 50_000 : 1_000_000);
// Many short rounds: on a shared box a neighbour's burst lasts seconds, and then hits both settings alike.
const SECONDS = numberFlag("seconds", quick ? 2 : 5);
const ROUNDS = numberFlag("rounds", quick ? 2 : 12);
const CONNECTIONS = 64;
const WAL_DECISIONS = numberFlag("wal-decisions", quick ? 2_000 : 30_000);
const STORM = numberFlag("storm", quick ? 10_000 : 100_000);
const STORM_SERVICE = "storm";

type Setting = "on" | "off";
type Servers = Record<Setting, Served>;

/** The bench's view of the "on" server: what it has answered, so that a wait for its journal knows its target. */
class Journaled {
  answered = 0;
  constructor(
    private readonly server: Served,
    private readonly token: string,
  ) {}

  /** Resolves once every answer so far is written (or dropped): the counter moves after each append commits. */
  drained() {
    return waitForWritten(this.server.url, this.token, this.answered);
  }
}

const answeredBy = (r: { requests: number; non2xx: number }) => r.requests - r.non2xx;

/** Alternating rounds of single checks; an "on" round lasts until its answers are written, so their appends count in its CPU. */
async function throughput(db: BenchDatabase, token: string, servers: Servers, journaled: Journaled) {
  let seed = 11;
  const load = (setting: Setting, seconds: number) =>
    driveCheckMixFresh({ url: servers[setting].url, token, serviceId: SERVICE, keys: KEYS, seed: seed++, connections: CONNECTIONS, seconds });
  const rps: Record<Setting, number[]> = { on: [], off: [] };
  const perCpu: Record<Setting, number[]> = { on: [], off: [] };
  const serverUs: Record<Setting, number[]> = { on: [], off: [] };
  const postgresUs: Record<Setting, number[]> = { on: [], off: [] };
  const peakRss: Record<Setting, number> = { on: 0, off: 0 };
  for (let round = 0; round <= ROUNDS; round++) {
    for (const setting of round % 2 === 1 ? (["on", "off"] as const) : (["off", "on"] as const)) {
      await settle(db);
      const sampler = setInterval(() => (peakRss[setting] = Math.max(peakRss[setting], servers[setting].rssBytes())), 250);
      const run = await cpuSplit(
        servers[setting].pid,
        db,
        async () => {
          // Round 0 warms up (JIT, pools, the service cache) and is not counted.
          const result = await load(setting, round === 0 ? 1 : SECONDS);
          if (setting === "on") {
            journaled.answered += answeredBy(result);
            await journaled.drained();
          }
          return result;
        },
        answeredBy,
      );
      clearInterval(sampler);
      if (round === 0) continue;
      rps[setting].push(run.result.rps);
      perCpu[setting].push(1e6 / run.totalUs);
      serverUs[setting].push(run.serverUs);
      postgresUs[setting].push(run.postgresUs);
      console.log(`  round ${round} journal ${setting}: ${describeLoad(run.result)}; CPU/check: server ${run.serverUs.toFixed(0)} us, postgres ${run.postgresUs.toFixed(0)} us`);
    }
  }
  const within = (values: Record<Setting, number[]>) => median(values.on.map((on, i) => ratio(on, values.off[i]!)));
  const rows: Row[] = [
    { metric: "single checks, journal on vs off", unit: "checks/s", ours: median(rps.on), baseline: median(rps.off), baselineName: "off", ratio: within(rps), target: ">= 0.9x" },
    { metric: "CPU-normalised, on vs off", unit: "checks per CPU-s", ours: median(perCpu.on), baseline: median(perCpu.off), baselineName: "off", ratio: within(perCpu), target: "info (>= 0.9x)" },
    // Where the journal's cost lands: weir's process (entries, batches) and PostgreSQL (the appends).
    { metric: "weir process CPU per check", unit: "us", ours: median(serverUs.on), baseline: median(serverUs.off), baselineName: "off", ratio: within({ on: serverUs.off, off: serverUs.on }), target: "info (off / on)" },
    { metric: "PostgreSQL CPU per check", unit: "us", ours: median(postgresUs.on), baseline: median(postgresUs.off), baselineName: "off", ratio: within({ on: postgresUs.off, off: postgresUs.on }), target: "info (off / on)" },
  ];
  return { rows, peakRss };
}

type WalRun = WalUse & { decisions: number };

/** WAL of a fixed number of checks after a checkpoint, read once the journal has written them and the stats have flushed (every 2 s). */
async function walPerDecision(db: BenchDatabase, token: string, servers: Servers, journaled: Journaled): Promise<Row[]> {
  let seed = 23;
  const walOf = async (setting: Setting, mix: CheckMix): Promise<WalRun> => {
    const from = await currentLsn(db.pool);
    const result = await drive({ url: servers[setting].url, path: "/api/v1/check", token, body: () => mix.checkBody(SERVICE), connections: CONNECTIONS, amount: WAL_DECISIONS, seconds: 600 });
    // A check refused (503 overloaded on a busy box) decides nothing and writes nothing: only answers count.
    if (setting === "on") journaled.answered += answeredBy(result);
    await journaled.drained();
    await sleep(2500);
    return { ...(await walBetween(db.pool, from, await currentLsn(db.pool))), decisions: answeredBy(result) };
  };
  const wal = async (setting: Setting, duplicateShare: number): Promise<WalRun> => {
    const mix = new CheckMix(KEYS, seed++, duplicateShare);
    await settle(db);
    const held = await reserveWal(db.pool);
    try {
      return await walOf(setting, mix);
    } finally {
      await held.release();
    }
  };
  const mixOff = await wal("off", 0.5);
  const mixOn = await wal("on", 0.5);
  const per = (w: WalRun, withFpi = false) => (w.databaseBytes - (withFpi ? 0 : w.fpiBytes)) / Math.max(1, w.decisions);
  const row = (metric: string, on: WalRun, off: WalRun, withFpi = false): Row => ({
    metric,
    unit: withFpi ? "B, with page images" : "B",
    ours: per(on, withFpi),
    baseline: per(off, withFpi),
    baselineName: "off",
    ratio: `+${(per(on, withFpi) - per(off, withFpi)).toFixed(0)} B`,
    target: "measured",
  });
  const rows = [row("WAL per decision, 50 % duplicates", mixOn, mixOff), { ...row("WAL per decision, 50 % duplicates", mixOn, mixOff, true), target: "info" }];
  // Duplicates alone, which write no state: the journal's own WAL. Left to the full run, to keep CI's short.
  if (!quick) rows.splice(1, 0, row("WAL per decision, duplicates only", await wal("on", 1), await wal("off", 1)));
  return rows;
}

/** A replay storm through each server (the first, through "off", warms the keys' pages), then how long the journal takes to hold it all. */
async function storm(db: BenchDatabase, token: string, servers: Servers, journaled: Journaled, peakRss: Record<Setting, number>): Promise<Row[]> {
  const through = (setting: Setting) => replayStorm({ url: servers[setting].url, token, serviceId: STORM_SERVICE, keys: STORM, perRequest: 1000, connections: 4 });
  await through("off");
  const off = await through("off");
  const before = await journaled.drained();
  const rowsBefore = await journalRows(db.pool, "last_seen", STORM_SERVICE);
  const sampler = setInterval(() => (peakRss.on = Math.max(peakRss.on, servers.on.rssBytes())), 100);
  const on: Storm = await through("on");
  journaled.answered += on.answered;
  let rows = 0;
  let caughtUpAt = Number.NaN;
  for (const deadline = performance.now() + 60_000; performance.now() < deadline; await sleep(100)) {
    rows = (await journalRows(db.pool, "last_seen", STORM_SERVICE)) - rowsBefore;
    if (rows >= on.answered) {
      caughtUpAt = performance.now();
      break;
    }
  }
  clearInterval(sampler);
  const after = await journaled.drained();
  if (on.duplicates !== STORM) throw new Error(`the storm expected ${STORM} duplicates, got ${on.duplicates}`);
  const rate = (s: Storm) => s.answered / s.seconds;
  return [
    { metric: `storm of ${STORM.toLocaleString("en-US")} duplicates: entries lost`, ours: String(on.answered - rows), baseline: `${rows} of ${on.answered} journaled, ${after.dropped - before.dropped} dropped`, target: "0" },
    { metric: "storm: journal complete after the last answer", unit: "s", ours: (caughtUpAt - on.lastAnswerAt) / 1000, target: "within seconds" },
    { metric: "storm answered, journal on vs off", unit: "keys/s", ours: rate(on), baseline: rate(off), baselineName: "off", ratio: ratio(rate(on), rate(off)), target: "info" },
  ];
}

async function measure(db: BenchDatabase, token: string, servers: Servers): Promise<void> {
  for (const setting of ["on", "off"] as const) await assertDecisions(servers[setting].url, token, KEYS);
  const journaled = new Journaled(servers.on, token);
  journaled.answered = 2; // assertDecisions' two checks
  const { rows: speed, peakRss } = await throughput(db, token, servers, journaled);
  const wal = await walPerDecision(db, token, servers, journaled);
  const stormed = await storm(db, token, servers, journaled, peakRss);
  const disk = await journalDisk(db.pool);
  const mib = (bytes: number) => bytes / 2 ** 20;
  report(
    "journal: the decision journal on against off (same build, same database)",
    [
      ...speed,
      ...wal,
      { metric: "on disk per entry, indexes included", unit: "B", ours: disk.totalBytes / Math.max(1, disk.entries), target: "measured" },
      { metric: "on disk per entry, heap only", unit: "B", ours: disk.heapBytes / Math.max(1, disk.entries), target: "info" },
      ...stormed,
      { metric: "peak RSS, journal on vs off", unit: "MB", ours: mib(peakRss.on), baseline: mib(peakRss.off), baselineName: "off", ratio: ratio(peakRss.on, peakRss.off), target: "info" },
    ],
    [
      `medians of ${ROUNDS} round(s) of ${SECONDS} s per setting, order flipped each round; ${CONNECTIONS} connections (autocannon, a fresh process per run), 50 % duplicates over ${KEYS.toLocaleString("en-US")} keys; ratio = median of the within-round ratios; API-only servers`,
      `every subject at level "all"; an "on" round ends when its answers are all written, so the appends count in its CPU`,
      `WAL: ${WAL_DECISIONS.toLocaleString("en-US")} checks per run after a checkpoint, this database's records only (pg_walinspect), stats flushes included, page images left out unless said`,
      `disk: ${disk.entries.toLocaleString("en-US")} entries in ${disk.partitions} daily partition(s), ${mib(disk.totalBytes).toFixed(1)} MiB (heap ${mib(disk.heapBytes).toFixed(1)} MiB); caller "token:<uuid>", a generated request id, no trace id`,
      `storm: ${Math.ceil(STORM / 1000)} batches of 1000 already-seen keys on 4 connections through POST /api/v1/check/batch`,
    ],
  );
}

async function main(): Promise<void> {
  console.log(`journal: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} round(s) x ${SECONDS} s per setting, storm of ${STORM.toLocaleString("en-US")} duplicates`);
  const { db } = await prepareCheckDatabase("journal", KEYS);
  const servers: Partial<Servers> = {};
  try {
    await enableWalInspect(db.pool);
    await registerService(db.pool, STORM_SERVICE, 0);
    await seedLastSeen(db.pool, STORM_SERVICE, STORM);
    await db.pool.query("vacuum analyze last_seen");
    const token = await mintToken(db.store.db, { services: [SERVICE, STORM_SERVICE] });
    // API only: server.ts's process writes the journal whichever doors it serves.
    // Both start at once (each bundles server.ts first, one after the other): the waits for readiness overlap.
    const started = await Promise.allSettled([
      serveWeir(db.url, { apiOnly: true, env: { ...envFlags(), WEIR_JOURNAL: "on" } }).then((s) => (servers.on = s)),
      serveWeir(db.url, { apiOnly: true, env: { WEIR_JOURNAL: "off" } }).then((s) => (servers.off = s)),
    ]);
    for (const result of started) if (result.status === "rejected") throw result.reason;
    await measure(db, token, servers as Servers);
  } finally {
    await servers.on?.stop();
    await servers.off?.stop();
    await db.drop();
  }
}

runMain(main);
