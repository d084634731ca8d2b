import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { isCitus } from "../citus";
import { queryRows } from "./console-rows";
import { rollUpByShard } from "./stats-rollup-citus";
import { ORIGIN, rollupSpan, TOTAL_KIND_PREFIX, totalKind, UPDATE_CHANGED, type RollupTable } from "./stats-rollup-span";

export type StatsKind = "service" | "group";

/** Every subject kind the stats recorder writes (its SubjectKind is read from here, so the two cannot drift). */
export const STATS_SUBJECT_KINDS = ["service", "group", "scope"] as const;

export interface Counters {
  checks: number;
  new: number;
  changed: number;
  duplicates: number;
  errors: number;
  lateRedeliveries: number;
}

export interface SeriesRow extends Counters {
  bucket: Date;
}

export interface SubjectRow extends Counters {
  subject: string;
}

/** A rollup of stats_minute: sums per bucket of `stepMs`, in `table`, with its mark in stats_rollup under the same name. */
export interface Rollup {
  table: RollupTable;
  stepMs: number;
  /** The advisory lock that keeps two rollups of this table from running at once. */
  lock: number;
}

export const DAYS: Rollup = { table: "stats_day", stepMs: 86_400_000, lock: 7_347_083 };
export const HOURS: Rollup = { table: "stats_hour", stepMs: 3_600_000, lock: 7_347_081 };
export const QUARTERS: Rollup = { table: "stats_quarter", stepMs: 900_000, lock: 7_347_082 };
/** Coarsest first: a window reads the coarsest rollup it can, then finer ones around it. */
export const ROLLUPS: readonly Rollup[] = [DAYS, HOURS, QUARTERS];

/** How far one rollup has come: every closed bucket before `until` is in its table. */
export interface RolledSpan {
  rollup: Rollup;
  until: Date;
}

export interface StatsWindow {
  kind: StatsKind | "scope";
  /** One subject, or every subject of the kind. */
  subject?: string;
  since: Date;
  /** Rollups this read may use, coarsest first (empty: minutes only). */
  rolled: readonly RolledSpan[];
}

/** The counters' sums as toCounters reads them, over the rows that meet `where` (all when none). */
const sumsWhere = (where?: SQL): SQL => {
  const only = where ? sql` filter (where ${where})` : sql``;
  return sql`sum(checks)${only}::float8 as checks, sum(new)${only}::float8 as new, sum(changed)${only}::float8 as changed,
  sum(duplicates)${only}::float8 as duplicates, sum(errors)${only}::float8 as errors, sum(late_redeliveries)${only}::float8 as late`;
};
const SUMS = sumsWhere();
const COLUMNS = sql`subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries`;

/** The rollups a series of `stepSeconds` buckets may read: those whose buckets fit whole into its own. */
export const rollupsForStep = (rolled: readonly RolledSpan[], stepSeconds: number): RolledSpan[] =>
  rolled.filter((r) => (stepSeconds * 1000) % r.rollup.stepMs === 0);

/**
 * The spans of [from, to) each read from one table: the coarsest rollup's whole buckets up to
 * its mark, and the edges around them from the next finer rollup, down to stats_minute. Spans
 * never overlap, so nothing is counted twice.
 */
function spans(w: StatsWindow, rolled: readonly RolledSpan[], from: number, to: number | null, shape: SpanShape): SQL[] {
  if (to !== null && to <= from) return [];
  const [coarsest, ...finer] = rolled;
  if (!coarsest) return [span(w, "stats_minute", from, to, shape)];
  const step = coarsest.rollup.stepMs;
  const start = Math.ceil(from / step) * step;
  // Whole buckets only at both ends: a `to` inside a bucket leaves that bucket to the finer tables.
  const end = Math.floor(Math.min(coarsest.until.getTime(), to ?? Number.POSITIVE_INFINITY) / step) * step;
  if (end <= start) return spans(w, finer, from, to, shape);
  return [...spans(w, finer, from, start, shape), span(w, coarsest.rollup.table, start, end, shape), ...spans(w, finer, end, to, shape)];
}

/** What a span selects: its rows, or its rows summed by one column (which may then be summed again). */
type SpanShape = { rows: true } | { sumsBy: "bucket" | "subject" };

const SPAN_SUMS = sql`sum(checks) as checks, sum(new) as new, sum(changed) as changed, sum(duplicates) as duplicates,
  sum(errors) as errors, sum(late_redeliveries) as late_redeliveries`;

function span(w: StatsWindow, table: Rollup["table"] | "stats_minute", from: number, to: number | null, shape: SpanShape): SQL {
  const bySubject = w.subject === undefined ? sql`` : sql` and subject = ${w.subject}`;
  const until = to === null ? sql`` : sql` and bucket < ${new Date(to).toISOString()}::timestamptz`;
  // Sums by bucket over every subject read a rollup's kind totals (totalKind): the same sums, one row a bucket.
  const kind = w.subject === undefined && "sumsBy" in shape && shape.sumsBy === "bucket" && table !== "stats_minute" ? totalKind(w.kind) : w.kind;
  const where = sql`where subject_kind = ${kind}${bySubject} and bucket >= ${new Date(from).toISOString()}::timestamptz${until}`;
  if ("rows" in shape) return sql`select ${COLUMNS} from ${sql.identifier(table)} ${where}`;
  const key = sql.identifier(shape.sumsBy);
  return sql`select ${key}, ${SPAN_SUMS} from ${sql.identifier(table)} ${where} group by ${key}`;
}

