import { sql } from "drizzle-orm";
import { groupByShard } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import { ORIGIN, rollupSpan, TOTAL_KIND_PREFIX, UPDATE_CHANGED, type RollupTable } from "./stats-rollup-span";

/** The part of console-stats' Rollup this needs (named here, not imported: console-stats calls this file). */
interface ShardedRollup {
  table: RollupTable;
  stepMs: number;
}

/**
 * rollUp on Citus: the same span and sums, moved one shard per statement (each commits on one
 * worker) and the mark written last, on its own shard: no two-phase commit. Readers use the
 * rollup only before the mark, so the shards done before a failure are summed again next time.
 * No lock: every step sets rows to sums and the mark only grows, so two runs at once agree.
 */
export async function rollUpByShard(db: DbOrTx, rollup: ShardedRollup, maxHours: number, kinds: readonly string[]): Promise<Date | null> {
  const { step, ctes } = rollupSpan(rollup.table, rollup.stepMs, maxHours);
  const [span] = await queryRows<{ rolled_until: string | Date | null; from_at: string | Date | null; to_at: string | Date | null }>(db, sql`
    with ${ctes}
    select m.rolled_until, b.from_at, b.to_at from mark m left join bounds b on true`);
  const mark = span?.rolled_until ? new Date(span.rolled_until) : null;
  if (!span?.from_at || !span.to_at) return mark;
  const [from, to] = [new Date(span.from_at).toISOString(), new Date(span.to_at).toISOString()];
  const inSpan = sql`subject_kind = any(${sql.param([...kinds])}::text[]) and bucket >= ${from}::timestamptz and bucket < ${to}::timestamptz`;
  const subjects = await queryRows<{ subject: string }>(db, sql`select distinct subject from stats_minute where ${inSpan}`);
  for (const part of await groupByShard(db, "stats_minute", subjects, (row) => row.subject)) {
    await db.execute(sql`
      insert into ${sql.identifier(rollup.table)} as h (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
      select subject_kind, subject, date_bin(${step}, bucket, ${ORIGIN}),
             sum(checks), sum(new), sum(changed), sum(duplicates), sum(errors), sum(late_redeliveries)
      from stats_minute
      where subject = any(${sql.param(part.map((row) => row.subject))}::text[]) and ${inSpan}
      group by 1, 2, 3
      ${UPDATE_CHANGED}`);
  }
  // Each kind's sums over its subjects (totalKind), from the rows just moved. Read,
  // then written apart: as one INSERT ... SELECT, Citus wrote through every worker and committed
  // with two-phase commit. The rows (one per kind and bucket) all have subject '', so one shard.
  const totals = await queryRows<{ kind: string; bucket: string | Date; sums: string[] }>(db, sql`
    select ${TOTAL_KIND_PREFIX} || subject_kind as kind, bucket,
      array[sum(checks), sum(new), sum(changed), sum(duplicates), sum(errors), sum(late_redeliveries)]::text[] as sums
    from ${sql.identifier(rollup.table)} where ${inSpan} group by subject_kind, bucket`);
  if (totals.length > 0) {
    const values = totals.map(({ kind, bucket, sums }) => {
      const counters = sql.join(sums.map((n) => sql`${n}::bigint`), sql`, `);
      return sql`(${kind}, '', ${new Date(bucket).toISOString()}::timestamptz, ${counters})`;
    });
    await db.execute(sql`
      insert into ${sql.identifier(rollup.table)} as h (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
      values ${sql.join(values, sql`, `)}
      ${UPDATE_CHANGED}`);
  }
  const [moved] = await queryRows<{ rolled_until: string | Date }>(db, sql`
    insert into stats_rollup (name, rolled_until) values (${rollup.table}, ${to}::timestamptz)
    on conflict (name) do update set rolled_until = greatest(stats_rollup.rolled_until, excluded.rolled_until), updated_at = excluded.updated_at
    returning rolled_until`);
  return new Date(moved!.rolled_until);
}
