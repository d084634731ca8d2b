import type { RawStatement } from "@/db/raw";

/*
 * Cleanup on Citus. The loose index scan of the plain statements (a recursive
 * CTE) and their FOR UPDATE SKIP LOCKED batches do not run on distributed
 * tables, so here: groups come from one aggregate over every shard, and a batch
 * is picked by a LIMIT subquery (gathered on the coordinator) and deleted on
 * every shard, the expiry re-checked on each row it removes. Without SKIP LOCKED
 * a delete that meets a claim's row lock waits for that one claim.
 */

const SETTINGS = `coalesce(cg.ttl_seconds, $1::int) as ttl_seconds,
  coalesce(cg.grace_seconds, cg.ttl_seconds, $1::int) as grace_seconds`;

// One aggregate per shard, merged on the coordinator: a scan of the (consumer_group, claimed_at) index.
const OLDEST = `
with oldest as (select consumer_group, min(claimed_at) as oldest from window_records group by consumer_group),
settings as (
  select o.consumer_group, o.oldest, ${SETTINGS}
  from oldest o left join consumer_groups cg on cg.id = o.consumer_group
)`;

export function groupsToCleanCitusStatement(defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_groups_to_clean_citus_v1",
    text: `${OLDEST} select consumer_group from settings
      where oldest < now() - make_interval(secs => ttl_seconds + grace_seconds) order by consumer_group`,
    values: [defaultTtlSeconds],
  };
}

export function windowLagCitusStatement(defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_cleanup_lag_citus_v1",
    text: `${OLDEST} select coalesce(max(extract(epoch from now() - (oldest + make_interval(secs => ttl_seconds + grace_seconds)))), 0)::float8
      as lag_seconds from settings where oldest < now() - make_interval(secs => ttl_seconds + grace_seconds)`,
    values: [defaultTtlSeconds],
  };
}

/** The instant before which a group's records are past window and grace, on the database clock. */
export function groupCutoffStatement(consumerGroup: string, defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_group_cutoff_v1",
    text: `select now() - make_interval(secs => ttl_seconds + grace_seconds) as cutoff
      from (select ${SETTINGS} from (select $2::text as id) wanted left join consumer_groups cg on cg.id = wanted.id) s`,
    values: [defaultTtlSeconds, consumerGroup],
  };
}

export function deleteExpiredCitusStatement(consumerGroup: string, cutoff: Date, limit: number): RawStatement {
  return {
    name: "weir_window_delete_expired_citus_v1",
    text: `delete from window_records r
      where r.consumer_group = $1 and r.claimed_at < $2
        and r.message_id in (select w.message_id from window_records w
          where w.consumer_group = $1 and w.claimed_at < $2 order by w.claimed_at limit $3)
      returning 1`,
    values: [consumerGroup, cutoff, limit],
  };
}

/** Expired idempotency keys, a bounded batch, the expiry re-checked on each row removed. */
export function deleteExpiredKeysCitusStatement(cutoff: Date, limit: number): RawStatement {
  return {
    name: "weir_idempotency_delete_expired_citus_v1",
    text: `delete from idempotency_keys k
      where k.expires_at < $1
        and (k.scope, k.key) in (select e.scope, e.key from idempotency_keys e where e.expires_at < $1 order by e.expires_at limit $2)
      returning 1`,
    values: [cutoff, limit],
  };
}
