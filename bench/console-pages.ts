/**
 * Server time of every console page at scale: loads N last-seen keys (plus kept
 * payload versions, claims, idempotency keys in every state, audit rows, a week of
 * stats and two days of the decision journal at N / 500 answers an hour, and a
 * finished reset) into a database of its own, starts weir's production server on it
 * (from a private copy of the `npm run build` output), signs in as an admin and times
 * each console page's full HTML response over loopback: median and p95 of --requests requests after a warm-up pass over every page and WARM_UPS warm-ups each,
 * next to the 50 ms target and the same server's /api/health in the same run, and the server's CPU per request.
 * Run: npx tsx bench/console-pages.ts [--keys N (default 200,000)] [--requests 20]. WEIR_BENCH_KEEP_DB=1 keeps
 * the database (for EXPLAIN); --reuse-database times the pages again on it without loading it again.
 * --hash-index-cost [--keys N] [--rounds 3] [--seconds 10]: instead, what an index on last_seen(hash),
 * which a lookup by hash would need, costs the check statement (see lib/hash-index-cost.ts).
 * --profile: weir runs under `node --cpu-prof`; the bench then prints where the server's CPU went during
 * the timed requests of the overview (24 h), the services list and tokens (the rendering floor), one by one.
 * Not part of `npm run bench`. Never fails on timing.
 */
import http from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { hasFlag, numberFlag, runMain } from "./lib/cli";
import { catchUpJournalAnswers, consoleShape, seedConsole, seedJournal, seedReset, svc } from "./lib/console-pages-seed";
import { createBenchDatabase, type BenchDatabase } from "./lib/db";
import { measureHashIndexCost } from "./lib/hash-index-cost";
import { reuseBenchDatabase } from "./lib/reuse-db";
import { snapshotBuild } from "./lib/build-snapshot";
import { monotonicUs, printProfileSummary, type Window } from "./lib/cpu-profile";
import { cpuSecondsOf, serve } from "./lib/processes";
import { machineLine, median, percentile, report, type Row } from "./lib/report";

const KEYS = numberFlag("keys", 200_000);
const REQUESTS = numberFlag("requests", 20);
const TARGET_MS = 50;
/**
 * Requests each page gets before its timed ones. V8 optimises a page's own code (its components,
 * loaders, SQL builders) only after it has run many times: with 2 warm-ups, most of a page's slowest
 * requests were its first 10–15, on a server that had just started (29 Nov 2026, 10 M keys). A
 * console in use is past them; the note under the table gives the warm-ups' own p95.
 */
const WARM_UPS = 20;
/** The pages --profile summarises: the two that miss the target and the floor they are compared with. */
const PROFILED = ["overview (24 h)", "services", "tokens"];
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-0123" };

/** The warm-ups' p95 over the pages: the lowest, the median and the highest, with its page. */
function warmUpSummary(p95s: Map<string, number>): string {
  const pages = [...p95s].filter(([name]) => !name.includes("health")).sort((a, b) => a[1] - b[1]);
  const [low, high] = [pages[0]!, pages[pages.length - 1]!];
  return `${low[1].toFixed(1)} ms at the least, ${median(pages.map(([, ms]) => ms)).toFixed(1)} the median page, ${high[1].toFixed(1)} at the most (${high[0]})`;
}

