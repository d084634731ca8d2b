import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import { distinctByProbes } from "./loose-index-scan";

/** Every consumer group that has settings or stored records (one index probe per group). */
export async function listGroupIds(db: DbOrTx): Promise<string[]> {
  // On Citus (no recursive CTE over a distributed table): one distinct per shard, merged.
  const citus = sql`select distinct consumer_group as id from window_records union select id from consumer_groups order by 1`;
  const result = await queryRows<{ id: string }>(db, (await isCitus(db)) ? citus : sql`
    select value as id from ${distinctByProbes("window_records", "consumer_group")} g
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

// Citus plans no correlated subquery over a distributed table: one aggregate over every shard instead.
const oldestPerGroupCitus = (ids: readonly string[]) => sql`left join (select consumer_group, min(claimed_at) as oldest
  from window_records where consumer_group = any(${sql.param([...ids])}::text[]) group by consumer_group) o on o.consumer_group = g.id`;

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
    ${(await isCitus(db)) ? oldestPerGroupCitus(ids) : sql`cross join lateral (select min(r.claimed_at) as oldest from window_records r where r.consumer_group = g.id) o`}
    order by g.id`);
  return result.map((row) => ({
    id: String(row.id),
    ttlSeconds: Number(row.ttl),
    graceSeconds: Number(row.grace),
    configured: row.configured === true,
    cleanupLagSeconds: Number(row.lag),
  }));
}

/**
 * A group exists once it has settings, stored claims or traffic in the stats (primary-key probes; the
 * hourly stats too, which keep what WEIR_STATS_MINUTE_RETENTION took from the minutes).
 */
export async function groupExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(db, sql`
    select exists (select 1 from consumer_groups where id = ${id})
      or exists (select 1 from window_records where consumer_group = ${id})
      or exists (select 1 from stats_minute where subject_kind = 'group' and subject = ${id})
      or exists (select 1 from stats_hour where subject_kind = 'group' and subject = ${id}) as found`);
  return row?.found === true;
}

export interface ClaimRecord {
  messageId: string;
  claimedAt: Date;
  previousClaimedAt: Date | null;
  /** The caller's ref given with the claim that opened the window (null: none). */
  ref: string | null;
}

/** One stored claim of a group, by its exact message id (a primary-key probe). */
export async function findClaim(db: DbOrTx, group: string, messageId: string): Promise<ClaimRecord | null> {
  const [row] = await queryRows<Record<string, unknown>>(db, sql`
    select message_id, claimed_at, previous_claimed_at, ref from window_records where consumer_group = ${group} and message_id = ${messageId}`);
  if (!row) return null;
  return {
    messageId: String(row.message_id),
    claimedAt: new Date(row.claimed_at as string),
    previousClaimedAt: row.previous_claimed_at ? new Date(row.previous_claimed_at as string) : null,
    ref: (row.ref as string | null) ?? null,
  };
}
