import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

/** Every consumer group that has settings or stored records (one index probe per group). */
export async function listGroupIds(db: DbOrTx): Promise<string[]> {
  const result = await queryRows<{ id: string }>(db, sql`
    with recursive g as (
      (select consumer_group from window_records order by consumer_group limit 1)
      union all
      select (select r.consumer_group from window_records r where r.consumer_group > g.consumer_group
              order by r.consumer_group limit 1)
      from g where g.consumer_group is not null
    )
    select consumer_group as id from g where consumer_group is not null
    union select id from consumer_groups
    order by 1`);
  return result.map((row) => row.id);
}

export interface GroupWindowRow {
  id: string;
  ttlSeconds: number;
  graceSeconds: number;
  configured: boolean;
  /** How long the oldest record past its window and grace period has waited for cleanup; 0 when none. */
  cleanupLagSeconds: number;
}

/** TTL, grace and cleanup lag of each group, through (consumer_group, claimed_at): one probe per group. */
export async function groupWindows(db: DbOrTx, ids: readonly string[], defaultTtl: number): Promise<GroupWindowRow[]> {
  if (ids.length === 0) return [];
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select g.id, coalesce(cg.ttl_seconds, ${defaultTtl}::int) as ttl,
      coalesce(cg.grace_seconds, cg.ttl_seconds, ${defaultTtl}::int) as grace, cg.id is not null as configured,
      greatest(0, coalesce(extract(epoch from now() - (o.oldest + make_interval(
        secs => coalesce(cg.ttl_seconds, ${defaultTtl}::int) + coalesce(cg.grace_seconds, cg.ttl_seconds, ${defaultTtl}::int)
      ))), 0))::float8 as lag
    from unnest(${sql.param([...ids])}::text[]) as g(id)
    left join consumer_groups cg on cg.id = g.id
    cross join lateral (select min(r.claimed_at) as oldest from window_records r where r.consumer_group = g.id) o
    order by g.id`);
  return result.map((row) => ({
    id: String(row.id),
    ttlSeconds: Number(row.ttl),
    graceSeconds: Number(row.grace),
    configured: row.configured === true,
    cleanupLagSeconds: Number(row.lag),
  }));
}
