import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import { DUPLICATE_ANSWERS, rangeWhere, topCallers, toCallerCounts, type CallerCount, type RangeQuery } from "./journal";
import { ORIGIN } from "./stats-rollup-span";

/** The rollup's mark in stats_rollup: every quarter hour before it is in journal_callers_quarter. */
const MARK = "journal_callers_quarter";
/** Keeps two nodes' upkeep from summing the same quarters at once (their upserts could deadlock). */
const LOCK = 7_347_015;
const QUARTER_US = 900_000_000;

/**
 * Sums the journal into journal_callers_quarter per subject, caller and UTC quarter hour, up to the
 * last quarter that closed 10 minutes ago, at most `maxHours` past the mark per call. Like the stats rollups,
 * the 3 hours before the mark are summed again, so that entries a node appended late (after a
 * store outage) still land. Without a mark it starts at `oldestMs`, the journal's oldest partition.
 * Not on Citus: there the callers are counted on every worker at once (callerCounts).
 */
export async function rollUpJournalCallers(db: DbOrTx, oldestMs: number, maxHours = 48): Promise<Date | null> {
  if (await isCitus(db)) return null;
  return db.transaction(async (tx) => {
    const [locked] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK}) as ok`);
    if (!locked?.ok) return null;
    // The span first, then the sums with it as constants: the planner then reads only its partitions.
    const [span] = await queryRows<{ from_at: string | Date; to_at: string | Date; rolled_until: string | Date | null; closed: string | Date }>(tx, sql`
      with mark as (
        select (select rolled_until from stats_rollup where name = ${MARK}) as rolled_until,
               date_bin('15 minutes', now() - interval '10 minutes', ${ORIGIN}) as closed
      )
      select f.from_at, least(m.closed, coalesce(m.rolled_until, f.from_at) + make_interval(hours => ${maxHours})) as to_at, m.rolled_until, m.closed
      from mark m, lateral (select coalesce(m.rolled_until - interval '3 hours',
        date_bin('15 minutes', ${new Date(oldestMs).toISOString()}::timestamptz, ${ORIGIN})) as from_at) f`);
    const mark = span!.rolled_until ? new Date(span!.rolled_until) : null;
    const [from, to] = [new Date(span!.from_at), new Date(span!.to_at)];
    // Up to date until the next quarter closes: the 3 hours before the mark are summed again only then.
    if ((mark && mark >= new Date(span!.closed)) || to <= from) return mark;
    const [fromAt, toAt] = [sql`${from.toISOString()}::timestamptz`, sql`${to.toISOString()}::timestamptz`];
    // Each subject's callers, and each mode's callers over all its subjects (subject ''), which the
    // Sources page of every service reads: one row per caller and quarter, not one per subject too.
    await tx.execute(sql`
      insert into journal_callers_quarter as h (mode, subject, bucket, caller, answers, duplicates)
      select mode, coalesce(subject, ''), b, c, count(*), count(*) filter (where ${DUPLICATE_ANSWERS})
      from (select mode, subject, date_bin('15 minutes', at, ${ORIGIN}) as b, coalesce(caller, '') as c, decision
            from journal where at >= ${fromAt} and at < ${toAt}) j
      group by grouping sets ((mode, subject, b, c), (mode, b, c))
      on conflict (mode, subject, bucket, caller) do update set answers = excluded.answers, duplicates = excluded.duplicates
      where (h.answers, h.duplicates) is distinct from (excluded.answers, excluded.duplicates)`);
    const [moved] = await queryRows<{ rolled_until: string | Date }>(tx, sql`
      insert into stats_rollup (name, rolled_until) values (${MARK}, ${toAt})
      on conflict (name) do update set rolled_until = greatest(stats_rollup.rolled_until, excluded.rolled_until), updated_at = excluded.updated_at
      returning rolled_until`);
    return new Date(moved!.rolled_until);
  });
}

/** Drops the quarters whose journal partitions are gone: the callers' counts are kept as long as the entries. */
export async function dropJournalCallersBefore(db: DbOrTx, oldestMs: number): Promise<void> {
  if (await isCitus(db)) return;
  await db.execute(sql`delete from journal_callers_quarter where bucket < ${new Date(oldestMs).toISOString()}::timestamptz`);
}

/**
 * Entries per caller in a range, as topCallers counts them: the range's whole quarter hours before
 * the rollup's mark from journal_callers_quarter, the minutes around them from the journal. The
 * Sources page of every service over 24 hours then counts at most an hour or so of entries a
 * period, not two days.
 * A range filtered by key, caller or decision, and every range on Citus, counts the journal itself.
 */
export async function callerCounts(db: DbOrTx, q: RangeQuery & { limit: number }): Promise<CallerCount[]> {
  if (q.key !== undefined || q.caller !== undefined || q.decisions?.length || (await isCitus(db))) return topCallers(db, q);
  const [mark] = await queryRows<{ us: string | null }>(db, sql`
    select (extract(epoch from rolled_until) * 1000000)::int8 as us from stats_rollup where name = ${MARK}`);
  const markUs = mark?.us ? Number(mark.us) : 0;
  const wholeFrom = Math.ceil(q.fromUs / QUARTER_US) * QUARTER_US;
  const wholeTo = Math.min(Math.floor(q.toUs / QUARTER_US) * QUARTER_US, markUs);
  if (wholeTo <= wholeFrom) return topCallers(db, q);
  // Every subject: the mode's sums over its subjects, written beside theirs (subject '').
  const subject = sql` and subject = ${q.subject ?? ""}`;
  const mode = q.mode === undefined ? sql`` : sql` and mode = ${q.mode}`;
  const raw = (fromUs: number, toUs: number) => sql`
    select caller, count(*) as count, count(*) filter (where ${DUPLICATE_ANSWERS}) as duplicates
    from journal where ${rangeWhere({ ...q, fromUs, toUs })} group by caller`;
  const instant = (us: number) => sql`${new Date(us / 1000).toISOString()}::timestamptz`;
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    select caller, sum(count)::int8 as count, sum(duplicates)::int8 as duplicates from (
      select nullif(caller, '') as caller, answers as count, duplicates from journal_callers_quarter
      where bucket >= ${instant(wholeFrom)} and bucket < ${instant(wholeTo)}${mode}${subject}
      union all ${raw(q.fromUs, wholeFrom)}
      union all ${raw(wholeTo, q.toUs)}
    ) c
    group by caller order by duplicates desc, count desc limit ${q.limit}`);
  return toCallerCounts(rows);
}