interface Page {
  name: string;
  /** The path for request i (rotating services or keys where a page has many). */
  path: (i: number) => string;
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * One connection, kept open, like a browser's. node:http rather than fetch: fetch's web streams and
 * its decompression cost this client 1.3 ms a page and 3–4 ms of p95 on the overview (29 Nov 2026),
 * time spent on the same two cores that is not the server's.
 */
const client = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One timed GET: the whole body read, so rendering and streaming count; gzip accepted, as browsers do, and unpacked after the clock stops. */
function timedGet(url: string, cookie: string): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = http.get(url, { agent: client, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const ms = performance.now() - t;
        const raw = Buffer.concat(chunks);
        const body = (res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
        resolve({ ms, status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", reject);
  });
}

/** The href of a pager link (`after=` or `before=`) in a rendered page, unescaped. */
function pagerHref(html: string, param: "after" | "before"): string {
  const match = new RegExp(`href="([^"]*[?&](?:amp;)?${param}=[^"]*)"`).exec(html);
  if (!match) throw new Error(`no ${param} link on the page`);
  return match[1]!.replaceAll("&amp;", "&");
}

async function main(): Promise<void> {
  if (hasFlag("hash-index-cost")) {
    const keys = numberFlag("keys", 1_000_000);
    console.log(`console-pages --hash-index-cost: ${machineLine()}; ${keys.toLocaleString("en-US")} keys`);
    const rows = await measureHashIndexCost(keys, numberFlag("rounds", 3), numberFlag("seconds", 10));
    return report("cost of an index on last_seen(hash) to the check statement (pgbench, 32 clients)", rows, ["medians over the rounds; variants rotated within each round"]);
  }
  const build = await snapshotBuild();
  const shape = consoleShape(KEYS);
  console.log(`console-pages: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys over ${shape.services} services, ${REQUESTS} requests per page`);
  const reuse = hasFlag("reuse-database");
  // One database per size, so a kept 10 M store survives a 1 M run (and --reuse-database finds the right one).
  const scenario = `console_pages_${KEYS}`;
  const db = reuse ? await reuseBenchDatabase(scenario) : await createBenchDatabase(scenario);
  try {
    const t0 = performance.now();
    if (!reuse) console.log(`  seeded ${await seedConsole(db as BenchDatabase, shape)} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    else {
      const { rows } = await db.pool.query<{ n: number }>("select count(*)::int as n from services where id like 'svc-%'");
      if (rows[0]!.n !== shape.services) throw new Error(`--reuse-database: ${db.name} has ${rows[0]!.n} services, --keys ${KEYS} means ${shape.services}`);
      // A database kept before the journal was seeded gets it now.
      const { rows: journaled } = await db.pool.query<{ n: number }>("select count(*)::int as n from (select 1 from journal limit 1) j");
      if (journaled[0]!.n === 0) await seedJournal(db.pool, shape);
      else await catchUpJournalAnswers(db.pool);
      const { rows: resets } = await db.pool.query<{ n: number }>("select count(*)::int as n from reset_batches");
      if (resets[0]!.n === 0) await seedReset(db.pool);
      console.log(`  reusing ${db.name} as seeded before`);
    }
    const profiling = hasFlag("profile");
    const profileDir = path.join(build.dir, ".bench-profiles");
    const profileStartedAt = Date.now();
    const profileWindows = new Map<string, Window>();
    const weir = await serve(
      "dist/server.mjs",
      { DATABASE_URL: db.url, WEIR_CLEANUP_INTERVAL_MS: "3600000", WEIR_ADMIN_EMAIL: ADMIN.email, WEIR_ADMIN_PASSWORD: ADMIN.password },
      { label: "weir server", cwd: build.dir, nodeArgs: ["--max-old-space-size=512", ...(profiling ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])] },
    );
    try {
      const cookie = await signIn(weir.url);
      const busy = (i: number) => svc(shape.services - 1 - (i % Math.max(1, Math.floor(shape.services / 2))));
      const first = await timedGet(`${weir.url}/services/${busy(0)}`, cookie);
      const nextPath = pagerHref(first.body, "after");
      const second = await timedGet(`${weir.url}${nextPath}`, cookie);
      const prevPath = pagerHref(second.body, "before");
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 16);
      const { rows: kept } = await db.pool.query<{ s: string; m: string }>(
        "select service_id as s, message_id as m from payload_versions where version = 3 limit 50",
      );
      const { rows: stored } = await db.pool.query<{ h: string }>(`select encode(hash, 'hex') as h from last_seen where service_id = $1 limit 50`, [busy(3)]);
      const keyId = (i: number) => `order-${(i * 104729) % shape.perService}`;
      const { rows: reset } = await db.pool.query<{ id: string }>("select max(id)::text as id from reset_batches");
      // Journal ranges as the console's links give them (whole UTC minutes): a chart's quarter hours within the seeded journal, and the last 24 h.
      const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);
      const quarterStart = (i: number) => Math.floor(Date.now() / 900_000) * 900_000 - (1 + (i % 40)) * 900_000;
      const quarter = (i: number) => `from=${minute(quarterStart(i))}&to=${minute(quarterStart(i) + 900_000)}`;
      const lastDay = `from=${minute(Math.floor(Date.now() / 60_000) * 60_000 - 86_400_000)}&to=${minute(Math.ceil(Date.now() / 60_000) * 60_000)}`;
      const pages: Page[] = [
        { name: "overview (24 h)", path: () => "/" },
        { name: "overview (7 d, groups)", path: () => "/?range=7d&kind=group" },
        { name: "overview (30 d, one service)", path: (i) => `/?range=30d&kind=service&subject=${busy(i)}` },
        { name: "services", path: () => "/services" },
        { name: "key browser, first page", path: (i) => `/services/${busy(i)}` },
        { name: "key browser, next page", path: () => nextPath },
        { name: "key browser, previous page", path: () => prevPath },
        { name: "key browser, oldest first", path: (i) => `/services/${busy(i)}?sort=asc` },
        { name: "key browser, prefix", path: (i) => `/services/${busy(i)}?prefix=order-12` },
        { name: "key browser, min version 20", path: (i) => `/services/${busy(i)}?minVersion=20` },
        { name: "key browser, one day", path: (i) => `/services/${busy(i)}?from=${day(10)}&to=${day(9)}` },
        { name: "key browser, all filters", path: (i) => `/services/${busy(i)}?prefix=order-1&minVersion=3&from=${day(14)}&to=${day(7)}` },
        { name: "key detail, hashes only", path: (i) => `/services/${busy(i)}/key?id=${keyId(i)}` },
        { name: "key detail, versions and diff", path: (i) => `/services/${kept[i % kept.length]!.s}/key?id=${kept[i % kept.length]!.m}` },
        { name: "groups", path: () => "/groups" },
        { name: "group", path: (i) => `/groups/group-${i % shape.groups}` },
        { name: "group, claim lookup", path: (i) => `/groups/group-${i % shape.groups}?claim=msg-${i * 31}` },
        { name: "idempotency, in progress", path: (i) => `/idempotency?scope=scope-${i % shape.scopes}` },
        { name: "idempotency, completed", path: (i) => `/idempotency?scope=scope-${i % shape.scopes}&status=completed` },
        { name: "idempotency, expired", path: (i) => `/idempotency?scope=scope-${i % shape.scopes}&status=expired` },
        { name: "idempotency key", path: (i) => `/idempotency/key?scope=scope-${i % shape.scopes}&key=req-${i * 13}` },
        { name: "audit", path: () => "/audit" },
        { name: "audit, one action", path: () => "/audit?action=group.ttl" },
        { name: "find, message id", path: (i) => `/find?q=${keyId(i)}` },
        { name: "find, stored hash", path: (i) => `/find?q=${stored[i % stored.length]!.h}` },
        { name: "find, hash stored nowhere", path: (i) => `/find?q=${String(i % 10).repeat(64)}` },
        { name: "tokens", path: () => "/tokens" },
        { name: "resets", path: () => "/reset" },
        { name: "reset, its undo", path: () => `/reset/${reset[0]!.id}` },
        { name: "users", path: () => "/users" },
        { name: "account", path: () => "/account" },
        { name: "service settings", path: (i) => `/services/${busy(i)}/settings` },
        { name: "explain, a stored key", path: (i) => `/explain?service=${busy(i)}&message=${keyId(i)}` },
        { name: "erase", path: () => "/erase" },
        { name: "reports, weekly", path: () => "/reports" },
        { name: "reports, monthly, groups", path: () => "/reports?period=month&kind=group" },
        { name: "decisions, a quarter hour's duplicates", path: (i) => `/decisions?kind=service&subject=${busy(i)}&${quarter(i)}` },
        { name: "decisions, a quarter hour, every key", path: (i) => `/decisions?kind=service&subject=${busy(i)}&${quarter(i)}&show=all` },
        { name: "sources, 24 h, every service", path: () => "/sources" },
        { name: "sources, 24 h, one service", path: (i) => `/sources?subject=${busy(i)}` },
        { name: "incidents, last hour, every subject", path: () => "/incidents" },
        { name: "incidents, 24 h, one service", path: (i) => `/incidents?kind=service&subject=${busy(i)}&${lastDay}` },
      ];
      const health = { name: "/api/health (baseline)", path: () => "/api/health" };
      const timings = new Map<string, number[]>();
      // The server's own CPU per request (user + system, every thread): what a page costs, which
      // wall time on a shared 2-core box hides under other people's load.
      const cpuMs = new Map<string, number>();
      const warmUpP95 = new Map<string, number>();
      // One pass over every page first: the first page timed would otherwise pay for loading and
      // optimising the code every page shares (up to 4x its warm time).
      for (const page of pages) for (let i = 0; i < 3; i++) await timedGet(`${weir.url}${page.path(i)}`, cookie);
      for (const page of [health, ...pages]) {
        const ms: number[] = [];
        let cpuBefore = 0;
        let fromUs = 0;
        const warm: number[] = [];
        for (let i = -WARM_UPS; i < REQUESTS; i++) {
          if (i === 0) [cpuBefore, fromUs] = [cpuSecondsOf(weir.pid), monotonicUs()];
          const r = await timedGet(`${weir.url}${page.path(Math.max(0, i))}`, cookie);
          if (r.status !== 200) throw new Error(`${page.name} (${page.path(Math.max(0, i))}) answered ${r.status}`);
          (i >= 0 ? ms : warm).push(r.ms);
        }
        warmUpP95.set(page.name, percentile(warm.sort((a, b) => a - b), 95));
        cpuMs.set(page.name, ((cpuSecondsOf(weir.pid) - cpuBefore) * 1000) / REQUESTS);
        profileWindows.set(page.name, { fromUs, toUs: monotonicUs() });
        timings.set(page.name, ms.sort((a, b) => a - b));
      }
      const healthMedian = median(timings.get(health.name)!);
      const rows: Row[] = [health, ...pages].map((page) => {
        const ms = timings.get(page.name)!;
        const [mid, p95] = [median(ms), percentile(ms, 95)];
        const isBaseline = page === health;
        return {
          metric: page.name,
          unit: "ms, median / p95 / server CPU per request",
          ours: `${mid.toFixed(1)} / ${p95.toFixed(1)} / ${cpuMs.get(page.name)!.toFixed(1)}`,
          baseline: isBaseline ? undefined : healthMedian,
          baselineName: isBaseline ? undefined : "health",
          ratio: isBaseline ? undefined : `${(mid / healthMedian).toFixed(1)}x health`,
          target: isBaseline ? "info" : `p95 < ${TARGET_MS} ms`,
          met: isBaseline ? undefined : p95 < TARGET_MS,
        };
      });
      report("console pages (server time of the full HTML response, signed in)", rows, [
        `${REQUESTS} requests per page after a warm-up pass and ${WARM_UPS} warm-ups, sequential on one kept-alive connection over loopback, gzip accepted; ${KEYS.toLocaleString("en-US")} keys, ${shape.services} services`,
        `the warm-ups themselves (not in the table): p95 ${warmUpSummary(warmUpP95)}`,
        "baseline: the same server's /api/health (median) in the same run; ratios are medians",
        "server CPU: the weir process's user + system time over the timed requests, per request (10 ms ticks)",
      ]);
    } finally {
      client.destroy();
      await weir.stop();
    }
    // The profile is written when the server stops; "µs/check" in the summary is per request here.
    if (profiling) {
      for (const name of PROFILED) {
        console.log(`\n--- ${name} ---`);
        printProfileSummary(profileDir, profileStartedAt, [profileWindows.get(name)!], REQUESTS, 30);
      }
    }
  } finally {
    await db.drop();
    build.remove();
  }
}

runMain(main);
