import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

/** A service's last-seen keys: counted exactly, or estimated (from statistics or a sample) when counting would cost too much. */
export interface KeyCount {
  serviceId: string;
  keys: number;
  exact: boolean;
}

/** Keys counted one by one per service at most: past this a service's count is an estimate. */
export const EXACT_KEY_COUNT_CAP = 10_000;
/** Pages of last_seen a sampled estimate reads (about 8 MiB), whatever the table's size. */
const SAMPLE_PAGES = 1_000;
/**
 * How long a service's sampled estimate is reused. Sampling cost the services list 8-25 ms of its
 * 40 at 10 M keys, on every view; an estimate a minute old is no less an estimate (exact counts,
 * up to the cap, are read on every view).
 */
const SAMPLE_REUSE_MS = 60_000;
/** Per database handle, so two stores in one process (tests, a tool) never share an estimate. */
const sampledEstimates = new WeakMap<object, Map<string, { keys: number; at: number }>>();

interface TableStats {
  /** Rows in last_seen now: the planner's count scaled to the table's current size, as the planner does. */
  total: number | null;
  pages: number;
  freqs: Map<string, number>;
  /** Share of the table per service not among the most common values (the planner's own guess for them). */
  otherShare: number | null;
}

/** The planner's statistics of last_seen and its service_id column (ANALYZE, autovacuum): free to read. */
async function tableStats(db: DbOrTx): Promise<TableStats> {
  const [row] = await queryRows<Record<string, unknown>>(db, sql`
    select c.reltuples::float8 as reltuples, c.relpages::float8 as relpages,
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 as pages,
      s.most_common_vals::text::text[] as vals, s.most_common_freqs as freqs, s.n_distinct::float8 as n_distinct, s.null_frac::float8 as null_frac
    from pg_class c
    left join pg_stats s on s.schemaname = c.relnamespace::regnamespace::text and s.tablename = c.relname and s.attname = 'service_id'
    where c.oid = 'last_seen'::regclass`);
  const reltuples = Number(row?.reltuples ?? -1);
  const relpages = Number(row?.relpages ?? 0);
  const pages = Number(row?.pages ?? 0);
  // reltuples is -1 before the first ANALYZE: no statistics to estimate from.
  const total = reltuples < 0 ? null : relpages > 0 ? (reltuples / relpages) * pages : reltuples;
  const vals = (row?.vals as string[] | null) ?? [];
  const freqs = ((row?.freqs as number[] | null) ?? []).map(Number);
  const map = new Map(vals.map((v, i) => [v, freqs[i] ?? 0]));
  let otherShare: number | null = null;
  if (total !== null && row?.n_distinct !== null && row?.n_distinct !== undefined) {
    const nDistinct = Number(row.n_distinct);
    const distinct = nDistinct < 0 ? -nDistinct * total : nDistinct;
    const rest = 1 - freqs.reduce((a, b) => a + b, 0) - Number(row.null_frac ?? 0);
    otherShare = distinct > vals.length ? Math.max(0, rest) / (distinct - vals.length) : 0;
  }
  return { total, pages, freqs: map, otherShare };
}

/** Keys of each service counted through the primary key, up to `cap` + 1 (index-only, never past the cap). */
async function cappedCounts(db: DbOrTx, serviceIds: readonly string[], cap: number, citus: boolean): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (serviceIds.length === 0) return counts;
  if (citus) {
    // A correlated subquery over a distributed table is not planned on Citus: one bounded count per service.
    for (const id of serviceIds) {
      const [row] = await queryRows<{ n: number }>(db, sql`
        select count(*)::int as n from (select 1 from last_seen where service_id = ${id} limit ${cap + 1}) k`);
      counts.set(id, Number(row?.n ?? 0));
    }
    return counts;
  }
  const rows = await queryRows<{ id: string; n: number }>(db, sql`
    select s.id, (select count(*)::int from (select 1 from last_seen l where l.service_id = s.id
      order by l.service_id, l.message_id limit ${cap + 1}) k) as n
    from unnest(${sql.param([...serviceIds])}::text[]) as s(id)`);
  for (const row of rows) counts.set(String(row.id), Number(row.n));
  return counts;
}

/**
 * Keys per service from a sample of about SAMPLE_PAGES pages of last_seen (TABLESAMPLE SYSTEM),
 * scaled up: fresh where the statistics are stale, at a fixed cost. Citus samples every shard.
 */
