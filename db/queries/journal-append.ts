import { isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";

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
}

// Column arrays, not a row per parameter: one plan for any batch size. `at` travels as integer
// microseconds so that no float rounding moves an entry.
const APPEND_SQL = `
insert into journal (at, mode, subject, key, decision, version, matched_at, hash_version, caller, request_id, trace_id)
select timestamptz 'epoch' + u.a * interval '1 microsecond', u.m, u.s, u.k, u.d, u.v, u.ma, u.hv, u.c, u.r, u.t
from unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::timestamptz[], $8::int4[], $9::text[], $10::text[], $11::text[])
  as u(a, m, s, k, d, v, ma, hv, c, r, t)`;

function columnsOf(entries: readonly JournalEntry[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], [], [], [], [], [], [], []];
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
  }
  return columns;
}

const SHARD_OF_SQL = "select get_shard_id_for_distribution_column('journal', k) as shard from unnest($1::text[]) with ordinality as u(k, i) order by i";

/**
 * On Citus one statement per shard: a statement that writes several shards commits with
 * two-phase commit, and the journal's appends run every second on every node.
 */
async function byShard(db: DbOrTx, entries: readonly JournalEntry[]): Promise<JournalEntry[][]> {
  const rows = await runRaw<{ shard: string }>(db, { name: "weir_journal_shards_v1", text: SHARD_OF_SQL, values: [entries.map((e) => e.key)] });
  const groups = new Map<string, JournalEntry[]>();
  rows.forEach((row, i) => {
    const group = groups.get(row.shard);
    if (group) group.push(entries[i]!);
    else groups.set(row.shard, [entries[i]!]);
  });
  return [...groups.values()];
}

/** Appends entries (their days' partitions must exist: see ensureJournalPartitions). */
export async function appendJournal(db: DbOrTx, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const groups = (await isCitus(db)) ? await byShard(db, entries) : [entries];
  for (const group of groups) await runRaw(db, { name: "weir_journal_append_v1", text: APPEND_SQL, values: columnsOf(group) });
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

/** Adds dropped counts to the gaps (one statement per subject on Citus, where gaps are distributed by subject). */
export async function recordJournalGaps(db: DbOrTx, gaps: readonly GapRow[]): Promise<void> {
  if (gaps.length === 0) return;
  const groups = new Map<string, GapRow[]>();
  if (await isCitus(db)) for (const gap of gaps) groups.set(gap.subject, [...(groups.get(gap.subject) ?? []), gap]);
  else groups.set("", [...gaps]);
  for (const group of groups.values()) {
    const values = [group.map((g) => g.kind), group.map((g) => g.subject), group.map((g) => new Date(g.minute)), group.map((g) => g.dropped)];
    await runRaw(db, { name: "weir_journal_gaps_v1", text: GAPS_SQL, values });
  }
}
