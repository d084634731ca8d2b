/**
 * Scenario 5: the console's real reads at scale: 10 M keys across 100 services
 * and 30 days of per-minute stats (--quick: 200 k keys, 12 subjects). Times the
 * functions the pages call (lib/console: key browser for every filter the UI
 * offers, key detail, the overview's charts) and prints EXPLAIN (ANALYZE, BUFFERS)
 * of the SQL each one ran. The baseline is a primary-key lookup of one key in
 * the same run, the cheapest read the store can do.
 * Run: npx tsx bench/console-scale.ts [--quick] [--keys N]. Never fails on timing.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { loadKeyBrowser } from "@/lib/views/key-browser";
import { loadKeyDetail } from "@/lib/views/key-detail";
import { loadOverview } from "@/lib/views/overview";
import { encodeCursor } from "@/lib/views/cursor";
import { hasFlag, numberFlag, quick, runMain } from "./lib/cli";
import { createBenchDatabase, withIndexesDropped, type BenchDatabase } from "./lib/db";
import { insertSpreadKeys, rollUpAllHours } from "./lib/console-seed";
import { machineLine, percentile, report, type Row } from "./lib/report";

const KEYS = numberFlag("keys", quick ? 200_000 : 10_000_000);
const SERVICES = quick ? 10 : 100;
const GROUPS = quick ? 2 : 20;
const PER_SERVICE = Math.floor(KEYS / SERVICES);
const HISTORY_SERVICES = Math.max(1, Math.floor(SERVICES / 10));
const ITERATIONS = numberFlag("iterations", quick ? 10 : 40);
const DAYS = 30;
const svc = (i: number) => `svc-${String(i).padStart(3, "0")}`;

async function seed(db: BenchDatabase): Promise<void> {
  const t0 = performance.now();
  const { pool } = db;
  await pool.query(
    `insert into services (id, display_name, history_depth) select 'svc-' || lpad(i::text, 3, '0'), 'Service ' || i, case when i < $2 then 5 else 0 end from generate_series(0, $1::int - 1) i`,
    [SERVICES, HISTORY_SERVICES],
  );
  await pool.query(`insert into consumer_groups (id, ttl_seconds) select 'group-' || i, 3600 from generate_series(0, $1::int - 1) i`, [GROUPS]);
  // Versions: 90 % of keys at 1, 10 % between 2 and 8, 0.1 % at 20-49. Changes spread over 30 days.
  await withIndexesDropped(pool, "last_seen", async () => {
    const chunk = 50;
    for (let from = 0; from < SERVICES; from += chunk) {
      await insertSpreadKeys(db, from, Math.min(SERVICES, from + chunk) - 1, PER_SERVICE);
    }
  });
  // Kept payload versions for 2 % of the keys of the services that keep history.
  await pool.query(
    `insert into payload_versions (service_id, message_id, version, hash, payload, recorded_at)
     select l.service_id, l.message_id, v, sha256(convert_to(l.message_id || v, 'UTF8')),
       format('{"id":"%s","status":"%s","amount":%s,"lines":[{"sku":"A-%s","qty":%s}],"meta":{"sentAt":"2025-01-0%sT00:00:00Z"}}',
         l.message_id, case when v % 2 = 0 then 'paid' else 'open' end, 100 + v, v, v, v),
       l.last_changed - make_interval(hours => (l.version - v)::int)
     from last_seen l, generate_series(1, 3) v
     where l.service_id < $1 and l.version >= 3 and v <= l.version`,
    [svc(HISTORY_SERVICES)],
  );
  await pool.query("vacuum analyze payload_versions");
  // 30 days of per-minute stats for every service and group, then weir's own hourly rollup.
  await withIndexesDropped(pool, "stats_minute", async () => {
    await pool.query(
      `insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
       select kind, subject, b, 100 + (h % 50), 10 + h % 7, 20 + h % 11, 70 + (h % 29), case when h % 97 = 0 then 1 else 0 end, case when kind = 'group' and h % 13 = 0 then 1 else 0 end
       from (select 'service' as kind, 'svc-' || lpad(i::text, 3, '0') as subject from generate_series(0, $1::int - 1) i
             union all select 'group', 'group-' || i from generate_series(0, $2::int - 1) i) subjects,
         generate_series(date_trunc('minute', now()) - interval '${DAYS} days', date_trunc('minute', now()), interval '1 minute') b,
         lateral (select abs(hashtext(subject || b::text)) as h) x`,
      [SERVICES, GROUPS],
    );
  });
  await rollUpAllHours(db, 40);
  await pool.query("vacuum analyze stats_hour");
  const { rows } = await pool.query<{ keys: string; versions: string; minutes: string; hours: string }>(
    `select (select count(*) from last_seen)::text as keys, (select count(*) from payload_versions)::text as versions,
       (select count(*) from stats_minute)::text as minutes, (select count(*) from stats_hour)::text as hours`,
  );
  const r = rows[0]!;
  console.log(`  seeded ${r.keys} keys, ${r.versions} payload versions, ${r.minutes} stats minutes, ${r.hours} stats hours in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

interface Captured {
  sql: string;
  params: unknown[];
}

/** A drizzle handle on the bench pool that records every query it runs, to EXPLAIN them afterwards. */
function capturing(db: BenchDatabase): { db: DbOrTx; queries: Captured[] } {
  const queries: Captured[] = [];
  const handle = drizzle({ client: db.pool, schema, logger: { logQuery: (sql, params) => void queries.push({ sql, params }) } });
  return { db: handle as unknown as DbOrTx, queries };
}