async function sampledCounts(db: DbOrTx, serviceIds: readonly string[], citus: boolean, pages: number): Promise<Map<string, number>> {
  let tablePages = pages;
  if (citus) {
    const [size] = await queryRows<{ pages: number }>(db, sql`
      select (citus_relation_size('last_seen') / current_setting('block_size')::int)::float8 as pages`);
    tablePages = Number(size?.pages ?? 0);
  }
  const percent = Math.min(100, Math.max(0.01, (100 * SAMPLE_PAGES) / Math.max(1, tablePages)));
  const rows = await queryRows<{ id: string; n: number }>(db, sql`
    select service_id as id, count(*)::float8 as n
    from last_seen tablesample system (${sql.raw(percent.toFixed(4))}) repeatable (7)
    where service_id = any(${sql.param([...serviceIds])}::text[]) group by 1`);
  return new Map(rows.map((row) => [String(row.id), (Number(row.n) * 100) / percent]));
}

/** Sampled estimates of `serviceIds`: those sampled in the last SAMPLE_REUSE_MS as they were, the others sampled now. */
async function reusedOrSampled(db: DbOrTx, serviceIds: readonly string[], sample: (ids: string[]) => Promise<Map<string, number>>): Promise<Map<string, number>> {
  const now = Date.now();
  let kept = sampledEstimates.get(db);
  if (!kept) sampledEstimates.set(db, (kept = new Map()));
  const estimates = new Map<string, number>();
  const stale: string[] = [];
  for (const id of serviceIds) {
    const entry = kept.get(id);
    if (entry && now - entry.at < SAMPLE_REUSE_MS) estimates.set(id, entry.keys);
    else stale.push(id);
  }
  if (stale.length === 0) return estimates;
  const fresh = await sample(stale);
  for (const id of stale) {
    const keys = fresh.get(id) ?? 0;
    kept.set(id, { keys, at: now });
    estimates.set(id, keys);
  }
  return estimates;
}

/**
 * True key counts for the services list: exact up to EXACT_KEY_COUNT_CAP (a bounded index walk per
 * service), past it an estimate marked as one, never a constant cap. On one PostgreSQL the planner's
 * statistics say which services are large, so those are never walked; a service that outgrew its
 * statistics is estimated from a sample of the table. On Citus (statistics live on the workers'
 * shards) small services are counted and large ones sampled.
 */
export async function serviceKeyCounts(db: DbOrTx, serviceIds: readonly string[], cap = EXACT_KEY_COUNT_CAP): Promise<KeyCount[]> {
  if (serviceIds.length === 0) return [];
  const citus = await isCitus(db);
  const stats: TableStats = citus ? { total: null, pages: 0, freqs: new Map(), otherShare: null } : await tableStats(db);
  const estimate = (id: string): number | null => {
    if (stats.total === null) return null;
    const freq = stats.freqs.get(id);
    if (freq !== undefined) return freq * stats.total;
    return stats.otherShare === null ? null : stats.otherShare * stats.total;
  };
  // Large by the statistics (twice the cap, so a near miss is still counted): estimated, not walked.
  const large = new Map<string, number>();
  for (const id of serviceIds) {
    const e = estimate(id);
    if (e !== null && e > 2 * cap) large.set(id, e);
  }
  const counted = await cappedCounts(db, serviceIds.filter((id) => !large.has(id)), cap, citus);
  // Past the cap, statistics that agree it is large are enough; only a service they underrate is sampled.
  const overflow = [...counted].filter(([id, n]) => n > cap && !((estimate(id) ?? 0) > cap)).map(([id]) => id);
  const sampled = await reusedOrSampled(db, overflow, (ids) => sampledCounts(db, ids, citus, stats.pages));
  return serviceIds.map((serviceId) => {
    const statsEstimate = large.get(serviceId);
    if (statsEstimate !== undefined) return { serviceId, keys: Math.round(statsEstimate), exact: false };
    const n = counted.get(serviceId) ?? 0;
    if (n <= cap) return { serviceId, keys: n, exact: true };
    // The walk proved more than the cap: an estimate below it would contradict it.
    return { serviceId, keys: Math.round(Math.max(cap + 1, sampled.get(serviceId) ?? 0, estimate(serviceId) ?? 0)), exact: false };
  });
}
