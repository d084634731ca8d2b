import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import type { JournalMode } from "./journal-append";
import { queryRows } from "./console-rows";

/** One journal entry as readers see it. */
export interface JournalRow {
  /** Microseconds since the epoch: exact, and with `key` the position of the entry in a page. */
  atUs: number;
  /** The same time as ISO 8601 with microseconds. */
  at: string;
  mode: JournalMode;
  subject: string;
  key: string;
  decision: string;
  version: number | null;
  matchedAt: string | null;
  hashVersion: number | null;
  caller: string | null;
  requestId: string | null;
  traceId: string | null;
  /** The caller's ref given with the request. */
  ref: string | null;
}

export interface JournalPosition {
  atUs: number;
  key: string;
}

const US = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::int8`;
const ISO_US = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** Microseconds since the epoch as ISO 8601 with six fraction digits, like the entries' `at`. */
export function isoMicros(us: number): string {
  return `${new Date(Math.floor(us / 1000)).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, "0")}Z`;
}

/**
 * A time as a timestamptz parameter, not an expression on one: the planner then prunes the day
 * partitions when it plans, rather than costing the plan over every partition and pruning as it
 * runs (which chose parallel plans for a few minutes' entries).
 */
export const timestampUs = (us: number) => sql`${isoMicros(us)}::timestamptz`;

const COLUMNS = sql`${US(sql`at`)} as "atUs", ${ISO_US(sql`at`)} as at, mode, subject, key, decision, version,
  ${ISO_US(sql`matched_at`)} as "matchedAt", hash_version as "hashVersion", caller, request_id as "requestId", trace_id as "traceId", ref`;

function toRow(row: Record<string, unknown>): JournalRow {
  return {
    ...(row as unknown as JournalRow),
    atUs: Number(row.atUs),
    version: row.version === null ? null : Number(row.version),
    hashVersion: row.hashVersion === null ? null : Number(row.hashVersion),
  };
}

/** One key's answers, newest first (a single-shard read on Citus: the journal is distributed by key). */
export async function keyTimeline(
  db: DbOrTx,
  q: { mode: JournalMode; subject: string; key: string; limit: number; before?: JournalPosition },
): Promise<JournalRow[]> {
  const before = q.before ? sql`and at < ${timestampUs(q.before.atUs)}` : sql``;
  const rows = await queryRows(
    db,
    sql`select ${COLUMNS} from journal where mode = ${q.mode} and subject = ${q.subject} and key = ${q.key} ${before}
        order by at desc limit ${q.limit}`,
  );
  return rows.map(toRow);
}

export interface RangeQuery {
  /** Inclusive, microseconds. */
  fromUs: number;
  /** Exclusive, microseconds. */
  toUs: number;
  mode?: JournalMode;
  subject?: string;
  decisions?: readonly string[];
  caller?: string;
  key?: string;
}

export function rangeWhere(q: RangeQuery): SQL {
  const parts = [sql`at >= ${timestampUs(q.fromUs)}`, sql`at < ${timestampUs(q.toUs)}`];
  if (q.mode) parts.push(sql`mode = ${q.mode}`);
  if (q.subject !== undefined) parts.push(sql`subject = ${q.subject}`);
  if (q.key !== undefined) parts.push(sql`key = ${q.key}`);
  if (q.caller !== undefined) parts.push(sql`caller = ${q.caller}`);
  if (q.decisions && q.decisions.length > 0) parts.push(sql`decision in (${sql.join(q.decisions.map((d) => sql`${d}`), sql`, `)})`);
  return sql.join(parts, sql` and `);
}

/**
 * Entries in a time range, oldest first, keyset-paged by (time, key): a page starts after
 * `after`. One node's entries never share a time (lib/journal/clock.ts).
 */
export async function journalRange(db: DbOrTx, q: RangeQuery & { after?: JournalPosition; limit: number }): Promise<JournalRow[]> {
  const after = q.after ? sql`and (at, key) > (${timestampUs(q.after.atUs)}, ${q.after.key})` : sql``;
  const rows = await queryRows(db, sql`select ${COLUMNS} from journal where ${rangeWhere(q)} ${after} order by at, key limit ${q.limit}`);
  return rows.map(toRow);
}

export interface KeyCount {
  mode: JournalMode;
  subject: string;
  key: string;
  count: number;
  firstAt: string;
  lastAt: string;
  /** Up to five distinct callers, most frequent first is not promised: these are the ones seen. */
  callers: string[];
}

/**
 * The keys with the most entries in a range (for a duplicate spike: the duplicated keys), with first
 * and last time and callers. Two reads: the counts alone (a hash aggregate), then times and callers
 * of only the keys shown, through journal_by_key. As one statement the distinct callers made every
 * key of the range a sorted group: 75 ms for the 19,000 keys of an hour of the console bench's
 * journal (docs/performance-console.md), against which the two reads took 17.
 */
export async function topKeys(db: DbOrTx, q: RangeQuery & { limit: number }): Promise<KeyCount[]> {
  const top = await queryRows<{ mode: JournalMode; subject: string; key: string; count: string | number }>(
    db,
    sql`select mode, subject, key, count(*)::int8 as count from journal where ${rangeWhere(q)}
        group by mode, subject, key order by count(*) desc, key limit ${q.limit}`,
  );
  if (top.length === 0) return [];
  const shown = sql.join(top.map((t) => sql`(${t.mode}, ${t.subject}, ${t.key})`), sql`, `);
  const details = await queryRows<{ mode: string; subject: string; key: string; firstAt: string; lastAt: string; callers: string[] }>(
    db,
    sql`select mode, subject, key, ${ISO_US(sql`min(at)`)} as "firstAt", ${ISO_US(sql`max(at)`)} as "lastAt",
          (array_agg(distinct coalesce(caller, '')))[1:5] as callers
        from journal where ${rangeWhere(q)} and (mode, subject, key) in (${shown})
        group by mode, subject, key`,
  );
  const id = (r: { mode: string; subject: string; key: string }) => JSON.stringify([r.mode, r.subject, r.key]);
  const byKey = new Map(details.map((d) => [id(d), d]));
  // A key erased between the two reads has no details, and is left out as it would be from now on.
  return top.flatMap((t) => {
    const d = byKey.get(id(t));
    if (!d) return [];
    return [{ mode: t.mode, subject: t.subject, key: t.key, count: Number(t.count), firstAt: d.firstAt, lastAt: d.lastAt, callers: d.callers.filter((c) => c !== "") }];
  });
}

export interface CallerCount {
  caller: string | null;
  count: number;
  duplicates: number;
}

/** The answers that turned a repeat away, per mode: what the stats count as duplicates. */
export const DUPLICATE_DECISIONS: Record<JournalMode, readonly string[]> = {
  last_seen: ["duplicate"],
  window: ["duplicate"],
  idempotency: ["in_progress", "completed"],
};

/** Those answers in any mode. */
export const ANY_DUPLICATE: readonly string[] = [...new Set(Object.values(DUPLICATE_DECISIONS).flat())];

/** The same as a condition, with the answers as constants so that each statement's plan can use them. */
export const DUPLICATE_ANSWERS = sql.raw(`decision in (${ANY_DUPLICATE.map((d) => `'${d}'`).join(", ")})`);

/** Entries per caller in a range: who sends the most (duplicates counted apart). */
export async function topCallers(db: DbOrTx, q: RangeQuery & { limit: number }): Promise<CallerCount[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select caller, count(*)::int8 as count, count(*) filter (where ${DUPLICATE_ANSWERS})::int8 as duplicates
        from journal where ${rangeWhere(q)}
        group by caller order by duplicates desc, count desc limit ${q.limit}`,
  );
  return toCallerCounts(rows);
}