interface Case {
  group: "browser" | "detail" | "charts" | "baseline";
  name: string;
  /** Runs the page's read for iteration i (services rotate, so one warm service does not flatter the figure). */
  run: (db: DbOrTx, i: number) => Promise<unknown>;
}

async function main(): Promise<void> {
  console.log(`console-scale: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys over ${SERVICES} services, ${DAYS} days of stats for ${SERVICES + GROUPS} subjects`);
  const db = await createBenchDatabase("console");
  try {
    await seed(db);
    const rotate = (i: number) => svc(HISTORY_SERVICES + (i % (SERVICES - HISTORY_SERVICES || 1)));
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const { rows: deep } = await db.pool.query<{ ts: string; id: string }>(
      `select to_char(last_changed at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ts, message_id as id from last_seen
       where service_id = $1 order by last_changed desc, message_id asc offset $2 limit 1`,
      [svc(SERVICES - 1), Math.min(PER_SERVICE - 100, 5000)],
    );
    const deepCursor = encodeCursor([deep[0]!.ts, deep[0]!.id]);
    const { rows: kept } = await db.pool.query<{ service_id: string; message_id: string }>(
      "select service_id, message_id from payload_versions group by 1, 2 having count(*) >= 2 limit 100",
    );
    const browse = (params: Record<string, string>, service?: string) => (dbx: DbOrTx, i: number) => loadKeyBrowser(dbx, service ?? rotate(i), params);
    const cases: Case[] = [
      { group: "baseline", name: "primary-key lookup of one key", run: (dbx, i) => loadKeyDetail(dbx, rotate(i), `order-${(i * 7919) % PER_SERVICE}`) },
      { group: "browser", name: "newest first (no filter)", run: browse({}) },
      { group: "browser", name: "oldest first", run: browse({ sort: "asc" }) },
      { group: "browser", name: "prefix, narrow (order-1234)", run: browse({ prefix: "order-1234" }) },
      { group: "browser", name: "prefix, broad (order-1)", run: browse({ prefix: "order-1" }) },
      { group: "browser", name: "prefix, no match", run: browse({ prefix: "zzz" }) },
      { group: "browser", name: "changed in one day", run: browse({ from: day(10), to: day(9) }) },
      { group: "browser", name: "changed in one hour, oldest first", run: browse({ from: day(3), to: day(3 - 1 / 24), sort: "asc" }) },
      { group: "browser", name: "min version 2 (10 % of keys)", run: browse({ minVersion: "2" }) },
      { group: "browser", name: "min version 20 (0.1 % of keys)", run: browse({ minVersion: "20" }) },
      { group: "browser", name: "min version 1000 (no key)", run: browse({ minVersion: "1000" }) },
      { group: "browser", name: "prefix + min version + one week", run: browse({ prefix: "order-1", minVersion: "3", from: day(14), to: day(7) }) },
      { group: "browser", name: "page 101 (keyset cursor)", run: browse({ after: deepCursor }, svc(SERVICES - 1)) },
      { group: "detail", name: "key detail with versions and diff", run: (dbx, i) => loadKeyDetail(dbx, kept[i % kept.length]!.service_id, kept[i % kept.length]!.message_id) },
      { group: "detail", name: "key detail, hashes only", run: (dbx, i) => loadKeyDetail(dbx, rotate(i), `order-${(i * 104729) % PER_SERVICE}`) },
      { group: "charts", name: "overview 30 d, all services", run: (dbx) => loadOverview(dbx, { range: "30d", kind: "service" }) },
      { group: "charts", name: "overview 30 d, one service", run: (dbx, i) => loadOverview(dbx, { range: "30d", kind: "service", subject: rotate(i) }) },
      { group: "charts", name: "overview 30 d, consumer groups", run: (dbx) => loadOverview(dbx, { range: "30d", kind: "group" }) },
      { group: "charts", name: "overview 7 d, all services", run: (dbx) => loadOverview(dbx, { range: "7d", kind: "service" }) },
      { group: "charts", name: "overview 24 h, all services", run: (dbx) => loadOverview(dbx, { range: "24h", kind: "service" }) },
    ];
    const targets = { baseline: 50, browser: 50, detail: 50, charts: 200 };
    const rows: Row[] = [];
    const timings = new Map<string, number>();
    const storeDb = db.store.db;
    for (const c of cases) await c.run(storeDb, 0); // warm-up: caches, plans, catalog
    for (const c of cases) {
      const ms: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        const t = performance.now();
        await c.run(storeDb, i);
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      timings.set(c.name, percentile(ms, 95));
    }
    const baseline = timings.get(cases[0]!.name)!;
    for (const c of cases) {
      const p95 = timings.get(c.name)!;
      const target = targets[c.group];
      rows.push({
        metric: `${c.group}: ${c.name}`,
        unit: "p95 ms",
        ours: p95,
        baseline: c.group === "baseline" ? undefined : baseline,
        baselineName: c.group === "baseline" ? undefined : "pk",
        ratio: c.group === "baseline" ? undefined : `${(p95 / baseline).toFixed(1)}x pk`,
        target: `< ${target} ms`,
        met: p95 < target,
      });
    }
    if (!hasFlag("no-plans")) {
      console.log("\n== EXPLAIN (ANALYZE, BUFFERS) of every query the console ran, per case");
      for (const c of cases) {
        const probe = capturing(db);
        await c.run(probe.db, 1);
        for (const q of probe.queries) {
          // Writes (the rollup) and one-row catalog lookups are not what the pages wait for.
          if (/^\s*(insert|update|delete)/i.test(q.sql) || /from "services" where|from pg_database|from stats_rollup/.test(q.sql)) continue;
          const { rows: plan } = await db.pool.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${q.sql}`, q.params);
          console.log(`\n-- ${c.name}: ${q.sql.replace(/\s+/g, " ").slice(0, 160)}${q.sql.length > 160 ? " ..." : ""}`);
          console.log(plan.map((p) => `   ${p["QUERY PLAN"]}`).join("\n"));
        }
      }
    }
    report("5. console at scale (server time of the pages' reads)", rows, [
      `${ITERATIONS} iterations per case after a warm-up, services rotating; ${KEYS.toLocaleString("en-US")} keys, ${SERVICES} services, ${DAYS} days of stats`,
      "baseline: the same loader on a single primary-key lookup (key detail of a key with no history)",
    ]);
  } finally {
    await db.drop();
  }
}

runMain(main);
