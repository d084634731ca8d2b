import { sql, type SQL } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import type { JournalMode } from "./journal-append";
import { decisionCounts, DUPLICATE_ANSWERS, rangeWhere, timestampUs, topCallers, toCallerCounts, type CallerCount, type DecisionCount, type RangeQuery } from "./journal";
import { ORIGIN } from "./stats-rollup-span";

/** The rollup's mark in stats_rollup: every quarter hour before it is in journal_answers_quarter. */
const MARK = "journal_answers_quarter";
/** Keeps two nodes' upkeep from summing the same quarters at once (their upserts could deadlock). */
const LOCK = 7_347_015;
const QUARTER_US = 900_000_000;

/**
 * Counts the journal's answers into journal_answers_quarter per subject, caller, decision and UTC
 * quarter hour, up to the last quarter that closed 10 minutes ago, at most `maxHours` past the mark
 * per call. Like the stats rollups, the 3 hours before the mark are summed again, so that entries a
 * node appended late (after a store outage) still land. Without a mark it starts at `oldestMs`, the
 * journal's oldest partition. Not on Citus: there the workers count the entries at once (callerCounts).
 */
export async function rollUpJournalAnswers(db: DbOrTx, oldestMs: number, maxHours = 48): Promise<Date | null> {
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
    // Each subject's counts, and each mode's over all its subjects (subject ''), which the pages of
    // every subject read: one row per caller, decision and quarter, not one per subject too.
    await tx.execute(sql`
      insert into journal_answers_quarter as h (mode, subject, bucket, caller, decision, answers)
      select mode, coalesce(subject, ''), b, c, decision, count(*)
      from (select mode, subject, date_bin('15 minutes', at, ${ORIGIN}) as b, coalesce(caller, '') as c, decision
            from journal where at >= ${fromAt} and at < ${toAt}) j
      group by grouping sets ((mode, subject, b, c, decision), (mode, b, c, decision))
      on conflict (mode, subject, bucket, caller, decision) do update set answers = excluded.answers
      where h.answers is distinct from excluded.answers`);
    const [moved] = await queryRows<{ rolled_until: string | Date }>(tx, sql`
      insert into stats_rollup (name, rolled_until) values (${MARK}, ${toAt})
      on conflict (name) do update set rolled_until = greatest(stats_rollup.rolled_until, excluded.rolled_until), updated_at = excluded.updated_at
      returning rolled_until`);
    return new Date(moved!.rolled_until);
  });
}

/** Drops the quarters whose journal partitions are gone: the counts are kept as long as the entries. */
export async function dropJournalAnswersBefore(db: DbOrTx, oldestMs: number): Promise<void> {
  if (await isCitus(db)) return;
  await db.execute(sql`delete from journal_answers_quarter where bucket < ${new Date(oldestMs).toISOString()}::timestamptz`);
}

/**
 * The rollup's mark in microseconds (every quarter hour before it is summed), or null when nothing
 * is summed yet or on Citus. A page that sums several ranges reads it once and passes it on.
 */
export async function answersRolledUntil(db: DbOrTx): Promise<number | null> {
  if (await isCitus(db)) return null;
  const [mark] = await queryRows<{ us: string | null }>(db, sql`
    select (extract(epoch from rolled_until) * 1000000)::int8 as us from stats_rollup where name = ${MARK}`);
  return mark?.us ? Number(mark.us) : null;
}

/** A range's whole quarter hours before the rollup's mark, read from the rollup; null when it has none. */
async function rolledQuarters(q: RangeQuery, rolledUntil: Promise<number | null>): Promise<{ fromUs: number; toUs: number } | null> {
  // Awaited first: a mark read for the page is never left unobserved.
  const markUs = await rolledUntil;
  if (markUs === null || q.key !== undefined || q.caller !== undefined || q.decisions?.length) return null;
  const fromUs = Math.ceil(q.fromUs / QUARTER_US) * QUARTER_US;
  const toUs = Math.min(Math.floor(q.toUs / QUARTER_US) * QUARTER_US, markUs);
  return toUs > fromUs ? { fromUs, toUs } : null;
}

/**
 * Sums over a range: `columns` of the rollup's rows for its whole quarters, and of the journal's
 * entries for the minutes around them (both as `mode`, `decision`, `caller`, `answers`), grouped by
 * `groupBy`. The rollup's rows of every subject are its sums over them (subject '').
 */
export function rangeSums(q: RangeQuery, whole: { fromUs: number; toUs: number }, columns: SQL, groupBy: SQL): SQL {
  const mode = q.mode === undefined ? sql`` : sql` and mode = ${q.mode}`;
  const entries = (fromUs: number, toUs: number) => sql`
    select mode, decision, caller, count(*) as answers from journal where ${rangeWhere({ ...q, fromUs, toUs })} group by mode, decision, caller`;
  return sql`
    select ${columns} from (
      select mode, decision, nullif(caller, '') as caller, answers from journal_answers_quarter
      where subject = ${q.subject ?? ""}${mode} and bucket >= ${timestampUs(whole.fromUs)} and bucket < ${timestampUs(whole.toUs)}
      union all ${entries(q.fromUs, whole.fromUs)}
      union all ${entries(whole.toUs, q.toUs)}
    ) a
    group by ${groupBy}`;
}

/**
 * Entries per caller in a range, as topCallers counts them, with the range's whole quarter hours
 * read from journal_answers_quarter: the Sources page of every service over 24 hours then counts
 * the entries of about an hour a period, not of two days. On Citus, and for a range filtered by
 * key, caller or decision, the journal itself. `rolledUntil`: the mark, read once by a page that sums several ranges.
 */
export async function callerCounts(
  db: DbOrTx,
  q: RangeQuery & { limit: number },
  rolledUntil = answersRolledUntil(db),
): Promise<CallerCount[]> {
  const whole = await rolledQuarters(q, rolledUntil);
  if (!whole) return topCallers(db, q);
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    ${rangeSums(q, whole, sql`caller, sum(answers)::int8 as count, coalesce(sum(answers) filter (where ${DUPLICATE_ANSWERS}), 0)::int8 as duplicates`, sql`caller`)}
    order by duplicates desc, count desc limit ${q.limit}`);
  return toCallerCounts(rows);
}

/** Entries by mode and decision in a range, as decisionCounts counts them, the whole quarters from the rollup. */
export async function answerCounts(db: DbOrTx, q: RangeQuery, rolledUntil = answersRolledUntil(db)): Promise<DecisionCount[]> {
  const whole = await rolledQuarters(q, rolledUntil);
  if (!whole) return decisionCounts(db, q);
  const rows = await queryRows<{ mode: JournalMode; decision: string; count: string }>(db, sql`
    ${rangeSums(q, whole, sql`mode, decision, sum(answers)::int8 as count`, sql`mode, decision`)}
    order by mode, count desc`);
  return rows.map((row) => ({ mode: row.mode, decision: row.decision, count: Number(row.count) }));
}
