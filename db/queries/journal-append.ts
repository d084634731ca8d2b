import { groupByShard, isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { APPEND_SQL } from "./journal-append-sql";

export type JournalMode = "last_seen" | "window" | "idempotency";

/** One answer as the journal keeps it. */
export interface JournalEntry {
  /** Microseconds since the epoch. */
  atUs: number;
  mode: JournalMode;
  subject: string;
  key: string;
  decision: string;
  version: number | null;
  matchedAt: Date | null;
  hashVersion: number | null;
  caller: string | null;
  requestId: string | null;
  traceId: string | null;
  /** The caller's ref given with the request (docs/caller-data.md). */
  ref?: string | null;
}

function columnsOf(entries: readonly JournalEntry[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], [], [], [], [], [], [], [], []];
  for (const e of entries) {
    columns[0]!.push(e.atUs);
    columns[1]!.push(e.mode);
    columns[2]!.push(e.subject);
    columns[3]!.push(e.key);
    columns[4]!.push(e.decision);
    columns[5]!.push(e.version);
    columns[6]!.push(e.matchedAt);
    columns[7]!.push(e.hashVersion);
    columns[8]!.push(e.caller);
    columns[9]!.push(e.requestId);
    columns[10]!.push(e.traceId);
    columns[11]!.push(e.ref ?? null);
  }
  return columns;
}

const APPEND_ON_SHARD_SQL = "select weir_journal_append_v2($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

/**
 * On Citus one call of weir_journal_append_v2 per shard, run on the worker holding it: a local write,
 * no two-phase commit. The append statement itself is an INSERT ... SELECT there, pulled to the
 * coordinator and copied to its shards with two-phase commit, every second on every node.
 */
async function appendByShard(db: DbOrTx, entries: readonly JournalEntry[]): Promise<void> {
  for (const group of await groupByShard(db, "journal", entries, (e) => e.key)) {
    await runRaw(db, { name: "weir_journal_append_shard_v2", text: APPEND_ON_SHARD_SQL, values: [...columnsOf(group), group[0]!.key] });
  }
}

/**
 * Appends entries (their days' partitions must exist: see createJournalPartitions). On Citus, `db`
 * should be a pool: inside a transaction the per-shard call is not sent to its worker.
 */
export async function appendJournal(db: DbOrTx, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (await isCitus(db)) await appendByShard(db, entries);
  else await runRaw(db, { name: "weir_journal_append_v2", text: APPEND_SQL, values: columnsOf(entries) });
}

export interface GapRow {
  kind: string;
  subject: string;
  minute: number;
  dropped: number;
}

const GAPS_SQL = `
insert into journal_gaps as g (subject_kind, subject, minute, dropped)
select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int8[])
on conflict (subject_kind, subject, minute) do update set dropped = g.dropped + excluded.dropped`;

const gapsValuesSql = (rows: number) => `
insert into journal_gaps as g (subject_kind, subject, minute, dropped)
values ${Array.from({ length: rows }, (_, i) => `($${4 * i + 1}::text, $${4 * i + 2}::text, $${4 * i + 3}::timestamptz, $${4 * i + 4}::int8)`).join(", ")}
on conflict (subject_kind, subject, minute) do update set dropped = g.dropped + excluded.dropped`;

/**
 * Adds dropped counts to the gaps. On Citus, where gaps are distributed by subject, one
 * `insert ... values` per subject: a router insert, committed on one worker.
 */
export async function recordJournalGaps(db: DbOrTx, gaps: readonly GapRow[]): Promise<void> {
  if (gaps.length === 0) return;
  if (!(await isCitus(db))) {
    const values = [gaps.map((g) => g.kind), gaps.map((g) => g.subject), gaps.map((g) => new Date(g.minute)), gaps.map((g) => g.dropped)];
    await runRaw(db, { name: "weir_journal_gaps_v1", text: GAPS_SQL, values });
    return;
  }
  const groups = new Map<string, GapRow[]>();
  for (const gap of gaps) groups.set(gap.subject, [...(groups.get(gap.subject) ?? []), gap]);
  for (const group of groups.values()) {
    // A node holds at most 10,000 gap rows (lib/journal/buffer.ts): 40,000 parameters, under a statement's 65,535.
    const values = group.flatMap((g) => [g.kind, g.subject, new Date(g.minute), g.dropped]);
    await runRaw(db, { name: "", text: gapsValuesSql(group.length), values });
  }
}