export const toCallerCounts = (rows: Record<string, unknown>[]): CallerCount[] =>
  rows.map((row) => ({ caller: (row.caller as string | null) ?? null, count: Number(row.count), duplicates: Number(row.duplicates) }));

export interface DecisionCount {
  mode: JournalMode;
  decision: string;
  count: number;
}

/** Entries by mode and decision in a range. */
export async function decisionCounts(db: DbOrTx, q: RangeQuery): Promise<DecisionCount[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select mode, decision, count(*)::int8 as count from journal where ${rangeWhere(q)} group by mode, decision order by mode, count desc`,
  );
  return rows.map((row) => ({ mode: row.mode as JournalMode, decision: row.decision as string, count: Number(row.count) }));
}

export interface JournalGap {
  subjectKind: string;
  subject: string;
  minute: string;
  dropped: number;
}

/** Minutes in which entries were dropped (a node's buffer was full), for a subject or every subject. */
export async function journalGaps(db: DbOrTx, q: { fromUs: number; toUs: number; subjectKind?: string; subject?: string }): Promise<JournalGap[]> {
  const parts = [sql`minute >= date_trunc('minute', ${timestampUs(q.fromUs)})`, sql`minute < ${timestampUs(q.toUs)}`];
  if (q.subjectKind) parts.push(sql`subject_kind = ${q.subjectKind}`);
  if (q.subject !== undefined) parts.push(sql`subject = ${q.subject}`);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select subject_kind as "subjectKind", subject, ${ISO_US(sql`minute`)} as minute, dropped
        from journal_gaps where ${sql.join(parts, sql` and `)} order by minute, subject_kind, subject limit 1000`,
  );
  return rows.map((row) => ({ ...(row as unknown as JournalGap), dropped: Number(row.dropped) }));
}
