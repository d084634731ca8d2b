import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { serviceActivityCitus } from "./console-citus";
import { queryRows } from "./console-rows";
import type { ServiceActivityRow } from "./console-service-activity-row";

/**
 * Per service: hourly checks and duplicates of the last 24 h (from the minute rollup) and the last minute
 * with traffic (one backward probe of the rollup's primary key). Key counts: console-key-counts.ts.
 */
export async function serviceActivity(
  db: DbOrTx,
  serviceIds: readonly string[],
  since: Date,
  hourlyUntil: Date | null = null,
): Promise<ServiceActivityRow[]> {
  // Closed hours come from the hourly rollup (24 rows a service), only the rest from minutes (1,440 a day).
  const until = (hourlyUntil && hourlyUntil > since ? hourlyUntil : since).toISOString();
  if (serviceIds.length === 0) return [];
  if (await isCitus(db)) return serviceActivityCitus(db, serviceIds, since);
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    select s.id,
      (select max(m.bucket) from stats_minute m where m.subject_kind = 'service' and m.subject = s.id) as last_activity,
      (select coalesce(json_agg(json_build_array(extract(epoch from h.t) * 1000, h.checks, h.duplicates) order by h.t), '[]')
         from (select date_bin('1 hour', m.bucket, timestamptz '2000-01-01 00:00:00+00') as t, sum(m.checks)::float8 as checks,
                 sum(m.duplicates)::float8 as duplicates
               from (select bucket, checks, duplicates from stats_hour where subject_kind = 'service' and subject = s.id
                       and bucket >= ${since.toISOString()}::timestamptz and bucket < ${until}::timestamptz
                     union all
                     select bucket, checks, duplicates from stats_minute where subject_kind = 'service' and subject = s.id
                       and bucket >= ${until}::timestamptz) m
               group by 1) h) as hours
    from unnest(${sql.param([...serviceIds])}::text[]) as s(id)`);
  return rows.map((row) => {
    const hours = (typeof row.hours === "string" ? JSON.parse(row.hours) : row.hours) as [number, number, number][];
    return {
      serviceId: String(row.id),
      hours: hours.map(([t, checks, duplicates]) => ({ t: Number(t), checks: Number(checks), duplicates: Number(duplicates) })),
      lastActivity: row.last_activity ? new Date(row.last_activity as string) : null,
    };
  });
}
