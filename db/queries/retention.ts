import { runRaw, type RawStatement } from "../raw";
import type { DbOrTx } from "../types";

/** Services and scopes with an age limit: the only ones a retention pass has work in. */
export async function retentionLimits(db: DbOrTx): Promise<{ kind: "service" | "scope"; id: string; seconds: number }[]> {
  const rows = await runRaw<{ kind: "service" | "scope"; id: string; seconds: number }>(db, {
    name: "weir_retention_limits_v1",
    text: `select 'service' as kind, id, payload_retention_seconds as seconds from services where payload_retention_seconds is not null
      union all
      select 'scope', id, response_retention_seconds from idempotency_scopes where response_retention_seconds is not null
      order by 1, 2`,
    values: [],
  });
  return rows.map((row) => ({ ...row, seconds: Number(row.seconds) }));
}

/** The instant before which rows of this age limit are past it, on the database clock (read once per subject and pass). */
export async function cutoffOf(db: DbOrTx, seconds: number): Promise<Date> {
  const [row] = await runRaw<{ cutoff: Date }>(db, { name: "weir_retention_cutoff_v1", text: "select now() - make_interval(secs => $1) as cutoff", values: [seconds] });
  return row!.cutoff;
}

/**
 * Up to $3 payload versions of a service recorded before the cutoff, oldest first, the age re-checked
 * on each row removed (on Citus, db/queries/retention-citus.ts deletes the batch shard by shard).
 */
export function deleteOldPayloadsStatement(serviceId: string, cutoff: Date, limit: number): RawStatement {
  return {
    name: "weir_retention_delete_payloads_v1",
    text: `delete from payload_versions p where p.service_id = $1 and p.recorded_at < $2
      and (p.message_id, p.version) in (select o.message_id, o.version from payload_versions o
        where o.service_id = $1 and o.recorded_at < $2 order by o.recorded_at limit $3)
      returning 1`,
    values: [serviceId, cutoff, limit],
  };
}

/** Up to $3 completed keys of a scope whose stored response is older than the cutoff: key and response go together. */
export function deleteOldResponsesStatement(scope: string, cutoff: Date, limit: number): RawStatement {
  return {
    name: "weir_retention_delete_responses_v1",
    text: `delete from idempotency_keys k where k.scope = $1 and k.status = 'completed' and k.completed_at < $2
      and k.key in (select o.key from idempotency_keys o
        where o.scope = $1 and o.completed_at is not null and o.completed_at < $2 and o.status = 'completed' order by o.completed_at limit $3)
      returning 1`,
    values: [scope, cutoff, limit],
  };
}
