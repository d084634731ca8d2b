import type { RawStatement } from "@/db/raw";

// Distinct groups through the (consumer_group, claimed_at) index: one probe per group, not a scan.
const GROUPS_CTE = `
with recursive groups as (
  (select consumer_group from window_records order by consumer_group limit 1)
  union all
  select (select r.consumer_group from window_records r where r.consumer_group > g.consumer_group
          order by r.consumer_group limit 1)
  from groups g where g.consumer_group is not null
),
settings as (
  select g.consumer_group, coalesce(cg.ttl_seconds, $1::int) as ttl_seconds,
    coalesce(cg.grace_seconds, cg.ttl_seconds, $1::int) as grace_seconds
  from groups g left join consumer_groups cg on cg.id = g.consumer_group
  where g.consumer_group is not null
)`;

const OLDEST_PER_GROUP = `
from settings s
cross join lateral (select min(r.claimed_at) as oldest from window_records r where r.consumer_group = s.consumer_group) o
where o.oldest < now() - make_interval(secs => s.ttl_seconds + s.grace_seconds)`;

/** Groups whose oldest record is past its window and grace period: the ones a pass has work in. */
export function groupsToCleanStatement(defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_groups_to_clean_v1",
    text: `${GROUPS_CTE} select s.consumer_group ${OLDEST_PER_GROUP} order by s.consumer_group`,
    values: [defaultTtlSeconds],
  };
}

/**
 * Deletes up to $3 records of one group whose window and grace period are over.
 * Rows a claim holds are skipped, and the delete re-checks the expiry on the row
 * version it removes, so a record re-claimed meanwhile (a late redelivery) stays.
 */
const DELETE_EXPIRED_SQL = `
with settings as (
  select coalesce(cg.ttl_seconds, $2::int) + coalesce(cg.grace_seconds, cg.ttl_seconds, $2::int) as keep_seconds
  from (select $1::text as id) wanted left join consumer_groups cg on cg.id = wanted.id
),
deleted as (
  delete from window_records r
  where r.ctid = any(array(
      select w.ctid from window_records w
      where w.consumer_group = $1
        and w.claimed_at < now() - make_interval(secs => (select keep_seconds from settings))
      order by w.claimed_at
      limit $3
      for update skip locked))
    and r.consumer_group = $1
    and r.claimed_at < now() - make_interval(secs => (select keep_seconds from settings))
  returning 1
)
select count(*)::int as removed from deleted
`;

export function deleteExpiredStatement(consumerGroup: string, defaultTtlSeconds: number, limit: number): RawStatement {
  return { name: "weir_window_delete_expired_v1", text: DELETE_EXPIRED_SQL, values: [consumerGroup, defaultTtlSeconds, limit] };
}

/** How long the oldest removable record (window and grace over) has been waiting, in seconds. */
export function windowLagStatement(defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_cleanup_lag_v1",
    text: `${GROUPS_CTE}
select coalesce(max(extract(epoch from now() - (o.oldest + make_interval(secs => s.ttl_seconds + s.grace_seconds)))), 0)::float8
  as lag_seconds ${OLDEST_PER_GROUP}`,
    values: [defaultTtlSeconds],
  };
}
