import { groupByShard, isCitus } from "../citus";
import { runRaw } from "../raw";
import type { DbOrTx } from "../types";
import { STATS_FLUSH_SQL } from "./stats-flush-sql";

/** One subject's counts of one minute, added to what stats_minute holds. */
export interface StatsMinuteRow {
  kind: string;
  subject: string;
  /** The minute's start, in ms since the epoch. */
  bucket: number;
  counts: readonly [checks: number, news: number, changed: number, duplicates: number, errors: number, late: number];
}

function columnsOf(rows: readonly StatsMinuteRow[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], [], [], [], [], []];
  for (const row of rows) {
    [row.kind, row.subject, new Date(row.bucket).toISOString(), ...row.counts].forEach((value, i) => columns[i]!.push(value));
  }
  return columns;
}

const FLUSH_ON_SHARD_SQL = "select weir_stats_flush_v1($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/**
 * Adds `rows` to stats_minute; `written` hears each part once it has committed, so a caller that
 * meets an error keeps only what was not written. On Citus one call per shard, run on its worker
 * (`db` should be a pool: inside a transaction the call is not sent there): no two-phase commit.
 */
export async function addStatsMinutes(db: DbOrTx, rows: readonly StatsMinuteRow[], written: (part: readonly StatsMinuteRow[]) => void): Promise<void> {
  if (rows.length === 0) return;
  if (!(await isCitus(db))) {
    await runRaw(db, { name: "weir_stats_flush_v1", text: STATS_FLUSH_SQL, values: columnsOf(rows) });
    return written(rows);
  }
  for (const part of await groupByShard(db, "stats_minute", rows, (row) => row.subject)) {
    await runRaw(db, { name: "weir_stats_flush_shard_v1", text: FLUSH_ON_SHARD_SQL, values: [...columnsOf(part), part[0]!.subject] });
    written(part);
  }
}
