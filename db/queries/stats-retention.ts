import type { ShardedDelete } from "../citus";
import { runRaw, type RawStatement } from "../raw";
import type { DbOrTx } from "../types";
import { ROLLUPS } from "./console-stats";

/**
 * The UTC day before which per-minute stats may go, on the database clock: `retentionMs` back,
 * and never a minute a rollup may still sum. A rollup step sums again from the bucket that holds
 * the 3 hours before its mark (stats-rollup-span.ts), for the daily rollup that whole day, so
 * minutes are kept from the day before the most lagging mark. Null until every rollup has a mark.
 */
export async function minutesCutoff(db: DbOrTx, retentionMs: number): Promise<Date | null> {
  const [row] = await runRaw<{ cutoff: Date | null }>(db, {
    name: "weir_stats_minutes_cutoff_v1",
    text: `select case when count(*) = $2 then least(date_trunc('day', now() - make_interval(secs => $1), 'UTC'),
        date_trunc('day', min(rolled_until) - interval '1 day', 'UTC')) end as cutoff
      from stats_rollup where name = any($3::text[])`,
    values: [retentionMs / 1000, ROLLUPS.length, ROLLUPS.map((r) => r.table)],
  });
  return row?.cutoff ? new Date(row.cutoff) : null;
}

/** Up to $3 minutes of one subject kind before the cutoff, oldest first, through the (subject_kind, bucket) index. */
export function deleteOldMinutesStatement(kind: string, cutoff: Date, limit: number): RawStatement {
  return {
    name: "weir_stats_minutes_delete_v1",
    text: `delete from stats_minute m where m.subject_kind = $1 and m.bucket < $2
      and (m.subject, m.bucket) in (select o.subject, o.bucket from stats_minute o where o.subject_kind = $1 and o.bucket < $2 order by o.bucket limit $3)
      returning 1`,
    values: [kind, cutoff, limit],
  };
}

/** The same on Citus, where a kind's minutes spread over every shard: picked once, deleted shard by shard. */
export function oldMinutesBatch(kind: string, cutoff: Date, limit: number): ShardedDelete<{ subject: string; bucket: Date }> {
  return {
    pick: {
      name: "weir_stats_minutes_pick_citus_v1",
      text: "select subject, bucket from stats_minute where subject_kind = $1 and bucket < $2 order by bucket limit $3",
      values: [kind, cutoff, limit],
    },
    table: "stats_minute",
    valueOf: (row) => row.subject,
    deleteOf: (part) => ({
      name: "weir_stats_minutes_delete_shard_v1",
      text: `delete from stats_minute where subject_kind = $1 and subject = any($2::text[]) and bucket < $4
        and (subject, bucket) in (select s, b from unnest($2::text[], $3::timestamptz[]) as u(s, b)) returning 1`,
      values: [kind, part.map((row) => row.subject), part.map((row) => row.bucket), cutoff],
    }),
  };
}
