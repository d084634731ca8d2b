import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { serviceActivityCitus } from "./console-citus";
import { queryRows } from "./console-rows";
import type { ServiceActivityRow } from "./console-service-activity-row";
import { HOURS, QUARTERS, windowRows, type RolledSpan } from "./console-stats";

const HOUR_MS = HOURS.stepMs;

/**
 * Per service: hourly checks and duplicates since `since` and the last minute with traffic (one
 * backward probe of stats_minute's primary key; past WEIR_STATS_MINUTE_RETENTION, whose minutes are
 * gone, the last hour with traffic). Key counts: console-key-counts.ts.
 *
 * The hours are read for the given services at once: the closed hours as the hourly rollup has them,
 * and only the hour or so past its mark summed again, from quarters and minutes. Read service by
 * service from minutes past the hourly mark, each minute was a heap page of its own: at 100 services
 * this was most of the services list's wall time (docs/performance-console.md).
 */
export async function serviceActivity(db: DbOrTx, serviceIds: readonly string[], since: Date, rolled: readonly RolledSpan[]): Promise<ServiceActivityRow[]> {
  if (serviceIds.length === 0) return [];
  if (await isCitus(db)) return serviceActivityCitus(db, serviceIds, since);
  const hourly = rolled.find((r) => r.rollup === HOURS);
  const rolledHoursEnd = new Date(Math.max(since.getTime(), Math.floor((hourly?.until.getTime() ?? 0) / HOUR_MS) * HOUR_MS));
  const rest = { kind: "service" as const, since: rolledHoursEnd, rolled: rolled.filter((r) => r.rollup === QUARTERS) };
  const ids = sql.param([...serviceIds]);
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    select s.id,
      coalesce((select max(m.bucket) from stats_minute m where m.subject_kind = 'service' and m.subject = s.id),
        (select max(d.bucket) from stats_hour d where d.subject_kind = 'service' and d.subject = s.id)) as last_activity,
      coalesce(h.hours, '[]') as hours
    from unnest(${ids}::text[]) as s(id)
    left join (
      select subject, json_agg(json_build_array(t, checks, duplicates) order by t) as hours
      from (select subject, extract(epoch from bucket) * 1000 as t, checks::float8 as checks, duplicates::float8 as duplicates
            from stats_hour where subject_kind = 'service' and subject = any(${ids}::text[])
              and bucket >= ${since.toISOString()}::timestamptz and bucket < ${rolledHoursEnd.toISOString()}::timestamptz
            union all
            select subject, extract(epoch from date_bin('1 hour', bucket, timestamptz '2000-01-01 00:00:00+00')) * 1000,
              sum(checks)::float8, sum(duplicates)::float8
            from (${windowRows(rest)}) r
            where subject = any(${ids}::text[])
            group by 1, 2) x
      group by subject) h on h.subject = s.id`);
  return rows.map((row) => {
    const hours = (typeof row.hours === "string" ? JSON.parse(row.hours) : row.hours) as [number, number, number][];
    return {
      serviceId: String(row.id),
      hours: hours.map(([t, checks, duplicates]) => ({ t: Number(t), checks: Number(checks), duplicates: Number(duplicates) })),
      lastActivity: row.last_activity ? new Date(row.last_activity as string) : null,
    };
  });
}
