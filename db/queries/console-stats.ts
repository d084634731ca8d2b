import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

export type StatsKind = "service" | "group";

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

export interface StatsWindow {
  kind: StatsKind;
  /** One subject, or every subject of the kind. */
  subject?: string;
  since: Date;
  /** Everything before this instant is read from stats_hour (null: read minutes only). */
  hourlyUntil: Date | null;
}

const ORIGIN = sql`timestamptz '2000-01-01 00:00:00+00'`;
const SUMS = sql`sum(checks)::float8 as checks, sum(new)::float8 as new, sum(changed)::float8 as changed,
  sum(duplicates)::float8 as duplicates, sum(errors)::float8 as errors, sum(late_redeliveries)::float8 as late`;
const COLUMNS = sql`subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries`;

const HOUR_MS = 3_600_000;

/**
 * Rows of the window: closed whole hours from stats_hour, the rest (the minutes before the
 * first whole hour and after the rollup's mark) from stats_minute; a union, so never counted twice.
 */
function windowRows(w: StatsWindow): SQL {
  const bySubject = w.subject === undefined ? sql`` : sql` and subject = ${w.subject}`;
  const since = w.since.toISOString();
  const firstHour = new Date(Math.ceil(w.since.getTime() / HOUR_MS) * HOUR_MS);
  if (w.hourlyUntil === null || w.hourlyUntil <= firstHour) {
    return sql`select ${COLUMNS} from stats_minute
      where subject_kind = ${w.kind}${bySubject} and bucket >= ${since}::timestamptz`;
  }
  const [from, until] = [firstHour.toISOString(), w.hourlyUntil.toISOString()];
  const head = firstHour > w.since
    ? sql`select ${COLUMNS} from stats_minute
      where subject_kind = ${w.kind}${bySubject} and bucket >= ${since}::timestamptz and bucket < ${from}::timestamptz
    union all
    `
    : sql``;
  return sql`${head}select ${COLUMNS} from stats_hour
      where subject_kind = ${w.kind}${bySubject} and bucket >= ${from}::timestamptz and bucket < ${until}::timestamptz
    union all
    select ${COLUMNS} from stats_minute
      where subject_kind = ${w.kind}${bySubject} and bucket >= ${until}::timestamptz`;
}

const toCounters = (row: Record<string, unknown>): Counters => ({
  checks: Number(row.checks ?? 0),
  new: Number(row.new ?? 0),
  changed: Number(row.changed ?? 0),
  duplicates: Number(row.duplicates ?? 0),
  errors: Number(row.errors ?? 0),
  lateRedeliveries: Number(row.late ?? 0),
});

/** Counters per bucket of `stepSeconds`, bucketed by the database (date_bin). */
export async function statsSeries(db: DbOrTx, w: StatsWindow, stepSeconds: number): Promise<SeriesRow[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select date_bin(make_interval(secs => ${stepSeconds}), bucket, ${ORIGIN}) as t, ${SUMS}
    from (${windowRows(w)}) r
    group by t order by t`);
  return result.map((row) => ({ bucket: new Date(row.t as string | Date), ...toCounters(row) }));
}

/** Counters per subject over the window. */
export async function statsBySubject(db: DbOrTx, w: StatsWindow): Promise<SubjectRow[]> {
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select subject, ${SUMS} from (${windowRows(w)}) r group by subject order by subject`);
  return result.map((row) => ({ subject: String(row.subject), ...toCounters(row) }));
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

const ROLLUP_LOCK = 7_347_081;
const HOURLY = "stats_hour";

export async function hourlyRolledUntil(db: DbOrTx): Promise<Date | null> {
  const result = await queryRows<{ rolled_until: string | Date }>(
    db,
    sql`select rolled_until from stats_rollup where name = ${HOURLY}`,
  );
  const value = result[0]?.rolled_until;
  return value === undefined ? null : new Date(value);
}

/**
 * Moves closed hours into stats_hour, at most `maxHours` per call. Hours are
 * closed 10 minutes after they end; the 3 hours before the old mark are summed
 * again so that counts flushed late (after a store outage) still land. Callers
 * that find the lock taken skip the work: someone else is doing it.
 */
export async function rollUpHours(db: DbOrTx, maxHours: number): Promise<Date | null> {
  return db.transaction(async (tx) => {
    const locked = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`);
    if (!locked[0]?.ok) return hourlyRolledUntil(tx);
    const result = await queryRows<{ until: string | Date | null }>(tx, sql`
      with mark as (
        select (select rolled_until from stats_rollup where name = ${HOURLY}) as rolled_until,
               date_bin('1 hour', now() - interval '10 minutes', ${ORIGIN}) as closed
      ),
      span as (
        select coalesce(m.rolled_until - interval '3 hours',
                        (select date_bin('1 hour', min(bucket), ${ORIGIN}) from stats_minute)) as from_at,
               m.closed, m.rolled_until
        from mark m
      ),
      bounds as (
        select from_at, least(closed, coalesce(rolled_until, from_at) + make_interval(hours => ${maxHours})) as to_at, rolled_until
        from span where from_at is not null and (rolled_until is null or rolled_until < closed)
      ),
      summed as (
        insert into stats_hour as h (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
        select subject_kind, subject, date_bin('1 hour', bucket, ${ORIGIN}),
               sum(checks), sum(new), sum(changed), sum(duplicates), sum(errors), sum(late_redeliveries)
        from stats_minute, bounds
        where bucket >= bounds.from_at and bucket < bounds.to_at
        group by 1, 2, 3
        on conflict (subject_kind, subject, bucket) do update set
          checks = excluded.checks, new = excluded.new, changed = excluded.changed,
          duplicates = excluded.duplicates, errors = excluded.errors, late_redeliveries = excluded.late_redeliveries
      ),
      moved as (
        insert into stats_rollup (name, rolled_until)
        select ${HOURLY}, to_at from bounds
        on conflict (name) do update set rolled_until = greatest(stats_rollup.rolled_until, excluded.rolled_until), updated_at = excluded.updated_at
        returning rolled_until
      )
      select coalesce((select rolled_until from moved), (select rolled_until from mark)) as until`);
    const until = result[0]?.until;
    return until === null || until === undefined ? null : new Date(until);
  });
}
