import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import type { ServiceActivityRow } from "./console-service-activity-row";

/*
 * Console reads on Citus, where a correlated subquery per owner over a
 * distributed table is not planned. Hot tables are distributed by message id
 * (idempotency keys by key), so finding an exact id is one shard; the service
 * list is a few multi-shard aggregates, merged on the coordinator.
 */

/** Every place an exact id is stored: the three tables hold it on the same shard. */
export async function findExactIdCitus(db: DbOrTx, id: string, perKind: number): Promise<Record<string, unknown>[]> {
  return queryRows(db, sql`
    (select 'key' as kind, service_id as owner, message_id as id, version, last_changed as at
      from last_seen where message_id = ${id} order by service_id limit ${perKind})
    union all
    (select 'claim', consumer_group, message_id, null, claimed_at
      from window_records where message_id = ${id} order by consumer_group limit ${perKind})
    union all
    (select 'idempotency', scope, key, attempt, created_at
      from idempotency_keys where key = ${id} order by scope limit ${perKind})
    order by 1, 2`);
}

/**
 * Each service's last minute with traffic; for those with no minute left (past
 * WEIR_STATS_MINUTE_RETENTION), the last hour with traffic.
 */
async function lastActivityCitus(db: DbOrTx, serviceIds: readonly string[]): Promise<{ subject: string; last: string | Date }[]> {
  const lastOf = (table: "stats_minute" | "stats_hour", ids: readonly string[]) =>
    queryRows<{ subject: string; last: string | Date }>(db, sql`
      select subject, max(bucket) as last from ${sql.identifier(table)}
      where subject_kind = 'service' and subject = any(${sql.param([...ids])}::text[]) group by subject`);
  const minutes = await lastOf("stats_minute", serviceIds);
  const found = new Set(minutes.map((row) => row.subject));
  const idle = serviceIds.filter((id) => !found.has(id));
  return idle.length === 0 ? minutes : [...minutes, ...(await lastOf("stats_hour", idle))];
}

export async function serviceActivityCitus(db: DbOrTx, serviceIds: readonly string[], since: Date): Promise<ServiceActivityRow[]> {
  const ids = sql.param([...serviceIds]);
  const [last, hours] = await Promise.all([
    lastActivityCitus(db, serviceIds),
    queryRows<{ subject: string; t: string | Date; checks: number; duplicates: number }>(db, sql`
      select subject, date_bin('1 hour', bucket, timestamptz '2000-01-01 00:00:00+00') as t,
        sum(checks)::float8 as checks, sum(duplicates)::float8 as duplicates
      from stats_minute where subject_kind = 'service' and subject = any(${ids}::text[]) and bucket >= ${since.toISOString()}::timestamptz
      group by 1, 2 order by 2`),
  ]);
  return serviceIds.map((serviceId) => {
    const lastRow = last.find((row) => row.subject === serviceId);
    return {
      serviceId,
      hours: hours
        .filter((row) => row.subject === serviceId)
        .map((row) => ({ t: new Date(row.t).getTime(), checks: Number(row.checks), duplicates: Number(row.duplicates) })),
      lastActivity: lastRow ? new Date(lastRow.last) : null,
    };
  });
}