const unionAll = (parts: SQL[]): SQL => sql.join(parts, sql`
    union all
    `);

/** Rows of the window (up to `until`, or all), from the rollups where they can stand in for minutes (see spans). */
export const windowRows = (w: StatsWindow, until: Date | null = null): SQL =>
  unionAll(spans(w, w.rolled, w.since.getTime(), until?.getTime() ?? null, { rows: true }));

/**
 * The window's counters summed by bucket or by subject within each span, to be summed again across
 * spans. Summing where the rows are read, before the union, costs about a third less than passing
 * every row up (the 24 h chart at 100 services: 3.8 ms against 5.4, docs/performance-console.md).
 */
const windowSums = (w: StatsWindow, sumsBy: "bucket" | "subject", until: Date | null = null): SQL =>
  unionAll(spans(w, w.rolled, w.since.getTime(), until?.getTime() ?? null, { sumsBy }));

const toCounters = (row: Record<string, unknown>): Counters => ({
  checks: Number(row.checks ?? 0),
  new: Number(row.new ?? 0),
  changed: Number(row.changed ?? 0),
  duplicates: Number(row.duplicates ?? 0),
  errors: Number(row.errors ?? 0),
  lateRedeliveries: Number(row.late ?? 0),
});

/** Counters per bucket of `stepSeconds` since the window's start, bucketed by the database (date_bin). */
export async function statsSeries(db: DbOrTx, w: StatsWindow, stepSeconds: number): Promise<SeriesRow[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select date_bin(make_interval(secs => ${stepSeconds}), bucket, ${ORIGIN}) as t, ${SUMS}
    from (${windowSums(w, "bucket")}) r
    group by t order by t`);
  return result.map((row) => ({ bucket: new Date(row.t as string | Date), ...toCounters(row) }));
}

/** Counters per subject over the window. */
export const statsBySubject = (db: DbOrTx, w: StatsWindow): Promise<SubjectRow[]> => subjectSums(db, w, null);

/** Counters per subject over [since, until): a closed span, such as one chart bucket. */
export const statsBetween = (db: DbOrTx, w: StatsWindow, until: Date): Promise<SubjectRow[]> => subjectSums(db, w, until);

async function subjectSums(db: DbOrTx, w: StatsWindow, until: Date | null): Promise<SubjectRow[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select subject, ${SUMS} from (${windowSums(w, "subject", until)}) r group by subject order by subject`);
  return result.map((row) => ({ subject: String(row.subject), ...toCounters(row) }));
}

export interface SubjectRowBeside extends SubjectRow {
  /** The subject has rows since the window's start (a subject may appear in the period before only). */
  inWindow: boolean;
  /** Its checks and duplicates over [previousSince, since): the period a list compares with. */
  previous: Pick<Counters, "checks" | "duplicates">;
}

/** A subject with no rows in either period: how a list shows a known subject that was quiet. */
export const quietSubject = (subject: string): SubjectRowBeside => ({
  subject,
  inWindow: false,
  checks: 0,
  new: 0,
  changed: 0,
  duplicates: 0,
  errors: 0,
  lateRedeliveries: 0,
  previous: { checks: 0, duplicates: 0 },
});

/**
 * Counters per subject over the window, each with its checks and duplicates over the period before
 * it, [previousSince, w.since). One statement where the overview and the groups list used two over
 * the same tables: the rows of each period are the same spans as statsBySubject and statsBetween
 * read (a rollup bucket never straddles `since`), flagged by period and summed in one pass.
 */
export async function statsBySubjectBeside(db: DbOrTx, w: StatsWindow, previousSince: Date): Promise<SubjectRowBeside[]> {
  if (previousSince >= w.since) throw new Error(`the previous period must start before the window (${previousSince.toISOString()})`);
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select subject, bool_or(not before) as in_window, ${sumsWhere(sql`not before`)},
      sum(checks) filter (where before)::float8 as previous_checks, sum(duplicates) filter (where before)::float8 as previous_duplicates
    from (
      select *, true as before from (${windowSums({ ...w, since: previousSince }, "subject", w.since)}) p
      union all
      select *, false as before from (${windowSums(w, "subject")}) c
    ) r group by subject order by subject`);
  return result.map((row) => ({
    subject: String(row.subject),
    inWindow: row.in_window === true,
    ...toCounters(row),
    previous: { checks: Number(row.previous_checks ?? 0), duplicates: Number(row.previous_duplicates ?? 0) },
  }));
}

/** Counters per subject and UTC calendar week (from Monday) or month over [since, until), newest period first. */
export async function statsByPeriod(db: DbOrTx, w: StatsWindow, until: Date, unit: "week" | "month"): Promise<(SubjectRow & { period: Date })[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select date_trunc(${unit}, bucket, 'UTC') as period, subject, ${SUMS} from (${windowRows(w, until)}) r
    group by 1, 2 order by 1 desc, 2`);
  return result.map((row) => ({ period: new Date(row.period as string | Date), subject: String(row.subject), ...toCounters(row) }));
}

