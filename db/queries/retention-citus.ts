import type { ShardedDelete } from "../citus";

/*
 * Retention batches on Citus: a subject's keys spread over every shard, so a batch is picked by one
 * read over every shard and deleted with one statement per shard (no two-phase commit), the age
 * re-checked on each row removed, as the one-statement batches of db/queries/retention.ts do.
 */

/** Up to `limit` payload versions of a service recorded before the cutoff, oldest first. */
export function oldPayloadsBatch(serviceId: string, cutoff: Date, limit: number): ShardedDelete<{ message_id: string; version: string }> {
  return {
    pick: {
      name: "weir_retention_pick_payloads_citus_v1",
      text: "select message_id, version from payload_versions where service_id = $1 and recorded_at < $2 order by recorded_at limit $3",
      values: [serviceId, cutoff, limit],
    },
    table: "payload_versions",
    valueOf: (row) => row.message_id,
    deleteOf: (part) => ({
      name: "weir_retention_delete_payloads_shard_v1",
      text: `delete from payload_versions p where p.service_id = $1 and p.message_id = any($2::text[])
        and (p.message_id, p.version) in (select m, v from unnest($2::text[], $3::bigint[]) as u(m, v)) and p.recorded_at < $4 returning 1`,
      values: [serviceId, part.map((row) => row.message_id), part.map((row) => row.version), cutoff],
    }),
  };
}

/** Up to `limit` completed keys of a scope whose stored response is older than the cutoff: key and response go together. */
export function oldResponsesBatch(scope: string, cutoff: Date, limit: number): ShardedDelete<{ key: string }> {
  return {
    pick: {
      name: "weir_retention_pick_responses_citus_v1",
      text: `select key from idempotency_keys where scope = $1 and completed_at is not null and completed_at < $2 and status = 'completed'
        order by completed_at limit $3`,
      values: [scope, cutoff, limit],
    },
    table: "idempotency_keys",
    valueOf: (row) => row.key,
    deleteOf: (part) => ({
      name: "weir_retention_delete_responses_shard_v1",
      text: `delete from idempotency_keys where scope = $1 and key = any($2::text[]) and status = 'completed' and completed_at < $3 returning 1`,
      values: [scope, part.map((row) => row.key), cutoff],
    }),
  };
}
