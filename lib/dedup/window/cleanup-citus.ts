import type { ShardedDelete } from "@/db/citus";
import type { RawStatement } from "@/db/raw";

/*
 * Cleanup on Citus. The loose index scan of the plain statements (a recursive
 * CTE) and their FOR UPDATE SKIP LOCKED batches do not run on distributed
 * tables, so here: groups come from one aggregate over every shard, and a batch
 * is picked by one LIMIT read over every shard, then deleted with one statement
 * per shard (each commits on its worker: no two-phase commit), the expiry
 * re-checked on each row it removes. Without SKIP LOCKED a delete that meets a
 * claim's row lock waits for that one claim.
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

/** A group's records past window and grace, a bounded batch: deleted shard by shard, the expiry re-checked on each row. */
export function expiredRecordsBatch(consumerGroup: string, cutoff: Date, limit: number): ShardedDelete<{ message_id: string }> {
  return {
    pick: {
      name: "weir_window_pick_expired_citus_v1",
      text: "select message_id from window_records where consumer_group = $1 and claimed_at < $2 order by claimed_at limit $3",
      values: [consumerGroup, cutoff, limit],
    },
    table: "window_records",
    valueOf: (row) => row.message_id,
    deleteOf: (part) => ({
      name: "weir_window_delete_expired_shard_v1",
      text: "delete from window_records where consumer_group = $1 and message_id = any($2::text[]) and claimed_at < $3 returning 1",
      values: [consumerGroup, part.map((row) => row.message_id), cutoff],
    }),
  };
}

/** Expired idempotency keys, a bounded batch: deleted shard by shard, the expiry re-checked on each row. */
export function expiredKeysBatch(cutoff: Date, limit: number): ShardedDelete<{ scope: string; key: string }> {
  return {
    pick: {
      name: "weir_idempotency_pick_expired_citus_v1",
      text: "select scope, key from idempotency_keys where expires_at < $1 order by expires_at limit $2",
      values: [cutoff, limit],
    },
    table: "idempotency_keys",
    valueOf: (row) => row.key,
    deleteOf: (part) => ({
      name: "weir_idempotency_delete_expired_shard_v1",
      text: `delete from idempotency_keys k where k.key = any($2::text[])
        and (k.scope, k.key) in (select s, k from unnest($1::text[], $2::text[]) as u(s, k)) and k.expires_at < $3 returning 1`,
      values: [part.map((row) => row.scope), part.map((row) => row.key), cutoff],
    }),
  };
}