/** Subjects with the most duplicates since `since`, most first. */
export async function topByDuplicates(db: DbOrTx, kind: StatsKind, since: Date, limit: number): Promise<SubjectRow[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select subject, ${SUMS} from stats_minute
    where subject_kind = ${kind} and bucket >= ${since.toISOString()}::timestamptz
    group by subject having sum(duplicates) > 0
    order by sum(duplicates) desc, subject limit ${limit}`);
  return result.map((row) => ({ subject: String(row.subject), ...toCounters(row) }));
}

/** Every rollup's mark in one read, coarsest first; a rollup that never ran is left out. */
export async function rolledSpans(db: DbOrTx): Promise<RolledSpan[]> {
  const result = await queryRows<{ name: string; rolled_until: string | Date }>(
    db,
    sql`select name, rolled_until from stats_rollup where name = any(${sql.param(ROLLUPS.map((r) => r.table))}::text[])`,
  );
  const marks = new Map(result.map((row) => [row.name, new Date(row.rolled_until)]));
  return ROLLUPS.flatMap((rollup) => (marks.has(rollup.table) ? [{ rollup, until: marks.get(rollup.table)! }] : []));
}

/**
 * Moves closed buckets of stats_minute into the rollup's table, at most `maxHours` of them per
 * call (the span: rollupSpan). A bucket is closed 10 minutes after it ends; the 3 hours before the old mark are summed
 * again so that counts flushed late (after a store outage) still land. Callers that find the
 * lock taken skip the work: someone else is doing it.
 */
export async function rollUp(db: DbOrTx, rollup: Rollup, maxHours: number): Promise<Date | null> {
  if (await isCitus(db)) return rollUpByShard(db, rollup, maxHours, STATS_SUBJECT_KINDS);
  const { step, ctes } = rollupSpan(rollup.table, rollup.stepMs, maxHours);
  const table = sql.identifier(rollup.table);
  return db.transaction(async (tx) => {
    const locked = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${rollup.lock}) as ok`);
    if (!locked[0]?.ok) return (await rolledSpans(tx)).find((r) => r.rollup === rollup)?.until ?? null;
    const result = await queryRows<{ until: string | Date | null }>(tx, sql`
      with ${ctes},
      summed as (
        insert into ${table} as h (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
        -- Each subject's sums, and each kind's sum over its subjects (totalKind, subject '').
        select case when grouping(subject) = 0 then subject_kind else ${TOTAL_KIND_PREFIX} || subject_kind end, coalesce(subject, ''), b,
               sum(checks), sum(new), sum(changed), sum(duplicates), sum(errors), sum(late_redeliveries)
        from (
          select subject_kind, subject, date_bin(${step}, bucket, ${ORIGIN}) as b, checks, new, changed, duplicates, errors, late_redeliveries
          from stats_minute, bounds
          -- Naming the kinds lets the (subject_kind, bucket) index range over the span: without them a
          -- seq scan of every minute (108 ms against 19 ms at a week of stats for 120 subjects).
          where subject_kind = any(${sql.param([...STATS_SUBJECT_KINDS])}::text[])
            and bucket >= bounds.from_at and bucket < bounds.to_at
        ) m
        group by grouping sets ((subject_kind, subject, b), (subject_kind, b))
        ${UPDATE_CHANGED}
      ),
      moved as (
        insert into stats_rollup (name, rolled_until)
        select ${rollup.table}, to_at from bounds
        on conflict (name) do update set rolled_until = greatest(stats_rollup.rolled_until, excluded.rolled_until), updated_at = excluded.updated_at
        returning rolled_until
      )
      select coalesce((select rolled_until from moved), (select rolled_until from mark)) as until`);
    const until = result[0]?.until;
    return until === null || until === undefined ? null : new Date(until);
  });
}

/**
 * Sums every rollup again from stats_minute, from its first minute: for minutes written after their
 * span was rolled up (the demo's simulated week). Readers stay right meanwhile: without a mark
 * they read minutes.
 */
export async function rebuildRollups(db: DbOrTx, maxSteps = 100): Promise<void> {
  await db.execute(sql`delete from stats_rollup where name = any(${sql.param(ROLLUPS.map((r) => r.table))}::text[])`);
  for (const rollup of ROLLUPS) {
    let before: number | undefined;
    for (let i = 0; i < maxSteps; i++) {
      const until = (await rollUp(db, rollup, 48))?.getTime();
      if (until === before) break;
      before = until;
    }
  }
}
